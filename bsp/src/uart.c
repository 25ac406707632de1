/* Tessera BSP: UART driver, polled output and the bit time (uart.h). */
#include "tessera/mmio.h"
#include "tessera/sysctrl.h"
#include "tessera/uart.h"

void uart_set_div(uint32_t div)
{
    UART_REG(CTRL) = FIELD_PREP(UART__CTRL__DIV, div);
}

void uart_init(uint32_t baud)
{
    if (sysctrl_platform() != SYSCTRL_PLATFORM_SIM && baud != 0u) {
        uint32_t div = sysctrl_clk_hz() / baud;
        if (div < 4u)
            div = 4u;
        uart_flush();
        uart_set_div(div);
    }
}

void uart_putc(char c)
{
    while (UART_REG(STATUS) & UART__STATUS__TX_FULL_bm)
        ;
    UART_REG(TXDATA) = (uint8_t)c;
}

void uart_puts(const char *s)
{
    while (*s)
        uart_putc(*s++);
}

void uart_write(const void *buf, size_t n)
{
    const char *p = buf;
    while (n--)
        uart_putc(*p++);
}

void uart_flush(void)
{
    while (!(UART_REG(STATUS) & UART__STATUS__TX_IDLE_bm))
        ;
}

void uart_put_hex32(uint32_t v)
{
    static const char hex[] = "0123456789abcdef";
    uart_putc('0');
    uart_putc('x');
    for (int i = 28; i >= 0; i -= 4)
        uart_putc(hex[(v >> i) & 0xFu]);
}

void uart_put_dec(uint32_t v)
{
    char buf[11];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        uart_putc(buf[--n]);
}
