/* Tessera boot ROM (docs/boot.md).
 *
 *   1. BOOT_STATUS = ROM_START, one line on the UART
 *   1b. unless the host has already set BOOT_CTRL.GO: BOOT_STATUS = FLASH, look for
 *      an image chain at TESSERA_FLASH_IMAGE_OFFSET of the SPI flash; check it
 *      completely (without writing RAM), then copy it to RAM re-checking every CRC
 *      and jump to its entry. An erased flash (magic 0xFFFFFFFF) or a rejected image:
 *      one UART line, then step 2 (a rejection stays in BOOT_STATUS)
 *   2. BOOT_STATUS = WAIT_GO, poll SYSCTRL.BOOT_CTRL.GO; meanwhile the serial loader
 *      answers hostlink's serial frames on the UART (tessera/serframe.h: HELLO answered
 *      "TSRM", READ32/WRITE32 of RAM, device memory, SYSCTRL and the SPI flash
 *      controller), so a host with only the UART can load an image into RAM and set GO,
 *      or write the flash, with no firmware running
 *   3. clear GO; VERIFY = 0: jump to BOOT_ADDR
 *      VERIFY = 1: check the image chain at BOOT_ADDR, copy the payloads to
 *      their load addresses, jump to the entry of the last segment. A bad
 *      image sets BOOT_STATUS to an error code + detail, prints the reason and
 *      returns to step 2 (keeping the error in BOOT_STATUS until the next GO):
 *      the ROM never jumps into an image that failed.
 * Runs with its data and stack in the top 2 KiB of DSRAM (bsp/ld/bootrom.ld),
 * which images may not load into. No libc. */
#include "tessera/tessera.h"
#include "tessera/image.h"
#include "tessera/serframe.h"
#include "tessera/spiflash.h"
#include "regs/spiflash_regs.h"
#include "regs/uart_regs.h"

#define SF_REG(r) MMIO32(TESSERA_SPIFLASH_BASE + offsetof(spiflash_t, r))

extern char __bootrom_ram[];

/* freestanding helpers GCC may call; memcpy moves whole words when both
 * pointers are aligned (payloads usually come from slow device memory) */
void *memcpy(void *d, const void *s, unsigned n);
void *memcpy(void *d, const void *s, unsigned n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp) & 3u) == 0u) {
        for (; n >= 4u; n -= 4u, dp += 4, sp += 4)
            *(uint32_t *)(void *)dp = *(const uint32_t *)(const void *)sp;
    }
    while (n--)
        *dp++ = *sp++;
    return d;
}
void *memmove(void *d, const void *s, unsigned n);
void *memmove(void *d, const void *s, unsigned n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if (dp <= sp)
        return memcpy(d, s, n);
    while (n--)
        dp[n] = sp[n];
    return d;
}
void *memset(void *d, int c, unsigned n);
void *memset(void *d, int c, unsigned n)
{
    uint8_t *dp = d;
    while (n--)
        *dp++ = (uint8_t)c;
    return d;
}

/* crt0 calls _exit if main returns; main never does */
void _exit(int code) __attribute__((noreturn));
void _exit(int code)
{
    (void)code;
    for (;;)
        wfi();
}

static void status(uint32_t code, uint32_t detail)
{
    sysctrl_set_boot_status(code, detail);
}

/* An exception in the ROM itself: report and park (never returns to garbage). */
void trap_unexpected(trap_frame_t *f)
{
    sysctrl_set_boot_status(0x8Fu, f->mcause & 0xFFu);
    uart_puts("boot: exception mcause=");
    uart_put_hex32(f->mcause);
    uart_puts(" mepc=");
    uart_put_hex32(f->mepc);
    uart_puts(" mtval=");
    uart_put_hex32(f->mtval);
    uart_puts("\r\n");
    for (;;)
        wfi();
}

static const void *rom_map(uint32_t addr, uint32_t len, void *ctx)
{
    (void)len;
    (void)ctx;
    return (const void *)(uintptr_t)addr;
}

static const char *err_text(uint32_t e)
{
    switch (e) {
    case BOOT_ERR_ADDR: return "bad header address";
    case BOOT_ERR_MAGIC: return "bad magic";
    case BOOT_ERR_HDR_CRC: return "header CRC mismatch";
    case BOOT_ERR_VERSION: return "unsupported header version";
    case BOOT_ERR_LENGTH: return "bad payload length";
    case BOOT_ERR_LOAD: return "bad load address";
    case BOOT_ERR_ENTRY: return "bad entry point";
    case BOOT_ERR_PAYLOAD_CRC: return "payload CRC mismatch";
    case BOOT_ERR_CHAIN: return "too many segments";
    default: return "error";
    }
}

static void __attribute__((noreturn)) jump(uint32_t entry)
{
    status(BOOT_ST_JUMP, entry >> 8);
    csr_write(mie, 0u);
    void (*fn)(void) = (void (*)(void))(uintptr_t)entry;
    fn();
    for (;;)
        wfi();
}

/* ---------------------------------------------------------------- SPI flash */
/* Read len bytes of flash at addr into dst, 256 at a time through the controller's
 * FIFO; whole words where dst is aligned, bytes at the tail (never past dst + len).
 * 0, or the controller's error code. */
static uint32_t sf_read(uint32_t addr, uint8_t *dst, uint32_t len)
{
    while (len) {
        uint32_t n = len < SF_PAGE_BYTES ? len : SF_PAGE_BYTES;
        SF_REG(ADDR) = addr;
        SF_REG(LEN) = n;
        SF_REG(CMD) = SF_OP_READ;
        uint32_t st;
        while ((st = SF_REG(STATUS)) & SPIFLASH__STATUS__BUSY_bm)
            ;
        if (st & SPIFLASH__STATUS__ERR_bm)
            return FIELD_GET(SPIFLASH__STATUS__ERR, st);
        for (uint32_t i = 0; i < n; i += 4u) {
            uint32_t w = SF_REG(RDATA);
            if (n - i >= 4u && (((uintptr_t)dst + i) & 3u) == 0u) {
                *(uint32_t *)(void *)(dst + i) = w;
            } else {
                for (uint32_t b = 0; b < 4u && i + b < n; b++)
                    dst[i + b] = (uint8_t)(w >> (8u * b));
            }
        }
        addr += n;
        dst += n;
        len -= n;
    }
    return 0;
}

static uint8_t sf_buf[SF_PAGE_BYTES] __attribute__((aligned(4)));

/* The image chain at the flash's image offset, with the checks of timg_verify (a
 * source range is the flash, a destination is RAM without the ROM's area, no two
 * destinations overlap). copy = 0: payloads are read into sf_buf for their CRC and
 * RAM is not written; copy = 1: payloads are read to their load addresses and their
 * CRC checked again there. */
static uint32_t flash_chain(const timg_env_t *env, timg_plan_t *plan, uint32_t *detail, int copy)
{
    uint32_t addr = TESSERA_FLASH_IMAGE_OFFSET;
    uint32_t more = 1u, seg = 0;
    plan->nseg = 0;
    *detail = 0;
    while (more) {
        if (seg >= TIMG_MAX_SEGS) {
            *detail = TIMG_DETAIL(seg, TIMG_MAX_SEGS);
            return BOOT_ERR_CHAIN;
        }
        timg_header_t h;
        if (addr > TESSERA_FLASH_BYTES - TIMG_HDR_BYTES || sf_read(addr, (uint8_t *)&h, TIMG_HDR_BYTES)) {
            *detail = TIMG_DETAIL(seg, addr >> 12);
            return BOOT_ERR_ADDR;
        }
        uint32_t err = timg_check_header(&h, seg, detail);
        if (err)
            return err;
        uint32_t len = h.payload_len, src = addr + TIMG_HDR_BYTES, dst = h.load_addr;
        if (len == 0u || len > TESSERA_FLASH_BYTES - src) {
            *detail = TIMG_DETAIL(seg, len);
            return BOOT_ERR_LENGTH;
        }
        int bad = (dst & 3u) != 0u || !timg_range_inside(dst, len, env->dst, env->ndst);
        for (uint32_t i = 0; i < seg; i++)
            bad |= dst < plan->seg[i].dst + plan->seg[i].len && plan->seg[i].dst < dst + len;
        if (bad) {
            *detail = TIMG_DETAIL(seg, dst >> 12);
            return BOOT_ERR_LOAD;
        }
        uint32_t crc = 0;
        for (uint32_t off = 0; off < len; off += SF_PAGE_BYTES) {
            uint32_t n = len - off < SF_PAGE_BYTES ? len - off : SF_PAGE_BYTES;
            uint8_t *p = copy ? (uint8_t *)(uintptr_t)(dst + off) : sf_buf;
            if (sf_read(src + off, p, n)) {
                *detail = TIMG_DETAIL(seg, len);
                return BOOT_ERR_LENGTH;
            }
            crc = crc32_update(crc, p, n);
        }
        if (crc != h.payload_crc) {
            *detail = TIMG_DETAIL(seg, crc);
            return BOOT_ERR_PAYLOAD_CRC;
        }
        plan->seg[seg].src = src;
        plan->seg[seg].dst = dst;
        plan->seg[seg].len = len;
        plan->entry = h.entry;
        plan->nseg = ++seg;
        more = h.version & TIMG_FLAG_MORE;
        addr = (src + len + 3u) & ~3u;
    }
    return timg_check_entry(plan, detail);
}

/* Boot the flash image, or return: 0 when the flash holds none (erased), else the
 * rejection's error code (BOOT_STATUS keeps it). Never jumps into an image that
 * failed a check. */
static uint32_t flash_boot(const timg_env_t *env)
{
    status(BOOT_ST_FLASH, 0u);
    SF_REG(CTRL) = 0u;   /* SCK = clock / 2 */
    uint32_t magic = 0, detail = 0, err;
    timg_plan_t plan;
    uart_puts("flash image at ");
    uart_put_hex32(TESSERA_FLASH_IMAGE_OFFSET);
    if (sf_read(TESSERA_FLASH_IMAGE_OFFSET, (uint8_t *)&magic, 4u)) {
        err = BOOT_ERR_ADDR;
        detail = TESSERA_FLASH_IMAGE_OFFSET >> 12;
    } else if (magic == 0xFFFFFFFFu) {
        uart_puts(": none (erased); waiting for the host\r\n");
        return 0;
    } else {
        err = flash_chain(env, &plan, &detail, 0);
        if (!err) {
            status(BOOT_ST_LOAD, plan.nseg);
            err = flash_chain(env, &plan, &detail, 1);
        }
        if (!err) {
            uart_puts(": ok, ");
            uart_put_dec(plan.nseg);
            uart_puts(" segment(s), entry ");
            uart_put_hex32(plan.entry);
            uart_puts("\r\n");
            jump(plan.entry);
        }
    }
    status(err, detail);
    uart_puts(": ");
    uart_puts(err_text(err));
    uart_puts(" (status ");
    uart_put_hex32(SYSCTRL_REG(BOOT_STATUS));
    uart_puts("); waiting for the host\r\n");
    return err;
}

/* ---------------------------------------------------------------- serial loader */
/* What the loader's frames may touch: [base, base + bytes) readable, and writable if w.
 * Nothing else is accessed (an unmapped address would fault the ROM): SERFRAME_BUS. */
typedef struct {
    uint32_t base, bytes, w;
} ld_region_t;
static int ld_allowed(uint32_t a, int write)
{
    const uint32_t rom_ram = (uint32_t)(uintptr_t)__bootrom_ram;
    const ld_region_t r[] = {
        { TESSERA_BOOTROM_BASE, TESSERA_BOOTROM_BYTES, 0u },
        { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES, 1u },
        { TESSERA_DSRAM_BASE, rom_ram - TESSERA_DSRAM_BASE, 1u },   /* not the ROM's own data */
        { TESSERA_SYSCTRL_BASE, TESSERA_SYSCTRL_SIZE, 1u },
        { TESSERA_SPIFLASH_BASE, TESSERA_SPIFLASH_SIZE, 1u },
        { TESSERA_HBM_BASE, TESSERA_HBM_SIZE, 1u },
    };
    for (uint32_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (a - r[i].base < r[i].bytes)
            return !write || r[i].w;
    return 0;
}

static int ld_access(uint32_t a, uint32_t *v, int write)
{
    if (!ld_allowed(a, write))
        return 1;
    if (write)
        MMIO32(a) = *v;
    else
        *v = MMIO32(a);
    return 0;
}

static serframe_rx_t ld_rx;

/* One byte from the UART while the ROM waits for GO. */
static void ld_byte(uint8_t c)
{
    if (serframe_byte(&ld_rx, c) != 2)
        return;
    serframe_serve(&ld_rx, SERFRAME_ID_BOOTROM, ld_access);
    uart_write(ld_rx.answer, ld_rx.answer_len);
}

int main(void)
{
    const uint32_t rom_ram = (uint32_t)(uintptr_t)__bootrom_ram;
    /* image sources: RAM (without the ROM's own area) and device memory */
    const timg_range_t src[3] = {
        { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES },
        { TESSERA_DSRAM_BASE, rom_ram - TESSERA_DSRAM_BASE },
        { TESSERA_HBM_BASE, TESSERA_HBM_SIZE - 4096u },
    };
    const timg_range_t dst[2] = {
        { TESSERA_ISRAM_BASE, TESSERA_ISRAM_BYTES },
        { TESSERA_DSRAM_BASE, rom_ram - TESSERA_DSRAM_BASE },
    };
    /* where ISRAM and DSRAM are contiguous a segment may span both */
    const timg_range_t dst_joined[1] = {
        { TESSERA_ISRAM_BASE, rom_ram - TESSERA_ISRAM_BASE },
    };
    timg_env_t env = { src, 3u, dst, 2u, rom_map, 0 };
    if (TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES == TESSERA_DSRAM_BASE) {
        env.dst = dst_joined;
        env.ndst = 1u;
    }

    status(BOOT_ST_ROM_START, 0u);
    uart_puts("Tessera boot ROM " TESSERA_CONFIG_NAME "\r\n");

    /* a host that has already asked for a boot goes first */
    if ((SYSCTRL_REG(BOOT_CTRL) & SYSCTRL__BOOT_CTRL__GO_bm) || !flash_boot(&env))
        status(BOOT_ST_WAIT_GO, 0u);
    for (;;) {
        /* after a rejected image BOOT_STATUS keeps the error code and detail
         * while the ROM waits for the next GO */
        uint32_t ctrl;
        while (!((ctrl = SYSCTRL_REG(BOOT_CTRL)) & SYSCTRL__BOOT_CTRL__GO_bm)) {
            const uint32_t d = UART_REG(RXDATA);
            if (!(d & UART__RXDATA__EMPTY_bm))
                ld_byte((uint8_t)(d & UART__RXDATA__DATA_bm));
        }
        SYSCTRL_REG(BOOT_CTRL) = ctrl & ~SYSCTRL__BOOT_CTRL__GO_bm;
        uint32_t addr = SYSCTRL_REG(BOOT_ADDR);
        status(BOOT_ST_GO, 0u);

        if (!(ctrl & SYSCTRL__BOOT_CTRL__VERIFY_bm))
            jump(addr);

        status(BOOT_ST_VERIFY, 0u);
        timg_plan_t plan;
        uint32_t detail;
        uint32_t err = timg_verify(addr, &env, &plan, &detail);
        if (err) {
            status(err, detail);
            uart_puts("boot: image at ");
            uart_put_hex32(addr);
            uart_puts(" rejected: ");
            uart_puts(err_text(err));
            uart_puts(" (status ");
            uart_put_hex32(SYSCTRL_REG(BOOT_STATUS));
            uart_puts(")\r\n");
            continue;
        }
        status(BOOT_ST_LOAD, plan.nseg);
        for (uint32_t i = 0; i < plan.nseg; i++) {
            if (plan.seg[i].src != plan.seg[i].dst)
                memcpy((void *)(uintptr_t)plan.seg[i].dst, (const void *)(uintptr_t)plan.seg[i].src,
                       plan.seg[i].len);
        }
        uart_puts("boot: image ok, ");
        uart_put_dec(plan.nseg);
        uart_puts(" segment(s), entry ");
        uart_put_hex32(plan.entry);
        uart_puts("\r\n");
        jump(plan.entry);
    }
}
