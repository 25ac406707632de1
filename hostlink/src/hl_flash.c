/* hostlink: the chip's SPI flash through its controller's registers (hl_flash.h,
 * docs/hostlink.md "Flash"). One command at a time: ADDR, LEN, data through the
 * controller's FIFO (WDATA / RDATA, 64 words = one page), CMD, then STATUS polled
 * until busy clears. Program and erase send WREN first and poll the flash's WIP bit
 * in the controller (CMD.wren, CMD.poll). */
#include <stdlib.h>
#include <string.h>

#include "hl_core.h"
#include "hl_flash.h"
#include "regs/spiflash_regs.h"
#include "regs/sysctrl_regs.h"
#include "tessera/image.h"
#include "tessera/spiflash.h"
#include "tessera_cfg.h"

#define SF(r) (TESSERA_SPIFLASH_BASE + (uint32_t)offsetof(spiflash_t, r))
#define SYSC(r) (TESSERA_SYSCTRL_BASE + (uint32_t)offsetof(sysctrl_t, r))
#define SF_MAX_POLLS 1000000u   /* STATUS reads before a command counts as stuck */
#define ROM_RAM_BYTES 2048u     /* the boot ROM's own top of DSRAM (bsp/ld/bootrom.ld) */

static const char *sf_err_text(uint32_t e) {
  switch (e) {
    case SF_ERR_BUSY: return "command while busy";
    case SF_ERR_BAD_OP: return "unknown operation";
    case SF_ERR_LEN: return "bad length";
    case SF_ERR_DATA: return "program data missing";
    case SF_ERR_RANGE: return "address past the end of the flash";
    case SF_ERR_PAGE: return "program across a page";
    case SF_ERR_ALIGN: return "erase address not 4 KiB aligned";
    case SF_ERR_TIMEOUT: return "flash stayed busy (WIP)";
    default: return "error";
  }
}

/* one controller command, waited for; HL_OK or an error with the controller's reason */
static int sf_cmd(hl_dev_t *d, uint32_t addr, uint32_t len, uint32_t cmd) {
  int rc;
  if ((rc = hl_write32(d, SF(ADDR), addr)) || (rc = hl_write32(d, SF(LEN), len)) ||
      (rc = hl_write32(d, SF(CMD), cmd)))
    return rc;
  uint32_t st = 0;
  for (uint32_t i = 0;; i++) {
    if ((rc = hl_read32(d, SF(STATUS), &st))) return rc;
    if (!(st & SPIFLASH__STATUS__BUSY_bm)) break;
    if (i == SF_MAX_POLLS) return hl_set_error(d, HL_ETIMEOUT, "flash: command 0x%x at 0x%06x still busy", cmd, addr);
  }
  uint32_t e = (st & SPIFLASH__STATUS__ERR_bm) >> SPIFLASH__STATUS__ERR_bp;
  if (e)
    return hl_set_error(d, e == SF_ERR_RANGE ? HL_EARG : HL_EIO, "flash: command 0x%x at 0x%06x+%u: %s (controller error %u)",
                        cmd, addr, len, sf_err_text(e), e);
  return HL_OK;
}

/* The boot ROM reads the flash right after a reset (BOOT_STATUS 0x00 not started yet,
 * 0x01 banner, 0x07 flash image, 0x05 copying): let it finish before the host sends
 * commands of its own, which the controller would refuse (BUSY) or which would cut
 * into the ROM's. Then wait for a command still running. */
static int sf_claim(hl_dev_t *d) {
  uint32_t st = 0;
  int rc;
  for (uint32_t i = 0;; i++) {
    if ((rc = hl_read32(d, SYSC(BOOT_STATUS), &st))) return rc;
    const uint32_t code = st & 0xFFu;
    if (code != BOOT_ST_RESET && code != BOOT_ST_ROM_START && code != BOOT_ST_FLASH && code != BOOT_ST_LOAD) break;
    if (i == 1000) return hl_set_error(d, HL_ETIMEOUT, "flash: the boot ROM is still busy (BOOT_STATUS 0x%08x)", st);
    if ((rc = hl_run(d, 20000))) return rc;
  }
  for (uint32_t i = 0;; i++) {
    if ((rc = hl_read32(d, SF(STATUS), &st))) return rc;
    if (!(st & SPIFLASH__STATUS__BUSY_bm)) return HL_OK;
    if (i == SF_MAX_POLLS) return hl_set_error(d, HL_ETIMEOUT, "flash: the controller stays busy");
  }
}

static int check_range(hl_dev_t *d, uint32_t off, size_t len) {
  if (off > TESSERA_FLASH_BYTES || len > TESSERA_FLASH_BYTES - off)
    return hl_set_error(d, HL_EARG, "flash range 0x%06x+%zu runs past the end of the %u-byte flash", off, len,
                        TESSERA_FLASH_BYTES);
  return HL_OK;
}

int hl_flash_info(hl_dev_t *d, uint32_t *jedec_id, uint32_t *size) {
  int rc = sf_claim(d);
  if (!rc) rc = sf_cmd(d, 0, 0, SF_OP_READ_ID);
  if (!rc) rc = hl_read32(d, SF(ID), jedec_id);
  if (!rc) rc = hl_read32(d, SF(FLASH_SIZE), size);
  return rc;
}

static int read_as(hl_dev_t *d, uint32_t off, void *buf, size_t len, hl_progress_fn fn, void *ctx, const char *what) {
  int rc = check_range(d, off, len);
  if (!rc) rc = sf_claim(d);
  uint8_t *out = buf;
  for (size_t done = 0; !rc && done < len;) {
    uint32_t n = len - done < SF_PAGE_BYTES ? (uint32_t)(len - done) : SF_PAGE_BYTES;
    if ((rc = sf_cmd(d, off + (uint32_t)done, n, SF_OP_READ))) break;
    for (uint32_t i = 0; i < n && !rc; i += 4) {
      uint32_t w = 0;
      rc = hl_read32(d, SF(RDATA), &w);
      for (uint32_t b = 0; b < 4 && i + b < n; b++) out[done + i + b] = (uint8_t)(w >> (8 * b));
    }
    done += n;
    if (fn && !rc) fn(ctx, what, done, len);
  }
  return rc;
}
int hl_flash_read(hl_dev_t *d, uint32_t off, void *buf, size_t len, hl_progress_fn fn, void *ctx) {
  return read_as(d, off, buf, len, fn, ctx, "read");
}

int hl_flash_erase(hl_dev_t *d, uint32_t off, size_t len, hl_progress_fn fn, void *ctx) {
  if (off % SF_SECTOR_BYTES) return hl_set_error(d, HL_EARG, "flash erase at 0x%06x: not 4 KiB aligned", off);
  size_t span = (len + SF_SECTOR_BYTES - 1) / SF_SECTOR_BYTES * SF_SECTOR_BYTES;
  int rc = check_range(d, off, span);
  if (!rc) rc = sf_claim(d);
  for (size_t done = 0; !rc && done < span; done += SF_SECTOR_BYTES) {
    rc = sf_cmd(d, off + (uint32_t)done, 0, SF_OP_ERASE_4K | SF_CMD_WREN | SF_CMD_POLL);
    if (fn && !rc) fn(ctx, "erase", done + SF_SECTOR_BYTES, span);
  }
  return rc;
}

int hl_flash_write(hl_dev_t *d, uint32_t off, const void *buf, size_t len, hl_progress_fn fn, void *ctx) {
  int rc = check_range(d, off, len);
  if (!rc && off % SF_SECTOR_BYTES)
    rc = hl_set_error(d, HL_EARG, "flash write at 0x%06x: not 4 KiB aligned (whole sectors are erased)", off);
  if (!rc) rc = hl_flash_erase(d, off, len, fn, ctx);
  const uint8_t *in = buf;
  for (size_t done = 0; !rc && done < len;) {
    uint32_t n = len - done < SF_PAGE_BYTES ? (uint32_t)(len - done) : SF_PAGE_BYTES;
    int blank = 1;
    for (uint32_t i = 0; i < n; i++) blank &= in[done + i] == 0xFF;
    if (!blank) {
      rc = hl_write32(d, SF(FIFO_CTRL), SPIFLASH__FIFO_CTRL__CLEAR_bm);
      for (uint32_t i = 0; i < n && !rc; i += 4) {
        uint32_t w = 0;
        for (uint32_t b = 0; b < 4 && i + b < n; b++) w |= (uint32_t)in[done + i + b] << (8 * b);
        rc = hl_write32(d, SF(WDATA), w);
      }
      if (!rc) rc = sf_cmd(d, off + (uint32_t)done, n, SF_OP_PROGRAM | SF_CMD_WREN | SF_CMD_POLL);
    }
    done += n;
    if (fn && !rc) fn(ctx, "program", done, len);
  }
  return rc;
}

int hl_flash_verify(hl_dev_t *d, uint32_t off, const void *buf, size_t len, hl_progress_fn fn, void *ctx) {
  uint8_t *got = malloc(len ? len : 1);
  if (!got) return hl_set_error(d, HL_ENOMEM, "flash verify: out of memory");
  int rc = read_as(d, off, got, len, fn, ctx, "verify");
  for (size_t i = 0; !rc && i < len; i++)
    if (got[i] != ((const uint8_t *)buf)[i])
      rc = hl_set_error(d, HL_EVERIFY, "flash 0x%06zx: read 0x%02x, expected 0x%02x", off + i, got[i],
                        ((const uint8_t *)buf)[i]);
  free(got);
  return rc;
}

static const void *file_map(uint32_t addr, uint32_t len, void *ctx) {
  (void)len;
  return (const uint8_t *)ctx + (addr - TESSERA_HOST_BASE);
}

int hl_flash_image(hl_dev_t *d, const char *path, int verify_only, hl_progress_fn fn, void *ctx) {
  size_t n = 0;
  uint8_t *img = hl_file_read(path, &n);
  if (!img) return hl_set_error(d, HL_EFILE, "cannot read %s", path);
  /* the boot ROM's checks, with the file standing in for the flash */
  const timg_range_t src = {TESSERA_HOST_BASE, (uint32_t)n};
  const timg_range_t dst = {TESSERA_ISRAM_BASE, TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES - ROM_RAM_BYTES - TESSERA_ISRAM_BASE};
  const timg_env_t env = {&src, 1, &dst, 1, file_map, img};
  timg_plan_t plan;
  uint32_t detail = 0, err = n >= TIMG_HDR_BYTES && n < TESSERA_FLASH_BYTES ? timg_verify(TESSERA_HOST_BASE, &env, &plan, &detail)
                                                                          : BOOT_ERR_LENGTH;
  int rc;
  if (err)
    rc = hl_set_error(d, HL_EFILE, "%s: not a bootable Tessera image (boot ROM check 0x%02x, detail 0x%06x)", path, err,
                      detail);
  else if (n > TESSERA_FLASH_BYTES - HL_FLASH_IMAGE_OFFSET)
    rc = hl_set_error(d, HL_EARG, "%s: %zu bytes do not fit the flash after 0x%06x", path, n, HL_FLASH_IMAGE_OFFSET);
  else if (verify_only)
    rc = hl_flash_verify(d, HL_FLASH_IMAGE_OFFSET, img, n, fn, ctx);
  else if (!(rc = hl_flash_write(d, HL_FLASH_IMAGE_OFFSET, img, n, fn, ctx)))
    rc = hl_flash_verify(d, HL_FLASH_IMAGE_OFFSET, img, n, fn, ctx);
  free(img);
  return rc;
}

int hl_flash_erase_image(hl_dev_t *d) { return hl_flash_erase(d, HL_FLASH_IMAGE_OFFSET, SF_SECTOR_BYTES, NULL, NULL); }

int hl_boot(hl_dev_t *d, uint64_t budget, uint32_t *status) {
  if (!budget) budget = 20000000;
  int rc = hl_reset(d);
  if (rc) return rc;
  uint32_t st = 0;
  for (uint64_t run = 0;; run += 20000) {
    if ((rc = hl_read32(d, SYSC(BOOT_STATUS), &st))) return rc;
    uint32_t code = st & 0xFFu;
    if (code == BOOT_ST_JUMP || code == BOOT_ST_WAIT_GO || code >= 0x80u) break;
    if (run >= budget)
      return hl_set_error(d, HL_ETIMEOUT, "boot: BOOT_STATUS 0x%08x after %llu cycles", st, (unsigned long long)run);
    if ((rc = hl_run(d, 20000)) < 0) return rc;
  }
  if (status) *status = st;
  return HL_OK;
}
