/* Tessera BSP: UART driver (8N1, TX/RX FIFOs; registers in rtl/uart/data/uart.rdl). */
#ifndef TESSERA_UART_H
#define TESSERA_UART_H

#include <stdint.h>
#include <stddef.h>

/* Set the bit time. On an FPGA board (SYSCTRL.CONFIG0.platform != 0) this
 * programs CTRL.div = CLK_HZ / baud; in simulation the reset divider is kept. */
void uart_init(uint32_t baud);
void uart_set_div(uint32_t div);

void uart_putc(char c);                 /* polled: waits while the TX FIFO is full */
void uart_puts(const char *s);          /* no newline translation */
void uart_write(const void *buf, size_t n);
void uart_flush(void);                  /* waits until the TX FIFO is empty and the line idle */
void uart_put_hex32(uint32_t v);        /* "0x%08x" without printf */
void uart_put_dec(uint32_t v);

/* Receive. Without the RX interrupt these poll RXDATA. With uart_rx_irq_enable()
 * the INTC source 0 handler drains the RX FIFO into a software ring, and these
 * read from the ring. */
int uart_getc(void);                    /* blocking, returns 0..255 */
int uart_try_getc(void);                /* -1 if nothing is available */
void uart_rx_irq_enable(void);          /* UART.IE.rx_valid, INTC source 0, mie.MEIE */
void uart_rx_irq_disable(void);
/* Called from the RX interrupt after the FIFO was drained into the ring (0 = none). */
void uart_set_rx_callback(void (*cb)(void));
uint32_t uart_rx_irq_count(void);       /* number of RX interrupts taken */
uint32_t uart_rx_dropped(void);         /* bytes lost because the software ring was full */

#endif /* TESSERA_UART_H */
