/* tessera_dma block tests against the golden model tests/dma/dma_model.c.
 * Usage: Vtessera_dma [--seed N] [--test NAME] [--bench]
 * Prints its seed; the last line is "N passed, M failed". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dma_model.h"
#include "dtb_drv.h"
#include "regs/dma_regs.h"
#include "tessera_cfg.h"
#include "../framework/bench_rec.h"
#include "../framework/tf_seed.h"

#define OFF(f) ((uint32_t)offsetof(dma_t, f))

static uint64_t rng_state;
static char fail_msg[512];
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}
static int chance(unsigned pct) { return rnd() % 100 < pct; }
#define CHECK(cond, ...) do { if (!(cond)) { snprintf(fail_msg, sizeof fail_msg, __VA_ARGS__); return 1; } } while (0)

/* expected destination bytes from the model */
#define MAXB (1u << 21)
static uint32_t exp_addr[MAXB];
static uint8_t exp_val[MAXB];
static unsigned n_exp;
static void exp_wr(uint32_t a, uint8_t v) { if (n_exp < MAXB) { exp_addr[n_exp] = a; exp_val[n_exp] = v; n_exp++; } }
static uint32_t wlog[1 << 17];

static uint32_t last_busy;
static unsigned n_tr_paired;   /* transposes run with paired tiles (coverage check) */
static unsigned n_tr_banded;   /* transposes whose group order walks several bands together */
static int bench_wr_alloc;     /* --bench: every transfer with CACHE.wr_alloc (deterministic) */
typedef struct { int msg_en; int expect_axi_err; } run_opts_t;

static int run(const dma_desc_t *d, const run_opts_t *o) {
  unsigned exp_err = dma_model_check(d, TESSERA_HBM_BASE, TESSERA_HBM_SIZE, TESSERA_HOST_BASE, TESSERA_HOST_SIZE);
  n_exp = 0;
  if (exp_err == 0 && !o->expect_axi_err) dma_model_run(d, dtb_mem_read8, exp_wr);
  uint32_t maddr = 0x30400100u + (rnd() % 16) * 4, mdata = rnd();
  dtb_apb_write(OFF(SRC), d->src);
  dtb_apb_write(OFF(DST), d->dst);
  dtb_apb_write(OFF(SIZE), d->size);
  dtb_apb_write(OFF(COUNT1), d->c1);
  dtb_apb_write(OFF(COUNT2), d->c2);
  dtb_apb_write(OFF(SRC_STRIDE1), d->ss1);
  dtb_apb_write(OFF(SRC_STRIDE2), d->ss2);
  dtb_apb_write(OFF(DST_STRIDE1), d->ds1);
  dtb_apb_write(OFF(DST_STRIDE2), d->ds2);
  dtb_apb_write(OFF(FILL), d->fill);
  dtb_apb_write(OFF(MSG_ADDR), maddr);
  dtb_apb_write(OFF(MSG_DATA), mdata);
  dtb_apb_write(OFF(MSG_CTRL), o->msg_en ? 1u : 0u);
  /* L2 hints (only the write-allocate bit changes what the engine does: paired transposes) */
  int wr_alloc = bench_wr_alloc ? 1 : chance(70);
  dtb_apb_write(OFF(CACHE), DMA__CACHE__RD_ALLOC_bm | (wr_alloc ? DMA__CACHE__WR_ALLOC_bm : 0u));
  dtb_writes_clear();
  dtb_apb_write(OFF(CTRL), DMA__CTRL__GO_bm | (d->mode << DMA__CTRL__MODE_bp) |
                               (d->ebytes == 4 ? DMA__CTRL__ESIZE_bm : 0));
  uint32_t st = 0;
  uint64_t t0 = dtb_cycle();
  for (;;) {
    for (int k = 0; k < 16; k++) dtb_step();
    dtb_apb_read(OFF(STATUS), &st);
    if (!(st & DMA__STATUS__BUSY_bm)) break;
    CHECK(dtb_cycle() - t0 < 2000000, "hang: DMA busy after 2M cycles (STATUS 0x%x)", st);
  }
  uint32_t err = (st & DMA__STATUS__ERR_bm) >> DMA__STATUS__ERR_bp;
  dtb_apb_read(OFF(PERF_BUSY), &last_busy);
  CHECK(st & DMA__STATUS__DONE_bm, "STATUS.done not set (0x%x)", st);
  CHECK(dtb_idle(), "idle_o low after the transfer");
  if (o->expect_axi_err) CHECK(err == DMA_ERR_AXI, "error %u, expected AXI (5)", err);
  else CHECK(err == exp_err, "error %u, model %u", err, exp_err);
  CHECK(dtb_irq() == (err != 0), "irq_o %d with error %u", dtb_irq(), err);
  /* memory: every write inside the destination footprint, the footprint as the model says */
  unsigned nw = dtb_writes(wlog, sizeof wlog / sizeof wlog[0]);
  for (unsigned i = 0; i < nw && i < sizeof wlog / sizeof wlog[0]; i++)
    CHECK(wlog[i] != 0xFFFFFFFFu && dma_model_in_dst(d, wlog[i]) && (err == 0 || err == DMA_ERR_AXI),
          "stray or malformed write at 0x%08x (err %u)", wlog[i], err);
  for (unsigned i = 0; i < n_exp; i++)
    CHECK(dtb_mem_read8(exp_addr[i]) == exp_val[i], "byte at 0x%08x = 0x%02x, model 0x%02x", exp_addr[i],
          dtb_mem_read8(exp_addr[i]), exp_val[i]);
  /* completion message: sent for accepted transfers when enabled */
  uint32_t a, dd;
  int got = dtb_msg_pop(&a, &dd);
  int want = o->msg_en && (err == 0 || err == DMA_ERR_AXI);
  CHECK(got == want, "completion message %s", got ? "unexpected" : "missing");
  if (got) CHECK(a == maddr && dd == mdata, "completion message (0x%x, 0x%x)", a, dd);
  CHECK(!dtb_msg_pop(&a, &dd), "more than one completion message");
  CHECK(!dtb_burst_crossed_256() && dtb_max_burst_beats() <= 8, "AXI burst crosses 256 B or > 8 beats");
  /* transposes: a 64-byte-aligned destination (base and row stride) with COUNT1 a
   * multiple of 2E gets one full line per destination row and tile pair (2-beat bursts,
   * docs/dma.md), anything else one-beat bursts */
  if (d->mode == DMA_MODE_TRANSPOSE && err == 0) {
    uint32_t amin, amax, wb = dma_transpose_paired(d, wr_alloc) ? 2u : 1u;
    dtb_aw_beats(&amin, &amax);
    CHECK(amin == wb && amax == wb, "transpose write bursts of %u..%u beats, expected %u", amin, amax, wb);
    n_tr_paired += wb == 2u;
    if (dma_transpose_bands_together(d, wr_alloc) > 1u) {
      /* the group order: the second group written is band 256/W's first group, which
       * starts 256 bytes into its row: destination row 8E (256 source bytes / 32 * E),
       * 256 bytes into it (docs/dma.md "Group order") */
      uint32_t e = 32u / d->ebytes, k = dma_transpose_group_tiles(d, wr_alloc);
      uint32_t first2 = k * e * wb, want = d->dst + 8u * e * d->ds1 + 256u;
      CHECK(nw > first2 && wlog[first2] == want, "transpose group order: beat %u written at 0x%08x, expected 0x%08x",
            first2, nw > first2 ? wlog[first2] : 0u, want);
      n_tr_banded++;
    }
  }
  return 0;
}

static uint32_t hbm(uint32_t off) { return TESSERA_HBM_BASE + off; }
static uint32_t host(uint32_t off) { return TESSERA_HOST_BASE + off; }
static int host_sides = 1;   /* rand_desc may put either side in the host window */

static dma_desc_t rand_desc(int mode) {
  dma_desc_t d;
  memset(&d, 0, sizeof d);
  d.mode = mode;
  d.fill = rnd();
  d.ebytes = chance(50) ? 4 : 2;
  if (mode == DMA_MODE_LINEAR) {
    d.size = 32 * (1 + rnd() % (chance(20) ? 512 : 64));
    d.c1 = 1 + rnd() % 3; d.c2 = 1 + rnd() % 3;   /* ignored in linear mode */
    d.ss1 = rnd(); d.ds1 = rnd();
  } else if (mode == DMA_MODE_TRANSPOSE) {
    uint32_t E = 32 / d.ebytes;
    d.c1 = E * (1 + rnd() % (chance(30) ? 8 : 4));       /* rows */
    d.size = 32 * (1 + rnd() % (chance(30) ? 20 : 4));   /* row bytes: cols = size / e */
    d.ss1 = d.size + 32 * (rnd() % 4);
    /* half of the destinations 64-byte aligned rows (paired tiles when COUNT1 allows) */
    d.ds1 = d.c1 * d.ebytes + (chance(50) ? 64 * (rnd() % 3) : 32 * (rnd() % 4));
    d.c2 = 1 + rnd() % 3; d.ss2 = rnd(); d.ds2 = rnd();   /* ignored */
  } else {
    d.size = 32 * (1 + rnd() % 12);
    d.c1 = 1 + rnd() % 8;
    d.c2 = 1 + rnd() % 4;
    d.ss1 = 32 * (rnd() % 24);
    d.ss2 = 32 * (rnd() % 200);
    d.ds1 = d.size + 32 * (rnd() % 8);
    d.ds2 = d.c1 * d.ds1 + 32 * (rnd() % 8);
  }
  /* source in [0, 8 MiB), destination in [8 MiB, 16 MiB): never overlapping */
  d.src = hbm(32 * (rnd() % (1u << 17)));
  d.dst = hbm((8u << 20) + 32 * (rnd() % (1u << 16)));
  /* host<->device, host->host and device->host copies through the host port */
  if (host_sides && chance(25)) d.src = host(32 * (rnd() % (1u << 17)));
  if (host_sides && chance(25)) d.dst = host((8u << 20) + 32 * (rnd() % (1u << 16)));
  if (mode == DMA_MODE_TRANSPOSE && chance(50)) d.dst &= ~63u;
  return d;
}

static void env_random(void) {
  dtb_set_env(50 + rnd() % 51, 50 + rnd() % 51, 50 + rnd() % 51, rnd() % 30, 30 + rnd() % 71, rnd());
  dtb_set_latency(3 + rnd() % 80);
  dtb_set_host_latency(3 + rnd() % 400);
}
static void fresh(void) {
  dtb_set_env(100, 100, 100, 0, 100, 1);
  dtb_set_latency(TESSERA_HBM_LATENCY_CYCLES);
  dtb_set_host_latency(TESSERA_HOST_LATENCY_CYCLES);
  dtb_reset();
  dtb_mem_clear();
}

static int t_linear(void) {
  fresh();
  for (int i = 0; i < 40; i++) {
    if (i % 8 == 0) env_random();
    dma_desc_t d = rand_desc(DMA_MODE_LINEAR);
    run_opts_t o = {chance(60), 0};
    if (run(&d, &o)) return 1;
  }
  return 0;
}
static int t_strided(void) {
  fresh();
  for (int i = 0; i < 40; i++) {
    if (i % 8 == 0) env_random();
    dma_desc_t d = rand_desc(DMA_MODE_STRIDED);
    run_opts_t o = {chance(60), 0};
    if (run(&d, &o)) return 1;
  }
  return 0;
}
static int t_fill(void) {
  fresh();
  for (int i = 0; i < 20; i++) {
    if (i % 5 == 0) env_random();
    dma_desc_t d = rand_desc(chance(50) ? DMA_MODE_FILL : DMA_MODE_FILL);
    if (chance(30)) { d.c1 = 1; d.c2 = 1; d.size = 32 * (1 + rnd() % 256); }
    run_opts_t o = {chance(60), 0};
    if (run(&d, &o)) return 1;
  }
  return 0;
}

static int t_transpose(void) {
  fresh();
  n_tr_paired = 0;
  n_tr_banded = 0;
  for (int i = 0; i < 40; i++) {
    if (i % 8 == 0) env_random();
    dma_desc_t d = rand_desc(DMA_MODE_TRANSPOSE);
    if (chance(40)) {   /* eligible for paired tiles (used when the writes allocate) */
      d.c1 = 2 * (32 / d.ebytes) * (1 + rnd() % 4);
      d.ds1 = d.c1 * d.ebytes + 64 * (rnd() % 3);
      d.dst &= ~63u;
    }
    if (i % 5 == 4) {
      /* tall and wide enough for the engine to walk 2 or 4 bands together (docs/dma.md
       * "Group order"): rows a multiple of 16 or 32 bands, rows of 512 B or more, some
       * ending in a partial group */
      uint32_t E = 32 / d.ebytes;
      d.c1 = E * 8 * (chance(50) ? 4 : 2) * (1 + rnd() % 2);
      d.size = 32 * (16 + rnd() % 24);
      d.ss1 = d.size + 32 * (rnd() % 3);
      d.ds1 = d.c1 * d.ebytes + 64 * (rnd() % 2);
      if (chance(50)) d.dst &= ~63u;
    }
    run_opts_t o = {chance(60), 0};
    if (run(&d, &o)) { size_t l = strlen(fail_msg); snprintf(fail_msg + l, sizeof fail_msg - l, " [e=%u rows %u size %u]", d.ebytes, d.c1, d.size); return 1; }
  }
  CHECK(n_tr_paired > 0 && n_tr_paired < 40, "%u of 40 transposes ran with paired tiles (want some of each kind)",
        n_tr_paired);
  CHECK(n_tr_banded > 0, "no transpose walked several bands together");
  return 0;
}

static int t_errors(void) {
  fresh();
  for (int k = 0; k < 17; k++) {
    dma_desc_t d = rand_desc(DMA_MODE_STRIDED);
    switch (k) {
      case 0: d = rand_desc(DMA_MODE_TRANSPOSE); d.c1 += 1 + rnd() % 3; break;
      case 1: d.size = 0; break;
      case 2: d.c1 = 0; break;
      case 3: d.c2 = 0; break;
      case 4: d.src += 8; break;
      case 5: d.dst += 16; break;
      case 6: d.size += 4; break;
      case 7: d.ds1 += 1; break;
      case 8: d.src = 0x10000000u; break;
      case 9: d.dst = TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 32; break;
      /* a side that starts in the host window and runs into device memory, or the
       * reverse (device memory ends at 2^32) */
      case 11: d.mode = DMA_MODE_LINEAR; d.src = TESSERA_HOST_BASE + TESSERA_HOST_SIZE - 32; d.size = 64; break;
      case 12: d.mode = DMA_MODE_LINEAR; d.dst = TESSERA_HOST_BASE + TESSERA_HOST_SIZE - 96; d.size = 128; break;
      case 13: d.mode = DMA_MODE_LINEAR; d.src = TESSERA_HOST_BASE - 32; d.size = 64; break;
      /* footprints just above 2^48 bytes: an end address computed in 48 bits wraps to a
       * small offset and would pass (strided destination, strided source, transpose) */
      case 14:
        d.size = 32; d.c1 = 5; d.c2 = 65535; d.ss1 = d.ss2 = 0;
        d.ds1 = 0x80080000u; d.ds2 = 0xFFFFFFE0u; d.dst = TESSERA_HBM_BASE + 0x10000000u;
        break;
      case 15:
        d.size = 32; d.c1 = 5; d.c2 = 65535; d.ds1 = d.ds2 = 0;
        d.ss1 = 0x80080000u; d.ss2 = 0xFFFFFFE0u; d.src = TESSERA_HBM_BASE + 0x10000000u;
        break;
      case 16:
        d = rand_desc(DMA_MODE_TRANSPOSE);
        d.ebytes = 2; d.size = 1u << 18; d.c1 = 16; d.ss1 = 1u << 18; d.src = TESSERA_HBM_BASE;
        d.ds1 = 0x80004020u; d.dst = TESSERA_HBM_BASE;
        break;
      default: d.mode = DMA_MODE_LINEAR; d.src = TESSERA_HBM_BASE - 64; d.size = 128; break;
    }
    run_opts_t o = {1, 0};
    unsigned e = dma_model_check(&d, TESSERA_HBM_BASE, TESSERA_HBM_SIZE, TESSERA_HOST_BASE, TESSERA_HOST_SIZE);
    CHECK(e != 0, "case %d: model accepts the descriptor", k);
    if (run(&d, &o)) { size_t l = strlen(fail_msg); snprintf(fail_msg + l, sizeof fail_msg - l, " [case %d]", k); return 1; }
  }
  /* AXI errors: on a source beat, on a destination beat (linear, strided, transpose;
   * a transpose's first destination row holds c1 * e bytes) */
  for (int k = 0; k < 12; k++) {
    if (k == 6) env_random();
    static const int emode[3] = {DMA_MODE_LINEAR, DMA_MODE_STRIDED, DMA_MODE_TRANSPOSE};
    dma_desc_t d = rand_desc(emode[k % 3]);
    uint32_t drow = d.mode == DMA_MODE_TRANSPOSE ? d.c1 * d.ebytes : d.size;
    if ((k / 3) & 1) dtb_mem_set_err(d.dst + 32 * (rnd() % (drow / 32)));
    else dtb_mem_set_err(d.src + 32 * (rnd() % (d.size / 32)));
    run_opts_t o = {chance(50), 1};
    if (run(&d, &o)) { size_t l = strlen(fail_msg); snprintf(fail_msg + l, sizeof fail_msg - l, " [axi case %d]", k); return 1; }
    dtb_mem_clear();
  }
  return 0;
}

static int t_control(void) {
  fresh();
  /* LIN_DMA register sequence: SRC, DST, SIZE, CTRL = 1 */
  dma_desc_t d = rand_desc(DMA_MODE_LINEAR);
  d.size = 8192;
  n_exp = 0;
  dma_model_run(&d, dtb_mem_read8, exp_wr);
  dtb_apb_write(OFF(SRC), d.src);
  dtb_apb_write(OFF(DST), d.dst);
  dtb_apb_write(OFF(SIZE), d.size);
  dtb_apb_write(OFF(CTRL), 1);
  CHECK(!dtb_idle(), "idle_o high right after the go write");
  dtb_apb_write(OFF(CTRL), 1);   /* go while busy */
  uint32_t st;
  dtb_apb_read(OFF(STATUS), &st);
  CHECK((st & DMA__STATUS__BUSY_bm) && (st & DMA__STATUS__BUSY_REJECT_bm), "STATUS 0x%x after go while busy", st);
  for (int i = 0; i < 20000 && !dtb_idle(); i++) dtb_step();
  for (unsigned i = 0; i < n_exp; i++)
    CHECK(dtb_mem_read8(exp_addr[i]) == exp_val[i], "byte at 0x%08x differs", exp_addr[i]);
  CHECK(!dtb_irq(), "irq_o with IRQ_EN.done = 0 and no error");
  dtb_apb_write(OFF(IRQ_EN), DMA__IRQ_EN__DONE_bm | DMA__IRQ_EN__ERR_bm);
  CHECK(dtb_irq(), "irq_o low with IRQ_EN.done and STATUS.done");
  return 0;
}


/* ---------------------------------------------------------------- tensor mode */
typedef struct {
  uint32_t sw[16], dw[16], sdesc, ddesc;
  int32_t off[5];
} tjob_t;

static uint32_t tbytes[1 << 18];
static uint32_t exp_sorted[MAXB];
static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}
static void put_desc(uint32_t addr, const uint32_t w[16]) {
  for (unsigned i = 0; i < 16; i++)
    for (unsigned b = 0; b < 4; b++) dtb_mem_write8(addr + 4 * i + b, (uint8_t)(w[i] >> (8 * b)));
}
static uint8_t scratch_rd(uint32_t a) { (void)a; return 0; }
static unsigned t_ok, t_refused;
static uint64_t t_elems, t_bytes;

static int run_tensor(const tjob_t *j, const run_opts_t *o) {
  put_desc(j->sdesc, j->sw);
  put_desc(j->ddesc, j->dw);
  unsigned exp_err = dma_tensor_check(j->sw, j->dw, j->sdesc, j->ddesc, TESSERA_HBM_BASE, TESSERA_HBM_SIZE);
  n_exp = 0;
  if (exp_err == 0) dma_tensor_run(j->sw, j->dw, j->off, o->expect_axi_err ? scratch_rd : dtb_mem_read8, exp_wr);
  CHECK(n_exp < MAXB, "test too large");
  memcpy(exp_sorted, exp_addr, n_exp * sizeof exp_addr[0]);
  qsort(exp_sorted, n_exp, sizeof exp_sorted[0], cmp_u32);
  uint32_t maddr = 0x30400100u + (rnd() % 16) * 4, mdata = rnd();
  dtb_apb_write(OFF(TSRC), j->sdesc);
  dtb_apb_write(OFF(TDST), j->ddesc);
  for (unsigned d = 0; d < 5; d++) dtb_apb_write(OFF(TOFF0) + 4 * d, (uint32_t)j->off[d]);
  dtb_apb_write(OFF(MSG_ADDR), maddr);
  dtb_apb_write(OFF(MSG_DATA), mdata);
  dtb_apb_write(OFF(MSG_CTRL), o->msg_en ? 1u : 0u);
  dtb_writes_clear();
  /* mode/esize bits are ignored in tensor mode */
  dtb_apb_write(OFF(CTRL), DMA__CTRL__GO_bm | DMA__CTRL__TENSOR_bm | ((rnd() & 3u) << DMA__CTRL__MODE_bp));
  uint32_t st = 0;
  uint64_t t0 = dtb_cycle();
  for (;;) {
    for (int k = 0; k < 16; k++) dtb_step();
    dtb_apb_read(OFF(STATUS), &st);
    if (!(st & DMA__STATUS__BUSY_bm)) break;
    CHECK(dtb_cycle() - t0 < 4000000, "hang: tensor DMA busy after 4M cycles (STATUS 0x%x)", st);
  }
  uint32_t err = (st & DMA__STATUS__ERR_bm) >> DMA__STATUS__ERR_bp;
  dtb_apb_read(OFF(PERF_BUSY), &last_busy);
  CHECK(st & DMA__STATUS__DONE_bm, "STATUS.done not set (0x%x)", st);
  CHECK(dtb_idle(), "idle_o low after the transfer");
  if (o->expect_axi_err) CHECK(err == DMA_ERR_AXI, "error %u, expected AXI (5)", err);
  else CHECK(err == exp_err, "error %u, model %u", err, exp_err);
  CHECK(dtb_irq() == (err != 0), "irq_o %d with error %u", dtb_irq(), err);
  /* every written byte is a destination element byte (none at all for a refused copy) */
  unsigned nb = dtb_wbytes(tbytes, sizeof tbytes / sizeof tbytes[0]);
  CHECK(nb <= sizeof tbytes / sizeof tbytes[0], "too many bytes written (%u)", nb);
  if (err != 0 && err != DMA_ERR_AXI) CHECK(nb == 0, "refused copy (error %u) wrote %u bytes", err, nb);
  for (unsigned i = 0; i < nb; i++)
    CHECK(bsearch(&tbytes[i], exp_sorted, n_exp, sizeof exp_sorted[0], cmp_u32),
          "stray write at 0x%08x (err %u)", tbytes[i], err);
  if (err == 0) { t_ok++; t_elems += dma_tensor_count(j->dw); t_bytes += n_exp; }
  else t_refused++;
  if (err == 0) {
    CHECK(nb == n_exp, "%u bytes written, model %u", nb, n_exp);
    for (unsigned i = 0; i < n_exp; i++)
      CHECK(dtb_mem_read8(exp_addr[i]) == exp_val[i], "byte at 0x%08x = 0x%02x, model 0x%02x (element %u)",
            exp_addr[i], dtb_mem_read8(exp_addr[i]), exp_val[i], i);
  }
  uint32_t a, dd;
  int got = dtb_msg_pop(&a, &dd);
  int want = o->msg_en && (err == 0 || err == DMA_ERR_AXI);
  CHECK(got == want, "completion message %s", got ? "unexpected" : "missing");
  if (got) CHECK(a == maddr && dd == mdata, "completion message (0x%x, 0x%x)", a, dd);
  CHECK(!dtb_msg_pop(&a, &dd), "more than one completion message");
  CHECK(!dtb_burst_crossed_256() && dtb_max_burst_beats() <= 8, "AXI burst crosses 256 B or > 8 beats");
  return 0;
}

static uint32_t dtype_of(unsigned lg) {
  static const uint32_t c1[] = {3, 4, 7, 10}, c2[] = {1, 2, 6, 9}, c4[] = {0, 5, 8};
  return lg == 0 ? c1[rnd() % 4] : lg == 1 ? c2[rnd() % 4] : c4[rnd() % 3];
}

/* A dense layout of the given sizes in a random dimension order (dim 0 first and
 * positive if fast), with random gaps and negative strides, placed at region (plus an
 * element-aligned offset) so that the footprint starts at or after region. */
static void rand_layout(uint32_t w[16], unsigned nd, const uint32_t size[5], unsigned lg, uint32_t region,
                        int fast) {
  unsigned perm[5] = {0, 1, 2, 3, 4};
  for (unsigned i = nd - 1; i > 0; i--) {
    unsigned k = rnd() % (i + 1), t = perm[i];
    perm[i] = perm[k]; perm[k] = t;
  }
  if (fast)
    for (unsigned i = 0; i < nd; i++)
      if (perm[i] == 0) { perm[i] = perm[0]; perm[0] = 0; }
  int64_t pitch = 1, stride[5] = {0, 0, 0, 0, 0}, neg = 0;
  for (unsigned i = 0; i < nd; i++) {
    unsigned d = perm[i];
    stride[d] = pitch;
    pitch *= size[d];
    if (chance(25)) pitch += rnd() % 5;
  }
  for (unsigned d = 0; d < nd; d++)
    if (chance(30) && !(fast && d == 0)) { stride[d] = -stride[d]; neg += (int64_t)(size[d] - 1) * -stride[d]; }
  memset(w, 0, 16 * sizeof w[0]);
  w[0] = region + (uint32_t)((neg + rnd() % 48) << lg);
  w[1] = dtype_of(lg) | (nd << 4);
  w[2] = rnd();
  for (unsigned d = 0; d < 5; d++) {
    w[3 + d] = d < nd ? size[d] : (chance(50) ? 1 : rnd());   /* dims >= ndims: ignored */
    w[8 + d] = d < nd ? (uint32_t)stride[d] : rnd();
  }
}

static tjob_t rand_tjob(int fast, unsigned max_elems) {
  tjob_t j;
  memset(&j, 0, sizeof j);
  unsigned lg = rnd() % 3;
  unsigned dnd = 1 + rnd() % 5, snd = chance(70) ? dnd : 1 + rnd() % 5;
  uint32_t dsz[5], ssz[5];
  uint64_t n = 1;
  for (unsigned d = 0; d < 5; d++) {
    dsz[d] = d >= dnd ? 1 : d == 0 ? 1 + rnd() % (fast ? 160 : 12) : 1 + rnd() % (chance(20) ? 1 : 7);
    while (n * dsz[d] > max_elems) dsz[d] = dsz[d] / 2 + 0;
    if (dsz[d] == 0) dsz[d] = 1;
    n *= dsz[d];
  }
  for (unsigned d = 0; d < 5; d++) {
    ssz[d] = d >= snd ? 1 : (uint32_t)(1 + rnd() % (dsz[d] + 3));
    j.off[d] = d < dnd ? (int32_t)(rnd() % 7) - 3 : (chance(5) ? 1 : 0);
    if (chance(4)) j.off[d] = chance(50) ? 100000 : -100000;   /* whole rows of pad */
  }
  rand_layout(j.dw, dnd, dsz, lg, hbm((8u << 20) + 32 * (rnd() % 1024)), fast);
  rand_layout(j.sw, snd, ssz, lg, hbm(32 * (rnd() % 1024)), fast);
  if (!fast && chance(10) && snd > 1) j.sw[8 + 1 + rnd() % (snd - 1)] = 0;   /* broadcast a dim */
  j.sdesc = hbm((16u << 20) + 64 * (rnd() % 256));
  j.ddesc = j.sdesc + 64 * (1 + rnd() % 16);
  return j;
}

static int tensor_loop(int n, int fast_pct) {
  fresh();
  t_ok = t_refused = 0;
  t_elems = t_bytes = 0;
  for (int i = 0; i < n; i++) {
    if (i % 8 == 0) env_random();
    int fast = chance(fast_pct);
    tjob_t j = rand_tjob(fast, 600);
    run_opts_t o = {chance(60), 0};
    if (run_tensor(&j, &o)) {
      size_t l = strlen(fail_msg);
      snprintf(fail_msg + l, sizeof fail_msg - l, " [iter %d, dtype %u/%u ndims %u/%u, dst size %u %u %u %u %u "
               "stride %d %d %d %d %d, src size %u %u %u %u %u stride %d %d %d %d %d, off %d %d %d %d %d]", i,
               j.sw[1] & 15, j.dw[1] & 15, j.sw[1] >> 4, j.dw[1] >> 4, j.dw[3], j.dw[4], j.dw[5], j.dw[6], j.dw[7],
               (int)j.dw[8], (int)j.dw[9], (int)j.dw[10], (int)j.dw[11], (int)j.dw[12], j.sw[3], j.sw[4], j.sw[5],
               j.sw[6], j.sw[7], (int)j.sw[8], (int)j.sw[9], (int)j.sw[10], (int)j.sw[11], (int)j.sw[12],
               j.off[0], j.off[1], j.off[2], j.off[3], j.off[4]);
      return 1;
    }
  }
  printf("  %u copies (%llu elements, %llu bytes), %u refused\n", t_ok, (unsigned long long)t_elems,
         (unsigned long long)t_bytes, t_refused);
  return 0;
}
static int t_tensor(void) { return tensor_loop(150, 0); }
static int t_tensor_fast(void) { return tensor_loop(150, 100); }

static int t_tensor_errors(void) {
  fresh();
  for (int k = 0; k < 17; k++) {
    tjob_t j = rand_tjob(chance(50), 200);
    unsigned lg = dma_tensor_lg(j.sw[1] & 15);
    unsigned snd = (j.sw[1] >> 4) & 7, dnd = (j.dw[1] >> 4) & 7;
    int axi = 0;
    switch (k) {
      case 0: j.sdesc += 32; break;
      case 1: j.ddesc = TESSERA_HBM_BASE - 64; break;
      case 2: j.ddesc = TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 32; j.ddesc &= ~63u; j.ddesc += 64; break;
      case 3: j.dw[1] = (j.dw[1] & ~15u) | 11; break;
      case 4: j.sw[1] &= ~0x70u; break;
      case 5: j.dw[1] = (j.dw[1] & ~0x70u) | (6u << 4); break;
      case 6: j.dw[3 + rnd() % dnd] = 0; break;
      case 7: j.sw[3 + rnd() % snd] = (1u << 24) + 1; break;
      case 8: j.dw[1] |= 1u << (7 + rnd() % 25); break;
      case 9:
        if (lg == 0) { j.sw[1] = (j.sw[1] & ~15u) | 1; j.dw[1] = (j.dw[1] & ~15u) | 2; lg = 1; }
        j.sw[0] &= ~((1u << lg) - 1);
        j.dw[0] = (j.dw[0] & ~((1u << lg) - 1)) + 1 + rnd() % ((1u << lg) - 1);
        break;
      case 10: j.dw[1] = (j.dw[1] & ~15u) | dtype_of((lg + 1 + rnd() % 2) % 3); break;
      case 11: j.dw[0] = TESSERA_HBM_BASE + TESSERA_HBM_SIZE - (2u << lg); j.dw[3] = 3; j.dw[8] = 1; break;
      case 12: j.sw[0] = TESSERA_HBM_BASE; j.sw[3] = 2; j.sw[8] = (uint32_t)-1; break;
      case 13: j.dw[1] = (j.dw[1] & 15u) | (1u << 4); j.dw[3] = 1u << 24; j.dw[8] = 1u << 20; break;
      default: {
        /* AXI errors: a descriptor beat, a source beat, a destination beat */
        axi = 1;
        memset(j.off, 0, sizeof j.off);
        uint32_t a = k == 14 ? j.ddesc : k == 15 ? j.sw[0] : j.dw[0];
        /* the source layout must hold the copied sizes: lay it out again */
        uint32_t sz[5];
        for (int d = 0; d < 5; d++) sz[d] = j.dw[3 + d];
        rand_layout(j.sw, (j.dw[1] >> 4) & 7, sz, lg, hbm(32 * (rnd() % 1024)), 0);
        j.sw[1] = (j.sw[1] & ~15u) | (j.dw[1] & 15u);
        if (k == 15) a = j.sw[0];
        dtb_mem_set_err(a);
        break;
      }
    }
    run_opts_t o = {1, axi};
    unsigned e = dma_tensor_check(j.sw, j.dw, j.sdesc, j.ddesc, TESSERA_HBM_BASE, TESSERA_HBM_SIZE);
    CHECK(axi ? e == 0 : e != 0, "case %d: model error %u", k, e);
    if (run_tensor(&j, &o)) { size_t l = strlen(fail_msg); snprintf(fail_msg + l, sizeof fail_msg - l, " [case %d]", k); return 1; }
    dtb_mem_clear();
  }
  return 0;
}

static double frac_lin, frac_str, frac_fill, frac_tr2, frac_tr4;
static uint32_t bench_e;
static int bench_one(int mode, double *frac) {
  fresh();
  bench_wr_alloc = 1;
  dma_desc_t d = rand_desc(mode);
  if (bench_e) d.ebytes = bench_e;
  if (mode == DMA_MODE_LINEAR) d.size = 65536;
  else if (mode == DMA_MODE_TRANSPOSE) { d.c1 = 128; d.size = 256; d.ss1 = 256; d.ds1 = 128 * d.ebytes; }
  else { d.size = 1024; d.c1 = 16; d.c2 = 4; d.ss1 = 2048; d.ss2 = 65536; d.ds1 = 1024; d.ds2 = 16384; }
  run_opts_t o = {0, 0};
  if (run(&d, &o)) return 1;
  uint32_t bytes = d.size * (mode == DMA_MODE_LINEAR ? 1 : mode == DMA_MODE_TRANSPOSE ? d.c1 : d.c1 * d.c2);
  *frac = (double)bytes / 32.0 / last_busy;
  char name[48];
  snprintf(name, sizeof name, "dma_block/%s%s", mode == DMA_MODE_LINEAR ? "linear" : mode == DMA_MODE_TRANSPOSE
           ? "transpose_e" : mode == DMA_MODE_FILL ? "memset" : "strided", mode == DMA_MODE_TRANSPOSE
           ? (d.ebytes == 2 ? "2" : "4") : "");
  bench_record(name, NULL, last_busy, (double)bytes / 32.0, "\"bytes\":%u,\"hbm_latency\":%u", bytes,
               TESSERA_HBM_LATENCY_CYCLES);
  return 0;
}
static int t_bench(void) {
  host_sides = 0;
  if (bench_one(DMA_MODE_LINEAR, &frac_lin)) return 1;
  if (bench_one(DMA_MODE_STRIDED, &frac_str)) return 1;
  if (bench_one(DMA_MODE_FILL, &frac_fill)) return 1;
  bench_e = 2;
  if (bench_one(DMA_MODE_TRANSPOSE, &frac_tr2)) return 1;
  bench_e = 4;
  if (bench_one(DMA_MODE_TRANSPOSE, &frac_tr4)) return 1;
  bench_e = 0;
  /* tensor mode: contiguous 64 KiB (aligned; unaligned 1-byte elements), 128x128 4-byte
   * transpose by strides */
  double ft[3];
  for (int k = 0; k < 3; k++) {
    fresh();
    tjob_t j;
    memset(&j, 0, sizeof j);
    j.sdesc = hbm(16u << 20);
    j.ddesc = j.sdesc + 64;
    if (k < 2) {
      unsigned lg = k == 0 ? 2 : 0;
      j.sw[0] = hbm(k == 0 ? 0 : 3);
      j.dw[0] = hbm((8u << 20) + (k == 0 ? 0 : 17));
      j.sw[1] = j.dw[1] = dtype_of(lg) | (1u << 4);
      j.sw[3] = j.dw[3] = 65536u >> lg;
      j.sw[8] = j.dw[8] = 1;
    } else {
      j.sw[0] = hbm(0);
      j.dw[0] = hbm(8u << 20);
      j.sw[1] = j.dw[1] = 0 | (2u << 4);
      j.sw[3] = j.sw[4] = j.dw[3] = j.dw[4] = 128;
      j.dw[8] = 1; j.dw[9] = 128;      /* dst[r][c] row-major */
      j.sw[8] = 128; j.sw[9] = 1;      /* read src[c][r] */
    }
    run_opts_t o = {0, 0};
    if (run_tensor(&j, &o)) return 1;
    ft[k] = 65536.0 / 32.0 / last_busy;
    printf("  tensor %s: %u busy cycles, %.1f%%\n",
           k == 0 ? "contiguous 64 KiB (FP32, aligned)" : k == 1 ? "contiguous 64 KiB (INT8, src +3 / dst +17 bytes)"
                                                      : "transpose 128x128 FP32 by strides",
           last_busy, 100 * ft[k]);
    bench_record(k == 0 ? "dma_block/tensor_contig_fp32" : k == 1 ? "dma_block/tensor_contig_int8_unaligned"
                 : "dma_block/tensor_transpose_fp32", NULL, last_busy, 65536.0 / 32.0, "\"bytes\":65536");
  }
  printf("  throughput (bytes written / busy cycle / 32 B, read latency %u): linear 64 KiB %.1f%%, "
         "strided 16x4 rows of 1 KiB %.1f%%, memset %.1f%%\n",
         TESSERA_HBM_LATENCY_CYCLES, 100 * frac_lin, 100 * frac_str, 100 * frac_fill);
  printf("  transpose 128 rows x 256 B: 2-byte elements %.1f%%, 4-byte elements %.1f%%\n", 100 * frac_tr2,
         100 * frac_tr4);
  /* host<->device linear copies, 64 KiB, host port read latency as configured (the host
   * port of this testbench has no bandwidth limit: the engine's bound) */
  double fh[2];
  for (int k = 0; k < 2; k++) {
    fresh();
    dma_desc_t d = rand_desc(DMA_MODE_LINEAR);
    d.size = 65536;
    if (k == 0) d.src = host(0); else d.dst = host(8u << 20);
    run_opts_t o = {0, 0};
    if (run(&d, &o)) return 1;
    fh[k] = (double)d.size / 32.0 / last_busy;
    bench_record(k == 0 ? "dma_block/host_h2d" : "dma_block/host_d2h", NULL, last_busy, (double)d.size / 32.0,
                 "\"bytes\":%u,\"host_latency\":%u", (unsigned)d.size, TESSERA_HOST_LATENCY_CYCLES);
  }
  printf("  host->device 64 KiB %.1f%%, device->host 64 KiB %.1f%% (host read latency %u)\n", 100 * fh[0],
         100 * fh[1], TESSERA_HOST_LATENCY_CYCLES);
  host_sides = 1;
  return 0;
}

typedef struct { const char *name; int (*fn)(void); } test_t;
int dma_tests_main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int bench = 0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--test") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--bench")) bench = 1;
    else if (argv[i][0] != '+') { /* +args are Verilator's (Verilated::commandArgs) */
      fprintf(stderr, "usage: %s [--seed N] [--test NAME] [--bench]\n", argv[0]);
      return 2;
    }
  }
  printf("dma tests: seed %llu (reproduce with --seed %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
  static const test_t tests[] = {{"linear", t_linear}, {"strided", t_strided}, {"fill", t_fill}, {"transpose", t_transpose},
                                 {"errors", t_errors}, {"control", t_control},
                                 {"tensor", t_tensor}, {"tensor_fast", t_tensor_fast}, {"tensor_errors", t_tensor_errors}, {"bench", t_bench}};
  unsigned pass = 0, fail = 0;
  for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    if (bench && strcmp(tests[i].name, "bench")) continue;
    if (only && strcmp(tests[i].name, only)) continue;
    rng_state = seed * 0x9E3779B97F4A7C15ull + i + 1;
    if (!rng_state) rng_state = 1;
    fail_msg[0] = 0;
    uint64_t c0 = dtb_cycle();
    int r = tests[i].fn();
    if (r == 0) { pass++; printf("PASS %s (%llu cycles)\n", tests[i].name, (unsigned long long)(dtb_cycle() - c0)); }
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
