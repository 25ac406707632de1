/* Tessera number formats: decode / encode / round-to-nearest-even conversions and the
 * MME's fused multiply-accumulate step, bit-exact reference (docs/numerics.md).
 *
 * Pure integer C (no host floating point), usable from host tests and golden models.
 * Format codes are the hardware's data-type codes (MME DTYPE register fields).
 */
#ifndef TESSERA_NUMFMT_H
#define TESSERA_NUMFMT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  NF_FP32 = 0, /* IEEE binary32            1/8/23  bias 127                       */
  NF_BF16 = 1, /* bfloat16                 1/8/7   bias 127                       */
  NF_FP16 = 2, /* IEEE binary16            1/5/10  bias 15                        */
  NF_E4M3 = 3, /* OCP FP8 E4M3 ("fn")      1/4/3   bias 7, no Inf, NaN=S.1111.111 */
  NF_E5M2 = 4, /* OCP FP8 E5M2             1/5/2   bias 15, IEEE-like Inf/NaN     */
  NF_NUM_FMTS = 5
} nf_fmt;

/* Class of a decoded value. */
enum { NF_ZERO = 0, NF_FINITE = 1, NF_INF = 2, NF_NAN = 3 };

/* A decoded value: (-1)^sign * mant * 2^exp (mant is an integer, not normalized;
 * subnormals decode to the same form). mant/exp are meaningful for NF_FINITE only. */
typedef struct {
  int cls;
  int sign;
  int exp;
  uint32_t mant;
} nf_val;

/* Static format properties. */
int nf_valid(int fmt);             /* 1 if fmt is one of the five codes          */
int nf_bytes(nf_fmt f);            /* storage size: 4, 2, 2, 1, 1                 */
int nf_mant_bits(nf_fmt f);        /* stored fraction bits: 23, 7, 10, 3, 2       */
int nf_exp_bits(nf_fmt f);         /* exponent field bits: 8, 8, 5, 4, 5          */
int nf_bias(nf_fmt f);
int nf_has_inf(nf_fmt f);          /* all but E4M3                                */
const char *nf_name(nf_fmt f);     /* "fp32", "bf16", "fp16", "e4m3", "e5m2"      */
uint32_t nf_canonical_nan(nf_fmt f); /* 0x7FC00000, 0x7FC0, 0x7E00, 0x7F, 0x7E    */
uint32_t nf_max_finite(nf_fmt f);    /* positive: 0x7F7FFFFF, 0x7F7F, 0x7BFF, 0x7E, 0x7B */
uint32_t nf_inf(nf_fmt f, int sign); /* E4M3: returns the canonical NaN           */

/* Decode raw bits (low nf_bytes*8 bits used). */
nf_val nf_decode(nf_fmt f, uint32_t bits);

/* Round (-1)^sign * (mant + sticky*eps) * 2^exp to format f, round to nearest even.
 * "sticky" means the true magnitude is strictly above mant*2^exp but below
 * (mant+1)*2^exp. Overflow: saturating (sat != 0, FP8 formats only) -> +-max finite;
 * otherwise Inf (E5M2 and the 16/32-bit formats) or the canonical NaN (E4M3).
 * A zero result keeps `sign`. */
uint32_t nf_round(nf_fmt f, int sign, uint64_t mant, int exp, int sticky, int sat);

/* Encode a decoded value into f (exact when representable, else RNE as nf_round).
 * NaN -> canonical NaN of f. Inf -> Inf of f; for E4M3 -> canonical NaN, or +-max
 * when sat; for E5M2 with sat -> +-max. scale_exp multiplies the value by 2^scale_exp
 * before the (single) rounding. */
uint32_t nf_encode(nf_fmt f, nf_val v, int scale_exp, int sat);

/* Convert between formats (one rounding). */
uint32_t nf_convert(nf_fmt from, nf_fmt to, uint32_t bits, int scale_exp, int sat);

/* Exact conversion of any format to an FP32 bit pattern (all five formats are
 * subsets of FP32), NaN -> canonical FP32 NaN. */
uint32_t nf_to_fp32(nf_fmt f, uint32_t bits);

/* Host-float helpers for tests (bit casts only, no arithmetic). */
float nf_bits_to_float(uint32_t fp32_bits);
uint32_t nf_float_to_bits(float x);

/* The MME multiply-accumulate step, one rounding:
 *   result = round_fp32_rne(acc + a * b * 2^scale_exp)
 * acc is FP32 bits, a and b are raw bits in formats fa and fb. The product is exact.
 * NaN in any operand, Inf*0, or Inf + (-Inf) -> canonical FP32 NaN (0x7FC00000).
 * Exact-zero sums are +0 unless both addends are -0. FP32 subnormals are honoured. */
uint32_t nf_fma32(uint32_t acc, nf_fmt fa, uint32_t a, nf_fmt fb, uint32_t b, int scale_exp);

/* The same step on decoded operands. */
uint32_t nf_fma32_val(uint32_t acc, nf_val a, nf_val b, int scale_exp);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_NUMFMT_H */
