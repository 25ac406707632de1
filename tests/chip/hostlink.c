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
 *   serve_limits     a shared server against one client: a frame left incomplete
 *                    (dropped at the timeout, others answered), WAIT over the maximum
 *                    (refused without running the chip)
 *   serial           serial framing through the simulator's UART to the
 *                    firmware's frame handler: registers, memory, bus error
 *   serial_resend    a corrupt request and a corrupt answer: each sent again, each
 *                    request run once by the firmware
 *   dma_job ... (engine tests, need the queue managers in the chip; they fail
 *                if the configuration names queue slots the firmware did not find)
 *   coherence        a source range rewritten by the host before each copy job
 *                    is read fresh (no stale L2 line), results visible at completion
 *   gemm_dma         GEMM on MME0 -> DMA copy of C with a dependency started
 *                    by a Sync-Manager monitor; C golden-checked
 *   gemm_tpc         GEMM on MME0 -> TPC relu kernel on C with a dependency
 *                    (built when the chip has the TPC cluster); golden-checked
 *   pipeline_gemm_tpc  one job: GEMM row slices on MME0, each slice's completion
 *                    message releases the TPC queue's fence, relu of slice i on
 *                    the TPCs while the MME computes slice i + 1; golden-checked
 *   queue_error      an unknown opcode -> refused by the packet check; a register
 *                    write the engine refuses -> QMAN cause, queue reset; the
 *                    next job on that queue completes
 *   watchdog         a job that waits forever on a fence is aborted at its
 *                    budget; a later job on the same queue completes
 *   priorities       jobs in all four rings: completion order follows priority
 *   fast_path        the doorbell fast path at its edges: valid jobs started by it,
 *                    each job one step past an edge refused exactly like the
 *                    general check, no write in the workspace but the valid copies
 *   fuzz             1000 random command buffers (valid and with one defect each)
 *                    through hostlink and the firmware: exact refusal, no stray
 *                    or lost write in the whole arena (own line; hostlink_soak/fuzz: 100 000)
 *   bench_doorbell   (bench) doorbell -> first engine queue start through the firmware
 *   bench_rate       (bench) sustained rate of small jobs */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cp_model.h"
#include "elf32.h"
#include "elf32_bad.h"
#include "hostlink.h"
#include "mme_golden.h"
#include "numfmt.h"
#include "regs/clint_regs.h"
#include "regs/intc_regs.h"
#include "regs/dma_regs.h"
#include "regs/mme_regs.h"
#include "regs/syncmgr_regs.h"
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

/* Broken copies of the firmware ELF (hostlib/elf32_bad.h): hl_load rejects each
 * with HL_EFILE, a message naming the file and the problem (the shared ELF
 * reader's), and writes nothing (a canary over the first segment's load address
 * stays). */
TF_TEST(hostlink, load_bad_elf, 3000000) {
  const char *fw = fw_elf();
  if (!tf_file_exists(fw)) {
    if (tf_sw_expected(fw)) return tf_fail(t, "%s is listed in SW_ALL but was not built", fw);
    return tf_skip(t, "%s not built yet", fw);
  }
  FILE *f = fopen(fw, "rb");
  TF_CHECK(t, f != NULL);
  static uint8_t good[1u << 20];
  size_t n = fread(good, 1, sizeof good, f);
  fclose(f);
  TF_CHECK(t, n >= 52 && n < sizeof good);
  uint32_t ph = elf32_bad_first_load(good, n);
  TF_CHECK(t, ph != 0);
  uint32_t load = elf32_bad_rd32(good + ph + 12);
  hl_dev_t *d;
  DEV_OPEN(t, d, 0);
  uint32_t canary[4] = {0xC0FFEE01u, 0xC0FFEE02u, 0xC0FFEE03u, 0xC0FFEE04u}, back[4];
  HL_CHECK(t, d, hl_write(d, load, canary, sizeof canary));

  static uint8_t bad[sizeof good];
  char path[] = "/tmp/hostlink_badelf_XXXXXX";
  int fd = mkstemp(path);
  TF_CHECK(t, fd >= 0);
  close(fd);
  for (int k = 0; k < ELF32_BAD_CASES; k++) {
    size_t len;
    const char *why = elf32_bad_case(k, good, n, ph, bad, &len);
    f = fopen(path, "wb");
    TF_CHECK(t, f != NULL);
    TF_CHECK(t, fwrite(bad, 1, len, f) == len);
    fclose(f);
    int rc = hl_load(d, path, 0, 0, 100000);
    if (rc != HL_EFILE || !strstr(hl_error(d), why) || !strstr(hl_error(d), path)) {
      unlink(path);
      return tf_fail(t, "case %d: rc %d '%s', expected HL_EFILE naming %s and '%s'", k, rc, hl_error(d), path, why);
    }
    tf_log(t, "case %d: %s", k, hl_error(d));
    HL_CHECK(t, d, hl_read(d, load, back, sizeof back));
    if (memcmp(back, canary, sizeof back)) {
      unlink(path);
      return tf_fail(t, "case %d: a rejected ELF wrote device memory at 0x%08x", k, load);
    }
  }
  unlink(path);
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
  /* a DMA go in tensor mode: SRC/DST/SIZE lie inside the job's buffer, but the copy's
   * footprint is in tensor descriptors the packet check does not follow: refused */
  int dq = hl_queue_id("dma0");
  if (dq >= 0 && ((hl_eq_present(d) >> dq) & 1u)) {
    hl_cb_t tc;
    hl_cb_init(&tc);
    uint32_t tca, nbuf = 4096u;
    hl_cb_nop(&tc, 0);
    uint32_t toff = hl_cb_bytes(&tc);
    uint32_t v[4] = {0, 0, 32u, DMA__CTRL__GO_bm | DMA__CTRL__TENSOR_bm};
    hl_cb_wreg_bulk(&tc, 0, (uint32_t)offsetof(dma_t, SRC), 4, v);
    hl_cb_stop(&tc, 0);
    HL_CHECK(t, d, hl_cb_upload(d, &tc, &tca));
    job1(&j, dq, tca, hl_cb_bytes(&tc));
    j.buf[0].size = nbuf;   /* the buffer holds the packets and the 32 bytes at its end */
    v[0] = v[1] = tca + nbuf - 32u;
    hl_cb_clear(&tc);
    hl_cb_nop(&tc, 0);
    hl_cb_wreg_bulk(&tc, 0, (uint32_t)offsetof(dma_t, SRC), 4, v);
    hl_cb_stop(&tc, 0);
    HL_CHECK(t, d, hl_write(d, tca, hl_cb_words(&tc), hl_cb_bytes(&tc)));
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_PACKET, HIF_PKT_DETAIL(0, HIF_PKT_DMA_RANGE, toff), 200000);
    hl_cb_free(&tc);
  }
  /* a MSG_LONG whose reserved word w3 is not 0 (its target inside the buffer):
   * refused as the queue manager would (RESERVED), the target left alone */
  if (q >= 0) {
    hl_cb_t mc;
    hl_cb_init(&mc);
    uint32_t mca, nbuf = 4096u, w3 = 1u << tf_rand_below(t, 32), tgt = 0;
    HL_CHECK(t, d, hl_alloc(d, nbuf, 64, &mca));   /* the job's buffer: its packets first */
    hl_cb_nop(&mc, 0);
    uint32_t moff = hl_cb_bytes(&mc);
    hl_cb_msg_long(&mc, 0, mca + nbuf - 4u, 0x600DF00Du);
    hl_cb_stop(&mc, 0);
    HL_CHECK(t, d, hl_write(d, mca, hl_cb_words(&mc), hl_cb_bytes(&mc)));
    HL_CHECK(t, d, hl_write(d, mca + moff + 12u, &w3, 4));
    HL_CHECK(t, d, hl_write(d, mca + nbuf - 4u, &tgt, 4));
    job1(&j, eq, mca, hl_cb_bytes(&mc));
    j.buf[0].size = nbuf;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_PACKET, HIF_PKT_DETAIL(0, CP_ERR_RESERVED, moff), 200000);
    HL_CHECK(t, d, hl_read(d, mca + nbuf - 4u, &tgt, 4));
    TF_CHECK_EQ(t, tgt, 0);
    /* a MSG_LONG into its own command buffer (a checked packet replaced by an
     * unchecked one): refused (MSG_TARGET), the buffer unchanged */
    uint32_t over = moff + 4u * tf_rand_below(t, 4);   /* a word of the MSG_LONG itself */
    hl_cb_clear(&mc);
    hl_cb_nop(&mc, 0);
    hl_cb_msg_long(&mc, 0, mca + over, CP_OP_MSG_LONG);
    hl_cb_stop(&mc, 0);
    HL_CHECK(t, d, hl_write(d, mca, hl_cb_words(&mc), hl_cb_bytes(&mc)));
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_FAILED, HIF_CAUSE_PACKET, HIF_PKT_DETAIL(0, HIF_PKT_MSG_TARGET, moff), 200000);
    uint32_t back[8];
    HL_CHECK(t, d, hl_read(d, mca, back, hl_cb_bytes(&mc)));
    TF_CHECK(t, !memcmp(back, hl_cb_words(&mc), hl_cb_bytes(&mc)));
    hl_cb_free(&mc);
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

/* ------------------------------------------------------------------ serve_limits
 * What one client can do to the others of a shared server: a frame left incomplete
 * (the client is dropped after the frame timeout, another client is answered
 * meanwhile) and a WAIT far over the per-request maximum (refused at once, no cycle
 * run). (A chip run into its cycle budget and recovered by RESET: hostlink_cli, against
 * chip_tb --serve --max-cycles.) */
typedef struct {
  const hl_ops_t *ops;
  void *ctx;
  volatile int port, stop;
  int rc;
  hl_serve_opts_t o;
} srvx_t;
static void *srvx_main(void *arg) {
  srvx_t *s = arg;
  s->rc = hl_serve_ex(s->ops, s->ctx, 0, &s->port, &s->stop, 0, &s->o);
  return NULL;
}

/* A raw connection to 127.0.0.1:port whose receives give up after ms. */
static int raw_connect(int port, int ms) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  if (fd < 0) return -1;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
    close(fd);
    return -1;
  }
  return fd;
}
static void le_put(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t le_get(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
/* One request frame without payload and its answer (docs/hostlink.md, tcp frames);
 * 0, or -1 when the answer did not come (closed or timed out). */
static int raw_call(int fd, uint32_t op, uint64_t arg, int32_t *st, uint64_t *value) {
  uint8_t h[20], r[16];
  le_put(h, op, 4);
  le_put(h + 4, 0, 4);
  le_put(h + 8, arg, 8);
  le_put(h + 16, 0, 4);
  if (send(fd, h, sizeof h, MSG_NOSIGNAL) != (ssize_t)sizeof h) return -1;
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = recv(fd, r + got, sizeof r - got, 0);
    if (n <= 0) return -1;
    got += (size_t)n;
  }
  *st = (int32_t)le_get(r, 4);
  *value = le_get(r + 4, 8);
  return le_get(r + 12, 4) ? -1 : 0;   /* no payload expected */
}
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define SL_FRAME_MS 300u    /* the server's frame timeout */
TF_TEST(hostlink, serve_limits, 100000) {
  hl_dev_t *local = NULL;
  TF_CHECK(t, hl_open_sim_attach(t->sim, &local) == HL_OK);
  srvx_t s;
  memset(&s, 0, sizeof s);
  s.ops = hl_transport(local, &s.ctx);
  hl_serve_opts_default(&s.o);
  s.o.frame_timeout_ms = SL_FRAME_MS;
  pthread_t th;
  TF_CHECK(t, pthread_create(&th, NULL, srvx_main, &s) == 0);
  for (int i = 0; i < 2000 && !s.port; i++) usleep(1000);
  int r = TF_FAIL, a = -1, b = -1;
  int32_t st = 0;
  uint64_t v = 0, c0 = 0, c1 = 0;
  if (!s.port) {
    r = tf_fail(t, "server did not bind");
    goto out;
  }
  /* scenario "partial frame": A sends 10 of the 20 header bytes and stops; B is
   * answered at once, A is dropped after the frame timeout */
  a = raw_connect(s.port, 5000);
  b = raw_connect(s.port, 5000);
  uint8_t half[10] = {6, 0, 0, 0, 0, 0, 0, 0, 1, 2};   /* the start of a WAIT */
  double t0 = now_ms();
  if (a < 0 || b < 0 || send(a, half, sizeof half, MSG_NOSIGNAL) != (ssize_t)sizeof half) {
    r = tf_fail(t, "cannot connect to port %d", s.port);
    goto out;
  }
  usleep(20000);
  if (raw_call(b, 8 /* HELLO */, 0, &st, &v) || st != HL_OK || v != 0x4B4C4854u) {
    r = tf_fail(t, "partial frame: client B not answered while A holds a partial frame (status %d)", st);
    goto out;
  }
  double tb = now_ms() - t0;
  uint8_t x;
  ssize_t n = recv(a, &x, 1, 0);
  double ta = now_ms() - t0;
  if (n != 0 || ta < SL_FRAME_MS * 0.9 || ta > SL_FRAME_MS + 3000.0) {
    r = tf_fail(t, "partial frame: client A %s after %.0f ms (frame timeout %u ms)",
                n == 0 ? "dropped" : "not dropped", ta, SL_FRAME_MS);
    goto out;
  }
  tf_log(t, "partial frame: B answered after %.0f ms, A dropped after %.0f ms", tb, ta);
  /* scenario "wait bound": WAIT 2^62 and HL_SERVE_MAX_WAIT + 1 are refused without
   * running the chip; the maximum itself is accepted (not run here: 10 M cycles) */
  if (raw_call(b, 7 /* NOW */, 0, &st, &c0) || st) {
    r = tf_fail(t, "NOW failed");
    goto out;
  }
  uint64_t big[2] = {1ull << 62, HL_SERVE_MAX_WAIT + 1u};
  for (int i = 0; i < 2; i++)
    if (raw_call(b, 6 /* WAIT */, big[i], &st, &v) || st != HL_EARG) {
      r = tf_fail(t, "wait bound: WAIT %llu answered %d, expected %d (HL_EARG)", (unsigned long long)big[i], st,
                  HL_EARG);
      goto out;
    }
  if (raw_call(b, 7 /* NOW */, 0, &st, &c1) || st || c1 != c0) {
    r = tf_fail(t, "wait bound: the refused WAITs ran %llu cycles", (unsigned long long)(c1 - c0));
    goto out;
  }
  if (raw_call(b, 6 /* WAIT */, 1000, &st, &v) || st != HL_OK || raw_call(b, 7, 0, &st, &c1) || c1 - c0 < 1000) {
    r = tf_fail(t, "wait bound: WAIT 1000 status %d, %llu cycles", st, (unsigned long long)(c1 - c0));
    goto out;
  }
  r = TF_PASS;
out:
  if (a >= 0) close(a);
  if (b >= 0) close(b);
  s.stop = 1;
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

/* serial_resend: the frames over a channel that corrupts one request and one answer.
 * The corrupt request is dropped by the firmware (CRC); the host sends it again. The
 * corrupt answer makes the host send its request again, same bytes and tag; the
 * firmware answers from the answer it kept instead of running the request twice:
 * fw_frames (requests the firmware ran) grows by one per distinct request. */
typedef struct {
  tsim_t *s;
  size_t rd;                    /* UART log bytes consumed */
  unsigned put_n, put_bad;      /* bytes sent; the one to corrupt (1-based, 0 none) */
  unsigned req_n;               /* request frames started (A5 sent at a frame start) */
  unsigned rsp_n, rsp_bad, skip;/* answers seen; the one whose tag byte to corrupt */
} fch_t;
static int fch_put(void *c, const uint8_t *b, size_t n) {
  fch_t *f = c;
  for (size_t i = 0; i < n; i++) {
    uint8_t x = b[i];
    if (i == 0 && x == 0xA5u) f->req_n++;
    if (++f->put_n == f->put_bad) x ^= 0x10u;
    tsim_uart_input(f->s, &x, 1);
  }
  return 0;
}
static int fch_get(void *c, uint64_t cycles) {
  fch_t *f = c;
  const uint64_t t0 = tsim_cycles(f->s);
  while (tsim_uart_len(f->s) <= f->rd) {
    if (tsim_cycles(f->s) - t0 >= cycles) return -1;
    if (tsim_step(f->s, 40)) return -1;
  }
  uint8_t x = (uint8_t)tsim_uart_log(f->s)[f->rd++];
  if (f->skip && !--f->skip) x ^= 0x01u;   /* the tag byte of the chosen answer */
  if (x == 0xA6u && ++f->rsp_n == f->rsp_bad) f->skip = 2;
  return x;
}
static int fch_idle(void *c, uint64_t cycles) { return tsim_step(((fch_t *)c)->s, cycles) ? -1 : 0; }
static uint64_t fch_now(void *c) { return tsim_cycles(((fch_t *)c)->s); }
static const hl_bytes_t fch_io = {fch_put, fch_get, fch_idle, fch_now, NULL};

typedef struct {
  const char *name;
  uint32_t value;
  int found;
} symq_t;
static void sym_find(void *c, const char *name, uint32_t value) {
  symq_t *q = c;
  if (!strcmp(name, q->name)) q->value = value, q->found = 1;
}

TF_TEST(hostlink, serial_resend, 8000000) {
  hl_dev_t *local, *d = NULL;
  DEV_OPEN(t, local, 1);
  /* the address of fw_frames from the firmware's ELF */
  FILE *fp = fopen(fw_elf(), "rb");
  TF_CHECK(t, fp != NULL);
  static uint8_t img[1u << 20];
  const size_t n = fread(img, 1, sizeof img, fp);
  fclose(fp);
  elf32_t e;
  char err[128];
  TF_CHECK(t, elf32_parse(&e, img, n, err, sizeof err) == 0);
  symq_t q = {"fw_frames", 0, 0};
  elf32_symbols(&e, sym_find, &q);
  TF_CHECK(t, q.found);
  tsim_step(t->sim, 20000);   /* let the firmware's banner out before the frames */
  fch_t f = {t->sim, tsim_uart_len(t->sim), 0, 5u + 3u, 0, 0, 4u, 0};   /* request 2's tag; answer 4 */
  const uint32_t f0 = tsim_mem_read32(t->sim, q.value);
  int rc = hl_open_serial_bytes(&fch_io, &f, &d);
  if (rc) return tf_fail(t, "serial HELLO over the faulty channel: %s", hl_strerror(rc));
  const uint32_t v0 = tf_rand32(t), v1 = tf_rand32(t);
  uint32_t got = 0;
  HL_CHECK(t, d, hl_write32(d, SYSC(SCRATCH0), v0));   /* request 2: corrupt, dropped, sent again */
  HL_CHECK(t, d, hl_write32(d, SYSC(SCRATCH1), v1));   /* request 3 */
  HL_CHECK(t, d, hl_read32(d, SYSC(SCRATCH0), &got));  /* request 4: its answer corrupt, sent again */
  TF_CHECK_EQ(t, got, v0);
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(SCRATCH1), &got));
  TF_CHECK_EQ(t, got, v1);
  const uint32_t ran = tsim_mem_read32(t->sim, q.value) - f0;
  tf_log(t, "%u request frames sent for 4 requests, %u run by the firmware", f.req_n, ran);
  TF_CHECK_EQ(t, f.req_n, 6u);   /* HELLO, 2 (twice), 3, 4 (twice) */
  TF_CHECK_EQ(t, ran, 4u);       /* the corrupt one not run, the resend of 4 not run again */
  hl_close(d);
  hl_close(local);
  return TF_PASS;
}

/* ------------------------------------------------------------------ engine jobs */
#define QM_ADDR(k, r) (TESSERA_QMAN_ADDR(k) + (uint32_t)offsetof(qman_t, r))

/* The engine queue `name` if the configuration has it. Fails the test if the
 * configuration places the queue managers but the firmware did not find it;
 * skips while the chip has no queue managers. */
static int need_queue(tf_ctx_t *t, hl_dev_t *d, const char *name, int *eq) {
  *eq = hl_queue_id(name);
  if (*eq < 0) return tf_skip(t, "no queue-manager slots in this configuration (%s)", name);
  if (!((hl_eq_present(d) >> *eq) & 1u))
    return tf_fail(t, "queue %s (slot %d) not found by the firmware (present 0x%04x)", name, *eq, hl_eq_present(d));
  return TF_PASS;
}
#define NEED_QUEUE(t, d, name, eq)                   \
  do {                                               \
    int r_ = need_queue((t), (d), (name), &(eq));    \
    if (r_ != TF_PASS) {                             \
      hl_close(d);                                   \
      return r_;                                     \
    }                                                \
  } while (0)

/* Upload cb into the workspace at *off and describe it as command buffer i of job j. */
static int put_cb(tf_ctx_t *t, hl_dev_t *d, hl_job_t *j, unsigned i, int eq, const hl_cb_t *cb, uint32_t ws,
                  uint32_t *off) {
  HL_CHECK(t, d, hl_write(d, ws + *off, hl_cb_words(cb), hl_cb_bytes(cb)));
  j->cb[i].eq = eq;
  j->cb[i].addr = ws + *off;
  j->cb[i].size = hl_cb_bytes(cb);
  if (j->ncb < i + 1) j->ncb = i + 1;
  *off += (hl_cb_bytes(cb) + 63u) & ~63u;
  return TF_PASS;
}
#define PUT_CB(t, d, j, i, eq, cb, ws, off)                          \
  do {                                                               \
    int r_ = put_cb((t), (d), (j), (i), (eq), (cb), (ws), (off));    \
    if (r_ != TF_PASS) return r_;                                    \
  } while (0)

static void job_ws(hl_job_t *j, uint32_t ws, uint32_t size) {
  memset(j, 0, sizeof *j);
  j->nbuf = 1;
  j->buf[0].base = ws;
  j->buf[0].size = size;
}
/* job_ws plus a host-memory buffer (DMA transfers only) */
static void job_ws_host(hl_job_t *j, uint32_t ws, uint32_t size, uint32_t hb, uint32_t hsize) {
  job_ws(j, ws, size);
  j->nbuf = 2;
  j->buf[1].base = hb;
  j->buf[1].size = hsize;
}

static void fill_rand(tf_ctx_t *t, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)tf_rand32(t);
}

/* DMA copy jobs: one buffer on dma0, then one job with a buffer on each DMA
 * queue; every destination byte checked, nothing written past it; a transfer
 * the DMA engine refuses ends the job with an engine error. */
/* ------------------------------------------------------------------ fast path */
/* The firmware's doorbell fast path (firmware.md, "Fast paths"; hand-scheduled
 * assembly) against the general check, one job at a time with the firmware idle
 * so that every doorbell goes through it: jobs at the edges of what it accepts
 * must complete, started within the fast path's time; every job just past an edge
 * must end with exactly the cause and detail of the general check, and nothing in
 * the workspace (job buffers and guard regions) may change but the copies of the
 * valid jobs (a host model of the whole workspace). */
#define FP_WS    0x10000u   /* workspace: guard | buffer A (16 KiB) | guard | buffer C (4 KiB) | guard */
#define FP_A     0x1000u
#define FP_ASZ   0x4000u
#define FP_C     0x8000u
#define FP_CSZ   0x1000u
#define FP_LAT   450u       /* doorbell -> first start: the general path takes longer than this */

typedef struct {
  tf_ctx_t *t;
  hl_dev_t *d;
  uint32_t ws;
  uint8_t model[FP_WS];
  int dma0, dma1, other;
  unsigned fast;   /* valid jobs started by the fast path */
} fp_t;

/* Submit job j (its command buffers already in device memory) with the firmware
 * idle; it must end with `cause` and `detail` (0: completed); then the whole
 * workspace must equal the model. A completed job must have been started by the
 * fast path (t_first_start - t_doorbell below FP_LAT). */
static int fp_job(fp_t *f, const char *what, hl_job_t *j, uint32_t cause, uint32_t detail) {
  tf_ctx_t *t = f->t;
  hl_dev_t *d = f->d;
  uint32_t seq;
  HL_CHECK(t, d, hl_run(d, 3000 + tf_rand_below(t, 500)));
  HL_CHECK(t, d, hl_submit(d, j, &seq));
  hl_completion_t c;
  int r = expect_job(t, d, seq, cause ? HL_FAILED : HL_COMPLETED, cause, cause ? detail : ~0u, 200000, &c);
  if (r != TF_PASS) return tf_fail(t, "%s: see above", what);
  if (cause && c.t_start != 0u) return tf_fail(t, "%s: refused, but t_start = %u (never started: 0)", what, c.t_start);
  if (!cause) {
    /* (a scheduler pass that runs when the job arrives, e.g. the timer tick's,
     * takes it before the doorbell is seen: then the doorbell is noted after
     * the start and there is no doorbell latency to check) */
    hif_counters_t k;
    HL_CHECK(t, d, hl_fw_counters(d, &k));
    uint32_t lat = k.t_first_start - k.t_doorbell;
    if (lat >= 0x80000000u) {
      tf_log(t, "%s: taken by a scheduler pass before its doorbell", what);
    } else if (lat >= FP_LAT) {
      return tf_fail(t, "%s: started %u cycles after the doorbell (the fast path: < %u)", what, lat, FP_LAT);
    } else {
      f->fast++;
    }
  }
  static uint8_t got[FP_WS];
  HL_CHECK(t, d, hl_read(d, f->ws, got, FP_WS));
  for (uint32_t i = 0; i < FP_WS; i++)
    if (got[i] != f->model[i])
      return tf_fail(t, "%s: workspace byte 0x%x = 0x%02x, expected 0x%02x", what, i, got[i], f->model[i]);
  return TF_PASS;
}

/* Write the command buffer's words at workspace offset off (and into the model). */
static int fp_cb(fp_t *f, uint32_t off, const uint32_t *w, uint32_t nw) {
  HL_CHECK(f->t, f->d, hl_write(f->d, f->ws + off, w, 4u * nw));
  memcpy(f->model + off, w, 4u * nw);
  return TF_PASS;
}

/* A job of one command buffer of nw words at buffer A's start on queue eq, buffer A. */
static void fp_job1(fp_t *f, hl_job_t *j, int eq, uint32_t nw) {
  memset(j, 0, sizeof *j);
  j->ncb = 1;
  j->cb[0].eq = eq;
  j->cb[0].addr = f->ws + FP_A;
  j->cb[0].size = 4u * nw;
  j->nbuf = 1;
  j->buf[0].base = f->ws + FP_A;
  j->buf[0].size = FP_ASZ;
}

#define FP_RUN(f, what, j, cause, det)                        \
  do {                                                        \
    int r_ = fp_job((f), (what), (j), (cause), (det));        \
    if (r_ != TF_PASS) return r_;                             \
  } while (0)
#define FP_CB(f, off, ...)                                                       \
  do {                                                                           \
    const uint32_t w_[] = {__VA_ARGS__};                                         \
    if (fp_cb((f), (off), w_, (uint32_t)(sizeof w_ / 4u)) != TF_PASS) return TF_FAIL; \
  } while (0)
#define PKT(cb, why, off) HIF_PKT_DETAIL((cb), (why), (off))
#define LIN(src, dst, size) (uint32_t)CP_OP_LIN_DMA, (uint32_t)(size), (uint32_t)(src), (uint32_t)(dst)
#define STOP (uint32_t)CP_OP_STOP, 0u

TF_TEST(hostlink, fast_path, 4000000) {
  static fp_t fs;
  fp_t *f = &fs;
  memset(f, 0, sizeof *f);
  f->t = t;
  DEV_OPEN(t, f->d, 1);
  hl_dev_t *d = f->d;
  NEED_QUEUE(t, d, "dma0", f->dma0);
  NEED_QUEUE(t, d, "dma1", f->dma1);
  NEED_QUEUE(t, d, "mme0", f->other);
  HL_CHECK(t, d, hl_alloc(d, FP_WS, 4096, &f->ws));
  for (uint32_t i = 0; i < FP_WS; i++) f->model[i] = (uint8_t)tf_rand32(t);
  HL_CHECK(t, d, hl_write(d, f->ws, f->model, FP_WS));
  const uint32_t A = f->ws + FP_A, AE = A + FP_ASZ, C = f->ws + FP_C;
  /* random 32-byte aligned source and destination inside buffer A, clear of the command buffer */
  uint32_t sz = 32u * (1u + tf_rand_below(t, 8));
  uint32_t src = A + 0x400u + 32u * tf_rand_below(t, 64), dst = AE - sz;   /* dst ends at A's end */
  hl_job_t j;
  /* valid: LIN_DMA up to the last byte of the buffer */
  FP_CB(f, FP_A, LIN(src, dst, sz), STOP);
  fp_job1(f, &j, f->dma0, 6);
  memmove(f->model + (dst - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "copy to the end of the buffer", &j, 0, 0);
  /* valid: every packet kind of the fast path (MSG_SHORT to the last user object) */
  uint32_t dst2 = A + 0x2000u + 32u * tf_rand_below(t, 32);
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, (uint32_t)CP_OP_WAIT, 5u, (uint32_t)CP_OP_FENCE | (3u << 16), 0u,
        (uint32_t)CP_OP_MSG_SHORT | ((uint32_t)(TESSERA_SYNC_OBJECTS - 17u) << 16), 1u, LIN(src, dst2, sz), STOP);
  fp_job1(f, &j, f->dma0, 14);
  memmove(f->model + (dst2 - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "NOP, WAIT, FENCE 3, MSG_SHORT, LIN_DMA", &j, 0, 0);
  /* valid: source in buffer A, destination in buffer C (two buffers) */
  uint32_t dst3 = C + FP_CSZ - sz;
  FP_CB(f, FP_A, LIN(src, dst3, sz), STOP);
  fp_job1(f, &j, f->dma0, 6);
  j.nbuf = 2;
  j.buf[1].base = C;
  j.buf[1].size = FP_CSZ;
  memmove(f->model + (dst3 - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "copy between two buffers", &j, 0, 0);
  /* valid: two command buffers on the two DMA queues */
  uint32_t dst4 = A + 0x3000u, dst5 = A + 0x3400u;
  FP_CB(f, FP_A, LIN(src, dst4, sz), STOP);
  FP_CB(f, FP_A + 0x100u, LIN(src, dst5, sz), STOP);
  fp_job1(f, &j, f->dma0, 6);
  j.ncb = 2;
  j.cb[1].eq = f->dma1;
  j.cb[1].addr = A + 0x100u;
  j.cb[1].size = 24;
  memmove(f->model + (dst4 - f->ws), f->model + (src - f->ws), sz);
  memmove(f->model + (dst5 - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "two queues", &j, 0, 0);
  /* valid: the destination starts right at the end of the 32-byte command buffer */
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, LIN(src, A + 32u, sz), STOP);
  fp_job1(f, &j, f->dma0, 8);
  memmove(f->model + (A + 32u - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "copy right behind the command buffer", &j, 0, 0);
  /* refused: each one step past an edge */
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, LIN(src, A, sz), STOP);
  fp_job1(f, &j, f->dma0, 8);
  FP_RUN(f, "destination over the command buffer", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 8));
  FP_CB(f, FP_A, LIN(src, A + 0x100u - 32u + 8u * (1u + tf_rand_below(t, 4)), 32u), STOP);
  FP_CB(f, FP_A + 0x100u, STOP);
  fp_job1(f, &j, f->dma0, 6);
  j.ncb = 2;
  j.cb[1].eq = f->dma1;
  j.cb[1].addr = A + 0x100u;
  j.cb[1].size = 8;
  FP_RUN(f, "destination over the other queue's command buffer", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, LIN(src, dst + 32u, sz), STOP);
  fp_job1(f, &j, f->dma0, 6);
  FP_RUN(f, "destination 32 bytes past the buffer", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, LIN(A - 32u, dst, sz), STOP);
  FP_RUN(f, "source 32 bytes before the buffer", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, LIN(src, dst, 0u), STOP);
  FP_RUN(f, "size 0", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, LIN(src, 0xFFFFFFE0u, 64u), STOP);
  FP_RUN(f, "destination wrapping past 2^32", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, LIN(A + 0x2000u - 32u, AE - 64u, 64u), STOP);
  j.nbuf = 2;   /* A split in two adjacent buffers: the source straddles them */
  j.buf[0].size = 0x2000u;
  j.buf[1].base = A + 0x2000u;
  j.buf[1].size = FP_ASZ - 0x2000u;
  FP_RUN(f, "source across two buffers", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0));
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, LIN(src, dst, sz));
  fp_job1(f, &j, f->dma0, 4);   /* the LIN_DMA's last 8 bytes are past the buffer's end */
  FP_RUN(f, "LIN_DMA truncated", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_TRUNCATED, 8));
  FP_CB(f, FP_A, LIN(src, dst, sz), STOP);
  fp_job1(f, &j, f->other, 6);
  FP_RUN(f, "LIN_DMA on the MME's queue", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_NOT_DMA, 0));
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, (uint32_t)CP_OP_FENCE | (4u << 16), 0u, STOP);
  fp_job1(f, &j, f->dma0, 6);
  FP_RUN(f, "FENCE 4", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_BAD_FENCE, 8));
  FP_CB(f, FP_A, (uint32_t)CP_OP_MSG_SHORT | ((uint32_t)(TESSERA_SYNC_OBJECTS - 16u) << 16), 1u, STOP);
  fp_job1(f, &j, f->dma0, 4);
  FP_RUN(f, "MSG_SHORT to the firmware's first object", &j, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_FW_OBJECT, 0));
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP | (1u << (10 + tf_rand_below(t, 6))), 0u, STOP);
  FP_RUN(f, "reserved header bit", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_RESERVED, 0));
  FP_CB(f, FP_A, (uint32_t)CP_OP_COUNT, 0u, STOP);
  FP_RUN(f, "unknown opcode", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_OPCODE, 0));
  FP_CB(f, FP_A, (uint32_t)CP_OP_NOP, 0u, (uint32_t)CP_OP_WAIT, 1u);
  FP_RUN(f, "no STOP", &j, HIF_CAUSE_PACKET, PKT(0, CP_ERR_NO_STOP, 16));
  FP_CB(f, FP_A + 0x100u, (uint32_t)CP_OP_NOP | (1u << 12), 0u, STOP);
  FP_CB(f, FP_A, STOP);
  fp_job1(f, &j, f->dma0, 2);
  j.ncb = 2;
  j.cb[1].eq = f->dma1;
  j.cb[1].addr = A + 0x100u;
  j.cb[1].size = 16;
  FP_RUN(f, "the second command buffer refused", &j, HIF_CAUSE_PACKET, PKT(1, CP_ERR_RESERVED, 0));
  fp_job1(f, &j, f->dma0, 2);
  j.cb[0].addr = AE - 8u;
  j.cb[0].size = 16;
  FP_RUN(f, "command buffer 8 bytes past the buffer", &j, HIF_CAUSE_CB_RANGE, 0);
  fp_job1(f, &j, f->dma0, 2);
  j.nbuf = 2;
  j.buf[1].base = C;
  j.buf[1].size = 0;
  FP_RUN(f, "an empty second buffer", &j, HIF_CAUSE_BUF_RANGE, 1);
  fp_job1(f, &j, f->dma0, 2);
  j.ncb = 2;
  j.cb[1] = j.cb[0];
  FP_RUN(f, "one queue twice", &j, HIF_CAUSE_BAD_QUEUE, (1u << 8) | (uint32_t)f->dma0);
  /* the fast path still takes a valid job after all that */
  FP_CB(f, FP_A, LIN(src, dst, sz), STOP);
  fp_job1(f, &j, f->dma1, 6);
  memmove(f->model + (dst - f->ws), f->model + (src - f->ws), sz);
  FP_RUN(f, "copy after the refusals", &j, 0, 0);
  /* (six valid jobs in ~50 000 cycles: the 20 000-cycle timer tick can meet two or three) */
  tf_log(t, "%u of 6 valid jobs started by the fast path", f->fast);
  TF_CHECK(t, f->fast >= 3u);
  hl_close(d);
  return TF_PASS;
}

TF_TEST(hostlink, dma_job, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q0, q1;
  NEED_QUEUE(t, d, "dma0", q0);
  NEED_QUEUE(t, d, "dma1", q1);
  uint32_t ws, wsz = 1u << 20, off = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  static uint8_t src[65536], dst[65536 + 64], zero[65536 + 64];
  /* Halves stay whole L2 lines: the two queues' DMA engines sit behind different L2
   * slices, which write back whole lines, so they must not write parts of one line
   * (docs/l2.md, "Coherence"). */
  uint32_t n = 2u * TESSERA_L2_LINE_BYTES * (1u + tf_rand_below(t, 16384u / (2u * TESSERA_L2_LINE_BYTES)));
  fill_rand(t, src, 2u * n);
  uint32_t s_off = 0x10000u, d_off = 0x40000u;
  HL_CHECK(t, d, hl_write(d, ws + s_off, src, 2u * n));
  HL_CHECK(t, d, hl_write(d, ws + d_off, zero, 2u * n + 64u));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  job_ws(&j, ws, wsz);
  hl_cb_lin_dma(&cb, 0, ws + s_off, ws + d_off, n);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, q0, &cb, ws, &off);
  uint32_t s1, s2;
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  hl_completion_t c;
  if (expect_job(t, d, s1, HL_COMPLETED, 0, 0, 400000, &c) != TF_PASS) return TF_FAIL;
  HL_CHECK(t, d, hl_read(d, ws + d_off, dst, n + 64u));
  TF_CHECK(t, !memcmp(dst, src, n));
  TF_CHECK(t, !memcmp(dst + n, zero, 64));
  tf_log(t, "job %u: %u-byte copy, %u cycles from start to completion seen", s1, n, c.t_end - c.t_start);
  /* two queues in one job: each copies one half of the next range */
  job_ws(&j, ws, wsz);
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws + s_off, ws + d_off + n, n / 2u);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, q0, &cb, ws, &off);
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws + s_off + n / 2u, ws + d_off + n + n / 2u, n - n / 2u);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 1, q1, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s2));
  if (expect_job(t, d, s2, HL_COMPLETED, 0, 0, 400000, NULL) != TF_PASS) return TF_FAIL;
  HL_CHECK(t, d, hl_read(d, ws + d_off + n, dst, n + 64u));
  TF_CHECK(t, !memcmp(dst, src, n));
  TF_CHECK(t, !memcmp(dst + n, zero, 64));
  /* a transfer the DMA engine refuses (size not a multiple of 32): engine error 1 */
  uint32_t s3;
  job_ws(&j, ws, wsz);
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws + s_off, ws + d_off, 32u * (1u + tf_rand_below(t, 8)) + 8u * (1u + tf_rand_below(t, 3)));
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, tf_rand_below(t, 2) ? q1 : q0, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s3));
  EXPECT_JOB(t, d, s3, HL_FAILED, HIF_CAUSE_ENGINE, 1u /* cb 0, DMA error 1 */, 400000);
  hif_counters_t k;
  HL_CHECK(t, d, hl_fw_counters(d, &k));
  TF_CHECK_EQ(t, k.jobs_ok, 2);
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* A completion message enabled by one job must not outlive it: job A enables dma0's
 * message (MSG_CTRL, target a word of A's buffer) for its copy; job B then copies
 * on dma0 without touching MSG_CTRL. The firmware turns the engines' messages off
 * when a job ends, so B's copy writes nothing into A's buffer (before, it sent A's
 * message again). Both copies are checked. */
TF_TEST(hostlink, stale_message, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q;
  NEED_QUEUE(t, d, "dma0", q);
  uint32_t wa, wb, wsz = 0x4000u, offa = 0, offb = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &wa));
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &wb));
  static uint8_t src[256], got[256];
  fill_rand(t, src, sizeof src);
  HL_CHECK(t, d, hl_write(d, wa + 0x1000u, src, sizeof src));
  HL_CHECK(t, d, hl_write(d, wb + 0x1000u, src, sizeof src));
  uint32_t marker = wa + 0x3000u, zero = 0, v = 0, data = 0xA11C0000u | tf_rand_below(t, 0x10000);
  HL_CHECK(t, d, hl_write(d, marker, &zero, 4));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  uint32_t s1, s2;
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(dma_t, MSG_ADDR), marker);
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(dma_t, MSG_DATA), data);
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(dma_t, MSG_CTRL), DMA__MSG_CTRL__EN_bm);
  hl_cb_lin_dma(&cb, 0, wa + 0x1000u, wa + 0x2000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, wa, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, wa, &offa);
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  EXPECT_JOB(t, d, s1, HL_COMPLETED, 0, 0, 200000);
  HL_CHECK(t, d, hl_read(d, marker, &v, 4));
  TF_CHECK_EQ(t, v, data);   /* A's message was sent */
  HL_CHECK(t, d, hl_read(d, wa + 0x2000u, got, sizeof got));
  TF_CHECK(t, !memcmp(got, src, sizeof got));
  HL_CHECK(t, d, hl_write(d, marker, &zero, 4));
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, wb + 0x1000u, wb + 0x2000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, wb, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, wb, &offb);
  HL_CHECK(t, d, hl_submit(d, &j, &s2));
  EXPECT_JOB(t, d, s2, HL_COMPLETED, 0, 0, 200000);
  HL_CHECK(t, d, hl_read(d, wb + 0x2000u, got, sizeof got));
  TF_CHECK(t, !memcmp(got, src, sizeof got));
  HL_CHECK(t, d, hl_read(d, marker, &v, 4));
  if (v != 0u) return tf_fail(t, "job B's copy wrote 0x%08x into job A's buffer (A's stale completion message)", v);
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* Host<->device DMA through the firmware (docs/dma.md "Host port", docs/hostlink.md):
 * host memory from hl_host_alloc (the simulator's host-memory model) is one of the
 * job's buffers. A job on a DMA queue copies host -> device and, after an engine
 * barrier, device -> host; both copies are compared with the source. Refused: a LIN_DMA
 * from host memory the job did not list (packet check, DMA range), a command buffer in a
 * host buffer (the queue managers fetch from device memory), a host buffer that runs
 * past the host window. A job after them still completes. */
TF_TEST(hostlink, dma_host_job, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q0, q1;
  NEED_QUEUE(t, d, "dma0", q0);
  NEED_QUEUE(t, d, "dma1", q1);
  int q = tf_rand_below(t, 2) ? q1 : q0;
  uint32_t ws, wsz = 1u << 20, off = 0, hb, hsz = 1u << 18;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  HL_CHECK(t, d, hl_host_alloc(d, hsz, 4096, &hb));
  TF_CHECK(t, hb >= TESSERA_HOST_BASE && hb - TESSERA_HOST_BASE < TESSERA_HOST_SIZE);
  static uint8_t src[65536], got[65536 + 64], zero[65536 + 64];
  uint32_t n = 32u * (1u + tf_rand_below(t, 2048)), h_in = 32u * tf_rand_below(t, 256);
  uint32_t h_out = 0x20000u + 32u * tf_rand_below(t, 256), d_off = 0x40000u + 32u * tf_rand_below(t, 256);
  fill_rand(t, src, n);
  HL_CHECK(t, d, hl_write(d, hb + h_in, src, n));
  HL_CHECK(t, d, hl_write(d, hb + h_out, zero, n + 64u));
  HL_CHECK(t, d, hl_write(d, ws + d_off, zero, n + 64u));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  job_ws_host(&j, ws, wsz, hb, hsz);
  hl_cb_lin_dma(&cb, 0, hb + h_in, ws + d_off, n);
  hl_cb_lin_dma(&cb, HL_EB, ws + d_off, hb + h_out, n);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  uint32_t s1;
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  hl_completion_t c;
  if (expect_job(t, d, s1, HL_COMPLETED, 0, 0, 400000, &c) != TF_PASS) return TF_FAIL;
  HL_CHECK(t, d, hl_read(d, hb + h_out, got, n + 64u));
  TF_CHECK(t, !memcmp(got, src, n));
  TF_CHECK(t, !memcmp(got + n, zero, 64));
  HL_CHECK(t, d, hl_read(d, ws + d_off, got, n + 64u));   /* (written back by the completion) */
  TF_CHECK(t, !memcmp(got, src, n));
  TF_CHECK(t, !memcmp(got + n, zero, 64));
  tf_log(t, "job %u: %u bytes host -> device -> host, %u cycles from start to completion", s1, n,
         c.t_end - c.t_start);
  /* host memory the job does not list */
  uint32_t s;
  job_ws(&j, ws, wsz);
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, hb + h_in, ws + d_off, n);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s));
  EXPECT_JOB(t, d, s, HL_FAILED, HIF_CAUSE_PACKET, PKT(0, HIF_PKT_DMA_RANGE, 0), 400000);
  /* a command buffer inside a host buffer */
  job_ws_host(&j, ws, wsz, hb, hsz);
  j.ncb = 1;
  j.cb[0].eq = q;
  j.cb[0].addr = hb + 0x30000u;
  j.cb[0].size = hl_cb_bytes(&cb);
  HL_CHECK(t, d, hl_write(d, hb + 0x30000u, hl_cb_words(&cb), hl_cb_bytes(&cb)));
  HL_CHECK(t, d, hl_submit(d, &j, &s));
  EXPECT_JOB(t, d, s, HL_FAILED, HIF_CAUSE_CB_RANGE, 0, 400000);
  /* a host buffer past the end of the host window */
  job_ws(&j, ws, wsz);
  j.nbuf = 2;
  j.buf[1].base = TESSERA_HOST_BASE + TESSERA_HOST_SIZE - 4096u;
  j.buf[1].size = 8192u;
  hl_cb_clear(&cb);
  hl_cb_stop(&cb, 0);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s));
  EXPECT_JOB(t, d, s, HL_FAILED, HIF_CAUSE_BUF_RANGE, 1, 400000);
  /* the queue still works: device -> host again */
  HL_CHECK(t, d, hl_write(d, hb + h_out, zero, n + 64u));
  job_ws_host(&j, ws, wsz, hb, hsz);
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws + d_off, hb + h_out, n);
  hl_cb_stop(&cb, HL_EB);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s));
  EXPECT_JOB(t, d, s, HL_COMPLETED, 0, 0, 400000);
  HL_CHECK(t, d, hl_read(d, hb + h_out, got, n + 64u));
  TF_CHECK(t, !memcmp(got, src, n));
  TF_CHECK(t, !memcmp(got + n, zero, 64));
  HL_CHECK(t, d, hl_free(d, hb));
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* The coherence contract through the firmware (docs/l2.md): one source range
 * reused by every round, rewritten by the host behind the L2 slices before each
 * copy job (the DMA reads allocate in its slice, so a line kept from the last
 * round would shadow the new data), jobs alternating the DMA queues, started
 * at once or through a dependency; each result is read by the host right after
 * the completion (written back by then). */
TF_TEST(hostlink, coherence, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q[2];
  NEED_QUEUE(t, d, "dma0", q[0]);
  NEED_QUEUE(t, d, "dma1", q[1]);
  uint32_t ws, wsz = 1u << 18, off = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  static uint8_t src[4096], dst[4096 + 64];
  const uint32_t s_off = 0x10000u, d_off = 0x20000u;
  hl_cb_t cb;
  hl_cb_init(&cb);
  uint32_t prev = 0;
  for (unsigned r = 0; r < 6; r++) {
    uint32_t n = 64u * (1u + tf_rand_below(t, 64));
    fill_rand(t, src, n);
    HL_CHECK(t, d, hl_write(d, ws + s_off, src, n));
    hl_job_t j;
    job_ws(&j, ws, wsz);
    hl_cb_clear(&cb);
    hl_cb_lin_dma(&cb, 0, ws + s_off, ws + d_off + 0x1000u * r, n);
    hl_cb_stop(&cb, HL_EB);
    PUT_CB(t, d, &j, 0, q[r & 1u], &cb, ws, &off);
    if (r >= 3 && prev) {   /* later rounds: through the dependency path */
      j.ndep = 1;
      j.dep[0] = prev;
    }
    uint32_t seq;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    EXPECT_JOB(t, d, seq, HL_COMPLETED, 0, 0, 400000);
    prev = seq;
    HL_CHECK(t, d, hl_read(d, ws + d_off + 0x1000u * r, dst, n));
    if (memcmp(dst, src, n)) {
      unsigned k = 0;
      while (dst[k] == src[k]) k++;
      return tf_fail(t, "round %u (%u bytes on queue %d): byte %u is 0x%02x, expected 0x%02x (stale L2 line?)", r, n,
                     q[r & 1u], k, dst[k], src[k]);
    }
  }
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* ------------------------------------------------------------------ fuzz
 * Random command buffers, valid and malformed, through hostlink and the
 * firmware. The arena holds FZ_SLOTS job buffers separated by guard regions;
 * the host keeps a model of the whole arena. A valid buffer mixes NOP, WAIT,
 * FENCE (target 0), MSG_SHORT to user objects, MSG_LONG into its own message
 * area, register writes the engine ignores until a go, and on DMA queues
 * copies (LIN_DMA or the descriptor registers + go) from the job's source area
 * into its own destination area. A malformed buffer has exactly one defect, so
 * the firmware's packet check must refuse the job with HIF_CAUSE_PACKET and the
 * exact reason and packet offset, and nothing of the job may run (defects include a
 * TPC commit with its program outside the buffer, reason 21, and a command buffer of
 * 1 MiB or more in a second, long buffer of the job, reason 20). After every
 * batch of concurrently submitted jobs (several rings, shared queues) the whole
 * arena must equal the model: no stray write, no lost write. */
#define FZ_SLOTS   6u
#define FZ_GUARD   0x1000u
#define FZ_BUF     0x8000u                  /* one job buffer */
#define FZ_STRIDE  (FZ_BUF + FZ_GUARD)
#define FZ_CB(c)   (0x400u * (c))           /* 1 KiB per command buffer */
#define FZ_SRC     0x1000u                  /* 8 KiB source data, never written */
#define FZ_DST(c)  (0x3000u + 0x1400u * (c)) /* 4 KiB DMA destination + 1 KiB messages per cb */
#define FZ_MSG(c)  (FZ_DST(c) + 0x1000u)
#define FZ_WORDS   128u                     /* words per command buffer at most */
#define FZ_LONG    ((1u << 20) + 64u)       /* the long-buffer region (TOO_LONG defects) */
#if __has_include("regs/tpc_regs.h")
#include "regs/tpc_regs.h"
#define FZ_TPC 1                            /* TPC_RANGE defects on the TPC queue */
#endif

typedef struct {
  tf_ctx_t *t;
  uint32_t arena, asz;                      /* device address, bytes (guard + slots) */
  uint8_t *model;
  int kind[HIF_NUM_EQ];                     /* 0 other, 1 MME, 2 DMA, 3 TPC */
  uint32_t lbuf;                            /* FZ_LONG bytes of device memory, never written */
  unsigned n_long, n_tpc;                   /* TOO_LONG and TPC_RANGE defects drawn so far */
  uint32_t eqs[HIF_NUM_EQ], neq;
  uint32_t dma_regs;                        /* DMA register offsets (offsetof in dma_t) */
  unsigned defects[24];
} fz_t;

#define FZ_OFF_DMA(r) ((uint32_t)offsetof(dma_t, r))
#define FZ_OFF_MME(r) ((uint32_t)offsetof(mme_t, r))

/* An address outside the job's buffer: a guard region, another slot, a
 * firmware object, the interrupt controller, or far away in device memory. */
static uint32_t fz_outside(fz_t *f, uint32_t slot) {
  uint32_t base = f->arena + FZ_GUARD + slot * FZ_STRIDE;
  switch (tf_rand_below(f->t, 5)) {
    case 0: return base - 4u * (1u + tf_rand_below(f->t, FZ_GUARD / 4u));
    case 1: return base + FZ_BUF + 4u * tf_rand_below(f->t, FZ_GUARD / 4u);
    case 2: return f->arena + FZ_GUARD + ((slot + 1u) % FZ_SLOTS) * FZ_STRIDE + 4u * tf_rand_below(f->t, FZ_BUF / 4u);
    case 3: return TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * (TESSERA_SYNC_OBJECTS - 1u - tf_rand_below(f->t, 16));
    default: return TESSERA_HBM_BASE + 4u * tf_rand_below(f->t, 1u << 18);
  }
}

/* Append one valid packet for cb c of a job in slot `slot` on queue eq; the
 * model is updated with what it writes. */
static void fz_valid_pkt(fz_t *f, hl_cb_t *cb, uint32_t slot, unsigned c, int eq, uint8_t *mdl) {
  tf_ctx_t *t = f->t;
  uint32_t base = f->arena + FZ_GUARD + slot * FZ_STRIDE;
  uint32_t fl = tf_rand_below(t, 4) == 0 ? HL_EB : tf_rand_below(t, 4) == 0 ? HL_MB : 0;
  int k = f->kind[eq];
  switch (tf_rand_below(t, k == 2 ? 8 : 7)) {
    case 0: hl_cb_nop(cb, fl); break;
    case 1: hl_cb_wait(cb, fl, tf_rand_below(t, 16)); break;
    case 2: hl_cb_fence(cb, fl, tf_rand_below(t, 4), 0); break;
    case 3: hl_cb_msg_short(cb, fl, tf_rand_below(t, TESSERA_SYNC_OBJECTS - 16u), tf_rand_below(t, 2), tf_rand32(t) & 0x7FFFu); break;
    case 4:
    case 5: {
      uint32_t a = FZ_MSG(c) + 4u * tf_rand_below(t, 256), v = tf_rand32(t);
      hl_cb_msg_long(cb, fl, base + a, v);
      memcpy(mdl + a, &v, 4);
      break;
    }
    case 6:   /* a register the engine only uses at a go/commit */
      if (k == 2) hl_cb_wreg32(cb, fl, FZ_OFF_DMA(FILL), tf_rand32(t));
      else if (k == 1) hl_cb_wreg32(cb, fl, FZ_OFF_MME(SCALE), 0);
      else hl_cb_nop(cb, fl);
      break;
    default: {   /* DMA copy inside the job buffer */
      uint32_t n = 32u * (1u + tf_rand_below(t, 8));
      uint32_t s = FZ_SRC + 32u * tf_rand_below(t, (0x2000u - n) / 32u + 1u);
      uint32_t d = FZ_DST(c) + 32u * tf_rand_below(t, (0x1000u - n) / 32u + 1u);
      if (tf_rand_below(t, 2)) {
        hl_cb_lin_dma(cb, HL_EB, base + s, base + d, n);
      } else {
        uint32_t v[4] = {base + s, base + d, n, 1u};
        hl_cb_wreg_bulk(cb, HL_EB, FZ_OFF_DMA(SRC), 4, v);
      }
      memmove(mdl + d, mdl + s, n);
      break;
    }
  }
}

/* Append one defective packet (or make the buffer defective); returns the
 * expected reason, *off gets the offset the firmware must report. Returns 0
 * if this defect does not apply to the queue (the caller picks another).
 * *too_long: the command buffer is to be a long one (1 MiB or more) in f->lbuf. */
static uint32_t fz_bad_pkt(fz_t *f, hl_cb_t *cb, uint32_t slot, int eq, uint32_t *off, int *no_stop, int *trunc,
                           int *too_long) {
  tf_ctx_t *t = f->t;
  uint32_t base = f->arena + FZ_GUARD + slot * FZ_STRIDE;
  int k = f->kind[eq];
  *off = hl_cb_bytes(cb);
  /* the first defect is a TOO_LONG one, the first on the TPC queue a TPC_RANGE one
   * (so that every run has both), then one of the 17 kinds at random */
#ifdef FZ_TPC
  const int tpc = k == 3;
#else
  const int tpc = 0;
#endif
  unsigned d = !f->n_long ? 16u : tpc && (!f->n_tpc || tf_rand_below(t, 3) == 0) ? 15u : tf_rand_below(t, 17);
  uint32_t w[4];
  switch (d) {
    case 15: {   /* a TPC commit whose program is not inside the job's buffer */
#ifdef FZ_TPC
      if (k != 3) return 0;
      uint32_t len = 1u + tf_rand_below(t, 4), at = tf_rand_below(t, 2) ? fz_outside(f, slot) & ~31u
                                                                           : base + FZ_BUF - 32u * (len - 1u);
      if (at == base + FZ_BUF) len++, at -= 32u;   /* straddle the end by at least 32 bytes */
      hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, PROG_ADDR), at);
      hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, PROG_LEN), len);
      hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, NTENSORS), 0);
      *off = hl_cb_bytes(cb);
      hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, CTRL), TPC__CTRL__COMMIT_bm);
      f->n_tpc++;
      return HIF_PKT_TPC_RANGE;
#else
      return 0;
#endif
    }
    case 16:   /* longer than the check walks: refused before any packet is read */
      *too_long = 1;
      *off = 0;
      f->n_long++;
      return HIF_PKT_TOO_LONG;
    case 0: w[0] = 0x00u | ((1u + tf_rand_below(t, 63)) << 10); w[1] = 0; hl_cb_raw(cb, w, 2); return 13; /* RESERVED */
    case 1: w[0] = 0x09u + tf_rand_below(t, 0xF7u); w[1] = 0; hl_cb_raw(cb, w, 2); return 1;            /* OPCODE */
    case 2: hl_cb_msg_long(cb, 0, base + FZ_MSG(0), 1); *trunc = 1; return 2;                            /* TRUNCATED */
    case 3: *no_stop = 1; return 12;                                                                    /* NO_STOP */
    case 4: hl_cb_wreg32(cb, 0, 4u * tf_rand_below(t, 64) + 1u + tf_rand_below(t, 3), 0); return 3;     /* REG_RANGE */
    case 5: {
      uint32_t v[8] = {0};
      hl_cb_wreg_bulk(cb, 0, 0x10000u - 4u * (1u + tf_rand_below(t, 7)), 8, v);
      return 3;
    }
    case 6: w[0] = 0x02u | (0u << 16); w[1] = tf_rand_below(t, 2) ? 0u : 257u + tf_rand_below(t, 1000); hl_cb_raw(cb, w, 2); return 11; /* BULK_COUNT */
    case 7:
      if (tf_rand_below(t, 2)) {   /* a reserved w3 not 0, the target inside the buffer */
        w[0] = 0x03u; w[1] = 1; w[2] = base + FZ_MSG(0); w[3] = 1u << tf_rand_below(t, 32);
        hl_cb_raw(cb, w, 4);
        return 13;                                                                                     /* RESERVED */
      }
      hl_cb_msg_long(cb, 0, base + FZ_MSG(0) + 1u + tf_rand_below(t, 3), 1); return 14;                 /* MSG_ALIGN */
    case 8: hl_cb_msg_long(cb, 0, fz_outside(f, slot), tf_rand32(t)); return HIF_PKT_MSG_TARGET;
    case 9: hl_cb_msg_short(cb, 0, TESSERA_SYNC_OBJECTS - 16u + tf_rand_below(t, 16 + 100), 1, 1); return HIF_PKT_FW_OBJECT;
    case 10: hl_cb_fence(cb, 0, 4u + tf_rand_below(t, 60), 0); return 8;                               /* BAD_FENCE */
    case 11:
      if (k == 2) return 0;
      hl_cb_lin_dma(cb, 0, base + FZ_SRC, base + FZ_DST(0), 32);
      return 10;                                                                                        /* NOT_DMA */
    case 12: {
      if (k != 2) return 0;
      uint32_t n = 32u * (1u + tf_rand_below(t, 8)), out = fz_outside(f, slot) & ~31u;
      if (tf_rand_below(t, 2)) hl_cb_lin_dma(cb, 0, base + FZ_SRC, out, n);
      else if (tf_rand_below(t, 2)) hl_cb_lin_dma(cb, 0, out, base + FZ_DST(0), n);
      else if (tf_rand_below(t, 2)) {   /* straddles the end of the buffer */
        uint32_t v[4] = {base + FZ_SRC, base + FZ_BUF - 32u, 64u, DMA__CTRL__GO_bm};
        hl_cb_wreg_bulk(cb, 0, FZ_OFF_DMA(SRC), 4, v);
      } else {   /* a tensor copy: SRC/DST/SIZE inside, but its descriptors are not checked */
        uint32_t v[4] = {base + FZ_SRC, base + FZ_DST(0), 32u, DMA__CTRL__GO_bm | DMA__CTRL__TENSOR_bm};
        hl_cb_wreg_bulk(cb, 0, FZ_OFF_DMA(SRC), 4, v);
      }
      return HIF_PKT_DMA_RANGE;
    }
    case 13: {   /* an engine completion message to an outside address, enabled */
      if (k != 1 && k != 2) return 0;
      uint32_t in = base + FZ_SRC;
      hl_cb_wreg32(cb, 0, k == 2 ? FZ_OFF_DMA(MSG_ADDR) : FZ_OFF_MME(MSG_ADDR), fz_outside(f, slot));
      hl_cb_wreg32(cb, 0, k == 2 ? FZ_OFF_DMA(MSG_CTRL) : FZ_OFF_MME(MSG_CTRL), 1);
      if (k == 2) {
        *off = hl_cb_bytes(cb);
        hl_cb_lin_dma(cb, 0, in, base + FZ_DST(0), 32);
      } else {
        uint32_t v[10] = {in, in, base + FZ_DST(0), 0, 16, 16, 16, 64, 64, 64};
        hl_cb_wreg_bulk(cb, 0, FZ_OFF_MME(A_ADDR), 10, v);
        hl_cb_wreg32(cb, 0, FZ_OFF_MME(DTYPE), 0x011u);
        *off = hl_cb_bytes(cb);
        hl_cb_wreg32(cb, 0, FZ_OFF_MME(CTRL), MME__CTRL__COMMIT_bm);
      }
      return HIF_PKT_MSG_TARGET;
    }
    default: {   /* an MME commit whose C (or A) lies outside */
      if (k != 1) return 0;
      uint32_t in = base + FZ_SRC, out = fz_outside(f, slot) & ~31u, ca = tf_rand_below(t, 2);
      uint32_t v[10] = {ca ? in : out, in, ca ? out : in, 0, 16, 16, 16, 64, 64, 64};
      hl_cb_wreg_bulk(cb, 0, FZ_OFF_MME(A_ADDR), 10, v);
      hl_cb_wreg32(cb, 0, FZ_OFF_MME(DTYPE), 0x011u);   /* BF16 x BF16 -> BF16 */
      *off = hl_cb_bytes(cb);
      hl_cb_wreg32(cb, 0, FZ_OFF_MME(CTRL), MME__CTRL__COMMIT_bm);
      return HIF_PKT_MME_RANGE;
    }
  }
}

static int fz_run(tf_ctx_t *t, unsigned ncb_total) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  fz_t f;
  memset(&f, 0, sizeof f);
  f.t = t;
  int q;
  NEED_QUEUE(t, d, "dma0", q);
  uint32_t present = hl_eq_present(d);
  const char *names[] = {"mme0", "mme1", "dma0", "dma1", "tpc"};
  for (unsigned i = 0; i < 5; i++) {
    int e = hl_queue_id(names[i]);
    if (e >= 0 && ((present >> e) & 1u)) f.kind[e] = names[i][0] == 'm' ? 1 : names[i][0] == 'd' ? 2 : 3;
  }
  for (unsigned e = 0; e < HIF_NUM_EQ; e++)
    if ((present >> e) & 1u) f.eqs[f.neq++] = e;
  f.asz = FZ_GUARD + FZ_SLOTS * FZ_STRIDE;
  HL_CHECK(t, d, hl_alloc(d, f.asz, 4096, &f.arena));
  HL_CHECK(t, d, hl_alloc(d, FZ_LONG, 4096, &f.lbuf));
  f.model = malloc(f.asz);
  uint8_t *got = malloc(f.asz);
  fill_rand(t, f.model, f.asz);
  HL_CHECK(t, d, hl_write(d, f.arena, f.model, f.asz));
  hl_cb_t cb;
  hl_cb_init(&cb);
  unsigned ncb = 0, nbad = 0, njobs = 0, nbatch = 0;
  unsigned reasons[32] = {0};
  while (ncb < ncb_total) {
    uint32_t seqs[FZ_SLOTS], exp_det[FZ_SLOTS];
    int bad[FZ_SLOTS];
    unsigned nj = FZ_SLOTS;
    for (uint32_t s = 0; s < nj; s++) {
      uint32_t base = f.arena + FZ_GUARD + s * FZ_STRIDE, mo = FZ_GUARD + s * FZ_STRIDE;
      hl_job_t j;
      memset(&j, 0, sizeof j);
      j.nbuf = 1;
      j.buf[0].base = base;
      j.buf[0].size = FZ_BUF;
      j.sq = tf_rand_below(t, HIF_NUM_SQ);
      j.no_irq = tf_rand_below(t, 2);
      /* distinct queues, 1..4 buffers */
      uint32_t order[HIF_NUM_EQ];
      memcpy(order, f.eqs, sizeof order);
      for (unsigned i = f.neq; i > 1; i--) {
        unsigned r = tf_rand_below(t, i), x = order[i - 1];
        order[i - 1] = order[r], order[r] = x;
      }
      /* mostly full jobs: the firmware's per-job cost is shared by more buffers */
      unsigned nmax = f.neq < HIF_MAX_CBS ? f.neq : HIF_MAX_CBS;
      unsigned n = tf_rand_below(t, 4) ? nmax : 1 + tf_rand_below(t, nmax);
      int bad_cb = tf_rand_below(t, 5) < 2 ? (int)tf_rand_below(t, n) : -1;
      uint8_t *mdl = malloc(FZ_BUF);   /* this job's effect on its buffer (applied if it is valid) */
      memcpy(mdl, f.model + mo, FZ_BUF);
      for (unsigned c = 0; c < n; c++) {
        int eq = (int)order[c];
        hl_cb_clear(&cb);
        unsigned np = tf_rand_below(t, 4);
        int no_stop = 0, trunc = 0, too_long = 0;
        uint32_t why = 0, off = 0;
        unsigned at = (int)c == bad_cb ? tf_rand_below(t, np + 1) : ~0u;
        for (unsigned p = 0; p <= np; p++) {
          if (p == at) {
            do why = fz_bad_pkt(&f, &cb, s, eq, &off, &no_stop, &trunc, &too_long);
            while (!why);
            break;
          }
          if (p < np) fz_valid_pkt(&f, &cb, s, c, eq, mdl);
        }
        if (too_long) {   /* 1 MiB .. FZ_LONG bytes in a second buffer of the job; its contents never read */
          j.buf[1].base = f.lbuf;
          j.buf[1].size = FZ_LONG;
          j.nbuf = 2;
          j.cb[c].eq = eq;
          j.cb[c].addr = f.lbuf;
          j.cb[c].size = (1u << 20) + 8u * tf_rand_below(t, 9);
          exp_det[s] = HIF_PKT_DETAIL(c, why, off), reasons[why]++;
          continue;
        }
        if (!no_stop && !trunc) hl_cb_stop(&cb, HL_EB);
        uint32_t bytes = hl_cb_bytes(&cb) - (trunc ? 8u : 0u);
        if (no_stop) off = bytes;
        if (bytes == 0) {   /* an empty buffer is a descriptor error, not a packet one: give it a NOP */
          hl_cb_nop(&cb, 0);
          bytes = off = 8;
        }
        if (bytes > 4u * FZ_WORDS) return tf_fail(t, "fuzz: buffer too long (%u bytes)", bytes);
        HL_CHECK(t, d, hl_write(d, base + FZ_CB(c), hl_cb_words(&cb), bytes));
        memcpy(mdl + FZ_CB(c), hl_cb_words(&cb), bytes);
        memcpy(f.model + mo + FZ_CB(c), hl_cb_words(&cb), bytes);
        j.cb[c].eq = eq;
        j.cb[c].addr = base + FZ_CB(c);
        j.cb[c].size = bytes;
        if (why) exp_det[s] = HIF_PKT_DETAIL(c, why, off), reasons[why]++;
      }
      j.ncb = n;
      bad[s] = bad_cb >= 0;
      if (!bad[s]) memcpy(f.model + mo, mdl, FZ_BUF);
      free(mdl);
      int rc = hl_submit(d, &j, &seqs[s]);
      if (rc == HL_EFULL) return tf_fail(t, "fuzz: ring %u full", j.sq);
      HL_CHECK(t, d, rc);
      ncb += n;
      nbad += bad[s];
    }
    for (uint32_t s = 0; s < nj; s++) {
      hl_completion_t c;
      memset(&c, 0, sizeof c);
      int w = hl_wait(d, seqs[s], 400000, &c);
      if (bad[s] ? (w != HL_FAILED || c.cause != HIF_CAUSE_PACKET || c.detail != exp_det[s]) : w != HL_COMPLETED)
        return tf_fail(t, "fuzz batch %u slot %u job %u: %s cause %u (%s) detail 0x%08x, expected %s detail 0x%08x", nbatch,
                       s, seqs[s], hl_wait_name(w), c.cause, hl_cause_name(c.cause), c.detail,
                       bad[s] ? "error bad packet" : "completed", bad[s] ? exp_det[s] : 0u);
    }
    njobs += nj;
    HL_CHECK(t, d, hl_read(d, f.arena, got, f.asz));
    if (memcmp(got, f.model, f.asz)) {
      uint32_t i = 0;
      while (got[i] == f.model[i]) i++;
      return tf_fail(t, "fuzz batch %u: arena byte 0x%x (slot %d, offset 0x%x) is 0x%02x, model 0x%02x", nbatch, i,
                     i < FZ_GUARD ? -1 : (int)((i - FZ_GUARD) / FZ_STRIDE), i < FZ_GUARD ? i : (i - FZ_GUARD) % FZ_STRIDE,
                     got[i], f.model[i]);
    }
    nbatch++;
  }
  hif_counters_t k;
  HL_CHECK(t, d, hl_fw_counters(d, &k));
  tf_log(t, "fuzz: %u command buffers (%u malformed jobs of %u) in %u batches; reasons:", ncb, nbad, njobs, nbatch);
  for (unsigned r = 0; r < 32; r++)
    if (reasons[r]) tf_log(t, "  reason %u: %u", r, reasons[r]);
  TF_CHECK_EQ(t, k.jobs_ok, njobs - nbad);
  TF_CHECK_EQ(t, k.jobs_error, nbad);
  /* the reasons only these buffers reach were drawn: 20 TOO_LONG always, 21 TPC_RANGE
   * where the chip has the TPC queue */
  int have_tpc = 0;
#ifdef FZ_TPC
  for (unsigned e = 0; e < HIF_NUM_EQ; e++) have_tpc |= f.kind[e] == 3;
#endif
  if (nbad && !reasons[HIF_PKT_TOO_LONG]) return tf_fail(t, "fuzz: reason 20 (TOO_LONG) never drawn");
  if (nbad > 20u && have_tpc && !reasons[HIF_PKT_TPC_RANGE])
    return tf_fail(t, "fuzz: reason 21 (TPC_RANGE) never drawn in %u malformed jobs", nbad);
  free(got);
  free(f.model);
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* Own line in make test (`hostlink_fuzz`), not in "all": ~1.1 M cycles. */
TF_TEST_F(hostlink, fuzz, 20000000, TF_BENCH) {
  const char *e = getenv("HOSTLINK_FUZZ_CBS");   /* calibration only; the suite runs 1000 */
  return fz_run(t, e ? (unsigned)atoi(e) : 1000u);
}
TF_TEST_F(hostlink_soak, fuzz, 2000000000, TF_BENCH) { return fz_run(t, 100000); }

/* A random BF16 x BF16 -> FP32 GEMM around the array size, its golden C, and
 * a workspace in device memory holding A, B, C, one spare C-sized area (X) and
 * room for command buffers from ws + off. */
typedef struct {
  mme_gold_job g;
  uint32_t lda, ldb, ldc;
  size_t asz, bsz, csz;
  uint8_t *a, *b, *c0, *cexp, *got;
  uint32_t ws, wsz, A, B, C, X, off;
  int c_through;  /* C written through to memory on an L2 miss (MME CACHE.wr_alloc = 0) */
} gemm_t;

static void gemm_free(gemm_t *m) {
  free(m->a), free(m->b), free(m->c0), free(m->cexp), free(m->got);
}

static uint32_t gen_bf16(tf_ctx_t *t) {
  uint32_t x = (tf_rand32(t) & 0x80000000u) | ((119u + tf_rand_below(t, 16)) << 23) | (tf_rand32(t) & 0x7FFFFFu);
  return nf_convert(NF_FP32, NF_BF16, x, 0, 1);
}

static int gemm_setup(tf_ctx_t *t, hl_dev_t *d, gemm_t *m) {
  const uint32_t R = TESSERA_MME_ROWS;
  memset(m, 0, sizeof *m);
  mme_gold_job *g = &m->g;
  g->m = R + 1u + tf_rand_below(t, R);
  g->n = R - 3u + tf_rand_below(t, R);
  g->k = R + tf_rand_below(t, 2u * R);
  g->ta = g->tb = NF_BF16;
  g->tc = NF_FP32;
  /* C's rows (and those of X, the TPC's output in gemm_tpc) on whole L2 lines: the TPC
   * cluster splits rows over TPCs of both DCOREs; since the slices' byte-dirty mask this
   * is no longer required (docs/l2.md, "Byte granularity"), kept for the figures */
  m->lda = (g->k * 2u + 31u) & ~31u, m->ldb = (g->n * 2u + 31u) & ~31u,
  m->ldc = (g->n * 4u + TESSERA_L2_LINE_BYTES - 1u) & ~(TESSERA_L2_LINE_BYTES - 1u);
  m->asz = (size_t)g->m * m->lda, m->bsz = (size_t)g->k * m->ldb, m->csz = (size_t)g->m * m->ldc;
  m->a = calloc(1, m->asz), m->b = calloc(1, m->bsz), m->c0 = calloc(1, m->csz);
  m->cexp = calloc(1, m->csz), m->got = calloc(1, m->csz);
  for (uint32_t r = 0; r < g->m; r++)
    for (uint32_t k = 0; k < g->k; k++) mme_st(m->a + (size_t)r * m->lda + 2u * k, 2, gen_bf16(t));
  for (uint32_t r = 0; r < g->k; r++)
    for (uint32_t n = 0; n < g->n; n++) mme_st(m->b + (size_t)r * m->ldb + 2u * n, 2, gen_bf16(t));
  for (size_t i = 0; i < m->csz; i++) m->c0[i] = (uint8_t)(0xA5u ^ i);
  memcpy(m->cexp, m->c0, m->csz);
  mme_golden(g, m->a, m->lda, m->b, m->ldb, m->c0, m->cexp, m->ldc, NULL);
  m->wsz = 1u << 20;
  HL_CHECK(t, d, hl_alloc(d, m->wsz, 4096, &m->ws));
  m->A = m->ws;
  m->B = m->A + (((uint32_t)m->asz + 255u) & ~255u);
  m->C = m->B + (((uint32_t)m->bsz + 255u) & ~255u);
  m->X = m->C + (((uint32_t)m->csz + 255u) & ~255u);
  m->off = m->X + (((uint32_t)m->csz + 255u) & ~255u) - m->ws;
  HL_CHECK(t, d, hl_write(d, m->A, m->a, m->asz));
  HL_CHECK(t, d, hl_write(d, m->B, m->b, m->bsz));
  HL_CHECK(t, d, hl_write(d, m->C, m->c0, m->csz));
  /* X (a consumer's output) filled with another pattern than C: a result element
   * never written and one computed from a stale C read differ */
  for (size_t i = 0; i < m->csz; i++) m->got[i] = (uint8_t)(0x3Cu ^ i);
  HL_CHECK(t, d, hl_write(d, m->X, m->got, m->csz));
  return TF_PASS;
}

/* The GEMM's command buffer for an MME queue: registers, commit, STOP after the
 * engine is idle. */
static void gemm_cb(const gemm_t *m, hl_cb_t *cb) {
  const mme_gold_job *g = &m->g;
  uint32_t regs[] = {m->A, m->B, m->C, 0, g->m, g->n, g->k, m->lda, m->ldb, m->ldc,
                     ((uint32_t)g->ta << MME__DTYPE__A_TYPE_bp) | ((uint32_t)g->tb << MME__DTYPE__B_TYPE_bp) |
                         ((uint32_t)g->tc << MME__DTYPE__C_TYPE_bp),
                     0, 0, 0, 0};
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(mme_t, STATUS), MME__STATUS__DONE_bm);
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(mme_t, CACHE),
               MME__CACHE__RD_ALLOC_bm | (m->c_through ? 0u : MME__CACHE__WR_ALLOC_bm));
  hl_cb_wreg_bulk(cb, 0, (uint32_t)offsetof(mme_t, A_ADDR), sizeof regs / 4u, regs);
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(mme_t, CTRL), MME__CTRL__COMMIT_bm);
  hl_cb_stop(cb, HL_EB);
}

/* Submit the GEMM (job 1) and a job 2 = cb2 on queue q2 that depends on it, at
 * once, so the Sync Manager starts job 2; both must complete, C must be golden,
 * and job 2 must have been started by a monitor. */
static int gemm_then(tf_ctx_t *t, hl_dev_t *d, gemm_t *m, int qm, int q2, const hl_cb_t *cb2,
                     hl_completion_t *c1, hl_completion_t *c2) {
  hl_cb_t cb;
  hl_cb_init(&cb);
  gemm_cb(m, &cb);
  hl_job_t j1, j2;
  job_ws(&j1, m->ws, m->wsz);
  PUT_CB(t, d, &j1, 0, qm, &cb, m->ws, &m->off);
  hl_cb_free(&cb);
  job_ws(&j2, m->ws, m->wsz);
  PUT_CB(t, d, &j2, 0, q2, cb2, m->ws, &m->off);
  uint32_t s1, s2;
  hif_counters_t k0, k1;
  HL_CHECK(t, d, hl_fw_counters(d, &k0));
  HL_CHECK(t, d, hl_submit(d, &j1, &s1));
  j2.ndep = 1;
  j2.dep[0] = s1;
  HL_CHECK(t, d, hl_submit(d, &j2, &s2));
  if (expect_job(t, d, s2, HL_COMPLETED, 0, 0, 3000000, c2) != TF_PASS) return TF_FAIL;
  if (expect_job(t, d, s1, HL_COMPLETED, 0, 0, 0, c1) != TF_PASS) return TF_FAIL;
  HL_CHECK(t, d, hl_read(d, m->C, m->got, m->csz));
  size_t bad = 0;
  for (size_t i = 0; i < m->csz; i++) bad += m->got[i] != m->cexp[i];
  if (bad) return tf_fail(t, "%zu bytes of C differ from the golden model", bad);
  HL_CHECK(t, d, hl_fw_counters(d, &k1));
  if (k1.hw_starts - k0.hw_starts != 1u)
    return tf_fail(t, "the dependent job was not started by a monitor (hw starts %u)", k1.hw_starts - k0.hw_starts);
  if (c2->t_start < c1->t_start) return tf_fail(t, "the dependent job started before the GEMM");
  tf_log(t, "GEMM %ux%ux%u bf16->fp32: job %u start %u end %u; dependent job %u start %u end %u", m->g.m, m->g.n,
         m->g.k, s1, c1->t_start, c1->t_end, s2, c2->t_start, c2->t_end);
  return TF_PASS;
}

/* GEMM on mme0, then a DMA job that depends on it copies C into X. */
TF_TEST(hostlink, gemm_dma, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qm, qd;
  NEED_QUEUE(t, d, "mme0", qm);
  NEED_QUEUE(t, d, "dma0", qd);
  gemm_t m;
  int r = gemm_setup(t, d, &m);
  if (r == TF_PASS) {
    hl_cb_t cb;
    hl_cb_init(&cb);
    hl_cb_lin_dma(&cb, 0, m.C, m.X, (uint32_t)m.csz);
    hl_cb_stop(&cb, HL_EB);
    hl_completion_t c1, c2;
    r = gemm_then(t, d, &m, qm, qd, &cb, &c1, &c2);
    hl_cb_free(&cb);
  }
  if (r == TF_PASS) {
    HL_CHECK(t, d, hl_read(d, m.X, m.got, m.csz));
    if (memcmp(m.got, m.cexp, m.csz)) r = tf_fail(t, "the copy of C differs from the golden model");
  }
  gemm_free(&m);
  hl_close(d);
  return r;
}

#if __has_include("regs/tpc_regs.h") && __has_include("tpcasm_lib.h") && __has_include("golden/tpc_golden.h")
#include "golden/tpc_golden.h"
#include "regs/tpc_regs.h"
#include "tpcasm_lib.h"

/* The TPC cluster ended without an error and X = relu(golden C) element by element. */
static int relu_check(tf_ctx_t *t, hl_dev_t *d, gemm_t *m) {
  uint32_t st = 0;
  HL_CHECK(t, d, hl_read32(d, TESSERA_TPC_BASE + (uint32_t)offsetof(tpc_t, STATUS), &st));
  if ((st & TPC__STATUS__ERR_bm) != 0u) return tf_fail(t, "TPC STATUS 0x%08x", st);
  HL_CHECK(t, d, hl_read(d, m->X, m->got, m->csz));
  for (uint32_t row = 0; row < m->g.m; row++)
    for (uint32_t col = 0; col < m->g.n; col++) {
      uint32_t cv, xv;
      memcpy(&cv, m->cexp + (size_t)row * m->ldc + 4u * col, 4);
      memcpy(&xv, m->got + (size_t)row * m->ldc + 4u * col, 4);
      if (xv != tg_relu(cv))
        return tf_fail(t, "relu(C)[%u][%u] = 0x%08x, golden 0x%08x (C 0x%08x)", row, col, xv, tg_relu(cv), cv);
    }
  return TF_PASS;
}

/* GEMM on mme0, then a TPC job that depends on it: the kernel library's relu
 * (kernels/tpc/relu.tasm, assembled here and uploaded with hostlink) on C into
 * X over every TPC; X compared with relu of the golden C. The issue's end-to-end
 * case: a host program using only hostlink runs GEMM -> TPC with a dependency
 * through the firmware.
 * L2 coherence (docs/l2.md): the TPCs of every DCORE read C, i.e. through other
 * slices than MME 0's, and the TPC job is started by a monitor on the GEMM's
 * completion, before the firmware's flush at the GEMM's job end. So the GEMM
 * writes C through to memory (MME CACHE.wr_alloc = 0; the firmware invalidated
 * every slice when it dispatched the jobs, so no line of C is cached). */
TF_TEST(hostlink, gemm_tpc, 4000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qm, qt;
  NEED_QUEUE(t, d, "mme0", qm);
  NEED_QUEUE(t, d, "tpc", qt);
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  char err[512];
  if (tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &prog, &nb, err, sizeof err))
    return tf_fail(t, "assembler: %s", err);
  gemm_t m;
  int r = gemm_setup(t, d, &m);
  m.c_through = 1;
  uint32_t pa = m.ws + m.off;
  if (r == TF_PASS) {
    HL_CHECK(t, d, hl_write(d, pa, prog, 32u * nb));
    m.off += (32u * nb + 255u) & ~255u;
    /* C as an FP32 tensor [M][N], pitch ldc/4 elements; relu reads tensor 0, writes tensor 2 */
    uint32_t W = m.g.n, H = m.g.m, pitch = m.ldc / 4u;
    uint32_t regs[] = {pa, nb, 3, TESSERA_NUM_TPC, 0x5EEDu};
    uint32_t idx[] = {(W + 7u) / 8u, H, 1, 1, 1};
    hl_cb_t cb;
    hl_cb_init(&cb);
    hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, STATUS), TPC__STATUS__DONE_bm);
    hl_cb_wreg_bulk(&cb, 0, (uint32_t)offsetof(tpc_t, PROG_ADDR), 5, regs);
    hl_cb_wreg_bulk(&cb, 0, (uint32_t)offsetof(tpc_t, IDX_SIZE0), 5, idx);
    hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, MSG_CTRL), 0);
    uint32_t tens[3] = {m.C, m.C, m.X};
    for (uint32_t k = 0; k < 3; k++) {
      uint32_t dsc[13] = {tens[k], 2u << 4, 0, W, H, 1, 1, 1, 1, pitch, 0, 0, 0};
      hl_cb_wreg_bulk(&cb, 0, (uint32_t)offsetof(tpc_t, DESC) + 64u * k, 13, dsc);
    }
    hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, CTRL), TPC__CTRL__COMMIT_bm);
    hl_cb_stop(&cb, HL_EB);
    hl_completion_t c1, c2;
    r = gemm_then(t, d, &m, qm, qt, &cb, &c1, &c2);
    hl_cb_free(&cb);
  }
  if (r == TF_PASS) r = relu_check(t, d, &m);
  free(prog);
  gemm_free(&m);
  hl_close(d);
  return r;
}
/* One job, two command buffers started together by the firmware: the GEMM in S row
 * slices on mme0 and a relu per slice on the TPC cluster (white paper figure 21 through
 * hostlink and the firmware). Slice i's MME completion message adds 1 to the TPC
 * queue's FENCE[0] (a message target the firmware's packet check allows); the TPC
 * buffer waits at FENCE 0 before each launch. No monitor, no firmware action between
 * the slices. C is written through to memory (wr_alloc = 0, as in gemm_tpc) and the
 * rows of C and X are whole L2 lines, so the TPCs of both DCOREs read C fresh from
 * memory. C and relu(C) are golden-checked. */
TF_TEST(hostlink, pipeline_gemm_tpc, 4000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qm, qt;
  NEED_QUEUE(t, d, "mme0", qm);
  NEED_QUEUE(t, d, "tpc", qt);
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  char err[512];
  if (tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &prog, &nb, err, sizeof err))
    return tf_fail(t, "assembler: %s", err);
  gemm_t m;
  int r = gemm_setup(t, d, &m);
  uint32_t pa = m.ws + m.off;
  const mme_gold_job *g = &m.g;
  uint32_t S = 2u + tf_rand_below(t, 3u), rows = (g->m + S - 1u) / S;
  hl_completion_t c;
  uint32_t seq = 0;
  if (r == TF_PASS) {
    HL_CHECK(t, d, hl_write(d, pa, prog, 32u * nb));
    m.off += (32u * nb + 255u) & ~255u;
    uint32_t fence = TESSERA_QMAN_ADDR(qt) + (uint32_t)offsetof(qman_t, FENCE);
    hl_cb_t cm, ct;
    hl_cb_init(&cm);
    hl_cb_init(&ct);
    /* producer: per slice the registers (engine barrier after the first), COMMIT */
    hl_cb_wreg32(&cm, 0, (uint32_t)offsetof(mme_t, STATUS), MME__STATUS__DONE_bm);
    hl_cb_wreg32(&cm, 0, (uint32_t)offsetof(mme_t, CACHE), MME__CACHE__RD_ALLOC_bm);
    /* consumer: the launch once, then per slice FENCE, slice bases, COMMIT */
    uint32_t W = g->n, pitch = m.ldc / 4u;
    uint32_t regs[] = {pa, nb, 3, TESSERA_NUM_TPC, 0x5EEDu};
    hl_cb_wreg32(&ct, 0, (uint32_t)offsetof(tpc_t, STATUS), TPC__STATUS__DONE_bm);
    hl_cb_wreg_bulk(&ct, 0, (uint32_t)offsetof(tpc_t, PROG_ADDR), 5, regs);
    hl_cb_wreg32(&ct, 0, (uint32_t)offsetof(tpc_t, MSG_CTRL), 0);
    for (uint32_t i = 0; i < S; i++) {
      uint32_t m0 = i * rows, h = g->m - m0 < rows ? g->m - m0 : rows;
      uint32_t v[] = {m.A + m0 * m.lda, m.B, m.C + m0 * m.ldc, 0, h, g->n, g->k, m.lda, m.ldb, m.ldc,
                      ((uint32_t)g->ta << MME__DTYPE__A_TYPE_bp) | ((uint32_t)g->tb << MME__DTYPE__B_TYPE_bp) |
                          ((uint32_t)g->tc << MME__DTYPE__C_TYPE_bp),
                      0, fence, 1, 1};
      hl_cb_wreg_bulk(&cm, i ? HL_EB : 0u, (uint32_t)offsetof(mme_t, A_ADDR), sizeof v / 4u, v);
      hl_cb_wreg32(&cm, 0, (uint32_t)offsetof(mme_t, CTRL), MME__CTRL__COMMIT_bm);
      uint32_t idx[] = {(W + 7u) / 8u, h, 1, 1, 1};
      hl_cb_fence(&ct, 0, 0, 1);
      hl_cb_wreg_bulk(&ct, HL_EB, (uint32_t)offsetof(tpc_t, IDX_SIZE0), 5, idx);
      uint32_t tens[3] = {m.C + m0 * m.ldc, m.C + m0 * m.ldc, m.X + m0 * m.ldc};
      for (uint32_t k = 0; k < 3; k++) {
        uint32_t dsc[13] = {tens[k], 2u << 4, 0, W, h, 1, 1, 1, 1, pitch, 0, 0, 0};
        hl_cb_wreg_bulk(&ct, 0, (uint32_t)offsetof(tpc_t, DESC) + 64u * k, 13, dsc);
      }
      hl_cb_wreg32(&ct, 0, (uint32_t)offsetof(tpc_t, CTRL), TPC__CTRL__COMMIT_bm | (i ? TPC__CTRL__KEEP_PROG_bm : 0u));
    }
    hl_cb_stop(&cm, HL_EB);
    hl_cb_stop(&ct, HL_EB);
    hl_job_t j;
    job_ws(&j, m.ws, m.wsz);
    PUT_CB(t, d, &j, 0, qm, &cm, m.ws, &m.off);
    PUT_CB(t, d, &j, 1, qt, &ct, m.ws, &m.off);
    hl_cb_free(&cm);
    hl_cb_free(&ct);
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    r = expect_job(t, d, seq, HL_COMPLETED, 0, 0, 3000000, &c);
  }
  if (r == TF_PASS) {
    HL_CHECK(t, d, hl_read(d, m.C, m.got, m.csz));
    size_t bad = 0;
    for (size_t i = 0; i < m.csz; i++) bad += m.got[i] != m.cexp[i];
    if (bad) r = tf_fail(t, "%zu bytes of C differ from the golden model", bad);
  }
  if (r == TF_PASS) r = relu_check(t, d, &m);
  if (r == TF_PASS)
    tf_log(t, "GEMM %ux%ux%u in %u slices -> relu on %u TPCs, one job %u: start %u end %u (%u cycles)", g->m, g->n,
           g->k, S, TESSERA_NUM_TPC, seq, c.t_start, c.t_end, c.t_end - c.t_start);
  free(prog);
  gemm_free(&m);
  hl_close(d);
  return r;
}
#endif


/* A buffer with an unknown opcode: QMAN error completion (cause 7, opcode
 * error), nothing copied by the packet before it was rejected; the queue then
 * runs the next job. */
TF_TEST(hostlink, queue_error, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q;
  NEED_QUEUE(t, d, tf_rand_below(t, 2) ? "dma1" : "dma0", q);
  uint32_t ws, wsz = 1u << 16, off = 0x8000u;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  static uint8_t src[256], dst[256], zero[256];
  fill_rand(t, src, sizeof src);
  HL_CHECK(t, d, hl_write(d, ws, src, sizeof src));
  HL_CHECK(t, d, hl_write(d, ws + 0x1000u, zero, sizeof zero));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  uint32_t s0, s1, s2;
  /* an unknown opcode: refused by the firmware's packet check, nothing runs */
  uint32_t bad[2] = {0x09u + tf_rand_below(t, 0xF7u), 0};
  hl_cb_nop(&cb, 0);
  hl_cb_raw(&cb, bad, 2);
  hl_cb_lin_dma(&cb, 0, ws, ws + 0x1000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s0));
  EXPECT_JOB(t, d, s0, HL_FAILED, HIF_CAUSE_PACKET, HIF_PKT_DETAIL(0, 1 /* OPCODE */, 8), 400000);
  TF_CHECK(t, tsim_uart_contains(t->sim, "error: bad packet"));
  /* an error only the running queue sees: a register write the engine answers
   * with pslverr (an unmapped offset) stops the queue (APB), the LIN_DMA after
   * it never runs, the queue is reset */
  hl_cb_clear(&cb);
  hl_cb_nop(&cb, 0);
  hl_cb_wreg32(&cb, 0, 0xFFCu, 0);
  hl_cb_lin_dma(&cb, 0, ws, ws + 0x1000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  EXPECT_JOB(t, d, s1, HL_FAILED, HIF_CAUSE_QMAN, 6u /* cb 0, APB */, 400000);
  HL_CHECK(t, d, hl_read(d, ws + 0x1000u, dst, sizeof dst));
  TF_CHECK(t, !memcmp(dst, zero, sizeof dst));
  TF_CHECK(t, tsim_uart_contains(t->sim, "error: queue error"));
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws, ws + 0x1000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s2));
  EXPECT_JOB(t, d, s2, HL_COMPLETED, 0, 0, 400000);
  HL_CHECK(t, d, hl_read(d, ws + 0x1000u, dst, sizeof dst));
  TF_CHECK(t, !memcmp(dst, src, sizeof dst));
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* A job that waits on a fence nobody releases is aborted at its budget; a job
 * depending on it fails (DEP_FAILED) without running (a job armed on a
 * dependency holds its queue, so it uses a third queue); an independent job on
 * another queue completes meanwhile; the next job on the reset queue completes. */
TF_TEST(hostlink, watchdog, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qa, qb, qc;
  NEED_QUEUE(t, d, "dma1", qa);
  NEED_QUEUE(t, d, "dma0", qb);
  NEED_QUEUE(t, d, "mme1", qc);
  uint32_t ws, wsz = 1u << 16, off = 0x8000u;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  static uint8_t src[512], dst[512];
  fill_rand(t, src, sizeof src);
  HL_CHECK(t, d, hl_write(d, ws, src, sizeof src));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  uint32_t budget = 30000u + tf_rand_below(t, 20000);
  /* 1: hangs on fence 2 */
  hl_cb_fence(&cb, 0, 2, 1);
  hl_cb_stop(&cb, 0);
  job_ws(&j, ws, wsz);
  j.budget = budget;
  PUT_CB(t, d, &j, 0, qa, &cb, ws, &off);
  uint32_t s1, s2, s3, s4;
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  /* 2: depends on 1; would write a marker word */
  hl_cb_clear(&cb);
  hl_cb_msg_long(&cb, 0, ws + 0x1000u, 0xD0D0D0D0u);
  hl_cb_stop(&cb, 0);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qc, &cb, ws, &off);
  j.ndep = 1;
  j.dep[0] = s1;
  HL_CHECK(t, d, hl_submit(d, &j, &s2));
  /* 3: independent, other queue */
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws, ws + 0x2000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qb, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s3));
  EXPECT_JOB(t, d, s3, HL_COMPLETED, 0, 0, 200000);
  int w = hl_wait(d, s1, 0, NULL);
  if (w != HL_BUSY) return tf_fail(t, "hanging job: %s before its budget", hl_wait_name(w));
  hl_completion_t c;
  if (expect_job(t, d, s1, HL_ABORTED, HIF_CAUSE_WATCHDOG, ~0u, budget + 200000u, &c) != TF_PASS) return TF_FAIL;
  tf_log(t, "aborted after %u cycles (budget %u)", c.detail, budget);
  TF_CHECK(t, c.detail > budget && c.detail < budget + 2u * 20000u + 5000u);
  EXPECT_JOB(t, d, s2, HL_FAILED, HIF_CAUSE_DEP_FAILED, s1, 200000);
  uint32_t marker = 1;
  HL_CHECK(t, d, hl_read(d, ws + 0x1000u, &marker, 4));
  TF_CHECK_EQ(t, marker, 0);   /* the dependent job never ran */
  /* 4: the reset queue runs again */
  hl_cb_clear(&cb);
  hl_cb_lin_dma(&cb, 0, ws, ws + 0x3000u, sizeof src);
  hl_cb_stop(&cb, HL_EB);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qa, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s4));
  EXPECT_JOB(t, d, s4, HL_COMPLETED, 0, 0, 200000);
  HL_CHECK(t, d, hl_read(d, ws + 0x3000u, dst, sizeof dst));
  TF_CHECK(t, !memcmp(dst, src, sizeof dst));
  TF_CHECK(t, tsim_uart_contains(t->sim, "aborted: watchdog"));
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* Command buffer: the kernel library's relu (program at prog, nb bundles) on the FP32
 * tensor [H][W] at in into out over every TPC; out_words of the output descriptor's 13
 * are written; limit: BUNDLE_LIMIT written before the commit (0: not written). Returns
 * the commit packet's offset. */
static uint32_t tpc_relu_cb(hl_cb_t *cb, uint32_t prog, uint32_t nb, uint32_t in, uint32_t out, uint32_t W, uint32_t H,
                            uint32_t out_words, uint32_t limit) {
  hl_cb_clear(cb);
  uint32_t regs[] = {prog, nb, 3, TESSERA_NUM_TPC, 0x5EEDu};
  uint32_t idx[] = {(W + 7u) / 8u, H, 1, 1, 1};
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, STATUS), TPC__STATUS__DONE_bm);
  hl_cb_wreg_bulk(cb, 0, (uint32_t)offsetof(tpc_t, PROG_ADDR), 5, regs);
  hl_cb_wreg_bulk(cb, 0, (uint32_t)offsetof(tpc_t, IDX_SIZE0), 5, idx);
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, MSG_CTRL), 0);
  uint32_t tens[3] = {in, in, out};
  for (uint32_t k = 0; k < 3; k++) {
    uint32_t dsc[13] = {tens[k], 2u << 4, 0, W, H, 1, 1, 1, 1, W, 0, 0, 0};
    hl_cb_wreg_bulk(cb, 0, (uint32_t)offsetof(tpc_t, DESC) + 64u * k, k == 2 ? out_words : 13u, dsc);
  }
  if (limit) hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, BUNDLE_LIMIT), limit);
  uint32_t at = hl_cb_bytes(cb);
  hl_cb_wreg32(cb, 0, (uint32_t)offsetof(tpc_t, CTRL), TPC__CTRL__COMMIT_bm);
  hl_cb_stop(cb, HL_EB);
  return at;
}

/* A TPC kernel that never ends (x: br x on every TPC) in a job with a small budget:
 * the watchdog aborts the job, the firmware cancels the launch (TPC CTRL.cancel: every
 * TPC stops with TIMEOUT) so the cluster is idle again, and the next TPC job (the
 * kernel library's relu on a random FP32 tensor) completes with a golden-checked
 * result. Before CTRL.cancel the runaway kernel kept the cluster busy until a reset. */
TF_TEST(hostlink, tpc_watchdog, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qt;
  NEED_QUEUE(t, d, "tpc", qt);
  tpc_bundle_t *loop = NULL, *relu = NULL;
  uint32_t nl = 0, nr = 0;
  char err[512];
  if (tpcasm_assemble("x: br x\n", "runaway", NULL, 0, &loop, &nl, err, sizeof err) ||
      tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &relu, &nr, err, sizeof err))
    return tf_fail(t, "assembler: %s", err);
  uint32_t ws, wsz = 1u << 17, off = 0x100u;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  const uint32_t P_LOOP = ws + 0x1000u, P_RELU = ws + 0x2000u, IN = ws + 0x4000u, OUT = ws + 0x10000u;
  HL_CHECK(t, d, hl_write(d, P_LOOP, loop, 32u * nl));
  HL_CHECK(t, d, hl_write(d, P_RELU, relu, 32u * nr));
  free(loop);
  free(relu);
  hif_counters_t c0, c1;
  HL_CHECK(t, d, hl_fw_counters(d, &c0));
  /* 1: the runaway kernel; the buffer's engine barrier at STOP never clears */
  hl_cb_t cb;
  hl_cb_init(&cb);
  uint32_t regs[] = {P_LOOP, nl, 0, TESSERA_NUM_TPC, 0x5EEDu};
  uint32_t idx[] = {TESSERA_NUM_TPC, 1, 1, 1, 1};
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, STATUS), TPC__STATUS__DONE_bm);
  hl_cb_wreg_bulk(&cb, 0, (uint32_t)offsetof(tpc_t, PROG_ADDR), 5, regs);
  hl_cb_wreg_bulk(&cb, 0, (uint32_t)offsetof(tpc_t, IDX_SIZE0), 5, idx);
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, MSG_CTRL), 0);
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, BUNDLE_LIMIT), 0);
  hl_cb_wreg32(&cb, 0, (uint32_t)offsetof(tpc_t, CTRL), TPC__CTRL__COMMIT_bm);
  hl_cb_stop(&cb, HL_EB);
  hl_job_t j;
  job_ws(&j, ws, wsz);
  uint32_t budget = 20000u + tf_rand_below(t, 20000);
  j.budget = budget;
  PUT_CB(t, d, &j, 0, qt, &cb, ws, &off);
  uint32_t s1, s2;
  HL_CHECK(t, d, hl_submit(d, &j, &s1));
  hl_completion_t c;
  if (expect_job(t, d, s1, HL_ABORTED, HIF_CAUSE_WATCHDOG, ~0u, budget + 200000u, &c) != TF_PASS) return TF_FAIL;
  tf_log(t, "runaway kernel aborted after %u cycles (budget %u)", c.detail, budget);
  uint32_t st = 0, mask = 0;
  HL_CHECK(t, d, hl_read32(d, TESSERA_TPC_BASE + (uint32_t)offsetof(tpc_t, STATUS), &st));
  HL_CHECK(t, d, hl_read32(d, TESSERA_TPC_BASE + (uint32_t)offsetof(tpc_t, ERR_MASK), &mask));
  if ((st & TPC__STATUS__BUSY_bm) || ((st & TPC__STATUS__ERR_bm) >> TPC__STATUS__ERR_bp) != 9u ||
      mask != (1u << TESSERA_NUM_TPC) - 1u)
    return tf_fail(t, "TPC after the abort: STATUS 0x%08x ERR_MASK 0x%x; want idle, err 9 (TIMEOUT) on every TPC", st,
                   mask);
  HL_CHECK(t, d, hl_fw_counters(d, &c1));
  TF_CHECK_EQ(t, c1.tpc_cancels - c0.tpc_cancels, 1);
  TF_CHECK(t, tsim_uart_contains(t->sim, "aborted: watchdog"));
  /* 2: the relu with BUNDLE_LIMIT 1..3: every TPC stops with TIMEOUT, the job ends
   * with an engine error; the firmware sets the limit back to none at the job's end */
  uint32_t W = 9 + tf_rand_below(t, 60), H = 1 + tf_rand_below(t, 12);
  uint32_t *in = malloc(4u * W * H), *out = malloc(4u * W * H);
  for (uint32_t i = 0; i < W * H; i++) in[i] = tf_rand32(t);
  HL_CHECK(t, d, hl_write(d, IN, in, 4u * W * H));
  tpc_relu_cb(&cb, P_RELU, nr, IN, OUT, W, H, 13u, 1u + tf_rand_below(t, 3));
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qt, &cb, ws, &off);
  uint32_t sl;
  HL_CHECK(t, d, hl_submit(d, &j, &sl));
  EXPECT_JOB(t, d, sl, HL_FAILED, HIF_CAUSE_ENGINE, 9u, 400000);
  /* 3: the same relu without writing BUNDLE_LIMIT, golden-checked */
  tpc_relu_cb(&cb, P_RELU, nr, IN, OUT, W, H, 13u, 0u);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qt, &cb, ws, &off);
  HL_CHECK(t, d, hl_submit(d, &j, &s2));
  int r = expect_job(t, d, s2, HL_COMPLETED, 0, 0, 400000, NULL);
  if (r == TF_PASS) {
    HL_CHECK(t, d, hl_read(d, OUT, out, 4u * W * H));
    for (uint32_t i = 0; i < W * H && r == TF_PASS; i++)
      if (out[i] != tg_relu(in[i]))
        r = tf_fail(t, "relu[%u][%u] = 0x%08x, golden 0x%08x (in 0x%08x)", i / W, i % W, out[i], tg_relu(in[i]), in[i]);
  }
  if (r == TF_PASS) tf_log(t, "relu %u x %u after the abort: golden-exact", H, W);
  free(in);
  free(out);
  hl_cb_free(&cb);
  hl_close(d);
  return r;
}

/* The packet check of TPC commits (docs/hostlink.md "Packet check", reason 21
 * TPC_RANGE): the program and every declared descriptor's footprint must lie in the
 * job's buffers, with every word that decides it written by the buffer itself. Each
 * refused job must name the commit packet and leave the output untouched; the job
 * whose output ends exactly at the buffer's end runs and is golden-checked. */
TF_TEST(hostlink, tpc_footprint, 3000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int qt;
  NEED_QUEUE(t, d, "tpc", qt);
  tpc_bundle_t *relu = NULL;
  uint32_t nr = 0;
  char err[512];
  if (tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &relu, &nr, err, sizeof err))
    return tf_fail(t, "assembler: %s", err);
  uint32_t ws, wsz = 1u << 16, off = 0x100u;
  HL_CHECK(t, d, hl_alloc(d, 2u * wsz, 4096, &ws));
  uint32_t W = 9 + tf_rand_below(t, 40), H = 2 + tf_rand_below(t, 8), n = W * H;
  const uint32_t PROG = ws + 0x1000u, IN = ws + 0x2000u, OUT = ws + wsz - 4u * n;  /* output ends at the end */
  HL_CHECK(t, d, hl_write(d, PROG, relu, 32u * nr));
  free(relu);
  uint32_t *in = malloc(4u * n), *out = malloc(4u * n), *before = malloc(4u * n);
  for (uint32_t i = 0; i < n; i++) in[i] = tf_rand32(t), before[i] = tf_rand32(t);
  HL_CHECK(t, d, hl_write(d, IN, in, 4u * n));
  HL_CHECK(t, d, hl_write(d, OUT, before, 4u * n));
  HL_CHECK(t, d, hl_write(d, ws + wsz, before, 4u * n));   /* past the buffer */
  struct { const char *what; uint32_t prog, out, words; } bad[] = {
      {"output 4 bytes past the buffer", PROG, OUT + 4u, 13u},
      {"output stride of dim 1 not written by the buffer", PROG, OUT, 9u},
      {"output sizes not written by the buffer", PROG, OUT, 2u},
      {"program below the buffer", ws - 0x100u, OUT, 13u},
      {"output over the job's command buffer", PROG, 0, 13u},
  };
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    uint32_t o = bad[k].out ? bad[k].out : ws + off;   /* 0: where this command buffer goes */
    uint32_t at = tpc_relu_cb(&cb, bad[k].prog, nr, IN, o, W, H, bad[k].words, 0u);
    job_ws(&j, ws, wsz);
    PUT_CB(t, d, &j, 0, qt, &cb, ws, &off);
    uint32_t seq;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    if (expect_job(t, d, seq, HL_FAILED, HIF_CAUSE_PACKET, HIF_PKT_DETAIL(0, HIF_PKT_TPC_RANGE, at), 400000, NULL) !=
        TF_PASS)
      return tf_fail(t, "case %u (%s)", k, bad[k].what);
    tf_log(t, "refused: %s (commit at offset %u)", bad[k].what, at);
  }
  HL_CHECK(t, d, hl_read(d, OUT, out, 4u * n));
  TF_CHECK(t, !memcmp(out, before, 4u * n));
  HL_CHECK(t, d, hl_read(d, ws + wsz, out, 4u * n));
  TF_CHECK(t, !memcmp(out, before, 4u * n));
  /* the output exactly at the buffer's end: runs */
  tpc_relu_cb(&cb, PROG, nr, IN, OUT, W, H, 13u, 0u);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, qt, &cb, ws, &off);
  uint32_t seq;
  HL_CHECK(t, d, hl_submit(d, &j, &seq));
  EXPECT_JOB(t, d, seq, HL_COMPLETED, 0, 0, 400000);
  HL_CHECK(t, d, hl_read(d, OUT, out, 4u * n));
  for (uint32_t i = 0; i < n; i++)
    if (out[i] != tg_relu(in[i]))
      return tf_fail(t, "relu[%u][%u] = 0x%08x, golden 0x%08x", i / W, i % W, out[i], tg_relu(in[i]));
  HL_CHECK(t, d, hl_read(d, ws + wsz, out, 4u * n));
  TF_CHECK(t, !memcmp(out, before, 4u * n));
  tf_log(t, "relu %u x %u ending at the buffer's end: golden-exact; nothing written past it", H, W);
  free(in);
  free(out);
  free(before);
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* Jobs for one queue waiting in all four rings start in priority order. */
TF_TEST(hostlink, priorities, 2000000) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q;
  NEED_QUEUE(t, d, "dma0", q);
  uint32_t ws, wsz = 1u << 16, off = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_job_t j;
  hl_cb_wait(&cb, 0, 6000);   /* keeps the queue busy while the others are submitted */
  hl_cb_stop(&cb, 0);
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  uint32_t first, s[HIF_NUM_SQ];
  HL_CHECK(t, d, hl_submit(d, &j, &first));
  unsigned order[HIF_NUM_SQ] = {0, 1, 2, 3};
  for (unsigned i = HIF_NUM_SQ - 1; i > 0; i--) {
    unsigned k = tf_rand_below(t, i + 1), x = order[i];
    order[i] = order[k], order[k] = x;
  }
  hl_cb_clear(&cb);
  hl_cb_wait(&cb, 0, 100);
  hl_cb_stop(&cb, 0);
  for (unsigned i = 0; i < HIF_NUM_SQ; i++) {
    job_ws(&j, ws, wsz);
    PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
    j.sq = order[i];
    HL_CHECK(t, d, hl_submit(d, &j, &s[order[i]]));
  }
  hl_completion_t c[HIF_NUM_SQ];
  EXPECT_JOB(t, d, first, HL_COMPLETED, 0, 0, 200000);
  for (unsigned i = 0; i < HIF_NUM_SQ; i++)
    if (expect_job(t, d, s[i], HL_COMPLETED, 0, 0, 200000, &c[i]) != TF_PASS) return TF_FAIL;
  for (unsigned i = 1; i < HIF_NUM_SQ; i++)
    if (c[i].t_start <= c[i - 1].t_start)
      return tf_fail(t, "ring %u started at %u, not after ring %u (%u)", i, c[i].t_start, i - 1, c[i - 1].t_start);
  tf_log(t, "submitted in ring order %u %u %u %u, started in priority order", order[0], order[1], order[2], order[3]);
  hl_cb_free(&cb);
  hl_close(d);
  return TF_PASS;
}

/* ------------------------------------------------------------------ benchmarks */
/* Host doorbell -> the firmware's CTRL.start of the job's first queue, from
 * the firmware's mtime stamp (cnt.t_first_start) against the doorbell write's
 * cycle translated into mtime. */
TF_TEST_F(hostlink, bench_doorbell, 3000000, TF_BENCH) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q;
  NEED_QUEUE(t, d, "dma0", q);
  uint32_t ws, wsz = 1u << 16, off = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_cb_lin_dma(&cb, 0, ws + 0x8000u, ws + 0x9000u, 32);
  hl_cb_stop(&cb, HL_EB);
  hl_job_t j;
  job_ws(&j, ws, wsz);
  PUT_CB(t, d, &j, 0, q, &cb, ws, &off);
  hl_cb_free(&cb);
  uint32_t lo = 0, mn = ~0u, mx = 0, isr_mn = ~0u, lats[16], eng[16];
  uint64_t sum = 0;
  const unsigned N = 16;
  for (unsigned i = 0; i < N; i++) {
    /* let the firmware go idle (wfi) at a random phase */
    hl_run(d, 3000 + tf_rand_below(t, 500));
    /* mtime <-> simulator cycle offset (the read samples mtime inside the access) */
    uint64_t c0 = tsim_cycles(t->sim);
    HL_CHECK(t, d, hl_read32(d, TESSERA_CLINT_BASE + (uint32_t)offsetof(clint_t, MTIME_LO), &lo));
    uint64_t c1 = tsim_cycles(t->sim);
    uint32_t off_mt = lo - (uint32_t)((c0 + c1) / 2u);
    uint32_t seq;
    HL_CHECK(t, d, hl_submit(d, &j, &seq));
    uint64_t c_db = tsim_cycles(t->sim);
    uint32_t t_db = (uint32_t)c_db + off_mt;   /* the doorbell write has just completed */
    /* cycle by cycle until the queue manager selects the DMA's registers (its
     * first LIN_DMA register write): the simulator's probe */
    tsim_probe_t pr;
    memset(&pr, 0, sizeof pr);
    /* HOSTLINK_DB_TRACE=1 (profiling only): the last job's retired instructions,
     * "cycle-after-doorbell pc", on stdout */
    int trace = i == N - 1u && getenv("HOSTLINK_DB_TRACE") != NULL;
    uint64_t nret = tsim_retired_count(t->sim);
    while (!((pr.qman_eng_sel >> q) & 1u) && tsim_cycles(t->sim) - c_db < 20000u) {
      TF_CHECK_OK(t, tsim_step(t->sim, 1));
      tsim_probe(t->sim, &pr);
      if (trace && tsim_retired_count(t->sim) != nret) {
        uint32_t pcs[TSIM_RETIRE_RING], ins[TSIM_RETIRE_RING];
        unsigned nr = tsim_retired(t->sim, pcs, ins, TSIM_RETIRE_RING);
        uint64_t nnew = tsim_retired_count(t->sim) - nret;
        for (unsigned r = nr - (unsigned)(nnew < nr ? nnew : nr); r < nr; r++)
          printf("dbtrace %llu %08x\n", (unsigned long long)(tsim_cycles(t->sim) - c_db), pcs[r]);
        nret = tsim_retired_count(t->sim);
      }
    }
    if (!((pr.qman_eng_sel >> q) & 1u)) return tf_fail(t, "job %u: the engine was never written", seq);
    eng[i] = (uint32_t)(tsim_cycles(t->sim) - c_db);
    EXPECT_JOB(t, d, seq, HL_COMPLETED, 0, 0, 100000);
    hif_counters_t k;
    HL_CHECK(t, d, hl_fw_counters(d, &k));
    uint32_t lat = k.t_first_start - t_db, isr = k.t_doorbell - t_db;
    lats[i] = lat;
    sum += lat;
    mn = lat < mn ? lat : mn;
    mx = lat > mx ? lat : mx;
    isr_mn = isr < isr_mn ? isr : isr_mn;
  }
  for (unsigned a = 1; a < N; a++)
    for (unsigned b = a; b > 0 && lats[b - 1] > lats[b]; b--) {
      uint32_t x = lats[b];
      lats[b] = lats[b - 1], lats[b - 1] = x;
    }
  for (unsigned a = 1; a < N; a++)
    for (unsigned b = a; b > 0 && eng[b - 1] > eng[b]; b--) {
      uint32_t x = eng[b];
      eng[b] = eng[b - 1], eng[b - 1] = x;
    }
  printf("bench hostlink doorbell_to_start: median %u cycles, min %u, mean %.1f, max %u (target <= 300; the "
         "maximum is a doorbell that arrives while the firmware handles a tick); doorbell to firmware wake-up "
         ">= %u cycles; %u jobs\n",
         lats[N / 2], mn, (double)sum / N, mx, isr_mn, N);
  printf("bench hostlink doorbell_to_engine_write: median %u cycles, min %u, max %u (doorbell -> the DMA queue's "
         "first register write to its engine, simulator probe; includes the command-buffer fetch from HBM)\n",
         eng[N / 2], eng[0], eng[N - 1]);
  tf_bench(t, "doorbell_to_start", NULL, lats[N / 2], 0,
           "\"min\":%u,\"mean\":%.6g,\"max\":%u,\"wakeup_min\":%u,\"jobs\":%u,\"target\":300", mn,
           (double)sum / N, mx, isr_mn, N);
  tf_bench(t, "doorbell_to_engine_write", NULL, eng[N / 2], 0, "\"min\":%u,\"max\":%u", eng[0], eng[N - 1]);
  hl_close(d);
  return TF_PASS;
}

/* Sustained rate of small jobs (NOP + STOP on alternating DMA queues), rings
 * kept full by the host. */
TF_TEST_F(hostlink, bench_rate, 6000000, TF_BENCH) {
  hl_dev_t *d;
  DEV_OPEN(t, d, 1);
  int q0, q1;
  NEED_QUEUE(t, d, "dma0", q0);
  NEED_QUEUE(t, d, "dma1", q1);
  uint32_t ws, wsz = 1u << 16, off = 0;
  HL_CHECK(t, d, hl_alloc(d, wsz, 4096, &ws));
  hl_cb_t cb;
  hl_cb_init(&cb);
  hl_cb_nop(&cb, 0);
  hl_cb_stop(&cb, 0);
  hl_job_t j[2];
  job_ws(&j[0], ws, wsz);
  job_ws(&j[1], ws, wsz);
  PUT_CB(t, d, &j[0], 0, q0, &cb, ws, &off);
  PUT_CB(t, d, &j[1], 0, q1, &cb, ws, &off);
  hl_cb_free(&cb);
  const unsigned N = 200;
  uint32_t seqs[200];
  unsigned sent = 0, done = 0;
  uint64_t t0 = tsim_cycles(t->sim), i0 = tsim_retired_count(t->sim);
  hif_counters_t k0;
  HL_CHECK(t, d, hl_fw_counters(d, &k0));
  while (done < N) {
    while (sent < N) {
      j[sent & 1].no_irq = 1;
      int rc = hl_submit(d, &j[sent & 1], &seqs[sent]);
      if (rc == HL_EFULL) break;
      HL_CHECK(t, d, rc);
      sent++;
    }
    hl_run(d, 100);
    while (done < sent) {
      int w = hl_wait(d, seqs[done], 0, NULL);
      if (w == HL_BUSY) break;
      if (w != HL_COMPLETED) return tf_fail(t, "job %u: %s", seqs[done], hl_wait_name(w));
      done++;
    }
    if (tsim_cycles(t->sim) - t0 > t->budget - 100000u) return tf_fail(t, "only %u of %u jobs done", done, N);
  }
  uint64_t cyc = tsim_cycles(t->sim) - t0, ins = tsim_retired_count(t->sim) - i0;
  hif_counters_t k1;
  HL_CHECK(t, d, hl_fw_counters(d, &k1));
  printf("bench hostlink small_job_rate: %u jobs in %llu cycles = %.0f cycles/job (%.2f M jobs/s at %u MHz); "
         "firmware: %.0f instructions and %.1f scheduler passes per job\n",
         N, (unsigned long long)cyc, (double)cyc / N, (double)N / cyc * TESSERA_CLK_HZ / 1e6, TESSERA_CLK_HZ / 1000000u,
         (double)ins / N, (double)(k1.polls - k0.polls) / N);
  tf_bench(t, NULL, "cycles/job", (double)cyc / N, 0,
           "\"jobs\":%u,\"total_cycles\":%llu,\"instructions_per_job\":%.6g,\"passes_per_job\":%.6g", N,
           (unsigned long long)cyc, (double)ins / N, (double)(k1.polls - k0.polls) / N);
  hl_close(d);
  return TF_PASS;
}
