// Verilator testbench of the L2 router (tessera_l2_router, N = 4 masters/slices).
//
//   Vtessera_l2_router [--seed N] [--seeds K] [--cycles N] [--bench]
//
// Four random AXI masters (reads and writes, bursts of 1..16 beats, W may lead AW) and four
// random slave ports that answer their bursts in acceptance order (like an L2 slice port)
// with random latencies, under random back-pressure on every channel. Phases alternate
// private mode (k = 0) and shared mode (k = 1, 2), switched when idle.
// Scoreboard: a slave checks that each AW/AR reached the slice its address maps to and that
// each W beat carries the data of its burst and beat; a master checks that every R beat and
// B comes back in request order from the right slice with the right data. Private mode is
// also checked for zero added latency (R and B valid/ready pass through in the same cycle).
// A run without any handshake for 20000 cycles, or over its cycle limit, fails with a dump.
// Output ends with "N passed, M failed".
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <type_traits>

#include "Vtessera_l2_router.h"
#include "verilated.h"
#include "../../framework/bench_rec.h"
#include "../../framework/tf_seed.h"

static constexpr int kN = 4;
static constexpr unsigned kAxW = 28, kWW = 32, kRW = 40, kBW = 8, kLenLsb = 16;

static uint64_t g_rng;
static uint64_t rnd() {  // splitmix64
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t rndn(uint32_t n) { return n ? uint32_t(rnd() % n) : 0; }
static bool chance(unsigned pct) { return rndn(100) < pct; }

template <typename T>
static void put(T& s, unsigned lsb, unsigned w, uint64_t v) {
  for (unsigned i = 0; i < w; ++i) {
    const unsigned b = lsb + i;
    const uint64_t bit = (v >> i) & 1u;
    if constexpr (std::is_integral<T>::value) {
      s = T((s & ~(T(1) << b)) | (T(bit) << b));
    } else {
      s[b / 32] = (s[b / 32] & ~(1u << (b % 32))) | (uint32_t(bit) << (b % 32));
    }
  }
}
template <typename T>
static uint64_t get(const T& s, unsigned lsb, unsigned w) {
  uint64_t v = 0;
  for (unsigned i = 0; i < w; ++i) {
    const unsigned b = lsb + i;
    uint64_t bit;
    if constexpr (std::is_integral<T>::value) bit = (uint64_t(s) >> b) & 1u;
    else bit = (s[b / 32] >> (b % 32)) & 1u;
    v |= bit << i;
  }
  return v;
}

static uint32_t hash32(uint32_t a, uint32_t b) {
  uint64_t x = (uint64_t(a) << 32 | b) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return uint32_t(x ^ (x >> 32));
}
static uint64_t r_data(int s, uint32_t addr, int beat) {
  return (uint64_t(s) << 36) | (uint64_t(beat & 15) << 32) | hash32(addr, uint32_t(beat));
}
static uint32_t w_data(uint32_t addr, int beat) { return hash32(addr ^ 0x5A5A5A5Au, uint32_t(beat)); }
static uint32_t b_data(int s, uint32_t addr) { return uint32_t(s << 6) | (hash32(addr, 99) & 0x3Fu); }

struct Burst {
  uint32_t addr = 0;
  int len = 0;  // beats - 1
  int tgt = 0;  // slice it must reach
  uint64_t t = 0;  // slave: cycle from which it may answer
};

struct Master {
  bool ar_v = false, aw_v = false, w_hold = false;
  Burst ar, aw;
  std::deque<Burst> rd_exp, w_q, b_exp;
  int rbeat = 0, wbeat = 0;
  unsigned rd_left = 0, wr_left = 0;
  uint32_t seq = 0;
};
struct Slave {
  std::deque<Burst> ar_q, aw_q, b_q;
  int rbeat = 0, wbeat = 0;
  bool r_hold = false, b_hold = false;
};

static int g_errors;
#define CHECK(c, ...)                                            \
  do {                                                           \
    if (!(c)) {                                                  \
      if (g_errors++ < 10) {                                     \
        printf("  cycle %" PRIu64 ": ", cyc);                    \
        printf(__VA_ARGS__);                                     \
        printf("\n");                                            \
      }                                                          \
    }                                                            \
  } while (0)

// One seed: `phases` phases of `bursts` reads and writes per master. Bench: master 0 alone
// streams 8-beat reads and writes over the slices (no back-pressure, every slice answers
// 40 cycles after accepting a burst); reported: R and W beats per cycle per mode.
static bool run(uint64_t seed, uint64_t max_cycles, bool bench) {
  g_rng = seed * 0x9E3779B97F4A7C15ull + 7;
  g_errors = 0;
  VerilatedContext ctx;
  Vtessera_l2_router d(&ctx);
  Master m[kN];
  Slave s[kN];
  uint64_t cyc = 0, last_progress = 0;
  unsigned k = 0;
  unsigned p_arv = 50, p_awv = 50, p_wv = 50, p_rr = 50, p_br = 50;  // master side
  unsigned p_ar = 50, p_aw = 50, p_w = 50, p_rv = 50, p_bv = 50, lat = 20, maxout = 8;
  const unsigned phases = bench ? 3 : 6, bursts = 300;
  unsigned long long beats = 0;

  d.clk_i = 0;
  d.rst_ni = 0;
  d.slices_log2_i = 0;
  d.eval();
  d.clk_i = 1;
  d.eval();
  d.clk_i = 0;
  d.rst_ni = 1;
  d.eval();

  auto new_burst = [&](int mi, bool rd) {
    Master& mm = m[mi];
    Burst b;
    const uint32_t gran = rndn(kN);
    b.addr = (uint32_t(mi) << 28) | ((mm.seq++ & 0xFFFFu) << 12) | (rndn(4) << 10) | (gran << 8) |
             (rndn(8) << 5);
    // mostly engine-like bursts (<= 8 beats), sometimes longer ones (pass-through path)
    b.len = bench ? 7 : chance(8) ? 8 + int(rndn(8)) : int(rndn(8));
    b.tgt = k ? int(gran & ((1u << k) - 1u)) : mi;
    (void)rd;
    return b;
  };
  auto pick = [](unsigned choice) -> unsigned {
    static const unsigned p[] = {10, 40, 80, 100};
    return p[choice % 4];
  };

  for (unsigned ph = 0; ph < phases && g_errors == 0; ++ph) {
    k = ph % 3;  // private, shared 2 slices, shared 4 slices
    d.slices_log2_i = k;
    p_arv = pick(rndn(4)); p_awv = pick(rndn(4)); p_wv = pick(rndn(4));
    p_rr = pick(rndn(4)); p_br = pick(rndn(4)); p_ar = pick(rndn(4)); p_aw = pick(rndn(4));
    p_w = pick(rndn(4)); p_rv = pick(rndn(4)); p_bv = pick(rndn(4));
    lat = rndn(40);
    maxout = 1 + rndn(10);
    if (bench) p_arv = p_awv = p_wv = p_rr = p_br = p_ar = p_aw = p_w = p_rv = p_bv = 100, maxout = 16;
    for (int i = 0; i < kN; ++i) {
      m[i].rd_left = bench && i ? 0 : bursts;
      m[i].wr_left = bench && i ? 0 : bursts;
    }
    const uint64_t c0 = cyc;
    const unsigned long long b0 = beats;
    for (;;) {
      bool busy = false;
      for (int i = 0; i < kN; ++i) {
        Master& mm = m[i];
        busy |= mm.rd_left || mm.wr_left || mm.ar_v || mm.aw_v || !mm.rd_exp.empty() ||
                !mm.w_q.empty() || !mm.b_exp.empty();
        busy |= !s[i].ar_q.empty() || !s[i].aw_q.empty() || !s[i].b_q.empty();
      }
      if (!busy) {
        if (bench)
          printf("ROUTERBENCH %s k=%u: master 0 streams %u reads + %u writes of 8 beats: %" PRIu64
                 " cycles, %.3f R beats/cycle, %.3f W beats/cycle\n",
                 k ? "shared " : "private", k, bursts, bursts, cyc - c0, double(beats - b0) / double(cyc - c0),
                 8.0 * bursts / double(cyc - c0));
        if (bench) {
          char name[64];
          snprintf(name, sizeof name, "l2_router/%s_k%u", k ? "shared" : "private", k);
          bench_record(name, nullptr, double(cyc - c0), 8.0 * bursts,
                       "\"bursts\":%u,\"r_beats_per_cycle\":%.3f,\"w_beats_per_cycle\":%.3f", bursts,
                       double(beats - b0) / double(cyc - c0), 8.0 * bursts / double(cyc - c0));
        }
        break;
      }
      if (cyc > max_cycles || cyc - last_progress > 20000) {
        printf("  stuck at cycle %" PRIu64 " (phase %u, k %u, last progress %" PRIu64 ")\n", cyc, ph, k,
               last_progress);
        for (int i = 0; i < kN; ++i)
          printf("  master %d: rd left %u exp %zu, wr left %u w_q %zu b_exp %zu | slave %d: ar %zu aw %zu b %zu\n",
                 i, m[i].rd_left, m[i].rd_exp.size(), m[i].wr_left, m[i].w_q.size(), m[i].b_exp.size(), i,
                 s[i].ar_q.size(), s[i].aw_q.size(), s[i].b_q.size());
        return false;
      }
      // ------------------------------------------------ drive inputs
      d.m_arvalid_i = d.m_awvalid_i = d.m_wvalid_i = d.m_wlast_i = d.m_rready_i = d.m_bready_i = 0;
      d.s_arready_i = d.s_awready_i = d.s_wready_i = d.s_rvalid_i = d.s_rlast_i = d.s_bvalid_i = 0;
      for (int i = 0; i < kN; ++i) {
        Master& mm = m[i];
        if (!mm.ar_v && mm.rd_left && chance(p_arv)) {
          mm.ar = new_burst(i, true);
          mm.ar_v = true;
        }
        if (!mm.aw_v && mm.wr_left && chance(p_awv)) {
          mm.aw = new_burst(i, false);
          mm.aw_v = true;
          mm.w_q.push_back(mm.aw);  // W may be offered before the AW is accepted
        }
        if (mm.ar_v) {
          put(d.m_arvalid_i, i, 1, 1);
          put(d.m_araddr_i, 32 * i, 32, mm.ar.addr);
          put(d.m_ar_i, kAxW * i, kAxW, (uint64_t(i) << 24) | (uint64_t(mm.ar.len) << kLenLsb) | 0x5A5Au);
        }
        if (mm.aw_v) {
          put(d.m_awvalid_i, i, 1, 1);
          put(d.m_awaddr_i, 32 * i, 32, mm.aw.addr);
          put(d.m_aw_i, kAxW * i, kAxW, (uint64_t(i) << 24) | (uint64_t(mm.aw.len) << kLenLsb) | 0x1234u);
        }
        if (!mm.w_q.empty() && (mm.w_hold || chance(p_wv))) {
          const Burst& b = mm.w_q.front();
          put(d.m_wvalid_i, i, 1, 1);
          put(d.m_wlast_i, i, 1, mm.wbeat == b.len);
          put(d.m_w_i, kWW * i, kWW, w_data(b.addr, mm.wbeat));
        }
        put(d.m_rready_i, i, 1, chance(p_rr));
        put(d.m_bready_i, i, 1, chance(p_br));

        Slave& ss = s[i];
        put(d.s_arready_i, i, 1, ss.ar_q.size() < maxout && chance(p_ar));
        put(d.s_awready_i, i, 1, ss.aw_q.size() < maxout && chance(p_aw));
        put(d.s_wready_i, i, 1, chance(p_w));
        if (!ss.ar_q.empty() && ss.ar_q.front().t <= cyc && (ss.r_hold || chance(p_rv))) {
          const Burst& b = ss.ar_q.front();
          put(d.s_rvalid_i, i, 1, 1);
          put(d.s_rlast_i, i, 1, ss.rbeat == b.len);
          put(d.s_r_i, kRW * i, kRW, r_data(i, b.addr, ss.rbeat));
        }
        if (!ss.b_q.empty() && ss.b_q.front().t <= cyc && (ss.b_hold || chance(p_bv))) {
          put(d.s_bvalid_i, i, 1, 1);
          put(d.s_b_i, kBW * i, kBW, b_data(i, ss.b_q.front().addr));
        }
      }
      d.eval();
      // ------------------------------------------------ handshakes
      bool prog = false;
      for (int i = 0; i < kN; ++i) {
        Slave& ss = s[i];
        if (get(d.s_arvalid_o, i, 1) && get(d.s_arready_i, i, 1)) {
          Burst b;
          b.addr = uint32_t(get(d.s_araddr_o, 32 * i, 32));
          b.len = int(get(d.s_ar_o, kAxW * i + kLenLsb, 8));
          b.t = bench ? cyc + 40 : cyc + 1 + rndn(lat + 1);
          const int mi = int(b.addr >> 28);
          CHECK((k ? int((b.addr >> 8) & ((1u << k) - 1u)) : mi) == i, "AR 0x%08x at slice %d", b.addr, i);
          CHECK(get(d.s_ar_o, kAxW * i, kAxW) == ((uint64_t(mi) << 24) | (uint64_t(b.len) << kLenLsb) | 0x5A5Au),
                "AR payload at slice %d", i);
          ss.ar_q.push_back(b);
          prog = true;
        }
        if (get(d.s_awvalid_o, i, 1) && get(d.s_awready_i, i, 1)) {
          Burst b;
          b.addr = uint32_t(get(d.s_awaddr_o, 32 * i, 32));
          b.len = int(get(d.s_aw_o, kAxW * i + kLenLsb, 8));
          const int mi = int(b.addr >> 28);
          CHECK((k ? int((b.addr >> 8) & ((1u << k) - 1u)) : mi) == i, "AW 0x%08x at slice %d", b.addr, i);
          ss.aw_q.push_back(b);
          prog = true;
        }
        if (get(d.s_wvalid_o, i, 1) && get(d.s_wready_i, i, 1)) {
          CHECK(!ss.aw_q.empty(), "W beat at slice %d before its AW", i);
          if (!ss.aw_q.empty()) {
            const Burst& b = ss.aw_q.front();
            CHECK(get(d.s_w_o, kWW * i, kWW) == w_data(b.addr, ss.wbeat), "slice %d: W beat %d of 0x%08x wrong data",
                  i, ss.wbeat, b.addr);
            const bool last = get(d.s_wlast_o, i, 1);
            CHECK(last == (ss.wbeat == b.len), "slice %d: wlast %d at beat %d of %d", i, last, ss.wbeat, b.len);
            if (ss.wbeat == b.len || last) {
              Burst r = b;
              r.t = bench ? cyc + 40 : cyc + 1 + rndn(lat + 1);
              ss.b_q.push_back(r);
              ss.aw_q.pop_front();
              ss.wbeat = 0;
            } else {
              ss.wbeat++;
            }
          }
          prog = true;
        }
        const bool rv = get(d.s_rvalid_i, i, 1), rr = get(d.s_rready_o, i, 1);
        if (k == 0) CHECK(rr == get(d.m_rready_i, i, 1) || !rv, "private mode: slice %d rready not passed through", i);
        if (k == 0) CHECK(rv == get(d.m_rvalid_o, i, 1), "private mode: slice %d rvalid not passed through", i);
        ss.r_hold = rv && !rr;
        if (rv && rr) {
          if (ss.rbeat == ss.ar_q.front().len) {
            ss.ar_q.pop_front();
            ss.rbeat = 0;
          } else {
            ss.rbeat++;
          }
          prog = true;
        }
        const bool bv = get(d.s_bvalid_i, i, 1), br = get(d.s_bready_o, i, 1);
        if (k == 0) CHECK(bv == get(d.m_bvalid_o, i, 1), "private mode: slice %d bvalid not passed through", i);
        ss.b_hold = bv && !br;
        if (bv && br) {
          ss.b_q.pop_front();
          prog = true;
        }
      }
      for (int i = 0; i < kN; ++i) {
        Master& mm = m[i];
        if (mm.ar_v && get(d.m_arready_o, i, 1)) {
          mm.rd_exp.push_back(mm.ar);
          mm.ar_v = false;
          mm.rd_left--;
          prog = true;
        }
        if (mm.aw_v && get(d.m_awready_o, i, 1)) {
          mm.b_exp.push_back(mm.aw);
          mm.aw_v = false;
          mm.wr_left--;
          prog = true;
        }
        const bool wv = get(d.m_wvalid_i, i, 1);
        mm.w_hold = wv && !get(d.m_wready_o, i, 1);
        if (wv && get(d.m_wready_o, i, 1)) {
          if (mm.wbeat == mm.w_q.front().len) {
            mm.w_q.pop_front();
            mm.wbeat = 0;
          } else {
            mm.wbeat++;
          }
          prog = true;
        }
        if (get(d.m_rvalid_o, i, 1) && get(d.m_rready_i, i, 1)) {
          CHECK(!mm.rd_exp.empty(), "master %d: R beat without a read in flight", i);
          if (!mm.rd_exp.empty()) {
            const Burst& b = mm.rd_exp.front();
            const uint64_t got = get(d.m_r_o, kRW * i, kRW), want = r_data(b.tgt, b.addr, mm.rbeat);
            CHECK(got == want, "master %d: R beat %d of 0x%08x: 0x%010" PRIx64 ", want 0x%010" PRIx64 " (slice %d)", i,
                  mm.rbeat, b.addr, got, want, b.tgt);
            const bool last = get(d.m_rlast_o, i, 1);
            CHECK(last == (mm.rbeat == b.len), "master %d: rlast %d at beat %d of %d", i, last, mm.rbeat, b.len);
            beats++;
            if (last || mm.rbeat == b.len) {
              mm.rd_exp.pop_front();
              mm.rbeat = 0;
            } else {
              mm.rbeat++;
            }
          }
          prog = true;
        }
        if (get(d.m_bvalid_o, i, 1) && get(d.m_bready_i, i, 1)) {
          CHECK(!mm.b_exp.empty(), "master %d: B without a write in flight", i);
          if (!mm.b_exp.empty()) {
            const Burst& b = mm.b_exp.front();
            CHECK(get(d.m_b_o, kBW * i, kBW) == b_data(b.tgt, b.addr), "master %d: B of 0x%08x: 0x%02x, want 0x%02x",
                  i, b.addr, unsigned(get(d.m_b_o, kBW * i, kBW)), b_data(b.tgt, b.addr));
            mm.b_exp.pop_front();
          }
          prog = true;
        }
      }
      if (prog) last_progress = cyc;
      if (g_errors) {
        printf("  (phase %u, k %u)\n", ph, k);
        return false;
      }
      d.clk_i = 1;
      d.eval();
      d.clk_i = 0;
      d.eval();
      cyc++;
    }
  }
  printf("  %u phases, %llu R beats, %" PRIu64 " cycles\n", phases, beats, cyc);
  return g_errors == 0;
}

int main(int argc, char** argv) {
  uint64_t seed = 1, max_cycles = 2000000;
  unsigned seeds = 1;
  bool bench = false;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = unsigned(strtoul(argv[++i], nullptr, 0));
    else if (!strcmp(argv[i], "--bench")) bench = true;
    else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) max_cycles = strtoull(argv[++i], nullptr, 0);
    else {
      fprintf(stderr, "usage: %s [--seed N] [--seeds K] [--cycles N] [--bench]\n", argv[0]);
      return 2;
    }
  }
  unsigned pass = 0, fail = 0;
  for (unsigned i = 0; i < seeds; ++i) {
    const uint64_t sd = seed + i;
    printf("router_tb: seed %" PRIu64 " (reproduce with --seed %" PRIu64 ")\n", sd, sd);
    if (run(sd, max_cycles, bench)) {
      printf("[ PASS ] router random seed %" PRIu64 "\n", sd);
      pass++;
    } else {
      printf("[ FAIL ] router random seed %" PRIu64 "\n", sd);
      fail++;
    }
  }
  printf("%u passed, %u failed\n", pass, fail);
  return fail ? 1 : 0;
}
