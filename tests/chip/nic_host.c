/* Suite `nic_host`: RDMA managed by a host program through hostlink and the firmware
 * (docs/hostlink.md "NIC requests", docs/firmware.md "NIC requests").
 *
 * Two chips in one simulation (tessera_multi.h, port 0 <-> port 0), each with a hostlink
 * device (hl_open_sim_attach) and the firmware ELF booted. The chips run in lockstep:
 * every cycle one device spends (a host-port access, hl_wait's stepping) advances the
 * other chip too, so chip 1's firmware answers while the host waits on chip 0. Queue
 * pairs, memory regions and WRITEs go only through hostlink calls; the test reads the NIC
 * registers through the host port only to check what the firmware programmed (or did not).
 * Memory is compared with a plain expected image kept by the test: chip 1's window (the
 * region and GUARD bytes on each side, random contents) is read back with hl_read after
 * every WRITE and must equal the image with exactly the WRITEs that completed applied. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlink.h"
#include "regs/nic_regs.h"
#include "tessera_cfg.h"
#include "tessera_multi.h"
#include "tf.h"

#if TESSERA_NIC_PORTS > 0

#define NIC_REG(p, r) (TESSERA_NIC_ADDR(p) + (uint32_t)offsetof(nic_t, r))
#define SRC    (TESSERA_HBM_BASE + 0x00200000u)    /* chip 0: source buffer */
#define WIN    (TESSERA_HBM_BASE + 0x00400000u)    /* chip 1: checked window */
#define GUARD  4096u
#define REGION (WIN + GUARD)                       /* chip 1: the memory region */
#define REG_BYTES 0x8000u
#define RKEY   0x5EED0101u

typedef struct {
  tf_ctx_t *t;
  tsim_multi_t *m;
  tsim_t *chip[2];
  hl_dev_t *d[2];
  uint8_t *img;            /* expected window of chip 1 */
} pair_t;

static uint64_t mac_of(unsigned c) { return 0x02AB00000000ull | (c << 8); }
static uint32_t ip_of(unsigned c) { return 0x0A010000u | (c + 1u); }

#define HC(g, k, call)                                                                                   \
  do {                                                                                                    \
    int rc_ = (call);                                                                                     \
    if (rc_ != HL_OK)                                                                                     \
      return tf_fail((g)->t, "%s:%d: chip %u: %s = %d (%s): %s", __FILE__, __LINE__, (unsigned)(k), #call, rc_, \
                     hl_strerror(rc_), hl_error((g)->d[k]));                                             \
  } while (0)

static void pair_close(pair_t *g) {
  for (unsigned k = 0; k < 2; k++)
    if (g->d[k]) hl_close(g->d[k]);
  if (g->m) tsim_multi_free(g->m);
  if (g->chip[1]) tsim_destroy(g->chip[1]);
  free(g->img);
  memset(g, 0, sizeof *g);
}

/* Two chips joined port 0 <-> port 0 (link cfg, NULL: the command line's), the firmware
 * on both, each port's MAC and IPv4 address set through hostlink. */
static int pair_open_link(tf_ctx_t *t, pair_t *g, const tsim_link_cfg_t *cfg) {
  memset(g, 0, sizeof *g);
  g->t = t;
  const char *fw = tf_build_path("sw/firmware/firmware.elf");
  if (!tf_file_exists(fw)) {
    if (tf_sw_expected(fw)) return tf_fail(t, "%s is listed in SW_ALL but was not built", fw);
    return tf_skip(t, "%s not built yet", fw);
  }
  g->m = tsim_multi_new();
  g->chip[0] = t->sim;
  g->chip[1] = tf_new_chip(t);
  if (!g->chip[1]) return tf_fail(t, "cannot create chip 1");
  for (unsigned k = 0; k < 2; k++)
    if (tsim_multi_add(g->m, g->chip[k]) != (int)k) return tf_fail(t, "tsim_multi_add(chip %u)", k);
  if (tsim_nic_connect(g->m, 0, 0, 1, 0, cfg ? cfg : &t->opts->link) != TSIM_OK) return tf_fail(t, "tsim_nic_connect");
  for (unsigned k = 0; k < 2; k++) {
    TF_CHECK(t, hl_open_sim_attach(g->chip[k], &g->d[k]) == HL_OK);
    HC(g, k, hl_load(g->d[k], fw, 0, 1, 3000000));
    HC(g, k, hl_nic_port_set(g->d[k], 0, mac_of(k), ip_of(k), NULL));
  }
  return TF_PASS;
}

static int pair_open(tf_ctx_t *t, pair_t *g) { return pair_open_link(t, g, NULL); }

/* The end of a test: a request that should have been accepted was refused (rc still
 * TF_FAIL and no failure reported yet) is reported with hostlink's reason. */
static int pair_end(pair_t *g, int rc, int accepted_failed, unsigned k) {
  if (accepted_failed && rc != TF_PASS) rc = tf_fail(g->t, "an accepted request failed: %s", hl_error(g->d[k]));
  pair_close(g);
  return rc;
}

/* QP `qp` of chip 0 port 0 <-> QP `qp` of chip 1 port 0, both to RTS through hostlink. */
static int connect_qp(pair_t *g, unsigned qp, unsigned mtu, int selective) {
  const uint32_t psn[2] = {0x00FFF0u + qp, 0x000100u + 16u * qp};   /* chip 0's sends wrap */
  uint32_t qpn[2];
  for (unsigned k = 0; k < 2; k++) HC(g, k, hl_qp_create(g->d[k], 0, qp, 0, &qpn[k], NULL));
  for (unsigned k = 0; k < 2; k++) {
    const unsigned o = 1u - k;
    hl_qp_attr_t a = {0};
    HC(g, k, hl_qp_modify(g->d[k], 0, qp, HIF_QPS_INIT, NULL, NULL));
    a.attr_mask = HIF_NIC_ATTR_DEST | HIF_NIC_ATTR_MTU | HIF_NIC_ATTR_MODE | HIF_NIC_ATTR_RQ_PSN;
    a.dqpn = qpn[o];
    a.rmac = mac_of(o);
    a.rip = ip_of(o);
    a.mtu = mtu;
    a.selective = (uint32_t)selective;
    a.rq_psn = psn[o];
    HC(g, k, hl_qp_modify(g->d[k], 0, qp, HIF_QPS_RTR, &a, NULL));
    a.attr_mask = HIF_NIC_ATTR_SQ_PSN | HIF_NIC_ATTR_RETRY | HIF_NIC_ATTR_TIMER;
    a.sq_psn = psn[k];
    a.retry = 7;
    a.rto = 20000;
    a.guard = 1000;
    HC(g, k, hl_qp_modify(g->d[k], 0, qp, HIF_QPS_RTS, &a, NULL));
  }
  return TF_PASS;
}

/* Chip 1's window: random contents, written and kept as the expected image. */
static int window_init(pair_t *g) {
  const uint32_t n = REG_BYTES + 2 * GUARD;
  g->img = malloc(n);
  if (!g->img) return tf_fail(g->t, "out of memory");
  for (uint32_t i = 0; i < n; i++) g->img[i] = (uint8_t)tf_rand32(g->t);
  HC(g, 1, hl_write(g->d[1], WIN, g->img, n));
  return TF_PASS;
}

/* Chip 1's window read back through hostlink equals the expected image. */
static int window_check(pair_t *g, const char *after) {
  const uint32_t n = REG_BYTES + 2 * GUARD;
  uint8_t *got = malloc(n);
  if (!got) return tf_fail(g->t, "out of memory");
  int rc = hl_read(g->d[1], WIN, got, n);
  if (rc != HL_OK) {
    free(got);
    return tf_fail(g->t, "hl_read of chip 1's window: %s", hl_error(g->d[1]));
  }
  for (uint32_t i = 0; i < n; i++)
    if (got[i] != g->img[i]) {
      const uint32_t a = WIN + i;
      const int inside = a >= REGION && a < REGION + REG_BYTES;
      int r = tf_fail(g->t, "after %s: chip 1 byte at 0x%08x (%s) is 0x%02x, expected 0x%02x", after, a,
                      inside ? "in the region" : "outside the region", got[i], g->img[i]);
      free(got);
      return r;
    }
  free(got);
  return TF_PASS;
}

/* A WRITE of len bytes (random data) from chip 0's source to chip 1's va on QP qp; wait
 * for its completion; *w gets the hl_wait result and *c the record. */
static int do_write(pair_t *g, unsigned qp, uint32_t va, uint32_t rkey, uint32_t len, uint8_t *data, int *w,
                    hl_completion_t *c) {
  for (uint32_t i = 0; i < len; i++) data[i] = (uint8_t)tf_rand32(g->t);
  if (len) HC(g, 0, hl_write(g->d[0], SRC, data, len));
  uint32_t seq;
  HC(g, 0, hl_rdma_write(g->d[0], 0, qp, SRC, va, rkey, len, &seq));
  *w = hl_wait(g->d[0], seq, 3000000, c);
  if (*w < 0) return tf_fail(g->t, "hl_wait: %s", hl_error(g->d[0]));
  if (*w == HL_TIMEDOUT) return tf_fail(g->t, "WRITE %u bytes on qp %u: no completion in 3 M cycles", len, qp);
  return TF_PASS;
}

/* Expect a refusal: HL_EREFUSED with this cause (and detail, unless ~0). */
static int refused(pair_t *g, unsigned k, int rc, const hl_completion_t *c, uint32_t cause, uint32_t detail,
                   const char *what) {
  char buf[200];
  if (rc != HL_EREFUSED || c->cause != cause || (detail != ~0u && c->detail != detail))
    return tf_fail(g->t, "%s: rc %d (%s), cause %u (%s) detail 0x%x; expected cause %u (%s) detail 0x%x", what, rc,
                   hl_strerror(rc), c->cause, hl_cause_name(c->cause), c->detail, cause, hl_cause_name(cause),
                   detail);
  tf_log(g->t, "chip %u: %s refused: %s", k, what, hl_nic_describe(c, buf, sizeof buf));
  return TF_PASS;
}

static int qp_state_is(pair_t *g, unsigned k, unsigned qp, unsigned state, hif_nic_info_t *out) {
  hif_nic_info_t i;
  HC(g, k, hl_qp_query(g->d[k], 0, qp, &i, NULL));
  if (HIF_NIC_INFO_STATE(i.state) != state)
    return tf_fail(g->t, "chip %u qp %u: state %s, expected %s", k, qp, hl_qp_state_name(HIF_NIC_INFO_STATE(i.state)),
                   hl_qp_state_name(state));
  if (out) *out = i;
  return TF_PASS;
}

/* QPs connected and a region on chip 1 through hostlink; WRITEs of several sizes from
 * chip 0, each completed and chip 1's window checked byte for byte; then the QP query. */
TF_TEST(nic_host, write_sizes, 12000000) {
  pair_t g0, *g = &g0;
  int rc = TF_FAIL;
  if ((rc = pair_open(t, g)) != TF_PASS) goto out;
  rc = TF_FAIL;
  if (connect_qp(g, 0, 3 /* 1024 */, 1) != TF_PASS || window_init(g) != TF_PASS) goto out;
  unsigned idx = 99;
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, &idx, NULL) != HL_OK) {
    rc = tf_fail(t, "hl_mr_reg: %s", hl_error(g->d[1]));
    goto out;
  }
  static const uint32_t sizes[] = {1, 32, 100, 1500, 4103, 9000};
  uint8_t *data = malloc(16384);
  uint32_t pkts = 0;
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const uint32_t len = sizes[i], off = tf_rand_below(t, REG_BYTES - len + 1);
    hl_completion_t c;
    int w;
    if (do_write(g, 0, REGION + off, RKEY, len, data, &w, &c) != TF_PASS) goto free_out;
    if (w != HL_COMPLETED || HIF_NIC_DETAIL_QP(c.detail) != 0 || HIF_NIC_DETAIL_PORT(c.detail) != 0) {
      char buf[200];
      rc = tf_fail(t, "WRITE %u bytes: %s, %s (detail 0x%x)", len, hl_wait_name(w), hl_nic_describe(&c, buf, sizeof buf),
                   c.detail);
      goto free_out;
    }
    /* the completion comes through the port's interrupt, not the firmware's tick (every
     * 20 000 cycles): a WRITE of up to 1 500 bytes takes about 1 200 to 3 500 cycles from
     * the doorbell over the default link (latency 200 cycles each way) */
    const uint32_t limit = 6000u + 4u * t->opts->link.latency;
    if (len <= 1500 && !t->opts->link.drop_ppm && c.t_end - c.t_start > limit) {
      rc = tf_fail(t, "WRITE %u bytes: completion entry %u cycles after the doorbell (more than %u: not through the "
                   "port's interrupt?)", len, c.t_end - c.t_start, limit);
      goto free_out;
    }
    memcpy(g->img + GUARD + off, data, len);
    pkts += (len + 1023u) / 1024u;
    char what[64];
    snprintf(what, sizeof what, "the WRITE of %u bytes to offset %u", len, off);
    if (window_check(g, what) != TF_PASS) goto free_out;
    tf_log(t, "WRITE %u bytes to region offset %u: completed (%u cycles from the port's doorbell to the completion "
           "entry), checked", len, off, c.t_end - c.t_start);
  }
  hif_nic_info_t qi;
  if (qp_state_is(g, 0, 0, HIF_QPS_RTS, &qi) != TF_PASS) goto free_out;
  if (qi.pkts != pkts || qi.sq_psn != 0x00FFF0u || qi.rq_psn != 0x000100u || qi.resends || qi.timeouts ||
      !(qi.state & HIF_NIC_INFO_REQ) || HIF_NIC_INFO_MTU(qi.state) != 3 || !(qi.state & HIF_NIC_INFO_SELECTIVE)) {
    rc = tf_fail(t, "query: state 0x%x pkts %u (expected %u) resends %u timeouts %u sq_psn 0x%x rq_psn 0x%x", qi.state,
                 qi.pkts, pkts, qi.resends, qi.timeouts, qi.sq_psn, qi.rq_psn);
    goto free_out;
  }
  uint32_t lq = 0;
  if (hl_read32(g->d[1], NIC_REG(0, QP_RD_LQPN), &lq) != HL_OK || lq != qi.dqpn) {
    rc = tf_fail(t, "chip 0's QP names destination QPN 0x%x, chip 1's QP 0 has local QPN 0x%x", qi.dqpn, lq);
    goto free_out;
  }
  tf_log(t, "query: RTS, %u packets sent, no resends", qi.pkts);
  /* deregistered: the port's entry is invalid again */
  uint32_t cfg = 1;
  if (hl_mr_dereg(g->d[1], 0, idx, NULL) != HL_OK || hl_write32(g->d[1], NIC_REG(0, MR_SEL), idx) != HL_OK ||
      hl_read32(g->d[1], NIC_REG(0, MR_RD_CFG), &cfg) != HL_OK || (cfg & NIC__MR_RD_CFG__VALID_bm)) {
    rc = tf_fail(t, "region %u after hl_mr_dereg: MR_RD_CFG 0x%x (%s)", idx, cfg, hl_error(g->d[1]));
    goto free_out;
  }
  rc = TF_PASS;
free_out:
  free(data);
out:
  pair_close(g);
  return rc;
}

/* The QP life cycle and the state machine: every refusal names port, QP and cause, and
 * leaves the QP as it was. */
TF_TEST(nic_host, qp_transitions, 6000000) {
  pair_t g0, *g = &g0;
  int rc = pair_open(t, g);
  if (rc != TF_PASS) goto out;
  rc = TF_FAIL;
  hl_dev_t *d = g->d[0];
  hl_completion_t c;
  hl_qp_attr_t a = {0};
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_INIT, NULL, &c), &c, HIF_CAUSE_NIC_QP,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_QP_NONE), "modify before create") != TF_PASS)
    goto out;
  if (hl_qp_create(d, 0, 2, 0x1234, NULL, &c) != HL_OK) goto fail;
  if (refused(g, 0, hl_qp_create(d, 0, 2, 0x1235, NULL, &c), &c, HIF_CAUSE_NIC_QP,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_QP_EXISTS), "create twice") != TF_PASS ||
      refused(g, 0, hl_qp_create(d, 0, 3, 0x1234, NULL, &c), &c, HIF_CAUSE_NIC_QP,
              HIF_NIC_DETAIL(0, 3, HIF_NIC_QP_QPN_USED), "create with a QPN in use") != TF_PASS ||
      refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTS, NULL, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_RESET << 4) | HIF_QPS_RTS), "RESET -> RTS") != TF_PASS ||
      refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTR, NULL, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_RESET << 4) | HIF_QPS_RTR), "RESET -> RTR") != TF_PASS ||
      refused(g, 0, hl_qp_modify(d, 0, 2, 7, NULL, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_RESET << 4) | 7), "RESET -> state 7") != TF_PASS)
    goto out;
  if (qp_state_is(g, 0, 2, HIF_QPS_RESET, NULL) != TF_PASS) goto out;
  if (hl_qp_modify(d, 0, 2, HIF_QPS_INIT, NULL, &c) != HL_OK) goto fail;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTS, NULL, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_INIT << 4) | HIF_QPS_RTS), "INIT -> RTS") != TF_PASS)
    goto out;
  /* INIT -> RTR without the destination, with MTU code 6, with a 25-bit PSN */
  a.attr_mask = HIF_NIC_ATTR_MTU | HIF_NIC_ATTR_RQ_PSN;
  a.mtu = 3;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTR, &a, &c), &c, HIF_CAUSE_NIC_ATTR,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_ATTR_DEST), "RTR without a destination") != TF_PASS)
    goto out;
  a.attr_mask = HIF_NIC_ATTR_NEED_RTR;
  a.dqpn = 0x77;
  a.rmac = mac_of(1);
  a.rip = ip_of(1);
  a.mtu = 6;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTR, &a, &c), &c, HIF_CAUSE_NIC_ATTR,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_ATTR_MTU), "MTU code 6") != TF_PASS)
    goto out;
  a.mtu = 5;
  a.rq_psn = 0x1000000;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTR, &a, &c), &c, HIF_CAUSE_NIC_ATTR,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_ATTR_RQ_PSN), "a 25-bit receive PSN") != TF_PASS)
    goto out;
  if (qp_state_is(g, 0, 2, HIF_QPS_INIT, NULL) != TF_PASS) goto out;
  a.rq_psn = 0xABCDEF;
  if (hl_qp_modify(d, 0, 2, HIF_QPS_RTR, &a, &c) != HL_OK) goto fail;
  a.attr_mask = 0;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTS, &a, &c), &c, HIF_CAUSE_NIC_ATTR,
              HIF_NIC_DETAIL(0, 2, HIF_NIC_ATTR_SQ_PSN), "RTS without a send PSN") != TF_PASS ||
      refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_INIT, &a, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_RTR << 4) | HIF_QPS_INIT), "RTR -> INIT") != TF_PASS)
    goto out;
  a.attr_mask = HIF_NIC_ATTR_SQ_PSN;
  a.sq_psn = 0x123456;
  if (hl_qp_modify(d, 0, 2, HIF_QPS_RTS, &a, &c) != HL_OK) goto fail;
  hif_nic_info_t qi;
  if (qp_state_is(g, 0, 2, HIF_QPS_RTS, &qi) != TF_PASS) goto out;
  if (qi.lqpn != 0x1234 || qi.dqpn != 0x77 || qi.sq_psn != 0x123456 || qi.rq_psn != 0xABCDEF ||
      HIF_NIC_INFO_MTU(qi.state) != 5) {
    rc = tf_fail(t, "query after RTS: lqpn 0x%x dqpn 0x%x sq_psn 0x%x rq_psn 0x%x state 0x%x", qi.lqpn, qi.dqpn,
                 qi.sq_psn, qi.rq_psn, qi.state);
    goto out;
  }
  /* RTS -> ERROR -> RESET, destroy, create again with the same QPN */
  if (hl_qp_modify(d, 0, 2, HIF_QPS_ERROR, NULL, &c) != HL_OK || qp_state_is(g, 0, 2, HIF_QPS_ERROR, NULL) != TF_PASS)
    goto fail;
  if (refused(g, 0, hl_qp_modify(d, 0, 2, HIF_QPS_RTS, NULL, &c), &c, HIF_CAUSE_NIC_STATE,
              HIF_NIC_DETAIL(0, 2, (HIF_QPS_ERROR << 4) | HIF_QPS_RTS), "ERROR -> RTS") != TF_PASS)
    goto out;
  if (hl_qp_destroy(d, 0, 2, &c) != HL_OK) goto fail;
  if (refused(g, 0, hl_qp_query(d, 0, 2, NULL, &c), &c, HIF_CAUSE_NIC_QP, HIF_NIC_DETAIL(0, 2, HIF_NIC_QP_NONE),
              "query after destroy") != TF_PASS)
    goto out;
  uint32_t qpn = 0;
  if (hl_qp_create(d, 0, 3, 0x1234, &qpn, &c) != HL_OK || qpn != 0x1234 ||
      qp_state_is(g, 0, 3, HIF_QPS_RESET, NULL) != TF_PASS)
    goto fail;
  rc = TF_PASS;
  goto out;
fail:
  return pair_end(g, rc, 1, 0);
out:
  return pair_end(g, rc, 0, 0);
}

/* Requests out of range: port, QP index, unknown op, reserved words; regions outside
 * device memory, over the firmware's area, R_Key twice, more than 16; nothing of a
 * refused region reaches the port's table. */
TF_TEST(nic_host, out_of_range, 6000000) {
  pair_t g0, *g = &g0;
  int rc = pair_open(t, g);
  if (rc != TF_PASS) goto out;
  rc = TF_FAIL;
  hl_dev_t *d = g->d[1];
  hl_completion_t c;
  if (refused(g, 1, hl_qp_create(d, 0, HIF_NIC_QPS, 0, NULL, &c), &c, HIF_CAUSE_NIC_QP,
              HIF_NIC_DETAIL(0, HIF_NIC_QPS, HIF_NIC_QP_RANGE), "QP index 16") != TF_PASS ||
      refused(g, 1, hl_qp_create(d, TESSERA_NIC_PORTS, 0, 0, NULL, &c), &c, HIF_CAUSE_NIC_PORT,
              HIF_NIC_DETAIL(TESSERA_NIC_PORTS, 0, 0), "port past the last") != TF_PASS ||
      refused(g, 1, hl_qp_create(d, 0, 0, 0x1000000, NULL, &c), &c, HIF_CAUSE_NIC_ATTR,
              HIF_NIC_DETAIL(0, 0, HIF_NIC_ATTR_QPN), "a 25-bit QPN") != TF_PASS)
    goto out;
  /* raw requests: unknown op, a reserved word */
  hif_nic_req_t r;
  memset(&r, 0, sizeof r);
  r.seq = hl_next_seq(d);
  r.ctrl = HIF_NIC_CTRL(HIF_NIC_OP_COUNT, 1);
  int w;
  if (hl_submit_raw(d, 2, (const hif_job_t *)&r, 1) != HL_OK) goto fail;
  w = hl_wait(d, r.seq, 1000000, &c);
  if (refused(g, 1, w == HL_FAILED ? HL_EREFUSED : w, &c, HIF_CAUSE_NIC_REQUEST, 1, "unknown op") != TF_PASS) goto out;
  r.seq = hl_next_seq(d);
  r.ctrl = HIF_NIC_CTRL(HIF_NIC_QP_QUERY, 1);
  r.rsvd[3] = 1;
  if (hl_submit_raw(d, 1, (const hif_job_t *)&r, 1) != HL_OK) goto fail;
  w = hl_wait(d, r.seq, 1000000, &c);
  if (refused(g, 1, w == HL_FAILED ? HL_EREFUSED : w, &c, HIF_CAUSE_NIC_REQUEST,
              (uint32_t)(offsetof(hif_nic_req_t, rsvd) / 4 + 3), "a reserved word") != TF_PASS)
    goto out;
  /* regions */
  static const struct { uint32_t base, len; const char *what; } bad[] = {
      {TESSERA_DSRAM_BASE, 4096, "in the firmware's DSRAM"},
      {TESSERA_HBM_BASE, 4096, "in the firmware's area of device memory"},
      {TESSERA_HBM_BASE + HIF_NIC_FW_AREA_BYTES - 64, 4096, "across the end of the firmware's area"},
      {TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 4096, 4097, "past the end of device memory"},
      {TESSERA_NIC_ADDR(0), 256, "over the NIC's registers"},
      {REGION, 0, "empty"},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (refused(g, 1, hl_mr_reg(d, 0, bad[i].base, bad[i].len, RKEY + i, HIF_NIC_MR_WRITE, NULL, &c), &c,
                HIF_CAUSE_NIC_MR_RANGE, HIF_NIC_DETAIL(0, 0xFF, 0), bad[i].what) != TF_PASS)
      goto out;
  if (refused(g, 1, hl_mr_reg(d, 0, REGION, 64, RKEY, 4, NULL, &c), &c, HIF_CAUSE_NIC_MR,
              HIF_NIC_DETAIL(0, 0xFF, HIF_NIC_MR_ACCESS), "access bit 2") != TF_PASS)
    goto out;
  /* nothing of the refusals reached the port's region table */
  for (unsigned k = 0; k < HIF_NIC_MRS; k++) {
    uint32_t cfg = 1;
    if (hl_write32(d, NIC_REG(0, MR_SEL), k) != HL_OK || hl_read32(d, NIC_REG(0, MR_RD_CFG), &cfg) != HL_OK) goto fail;
    if (cfg) {
      rc = tf_fail(t, "region %u of the port is 0x%x after refused registrations", k, cfg);
      goto out;
    }
  }
  /* 16 regions fit (the last one ends at device memory's end), the 17th does not; an R_Key twice */
  unsigned idx = 0;
  for (unsigned k = 0; k < HIF_NIC_MRS; k++) {
    const uint32_t base = k == HIF_NIC_MRS - 1 ? TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 4096 : REGION + 64 * k;
    if (hl_mr_reg(d, 0, base, k == HIF_NIC_MRS - 1 ? 4096 : 64, RKEY + 0x100 + k, HIF_NIC_MR_READ | HIF_NIC_MR_WRITE,
                  &idx, &c) != HL_OK)
      goto fail;
    if (idx != k) {
      rc = tf_fail(t, "region %u registered as index %u", k, idx);
      goto out;
    }
  }
  if (refused(g, 1, hl_mr_reg(d, 0, REGION, 64, RKEY + 0x100, HIF_NIC_MR_WRITE, NULL, &c), &c, HIF_CAUSE_NIC_MR,
              HIF_NIC_DETAIL(0, 0, HIF_NIC_MR_KEY_USED), "an R_Key in use") != TF_PASS ||
      refused(g, 1, hl_mr_reg(d, 0, REGION, 64, RKEY, HIF_NIC_MR_WRITE, NULL, &c), &c, HIF_CAUSE_NIC_MR,
              HIF_NIC_DETAIL(0, 0xFF, HIF_NIC_MR_FULL), "a 17th region") != TF_PASS)
    goto out;
  if (hl_mr_dereg(d, 0, 5, &c) != HL_OK) goto fail;
  if (refused(g, 1, hl_mr_dereg(d, 0, 5, &c), &c, HIF_CAUSE_NIC_MR, HIF_NIC_DETAIL(0, 5, HIF_NIC_MR_NONE),
              "dereg twice") != TF_PASS ||
      refused(g, 1, hl_mr_dereg(d, 0, 16, &c), &c, HIF_CAUSE_NIC_MR, HIF_NIC_DETAIL(0, 16, HIF_NIC_MR_RANGE),
              "dereg index 16") != TF_PASS)
    goto out;
  if (hl_mr_reg(d, 0, REGION, 64, RKEY, HIF_NIC_MR_WRITE, &idx, &c) != HL_OK || idx != 5) goto fail;
  rc = TF_PASS;
  goto out;
fail:
  return pair_end(g, rc, 1, 1);
out:
  return pair_end(g, rc, 0, 1);
}

/* Posting refused: a QP in RTR, a QP without a requester, a misaligned or outside local
 * buffer; nothing reaches the port's work-request queue and nothing lands. */
TF_TEST(nic_host, post_refused, 6000000) {
  pair_t g0, *g = &g0;
  int rc = pair_open(t, g);
  if (rc != TF_PASS) goto out;
  rc = TF_FAIL;
  if (window_init(g) != TF_PASS) goto out;
  hl_dev_t *d = g->d[0];
  hl_completion_t c;
  uint32_t seq;
  int w;
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, NULL, &c) != HL_OK) goto fail;
  /* QP 1 only to RTR on chip 0 */
  hl_qp_attr_t a = {0};
  a.attr_mask = HIF_NIC_ATTR_NEED_RTR;
  a.dqpn = 0x200;
  a.rmac = mac_of(1);
  a.rip = ip_of(1);
  a.mtu = 3;
  const hl_qp_attr_t rtr = a;
  if (hl_qp_create(d, 0, 1, 0, NULL, &c) != HL_OK || hl_qp_modify(d, 0, 1, HIF_QPS_INIT, NULL, &c) != HL_OK) goto fail;
  struct { unsigned qp; uint32_t laddr, cause, detail; const char *what; } cases[] = {
      {1, SRC, HIF_CAUSE_NIC_NOT_RTS, HIF_NIC_DETAIL(0, 1, HIF_QPS_INIT), "post on a QP in INIT"},
      {1, SRC, HIF_CAUSE_NIC_NOT_RTS, HIF_NIC_DETAIL(0, 1, HIF_QPS_RTR), "post on a QP in RTR"},
      {3, SRC, HIF_CAUSE_NIC_QP, HIF_NIC_DETAIL(0, 3, HIF_NIC_QP_NONE), "post on a QP not created"},
      {9, SRC, HIF_CAUSE_NIC_QP, HIF_NIC_DETAIL(0, 9, HIF_NIC_QP_NO_REQ), "post on QP 9 (no requester)"},
      {0, SRC + 16, HIF_CAUSE_NIC_BUF, HIF_NIC_DETAIL(0, 0, 0), "a local buffer not 32-byte aligned"},
      {0, TESSERA_DSRAM_BASE, HIF_CAUSE_NIC_BUF, HIF_NIC_DETAIL(0, 0, 0), "a local buffer in the DSRAM"},
      {0, TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 32, HIF_CAUSE_NIC_BUF, HIF_NIC_DETAIL(0, 0, 0),
       "a local buffer past the end of device memory"},
  };
  if (connect_qp(g, 0, 3, 1) != TF_PASS) goto out;
  if (hl_qp_create(d, 0, 9, 0, NULL, &c) != HL_OK || hl_qp_modify(d, 0, 9, HIF_QPS_INIT, NULL, &c) != HL_OK ||
      hl_qp_modify(d, 0, 9, HIF_QPS_RTR, &a, &c) != HL_OK)
    goto fail;
  a.attr_mask = HIF_NIC_ATTR_SQ_PSN;
  if (hl_qp_modify(d, 0, 9, HIF_QPS_RTS, &a, &c) != HL_OK) goto fail;
  uint32_t cnt0 = 0, cnt1 = 0;
  if (hl_read32(d, NIC_REG(0, CNT_TX_FRAMES), &cnt0) != HL_OK) goto fail;
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (i == 1 && hl_qp_modify(d, 0, 1, HIF_QPS_RTR, &rtr, &c) != HL_OK) goto fail;
    if (hl_rdma_write(d, 0, cases[i].qp, cases[i].laddr, REGION, RKEY, 64, &seq) != HL_OK) goto fail;
    w = hl_wait(d, seq, 1000000, &c);
    if (refused(g, 0, w == HL_FAILED ? HL_EREFUSED : w, &c, cases[i].cause, cases[i].detail, cases[i].what) != TF_PASS)
      goto out;
  }
  if (hl_read32(d, NIC_REG(0, CNT_TX_FRAMES), &cnt1) != HL_OK) goto fail;
  if (cnt1 != cnt0) {
    rc = tf_fail(t, "the port sent %u frames for refused WRITEs", cnt1 - cnt0);
    goto out;
  }
  if (window_check(g, "the refused WRITEs") != TF_PASS) goto out;
  rc = TF_PASS;
  goto out;
fail:
  return pair_end(g, rc, 1, 0);
out:
  return pair_end(g, rc, 0, 0);
}

/* A WRITE past the region's end and one with another R_Key (one packet each): an error
 * completion naming QP 0 and the remote-access cause, QP 0 in ERROR on both chips, nothing
 * written; QP 1 still writes; a post on QP 0 is refused (not RTS). */
TF_TEST(nic_host, write_bounds, 10000000) {
  pair_t g0, *g = &g0;
  int rc = pair_open(t, g);
  if (rc != TF_PASS) goto out;
  rc = TF_FAIL;
  if (connect_qp(g, 0, 3, 1) != TF_PASS || connect_qp(g, 1, 3, 0 /* go-back-N */) != TF_PASS ||
      window_init(g) != TF_PASS)
    goto out;
  hl_completion_t c;
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, NULL, &c) != HL_OK) {
    rc = tf_fail(t, "hl_mr_reg: %s", hl_error(g->d[1]));
    goto out;
  }
  uint8_t data[1024];
  int w;
  const int bounds_first = (int)(tf_rand32(t) & 1u);
  for (int k = 0; k < 2; k++) {
    const int bounds = k == 0 ? bounds_first : !bounds_first;
    const unsigned qp = k == 0 ? 0 : 1;   /* the second on QP 1: QP 0 is in ERROR by then */
    const uint32_t va = bounds ? REGION + REG_BYTES - 512 : REGION + 256, key = bounds ? RKEY : RKEY ^ 0x100;
    if (do_write(g, qp, va, key, 1000, data, &w, &c) != TF_PASS) goto out;
    char buf[200];
    if (w != HL_FAILED || c.cause != HIF_CAUSE_NIC_REMOTE || c.detail != HIF_NIC_DETAIL(0, qp, 2)) {
      rc = tf_fail(t, "WRITE %s on qp %u: %s, %s (cause %u detail 0x%x); expected a remote access error on qp %u",
                   bounds ? "past the region's end" : "with another R_Key", qp, hl_wait_name(w),
                   hl_nic_describe(&c, buf, sizeof buf), c.cause, c.detail, qp);
      goto out;
    }
    tf_log(t, "WRITE %s on qp %u: %s", bounds ? "past the region's end" : "with another R_Key", qp,
           hl_nic_describe(&c, buf, sizeof buf));
    if (window_check(g, "a refused remote WRITE") != TF_PASS) goto out;
    if (qp_state_is(g, 0, qp, HIF_QPS_ERROR, NULL) != TF_PASS || qp_state_is(g, 1, qp, HIF_QPS_ERROR, NULL) != TF_PASS)
      goto out;
    if (k == 0) {
      /* the other QP still works */
      if (do_write(g, 1, REGION + 4096, RKEY, 1000, data, &w, &c) != TF_PASS) goto out;
      if (w != HL_COMPLETED) {
        rc = tf_fail(t, "WRITE on qp 1 after qp 0 failed: %s, %s", hl_wait_name(w), hl_nic_describe(&c, buf, sizeof buf));
        goto out;
      }
      memcpy(g->img + GUARD + 4096, data, 1000);
      if (window_check(g, "the WRITE on qp 1") != TF_PASS) goto out;
    }
    uint32_t seq;
    if (hl_rdma_write(g->d[0], 0, qp, SRC, REGION, RKEY, 64, &seq) != HL_OK) goto out;
    w = hl_wait(g->d[0], seq, 1000000, &c);
    if (refused(g, 0, w == HL_FAILED ? HL_EREFUSED : w, &c, HIF_CAUSE_NIC_NOT_RTS,
                HIF_NIC_DETAIL(0, qp, HIF_QPS_ERROR), "post on a QP in ERROR") != TF_PASS)
      goto out;
  }
  rc = TF_PASS;
out:
  pair_close(g);
  return rc;
}

/* Eight WRITEs posted at once on two QPs (QP 0 selective, MTU 1024; QP 1 go-back-N, MTU
 * 256), each into its own 4 KiB slot of the region: all in flight together through the
 * firmware's table and the port's queues, every completion names its QP, the window
 * equals the image, the query counts every packet and shows the requesters idle. */
TF_TEST(nic_host, write_many, 12000000) {
  pair_t g0, *g = &g0;
  int rc = pair_open(t, g);
  if (rc != TF_PASS) return pair_end(g, rc, 0, 0);
  rc = TF_FAIL;
  if (connect_qp(g, 0, 3, 1) != TF_PASS || connect_qp(g, 1, 1, 0) != TF_PASS || window_init(g) != TF_PASS)
    return pair_end(g, rc, 0, 0);
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, NULL, NULL) != HL_OK)
    return pair_end(g, rc, 1, 1);
  enum { N = 8 };
  uint8_t *data = malloc(N * 4096);
  uint32_t seq[N], len[N], off[N], pkts[2] = {0, 0};
  if (!data) return pair_end(g, tf_fail(t, "out of memory"), 0, 0);
  for (unsigned i = 0; i < N; i++) {
    len[i] = 1 + tf_rand_below(t, 4096);
    off[i] = 4096 * i + tf_rand_below(t, 4096 - len[i] + 1);
    for (uint32_t b = 0; b < len[i]; b++) data[4096 * i + b] = (uint8_t)tf_rand32(t);
    pkts[i & 1] += (len[i] + (i & 1 ? 255u : 1023u)) / (i & 1 ? 256u : 1024u);
  }
  if (hl_write(g->d[0], SRC, data, N * 4096) != HL_OK) {
    free(data);
    return pair_end(g, rc, 1, 0);
  }
  for (unsigned i = 0; i < N; i++)
    if (hl_rdma_write(g->d[0], 0, i & 1, SRC + 4096 * i, REGION + off[i], RKEY, len[i], &seq[i]) != HL_OK) {
      free(data);
      return pair_end(g, rc, 1, 0);
    }
  for (unsigned i = 0; i < N; i++) {
    hl_completion_t c;
    char buf[200];
    const int w = hl_wait(g->d[0], seq[i], 3000000, &c);
    if (w != HL_COMPLETED || c.detail != HIF_NIC_DETAIL(0, i & 1, 0)) {
      rc = tf_fail(t, "WRITE %u (%u bytes, qp %u): %s, %s, detail 0x%x, %u cycles from the doorbell to its completion",
                   i, len[i], i & 1, hl_wait_name(w), hl_nic_describe(&c, buf, sizeof buf), c.detail,
                   c.t_end - c.t_start);
      free(data);
      return pair_end(g, rc, 0, 0);
    }
    memcpy(g->img + GUARD + off[i], data + 4096 * i, len[i]);
    tf_log(t, "WRITE %u: %u bytes on qp %u, %u cycles from the port's doorbell to the completion entry", i, len[i],
           i & 1, c.t_end - c.t_start);
  }
  free(data);
  if (window_check(g, "eight WRITEs in flight together") != TF_PASS) return pair_end(g, rc, 0, 0);
  for (unsigned qp = 0; qp < 2; qp++) {
    hif_nic_info_t qi;
    if (qp_state_is(g, 0, qp, HIF_QPS_RTS, &qi) != TF_PASS) return pair_end(g, rc, 0, 0);
    if (qi.pkts != pkts[qp] || !(qi.state & HIF_NIC_INFO_REQ_IDLE))
      return pair_end(g, tf_fail(t, "qp %u: %u packets sent (expected %u), state 0x%x", qp, qi.pkts, pkts[qp], qi.state),
                      0, 0);
  }
  return pair_end(g, TF_PASS, 0, 0);
}

/* 3 % of the frames dropped in each direction: a 16 KiB WRITE on each of two QPs (QP 0
 * selective, QP 1 go-back-N, MTU 256), in flight together, both land exactly; the link
 * dropped frames and the query shows the requesters' resends. */
TF_TEST(nic_host, write_lossy, 12000000) {
  pair_t g0, *g = &g0;
  tsim_link_cfg_t cfg = t->opts->link;
  if (!cfg.drop_ppm) cfg.drop_ppm = 30000;
  int rc = pair_open_link(t, g, &cfg);
  if (rc != TF_PASS) return pair_end(g, rc, 0, 0);
  rc = TF_FAIL;
  if (connect_qp(g, 0, 1, 1) != TF_PASS || connect_qp(g, 1, 1, 0) != TF_PASS || window_init(g) != TF_PASS)
    return pair_end(g, rc, 0, 0);
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, NULL, NULL) != HL_OK)
    return pair_end(g, rc, 1, 1);
  const uint32_t len = 16384;
  uint8_t *data = malloc(2 * len);
  if (!data) return pair_end(g, tf_fail(t, "out of memory"), 0, 0);
  for (uint32_t b = 0; b < 2 * len; b++) data[b] = (uint8_t)tf_rand32(t);
  uint32_t seq[2];
  if (hl_write(g->d[0], SRC, data, 2 * len) != HL_OK ||
      hl_rdma_write(g->d[0], 0, 0, SRC, REGION + 100, RKEY, len, &seq[0]) != HL_OK ||
      hl_rdma_write(g->d[0], 0, 1, SRC + len, REGION + len + 200, RKEY, len - 300, &seq[1]) != HL_OK) {
    free(data);
    return pair_end(g, rc, 1, 0);
  }
  for (unsigned k = 0; k < 2; k++) {
    hl_completion_t c;
    char buf[200];
    const int w = hl_wait(g->d[0], seq[k], 6000000, &c);
    if (w != HL_COMPLETED) {
      free(data);
      return pair_end(g, tf_fail(t, "WRITE on qp %u: %s, %s", k, hl_wait_name(w), hl_nic_describe(&c, buf, sizeof buf)),
                      0, 0);
    }
  }
  memcpy(g->img + GUARD + 100, data, len);
  memcpy(g->img + GUARD + len + 200, data + len, len - 300);
  free(data);
  if (window_check(g, "two WRITEs over a lossy link") != TF_PASS) return pair_end(g, rc, 0, 0);
  tsim_link_stats_t ls[2];
  tsim_link_stats(tsim_multi_link(g->m, 0, 0), &ls[0]);
  tsim_link_stats(tsim_multi_link(g->m, 1, 0), &ls[1]);
  hif_nic_info_t qi[2];
  for (unsigned qp = 0; qp < 2; qp++)
    if (qp_state_is(g, 0, qp, HIF_QPS_RTS, &qi[qp]) != TF_PASS) return pair_end(g, rc, 0, 0);
  tf_log(t, "link 0->1: %llu sent, %llu dropped; 1->0: %llu sent, %llu dropped; qp 0 (selective): %u packets, %u "
         "resent, %u timeouts; qp 1 (go-back-N): %u packets, %u resent, %u timeouts",
         (unsigned long long)ls[0].sent, (unsigned long long)ls[0].dropped, (unsigned long long)ls[1].sent,
         (unsigned long long)ls[1].dropped, qi[0].pkts, qi[0].resends, qi[0].timeouts, qi[1].pkts, qi[1].resends,
         qi[1].timeouts);
  if (!ls[0].dropped) return pair_end(g, tf_fail(t, "the link dropped no data frame (seed/rate)"), 0, 0);
  if (!qi[0].resends && !qi[1].resends)
    return pair_end(g, tf_fail(t, "%llu frames dropped but the query shows no resend", (unsigned long long)ls[0].dropped),
                    0, 0);
  return pair_end(g, TF_PASS, 0, 0);
}

/* More WRITEs than the firmware holds in flight (16), over a link with a 5 000-cycle
 * latency: 24 WRITEs posted as fast as ring 0 takes them (the host retries while the ring
 * is full); the firmware leaves a WRITE in its ring while its table is full and takes it
 * once a completion made room (the last WRITE is taken after the first completed); all 24
 * complete in order and land. */
TF_TEST(nic_host, write_backpressure, 12000000) {
  pair_t g0, *g = &g0;
  tsim_link_cfg_t cfg = t->opts->link;
  if (cfg.latency < 5000) cfg.latency = 5000;
  int rc = pair_open_link(t, g, &cfg);
  if (rc != TF_PASS) return pair_end(g, rc, 0, 0);
  rc = TF_FAIL;
  if (connect_qp(g, 0, 3, 1) != TF_PASS || window_init(g) != TF_PASS) return pair_end(g, rc, 0, 0);
  if (hl_mr_reg(g->d[1], 0, REGION, REG_BYTES, RKEY, HIF_NIC_MR_WRITE, NULL, NULL) != HL_OK)
    return pair_end(g, rc, 1, 1);
  enum { N = 24, SLOT = 1024 };
  uint8_t *data = malloc(N * SLOT);
  uint32_t seq[N], len[N], retries = 0;
  hl_completion_t c[N];
  if (!data) return pair_end(g, tf_fail(t, "out of memory"), 0, 0);
  for (unsigned i = 0; i < N * SLOT; i++) data[i] = (uint8_t)tf_rand32(t);
  if (hl_write(g->d[0], SRC, data, N * SLOT) != HL_OK) {
    free(data);
    return pair_end(g, rc, 1, 0);
  }
  for (unsigned i = 0; i < N; i++) {
    len[i] = 32 + tf_rand_below(t, SLOT - 31);
    int r;
    while ((r = hl_rdma_write(g->d[0], 0, 0, SRC + SLOT * i, REGION + SLOT * i, RKEY, len[i], &seq[i])) == HL_EFULL) {
      retries++;
      if (hl_run(g->d[0], 500) != HL_OK || retries > 10000) break;
    }
    if (r != HL_OK) {
      free(data);
      return pair_end(g, tf_fail(t, "WRITE %u: %s (%s)", i, hl_strerror(r), hl_error(g->d[0])), 0, 0);
    }
  }
  for (unsigned i = 0; i < N; i++) {
    char buf[200];
    const int w = hl_wait(g->d[0], seq[i], 3000000, &c[i]);
    if (w != HL_COMPLETED) {
      free(data);
      return pair_end(g, tf_fail(t, "WRITE %u: %s, %s", i, hl_wait_name(w), hl_nic_describe(&c[i], buf, sizeof buf)),
                      0, 0);
    }
    memcpy(g->img + GUARD + SLOT * i, data + SLOT * i, len[i]);
    if (i && c[i].t_end - c[i - 1].t_end > 0x80000000u) {
      free(data);
      return pair_end(g, tf_fail(t, "WRITE %u completed before WRITE %u", i, i - 1), 0, 0);
    }
  }
  free(data);
  tf_log(t, "host retried %u times on a full ring; WRITE 0 completed at %u, WRITE %u taken at %u", retries, c[0].t_end,
         N - 1, c[N - 1].t_submit);
  if (c[N - 1].t_submit - c[0].t_end > 0x80000000u)
    return pair_end(g, tf_fail(t, "WRITE %u was taken at %u, before WRITE 0 completed at %u: no backpressure exercised",
                               N - 1, c[N - 1].t_submit, c[0].t_end), 0, 0);
  if (window_check(g, "24 WRITEs") != TF_PASS) return pair_end(g, rc, 0, 0);
  return pair_end(g, TF_PASS, 0, 0);
}

#endif /* TESSERA_NIC_PORTS > 0 */
