/* UART receive with the RX interrupt. chip_tb feeds tests/sw/uart_rx.uart_in
 * into uart_rx_i right after boot. The fixture is 16 bytes (it fits the RX
 * FIFO while the boot ROM is still running): 12 bytes of text followed by
 * their CRC-32, little endian, computed when the fixture was written. The
 * program receives the bytes through the INTC source 0 handler and the BSP
 * ring buffer, recomputes the CRC-32 (bit-serial, independent of the boot
 * ROM's table version) and compares. Also checks the interrupt count, no
 * overrun/frame errors, and that RX is idle afterwards. */
#include <stdint.h>
#include <stdio.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

static uint32_t crc32_bits(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static int get_timeout(void)
{
    uint64_t end = timer_now() + 200000u;
    int c;
    while ((c = uart_try_getc()) < 0 && timer_now() < end)
        ;
    return c;
}

int main(void)
{
    trap_init(MTVEC_DIRECT);
    intc_init();
    uart_rx_irq_enable();
    irq_global_enable();

    uint8_t buf[16];
    uint32_t n = 0;
    int c;
    while (n < sizeof buf && (c = get_timeout()) >= 0)
        buf[n++] = (uint8_t)c;
    CHECK_EQ(n, 16u);
    uint32_t want_crc = (uint32_t)buf[12] | ((uint32_t)buf[13] << 8) | ((uint32_t)buf[14] << 16) |
                        ((uint32_t)buf[15] << 24);
    CHECK_EQ(crc32_bits(buf, 12u), want_crc);
    CHECK(buf[0] == 'T' && buf[7] == ' ');
    CHECK(uart_rx_irq_count() >= 1u);
    CHECK_EQ(uart_rx_dropped(), 0u);
    uint32_t st = UART_REG(STATUS);
    CHECK_EQ(st & (UART__STATUS__RX_OVERRUN_bm | UART__STATUS__RX_FRAME_ERR_bm), 0u);
    CHECK_EQ(uart_try_getc(), -1);
    CHECK_EQ(st & UART__STATUS__RX_VALID_bm, 0u);

    uart_rx_irq_disable();
    irq_global_disable();
    printf("uart_rx: received %lu bytes, %lu interrupts\n", (unsigned long)n,
           (unsigned long)uart_rx_irq_count());
    return 0;
}
