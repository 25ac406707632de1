/* Tessera firmware: UART console. Received bytes arrive through the UART RX
 * interrupt (BSP ring buffer); the scheduler loop handles them:
 *   s  print FW_STATUS, ticks and doorbells
 *   j  print the job counters of the control-path scheduler
 *   v  print the version banner line
 *   h  list the commands
 *   !  deliberately execute an illegal instruction (tests the fatal-trap path)
 * Other bytes are ignored, except 0xA5, which starts a host frame (hostlink's
 * serial transport, docs/hostlink.md): A5 op tag len payload crc8, answered
 * with A6 op tag len payload crc8; ops HELLO, READ32 addr, WRITE32 addr value. */
#include <stdio.h>
#include "tessera/tessera.h"
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

#define FR_REQ 0xA5u
#define FR_RSP 0xA6u
enum { FR_HELLO = 1, FR_READ32 = 2, FR_WRITE32 = 3 };

static uint8_t fr[40];
static uint32_t fr_n;      /* bytes of the frame received (0: not in a frame) */
uint32_t fw_frames;

static uint8_t crc8(const uint8_t *p, uint32_t n)
{
    uint8_t c = 0;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (uint8_t)((c & 0x80u) ? (uint8_t)((c << 1) ^ 0x07u) : (uint8_t)(c << 1));
    }
    return c;
}

static uint32_t rd_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void frame_reply(uint8_t op, uint8_t tag, const uint8_t *pay, uint32_t len)
{
    uint8_t f[16];
    f[0] = FR_RSP;
    f[1] = op;
    f[2] = tag;
    f[3] = (uint8_t)len;
    for (uint32_t i = 0; i < len; i++)
        f[4 + i] = pay[i];
    f[4 + len] = crc8(f + 1, 3u + len);
    uart_write(f, 5u + len);
}

/* A complete request in fr[0..fr_n): op tag len payload crc */
static void frame_run(void)
{
    uint8_t op = fr[0], tag = fr[1], len = fr[2];
    uint8_t r[5] = {2u, 0, 0, 0, 0};
    uint32_t rlen = 1u, a, v;
    if (crc8(fr, 3u + len) != fr[3u + len])
        return;   /* dropped: the host times out and retries */
    fw_frames++;
    if (op == FR_HELLO && len == 0u) {
        r[0] = 0u;
        r[1] = 'T', r[2] = 'S', r[3] = 'F', r[4] = 'W';
        rlen = 5u;
    } else if (op == FR_READ32 && len == 4u && !((a = rd_le(fr + 3)) & 3u)) {
        r[0] = fw_safe_access(a, &v, 0) ? 1u : 0u;
        if (!r[0]) {
            r[1] = (uint8_t)v, r[2] = (uint8_t)(v >> 8), r[3] = (uint8_t)(v >> 16), r[4] = (uint8_t)(v >> 24);
            rlen = 5u;
        }
    } else if (op == FR_WRITE32 && len == 8u && !((a = rd_le(fr + 3)) & 3u)) {
        v = rd_le(fr + 7);
        r[0] = fw_safe_access(a, &v, 1) ? 1u : 0u;
    }
    frame_reply(op, tag, r, rlen);
}

/* Feed one byte to the frame receiver; 1 if it was part of a frame. */
static int frame_byte(int c)
{
    if (fr_n == 0u) {
        if ((uint32_t)c != FR_REQ)
            return 0;
        fr_n = 1u;
        return 1;
    }
    fr[fr_n - 1u] = (uint8_t)c;
    fr_n++;
    if (fr_n >= 4u && (fr[2] > 32u)) {
        fr_n = 0u;   /* impossible length: resynchronise */
        return 1;
    }
    if (fr_n >= 4u && fr_n - 1u == 4u + fr[2]) {
        frame_run();
        fr_n = 0u;
    }
    return 1;
}

void fw_console_poll(void)
{
    int c;
    while ((c = uart_try_getc()) >= 0) {
        if (frame_byte(c))
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
