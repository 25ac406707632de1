/* Suite `nic_chip`: the NIC ports in the chip, several chips joined by link models
 * (docs/nic.md "The NIC in the chip", "Multi-chip simulation").
 *
 * The host programs each port through the host port as firmware or hostlink would: the
 * port's MAC and IPv4 address, a queue pair per connection (QP_* registers, then INIT,
 * RTR, RTS through QP_CMD, each checked in QP_STATUS), a memory region on the receiving
 * side (MR_*), an RDMA WRITE work request (WR_*, WR_DOORBELL) and the completion popped
 * from the completion queue (CQ_STATUS, CQ_HEAD, CQ_POP). After the completion the
 * receiver's L2 is flushed and its device memory compared byte for byte with the expected
 * image: the source bytes in the destination range, the fill pattern around it (nothing
 * written outside). The expected frames are the golden model's (tests/nic/roce_model):
 * an injected frame is built by it, the frames of a capture are parsed by it and by scapy
 * (tests/nic/scapy_check.py), and the payloads they carry are checked against the source.
 * Every test has a cycle budget and a fixed seed (printed by the framework); the link
 * impairments of a test can be changed with chip_tb's --link-* options and its links
 * written with --pcap DIR. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "regs/nic_regs.h"
#include "roce_model.h"
#include "tessera/roce.h"
#include "tessera_cfg.h"
#include "tessera_multi.h"
#include "tessera_pcap.h"
#include "tf.h"
#include "chip_nic.h"

#if TESSERA_NIC_PORTS > 0

#define SRC_BASE (TESSERA_HBM_BASE + 0x00100000u)  /* source tensors */
#define DST_BASE (TESSERA_HBM_BASE + 0x00400000u)  /* the receiver's memory region */
#define MR_BYTES 0x00200000u
#define GUARD 256u                                  /* fill bytes checked on each side */

int nw(net_t *g, unsigned c, unsigned p, uint32_t off, uint32_t v) {
  int rc = tsim_host_write32(g->chip[c], nic_reg(p, off), v);
  if (rc != TSIM_OK)
    return tf_fail(g->t, "chip %u port %u: write 0x%08x to NIC offset 0x%03x: %s", c, p, v, off,
                   tsim_last_error(g->chip[c]));
  return TF_PASS;
}
int nr(net_t *g, unsigned c, unsigned p, uint32_t off, uint32_t *v) {
  int rc = tsim_host_read32(g->chip[c], nic_reg(p, off), v);
  if (rc != TSIM_OK)
    return tf_fail(g->t, "chip %u port %u: read of NIC offset 0x%03x: %s", c, p, off, tsim_last_error(g->chip[c]));
  return TF_PASS;
}

/* Chip 0 is the framework's t->sim; the others are created like it. cfg NULL: the
 * command line's link (chip_tb --link-*); topo NULL: no connection. */
int net_open(tf_ctx_t *t, net_t *g, unsigned n, const char *topo, const tsim_link_cfg_t *cfg) {
  memset(g, 0, sizeof *g);
  g->t = t;
  g->n = n;
  g->m = tsim_multi_new();
  for (unsigned i = 0; i < n; ++i) {
    g->chip[i] = i ? tf_new_chip(t) : t->sim;
    if (!g->chip[i]) return tf_fail(t, "cannot create chip %u", i);
    if (tsim_multi_add(g->m, g->chip[i]) != (int)i) return tf_fail(t, "tsim_multi_add(chip %u) failed", i);
  }
  if (topo && tsim_multi_topology(g->m, topo, cfg ? cfg : &t->opts->link) != TSIM_OK)
    return tf_fail(t, "topology %s does not fit %u chips of %u ports", topo, n, tsim_nic_ports());
  if (topo && t->opts->pcap_dir) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s.%s", t->opts->pcap_dir, t->test->suite, t->test->name);
    mkdir(t->opts->pcap_dir, 0777);
    mkdir(dir, 0777);
    if (tsim_multi_pcap(g->m, dir) != TSIM_OK) return tf_fail(t, "cannot write pcap files into %s", dir);
    tf_log(t, "pcap files in %s", dir);
  }
  /* every port: its MAC and IPv4 address */
  for (unsigned c = 0; c < n; ++c)
    for (unsigned p = 0; p < TESSERA_NIC_PORTS; ++p) {
      NW(c, p, PORT_MAC_LO, (uint32_t)port_mac(c, p));
      NW(c, p, PORT_MAC_HI, (uint32_t)(port_mac(c, p) >> 32));
      NW(c, p, PORT_IP, port_ip(c, p));
    }
  return TF_PASS;
}

void net_close(net_t *g) {
  if (g->m) tsim_multi_free(g->m);
  for (unsigned i = 1; i < g->n; ++i)
    if (g->chip[i]) tsim_destroy(g->chip[i]);
  g->m = NULL;
}

/* Move QP x.qp of its port to `state` (docs/regs/nic.md QP_CMD) and check QP_STATUS. */
int qp_modify(net_t *g, const qp_end_t *x, unsigned state) {
  uint32_t st = 0;
  NW(x->chip, x->port, QP_SEL, x->qp);
  NW(x->chip, x->port, QP_CMD, (state << NIC__QP_CMD__STATE_bp) | NIC__QP_CMD__GO_bm);
  NR(x->chip, x->port, QP_STATUS, &st);
  if ((st & NIC__QP_STATUS__ERR_bm) || ((st & NIC__QP_STATUS__STATE_bm) >> NIC__QP_STATUS__STATE_bp) != state)
    return tf_fail(g->t, "chip %u port %u QP %u: modify to state %u: QP_STATUS 0x%08x", x->chip, x->port, x->qp,
                   state, st);
  return TF_PASS;
}

/* Connect the two ends (each one's attributes point at the other), RESET -> INIT -> RTR -> RTS. */
int qp_connect(net_t *g, const qp_end_t *a, const qp_end_t *b, unsigned mtu, int selective) {
  for (int k = 0; k < 2; ++k) {
    const qp_end_t *x = k ? b : a, *y = k ? a : b;
    NW(x->chip, x->port, QP_SEL, x->qp);
    NW(x->chip, x->port, QP_LQPN, x->qpn);
    NW(x->chip, x->port, QP_DQPN, y->qpn);
    NW(x->chip, x->port, QP_RMAC_LO, (uint32_t)port_mac(y->chip, y->port));
    NW(x->chip, x->port, QP_RMAC_HI, (uint32_t)(port_mac(y->chip, y->port) >> 32));
    NW(x->chip, x->port, QP_RIP, port_ip(y->chip, y->port));
    NW(x->chip, x->port, QP_CFG, (mtu << NIC__QP_CFG__MTU_bp) | (selective ? NIC__QP_CFG__SELECTIVE_bm : 0u));
    NW(x->chip, x->port, QP_SQ_PSN, x->psn);
    NW(x->chip, x->port, QP_RQ_PSN, y->psn);
    if (qp_modify(g, x, 1) != TF_PASS || qp_modify(g, x, 2) != TF_PASS || qp_modify(g, x, 3) != TF_PASS)
      return TF_FAIL;
  }
  return TF_PASS;
}

/* Memory region `idx` of a port: [base, base + len), R_Key rkey, remote WRITE allowed. */
int mr_write(net_t *g, unsigned c, unsigned p, unsigned idx, uint32_t base, uint32_t len, uint32_t rkey) {
  return mr_write_red(g, c, p, idx, base, len, rkey, 0);
}
int mr_write_red(net_t *g, unsigned c, unsigned p, unsigned idx, uint32_t base, uint32_t len, uint32_t rkey,
                 uint32_t red) {
  NW(c, p, MR_SEL, idx);
  NW(c, p, MR_BASE_LO, base);
  NW(c, p, MR_BASE_HI, 0);
  NW(c, p, MR_LEN, len);
  NW(c, p, MR_RKEY, rkey);
  NW(c, p, MR_CFG, NIC__MR_CFG__VALID_bm | NIC__MR_CFG__WR_OK_bm | red);
  NW(c, p, MR_CMD, NIC__MR_CMD__GO_bm);
  return TF_PASS;
}

/* RDMA WRITE work request at x's doorbell. */
int post_write(net_t *g, const qp_end_t *x, uint16_t id, uint32_t laddr, uint32_t va, uint32_t rkey,
                      uint32_t len) {
  uint32_t st = 0;
  NW(x->chip, x->port, WR_QP, x->qp);
  NW(x->chip, x->port, WR_ID, id);
  NW(x->chip, x->port, WR_LADDR, laddr);
  NW(x->chip, x->port, WR_VA_LO, va);
  NW(x->chip, x->port, WR_VA_HI, 0);
  NW(x->chip, x->port, WR_RKEY, rkey);
  NW(x->chip, x->port, WR_LEN, len);
  NW(x->chip, x->port, WR_DOORBELL, NIC__WR_DOORBELL__GO_bm);
  NR(x->chip, x->port, WR_STATUS, &st);
  if (st & NIC__WR_STATUS__LOST_bm)
    return tf_fail(g->t, "chip %u port %u: work request %u lost (queue full), WR_STATUS 0x%08x", x->chip, x->port,
                   id, st);
  return TF_PASS;
}

/* Wait (the whole group running) for a completion at x's port, check it is work request
 * `id` of QP x.qp with status 0, and pop it. */
int wait_cpl(net_t *g, const qp_end_t *x, uint16_t id, uint64_t budget) {
  const uint64_t end = tsim_multi_cycles(g->m) + budget;
  uint32_t st = 0, head = 0;
  for (;;) {
    NR(x->chip, x->port, CQ_STATUS, &st);
    if (!(st & NIC__CQ_STATUS__EMPTY_bm)) break;
    if (tsim_multi_cycles(g->m) > end)
      return tf_fail(g->t, "chip %u port %u: no completion for work request %u within %llu cycles", x->chip,
                     x->port, id, (unsigned long long)budget);
    TF_CHECK_OK(g->t, tsim_multi_step(g->m, 256));
  }
  NR(x->chip, x->port, CQ_HEAD, &head);
  const unsigned hid = (head & NIC__CQ_HEAD__ID_bm) >> NIC__CQ_HEAD__ID_bp;
  const unsigned hqp = (head & NIC__CQ_HEAD__QP_bm) >> NIC__CQ_HEAD__QP_bp;
  const unsigned hst = (head & NIC__CQ_HEAD__STATUS_bm) >> NIC__CQ_HEAD__STATUS_bp;
  if (!(head & NIC__CQ_HEAD__VALID_bm) || hid != id || hqp != x->qp || hst != 0)
    return tf_fail(g->t, "chip %u port %u: completion CQ_HEAD 0x%08x (id %u qp %u status %u), expected id %u qp %u "
                   "status 0", x->chip, x->port, head, hid, hqp, hst, id, x->qp);
  NW(x->chip, x->port, CQ_POP, NIC__CQ_POP__GO_bm);
  return TF_PASS;
}

static void fill_rand(tf_ctx_t *t, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)tf_rand32(t);
}
static uint8_t fill_byte(size_t i) { return (uint8_t)(0xA5u ^ (i * 7u)); }

/* A transfer and its expected image: src (sender's memory), [dst - GUARD, dst + len + GUARD)
 * of the receiver filled with fill_byte before. */
typedef struct {
  unsigned sc, rc;        /* sender and receiver chip */
  uint32_t src, dst, len;
  uint8_t *data;
} xfer_t;

static int xfer_prepare(net_t *g, xfer_t *x, unsigned sc, unsigned rc, uint32_t src, uint32_t dst, uint32_t len) {
  x->sc = sc, x->rc = rc, x->src = src, x->dst = dst, x->len = len;
  x->data = malloc(len);
  uint8_t *fill = malloc(len + 2 * GUARD);
  if (!x->data || !fill) return tf_fail(g->t, "out of memory");
  fill_rand(g->t, x->data, len);
  for (size_t i = 0; i < len + 2 * GUARD; ++i) fill[i] = fill_byte(i);
  TF_CHECK_OK(g->t, tsim_mem_write(g->chip[sc], src, x->data, len));
  TF_CHECK_OK(g->t, tsim_mem_write(g->chip[rc], dst - GUARD, fill, len + 2 * GUARD));
  free(fill);
  return TF_PASS;
}

/* Flush the receiver's L2, compare its memory with the expected image. */
static int xfer_check(net_t *g, xfer_t *x) {
  TF_CHECK_OK(g->t, tsim_l2_flush_all(g->chip[x->rc]));
  uint8_t *got = malloc(x->len + 2 * GUARD);
  if (!got) return tf_fail(g->t, "out of memory");
  TF_CHECK_OK(g->t, tsim_mem_read(g->chip[x->rc], x->dst - GUARD, got, x->len + 2 * GUARD));
  int rc = TF_PASS;
  for (size_t i = 0; i < x->len + 2 * GUARD && rc == TF_PASS; ++i) {
    const int inside = i >= GUARD && i < GUARD + x->len;
    const uint8_t exp = inside ? x->data[i - GUARD] : fill_byte(i);
    if (got[i] != exp)
      rc = tf_fail(g->t, "chip %u -> chip %u, %u bytes to 0x%08x: byte at 0x%08x (%s) is 0x%02x, expected 0x%02x",
                   x->sc, x->rc, x->len, x->dst, (unsigned)(x->dst - GUARD + i),
                   inside ? "destination" : "outside the destination", got[i], exp);
  }
  free(got);
  free(x->data);
  x->data = NULL;
  return rc;
}

/* Invalidate every chip's L2 after the back door wrote sources and fills. */
int net_inval(net_t *g) {
  for (unsigned c = 0; c < g->n; ++c) TF_CHECK_OK(g->t, tsim_l2_invalidate_all(g->chip[c]));
  return TF_PASS;
}

/* One WRITE of len bytes from chip a port pa (QP 0) to chip b port pb (QP 0), lossless
 * links unless the command line says otherwise. */
static int write_case(net_t *g, const qp_end_t *a, const qp_end_t *b, uint32_t len, uint32_t dst_off, uint16_t id,
                      uint64_t budget) {
  xfer_t x;
  const uint32_t rkey = 0x5EED0000u | b->chip;
  if (xfer_prepare(g, &x, a->chip, b->chip, SRC_BASE, DST_BASE + GUARD + dst_off, len) != TF_PASS) return TF_FAIL;
  if (net_inval(g) != TF_PASS) return TF_FAIL;
  if (post_write(g, a, id, x.src, x.dst, rkey, len) != TF_PASS) return TF_FAIL;
  if (wait_cpl(g, a, id, budget) != TF_PASS) return TF_FAIL;
  return xfer_check(g, &x);
}

static int counters(net_t *g, unsigned c, unsigned p, uint32_t *placed, uint32_t *bytes, uint32_t *bad) {
  NR(c, p, CNT_PLACED, placed);
  NR(c, p, CNT_BYTES, bytes);
  NR(c, p, CNT_DROP_BAD, bad);
  return TF_PASS;
}

/* Two chips, port 0 <-> port 0: WRITEs of several sizes (1 byte to 16 KiB; destination
 * offsets not aligned) one after the other, each completed and checked. */
TF_TEST(nic_chip, write_2chip, 6000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  if (net_open(t, g, 2, "pair", NULL) != TF_PASS) goto out;
  qp_end_t a = {0, 0, 0, 0x000101, 0x001000}, b = {1, 0, 0, 0x000202, 0x00FFF0};
  if (qp_connect(g, &a, &b, ROCE_MTU_1024, 1) != TF_PASS) goto out;
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, 0x5EED0001u) != TF_PASS) goto out;
  static const uint32_t sizes[] = {1, 31, 32, 100, 1500, 4103, 16384};
  uint32_t placed0 = 0, bytes0 = 0, bad0 = 0, placed, bytes, bad, total = 0;
  if (counters(g, 1, 0, &placed0, &bytes0, &bad0) != TF_PASS) goto out;
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    const uint32_t off = tf_rand_below(t, 64);
    const uint64_t c0 = tsim_multi_cycles(g->m);
    if (write_case(g, &a, &b, sizes[i], off, (uint16_t)(0x100 + i), 2000000) != TF_PASS) goto out;
    tf_log(t, "WRITE %u bytes to offset %u: completed and checked, %llu cycles (with the host's setup and checks)",
           sizes[i], off, (unsigned long long)(tsim_multi_cycles(g->m) - c0));
    total += sizes[i];
  }
  if (counters(g, 1, 0, &placed, &bytes, &bad) != TF_PASS) goto out;
  if (bytes - bytes0 != total || bad != bad0) {
    rc = tf_fail(t, "receiver counters: %u payload bytes written (expected %u), %u bad frames", bytes - bytes0, total,
                 bad - bad0);
    goto out;
  }
  tf_log(t, "receiver: %u packets placed, %u payload bytes", placed - placed0, bytes - bytes0);
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

/* 1 % of the frames dropped on both directions of the link (ACKs included): a 64 KiB
 * WRITE in 256 packets (MTU 256) still lands exactly; the requester resent the lost
 * packets. */
TF_TEST(nic_chip, write_drop, 8000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  tsim_link_cfg_t cfg = t->opts->link;
  if (!cfg.drop_ppm) cfg.drop_ppm = 10000;
  if (net_open(t, g, 2, "pair", &cfg) != TF_PASS) goto out;
  qp_end_t a = {0, 0, 0, 0x000111, 0x000010}, b = {1, 0, 0, 0x000222, 0x000020};
  if (qp_connect(g, &a, &b, ROCE_MTU_256, 1) != TF_PASS) goto out;
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, 0x5EED0001u) != TF_PASS) goto out;
  if (write_case(g, &a, &b, 64 * 1024, 8, 7, 3000000) != TF_PASS) goto out;
  tsim_link_stats_t ls[2];
  tsim_link_stats(tsim_multi_link(g->m, 0, 0), &ls[0]);
  tsim_link_stats(tsim_multi_link(g->m, 1, 0), &ls[1]);
  uint32_t resends = 0;
  NW(0, 0, QP_SEL, 0);
  NR(0, 0, CNT_REQ_RESENDS, &resends);
  tf_log(t, "link 0->1: %llu sent, %llu dropped; link 1->0: %llu sent, %llu dropped; requester resent %u packets",
         (unsigned long long)ls[0].sent, (unsigned long long)ls[0].dropped, (unsigned long long)ls[1].sent,
         (unsigned long long)ls[1].dropped, resends);
  if (!ls[0].dropped) {
    rc = tf_fail(t, "the link dropped no data frame: the test did not exercise loss (seed/rate)");
    goto out;
  }
  if (!resends) {
    rc = tf_fail(t, "%llu data frames dropped but the requester resent nothing", (unsigned long long)ls[0].dropped);
    goto out;
  }
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

/* Both chips write to each other at the same time over one link (requests and ACKs of
 * both directions interleaved on each port). */
TF_TEST(nic_chip, write_both, 4000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  if (net_open(t, g, 2, "pair", NULL) != TF_PASS) goto out;
  qp_end_t a = {0, 0, 0, 0x000a01, 0x000100}, b = {1, 0, 0, 0x000b02, 0x000200};
  if (qp_connect(g, &a, &b, ROCE_MTU_2048, 1) != TF_PASS) goto out;
  if (mr_write(g, 0, 0, 0, DST_BASE, MR_BYTES, 0x5EED0000u) != TF_PASS) goto out;
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, 0x5EED0001u) != TF_PASS) goto out;
  xfer_t x[2];
  const uint32_t len[2] = {12 * 1024 + 5, 10 * 1024 + 3};
  if (xfer_prepare(g, &x[0], 0, 1, SRC_BASE, DST_BASE + GUARD + 3, len[0]) != TF_PASS) goto out;
  if (xfer_prepare(g, &x[1], 1, 0, SRC_BASE, DST_BASE + GUARD + 17, len[1]) != TF_PASS) goto out;
  if (net_inval(g) != TF_PASS) goto out;
  if (post_write(g, &a, 1, x[0].src, x[0].dst, 0x5EED0001u, len[0]) != TF_PASS) goto out;
  if (post_write(g, &b, 2, x[1].src, x[1].dst, 0x5EED0000u, len[1]) != TF_PASS) goto out;
  if (wait_cpl(g, &a, 1, 2000000) != TF_PASS || wait_cpl(g, &b, 2, 2000000) != TF_PASS) goto out;
  if (xfer_check(g, &x[0]) != TF_PASS || xfer_check(g, &x[1]) != TF_PASS) goto out;
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

/* Four chips in a ring (chip i port 0 <-> chip i+1 port 1): every chip writes 4 KiB to
 * its neighbour at the same time. */
TF_TEST(nic_chip, ring4, 6000000) {
  if (TESSERA_NIC_PORTS < 2) return tf_skip(t, "a ring needs 2 NIC ports per chip");
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  if (net_open(t, g, 4, "ring", NULL) != TF_PASS) goto out;
  qp_end_t tx[4], rx[4];
  xfer_t x[4];
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned j = (i + 1) % 4;
    tx[i] = (qp_end_t){i, 0, 0, 0x100u + i, 0x1000u * i};
    rx[j] = (qp_end_t){j, 1, 0, 0x200u + j, 0x2000u * j};
    if (qp_connect(g, &tx[i], &rx[j], ROCE_MTU_4096, 1) != TF_PASS) goto out;
    if (mr_write(g, j, 1, 0, DST_BASE, MR_BYTES, 0x5EED0100u | j) != TF_PASS) goto out;
  }
  for (unsigned i = 0; i < 4; ++i)
    if (xfer_prepare(g, &x[i], i, (i + 1) % 4, SRC_BASE, DST_BASE + GUARD + 32u * i, 4 * 1024 + i) != TF_PASS)
      goto out;
  if (net_inval(g) != TF_PASS) goto out;
  for (unsigned i = 0; i < 4; ++i)
    if (post_write(g, &tx[i], (uint16_t)(0x40 + i), x[i].src, x[i].dst, 0x5EED0100u | ((i + 1) % 4), x[i].len) !=
        TF_PASS)
      goto out;
  for (unsigned i = 0; i < 4; ++i)
    if (wait_cpl(g, &tx[i], (uint16_t)(0x40 + i), 2000000) != TF_PASS) goto out;
  for (unsigned i = 0; i < 4; ++i)
    if (xfer_check(g, &x[i]) != TF_PASS) goto out;
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

/* A frame with one bit flipped in its payload, injected from a pcap file into a port's
 * receive side: dropped by the ICRC check (CNT_DROP_BAD + 1), nothing written. The same
 * frame uncorrupted is then placed (the frame was acceptable but for the bit). Frames
 * built by the golden model for the port's QP. */
TF_TEST(nic_chip, inject_corrupt, 1000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  char path[1024];
  xfer_t x;
  memset(&x, 0, sizeof x);
  if (net_open(t, g, 1, NULL, NULL) != TF_PASS) goto out;
  /* chip 0 port 0 QP 0 is the responder; the far end exists only in the model */
  qp_end_t me = {0, 0, 0, 0x000321, 0x000500}, peer = {1, 0, 0, 0x000654, 0x00ABC0};
  NW(0, 0, QP_SEL, 0);
  NW(0, 0, QP_LQPN, me.qpn);
  NW(0, 0, QP_DQPN, peer.qpn);
  NW(0, 0, QP_RMAC_LO, (uint32_t)port_mac(1, 0));
  NW(0, 0, QP_RMAC_HI, (uint32_t)(port_mac(1, 0) >> 32));
  NW(0, 0, QP_RIP, port_ip(1, 0));
  NW(0, 0, QP_CFG, (ROCE_MTU_1024 << NIC__QP_CFG__MTU_bp) | NIC__QP_CFG__SELECTIVE_bm);
  NW(0, 0, QP_SQ_PSN, me.psn);
  NW(0, 0, QP_RQ_PSN, peer.psn);
  if (qp_modify(g, &me, 1) != TF_PASS || qp_modify(g, &me, 2) != TF_PASS) goto out;
  if (mr_write(g, 0, 0, 0, DST_BASE, MR_BYTES, 0x5EED0042u) != TF_PASS) goto out;

  roce_qp_t q;
  memset(&q, 0, sizeof q);
  for (int k = 0; k < 6; ++k) {
    q.mac[k] = (uint8_t)(port_mac(1, 0) >> (40 - 8 * k));
    q.rmac[k] = (uint8_t)(port_mac(0, 0) >> (40 - 8 * k));
  }
  q.ip = port_ip(1, 0), q.rip = port_ip(0, 0), q.qpn = peer.qpn, q.dest_qpn = me.qpn;
  q.pkey = 0xFFFF, q.mtu = ROCE_MTU_1024, q.ttl = 64, q.sq_psn = peer.psn;
  static roce_frame_t fr[2];
  if (xfer_prepare(g, &x, 0, 0, SRC_BASE, DST_BASE + GUARD + 40, 600) != TF_PASS) goto out;
  if (roce_build_write(&q, x.dst, 0x5EED0042u, x.data, x.len, fr, 1) != 1) {
    rc = tf_fail(t, "golden model: a 600-byte WRITE is not one frame");
    goto out;
  }
  roce_pkt_t pk;
  if (roce_parse(fr[0].data, fr[0].len, &pk) != ROCE_OK) {
    rc = tf_fail(t, "golden model: its own frame does not parse");
    goto out;
  }
  fr[1] = fr[0];
  const uint32_t bit = 8u * (uint32_t)(pk.payload - fr[0].data) + tf_rand_below(t, 8u * pk.payload_len);
  fr[1].data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  snprintf(path, sizeof path, "%s", tf_build_path("sim/nic_inject_corrupt.pcap"));
  {
    tsim_pcap_t *pw = tsim_pcap_create(path);
    if (!pw || tsim_pcap_write(pw, 0, fr[1].data, fr[1].len) || tsim_pcap_close(pw)) {
      rc = tf_fail(t, "cannot write %s", path);
      goto out;
    }
  }
  if (net_inval(g) != TF_PASS) goto out;
  uint32_t p0, b0, bad0, p1, b1, bad1;
  if (counters(g, 0, 0, &p0, &b0, &bad0) != TF_PASS) goto out;
  unsigned nf = 0;
  TF_CHECK_OK(t, tsim_multi_inject(g->m, 0, 0, path, &nf));
  TF_CHECK_EQ(t, nf, 1);
  TF_CHECK_OK(t, tsim_multi_step(g->m, 3000));
  TF_CHECK_EQ(t, tsim_nic_rx_pending(g->chip[0], 0), 0);
  if (counters(g, 0, 0, &p1, &b1, &bad1) != TF_PASS) goto out;
  tf_log(t, "corrupt frame (bit %u flipped): CNT_DROP_BAD %u -> %u, CNT_PLACED %u -> %u", bit, bad0, bad1, p0, p1);
  if (bad1 != bad0 + 1 || p1 != p0 || b1 != b0) {
    rc = tf_fail(t, "corrupt frame: CNT_DROP_BAD +%u (expected +1), CNT_PLACED +%u, CNT_BYTES +%u (expected +0)",
                 bad1 - bad0, p1 - p0, b1 - b0);
    goto out;
  }
  {
    /* nothing written: the destination still holds the fill */
    xfer_t none = x;
    uint8_t *keep = x.data;
    none.data = malloc(x.len);
    if (!none.data) goto out;
    for (uint32_t i = 0; i < x.len; ++i) none.data[i] = fill_byte(GUARD + i);
    if (xfer_check(g, &none) != TF_PASS) {
      free(keep);
      goto out;
    }
    x.data = keep;
  }
  /* the frame without the flipped bit is placed */
  TF_CHECK_OK(t, tsim_nic_rx_push(g->chip[0], 0, fr[0].data, fr[0].len));
  TF_CHECK_OK(t, tsim_multi_step(g->m, 3000));
  if (counters(g, 0, 0, &p1, &b1, &bad1) != TF_PASS) goto out;
  if (bad1 != bad0 + 1 || p1 != p0 + 1 || b1 != b0 + x.len) {
    rc = tf_fail(t, "good frame: CNT_PLACED +%u (expected +1), CNT_BYTES +%u (expected +%u), CNT_DROP_BAD +%u",
                 p1 - p0, b1 - b0, x.len, bad1 - bad0);
    goto out;
  }
  if (xfer_check(g, &x) != TF_PASS) goto out;
  rc = TF_PASS;
out:
  free(x.data);
  net_close(g);
  return rc;
}

/* A WRITE between two chips with every link direction written to pcap files: every frame
 * parses with the golden model (headers, checksums, ICRC) and with scapy's RoCE layers
 * (its own ICRC code), and the payloads of the WRITE packets, placed at their RETH
 * addresses, rebuild the source. */
static int check_pcap(tf_ctx_t *t, const char *file, const uint8_t *src, uint32_t dst, uint32_t len,
                      unsigned *nframes, unsigned *covered) {
  tsim_pcap_t *p = tsim_pcap_open(file);
  if (!p) return tf_fail(t, "cannot open %s", file);
  static uint8_t buf[ROCE_FRAME_MAX + 64];
  uint64_t ts;
  uint32_t n, orig;
  unsigned frames = 0;
  uint64_t va = 0;
  int r, rc = TF_PASS;
  while ((r = tsim_pcap_read(p, &ts, buf, sizeof buf, &n, &orig)) == 1 && rc == TF_PASS) {
    roce_pkt_t pk;
    const int e = roce_parse(buf, n, &pk);
    ++frames;
    if (e != ROCE_OK) {
      rc = tf_fail(t, "%s: frame %u (%u bytes) rejected by the golden model: %s", file, frames, n, roce_strerror(e));
      break;
    }
    const int reth = pk.opcode == ROCE_OP_WRITE_FIRST || pk.opcode == ROCE_OP_WRITE_ONLY;
    if (reth || pk.opcode == ROCE_OP_WRITE_MIDDLE || pk.opcode == ROCE_OP_WRITE_LAST) {
      if (reth) va = pk.va;  /* middle and last packets continue where the previous ended */
      pk.va = va;
      va += pk.payload_len;
      if (pk.va < dst || pk.va + pk.payload_len > (uint64_t)dst + len) {
        rc = tf_fail(t, "%s: frame %u writes [0x%llx, +%u) outside the destination", file, frames,
                     (unsigned long long)pk.va, pk.payload_len);
        break;
      }
      if (memcmp(pk.payload, src + (pk.va - dst), pk.payload_len)) {
        rc = tf_fail(t, "%s: frame %u (PSN %u): payload differs from the source at offset %llu", file, frames, pk.psn,
                     (unsigned long long)(pk.va - dst));
        break;
      }
      *covered += pk.payload_len;
    }
  }
  tsim_pcap_close(p);
  if (rc == TF_PASS && r < 0) rc = tf_fail(t, "%s: truncated record", file);
  *nframes = frames;
  return rc;
}

static int scapy_check(tf_ctx_t *t, const char *file, unsigned frames) {
  const char *py = tf_root_path(".venv/bin/python3");
  if (!tf_file_exists(py)) return tf_fail(t, "%s missing (make deps installs scapy there)", py);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "%s %s %s 2>&1", py, tf_root_path("tests/nic/scapy_check.py"), file);
  FILE *f = popen(cmd, "r");
  if (!f) return tf_fail(t, "cannot run %s", cmd);
  char line[512];
  unsigned lines = 0, bad = 0;
  char first_bad[512] = "";
  while (fgets(line, sizeof line, f)) {
    int op, dqp, psn, ack, pad, syn, msn, ok;
    ++lines;
    if (sscanf(line, "%d %d %d %d %d %d %d %d", &op, &dqp, &psn, &ack, &pad, &syn, &msn, &ok) != 8 || ok != 1) {
      if (!bad++) snprintf(first_bad, sizeof first_bad, "%s", line);
    }
  }
  const int st = pclose(f);
  if (st != 0 || bad || lines != frames)
    return tf_fail(t, "scapy on %s: exit %d, %u lines for %u frames, %u not RoCE with a correct ICRC (first: %s)",
                   file, st, lines, frames, bad, first_bad);
  return TF_PASS;
}

TF_TEST(nic_chip, pcap_decode, 3000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  char dir[1024], f01[1100], f10[1100];
  snprintf(dir, sizeof dir, "%s", tf_build_path("sim/nic_pcap_decode"));
  mkdir(dir, 0777);
  tsim_link_cfg_t cfg = t->opts->link;
  if (net_open(t, g, 2, NULL, NULL) != TF_PASS) goto out;
  TF_CHECK_OK(t, tsim_nic_connect(g->m, 0, 0, 1, 0, &cfg));
  TF_CHECK_OK(t, tsim_multi_pcap(g->m, dir));
  qp_end_t a = {0, 0, 0, 0x000777, 0x000040}, b = {1, 0, 0, 0x000888, 0x000080};
  if (qp_connect(g, &a, &b, ROCE_MTU_1024, 1) != TF_PASS) goto out;
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, 0x5EED0001u) != TF_PASS) goto out;
  xfer_t x;
  const uint32_t len = 8 * 1024 + 13;
  if (xfer_prepare(g, &x, 0, 1, SRC_BASE, DST_BASE + GUARD + 9, len) != TF_PASS) goto out;
  uint8_t *src = malloc(len);
  if (!src) goto out;
  memcpy(src, x.data, len);
  if (net_inval(g) != TF_PASS || post_write(g, &a, 9, x.src, x.dst, 0x5EED0001u, len) != TF_PASS ||
      wait_cpl(g, &a, 9, 1000000) != TF_PASS || xfer_check(g, &x) != TF_PASS) {
    free(src);
    goto out;
  }
  tsim_multi_free(g->m);  /* closes the pcap files */
  g->m = NULL;
  snprintf(f01, sizeof f01, "%s/c0p0-c1p0.pcap", dir);
  snprintf(f10, sizeof f10, "%s/c1p0-c0p0.pcap", dir);
  unsigned n01 = 0, n10 = 0, cov = 0, cov_ack = 0;
  if (check_pcap(t, f01, src, x.dst, len, &n01, &cov) != TF_PASS ||
      check_pcap(t, f10, src, x.dst, len, &n10, &cov_ack) != TF_PASS) {
    free(src);
    goto out;
  }
  free(src);
  if (cov != len || !n10 || cov_ack) {
    rc = tf_fail(t, "capture: %u WRITE payload bytes (expected %u, lossless), %u frames back", cov, len, n10);
    goto out;
  }
  if (scapy_check(t, f01, n01) != TF_PASS || scapy_check(t, f10, n10) != TF_PASS) goto out;
  tf_log(t, "%s: %u frames, %s: %u frames; golden model and scapy decode all, ICRC correct", f01, n01, f10, n10);
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

#endif /* TESSERA_NIC_PORTS > 0 */
