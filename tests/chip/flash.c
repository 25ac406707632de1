/* Chip-level tests of the SPI flash path (docs/spiflash.md), suite "flash": the
 * controller in the chip, the simulator's flash model on its pins, the boot ROM's
 * flash boot and hostlink's flash functions.
 *
 *   boot_from_flash   erased flash: the ROM says so and waits for the host; hostlink
 *                     writes firmware.img into the flash through the host port
 *                     (hl_flash_image: erase, program, verify); the flash model's array
 *                     holds the image byte for byte at the image offset; a verify
 *                     finds one flipped bit (seeded position); hl_boot resets
 *                     the chip, the ROM checks and copies the image and jumps to its
 *                     entry; the firmware banner, its host interface
 *   rejects_corrupt   images with one flipped bit (seeded position) in the payload, in
 *                     the header and in the magic, and one whose chain runs past the
 *                     end of the flash: each refused with its code in BOOT_STATUS and
 *                     its UART line, the core never leaves the ROM, the ROM waits for
 *                     the host; then hl_load boots the firmware the host way
 *   serial_flash      the firmware running, hostlink's serial frames through the
 *                     chip's UART (the transport a board uses) write hello.img into the
 *                     flash; a reset boots it from the flash. About 10 M cycles (every
 *                     register access is a frame): its own suite line flash_serial, not
 *                     in --suite all
 *   out_of_range      hostlink refuses flash ranges past the end before any access (the
 *                     model sees no command); the controller itself refuses a read past
 *                     the end, a program across a page and an unaligned erase with its
 *                     error codes, sending nothing to the flash
 * The image layout is parsed here independently of bsp/src/image.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlink.h"
#include "regs/spiflash_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera/spiflash.h"
#include "tessera_cfg.h"
#include "tessera_flash.h"
#include "tf.h"

#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define SF(r) (TESSERA_SPIFLASH_BASE + (uint32_t)offsetof(spiflash_t, r))
#define IMG_OFF TESSERA_FLASH_IMAGE_OFFSET
#define ROM_BANNER "Tessera boot ROM " TESSERA_CONFIG_NAME "\r\n"
#define FW_BANNER "Tessera firmware v"
#define HELLO_TEXT "hello from the Tessera management core"

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint8_t *read_image(tf_ctx_t *t, const char *rel, size_t *n, const char **path_out, int *r) {
  static char path[1024];
  snprintf(path, sizeof path, "%s", tf_build_path(rel));
  *path_out = path;
  *r = TF_PASS;
  if (!tf_file_exists(path)) {
    *r = tf_sw_expected(path) ? tf_fail(t, "%s is listed in SW_ALL but was not built", path)
                              : tf_skip(t, "%s not built yet", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  uint8_t *b = malloc(1u << 20);
  *n = f && b ? fread(b, 1, 1u << 20, f) : 0;
  if (f) fclose(f);
  if (!*n || *n >= (1u << 20)) {
    free(b);
    *r = tf_fail(t, "%s: unreadable", path);
    return NULL;
  }
  return b;
}

static uint32_t boot_status(tf_ctx_t *t) {
  uint32_t st = 0xFFFFFFFFu;
  tsim_host_read32(t->sim, SYSC(BOOT_STATUS), &st);
  return st;
}

/* the last "flash image at ..." line of the UART log, once complete (NULL if none) */
static const char *last_flash_line(tsim_t *s) {
  const char *log = tsim_uart_log(s), *p = NULL, *q = log;
  while ((q = strstr(q, "flash image at")) != NULL) p = q++;
  return p && strstr(p, "\r\n") ? p : NULL;
}
static int flash_line_pred(tsim_t *s, void *ctx) {
  (void)ctx;
  return last_flash_line(s) != NULL;
}
/* run until the ROM's flash line is complete ("...waiting for the host" or "...entry
 * 0x...") and return it */
static const char *flash_line(tf_ctx_t *t, uint64_t budget) {
  if (tsim_run_until(t->sim, flash_line_pred, NULL, budget, 64) != TSIM_OK) return NULL;
  return last_flash_line(t->sim);
}

TF_TEST(flash, boot_from_flash, 30000000) {
  size_t n = 0;
  const char *path;
  int r;
  uint8_t *img = read_image(t, "sw/firmware/firmware.img", &n, &path, &r);
  if (!img) return r;
  hl_dev_t *d = NULL;
  TF_CHECK_EQ(t, hl_open_sim_attach(t->sim, &d), HL_OK);
  /* erased flash: the ROM reports it and waits for the host */
  const char *line = flash_line(t, 200000);
  TF_CHECK(t, line != NULL);
  TF_CHECK(t, strstr(line, "none (erased); waiting for the host") != NULL);
  TF_CHECK_EQ(t, boot_status(t) & 0xFFu, 0x02u);
  uint32_t id = 0, size = 0;
  TF_CHECK_EQ(t, hl_flash_info(d, &id, &size), HL_OK);
  TF_CHECK_EQ(t, id, 0xEF4018u);
  TF_CHECK_EQ(t, size, TESSERA_FLASH_BYTES);
  /* write the image through the host port; the flash model holds it */
  const uint64_t c0 = tsim_cycles(t->sim);
  int rc = hl_flash_image(d, path, 0, NULL, NULL);
  if (rc) {
    free(img);
    return tf_fail(t, "hl_flash_image: %s", hl_error(d));
  }
  tflash_t *fl = tsim_flash(t->sim);
  tflash_stats_t fs;
  tflash_stats(fl, &fs);
  tf_log(t, "firmware.img (%zu bytes) written and verified in %llu cycles: %llu erases, %llu page programs, "
         "%llu status reads, %llu busy cycles", n, (unsigned long long)(tsim_cycles(t->sim) - c0),
         (unsigned long long)fs.erases, (unsigned long long)fs.programs, (unsigned long long)fs.status_reads,
         (unsigned long long)fs.busy_cycles);
  TF_CHECK_EQ(t, fs.violations, 0);
  TF_CHECK_EQ(t, fs.erases, (n + 4095) / 4096);
  TF_CHECK(t, memcmp(tflash_data(fl) + IMG_OFF, img, n) == 0);
  for (size_t i = n; i < (n + 4095) / 4096 * 4096; ++i) TF_CHECK_EQ(t, tflash_data(fl)[IMG_OFF + i], 0xFF);
  /* --verify: equal, then one flipped bit (seeded position) is found */
  TF_CHECK_EQ(t, hl_flash_image(d, path, 1, NULL, NULL), HL_OK);
  const size_t vb = tf_rand_below(t, (uint32_t)n);
  const uint8_t vm = (uint8_t)(1u << tf_rand_below(t, 8));
  tflash_data(fl)[IMG_OFF + vb] ^= vm;
  TF_CHECK_EQ(t, hl_flash_image(d, path, 1, NULL, NULL), HL_EVERIFY);
  char want[64];
  snprintf(want, sizeof want, "flash 0x%06zx:", (size_t)IMG_OFF + vb);
  TF_CHECK(t, strstr(hl_error(d), want) != NULL);
  tflash_data(fl)[IMG_OFF + vb] ^= vm;
  /* reset: the ROM boots the flash image */
  uint32_t st = 0;
  const uint64_t c1 = tsim_cycles(t->sim);
  TF_CHECK_EQ(t, hl_boot(d, 0, &st), HL_OK);
  uint32_t entry = 0;
  for (size_t off = 0;;) {   /* entry of the last segment */
    entry = le32(img + off + 16);
    if (!(le32(img + off + 4) & (1u << 16))) break;
    off += 32 + ((le32(img + off + 8) + 3u) & ~3u);
  }
  TF_CHECK_EQ(t, st, 0x06u | ((entry >> 8) << 8));
  tf_log(t, "ROM: flash image checked, copied and started in %llu cycles",
         (unsigned long long)(tsim_cycles(t->sim) - c1));
  line = flash_line(t, 1000);
  TF_CHECK(t, line != NULL && strstr(line, ": ok, ") != NULL);
  if (tsim_run_until_uart(t->sim, FW_BANNER, 5000000) != TSIM_OK) {
    free(img);
    return tf_fail(t, "no firmware banner after the flash boot: UART '%s'", tsim_uart_log(t->sim));
  }
  TF_CHECK_EQ(t, hl_attach_fw(d, 0), HL_OK);
  TF_CHECK(t, hl_hif_addr(d) != 0);
  hl_close(d);
  free(img);
  return TF_PASS;
}

typedef struct {
  const char *what;
  size_t byte;      /* offset in the image (from the first header) */
  unsigned bit;
  uint32_t code;
  const char *msg;
} corrupt_t;

TF_TEST(flash, rejects_corrupt, 30000000) {
  size_t n = 0;
  const char *path;
  int r;
  uint8_t *img = read_image(t, "sw/firmware/firmware.img", &n, &path, &r);
  if (!img) return r;
  tflash_t *fl = tsim_flash(t->sim);
  const size_t plen = le32(img + 8);
  corrupt_t cases[4] = {
      {"payload bit", 32 + tf_rand_below(t, (uint32_t)plen), tf_rand_below(t, 8), 0x88u, "payload CRC mismatch"},
      {"header bit", 8 + tf_rand_below(t, 20), tf_rand_below(t, 8), 0x83u, "header CRC mismatch"},
      {"magic bit", tf_rand_below(t, 4), tf_rand_below(t, 8), 0x82u, "bad magic"},
      {"chain past the end", 0, 0, 0x85u, "bad payload length"},
  };
  for (unsigned k = 0; k < 4; ++k) {
    corrupt_t *c = &cases[k];
    uint8_t *f = tflash_data(fl);
    memset(f + IMG_OFF, 0xFF, TESSERA_FLASH_BYTES - IMG_OFF);
    memcpy(f + IMG_OFF, img, n);
    if (k < 3) {
      f[IMG_OFF + c->byte] ^= (uint8_t)(1u << c->bit);
    } else {  /* a good header whose payload would run past the end of the flash */
      uint8_t h[32];
      memcpy(h, img, 32);
      const uint32_t len = TESSERA_FLASH_BYTES - IMG_OFF;   /* 32 bytes too long */
      h[8] = (uint8_t)len, h[9] = (uint8_t)(len >> 8), h[10] = (uint8_t)(len >> 16), h[11] = (uint8_t)(len >> 24);
      h[6] &= (uint8_t)~1u;   /* no MORE */
      uint32_t crc = 0xFFFFFFFFu;
      for (int i = 0; i < 28; ++i) {
        crc ^= h[i];
        for (int b = 0; b < 8; ++b) crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
      }
      crc = ~crc;
      h[28] = (uint8_t)crc, h[29] = (uint8_t)(crc >> 8), h[30] = (uint8_t)(crc >> 16), h[31] = (uint8_t)(crc >> 24);
      memcpy(f + IMG_OFF, h, 32);
    }
    tsim_uart_clear(t->sim);
    tsim_reset(t->sim);
    const char *line = flash_line(t, 2000000);
    if (!line) {
      free(img);
      return tf_fail(t, "%s: no flash line from the ROM: UART '%s'", c->what, tsim_uart_log(t->sim));
    }
    tf_log(t, "%s (byte %zu bit %u): %.*s", c->what, c->byte, c->bit, (int)strcspn(line, "\r"), line);
    if (!strstr(line, c->msg) || !strstr(line, "waiting for the host")) {
      free(img);
      return tf_fail(t, "%s: expected '%s' in '%s'", c->what, c->msg, line);
    }
    TF_CHECK_EQ(t, boot_status(t) & 0xFFu, c->code);
    /* never into the image: 100 000 cycles later the core is still in the ROM */
    TF_CHECK_OK(t, tsim_step(t->sim, 100000));
    uint32_t pcs[TSIM_RETIRE_RING];
    const unsigned nr = tsim_retired(t->sim, pcs, NULL, TSIM_RETIRE_RING);
    TF_CHECK(t, nr > 0);
    for (unsigned i = 0; i < nr; ++i) TF_CHECK(t, pcs[i] < TESSERA_BOOTROM_BYTES);
  }
  /* host mode still works after a rejection */
  hl_dev_t *d = NULL;
  TF_CHECK_EQ(t, hl_open_sim_attach(t->sim, &d), HL_OK);
  int rc = hl_load(d, path, 0, 1, 0);
  if (rc) {
    free(img);
    return tf_fail(t, "hl_load after the rejections: %s", hl_error(d));
  }
  TF_CHECK(t, tsim_uart_contains(t->sim, FW_BANNER));
  hl_close(d);
  free(img);
  return TF_PASS;
}

TF_TEST_F(flash, serial_flash, 60000000, TF_BENCH) {
  size_t n = 0, nfw = 0;
  const char *path, *fw_path;
  int r;
  uint8_t *fw = read_image(t, "sw/firmware/firmware.img", &nfw, &fw_path, &r);
  if (!fw) return r;
  static char fwp[1024];
  snprintf(fwp, sizeof fwp, "%s", fw_path);
  free(fw);
  uint8_t *img = read_image(t, "sw/tests/hello.img", &n, &path, &r);
  if (!img) return r;
  hl_dev_t *d = NULL, *ser = NULL;
  TF_CHECK_EQ(t, hl_open_sim_attach(t->sim, &d), HL_OK);
  TF_CHECK_EQ(t, hl_load(d, fwp, 0, 1, 0), HL_OK);   /* the firmware answers the frames */
  TF_CHECK_EQ(t, hl_open_sim_uart(t->sim, &ser), HL_OK);
  const uint64_t c0 = tsim_cycles(t->sim);
  int rc = hl_flash_image(ser, path, 0, NULL, NULL);
  if (rc) {
    free(img);
    return tf_fail(t, "hl_flash_image over serial frames: %s", hl_error(ser));
  }
  tf_log(t, "hello.img (%zu bytes) written and verified over the UART in %llu cycles", n,
         (unsigned long long)(tsim_cycles(t->sim) - c0));
  TF_CHECK(t, memcmp(tflash_data(tsim_flash(t->sim)) + IMG_OFF, img, n) == 0);
  hl_close(ser);
  /* no reset line on a serial port: hl_boot needs the simulator's */
  uint32_t st = 0;
  TF_CHECK_EQ(t, hl_boot(d, 0, &st), HL_OK);
  TF_CHECK_EQ(t, st & 0xFFu, 0x06u);
  if (tsim_run_until_uart(t->sim, HELLO_TEXT, 2000000) != TSIM_OK) {
    free(img);
    return tf_fail(t, "hello.img did not run from the flash: UART '%s'", tsim_uart_log(t->sim));
  }
  hl_close(d);
  free(img);
  return TF_PASS;
}

/* one controller command through the host port; returns STATUS.err */
static uint32_t sf_cmd(tf_ctx_t *t, uint32_t addr, uint32_t len, uint32_t cmd) {
  uint32_t st = 0;
  tsim_host_write32(t->sim, SF(ADDR), addr);
  tsim_host_write32(t->sim, SF(LEN), len);
  tsim_host_write32(t->sim, SF(CMD), cmd);
  for (int i = 0; i < 100000; ++i) {
    if (tsim_host_read32(t->sim, SF(STATUS), &st) != TSIM_OK) return 0xFF;
    if (!(st & SPIFLASH__STATUS__BUSY_bm)) break;
  }
  return (st & SPIFLASH__STATUS__ERR_bm) >> SPIFLASH__STATUS__ERR_bp;
}

TF_TEST(flash, out_of_range, 2000000) {
  hl_dev_t *d = NULL;
  TF_CHECK_EQ(t, hl_open_sim_attach(t->sim, &d), HL_OK);
  TF_CHECK(t, flash_line(t, 200000) != NULL);
  tflash_t *fl = tsim_flash(t->sim);
  tflash_stats_t s0, s1;
  tflash_stats(fl, &s0);
  uint8_t buf[300];
  memset(buf, 0, sizeof buf);
  const uint32_t end = TESSERA_FLASH_BYTES;
  TF_CHECK_EQ(t, hl_flash_read(d, end - 4, buf, 8, NULL, NULL), HL_EARG);
  TF_CHECK(t, strstr(hl_error(d), "past the end") != NULL);
  TF_CHECK_EQ(t, hl_flash_read(d, end, buf, 1, NULL, NULL), HL_EARG);
  TF_CHECK_EQ(t, hl_flash_write(d, end - 4096, buf, 4097, NULL, NULL), HL_EARG);
  TF_CHECK_EQ(t, hl_flash_erase(d, end, 1, NULL, NULL), HL_EARG);
  TF_CHECK_EQ(t, hl_flash_erase(d, 100, 1, NULL, NULL), HL_EARG);
  /* the controller's own checks */
  const uint32_t a = 4u * tf_rand_below(t, (end - 8) / 4 - 64);
  TF_CHECK_EQ(t, sf_cmd(t, end - 4, 8, SF_OP_READ), SF_ERR_RANGE);
  /* (ADDR has 24 bits: with a 16 MiB flash an erase cannot point past the end; the block
   * testbench checks that refusal with a 1 MiB flash) */
  tsim_host_write32(t->sim, SF(FIFO_CTRL), 1);
  for (int i = 0; i < 2; ++i) tsim_host_write32(t->sim, SF(WDATA), 0);
  TF_CHECK_EQ(t, sf_cmd(t, end - 4, 8, SF_OP_PROGRAM | SF_CMD_WREN | SF_CMD_POLL), SF_ERR_RANGE);
  TF_CHECK_EQ(t, sf_cmd(t, (a & ~4095u) + 512, 0, SF_OP_ERASE_4K | SF_CMD_WREN), SF_ERR_ALIGN);
  tsim_host_write32(t->sim, SF(FIFO_CTRL), 1);
  for (int i = 0; i < 64; ++i) tsim_host_write32(t->sim, SF(WDATA), 0);
  TF_CHECK_EQ(t, sf_cmd(t, (a & ~255u) + 200, 100, SF_OP_PROGRAM | SF_CMD_WREN | SF_CMD_POLL), SF_ERR_PAGE);
  tflash_stats(fl, &s1);
  TF_CHECK_EQ(t, s1.commands, s0.commands);   /* nothing reached the flash */
  for (uint32_t i = 0; i < TESSERA_FLASH_BYTES; ++i)
    if (tflash_data(fl)[i] != 0xFF) return tf_fail(t, "flash byte 0x%06x changed", i);
  /* and a read in range still works */
  TF_CHECK_EQ(t, sf_cmd(t, end - 8, 8, SF_OP_READ), SF_ERR_NONE);
  TF_CHECK_EQ(t, hl_flash_read(d, end - 256, buf, 256, NULL, NULL), HL_OK);
  for (int i = 0; i < 256; ++i) TF_CHECK_EQ(t, buf[i], 0xFF);
  hl_close(d);
  return TF_PASS;
}
