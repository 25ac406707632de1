/* Several Tessera chips in one simulation, their NIC ports joined by link models
 * (docs/nic.md "Multi-chip simulation").
 *
 * A tsim_multi_t holds chips created with tsim_create and the links between their NIC
 * ports. The chips run in lockstep: every cycle of any member (a tsim_step, a host-port
 * access, a run_until on one chip) advances every other member by one cycle too, so a
 * test may program and poll each chip through its host port as it would a single chip.
 * Per cycle the group looks at the links only: a port's frame is handed to its link when
 * the port ends it (tlast), a frame that has arrived is queued for the receive side of
 * the port at the other end (held there while the port is not ready, never dropped);
 * a port's tx_tready is low while its link's wire is still busy with the previous frame.
 *
 * Each connection is two links (one per direction), each a tessera_link.h model with its
 * own generator: seed cfg->seed for a -> b, cfg->seed + 1 for b -> a.
 */
#ifndef TESSERA_MULTI_H
#define TESSERA_MULTI_H

#include <stdint.h>

#include "tessera_link.h"
#include "tessera_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsim_multi tsim_multi_t;

tsim_multi_t *tsim_multi_new(void);
/* Frees the links and closes the pcap files; the chips stay (tsim_destroy them after).
 * Writes the group's timeline (see tsim_multi_add). */
void tsim_multi_free(tsim_multi_t *m);
/* Add a chip; returns its index in the group (0, 1, ...) or TSIM_EARG. If chip 0 records a
 * timeline (tsim_timeline_open, tsim_opts_t.timeline_file) when it is added, every chip
 * added after it records one too, and tsim_multi_free writes them all into chip 0's file,
 * one process per chip on chip 0's cycle axis (docs/sim.md "Timeline"). */
int tsim_multi_add(tsim_multi_t *m, tsim_t *chip);
unsigned tsim_multi_count(const tsim_multi_t *m);
tsim_t *tsim_multi_chip(const tsim_multi_t *m, unsigned i);
/* Cycles the group has run since it was created. */
uint64_t tsim_multi_cycles(const tsim_multi_t *m);

/* Join port pa of chip a and port pb of chip b (a == b with pa != pb allowed: a loop).
 * TSIM_EARG: no such chip or port, a port already connected. */
int tsim_nic_connect(tsim_multi_t *m, unsigned a, unsigned pa, unsigned b, unsigned pb,
                     const tsim_link_cfg_t *cfg);
/* Connect the group's chips (N of them, P = nic_ports ports each) in a named topology,
 * every connection with cfg (each gets its own seeds: cfg->seed + 2 * connection index):
 *   "pair": chip 2k port p <-> chip 2k+1 port p, every p (N even);
 *   "ring": chip i port 0 <-> chip (i+1) mod N port 1 (N >= 2, P >= 2; with N = 2 the two
 *           chips are joined twice);
 *   "full": chip i port k <-> the k-th other chip j (k = j for j < i, j - 1 for j > i),
 *           at that chip's port for i (N - 1 <= P).
 * TSIM_EARG: unknown name, a shape the chips do not have enough ports for. */
int tsim_multi_topology(tsim_multi_t *m, const char *name, const tsim_link_cfg_t *cfg);
/* The link that carries frames sent by port `port` of chip `chip` (NULL: not connected). */
tsim_link_t *tsim_multi_link(const tsim_multi_t *m, unsigned chip, unsigned port);
/* Write every link direction into DIR/c<a>p<pa>-c<b>p<pb>.pcap (frames as sent, before
 * the link's impairments). Links connected later are not recorded. TSIM_EIO: a file could
 * not be created. */
int tsim_multi_pcap(tsim_multi_t *m, const char *dir);
/* Queue every frame of a pcap file (link type Ethernet, no FCS) for the receive side of a
 * port, in file order, now; *frames (may be NULL) gets the count. TSIM_EIO: unreadable. */
int tsim_multi_inject(tsim_multi_t *m, unsigned chip, unsigned port, const char *path,
                      unsigned *frames);

/* Run n cycles of the group (TSIM_ELIMIT when a member reaches its cycle limit). */
int tsim_multi_step(tsim_multi_t *m, uint64_t n);
/* Run until pred(m, ctx) holds, polled every `poll` cycles (0 = 32); TSIM_ETIMEOUT after
 * budget cycles. */
typedef int (*tsim_multi_pred_fn)(tsim_multi_t *m, void *ctx);
int tsim_multi_run_until(tsim_multi_t *m, tsim_multi_pred_fn pred, void *ctx, uint64_t budget,
                         unsigned poll);
/* Frames in flight on the links or waiting at a receive side (0: the network is quiet). */
uint64_t tsim_multi_frames_pending(const tsim_multi_t *m);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MULTI_H */
