/* TPC number formats for the ISA model: element decode/encode for every TPC
 * data type, conversions and the special-function algorithms (tpc_sfu.c).
 * Float element formats are those of tests/golden/numfmt (chip brief section 3).
 * Rounding is round-to-nearest-even; see docs/tpc_isa.md "Numerics". */
#ifndef TPC_FP_H
#define TPC_FP_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Canonical NaN bit pattern of a float data type (TPC_DT_*). */
uint32_t tpc_fp_qnan(int dt);
/* 1 if `bits` of float type dt is a NaN. */
int tpc_fp_isnan(int dt, uint32_t bits);
/* Exact value of `bits` of float type dt (NaN -> NAN). */
double tpc_fp_decode(int dt, uint32_t bits);
/* Round x to float type dt, nearest even (numfmt nf_round). sat (FP8 types only):
 * overflow and +-Inf give +-max finite (otherwise E4M3 -> NaN, E5M2 -> Inf).
 * NaN -> canonical NaN. */
uint32_t tpc_fp_encode(int dt, double x, int sat);

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

/* SFU tables (for the RTL's ROMs): rcp 64 entries, rsqrt 48, log 1/c 25, log -ln(1/c) 25 */
enum { TPC_SFU_TAB_RCP = 0, TPC_SFU_TAB_RSQRT = 1, TPC_SFU_TAB_LOG_INV = 2, TPC_SFU_TAB_LOG_T = 3 };
const float *tpc_sfu_table(int id, int *n);

/* RNG */
uint32_t tpc_mix32(uint32_t x);
uint32_t tpc_xorshift32(uint32_t x);
#ifdef __cplusplus
}
#endif
#endif
