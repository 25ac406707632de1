/* C golden models of the TPC kernel library (kernels/tpc/NAME.tasm). Dense row-major
 * arrays [H][W]. Bit-exact models (elementwise, casts, reductions, dropout, transpose)
 * reproduce the kernel's documented operation order; the normalizations and special-
 * function kernels are computed in double precision and compared within the bounds
 * documented in docs/tpc.md. Element conversions use tests/golden/numfmt. */
#ifndef TPC_GOLDEN_H
#define TPC_GOLDEN_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

float tg_f32(uint32_t b);
uint32_t tg_bits(float f);
/* elementwise, bit-exact (NaN results -> canonical 0x7FC00000) */
uint32_t tg_add(uint32_t a, uint32_t b);
uint32_t tg_mul(uint32_t a, uint32_t b);
uint32_t tg_relu(uint32_t a);
uint16_t tg_add_bf16(uint16_t a, uint16_t b);
void tg_bias_add(const uint32_t *x, const uint32_t *bias, uint32_t *out, int H, int W);
/* casts (fmt codes as numfmt: 0 fp32, 1 bf16, 2 fp16, 3 e4m3, 4 e5m2) */
uint32_t tg_cast(int from, int to, uint32_t bits, int sat);
/* row reductions in the kernel's order: 8 lane accumulators, then a halving tree */
void tg_reduce_sum(const uint32_t *x, int H, int W, uint32_t *out);
void tg_reduce_max(const uint32_t *x, int H, int W, uint32_t *out);
/* double-precision references */
void tg_softmax(const float *x, int H, int W, double *out);
void tg_layernorm(const float *x, const float *gamma, const float *beta, float eps, int H, int W, double *out);
void tg_rmsnorm(const float *x, const float *gamma, float eps, int H, int W, double *out);
double tg_gelu(double x);
/* dropout, bit-exact: u = xorshift32(mix32(seed + r*W + c)); keep = u >= thr */
void tg_dropout(const uint32_t *x, int H, int W, uint32_t seed, uint32_t thr, uint32_t scale_bits, uint32_t *out);
void tg_transpose(const uint32_t *x, int H, int W, uint32_t *out);
#ifdef __cplusplus
}
#endif
#endif
