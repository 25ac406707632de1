/* Chip-level tests of the boot ROM (bsp/bootrom, docs/boot.md), suite "bootrom".
 *
 *   rom_waits_for_go   after reset: ROM banner on the UART, BOOT_STATUS = WAIT_GO,
 *                      the core stays in the ROM
 *   verify_good_image  firmware.img (mkimage) placed at a random aligned offset in
 *                      HBM, BOOT_CTRL = VERIFY|GO: the ROM copies every segment
 *                      (compared word by word through the back door with the
 *                      segments read from the image file here) and jumps to the
 *                      entry (the firmware banner appears, BOOT_STATUS = JUMP)
 *   verify_rejects     a sequence of corrupted images (seeded choice of byte and
 *                      field): each is rejected with its own BOOT_STATUS code and
 *                      a UART message, nothing is loaded, the ROM waits for the
 *                      next GO; a good image after them boots (the small
 *                      image of tests/sw/hello.c, so the test stays short)
 * The image format is parsed here independently of bsp/src/image.c (only the
 * CRC-32 polynomial is shared knowledge). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"
#include "tf.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define GO_BIT 0x1u
#define VERIFY_BIT 0x2u
#define ST_WAIT_GO 0x02u
#define ST_JUMP 0x06u

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t crc32_ref(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int b = 0; b < 8; ++b) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return ~c;
}

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long l = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(l > 0 ? (size_t)l : 1u);
  if (b && l > 0 && fread(b, 1, (size_t)l, f) != (size_t)l) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *n = l > 0 ? (size_t)l : 0u;
  return b;
}

/* header offsets in the image file, up to 8 segments */
typedef struct { size_t hdr[8]; unsigned n; } segs_t;
static int parse(const uint8_t *img, size_t n, segs_t *s) {
  size_t off = 0;
  s->n = 0;
  for (;;) {
    if (off + 32 > n || s->n == 8) return 0;
    s->hdr[s->n++] = off;
    uint32_t len = le32(img + off + 8);
    uint32_t more = le32(img + off + 4) & (1u << 16);
    off += 32 + ((len + 3u) & ~3u);
    if (!more) return off <= n;
  }
}

static int status_code(tf_ctx_t *t, uint32_t *st) {
  return tsim_host_read32(t->sim, SYSC(BOOT_STATUS), st);
}

/* step until BOOT_STATUS.code == code; returns TSIM_OK or TSIM_ETIMEOUT */
static int wait_status(tf_ctx_t *t, uint32_t code, uint64_t budget, uint32_t *st) {
  for (uint64_t c = 0; c < budget; c += 2000) {
    int rc = tsim_step(t->sim, 2000);
    if (rc != TSIM_OK) return rc;
    rc = status_code(t, st);
    if (rc != TSIM_OK) return rc;
    if ((*st & 0xFFu) == code) return TSIM_OK;
  }
  return TSIM_ETIMEOUT;
}

static int load_image(tf_ctx_t *t, const char *rel, uint8_t **img, size_t *n, segs_t *s) {
  const char *p = tf_build_path(rel);
  char path[1024];
  snprintf(path, sizeof path, "%s", p);
  if (!tf_file_exists(path)) {
    if (tf_sw_expected(path)) return tf_fail(t, "%s is listed in SW_ALL but was not built", path);
    return tf_skip(t, "%s not built yet", path);
  }
  *img = read_all(path, n);
  if (!*img || !parse(*img, *n, s)) return tf_fail(t, "%s: unreadable or malformed image", path);
  return TF_PASS;
}
static int load_fw_image(tf_ctx_t *t, uint8_t **img, size_t *n, segs_t *s) {
  return load_image(t, "sw/firmware/firmware.img", img, n, s);
}

static int go(tf_ctx_t *t, uint32_t addr, uint32_t ctrl) {
  TF_CHECK_OK(t, tsim_host_write32(t->sim, SYSC(BOOT_ADDR), addr));
  TF_CHECK_OK(t, tsim_host_write32(t->sim, SYSC(BOOT_CTRL), ctrl));
  return TF_PASS;
}

TF_TEST(bootrom, rom_waits_for_go, 400000) {
  int rc = tsim_run_until_uart(t->sim, "Tessera boot ROM " TESSERA_CONFIG_NAME "\r\n", 50000);
  if (rc != TSIM_OK) return tf_fail(t, "no ROM banner: '%s'", tsim_uart_log(t->sim));
  uint32_t st = 0;
  TF_CHECK_OK(t, wait_status(t, ST_WAIT_GO, 20000, &st));
  TF_CHECK_OK(t, tsim_step(t->sim, 20000));
  TF_CHECK_OK(t, status_code(t, &st));
  TF_CHECK_EQ(t, st, ST_WAIT_GO);
  uint32_t pcs[TSIM_RETIRE_RING], insns[TSIM_RETIRE_RING];
  unsigned n = tsim_retired(t->sim, pcs, insns, TSIM_RETIRE_RING);
  TF_CHECK(t, n > 0);
  for (unsigned i = 0; i < n; ++i) TF_CHECK(t, pcs[i] < TESSERA_BOOTROM_BYTES);
  return TF_PASS;
}

/* the core has retired an instruction outside the boot ROM: the ROM jumped */
static int left_rom_pred(tsim_t *s, void *ctx) {
  (void)ctx;
  uint32_t pc = 0;
  return tsim_retired(s, &pc, NULL, 1) == 1 && pc >= TESSERA_BOOTROM_BYTES;
}

TF_TEST(bootrom, verify_good_image, 3000000) {
  uint8_t *img = NULL;
  size_t n = 0;
  segs_t s;
  int r = load_fw_image(t, &img, &n, &s);
  if (r != TF_PASS) return r;
  uint32_t base = TESSERA_HBM_BASE + 4u * tf_rand_below(t, 0x40000u);
  tf_log(t, "image %zu bytes, %u segment(s), at 0x%08x", n, s.n, base);
  TF_CHECK_OK(t, tsim_mem_write(t->sim, base, img, n));
  TF_CHECK_OK(t, tsim_run_until_uart(t->sim, "Tessera boot ROM", 50000));
  r = go(t, base, VERIFY_BIT | GO_BIT);
  if (r != TF_PASS) return r;
  /* Stop at the first instruction the core retires outside the ROM (the firmware's
   * entry, before it can change its .data): every segment must then sit at its load
   * address exactly as in the image. */
  if (tsim_run_until(t->sim, left_rom_pred, NULL, t->budget, 1) != TSIM_OK) {
    uint32_t st = 0;
    status_code(t, &st);
    free(img);
    return tf_fail(t, "the ROM never jumped (BOOT_STATUS 0x%08x): UART '%s'", st, tsim_uart_log(t->sim));
  }
  uint32_t pc = 0;
  tsim_retired(t->sim, &pc, NULL, 1);
  uint32_t entry = le32(img + s.hdr[s.n - 1] + 16);
  TF_CHECK_EQ(t, pc, entry);
  for (unsigned i = 0; i < s.n; ++i) {
    const uint8_t *h = img + s.hdr[i];
    uint32_t len = le32(h + 8), load = le32(h + 12);
    uint8_t *got = malloc(len);
    TF_CHECK(t, got != NULL);
    int rc = tsim_mem_read(t->sim, load, got, len);
    size_t bad = 0;
    while (rc == TSIM_OK && bad < len && got[bad] == h[32 + bad]) ++bad;
    free(got);
    TF_CHECK_OK(t, rc);
    if (bad < len) {
      free(img);
      return tf_fail(t, "segment %u (%u bytes at 0x%08x) differs from the image at byte %zu", i, len,
                     load, bad);
    }
  }
  tf_log(t, "all %u segment(s) at their load addresses; entry 0x%08x", s.n, entry);
  int rc = tsim_run_until_uart(t->sim, "Tessera firmware v", t->budget);
  if (rc != TSIM_OK) {
    uint32_t st = 0;
    status_code(t, &st);
    free(img);
    return tf_fail(t, "firmware did not start (BOOT_STATUS 0x%08x): UART '%s'", st, tsim_uart_log(t->sim));
  }
  TF_CHECK(t, strstr(tsim_uart_log(t->sim), "boot: image ok") != NULL);
  uint32_t st = 0, ctrl = 0;
  TF_CHECK_OK(t, status_code(t, &st));
  TF_CHECK_EQ(t, st, ST_JUMP | ((entry >> 8) << 8));
  TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(BOOT_CTRL), &ctrl));
  TF_CHECK_EQ(t, ctrl & GO_BIT, 0);   /* the ROM consumed GO */
  free(img);
  return TF_PASS;
}

typedef struct { const char *what; uint32_t code; const char *msg; } corrupt_t;

TF_TEST(bootrom, verify_rejects, 3000000) {
  uint8_t *img = NULL;
  size_t n = 0;
  segs_t s;
  /* the small hello image: every reject walks the image in slow device memory,
   * and the checks do not depend on its size (verify_good_image boots the firmware) */
  int r = load_image(t, "sw/tests/hello.img", &img, &n, &s);
  if (r != TF_PASS) return r;
  uint8_t *bad = malloc(n + 64);
  uint32_t base = TESSERA_HBM_BASE + 0x10000u + 4u * tf_rand_below(t, 0x1000u);
  TF_CHECK_OK(t, tsim_run_until_uart(t->sim, "Tessera boot ROM", 50000));
  static const corrupt_t kinds[] = {
      {"payload bit flip", 0x88, "payload CRC mismatch"},
      {"magic", 0x82, "bad magic"},
      {"header bit flip", 0x83, "header CRC mismatch"},
      {"version 2 (CRC fixed)", 0x84, "unsupported header version"},
      {"load address in the boot ROM (CRC fixed)", 0x86, "bad load address"},
      {"entry outside the image (CRC fixed)", 0x87, "bad entry point"},
      {"zero length (CRC fixed)", 0x85, "bad payload length"},
  };
  for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
    memcpy(bad, img, n);
    unsigned seg = tf_rand_below(t, s.n);
    uint8_t *h = bad + s.hdr[seg];
    uint32_t len = le32(h + 8);
    int fix = 1;
    switch (k) {
      case 0: h[32 + tf_rand_below(t, len)] ^= (uint8_t)(1u << tf_rand_below(t, 8)); fix = 0; break;
      case 1: h[tf_rand_below(t, 4)] ^= 0x40; fix = 0; break;
      case 2: h[4 + tf_rand_below(t, 24)] ^= (uint8_t)(1u << tf_rand_below(t, 8)); fix = 0; break;
      case 3: put32(h + 4, (le32(h + 4) & ~0xFFu) | 2u); break;
      case 4: put32(h + 12, TESSERA_BOOTROM_BASE); break;
      case 5:
        h = bad + s.hdr[s.n - 1];
        put32(h + 16, TESSERA_HBM_BASE);
        break;
      default: put32(h + 8, 0); break;
    }
    if (fix) put32(h + 28, crc32_ref(h, 28));
    TF_CHECK_OK(t, tsim_mem_write(t->sim, base, bad, n));
    tsim_uart_clear(t->sim);
    r = go(t, base, VERIFY_BIT | GO_BIT);
    if (r != TF_PASS) return r;
    uint32_t st = 0;
    if (wait_status(t, kinds[k].code, 1000000, &st) != TSIM_OK) {
      free(bad);
      free(img);
      return tf_fail(t, "%s: BOOT_STATUS 0x%08x, expected code 0x%02x", kinds[k].what, st, kinds[k].code);
    }
    /* the message, and the ROM still waits (GO consumed, status kept, core in ROM) */
    TF_CHECK_OK(t, tsim_run_until_uart(t->sim, kinds[k].msg, 100000));
    TF_CHECK_OK(t, tsim_step(t->sim, 5000));
    uint32_t st2 = 0, ctrl = 0;
    TF_CHECK_OK(t, status_code(t, &st2));
    TF_CHECK_EQ(t, st2, st);
    TF_CHECK_OK(t, tsim_host_read32(t->sim, SYSC(BOOT_CTRL), &ctrl));
    TF_CHECK_EQ(t, ctrl & GO_BIT, 0);
    uint32_t pcs[TSIM_RETIRE_RING], insns[TSIM_RETIRE_RING];
    unsigned np = tsim_retired(t->sim, pcs, insns, TSIM_RETIRE_RING);
    for (unsigned i = 0; i < np; ++i) TF_CHECK(t, pcs[i] < TESSERA_BOOTROM_BYTES);
    /* nothing was copied: the first load address is still clear */
    TF_CHECK_EQ(t, tsim_mem_read32(t->sim, le32(img + s.hdr[0] + 12)), 0);
    tf_log(t, "%s (segment %u): rejected with 0x%08x", kinds[k].what, seg, st);
  }
  /* a good image after all that */
  TF_CHECK_OK(t, tsim_mem_write(t->sim, base, img, n));
  r = go(t, base, VERIFY_BIT | GO_BIT);
  if (r != TF_PASS) return r;
  int rc = tsim_run_until_uart(t->sim, "hello from the Tessera management core", 1000000);
  free(bad);
  free(img);
  if (rc != TSIM_OK) return tf_fail(t, "good image after rejects did not boot: '%s'", tsim_uart_log(t->sim));
  return TF_PASS;
}
