/* Tessera boot ROM (docs/boot.md).
 *
 *   1. BOOT_STATUS = ROM_START, one line on the UART
 *   2. BOOT_STATUS = WAIT_GO, poll SYSCTRL.BOOT_CTRL.GO
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

    status(BOOT_ST_WAIT_GO, 0u);
    for (;;) {
        /* after a rejected image BOOT_STATUS keeps the error code and detail
         * while the ROM waits for the next GO */
        uint32_t ctrl;
        while (!((ctrl = SYSCTRL_REG(BOOT_CTRL)) & SYSCTRL__BOOT_CTRL__GO_bm))
            ;
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
