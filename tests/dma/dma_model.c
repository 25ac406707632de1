/* Golden model of tessera_dma. See dma_model.h and docs/dma.md. */
#include "dma_model.h"
#include "tessera_cfg.h"

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

/* [base, end) inside device memory, or inside the host window when base is there */
static int side_ok(uint32_t base, uint64_t end, uint32_t mem_base, uint32_t mem_size, uint32_t host_base,
                   uint32_t host_size) {
  if (base - host_base < host_size) return end <= (uint64_t)host_base + host_size;
  return base >= mem_base && end <= (uint64_t)mem_base + mem_size;
}

unsigned dma_model_check(const dma_desc_t *d, uint32_t mem_base, uint32_t mem_size, uint32_t host_base,
                         uint32_t host_size) {
  uint32_t c1, c2, s[4];
  shape(d, &c1, &c2, s);
  int fill = d->mode == DMA_MODE_FILL;
  if (d->mode > 3) return DMA_ERR_MODE;
  if (d->size == 0 || c1 == 0 || c2 == 0) return DMA_ERR_ZERO;
  if ((d->size | d->dst | s[2] | s[3]) & 31u) return DMA_ERR_ALIGN;
  if (!fill && ((d->src | s[0] | s[1]) & 31u)) return DMA_ERR_ALIGN;
  if (d->mode == DMA_MODE_TRANSPOSE && (c1 % (32u / d->ebytes))) return DMA_ERR_ALIGN;
  uint64_t dend = (uint64_t)d->dst + (uint64_t)(c2 - 1) * s[3] + (uint64_t)(c1 - 1) * s[2] + d->size;
  if (d->mode == DMA_MODE_TRANSPOSE)
    dend = (uint64_t)d->dst + (uint64_t)(d->size / d->ebytes - 1) * s[2] + (uint64_t)c1 * d->ebytes;
  uint64_t send = (uint64_t)d->src + (uint64_t)(c2 - 1) * s[1] + (uint64_t)(c1 - 1) * s[0] + d->size;
  if (!side_ok(d->dst, dend, mem_base, mem_size, host_base, host_size)) return DMA_ERR_RANGE;
  if (!fill && !side_ok(d->src, send, mem_base, mem_size, host_base, host_size)) return DMA_ERR_RANGE;
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

/* ---------------------------------------------------------------- tensor mode */
unsigned dma_tensor_lg(uint32_t dtype) {
  switch (dtype) {
    case 0: case 5: case 8: return 2;            /* FP32, INT32, UINT32 */
    case 1: case 2: case 6: case 9: return 1;    /* BF16, FP16, INT16, UINT16 */
    default: return 0;                           /* FP8 x2, INT8, UINT8 */
  }
}

static int tdesc_bad(const uint32_t w[16]) {
  uint32_t dtype = w[1] & 15u, nd = (w[1] >> 4) & 7u;
  if (dtype > 10 || nd == 0 || nd > 5 || (w[1] >> 7)) return 1;
  for (uint32_t d = 0; d < nd; d++)
    if (w[3 + d] == 0 || w[3 + d] > (1u << 24)) return 1;
  return 0;
}

/* effective shape: dims >= ndims have size 1 and stride 0 */
static void tshape(const uint32_t w[16], uint32_t size[5], int64_t stride[5]) {
  uint32_t nd = (w[1] >> 4) & 7u;
  for (uint32_t d = 0; d < 5; d++) {
    size[d] = d < nd ? w[3 + d] : 1;
    stride[d] = d < nd ? (int32_t)w[8 + d] : 0;
  }
}

/* [lo, hi) byte range of every element of the tensor */
static void tfoot(const uint32_t w[16], int64_t *lo, int64_t *hi) {
  uint32_t size[5];
  int64_t stride[5], mn = 0, mx = 0;
  tshape(w, size, stride);
  for (int d = 0; d < 5; d++) {
    int64_t p = (int64_t)(size[d] - 1) * stride[d];
    if (p < 0) mn += p; else mx += p;
  }
  unsigned lg = dma_tensor_lg(w[1] & 15u);
  *lo = (int64_t)w[0] + mn * (1 << lg);
  *hi = (int64_t)w[0] + (mx + 1) * (1 << lg);
}

unsigned dma_tensor_check(const uint32_t sw[16], const uint32_t dw[16], uint32_t sdesc, uint32_t ddesc,
                          uint32_t mem_base, uint32_t mem_size) {
  uint64_t mend = (uint64_t)mem_base + mem_size;
  if ((sdesc | ddesc) & 63u) return DMA_ERR_TDESC_ADDR;
  if (sdesc < mem_base || sdesc + 64ull > mend || ddesc < mem_base || ddesc + 64ull > mend)
    return DMA_ERR_TDESC_ADDR;
  if (tdesc_bad(sw) || tdesc_bad(dw)) return DMA_ERR_TDESC;
  unsigned lg = dma_tensor_lg(sw[1] & 15u);
  if (lg != dma_tensor_lg(dw[1] & 15u)) return DMA_ERR_TESIZE;
  if ((sw[0] | dw[0]) & ((1u << lg) - 1)) return DMA_ERR_TBASE;
  int64_t lo, hi;
  tfoot(dw, &lo, &hi);
  if (lo < (int64_t)mem_base || hi > (int64_t)mend) return DMA_ERR_RANGE;
  tfoot(sw, &lo, &hi);
  if (lo < (int64_t)mem_base || hi > (int64_t)mend) return DMA_ERR_RANGE;
  return DMA_ERR_NONE;
}

uint64_t dma_tensor_count(const uint32_t dw[16]) {
  uint32_t size[5];
  int64_t stride[5];
  tshape(dw, size, stride);
  uint64_t n = 1;
  for (int d = 0; d < 5; d++) n *= size[d];
  return n;
}

void dma_tensor_run(const uint32_t sw[16], const uint32_t dw[16], const int32_t off[5], dma_rd8_fn rd,
                    dma_wr8_fn wr) {
  uint32_t ssz[5], dsz[5];
  int64_t sst[5], dst[5];
  tshape(sw, ssz, sst);
  tshape(dw, dsz, dst);
  unsigned e = 1u << dma_tensor_lg(sw[1] & 15u);
  uint32_t c[5] = {0, 0, 0, 0, 0};
  for (;;) {
    int inb = 1;
    int64_t so = 0, dof = 0;
    for (int d = 0; d < 5; d++) {
      int64_t s = (int64_t)c[d] + off[d];
      if (s < 0 || s >= ssz[d]) inb = 0;
      so += s * sst[d];
      dof += (int64_t)c[d] * dst[d];
    }
    uint32_t da = dw[0] + (uint32_t)(dof * e), sa = sw[0] + (uint32_t)(so * e);
    for (unsigned b = 0; b < e; b++) wr(da + b, inb ? rd(sa + b) : (uint8_t)(sw[2] >> (8 * b)));
    int d = 0;
    while (d < 5 && ++c[d] == dsz[d]) c[d++] = 0;
    if (d == 5) break;
  }
}

int dma_transpose_paired(const dma_desc_t *d, int wr_alloc) {
  uint32_t e2 = 2u * (32u / d->ebytes);
  return d->mode == DMA_MODE_TRANSPOSE && wr_alloc && d->dst % 64u == 0 && d->ds1 % 64u == 0 && d->c1 % e2 == 0;
}

unsigned dma_transpose_group_tiles(const dma_desc_t *d, int wr_alloc) {
  /* a quarter of the engine's beat buffer over R rows (four-byte one-beat tiles: an
   * eighth), 1..8 */
  int paired = dma_transpose_paired(d, wr_alloc);
  uint32_t rows = (32u / d->ebytes) * (paired ? 2u : 1u);
  uint32_t k = TESSERA_DMA_BUF_BEATS / ((paired || d->ebytes == 2u ? 4u : 8u) * rows);
  return k > 8u ? 8u : k < 1u ? 1u : k;
}

unsigned dma_transpose_bands_together(const dma_desc_t *d, int wr_alloc) {
  int paired = dma_transpose_paired(d, wr_alloc);
  uint32_t rows = (32u / d->ebytes) * (paired ? 2u : 1u);           /* R */
  uint32_t bands = d->c1 / rows;
  uint32_t band_gap = paired ? 4u : 8u;                              /* 256 / W */
  uint32_t g = 32u * dma_transpose_group_tiles(d, wr_alloc), row = (d->size + g - 1u) / g * g;
  uint32_t qmax = TESSERA_HBM_CHANNELS >= 4u ? 4u : TESSERA_HBM_CHANNELS >= 2u ? 2u : 1u;
  for (uint32_t q = qmax; q > 1; q /= 2)
    if (bands % (q * band_gap) == 0 && row >= q * 256u) return q;
  return 1;
}
