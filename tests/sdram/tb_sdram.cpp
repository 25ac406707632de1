// tessera_sdram_ctrl block testbench (through tests/sdram/tb_sdram_top.sv) against the
// SDRAM model with its timing checker (sim/src/tsim_sdram.cpp).
//  - model_*: the checker alone on hand-written command sequences: a legal sequence is
//    clean, and one sequence per rule breaks that rule and must be flagged;
//  - random_*: random AXI traffic (INCR/WRAP/FIXED, narrow sizes, random strobes, random
//    valid/ready timing) with a byte-level reference memory: every read beat (all 32
//    bytes) and, at the end, the whole SDRAM array are compared with it; no violation;
//  - refresh_load_*: back-to-back sequential traffic for many refresh intervals: no
//    tREFI violation, refreshes at the expected rate;
//  - broken_*: a controller built with one timing parameter broken runs traffic and the
//    model must flag exactly that rule;
//  - --bench: sequential write and read bandwidth (bytes per cycle, peak 2).
// Usage: Vtb_sdram_top [--seed N] [--only SCENARIO] [--bench]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "Vtb_sdram_top.h"
#include "verilated.h"

#include "bench_rec.h"
#include "blk_tb.h"
#include "tessera_sdram.h"

namespace {

const unsigned kBeat = 32;              // bytes per AXI beat (DataBits 256)
const uint32_t kMemBytes = 32u << 20;   // 32 MB
const uint32_t kTck[2] = {40000, 7500}; // instance 0 and instances 1..10

Vtb_sdram_top *dut;
tsdram_t *model;
uint64_t cyc;
uint16_t dq_next;
tb::Rng noise(7);

uint32_t tck_of(unsigned sel) { return sel == 0 ? kTck[0] : kTck[1]; }

tsdram_cfg_t model_cfg(uint32_t tck_ps, uint32_t seed) {
  tsdram_cfg_t c;
  memset(&c, 0, sizeof c);
  c.tck_ps = tck_ps;
  c.seed = seed;
  return c;   // everything else: the AS4C16M16SA-7 defaults
}

// one clock cycle of the DUT and the model (AXI inputs set by the caller before)
void step() {
  dut->sd_dq_i = dq_next;
  dut->clk_i = 0;
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  cyc++;
  tsdram_pins_t p;
  p.cke = dut->sd_cke_o;
  p.cs_n = dut->sd_cs_n_o;
  p.ras_n = dut->sd_ras_n_o;
  p.cas_n = dut->sd_cas_n_o;
  p.we_n = dut->sd_we_n_o;
  p.ba = dut->sd_ba_o;
  p.a = dut->sd_a_o;
  p.dqm = dut->sd_dqm_o;
  p.dq = dut->sd_dq_o;
  p.dq_oe = dut->sd_dq_oe_o;
  uint16_t d = 0;
  // an undriven bus reads as noise: a capture at the wrong cycle cannot match
  dq_next = tsdram_tick(model, &p, &d) ? d : static_cast<uint16_t>(noise.next());
}

void settle() {
  dut->clk_i = 0;
  dut->eval();
}

void idle_inputs() {
  dut->awvalid_i = 0;
  dut->wvalid_i = 0;
  dut->arvalid_i = 0;
  dut->bready_i = 0;
  dut->rready_i = 0;
}

// resets the DUT, selects an instance and attaches a fresh model; runs to init done
bool start(unsigned sel, uint32_t seed, const tsdram_cfg_t *cfg = nullptr, bool wait = true) {
  if (model) tsdram_destroy(model);
  tsdram_cfg_t c = cfg ? *cfg : model_cfg(tck_of(sel), seed);
  model = tsdram_create(&c);
  dut->sel_i = sel;
  idle_inputs();
  dut->rst_ni = 0;
  for (int i = 0; i < 4; i++) step();
  dut->rst_ni = 1;
  for (uint64_t i = 0; wait && i < 100000 && !dut->init_done_o; i++) step();
  return dut->init_done_o;
}

// ---------------------------------------------------------------- AXI golden model
struct Beat {
  uint32_t addr;      // beat address (A3.4.1)
  uint32_t block;     // its 32-byte block
  uint32_t lo, hi;    // valid byte lanes
};

std::vector<Beat> beats_of(uint32_t start, unsigned len, unsigned size, unsigned burst) {
  std::vector<Beat> v;
  const uint32_t nb = 1u << size, n = len + 1;
  const uint32_t aligned = start / nb * nb;
  const uint32_t wrap_bytes = nb * n, wrap_lo = start / wrap_bytes * wrap_bytes;
  uint32_t a = start;
  for (uint32_t i = 0; i < n; i++) {
    Beat b;
    b.addr = a;
    b.block = a / kBeat * kBeat;
    b.lo = a - b.block;
    const uint32_t al = a / nb * nb;
    b.hi = al + nb - 1 - b.block;
    v.push_back(b);
    if (burst == 0) continue;                       // FIXED
    a = al + nb;
    if (burst == 2 && a >= wrap_lo + wrap_bytes) a = wrap_lo;   // WRAP
  }
  (void)aligned;
  return v;
}

struct Txn {
  bool write;
  uint32_t addr, id;
  unsigned len, size, burst;
  std::vector<Beat> beats;
  std::vector<uint8_t> data;     // 32 bytes per beat
  std::vector<uint32_t> strb;    // 32 bits per beat
};

struct Traffic {
  std::vector<uint8_t> ref;                 // reference memory (bytes)
  std::deque<Txn> wq, rq;                   // not yet issued on AW / AR
  std::deque<Txn> w_data;                   // W beats to send (in AW order)
  unsigned w_beat = 0;
  std::deque<uint32_t> b_exp;               // expected B ids
  std::deque<std::vector<uint8_t>> r_exp;   // expected read beats (32 bytes each)
  std::deque<std::pair<uint32_t, bool>> r_meta;   // expected id, last
  bool aw_on = false, w_on = false, ar_on = false;
  unsigned pv = 70, pr = 80;                // valid / ready probabilities (%)
  uint64_t beats_read = 0, beats_written = 0, bytes_moved = 0;
  unsigned mismatches = 0;
};

void set_wide(uint32_t *w, const uint8_t *bytes) {
  for (unsigned i = 0; i < kBeat / 4; i++) {
    w[i] = bytes[4 * i] | (bytes[4 * i + 1] << 8) | (bytes[4 * i + 2] << 16) |
           (static_cast<uint32_t>(bytes[4 * i + 3]) << 24);
  }
}

// one cycle of the AXI manager: drive, clock, account handshakes
void axi_cycle(Traffic &t, tb::Rng &rng, tb::Scenario &s) {
  // drive
  if (!t.aw_on && !t.wq.empty() && rng.pct(t.pv)) t.aw_on = true;
  if (!t.ar_on && !t.rq.empty() && rng.pct(t.pv)) t.ar_on = true;
  if (!t.w_on && !t.w_data.empty() && rng.pct(t.pv)) t.w_on = true;
  dut->awvalid_i = t.aw_on;
  if (t.aw_on) {
    const Txn &x = t.wq.front();
    dut->awid_i = x.id;
    dut->awaddr_i = x.addr;
    dut->awlen_i = x.len;
    dut->awsize_i = x.size;
    dut->awburst_i = x.burst;
  }
  dut->arvalid_i = t.ar_on;
  if (t.ar_on) {
    const Txn &x = t.rq.front();
    dut->arid_i = x.id;
    dut->araddr_i = x.addr;
    dut->arlen_i = x.len;
    dut->arsize_i = x.size;
    dut->arburst_i = x.burst;
  }
  dut->wvalid_i = t.w_on;
  if (t.w_on) {
    const Txn &x = t.w_data.front();
    set_wide(dut->wdata_i.data(), &x.data[kBeat * t.w_beat]);
    dut->wstrb_i = x.strb[t.w_beat];
    dut->wlast_i = t.w_beat == x.len;
  }
  dut->bready_i = rng.pct(t.pr);
  dut->rready_i = rng.pct(t.pr);
  settle();
  const bool aw_hs = dut->awvalid_i && dut->awready_o;
  const bool ar_hs = dut->arvalid_i && dut->arready_o;
  const bool w_hs = dut->wvalid_i && dut->wready_o;
  const bool b_hs = dut->bvalid_o && dut->bready_i;
  const bool r_hs = dut->rvalid_o && dut->rready_i;
  uint8_t rbytes[kBeat];
  uint32_t rid = dut->rid_o, bid = dut->bid_o;
  bool rlast = dut->rlast_o;
  unsigned rresp = dut->rresp_o, bresp = dut->bresp_o;
  for (unsigned i = 0; i < kBeat; i++) rbytes[i] = static_cast<uint8_t>(dut->rdata_o[i / 4] >> (8 * (i % 4)));
  step();
  if (aw_hs) {
    // the controller serves transactions in acceptance order: apply the write now
    Txn x = t.wq.front();
    t.wq.pop_front();
    t.aw_on = false;
    for (size_t k = 0; k < x.beats.size(); k++) {
      for (unsigned l = 0; l < kBeat; l++) {
        if ((x.strb[k] >> l) & 1) t.ref[(x.beats[k].block + l) % kMemBytes] = x.data[kBeat * k + l];
      }
    }
    t.b_exp.push_back(x.id);
  }
  if (ar_hs) {
    const Txn &x = t.rq.front();
    for (size_t k = 0; k < x.beats.size(); k++) {
      std::vector<uint8_t> e(kBeat);
      for (unsigned l = 0; l < kBeat; l++) e[l] = t.ref[(x.beats[k].block + l) % kMemBytes];
      t.r_exp.push_back(e);
      t.r_meta.push_back({x.id, k == x.beats.size() - 1});
    }
    t.rq.pop_front();
    t.ar_on = false;
  }
  if (w_hs) {
    t.beats_written++;
    if (t.w_beat == t.w_data.front().len) {
      t.w_beat = 0;
      t.w_data.pop_front();
    } else {
      t.w_beat++;
    }
    t.w_on = false;
  }
  if (b_hs) {
    if (!s.check(!t.b_exp.empty(), "B without a write")) return;
    s.check(bid == t.b_exp.front() && bresp == 0, "B id %u resp %u, expected id %u", bid, bresp,
            t.b_exp.front());
    t.b_exp.pop_front();
  }
  if (r_hs) {
    t.beats_read++;
    if (!s.check(!t.r_exp.empty(), "R without a read")) return;
    const auto &e = t.r_exp.front();
    unsigned bad = 0;
    for (unsigned l = 0; l < kBeat; l++) bad += rbytes[l] != e[l];
    if (bad && t.mismatches++ < 5) {
      printf("  read beat %llu: %u bytes differ; got/expected lane 0..7:", (unsigned long long)t.beats_read, bad);
      for (unsigned l = 0; l < 8; l++) printf(" %02x/%02x", rbytes[l], e[l]);
      printf("\n");
    }
    s.check(bad == 0, "read data mismatch (%u bytes)", bad);
    s.check(rid == t.r_meta.front().first && rlast == t.r_meta.front().second && rresp == 0,
            "R id %u last %d, expected id %u last %d", rid, rlast, t.r_meta.front().first,
            t.r_meta.front().second);
    t.r_exp.pop_front();
    t.r_meta.pop_front();
  }
}

bool traffic_done(const Traffic &t) {
  return t.wq.empty() && t.rq.empty() && t.w_data.empty() && t.b_exp.empty() && t.r_exp.empty();
}

// a random transaction in a few hot windows (row hits and bank/row conflicts) or anywhere
Txn random_txn(tb::Rng &rng, const std::vector<uint32_t> &hot, bool write) {
  Txn x;
  x.write = write;
  x.id = rng.below(1024);
  const unsigned kind = rng.below(10);
  x.burst = kind < 7 ? 1 : (kind < 9 ? 2 : 0);
  x.size = rng.pct(70) ? 5 : rng.below(5);
  const uint32_t nb = 1u << x.size;
  uint32_t base = rng.pct(85) ? hot[rng.below(hot.size())] + rng.below(8192) : rng.below(kMemBytes);
  base %= kMemBytes;
  if (x.burst == 2) {
    const unsigned lens[4] = {1, 3, 7, 15};
    x.len = lens[rng.below(4)];
    x.addr = base / nb * nb;
  } else {
    x.len = (rng.pct(80) || x.burst == 0) ? rng.below(16) : rng.below(64);
    x.addr = base;
    if (x.burst == 1) {
      // INCR must not cross 4 KB: shorten
      const uint32_t aligned = x.addr / nb * nb;
      const uint32_t room = (4096 - (aligned & 4095)) / nb;   // beats to the boundary
      if (x.len + 1 > room) x.len = room - 1;
    }
  }
  x.beats = beats_of(x.addr, x.len, x.size, x.burst);
  if (write) {
    x.data.resize(kBeat * x.beats.size());
    x.strb.resize(x.beats.size());
    for (size_t k = 0; k < x.beats.size(); k++) {
      for (unsigned l = 0; l < kBeat; l++) x.data[kBeat * k + l] = static_cast<uint8_t>(rng.next());
      uint32_t lanes = 0;
      for (unsigned l = x.beats[k].lo; l <= x.beats[k].hi; l++) lanes |= 1u << l;
      const unsigned m = rng.below(8);
      x.strb[k] = m == 0 ? 0 : (m < 4 ? (lanes & rng.next()) : lanes);
    }
  }
  return x;
}

void init_ref(Traffic &t) {
  t.ref.resize(kMemBytes);
  const uint16_t *mem = tsdram_mem(model);
  for (uint32_t i = 0; i < kMemBytes / 2; i++) {
    t.ref[2 * i] = static_cast<uint8_t>(mem[i]);
    t.ref[2 * i + 1] = static_cast<uint8_t>(mem[i] >> 8);
  }
}

void push(Traffic &t, const Txn &x) {
  if (x.write) {
    t.wq.push_back(x);
    t.w_data.push_back(x);
  } else {
    t.rq.push_back(x);
  }
}

bool run_traffic(Traffic &t, tb::Rng &rng, tb::Scenario &s, uint64_t max_cycles) {
  const uint64_t end = cyc + max_cycles;
  while (!traffic_done(t) && cyc < end && s.fails() < 10) axi_cycle(t, rng, s);
  idle_inputs();
  return s.check(traffic_done(t), "traffic did not finish in %llu cycles", (unsigned long long)max_cycles);
}

void report_violations(tb::Scenario &s, const char *what) {
  tsdram_stats_t st;
  tsdram_stats(model, &st);
  if (st.violations) tsdram_print_violations(model, stdout, 8);
  s.check(st.violations == 0, "%s: %llu timing violations", what, (unsigned long long)st.violations);
}

void random_scenario(tb::Scenario &s, tb::Rng &rng, unsigned sel, unsigned ntx, unsigned pv = 70,
                     unsigned pr = 80) {
  if (!s.check(start(sel, rng.next()), "init did not complete")) return;
  Traffic t;
  init_ref(t);
  t.pv = pv;
  t.pr = pr;
  std::vector<uint32_t> hot;
  for (int i = 0; i < 6; i++) hot.push_back(rng.below(kMemBytes) & ~31u);
  hot.push_back(hot[0] + 1024);    // the same row of the next bank
  hot.push_back(hot[0] + 4096);    // the next row of the same bank
  for (unsigned i = 0; i < ntx; i++) push(t, random_txn(rng, hot, rng.pct(50)));
  run_traffic(t, rng, s, 4000000);
  // the whole array against the reference
  const uint16_t *mem = tsdram_mem(model);
  unsigned bad = 0;
  for (uint32_t i = 0; i < kMemBytes / 2; i++)
    bad += mem[i] != (t.ref[2 * i] | (t.ref[2 * i + 1] << 8));
  s.check(bad == 0, "SDRAM array differs from the reference in %u words", bad);
  report_violations(s, "random traffic");
  tsdram_stats_t st;
  tsdram_stats(model, &st);
  printf("  sel %u: %llu cycles, %llu R beats, %llu W beats, %llu ACT, %llu READ, %llu WRITE, "
         "%llu REF (longest gap %llu cycles, tREFI %u)\n",
         sel, (unsigned long long)st.cycles, (unsigned long long)t.beats_read,
         (unsigned long long)t.beats_written, (unsigned long long)st.acts,
         (unsigned long long)st.reads, (unsigned long long)st.writes,
         (unsigned long long)st.refreshes, (unsigned long long)st.max_ref_gap,
         static_cast<unsigned>(7812000u / tck_of(sel)));
  s.check(st.acts > 0 && st.reads > 0 && st.writes > 0 && st.refreshes > 2, "traffic too thin");
}

// sequential traffic: n transactions of len+1 full beats from base, all writes or reads
void seq_traffic(Traffic &t, bool write, uint32_t base, unsigned n, unsigned len, tb::Rng &rng) {
  for (unsigned i = 0; i < n; i++) {
    Txn x;
    x.write = write;
    x.id = i & 1023;
    x.addr = base + i * (len + 1) * kBeat;
    x.len = len;
    x.size = 5;
    x.burst = 1;
    x.beats = beats_of(x.addr, x.len, x.size, x.burst);
    if (write) {
      x.data.resize(kBeat * x.beats.size());
      for (auto &b : x.data) b = static_cast<uint8_t>(rng.next());
      x.strb.assign(x.beats.size(), 0xFFFFFFFFu);
    }
    push(t, x);
  }
}

// bytes per cycle of back-to-back sequential transfers (valid/ready always high)
double bandwidth(tb::Scenario &s, tb::Rng &rng, unsigned sel, bool write, unsigned len,
                 unsigned n, uint64_t *cycles_out = nullptr) {
  Traffic t;
  init_ref(t);
  t.pv = 100;
  t.pr = 100;
  seq_traffic(t, write, 0x100000, n, len, rng);
  const uint64_t c0 = cyc;
  run_traffic(t, rng, s, 10000000);
  const uint64_t c = cyc - c0;
  if (cycles_out) *cycles_out = c;
  (void)sel;
  return double(n) * (len + 1) * kBeat / double(c);
}

// ---------------------------------------------------------------- checker on its own
struct Seq {
  tsdram_t *m;
  uint16_t last_dq = 0;
  int last_drive = 0;
  explicit Seq(uint32_t tck, uint32_t trc = 0) {
    tsdram_cfg_t c = model_cfg(tck, 3);
    c.trc = trc;
    m = tsdram_create(&c);
  }
  ~Seq() { tsdram_destroy(m); }
  // cmd: "nop" "act" "rd" "wr" "pre" "pall" "ref" "mrs" "bst"
  void cmd(const char *c, uint32_t ba = 0, uint32_t a = 0, uint16_t dq = 0, int oe = -1,
           uint32_t dqm = 0) {
    tsdram_pins_t p;
    memset(&p, 0, sizeof p);
    p.cke = 1;
    p.cs_n = 0;
    int code = 7;
    if (!strcmp(c, "act")) code = 3;
    else if (!strcmp(c, "rd")) code = 5;
    else if (!strcmp(c, "wr")) code = 4;
    else if (!strcmp(c, "pre")) code = 2;
    else if (!strcmp(c, "pall")) { code = 2; a = 1u << 10; }
    else if (!strcmp(c, "ref")) code = 1;
    else if (!strcmp(c, "mrs")) code = 0;
    else if (!strcmp(c, "bst")) code = 6;
    p.ras_n = (code >> 2) & 1;
    p.cas_n = (code >> 1) & 1;
    p.we_n = code & 1;
    p.ba = ba;
    p.a = a;
    p.dq = dq;
    p.dq_oe = oe < 0 ? (code == 4) : oe;
    p.dqm = dqm;
    last_drive = tsdram_tick(m, &p, &last_dq);
  }
  void nops(unsigned n) { while (n--) cmd("nop"); }
  uint64_t rule(int r) {
    tsdram_stats_t st;
    tsdram_stats(m, &st);
    return st.by_rule[r];
  }
  uint64_t total() {
    tsdram_stats_t st;
    tsdram_stats(m, &st);
    return st.violations;
  }
  // a legal init at 133 MHz (tCK 7.5 ns): 200 us, PALL, 2 REF, MRS CL 3
  void init() {
    nops(tsdram_cycles(m, 200000));
    cmd("pall");
    nops(tsdram_cycles(m, 21));
    cmd("ref");
    nops(tsdram_cycles(m, 63));
    cmd("ref");
    nops(tsdram_cycles(m, 63));
    cmd("mrs", 0, 3u << 4);
    nops(tsdram_cycles(m, 14));
  }
};

// c(ns) in cycles at 7.5 ns: tRCD 3, tRP 3, tRC 9, tRAS 6, tWR 2, tRRD 2, tMRD 2, tRFC 9
void model_scenarios(tb::Run &run) {
  const uint32_t tck = 7500;
  run.scenario("model_legal", [&](tb::Scenario &s, tb::Rng &) {
    Seq q(tck);
    q.init();
    const uint16_t *mem = tsdram_mem(q.m);
    const size_t w6 = (size_t(77) << 11) | (1u << 9) | 6;
    const uint16_t before = mem[w6];
    q.cmd("act", 1, 77);
    q.nops(2);
    q.cmd("wr", 1, 5, 0xBEEF);
    q.cmd("wr", 1, 6, 0x1234, -1, 1);   // low byte masked
    q.cmd("rd", 1, 5);
    q.cmd("act", 2, 9);                 // tRRD 2 after ... 3 cycles after ACT bank 1 + 3
    q.cmd("rd", 1, 6);
    q.nops(1);
    s.eq(q.last_drive, 1, "read data driven CL 3 after READ");
    s.eq(q.last_dq, 0xBEEF, "read data of column 5");
    q.cmd("nop");
    s.eq(q.last_drive, 0, "no data the cycle after");
    q.nops(1);
    s.eq(q.last_drive, 1, "read data of column 6 driven");
    s.eq(q.last_dq, mem[w6], "read data of column 6");
    s.eq(mem[w6], (before & 0x00FF) | 0x1200, "masked write: high byte written, low byte kept");
    q.nops(10);
    q.cmd("pall");
    q.nops(3);
    q.cmd("ref");
    q.nops(9);
    s.eq(q.total(), 0, "violations on a legal sequence");
    if (q.total()) tsdram_print_violations(q.m, stdout, 8);
  });
  // each case: the rule, whether it must be the only one flagged, the sequence
  struct Case {
    const char *name;
    int rule;
    bool only;
    void (*fn)(Seq &);
  };
  const Case cases[] = {
      {"model_init_early", TSD_INIT, true,
 [](Seq &q) { q.nops(100); q.cmd("pall"); }},
      {"model_init_order", TSD_INIT, true,
       [](Seq &q) { q.nops(tsdram_cycles(q.m, 200000)); q.cmd("pall"); q.nops(3); q.cmd("ref");
                    q.nops(9); q.cmd("mrs", 0, 3u << 4); q.nops(2); q.cmd("act", 0, 1); }},
      {"model_tRCD", TSD_RCD, true,
 [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(1); q.cmd("rd", 0, 0); }},
      {"model_tRP", TSD_RP, true,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(8); q.cmd("pre", 0); q.nops(1); q.cmd("act", 0, 2); }},
      {"model_tRAS", TSD_RAS, true,
 [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(3); q.cmd("pre", 0); }},
      {"model_tRAS_max", TSD_RAS_MAX, false,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(tsdram_cycles(q.m, 120000) + 2); }},
      {"model_tRC", TSD_RC, true,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(5); q.cmd("pre", 0); q.nops(2); q.cmd("act", 0, 2); }},
      {"model_tWR", TSD_WR, true,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(6); q.cmd("wr", 0, 3, 1); q.cmd("pre", 0); }},
      {"model_tRRD", TSD_RRD, true,
 [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.cmd("act", 1, 1); }},
      {"model_tMRD", TSD_MRD, true,
       [](Seq &q) { q.nops(tsdram_cycles(q.m, 200000)); q.cmd("pall"); q.nops(3); q.cmd("ref"); q.nops(9);
                    q.cmd("ref"); q.nops(9); q.cmd("mrs", 0, 3u << 4); q.cmd("act", 0, 1); }},
      {"model_tRFC", TSD_RFC, true,
 [](Seq &q) { q.init(); q.cmd("ref"); q.nops(4); q.cmd("act", 0, 1); }},
      {"model_tREFI", TSD_REFI, true,
       [](Seq &q) { q.init(); q.nops(tsdram_cycles(q.m, 7812) + 5); }},
      {"model_no_open_row", TSD_NO_ROW, true,
 [](Seq &q) { q.init(); q.cmd("rd", 2, 0); }},
      {"model_row_open", TSD_ROW_OPEN, true,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(9); q.cmd("act", 0, 2); }},
      {"model_bus", TSD_BUS, true,
       [](Seq &q) { q.init(); q.cmd("act", 0, 1); q.nops(3); q.cmd("rd", 0, 0); q.nops(2);
                    q.cmd("wr", 0, 1, 5); }},
      {"model_unsupported", TSD_UNSUPPORTED, true,
       [](Seq &q) { q.nops(tsdram_cycles(q.m, 200000)); q.cmd("pall"); q.nops(3); q.cmd("ref"); q.nops(9);
                    q.cmd("ref"); q.nops(9); q.cmd("mrs", 0, (3u << 4) | 3); }},
  };
  for (const Case &c : cases) {
    run.scenario(c.name, [&](tb::Scenario &s, tb::Rng &) {
      // tRC binds only where it exceeds tRAS + tRP in cycles (9 = 6 + 3 at 7.5 ns): this
      // case checks against a part with tRC 90 ns
      Seq q(tck, c.rule == TSD_RC ? 90 : 0);
      c.fn(q);
      s.check(q.rule(c.rule) > 0, "rule %s not flagged", tsdram_rule_name(c.rule));
      if (q.rule(c.rule) == 0) tsdram_print_violations(q.m, stdout, 8);
      s.check(!c.only || q.total() == q.rule(c.rule), "other rules flagged too (%llu of %llu)",
              (unsigned long long)(q.total() - q.rule(c.rule)), (unsigned long long)q.total());
    });
  }
}

}  // namespace

int main(int argc, char **argv) {
  bool bench = false;
  std::vector<char *> args;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--bench")) bench = true;
    else args.push_back(argv[i]);
  }
  Verilated::commandArgs(argc, argv);
  tb::Run run("sdram", static_cast<int>(args.size()), args.data());
  dut = new Vtb_sdram_top;

  if (bench) {
    run.scenario("bench", [&](tb::Scenario &s, tb::Rng &rng) {
      for (unsigned sel = 0; sel < 2; sel++) {
        if (!s.check(start(sel, 1), "init")) return;
        const double w = bandwidth(s, rng, sel, true, 127, 64);
        const double r = bandwidth(s, rng, sel, false, 127, 64);
        const double w1 = bandwidth(s, rng, sel, true, 0, 512);
        const double r1 = bandwidth(s, rng, sel, false, 0, 512);
        report_violations(s, "bench");
        const unsigned mhz = static_cast<unsigned>(1e6 / tck_of(sel));
        printf("  %u MHz: sequential 4 KB writes %.3f, reads %.3f; 32-byte writes %.3f, reads %.3f "
               "bytes/cycle (peak 2)\n", mhz, w, r, w1, r1);
        const char *names[4] = {"seq_write_4k", "seq_read_4k", "seq_write_32b", "seq_read_32b"};
        const double v[4] = {w, r, w1, r1};
        for (int k = 0; k < 4; k++) {
          char name[64];
          snprintf(name, sizeof name, "sdram/%s_%umhz", names[k], mhz);
          bench_record(name, "bytes/cycle", v[k], 2.0, "\"clk_mhz\":%u", mhz);
        }
      }
    });
    return run.finish();
  }

  model_scenarios(run);

  run.scenario("random_board_25mhz", [&](tb::Scenario &s, tb::Rng &rng) { random_scenario(s, rng, 0, 600); });
  run.scenario("random_133mhz", [&](tb::Scenario &s, tb::Rng &rng) { random_scenario(s, rng, 1, 600); });
  // slow manager: R and B mostly not ready (read credits and the B queue fill up)
  run.scenario("random_backpressure_133mhz",
               [&](tb::Scenario &s, tb::Rng &rng) { random_scenario(s, rng, 1, 300, 40, 12); });

  for (unsigned sel = 0; sel < 2; sel++) {
    const char *name = sel ? "refresh_load_133mhz" : "refresh_load_25mhz";
    run.scenario(name, [&](tb::Scenario &s, tb::Rng &rng) {
      if (!s.check(start(sel, 5), "init")) return;
      const uint32_t refi = static_cast<uint32_t>(7812000ull / tck_of(sel));
      uint64_t c = 0, total = 0;
      unsigned rounds = 0;
      tsdram_stats_t st0;
      tsdram_stats(model, &st0);
      while (total < 40ull * refi) {   // writes then reads, back to back, ~40 refresh intervals
        bandwidth(s, rng, sel, rounds & 1, 127, 8, &c);
        total += c;
        rounds++;
        if (s.fails()) break;
      }
      tsdram_stats_t st;
      tsdram_stats(model, &st);
      report_violations(s, "continuous load");
      const uint64_t refs = st.refreshes - st0.refreshes;
      printf("  %llu cycles of continuous traffic: %llu refreshes, longest gap %llu cycles (tREFI %u)\n",
             (unsigned long long)total, (unsigned long long)refs, (unsigned long long)st.max_ref_gap, refi);
      s.check(st.max_ref_gap <= refi && st.max_ref_gap > 0, "longest refresh gap %llu > tREFI %u",
              (unsigned long long)st.max_ref_gap, refi);
      s.check(refs >= total / refi, "only %llu refreshes in %llu cycles", (unsigned long long)refs,
              (unsigned long long)total);
    });
  }

  struct Broken {
    const char *name;
    unsigned sel;
    int rule;
  };
  const Broken broken[] = {
      {"broken_tRCD", 2, TSD_RCD},  {"broken_tRP", 3, TSD_RP},   {"broken_tRAS", 4, TSD_RAS},
      {"broken_tRC", 5, TSD_RC},    {"broken_tWR", 6, TSD_WR},   {"broken_tMRD", 7, TSD_MRD},
      {"broken_tRFC", 8, TSD_RFC},  {"broken_tREFI", 9, TSD_REFI}, {"broken_powerup", 10, TSD_INIT},
  };
  for (const Broken &b : broken) {
    run.scenario(b.name, [&](tb::Scenario &s, tb::Rng &rng) {
      // the traffic waits from reset on (the first ACT can follow LOAD MODE at once)
      start(b.sel, 9, nullptr, false);
      Traffic t;
      init_ref(t);
      t.pv = 100;
      // row ping-pong in one bank with one-byte writes (ACT, one access,
      // PRECHARGE: tRAS, tWR and tRC bind), then random traffic
      const uint32_t x0 = rng.below(kMemBytes / 2) & ~4095u;
      for (unsigned i = 0; i < 40; i++) {
        Txn x;
        x.write = true;
        x.id = i;
        x.addr = x0 + (i & 1) * 4096 + 2 * rng.below(16);
        x.len = 0;
        x.size = 0;
        x.burst = 1;
        x.beats = beats_of(x.addr, 0, 0, 1);
        if (x.write) {
          x.data.assign(kBeat, static_cast<uint8_t>(i));
          x.strb.assign(1, 1u << (x.addr % kBeat));
        }
        push(t, x);
      }
      for (uint64_t end = cyc + 20000; !traffic_done(t) && cyc < end;) axi_cycle(t, rng, s);
      // a sequential write stream (refreshes close rows right after a WRITE: tWR binds)
      seq_traffic(t, true, x0 + 65536, 16, 63, rng);
      std::vector<uint32_t> hot;
      for (int i = 0; i < 3; i++) hot.push_back(rng.below(kMemBytes) & ~31u);
      for (unsigned i = 0; i < 60; i++) push(t, random_txn(rng, hot, rng.pct(50)));
      const uint64_t end = cyc + 300000;
      while (!traffic_done(t) && cyc < end) axi_cycle(t, rng, s);
      idle_inputs();
      for (int i = 0; i < 3000; i++) step();   // past one refresh interval
      tsdram_stats_t st;
      tsdram_stats(model, &st);
      s.check(st.by_rule[b.rule] > 0, "rule %s not flagged", tsdram_rule_name(b.rule));
      printf("  %s: %llu flags of %s (%llu violations in all)\n", b.name,
             (unsigned long long)st.by_rule[b.rule], tsdram_rule_name(b.rule),
             (unsigned long long)st.violations);
      tsdram_print_violations(model, stdout, 1);
    });
  }

  if (model) tsdram_destroy(model);
  delete dut;
  return run.finish();
}
