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

#include "chip_gemm.h"
#include "cp_model.h"
#include "golden/tpc_golden.h"
#include "regs/intc_regs.h"
#include "regs/nic_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "regs/tpc_regs.h"
#include "roce_model.h"
#include "tessera/cp_pkt.h"
#include "tpcasm_lib.h"
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

/* Two chips, port 0 <-> port 0: chip 0 READs buffers of the given sizes from chip 1's memory
 * (a read-only region over its sources) into its own memory at unaligned addresses, one
 * after the other; each completes with status 0 and chip 0's memory equals
 * chip 1's bytes inside the target and the fill pattern around it; then a WRITE on the same
 * QP (its PSN follows the READs' response PSNs) lands on chip 1. Every other READ has chip
 * 1's CACHE.rd_alloc set, so its source bytes are allocated in chip 1's L2 slice (the L2 is
 * invalidated before each transfer, the host having written the sources behind it).
 * docs/nic.md "RDMA READ". */
static int read_case(tf_ctx_t *t, const uint32_t *sizes, unsigned nsizes) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  if (net_open(t, g, 2, "pair", NULL) != TF_PASS) goto out;
  qp_end_t a = {0, 0, 0, 0x000131, 0xFFFFF0}, b = {1, 0, 0, 0x000232, 0x000040};
  if (qp_connect(g, &a, &b, ROCE_MTU_1024, 1) != TF_PASS) goto out;
  const uint32_t rkey = 0x5EED1001u;
  NW(1, 0, MR_SEL, 1);
  NW(1, 0, MR_BASE_LO, SRC_BASE);
  NW(1, 0, MR_BASE_HI, 0);
  NW(1, 0, MR_LEN, MR_BYTES);
  NW(1, 0, MR_RKEY, rkey);
  NW(1, 0, MR_CFG, NIC__MR_CFG__VALID_bm | NIC__MR_CFG__RD_OK_bm);
  NW(1, 0, MR_CMD, NIC__MR_CMD__GO_bm);
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, 0x5EED0001u) != TF_PASS) goto out;
  uint32_t resp0 = 0, resp = 0, need = 0;
  NR(1, 0, CNT_RD_RESP, &resp0);
  for (unsigned i = 0; i < nsizes; ++i) {
    xfer_t x;
    const uint32_t soff = tf_rand_below(t, 4096), doff = tf_rand_below(t, 64);
    const uint64_t c0 = tsim_multi_cycles(g->m);
    if (xfer_prepare(g, &x, 1, 0, SRC_BASE + soff, DST_BASE + GUARD + doff, sizes[i]) != TF_PASS) goto out;
    if (net_inval(g) != TF_PASS) goto out;
    NW(1, 0, CACHE, (i & 1u) ? NIC__CACHE__RD_ALLOC_bm : 0u);
    NW(0, 0, WR_FLAGS, NIC__WR_FLAGS__READ_bm);
    if (post_write(g, &a, (uint16_t)(0x200 + i), x.dst, x.src, rkey, sizes[i]) != TF_PASS) goto out;
    if (wait_cpl(g, &a, (uint16_t)(0x200 + i), 2000000) != TF_PASS) goto out;
    if (xfer_check(g, &x) != TF_PASS) goto out;
    tf_log(t, "READ %u bytes from chip 1 +%u (rd_alloc %u) into chip 0 +%u: completed and checked, %llu cycles (with "
           "the host's setup and checks)", sizes[i], soff, i & 1u, doff,
           (unsigned long long)(tsim_multi_cycles(g->m) - c0));
    need += (sizes[i] + 1023) / 1024;
  }
  NR(1, 0, CNT_RD_RESP, &resp);
  if (resp - resp0 != need) {
    rc = tf_fail(t, "chip 1 sent %u READ response packets, the READs need %u", resp - resp0, need);
    goto out;
  }
  NW(0, 0, WR_FLAGS, 0);
  NW(1, 0, CACHE, 0);
  if (write_case(g, &a, &b, 3000, 5, 0x2FF, 2000000) != TF_PASS) goto out;
  tf_log(t, "a WRITE after the READs on the same QP landed");
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}
/* 1 byte to 16 KiB (rd_alloc on for 100 and 4 103 bytes) */
TF_TEST(nic_chip, read_2chip, 8000000) {
  static const uint32_t sizes[] = {1, 100, 1024, 4103, 16384};
  return read_case(t, sizes, sizeof sizes / sizeof sizes[0]);
}
/* The 64 KiB READ (64 response packets; rd_alloc on): not in "all" (tens of seconds of two
 * chips), run by the soak line nic_chip_large (./chip_tb --test 'nic_chip_large/*'). */
TF_TEST_F(nic_chip_large, read_64k, 8000000, TF_BENCH) {
  static const uint32_t sizes[] = {4103, 65536};
  return read_case(t, sizes, sizeof sizes / sizeof sizes[0]);
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

/* ================================================================== producer / consumer across chips
 * White paper figure 24 without firmware in the loop. Chip 0: an MME GEMM (BF16 x BF16 ->
 * FP32) on its queue; the MME's completion message adds 1 to sync object S0; a monitor
 * (S0 >= 1) adds 1 to FENCE[0] of NIC port 0's queue; that queue's command buffer waits
 * at `FENCE 0, 1`, then posts an RDMA WRITE with immediate of C to chip 1 (WREG_BULK of
 * the WR_* registers, WREG_BULK of WR_FLAGS..WR_CMSG_DATA, WREG32 of WR_DOORBELL behind
 * EB). Chip 1: the immediate adds 1 to sync object S1 once C has landed; a monitor
 * (S1 >= 1) adds 1 to FENCE[0] of the TPC queue, which then launches the relu kernel on
 * C. relu(C) on chip 1 must equal the TPC golden relu of the MME golden C, bit for bit.
 * The host only sets up and rings the three doorbells (consumer first). */
#define QM(c, slot, r) (TESSERA_QMAN_ADDR(slot) + (uint32_t)offsetof(qman_t, r))
#define QM_FENCE(slot, n) (TESSERA_QMAN_ADDR(slot) + (uint32_t)offsetof(qman_t, FENCE) + 4u * (n))
#define SM(r) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, r))
#define SOB_SET(i) (SM(SOB_SET) + 4u * (i))
#define SOB_ADD(i) (SM(SOB_ADD) + 4u * (i))
#define MON_WORD(m, w) (SM(MON) + 64u * (m) + 4u * (w))
#define QSLOT_NIC(p) (TESSERA_QMAN_SLOT_NIC + (p))
#define TPC_OFF(r) ((uint32_t)offsetof(tpc_t, r))
#define NTPC_ALL (TESSERA_DCORES * TESSERA_TPC_PER_DCORE)
#define XW(c, a, v)                                                                              \
  do {                                                                                           \
    if (tsim_host_write32(g->chip[c], (a), (v)) != TSIM_OK)                                      \
      return tf_fail(g->t, "chip %u: write 0x%08x to 0x%08x: %s", (c), (uint32_t)(v), (uint32_t)(a), \
                     tsim_last_error(g->chip[c]));                                               \
  } while (0)
#define XR(c, a, p)                                                                              \
  do {                                                                                           \
    if (tsim_host_read32(g->chip[c], (a), (p)) != TSIM_OK)                                       \
      return tf_fail(g->t, "chip %u: read of 0x%08x: %s", (c), (uint32_t)(a), tsim_last_error(g->chip[c])); \
  } while (0)

#define X_CB(slot) (TESSERA_HBM_BASE + 0x00010000u + 0x2000u * (slot))  /* command buffers */
#define X_GEMM (TESSERA_HBM_BASE + 0x00200000u)   /* chip 0: A, B, C */
#define X_DST (TESSERA_HBM_BASE + 0x00400000u)    /* chip 1: C lands here (memory region) */
#define X_OUT (TESSERA_HBM_BASE + 0x00600000u)    /* chip 1: relu(C) */
#define X_PROG (TESSERA_HBM_BASE + 0x0007C000u)   /* chip 1: the relu kernel */
#define X_FLAG (TESSERA_HBM_BASE + 0x0007F000u)   /* completion messages of the queues */
#define X_RKEY 0x5EED0C01u

typedef struct {
  net_t *g;
  cjob_t j;
  unsigned e, s0, s1, m0, m1;
  uint32_t prog_len;
  int bad_rkey;
  qp_end_t a, b;
} xchip_t;

/* A queue's boot-time setup (what firmware does) and its buffer; the doorbell later. */
static int xq_load(net_t *g, unsigned c, unsigned slot, const cp_buf_t *b, uint32_t flag) {
  XW(c, QM(c, slot, SOB_SET_BASE), SM(SOB_SET));
  XW(c, QM(c, slot, SOB_ADD_BASE), SM(SOB_ADD));
  XW(c, QM(c, slot, LDMA_OFF), 0);
  TF_CHECK_OK(g->t, tsim_mem_write(g->chip[c], X_CB(slot), b->w, 4u * b->n));
  XW(c, QM(c, slot, CB_BASE), X_CB(slot));
  XW(c, QM(c, slot, CB_SIZE), 4u * b->n);
  XW(c, QM(c, slot, COMP_ADDR), flag);
  XW(c, QM(c, slot, COMP_DATA), 1);
  XW(c, QM(c, slot, CFG), flag ? QMAN__CFG__COMP_EN_bm : 0u);
  return TF_PASS;
}

/* Monitor m of chip c: sync object sob >= 1 adds 1 to FENCE[0] of queue slot. */
static int xmon(net_t *g, unsigned c, unsigned m, unsigned sob, unsigned slot) {
  XW(c, SOB_SET(sob), 0);
  XW(c, MON_WORD(m, 0), QM_FENCE(slot, 0));
  XW(c, MON_WORD(m, 1), 1);
  XW(c, MON_WORD(m, CP_MON_ARM_WORD), cp_arm_word(sob / 8u, 1u << (sob % 8u), 1, 0, 1));
  return TF_PASS;
}

/* One TPC tensor descriptor (13 words) for an [h][w] FP32 matrix, row pitch p elements. */
static void xtpc_desc(uint32_t *w, uint32_t base, uint32_t wd, uint32_t h, uint32_t p) {
  memset(w, 0, 13 * sizeof *w);
  w[0] = base;
  w[1] = 2u << 4;  /* FP32, 2 dims */
  for (int i = 0; i < 5; i++) w[3 + i] = 1;
  w[3] = wd, w[4] = h, w[8] = 1, w[9] = p;
}

/* The three command buffers and everything they need, on both chips. */
static int xchip_setup(tf_ctx_t *t, xchip_t *x, net_t *g, int bad_rkey) {
  memset(x, 0, sizeof *x);
  x->g = g;
  x->bad_rkey = bad_rkey;
  x->e = tf_rand_below(t, TESSERA_NUM_MME);
  x->s0 = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8);
  x->s1 = 8u * (1 + tf_rand_below(t, 30)) + tf_rand_below(t, 8);
  x->m0 = tf_rand_below(t, TESSERA_SYNC_MONITORS);
  x->m1 = tf_rand_below(t, TESSERA_SYNC_MONITORS);
  qp_end_t a = {0, 0, 0, 0x000C01, 0x000400}, b = {1, 0, 0, 0x000C02, 0x00FFF8};
  x->a = a, x->b = b;
  if (qp_connect(g, &x->a, &x->b, ROCE_MTU_1024, 1) != TF_PASS) return TF_FAIL;
  if (mr_write(g, 1, 0, 0, X_DST, MR_BYTES, X_RKEY) != TF_PASS) return TF_FAIL;
  NW(1, 0, SOB_ADD_BASE, SM(SOB_ADD));
  /* L2 slices private: MME 0 and NIC port 0 share DCORE 0's slice (chip 0); the NIC's
   * writes do not allocate, so the TPCs of every DCORE read them from memory (chip 1) */
  x->e = 0;
  /* chip 0: the GEMM, C = M x N FP32, rows of ldc bytes (the WRITE sends all of it) */
  x->j.g.m = 8u * (2 + tf_rand_below(t, 5));
  x->j.g.n = 8u * (1 + tf_rand_below(t, 4));
  x->j.g.k = 32u * (1 + tf_rand_below(t, 4));
  x->j.g.ta = NF_BF16, x->j.g.tb = NF_BF16, x->j.g.tc = NF_FP32;
  cjob_prepare(t, &x->j, X_GEMM);
  TF_CHECK_OK(t, tsim_l2_invalidate_all(g->chip[0]));
  const uint32_t csz = x->j.g.m * x->j.ldc;
  /* chip 1: destination and output cleared (a canary), the kernel */
  uint8_t *fill = malloc(csz);
  if (!fill) return tf_fail(t, "out of memory");
  for (uint32_t i = 0; i < csz; i++) fill[i] = (uint8_t)(0xC3u ^ (i * 5u));
  TF_CHECK_OK(t, tsim_mem_write(g->chip[1], X_DST, fill, csz));
  TF_CHECK_OK(t, tsim_mem_write(g->chip[1], X_OUT, fill, csz));
  free(fill);
  tpc_bundle_t *prog = NULL;
  uint32_t nb = 0;
  char err[512];
  if (tpcasm_assemble_file(tf_root_path("kernels/tpc/relu.tasm"), NULL, 0, &prog, &nb, err, sizeof err))
    return tf_fail(t, "assembler: %s", err);
  x->prog_len = nb;
  TF_CHECK_OK(t, tsim_mem_write(g->chip[1], X_PROG, prog, 32u * nb));
  free(prog);
  TF_CHECK_OK(t, tsim_l2_invalidate_all(g->chip[1]));
  for (unsigned c = 0; c < 2; c++) {
    TF_CHECK_OK(t, tsim_mem_write32(g->chip[c], X_FLAG, 0));
    TF_CHECK_OK(t, tsim_mem_write32(g->chip[c], X_FLAG + 4u, 0));
  }

  static uint32_t wm[256], wn[256], wt[512];
  cp_buf_t bm, bn, bt;
  cp_buf_init(&bm, wm, 256);
  cp_buf_init(&bn, wn, 256);
  cp_buf_init(&bt, wt, 512);
  /* MME queue (chip 0): the GEMM, its completion message adds 1 to S0 */
  const mme_gold_job *jg = &x->j.g;
  uint32_t mv[] = {x->j.a, x->j.b, x->j.c, 0, jg->m, jg->n, jg->k, x->j.lda, x->j.ldb, x->j.ldc,
                   ((uint32_t)jg->ta << MME__DTYPE__A_TYPE_bp) | ((uint32_t)jg->tb << MME__DTYPE__B_TYPE_bp) |
                       ((uint32_t)jg->tc << MME__DTYPE__C_TYPE_bp),
                   0, SOB_ADD(x->s0), 1, 1};
  cp_wreg_bulk(&bm, 0, (uint32_t)offsetof(mme_t, A_ADDR), sizeof mv / sizeof mv[0], mv);
  cp_wreg32(&bm, 0, (uint32_t)offsetof(mme_t, CTRL), MME__CTRL__COMMIT_bm);
  cp_stop(&bm, CP_HDR_EB);
  /* NIC queue (chip 0): wait for the GEMM, then the WRITE with immediate (S1 += 1) */
  uint32_t wr[7] = {x->a.qp, 0x0C01, x->j.c, X_DST, 0, bad_rkey ? X_RKEY ^ 0x100u : X_RKEY, csz};
  uint32_t wx[4] = {NIC__WR_FLAGS__IMM_bm, x->s1 << 16 | 1u, 0, 0};
  cp_fence(&bn, 0, 0, 1);
  cp_wreg_bulk(&bn, 0, NIC_OFF(WR_QP), 7, wr);
  cp_wreg_bulk(&bn, 0, NIC_OFF(WR_FLAGS), 4, wx);
  cp_wreg32(&bn, CP_HDR_EB, NIC_OFF(WR_DOORBELL), NIC__WR_DOORBELL__GO_bm);
  cp_stop(&bn, 0);
  /* TPC queue (chip 1): relu over C once S1 says it landed */
  uint32_t pitch = x->j.ldc / 4u, d[13];
  uint32_t cfg[5] = {X_PROG, x->prog_len, 3, NTPC_ALL, 0};
  uint32_t idx[5] = {(jg->n + 7u) / 8u, jg->m, 1, 1, 1};
  uint32_t sarg[16] = {0};
  cp_wreg_bulk(&bt, 0, TPC_OFF(PROG_ADDR), 5, cfg);
  cp_wreg_bulk(&bt, 0, TPC_OFF(IDX_SIZE0), 5, idx);
  cp_wreg_bulk(&bt, 0, TPC_OFF(SARG), 16, sarg);
  cp_wreg32(&bt, 0, TPC_OFF(MSG_CTRL), 0);
  xtpc_desc(d, X_DST, jg->n, jg->m, pitch);
  cp_wreg_bulk(&bt, 0, TPC_OFF(DESC), 13, d);
  cp_wreg_bulk(&bt, 0, TPC_OFF(DESC) + 64u, 13, d);
  xtpc_desc(d, X_OUT, jg->n, jg->m, pitch);
  cp_wreg_bulk(&bt, 0, TPC_OFF(DESC) + 128u, 13, d);
  cp_fence(&bt, 0, 0, 1);
  cp_wreg32(&bt, CP_HDR_EB, TPC_OFF(CTRL), TPC__CTRL__COMMIT_bm);
  cp_stop(&bt, CP_HDR_EB);

  if (xq_load(g, 0, TESSERA_QMAN_SLOT_MME + x->e, &bm, X_FLAG) != TF_PASS) return TF_FAIL;
  if (xq_load(g, 0, QSLOT_NIC(0), &bn, X_FLAG + 4u) != TF_PASS) return TF_FAIL;
  if (xq_load(g, 1, TESSERA_QMAN_SLOT_TPC, &bt, X_FLAG) != TF_PASS) return TF_FAIL;
  if (xmon(g, 0, x->m0, x->s0, QSLOT_NIC(0)) != TF_PASS) return TF_FAIL;
  if (xmon(g, 1, x->m1, x->s1, TESSERA_QMAN_SLOT_TPC) != TF_PASS) return TF_FAIL;
  return TF_PASS;
}

static int flag_set(tsim_t *s, void *ctx) {
  (void)ctx;
  return tsim_mem_read32(s, X_FLAG) == 1;
}

/* Doorbells: consumer first, then the NIC queue, then the producer. */
static int xchip_start(xchip_t *x) {
  net_t *g = x->g;
  XW(1, QM(1, TESSERA_QMAN_SLOT_TPC, CTRL), QMAN__CTRL__START_bm);
  XW(0, QM(0, QSLOT_NIC(0), CTRL), QMAN__CTRL__START_bm);
  XW(0, QM(0, TESSERA_QMAN_SLOT_MME + x->e, CTRL), QMAN__CTRL__START_bm);
  return TF_PASS;
}

/* Two chips, the buffers, the doorbells; the cycle of the first doorbell in *c0. */
static int xchip_begin(tf_ctx_t *t, net_t *g, xchip_t *x, int bad_rkey, uint64_t *c0) {
  memset(x, 0, sizeof *x);
  if (net_open(t, g, 2, "pair", NULL) != TF_PASS || xchip_setup(t, x, g, bad_rkey) != TF_PASS) return TF_FAIL;
  if (bad_rkey) NW(0, 0, IRQ_EN, NIC__IRQ_EN__CPL_ERR_bm | NIC__IRQ_EN__ERR_bm);
  *c0 = tsim_multi_cycles(g->m);
  return xchip_start(x);
}

TF_TEST(nic_chip, gemm_to_tpc, 8000000) {
  net_t g0, *g = &g0;
  xchip_t x;
  int rc = TF_FAIL;
  uint64_t c0 = 0;
  if (xchip_begin(t, g, &x, 0, &c0) != TF_PASS) goto out;
  if (tsim_run_until(g->chip[1], flag_set, NULL, 4000000, 16) != TSIM_OK) {
    uint32_t st[3] = {0, 0, 0}, sob = 0;
    tsim_host_read32(g->chip[0], QM(0, TESSERA_QMAN_SLOT_MME + x.e, STATUS), &st[0]);
    tsim_host_read32(g->chip[0], QM(0, QSLOT_NIC(0), STATUS), &st[1]);
    tsim_host_read32(g->chip[1], QM(1, TESSERA_QMAN_SLOT_TPC, STATUS), &st[2]);
    tsim_host_read32(g->chip[1], SOB_SET(x.s1), &sob);
    rc = tf_fail(t, "chip 1's TPC queue did not complete: MME queue 0x%x, NIC queue 0x%x, TPC queue 0x%x, S1 %u",
                 st[0], st[1], st[2], sob);
    goto out;
  }
  const uint64_t cyc = tsim_multi_cycles(g->m) - c0;
  /* the WRITE completed on chip 0; queues done without error */
  if (wait_cpl(g, &x.a, 0x0C01, 200000) != TF_PASS) goto out;
  uint32_t st = 0, sob = 0;
  XR(0, QM(0, QSLOT_NIC(0), STATUS), &st);
  if (!(st & QMAN__STATUS__DONE_bm) || (st & QMAN__STATUS__ERR_bm)) {
    rc = tf_fail(t, "NIC queue STATUS 0x%x", st);
    goto out;
  }
  XR(1, SOB_SET(x.s1), &sob);
  if (sob != 1) {
    rc = tf_fail(t, "chip 1 sync object %u = %u, expected 1 (one immediate)", x.s1, sob);
    goto out;
  }
  /* C landed on chip 1 exactly; relu(C) = the TPC golden relu of the MME golden C */
  TF_CHECK_OK(t, tsim_l2_flush_all(g->chip[1]));
  const uint32_t csz = x.j.g.m * x.j.ldc;
  uint8_t *got = malloc(2u * csz);
  if (!got) goto out;
  tsim_mem_read(g->chip[1], X_DST, got, csz);
  tsim_mem_read(g->chip[1], X_OUT, got + csz, csz);
  rc = TF_PASS;
  if (memcmp(got, x.j.cexp, csz)) {
    uint8_t *c0 = malloc(csz);
    TF_CHECK_OK(t, tsim_l2_flush_all(g->chip[0]));
    tsim_mem_read(g->chip[0], x.j.c, c0, csz);
    size_t i = 0, i0 = 0;
    while (i < csz && got[i] == x.j.cexp[i]) i++;
    while (i0 < csz && c0[i0] == x.j.cexp[i0]) i0++;
    rc = tf_fail(t, "C on chip 1 differs from the MME golden C at byte %zu of %u (chip 0's C: at %zu; chip 1 = chip 0: %d)",
                 i, csz, i0, !memcmp(got, c0, csz));
    free(c0);
  }
  for (uint32_t r = 0; r < x.j.g.m && rc == TF_PASS; r++)
    for (uint32_t col = 0; col < x.j.g.n; col++) {
      size_t at = (size_t)r * x.j.ldc + 4u * col;
      uint32_t gw = mme_ld(got + csz + at, 4), exp = tg_relu(mme_ld(x.j.cexp + at, 4));
      if (gw != exp) {
        rc = tf_fail(t, "relu(C)[%u][%u] = 0x%08x, expected 0x%08x", r, col, gw, exp);
        break;
      }
    }
  free(got);
  if (rc == TF_PASS)
    tf_log(t, "GEMM %ux%ux%u on chip 0 -> WRITE with immediate (%u bytes) -> relu on chip 1: %llu cycles, "
           "relu(C) bit-exact", x.j.g.m, x.j.g.n, x.j.g.k, csz, (unsigned long long)cyc);
out:
  cjob_free(&x.j);
  net_close(g);
  return rc;
}

/* The same with a wrong R_Key in the work request: chip 1 answers NAK remote access, the
 * WRITE completes with status 2 on chip 0 (port interrupt, INTC source 16), no sync-object
 * update on chip 1, its TPC queue still waits at the fence. */
TF_TEST(nic_chip, gemm_to_tpc_bad_rkey, 8000000) {
  net_t g0, *g = &g0;
  xchip_t x;
  int rc = TF_FAIL;
  uint64_t c0 = 0;
  if (xchip_begin(t, g, &x, 1, &c0) != TF_PASS) goto out;
  uint32_t cst = 0, head = 0;
  const uint64_t end = tsim_multi_cycles(g->m) + 4000000;
  for (;;) {
    NR(0, 0, CQ_STATUS, &cst);
    if (!(cst & NIC__CQ_STATUS__EMPTY_bm)) break;
    if (tsim_multi_cycles(g->m) > end) {
      rc = tf_fail(t, "no completion on chip 0");
      goto out;
    }
    if (tsim_multi_step(g->m, 256) != TSIM_OK) goto out;
  }
  NR(0, 0, CQ_HEAD, &head);
  uint32_t irq = 0, pend = 0, sob = 0, tst = 0, info = 0;
  NR(0, 0, IRQ_STATUS, &irq);
  XR(0, TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, PENDING), &pend);
  if (tsim_multi_step(g->m, 20000) != TSIM_OK) goto out;   /* anything that would still come */
  XR(1, SOB_SET(x.s1), &sob);
  XR(1, QM(1, TESSERA_QMAN_SLOT_TPC, STATUS), &tst);
  NR(1, 0, ERR_INFO, &info);
  const unsigned status = (head & NIC__CQ_HEAD__STATUS_bm) >> NIC__CQ_HEAD__STATUS_bp;
  if (status != 2 || !(irq & NIC__IRQ_STATUS__CPL_ERR_bm) || !(pend & (1u << 16)))
    rc = tf_fail(t, "chip 0: CQ_HEAD 0x%08x (status %u, expected 2), IRQ_STATUS 0x%x, INTC pending 0x%x", head,
                 status, irq, pend);
  else if (sob != 0 || !(tst & QMAN__STATUS__BUSY_bm) || (info & NIC__ERR_INFO__CODE_bm) != 0x62)
    rc = tf_fail(t, "chip 1: sync object %u = %u (expected 0), TPC queue STATUS 0x%x (still waiting), ERR_INFO 0x%x",
                 x.s1, sob, tst, info);
  else
    rc = TF_PASS;
  if (rc == TF_PASS)
    tf_log(t, "bad R_Key: completion status 2 and port interrupt on chip 0, NAK 0x62 on chip 1, no sync-object "
           "update, the TPC queue still waits");
  XW(1, QM(1, TESSERA_QMAN_SLOT_TPC, CTRL), QMAN__CTRL__RESET_bm);
out:
  cjob_free(&x.j);
  net_close(g);
  return rc;
}

/* Latency of a 64-byte WRITE with immediate, doorbell on chip 0 -> sync object updated on
 * chip 1, lossless link of the command line's latency. Parts seen from outside: the
 * doorbell (host's WR_DOORBELL write) to the frame's last beat leaving chip 0 (queue,
 * payload read, TX pipeline), to its last beat taken by chip 1 (link), to the Sync
 * Manager applying the update (RX check, placement with its write responses, message
 * through the message master and the system bus); and the same WRITE posted by NIC port
 * 0's queue manager from a command buffer (queue doorbell -> update). */
static int lat_run(net_t *g, uint64_t *t_tx, uint64_t *t_rx, uint64_t *t_sob) {
  tsim_nic_stats_t s0, s1;
  tsim_nic_stats(g->chip[0], 0, &s0);
  tsim_nic_stats(g->chip[1], 0, &s1);
  *t_tx = *t_rx = *t_sob = 0;
  const uint64_t end = tsim_multi_cycles(g->m) + 200000;
  while (tsim_multi_cycles(g->m) < end) {
    TF_CHECK_OK(g->t, tsim_multi_step(g->m, 1));
    tsim_nic_stats_t a, b;
    tsim_nic_stats(g->chip[0], 0, &a);
    tsim_nic_stats(g->chip[1], 0, &b);
    if (!*t_tx && a.tx_frames > s0.tx_frames) *t_tx = tsim_multi_cycles(g->m);
    if (!*t_rx && b.rx_frames > s1.rx_frames) *t_rx = tsim_multi_cycles(g->m);
    tsim_probe_t p;
    tsim_probe(g->chip[1], &p);
    if (p.sm_object_update) {
      *t_sob = tsim_multi_cycles(g->m);
      return TF_PASS;
    }
  }
  return tf_fail(g->t, "no sync-object update on chip 1");
}

TF_TEST(nic_chip, imm_latency, 4000000) {
  net_t g0, *g = &g0;
  int rc = TF_FAIL;
  if (net_open(t, g, 2, "pair", NULL) != TF_PASS) goto out;
  qp_end_t a = {0, 0, 0, 0x000D01, 0x000010}, b = {1, 0, 0, 0x000D02, 0x000020};
  if (qp_connect(g, &a, &b, ROCE_MTU_1024, 1) != TF_PASS) goto out;
  if (mr_write(g, 1, 0, 0, DST_BASE, MR_BYTES, X_RKEY) != TF_PASS) goto out;
  NW(1, 0, SOB_ADD_BASE, SM(SOB_ADD));
  const unsigned sob = 8u + tf_rand_below(t, 8);
  XW(1, SOB_SET(sob), 0);
  xfer_t xf;
  if (xfer_prepare(g, &xf, 0, 1, SRC_BASE, DST_BASE + GUARD, 64) != TF_PASS) goto out;
  if (net_inval(g) != TF_PASS) goto out;
  /* host doorbell: the WR_* registers first, then the measured doorbell write */
  NW(0, 0, WR_QP, a.qp);
  NW(0, 0, WR_ID, 1);
  NW(0, 0, WR_LADDR, xf.src);
  NW(0, 0, WR_VA_LO, xf.dst);
  NW(0, 0, WR_VA_HI, 0);
  NW(0, 0, WR_RKEY, X_RKEY);
  NW(0, 0, WR_LEN, 64);
  NW(0, 0, WR_FLAGS, NIC__WR_FLAGS__IMM_bm);
  NW(0, 0, WR_IMM, sob << 16 | 1u);
  uint64_t tx, rx, up;
  const uint64_t t0 = tsim_multi_cycles(g->m);
  NW(0, 0, WR_DOORBELL, NIC__WR_DOORBELL__GO_bm);
  if (lat_run(g, &tx, &rx, &up) != TF_PASS) goto out;
  if (wait_cpl(g, &a, 1, 200000) != TF_PASS) goto out;
  uint32_t v = 0;
  XR(1, SOB_SET(sob), &v);
  if (v != 1) {
    rc = tf_fail(t, "sync object %u = %u after the host-doorbell WRITE, expected 1", sob, v);
    goto out;
  }
  if (xfer_check(g, &xf) != TF_PASS) goto out;
  /* the same WRITE from NIC port 0's queue: WREG_BULK, WREG_BULK, WREG32 EB doorbell */
  static uint32_t wn[64];
  cp_buf_t bn;
  cp_buf_init(&bn, wn, 64);
  uint32_t wr[7] = {a.qp, 2, SRC_BASE, DST_BASE + GUARD, 0, X_RKEY, 64};
  uint32_t wx[4] = {NIC__WR_FLAGS__IMM_bm, sob << 16 | 1u, 0, 0};
  cp_wreg_bulk(&bn, 0, NIC_OFF(WR_QP), 7, wr);
  cp_wreg_bulk(&bn, 0, NIC_OFF(WR_FLAGS), 4, wx);
  cp_wreg32(&bn, CP_HDR_EB, NIC_OFF(WR_DOORBELL), NIC__WR_DOORBELL__GO_bm);
  cp_stop(&bn, 0);
  if (xq_load(g, 0, QSLOT_NIC(0), &bn, 0) != TF_PASS) goto out;
  uint64_t qtx, qrx, qup;
  const uint64_t q0 = tsim_multi_cycles(g->m);
  XW(0, QM(0, QSLOT_NIC(0), CTRL), QMAN__CTRL__START_bm);
  if (lat_run(g, &qtx, &qrx, &qup) != TF_PASS) goto out;
  if (wait_cpl(g, &a, 2, 200000) != TF_PASS) goto out;
  XR(1, SOB_SET(sob), &v);
  if (v != 2) {
    rc = tf_fail(t, "sync object %u = %u after the queue's WRITE, expected 2", sob, v);
    goto out;
  }
  printf("NICBENCH imm_latency 64 B WRITE with immediate, doorbell chip 0 -> SOB update chip 1: %llu cycles "
         "(doorbell -> frame sent %llu, link %llu, RX + placement + message %llu; link latency %u)\n",
         (unsigned long long)(up - t0), (unsigned long long)(tx - t0), (unsigned long long)(rx - tx),
         (unsigned long long)(up - rx), (unsigned)t->opts->link.latency);
  printf("NICBENCH imm_latency_qman same WRITE posted by the NIC queue's command buffer: %llu cycles "
         "(queue doorbell -> frame sent %llu, link %llu, RX + placement + message %llu)\n",
         (unsigned long long)(qup - q0), (unsigned long long)(qtx - q0), (unsigned long long)(qrx - qtx),
         (unsigned long long)(qup - qrx));
  rc = TF_PASS;
out:
  net_close(g);
  return rc;
}

#endif /* TESSERA_NIC_PORTS > 0 */
