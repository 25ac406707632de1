/* TPC number formats for the ISA model: element decode/encode for every TPC
 * data type, conversions and the special-function algorithms (tpc_sfu.c).
 * Float formats follow the chip brief section 3 (FP8 E4M3 "fn", E5M2 IEEE-like).
 * Rounding is round-to-nearest-even; see docs/tpc_isa.md "Numerics". */
#ifndef TPC_FP_H
#define TPC_FP_H
#include <stdint.h>

/* Canonical NaN bit pattern of a float data type (TPC_DT_*). */
uint32_t tpc_fp_qnan(int dt);
/* 1 if `bits` of float type dt is a NaN. */
int tpc_fp_isnan(int dt, uint32_t bits);
/* Exact value of `bits` of float type dt (NaN -> NAN). */
double tpc_fp_decode(int dt, uint32_t bits);
/* Round x to float type dt, nearest even. sat: overflow and +-Inf give +-max
 * finite (otherwise E4M3 -> NaN, others -> Inf). NaN -> canonical NaN. */
uint32_t tpc_fp_encode(int dt, double x, int sat);
/* Largest finite value of float type dt. */
double tpc_fp_max(int dt);

/* FP32 <-> bits */
float tpc_f32(uint32_t bits);
uint32_t tpc_bits(float f);

/* Special functions on FP32 (bit-exact definition of the hardware algorithm). */
float tpc_sfu_exp(float x);
float tpc_sfu_log(float x);
float tpc_sfu_rcp(float x);
float tpc_sfu_rsqrt(float x);
float tpc_sfu_sqrt(float x);
float tpc_sfu_tanh(float x);
float tpc_sfu_sigm(float x);

/* RNG */
uint32_t tpc_mix32(uint32_t x);
uint32_t tpc_xorshift32(uint32_t x);
#endif
