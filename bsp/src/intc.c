/* Tessera BSP: interrupt controller driver. */
#include "tessera/csr.h"
#include "tessera/intc.h"
#include "tessera/mmio.h"
#include "tessera/trap.h"
#include "tessera/uart.h"

static intc_handler_t handlers[INTC_NUM_SRC];

static void intc_trap(trap_frame_t *f)
{
    (void)f;
    intc_dispatch();
}

void intc_init(void)
{
    INTC_REG(CORE_EN) = 0u;
    INTC_REG(HOST_EN) = 0u;
    INTC_REG(SWIRQ_CLR) = INTC__SWIRQ_CLR__BITS_bm;
    for (uint32_t i = 0; i < INTC_NUM_SRC; i++)
        handlers[i] = 0;
    trap_set_interrupt_handler(IRQ_M_EXT, intc_trap);
}

void intc_set_handler(uint32_t src, intc_handler_t fn)
{
    if (src < INTC_NUM_SRC)
        handlers[src] = fn;
}

void intc_enable(uint32_t src) { INTC_REG(CORE_EN) = INTC_REG(CORE_EN) | (1u << src); }
void intc_disable(uint32_t src) { INTC_REG(CORE_EN) = INTC_REG(CORE_EN) & ~(1u << src); }
void intc_host_enable(uint32_t src) { INTC_REG(HOST_EN) = INTC_REG(HOST_EN) | (1u << src); }
void intc_host_disable(uint32_t src) { INTC_REG(HOST_EN) = INTC_REG(HOST_EN) & ~(1u << src); }
uint32_t intc_pending(void) { return INTC_REG(PENDING); }

int intc_claim(void)
{
    uint32_t c = INTC_REG(CORE_CLAIM);
    if (c & INTC__CORE_CLAIM__NONE_bm)
        return -1;
    return (int)FIELD_GET(INTC__CORE_CLAIM__ID, c);
}

void intc_swirq_raise(uint32_t n) { INTC_REG(SWIRQ) = FIELD_PREP(INTC__SWIRQ__BITS, 1u << n); }
void intc_swirq_clear(uint32_t n) { INTC_REG(SWIRQ_CLR) = FIELD_PREP(INTC__SWIRQ_CLR__BITS, 1u << n); }
void intc_ext_enable(void) { csr_set(mie, MIE_MEIE); }
void intc_ext_disable(void) { csr_clear(mie, MIE_MEIE); }

void intc_dispatch(void)
{
    int src;
    while ((src = intc_claim()) >= 0) {
        intc_handler_t h = handlers[src];
        if (h) {
            h((uint32_t)src);
        } else {
            /* nobody owns it: mask it so it cannot storm */
            intc_disable((uint32_t)src);
            uart_puts("intc: unhandled source ");
            uart_put_dec((uint32_t)src);
            uart_puts(", disabled\r\n");
        }
    }
}
