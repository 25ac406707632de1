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
 * and 256 canary bytes on each side of every buffer must be unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip_nic.h"
#include "coll_model.h"
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
                     unsigned split) {
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
    tsim_link_cfg_t cfg = t->opts->link;
    cfg.seed += 2u * r;  /* each connection its own seeds, as tsim_multi_topology does */
    TF_CHECK_OK(t, tsim_nic_connect(g->m, r, COLL_TX_PORT, (r + 1) % n, COLL_RX_PORT, &cfg));
  }
  const uint32_t red = (op << NIC__MR_CFG__RED_OP_bp) | (dtype == ROCE_RED_BF16 ? NIC__MR_CFG__RED_BF16_bm : 0u);
  for (unsigned r = 0; r < n; ++r) {
    const unsigned j = (r + 1) % n;
    R->tx[r] = (qp_end_t){r, COLL_TX_PORT, 0, 0x400u + r, 0x10000u * r + 0x100u};
    R->rx[j] = (qp_end_t){j, COLL_RX_PORT, 0, 0x800u + j, 0x20000u * j + 0x200u};
    if (qp_connect(g, &R->tx[r], &R->rx[j], ROCE_MTU_4096, 1) != TF_PASS) return TF_FAIL;
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

/* One all-reduce with random inputs (the test's seed): run on the chips, compared bit for
 * bit on every chip with the golden model; canaries checked. bench: print the NICBENCH
 * line and a bench record. */
static int allreduce_case(tf_ctx_t *t, unsigned n, unsigned op, unsigned dtype, uint32_t bytes, unsigned split,
                          int bench) {
  ring_t R0, *R = &R0;
  int rc = TF_FAIL;
  uint8_t *in[MAXCHIPS] = {0}, *img = NULL, *exp = NULL;
  const size_t span = bytes + 2 * COLL_GUARD;
  if (ring_open(t, R, n, op, dtype, bytes, split) != TF_PASS) goto out;
  img = malloc(span), exp = malloc(bytes);
  if (!img || !exp) goto out;
  for (unsigned r = 0; r < n; ++r) {
    if (!(in[r] = malloc(bytes))) goto out;
    fill_elems(t, dtype, in[r], bytes);
    for (size_t i = 0; i < span; ++i) img[i] = canary(r, i);
    memcpy(img + COLL_GUARD, in[r], bytes);
    if (tsim_mem_write(R->g.chip[r], COLL_BUF - COLL_GUARD, img, span) != TSIM_OK) {
      rc = tf_fail(t, "chip %u: back-door write: %s", r, tsim_last_error(R->g.chip[r]));
      goto out;
    }
  }
  if (coll_ring_allreduce(op, dtype, n, bytes, (const uint8_t *const *)in, exp)) {
    rc = tf_fail(t, "golden model refused %u bytes on %u chips", bytes, n);
    goto out;
  }
  if (net_inval(&R->g) != TF_PASS) goto out;
  uint64_t cycles = 0;
  tsim_axistats_clear(R->g.chip[0]);  /* chip_tb --axi-stats: chip 0's AXI ports during the collective */
  if (ring_allreduce(R, &cycles) != TF_PASS) goto out;
  tsim_axistats_print(R->g.chip[0], "coll chip 0");
  for (unsigned r = 0; r < n; ++r) {
    if (tsim_l2_flush_all(R->g.chip[r]) != TSIM_OK ||
        tsim_mem_read(R->g.chip[r], COLL_BUF - COLL_GUARD, img, span) != TSIM_OK) {
      rc = tf_fail(t, "chip %u: flush or back-door read: %s", r, tsim_last_error(R->g.chip[r]));
      goto out;
    }
    for (size_t i = 0; i < span; ++i) {
      const int inside = i >= COLL_GUARD && i < COLL_GUARD + bytes;
      const uint8_t e = inside ? exp[i - COLL_GUARD] : canary(r, i);
      if (img[i] != e) {
        rc = tf_fail(t, "chip %u: byte %lld of the tensor (%s) is 0x%02x, expected 0x%02x", r,
                     (long long)i - COLL_GUARD, inside ? "result" : "canary outside the buffer", img[i], e);
        goto out;
      }
    }
  }
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
 * by the soak line coll_large (./chip_tb --test 'coll_large/*'). */
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

#endif /* TESSERA_NIC_PORTS > TESSERA_DCORES */
