/* Suite `tpc`: the TPC cluster at chip level.
 *
 * Kernels from kernels/tpc are assembled in-process and written into device memory
 * through the host port (system bus -> OBI/AXI bridge -> fabric -> HBM model); input
 * tensors go in through the memory back door. The launch is programmed through the host
 * port into the cluster's registers (docs/regs/tpc.md); the cluster loads the program
 * over its DCORE AXI masters, runs it on the TPCs, sends its completion message over the
 * system bus into a SYSCTRL scratch register and raises INTC source 5. Outputs are
 * compared bit-exactly with the golden models (tests/tpc/golden) and across 1, 2 and
 * all TPCs. Block-level coverage (C-model lockstep of status, counters and the whole
 * memory, every error path) is in tests/tpc/rtl (suite `tpc_cluster`). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden/tpc_golden.h"
#include "regs/intc_regs.h"
#include "regs/sysctrl_regs.h"
#include "regs/tpc_regs.h"
#include "tessera_cfg.h"
#include "tf.h"
#include "tpcasm_lib.h"

#define TPC_REG(r) (TESSERA_TPC_BASE + (uint32_t)offsetof(tpc_t, r))
#define SCRATCH(i) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, SCRATCH0) + 4u * (i))
#define INTC_PENDING (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, PENDING))
#define FIELD(v, f) (((v) & TPC__##f##_bm) >> TPC__##f##_bp)
#define TPC_IRQ_SRC 5u
#define NTPC_ALL (TESSERA_DCORES * TESSERA_TPC_PER_DCORE)
#define KPROG_ADDR (TESSERA_HBM_BASE + 0x10000u)
#define DATA_ADDR (TESSERA_HBM_BASE + 0x20000u)

typedef struct { uint32_t addr; int W, H, pitch; } tt_t;

typedef struct {
  uint32_t prog, len, ntens, ntpc, idx[5];
  tt_t tens[3];
  uint32_t pad[3];
  int oned[3];
} tl_t;

/* assemble kernels/tpc/<name>.tasm and write it through the host port */
static int load_kernel(tf_ctx_t *t, const char *name, uint32_t addr, uint32_t *nb) {
  char rel[128], err[512];
  tpc_bundle_t *b = NULL;
  snprintf(rel, sizeof(rel), "kernels/tpc/%s.tasm", name);
  if (tpcasm_assemble_file(tf_root_path(rel), NULL, 0, &b, nb, err, sizeof(err)))
    return tf_fail(t, "assembler: %s", err);
  const uint32_t *w = (const uint32_t *)b;
  for (uint32_t i = 0; i < 8u * *nb; i++) {
    int rc = tsim_host_write32(t->sim, addr + 4u * i, w[i]);
    if (rc != TSIM_OK) { free(b); return tf_fail(t, "host write of the program: %s", tsim_last_error(t->sim)); }
  }
  free(b);
  return TF_PASS;
}

static void put_mat(tf_ctx_t *t, const tt_t *m, const uint32_t *v) {
  for (int r = 0; r < m->H; r++) tsim_mem_write(t->sim, m->addr + 4u * (uint32_t)(r * m->pitch), v + (size_t)r * m->W, 4u * (uint32_t)m->W);
}
static void get_mat(tf_ctx_t *t, const tt_t *m, uint32_t *v) {
  for (int r = 0; r < m->H; r++) tsim_mem_read(t->sim, m->addr + 4u * (uint32_t)(r * m->pitch), v + (size_t)r * m->W, 4u * (uint32_t)m->W);
}

static uint32_t rnd_f32(tf_ctx_t *t) {
  float f = (float)((int32_t)tf_rand32(t) >> 8) / (float)(1u << tf_rand_below(t, 20));
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static int tpc_done(tsim_t *s, void *ctx) {
  (void)ctx;
  uint32_t st = 0;
  if (tsim_host_read32(s, TPC_REG(STATUS), &st) != TSIM_OK) return 1;
  return (st & TPC__STATUS__DONE_bm) != 0;
}

/* program the registers, commit, wait; checks message and interrupt; returns STATUS */
static int launch(tf_ctx_t *t, const tl_t *l, uint32_t tag, uint32_t *status, uint64_t *cycles) {
  struct { uint32_t r, v; } w[] = {
      {TPC_REG(PROG_ADDR), l->prog}, {TPC_REG(PROG_LEN), l->len}, {TPC_REG(NTENSORS), l->ntens},
      {TPC_REG(NTPC), l->ntpc}, {TPC_REG(RNG_SEED), tag}, {TPC_REG(IDX_SIZE0), l->idx[0]},
      {TPC_REG(IDX_SIZE1), l->idx[1]}, {TPC_REG(IDX_SIZE2), l->idx[2]}, {TPC_REG(IDX_SIZE3), l->idx[3]},
      {TPC_REG(IDX_SIZE4), l->idx[4]}, {TPC_REG(MSG_ADDR), SCRATCH(2)}, {TPC_REG(MSG_DATA), tag},
      {TPC_REG(MSG_CTRL), 1}, {SCRATCH(2), 0},
  };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) TF_CHECK_OK(t, tsim_host_write32(t->sim, w[i].r, w[i].v));
  for (uint32_t k = 0; k < l->ntens; k++) {
    const tt_t *m = &l->tens[k];
    uint32_t d[13] = {m->addr, 0u | ((l->oned[k] ? 1u : 2u) << 4), l->pad[k],
                      (uint32_t)m->W, (uint32_t)m->H, 1, 1, 1, 1, (uint32_t)m->pitch, 0, 0, 0};
    for (int i = 0; i < 13; i++) TF_CHECK_OK(t, tsim_host_write32(t->sim, TPC_REG(DESC) + 64u * k + 4u * i, d[i]));
  }
  uint64_t t0 = tsim_cycles(t->sim);
  TF_CHECK_OK(t, tsim_host_write32(t->sim, TPC_REG(CTRL), TPC__CTRL__COMMIT_bm));
  TF_CHECK_OK(t, tsim_run_until(t->sim, tpc_done, NULL, t->budget, 8));
  if (cycles) *cycles = tsim_cycles(t->sim) - t0;
  uint32_t st = 0, msg = 0, pend = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, TPC_REG(STATUS), &st));
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SCRATCH(2), &msg));
  TF_CHECK_OK(t, tsim_host_read32(t->sim, INTC_PENDING, &pend));
  if (msg != tag) return tf_fail(t, "completion message: scratch = 0x%08x, want 0x%08x", msg, tag);
  if (!((pend >> TPC_IRQ_SRC) & 1u)) return tf_fail(t, "INTC source %u not pending after completion", TPC_IRQ_SRC);
  TF_CHECK_OK(t, tsim_host_write32(t->sim, TPC_REG(STATUS), TPC__STATUS__DONE_bm));
  TF_CHECK_OK(t, tsim_host_read32(t->sim, INTC_PENDING, &pend));
  if ((pend >> TPC_IRQ_SRC) & 1u) return tf_fail(t, "INTC source %u still pending after clearing STATUS.done", TPC_IRQ_SRC);
  *status = st;
  return TF_PASS;
}

/* run kernel `name` (kind: 0 relu, 1 add, 2 mul, 3 reduce_sum, 4 transpose) on [H][W]
 * on 1, 2 and all TPCs: golden-exact and identical */
static int kernel_run(tf_ctx_t *t, const char *name, int kind, int W, int H, int all_splits) {
  tl_t l;
  memset(&l, 0, sizeof l);
  int rc = load_kernel(t, name, KPROG_ADDR, &l.len);
  if (rc != TF_PASS) return rc;
  l.prog = KPROG_ADDR;
  for (int d = 0; d < 5; d++) l.idx[d] = 1;
  tt_t a = {DATA_ADDR + 4u * tf_rand_below(t, 8), W, H, W + (int)tf_rand_below(t, 4)};
  tt_t b = {(a.addr + 4u * (uint32_t)(a.pitch * H) + 96u) & ~3u, W, H, W};
  tt_t o = {(b.addr + 4u * (uint32_t)(b.pitch * H) + 96u) & ~3u, W, H, W + 1};
  size_t n = (size_t)W * H, nout = n;
  uint32_t *va = malloc(4 * n), *vb = malloc(4 * n), *g = malloc(4 * n), *got = malloc(4 * n), *ref = malloc(4 * n);
  for (size_t i = 0; i < n; i++) { va[i] = rnd_f32(t); vb[i] = rnd_f32(t); }
  put_mat(t, &a, va);
  put_mat(t, &b, vb);
  if (kind <= 2) {
    l.ntens = 3; l.tens[0] = a; l.tens[1] = b; l.tens[2] = o;
    l.idx[0] = (uint32_t)(W + 7) / 8; l.idx[1] = (uint32_t)H;
    for (size_t i = 0; i < n; i++) g[i] = kind == 0 ? tg_relu(va[i]) : kind == 1 ? tg_add(va[i], vb[i]) : tg_mul(va[i], vb[i]);
  } else if (kind == 3) {
    o.W = H; o.H = 1; o.pitch = H;
    l.ntens = 2; l.tens[0] = a; l.tens[1] = o; l.oned[1] = 1;
    l.idx[1] = (uint32_t)H;
    nout = (size_t)H;
    tg_reduce_sum(va, H, W, g);
  } else {
    o.W = H; o.H = W; o.pitch = H + 3;
    l.ntens = 2; l.tens[0] = a; l.tens[1] = o;
    l.idx[0] = (uint32_t)(W + 7) / 8; l.idx[1] = (uint32_t)(H + 7) / 8;
    tg_transpose(va, H, W, g);
  }
  const tt_t *out = &l.tens[l.ntens - 1];
  uint32_t splits[3] = {NTPC_ALL, 1, 2};
  for (int s = 0; s < (all_splits ? 3 : 1) && rc == TF_PASS; s++) {
    l.ntpc = splits[s];
    uint32_t st = 0;
    uint64_t cyc = 0;
    memset(got, 0xA5, 4 * nout);
    put_mat(t, out, got);   /* canary */
    rc = launch(t, &l, 0x7C00u + (uint32_t)s, &st, &cyc);
    if (rc != TF_PASS) break;
    if (FIELD(st, STATUS__ERR)) {
      rc = tf_fail(t, "%s on %u TPCs: error %u on TPC %u", name, l.ntpc, (unsigned)FIELD(st, STATUS__ERR),
                   (unsigned)FIELD(st, STATUS__ERR_TPC));
      break;
    }
    get_mat(t, out, got);
    for (size_t i = 0; i < nout; i++)
      if (got[i] != g[i]) { rc = tf_fail(t, "%s on %u TPCs: element %zu = %08x, golden %08x", name, l.ntpc, i, got[i], g[i]); break; }
    if (s == 0) memcpy(ref, got, 4 * nout);
    else if (rc == TF_PASS && memcmp(ref, got, 4 * nout)) rc = tf_fail(t, "%s: %u TPCs differ from %u", name, l.ntpc, NTPC_ALL);
    if (rc == TF_PASS) tf_log(t, "%s [%d x %d] on %u TPCs: %llu cycles (commit to done seen)", name, H, W, l.ntpc, (unsigned long long)cyc);
  }
  free(va); free(vb); free(g); free(got); free(ref);
  return rc;
}

/* The default smoke run: one elementwise add on every TPC of the chip. */
TF_TEST_F(tpc, add_smoke, 2000000, TF_SMOKE) { return kernel_run(t, "add", 1, 37, 6, 0); }

TF_TEST(tpc, relu_split, 4000000) { return kernel_run(t, "relu", 0, 45, 5, 1); }
TF_TEST(tpc, mul_split, 4000000) { return kernel_run(t, "mul", 2, 17, 9, 1); }
TF_TEST(tpc, reduce_sum_split, 4000000) { return kernel_run(t, "reduce_sum", 3, 70, 9, 1); }
TF_TEST(tpc, transpose_split, 6000000) { return kernel_run(t, "transpose", 4, 21, 19, 1); }

/* Bad input through the chip: an index space with a zero dimension is refused with
 * BAD_LAUNCH (failing TPC 15 = the cluster), interrupt and message, nothing written;
 * a tensor store beyond device memory stops the TPCs that reach it with BUS; the next
 * launch works. */
TF_TEST(tpc, errors_then_recover, 4000000) {
  tl_t l;
  memset(&l, 0, sizeof l);
  int rc = load_kernel(t, "add", KPROG_ADDR, &l.len);
  if (rc != TF_PASS) return rc;
  l.prog = KPROG_ADDR;
  l.ntens = 3;
  for (int d = 0; d < 5; d++) l.idx[d] = 1;
  l.tens[0] = (tt_t){DATA_ADDR, 16, 4, 16};
  l.tens[1] = (tt_t){DATA_ADDR + 0x1000u, 16, 4, 16};
  l.tens[2] = (tt_t){DATA_ADDR + 0x2000u, 16, 4, 16};
  l.idx[0] = 2; l.idx[1] = 4; l.idx[2] = 0;
  l.ntpc = NTPC_ALL;
  uint32_t before[64], after[64], st = 0;
  tsim_mem_read(t->sim, DATA_ADDR + 0x2000u, before, sizeof before);
  rc = launch(t, &l, 0xBAD1u, &st, NULL);
  if (rc != TF_PASS) return rc;
  if (FIELD(st, STATUS__ERR) != 10 || FIELD(st, STATUS__ERR_TPC) != 15)
    return tf_fail(t, "index-space size 0: STATUS 0x%08x, want BAD_LAUNCH from the cluster", st);
  tsim_mem_read(t->sim, DATA_ADDR + 0x2000u, after, sizeof after);
  if (memcmp(before, after, sizeof before)) return tf_fail(t, "a refused launch wrote memory");
  /* rows 2, 3 of the output beyond the end of device memory */
  l.idx[2] = 1;
  l.tens[2].addr = TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 2u * 64u;
  rc = launch(t, &l, 0xBAD2u, &st, NULL);
  if (rc != TF_PASS) return rc;
  if (FIELD(st, STATUS__ERR) != 7) return tf_fail(t, "store beyond memory: STATUS 0x%08x, want BUS", st);
  return kernel_run(t, "add", 1, 19, 3, 0);
}

/* ---------------------------------------------------------------- benchmarks
 * Elementwise FP32 add in the HBM model behind the fabric; cycles from the commit write
 * to STATUS.done seen by the host (polled every 8 cycles). Roofline: the bytes moved
 * (12 per element) at the HBM bandwidth (channels x bytes/cycle). Scaling 1 -> all TPCs
 * on 64 KiB tensors, then 1 MiB tensors on all TPCs. Results still checked. */
static int bench_one(tf_ctx_t *t, const char *kern, int W, int H, uint32_t ntpc, uint64_t *cycles) {
  tl_t l;
  memset(&l, 0, sizeof l);
  int rc = load_kernel(t, kern, KPROG_ADDR, &l.len);
  if (rc != TF_PASS) return rc;
  l.prog = KPROG_ADDR;
  l.ntens = 3;
  for (int d = 0; d < 5; d++) l.idx[d] = 1;
  uint32_t bytes = 4u * (uint32_t)(W * H);
  tt_t a = {TESSERA_HBM_BASE + 0x100000u, W, H, W}, b = {a.addr + bytes, W, H, W}, o = {b.addr + bytes, W, H, W};
  l.tens[0] = a; l.tens[1] = b; l.tens[2] = o;
  if (!strcmp(kern, "add")) l.idx[0] = (uint32_t)W / 8;
  l.idx[1] = (uint32_t)H;
  l.ntpc = ntpc;
  size_t n = (size_t)W * H;
  uint32_t *va = malloc(4 * n), *vb = malloc(4 * n), *got = malloc(4 * n);
  for (size_t i = 0; i < n; i++) { va[i] = rnd_f32(t); vb[i] = rnd_f32(t); }
  put_mat(t, &a, va);
  put_mat(t, &b, vb);
  uint32_t st = 0;
  rc = launch(t, &l, 0xBE00u + ntpc, &st, cycles);
  if (rc == TF_PASS && FIELD(st, STATUS__ERR)) rc = tf_fail(t, "error %u", (unsigned)FIELD(st, STATUS__ERR));
  if (rc == TF_PASS) {
    get_mat(t, &o, got);
    for (size_t i = 0; i < n; i++)
      if (got[i] != tg_add(va[i], vb[i])) { rc = tf_fail(t, "element %zu wrong", i); break; }
  }
  if (rc == TF_PASS) {
    double roof = 3.0 * bytes / ((double)TESSERA_HBM_CHANNELS * TESSERA_HBM_BYTES_PER_CYCLE);
    printf("TPCBENCH %s FP32 [%d x %d] TPCs %u: %llu cycles, roofline %.0f, %.1f%% of roofline, %.2f B/cycle\n",
           kern, H, W, ntpc, (unsigned long long)*cycles, roof, 100.0 * roof / (double)*cycles,
           3.0 * bytes / (double)*cycles);
  }
  free(va); free(vb); free(got);
  return rc;
}

static int bench_add(tf_ctx_t *t, const char *kern) {
  uint64_t c = 0, c1 = 0;
  int rc = TF_PASS;
  for (uint32_t n = 1; n <= NTPC_ALL && rc == TF_PASS; n *= 2) {
    rc = bench_one(t, kern, 1024, 16, n, &c);
    if (n == 1) c1 = c;
    else if (rc == TF_PASS) printf("TPCBENCH %s scaling 1 -> %u TPCs: x%.2f\n", kern, n, (double)c1 / (double)c);
  }
  if (rc == TF_PASS) rc = bench_one(t, kern, 1024, 256, NTPC_ALL, &c);
  return rc;
}

TF_TEST_F(tpc, bench_add, 100000000, TF_BENCH) { return bench_add(t, "add"); }
TF_TEST_F(tpc, bench_add_stream, 100000000, TF_BENCH) { return bench_add(t, "add_stream"); }
