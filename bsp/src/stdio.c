/* Tessera BSP: picolibc stdio on the UART. stdin/stdout/stderr are one
 * unbuffered stream: every character goes straight to uart_putc (nothing is
 * held back in a buffer that could be lost), "\n" is sent as "\r\n". */
#include <stdio.h>
#include "tessera/uart.h"
#include "tessera/uart_rx.h"

static int tessera_stdio_put(char c, FILE *f)
{
    (void)f;
    if (c == '\n')
        uart_putc('\r');
    uart_putc(c);
    return (unsigned char)c;
}

static int tessera_stdio_get(FILE *f)
{
    (void)f;
    return uart_getc();
}

static int tessera_stdio_flush(FILE *f)
{
    (void)f;
    uart_flush();
    return 0;
}

static FILE tessera_stdio = FDEV_SETUP_STREAM(tessera_stdio_put, tessera_stdio_get,
                                              tessera_stdio_flush, _FDEV_SETUP_RW);

FILE *const stdin = &tessera_stdio;
FILE *const stdout = &tessera_stdio;
FILE *const stderr = &tessera_stdio;
