/* hostlink collectives from command buffers (hl_coll.c, docs/collectives.md
 * "Command-buffer collectives"): the per-chip NIC-queue command buffer and the
 * one-time register writes (sync objects, monitors, queue) of a ring all-reduce,
 * reduce-scatter, all-gather or broadcast. Once every chip's queue is started the
 * collective runs from the command buffers, the sync objects and the monitors
 * alone; the host waits for each chip's done monitor.
 *
 * The builder does no device access: it returns the buffer (hl_cb_t) and a list of
 * 32-bit register writes, which the caller applies through its transport (hostlink
 * device, or the simulator's host port in the chip tests). Queue pairs and memory
 * regions are the caller's (one RC QP per ring edge; on each receive port a reduce
 * region and a plain region over the tensor). */
#ifndef TESSERA_HL_COLL_H
#define TESSERA_HL_COLL_H

#include <stdint.h>

#include "hl_cb.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HL_COLL_MAX_CHIPS 8u
#define HL_COLL_MAX_K 64u      /* pieces per chunk */
#define HL_COLL_ALIGN 32u      /* piece starts: multiples of 32 bytes (WR_LADDR's rule) */
#define HL_COLL_CQ_DEPTH 16u   /* the port's completion queue (docs/nic.md "Completions") */

enum { HL_COLL_ALLREDUCE = 0, HL_COLL_REDUCE_SCATTER = 1, HL_COLL_ALLGATHER = 2, HL_COLL_BROADCAST = 3 };

/* One collective over chips 0 .. n-1 in a ring: chip r's port tx_port sends to chip
 * (r + 1) mod n's port rx_port over the QP with index qp on tx_port. The tensor is
 * `bytes` bytes at device address buf (a multiple of 32) on every chip, elements of esz
 * bytes. Ring collectives cut it into n chunks (q = bytes / n rounded up to 32 bytes,
 * chunk c = [c q, min((c + 1) q, bytes))) and each chunk into k pieces (piece size = chunk
 * / k rounded up to 32 bytes): k pieces of a step are in flight while the next step's
 * pieces wait for theirs. Broadcast cuts the whole tensor into k pieces and pipelines
 * them from `root` along the ring. Sync objects and monitors: the same indices on every
 * chip; done_addr / done_data: the write the done monitor sends when the chip is done
 * (the host waits for it). */
typedef struct {
  unsigned kind, n, esz, k, root;
  uint32_t bytes, buf;
  unsigned tx_port, rx_port, qp;
  uint32_t rkey_red[HL_COLL_MAX_CHIPS];    /* chip r's receive region with the reduction */
  uint32_t rkey_plain[HL_COLL_MAX_CHIPS];  /* chip r's plain receive region */
  unsigned sob_recv, sob_sent, sob_done;   /* received WRITEs, own completed WRITEs, done */
  unsigned mon_recv, mon_sent, mon_done;   /* -> FENCE[0], -> FENCE[1], -> done_addr */
  uint32_t done_addr, done_data;
  uint16_t wr_id;                          /* first work-request id */
} hl_coll_t;

/* One WRITE of a chip's schedule, in posting order: bytes [off, off + len) of the tensor
 * to the same offset on the successor, through region rkey; posted once the chip has
 * received `wait` WRITEs (0: at once). step / piece: its ring step and piece. */
typedef struct {
  uint32_t off, len, rkey;
  uint32_t wait;
  unsigned step, piece;
} hl_coll_send_t;

/* A 32-bit register (or memory) write of the setup, in order. */
typedef struct {
  uint32_t addr, val;
} hl_coll_wr32_t;

/* HL_OK, or HL_EARG when a parameter is out of range (n 2..8, k 1..64, esz 2 or 4, bytes
 * a non-zero multiple of esz, buf a multiple of 32, root < n, sync objects and monitors
 * in range and distinct). */
int hl_coll_check(const hl_coll_t *c);
/* Chip r's WRITEs in posting order into s[] (at most max); returns their number, or -1
 * (a bad parameter or max too small). hl_coll_sends(c, r, NULL, 0) counts them. */
int hl_coll_sends(const hl_coll_t *c, unsigned r, hl_coll_send_t *s, unsigned max);
/* The number of WRITEs chip r receives (its predecessor's sends), or -1. */
int hl_coll_recvs(const hl_coll_t *c, unsigned r);
/* Chip r's NIC-queue command buffer (appended to cb): HL_OK, HL_EARG or HL_ENOMEM. */
int hl_coll_build(const hl_coll_t *c, unsigned r, hl_cb_t *cb);
/* The one-time writes for chip r (into w[], at most max; *count set), the buffer already
 * at device address cb_addr (cb_bytes long): the receive port's SOB_ADD_BASE, the three
 * sync objects cleared, the monitors disarmed and given their payloads, the done
 * monitor armed, the NIC queue's bases and buffer. The queue's fence counters 0 and 1
 * must be 0 (a queue after reset). HL_OK or HL_EARG. */
int hl_coll_setup(const hl_coll_t *c, unsigned r, uint32_t cb_addr, uint32_t cb_bytes, hl_coll_wr32_t *w,
                  unsigned max, unsigned *count);
/* The doorbell that starts chip r's part: write *val to *addr. */
void hl_coll_doorbell(const hl_coll_t *c, uint32_t *addr, uint32_t *val);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_COLL_H */
