/* Tessera firmware: the event word and counters (events.h). */
#include "events.h"

volatile uint32_t fw_events;
volatile uint32_t fw_ticks;
volatile uint32_t fw_doorbells;
