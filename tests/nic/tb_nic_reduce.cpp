// Block testbench of the NIC's reduction datapath (rtl/nic/tessera_nic_reduce.sv)
// against the golden element functions (roce_reduce, roce_red_fp32 and
// roce_red_bf16 in tests/nic/roce_model.c; docs/numerics.md "NIC reduction").
// For every op (sum, min, max, and 0 = payload unchanged) and type (FP32, BF16):
// beats of corner-case operands (both zeros, infinities, quiet and signalling
// NaNs of both signs, subnormals, the smallest and largest normals, BF16
// rounding ties with an even and an odd kept bit, overflow at the largest
// finite value, exact cancellation) paired with every other corner case, then
// random beats (random bits, and operands of nearby magnitude so that sums
// cancel and round). Beats enter with random valid and leave with random ready;
// every output beat (data, strobes, last flag) must equal the golden model's, in
// order. The golden functions are checked first against the host's IEEE float
// addition (FP32 sum) and the add-and-truncate BF16 rounding rule.
// Usage: Vtessera_nic_reduce [--seed N]; ends with "N passed, M failed".
#include <verilated.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

#include "Vtessera_nic_reduce.h"
#include "roce_model.h"

#define TB_BYTES 32
#include "tb_nic_stream.h"

static uint32_t rnd() { return tb_rnd(); }

static const uint32_t kFp32Corner[] = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00000,
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x3F800000, 0xBF800000, 0x33800000, 0x33800001, 0xB3800000, 0x4B800000, 0x00400000, 0x3F800001,
};
static const uint16_t kBf16Corner[] = {
    0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFA0, 0x0001, 0x8001, 0x007F, 0x807F,
    0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F81, 0xBF81, 0x3B80, 0x3B81, 0x3C00, 0x4000,
    0x4300, 0x4301, 0xC300, 0x3780, 0x0040, 0x7F00,
};

// a random operand: random bits, or near the exponent of `near` (sums that cancel and round)
static uint32_t rand_fp32(uint32_t near) {
  switch (rnd() % 4) {
    case 0: return rnd();
    case 1: return kFp32Corner[rnd() % (sizeof kFp32Corner / 4)];
    default: {
      int e = (int)((near >> 23) & 0xFF) + (int)(rnd() % 9) - 4;
      if (e < 0) e = 0;
      if (e > 254) e = 254;
      return (rnd() & 0x80000000u) | (uint32_t)e << 23 | (rnd() & 0x7FFFFFu);
    }
  }
}
static uint16_t rand_bf16(uint16_t near) { return (uint16_t)(rand_fp32((uint32_t)near << 16) >> 16); }

struct Beat {
  unsigned op, bf16;
  uint8_t dst[32], src[32];
  uint32_t strb;
  bool last;
};

static void golden(const Beat &b, uint8_t out[32]) {
  memcpy(out, b.dst, 32);
  roce_reduce(b.op, b.bf16 ? ROCE_RED_BF16 : ROCE_RED_FP32, out, b.src, 32);
}

// the golden functions against independent references
static bool check_golden(unsigned &n) {
  bool ok = true;
  n = 0;
  for (int i = 0; i < 200000; i++) {
    uint32_t a = rand_fp32(0x3F800000), b = rand_fp32(a);
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    volatile float fs = fa + fb;
    uint32_t s;
    float fsv = fs;
    memcpy(&s, &fsv, 4);
    if (std::isnan(fsv)) s = 0x7FC00000u;
    uint32_t g = roce_red_fp32(ROCE_RED_SUM, a, b);
    if (g != s) {
      if (ok) printf("  golden FP32 sum 0x%08X + 0x%08X = 0x%08X, host float 0x%08X\n", a, b, g, s);
      ok = false;
    }
    // BF16: the add-and-truncate rounding of the host's FP32 sum of the widened operands
    uint16_t ha = (uint16_t)(a >> 16), hb = (uint16_t)(b >> 16);
    uint32_t wa = (uint32_t)ha << 16, wb = (uint32_t)hb << 16;
    memcpy(&fa, &wa, 4);
    memcpy(&fb, &wb, 4);
    fs = fa + fb;
    fsv = fs;
    memcpy(&s, &fsv, 4);
    uint16_t want = std::isnan(fsv) ? 0x7FC0 : (uint16_t)((s + 0x7FFFu + ((s >> 16) & 1u)) >> 16);
    uint16_t gb = roce_red_bf16(ROCE_RED_SUM, ha, hb);
    if (gb != want) {
      if (ok) printf("  golden BF16 sum 0x%04X + 0x%04X = 0x%04X, host float 0x%04X\n", ha, hb, gb, want);
      ok = false;
    }
    // min / max against the host's ordered compare (NaN -> canonical, -0 below +0)
    for (unsigned op = ROCE_RED_MIN; op <= ROCE_RED_MAX; op++) {
      uint32_t w;
      memcpy(&fa, &a, 4);
      memcpy(&fb, &b, 4);
      if (std::isnan(fa) || std::isnan(fb)) w = 0x7FC00000u;
      else if (fa == fb && fa == 0.0f) w = ((op == ROCE_RED_MIN ? a | b : a & b) >> 31) ? 0x80000000u : 0u;
      else w = (op == ROCE_RED_MIN) == (fb < fa) ? b : a;
      if (roce_red_fp32(op, a, b) != w) {
        if (ok) printf("  golden %s 0x%08X 0x%08X = 0x%08X, host 0x%08X\n", op == ROCE_RED_MIN ? "min" : "max", a, b,
                       roce_red_fp32(op, a, b), w);
        ok = false;
      }
    }
    n++;
  }
  return ok;
}

// run the beats through the unit; count mismatches per (op, type)
static bool run_beats(const std::vector<Beat> &beats, const char *name, unsigned valid_pm, unsigned ready_pm) {
  TbStream<Vtessera_nic_reduce> env;
  env.dut.rst_ni = 0;
  env.dut.in_valid_i = 0;
  env.dut.out_ready_i = 0;
  env.tick();
  env.dut.rst_ni = 1;
  env.tick();
  size_t in = 0, out = 0, bad = 0;
  uint64_t limit = beats.size() * 20 + 100;
  unsigned lanes_bad[4][2] = {};
  while (out < beats.size() && env.cycles < limit) {
    bool v = in < beats.size() && rnd() % 1000 < valid_pm;
    bool r = rnd() % 1000 < ready_pm;
    env.dut.clk_i = 0;
    env.dut.in_valid_i = v;
    env.dut.out_ready_i = r;
    if (v) {
      const Beat &b = beats[in];
      env.dut.op_i = b.op;
      env.dut.bf16_i = b.bf16;
      for (int w = 0; w < 8; w++) {
        uint32_t d = 0, s = 0;
        for (int k = 3; k >= 0; k--) {
          d = d << 8 | b.dst[4 * w + k];
          s = s << 8 | b.src[4 * w + k];
        }
        env.dut.dst_i[w] = d;
        env.dut.src_i[w] = s;
      }
      env.dut.strb_i = b.strb;
      env.dut.last_i = b.last;
    }
    env.dut.eval();
    bool in_hs = v && env.dut.in_ready_o;
    if (env.dut.out_valid_o && r) {
      const Beat &b = beats[out];
      uint8_t want[32], got[32];
      golden(b, want);
      for (int w = 0; w < 8; w++)
        for (int k = 0; k < 4; k++) got[4 * w + k] = (uint8_t)(env.dut.out_data_o[w] >> (8 * k));
      bool beat_bad = memcmp(got, want, 32) != 0 || env.dut.out_strb_o != b.strb || env.dut.out_last_o != b.last;
      if (beat_bad) {
        if (bad < 4) {
          unsigned eb = b.bf16 ? 2 : 4;
          for (unsigned i = 0; i < 32; i += eb) {
            if (memcmp(got + i, want + i, eb)) {
              uint32_t d = 0, s = 0, g = 0, x = 0;
              for (int k = (int)eb - 1; k >= 0; k--) {
                d = d << 8 | b.dst[i + k];
                s = s << 8 | b.src[i + k];
                g = g << 8 | got[i + k];
                x = x << 8 | want[i + k];
              }
              printf("  %s op %u %s lane %u: dst 0x%X src 0x%X -> RTL 0x%X, golden 0x%X\n", name, b.op,
                     b.bf16 ? "bf16" : "fp32", i / eb, d, s, g, x);
              break;
            }
          }
          if (env.dut.out_strb_o != b.strb || env.dut.out_last_o != b.last) printf("  %s: strobes or last differ\n", name);
        }
        bad++;
        lanes_bad[b.op][b.bf16]++;
      }
      out++;
    }
    env.dut.clk_i = 1;
    env.dut.eval();
    env.cycles++;
    if (in_hs) in++;
  }
  bool ok = bad == 0 && out == beats.size();
  printf("%s %s: %zu beats (%s), %zu differ", ok ? "ok  " : "FAIL", name, beats.size(),
         valid_pm == 1000 && ready_pm == 1000 ? "back to back" : "random valid and ready", bad);
  if (bad) {
    for (unsigned op = 0; op < 4; op++)
      for (unsigned t = 0; t < 2; t++)
        if (lanes_bad[op][t]) printf("; op %u %s: %u", op, t ? "bf16" : "fp32", lanes_bad[op][t]);
  }
  printf(", %" PRIu64 " cycles\n", env.cycles);
  return ok;
}

static void put(uint8_t *p, uint32_t v, unsigned bytes) {
  for (unsigned k = 0; k < bytes; k++) p[k] = (uint8_t)(v >> (8 * k));
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  if (const char *e = getenv("SEED")) seed = strtoull(e, nullptr, 0);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
  printf("tb_nic_reduce: seed %" PRIu64 "\n", seed);
  tb_seed(seed);
  unsigned pass = 0, fail = 0;

  unsigned n = 0;
  bool g = check_golden(n);
  printf("%s golden: %u random FP32 pairs: sum = host float, BF16 sum = host float + RNE rule, min/max = host "
         "compare\n", g ? "ok  " : "FAIL", n);
  (g ? pass : fail)++;

  for (unsigned bf = 0; bf < 2; bf++) {
    for (unsigned op = 0; op < 4; op++) {
      static const char *opn[] = {"copy", "sum", "min", "max"};
      char name[64];
      // every corner case against every corner case (both orders), then random operands
      std::vector<Beat> beats;
      unsigned eb = bf ? 2 : 4, lanes = 32 / eb;
      size_t nc = bf ? sizeof kBf16Corner / 2 : sizeof kFp32Corner / 4;
      std::vector<std::pair<uint32_t, uint32_t>> pairs;
      for (size_t i = 0; i < nc; i++)
        for (size_t j = 0; j < nc; j++)
          pairs.push_back(bf ? std::make_pair((uint32_t)kBf16Corner[i], (uint32_t)kBf16Corner[j])
                             : std::make_pair(kFp32Corner[i], kFp32Corner[j]));
      if (bf) {   // BF16 rounding ties: FP32 sums whose low 16 bits are exactly 0x8000, kept bit even and odd
        for (uint32_t m = 0; m < 128; m++) {
          uint16_t big = (uint16_t)(0x4300 | m);       // 128 + m: BF16 spacing 1 at 2^7
          pairs.push_back({big, 0x3F00});              // + 0.5: exact tie, rounds to even
          pairs.push_back({big, 0xBF00});              // - 0.5
          pairs.push_back({big, 0x3E80});              // + 0.25: below the tie
          pairs.push_back({big, 0x3F40});              // + 0.75: above the tie
        }
      }
      size_t i = 0;
      while (i < pairs.size()) {
        Beat b;
        b.op = op;
        b.bf16 = bf;
        for (unsigned l = 0; l < lanes; l++, i++) {
          auto p = pairs[i % pairs.size()];
          put(b.dst + eb * l, p.first, eb);
          put(b.src + eb * l, p.second, eb);
        }
        b.strb = rnd() % 4 ? 0xFFFFFFFFu : rnd();
        b.last = rnd() % 8 == 0;
        beats.push_back(b);
      }
      size_t ncorner = beats.size();
      for (int k = 0; k < 3000; k++) {
        Beat b;
        b.op = op;
        b.bf16 = bf;
        for (unsigned l = 0; l < lanes; l++) {
          uint32_t d = bf ? rand_bf16(0x3F80) : rand_fp32(0x3F800000);
          uint32_t s = bf ? rand_bf16((uint16_t)d) : rand_fp32(d);
          put(b.dst + eb * l, d, eb);
          put(b.src + eb * l, s, eb);
        }
        b.strb = rnd() % 4 ? 0xFFFFFFFFu : rnd();
        b.last = rnd() % 8 == 0;
        beats.push_back(b);
      }
      snprintf(name, sizeof name, "%s-%s (%zu corner-case beats)", opn[op], bf ? "bf16" : "fp32", ncorner);
      (run_beats(beats, name, 700, 700) ? pass : fail)++;
    }
  }
  // mixed ops and types beat by beat, back to back (full rate: one beat a cycle)
  {
    std::vector<Beat> beats;
    for (int k = 0; k < 4000; k++) {
      Beat b;
      b.op = rnd() % 4;
      b.bf16 = rnd() % 2;
      for (unsigned l = 0; l < 8; l++) {
        uint32_t d = rand_fp32(0x3F800000), s = rand_fp32(d);
        if (b.bf16) {
          put(b.dst + 4 * l, (d >> 16) | (d & 0xFFFF0000u), 4);
          put(b.src + 4 * l, (s >> 16) | (s & 0xFFFF0000u), 4);
        } else {
          put(b.dst + 4 * l, d, 4);
          put(b.src + 4 * l, s, 4);
        }
      }
      b.strb = rnd();
      b.last = rnd() % 2;
      beats.push_back(b);
    }
    bool ok = run_beats(beats, "mixed-ops-full-rate", 1000, 1000);
    (ok ? pass : fail)++;
  }
  printf("%u passed, %u failed\n", pass, fail);
  return fail != 0;
}
