/* Tessera BSP: UART driver, polled output (8N1, TX/RX FIFOs; registers in
 * rtl/uart/data/uart.rdl). The receive side is uart_rx.h (above the INTC). */
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

#endif /* TESSERA_UART_H */
