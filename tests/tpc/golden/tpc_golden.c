/* Golden models of the TPC kernels (see tpc_golden.h). Built with -ffp-contract=off. */
#include "tpc_golden.h"
#include "../../golden/numfmt.h"
#include <math.h>
#include <string.h>

float tg_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
uint32_t tg_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint32_t canon(float f) { return f != f ? 0x7FC00000u : tg_bits(f); }

uint32_t tg_add(uint32_t a, uint32_t b) { return canon(tg_f32(a) + tg_f32(b)); }
uint32_t tg_mul(uint32_t a, uint32_t b) { return canon(tg_f32(a) * tg_f32(b)); }
uint32_t tg_relu(uint32_t a)
{
  float x = tg_f32(a);
  if (x != x) return 0x7FC00000u;
  return x > 0 ? a : 0u;
}
uint16_t tg_add_bf16(uint16_t a, uint16_t b)
{
  float s = tg_f32((uint32_t)a << 16) + tg_f32((uint32_t)b << 16);
  return (uint16_t)nf_convert(NF_FP32, NF_BF16, canon(s), 0, 0);
}
void tg_bias_add(const uint32_t *x, const uint32_t *bias, uint32_t *out, int H, int W)
{
  int r, c;
  for (r = 0; r < H; r++)
    for (c = 0; c < W; c++)
      out[r * W + c] = tg_add(x[r * W + c], bias[c]);
}

uint32_t tg_cast(int from, int to, uint32_t bits, int sat) { return nf_convert((nf_fmt)from, (nf_fmt)to, bits, 0, sat); }

static float fmaxr(float a, float b) /* kernel vmax rule */
{
  if (a != a || b != b) return tg_f32(0x7FC00000u);
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

static void reduce(const uint32_t *x, int H, int W, uint32_t *out, int is_max)
{
  int r, c, k, s;
  for (r = 0; r < H; r++) {
    float acc[8];
    for (k = 0; k < 8; k++) acc[k] = is_max ? -INFINITY : 0.0f;
    for (c = 0; c < W; c += 8)
      for (k = 0; k < 8; k++) {
        float v = c + k < W ? tg_f32(x[r * W + c + k]) : (is_max ? -INFINITY : 0.0f);
        acc[k] = is_max ? fmaxr(acc[k], v) : acc[k] + v;
      }
    for (s = 4; s >= 1; s /= 2)
      for (k = 0; k < s; k++)
        acc[k] = is_max ? fmaxr(acc[k], acc[k + s]) : acc[k] + acc[k + s];
    out[r] = canon(acc[0]);
  }
}
void tg_reduce_sum(const uint32_t *x, int H, int W, uint32_t *out) { reduce(x, H, W, out, 0); }
void tg_reduce_max(const uint32_t *x, int H, int W, uint32_t *out) { reduce(x, H, W, out, 1); }

void tg_softmax(const float *x, int H, int W, double *out)
{
  int r, c;
  for (r = 0; r < H; r++) {
    double m = -INFINITY, s = 0;
    for (c = 0; c < W; c++) m = x[r * W + c] > m ? x[r * W + c] : m;
    for (c = 0; c < W; c++) s += exp((double)x[r * W + c] - m);
    for (c = 0; c < W; c++) out[r * W + c] = exp((double)x[r * W + c] - m) / s;
  }
}

void tg_layernorm(const float *x, const float *gamma, const float *beta, float eps, int H, int W, double *out)
{
  int r, c;
  for (r = 0; r < H; r++) {
    double m = 0, v = 0, inv;
    for (c = 0; c < W; c++) m += x[r * W + c];
    m /= W;
    for (c = 0; c < W; c++) v += (x[r * W + c] - m) * (x[r * W + c] - m);
    v /= W;
    inv = 1.0 / sqrt(v + eps);
    for (c = 0; c < W; c++) out[r * W + c] = (x[r * W + c] - m) * inv * gamma[c] + beta[c];
  }
}

void tg_rmsnorm(const float *x, const float *gamma, float eps, int H, int W, double *out)
{
  int r, c;
  for (r = 0; r < H; r++) {
    double s = 0, inv;
    for (c = 0; c < W; c++) s += (double)x[r * W + c] * x[r * W + c];
    inv = 1.0 / sqrt(s / W + eps);
    for (c = 0; c < W; c++) out[r * W + c] = x[r * W + c] * inv * gamma[c];
  }
}

double tg_gelu(double x) { return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

static uint32_t mix(uint32_t x)
{
  x += 0x9E3779B9u;
  x = (x ^ (x >> 16)) * 0x85EBCA6Bu;
  x = (x ^ (x >> 13)) * 0xC2B2AE35u;
  x ^= x >> 16;
  return x ? x : 0x6D2B79F5u;
}
void tg_dropout(const uint32_t *x, int H, int W, uint32_t seed, uint32_t thr, uint32_t scale_bits, uint32_t *out)
{
  int r, c;
  for (r = 0; r < H; r++)
    for (c = 0; c < W; c++) {
      uint32_t u = mix(seed + (uint32_t)(r * W + c));
      u ^= u << 13;
      u ^= u >> 17;
      u ^= u << 5;
      out[r * W + c] = u >= thr ? tg_mul(x[r * W + c], scale_bits) : 0u;
    }
}

void tg_transpose(const uint32_t *x, int H, int W, uint32_t *out)
{
  int r, c;
  for (r = 0; r < H; r++)
    for (c = 0; c < W; c++)
      out[c * H + r] = x[r * W + c];
}
