/* Nested interrupts: the timer handler re-enables mstatus.MIE and raises the
 * CLINT software interrupt, which must preempt it (nesting depth 2) and
 * return into it; the outer handler's mepc/mstatus survive (the program
 * resumes where it was interrupted, MIE restored). Without re-enabling, the
 * same software interrupt waits until the outer handler's mret. */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

static volatile uint32_t seq[8], nseq;
static volatile uint32_t inner_depth, outer_depth, allow_nesting, inner_seen_in_outer;

static void note(uint32_t v)
{
    if (nseq < 8u)
        seq[nseq] = v;
    nseq = nseq + 1u;
}

static void msi_handler(trap_frame_t *f)
{
    (void)f;
    inner_depth = trap_nesting;
    msip_clear();
    note(2u);
}

static void timer_handler(trap_frame_t *f)
{
    (void)f;
    outer_depth = trap_nesting;
    timer_disarm();            /* clear our own source before allowing nesting */
    note(1u);
    msip_set();
    if (allow_nesting)
        irq_global_enable();
    for (uint32_t i = 0; i < 2000u && nseq < 2u; i++)
        ;
    inner_seen_in_outer = (nseq >= 2u);
    irq_global_disable();
    note(3u);
}

int main(void)
{
    trap_init(MTVEC_DIRECT);
    trap_set_interrupt_handler(IRQ_M_TIMER, timer_handler);
    trap_set_interrupt_handler(IRQ_M_SOFT, msi_handler);
    csr_set(mie, MIE_MSIE | MIE_MTIE);

    /* nested */
    allow_nesting = 1u;
    uint32_t resumed = 0;
    timer_set_cmp(timer_now() + 500u);
    irq_global_enable();
    while (nseq < 3u && resumed < 100000u)
        resumed++;
    CHECK_EQ(nseq, 3u);
    CHECK_EQ(seq[0], 1u);
    CHECK_EQ(seq[1], 2u);
    CHECK_EQ(seq[2], 3u);
    CHECK_EQ(outer_depth, 1u);
    CHECK_EQ(inner_depth, 2u);
    CHECK_EQ(trap_max_nesting, 2u);
    CHECK_EQ(inner_seen_in_outer, 1u);
    CHECK_EQ(trap_nesting, 0u);
    CHECK(csr_read(mstatus) & MSTATUS_MIE);    /* restored by the outer mret */
    CHECK(resumed > 0u);

    /* not nested: the software interrupt is taken after the outer returns */
    irq_global_disable();
    nseq = 0u;
    allow_nesting = 0u;
    timer_set_cmp(timer_now() + 500u);
    irq_global_enable();
    for (uint32_t i = 0; i < 100000u && nseq < 3u; i++)
        ;
    irq_global_disable();
    CHECK_EQ(nseq, 3u);
    CHECK_EQ(seq[0], 1u);
    CHECK_EQ(seq[1], 3u);
    CHECK_EQ(seq[2], 2u);
    CHECK_EQ(inner_seen_in_outer, 0u);
    CHECK_EQ(inner_depth, 1u);
    CHECK_EQ(trap_nesting, 0u);
    return 0;
}
