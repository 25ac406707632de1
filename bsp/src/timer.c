/* Tessera BSP: CLINT timer. */
#include "tessera/csr.h"
#include "tessera/mmio.h"
#include "tessera/sysctrl.h"
#include "tessera/timer.h"

uint64_t timer_now(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = CLINT_REG(MTIME_HI);
        lo = CLINT_REG(MTIME_LO);
        hi2 = CLINT_REG(MTIME_HI);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

void timer_set_cmp(uint64_t when)
{
    /* low word to all ones first so the intermediate value is never below
     * both the old and the new compare value */
    CLINT_REG(MTIMECMP_LO) = 0xFFFFFFFFu;
    CLINT_REG(MTIMECMP_HI) = (uint32_t)(when >> 32);
    CLINT_REG(MTIMECMP_LO) = (uint32_t)when;
}

void timer_set_cmp_rel(uint32_t cycles)
{
    timer_set_cmp(timer_now() + cycles);
}

void timer_disarm(void)
{
    CLINT_REG(MTIMECMP_LO) = 0xFFFFFFFFu;
    CLINT_REG(MTIMECMP_HI) = 0xFFFFFFFFu;
}

void timer_irq_enable(void) { csr_set(mie, MIE_MTIE); }
void timer_irq_disable(void) { csr_clear(mie, MIE_MTIE); }

void timer_delay_cycles(uint32_t cycles)
{
    uint64_t end = timer_now() + cycles;
    while (timer_now() < end)
        ;
}

void timer_delay_us(uint32_t us)
{
    uint64_t cyc = (uint64_t)sysctrl_clk_hz() / 1000000u * us;
    uint64_t end = timer_now() + cyc;
    while (timer_now() < end)
        ;
}

void msip_set(void) { CLINT_REG(MSIP) = 1u; }
void msip_clear(void) { CLINT_REG(MSIP) = 0u; }
