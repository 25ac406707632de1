/* TPC number formats: decode/encode of the float element types. */
#include "tpc_fp.h"
#include <math.h>
#include <string.h>

/* Element formats come from the shared number-format library (tests/golden/numfmt.h,
 * whose format codes equal the TPC float type codes 0..4). */
#include "../golden/numfmt.h"

float tpc_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
uint32_t tpc_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

uint32_t tpc_fp_qnan(int dt) { return nf_canonical_nan((nf_fmt)dt); }

int tpc_fp_isnan(int dt, uint32_t bits) { return nf_decode((nf_fmt)dt, bits).cls == NF_NAN; }

double tpc_fp_decode(int dt, uint32_t bits)
{
  nf_val v = nf_decode((nf_fmt)dt, bits);
  double x;
  switch (v.cls) {
  case NF_NAN:  return NAN;
  case NF_INF:  x = INFINITY; break;
  case NF_ZERO: x = 0.0; break;
  default:      x = ldexp((double)v.mant, v.exp); break;
  }
  return v.sign ? -x : x;
}

uint32_t tpc_fp_encode(int dt, double x, int sat)
{
  int sign, e;
  uint64_t mant;
  if (isnan(x))
    return nf_canonical_nan((nf_fmt)dt);
  sign = signbit(x) != 0;
  if (isinf(x)) {
    nf_val v = {NF_INF, sign, 0, 0};
    return nf_encode((nf_fmt)dt, v, 0, sat);
  }
  if (x == 0.0)
    return nf_round((nf_fmt)dt, sign, 0, 0, 0, sat);
  mant = (uint64_t)ldexp(frexp(fabs(x), &e), 53); /* exact: 53-bit integer */
  return nf_round((nf_fmt)dt, sign, mant, e - 53, 0, sat);
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
