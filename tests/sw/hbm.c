/* Device memory (HBM, 0x8000_0000+) from the core: word, half and byte
 * stores and loads (signed and unsigned) at addresses spread over every
 * channel (interleave granule TESSERA_HBM_INTERLEAVE_BYTES) and at the top of
 * the 1 GiB window. Expected values are regenerated from the same seeded
 * xorshift sequence, or composed byte by byte (little endian) from the
 * values stored. An address past the window must give a load access fault. */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

#define HBM ((volatile uint8_t *)(uintptr_t)TESSERA_HBM_BASE)
#define REGION 2048u    /* bytes per pass: every channel (256-byte granules) twice */

static uint32_t xs;
static uint32_t next(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 17;
    xs ^= xs << 5;
    return xs;
}

static volatile uint32_t faults, fault_addr;
static void on_load_fault(trap_frame_t *f)
{
    faults = faults + 1u;
    fault_addr = f->mtval;
    trap_skip(f);
}

static int check_words(uint32_t off, uint32_t seed)
{
    volatile uint32_t *w = (volatile uint32_t *)(HBM + off);
    xs = seed;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < REGION / 4u; i++)
        if (w[i] != next())
            bad++;
    return bad == 0u;
}

int main(void)
{
    trap_init(MTVEC_DIRECT);
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, on_load_fault);

    /* words */
    volatile uint32_t *w = (volatile uint32_t *)HBM;
    xs = 0x12345678u;
    for (uint32_t i = 0; i < REGION / 4u; i++)
        w[i] = next();
    CHECK(check_words(0u, 0x12345678u));

    /* bytes: store bytes, read back as words (little endian) and as bytes */
    volatile uint8_t *b = HBM + REGION;
    xs = 0x0badcafeu;
    for (uint32_t i = 0; i < REGION; i++)
        b[i] = (uint8_t)next();
    xs = 0x0badcafeu;
    uint32_t bad = 0;
    volatile uint32_t *bw = (volatile uint32_t *)b;
    for (uint32_t i = 0; i < REGION / 4u; i++) {
        uint32_t e = 0;
        for (uint32_t k = 0; k < 4u; k++)
            e |= (next() & 0xFFu) << (8u * k);
        if (bw[i] != e)
            bad++;
    }
    CHECK_EQ(bad, 0u);

    /* halves */
    volatile uint16_t *h = (volatile uint16_t *)(HBM + 2u * REGION);
    xs = 0x31415926u;
    for (uint32_t i = 0; i < REGION / 2u; i++)
        h[i] = (uint16_t)next();
    xs = 0x31415926u;
    bad = 0;
    volatile uint32_t *hw = (volatile uint32_t *)h;
    for (uint32_t i = 0; i < REGION / 4u; i++) {
        uint32_t lo = next() & 0xFFFFu, hi = next() & 0xFFFFu;
        if (hw[i] != (lo | (hi << 16)))
            bad++;
    }
    CHECK_EQ(bad, 0u);

    /* sub-word loads of a known word, sign extension */
    volatile uint32_t *p = (volatile uint32_t *)(HBM + 3u * REGION + 4u);
    *p = 0x80FF7F01u;
    volatile int8_t *sb = (volatile int8_t *)p;
    volatile uint8_t *ub = (volatile uint8_t *)p;
    volatile int16_t *sh = (volatile int16_t *)p;
    volatile uint16_t *uh = (volatile uint16_t *)p;
    CHECK_EQ(ub[0], 0x01u);
    CHECK_EQ(ub[1], 0x7Fu);
    CHECK_EQ(ub[2], 0xFFu);
    CHECK_EQ(ub[3], 0x80u);
    CHECK_EQ((int32_t)sb[2], -1);
    CHECK_EQ((int32_t)sb[3], -128);
    CHECK_EQ((int32_t)sb[1], 127);
    CHECK_EQ(uh[0], 0x7F01u);
    CHECK_EQ(uh[1], 0x80FFu);
    CHECK_EQ((int32_t)sh[1], (int32_t)(int16_t)0x80FF);
    /* partial stores merge with the other bytes */
    ub[1] = 0xAAu;
    uh[1] = 0x1234u;
    CHECK_EQ(*p, 0x1234AA01u);

    /* one word in each granule of several channels, then the top of the window */
    for (uint32_t g = 0; g < 4u * TESSERA_HBM_CHANNELS; g++) {
        volatile uint32_t *q = (volatile uint32_t *)(HBM + 0x100000u + g * TESSERA_HBM_INTERLEAVE_BYTES + 4u * g);
        *q = 0xC0DE0000u | g;
    }
    bad = 0;
    for (uint32_t g = 0; g < 4u * TESSERA_HBM_CHANNELS; g++) {
        volatile uint32_t *q = (volatile uint32_t *)(HBM + 0x100000u + g * TESSERA_HBM_INTERLEAVE_BYTES + 4u * g);
        if (*q != (0xC0DE0000u | g))
            bad++;
    }
    CHECK_EQ(bad, 0u);
    volatile uint32_t *top = (volatile uint32_t *)(uintptr_t)(TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES - 4u);
    *top = 0xFEEDF00Du;
    CHECK_EQ(*top, 0xFEEDF00Du);
    CHECK(check_words(0u, 0x12345678u));    /* the first pass is still intact */

    /* past the end of populated device memory (the window, or the SDRAM) */
    uint32_t past = TESSERA_HBM_BASE + TESSERA_DEVMEM_BYTES;
    volatile uint32_t sink = *(volatile uint32_t *)(uintptr_t)past;
    (void)sink;
    CHECK_EQ(faults, 1u);
    CHECK_EQ(fault_addr, past);
    return 0;
}
