/* Chip-level tests of the device memory as the configuration has it (config/tessera.toml
 * `device_memory`): the HBM channel models (proto, tiny) or the board's SDR SDRAM behind
 * the channel mux and the SDRAM controller (ulx3s; docs/sdram.md "In the chip model").
 * The same tests run on both, so their DEVMEM lines compare the two:
 *   devmem/gemm_32      one fixed-size BF16 GEMM (32x32x32, FP32 C) on MME 0, cold L2
 *   devmem/dma_copy_16k one 16 KiB device-to-device copy on DMA engine 0
 *   devmem/window_end   the last bytes below the populated size and the first above it
 * With the SDRAM every run also fails on any timing violation the SDRAM model flags
 * (tests/framework/tf.c), and these tests check that the model saw traffic. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip_gemm.h"
#include "dma_model.h"
#include "regs/dma_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define DMA_REG(d, r) (TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, r))
#define HBM(off) (TESSERA_HBM_BASE + (uint32_t)(off))
/* the populated device memory: the SDRAM's size, or the HBM model populated to 64 MiB */
#define POPULATED (TESSERA_DEVMEM_SDRAM ? TESSERA_DEVMEM_BYTES : (64u << 20))

static const char *devmem_name(void) { return tsim_has_sdram() ? "SDRAM" : "HBM"; }

/* the SDRAM model took part (reads and writes) and flagged nothing; no-op with HBM */
static int sdram_used(tf_ctx_t *t) {
  if (!tsim_has_sdram()) return TF_PASS;
  tsim_sdram_stats_t sd;
  tsim_sdram_stats(t->sim, &sd);
  tf_log(t, "SDRAM: %llu ACT, %llu READ, %llu WRITE, %llu REFRESH, longest refresh gap %llu cycles",
         (unsigned long long)sd.acts, (unsigned long long)sd.reads, (unsigned long long)sd.writes,
         (unsigned long long)sd.refreshes, (unsigned long long)sd.max_ref_gap);
  if (sd.reads == 0 || sd.writes == 0 || sd.refreshes == 0)
    return tf_fail(t, "the SDRAM model saw %llu reads, %llu writes, %llu refreshes",
                   (unsigned long long)sd.reads, (unsigned long long)sd.writes,
                   (unsigned long long)sd.refreshes);
  TF_CHECK_EQ(t, sd.violations, 0);
  return TF_PASS;
}

TF_TEST(devmem, gemm_32, 3000000) {
  cjob_t j;
  memset(&j, 0, sizeof j);
  j.g.m = 32;
  j.g.n = 32;
  j.g.k = 32;
  j.g.ta = NF_BF16;
  j.g.tb = NF_BF16;
  j.g.tc = NF_FP32;
  j.g.sat = 1;
  cjob_prepare(t, &j, HBM(0x100000u));
  uint64_t cyc = 0;
  int rc = cjob_run(t, &j, 1u, 0, &cyc);  /* checks C against the golden model */
  cjob_free(&j);
  if (rc != TF_PASS) return rc;
  printf("DEVMEM %s %s: GEMM 32x32x32 BF16 -> FP32 on MME 0 (%ux%u), cold L2: %llu cycles\n",
         TESSERA_CONFIG_NAME, devmem_name(), TESSERA_MME_ROWS, TESSERA_MME_COLS, (unsigned long long)cyc);
  return sdram_used(t);
}

static int dma_idle(tsim_t *s, void *ctx) {
  (void)ctx;
  uint32_t st = 0;
  if (tsim_host_read32(s, DMA_REG(0, STATUS), &st) != TSIM_OK) return 1;
  return !(st & DMA__STATUS__BUSY_bm);
}

/* DMA engine 0: copy size bytes src -> dst through its registers; *err = STATUS.err */
static int dma_copy(tf_ctx_t *t, uint32_t src, uint32_t dst, uint32_t size, uint64_t *cyc, uint32_t *err) {
  uint64_t t0 = tsim_cycles(t->sim);
  TF_CHECK_OK(t, tsim_host_write32(t->sim, DMA_REG(0, SRC), src));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, DMA_REG(0, DST), dst));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, DMA_REG(0, SIZE), size));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, DMA_REG(0, CTRL), DMA__CTRL__GO_bm));
  TF_CHECK_OK(t, tsim_run_until(t->sim, dma_idle, NULL, 1000000, 16));
  if (cyc) *cyc = tsim_cycles(t->sim) - t0;
  uint32_t st = 0;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, DMA_REG(0, STATUS), &st));
  *err = (st & DMA__STATUS__ERR_bm) >> DMA__STATUS__ERR_bp;
  return TF_PASS;
}

static void fill(tf_ctx_t *t, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i += 4) {
    uint32_t v = tf_rand32(t);
    memcpy(p + i, &v, 4);
  }
}

/* Compare device memory (back door) with want; tf_fail with the first difference. */
static int mem_equal(tf_ctx_t *t, uint32_t addr, const uint8_t *want, size_t n, const char *what) {
  uint8_t *got = malloc(n);
  TF_CHECK_OK(t, tsim_mem_read(t->sim, addr, got, n));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ == 0) first = i;
  free(got);
  if (bad) return tf_fail(t, "%s: %zu of %zu bytes differ, the first at 0x%08x", what, bad, n, addr + (uint32_t)first);
  return TF_PASS;
}

TF_TEST(devmem, dma_copy_16k, 1000000) {
  const uint32_t size = 16384, src = HBM(0x200000u), dst = HBM(0x300000u);
  uint8_t *data = malloc(size);
  fill(t, data, size);
  int rc = TF_PASS;
  uint64_t cyc = 0;
  uint32_t err = 0;
  if (tsim_mem_write(t->sim, src, data, size) != TSIM_OK) rc = tf_fail(t, "back door: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) rc = dma_copy(t, src, dst, size, &cyc, &err);
  if (rc == TF_PASS && err) rc = tf_fail(t, "DMA error %u", err);
  if (rc == TF_PASS && tsim_l2_flush_all(t->sim) != TSIM_OK) rc = tf_fail(t, "L2 flush: %s", tsim_last_error(t->sim));
  if (rc == TF_PASS) rc = mem_equal(t, dst, data, size, "DMA copy");
  free(data);
  if (rc != TF_PASS) return rc;
  printf("DEVMEM %s %s: DMA copy 16 KiB device -> device: %llu cycles (%.2f bytes/cycle)\n",
         TESSERA_CONFIG_NAME, devmem_name(), (unsigned long long)cyc, (double)size / (double)cyc);
  return sdram_used(t);
}

/* The end of the populated device memory: the last 4 KiB below it work from the back door
 * and the front door (host port, DMA); above it a host read is answered with a bus error,
 * a DMA read and a DMA write (not allocated in the L2) end with ErrAxi, and the write
 * changes nothing anywhere (with
 * the SDRAM: not at the address it would alias to, 32 MiB lower). */
TF_TEST(devmem, window_end, 2000000) {
  const uint32_t pop = POPULATED, last = HBM(pop - 4096u), hole = HBM(pop);
  if (!tsim_has_sdram()) tsim_hbm_set_size(t->sim, pop);
  uint8_t buf[4096], low[4096];
  fill(t, buf, sizeof buf);
  TF_CHECK_OK(t, tsim_mem_write(t->sim, last, buf, sizeof buf));
  /* front door at the last word written by the back door */
  uint32_t v = 0, w;
  TF_CHECK_OK(t, tsim_host_read32(t->sim, last + 4092u, &v));
  memcpy(&w, buf + 4092, 4);
  TF_CHECK_EQ(t, v, w);
  /* the SDRAM's back door ends at its size (refused, not aliased); the HBM model's covers
   * the window whatever its populated size */
  if (tsim_has_sdram() && tsim_mem_read(t->sim, hole, &v, 4) != TSIM_EADDR)
    return tf_fail(t, "back-door read at 0x%08x above the populated size did not fail", hole);
  /* front door beyond it */
  if (tsim_host_read32(t->sim, hole + 0x100u, &v) != TSIM_EBUS)
    return tf_fail(t, "host read at 0x%08x above the populated size did not fail", hole + 0x100u);
  /* DMA: the last 4 KiB copied down to a low buffer, then reads and writes in the hole */
  uint32_t err = 0;
  const uint32_t dst = HBM(0x100000u);
  fill(t, low, sizeof low);
  TF_CHECK_OK(t, tsim_mem_write(t->sim, dst, low, sizeof low));
  TF_CHECK_OK(t, tsim_mem_write(t->sim, HBM(0), low, sizeof low));  /* where the hole would alias to */
  int rc = dma_copy(t, last, dst, 4096, NULL, &err);
  if (rc != TF_PASS) return rc;
  TF_CHECK_EQ(t, err, 0);
  rc = dma_copy(t, hole + 0x1000u, dst + 0x10000u, 1024, NULL, &err);
  if (rc != TF_PASS) return rc;
  TF_CHECK_EQ(t, err, DMA_ERR_AXI);
  /* the write without L2 allocation, so its DECERR comes back to the engine (an allocated
   * full line would fail only at its write-back: l2/unmapped_access_engine_error) */
  TF_CHECK_OK(t, tsim_host_write32(t->sim, DMA_REG(0, CACHE), DMA__CACHE__RD_ALLOC_bm));
  rc = dma_copy(t, dst, hole, 4096, NULL, &err);
  if (rc != TF_PASS) return rc;
  TF_CHECK_EQ(t, err, DMA_ERR_AXI);
  TF_CHECK_OK(t, tsim_l2_flush_all(t->sim));
  rc = mem_equal(t, dst, buf, sizeof buf, "DMA copy of the last 4 KiB");
  if (rc == TF_PASS) rc = mem_equal(t, HBM(0), low, sizeof low, "memory at the wrapped address of the hole");
  if (rc == TF_PASS) rc = mem_equal(t, last, buf, sizeof buf, "the last 4 KiB");
  if (rc != TF_PASS) return rc;
  printf("DEVMEM %s %s: populated 0x%08x..0x%08x, access above it: host read bus error, DMA ErrAxi\n",
         TESSERA_CONFIG_NAME, devmem_name(), TESSERA_HBM_BASE, TESSERA_HBM_BASE + pop - 1u);
  return sdram_used(t);
}
