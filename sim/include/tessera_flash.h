/* SPI NOR flash model for simulation (docs/spiflash.md "Flash model").
 *
 * Behaves as a common 3-byte-address SPI NOR part, by default a 16 MiB Winbond
 * W25Q128JV, a part of the kind ULX3S boards carry (JEDEC ID EF 40 18): SPI mode 0, commands READ_ID
 * 0x9F, READ 0x03, FAST_READ 0x0B (one dummy byte), WREN 0x06, WRDI 0x04, RDSR 0x05,
 * PAGE PROGRAM 0x02 (256-byte pages, the address wraps inside the page as on the real
 * part), SECTOR ERASE 0x20 (4 KiB). Erased = 0xFF; programming only clears bits. After
 * a program or erase the status register's WIP bit stays set for a number of model
 * cycles; every command but RDSR is ignored meanwhile (and counted as a violation).
 * Program and erase need WEL (set by WREN, cleared by WRDI and at the end of a program
 * or erase). The contents can be backed by a file: loaded at creation, written back
 * by tflash_save / tflash_destroy, so images survive runs.
 *
 * The model is driven by pin levels once per clock cycle (tflash_pins): it samples
 * MOSI at SCK rising edges and changes MISO after falling edges. */
#ifndef TESSERA_FLASH_H
#define TESSERA_FLASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tflash tflash_t;

typedef struct {
  uint32_t size;          /* bytes, a power of two <= 16 MiB (0: 16 MiB) */
  uint32_t jedec_id;      /* 24-bit JEDEC ID (0: 0xEF4018, W25Q128JV) */
  uint32_t prog_cycles;   /* WIP time of a page program in model cycles (0: 4000) */
  uint32_t erase_cycles;  /* WIP time of a 4 KiB sector erase (0: 20000) */
  const char *path;       /* backing file (NULL: none); created at save if missing */
} tflash_cfg_t;

typedef struct {
  uint64_t commands;      /* CS-low periods with at least one byte */
  uint64_t reads;         /* READ / FAST_READ commands */
  uint64_t programs;      /* page programs performed */
  uint64_t erases;        /* sector erases performed */
  uint64_t status_reads;  /* RDSR commands */
  uint64_t busy_cycles;   /* cycles with WIP set */
  uint64_t violations;    /* protocol errors: command while WIP, program/erase without WEL,
                             unknown opcode, SCK high at CS fall, partial byte at CS rise */
} tflash_stats_t;

/* NULL on a bad configuration or an unreadable backing file (tflash_last_error). */
tflash_t *tflash_create(const tflash_cfg_t *cfg);
void tflash_destroy(tflash_t *f);           /* saves to the backing file first */
int tflash_save(tflash_t *f);               /* 0 or -1 (tflash_last_error) */
const char *tflash_last_error(void);

/* One clock cycle: the controller's pin levels of this cycle; returns the MISO level
 * for the next cycle. */
int tflash_pins(tflash_t *f, int csn, int sck, int mosi);
/* Back door: the array itself (size bytes), and the state. */
uint8_t *tflash_data(tflash_t *f);
uint32_t tflash_size(const tflash_t *f);
uint8_t tflash_status(const tflash_t *f);   /* SR1: bit 0 WIP, bit 1 WEL */
void tflash_stats(const tflash_t *f, tflash_stats_t *st);
/* A chip reset: ends a command in progress (an operation in WIP runs on). */
void tflash_reset_pins(tflash_t *f);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_FLASH_H */
