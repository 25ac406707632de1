/* CLINT timer interrupt (mcause 0x80000007), direct mtvec mode:
 *  - pending but masked by mstatus.MIE or by mie.MTIE: no interrupt, mip.MTIP set
 *  - a pending interrupt is taken exactly when MIE is set (mepc = the
 *    instruction after the csrs that enabled it)
 *  - a future compare fires no earlier than mtimecmp and within a bound after
 *  - wfi wakes up on the timer, with MIE set (trap) and with MIE clear (no trap)
 *  - 64-bit mtime/mtimecmp across a carry out of the low word
 *  - periodic re-arming from the handler */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

#define LATENCY_MAX 200u   /* cycles from mtime >= mtimecmp to the handler */

static volatile uint32_t hits, last_cause, last_epc, rearm_left, period;
static volatile int32_t last_vector;
static volatile uint64_t hit_time, cmp_val;

static void timer_handler(trap_frame_t *f)
{
    hit_time = timer_now();
    hits = hits + 1u;
    last_cause = f->mcause;
    last_epc = f->mepc;
    last_vector = f->vector;
    if (rearm_left) {
        rearm_left = rearm_left - 1u;
        cmp_val = cmp_val + period;
        timer_set_cmp(cmp_val);
    } else {
        timer_disarm();
    }
}

static void arm(uint64_t when)
{
    cmp_val = when;
    timer_set_cmp(when);
}

int main(void)
{
    trap_init(MTVEC_DIRECT);
    trap_set_interrupt_handler(IRQ_M_TIMER, timer_handler);
    irq_global_disable();

    /* mtime advances and reads consistently */
    uint64_t t0 = timer_now();
    timer_delay_cycles(100);
    uint64_t t1 = timer_now();
    CHECK(t1 >= t0 + 100u);
    CHECK(t1 < t0 + 100000u);

    /* pending, enabled in mie, but MIE clear: nothing taken */
    arm(0);
    timer_irq_enable();
    timer_delay_cycles(200);
    CHECK_EQ(hits, 0u);
    CHECK(csr_read(mip) & MIP_MTIP);

    /* taken exactly when MIE is set */
    uint32_t after;
    __asm__ volatile("la %0, 1f\n"
                     "csrsi mstatus, 8\n"
                     "1: nop\n"
                     "csrci mstatus, 8\n"
                     : "=&r"(after) :: "memory");
    CHECK_EQ(hits, 1u);
    CHECK_EQ(last_cause, MCAUSE_INTERRUPT | IRQ_M_TIMER);
    CHECK_EQ(last_epc, after);
    CHECK_EQ(last_vector, -1);
    CHECK_EQ(csr_read(mip) & MIP_MTIP, 0u);   /* handler disarmed it */

    /* pending, MIE set, but mie.MTIE clear: nothing taken */
    timer_irq_disable();
    arm(0);
    irq_global_enable();
    timer_delay_cycles(200);
    irq_global_disable();
    CHECK_EQ(hits, 1u);
    CHECK(csr_read(mip) & MIP_MTIP);
    timer_disarm();
    timer_irq_enable();

    /* a future deadline: not early, not late */
    arm(timer_now() + 1500u);
    irq_global_enable();
    for (uint32_t i = 0; i < 100000u && hits == 1u; i++)
        ;
    irq_global_disable();
    CHECK_EQ(hits, 2u);
    CHECK(hit_time >= cmp_val);
    CHECK(hit_time < cmp_val + LATENCY_MAX);

    /* wfi with MIE set: wakes, the interrupt is taken */
    arm(timer_now() + 3000u);
    irq_global_enable();
    wfi();
    irq_global_disable();
    CHECK_EQ(hits, 3u);
    CHECK(timer_now() >= cmp_val);

    /* wfi with MIE clear: wakes on the pending interrupt without taking it */
    arm(timer_now() + 2000u);
    wfi();
    CHECK(timer_now() >= cmp_val);
    CHECK_EQ(hits, 3u);
    CHECK(csr_read(mip) & MIP_MTIP);
    irq_global_enable();
    __asm__ volatile("nop");
    irq_global_disable();
    CHECK_EQ(hits, 4u);

    /* 64-bit compare across a carry out of mtime's low word */
    CLINT_REG(MTIME_LO) = 0u;                 /* avoid a carry between the writes */
    CLINT_REG(MTIME_HI) = 0x00000005u;
    CLINT_REG(MTIME_LO) = 0xFFFFF000u;
    uint64_t now = timer_now();
    CHECK_EQ((uint32_t)(now >> 32), 5u);
    arm(0x0000000600000400ull);               /* 0x1400 cycles ahead, after the carry */
    irq_global_enable();
    for (uint32_t i = 0; i < 100000u && hits == 4u; i++)
        ;
    irq_global_disable();
    CHECK_EQ(hits, 5u);
    CHECK_EQ((uint32_t)(hit_time >> 32), 6u);
    CHECK(hit_time >= 0x0000000600000400ull);
    CHECK(hit_time < 0x0000000600000400ull + LATENCY_MAX);

    /* periodic: 5 interrupts 1000 cycles apart, re-armed by the handler */
    period = 1000u;
    rearm_left = 4u;
    uint64_t start = timer_now();
    arm(start + period);
    irq_global_enable();
    while (hits < 10u && timer_now() < start + 20u * period)
        ;
    irq_global_disable();
    CHECK_EQ(hits, 10u);
    CHECK(hit_time >= start + 5u * period);
    CHECK(hit_time < start + 5u * period + LATENCY_MAX);

    timer_irq_disable();
    timer_disarm();
    return 0;
}
