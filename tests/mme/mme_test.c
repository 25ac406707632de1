/* MME block tests and benchmarks (C test logic over the Verilator driver tb_mme.cpp).
 *
 *   Vtessera_mme [--seed N] [--quick]   regression: type combinations, transposes,
 *                                       strides, shapes, special values, scales,
 *                                       bias / accumulate-into-C, messages, bad input,
 *                                       busy refusal, two engines splitting a GEMM,
 *                                       random jobs. Every result is compared
 *                                       bit-exactly with the C golden model.
 *   Vtessera_mme --bench [--seed N]      benchmark table (utilization), also checked.
 * Output ends with "N passed, M failed". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mme_golden.h"
#include "numfmt.h"
#include "regs/mme_regs.h"
#include "tb_mme.h"
#include "../framework/bench_rec.h"
#include "../framework/tf_seed.h"

#define REG(name) ((uint32_t)offsetof(mme_t, name))
#define HBM_BASE 0x80000000ull

static int passes, fails;
static int R, C;
static uint64_t rng;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static uint32_t rnd_range(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); }

static void result(int ok, const char *name) {
  if (ok) {
    passes++;
  } else {
    fails++;
    printf("FAIL: %s\n", name);
  }
}

/* ------------------------------------------------------------------ memory */
static uint64_t heap = HBM_BASE + 0x1000;
static uint64_t alloc(uint64_t bytes) {
  uint64_t a = heap;
  heap += (bytes + 31) & ~31ull;
  heap += 32 * (rnd() % 4); /* vary the gaps */
  if (heap > HBM_BASE + 0x3000000) heap = HBM_BASE + 0x1000;
  return a;
}

/* value generators ------------------------------------------------------------- */
enum { GEN_NORMAL, GEN_SPECIAL, GEN_WIDE };

static uint32_t gen_val(nf_fmt f, int mode) {
  if (mode == GEN_SPECIAL && rnd() % 3 == 0) {
    uint32_t sb = (rnd() & 1) ? (1u << (nf_bytes(f) * 8 - 1)) : 0;
    switch (rnd() % 8) {
      case 0: return sb;                                    /* +-0 */
      case 1: return sb | 1u;                               /* min subnormal */
      case 2: return sb | (rnd() & ((1u << nf_mant_bits(f)) - 1)); /* subnormal */
      case 3: return sb | nf_max_finite(f);                 /* max */
      case 4: return nf_canonical_nan(f) | sb;              /* NaN */
      case 5: return nf_inf(f, (int)(sb != 0));             /* Inf (E4M3: NaN) */
      case 6: return sb | (nf_max_finite(f) - (rnd() % 4)); /* near max */
      default: break;
    }
  }
  if (mode == GEN_WIDE) {
    /* any non-NaN bit pattern */
    for (;;) {
      uint32_t b = rnd() & (nf_bytes(f) == 4 ? 0xFFFFFFFFu : nf_bytes(f) == 2 ? 0xFFFFu : 0xFFu);
      nf_val v = nf_decode(f, b);
      if (v.cls != NF_NAN && v.cls != NF_INF) return b;
    }
  }
  /* moderate magnitudes: FP32 with exponent in [2^-8, 2^8), rounded into f */
  {
    uint32_t x = (rnd() & 0x80000000u) | ((119u + rnd() % 16) << 23) | (rnd() & 0x7FFFFFu);
    return nf_convert(NF_FP32, f, x, 0, 1);
  }
}

/* ------------------------------------------------------------------ job running */
typedef struct {
  mme_gold_job g;
  uint32_t lda, ldb, ldc; /* bytes */
  int gen;                /* GEN_* for A and B */
  int msg;
  int mme;                /* engine */
  /* sub-range of a bigger GEMM (two-engine split): */
  uint64_t a, b, c, bias;
} job_t;

static void set_job_regs(int e, const job_t *j) {
  tb_reg_wr(e, REG(A_ADDR), (uint32_t)j->a);
  tb_reg_wr(e, REG(B_ADDR), (uint32_t)j->b);
  tb_reg_wr(e, REG(C_ADDR), (uint32_t)j->c);
  tb_reg_wr(e, REG(BIAS_ADDR), (uint32_t)j->bias);
  tb_reg_wr(e, REG(DIM_M), j->g.m);
  tb_reg_wr(e, REG(DIM_N), j->g.n);
  tb_reg_wr(e, REG(DIM_K), j->g.k);
  tb_reg_wr(e, REG(LDA), j->lda);
  tb_reg_wr(e, REG(LDB), j->ldb);
  tb_reg_wr(e, REG(LDC), j->ldc);
  tb_reg_wr(e, REG(DTYPE),
            ((uint32_t)j->g.ta << MME__DTYPE__A_TYPE_bp) | ((uint32_t)j->g.tb << MME__DTYPE__B_TYPE_bp) |
                ((uint32_t)j->g.tc << MME__DTYPE__C_TYPE_bp) |
                ((uint32_t)j->g.trans_a << MME__DTYPE__A_TRANS_bp) |
                ((uint32_t)j->g.trans_b << MME__DTYPE__B_TRANS_bp) |
                ((uint32_t)j->g.sat << MME__DTYPE__SAT_bp) |
                ((uint32_t)j->g.acc_c << MME__DTYPE__ACC_C_bp) |
                ((uint32_t)j->g.bias << MME__DTYPE__BIAS_EN_bp));
  tb_reg_wr(e, REG(SCALE),
            ((uint32_t)(j->g.scale_a & 0xFF) << MME__SCALE__A_SCALE_bp) |
                ((uint32_t)(j->g.scale_b & 0xFF) << MME__SCALE__B_SCALE_bp) |
                ((uint32_t)(j->g.scale_out & 0xFF) << MME__SCALE__OUT_SCALE_bp));
  tb_reg_wr(e, REG(MSG_ADDR), 0x30300000u + 4u * (uint32_t)e);
  tb_reg_wr(e, REG(MSG_DATA), 0xC0DE0000u | (uint32_t)e);
  tb_reg_wr(e, REG(MSG_CTRL), (uint32_t)j->msg);
}

typedef struct {
  uint8_t *a, *b, *cin, *cexp;
  uint32_t *bias;
  size_t asz, bsz, csz;
} images_t;

static void free_images(images_t *im) {
  free(im->a);
  free(im->b);
  free(im->cin);
  free(im->cexp);
  free(im->bias);
}

/* allocate tensors, fill them, write to memory, compute the expected C image */
static void prepare(job_t *j, images_t *im) {
  const mme_gold_job *g = &j->g;
  int ab = nf_bytes(g->ta), bb = nf_bytes(g->tb), cb = nf_bytes(g->tc);
  uint32_t arows = g->trans_a ? g->k : g->m, acols = g->trans_a ? g->m : g->k;
  uint32_t brows = g->trans_b ? g->n : g->k, bcols = g->trans_b ? g->k : g->n;
  if (!j->lda) j->lda = ((acols * ab + 31) & ~31u) + 32 * (rnd() % 2);
  if (!j->ldb) j->ldb = ((bcols * bb + 31) & ~31u) + 32 * (rnd() % 2);
  if (!j->ldc) j->ldc = ((g->n * cb + 31) & ~31u) + 32 * (rnd() % 2);
  im->asz = (size_t)arows * j->lda;
  im->bsz = (size_t)brows * j->ldb;
  im->csz = (size_t)g->m * j->ldc;
  im->a = calloc(1, im->asz);
  im->b = calloc(1, im->bsz);
  im->cin = calloc(1, im->csz);
  im->cexp = calloc(1, im->csz);
  im->bias = calloc(g->n, 4);
  for (uint32_t r = 0; r < arows; r++)
    for (uint32_t c = 0; c < acols; c++) mme_st(im->a + (size_t)r * j->lda + c * ab, ab, gen_val(g->ta, j->gen));
  for (uint32_t r = 0; r < brows; r++)
    for (uint32_t c = 0; c < bcols; c++) mme_st(im->b + (size_t)r * j->ldb + c * bb, bb, gen_val(g->tb, j->gen));
  for (size_t i = 0; i < im->csz; i++) im->cin[i] = (uint8_t)(0xA5 ^ i); /* canary in padding */
  if (g->acc_c)
    for (uint32_t r = 0; r < g->m; r++)
      for (uint32_t c = 0; c < g->n; c++)
        mme_st(im->cin + (size_t)r * j->ldc + c * cb, cb, gen_val(g->tc, j->gen));
  for (uint32_t n = 0; n < g->n; n++) im->bias[n] = gen_val(NF_FP32, j->gen);
  if (!j->a) j->a = alloc(im->asz);
  if (!j->b) j->b = alloc(im->bsz);
  if (!j->c) j->c = alloc(im->csz);
  if (!j->bias) j->bias = alloc((size_t)g->n * 4);
  tb_mem_wr(j->a, im->a, im->asz);
  tb_mem_wr(j->b, im->b, im->bsz);
  tb_mem_wr(j->c, im->cin, im->csz);
  tb_mem_wr(j->bias, im->bias, (size_t)g->n * 4);
  memcpy(im->cexp, im->cin, im->csz);
  mme_golden(g, im->a, j->lda, im->b, j->ldb, im->cin, im->cexp, j->ldc, g->bias ? im->bias : NULL);
}

static int compare_c(const job_t *j, const images_t *im, const char *name) {
  uint8_t *got = malloc(im->csz);
  int cb = nf_bytes(j->g.tc), bad = 0;
  tb_mem_rd(j->c, got, im->csz);
  for (size_t i = 0; i < im->csz; i++) {
    if (got[i] != im->cexp[i]) {
      if (bad < 4) {
        size_t row = i / j->ldc, col = (i % j->ldc) / cb;
        printf("  %s: C[%zu][%zu] byte %zu got %02x expected %02x\n", name, row, col, i, got[i],
               im->cexp[i]);
      }
      bad++;
    }
  }
  free(got);
  return bad == 0;
}

static uint32_t status(int e) { return tb_reg_rd(e, REG(STATUS)); }
static uint32_t err_of(uint32_t st) { return (st & MME__STATUS__ERR_bm) >> MME__STATUS__ERR_bp; }
static void clear_irq(int e) {
  tb_reg_wr(e, REG(STATUS), MME__STATUS__DONE_bm | MME__STATUS__BUSY_REJECT_bm);
}

static uint64_t job_limit(const job_t *j) {
  uint64_t macs = (uint64_t)j->g.m * j->g.n * j->g.k;
  return 20000 + 40 * (macs / (uint64_t)(R * C)) + 8 * ((uint64_t)j->g.m * j->g.n + (uint64_t)j->g.k * (j->g.m + j->g.n));
}

/* run one job on engine j->mme, check the result bit-exactly */
static int run_check(job_t *j, const char *name) {
  images_t im;
  int e = j->mme, ok = 1;
  char buf[200];
  prepare(j, &im);
  set_job_regs(e, j);
  unsigned msgs = tb_msg_count(e);
  tb_reg_wr(e, REG(CTRL), 1);
  if (tb_wait_irq(e, job_limit(j))) {
    printf("  %s: TIMEOUT (engine %d, status 0x%08x, busy %u cycles)\n", name, e, status(e),
           tb_reg_rd(e, REG(PERF_BUSY)));
    ok = 0;
  } else {
    uint32_t st = status(e);
    if (err_of(st) != 0 || !(st & MME__STATUS__DONE_bm)) {
      printf("  %s: status 0x%08x\n", name, st);
      ok = 0;
    }
    ok &= compare_c(j, &im, name);
    if (j->msg && (tb_msg_count(e) != msgs + 1 || tb_msg_addr(e) != 0x30300000u + 4u * (uint32_t)e ||
                   tb_msg_data(e) != (0xC0DE0000u | (uint32_t)e))) {
      printf("  %s: completion message missing or wrong\n", name);
      ok = 0;
    }
    if (!j->msg && tb_msg_count(e) != msgs) {
      printf("  %s: unexpected completion message\n", name);
      ok = 0;
    }
  }
  clear_irq(e);
  if (tb_irq(e)) {
    printf("  %s: irq did not clear\n", name);
    ok = 0;
  }
  snprintf(buf, sizeof buf, "%s (M=%u N=%u K=%u %s x %s -> %s ta=%d tb=%d sat=%d acc=%d bias=%d sc=%d,%d,%d)",
           name, j->g.m, j->g.n, j->g.k, nf_name(j->g.ta), nf_name(j->g.tb), nf_name(j->g.tc),
           j->g.trans_a, j->g.trans_b, j->g.sat, j->g.acc_c, j->g.bias, j->g.scale_a, j->g.scale_b,
           j->g.scale_out);
  result(ok, buf);
  free_images(&im);
  return ok;
}

static job_t mkjob(uint32_t m, uint32_t n, uint32_t k, nf_fmt ta, nf_fmt tb, nf_fmt tc) {
  job_t j;
  memset(&j, 0, sizeof j);
  j.g.m = m;
  j.g.n = n;
  j.g.k = k;
  j.g.ta = ta;
  j.g.tb = tb;
  j.g.tc = tc;
  return j;
}

static const nf_fmt pairs[7][2] = {{NF_FP32, NF_FP32}, {NF_BF16, NF_BF16}, {NF_FP16, NF_FP16},
                                   {NF_E4M3, NF_E4M3}, {NF_E5M2, NF_E5M2}, {NF_E4M3, NF_E5M2},
                                   {NF_E5M2, NF_E4M3}};

/* ------------------------------------------------------------------ suites */
static void test_info(void) {
  uint32_t info = tb_reg_rd(0, REG(INFO));
  result((info & 0xFF) == (uint32_t)R && ((info >> 8) & 0xFF) == (uint32_t)C && (info >> 16) > 0,
         "INFO register reports the array shape");
  tb_reg_rd(0, 0x4000);
  result(tb_reg_err() == 1, "bad register offset answers pslverr");
}

/* Every read-write job register holds any pattern of its implemented bits and reads it
 * back (a netlist that drops or merges register bits fails here first). */
static void test_regs(void) {
  static const struct { uint32_t off, mask; const char *name; } regs[] = {
      {REG(A_ADDR), MME__A_ADDR__ADDR_bm, "A_ADDR"},  {REG(B_ADDR), MME__B_ADDR__ADDR_bm, "B_ADDR"},
      {REG(C_ADDR), MME__C_ADDR__ADDR_bm, "C_ADDR"},  {REG(BIAS_ADDR), MME__BIAS_ADDR__ADDR_bm, "BIAS_ADDR"},
      {REG(DIM_M), MME__DIM_M__VAL_bm, "DIM_M"},      {REG(DIM_N), MME__DIM_N__VAL_bm, "DIM_N"},
      {REG(DIM_K), MME__DIM_K__VAL_bm, "DIM_K"},      {REG(LDA), MME__LDA__VAL_bm, "LDA"},
      {REG(LDB), MME__LDB__VAL_bm, "LDB"},            {REG(LDC), MME__LDC__VAL_bm, "LDC"},
      {REG(MSG_ADDR), MME__MSG_ADDR__ADDR_bm, "MSG_ADDR"}, {REG(MSG_DATA), MME__MSG_DATA__DATA_bm, "MSG_DATA"},
  };
  const int n = (int)(sizeof regs / sizeof regs[0]);
  int bad = 0;
  for (int round = 0; round < 4; round++) {
    uint32_t v[16];
    for (int i = 0; i < n; i++) {
      v[i] = round == 0 ? 0xFFFFFFFFu : round == 1 ? 0u : (uint32_t)rnd();
      tb_reg_wr(0, regs[i].off, v[i]);
    }
    for (int i = 0; i < n; i++) {
      uint32_t got = tb_reg_rd(0, regs[i].off), exp = v[i] & regs[i].mask;
      if (got != exp && bad++ < 8)
        printf("  regs: %s wrote %08x read %08x expected %08x\n", regs[i].name, v[i], got, exp);
    }
  }
  result(bad == 0, "job registers read back what was written");
}

static void test_types(void) {
  for (int p = 0; p < 7; p++)
    for (int tc = 0; tc < NF_NUM_FMTS; tc++) {
      job_t j = mkjob(rnd_range(1, 2 * R + 3), rnd_range(1, 2 * C + 3), rnd_range(1, 3 * R),
                      pairs[p][0], pairs[p][1], (nf_fmt)tc);
      j.g.trans_a = rnd() & 1;
      j.g.trans_b = rnd() & 1;
      j.g.sat = rnd() & 1;
      run_check(&j, "types");
    }
}

static void test_transpose_stride(void) {
  for (int t = 0; t < 4; t++) {
    job_t j = mkjob(R + 3, C + 5, R + 7, NF_BF16, NF_BF16, NF_BF16);
    j.g.trans_a = t & 1;
    j.g.trans_b = (t >> 1) & 1;
    run_check(&j, "transpose");
  }
  {
    job_t j = mkjob(R + 1, C + 2, 2 * R + 1, NF_E4M3, NF_E4M3, NF_FP32);
    j.lda = 32 * 7;
    j.ldb = 32 * 5;
    j.ldc = 32 * 9;
    run_check(&j, "wide strides");
  }
}

static void test_shapes(void) {
  static const uint32_t primes[] = {1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (int i = 0; i < 8; i++) {
    uint32_t m = primes[rnd() % 13], n = primes[rnd() % 13], k = primes[rnd() % 13];
    job_t j = mkjob(m, n, k, NF_BF16, NF_BF16, NF_FP32);
    run_check(&j, "prime shapes");
  }
  uint32_t edge[][3] = {{1, 1, 1}, {(uint32_t)R, (uint32_t)C, 1}, {(uint32_t)R - 1, (uint32_t)C + 1, 2},
                        {(uint32_t)R + 1, (uint32_t)C - 1, (uint32_t)R}, {3 * (uint32_t)R, 2 * (uint32_t)C, 4 * (uint32_t)R}};
  for (int i = 0; i < 5; i++) {
    job_t j = mkjob(edge[i][0], edge[i][1], edge[i][2], NF_E5M2, NF_E4M3, NF_BF16);
    run_check(&j, "edge shapes");
  }
}

static void test_special(void) {
  for (int p = 0; p < 7; p++)
    for (int sat = 0; sat < 2; sat++) {
      nf_fmt tc = (nf_fmt)(p < 3 ? (NF_E4M3 + (rnd() & 1)) : rnd() % NF_NUM_FMTS);
      job_t j = mkjob(rnd_range(1, R + 2), rnd_range(1, C + 2), rnd_range(1, 9), pairs[p][0], pairs[p][1], tc);
      j.gen = GEN_SPECIAL;
      j.g.sat = sat;
      j.g.acc_c = rnd() & 1;
      run_check(&j, "special values");
    }
  /* wide random bit patterns (subnormals, huge values, overflow to Inf/saturation) */
  for (int p = 0; p < 7; p++) {
    job_t j = mkjob(rnd_range(1, R + 2), rnd_range(1, C + 2), rnd_range(1, 20), pairs[p][0], pairs[p][1],
                    (nf_fmt)(rnd() % NF_NUM_FMTS));
    j.gen = GEN_WIDE;
    j.g.sat = rnd() & 1;
    run_check(&j, "wide operands");
  }
}

static void test_scale_bias_acc(void) {
  for (int i = 0; i < 6; i++) {
    int p = 3 + rnd() % 4;
    job_t j = mkjob(rnd_range(1, 2 * R), rnd_range(1, 2 * C), rnd_range(1, 2 * R), pairs[p][0], pairs[p][1],
                    (nf_fmt)(rnd() % NF_NUM_FMTS));
    j.g.scale_a = (int)rnd_range(0, 40) - 20;
    j.g.scale_b = (int)rnd_range(0, 40) - 20;
    j.g.scale_out = (int)rnd_range(0, 30) - 15;
    j.g.sat = rnd() & 1;
    run_check(&j, "scales");
  }
  {
    job_t j = mkjob(R + 2, C + 3, 5, NF_E4M3, NF_E4M3, NF_E4M3);
    j.g.scale_out = 100; /* everything overflows */
    j.g.sat = 1;
    run_check(&j, "output scale overflow (saturate)");
    j = mkjob(R + 2, C + 3, 5, NF_E4M3, NF_E4M3, NF_E4M3);
    j.g.scale_out = -100; /* everything underflows to +-0 */
    run_check(&j, "output scale underflow");
  }
  for (int i = 0; i < 4; i++) {
    int p = rnd() % 7;
    job_t j = mkjob(rnd_range(1, 2 * R + 1), rnd_range(1, 2 * C + 1), rnd_range(1, 2 * R), pairs[p][0],
                    pairs[p][1], (nf_fmt)(rnd() % NF_NUM_FMTS));
    j.g.bias = 1;
    run_check(&j, "bias");
    j = mkjob(rnd_range(1, 2 * R + 1), rnd_range(1, 2 * C + 1), rnd_range(1, 2 * R), pairs[p][0],
              pairs[p][1], (nf_fmt)(rnd() % NF_NUM_FMTS));
    j.g.acc_c = 1;
    run_check(&j, "accumulate into C");
  }
}

static void test_msg(void) {
  job_t j = mkjob(R, C, 3, NF_BF16, NF_BF16, NF_BF16);
  j.msg = 1;
  run_check(&j, "completion message");
}

/* bad input: refused with an error code and irq, no memory written, next job fine */
static void bad_job(const char *name, job_t j, uint32_t want) {
  uint8_t canary[64], back[64];
  int e = 0, ok = 1;
  uint64_t cw = j.c ? j.c : alloc(64);
  for (int i = 0; i < 64; i++) canary[i] = (uint8_t)(0x5A + i);
  if (cw >= HBM_BASE && cw < HBM_BASE + 0x40000000ull) tb_mem_wr(cw, canary, 64);
  j.c = cw;
  if (!j.a) j.a = alloc(64);
  if (!j.b) j.b = alloc(64);
  if (!j.bias) j.bias = alloc(64);
  if (!j.lda) j.lda = 32;
  if (!j.ldb) j.ldb = 32;
  if (!j.ldc) j.ldc = 64;
  j.msg = 1;
  set_job_regs(e, &j);
  unsigned msgs = tb_msg_count(e);
  tb_reg_wr(e, REG(CTRL), 1);
  if (tb_wait_irq(e, 1000)) {
    ok = 0;
    printf("  %s: no irq\n", name);
  } else {
    uint32_t st = status(e);
    if (err_of(st) != want || (st & MME__STATUS__BUSY_bm)) {
      printf("  %s: status 0x%08x, expected error %u\n", name, st, want);
      ok = 0;
    }
  }
  if (cw >= HBM_BASE && cw < HBM_BASE + 0x40000000ull) {
    tb_mem_rd(cw, back, 64);
    if (memcmp(back, canary, 64)) {
      printf("  %s: memory was written\n", name);
      ok = 0;
    }
  }
  if (tb_msg_count(e) != msgs) {
    printf("  %s: refused job sent a message\n", name);
    ok = 0;
  }
  clear_irq(e);
  char buf[160];
  snprintf(buf, sizeof buf, "bad input refused: %s", name);
  result(ok, buf);
}

static void test_bad_input(void) {
  uint32_t kmax32 = (tb_reg_rd(0, REG(INFO)) >> 16) * 32 / 4;
  job_t j;
  j = mkjob(0, 4, 4, NF_BF16, NF_BF16, NF_FP32); bad_job("M = 0", j, 1);
  j = mkjob(4, 0, 4, NF_BF16, NF_BF16, NF_FP32); bad_job("N = 0", j, 1);
  j = mkjob(4, 4, 0, NF_BF16, NF_BF16, NF_FP32); bad_job("K = 0", j, 1);
  j = mkjob(65537, 4, 4, NF_BF16, NF_BF16, NF_FP32); bad_job("M > 65536", j, 2);
  j = mkjob(4, 70000, 4, NF_BF16, NF_BF16, NF_FP32); bad_job("N > 65536", j, 2);
  j = mkjob(4, 4, kmax32 + 1, NF_FP32, NF_FP32, NF_FP32); bad_job("K > Kmax (FP32)", j, 2);
  j = mkjob(4, 4, 4, NF_BF16, NF_FP16, NF_FP32); bad_job("BF16 x FP16", j, 3);
  j = mkjob(4, 4, 4, NF_FP32, NF_BF16, NF_FP32); bad_job("FP32 x BF16", j, 3);
  j = mkjob(4, 4, 4, (nf_fmt)5, (nf_fmt)5, NF_FP32); bad_job("type code 5", j, 3);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, (nf_fmt)7); bad_job("output type 7", j, 3);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.g.bias = 1; j.g.acc_c = 1;
  bad_job("bias and accumulate together", j, 3);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.a = alloc(64) + 2; bad_job("misaligned A", j, 4);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.ldb = 48; bad_job("misaligned LDB", j, 4);
  j = mkjob(4, 20, 4, NF_BF16, NF_BF16, NF_FP32); j.ldc = 64; bad_job("LDC < row", j, 4);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.a = 0x10000000; bad_job("A outside memory", j, 5);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.c = 0xFFFFFF00ull; j.ldc = 0x100;
  bad_job("C beyond the end of memory", j, 5);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.a = alloc(256); j.c = j.a + 32;
  bad_job("C overlaps A", j, 6);
  j = mkjob(4, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.b = alloc(256); j.c = j.b;
  bad_job("C overlaps B", j, 6);
  /* the engine still works */
  j = mkjob(R + 1, C + 1, 7, NF_BF16, NF_BF16, NF_FP32);
  run_check(&j, "good job after refusals");
  /* the LDC check compares all 32 bits (it once compared 24: 16 MiB looked like 0) */
  j = mkjob(1, 4, 4, NF_BF16, NF_BF16, NF_FP32); j.ldc = 0x01000000u;
  run_check(&j, "LDC of 16 MiB accepted (M = 1)");
}

/* AXI error responses (memory populated below the engine's window): the job ends with
 * ErrAxi and irq, whichever port saw the error; C rows below the populated end are
 * written correctly, nothing is written above it; the next job is fine. */
static void axi_err_job(const char *name, int where) {
  job_t j = mkjob(2, (uint32_t)C, 5, NF_BF16, NF_BF16, NF_FP32);
  images_t im;
  int e = 0, ok = 1;
  j.ldc = 64 * ((4u * (uint32_t)C + 63) / 64);
  j.lda = j.ldb = 64;
  j.a = alloc(2 * 64);
  j.b = alloc(5 * 64);
  j.c = alloc(2 * j.ldc);
  uint64_t lim = (alloc(4096) + 4096 - HBM_BASE) & ~4095ull; /* populated end, above all three */
  if (where == 0) j.c = HBM_BASE + lim - j.ldc;  /* C row 1 (port B's write) above the end */
  if (where == 1) j.a = HBM_BASE + lim;           /* A (port A's reads) above the end */
  if (where == 2) j.b = HBM_BASE + lim;           /* B (port B's reads) above the end */
  prepare(&j, &im);
  tb_set_mem_size(lim);
  uint64_t err0 = tb_mem_errors_port(e, 0), err1 = tb_mem_errors_port(e, 1);
  set_job_regs(e, &j);
  tb_reg_wr(e, REG(CTRL), 1);
  if (tb_wait_irq(e, job_limit(&j))) {
    printf("  %s: TIMEOUT (status 0x%08x)\n", name, status(e));
    ok = 0;
  } else if (err_of(status(e)) != 7 || (status(e) & MME__STATUS__BUSY_bm)) {
    printf("  %s: status 0x%08x, expected error 7 (AXI)\n", name, status(e));
    ok = 0;
  }
  /* the error came from the port the case names, and only from it */
  int bad_port = (where == 1) ? 0 : 1;
  uint64_t d0 = tb_mem_errors_port(e, 0) - err0, d1 = tb_mem_errors_port(e, 1) - err1;
  if ((bad_port == 0 && (d0 == 0 || d1 != 0)) || (bad_port == 1 && (d1 == 0 || d0 != 0))) {
    printf("  %s: error responses on port A %llu, port B %llu\n", name, (unsigned long long)d0,
           (unsigned long long)d1);
    ok = 0;
  }
  uint8_t *got = malloc(im.csz);
  tb_mem_rd(j.c, got, im.csz);
  if (where == 0) {
    if (memcmp(got, im.cexp, j.ldc)) {
      printf("  %s: C row 0 (below the end) wrong: %02x%02x%02x%02x expected %02x%02x%02x%02x (was %02x%02x%02x%02x)\n", name,
             got[3], got[2], got[1], got[0], im.cexp[3], im.cexp[2], im.cexp[1], im.cexp[0], im.cin[3], im.cin[2], im.cin[1], im.cin[0]);
      ok = 0;
    }
    if (memcmp(got + j.ldc, im.cin + j.ldc, j.ldc)) {
      printf("  %s: C row 1 (above the end) was written\n", name);
      ok = 0;
    }
  }
  free(got);
  free_images(&im);
  tb_set_mem_size(0x40000000ull);
  clear_irq(e);
  char buf[160];
  snprintf(buf, sizeof buf, "AXI error reported: %s", name);
  result(ok, buf);
}

static void test_axi_errors(void) {
  axi_err_job("C write error on port B (odd row)", 0);
  axi_err_job("A read error on port A", 1);
  axi_err_job("B read error on port B", 2);
  job_t j = mkjob(2 * (uint32_t)R + 1, (uint32_t)C + 3, 9, NF_BF16, NF_BF16, NF_FP32);
  run_check(&j, "good job after AXI errors");
}

/* a commit while busy is refused (busy_reject) and does not disturb the running job */
static void test_busy(void) {
  job_t j = mkjob(2 * R, 2 * C, 64, NF_BF16, NF_BF16, NF_FP32);
  images_t im;
  int ok = 1;
  prepare(&j, &im);
  set_job_regs(0, &j);
  tb_reg_wr(0, REG(CTRL), 1);
  tb_step(20);
  /* rewrite some registers and commit again while busy */
  tb_reg_wr(0, REG(DIM_M), 1);
  tb_reg_wr(0, REG(C_ADDR), (uint32_t)alloc(64));
  tb_reg_wr(0, REG(CTRL), 1);
  uint32_t st = status(0);
  if (!(st & MME__STATUS__BUSY_bm) || !(st & MME__STATUS__BUSY_REJECT_bm) || !tb_irq(0)) {
    printf("  busy: status 0x%08x after commit while busy\n", st);
    ok = 0;
  }
  tb_reg_wr(0, REG(STATUS), MME__STATUS__BUSY_REJECT_bm);
  /* wait for the job (the irq also reflects done) */
  for (int i = 0; i < 200000 && !(status(0) & MME__STATUS__DONE_bm); i++) tb_step(50);
  st = status(0);
  if (err_of(st) != 0 || !(st & MME__STATUS__DONE_bm)) ok = 0;
  ok &= compare_c(&j, &im, "busy");
  clear_irq(0);
  result(ok, "commit while busy refused, running job intact");
  free_images(&im);
}

/* One case: `count` random GEMMs, counted once in the summary (their number and
 * failures are in the case's line; each failing GEMM prints its own FAIL line). */
static void test_random(int count) {
  const int p0 = passes, f0 = fails;
  for (int i = 0; i < count; i++) {
    int p = rnd() % 7;
    job_t j = mkjob(rnd_range(1, 3 * R + 5), rnd_range(1, 3 * C + 5), rnd_range(1, 4 * R + 3), pairs[p][0],
                    pairs[p][1], (nf_fmt)(rnd() % NF_NUM_FMTS));
    j.g.trans_a = rnd() & 1;
    j.g.trans_b = rnd() & 1;
    j.g.sat = rnd() & 1;
    int init = rnd() % 3;
    j.g.bias = init == 1;
    j.g.acc_c = init == 2;
    if (rnd() % 3 == 0) {
      j.g.scale_a = (int)rnd_range(0, 8) - 4;
      j.g.scale_b = (int)rnd_range(0, 8) - 4;
      j.g.scale_out = (int)rnd_range(0, 8) - 4;
    }
    j.gen = (rnd() % 4 == 0) ? GEN_SPECIAL : GEN_NORMAL;
    j.msg = rnd() & 1;
    run_check(&j, "random");
  }
  const int nf = fails - f0;
  passes = p0 + !nf;
  fails = f0 + !!nf;
  printf("%s random GEMMs (%d GEMMs, %d failed)\n", nf ? "FAIL" : "PASS", count, nf);
}

/* Two engines compute one GEMM, each a slice of the output columns (N split), over
 * one shared memory. Returns the cycles from the first commit to the last irq. */
static uint64_t split_gemm(uint32_t m, uint32_t n, uint32_t k, nf_fmt t, nf_fmt tc, int nsplit, int check,
                           const char *name) {
  job_t full = mkjob(m, n, k, t, t, tc);
  images_t im;
  int ok = 1;
  prepare(&full, &im);
  uint32_t per = ((n + nsplit - 1) / nsplit + 31) / 32 * 32; /* keeps B/C slices 32 B aligned */
  if (per % (uint32_t)C) per = (per / C + 1) * C;
  unsigned mask = 0;
  for (int e = 0; e < nsplit; e++) {
    uint32_t n0 = per * e, nn = n0 >= n ? 0 : (n - n0 < per ? n - n0 : per);
    if (!nn) continue;
    job_t s = full;
    s.mme = e;
    s.g.n = nn;
    s.b = full.b + (uint64_t)n0 * nf_bytes(t); /* B stored K x N: column offset (32 B aligned) */
    s.c = full.c + (uint64_t)n0 * nf_bytes(tc);
    set_job_regs(e, &s);
    mask |= 1u << e;
  }
  uint64_t t0 = tb_cycle();
  for (int e = 0; e < nsplit; e++)
    if ((mask >> e) & 1u) tb_reg_wr(e, REG(CTRL), 1);
  if (tb_wait_irq_all(mask, job_limit(&full))) {
    printf("  %s: TIMEOUT\n", name);
    ok = 0;
  }
  uint64_t cycles = tb_cycle() - t0;
  for (int e = 0; e < nsplit; e++)
    if ((mask >> e) & 1u) {
      if (err_of(status(e))) ok = 0;
      clear_irq(e);
    }
  if (check) ok &= compare_c(&full, &im, name);
  char buf[160];
  snprintf(buf, sizeof buf, "%s (M=%u N=%u K=%u %s, %d engines)", name, m, n, k, nf_name(t), nsplit);
  result(ok, buf);
  free_images(&im);
  return cycles;
}

/* ------------------------------------------------------------------ benchmark */
static void bench(void) {
  struct {
    uint32_t m, n, k;
  } shapes[6];
  int ns = 0;
  for (int mul = 2; mul <= 16; mul *= 2) {
    shapes[ns].m = shapes[ns].n = shapes[ns].k = (uint32_t)(mul * R);
    ns++;
  }
  shapes[ns].m = 16;
  shapes[ns].n = 4096;
  shapes[ns].k = 1024;
  ns++;
  nf_fmt types[2] = {NF_BF16, NF_E4M3};
  printf("| type | M x N x K | engines | ideal cycles | measured cycles | utilization | stall in | stall out | bytes rd | bytes wr |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (int ti = 0; ti < 2; ti++)
    for (int s = 0; s < ns; s++) {
      nf_fmt t = types[ti];
      job_t j = mkjob(shapes[s].m, shapes[s].n, shapes[s].k, t, t, t);
      uint64_t ideal = (uint64_t)j.g.m * j.g.n * j.g.k / (uint64_t)(R * C);
      tb_open(1, 40, 128);
      int ok = run_check(&j, "bench");
      uint32_t busy = tb_reg_rd(0, REG(PERF_BUSY));
      printf("| %s | %ux%ux%u | 1 | %llu | %u | %.1f%% | %u | %u | %u | %u |%s\n", nf_name(t), j.g.m, j.g.n,
             j.g.k, (unsigned long long)ideal, busy, 100.0 * (double)ideal / busy,
             tb_reg_rd(0, REG(PERF_STALL_IN)), tb_reg_rd(0, REG(PERF_STALL_OUT)),
             tb_reg_rd(0, REG(PERF_BYTES_RD)), tb_reg_rd(0, REG(PERF_BYTES_WR)), ok ? "" : " FAILED");
      char name[64];
      snprintf(name, sizeof name, "mme_block/%s_%ux%ux%u", nf_name(t), j.g.m, j.g.n, j.g.k);
      if (ok)
        bench_record(name, NULL, busy, (double)ideal,
                     "\"type\":\"%s\",\"m\":%u,\"n\":%u,\"k\":%u,\"engines\":1,\"stall_in\":%u,"
                     "\"stall_out\":%u,\"bytes_rd\":%u,\"bytes_wr\":%u",
                     nf_name(t), j.g.m, j.g.n, j.g.k, tb_reg_rd(0, REG(PERF_STALL_IN)),
                     tb_reg_rd(0, REG(PERF_STALL_OUT)), tb_reg_rd(0, REG(PERF_BYTES_RD)),
                     tb_reg_rd(0, REG(PERF_BYTES_WR)));
      fflush(stdout);
      if (s == ns - 2 || s == ns - 1) {
        tb_open(2, 40, 128);
        uint64_t cyc = split_gemm(j.g.m, j.g.n, j.g.k, t, t, 2, 1, "bench split");
        printf("| %s | %ux%ux%u | 2 | %llu | %llu | %.1f%% (x%.2f of one engine's ideal) | | | | |\n",
               nf_name(t), j.g.m, j.g.n, j.g.k, (unsigned long long)(ideal / 2), (unsigned long long)cyc,
               100.0 * (double)ideal / 2 / (double)cyc, (double)ideal / (double)cyc);
        snprintf(name, sizeof name, "mme_block/%s_%ux%ux%u_2mme", nf_name(t), j.g.m, j.g.n, j.g.k);
        bench_record(name, NULL, (double)cyc, (double)ideal / 2,
                     "\"type\":\"%s\",\"m\":%u,\"n\":%u,\"k\":%u,\"engines\":2,\"speedup\":%.4f",
                     nf_name(t), j.g.m, j.g.n, j.g.k, (double)ideal / (double)cyc);
        fflush(stdout);
      }
      tb_close();
    }
}

int main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int do_bench = 0, quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--bench")) do_bench = 1;
    else if (!strcmp(argv[i], "--quick")) quick = 1;
    else {
      fprintf(stderr, "usage: %s [--seed N] [--bench] [--quick]\n", argv[0]);
      return 2;
    }
  }
  R = tb_rows();
  C = tb_cols();
  rng = seed * 0x9E3779B97F4A7C15ull + 12345;
  printf("mme_test: array %dx%d seed %llu%s\n", R, C, (unsigned long long)seed, do_bench ? " (bench)" : "");
  if (do_bench) {
    bench();
  } else {
    tb_open(1, 40, 128);
    test_info();
    test_regs();
    test_types();
    test_transpose_stride();
    test_shapes();
    test_special();
    test_scale_bias_acc();
    test_msg();
    test_bad_input();
    test_axi_errors();
    test_busy();
    test_random(quick ? 10 : 30);
    tb_close();
    tb_open(2, 40, 128);
    split_gemm(4 * (uint32_t)R + 3, 4 * (uint32_t)C + 5, 2 * (uint32_t)R + 1, NF_BF16, NF_FP32, 2, 1,
               "two engines split one GEMM");
    split_gemm(2 * (uint32_t)R, 2 * (uint32_t)C, 3 * (uint32_t)R, NF_E4M3, NF_BF16, 2, 1,
               "two engines split one GEMM");
    tb_close();
  }
  printf("%d passed, %d failed\n", passes, fails);
  return fails ? 1 : 0;
}
