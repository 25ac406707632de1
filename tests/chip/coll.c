/* Suite `coll`: ring all-reduce (reduce-scatter, then all-gather) across chips over the NIC
 * ports (docs/collectives.md), the host stepping the ring through the ports' registers.
 *
 * Chip r's port 0 sends to chip (r + 1) mod n's receive port (proto: port 2; both on
 * DCORE 0's L2 slice, so no flush is needed between steps). The host programs every QP and memory region once: on each receive port two
 * regions over the same buffer, one with the reduce operation (reduce-scatter) and one
 * plain (all-gather). Then per ring step it posts one WRITE per chip (or `split` WRITEs
 * per chip, the chunk cut in 32-byte aligned pieces) and waits for every completion before
 * the next step. The result on every chip is compared bit for bit with the golden model
 * (tests/nic/coll_model: each chunk folded in ring order with the NIC's element function),
 * and 256 canary bytes on each side of every buffer must be unchanged.
 *
 * The `cb_*` cases run the same ring (and reduce-scatter, all-gather and broadcast alone)
 * from command buffers: hostlink's builder (hostlink/src/hl_coll.c) writes each chip's
 * NIC-queue buffer and the sync-object and monitor setup; the host rings one queue
 * doorbell per chip and then only waits for every chip's done flag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip_nic.h"
#include "coll_model.h"
#include "hl_coll.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "roce_model.h"
#include "tessera/roce.h"
#include "tf.h"

/* The receive port is the first other port on DCORE 0's L2 slice (port p is on DCORE
 * p mod dcores, docs/nic.md "The NIC in the chip"), so that what a step reduces into a
 * chip's buffer and what the next step reads from it pass through the same slice; a
 * chip without such a port (tiny: one port) has no coll tests. */
#if TESSERA_NIC_PORTS > TESSERA_DCORES

#define COLL_BUF (TESSERA_HBM_BASE + 0x00200000u)  /* the tensor, same address on every chip */
#define COLL_GUARD 256u                            /* canary bytes on each side */
#define COLL_TX_PORT 0u
#define COLL_RX_PORT TESSERA_DCORES
#define COLL_MR_RED 0u                             /* region indices on the receive port */
#define COLL_MR_PLAIN 1u
#define COLL_STEP_BUDGET 4000000u                  /* cycles one ring step may take */

/* One ring all-reduce set up on a group of chips. */
typedef struct {
  net_t g;
  unsigned n, op, dtype, split;
  uint32_t bytes;
  coll_chunk_t ch[MAXCHIPS];
  qp_end_t tx[MAXCHIPS], rx[MAXCHIPS];
  uint16_t next_id[MAXCHIPS];
} ring_t;

static uint32_t rkey_red(unsigned chip) { return 0xC0110000u | (chip << 4) | COLL_MR_RED; }
static uint32_t rkey_plain(unsigned chip) { return 0xC0110000u | (chip << 4) | COLL_MR_PLAIN; }

/* n chips in a ring, QPs and regions programmed: op (ROCE_RED_SUM/MIN/MAX), dtype
 * (ROCE_RED_FP32/BF16), bytes per chip, split WRITEs per chunk and step. */
static int ring_open(tf_ctx_t *t, ring_t *R, unsigned n, unsigned op, unsigned dtype, uint32_t bytes,
                     unsigned split, const tsim_link_cfg_t *link, unsigned mtu) {
  memset(R, 0, sizeof *R);
  R->n = n, R->op = op, R->dtype = dtype, R->bytes = bytes, R->split = split ? split : 1;
  net_t *g = &R->g;
  if (n < 2 || n > MAXCHIPS || R->split > 8) return tf_fail(t, "ring of %u chips, split %u: not supported", n, split);
  if (coll_chunks(bytes, n, roce_red_elem_bytes(dtype), R->ch))
    return tf_fail(t, "%u bytes are not a whole number of elements", bytes);
  if (net_open(t, g, n, NULL, NULL) != TF_PASS) return TF_FAIL;
  /* The ports' reads allocate in DCORE 0's slice (class 0, the lowest): the slice refills
   * whole lines ahead of a WRITE's payload reads and of a reduce WRITE's reads of its
   * destination, and what one step reduces is read by the next from the slice. The inputs
   * are written behind the slice and invalidated before the collective (net_inval). */
  for (unsigned r = 0; r < n; ++r) {
    NW(r, COLL_TX_PORT, CACHE, NIC__CACHE__RD_ALLOC_bm);
    NW(r, COLL_RX_PORT, CACHE, NIC__CACHE__RD_ALLOC_bm);
  }
  for (unsigned r = 0; r < n; ++r) {
    tsim_link_cfg_t cfg = link ? *link : t->opts->link;
    cfg.seed += 2u * r;  /* each connection its own seeds, as tsim_multi_topology does */
    TF_CHECK_OK(t, tsim_nic_connect(g->m, r, COLL_TX_PORT, (r + 1) % n, COLL_RX_PORT, &cfg));
  }
  const uint32_t red = (op << NIC__MR_CFG__RED_OP_bp) | (dtype == ROCE_RED_BF16 ? NIC__MR_CFG__RED_BF16_bm : 0u);
  for (unsigned r = 0; r < n; ++r) {
    const unsigned j = (r + 1) % n;
    R->tx[r] = (qp_end_t){r, COLL_TX_PORT, 0, 0x400u + r, 0x10000u * r + 0x100u};
    R->rx[j] = (qp_end_t){j, COLL_RX_PORT, 0, 0x800u + j, 0x20000u * j + 0x200u};
    if (qp_connect(g, &R->tx[r], &R->rx[j], mtu, 1) != TF_PASS) return TF_FAIL;
    if (mr_write_red(g, j, COLL_RX_PORT, COLL_MR_RED, COLL_BUF, bytes, rkey_red(j), red) != TF_PASS ||
        mr_write(g, j, COLL_RX_PORT, COLL_MR_PLAIN, COLL_BUF, bytes, rkey_plain(j)) != TF_PASS)
      return TF_FAIL;
    R->next_id[r] = (uint16_t)(0x100u * r);
  }
  return TF_PASS;
}

/* One ring step: every chip r posts chunk `chunk(n, r, s)` to its successor (reduce
 * region when `reduce`, else the plain one) in R->split WRITEs, then the host waits for
 * every completion. */
static int ring_step(ring_t *R, int reduce, unsigned s) {
  net_t *g = &R->g;
  const uint64_t c0 = tsim_multi_cycles(g->m);
  for (unsigned r = 0; r < R->n; ++r) {
    const unsigned j = (r + 1) % R->n;
    const coll_chunk_t c = R->ch[reduce ? coll_rs_chunk(R->n, r, s) : coll_ag_chunk(R->n, r, s)];
    const uint32_t piece = (c.len / R->split + COLL_ALIGN - 1) / COLL_ALIGN * COLL_ALIGN;
    for (uint32_t o = 0; o < c.len; o += piece) {
      const uint32_t len = c.len - o < piece ? c.len - o : piece;
      if (post_write(g, &R->tx[r], R->next_id[r]++, COLL_BUF + c.off + o, COLL_BUF + c.off + o,
                     reduce ? rkey_red(j) : rkey_plain(j), len) != TF_PASS)
        return TF_FAIL;
    }
  }
  const uint64_t c1 = tsim_multi_cycles(g->m);
  for (unsigned r = 0; r < R->n; ++r) {
    const coll_chunk_t c = R->ch[reduce ? coll_rs_chunk(R->n, r, s) : coll_ag_chunk(R->n, r, s)];
    const uint32_t piece = (c.len / R->split + COLL_ALIGN - 1) / COLL_ALIGN * COLL_ALIGN;
    const unsigned writes = c.len ? (c.len + piece - 1) / piece : 0;
    for (unsigned k = writes; k > 0; --k)
      if (wait_cpl(g, &R->tx[r], (uint16_t)(R->next_id[r] - k), COLL_STEP_BUDGET) != TF_PASS) return TF_FAIL;
  }
  tf_log(g->t, "%s step %u: posted in %llu cycles, completions in %llu more", reduce ? "reduce-scatter" : "all-gather",
         s, (unsigned long long)(c1 - c0), (unsigned long long)(tsim_multi_cycles(g->m) - c1));
  return TF_PASS;
}

/* The all-reduce: n-1 reduce-scatter steps, then n-1 all-gather steps. *cycles: the
 * group's cycles from the first doorbell to the last completion popped. */
static int ring_allreduce(ring_t *R, uint64_t *cycles) {
  const uint64_t c0 = tsim_multi_cycles(R->g.m);
  for (unsigned s = 0; s + 1 < R->n; ++s)
    if (ring_step(R, 1, s) != TF_PASS) return TF_FAIL;
  for (unsigned s = 0; s + 1 < R->n; ++s)
    if (ring_step(R, 0, s) != TF_PASS) return TF_FAIL;
  *cycles = tsim_multi_cycles(R->g.m) - c0;
  return TF_PASS;
}

/* The requesters' packet, resend and timeout counters summed over the ring (logged; a
 * lossless link must need no resend). */
static int ring_counters(ring_t *R, uint32_t *pkts, uint32_t *resends, uint32_t *timeouts) {
  net_t *g = &R->g;
  *pkts = *resends = *timeouts = 0;
  for (unsigned r = 0; r < R->n; ++r) {
    uint32_t v;
    NW(r, COLL_TX_PORT, QP_SEL, R->tx[r].qp);
    NR(r, COLL_TX_PORT, CNT_REQ_PKTS, &v);
    *pkts += v;
    NR(r, COLL_TX_PORT, CNT_REQ_RESENDS, &v);
    *resends += v;
    NR(r, COLL_TX_PORT, CNT_REQ_TIMEOUTS, &v);
    *timeouts += v;
  }
  return TF_PASS;
}

static uint8_t canary(unsigned chip, size_t i) { return (uint8_t)(0x3Cu ^ (chip * 29u) ^ (i * 13u)); }

/* Random finite elements within 2^-6 .. 2^6 of both signs, so sums carry, cancel and
 * round. */
static void fill_elems(tf_ctx_t *t, unsigned dtype, uint8_t *p, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes;) {
    const uint32_t r = tf_rand32(t), e = 121u + tf_rand_below(t, 13);
    const uint32_t f = (r & 0x80000000u) | (e << 23) | (r & 0x007FFFFFu);
    if (dtype == ROCE_RED_BF16) {
      p[i] = (uint8_t)(f >> 16), p[i + 1] = (uint8_t)(f >> 24), i += 2;
    } else {
      for (int k = 0; k < 4; ++k) p[i + k] = (uint8_t)(f >> (8 * k));
      i += 4;
    }
  }
}

/* Chip r's input: random elements into in (bytes of the ring), written with the canaries
 * around them behind the L2 (img: scratch of bytes + 2 COLL_GUARD). */
static int ring_load(ring_t *R, unsigned r, uint8_t *in, uint8_t *img) {
  tf_ctx_t *t = R->g.t;
  const size_t span = R->bytes + 2 * COLL_GUARD;
  fill_elems(t, R->dtype, in, R->bytes);
  for (size_t i = 0; i < span; ++i) img[i] = canary(r, i);
  memcpy(img + COLL_GUARD, in, R->bytes);
  if (tsim_mem_write(R->g.chip[r], COLL_BUF - COLL_GUARD, img, span) != TSIM_OK)
    return tf_fail(t, "chip %u: back-door write: %s", r, tsim_last_error(R->g.chip[r]));
  return TF_PASS;
}

/* Chip r's L2 flushed, its window compared byte for byte: exp inside, canaries around. */
static int ring_check(ring_t *R, unsigned r, const uint8_t *exp, uint8_t *img) {
  tf_ctx_t *t = R->g.t;
  const size_t span = R->bytes + 2 * COLL_GUARD;
  if (tsim_l2_flush_all(R->g.chip[r]) != TSIM_OK ||
      tsim_mem_read(R->g.chip[r], COLL_BUF - COLL_GUARD, img, span) != TSIM_OK)
    return tf_fail(t, "chip %u: flush or back-door read: %s", r, tsim_last_error(R->g.chip[r]));
  for (size_t i = 0; i < span; ++i) {
    const int inside = i >= COLL_GUARD && i < COLL_GUARD + R->bytes;
    const uint8_t e = inside ? exp[i - COLL_GUARD] : canary(r, i);
    if (img[i] != e)
      return tf_fail(t, "chip %u: byte %lld of the tensor (%s) is 0x%02x, expected 0x%02x", r,
                     (long long)i - COLL_GUARD, inside ? "result" : "canary outside the buffer", img[i], e);
  }
  return TF_PASS;
}

/* One all-reduce with random inputs (the test's seed): run on the chips, compared bit for
 * bit on every chip with the golden model; canaries checked. bench: print the NICBENCH
 * line and a bench record. */
static int allreduce_case(tf_ctx_t *t, unsigned n, unsigned op, unsigned dtype, uint32_t bytes, unsigned split,
                          int bench) {
  ring_t R0, *R = &R0;
  int rc = TF_FAIL;
  uint8_t *in[MAXCHIPS] = {0}, *img = NULL, *exp = NULL;
  const size_t span = bytes + 2 * COLL_GUARD;
  if (ring_open(t, R, n, op, dtype, bytes, split, NULL, ROCE_MTU_4096) != TF_PASS) goto out;
  img = malloc(span), exp = malloc(bytes);
  if (!img || !exp) goto out;
  for (unsigned r = 0; r < n; ++r)
    if (!(in[r] = malloc(bytes)) || ring_load(R, r, in[r], img) != TF_PASS) goto out;
  if (coll_ring_allreduce(op, dtype, n, bytes, (const uint8_t *const *)in, exp)) {
    rc = tf_fail(t, "golden model refused %u bytes on %u chips", bytes, n);
    goto out;
  }
  if (net_inval(&R->g) != TF_PASS) goto out;
  uint64_t cycles = 0;
  tsim_axistats_clear(R->g.chip[0]);  /* chip_tb --axi-stats: chip 0's AXI ports during the collective */
  if (ring_allreduce(R, &cycles) != TF_PASS) goto out;
  tsim_axistats_print(R->g.chip[0], "coll chip 0");
  for (unsigned r = 0; r < n; ++r)
    if (ring_check(R, r, exp, img) != TF_PASS) goto out;
  uint32_t pkts, resends, timeouts;
  if (ring_counters(R, &pkts, &resends, &timeouts) != TF_PASS) goto out;
  tf_log(t, "requesters: %u packets, %u resent, %u timeouts", pkts, resends, timeouts);
  const double link = t->opts->link.bytes_per_cycle ? t->opts->link.bytes_per_cycle : 32.0;
  const double busbw = 2.0 * (n - 1) / n * bytes / (double)cycles;
  tf_log(t, "all-reduce %s %s, %u chips, %u bytes per chip (chunk %u bytes, %u WRITEs per chunk and step): %llu "
         "cycles, bus bandwidth %.2f bytes/cycle = %.1f %% of a link; every chip bit-exact",
         op == ROCE_RED_SUM ? "sum" : op == ROCE_RED_MIN ? "min" : "max", dtype == ROCE_RED_BF16 ? "bf16" : "fp32", n,
         bytes, R->ch[0].len, R->split, (unsigned long long)cycles, busbw, 100.0 * busbw / link);
  if (bench) {
    printf("NICBENCH allreduce chips=%u bytes=%u cycles=%llu busbw_pct=%.1f\n", n, bytes,
           (unsigned long long)cycles, 100.0 * busbw / link);
    tf_bench(t, NULL, NULL, (double)cycles, 2.0 * (n - 1) / n * bytes / link,
             "\"chips\":%u,\"bytes\":%u,\"busbw_pct\":%.1f", n, bytes, 100.0 * busbw / link);
  }
  rc = TF_PASS;
out:
  for (unsigned r = 0; r < n; ++r) free(in[r]);
  free(img);
  free(exp);
  net_close(&R->g);
  return rc;
}

/* 2 chips, FP32 sum, 8 KiB per chip */
TF_TEST(coll, allreduce_2chip_fp32, 4000000) { return allreduce_case(t, 2, ROCE_RED_SUM, ROCE_RED_FP32, 8192, 1, 0); }
/* 4 chips, FP32 sum, 1 250 elements (5 000 bytes: not a multiple of 4 x 32; chunks of
 * 1 280, 1 280, 1 280 and 1 160 bytes): the 4-chip case of `make test` */
TF_TEST(coll, allreduce_4chip_odd, 8000000) {
  return allreduce_case(t, 4, ROCE_RED_SUM, ROCE_RED_FP32, 5000, 1, 0);
}
/* 3 chips, BF16 sum, 1 499 elements (2 998 bytes: chunks of 1 024, 1 024, 950) */
TF_TEST(coll, allreduce_3chip_bf16, 8000000) {
  return allreduce_case(t, 3, ROCE_RED_SUM, ROCE_RED_BF16, 2998, 1, 0);
}
/* The larger 4-chip cases: not in "all" (each simulates 4 chips for tens of seconds), run
 * by the soak line coll_large of tests/suites.txt. */
/* 4 chips, FP32 sum, 16 KiB per chip, each chunk in 2 WRITEs per step */
TF_TEST_F(coll_large, allreduce_4chip_fp32, 8000000, TF_BENCH) {
  return allreduce_case(t, 4, ROCE_RED_SUM, ROCE_RED_FP32, 16384, 2, 0);
}
/* 4 chips, BF16 max, 8 KiB per chip */
TF_TEST_F(coll_large, allreduce_4chip_bf16_max, 8000000, TF_BENCH) {
  return allreduce_case(t, 4, ROCE_RED_MAX, ROCE_RED_BF16, 8192, 1, 0);
}
/* `make bench` line coll_chip: 4 chips, FP32 sum, 32 KiB per chip (the ring moves about
 * 0.5 bytes a cycle in the chip, docs/collectives.md: 256 KiB per chip would be about
 * 0.8 M cycles of 4 chips, more than half an hour of simulation on the shared machine) */
TF_TEST_F(coll, bench_allreduce_4chip, 20000000, TF_BENCH) {
  return allreduce_case(t, 4, ROCE_RED_SUM, ROCE_RED_FP32, 32 * 1024, 1, 1);
}
/* the same on 2 chips (the command-buffer benches' reference) */
TF_TEST_F(coll, bench_allreduce_2chip, 20000000, TF_BENCH) {
  return allreduce_case(t, 2, ROCE_RED_SUM, ROCE_RED_FP32, 32 * 1024, 1, 1);
}


/* ================================================================== from command buffers
 * The ring run by the chips alone (docs/collectives.md "Command-buffer collectives"): the
 * host programs the QPs and regions (ring_open), writes each chip's NIC-queue buffer and
 * the sync-object and monitor setup built by hl_coll, rings one queue doorbell per chip,
 * and then only waits until every chip's done monitor has written its flag. */
#define CB_ADDR (TESSERA_HBM_BASE + 0x00100000u)  /* chip r's NIC-queue command buffer */
#define CB_FLAG (TESSERA_HBM_BASE + 0x000FF000u)  /* the done monitor's payload writes here */
#define CB_DONE 0xD0E5u                           /* ... this value */
#define CB_SETUP_MAX 32u

/* A host-port write / read of chip c (any address); TF_PASS or a failure. */
static int cb_hw(net_t *g, unsigned c, uint32_t a, uint32_t v) {
  if (tsim_host_write32(g->chip[c], a, v) == TSIM_OK) return TF_PASS;
  return tf_fail(g->t, "chip %u: write 0x%08x to 0x%08x: %s", c, v, a, tsim_last_error(g->chip[c]));
}
static int cb_hr(net_t *g, unsigned c, uint32_t a, uint32_t *v) {
  if (tsim_host_read32(g->chip[c], a, v) == TSIM_OK) return TF_PASS;
  return tf_fail(g->t, "chip %u: read of 0x%08x: %s", c, a, tsim_last_error(g->chip[c]));
}
#define XW(c, a, v)                                             \
  do {                                                          \
    if (cb_hw(g, (c), (a), (v)) != TF_PASS) return TF_FAIL;     \
  } while (0)
#define XR(c, a, p)                                             \
  do {                                                          \
    if (cb_hr(g, (c), (a), (p)) != TF_PASS) return TF_FAIL;     \
  } while (0)

static const char *const cb_kind_name[] = {"all-reduce", "reduce-scatter", "all-gather", "broadcast"};

typedef struct {
  ring_t R;
  hl_coll_t c;
  int sends[MAXCHIPS], recvs[MAXCHIPS];
} cbring_t;

/* Read the chips' state for the diagnostic of a collective that did not end. */
static void cb_diag(cbring_t *X) {
  net_t *g = &X->R.g;
  const uint32_t qm = TESSERA_QMAN_ADDR(TESSERA_QMAN_SLOT_NIC + COLL_TX_PORT);
  for (unsigned r = 0; r < X->R.n; ++r) {
    uint32_t st = 0, pc = 0, f0 = 0, f1 = 0, rv = 0, sn = 0, dn = 0, cq = 0, wr = 0, sm = 0;
    tsim_t *s = g->chip[r];
    tsim_host_read32(s, qm + (uint32_t)offsetof(qman_t, STATUS), &st);
    tsim_host_read32(s, qm + (uint32_t)offsetof(qman_t, PC), &pc);
    tsim_host_read32(s, qm + (uint32_t)offsetof(qman_t, FENCE), &f0);
    tsim_host_read32(s, qm + (uint32_t)offsetof(qman_t, FENCE) + 4u, &f1);
    tsim_host_read32(s, TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * X->c.sob_recv, &rv);
    tsim_host_read32(s, TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * X->c.sob_sent, &sn);
    tsim_host_read32(s, TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * X->c.sob_done, &dn);
    tsim_host_read32(s, TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, STATUS), &sm);
    tsim_host_read32(s, nic_reg(COLL_TX_PORT, NIC_OFF(CQ_STATUS)), &cq);
    tsim_host_read32(s, nic_reg(COLL_TX_PORT, NIC_OFF(WR_STATUS)), &wr);
    tf_log(g->t, "chip %u: NIC queue STATUS 0x%x PC 0x%x FENCE0 %u FENCE1 %u; received %u of %d, completed %u of %d, "
           "done %u; Sync Manager STATUS 0x%x; CQ_STATUS 0x%x WR_STATUS 0x%x", r, st, pc, f0, f1, rv, X->recvs[r], sn,
           X->sends[r], dn, sm, cq, wr);
  }
}

static int cb_all_done(tsim_t *s, void *ctx) {
  (void)s;
  cbring_t *X = ctx;
  for (unsigned r = 0; r < X->R.n; ++r)  /* back-door reads: no host-port access, no cycle */
    if (tsim_mem_read32(X->R.g.chip[r], CB_FLAG) != CB_DONE) return 0;
  return 1;
}

/* Program one collective `kind` on an open ring: k pieces per chunk; every chip's
 * buffer at CB_ADDR, the setup writes applied through the host port. */
static int cb_prepare(tf_ctx_t *t, cbring_t *X, unsigned kind, unsigned k, unsigned root) {
  ring_t *R = &X->R;
  net_t *g = &R->g;
  hl_coll_t *c = &X->c;
  memset(c, 0, sizeof *c);
  c->kind = kind, c->n = R->n, c->esz = roce_red_elem_bytes(R->dtype), c->k = k, c->root = root;
  c->bytes = R->bytes, c->buf = COLL_BUF;
  c->tx_port = COLL_TX_PORT, c->rx_port = COLL_RX_PORT, c->qp = R->tx[0].qp;
  for (unsigned r = 0; r < R->n; ++r) c->rkey_red[r] = rkey_red(r), c->rkey_plain[r] = rkey_plain(r);
  /* sync objects of one group and monitors drawn from the seed (any free ones do) */
  const unsigned grp = 8u + tf_rand_below(t, TESSERA_SYNC_OBJECTS / 8u - 8u);
  c->sob_recv = 8u * grp + 1u, c->sob_sent = 8u * grp + 4u, c->sob_done = 8u * grp + 6u;
  const unsigned m0 = tf_rand_below(t, TESSERA_SYNC_MONITORS - 2u);
  c->mon_recv = m0, c->mon_sent = m0 + 1u, c->mon_done = m0 + 2u;
  c->done_addr = CB_FLAG, c->done_data = CB_DONE;
  c->wr_id = 0x100u;
  if (hl_coll_check(c) != HL_OK) return tf_fail(t, "hl_coll_check refused the collective");
  for (unsigned r = 0; r < R->n; ++r) {
    hl_cb_t cb;
    hl_coll_wr32_t w[CB_SETUP_MAX];
    unsigned nw = 0;
    X->sends[r] = hl_coll_sends(c, r, NULL, 0);
    X->recvs[r] = hl_coll_recvs(c, r);
    if (hl_cb_init(&cb) != HL_OK) return tf_fail(t, "out of memory");
    const int brc = hl_coll_build(c, r, &cb);
    if (brc == HL_OK && tsim_mem_write(g->chip[r], CB_ADDR, hl_cb_words(&cb), hl_cb_bytes(&cb)) != TSIM_OK) {
      hl_cb_free(&cb);
      return tf_fail(t, "chip %u: command buffer write: %s", r, tsim_last_error(g->chip[r]));
    }
    const uint32_t cbb = hl_cb_bytes(&cb);
    hl_cb_free(&cb);
    if (brc != HL_OK || X->sends[r] < 0 || X->recvs[r] < 0) return tf_fail(t, "chip %u: hl_coll_build: %d", r, brc);
    if (hl_coll_setup(c, r, CB_ADDR, cbb, w, CB_SETUP_MAX, &nw) != HL_OK) return tf_fail(t, "hl_coll_setup");
    for (unsigned i = 0; i < nw; ++i) XW(r, w[i].addr, w[i].val);
    TF_CHECK_OK(t, tsim_mem_write32(g->chip[r], CB_FLAG, 0));
    tf_log(t, "chip %u: %d WRITEs, %d received, command buffer %u bytes", r, X->sends[r], X->recvs[r], cbb);
  }
  return TF_PASS;
}

/* The collective: one doorbell per chip, then the host only waits (a back-door predicate
 * over the done flags, no host-port access) until every chip is done or `budget` cycles
 * have passed. *cycles: from the first doorbell to the cycle all flags were seen. */
static int cb_run(cbring_t *X, uint64_t budget, uint64_t *cycles) {
  net_t *g = &X->R.g;
  uint32_t db_addr, db_val;
  hl_coll_doorbell(&X->c, &db_addr, &db_val);
  const uint64_t c0 = tsim_multi_cycles(g->m);
  for (unsigned r = 0; r < X->R.n; ++r) XW(r, db_addr, db_val);
  const int rc = tsim_run_until(g->chip[0], cb_all_done, X, budget, 8);
  *cycles = tsim_multi_cycles(g->m) - c0;
  if (rc != TSIM_OK) {
    cb_diag(X);
    return tf_fail(g->t, "%s: not every chip done after %llu cycles (state above)", cb_kind_name[X->c.kind],
                   (unsigned long long)*cycles);
  }
  return TF_PASS;
}

/* After the end: each queue done without error, the sync objects at their counts, the
 * completions left in the queue (the last min(writes, 16); the command buffer popped the
 * others) all with status 0 and in order. */
static int cb_after(cbring_t *X) {
  net_t *g = &X->R.g;
  const uint32_t qm = TESSERA_QMAN_ADDR(TESSERA_QMAN_SLOT_NIC + COLL_TX_PORT);
  const uint32_t sob = TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET);
  for (unsigned r = 0; r < X->R.n; ++r) {
    uint32_t st = 0, rv = 0, sn = 0, dn = 0, sm = 0;
    XR(r, qm + (uint32_t)offsetof(qman_t, STATUS), &st);
    XR(r, sob + 4u * X->c.sob_recv, &rv);
    XR(r, sob + 4u * X->c.sob_sent, &sn);
    XR(r, sob + 4u * X->c.sob_done, &dn);
    XR(r, TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, STATUS), &sm);
    if (!(st & QMAN__STATUS__DONE_bm) || (st & QMAN__STATUS__ERR_bm) || sm != 0)
      return tf_fail(g->t, "chip %u: NIC queue STATUS 0x%x, Sync Manager STATUS 0x%x", r, st, sm);
    if (rv != (uint32_t)X->recvs[r] || sn != (uint32_t)X->sends[r] || dn != 1)
      return tf_fail(g->t, "chip %u: received %u (expected %d), completed %u (expected %d), done %u", r, rv,
                     X->recvs[r], sn, X->sends[r], dn);
    const unsigned left = X->sends[r] < (int)HL_COLL_CQ_DEPTH ? (unsigned)X->sends[r] : HL_COLL_CQ_DEPTH;
    uint32_t cst = 0;
    NR(r, COLL_TX_PORT, CQ_STATUS, &cst);
    if (((cst & NIC__CQ_STATUS__COUNT_bm) >> NIC__CQ_STATUS__COUNT_bp) != left)
      return tf_fail(g->t, "chip %u: CQ_STATUS 0x%x, expected %u completions left", r, cst, left);
    for (unsigned i = 0; i < left; ++i) {
      const uint16_t id = (uint16_t)(X->c.wr_id + X->sends[r] - left + i);
      if (wait_cpl(g, &X->R.tx[r], id, 1000) != TF_PASS) return TF_FAIL;
    }
  }
  return TF_PASS;
}

/* One collective from command buffers with random inputs (the test's seed): n chips,
 * op / dtype, bytes per chip, k pieces per chunk, root (broadcast); link: NULL for the
 * command line's, mtu: the QPs'. Every chip's whole window is compared bit for bit with
 * the golden model (coll_ring_run; for the all-reduce also coll_ring_allreduce) and the
 * canaries. bench: NICBENCH label; the test's bench record. */
static int cb_case(tf_ctx_t *t, unsigned kind, unsigned n, unsigned op, unsigned dtype, uint32_t bytes, unsigned k,
                   unsigned root, const tsim_link_cfg_t *link, unsigned mtu, const char *bench) {
  cbring_t *X = calloc(1, sizeof *X);
  int rc = TF_FAIL;
  uint8_t *in[MAXCHIPS] = {0}, *exp[MAXCHIPS] = {0}, *img = NULL, *fold = NULL;
  const size_t span = bytes + 2 * COLL_GUARD;
  if (!X) return tf_fail(t, "out of memory");
  ring_t *R = &X->R;
  if (ring_open(t, R, n, op, dtype, bytes, 1, link, mtu) != TF_PASS) goto out;
  if (!(img = malloc(span)) || !(fold = malloc(bytes))) goto out;
  for (unsigned r = 0; r < n; ++r)
    if (!(in[r] = malloc(bytes)) || !(exp[r] = malloc(bytes)) || ring_load(R, r, in[r], img) != TF_PASS) goto out;
  if (coll_ring_run(kind, op, dtype, n, root, bytes, (const uint8_t *const *)in, exp)) {
    rc = tf_fail(t, "golden model refused %u bytes on %u chips", bytes, n);
    goto out;
  }
  if (kind == HL_COLL_ALLREDUCE) {  /* the step model agrees with the fold in ring order */
    if (coll_ring_allreduce(op, dtype, n, bytes, (const uint8_t *const *)in, fold)) goto out;
    for (unsigned r = 0; r < n; ++r)
      if (memcmp(exp[r], fold, bytes)) {
        rc = tf_fail(t, "golden models disagree on chip %u", r);
        goto out;
      }
  }
  if (cb_prepare(t, X, kind, k, root) != TF_PASS) goto out;
  if (net_inval(&R->g) != TF_PASS) goto out;
  uint64_t cycles = 0;
  /* a few thousand cycles per KiB at most: a collective that hangs fails in about a minute */
  if (cb_run(X, 200000u + 16ull * n * bytes, &cycles) != TF_PASS) goto out;
  if (cb_after(X) != TF_PASS) goto out;
  for (unsigned r = 0; r < n; ++r)
    if (ring_check(R, r, exp[r], img) != TF_PASS) goto out;
  uint32_t pkts, resends, timeouts;
  if (ring_counters(R, &pkts, &resends, &timeouts) != TF_PASS) goto out;
  tf_log(t, "requesters: %u packets, %u resent, %u timeouts", pkts, resends, timeouts);
  if (link && link->drop_ppm && !resends) {
    rc = tf_fail(t, "the lossy links made no resend: the case does not test loss");
    goto out;
  }
  const tsim_link_cfg_t *lk = link ? link : &t->opts->link;
  const double lrate = lk->bytes_per_cycle ? lk->bytes_per_cycle : 32.0;
  /* bus bandwidth: bytes each chip moves per link (all-reduce 2 (n-1)/n, one half (n-1)/n,
   * broadcast 1) over the cycles */
  const double moved = kind == HL_COLL_ALLREDUCE ? 2.0 * (n - 1) / n * bytes
                       : kind == HL_COLL_BROADCAST ? (double)bytes : (double)(n - 1) / n * bytes;
  const double busbw = moved / (double)cycles;
  const double pct = 100.0 * busbw / lrate;
  tf_log(t, "%s from command buffers, %s %s, %u chips, %u bytes per chip, %u pieces per chunk: %llu cycles from "
         "the first doorbell to the last done flag, bus bandwidth %.2f bytes/cycle = %.1f %% of a link; every chip "
         "bit-exact", cb_kind_name[kind], op == ROCE_RED_SUM ? "sum" : op == ROCE_RED_MIN ? "min" : "max",
         dtype == ROCE_RED_BF16 ? "bf16" : "fp32", n, bytes, k, (unsigned long long)cycles, busbw, pct);
  if (bench) {
    printf("NICBENCH cb_%s chips=%u bytes=%u k=%u cycles=%llu busbw_pct=%.1f\n", bench, n, bytes, k,
           (unsigned long long)cycles, pct);
    tf_bench(t, NULL, NULL, (double)cycles, moved / lrate, "\"chips\":%u,\"bytes\":%u,\"k\":%u,\"busbw_pct\":%.1f",
             n, bytes, k, pct);
  }
  rc = TF_PASS;
out:
  for (unsigned r = 0; r < n; ++r) free(in[r]), free(exp[r]);
  free(img);
  free(fold);
  net_close(&R->g);
  free(X);
  return rc;
}

#define CB_AR(t, n, op, dt, bytes, k) \
  cb_case((t), HL_COLL_ALLREDUCE, (n), (op), (dt), (bytes), (k), 0, NULL, ROCE_MTU_4096, NULL)
/* all-reduce, 2 chips, FP32 sum, 4 KiB per chip, one piece per chunk */
TF_TEST(coll, cb_allreduce_2chip_fp32_k1, 4000000) { return CB_AR(t, 2, ROCE_RED_SUM, ROCE_RED_FP32, 4096, 1); }
/* all-reduce, 2 chips, BF16 min, 6 KiB per chip, 3 pieces per chunk in flight */
TF_TEST(coll, cb_allreduce_2chip_bf16_min_k3, 4000000) { return CB_AR(t, 2, ROCE_RED_MIN, ROCE_RED_BF16, 6144, 3); }
/* all-reduce, 2 chips, FP32 sum, 8 KiB per chip, 12 pieces per chunk: 24 WRITEs per chip,
 * so the command buffer pops the completion queue (16 entries) from the 17th on */
TF_TEST(coll, cb_allreduce_2chip_k12_cqpop, 4000000) { return CB_AR(t, 2, ROCE_RED_SUM, ROCE_RED_FP32, 8192, 12); }
/* all-reduce, 4 chips, FP32 sum, 5 000 bytes per chip (uneven chunks), 2 pieces */
TF_TEST(coll, cb_allreduce_4chip_fp32_k2, 8000000) { return CB_AR(t, 4, ROCE_RED_SUM, ROCE_RED_FP32, 5000, 2); }
/* all-reduce of 64 bytes on 4 chips: chunks of 32, 32, 0 and 0 bytes (the empty ones are
 * not posted, and the waits count only the WRITEs that are) */
TF_TEST(coll, cb_allreduce_4chip_64b, 8000000) { return CB_AR(t, 4, ROCE_RED_SUM, ROCE_RED_FP32, 64, 1); }
/* reduce-scatter alone, 3 chips, BF16 sum, 2 998 bytes, 2 pieces */
TF_TEST(coll, cb_reduce_scatter_3chip_bf16, 8000000) {
  return cb_case(t, HL_COLL_REDUCE_SCATTER, 3, ROCE_RED_SUM, ROCE_RED_BF16, 2998, 2, 0, NULL, ROCE_MTU_4096, NULL);
}
/* all-gather alone, 3 chips, FP32, 3 KiB, 1 piece */
TF_TEST(coll, cb_allgather_3chip, 8000000) {
  return cb_case(t, HL_COLL_ALLGATHER, 3, ROCE_RED_SUM, ROCE_RED_FP32, 3072, 1, 0, NULL, ROCE_MTU_4096, NULL);
}
/* broadcast from chip 2 of 3, 4 KiB in 4 pieces pipelined along the ring */
TF_TEST(coll, cb_broadcast_3chip, 8000000) {
  return cb_case(t, HL_COLL_BROADCAST, 3, ROCE_RED_SUM, ROCE_RED_FP32, 4096, 4, 2, NULL, ROCE_MTU_4096, NULL);
}
/* all-reduce over lossy links: 2 % of the frames dropped and 2 % reordered in each
 * direction, MTU 256 (more frames, so some are lost): bit-identical to the golden model;
 * fails unless a requester resent */
TF_TEST(coll, cb_allreduce_2chip_lossy, 8000000) {
  tsim_link_cfg_t l = t->opts->link;
  l.drop_ppm = 20000, l.reorder_ppm = 20000;
  return cb_case(t, HL_COLL_ALLREDUCE, 2, ROCE_RED_SUM, ROCE_RED_FP32, 8192, 2, 0, &l, ROCE_MTU_256, NULL);
}

/* soak line coll_large: 8 chips from command buffers: FP32 sum, 8 KiB per chip, 2 pieces per chunk */
TF_TEST_F(coll_large, cb_allreduce_8chip_k2, 8000000, TF_BENCH) {
  return cb_case(t, HL_COLL_ALLREDUCE, 8, ROCE_RED_SUM, ROCE_RED_FP32, 8192, 2, 0, NULL, ROCE_MTU_4096, NULL);
}

/* `make bench` line coll_chip: the command-buffer all-reduce (FP32 sum, lossless links) on
 * 2 and 4 chips at a few sizes and pieces per chunk, next to the host-stepped
 * bench_allreduce_* (docs/collectives.md "Measured"). */
#define CB_BENCH(n, kib, k)                                                                                 \
  TF_TEST_F(coll, bench_cb_allreduce_##n##chip_##kib##k_k##k, 40000000, TF_BENCH) {                        \
    return cb_case(t, HL_COLL_ALLREDUCE, n, ROCE_RED_SUM, ROCE_RED_FP32, (kib) * 1024u, k, 0, NULL, ROCE_MTU_4096, \
                   "allreduce");                                                                            \
  }
CB_BENCH(2, 8, 1)
CB_BENCH(2, 32, 1)
CB_BENCH(2, 32, 4)
CB_BENCH(4, 32, 1)
CB_BENCH(4, 32, 2)
CB_BENCH(4, 32, 4)
CB_BENCH(4, 128, 4)
CB_BENCH(4, 128, 8)
CB_BENCH(8, 32, 4)
/* small-message latency: a 64-byte all-reduce (FP32 sum) on 2, 4 and 8 chips */
#define CB_LAT(n)                                                                                           \
  TF_TEST_F(coll, bench_cb_allreduce_##n##chip_64b, 4000000, TF_BENCH) {                                    \
    return cb_case(t, HL_COLL_ALLREDUCE, n, ROCE_RED_SUM, ROCE_RED_FP32, 64, 1, 0, NULL, ROCE_MTU_4096,       \
                   "allreduce");                                                                            \
  }
CB_LAT(2)
CB_LAT(4)
CB_LAT(8)

#endif /* TESSERA_NIC_PORTS > TESSERA_DCORES */
