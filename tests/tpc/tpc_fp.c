/* TPC number formats: decode/encode of the float element types. */
#include "tpc_fp.h"
#include "../../tools/tpcasm/tpc_isa_gen.h"
#include <math.h>
#include <string.h>

typedef struct { int ebits, mbits, bias, ieee; } fmt_t; /* ieee: has Inf, NaN = exp all ones */

static fmt_t fmt_of(int dt)
{
  switch (dt) {
  case TPC_DT_F32:  return (fmt_t){8, 23, 127, 1};
  case TPC_DT_BF16: return (fmt_t){8, 7, 127, 1};
  case TPC_DT_F16:  return (fmt_t){5, 10, 15, 1};
  case TPC_DT_E4M3: return (fmt_t){4, 3, 7, 0};
  default:          return (fmt_t){5, 2, 15, 1}; /* E5M2 */
  }
}

float tpc_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
uint32_t tpc_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

uint32_t tpc_fp_qnan(int dt)
{
  switch (dt) {
  case TPC_DT_F32:  return 0x7FC00000u;
  case TPC_DT_BF16: return 0x7FC0u;
  case TPC_DT_F16:  return 0x7E00u;
  case TPC_DT_E4M3: return 0x7Fu;
  default:          return 0x7Eu;
  }
}

int tpc_fp_isnan(int dt, uint32_t bits)
{
  fmt_t f = fmt_of(dt);
  uint32_t e = (bits >> f.mbits) & ((1u << f.ebits) - 1u);
  uint32_t m = bits & ((1u << f.mbits) - 1u);
  if (f.ieee)
    return e == (1u << f.ebits) - 1u && m != 0;
  return e == (1u << f.ebits) - 1u && m == (1u << f.mbits) - 1u;
}

double tpc_fp_decode(int dt, uint32_t bits)
{
  fmt_t f = fmt_of(dt);
  int s = (bits >> (f.ebits + f.mbits)) & 1;
  uint32_t e = (bits >> f.mbits) & ((1u << f.ebits) - 1u);
  uint32_t m = bits & ((1u << f.mbits) - 1u);
  double v;
  if (tpc_fp_isnan(dt, bits))
    return NAN;
  if (f.ieee && e == (1u << f.ebits) - 1u)
    v = INFINITY;
  else if (e == 0)
    v = ldexp((double)m, 1 - f.bias - f.mbits);
  else
    v = ldexp((double)(m | (1u << f.mbits)), (int)e - f.bias - f.mbits);
  return s ? -v : v;
}

double tpc_fp_max(int dt)
{
  fmt_t f = fmt_of(dt);
  int emax = (1 << f.ebits) - 2 - f.bias;
  if (f.ieee)
    return ldexp(2.0 - ldexp(1.0, -f.mbits), emax);
  /* E4M3: exponent field all ones is usable except mantissa all ones (NaN) */
  return ldexp(2.0 - ldexp(1.0, 1 - f.mbits), emax + 1);
}

uint32_t tpc_fp_encode(int dt, double x, int sat)
{
  fmt_t f = fmt_of(dt);
  uint32_t sbit = 1u << (f.ebits + f.mbits);
  uint32_t sign, r;
  double a, q, mx;
  int e, emin = 1 - f.bias;
  if (isnan(x))
    return tpc_fp_qnan(dt);
  sign = signbit(x) ? sbit : 0;
  a = fabs(x);
  mx = tpc_fp_max(dt);
  if (isinf(a)) {
    if (sat || !f.ieee)
      return sat ? sign | tpc_fp_encode(dt, mx, 0) : tpc_fp_qnan(dt) | sign;
    return sign | (((1u << f.ebits) - 1u) << f.mbits);
  }
  if (a == 0.0)
    return sign;
  (void)frexp(a, &e);
  e -= 1; /* a in [2^e, 2^(e+1)) */
  if (e < emin)
    e = emin;
  q = ldexp(1.0, e - f.mbits);
  r = (uint32_t)nearbyint(a / q); /* default rounding mode: nearest even */
  if (r >= (2u << f.mbits)) {
    r >>= 1;
    e += 1;
  }
  if (ldexp((double)r, e - f.mbits) > mx) {
    if (sat)
      return sign | tpc_fp_encode(dt, mx, 0);
    if (!f.ieee)
      return sign | tpc_fp_qnan(dt);
    return sign | (((1u << f.ebits) - 1u) << f.mbits);
  }
  if (r < (1u << f.mbits)) /* subnormal */
    return sign | r;
  return sign | ((uint32_t)(e + f.bias) << f.mbits) | (r & ((1u << f.mbits) - 1u));
}

uint32_t tpc_mix32(uint32_t x)
{
  x += 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x ? x : 0x6D2B79F5u;
}

uint32_t tpc_xorshift32(uint32_t x)
{
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}
