// Unit testbench of tessera_tpc_fpu: the special functions (vexp vlog vrcp vrsqrt vsqrt
// vtanh vsigm) and FP32 vfma on random FP32 operands (special values, subnormals, the
// functions' active ranges, random bit patterns), every lane compared bit for bit with
// the C model's definition (tests/tpc/tpc_sfu.c, C fmaf). The lockstep core testbench
// covers the same unit inside the core on fewer operands. See docs/tpc_rtl.md.
//
//   Vtessera_tpc_fpu [--seed N] [--n N]      (N operand vectors of 8 lanes per function)
//
// Prints its seed and ends with "N passed, M failed".
#include "Vtessera_tpc_fpu.h"
#include "verilated.h"
extern "C" {
#include "tpc_fp.h"
#include "tpc_isa_gen.h"
}
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include "../../framework/tf_seed.h"

static uint64_t rs;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }
static uint32_t rn(uint32_t n) { return n ? rnd() % n : 0; }
static Vtessera_tpc_fpu *top;
static uint64_t cycles;

static void tick() { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); cycles++; }

static int insn_id(const char *name) {
  for (int i = 0; i < TPC_NINSN; i++) if (!strcmp(tpc_insn_info[i].name, name)) return i;
  return -1;
}

static uint32_t operand(int f) {
  static const uint32_t sp[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
                                0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000,
                                0xBF800000, 0x42B20000, 0xC2D00000, 0x41200000, 0x39800000, 0x42B20001,
                                0xC2D00001, 0x3F7FFFFF, 0x40800000, 0x3FFFFFFF};
  float x;
  uint32_t b;
  switch (rn(6)) {
  case 0: return sp[rn(sizeof sp / 4)];
  case 1: return rnd();
  case 2: b = rnd(); return (b & 0x807FFFFFu) | ((110u + rn(36)) << 23);   // |x| in [2^-17, 2^18)
  default:
    x = (float)((int32_t)rnd()) / 2147483648.0f;
    x *= f == 1 || f == 2 || f == 3 || f == 4 ? 1000.0f : (f == 0 ? 110.0f : 12.0f);
    if (f >= 1 && f <= 4) x = fabsf(x);
    memcpy(&b, &x, 4);
    return b;
  }
}

int main(int argc, char **argv) {
  uint64_t seed = tf_env_seed(1);
  int n = 2000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
  }
  printf("tpc_fpu: seed %llu (reproduce with --seed %llu), %d vectors per function\n",
         (unsigned long long)seed, (unsigned long long)seed, n);
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  Verilated::commandArgs(argc, argv);
  top = new Vtessera_tpc_fpu;
  top->rst_ni = 0; tick(); top->rst_ni = 1; tick();
  static const char *const fn[8] = {"vexp", "vlog", "vrcp", "vrsqrt", "vsqrt", "vtanh", "vsigm", "vfma"};
  int passed = 0, failed = 0;
  for (int f = 0; f < 8; f++) {
    int bad = 0, id = insn_id(fn[f]);
    uint64_t c0 = cycles;
    for (int v = 0; v < n && bad < 5; v++) {
      uint32_t a[8], b[8], c[8];
      for (int k = 0; k < 8; k++) {
        a[k] = operand(f); b[k] = rn(2) ? operand(f) : rnd(); c[k] = rn(2) ? operand(f) : rnd();
        if (f == 7 && rn(3) == 0) {   // near-cancellation: c = -(a*b) rounded
          float p = tpc_f32(a[k]) * tpc_f32(b[k]);
          c[k] = tpc_bits(-p) ^ rn(4);
        }
        top->va_i[k] = a[k]; top->vb_i[k] = b[k]; top->vc_i[k] = c[k];
        top->vd_i[k] = 0xDEAD0000u + k; top->rng_i[k] = 0;
      }
      top->id_i = (uint8_t)id; top->dt_i = 0; top->fn_i = 0; top->mask_i = 0xFFFFFFFFu;
      top->start_i = 1; tick(); top->start_i = 0;
      int guard = 0;
      while (!top->done_o && guard++ < 100) tick();
      if (!top->done_o) { printf("  %s: no done after 100 cycles\n", fn[f]); bad++; break; }
      for (int k = 0; k < 8; k++) {
        float x = tpc_f32(a[k]), r;
        switch (f) {
        case 0: r = tpc_sfu_exp(x); break;
        case 1: r = tpc_sfu_log(x); break;
        case 2: r = tpc_sfu_rcp(x); break;
        case 3: r = tpc_sfu_rsqrt(x); break;
        case 4: r = tpc_sfu_sqrt(x); break;
        case 5: r = tpc_sfu_tanh(x); break;
        case 6: r = tpc_sfu_sigm(x); break;
        default: r = fmaf(x, tpc_f32(b[k]), tpc_f32(c[k])); break;
        }
        uint32_t want = std::isnan(r) ? 0x7FC00000u : tpc_bits(r), got = top->vd_o[k];
        if (got != want && bad++ < 5) {
          if (f == 7) printf("  %s(%08x, %08x, %08x): rtl %08x model %08x\n", fn[f], a[k], b[k], c[k], got, want);
          else printf("  %s(%08x): rtl %08x model %08x\n", fn[f], a[k], got, want);
        }
      }
    }
    printf("%s %s.f32: %d x 8 lanes bit-exact vs the C model (%.1f cycles per instruction)\n", bad ? "FAIL" : "ok  ",
           fn[f], n, (double)(cycles - c0) / n);
    if (bad) failed++; else passed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  delete top;
  return failed ? 1 : 0;
}
