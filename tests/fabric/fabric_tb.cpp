// Verilator testbench for tessera_axi_xbar (see docs/fabric.md, "Verification").
//
//   Vtessera_axi_xbar [--seed N] [--txns N] [--phase PREFIX] [--max-cycles N]
//
// Phases (each one is one test in the summary line):
//   stress   FAB_NMST random masters against per-channel StressSlave models
//            (random back-pressure, out-of-order responses across IDs, random R gaps)
//   hbm      the same random traffic against sim/src/axi_mem_model (latency 40)
//   errors   only out-of-window (DECERR) and granule-crossing (SLVERR) bursts
//   tput_K   K masters stream 8-beat reads (one ID per channel) through the HBM
//            model; checks the sustained R rate, prints beats/cycle per channel
//   wput_K   the same with K masters streaming 8-beat full-strobe writes
//   tput1id  1..N masters streaming with a single ID (the reorder buffers must
//            give the same rate as with many IDs: >= 90 % of min(masters, channels))
//   tput1b   one master streaming one-beat reads with a single ID (the reorder
//            space is per beat, so short bursts stream as fast: >= 90 %); the
//            memory model accepts 64 reads per channel here (16 by default)
// Every read beat is checked against a reference image (masters write disjoint
// regions and never overlap their own in-flight reads and writes); every burst
// is checked for response code, per-ID order, no interleaving, completion.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vtessera_axi_xbar.h"
#include "axi_mem_model.h"
#include "fabric_slave.h"
#include "fabric_util.h"
#include "verilated.h"
#include "../framework/bench_rec.h"
#include "../framework/tf_seed.h"

using namespace fab;

#ifndef FAB_NMST
#define FAB_NMST 4
#endif
#ifndef FAB_NSLV
#define FAB_NSLV 4
#endif

static constexpr unsigned NM = FAB_NMST, NS = FAB_NSLV;
static constexpr unsigned DB = 32, DW = 256, WORDS = DW / 32;   // bus bytes / bits / words
#ifndef FAB_HASH
#define FAB_HASH 0   // crossbar built with ChannelHash = 1 (channel = XOR-fold of the granule index)
#endif
static constexpr unsigned IDB = 4, SIDB = IDB + 4, IL = 256;
// channel-side ID = {master index, tag} (docs/fabric.md): the crossbar's default
// ReorderSlots is 64 or what SlvIdBits leaves after the master index
static constexpr unsigned clog2c(unsigned n) { return n <= 1 ? 0 : 1 + clog2c((n + 1) / 2); }
static constexpr unsigned MIB = NM > 1 ? clog2c(NM) : 1;
static constexpr unsigned RSB = (SIDB - MIB) < 6 ? (SIDB - MIB) : 6;   // log2(ReorderSlots)
static constexpr unsigned TAGB = RSB > IDB ? RSB : IDB;                  // WriteSlots 8: 3 bits
static constexpr uint64_t MEMBASE = 0x80000000ull, MEMSIZE = 0x40000000ull;
static constexpr uint64_t REG = 16384;   // bytes of memory each master owns
static constexpr uint8_t OKAY = 0, SLVERR = 2, DECERR = 3;

static uint64_t region_base(unsigned m) {
  // the last master sits at the very top of the window (boundary coverage)
  if (m == NM - 1) return MEMBASE + MEMSIZE - REG;
  return MEMBASE + uint64_t(m) * 0x01000000ull + 0x4000ull;
}

struct Txn {
  bool write = false;
  uint32_t id = 0;
  uint64_t addr = 0;
  unsigned len = 1;            // beats
  uint8_t resp = OKAY;         // expected response
  bool touches = false;        // reads/writes memory (OKAY)
  std::vector<uint32_t> data;  // write data, len*WORDS
  std::vector<uint32_t> strb;  // write strobes, len
  unsigned beat = 0;           // response beats received
  bool w_done = false;
  bool hazard = false;         // offered while the same ID was outstanding at another port
  unsigned port = 0;           // channel, or NS for the error slave
  uint64_t t_gen = 0;
};
using TxnP = std::shared_ptr<Txn>;

struct PhaseCfg {
  std::string name;
  unsigned active = NM;        // masters generating traffic
  unsigned txns = 400;         // per master
  bool stream = false;         // sequential 8-beat reads
  unsigned stream_len = IL / DB;  // beats per streamed burst (divides IL / DB)
  bool single_id = false;
  bool stream_write = false;   // stream writes instead of reads
  bool errors_only = false;
  bool hot = false;            // stream to channel 0 only (all masters compete for one channel)
  double p_gen = 0.5, p_valid = 0.7, p_ready = 0.7;
  unsigned max_pending = 8;
  unsigned id_range = 4;
  bool hbm = false;            // AxiMemModel instead of StressSlave
  unsigned hbm_max_reads = 0;  // reads the memory model accepts per channel (0: model default)
};

struct Master {
  unsigned idx = 0;
  Rng rng{1};
  std::vector<uint8_t> shadow;                 // reference image of the region
  std::vector<TxnP> wl, rl;                    // writes / reads in generation order
  size_t aw_ptr = 0, w_ptr = 0, ar_ptr = 0;
  unsigned w_beat = 0;
  bool aw_on = false, w_on = false, ar_on = false;  // valid presented (held)
  std::deque<TxnP> rout[1u << IDB], wout[1u << IDB];
  std::deque<TxnP> rord, word;                 // accepted reads / writes in AR / AW order
  std::vector<TxnP> active;                    // generated, not complete
  TxnP cur_r;                                  // read burst in progress
  unsigned generated = 0, done = 0;
  uint64_t stream_next = 0;
  bool rready = false, bready = false;
};

struct Stats {
  uint64_t rd = 0, wr = 0, decerr = 0, slverr = 0, same_id_multi = 0, hazards = 0;
  uint64_t ch_aw[NS] = {}, ch_ar[NS] = {};
};

class Bench {
 public:
  Bench(uint64_t seed, uint64_t max_cycles) : seed_(seed), max_cycles_(max_cycles) {}
  bool run(const PhaseCfg& pc, double* tput_per_ch = nullptr, double* tput_aggr = nullptr);

 private:
  void reset();
  void gen(Master& m);
  bool conflicts(const Master& m, uint64_t lo, uint64_t hi, bool write) const;
  void drive_masters();
  void sample_masters();
  void complete(Master& m, const TxnP& t);
  void note_hazard(const std::deque<TxnP>* out, const TxnP& t);
  void check_tags(unsigned c);
  void diagnose();
  uint64_t seed_, max_cycles_;
  PhaseCfg pc_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtessera_axi_xbar> top_;
  tessera::SparseMem mem_;
  Master ms_[NM];
  tessera::AxiMemPort port_[NS];
  std::unique_ptr<StressSlave> ss_[NS];
  std::unique_ptr<tessera::AxiMemModel> hm_[NS];
  ErrLog err_;
  Stats st_;
  uint64_t cyc_ = 0;
  uint64_t ch_rbeats_[NS] = {}, ch_wbeats_[NS] = {};
  uint64_t mst_rbeats_[NM] = {}, mst_wbeats_[NM] = {};
  uint64_t tend_ = ~0ull;
  // AXI stability checks: what was presented last cycle
  tessera::AxiMemPort prev_[NS];
  struct PrevResp {
    bool rv = false, rr = false, bv = false, br = false, rlast = false;
    uint32_t rid = 0, bid = 0, rresp = 0, bresp = 0, rdata[WORDS] = {};
  } prevm_[NM];
  void check_stable();
  uint32_t max_same_id_out_ = 0;
  // channel-side tags in flight: count per slave ID (a tag must not be reused
  // while its burst is outstanding at a channel)
  unsigned rtag_out_[1u << SIDB] = {}, wtag_out_[1u << SIDB] = {};
};

// ---------------------------------------------------------------- traffic generation
bool Bench::conflicts(const Master& m, uint64_t lo, uint64_t hi, bool write) const {
  for (const TxnP& t : m.active) {
    if (!t->touches || !(t->write || write)) continue;
    uint64_t tlo = t->addr, thi = t->addr + uint64_t(t->len) * DB;
    if (lo < thi && tlo < hi) return true;
  }
  return false;
}

void Bench::gen(Master& m) {
  if (m.generated >= pc_.txns || m.idx >= pc_.active) return;
  if (m.active.size() >= pc_.max_pending || !m.rng.chance(pc_.p_gen)) return;
  auto t = std::make_shared<Txn>();
  Rng& r = m.rng;
  const uint64_t base = region_base(m.idx);
  if (pc_.stream) {
    t->write = pc_.stream_write;
    t->addr = base + (m.stream_next % REG);
    t->len = pc_.stream_len;
    uint64_t g = (t->addr >> 8);
    t->id = pc_.single_id ? 0 : uint32_t(g % (1u << IDB));
    const uint64_t step = uint64_t(t->len) * DB;
    m.stream_next += (pc_.hot && (m.stream_next + step) % IL == 0) ? uint64_t(IL) * (NS - 1) + step : step;
    t->touches = true;
    if (t->write) {
      t->data.resize(t->len * WORDS);
      t->strb.assign(t->len, 0xFFFFFFFFu);
      for (auto& w : t->data) w = uint32_t(r.next());
    }
  } else {
    t->write = r.chance(0.5);
    t->id = r.below(pc_.id_range);
    unsigned cls = pc_.errors_only ? 1 + r.below(2) : (r.chance(0.86) ? 0 : (r.chance(0.6) ? 1 : 2));
    if (cls == 0) {               // legal burst in the master's region
      unsigned k = r.below(IL / DB);
      unsigned granule = r.below(unsigned(REG / IL));
      t->addr = base + uint64_t(granule) * IL + k * DB;
      t->len = 1 + r.below(IL / DB - k);
      t->touches = true;
      if (conflicts(m, t->addr, t->addr + uint64_t(t->len) * DB, t->write)) return;
    } else if (cls == 1) {        // outside the window: DECERR, any length up to 16
      t->len = 1 + r.below(16);
      switch (r.below(4)) {
        case 0: t->addr = MEMBASE - 1024 - uint64_t(r.below(1 << 20)) * DB; break;
        case 1: t->addr = MEMBASE + MEMSIZE + uint64_t(r.below(1 << 20)) * DB; break;
        case 2: t->addr = uint64_t(r.below(1u << 26)) * DB; break;            // low memory
        default: t->addr = MEMBASE + MEMSIZE + uint64_t(r.below(64)) * DB; break;
      }
      t->addr &= 0xFFFFFFFFull;
      t->resp = DECERR;
    } else {                      // inside, crossing a granule boundary: SLVERR
      unsigned k = 1 + r.below(IL / DB - 1);
      t->addr = base + uint64_t(r.below(unsigned(REG / IL) - 1)) * IL + k * DB;
      t->len = (IL / DB - k) + 1 + r.below(4);
      t->resp = SLVERR;
    }
    if (t->write) {
      t->data.resize(t->len * WORDS);
      t->strb.resize(t->len);
      for (auto& w : t->data) w = uint32_t(r.next());
      for (auto& s : t->strb) s = r.chance(0.7) ? 0xFFFFFFFFu : uint32_t(r.next());
      if (t->touches) {           // update the reference image now (no overlap in flight)
        for (unsigned b = 0; b < t->len; ++b)
          for (unsigned by = 0; by < DB; ++by)
            if ((t->strb[b] >> by) & 1)
              m.shadow[t->addr - base + b * DB + by] = uint8_t(t->data[b * WORDS + by / 4] >> (8 * (by % 4)));
      }
    }
  }
  t->t_gen = cyc_;
  t->port = t->resp == OKAY ? tessera::axi_mem_channel(t->addr, 8, NS, FAB_HASH != 0) : NS;
  (t->write ? m.wl : m.rl).push_back(t);
  m.active.push_back(t);
  ++m.generated;
}

// ---------------------------------------------------------------- pin driving
#define SETM(sig, m, w, v) setb(top_->sig, (m) * (w), (w), (v))
#define GETM(sig, m, w) getb(top_->sig, (m) * (w), (w))

void Bench::drive_masters() {
  for (unsigned mi = 0; mi < NM; ++mi) {
    Master& m = ms_[mi];
    // AW
    if (!m.aw_on && m.aw_ptr < m.wl.size() && m.rng.chance(pc_.p_valid)) m.aw_on = true;
    if (m.aw_on) {
      const Txn& t = *m.wl[m.aw_ptr];
      SETM(s_axi_awid_i, mi, IDB, t.id);
      SETM(s_axi_awaddr_i, mi, 32, t.addr);
      SETM(s_axi_awlen_i, mi, 8, t.len - 1);
      SETM(s_axi_awsize_i, mi, 3, 5);
      SETM(s_axi_awburst_i, mi, 2, 1);
      SETM(s_axi_awcache_i, mi, 4, (t.addr >> 5) & 0xF);
      SETM(s_axi_awprot_i, mi, 3, t.id & 7);
      SETM(s_axi_awqos_i, mi, 4, mi);
    }
    SETM(s_axi_awvalid_i, mi, 1, m.aw_on);
    if (m.aw_on) note_hazard(m.wout, m.wl[m.aw_ptr]);
    // W: may run one burst ahead of AW (W before AW is legal)
    if (!m.w_on && m.w_ptr < m.wl.size() && m.w_ptr <= m.aw_ptr && m.rng.chance(pc_.p_valid)) m.w_on = true;
    if (!m.w_on && m.w_ptr < m.wl.size() && m.w_ptr == m.aw_ptr + 0 && m.rng.chance(0.2)) m.w_on = true;
    if (m.w_on) {
      const Txn& t = *m.wl[m.w_ptr];
      for (unsigned k = 0; k < WORDS; ++k) setw(top_->s_axi_wdata_i, DW, mi, k, t.data[m.w_beat * WORDS + k]);
      SETM(s_axi_wstrb_i, mi, DB, t.strb[m.w_beat]);
      SETM(s_axi_wlast_i, mi, 1, m.w_beat + 1 == t.len);
    }
    SETM(s_axi_wvalid_i, mi, 1, m.w_on);
    // AR
    if (!m.ar_on && m.ar_ptr < m.rl.size() && m.rng.chance(pc_.p_valid)) m.ar_on = true;
    if (m.ar_on) {
      const Txn& t = *m.rl[m.ar_ptr];
      SETM(s_axi_arid_i, mi, IDB, t.id);
      SETM(s_axi_araddr_i, mi, 32, t.addr);
      SETM(s_axi_arlen_i, mi, 8, t.len - 1);
      SETM(s_axi_arsize_i, mi, 3, 5);
      SETM(s_axi_arburst_i, mi, 2, 1);
      SETM(s_axi_arcache_i, mi, 4, (t.addr >> 5) & 0xF);
      SETM(s_axi_arprot_i, mi, 3, t.id & 7);
      SETM(s_axi_arqos_i, mi, 4, mi);
    }
    SETM(s_axi_arvalid_i, mi, 1, m.ar_on);
    if (m.ar_on) note_hazard(m.rout, m.rl[m.ar_ptr]);
    m.rready = m.rng.chance(pc_.p_ready);
    m.bready = m.rng.chance(pc_.p_ready);
    SETM(s_axi_rready_i, mi, 1, m.rready);
    SETM(s_axi_bready_i, mi, 1, m.bready);
  }
  // slave-side inputs from the channel models
  for (unsigned c = 0; c < NS; ++c) {
    const tessera::AxiMemPort& p = port_[c];
    SETM(m_axi_awready_i, c, 1, p.awready);
    SETM(m_axi_wready_i, c, 1, p.wready);
    SETM(m_axi_arready_i, c, 1, p.arready);
    SETM(m_axi_bid_i, c, SIDB, p.bid);
    SETM(m_axi_bresp_i, c, 2, p.bresp);
    SETM(m_axi_bvalid_i, c, 1, p.bvalid);
    SETM(m_axi_rid_i, c, SIDB, p.rid);
    for (unsigned k = 0; k < WORDS; ++k) setw(top_->m_axi_rdata_i, DW, c, k, p.rdata[k]);
    SETM(m_axi_rresp_i, c, 2, p.rresp);
    SETM(m_axi_rlast_i, c, 1, p.rlast);
    SETM(m_axi_rvalid_i, c, 1, p.rvalid);
  }
}

// Same-ID hazard: the burst is offered while a burst with its ID is still
// outstanding at another port (the reorder buffers must still return it in order).
void Bench::note_hazard(const std::deque<TxnP>* out, const TxnP& t) {
  if (t->hazard) return;
  for (const TxnP& o : out[t->id])
    if (o->port != t->port) {
      t->hazard = true;
      ++st_.hazards;
      return;
    }
}

// Channel-side tag rule (docs/fabric.md): the crossbar tags every burst with
// {master, reorder slot}; a tag must not be issued again while its burst is
// still outstanding at any channel (else two bursts would share a slot).
void Bench::check_tags(unsigned c) {
  const tessera::AxiMemPort& p = port_[c];
  const uint32_t mask = (1u << SIDB) - 1;
  if (p.arvalid && p.arready) {
    if (rtag_out_[p.arid & mask]++)
      err_("cycle %" PRIu64 " channel %u: AR tag 0x%x issued while outstanding", cyc_, c, p.arid);
  }
  if (p.rvalid && p.rready && p.rlast) {
    if (rtag_out_[p.rid & mask] == 0) err_("cycle %" PRIu64 " channel %u: R tag 0x%x not outstanding", cyc_, c, p.rid);
    else --rtag_out_[p.rid & mask];
  }
  if (p.awvalid && p.awready) {
    if (wtag_out_[p.awid & mask]++)
      err_("cycle %" PRIu64 " channel %u: AW tag 0x%x issued while outstanding", cyc_, c, p.awid);
  }
  if (p.bvalid && p.bready) {
    if (wtag_out_[p.bid & mask] == 0) err_("cycle %" PRIu64 " channel %u: B tag 0x%x not outstanding", cyc_, c, p.bid);
    else --wtag_out_[p.bid & mask];
  }
}

// AXI rule: once valid is high it stays high with a stable payload until ready.
// Checked on every channel-side request channel and every master-side response.
void Bench::check_stable() {
  for (unsigned c = 0; c < NS; ++c) {
    const tessera::AxiMemPort& q = prev_[c];
    const tessera::AxiMemPort& p = port_[c];
    if (q.awvalid && !q.awready &&
        (!p.awvalid || p.awid != q.awid || p.awaddr != q.awaddr || p.awlen != q.awlen || p.awsize != q.awsize ||
         p.awburst != q.awburst))
      err_("cycle %" PRIu64 " channel %u: AW changed while waiting for awready", cyc_, c);
    if (q.arvalid && !q.arready &&
        (!p.arvalid || p.arid != q.arid || p.araddr != q.araddr || p.arlen != q.arlen || p.arsize != q.arsize ||
         p.arburst != q.arburst))
      err_("cycle %" PRIu64 " channel %u: AR changed while waiting for arready", cyc_, c);
    if (q.wvalid && !q.wready &&
        (!p.wvalid || p.wstrb != q.wstrb || p.wlast != q.wlast || std::memcmp(p.wdata, q.wdata, sizeof p.wdata)))
      err_("cycle %" PRIu64 " channel %u: W changed while waiting for wready", cyc_, c);
  }
  for (unsigned mi = 0; mi < NM; ++mi) {
    PrevResp& q = prevm_[mi];
    PrevResp n;
    n.rv = GETM(s_axi_rvalid_o, mi, 1);
    n.rr = ms_[mi].rready;
    n.rid = uint32_t(GETM(s_axi_rid_o, mi, IDB));
    n.rresp = uint32_t(GETM(s_axi_rresp_o, mi, 2));
    n.rlast = GETM(s_axi_rlast_o, mi, 1);
    for (unsigned k = 0; k < WORDS; ++k) n.rdata[k] = getw(top_->s_axi_rdata_o, DW, mi, k);
    n.bv = GETM(s_axi_bvalid_o, mi, 1);
    n.br = ms_[mi].bready;
    n.bid = uint32_t(GETM(s_axi_bid_o, mi, IDB));
    n.bresp = uint32_t(GETM(s_axi_bresp_o, mi, 2));
    if (q.rv && !q.rr &&
        (!n.rv || n.rid != q.rid || n.rresp != q.rresp || n.rlast != q.rlast || std::memcmp(n.rdata, q.rdata, sizeof n.rdata)))
      err_("cycle %" PRIu64 " master %u: R changed while waiting for rready", cyc_, mi);
    if (q.bv && !q.br && (!n.bv || n.bid != q.bid || n.bresp != q.bresp))
      err_("cycle %" PRIu64 " master %u: B changed while waiting for bready", cyc_, mi);
    q = n;
  }
}

void Bench::complete(Master& m, const TxnP& t) {
  for (size_t i = 0; i < m.active.size(); ++i)
    if (m.active[i] == t) {
      m.active.erase(m.active.begin() + long(i));
      break;
    }
  ++m.done;
  if (t->resp == DECERR) ++st_.decerr;
  if (t->resp == SLVERR) ++st_.slverr;
  (t->write ? st_.wr : st_.rd)++;
}

void Bench::sample_masters() {
  for (unsigned mi = 0; mi < NM; ++mi) {
    Master& m = ms_[mi];
    if (m.aw_on && GETM(s_axi_awready_o, mi, 1)) {
      TxnP t = m.wl[m.aw_ptr++];
      m.wout[t->id].push_back(t);
      m.word.push_back(t);
      m.aw_on = false;
    }
    if (m.w_on && GETM(s_axi_wready_o, mi, 1)) {
      TxnP t = m.wl[m.w_ptr];
      if (cyc_ >= 500 && cyc_ < tend_) ++mst_wbeats_[mi];
      if (++m.w_beat == t->len) {
        t->w_done = true;
        m.w_beat = 0;
        ++m.w_ptr;
      }
      m.w_on = false;
    }
    if (m.ar_on && GETM(s_axi_arready_o, mi, 1)) {
      TxnP t = m.rl[m.ar_ptr++];
      m.rout[t->id].push_back(t);
      m.rord.push_back(t);
      if (m.rout[t->id].size() > 1) ++st_.same_id_multi;
      m.ar_on = false;
    }
    if (m.rready && GETM(s_axi_rvalid_o, mi, 1)) {
      uint32_t id = uint32_t(GETM(s_axi_rid_o, mi, IDB));
      uint8_t resp = uint8_t(GETM(s_axi_rresp_o, mi, 2));
      bool last = GETM(s_axi_rlast_o, mi, 1);
      if (m.rout[id].empty()) {
        err_("cycle %" PRIu64 " master %u: R beat with id %u, no read outstanding", cyc_, mi, id);
      } else {
        TxnP t = m.rout[id].front();
        if (m.cur_r && m.cur_r != t)
          err_("cycle %" PRIu64 " master %u: R beat of id %u interleaved into burst of id %u", cyc_, mi, id,
               m.cur_r->id);
        if (resp != t->resp)
          err_("cycle %" PRIu64 " master %u: read id %u addr 0x%08" PRIx64 " rresp %u expected %u", cyc_, mi,
               id, t->addr, resp, t->resp);
        if (m.rord.empty() || m.rord.front() != t)
          err_("cycle %" PRIu64 " master %u: read id %u addr 0x%08" PRIx64 " returned before an older read (AR order)",
               cyc_, mi, id, t->addr);
        if (cyc_ >= 500 && cyc_ < tend_) ++mst_rbeats_[mi];
        bool exp_last = t->beat + 1 == t->len;
        if (last != exp_last)
          err_("cycle %" PRIu64 " master %u: read id %u addr 0x%08" PRIx64 " beat %u rlast %d expected %d",
               cyc_, mi, id, t->addr, t->beat, int(last), int(exp_last));
        for (unsigned k = 0; k < WORDS; ++k) {
          uint32_t got = getw(top_->s_axi_rdata_o, DW, mi, k), exp = 0;
          if (t->touches) {
            uint64_t o = t->addr - region_base(mi) + uint64_t(t->beat) * DB + 4 * k;
            exp = uint32_t(m.shadow[o]) | uint32_t(m.shadow[o + 1]) << 8 | uint32_t(m.shadow[o + 2]) << 16 |
                  uint32_t(m.shadow[o + 3]) << 24;
          }
          if (got != exp) {
            err_("cycle %" PRIu64 " master %u: read id %u addr 0x%08" PRIx64 " beat %u word %u: 0x%08x expected 0x%08x",
                 cyc_, mi, id, t->addr, t->beat, k, got, exp);
            break;
          }
        }
        ++t->beat;
        if (last || t->beat == t->len) {
          m.rout[id].pop_front();
          if (!m.rord.empty() && m.rord.front() == t) m.rord.pop_front();
          m.cur_r.reset();
          complete(m, t);
        } else {
          m.cur_r = t;
        }
      }
    }
    if (m.bready && GETM(s_axi_bvalid_o, mi, 1)) {
      uint32_t id = uint32_t(GETM(s_axi_bid_o, mi, IDB));
      uint8_t resp = uint8_t(GETM(s_axi_bresp_o, mi, 2));
      if (m.wout[id].empty()) {
        err_("cycle %" PRIu64 " master %u: B with id %u, no write outstanding", cyc_, mi, id);
      } else {
        TxnP t = m.wout[id].front();
        m.wout[id].pop_front();
        if (resp != t->resp)
          err_("cycle %" PRIu64 " master %u: write id %u addr 0x%08" PRIx64 " bresp %u expected %u", cyc_, mi, id,
               t->addr, resp, t->resp);
        if (m.word.empty() || m.word.front() != t)
          err_("cycle %" PRIu64 " master %u: B id %u addr 0x%08" PRIx64 " returned before an older write (AW order)",
               cyc_, mi, id, t->addr);
        else
          m.word.pop_front();
        if (!t->w_done)
          err_("cycle %" PRIu64 " master %u: B for write id %u addr 0x%08" PRIx64 " before its last W beat", cyc_,
               mi, id, t->addr);
        complete(m, t);
      }
    }
  }
}

void Bench::diagnose() {
  std::printf("  DIAGNOSTIC at cycle %" PRIu64 " (phase %s): not every transaction completed\n", cyc_,
              pc_.name.c_str());
  for (unsigned mi = 0; mi < NM; ++mi) {
    const Master& m = ms_[mi];
    std::printf("  master %u: generated %u done %u; AW %zu/%zu W %zu(beat %u) AR %zu/%zu; awvalid %d wvalid %d arvalid %d\n",
                mi, m.generated, m.done, m.aw_ptr, m.wl.size(), m.w_ptr, m.w_beat, m.ar_ptr, m.rl.size(),
                int(m.aw_on), int(m.w_on), int(m.ar_on));
    unsigned shown = 0;
    for (const TxnP& t : m.active)
      if (shown++ < 6)
        std::printf("    pending %s id %u addr 0x%08" PRIx64 " len %u beats-back %u w_done %d (since cycle %" PRIu64 ")\n",
                    t->write ? "WRITE" : "READ ", t->id, t->addr, t->len, t->beat, int(t->w_done), t->t_gen);
  }
  for (unsigned c = 0; c < NS; ++c) {
    const tessera::AxiMemPort& p = port_[c];
    std::printf("  channel %u: awvalid %d awready %d wvalid %d wready %d arvalid %d arready %d rvalid %d rready %d bvalid %d bready %d\n",
                c, int(p.awvalid), int(p.awready), int(p.wvalid), int(p.wready), int(p.arvalid), int(p.arready),
                int(p.rvalid), int(p.rready), int(p.bvalid), int(p.bready));
  }
}

void Bench::reset() {
  top_.reset();
  ctx_.reset(new VerilatedContext);
  top_.reset(new Vtessera_axi_xbar(ctx_.get()));
  mem_.clear();
  err_ = ErrLog();
  st_ = Stats();
  cyc_ = 0;
  std::memset(rtag_out_, 0, sizeof rtag_out_);
  std::memset(wtag_out_, 0, sizeof wtag_out_);
  for (unsigned c = 0; c < NS; ++c) {
    port_[c] = tessera::AxiMemPort();
    prev_[c] = tessera::AxiMemPort();
    ch_rbeats_[c] = 0;
    ch_wbeats_[c] = 0;
    if (pc_.hbm) {
      tessera::AxiMemConfig mc;
      mc.data_bytes = DB;
      mc.base = MEMBASE;
      mc.size = MEMSIZE;
      mc.read_latency = 40;
      mc.bytes_per_cycle = 32;
      mc.max_reads = 16;
      if (pc_.hbm_max_reads) mc.max_reads = pc_.hbm_max_reads;
      mc.max_writes = 16;
      mc.channel = c;
      mc.num_channels = NS;
      mc.interleave_bytes = IL;
      mc.channel_hash = FAB_HASH != 0;
      hm_[c].reset(new tessera::AxiMemModel(mc, &mem_));
      hm_[c]->reset(port_[c]);
      ss_[c].reset();
    } else {
      SlaveCfg sc;
      sc.channel = c;
      sc.num_channels = NS;
      sc.interleave = IL;
      sc.hash = FAB_HASH != 0;
      sc.id_master_shift = TAGB;
      sc.num_masters = NM;
      ss_[c].reset(new StressSlave(sc, &mem_, seed_ * 131 + c * 7 + 3, &err_));
      hm_[c].reset();
    }
  }
  for (unsigned mi = 0; mi < NM; ++mi) {
    Master& m = ms_[mi];
    mst_rbeats_[mi] = mst_wbeats_[mi] = 0;
    prevm_[mi] = PrevResp();
    m = Master();
    m.idx = mi;
    m.rng = Rng(seed_ * 1009 + mi * 17 + pc_.name.size());
    m.shadow.assign(REG, 0);
    if (pc_.stream) {   // preload the region through the back door
      for (uint64_t o = 0; o < REG; ++o) m.shadow[o] = uint8_t(m.rng.next());
      mem_.write(region_base(mi), m.shadow.data(), REG);
      m.stream_next = uint64_t(m.rng.below(unsigned(REG / IL))) * IL;
      if (pc_.hot) m.stream_next -= m.stream_next % (uint64_t(IL) * NS);   // channel 0
    }
  }
  top_->clk_i = 0;
  top_->rst_ni = 0;
  top_->eval();
  top_->clk_i = 1;
  top_->eval();
  top_->clk_i = 0;
  top_->rst_ni = 1;
  top_->eval();
}

bool Bench::run(const PhaseCfg& pc, double* tput_per_ch, double* tput_aggr) {
  pc_ = pc;
  reset();
  const uint64_t warm = 500;
  tend_ = ~0ull;
  bool timeout = false;
  for (;;) {
    for (unsigned mi = 0; mi < NM; ++mi) gen(ms_[mi]);
    drive_masters();
    top_->clk_i = 0;
    top_->eval();
    sample_masters();
    for (unsigned c = 0; c < NS; ++c) {
      tessera::AxiMemPort& p = port_[c];
      p.awid = uint32_t(GETM(m_axi_awid_o, c, SIDB));
      p.awaddr = GETM(m_axi_awaddr_o, c, 32);
      p.awlen = uint8_t(GETM(m_axi_awlen_o, c, 8));
      p.awsize = uint8_t(GETM(m_axi_awsize_o, c, 3));
      p.awburst = uint8_t(GETM(m_axi_awburst_o, c, 2));
      p.awvalid = GETM(m_axi_awvalid_o, c, 1);
      for (unsigned k = 0; k < WORDS; ++k) p.wdata[k] = getw(top_->m_axi_wdata_o, DW, c, k);
      p.wstrb = uint32_t(GETM(m_axi_wstrb_o, c, DB));
      p.wlast = GETM(m_axi_wlast_o, c, 1);
      p.wvalid = GETM(m_axi_wvalid_o, c, 1);
      p.arid = uint32_t(GETM(m_axi_arid_o, c, SIDB));
      p.araddr = GETM(m_axi_araddr_o, c, 32);
      p.arlen = uint8_t(GETM(m_axi_arlen_o, c, 8));
      p.arsize = uint8_t(GETM(m_axi_arsize_o, c, 3));
      p.arburst = uint8_t(GETM(m_axi_arburst_o, c, 2));
      p.arvalid = GETM(m_axi_arvalid_o, c, 1);
      p.bready = GETM(m_axi_bready_o, c, 1);
      p.rready = GETM(m_axi_rready_o, c, 1);
      check_tags(c);
      if (p.awvalid && p.awready) ++st_.ch_aw[c];
      if (p.arvalid && p.arready) ++st_.ch_ar[c];
      if (p.rvalid && p.rready && cyc_ >= warm && cyc_ < tend_) ++ch_rbeats_[c];
      if (p.wvalid && p.wready && cyc_ >= warm && cyc_ < tend_) ++ch_wbeats_[c];
    }
    check_stable();
    for (unsigned c = 0; c < NS; ++c) {
      prev_[c] = port_[c];   // as presented this cycle (readies included)
      if (hm_[c]) hm_[c]->tick(port_[c]);
      else ss_[c]->tick(port_[c]);
    }
    top_->clk_i = 1;
    top_->eval();
    ++cyc_;
    if (pc_.stream && tend_ == ~0ull) {   // measurement window: warm-up .. last request generated
      bool gen_done = true;
      for (unsigned mi = 0; mi < pc_.active; ++mi) gen_done &= ms_[mi].generated >= pc_.txns;
      if (gen_done) tend_ = cyc_;
    }
    bool all_done = true;
    for (unsigned mi = 0; mi < NM; ++mi)
      all_done &= (mi >= pc_.active) || (ms_[mi].done >= pc_.txns);
    for (unsigned c = 0; c < NS; ++c) all_done &= hm_[c] ? hm_[c]->idle() : ss_[c]->idle();
    if (all_done) break;
    if (cyc_ >= max_cycles_) {
      timeout = true;
      diagnose();
      break;
    }
  }
  bool fair = true;
  if (pc_.stream) {
    uint64_t window = (tend_ > warm ? tend_ - warm : 1);
    const uint64_t* cb = pc_.stream_write ? ch_wbeats_ : ch_rbeats_;
    const uint64_t* mb = pc_.stream_write ? mst_wbeats_ : mst_rbeats_;
    double aggr = 0;
    std::printf("  %-8s %s beats/cycle per channel:", pc_.name.c_str(), pc_.stream_write ? "W" : "R");
    for (unsigned c = 0; c < NS; ++c) {
      double v = double(cb[c]) / double(window);
      aggr += v;
      std::printf(" %.3f", v);
    }
    std::printf("  aggregate %.3f (window %" PRIu64 " cycles); per master:", aggr, window);
    uint64_t mn = ~0ull, mx = 0;
    for (unsigned mi = 0; mi < pc_.active; ++mi) {
      std::printf(" %.3f", double(mb[mi]) / double(window));
      mn = std::min(mn, mb[mi]);
      mx = std::max(mx, mb[mi]);
    }
    std::printf("\n");
    fair = mx == 0 || double(mn) >= 0.8 * double(mx);
    if (!fair) std::printf("  %-8s unfair: per-master beats differ by more than 20%%\n", pc_.name.c_str());
    if (tput_per_ch) *tput_per_ch = aggr / NS;
    if (tput_aggr) *tput_aggr = aggr;
  }
  bool ok = !timeout && err_.count == 0 && fair;
  std::printf("  %-8s %s: %" PRIu64 " cycles, %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " DECERR, %" PRIu64
              " SLVERR, %" PRIu64 " same-ID reads queued, %" PRIu64 " same-ID cross-port bursts, %u errors\n",
              pc_.name.c_str(), ok ? "ok" : "FAILED", cyc_, st_.rd, st_.wr, st_.decerr, st_.slverr,
              st_.same_id_multi, st_.hazards, err_.count);
  std::printf("           channel AW/AR bursts:");
  for (unsigned c = 0; c < NS; ++c) std::printf(" ch%u %" PRIu64 "/%" PRIu64, c, st_.ch_aw[c], st_.ch_ar[c]);
  std::printf("\n");
  // coverage: a random phase that never exercised what it is meant to test is a failure
  if (!pc_.stream) {
    bool cov = st_.decerr > 0 && st_.slverr > 0;
    if (!pc_.errors_only) {
      cov &= st_.same_id_multi > 0 && st_.hazards > 0;
      for (unsigned c = 0; c < NS; ++c) cov &= st_.ch_aw[c] > 0 && st_.ch_ar[c] > 0;
    }
    if (!cov) {
      std::printf("  %-8s coverage hole (no DECERR / SLVERR / same-ID / some channel unused)\n", pc_.name.c_str());
      ok = false;
    }
  }
  return ok;
}

int main(int argc, char** argv) {
  uint64_t seed = tf_env_seed(1);
  unsigned txns = 400;
  uint64_t max_cycles = 2000000;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--txns" && i + 1 < argc) txns = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (a == "--phase" && i + 1 < argc) only = argv[++i];
    else if (a == "--max-cycles" && i + 1 < argc) max_cycles = std::strtoull(argv[++i], nullptr, 0);
    else {
      std::fprintf(stderr, "usage: %s [--seed N] [--txns N] [--phase NAME] [--max-cycles N]\n", argv[0]);
      return 2;
    }
  }
  // --phase P runs the phases whose name starts with P (e.g. "tput", "stress")
  auto selected = [&](const std::string& name) { return only.empty() || name.compare(0, only.size(), only) == 0; };
  std::printf("fabric xbar tb: %u masters x %u channels, seed %" PRIu64 " (reproduce with --seed %" PRIu64 ")\n", NM,
              NS, seed, seed);
  Bench b(seed, max_cycles);
  unsigned pass = 0, fail = 0;
  auto result = [&](bool ok) { ok ? ++pass : ++fail; };
  Rng prng(seed ^ 0x5eed);

  std::vector<PhaseCfg> phases;
  {
    PhaseCfg p;
    p.name = "stress";
    p.txns = txns;
    p.p_valid = 0.3 + 0.7 * (prng.below(100) / 100.0);
    p.p_ready = 0.3 + 0.7 * (prng.below(100) / 100.0);
    phases.push_back(p);
    p.name = "stress16";   // wide ID range, fast masters
    p.id_range = 16;
    p.p_valid = 1.0;
    p.p_ready = 1.0;
    p.p_gen = 1.0;
    p.max_pending = 16;
    phases.push_back(p);
    p = PhaseCfg();
    p.name = "hbm";
    p.txns = txns;
    p.hbm = true;
    p.p_valid = 0.8;
    p.p_ready = 0.8;
    p.max_pending = 16;
    phases.push_back(p);
    p = PhaseCfg();
    p.name = "errors";
    p.txns = txns / 4 + 1;
    p.errors_only = true;
    phases.push_back(p);
  }
  for (const PhaseCfg& p : phases) {
    if (!selected(p.name)) continue;
    result(b.run(p));
  }
  // streaming throughput
  std::vector<unsigned> ks;
  for (unsigned k = 1; k < NM; k *= 2) ks.push_back(k);
  ks.push_back(NM);
  for (unsigned k : ks) {
    PhaseCfg p;
    p.name = "tput_" + std::to_string(k);
    if (!selected(p.name)) continue;
    p.hbm = true;
    p.stream = true;
    p.active = k;
    p.txns = 600;
    p.p_gen = 1.0;
    p.p_valid = 1.0;
    p.p_ready = 1.0;
    p.max_pending = 32;
    double per_ch = 0, aggr = 0;
    bool ok = b.run(p, &per_ch, &aggr);
    double ideal = double(std::min(k, NS));   // each master sinks <= 1 beat/cycle, each channel sources <= 1
    bool fast = aggr >= 0.9 * ideal;
    std::printf("  %-8s %u master(s): %.3f beats/cycle per channel, aggregate %.3f of ideal %.1f -> %s\n",
                p.name.c_str(), k, per_ch, aggr, ideal, fast ? "ok" : "TOO SLOW");
    bench_record(("fabric/" + p.name).c_str(), "beats/cycle", aggr, ideal,
                 "\"masters\":%u,\"channels\":%u,\"per_channel\":%.3f,\"dir\":\"R\"", k, NS, per_ch);
    result(ok && fast);
  }
  for (unsigned k : ks) {
    PhaseCfg p;
    p.name = "wput_" + std::to_string(k);
    if (!selected(p.name)) continue;
    p.hbm = true;
    p.stream = true;
    p.stream_write = true;
    p.active = k;
    p.txns = 600;
    p.p_gen = p.p_valid = p.p_ready = 1.0;
    p.max_pending = 32;
    double per_ch = 0, aggr = 0;
    bool ok = b.run(p, &per_ch, &aggr);
    double ideal = double(std::min(k, NS));
    bool fast = aggr >= 0.9 * ideal;
    std::printf("  %-8s %u master(s): %.3f W beats/cycle per channel, aggregate %.3f of ideal %.1f -> %s\n",
                p.name.c_str(), k, per_ch, aggr, ideal, fast ? "ok" : "TOO SLOW");
    bench_record(("fabric/" + p.name).c_str(), "beats/cycle", aggr, ideal,
                 "\"masters\":%u,\"channels\":%u,\"per_channel\":%.3f,\"dir\":\"W\"", k, NS, per_ch);
    result(ok && fast);
  }
  // hot spot: all masters stream reads to channel 0; the channel must stay
  // saturated and be shared fairly (within 20 %). Note: this does not catch a
  // fixed-priority AR arbiter either (the per-master slot limit keeps it fair).
  if (selected("hot")) {
    PhaseCfg p;
    p.name = "hot";
    p.hbm = p.stream = p.hot = true;
    p.txns = 300;
    p.p_gen = p.p_valid = p.p_ready = 1.0;
    p.max_pending = 32;
    double per_ch = 0, aggr = 0;
    bool ok = b.run(p, &per_ch, &aggr);
    bool fast = aggr >= 0.9;
    std::printf("  hot      %u masters on channel 0: aggregate %.3f of ideal 1.0 -> %s\n", NM, aggr,
                fast ? "ok" : "TOO SLOW");
    bench_record("fabric/hot", "beats/cycle", aggr, 1.0, "\"masters\":%u,\"channels\":1,\"dir\":\"R\"", NM);
    result(ok && fast);
  }
  // Single-ID streaming: k masters, bursts of `len` beats, up to `pending`
  // bursts generated ahead per master; the memory model accepts `max_reads`
  // reads per channel (0: its default).
  auto single_id_phase = [&](const char* name, unsigned k, unsigned len, unsigned txns, unsigned pending,
                             unsigned max_reads) {
    PhaseCfg p;
    p.name = name;
    p.hbm = true;
    p.stream = true;
    p.stream_len = len;
    p.single_id = true;
    p.active = k;
    p.txns = txns;
    p.p_gen = p.p_valid = p.p_ready = 1.0;
    p.max_pending = pending;
    p.hbm_max_reads = max_reads;
    double per_ch = 0, aggr = 0;
    bool ok = b.run(p, &per_ch, &aggr);
    double ideal = double(std::min(k, NS));
    bool fast = aggr >= 0.9 * ideal;
    std::printf("  %-8s %u master(s), %u-beat bursts, single ID: %.3f beats/cycle per channel, aggregate %.3f of ideal %.1f -> %s\n",
                name, k, len, per_ch, aggr, ideal, fast ? "ok" : "TOO SLOW");
    char rname[64];
    std::snprintf(rname, sizeof rname, "fabric/%s_%u", name, k);
    bench_record(rname, "beats/cycle", aggr, ideal,
                 "\"masters\":%u,\"channels\":%u,\"per_channel\":%.3f,\"dir\":\"R\",\"burst_beats\":%u", k, NS,
                 per_ch, len);
    result(ok && fast);
  };
  if (selected("tput1id"))
    for (unsigned k = 1; k <= NM; k *= 2) single_id_phase("tput1id", k, IL / DB, 300, 32, 0);
  // One-beat bursts, one master only: several masters streaming one-beat bursts
  // over the same address pattern fall into step on one channel (a channel takes
  // one AR per cycle, i.e. one beat per cycle with one-beat bursts), so their
  // aggregate measures the channels' AR rate, not the reorder buffers. The
  // memory model's default of 16 reads per channel would be the limit too.
  if (selected("tput1b")) single_id_phase("tput1b", 1, 1, 2000, 256, 64);
  std::printf("%u passed, %u failed\n", pass, fail);
  return fail ? 1 : 0;
}
