/* Golden model of tessera_dma (docs/dma.md): descriptor checks and the
 * byte-exact effect of a transfer on memory. */
#ifndef TESSERA_DMA_MODEL_H
#define TESSERA_DMA_MODEL_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
enum { DMA_MODE_LINEAR = 0, DMA_MODE_STRIDED = 1, DMA_MODE_FILL = 2, DMA_MODE_TRANSPOSE = 3 };
enum { DMA_ERR_NONE = 0, DMA_ERR_ALIGN = 1, DMA_ERR_ZERO = 2, DMA_ERR_MODE = 3, DMA_ERR_RANGE = 4,
       DMA_ERR_AXI = 5, DMA_ERR_TDESC_ADDR = 6, DMA_ERR_TDESC = 7, DMA_ERR_TBASE = 8,
       DMA_ERR_TESIZE = 9 };
typedef struct {
  uint32_t src, dst, size, mode, c1, c2, ss1, ss2, ds1, ds2, fill;
  uint32_t ebytes;   /* transpose element size: 2 or 4 */
} dma_desc_t;
typedef uint8_t (*dma_rd8_fn)(uint32_t addr);
typedef void (*dma_wr8_fn)(uint32_t addr, uint8_t v);
/* Error code the engine reports at go (0: the transfer runs). Each side's footprint must
 * lie inside device memory [mem_base, +mem_size) or, when its base is there, inside the
 * host window [host_base, +host_size) (host_size 0: no window). */
unsigned dma_model_check(const dma_desc_t *d, uint32_t mem_base, uint32_t mem_size, uint32_t host_base,
                         uint32_t host_size);
/* Apply a (checked, non-overlapping) transfer: reads every source byte first
 * through rd, then writes the destination through wr. */
void dma_model_run(const dma_desc_t *d, dma_rd8_fn rd, dma_wr8_fn wr);
/* Is addr inside the destination footprint (row starts + size)? */
int dma_model_in_dst(const dma_desc_t *d, uint32_t addr);
/* Does the engine write this (checked) transpose with paired tiles: 2E source rows per
 * tile, one 64-byte line per destination row (2-beat bursts)? Performance rule, not
 * semantics: writes allocating in the L2 (CACHE.wr_alloc), DST and DST_STRIDE1 multiples
 * of 64 and COUNT1 a multiple of 2E. */
int dma_transpose_paired(const dma_desc_t *d, int wr_alloc);
/* How many bands (tile rows) the engine walks together in a (checked) transpose: 4, 2
 * or 1 (at most the number of HBM channels), the largest Q with COUNT1 / R a multiple of Q * 256 / W and the row (SIZE rounded
 * up to whole read groups) at least Q * 256 bytes (R rows per tile, W destination bytes
 * per tile row piece; docs/dma.md "Group order"). Performance rule, not semantics. */
unsigned dma_transpose_bands_together(const dma_desc_t *d, int wr_alloc);
/* Tile columns per read group of a (checked) transpose (K, docs/dma.md). */
unsigned dma_transpose_group_tiles(const dma_desc_t *d, int wr_alloc);

/* Tensor mode (docs/dma.md "Tensor copy"): sw / dw are the 16 words of the source and
 * destination shared tensor descriptors (docs/architecture.md), fetched from the
 * 64-byte-aligned addresses sdesc / ddesc; off[d] is the signed source offset of dim d. */
/* log2 of the element size of a dtype code (any code; validity is checked separately) */
unsigned dma_tensor_lg(uint32_t dtype);
/* Error code the engine reports (0: the copy runs). */
unsigned dma_tensor_check(const uint32_t sw[16], const uint32_t dw[16], uint32_t sdesc, uint32_t ddesc,
                          uint32_t mem_base, uint32_t mem_size);
/* Apply a checked copy: for every destination coordinate (dim 0 innermost) write source
 * element c + off, or the source pad value when that is out of bounds. */
void dma_tensor_run(const uint32_t sw[16], const uint32_t dw[16], const int32_t off[5], dma_rd8_fn rd,
                    dma_wr8_fn wr);
/* Destination elements of a checked descriptor (product of its sizes). */
uint64_t dma_tensor_count(const uint32_t dw[16]);
#ifdef __cplusplus
}
#endif
#endif
