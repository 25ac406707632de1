/* TPC special-function unit: the exact FP32 algorithms the hardware implements.
 * Every step is one IEEE binary32 operation with round-to-nearest-even (fmaf is a
 * fused multiply-add with one rounding; frexpf/ldexpf/rintf are exact except
 * ldexpf's single rounding of a subnormal result). Build with -ffp-contract=off.
 * Tables are computed once from exact IEEE double arithmetic (division, sqrt; both
 * correctly rounded) except the log table, which is fixed below; tpc_sfu_table()
 * exports them for the RTL's ROMs. docs/tpc_isa.md lists the algorithms and the
 * measured ULP bounds. */
#include "tpc_fp.h"
#include <math.h>

#define QNAN tpc_f32(0x7FC00000u)
#define LN2_HI 0.693145751953125f        /* 0x3F317200, 16 significant bits */
#define LN2_LO 1.42860682030941723e-6f   /* ln2 - LN2_HI */
#define LOG2E 1.44269502162933349609375f /* 0x3FB8AA3B */

static float rcp_t[64];   /* 1 / (1 + (j + 0.5) / 64) */
static float rsq_t[48];   /* 1 / sqrt(1 + (j + 0.5) / 16), m in [1, 4) */
static float log_inv[25]; /* 1 / (1 + j/32), j = -8..16 */
static float log_t[25];   /* -ln(log_inv[j]), from log_t_bits */
static int tables_ok;

/* -ln(float(1/(1 + j/32))) rounded to FP32, j = -8..16: fixed here (not recomputed with the
 * host's libm) so the model and the RTL ROM are identical on every host. */
static const uint32_t log_t_bits[25] = {
  0xBE934B12u, 0xBE7CC8E2u, 0xBE549F6Cu, 0xBE2DFA04u, 0xBE08BC77u, 0xBDC99AF2u, 0xBD842CCDu,
  0xBD020AE4u, 0x80000000u, 0x3CFC14C8u, 0x3D785185u, 0x3DB78694u, 0x3DF1383Au, 0x3E14AA96u,
  0x3E2FF983u, 0x3E4A92D4u, 0x3E647FBDu, 0x3E7DC8C6u, 0x3E8B3AE5u, 0x3E974716u, 0x3EA30C5Du,
  0x3EAE8DEDu, 0x3EB9CEBFu, 0x3EC4D19Du, 0x3ECF991Eu};

static void tables(void)
{
  int j;
  if (tables_ok)
    return;
  for (j = 0; j < 64; j++)
    rcp_t[j] = (float)(1.0 / (1.0 + (j + 0.5) / 64.0));
  for (j = 0; j < 48; j++)
    rsq_t[j] = (float)(1.0 / sqrt(1.0 + (j + 0.5) / 16.0));
  for (j = -8; j <= 16; j++) {
    log_inv[j + 8] = (float)(1.0 / (1.0 + j / 32.0));
    log_t[j + 8] = tpc_f32(log_t_bits[j + 8]);
  }
  tables_ok = 1;
}

/* e^r - 1 = r + r^2 * p(r) for |r| <= ln2/2 (Taylor coefficients 1/k!). */
static float expm1_poly(float r)
{
  float p = 1.98412698e-4f;   /* 1/5040 */
  p = fmaf(p, r, 1.38888889e-3f); /* 1/720 */
  p = fmaf(p, r, 8.33333333e-3f); /* 1/120 */
  p = fmaf(p, r, 4.16666667e-2f); /* 1/24 */
  p = fmaf(p, r, 1.66666667e-1f); /* 1/6 */
  p = fmaf(p, r, 0.5f);
  return fmaf(p * r, r, r);
}

/* argument reduction x = n ln2 + r */
static float reduce(float x, float *n)
{
  float r;
  *n = rintf(x * LOG2E);
  r = fmaf(-*n, LN2_HI, x);
  return fmaf(-*n, LN2_LO, r);
}

float tpc_sfu_exp(float x)
{
  float n, r;
  if (isnan(x))
    return QNAN;
  if (x > 89.0f)
    return INFINITY;
  if (x < -104.0f)
    return 0.0f;
  r = reduce(x, &n);
  return ldexpf(1.0f + expm1_poly(r), (int)n);
}

float tpc_sfu_log(float x)
{
  int e, j;
  float m, r, q, pl, fe, hi, lo;
  tables();
  if (isnan(x) || x < 0.0f)
    return QNAN;
  if (x == 0.0f)
    return -INFINITY;
  if (isinf(x))
    return INFINITY;
  m = frexpf(x, &e) * 2.0f;
  e -= 1;
  if (m >= 1.5f) {
    m *= 0.5f;
    e += 1;
  }
  j = (int)rintf((m - 1.0f) * 32.0f); /* -8 .. 16 */
  r = fmaf(m, log_inv[j + 8], -1.0f);
  q = fmaf(-1.66666672e-1f, r, 0.2f);
  q = fmaf(q, r, -0.25f);
  q = fmaf(q, r, 3.33333343e-1f);
  q = fmaf(q, r, -0.5f);
  pl = fmaf(q * r, r, r);
  fe = (float)e;
  hi = fmaf(fe, LN2_HI, log_t[j + 8]);
  lo = fmaf(fe, LN2_LO, pl);
  return hi + lo;
}

static float rcp_core(float m) /* m in [1, 2) */
{
  float y = rcp_t[(int)((m - 1.0f) * 64.0f)], t;
  t = fmaf(-m, y, 1.0f);
  y = fmaf(y, t, y);
  t = fmaf(-m, y, 1.0f);
  return fmaf(y, t, y);
}

float tpc_sfu_rcp(float x)
{
  int e;
  float m;
  tables();
  if (isnan(x))
    return QNAN;
  if (x == 0.0f)
    return copysignf(INFINITY, x);
  if (isinf(x))
    return copysignf(0.0f, x);
  m = frexpf(fabsf(x), &e) * 2.0f;
  e -= 1;
  return copysignf(ldexpf(rcp_core(m), -e), x);
}

static float rsq_core(float m) /* m in [1, 4) */
{
  float y = rsq_t[(int)((m - 1.0f) * 16.0f)], d;
  int i;
  for (i = 0; i < 3; i++) {
    d = fmaf(-m, y * y, 1.0f);
    y = fmaf(0.5f * y, d, y);
  }
  return y;
}

static float split4(float x, int *e) /* x > 0 finite: x = m * 2^e, m in [1,4), e even */
{
  float m = frexpf(x, e) * 2.0f;
  *e -= 1;
  if (*e & 1) {
    m *= 2.0f;
    *e -= 1;
  }
  return m;
}

float tpc_sfu_rsqrt(float x)
{
  int e;
  float m;
  tables();
  if (isnan(x) || x < 0.0f)
    return QNAN;
  if (x == 0.0f)
    return copysignf(INFINITY, x);
  if (isinf(x))
    return 0.0f;
  m = split4(x, &e);
  return ldexpf(rsq_core(m), -e / 2);
}

float tpc_sfu_sqrt(float x)
{
  int e;
  float m, y, s, d;
  tables();
  if (isnan(x) || x < 0.0f)
    return QNAN;
  if (x == 0.0f || isinf(x))
    return x;
  m = split4(x, &e);
  y = rsq_core(m);
  s = m * y;
  d = fmaf(-s, s, m);
  s = fmaf(d, 0.5f * y, s);
  return ldexpf(s, e / 2);
}

float tpc_sfu_tanh(float x)
{
  float a, n, r, q, u, p2;
  tables();
  if (isnan(x))
    return QNAN;
  a = fabsf(x);
  if (a >= 10.0f)
    return copysignf(1.0f, x);
  if (a < 2.44140625e-4f) /* 2^-12 */
    return x;
  r = reduce(2.0f * a, &n);
  q = expm1_poly(r);
  if (n == 0.0f) {
    u = q;
  } else {
    p2 = ldexpf(1.0f, (int)n);
    u = fmaf(p2, q, p2 - 1.0f);
  }
  return copysignf(u * tpc_sfu_rcp(u + 2.0f), x);
}

float tpc_sfu_sigm(float x)
{
  float e;
  if (isnan(x))
    return QNAN;
  if (x >= 0.0f)
    return tpc_sfu_rcp(1.0f + tpc_sfu_exp(-x));
  e = tpc_sfu_exp(x);
  return e * tpc_sfu_rcp(1.0f + e);
}

const float *tpc_sfu_table(int id, int *n)
{
  tables();
  switch (id) {
  case TPC_SFU_TAB_RCP:     *n = 64; return rcp_t;
  case TPC_SFU_TAB_RSQRT:   *n = 48; return rsq_t;
  case TPC_SFU_TAB_LOG_INV: *n = 25; return log_inv;
  default:                  *n = 25; return log_t;
  }
}
