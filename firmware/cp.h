/* Tessera firmware: the control-path scheduler's hooks (cp.c, docs/firmware.md).
 * The scheduler loop (sched.c) calls them; sched.c keeps weak empty defaults,
 * so a firmware without cp.c still links. */
#ifndef TESSERA_FW_CP_H
#define TESSERA_FW_CP_H

#include <stdint.h>

/* Set-up (host-interface block, engine queues, interrupts), called by fw_sched_init. */
void fw_cp_init(void);
/* Called from the scheduler loop whenever a doorbell rang, a job event or queue
 * error arrived (FW_EV_ENGINE) and on every tick (the watchdog poll): take jobs
 * from the submission rings, validate them, hand command buffers to the queue
 * managers, post completions. Runs in thread context with interrupts enabled. */
void fw_cp_poll(uint32_t events);
/* Doorbell time stamp and counter, from the doorbell interrupt. */
void fw_cp_note_doorbell(void);
/* right after wfi, with interrupts masked, when the doorbell woke the core
 * (before its SWIRQ bit is cleared): time stamp and counter of
 * fw_cp_note_doorbell, and a job that can start at once is started here */
void fw_cp_doorbell(void);
/* right after wfi, with interrupts masked: event bits for control-path
 * interrupts pending in INTC.PENDING that cp.c takes without a trap */
uint32_t fw_cp_wake(uint32_t pending);
/* the console's 'j' report: job counters */
void fw_cp_print(void);
/* A 32-bit load/store whose bus error returns -1 instead of trapping. */
int fw_safe_access(uint32_t addr, uint32_t *val, int write);

#endif /* TESSERA_FW_CP_H */
