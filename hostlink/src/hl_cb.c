/* hostlink command-buffer builder: a growing buffer around the packet
 * encoder of bsp/include/tessera/cp_pkt.h, so the host, the firmware, the
 * tests and the golden model share one encoding (docs/packets.md). */
#include <stdlib.h>
#include <string.h>

#include "hl_cb.h"
#include "hl_core.h"

int hl_cb_init(hl_cb_t *cb) {
  memset(cb, 0, sizeof *cb);
  uint32_t *w = malloc(64 * sizeof *w);
  if (!w) return HL_ENOMEM;
  cp_buf_init(&cb->b, w, 64);
  return HL_OK;
}

void hl_cb_free(hl_cb_t *cb) {
  free(cb->b.w);
  memset(cb, 0, sizeof *cb);
}

void hl_cb_clear(hl_cb_t *cb) {
  cb->b.n = 0;
  cb->err = 0;
}

uint32_t hl_cb_bytes(const hl_cb_t *cb) { return cb->b.n * 4u; }
const uint32_t *hl_cb_words(const hl_cb_t *cb) { return cb->b.w; }

/* Double the storage until `words` more fit. */
static int grow(hl_cb_t *cb, uint32_t words) {
  uint32_t cap = cb->b.cap;
  while (cap - cb->b.n < words) cap *= 2;
  if (cap == cb->b.cap) return HL_OK;
  uint32_t *w = realloc(cb->b.w, (size_t)cap * sizeof *w);
  if (!w) return cb->err = HL_ENOMEM;
  cb->b.w = w;
  cb->b.cap = cap;
  return HL_OK;
}

/* Every packet is at most 8 + 4 * CP_BULK_MAX + 8 bytes. */
#define APPEND(cb, words, call) \
  do {                                                \
    if ((cb)->err) return (cb)->err;                  \
    if (grow((cb), (words)) != HL_OK) return HL_ENOMEM; \
    return (call) == 0 ? HL_OK : ((cb)->err = HL_ENOMEM); \
  } while (0)

int hl_cb_nop(hl_cb_t *cb, uint32_t f) { APPEND(cb, 2, cp_nop(&cb->b, f)); }
int hl_cb_wreg32(hl_cb_t *cb, uint32_t f, uint32_t off, uint32_t v) { APPEND(cb, 2, cp_wreg32(&cb->b, f, off, v)); }
int hl_cb_wreg_bulk(hl_cb_t *cb, uint32_t f, uint32_t off, uint32_t n, const uint32_t *v) {
  APPEND(cb, 4 + n, cp_wreg_bulk(&cb->b, f, off, n, v));
}
int hl_cb_msg_long(hl_cb_t *cb, uint32_t f, uint32_t a, uint32_t d) { APPEND(cb, 4, cp_msg_long(&cb->b, f, a, d)); }
int hl_cb_msg_short(hl_cb_t *cb, uint32_t f, uint32_t sob, int add, uint32_t v) {
  APPEND(cb, 2, cp_msg_short(&cb->b, f, sob, add, v));
}
int hl_cb_fence(hl_cb_t *cb, uint32_t f, uint32_t id, uint32_t t) { APPEND(cb, 2, cp_fence(&cb->b, f, id, t)); }
int hl_cb_lin_dma(hl_cb_t *cb, uint32_t f, uint32_t s, uint32_t d, uint32_t n) {
  APPEND(cb, 4, cp_lin_dma(&cb->b, f, s, d, n));
}
int hl_cb_wait(hl_cb_t *cb, uint32_t f, uint32_t c) { APPEND(cb, 2, cp_wait(&cb->b, f, c)); }
int hl_cb_stop(hl_cb_t *cb, uint32_t f) { APPEND(cb, 2, cp_stop(&cb->b, f)); }
int hl_cb_raw(hl_cb_t *cb, const uint32_t *w, uint32_t n) { APPEND(cb, n + 1, cp_raw(&cb->b, w, n)); }

int hl_cb_upload(hl_dev_t *d, const hl_cb_t *cb, uint32_t *addr) {
  if (cb->err || cb->b.n == 0) return hl_set_error(d, HL_EARG, "cb_upload: empty or failed buffer");
  int rc = hl_alloc(d, hl_cb_bytes(cb), 64, addr);
  if (rc) return rc;
  rc = hl_write(d, *addr, cb->b.w, hl_cb_bytes(cb));
  if (rc) hl_free(d, *addr);
  return rc;
}
