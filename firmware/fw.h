/* Tessera management firmware: version, tick, doorbell and event constants shared
 * by every module (docs/firmware.md "Layers"); declarations only, no code. */
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

#endif /* TESSERA_FW_H */
