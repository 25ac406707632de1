/* Tessera BSP: default handler for a trap nobody registered. Kept in its own
 * object so that programs (firmware, boot ROM) can supply their own
 * trap_unexpected() and not pull in the test support code. */
#include "tessera/trap.h"
#include "tessera/uart.h"
#include "tessera/test.h"

void trap_unexpected(trap_frame_t *f)
{
    uart_puts("\r\n*** unexpected trap: mcause=");
    uart_put_hex32(f->mcause);
    uart_puts(" mepc=");
    uart_put_hex32(f->mepc);
    uart_puts(" mtval=");
    uart_put_hex32(f->mtval);
    uart_puts("\r\n");
    test_fail(0xE0u);
}
