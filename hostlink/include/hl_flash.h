/* hostlink: the chip's SPI flash through its controller's registers (hl_flash.c,
 * docs/hostlink.md "Flash", docs/spiflash.md). Every function uses only 32-bit
 * register accesses (hl_read32 / hl_write32), so it works on every transport: the
 * simulator's host port, tcp, and the serial frames a board's firmware answers.
 * Offsets are flash byte addresses; a range past the end of the flash is refused
 * (HL_EARG) before any access. */
#ifndef TESSERA_HL_FLASH_H
#define TESSERA_HL_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "hl_core.h"
#include "tessera_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Progress of a long operation: `what` ("erase", "program", "verify", "read"),
 * bytes done of total. */
typedef void (*hl_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/* JEDEC ID (manufacturer << 16 | type << 8 | capacity) and the controller's flash size. */
int hl_flash_info(hl_dev_t *d, uint32_t *jedec_id, uint32_t *size);
int hl_flash_read(hl_dev_t *d, uint32_t off, void *buf, size_t len, hl_progress_fn fn, void *ctx);
/* Erase the 4 KiB sectors of [off, off + len): off 4 KiB aligned, len rounded up. */
int hl_flash_erase(hl_dev_t *d, uint32_t off, size_t len, hl_progress_fn fn, void *ctx);
/* Erase the sectors of the range, then program it page by page (pages that are all
 * 0xFF are left erased). */
int hl_flash_write(hl_dev_t *d, uint32_t off, const void *buf, size_t len, hl_progress_fn fn, void *ctx);
/* Read back and compare: HL_EVERIFY with the first differing offset in hl_error. */
int hl_flash_verify(hl_dev_t *d, uint32_t off, const void *buf, size_t len, hl_progress_fn fn, void *ctx);

/* The boot image: `path` must be a Tessera image (mkimage, docs/boot.md) that the boot
 * ROM's checks accept (HL_EFILE otherwise, nothing written). verify_only = 0: write it
 * at HL_FLASH_IMAGE_OFFSET and verify it; 1: only compare the flash with it. */
#define HL_FLASH_IMAGE_OFFSET TESSERA_FLASH_IMAGE_OFFSET
int hl_flash_image(hl_dev_t *d, const char *path, int verify_only, hl_progress_fn fn, void *ctx);
/* Erase the sector(s) of the image header: the boot ROM then finds no image. */
int hl_flash_erase_image(hl_dev_t *d);

/* Reset the chip (the transport's reset) and run the boot ROM until it has either
 * jumped into a program (the flash image: *status = BOOT_STATUS with code JUMP) or
 * given up on the flash (waiting for the host: WAIT_GO, or a rejection 0x8x);
 * budget in device cycles (0: 20 M). HL_EUNSUP on a transport without a reset line. */
int hl_boot(hl_dev_t *d, uint64_t budget, uint32_t *status);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_FLASH_H */
