/* Tessera firmware: UART console. Received bytes arrive through the UART RX
 * interrupt (BSP ring buffer); the scheduler loop handles them:
 *   s  print FW_STATUS, ticks and doorbells
 *   v  print the version banner line
 *   h  list the commands
 *   !  deliberately execute an illegal instruction (tests the fatal-trap path)
 * Other bytes are ignored. */
#include <stdio.h>
#include "tessera/tessera.h"
#include "fw.h"

static void rx_ready(void)
{
    fw_events = fw_events | FW_EV_UART;
}

void fw_console_init(void)
{
    uart_set_rx_callback(rx_ready);
    uart_rx_irq_enable();
}

void fw_console_poll(void)
{
    int c;
    while ((c = uart_try_getc()) >= 0) {
        switch (c) {
        case 's':
            fw_print_status();
            break;
        case 'v':
            printf("Tessera firmware v%d.%d.%d (build config %s)\n", FW_VERSION_MAJOR, FW_VERSION_MINOR,
                   FW_VERSION_PATCH, TESSERA_CONFIG_NAME);
            break;
        case 'h':
            printf("commands: s status, v version, h help, ! fault test\n");
            break;
        case '!':
            printf("fw: executing an illegal instruction on request\n");
            __asm__ volatile(".word 0x00000000");
            break;
        default:
            break;
        }
    }
}
