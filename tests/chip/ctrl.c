/* Suite `ctrl`: the control path inside the chip (docs/control_path.md).
 *
 * Command buffers are written into device memory through the back door and run by
 * the chip's queue managers after a doorbell through the host port (system bus ->
 * APB). Every queue is also run through the C golden model (tests/golden/cp_model):
 * the final status, PC, packet count and every effect of the buffer (engine
 * registers, messages into memory / registers / sync objects, fence releases by
 * Sync-Manager monitor payloads) must match. DMA copies are checked byte for byte
 * against the DMA golden model (tests/dma/dma_model), GEMM results against the MME
 * golden model (tests/mme/mme_golden). Block-level coverage (every error code, fuzz)
 * is in tests/qman, tests/syncmgr, tests/dma. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chip_l2.h"
#include "cp_model.h"
#include "dma_model.h"
#include "mme_golden.h"
#include "numfmt.h"
#include "regs/dma_regs.h"
#include "regs/intc_regs.h"
#include "regs/l2_regs.h"
#include "regs/mme_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "regs/sysctrl_regs.h"
#include "regs/tpc_regs.h"
#include "golden/tpc_golden.h"
#include "tessera_cfg.h"
#include "tf.h"
#include "tpc_model.h"
#include "tpcasm_lib.h"

/* ------------------------------------------------------------------ addresses */
#define QSLOT_MME(i) (TESSERA_QMAN_SLOT_MME + (i))
#define QSLOT_TPC TESSERA_QMAN_SLOT_TPC
#define QSLOT_DMA(d) (TESSERA_QMAN_SLOT_DMA + (d))
#define QM(slot, r) (TESSERA_QMAN_ADDR(slot) + (uint32_t)offsetof(qman_t, r))
#define QM_FENCE(slot, n) (TESSERA_QMAN_ADDR(slot) + (uint32_t)offsetof(qman_t, FENCE) + 4u * (n))
#define SM(r) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, r))
#define SM_SOB_SET SM(SOB_SET)
#define SM_SOB_ADD SM(SOB_ADD)
#define SOB_SET(i) (SM_SOB_SET + 4u * (i))
#define SOB_ADD(i) (SM_SOB_ADD + 4u * (i))
#define MON_WORD(m, w) (SM(MON) + 64u * (m) + 4u * (w))
#define MME_OFF(r) ((uint32_t)offsetof(mme_t, r))
#define MME_REG(e, r) (TESSERA_MME_ADDR(e) + MME_OFF(r))
#define DMA_REG(d, r) (TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, r))
#define INTC(r) (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, r))
#define SCRATCH(i) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, SCRATCH0) + 4u * (i))
#define FIELD(v, f) (((v) & f##_bm) >> f##_bp)
#define IRQ_SRC_QMAN 11u

#define HBM(off) (TESSERA_HBM_BASE + (uint32_t)(off))
#define CB_AREA(slot) HBM(0x10000u + 0x2000u * (slot))  /* 8 KiB of command buffer per queue */

#define W32(a, v) TF_CHECK_OK(t, tsim_host_write32(t->sim, (a), (v)))
#define R32(a, p) TF_CHECK_OK(t, tsim_host_read32(t->sim, (a), (p)))
#define CALL(x)                     \
  do {                              \
    int rc_ = (x);                  \
    if (rc_ != TF_PASS) return rc_; \
  } while (0)

/* ------------------------------------------------------------------ golden chip model
 * The queues of one test, the Sync Manager and the expected message writes that do
 * not land in the Sync Manager or a fence counter (memory, registers). */
#define MAXQ 16
#define MAXW 256
typedef struct {
  cp_sm_t sm;
  cp_queue_t q[MAXQ];
  cp_qcfg_t c[MAXQ];
  int used[MAXQ];
  struct { uint32_t a, d; } wr[MAXW];   /* other message writes, in order */
  unsigned nwr;
  struct { uint32_t off, val; } reg[MAXQ][64];  /* engine register writes per queue */
  unsigned nreg[MAXQ];
  uint32_t pkts0[MAXQ];   /* CNT_PKTS at the doorbell (the counter is cumulative) */
  tsim_t *sim;
} gm_t;

static gm_t g_gm;

static void gm_route(gm_t *g, uint32_t a, uint32_t d);
static void gm_payload(void *ctx, uint32_t a, uint32_t d, uint32_t mon) {
  (void)mon;
  gm_route(ctx, a, d);
}
static void gm_route(gm_t *g, uint32_t a, uint32_t d) {
  if (a >= TESSERA_SYNCMGR_BASE && a < TESSERA_SYNCMGR_BASE + TESSERA_SYNCMGR_STRIDE) {
    cp_sm_write(&g->sm, a - TESSERA_SYNCMGR_BASE, d, gm_payload, g);
    return;
  }
  for (unsigned s = 0; s < MAXQ; s++) {
    uint32_t f0 = QM_FENCE(s, 0);
    if (g->used[s] && a >= f0 && a < f0 + 4u * CP_FENCES) {
      cp_q_fence_add(&g->q[s], (a - f0) / 4u, d);
      return;
    }
  }
  if (g->nwr < MAXW) g->wr[g->nwr].a = a, g->wr[g->nwr].d = d, g->nwr++;
}

static int gm_read(void *ctx, uint32_t a, uint32_t *v) {
  gm_t *g = ctx;
  if (!tsim_mem_is_backed(a, 4)) return 1;
  *v = tsim_mem_read32(g->sim, a);
  return 0;
}

static unsigned g_evq;  /* queue whose events gm_event receives */
static void gm_event(void *ctx, const cp_event_t *ev) {
  gm_t *g = ctx;
  if (ev->kind == CP_EV_MSG) {
    gm_route(g, ev->a, ev->b);
  } else if (g->nreg[g_evq] < 64) {
    g->reg[g_evq][g->nreg[g_evq]].off = ev->a;
    g->reg[g_evq][g->nreg[g_evq]].val = ev->b;
    g->nreg[g_evq]++;
  }
}

static void gm_init(gm_t *g, tsim_t *s) {
  memset(g, 0, sizeof *g);
  g->sim = s;
  cp_sm_init(&g->sm, TESSERA_SYNC_OBJECTS, TESSERA_SYNC_MONITORS);
}

/* Run queue `slot` of the model as far as it goes (until done, error or a fence). */
static int gm_run_apb_err(gm_t *g, unsigned slot, long apb_err_at) {
  g_evq = slot;
  return cp_q_run(&g->q[slot], &g->c[slot], gm_read, g, gm_event, g, apb_err_at);
}
static int gm_run(gm_t *g, unsigned slot) { return gm_run_apb_err(g, slot, -1); }

/* ------------------------------------------------------------------ chip helpers */
/* Boot-time queue setup (what firmware does): Sync-Manager windows, DMA mode. */
static int q_init(tf_ctx_t *t, unsigned slot, int dma) {
  W32(QM(slot, SOB_SET_BASE), SM_SOB_SET);
  W32(QM(slot, SOB_ADD_BASE), SM_SOB_ADD);
  W32(QM(slot, LDMA_OFF), 0);
  W32(QM(slot, CFG), dma ? QMAN__CFG__DMA_bm : 0);
  gm_t *g = &g_gm;
  g->used[slot] = 1;
  cp_q_reset(&g->q[slot]);
  cp_qcfg_t *c = &g->c[slot];
  memset(c, 0, sizeof *c);
  c->mem_base = TESSERA_HBM_BASE;
  c->mem_size = TESSERA_HBM_SIZE;
  c->win_limit = 0x10000u;
  c->sob_set_base = SM_SOB_SET;
  c->sob_add_base = SM_SOB_ADD;
  c->num_sobs = TESSERA_SYNC_OBJECTS;
  c->dma = dma;
  c->ldma_off = 0;
  return TF_PASS;
}

/* Write buffer b at `base`, program it (completion message if comp_addr != 0) and
 * ring the doorbell; the model queue gets the same buffer and starts too. */
static int q_submit(tf_ctx_t *t, unsigned slot, uint32_t base, const cp_buf_t *b, uint32_t comp_addr,
                    uint32_t comp_data) {
  gm_t *g = &g_gm;
  cp_qcfg_t *c = &g->c[slot];
  if (b && b->n) TF_CHECK_OK(t, tsim_mem_write(t->sim, base, b->w, 4u * b->n));
  c->cb_base = base;
  c->cb_size = b ? 4u * b->n : 0;
  c->comp_en = comp_addr != 0;
  c->comp_addr = comp_addr;
  c->comp_data = comp_data;
  W32(QM(slot, CB_BASE), c->cb_base);
  W32(QM(slot, CB_SIZE), c->cb_size);
  W32(QM(slot, COMP_ADDR), comp_addr);
  W32(QM(slot, COMP_DATA), comp_data);
  W32(QM(slot, CFG), (c->dma ? QMAN__CFG__DMA_bm : 0) | (c->comp_en ? QMAN__CFG__COMP_EN_bm : 0));
  R32(QM(slot, CNT_PKTS), &g->pkts0[slot]);
  W32(QM(slot, CTRL), QMAN__CTRL__START_bm);
  cp_q_start(&g->q[slot], c);
  return TF_PASS;
}

static int q_idle_pred(tsim_t *s, void *ctx) {
  uint32_t st = 0;
  if (tsim_host_read32(s, QM(*(unsigned *)ctx, STATUS), &st) != TSIM_OK) return 1;
  return !(st & QMAN__STATUS__BUSY_bm);
}
static int q_wait_idle(tf_ctx_t *t, unsigned slot, uint64_t budget) {
  unsigned s = slot;
  int rc = tsim_run_until(t->sim, q_idle_pred, &s, budget, 16);
  if (rc != TSIM_OK) {
    uint32_t st = 0, pc = 0;
    tsim_host_read32(t->sim, QM(slot, STATUS), &st);
    tsim_host_read32(t->sim, QM(slot, PC), &pc);
    return tf_fail(t, "queue slot %u did not finish: STATUS 0x%x PC 0x%08x (%s)", slot, st, pc,
                   tsim_last_error(t->sim));
  }
  return TF_PASS;
}

typedef struct {
  unsigned slot;
  uint32_t pc;
} at_pc_t;
static int q_at_pc_pred(tsim_t *s, void *ctx) {
  at_pc_t *a = ctx;
  uint32_t pc = 0, st = 0;
  if (tsim_host_read32(s, QM(a->slot, PC), &pc) != TSIM_OK) return 1;
  if (tsim_host_read32(s, QM(a->slot, STATUS), &st) != TSIM_OK) return 1;
  return pc == a->pc || !(st & QMAN__STATUS__BUSY_bm);
}

/* A queue that stopped on an error may leave its engine running the last transfer it
 * started (a LIN_DMA's EB waits for the engine before the packet, not after it; the
 * queue does not wait for the engine when it stops): wait for DMA engine d itself. */
static int dma_idle_pred(tsim_t *s, void *ctx) {
  uint32_t st = 0;
  if (tsim_host_read32(s, DMA_REG(*(unsigned *)ctx, STATUS), &st) != TSIM_OK) return 1;
  return !(st & DMA__STATUS__BUSY_bm);
}
static int dma_wait_idle(tf_ctx_t *t, unsigned d, uint64_t budget) {
  unsigned e = d;
  if (tsim_run_until(t->sim, dma_idle_pred, &e, budget, 16) != TSIM_OK)
    return tf_fail(t, "DMA engine %u still busy (%s)", d, tsim_last_error(t->sim));
  return TF_PASS;
}

/* The queue's final state must equal the model's (done/error, code, PC, packets). */
static int q_check(tf_ctx_t *t, unsigned slot) {
  const cp_queue_t *q = &g_gm.q[slot];
  uint32_t st = 0, pc = 0, pkts = 0;
  R32(QM(slot, STATUS), &st);
  R32(QM(slot, PC), &pc);
  R32(QM(slot, CNT_PKTS), &pkts);
  int done = (st & QMAN__STATUS__DONE_bm) != 0;
  uint32_t err = FIELD(st, QMAN__STATUS__ERR);
  if (st & QMAN__STATUS__BUSY_bm) return tf_fail(t, "slot %u still busy (STATUS 0x%x)", slot, st);
  if (done != (q->state == CP_Q_DONE) || err != q->err)
    return tf_fail(t, "slot %u: done %d err %u (%s), model: state %d err %u (%s)", slot, done, err,
                   cp_err_name(err), q->state, q->err, cp_err_name(q->err));
  if (q->state == CP_Q_ERROR && pc != q->pc)
    return tf_fail(t, "slot %u: error PC 0x%08x, model 0x%08x", slot, pc, q->pc);
  if (q->state == CP_Q_DONE && pkts - g_gm.pkts0[slot] != q->pkts)
    return tf_fail(t, "slot %u: %u packets executed, model %u", slot, pkts - g_gm.pkts0[slot], q->pkts);
  return TF_PASS;
}

/* Every expected message write into device memory / a register landed (last value
 * per address), and the Sync Manager's objects equal the model's. */
static int gm_check_effects(tf_ctx_t *t, const uint32_t *sobs, unsigned nsobs) {
  gm_t *g = &g_gm;
  for (unsigned i = 0; i < g->nwr; i++) {
    int last = 1;
    for (unsigned j = i + 1; j < g->nwr; j++) last &= g->wr[j].a != g->wr[i].a;
    if (!last) continue;
    uint32_t v = 0, a = g->wr[i].a;
    if (tsim_mem_is_backed(a, 4)) v = tsim_mem_read32(t->sim, a);
    else R32(a, &v);
    if (v != g->wr[i].d) return tf_fail(t, "message write to 0x%08x: 0x%x, model 0x%x", a, v, g->wr[i].d);
  }
  for (unsigned i = 0; i < nsobs; i++) {
    uint32_t v = 0;
    R32(SOB_SET(sobs[i]), &v);
    if (v != g->sm.sob[sobs[i]]) return tf_fail(t, "SOB %u = 0x%x, model 0x%x", sobs[i], v, g->sm.sob[sobs[i]]);
  }
  return TF_PASS;
}

/* Arm monitor m (chip and model): all objects of `mask` in `group` >= target, one
 * payload (addr, data). */
static int mon_arm(tf_ctx_t *t, unsigned m, unsigned group, unsigned mask, unsigned target, uint32_t addr,
                   uint32_t data) {
  gm_t *g = &g_gm;
  uint32_t arm = cp_arm_word(group, mask, target, 0, 1);
  W32(MON_WORD(m, 0), addr);
  W32(MON_WORD(m, 1), data);
  W32(MON_WORD(m, CP_MON_ARM_WORD), arm);
  uint32_t base = (uint32_t)offsetof(syncmgr_t, MON) + 64u * m;
  cp_sm_write(&g->sm, base, addr, gm_payload, g);
  cp_sm_write(&g->sm, base + 4u, data, gm_payload, g);
  cp_sm_write(&g->sm, base + 4u * CP_MON_ARM_WORD, arm, gm_payload, g);
  return TF_PASS;
}

/* Host write to a sync object (chip and model). */
static int sob_write(tf_ctx_t *t, uint32_t addr, uint32_t v) {
  W32(addr, v);
  gm_route(&g_gm, addr, v);
  return TF_PASS;
}

/* ------------------------------------------------------------------ DMA golden image */
static uint8_t *g_img;        /* image of [g_img_base, g_img_base + g_img_len) */
static uint32_t g_img_base, g_img_len;
static uint8_t *g_himg;       /* host-memory image (himg_open), used outside g_img */
static uint32_t g_himg_base, g_himg_len;
static uint8_t *img_at(uint32_t a) {
  return a - g_img_base < g_img_len ? &g_img[a - g_img_base] : &g_himg[a - g_himg_base];
}
static uint8_t img_rd(uint32_t a) { return *img_at(a); }
static void img_wr(uint32_t a, uint8_t v) { *img_at(a) = v; }

/* Fill *img with random bytes and write them to the chip's memory at base. */
static int image_new(tf_ctx_t *t, uint8_t **img, uint32_t base, uint32_t len) {
  *img = malloc(len);
  for (uint32_t i = 0; i < len; i += 4) {
    uint32_t r = tf_rand32(t);
    memcpy(*img + i, &r, 4);
  }
  TF_CHECK_OK(t, tsim_mem_write(t->sim, base, *img, len));
  return TF_PASS;
}
/* Compare the chip's memory at base with *img, then free it. */
static int image_check(tf_ctx_t *t, uint8_t **img, uint32_t base, uint32_t len, const char *what) {
  uint8_t *got = malloc(len);
  tsim_mem_read(t->sim, base, got, len);
  uint32_t bad = 0, first = 0;
  for (uint32_t i = 0; i < len; i++)
    if (got[i] != (*img)[i] && bad++ == 0) first = i;
  free(got);
  free(*img);
  *img = NULL;
  if (bad) return tf_fail(t, "%s: %u bytes differ from the DMA golden model (first at 0x%08x)", what, bad,
                          base + first);
  return TF_PASS;
}
static int img_open(tf_ctx_t *t, uint32_t base, uint32_t len) {
  g_img_base = base;
  g_img_len = len;
  CALL(image_new(t, &g_img, base, len));
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));  /* written behind the L2 */
  return TF_PASS;
}
/* Compare the chip's memory with the image. */
static int img_check(tf_ctx_t *t, const char *what) {
  TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));  /* results may still be in the L2 (docs/l2.md) */
  return image_check(t, &g_img, g_img_base, g_img_len, what);
}
/* A second image, of host memory (the simulator's host-memory model, HOST window). */
static int himg_open(tf_ctx_t *t, uint32_t base, uint32_t len) {
  g_himg_base = base;
  g_himg_len = len;
  return image_new(t, &g_himg, base, len);
}
/* Host memory is written through the host port, never through an L2 slice. */
static int himg_check(tf_ctx_t *t, const char *what) {
  return image_check(t, &g_himg, g_himg_base, g_himg_len, what);
}
static void img_copy(uint32_t src, uint32_t dst, uint32_t size) {
  dma_desc_t d;
  memset(&d, 0, sizeof d);
  d.src = src;
  d.dst = dst;
  d.size = size;
  d.mode = DMA_MODE_LINEAR;
  d.c1 = d.c2 = 1;
  dma_model_run(&d, img_rd, img_wr);
}

/* ------------------------------------------------------------------ GEMM job (MME) */
typedef struct {
  mme_gold_job g;
  uint32_t lda, ldb, ldc, a, b, c;
  uint8_t *cexp;
  size_t csz;
} gemm_t;

static uint32_t rnd32(uint32_t x) { return (x + 31u) & ~31u; }

/* BF16 x BF16 -> FP32 GEMM at `base` with operands in device memory; golden C kept. */
static void gemm_prepare(tf_ctx_t *t, gemm_t *j, uint32_t base, uint32_t m, uint32_t n, uint32_t k) {
  memset(j, 0, sizeof *j);
  j->g.m = m, j->g.n = n, j->g.k = k;
  j->g.ta = NF_BF16, j->g.tb = NF_BF16, j->g.tc = NF_FP32;
  j->lda = rnd32(2u * k), j->ldb = rnd32(2u * n), j->ldc = rnd32(4u * n);
  size_t asz = (size_t)m * j->lda, bsz = (size_t)k * j->ldb;
  j->csz = (size_t)m * j->ldc;
  uint8_t *a = calloc(1, asz), *b = calloc(1, bsz), *c = calloc(1, j->csz);
  j->cexp = calloc(1, j->csz);
  for (uint32_t i = 0; i < m * k; i++) {
    uint32_t x = (tf_rand32(t) & 0x80000000u) | ((120u + tf_rand_below(t, 14)) << 23) | (tf_rand32(t) & 0x7FFFFFu);
    mme_st(a + (size_t)(i / k) * j->lda + (i % k) * 2u, 2, nf_convert(NF_FP32, NF_BF16, x, 0, 1));
  }
  for (uint32_t i = 0; i < k * n; i++) {
    uint32_t x = (tf_rand32(t) & 0x80000000u) | ((120u + tf_rand_below(t, 14)) << 23) | (tf_rand32(t) & 0x7FFFFFu);
    mme_st(b + (size_t)(i / n) * j->ldb + (i % n) * 2u, 2, nf_convert(NF_FP32, NF_BF16, x, 0, 1));
  }
  for (size_t i = 0; i < j->csz; i++) c[i] = (uint8_t)(0xA5 ^ i);
  memcpy(j->cexp, c, j->csz);
  mme_golden(&j->g, a, j->lda, b, j->ldb, c, j->cexp, j->ldc, NULL);
  j->a = base;
  j->b = j->a + rnd32((uint32_t)asz) + 256u;
  j->c = j->b + rnd32((uint32_t)bsz) + 256u;
  tsim_mem_write(t->sim, j->a, a, asz);
  tsim_mem_write(t->sim, j->b, b, bsz);
  tsim_mem_write(t->sim, j->c, c, j->csz);
  /* written behind the L2: drop stale lines (a failure shows up in gemm_check) */
  if (tsim_l2_invalidate_all(t->sim) != TSIM_OK) tf_log(t, "L2 invalidate: %s", tsim_last_error(t->sim));
  free(a);
  free(b);
  free(c);
}

/* Packets programming rows [m0, m0 + rows) of job j, completion message (msg_addr,
 * msg_data), then COMMIT. `flags` go on the first packet (e.g. an engine barrier). */
static void gemm_packets(cp_buf_t *b, uint32_t flags, const gemm_t *j, uint32_t m0, uint32_t rows,
                         uint32_t msg_addr, uint32_t msg_data) {
  uint32_t v[] = {j->a + m0 * j->lda, j->b, j->c + m0 * j->ldc, 0, rows, j->g.n, j->g.k, j->lda, j->ldb,
                  j->ldc,
                  ((uint32_t)j->g.ta << MME__DTYPE__A_TYPE_bp) | ((uint32_t)j->g.tb << MME__DTYPE__B_TYPE_bp) |
                      ((uint32_t)j->g.tc << MME__DTYPE__C_TYPE_bp),
                  0, msg_addr, msg_data, msg_addr ? 1u : 0u};
  cp_wreg_bulk(b, flags, MME_OFF(A_ADDR), sizeof v / sizeof v[0], v);
  cp_wreg32(b, 0, MME_OFF(CTRL), MME__CTRL__COMMIT_bm);
}

static int gemm_check(tf_ctx_t *t, const gemm_t *j, uint32_t at, const char *what) {
  TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
  uint8_t *got = malloc(j->csz);
  tsim_mem_read(t->sim, at, got, j->csz);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < j->csz; i++)
    if (got[i] != j->cexp[i] && bad++ == 0) first = i;
  free(got);
  if (bad)
    return tf_fail(t, "%s: %zu bytes differ from the MME golden model (first at row %zu byte %zu)", what, bad,
                   first / j->ldc, first % j->ldc);
  return TF_PASS;
}

/* Every DMA queue finished like the model, its engine without error or rejected go, and
 * the messages and objects (sobs[d] of DMA queue d) as the model has them. */
static int dma_queues_done(tf_ctx_t *t, const uint32_t *sobs) {
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; d++) {
    CALL(q_wait_idle(t, QSLOT_DMA(d), 1000000));
    CALL(q_check(t, QSLOT_DMA(d)));
    uint32_t st = 0;
    R32(DMA_REG(d, STATUS), &st);
    TF_CHECK_EQ(t, FIELD(st, DMA__STATUS__ERR), 0);
    TF_CHECK_EQ(t, FIELD(st, DMA__STATUS__BUSY_REJECT), 0);
  }
  return gm_check_effects(t, sobs, TESSERA_DMA_ENGINES);
}

/* Queue `slot` gets buffer b (written to its CB area) with a completion message that sets
 * the word at `flag` to 1 (cleared now); the doorbell is left to the caller. */
static int q_program_flag(tf_ctx_t *t, unsigned slot, const cp_buf_t *b, uint32_t flag) {
  TF_CHECK_OK(t, tsim_mem_write(t->sim, CB_AREA(slot), b->w, 4u * b->n));
  TF_CHECK_OK(t, tsim_mem_write32(t->sim, flag, 0));
  W32(QM(slot, CB_BASE), CB_AREA(slot));
  W32(QM(slot, CB_SIZE), 4u * b->n);
  W32(QM(slot, COMP_ADDR), flag);
  W32(QM(slot, COMP_DATA), 1);
  W32(QM(slot, CFG), QMAN__CFG__DMA_bm | QMAN__CFG__COMP_EN_bm);
  return TF_PASS;
}

/* ================================================================== tests */

/* Every packet kind on an MME queue: WREG32 / WREG_BULK into the MME's registers,
 * MSG_LONG into memory and into a register, MSG_SHORT set/add (with wrap), NOP,
 * WAIT, FENCE released by a Sync-Manager monitor payload, STOP with a completion
 * message. Part of the smoke run. */
TF_TEST_F(ctrl, packets, 400000, TF_SMOKE) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  unsigned e = tf_rand_below(t, TESSERA_NUM_MME), slot = QSLOT_MME(e);
  CALL(q_init(t, slot, 0));
  uint32_t sob[5];
  unsigned grp = 1 + tf_rand_below(t, TESSERA_SYNC_OBJECTS / 8 - 1);
  for (unsigned i = 0; i < 5; i++) sob[i] = 8u * grp + i;  /* one group; monitor watches sob[3] */
  unsigned mon = tf_rand_below(t, TESSERA_SYNC_MONITORS);
  CALL(sob_write(t, SOB_SET(sob[2]), 0x7FF0u));
  CALL(mon_arm(t, mon, grp, 1u << 3, 1, QM_FENCE(slot, 1), 1));

  uint32_t words[256], regs[3], hbm_word = HBM(0x8000u + 4u * tf_rand_below(t, 1024));
  cp_buf_t b;
  cp_buf_init(&b, words, 256);
  for (unsigned i = 0; i < 3; i++) regs[i] = tf_rand32(t);
  cp_wreg32(&b, 0, MME_OFF(A_ADDR), tf_rand32(t));
  cp_wreg_bulk(&b, 0, MME_OFF(B_ADDR), 3, regs);
  cp_wreg_bulk(&b, 0, MME_OFF(LDA), 2, regs + 1);
  cp_nop(&b, 0);
  cp_wait(&b, 0, 20 + tf_rand_below(t, 100));
  cp_msg_long(&b, 0, hbm_word, tf_rand32(t));
  cp_msg_long(&b, CP_HDR_MB, SCRATCH(2), tf_rand32(t));
  cp_msg_short(&b, 0, sob[0], 0, tf_rand_below(t, 0x8000));
  cp_msg_short(&b, CP_HDR_MB, sob[0], 1, tf_rand_below(t, 0x8000));
  cp_msg_short(&b, 0, sob[2], 1, 0x20);  /* wraps: 0x7FF0 + 0x20 */
  uint32_t fence_pc = HBM(0) + 4u * b.n;
  cp_fence(&b, 0, 1, 1);
  cp_msg_short(&b, CP_HDR_MB, sob[4], 1, 1);
  cp_stop(&b, CP_HDR_EB);
  uint32_t cb = CB_AREA(slot) + 8u * tf_rand_below(t, 64), tag = tf_rand32(t);
  fence_pc += cb - HBM(0);
  CALL(q_submit(t, slot, cb, &b, SCRATCH(0), tag));
  TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_BLOCKED);

  /* the chip must stop at the fence too */
  at_pc_t ap = {slot, fence_pc};
  TF_CHECK_OK(t, tsim_run_until(t->sim, q_at_pc_pred, &ap, 50000, 16));
  TF_CHECK_OK(t, tsim_step(t->sim, 200));
  uint32_t st = 0, pc = 0;
  R32(QM(slot, STATUS), &st);
  R32(QM(slot, PC), &pc);
  if (!(st & QMAN__STATUS__BUSY_bm) || pc != fence_pc)
    return tf_fail(t, "queue not waiting at the FENCE: STATUS 0x%x PC 0x%08x (fence at 0x%08x)", st, pc, fence_pc);
  uint32_t scratch0 = 1;
  R32(SCRATCH(0), &scratch0);
  TF_CHECK_EQ(t, scratch0, 0);  /* no completion yet */

  /* the producer: one add to the watched object releases the fence via the monitor */
  CALL(sob_write(t, SOB_ADD(sob[3]), 1));
  TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
  CALL(q_wait_idle(t, slot, 100000));
  CALL(q_check(t, slot));
  CALL(gm_check_effects(t, sob, 5));
  /* engine registers: the last value written to each (DIM fields are 20 bits) */
  for (unsigned i = 0; i < g->nreg[slot]; i++) {
    int last = 1;
    for (unsigned k = i + 1; k < g->nreg[slot]; k++) last &= g->reg[slot][k].off != g->reg[slot][i].off;
    if (!last) continue;
    uint32_t v = 0;
    R32(TESSERA_MME_ADDR(e) + g->reg[slot][i].off, &v);
    TF_CHECK_EQ(t, v, g->reg[slot][i].val);
  }
  TF_CHECK(t, g->nreg[slot] == 6);
  uint32_t fv = 0, fires = 0;
  R32(QM_FENCE(slot, 1), &fv);
  TF_CHECK_EQ(t, fv, g->q[slot].fence[1]);
  R32(SM(CNT_FIRES), &fires);
  TF_CHECK_EQ(t, fires, g->sm.cnt_fires);
  return TF_PASS;
}

/* A DMA queue: 1..4 LIN_DMA copies (engine barrier between them), STOP with an engine
 * barrier whose completion message adds to a sync object. Both DMA engines. */
TF_TEST(ctrl, dma_queue_copy, 1500000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  CALL(img_open(t, HBM(0x100000u), 0x40000u));
  uint32_t sobs[TESSERA_DMA_ENGINES];
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; d++) {
    unsigned slot = QSLOT_DMA(d);
    CALL(q_init(t, slot, 1));
    uint32_t words[64];
    cp_buf_t b;
    cp_buf_init(&b, words, 64);
    unsigned n = 1 + tf_rand_below(t, 4);
    uint32_t area = HBM(0x100000u) + d * 0x20000u;  /* src in the low half, dst in the high half */
    for (unsigned i = 0; i < n; i++) {
      uint32_t size = 32u * (1 + tf_rand_below(t, 96));
      uint32_t src = area + 0x4000u * i + 32u * tf_rand_below(t, 64);
      uint32_t dst = area + 0x10000u + 0x4000u * i + 32u * tf_rand_below(t, 64);
      cp_lin_dma(&b, i ? CP_HDR_EB : 0, src, dst, size);
      img_copy(src, dst, size);
    }
    sobs[d] = 200 + d;
    cp_stop(&b, CP_HDR_EB);
    CALL(q_submit(t, slot, CB_AREA(slot), &b, SOB_ADD(sobs[d]), 1));
    TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
  }
  CALL(dma_queues_done(t, sobs));
  return img_check(t, "DMA queue copies");
}

/* Host<->device copies through the DMA engines' host port (docs/dma.md "Host port"):
 * random data in host memory (the simulator's host-memory model, HOST window) and device
 * memory. On each DMA queue, 1-3 rounds of a LIN_DMA host -> device, a LIN_DMA device ->
 * host (engine barriers between them) and a strided copy host -> host programmed with
 * WREG32 packets, random sizes and offsets. Device memory (after an L2 flush) and host
 * memory must equal the golden model's images. Then, on DMA engine 0 through its
 * registers: a source that starts in the host window and runs into device memory is
 * refused (ErrRange, nothing moves); a read and a write beyond the host-memory model's
 * populated size end with ErrAxi (DECERR), no hang, and nothing outside the destination
 * written (both images are checked afterwards, the destinations lie outside them). */
#define HOSTA(off) (TESSERA_HOST_BASE + (uint32_t)(off))
static int dma_reg_job(tf_ctx_t *t, unsigned d, uint32_t src, uint32_t dst, uint32_t size, uint32_t *err) {
  W32(DMA_REG(d, SRC), src);
  W32(DMA_REG(d, DST), dst);
  W32(DMA_REG(d, SIZE), size);
  W32(DMA_REG(d, CTRL), DMA__CTRL__GO_bm);
  CALL(dma_wait_idle(t, d, 200000));
  uint32_t st = 0;
  R32(DMA_REG(d, STATUS), &st);
  *err = FIELD(st, DMA__STATUS__ERR);
  return TF_PASS;
}
TF_TEST(ctrl, dma_host, 1500000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  CALL(img_open(t, HBM(0x100000u), 0x40000u));
  CALL(himg_open(t, HOSTA(0x200000u), 0x40000u));
  uint32_t sobs[TESSERA_DMA_ENGINES];
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; d++) {
    unsigned slot = QSLOT_DMA(d);
    CALL(q_init(t, slot, 1));
    uint32_t words[MAXW];
    cp_buf_t b;
    cp_buf_init(&b, words, MAXW);
    uint32_t area = HBM(0x100000u) + d * 0x20000u, harea = HOSTA(0x200000u) + d * 0x20000u;
    unsigned n = 1 + tf_rand_below(t, 3);
    for (unsigned i = 0; i < n; i++) {
      /* host -> device: host low half -> device high half */
      uint32_t size = 32u * (1 + tf_rand_below(t, 96));
      uint32_t src = harea + 0x4000u * i + 32u * tf_rand_below(t, 64);
      uint32_t dst = area + 0x10000u + 0x4000u * i + 32u * tf_rand_below(t, 64);
      cp_lin_dma(&b, i ? CP_HDR_EB : 0, src, dst, size);
      img_copy(src, dst, size);
      /* device -> host: device low half -> host high half */
      size = 32u * (1 + tf_rand_below(t, 96));
      src = area + 0x4000u * i + 32u * tf_rand_below(t, 64);
      dst = harea + 0x10000u + 0x4000u * i + 32u * tf_rand_below(t, 64);
      cp_lin_dma(&b, CP_HDR_EB, src, dst, size);
      img_copy(src, dst, size);
      /* strided host -> host: rows of the host low half into the host high half */
      dma_desc_t s2;
      memset(&s2, 0, sizeof s2);
      s2.mode = DMA_MODE_STRIDED;
      s2.size = 32u * (1 + tf_rand_below(t, 4));
      s2.c1 = 1 + tf_rand_below(t, 6);
      s2.c2 = 1 + tf_rand_below(t, 3);
      s2.ss1 = s2.size + 32u * tf_rand_below(t, 3);
      s2.ss2 = s2.c1 * s2.ss1 + 32u * tf_rand_below(t, 3);
      s2.ds1 = s2.size + 32u * tf_rand_below(t, 3);
      s2.ds2 = s2.c1 * s2.ds1 + 32u * tf_rand_below(t, 3);
      s2.src = harea + 0x8000u + 0x2000u * i;
      s2.dst = harea + 0x18000u + 0x2000u * i;
      TF_CHECK_EQ(t, dma_model_check(&s2, TESSERA_HBM_BASE, TESSERA_HBM_SIZE, TESSERA_HOST_BASE,
                                     TESSERA_HOST_SIZE), 0);
      static const uint32_t roff[] = {offsetof(dma_t, SRC), offsetof(dma_t, DST), offsetof(dma_t, SIZE),
                                      offsetof(dma_t, COUNT1), offsetof(dma_t, COUNT2),
                                      offsetof(dma_t, SRC_STRIDE1), offsetof(dma_t, SRC_STRIDE2),
                                      offsetof(dma_t, DST_STRIDE1), offsetof(dma_t, DST_STRIDE2)};
      const uint32_t rval[] = {s2.src, s2.dst, s2.size, s2.c1, s2.c2, s2.ss1, s2.ss2, s2.ds1, s2.ds2};
      for (unsigned r = 0; r < 9; r++) cp_wreg32(&b, r ? 0 : CP_HDR_EB, roff[r], rval[r]);
      cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CTRL),
                DMA__CTRL__GO_bm | ((uint32_t)DMA_MODE_STRIDED << DMA__CTRL__MODE_bp));
      dma_model_run(&s2, img_rd, img_wr);
    }
    sobs[d] = 220 + d;
    cp_stop(&b, CP_HDR_EB);
    CALL(q_submit(t, slot, CB_AREA(slot), &b, SOB_ADD(sobs[d]), 1));
    TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
  }
  CALL(dma_queues_done(t, sobs));
  tsim_hbm_stats_t hs;
  tsim_host_mem_stats(t->sim, &hs);
  tf_log(t, "host port: %llu bytes read, %llu written", (unsigned long long)hs.bytes_read,
         (unsigned long long)hs.bytes_written);
  TF_CHECK(t, hs.bytes_read > 0 && hs.bytes_written > 0);   /* the host port moved data */
  /* bad input on DMA engine 0 (registers) */
  uint32_t err = 0;
  CALL(dma_reg_job(t, 0, TESSERA_HOST_BASE + TESSERA_HOST_SIZE - 32u, HBM(0x300000u), 64, &err));
  TF_CHECK_EQ(t, err, DMA_ERR_RANGE);
  tsim_host_mem_set_size(t->sim, 0x300000u);   /* host memory above HOSTA(0x300000) answers DECERR */
  CALL(dma_reg_job(t, 0, HOSTA(0x300000u - 64u), HBM(0x300000u), 256, &err));
  TF_CHECK_EQ(t, err, DMA_ERR_AXI);
  CALL(dma_reg_job(t, 0, HBM(0x100000u), HOSTA(0x300000u - 64u), 256, &err));
  TF_CHECK_EQ(t, err, DMA_ERR_AXI);
  tsim_host_mem_set_size(t->sim, 0);
  CALL(dma_reg_job(t, 0, HOSTA(0x300000u), HBM(0x300000u), 256, &err));   /* the engine goes on */
  TF_CHECK_EQ(t, err, 0);
  CALL(himg_check(t, "host-port copies (host memory)"));
  return img_check(t, "host-port copies (device memory)");
}

/* The engine-activity timeline (--timeline, docs/sim.md "Timeline"). With a timeline
 * open, one LIN_DMA of a random size runs on a random DMA queue of the fresh chip; the
 * JSON written by tsim_timeline_close must hold that engine's busy run inside the doorbell
 * -> queue idle window and at least one cycle per 32-byte beat long, a run of its queue
 * in the same window, and no busy run of any other engine (all idle). */
typedef struct {
  unsigned d;
  uint32_t size;
  uint64_t c0, c1;
} tl_job_t;

static int timeline_job(tf_ctx_t *t, tl_job_t *j) {
  unsigned slot = QSLOT_DMA(j->d);
  gm_init(&g_gm, t->sim);
  CALL(q_init(t, slot, 1));
  uint32_t src = HBM(0x100000u), dst = HBM(0x180000u);
  uint8_t *buf = malloc(j->size), *got = malloc(j->size);
  for (uint32_t i = 0; i < j->size; i++) buf[i] = (uint8_t)tf_rand32(t);
  TF_CHECK_OK(t, tsim_mem_write(t->sim, src, buf, j->size));
  uint32_t words[16];
  cp_buf_t b;
  cp_buf_init(&b, words, 16);
  cp_lin_dma(&b, 0, src, dst, j->size);
  cp_stop(&b, CP_HDR_EB);
  j->c0 = tsim_cycles(t->sim);
  int rc = q_submit(t, slot, CB_AREA(slot), &b, 0, 0);
  if (rc == TF_PASS) rc = q_wait_idle(t, slot, 200000);
  j->c1 = tsim_cycles(t->sim);
  if (rc == TF_PASS && tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 flush: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) {
    tsim_mem_read(t->sim, dst, got, j->size);
    if (memcmp(buf, got, j->size)) rc = tf_fail(t, "DMA%u: the copy of %u bytes differs", j->d, j->size);
  }
  free(buf);
  free(got);
  return rc;
}

TF_TEST(ctrl, timeline, 800000) {
  char path[] = "/tmp/tessera_timeline_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return tf_fail(t, "mkstemp failed");
  close(fd);
  tsim_timeline_close(t->sim);  /* (one opened by --timeline is written now) */
  TF_CHECK_OK(t, tsim_timeline_open(t->sim, path));
  tl_job_t j = {tf_rand_below(t, TESSERA_DMA_ENGINES), 32u * (64 + tf_rand_below(t, 1024)), 0, 0};
  int rc = timeline_job(t, &j);
  if (tsim_timeline_close(t->sim) != TSIM_OK && rc == TF_PASS) rc = tf_fail(t, "%s", tsim_last_error(t->sim));
  FILE *f = fopen(path, "r");
  if (!f) return tf_fail(t, "no timeline file %s", path);
  char line[512], names[64][48] = {{0}}, want[48], wantq[48];
  snprintf(want, sizeof want, "DMA%u", j.d);
  snprintf(wantq, sizeof wantq, "QMAN DMA%u", j.d);
  unsigned busy = 0, qruns = 0, other = 0, lines = 0;
  unsigned long long bstart = 0, blen = 0;
  int closed = 0;
  while (rc == TF_PASS && fgets(line, sizeof line, f)) {
    unsigned tid = 0;
    char nm[48];
    unsigned long long st = 0, len = 0;
    lines++;
    if (!strcmp(line, "]}\n")) closed = 1;
    if (sscanf(line, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%47[^\"]\"", &tid,
               nm) == 2 && tid < 64) {
      snprintf(names[tid], sizeof names[tid], "%s", nm);
    } else if (sscanf(line, "{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"name\":\"%47[^\"]\",\"ts\":%*[0-9.],\"dur\":%*[0-9.],"
                      "\"args\":{\"start cycle\":%llu,\"cycles\":%llu}", &tid, nm, &st, &len) == 4) {
      const char *tr = tid < 64 ? names[tid] : "";
      if (!strcmp(tr, want) && !strcmp(nm, "busy")) {
        busy++;
        bstart = st, blen = len;
        if (st < j.c0 || st + len > j.c1)
          rc = tf_fail(t, "%s busy at cycles %llu..%llu, outside the job's window %llu..%llu", want, st, st + len,
                       (unsigned long long)j.c0, (unsigned long long)j.c1);
      } else if (!strcmp(tr, wantq)) {
        qruns++;
        if (st < j.c0 || st + len > j.c1) rc = tf_fail(t, "%s %s outside the job's window", wantq, nm);
      } else if (!strcmp(nm, "busy") || !strcmp(nm, "running") || !strncmp(tr, "QMAN", 4)) {
        other++;
        tf_log(t, "unexpected activity: track '%s' %s at cycle %llu for %llu", tr, nm, st, len);
      }
    }
  }
  fclose(f);
  remove(path);
  if (rc != TF_PASS) return rc;
  if (!closed) return tf_fail(t, "timeline file not terminated (%u lines)", lines);
  if (busy != 1) return tf_fail(t, "%u busy runs of %s, expected 1", busy, want);
  if (blen < j.size / 32u) return tf_fail(t, "%s busy %llu cycles for %u beats", want, blen, j.size / 32u);
  if (!qruns) return tf_fail(t, "no run of %s", wantq);
  if (other) return tf_fail(t, "%u runs on other tracks while only %s worked", other, want);
  tf_log(t, "timeline: %s busy %llu cycles from cycle %llu for %u bytes; %u runs of its queue", want, blen, bstart,
         j.size, qruns);
  return TF_PASS;
}

/* Tensor mode through a DMA queue (docs/dma.md "Tensor copy"): per engine, a WREG_BULK
 * of TSRC, TDST, TOFF0..4 and a WREG32 of CTRL (go | tensor), twice: a 3-D copy whose
 * dim-0 runs are contiguous (fast path, offsets that read past the source -> pad) and a
 * 2-D transpose by strides with a negative stride (element path); unaligned bases,
 * random sizes and element type. Checked byte for byte against the DMA golden model. */
static void tdesc_put(tf_ctx_t *t, uint32_t w[16], uint32_t base, uint32_t dtype, unsigned nd,
                      const uint32_t *size, const int32_t *stride) {
  memset(w, 0, 16 * sizeof w[0]);
  w[0] = base;
  w[1] = dtype | (nd << 4);
  w[2] = tf_rand32(t);
  for (unsigned d = 0; d < 5; d++) {
    w[3 + d] = d < nd ? size[d] : 1;
    w[8 + d] = d < nd ? (uint32_t)stride[d] : 0;
  }
}
TF_TEST(ctrl, dma_tensor_queue, 1500000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  CALL(img_open(t, HBM(0x100000u), 0x40000u));
  uint32_t sobs[TESSERA_DMA_ENGINES];
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; d++) {
    unsigned slot = QSLOT_DMA(d);
    CALL(q_init(t, slot, 1));
    uint32_t words[64];
    cp_buf_t b;
    cp_buf_init(&b, words, 64);
    uint32_t area = HBM(0x100000u) + d * 0x20000u;   /* src in the low half, dst in the high half */
    static const uint32_t dtypes[] = {7, 1, 0};      /* INT8, BF16, FP32 */
    for (unsigned i = 0; i < 2; i++) {
      unsigned lg = tf_rand_below(t, 3), e = 1u << lg;
      uint32_t sw[16], dw[16], ssz[5], dsz[5];
      int32_t sst[5], dst[5], off[5] = {0, 0, 0, 0, 0};
      uint32_t src = area + 0x8000u * i + e * tf_rand_below(t, 64);
      uint32_t dsta = area + 0x10000u + 0x8000u * i + e * tf_rand_below(t, 64);
      unsigned nd;
      if (i == 0) {   /* [c2][c1][c0], contiguous rows, source rows shifted and clipped */
        nd = 3;
        dsz[0] = 20 + tf_rand_below(t, 200); dsz[1] = 1 + tf_rand_below(t, 6); dsz[2] = 1 + tf_rand_below(t, 3);
        ssz[0] = dsz[0] - tf_rand_below(t, 8); ssz[1] = dsz[1]; ssz[2] = dsz[2] + 1;
        dst[0] = 1; dst[1] = (int32_t)dsz[0] + (int32_t)tf_rand_below(t, 5); dst[2] = dst[1] * (int32_t)dsz[1];
        sst[0] = 1; sst[1] = (int32_t)ssz[0] + 3; sst[2] = sst[1] * (int32_t)ssz[1];
        off[0] = (int32_t)tf_rand_below(t, 7) - 3;
        off[1] = (int32_t)tf_rand_below(t, 3) - 1;
      } else {        /* dst[r][c] = src[c][R-1-r] */
        nd = 2;
        dsz[0] = 1 + tf_rand_below(t, 40); dsz[1] = 1 + tf_rand_below(t, 40);
        ssz[0] = dsz[1]; ssz[1] = dsz[0];
        dst[0] = 1; dst[1] = (int32_t)dsz[0];
        sst[0] = -(int32_t)ssz[1]; sst[1] = 1;            /* src dim 0 walks backwards over rows */
        src += e * (ssz[0] - 1) * ssz[1];
      }
      tdesc_put(t, sw, src, dtypes[lg], nd, ssz, sst);
      tdesc_put(t, dw, dsta, dtypes[lg], nd, dsz, dst);
      uint32_t sdesc = HBM(0xF0000u) + 0x1000u * d + 128u * i, ddesc = sdesc + 64u;
      TF_CHECK_OK(t, tsim_mem_write(t->sim, sdesc, sw, 64));
      TF_CHECK_OK(t, tsim_mem_write(t->sim, ddesc, dw, 64));
      TF_CHECK_EQ(t, dma_tensor_check(sw, dw, sdesc, ddesc, TESSERA_HBM_BASE, TESSERA_HBM_SIZE), 0);
      uint32_t regs[7] = {sdesc, ddesc, (uint32_t)off[0], (uint32_t)off[1], 0, 0, 0};
      cp_wreg_bulk(&b, i ? CP_HDR_EB : 0, (uint32_t)offsetof(dma_t, TSRC), 7, regs);
      cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CTRL), DMA__CTRL__GO_bm | DMA__CTRL__TENSOR_bm);
      dma_tensor_run(sw, dw, off, img_rd, img_wr);
    }
    TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));   /* descriptors written behind the L2 */
    sobs[d] = 210 + d;
    cp_stop(&b, CP_HDR_EB);
    CALL(q_submit(t, slot, CB_AREA(slot), &b, SOB_ADD(sobs[d]), 1));
    TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
  }
  CALL(dma_queues_done(t, sobs));
  return img_check(t, "DMA queue tensor copies");
}

/* Engine barrier on an MME queue: two GEMMs back to back in one buffer, the second
 * one's first register write waits for the first job (no busy_reject, both C right). */
TF_TEST(ctrl, barrier_two_gemms, 3000000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  unsigned e = tf_rand_below(t, TESSERA_NUM_MME), slot = QSLOT_MME(e);
  CALL(q_init(t, slot, 0));
  gemm_t j1, j2;
  /* a partial last column tile: COLS - 3 columns (COLS + 1 on arrays narrower than 4) */
  gemm_prepare(t, &j1, HBM(0x200000u), TESSERA_MME_ROWS + 1,
               TESSERA_MME_COLS > 3 ? TESSERA_MME_COLS - 3 : TESSERA_MME_COLS + 1, 24);
  gemm_prepare(t, &j2, HBM(0x300000u), 5, TESSERA_MME_COLS + 2, 40);
  uint32_t words[128];
  cp_buf_t b;
  cp_buf_init(&b, words, 128);
  gemm_packets(&b, 0, &j1, 0, j1.g.m, SOB_ADD(40), 1);
  gemm_packets(&b, CP_HDR_EB, &j2, 0, j2.g.m, SOB_ADD(40), 1);
  cp_msg_short(&b, CP_HDR_EB, 41, 0, 0x1234);
  cp_stop(&b, 0);
  CALL(q_submit(t, slot, CB_AREA(slot), &b, SCRATCH(1), 0xB0B0u));
  TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
  CALL(q_wait_idle(t, slot, 2500000));
  CALL(q_check(t, slot));
  uint32_t st = 0;
  R32(MME_REG(e, STATUS), &st);
  TF_CHECK_EQ(t, st & MME__STATUS__BUSY_REJECT_bm, 0);
  TF_CHECK_EQ(t, FIELD(st, MME__STATUS__ERR), 0);
  /* both completion messages (engine) + the queue's own messages */
  gm_route(g, SOB_ADD(40), 1);
  gm_route(g, SOB_ADD(40), 1);
  uint32_t sobs[] = {40, 41};
  CALL(gm_check_effects(t, sobs, 2));
  int rc = gemm_check(t, &j1, j1.c, "GEMM 1");
  if (rc == TF_PASS) rc = gemm_check(t, &j2, j2.c, "GEMM 2");
  free(j1.cexp);
  free(j2.cexp);
  return rc;
}

/* Monitor -> fence -> engine chain, no host in the loop: the MME queue runs a GEMM
 * whose completion message adds to a sync object; a monitor on it releases the DMA
 * queue's fence; the DMA queue copies C elsewhere and signals completion. */
TF_TEST(ctrl, chain_gemm_dma, 3000000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  /* MME and DMA of one DCORE (one L2 slice: coherent, docs/l2.md) */
  unsigned e = tf_rand_below(t, TESSERA_NUM_MME), d = e % TESSERA_DMA_ENGINES;
  unsigned qm = QSLOT_MME(e), qd = QSLOT_DMA(d);
  CALL(q_init(t, qm, 0));
  CALL(q_init(t, qd, 1));
  gemm_t j;
  /* 2 * ROWS - 5 rows (ROWS + 1 on arrays with fewer than 3 rows) */
  gemm_prepare(t, &j, HBM(0x200000u), TESSERA_MME_ROWS > 2 ? 2 * TESSERA_MME_ROWS - 5 : TESSERA_MME_ROWS + 1,
               TESSERA_MME_COLS + 4, 33);
  uint32_t copy = HBM(0x400000u);
  unsigned sob = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8), mon = tf_rand_below(t, 64);
  CALL(mon_arm(t, mon, sob / 8u, 1u << (sob % 8u), 1, QM_FENCE(qd, 2), 1));

  uint32_t wd[32], wm[64];
  cp_buf_t bd, bm;
  cp_buf_init(&bd, wd, 32);
  cp_fence(&bd, 0, 2, 1);
  cp_lin_dma(&bd, 0, j.c, copy, (uint32_t)j.csz);
  cp_stop(&bd, CP_HDR_EB);
  CALL(q_submit(t, qd, CB_AREA(qd), &bd, SCRATCH(3), 0xD0D0u));
  TF_CHECK_EQ(t, gm_run(g, qd), CP_Q_BLOCKED);

  cp_buf_init(&bm, wm, 64);
  gemm_packets(&bm, 0, &j, 0, j.g.m, SOB_ADD(sob), 1);
  cp_stop(&bm, CP_HDR_EB);
  CALL(q_submit(t, qm, CB_AREA(qm), &bm, 0, 0));
  TF_CHECK_EQ(t, gm_run(g, qm), CP_Q_DONE);
  gm_route(g, SOB_ADD(sob), 1);  /* the MME's completion message fires the monitor */
  TF_CHECK_EQ(t, gm_run(g, qd), CP_Q_DONE);

  CALL(q_wait_idle(t, qm, 2500000));
  CALL(q_wait_idle(t, qd, 500000));
  CALL(q_check(t, qm));
  CALL(q_check(t, qd));
  uint32_t sobs[] = {sob};
  CALL(gm_check_effects(t, sobs, 1));
  int rc = gemm_check(t, &j, j.c, "GEMM result");
  if (rc == TF_PASS) rc = gemm_check(t, &j, copy, "DMA copy of the GEMM result");
  free(j.cexp);
  return rc;
}

/* Fence fast path keeps a monitor's payloads in order: payloads 0..2 write three words
 * of device memory over the system bus, payload 3 releases a DMA queue's fence over the
 * direct path; the released queue copies the 32-byte blocks holding those words, which
 * must already hold the new values. */
TF_TEST(ctrl, payload_order, 600000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  unsigned d = tf_rand_below(t, TESSERA_DMA_ENGINES), qd = QSLOT_DMA(d);
  CALL(q_init(t, qd, 1));
  uint32_t src = HBM(0x200000u) + 256u * tf_rand_below(t, 64), dst = HBM(0x300000u);
  uint32_t words[3], tags[3];
  for (unsigned i = 0; i < 3; i++) {
    words[i] = src + 32u * i + 4u * tf_rand_below(t, 8);
    tags[i] = tf_rand32(t);
    TF_CHECK_OK(t, tsim_mem_write32(t->sim, words[i], ~tags[i]));
  }
  unsigned sob = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8), mon = tf_rand_below(t, 64);
  for (unsigned i = 0; i < 3; i++) {
    W32(MON_WORD(mon, 2 * i), words[i]);
    W32(MON_WORD(mon, 2 * i + 1), tags[i]);
  }
  W32(MON_WORD(mon, 6), QM_FENCE(qd, 3));
  W32(MON_WORD(mon, 7), 1);
  W32(MON_WORD(mon, CP_MON_ARM_WORD), cp_arm_word(sob / 8u, 1u << (sob % 8u), 1, 0, 4));
  uint32_t w[16];
  cp_buf_t b;
  cp_buf_init(&b, w, 16);
  cp_fence(&b, 0, 3, 1);
  cp_lin_dma(&b, 0, src, dst, 96);
  cp_stop(&b, CP_HDR_EB);
  CALL(q_submit(t, qd, CB_AREA(qd), &b, 0, 0));
  TF_CHECK_OK(t, tsim_step(t->sim, 300));
  uint32_t st = 0;
  R32(QM(qd, STATUS), &st);
  TF_CHECK(t, (st & QMAN__STATUS__BUSY_bm) != 0);  /* waiting at the fence */
  W32(SOB_ADD(sob), 1);
  CALL(q_wait_idle(t, qd, 100000));
  R32(QM(qd, STATUS), &st);
  TF_CHECK(t, (st & QMAN__STATUS__DONE_bm) && !FIELD(st, QMAN__STATUS__ERR));
  TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));  /* the copy may still be in the L2 */
  for (unsigned i = 0; i < 3; i++) {
    uint32_t got = tsim_mem_read32(t->sim, dst + (words[i] - src));
    if (got != tags[i])
      return tf_fail(t, "payload %u (0x%08x) not yet in memory when the fence released the copy: 0x%08x", i,
                     tags[i], got);
  }
  return TF_PASS;
}

/* Bad input: unknown opcode, a register write outside the window, a command buffer
 * outside device memory, a register write the TPC cluster refuses (offset 0x3C is
 * unmapped in its block: pslverr).
 * Each gives the model's error code and PC and raises the queue interrupt; the
 * queue then runs a good buffer; a DMA queue copying meanwhile is unaffected. */
TF_TEST(ctrl, errors, 1500000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  unsigned e = tf_rand_below(t, TESSERA_NUM_MME), qm = QSLOT_MME(e), qd = QSLOT_DMA(0);
  CALL(q_init(t, qm, 0));
  CALL(q_init(t, qd, 1));
  CALL(q_init(t, QSLOT_TPC, 0));
  W32(INTC(HOST_EN), 1u << IRQ_SRC_QMAN);

  /* a long copy on the DMA queue runs through all of it */
  CALL(img_open(t, HBM(0x100000u), 0x20000u));
  uint32_t wd[16];
  cp_buf_t bd;
  cp_buf_init(&bd, wd, 16);
  cp_lin_dma(&bd, 0, HBM(0x100000u), HBM(0x110000u), 0x10000u);
  cp_stop(&bd, CP_HDR_EB);
  img_copy(HBM(0x100000u), HBM(0x110000u), 0x10000u);
  CALL(q_submit(t, qd, CB_AREA(qd), &bd, SCRATCH(3), 0xC0C0u));
  TF_CHECK_EQ(t, gm_run(g, qd), CP_Q_DONE);

  struct { const char *name; unsigned slot; uint32_t expect; } cases[] = {
      {"unknown opcode", qm, CP_ERR_OPCODE},
      {"register outside the window", qm, CP_ERR_REG_RANGE},
      {"buffer outside device memory", qm, CP_ERR_CB_RANGE},
      {"TPC queue: write to an unmapped cluster register", QSLOT_TPC, CP_ERR_APB},
  };
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    unsigned slot = cases[k].slot;
    uint32_t words[32];
    cp_buf_t b;
    cp_buf_init(&b, words, 32);
    uint32_t base = CB_AREA(slot) + 0x1000u;
    cp_nop(&b, 0);
    cp_wreg32(&b, 0, MME_OFF(SCALE), tf_rand32(t) & 0xFFFFFFu);
    switch (cases[k].expect) {
      case CP_ERR_OPCODE: {
        uint32_t raw[2] = {CP_OP_COUNT + tf_rand_below(t, 0xFF - CP_OP_COUNT), 0};
        cp_raw(&b, raw, 2);
        break;
      }
      case CP_ERR_REG_RANGE:
        W32(QM(slot, WIN_LIMIT), 0x100u);
        g->c[slot].win_limit = 0x100u;
        cp_wreg32(&b, 0, 0x100u + 4u * tf_rand_below(t, 64), 1);
        break;
      case CP_ERR_CB_RANGE:
        base = TESSERA_DSRAM_BASE;  /* not device memory */
        break;
      default:
        break;
    }
    cp_msg_long(&b, 0, SCRATCH(2), 0xBAD0u + k);  /* must not be sent */
    cp_stop(&b, 0);
    if (base == TESSERA_DSRAM_BASE) {
      /* the queue must not fetch it: give it the DSRAM address without data */
      g->c[slot].cb_base = base;
      W32(QM(slot, CB_BASE), base);
      W32(QM(slot, CB_SIZE), 4u * b.n);
      W32(QM(slot, CFG), 0);
      W32(QM(slot, CTRL), QMAN__CTRL__START_bm);
      g->c[slot].cb_size = 4u * b.n;
      g->c[slot].comp_en = 0;
      cp_q_start(&g->q[slot], &g->c[slot]);
    } else {
      CALL(q_submit(t, slot, base, &b, 0, 0));
    }
    /* the TPC cluster answers the first write (offset 0x3C, unmapped there) with pslverr */
    gm_run_apb_err(g, slot, slot == QSLOT_TPC ? 0 : -1);
    TF_CHECK_EQ(t, g->q[slot].err, cases[k].expect);
    CALL(q_wait_idle(t, slot, 100000));
    CALL(q_check(t, slot));
    uint32_t pend = 0, sc = 0;
    R32(INTC(PENDING), &pend);
    if (!((pend >> IRQ_SRC_QMAN) & 1u) || !tsim_host_irq(t->sim))
      return tf_fail(t, "%s: no queue interrupt (INTC PENDING 0x%x)", cases[k].name, pend);
    R32(SCRATCH(2), &sc);
    if (sc == 0xBAD0u + k) return tf_fail(t, "%s: a packet after the error was executed", cases[k].name);
    /* recover: restore the window, run a good buffer on the same queue */
    if (cases[k].expect == CP_ERR_REG_RANGE) {
      W32(QM(slot, WIN_LIMIT), 0x10000u);
      g->c[slot].win_limit = 0x10000u;
    }
    cp_buf_init(&b, words, 32);
    cp_msg_short(&b, 0, 60 + k, 0, 1 + k);
    cp_stop(&b, 0);
    CALL(q_submit(t, slot, CB_AREA(slot), &b, 0, 0));
    TF_CHECK_EQ(t, gm_run(g, slot), CP_Q_DONE);
    CALL(q_wait_idle(t, slot, 100000));
    CALL(q_check(t, slot));
    R32(INTC(PENDING), &pend);
    if ((pend >> IRQ_SRC_QMAN) & 1u)
      return tf_fail(t, "%s: queue interrupt still pending after recovery (0x%x)", cases[k].name, pend);
    tf_log(t, "%s: error %u (%s), recovered", cases[k].name, cases[k].expect, cp_err_name(cases[k].expect));
  }
  CALL(q_wait_idle(t, qd, 1000000));
  CALL(q_check(t, qd));
  uint32_t sobs[] = {60, 61, 62, 63};
  CALL(gm_check_effects(t, sobs, 4));
  return img_check(t, "DMA copy during the errors");
}

/* All queues at once with random buffers (seeded): NOP, WAIT, MSG_SHORT set/add and
 * MSG_LONG on per-queue objects and memory words, register writes into the MMEs,
 * LIN_DMA on the DMA queues, FENCEs fed by the host before the doorbell, some buffers
 * with a bad packet. Each queue's final state and all effects must equal the model's:
 * a failing queue leaves the others untouched. Three rounds on the same queues. */
static void rand_buffer(tf_ctx_t *t, cp_buf_t *b, unsigned slot, unsigned qi, int dma, int mme,
                        uint32_t *fence_feed) {
  unsigned n = 3 + tf_rand_below(t, 12);
  uint32_t sob0 = 64u + 8u * qi, mem0 = HBM(0x80000u) + 0x400u * qi;
  uint32_t dma0 = HBM(0x800000u) + 0x10000u * qi;
  int bad_at = tf_rand_below(t, 4) == 0 ? (int)tf_rand_below(t, n) : -1;
  (void)slot;
  for (unsigned i = 0; i < n; i++) {
    uint32_t fl = tf_rand_below(t, 4) == 0 ? CP_HDR_MB : 0;
    if ((int)i == bad_at) {
      uint32_t raw[2] = {CP_OP_COUNT + tf_rand_below(t, 16), tf_rand32(t)};
      cp_raw(b, raw, 2);
      continue;
    }
    switch (tf_rand_below(t, 8)) {
      case 0: cp_nop(b, fl); break;
      case 1: cp_wait(b, fl, tf_rand_below(t, 40)); break;
      case 2: cp_msg_short(b, fl, sob0 + tf_rand_below(t, 8), (int)tf_rand_below(t, 2), tf_rand_below(t, 0x8000)); break;
      case 3: cp_msg_long(b, fl, mem0 + 4u * tf_rand_below(t, 256), tf_rand32(t)); break;
      case 4: {
        uint32_t k = tf_rand_below(t, 3);
        cp_fence(b, fl, k, 1);
        fence_feed[k]++;
        break;
      }
      case 5:
        if (mme) cp_wreg32(b, fl, MME_OFF(A_ADDR) + 4u * tf_rand_below(t, 4), tf_rand32(t));
        else cp_nop(b, fl);
        break;
      case 6:
        if (mme) {
          uint32_t v[3] = {tf_rand32(t), tf_rand32(t), tf_rand32(t)};
          cp_wreg_bulk(b, fl, MME_OFF(LDA), 1 + tf_rand_below(t, 3), v);
        } else if (dma) {
          uint32_t sz = 32u * (1 + tf_rand_below(t, 16)), o = 32u * tf_rand_below(t, 64);
          cp_lin_dma(b, fl | CP_HDR_EB, dma0 + o, dma0 + 0x8000u + o, sz);
        } else {
          cp_nop(b, fl);
        }
        break;
      default: cp_msg_short(b, fl | CP_HDR_EB, sob0 + tf_rand_below(t, 8), 1, 1); break;
    }
  }
  cp_stop(b, CP_HDR_EB);
}

TF_TEST(ctrl, random_all_queues, 3000000) {
  gm_t *g = &g_gm;
  gm_init(g, t->sim);
  unsigned slots[TESSERA_NUM_MME + TESSERA_DMA_ENGINES], nq = 0;
  for (unsigned i = 0; i < TESSERA_NUM_MME; i++) slots[nq++] = QSLOT_MME(i);
  for (unsigned d = 0; d < TESSERA_DMA_ENGINES; d++) slots[nq++] = QSLOT_DMA(d);
  for (unsigned k = 0; k < nq; k++) CALL(q_init(t, slots[k], k >= TESSERA_NUM_MME));
  /* DMA source/destination areas, compared at the end: image of all of them */
  CALL(img_open(t, HBM(0x800000u), 0x10000u * nq));
  uint32_t sobs[8 * 8];
  unsigned nsobs = 0;
  for (unsigned k = 0; k < nq && nsobs + 8 <= 64; k++)
    for (unsigned j = 0; j < 8; j++) sobs[nsobs++] = 64u + 8u * k + j;
  unsigned errors = 0, dones = 0;
  for (unsigned round = 0; round < 3; round++) {
    static uint32_t words[8][512];
    for (unsigned k = 0; k < nq; k++) {
      unsigned slot = slots[k];
      cp_buf_t b;
      cp_buf_init(&b, words[k], 512);
      uint32_t feed[4] = {0, 0, 0, 0};
      rand_buffer(t, &b, slot, k, k >= TESSERA_NUM_MME, k < TESSERA_NUM_MME, feed);
      for (unsigned f = 0; f < 3; f++)
        if (feed[f]) {
          W32(QM_FENCE(slot, f), feed[f]);
          cp_q_fence_add(&g->q[slot], f, feed[f]);
        }
      CALL(q_submit(t, slot, CB_AREA(slot) + 0x1000u * (round & 1u), &b, SOB_ADD(sobs[8 * k + 7]), 1));
    }
    for (unsigned k = 0; k < nq; k++) {
      unsigned slot = slots[k];
      /* the model: the DMA effects on the image, everything else through gm_event */
      int st = gm_run(g, slot);
      if (st == CP_Q_BLOCKED) return tf_fail(t, "model queue %u blocked (fence feed bug)", slot);
      for (unsigned i = 0; i < g->nreg[slot]; i++) {
        /* LIN_DMA writes SRC, DST, SIZE, CTRL at offset 0 */
        if (k >= TESSERA_NUM_MME && g->reg[slot][i].off == 12u && i >= 3)
          img_copy(g->reg[slot][i - 3].val, g->reg[slot][i - 2].val, g->reg[slot][i - 1].val);
      }
      g->nreg[slot] = 0;
    }
    for (unsigned k = 0; k < nq; k++) {
      CALL(q_wait_idle(t, slots[k], 500000));
      if (k >= TESSERA_NUM_MME) CALL(dma_wait_idle(t, k - TESSERA_NUM_MME, 500000));
      CALL(q_check(t, slots[k]));
      if (g->q[slots[k]].state == CP_Q_ERROR) errors++;
      else dones++;
    }
  }
  CALL(gm_check_effects(t, sobs, nsobs));
  tf_log(t, "%u buffers completed, %u stopped with an error", dones, errors);
  return img_check(t, "DMA queues");
}

/* ================================================================== producer / consumer
 * White paper figure 21 without firmware in the loop: a GEMM split into S row slices
 * on an MME queue, each slice's completion message adds 1 to one sync object; monitor
 * i (target i + 1) releases the consumer queue's fence 0 once slice i is in memory;
 * the consumer works on slice i (rows [i*r, (i+1)*r) of C, FP32) while the MME
 * computes slice i + 1. Two consumers:
 * - a DMA queue transposes the slice into C^T (checked against the DMA golden model's
 *   transpose of the golden C);
 * - the TPC queue launches the `relu` kernel on all TPCs over the slice into O (checked
 *   against the TPC golden relu of the golden C; O's row padding keeps its canary).
 *   The TPC cluster interleaves its TPCs over the DCOREs, so this case puts the L2
 *   slices in shared mode, where every engine sees every other engine's completed
 *   writes (docs/l2.md, "Coherence contract"). */
typedef struct {
  gemm_t j;
  unsigned slices, e, d, sob, mon0;
  int tpc;               /* consumer: 0 = DMA transpose, 1 = TPC relu */
  int shared;            /* L2 slices in shared mode (always with the TPC consumer) */
  uint32_t ct;           /* DMA: transposed C, N rows of M FP32, row stride M*4;
                            TPC: relu(C), same layout as C (row stride ldc) */
  uint32_t prog, prog_len; /* TPC: the relu kernel */
  uint32_t flag;         /* HBM word the queues' completion messages write */
  int bench;             /* print the MME's counters of the last slice after each run */
} pipe_t;

#define TPC_OFF(r) ((uint32_t)offsetof(tpc_t, r))
#define NTPC_ALL (TESSERA_DCORES * TESSERA_TPC_PER_DCORE)
#define PIPE_CANARY(i) ((uint8_t)(0x5Au ^ (uint8_t)((i) * 7u)))

/* One TPC tensor descriptor (13 words) for an [h][w] FP32 matrix with row pitch p
 * (elements). */
static void tpc_desc(uint32_t *w, uint32_t base, uint32_t wd, uint32_t h, uint32_t p) {
  memset(w, 0, 13 * sizeof *w);
  w[0] = base;
  w[1] = 0u | (2u << 4);  /* FP32, 2 dims */
  for (int i = 0; i < 5; i++) w[3 + i] = 1;
  w[3] = wd, w[4] = h;
  w[8] = 1, w[9] = p;
}

static void pipe_producer(const pipe_t *p, cp_buf_t *b) {
  uint32_t r = p->j.g.m / p->slices;
  for (unsigned i = 0; i < p->slices; i++)
    gemm_packets(b, i ? CP_HDR_EB : 0, &p->j, i * r, r, SOB_ADD(p->sob), 1);
  cp_stop(b, CP_HDR_EB);
}

/* DMA consumer: the strides once; per slice the slice's SRC, DST, SIZE (the DMA latches
 * its registers at go, so they may be written while the previous transpose runs), then
 * the fence, then only CTRL = go behind an engine barrier: after the producer's signal
 * one register write starts the transpose. */
static void pipe_consumer_dma(const pipe_t *p, cp_buf_t *b, int fenced) {
  uint32_t r = p->j.g.m / p->slices;
  uint32_t strides[6] = {r, 1, p->j.ldc, 0, 4u * p->j.g.m, 0};
  /* C^T is not read again by this job: its stores do not allocate in the L2 */
  cp_wreg32(b, 0, (uint32_t)offsetof(dma_t, CACHE), DMA__CACHE__RD_ALLOC_bm);
  cp_wreg_bulk(b, 0, (uint32_t)offsetof(dma_t, COUNT1), 6, strides);
  for (unsigned i = 0; i < p->slices; i++) {
    uint32_t at[3] = {p->j.c + i * r * p->j.ldc, p->ct + 4u * i * r, 4u * p->j.g.n};
    cp_wreg_bulk(b, 0, (uint32_t)offsetof(dma_t, SRC), 3, at);
    if (fenced) cp_fence(b, 0, 0, 1);
    cp_wreg32(b, CP_HDR_EB, (uint32_t)offsetof(dma_t, CTRL),
              DMA__CTRL__GO_bm | (3u << DMA__CTRL__MODE_bp) | DMA__CTRL__ESIZE_bm);
  }
  cp_stop(b, CP_HDR_EB);
}

/* TPC consumer: the launch set up once (program, index space [ceil(N/8)][r], tensors
 * t0 = slice of C, t1 = the same (unused by relu), t2 = slice of O); per slice: the
 * fence, the two slice bases (engine-idle barrier: the previous launch has ended) and
 * a COMMIT (program kept after the first). */
static void pipe_consumer_tpc(const pipe_t *p, cp_buf_t *b, int fenced) {
  uint32_t r = p->j.g.m / p->slices, n = p->j.g.n, pitch = p->j.ldc / 4u;
  uint32_t cfg[5] = {p->prog, p->prog_len, 3, NTPC_ALL, 0};
  uint32_t idx[5] = {(n + 7u) / 8u, r, 1, 1, 1};
  uint32_t sarg[TPC_NSARGS] = {0}, d[13];
  cp_wreg_bulk(b, 0, TPC_OFF(PROG_ADDR), 5, cfg);
  cp_wreg_bulk(b, 0, TPC_OFF(IDX_SIZE0), 5, idx);
  cp_wreg_bulk(b, 0, TPC_OFF(SARG), TPC_NSARGS, sarg);
  cp_wreg32(b, 0, TPC_OFF(MSG_CTRL), 0);
  /* relu(C) is not read again by this job: its stores do not allocate in the L2, which
   * keeps the slices for the GEMM's operands (docs/l2.md, "Allocation hints") */
  cp_wreg32(b, 0, TPC_OFF(CACHE), TPC__CACHE__RD_ALLOC_bm);
  tpc_desc(d, p->j.c, n, r, pitch);
  cp_wreg_bulk(b, 0, TPC_OFF(DESC), 13, d);
  cp_wreg_bulk(b, 0, TPC_OFF(DESC) + 64u, 13, d);
  tpc_desc(d, p->ct, n, r, pitch);
  cp_wreg_bulk(b, 0, TPC_OFF(DESC) + 128u, 13, d);
  for (unsigned i = 0; i < p->slices; i++) {
    if (fenced) cp_fence(b, 0, 0, 1);
    cp_wreg32(b, CP_HDR_EB, TPC_OFF(DESC), p->j.c + i * r * p->j.ldc);
    cp_wreg32(b, 0, TPC_OFF(DESC) + 128u, p->ct + i * r * p->j.ldc);
    cp_wreg32(b, 0, TPC_OFF(CTRL), TPC__CTRL__COMMIT_bm | (i ? TPC__CTRL__KEEP_PROG_bm : 0u));
  }
  cp_stop(b, CP_HDR_EB);
}

static void pipe_consumer(const pipe_t *p, cp_buf_t *b, int fenced) {
  if (p->tpc) pipe_consumer_tpc(p, b, fenced);
  else pipe_consumer_dma(p, b, fenced);
}

static int flag_pred(tsim_t *s, void *ctx) {
  const uint32_t *want = ctx;
  return tsim_mem_read32(s, want[0]) == want[1];
}

/* Run the pipeline (mode 0), producer only (1) or consumer only on a precomputed C
 * (2); returns the cycles from the first doorbell to the last completion message. */
static int pipe_run(tf_ctx_t *t, pipe_t *p, int mode, uint64_t *cycles) {
  unsigned qm = QSLOT_MME(p->e), qd = p->tpc ? QSLOT_TPC : QSLOT_DMA(p->d);
  static uint32_t wm[2048], wd[2048];
  cp_buf_t bm, bd;
  cp_buf_init(&bm, wm, 2048);
  cp_buf_init(&bd, wd, 2048);
  pipe_producer(p, &bm);
  pipe_consumer(p, &bd, mode == 0);
  TF_CHECK_OK(t, tsim_mem_write32(t->sim, p->flag, 0));
  TF_CHECK_OK(t, tsim_mem_write32(t->sim, p->flag + 4u, 0));
  TF_CHECK_OK(t, tsim_mem_write(t->sim, CB_AREA(qm), bm.w, 4u * bm.n));
  TF_CHECK_OK(t, tsim_mem_write(t->sim, CB_AREA(qd), bd.w, 4u * bd.n));
  if (mode != 2) {
    W32(SOB_SET(p->sob), 0);
    for (unsigned i = 0; mode == 0 && i < p->slices; i++) {
      unsigned m = p->mon0 + i;
      W32(MON_WORD(m, 0), QM_FENCE(qd, 0));
      W32(MON_WORD(m, 1), 1);
      W32(MON_WORD(m, CP_MON_ARM_WORD), cp_arm_word(p->sob / 8u, 1u << (p->sob % 8u), i + 1, 0, 1));
    }
    W32(QM(qm, CB_BASE), CB_AREA(qm));
    W32(QM(qm, CB_SIZE), 4u * bm.n);
    W32(QM(qm, COMP_ADDR), p->flag);
    W32(QM(qm, COMP_DATA), 1);
    W32(QM(qm, CFG), QMAN__CFG__COMP_EN_bm);
  }
  if (mode != 1) {
    W32(QM(qd, CB_BASE), CB_AREA(qd));
    W32(QM(qd, CB_SIZE), 4u * bd.n);
    W32(QM(qd, COMP_ADDR), p->flag + 4u);
    W32(QM(qd, COMP_DATA), 1);
    W32(QM(qd, CFG), (p->tpc ? 0u : QMAN__CFG__DMA_bm) | QMAN__CFG__COMP_EN_bm);
  }
  /* doorbells: consumer first (it waits at its first fence), then the producer */
  uint64_t t0 = tsim_cycles(t->sim);
  if (mode != 1) W32(QM(qd, CTRL), QMAN__CTRL__START_bm);
  if (mode != 2) W32(QM(qm, CTRL), QMAN__CTRL__START_bm);
  /* until the later of the two completion messages */
  for (unsigned k = 0; k < 2; k++) {
    if ((k == 0 && mode == 2) || (k == 1 && mode == 1)) continue;
    uint32_t want[2] = {p->flag + 4u * k, 1};
    TF_CHECK_OK(t, tsim_run_until(t->sim, flag_pred, want, t->budget, 4));
  }
  *cycles = tsim_cycles(t->sim) - t0;
  if (mode != 2 && p->bench) {
    /* the MME's counters of the last slice (they restart at each job) */
    uint32_t busy = 0, sin = 0, sout = 0;
    R32(MME_REG(p->e, PERF_BUSY), &busy);
    R32(MME_REG(p->e, PERF_STALL_IN), &sin);
    R32(MME_REG(p->e, PERF_STALL_OUT), &sout);
    printf("CTRLBENCH   %s run, MME%u last slice: busy %u, stall in %u, stall out %u\n",
           mode == 1 ? "producer-only" : "pipelined", p->e, busy, sin, sout);
  }
  unsigned slots[2] = {qm, qd};
  for (unsigned k = 0; k < 2; k++) {
    if ((k == 0 && mode == 2) || (k == 1 && mode == 1)) continue;
    CALL(q_wait_idle(t, slots[k], 100000));
    uint32_t st = 0;
    R32(QM(slots[k], STATUS), &st);
    if (!(st & QMAN__STATUS__DONE_bm) || FIELD(st, QMAN__STATUS__ERR))
      return tf_fail(t, "pipeline queue slot %u: STATUS 0x%x", slots[k], st);
  }
  return TF_PASS;
}

static int pipe_check(tf_ctx_t *t, pipe_t *p) {
  CALL(gemm_check(t, &p->j, p->j.c, "pipeline GEMM"));  /* (flushes the L2) */
  uint32_t n = p->j.g.n, m = p->j.g.m;
  if (p->tpc) {
    /* golden relu of the golden C; the row padding of O keeps its canary */
    uint8_t *got = malloc(p->j.csz);
    tsim_mem_read(t->sim, p->ct, got, p->j.csz);
    int rc = TF_PASS;
    for (uint32_t row = 0; row < m && rc == TF_PASS; row++)
      for (uint32_t b = 0; b < p->j.ldc; b += 4) {
        size_t at = (size_t)row * p->j.ldc + b;
        uint32_t gw = (uint32_t)got[at] | (uint32_t)got[at + 1] << 8 | (uint32_t)got[at + 2] << 16 |
                      (uint32_t)got[at + 3] << 24;
        uint32_t exp = b < 4u * n ? tg_relu(mme_ld(p->j.cexp + at, 4))
                                  : (uint32_t)PIPE_CANARY(at) | (uint32_t)PIPE_CANARY(at + 1) << 8 |
                                        (uint32_t)PIPE_CANARY(at + 2) << 16 | (uint32_t)PIPE_CANARY(at + 3) << 24;
        if (gw != exp) {
          rc = tf_fail(t, "relu(C) row %u byte %u = 0x%08x, expected 0x%08x (%s)", row, b, gw, exp,
                       b < 4u * n ? "golden relu" : "canary in the row padding");
          break;
        }
      }
    free(got);
    return rc;
  }
  /* golden transpose of the golden C */
  for (uint32_t row = 0; row < n; row++)
    for (uint32_t col = 0; col < m; col++) {
      uint32_t exp = mme_ld(p->j.cexp + (size_t)col * p->j.ldc + 4u * row, 4);
      uint32_t got = tsim_mem_read32(t->sim, p->ct + 4u * (row * m + col));
      if (got != exp)
        return tf_fail(t, "transposed C[%u][%u] = 0x%08x, expected 0x%08x", row, col, got, exp);
    }
  return TF_PASS;
}

/* Consumer output cleared: zeros (DMA) or the canary (TPC), behind the L2. */
static void pipe_clear_out(tf_ctx_t *t, const pipe_t *p) {
  size_t sz = p->tpc ? p->j.csz : 4u * p->j.g.m * p->j.g.n;
  uint8_t *z = calloc(1, sz);
  for (size_t i = 0; p->tpc && i < sz; i++) z[i] = PIPE_CANARY(i);
  tsim_mem_write(t->sim, p->ct, z, sz);
  free(z);
}

static int pipe_setup(tf_ctx_t *t, pipe_t *p, uint32_t m, uint32_t n, uint32_t k, unsigned slices, int tpc,
                      int shared) {
  gm_init(&g_gm, t->sim);
  memset(p, 0, sizeof *p);
  p->slices = slices;
  p->tpc = tpc;
  p->shared = tpc || shared;
  /* DMA consumer: the DMA engine of the MME's DCORE: they share an L2 slice, so the
   * consumer sees the producer's C without maintenance (docs/l2.md, "Coherence
   * contract"); TPC consumer: shared mode */
  p->e = tf_rand_below(t, TESSERA_NUM_MME);
  p->d = p->e % TESSERA_DMA_ENGINES;
  p->sob = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8);
  p->mon0 = tf_rand_below(t, TESSERA_SYNC_MONITORS - slices + 1);
  CALL(q_init(t, QSLOT_MME(p->e), 0));
  if (tpc) {
    CALL(q_init(t, QSLOT_TPC, 0));
    CALL(chip_l2_all_shared(t));
    tpc_bundle_t *prog = NULL;
    uint32_t nb = 0;
    char err[512];
    if (tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &prog, &nb, err, sizeof err))
      return tf_fail(t, "assembler: %s", err);
    p->prog = HBM(0x7C000u);
    p->prog_len = nb;
    TF_CHECK_OK(t, tsim_mem_write(t->sim, p->prog, prog, 32u * nb));
    free(prog);
  } else {
    CALL(q_init(t, QSLOT_DMA(p->d), 1));
    if (p->shared) CALL(chip_l2_all_shared(t));
  }
  gemm_prepare(t, &p->j, HBM(0x200000u), m, n, k);
  p->ct = HBM(0x600000u);
  p->flag = HBM(0x7F000u);
  pipe_clear_out(t, p);
  return TF_PASS;
}

/* The pipeline's result equals the serial run's (golden) result. */
static int pipe_test(tf_ctx_t *t, uint32_t m, uint32_t n, uint32_t k, unsigned slices, int tpc) {
  pipe_t p;
  CALL(pipe_setup(t, &p, m, n, k, slices, tpc, 0));
  uint64_t cyc = 0;
  int rc = pipe_run(t, &p, 0, &cyc);
  if (rc == TF_PASS) rc = pipe_check(t, &p);
  if (rc == TF_PASS) tf_log(t, "pipeline GEMM %ux%ux%u -> %s in %u slices: %llu cycles", p.j.g.m, p.j.g.n, p.j.g.k,
                            tpc ? "TPC relu" : "DMA transpose", p.slices, (unsigned long long)cyc);
  free(p.j.cexp);
  return rc;
}
TF_TEST(ctrl, pipeline_gemm_transpose, 3000000) { return pipe_test(t, 4 * 16, 32, 256, 4, 0); }
TF_TEST(ctrl, pipeline_gemm_tpc, 3000000) {
  /* slice rows, columns (the relu's column chunks are 8 wide: not a multiple here) */
  return pipe_test(t, 4 * (4 + tf_rand_below(t, 13)), 20 + tf_rand_below(t, 30), 256, 4, 1);
}

/* ================================================================== benchmarks
 * (TF_BENCH: `./chip_tb --suite ctrl --test "ctrl/bench*"`, line `bench ctrl_chip`) */

/* Producer-only, consumer-only and pipelined runs of the same job; the target is
 * pipeline <= 1.15 x max(producer, consumer). Results checked after each run. */
static int bench_pipe(tf_ctx_t *t, uint32_t m, uint32_t n, uint32_t k, unsigned slices, int tpc, int shared) {
  pipe_t p;
  CALL(pipe_setup(t, &p, m, n, k, slices, tpc, shared));
  p.bench = 1;
  uint64_t cp = 0, cc = 0, cpl = 0;
  tsim_axistats_clear(t->sim);
  int rc = pipe_run(t, &p, 1, &cp);
  tsim_axistats_print(t->sim, "pipe/producer");
  if (rc == TF_PASS) rc = gemm_check(t, &p.j, p.j.c, "producer-only GEMM");
  tsim_axistats_clear(t->sim);
  if (rc == TF_PASS) rc = pipe_run(t, &p, 2, &cc);
  tsim_axistats_print(t->sim, "pipe/consumer");
  if (rc == TF_PASS) rc = pipe_check(t, &p);
  if (rc == TF_PASS) {
    /* clear both results, then the pipelined run */
    uint8_t *z = calloc(1, p.j.csz);
    tsim_mem_write(t->sim, p.j.c, z, p.j.csz);
    free(z);
    pipe_clear_out(t, &p);
    TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));  /* (flushed by pipe_check) */
    tsim_axistats_clear(t->sim);
    rc = pipe_run(t, &p, 0, &cpl);
    tsim_axistats_print(t->sim, "pipe/pipelined");
  }
  if (rc == TF_PASS) rc = pipe_check(t, &p);
  if (rc == TF_PASS) {
    uint64_t mx = cp > cc ? cp : cc;
    printf("CTRLBENCH pipeline GEMM %ux%ux%u -> %s, %u slices, L2 %s mode: producer-only %llu, consumer-only %llu, "
           "pipelined %llu cycles = %.3f x the longer (target <= 1.15), serial sum %llu\n",
           m, n, k, tpc ? "TPC relu" : "DMA transpose", slices, p.shared ? "shared" : "private", (unsigned long long)cp, (unsigned long long)cc, (unsigned long long)cpl,
           (double)cpl / (double)mx, (unsigned long long)(cp + cc));
    tf_bench(t, NULL, NULL, (double)cpl, (double)mx,
             "\"m\":%u,\"n\":%u,\"k\":%u,\"consumer\":\"%s\",\"slices\":%u,\"mode\":\"%s\",\"producer\":%llu,"
             "\"consumer_cycles\":%llu,\"target_ratio\":1.15",
             m, n, k, tpc ? "tpc" : "dma", slices, p.shared ? "shared" : "private", (unsigned long long)cp,
             (unsigned long long)cc);
  }
  free(p.j.cexp);
  return rc;
}
TF_TEST_F(ctrl, bench_pipeline_k32, 20000000, TF_BENCH) { return bench_pipe(t, 128, 128, 32, 8, 0, 0); }
TF_TEST_F(ctrl, bench_pipeline_k128, 40000000, TF_BENCH) { return bench_pipe(t, 128, 128, 128, 8, 0, 0); }
TF_TEST_F(ctrl, bench_pipeline_k32_shared, 20000000, TF_BENCH) { return bench_pipe(t, 128, 128, 32, 8, 0, 1); }
TF_TEST_F(ctrl, bench_pipeline_k128_shared, 40000000, TF_BENCH) { return bench_pipe(t, 128, 128, 128, 8, 0, 1); }
TF_TEST_F(ctrl, bench_pipeline_tpc_k32, 20000000, TF_BENCH) { return bench_pipe(t, 128, 128, 32, 8, 1, 0); }
TF_TEST_F(ctrl, bench_pipeline_tpc_k128, 40000000, TF_BENCH) { return bench_pipe(t, 128, 128, 128, 8, 1, 0); }
TF_TEST_F(ctrl, bench_pipeline_tpc_k512, 80000000, TF_BENCH) { return bench_pipe(t, 128, 128, 512, 8, 1, 0); }

/* Completion-flag poll that also traces DMA engine 0's read beats in flight and the beats
 * waiting in its data buffer (simulation probes, sampled every cycle in which either is
 * non-zero): the read-ahead depth the copy actually reaches. */
typedef struct {
  uint32_t want[2];
  unsigned d;
  uint64_t n, sum_outst, sum_buf, win_n, win_sum;
  uint32_t max_outst;
  unsigned nwin;
  uint32_t win_at[64];   /* average read beats in flight per 1024 sampled cycles */
} copy_trace_t;
static int copy_trace_pred(tsim_t *s, void *ctx) {
  copy_trace_t *c = ctx;
  tsim_probe_t p;
  tsim_probe(s, &p);
  uint32_t o = p.dma_rd_outst[c->d];
  if (o || p.dma_buf_beats[c->d]) {
    c->n++;
    c->sum_outst += o;
    c->sum_buf += p.dma_buf_beats[c->d];
    if (o > c->max_outst) c->max_outst = o;
    c->win_sum += o;
    if (++c->win_n == 1024u) {
      if (c->nwin < 64u) c->win_at[c->nwin++] = (uint32_t)(c->win_sum / 1024u);
      c->win_n = c->win_sum = 0;
    }
  }
  return tsim_mem_read32(s, c->want[0]) == c->want[1];
}

/* DMA-queue copy throughput: one LIN_DMA of `bytes` per engine (all engines at once
 * when `all`), measured by the engine (PERF_BUSY) and from the doorbell to the
 * completion message; peak = one 32-byte beat per cycle read and written per engine. */
/* wr_alloc 0: the engine's CACHE register without WR_ALLOC, so the slice posts the copy's
 * writes through (a streaming copy whose destination is not read again soon) */
static int bench_copy(tf_ctx_t *t, uint32_t bytes, int all, int wr_alloc) {
  gm_init(&g_gm, t->sim);
  unsigned nd = all ? TESSERA_DMA_ENGINES : 1;
  uint32_t flag = HBM(0x7F000u);
  for (unsigned d = 0; d < nd; d++) {
    unsigned slot = QSLOT_DMA(d);
    CALL(q_init(t, slot, 1));
    uint32_t w[16];
    cp_buf_t b;
    cp_buf_init(&b, w, 16);
    if (!wr_alloc) cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CACHE), DMA__CACHE__RD_ALLOC_bm);
    cp_lin_dma(&b, 0, HBM(0x1000000u) + d * 2 * bytes, HBM(0x1000000u) + (2 * d + 1) * bytes, bytes);
    cp_stop(&b, CP_HDR_EB);
    CALL(q_program_flag(t, slot, &b, flag + 4u * d));
  }
  CALL(img_open(t, HBM(0x1000000u), 2 * nd * bytes));
  for (unsigned d = 0; d < nd; d++)
    img_copy(HBM(0x1000000u) + d * 2 * bytes, HBM(0x1000000u) + (2 * d + 1) * bytes, bytes);
  /* the slice counters of each engine's DCORE (DMA d uses port 2 of slice d), before */
  enum { NC = 5 };
  static const uint32_t l2c_off[NC] = {offsetof(l2_t, HITS), offsetof(l2_t, MISSES), offsetof(l2_t, EVICTIONS),
                                       offsetof(l2_t, WRITEBACKS), offsetof(l2_t, STALLS)};
  uint32_t c0[TESSERA_DMA_ENGINES][NC];
  for (unsigned d = 0; d < nd; d++)
    for (unsigned i = 0; i < NC; i++) R32(TESSERA_L2_ADDR(d) + l2c_off[i], &c0[d][i]);
  tsim_axistats_clear(t->sim);
  uint64_t t0 = tsim_cycles(t->sim);
  for (unsigned d = 0; d < nd; d++) W32(QM(QSLOT_DMA(d), CTRL), QMAN__CTRL__START_bm);
  static copy_trace_t tr;
  memset(&tr, 0, sizeof tr);
  for (unsigned d = 0; d < nd; d++) {
    uint32_t want[2] = {flag + 4u * d, 1};
    if (d == 0) {
      tr.want[0] = want[0];
      tr.want[1] = want[1];
      TF_CHECK_OK(t, tsim_run_until(t->sim, copy_trace_pred, &tr, t->budget, 1));
    } else {
      TF_CHECK_OK(t, tsim_run_until(t->sim, flag_pred, want, t->budget, 4));
    }
  }
  uint64_t total = tsim_cycles(t->sim) - t0;
  tsim_axistats_print(t->sim, all ? "copy/all" : "copy");
  if (tr.n) {
    printf("CTRLBENCH   DMA 0 read-ahead trace: %llu cycles with reads in flight or data buffered; read beats "
           "in flight avg %.1f, max %u (buffer %u beats); beats buffered avg %.1f; per 1024 cycles:",
           (unsigned long long)tr.n, (double)tr.sum_outst / tr.n, tr.max_outst, TESSERA_DMA_BUF_BEATS,
           (double)tr.sum_buf / tr.n);
    for (unsigned i = 0; i < tr.nwin; i++) printf(" %u", tr.win_at[i]);
    printf("\n");
  }
  for (unsigned d = 0; d < nd; d++) {
    uint32_t busy = 0, wstall = 0, c1[NC];
    R32(DMA_REG(d, PERF_BUSY), &busy);
    R32(DMA_REG(d, PERF_STALL), &wstall);
    for (unsigned i = 0; i < NC; i++) R32(TESSERA_L2_ADDR(d) + l2c_off[i], &c1[i]);
    double beats = bytes / 32.0;
    printf("CTRLBENCH dma copy %u KiB, %u engine(s)%s: DMA %u: engine busy %u cycles (%.1f%% of 1 beat/cycle), "
           "doorbell to completion message %llu cycles (%.1f%%)\n",
           bytes / 1024u, nd, wr_alloc ? "" : ", writes not allocating", d, busy, 100.0 * beats / busy, (unsigned long long)total, 100.0 * beats / total);
    /* where the cycles go: the DMA's write side waiting for read data = read-bound */
    printf("CTRLBENCH   DMA %u: write side waited for read data %u cycles (%.1f%% of busy); slice %u: hits %u, "
           "misses %u, evictions %u, write-backs %u, cycles with an engine stalled %u\n",
           d, wstall, 100.0 * wstall / busy, d, c1[0] - c0[d][0], c1[1] - c0[d][1], c1[2] - c0[d][2],
           c1[3] - c0[d][3], c1[4] - c0[d][4]);
    char sub[16];
    snprintf(sub, sizeof sub, "dma%u", d);
    tf_bench(t, sub, NULL, busy, beats,
             "\"kib\":%u,\"engines\":%u,\"wr_alloc\":%s,\"total\":%llu,\"wait_read\":%u,\"hits\":%u,"
             "\"misses\":%u,\"evictions\":%u,\"writebacks\":%u,\"stalled\":%u",
             bytes / 1024u, nd, wr_alloc ? "true" : "false", (unsigned long long)total, wstall, c1[0] - c0[d][0],
             c1[1] - c0[d][1], c1[2] - c0[d][2], c1[3] - c0[d][3], c1[4] - c0[d][4]);
  }
  if (nd > 1)
    printf("CTRLBENCH dma copy aggregate: %.2f HBM beats/cycle (reads + writes) of a peak of %u (%u channels, "
           "R and W share a channel's 32 B/cycle): %.1f%%\n",
           2.0 * nd * bytes / 32.0 / total, TESSERA_HBM_CHANNELS, TESSERA_HBM_CHANNELS,
           100.0 * 2.0 * nd * bytes / 32.0 / total / TESSERA_HBM_CHANNELS);
  if (nd > 1)
    tf_bench(t, "aggregate", NULL, (double)total, 2.0 * nd * bytes / 32.0 / TESSERA_HBM_CHANNELS,
             "\"engines\":%u,\"kib\":%u,\"wr_alloc\":%s,\"channels\":%u", nd, bytes / 1024u,
             wr_alloc ? "true" : "false", TESSERA_HBM_CHANNELS);
  return img_check(t, "DMA bench copy");
}
TF_TEST_F(ctrl, bench_dma_copy_256k, 2000000, TF_BENCH) { return bench_copy(t, 256u * 1024u, 0, 1); }
TF_TEST_F(ctrl, bench_dma_copy_256k_all, 2000000, TF_BENCH) { return bench_copy(t, 256u * 1024u, 1, 1); }
TF_TEST_F(ctrl, bench_dma_copy_256k_nalloc, 2000000, TF_BENCH) { return bench_copy(t, 256u * 1024u, 0, 0); }
TF_TEST_F(ctrl, bench_dma_copy_256k_all_nalloc, 2000000, TF_BENCH) { return bench_copy(t, 256u * 1024u, 1, 0); }

/* DMA queue 0 ready, an image of [src, src + 2 * bytes) with random data (source, then
 * destination) and *d cleared with src and dst set. */
static int dma0_bench_setup(tf_ctx_t *t, uint32_t bytes, dma_desc_t *d) {
  gm_init(&g_gm, t->sim);
  CALL(q_init(t, QSLOT_DMA(0), 1));
  memset(d, 0, sizeof *d);
  d->src = HBM(0x1000000u);
  d->dst = d->src + bytes;
  return img_open(t, d->src, 2 * bytes);
}
/* Run buffer b alone on DMA queue 0 (completion flag at HBM 0x7F000) and return the
 * engine's busy cycles and the doorbell -> completion cycles; the engine must end
 * without error. */
static int dma0_bench_run(tf_ctx_t *t, const cp_buf_t *b, uint32_t *busy, uint64_t *total) {
  unsigned slot = QSLOT_DMA(0);
  uint32_t flag = HBM(0x7F000u), st = 0;
  CALL(q_program_flag(t, slot, b, flag));
  /* where the cycles go (printed below): read beats in flight, the write side waiting
   * for read data (PERF_STALL) and slice 0's counters over the run */
  enum { NC = 5 };
  static const uint32_t l2c_off[NC] = {offsetof(l2_t, HITS), offsetof(l2_t, MISSES), offsetof(l2_t, EVICTIONS),
                                       offsetof(l2_t, WRITEBACKS), offsetof(l2_t, STALLS)};
  uint32_t c0[NC], c1[NC], wstall = 0;
  for (unsigned i = 0; i < NC; i++) R32(TESSERA_L2_ADDR(0) + l2c_off[i], &c0[i]);
  uint64_t t0 = tsim_cycles(t->sim);
  W32(QM(slot, CTRL), QMAN__CTRL__START_bm);
  static copy_trace_t tr;
  memset(&tr, 0, sizeof tr);
  tr.want[0] = flag;
  tr.want[1] = 1;
  TF_CHECK_OK(t, tsim_run_until(t->sim, copy_trace_pred, &tr, t->budget, 1));
  *total = tsim_cycles(t->sim) - t0;
  R32(DMA_REG(0, PERF_BUSY), busy);
  R32(DMA_REG(0, PERF_STALL), &wstall);
  R32(DMA_REG(0, STATUS), &st);
  for (unsigned i = 0; i < NC; i++) R32(TESSERA_L2_ADDR(0) + l2c_off[i], &c1[i]);
  printf("CTRLBENCH   DMA 0: read beats in flight avg %.1f, max %u; write side waited for read data %u cycles "
         "(%.1f%% of busy); slice 0: hits %u, misses %u, evictions %u, write-backs %u, cycles with an engine "
         "stalled %u\n", tr.n ? (double)tr.sum_outst / tr.n : 0.0, tr.max_outst, wstall,
         *busy ? 100.0 * wstall / *busy : 0.0, c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2], c1[3] - c0[3],
         c1[4] - c0[4]);
  TF_CHECK_EQ(t, FIELD(st, DMA__STATUS__ERR), 0);
  return TF_PASS;
}

/* Transpose throughput at chip level: one mode-3 transpose of a rows x row_bytes matrix
 * (elements of e bytes) from a DMA queue through the DMA's cold L2 slice (source read
 * allocating, the transposed rows written with or without allocation: paired tiles with
 * full-line writes, or one-beat tiles, docs/dma.md), checked against the golden model. Utilization = beats written / engine busy cycles (1 beat per cycle = the port's
 * peak). */
static int bench_transpose_run(tf_ctx_t *t, uint32_t rows, uint32_t row_bytes, uint32_t e, int wr_alloc, int hash);
/* hash: the slices' set-index hash on (CTRL.set_hash, docs/l2.md "Banks") for the run */
static int bench_transpose(tf_ctx_t *t, uint32_t rows, uint32_t row_bytes, uint32_t e, int wr_alloc, int hash) {
  int rc = hash ? chip_l2_set_hash(t, 1) : TF_PASS;
  if (rc == TF_PASS) rc = bench_transpose_run(t, rows, row_bytes, e, wr_alloc, hash);
  if (hash && rc == TF_PASS) rc = chip_l2_set_hash(t, 0);
  return rc;
}
static int bench_transpose_run(tf_ctx_t *t, uint32_t rows, uint32_t row_bytes, uint32_t e, int wr_alloc, int hash) {
  uint32_t bytes = rows * row_bytes;
  dma_desc_t d;
  CALL(dma0_bench_setup(t, bytes, &d));
  uint32_t src = d.src, dst = d.dst;
  d.mode = DMA_MODE_TRANSPOSE;
  d.size = row_bytes;
  d.c1 = rows;
  d.c2 = 1;
  d.ss1 = row_bytes;
  d.ds1 = rows * e;
  d.ebytes = e;
  TF_CHECK_EQ(t, dma_model_check(&d, TESSERA_HBM_BASE, TESSERA_HBM_SIZE, TESSERA_HOST_BASE, TESSERA_HOST_SIZE), 0);
  dma_model_run(&d, img_rd, img_wr);
  uint32_t w[64];
  cp_buf_t b;
  cp_buf_init(&b, w, 64);
  uint32_t strides[6] = {rows, 1, d.ss1, 0, d.ds1, 0};
  uint32_t go[4] = {src, dst, row_bytes,
                    DMA__CTRL__GO_bm | (3u << DMA__CTRL__MODE_bp) | (e == 4 ? DMA__CTRL__ESIZE_bm : 0u)};
  cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CACHE), DMA__CACHE__RD_ALLOC_bm | (wr_alloc ? DMA__CACHE__WR_ALLOC_bm : 0u));
  cp_wreg_bulk(&b, 0, (uint32_t)offsetof(dma_t, COUNT1), 6, strides);
  cp_wreg_bulk(&b, 0, (uint32_t)offsetof(dma_t, SRC), 4, go);
  cp_stop(&b, CP_HDR_EB);
  uint32_t busy = 0;
  uint64_t total = 0;
  tsim_axistats_clear(t->sim);
  CALL(dma0_bench_run(t, &b, &busy, &total));
  tsim_axistats_print(t->sim, e == 4 ? "transpose/e4" : "transpose/e2");
  double beats = bytes / 32.0;
  printf("CTRLBENCH dma transpose %u x %u B (%u-byte elements, %u KiB, writes %sallocating%s): engine busy %u cycles (%.1f%% of 1 beat/cycle), "
         "doorbell to completion %llu cycles (%.1f%%)\n", rows, row_bytes, e, bytes / 1024u, wr_alloc ? "" : "not ",
         hash ? ", L2 set hash" : "", busy, 100.0 * beats / busy,
         (unsigned long long)total, 100.0 * beats / total);
  tf_bench(t, NULL, NULL, busy, beats,
           "\"rows\":%u,\"row_bytes\":%u,\"elem\":%u,\"kib\":%u,\"wr_alloc\":%s,\"set_hash\":%s,\"total\":%llu",
           rows, row_bytes, e, bytes / 1024u, wr_alloc ? "true" : "false", hash ? "true" : "false",
           (unsigned long long)total);
  return img_check(t, "DMA bench transpose");
}
TF_TEST_F(ctrl, bench_dma_transpose_e4, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 4, 1, 0); }
TF_TEST_F(ctrl, bench_dma_transpose_e2, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 2, 1, 0); }
TF_TEST_F(ctrl, bench_dma_transpose_e4_nalloc, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 4, 0, 0); }
TF_TEST_F(ctrl, bench_dma_transpose_e2_nalloc, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 2, 0, 0); }
/* the same with the slices' set-index hash (rows 1 KiB apart then spread over sets and banks) */
TF_TEST_F(ctrl, bench_dma_transpose_e4_hash, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 4, 1, 1); }
TF_TEST_F(ctrl, bench_dma_transpose_e2_hash, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 2, 1, 1); }
TF_TEST_F(ctrl, bench_dma_transpose_e4_nalloc_hash, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 4, 0, 1); }
TF_TEST_F(ctrl, bench_dma_transpose_e2_nalloc_hash, 4000000, TF_BENCH) { return bench_transpose(t, 256, 1024, 2, 0, 1); }

/* The transpose's read pattern without its writes: a strided copy that reads a 256 x 1 KiB
 * matrix in column blocks of `blk` bytes (row stride 1 KiB, one plane per block) and writes
 * them as contiguous rows (full lines, allocating). Bounds what a transpose through the
 * slice could reach if its writes were full lines (docs/dma.md "Transposes in the chip"). */
static int bench_colblocks(tf_ctx_t *t, uint32_t blk) {
  const uint32_t rows = 256, rb = 1024, bytes = rows * rb;
  dma_desc_t d;
  CALL(dma0_bench_setup(t, bytes, &d));
  uint32_t src = d.src, dst = d.dst;
  d.mode = DMA_MODE_STRIDED;
  d.size = blk;
  d.c1 = rows;
  d.c2 = rb / blk;
  d.ss1 = rb;
  d.ss2 = blk;
  d.ds1 = blk;
  d.ds2 = rows * blk;
  TF_CHECK_EQ(t, dma_model_check(&d, TESSERA_HBM_BASE, TESSERA_HBM_SIZE, TESSERA_HOST_BASE, TESSERA_HOST_SIZE), 0);
  dma_model_run(&d, img_rd, img_wr);
  uint32_t w[32];
  cp_buf_t b;
  cp_buf_init(&b, w, 32);
  uint32_t strides[6] = {d.c1, d.c2, d.ss1, d.ss2, d.ds1, d.ds2};
  uint32_t go[4] = {src, dst, blk, DMA__CTRL__GO_bm | ((uint32_t)DMA_MODE_STRIDED << DMA__CTRL__MODE_bp)};
  cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CACHE), DMA__CACHE__RD_ALLOC_bm | DMA__CACHE__WR_ALLOC_bm);
  cp_wreg_bulk(&b, 0, (uint32_t)offsetof(dma_t, COUNT1), 6, strides);
  cp_wreg_bulk(&b, 0, (uint32_t)offsetof(dma_t, SRC), 4, go);
  cp_stop(&b, CP_HDR_EB);
  uint32_t busy = 0;
  uint64_t total = 0;
  CALL(dma0_bench_run(t, &b, &busy, &total));
  printf("CTRLBENCH dma strided copy of 256 x 1 KiB in %u-byte column blocks (a transpose's reads, full-line "
         "writes): engine busy %u cycles (%.1f%% of 1 beat/cycle)\n", blk, busy, 100.0 * bytes / 32.0 / busy);
  tf_bench(t, NULL, NULL, busy, bytes / 32.0, "\"block\":%u", blk);
  return img_check(t, "DMA bench column blocks");
}
TF_TEST_F(ctrl, bench_dma_colblocks_64, 4000000, TF_BENCH) { return bench_colblocks(t, 64); }
TF_TEST_F(ctrl, bench_dma_colblocks_128, 4000000, TF_BENCH) { return bench_colblocks(t, 128); }
TF_TEST_F(ctrl, bench_dma_colblocks_256, 4000000, TF_BENCH) { return bench_colblocks(t, 256); }

/* Tensor-copy throughput at chip level (docs/dma.md "Tensor copy"): one tensor copy from
 * a DMA queue through the cold L2 slice, checked against the golden model: `contig` a
 * 2-D FP32 tensor [256][256] copied whole (dim 0 contiguous: the burst path), else the
 * same tensor transposed by strides (the element path, one element per cycle at best).
 * Utilization = bytes / 32 / engine busy cycles. */
static int bench_tensor(tf_ctx_t *t, int contig) {
  gm_init(&g_gm, t->sim);
  unsigned slot = QSLOT_DMA(0);
  CALL(q_init(t, slot, 1));
  const uint32_t n = contig ? 256 : 128, bytes = n * n * 4u;
  uint32_t src = HBM(0x1000000u), dst = HBM(0x1000000u) + bytes;
  CALL(img_open(t, src, 2 * bytes));
  uint32_t sw[16], dw[16], sz[2] = {n, n};
  int32_t sst[2] = {1, (int32_t)n}, dst_st[2] = {1, (int32_t)n}, off[5] = {0, 0, 0, 0, 0};
  if (!contig) { sst[0] = (int32_t)n; sst[1] = 1; }   /* dst[r][c] = src[c][r] */
  tdesc_put(t, sw, src, 0 /* FP32 */, 2, sz, sst);
  tdesc_put(t, dw, dst, 0, 2, sz, dst_st);
  uint32_t sdesc = HBM(0xF0000u), ddesc = sdesc + 64u;
  TF_CHECK_OK(t, tsim_mem_write(t->sim, sdesc, sw, 64));
  TF_CHECK_OK(t, tsim_mem_write(t->sim, ddesc, dw, 64));
  TF_CHECK_EQ(t, dma_tensor_check(sw, dw, sdesc, ddesc, TESSERA_HBM_BASE, TESSERA_HBM_SIZE), 0);
  dma_tensor_run(sw, dw, off, img_rd, img_wr);
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));   /* descriptors written behind the L2 */
  uint32_t w[32];
  cp_buf_t b;
  cp_buf_init(&b, w, 32);
  uint32_t regs[7] = {sdesc, ddesc, 0, 0, 0, 0, 0};
  cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CACHE), DMA__CACHE__RD_ALLOC_bm | (contig ? DMA__CACHE__WR_ALLOC_bm : 0u));
  cp_wreg_bulk(&b, 0, (uint32_t)offsetof(dma_t, TSRC), 7, regs);
  cp_wreg32(&b, 0, (uint32_t)offsetof(dma_t, CTRL), DMA__CTRL__GO_bm | DMA__CTRL__TENSOR_bm);
  cp_stop(&b, CP_HDR_EB);
  uint32_t busy = 0;
  uint64_t total = 0;
  CALL(dma0_bench_run(t, &b, &busy, &total));
  printf("CTRLBENCH dma tensor copy FP32 [%u][%u]%s (%u KiB): engine busy %u cycles (%.1f%% of 1 beat/cycle), "
         "doorbell to completion %llu cycles\n", n, n, contig ? ", contiguous" : " transposed by strides",
         bytes / 1024u, busy, 100.0 * bytes / 32.0 / busy, (unsigned long long)total);
  tf_bench(t, NULL, NULL, busy, bytes / 32.0, "\"n\":%u,\"contiguous\":%s,\"kib\":%u,\"total\":%llu", n,
           contig ? "true" : "false", bytes / 1024u, (unsigned long long)total);
  return img_check(t, "DMA bench tensor copy");
}
TF_TEST_F(ctrl, bench_dma_tensor_contig, 4000000, TF_BENCH) { return bench_tensor(t, 1); }
TF_TEST_F(ctrl, bench_dma_tensor_transpose, 8000000, TF_BENCH) { return bench_tensor(t, 0); }

/* Host<->device copy throughput (docs/dma.md "Host port"): 256 KiB from host memory to
 * device memory (h2d) or back (d2h) on DMA queue 0, or both directions at once on both
 * DMA engines (each engine one direction: the host link carries R and W together). The
 * host-memory model's defaults: 200-cycle read latency, 16 bytes/cycle shared by reads
 * and writes. Utilization = bytes / cycles / host-link bytes per cycle. */
static int bench_host(tf_ctx_t *t, uint32_t bytes, int dir) {   /* dir 0 h2d, 1 d2h, 2 both */
  gm_init(&g_gm, t->sim);
  unsigned nd = dir == 2 ? 2u : 1u;
  if (nd > TESSERA_DMA_ENGINES) return tf_skip(t, "one DMA engine");
  uint32_t flag = HBM(0x7F000u);
  CALL(img_open(t, HBM(0x1000000u), 2 * bytes));
  CALL(himg_open(t, HOSTA(0x1000000u), 2 * bytes));
  for (unsigned d = 0; d < nd; d++) {
    unsigned slot = QSLOT_DMA(d), up = dir == 2 ? d : (unsigned)dir;   /* up: device -> host */
    CALL(q_init(t, slot, 1));
    uint32_t w[16];
    cp_buf_t b;
    cp_buf_init(&b, w, 16);
    uint32_t src = up ? HBM(0x1000000u) : HOSTA(0x1000000u), dst = up ? HOSTA(0x1000000u + bytes)
                                                                      : HBM(0x1000000u + bytes);
    cp_lin_dma(&b, 0, src, dst, bytes);
    cp_stop(&b, CP_HDR_EB);
    img_copy(src, dst, bytes);
    CALL(q_program_flag(t, slot, &b, flag + 4u * d));
  }
  TF_CHECK_OK(t, tsim_l2_invalidate_all(t->sim));
  uint64_t t0 = tsim_cycles(t->sim);
  for (unsigned d = 0; d < nd; d++) W32(QM(QSLOT_DMA(d), CTRL), QMAN__CTRL__START_bm);
  for (unsigned d = 0; d < nd; d++) {
    uint32_t want[2] = {flag + 4u * d, 1};
    TF_CHECK_OK(t, tsim_run_until(t->sim, flag_pred, want, t->budget, 4));
  }
  uint64_t total = tsim_cycles(t->sim) - t0;
  static const char *const dname[] = {"host->device", "device->host", "both directions (2 engines)"};
  for (unsigned d = 0; d < nd; d++) {
    uint32_t busy = 0;
    R32(DMA_REG(d, PERF_BUSY), &busy);
    printf("CTRLBENCH dma host %s %u KiB: DMA %u busy %u cycles = %.2f B/cycle (%.1f%% of the %u B/cycle host "
           "link)\n", dname[dir], bytes / 1024u, d, busy, (double)bytes / busy,
           100.0 * bytes / busy / TESSERA_HOST_BYTES_PER_CYCLE, TESSERA_HOST_BYTES_PER_CYCLE);
    char sub[16];
    snprintf(sub, sizeof sub, "dma%u", d);
    tf_bench(t, sub, NULL, busy, (double)bytes / TESSERA_HOST_BYTES_PER_CYCLE, "\"direction\":\"%s\",\"kib\":%u",
             dname[dir], bytes / 1024u);
  }
  printf("CTRLBENCH dma host %s %u KiB: doorbell to last completion %llu cycles, %.2f B/cycle over the host link "
         "(%.1f%% of %u B/cycle; host read latency %u)\n", dname[dir], bytes / 1024u, (unsigned long long)total,
         (double)nd * bytes / total, 100.0 * nd * bytes / total / TESSERA_HOST_BYTES_PER_CYCLE,
         TESSERA_HOST_BYTES_PER_CYCLE, TESSERA_HOST_LATENCY_CYCLES);
  tf_bench(t, "total", NULL, (double)total, (double)nd * bytes / TESSERA_HOST_BYTES_PER_CYCLE,
           "\"direction\":\"%s\",\"kib\":%u,\"engines\":%u,\"host_latency\":%u", dname[dir], bytes / 1024u, nd,
           TESSERA_HOST_LATENCY_CYCLES);
  CALL(himg_check(t, "host bench (host memory)"));
  return img_check(t, "host bench (device memory)");
}
TF_TEST_F(ctrl, bench_dma_host_h2d, 2000000, TF_BENCH) { return bench_host(t, 256u * 1024u, 0); }
TF_TEST_F(ctrl, bench_dma_host_d2h, 2000000, TF_BENCH) { return bench_host(t, 256u * 1024u, 1); }
TF_TEST_F(ctrl, bench_dma_host_both, 2000000, TF_BENCH) { return bench_host(t, 256u * 1024u, 2); }

/* Sync-Manager object update -> waiting engine start (target <= 10 cycles). A DMA
 * queue waits at `FENCE 0, 1` before a LIN_DMA; a monitor on an object adds 1 to that
 * fence. The object update comes from another queue's MSG_SHORT (the producer), so no
 * host access is in flight. Measured with the simulator's probes: from the cycle the
 * Sync Manager applies the object write to the cycle the DMA queue manager selects
 * the DMA's registers (first register write of the LIN_DMA). */
TF_TEST_F(ctrl, bench_fence_latency, 2000000, TF_BENCH) {
  gm_init(&g_gm, t->sim);
  unsigned qp = QSLOT_MME(0), reps = 8;
  uint64_t lmin = ~0ull, lmax = 0, lsum = 0;
  for (unsigned r = 0; r < reps; r++) {
    unsigned d = r % TESSERA_DMA_ENGINES, qd = QSLOT_DMA(d);
    unsigned sob = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8), mon = tf_rand_below(t, 64);
    CALL(q_init(t, qd, 1));
    CALL(q_init(t, qp, 0));
    W32(SOB_SET(sob), 0);
    W32(MON_WORD(mon, 0), QM_FENCE(qd, 0));
    W32(MON_WORD(mon, 1), 1);
    W32(MON_WORD(mon, CP_MON_ARM_WORD), cp_arm_word(sob / 8u, 1u << (sob % 8u), 1, 0, 1));
    uint32_t wd[16], wp[16];
    cp_buf_t bd, bp;
    cp_buf_init(&bd, wd, 16);
    cp_fence(&bd, 0, 0, 1);
    cp_lin_dma(&bd, 0, HBM(0x100000u), HBM(0x180000u), 1024);
    cp_stop(&bd, CP_HDR_EB);
    cp_buf_init(&bp, wp, 16);
    cp_wait(&bp, 0, 200);
    cp_msg_short(&bp, 0, sob, 1, 1);
    cp_stop(&bp, 0);
    CALL(q_submit(t, qd, CB_AREA(qd), &bd, 0, 0));
    CALL(q_submit(t, qp, CB_AREA(qp), &bp, 0, 0));
    uint64_t t_upd = 0, t_eng = 0;
    for (uint64_t c = 0; c < 5000 && !t_eng; c++) {
      TF_CHECK_OK(t, tsim_step(t->sim, 1));
      tsim_probe_t pr;
      tsim_probe(t->sim, &pr);
      if (pr.sm_object_update && !t_upd) t_upd = tsim_cycles(t->sim);
      if (t_upd && ((pr.qman_eng_sel >> qd) & 1u)) t_eng = tsim_cycles(t->sim);
    }
    if (!t_upd || !t_eng) return tf_fail(t, "no object update / engine start seen (run %u)", r);
    uint64_t l = t_eng - t_upd;
    lmin = l < lmin ? l : lmin;
    lmax = l > lmax ? l : lmax;
    lsum += l;
    CALL(q_wait_idle(t, qd, 100000));
    CALL(q_wait_idle(t, qp, 100000));
    uint32_t st = 0;
    R32(QM(qd, STATUS), &st);
    TF_CHECK(t, (st & QMAN__STATUS__DONE_bm) && !FIELD(st, QMAN__STATUS__ERR));
  }
  printf("CTRLBENCH object update -> waiting engine start: min %llu, mean %.1f, max %llu cycles over %u runs "
         "(target <= 10)\n", (unsigned long long)lmin, (double)lsum / reps, (unsigned long long)lmax, reps);
  tf_bench(t, NULL, NULL, (double)lmax, 0, "\"min\":%llu,\"mean\":%.6g,\"runs\":%u,\"target\":10",
           (unsigned long long)lmin, (double)lsum / reps, reps);
  return TF_PASS;
}
