/* Link model between two NIC ports in the multi-chip simulation
 * (docs/nic.md "Link model").
 *
 * One direction of an Ethernet link, in clock cycles of the simulation:
 *   - serialization: a frame of L bytes occupies the wire for
 *     ceil((L + overhead) / bytes_per_cycle) cycles; frames queue behind each
 *     other (overhead: preamble + FCS + inter-frame gap, 24 bytes by default);
 *   - latency: a frame arrives `latency` cycles after its last byte was sent;
 *   - impairments, each drawn per frame from a seeded generator (rates in
 *     parts per million): drop, corrupt (one random bit of the frame is
 *     flipped), duplicate (a second copy arrives dup_gap cycles later) and
 *     reorder (the frame is held 1..reorder_max extra cycles, so frames sent
 *     after it may overtake it).
 * Frames are the MAC client's (no FCS). A pcap writer attached to the link
 * records every frame as the transmitter sent it (before impairments), with
 * the time its first byte went on the wire.
 * The same seed and the same sequence of calls give the same deliveries.
 */
#ifndef TESSERA_LINK_H
#define TESSERA_LINK_H

#include <stdint.h>

#include "tessera_pcap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t latency;          /* cycles from the last byte sent to delivery */
  uint32_t bytes_per_cycle;  /* wire rate (>= 1) */
  uint32_t overhead;         /* wire bytes per frame besides the frame itself */
  uint32_t drop_ppm, corrupt_ppm, dup_ppm, reorder_ppm;
  uint32_t reorder_max;      /* largest extra delay of a reordered frame, cycles (>= 1) */
  uint32_t dup_gap;          /* cycles between a frame and its duplicate */
  uint64_t seed;
} tsim_link_cfg_t;

/* Defaults: 200 cycles latency, 32 bytes/cycle, 24 bytes overhead, no
 * impairments, reorder_max 1000, dup_gap 1, seed 1. */
void tsim_link_cfg_default(tsim_link_cfg_t *cfg);

typedef struct {
  uint64_t sent, sent_bytes;       /* frames handed to the link */
  uint64_t delivered, delivered_bytes;
  uint64_t dropped, corrupted, duplicated, reordered;
  uint64_t busy_cycles;            /* cycles the wire was occupied */
} tsim_link_stats_t;

typedef struct tsim_link tsim_link_t;

tsim_link_t *tsim_link_new(const tsim_link_cfg_t *cfg);
void tsim_link_free(tsim_link_t *l);
/* Record sent frames into p (owned by the caller), time = cycle * ns_per_cycle. */
void tsim_link_set_pcap(tsim_link_t *l, tsim_pcap_t *p, uint32_t ns_per_cycle);

/* First cycle at which the wire is free again (a transmitter may wait for it). */
uint64_t tsim_link_free_at(const tsim_link_t *l);
/* Send a frame at cycle now (it starts when the wire is free). Returns the cycle
 * its last byte leaves, or 0 on error (len 0, out of memory). */
uint64_t tsim_link_send(tsim_link_t *l, uint64_t now, const uint8_t *frame, uint32_t len);
/* Deliver the earliest frame that has arrived by cycle now: returns 1 and
 * copies it (len <= cap; a longer frame is cut to cap), 0 if none is due. */
int tsim_link_recv(tsim_link_t *l, uint64_t now, uint8_t *buf, uint32_t cap, uint32_t *len,
                   uint64_t *arrival);
/* Arrival cycle of the next frame in flight, or UINT64_MAX if none. */
uint64_t tsim_link_next_arrival(const tsim_link_t *l);
/* Frames in flight. */
uint32_t tsim_link_in_flight(const tsim_link_t *l);
void tsim_link_stats(const tsim_link_t *l, tsim_link_stats_t *s);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_LINK_H */
