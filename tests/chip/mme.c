/* Suite `mme`: the matrix engines at chip level.
 *
 * Operands are written into device memory (HBM model, back door), the job is
 * programmed through the host port into the MME's registers (system bus, APB),
 * the engine streams A/B and writes C through the AXI fabric, and its completion
 * message travels over the system bus into a SYSCTRL scratch register. C is
 * compared bit-exactly with the C golden model (tests/mme/mme_golden.c,
 * docs/numerics.md). Block-level coverage of every type combination, special
 * values and bad input is in tests/mme (suite `mme`); this suite proves the
 * engines work inside the chip and splits one GEMM over all MMEs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mme_golden.h"
#include "numfmt.h"
#include "regs/mme_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define MME_REG(e, r) (TESSERA_MME_ADDR(e) + (uint32_t)offsetof(mme_t, r))
#define SCRATCH(i) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, SCRATCH0) + 4u * (i))
#define FIELD(v, f) (((v) & f##_bm) >> f##_bp)

typedef struct {
  mme_gold_job g;
  uint32_t lda, ldb, ldc;  /* bytes, multiples of 32 */
  uint32_t a, b, c;        /* device addresses */
  uint8_t *ai, *bi, *ci, *cexp;
} cjob_t;

static uint32_t round32(uint32_t x) { return (x + 31u) & ~31u; }

/* Moderate magnitudes (FP32 exponent in [2^-8, 2^8)) rounded into format f, so
 * that long dot products neither overflow nor vanish. */
static uint32_t gen_val(tf_ctx_t *t, nf_fmt f) {
  uint32_t x = (tf_rand32(t) & 0x80000000u) | ((119u + tf_rand_below(t, 16)) << 23) |
               (tf_rand32(t) & 0x7FFFFFu);
  return nf_convert(NF_FP32, f, x, 0, 1);
}

/* Build operand images for a job at device address `base`; compute the golden C. */
static void job_prepare(tf_ctx_t *t, cjob_t *j, uint32_t base) {
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
  tsim_mem_write(t->sim, j->a, j->ai, asz);
  tsim_mem_write(t->sim, j->b, j->bi, bsz);
  tsim_mem_write(t->sim, j->c, j->ci, csz);
}

static void job_free(cjob_t *j) {
  free(j->ai);
  free(j->bi);
  free(j->ci);
  free(j->cexp);
}

/* Program engine e for rows [m0, m0+mrows) and columns [n0, n0+ncols) of job j
 * (n0 a multiple of 32 elements, so the slice stays 32-byte aligned); the
 * completion message writes `tag` into SYSCTRL scratch register e. */
static int job_program_slice(tf_ctx_t *t, int e, const cjob_t *j, uint32_t m0, uint32_t mrows, uint32_t n0,
                             uint32_t ncols, uint32_t tag) {
  const mme_gold_job *g = &j->g;
  struct { uint32_t off, val; } w[] = {
      {MME_REG(e, A_ADDR), j->a + m0 * j->lda},
      {MME_REG(e, B_ADDR), j->b + n0 * (uint32_t)nf_bytes(g->tb)},
      {MME_REG(e, C_ADDR), j->c + m0 * j->ldc + n0 * (uint32_t)nf_bytes(g->tc)},
      {MME_REG(e, BIAS_ADDR), 0},
      {MME_REG(e, DIM_M), mrows},
      {MME_REG(e, DIM_N), ncols},
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
  };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    TF_CHECK_OK(t, tsim_host_write32(t->sim, w[i].off, w[i].val));
  return TF_PASS;
}

static int job_program(tf_ctx_t *t, int e, const cjob_t *j, uint32_t m0, uint32_t mrows, uint32_t tag) {
  return job_program_slice(t, e, j, m0, mrows, 0, j->g.n, tag);
}

typedef struct {
  unsigned mask;     /* engines that must be done */
} done_ctx_t;

static int engines_done(tsim_t *s, void *ctx) {
  done_ctx_t *d = ctx;
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    if (!((d->mask >> e) & 1u)) continue;
    uint32_t st = 0;
    if (tsim_host_read32(s, MME_REG(e, STATUS), &st) != TSIM_OK) return 1;
    if (!(st & MME__STATUS__DONE_bm) && FIELD(st, MME__STATUS__ERR) == 0) return 0;
  }
  return 1;
}

/* (an engine counts as finished when it is done or reports an error) */

/* Run job j split over the engines in `mask` (by rows, or by columns when
 * split_n: slices of a multiple of 32 columns); check C, status and messages. */
static int run_split_dim(tf_ctx_t *t, cjob_t *j, unsigned mask, int split_n, uint64_t *cycles) {
  unsigned n = (unsigned)__builtin_popcount(mask), k = 0;
  uint32_t rows = (j->g.m + n - 1) / n;
  uint32_t cols = (((j->g.n + n - 1) / n) + 31u) & ~31u;
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, SCRATCH(e), 0));
    if (!((mask >> e) & 1u)) continue;
    int rc;
    if (split_n) {
      uint32_t n0 = k * cols, nc = (n0 + cols > j->g.n) ? j->g.n - n0 : cols;
      rc = job_program_slice(t, (int)e, j, 0, j->g.m, n0, nc, 0xD0E0u + e);
    } else {
      uint32_t m0 = k * rows, mr = (m0 + rows > j->g.m) ? j->g.m - m0 : rows;
      rc = job_program(t, (int)e, j, m0, mr, 0xD0E0u + e);
    }
    k++;
    if (rc != TF_PASS) return rc;
  }
  uint64_t t0 = tsim_cycles(t->sim);
  for (unsigned e = 0; e < TESSERA_NUM_MME; e++)
    if ((mask >> e) & 1u) TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(e, CTRL), MME__CTRL__COMMIT_bm));
  done_ctx_t d = {mask};
  TF_CHECK_OK(t, tsim_run_until(t->sim, engines_done, &d, t->budget, 16));
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

static int run_split(tf_ctx_t *t, cjob_t *j, unsigned mask, uint64_t *cycles) {
  return run_split_dim(t, j, mask, 0, cycles);
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
  job_prepare(t, &j, TESSERA_HBM_BASE + 0x100000u + 256u * tf_rand_below(t, 64));
  uint64_t cyc = 0;
  int rc = run_split(t, &j, mask, &cyc);
  if (rc == TF_PASS)
    tf_log(t, "%ux%ux%u %s x %s -> %s on engines 0x%x: %llu cycles", m, n, k, nf_name(ta), nf_name(tb),
           nf_name(tc), mask, (unsigned long long)cyc);
  job_free(&j);
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
  return gemm_case(t, NF_FP32, NF_FP32, NF_FP32, R / 2 + 1, R + 3, R - 3, 1u);
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
  job_prepare(t, &j, TESSERA_HBM_BASE + 0x200000u);
  int rc = job_program(t, 0, &j, 0, 0, 0xBAD0u);  /* M = 0 */
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_host_write32(t->sim, SCRATCH(0), 0));
    TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, CTRL), MME__CTRL__COMMIT_bm));
    done_ctx_t d = {1u};
    TF_CHECK_OK(t, tsim_run_until(t->sim, engines_done, &d, 200000, 16));
    uint32_t st = 0;
    TF_CHECK_OK(t, tsim_host_read32(t->sim, MME_REG(0, STATUS), &st));
    if (FIELD(st, MME__STATUS__ERR) == 0) rc = tf_fail(t, "M=0 accepted (status 0x%08x)", st);
    size_t csz = (size_t)j.g.m * j.ldc;
    uint8_t *got = malloc(csz);
    tsim_mem_read(t->sim, j.c, got, csz);
    if (rc == TF_PASS && memcmp(got, j.ci, csz) != 0) rc = tf_fail(t, "refused job wrote C");
    free(got);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, MME_REG(0, STATUS), MME__STATUS__DONE_bm));
  }
  if (rc == TF_PASS) rc = run_split(t, &j, 1u, NULL);
  job_free(&j);
  return rc;
}

/* ---------------------------------------------------------------- benchmarks
 * Utilization = ideal / measured cycles, ideal = M*N*K / (rows*cols*engines),
 * measured from the commit writes to the last engine reporting done (through
 * the host port, polled every 16 cycles), operands in the HBM model behind the
 * fabric. A, B and C have the same type (as the block-level table in
 * docs/mme.md), FP8 output saturating. Several engines split the GEMM by rows
 * (square shapes) or by columns (N > M: the LLM-like shape). Results are
 * still checked bit-exactly. `make bench` (line mme_chip); the MMEBENCH lines
 * feed util/mme_bench_plot.py. */
static int bench_case(tf_ctx_t *t, nf_fmt ty, uint32_t m, uint32_t n, uint32_t k, unsigned mask) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = m;
  j.g.n = n;
  j.g.k = k;
  j.g.ta = j.g.tb = j.g.tc = ty;
  j.g.sat = 1;
  job_prepare(t, &j, TESSERA_HBM_BASE + 0x100000u);
  uint64_t cyc = 0;
  unsigned ne = (unsigned)__builtin_popcount(mask);
  int rc = run_split_dim(t, &j, mask, n > m, &cyc);
  double ideal = (double)m * n * k / ((double)TESSERA_MME_ROWS * TESSERA_MME_COLS * ne);
  if (rc == TF_PASS)
    printf("MMEBENCH %s %ux%ux%u engines %u: %llu cycles, ideal %.0f, utilization %.1f%%\n", nf_name(ty), m, n,
           k, ne, (unsigned long long)cyc, ideal, 100.0 * ideal / (double)cyc);
  job_free(&j);
  return rc;
}

#define BENCH_SQ(ty, TY, x, name, mask)                                                         \
  TF_TEST_F(mme, bench_##ty##_##name, 60000000, TF_BENCH) {                                    \
    return bench_case(t, TY, x * R, x * R, x * R, mask);                                       \
  }
BENCH_SQ(bf16, NF_BF16, 2, 2x, 1u)
BENCH_SQ(bf16, NF_BF16, 4, 4x, 1u)
BENCH_SQ(bf16, NF_BF16, 8, 8x, 1u)
BENCH_SQ(bf16, NF_BF16, 16, 16x, 1u)
BENCH_SQ(bf16, NF_BF16, 16, 16x_all, ALL_MME)
BENCH_SQ(e4m3, NF_E4M3, 2, 2x, 1u)
BENCH_SQ(e4m3, NF_E4M3, 4, 4x, 1u)
BENCH_SQ(e4m3, NF_E4M3, 8, 8x, 1u)
BENCH_SQ(e4m3, NF_E4M3, 16, 16x, 1u)
BENCH_SQ(e4m3, NF_E4M3, 16, 16x_all, ALL_MME)
TF_TEST_F(mme, bench_bf16_llm, 60000000, TF_BENCH) { return bench_case(t, NF_BF16, 16, 4096, 1024, 1u); }
TF_TEST_F(mme, bench_bf16_llm_all, 60000000, TF_BENCH) { return bench_case(t, NF_BF16, 16, 4096, 1024, ALL_MME); }
TF_TEST_F(mme, bench_e4m3_llm, 60000000, TF_BENCH) { return bench_case(t, NF_E4M3, 16, 4096, 1024, 1u); }
TF_TEST_F(mme, bench_e4m3_llm_all, 60000000, TF_BENCH) { return bench_case(t, NF_E4M3, 16, 4096, 1024, ALL_MME); }
