/* SPI flash controller: operations and error codes of CMD.op / STATUS.err
 * (rtl/spiflash/data/spiflash.rdl, docs/spiflash.md), shared by the boot ROM, the
 * host tools and the tests. */
#ifndef TESSERA_SPIFLASH_H
#define TESSERA_SPIFLASH_H

enum {
  SF_OP_READ_ID = 0,     /* 0x9F: 3 bytes into ID */
  SF_OP_READ = 1,        /* 0x03: LEN bytes into the FIFO */
  SF_OP_FAST_READ = 2,   /* 0x0B + dummy byte */
  SF_OP_WREN = 3,        /* 0x06 */
  SF_OP_PROGRAM = 4,     /* 0x02: LEN bytes from the FIFO, inside one 256-byte page */
  SF_OP_ERASE_4K = 5,    /* 0x20: the 4 KiB sector at ADDR (aligned) */
  SF_OP_READ_STATUS = 6, /* 0x05: into STATUS.sr */
  SF_OP_WRDI = 7         /* 0x04 */
};
#define SF_CMD_WREN (1u << 8)  /* WREN before the operation */
#define SF_CMD_POLL (1u << 9)  /* poll WIP after it */

enum {
  SF_ERR_NONE = 0,
  SF_ERR_BUSY = 1,     /* command written while busy: ignored */
  SF_ERR_BAD_OP = 2,
  SF_ERR_LEN = 3,      /* LEN 0 or > 256 */
  SF_ERR_DATA = 4,     /* PROGRAM: fewer FIFO words than LEN needs */
  SF_ERR_RANGE = 5,    /* past FLASH_SIZE */
  SF_ERR_PAGE = 6,     /* PROGRAM across a 256-byte page */
  SF_ERR_ALIGN = 7,    /* ERASE_4K not 4 KiB aligned */
  SF_ERR_TIMEOUT = 8   /* WIP still set after 2^24 polls */
};

#define SF_PAGE_BYTES 256u
#define SF_SECTOR_BYTES 4096u
#define SF_FIFO_WORDS 64u

#endif /* TESSERA_SPIFLASH_H */
