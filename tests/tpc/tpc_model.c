/* Tessera TPC ISA model (see tpc_model.h, docs/tpc.md, docs/tpc_isa.md). */
#include "tpc_model.h"
#include "tpc_fp.h"
#include "../../tools/tpcasm/tpc_isa_gen.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLD(w, f) ((uint32_t)(((w) >> TPC_F_##f##_LO) & ((1ull << TPC_F_##f##_W) - 1ull)))

static const tpc_insn_info_t *optab[TPC_NSLOTS][256];
static int optab_ok;

static void build_optab(void)
{
  int i, s;
  if (optab_ok)
    return;
  for (i = 0; i < TPC_NINSN; i++)
    for (s = 0; s < TPC_NSLOTS; s++)
      if (tpc_insn_info[i].slots & (1u << s))
        optab[s][tpc_insn_info[i].opcode] = &tpc_insn_info[i];
  optab_ok = 1;
}

const char *tpc_err_name(int err)
{
  static const char *const n[] = {"NONE", "ILLEGAL", "PC_RANGE", "SLM_RANGE", "VLM_RANGE",
                                  "MISALIGNED", "BAD_DESC", "BUS", "WCONFLICT", "TIMEOUT",
                                  "BAD_LAUNCH"};
  return (err >= 0 && err <= TPC_ERR_BAD_LAUNCH) ? n[err] : "?";
}

/* ------------------------------------------------------------------ lanes */
uint32_t tpc_lane_get(const uint8_t *v, int dt, int k)
{
  int b = tpc_dtype_info[dt].bytes, i;
  uint32_t x = 0;
  for (i = 0; i < b; i++)
    x |= (uint32_t)v[k * b + i] << (8 * i);
  return x;
}

void tpc_lane_set(uint8_t *v, int dt, int k, uint32_t x)
{
  int b = tpc_dtype_info[dt].bytes, i;
  for (i = 0; i < b; i++)
    v[k * b + i] = (uint8_t)(x >> (8 * i));
}

static uint32_t lmask(int dt)
{
  int b = tpc_dtype_info[dt].bytes;
  return b == 4 ? 0xFFFFFFFFu : ((1u << (8 * b)) - 1u);
}

static int64_t sval(int dt, uint32_t x) /* integer value of a lane */
{
  int bits = 8 * tpc_dtype_info[dt].bytes;
  if (tpc_dtype_info[dt].kind == 's') {
    uint32_t sb = 1u << (bits - 1);
    x &= lmask(dt);
    return (int64_t)(int32_t)((x ^ sb) - sb);
  }
  return (int64_t)(x & lmask(dt));
}

static int isfloat(int dt) { return tpc_dtype_info[dt].kind == 'f'; }

static float to_f32(int dt, uint32_t x)
{
  return dt == TPC_DT_F32 ? tpc_f32(x) : (float)tpc_fp_decode(dt, x);
}

static uint32_t from_f32(int dt, float r, int sat)
{
  if (isnan(r))
    return tpc_fp_qnan(dt);
  if (dt == TPC_DT_F32 && !sat)
    return tpc_bits(r);
  return tpc_fp_encode(dt, (double)r, sat);
}

/* float min/max with the TPC rules: NaN in -> canonical NaN; -0 < +0 */
static uint32_t fminmax(int dt, uint32_t a, uint32_t b, int is_max)
{
  double x, y;
  int sa, sb;
  if (tpc_fp_isnan(dt, a) || tpc_fp_isnan(dt, b))
    return tpc_fp_qnan(dt);
  x = tpc_fp_decode(dt, a);
  y = tpc_fp_decode(dt, b);
  if (x < y)
    return is_max ? b : a;
  if (y < x)
    return is_max ? a : b;
  sa = signbit(x) != 0;
  sb = signbit(y) != 0;
  if (sa == sb)
    return a;
  return (is_max ? !sa : sa) ? a : b;
}

static int fcmp(int cc, double x, double y)
{
  switch (cc) {
  case TPC_CC_EQ: return x == y;
  case TPC_CC_NE: return !(x == y);
  case TPC_CC_LT: return x < y;
  case TPC_CC_LE: return x <= y;
  case TPC_CC_GT: return x > y;
  default:        return x >= y;
  }
}

static int icmp(int cc, int64_t x, int64_t y)
{
  switch (cc) {
  case TPC_CC_EQ: return x == y;
  case TPC_CC_NE: return x != y;
  case TPC_CC_LT: return x < y;
  case TPC_CC_LE: return x <= y;
  case TPC_CC_GT: return x > y;
  default:        return x >= y;
  }
}

static void irange(int dt, int64_t *lo, int64_t *hi)
{
  int bits = 8 * tpc_dtype_info[dt].bytes;
  if (tpc_dtype_info[dt].kind == 's') {
    *lo = -((int64_t)1 << (bits - 1));
    *hi = ((int64_t)1 << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = ((int64_t)1 << bits) - 1;
  }
}

/* element conversion sdt -> ddt */
static uint32_t cvt1(int sdt, int ddt, uint32_t x, int sat, int sr, uint32_t rnd)
{
  double v;
  int64_t lo, hi, iv;
  if (isfloat(sdt)) {
    if (tpc_fp_isnan(sdt, x))
      return isfloat(ddt) ? tpc_fp_qnan(ddt) : 0u;
    v = tpc_fp_decode(sdt, x);
    if (isfloat(ddt)) {
      if (sr) /* f32 -> bf16 stochastic */
        return (uint32_t)(((uint64_t)x + (rnd & 0xFFFFu)) >> 16) & 0xFFFFu;
      return tpc_fp_encode(ddt, v, sat);
    }
    irange(ddt, &lo, &hi);
    v = nearbyint(v);
    if (v < (double)lo)
      return (uint32_t)lo & lmask(ddt);
    if (v > (double)hi)
      return (uint32_t)hi & lmask(ddt);
    return (uint32_t)(int64_t)v & lmask(ddt);
  }
  iv = sval(sdt, x);
  if (isfloat(ddt))
    return tpc_fp_encode(ddt, (double)iv, sat);
  if (sat) {
    irange(ddt, &lo, &hi);
    iv = iv < lo ? lo : iv > hi ? hi : iv;
  }
  return (uint32_t)iv & lmask(ddt);
}

/* ------------------------------------------------------------------ launch */
void tpc_slice(const tpc_launch_t *L, uint32_t n, uint32_t id, uint32_t off[TPC_NDIMS],
               uint32_t len[TPC_NDIMS])
{
  int d, sd = 0;
  uint32_t chunk;
  for (d = 0; d < TPC_NDIMS; d++) {
    off[d] = 0;
    len[d] = L->idx_size[d];
    if (L->idx_size[d] > 1)
      sd = d;
  }
  if (n == 0)
    n = 1;
  chunk = (L->idx_size[sd] + n - 1) / n;
  off[sd] = id * chunk;
  if (off[sd] >= L->idx_size[sd]) {
    off[sd] = L->idx_size[sd];
    len[sd] = 0;
  } else {
    len[sd] = L->idx_size[sd] - off[sd] < chunk ? L->idx_size[sd] - off[sd] : chunk;
  }
}

static int stop(tpc_core_t *c, int err)
{
  c->state = TPC_ERROR;
  c->err = (uint32_t)err;
  c->err_pc = c->pc;
  return err;
}

int tpc_core_start(tpc_core_t *c, const tpc_launch_t *L, tpc_devmem_t *mem, uint32_t id, uint32_t n)
{
  int d, k;
  uint32_t lat = c->mem_latency ? c->mem_latency : 40;
  build_optab();
  memset(c, 0, sizeof(*c));
  c->mem_latency = lat;
  c->L = L;
  c->mem = mem;
  c->id = id;
  c->n = n;
  c->vp[0] = 0xFFFFFFFFu;
  c->p[0] = 1;
  for (k = 0; k < 8; k++)
    c->rng[k] = tpc_mix32(L->rng_seed + 8u * id + (uint32_t)k);
  for (k = 0; k < TPC_NSARGS; k++)
    memcpy(&c->slm[4 * k], &L->sarg[k], 4);
  tpc_slice(L, n, id, c->off, c->len);
  for (d = 0; d < TPC_NDIMS; d++)
    if (L->idx_size[d] == 0)
      return stop(c, TPC_ERR_BAD_LAUNCH);
  if (L->prog_len == 0 || (L->prog_addr & 31u) || L->ntensors > TPC_NTENSORS)
    return stop(c, TPC_ERR_BAD_LAUNCH);
  return 0;
}

/* ------------------------------------------------------------------ decode */
static int vec_lanes(int dt) { return tpc_dtype_info[dt].lanes; }

int tpc_slot_legal(int slot, uint64_t w)
{
  const tpc_insn_info_t *in;
  uint32_t dt = FLD(w, DT), fn = FLD(w, FN);
  int i;
  build_optab();
  in = optab[slot][FLD(w, OP)];
  if (!in || (w & ~in->used))
    return TPC_ERR_ILLEGAL;
  if (in->types && !((in->types >> dt) & 1u))
    return TPC_ERR_ILLEGAL;
  if ((in->mods & TPC_MOD_COND) && slot == TPC_SLOT_VECTOR && (fn & 7u) >= TPC_CC_LTU)
    return TPC_ERR_ILLEGAL;
  if (in->mods & TPC_MOD_SRCT) {
    uint32_t sdt = fn & 15u, part = (fn >> 4) & 3u, ls, ld, ratio;
    if (sdt >= TPC_NDT)
      return TPC_ERR_ILLEGAL;
    ls = (uint32_t)vec_lanes((int)sdt);
    ld = (uint32_t)vec_lanes((int)dt);
    ratio = ls > ld ? ls / ld : ld / ls;
    if (part >= ratio)
      return TPC_ERR_ILLEGAL;
    if (((fn >> 7) & 1u) && !(sdt == TPC_DT_F32 && dt == TPC_DT_BF16))
      return TPC_ERR_ILLEGAL;
  }
  for (i = 0; i < in->nops; i++) {
    if (in->ops[i] == TPC_OPK_DIM && FLD(w, RB) >= TPC_NDIMS)
      return TPC_ERR_ILLEGAL;
    if (in->ops[i] == TPC_OPK_LANE && FLD(w, RB) >= (uint32_t)vec_lanes((int)dt))
      return TPC_ERR_ILLEGAL;
    if (in->ops[i] == TPC_OPK_T && FLD(w, RC) >= TPC_NTENSORS)
      return TPC_ERR_ILLEGAL;
    switch (in->ops[i]) {
    case TPC_OPK_PD: case TPC_OPK_VPD: case TPC_OPK_ID:
      if (FLD(w, RD) >= 8u) return TPC_ERR_ILLEGAL;
      break;
    case TPC_OPK_PA: case TPC_OPK_VPA: case TPC_OPK_IA:
      if (FLD(w, RA) >= 8u) return TPC_ERR_ILLEGAL;
      break;
    case TPC_OPK_PB: case TPC_OPK_VPB:
      if (FLD(w, RB) >= 8u) return TPC_ERR_ILLEGAL;
      break;
    case TPC_OPK_VPC:
      if (FLD(w, RC) >= 8u) return TPC_ERR_ILLEGAL;
      break;
    default:
      break;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ execute */
typedef struct {
  uint32_t s[TPC_NSREG];
  uint8_t p[TPC_NPREG];
  uint32_t vp[TPC_NVPREG];
  uint8_t v[TPC_NVREG][TPC_VBYTES];
  int32_t ix[TPC_NIREG][TPC_NDIMS];
} regs_t;

typedef struct {
  tpc_core_t *c;
  regs_t o; /* register state before the bundle: every slot reads this */
  uint8_t ws[TPC_NSREG], wp[TPC_NPREG], wvp[TPC_NVPREG], wv[TPC_NVREG], wi[TPC_NIREG];
  uint32_t next_pc;
  int halt, taken;
} bctx_t;

#define CHK(x) do { int e_ = (x); if (e_) return e_; } while (0)

static int wr_s(bctx_t *b, uint32_t r, uint32_t x)
{
  if (r == 0)
    return 0;
  if (b->ws[r]++)
    return TPC_ERR_WCONFLICT;
  b->c->s[r] = x;
  return 0;
}
static int wr_p(bctx_t *b, uint32_t r, int x)
{
  if (r == 0)
    return 0;
  if (b->wp[r]++)
    return TPC_ERR_WCONFLICT;
  b->c->p[r] = (uint8_t)(x != 0);
  return 0;
}
static int wr_vp(bctx_t *b, uint32_t r, uint32_t x)
{
  if (r == 0)
    return 0;
  if (b->wvp[r]++)
    return TPC_ERR_WCONFLICT;
  b->c->vp[r] = x;
  return 0;
}
static int wr_v(bctx_t *b, uint32_t r, const uint8_t *x)
{
  if (b->wv[r]++)
    return TPC_ERR_WCONFLICT;
  memcpy(b->c->v[r], x, TPC_VBYTES);
  return 0;
}
static int wr_i(bctx_t *b, uint32_t r, const int32_t *x)
{
  if (b->wi[r]++)
    return TPC_ERR_WCONFLICT;
  memcpy(b->c->ix[r], x, sizeof(int32_t) * TPC_NDIMS);
  return 0;
}

static uint32_t lanemask(const bctx_t *b, uint64_t w)
{
  uint32_t m = b->o.vp[FLD(w, VP)];
  return FLD(w, VPN) ? ~m : m;
}

static int desc_check(tpc_core_t *c, uint32_t t, const tpc_tensor_t **T)
{
  const tpc_tensor_t *x;
  uint32_t d;
  if (t >= c->L->ntensors)
    return TPC_ERR_BAD_DESC;
  x = &c->L->tensor[t];
  if (x->dtype >= TPC_NDT || x->ndims < 1 || x->ndims > TPC_NDIMS ||
      (x->base % tpc_dtype_info[x->dtype].bytes))
    return TPC_ERR_BAD_DESC;
  for (d = 0; d < x->ndims; d++)
    if (x->size[d] == 0 || x->size[d] > TPC_MAX_DIM_SIZE)
      return TPC_ERR_BAD_DESC;
  *T = x;
  return 0;
}

/* address of lane k of tensor T at coordinates cc; returns 0 = OOB, 1 = in bounds,
 * -1 = bus error */
static int tens_addr(tpc_core_t *c, const tpc_tensor_t *T, const int32_t *cc0, int k, uint32_t *addr)
{
  int64_t cc[TPC_NDIMS], off = 0, a;
  uint32_t d, esz = tpc_dtype_info[T->dtype].bytes;
  for (d = 0; d < TPC_NDIMS; d++)
    cc[d] = cc0[d];
  cc[0] += k;
  for (d = 0; d < TPC_NDIMS; d++) {
    if (d < T->ndims) {
      if (cc[d] < 0 || cc[d] >= (int64_t)T->size[d])
        return 0;
      off += cc[d] * (int64_t)T->stride[d];
    } else if (cc[d] != 0) {
      return 0;
    }
  }
  a = (int64_t)T->base + off * (int64_t)esz;
  if (a < (int64_t)c->mem->base || a + esz > (int64_t)c->mem->base + c->mem->size)
    return -1;
  *addr = (uint32_t)a;
  return 1;
}

static uint32_t mem_rd(tpc_core_t *c, uint32_t a, int n)
{
  uint32_t x = 0;
  int i;
  for (i = 0; i < n; i++)
    x |= (uint32_t)c->mem->data[a - c->mem->base + i] << (8 * i);
  return x;
}

static void mem_wr(tpc_core_t *c, uint32_t a, int n, uint32_t x)
{
  int i;
  for (i = 0; i < n; i++)
    c->mem->data[a - c->mem->base + i] = (uint8_t)(x >> (8 * i));
}

static int ix_op(bctx_t *b, const tpc_insn_info_t *in, uint64_t w)
{
  int32_t x[TPC_NDIMS];
  uint32_t rd = FLD(w, RD), dim = FLD(w, RB);
  int32_t imm = (int16_t)FLD(w, IMM);
  uint32_t sa = b->o.s[FLD(w, RA)];
  memcpy(x, b->o.ix[rd], sizeof(x));
  switch (in->opcode) {
  case TPC_OP_L_IXSET:  x[dim] = (int32_t)sa; break;
  case TPC_OP_L_IXADDI: x[dim] = (int32_t)((uint32_t)x[dim] + (uint32_t)imm); break;
  case TPC_OP_L_IXADD:  x[dim] = (int32_t)((uint32_t)x[dim] + sa); break;
  default:              memcpy(x, b->o.ix[FLD(w, RA)], sizeof(x)); break; /* ixmov */
  }
  return wr_i(b, rd, x);
}

/* cycle-estimate block buffer (no functional effect) */
static int blk_find(tpc_core_t *c, uint32_t blk)
{
  uint32_t i;
  for (i = 0; i < 16; i++)
    if (((c->blk_valid >> i) & 1u) && c->blk_addr[i] == blk)
      return (int)i;
  return -1;
}
static uint64_t blk_touch(tpc_core_t *c, uint32_t blk)
{
  int i = blk_find(c, blk);
  if (i >= 0)
    return c->blk_ready[i];
  i = (int)c->blk_next;
  c->blk_next = (c->blk_next + 1u) & 15u;
  c->blk_addr[i] = blk;
  c->blk_ready[i] = c->cur_issue + c->mem_latency;
  c->blk_valid |= 1u << i;
  return c->blk_ready[i];
}

static int exec_load(bctx_t *b, const tpc_insn_info_t *in, uint64_t w)
{
  tpc_core_t *c = b->c;
  const tpc_tensor_t *T;
  uint8_t v[TPC_VBYTES];
  uint32_t a, m, k;
  int r;
  uint32_t sa = b->o.s[FLD(w, RA)] + (uint32_t)(int32_t)(int16_t)FLD(w, IMM);
  switch (in->opcode) {
  case TPC_OP_L_LD_T: {
    int dt;
    CHK(desc_check(c, FLD(w, RC), &T));
    dt = (int)T->dtype;
    m = lanemask(b, w);
    memcpy(v, b->o.v[FLD(w, RD)], TPC_VBYTES);
    c->ld_ready = c->cur_issue + TPC_LD_HIT_LAT;
    for (k = 0; k < (uint32_t)vec_lanes(dt); k++) {
      if (!((m >> k) & 1u))
        continue;
      r = tens_addr(c, T, b->o.ix[FLD(w, RA)], (int)k, &a);
      if (r < 0)
        return TPC_ERR_BUS;
      if (r) {
        uint64_t t = blk_touch(c, a / TPC_BLK_BYTES);
        if (t > c->ld_ready)
          c->ld_ready = t;
        tpc_lane_set(v, dt, (int)k, mem_rd(c, a, tpc_dtype_info[dt].bytes));
        c->st.bytes_ld += tpc_dtype_info[dt].bytes;
      } else {
        tpc_lane_set(v, dt, (int)k, T->pad & lmask(dt));
      }
    }
    return wr_v(b, FLD(w, RD), v);
  }
  case TPC_OP_L_PF_T: /* hint only: never faults; timing model fetches the blocks */
    if (FLD(w, RC) < c->L->ntensors && !desc_check(c, FLD(w, RC), &T))
      for (k = 0; k < (uint32_t)vec_lanes((int)T->dtype); k++)
        if (tens_addr(c, T, b->o.ix[FLD(w, RA)], (int)k, &a) > 0)
          (void)blk_touch(c, a / TPC_BLK_BYTES);
    return 0;
  case TPC_OP_L_LDV:
    if (sa & 31u)
      return TPC_ERR_MISALIGNED;
    if (sa > TPC_VLM_BYTES - TPC_VBYTES)
      return TPC_ERR_VLM_RANGE;
    return wr_v(b, FLD(w, RD), &c->vlm[sa]);
  case TPC_OP_L_LDS:
    if (sa & 3u)
      return TPC_ERR_MISALIGNED;
    if (sa > TPC_SLM_BYTES - 4)
      return TPC_ERR_SLM_RANGE;
    memcpy(&a, &c->slm[sa], 4);
    return wr_s(b, FLD(w, RD), a);
  default:
    return ix_op(b, in, w);
  }
}

static int exec_store(bctx_t *b, const tpc_insn_info_t *in, uint64_t w)
{
  tpc_core_t *c = b->c;
  const tpc_tensor_t *T;
  uint32_t a, m, k;
  int r;
  uint32_t sa = b->o.s[FLD(w, RA)] + (uint32_t)(int32_t)(int16_t)FLD(w, IMM);
  switch (in->opcode) {
  case TPC_OP_ST_ST_T: {
    int dt;
    CHK(desc_check(c, FLD(w, RC), &T));
    dt = (int)T->dtype;
    m = lanemask(b, w);
    /* check every lane first so a faulting store writes nothing */
    for (k = 0; k < (uint32_t)vec_lanes(dt); k++)
      if (((m >> k) & 1u) && tens_addr(c, T, b->o.ix[FLD(w, RA)], (int)k, &a) < 0)
        return TPC_ERR_BUS;
    for (k = 0; k < (uint32_t)vec_lanes(dt); k++) {
      if (!((m >> k) & 1u))
        continue;
      r = tens_addr(c, T, b->o.ix[FLD(w, RA)], (int)k, &a);
      if (r > 0) {
        mem_wr(c, a, tpc_dtype_info[dt].bytes, tpc_lane_get(b->o.v[FLD(w, RB)], dt, (int)k));
        c->st.bytes_st += tpc_dtype_info[dt].bytes;
      }
    }
    return 0;
  }
  case TPC_OP_ST_STV:
    if (sa & 31u)
      return TPC_ERR_MISALIGNED;
    if (sa > TPC_VLM_BYTES - TPC_VBYTES)
      return TPC_ERR_VLM_RANGE;
    memcpy(&c->vlm[sa], b->o.v[FLD(w, RB)], TPC_VBYTES);
    return 0;
  case TPC_OP_ST_STS:
    if (sa & 3u)
      return TPC_ERR_MISALIGNED;
    if (sa > TPC_SLM_BYTES - 4)
      return TPC_ERR_SLM_RANGE;
    memcpy(&c->slm[sa], &b->o.s[FLD(w, RB)], 4);
    return 0;
  default:
    return ix_op(b, in, w);
  }
}

static int scmp(int cc, uint32_t a, uint32_t b)
{
  if (cc == TPC_CC_LTU)
    return a < b;
  if (cc == TPC_CC_GEU)
    return a >= b;
  return icmp(cc, (int32_t)a, (int32_t)b);
}

static int branch(bctx_t *b, uint32_t tgt)
{
  if (tgt >= b->c->L->prog_len)
    return TPC_ERR_PC_RANGE;
  b->next_pc = tgt;
  b->taken = 1;
  return 0;
}

static int exec_scalar(bctx_t *b, const tpc_insn_info_t *in, uint64_t w)
{
  tpc_core_t *c = b->c;
  uint32_t rd = FLD(w, RD), a = b->o.s[FLD(w, RA)], bb = b->o.s[FLD(w, RB)];
  uint32_t imm = (uint32_t)(int32_t)(int16_t)FLD(w, IMM), i32 = FLD(w, IMM32);
  uint32_t cc = FLD(w, FN) & 7u, dim = FLD(w, RB);
  const tpc_tensor_t *T;
  switch (in->opcode) {
  case TPC_OP_S_ADD:  return wr_s(b, rd, a + bb);
  case TPC_OP_S_SUB:  return wr_s(b, rd, a - bb);
  case TPC_OP_S_MUL:  return wr_s(b, rd, a * bb);
  case TPC_OP_S_AND:  return wr_s(b, rd, a & bb);
  case TPC_OP_S_OR:   return wr_s(b, rd, a | bb);
  case TPC_OP_S_XOR:  return wr_s(b, rd, a ^ bb);
  case TPC_OP_S_SLL:  return wr_s(b, rd, a << (bb & 31u));
  case TPC_OP_S_SRL:  return wr_s(b, rd, a >> (bb & 31u));
  case TPC_OP_S_SRA:  return wr_s(b, rd, (uint32_t)((int32_t)a >> (bb & 31u)));
  case TPC_OP_S_MIN:  return wr_s(b, rd, (int32_t)a < (int32_t)bb ? a : bb);
  case TPC_OP_S_MAX:  return wr_s(b, rd, (int32_t)a > (int32_t)bb ? a : bb);
  case TPC_OP_S_MINU: return wr_s(b, rd, a < bb ? a : bb);
  case TPC_OP_S_MAXU: return wr_s(b, rd, a > bb ? a : bb);
  case TPC_OP_S_ADDI: return wr_s(b, rd, a + imm);
  case TPC_OP_S_ANDI: return wr_s(b, rd, a & imm);
  case TPC_OP_S_ORI:  return wr_s(b, rd, a | imm);
  case TPC_OP_S_XORI: return wr_s(b, rd, a ^ imm);
  case TPC_OP_S_SLLI: return wr_s(b, rd, a << (imm & 31u));
  case TPC_OP_S_SRLI: return wr_s(b, rd, a >> (imm & 31u));
  case TPC_OP_S_SRAI: return wr_s(b, rd, (uint32_t)((int32_t)a >> (imm & 31u)));
  case TPC_OP_S_MULI: return wr_s(b, rd, a * imm);
  case TPC_OP_S_LI:   return wr_s(b, rd, i32);
  case TPC_OP_S_CMP:  return wr_p(b, rd, scmp((int)cc, a, bb));
  case TPC_OP_S_CMPI: return wr_p(b, rd, scmp((int)cc, a, imm));
  case TPC_OP_S_PAND: return wr_p(b, rd, b->o.p[FLD(w, RA)] & b->o.p[FLD(w, RB)]);
  case TPC_OP_S_POR:  return wr_p(b, rd, b->o.p[FLD(w, RA)] | b->o.p[FLD(w, RB)]);
  case TPC_OP_S_PXOR: return wr_p(b, rd, b->o.p[FLD(w, RA)] ^ b->o.p[FLD(w, RB)]);
  case TPC_OP_S_PNOT: return wr_p(b, rd, !b->o.p[FLD(w, RA)]);
  case TPC_OP_S_BR:   return branch(b, i32);
  case TPC_OP_S_BNZD:
    CHK(wr_s(b, rd, b->o.s[rd] - 1u));
    return (b->o.s[rd] - 1u) != 0 ? branch(b, i32) : 0;
  case TPC_OP_S_HALT: b->halt = 1; return 0;
  case TPC_OP_S_QOFF: return wr_s(b, rd, c->off[dim]);
  case TPC_OP_S_QSIZE: return wr_s(b, rd, c->len[dim]);
  case TPC_OP_S_TPCID: return wr_s(b, rd, c->id);
  case TPC_OP_S_NTPC: return wr_s(b, rd, c->n);
  case TPC_OP_S_TDIM:
    CHK(desc_check(c, FLD(w, RC), &T));
    return wr_s(b, rd, dim < T->ndims ? T->size[dim] : 1u);
  case TPC_OP_S_IXGET: return wr_s(b, rd, (uint32_t)b->o.ix[FLD(w, RA)][dim]);
  default:            return ix_op(b, in, w);
  }
}

static float sfu(int op, float x)
{
  switch (op) {
  case TPC_OP_V_VEXP:   return tpc_sfu_exp(x);
  case TPC_OP_V_VLOG:   return tpc_sfu_log(x);
  case TPC_OP_V_VRCP:   return tpc_sfu_rcp(x);
  case TPC_OP_V_VRSQRT: return tpc_sfu_rsqrt(x);
  case TPC_OP_V_VSQRT:  return tpc_sfu_sqrt(x);
  case TPC_OP_V_VTANH:  return tpc_sfu_tanh(x);
  default:              return tpc_sfu_sigm(x);
  }
}

static uint32_t fred(int op, int dt, float x, float y) /* one reduction step, in FP32 */
{
  if (op == TPC_OP_V_VREDSUM)
    return tpc_bits(x + y);
  return fminmax(TPC_DT_F32, tpc_bits(x), tpc_bits(y), op == TPC_OP_V_VREDMAX);
  (void)dt;
}

static int exec_vector(bctx_t *b, const tpc_insn_info_t *in, uint64_t w)
{
  tpc_core_t *c = b->c;
  int dt = (int)FLD(w, DT), n = vec_lanes(dt), k, op = in->opcode;
  uint32_t rd = FLD(w, RD), fn = FLD(w, FN), m = in->lanepred ? lanemask(b, w) : 0xFFFFFFFFu;
  int bs = (fn >> 7) & 1, sat = (fn >> 6) & 1, kind = tpc_dtype_info[dt].kind;
  int bits = 8 * tpc_dtype_info[dt].bytes;
  const uint8_t *va = b->o.v[FLD(w, RA)], *vb = b->o.v[FLD(w, RB)], *vc = b->o.v[FLD(w, RC)];
  uint32_t sb = b->o.s[FLD(w, RB)];
  uint8_t out[TPC_VBYTES];
  memcpy(out, b->o.v[rd], TPC_VBYTES);

#define A(k) tpc_lane_get(va, dt, (k))
#define B(k) (bs ? (sb & lmask(dt)) : tpc_lane_get(vb, dt, (k)))
  switch (op) {
  case TPC_OP_V_VADD: case TPC_OP_V_VSUB: case TPC_OP_V_VMUL: case TPC_OP_V_VFMA:
    for (k = 0; k < n; k++) {
      uint32_t r;
      if (!((m >> k) & 1u))
        continue;
      if (kind == 'f') {
        float x = to_f32(dt, A(k)), y = to_f32(dt, B(k)), z;
        z = op == TPC_OP_V_VADD ? x + y : op == TPC_OP_V_VSUB ? x - y : op == TPC_OP_V_VMUL ? x * y
          : fmaf(x, y, to_f32(dt, tpc_lane_get(vc, dt, k)));
        r = from_f32(dt, z, sat);
      } else {
        uint32_t x = A(k), y = B(k);
        r = op == TPC_OP_V_VADD ? x + y : op == TPC_OP_V_VSUB ? x - y : op == TPC_OP_V_VMUL ? x * y
          : x * y + tpc_lane_get(vc, dt, k);
        if (sat) { /* saturating integer arithmetic: exact result clamped to the type */
          int64_t lo, hi, X = sval(dt, x), Y = sval(dt, y);
          __int128 e;
          irange(dt, &lo, &hi);
          e = op == TPC_OP_V_VADD ? (__int128)X + Y : op == TPC_OP_V_VSUB ? (__int128)X - Y
            : op == TPC_OP_V_VMUL ? (__int128)X * Y : (__int128)X * Y + sval(dt, tpc_lane_get(vc, dt, k));
          r = (uint32_t)(int64_t)(e < lo ? lo : e > hi ? hi : e);
        }
      }
      tpc_lane_set(out, dt, k, r & lmask(dt));
    }
    return wr_v(b, rd, out);
  case TPC_OP_V_VMIN: case TPC_OP_V_VMAX:
    for (k = 0; k < n; k++) {
      uint32_t x = A(k), y = B(k), r;
      if (!((m >> k) & 1u))
        continue;
      if (kind == 'f')
        r = fminmax(dt, x, y, op == TPC_OP_V_VMAX);
      else
        r = (op == TPC_OP_V_VMAX) == (sval(dt, x) > sval(dt, y)) ? x : y;
      tpc_lane_set(out, dt, k, r);
    }
    return wr_v(b, rd, out);
  case TPC_OP_V_VABS: case TPC_OP_V_VNEG:
    for (k = 0; k < n; k++) {
      uint32_t x = A(k), r, sbit = 1u << (bits - 1);
      if (!((m >> k) & 1u))
        continue;
      if (kind == 'f')
        r = op == TPC_OP_V_VABS ? x & ~sbit : x ^ sbit;
      else
        r = (uint32_t)((op == TPC_OP_V_VNEG || sval(dt, x) < 0) ? -sval(dt, x) : sval(dt, x));
      tpc_lane_set(out, dt, k, r & lmask(dt));
    }
    return wr_v(b, rd, out);
  case TPC_OP_V_VCMP: {
    uint32_t old = b->o.vp[rd], r = 0;
    for (k = 0; k < n; k++) {
      int bit;
      if (!((m >> k) & 1u)) {
        r |= old & (1u << k);
        continue;
      }
      if (kind == 'f')
        bit = fcmp((int)(fn & 7u), tpc_fp_decode(dt, A(k)), tpc_fp_decode(dt, B(k)));
      else
        bit = icmp((int)(fn & 7u), sval(dt, A(k)), sval(dt, B(k)));
      r |= (uint32_t)bit << k;
    }
    return wr_vp(b, rd, r);
  }
  case TPC_OP_V_VSEL: {
    uint32_t sel = b->o.vp[FLD(w, RC)];
    for (k = 0; k < n; k++)
      if ((m >> k) & 1u)
        tpc_lane_set(out, dt, k, ((sel >> k) & 1u) ? A(k) : B(k));
    return wr_v(b, rd, out);
  }
  case TPC_OP_V_VAND: case TPC_OP_V_VOR: case TPC_OP_V_VXOR: case TPC_OP_V_VNOT:
  case TPC_OP_V_VSHL: case TPC_OP_V_VSHR:
    for (k = 0; k < n; k++) {
      uint32_t x = A(k), y = op == TPC_OP_V_VNOT ? 0 : B(k), r, sh = y & (uint32_t)(bits - 1);
      if (!((m >> k) & 1u))
        continue;
      switch (op) {
      case TPC_OP_V_VAND: r = x & y; break;
      case TPC_OP_V_VOR:  r = x | y; break;
      case TPC_OP_V_VXOR: r = x ^ y; break;
      case TPC_OP_V_VNOT: r = ~x; break;
      case TPC_OP_V_VSHL: r = x << sh; break;
      default: r = kind == 's' ? (uint32_t)(sval(dt, x) >> sh) : (x & lmask(dt)) >> sh; break;
      }
      tpc_lane_set(out, dt, k, r & lmask(dt));
    }
    return wr_v(b, rd, out);
  case TPC_OP_V_VCVT: {
    int sdt = (int)(fn & 15u), part = (int)((fn >> 4) & 3u), sr = (fn >> 7) & 1;
    int ls = vec_lanes(sdt), ld = n, cnt = ls < ld ? ls : ld, j;
    for (j = 0; j < cnt; j++) {
      int si = ls > ld ? part * cnt + j : j, di = ld > ls ? part * cnt + j : j;
      uint32_t rnd = 0;
      if (!((m >> di) & 1u))
        continue;
      if (sr) {
        c->rng[j] = tpc_xorshift32(c->rng[j]);
        rnd = c->rng[j];
      }
      tpc_lane_set(out, dt, di, cvt1(sdt, dt, tpc_lane_get(va, sdt, si), sat, sr, rnd));
    }
    return wr_v(b, rd, out);
  }
  case TPC_OP_V_VREDSUM: case TPC_OP_V_VREDMAX: case TPC_OP_V_VREDMIN: {
    uint32_t x[32], r, s;
    for (k = 0; k < n; k++)
      x[k] = kind == 'f' ? tpc_bits(to_f32(dt, A(k))) : A(k);
    for (s = (uint32_t)n / 2; s >= 1; s /= 2)
      for (k = 0; k < (int)s; k++) {
        if (kind == 'f')
          x[k] = fred(op, dt, tpc_f32(x[k]), tpc_f32(x[k + s]));
        else if (op == TPC_OP_V_VREDSUM)
          x[k] = x[k] + x[k + s];
        else
          x[k] = (op == TPC_OP_V_VREDMAX) == (sval(dt, x[k]) > sval(dt, x[k + s])) ? x[k] : x[k + s];
      }
    r = kind == 'f' ? from_f32(dt, tpc_f32(x[0]), 0) : x[0] & lmask(dt);
    for (k = 0; k < n; k++)
      tpc_lane_set(out, dt, k, r);
    return wr_v(b, rd, out);
  }
  case TPC_OP_V_VPERM:
    for (k = 0; k < n; k++)
      if ((m >> k) & 1u)
        tpc_lane_set(out, dt, k, A((int)(tpc_lane_get(vb, dt, k) % (uint32_t)n)));
    return wr_v(b, rd, out);
  case TPC_OP_V_VBCAST:
    for (k = 0; k < n; k++)
      if ((m >> k) & 1u)
        tpc_lane_set(out, dt, k, b->o.s[FLD(w, RA)] & lmask(dt));
    return wr_v(b, rd, out);
  case TPC_OP_V_VMOV:
    return wr_v(b, rd, va);
  case TPC_OP_V_VLANE:
    for (k = 0; k < n; k++)
      if ((m >> k) & 1u)
        tpc_lane_set(out, dt, k, (uint32_t)k);
    return wr_v(b, rd, out);
  case TPC_OP_V_VEXT: {
    uint32_t x = A((int)FLD(w, RB));
    return wr_s(b, rd, kind == 's' ? (uint32_t)sval(dt, x) : x);
  }
  case TPC_OP_V_VINS:
    tpc_lane_set(out, dt, (int)FLD(w, RB), b->o.s[FLD(w, RA)] & lmask(dt));
    return wr_v(b, rd, out);
  case TPC_OP_V_VEXP: case TPC_OP_V_VLOG: case TPC_OP_V_VRCP: case TPC_OP_V_VRSQRT:
  case TPC_OP_V_VSQRT: case TPC_OP_V_VTANH: case TPC_OP_V_VSIGM:
    for (k = 0; k < n; k++)
      if ((m >> k) & 1u)
        tpc_lane_set(out, dt, k, from_f32(dt, sfu(op, tpc_f32(A(k))), 0));
    return wr_v(b, rd, out);
  case TPC_OP_V_VRAND:
    for (k = 0; k < 8; k++)
      if ((m >> k) & 1u) {
        c->rng[k] = tpc_xorshift32(c->rng[k]);
        tpc_lane_set(out, TPC_DT_U32, k, c->rng[k]);
      }
    return wr_v(b, rd, out);
  case TPC_OP_V_VRSEED:
    for (k = 0; k < 8; k++)
      c->rng[k] = tpc_mix32(tpc_lane_get(va, TPC_DT_U32, k));
    return 0;
  case TPC_OP_V_VPAND: return wr_vp(b, rd, b->o.vp[FLD(w, RA)] & b->o.vp[FLD(w, RB)]);
  case TPC_OP_V_VPOR:  return wr_vp(b, rd, b->o.vp[FLD(w, RA)] | b->o.vp[FLD(w, RB)]);
  case TPC_OP_V_VPNOT: return wr_vp(b, rd, ~b->o.vp[FLD(w, RA)]);
  case TPC_OP_V_VPFROMS: return wr_vp(b, rd, b->o.s[FLD(w, RA)]);
  case TPC_OP_V_VPTOS: return wr_s(b, rd, b->o.vp[FLD(w, RA)]);
  default:
    return TPC_ERR_ILLEGAL;
  }
#undef A
#undef B
}

/* cycle estimate: sources of a slot must be ready; destinations become ready after lat */
static uint64_t src_ready(const tpc_core_t *c, const tpc_insn_info_t *in, uint64_t w, uint64_t *tmem)
{
  uint64_t t = c->ready_p[FLD(w, SP)];
  int i;
  for (i = 0; i < in->nops; i++) {
    uint64_t r = 0;
    int vr = -1;
    switch (in->ops[i]) {
    case TPC_OPK_VA: vr = (int)FLD(w, RA); break;
    case TPC_OPK_VB: vr = (int)FLD(w, RB); break;
    case TPC_OPK_VC: vr = (int)FLD(w, RC); break;
    case TPC_OPK_VSB:
      if ((FLD(w, FN) >> 7) & 1u)
        r = c->ready_s[FLD(w, RB)];
      else
        vr = (int)FLD(w, RB);
      break;
    case TPC_OPK_SA: r = c->ready_s[FLD(w, RA)]; break;
    case TPC_OPK_SB: r = c->ready_s[FLD(w, RB)]; break;
    case TPC_OPK_PA: r = c->ready_p[FLD(w, RA)]; break;
    case TPC_OPK_PB: r = c->ready_p[FLD(w, RB)]; break;
    case TPC_OPK_VPA: r = c->ready_vp[FLD(w, RA)]; break;
    case TPC_OPK_VPB: r = c->ready_vp[FLD(w, RB)]; break;
    case TPC_OPK_VPC: r = c->ready_vp[FLD(w, RC)]; break;
    case TPC_OPK_VD: vr = (int)FLD(w, RD); break;           /* WAW */
    case TPC_OPK_SD: r = c->ready_s[FLD(w, RD)]; break;    /* WAW */
    case TPC_OPK_PD: r = c->ready_p[FLD(w, RD)]; break;
    case TPC_OPK_VPD: r = c->ready_vp[FLD(w, RD)]; break;
    default: break;
    }
    if (vr >= 0) {
      r = c->ready_v[vr];
      if (c->v_from_ld[vr] && r > *tmem)
        *tmem = r;
    }
    if (r > t)
      t = r;
  }
  if (in->lanepred && c->ready_vp[FLD(w, VP)] > t)
    t = c->ready_vp[FLD(w, VP)];
  return t;
}

static void set_ready(tpc_core_t *c, const tpc_insn_info_t *in, uint64_t w, uint64_t t, int slot)
{
  uint64_t done = t + (in->lat ? in->lat : 1);
  if (slot == TPC_SLOT_LOAD && in->opcode == TPC_OP_L_LD_T)
    done = c->ld_ready > t + 1 ? c->ld_ready : t + 1;
  if (!in->nops)
    return;
  switch (in->ops[0]) {
  case TPC_OPK_VD:
    c->ready_v[FLD(w, RD)] = done;
    c->v_from_ld[FLD(w, RD)] = slot == TPC_SLOT_LOAD && in->opcode == TPC_OP_L_LD_T;
    break;
  case TPC_OPK_SD: c->ready_s[FLD(w, RD)] = done; break;
  case TPC_OPK_PD: c->ready_p[FLD(w, RD)] = done; break;
  case TPC_OPK_VPD: c->ready_vp[FLD(w, RD)] = done; break;
  default: break;
  }
}

int tpc_core_step(tpc_core_t *c)
{
  bctx_t b;
  uint64_t w[TPC_NSLOTS], issue, tmem = 0;
  const tpc_insn_info_t *in[TPC_NSLOTS];
  uint32_t addr;
  int s, e, i;
  if (c->state != TPC_RUNNING)
    return (int)c->state;
  if (c->pc >= c->L->prog_len)
    return stop(c, TPC_ERR_PC_RANGE), (int)c->state;
  addr = c->L->prog_addr + c->pc * TPC_BUNDLE_BYTES;
  if (addr < c->mem->base || (uint64_t)addr + TPC_BUNDLE_BYTES > (uint64_t)c->mem->base + c->mem->size)
    return stop(c, TPC_ERR_BUS), (int)c->state;
  issue = c->st.cycles;
  for (s = 0; s < TPC_NSLOTS; s++) {
    w[s] = 0;
    for (i = 0; i < 8; i++)
      w[s] |= (uint64_t)c->mem->data[addr - c->mem->base + 8u * (uint32_t)s + (uint32_t)i] << (8 * i);
    if ((e = tpc_slot_legal(s, w[s])) != 0)
      return stop(c, e), (int)c->state;
    in[s] = optab[s][FLD(w[s], OP)];
    if (in[s]->opcode) {
      uint64_t r = src_ready(c, in[s], w[s], &tmem);
      if (r > issue)
        issue = r;
    }
  }
  c->st.stall_cycles += issue - c->st.cycles;
  if (issue > c->st.cycles) {
    if (tmem >= issue) /* the last source to arrive is a tensor load */
      c->st.stall_mem += issue - c->st.cycles;
    else
      c->st.stall_dep += issue - c->st.cycles;
  }
  c->cur_issue = issue;
  memset(&b, 0, sizeof(b));
  b.c = c;
  memcpy(b.o.s, c->s, sizeof(c->s));
  memcpy(b.o.p, c->p, sizeof(c->p));
  memcpy(b.o.vp, c->vp, sizeof(c->vp));
  memcpy(b.o.v, c->v, sizeof(c->v));
  memcpy(b.o.ix, c->ix, sizeof(c->ix));
  b.next_pc = c->pc + 1;
  for (s = 0; s < TPC_NSLOTS; s++) {
    if (!in[s]->opcode)
      continue;
    if (!(b.o.p[FLD(w[s], SP)] ^ FLD(w[s], SPN)))
      continue;
    c->st.slot_ops[s]++;
    e = s == TPC_SLOT_LOAD ? exec_load(&b, in[s], w[s]) : s == TPC_SLOT_SCALAR ? exec_scalar(&b, in[s], w[s])
      : s == TPC_SLOT_VECTOR ? exec_vector(&b, in[s], w[s]) : exec_store(&b, in[s], w[s]);
    if (e)
      return stop(c, e), (int)c->state;
    set_ready(c, in[s], w[s], issue, s);
  }
  c->s[0] = 0;
  c->p[0] = 1;
  c->vp[0] = 0xFFFFFFFFu;
  c->st.bundles++;
  c->st.cycles = issue + 1 + (b.taken ? 2 : 0);
  c->st.branch_bubbles += b.taken ? 2 : 0;
  c->pc = b.next_pc;
  if (b.halt)
    c->state = TPC_DONE;
  return (int)c->state;
}

int tpc_core_run(tpc_core_t *c, uint64_t max_bundles)
{
  uint64_t i;
  for (i = 0; i < max_bundles && c->state == TPC_RUNNING; i++)
    tpc_core_step(c);
  if (c->state == TPC_RUNNING)
    stop(c, TPC_ERR_TIMEOUT);
  return (int)c->err;
}

int tpc_run_cluster(const tpc_launch_t *L, tpc_devmem_t *mem, uint32_t n, uint64_t max_bundles,
                    tpc_stats_t *st, uint32_t *err_tpc, uint32_t *err_pc)
{
  tpc_core_t *cp = malloc(sizeof(tpc_core_t));
  uint32_t t;
  int first = 0;
  if (!cp)
    return TPC_ERR_BAD_LAUNCH;
  if (st)
    memset(st, 0, sizeof(*st));
  for (t = 0; t < n; t++) {
    int e = tpc_core_start(cp, L, mem, t, n);
    if (!e)
      e = tpc_core_run(cp, max_bundles);
    if (st) {
      st->bundles += cp->st.bundles;
      st->cycles = cp->st.cycles > st->cycles ? cp->st.cycles : st->cycles; /* TPCs run in parallel */
      st->stall_cycles += cp->st.stall_cycles;
      st->stall_mem += cp->st.stall_mem;
      st->stall_dep += cp->st.stall_dep;
      st->branch_bubbles += cp->st.branch_bubbles;
      st->bytes_ld += cp->st.bytes_ld;
      st->bytes_st += cp->st.bytes_st;
      for (e = 0; e < 4; e++)
        st->slot_ops[e] += cp->st.slot_ops[e];
      e = (int)cp->err;
    }
    if (e && !first) {
      first = e;
      if (err_tpc)
        *err_tpc = t;
      if (err_pc)
        *err_pc = cp->err_pc;
    }
  }
  free(cp);
  return first;
}
