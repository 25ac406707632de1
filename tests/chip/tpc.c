/* Suite `tpc`: the TPC cluster in the chip (docs/tpc_rtl.md, "In the chip").
 *
 * Kernels from kernels/tpc are assembled in-process and put into device memory with the
 * tensors. Every launch also runs on the C ISA model (tests/tpc/tpc_model.h, TPC by TPC
 * with the cluster's split) on an image of the same memory window, and the chip must
 * agree with it on the whole window (byte for byte), the status (error code, failing
 * TPC, PC, error mask) and the retired-bundle count; results of the library kernels are
 * also compared with their golden models. The window is the last WIN bytes of device
 * memory, so that accesses past its end are errors in the model and in the chip alike.
 *
 * The launch is programmed through the host port into the cluster's registers; the
 * cluster loads the program and the tensors through the DCOREs' L2 slices (TPC slot s of
 * a DCORE on port 1 if s % TESSERA_TPC_PORTS_PER_DCORE == 0, else port 3 + that; the
 * program loader on port 1; test l2_ports checks it), so
 * the test follows the L2 coherence contract (docs/l2.md): inputs are written behind
 * the slices (back door), the slices are invalidated before and flushed after a launch.
 *
 * L2 mode. The cluster interleaves TPCs over the DCOREs (tpcid t on DCORE t % 2), so
 * neighbouring slices of a split write through different L2 slices. In private mode a
 * slice writes back only the bytes written through it (byte-dirty mask, docs/l2.md,
 * "Byte granularity"), so two DCOREs may write different bytes of one 64-byte line:
 * add_unaligned_private runs with an unaligned output (base off a line, odd row pitch),
 * the other private-mode cases keep their output line-aligned; the cases whose split
 * cuts lines by construction (column blocks of a transpose, the short rows of a row
 * sum) run with the slices in shared mode, where one slice owns each line.
 * Each launch checks its completion message (into a SYSCTRL scratch register) and INTC
 * source 5 (raised, then cleared by STATUS.done). The launch-gap benchmark launches
 * through the TPC queue manager (back-to-back commits with the engine-idle barrier). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip_l2.h"
#include "cp_model.h"
#include "golden/tpc_golden.h"
#include "regs/intc_regs.h"
#include "regs/l2_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "regs/sysctrl_regs.h"
#include "regs/tpc_regs.h"
#include "tessera_cfg.h"
#include "tf.h"
#include "tpc_model.h"
#include "tpcasm_lib.h"

#define TPC_REG(r) (TESSERA_TPC_BASE + (uint32_t)offsetof(tpc_t, r))
#define TPC_OFF(r) ((uint32_t)offsetof(tpc_t, r))
#define SCRATCH(i) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, SCRATCH0) + 4u * (i))
#define INTC_PENDING (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, PENDING))
#define QM(r) (TESSERA_QMAN_ADDR(TESSERA_QMAN_SLOT_TPC) + (uint32_t)offsetof(qman_t, r))
#define SM(r) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, r))
#define FIELD(v, f) (((v) & TPC__##f##_bm) >> TPC__##f##_bp)
#define TPC_IRQ_SRC 5u
#define NTPC_ALL (TESSERA_DCORES * TESSERA_TPC_PER_DCORE)
#define WIN (256u * 1024u)
#define WIN_BASE (TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES - WIN)  /* the end of populated device memory */
#define PROG_AT (WIN_BASE + 0x100u)     /* kernel program (<= 8 KiB) */
#define DATA_AT (WIN_BASE + 0x4000u)    /* tensors from here */
#define MAX_BUNDLES 2000000u
/* BUNDLE_LIMIT of the next launches (0: none); the model runs with the same limit */
static uint32_t bundle_limit;
/* kernel_case also checks which L2 ports of which slices the launch used */
static int check_ports;
#define L2R(d, r) (TESSERA_L2_ADDR(d) + (uint32_t)offsetof(l2_t, r))

#define W32(a, v) TF_CHECK_OK(t, tsim_host_write32(t->sim, (a), (v)))
#define R32(a, p) TF_CHECK_OK(t, tsim_host_read32(t->sim, (a), (p)))
#define CALL(x)                  \
  do {                           \
    int rc_ = (x);               \
    if (rc_ != TF_PASS) return rc_; \
  } while (0)

/* ------------------------------------------------------------------ helpers */
static int assemble(tf_ctx_t *t, const char *name, const char *src, tpc_bundle_t **b, uint32_t *nb) {
  char err[512];
  int rc;
  if (src) {
    rc = tpcasm_assemble(src, name, NULL, 0, b, nb, err, sizeof err);
  } else {
    char rel[128];
    snprintf(rel, sizeof rel, "kernels/tpc/%s.tasm", name);
    rc = tpcasm_assemble_file(tf_root_path(rel), NULL, 0, b, nb, err, sizeof err);
  }
  return rc ? tf_fail(t, "assembler: %s", err) : TF_PASS;
}

static uint32_t rnd_f32(tf_ctx_t *t) {
  uint32_t k = tf_rand_below(t, 64);
  if (k == 0) return 0x7FC00000u | (tf_rand32(t) & 0x803FFFFFu);  /* NaN */
  if (k == 1) return (tf_rand32(t) & 0x80000000u) | 0x7F800000u;  /* Inf */
  if (k == 2) return tf_rand32(t) & 0x807FFFFFu;                  /* subnormal / zero */
  float f = (float)((int32_t)tf_rand32(t) >> 8) / (float)(1u << tf_rand_below(t, 20));
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

/* 2-D FP32 (or other) tensor [H][W] with row pitch P elements */
static tpc_tensor_t tens2(uint32_t base, uint32_t dtype, uint32_t W, uint32_t H, uint32_t P, uint32_t pad) {
  tpc_tensor_t d;
  memset(&d, 0, sizeof d);
  d.base = base;
  d.dtype = dtype;
  d.ndims = H > 1 ? 2u : 1u;
  d.pad = pad;
  for (int k = 0; k < TPC_NDIMS; k++) d.size[k] = 1, d.stride[k] = 0;
  d.size[0] = W;
  d.size[1] = H;
  d.stride[0] = 1;
  d.stride[1] = (int32_t)P;
  return d;
}

static int tpc_done_pred(tsim_t *s, void *ctx) {
  (void)ctx;
  uint32_t st = 0;
  if (tsim_host_read32(s, TPC_REG(STATUS), &st) != TSIM_OK) return 1;
  return (st & TPC__STATUS__DONE_bm) != 0;
}

typedef struct {
  uint32_t status, err_pc, err_mask, bundles, busy, tpc_busy;
  uint32_t stall_ld, stall_st, stall_arb;  /* PERF_STALL_* (summed over the TPCs) */
  uint64_t cycles;  /* commit write to STATUS.done seen (polled every 8 cycles) */
} tpc_res_t;

/* Program launch L on ntpc TPCs through the host port, commit, wait for STATUS.done;
 * checks the completion message and the interrupt. No L2 maintenance here. */
static int chip_launch(tf_ctx_t *t, const tpc_launch_t *L, uint32_t ntpc, uint32_t tag, tpc_res_t *r) {
  uint32_t cfg[6] = {L->prog_addr, L->prog_len, L->ntensors, ntpc, L->rng_seed, bundle_limit};
  for (uint32_t i = 0; i < 6; i++) W32(TPC_REG(PROG_ADDR) + 4u * i, cfg[i]);
  for (uint32_t i = 0; i < 5; i++) W32(TPC_REG(IDX_SIZE0) + 4u * i, L->idx_size[i]);
  for (uint32_t i = 0; i < TPC_NSARGS; i++) W32(TPC_REG(SARG) + 4u * i, L->sarg[i]);
  for (uint32_t k = 0; k < L->ntensors; k++) {
    const tpc_tensor_t *d = &L->tensor[k];
    uint32_t w[13] = {d->base, (d->dtype & 15u) | (d->ndims << 4), d->pad};
    for (int i = 0; i < 5; i++) w[3 + i] = d->size[i], w[8 + i] = (uint32_t)d->stride[i];
    for (int i = 0; i < 13; i++) W32(TPC_REG(DESC) + 64u * k + 4u * (uint32_t)i, w[i]);
  }
  W32(TPC_REG(MSG_ADDR), SCRATCH(2));
  W32(TPC_REG(MSG_DATA), tag);
  W32(TPC_REG(MSG_CTRL), 1);
  W32(SCRATCH(2), 0);
  uint64_t t0 = tsim_cycles(t->sim);
  W32(TPC_REG(CTRL), TPC__CTRL__COMMIT_bm);
  int rc = tsim_run_until(t->sim, tpc_done_pred, NULL, t->budget, 8);
  if (rc != TSIM_OK) {
    uint32_t st = 0, bund = 0;
    tsim_host_read32(t->sim, TPC_REG(STATUS), &st);
    tsim_host_read32(t->sim, TPC_REG(PERF_BUNDLES), &bund);
    return tf_fail(t, "TPC launch did not end: STATUS 0x%08x, %u bundles retired (%s)", st, bund,
                   tsim_last_error(t->sim));
  }
  r->cycles = tsim_cycles(t->sim) - t0;
  uint32_t msg = 0, pend = 0;
  R32(TPC_REG(STATUS), &r->status);
  R32(TPC_REG(ERR_PC), &r->err_pc);
  R32(TPC_REG(ERR_MASK), &r->err_mask);
  R32(TPC_REG(PERF_BUNDLES), &r->bundles);
  R32(TPC_REG(PERF_BUSY), &r->busy);
  R32(TPC_REG(PERF_TPC_BUSY), &r->tpc_busy);
  R32(TPC_REG(PERF_STALL_LD), &r->stall_ld);
  R32(TPC_REG(PERF_STALL_ST), &r->stall_st);
  R32(TPC_REG(PERF_STALL_ARB), &r->stall_arb);
  R32(SCRATCH(2), &msg);
  R32(INTC_PENDING, &pend);
  if (msg != tag) return tf_fail(t, "completion message: scratch = 0x%08x, want 0x%08x", msg, tag);
  if (!((pend >> TPC_IRQ_SRC) & 1u)) return tf_fail(t, "INTC source %u not pending after the launch", TPC_IRQ_SRC);
  W32(TPC_REG(STATUS), TPC__STATUS__DONE_bm);
  R32(INTC_PENDING, &pend);
  if ((pend >> TPC_IRQ_SRC) & 1u) return tf_fail(t, "INTC source %u still pending after clearing STATUS.done", TPC_IRQ_SRC);
  return TF_PASS;
}

/* Run L on ntpc TPCs on the chip and on the C ISA model (memory window image); compare
 * the window, the status and the bundle count. *exp_err (if not NULL) gets the model's
 * error code. */
static int run_vs_model(tf_ctx_t *t, const tpc_launch_t *L, uint32_t ntpc, uint32_t tag, int *exp_err, tpc_res_t *out) {
  uint8_t *img = malloc(WIN), *got = malloc(WIN);
  if (!img || !got) { free(img); free(got); return tf_fail(t, "out of memory"); }
  int rc = TF_PASS;
  TF_CHECK_OK(t, tsim_mem_read(t->sim, WIN_BASE, img, WIN));
  tpc_devmem_t mem = {img, WIN_BASE, WIN};
  tpc_stats_t st;
  uint32_t etpc = 0, epc = 0, emask = 0;
  const uint64_t maxb = bundle_limit ? bundle_limit : MAX_BUNDLES;
  int e = tpc_run_cluster(L, &mem, ntpc, maxb, &st, &etpc, &epc);
  /* the error mask: every TPC that stops with an error (each TPC on a fresh image) */
  for (uint32_t k = 0; e && k < ntpc; k++) {
    tpc_core_t *c = malloc(sizeof *c);
    uint8_t *scratch = malloc(WIN);
    if (!c || !scratch) { free(c); free(scratch); free(img); free(got); return tf_fail(t, "out of memory"); }
    TF_CHECK_OK(t, tsim_mem_read(t->sim, WIN_BASE, scratch, WIN));
    tpc_devmem_t m2 = {scratch, WIN_BASE, WIN};
    int e2 = tpc_core_start(c, L, &m2, k, ntpc);
    if (!e2) e2 = tpc_core_run(c, maxb);
    if (e2) emask |= 1u << k;
    free(c);
    free(scratch);
  }
  if (e == TPC_ERR_TIMEOUT && !bundle_limit) rc = tf_fail(t, "the model did not finish the launch");
  tpc_res_t r;
  memset(&r, 0, sizeof r);
  /* inputs were written behind the L2: drop stale lines; results: flush before reading */
  if (rc == TF_PASS && tsim_l2_invalidate_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 invalidate: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) rc = chip_launch(t, L, ntpc, tag, &r);
  if (rc == TF_PASS && tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 flush: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) {
    uint32_t herr = FIELD(r.status, STATUS__ERR), htpc = FIELD(r.status, STATUS__ERR_TPC);
    if (e == TPC_ERR_BAD_LAUNCH) {
      /* refused by the cluster's launch check: TPC 15, nothing run */
      if (herr != TPC_ERR_BAD_LAUNCH || htpc != 15u)
        rc = tf_fail(t, "bad launch: STATUS 0x%08x, want BAD_LAUNCH from the cluster (TPC 15)", r.status);
    } else if (herr != (uint32_t)e || (e && (htpc != etpc || r.err_pc != epc || r.err_mask != emask))) {
      rc = tf_fail(t, "status: chip err %u (%s) TPC %u PC %u mask 0x%x; model err %u (%s) TPC %u PC %u mask 0x%x", herr,
                   tpc_err_name((int)herr), htpc, r.err_pc, r.err_mask, (unsigned)e, tpc_err_name(e), etpc, epc, emask);
    } else if (!e && r.bundles != (uint32_t)st.bundles) {
      rc = tf_fail(t, "bundles retired: chip %u, model %llu", r.bundles, (unsigned long long)st.bundles);
    }
  }
  if (rc == TF_PASS) {
    TF_CHECK_OK(t, tsim_mem_read(t->sim, WIN_BASE, got, WIN));
    for (uint32_t i = 0; i < WIN; i++)
      if (got[i] != img[i]) {
        rc = tf_fail(t, "memory at 0x%08x: chip 0x%02x, model 0x%02x", WIN_BASE + i, got[i], img[i]);
        break;
      }
  }
  if (exp_err) *exp_err = e;
  if (out) *out = r;
  free(img);
  free(got);
  return rc;
}

static int write_prog(tf_ctx_t *t, const tpc_bundle_t *b, uint32_t nb, uint32_t at) {
  TF_CHECK_OK(t, tsim_mem_write(t->sim, at, b, 32u * nb));
  return TF_PASS;
}

static void put_rand(tf_ctx_t *t, const tpc_tensor_t *d, uint32_t *vals) {
  for (uint32_t r = 0; r < d->size[1]; r++) {
    for (uint32_t c = 0; c < d->size[0]; c++) vals[r * d->size[0] + c] = rnd_f32(t);
    tsim_mem_write(t->sim, d->base + 4u * r * (uint32_t)d->stride[1], vals + r * d->size[0], 4u * d->size[0]);
  }
}
static void get_mat(tf_ctx_t *t, const tpc_tensor_t *d, uint32_t *vals) {
  for (uint32_t r = 0; r < d->size[1]; r++)
    tsim_mem_read(t->sim, d->base + 4u * r * (uint32_t)d->stride[1], vals + r * d->size[0], 4u * d->size[0]);
}

/* kinds of library kernels run here */
enum { K_RELU, K_ADD, K_MUL, K_REDUCE_SUM, K_TRANSPOSE, K_GELU };
static const char *const k_names[] = {"relu", "add", "mul", "reduce_sum", "transpose", "gelu"};


/* Kernel `kind` on a random [H][W] FP32 input (W, H around the given values) on
 * the given TPC counts: chip == model (whole window, status, bundles) and, for the
 * exact kernels, == golden model; outputs identical across the splits.
 * mode: L2_PRIV_ALIGNED, L2_SHARED (unaligned output), L2_PRIV_UNALIGNED. */
enum { L2_PRIV_ALIGNED, L2_SHARED, L2_PRIV_UNALIGNED };
/* After a launch on n TPCs (tpcid 0..n-1; tpcid i on DCORE i % DCORES in slot i / DCORES,
 * slot s on the DCORE's cluster master s % PORTS = L2 port 1 for master 0, 3 + q for
 * master q): exactly the ports of the masters with a used TPC moved bytes. */
static int ports_clear(tf_ctx_t *t) {
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++) {
    uint32_t c = 0;
    R32(L2R(d, CTRL), &c);
    W32(L2R(d, CTRL), c | L2__CTRL__CNT_CLR_bm);
  }
  return TF_PASS;
}
static int ports_used(tf_ctx_t *t, uint32_t n) {
  for (unsigned d = 0; d < TESSERA_NUM_L2; d++)
    for (unsigned q = 0; q < TESSERA_TPC_PORTS_PER_DCORE; q++) {
      int want = 0;
      for (uint32_t i = 0; i < n; i++)
        if (i % TESSERA_DCORES == d && (i / TESSERA_DCORES) % TESSERA_TPC_PORTS_PER_DCORE == q) want = 1;
      uint32_t port = q ? 3u + q : 1u, bytes = 0;
      if (port > 4u) return tf_fail(t, "ports_used: L2 port %u has no byte counter", port);
      R32(L2R(d, PORT0_BYTES) + 4u * port, &bytes);
      if (!!bytes != want)
        return tf_fail(t, "%u TPCs: L2 slice %u port %u moved %u bytes (cluster master %u %s)", n, d, port, bytes, q,
                       want ? "has used TPCs" : "has no used TPC");
      tf_log(t, "%u TPCs: slice %u port %u: %u bytes", n, d, port, bytes);
    }
  return TF_PASS;
}

/* Assemble library kernel `name`, write it at PROG_AT and start a launch for it: program
 * address and length set, index space all ones, everything else zero. */
static int load_kernel(tf_ctx_t *t, const char *name, tpc_launch_t *L) {
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  CALL(assemble(t, name, NULL, &prog, &nb));
  int rc = write_prog(t, prog, nb, PROG_AT);
  free(prog);
  if (rc != TF_PASS) return rc;
  memset(L, 0, sizeof *L);
  L->prog_addr = PROG_AT;
  L->prog_len = nb;
  for (int d = 0; d < TPC_NDIMS; d++) L->idx_size[d] = 1;
  return TF_PASS;
}

static int kernel_case(tf_ctx_t *t, int kind, uint32_t W, uint32_t H, const uint32_t *splits, unsigned nsplits,
                       int mode) {
  const int shared = mode == L2_SHARED;
  if (shared) CALL(chip_l2_all_shared(t));  /* (each test starts a fresh chip) */
  /* private mode: only row-split elementwise kernels */
  if (!shared && kind != K_RELU && kind != K_ADD && kind != K_MUL && kind != K_GELU)
    return tf_fail(t, "kernel_case: %s needs shared mode (its split cuts L2 lines)", k_names[kind]);
  tpc_launch_t L;
  int rc = TF_PASS;
  CALL(load_kernel(t, k_names[kind], &L));
  L.rng_seed = tf_rand32(t);
  uint32_t pa = W + tf_rand_below(t, 5), pb = W + tf_rand_below(t, 3);
  uint32_t a_at = DATA_AT + 4u * tf_rand_below(t, 8);
  uint32_t b_at = (a_at + 4u * pa * H + 64u + 4u * tf_rand_below(t, 8)) & ~3u;
  uint32_t o_at = (b_at + 4u * pb * H + 64u + 4u * tf_rand_below(t, 8)) & ~3u;
  uint32_t po = W + 1u;  /* output row pitch (elementwise kernels) */
  if (mode == L2_PRIV_ALIGNED) {
    o_at = (o_at + 63u) & ~63u;
    po = (W + 15u) & ~15u;
  } else if (mode == L2_PRIV_UNALIGNED) {
    /* rows of neighbouring TPCs (different DCOREs) share 64-byte lines */
    if ((o_at & 63u) == 0) o_at += 4u * (1u + tf_rand_below(t, 15));
    if ((po & 15u) == 0) po++;
  }
  tpc_tensor_t a = tens2(a_at, 0, W, H, pa, 0), b = tens2(b_at, 0, W, H, pb, 0);
  size_t n = (size_t)W * H;
  uint32_t *va = malloc(4 * n), *vb = malloc(4 * n), *g = malloc(4 * n), *got = malloc(4 * n), *ref = malloc(4 * n);
  put_rand(t, &a, va);
  put_rand(t, &b, vb);
  tpc_tensor_t o;
  int exact = 1;
  if (kind <= K_MUL || kind == K_GELU) {
    o = tens2(o_at, 0, W, H, po, 0);
    L.ntensors = 3;
    L.tensor[0] = a;
    L.tensor[1] = b;
    L.tensor[2] = o;
    L.idx_size[0] = (W + 7u) / 8u;
    L.idx_size[1] = H;
    for (size_t i = 0; i < n; i++)
      g[i] = kind == K_RELU ? tg_relu(va[i]) : kind == K_ADD ? tg_add(va[i], vb[i]) : kind == K_MUL ? tg_mul(va[i], vb[i]) : 0;
    exact = kind != K_GELU;  /* gelu: checked against the ISA model only (bit-exact there) */
  } else if (kind == K_REDUCE_SUM) {
    o = tens2(o_at, 0, H, 1, H, 0);
    L.ntensors = 2;
    L.tensor[0] = a;
    L.tensor[1] = o;
    L.idx_size[1] = H;
    n = H;
    tg_reduce_sum(va, (int)H, (int)W, g);
  } else {
    o = tens2(o_at, 0, H, W, H + 3, 0);
    L.ntensors = 2;
    L.tensor[0] = a;
    L.tensor[1] = o;
    L.idx_size[0] = (W + 7u) / 8u;
    L.idx_size[1] = (H + 7u) / 8u;
    tg_transpose(va, (int)H, (int)W, g);
  }
  if (kind == K_GELU) L.tensor[0].pad = 0;
  for (unsigned s = 0; s < nsplits && rc == TF_PASS; s++) {
    /* the split lists are written for the largest chip: a TPC count above this chip's
     * (which the cluster refuses with BAD_LAUNCH) or one already run is left out */
    int seen = splits[s] > NTPC_ALL;
    for (unsigned p = 0; p < s; p++) seen |= splits[p] == splits[s];
    if (seen) {
      tf_log(t, "%s on %u TPCs: left out (the chip has %u TPCs or the count ran already)", k_names[kind], splits[s],
             (unsigned)NTPC_ALL);
      continue;
    }
    memset(got, 0xA5, 4 * n);
    for (uint32_t r = 0; r < o.size[1]; r++)  /* canary in the output */
      tsim_mem_write(t->sim, o.base + 4u * r * (uint32_t)o.stride[1], got, 4u * o.size[0]);
    int e = 0;
    tpc_res_t res;
    if (check_ports && (rc = ports_clear(t)) != TF_PASS) break;
    rc = run_vs_model(t, &L, splits[s], 0x7C00u + s, &e, &res);
    if (rc == TF_PASS && check_ports) rc = ports_used(t, splits[s]);
    if (rc == TF_PASS && e) rc = tf_fail(t, "%s: the model reports %s", k_names[kind], tpc_err_name(e));
    if (rc != TF_PASS) break;
    get_mat(t, &o, got);
    if (exact)
      for (size_t i = 0; i < n; i++)
        if (got[i] != g[i]) {
          rc = tf_fail(t, "%s on %u TPCs: element %zu = %08x, golden %08x", k_names[kind], splits[s], i, got[i], g[i]);
          break;
        }
    if (s == 0) memcpy(ref, got, 4 * n);
    else if (rc == TF_PASS && memcmp(ref, got, 4 * n)) rc = tf_fail(t, "%s: %u TPCs differ from %u", k_names[kind], splits[s], splits[0]);
    if (rc == TF_PASS)
      tf_log(t, "%s [%u x %u] on %u TPCs: %u bundles, %llu cycles commit to done", k_names[kind], H, W, splits[s], res.bundles,
             (unsigned long long)res.cycles);
  }
  free(va); free(vb); free(g); free(got); free(ref);
  return rc;
}

static const uint32_t k_all[] = {NTPC_ALL};
static const uint32_t k_splits[] = {NTPC_ALL, 1, 3};

/* The default smoke run: an elementwise add on every TPC of the chip. */
TF_TEST_F(tpc, add_smoke, 2000000, TF_SMOKE) { return kernel_case(t, K_ADD, 37 + tf_rand_below(t, 8), 6, k_all, 1, L2_PRIV_ALIGNED); }

/* Private L2 mode with an unaligned output (base off a line, row pitch not a multiple of
 * 16 FP32): TPCs on different DCOREs write different bytes of the same lines, each slice
 * writes back only its own bytes (docs/l2.md, byte-dirty mask). */
TF_TEST(tpc, add_unaligned_private, 2000000) {
  return kernel_case(t, K_ADD, 37 + tf_rand_below(t, 8), 6, k_all, 1, L2_PRIV_UNALIGNED);
}

/* Library kernels on every TPC and on 1 and 3 TPCs (uneven split; a chip of fewer TPCs
 * runs the counts it has, see kernel_case); last argument: the L2 mode (L2_SHARED: shared
 * mode with an unaligned output) */
TF_TEST(tpc, relu_split, 4000000) { return kernel_case(t, K_RELU, 41 + tf_rand_below(t, 16), 5, k_splits, 3, L2_PRIV_ALIGNED); }
TF_TEST(tpc, mul_all, 2000000) { return kernel_case(t, K_MUL, 17 + tf_rand_below(t, 16), 9, k_all, 1, L2_SHARED); }
TF_TEST(tpc, reduce_sum_all, 2000000) { return kernel_case(t, K_REDUCE_SUM, 60 + tf_rand_below(t, 20), 9, k_all, 1, L2_SHARED); }
TF_TEST(tpc, transpose_all, 3000000) { return kernel_case(t, K_TRANSPOSE, 17 + tf_rand_below(t, 8), 19, k_all, 1, L2_SHARED); }
/* The cluster's masters and the L2 ports: relu on all, 1, 3 and 2 TPCs (those the chip
 * has), each launch only on the ports of the masters its TPCs use (program load on port 1
 * of each used DCORE). */
static const uint32_t k_port_splits[] = {NTPC_ALL, 1, 3, 2};
TF_TEST(tpc, l2_ports, 4000000) {
  check_ports = 1;
  int rc = kernel_case(t, K_RELU, 33 + tf_rand_below(t, 16), 8, k_port_splits, 4, L2_PRIV_ALIGNED);
  check_ports = 0;
  return rc;
}
TF_TEST(tpc, gelu_all, 3000000) { return kernel_case(t, K_GELU, 24 + tf_rand_below(t, 16), 4, k_all, 1, L2_PRIV_ALIGNED); }

/* ------------------------------------------------------------------ bad input
 * Each case: chip == model (error code, failing TPC, PC, error mask, memory: nothing
 * written but what the model writes), message and interrupt; then a good launch. */
static int errors_setup(tf_ctx_t *t, tpc_launch_t *L, tpc_bundle_t **prog, uint32_t *nb, uint32_t W, uint32_t H) {
  CALL(assemble(t, "add", NULL, prog, nb));
  memset(L, 0, sizeof *L);
  L->prog_addr = PROG_AT;
  L->prog_len = *nb;
  L->ntensors = 3;
  for (int d = 0; d < TPC_NDIMS; d++) L->idx_size[d] = 1;
  L->idx_size[0] = (W + 7u) / 8u;
  L->idx_size[1] = H;
  uint32_t *v = malloc(4u * W * H);
  for (uint32_t k = 0; k < 3; k++) {
    /* the output's rows on whole L2 lines (private mode, row split) */
    L->tensor[k] = tens2(DATA_AT + 0x4000u * k, 0, W, H, k == 2 ? (W + 15u) & ~15u : W, 0);
    if (k < 2) put_rand(t, &L->tensor[k], v);
  }
  free(v);
  return write_prog(t, *prog, *nb, PROG_AT);
}

static int expect_err(tf_ctx_t *t, const tpc_launch_t *L, int want, const char *what) {
  int e = 0;
  CALL(run_vs_model(t, L, NTPC_ALL, 0xE000u + (uint32_t)want, &e, NULL));
  if (e != want) return tf_fail(t, "%s: the model reports %s, the case wants %s", what, tpc_err_name(e), tpc_err_name(want));
  tf_log(t, "%s: %s on chip and model", what, tpc_err_name(e));
  return TF_PASS;
}

/* Illegal instruction: one slot of an early bundle replaced by a random illegal
 * encoding (checked with the model's decoder). */
TF_TEST(tpc, error_illegal, 3000000) {
  tpc_launch_t L;
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  CALL(errors_setup(t, &L, &prog, &nb, 35, 4));
  uint32_t at = tf_rand_below(t, 3);
  int slot = (int)tf_rand_below(t, 4);
  uint64_t w;
  do {
    w = ((uint64_t)tf_rand32(t) << 32 | tf_rand32(t)) >> tf_rand_below(t, 40);
  } while (tpc_slot_legal(slot, w) == 0);
  tf_log(t, "bundle %u slot %d := 0x%016llx", at, slot, (unsigned long long)w);
  prog[at].w[slot] = w;
  int rc = write_prog(t, prog, nb, PROG_AT);
  free(prog);
  if (rc != TF_PASS) return rc;
  CALL(expect_err(t, &L, TPC_ERR_ILLEGAL, "illegal encoding"));
  /* the next launch of the good program works */
  CALL(errors_setup(t, &L, &prog, &nb, 35, 4));
  free(prog);
  return expect_err(t, &L, 0, "good launch after the error");
}

/* Out-of-range addresses: the output's (or an input's) last rows beyond the end of
 * device memory (only the TPCs owning them fail, with BUS); a program length that
 * lets the last bundle fall through (PC_RANGE); an index-space size 0 (BAD_LAUNCH,
 * refused by the cluster); then a good launch. */
TF_TEST(tpc, error_ranges, 6000000) {
  tpc_launch_t L;
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0, W = 16, H = 8;
  CALL(errors_setup(t, &L, &prog, &nb, W, H));
  free(prog);
  uint32_t k = tf_rand_below(t, 3), rows_in = 1 + tf_rand_below(t, H - 2);
  tpc_launch_t B = L;
  B.tensor[k].base = TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES - 4u * W * rows_in;
  if (k < 2) {  /* an input at the end: its rows inside memory get data */
    uint32_t *v = malloc(4u * W * rows_in);
    tpc_tensor_t in = tens2(B.tensor[k].base, 0, W, rows_in, W, 0);
    put_rand(t, &in, v);
    free(v);
  }
  tf_log(t, "tensor %u at 0x%08x: %u of %u rows inside device memory", k, B.tensor[k].base, rows_in, H);
  CALL(expect_err(t, &B, TPC_ERR_BUS, k == 2 ? "store beyond device memory" : "load beyond device memory"));
  B = L;
  B.prog_len = nb - 1;
  CALL(expect_err(t, &B, TPC_ERR_PC_RANGE, "fall-through past the program"));
  B = L;
  B.idx_size[1 + tf_rand_below(t, 4)] = 0;
  CALL(expect_err(t, &B, TPC_ERR_BAD_LAUNCH, "index-space size 0"));
  B = L;
  B.tensor[2].size[0] = 0;
  CALL(expect_err(t, &B, TPC_ERR_BAD_DESC, "descriptor with size 0"));
  return expect_err(t, &L, 0, "good launch after the errors");
}

/* Bundle limit (BUNDLE_LIMIT): every TPC that would retire more stops with TIMEOUT at
 * the next bundle's PC; status, PC, mask and memory as the model run with the same
 * max_bundles; then a good launch without the limit. */
TF_TEST(tpc, error_limit, 3000000) {
  tpc_launch_t L;
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  CALL(errors_setup(t, &L, &prog, &nb, 64 + 8 * tf_rand_below(t, 8), 8));
  free(prog);
  bundle_limit = 1 + tf_rand_below(t, 12);
  tf_log(t, "BUNDLE_LIMIT %u", bundle_limit);
  int rc = expect_err(t, &L, TPC_ERR_TIMEOUT, "bundle limit");
  bundle_limit = 0;
  if (rc != TF_PASS) return rc;
  return expect_err(t, &L, 0, "good launch after the limit");
}

/* ------------------------------------------------------------------ benchmarks
 * Elementwise add: cycles from the commit write to STATUS.done seen by the host
 * (polled every 8 cycles; L2 invalidated before, flushed after, neither counted).
 * Roofline: 3 tensors x element size bytes per element at the HBM bandwidth
 * (channels x bytes/cycle). FP32 kernels `add`/`add_stream` (8 elements per vector);
 * BF16 kernel `residual_add` (16 elements per vector, one FP32 add rounded once).
 * Results checked against the golden add (tg_add / tg_add_bf16). W elements per row. */
static int bench_one(tf_ctx_t *t, const char *kern, uint32_t W, uint32_t H, uint32_t ntpc, uint64_t *cycles, tpc_res_t *res) {
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  int bf16 = !strcmp(kern, "residual_add");
  uint32_t es = bf16 ? 2u : 4u;
  CALL(assemble(t, kern, NULL, &prog, &nb));
  int rc = write_prog(t, prog, nb, TESSERA_HBM_BASE + 0x10000u);
  free(prog);
  if (rc != TF_PASS) return rc;
  tpc_launch_t L;
  memset(&L, 0, sizeof L);
  L.prog_addr = TESSERA_HBM_BASE + 0x10000u;
  L.prog_len = nb;
  L.ntensors = 3;
  for (int d = 0; d < TPC_NDIMS; d++) L.idx_size[d] = 1;
  uint32_t bytes = es * W * H;
  for (uint32_t k = 0; k < 3; k++) L.tensor[k] = tens2(TESSERA_HBM_BASE + 0x100000u + k * bytes, bf16 ? 1u : 0u, W, H, W, 0);
  L.idx_size[0] = !strcmp(kern, "add_stream") ? 1u : W / (32u / es);
  L.idx_size[1] = H;
  size_t n = (size_t)W * H;
  uint32_t *va = malloc(4 * n), *vb = malloc(4 * n);
  uint8_t *got = malloc(es * n), *in = malloc(es * n);
  for (int k = 0; k < 2; k++) {
    uint32_t *v = k ? vb : va;
    for (size_t i = 0; i < n; i++) {
      v[i] = rnd_f32(t);
      if (bf16) v[i] = (v[i] >> 16) & 0xFFFFu;  /* any BF16 bit pattern of the FP32 mix */
      memcpy(in + es * i, &v[i], es);
    }
    tsim_mem_write(t->sim, L.tensor[k].base, in, es * n);
  }
  if (tsim_l2_invalidate_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 invalidate: %s", tsim_last_error(t->sim));
  tsim_axistats_clear(t->sim);
  if (rc == TF_PASS) rc = chip_launch(t, &L, ntpc, 0xBE00u + ntpc, res);
  if (rc == TF_PASS) {
    char lab[64];
    snprintf(lab, sizeof lab, "%s/%uKiB/%uTPC", kern, bytes >> 10, ntpc);
    tsim_axistats_print(t->sim, lab);
  }
  if (rc == TF_PASS && FIELD(res->status, STATUS__ERR)) rc = tf_fail(t, "error %u", (unsigned)FIELD(res->status, STATUS__ERR));
  if (rc == TF_PASS && tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 flush: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) {
    tsim_mem_read(t->sim, L.tensor[2].base, got, es * n);
    for (size_t i = 0; i < n; i++) {
      uint32_t g = 0, e = bf16 ? tg_add_bf16((uint16_t)va[i], (uint16_t)vb[i]) : tg_add(va[i], vb[i]);
      memcpy(&g, got + es * i, es);
      if (g != e) { rc = tf_fail(t, "element %zu: 0x%x, golden 0x%x", i, g, e); break; }
    }
  }
  if (rc == TF_PASS) {
    *cycles = res->cycles;
    double roof = 3.0 * bytes / ((double)TESSERA_HBM_CHANNELS * TESSERA_HBM_BYTES_PER_CYCLE);
    printf("TPCBENCH %s %s [%u x %u] %u KiB/tensor, TPCs %u: %llu cycles (PERF_BUSY %u), roofline %.0f, %.1f%% of roofline, %.2f B/cycle\n",
           kern, bf16 ? "BF16" : "FP32", H, W, bytes >> 10, ntpc, (unsigned long long)*cycles, res->busy, roof,
           100.0 * roof / (double)*cycles, 3.0 * bytes / (double)*cycles);
    printf("TPCBENCH   TPC cycles %u, bundles %u; stalled on loads %u, on stores %u, on the arbiter %u\n",
           res->tpc_busy, res->bundles, res->stall_ld, res->stall_st, res->stall_arb);
    char sub[32];
    snprintf(sub, sizeof sub, "%uKiB_%utpc", bytes >> 10, ntpc);
    tf_bench(t, sub, NULL, (double)*cycles, roof,
             "\"kernel\":\"%s\",\"type\":\"%s\",\"rows\":%u,\"cols\":%u,\"kib\":%u,\"tpcs\":%u,"
             "\"perf_busy\":%u,\"tpc_busy\":%u,\"bundles\":%u,\"stall_ld\":%u,\"stall_st\":%u,\"stall_arb\":%u",
             kern, bf16 ? "BF16" : "FP32", H, W, bytes >> 10, ntpc, res->busy, res->tpc_busy, res->bundles,
             res->stall_ld, res->stall_st, res->stall_arb);
  }
  free(va); free(vb); free(got); free(in);
  return rc;
}

static int bench_add(tf_ctx_t *t, const char *kern, uint32_t big_rows, uint64_t *big_cycles) {
  uint64_t c = 0, c1 = 0;
  tpc_res_t r;
  uint32_t W = strcmp(kern, "residual_add") ? 1024u : 2048u;  /* 4 KiB rows */
  for (uint32_t n = 1; n <= NTPC_ALL; n *= 2) {
    CALL(bench_one(t, kern, W, 16, n, &c, &r));
    if (n == 1) c1 = c;
    else printf("TPCBENCH %s scaling 1 -> %u TPCs: x%.2f (%.1f%% of linear)\n", kern, n, (double)c1 / (double)c,
                100.0 * (double)c1 / (double)c / n);
  }
  if (big_rows) CALL(bench_one(t, kern, W, big_rows, NTPC_ALL, &c, &r));
  if (big_cycles) *big_cycles = c;
  return TF_PASS;
}

TF_TEST_F(tpc, bench_add, 400000000, TF_BENCH) { return bench_add(t, "add", 256, NULL); }
TF_TEST_F(tpc, bench_add_stream, 400000000, TF_BENCH) { return bench_add(t, "add_stream", 256, NULL); }
TF_TEST_F(tpc, bench_add_bf16, 400000000, TF_BENCH) { return bench_add(t, "residual_add", 256, NULL); }
/* The 1 MiB adds with a streaming store hint (CACHE = rd_alloc only: the stores do not
 * allocate in the slices, the output is not read again), as a streaming kernel would be
 * launched: the 1/2/4/8-TPC sweep on 64 KiB, then 1 MiB on all TPCs and on one (scaling
 * on a tensor big enough that the launch and the last TPC's tail do not count). W:
 * elements per 4 KiB row. (CACHE = 0, reads not allocating either, took 1 541 101 cycles
 * for the FP32 add: the reads then bypass the slices' read-ahead.) */
static int bench_add_nalloc(tf_ctx_t *t, const char *kern, uint32_t W) {
  uint64_t c8 = 0, c1 = 0;
  tpc_res_t r;
  W32(TPC_REG(CACHE), TPC__CACHE__RD_ALLOC_bm);
  printf("TPCBENCH %s with CACHE = rd_alloc (stores do not allocate in the L2):\n", kern);
  CALL(bench_add(t, kern, 256, &c8));
  CALL(bench_one(t, kern, W, 256u, 1, &c1, &r));
  printf("TPCBENCH %s 1 MiB scaling 1 -> %u TPCs: x%.2f (%.1f%% of linear)\n", kern, (unsigned)NTPC_ALL,
         (double)c1 / (double)c8, 100.0 * (double)c1 / (double)c8 / NTPC_ALL);
  return TF_PASS;
}
TF_TEST_F(tpc, bench_add_nalloc, 400000000, TF_BENCH) { return bench_add_nalloc(t, "add", 1024u); }
/* the software-pipelined FP32 add (whole rows per TPC, pf.t three iterations ahead) */
TF_TEST_F(tpc, bench_add_stream_nalloc, 400000000, TF_BENCH) { return bench_add_nalloc(t, "add_stream", 1024u); }
/* BF16: `residual_add`, 16 elements per vector */
TF_TEST_F(tpc, bench_add_bf16_nalloc, 400000000, TF_BENCH) { return bench_add_nalloc(t, "residual_add", 2048u); }

/* Row kernels on the chip (softmax, LayerNorm; the plain and the VLM variants): [32][512]
 * FP32 rows on 1/2/4/8 TPCs (4 rows per TPC on all 8). Every launch: chip == ISA model on
 * the whole window, status and bundles (run_vs_model); the output within the kernel's
 * documented bound of the double-precision golden model (docs/tpc.md, kernel table:
 * softmax |err| <= 1e-6 (|ref| + 1e-30), LayerNorm |err| <= 2e-6 (|ref| + 1) plus the
 * row-mean conditioning term). CACHE = rd_alloc. Reported: cycles commit -> done, elements per cycle and
 * the scaling from 1 TPC: these kernels are compute-bound, so the scaling is the
 * cluster's own (the streaming add above is bound by the slices' memory masters). */
static uint32_t f32bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float bitsf32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static int bench_rows(tf_ctx_t *t, const char *kern) {
  const uint32_t W = 512, H = 32, n = W * H;
  const int ln = !strncmp(kern, "layernorm", 9);
  const float eps = 1e-5f;
  /* streamed output, as the adds above: stores do not allocate in the L2 (an allocating
   * 32-byte store that misses waits for its line's refill: softmax_vlm on 1 TPC then
   * stalled 39 328 cycles on stores, 38 % of its run) */
  W32(TPC_REG(CACHE), TPC__CACHE__RD_ALLOC_bm);
  tpc_launch_t L;
  int rc = TF_PASS;
  CALL(load_kernel(t, kern, &L));
  L.idx_size[1] = H;
  uint32_t x_at = DATA_AT, g_at = x_at + 4u * n, b_at = g_at + 4u * W, o_at = ln ? b_at + 4u * W : g_at;
  tpc_tensor_t x = tens2(x_at, 0, W, H, W, ln ? 0u : 0xFF800000u), o = tens2(o_at, 0, W, H, W, 0);
  L.tensor[0] = x;
  if (ln) {
    L.ntensors = 4;
    L.tensor[1] = tens2(g_at, 0, W, 1, W, 0);
    L.tensor[2] = tens2(b_at, 0, W, 1, W, 0);
    L.tensor[3] = o;
    L.sarg[0] = f32bits(eps);
  } else {
    L.ntensors = 2;
    L.tensor[1] = o;
  }
  uint32_t *vx = malloc(4 * n), *vo = malloc(4 * n), *vg = malloc(4 * W), *vb = malloc(4 * W);
  float *fx = malloc(4 * n), *fg = malloc(4 * W), *fb = malloc(4 * W);
  double *ref = malloc(8 * n);
  /* inputs as the kernel test draws them: an offset row mix, gamma in [0.5, 1), beta in
   * [-0.5, 0.5) */
  float off = (float)((int)tf_rand_below(t, 9) - 4), sc = ln ? 2.0f : 4.0f;
  for (uint32_t i = 0; i < n; i++) {
    fx[i] = off + sc * ((float)(tf_rand32(t) >> 8) / 8388608.0f - 1.0f);
    vx[i] = f32bits(fx[i]);
  }
  for (uint32_t i = 0; i < W; i++) {
    fg[i] = 0.5f + (float)(tf_rand32(t) >> 8) / 16777216.0f;
    fb[i] = (float)(tf_rand32(t) >> 8) / 16777216.0f - 0.5f;
    vg[i] = f32bits(fg[i]);
    vb[i] = f32bits(fb[i]);
  }
  TF_CHECK_OK(t, tsim_mem_write(t->sim, x_at, vx, 4 * n));
  if (ln) {
    TF_CHECK_OK(t, tsim_mem_write(t->sim, g_at, vg, 4 * W));
    TF_CHECK_OK(t, tsim_mem_write(t->sim, b_at, vb, 4 * W));
    tg_layernorm(fx, fg, fb, eps, (int)H, (int)W, ref);
  } else {
    tg_softmax(fx, (int)H, (int)W, ref);
  }
  uint64_t c1 = 0;
  for (uint32_t k = 1; k <= NTPC_ALL && rc == TF_PASS; k *= 2) {
    memset(vo, 0xA5, 4 * n);  /* canary in the output */
    TF_CHECK_OK(t, tsim_mem_write(t->sim, o_at, vo, 4 * n));
    int e = 0;
    tpc_res_t res;
    tsim_axistats_clear(t->sim);
    rc = run_vs_model(t, &L, k, 0x5A00u + k, &e, &res);
    {
      char lab[48];
      snprintf(lab, sizeof lab, "%s/%uTPC", kern, k);
      tsim_axistats_print(t->sim, lab);
    }
    if (rc == TF_PASS && e) rc = tf_fail(t, "%s: the model reports %s", kern, tpc_err_name(e));
    if (rc != TF_PASS) break;
    TF_CHECK_OK(t, tsim_mem_read(t->sim, o_at, vo, 4 * n));
    double worst = 0.0, raw = 0.0;
    for (uint32_t i = 0; i < n; i++) {
      double d = fabs((double)bitsf32(vo[i]) - ref[i]);
      double d0 = d / (fabs(ref[i]) + (ln ? 1.0 : 1e-30));
      if (!(d0 <= raw)) raw = d0;
      if (ln) {  /* the FP32 row mean's own rounding, amplified (docs/tpc.md) */
        uint32_t r = i / W, c = i % W;
        double m = 0.0, v = 0.0;
        for (uint32_t j = 0; j < W; j++) m += fx[r * W + j];
        m /= W;
        for (uint32_t j = 0; j < W; j++) v += (fx[r * W + j] - m) * (fx[r * W + j] - m);
        v /= W;
        d -= 4.0 * ldexp(1.0, -24) * fabs(m) * fg[c] / sqrt(v + eps);
      }
      double rel = d > 0.0 ? d / (fabs(ref[i]) + (ln ? 1.0 : 1e-30)) : 0.0;
      if (!(rel <= worst)) worst = rel;  /* NaN: worst = NaN, fails below */
    }
    const double bound = ln ? 2e-6 : 1e-6;
    if (!(worst <= bound)) {
      rc = tf_fail(t, "%s on %u TPCs: worst error %.3g over the bound %.1g", kern, k, worst, bound);
      break;
    }
    if (k == 1) c1 = res.cycles;
    printf("TPCBENCH %s FP32 [%u x %u] TPCs %u: %llu cycles, %.2f elements/cycle, worst error %.2g", kern, H, W, k,
           (unsigned long long)res.cycles, (double)n / (double)res.cycles, raw);
    if (ln) printf(" (%.2g beyond the mean's allowance)", worst);
    printf(" (bound %.0g)", bound);
    if (k > 1) printf(", scaling x%.2f (%.1f%% of linear)", (double)c1 / (double)res.cycles,
                      100.0 * (double)c1 / (double)res.cycles / k);
    printf("\nTPCBENCH   TPC cycles %u, bundles %u; stalled on loads %u, on stores %u, on the arbiter %u\n",
           res.tpc_busy, res.bundles, res.stall_ld, res.stall_st, res.stall_arb);
    char sub[16];
    snprintf(sub, sizeof sub, "%utpc", k);
    tf_bench(t, sub, NULL, (double)res.cycles, 0,
             "\"kernel\":\"%s\",\"type\":\"FP32\",\"rows\":%u,\"cols\":%u,\"tpcs\":%u,\"tpc_busy\":%u,"
             "\"bundles\":%u,\"stall_ld\":%u,\"stall_st\":%u,\"stall_arb\":%u",
             kern, H, W, k, res.tpc_busy, res.bundles, res.stall_ld, res.stall_st, res.stall_arb);
  }
  free(vx); free(vo); free(vg); free(vb); free(fx); free(fg); free(fb); free(ref);
  return rc;
}
TF_TEST_F(tpc, bench_softmax, 200000000, TF_BENCH) { return bench_rows(t, "softmax"); }
TF_TEST_F(tpc, bench_softmax_vlm, 200000000, TF_BENCH) { return bench_rows(t, "softmax_vlm"); }
TF_TEST_F(tpc, bench_layernorm, 200000000, TF_BENCH) { return bench_rows(t, "layernorm"); }
TF_TEST_F(tpc, bench_layernorm_vlm, 200000000, TF_BENCH) { return bench_rows(t, "layernorm_vlm"); }

/* One TPC, 64 KiB FP32 add, stores not allocating: the per-TPC rate alone (a quick probe
 * for the core and tensor-unit timing; the sweep above takes minutes). */
TF_TEST_F(tpc, bench_add_nalloc_1tpc, 50000000, TF_BENCH) {
  uint64_t c = 0;
  tpc_res_t r;
  W32(TPC_REG(CACHE), TPC__CACHE__RD_ALLOC_bm);
  return bench_one(t, "add", 1024u, 16u, 1, &c, &r);
}

/* Launch gap through the TPC queue manager: one command buffer configures a launch of
 * a one-bundle kernel (`halt`) on every TPC and commits it K times, each commit with
 * the engine-idle barrier (keep_prog after the first). The period is the difference
 * of the run times for K = 1 + N and K = 1 divided by N; the idle time of a TPC between
 * two launches is the period minus the cycles each TPC runs (PERF_TPC_BUSY / NTPC). */
static int qm_run_commits(tf_ctx_t *t, uint32_t prog, uint32_t K, uint64_t *cycles) {
  static uint32_t words[1024];
  cp_buf_t b;
  cp_buf_init(&b, words, 1024);
  uint32_t cfg[5] = {prog, 1, 0, NTPC_ALL, 0};
  uint32_t idx[5] = {NTPC_ALL, 1, 1, 1, 1};
  cp_wreg_bulk(&b, 0, TPC_OFF(PROG_ADDR), 5, cfg);
  cp_wreg_bulk(&b, 0, TPC_OFF(IDX_SIZE0), 5, idx);
  cp_wreg32(&b, 0, TPC_OFF(MSG_CTRL), 0);
  for (uint32_t k = 0; k < K; k++)
    cp_wreg32(&b, CP_HDR_EB, TPC_OFF(CTRL), TPC__CTRL__COMMIT_bm | (k ? TPC__CTRL__KEEP_PROG_bm : 0u));
  cp_stop(&b, CP_HDR_EB);
  uint32_t cb = TESSERA_HBM_BASE + 0x20000u, flag = TESSERA_HBM_BASE + 0x1F000u;
  TF_CHECK_OK(t, tsim_mem_write(t->sim, cb, b.w, 4u * b.n));
  TF_CHECK_OK(t, tsim_mem_write32(t->sim, flag, 0));
  W32(QM(SOB_SET_BASE), SM(SOB_SET));
  W32(QM(SOB_ADD_BASE), SM(SOB_ADD));
  W32(QM(CB_BASE), cb);
  W32(QM(CB_SIZE), 4u * b.n);
  W32(QM(COMP_ADDR), flag);
  W32(QM(COMP_DATA), 0x600Du + K);
  W32(QM(CFG), QMAN__CFG__COMP_EN_bm);
  uint64_t t0 = tsim_cycles(t->sim);
  W32(QM(CTRL), QMAN__CTRL__START_bm);
  uint64_t end = t0 + 2000000u;
  while (tsim_mem_read32(t->sim, flag) != 0x600Du + K) {
    if (tsim_cycles(t->sim) > end) {
      uint32_t st = 0, pc = 0;
      tsim_host_read32(t->sim, QM(STATUS), &st);
      tsim_host_read32(t->sim, QM(PC), &pc);
      return tf_fail(t, "TPC queue did not complete %u commits: STATUS 0x%x PC 0x%08x", K, st, pc);
    }
    TF_CHECK_OK(t, tsim_step(t->sim, 1));
  }
  *cycles = tsim_cycles(t->sim) - t0;
  return TF_PASS;
}

TF_TEST_F(tpc, bench_launch_gap, 20000000, TF_BENCH) {
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  CALL(assemble(t, "halt.tasm", "halt\n", &prog, &nb));
  uint32_t pa = TESSERA_HBM_BASE + 0x18000u;
  int rc = write_prog(t, prog, nb, pa);
  free(prog);
  if (rc != TF_PASS) return rc;
  const uint32_t N = 16;
  uint64_t c1 = 0, cn = 0;
  CALL(qm_run_commits(t, pa, 1, &c1));
  CALL(qm_run_commits(t, pa, 1 + N, &cn));
  uint32_t st = 0, busy = 0, tbusy = 0, bund = 0;
  R32(TPC_REG(STATUS), &st);
  R32(TPC_REG(PERF_BUSY), &busy);
  R32(TPC_REG(PERF_TPC_BUSY), &tbusy);
  R32(TPC_REG(PERF_BUNDLES), &bund);
  if (FIELD(st, STATUS__ERR) || bund != NTPC_ALL) return tf_fail(t, "launch: STATUS 0x%08x, %u bundles", st, bund);
  double period = (double)(cn - c1) / N, run = (double)tbusy / NTPC_ALL;
  printf("TPCBENCH launch gap (queue manager, engine-idle barrier, keep_prog, %u TPCs): period %.1f cycles per launch, "
         "launch busy (PERF_BUSY) %u, each TPC runs %.1f, TPC idle between launches %.1f cycles (target <= 16)\n",
         NTPC_ALL, period, busy, run, period - run);
  tf_bench(t, NULL, "cycles/launch", period, 0,
           "\"tpcs\":%u,\"perf_busy\":%u,\"tpc_run\":%.6g,\"idle\":%.6g,\"target_idle\":16", NTPC_ALL, busy,
           run, period - run);
  return TF_PASS;
}
