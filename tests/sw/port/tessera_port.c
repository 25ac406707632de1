/* Tessera glue for bench_int: UART output, mcycle/minstret, tohost exit. */
#include "bench_port.h"
#include "tessera/tessera.h"
#include "tessera/test.h"

void port_init(void) { uart_init(TESSERA_UART_BAUD); }
void port_putc(int c) { uart_putc((char)c); }
uint32_t port_cycles(void) { return rdcycle32(); }
uint32_t port_instret(void) { return rdinstret32(); }
void port_exit(int code)
{
    if (code == 0)
        test_pass();
    test_fail((uint32_t)code);
}
