/* Tessera firmware: the event word and counters that interrupt handlers post to
 * and the scheduler loop consumes (docs/firmware.md "Layers"). */
#ifndef TESSERA_FW_EVENTS_H
#define TESSERA_FW_EVENTS_H

#include <stdint.h>

#include "fw.h"

extern volatile uint32_t fw_events;      /* FW_EV_* bits not yet handled */
extern volatile uint32_t fw_ticks;       /* scheduler ticks */
extern volatile uint32_t fw_doorbells;   /* doorbells taken */

#endif /* TESSERA_FW_EVENTS_H */
