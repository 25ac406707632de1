/* Golden model of the ring all-reduce over the NICs (docs/collectives.md): the chunk
 * layout, the ring schedule and the result each chip must hold, bit for bit, with the
 * NIC's reduction on receive (roce_red_fp32 / roce_red_bf16, docs/numerics.md §6). */
#ifndef TESSERA_COLL_MODEL_H
#define TESSERA_COLL_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COLL_MAX_CHIPS 8u
#define COLL_ALIGN 32u   /* chunk starts: multiples of 32 bytes (WR_LADDR's rule) */

/* One chunk of the tensor: bytes [off, off + len) of every chip's buffer. */
typedef struct {
  uint32_t off, len;
} coll_chunk_t;

/* The chunk layout of a `bytes`-byte tensor over n chips with elements of esz bytes:
 * q = bytes / n rounded up to a multiple of 32; chunk c = [c q, min((c + 1) q, bytes)),
 * empty (len 0) when c q >= bytes. Returns 0, or -1 when n is 0 or above
 * COLL_MAX_CHIPS, bytes is 0 or not a multiple of esz. */
int coll_chunks(uint32_t bytes, unsigned n, unsigned esz, coll_chunk_t ch[]);

/* The ring schedule (chip r sends to chip (r + 1) mod n, steps s = 0 .. n-2):
 * reduce-scatter step s: chip r sends chunk (r - s) mod n, reduced into chip r+1's copy;
 * all-gather step s: chip r sends chunk (r + 1 - s) mod n, written over chip r+1's copy.
 * After the reduce-scatter chip r holds the complete chunk (r + 1) mod n. */
unsigned coll_rs_chunk(unsigned n, unsigned r, unsigned s);
unsigned coll_ag_chunk(unsigned n, unsigned r, unsigned s);

/* The all-reduce result (the same on every chip): chunk c is folded in ring order,
 * starting at chip c: acc = in[c]; for k = 1 .. n-1: acc = red(in[(c + k) mod n], acc),
 * red being the NIC's element function (destination first, payload second) for op
 * (ROCE_RED_SUM / MIN / MAX) and dtype (ROCE_RED_FP32 / BF16). in[r]: chip r's bytes
 * before the collective; out: bytes bytes. Returns 0, or -1 as coll_chunks. */
int coll_ring_allreduce(unsigned op, unsigned dtype, unsigned n, uint32_t bytes, const uint8_t *const in[],
                        uint8_t *out);

/* Every chip's whole buffer after a collective, simulated step by step as the ring runs
 * it (the pieces a chunk is posted in do not change the result): kind COLL_ALLREDUCE
 * (reduce-scatter, then all-gather), COLL_REDUCE_SCATTER (chip r then holds the complete
 * chunk (r + 1) mod n, its other chunks partial sums), COLL_ALLGATHER (chip r contributes
 * its chunk (r + 1) mod n) or COLL_BROADCAST (every chip gets root's bytes). Reduce steps
 * apply the NIC's element function (destination first, payload second). in[r]: chip r's
 * bytes before; out[r]: after. Returns 0, or -1 as coll_chunks or a bad kind / root. */
enum { COLL_ALLREDUCE = 0, COLL_REDUCE_SCATTER = 1, COLL_ALLGATHER = 2, COLL_BROADCAST = 3 };
int coll_ring_run(unsigned kind, unsigned op, unsigned dtype, unsigned n, unsigned root, uint32_t bytes,
                  const uint8_t *const in[], uint8_t *const out[]);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_COLL_MODEL_H */
