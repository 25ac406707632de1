/* Tessera firmware: the doorbell fast path (cp_fast.S, docs/firmware.md "Fast paths"). */
#ifndef TESSERA_FW_CP_FAST_H
#define TESSERA_FW_CP_FAST_H

#include <stdint.h>

#define FAST_TAKEN 1u          /* cp_fast_start result: started; slot [3:1], ring [5:4] */
#define FAST_MEM   (1u << 6)   /* a LIN_DMA: the job touches memory */

/* The job take_jobs would take next, if it can start at once and its command
 * buffers hold only the packets the fast path checks: checked, its queues
 * programmed and started (cnt.t_first_start stamped). Returns 0 having changed
 * nothing but the free slot's fields otherwise. Only caller-saved registers. */
uint32_t cp_fast_start(void);

#endif /* TESSERA_FW_CP_FAST_H */
