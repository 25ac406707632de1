// tessera_axi_mem_mux block testbench (through tests/sdram/tb_axi_mux_top.sv): two
// random AXI managers against an in-order memory model on the subordinate side.
//  - each manager writes and reads its own interleaved 256-byte granules of a 64 KB
//    window (as the crossbar's two device-memory channels do), never a granule with a
//    burst of the other direction outstanding, and keeps a byte reference of its region;
//  - every AR/AW reaching the subordinate must be the one a manager handed over in that
//    cycle, unchanged; the W beats of a burst must come from its AW's port; every R beat
//    and B must reach the port of its burst (only that port sees a valid), with the ID
//    passed through; every read beat is compared with the reference (all 32 bytes);
//  - at the end the memory model's window equals both references, and both managers
//    progressed (when the first finished, the other had done at least half its bursts).
// Usage: Vtb_axi_mux_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "Vtb_axi_mux_top.h"
#include "verilated.h"

#include "blk_tb.h"

namespace {

const unsigned kBeat = 32;
const uint32_t kWin = 64u << 10;       // test window, bytes
const uint32_t kBase = 0x80000000u;
const unsigned kGran = 256;            // granule: port = granule index & 1

Vtb_axi_mux_top *dut;

struct Burst {
  bool write = false;
  uint32_t id = 0, addr = 0, len = 0, size = 5, burst = 1;
  std::vector<uint8_t> data;           // write: (len+1)*32 bytes
  std::vector<uint32_t> strb;          // write: one strobe word per beat
};

// pin access of one manager port (pointers into the Verilated model)
struct Pins {
  SData *awid; IData *awaddr; CData *awlen, *awsize, *awburst, *awvalid, *awready;
  VlWide<8> *wdata; IData *wstrb; CData *wlast, *wvalid, *wready;
  SData *bid; CData *bresp, *bvalid, *bready;
  SData *arid; IData *araddr; CData *arlen, *arsize, *arburst, *arvalid, *arready;
  SData *rid; VlWide<8> *rdata; CData *rresp, *rlast, *rvalid, *rready;
};

#define TB_PINS(p)                                                                           \
  Pins {                                                                                     \
    &dut->p##awid_i, &dut->p##awaddr_i, &dut->p##awlen_i, &dut->p##awsize_i,                 \
        &dut->p##awburst_i, &dut->p##awvalid_i, &dut->p##awready_o, &dut->p##wdata_i,       \
        &dut->p##wstrb_i, &dut->p##wlast_i, &dut->p##wvalid_i, &dut->p##wready_o,            \
        &dut->p##bid_o, &dut->p##bresp_o, &dut->p##bvalid_o, &dut->p##bready_i,              \
        &dut->p##arid_i, &dut->p##araddr_i, &dut->p##arlen_i, &dut->p##arsize_i,             \
        &dut->p##arburst_i, &dut->p##arvalid_i, &dut->p##arready_o, &dut->p##rid_o,          \
        &dut->p##rdata_o, &dut->p##rresp_o, &dut->p##rlast_o, &dut->p##rvalid_o,             \
        &dut->p##rready_i                                                                    \
  }

struct Knobs {
  unsigned valid_pct, ready_pct, sub_pct;  // manager valids, manager R/B ready, subordinate
  unsigned bursts[2];                      // bursts per manager (0: idle port)
};

class Manager {
 public:
  Manager(unsigned port, Pins pins, tb::Rng &rng, tb::Scenario &s, const Knobs &k)
      : port_(port), p_(pins), rng_(rng), s_(s), k_(k), ref_(kWin, 0),
        busy_(kWin / kGran, 0) {}

  bool done() const { return done_ == k_.bursts[port_]; }
  unsigned completed() const { return done_; }
  const std::vector<uint8_t> &ref() const { return ref_; }

  // new bursts, then this cycle's pin values
  void drive() {
    if (issued_ < k_.bursts[port_] && aw_q_.size() + ar_q_.size() < 6 && rng_.pct(60)) gen();
    aw_v_ = !aw_q_.empty() && (aw_v_ || rng_.pct(k_.valid_pct));
    if (aw_v_) {
      const Burst &b = aw_q_.front();
      *p_.awid = b.id; *p_.awaddr = b.addr; *p_.awlen = b.len;
      *p_.awsize = b.size; *p_.awburst = b.burst;
    }
    *p_.awvalid = aw_v_;
    w_v_ = !w_q_.empty() && (w_v_ || rng_.pct(k_.valid_pct));
    if (w_v_) {
      const Burst &b = w_q_.front();
      for (unsigned i = 0; i < 8; i++) {
        uint32_t w = 0;
        for (unsigned j = 0; j < 4; j++) w |= uint32_t(b.data[w_beat_ * kBeat + i * 4 + j]) << (8 * j);
        (*p_.wdata)[i] = w;
      }
      *p_.wstrb = b.strb[w_beat_];
      *p_.wlast = w_beat_ == b.len;
    }
    *p_.wvalid = w_v_;
    ar_v_ = !ar_q_.empty() && (ar_v_ || rng_.pct(k_.valid_pct));
    if (ar_v_) {
      const Burst &b = ar_q_.front();
      *p_.arid = b.id; *p_.araddr = b.addr; *p_.arlen = b.len;
      *p_.arsize = b.size; *p_.arburst = b.burst;
    }
    *p_.arvalid = ar_v_;
    *p_.bready = rng_.pct(k_.ready_pct);
    *p_.rready = rng_.pct(k_.ready_pct);
  }

  // handshakes seen on this port's pins after eval (before the clock edge)
  bool aw_hs() const { return *p_.awvalid && *p_.awready; }
  bool w_hs() const { return *p_.wvalid && *p_.wready; }
  bool ar_hs() const { return *p_.arvalid && *p_.arready; }
  bool b_hs() const { return *p_.bvalid && *p_.bready; }
  bool r_hs() const { return *p_.rvalid && *p_.rready; }
  bool b_valid() const { return *p_.bvalid; }
  bool r_valid() const { return *p_.rvalid; }
  const Burst &aw_head() const { return aw_q_.front(); }
  const Burst &ar_head() const { return ar_q_.front(); }

  void update() {
    if (aw_hs()) { b_q_.push_back(aw_q_.front()); aw_q_.pop_front(); aw_v_ = false; }
    if (w_hs()) {
      if (++w_beat_ > w_q_.front().len) { w_q_.pop_front(); w_beat_ = 0; }
      w_v_ = false;
    }
    if (ar_hs()) { r_q_.push_back(ar_q_.front()); ar_q_.pop_front(); ar_v_ = false; }
    if (b_hs()) {
      if (s_.check(!b_q_.empty(), "port %u: B without an outstanding write", port_)) {
        const Burst &b = b_q_.front();
        s_.eq(*p_.bid, b.id, "B id");
        s_.eq(*p_.bresp, 0, "B resp");
        for (unsigned beat = 0; beat <= b.len; beat++)
          for (unsigned i = 0; i < kBeat; i++)
            if (b.strb[beat] >> i & 1) ref_[b.addr - kBase + beat * kBeat + i] = b.data[beat * kBeat + i];
        busy_[(b.addr - kBase) / kGran] = 0;
        b_q_.pop_front();
        done_++;
      }
    }
    if (r_hs()) {
      if (s_.check(!r_q_.empty(), "port %u: R without an outstanding read", port_)) {
        const Burst &b = r_q_.front();
        s_.eq(*p_.rid, b.id, "R id");
        s_.eq(*p_.rresp, 0, "R resp");
        s_.eq(*p_.rlast, r_beat_ == b.len, "R last");
        uint32_t off = b.addr - kBase + r_beat_ * kBeat;
        bool ok = true;
        for (unsigned i = 0; i < kBeat; i++)
          ok &= uint8_t((*p_.rdata)[i / 4] >> (8 * (i % 4))) == ref_[off + i];
        s_.check(ok, "port %u: read beat at 0x%x differs from the reference", port_, off);
        if (++r_beat_ > b.len) {
          busy_[(b.addr - kBase) / kGran] = 0;
          r_q_.pop_front();
          r_beat_ = 0;
          done_++;
        }
      }
    }
  }

 private:
  void gen() {
    // a free granule of this port
    uint32_t g = 0;
    bool found = false;
    for (unsigned t = 0; t < 8 && !found; t++) {
      g = (rng_.below(kWin / kGran / 2) << 1) | port_;
      found = !busy_[g];
    }
    if (!found) return;
    busy_[g] = 1;
    Burst b;
    b.write = rng_.pct(50);
    b.id = rng_.below(1024);
    uint32_t first = rng_.below(8);
    b.len = rng_.below(8 - first);
    b.addr = kBase + g * kGran + first * kBeat;
    b.burst = rng_.below(3);   // passed through; the memory model reads INCR
    if (b.write) {
      b.data.resize((b.len + 1) * kBeat);
      for (auto &x : b.data) x = uint8_t(rng_.next());
      for (unsigned i = 0; i <= b.len; i++) {
        uint32_t r = rng_.below(4);
        b.strb.push_back(r == 0 ? 0xffffffffu : r == 1 ? 0 : rng_.next() | (rng_.next() << 16));
      }
      aw_q_.push_back(b);
      w_q_.push_back(b);
    } else {
      ar_q_.push_back(b);
    }
    issued_++;
  }

  unsigned port_;
  Pins p_;
  tb::Rng &rng_;
  tb::Scenario &s_;
  const Knobs &k_;
  std::vector<uint8_t> ref_;
  std::vector<uint8_t> busy_;
  std::deque<Burst> aw_q_, w_q_, b_q_, ar_q_, r_q_;
  unsigned w_beat_ = 0, r_beat_ = 0, issued_ = 0, done_ = 0;
  bool aw_v_ = false, w_v_ = false, ar_v_ = false;
};

struct SubBurst {
  Burst b;
  unsigned port;
  unsigned w_beats = 0;
  unsigned delay = 0;
};

void run_traffic(tb::Scenario &s, tb::Rng &rng, const Knobs &k) {
  dut->rst_ni = 0;
  dut->clk_i = 0;
  dut->s_awready_i = dut->s_wready_i = dut->s_bvalid_i = dut->s_arready_i = dut->s_rvalid_i = 0;
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  dut->rst_ni = 1;
  Manager m[2] = {Manager(0, TB_PINS(m0_), rng, s, k), Manager(1, TB_PINS(m1_), rng, s, k)};
  std::vector<uint8_t> mem(kWin, 0);
  std::deque<SubBurst> aw_list;          // accepted AWs (W may still be missing)
  std::deque<SubBurst> b_list;           // complete writes waiting for their B
  std::deque<SubBurst> r_list;           // accepted ARs
  std::deque<std::pair<unsigned, std::vector<uint32_t>>> w_early;  // beats before their AW
  unsigned r_beat = 0;
  unsigned other_at_first_done = ~0u;
  uint64_t cyc = 0;
  bool both_waited = false;
  while (!(m[0].done() && m[1].done()) && cyc < 2000000) {
    for (auto &x : m) x.drive();
    // subordinate pins
    dut->s_awready_i = rng.pct(k.sub_pct);
    dut->s_wready_i = rng.pct(k.sub_pct);
    dut->s_arready_i = rng.pct(k.sub_pct);
    bool bv = !b_list.empty() && b_list.front().delay == 0 && rng.pct(k.sub_pct);
    dut->s_bvalid_i = bv;
    if (bv) { dut->s_bid_i = b_list.front().b.id; dut->s_bresp_i = 0; }
    bool rv = !r_list.empty() && rng.pct(k.sub_pct);
    dut->s_rvalid_i = rv;
    if (rv) {
      const Burst &b = r_list.front().b;
      dut->s_rid_i = b.id;
      dut->s_rresp_i = 0;
      dut->s_rlast_i = r_beat == b.len;
      uint32_t off = b.addr - kBase + r_beat * kBeat;
      for (unsigned i = 0; i < 8; i++) {
        uint32_t w = 0;
        for (unsigned j = 0; j < 4; j++) w |= uint32_t(mem[off + i * 4 + j]) << (8 * j);
        dut->s_rdata_i[i] = w;
      }
    }
    dut->clk_i = 0;
    dut->eval();
    if (dut->m0_awvalid_i && dut->m1_awvalid_i) both_waited = true;

    // subordinate side handshakes, each matched against the port that saw it
    if (dut->s_awvalid_o && dut->s_awready_i) {
      int p = m[0].aw_hs() ? 0 : m[1].aw_hs() ? 1 : -1;
      if (s.check(p >= 0 && !(m[0].aw_hs() && m[1].aw_hs()), "AW handshake not on exactly one port")) {
        const Burst &b = m[p].aw_head();
        s.check(dut->s_awid_o == b.id && dut->s_awaddr_o == b.addr && dut->s_awlen_o == b.len &&
                    dut->s_awsize_o == b.size && dut->s_awburst_o == b.burst,
                "AW of port %d changed in the mux", p);
        SubBurst sb{b, unsigned(p)};
        aw_list.push_back(sb);
      }
    } else {
      s.check(!m[0].aw_hs() && !m[1].aw_hs(), "AW handshake on a port without one downstream");
    }
    if (dut->s_wvalid_o && dut->s_wready_i) {
      int p = m[0].w_hs() ? 0 : m[1].w_hs() ? 1 : -1;
      s.check(p >= 0 && !(m[0].w_hs() && m[1].w_hs()), "W handshake not on exactly one port");
      std::vector<uint32_t> beat(10);
      for (unsigned i = 0; i < 8; i++) beat[i] = dut->s_wdata_o[i];
      beat[8] = dut->s_wstrb_o;
      beat[9] = dut->s_wlast_o;
      w_early.push_back({unsigned(p), beat});
    } else {
      s.check(!m[0].w_hs() && !m[1].w_hs(), "W handshake on a port without one downstream");
    }
    if (dut->s_arvalid_o && dut->s_arready_i) {
      int p = m[0].ar_hs() ? 0 : m[1].ar_hs() ? 1 : -1;
      if (s.check(p >= 0 && !(m[0].ar_hs() && m[1].ar_hs()), "AR handshake not on exactly one port")) {
        const Burst &b = m[p].ar_head();
        s.check(dut->s_arid_o == b.id && dut->s_araddr_o == b.addr && dut->s_arlen_o == b.len &&
                    dut->s_arsize_o == b.size && dut->s_arburst_o == b.burst,
                "AR of port %d changed in the mux", p);
        r_list.push_back(SubBurst{b, unsigned(p)});
      }
    } else {
      s.check(!m[0].ar_hs() && !m[1].ar_hs(), "AR handshake on a port without one downstream");
    }
    if (bv) {
      unsigned p = b_list.front().port;
      s.check(m[p].b_valid() && !m[1 - p].b_valid(), "B of port %u not routed to it", p);
      if (dut->s_bready_o) {
        s.check(m[p].b_hs(), "B handshake downstream without one on port %u", p);
        b_list.pop_front();
      }
    } else {
      s.check(!m[0].b_valid() && !m[1].b_valid(), "B valid on a port without one downstream");
    }
    if (rv) {
      unsigned p = r_list.front().port;
      s.check(m[p].r_valid() && !m[1 - p].r_valid(), "R of port %u not routed to it", p);
      if (dut->s_rready_o) {
        s.check(m[p].r_hs(), "R handshake downstream without one on port %u", p);
        if (r_beat++ == r_list.front().b.len) { r_list.pop_front(); r_beat = 0; }
      }
    } else {
      s.check(!m[0].r_valid() && !m[1].r_valid(), "R valid on a port without one downstream");
    }
    // W beats to their AW (in order): the beats must come from the AW's port
    while (!w_early.empty() && !aw_list.empty()) {
      SubBurst &sb = aw_list.front();
      auto &wb = w_early.front();
      s.check(wb.first == sb.port, "W beat from port %u for an AW of port %u", wb.first, sb.port);
      uint32_t off = sb.b.addr - kBase + sb.w_beats * kBeat;
      for (unsigned i = 0; i < kBeat; i++)
        if (wb.second[8] >> i & 1) mem[off + i] = uint8_t(wb.second[i / 4] >> (8 * (i % 4)));
      bool last = sb.w_beats == sb.b.len;
      s.eq(wb.second[9], last, "W last");
      sb.w_beats++;
      w_early.pop_front();
      if (last) {
        sb.delay = rng.below(4);
        b_list.push_back(sb);
        aw_list.pop_front();
      }
    }
    for (auto &x : b_list)
      if (x.delay) x.delay--;

    for (auto &x : m) x.update();
    dut->clk_i = 1;
    dut->eval();
    cyc++;
    for (unsigned p = 0; p < 2; p++)
      if (other_at_first_done == ~0u && k.bursts[0] && k.bursts[1] && m[p].done())
        other_at_first_done = m[1 - p].completed();
  }
  s.check(m[0].done() && m[1].done(), "traffic did not finish (%u and %u bursts done)",
          m[0].completed(), m[1].completed());
  s.check(aw_list.empty() && w_early.empty() && b_list.empty() && r_list.empty(),
          "subordinate queues not empty at the end");
  for (uint32_t a = 0; a < kWin; a++) {
    unsigned p = (a / kGran) & 1;
    if (mem[a] != m[p].ref()[a]) {
      s.check(false, "memory at 0x%x = 0x%02x, reference of port %u 0x%02x", a, mem[a], p,
              m[p].ref()[a]);
      break;
    }
  }
  if (k.bursts[0] && k.bursts[1]) {
    s.check(both_waited, "the two ports never competed");
    unsigned n = k.bursts[0] < k.bursts[1] ? k.bursts[0] : k.bursts[1];
    s.check(other_at_first_done >= n / 2,
            "unfair: when one port finished, the other had %u of %u bursts done",
            other_at_first_done, n);
  }
  printf("  %llu cycles, bursts %u + %u, at first finish the other had %u\n",
         (unsigned long long)cyc, m[0].completed(), m[1].completed(),
         other_at_first_done == ~0u ? 0 : other_at_first_done);
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("axi_mux", argc, argv);
  dut = new Vtb_axi_mux_top;
  struct Case {
    const char *name;
    Knobs k;
  };
  const Case cases[] = {
      {"random_both", {70, 70, 60, {1500, 1500}}},
      {"saturated", {100, 100, 100, {1500, 1500}}},
      {"slow_subordinate", {90, 90, 15, {800, 800}}},
      {"slow_managers", {30, 20, 90, {800, 800}}},
      {"port0_only", {70, 70, 60, {1000, 0}}},
      {"port1_only", {70, 70, 60, {0, 1000}}},
  };
  for (const Case &c : cases)
    run.scenario(c.name, [&](tb::Scenario &s, tb::Rng &rng) { run_traffic(s, rng, c.k); });
  delete dut;
  return run.finish();
}
