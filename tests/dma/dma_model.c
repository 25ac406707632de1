/* Golden model of tessera_dma. See dma_model.h and docs/dma.md. */
#include "dma_model.h"

#include <stdlib.h>

static void shape(const dma_desc_t *d, uint32_t *c1, uint32_t *c2, uint32_t s[4]) {
  if (d->mode == DMA_MODE_LINEAR) {
    *c1 = *c2 = 1;
    s[0] = s[1] = s[2] = s[3] = 0;
  } else if (d->mode == DMA_MODE_TRANSPOSE) {
    *c1 = d->c1; *c2 = 1;
    s[0] = d->ss1; s[1] = 0; s[2] = d->ds1; s[3] = 0;
  } else {
    *c1 = d->c1; *c2 = d->c2;
    s[0] = d->ss1; s[1] = d->ss2; s[2] = d->ds1; s[3] = d->ds2;
  }
}

unsigned dma_model_check(const dma_desc_t *d, uint32_t mem_base, uint32_t mem_size) {
  uint32_t c1, c2, s[4];
  shape(d, &c1, &c2, s);
  int fill = d->mode == DMA_MODE_FILL;
  if (d->mode > 3) return DMA_ERR_MODE;
  if (d->size == 0 || c1 == 0 || c2 == 0) return DMA_ERR_ZERO;
  if ((d->size | d->dst | s[2] | s[3]) & 31u) return DMA_ERR_ALIGN;
  if (!fill && ((d->src | s[0] | s[1]) & 31u)) return DMA_ERR_ALIGN;
  if (d->mode == DMA_MODE_TRANSPOSE && (c1 % (32u / d->ebytes))) return DMA_ERR_ALIGN;
  uint64_t mend = (uint64_t)mem_base + mem_size;
  uint64_t dend = (uint64_t)d->dst + (uint64_t)(c2 - 1) * s[3] + (uint64_t)(c1 - 1) * s[2] + d->size;
  if (d->mode == DMA_MODE_TRANSPOSE)
    dend = (uint64_t)d->dst + (uint64_t)(d->size / d->ebytes - 1) * s[2] + (uint64_t)c1 * d->ebytes;
  uint64_t send = (uint64_t)d->src + (uint64_t)(c2 - 1) * s[1] + (uint64_t)(c1 - 1) * s[0] + d->size;
  if (d->dst < mem_base || dend > mend) return DMA_ERR_RANGE;
  if (!fill && (d->src < mem_base || send > mend)) return DMA_ERR_RANGE;
  return DMA_ERR_NONE;
}

void dma_model_run(const dma_desc_t *d, dma_rd8_fn rd, dma_wr8_fn wr) {
  uint32_t c1, c2, s[4];
  shape(d, &c1, &c2, s);
  if (d->mode == DMA_MODE_TRANSPOSE) {
    /* dst[c][r] = src[r][c]: element (r, c) at src + r*ss1 + c*e goes to dst + c*ds1 + r*e */
    uint32_t e = d->ebytes, cols = d->size / e;
    for (uint32_t r = 0; r < c1; r++)
      for (uint32_t c = 0; c < cols; c++)
        for (uint32_t b = 0; b < e; b++) wr(d->dst + c * s[2] + r * e + b, rd(d->src + r * s[0] + c * e + b));
    return;
  }
  uint64_t n = (uint64_t)c1 * c2 * d->size;
  uint8_t *buf = malloc(n ? n : 1);
  uint64_t k = 0;
  for (uint32_t i2 = 0; i2 < c2; i2++)
    for (uint32_t i1 = 0; i1 < c1; i1++)
      for (uint32_t b = 0; b < d->size; b++, k++)
        buf[k] = d->mode == DMA_MODE_FILL ? (uint8_t)(d->fill >> (8 * (b & 3)))
                                          : rd(d->src + i2 * s[1] + i1 * s[0] + b);
  k = 0;
  for (uint32_t i2 = 0; i2 < c2; i2++)
    for (uint32_t i1 = 0; i1 < c1; i1++)
      for (uint32_t b = 0; b < d->size; b++, k++) wr(d->dst + i2 * s[3] + i1 * s[2] + b, buf[k]);
  free(buf);
}

int dma_model_in_dst(const dma_desc_t *d, uint32_t addr) {
  uint32_t c1, c2, s[4];
  shape(d, &c1, &c2, s);
  if (d->mode == DMA_MODE_TRANSPOSE) {
    for (uint32_t c = 0; c < d->size / d->ebytes; c++) {
      uint32_t r = d->dst + c * s[2];
      if (addr >= r && addr - r < c1 * d->ebytes) return 1;
    }
    return 0;
  }
  for (uint32_t i2 = 0; i2 < c2; i2++)
    for (uint32_t i1 = 0; i1 < c1; i1++) {
      uint32_t r = d->dst + i2 * s[3] + i1 * s[2];
      if (addr >= r && addr - r < d->size) return 1;
    }
  return 0;
}
