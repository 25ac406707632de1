/* Golden model of the ring all-reduce (see coll_model.h, docs/collectives.md). */
#include "coll_model.h"

#include "roce_model.h"

#include <string.h>

int coll_chunks(uint32_t bytes, unsigned n, unsigned esz, coll_chunk_t ch[]) {
  if (!n || n > COLL_MAX_CHIPS || !esz || !bytes || bytes % esz) return -1;
  const uint32_t q = ((bytes + n - 1) / n + COLL_ALIGN - 1) / COLL_ALIGN * COLL_ALIGN;
  for (unsigned c = 0; c < n; ++c) {
    const uint64_t lo = (uint64_t)c * q, hi = lo + q < bytes ? lo + q : bytes;
    ch[c].off = lo < bytes ? (uint32_t)lo : bytes;
    ch[c].len = lo < bytes ? (uint32_t)(hi - lo) : 0;
  }
  return 0;
}

unsigned coll_rs_chunk(unsigned n, unsigned r, unsigned s) { return (r + n - s % n) % n; }
unsigned coll_ag_chunk(unsigned n, unsigned r, unsigned s) { return (r + 1 + n - s % n) % n; }

static uint32_t ld(const uint8_t *p, unsigned esz) {
  uint32_t v = 0;
  for (unsigned i = 0; i < esz; ++i) v |= (uint32_t)p[i] << (8 * i);
  return v;
}
static void st(uint8_t *p, unsigned esz, uint32_t v) {
  for (unsigned i = 0; i < esz; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

int coll_ring_allreduce(unsigned op, unsigned dtype, unsigned n, uint32_t bytes, const uint8_t *const in[],
                        uint8_t *out) {
  const unsigned esz = roce_red_elem_bytes(dtype);
  coll_chunk_t ch[COLL_MAX_CHIPS];
  if (coll_chunks(bytes, n, esz, ch)) return -1;
  for (unsigned c = 0; c < n; ++c)
    for (uint32_t i = ch[c].off; i < ch[c].off + ch[c].len; i += esz) {
      uint32_t acc = ld(in[c] + i, esz);
      for (unsigned k = 1; k < n; ++k) {
        const uint32_t d = ld(in[(c + k) % n] + i, esz);
        acc = dtype == ROCE_RED_BF16 ? roce_red_bf16(op, (uint16_t)d, (uint16_t)acc) : roce_red_fp32(op, d, acc);
      }
      st(out + i, esz, acc);
    }
  return 0;
}

/* One ring step: every chip r moves chunk `pick(n, r, s)` into chip r + 1's buffer,
 * combined (reduce) or copied. Within a step no chip sends a chunk it receives, so the
 * chips can be taken one after the other. */
static void ring_step(unsigned op, unsigned dtype, unsigned n, const coll_chunk_t *ch, int reduce,
                      unsigned (*pick)(unsigned, unsigned, unsigned), unsigned s, uint8_t *const b[]) {
  const unsigned esz = roce_red_elem_bytes(dtype);
  for (unsigned r = 0; r < n; ++r) {
    const coll_chunk_t c = ch[pick(n, r, s)];
    uint8_t *dst = b[(r + 1) % n];
    if (!reduce) {
      memcpy(dst + c.off, b[r] + c.off, c.len);
      continue;
    }
    for (uint32_t i = c.off; i < c.off + c.len; i += esz) {
      const uint32_t d = ld(dst + i, esz), p = ld(b[r] + i, esz);
      st(dst + i, esz, dtype == ROCE_RED_BF16 ? roce_red_bf16(op, (uint16_t)d, (uint16_t)p) : roce_red_fp32(op, d, p));
    }
  }
}

int coll_ring_run(unsigned kind, unsigned op, unsigned dtype, unsigned n, unsigned root, uint32_t bytes,
                  const uint8_t *const in[], uint8_t *const out[]) {
  coll_chunk_t ch[COLL_MAX_CHIPS];
  if (coll_chunks(bytes, n, roce_red_elem_bytes(dtype), ch) || kind > COLL_BROADCAST || root >= n) return -1;
  for (unsigned r = 0; r < n; ++r) memcpy(out[r], in[kind == COLL_BROADCAST ? root : r], bytes);
  if (kind == COLL_ALLREDUCE || kind == COLL_REDUCE_SCATTER)
    for (unsigned s = 0; s + 1 < n; ++s) ring_step(op, dtype, n, ch, 1, coll_rs_chunk, s, out);
  if (kind == COLL_ALLREDUCE || kind == COLL_ALLGATHER)
    for (unsigned s = 0; s + 1 < n; ++s) ring_step(op, dtype, n, ch, 0, coll_ag_chunk, s, out);
  return 0;
}
