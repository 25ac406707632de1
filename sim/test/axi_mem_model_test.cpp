// Self-test of the reusable AXI4 memory model (sim/src/axi_mem_model.{h,cpp}).
// A randomized AXI master drives the model through the cycle protocol documented
// in axi_mem_model.h and checks data, response order, IDs, latency, bandwidth,
// byte strobes and DECERR against a reference byte map.
//   usage: axi_mem_model_test [--seed N] [-v]
// Ends with "N passed, M failed".
#include "axi_mem_model.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>
#include "../../tests/framework/tf_seed.h"

using namespace tessera;

namespace {

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
  bool chance(unsigned pct) { return below(100) < pct; }
};

struct Txn {
  bool write;
  uint32_t id;
  uint64_t addr;
  unsigned len;   // beats
  unsigned size;  // log2 bytes
  std::vector<std::vector<uint8_t>> data;  // per beat, data_bytes each (writes)
  std::vector<uint32_t> strb;
  uint64_t accepted_at = 0;
  unsigned beats_done = 0;
};

// A simple randomized master around one model.
class Master {
 public:
  Master(AxiMemModel& m, Rng& rng, unsigned stall_pct)
      : m_(m), rng_(rng), stall_(stall_pct), db_(m.config().data_bytes) {}

  std::deque<Txn> aw_q, ar_q;         // to issue
  std::deque<Txn> w_q;                // AW issued, W beats to send (in AW order)
  std::deque<Txn> b_wait;             // waiting for B (in issue order per id)
  std::deque<Txn> r_wait;             // reads accepted, in acceptance order
  std::function<void(const Txn&, uint8_t)> on_b;
  std::function<void(Txn&, unsigned beat, const uint32_t*, uint8_t resp, bool last)> on_r;
  uint64_t cycle = 0;
  uint64_t r_beats = 0, first_r_cycle = 0, last_r_cycle = 0;
  std::string error;

  void step() {
    AxiMemPort& p = port;
    const bool aw_hs = p.awvalid && p.awready;
    const bool w_hs = p.wvalid && p.wready;
    const bool ar_hs = p.arvalid && p.arready;
    const bool b_hs = p.bvalid && p.bready;
    const bool r_hs = p.rvalid && p.rready;
    // Capture responses (as presented this cycle).
    if (b_hs) {
      if (b_wait.empty()) fail("B with no write outstanding");
      else {
        // Same-ID in order: find the oldest write with this id.
        auto it = b_wait.begin();
        while (it != b_wait.end() && it->id != p.bid) ++it;
        if (it == b_wait.end()) fail("B with unknown id");
        else {
          if (on_b) on_b(*it, p.bresp);
          b_wait.erase(it);
        }
      }
    }
    if (r_hs) {
      auto it = r_wait.begin();
      while (it != r_wait.end() && it->id != p.rid) ++it;
      if (it == r_wait.end()) fail("R with unknown id");
      else {
        if (it->beats_done == 0 && cycle < it->accepted_at + m_.config().read_latency)
          fail("R beat earlier than read latency");
        ++r_beats;
        if (!first_r_cycle) first_r_cycle = cycle;
        last_r_cycle = cycle;
        bool last = it->beats_done + 1 == it->len;
        if (p.rlast != last) fail("RLAST wrong");
        if (on_r) on_r(*it, it->beats_done, p.rdata, p.rresp, p.rlast);
        if (++it->beats_done == it->len) r_wait.erase(it);
      }
    }
    m_.tick(p);
    const uint64_t hs_cycle = cycle++;
    // Master side updates after the edge.
    if (aw_hs) {
      Txn t = aw_q.front();
      aw_q.pop_front();
      t.accepted_at = hs_cycle;
      w_q.push_back(t);
      b_wait.push_back(t);
      p.awvalid = false;
    }
    if (ar_hs) {
      Txn t = ar_q.front();
      ar_q.pop_front();
      t.accepted_at = hs_cycle;
      r_wait.push_back(t);
      p.arvalid = false;
    }
    if (w_hs) {
      Txn& t = w_q.front();
      if (++t.beats_done == t.len) w_q.pop_front();
      p.wvalid = false;
    }
    // Present new requests (random gaps).
    if (!p.awvalid && !aw_q.empty() && !rng_.chance(stall_)) {
      const Txn& t = aw_q.front();
      p.awvalid = true;
      p.awid = t.id;
      p.awaddr = t.addr;
      p.awlen = uint8_t(t.len - 1);
      p.awsize = uint8_t(t.size);
      p.awburst = kAxiBurstIncr;
    }
    if (!p.arvalid && !ar_q.empty() && !rng_.chance(stall_)) {
      const Txn& t = ar_q.front();
      p.arvalid = true;
      p.arid = t.id;
      p.araddr = t.addr;
      p.arlen = uint8_t(t.len - 1);
      p.arsize = uint8_t(t.size);
      p.arburst = kAxiBurstIncr;
    }
    if (!p.wvalid && !w_q.empty() && !rng_.chance(stall_)) {
      const Txn& t = w_q.front();
      unsigned b = t.beats_done;
      p.wvalid = true;
      for (unsigned w = 0; w < db_ / 4; ++w) {
        const uint8_t* d = &t.data[b][4 * w];
        p.wdata[w] = uint32_t(d[0]) | uint32_t(d[1]) << 8 | uint32_t(d[2]) << 16 |
                     uint32_t(d[3]) << 24;
      }
      p.wstrb = t.strb[b];
      p.wlast = (b + 1 == t.len);
    }
    p.bready = !rng_.chance(stall_);
    p.rready = !rng_.chance(stall_);
  }

  bool done() const {
    return aw_q.empty() && ar_q.empty() && w_q.empty() && b_wait.empty() && r_wait.empty() &&
           !port.awvalid && !port.arvalid && !port.wvalid;
  }
  bool run(uint64_t budget) {
    for (uint64_t i = 0; i < budget && error.empty(); ++i) {
      if (done()) return true;
      step();
    }
    if (error.empty()) fail("timeout: transactions never completed");
    return false;
  }
  void fail(const std::string& e) {
    if (error.empty()) error = e + " (cycle " + std::to_string(cycle) + ")";
  }
  AxiMemPort port;

 private:
  AxiMemModel& m_;
  Rng& rng_;
  unsigned stall_;
  unsigned db_;
};

int g_pass = 0, g_fail = 0;
bool g_verbose = false;

void report(const char* name, const std::string& err) {
  if (err.empty()) {
    ++g_pass;
    std::printf("PASS  %s\n", name);
  } else {
    ++g_fail;
    std::printf("FAIL  %s: %s\n", name, err.c_str());
  }
}

// Random writes then reads back, compared with a reference byte map.
std::string test_random_rw(uint64_t seed, unsigned data_bytes, unsigned latency, unsigned bpc,
                           unsigned stall) {
  Rng rng(seed);
  AxiMemConfig cfg;
  cfg.data_bytes = data_bytes;
  cfg.base = 0x80000000ull;
  cfg.size = 0x40000000ull;
  cfg.read_latency = latency;
  cfg.bytes_per_cycle = bpc;
  cfg.max_reads = 4;
  cfg.max_writes = 4;
  AxiMemModel m(cfg);
  Master ms(m, rng, stall);
  std::map<uint64_t, uint8_t> ref;
  const unsigned szmax = __builtin_ctz(data_bytes);
  std::string err;
  uint64_t bytes_strobed = 0;
  // A handful of hot 4 KiB windows so that reads hit written data.
  std::vector<uint64_t> windows;
  for (int i = 0; i < 4; ++i) windows.push_back(cfg.base + (uint64_t(rng.below(1u << 18)) << 12));

  ms.on_b = [&](const Txn&, uint8_t resp) {
    if (resp != kAxiOkay) ms.fail("unexpected BRESP");
  };
  ms.on_r = [&](Txn& t, unsigned beat, const uint32_t* d, uint8_t resp, bool) {
    if (resp != kAxiOkay) {
      ms.fail("unexpected RRESP");
      return;
    }
    uint64_t bytes = 1ull << t.size;
    uint64_t a = beat ? (t.addr & ~(bytes - 1)) + beat * bytes : t.addr;
    uint64_t hi = (a & ~(bytes - 1)) + bytes;
    for (uint64_t x = a; x < hi; ++x) {
      unsigned lane = unsigned(x & (data_bytes - 1));
      uint8_t got = uint8_t(d[lane / 4] >> (8 * (lane % 4)));
      auto it = ref.find(x);
      uint8_t exp = it == ref.end() ? 0 : it->second;
      if (got != exp) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "read data mismatch at 0x%" PRIx64 ": got %02x exp %02x", x,
                      got, exp);
        ms.fail(buf);
        return;
      }
    }
  };
  for (int round = 0; round < 6 && ms.error.empty(); ++round) {
    std::vector<std::pair<uint64_t, unsigned>> spans;  // (addr,size) for reads
    for (int i = 0; i < 40; ++i) {
      Txn t;
      t.write = true;
      t.id = rng.below(16);
      t.size = rng.below(szmax + 1);
      t.len = 1 + rng.below(8);
      uint64_t bytes = 1ull << t.size;
      t.addr = windows[rng.below(windows.size())] + rng.below(4096 - 8 * data_bytes);
      if (rng.chance(70)) t.addr &= ~(bytes - 1);  // mostly aligned, some unaligned starts
      for (unsigned b = 0; b < t.len; ++b) {
        std::vector<uint8_t> d(data_bytes);
        for (auto& x : d) x = uint8_t(rng.next());
        uint32_t strb = uint32_t(rng.next()) & (data_bytes == 32 ? 0xFFFFFFFFu : ((1u << data_bytes) - 1));
        if (rng.chance(50)) strb = data_bytes == 32 ? 0xFFFFFFFFu : ((1u << data_bytes) - 1);
        // Expected effect: lanes of this beat & strobe.
        uint64_t a = b ? (t.addr & ~(bytes - 1)) + b * bytes : t.addr;
        uint64_t hi = (a & ~(bytes - 1)) + bytes;
        for (uint64_t x = a; x < hi; ++x) {
          unsigned lane = unsigned(x & (data_bytes - 1));
          if ((strb >> lane) & 1) {
            ref[x] = d[lane];
            ++bytes_strobed;
          }
        }
        t.data.push_back(d);
        t.strb.push_back(strb);
      }
      spans.push_back({t.addr, t.size});
      ms.aw_q.push_back(t);
    }
    if (!ms.run(200000)) break;
    for (int i = 0; i < 60; ++i) {
      Txn t;
      t.write = false;
      t.id = rng.below(16);
      t.size = rng.below(szmax + 1);
      t.len = 1 + rng.below(8);
      t.addr = rng.chance(70) ? spans[rng.below(spans.size())].first
                              : windows[rng.below(windows.size())] + rng.below(2048);
      ms.ar_q.push_back(t);
    }
    if (!ms.run(400000)) break;
  }
  if (ms.error.empty() && m.counters().bytes_written != bytes_strobed)
    ms.fail("bytes_written counter " + std::to_string(m.counters().bytes_written) + " != " +
            std::to_string(bytes_strobed));
  if (ms.error.empty() && m.counters().busy_cycles == 0) ms.fail("busy_cycles counter is 0");
  return ms.error;
}

// Long stream of full-width reads with no stalls: check beats/cycle matches bpc.
std::string test_bandwidth(unsigned bpc, unsigned latency) {
  Rng rng(1);
  AxiMemConfig cfg;
  cfg.read_latency = latency;
  cfg.bytes_per_cycle = bpc;
  cfg.max_reads = 64;
  AxiMemModel m(cfg);
  Master ms(m, rng, 0);
  const unsigned bursts = 256;
  for (unsigned i = 0; i < bursts; ++i) {
    Txn t;
    t.write = false;
    t.id = i & 15;
    t.size = 5;
    t.len = 8;
    t.addr = cfg.base + i * 256ull;
    ms.ar_q.push_back(t);
  }
  if (!ms.run(1000000)) return ms.error;
  double span = double(ms.last_r_cycle - ms.first_r_cycle + 1);
  double got = double(ms.r_beats) * 32.0 / span;  // bytes/cycle
  double want = bpc >= 32 ? 32.0 : double(bpc);
  if (got > want * 1.02 || got < want * 0.95) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "measured %.2f B/cycle, expected %.2f", got, want);
    return buf;
  }
  if (g_verbose) std::printf("      bpc=%u: %.2f B/cycle\n", bpc, got);
  if (m.counters().bytes_read != uint64_t(bursts) * 256) return "bytes_read counter wrong";
  return "";
}

// Exact latency of a single read: first R beat valid exactly `latency` cycles after
// the AR handshake when the master is always ready.
std::string test_latency(unsigned latency) {
  Rng rng(2);
  AxiMemConfig cfg;
  cfg.read_latency = latency;
  AxiMemModel m(cfg);
  Master ms(m, rng, 0);
  Txn t;
  t.write = false;
  t.id = 3;
  t.size = 5;
  t.len = 1;
  t.addr = cfg.base + 0x100;
  ms.ar_q.push_back(t);
  uint64_t ar_cycle = 0;
  for (int i = 0; i < 1000 && !ms.done(); ++i) {
    if (ms.port.arvalid && ms.port.arready) ar_cycle = ms.cycle;
    ms.step();
  }
  if (!ms.done()) return "read never completed";
  uint64_t lat = ms.first_r_cycle - ar_cycle;
  if (lat != latency)
    return "latency " + std::to_string(lat) + " != configured " + std::to_string(latency);
  return ms.error;
}

// Bank/row model: a single read's latency is read_latency, plus row_miss_cycles when
// its row is not the open row of its bank (rows interleave over the banks).
static uint64_t one_read_latency(AxiMemModel& m, Rng& rng, uint64_t addr, std::string* err) {
  Master ms(m, rng, 0);
  Txn t;
  t.write = false;
  t.id = 1;
  t.size = 5;
  t.len = 2;
  t.addr = addr;
  ms.ar_q.push_back(t);
  uint64_t ar_cycle = 0;
  for (int i = 0; i < 1000 && !ms.done(); ++i) {
    if (ms.port.arvalid && ms.port.arready) ar_cycle = ms.cycle;
    ms.step();
  }
  if (!ms.done()) *err = "read never completed";
  else if (!ms.error.empty()) *err = ms.error;
  return ms.first_r_cycle - ar_cycle;
}

std::string test_row_model() {
  Rng rng(5);
  AxiMemConfig cfg;
  cfg.read_latency = 10;
  cfg.banks = 4;
  cfg.row_bytes = 2048;
  cfg.row_miss_cycles = 20;
  AxiMemModel m(cfg);
  // (offset, expected latency): row 0 opens; row 0 again; row 4 (bank 0) replaces it;
  // row 0 again (bank 0 now has row 4); row 1 (bank 1, first use); row 1 again
  const struct { uint64_t off; uint64_t lat; } seq[] = {
      {0x100, 30}, {0x7C0, 10}, {4 * 2048, 30}, {0x40, 30}, {2048 + 64, 30}, {2048, 10}};
  for (const auto& x : seq) {
    std::string err;
    uint64_t lat = one_read_latency(m, rng, cfg.base + x.off, &err);
    if (!err.empty()) return err;
    if (lat != x.lat)
      return "offset " + std::to_string(x.off) + ": latency " + std::to_string(lat) + ", expected " +
             std::to_string(x.lat);
  }
  if (m.counters().row_misses != 4) return "row_misses " + std::to_string(m.counters().row_misses) + " != 4";
  return "";
}

// DECERR: outside the region and (with interleave) in the wrong channel.
std::string test_decerr() {
  Rng rng(3);
  AxiMemConfig cfg;
  cfg.read_latency = 5;
  cfg.num_channels = 4;
  cfg.interleave_bytes = 256;
  cfg.channel = 1;
  AxiMemModel m(cfg);
  Master ms(m, rng, 0);
  std::vector<uint8_t> rresp, bresp;
  ms.on_r = [&](Txn&, unsigned, const uint32_t* d, uint8_t resp, bool last) {
    if (resp != kAxiOkay)
      for (unsigned w = 0; w < 8; ++w)
        if (d[w]) ms.fail("DECERR beat carries data");
    if (last) rresp.push_back(resp);
  };
  ms.on_b = [&](const Txn&, uint8_t resp) { bresp.push_back(resp); };
  const uint64_t good = cfg.base + 1 * 256;   // channel 1
  const uint64_t wrong = cfg.base + 2 * 256;  // channel 2
  const uint64_t outside = cfg.base + cfg.size + 256 * 5;
  for (uint64_t a : {good, wrong, outside, uint64_t(0x100)}) {
    Txn t;
    t.write = false;
    t.id = 0;
    t.size = 5;
    t.len = 2;
    t.addr = a;
    ms.ar_q.push_back(t);
    Txn w = t;
    w.write = true;
    w.data.assign(2, std::vector<uint8_t>(32, 0xAB));
    w.strb.assign(2, 0xFFFFFFFFu);
    ms.aw_q.push_back(w);
  }
  if (!ms.run(10000)) return ms.error;
  const uint8_t exp[4] = {kAxiOkay, kAxiDecErr, kAxiDecErr, kAxiDecErr};
  if (rresp.size() != 4 || bresp.size() != 4) return "missing responses";
  for (int i = 0; i < 4; ++i) {
    if (rresp[i] != exp[i]) return "RRESP " + std::to_string(i) + " = " + std::to_string(rresp[i]);
    if (bresp[i] != exp[i]) return "BRESP " + std::to_string(i) + " = " + std::to_string(bresp[i]);
  }
  if (m.mem().read32(wrong) != 0) return "misrouted write modified memory";
  if (m.mem().read32(good) != 0xABABABABu) return "good write missing";
  if (m.counters().decerr != 6) return "decerr counter " + std::to_string(m.counters().decerr);
  return ms.error;
}

// Sparse storage semantics and back door.
std::string test_sparse() {
  SparseMem mem;
  if (mem.read32(0x80001234) != 0) return "untouched memory not zero";
  if (mem.pages_allocated() != 0) return "read allocated a page";
  mem.write32(0x80000FFE, 0x11223344);  // crosses a page
  if (mem.pages_allocated() != 2) return "page-crossing write did not allocate two pages";
  if (mem.read32(0x80000FFE) != 0x11223344) return "page-crossing read wrong";
  uint8_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  mem.write_strobed(0x90000000, src, 8, 0xA5);
  uint8_t got[8];
  mem.read(0x90000000, got, 8);
  const uint8_t exp[8] = {1, 0, 3, 0, 0, 6, 0, 8};
  if (std::memcmp(got, exp, 8)) return "write_strobed wrong";
  mem.clear();
  if (mem.read32(0x80000FFE) != 0 || mem.pages_allocated()) return "clear failed";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 0;
  bool have_seed = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
      have_seed = true;
    } else if (!std::strcmp(argv[i], "-v")) {
      g_verbose = true;
    } else {
      std::fprintf(stderr, "usage: %s [--seed N] [-v]\n", argv[0]);
      return 2;
    }
  }
  if (!have_seed) seed = tf_env_seed(1);
  std::printf("axi_mem_model_test seed %" PRIu64 " (reproduce with --seed %" PRIu64 ")\n", seed,
              seed);
  report("sparse_storage", test_sparse());
  report("latency_1", test_latency(1));
  report("latency_40", test_latency(40));
  report("bandwidth_32", test_bandwidth(32, 40));
  report("bandwidth_8", test_bandwidth(8, 10));
  report("bandwidth_20", test_bandwidth(20, 3));
  report("decerr", test_decerr());
  report("row_model", test_row_model());
  report("random_rw_256b", test_random_rw(seed, 32, 40, 32, 20));
  report("random_rw_256b_slow", test_random_rw(seed + 1, 32, 7, 12, 40));
  report("random_rw_64b", test_random_rw(seed + 2, 8, 3, 8, 30));
  report("random_rw_32b_nostall", test_random_rw(seed + 3, 4, 1, 64, 0));
  std::printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
