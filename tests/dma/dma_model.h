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
       DMA_ERR_AXI = 5 };
typedef struct {
  uint32_t src, dst, size, mode, c1, c2, ss1, ss2, ds1, ds2, fill;
  uint32_t ebytes;   /* transpose element size: 2 or 4 */
} dma_desc_t;
typedef uint8_t (*dma_rd8_fn)(uint32_t addr);
typedef void (*dma_wr8_fn)(uint32_t addr, uint8_t v);
/* Error code the engine reports at go (0: the transfer runs). */
unsigned dma_model_check(const dma_desc_t *d, uint32_t mem_base, uint32_t mem_size);
/* Apply a (checked, non-overlapping) transfer: reads every source byte first
 * through rd, then writes the destination through wr. */
void dma_model_run(const dma_desc_t *d, dma_rd8_fn rd, dma_wr8_fn wr);
/* Is addr inside the destination footprint (row starts + size)? */
int dma_model_in_dst(const dma_desc_t *d, uint32_t addr);
#ifdef __cplusplus
}
#endif
#endif
