/* Tessera management firmware: shared declarations (docs/firmware.md). */
#ifndef TESSERA_FW_H
#define TESSERA_FW_H

#include <stdint.h>

#define FW_VERSION_MAJOR 0
#define FW_VERSION_MINOR 1
#define FW_VERSION_PATCH 0

/* Scheduler tick: simulation keeps it short so the heartbeat is visible in a
 * few hundred thousand cycles; on a board it is 10 ms. */
#define FW_TICK_SIM_CYCLES 20000u
#define FW_TICK_HZ         100u

/* Doorbell: the host raises INTC SWIRQ bit FW_DOORBELL_SWIRQ (source 24+n)
 * after it has advanced a submission queue's producer index. */
#define FW_DOORBELL_SWIRQ  0u

/* Event bits, set by interrupt handlers, consumed by the scheduler loop. */
#define FW_EV_TICK      (1u << 0)
#define FW_EV_DOORBELL  (1u << 1)
#define FW_EV_UART      (1u << 2)
#define FW_EV_ENGINE    (1u << 3)   /* job event (SWIRQ 1) or engine-queue error (INTC 11) */
#define FW_EV_DB_FAST   (1u << 4)   /* with FW_EV_DOORBELL: fw_cp_doorbell has run the fast path */

extern volatile uint32_t fw_events;
extern volatile uint32_t fw_ticks;
extern volatile uint32_t fw_doorbells;

/* sched.c */
void fw_sched_init(void);
void fw_sched_run(void) __attribute__((noreturn));
/* The control-path hook: called from the scheduler loop whenever a doorbell
 * rang (and on every tick as a watchdog poll). Weak default does nothing; the
 * control-path issue provides the real one (take jobs from the submission
 * queues, validate them, hand command buffers to the queue managers, post
 * completions). Runs in thread context with interrupts enabled. */
void fw_cp_poll(uint32_t events);
/* cp.c: scheduler set-up (host-interface block, engine queues, interrupts),
 * called by fw_sched_init; doorbell time stamp and counter from the doorbell
 * interrupt; 'j' console report. Weak empty defaults in sched.c. */
void fw_cp_init(void);
void fw_cp_note_doorbell(void);
/* right after wfi, with interrupts masked, when the doorbell woke the core
 * (before its SWIRQ bit is cleared): time stamp and counter of
 * fw_cp_note_doorbell, and a job that can start at once is started here */
void fw_cp_doorbell(void);
/* right after wfi, with interrupts masked: event bits for control-path
 * interrupts pending in INTC.PENDING that cp.c takes without a trap */
uint32_t fw_cp_wake(uint32_t pending);
void fw_cp_print(void);
/* A 32-bit load/store whose bus error returns -1 instead of trapping. */
int fw_safe_access(uint32_t addr, uint32_t *val, int write);

/* console.c: one-letter commands on the UART (see docs/firmware.md) */
void fw_console_init(void);
void fw_console_poll(void);

/* main.c */
void fw_print_status(void);

#endif /* TESSERA_FW_H */
