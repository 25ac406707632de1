/* Tessera BSP: UART receive side (uart_rx.h): polled, or a software ring
 * filled by the RX interrupt (INTC source 0). */
#include "tessera/csr.h"
#include "tessera/intc.h"
#include "tessera/mmio.h"
#include "tessera/uart_rx.h"

#define RX_RING 128u   /* power of two */

static volatile uint8_t rx_ring[RX_RING];
static volatile uint32_t rx_head, rx_tail;   /* head: written by the ISR */
static volatile uint32_t rx_irqs, rx_drops;
static volatile int rx_irq_mode;
static void (*rx_callback)(void);

void uart_set_rx_callback(void (*cb)(void)) { rx_callback = cb; }

static int rx_poll(void)
{
    uint32_t d = UART_REG(RXDATA);
    if (d & UART__RXDATA__EMPTY_bm)
        return -1;
    return (int)FIELD_GET(UART__RXDATA__DATA, d);
}

static void uart_isr(uint32_t src)
{
    (void)src;
    rx_irqs = rx_irqs + 1u;
    int c;
    while ((c = rx_poll()) >= 0) {
        uint32_t h = rx_head;
        if (h - rx_tail >= RX_RING) {
            rx_drops = rx_drops + 1u;
            continue;
        }
        rx_ring[h & (RX_RING - 1u)] = (uint8_t)c;
        rx_head = h + 1u;
    }
    if (rx_callback)
        rx_callback();
}

int uart_try_getc(void)
{
    if (!rx_irq_mode)
        return rx_poll();
    uint32_t t = rx_tail;
    if (t == rx_head)
        return -1;
    int c = rx_ring[t & (RX_RING - 1u)];
    rx_tail = t + 1u;
    return c;
}

int uart_getc(void)
{
    int c;
    while ((c = uart_try_getc()) < 0) {
        if (rx_irq_mode) {
            /* sleep until the next interrupt; the check-then-wfi race is
             * harmless because wfi wakes on a pending interrupt even with
             * mstatus.MIE clear. Called with interrupts disabled (e.g. from a
             * handler), drain the FIFO here instead of waiting for the ISR. */
            uint32_t s = irq_save();
            if (!s)
                uart_isr(INTC_SRC_UART);
            else if (rx_tail == rx_head)
                wfi();
            irq_restore(s);
        }
    }
    return c;
}

void uart_rx_irq_enable(void)
{
    rx_irq_mode = 1;
    intc_set_handler(INTC_SRC_UART, uart_isr);
    UART_REG(IE) = UART_REG(IE) | UART__IE__RX_VALID_bm;
    intc_enable(INTC_SRC_UART);
    intc_ext_enable();
}

void uart_rx_irq_disable(void)
{
    UART_REG(IE) = UART_REG(IE) & ~UART__IE__RX_VALID_bm;
    intc_disable(INTC_SRC_UART);
    rx_irq_mode = 0;
}

uint32_t uart_rx_irq_count(void) { return rx_irqs; }
uint32_t uart_rx_dropped(void) { return rx_drops; }
