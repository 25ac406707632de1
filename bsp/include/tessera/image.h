/* Tessera firmware image format (docs/boot.md). Shared by the boot ROM, the
 * host tool bsp/tools/mkimage.c and the host test bsp/tools/image_test.c, so it
 * depends on nothing but <stdint.h>.
 *
 * An image is a chain of 1..TIMG_MAX_SEGS segments. Each segment is a 32-byte
 * little-endian header followed by its payload; when the header's MORE flag is
 * set, the next header follows the payload at the next 4-byte boundary. */
#ifndef TESSERA_IMAGE_H
#define TESSERA_IMAGE_H

#include <stdint.h>

#define TIMG_MAGIC        0x57465354u  /* bytes 'T','S','F','W' */
#define TIMG_VERSION      1u
#define TIMG_HDR_BYTES    32u
#define TIMG_FLAG_MORE    (1u << 16)
#define TIMG_MAX_SEGS     8u

typedef struct {
    uint32_t magic;        /* TIMG_MAGIC */
    uint32_t version;      /* [7:0] format version (1), [15:8] header bytes / 4 (8), [16] MORE */
    uint32_t payload_len;  /* payload bytes, > 0 */
    uint32_t load_addr;    /* where the payload is copied (4-byte aligned) */
    uint32_t entry;        /* entry point; used from the LAST segment of the chain */
    uint32_t payload_crc;  /* CRC-32 of the payload */
    uint32_t reserved;     /* 0 */
    uint32_t hdr_crc;      /* CRC-32 of the 28 bytes above */
} timg_header_t;

#define TIMG_VERSION_WORD(more) (TIMG_VERSION | ((TIMG_HDR_BYTES / 4u) << 8) | ((more) ? TIMG_FLAG_MORE : 0u))

/* Boot status codes (SYSCTRL.BOOT_STATUS.code) written by the boot ROM. */
enum {
    BOOT_ST_RESET        = 0x00,  /* register reset value: ROM has not run */
    BOOT_ST_ROM_START    = 0x01,  /* ROM entered, UART banner sent */
    BOOT_ST_WAIT_GO      = 0x02,  /* waiting for BOOT_CTRL.GO */
    BOOT_ST_GO           = 0x03,  /* GO seen (BOOT_CTRL.GO cleared by the ROM) */
    BOOT_ST_VERIFY       = 0x04,  /* checking the image chain */
    BOOT_ST_LOAD         = 0x05,  /* image good, copying payloads */
    BOOT_ST_JUMP         = 0x06,  /* jumping to the entry (detail = entry >> 8) */
    BOOT_ST_FLASH        = 0x07,  /* reading and checking the image in the SPI flash */
    /* errors: the ROM prints a message and goes back to waiting for GO */
    BOOT_ERR_ADDR        = 0x81,  /* header address unreadable or misaligned */
    BOOT_ERR_MAGIC       = 0x82,  /* bad magic */
    BOOT_ERR_HDR_CRC     = 0x83,  /* header CRC mismatch */
    BOOT_ERR_VERSION     = 0x84,  /* unknown version / header size / reserved != 0 */
    BOOT_ERR_LENGTH      = 0x85,  /* payload length 0, or payload not readable */
    BOOT_ERR_LOAD        = 0x86,  /* load range outside RAM, misaligned, or overlapping the chain */
    BOOT_ERR_ENTRY       = 0x87,  /* entry misaligned or outside every loaded segment */
    BOOT_ERR_PAYLOAD_CRC = 0x88,  /* payload CRC mismatch */
    BOOT_ERR_CHAIN       = 0x89,  /* more than TIMG_MAX_SEGS segments */
};
/* Error detail (SYSCTRL.BOOT_STATUS.detail, 24 bits):
 * [23:20] segment index, [19:0] check-specific value (see docs/boot.md). */
#define TIMG_DETAIL(seg, v) ((((uint32_t)(seg) & 0xFu) << 20) | ((uint32_t)(v) & 0xFFFFFu))

/* CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, init and final xor
 * 0xFFFFFFFF). crc32_update() chains: crc32(a+b) = crc32_update(crc32(a), b). */
uint32_t crc32_update(uint32_t crc, const void *data, uint32_t len);
static inline uint32_t crc32(const void *data, uint32_t len) { return crc32_update(0u, data, len); }

typedef struct { uint32_t base, size; } timg_range_t;

typedef struct {
    const timg_range_t *src; uint32_t nsrc;   /* regions the image may be read from */
    const timg_range_t *dst; uint32_t ndst;   /* regions payloads may be loaded into */
    /* Translate a chip address range to a readable pointer, or 0. The boot ROM
     * returns the address itself; host tests return a pointer into a buffer. */
    const void *(*map)(uint32_t addr, uint32_t len, void *ctx);
    void *ctx;
} timg_env_t;

typedef struct {
    uint32_t nseg;
    uint32_t entry;
    struct { uint32_t src, dst, len; } seg[TIMG_MAX_SEGS];
} timg_plan_t;

/* Walk and check the whole chain at addr. Returns 0 and fills plan, or a
 * BOOT_ERR_* code with *detail set. Nothing is written to chip memory. */
uint32_t timg_verify(uint32_t addr, const timg_env_t *env, timg_plan_t *plan, uint32_t *detail);
/* Parts of timg_verify for readers that cannot map the image (the boot ROM reading
 * flash): magic, header CRC and version of segment `seg`'s header; the entry of a
 * complete plan (plan->nseg >= 1) inside one of its segments; a range inside one of
 * n ranges. Error codes and details as timg_verify's. */
uint32_t timg_check_header(const timg_header_t *h, uint32_t seg, uint32_t *detail);
uint32_t timg_check_entry(const timg_plan_t *plan, uint32_t *detail);
int timg_range_inside(uint32_t a, uint32_t len, const timg_range_t *r, uint32_t n);

#endif /* TESSERA_IMAGE_H */
