/* mcycle/minstret (and their high halves):
 *  - minstret advances by exactly the number of instructions retired
 *    between two reads (a block of 100 nops and one csrr)
 *  - mcycle advances at least as fast as minstret, and in step with mtime
 *    (both count core clock cycles)
 *  - writes to mcycle/minstret take effect and carry into mcycleh/minstreth */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

static uint64_t rd64(int which)
{
    uint32_t hi, lo, hi2;
    do {
        if (which) {
            hi = csr_read(minstreth);
            lo = csr_read(minstret);
            hi2 = csr_read(minstreth);
        } else {
            hi = csr_read(mcycleh);
            lo = csr_read(mcycle);
            hi2 = csr_read(mcycleh);
        }
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

int main(void)
{
    uint32_t i0, i1, c0, c1;
    __asm__ volatile("csrr %0, minstret\n"
                     "csrr %1, mcycle\n"
                     ".rept 100\n nop\n .endr\n"
                     "csrr %2, minstret\n"
                     "csrr %3, mcycle\n"
                     : "=&r"(i0), "=&r"(c0), "=&r"(i1), "=&r"(c1));
    /* retired between the two minstret reads: csrr mcycle, 100 nops, and the
     * first csrr minstret itself */
    CHECK_EQ(i1 - i0, 102u);
    CHECK(c1 - c0 >= 101u);
    CHECK(c1 - c0 < 1000u);

    /* mcycle and mtime both count clock cycles */
    uint32_t m0 = csr_read(mcycle);
    uint64_t t0 = timer_now();
    timer_delay_cycles(20000u);
    uint32_t m1 = csr_read(mcycle);
    uint64_t t1 = timer_now();
    uint32_t dm = m1 - m0, dt = (uint32_t)(t1 - t0);
    CHECK(dt >= 20000u);
    CHECK(dm + 200u >= dt && dm <= dt + 200u);

    /* a loop with a known instruction count */
    uint32_t n, j0, j1;
    __asm__ volatile("li %0, 1000\n"
                     "csrr %1, minstret\n"
                     "1: addi %0, %0, -1\n bnez %0, 1b\n"
                     "csrr %2, minstret\n"
                     : "=&r"(n), "=&r"(j0), "=&r"(j1));
    CHECK_EQ(j1 - j0, 2001u);   /* 2 per iteration plus the first csrr */

    /* writes and carries */
    csr_write(mcycleh, 7u);
    csr_write(mcycle, 0xFFFFFF00u);
    timer_delay_cycles(1000u);
    uint64_t c = rd64(0);
    CHECK_EQ((uint32_t)(c >> 32), 8u);
    CHECK((uint32_t)c < 0x10000u);
    csr_write(minstreth, 3u);
    csr_write(minstret, 0xFFFFFFF0u);
    for (volatile int k = 0; k < 20; k++)
        ;
    uint64_t r = rd64(1);
    CHECK_EQ((uint32_t)(r >> 32), 4u);
    CHECK((uint32_t)r < 0x1000u);

    /* user-level read-only shadows agree */
    uint32_t a = csr_read(minstret), u = csr_read(instret), a2 = csr_read(minstret);
    CHECK(u >= a && u <= a2);
    uint32_t cy = csr_read(cycle), mc = csr_read(mcycle);
    CHECK(mc - cy < 100u);
    return 0;
}
