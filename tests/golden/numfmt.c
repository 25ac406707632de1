/* Tessera number formats: reference implementation. See numfmt.h and docs/numerics.md.
 * Integer arithmetic only; the single rounding routine nf_round() is used by every
 * conversion and by the fused multiply-accumulate. */
#include "numfmt.h"

#include <string.h>

typedef struct {
  int ebits, mbits, bias, has_inf;
  uint32_t maxfin; /* positive max finite encoding */
  uint32_t nan;    /* canonical NaN */
  const char *name;
} fmt_info;

static const fmt_info k_fmt[NF_NUM_FMTS] = {
    {8, 23, 127, 1, 0x7F7FFFFFu, 0x7FC00000u, "fp32"},
    {8, 7, 127, 1, 0x7F7Fu, 0x7FC0u, "bf16"},
    {5, 10, 15, 1, 0x7BFFu, 0x7E00u, "fp16"},
    {4, 3, 7, 0, 0x7Eu, 0x7Fu, "e4m3"},
    {5, 2, 15, 1, 0x7Bu, 0x7Eu, "e5m2"},
};

int nf_valid(int fmt) { return fmt >= 0 && fmt < NF_NUM_FMTS; }
int nf_bytes(nf_fmt f) { return (k_fmt[f].ebits + k_fmt[f].mbits + 1) / 8; }
int nf_mant_bits(nf_fmt f) { return k_fmt[f].mbits; }
int nf_exp_bits(nf_fmt f) { return k_fmt[f].ebits; }
int nf_bias(nf_fmt f) { return k_fmt[f].bias; }
int nf_has_inf(nf_fmt f) { return k_fmt[f].has_inf; }
const char *nf_name(nf_fmt f) { return nf_valid(f) ? k_fmt[f].name : "?"; }
uint32_t nf_canonical_nan(nf_fmt f) { return k_fmt[f].nan; }
uint32_t nf_max_finite(nf_fmt f) { return k_fmt[f].maxfin; }

static uint32_t sign_bit(nf_fmt f) { return 1u << (k_fmt[f].ebits + k_fmt[f].mbits); }

uint32_t nf_inf(nf_fmt f, int sign) {
  const fmt_info *i = &k_fmt[f];
  if (!i->has_inf) return i->nan;
  return (sign ? sign_bit(f) : 0u) | ((uint32_t)((1u << i->ebits) - 1u) << i->mbits);
}

nf_val nf_decode(nf_fmt f, uint32_t bits) {
  const fmt_info *i = &k_fmt[f];
  nf_val v;
  uint32_t emask = (1u << i->ebits) - 1u, mmask = (1u << i->mbits) - 1u;
  uint32_t e = (bits >> i->mbits) & emask, m = bits & mmask;
  v.sign = (int)((bits >> (i->ebits + i->mbits)) & 1u);
  v.exp = 0;
  v.mant = 0;
  if (i->has_inf && e == emask) {
    v.cls = m ? NF_NAN : NF_INF;
    return v;
  }
  if (!i->has_inf && e == emask && m == mmask) { /* E4M3: only S.1111.111 is NaN */
    v.cls = NF_NAN;
    return v;
  }
  if (e == 0 && m == 0) {
    v.cls = NF_ZERO;
    return v;
  }
  v.cls = NF_FINITE;
  if (e == 0) { /* subnormal */
    v.mant = m;
    v.exp = 1 - i->bias - i->mbits;
  } else {
    v.mant = m | (1u << i->mbits);
    v.exp = (int)e - i->bias - i->mbits;
  }
  return v;
}

static int msb64(uint64_t x) { /* x != 0 */
  int p = 63;
  while (!((x >> p) & 1u)) p--;
  return p;
}

uint32_t nf_round(nf_fmt f, int sign, uint64_t mant, int exp, int sticky, int sat) {
  const fmt_info *i = &k_fmt[f];
  uint32_t sbit = sign ? sign_bit(f) : 0u;
  int is_fp8 = (f == NF_E4M3 || f == NF_E5M2);
  int emin = 1 - i->bias;
  int p, E, qexp, sh;
  uint64_t kept;
  int64_t enc;
  if (mant == 0 && !sticky) return sbit;
  if (mant == 0) { /* only a sticky remainder: positive, far below any quantum */
    return sbit;
  }
  p = msb64(mant);
  E = p + exp; /* exponent of the leading bit */
  qexp = (E < emin ? emin : E) - i->mbits; /* exponent of the result's last bit */
  sh = qexp - exp;
  if (sh <= 0) {
    kept = mant << (-sh); /* exact (p <= mbits, fits) */
  } else {
    uint64_t guard, lower;
    if (sh > 64) {
      kept = 0;
      guard = 0;
      lower = 1;
    } else if (sh == 64) {
      kept = 0;
      guard = (mant >> 63) & 1u;
      lower = (mant & ~(1ull << 63)) != 0 || sticky;
    } else {
      kept = mant >> sh;
      guard = (mant >> (sh - 1)) & 1u;
      lower = (sh >= 2 ? (mant & ((1ull << (sh - 1)) - 1u)) != 0 : 0) || sticky;
    }
    if (guard && (lower || (kept & 1u))) kept++;
  }
  if (E < emin) {
    enc = (int64_t)kept; /* subnormal (kept == 2^mbits encodes the min normal) */
  } else {
    if (E - emin > 1000) E = emin + 1000; /* far beyond any format: overflow below */
    enc = ((int64_t)(E + i->bias - 1) << i->mbits) + (int64_t)kept;
  }
  if (enc > (int64_t)i->maxfin) {
    if (sat && is_fp8) return sbit | i->maxfin;
    if (i->has_inf) return nf_inf(f, sign);
    return i->nan;
  }
  return sbit | (uint32_t)enc;
}

uint32_t nf_encode(nf_fmt f, nf_val v, int scale_exp, int sat) {
  int is_fp8 = (f == NF_E4M3 || f == NF_E5M2);
  switch (v.cls) {
    case NF_NAN:
      return k_fmt[f].nan;
    case NF_INF:
      if (sat && is_fp8) return (v.sign ? sign_bit(f) : 0u) | k_fmt[f].maxfin;
      return nf_inf(f, v.sign);
    case NF_ZERO:
      return v.sign ? sign_bit(f) : 0u;
    default:
      return nf_round(f, v.sign, v.mant, v.exp + scale_exp, 0, sat);
  }
}

uint32_t nf_convert(nf_fmt from, nf_fmt to, uint32_t bits, int scale_exp, int sat) {
  return nf_encode(to, nf_decode(from, bits), scale_exp, sat);
}

uint32_t nf_to_fp32(nf_fmt f, uint32_t bits) { return nf_convert(f, NF_FP32, bits, 0, 0); }

float nf_bits_to_float(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
uint32_t nf_float_to_bits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

/* acc + p with one rounding to FP32; p = (-1)^ps * pm * 2^pe exactly (pm < 2^48). */
static uint32_t add_round_fp32(int ps, uint64_t pm, int pe, nf_val c) {
  /* Both operands finite and nonzero here. Normalize each mantissa so that its
   * leading one is at bit 62, then align the smaller exponent to the larger one,
   * folding the shifted-out bits into a sticky flag. */
  uint64_t xm, ym, ysh, s;
  int xe, ye, xs, ys, d, sticky = 0, sign;
  int sp = 62 - msb64(pm), sc = 62 - msb64(c.mant);
  uint64_t pn = pm << sp, cn = (uint64_t)c.mant << sc;
  int pen = pe - sp, cen = c.exp - sc;
  if (pen >= cen) {
    xm = pn; xe = pen; xs = ps; ym = cn; ye = cen; ys = c.sign;
  } else {
    xm = cn; xe = cen; xs = c.sign; ym = pn; ye = pen; ys = ps;
  }
  d = xe - ye;
  if (d >= 64) {
    ysh = 0;
    sticky = 1;
  } else {
    ysh = d ? ym >> d : ym;
    sticky = d ? (ym & ((1ull << d) - 1u)) != 0 : 0;
  }
  if (xs == ys) {
    s = xm + ysh; /* < 2^64 since both < 2^63 */
    sign = xs;
  } else if (xm >= ysh) {
    /* x - (ysh + frac): with a sticky fraction the value lies in (s, s+1) for
     * s = xm - ysh - 1, so keep sticky set. */
    s = xm - ysh - (uint64_t)sticky;
    sign = xs;
  } else { /* only when d == 0 (no sticky) */
    s = ysh - xm;
    sign = ys;
  }
  if (s == 0 && !sticky) return 0u; /* exact cancellation: +0 */
  return nf_round(NF_FP32, sign, s, xe, sticky, 0);
}

uint32_t nf_fma32_val(uint32_t acc, nf_val a, nf_val b, int scale_exp) {
  nf_val c = nf_decode(NF_FP32, acc);
  int ps = a.sign ^ b.sign;
  if (a.cls == NF_NAN || b.cls == NF_NAN || c.cls == NF_NAN) return 0x7FC00000u;
  if ((a.cls == NF_INF && b.cls == NF_ZERO) || (a.cls == NF_ZERO && b.cls == NF_INF))
    return 0x7FC00000u;
  if (a.cls == NF_INF || b.cls == NF_INF) {
    if (c.cls == NF_INF && c.sign != ps) return 0x7FC00000u;
    return nf_inf(NF_FP32, ps);
  }
  if (c.cls == NF_INF) return acc;
  if (a.cls == NF_ZERO || b.cls == NF_ZERO) {
    if (c.cls == NF_ZERO) return (ps && c.sign) ? 0x80000000u : 0u;
    return acc; /* exact */
  }
  if (c.cls == NF_ZERO) { /* the product alone, one rounding */
    return nf_round(NF_FP32, ps, (uint64_t)a.mant * b.mant, a.exp + b.exp + scale_exp, 0, 0);
  }
  return add_round_fp32(ps, (uint64_t)a.mant * b.mant, a.exp + b.exp + scale_exp, c);
}

uint32_t nf_fma32(uint32_t acc, nf_fmt fa, uint32_t a, nf_fmt fb, uint32_t b, int scale_exp) {
  return nf_fma32_val(acc, nf_decode(fa, a), nf_decode(fb, b), scale_exp);
}
