/* Self-test of the number-format library against independent references:
 *  - FP32 fused multiply-add against the C library's fmaf (correctly rounded),
 *  - FP32 -> BF16 against the common "add 0x7FFF + lsb, truncate" rule,
 *  - FP32 -> FP16 against the compiler's _Float16 conversion,
 *  - FP32 -> FP8 against a brute-force nearest-even search over all 256 codes,
 *  - exhaustive decode of the 8/16-bit formats (and random FP32) against ref_val, which
 *    decodes the bit fields itself with ldexp (docs/numerics.md section 1).
 * Usage: numfmt_test [--seed N] [--iters N]. Ends with "N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "../framework/tf_seed.h"

static uint64_t rng_state;
static uint32_t rnd32(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

/* random FP32 with a bias towards interesting values */
static uint32_t rnd_fp32(void) {
  uint32_t r = rnd32(), s = rnd32() & 0x80000000u;
  switch (r % 10) {
    case 0: return s | (rnd32() & 0x007FFFFFu);                       /* subnormal */
    case 1: return s | ((rnd32() % 3 + 252u) << 23) | (rnd32() & 0x7FFFFFu); /* huge */
    case 2: return s | ((rnd32() % 6) << 23) | (rnd32() & 0x7FFFFFu);  /* tiny normals */
    case 3: { static const uint32_t sp[] = {0, 0x7F800000u, 0x7FC00000u, 0x7F7FFFFFu, 0x00800000u, 0x3F800000u, 0x7FA00001u};
              return s | sp[rnd32() % 7]; }
    case 4: return s | ((uint32_t)(rnd32() % 40 + 107) << 23) | (rnd32() & 0x7FF000u); /* short mantissa */
    default: return s | ((uint32_t)(rnd32() % 60 + 97) << 23) | (rnd32() & 0x7FFFFFu);
  }
}

/* Independent reference decode: sign, exponent and fraction fields straight from the
 * format table of docs/numerics.md, value by ldexp (no numfmt.c code involved). */
static const struct { int ebits, mbits, bias; } ref_fmt[NF_NUM_FMTS] = {
    [NF_FP32] = {8, 23, 127}, [NF_BF16] = {8, 7, 127}, [NF_FP16] = {5, 10, 15},
    [NF_E4M3] = {4, 3, 7},    [NF_E5M2] = {5, 2, 15},
};
static double ref_val(nf_fmt f, uint32_t bits) {
  const int eb = ref_fmt[f].ebits, mb = ref_fmt[f].mbits, bias = ref_fmt[f].bias;
  const uint32_t frac = bits & ((1u << mb) - 1), e = (bits >> mb) & ((1u << eb) - 1);
  const double s = ((bits >> (eb + mb)) & 1) ? -1.0 : 1.0;
  if (e == (1u << eb) - 1) {
    if (f != NF_E4M3) return frac ? NAN : s * INFINITY; /* IEEE-like Inf/NaN */
    if (frac == 7) return NAN;                           /* E4M3: no Inf, NaN only S.1111.111 */
  }
  if (e == 0) return s * ldexp(frac, 1 - bias - mb); /* zero, subnormals */
  return s * ldexp((1u << mb) | frac, (int)e - bias - mb);
}
static int ref_cls(double v) { return isnan(v) ? NF_NAN : isinf(v) ? NF_INF : v == 0 ? NF_ZERO : NF_FINITE; }

/* value of nf_decode's result (the library under test) */
static double val_of(nf_fmt f, uint32_t bits) {
  nf_val v = nf_decode(f, bits);
  if (v.cls == NF_NAN) return NAN;
  if (v.cls == NF_INF) return v.sign ? -INFINITY : INFINITY;
  if (v.cls == NF_ZERO) return v.sign ? -0.0 : 0.0;
  return (v.sign ? -1.0 : 1.0) * ldexp((double)v.mant, v.exp);
}

/* Results are reported per named check (one test = all cases of one check name). */
static int fails, passes;
static const char *names[64];
static long ncases[64], nfails[64];
static int nnames;
static void check(int ok, const char *what, uint32_t in, uint32_t got, uint32_t exp) {
  int i;
  for (i = 0; i < nnames && strcmp(names[i], what); i++) {}
  if (i == nnames && nnames < 64) names[nnames++] = what;
  ncases[i]++;
  if (ok) return;
  nfails[i]++;
  if (fails++ < 20) printf("FAIL %s: in 0x%08x got 0x%08x expected 0x%08x\n", what, in, got, exp);
}

/* nf_decode of one code against the reference value r: class, sign (but of NaN), value */
static void check_decode(nf_fmt f, uint32_t c, double r) {
  nf_val d = nf_decode(f, c);
  double g = val_of(f, c);
  int ok = d.cls == ref_cls(r) && (isnan(r) || (g == r && !signbit(g) == !signbit(r)));
  static const char *what[NF_NUM_FMTS] = {"decode fp32", "decode bf16", "decode fp16", "decode e4m3",
                                          "decode e5m2"};
  check(ok, what[f], c, isnan(g) ? 0x7FC00000u : nf_float_to_bits((float)g),
        isnan(r) ? 0x7FC00000u : nf_float_to_bits((float)r));
}

static int is_nan32(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu); }

/* brute-force FP8 rounding of an FP32 value (non-NaN); values from ref_val */
static uint32_t ref_fp8(nf_fmt f, uint32_t x32, int sat) {
  double x = ref_val(NF_FP32, x32), best = 0, bd = INFINITY;
  uint32_t bc = 0, maxc = f == NF_E4M3 ? 0x7Eu : 0x7Bu; /* 448, 57344 */
  double maxv = ref_val(f, maxc);
  int sign = (x32 >> 31) & 1;
  uint32_t ovf = f == NF_E4M3 ? 0x7Fu : ((uint32_t)sign << 7) | 0x7Cu; /* E4M3 NaN, E5M2 Inf */
  double ax = fabs(x);
  if (isinf(x)) return sat ? ((sign << 7) | maxc) : ovf;
  /* overflow threshold: halfway between max and the next step above max */
  {
    double step = maxv - ref_val(f, maxc - 1);
    double lim = maxv + step / 2;
    if (ax > lim || (ax == lim && (maxc & 1))) return sat ? ((sign << 7) | maxc) : ovf;
  }
  for (uint32_t c = 0; c <= maxc; c++) {
    double v = ref_val(f, c), dd = fabs(ax - v);
    if (dd < bd || (dd == bd && !(c & 1))) { bd = dd; bc = c; best = v; }
  }
  (void)best;
  return (sign << 7) | bc;
}

int main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  long iters = 200000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = strtol(argv[++i], 0, 0);
    else {
      fprintf(stderr, "usage: %s [--seed N] [--iters N]\n", argv[0]);
      return 2;
    }
  }
  printf("numfmt_test: seed %llu iters %ld\n", (unsigned long long)seed, iters);
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;

  /* exhaustive decode of 8/16-bit formats against ref_val; nf_to_fp32 must be exact */
  for (int f = NF_BF16; f < NF_NUM_FMTS; f++) {
    uint32_t n = f >= NF_E4M3 ? 256 : 65536;
    for (uint32_t c = 0; c < n; c++) {
      double v = ref_val((nf_fmt)f, c);
      check_decode((nf_fmt)f, c, v);
      uint32_t w = nf_to_fp32((nf_fmt)f, c);
      float fv = (float)v; /* exact: every value fits in FP32 */
      uint32_t e = isnan(v) ? 0x7FC00000u : nf_float_to_bits(fv);
      check(w == e, "to_fp32", c, w, e);
      /* round trip back must be the identity for non-NaN codes */
      if (!isnan(v)) {
        uint32_t back = nf_convert(NF_FP32, (nf_fmt)f, w, 0, 0);
        check(back == c, "roundtrip", c, back, c);
      }
    }
  }
  /* known FP8 facts (chip.md section 3) */
  check(val_of(NF_E4M3, 0x7E) == 448.0, "e4m3 max", 0x7E, 0, 0);
  check(val_of(NF_E4M3, 0x08) == ldexp(1, -6), "e4m3 min normal", 0x08, 0, 0);
  check(val_of(NF_E4M3, 0x01) == ldexp(1, -9), "e4m3 min sub", 0x01, 0, 0);
  check(isnan(val_of(NF_E4M3, 0x7F)) && isnan(val_of(NF_E4M3, 0xFF)), "e4m3 nan", 0x7F, 0, 0);
  check(val_of(NF_E5M2, 0x7B) == 57344.0, "e5m2 max", 0x7B, 0, 0);
  check(isinf(val_of(NF_E5M2, 0x7C)) && isnan(val_of(NF_E5M2, 0x7D)), "e5m2 inf/nan", 0x7C, 0, 0);
  check(nf_convert(NF_FP32, NF_E4M3, nf_float_to_bits(464.0f), 0, 0) == 0x7E, "e4m3 464 tie", 0, 0, 0);
  check(nf_convert(NF_FP32, NF_E4M3, nf_float_to_bits(465.0f), 0, 0) == 0x7F, "e4m3 465 nan", 0, 0, 0);
  check(nf_convert(NF_FP32, NF_E4M3, nf_float_to_bits(-1000.0f), 0, 1) == 0xFE, "e4m3 sat", 0, 0, 0);
  check(nf_convert(NF_FP32, NF_E5M2, nf_float_to_bits(1e6f), 0, 0) == 0x7C, "e5m2 inf", 0, 0, 0);
  check(nf_convert(NF_FP32, NF_E5M2, nf_float_to_bits(1e6f), 0, 1) == 0x7B, "e5m2 sat", 0, 0, 0);

  for (long it = 0; it < iters; it++) {
    uint32_t x = rnd_fp32(), a = rnd_fp32(), b = rnd_fp32(), c = rnd_fp32();
    check_decode(NF_FP32, x, ref_val(NF_FP32, x));
    /* FP32 -> BF16 common rule */
    {
      uint32_t got = nf_convert(NF_FP32, NF_BF16, x, 0, 0), exp;
      if (is_nan32(x)) exp = 0x7FC0u;
      else exp = (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
      check(got == exp, "bf16", x, got, exp);
    }
    /* FP32 -> FP16 via the compiler */
    {
      uint32_t got = nf_convert(NF_FP32, NF_FP16, x, 0, 0), exp;
      _Float16 h = (_Float16)nf_bits_to_float(x);
      uint16_t hb;
      memcpy(&hb, &h, 2);
      exp = is_nan32(x) ? 0x7E00u : hb;
      check(got == exp, "fp16", x, got, exp);
    }
    /* FP32 -> FP8 brute force (fewer iterations: slow reference) */
    if (it % 8 == 0 && !is_nan32(x)) {
      for (int f = NF_E4M3; f <= NF_E5M2; f++)
        for (int sat = 0; sat < 2; sat++) {
          uint32_t got = nf_convert(NF_FP32, (nf_fmt)f, x, 0, sat);
          uint32_t exp = ref_fp8((nf_fmt)f, x, sat);
          if (f == NF_E4M3 && (exp & 0x7F) == 0x7F) exp = 0x7F; /* canonical NaN */
          check(got == exp, f == NF_E4M3 ? "e4m3" : "e5m2", x, got, exp);
        }
    }
    /* fused multiply-add vs fmaf */
    {
      uint32_t got = nf_fma32(c, NF_FP32, a, NF_FP32, b, 0);
      float r = fmaf(nf_bits_to_float(a), nf_bits_to_float(b), nf_bits_to_float(c));
      uint32_t exp = isnan(r) ? 0x7FC00000u : nf_float_to_bits(r);
      check(got == exp, "fma32", a, got, exp);
      if (got != exp && fails < 20) printf("   a=%08x b=%08x c=%08x\n", a, b, c);
    }
    /* fused multiply-add with narrow inputs and a scale: compare with fmaf on
     * pre-scaled exact operands when the scaled product stays in range */
    {
      nf_fmt fa = (nf_fmt)(1 + rnd32() % 4), fb = fa;
      if (fa >= NF_E4M3) fb = (nf_fmt)(NF_E4M3 + rnd32() % 2);
      uint32_t an = nf_convert(NF_FP32, fa, a, 0, 1), bn = nf_convert(NF_FP32, fb, b, 0, 1);
      int sc = (int)(rnd32() % 17) - 8;
      double pa = ref_val(fa, an), pb = ref_val(fb, bn);
      double pav = ldexp(pa, sc);
      float fpa = (float)pav;
      if (!isnan(pav) && (double)fpa == pav && (pav == 0 || fabs(pav) >= ldexp(1, -126))) {
        uint32_t got = nf_fma32(c, fa, an, fb, bn, sc);
        float r = fmaf(fpa, (float)pb, nf_bits_to_float(c));
        uint32_t exp = isnan(r) ? 0x7FC00000u : nf_float_to_bits(r);
        check(got == exp, "fma narrow+scale", an, got, exp);
      }
    }
  }
  fails = 0;
  for (int i = 0; i < nnames; i++) {
    printf("  %-20s %8ld cases %s\n", names[i], ncases[i], nfails[i] ? "FAIL" : "ok");
    if (nfails[i]) fails++;
    else passes++;
  }
  printf("%d passed, %d failed\n", passes, fails);
  return fails ? 1 : 0;
}
