/* hostlink command-buffer builder (hl_cb.c): the packet encoding of
 * bsp/include/tessera/cp_pkt.h (docs/packets.md), uploaded into device memory. */
#ifndef TESSERA_HL_CB_H
#define TESSERA_HL_CB_H

#include <stdint.h>

#include "tessera/cp_pkt.h"
#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ command buffers */
/* A growing command buffer: one builder function per packet kind of
 * docs/packets.md; the encoding is bsp/include/tessera/cp_pkt.h's.
 * flags: HL_EB (engine barrier), HL_MB (message barrier). Return HL_OK or
 * HL_ENOMEM. */
#define HL_EB CP_HDR_EB
#define HL_MB CP_HDR_MB
typedef struct {
  cp_buf_t b;
  int err;
} hl_cb_t;
int hl_cb_init(hl_cb_t *cb);
void hl_cb_free(hl_cb_t *cb);
void hl_cb_clear(hl_cb_t *cb);
uint32_t hl_cb_bytes(const hl_cb_t *cb);
const uint32_t *hl_cb_words(const hl_cb_t *cb);
int hl_cb_nop(hl_cb_t *cb, uint32_t flags);
int hl_cb_wreg32(hl_cb_t *cb, uint32_t flags, uint32_t off, uint32_t val);
int hl_cb_wreg_bulk(hl_cb_t *cb, uint32_t flags, uint32_t off, uint32_t n, const uint32_t *vals);
int hl_cb_msg_long(hl_cb_t *cb, uint32_t flags, uint32_t addr, uint32_t data);
int hl_cb_msg_short(hl_cb_t *cb, uint32_t flags, uint32_t sob, int add, uint32_t val);
int hl_cb_fence(hl_cb_t *cb, uint32_t flags, uint32_t id, uint32_t target);
int hl_cb_lin_dma(hl_cb_t *cb, uint32_t flags, uint32_t src, uint32_t dst, uint32_t size);
int hl_cb_wait(hl_cb_t *cb, uint32_t flags, uint32_t cycles);
int hl_cb_stop(hl_cb_t *cb, uint32_t flags);
int hl_cb_raw(hl_cb_t *cb, const uint32_t *words, uint32_t n);
/* Allocate device memory for the buffer (inside nothing else) and write it. */
int hl_cb_upload(hl_dev_t *dev, const hl_cb_t *cb, uint32_t *addr);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_CB_H */
