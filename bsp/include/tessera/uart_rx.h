/* Tessera BSP: UART receive side (software ring filled by the RX interrupt);
 * output and the bit time are in uart.h. */
#ifndef TESSERA_UART_RX_H
#define TESSERA_UART_RX_H

#include <stdint.h>

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

#endif /* TESSERA_UART_RX_H */
