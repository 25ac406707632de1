/* Tessera firmware: timer tick, doorbell interrupt and the scheduler loop
 * (sched.c, docs/firmware.md). */
#ifndef TESSERA_FW_SCHED_H
#define TESSERA_FW_SCHED_H

void fw_sched_init(void);
void fw_sched_run(void) __attribute__((noreturn));

#endif /* TESSERA_FW_SCHED_H */
