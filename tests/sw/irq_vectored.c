/* Vectored mtvec: interrupts enter at base + 4 * cause (the BSP records the
 * slot in trap_frame_t.vector), exceptions at the base (slot 0). Timer (7),
 * software (3) and external (11) interrupts and an ecall are checked, then
 * the same in direct mode (slot -1). */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

extern char trap_vector_table[];

static volatile int32_t vec_timer = -9, vec_soft = -9, vec_ext = -9, vec_ecall = -9;
static volatile uint32_t hits;

static void on_timer(trap_frame_t *f) { vec_timer = f->vector; timer_disarm(); hits = hits + 1u; }
static void on_soft(trap_frame_t *f) { vec_soft = f->vector; msip_clear(); hits = hits + 1u; }
static void on_ecall(trap_frame_t *f) { vec_ecall = f->vector; trap_skip(f); hits = hits + 1u; }
static void on_swirq(uint32_t src) { intc_swirq_clear(src - INTC_SRC_SWIRQ(0)); hits = hits + 1u; }
static void on_ext(trap_frame_t *f) { vec_ext = f->vector; intc_dispatch(); }

static void wait_hits(uint32_t n)
{
    for (uint32_t i = 0; i < 20000u && hits < n; i++)
        ;
}

static void run_all(int32_t want_t, int32_t want_s, int32_t want_e, int32_t want_x)
{
    uint32_t h = hits;
    vec_timer = vec_soft = vec_ext = vec_ecall = -9;
    irq_global_enable();
    timer_set_cmp(timer_now() + 300u);
    wait_hits(h + 1u);
    msip_set();
    wait_hits(h + 2u);
    intc_swirq_raise(1u);
    wait_hits(h + 3u);
    __asm__ volatile("ecall" ::: "memory");
    irq_global_disable();
    CHECK_EQ(hits, h + 4u);
    CHECK_EQ(vec_timer, want_t);
    CHECK_EQ(vec_soft, want_s);
    CHECK_EQ(vec_ext, want_e);
    CHECK_EQ(vec_ecall, want_x);
}

int main(void)
{
    trap_init(MTVEC_VECTORED);
    CHECK_EQ(csr_read(mtvec), (uint32_t)(uintptr_t)trap_vector_table | MTVEC_VECTORED);
    intc_init();
    trap_set_interrupt_handler(IRQ_M_TIMER, on_timer);
    trap_set_interrupt_handler(IRQ_M_SOFT, on_soft);
    trap_set_interrupt_handler(IRQ_M_EXT, on_ext);
    trap_set_exception_handler(CAUSE_ECALL_M, on_ecall);
    intc_set_handler(INTC_SRC_SWIRQ(1), on_swirq);
    intc_enable(INTC_SRC_SWIRQ(1));
    csr_set(mie, MIE_MTIE | MIE_MSIE | MIE_MEIE);

    run_all(7, 3, 11, 0);

    trap_init(MTVEC_DIRECT);
    run_all(-1, -1, -1, -1);
    return 0;
}
