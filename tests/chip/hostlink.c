/* Suite `hostlink`: the host library (hostlink/) and the firmware scheduler
 * (firmware/cp.c) on the simulated chip, driven only through hostlink's API
 * (docs/hostlink.md). Every test builds a hostlink device on the test's
 * simulator instance (in-process transport) unless it tests another transport.
 *
 *   api_roundtrip    registers and memory through the API agree with the
 *                    simulator's own back door / host port; bus errors; the
 *                    device-memory allocator against a host model
 *   cb_golden        the command-buffer builder emits exactly the golden
 *                    model's encoding, and the golden queue model executes it
 *                    into the intended register writes and messages
 *   fw_attach        image rejected by the boot ROM (HL_EBOOT with its code),
 *                    then the firmware ELF boots and publishes its host interface
 *   bad_jobs         descriptors the firmware must refuse, each with its cause
 *                    code and detail; ring overrun; full ring (HL_EFULL)
 *   socket           tcp transport: a server thread serves this simulator,
 *                    the client repeats register/memory round trips and a job
 *   serial           serial framing through the simulator's UART to the
 *                    firmware's frame handler: registers, memory, bus error
 *   dma_job ... (engine tests, need the queue managers in the chip; they fail
 *                if the configuration names queue slots the firmware did not find)
 *   gemm_dma         GEMM on MME0 -> DMA copy of C with a dependency started
 *                    by a Sync-Manager monitor; C golden-checked
 *   queue_error      a command buffer with an unknown opcode -> QMAN cause, the
 *                    next job on that queue completes
 *   watchdog         a job that waits forever on a fence is aborted at its
 *                    budget; a later job on the same queue completes
 *   priorities       jobs in all four rings: completion order follows priority
 *   bench_doorbell   (bench) doorbell -> first engine queue start through the firmware
 *   bench_rate       (bench) sustained rate of small jobs */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostlink.h"
#include "mme_golden.h"
#include "numfmt.h"
#include "regs/intc_regs.h"
#include "regs/mme_regs.h"
#include "regs/qman_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera/image.h"
#include "tessera_cfg.h"
#include "tf.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define INTC(r) (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, r))
#define UNMAPPED 0x70000000u   /* no slave: bus error */

#define HL_CHECK(t, d, call)                                                                          \
  do {                                                                                                \
    int hl_rc_ = (call);                                                                              \
    if (hl_rc_ != HL_OK)                                                                              \
      return tf_fail((t), "%s:%d: %s = %d (%s): %s", __FILE__, __LINE__, #call, hl_rc_, hl_strerror(hl_rc_), \
                     (d) ? hl_error(d) : "");                                                         \
  } while (0)

static const char *fw_elf(void) { return tf_build_path("sw/firmware/firmware.elf"); }

/* A hostlink device on this test's simulator; with fw, the firmware ELF is
 * booted and its host interface attached. */
static int dev_open(tf_ctx_t *t, hl_dev_t **d, int fw) {
  *d = NULL;
  TF_CHECK(t, hl_open_sim_attach(t->sim, d) == HL_OK);
  if (!fw) return TF_PASS;
  char path[1024];
  snprintf(path, sizeof path, "%s", fw_elf());
  if (!tf_file_exists(path)) {
    hl_close(*d);
    *d = NULL;
    if (tf_sw_expected(path)) return tf_fail(t, "%s is listed in SW_ALL but was not built", path);
    return tf_skip(t, "%s not built yet", path);
  }
  int rc = hl_load(*d, path, 0, 1, 3000000);
  if (rc != HL_OK) {
    int r = tf_fail(t, "hl_load: %s: %s; UART '%s'", hl_strerror(rc), hl_error(*d), tsim_uart_log(t->sim));
    hl_close(*d);
    *d = NULL;
    return r;
  }
  return TF_PASS;
}

#define DEV_OPEN(t, d, fw)                 \
  do {                                     \
    int r_ = dev_open((t), &(d), (fw));    \
    if (r_ != TF_PASS) return r_;          \
  } while (0)

/* ------------------------------------------------------------------ api */
typedef struct { uint32_t a, s; } mblk_t;

TF_TEST(hostlink, api_roundtrip, 400000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 0);
  int r = TF_FAIL;
  /* registers: SYSCTRL scratch through the API, read back through the host port */
  for (int i = 0; i < 8; i++) {
    uint32_t v = tf_rand32(t), got = 0, a = SYSC(SCRATCH0) + 4u * tf_rand_below(t, 4);
    HL_CHECK(t, d, hl_write32(d, a, v));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, a, &got));
    TF_CHECK_EQ(t, got, v);
    TF_CHECK_OK(t, tsim_host_write32(t->sim, a, ~v));
    HL_CHECK(t, d, hl_read32(d, a, &got));
    TF_CHECK_EQ(t, got, ~v);
  }
  uint32_t id = 0;
  HL_CHECK(t, d, hl_read32(d, SYSC(ID), &id));
  TF_CHECK_EQ(t, id, 0x54455353u);
  /* bus errors are reported, not hidden */
  uint32_t x;
  TF_CHECK(t, hl_read32(d, UNMAPPED, &x) == HL_EBUS);
  TF_CHECK(t, hl_write32(d, UNMAPPED, 1) == HL_EBUS);
  /* memory: random ranges in device memory and DSRAM, checked word by word
   * through the host port (front door) */
  static uint8_t buf[4096], back[4096];
  for (int i = 0; i < 6; i++) {
    uint32_t len = 4u * (1u + tf_rand_below(t, 1024));
    uint32_t base = (i & 1) ? TESSERA_DSRAM_BASE + 4u * tf_rand_below(t, 1024)
                            : TESSERA_HBM_BASE + 4u * tf_rand_below(t, 1u << 26);
    for (uint32_t k = 0; k < len; k++) buf[k] = (uint8_t)tf_rand32(t);
    HL_CHECK(t, d, hl_write(d, base, buf, len));
    for (int k = 0; k < 4; k++) {
      uint32_t o = 4u * tf_rand_below(t, len / 4), got = 0, exp;
      memcpy(&exp, buf + o, 4);
      TF_CHECK_OK(t, tsim_host_read32(t->sim, base + o, &got));
      TF_CHECK_EQ(t, got, exp);
    }
    HL_CHECK(t, d, hl_read(d, base, back, len));
    TF_CHECK(t, !memcmp(buf, back, len));
  }
  /* allocator: random alloc/free against a list of live blocks */
  mblk_t live[256];
  unsigned n = 0;
  uint64_t bytes = 0;
  for (int i = 0; i < 3000; i++) {
    if (n && (n == 256 || tf_rand_below(t, 3) == 0)) {
      unsigned k = tf_rand_below(t, n);
      HL_CHECK(t, d, hl_free(d, live[k].a));
      bytes -= live[k].s;
      live[k] = live[--n];
      continue;
    }
    uint32_t size = 1u + tf_rand_below(t, 1u << (4 + tf_rand_below(t, 16)));
    uint32_t align = 1u << tf_rand_below(t, 13), a = 0;
    HL_CHECK(t, d, hl_alloc(d, size, align, &a));
    if (a & (align - 1u)) return tf_fail(t, "alloc align %u gave 0x%08x", align, a);
    if (a < TESSERA_HBM_BASE + 0x100000u || (uint64_t)a + size > (uint64_t)TESSERA_HBM_BASE + TESSERA_HBM_SIZE)
      return tf_fail(t, "alloc 0x%08x+%u outside the heap", a, size);
    for (unsigned k = 0; k < n; k++)
      if (a < live[k].a + live[k].s && live[k].a < a + size)
        return tf_fail(t, "alloc 0x%08x+%u overlaps 0x%08x+%u", a, size, live[k].a, live[k].s);
    live[n].a = a;
    live[n++].s = size;
    bytes += size;
    TF_CHECK_EQ(t, hl_mem_in_use(d), bytes);
  }
  TF_CHECK(t, hl_free(d, TESSERA_HBM_BASE + 3u) == HL_EARG);   /* never allocated */
  uint32_t a;
  TF_CHECK(t, hl_alloc(d, 0x7FFFFFFFu, 0, &a) == HL_ENOMEM);   /* larger than the heap */
  TF_CHECK(t, hl_alloc(d, 64, 3, &a) == HL_EARG);              /* alignment not a power of 2 */
  while (n) {
    HL_CHECK(t, d, hl_free(d, live[n - 1].a));
    n--;
  }
  TF_CHECK_EQ(t, hl_mem_in_use(d), 0);
  r = TF_PASS;
  hl_close(d);
  return r;
}

/* ------------------------------------------------------------------ builder */
typedef struct { const uint32_t *w; uint32_t base, n; } cbmem_t;
static int cb_rd(void *ctx, uint32_t a, uint32_t *v) {
  cbmem_t *m = ctx;
  if (a < m->base || a - m->base >= 4u * m->n) return 1;
  *v = m->w[(a - m->base) / 4u];
  return 0;
}
typedef struct { cp_event_t ev[4096]; unsigned n; } evlog_t;
static void cb_ev(void *ctx, const cp_event_t *e) {
  evlog_t *l = ctx;
  if (l->n < 4096) l->ev[l->n++] = *e;
}

TF_TEST(hostlink, cb_golden, 1000) {
  static uint32_t ref[1 << 16];
  static evlog_t want, got;
  for (int round = 0; round < 20; round++) {
    hl_cb_t cb;
    TF_CHECK(t, hl_cb_init(&cb) == HL_OK);
    cp_buf_t b;
    cp_buf_init(&b, ref, 1u << 16);
    want.n = got.n = 0;
    unsigned npk = 1 + tf_rand_below(t, 200);
    uint32_t vals[CP_BULK_MAX];
    for (unsigned p = 0; p < npk; p++) {
      uint32_t f = tf_rand32(t) & (HL_EB | HL_MB), off = 4u * tf_rand_below(t, 0x4000), v = tf_rand32(t);
      uint32_t a2 = TESSERA_HBM_BASE + 4u * tf_rand_below(t, 1u << 20), sob = tf_rand_below(t, TESSERA_SYNC_OBJECTS);
      cp_event_t e = {0, 0, 0, 0, f};
      switch (tf_rand_below(t, 8)) {
        case 0:
          TF_CHECK(t, hl_cb_nop(&cb, f) == HL_OK && cp_nop(&b, f) == 0);
          break;
        case 1:
          TF_CHECK(t, hl_cb_wreg32(&cb, f, off, v) == HL_OK && cp_wreg32(&b, f, off, v) == 0);
          e.kind = CP_EV_REG, e.a = off, e.b = v, want.ev[want.n++] = e;
          break;
        case 2: {
          uint32_t n = 1 + tf_rand_below(t, 40);
          off = 4u * tf_rand_below(t, 0x3000);
          for (uint32_t i = 0; i < n; i++) {
            vals[i] = tf_rand32(t);
            e.kind = CP_EV_REG, e.a = off + 4u * i, e.b = vals[i], want.ev[want.n++] = e;
          }
          TF_CHECK(t, hl_cb_wreg_bulk(&cb, f, off, n, vals) == HL_OK && cp_wreg_bulk(&b, f, off, n, vals) == 0);
          break;
        }
        case 3:
          TF_CHECK(t, hl_cb_msg_long(&cb, f, a2, v) == HL_OK && cp_msg_long(&b, f, a2, v) == 0);
          e.kind = CP_EV_MSG, e.a = a2, e.b = v, want.ev[want.n++] = e;
          break;
        case 4: {
          int add = (int)(v & 1u);
          v &= 0x7FFFu;
          TF_CHECK(t, hl_cb_msg_short(&cb, f, sob, add, v) == HL_OK && cp_msg_short(&b, f, sob, add, v) == 0);
          e.kind = CP_EV_MSG, e.a = (add ? 0x2000u : 0x1000u) + 4u * sob, e.b = v, want.ev[want.n++] = e;
          break;
        }
        case 5:
          TF_CHECK(t, hl_cb_fence(&cb, f, v & 3u, 0) == HL_OK && cp_fence(&b, f, v & 3u, 0) == 0);
          break;
        case 6: {
          uint32_t src = a2, dst = a2 ^ 0x100000u, sz = 32u * (1u + tf_rand_below(t, 64));
          TF_CHECK(t, hl_cb_lin_dma(&cb, f, src, dst, sz) == HL_OK && cp_lin_dma(&b, f, src, dst, sz) == 0);
          e.kind = CP_EV_REG;
          e.a = 0, e.b = src, want.ev[want.n++] = e;
          e.a = 4, e.b = dst, want.ev[want.n++] = e;
          e.a = 8, e.b = sz, want.ev[want.n++] = e;
          e.a = 12, e.b = 1, want.ev[want.n++] = e;
          break;
        }
        default:
          TF_CHECK(t, hl_cb_wait(&cb, f, v & 0xFFu) == HL_OK && cp_wait(&b, f, v & 0xFFu) == 0);
          break;
      }
    }
    TF_CHECK(t, hl_cb_stop(&cb, HL_EB) == HL_OK && cp_stop(&b, CP_HDR_EB) == 0);
    /* same words as the golden builder */
    TF_CHECK_EQ(t, hl_cb_bytes(&cb), 4u * b.n);
    TF_CHECK(t, !memcmp(hl_cb_words(&cb), ref, 4u * b.n));
    /* the golden queue model runs it into the intended writes and messages */
    cp_qcfg_t c;
    memset(&c, 0, sizeof c);
    c.cb_base = TESSERA_HBM_BASE;
    c.cb_size = hl_cb_bytes(&cb);
    c.mem_base = TESSERA_HBM_BASE;
    c.mem_size = TESSERA_HBM_SIZE;
    c.win_limit = 0x10000;
    c.sob_set_base = 0x1000;
    c.sob_add_base = 0x2000;
    c.num_sobs = TESSERA_SYNC_OBJECTS;
    c.dma = 1;
    cp_queue_t q;
    cp_q_reset(&q);
    cp_q_start(&q, &c);
    cbmem_t m = {hl_cb_words(&cb), TESSERA_HBM_BASE, cb.b.n};
    int st = cp_q_run(&q, &c, cb_rd, &m, cb_ev, &got, -1);
    if (st != CP_Q_DONE) return tf_fail(t, "round %d: model state %d err %s", round, st, cp_err_name(q.err));
    TF_CHECK_EQ(t, got.n, want.n);
    for (unsigned i = 0; i < got.n; i++)
      if (got.ev[i].kind != want.ev[i].kind || got.ev[i].a != want.ev[i].a || got.ev[i].b != want.ev[i].b)
        return tf_fail(t, "round %d event %u: kind %d 0x%x=0x%x, expected kind %d 0x%x=0x%x", round, i,
                       got.ev[i].kind, got.ev[i].a, got.ev[i].b, want.ev[i].kind, want.ev[i].a, want.ev[i].b);
    hl_cb_free(&cb);
  }
  return TF_PASS;
}

/* ------------------------------------------------------------------ firmware */
TF_TEST(hostlink, fw_attach, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 0);
  /* a corrupted image (magic) is rejected by the boot ROM: HL_EBOOT */
  char path[] = "/tmp/hostlink_badimg_XXXXXX";
  int fd = mkstemp(path);
  TF_CHECK(t, fd >= 0);
  uint32_t img[16] = {TIMG_MAGIC, TIMG_VERSION_WORD(0), 16, TESSERA_ISRAM_BASE, TESSERA_ISRAM_BASE, 0, 0, 0};
  img[5] = crc32(img + 8, 16);
  img[7] = crc32(img, 28);
  img[2] ^= 1u << tf_rand_below(t, 4);   /* payload length changed after the header CRC: HDR_CRC */
  TF_CHECK(t, write(fd, img, sizeof img) == (ssize_t)sizeof img);
  close(fd);
  int rc = hl_load(d, path, TESSERA_HBM_BASE + 0x2000u, 1, 2000000);
  unlink(path);
  if (rc != HL_EBOOT) return tf_fail(t, "bad image: rc %d (%s)", rc, hl_error(d));
  if (!strstr(hl_error(d), "status 0x83")) return tf_fail(t, "expected status 0x83: %s", hl_error(d));
  tf_log(t, "%s", hl_error(d));
  /* the ROM is back waiting for GO: the firmware ELF boots */
  HL_CHECK(t, d, hl_load(d, fw_elf(), 0, 1, 2000000));
  uint32_t addr = hl_hif_addr(d), scratch = 0, v = 0;
  HL_CHECK(t, d, hl_read32(d, SYSC(SCRATCH3), &scratch));
  TF_CHECK_EQ(t, addr, scratch);
  TF_CHECK(t, addr >= TESSERA_DSRAM_BASE && addr < TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES);
  HL_CHECK(t, d, hl_read(d, addr + HIF_OFF(sq_entries), &v, 4));
  TF_CHECK_EQ(t, v, HIF_SQ_ENTRIES);
  HL_CHECK(t, d, hl_read(d, addr + HIF_OFF(cq_entries), &v, 4));
  TF_CHECK_EQ(t, v, HIF_CQ_ENTRIES);
  uint32_t eq = hl_eq_present(d);
  tf_log(t, "host interface at 0x%08x, engine queues 0x%04x", addr, eq);
#ifdef TESSERA_QMAN_SLOT_MME
  /* the configuration places queue managers: the firmware must have found them */
  uint32_t want = 0;
  for (unsigned i = 0; i < TESSERA_NUM_MME; i++) want |= 1u << (TESSERA_QMAN_SLOT_MME + i);
  for (unsigned i = 0; i < TESSERA_DMA_ENGINES; i++) want |= 1u << (TESSERA_QMAN_SLOT_DMA + i);
  if ((eq & want) != want) return tf_fail(t, "engine queues 0x%04x, expected at least 0x%04x", eq, want);
#endif
  hl_close(d);
  return TF_PASS;
}

/* Wait for job seq; it must end with `status` and `cause` (and detail if != ~0). */
static int expect_job(tf_ctx_t *t, hl_dev_t *d, uint32_t seq, int wait, uint32_t cause, uint32_t detail,
                      uint64_t timeout, hl_completion_t *out) {
  hl_completion_t c;
  memset(&c, 0, sizeof c);
  int w = hl_wait(d, seq, timeout, &c);
  if (w < 0) return tf_fail(t, "job %u: wait: %s (%s)", seq, hl_strerror(w), hl_error(d));
  if (w != wait || (w != HL_TIMEDOUT && w != HL_BUSY && (c.cause != cause || (detail != ~0u && c.detail != detail))))
    return tf_fail(t, "job %u: %s cause %u (%s) detail 0x%x; expected %s cause %u (%s) detail 0x%x", seq,
                   hl_wait_name(w), c.cause, hl_cause_name(c.cause), c.detail, hl_wait_name(wait), cause,
                   hl_cause_name(cause), detail);
  if (out) *out = c;
  return TF_PASS;
}
#define EXPECT_JOB(t, d, seq, w, cause, det, to)                       \
  do {                                                                 \
    int r_ = expect_job((t), (d), (seq), (w), (cause), (det), (to), NULL); \
    if (r_ != TF_PASS) return r_;                                      \
  } while (0)

/* One engine queue the firmware found, preferring DMA ones (-1 if none). */
static int some_queue(hl_dev_t *d) {
  uint32_t eq = hl_eq_present(d);
  for (int k = (int)HIF_NUM_EQ - 1; k >= 0; k--)
    if ((eq >> k) & 1u) return k;
  return -1;
}

/* A job of one command buffer at cb (size bytes) on queue eq, buffer = the cb. */
static void job1(hl_job_t *j, int eq, uint32_t cb, uint32_t size) {
  memset(j, 0, sizeof *j);
  j->ncb = 1;
  j->cb[0].eq = eq;
  j->cb[0].addr = cb;
  j->cb[0].size = size;
  j->nbuf = 1;
  j->buf[0].base = cb;
  j->buf[0].size = size;
}

TF_TEST(hostlink, bad_jobs, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_cb_nop(&cb, 0);
  hl_cb_stop(&cb, 0);
  uint32_t cba, seq;
  HL_CHECK(t, d, hl_cb_upload(d, &cb, &cba));
  uint32_t sz = hl_cb_bytes(&cb);
  hl_cb_free(&cb);
  int q = some_queue(d);
  int absent = -1;
  for (int k = 0; k < (int)HIF_NUM_EQ && absent < 0; k++)
    if (!((hl_eq_present(d) >> k) & 1u)) absent = k;
  hl_job_t j;
  /* unknown queue */
  TF_CHECK(t, absent >= 0);
  job1(&j, absent, cba, sz);
  HL_CHECK(t, d, hl_submit(d, &j, &seq));
  EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_BAD_QUEUE, (uint32_t)absent, 200000);
  /* command buffer outside the job's buffers (one byte past, or no buffer at all) */
  int eq = q >= 0 ? q : 0;
  job1(&j, eq, cba, sz);
  j.buf[0].size = sz - 8u;
  HL_CHECK(t, d, hl_submit(d, &j, &seq));
  EXPECT_JOB(t, d, seq, HL_FAILED, q >= 0 ? HIF_CAUSE_CB_RANGE : HIF_CAUSE_BAD_QUEUE, q >= 0 ? 0u : ~0u, 200000);
  if (q >= 0) {
    job1(&j, eq, cba, sz);
    j.nbuf = 0;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_CB_RANGE, 0u, 200000);
    job1(&j, eq, cba + 4u, sz);   /* misaligned */
    j.buf[0].base = cba;
    j.buf[0].size = sz + 8u;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_CB_RANGE, 0u, 200000);
    /* the same queue twice in one job */
    job1(&j, eq, cba, sz);
    j.ncb = 2;
    j.cb[1] = j.cb[0];
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_BAD_QUEUE, (1u << 8) | (uint32_t)eq, 200000);
  }
  /* a buffer outside device memory (the second one) */
  job1(&j, eq, cba, sz);
  j.nbuf = 2;
  j.buf[1].base = TESSERA_HBM_BASE - 0x1000u;
  j.buf[1].size = 0x2000u;
  HL_CHECK(t, d, hl_submit(d, &j, &seq));
  EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_BUF_RANGE, 1u, 200000);
  /* a dependency on a later sequence number */
  job1(&j, eq, cba, sz);
  j.ndep = 1;
  j.dep[0] = hl_next_seq(d) + 5u;
  HL_CHECK(t, d, hl_submit(d, &j, &seq));
  EXPECT_JOB(t, d, seq, HL_FAILED, q >= 0 ? HIF_CAUSE_BAD_DEP : HIF_CAUSE_BAD_QUEUE, q >= 0 ? 0u : ~0u, 200000);
  /* reserved descriptor bits / zero command buffers (raw descriptors) */
  hif_job_t raw;
  memset(&raw, 0, sizeof raw);
  raw.seq = hl_next_seq(d);
  raw.ctrl = HIF_JOB_CTRL(1, 0, 1, 1) | (1u << (20 + tf_rand_below(t, 8)));
  HL_CHECK(t, d, hl_submit_raw(d, 0, &raw, 1));
  EXPECT_JOB(t, d, raw.seq, HL_FAILED, HIF_CAUSE_BAD_DESC, raw.ctrl, 200000);
  raw.seq = hl_next_seq(d);
  raw.ctrl = HIF_JOB_CTRL(0, 0, 1, 1);
  HL_CHECK(t, d, hl_submit_raw(d, 1, &raw, 1));
  EXPECT_JOB(t, d, raw.seq, HL_FAILED, HIF_CAUSE_BAD_DESC, raw.ctrl, 200000);
  /* a producer index moved past the ring: one SQ_OVERFLOW completion (seq 0), ring emptied */
  unsigned sq = tf_rand_below(t, HIF_NUM_SQ);
  raw.seq = hl_next_seq(d);
  raw.ctrl = HIF_JOB_CTRL(1, 0, 1, 1);
  HL_CHECK(t, d, hl_submit_raw(d, sq, &raw, HIF_SQ_ENTRIES + 1u + tf_rand_below(t, 5)));
  EXPECT_JOB(t, d, 0, HL_FAILED, HIF_CAUSE_SQ_OVERFLOW, sq, 200000);
  uint32_t pi = 0, ci = 1;
  HL_CHECK(t, d, hl_read(d, hl_hif_addr(d) + HIF_OFF(sq_pi) + 4u * sq, &pi, 4));
  HL_CHECK(t, d, hl_read(d, hl_hif_addr(d) + HIF_OFF(sq_ci) + 4u * sq, &ci, 4));
  TF_CHECK_EQ(t, ci, pi);
  /* a full ring: submissions faster than the firmware takes them end in
   * HL_EFULL (nothing written); every accepted job still completes */
  uint32_t seqs[64];
  unsigned ns = 0, full = 0;
  job1(&j, absent, cba, sz);
  for (unsigned i = 0; i < 3u * HIF_SQ_ENTRIES && ns < 64; i++) {
    int rc = hl_submit(d, &j, &seqs[ns]);
    if (rc == HL_EFULL) {
      full++;
      break;
    }
    HL_CHECK(t, d, rc);
    ns++;
  }
  tf_log(t, "%u jobs accepted before the ring was full", ns);
  TF_CHECK(t, full == 1 && ns >= HIF_SQ_ENTRIES);
  for (unsigned i = 0; i < ns; i++) EXPECT_JOB(t, d, seqs[i], HL_FAILED, HIF_CAUSE_BAD_QUEUE, ~0u, 2000000);
  /* the firmware logged the errors and counted them */
  TF_CHECK(t, tsim_uart_contains(t->sim, "error: bad queue"));
  hif_counters_t c;
  HL_CHECK(t, d, hl_fw_counters(d, &c));
  TF_CHECK_EQ(t, c.jobs_ok, 0);
  TF_CHECK(t, c.jobs_error >= ns + 6u);
  hl_close(d);
  return TF_PASS;
}

/* ------------------------------------------------------------------ socket */
typedef struct {
  const hl_ops_t *ops;
  void *ctx;
  volatile int port, stop;
  int rc;
} srv_t;
static void *srv_main(void *arg) {
  srv_t *s = arg;
  s->rc = hl_serve(s->ops, s->ctx, 0, &s->port, &s->stop, 0);
  return NULL;
}

TF_TEST(hostlink, socket, 3000000) {
  hl_dev_t *local;
  DEV_OPEN(t, local, 1);
  srv_t s;
  memset(&s, 0, sizeof s);
  s.ops = hl_transport(local, &s.ctx);
  pthread_t th;
  TF_CHECK(t, pthread_create(&th, NULL, srv_main, &s) == 0);
  for (int i = 0; i < 2000 && !s.port; i++) usleep(1000);
  int r = TF_FAIL;
  hl_dev_t *d = NULL;
  if (!s.port) {
    r = tf_fail(t, "server did not bind");
    goto out;
  }
  if (hl_open_tcp("127.0.0.1", s.port, &d) != HL_OK) {
    r = tf_fail(t, "cannot connect to port %d", s.port);
    goto out;
  }
  /* remote addresses other than loopback are refused */
  hl_dev_t *other = NULL;
  if (hl_open_tcp("10.0.0.1", s.port, &other) != HL_EARG) {
    r = tf_fail(t, "non-loopback address accepted");
    goto out;
  }
  for (int i = 0; i < 16; i++) {
    uint32_t v = tf_rand32(t), a = SYSC(SCRATCH0) + 4u * tf_rand_below(t, 3), got = 0;
    if (hl_write32(d, a, v) || hl_read32(d, a, &got) || got != v) {
      r = tf_fail(t, "register round trip 0x%08x: 0x%08x != 0x%08x (%s)", a, got, v, hl_error(d));
      goto out;
    }
  }
  uint32_t x;
  if (hl_read32(d, UNMAPPED, &x) != HL_EBUS) {
    r = tf_fail(t, "bus error not reported over tcp");
    goto out;
  }
  static uint8_t buf[70000], back[70000];
  uint32_t len = 4u * (8000u + tf_rand_below(t, 9000)), base = TESSERA_HBM_BASE + 0x400000u;
  for (uint32_t i = 0; i < len; i++) buf[i] = (uint8_t)tf_rand32(t);
  if (hl_write(d, base, buf, len) || hl_read(d, base, back, len) || memcmp(buf, back, len)) {
    r = tf_fail(t, "memory round trip of %u bytes failed (%s)", len, hl_error(d));
    goto out;
  }
  /* cross-check with the local view, then a job through the remote device */
  if (hl_read(local, base, back, len) || memcmp(buf, back, len)) {
    r = tf_fail(t, "tcp write not visible locally");
    goto out;
  }
  uint64_t t0 = hl_now(d);
  hl_run(d, 1000);
  if (hl_now(d) - t0 < 1000) {
    r = tf_fail(t, "remote run/now: %llu cycles", (unsigned long long)(hl_now(d) - t0));
    goto out;
  }
  if (hl_attach_fw(d, 100000) != HL_OK || hl_hif_addr(d) != hl_hif_addr(local)) {
    r = tf_fail(t, "attach over tcp: %s", hl_error(d));
    goto out;
  }
  hl_job_t j;
  job1(&j, 15, TESSERA_HBM_BASE + 0x200000u, 16);
  uint32_t eq = hl_eq_present(d);
  if ((eq >> 15) & 1u) j.cb[0].eq = 14;
  uint32_t seq;
  if (hl_submit(d, &j, &seq)) {
    r = tf_fail(t, "submit over tcp: %s", hl_error(d));
    goto out;
  }
  r = expect_job(t, d, seq, HL_FAILED, HIF_CAUSE_BAD_QUEUE, ~0u, 400000, NULL);
  if (r != TF_PASS) goto out;
  tf_log(t, "port %d: %u-byte memory round trip, job %u over tcp", s.port, len, seq);
  r = TF_PASS;
out:
  if (d) {
    hl_shutdown_server(d);
    hl_close(d);
  } else {
    s.stop = 1;
    hl_dev_t *k = NULL;
    if (s.port && hl_open_tcp("127.0.0.1", s.port, &k) == HL_OK) {
      hl_shutdown_server(k);
      hl_close(k);
    }
  }
  pthread_join(th, NULL);
  if (r == TF_PASS && s.rc != HL_OK) r = tf_fail(t, "server returned %d", s.rc);
  hl_close(local);
  return r;
}

/* ------------------------------------------------------------------ serial */
TF_TEST(hostlink, serial, 3000000) {
  hl_dev_t *local, *d = NULL;
  DEV_OPEN(t, local, 1);
  int rc = hl_open_sim_uart(t->sim, &d);
  if (rc) return tf_fail(t, "serial HELLO: %s; UART '%s'", hl_strerror(rc), tsim_uart_log(t->sim));
  for (int i = 0; i < 4; i++) {
    uint32_t v = tf_rand32(t), a = SYSC(SCRATCH0) + 4u * tf_rand_below(t, 3), got = 0;
    HL_CHECK(t, d, hl_write32(d, a, v));
    TF_CHECK_OK(t, tsim_host_read32(t->sim, a, &got));
    TF_CHECK_EQ(t, got, v);
    HL_CHECK(t, d, hl_read32(d, a, &got));
    TF_CHECK_EQ(t, got, v);
  }
  uint32_t w[6], back[6], a = TESSERA_HBM_BASE + 4u * tf_rand_below(t, 1u << 20);
  for (int i = 0; i < 6; i++) w[i] = tf_rand32(t);
  HL_CHECK(t, d, hl_write(d, a, w, sizeof w));
  HL_CHECK(t, local, hl_read(local, a, back, sizeof back));
  TF_CHECK(t, !memcmp(w, back, sizeof w));
  memset(back, 0, sizeof back);
  HL_CHECK(t, d, hl_read(d, a, back, sizeof back));
  TF_CHECK(t, !memcmp(w, back, sizeof w));
  uint32_t x;
  TF_CHECK(t, hl_read32(d, UNMAPPED, &x) == HL_EBUS);
  TF_CHECK(t, hl_write32(d, UNMAPPED + 4u, 5) == HL_EBUS);
  /* the firmware survived the bus errors and still schedules */
  uint32_t fw = 0;
  HL_CHECK(t, d, hl_read32(d, SYSC(FW_STATUS), &fw));
  TF_CHECK_EQ(t, fw & 0xFFu, 2u);
  hl_close(d);
  hl_close(local);
  return TF_PASS;
}
