/* Reference behaviour of tessera_uart, written from rtl/uart/data/uart.rdl and
 * docs/regs/uart.md: 8N1 frames (start 0, data LSB first, stop 1), a bit time of
 * max(CTRL.div, 4) clock cycles, TX and RX FIFOs of `depth` bytes, sticky
 * write-1-to-clear error flags and two level interrupts. Transaction level:
 * the testbench tells it which bytes were written and which frames arrived. */
#ifndef TESSERA_UART_REF_H
#define TESSERA_UART_REF_H
#include <stdint.h>

#include "regs/uart_regs.h"

#define UART_REF_MAX_DEPTH 64

typedef struct {
  unsigned depth;
  uint32_t ctrl_div, ie;
  uint8_t tx_q[UART_REF_MAX_DEPTH];
  unsigned tx_n;       /* bytes waiting in the TX FIFO */
  int tx_busy;         /* shifter holds a byte */
  uint8_t rx_q[UART_REF_MAX_DEPTH];
  unsigned rx_n;
  int tx_overflow, rx_overrun, rx_frame_err;
} uart_ref_t;

static inline void uart_ref_reset(uart_ref_t *r, unsigned depth) {
  *r = (uart_ref_t){0};
  r->depth = depth;
  r->ctrl_div = UART__CTRL__DIV_reset;
}

static inline unsigned uart_ref_bit_cycles(uint32_t div) { return div < 4 ? 4 : div; }

/* line level of bit k (0..9) of the frame carrying `b` */
static inline int uart_ref_frame_bit(uint8_t b, unsigned k) {
  if (k == 0) return 0;
  if (k == 9) return 1;
  return (b >> (k - 1)) & 1;
}

/* software writes TXDATA: the idle shifter takes the byte at once, else the
 * FIFO, else it is dropped and tx_overflow set. Returns 1 if accepted. */
static inline int uart_ref_tx_write(uart_ref_t *r, uint8_t b) {
  if (!r->tx_busy && r->tx_n == 0) { r->tx_busy = 1; return 1; }
  if (r->tx_n < r->depth) { r->tx_q[r->tx_n++] = b; return 1; }
  r->tx_overflow = 1;
  return 0;
}

/* the shifter finished a frame: it takes the next byte or goes idle */
static inline void uart_ref_tx_frame_done(uart_ref_t *r) {
  if (r->tx_n) {
    for (unsigned i = 1; i < r->tx_n; i++) r->tx_q[i - 1] = r->tx_q[i];
    r->tx_n--;
  } else {
    r->tx_busy = 0;
  }
}

/* a frame arrived on the line */
static inline void uart_ref_rx_frame(uart_ref_t *r, uint8_t b, int stop_ok) {
  if (!stop_ok) { r->rx_frame_err = 1; return; }
  if (r->rx_n == r->depth) { r->rx_overrun = 1; return; }
  r->rx_q[r->rx_n++] = b;
}

/* software reads RXDATA (pops a byte when there is one); *valid tells whether
 * the data field is defined */
static inline uint32_t uart_ref_rxdata_read(uart_ref_t *r, int *valid) {
  if (!r->rx_n) { *valid = 0; return UART__RXDATA__EMPTY_bm; }
  uint32_t v = r->rx_q[0];
  for (unsigned i = 1; i < r->rx_n; i++) r->rx_q[i - 1] = r->rx_q[i];
  r->rx_n--;
  *valid = 1;
  return v;
}

static inline int uart_ref_tx_idle(const uart_ref_t *r) { return !r->tx_busy && r->tx_n == 0; }

static inline uint32_t uart_ref_status(const uart_ref_t *r) {
  uint32_t s = 0;
  if (r->tx_n == r->depth) s |= UART__STATUS__TX_FULL_bm;
  if (uart_ref_tx_idle(r)) s |= UART__STATUS__TX_IDLE_bm;
  if (r->rx_n) s |= UART__STATUS__RX_VALID_bm;
  if (r->tx_overflow) s |= UART__STATUS__TX_OVERFLOW_bm;
  if (r->rx_overrun) s |= UART__STATUS__RX_OVERRUN_bm;
  if (r->rx_frame_err) s |= UART__STATUS__RX_FRAME_ERR_bm;
  s |= ((uint32_t)r->tx_n << UART__STATUS__TX_LEVEL_bp) & UART__STATUS__TX_LEVEL_bm;
  s |= ((uint32_t)r->rx_n << UART__STATUS__RX_LEVEL_bp) & UART__STATUS__RX_LEVEL_bm;
  return s;
}

/* write 1 to clear the three sticky flags */
static inline void uart_ref_status_write(uart_ref_t *r, uint32_t v) {
  if (v & UART__STATUS__TX_OVERFLOW_bm) r->tx_overflow = 0;
  if (v & UART__STATUS__RX_OVERRUN_bm) r->rx_overrun = 0;
  if (v & UART__STATUS__RX_FRAME_ERR_bm) r->rx_frame_err = 0;
}

static inline int uart_ref_irq(const uart_ref_t *r) {
  return ((r->ie & UART__IE__RX_VALID_bm) && r->rx_n) ||
         ((r->ie & UART__IE__TX_IDLE_bm) && uart_ref_tx_idle(r));
}
#endif
