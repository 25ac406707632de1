/* Tessera firmware: one-letter commands and the host's serial frames on the UART
 * (console.c, docs/firmware.md). */
#ifndef TESSERA_FW_CONSOLE_H
#define TESSERA_FW_CONSOLE_H

void fw_console_init(void);
/* handle the bytes received so far (the scheduler loop, on FW_EV_UART) */
void fw_console_poll(void);
/* the 's' report: FW_STATUS state and heartbeat, ticks, doorbells */
void fw_print_status(void);

#endif /* TESSERA_FW_CONSOLE_H */
