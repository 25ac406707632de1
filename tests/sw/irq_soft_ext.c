/* CLINT software interrupt (mcause 0x80000003) and the external interrupt
 * through INTC (mcause 0x8000000B) raised by SWIRQ:
 *  - MSIP with MIE clear sets mip.MSIP and is not taken; taken once enabled
 *  - INTC: PENDING shows raised SWIRQs, CORE_EN masks them (CLAIM none), the
 *    lowest-numbered enabled source is claimed first, and the BSP dispatcher
 *    calls each source's handler once
 *  - mie.MEIE masks the external interrupt */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

static volatile uint32_t msi_hits, msi_cause;
static volatile uint32_t ext_order[8], ext_n, ext_cause, ext_last;

static void msi_handler(trap_frame_t *f)
{
    msi_hits = msi_hits + 1u;
    msi_cause = f->mcause;
    msip_clear();
}

static void swirq_handler(uint32_t src)
{
    if (ext_n < 8u)
        ext_order[ext_n] = src;
    ext_n = ext_n + 1u;
    ext_last = src;
    ext_cause = csr_read(mcause);
    intc_swirq_clear(src - INTC_SRC_SWIRQ(0));
}

static void wait_until(volatile uint32_t *v, uint32_t target)
{
    for (uint32_t i = 0; i < 20000u && *v < target; i++)
        ;
}

int main(void)
{
    trap_init(MTVEC_DIRECT);
    intc_init();
    irq_global_disable();

    /* ---- CLINT MSIP */
    trap_set_interrupt_handler(IRQ_M_SOFT, msi_handler);
    csr_set(mie, MIE_MSIE);
    msip_set();
    timer_delay_cycles(50);
    CHECK(csr_read(mip) & MIP_MSIP);
    CHECK_EQ(CLINT_REG(MSIP), 1u);
    CHECK_EQ(msi_hits, 0u);
    msip_clear();
    timer_delay_cycles(20);
    CHECK_EQ(csr_read(mip) & MIP_MSIP, 0u);
    irq_global_enable();
    CHECK_EQ(msi_hits, 0u);
    msip_set();
    wait_until(&msi_hits, 1u);
    CHECK_EQ(msi_hits, 1u);
    CHECK_EQ(msi_cause, MCAUSE_INTERRUPT | IRQ_M_SOFT);
    CHECK_EQ(CLINT_REG(MSIP), 0u);
    /* masked by mie.MSIE */
    csr_clear(mie, MIE_MSIE);
    msip_set();
    timer_delay_cycles(100);
    CHECK_EQ(msi_hits, 1u);
    csr_set(mie, MIE_MSIE);
    wait_until(&msi_hits, 2u);
    CHECK_EQ(msi_hits, 2u);
    irq_global_disable();
    csr_clear(mie, MIE_MSIE);

    /* ---- INTC SWIRQ -> machine external interrupt */
    for (uint32_t n = 0; n < 8u; n++)
        intc_set_handler(INTC_SRC_SWIRQ(n), swirq_handler);
    CHECK_EQ(INTC_REG(PENDING), 0u);
    CHECK_EQ(intc_claim(), -1);

    /* raised but not enabled in CORE_EN: pending, no claim, no interrupt */
    intc_ext_enable();
    irq_global_enable();
    intc_swirq_raise(5u);
    timer_delay_cycles(50);
    CHECK_EQ(ext_n, 0u);
    CHECK_EQ(INTC_REG(PENDING), 1u << INTC_SRC_SWIRQ(5));
    CHECK_EQ(INTC_REG(SWIRQ), 1u << 5);
    CHECK_EQ(intc_claim(), -1);
    CHECK_EQ(csr_read(mip) & MIP_MEIP, 0u);
    intc_swirq_clear(5u);
    CHECK_EQ(INTC_REG(PENDING), 0u);
    irq_global_disable();

    /* two sources raised while MIE is clear, then enabled: lowest first */
    for (uint32_t n = 0; n < 8u; n++)
        intc_enable(INTC_SRC_SWIRQ(n));
    intc_swirq_raise(6u);
    intc_swirq_raise(2u);
    timer_delay_cycles(20);
    CHECK(csr_read(mip) & MIP_MEIP);
    CHECK_EQ(intc_claim(), (int)INTC_SRC_SWIRQ(2));
    CHECK_EQ(ext_n, 0u);
    irq_global_enable();
    wait_until(&ext_n, 2u);
    irq_global_disable();
    CHECK_EQ(ext_n, 2u);
    CHECK_EQ(ext_order[0], INTC_SRC_SWIRQ(2));
    CHECK_EQ(ext_order[1], INTC_SRC_SWIRQ(6));
    CHECK_EQ(ext_cause, MCAUSE_INTERRUPT | IRQ_M_EXT);
    CHECK_EQ(INTC_REG(PENDING), 0u);
    CHECK_EQ(csr_read(mip) & MIP_MEIP, 0u);

    /* masked by mie.MEIE */
    intc_ext_disable();
    irq_global_enable();
    intc_swirq_raise(7u);
    timer_delay_cycles(50);
    CHECK_EQ(ext_n, 2u);
    intc_ext_enable();
    wait_until(&ext_n, 3u);
    irq_global_disable();
    CHECK_EQ(ext_n, 3u);
    CHECK_EQ(ext_order[2], INTC_SRC_SWIRQ(7));

    /* every SWIRQ bit reaches its handler */
    irq_global_enable();
    for (uint32_t n = 0; n < 8u; n++) {
        uint32_t before = ext_n;
        intc_swirq_raise(n);
        wait_until(&ext_n, before + 1u);
        CHECK_EQ(ext_n, before + 1u);
        CHECK_EQ(ext_last, INTC_SRC_SWIRQ(n));
    }
    irq_global_disable();
    CHECK_EQ(ext_n, 11u);
    return 0;
}
