/* Suite `hostlink`, memory-access rules of the host library and of the simulator's
 * host port and back door (docs/hostlink.md "Memory access rules"):
 *
 *   rom_readonly   no client path writes the boot ROM: hl_write / hl_write32 / hl_load
 *                  staged in the ROM, the sim transport's range op (what `chip_tb
 *                  --serve` calls), the back door and the host port all refuse, with a
 *                  message naming the ROM, and the ROM keeps its contents
 *   unaligned      32-bit accesses at an address that is not a multiple of 4 are
 *                  refused (library, transport ops, simulator host port) and change
 *                  nothing; byte ranges in memory stay byte-granular
 *   bulk_bounds    ranges outside the memory map, or running past the end of a
 *                  region, are refused before any access (no cycle passes, no byte
 *                  changes); a multi-MiB range round-trips through hl_write / hl_read
 *                  against the back door
 *   bench_bulk     (bench) words/s of 32-bit reads and of range reads on the sim transport */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hostlink.h"
#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define MSYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define ROM_END (TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES)

static int mem_open(tf_ctx_t *t, hl_dev_t **d) {
  if (hl_open_sim_attach(t->sim, d) != HL_OK) return tf_fail(t, "hl_open_sim_attach failed");
  return TF_PASS;
}

/* the call must return `want` and hl_error must contain `text` */
static int expect(tf_ctx_t *t, hl_dev_t *d, const char *what, int rc, int want, const char *text) {
  if (rc != want) return tf_fail(t, "%s: rc %d (%s: %s), expected %d", what, rc, hl_strerror(rc), hl_error(d), want);
  if (text && !strstr(hl_error(d), text)) return tf_fail(t, "%s: message '%s' lacks '%s'", what, hl_error(d), text);
  tf_log(t, "%s: %s", what, hl_error(d));
  return TF_PASS;
}
#define EXPECT(t, d, what, call, want, text)                     \
  do {                                                           \
    int r_ = expect((t), (d), (what), (call), (want), (text));   \
    if (r_ != TF_PASS) {                                         \
      hl_close(d);                                               \
      return r_;                                                 \
    }                                                            \
  } while (0)

TF_TEST(hostlink, rom_readonly, 400000) {
  hl_dev_t *d;
  int r = mem_open(t, &d);
  if (r != TF_PASS) return r;
  static uint8_t rom0[TESSERA_BOOTROM_BYTES], rom1[TESSERA_BOOTROM_BYTES];
  TF_CHECK_OK(t, tsim_mem_read(t->sim, TESSERA_BOOTROM_BASE, rom0, sizeof rom0));
  uint8_t junk[64];
  for (unsigned i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)tf_rand32(t);
  const uint32_t off = 4u * tf_rand_below(t, TESSERA_BOOTROM_BYTES / 4 - 16);
  tf_log(t, "ROM offset 0x%x", off);

  EXPECT(t, d, "hl_write ROM", hl_write(d, TESSERA_BOOTROM_BASE + off, junk, sizeof junk), HL_EBUS, "read-only");
  EXPECT(t, d, "hl_write32 ROM", hl_write32(d, TESSERA_BOOTROM_BASE + off, 0xDEADBEEFu), HL_EBUS, "read-only");
  EXPECT(t, d, "hl_write across the ROM end", hl_write(d, ROM_END - 8, junk, 16), HL_EBUS, "read-only");
  /* the transport's own range op: what the tcp server calls for a client's WRITE frame */
  void *ctx;
  const hl_ops_t *ops = hl_transport(d, &ctx);
  int rc = ops->write(ctx, TESSERA_BOOTROM_BASE + off, junk, sizeof junk);
  if (rc != HL_EBUS) return tf_fail(t, "sim transport write to the ROM: rc %d, expected HL_EBUS", rc);
  rc = ops->write32(ctx, TESSERA_BOOTROM_BASE + off, 0x12345678u);
  if (rc != HL_EBUS) return tf_fail(t, "sim transport write32 to the ROM: rc %d, expected HL_EBUS", rc);
  /* the simulator's back door and host port */
  rc = tsim_mem_write(t->sim, TESSERA_BOOTROM_BASE + off, junk, sizeof junk);
  if (rc != TSIM_EBUS || !strstr(tsim_last_error(t->sim), "read-only"))
    return tf_fail(t, "tsim_mem_write to the ROM: rc %d (%s), expected TSIM_EBUS", rc, tsim_last_error(t->sim));
  rc = tsim_mem_write32(t->sim, TESSERA_BOOTROM_BASE, 0);
  if (rc != TSIM_EBUS) return tf_fail(t, "tsim_mem_write32 to the ROM: rc %d, expected TSIM_EBUS", rc);
  rc = tsim_host_write32(t->sim, TESSERA_BOOTROM_BASE + off, 0x12345678u);
  if (rc != TSIM_EBUS) return tf_fail(t, "host-port write to the ROM: rc %d, expected TSIM_EBUS", rc);
  /* an image staged in the ROM */
  const char *img = tf_build_path("sw/firmware/firmware.img");
  if (tf_file_exists(img))
    EXPECT(t, d, "hl_load staged at 0x100", hl_load(d, img, TESSERA_BOOTROM_BASE + 0x100u, 0, 100000), HL_EBUS,
           "read-only");
  else if (tf_sw_expected(img))
    return tf_fail(t, "%s is listed in SW_ALL but was not built", img);

  TF_CHECK_OK(t, tsim_mem_read(t->sim, TESSERA_BOOTROM_BASE, rom1, sizeof rom1));
  for (unsigned i = 0; i < sizeof rom0; i++)
    if (rom0[i] != rom1[i]) return tf_fail(t, "ROM byte 0x%x changed: 0x%02x -> 0x%02x", i, rom0[i], rom1[i]);
  /* reads still work, through the library and the host port */
  uint32_t w = 0, v = 0;
  TF_CHECK(t, hl_read(d, TESSERA_BOOTROM_BASE + off, &w, 4) == HL_OK);
  TF_CHECK_OK(t, tsim_host_read32(t->sim, TESSERA_BOOTROM_BASE + off, &v));
  TF_CHECK_EQ(t, w, v);
  hl_close(d);
  return TF_PASS;
}

TF_TEST(hostlink, unaligned, 400000) {
  hl_dev_t *d;
  int r = mem_open(t, &d);
  if (r != TF_PASS) return r;
  const uint32_t base = TESSERA_HBM_BASE + 0x10000u + 16u * tf_rand_below(t, 4096);
  uint8_t pat[16], got[16];
  for (unsigned i = 0; i < sizeof pat; i++) pat[i] = (uint8_t)tf_rand32(t);
  TF_CHECK_OK(t, tsim_mem_write(t->sim, base, pat, sizeof pat));
  uint32_t sc0 = 0, sc = 0;
  TF_CHECK(t, hl_read32(d, MSYSC(SCRATCH0), &sc0) == HL_OK);
  const uint64_t c0 = tsim_cycles(t->sim);
  for (uint32_t k = 1; k < 4; k++) {
    uint32_t a = base + 4u + k, v = 0;
    char what[64];
    snprintf(what, sizeof what, "hl_read32 0x%08x", a);
    EXPECT(t, d, what, hl_read32(d, a, &v), HL_EARG, "not 4-byte aligned");
    snprintf(what, sizeof what, "hl_write32 0x%08x", a);
    EXPECT(t, d, what, hl_write32(d, a, 0xA5A5A5A5u), HL_EARG, "not 4-byte aligned");
    snprintf(what, sizeof what, "hl_write32 register 0x%08x", MSYSC(SCRATCH0) + k);
    EXPECT(t, d, what, hl_write32(d, MSYSC(SCRATCH0) + k, 1u), HL_EARG, "not 4-byte aligned");
    /* the transport's ops (what the tcp server calls) and the simulator's host port */
    void *ctx;
    const hl_ops_t *ops = hl_transport(d, &ctx);
    int rc = ops->read32(ctx, a, &v);
    if (rc != HL_EARG) return tf_fail(t, "sim transport read32 0x%08x: rc %d, expected HL_EARG", a, rc);
    rc = ops->write32(ctx, a, 0x5A5A5A5Au);
    if (rc != HL_EARG) return tf_fail(t, "sim transport write32 0x%08x: rc %d, expected HL_EARG", a, rc);
    rc = tsim_host_read32(t->sim, a, &v);
    if (rc != TSIM_EARG || !strstr(tsim_last_error(t->sim), "not 4-byte aligned"))
      return tf_fail(t, "host-port read 0x%08x: rc %d (%s), expected TSIM_EARG", a, rc, tsim_last_error(t->sim));
    rc = tsim_host_write_be(t->sim, a, 0x5A5A5A5Au, 0xFu);
    if (rc != TSIM_EARG) return tf_fail(t, "host-port write 0x%08x: rc %d, expected TSIM_EARG", a, rc);
  }
  /* refused before the bus: no cycle passed, no byte changed */
  TF_CHECK_EQ(t, tsim_cycles(t->sim), c0);
  TF_CHECK_OK(t, tsim_mem_read(t->sim, base, got, sizeof got));
  for (unsigned i = 0; i < sizeof pat; i++)
    if (got[i] != pat[i]) return tf_fail(t, "byte %u at 0x%08x changed: 0x%02x -> 0x%02x", i, base, pat[i], got[i]);
  TF_CHECK(t, hl_read32(d, MSYSC(SCRATCH0), &sc) == HL_OK);
  TF_CHECK_EQ(t, sc, sc0);
  /* aligned accesses work; memory ranges stay byte-granular */
  uint32_t v = 0;
  TF_CHECK(t, hl_write32(d, base + 4u, 0x01020304u) == HL_OK);
  TF_CHECK(t, hl_read32(d, base + 4u, &v) == HL_OK);
  TF_CHECK_EQ(t, v, 0x01020304u);
  uint8_t b3[3] = {0x11, 0x22, 0x33}, r3[3] = {0};
  TF_CHECK(t, hl_write(d, base + 9u, b3, 3) == HL_OK);
  TF_CHECK(t, hl_read(d, base + 9u, r3, 3) == HL_OK);
  TF_CHECK(t, !memcmp(b3, r3, 3));
  TF_CHECK_EQ(t, tsim_mem_read32(t->sim, base + 8u) >> 8, 0x332211u);
  EXPECT(t, d, "unaligned register range", hl_read(d, MSYSC(SCRATCH0) + 2u, &v, 4), HL_EARG, "register range");
  hl_close(d);
  return TF_PASS;
}

TF_TEST(hostlink, bulk_bounds, 400000) {
  hl_dev_t *d;
  int r = mem_open(t, &d);
  if (r != TF_PASS) return r;
  /* the last 4 KiB of device memory hold a pattern; a write that runs past the end
   * must not change any of it (a word-by-word fallback would write it first) */
  const uint32_t last = TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES - 4096u;
  static uint8_t pat[4096], buf[8192], got[4096];
  for (unsigned i = 0; i < sizeof pat; i++) pat[i] = (uint8_t)tf_rand32(t);
  for (unsigned i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)~i;
  TF_CHECK_OK(t, tsim_mem_write(t->sim, last, pat, sizeof pat));
  const uint64_t c0 = tsim_cycles(t->sim);
  EXPECT(t, d, "write past the end of device memory", hl_write(d, last, buf, sizeof buf), HL_EARG,
         "runs past the end of the device memory");
  EXPECT(t, d, "read past the end of device memory", hl_read(d, last, buf, sizeof buf), HL_EARG,
         "runs past the end of the device memory");
  EXPECT(t, d, "read of a hole", hl_read(d, TESSERA_ISRAM_BASE - 4096u, buf, sizeof buf), HL_EARG,
         "outside the device memory map");
  EXPECT(t, d, "write of a hole", hl_write(d, TESSERA_HOST_BASE - 64u, buf, 64), HL_EARG,
         "outside the device memory map");
  EXPECT(t, d, "read from ISRAM into DSRAM", hl_read(d, TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES - 8u, buf, 16),
         HL_EARG, "runs past the end of the ISRAM");
  EXPECT(t, d, "register range past its block", hl_read(d, TESSERA_SYSCTRL_BASE + TESSERA_SYSCTRL_SIZE - 8u, buf, 16),
         HL_EARG, "runs past the end of the SYSCTRL registers");
  TF_CHECK_EQ(t, tsim_cycles(t->sim), c0);   /* no access reached the chip */
  TF_CHECK_OK(t, tsim_mem_read(t->sim, last, got, sizeof got));
  for (unsigned i = 0; i < sizeof pat; i++)
    if (got[i] != pat[i]) return tf_fail(t, "byte 0x%08x changed: 0x%02x -> 0x%02x", last + i, pat[i], got[i]);
  /* the map itself: every region named, its last byte inside, the next one outside it */
  const uint32_t probes[] = {TESSERA_BOOTROM_BASE, TESSERA_ISRAM_BASE, TESSERA_DSRAM_BASE, TESSERA_SYSCTRL_BASE,
                             TESSERA_QMAN_BASE, TESSERA_HOST_BASE, TESSERA_HBM_BASE};
  for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    const hl_region_t *g = hl_map_region(probes[i], 4);
    TF_CHECK(t, g && g->base == probes[i]);
    TF_CHECK(t, hl_map_region(g->base, g->size) == g);
    TF_CHECK(t, hl_map_region(g->base, (uint64_t)g->size + 1) == NULL);
  }
  /* a multi-MiB range round-trips (hl_write, back door, hl_read) */
  const uint32_t n = (3u << 20) + 4u * tf_rand_below(t, 1024);
  const uint32_t at = TESSERA_HBM_BASE + 0x200000u + 64u * tf_rand_below(t, 4096);
  uint8_t *a = malloc(n), *b = malloc(n);
  TF_CHECK(t, a && b);
  for (uint32_t i = 0; i < n; i++) a[i] = (uint8_t)(i * 7u + (i >> 11));
  int rc = hl_write(d, at, a, n);
  if (!rc) rc = tsim_mem_read(t->sim, at, b, n) ? HL_EIO : HL_OK;
  if (!rc && memcmp(a, b, n)) rc = HL_EBUS;
  if (!rc) memset(b, 0, n), rc = hl_read(d, at, b, n);
  if (!rc && memcmp(a, b, n)) rc = HL_EBUS;
  free(a);
  free(b);
  if (rc) return tf_fail(t, "%u-byte round trip at 0x%08x: rc %d (%s)", n, at, rc, hl_error(d));
  hl_close(d);
  return TF_PASS;
}

static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Host-side throughput of device-memory reads on the in-process simulator: one 32-bit
 * host-port access per word (what `hostlink read ADDR N` did for every N) against the
 * range path (back door). Wall-clock figures: they depend on the machine. */
TF_TEST_F(hostlink, bench_bulk, 2000000, TF_BENCH) {
  hl_dev_t *d;
  int r = mem_open(t, &d);
  if (r != TF_PASS) return r;
  const uint32_t base = TESSERA_HBM_BASE + 0x400000u;
  const unsigned words32 = 4000, bulk_bytes = 64u << 20;
  uint32_t v = 0, sum = 0;
  double t0 = wall_s();
  for (unsigned i = 0; i < words32; i++) {
    if (hl_read32(d, base + 4u * i, &v)) return tf_fail(t, "read32: %s", hl_error(d));
    sum += v;
  }
  const double w32 = words32 / (wall_s() - t0);
  uint8_t *buf = malloc(1u << 20);
  TF_CHECK(t, buf != NULL);
  t0 = wall_s();
  for (uint32_t off = 0; off < bulk_bytes; off += 1u << 20)
    if (hl_read(d, base + off, buf, 1u << 20)) {
      free(buf);
      return tf_fail(t, "read: %s", hl_error(d));
    }
  const double wb = bulk_bytes / 4 / (wall_s() - t0);
  free(buf);
  tf_log(t, "32-bit host-port reads: %.0f words/s; range reads (1 MiB chunks): %.0f words/s (x%.0f) [sum %u]", w32, wb,
         wb / w32, sum);
  tf_bench(t, "read32", "words/s", w32, 0, "\"words\":%u", words32);
  tf_bench(t, "range_read", "words/s", wb, 0, "\"words\":%u", bulk_bytes / 4);
  hl_close(d);
  return TF_PASS;
}
