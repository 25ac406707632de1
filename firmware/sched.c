/* Tessera firmware: timer tick, doorbells and the scheduler loop. */
#include "regs/intc_regs.h"
#include "tessera/tessera.h"
#include "fw.h"
#include "events.h"
#include "console.h"
#include "cp.h"
#include "sched.h"

static uint32_t tick_cycles;
static uint64_t next_tick;

static void tick_isr(trap_frame_t *f)
{
    (void)f;
    /* drift-free: the next deadline is computed from the previous one; if we
     * fell more than a period behind, resynchronise to now */
    next_tick += tick_cycles;
    uint64_t now = timer_now();
    if (next_tick <= now)
        next_tick = now + tick_cycles;
    timer_set_cmp(next_tick);
    fw_ticks = fw_ticks + 1u;
    sysctrl_heartbeat();
    fw_events = fw_events | FW_EV_TICK;
}

static void doorbell_isr(uint32_t src)
{
    intc_swirq_clear(src - INTC_SRC_SWIRQ(0));
    fw_doorbells = fw_doorbells + 1u;
    fw_cp_note_doorbell();
    fw_events = fw_events | FW_EV_DOORBELL;
}

__attribute__((weak)) void fw_cp_poll(uint32_t events)
{
    (void)events;
}

__attribute__((weak)) void fw_cp_init(void) {}
__attribute__((weak)) void fw_cp_note_doorbell(void) {}
__attribute__((weak)) void fw_cp_doorbell(void)
{
    fw_cp_note_doorbell();
}
__attribute__((weak)) uint32_t fw_cp_wake(uint32_t pending)
{
    (void)pending;
    return 0u;
}

void fw_sched_init(void)
{
    uint32_t hz = sysctrl_clk_hz();
    tick_cycles = (sysctrl_platform() == SYSCTRL_PLATFORM_SIM || hz == 0u) ? FW_TICK_SIM_CYCLES
                                                                          : hz / FW_TICK_HZ;
    intc_set_handler(INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ), doorbell_isr);
    intc_enable(INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ));
    intc_ext_enable();
    trap_set_interrupt_handler(IRQ_M_TIMER, tick_isr);
    next_tick = timer_now() + tick_cycles;
    timer_set_cmp(next_tick);
    timer_irq_enable();
    fw_cp_init();
}

void fw_sched_run(void)
{
    sysctrl_set_fw_state(FW_STATE_IDLE);
    irq_global_enable();
    for (;;) {
        /* take the event word with interrupts off; sleep if there is none
         * (wfi wakes on a pending interrupt even with mstatus.MIE clear, and
         * the interrupt is taken as soon as MIE is restored) */
        irq_global_disable();
        uint32_t ev = fw_events;
        fw_events = 0u;
        if (ev == 0u) {
            wfi();
            /* fast path: a doorbell that woke us is taken here, without the
             * trap entry and exit (about 200 cycles of the doorbell latency);
             * fw_cp_doorbell starts the job first and the SWIRQ bit is cleared
             * after it: the pass that follows (fw_cp_poll) reads every ring
             * after the clear, so no doorbell is lost */
            uint32_t pend = INTC_REG(PENDING);
            if (pend & (1u << INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ))) {
                fw_cp_doorbell();
                INTC_REG(SWIRQ_CLR) = FIELD_PREP(INTC__SWIRQ_CLR__BITS, 1u << FW_DOORBELL_SWIRQ);
                fw_doorbells = fw_doorbells + 1u;
                ev = FW_EV_DOORBELL | FW_EV_DB_FAST;
            } else {
                ev = fw_cp_wake(pend);
            }
        }
        irq_global_enable();
        if (ev == 0u)
            continue;
        if (ev & (FW_EV_DOORBELL | FW_EV_TICK | FW_EV_ENGINE))
            fw_cp_poll(ev);
        if (ev & FW_EV_UART)
            fw_console_poll();
    }
}
