// Verilator testbench of one L2 cache slice (tessera_l2).
//
//   Vtessera_l2 [--seed N] [--seeds K] [--cycles N] [--watch ADDR] [--bench]
//
// Three random AXI masters drive the slice's upstream ports; the downstream port talks to
// the shared AXI memory model (sim/src/axi_mem_model). A byte-level reference model checks
// every read value and, after a final FLUSH, the whole memory image. Directed tests cover
// corner cases (same line from two masters, dirty eviction under load, discard semantics,
// error propagation, maintenance refusal, shared mode, counters, completion message).
// Every simulation has a cycle limit and ends a stuck run with a diagnostic.
// Output ends with "N passed, M failed".
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtessera_l2.h"
#include "verilated.h"
#include "axi_mem_model.h"
#include "../../bsp/include/regs/l2_regs.h"
#include "../framework/bench_rec.h"
#include <cstddef>
#include <array>
#include "../framework/tf_seed.h"
#define REG(n) uint32_t(offsetof(l2_t, n))

#ifndef L2_BANKS  /* the slice's NumBanks (from mk/l2.mk) */
#define L2_BANKS 4
#endif
#ifndef L2_RD_MASTERS  /* downstream masters carrying reads (the slice's RdMasters, from mk/l2.mk) */
#define L2_RD_MASTERS 1
#endif
#ifndef L2_MID_BITS  /* downstream ID bits of the slice (the chip's axi_id_bits, from mk/l2.mk) */
#define L2_MID_BITS 4
#endif
static const int kMIds = 1 << L2_MID_BITS;  /* downstream read IDs: 2 per port + read-ahead MSHRs */
#ifndef L2_SIZE
#define L2_SIZE 65536
#endif

using tessera::AxiMemConfig;
using tessera::AxiMemModel;
using tessera::AxiMemPort;

static constexpr int kPorts = 3;
static constexpr int kWays = 8;
static constexpr uint32_t kMemBase = 0x80000000u;
static constexpr uint32_t kLine = 64;

// ---------------------------------------------------------------- random
static uint64_t g_rng;
static uint64_t rnd() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}
static uint32_t rndn(uint32_t n) { return n ? uint32_t(rnd() % n) : 0; }
static bool chance(unsigned pct) { return rndn(100) < pct; }

// ---------------------------------------------------------------- signal helpers
template <typename T>
static void put(T& s, unsigned lsb, unsigned w, uint64_t v) {
  if constexpr (std::is_integral<T>::value) {
    const uint64_t m = (w >= 64 ? ~0ull : ((1ull << w) - 1)) << lsb;
    s = T((uint64_t(s) & ~m) | ((v << lsb) & m));
  } else {
    for (unsigned i = 0; i < w; ++i) {
      const unsigned b = lsb + i;
      if ((v >> i) & 1) s[b / 32] |= (1u << (b % 32));
      else s[b / 32] &= ~(1u << (b % 32));
    }
  }
}
template <typename T>
static uint64_t get(const T& s, unsigned lsb, unsigned w) {
  if constexpr (std::is_integral<T>::value) {
    return (uint64_t(s) >> lsb) & (w >= 64 ? ~0ull : ((1ull << w) - 1));
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < w; ++i) {
      const unsigned b = lsb + i;
      v |= uint64_t((s[b / 32] >> (b % 32)) & 1) << i;
    }
    return v;
  }
}
// 32-byte beat of a wide bus at beat slot `slot`
template <typename T>
static void put_beat(T& s, unsigned slot, const uint8_t* d) {
  for (int i = 0; i < 8; ++i)
    s[slot * 8 + i] = uint32_t(d[4 * i]) | uint32_t(d[4 * i + 1]) << 8 |
                      uint32_t(d[4 * i + 2]) << 16 | uint32_t(d[4 * i + 3]) << 24;
}
template <typename T>
static void get_beat(const T& s, unsigned slot, uint8_t* d) {
  for (int i = 0; i < 8; ++i) {
    const uint32_t w = s[slot * 8 + i];
    for (int k = 0; k < 4; ++k) d[4 * i + k] = uint8_t(w >> (8 * k));
  }
}

// ---------------------------------------------------------------- test bookkeeping
static int g_pass = 0, g_fail = 0;
static bool g_verbose = false;
static bool g_hash = false;   // CTRL.set_hash in every bench (second pass of the tests)
// CTRL value: class weight w, and set_hash as the current pass has it
static uint32_t ctrl_bits(uint32_t w) {
  return (w << L2__CTRL__CLASS_WEIGHT_bp) | (g_hash ? uint32_t(L2__CTRL__SET_HASH_bm) : 0u);
}
static bool g_trace = false;  // --trace: print every downstream AR
static uint32_t g_watch = 0;  // --watch ADDR: trace every event on this 64-byte line
static int g_errors_this_test = 0;
static void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (g_errors_this_test < 10) {
    fprintf(stdout, "  ERROR: ");
    vfprintf(stdout, fmt, ap);
    fprintf(stdout, "\n");
  }
  va_end(ap);
  ++g_errors_this_test;
}
#define CHECK(c, ...) do { if (!(c)) fail(__VA_ARGS__); } while (0)

// ---------------------------------------------------------------- reference memory
// Only the owner of a byte writes it (owner = (addr >> 2) % kPorts), so each byte has a
// linear history of values. A read may return any version from the one committed (B
// received) before the read was issued up to the newest issued.
struct ByteHist {
  std::vector<uint8_t> v;  // v[0] = initial memory contents
  uint32_t committed = 0;  // index of the newest version whose write got its B
};
struct Region {
  uint32_t base, size;
  std::vector<ByteHist> h;
  std::vector<uint8_t> upw;  // byte written by an upstream write (may be written back)
};
static uint8_t init_byte(uint32_t a) { return uint8_t((a * 2654435761u) >> 11) ^ uint8_t(a >> 13); }
static int owner_of(uint32_t a) { return int((a >> 2) % kPorts); }

// ---------------------------------------------------------------- transactions
struct Txn {
  bool write = false;
  uint32_t addr = 0;
  int len = 1;  // beats
  uint8_t cache = 0, qos = 0;
  uint8_t id = 0;
  uint8_t expect_resp = 0;  // 0 OKAY, 3 DECERR
  bool check_data = true;
  std::vector<std::array<uint8_t, 32>> data;  // write data / read result
  std::vector<uint32_t> strb;
  std::vector<uint32_t> lo;  // read: committed version index per byte at issue
  std::vector<uint32_t> ver; // write: version index each strobed byte got at issue
  std::vector<uint8_t> rresp;
  uint64_t t_issue = 0, t_first = 0, t_done = 0;
  bool done = false;
  uint8_t bresp = 0;
};
using TxnP = std::shared_ptr<Txn>;

// A master keeps up to max_out transactions per direction in flight (AXI pipelining):
// AW/AR of the next one may go while earlier ones still move data.
struct Master {
  std::deque<TxnP> wq, rq;            // queued (address not yet accepted)
  std::deque<TxnP> w_fly, r_fly;      // address accepted, waiting for data / response
  unsigned max_out = 4;
  int w_beat = 0, r_beat = 0;         // beat index within w_fly[w_data_idx] / r_fly.front()
  size_t w_data_idx = 0;              // transaction whose W beats are being sent
  bool w_valid_now = false, aw_valid_now = false, ar_valid_now = false;
  uint64_t bytes = 0;
  unsigned rready_pct = 100, bready_pct = 100, wvalid_pct = 100;
};

// ---------------------------------------------------------------- the bench
struct Bench {
  std::unique_ptr<Vtessera_l2> top;
  std::unique_ptr<AxiMemModel> mem;
  AxiMemPort port;
#if L2_RD_MASTERS == 2
  // the slice's second, read-only master (read-ahead refills): its own channel model on
  // the same storage, so its bursts overtake or trail the first master's freely
  std::unique_ptr<AxiMemModel> mem1;
  AxiMemPort port1;
  uint64_t rd1_beats = 0, rd1_stalls = 0;  // R beats taken on it; cycles its R waited
#endif
  Master m[kPorts];
  std::vector<Region> regions;
  uint64_t cycle = 0, limit = 0;
  uint64_t msgs = 0;
  uint32_t last_msg_addr = 0, last_msg_data = 0;
  unsigned msg_ready_pct = 100;
  bool mem_frozen = false;  // downstream stops answering (hang-detection test)
  unsigned rd_out = 0, rd_out_max = 0;  // downstream read bursts in flight (AR accepted, R last not yet)
  uint64_t rd_beats = 0, wr_beats = 0;  // downstream R / W beats
  // occupancy: downstream read beats requested but not yet returned, summed per cycle
  uint64_t rd_beats_req = 0, rd_occ_sum = 0, rd_idle_cycles = 0;
  // byte-granular write-back check: downstream AW addresses (AWID 0, in order) and W beats
  std::deque<std::pair<uint32_t, unsigned>> ds_aw;  // address, beats
  std::deque<std::pair<uint32_t, bool>> ds_w;       // strobes, last
  unsigned ds_beat = 0;
  uint64_t ds_bytes = 0;  // bytes written downstream (strobes set)
  // APB state
  bool apb_busy = false;
  // R interleaver (off unless r_ilv): the memory answers bursts in order; with r_ilv the
  // bench takes its R beats into per-ID queues and presents them to the slice in a random
  // order across IDs (per ID in order, legal AXI), as a fabric with several channels may.
  // It mirrors the slice's refill-pair register (beat 0 of a read-ahead line held until its
  // beat 1) to count the refills written as one pair and the beats 0 that found the
  // register taken by another burst (written beat by beat).
  struct RBeat {
    uint32_t data[8];
    uint8_t resp;
    bool last;
  };
  bool r_ilv = false;
  std::deque<RBeat> ilv_q[1 << L2_MID_BITS];
  int ilv_hold = -1;
  unsigned ilv_par[1 << L2_MID_BITS] = {};
  uint64_t ilv_pairs = 0, ilv_singles = 0;

  Bench(unsigned latency, unsigned bpc) {
    top.reset(new Vtessera_l2);
    AxiMemConfig c;
    c.read_latency = latency;
    c.bytes_per_cycle = bpc;
    mem.reset(new AxiMemModel(c));
    mem->reset(port);
#if L2_RD_MASTERS == 2
    mem1.reset(new AxiMemModel(c, &mem->mem()));
    mem1->reset(port1);
#endif
    top->clk_i = 0;
    top->rst_ni = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->rst_ni = 1;
    top->eval();
    if (g_hash) wr(REG(CTRL), ctrl_bits(8));
  }

  Region* region_of(uint32_t a) {
    for (auto& r : regions)
      if (a >= r.base && a - r.base < r.size) return &r;
    return nullptr;
  }
  void add_region(uint32_t base, uint32_t size) {
    Region r;
    r.base = base;
    r.size = size;
    r.h.resize(size);
    r.upw.assign(size, 0);
    std::vector<uint8_t> buf(size);
    for (uint32_t i = 0; i < size; ++i) {
      buf[i] = init_byte(base + i);
      r.h[i].v.push_back(buf[i]);
    }
    mem->mem().write(base, buf.data(), size);
    regions.push_back(std::move(r));
  }

  // ---- diagnostics
  void diag(const char* why) {
    printf("  HANG/LIMIT at cycle %" PRIu64 ": %s\n", cycle, why);
    for (int p = 0; p < kPorts; ++p) {
      const Master& M = m[p];
      printf("  port %d: writes in flight %zu (oldest addr=%08x len=%d, W beat %d of txn %zu), "
             "queued %zu; reads in flight %zu (oldest addr=%08x len=%d, R beat %d), queued %zu\n",
             p, M.w_fly.size(), M.w_fly.empty() ? 0 : M.w_fly.front()->addr,
             M.w_fly.empty() ? 0 : M.w_fly.front()->len, M.w_beat, M.w_data_idx, M.wq.size(),
             M.r_fly.size(), M.r_fly.empty() ? 0 : M.r_fly.front()->addr,
             M.r_fly.empty() ? 0 : M.r_fly.front()->len, M.r_beat, M.rq.size());
    }
    printf("  downstream: arvalid=%d araddr=%08x awvalid=%d awaddr=%08x wvalid=%d mem idle=%d\n",
           top->m_axi_arvalid_o, top->m_axi_araddr_o, top->m_axi_awvalid_o,
           top->m_axi_awaddr_o, top->m_axi_wvalid_o, mem->idle());
  }

  // ---- one clock cycle
  void drive_masters() {
    for (int p = 0; p < kPorts; ++p) {
      Master& M = m[p];
      const Txn* w = (!M.wq.empty() && M.w_fly.size() < M.max_out) ? M.wq.front().get() : nullptr;
      M.aw_valid_now = w != nullptr;
      put(top->s_axi_awvalid_i, p, 1, M.aw_valid_now);
      put(top->s_axi_awid_i, p * 4, 4, w ? w->id : 0);
      put(top->s_axi_awaddr_i, p * 32, 32, w ? w->addr : 0);
      put(top->s_axi_awlen_i, p * 8, 8, w ? w->len - 1 : 0);
      put(top->s_axi_awsize_i, p * 3, 3, 5);
      put(top->s_axi_awburst_i, p * 2, 2, 1);
      put(top->s_axi_awcache_i, p * 4, 4, w ? w->cache : 0);
      put(top->s_axi_awprot_i, p * 3, 3, 0);
      put(top->s_axi_awqos_i, p * 4, 4, w ? w->qos : 0);
      const Txn* wd = M.w_data_idx < M.w_fly.size() ? M.w_fly[M.w_data_idx].get() : nullptr;
      M.w_valid_now = wd && chance(M.wvalid_pct);
      put(top->s_axi_wvalid_i, p, 1, M.w_valid_now);
      if (M.w_valid_now) {
        put_beat(top->s_axi_wdata_i, p, wd->data[M.w_beat].data());
        put(top->s_axi_wstrb_i, p * 32, 32, wd->strb[M.w_beat]);
        put(top->s_axi_wlast_i, p, 1, M.w_beat == wd->len - 1);
      }
      put(top->s_axi_bready_i, p, 1, chance(M.bready_pct));
      const Txn* r = (!M.rq.empty() && M.r_fly.size() < M.max_out) ? M.rq.front().get() : nullptr;
      M.ar_valid_now = r != nullptr;
      put(top->s_axi_arvalid_i, p, 1, M.ar_valid_now);
      put(top->s_axi_arid_i, p * 4, 4, r ? r->id : 0);
      put(top->s_axi_araddr_i, p * 32, 32, r ? r->addr : 0);
      put(top->s_axi_arlen_i, p * 8, 8, r ? r->len - 1 : 0);
      put(top->s_axi_arsize_i, p * 3, 3, 5);
      put(top->s_axi_arburst_i, p * 2, 2, 1);
      put(top->s_axi_arcache_i, p * 4, 4, r ? r->cache : 0);
      put(top->s_axi_arprot_i, p * 3, 3, 0);
      put(top->s_axi_arqos_i, p * 4, 4, r ? r->qos : 0);
      put(top->s_axi_rready_i, p, 1, chance(M.rready_pct));
    }
  }

  void commit_write(Txn& t) {
    for (int b = 0; b < t.len; ++b)
      for (int i = 0; i < 32; ++i)
        if ((t.strb[b] >> i) & 1) {
          const uint32_t a = t.addr + 32 * b + i;
          Region* r = region_of(a);
          if (r && t.ver[32 * b + i] > r->h[a - r->base].committed)
            r->h[a - r->base].committed = t.ver[32 * b + i];
        }
  }
  void issue_write_versions(Txn& t) {
    if (t.expect_resp) return;
    t.ver.assign(32 * t.len, 0);
    for (int b = 0; b < t.len; ++b)
      for (int i = 0; i < 32; ++i)
        if ((t.strb[b] >> i) & 1) {
          const uint32_t a = t.addr + 32 * b + i;
          Region* r = region_of(a);
          if (r) {
            r->upw[a - r->base] = 1;
            r->h[a - r->base].v.push_back(t.data[b][i]);
            t.ver[32 * b + i] = uint32_t(r->h[a - r->base].v.size() - 1);
          }
          if (r && a == g_watch)
            printf("  [%" PRIu64 "] watch: byte %08x version %zu = %02x\n", cycle, a,
                   r->h[a - r->base].v.size() - 1, t.data[b][i]);
        }
  }
  void check_read_beat(int p, Txn& t, int b, const uint8_t* d, uint8_t resp) {
    CHECK(resp == t.expect_resp, "port %d read %08x beat %d: rresp %d, expected %d", p, t.addr,
          b, resp, t.expect_resp);
    if (t.expect_resp) {
      return;
    }
    if (!t.check_data) return;
    for (int i = 0; i < 32; ++i) {
      const uint32_t a = t.addr + 32 * b + i;
      Region* r = region_of(a);
      if (!r) continue;
      const ByteHist& h = r->h[a - r->base];
      bool ok = false;
      for (size_t k = t.lo[32 * b + i]; k < h.v.size() && !ok; ++k) ok = (h.v[k] == d[i]);
      if (!ok) {
        std::string hs;
        for (size_t k = 0; k < h.v.size(); ++k) {
          char tmp[8];
          snprintf(tmp, sizeof tmp, "%02x ", h.v[k]);
          hs += tmp;
        }
        printf("  history of %08x (read allowed versions %u..%zu): %s\n", a, t.lo[32 * b + i],
               h.v.size() - 1, hs.c_str());
        fail("port %d read %08x (burst %08x beat %d): got %02x, expected %02x (version %u of "
             "%zu, owner %d) cycle %" PRIu64,
             p, a, t.addr, b, d[i], h.v[h.committed], h.committed, h.v.size(), owner_of(a),
             cycle);
        return;
      }
    }
  }

  void sample_masters() {
    for (int p = 0; p < kPorts; ++p) {
      Master& M = m[p];
      // write address
      if (M.aw_valid_now && get(top->s_axi_awready_o, p, 1)) {
        TxnP t = M.wq.front();
        M.wq.pop_front();
        t->t_issue = cycle;
        if (g_watch && (t->addr >> 6) <= (g_watch >> 6) && ((t->addr + 32 * t->len - 1) >> 6) >= (g_watch >> 6))
          printf("  [%" PRIu64 "] watch: port %d AW %08x len %d cache %x\n", cycle, p, t->addr, t->len, t->cache);
        issue_write_versions(*t);
        M.w_fly.push_back(t);
      }
      // write data
      if (M.w_valid_now && get(top->s_axi_wready_o, p, 1)) {
        M.bytes += 32;
        if (++M.w_beat == M.w_fly[M.w_data_idx]->len) {
          M.w_beat = 0;
          ++M.w_data_idx;
        }
      }
      // write response (in order: one ID stream per port in this bench)
      if (get(top->s_axi_bvalid_o, p, 1) && get(top->s_axi_bready_i, p, 1)) {
        if (M.w_fly.empty() || M.w_data_idx == 0) {
          fail("port %d: B without a completed write burst", p);
        } else {
          Txn& t = *M.w_fly.front();
          const uint8_t id = uint8_t(get(top->s_axi_bid_o, p * 4, 4));
          const uint8_t resp = uint8_t(get(top->s_axi_bresp_o, p * 2, 2));
          CHECK(id == t.id, "port %d: bid %d expected %d", p, id, t.id);
          CHECK(resp == t.expect_resp, "port %d write %08x: bresp %d expected %d", p, t.addr,
                resp, t.expect_resp);
          t.bresp = resp;
          if (!t.expect_resp) commit_write(t);
          if (g_watch && (t.addr >> 6) <= (g_watch >> 6) && ((t.addr + 32 * t.len - 1) >> 6) >= (g_watch >> 6))
            printf("  [%" PRIu64 "] watch: port %d B %08x\n", cycle, p, t.addr);
          t.done = true;
          t.t_done = cycle;
          M.w_fly.pop_front();
          --M.w_data_idx;
        }
      }
      // read address
      if (M.ar_valid_now && get(top->s_axi_arready_o, p, 1)) {
        TxnP t = M.rq.front();
        M.rq.pop_front();
        t->lo.resize(32 * t->len);
        for (int i = 0; i < 32 * t->len; ++i) {
          Region* r = region_of(t->addr + i);
          t->lo[i] = r ? r->h[t->addr + i - r->base].committed : 0;
        }
        t->t_issue = cycle;
        if (g_watch && (t->addr >> 6) <= (g_watch >> 6) && ((t->addr + 32 * t->len - 1) >> 6) >= (g_watch >> 6))
          printf("  [%" PRIu64 "] watch: port %d AR %08x len %d cache %x\n", cycle, p, t->addr, t->len, t->cache);
        M.r_fly.push_back(t);
      }
      // read data
      if (get(top->s_axi_rvalid_o, p, 1) && get(top->s_axi_rready_i, p, 1)) {
        if (M.r_fly.empty()) {
          fail("port %d: unexpected R beat", p);
        } else {
          Txn& t = *M.r_fly.front();
          const uint8_t id = uint8_t(get(top->s_axi_rid_o, p * 4, 4));
          const uint8_t resp = uint8_t(get(top->s_axi_rresp_o, p * 2, 2));
          const bool last = get(top->s_axi_rlast_o, p, 1);
          CHECK(id == t.id, "port %d: rid %d expected %d", p, id, t.id);
          CHECK(last == (M.r_beat == t.len - 1), "port %d: rlast wrong at beat %d", p, M.r_beat);
          std::array<uint8_t, 32> d;
          get_beat(top->s_axi_rdata_o, p, d.data());
          if (M.r_beat == 0) t.t_first = cycle;
          check_read_beat(p, t, M.r_beat, d.data(), resp);
          t.data.push_back(d);
          t.rresp.push_back(resp);
          M.bytes += 32;
          if (++M.r_beat >= t.len) {
            M.r_beat = 0;
            t.done = true;
            t.t_done = cycle;
            M.r_fly.pop_front();
          }
        }
      }
    }
  }

  void drive_r_interleaved() {
    // the memory's beat of this cycle is taken now (the slice's rready is always 1)
    if (port.rvalid) {
      RBeat q;
      for (int i = 0; i < 8; ++i) q.data[i] = port.rdata[i];
      q.resp = port.rresp;
      q.last = port.rlast;
      ilv_q[port.rid & unsigned(kMIds - 1)].push_back(q);
    }
    int ids[1 << L2_MID_BITS], n = 0;
    for (int i = 0; i < kMIds; ++i)
      if (!ilv_q[i].empty()) ids[n++] = i;
    top->m_axi_rvalid_i = 0;
    if (n == 0 || !chance(60)) return;
    const int id = ids[rndn(unsigned(n))];
    const RBeat q = ilv_q[id].front();
    ilv_q[id].pop_front();
    top->m_axi_rid_i = uint32_t(id);
    for (int i = 0; i < 8; ++i) top->m_axi_rdata_i[i] = q.data[i];
    top->m_axi_rresp_i = q.resp;
    top->m_axi_rlast_i = q.last;
    top->m_axi_rvalid_i = 1;
    if (id >= 2 * kPorts) {  // a read-ahead MSHR's beat
      if (ilv_par[id] == 0) {
        if (ilv_hold < 0) ilv_hold = id;
        else ++ilv_singles;
      } else if (ilv_hold == id) {
        ++ilv_pairs;
        ilv_hold = -1;
      }
      ilv_par[id] ^= 1u;
    }
  }

  void step() {
    drive_masters();
    if (mem_frozen) {
      port.awready = port.wready = port.arready = port.bvalid = port.rvalid = false;
    }
    top->m_axi_awready_i = port.awready;
    top->m_axi_wready_i = port.wready;
    top->m_axi_arready_i = port.arready;
    top->m_axi_bid_i = port.bid;
    top->m_axi_bresp_i = port.bresp;
    top->m_axi_bvalid_i = port.bvalid;
    if (r_ilv) {
      drive_r_interleaved();
    } else {
      top->m_axi_rid_i = port.rid;
      for (int i = 0; i < 8; ++i) top->m_axi_rdata_i[i] = port.rdata[i];
      top->m_axi_rresp_i = port.rresp;
      top->m_axi_rlast_i = port.rlast;
      top->m_axi_rvalid_i = port.rvalid;
    }
#if L2_RD_MASTERS == 2
    if (mem_frozen) port1.arready = port1.rvalid = false;
    top->m1_axi_arready_i = port1.arready;
    top->m1_axi_rid_i = port1.rid;
    for (int i = 0; i < 8; ++i) top->m1_axi_rdata_i[i] = port1.rdata[i];
    top->m1_axi_rresp_i = port1.rresp;
    top->m1_axi_rlast_i = port1.rlast;
    top->m1_axi_rvalid_i = port1.rvalid;
#endif
    top->msg_ready_i = chance(msg_ready_pct);
    top->clk_i = 0;
    top->eval();
    // downstream memory
    port.awid = top->m_axi_awid_o;
    port.awaddr = top->m_axi_awaddr_o;
    port.awlen = top->m_axi_awlen_o;
    port.awsize = top->m_axi_awsize_o;
    port.awburst = top->m_axi_awburst_o;
    port.awvalid = top->m_axi_awvalid_o;
    for (int i = 0; i < 8; ++i) port.wdata[i] = top->m_axi_wdata_o[i];
    port.wstrb = top->m_axi_wstrb_o;
    port.wlast = top->m_axi_wlast_o;
    port.wvalid = top->m_axi_wvalid_o;
    port.arid = top->m_axi_arid_o;
    port.araddr = top->m_axi_araddr_o;
    port.arlen = top->m_axi_arlen_o;
    port.arsize = top->m_axi_arsize_o;
    port.arburst = top->m_axi_arburst_o;
    port.arvalid = top->m_axi_arvalid_o;
    port.bready = top->m_axi_bready_o;
    port.rready = top->m_axi_rready_o;
    CHECK(!r_ilv || port.rready, "the slice deasserted rready (the R interleaver relies on it)");
    // AXI rule checks on the downstream side: bursts never cross 256 bytes
    if (top->m_axi_arvalid_o) {
      const uint32_t a = top->m_axi_araddr_o, n = (top->m_axi_arlen_o + 1) * 32;
      CHECK((a & 0xff) + n <= 256, "downstream AR %08x len %u crosses 256 B", a, n);
    }
    if (g_watch) {
      if (port.arvalid && port.arready && (port.araddr >> 6) == (g_watch >> 6))
        printf("  [%" PRIu64 "] watch: downstream AR %08" PRIx64 " id %u len %u\n", cycle, port.araddr, port.arid, port.arlen);
      if (port.awvalid && port.awready && (port.awaddr >> 6) == (g_watch >> 6))
        printf("  [%" PRIu64 "] watch: downstream AW %08" PRIx64 " len %u\n", cycle, port.awaddr, port.awlen);
      if (port.bvalid && port.bready) printf("  [%" PRIu64 "] watch: downstream B\n", cycle);
      if (port.rvalid && port.rready && port.rid < 8) {}
    }
    if (port.arvalid && port.arready) {
      rd_out_max = std::max(rd_out_max, ++rd_out);
      rd_beats_req += port.arlen + 1u;
    }
    rd_occ_sum += rd_beats_req - rd_beats;
    if (rd_beats_req == rd_beats) ++rd_idle_cycles;
    if (g_trace && port.arvalid && port.arready)
      printf("  [%" PRIu64 "] AR %08x id %u len %u (in flight %u)\n", cycle, unsigned(port.araddr),
             unsigned(port.arid), unsigned(port.arlen), rd_out);
    if (port.rvalid && port.rready) {
      ++rd_beats;
      if (port.rlast && rd_out) --rd_out;
    }
    if (port.wvalid && port.wready) ++wr_beats;
    if (port.awvalid && port.awready) ds_aw.push_back({uint32_t(port.awaddr), port.awlen + 1u});
    if (port.wvalid && port.wready) ds_w.push_back({uint32_t(port.wstrb), bool(port.wlast)});
    check_downstream_writes();
    if (!mem_frozen) mem->tick(port);
#if L2_RD_MASTERS == 2
    port1.arid = top->m1_axi_arid_o;
    port1.araddr = top->m1_axi_araddr_o;
    port1.arlen = top->m1_axi_arlen_o;
    port1.arsize = top->m1_axi_arsize_o;
    port1.arburst = top->m1_axi_arburst_o;
    port1.arvalid = top->m1_axi_arvalid_o;
    port1.awvalid = false;
    port1.wvalid = false;
    port1.bready = true;
    port1.rready = top->m1_axi_rready_o;
    if (port1.arvalid) {
      const uint32_t a = uint32_t(port1.araddr), n = (port1.arlen + 1u) * 32u;
      CHECK((a & 0xff) + n <= 256, "second master: AR %08x len %u crosses 256 B", a, n);
      CHECK(port1.arid >= 2u * kPorts, "second master: AR id %u is not a read-ahead MSHR's", unsigned(port1.arid));
    }
    if (port1.arvalid && port1.arready) {
      rd_out_max = std::max(rd_out_max, ++rd_out);
      rd_beats_req += port1.arlen + 1u;
    }
    if (port1.rvalid && port1.rready) {
      ++rd_beats;
      ++rd1_beats;
      if (port1.rlast && rd_out) --rd_out;
    }
    if (port1.rvalid && !port1.rready) ++rd1_stalls;
    if (!mem_frozen) mem1->tick(port1);
#endif
    sample_masters();
    if (top->msg_valid_o && top->msg_ready_i) {
      ++msgs;
      last_msg_addr = top->msg_addr_o;
      last_msg_data = top->msg_data_o;
    }
    top->clk_i = 1;
    top->eval();
    ++cycle;
    if (limit && cycle > limit) {
      diag("cycle limit reached");
      ++g_fail;
      printf("%d passed, %d failed\n", g_pass, g_fail);
      exit(1);
    }
  }

  // ---- APB (blocking; traffic keeps running)
  uint32_t apb(bool write, uint32_t addr, uint32_t data, bool* err = nullptr) {
    top->apb_psel_i = 1;
    top->apb_penable_i = 0;
    top->apb_pwrite_i = write;
    top->apb_pprot_i = 0;
    top->apb_paddr_i = addr;
    top->apb_pwdata_i = data;
    top->apb_pstrb_i = 0xf;
    step();
    top->apb_penable_i = 1;
    uint32_t rd = 0;
    for (int guard = 0; guard < 100; ++guard) {
      top->eval();
      if (top->apb_pready_o) {
        rd = top->apb_prdata_o;
        if (err) *err = top->apb_pslverr_o;
        step();
        break;
      }
      step();
    }
    top->apb_psel_i = 0;
    top->apb_penable_i = 0;
    return rd;
  }
  uint32_t rd(uint32_t a) { return apb(false, a, 0); }
  void wr(uint32_t a, uint32_t d) { apb(true, a, d); }

  // Maintenance: returns err_code; waits for completion (STATUS.busy clear) when accepted.
  uint32_t maint(unsigned op, bool whole, uint32_t lo, uint32_t hi, bool wait = true) {
    if (g_watch) printf("  [%" PRIu64 "] watch: maintenance op %u whole %d %08x..%08x\n", cycle, op, whole, lo, hi);
    wr(REG(MAINT_START), lo);
    wr(REG(MAINT_END), hi);
    wr(REG(MAINT_CMD), ((op << L2__MAINT_CMD__OP_bp) & L2__MAINT_CMD__OP_bm) |
                           (whole ? L2__MAINT_CMD__WHOLE_bm : 0) | L2__MAINT_CMD__GO_bm);
    uint32_t st = rd(REG(STATUS));
    if (wait) {
      uint64_t t0 = cycle;
      while (st & L2__STATUS__BUSY_bm) {
        if (cycle - t0 > 200000) {
          diag("maintenance operation never completed");
          ++g_fail;
          printf("%d passed, %d failed\n", g_pass, g_fail);
          exit(1);
        }
        st = rd(REG(STATUS));
      }
    }
    const uint32_t code = (st & L2__STATUS__ERR_CODE_bm) >> L2__STATUS__ERR_CODE_bp;
    wr(REG(STATUS), L2__STATUS__DONE_bm);  // clear done
    return code;
  }

  // ---- blocking helpers for directed tests
  bool idle() const {
    for (int p = 0; p < kPorts; ++p)
      if (!m[p].w_fly.empty() || !m[p].r_fly.empty() || !m[p].wq.empty() || !m[p].rq.empty())
        return false;
    return true;
  }
  // Waits for a transaction; a stuck one ends the run with a diagnostic (fatal) or, for the
  // hang-detection test, returns false after the diagnostic.
  bool wait_txn(const TxnP& t, uint64_t max = 100000, bool fatal = true) {
    const uint64_t t0 = cycle;
    while (!t->done) {
      step();
      if (cycle - t0 > max) {
        diag("transaction never completed");
        if (!fatal) return false;
        ++g_fail;
        printf("%d passed, %d failed\n", g_pass, g_fail);
        exit(1);
      }
    }
    return true;
  }
  // The slice writes back only the bytes written through it (per-line byte-dirty mask,
  // docs/l2.md): a downstream write may set a strobe only on a byte some upstream write
  // wrote. Bytes outside the reference regions (error tests) are not checked.
  void check_downstream_writes() {
    while (!ds_aw.empty() && !ds_w.empty()) {
      const uint32_t a = ds_aw.front().first + 32 * ds_beat, strb = ds_w.front().first;
      const bool last = ds_w.front().second;
      for (int i = 0; i < 32; ++i) {
        if (!((strb >> i) & 1)) continue;
        ++ds_bytes;
        Region* r = region_of(a + uint32_t(i));
        if (r && !r->upw[a + uint32_t(i) - r->base])
          fail("downstream write of byte %08x that no upstream write wrote (strobes %08x)",
               a + uint32_t(i), strb);
      }
      ds_w.pop_front();
      ++ds_beat;
      CHECK(last == (ds_beat == ds_aw.front().second), "downstream WLAST at beat %u of %u",
            ds_beat, ds_aw.front().second);
      if (last) {
        ds_aw.pop_front();
        ds_beat = 0;
      }
    }
  }
  // back door: change a byte in memory behind the slice (the reference takes the new value)
  void backdoor(uint32_t a, uint8_t v) {
    mem->mem().write(a, &v, 1);
    Region* r = region_of(a);
    r->h[a - r->base].v.push_back(v);
    r->h[a - r->base].committed = uint32_t(r->h[a - r->base].v.size() - 1);
  }
  bool mem1_idle() const {
#if L2_RD_MASTERS == 2
    return mem1->idle();
#else
    return true;
#endif
  }
  void drain(uint64_t max = 200000) {
    const uint64_t t0 = cycle;
    while (!idle() || !mem->idle() || !mem1_idle()) {
      step();
      if (cycle - t0 > max) {
        diag("traffic did not drain");
        ++g_fail;
        printf("%d passed, %d failed\n", g_pass, g_fail);
        exit(1);
      }
    }
    for (int i = 0; i < 20; ++i) step();
  }
  TxnP write(int p, uint32_t addr, int len, uint8_t fill_seed, uint32_t strb = 0xffffffffu,
             uint8_t cache = 0xf, uint8_t qos = 0, uint8_t expect = 0) {
    auto t = std::make_shared<Txn>();
    t->write = true;
    t->addr = addr;
    t->len = len;
    t->cache = cache;
    t->qos = qos;
    t->id = uint8_t(rndn(16));
    t->expect_resp = expect;
    for (int b = 0; b < len; ++b) {
      std::array<uint8_t, 32> d;
      for (int i = 0; i < 32; ++i) d[i] = uint8_t(fill_seed * 31 + b * 7 + i);
      t->data.push_back(d);
      t->strb.push_back(strb);
    }
    m[p].wq.push_back(t);
    return t;
  }
  TxnP read(int p, uint32_t addr, int len, uint8_t cache = 0xf, uint8_t qos = 0,
            uint8_t expect = 0) {
    auto t = std::make_shared<Txn>();
    t->addr = addr;
    t->len = len;
    t->cache = cache;
    t->qos = qos;
    t->id = uint8_t(rndn(16));
    t->expect_resp = expect;
    m[p].rq.push_back(t);
    return t;
  }
  // newest value of a byte in the reference
  uint8_t ref(uint32_t a) {
    Region* r = region_of(a);
    return r ? r->h[a - r->base].v.back() : 0;
  }
  uint8_t memb(uint32_t a) {
    uint8_t b;
    mem->mem().read(a, &b, 1);
    return b;
  }
  // whole memory image of every region == reference (after a flush)
  int check_image(const char* what) {
    int bad = 0;
    for (auto& r : regions)
      for (uint32_t i = 0; i < r.size; ++i) {
        const uint8_t want = r.h[i].v.back(), got = memb(r.base + i);
        if (want != got) {
          if (bad < 5) fail("%s: memory %08x = %02x, expected %02x", what, r.base + i, got, want);
          ++bad;
        }
      }
    return bad;
  }
};

// ---------------------------------------------------------------- tests
static uint64_t g_seed;
static uint64_t g_cycles = 300000;

static void begin(const char* name) {
  printf("[ RUN  ] %s\n", name);
  fflush(stdout);
  g_errors_this_test = 0;
}
static void end(const char* name) {
  if (g_errors_this_test) {
    printf("[ FAIL ] %s (%d errors)\n", name, g_errors_this_test);
    ++g_fail;
  } else {
    printf("[  OK  ] %s\n", name);
    ++g_pass;
  }
  fflush(stdout);
}

static const uint32_t kS = kMemBase + 0x100000;  // shared read/write region
static const uint32_t kR = kMemBase + 0x400000;  // read-only region
static const uint32_t kBad = 0x40000000;         // unmapped (DECERR from memory)

// Set index of the slice (private mode, docs/l2.md "Banks"): set bits [6 +: SetBits] =
// {lset, low}; with CTRL.set_hash the slice stores lset ^ set_hash(tag) (the tag bits
// folded into the upper set bits). same_set_addr(base, k): the k-th line (k = 0: base
// itself) that maps to base's set; all of them lie in [base, base + same_set_span(k + 1)).
static const uint32_t kSets = L2_SIZE / (kLine * kWays);
static uint32_t set_bits() { uint32_t b = 0; while ((1u << b) < kSets) ++b; return b; }
static uint32_t bank_bits() { uint32_t b = 0; while ((1u << b) < L2_BANKS) ++b; return b; }
static uint32_t set_hash(uint32_t a) {
  const uint32_t sb = set_bits(), lsb = sb - bank_bits(), tb = 26 - sb, tag = a >> (6 + sb);
  uint32_t h = 0;
  for (uint32_t i = 0; i < tb; ++i) h ^= ((tag >> i) & 1u) << (i % lsb);
  return h;
}
static uint32_t same_set_span(int n) { return uint32_t(n) * kSets * kLine; }
static uint32_t same_set_addr(uint32_t base, int k) {
  const uint32_t a = base + same_set_span(k);
  if (!g_hash) return a;
  return a ^ ((set_hash(a) ^ set_hash(base)) << (6 + bank_bits()));  // lset = bits [6 + BankBits +: SetBits - BankBits]
}

static void t_basic() {
  begin("basic: write, read hit, flush, memory image");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 4096);
  auto w = b.write(0, kS + 0x40, 4, 5);
  b.wait_txn(w);
  auto r = b.read(1, kS + 0x40, 4);
  b.wait_txn(r);
  auto r2 = b.read(2, kS, 8, 0x0);  // non-allocating; beats 0-1 miss, the rest hit
  b.wait_txn(r2);
  CHECK(b.memb(kS + 0x40) == b.regions[0].h[0x40].v[0], "write-back before flush");
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush");
  const uint32_t hits = b.rd(REG(HITS)), miss = b.rd(REG(MISSES)), byp = b.rd(REG(BYPASS));
  // Counters count beat lookups; the replay after a refill is not counted (docs/l2.md).
  // write 0x40..0xbf: beat0 miss + replay, beat1 hit, beat2 miss + replay, beat3 hit
  //   -> 2 misses, 2 hits; read 0x40..0xbf: 4 hits; non-allocating read 0x00..0xff: lines
  //   0x00 and 0xc0 miss on each beat (4 bypass misses), lines 0x40/0x80 hit (4 hits).
  CHECK(miss == 6 && byp == 4 && hits == 10, "counters: hits %u misses %u bypass %u", hits,
        miss, byp);
  const uint32_t info = b.rd(REG(INFO));
  CHECK((info & 0xff) == kWays && ((info >> 16) * 1024) == L2_SIZE, "INFO %08x", info);
  end("basic: write, read hit, flush, memory image");
}

static void t_two_masters_same_line() {
  begin("same line from two masters (ordered by B)");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 4096);
  for (int k = 0; k < 8; ++k) {
    const uint32_t a = kS + 64 * k;
    const int p0 = k % 3, p1 = (k + 1) % 3;
    const uint8_t cache = (k & 1) ? 0xf : 0x0;  // allocate or not
    // p0 writes its own words of the line, then p1 reads the line, then p1 writes its
    // own words, then p0 reads: each sees the other's completed write.
    uint32_t s0 = 0, s1 = 0;
    for (int i = 0; i < 32; ++i) {
      if (owner_of(a + i) == p0) s0 |= 1u << i;
      if (owner_of(a + i) == p1) s1 |= 1u << i;
    }
    auto w0 = b.write(p0, a, 2, uint8_t(k + 1), s0, cache);
    b.wait_txn(w0);
    auto r1 = b.read(p1, a, 2, cache);
    b.wait_txn(r1);
    auto w1 = b.write(p1, a, 2, uint8_t(k + 50), s1, cache ^ 0xf);
    b.wait_txn(w1);
    auto r0 = b.read(p0, a, 2, cache ^ 0xf);
    b.wait_txn(r0);
    // and both at once: reads of the line by all ports while p2 writes it
    b.write(2, a, 2, uint8_t(k + 90), [&] { uint32_t s = 0; for (int i = 0; i < 32; ++i) if (owner_of(a + i) == 2) s |= 1u << i; return s; }(), 0xf);
    b.read(0, a, 2);
    b.read(1, a, 2, 0);
    b.drain();
  }
  CHECK(b.maint(2, true, 0, 0) == 0, "invalidate refused");
  b.check_image("after invalidate");
  end("same line from two masters (ordered by B)");
}

static void t_dirty_eviction() {
  begin("dirty eviction under load (one set, 3x ways, all ports)");
  Bench b(40, 32);
  b.limit = 400000;
  const int n = kWays * 3;
  const uint32_t span = same_set_span(n);
  b.add_region(kS, span);
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < n; ++k) {
      const uint32_t a = same_set_addr(kS, k);
      for (int p = 0; p < kPorts; ++p) {
        uint32_t s = 0;
        for (int i = 0; i < 32; ++i)
          if (owner_of(a + i) == p) s |= 1u << i;
        b.write(p, a + 32 * (round & 1), 1, uint8_t(round * 40 + k + p), s, 0xf, uint8_t(rndn(4)));
        b.read(p, a, 2, 0xf, uint8_t(rndn(4)));
      }
    }
    b.drain(400000);
  }
  const uint32_t ev = b.rd(REG(EVICTIONS)), wb = b.rd(REG(WRITEBACKS));
  CHECK(ev > 0 && wb > 0, "no evictions (%u) / write-backs (%u)", ev, wb);
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush");
  printf("  evictions %u, write-backs %u\n", ev, wb);
  end("dirty eviction under load (one set, 3x ways, all ports)");
}

// Byte-granular write-back: the slice writes some bytes of a line, other bytes of the same
// line change in memory behind it (another slice's write-back in private mode); flush,
// and separately eviction, must write only the slice's bytes and keep the others.
static void t_dirty_bytes() {
  begin("byte-dirty mask: flush / eviction write back only written bytes");
  Bench b(40, 32);
  b.limit = 400000;
  const int n = kWays + 1;
  b.add_region(kS, same_set_span(n));
  // strobes: random non-empty patterns (beat 1 of line 1 stays clean)
  const uint32_t s0 = uint32_t(rnd()) | 1u, s1 = uint32_t(rnd()) & 0x0ff0f00fu, s2 = uint32_t(rnd()) | 0x80000000u;
  const uint32_t l0 = kS, l1 = kS + 64, l2 = kS + 128;  // three different sets
  b.write(0, l0, 1, 11, s0);
  b.write(1, l0 + 32, 1, 12, s1);
  b.write(2, l1, 1, 13, s2);
  b.write(0, l2, 2, 14, s0 ^ 0x00ff00ffu);
  b.drain();
  auto change_behind = [&](uint32_t line) {
    for (uint32_t i = 0; i < 64; ++i) {
      Region* r = b.region_of(line + i);
      if (r->h[line + i - r->base].v.size() == 1) b.backdoor(line + i, uint8_t(~b.memb(line + i)));
    }
  };
  change_behind(l0);
  change_behind(l1);
  change_behind(l2);
  int bad = 0;  // bytes of the three lines that differ from the reference
  auto check_line = [&](uint32_t line, const char* what) {
    for (uint32_t i = 0; i < 64; ++i)
      if (b.memb(line + i) != b.ref(line + i)) {
        Region* r = b.region_of(line + i);
        if (bad++ < 4)
          fail("%s: memory %08x = %02x, expected %02x (%s byte)", what, line + i,
               b.memb(line + i), b.ref(line + i),
               r->upw[line + i - r->base] ? "written" : "back-door");
      }
  };
  // flush of lines 0 and 1
  CHECK(b.maint(1, false, l0, l0 + 128) == 0, "flush refused");
  check_line(l0, "flush");
  check_line(l1, "flush");
  // eviction of line 2: kWays other lines of its set (reads and full-line writes) push it out
  const uint32_t ev0 = b.rd(REG(EVICTIONS)), wb0 = b.rd(REG(WRITEBACKS));
  for (int k = 1; k <= kWays; ++k) {
    const uint32_t a = same_set_addr(l2, k);
    if (k & 1) b.wait_txn(b.read(k % kPorts, a, 2));
    else b.wait_txn(b.write(k % kPorts, a, 2, uint8_t(20 + k)));
  }
  b.drain();
  const uint32_t ev = b.rd(REG(EVICTIONS)) - ev0, wb = b.rd(REG(WRITEBACKS)) - wb0;
  CHECK(ev >= 1 && wb >= 1, "line 2 was not evicted (evictions %u, write-backs %u)", ev, wb);
  check_line(l2, "eviction");
  CHECK(bad == 0, "%d bytes of the three lines wrong in memory", bad);
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush");
  printf("  strobes %08x %08x %08x, evictions %u, write-backs %u, downstream bytes %" PRIu64
         ", wrong bytes %d\n", s0, s1, s2, ev, wb, b.ds_bytes, bad);
  end("byte-dirty mask: flush / eviction write back only written bytes");
}

static void t_discard() {
  begin("discard drops dirty data; invalidate and flush write it back");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 4096);
  const uint32_t a = kS + 0x200;
  // bring the line in, dirty it, discard it: memory and later reads show the old data
  auto w = b.write(0, a, 2, 77);
  b.wait_txn(w);
  uint8_t before[64];
  for (int i = 0; i < 64; ++i) before[i] = b.regions[0].h[0x200 + i].v[0];
  CHECK(b.maint(3, false, a, a + 64) == 0, "discard refused");
  for (int i = 0; i < 64; ++i)
    CHECK(b.memb(a + i) == before[i], "discarded data reached memory at %08x", a + i);
  // the reference must forget the discarded write: the data never existed
  for (int i = 0; i < 64; ++i) {
    auto& h = b.regions[0].h[0x200 + i];
    h.v.resize(1);
    h.committed = 0;
  }
  auto r = b.read(1, a, 2);
  b.wait_txn(r);
  for (int i = 0; i < 64; ++i)
    CHECK(r->data[i / 32][i % 32] == before[i], "read after discard %08x: %02x != %02x", a + i,
          r->data[i / 32][i % 32], before[i]);
  // discard outside the range keeps other lines
  auto w2 = b.write(0, a + 64, 2, 78);
  b.wait_txn(w2);
  CHECK(b.maint(3, false, a, a + 64) == 0, "discard refused");
  CHECK(b.maint(2, false, a + 64, a + 128) == 0, "invalidate refused");
  for (int i = 0; i < 64; ++i)
    CHECK(b.memb(a + 64 + i) == b.ref(a + 64 + i), "invalidate did not write back %08x", a + 64 + i);
  // flush of a range writes back only that range
  auto w3 = b.write(0, a + 128, 2, 79);
  auto w4 = b.write(1, a + 256, 2, 80);
  b.wait_txn(w3);
  b.wait_txn(w4);
  CHECK(b.maint(1, false, a + 128, a + 192) == 0, "flush refused");
  CHECK(b.memb(a + 128) == b.ref(a + 128), "flush range not written");
  CHECK(b.memb(a + 256) != b.ref(a + 256) || b.ref(a + 256) == b.regions[0].h[0x300].v[0],
        "line outside the flush range was written back");
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("final");
  end("discard drops dirty data; invalidate and flush write it back");
}

static void t_errors() {
  begin("error propagation and maintenance refusal");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 4096);
  for (int k = 0; k < 4; ++k) {
    const uint8_t c = (k & 1) ? 0xf : 0;
    auto r = b.read(k % 3, kBad + 0x1000 * k, 4, c, 0, 3);
    auto w = b.write((k + 1) % 3, kBad + 0x800 + 0x1000 * k, 3, 9, 0xffffffffu, c, 0, 3);
    b.wait_txn(r);
    b.wait_txn(w);
  }
  // the slice still works afterwards
  auto w = b.write(0, kS, 2, 3);
  b.wait_txn(w);
  auto r = b.read(1, kS, 2);
  b.wait_txn(r);
  // refused maintenance: bad op, bad ranges, busy
  b.wr(REG(IE), 0x3);
  CHECK(b.maint(0, true, 0, 0) == 1, "op 0 not refused with code 1");
  CHECK(b.top->irq_o, "no irq on refused command");
  CHECK(b.maint(1, false, kS + 64, kS + 64) == 2, "empty range not refused");
  CHECK(b.maint(1, false, kS + 8, kS + 64) == 2, "misaligned range not refused");
  CHECK(b.maint(1, false, 0x10000000, 0x10000040) == 2, "range outside memory not refused");
  CHECK(b.maint(1, false, 0xbfffffc0, 0xc0000040) == 2, "range past memory end not refused");
  b.wr(REG(MAINT_START), 0);
  b.wr(REG(MAINT_END), 0);
  b.wr(REG(MAINT_CMD), 0x80000011u);  // flush all (runs for Sets*Ways*2 cycles)
  b.wr(REG(MAINT_CMD), 0x80000012u);  // GO while busy
  uint32_t st = b.rd(REG(STATUS));
  CHECK(((st >> 8) & 0xf) == 3, "GO while busy not refused (status %08x)", st);
  while (b.rd(REG(STATUS)) & 1) {
  }
  b.wr(REG(STATUS), 0x2);
  CHECK(b.maint(1, false, kS, kS + 4096) == 0, "valid range refused");
  CHECK(!b.top->irq_o, "irq still set after clearing");
  // bad APB offset answers pslverr
  bool err = false;
  b.apb(false, 0x3ffc, 0, &err);
  CHECK(err, "bad register offset did not answer pslverr");
  // an eviction whose write-back fails is reported in STATUS.wb_err / ERR_ADDR
  b.check_image("after errors");
  end("error propagation and maintenance refusal");
}

static void t_message() {
  begin("completion message, irq and status");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 4096);
  b.msg_ready_pct = 30;
  b.wr(REG(MSG_ADDR), 0x30300010);
  b.wr(REG(MSG_DATA), 0x80000001);
  b.wr(REG(MSG_CTRL), 1);
  b.wr(REG(IE), 1);
  auto w = b.write(2, kS + 0x100, 8, 4);
  b.wait_txn(w);
  b.wr(REG(MAINT_START), kS);
  b.wr(REG(MAINT_END), kS + 4096);
  b.wr(REG(MAINT_CMD), 0x80000001u);
  uint64_t t0 = b.cycle;
  while (!b.top->irq_o && b.cycle - t0 < 100000) b.step();
  CHECK(b.top->irq_o, "no completion irq");
  while (b.msgs == 0 && b.cycle - t0 < 100000) b.step();
  CHECK(b.msgs == 1 && b.last_msg_addr == 0x30300010 && b.last_msg_data == 0x80000001,
        "message: %" PRIu64 " sent, addr %08x data %08x", b.msgs, b.last_msg_addr, b.last_msg_data);
  const uint32_t st = b.rd(REG(STATUS));
  CHECK((st & 3) == 2, "status %08x: expected done, not busy", st);
  b.wr(REG(STATUS), 2);
  b.step();
  CHECK(!b.top->irq_o, "irq not cleared");
  b.check_image("after flush");
  // refused commands send no message
  CHECK(b.maint(0, true, 0, 0) == 1, "bad op accepted");
  for (int i = 0; i < 50; ++i) b.step();
  CHECK(b.msgs == 1, "message sent for a refused command");
  end("completion message, irq and status");
}

static void t_shared_mode() {
  begin("shared mode: slice 1 of 2 (addr bit 8 = 1)");
  Bench b(40, 32);
  b.limit = 300000;
  b.add_region(kS, 16384);
  b.wr(REG(SHARED), 1 | (1 << 4));
  // addresses of the other slice are refused with DECERR, without touching memory
  auto r = b.read(0, kS + 0x000, 2, 0xf, 0, 3);
  auto w = b.write(1, kS + 0x0c0, 2, 1, 0xffffffffu, 0xf, 0, 3);
  b.wait_txn(r);
  b.wait_txn(w);
  // this slice's addresses: fill more than the cache would hold without compaction
  for (uint32_t a = kS + 0x100; a < kS + 16384; a += 0x200) {
    b.write(0, a, 8, uint8_t(a >> 8));
    b.read(1, a, 8);
  }
  b.drain();
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush (shared mode)");
  end("shared mode: slice 1 of 2 (addr bit 8 = 1)");
}

static void t_hints() {
  begin("allocation hints and classes");
  Bench b(40, 32);
  b.limit = 400000;
  const uint32_t rsize = same_set_span(3 * kWays + 1);
  b.add_region(kR, rsize);
  // non-allocating reads never hit
  for (int k = 0; k < 2; ++k) {
    auto r = b.read(0, kR, 2, 0x0);
    b.wait_txn(r);
  }
  CHECK(b.rd(REG(HITS)) == 0 && b.rd(REG(BYPASS)) == 4, "non-allocating reads: hits %u bypass %u",
        b.rd(REG(HITS)), b.rd(REG(BYPASS)));
  // class protection: one set, a class-3 line then 3*ways class-0 lines; the class-3 line
  // stays (strict class priority with the default weight)
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(8));
  auto r = b.read(0, same_set_addr(kR, 0) , 2, 0xf, 3);
  b.wait_txn(r);
  for (int k = 1; k < 1 + 3 * kWays; ++k) {
    auto s = b.read(1, same_set_addr(kR, k), 2, 0xf, 0);
    b.wait_txn(s);
  }
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(8));
  r = b.read(0, same_set_addr(kR, 0), 2, 0xf, 3);
  b.wait_txn(r);
  CHECK(b.rd(REG(MISSES)) == 0, "class-3 line was evicted by class-0 traffic (misses %u)",
        b.rd(REG(MISSES)));
  // with weight 0 (plain LRU) it is evicted
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(0));
  for (int k = 1; k < 1 + 3 * kWays; ++k) {
    auto s = b.read(1, same_set_addr(kR, k), 2, 0xf, 0);
    b.wait_txn(s);
  }
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(0));
  r = b.read(0, same_set_addr(kR, 0), 2, 0xf, 3);
  b.wait_txn(r);
  CHECK(b.rd(REG(MISSES)) == 1, "LRU: expected the old line to be evicted (misses %u)",
          b.rd(REG(MISSES)));
  end("allocation hints and classes");
}

static void t_lru_order() {
  begin("replacement order: a hit makes a line youngest (LRU, one class)");
  Bench b(40, 32);
  b.limit = 400000;
  b.add_region(kR, same_set_span(kWays + 2));
  // fill one set with ways lines (same class), touch line 0 again, then allocate one more
  for (int k = 0; k < kWays; ++k) b.wait_txn(b.read(0, same_set_addr(kR, k), 2, 0xf, 1));
  b.wait_txn(b.read(0, same_set_addr(kR, 0), 2, 0xf, 1));            // hit: line 0 youngest
  b.wait_txn(b.read(0, same_set_addr(kR, kWays), 2, 0xf, 1));        // evicts line 1
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(8));
  b.wait_txn(b.read(0, same_set_addr(kR, 0), 2, 0xf, 1));
  CHECK(b.rd(REG(MISSES)) == 0, "recently used line 0 was evicted (misses %u)", b.rd(REG(MISSES)));
  b.wait_txn(b.read(0, same_set_addr(kR, 1), 2, 0xf, 1));
  CHECK(b.rd(REG(MISSES)) == 1, "least recently used line 1 was not evicted (misses %u)",
        b.rd(REG(MISSES)));
  end("replacement order: a hit makes a line youngest (LRU, one class)");
}

static void t_hang_detect() {
  begin("no-hang watchdog: memory stops answering -> diagnostic, not a hang");
  Bench b(40, 32);
  b.limit = 100000;
  b.add_region(kS, 4096);
  b.mem_frozen = true;
  auto r = b.read(0, kS, 2);
  const bool done = b.wait_txn(r, 2000, false);
  CHECK(!done, "read completed although memory never answered");
  end("no-hang watchdog: memory stops answering -> diagnostic, not a hang");
}

// Several misses in flight: the cache is first filled with dirty lines, then all ports
// stream cold 8-beat reads (evicting dirty lines while refills are pending) while port 2
// writes into lines the others are streaming (same-line conflicts, allocating or not) and
// port 1 re-reads some of them without allocation. Checked against the reference on every
// beat and by the memory image after a flush; the downstream side must have had several
// read bursts in flight.
// mode 0: plain; 1: back-pressure on the upstream R/W/B channels; 2: the downstream R beats
// interleaved across IDs (read-ahead refill pairs and their beat-by-beat fallback)
static void t_outstanding(int mode) {
  const bool bp = mode == 1;
  const char* names[3] = {"several misses in flight, dirty evictions, same-line conflicts",
                          "several misses in flight, back-pressure on R/W/B",
                          "several misses in flight, downstream R bursts interleaved across IDs"};
  const char* name = names[mode];
  begin(name);
  Bench b(40, 32);
  b.limit = 3000000;
  b.r_ilv = mode == 2;
  const uint32_t half = L2_SIZE;
  b.add_region(kS, 2 * half);
  for (int p = 0; p < kPorts; ++p) {
    b.m[p].max_out = 8;
    if (bp) {
      b.m[p].rready_pct = 50;
      b.m[p].bready_pct = 50;
      b.m[p].wvalid_pct = 70;
    }
  }
  auto own = [](uint32_t a, int p) {
    uint32_t s = 0;
    for (int i = 0; i < 32; ++i)
      if (owner_of(a + i) == p) s |= 1u << i;
    return s;
  };
  // a write of port p's own bytes (strobes per beat)
  auto wown = [&](int p, uint32_t a, int len, uint8_t seed, uint8_t cache) {
    auto t = b.write(p, a, len, seed, 0, cache);
    for (int k = 0; k < len; ++k) t->strb[k] = own(a + 32 * k, p);
  };
  // 1. every line of the first half dirty (each port writes its own bytes)
  for (uint32_t a = kS; a < kS + half; a += 256)
    for (int p = 0; p < kPorts; ++p) wown(p, a, 8, uint8_t((a >> 8) + p), 0xf);
  b.drain(2000000);
  // 2. cold streams over the second half with conflicts
  const uint64_t t0 = b.cycle;
  const uint32_t wb0 = b.rd(REG(WRITEBACKS));
  for (uint32_t a = kS + half; a < kS + 2 * half; a += 256) {
    const int p = int((a >> 8) % 2);
    b.read(p, a, 8, 0xf, uint8_t(rndn(4)));
    if (chance(25)) {
      const uint32_t x = rndn(2), wa = a + 64 * rndn(4) + 32 * x;
      wown(2, wa, x ? 1 : 1 + int(rndn(2)), uint8_t(rnd()), chance(50) ? 0xf : 0x0);
    }
    if (chance(15)) b.read(1, a + 64 * rndn(4), 2, 0x0);
    if (chance(10)) b.read(2, a - half, 8, 0xf);  // hits on the dirty half
    while (b.m[0].rq.size() > 6 || b.m[1].rq.size() > 6 || b.m[2].wq.size() > 6) b.step();
  }
  b.drain(2000000);
  const uint64_t cyc = b.cycle - t0;
  // 3. full-line writes (allocation without refill) by port 0 over a third area, evicting
  // dirty lines, while port 1 reads the lines being written and port 2 re-writes some of
  // them partially (port 0 owns every byte of this area except port 2's partial writes,
  // which only happen after port 0's write of that burst got its B)
  const uint32_t kC = kS + 2 * half;
  b.add_region(kC, 2 * half);
  for (uint32_t a = kC; a < kC + 2 * half; a += 256) {
    auto w = b.write(0, a, 8, uint8_t(a >> 8), 0xffffffffu, 0xf, uint8_t(rndn(4)));
    if (chance(30)) b.read(1, a + 64 * rndn(4), 2, chance(70) ? 0xf : 0x0);
    if (chance(10)) {
      b.wait_txn(w);
      b.write(2, a + 32 * rndn(8), 1, uint8_t(rnd()), uint32_t(rnd()), chance(50) ? 0xf : 0x0);
    }
    while (b.m[0].wq.size() > 6 || b.m[1].rq.size() > 6) b.step();
  }
  b.drain(2000000);
  // 4. two write streams of full lines at once (ports 0 and 2, 64 KiB apart: the same sets,
  // so both evict dirty lines in the same bank at about the same time and contend for its
  // beat-0 stash), bursts of random length and start beat (partial lines, burst chaining),
  // while port 1 reads lines of both streams
  const uint32_t kD = kC + 2 * half;
  b.add_region(kD, 2 * half);
  for (uint32_t a = kD; a < kD + half; a += 256) {
    for (int q = 0; q < 2; ++q) {
      const uint32_t base = a + q * half;
      const int p = q ? 2 : 0;
      if (chance(80)) {
        b.write(p, base, 8, uint8_t(rnd()), 0xffffffffu, 0xf, uint8_t(rndn(4)));
      } else {  // the 256-byte block as random shorter bursts
        for (uint32_t o = 0; o < 256;) {
          const uint32_t n = std::min<uint32_t>(1 + rndn(4), (256 - o) / 32);
          b.write(p, base + o, int(n), uint8_t(rnd()), 0xffffffffu, 0xf, uint8_t(rndn(4)));
          o += 32 * n;
        }
      }
    }
    if (chance(30)) b.read(1, a + (chance(50) ? half : 0) + 64 * rndn(4), 2, chance(70) ? 0xf : 0x0);
    while (b.m[0].wq.size() > 6 || b.m[2].wq.size() > 6 || b.m[1].rq.size() > 6) b.step();
  }
  b.drain(2000000);
  const uint32_t wb = b.rd(REG(WRITEBACKS)) - wb0;
  CHECK(b.rd_out_max >= 4, "at most %u downstream reads were in flight (expected several)",
        b.rd_out_max);
  CHECK(wb > 0, "no dirty line was evicted during the streams");
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush");
  CHECK((b.rd(REG(STATUS)) & L2__STATUS__WB_ERR_bm) == 0, "write-back error");
  printf("  %" PRIu64 " cycles for %u KiB of cold reads, up to %u downstream reads in flight, "
         "%u write-backs\n", cyc, half / 1024, b.rd_out_max, wb);
#if L2_RD_MASTERS == 2
  printf("  second read master: %" PRIu64 " of %" PRIu64 " refill beats, its R held %" PRIu64
         " cycles for the side port\n", b.rd1_beats, b.rd_beats, b.rd1_stalls);
  CHECK(b.rd1_beats > 0, "no read-ahead refill used the second read master");
#endif
  if (b.r_ilv) {
    printf("  read-ahead refills: %" PRIu64 " written as one pair, %" PRIu64
           " beats 0 written alone (pair register taken by an interleaved burst)\n",
           b.ilv_pairs, b.ilv_singles);
    CHECK(b.ilv_pairs > 0 && b.ilv_singles > 0,
          "interleaving did not exercise both refill paths (%" PRIu64 " pairs, %" PRIu64
          " single beats)", b.ilv_pairs, b.ilv_singles);
  }
  end(name);
}

// Random multi-master traffic with maintenance during traffic.
static void t_random(unsigned latency, unsigned bpc, bool backpressure, const char* name) {
  begin(name);
  Bench b(latency, bpc);
  b.limit = g_cycles * 6 + 400000;
  const uint32_t s_size = L2_SIZE * 2, r_size = L2_SIZE;
  b.add_region(kS, s_size);
  b.add_region(kR, r_size);
  b.r_ilv = backpressure;  // downstream R beats interleaved across IDs as well
  if (backpressure)
    for (int p = 0; p < kPorts; ++p) {
      b.m[p].rready_pct = 60;
      b.m[p].bready_pct = 50;
      b.m[p].wvalid_pct = 70;
    }
  uint64_t n_w = 0, n_r = 0, n_maint = 0, n_err = 0;
  auto gen_addr = [&](bool shared, int len) {
    uint32_t base = shared ? kS : kR, size = shared ? s_size : r_size;
    if (chance(50)) size = 8192;  // hot window
    uint32_t a = base + (rndn(size) & ~31u);
    // do not cross 256 bytes, do not leave the region
    const uint32_t room = (256 - (a & 255)) / 32;
    (void)len;
    return std::make_pair(a, int(room));
  };
  const uint64_t t_end = b.cycle + g_cycles;
  uint64_t next_maint = b.cycle + 2000 + rndn(4000);
  while (b.cycle < t_end) {
    for (int p = 0; p < kPorts; ++p) {
      Master& M = b.m[p];
      if (M.wq.empty() && M.w_fly.size() < M.max_out && chance(30)) {
        auto [a, room] = gen_addr(true, 8);
        int len = 1 + int(rndn(std::min(room, 8)));
        const bool bad = chance(2);
        if (bad) a = kBad + (a & 0xfffff);
        auto t = std::make_shared<Txn>();
        t->write = true;
        t->addr = a;
        t->len = len;
        t->cache = uint8_t(rndn(16));
        t->qos = uint8_t(rndn(16));
        t->id = uint8_t(rndn(16));
        t->expect_resp = bad ? 3 : 0;
        for (int k = 0; k < len; ++k) {
          std::array<uint8_t, 32> d;
          uint32_t s = 0;
          const bool full = chance(50);
          for (int i = 0; i < 32; ++i) {
            d[i] = uint8_t(rnd());
            if (owner_of(a + 32 * k + i) == p && (full || chance(60))) s |= 1u << i;
          }
          t->data.push_back(d);
          t->strb.push_back(s);
        }
        M.wq.push_back(t);
        ++n_w;
        n_err += bad;
      }
      if (M.rq.empty() && M.r_fly.size() < M.max_out && chance(40)) {
        const bool shared = chance(70);
        auto [a, room] = gen_addr(shared, 8);
        int len = 1 + int(rndn(std::min(room, 8)));
        const bool bad = chance(2);
        if (bad) a = kBad + (a & 0xfffff);
        auto t = std::make_shared<Txn>();
        t->addr = a;
        t->len = len;
        t->cache = uint8_t(rndn(16));
        t->qos = uint8_t(rndn(16));
        t->id = uint8_t(rndn(16));
        t->expect_resp = bad ? 3 : 0;
        M.rq.push_back(t);
        ++n_r;
        n_err += bad;
      }
    }
    if (b.cycle >= next_maint) {
      // maintenance during traffic: flush / invalidate anything; discard only the read-only
      // region (a discard of written data would make the expected image undefined)
      const unsigned kind = rndn(5);
      uint32_t code;
      if (kind == 0) code = b.maint(1, true, 0, 0);
      else if (kind == 1) code = b.maint(2, true, 0, 0);
      else if (kind == 2) {
        uint32_t lo = kS + (rndn(s_size) & ~63u);
        uint32_t hi = lo + 64 * (1 + rndn(256));
        code = b.maint(1 + rndn(2), false, lo, hi);
      } else {
        uint32_t lo = kR + (rndn(r_size / 2) & ~63u);
        uint32_t hi = lo + 64 * (1 + rndn(r_size / 128));
        code = b.maint(3, false, lo, hi);
      }
      CHECK(code == 0, "maintenance during traffic refused (%u)", code);
      ++n_maint;
      next_maint = b.cycle + 2000 + rndn(8000);
    }
    b.step();
  }
  b.drain(400000);
  CHECK(b.maint(1, true, 0, 0) == 0, "final flush refused");
  b.check_image("final image after flush");
  // read everything back from memory through an empty cache
  CHECK(b.maint(2, true, 0, 0) == 0, "final invalidate refused");
  for (uint32_t a = kS; a < kS + s_size; a += 256) {
    b.read(int((a >> 8) % kPorts), a, 8, chance(50) ? 0xf : 0);
    if (b.m[0].rq.size() > 4) b.drain(400000);
  }
  b.drain(400000);
  const uint32_t hits = b.rd(REG(HITS)), miss = b.rd(REG(MISSES)), ev = b.rd(REG(EVICTIONS)),
                 wb = b.rd(REG(WRITEBACKS)), st = b.rd(REG(STALLS));
  uint64_t bytes_tb = 0, bytes_hw = 0;
  for (int p = 0; p < kPorts; ++p) {
    bytes_tb += b.m[p].bytes;
    bytes_hw += b.rd(REG(PORT0_BYTES) + 4 * p);
  }
  CHECK(bytes_tb == bytes_hw, "port byte counters %" PRIu64 " != %" PRIu64, bytes_hw, bytes_tb);
  printf("  %" PRIu64 " cycles: %" PRIu64 " writes, %" PRIu64 " reads (%" PRIu64
         " to unmapped addresses), %" PRIu64 " maintenance ops during traffic\n",
         b.cycle, n_w, n_r, n_err, n_maint);
  printf("  hits %u misses %u evictions %u write-backs %u stall cycles %u\n", hits, miss, ev,
         wb, st);
  if (b.r_ilv)
    printf("  read-ahead refills (interleaved R): %" PRIu64 " written as one pair, %" PRIu64
           " beats 0 written alone\n", b.ilv_pairs, b.ilv_singles);
  end(name);
}

// Lines a power of two apart (64 rows 4 KiB apart, read twice): with the plain set index
// they fall into two sets of kWays ways and the second pass misses again; with the hashed
// index (CTRL.set_hash) they spread over the sets and the second pass hits. Also checks that
// the lines written back under either mapping land at their own addresses.
static void t_strided(bool hash) {
  begin(hash ? "strided lines, hashed set index: all stay cached" : "strided lines, plain set index: they conflict");
  Bench b(40, 32);
  b.limit = 2000000;
  const uint32_t rows = 64, stride = 4096;
  b.add_region(kS, rows * stride);
  for (uint32_t r = 0; r < rows; ++r) b.wait_txn(b.write(r % kPorts, kS + r * stride, 2, uint8_t(r + 1)));
  b.drain();
  b.wr(REG(CTRL), L2__CTRL__CNT_CLR_bm | ctrl_bits(8));
  for (uint32_t r = 0; r < rows; ++r) b.wait_txn(b.read(r % kPorts, kS + r * stride, 2));
  b.drain();
  const uint32_t miss = b.rd(REG(MISSES));
  if (hash) CHECK(miss == 0, "hashed index: %u of %u lines missed on the second pass", miss, rows);
  else CHECK(miss >= rows / 2, "plain index: only %u lines missed (rows 4 KiB apart should conflict)", miss);
  CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
  b.check_image("after flush");
  printf("  second pass: %u of %u lines missed\n", miss, rows);
  end(hash ? "strided lines, hashed set index: all stay cached" : "strided lines, plain set index: they conflict");
}

// The read-ahead never evicts a line it filled that no engine has read yet: one port reads
// 64 rows a set span apart (all in one set of kWays ways with the plain index), one beat
// each, 16 reads in flight (more bursts ahead than the set has ways). Every line must come from
// memory once (before this rule the read-ahead pushed its own lines out and the engine
// fetched them again: 1.4x the lines).
static void t_readahead_keeps_unread() {
  begin("read-ahead keeps the lines no engine has read yet");
  Bench b(40, 32);
  b.limit = 2000000;
  b.m[0].max_out = 16;
  const uint32_t rows = 64;
  b.add_region(kR, same_set_span(rows));
  for (uint32_t r = 0; r < rows; ++r) {
    b.read(0, same_set_addr(kR, int(r)), 1, 0xf);
    while (b.m[0].rq.size() > 8) b.step();
  }
  b.drain();
  CHECK(b.rd_beats == 2u * rows, "%" PRIu64 " read beats from memory for %u lines (expected %u: one refill per line)",
        b.rd_beats, rows, 2u * rows);
  printf("  %" PRIu64 " read beats from memory for %u lines\n", b.rd_beats, rows);
  end("read-ahead keeps the lines no engine has read yet");
}

// Stream hint (ARQOS[3:2], set by the TPC's block fills when the row goes on): the read-ahead
// also refills the one or two 256-byte blocks after the burst's block, so the master's next
// fills hit.
// Not when the burst ends before its block's end, nor in shared mode (the next block
// belongs to another slice there). Counted in downstream read beats.
static void t_readahead_stream_hint() {
  begin("read-ahead stream hint: the next block too");
  Bench b(40, 32);
  b.limit = 200000;
  b.add_region(kS, 8192);
  auto one = [&](uint32_t a, int len, uint8_t qos) {
    b.wait_txn(b.read(0, a, len, 0xf, qos));
    b.drain();
    for (int i = 0; i < 100; ++i) b.step();
  };
  one(kS, 8, 4);                    // hinted: blocks 0 and 1 come from memory
  CHECK(b.rd_beats == 16, "hinted 8-beat burst: %" PRIu64 " beats from memory (expected 16)", b.rd_beats);
  one(kS + 256, 8, 0);              // block 1 is in the cache already
  CHECK(b.rd_beats == 16, "read of the hinted next block: %" PRIu64 " beats from memory (expected 16)", b.rd_beats);
  one(kS + 512, 8, 0);              // no hint: its own block only
  CHECK(b.rd_beats == 24, "burst without the hint: %" PRIu64 " beats from memory (expected 24)", b.rd_beats);
  one(kS + 1024, 4, 4);             // hinted, but it ends mid-block: its own lines only
  CHECK(b.rd_beats == 28, "hinted burst ending mid-block: %" PRIu64 " beats from memory (expected 28)", b.rd_beats);
  one(kS + 1024 + 128, 4, 4 | 3);   // the rest of that block, hinted, class 3: next block too
  CHECK(b.rd_beats == 40, "hinted burst ending at its block's end: %" PRIu64 " beats from memory (expected 40)", b.rd_beats);
  // ARQOS[3:2] = 11: the burst's own lines and the next block were hinted before, only the
  // block two after is read ahead (here they were not: the engine's own misses fetch the
  // burst's lines, 8 beats, then the block two after, 8)
  one(kS + 2048, 8, 8 | 4);
  CHECK(b.rd_beats == 56, "hinted burst with its own lines skipped: %" PRIu64 " beats from memory (expected 56)", b.rd_beats);
  one(kS + 2048 + 512, 8, 0);
  CHECK(b.rd_beats == 56, "read of the block two after a skip hint: %" PRIu64 " beats from memory (expected 56)", b.rd_beats);
  one(kS + 2048 + 256, 8, 0);       // the block between was not read ahead
  CHECK(b.rd_beats == 64, "read of the block after a skip hint: %" PRIu64 " beats from memory (expected 64)", b.rd_beats);
  // ARQOS[3:2] = 10: the two blocks after the burst's too
  one(kS + 3072, 8, 8);
  CHECK(b.rd_beats == 88, "burst hinted two blocks ahead: %" PRIu64 " beats from memory (expected 88)", b.rd_beats);
  one(kS + 3072 + 256, 8, 0);
  one(kS + 3072 + 512, 8, 0);
  CHECK(b.rd_beats == 88, "reads of the two blocks hinted ahead: %" PRIu64 " beats from memory (expected 88)", b.rd_beats);
  CHECK(b.maint(2, true, 0, 0) == 0, "invalidate refused");
  b.wr(REG(SHARED), 1 | (1 << 4));  // shared mode, slice 1 of 2 (addr bit 8 = 1)
  one(kS + 4096 + 256, 8, 4);       // hinted, but the next block is slice 0's
  CHECK(b.rd_beats == 96, "hinted burst in shared mode: %" PRIu64 " beats from memory (expected 96)", b.rd_beats);
  one(kS + 4096 + 768, 8, 8 | 4);   // nor is the skip honoured there
  CHECK(b.rd_beats == 104, "skip-hinted burst in shared mode: %" PRIu64 " beats from memory (expected 104)", b.rd_beats);
  b.check_image("stream hint");
  printf("  %" PRIu64 " read beats from memory\n", b.rd_beats);
  end("read-ahead stream hint: the next block too");
}

// Tag probe (docs/l2.md "Engines"): a non-allocating write whose line the bank does not hold
// is posted without a bank cycle when the bank's arbiter gives the cycle to another
// requester. Two ports read one cached beat over and over (together a hit in about two of
// three cycles, checked to be at least one in two, all in one bank) while the third posts one-beat non-allocating writes to other lines of that
// bank: the writes must go about as fast as with the bank to themselves. Without the probe
// they get one bank cycle in three. Plain set index only (the bank of a line is computed
// here).
static void t_write_probe() {
  begin("tag probe: posted writes beside reads of the same bank");
  uint32_t nb = 0;   // banks (INFO.banks, a power of two): bank = (line ^ line / nb) mod nb
  auto bank_of = [&](uint32_t a) { const uint32_t l = a >> 6; return (l ^ (l / nb)) & (nb - 1); };
  const int n = 96;
  uint64_t took[2] = {0, 0};
  for (int contend = 0; contend < 2; ++contend) {
    Bench b(40, 32);
    b.limit = 400000;
    nb = (b.rd(REG(INFO)) >> 12) & 0xf;
    if (nb < 2 || (nb & (nb - 1)) != 0) {
      fail("INFO.banks %u: not a power of two >= 2", nb);
      end("tag probe: posted writes beside reads of the same bank");
      return;
    }
    b.add_region(kS, 64 * 1024);
    const uint32_t hot = kS;          // the line the readers hit
    b.wait_txn(b.read(0, hot, 2, 0xf));
    b.drain();
    b.m[0].max_out = b.m[2].max_out = 8;
    b.m[1].max_out = 8;
    std::vector<TxnP> ws;
    uint32_t a = kS + 64;
    for (int k = 0; k < n; ++k) {
      while (bank_of(a) != bank_of(hot)) a += 64;
      ws.push_back(b.write(1, a, 1, uint8_t(k), 0xffffffffu, 0x0));
      a += 64;
    }
    const uint64_t t0 = b.cycle;
    const uint32_t hits0 = b.rd(REG(HITS));
    while (!ws.back()->done) {
      if (contend) {
        for (int p : {0, 2})
          while (b.m[p].rq.size() < 4) b.read(p, hot + 32, 1, 0xf);
      }
      b.step();
      if (b.cycle - t0 > 100000) {
        b.diag("posted writes did not finish");
        break;
      }
    }
    took[contend] = b.cycle - t0;
    // the readers really kept the bank busy: a hit in at least every second cycle (about
    // two in three measured, with and without the probe)
    const uint32_t hits = b.rd(REG(HITS)) - hits0;
    if (contend)
      CHECK(2 * uint64_t(hits) >= took[1], "readers hit %u times in %" PRIu64 " cycles (expected one in two cycles or more)",
            hits, took[1]);
    for (int p : {0, 2}) b.m[p].rq.clear();
    b.drain();
    CHECK(b.rd(REG(BYPASS)) >= uint32_t(n), "BYPASS %u after %d posted writes", b.rd(REG(BYPASS)), n);
    CHECK(b.maint(1, true, 0, 0) == 0, "flush refused");
    b.check_image("tag probe");
  }
  printf("  %d posted one-beat writes: %" PRIu64 " cycles alone, %" PRIu64 " beside two reading ports\n",
         n, took[0], took[1]);
  CHECK(took[1] * 100 <= took[0] * 115, "posted writes beside reads took %" PRIu64 " cycles, alone %" PRIu64
        " (more than 15 %% slower: the bank cycles decide)", took[1], took[0]);
  end("tag probe: posted writes beside reads of the same bank");
}

// ---------------------------------------------------------------- benchmarks
static void bench() {
  printf("L2 slice benchmarks (size %u B, %d ways, %d ports, 4 banks, 32 B/beat)\n", L2_SIZE,
         kWays, kPorts);
  // 1. hit bandwidth: working set of half the cache, all ports stream 8-beat reads
  {
    Bench b(40, 32);
    b.limit = 10000000;
    const uint32_t ws = L2_SIZE / 2;
    b.add_region(kR, ws);
    for (uint32_t a = kR; a < kR + ws; a += 256) b.read(int((a >> 8) % 3), a, 8, 0xf);
    b.drain(2000000);
    for (int mode = 0; mode < 2; ++mode) {
      // mode 0: reads on 3 ports; mode 1: reads and writes on 3 ports
      const uint64_t t0 = b.cycle;
      uint64_t bytes0 = 0;
      for (int p = 0; p < kPorts; ++p) bytes0 += b.m[p].bytes;
      for (int rep = 0; rep < 4; ++rep)
        for (int p = 0; p < kPorts; ++p)
          for (uint32_t a = kR + p * 256; a < kR + ws; a += 256 * kPorts) {
            b.read(p, a, 8, 0xf);
            if (mode) {
              auto t = b.write(p, a, 8, 1, 0, 0xf);  // strobes 0: no data change
              (void)t;
            }
          }
      b.drain(4000000);
      uint64_t bytes = 0;
      for (int p = 0; p < kPorts; ++p) bytes += b.m[p].bytes;
      bytes -= bytes0;
      const double cyc = double(b.cycle - t0 - 20);
      const double peak = mode ? 128.0 : 96.0;
      printf("  hit bandwidth, %s: %.1f B/cycle (peak %.0f: %s) = %.0f%%\n",
             mode ? "3 ports read+write" : "3 ports read", bytes / cyc, peak,
             mode ? "4 banks x 32 B" : "3 read engines x 32 B", 100.0 * bytes / cyc / peak);
      bench_record(mode ? "l2_block/hit_bw_read_write" : "l2_block/hit_bw_read", nullptr, cyc, bytes / peak,
                   "\"bytes\":%llu,\"peak_bytes_per_cycle\":%.0f", (unsigned long long)bytes, peak);
    }
    for (int i = 0; i < 3; ++i) (void)i;
  }
  // 2. miss latency
  {
    Bench b(40, 32);
    b.limit = 1000000;
    b.add_region(kS, 65536);
    auto r = b.read(0, kS, 1, 0xf);
    b.wait_txn(r);
    const uint64_t clean = r->t_first - r->t_issue;
    auto r2 = b.read(0, kS + 0x2000, 1, 0x0);
    b.wait_txn(r2);
    const uint64_t byp = r2->t_first - r2->t_issue;
    auto h = b.read(0, kS, 1, 0xf);
    b.wait_txn(h);
    const uint64_t hit = h->t_first - h->t_issue;
    // dirty miss: fill one set with dirty lines, then miss in it
    for (int k = 0; k < kWays; ++k) b.wait_txn(b.write(0, same_set_addr(kS + 0x4000, k) , 2, 1));
    auto d = b.read(0, same_set_addr(kS + 0x4000, kWays), 1, 0xf);
    b.wait_txn(d);
    const uint64_t dirty = d->t_first - d->t_issue;
    printf("  latency (memory read latency 40 cycles), AR accepted -> first R beat:\n");
    printf("    hit %" PRIu64 ", clean miss %" PRIu64 ", non-allocating miss %" PRIu64
           ", miss with dirty victim %" PRIu64 " cycles\n", hit, clean, byp, dirty);
    const char* lname[4] = {"hit", "clean_miss", "nalloc_miss", "dirty_miss"};
    const uint64_t lval[4] = {hit, clean, byp, dirty};
    for (int i = 0; i < 4; ++i) {
      char name[64];
      snprintf(name, sizeof name, "l2_block/latency_%s", lname[i]);
      bench_record(name, nullptr, double(lval[i]), 0, "\"mem_latency\":40");
    }
  }
  // 3. cold streaming through the slice (one port, 8-beat bursts, 8 in flight, like a DMA
  // engine): reads, full-line writes, and a copy (reads + writes on one port). Peak 32 B/cycle
  // per direction.
  {
    printf("  cold streams, one port, 8-beat bursts, 8 in flight (memory latency 40, 32 B/cycle):\n");
    const uint32_t n = L2_SIZE * 4;
    // (v 4: the copy again with a 64 B/cycle memory, so that reads and write-backs each
    // have the port's 32 B/cycle as in the chip, where the HBM channels are 4 x 32 B/cycle)
    // (v 5: writes that do not allocate: each beat passes through to memory, posted)
    for (int v = 0; v < 6; ++v) {
      Bench b(40, v == 4 ? 64 : 32);
      b.limit = 20000000;
      b.m[2].max_out = 8;
      b.add_region(kS, n);
      b.add_region(kR, n);
      const uint8_t cache = (v == 3 || v == 5) ? 0x0 : 0xf;
      const bool rd = v != 1 && v != 5, wr = v == 1 || v == 2 || v == 4 || v == 5;
      const uint64_t t0 = b.cycle;
      for (uint32_t o = 0; o < n; o += 256) {
        if (rd) b.read(2, kR + o, 8, cache);
        if (wr) b.write(2, kS + o, 8, uint8_t(o >> 8), 0xffffffffu, cache);
        while (b.m[2].rq.size() > 4 || b.m[2].wq.size() > 4) b.step();
      }
      b.drain(4000000);
      const double cyc = double(b.cycle - t0 - 20);
      const char* what[6] = {"read (allocate)", "write full lines (allocate)",
                             "copy: read + write (allocate)", "read (no allocate)",
                             "copy, memory 64 B/cycle", "write (no allocate)"};
      printf("    %-32s: %8.0f cycles, %.1f B/cycle per direction = %.0f%% of 32\n", what[v], cyc,
             n / cyc, 100.0 * n / cyc / 32.0);
      printf("      downstream: %.1f read beats in flight on average, no read in flight %.0f%% "
             "of cycles, up to %u read bursts in flight, %" PRIu64 " W beats\n",
             double(b.rd_occ_sum) / double(b.cycle), 100.0 * double(b.rd_idle_cycles) / double(b.cycle),
             b.rd_out_max, b.wr_beats);
      printf("      slice: hits %u misses %u evictions %u write-backs %u stall cycles %u\n",
             b.rd(REG(HITS)), b.rd(REG(MISSES)), b.rd(REG(EVICTIONS)), b.rd(REG(WRITEBACKS)),
             b.rd(REG(STALLS)));
      const char* rname[6] = {"read_alloc", "write_alloc", "copy_alloc", "read_nalloc", "copy_mem64",
                              "write_nalloc"};
      char name[64];
      snprintf(name, sizeof name, "l2_block/stream_%s", rname[v]);
      bench_record(name, nullptr, cyc, n / 32.0,
                   "\"bytes\":%u,\"rd_in_flight_avg\":%.2f,\"rd_idle_pct\":%.1f,\"rd_out_max\":%u,"
                   "\"w_beats\":%llu,\"hits\":%u,\"misses\":%u,\"evictions\":%u,\"writebacks\":%u,"
                   "\"stalls\":%u",
                   n, double(b.rd_occ_sum) / double(b.cycle), 100.0 * double(b.rd_idle_cycles) / double(b.cycle),
                   b.rd_out_max, (unsigned long long)b.wr_beats, b.rd(REG(HITS)), b.rd(REG(MISSES)),
                   b.rd(REG(EVICTIONS)), b.rd(REG(WRITEBACKS)), b.rd(REG(STALLS)));
    }
  }
  // 5. strided one-beat reads (the B panel of an MME GEMM with a 4 KiB row stride): for
  // each 32-byte column group, 64 rows 4 KiB apart, 16 reads in flight on port 0; plain
  // and hashed set index.
  for (int hv = 0; hv < 2; ++hv) {
    g_hash = hv == 1;
    Bench b(40, 32);
    b.limit = 20000000;
    b.m[0].max_out = 16;
    const uint32_t rows = 64, groups = 16, stride = 4096;
    b.add_region(kR, rows * stride);
    const uint64_t t0 = b.cycle;
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t r = 0; r < rows; ++r) {
        b.read(0, kR + r * stride + g * 32, 1, 0xf);
        while (b.m[0].rq.size() > 8) b.step();
      }
    b.drain(4000000);
    const uint32_t hits = b.rd(REG(HITS)), miss = b.rd(REG(MISSES));
    printf("  strided one-beat reads (%u rows %u B apart, %u column groups), %s set index: %" PRIu64
           " cycles for %u beats, hits %u, misses %u, up to %u downstream reads in flight\n",
           rows, stride, groups, g_hash ? "hashed" : "plain", b.cycle - t0, rows * groups, hits,
           miss, b.rd_out_max);
    bench_record(g_hash ? "l2_block/strided_hashed" : "l2_block/strided_plain", nullptr, double(b.cycle - t0),
                 double(rows * groups), "\"hits\":%u,\"misses\":%u,\"rd_out_max\":%u", hits, miss,
                 b.rd_out_max);
  }
  g_hash = false;
  // 4. hints: reuse set (16 KiB for proto, quarter of the cache) re-read by port 0 while
  // port 1 streams 4x the cache size once, interleaved. Streaming hint variants.
  {
    const char* names[3] = {"stream allocates, same class as reuse",
                            "stream allocates, class 0; reuse class 3",
                            "stream does not allocate"};
    printf("  streaming + reuse mix (reuse set %u B re-read 6x, stream %u B once):\n",
           L2_SIZE / 2, L2_SIZE * 4);
    for (int v = 0; v < 3; ++v) {
      Bench b(40, 32);
      b.limit = 20000000;
      const uint32_t reuse = L2_SIZE / 2, stream = L2_SIZE * 4;
      b.add_region(kR, reuse);
      b.add_region(kS, stream);
      const uint8_t sc = v == 2 ? 0x0 : 0xf, sq = v == 1 ? 0 : 3, rq = 3;
      const uint64_t t0 = b.cycle;
      uint32_t sa = kS;
      for (int rep = 0; rep < 6; ++rep)
        for (uint32_t a = kR; a < kR + reuse; a += 256) {
          b.read(0, a, 8, 0xf, rq);
          for (int k = 0; k < 4 && sa < kS + stream; ++k, sa += 256) b.read(1 + (k & 1), sa, 8, sc, sq);
          if (b.m[0].rq.size() > 2) b.drain(4000000);
        }
      b.drain(4000000);
      const uint32_t hits = b.rd(REG(HITS)), miss = b.rd(REG(MISSES));
      printf("    %-42s: %8" PRIu64 " cycles, hits %6u, misses %6u\n", names[v], b.cycle - t0,
             hits, miss);
      const char* mname[3] = {"l2_block/mix_stream_same_class", "l2_block/mix_stream_class0",
                              "l2_block/mix_stream_no_alloc"};
      bench_record(mname[v], nullptr, double(b.cycle - t0), 0, "\"hits\":%u,\"misses\":%u", hits, miss);
    }
  }
}

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  bool do_bench = false;
  unsigned seeds = 1;
  g_seed = tf_env_seed(1);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) g_seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) g_cycles = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--bench")) do_bench = true;
    else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = unsigned(strtoul(argv[++i], nullptr, 0));
    else if (!strcmp(argv[i], "-v")) g_verbose = true;
    else if (!strcmp(argv[i], "--trace")) g_trace = true;
    else if (!strcmp(argv[i], "--watch") && i + 1 < argc) g_watch = uint32_t(strtoul(argv[++i], nullptr, 0));
    else if (argv[i][0] != '+') {  // +args are Verilator's (Verilated::commandArgs)
      fprintf(stderr, "usage: %s [--seed N] [--seeds N] [--cycles N] [--bench] [-v] [--trace] [--watch ADDR]\n",
              argv[0]);
      return 2;
    }
  }
  if (g_seed == 0) g_seed = 1;
  g_rng = g_seed * 0x9E3779B97F4A7C15ull + 1;
  printf("l2_tb: seed %" PRIu64 " (reproduce with --seed %" PRIu64 "), L2 size %u, %d banks, %d read master%s\n",
         g_seed, g_seed, L2_SIZE, L2_BANKS, L2_RD_MASTERS, L2_RD_MASTERS == 2 ? "s" : "");
  if (do_bench) {
    begin("benchmarks (data checked)");
    bench();
    end("benchmarks (data checked)");
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
  }
  // two passes: plain set index, then CTRL.set_hash (the tests that depend on the mapping
  // find their same-set lines through same_set_addr)
  for (int pass = 0; pass < 2; ++pass) {
    g_hash = pass == 1;
    if (g_hash) printf("-- second pass: CTRL.set_hash = 1 (hashed set index)\n");
    t_basic();
    t_two_masters_same_line();
    t_dirty_eviction();
    t_dirty_bytes();
    t_discard();
    if (!g_hash) {
      t_errors();
      t_message();
      t_hang_detect();
      t_outstanding(1);
      t_outstanding(2);
    }
    t_shared_mode();
    t_hints();
    t_lru_order();
    t_outstanding(0);
    t_strided(g_hash);
    t_readahead_keeps_unread();
    t_readahead_stream_hint();
    if (!g_hash) t_write_probe();
    // random runs: seeds seed .. seed+seeds-1 (each reproducible alone with --seed)
    for (unsigned k = 0; k < seeds; ++k) {
      const uint64_t sd = g_seed + k;
      char n1[160], n2[160];
      const char* h = g_hash ? ", set hash" : "";
      snprintf(n1, sizeof n1, "random traffic, 3 masters, maintenance during traffic%s (seed %" PRIu64 ")", h, sd);
      snprintf(n2, sizeof n2, "random traffic, back-pressure, interleaved R, latency 7, 16 B/cycle%s (seed %" PRIu64 ")", h, sd);
      g_rng = sd * 0x9E3779B97F4A7C15ull + 1 + (g_hash ? 16 : 0);
      t_random(40, 32, false, n1);
      g_rng = sd * 0x9E3779B97F4A7C15ull + 2 + (g_hash ? 16 : 0);
      t_random(7, 16, true, n2);
    }
  }
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
