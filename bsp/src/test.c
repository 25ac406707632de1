/* Tessera BSP: tohost convention and CHECK bookkeeping (bsp/include/tessera/test.h). */
#include "tessera/csr.h"
#include "tessera/mmio.h"
#include "tessera/uart.h"
#include "tessera/test.h"

volatile uint32_t tohost __attribute__((section(".tohost"), aligned(8)));
volatile uint32_t fromhost __attribute__((section(".tohost"), aligned(8)));

uint32_t test_checks;
uint32_t test_first_fail;
uint32_t test_fail_count;

static void __attribute__((noreturn)) finish(uint32_t word)
{
    /* wait until the last character has left the pin, plus two character
     * times so that a receiver sampling the stop bit sees it before the
     * simulator stops on the tohost write */
    uart_flush();
    uint32_t div = FIELD_GET(UART__CTRL__DIV, UART_REG(CTRL));
    uint32_t t0 = rdcycle32();
    while (rdcycle32() - t0 < 20u * div)
        ;
    tohost = word;
    for (;;)
        __asm__ volatile("wfi");
}

void test_pass(void) { finish(1u); }

void test_fail(uint32_t code)
{
    if (code == 0u)
        code = 0x7FFFFFFFu;   /* never report a failure as a pass */
    uart_puts("TEST FAILED, code ");
    uart_put_dec(code);
    uart_puts("\r\n");
    finish((code << 1) | 1u);
}

void test_done(void)
{
    uart_puts(test_first_fail ? "checks: " : "checks ok: ");
    uart_put_dec(test_checks);
    uart_puts(" run, ");
    uart_put_dec(test_fail_count);
    uart_puts(" failed\r\n");
    if (test_first_fail)
        test_fail(test_first_fail);
    test_pass();
}

int test_check(int ok, const char *file, int line, const char *expr)
{
    uint32_t n = ++test_checks;
    if (!ok) {
        test_fail_count++;
        if (!test_first_fail)
            test_first_fail = n;
        uart_puts("CHECK ");
        uart_put_dec(n);
        uart_puts(" failed at ");
        uart_puts(file);
        uart_putc(':');
        uart_put_dec((uint32_t)line);
        uart_puts(": ");
        uart_puts(expr);
        uart_puts("\r\n");
    }
    return ok;
}

int test_check_eq(uint32_t got, uint32_t exp, const char *file, int line, const char *expr)
{
    int ok = test_check(got == exp, file, line, expr);
    if (!ok) {
        uart_puts("    got ");
        uart_put_hex32(got);
        uart_puts(", expected ");
        uart_put_hex32(exp);
        uart_puts("\r\n");
    }
    return ok;
}

/* exit(n) / return from main: 0 = pass (unless a CHECK failed), else fail(n) */
void _exit(int code) __attribute__((noreturn));
void _exit(int code)
{
    if (code == 0)
        test_done();
    test_fail((uint32_t)code);
}
