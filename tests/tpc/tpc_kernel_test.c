/* TPC kernel-library tests on the C ISA MODEL (not RTL): every kernel in kernels/tpc/
 * is assembled, launched on 1, 2 and 4 model TPCs over random shapes (widths that are
 * not multiples of the vector width, heights of 1 so that dim 0 gets split, row
 * pitches wider than the row) and compared with its golden model (tests/tpc/golden):
 * bit-exact for elementwise ops, casts, reductions, dropout and transpose; within the
 * documented bound for softmax, LayerNorm, RMSNorm and GELU. Outputs of the 1/2/4-TPC
 * runs must be identical, and no byte outside an output tensor may change (out-of-bounds
 * lanes dropped). Usage: tpc_kernel_test [--seed N] [--kdir DIR] [-v]
 * Last line: "tpc_kernels: N passed, M failed". */
#include "tpc_test_util.h"
#include "golden/tpc_golden.h"
#include "../framework/bench_rec.h"

#define MAXBUNDLES 50000000ull
static const char *kdir = "kernels/tpc";
static tpc_launch_t L;

typedef struct {
  int dt, W, H, pitch, oned;
  uint32_t addr, bytes, pad;
} tens_t;

static uint32_t bump;
static void talloc(tens_t *t, int dt, int W, int H, int pitch, int oned, uint32_t pad)
{
  int esz = tpc_dtype_info[dt].bytes;
  t->dt = dt; t->W = W; t->H = H; t->pitch = pitch; t->oned = oned; t->pad = pad;
  bump = (bump + 63u) & ~63u;
  t->addr = bump + 32u * rndn(2) + (uint32_t)esz * rndn(4); /* vary alignment */
  t->bytes = (uint32_t)(pitch * H * esz);
  bump = t->addr + t->bytes + 64;
}
static void tdesc(tpc_tensor_t *d, const tens_t *t)
{
  memset(d, 0, sizeof(*d));
  d->base = t->addr; d->dtype = (uint32_t)t->dt; d->ndims = t->oned ? 1 : 2; d->pad = t->pad;
  d->size[0] = (uint32_t)t->W; d->size[1] = (uint32_t)t->H;
  d->stride[0] = 1; d->stride[1] = t->pitch;
}
static void twrite(const tens_t *t, const uint32_t *v)
{
  int r, c, e = tpc_dtype_info[t->dt].bytes;
  for (r = 0; r < t->H; r++)
    for (c = 0; c < t->W; c++)
      memcpy(dptr(t->addr + (uint32_t)((r * t->pitch + c) * e)), &v[r * t->W + c], (size_t)e);
}
static void tread(const tens_t *t, uint32_t *v)
{
  int r, c, e = tpc_dtype_info[t->dt].bytes;
  for (r = 0; r < t->H; r++)
    for (c = 0; c < t->W; c++) {
      v[r * t->W + c] = 0;
      memcpy(&v[r * t->W + c], dptr(t->addr + (uint32_t)((r * t->pitch + c) * e)), (size_t)e);
    }
}
static void tcanary(const tens_t *t) { memset(dptr(t->addr - 16), 0xA5, t->bytes + 16 + 64); }
static int tcanary_ok(const tens_t *t)
{
  int r, e = tpc_dtype_info[t->dt].bytes;
  uint32_t i;
  for (i = 0; i < 16; i++) if (dptr(t->addr - 16)[i] != 0xA5) return 0;
  for (i = 0; i < 64; i++) if (dptr(t->addr + t->bytes)[i] != 0xA5) return 0;
  for (r = 0; r < t->H; r++)
    for (i = (uint32_t)(t->W * e); i < (uint32_t)(t->pitch * e); i++)
      if (dptr(t->addr + (uint32_t)(r * t->pitch * e))[i] != 0xA5) return 0;
  return 1;
}

/* run the kernel on 1, 2, 4 TPCs; outputs of the 1-TPC run land in res[k] (dense) */
static tpc_stats_t last_st;
static int run_splits(const char *name, tens_t **outs, int nout, uint32_t **res)
{
  static const uint32_t splits[3] = {1, 2, 4};
  char path[512];
  int i, k, ok = 1;
  snprintf(path, sizeof(path), "%s/%s.tasm", kdir, name);
  if (tu_load_file(&L, path, PROG_ADDR))
    return 0;
  for (i = 0; i < 3; i++) {
    uint32_t et = 0, epc = 0;
    int err;
    tpc_stats_t st;
    for (k = 0; k < nout; k++) tcanary(outs[k]);
    err = tpc_run_cluster(&L, &tu_dev, splits[i], MAXBUNDLES, &st, &et, &epc);
    if (err) {
      printf("  %s: TPC %u of %u stopped with %s at pc %u\n", name, et, splits[i], tpc_err_name(err), epc);
      return 0;
    }
    if (i == 0) last_st = st;
    for (k = 0; k < nout; k++) {
      size_t n = (size_t)outs[k]->W * (size_t)outs[k]->H;
      uint32_t *tmp = malloc(n * 4);
      tread(outs[k], tmp);
      if (!tcanary_ok(outs[k])) {
        printf("  %s: bytes outside output %d changed (split %u)\n", name, k, splits[i]);
        ok = 0;
      }
      if (i == 0) memcpy(res[k], tmp, n * 4);
      else if (memcmp(res[k], tmp, n * 4)) {
        printf("  %s: output %d differs between 1 and %u TPCs\n", name, k, splits[i]);
        ok = 0;
      }
      free(tmp);
    }
  }
  return ok;
}

static void new_launch(void)
{
  tu_launch_init(&L);
  bump = DATA_ADDR;
  L.rng_seed = rnd32();
}

static uint32_t rnd_f32(int specials)
{
  static const uint32_t sp[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
                                0x7F800000, 0xFF800000, 0x7FC00000, 0x43E00000, 0x43E80000, 0x477FF000};
  if (specials && rndn(8) == 0) return sp[rndn(12)];
  return bitsof((float)((int32_t)rnd32() >> 8) / (float)(1u << rndn(24)) * (rndn(4) ? 1.0f : 1e-3f));
}

static void shape(int *W, int *H, int lanes)
{
  static const int ws[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 77, 100};
  *W = rndn(3) ? ws[rndn(15)] : 1 + (int)rndn(130);
  *H = rndn(4) == 0 ? 1 : 1 + (int)rndn(9);
  (void)lanes;
}

/* ------------------------------------------------------------------ elementwise & casts */
typedef enum { EW_ADD, EW_MUL, EW_RELU, EW_BF16ADD, EW_BIAS, EW_DROPOUT, EW_ADDSTREAM } ew_t;

static void test_elementwise(const char *name, ew_t kind, int shapes)
{
  int it;
  for (it = 0; it < shapes; it++) {
    int W, H, i, n, lanes = kind == EW_BF16ADD ? 16 : 8, ok, bad = 0;
    tens_t a, b, o;
    tens_t *outs[1] = {&o};
    uint32_t *va, *vb, *vo, *g, seed = rnd32(), thr = rnd32(), scale = 0;
    shape(&W, &H, lanes);
    n = W * H;
    new_launch();
    int dt = kind == EW_BF16ADD ? TPC_DT_BF16 : TPC_DT_F32;
    talloc(&a, dt, W, H, W + (int)rndn(5), 0, 0);
    talloc(&b, dt, W, kind == EW_BIAS ? 1 : H, W + (int)rndn(3), kind == EW_BIAS, 0);
    talloc(&o, dt, W, H, W + (int)rndn(5), 0, 0);
    va = malloc((size_t)n * 4); vb = malloc((size_t)n * 4); vo = malloc((size_t)n * 4); g = malloc((size_t)n * 4);
    for (i = 0; i < n; i++) {
      va[i] = dt == TPC_DT_BF16 ? rnd32() & 0xFFFF : rnd_f32(1);
      vb[i] = dt == TPC_DT_BF16 ? rnd32() & 0xFFFF : rnd_f32(1);
    }
    twrite(&a, va);
    twrite(&b, vb);
    L.ntensors = 3;
    tdesc(&L.tensor[0], &a);
    tdesc(&L.tensor[1], &b);
    tdesc(&L.tensor[kind == EW_DROPOUT ? 1 : 2], &o);
    if (kind == EW_DROPOUT) {
      float p = (float)rndn(90) / 100.0f;
      thr = (uint32_t)((double)p * 4294967296.0);
      scale = bitsof(1.0f / (1.0f - p));
      L.sarg[0] = seed; L.sarg[1] = thr; L.sarg[2] = scale;
      L.ntensors = 2;
    }
    L.idx_size[0] = kind == EW_ADDSTREAM ? 1u : (uint32_t)((W + lanes - 1) / lanes);
    L.idx_size[1] = (uint32_t)H;
    ok = run_splits(name, outs, 1, &vo);
    for (i = 0; i < n; i++) {
      switch (kind) {
      case EW_ADD: case EW_ADDSTREAM: g[i] = tg_add(va[i], vb[i]); break;
      case EW_MUL: g[i] = tg_mul(va[i], vb[i]); break;
      case EW_RELU: g[i] = tg_relu(va[i]); break;
      case EW_BF16ADD: g[i] = tg_add_bf16((uint16_t)va[i], (uint16_t)vb[i]); break;
      case EW_BIAS: g[i] = tg_add(va[i], vb[i % W]); break;
      default: break;
      }
    }
    if (kind == EW_DROPOUT) {
      int kept = 0;
      tg_dropout(va, H, W, seed, thr, scale, g);
      for (i = 0; i < n; i++) kept += vo[i] != 0;
      (void)kept;
    }
    for (i = 0; i < n && ok; i++)
      if (vo[i] != g[i]) {
        if (!bad) printf("  %s %dx%d: element (%d,%d) got %08x want %08x\n", name, H, W, i / W, i % W, vo[i], g[i]);
        bad++;
      }
    check(ok && !bad, "%s [%d x %d] bit-exact vs golden, 1/2/4 TPCs identical, %llu bundles, %llu est. cycles",
          name, H, W, (unsigned long long)last_st.bundles, (unsigned long long)last_st.cycles);
    free(va); free(vb); free(vo); free(g);
  }
}

static void test_cast(const char *name, int from, int to, int sat, int shapes)
{
  int it;
  int lanes = tpc_dtype_info[from].lanes > tpc_dtype_info[to].lanes ? tpc_dtype_info[from].lanes : tpc_dtype_info[to].lanes;
  for (it = 0; it < shapes; it++) {
    int W, H, i, n, ok, bad = 0;
    tens_t a, o;
    tens_t *outs[1] = {&o};
    uint32_t *va, *vo;
    shape(&W, &H, lanes);
    n = W * H;
    new_launch();
    talloc(&a, from, W, H, W + (int)rndn(5), 0, 0);
    talloc(&o, to, W, H, W + (int)rndn(5), 0, 0);
    va = malloc((size_t)n * 4); vo = malloc((size_t)n * 4);
    for (i = 0; i < n; i++) {
      if (from == TPC_DT_F32) {
        va[i] = rnd_f32(1);
        if (rndn(3) == 0) va[i] = bitsof(f32of(va[i]) * 1e-3f); /* FP8 subnormal range */
        if (rndn(8) == 0) va[i] = bitsof((float)(rndn(1000)) - 500.0f); /* around E4M3 max 448 */
        if (rndn(8) == 0) va[i] = bitsof((float)(rndn(130000)) - 65000.0f); /* around E5M2 max 57344 */
      } else {
        va[i] = rnd32() & (from == TPC_DT_BF16 ? 0xFFFFu : 0xFFu);
        if (from == TPC_DT_BF16 && rndn(2)) /* mostly FP8-range values: exercise RNE and subnormals */
          va[i] = (bitsof((float)((int32_t)rnd32() >> 16) / (float)(1u << rndn(24))) >> 16) & 0xFFFFu;
      }
    }
    twrite(&a, va);
    L.ntensors = 2;
    tdesc(&L.tensor[0], &a);
    tdesc(&L.tensor[1], &o);
    L.idx_size[0] = (uint32_t)((W + lanes - 1) / lanes);
    L.idx_size[1] = (uint32_t)H;
    ok = run_splits(name, outs, 1, &vo);
    for (i = 0; i < n && ok; i++) {
      uint32_t g = tg_cast(from, to, va[i], sat);
      if (vo[i] != g) {
        if (!bad) printf("  %s: in %08x got %08x want %08x\n", name, va[i], vo[i], g);
        bad++;
      }
    }
    check(ok && !bad, "%s [%d x %d] bit-exact vs numfmt, 1/2/4 TPCs identical", name, H, W);
    free(va); free(vo);
  }
}

/* ------------------------------------------------------------------ rows */
static void test_reduce(const char *name, int is_max, int shapes)
{
  int it;
  for (it = 0; it < shapes; it++) {
    int W, H, i, ok, bad = 0;
    tens_t a, o;
    tens_t *outs[1] = {&o};
    uint32_t *va, *vo, *g;
    shape(&W, &H, 8);
    new_launch();
    talloc(&a, TPC_DT_F32, W, H, W + (int)rndn(5), 0, is_max ? 0xFF800000u : 0u);
    talloc(&o, TPC_DT_F32, H, 1, H, 1, 0);
    va = malloc((size_t)(W * H) * 4); vo = malloc((size_t)H * 4); g = malloc((size_t)H * 4);
    for (i = 0; i < W * H; i++) va[i] = rnd_f32(rndn(4) == 0);
    twrite(&a, va);
    L.ntensors = 2;
    tdesc(&L.tensor[0], &a);
    tdesc(&L.tensor[1], &o);
    L.idx_size[1] = (uint32_t)H;
    ok = run_splits(name, outs, 1, &vo);
    (is_max ? tg_reduce_max : tg_reduce_sum)(va, H, W, g);
    for (i = 0; i < H && ok; i++)
      if (vo[i] != g[i]) {
        if (!bad) printf("  %s: row %d got %08x want %08x\n", name, i, vo[i], g[i]);
        bad++;
      }
    check(ok && !bad, "%s [%d x %d] bit-exact vs golden order, 1/2/4 TPCs identical", name, H, W);
    free(va); free(vo); free(g);
  }
}

typedef enum { RK_SOFTMAX, RK_LAYERNORM, RK_RMSNORM, RK_ADDLN, RK_GELU } rk_t;

/* error measure for the approximate kernels: |got - ref| / (|ref| + floor) */
static double worst_rel[5];
static void test_rowk(const char *name, rk_t kind, int shapes, double bound, double floor)
{
  int it;
  for (it = 0; it < shapes; it++) {
    int W, H, i, ok, n, nout = kind == RK_ADDLN ? 2 : 1;
    tens_t x, r, gm, bt, o, h;
    tens_t *outs[2];
    uint32_t *vx, *vr, *vg, *vb, *vo, *vh, *res[2];
    float *fx, *fg, *fb, eps = rndn(2) ? 1e-5f : 1e-2f;
    double *ref, worst = 0;
    shape(&W, &H, 8);
    if (kind == RK_GELU) W += 1;
    n = W * H;
    new_launch();
    vx = malloc((size_t)n * 4); vr = malloc((size_t)n * 4); vg = malloc((size_t)W * 4); vb = malloc((size_t)W * 4);
    vo = malloc((size_t)n * 4); vh = malloc((size_t)n * 4); fx = malloc((size_t)n * 4); fg = malloc((size_t)W * 4);
    fb = malloc((size_t)W * 4); ref = malloc((size_t)n * 8);
    {
      float off = (float)((int)rndn(9) - 4), sc = kind == RK_SOFTMAX ? 4.0f : 2.0f;
      for (i = 0; i < n; i++) {
        vx[i] = bitsof(off + sc * ((float)(rnd32() >> 8) / 8388608.0f - 1.0f));
        vr[i] = bitsof((float)(rnd32() >> 8) / 8388608.0f - 1.0f);
        if (kind == RK_GELU) vx[i] = bitsof(8.0f * ((float)(rnd32() >> 8) / 8388608.0f - 1.0f));
      }
      for (i = 0; i < W; i++) {
        vg[i] = bitsof(0.5f + (float)(rnd32() >> 8) / 16777216.0f);
        vb[i] = bitsof((float)(rnd32() >> 8) / 16777216.0f - 0.5f);
      }
    }
    talloc(&x, TPC_DT_F32, W, H, W + (int)rndn(5), 0, kind == RK_SOFTMAX ? 0xFF800000u : 0u);
    talloc(&r, TPC_DT_F32, W, H, W + (int)rndn(5), 0, 0);
    talloc(&gm, TPC_DT_F32, W, 1, W, 1, 0);
    talloc(&bt, TPC_DT_F32, W, 1, W, 1, 0);
    talloc(&o, TPC_DT_F32, W, H, W + (int)rndn(5), 0, 0);
    talloc(&h, TPC_DT_F32, W, H, W + (int)rndn(5), 0, 0);
    twrite(&x, vx); twrite(&r, vr); twrite(&gm, vg); twrite(&bt, vb);
    L.sarg[0] = bitsof(eps);
    L.idx_size[1] = (uint32_t)H;
    switch (kind) {
    case RK_SOFTMAX:
      L.ntensors = 2; tdesc(&L.tensor[0], &x); tdesc(&L.tensor[1], &o);
      break;
    case RK_LAYERNORM:
      L.ntensors = 4; tdesc(&L.tensor[0], &x); tdesc(&L.tensor[1], &gm); tdesc(&L.tensor[2], &bt); tdesc(&L.tensor[3], &o);
      break;
    case RK_RMSNORM:
      L.ntensors = 3; tdesc(&L.tensor[0], &x); tdesc(&L.tensor[1], &gm); tdesc(&L.tensor[2], &o);
      break;
    case RK_ADDLN:
      L.ntensors = 6; tdesc(&L.tensor[0], &x); tdesc(&L.tensor[1], &r); tdesc(&L.tensor[2], &gm);
      tdesc(&L.tensor[3], &bt); tdesc(&L.tensor[4], &h); tdesc(&L.tensor[5], &o);
      break;
    default: /* gelu: elementwise index space */
      L.ntensors = 3; tdesc(&L.tensor[0], &x); tdesc(&L.tensor[1], &r); tdesc(&L.tensor[2], &o);
      L.idx_size[0] = (uint32_t)((W + 7) / 8);
      break;
    }
    outs[0] = &o; outs[1] = &h; res[0] = vo; res[1] = vh;
    ok = run_splits(name, outs, nout, res);
    for (i = 0; i < n; i++) fx[i] = f32of(vx[i]);
    for (i = 0; i < W; i++) { fg[i] = f32of(vg[i]); fb[i] = f32of(vb[i]); }
    if (kind == RK_ADDLN) { /* h is bit-exact: one FP32 add */
      int hb = 0;
      for (i = 0; i < n; i++) { hb += vh[i] != tg_add(vx[i], vr[i]); fx[i] = f32of(tg_add(vx[i], vr[i])); }
      check(ok && !hb, "%s [%d x %d] residual output h = x + r bit-exact", name, H, W);
    }
    switch (kind) {
    case RK_SOFTMAX: tg_softmax(fx, H, W, ref); break;
    case RK_LAYERNORM: case RK_ADDLN: tg_layernorm(fx, fg, fb, eps, H, W, ref); break;
    case RK_RMSNORM: tg_rmsnorm(fx, fg, eps, H, W, ref); break;
    default: for (i = 0; i < n; i++) ref[i] = tg_gelu(fx[i]); break;
    }
    for (i = 0; i < n; i++) {
      double d = fabs((double)f32of(vo[i]) - ref[i]), e;
      if (kind == RK_LAYERNORM || kind == RK_ADDLN) {
        /* x - mean in FP32: the row mean is an FP32 value, a few ulps (2^-24 |mean|
         * each) from the exact one; near-constant rows (var ~ eps) amplify that by
         * gamma / sqrt(var + eps). This conditioning term (4 ulps of the mean) is
         * allowed on top of the relative bound (docs/tpc.md, kernel table). */
        int row = i / W, j, c = i % W;
        double m = 0, v = 0;
        for (j = 0; j < W; j++) m += fx[row * W + j];
        m /= W;
        for (j = 0; j < W; j++) { double t = fx[row * W + j] - m; v += t * t; }
        v /= W;
        d -= 4.0 * ldexp(1.0, -24) * fabs(m) * fg[c] / sqrt(v + eps);
      }
      e = d != d ? d : (d > 0 ? d / (fabs(ref[i]) + floor) : 0.0);
      if (!(e <= worst)) worst = e; /* NaN -> worst = NaN -> fails */
    }
    if (!(worst <= worst_rel[kind])) worst_rel[kind] = worst;
    check(ok && worst <= bound, "%s [%d x %d] max |err|/(|ref|+%g) = %.3g (bound %.1g) vs double reference, 1/2/4 TPCs identical, %llu est. cycles",
          name, H, W, floor, worst, bound, (unsigned long long)last_st.cycles);
    free(vx); free(vr); free(vg); free(vb); free(vo); free(vh); free(fx); free(fg); free(fb); free(ref);
  }
}

static void test_transpose(int shapes)
{
  int it;
  for (it = 0; it < shapes; it++) {
    int W, H, i, ok, bad = 0;
    tens_t a, o;
    tens_t *outs[1] = {&o};
    uint32_t *va, *vo, *g;
    shape(&W, &H, 8);
    if (rndn(2)) H = 1 + (int)rndn(40);
    new_launch();
    talloc(&a, TPC_DT_F32, W, H, W + (int)rndn(5), 0, 0);
    talloc(&o, TPC_DT_F32, H, W, H + (int)rndn(5), 0, 0);
    va = malloc((size_t)(W * H) * 4); vo = malloc((size_t)(W * H) * 4); g = malloc((size_t)(W * H) * 4);
    for (i = 0; i < W * H; i++) va[i] = rnd32();
    twrite(&a, va);
    L.ntensors = 2; tdesc(&L.tensor[0], &a); tdesc(&L.tensor[1], &o);
    L.idx_size[0] = (uint32_t)((W + 7) / 8);
    L.idx_size[1] = (uint32_t)((H + 7) / 8);
    ok = run_splits("transpose", outs, 1, &vo);
    tg_transpose(va, H, W, g);
    for (i = 0; i < W * H && ok; i++)
      if (vo[i] != g[i]) { if (!bad) printf("  transpose: out (%d,%d) got %08x want %08x\n", i / H, i % H, vo[i], g[i]); bad++; }
    check(ok && !bad, "transpose [%d x %d] -> [%d x %d] bit-exact, 1/2/4 TPCs identical", H, W, W, H);
    free(va); free(vo); free(g);
  }
}

/* kernels that keep a row in VLM must stop cleanly (VLM_RANGE) on rows > 4096 */
static void test_vlm_limit(const char *name, int ntensors)
{
  tens_t a;
  uint32_t et = 0, epc = 0;
  char path[512];
  int err, t;
  new_launch();
  talloc(&a, TPC_DT_F32, 4104, 2, 4104, 0, 0);
  L.ntensors = (uint32_t)ntensors;
  for (t = 0; t < ntensors; t++) tdesc(&L.tensor[t], &a);
  L.idx_size[1] = 2;
  snprintf(path, sizeof(path), "%s/%s.tasm", kdir, name);
  if (tu_load_file(&L, path, PROG_ADDR)) { check(0, "%s: assemble", name); return; }
  memset(dptr(a.addr), 0, a.bytes);
  err = tpc_run_cluster(&L, &tu_dev, 2, MAXBUNDLES, NULL, &et, &epc);
  check(err == TPC_ERR_VLM_RANGE, "%s on a 4104-element row stops with VLM_RANGE (got %s, TPC %u, pc %u)", name, tpc_err_name(err), et, epc);
}

static void test_dropout_stats(void)
{
  /* keep rate of a large tensor ~ 1 - p (a broken RNG or compare would show) */
  int W = 256, H = 16, i, n = W * H, kept = 0;
  tens_t a, o;
  tens_t *outs[1] = {&o};
  uint32_t *va = malloc((size_t)n * 4), *vo = malloc((size_t)n * 4);
  new_launch();
  talloc(&a, TPC_DT_F32, W, H, W, 0, 0);
  talloc(&o, TPC_DT_F32, W, H, W, 0, 0);
  for (i = 0; i < n; i++) va[i] = bitsof(1.0f);
  twrite(&a, va);
  L.ntensors = 2; tdesc(&L.tensor[0], &a); tdesc(&L.tensor[1], &o);
  L.sarg[0] = rnd32(); L.sarg[1] = 0x4CCCCCCDu; /* p = 0.3 */ L.sarg[2] = bitsof(1.0f / 0.7f);
  L.idx_size[0] = (uint32_t)(W / 8); L.idx_size[1] = (uint32_t)H;
  run_splits("dropout", outs, 1, &vo);
  for (i = 0; i < n; i++) kept += vo[i] == bitsof(1.0f / 0.7f);
  check(fabs((double)kept / n - 0.7) < 0.03, "dropout keep rate %.3f for p = 0.3 (4096 elements)", (double)kept / n);
  free(va); free(vo);
}


/* ------------------------------------------------------------------ model performance estimates */
/* --perf: large shapes, correctness still checked; prints the model's cycle ESTIMATES
 * (interlocked issue, 40-cycle memory latency, 256-byte block buffer; no bandwidth
 * limit). Orientation for kernel writers only - benchmarks belong on the RTL. */
static void perf_one(const char *name, int H, int W, int ntpc)
{
  tens_t a, b, o;
  int i, n = W * H, bad = 0;
  uint32_t *va = malloc((size_t)n * 4), *vb = malloc((size_t)n * 4), *vo = malloc((size_t)n * 4);
  uint32_t et, epc;
  tpc_stats_t st;
  int err, is_add = !strncmp(name, "add", 3);
  char path[512];
  new_launch();
  talloc(&a, TPC_DT_F32, W, H, W, 0, strncmp(name, "softmax", 7) ? 0u : 0xFF800000u);
  talloc(&b, TPC_DT_F32, W, H, W, 0, 0);
  talloc(&o, TPC_DT_F32, W, H, W, 0, 0);
  a.addr = (a.addr + 255u) & ~255u; b.addr = (b.addr + 4096u) & ~255u; o.addr = (o.addr + 8192u) & ~255u;
  bump = o.addr + o.bytes;
  for (i = 0; i < n; i++) { va[i] = bitsof((float)(rnd32() >> 8) / 16777216.0f); vb[i] = bitsof((float)(rnd32() >> 8) / 16777216.0f); }
  twrite(&a, va); twrite(&b, vb);
  L.sarg[0] = bitsof(1e-5f);
  if (is_add) {
    L.ntensors = 3; tdesc(&L.tensor[0], &a); tdesc(&L.tensor[1], &b); tdesc(&L.tensor[2], &o);
    L.idx_size[0] = strcmp(name, "add") ? 1u : (uint32_t)((W + 7) / 8);
  } else if (!strncmp(name, "layernorm", 9)) {
    tens_t g, be;
    talloc(&g, TPC_DT_F32, W, 1, W, 1, 0); talloc(&be, TPC_DT_F32, W, 1, W, 1, 0);
    twrite(&g, vb); twrite(&be, va);
    L.ntensors = 4; tdesc(&L.tensor[0], &a); tdesc(&L.tensor[1], &g); tdesc(&L.tensor[2], &be); tdesc(&L.tensor[3], &o);
  } else {
    L.ntensors = 2; tdesc(&L.tensor[0], &a); tdesc(&L.tensor[1], &o);
  }
  L.idx_size[1] = (uint32_t)H;
  snprintf(path, sizeof(path), "%s/%s.tasm", kdir, name);
  if (tu_load_file(&L, path, PROG_ADDR)) { check(0, "perf %s: assemble", name); return; }
  err = tpc_run_cluster(&L, &tu_dev, (uint32_t)ntpc, MAXBUNDLES, &st, &et, &epc);
  tread(&o, vo);
  if (is_add)
    for (i = 0; i < n; i++) bad += vo[i] != tg_add(va[i], vb[i]);
  check(!err && !bad && st.stall_cycles == st.stall_mem + st.stall_dep,
        "perf %-10s [%d x %d] f32 on %d TPC(s): %8llu est. cycles (slowest TPC), %6.2f elements/cycle, %6.1f bytes/cycle, stalls %4.1f%% (memory %4.1f%%, dependency %4.1f%%), branch bubbles %4.1f%%",
        name, H, W, ntpc, (unsigned long long)st.cycles, (double)n / (double)st.cycles,
        (double)(st.bytes_ld + st.bytes_st) / (double)st.cycles, 100.0 * (double)st.stall_cycles / (double)st.cycles / ntpc,
        100.0 * (double)st.stall_mem / (double)st.cycles / ntpc, 100.0 * (double)st.stall_dep / (double)st.cycles / ntpc,
        100.0 * (double)st.branch_bubbles / (double)st.cycles / ntpc);
  if (!err && !bad) {
    char rname[96];
    snprintf(rname, sizeof rname, "tpc_model/%s_%dx%d_%dtpc", name, H, W, ntpc);
    bench_record(rname, NULL, (double)st.cycles, 0,
                 "\"kernel\":\"%s\",\"rows\":%d,\"cols\":%d,\"tpcs\":%d,\"estimate\":true,"
                 "\"stall_mem_pct\":%.1f,\"stall_dep_pct\":%.1f",
                 name, H, W, ntpc, 100.0 * (double)st.stall_mem / (double)st.cycles / ntpc,
                 100.0 * (double)st.stall_dep / (double)st.cycles / ntpc);
  }
  free(va); free(vb); free(vo);
}

static void perf(void)
{
  int t;
  for (t = 1; t <= 4; t *= 2) {
    perf_one("add", 256, 1024, t);
    perf_one("add_stream", 256, 1024, t);
    perf_one("add_stream", 4, 65536, t);
  }
  perf_one("softmax", 64, 1024, 1);
  perf_one("softmax", 64, 1024, 4);
  perf_one("softmax_vlm", 64, 1024, 1);
  perf_one("softmax_vlm", 64, 1024, 4);
  perf_one("layernorm", 64, 1024, 1);
  perf_one("layernorm", 64, 1024, 4);
  perf_one("layernorm_vlm", 64, 1024, 1);
  perf_one("layernorm_vlm", 64, 1024, 4);
}

int main(int argc, char **argv)
{
  uint64_t seed = tu_seed(argc, argv);
  int i, do_perf = 0;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--kdir") && i + 1 < argc) kdir = argv[++i];
    if (!strcmp(argv[i], "--perf")) do_perf = 1;
  }
  tu_mem_init();
  printf("tpc_kernels: TPC kernel library on the C ISA MODEL (not RTL), seed %llu (reproduce with --seed %llu)\n",
         (unsigned long long)seed, (unsigned long long)seed);
  if (do_perf) {
    tu_verbose = 1;
    TU_CASE("perf", perf());
    printf("tpc_kernels: %d passed, %d failed (%d checks)\n", tu_cases_pass, tu_cases_fail, tu_pass + tu_fail);
    return tu_fail ? 1 : 0;
  }
  TU_CASE("elementwise/add", test_elementwise("add", EW_ADD, 6));
  TU_CASE("elementwise/add_stream", test_elementwise("add_stream", EW_ADDSTREAM, 6));
  TU_CASE("elementwise/mul", test_elementwise("mul", EW_MUL, 4));
  TU_CASE("elementwise/relu", test_elementwise("relu", EW_RELU, 4));
  TU_CASE("elementwise/residual_add", test_elementwise("residual_add", EW_BF16ADD, 4));
  TU_CASE("elementwise/bias_add", test_elementwise("bias_add", EW_BIAS, 4));
  TU_CASE("elementwise/dropout", test_elementwise("dropout", EW_DROPOUT, 4));
  TU_CASE("dropout_stats", test_dropout_stats());
  TU_CASE("cast_f32_bf16", test_cast("cast_f32_bf16", TPC_DT_F32, TPC_DT_BF16, 0, 4));
  TU_CASE("cast_bf16_f32", test_cast("cast_bf16_f32", TPC_DT_BF16, TPC_DT_F32, 0, 4));
  TU_CASE("cast_f32_e4m3", test_cast("cast_f32_e4m3", TPC_DT_F32, TPC_DT_E4M3, 1, 4));
  TU_CASE("cast_e4m3_f32", test_cast("cast_e4m3_f32", TPC_DT_E4M3, TPC_DT_F32, 0, 4));
  TU_CASE("cast_f32_e5m2", test_cast("cast_f32_e5m2", TPC_DT_F32, TPC_DT_E5M2, 1, 3));
  TU_CASE("cast_e5m2_f32", test_cast("cast_e5m2_f32", TPC_DT_E5M2, TPC_DT_F32, 0, 3));
  TU_CASE("cast_bf16_e4m3", test_cast("cast_bf16_e4m3", TPC_DT_BF16, TPC_DT_E4M3, 1, 4));
  TU_CASE("cast_e4m3_bf16", test_cast("cast_e4m3_bf16", TPC_DT_E4M3, TPC_DT_BF16, 0, 4));
  TU_CASE("reduce_sum", test_reduce("reduce_sum", 0, 5));
  TU_CASE("reduce_max", test_reduce("reduce_max", 1, 5));
  TU_CASE("softmax", test_rowk("softmax", RK_SOFTMAX, 5, 1e-6, 1e-30));
  TU_CASE("softmax_vlm", test_rowk("softmax_vlm", RK_SOFTMAX, 5, 1e-6, 1e-30));
  TU_CASE("layernorm", test_rowk("layernorm", RK_LAYERNORM, 5, 2e-6, 1.0));
  TU_CASE("layernorm_vlm", test_rowk("layernorm_vlm", RK_LAYERNORM, 5, 2e-6, 1.0));
  TU_CASE("rmsnorm", test_rowk("rmsnorm", RK_RMSNORM, 5, 2e-6, 1.0));
  TU_CASE("add_layernorm", test_rowk("add_layernorm", RK_ADDLN, 5, 2e-6, 1.0));
  TU_CASE("gelu", test_rowk("gelu", RK_GELU, 5, 3e-6, 1e-3));
  TU_CASE("transpose", test_transpose(6));
  TU_CASE("vlm_limit/softmax_vlm", test_vlm_limit("softmax_vlm", 2));
  TU_CASE("vlm_limit/add_layernorm", test_vlm_limit("add_layernorm", 6));
  TU_CASE("vlm_limit/layernorm_vlm", test_vlm_limit("layernorm_vlm", 4));
  printf("tpc_kernels: worst errors: softmax %.3g, layernorm %.3g, rmsnorm %.3g, add_layernorm %.3g, gelu %.3g\n",
         worst_rel[0], worst_rel[1], worst_rel[2], worst_rel[3], worst_rel[4]);
  printf("tpc_kernels: %d passed, %d failed (%d checks)\n", tu_cases_pass, tu_cases_fail, tu_pass + tu_fail);
  return tu_fail ? 1 : 0;
}
