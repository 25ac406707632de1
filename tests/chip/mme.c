/* Suite `mme`: the matrix engines at chip level.
 *
 * Operands are written into device memory (HBM model, back door), the job is
 * programmed through the host port into the MME's registers (system bus, APB),
 * the engine streams A/B and writes C through the AXI fabric, and its completion
 * message travels over the system bus into a SYSCTRL scratch register. C is
 * compared bit-exactly with the C golden model (tests/mme/mme_golden.c,
 * docs/numerics.md). Block-level coverage of every type combination, special
 * values and bad input is in tests/mme (suite `mme`); this suite proves the
 * engines work inside the chip and splits one GEMM over all MMEs.
 *
 * Each MME reaches memory through its DCORE's L2 slice (docs/l2.md). The back door
 * and the host port see memory behind the slices, so a job invalidates the L2 after
 * the operands were written and flushes it before C is read (the coherence contract
 * of docs/l2.md); cjob_run() does both. The job helpers are shared with the `l2`
 * suite (tests/chip/chip_gemm.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chip_gemm.h"
#include "chip_l2.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "tessera/cp_pkt.h"

static uint32_t round32(uint32_t x) { return (x + 31u) & ~31u; }

/* Moderate magnitudes (FP32 exponent in [2^-8, 2^8)) rounded into format f, so
 * that long dot products neither overflow nor vanish. */
static uint32_t gen_val(tf_ctx_t *t, nf_fmt f) {
  uint32_t x = (tf_rand32(t) & 0x80000000u) | ((119u + tf_rand_below(t, 16)) << 23) |
               (tf_rand32(t) & 0x7FFFFFu);
  return nf_convert(NF_FP32, f, x, 0, 1);
}

/* Build operand images for a job at device address `base`; compute the golden C. */
void cjob_prepare(tf_ctx_t *t, cjob_t *j, uint32_t base) {
  const mme_gold_job *g = &j->g;
  int ab = nf_bytes(g->ta), bb = nf_bytes(g->tb), cb = nf_bytes(g->tc);
  j->lda = round32(g->k * (uint32_t)ab);
  j->ldb = round32(g->n * (uint32_t)bb);
  j->ldc = round32(g->n * (uint32_t)cb);
  size_t asz = (size_t)g->m * j->lda, bsz = (size_t)g->k * j->ldb, csz = (size_t)g->m * j->ldc;
  j->ai = calloc(1, asz);
  j->bi = calloc(1, bsz);
  j->ci = calloc(1, csz);
  j->cexp = calloc(1, csz);
  for (uint32_t r = 0; r < g->m; r++)
    for (uint32_t c = 0; c < g->k; c++) mme_st(j->ai + (size_t)r * j->lda + c * ab, ab, gen_val(t, g->ta));
  for (uint32_t r = 0; r < g->k; r++)
    for (uint32_t c = 0; c < g->n; c++) mme_st(j->bi + (size_t)r * j->ldb + c * bb, bb, gen_val(t, g->tb));
  for (size_t i = 0; i < csz; i++) j->ci[i] = (uint8_t)(0x5A ^ i);  /* canary in the padding */
  memcpy(j->cexp, j->ci, csz);
  mme_golden(g, j->ai, j->lda, j->bi, j->ldb, j->ci, j->cexp, j->ldc, NULL);
  j->a = base;
  j->b = j->a + (uint32_t)round32((uint32_t)asz) + 256u;
  j->c = j->b + (uint32_t)round32((uint32_t)bsz) + 256u;
  j->cache = MME__CACHE__RD_ALLOC_bm | MME__CACHE__WR_ALLOC_bm;  /* the reset value */
  tsim_mem_write(t->sim, j->a, j->ai, asz);
  tsim_mem_write(t->sim, j->b, j->bi, bsz);
  tsim_mem_write(t->sim, j->c, j->ci, csz);
}

void cjob_free(cjob_t *j) {
  free(j->ai);
  free(j->bi);
  free(j->ci);
  free(j->cexp);
}

/* Program engine e for rows [m0, m0+mrows) of job j; the completion message
 * writes `tag` into SYSCTRL scratch register e. */
int cjob_program(tf_ctx_t *t, int e, const cjob_t *j, uint32_t m0, uint32_t mrows, uint32_t tag) {
  const mme_gold_job *g = &j->g;
  struct { uint32_t off, val; } w[] = {
      {MME_REG(e, A_ADDR), j->a + m0 * j->lda},
      {MME_REG(e, B_ADDR), j->b},
      {MME_REG(e, C_ADDR), j->c + m0 * j->ldc},
      {MME_REG(e, BIAS_ADDR), 0},
      {MME_REG(e, DIM_M), mrows},
      {MME_REG(e, DIM_N), g->n},
      {MME_REG(e, DIM_K), g->k},
      {MME_REG(e, LDA), j->lda},
      {MME_REG(e, LDB), j->ldb},
      {MME_REG(e, LDC), j->ldc},
      {MME_REG(e, DTYPE), ((uint32_t)g->ta << MME__DTYPE__A_TYPE_bp) |
                              ((uint32_t)g->tb << MME__DTYPE__B_TYPE_bp) |
                              ((uint32_t)g->tc << MME__DTYPE__C_TYPE_bp) |
                              ((uint32_t)g->sat << MME__DTYPE__SAT_bp)},
      {MME_REG(e, SCALE), 0},
      {MME_REG(e, MSG_ADDR), SCRATCH((uint32_t)e)},
      {MME_REG(e, MSG_DATA), tag},
      {MME_REG(e, MSG_CTRL), 1},
      {MME_REG(e, CACHE), j->cache},
  };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    TF_CHECK_OK(t, tsim_host_write32(t->sim, w[i].off, w[i].val));
  return TF_PASS;
}

int cjob_engines_done(tsim_t *s, void *ctx) {
  cjob_done_t *d = ctx;
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    if (!((d->mask >> e) & 1u)) continue;
    uint32_t st = 0;
    if (tsim_host_read32(s, MME_REG(e, STATUS), &st) != TSIM_OK) return 1;
    if (!(st & MME__STATUS__DONE_bm) && FIELD(st, MME__STATUS__ERR) == 0) return 0;
  }
  return 1;
}

/* (an engine counts as finished when it is done or reports an error) */

/* Run job j split by rows (or columns, CJOB_SPLIT_N) over the engines in `mask`;
 * check status and messages, and (unless CJOB_NO_CHECK) flush the L2 and check C.
 * Unless CJOB_WARM, the L2 is invalidated first (the operands were written behind
 * it). The engines sit behind different L2 slices, which write back whole lines, so
 * every slice boundary of C falls on an L2 line (docs/l2.md, "Coherence"): a row
 * slice covers whole lines of C, a column slice a multiple of 32 columns and of a
 * line (LDC is then a multiple of the line too, as cjob_prepare() makes it for
 * these shapes). */
int cjob_run(tf_ctx_t *t, cjob_t *j, unsigned mask, unsigned flags, uint64_t *cycles) {
  unsigned n = (unsigned)__builtin_popcount(mask), k = 0;
  uint32_t cb = (uint32_t)nf_bytes(j->g.tc);
  uint32_t rows = (j->g.m + n - 1) / n, cols = (j->g.n + n - 1) / n;
  while ((rows * j->ldc) % TESSERA_L2_LINE_BYTES) rows++;
  while (cols % 32u || (cols * cb) % TESSERA_L2_LINE_BYTES) cols++;
  if ((flags & CJOB_SPLIT_N) && n > 1 && j->ldc % TESSERA_L2_LINE_BYTES)
    return tf_fail(t, "column split needs LDC (%u) a multiple of the L2 line", j->ldc);
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, SCRATCH(e), 0));
    if (!((mask >> e) & 1u)) continue;
    int rc;
    if (flags & CJOB_SPLIT_N) {
      uint32_t n0 = k * cols, nc = (n0 + cols > j->g.n) ? j->g.n - n0 : cols;
      rc = cjob_program(t, (int)e, j, 0, j->g.m, 0xD0E0u + e);
      if (rc == TF_PASS) {
        TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, B_ADDR), j->b + n0 * (uint32_t)nf_bytes(j->g.tb)));
        TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, C_ADDR), j->c + n0 * cb));
        TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, DIM_N), nc));
      }
    } else {
      uint32_t m0 = k * rows, mr = (m0 + rows > j->g.m) ? j->g.m - m0 : rows;
      rc = cjob_program(t, (int)e, j, m0, mr, 0xD0E0u + e);
    }
    k++;
    if (rc != TF_PASS) return rc;
  }
  if (!(flags & CJOB_WARM)) TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  uint64_t t0 = tsim_cycles(t->sim);
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++)
    if ((mask >> e) & 1u) TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, CTRL), MME__CTRL__COMMIT_bm));
  cjob_done_t d = {mask};
  TF_CHECK_OK(t, tsim_run_until(t->sim, cjob_engines_done, &d, t->budget, 16));
  if (cycles) *cycles = tsim_cycles(t->sim) - t0;
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    if (!((mask >> e) & 1u)) continue;
    uint32_t st = 0, msg = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(e, STATUS), &st));
    if (FIELD(st, MME__STATUS__ERR)) return tf_fail(t, "MME%u error code %u", e, (unsigned)FIELD(st, MME__STATUS__ERR));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SCRATCH(e), &msg));
    if (msg != 0xD0E0u + e) return tf_fail(t, "MME%u completion message: scratch = 0x%x", e, msg);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, STATUS), MME__STATUS__DONE_bm));
  }
  if (flags & CJOB_NO_CHECK) return TF_PASS;
  TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
  return cjob_check_c(t, j);
}

/* Compare C in memory (back door) with the golden model. */
int cjob_check_c(tf_ctx_t *t, const cjob_t *j) {
  size_t csz = (size_t)j->g.m * j->ldc;
  uint8_t *got = malloc(csz);
  tsim_mem_read(t->sim, j->c, got, csz);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < csz; i++)
    if (got[i] != j->cexp[i] && bad++ == 0) first = i;
  free(got);
  if (bad)
    return tf_fail(t, "%zu bytes of C differ from the golden model (first at row %zu, byte %zu)", bad,
                   first / j->ldc, first % j->ldc);
  return TF_PASS;
}

static int gemm_case(tf_ctx_t *t, nf_fmt ta, nf_fmt tb, nf_fmt tc, uint32_t m, uint32_t n, uint32_t k,
                     unsigned mask) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = m;
  j.g.n = n;
  j.g.k = k;
  j.g.ta = ta;
  j.g.tb = tb;
  j.g.tc = tc;
  j.g.sat = 1;
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x100000u + 256u * tf_rand_below(t, 64));
  uint64_t cyc = 0;
  int rc = cjob_run(t, &j, mask, 0, &cyc);
  if (rc == TF_PASS)
    tf_log(t, "%ux%ux%u %s x %s -> %s on engines 0x%x: %llu cycles", m, n, k, nf_name(ta), nf_name(tb),
           nf_name(tc), mask, (unsigned long long)cyc);
  cjob_free(&j);
  return rc;
}

#define R TESSERA_MME_ROWS
#define ALL_MME ((1u << TESSERA_NUM_MME) - 1u)

/* One BF16 GEMM with edges on every side: part of ./chip_tb's smoke run. */
TF_TEST_F(mme, gemm_bf16_fp32, 3000000, TF_SMOKE) {
  return gemm_case(t, NF_BF16, NF_BF16, NF_FP32, R + 3, 2 * R - 1, 3 * R + 5, 1u);
}

TF_TEST(mme, gemm_fp8_mixed_bf16, 3000000) {
  return gemm_case(t, NF_E4M3, NF_E5M2, NF_BF16, 2 * R + 1, R + 7, 2 * R + 3, 1u);
}

TF_TEST(mme, gemm_fp16_e4m3_sat, 3000000) {
  return gemm_case(t, NF_FP16, NF_FP16, NF_E4M3, R - 1, R + 1, R + 2, 1u);
}

TF_TEST(mme, gemm_fp32, 3000000) {
  return gemm_case(t, NF_FP32, NF_FP32, NF_FP32, R / 2 + 1, R + 3, R > 3 ? R - 3 : R + 1, 1u);
}

/* Every engine of the chip takes a slice of one GEMM's rows (white paper fig. 10). */
TF_TEST(mme, gemm_split_all_engines, 4000000) {
  return gemm_case(t, NF_BF16, NF_BF16, NF_FP32, 4 * R + 3, 2 * R + 5, 2 * R, ALL_MME);
}

/* Bad input through the chip: a zero dimension is refused with an error code, the
 * engine writes nothing and runs the next job correctly. */
TF_TEST(mme, refuse_zero_dim_then_recover, 3000000) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = R;
  j.g.n = R;
  j.g.k = R;
  j.g.ta = j.g.tb = NF_BF16;
  j.g.tc = NF_FP32;
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x200000u);
  int rc = cjob_program(t, 0, &j, 0, 0, 0xBAD0u);  /* M = 0 */
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, SCRATCH(0), 0));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, CTRL), MME__CTRL__COMMIT_bm));
    cjob_done_t d = {1u};
    TF_CHECK_OK(t, tsim_run_until(t->sim, cjob_engines_done, &d, 200000, 16));
    uint32_t st = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, STATUS), &st));
    if (FIELD(st, MME__STATUS__ERR) == 0) rc = tf_fail(t, "M=0 accepted (status 0x%08x)", st);
    size_t csz = (size_t)j.g.m * j.ldc;
    TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
    uint8_t *got = malloc(csz);
    tsim_mem_read(t->sim, j.c, got, csz);
    if (rc == TF_PASS && memcmp(got, j.ci, csz) != 0) rc = tf_fail(t, "refused job wrote C");
    free(got);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, STATUS), MME__STATUS__DONE_bm));
  }
  if (rc == TF_PASS) rc = cjob_run(t, &j, 1u, 0, NULL);
  cjob_free(&j);
  return rc;
}

/* ---------------------------------------------------------------- benchmarks
 * Utilization = ideal / measured cycles, ideal = M*N*K / (rows*cols*engines),
 * measured from the commit writes to the last engine reporting done (through
 * the host port, polled every 16 cycles). A and B have the type of the test
 * name, C is FP32. Cold: the L2 is invalidated before the job (operands come from
 * the HBM model through the L2). Warm: the same job ran once before, so A, B and
 * C's lines are in the L2 as far as they fit (a slice holds 64 KiB). Several
 * engines split the rows (`_all`) or the columns (`_cols`). Results are still
 * checked bit-exactly. `make bench` (line mme_chip); the MMEBENCH lines feed
 * util/mme_bench_plot.py. */
#define BENCH_HASH 0x100u /* the slices' set-index hash on (CTRL.set_hash, docs/l2.md "Banks") */
/* C in the input type, as in the block-level table (docs/mme.md §6), instead of FP32: a
 * 16-column tile row is then one beat (half a line) instead of two; the MMEBENCH line says
 * " C <type>" before the colon (util/mme_bench_plot.py plots only the FP32-C lines) */
#define BENCH_CIN  0x200u
static int bench_case(tf_ctx_t *t, nf_fmt ty, uint32_t m, uint32_t n, uint32_t k, unsigned mask,
                      unsigned flags) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = m;
  j.g.n = n;
  j.g.k = k;
  j.g.ta = j.g.tb = ty;
  j.g.tc = (flags & BENCH_CIN) ? ty : NF_FP32;
  cjob_prepare(t, &j, TESSERA_HBM_BASE + 0x100000u);
  uint64_t cyc = 0;
  int warm = (flags & CJOB_WARM) != 0, hash = (flags & BENCH_HASH) != 0;
  int rc = hash ? chip_l2_set_hash(t, 1) : TF_PASS;
  flags &= ~(BENCH_HASH | BENCH_CIN);
  if (rc == TF_PASS && warm) rc = cjob_run(t, &j, mask, (flags & CJOB_SPLIT_N) | CJOB_NO_CHECK, NULL);
  if (rc == TF_PASS) rc = cjob_run(t, &j, mask, flags, &cyc);
  unsigned ne = (unsigned)__builtin_popcount(mask);
  double ideal = (double)m * n * k / ((double)TESSERA_MME_ROWS * TESSERA_MME_COLS * ne);
  uint32_t sin = 0, sout = 0;  /* engine 0's stall counters (array waiting for operands / drain) */
  uint32_t busy = 0;           /* the longest PERF_BUSY of the engines: commit -> last write landed */
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, PERF_STALL_IN), &sin));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, PERF_STALL_OUT), &sout));
    for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
      uint32_t b = 0;
      if (!((mask >> e) & 1u)) continue;
      TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(e, PERF_BUSY), &b));
      if (b > busy) busy = b;
    }
    if (busy == 0 || busy > cyc) return tf_fail(t, "PERF_BUSY %u outside (0, %llu]", busy, (unsigned long long)cyc);
    /* `busy` is the measure (commit to the last write landed, per engine); `cycles`
     * adds the host port's commit write and completion polling (16-cycle steps) */
    printf("MMEBENCH %s %ux%ux%u engines %u%s L2 %s%s%s%s: %llu cycles, ideal %.0f, utilization %.1f%%"
           " (MME0 stall in %u, stall out %u); engine busy %u, utilization %.1f%%\n",
           nf_name(ty), m, n, k, ne, (ne > 1) ? ((flags & CJOB_SPLIT_N) ? " cols" : " rows") : "",
           warm ? "warm" : "cold", hash ? " set-hash" : "", (j.g.tc != NF_FP32) ? " C " : "",
           (j.g.tc != NF_FP32) ? nf_name(j.g.tc) : "", (unsigned long long)cyc, ideal,
           100.0 * ideal / (double)cyc, sin, sout, busy, 100.0 * ideal / (double)busy);
    tf_bench(t, NULL, NULL, (double)cyc, ideal,
             "\"type\":\"%s\",\"m\":%u,\"n\":%u,\"k\":%u,\"engines\":%u,\"split\":\"%s\",\"l2\":\"%s\","
             "\"set_hash\":%s,\"c_type\":\"%s\",\"stall_in\":%u,\"stall_out\":%u,\"busy\":%u",
             nf_name(ty), m, n, k, ne, (ne > 1) ? ((flags & CJOB_SPLIT_N) ? "cols" : "rows") : "",
             warm ? "warm" : "cold", hash ? "true" : "false", nf_name(j.g.tc), sin, sout, busy);
  }
  if (hash && rc == TF_PASS) rc = chip_l2_set_hash(t, 0);
  cjob_free(&j);
  return rc;
}

#define BENCH(name, ty, m, n, k, mask, flags) \
  TF_TEST_F(mme, bench_##name, 60000000, TF_BENCH) { return bench_case(t, ty, m, n, k, mask, flags); }
#define BENCH_SQ(name, ty, x, xs)                                                  \
  BENCH(name##_##xs, ty, x * R, x * R, x * R, 1u, 0u)                             \
  BENCH(name##_##xs##_warm, ty, x * R, x * R, x * R, 1u, CJOB_WARM)               \
  BENCH(name##_##xs##_all, ty, x * R, x * R, x * R, ALL_MME, 0u)                  \
  BENCH(name##_##xs##_warm_all, ty, x * R, x * R, x * R, ALL_MME, CJOB_WARM)      \
  BENCH(name##_##xs##_cols, ty, x * R, x * R, x * R, ALL_MME, CJOB_SPLIT_N)       \
  BENCH(name##_##xs##_warm_cols, ty, x * R, x * R, x * R, ALL_MME, CJOB_WARM | CJOB_SPLIT_N)
BENCH_SQ(bf16, NF_BF16, 4, 4x)
BENCH_SQ(bf16, NF_BF16, 16, 16x)
BENCH_SQ(e4m3, NF_E4M3, 4, 4x)
BENCH_SQ(e4m3, NF_E4M3, 16, 16x)
BENCH(bf16_4x_warm_cin, NF_BF16, 4 * R, 4 * R, 4 * R, 1u, CJOB_WARM | BENCH_CIN)
BENCH(e4m3_4x_warm_cin, NF_E4M3, 4 * R, 4 * R, 4 * R, 1u, CJOB_WARM | BENCH_CIN)
BENCH(bf16_4x_cin, NF_BF16, 4 * R, 4 * R, 4 * R, 1u, BENCH_CIN)
BENCH(bf16_16x_cin, NF_BF16, 16 * R, 16 * R, 16 * R, 1u, BENCH_CIN)
BENCH(bf16_llm, NF_BF16, 16, 4096, 1024, 1u, 0u)
BENCH(bf16_llm_cols, NF_BF16, 16, 4096, 1024, ALL_MME, CJOB_SPLIT_N)
BENCH(e4m3_llm, NF_E4M3, 16, 4096, 1024, 1u, 0u)
BENCH(e4m3_llm_cols, NF_E4M3, 16, 4096, 1024, ALL_MME, CJOB_SPLIT_N)
/* a short LLM-like shape (B rows 4 KiB apart, 64 of them) */
BENCH(e4m3_llm_k64, NF_E4M3, 16, 4096, 64, 1u, 0u)
BENCH(e4m3_llm_k64_hash, NF_E4M3, 16, 4096, 64, 1u, BENCH_HASH)
/* the same with the slices' set-index hash on */
BENCH(bf16_16x_hash, NF_BF16, 16 * R, 16 * R, 16 * R, 1u, BENCH_HASH)
BENCH(bf16_16x_all_hash, NF_BF16, 16 * R, 16 * R, 16 * R, ALL_MME, BENCH_HASH)
BENCH(e4m3_16x_hash, NF_E4M3, 16 * R, 16 * R, 16 * R, 1u, BENCH_HASH)
BENCH(e4m3_16x_all_hash, NF_E4M3, 16 * R, 16 * R, 16 * R, ALL_MME, BENCH_HASH)
BENCH(bf16_llm_hash, NF_BF16, 16, 4096, 1024, 1u, BENCH_HASH)
BENCH(bf16_llm_cols_hash, NF_BF16, 16, 4096, 1024, ALL_MME, CJOB_SPLIT_N | BENCH_HASH)
BENCH(e4m3_llm_hash, NF_E4M3, 16, 4096, 1024, 1u, BENCH_HASH)
BENCH(e4m3_llm_cols_hash, NF_E4M3, 16, 4096, 1024, ALL_MME, CJOB_SPLIT_N | BENCH_HASH)

/* ---------------------------------------------------------------- back-to-back jobs
 * `njobs` GEMMs of x*x*x (A, B of type ty, C FP32), each with its own operands in device
 * memory, queued in one command buffer on MME 0's queue manager: per job one WREG_BULK
 * of the job registers and a WREG32 of CTRL.commit. Each job's completion message adds 1
 * to a sync object; the buffer ends with STOP behind an engine barrier. The L2 is cold
 * (invalidated after the operands were written), as in the other cold benches.
 *
 * Where the engine barrier sits decides how much of the control path a job waits for:
 * B2B_EB_BULK puts it on the WREG_BULK (the queue writes the next job's registers only
 * after the previous job ended), otherwise it is on the commit only (the engine latches
 * its registers at commit, docs/mme.md §2, so the next job's registers are written while
 * the current job runs, and only the commit waits).
 *
 * Measured with the simulator's probe, cycle by cycle (no host-port traffic during the
 * run): from the first cycle the engine is not idle (the first commit latched) to the
 * last cycle it is not idle (the last job's message sent). ideal = njobs * x^3 /
 * (rows * cols). Also counted: the cycles the engine is idle in between (the queue's
 * share of the gap between jobs). Every job's C is checked against the golden model. */
#define B2B_EB_BULK 0x1u
#define SM_SOB_ADD(i) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_ADD) + 4u * (i))
#define SM_SOB_SET(i) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * (i))
#define QM_REG(slot, r) (TESSERA_QMAN_ADDR(slot) + (uint32_t)offsetof(qman_t, r))
static int b2b_case(tf_ctx_t *t, nf_fmt ty, uint32_t x, unsigned njobs, unsigned flags, int bench) {
  const unsigned slot = TESSERA_QMAN_SLOT_MME, sob = 17;  /* MME 0's queue */
  const uint32_t cbase = TESSERA_HBM_BASE + 0x40000u;
  uint32_t ab = (uint32_t)nf_bytes(ty), lda = round32(x * ab), ldc = round32(x * 4u);
  uint32_t stride = (2u * x * lda + x * ldc + 512u + 4095u) & ~4095u;
  cjob_t *jobs = calloc(njobs, sizeof *jobs);
  uint32_t *words = calloc(32u * njobs + 8u, sizeof *words);
  cp_buf_t b;
  cp_buf_init(&b, words, 32u * njobs + 8u);
  for (unsigned i = 0; i < njobs; i++) {
    cjob_t *j = &jobs[i];
    j->g.m = j->g.n = j->g.k = x;
    j->g.ta = j->g.tb = ty;
    j->g.tc = NF_FP32;
    j->g.sat = 1;
    cjob_prepare(t, j, TESSERA_HBM_BASE + 0x100000u + i * stride);
    uint32_t v[] = {j->a, j->b, j->c, 0, x, x, x, j->lda, j->ldb, j->ldc,
                    ((uint32_t)ty << MME__DTYPE__A_TYPE_bp) | ((uint32_t)ty << MME__DTYPE__B_TYPE_bp) |
                        ((uint32_t)NF_FP32 << MME__DTYPE__C_TYPE_bp) | (1u << MME__DTYPE__SAT_bp),
                    0, SM_SOB_ADD(sob), 1, 1};
    cp_wreg_bulk(&b, (i && (flags & B2B_EB_BULK)) ? CP_HDR_EB : 0, (uint32_t)offsetof(mme_t, A_ADDR),
                 (uint32_t)(sizeof v / sizeof v[0]), v);
    cp_wreg32(&b, (i && !(flags & B2B_EB_BULK)) ? CP_HDR_EB : 0, (uint32_t)offsetof(mme_t, CTRL),
              MME__CTRL__COMMIT_bm);
  }
  cp_stop(&b, CP_HDR_EB);
  int rc = TF_PASS;
  uint64_t t0 = 0, t1 = 0, idle_gap = 0, last_busy = 0;
  unsigned starts = 0;
  if (tsim_mem_write(t->sim, cbase, words, 4u * b.n) != TSIM_OK) rc = tf_fail(t, "command buffer write");
#define B2B_W(a, v) \
  if (rc == TF_PASS && tsim_host_write32(t->sim, (a), (v)) != TSIM_OK) rc = tf_fail(t, "host write 0x%08x", (a))
  B2B_W(SM_SOB_SET(sob), 0);
  B2B_W(QM_REG(slot, CFG), 0);
  B2B_W(QM_REG(slot, CB_BASE), cbase);
  B2B_W(QM_REG(slot, CB_SIZE), 4u * b.n);
  B2B_W(MME_REG(0, STATUS), MME__STATUS__DONE_bm | MME__STATUS__BUSY_REJECT_bm);
  if (rc == TF_PASS && tsim_l2_invalidate_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 invalidate");
  B2B_W(QM_REG(slot, CTRL), QMAN__CTRL__START_bm);
#undef B2B_W
  /* cycle by cycle until the queue manager is idle again (its STOP waits for the engine) */
  uint64_t budget = 4000u * njobs + (uint64_t)njobs * x * x * x / 16u, n = 0;
  int was_idle = 1;
  while (rc == TF_PASS) {
    tsim_probe_t p;
    if (tsim_step(t->sim, 1) != TSIM_OK) rc = tf_fail(t, "step: %s", tsim_last_error(t->sim));
    tsim_probe(t->sim, &p);
    uint64_t now = tsim_cycles(t->sim);
    int idle = (p.eng_idle >> slot) & 1u;
    if (!idle) {
      if (was_idle) {
        if (!starts++) t0 = now;
        else idle_gap += now - last_busy - 1u;
      }
      last_busy = now;
    }
    was_idle = idle;
    if (!((p.qman_busy >> slot) & 1u) && starts) break;
    if (++n > budget) rc = tf_fail(t, "queue not done after %llu cycles", (unsigned long long)n);
  }
  t1 = last_busy + 1u;
  uint32_t st = 0, ms = 0, cnt = 0, busy = 0, sin = 0, sout = 0;
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_host_read32(t->sim, QM_REG(slot, STATUS), &st));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, STATUS), &ms));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SM_SOB_SET(sob), &cnt));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, PERF_BUSY), &busy));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, PERF_STALL_IN), &sin));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, PERF_STALL_OUT), &sout));
    if (!(st & QMAN__STATUS__DONE_bm) || FIELD(st, QMAN__STATUS__ERR))
      rc = tf_fail(t, "queue STATUS 0x%08x (done, no error expected)", st);
    else if (FIELD(ms, MME__STATUS__ERR) || (ms & MME__STATUS__BUSY_REJECT_bm))
      rc = tf_fail(t, "MME STATUS 0x%08x (error or a refused commit)", ms);
    else if (cnt != njobs)
      rc = tf_fail(t, "%u completion messages counted, %u jobs", cnt, njobs);
  }
  if (rc == TF_PASS && tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 flush");
  for (unsigned i = 0; i < njobs && rc == TF_PASS; i++) {
    rc = cjob_check_c(t, &jobs[i]);
    if (rc != TF_PASS) tf_log(t, "job %u of %u", i, njobs);
  }
  if (rc == TF_PASS) {
    double ideal = (double)njobs * x * x * x / ((double)TESSERA_MME_ROWS * TESSERA_MME_COLS);
    uint64_t cyc = t1 - t0;
    tf_log(t, "%u jobs %ux%ux%u %s -> FP32, barrier on %s: %llu cycles (first start -> last done), ideal %.0f, "
           "utilization %.1f%%; %u engine starts, %llu cycles idle between jobs (%.1f per gap); "
           "last job: busy %u, stall in %u, stall out %u",
           njobs, x, x, x, nf_name(ty), (flags & B2B_EB_BULK) ? "the register writes" : "the commit",
           (unsigned long long)cyc, ideal, 100.0 * ideal / (double)cyc, starts, (unsigned long long)idle_gap,
           starts > 1 ? (double)idle_gap / (starts - 1) : 0.0, busy, sin, sout);
    if (bench)
      tf_bench(t, NULL, NULL, (double)cyc, ideal,
               "\"type\":\"%s\",\"m\":%u,\"n\":%u,\"k\":%u,\"jobs\":%u,\"barrier\":\"%s\",\"l2\":\"cold\","
               "\"idle_between\":%llu,\"starts\":%u,\"last_busy\":%u,\"last_stall_in\":%u,\"last_stall_out\":%u",
               nf_name(ty), x, x, x, njobs, (flags & B2B_EB_BULK) ? "regs" : "commit",
               (unsigned long long)idle_gap, starts, busy, sin, sout);
  }
  for (unsigned i = 0; i < njobs; i++) cjob_free(&jobs[i]);
  free(jobs);
  free(words);
  return rc;
}

/* 8 queued 2x-array GEMMs: each C checked (part of the chip suite) */
TF_TEST(mme_b2b, queue_8_jobs, 3000000) { return b2b_case(t, NF_BF16, 2 * R, 8, 0, 0); }
/* `make bench` line mme_b2b_chip: 64 queued jobs of 32^3 and of 64^3 (2x and 4x the proto
 * array), the barrier on the commits; and 32^3 with the barrier on the register writes */
TF_TEST_F(mme_b2b, bench_32, 60000000, TF_BENCH) { return b2b_case(t, NF_BF16, 2 * R, 64, 0, 1); }
TF_TEST_F(mme_b2b, bench_64, 60000000, TF_BENCH) { return b2b_case(t, NF_BF16, 4 * R, 64, 0, 1); }
TF_TEST_F(mme_b2b, bench_32_ebregs, 60000000, TF_BENCH) { return b2b_case(t, NF_BF16, 2 * R, 64, B2B_EB_BULK, 1); }
