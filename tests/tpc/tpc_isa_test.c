/* TPC per-instruction tests on the C ISA model (not RTL). Every vector
 * instruction is run on random operands (with special values: +-0, subnormals,
 * NaN, Inf, max, FP8 saturation) and compared against an independent reference
 * built from tests/golden/numfmt and host C arithmetic. Also: scalar, branch,
 * predication, index, tensor and local-memory instructions, every error code,
 * special-function ULP measurement and assembler/disassembler round trips.
 * Usage: tpc_isa_test [--seed N] [-v]. Last line: "tpc_isa: N passed, M failed". */
#include "tpc_test_util.h"

static tpc_launch_t L;
static tpc_core_t C;

/* assemble "line" + halt, start a core; caller sets registers, then go() */
static int prep(const char *line)
{
  char src[512];
  snprintf(src, sizeof(src), "%s\nhalt\n", line);
  tu_launch_init(&L);
  L.rng_seed = 7;
  if (tu_load_prog(&L, src, "test"))
    return -1;
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  return 0;
}
static int go(void) { return tpc_core_run(&C, 100000); }

/* ------------------------------------------------------------------ operands */
static uint32_t special(int dt)
{
  static const uint32_t f32s[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,
                                  0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                                  0x3F800000, 0xBF800000, 0x43E00000, 0x47600000, 0x477FE000, 0x3F7FFFFF};
  int kind = tpc_dtype_info[dt].kind;
  uint32_t m = tpc_dtype_info[dt].bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * tpc_dtype_info[dt].bytes)) - 1u;
  if (kind != 'f') {
    static const uint32_t is[] = {0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF};
    return is[rndn(11)] & m;
  }
  if (dt == TPC_DT_F32)
    return f32s[rndn(sizeof(f32s) / 4)];
  /* narrow: specials from the format */
  switch (rndn(8)) {
  case 0: return 0;
  case 1: return 1u << (8 * tpc_dtype_info[dt].bytes - 1);
  case 2: return 1;
  case 3: return nf_max_finite((nf_fmt)dt);
  case 4: return nf_inf((nf_fmt)dt, (int)rndn(2));
  case 5: return nf_canonical_nan((nf_fmt)dt);
  case 6: return nf_max_finite((nf_fmt)dt) | (1u << (8 * tpc_dtype_info[dt].bytes - 1));
  default: return (uint32_t)rnd32() & m;
  }
}

static uint32_t rnd_elem(int dt)
{
  uint32_t m = tpc_dtype_info[dt].bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * tpc_dtype_info[dt].bytes)) - 1u;
  if (rndn(4) == 0)
    return special(dt);
  if (dt == TPC_DT_F32 && rndn(2)) /* moderate values: exercise rounding, not only NaNs */
    return bitsof((float)((double)(int32_t)rnd32() / (double)(1u << rndn(31))));
  return rnd32() & m;
}

static void rnd_vec(uint8_t *v, int dt)
{
  int k;
  for (k = 0; k < tpc_dtype_info[dt].lanes; k++)
    tpc_lane_set(v, dt, k, rnd_elem(dt));
}

static uint32_t lm(int dt) { return tpc_dtype_info[dt].bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * tpc_dtype_info[dt].bytes)) - 1u; }
static int64_t ival(int dt, uint32_t x)
{
  int bits = 8 * tpc_dtype_info[dt].bytes;
  x &= lm(dt);
  if (tpc_dtype_info[dt].kind == 's' && (x >> (bits - 1)))
    return (int64_t)x - ((int64_t)1 << bits);
  return (int64_t)x;
}

/* reference float path: numfmt decode to FP32, host float op, numfmt convert back */
static float rf(int dt, uint32_t x) { return nf_bits_to_float(nf_to_fp32((nf_fmt)dt, x)); }
static uint32_t rback(int dt, float z, int sat)
{
  uint32_t zb = nf_float_to_bits(z);
  if (z != z)
    return nf_canonical_nan((nf_fmt)dt);
  return dt == TPC_DT_F32 ? zb : nf_convert(NF_FP32, (nf_fmt)dt, zb, 0, sat);
}

static const char *dtn(int dt) { return tpc_dtype_info[dt].name; }

/* ------------------------------------------------------------------ arithmetic */
static void test_arith(void)
{
  static const char *ops[] = {"vadd", "vsub", "vmul", "vfma", "vmin", "vmax"};
  int o, dt, it;
  for (o = 0; o < 6; o++)
    for (dt = 0; dt < TPC_NDT; dt++) {
      int bad = 0, first = -1;
      char msg[200] = "";
      for (it = 0; it < 24; it++) {
        int bs = rndn(3) == 0, sat = (o < 4) && rndn(2), usep = rndn(2), neg = rndn(2), k, n = tpc_dtype_info[dt].lanes;
        char line[160];
        uint32_t vpm = rnd32(), sb = rnd32();
        uint8_t a[32], b[32], c[32], d[32];
        snprintf(line, sizeof(line), "%s.%s%s v3, v1, %s%s%s", ops[o], dtn(dt), sat ? ".sat" : "",
                 bs ? "s5" : "v2", o == 3 ? ", v4" : "", usep ? (neg ? " @!vp1" : " @vp1") : "");
        if (prep(line))
          return;
        rnd_vec(a, dt); rnd_vec(b, dt); rnd_vec(c, dt); rnd_vec(d, dt);
        memcpy(C.v[1], a, 32); memcpy(C.v[2], b, 32); memcpy(C.v[4], c, 32); memcpy(C.v[3], d, 32);
        C.s[5] = sb;
        C.vp[1] = vpm;
        if (go()) {
          bad++;
          snprintf(msg, sizeof(msg), "%s: error %s", line, tpc_err_name((int)C.err));
          continue;
        }
        for (k = 0; k < n; k++) {
          uint32_t x = tpc_lane_get(a, dt, k), y = bs ? (sb & lm(dt)) : tpc_lane_get(b, dt, k);
          uint32_t z = tpc_lane_get(c, dt, k), exp, got = tpc_lane_get(C.v[3], dt, k);
          int en = usep ? (int)(((vpm >> k) & 1u) ^ (uint32_t)neg) : 1;
          if (!en) {
            exp = tpc_lane_get(d, dt, k);
          } else if (tpc_dtype_info[dt].kind == 'f') {
            float fx = rf(dt, x), fy = rf(dt, y), fz = rf(dt, z), r;
            if (o == 4 || o == 5) {
              if (fx != fx || fy != fy)
                exp = nf_canonical_nan((nf_fmt)dt);
              else if (fx == fy)
                exp = (o == 4) ? (signbit(fx) ? x : y) : (signbit(fx) ? y : x);
              else
                exp = ((fx < fy) == (o == 4)) ? x : y;
            } else {
              r = o == 0 ? fx + fy : o == 1 ? fx - fy : o == 2 ? fx * fy : fmaf(fx, fy, fz);
              exp = rback(dt, r, sat);
            }
          } else {
            int64_t X = ival(dt, x), Y = ival(dt, y), Z = ival(dt, z), r, lo, hi;
            int bits = 8 * tpc_dtype_info[dt].bytes;
            if (tpc_dtype_info[dt].kind == 's') { lo = -((int64_t)1 << (bits - 1)); hi = -lo - 1; }
            else { lo = 0; hi = ((int64_t)1 << bits) - 1; }
            if (o == 4 || o == 5) {
              exp = ((X < Y) == (o == 4)) ? x : y;
              if (X == Y) exp = x;
            } else {
              if (sat) {
                long double ex = o == 0 ? (long double)X + Y : o == 1 ? (long double)X - Y
                               : o == 2 ? (long double)X * Y : (long double)X * Y + Z; /* exact: < 2^64 */
                r = ex < lo ? lo : ex > hi ? hi : (int64_t)ex;
              } else {
                r = o == 0 ? X + Y : o == 1 ? X - Y : o == 2 ? (int64_t)((uint64_t)X * (uint64_t)Y) : (int64_t)((uint64_t)X * (uint64_t)Y + (uint64_t)Z);
              }
              exp = (uint32_t)r & lm(dt);
            }
          }
          if (got != exp) {
            if (!bad)
              snprintf(msg, sizeof(msg), "%s lane %d: a=%08x b=%08x c=%08x got %08x want %08x", line, k, x, y, z, got, exp);
            bad++;
            first = k;
          }
        }
      }
      (void)first;
      check(!bad, "%s.%s: %s", ops[o], dtn(dt), bad ? msg : "24 random vectors");
    }
}

static void test_unary_cmp_sel(void)
{
  int dt, it, k;
  for (dt = 0; dt < TPC_NDT; dt++) {
    int n = tpc_dtype_info[dt].lanes, bad = 0, isf = tpc_dtype_info[dt].kind == 'f', cc;
    char line[128];
    uint8_t a[32], b[32];
    if (tpc_dtype_info[dt].kind != 'u') {
      for (it = 0; it < 2; it++) {
        snprintf(line, sizeof(line), "%s.%s v3, v1", it ? "vneg" : "vabs", dtn(dt));
        prep(line);
        rnd_vec(a, dt);
        memcpy(C.v[1], a, 32);
        go();
        for (k = 0; k < n; k++) {
          uint32_t x = tpc_lane_get(a, dt, k), sb = 1u << (8 * tpc_dtype_info[dt].bytes - 1), e;
          if (isf) e = it ? x ^ sb : x & ~sb;
          else { int64_t X = ival(dt, x); e = (uint32_t)(it ? -X : (X < 0 ? -X : X)) & lm(dt); }
          bad += tpc_lane_get(C.v[3], dt, k) != e;
        }
        check(!bad, "%s.%s", it ? "vneg" : "vabs", dtn(dt));
      }
    }
    for (cc = 0; cc < 6; cc++) {
      bad = 0;
      for (it = 0; it < 8; it++) {
        uint32_t old = rnd32(), m = rnd32();
        snprintf(line, sizeof(line), "vcmp.%s.%s vp2, v1, v2 @vp3", tpc_cond_name[cc], dtn(dt));
        prep(line);
        rnd_vec(a, dt); rnd_vec(b, dt);
        if (it & 1) memcpy(b, a, 32); /* equal operands */
        memcpy(C.v[1], a, 32); memcpy(C.v[2], b, 32);
        C.vp[2] = old; C.vp[3] = m;
        go();
        for (k = 0; k < 32; k++) {
          int e;
          if (k >= n) e = 0;
          else if (!((m >> k) & 1u)) e = (old >> k) & 1u;
          else if (isf) {
            float x = rf(dt, tpc_lane_get(a, dt, k)), y = rf(dt, tpc_lane_get(b, dt, k));
            e = cc == 0 ? x == y : cc == 1 ? x != y : cc == 2 ? x < y : cc == 3 ? x <= y : cc == 4 ? x > y : x >= y;
          } else {
            int64_t x = ival(dt, tpc_lane_get(a, dt, k)), y = ival(dt, tpc_lane_get(b, dt, k));
            e = cc == 0 ? x == y : cc == 1 ? x != y : cc == 2 ? x < y : cc == 3 ? x <= y : cc == 4 ? x > y : x >= y;
          }
          bad += (int)((C.vp[2] >> k) & 1u) != e;
        }
      }
      check(!bad, "vcmp.%s.%s", tpc_cond_name[cc], dtn(dt));
    }
    /* vsel */
    {
      uint32_t sel = rnd32();
      snprintf(line, sizeof(line), "vsel.%s v3, vp4, v1, v2", dtn(dt));
      prep(line);
      rnd_vec(a, dt); rnd_vec(b, dt);
      memcpy(C.v[1], a, 32); memcpy(C.v[2], b, 32); C.vp[4] = sel;
      go();
      bad = 0;
      for (k = 0; k < n; k++)
        bad += tpc_lane_get(C.v[3], dt, k) != tpc_lane_get((sel >> k) & 1u ? a : b, dt, k);
      check(!bad, "vsel.%s", dtn(dt));
    }
  }
}

static void test_bitwise(void)
{
  static const char *ops[] = {"vand", "vor", "vxor", "vnot", "vshl", "vshr"};
  int o, dt, k, it;
  for (o = 0; o < 6; o++)
    for (dt = TPC_DT_I32; dt < TPC_NDT; dt++) {
      int n = tpc_dtype_info[dt].lanes, bits = 8 * tpc_dtype_info[dt].bytes, bad = 0;
      for (it = 0; it < 4; it++) {
        char line[96];
        uint8_t a[32], b[32];
        snprintf(line, sizeof(line), o == 3 ? "%s.%s v3, v1" : "%s.%s v3, v1, v2", ops[o], dtn(dt));
        prep(line);
        rnd_vec(a, dt); rnd_vec(b, dt);
        memcpy(C.v[1], a, 32); memcpy(C.v[2], b, 32);
        go();
        for (k = 0; k < n; k++) {
          uint32_t x = tpc_lane_get(a, dt, k), y = tpc_lane_get(b, dt, k), sh = y % (uint32_t)bits, e;
          switch (o) {
          case 0: e = x & y; break;
          case 1: e = x | y; break;
          case 2: e = x ^ y; break;
          case 3: e = ~x; break;
          case 4: e = (uint32_t)((uint64_t)x << sh); break;
          default: e = tpc_dtype_info[dt].kind == 's' ? (uint32_t)(ival(dt, x) >> sh) : x >> sh; break;
          }
          bad += tpc_lane_get(C.v[3], dt, k) != (e & lm(dt));
        }
      }
      check(!bad, "%s.%s", ops[o], dtn(dt));
    }
}

/* reference conversion */
static uint32_t ref_cvt(int s, int d, uint32_t x, int sat)
{
  int sf = tpc_dtype_info[s].kind == 'f', df = tpc_dtype_info[d].kind == 'f';
  int dbits = 8 * tpc_dtype_info[d].bytes;
  long double lo, hi, v;
  if (sf && df)
    return nf_convert((nf_fmt)s, (nf_fmt)d, x, 0, sat);
  if (tpc_dtype_info[d].kind == 's') { lo = -ldexpl(1, dbits - 1); hi = ldexpl(1, dbits - 1) - 1; }
  else { lo = 0; hi = ldexpl(1, dbits) - 1; }
  if (sf) {
    nf_val nv = nf_decode((nf_fmt)s, x);
    if (nv.cls == NF_NAN) return 0;
    if (nv.cls == NF_INF) return (uint32_t)(int64_t)(nv.sign ? lo : hi) & lm(d);
    v = nv.cls == NF_ZERO ? 0 : ldexpl((long double)nv.mant, nv.exp);
    if (nv.sign) v = -v;
    v = rintl(v);
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (uint32_t)(int64_t)v & lm(d);
  }
  {
    int64_t iv = ival(s, x);
    if (df) {
      uint64_t mag = (uint64_t)(iv < 0 ? -iv : iv);
      return iv == 0 ? 0 : nf_round((nf_fmt)d, iv < 0, mag, 0, 0, sat);
    }
    if (sat) { if (iv < (int64_t)lo) iv = (int64_t)lo; if (iv > (int64_t)hi) iv = (int64_t)hi; }
    return (uint32_t)iv & lm(d);
  }
}

static void test_cvt(void)
{
  int s, d, part, k, it;
  for (s = 0; s < TPC_NDT; s++)
    for (d = 0; d < TPC_NDT; d++) {
      int ls = tpc_dtype_info[s].lanes, ld = tpc_dtype_info[d].lanes, cnt = ls < ld ? ls : ld;
      int ratio = ls > ld ? ls / ld : ld / ls, bad = 0;
      char msg[200] = "";
      for (part = 0; part < ratio; part++)
        for (it = 0; it < 6; it++) {
          int sat = it & 1;
          char line[96];
          uint8_t a[32], old[32];
          snprintf(line, sizeof(line), "vcvt.%s.%s.p%d%s v3, v1", dtn(d), dtn(s), part, sat ? ".sat" : "");
          if (prep(line)) { bad++; continue; }
          rnd_vec(a, s); rnd_vec(old, d);
          memcpy(C.v[1], a, 32); memcpy(C.v[3], old, 32);
          if (go()) { bad++; snprintf(msg, sizeof(msg), "%s: %s", line, tpc_err_name((int)C.err)); continue; }
          for (k = 0; k < ld; k++) {
            uint32_t e = tpc_lane_get(old, d, k), got = tpc_lane_get(C.v[3], d, k);
            int j = ld > ls ? k - part * cnt : k;
            if (j >= 0 && j < cnt) {
              int si = ls > ld ? part * cnt + j : j;
              e = ref_cvt(s, d, tpc_lane_get(a, s, si), sat);
            }
            if (e != got) {
              if (!bad)
                snprintf(msg, sizeof(msg), "%s lane %d: in %08x got %08x want %08x", line, k,
                         j >= 0 && j < cnt ? tpc_lane_get(a, s, ls > ld ? part * cnt + j : j) : 0, got, e);
              bad++;
            }
          }
        }
      check(!bad, "vcvt.%s.%s (all parts, sat/nosat)%s%s", dtn(d), dtn(s), bad ? ": " : "", msg);
    }
  /* stochastic rounding f32 -> bf16: value = (x + (rng & 0xFFFF)) >> 16 with the lane RNG */
  {
    uint32_t st[8];
    uint8_t a[32];
    int bad = 0, up = 0, tot = 0;
    prep("vcvt.bf16.f32.sr v3, v1\nvcvt.bf16.f32.p1.sr v3, v1");
    rnd_vec(a, TPC_DT_F32);
    memcpy(C.v[1], a, 32);
    memcpy(st, C.rng, sizeof(st));
    go();
    for (k = 0; k < 16; k++) {
      int j = k & 7;
      uint32_t x = tpc_lane_get(a, TPC_DT_F32, j), r, e;
      st[j] = tpc_xorshift32(st[j]);
      r = st[j];
      e = nf_decode(NF_FP32, x).cls == NF_NAN ? 0x7FC0u : (uint32_t)(((uint64_t)x + (r & 0xFFFFu)) >> 16) & 0xFFFFu;
      bad += tpc_lane_get(C.v[3], TPC_DT_BF16, k) != e;
    }
    check(!bad, "vcvt.bf16.f32.sr bit-exact against the lane RNG");
    /* statistical: 1 + 2^-9 (between two bf16 values, 1/4 of the way) rounds up ~25% */
    prep("vcvt.bf16.f32.sr v3, v1");
    for (it = 0; it < 400; it++) {
      for (k = 0; k < 8; k++) tpc_lane_set(C.v[1], TPC_DT_F32, k, 0x3F804000u);
      C.state = TPC_RUNNING; C.pc = 0;
      tpc_core_step(&C);
      for (k = 0; k < 8; k++, tot++) up += tpc_lane_get(C.v[3], TPC_DT_BF16, k) == 0x3F81u;
    }
    check(up > tot / 4 - tot / 20 && up < tot / 4 + tot / 20, "stochastic rounding rate %d/%d ~ 25%%", up, tot);
  }
}

static void test_reduce_shuffle(void)
{
  static const char *ops[] = {"vredsum", "vredmax", "vredmin"};
  int o, dt, k, it, s;
  for (o = 0; o < 3; o++)
    for (dt = 0; dt < TPC_NDT; dt++) {
      int n = tpc_dtype_info[dt].lanes, bad = 0, isf = tpc_dtype_info[dt].kind == 'f';
      for (it = 0; it < 8; it++) {
        char line[64];
        uint8_t a[32];
        uint32_t x[32], e;
        float f[32];
        snprintf(line, sizeof(line), "%s.%s v3, v1", ops[o], dtn(dt));
        prep(line);
        rnd_vec(a, dt);
        if (isf && it < 6) /* mostly finite values so the sum is meaningful */
          for (k = 0; k < n; k++) tpc_lane_set(a, dt, k, nf_convert(NF_FP32, (nf_fmt)dt, bitsof((float)((int)rndn(2001) - 1000) / 64.0f), 0, 1));
        memcpy(C.v[1], a, 32);
        go();
        for (k = 0; k < n; k++) { x[k] = tpc_lane_get(a, dt, k); f[k] = isf ? rf(dt, x[k]) : 0.0f; }
        for (s = n / 2; s >= 1; s /= 2)
          for (k = 0; k < s; k++) {
            if (isf) {
              if (o == 0) f[k] = f[k] + f[k + s];
              else if (f[k] != f[k] || f[k + s] != f[k + s]) f[k] = NAN;
              else if (f[k] == f[k + s]) f[k] = (o == 1) ? (signbit(f[k]) ? f[k + s] : f[k]) : (signbit(f[k]) ? f[k] : f[k + s]);
              else f[k] = ((f[k] < f[k + s]) == (o == 2)) ? f[k] : f[k + s];
            } else {
              int64_t X = ival(dt, x[k]), Y = ival(dt, x[k + s]);
              x[k] = o == 0 ? x[k] + x[k + s] : ((X < Y) == (o == 2) ? x[k] : x[k + s]);
              if (X == Y) x[k] = x[k];
            }
          }
        e = isf ? rback(dt, f[0], 0) : x[0] & lm(dt);
        for (k = 0; k < n; k++) bad += tpc_lane_get(C.v[3], dt, k) != e;
      }
      check(!bad, "%s.%s (halving tree)", ops[o], dtn(dt));
    }
  for (dt = 0; dt < TPC_NDT; dt++) {
    int n = tpc_dtype_info[dt].lanes, bad = 0;
    char line[64];
    uint8_t a[32], b[32];
    uint32_t sv = rnd32(), ln = rndn((uint32_t)n);
    snprintf(line, sizeof(line), "vperm.%s v3, v1, v2", dtn(dt));
    prep(line); rnd_vec(a, dt); rnd_vec(b, dt);
    memcpy(C.v[1], a, 32); memcpy(C.v[2], b, 32); go();
    for (k = 0; k < n; k++) bad += tpc_lane_get(C.v[3], dt, k) != tpc_lane_get(a, dt, (int)(tpc_lane_get(b, dt, k) % (uint32_t)n));
    check(!bad, "vperm.%s", dtn(dt));
    snprintf(line, sizeof(line), "vbcast.%s v3, s4", dtn(dt));
    prep(line); C.s[4] = sv; go(); bad = 0;
    for (k = 0; k < n; k++) bad += tpc_lane_get(C.v[3], dt, k) != (sv & lm(dt));
    check(!bad, "vbcast.%s", dtn(dt));
    snprintf(line, sizeof(line), "vext.%s s6, v1, %u", dtn(dt), ln);
    prep(line); memcpy(C.v[1], a, 32); go();
    check(C.s[6] == (tpc_dtype_info[dt].kind == 's' ? (uint32_t)ival(dt, tpc_lane_get(a, dt, (int)ln)) : tpc_lane_get(a, dt, (int)ln)), "vext.%s", dtn(dt));
    snprintf(line, sizeof(line), "vins.%s v1, s4, %u", dtn(dt), ln);
    prep(line); memcpy(C.v[1], a, 32); C.s[4] = sv; go(); bad = 0;
    for (k = 0; k < n; k++) bad += tpc_lane_get(C.v[1], dt, k) != ((uint32_t)k == ln ? sv & lm(dt) : tpc_lane_get(a, dt, k));
    check(!bad, "vins.%s", dtn(dt));
    if (tpc_dtype_info[dt].kind != 'f') {
      snprintf(line, sizeof(line), "vlane.%s v3", dtn(dt));
      prep(line); go(); bad = 0;
      for (k = 0; k < n; k++) bad += tpc_lane_get(C.v[3], dt, k) != (uint32_t)k;
      check(!bad, "vlane.%s", dtn(dt));
    }
  }
  {
    uint8_t a[32];
    rnd_vec(a, TPC_DT_U32);
    prep("vmov v9, v1"); memcpy(C.v[1], a, 32); go();
    check(!memcmp(C.v[9], a, 32), "vmov");
    prep("vpand vp3, vp1, vp2\nvpor vp4, vp1, vp2\nvpnot vp5, vp1\nvptos s3, vp1\nvpfroms vp6, s9");
    C.vp[1] = 0x12345678; C.vp[2] = 0x0F0F00FF; C.s[9] = 0xCAFEF00D; go();
    check(C.vp[3] == (0x12345678u & 0x0F0F00FFu) && C.vp[4] == (0x12345678u | 0x0F0F00FFu) && C.vp[5] == ~0x12345678u &&
          C.s[3] == 0x12345678u && C.vp[6] == 0xCAFEF00Du, "vpand/vpor/vpnot/vptos/vpfroms");
    prep("vpnot vp0, vp1\nvptos s1, vp0\nadd s0, s1, s1\nadd s2, s0, s0");
    go();
    check(C.s[1] == 0xFFFFFFFFu && C.s[2] == 0, "vp0 and s0 are constants (writes ignored)");
  }
}

/* ------------------------------------------------------------------ special functions */
static double ulp_err(float got, double exact)
{
  double ax = fabs(exact), u;
  int e;
  if (isnan(exact)) return isnan(got) ? 0 : 1e9;
  if (isinf(exact)) return (isinf(got) && (got > 0) == (exact > 0)) ? 0 : 1e9;
  if (ax > 3.4028234663852886e38) /* exact beyond FLT_MAX: FLT_MAX or Inf are both acceptable */
    return ((double)fabsf(got) >= 3.4028234663852886e38 && (got > 0) == (exact > 0)) ? 0 : 1e9;
  if (isnan(got) || isinf(got)) return 1e9;
  if (ax < ldexp(1.0, -126)) u = ldexp(1.0, -149);
  else { frexp(ax, &e); u = ldexp(1.0, e - 24); }
  return fabs((double)got - exact) / u;
}

typedef struct { const char *name; float (*f)(float); double (*ref)(double); float lo, hi; double bound; } sfu_t;
static double d_rcp(double x) { return 1.0 / x; }
static double d_rsqrt(double x) { return 1.0 / sqrt(x); }
static double d_sigm(double x) { return 1.0 / (1.0 + exp(-x)); }

static void test_sfu(void)
{
  /* bounds = documented ULP accuracy (docs/tpc_isa.md) */
  sfu_t t[] = {{"vexp", tpc_sfu_exp, exp, -104.0f, 89.0f, 2},
               {"vlog", tpc_sfu_log, log, 0, 0, 2},
               {"vrcp", tpc_sfu_rcp, d_rcp, 0, 0, 1},
               {"vrsqrt", tpc_sfu_rsqrt, d_rsqrt, 0, 0, 2},
               {"vsqrt", tpc_sfu_sqrt, sqrt, 0, 0, 1},
               {"vtanh", tpc_sfu_tanh, tanh, -12.0f, 12.0f, 4},
               {"vsigm", tpc_sfu_sigm, d_sigm, -110.0f, 30.0f, 4}};
  int i, it, k;
  for (i = 0; i < 7; i++) {
    double worst = 0, wx = 0;
    int bad = 0;
    char line[64];
    for (it = 0; it < 40000; it++) {
      float x;
      double e;
      if (t[i].lo != t[i].hi)
        x = t[i].lo + (t[i].hi - t[i].lo) * (float)(rnd32() >> 8) / 16777216.0f;
      else
        x = f32of(rnd32() & 0x7FFFFFFFu); /* every positive float incl. subnormals */
      if (it % 4 == 0 && t[i].lo != t[i].hi) x = ldexpf((float)(rnd32() >> 8) / 16777216.0f, -(int)rndn(30)) * (rndn(2) ? 1 : -1);
      if (isnan(x)) continue;
      e = t[i].ref((double)x);
      if (ulp_err(t[i].f(x), e) > worst) { worst = ulp_err(t[i].f(x), e); wx = x; }
    }
    check(worst <= t[i].bound, "%s: max error %.3f ULP (bound %.0f) at x=%a, 40000 samples", t[i].name, worst, t[i].bound, wx);
    /* instruction = function on each lane, with lane predicate */
    snprintf(line, sizeof(line), "%s.f32 v3, v1 @vp2", t[i].name);
    prep(line);
    for (k = 0; k < 8; k++) tpc_lane_set(C.v[1], TPC_DT_F32, k, rnd32());
    C.vp[2] = 0xA5;
    go();
    for (k = 0; k < 8; k++) {
      uint32_t x = tpc_lane_get(C.v[1], TPC_DT_F32, k), g = tpc_lane_get(C.v[3], TPC_DT_F32, k), r = bitsof(t[i].f(f32of(x)));
      if (isnan(f32of(r))) r = 0x7FC00000u;
      if ((0xA5 >> k) & 1) bad += (isnan(f32of(r)) ? g != 0x7FC00000u : g != r);
      else bad += g != 0;
    }
    check(!bad, "%s.f32 executes the SFU algorithm per enabled lane", t[i].name);
  }
  {
    /* the fixed log table equals -ln(1/c) rounded to FP32 (libm double log; informative
     * for hosts whose libm differs) and the computed tables are the documented formulas */
    int n, j, badt = 0;
    const float *t = tpc_sfu_table(TPC_SFU_TAB_LOG_T, &n), *inv = tpc_sfu_table(TPC_SFU_TAB_LOG_INV, &n);
    for (j = 0; j < 25; j++)
      badt += t[j] != (float)(-log((double)inv[j])) || inv[j] != (float)(1.0 / (1.0 + (j - 8) / 32.0));
    t = tpc_sfu_table(TPC_SFU_TAB_RCP, &n);
    for (j = 0; j < n; j++) badt += t[j] != (float)(1.0 / (1.0 + (j + 0.5) / 64.0));
    t = tpc_sfu_table(TPC_SFU_TAB_RSQRT, &n);
    for (j = 0; j < n; j++) badt += t[j] != (float)(1.0 / sqrt(1.0 + (j + 0.5) / 16.0));
    check(!badt, "SFU tables match their defining formulas");
  }
  /* special values */
  check(tpc_sfu_exp(-INFINITY) == 0 && isinf(tpc_sfu_exp(INFINITY)) && tpc_sfu_exp(0) == 1 && isnan(tpc_sfu_exp(NAN)) &&
        isinf(tpc_sfu_exp(88.8f)) && tpc_sfu_exp(-104.5f) == 0, "vexp special values");
  check(tpc_sfu_log(1) == 0 && isinf(tpc_sfu_log(0)) && tpc_sfu_log(-0.0f) < 0 && isnan(tpc_sfu_log(-1)) &&
        isinf(tpc_sfu_log(INFINITY)) && fabsf(tpc_sfu_log(f32of(1)) + 103.27893f) < 1e-4f, "vlog special values");
  check(tpc_sfu_rcp(0.0f) == INFINITY && tpc_sfu_rcp(-0.0f) == -INFINITY && tpc_sfu_rcp(INFINITY) == 0 &&
        signbit(tpc_sfu_rcp(-INFINITY)) && tpc_sfu_rcp(4.0f) == 0.25f && isinf(tpc_sfu_rcp(f32of(1))) &&
        tpc_sfu_rcp(ldexpf(1, 127)) == ldexpf(1, -127), "vrcp special values (incl. subnormal in/out)");
  check(tpc_sfu_rsqrt(-0.0f) == -INFINITY && tpc_sfu_rsqrt(INFINITY) == 0 && isnan(tpc_sfu_rsqrt(-1)) &&
        tpc_sfu_rsqrt(4) == 0.5f, "vrsqrt special values");
  check(signbit(tpc_sfu_sqrt(-0.0f)) && tpc_sfu_sqrt(-0.0f) == 0 && isinf(tpc_sfu_sqrt(INFINITY)) && isnan(tpc_sfu_sqrt(-1)) &&
        tpc_sfu_sqrt(9) == 3 && tpc_sfu_sqrt(f32of(1)) == ldexpf(1, -75) * 1.41421356f, "vsqrt special values (exact squares, subnormal)");
  check(tpc_sfu_tanh(INFINITY) == 1 && tpc_sfu_tanh(-INFINITY) == -1 && tpc_sfu_tanh(-0.0f) == 0 && signbit(tpc_sfu_tanh(-0.0f)) &&
        tpc_sfu_sigm(-INFINITY) == 0 && tpc_sfu_sigm(INFINITY) == 1 && tpc_sfu_sigm(0) == 0.5f, "vtanh/vsigm special values");
}

static void test_rng(void)
{
  uint32_t st[8];
  int k, bad = 0, r;
  prep("vrseed v1\nvrand v3\nvrand v4 @vp2");
  for (k = 0; k < 8; k++) tpc_lane_set(C.v[1], TPC_DT_U32, k, (uint32_t)k * 1000u);
  tpc_lane_set(C.v[1], TPC_DT_U32, 0, 0x61C88647u - 0x9E3779B9u * 0); /* arbitrary */
  C.vp[2] = 0x0F;
  for (k = 0; k < 8; k++) st[k] = tpc_mix32(tpc_lane_get(C.v[1], TPC_DT_U32, k));
  go();
  for (k = 0; k < 8; k++) {
    st[k] = tpc_xorshift32(st[k]);
    bad += tpc_lane_get(C.v[3], TPC_DT_U32, k) != st[k];
    if (k < 4) { st[k] = tpc_xorshift32(st[k]); bad += tpc_lane_get(C.v[4], TPC_DT_U32, k) != st[k]; }
    else bad += tpc_lane_get(C.v[4], TPC_DT_U32, k) != 0;
    bad += C.rng[k] != st[k];
  }
  check(!bad, "vrseed/vrand: mix32 seeding, xorshift32 per lane, disabled lanes do not advance");
  for (r = 0, k = 0; k < 8; k++) r |= tpc_mix32((uint32_t)k) == 0;
  check(!r && tpc_mix32(0x61C88647u) != 0, "mix32 never yields the xorshift fixed point 0");
}

/* Table-driven lane-predication property: for every lane-predicated vector-slot
 * instruction and type, running it under a random lane predicate gives the unpredicated
 * result in enabled lanes and the old destination in disabled lanes. */
static void run_raw_vec(uint64_t w, const uint8_t regs[32][32], const uint32_t *vp, uint32_t *s)
{
  uint64_t prog[8] = {0, 0, w, 0, 0, TPC_OP_S_HALT, 0, 0};
  int k, j;
  for (k = 0; k < 2; k++)
    for (j = 0; j < 32; j++)
      dptr(PROG_ADDR)[32 * k + j] = (uint8_t)(prog[4 * k + j / 8] >> (8 * (j % 8)));
  tu_launch_init(&L);
  L.prog_addr = PROG_ADDR;
  L.prog_len = 2;
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  memcpy(C.v, regs, sizeof(C.v));
  memcpy(C.vp, vp, sizeof(C.vp));
  C.vp[0] = 0xFFFFFFFFu;
  memcpy(C.s, s, sizeof(C.s));
  C.s[0] = 0;
  go();
}

static void test_lanepred_property(void)
{
  int i, dt, it, tested = 0, bad = 0;
  char msg[160] = "";
  for (i = 0; i < TPC_NINSN; i++) {
    const tpc_insn_info_t *in = &tpc_insn_info[i];
    if (!((in->slots >> TPC_SLOT_VECTOR) & 1u) || !in->lanepred || in->opcode == TPC_OP_V_VRAND)
      continue;
    for (dt = 0; dt < TPC_NDT; dt++) {
      if (in->types ? !((in->types >> dt) & 1u) : dt != 0)
        continue;
      for (it = 0; it < 4; it++) {
        static uint8_t regs[32][32];
        uint32_t vp[8], s[32], m, k, lanes;
        uint64_t w;
        uint8_t ref[32], old[32];
        uint32_t refp, oldp;
        int rd, is_vp;
        for (k = 0; k < 32; k++) { rnd_vec(regs[k], in->types ? dt : TPC_DT_U32); s[k] = rnd32(); }
        for (k = 0; k < 8; k++) vp[k] = rnd32();
        do {
          w = (rnd64() & in->used & ~0xFFull & ~((uint64_t)0xF << TPC_F_VP_LO)) | in->opcode;
          if (in->types) w = (w & ~((uint64_t)0xF << TPC_F_DT_LO)) | ((uint64_t)dt << TPC_F_DT_LO);
          w &= ~((uint64_t)0xF << TPC_F_SP_LO); /* unpredicated slot */
          if (in->mods & TPC_MOD_SR) w &= ~(1ull << (TPC_F_FN_LO + 7));
        } while (tpc_slot_legal(TPC_SLOT_VECTOR, w));
        rd = (int)((w >> TPC_F_RD_LO) & 31u);
        is_vp = in->ops[0] == TPC_OPK_VPD;
        if (is_vp && rd == 0) continue; /* vp0 is constant */
        memcpy(old, regs[rd], 32);
        oldp = vp[rd & 7];
        run_raw_vec(w, (const uint8_t (*)[32])regs, vp, s);
        memcpy(ref, C.v[rd], 32);
        refp = C.vp[rd & 7];
        /* predicated: vp field = 3 (random mask), maybe negated */
        {
          uint64_t wp = w | (3ull << TPC_F_VP_LO) | ((uint64_t)rndn(2) << TPC_F_VPN_LO);
          m = ((wp >> TPC_F_VPN_LO) & 1u) ? ~vp[3] : vp[3];
          if (!is_vp && (rd == (int)((w >> TPC_F_RA_LO) & 31u))) { /* fine: sources read before write */ }
          run_raw_vec(wp, (const uint8_t (*)[32])regs, vp, s);
        }
        tested++;
        lanes = (uint32_t)tpc_dtype_info[in->types ? dt : TPC_DT_U32].lanes;
        if (in->opcode == TPC_OP_V_VCVT) {
          int sdt = (int)((w >> TPC_F_FN_LO) & 15u);
          if (tpc_dtype_info[sdt].lanes > tpc_dtype_info[dt].lanes) lanes = (uint32_t)tpc_dtype_info[dt].lanes;
        }
        for (k = 0; k < 32; k++) {
          int e;
          if (is_vp) {
            e = (int)(((m >> k) & 1u) ? (refp >> k) & 1u : (k < lanes ? (oldp >> k) & 1u : 0u));
            if ((int)((C.vp[rd & 7] >> k) & 1u) != e) { bad++; break; }
          } else {
            int eb = tpc_dtype_info[in->types ? dt : TPC_DT_U32].bytes;
            uint32_t lane = k / (uint32_t)eb;
            const uint8_t *src = ((m >> lane) & 1u) ? ref : old;
            if (C.v[rd][k] != src[k]) { bad++; if (!msg[0]) snprintf(msg, sizeof(msg), "%s.%s byte %u", in->name, tpc_dtype_info[dt].name, k); break; }
          }
        }
      }
    }
  }
  check(!bad && tested > 300, "lane predication of every lane-predicated vector instruction x type (%d random cases): enabled lanes = unpredicated result, others keep the destination %s", tested, msg);
}

/* ------------------------------------------------------------------ scalar, branch, predication */
static void test_scalar(void)
{
  static const struct { const char *op; int imm; } ops[] = {
    {"add", 0}, {"sub", 0}, {"mul", 0}, {"and", 0}, {"or", 0}, {"xor", 0}, {"sll", 0}, {"srl", 0}, {"sra", 0},
    {"min", 0}, {"max", 0}, {"minu", 0}, {"maxu", 0}, {"addi", 1}, {"andi", 1}, {"ori", 1}, {"xori", 1},
    {"slli", 1}, {"srli", 1}, {"srai", 1}, {"muli", 1}};
  int i, it, cc;
  for (i = 0; i < (int)(sizeof(ops) / sizeof(ops[0])); i++) {
    int bad = 0;
    for (it = 0; it < 20; it++) {
      uint32_t a = rndn(4) ? rnd32() : (uint32_t)(int32_t)(int8_t)rnd32(), b = rnd32(), e;
      int32_t imm = (int32_t)(int16_t)rnd32();
      char line[96];
      const char *o = ops[i].op;
      if (ops[i].imm) snprintf(line, sizeof(line), "%s s3, s1, %d", o, imm), b = (uint32_t)imm;
      else snprintf(line, sizeof(line), "%s s3, s1, s2", o);
      prep(line);
      C.s[1] = a; C.s[2] = b;
      go();
      if (!strncmp(o, "add", 3)) e = a + b;
      else if (!strcmp(o, "sub")) e = a - b;
      else if (!strncmp(o, "mul", 3)) e = a * b;
      else if (!strncmp(o, "and", 3)) e = a & b;
      else if (!strncmp(o, "or", 2)) e = a | b;
      else if (!strncmp(o, "xor", 3)) e = a ^ b;
      else if (!strncmp(o, "sll", 3)) e = a << (b & 31);
      else if (!strncmp(o, "srl", 3)) e = a >> (b & 31);
      else if (!strncmp(o, "sra", 3)) e = (uint32_t)((int64_t)(int32_t)a >> (b & 31));
      else if (!strcmp(o, "min")) e = (int32_t)a < (int32_t)b ? a : b;
      else if (!strcmp(o, "max")) e = (int32_t)a > (int32_t)b ? a : b;
      else if (!strcmp(o, "minu")) e = a < b ? a : b;
      else e = a > b ? a : b;
      bad += C.s[3] != e;
    }
    check(!bad, "scalar %s", ops[i].op);
  }
  prep("li s4, 0xDEADBEEF\nli s5, -2\nli s6, f32(0.5)");
  go();
  check(C.s[4] == 0xDEADBEEFu && C.s[5] == 0xFFFFFFFEu && C.s[6] == 0x3F000000u, "li (hex, negative, f32())");
  for (cc = 0; cc < 8; cc++) {
    int bad = 0;
    for (it = 0; it < 20; it++) {
      uint32_t a = rnd32(), b = it & 1 ? a : (it & 2 ? (uint32_t)(int32_t)(int16_t)rnd32() : rnd32()), e;
      char line[64];
      int32_t bi = (int32_t)(int16_t)b;
      snprintf(line, sizeof(line), "cmp.%s p3, s1, s2\ncmpi.%s p4, s1, %d", tpc_cond_name[cc], tpc_cond_name[cc], bi);
      prep(line);
      C.s[1] = a; C.s[2] = b;
      go();
      for (int pass = 0; pass < 2; pass++) {
        uint32_t bb = pass ? (uint32_t)bi : b;
        int32_t sa = (int32_t)a, sb = (int32_t)bb;
        e = cc == 0 ? a == bb : cc == 1 ? a != bb : cc == 2 ? sa < sb : cc == 3 ? sa <= sb : cc == 4 ? sa > sb : cc == 5 ? sa >= sb : cc == 6 ? a < bb : a >= bb;
        bad += C.p[pass ? 4 : 3] != e;
      }
    }
    check(!bad, "cmp/cmpi.%s", tpc_cond_name[cc]);
  }
  prep("cmpi.eq p1, s0, 0\ncmpi.ne p2, s0, 0\npand p3, p1, p2\npor p4, p1, p2\npxor p5, p1, p1\npnot p6, p2\npnot p0, p0");
  go();
  check(C.p[1] == 1 && C.p[2] == 0 && C.p[3] == 0 && C.p[4] == 1 && C.p[5] == 0 && C.p[6] == 1 && C.p[0] == 1, "pand/por/pxor/pnot, p0 constant");
  /* predication: false predicate -> no effect in every slot */
  prep("cmpi.ne p1, s0, 0\n{ (p1) ldv v1, s0, 0 ; (p1) li s1, 5 ; (p1) vbcast.i32 v2, s9 ; (p1) sts s0, 64, s9 }\n{ (!p1) li s2, 7 ; (!p1) ixaddi i1, 0, 3 }");
  C.s[9] = 0x55;
  go();
  check(C.s[1] == 0 && C.s[2] == 7 && C.ix[1][0] == 3 && tpc_lane_get(C.v[2], TPC_DT_I32, 0) == 0 && C.slm[64] == 0, "scalar predication on every slot, negated predicate");
  /* same-bundle semantics: reads see the state before the bundle */
  prep("li s1, 10\n{ ixset i2, 0, s1 ; addi s1, s1, 1 ; vbcast.i32 v1, s1 ; sts s0, 64, s1 }");
  go();
  check(C.s[1] == 11 && tpc_lane_get(C.v[1], TPC_DT_I32, 3) == 10 && C.ix[2][0] == 10 && C.slm[64] == 10, "all slots read registers before the bundle's writes");
  /* loops and branches */
  prep("li s1, 5\nloop: addi s2, s2, 3\nbnzd s1, loop\nbr skip\nli s3, 99\nskip: li s4, 1");
  go();
  check(C.s[2] == 15 && C.s[1] == 0 && C.s[3] == 0 && C.s[4] == 1 && C.err == 0, "bnzd loop x5, br forward");
  prep("cmpi.eq p1, s0, 1\n(p1) br 0\nli s5, 1");
  go();
  check(C.s[5] == 1 && C.st.bundles == 4, "not-taken predicated branch; bundle count %llu", (unsigned long long)C.st.bundles);
  /* index registers and queries */
  prep("li s1, -7\n{ ixset i1, 2, s1 ; ixaddi i2, 4, -3 }\nixadd i1, 0, s1\nixmov i3, i1\nixget s4, i1, 2\nixget s5, i3, 0\nixget s6, i2, 4");
  go();
  check(C.ix[1][2] == -7 && C.ix[1][0] == -7 && C.ix[2][4] == -3 && !memcmp(C.ix[3], C.ix[1], 20) && (int32_t)C.s[4] == -7 && (int32_t)C.s[5] == -7 && (int32_t)C.s[6] == -3,
        "ixset/ixaddi/ixadd/ixmov/ixget");
  {
    uint32_t n, id, d, off[5], len[5];
    int bad = 0;
    tu_launch_init(&L);
    L.idx_size[0] = 3; L.idx_size[1] = 10; L.idx_size[2] = 1;
    tu_load_prog(&L, "qoff s1, 0\nqsize s2, 0\nqoff s3, 1\nqsize s4, 1\ntpcid s5\nntpc s6\nqsize s7, 4\nhalt", "q");
    for (n = 1; n <= 8; n++) {
      uint32_t covered = 0;
      for (id = 0; id < n; id++) {
        tpc_core_start(&C, &L, &tu_dev, id, n);
        go();
        tpc_slice(&L, n, id, off, len);
        bad += C.s[1] != 0 || C.s[2] != 3 || C.s[3] != off[1] || C.s[4] != len[1] || C.s[5] != id || C.s[6] != n || C.s[7] != 1;
        if (len[1]) bad += off[1] != covered;
        covered += len[1];
        for (d = 0; d < 5; d++) bad += d != 1 && (off[d] != 0 || len[d] != L.idx_size[d]);
      }
      bad += covered != 10;
    }
    check(!bad, "qoff/qsize/tpcid/ntpc: slices of dim 1 (size 10) over 1..8 TPCs tile it exactly");
  }
}

/* ------------------------------------------------------------------ memory */
#define SNAP (1u << 20) /* larger than any tensor span the test draws */
static void test_memory(void)
{
  int it, bad = 0, k;
  for (it = 0; it < 200; it++) {
    tpc_tensor_t *T;
    int dt = (int)rndn(TPC_NDT), nd = 1 + (int)rndn(5), d, n = tpc_dtype_info[dt].lanes, esz = tpc_dtype_info[dt].bytes;
    int32_t cc[5];
    uint32_t m = rndn(2) ? 0xFFFFFFFFu : rnd32(), pad = rnd32();
    int64_t span = 1;
    uint8_t old[32], sv[32];
    tu_launch_init(&L);
    L.ntensors = 2;
    T = &L.tensor[1];
    T->dtype = (uint32_t)dt; T->ndims = (uint32_t)nd; T->pad = pad; T->base = DATA_ADDR + 64u * rndn(16) + (uint32_t)esz * rndn(8);
    for (d = 0; d < nd; d++) {
      T->size[d] = 1 + rndn(d == 0 ? 40 : 5);
      T->stride[d] = (int32_t)(d == 0 ? (rndn(4) ? 1 : 1 + rndn(3)) : span);
      span = (int64_t)T->stride[d] * T->size[d] + (d == 0 ? 0 : 0);
      if (d == 0) span = (int64_t)T->stride[0] * T->size[0] + rndn(5);
    }
    for (d = 0; d < 5; d++) cc[d] = d < nd ? (int32_t)rndn(T->size[d] + 2) - 1 : (rndn(8) ? 0 : 1);
    cc[0] = (int32_t)rndn(T->size[0] + (uint32_t)n) - n;
    for (k = 0; k < 8192; k++) dptr(DATA_ADDR)[k] = (uint8_t)rnd32();
    tu_load_prog(&L, "ld.t v3, t1, i1 @vp2\npf.t t1, i1\nst.t t1, i2, v4 @vp2\nhalt", "mem");
    tpc_core_start(&C, &L, &tu_dev, 0, 1);
    memcpy(C.ix[1], cc, sizeof(cc)); memcpy(C.ix[2], cc, sizeof(cc));
    rnd_vec(old, dt); rnd_vec(sv, dt);
    memcpy(C.v[3], old, 32); memcpy(C.v[4], sv, 32); C.vp[2] = m;
    {
      static uint8_t before[SNAP];
      memcpy(before, dptr(DATA_ADDR), SNAP);
      go();
      if (C.err) { bad++; continue; }
      for (k = 0; k < n; k++) {
        int inb = 1;
        int64_t off = 0;
        uint32_t e, got = tpc_lane_get(C.v[3], dt, k);
        for (d = 0; d < 5; d++) {
          int64_t c = cc[d] + (d == 0 ? k : 0);
          if (d < nd) { if (c < 0 || c >= T->size[d]) inb = 0; off += c * T->stride[d]; }
          else if (c) inb = 0;
        }
        if (!((m >> k) & 1u)) e = tpc_lane_get(old, dt, k);
        else if (!inb) e = pad & lm(dt);
        else { e = 0; memcpy(&e, before + (T->base - DATA_ADDR) + off * esz, (size_t)esz); }
        bad += got != e;
        if (inb && ((m >> k) & 1u)) {
          uint32_t w = 0;
          memcpy(&w, dptr(T->base) + off * esz, (size_t)esz);
          bad += w != tpc_lane_get(sv, dt, k);
          memcpy(before + (T->base - DATA_ADDR) + off * esz, dptr(T->base) + off * esz, (size_t)esz);
        }
      }
      bad += memcmp(before, dptr(DATA_ADDR), SNAP) != 0; /* nothing else written (OOB / disabled lanes dropped) */
    }
  }
  check(!bad, "ld.t/st.t: 200 random descriptors (1-5 dims, strides, all types), OOB -> pad / dropped, lane predicates");
  /* local memories and launch arguments */
  tu_launch_init(&L);
  L.sarg[0] = 0x11111111; L.sarg[15] = 0xFFFF0001;
  tu_load_prog(&L, "lds s1, s0, 0\nlds s2, s0, 60\nli s3, 992\n{ sts s3, 28, s2 ; ldv v2, s3, -32 }\nlds s4, s3, 28\nstv s3, -32, v1\nldv v5, s3, -32\nhalt", "lm");
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  for (k = 0; k < 32; k++) C.v[1][k] = (uint8_t)(k * 7);
  go();
  check(C.err == 0 && C.s[1] == 0x11111111u && C.s[2] == 0xFFFF0001u && C.s[4] == 0xFFFF0001u && !memcmp(C.v[5], C.v[1], 32) &&
        !memcmp(C.vlm + 960, C.v[1], 32), "lds/sts/ldv/stv, scalar args in SLM[0..63]");
  /* tdim */
  tu_launch_init(&L);
  L.ntensors = 1; L.tensor[0].ndims = 2; L.tensor[0].size[0] = 17; L.tensor[0].size[1] = 3; L.tensor[0].base = DATA_ADDR;
  tu_load_prog(&L, "tdim s1, t0, 0\ntdim s2, t0, 1\ntdim s3, t0, 4\nhalt", "td");
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  go();
  check(C.s[1] == 17 && C.s[2] == 3 && C.s[3] == 1, "tdim");
}

/* ------------------------------------------------------------------ errors */
static void raw_prog(const uint64_t *w, int nb)
{
  int k, s, j;
  for (k = 0; k < nb; k++)
    for (s = 0; s < 4; s++)
      for (j = 0; j < 8; j++)
        dptr(PROG_ADDR)[32 * k + 8 * s + j] = (uint8_t)(w[4 * k + s] >> (8 * j));
  tu_launch_init(&L);
  L.prog_addr = PROG_ADDR;
  L.prog_len = (uint32_t)nb;
}

static void expect_err(const char *what, const char *src, int err, uint32_t pc, void (*setup)(void))
{
  tu_launch_init(&L);
  L.ntensors = 1;
  L.tensor[0].base = DATA_ADDR; L.tensor[0].ndims = 1; L.tensor[0].size[0] = 64; L.tensor[0].stride[0] = 1;
  if (src && tu_load_prog(&L, src, what)) { check(0, "%s: assembler", what); return; }
  if (setup) setup();
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  if (!C.err) tpc_core_run(&C, 1000);
  check(C.state == TPC_ERROR && C.err == (uint32_t)err && C.err_pc == pc, "error %s: %s (got %s at pc %u)", tpc_err_name(err), what, tpc_err_name((int)C.err), C.err_pc);
}
static void set_bad_size0(void) { L.tensor[0].size[0] = 0; }
static void set_bad_big(void) { L.tensor[0].size[0] = TPC_MAX_DIM_SIZE + 1; }
static void set_bad_ndims(void) { L.tensor[0].ndims = 6; }
static void set_bad_dtype(void) { L.tensor[0].dtype = 11; }
static void set_bad_base(void) { L.tensor[0].base = DATA_ADDR + 2; }
static void set_bus(void) { L.tensor[0].base = DEV_BASE + DEV_SIZE - 16; }
static void set_idx0(void) { L.idx_size[3] = 0; }

static void test_errors(void)
{
  uint64_t w[8];
  memset(w, 0, sizeof(w));
  w[1] = 0x7F; /* unknown scalar opcode */
  raw_prog(w, 2); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
  check(C.err == TPC_ERR_ILLEGAL && C.err_pc == 0, "illegal opcode");
  memset(w, 0, sizeof(w));
  w[4 + 1] = TPC_OP_S_ADD | (1ull << 31); /* add with rc bits set (reserved) */
  raw_prog(w, 2); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
  check(C.err == TPC_ERR_ILLEGAL && C.err_pc == 1, "reserved bits set");
  memset(w, 0, sizeof(w));
  w[2] = TPC_OP_V_VEXP | ((uint64_t)TPC_DT_BF16 << TPC_F_DT_LO); /* vexp.bf16 not allowed */
  raw_prog(w, 1); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
  check(C.err == TPC_ERR_ILLEGAL, "type not allowed for the instruction");
  memset(w, 0, sizeof(w));
  w[2] = TPC_OP_V_VCMP | ((uint64_t)TPC_CC_LTU << TPC_F_FN_LO); /* vector ltu reserved */
  raw_prog(w, 1); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
  check(C.err == TPC_ERR_ILLEGAL, "reserved vector condition");
  memset(w, 0, sizeof(w)); /* two slots write s1: lds (load) and addi (scalar) */
  w[0] = TPC_OP_L_LDS | (1ull << TPC_F_RD_LO);
  w[1] = TPC_OP_S_ADDI | (1ull << TPC_F_RD_LO);
  w[5] = TPC_OP_S_HALT;
  raw_prog(w, 2); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
  check(C.err == TPC_ERR_WCONFLICT && C.err_pc == 0, "write conflict between slots");
  {
    uint64_t b2[8] = {0, TPC_OP_S_BR | (5ull << 32), 0, 0, 0, TPC_OP_S_HALT, 0, 0};
    raw_prog(b2, 2); tpc_core_start(&C, &L, &tu_dev, 0, 1); tpc_core_run(&C, 10);
    check(C.err == TPC_ERR_PC_RANGE && C.err_pc == 0, "branch target beyond program length");
  }
  expect_err("falling off the end", "nop\nnop\n", TPC_ERR_PC_RANGE, 2, NULL);
  expect_err("SLM out of range", "li s1, 1024\nlds s2, s1, 0\nhalt", TPC_ERR_SLM_RANGE, 1, NULL);
  expect_err("SLM misaligned", "lds s2, s0, 2\nhalt", TPC_ERR_MISALIGNED, 0, NULL);
  expect_err("VLM out of range", "li s1, 16384\nnop\nstv s1, 0, v1\nhalt", TPC_ERR_VLM_RANGE, 2, NULL);
  expect_err("VLM negative address", "ldv v1, s0, -32\nhalt", TPC_ERR_VLM_RANGE, 0, NULL);
  expect_err("VLM misaligned", "ldv v1, s0, 16\nhalt", TPC_ERR_MISALIGNED, 0, NULL);
  expect_err("tensor number >= ntensors", "nop\nld.t v1, t3, i0\nhalt", TPC_ERR_BAD_DESC, 1, NULL);
  expect_err("descriptor size 0", "st.t t0, i0, v1\nhalt", TPC_ERR_BAD_DESC, 0, set_bad_size0);
  expect_err("descriptor oversized dim", "ld.t v1, t0, i0\nhalt", TPC_ERR_BAD_DESC, 0, set_bad_big);
  expect_err("descriptor ndims 6", "tdim s1, t0, 0\nhalt", TPC_ERR_BAD_DESC, 0, set_bad_ndims);
  expect_err("descriptor bad dtype", "ld.t v1, t0, i0\nhalt", TPC_ERR_BAD_DESC, 0, set_bad_dtype);
  expect_err("descriptor misaligned base", "ld.t v1, t0, i0\nhalt", TPC_ERR_BAD_DESC, 0, set_bad_base);
  expect_err("device memory bus error", "ld.t v1, t0, i0\nhalt", TPC_ERR_BUS, 0, set_bus);
  {
    tu_launch_init(&L);
    tu_load_prog(&L, "li s1, -5\nixset i1, 0, s1\npf.t t7, i1\npf.t t0, i0\nhalt", "pf");
    tpc_core_start(&C, &L, &tu_dev, 0, 1);
    check(tpc_core_run(&C, 100) == 0, "pf.t never faults (no tensors, negative coordinates)");
  }
  expect_err("runaway loop (watchdog)", "x: br x", TPC_ERR_TIMEOUT, 0, NULL);
  expect_err("index space size 0", "halt", TPC_ERR_BAD_LAUNCH, 0, set_idx0);
  /* an error stops this TPC only: the next launch on the same core works */
  tu_launch_init(&L);
  tu_load_prog(&L, "li s1, 3\nhalt", "after");
  tpc_core_start(&C, &L, &tu_dev, 0, 1);
  check(tpc_core_run(&C, 100) == 0 && C.s[1] == 3, "launch after an error runs normally");
}

/* ------------------------------------------------------------------ assembler */
static void test_asm(void)
{
  static const struct { const char *src; int line; const char *msg; } bad[] = {
    {"nop\nfoo s1, s2\n", 2, "unknown instruction"},
    {"add s1, s2\n", 1, "operand"},
    {"vadd v1, v2, v3\n", 1, "type"},
    {"vexp.bf16 v1, v2\n", 1, "type"},
    {"addi s1, s1, 40000\n", 1, "16 signed"},
    {"nop\n\nbr nowhere\n", 3, "undefined"},
    {"a: nop\na: nop\n", 2, "twice"},
    {"add s1,s2,s3 ; sub s4,s5,s6\n", 1, "no free slot"},
    {"lds s1, s0, 0 ; addi s1, s1, 1\n", 1, "same register"},
    {"ld.t v40, t0, i0\n", 1, "register"},
    {"ixset i0, 5, s1\n", 1, "dimension"},
    {"vext.f32 s1, v1, 8\n", 1, "lane"},
    {"{ nop ; nop ; add s1, s1, s1 ; sub s2, s2, s2 }\n", 1, "no free slot"},
    {".equ X\n", 1, ".equ"},
    {"vadd.f32 v1, v2, v3 @p1\n", 1, "register"},
    {"add s1, s2, s3 @vp1\n", 1, "lane predicate"},
    {".bogus 3\n", 1, "directive"},
  };
  int i, it, bad_rt = 0, tried = 0;
  for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
    tpc_bundle_t *b = NULL;
    uint32_t n;
    char err[512], want[32];
    int r = tpcasm_assemble(bad[i].src, "bad.tasm", NULL, 0, &b, &n, err, sizeof(err));
    snprintf(want, sizeof(want), "bad.tasm:%d:", bad[i].line);
    check(r != 0 && !strncmp(err, want, strlen(want)) && strstr(err, bad[i].msg), "assembler rejects bad program %d: %s", i, r ? err : "(accepted!)");
    free(b);
  }
  /* random legal slot encodings: disassemble -> assemble -> identical bits */
  for (it = 0; it < 20000; it++) {
    const tpc_insn_info_t *in = &tpc_insn_info[rndn(TPC_NINSN)];
    int s, ok = 0;
    uint64_t w;
    tpc_bundle_t bb, *out = NULL;
    char text[1024], err[512];
    uint32_t n;
    do s = (int)rndn(4); while (!((in->slots >> s) & 1u));
    w = (rnd64() & in->used & ~0xFFull) | in->opcode;
    if (tpc_slot_legal(s, w)) continue;
    if (in->fmt_l && in->ops[in->nops - 1] == TPC_OPK_TGT) w &= 0xFFFFFFFFull; /* target 0: inside the program */
    tried++;
    memset(&bb, 0, sizeof(bb));
    bb.w[s] = w;
    tpcdis_bundle(&bb, text, sizeof(text));
    if (!tpcasm_assemble(text, "rt", NULL, 0, &out, &n, err, sizeof(err)) && n == 1 && !memcmp(out, &bb, sizeof(bb)))
      ok = 1;
    if (!ok && bad_rt++ < 3)
      printf("  round trip failed: %s (%s)\n", text, err);
    free(out);
  }
  check(!bad_rt && tried > 5000, "disassemble/assemble round trip of %d random legal slots", tried);
  /* mutation fuzz: corrupted programs must be rejected with a file:line message or
   * assemble, never crash (run under ASan/UBSan during development) */
  {
    static const char base[] = "x: { ld.t v1, t0, i0 ; (p1) addi s2, s2, -1 ; vcvt.bf16.f32.p1.sat v3, v1 @!vp2 }\n"
                               ".equ K, 3*4\n{ st.t t2, i0, v3 ; ixaddi i0, 0, K ; bnzd s5, x }\nli s1, f32(2.5)\nhalt\n";
    static const char alpha[] = " ,;{}()@!.:#-+*xvspitf0123456789";
    int rejected = 0, malformed = 0, ok2 = 0;
    for (it = 0; it < 3000; it++) {
      char src[sizeof(base) + 8], err[512];
      tpc_bundle_t *out = NULL;
      uint32_t n;
      int m, j;
      memcpy(src, base, sizeof(base));
      for (m = 0; m < 1 + (int)rndn(4); m++) {
        j = (int)rndn((uint32_t)sizeof(base) - 1);
        src[j] = alpha[rndn((uint32_t)sizeof(alpha) - 1)];
      }
      if (tpcasm_assemble(src, "fz", NULL, 0, &out, &n, err, sizeof(err))) {
        rejected++;
        if (strncmp(err, "fz:", 3)) malformed++;
      } else {
        ok2++;
      }
      free(out);
    }
    check(!malformed && rejected > 1000, "assembler mutation fuzz: %d rejected with file:line, %d still valid, %d bad messages", rejected, ok2, malformed);
  }
}

int main(int argc, char **argv)
{
  uint64_t seed = tu_seed(argc, argv);
  tu_mem_init();
  printf("tpc_isa: TPC per-instruction tests on the C ISA MODEL (not RTL), seed %llu (reproduce with --seed %llu)\n",
         (unsigned long long)seed, (unsigned long long)seed);
  TU_CASE("arith", test_arith());
  TU_CASE("unary_cmp_sel", test_unary_cmp_sel());
  TU_CASE("bitwise", test_bitwise());
  TU_CASE("cvt", test_cvt());
  TU_CASE("reduce_shuffle", test_reduce_shuffle());
  TU_CASE("sfu", test_sfu());
  TU_CASE("rng", test_rng());
  TU_CASE("lanepred_property", test_lanepred_property());
  TU_CASE("scalar", test_scalar());
  TU_CASE("memory", test_memory());
  TU_CASE("errors", test_errors());
  TU_CASE("asm", test_asm());
  printf("tpc_isa: %d passed, %d failed (%d checks)\n", tu_cases_pass, tu_cases_fail, tu_pass + tu_fail);
  return tu_fail ? 1 : 0;
}
