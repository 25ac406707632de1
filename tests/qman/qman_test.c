/* tessera_qman block tests. Command buffers are built with the golden model's
 * builder (tests/golden/cp_model.c), executed by the RTL and by the model, and
 * every engine register write, message, the final status/PC, the packet count
 * and the fence counters are compared. Barrier bits are checked on the RTL's
 * event timing. Usage: Vtessera_qman [--seed N] [--fuzz N] [--test NAME] [--bench]
 * Prints its seed; the last line is "N passed, M failed". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cp_model.h"
#include "qtb_drv.h"
#include "regs/qman_regs.h"
#include "tessera_cfg.h"
#include "../framework/bench_rec.h"
#include "../framework/tf_seed.h"

#define OFF(f) ((uint32_t)offsetof(qman_t, f))
#define FENCE_OFF(i) (OFF(FENCE) + 4u * (i))

static uint64_t rng_state;
static char fail_msg[512];
static cp_queue_t q;          /* model queue: fence counters persist across runs */
static uint32_t cnt_pkts_rtl; /* last CNT_PKTS read */

static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}
static int chance(unsigned pct) { return rnd() % 100 < pct; }

#define CHECK(cond, ...) do { if (!(cond)) { snprintf(fail_msg, sizeof fail_msg, __VA_ARGS__); return 1; } } while (0)

/* ------------------------------------------------------------ one run */
typedef struct {
  cp_qcfg_t c;
  int timeout_mode;         /* FENCE_TIMEOUT set; the blocking fence is not fed */
  uint32_t fence_timeout;
  long apb_err_at;
  unsigned feed_delay_max;  /* cycles between fence feeds */
  uint64_t max_cycles;
  int reset_after;          /* CTRL.reset after the run */
} run_opts_t;

#define MAXEV 20000
static cp_event_t exp_reg[MAXEV], exp_msg[MAXEV], exp_all[2 * MAXEV];
static unsigned n_exp_reg, n_exp_msg, n_exp_all;
static qtb_ev_t got_reg[MAXEV], got_msg[MAXEV];
static unsigned n_got_reg, n_got_msg;
static struct { uint32_t id, val; } feeds[64];
static unsigned n_feeds;

static void ev_sink(void *ctx, const cp_event_t *e) {
  (void)ctx;
  if (n_exp_all < 2 * MAXEV) exp_all[n_exp_all++] = *e;
  if (e->kind == CP_EV_REG && n_exp_reg < MAXEV) exp_reg[n_exp_reg++] = *e;
  if (e->kind == CP_EV_MSG && n_exp_msg < MAXEV) exp_msg[n_exp_msg++] = *e;
}
static int mem_rd(void *ctx, uint32_t addr, uint32_t *v) { (void)ctx; return qtb_mem_read32(addr, v); }

static void collect(void) {
  qtb_ev_t e;
  while (qtb_reg_pop(&e)) if (n_got_reg < MAXEV) got_reg[n_got_reg++] = e;
  while (qtb_msg_pop(&e)) if (n_got_msg < MAXEV) got_msg[n_got_msg++] = e;
}

static unsigned stat_done, stat_err[16], stat_runs;

static int run_cb(const uint32_t *w, uint32_t nwords, const run_opts_t *o) {
  const cp_qcfg_t *c = &o->c;
  /* the buffer goes to memory at cb_base (even when cb_base is bad, if it fits) */
  for (uint32_t i = 0; i < nwords; i++) qtb_mem_write32(c->cb_base + 4 * i, w[i]);
  /* registers */
  qtb_apb_write(OFF(CB_BASE), c->cb_base);
  qtb_apb_write(OFF(CB_SIZE), c->cb_size);
  qtb_apb_write(OFF(CFG), (c->dma ? QMAN__CFG__DMA_bm : 0) | (c->comp_en ? QMAN__CFG__COMP_EN_bm : 0));
  qtb_apb_write(OFF(COMP_ADDR), c->comp_addr);
  qtb_apb_write(OFF(COMP_DATA), c->comp_data);
  qtb_apb_write(OFF(WIN_LIMIT), c->win_limit);
  qtb_apb_write(OFF(SOB_SET_BASE), c->sob_set_base);
  qtb_apb_write(OFF(SOB_ADD_BASE), c->sob_add_base);
  qtb_apb_write(OFF(FENCE_TIMEOUT), o->timeout_mode ? o->fence_timeout : 0);
  qtb_apb_write(OFF(LDMA_OFF), c->ldma_off);
  /* model */
  n_exp_reg = n_exp_msg = n_exp_all = n_got_reg = n_got_msg = n_feeds = 0;
  cp_q_start(&q, c);
  for (;;) {
    int st = cp_q_run(&q, c, mem_rd, NULL, ev_sink, NULL, o->apb_err_at);
    if (st != CP_Q_BLOCKED) break;
    if (o->timeout_mode || n_feeds == 64) { cp_q_fence_timeout(&q); break; }
    /* feed the fence it waits on: target - current + a little */
    uint32_t w0, w1;
    qtb_mem_read32(q.pc, &w0);
    qtb_mem_read32(q.pc + 4, &w1);
    uint32_t id = (w0 >> 16) & 3u, add = (w1 & 0xFFFFu) - q.fence[id] + rnd() % 3;
    feeds[n_feeds].id = id;
    feeds[n_feeds].val = add;
    n_feeds++;
    cp_q_fence_add(&q, id, add);
  }
  /* RTL */
  uint32_t pkts0;
  qtb_apb_read(OFF(CNT_PKTS), &pkts0);
  qtb_set_apb_err_at(o->apb_err_at);
  qtb_events_clear();
  uint64_t t0 = qtb_cycle();
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__START_bm);
  unsigned fed = 0;
  uint64_t next_feed = qtb_cycle() + (o->feed_delay_max ? rnd() % o->feed_delay_max : 0);
  uint32_t st = 0;
  for (;;) {
    for (int k = 0; k < 8; k++) qtb_step();
    collect();
    if (fed < n_feeds && qtb_cycle() >= next_feed) {
      /* half the feeds through the FENCE register, half through the direct port */
      if (rnd() & 1u) qtb_fence_inc(feeds[fed].id, feeds[fed].val);
      else qtb_apb_write(FENCE_OFF(feeds[fed].id), feeds[fed].val);
      fed++;
      next_feed = qtb_cycle() + (o->feed_delay_max ? rnd() % o->feed_delay_max : 0);
      continue;
    }
    qtb_apb_read(OFF(STATUS), &st);
    if (!(st & QMAN__STATUS__BUSY_bm) && fed == n_feeds) break;
    if (qtb_cycle() - t0 > o->max_cycles) {
      uint32_t pc;
      qtb_apb_read(OFF(PC), &pc);
      snprintf(fail_msg, sizeof fail_msg,
               "hang: queue busy after %llu cycles (STATUS 0x%08x, PC 0x%08x, model PC 0x%08x err %s)",
               (unsigned long long)o->max_cycles, st, pc, q.pc, cp_err_name(q.err));
      return 1;
    }
  }
  collect();
  stat_runs++;
  if (q.state == CP_Q_DONE) stat_done++;
  else stat_err[q.err & 15]++;
  /* final status */
  uint32_t err = (st & QMAN__STATUS__ERR_bm) >> QMAN__STATUS__ERR_bp, pc, pkts1;
  qtb_apb_read(OFF(PC), &pc);
  qtb_apb_read(OFF(CNT_PKTS), &pkts1);
  cnt_pkts_rtl = pkts1;
  CHECK(err == q.err, "error code %u (%s), model %u (%s); PC 0x%08x model 0x%08x", err,
        cp_err_name(err), q.err, cp_err_name(q.err), pc, q.pc);
  CHECK(!!(st & QMAN__STATUS__DONE_bm) == (q.state == CP_Q_DONE), "STATUS.done %u, model state %d",
        !!(st & QMAN__STATUS__DONE_bm), q.state);
  if (pc != q.pc && getenv("QM_DEBUG")) {
    for (uint32_t a = c->cb_base; a < c->cb_base + c->cb_size;) {
      uint32_t w0, w1;
      qtb_mem_read32(a, &w0);
      qtb_mem_read32(a + 4, &w1);
      uint32_t l = cp_pkt_bytes(w0, w1);
      fprintf(stderr, "  0x%08x %-10s w0 0x%08x w1 0x%08x\n", a, cp_op_name(w0 & 0xFF), w0, w1);
      if (!l) break;
      a += l;
    }
  }
  CHECK(pc == q.pc, "PC 0x%08x, model 0x%08x (err %s)", pc, q.pc, cp_err_name(q.err));
  CHECK(pkts1 - pkts0 == q.pkts, "packets executed %u, model %u", pkts1 - pkts0, q.pkts);
  CHECK(qtb_irq() == (q.err != 0), "irq_o %d with err %u", qtb_irq(), q.err);
  /* events */
  CHECK(n_got_reg == n_exp_reg, "engine register writes %u, model %u (err %s)", n_got_reg, n_exp_reg,
        cp_err_name(q.err));
  CHECK(n_got_msg == n_exp_msg, "messages %u, model %u (err %s)", n_got_msg, n_exp_msg, cp_err_name(q.err));
  for (unsigned i = 0; i < n_exp_reg; i++)
    CHECK(got_reg[i].a == exp_reg[i].a && got_reg[i].b == exp_reg[i].b,
          "register write %u: (0x%04x, 0x%08x), model (0x%04x, 0x%08x)", i, got_reg[i].a, got_reg[i].b,
          exp_reg[i].a, exp_reg[i].b);
  for (unsigned i = 0; i < n_exp_msg; i++)
    CHECK(got_msg[i].a == exp_msg[i].a && got_msg[i].b == exp_msg[i].b,
          "message %u: (0x%08x, 0x%08x), model (0x%08x, 0x%08x)", i, got_msg[i].a, got_msg[i].b,
          exp_msg[i].a, exp_msg[i].b);
  /* barriers: the first effect of an EB packet starts with the engine idle; of an
   * MB packet after every earlier message completed */
  unsigned ir = 0, im = 0;
  uint32_t last_pc = 0xFFFFFFFFu;
  for (unsigned i = 0; i < n_exp_all; i++) {
    const cp_event_t *e = &exp_all[i];
    const qtb_ev_t *g = e->kind == CP_EV_REG ? &got_reg[ir] : &got_msg[im];
    if (e->pc != last_pc) {
      if (e->flags & CP_HDR_EB) CHECK(g->idle, "EB packet at 0x%08x started with the engine busy", e->pc);
      if ((e->flags & CP_HDR_MB) && im > 0)
        CHECK(got_msg[im - 1].end < g->start, "MB packet at 0x%08x started (cycle %llu) before message %u landed (%llu)",
              e->pc, (unsigned long long)g->start, im - 1, (unsigned long long)got_msg[im - 1].end);
    }
    last_pc = e->pc;
    if (e->kind == CP_EV_REG) ir++; else im++;
  }
  /* fence counters */
  for (uint32_t i = 0; i < CP_FENCES; i++) {
    uint32_t v;
    qtb_apb_read(FENCE_OFF(i), &v);
    CHECK(v == q.fence[i], "fence %u = %u, model %u", i, v, q.fence[i]);
  }
  if (o->reset_after || q.err) {
    qtb_apb_write(OFF(CTRL), QMAN__CTRL__RESET_bm);
  }
  return 0;
}

/* ------------------------------------------------------------ generators */
static cp_qcfg_t base_cfg(void) {
  cp_qcfg_t c;
  memset(&c, 0, sizeof c);
  c.mem_base = TESSERA_HBM_BASE;
  c.mem_size = TESSERA_HBM_SIZE;
  c.cb_base = TESSERA_HBM_BASE + ((rnd() % 4096) << 3);
  c.win_limit = 0x10000;
  c.sob_set_base = 0x30301000u + (rnd() % 4) * 0x10000u;   /* any addresses: checked as data */
  c.sob_add_base = c.sob_set_base + 0x400u;
  c.num_sobs = TESSERA_SYNC_OBJECTS;
  c.comp_en = chance(70);
  c.comp_addr = 0x30300000u + ((rnd() % 1024) << 2);
  c.comp_data = rnd();
  c.dma = chance(50);
  c.ldma_off = (rnd() % 64) << 2;
  return c;
}

static run_opts_t base_opts(void) {
  run_opts_t o;
  memset(&o, 0, sizeof o);
  o.c = base_cfg();
  o.apb_err_at = -1;
  o.feed_delay_max = 60;
  o.max_cycles = 200000;
  o.fence_timeout = 3000;
  return o;
}

/* one random valid packet */
static void gen_packet(cp_buf_t *b, const cp_qcfg_t *c, int allow_fence) {
  uint32_t f = (chance(20) ? CP_HDR_EB : 0) | (chance(20) ? CP_HDR_MB : 0);
  uint32_t lim = c->win_limit;
  switch (rnd() % 10) {
    case 0: cp_nop(b, f); break;
    case 1: case 2: cp_wreg32(b, f, ((rnd() % lim) & ~3u) % lim, rnd()); break;
    case 3: {
      uint32_t n = chance(10) ? 1 + rnd() % 120 : 1 + rnd() % 12, v[256];
      if (4 * n > lim) n = lim / 4;
      for (uint32_t i = 0; i < n; i++) v[i] = rnd();
      cp_wreg_bulk(b, f, ((rnd() % (lim - 4 * n + 1)) & ~3u), n, v);
      break;
    }
    case 4: cp_msg_long(b, f, rnd() & ~3u, rnd()); break;
    case 5: cp_msg_short(b, f, rnd() % c->num_sobs, rnd() & 1, rnd()); break;
    case 6:
      if (allow_fence) cp_fence(b, f, rnd() % 4, rnd() % 6);
      else cp_nop(b, f);
      break;
    case 7:
      if (c->dma) cp_lin_dma(b, f, rnd(), rnd(), rnd());
      else cp_wreg32(b, f, 0, rnd());
      break;
    case 8: cp_wait(b, f, rnd() % 16); break;
    default: cp_msg_short(b, f, rnd() % c->num_sobs, 1, 1); break;
  }
}

/* one bad packet (fuzz) */
static void gen_bad(cp_buf_t *b, const cp_qcfg_t *c) {
  uint32_t w[4] = {rnd(), rnd(), rnd(), rnd()};
  switch (rnd() % 9) {
    case 0: w[0] = (w[0] & ~0xFFu) | (CP_OP_COUNT + rnd() % (256 - CP_OP_COUNT)); w[0] &= ~CP_HDR_RSVD_MASK; break;
    case 1: w[0] = (w[0] & ~0xFFu) | (rnd() % CP_OP_COUNT); w[0] |= 1u << (10 + rnd() % 6); break;
    case 2: w[0] = CP_OP_WREG32 | ((c->win_limit + (rnd() % 64) * 4) << 16); break;   /* may wrap */
    case 3: w[0] = CP_OP_WREG32 | (((rnd() % 0x4000) * 4 + 1 + rnd() % 3) << 16); break; /* unaligned */
    case 4: w[0] = CP_OP_WREG_BULK | (((rnd() % 0x4000) * 4) << 16); w[1] = chance(50) ? 0 : 257 + rnd() % 1000; break;
    case 5: w[0] = CP_OP_FENCE | ((4 + rnd() % 100) << 16); break;
    case 6: w[0] = CP_OP_MSG_SHORT | ((c->num_sobs + rnd() % 1000) << 16); break;
    case 7: w[0] = CP_OP_MSG_LONG; w[2] = (rnd() & ~3u) | (1 + rnd() % 3); break;
    default: w[0] = CP_OP_LIN_DMA; break;  /* bad on non-DMA queues */
  }
  cp_raw(b, w, (w[0] & 0xFF) == CP_OP_MSG_LONG || (w[0] & 0xFF) == CP_OP_LIN_DMA ? 4 : 2);
}

static uint32_t cbw[1 << 14];

static int random_run(int fuzz) {
  run_opts_t o = base_opts();
  cp_qcfg_t *c = &o.c;
  if (chance(30)) c->win_limit = 0x100 + (rnd() % 64) * 16;
  cp_buf_t b;
  cp_buf_init(&b, cbw, sizeof cbw / 4 - 64);
  unsigned n = 1 + rnd() % 24;
  int bad_at = fuzz && chance(45) ? (int)(rnd() % n) : -1;
  for (unsigned i = 0; i < n; i++) {
    if ((int)i == bad_at) gen_bad(&b, c);
    else gen_packet(&b, c, 1);
  }
  if (!fuzz || chance(90)) cp_stop(&b, chance(30) ? CP_HDR_EB : 0);
  else cp_nop(&b, 0); /* ends without STOP */
  c->cb_size = b.n * 4;
  if (fuzz) {
    if (chance(5)) c->cb_size -= 8 * (1 + rnd() % 2);                    /* truncated */
    if (chance(3)) c->cb_base |= 4;                                      /* misaligned */
    if (chance(3)) c->cb_base = 0x10000000u + ((rnd() % 1024) << 3);     /* outside HBM */
    if (chance(2)) c->cb_size = 0;
    if (chance(2)) { c->cb_base = TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 64; } /* crosses the end */
    if (chance(6)) qtb_mem_set_err(c->cb_base + (rnd() % (c->cb_size + 8)));
    if (chance(8)) o.apb_err_at = rnd() % 20;
    if (chance(8)) { o.timeout_mode = 1; o.fence_timeout = 2500 + rnd() % 500; }
    if (c->cb_size == 0 || c->cb_size > sizeof cbw) c->cb_size = c->cb_size ? 8 : 0;
  }
  o.reset_after = chance(20);
  int r = run_cb(cbw, b.n, &o);
  return r;
}

static void env_random(void) {
  qtb_set_env(40 + rnd() % 61, rnd() % 3, 50 + rnd() % 51, rnd() % 30, rnd() % 24, rnd());
  qtb_set_latency(5 + rnd() % 60);
}

/* ------------------------------------------------------------ tests */
static void fresh(void) {
  qtb_set_env(100, 0, 100, 0, 0, 1);
  qtb_set_latency(TESSERA_HBM_LATENCY_CYCLES);
  qtb_reset();
  qtb_mem_clear();
  cp_q_reset(&q);
}

static int t_every_packet(void) {
  fresh();
  run_opts_t o = base_opts();
  o.c.dma = 1;
  o.c.comp_en = 1;
  cp_buf_t b;
  cp_buf_init(&b, cbw, 4096);
  uint32_t v[5] = {1, 2, 3, 4, 5};
  cp_nop(&b, 0);
  cp_wreg32(&b, 0, 0x40, 0x12345678);
  cp_wreg_bulk(&b, 0, 0x100, 5, v);
  cp_msg_long(&b, 0, 0x80001000, 0xCAFEF00D);
  cp_msg_short(&b, 0, 17, 0, 0x7FFF);
  cp_msg_short(&b, 0, 255, 1, 3);
  cp_fence(&b, 0, 2, 0);
  cp_lin_dma(&b, 0, 0x80000000, 0x80010000, 4096);
  cp_wait(&b, 0, 25);
  cp_wreg32(&b, CP_HDR_EB | CP_HDR_MB, 0x44, 7);
  cp_stop(&b, CP_HDR_EB);
  o.c.cb_size = b.n * 4;
  if (run_cb(cbw, b.n, &o)) return 1;
  CHECK(q.state == CP_Q_DONE, "model did not complete (%s)", cp_err_name(q.err));
  CHECK(n_exp_reg == 1 + 5 + 4 + 1 && n_exp_msg == 4, "unexpected event count %u/%u", n_exp_reg, n_exp_msg);
  return 0;
}

static int t_errors_directed(void) {
  fresh();
  static const struct { uint32_t w[4]; uint32_t n; unsigned err; int dma; } cases[] = {
      {{0x000000FF, 0, 0, 0}, 2, CP_ERR_OPCODE, 0},
      {{0x00000401, 0, 0, 0}, 2, CP_ERR_RESERVED, 0},
      {{0x00020001, 0, 0, 0}, 2, CP_ERR_REG_RANGE, 0},    /* unaligned offset 2 */
      {{0x00000002, 0, 0, 0}, 2, CP_ERR_BULK_COUNT, 0},
      {{0x00000002, 257, 0, 0}, 2, CP_ERR_BULK_COUNT, 0},
      {{0x00000002, 3, 1, 2}, 4, CP_ERR_TRUNCATED, 0},    /* 3 words need 16 B of data */
      {{0x00040005, 1, 0, 0}, 2, CP_ERR_BAD_FENCE, 0},
      {{0x01000004, 1, 0, 0}, 2, CP_ERR_BAD_SOB, 0},
      {{0x00000006, 1, 2, 3}, 4, CP_ERR_NOT_DMA, 0},
      {{0x00000003, 1, 0x1002, 0}, 4, CP_ERR_MSG_ALIGN, 0},
      {{0x00000003, 1, 0x1000, 0x80}, 4, CP_ERR_RESERVED, 0},   /* MSG_LONG w3 not 0 */
      {{0x00000003, 1, 0x1002, 1}, 4, CP_ERR_MSG_ALIGN, 0},     /* alignment checked first */
      {{0x00000003, 1, 0, 0}, 2, CP_ERR_TRUNCATED, 0},
      {{0x00000000, 0, 0, 0}, 2, CP_ERR_NO_STOP, 0},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_opts_t o = base_opts();
    o.c.dma = cases[i].dma;
    o.c.win_limit = 0x10000;
    cp_buf_t b;
    cp_buf_init(&b, cbw, 64);
    cp_wreg32(&b, 0, 0x10, i);   /* a good packet first */
    cp_raw(&b, cases[i].w, cases[i].n);
    o.c.cb_size = b.n * 4;
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.err == cases[i].err, "case %u: model error %s, expected %s", i, cp_err_name(q.err),
          cp_err_name(cases[i].err));
  }
  /* buffer range errors */
  uint32_t bases[4] = {TESSERA_HBM_BASE + 4, 0x10000000u, TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 8, 0};
  uint32_t sizes[4] = {16, 16, 16, 0};
  for (unsigned i = 0; i < 4; i++) {
    run_opts_t o = base_opts();
    cp_buf_t b;
    cp_buf_init(&b, cbw, 64);
    cp_stop(&b, 0);
    cp_stop(&b, 0);
    if (bases[i]) o.c.cb_base = bases[i];
    o.c.cb_size = sizes[i];
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.err == CP_ERR_CB_RANGE, "range case %u: model %s", i, cp_err_name(q.err));
  }
  /* AXI error on the second packet; APB error on the 3rd write; fence timeout */
  {
    run_opts_t o = base_opts();
    o.c.cb_base = TESSERA_HBM_BASE + 0x1000;
    cp_buf_t b;
    cp_buf_init(&b, cbw, 256);
    for (int i = 0; i < 8; i++) cp_wreg32(&b, 0, 4 * i, i);
    cp_stop(&b, 0);
    o.c.cb_size = b.n * 4;
    qtb_mem_set_err(o.c.cb_base + 32);
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.err == CP_ERR_AXI && q.pc == o.c.cb_base + 32, "AXI case: %s at 0x%x", cp_err_name(q.err), q.pc);
    qtb_mem_clear();
    o.apb_err_at = 2;
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.err == CP_ERR_APB && n_exp_reg == 3, "APB case: %s", cp_err_name(q.err));
    o.apb_err_at = -1;
    cp_buf_init(&b, cbw, 256);
    cp_fence(&b, 0, 1, q.fence[1] + 1);
    cp_stop(&b, 0);
    o.c.cb_size = b.n * 4;
    o.timeout_mode = 1;
    o.fence_timeout = 500;
    uint64_t t = qtb_cycle();
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.err == CP_ERR_FENCE_TIMEOUT, "timeout case: %s", cp_err_name(q.err));
    CHECK(qtb_cycle() - t > 500, "fence timed out too early");
  }
  return 0;
}

static int t_fence_feed(void) {
  fresh();
  for (int r = 0; r < 20; r++) {
    run_opts_t o = base_opts();
    cp_buf_t b;
    cp_buf_init(&b, cbw, 1024);
    for (int i = 0; i < 6; i++) {
      cp_fence(&b, chance(50) ? CP_HDR_MB : 0, rnd() % 4, 1 + rnd() % 5);
      cp_wreg32(&b, 0, 0x20, i);
      cp_msg_short(&b, 0, 3, 1, 1);
    }
    cp_stop(&b, 0);
    o.c.cb_size = b.n * 4;
    o.feed_delay_max = 200;
    if (run_cb(cbw, b.n, &o)) return 1;
    CHECK(q.state == CP_Q_DONE, "run %d: %s", r, cp_err_name(q.err));
  }
  return 0;
}

static int t_reset_abort_reject(void) {
  fresh();
  run_opts_t o = base_opts();
  cp_buf_t b;
  cp_buf_init(&b, cbw, 64);
  cp_wreg32(&b, 0, 0x8, 1);
  cp_wait(&b, 0, 100000);
  cp_stop(&b, 0);
  for (uint32_t i = 0; i < b.n; i++) qtb_mem_write32(o.c.cb_base + 4 * i, cbw[i]);
  qtb_apb_write(OFF(CB_BASE), o.c.cb_base);
  qtb_apb_write(OFF(CB_SIZE), b.n * 4);
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__START_bm);
  for (int i = 0; i < 300; i++) qtb_step();
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__START_bm);        /* doorbell while busy */
  uint32_t st;
  qtb_apb_read(OFF(STATUS), &st);
  CHECK((st & QMAN__STATUS__BUSY_bm) && (st & QMAN__STATUS__BUSY_REJECT_bm), "STATUS 0x%x after start while busy", st);
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__RESET_bm);
  for (int i = 0; i < 10; i++) qtb_step();
  qtb_apb_read(OFF(STATUS), &st);
  CHECK(!(st & (QMAN__STATUS__BUSY_bm | QMAN__STATUS__DONE_bm | QMAN__STATUS__BUSY_REJECT_bm | QMAN__STATUS__ERR_bm)),
        "STATUS 0x%x after reset", st);
  /* the queue works again; the aborted run's register write happened once */
  n_got_reg = n_got_msg = 0;
  collect();
  CHECK(n_got_reg == 1, "aborted run wrote %u registers", n_got_reg);
  qtb_events_clear();
  cp_q_reset(&q);
  for (uint32_t i = 0; i < CP_FENCES; i++) {
    uint32_t v;
    qtb_apb_read(FENCE_OFF(i), &v);
    q.fence[i] = v;
  }
  cp_buf_init(&b, cbw, 64);
  cp_wreg32(&b, 0, 0xC, 2);
  cp_stop(&b, 0);
  o.c.cb_size = b.n * 4;
  return run_cb(cbw, b.n, &o);
}

static unsigned n_random = 300, n_fuzz = 1000;
static int t_random(void) {
  fresh();
  for (unsigned i = 0; i < n_random; i++) {
    if (i % 20 == 0) env_random();
    if (random_run(0)) {
      size_t l = strlen(fail_msg);
      snprintf(fail_msg + l, sizeof fail_msg - l, " [run %u]", i);
      return 1;
    }
    qtb_mem_clear();
  }
  printf("  %u random buffers: %u completed\n", stat_runs, stat_done);
  return 0;
}

static int t_fuzz(void) {
  fresh();
  stat_runs = stat_done = 0;
  memset(stat_err, 0, sizeof stat_err);
  for (unsigned i = 0; i < n_fuzz; i++) {
    if (i % 25 == 0) env_random();
    if (random_run(1)) {
      size_t l = strlen(fail_msg);
      snprintf(fail_msg + l, sizeof fail_msg - l, " [fuzz buffer %u]", i);
      return 1;
    }
    qtb_mem_clear();
  }
  printf("  %u fuzz buffers: %u completed, errors:", stat_runs, stat_done);
  for (unsigned e = 1; e < 16; e++) if (stat_err[e]) printf(" %s %u", cp_err_name(e), stat_err[e]);
  printf("\n");
  CHECK(qtb_burst_crossed_256() == 0, "an AXI burst crossed a 256-byte boundary");
  CHECK(qtb_max_burst_beats() <= 8, "burst of %u beats", qtb_max_burst_beats());
  return 0;
}

/* performance: back-to-back packets at the default memory latency */
static double bench_cpp_nop, bench_cpp_wreg, bench_cpp_msg;
static unsigned bench_fence_lat, bench_stall_nop;
static int bench_one(int kind, double *cpp, unsigned *stalls) {
  fresh();
  run_opts_t o = base_opts();
  o.c.comp_en = 0;
  cp_buf_t b;
  cp_buf_init(&b, cbw, 8192);
  const unsigned n = 512;
  for (unsigned i = 0; i < n; i++) {
    if (kind == 0) cp_nop(&b, 0);
    else if (kind == 1) cp_wreg32(&b, 0, 4 * (i % 64), i);
    else cp_msg_short(&b, 0, i % 256, 1, 1);
  }
  cp_stop(&b, 0);
  o.c.cb_size = b.n * 4;
  uint32_t busy0, busy1, st0, st1;
  qtb_apb_read(OFF(CNT_BUSY), &busy0);
  qtb_apb_read(OFF(CNT_FETCH_STALL), &st0);
  if (run_cb(cbw, b.n, &o)) return 1;
  qtb_apb_read(OFF(CNT_BUSY), &busy1);
  qtb_apb_read(OFF(CNT_FETCH_STALL), &st1);
  *cpp = (double)(busy1 - busy0) / (n + 1);
  if (stalls) *stalls = st1 - st0;
  return 0;
}

static int t_bench(void) {
  unsigned st_w = 0, st_m = 0;
  if (bench_one(0, &bench_cpp_nop, &bench_stall_nop)) return 1;
  if (bench_one(1, &bench_cpp_wreg, &st_w)) return 1;
  if (bench_one(2, &bench_cpp_msg, &st_m)) return 1;
  /* fence release: FENCE write (message landing) -> next packet's engine write */
  fresh();
  run_opts_t o = base_opts();
  cp_buf_t b;
  cp_buf_init(&b, cbw, 64);
  cp_fence(&b, 0, 0, 1);
  cp_wreg32(&b, 0, 0x30, 1);
  cp_stop(&b, 0);
  for (uint32_t i = 0; i < b.n; i++) qtb_mem_write32(o.c.cb_base + 4 * i, cbw[i]);
  qtb_apb_write(OFF(CB_BASE), o.c.cb_base);
  qtb_apb_write(OFF(CB_SIZE), b.n * 4);
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__START_bm);
  for (int i = 0; i < 300; i++) qtb_step();
  uint64_t t0 = qtb_cycle();   /* setup phase of the fence write; access phase is t0 + 1 */
  qtb_apb_write(FENCE_OFF(0), 1);
  for (int i = 0; i < 50; i++) qtb_step();
  qtb_ev_t e;
  CHECK(qtb_reg_pop(&e), "no engine write after the fence was released");
  bench_fence_lat = (unsigned)(e.start - (t0 + 1));
  qtb_apb_write(OFF(CTRL), QMAN__CTRL__RESET_bm);
  printf("  cycles/packet (HBM latency %u): NOP %.2f (fetch stalls %u of 513 packets, incl. the first fetch), "
         "WREG32 %.2f (stalls %u), MSG_SHORT %.2f (stalls %u)\n",
         TESSERA_HBM_LATENCY_CYCLES, bench_cpp_nop, bench_stall_nop, bench_cpp_wreg, st_w, bench_cpp_msg, st_m);
  printf("  fence release: FENCE counter write (APB access phase) -> engine APB setup of the next packet: %u cycles\n",
         bench_fence_lat);
  bench_record("qman/packet_nop", "cycles/packet", bench_cpp_nop, 0, "\"fetch_stalls\":%u,\"packets\":513,"
               "\"hbm_latency\":%u", bench_stall_nop, TESSERA_HBM_LATENCY_CYCLES);
  bench_record("qman/packet_wreg32", "cycles/packet", bench_cpp_wreg, 0, "\"fetch_stalls\":%u", st_w);
  bench_record("qman/packet_msg_short", "cycles/packet", bench_cpp_msg, 0, "\"fetch_stalls\":%u", st_m);
  bench_record("qman/fence_release", NULL, bench_fence_lat, 0, NULL);
  CHECK(bench_stall_nop <= TESSERA_HBM_LATENCY_CYCLES + 16,
        "prefetch does not keep up: %u fetch-stall cycles on back-to-back NOPs", bench_stall_nop);
  return 0;
}

/* ------------------------------------------------------------ runner */
typedef struct { const char *name; int (*fn)(void); } test_t;

int qman_tests_main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int bench = 0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--fuzz") && i + 1 < argc) n_fuzz = (unsigned)strtoul(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--random") && i + 1 < argc) n_random = (unsigned)strtoul(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--test") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--bench")) bench = 1;
    else if (argv[i][0] != '+') { /* +args are Verilator's (Verilated::commandArgs) */
      fprintf(stderr, "usage: %s [--seed N] [--test NAME] [--bench] [--fuzz N] [--random N]\n", argv[0]);
      return 2;
    }
  }
  printf("qman tests: seed %llu (reproduce with --seed %llu)\n", (unsigned long long)seed,
         (unsigned long long)seed);
  static const test_t tests[] = {
      {"every_packet", t_every_packet}, {"errors_directed", t_errors_directed},
      {"fence_feed", t_fence_feed},     {"reset_abort_reject", t_reset_abort_reject},
      {"random", t_random},             {"fuzz", t_fuzz},
      {"bench", t_bench},
  };
  unsigned pass = 0, fail = 0;
  for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    if (bench && strcmp(tests[i].name, "bench")) continue;
    if (only && strcmp(tests[i].name, only)) continue;
    rng_state = seed * 0x9E3779B97F4A7C15ull + i + 1;
    if (!rng_state) rng_state = 1;
    fail_msg[0] = 0;
    uint64_t c0 = qtb_cycle();
    int r = tests[i].fn();
    if (r == 0) { pass++; printf("PASS %s (%llu cycles)\n", tests[i].name, (unsigned long long)(qtb_cycle() - c0)); }
    else { fail++; printf("FAIL %s: %s (seed %llu)\n", tests[i].name, fail_msg, (unsigned long long)seed); }
  }
  if (only && pass + fail == 0) {
    fprintf(stderr, "error: --test %s matches no test%s; tests:", only, bench ? " run by --bench" : "");
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) fprintf(stderr, " %s", tests[i].name);
    fprintf(stderr, "\n");
    return 2;
  }
  printf("%u passed, %u failed\n", pass, fail);
  return fail ? 1 : 0;
}
