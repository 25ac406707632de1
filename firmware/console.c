/* Tessera firmware: UART console. Received bytes arrive through the UART RX
 * interrupt (BSP ring buffer); the scheduler loop handles them:
 *   s  print FW_STATUS, ticks and doorbells
 *   j  print the job counters of the control-path scheduler
 *   v  print the version banner line
 *   h  list the commands
 *   !  deliberately execute an illegal instruction (tests the fatal-trap path)
 * Other bytes are ignored, except 0xA5, which starts a host frame (hostlink's
 * serial transport, tessera/serframe.h): HELLO, READ32 addr, WRITE32 addr value;
 * an access that faults is answered with SERFRAME_BUS. */
#include <stdio.h>
#include "tessera/tessera.h"
#include "tessera/serframe.h"
#include "fw.h"
#include "events.h"
#include "console.h"
#include "cp.h"

void fw_print_status(void)
{
    printf("fw: state 0x%02lx heartbeat %lu ticks %lu doorbells %lu\n", (unsigned long)sysctrl_fw_state(),
           (unsigned long)sysctrl_heartbeat_count(), (unsigned long)fw_ticks, (unsigned long)fw_doorbells);
}

static void rx_ready(void)
{
    fw_events = fw_events | FW_EV_UART;
}

void fw_console_init(void)
{
    uart_set_rx_callback(rx_ready);
    uart_rx_irq_enable();
}

static serframe_rx_t fr;
uint32_t fw_frames;

/* A request with a good CRC in fr (a resend of the last one is answered again, not run
 * twice) */
static void frame_run(void)
{
    fw_frames += (uint32_t)serframe_serve(&fr, SERFRAME_ID_FIRMWARE, fw_safe_access);
    uart_write(fr.answer, fr.answer_len);
}

void fw_console_poll(void)
{
    int c;
    while ((c = uart_try_getc()) >= 0) {
        const int f = serframe_byte(&fr, (uint8_t)c);
        if (f == 2)
            frame_run();
        if (f)
            continue;
        switch (c) {
        case 's':
            fw_print_status();
            break;
        case 'j':
            fw_cp_print();
            break;
        case 'v':
            printf("Tessera firmware v%d.%d.%d (build config %s)\n", FW_VERSION_MAJOR, FW_VERSION_MINOR,
                   FW_VERSION_PATCH, TESSERA_CONFIG_NAME);
            break;
        case 'h':
            printf("commands: s status, j jobs, v version, h help, ! fault test\n");
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
