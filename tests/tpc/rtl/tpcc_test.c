/* TPC-cluster block testbench: test logic (harness: tpcc_harness.cpp, tpcc_tb.h).
 *
 * Every launch goes through the register block (APB): program address/length,
 * descriptors, scalar arguments, index space, TPC count, seed, message, commit. The
 * program is loaded by the cluster from device memory. Each launch is also run on the
 * C ISA model (tests/tpc/tpc_model.h, the same tpc_slice split, TPC by TPC) and must
 * agree: status (error code, failing TPC, PC, error mask), the whole device memory,
 * and the byte/bundle counters; kernel outputs are also checked against the golden
 * models (tests/tpc/golden) and must be identical on 1, 2 and all TPCs.
 *
 *   Vtessera_tpc_cluster [--seed N] [--shapes N] [--bench] [-v]   (from the repository root)
 * Last line: "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden/tpc_golden.h"
#include "regs/tpc_regs.h"
#include "tpc_isa_gen.h"
#include "tpc_model.h"
#include "tpcasm_lib.h"
#include "tpcc_tb.h"
#include "../../framework/bench_rec.h"
#include "../../framework/tf_seed.h"

#define REG(r) ((uint32_t)offsetof(tpc_t, r))
#define FIELD(v, f) (((v) & TPC__##f##_bm) >> TPC__##f##_bp)
#define MODEL_SIZE TB_MEM_SIZE      /* device memory of the C model = what the AXI models serve */
#define DATA_BASE (TB_MEM_BASE + 0x10000u)
#define LAUNCH_LIMIT 20000000ull   /* cycles */

static uint64_t rs;
static uint32_t rnd(void) {
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return (uint32_t)(rs >> 11);
}
static uint32_t rn(uint32_t n) { return n ? rnd() % n : 0; }

static int verbose, npass, nfail;
static unsigned NT;                 /* TPCs in the cluster */
static uint8_t *mm;                 /* the model's device memory (MODEL_SIZE bytes) */

static void check(int ok, const char *fmt, const char *what) {
  if (ok) npass++; else nfail++;
  if (verbose || !ok) printf("%s %s%s\n", ok ? "ok  " : "FAIL", fmt, what);
}

/* ------------------------------------------------------------------ launches */
typedef struct {
  int err, etpc;
  uint32_t epc, emask;
  tpc_stats_t st;
} lres_t;

typedef struct {
  tpc_launch_t L;
  uint32_t ntpc;
  int keep_prog;
  uint32_t msg_addr, msg_data;
  uint32_t limit;   /* BUNDLE_LIMIT (0: none) */
} launch_t;

static void write_desc_regs(const tpc_launch_t *L) {
  for (int t = 0; t < 8; t++) {
    const tpc_tensor_t *d = &L->tensor[t];
    uint32_t w[16] = {0};
    w[0] = d->base;
    w[1] = (d->dtype & 15u) | ((d->ndims & 7u) << 4);
    w[2] = d->pad;
    for (int k = 0; k < 5; k++) { w[3 + k] = d->size[k]; w[8 + k] = (uint32_t)d->stride[k]; }
    for (int k = 0; k < 16; k++) tb_apb_write(REG(DESC) + 64u * t + 4u * k, w[k]);
  }
}

/* program the configuration registers (not the commit) */
static void rtl_config(const launch_t *l) {
  const tpc_launch_t *L = &l->L;
  tb_apb_write(REG(PROG_ADDR), L->prog_addr);
  tb_apb_write(REG(PROG_LEN), L->prog_len);
  tb_apb_write(REG(NTENSORS), L->ntensors);
  tb_apb_write(REG(NTPC), l->ntpc);
  tb_apb_write(REG(RNG_SEED), L->rng_seed);
  tb_apb_write(REG(BUNDLE_LIMIT), l->limit);
  tb_apb_write(REG(IDX_SIZE0), L->idx_size[0]);
  tb_apb_write(REG(IDX_SIZE1), L->idx_size[1]);
  tb_apb_write(REG(IDX_SIZE2), L->idx_size[2]);
  tb_apb_write(REG(IDX_SIZE3), L->idx_size[3]);
  tb_apb_write(REG(IDX_SIZE4), L->idx_size[4]);
  for (int k = 0; k < 16; k++) tb_apb_write(REG(SARG) + 4u * k, L->sarg[k]);
  write_desc_regs(L);
  tb_apb_write(REG(MSG_ADDR), l->msg_addr);
  tb_apb_write(REG(MSG_DATA), l->msg_data);
  tb_apb_write(REG(MSG_CTRL), 1);
}

static uint32_t commit_val(const launch_t *l) {
  return TPC__CTRL__COMMIT_bm | (l->keep_prog ? TPC__CTRL__KEEP_PROG_bm : 0u);
}

/* wait for the interrupt; 0 on time-out (with a diagnostic) */
static int wait_irq(uint64_t limit) {
  uint64_t t0 = tb_cycles();
  while (!tb_irq()) {
    if (tb_cycles() - t0 > limit) {
      uint32_t st = 0, b = 0;
      tb_apb_read(REG(STATUS), &st);
      tb_apb_read(REG(PERF_BUNDLES), &b);
      printf("  TIMEOUT: no completion after %llu cycles (STATUS 0x%08x, %u bundles retired)\n",
             (unsigned long long)limit, st, b);
      return 0;
    }
    tb_tick();
  }
  return 1;
}

/* read the result registers, check done/irq/message and clear done */
static int rtl_finish(const launch_t *l, unsigned msgs_before, lres_t *r, tpc_stats_t *perf) {
  uint32_t st = 0, v = 0;
  int ok = 1;
  tb_apb_read(REG(STATUS), &st);
  if (!(st & TPC__STATUS__DONE_bm) || (st & TPC__STATUS__BUSY_bm)) {
    printf("  STATUS 0x%08x after the interrupt (want done, not busy)\n", st);
    ok = 0;
  }
  r->err = (int)FIELD(st, STATUS__ERR);
  r->etpc = (int)FIELD(st, STATUS__ERR_TPC);
  tb_apb_read(REG(ERR_PC), &r->epc);
  tb_apb_read(REG(ERR_MASK), &r->emask);
  if (perf) {
    memset(perf, 0, sizeof(*perf));
    tb_apb_read(REG(PERF_BUNDLES), &v); perf->bundles = v;
    tb_apb_read(REG(PERF_BYTES_LD), &v); perf->bytes_ld = v;
    tb_apb_read(REG(PERF_BYTES_ST), &v); perf->bytes_st = v;
    tb_apb_read(REG(PERF_BUSY), &v); perf->cycles = v;
    tb_apb_read(REG(PERF_STALL_LD), &v); perf->stall_mem = v;
  }
  if (tb_msg_count() != msgs_before + 1 || tb_msg_addr() != l->msg_addr || tb_msg_data() != l->msg_data) {
    printf("  completion message: %u messages (want %u), last %08x <- %08x (want %08x <- %08x)\n",
           tb_msg_count() - msgs_before, 1u, tb_msg_addr(), tb_msg_data(), l->msg_addr, l->msg_data);
    ok = 0;
  }
  tb_apb_write(REG(STATUS), TPC__STATUS__DONE_bm);
  if (tb_irq()) { printf("  irq still high after clearing STATUS.done\n"); ok = 0; }
  return ok;
}

/* full launch through the registers */
static int rtl_launch(const launch_t *l, lres_t *r, tpc_stats_t *perf) {
  unsigned m0 = tb_msg_count();
  rtl_config(l);
  tb_apb_write(REG(CTRL), commit_val(l));
  if (!wait_irq(LAUNCH_LIMIT)) return 0;
  return rtl_finish(l, m0, r, perf);
}

/* the same launch on the C model: TPC t of n with the tpc_slice split */
static void model_launch(const launch_t *l, lres_t *r) {
  static tpc_core_t c;
  tpc_devmem_t dm = {mm, TB_MEM_BASE, MODEL_SIZE};
  memset(r, 0, sizeof(*r));
  for (uint32_t t = 0; t < l->ntpc; t++) {
    int e = tpc_core_start(&c, &l->L, &dm, t, l->ntpc);
    if (!e) e = tpc_core_run(&c, l->limit ? l->limit : 50000000ull);
    e = (int)c.err;
    r->st.bundles += c.st.bundles;
    r->st.bytes_ld += c.st.bytes_ld;
    r->st.bytes_st += c.st.bytes_st;
    if (e) {
      r->emask |= 1u << t;
      if (!r->err) { r->err = e; r->etpc = (int)t; r->epc = c.err_pc; }
    }
  }
}

/* compare the RTL's device memory with the model's */
static int mem_equal(const char *what) {
  static uint8_t buf[1 << 16];
  for (uint32_t off = 0; off < MODEL_SIZE; off += sizeof(buf)) {
    tb_mem_read(TB_MEM_BASE + off, buf, sizeof(buf));
    if (memcmp(buf, mm + off, sizeof(buf))) {
      for (uint32_t i = 0; i < sizeof(buf); i++)
        if (buf[i] != mm[off + i]) {
          printf("  %s: device memory %08x rtl=%02x model=%02x\n", what, TB_MEM_BASE + off + i, buf[i], mm[off + i]);
          break;
        }
      return 0;
    }
  }
  return 1;
}

static void mem_put(uint32_t addr, const void *src, size_t len) {
  tb_mem_write(addr, src, len);
  memcpy(mm + (addr - TB_MEM_BASE), src, len);
}

/* launch on RTL and model; compare status, counters, memory */
static int run_both(const launch_t *l, const char *what, int expect_err, lres_t *out) {
  lres_t rr, mr;
  tpc_stats_t perf;
  memset(&rr, 0, sizeof(rr));
  if (!rtl_launch(l, &rr, &perf)) return 0;
  model_launch(l, &mr);
  int ok = 1;
  if (rr.err != mr.err || (mr.err && (rr.etpc != mr.etpc || rr.epc != mr.epc)) || rr.emask != mr.emask) {
    printf("  %s: RTL status err %d tpc %d pc %u mask %x, model err %d tpc %d pc %u mask %x\n", what,
           rr.err, rr.etpc, rr.epc, rr.emask, mr.err, mr.etpc, mr.epc, mr.emask);
    ok = 0;
  }
  if (expect_err >= 0 && mr.err != expect_err) {
    printf("  %s: model error %d, the test expected %d\n", what, mr.err, expect_err);
    ok = 0;
  }
  if (!mr.err && (perf.bundles != mr.st.bundles || perf.bytes_ld != mr.st.bytes_ld || perf.bytes_st != mr.st.bytes_st)) {
    printf("  %s: counters bundles %llu ld %llu st %llu, model %llu %llu %llu\n", what,
           (unsigned long long)perf.bundles, (unsigned long long)perf.bytes_ld, (unsigned long long)perf.bytes_st,
           (unsigned long long)mr.st.bundles, (unsigned long long)mr.st.bytes_ld, (unsigned long long)mr.st.bytes_st);
    ok = 0;
  }
  if (!mem_equal(what)) ok = 0;
  if (out) { *out = rr; out->st = perf; }
  return ok;
}

/* ------------------------------------------------------------------ kernels */
static uint32_t load_kernel(const char *name, uint32_t addr) {
  char path[256], err[512];
  tpc_bundle_t *b = NULL;
  uint32_t nb = 0;
  snprintf(path, sizeof(path), "kernels/tpc/%s.tasm", name);
  if (tpcasm_assemble_file(path, NULL, 0, &b, &nb, err, sizeof(err))) {
    printf("assembler: %s\n", err);
    exit(2);
  }
  mem_put(addr, b, 32u * nb);
  free(b);
  return nb;
}

typedef struct { uint32_t addr; int W, H, pitch; } ktens_t;

static void kdesc(tpc_tensor_t *d, const ktens_t *t, int oned, uint32_t pad, int dtype) {
  memset(d, 0, sizeof(*d));
  d->base = t->addr; d->dtype = (uint32_t)dtype; d->ndims = oned ? 1 : 2; d->pad = pad;
  d->size[0] = (uint32_t)t->W; d->size[1] = (uint32_t)t->H;
  d->stride[0] = 1; d->stride[1] = t->pitch;
}

static uint32_t rnd_f32(void) {
  static const uint32_t sp[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF,
                                0xFF800000, 0x7F800000, 0x7FC00000, 0xFFC00001};
  if (rn(10) == 0) return sp[rn(9)];
  float f = (float)((int32_t)rnd() >> 8) / (float)(1u << rn(24));
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static void put_matrix(const ktens_t *t, const uint32_t *v) {
  for (int r = 0; r < t->H; r++) mem_put(t->addr + 4u * (uint32_t)(r * t->pitch), v + (size_t)r * t->W, 4u * (uint32_t)t->W);
}
static void get_matrix(const ktens_t *t, uint32_t *v) {
  for (int r = 0; r < t->H; r++) tb_mem_read(t->addr + 4u * (uint32_t)(r * t->pitch), v + (size_t)r * t->W, 4u * (uint32_t)t->W);
}

static launch_t new_launch(void) {
  launch_t l;
  memset(&l, 0, sizeof(l));
  for (int d = 0; d < 5; d++) l.L.idx_size[d] = 1;
  l.L.rng_seed = rnd();
  for (int k = 0; k < 16; k++) l.L.sarg[k] = rnd();
  l.msg_addr = 0x30200000u + 4u * rn(64);
  l.msg_data = rnd();
  l.ntpc = 1;
  return l;
}

/* run l on 1, 2, all (and a random count of) TPCs; outputs identical, golden-exact */
static const char *const kname[] = {"relu", "add", "mul", "reduce_max", "reduce_sum", "transpose", "add_stream"};
enum { NKERN = 7 };

static void kernel_case(int kind) {
  static const int ws[] = {1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 77, 100, 130};
  int W = rn(3) ? ws[rn(14)] : 1 + (int)rn(200), H = rn(4) == 0 ? 1 : 1 + (int)rn(12);
  if (rn(3) == 0) H = 1 + (int)rn(40);
  launch_t l = new_launch();
  tpc_launch_t *L = &l.L;
  uint32_t prog = DATA_BASE + 32u * rn(64);
  L->prog_addr = prog;
  L->prog_len = load_kernel(kname[kind], prog);
  ktens_t a = {(prog + 0x2000u + 4u * rn(8)), W, H, W + (int)rn(5)};
  ktens_t b = {(a.addr + 4u * (uint32_t)(a.pitch * H) + 64u + 4u * rn(8)), W, H, W + (int)rn(3)};
  ktens_t o = {(b.addr + 4u * (uint32_t)(b.pitch * H) + 64u + 4u * rn(8)), W, H, W + (int)rn(5)};
  size_t ne = (size_t)W * H;
  uint32_t *va = malloc(4 * ne), *vb = malloc(4 * ne), *g = malloc(4 * ne), *res = malloc(4 * ne),
           *first = malloc(4 * ne);
  for (size_t i = 0; i < ne; i++) { va[i] = rnd_f32(); vb[i] = rnd_f32(); }
  put_matrix(&a, va);
  put_matrix(&b, vb);
  size_t nout = ne;
  if (kind <= 2 || kind == 6) {
    L->ntensors = 3;
    kdesc(&L->tensor[0], &a, 0, 0, TPC_DT_F32);
    kdesc(&L->tensor[1], &b, 0, 0, TPC_DT_F32);
    kdesc(&L->tensor[2], &o, 0, 0, TPC_DT_F32);
    if (kind == 6) L->idx_size[1] = (uint32_t)H;
    else { L->idx_size[0] = (uint32_t)((W + 7) / 8); L->idx_size[1] = (uint32_t)H; }
    for (size_t i = 0; i < ne; i++)
      g[i] = kind == 0 ? tg_relu(va[i]) : kind == 2 ? tg_mul(va[i], vb[i]) : tg_add(va[i], vb[i]);
  } else if (kind <= 4) {
    o.W = H; o.H = 1; o.pitch = H;
    L->ntensors = 2;
    kdesc(&L->tensor[0], &a, 0, kind == 3 ? 0xFF800000u : 0u, TPC_DT_F32);
    kdesc(&L->tensor[1], &o, 1, 0, TPC_DT_F32);
    L->idx_size[1] = (uint32_t)H;
    nout = (size_t)H;
    (kind == 3 ? tg_reduce_max : tg_reduce_sum)(va, H, W, g);
  } else {
    o.W = H; o.H = W; o.pitch = H + (int)rn(5);
    L->ntensors = 2;
    kdesc(&L->tensor[0], &a, 0, 0, TPC_DT_F32);
    kdesc(&L->tensor[1], &o, 0, 0, TPC_DT_F32);
    L->idx_size[0] = (uint32_t)((W + 7) / 8); L->idx_size[1] = (uint32_t)((H + 7) / 8);
    tg_transpose(va, H, W, g);
  }
  uint32_t splits[4] = {1, 2, NT, 1 + rn(NT)};
  int ok = 1;
  uint64_t cyc[4] = {0};
  for (int s = 0; s < 4 && ok; s++) {
    l.ntpc = splits[s];
    l.keep_prog = (int)rn(2);
    /* the output area starts with a fresh random canary on every split */
    uint32_t *canary = malloc(4 * (size_t)o.pitch * o.H);
    for (int i = 0; i < o.pitch * o.H; i++) canary[i] = rnd();
    mem_put(o.addr, canary, 4u * (uint32_t)(o.pitch * o.H));
    free(canary);
    char what[64];
    snprintf(what, sizeof(what), "%s on %u TPCs", kname[kind], l.ntpc);
    lres_t r;
    uint64_t t0 = tb_cycles();
    ok = run_both(&l, what, 0, &r);
    cyc[s] = tb_cycles() - t0;
    get_matrix(&o, res);
    if (ok && memcmp(res, g, 4 * nout)) {
      for (size_t i = 0; i < nout; i++)
        if (res[i] != g[i]) { printf("  %s: element %zu got %08x golden %08x\n", what, i, res[i], g[i]); break; }
      ok = 0;
    }
    if (s == 0) memcpy(first, res, 4 * nout);
    else if (ok && memcmp(first, res, 4 * nout)) { printf("  %s: output differs from 1 TPC\n", what); ok = 0; }
  }
  char what[200];
  snprintf(what, sizeof(what), "%s [%d x %d]: golden bit-exact, model status/memory/counters equal, 1/2/%u/%u TPCs identical (launch cycles %llu/%llu/%llu)",
           kname[kind], H, W, NT, splits[3], (unsigned long long)cyc[0], (unsigned long long)cyc[1], (unsigned long long)cyc[2]);
  check(ok, "", what);
  free(va); free(vb); free(g); free(res); free(first);
}

/* a small add launch used by the error tests: [H][W] at DATA_BASE */
static launch_t add_launch(int W, int H, ktens_t *o) {
  launch_t l = new_launch();
  l.L.prog_addr = DATA_BASE;
  l.L.prog_len = load_kernel("add", DATA_BASE);
  ktens_t a = {DATA_BASE + 0x1000u, W, H, W}, b = {DATA_BASE + 0x1000u + 4u * (uint32_t)(W * H) + 32u, W, H, W};
  *o = (ktens_t){b.addr + 4u * (uint32_t)(W * H) + 32u, W, H, W};
  uint32_t *v = malloc(4 * (size_t)W * H);
  for (int i = 0; i < W * H; i++) v[i] = rnd_f32();
  put_matrix(&a, v);
  for (int i = 0; i < W * H; i++) v[i] = rnd_f32();
  put_matrix(&b, v);
  free(v);
  l.L.ntensors = 3;
  kdesc(&l.L.tensor[0], &a, 0, 0, TPC_DT_F32);
  kdesc(&l.L.tensor[1], &b, 0, 0, TPC_DT_F32);
  kdesc(&l.L.tensor[2], o, 0, 0, TPC_DT_F32);
  l.L.idx_size[0] = (uint32_t)((W + 7) / 8);
  l.L.idx_size[1] = (uint32_t)H;
  l.ntpc = NT;
  return l;
}

/* ------------------------------------------------------------------ error cases */
static void test_bad_launches(void) {
  uint32_t imem = 0;
  tb_apb_read(REG(INFO), &imem);
  imem = (imem & TPC__INFO__IMEM_bm) >> TPC__INFO__IMEM_bp;
  for (int k = 0; k < 11; k++) {
    ktens_t o;
    launch_t l = add_launch(20, 3, &o);
    const char *name = "";
    switch (k) {
      case 0: l.L.idx_size[0] = 0; name = "index-space dim 0 size 0"; break;
      case 1: l.L.idx_size[3] = 0; name = "index-space dim 3 size 0"; break;
      case 2: l.L.prog_addr += 16; name = "program address not 32-byte aligned"; break;
      case 3: l.L.prog_len = 0; name = "program length 0"; break;
      case 4: l.L.prog_len = imem + 1; name = "program longer than the instruction memory"; break;
      case 5: l.L.ntensors = 9; name = "9 tensors"; break;
      case 6: l.ntpc = 0; name = "0 TPCs"; break;
      case 7: l.ntpc = NT + 1; name = "more TPCs than the cluster has"; break;
      case 8: l.L.prog_addr = TB_MEM_BASE - 64; name = "program below device memory"; break;
      case 9: l.L.prog_addr = TB_MEM_BASE + 2 * MODEL_SIZE - 32u * 4; name = "program crossing the end of device memory"; break;
      default: l.L.prog_addr = 0x10000000u; name = "program outside device memory"; break;
    }
    lres_t r;
    unsigned m0 = tb_msg_count();
    int ok = rtl_launch(&l, &r, NULL);
    (void)m0;
    ok = ok && r.err == TPC_ERR_BAD_LAUNCH && r.etpc == 15 && r.epc == 0 && r.emask == 0;
    if (!ok) printf("  got err %d tpc %d pc %u mask %x\n", r.err, r.etpc, r.epc, r.emask);
    /* model agreement where the model defines the check */
    if (k <= 5 && k != 4) {   /* (the model has no instruction-memory limit) */
      static tpc_core_t c;
      tpc_devmem_t dm = {mm, TB_MEM_BASE, MODEL_SIZE};
      int e = tpc_core_start(&c, &l.L, &dm, 0, 1);
      if (e != TPC_ERR_BAD_LAUNCH) { printf("  model says %d\n", e); ok = 0; }
    }
    ok = ok && mem_equal(name);   /* nothing written */
    check(ok, "bad launch -> BAD_LAUNCH (TPC 15), interrupt, message, nothing written: ", name);
  }
}

static void test_fetch_error(void) {
  /* the cluster's window is 2 x MODEL_SIZE; the AXI models serve MODEL_SIZE: a program
   * running into [MODEL_SIZE, 2 MODEL_SIZE) gets DECERR during the load */
  for (int k = 0; k < 3; k++) {
    ktens_t o;
    launch_t l = add_launch(9, 2, &o);
    uint32_t good = k == 0 ? 0 : 1 + rn(20);
    l.L.prog_addr = TB_MEM_BASE + MODEL_SIZE - 32u * good;
    l.L.prog_len = good + 1 + rn(40);
    lres_t r;
    int ok = rtl_launch(&l, &r, NULL);
    ok = ok && r.err == TPC_ERR_BUS && r.etpc == 15 && r.epc == good && r.emask == 0 && mem_equal("fetch error");
    if (!ok) printf("  got err %d tpc %d pc %u (want %u) mask %x\n", r.err, r.etpc, r.epc, good, r.emask);
    char what[96];
    snprintf(what, sizeof(what), "(first bad bundle %u of %u)", good, l.L.prog_len);
    check(ok, "program load with AXI DECERR -> BUS, TPC 15, ERR_PC = first bad bundle ", what);
  }
}

static void test_core_errors(void) {
  ktens_t o;
  /* output rows from r0 on lie beyond the served memory: the TPCs whose slices hold
   * them stop with BUS, the others finish; model: same first TPC, PC, mask, memory */
  for (int k = 0; k < 3; k++) {
    int W = 8 * (1 + (int)rn(4)), H = 4 + (int)rn(12), r0 = 1 + (int)rn((uint32_t)H - 1);
    launch_t l = add_launch(W, H, &o);
    o.addr = TB_MEM_BASE + MODEL_SIZE - 4u * (uint32_t)(W * r0);
    kdesc(&l.L.tensor[2], &o, 0, 0, TPC_DT_F32);
    l.ntpc = k == 2 ? 1 + rn(NT) : NT;
    char what[128];
    snprintf(what, sizeof(what), "st.t beyond device memory on rows >= %d of %d (%u TPCs)", r0, H, l.ntpc);
    lres_t r;
    check(run_both(&l, what, -1, &r) && r.err == TPC_ERR_BUS, "core error -> first failing TPC/PC/mask as the model, others complete: ", what);
  }
  /* tensor 2 not declared: every TPC with work stops with BAD_DESC */
  {
    launch_t l = add_launch(33, 5, &o);
    l.L.ntensors = 2;
    check(run_both(&l, "ntensors 2", TPC_ERR_BAD_DESC, NULL), "", "undeclared tensor -> BAD_DESC as the model");
  }
  /* zero and oversized descriptor dims */
  for (int k = 0; k < 2; k++) {
    launch_t l = add_launch(17, 3, &o);
    l.L.tensor[1].size[1] = k ? (1u << 24) + 1 : 0;
    check(run_both(&l, "bad descriptor size", TPC_ERR_BAD_DESC, NULL), "",
          k ? "descriptor size > 2^24 -> BAD_DESC as the model" : "descriptor size 0 -> BAD_DESC as the model");
  }
  /* dtype > 10, ndims 0 */
  {
    launch_t l = add_launch(17, 3, &o);
    l.L.tensor[0].dtype = 13;
    check(run_both(&l, "bad dtype", TPC_ERR_BAD_DESC, NULL), "", "descriptor dtype 13 -> BAD_DESC as the model");
  }
}

/* The bundle limit (BUNDLE_LIMIT) and the abort (CTRL.cancel): every TPC stops before a
 * bundle with TIMEOUT at its PC; the rest of the launch ends as for any core error
 * (message, interrupt), and the next launch is unaffected. */
static void test_limit_abort(void) {
  ktens_t o;
  /* limit: each TPC stops after `limit` bundles; status, PC, mask and memory as the model */
  for (int k = 0; k < 3; k++) {
    launch_t l = add_launch(64 + 8 * (int)rn(8), 8 + (int)rn(8), &o);
    l.ntpc = k == 2 ? 1 + rn(NT) : NT;
    l.limit = 1 + rn(12);
    char what[128];
    snprintf(what, sizeof(what), "BUNDLE_LIMIT %u on %u TPCs", l.limit, l.ntpc);
    check(run_both(&l, what, TPC_ERR_TIMEOUT, NULL), "bundle limit -> TIMEOUT, PC/mask/memory as the model: ", what);
  }
  /* abort a runaway kernel (x: br x) on a random number of TPCs after a random time */
  tpc_bundle_t *b = NULL;
  uint32_t nb = 0;
  char err[256];
  if (tpcasm_assemble("x: br x\n", "runaway", NULL, 0, &b, &nb, err, sizeof(err))) {
    printf("assembler: %s\n", err);
    exit(2);
  }
  uint32_t runaway = DATA_BASE + 0xF000u;
  mem_put(runaway, b, 32u * nb);
  free(b);
  for (int k = 0; k < 2; k++) {
    launch_t l = new_launch();
    l.L.prog_addr = runaway;
    l.L.prog_len = nb;
    l.L.idx_size[0] = NT;
    l.ntpc = k ? NT : 1 + rn(NT);
    unsigned m0 = tb_msg_count();
    rtl_config(&l);
    tb_apb_write(REG(CTRL), commit_val(&l));
    uint32_t wait = 200 + rn(3000);
    for (uint32_t c = 0; c < wait; c++) tb_tick();
    uint32_t st = 0;
    tb_apb_read(REG(STATUS), &st);
    int ok = (st & TPC__STATUS__BUSY_bm) && !tb_irq();
    if (!ok) printf("  runaway kernel: STATUS 0x%08x irq %d after %u cycles (want busy)\n", st, tb_irq(), wait);
    tb_apb_write(REG(CTRL), TPC__CTRL__CANCEL_bm);
    lres_t r;
    ok = ok && wait_irq(10000) && rtl_finish(&l, m0, &r, NULL);
    ok = ok && r.err == TPC_ERR_TIMEOUT && r.etpc == 0 && r.epc == 0 && r.emask == (1u << l.ntpc) - 1u;
    if (!ok) printf("  abort: err %d tpc %d pc %u mask 0x%x\n", r.err, r.etpc, r.epc, r.emask);
    char what[128];
    snprintf(what, sizeof(what), "CTRL.cancel of a runaway kernel on %u TPCs after %u cycles", l.ntpc, wait);
    check(ok, "abort -> TIMEOUT on every TPC at its PC, message and interrupt: ", what);
  }
  /* abort right after the commit, during the program load: the cores stop at bundle 0
   * and nothing is written */
  {
    launch_t l = add_launch(64, 8, &o);
    unsigned m0 = tb_msg_count();
    rtl_config(&l);
    tb_apb_write(REG(CTRL), commit_val(&l));
    tb_apb_write(REG(CTRL), TPC__CTRL__CANCEL_bm);
    lres_t r;
    int ok = wait_irq(10000) && rtl_finish(&l, m0, &r, NULL);
    ok = ok && r.err == TPC_ERR_TIMEOUT && r.epc == 0 && r.emask == (1u << l.ntpc) - 1u && mem_equal("abort at load");
    check(ok, "", "CTRL.cancel during the program load -> TIMEOUT at bundle 0 on every TPC, nothing written");
  }
  /* abort with no launch: ignored; then a launch runs to the end as the model */
  {
    tb_apb_write(REG(CTRL), TPC__CTRL__CANCEL_bm);
    for (int c = 0; c < 20; c++) tb_tick();
    uint32_t st = 0;
    tb_apb_read(REG(STATUS), &st);
    int ok = !(st & (TPC__STATUS__BUSY_bm | TPC__STATUS__DONE_bm)) && !tb_irq();
    launch_t l = add_launch(40, 6, &o);
    ok = run_both(&l, "launch after the aborts", 0, NULL) && ok;
    check(ok, "", "CTRL.cancel while idle ignored; the next launch completes as the model");
  }
}

static void test_busy_reject(void) {
  ktens_t o;
  launch_t l = add_launch(64, 24, &o);
  l.ntpc = 1;
  unsigned m0 = tb_msg_count();
  rtl_config(&l);
  tb_apb_write(REG(CTRL), commit_val(&l));
  for (int k = 0; k < 50; k++) tb_tick();
  tb_apb_write(REG(CTRL), TPC__CTRL__COMMIT_bm);   /* while busy */
  uint32_t st = 0;
  tb_apb_read(REG(STATUS), &st);
  int ok = (st & TPC__STATUS__BUSY_bm) && (st & TPC__STATUS__BUSY_REJECT_bm) && !(st & TPC__STATUS__DONE_bm) && tb_irq();
  if (!ok) printf("  STATUS 0x%08x irq %d after a commit while busy\n", st, tb_irq());
  tb_apb_write(REG(STATUS), TPC__STATUS__BUSY_REJECT_bm);
  tb_apb_read(REG(STATUS), &st);
  if ((st & TPC__STATUS__BUSY_REJECT_bm) || tb_irq()) { printf("  busy_reject not cleared (0x%08x)\n", st); ok = 0; }
  lres_t r, mr;
  ok = ok && wait_irq(LAUNCH_LIMIT) && rtl_finish(&l, m0, &r, NULL);
  model_launch(&l, &mr);
  ok = ok && r.err == 0 && mr.err == 0 && mem_equal("busy reject");
  check(ok, "", "commit while busy -> STATUS.busy_reject + interrupt, running launch unaffected, one message");
}

/* two launches back to back: the second configured while the first runs, committed on
 * the first's interrupt. Returns the idle cycles between the last bundle of the first
 * and the first bundle of the second. */
static int back_to_back(int keep, int *gap) {
  ktens_t o1, o2;
  launch_t l1 = add_launch(64, 24, &o1);   /* runs longer than configuring the next */
  launch_t l2 = l1;
  l2.msg_data ^= 0x5555u;
  l2.keep_prog = keep;
  o2 = o1;
  o2.addr += 0x8000u;
  kdesc(&l2.L.tensor[2], &o2, 0, 0, TPC_DT_F32);
  l1.ntpc = l2.ntpc = NT;
  unsigned m0 = tb_msg_count();
  rtl_config(&l1);
  tb_apb_write(REG(CTRL), commit_val(&l1));
  rtl_config(&l2);   /* the cluster copied l1 at commit */
  int ok = !tb_irq();
  if (!ok) printf("  the first launch ended before the second was configured\n");
  ok = wait_irq(LAUNCH_LIMIT) && ok;
  uint64_t last = tb_last_retire();
  tb_mark_retire();
  tb_apb_write(REG(CTRL), commit_val(&l2));
  tb_apb_write(REG(STATUS), TPC__STATUS__DONE_bm);
  lres_t r, mr;
  ok = ok && wait_irq(LAUNCH_LIMIT) && rtl_finish(&l2, m0 + 1, &r, NULL) && r.err == 0;
  model_launch(&l1, &mr);
  ok = ok && mr.err == 0;
  model_launch(&l2, &mr);
  ok = ok && mr.err == 0 && mem_equal("back to back");
  *gap = (int)(tb_first_retire() - last) - 1;
  return ok;
}

static void test_back_to_back(void) {
  for (int keep = 0; keep < 2; keep++) {
    int gap = 0, ok = back_to_back(keep, &gap);
    char what[160];
    snprintf(what, sizeof(what), "back-to-back launches (%s): both correct, %d idle cycles between the last bundle of one and the first of the next",
             keep ? "CTRL.keep_prog" : "program reloaded", gap);
    check(ok, "", what);
  }
}

static void test_regs(void) {
  uint32_t v = 0, ok = 1;
  tb_apb_read(REG(INFO), &v);
  ok &= FIELD(v, INFO__NTPC) == NT && FIELD(v, INFO__DCORES) == tb_dcores();
  for (int k = 0; k < 16; k++) tb_apb_write(REG(SARG) + 4u * k, 0x1000u * k + 7);
  for (int k = 0; k < 128; k++) tb_apb_write(REG(DESC) + 4u * k, 0xABC00000u + (uint32_t)k);
  for (int k = 0; k < 16; k++) { tb_apb_read(REG(SARG) + 4u * k, &v); ok &= v == 0x1000u * k + 7; }
  for (int k = 0; k < 128; k++) { tb_apb_read(REG(DESC) + 4u * k, &v); ok &= v == 0xABC00000u + (uint32_t)k; }
  ok &= tb_apb_read(0xFFF0, &v) != 0;   /* unmapped offset -> pslverr */
  tb_apb_read(REG(IDX_SIZE2), &v);
  ok &= v == 1;
  check((int)ok, "", "registers: INFO, scalar-argument and descriptor windows read back, bad offset -> pslverr, reset values");
}

static void case_line(const char *name, int p, int f, const char *more);

/* ------------------------------------------------------------------ benchmarks */
/* Elementwise FP32 add of [H][W] tensors on n TPCs, AXI read latency 40 (the HBM model's
 * default), each DCORE port 32 B/cycle. Cycles = PERF_BUSY (commit to completion).
 * Roofline = bytes moved (a, b read, out written) / (DCORE ports x 32 B/cycle). */
static uint64_t bench_one(const char *kn, int W, int H, uint32_t n, uint64_t c1) {
  launch_t l = new_launch();
  l.L.prog_addr = DATA_BASE;
  l.L.prog_len = load_kernel(kn, DATA_BASE);
  uint32_t bytes = 4u * (uint32_t)(W * H);
  ktens_t a = {DATA_BASE + 0x10000u, W, H, W}, b = {a.addr + bytes, W, H, W}, o = {b.addr + bytes, W, H, W};
  uint32_t *v = malloc(bytes), *av = malloc(bytes), *bv = malloc(bytes);
  for (int i = 0; i < W * H; i++) { av[i] = rnd_f32(); bv[i] = rnd_f32(); }
  put_matrix(&a, av);
  put_matrix(&b, bv);
  l.L.ntensors = 3;
  kdesc(&l.L.tensor[0], &a, 0, 0, TPC_DT_F32);
  kdesc(&l.L.tensor[1], &b, 0, 0, TPC_DT_F32);
  kdesc(&l.L.tensor[2], &o, 0, 0, TPC_DT_F32);
  if (strcmp(kn, "add")) l.L.idx_size[1] = (uint32_t)H;
  else { l.L.idx_size[0] = (uint32_t)(W / 8); l.L.idx_size[1] = (uint32_t)H; }
  l.ntpc = n;
  lres_t r;
  tpc_stats_t pf;
  int ok = rtl_launch(&l, &r, &pf) && r.err == 0;
  get_matrix(&o, v);
  /* check against the golden add, and keep the model's memory the image of the device
   * memory (later cases compare the whole memory): the golden result goes to mm */
  for (int i = 0; i < W * H; i++) {
    const uint32_t want = tg_add(av[i], bv[i]);
    ok = ok && v[i] == want;
    v[i] = want;
  }
  for (int r = 0; r < H; r++)
    memcpy(mm + (o.addr - TB_MEM_BASE) + 4u * (uint32_t)(r * o.pitch), v + (size_t)r * W, 4u * (uint32_t)W);
  free(v); free(av); free(bv);
  uint64_t cyc = pf.cycles, moved = 3ull * bytes, ideal = moved / (32ull * tb_masters());
  printf("bench: %-10s %4d x %-5d %5u %10llu %9llu %10.1f%% %8.2f %8.1f%% %7.2fx %s\n", kn, H, W, n,
         (unsigned long long)cyc, (unsigned long long)ideal, 100.0 * (double)ideal / (double)cyc,
         (double)moved / (double)cyc, 100.0 * (double)pf.stall_mem / ((double)cyc * n),
         c1 ? (double)c1 / (double)cyc : 1.0, ok ? "" : "WRONG RESULT");
  char name[64];
  snprintf(name, sizeof name, "tpc_cluster/%s_%uKiB_%utpc", kn, bytes >> 10, n);
  case_line(name + 12, ok, !ok, ", result golden-exact");
  if (ok)
    bench_record(name, NULL, (double)cyc, (double)ideal,
                 "\"kernel\":\"%s\",\"rows\":%d,\"cols\":%d,\"kib\":%u,\"tpcs\":%u,\"masters\":%u,"
                 "\"ld_stall_pct\":%.1f",
                 kn, H, W, bytes >> 10, n, tb_masters(), 100.0 * (double)pf.stall_mem / ((double)cyc * n));
  return cyc;
}

static void bench(void) {
  tb_set_latency(40);
  tb_msg_ready_pct(100);
  printf("bench: elementwise FP32 add, AXI read latency 40, %u cluster masters x 32 B/cycle; roofline = 12 B/element at %u B/cycle\n",
         tb_masters(), 32u * tb_masters());
  printf("bench: %-10s %12s %5s %10s %9s %11s %8s %9s %8s\n", "kernel", "shape", "TPCs", "cycles", "roofline",
         "of roofline", "B/cycle", "ld stall", "speedup");
  for (int kk = 0; kk < 2; kk++) {
    const char *kn = kk ? "add_stream" : "add";
    uint64_t c1 = 0;
    for (uint32_t n = 1; n <= NT; n *= 2) {   /* scaling: 64 KiB per tensor */
      uint64_t c = bench_one(kn, 1024, 16, n, c1);
      if (n == 1) c1 = c;
    }
    bench_one(kn, 1024, 256, NT, 0);         /* 1 MiB per tensor, all TPCs */
  }
  for (int keep = 0; keep < 2; keep++) {
    int gap = 0, ok = back_to_back(keep, &gap);
    const char *name = keep ? "tpc_cluster/launch_gap_keep_prog" : "tpc_cluster/launch_gap_reload";
    printf("bench: back-to-back launch idle cycles (%s): %d (the host commits the second launch on the "
           "first's interrupt; the chip's queue-manager gap is tpc/bench_launch_gap)\n",
           keep ? "keep_prog" : "program reload", gap);
    if (ok) bench_record(name, NULL, gap, 0, NULL);
    case_line(name + 12, ok, !ok, ", both launches checked against the model, whole memory compared");
  }
}

/* The summary counts cases: the register test, each kernel over every shape round,
 * each error/flow test; a case's line gives its checks. */
static int ncase_pass, ncase_fail;
static void case_line(const char *name, int p, int f, const char *more) {
  if (f) ncase_fail++; else ncase_pass++;
  printf("%s %s (%d checks%s", f ? "FAIL" : "PASS", name, p + f, more);
  if (f) printf(", %d failed", f);
  printf(")\n");
}
#define TPCC_CASE(name, call)                                \
  do {                                                       \
    const int p0_ = npass, f0_ = nfail;                      \
    call;                                                    \
    case_line((name), npass - p0_, nfail - f0_, "");         \
  } while (0)

int main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int shapes = 3, do_bench = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--bench")) do_bench = 1;
    else if (!strcmp(argv[i], "-v")) verbose = 1;
    else { fprintf(stderr, "usage: %s [--seed N] [--shapes N] [--bench] [-v]\n", argv[0]); return 2; }
  }
  printf("tpc cluster tb: seed %llu (reproduce with --seed %llu or SEED=%llu make tpc-cluster-test)\n",
         (unsigned long long)seed, (unsigned long long)seed, (unsigned long long)seed);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  tb_init(1 + (unsigned)(seed % 24), seed);
  NT = tb_dcores() * tb_tpc_per_dcore();
  mm = calloc(1, MODEL_SIZE);
  tb_msg_ready_pct(do_bench ? 100 : 30 + rn(70));
  if (do_bench) {
    bench();
  } else {
    int kp[NKERN] = {0}, kf[NKERN] = {0};
    TPCC_CASE("regs", test_regs());
    for (int s = 0; s < shapes; s++) {
      for (int k = 0; k < NKERN; k++) {
        const int p0 = npass, f0 = nfail;
        tb_set_latency(1 + rn(40));
        kernel_case(k);
        kp[k] += npass - p0;
        kf[k] += nfail - f0;
      }
      if (s == 0) {
        TPCC_CASE("bad_launches", test_bad_launches());
        TPCC_CASE("fetch_error", test_fetch_error());
        TPCC_CASE("core_errors", test_core_errors());
        TPCC_CASE("limit_abort", test_limit_abort());
        TPCC_CASE("busy_reject", test_busy_reject());
        TPCC_CASE("back_to_back", test_back_to_back());
      }
    }
    for (int k = 0; k < NKERN; k++) {  /* one case per kernel: its checks over every shape round */
      char name[40], more[40];
      snprintf(name, sizeof name, "kernel_%s", kname[k]);
      snprintf(more, sizeof more, ", %d shapes", shapes);
      case_line(name, kp[k], kf[k], more);
    }
  }
  printf("%llu cycles\n", (unsigned long long)tb_cycles());
  printf("%d passed, %d failed\n", ncase_pass, ncase_fail);
  return nfail || ncase_fail ? 1 : 0;
}
