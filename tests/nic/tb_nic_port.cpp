// Block testbench of the NIC port (rtl/nic/tessera_nic_port.sv, top
// tests/nic/tb_nic_port_top.sv): TWO port instances, A and B, each with its own
// memory (sim/include/axi_mem_model.h, random backpressure on AW, W and AR),
// joined by two link models (sim/include/tessera_link.h, one per direction,
// seeded: latency, drop, reorder, duplicate, corrupt; a port's MAC starts a
// frame only when its link's wire is free). Both ports are
// programmed ONLY through APB writes and reads, as firmware would: port
// addresses, memory regions, QP contexts (INIT, RTR, RTS), work requests
// (WR_* registers and the doorbell, waiting while WR_STATUS.full), completion
// pops (CQ_HEAD, CQ_POP), interrupt status.
//
// Checks per scenario:
//   - completions: every work request completes once, in order per QP, with the
//     status the scenario expects (0, or 2 NAK / 4 flushed / 1 retry limit);
//   - memory: the target region of every successful WRITE equals the source
//     byte for byte; every other byte of the destination window (pre-filled
//     with random bytes) is untouched; WRITEs that failed leave no byte;
//   - wire: every frame a port sends parses (golden parser roce_parse: headers,
//     checksums, ICRC); the payload of a WRITE-only frame equals the source
//     bytes its RETH address names;
//   - counters against the link model: frames sent = link "sent"; frames
//     received by the responder plus acknowledgements received (delivered
//     and dropped) = link "delivered"; TX frames = data packets + ACK frames;
//     ACK frames = ACKs + SACKs + NAKs of the responder; data packets minus
//     resends = the packets the work requests need; packets placed and bytes
//     placed = exactly those of the successful WRITEs; without corruption no
//     frame is dropped as bad; lossless: no resend, no timeout.
// WRITE with immediate and completion-message scenarios: every work request carries an
// immediate (sync object (5 x id) mod 256, value id) and a completion message (address
// kCmsgBase + 4 x QP, data id); the port's message port (random ready) must deliver,
// per QP in posting order, exactly one sync-object update (SOB_ADD_BASE + 4 x index)
// on the destination port per successful WRITE, when every byte of it is already in the
// destination memory, and one completion message on the source port, when the WRITE
// is in the peer's memory; none for a failed WRITE. An immediate naming a sync object
// past NumSobs is answered with NAK invalid request (completion status 2, QP to ERROR).
// Reduce scenarios give the destination region a reduce op (docs/nic.md "Reduction
// on receive"): sources and destination hold FP32 or BF16 elements, WRITEs are
// whole elements, and the target of every successful WRITE must equal the golden
// roce_reduce of the old destination and the source, bit for bit.
// --bench (suite `nic_port` of `make bench`, `make nic-bench`): goodput against the WRITE
// size, selective against go-back-N under loss, the latency of a 64-byte WRITE from the
// pins; each run is a scenario as above with all its checks, and prints a BENCH record.
// Usage: Vtb_nic_port_top [--seed N] [--only NAME] [--bench] (SEED in the environment
// as well; TB_TRACE=1 prints every frame sent and taken in, and every completion). Ends
// with "N passed, M failed", one count per scenario (per run with --bench).
#include <verilated.h>

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../framework/bench_rec.h"
#include "Vtb_nic_port_top.h"
#include "axi_mem_model.h"
#include "regs/nic_regs.h"
#include "roce_model.h"
#include "tessera_link.h"
#include "tessera_pcap.h"

static uint64_t rng_state;
static uint32_t rnd() {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
static bool chance(unsigned per_mille) { return per_mille && rnd() % 1000 < per_mille; }

#define REG(r) ((uint32_t)offsetof(nic_t, r))

static const uint64_t kMemBase = 0x80000000ull;
static const uint64_t kSrcBase = 0x80000000ull;   // sources of the WRITEs a port sends
static const uint64_t kDstBase = 0x80800000ull;   // memory region the peer writes into
static uint32_t g_dst_len = 0x100000;             // its length (1 MiB; the bench's long WRITEs: more)
static const uint32_t kGuard = 4096;              // checked bytes on each side of the region
static const uint32_t kRkey = 0x5EED0000u;
static const unsigned kNReqQp = 4;                // tessera_nic_port NReqQp default
static const unsigned kCqDepth = 16, kWqDepth = 8, kRing = 8;
static const uint32_t kSobAddBase = 0x30011400u;  // SOB_ADD_BASE of both ports
static const uint32_t kNumSobs = 256;             // tessera_nic_port NumSobs default
static const uint32_t kCmsgBase = 0x30022000u;    // completion messages: + 4 x QP

// completion status (CQ_HEAD.status)
enum { kCplOk = 0, kCplRetry = 1, kCplRemote = 2, kCplLocal = 3, kCplFlushed = 4, kCplQpState = 5 };

struct Port {
  const char *name;
  Vtb_nic_port_top dut;
  tessera::AxiMemModel *mem;
  tessera::AxiMemPort ap;
  tsim_link_t *out = nullptr, *in = nullptr;
  unsigned stall = 0;
  // APB drive and the response seen in the access cycle
  bool psel = false, penable = false, pwrite = false, pready = false, pslverr = false;
  uint32_t paddr = 0, pwdata = 0, prdata = 0;
  uint32_t errs = 0;
  // frames
  std::vector<uint8_t> txf;
  uint64_t tx_start = 0;   // cycle of the current frame's first beat
  std::vector<uint8_t> rxf;
  size_t rxpos = 0;
  bool rxbusy = false;
  uint64_t tx_frames = 0, tx_data = 0, tx_bad = 0, tx_payload_bad = 0;
  bool irq_seen = false;
  // pin events (latency bench): cycle of the first one since they were cleared, 0 none yet
  uint64_t ev_tx = 0, ev_rx = 0, ev_aw = 0, ev_wlast = 0, ev_b = 0, ev_irq = 0;
  // message port: ready drawn from its own generator (the other draws stay as they were)
  uint64_t msg_rng = 0x9E3779B97F4A7C15ull;
  unsigned msg_stall = 0;   // per mille of cycles with msg_ready_i low

  explicit Port(const char *n) : name(n) {
    tessera::AxiMemConfig c;
    c.data_bytes = 32;
    c.base = kMemBase;
    c.size = 0x1000000;
    c.read_latency = 30;
    c.write_latency = 3;
    mem = new tessera::AxiMemModel(c);
  }
  ~Port() { delete mem; }
};

struct Sys;
static void check_tx_frame(Sys &s, Port &p, const std::vector<uint8_t> &f);

struct Sys {
  std::unique_ptr<Port> a, b;
  uint64_t now = 0;
  std::function<void(Port &, uint32_t, uint32_t)> on_msg;   // a message taken from a port
  std::vector<uint8_t> src[2];   // what each port's source area holds (for the payload check)
  // READ scenarios: the testbench is the requester. A frame a port sends goes to on_tx
  // instead of the link when on_tx returns true; inj[0] / inj[1] are frames handed to
  // A's / B's receive side (in order, each when the one before it has been taken).
  std::function<bool(Port &, const std::vector<uint8_t> &)> on_tx;
  std::deque<std::vector<uint8_t>> inj[2];

  Sys() : a(new Port("A")), b(new Port("B")) {}

  void half(Port &p) {
    Vtb_nic_port_top &d = p.dut;
    d.clk_i = 0;
    bool st_aw = chance(p.stall), st_w = chance(p.stall), st_ar = chance(p.stall);
    p.ap.awready = p.ap.awready && !st_aw;
    p.ap.wready = p.ap.wready && !st_w;
    p.ap.arready = p.ap.arready && !st_ar;
    d.m_awready_i = p.ap.awready;
    d.m_wready_i = p.ap.wready;
    d.m_arready_i = p.ap.arready;
    d.m_bvalid_i = p.ap.bvalid;
    d.m_bid_i = p.ap.bid;
    d.m_bresp_i = p.ap.bresp;
    d.m_rvalid_i = p.ap.rvalid;
    d.m_rid_i = p.ap.rid;
    d.m_rresp_i = p.ap.rresp;
    d.m_rlast_i = p.ap.rlast;
    for (int w = 0; w < 8; w++) d.m_rdata_i[w] = p.ap.rdata[w];
    d.apb_psel_i = p.psel;
    d.apb_penable_i = p.penable;
    d.apb_pwrite_i = p.pwrite;
    d.apb_paddr_i = p.paddr;
    d.apb_pwdata_i = p.pwdata;
    d.apb_pprot_i = 0;
    d.apb_pstrb_i = 0xF;
    // RX: the current frame's next beat
    if (p.rxbusy) {
      uint32_t keep = 0;
      for (int w = 0; w < 8; w++) {
        uint32_t v = 0;
        for (int k = 3; k >= 0; k--) {
          size_t pos = p.rxpos + 4 * w + k;
          v = v << 8 | (pos < p.rxf.size() ? p.rxf[pos] : (uint8_t)rnd());
          if (pos < p.rxf.size()) keep |= 1u << (4 * w + k);
        }
        d.rx_tdata_i[w] = v;
      }
      d.rx_tkeep_i = keep;
      d.rx_tlast_i = p.rxpos + 32 >= p.rxf.size();
    }
    d.rx_tvalid_i = p.rxbusy;
    p.msg_rng = p.msg_rng * 6364136223846793005ull + 1442695040888963407ull;
    d.msg_ready_i = (p.msg_rng >> 33) % 1000 >= p.msg_stall;
    // the MAC starts a frame only when the wire is free (the link model queues nothing)
    d.tx_tready_i = !chance(p.stall) && (!p.txf.empty() || tsim_link_free_at(p.out) <= now);
    d.eval();
    p.pready = d.apb_pready_o;
    p.pslverr = d.apb_pslverr_o;
    p.prdata = d.apb_prdata_o;
    if (d.irq_o) p.irq_seen = true;
    if (d.irq_o && !p.ev_irq) p.ev_irq = now;
    if (d.m_awvalid_o && d.m_awready_i && !p.ev_aw) p.ev_aw = now;
    if (d.m_wvalid_o && d.m_wready_i && d.m_wlast_o && !p.ev_wlast) p.ev_wlast = now;
    if (d.m_bvalid_i && d.m_bready_o && !p.ev_b) p.ev_b = now;
    if (d.msg_valid_o && d.msg_ready_i) {
      if (on_msg) on_msg(p, d.msg_addr_o, d.msg_data_o);
      else p.errs++;
    }
    // AXI master outputs into the memory model
    p.ap.awid = d.m_awid_o;
    p.ap.awaddr = d.m_awaddr_o;
    p.ap.awlen = d.m_awlen_o;
    p.ap.awsize = d.m_awsize_o;
    p.ap.awburst = d.m_awburst_o;
    p.ap.awvalid = d.m_awvalid_o;
    for (int w = 0; w < 8; w++) p.ap.wdata[w] = d.m_wdata_o[w];
    p.ap.wstrb = d.m_wstrb_o;
    p.ap.wlast = d.m_wlast_o;
    p.ap.wvalid = d.m_wvalid_o;
    p.ap.arid = d.m_arid_o;
    p.ap.araddr = d.m_araddr_o;
    p.ap.arlen = d.m_arlen_o;
    p.ap.arsize = d.m_arsize_o;
    p.ap.arburst = d.m_arburst_o;
    p.ap.arvalid = d.m_arvalid_o;
    p.ap.bready = d.m_bready_o;
    p.ap.rready = d.m_rready_o;
    p.mem->tick(p.ap);
    // TX: collect a frame, send it on the link
    if (d.tx_tvalid_o && d.tx_tready_i) {
      if (p.txf.empty()) p.tx_start = now;
      if (!p.ev_tx) p.ev_tx = now;
      for (int i = 0; i < 32; i++)
        if (d.tx_tkeep_o >> i & 1) p.txf.push_back((uint8_t)(d.tx_tdata_o[i / 4] >> (8 * (i % 4))));
      if (d.tx_tlast_o && on_tx && on_tx(p, p.txf)) {
        p.txf.clear();
      } else if (d.tx_tlast_o) {
        check_tx_frame(*this, p, p.txf);
        // on the wire from its first beat on (the MAC streams it out as it comes)
        tsim_link_send(p.out, p.tx_start, p.txf.data(), (uint32_t)p.txf.size());
        p.txf.clear();
      }
    }
    if (p.rxbusy && d.rx_tready_o) {
      if (!p.ev_rx) p.ev_rx = now;
      p.rxpos += 32;
      if (p.rxpos >= p.rxf.size()) p.rxbusy = false;
    }
    d.clk_i = 1;
    d.eval();
  }

  void step() {
    half(*a);
    half(*b);
    now++;
    for (Port *p : {a.get(), b.get()}) {
      if (p->rxbusy) continue;
      std::deque<std::vector<uint8_t>> &q = inj[p == a.get() ? 0 : 1];
      if (!q.empty()) {
        p->rxf = q.front();
        q.pop_front();
        p->rxpos = 0;
        p->rxbusy = !p->rxf.empty();
        continue;
      }
      static uint8_t buf[ROCE_FRAME_MAX + 64];
      uint32_t len = 0;
      if (tsim_link_recv(p->in, now, buf, sizeof buf, &len, NULL)) {
        p->rxf.assign(buf, buf + len);
        roce_pkt_t k;   // the frame's time into the port (behind the ones it still takes)
        if (getenv("TB_TRACE") && roce_parse(buf, len, &k) == ROCE_OK)
          printf("  %" PRIu64 " %s rx op %02x psn %06x syn %02x\n", now, p->name, k.opcode, k.psn, k.syndrome);
        p->rxpos = 0;
        p->rxbusy = len > 0;
      }
    }
  }

  void reset() {
    for (Port *p : {a.get(), b.get()}) {
      p->dut.rst_ni = 0;
      p->mem->reset(p->ap);
    }
    step();
    step();
    for (Port *p : {a.get(), b.get()}) p->dut.rst_ni = 1;
    step();
  }

  // ---- firmware: one APB access (setup, access until pready) while everything runs
  uint32_t apb(Port &p, bool write, uint32_t addr, uint32_t data) {
    p.psel = true;
    p.penable = false;
    p.pwrite = write;
    p.paddr = addr;
    p.pwdata = data;
    step();
    p.penable = true;
    bool done = false;
    for (int i = 0; i < 16 && !done; i++) {
      step();
      done = p.pready;
    }
    if (!done || p.pslverr) p.errs++;
    p.psel = false;
    p.penable = false;
    return p.prdata;
  }
  void wr(Port &p, uint32_t addr, uint32_t v) { apb(p, true, addr, v); }
  uint32_t rd(Port &p, uint32_t addr) { return apb(p, false, addr, 0); }
};

static uint64_t port_mac(const Port &p) { return p.name[0] == 'A' ? 0x025453000001ull : 0x025453000101ull; }
static uint32_t port_ip(const Port &p) { return p.name[0] == 'A' ? 0x0A000001u : 0x0A000101u; }
static uint32_t lqpn(const Port &p, unsigned qp) { return (p.name[0] == 'A' ? 0x100u : 0x200u) + 0x11u * qp; }

// ---- wire check: headers and ICRC by the golden parser, WRITE-only payload = source bytes
static void check_tx_frame(Sys &s, Port &p, const std::vector<uint8_t> &f) {
  roce_pkt_t k;
  p.tx_frames++;
  if (roce_parse(f.data(), (uint32_t)f.size(), &k) != ROCE_OK) {
    if (p.tx_bad++ < 3) printf("  %s sent a frame the golden parser refuses (%zu bytes)\n", p.name, f.size());
    return;
  }
  if (getenv("TB_TRACE"))
    printf("  %" PRIu64 " %s tx op %02x dqpn %06x psn %06x syn %02x msn %u len %u\n", s.now, p.name, k.opcode, k.dqpn,
           k.psn, k.syndrome, k.msn, k.payload_len);
  if (k.opcode == ROCE_OP_ACK) return;
  p.tx_data++;
  if (k.opcode != ROCE_OP_WRITE_ONLY || k.rkey != kRkey) return;
  // the peer's region kDstBase.. mirrors this port's source area kSrcBase..
  const std::vector<uint8_t> &src = s.src[&p == s.a.get() ? 0 : 1];
  uint64_t off = k.va - kDstBase;
  if (off + k.payload_len > src.size() || memcmp(src.data() + off, k.payload, k.payload_len) != 0) {
    if (p.tx_payload_bad++ < 3) printf("  %s: WRITE PSN %u payload differs from the source\n", p.name, k.psn);
  }
}

// ---- firmware helpers
struct QpCfg {
  uint8_t mtu = ROCE_MTU_1024;
  bool selective = true;
  uint32_t sq_psn = 0, rq_psn = 0;
  uint32_t rto = 6000;
  uint8_t retry = 7;
  uint16_t guard = 1200;
  uint32_t sport = 0;   // UDP source port of the QP's frames; 0: 0xC000 + QP index
};

static void port_setup(Sys &s, Port &p, uint32_t mr_red_cfg) {
  s.wr(p, REG(PORT_MAC_LO), (uint32_t)port_mac(p));
  s.wr(p, REG(PORT_MAC_HI), (uint32_t)(port_mac(p) >> 32));
  s.wr(p, REG(PORT_IP), port_ip(p));
  s.wr(p, REG(PORT_CFG), 64u << NIC__PORT_CFG__TTL_bp | 0xFFFFu << NIC__PORT_CFG__PKEY_bp | 2u);
  s.wr(p, REG(IRQ_EN), NIC__IRQ_EN__ERR_bm | NIC__IRQ_EN__CPL_ERR_bm);
  // memory region 0: the destination window, remote WRITE allowed
  s.wr(p, REG(MR_SEL), 0);
  s.wr(p, REG(MR_BASE_LO), (uint32_t)kDstBase);
  s.wr(p, REG(MR_BASE_HI), 0);
  s.wr(p, REG(MR_LEN), g_dst_len);
  s.wr(p, REG(MR_RKEY), kRkey);
  s.wr(p, REG(MR_CFG), NIC__MR_CFG__VALID_bm | NIC__MR_CFG__WR_OK_bm | mr_red_cfg);
  s.wr(p, REG(MR_CMD), 1);
}

// QP qp of port p talks to QP qp of the peer; INIT, RTR, RTS; false if a modify fails
static bool qp_setup(Sys &s, Port &p, const Port &peer, unsigned qp, const QpCfg &c) {
  s.wr(p, REG(QP_SEL), qp);
  s.wr(p, REG(QP_LQPN), lqpn(p, qp));
  s.wr(p, REG(QP_DQPN), lqpn(peer, qp));
  s.wr(p, REG(QP_RMAC_LO), (uint32_t)port_mac(peer));
  s.wr(p, REG(QP_RMAC_HI), (uint32_t)(port_mac(peer) >> 32));
  s.wr(p, REG(QP_RIP), port_ip(peer));
  s.wr(p, REG(QP_CFG), (uint32_t)c.mtu << NIC__QP_CFG__MTU_bp | (uint32_t)c.selective << NIC__QP_CFG__SELECTIVE_bp);
  s.wr(p, REG(QP_SQ_PSN), c.sq_psn);
  s.wr(p, REG(QP_RQ_PSN), c.rq_psn);
  s.wr(p, REG(QP_RTO), c.rto);
  s.wr(p, REG(QP_REQ_CFG), (uint32_t)c.retry | (c.sport ? c.sport : 0xC000u + qp) << NIC__QP_REQ_CFG__SPORT_bp);
  s.wr(p, REG(QP_GUARD), c.guard);
  bool ok = true;
  for (unsigned st = 1; st <= 3; st++) {
    s.wr(p, REG(QP_CMD), NIC__QP_CMD__GO_bm | st << NIC__QP_CMD__STATE_bp);
    uint32_t v = s.rd(p, REG(QP_STATUS));
    if ((v & NIC__QP_STATUS__ERR_bm) || ((v & NIC__QP_STATUS__STATE_bm) >> NIC__QP_STATUS__STATE_bp) != st) ok = false;
  }
  return ok;
}

static unsigned qp_state(Sys &s, Port &p, unsigned qp) {
  s.wr(p, REG(QP_SEL), qp);
  return (s.rd(p, REG(QP_STATUS)) & NIC__QP_STATUS__STATE_bm) >> NIC__QP_STATUS__STATE_bp;
}

struct Wr {
  unsigned qp;
  uint16_t id;
  uint32_t off, len;     // source kSrcBase + off -> peer's kDstBase + off
  uint32_t rkey;
  int expect;            // completion status expected (-1: any of 2/4, see scenario)
  int got = -1;          // status completed with
  bool posted = false;
  bool ext = false;      // WR_FLAGS, WR_IMM, WR_CMSG_* are written
  uint32_t flags = 0, imm = 0;
};
static uint32_t wr_imm(unsigned id) { return ((5u * id) % kNumSobs) << 16 | 0x8000u | (id & 0x7FFFu); }

// doorbell one work request if the queue has room; false when WR_STATUS.full
static bool wr_post(Sys &s, Port &p, const Wr &w) {
  if (s.rd(p, REG(WR_STATUS)) & NIC__WR_STATUS__FULL_bm) return false;
  s.wr(p, REG(WR_QP), w.qp);
  s.wr(p, REG(WR_ID), w.id);
  s.wr(p, REG(WR_LADDR), (uint32_t)(kSrcBase + w.off));
  s.wr(p, REG(WR_VA_LO), (uint32_t)(kDstBase + w.off));
  s.wr(p, REG(WR_VA_HI), 0);
  s.wr(p, REG(WR_RKEY), w.rkey);
  s.wr(p, REG(WR_LEN), w.len);
  if (w.ext) {
    s.wr(p, REG(WR_FLAGS), w.flags);
    s.wr(p, REG(WR_IMM), w.imm);
    s.wr(p, REG(WR_CMSG_ADDR), kCmsgBase + 4u * w.qp);
    s.wr(p, REG(WR_CMSG_DATA), w.id);
  }
  s.wr(p, REG(WR_DOORBELL), 1);
  return true;
}

struct Cpl {
  unsigned qp, id, status;
};
// pop one completion if the queue has one
static bool cq_pop(Sys &s, Port &p, Cpl &c) {
  uint32_t h = s.rd(p, REG(CQ_HEAD));
  if (!(h & NIC__CQ_HEAD__VALID_bm)) return false;
  c.id = (h & NIC__CQ_HEAD__ID_bm) >> NIC__CQ_HEAD__ID_bp;
  c.qp = (h & NIC__CQ_HEAD__QP_bm) >> NIC__CQ_HEAD__QP_bp;
  c.status = (h & NIC__CQ_HEAD__STATUS_bm) >> NIC__CQ_HEAD__STATUS_bp;
  s.wr(p, REG(CQ_POP), 1);
  return true;
}

// ---- scenarios
struct Scenario {
  const char *name;
  bool bidir;              // B sends to A as well
  unsigned nqp;            // QPs used per direction (0..nqp-1)
  unsigned nwr;            // WRITEs per QP and direction
  uint32_t max_len;
  uint8_t mtu;
  bool selective;
  uint32_t drop_ppm, dup_ppm, reorder_ppm, corrupt_ppm;
  uint32_t latency;
  unsigned stall;          // per mille AXI ready / MAC tready low
  int bad_rkey_qp;         // A's QP whose WRITEs carry a wrong R_Key (-1: none)
  bool cut;                // the A->B link drops every frame: retry limit
  bool cq_fill;            // fill the completion and work-request queues before popping
  bool fw_error;           // firmware moves A's QP 0 to ERROR after its first completion
  unsigned red_op;         // the destination region's reduce op (ROCE_RED_*), 0: plain WRITEs
  unsigned red_bf16;       // reduce elements are BF16 (else FP32)
  uint32_t exact_len;      // every WRITE this long (else random up to max_len)
  bool imm;                // every WRITE with immediate
  bool cmsg;               // every WRITE with a completion message
  int bad_imm_qp1;         // A's QP (+1) whose immediates name a sync object past NumSobs (0: none)
};

// reduce scenarios: elements of nearby magnitude (sums round and cancel), a few
// random patterns and specials (NaN, infinity, zero of either sign)
static void fill_fp(std::vector<uint8_t> &v, bool bf16) {
  static const uint32_t sp[] = {0x7FC00000u, 0xFF800000u, 0x7F800000u, 0x80000000u, 0u, 0x00000003u};
  unsigned eb = bf16 ? 2 : 4;
  for (size_t i = 0; i + eb <= v.size(); i += eb) {
    uint32_t r = rnd() % 200, x;
    if (r == 0) x = sp[rnd() % 6];
    else if (r < 8) x = rnd();
    else x = (rnd() & 0x807FFFFFu) | (124u + rnd() % 8) << 23;
    if (bf16) x >>= 16;
    for (unsigned b = 0; b < eb; b++) v[i + b] = (uint8_t)(x >> (8 * b));
  }
}

struct Dir {
  Port *src, *dst;
  std::vector<Wr> wrs;
  std::vector<uint8_t> dst_init;   // the destination window before (region and guards)
};

static uint64_t g_cycles_total = 0;

// what the last run() measured (the bench reads it): direction A->B
struct RunStats {
  uint64_t cycles, bytes;                  // first doorbell to last completion popped; bytes written
  uint32_t pkts, resends, timeouts;        // A's requester counters
  uint64_t wire_busy;                      // cycles the A->B wire was occupied
};
static RunStats g_last;

// two link models joining A and B: A -> B with cab (seed), B -> A with cba (seed + 7)
static void link_ports(Sys &s, tsim_link_cfg_t cab, tsim_link_cfg_t cba, uint64_t seed, tsim_link_t **ab,
                       tsim_link_t **ba) {
  cab.seed = seed;
  cba.seed = seed + 7;
  *ab = tsim_link_new(&cab);
  *ba = tsim_link_new(&cba);
  s.a->out = *ab;
  s.b->in = *ab;
  s.b->out = *ba;
  s.a->in = *ba;
}

static bool run(const Scenario &sc, uint64_t seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  Sys s;
  tsim_link_cfg_t lc;
  tsim_link_cfg_default(&lc);
  lc.latency = sc.latency;
  lc.drop_ppm = sc.drop_ppm;
  lc.dup_ppm = sc.dup_ppm;
  lc.reorder_ppm = sc.reorder_ppm;
  lc.reorder_max = 600;
  lc.corrupt_ppm = sc.corrupt_ppm;
  lc.seed = seed;
  tsim_link_cfg_t lab = lc;
  if (sc.cut) lab.drop_ppm = 1000000;
  tsim_link_t *ab, *ba;
  link_ports(s, lab, lc, seed, &ab, &ba);
  s.a->stall = s.b->stall = sc.stall;
  s.reset();

  bool ok = true;
  std::string why;
  auto fail = [&](const std::string &m) {
    if (ok) why = m;
    ok = false;
  };

  // sources and destination windows
  Dir dirs[2];
  dirs[0].src = s.a.get();
  dirs[0].dst = s.b.get();
  dirs[1].src = s.b.get();
  dirs[1].dst = s.a.get();
  unsigned ndir = sc.bidir ? 2 : 1;
  for (int d = 0; d < 2; d++) {
    std::vector<uint8_t> &src = s.src[d];
    src.resize(g_dst_len);
    for (auto &x : src) x = (uint8_t)rnd();
    if (sc.red_op) fill_fp(src, sc.red_bf16);
    dirs[d].src->mem->mem().write(kSrcBase, src.data(), src.size());
    dirs[d].dst_init.resize(g_dst_len + 2 * kGuard);
    for (auto &x : dirs[d].dst_init) x = (uint8_t)rnd();
    if (sc.red_op) fill_fp(dirs[d].dst_init, sc.red_bf16);
    dirs[d].dst->mem->mem().write(kDstBase - kGuard, dirs[d].dst_init.data(), dirs[d].dst_init.size());
  }

  // work requests: per direction and QP, non-overlapping targets
  uint32_t mtu = ROCE_MTU_BYTES(sc.mtu);
  for (unsigned d = 0; d < ndir; d++) {
    uint32_t off = 0;
    uint16_t id = (uint16_t)(d * 0x4000);
    for (unsigned i = 0; i < sc.nwr; i++) {
      for (unsigned q = 0; q < sc.nqp; q++) {
        Wr w;
        w.qp = q;
        w.id = id++;
        w.len = rnd() % 8 == 0 ? 1 + rnd() % 64 : 1 + rnd() % sc.max_len;
        if (sc.exact_len) w.len = sc.exact_len;
        if (sc.red_op) w.len = sc.red_bf16 ? (w.len + 1) & ~1u : (w.len + 3) & ~3u;   // whole elements
        off = (off + 31) & ~31u;   // local addresses are multiples of 32
        if (off + w.len > g_dst_len) break;
        w.off = off;
        off += w.len + rnd() % 96;
        w.rkey = kRkey;
        w.expect = kCplOk;
        if (d == 0 && (int)q == sc.bad_rkey_qp) {
          w.rkey = kRkey ^ 0x40;
          w.expect = -1;
        }
        if (d == 0 && sc.cut) w.expect = -2;
        w.ext = sc.imm || sc.cmsg;
        w.flags = (sc.imm ? NIC__WR_FLAGS__IMM_bm : 0u) | (sc.cmsg ? NIC__WR_FLAGS__CMSG_bm : 0u);
        w.imm = wr_imm(w.id);
        if (d == 0 && (int)q == sc.bad_imm_qp1 - 1) {   // one packet each: nothing of it lands
          w.imm = (kNumSobs + q) << 16 | w.id;
          w.len = 1 + w.len % mtu;
          w.expect = -1;
        }
        if (d == 0 && sc.fw_error && q == 0) w.expect = -3;
        dirs[d].wrs.push_back(w);
      }
    }
  }

  // firmware: ports and QPs
  QpCfg qc;
  qc.mtu = sc.mtu;
  qc.selective = sc.selective;
  qc.rto = 4 * sc.latency + 8 * (mtu / 32 + 40) + 2000;
  // about one loaded round trip: both wires, a data frame ahead of the ACK at each end, placement
  qc.guard = (uint16_t)std::min<uint32_t>(65535, 2 * sc.latency + 4 * (mtu / 32 + 8) + 600);
  if (sc.red_op) {   // a reduce WRITE reads and writes memory: placement takes about twice as long
    qc.rto *= 2;
    qc.guard = (uint16_t)std::min<uint32_t>(65535, 2u * qc.guard);
  }
  if (sc.cut) {
    qc.rto = 3000;
    qc.retry = 3;
  }
  uint32_t red_cfg = sc.red_op << NIC__MR_CFG__RED_OP_bp | sc.red_bf16 << NIC__MR_CFG__RED_BF16_bp;
  for (Port *p : {s.a.get(), s.b.get()}) port_setup(s, *p, red_cfg);
  if (sc.imm || sc.cmsg) {
    for (Port *p : {s.a.get(), s.b.get()}) {
      s.wr(*p, REG(SOB_ADD_BASE), kSobAddBase);
      p->msg_stall = 300;
    }
  }
  // messages: which work request, in which order, and that its WRITE had landed
  std::vector<unsigned> imm_seen[2], cm_seen[2];
  unsigned msg_bad = 0, msg_early = 0;
  auto landed = [&](unsigned d, const Wr &w) {
    if (sc.red_op) return true;
    std::vector<uint8_t> got(w.len);
    dirs[d].dst->mem->mem().read(kDstBase + w.off, got.data(), w.len);
    return memcmp(got.data(), s.src[d].data() + w.off, w.len) == 0;
  };
  s.on_msg = [&](Port &p, uint32_t addr, uint32_t data) {
    for (unsigned d = 0; d < 2; d++) {
      bool sob = addr >= kSobAddBase && addr < kSobAddBase + 4 * kNumSobs && dirs[d].dst == &p;
      bool cm = addr >= kCmsgBase && addr < kCmsgBase + 4 * kNReqQp && dirs[d].src == &p;
      if (!sob && !cm) continue;
      for (const Wr &w : dirs[d].wrs) {
        if (sob && (w.imm & 0x7FFFu) == data && kSobAddBase + 4 * (w.imm >> 16) == addr) {
          imm_seen[d].push_back(w.id);
          if (!landed(d, w)) msg_early++;
          return;
        }
        if (cm && w.id == data && kCmsgBase + 4 * w.qp == addr) {
          cm_seen[d].push_back(w.id);
          if (!landed(d, w)) msg_early++;
          return;
        }
      }
    }
    msg_bad++;
  };
  for (unsigned q = 0; q < sc.nqp; q++) {
    QpCfg ca = qc, cb = qc;
    ca.sq_psn = 0x100 * q + 5;
    cb.rq_psn = ca.sq_psn;
    cb.sq_psn = 0xFFFFF0 + q;   // B's send PSNs wrap around 2^24
    ca.rq_psn = cb.sq_psn;
    if (!qp_setup(s, *s.a, *s.b, q, ca) || !qp_setup(s, *s.b, *s.a, q, cb)) fail("QP setup refused");
  }
  // CQ empty: no valid head, a pop is ignored
  {
    Cpl c;
    if (cq_pop(s, *s.a, c)) fail("completion from an empty queue");
    uint32_t st = s.rd(*s.a, REG(CQ_STATUS));
    if (!(st & NIC__CQ_STATUS__EMPTY_bm) || (st & NIC__CQ_STATUS__COUNT_bm)) fail("CQ_STATUS not empty at start");
  }

  // run: post as the queue has room, pop completions (not while filling in cq_fill)
  uint64_t t0 = s.now, limit = s.now + 6000000;
  size_t next[2] = {0, 0}, done[2] = {0, 0};
  std::vector<Cpl> cpls[2];
  bool filling = sc.cq_fill, lost_checked = false, fw_done = false;
  unsigned cq_max = 0;
  while (s.now < limit) {
    bool progress = false;
    for (unsigned d = 0; d < ndir; d++) {
      Dir &D = dirs[d];
      if (next[d] < D.wrs.size()) {
        if (wr_post(s, *D.src, D.wrs[next[d]])) {
          D.wrs[next[d]].posted = true;
          next[d]++;
          progress = true;
        }
      }
      if (filling && d == 0) {
        uint32_t st = s.rd(*D.src, REG(CQ_STATUS));
        unsigned n = (st & NIC__CQ_STATUS__COUNT_bm) >> NIC__CQ_STATUS__COUNT_bp;
        cq_max = std::max(cq_max, n);
        uint32_t ws = s.rd(*D.src, REG(WR_STATUS));
        if ((st & NIC__CQ_STATUS__FULL_bm) && (ws & NIC__WR_STATUS__FULL_bm)) {
          // everything holds: CQ full, requester rings full, WR queue full; a doorbell now is lost
          if (n != kCqDepth) fail("CQ_STATUS.count of a full queue");
          if (((ws & NIC__WR_STATUS__COUNT_bm) >> NIC__WR_STATUS__COUNT_bp) != kWqDepth) fail("WR_STATUS.count of a full queue");
          if (!lost_checked) {
            Wr extra;
            extra.qp = 0;
            extra.id = 0x3FFF;
            extra.off = 0;
            extra.len = 32;
            extra.rkey = kRkey;
            s.wr(*D.src, REG(WR_ID), extra.id);
            s.wr(*D.src, REG(WR_DOORBELL), 1);
            if (!(s.rd(*D.src, REG(WR_STATUS)) & NIC__WR_STATUS__LOST_bm)) fail("doorbell on a full queue not flagged lost");
            s.wr(*D.src, REG(WR_STATUS), NIC__WR_STATUS__LOST_bm);
            if (s.rd(*D.src, REG(WR_STATUS)) & NIC__WR_STATUS__LOST_bm) fail("WR_STATUS.lost not cleared");
            lost_checked = true;
          }
          if (next[d] != kCqDepth + kRing + kWqDepth) fail("queues held an unexpected number of work requests");
          filling = false;
        }
        continue;
      }
      Cpl c;
      if (cq_pop(s, *D.src, c)) {
        if (sc.fw_error && d == 0 && c.qp == 0 && !fw_done) {
          // firmware: QP 0 of A to ERROR while it has work requests open
          s.wr(*s.a, REG(QP_SEL), 0);
          s.wr(*s.a, REG(QP_CMD), NIC__QP_CMD__GO_bm | 4u << NIC__QP_CMD__STATE_bp);
          fw_done = true;
        }
        if (getenv("TB_TRACE")) printf("  %" PRIu64 " %s cpl qp %u id %u status %u\n", s.now, D.src->name, c.qp, c.id, c.status);
        cpls[d].push_back(c);
        progress = true;
      }
    }
    if (sc.cq_fill && filling && s.now - t0 > 3000000) {
      fail("queues never filled");
      filling = false;
    }
    bool all = true;
    for (unsigned d = 0; d < ndir; d++) {
      done[d] = cpls[d].size();
      if (done[d] < dirs[d].wrs.size()) all = false;
    }
    if (all) break;
    if (!progress)
      for (int i = 0; i < 20; i++) s.step();
  }
  uint64_t cycles = s.now - t0;
  g_cycles_total += cycles;
  if (s.now >= limit) fail("cycle limit: not every work request completed");
  if (sc.cq_fill && !lost_checked) fail("queue-full state not reached");
  // let the last acknowledgements and duplicates drain
  for (int i = 0; i < 20000; i++) s.step();

  // completions: once each, in order per QP, expected status
  uint64_t bytes_ok[2] = {0, 0}, pkts_need[2] = {0, 0}, pkts_ok[2] = {0, 0};
  for (unsigned d = 0; d < ndir; d++) {
    Dir &D = dirs[d];
    for (const Cpl &c : cpls[d]) {
      Wr *w = nullptr;
      for (auto &x : D.wrs)
        if (x.id == c.id && x.qp == c.qp) w = &x;
      if (!w) {
        fail("completion for an unknown work request");
        continue;
      }
      if (w->got >= 0) fail("work request completed twice");
      w->got = (int)c.status;
    }
    // order per QP = posting order
    for (unsigned q = 0; q < sc.nqp; q++) {
      std::vector<unsigned> ids;
      for (const Cpl &c : cpls[d])
        if (c.qp == q) ids.push_back(c.id);
      std::vector<unsigned> want;
      for (auto &x : D.wrs)
        if (x.qp == q) want.push_back(x.id);
      if (ids != want) fail("completions of a QP out of order");
    }
    bool seen_remote = false;
    for (auto &w : D.wrs) {
      uint32_t np = (w.len + mtu - 1) / mtu;
      pkts_need[d] += np;
      if (w.expect == kCplOk && w.got != kCplOk) {
        char m[96];
        snprintf(m, sizeof m, "WR %u (QP %u) completed with status %d", w.id, w.qp, w.got);
        fail(m);
      }
      // bad R_Key: the first one NAK (2); link cut: the first one retry limit (1); the later
      // ones flushed in the requester (4) or refused at the queue, QP in ERROR (5)
      if (w.expect == -1 || w.expect == -2) {
        bool good = seen_remote ? (w.got == kCplFlushed || w.got == kCplQpState)
                                : w.got == (w.expect == -1 ? kCplRemote : kCplRetry);
        if (!good) {
          char m[96];
          snprintf(m, sizeof m, "%s: WR %u completed with status %d", w.expect == -1 ? "bad R_Key" : "link cut",
                   w.id, w.got);
          fail(m);
        }
        seen_remote = true;
      }
      // QP moved to ERROR by firmware: done before it, flushed (4) or refused (5) after
      if (w.expect == -3) {
        bool good = seen_remote ? (w.got == kCplFlushed || w.got == kCplQpState)
                                : (w.got == kCplOk || w.got == kCplFlushed || w.got == kCplQpState);
        if (!good) {
          char m[96];
          snprintf(m, sizeof m, "QP to ERROR: WR %u completed with status %d", w.id, w.got);
          fail(m);
        }
        if (w.got != kCplOk) seen_remote = true;
      }
      if (w.got == kCplOk) {
        bytes_ok[d] += w.len;
        pkts_ok[d] += np;
      }
    }
  }

  // memory: the region of every successful WRITE = source (a reduce region: the old
  // bytes combined with the source), everything else as before
  for (unsigned d = 0; d < ndir; d++) {
    Dir &D = dirs[d];
    std::vector<uint8_t> want = D.dst_init, got(want.size());
    for (auto &w : D.wrs)
      if (w.got == kCplOk)
        roce_reduce(sc.red_op, sc.red_bf16 ? ROCE_RED_BF16 : ROCE_RED_FP32, want.data() + kGuard + w.off,
                    s.src[d].data() + w.off, w.len);
    D.dst->mem->mem().read(kDstBase - kGuard, got.data(), got.size());
    // a WRITE flushed while in flight may have placed some of its packets: its bytes are
    // the old ones or the source's
    std::vector<uint8_t> alt = want;
    for (auto &w : D.wrs)
      if (w.expect == -3 && w.got != kCplOk) memcpy(alt.data() + kGuard + w.off, s.src[d].data() + w.off, w.len);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < got.size(); i++)
      if (got[i] != want[i] && got[i] != alt[i] && bad++ == 0) first = i;
    if (bad) {
      char m[128];
      snprintf(m, sizeof m, "%s memory: %zu bytes differ, first at window offset %ld", D.dst->name, bad,
               (long)first - (long)kGuard);
      fail(m);
    }
  }

  // messages: per QP in posting order, one per successful WRITE, after it landed
  if (msg_bad) fail("a message that names no work request");
  if (msg_early) fail("a message before its WRITE had landed");
  for (unsigned d = 0; d < ndir; d++) {
    for (unsigned q = 0; q < sc.nqp; q++) {
      std::vector<unsigned> want, got_imm, got_cm;
      for (auto &w : dirs[d].wrs)
        if (w.qp == q && w.got == kCplOk) want.push_back(w.id);
      for (unsigned id : imm_seen[d])
        for (auto &w : dirs[d].wrs)
          if (w.id == id && w.qp == q) got_imm.push_back(id);
      for (unsigned id : cm_seen[d])
        for (auto &w : dirs[d].wrs)
          if (w.id == id && w.qp == q) got_cm.push_back(id);
      if (got_imm != (sc.imm ? want : std::vector<unsigned>())) fail("sync-object updates differ from the successful WRITEs");
      if (got_cm != (sc.cmsg ? want : std::vector<unsigned>())) fail("completion messages differ from the successful WRITEs");
    }
  }
  s.on_msg = nullptr;

  // counters against the link model
  int bad_qp = sc.bad_rkey_qp >= 0 ? sc.bad_rkey_qp : sc.bad_imm_qp1 - 1;
  struct Cnt {
    uint32_t frames, bytes, placed, drop_bad, acks, sacks, naks, rx_acks, rx_ack_drop, tx_frames, tx_acks;
    uint32_t pkts, resends, timeouts;
  } cn[2];
  Port *ports[2] = {s.a.get(), s.b.get()};
  for (int i = 0; i < 2; i++) {
    Port &p = *ports[i];
    Cnt &c = cn[i];
    c.frames = s.rd(p, REG(CNT_FRAMES));
    c.bytes = s.rd(p, REG(CNT_BYTES));
    c.placed = s.rd(p, REG(CNT_PLACED));
    c.drop_bad = s.rd(p, REG(CNT_DROP_BAD));
    c.acks = s.rd(p, REG(CNT_ACKS));
    c.sacks = s.rd(p, REG(CNT_SACKS));
    c.naks = s.rd(p, REG(CNT_NAKS));
    c.rx_acks = s.rd(p, REG(CNT_RX_ACKS));
    c.rx_ack_drop = s.rd(p, REG(CNT_RX_ACK_DROP));
    c.tx_frames = s.rd(p, REG(CNT_TX_FRAMES));
    c.tx_acks = s.rd(p, REG(CNT_TX_ACKS));
    c.pkts = c.resends = c.timeouts = 0;
    for (unsigned q = 0; q < kNReqQp; q++) {
      s.wr(p, REG(QP_SEL), q);
      c.pkts += s.rd(p, REG(CNT_REQ_PKTS));
      c.resends += s.rd(p, REG(CNT_REQ_RESENDS));
      c.timeouts += s.rd(p, REG(CNT_REQ_TIMEOUTS));
    }
    if (p.errs) fail(std::string(p.name) + ": APB error response");
    if (p.tx_bad) fail(std::string(p.name) + ": a sent frame fails the golden parser");
    if (p.tx_payload_bad) fail(std::string(p.name) + ": a WRITE payload differs from its source");
  }
  tsim_link_stats_t ls[2];
  tsim_link_stats(ab, &ls[0]);
  tsim_link_stats(ba, &ls[1]);
  bool lossless = !sc.drop_ppm && !sc.dup_ppm && !sc.reorder_ppm && !sc.corrupt_ppm && !sc.cut;
  for (int i = 0; i < 2; i++) {
    Cnt &x = cn[i], &y = cn[1 - i];   // x sends on link i, y receives
    const tsim_link_stats_t &l = ls[i];
    char m[160];
    if (x.tx_frames != l.sent || ports[i]->tx_frames != l.sent) {
      snprintf(m, sizeof m, "%s CNT_TX_FRAMES %u, link sent %" PRIu64, ports[i]->name, x.tx_frames, l.sent);
      fail(m);
    }
    if ((uint64_t)y.frames + y.rx_acks + y.rx_ack_drop != l.delivered) {
      snprintf(m, sizeof m, "%s frames %u + ACKs %u + %u, link delivered %" PRIu64, ports[1 - i]->name, y.frames,
               y.rx_acks, y.rx_ack_drop, l.delivered);
      fail(m);
    }
    if (x.tx_frames != x.pkts + x.tx_acks || ports[i]->tx_data != x.pkts) fail("TX frames != packets + ACK frames");
    if (x.tx_acks != x.acks + x.sacks + x.naks) fail("ACK frames != ACKs + SACKs + NAKs");
    // new packets (sent minus resent): exactly what the WRITEs need when all succeed
    if (pkts_ok[i] == pkts_need[i] && x.pkts - x.resends != pkts_need[i]) {
      snprintf(m, sizeof m, "%s requester: %u packets - %u resends, WRITEs need %" PRIu64, ports[i]->name, x.pkts,
               x.resends, pkts_need[i]);
      fail(m);
    }
    if (x.pkts - x.resends < pkts_ok[i] || (i == 1 && !sc.bidir && x.pkts)) fail("requester packets");
    bool partial = sc.fw_error && i == 0;   // flushed WRITEs may have placed packets
    if (partial ? (y.placed < pkts_ok[i] || y.bytes < bytes_ok[i]) : (y.placed != pkts_ok[i] || y.bytes != bytes_ok[i])) {
      snprintf(m, sizeof m, "%s placed %u packets %u bytes, want %" PRIu64 " / %" PRIu64, ports[1 - i]->name,
               y.placed, y.bytes, pkts_ok[i], bytes_ok[i]);
      fail(m);
    }
    if (!sc.corrupt_ppm && (y.drop_bad || y.rx_ack_drop)) fail("frames dropped as bad without corruption");
    if (y.drop_bad + y.rx_ack_drop > l.corrupted) fail("more bad frames than the link corrupted");
    if (lossless && (x.resends || x.timeouts)) fail("resends or timeouts on a lossless link");
    if (lossless && bad_qp < 0 && !sc.fw_error && x.pkts != pkts_need[i]) fail("packet count != packets the WRITEs need");
  }

  // the impairments the scenario asks for happened (else it tests nothing)
  uint64_t n_drop = ls[0].dropped + ls[1].dropped, n_dup = ls[0].duplicated + ls[1].duplicated;
  uint64_t n_reo = ls[0].reordered + ls[1].reordered, n_cor = ls[0].corrupted + ls[1].corrupted;
  if ((sc.drop_ppm && !n_drop) || (sc.dup_ppm && !n_dup) || (sc.reorder_ppm && !n_reo) || (sc.corrupt_ppm && !n_cor))
    fail("the link model never applied the scenario's impairment");

  // error scenarios: QP states, interrupt, other QP unaffected
  if (bad_qp >= 0) {
    unsigned q = (unsigned)bad_qp;
    if (sc.bad_imm_qp1 && (s.rd(*s.b, REG(CNT_NAK_INVAL)) != 1 || s.rd(*s.b, REG(CNT_MSGS)) != imm_seen[0].size()))
      fail("bad immediate: CNT_NAK_INVAL / CNT_MSGS of B");
    if (qp_state(s, *s.a, q) != 4) fail("bad R_Key: A's QP not in ERROR");
    if (qp_state(s, *s.b, q) != 4) fail("bad R_Key: B's QP not in ERROR (responder)");
    if (!s.a->irq_seen) fail("bad R_Key: no interrupt on A");
    uint32_t irq = s.rd(*s.a, REG(IRQ_STATUS));
    if (!(irq & NIC__IRQ_STATUS__CPL_ERR_bm)) fail("bad R_Key: IRQ_STATUS.cpl_err not set on A");
    s.wr(*s.a, REG(IRQ_STATUS), irq);
    if (s.rd(*s.a, REG(IRQ_STATUS)) != 0) fail("IRQ_STATUS not cleared");
    for (unsigned o = 0; o < sc.nqp; o++)
      if (o != q && (qp_state(s, *s.a, o) != 3 || qp_state(s, *s.b, o) != 3)) fail("bad R_Key: another QP left RTS");
  }
  if (sc.fw_error) {
    if (!fw_done) fail("QP to ERROR: never done");
    if (qp_state(s, *s.a, 0) != 4 || qp_state(s, *s.a, 1) != 3) fail("QP to ERROR: QP states");
    s.wr(*s.a, REG(QP_SEL), 0);
    if (!(s.rd(*s.a, REG(QP_RD_REQ)) & NIC__QP_RD_REQ__ERR_bm)) fail("QP to ERROR: requester not stopped");
    bool flushed = false;
    for (auto &w : dirs[0].wrs)
      if (w.qp == 0 && w.got != kCplOk) flushed = true;
    if (!flushed) fail("QP to ERROR: nothing flushed (the test needs open work requests)");
  }
  if (sc.cut) {
    if (qp_state(s, *s.a, 0) != 4) fail("link cut: A's QP not in ERROR");
    if (cn[0].timeouts != (uint32_t)qc.retry + 1) fail("link cut: timeouts != retry limit + 1");
    if (!s.a->irq_seen) fail("link cut: no interrupt");
  }
  if (bad_qp < 0 && !sc.cut && !sc.fw_error && s.a->irq_seen && lossless) fail("interrupt without an error");

  uint64_t bytes = bytes_ok[0] + bytes_ok[1];
  g_last = {cycles, bytes, cn[0].pkts, cn[0].resends, cn[0].timeouts, ls[0].busy_cycles};
  printf("%s %-20s %zu+%zu WRs, %" PRIu64 " bytes in %" PRIu64 " cycles (%.1f B/cycle); A: pkts %u resends %u tmo %u "
         "acks %u; B: pkts %u resends %u tmo %u acks %u; links %" PRIu64 "/%" PRIu64 " frames, %" PRIu64 "+%" PRIu64
         " dropped, %" PRIu64 " dup %" PRIu64 " reord %" PRIu64 " corrupt%s%s\n",
         ok ? "ok  " : "FAIL", sc.name, dirs[0].wrs.size(), sc.bidir ? dirs[1].wrs.size() : (size_t)0, bytes, cycles,
         cycles ? (double)bytes / (double)cycles : 0.0, cn[0].pkts, cn[0].resends, cn[0].timeouts, cn[0].tx_acks,
         cn[1].pkts, cn[1].resends, cn[1].timeouts, cn[1].tx_acks, ls[0].sent, ls[1].sent, ls[0].dropped,
         ls[1].dropped, n_dup, n_reo, n_cor, ok ? "" : ": ", ok ? "" : why.c_str());
  if (sc.cq_fill) printf("     CQ reached %u entries (depth %u)\n", cq_max, kCqDepth);
  if (sc.imm || sc.cmsg)
    printf("     messages: %zu+%zu sync-object updates, %zu+%zu completion messages\n", imm_seen[0].size(),
           imm_seen[1].size(), cm_seen[0].size(), cm_seen[1].size());
  tsim_link_free(ab);
  tsim_link_free(ba);
  return ok;
}

// ---- bench (--bench): goodput against message size, loss recovery, latency; BENCH records
// (tests/framework/bench_rec.h). Every run is a scenario of the test above, with all its checks
// (memory image, completions, wire, counters); a run that fails them fails the bench.
static const uint32_t kBenchLatency = 200;   // link latency (tsim_link_cfg_default's)
static unsigned g_bench_runs = 0;
static const char *g_bench_only = nullptr;   // --only NAME: that bench run alone
static bool bench_skip(const std::string &name) { return g_bench_only && name != g_bench_only; }

// wire cycles of one data frame on the link model: headers, payload padded to 4 bytes, ICRC,
// plus the link's per-frame overhead (preamble, FCS, inter-frame gap), rounded up to whole
// cycles of bytes_per_cycle, as tsim_link_send charges it
static uint64_t frame_wire_cycles(uint32_t payload, bool reth) {
  tsim_link_cfg_t lc;
  tsim_link_cfg_default(&lc);
  uint32_t len = ROCE_ETH_LEN + ROCE_IP_LEN + ROCE_UDP_LEN + ROCE_BTH_LEN + (reth ? ROCE_RETH_LEN : 0) +
                 ((payload + 3) & ~3u) + ROCE_ICRC_LEN;
  len = std::max(len, (uint32_t)ROCE_ETH_MIN_FRAME);
  return (len + lc.overhead + lc.bytes_per_cycle - 1) / lc.bytes_per_cycle;
}

// wire cycles of one WRITE: selective QPs send WRITE only with a RETH per packet, go-back-N
// QPs first/middle/last with the RETH on the first only
static uint64_t write_wire_cycles(uint32_t len, uint32_t mtu, bool selective) {
  uint64_t c = 0;
  uint32_t n = len ? (len + mtu - 1) / mtu : 1;
  for (uint32_t i = 0; i < n; i++) c += frame_wire_cycles(std::min(mtu, len - i * mtu), selective || i == 0);
  return c;
}

static std::string size_name(uint32_t b) {
  char t[32];
  if (b >= (1u << 20)) snprintf(t, sizeof t, "%um", b >> 20);
  else if (b >= 1024) snprintf(t, sizeof t, "%uk", b >> 10);
  else snprintf(t, sizeof t, "%u", b);
  return t;
}

// one bench run: nwr WRITEs of len bytes A -> B on QP 0, MTU, mode, drop rate on both links
static bool bench_run(const std::string &name, uint32_t len, unsigned nwr, uint8_t mtu_code, bool selective,
                      uint32_t drop_ppm, uint64_t seed, RunStats &st) {
  Scenario sc = {};
  sc.name = name.c_str();
  sc.nqp = 1;
  sc.nwr = nwr;
  sc.max_len = len;
  sc.exact_len = len;
  sc.mtu = mtu_code;
  sc.selective = selective;
  sc.drop_ppm = drop_ppm;
  sc.latency = kBenchLatency;
  sc.bad_rkey_qp = -1;
  // room for every WRITE (run() spaces them by up to 127 bytes), at least the tests' 1 MiB
  g_dst_len = std::max<uint32_t>(0x100000, (nwr * ((len + 127) & ~31u) + 4095) & ~4095u);
  g_bench_runs++;
  bool ok = run(sc, seed);
  st = g_last;
  g_dst_len = 0x100000;
  if (ok && (st.bytes != (uint64_t)len * nwr)) {
    printf("FAIL %s: %" PRIu64 " bytes written, want %" PRIu64 "\n", sc.name, st.bytes, (uint64_t)len * nwr);
    ok = false;
  }
  // lossless: the wire was busy exactly the cycles the frame format gives (checks the ideal)
  uint64_t ideal = write_wire_cycles(len, ROCE_MTU_BYTES(mtu_code), selective) * nwr;
  if (ok && !drop_ppm && st.wire_busy != ideal) {
    printf("FAIL %s: A->B wire busy %" PRIu64 " cycles, the frame format gives %" PRIu64 "\n", sc.name, st.wire_busy,
           ideal);
    ok = false;
  }
  return ok;
}

// Goodput: WRITEs of each size, one alone and a stream of them queued back to back on one QP
// (the work-request queue and the requester's ring keep up to 16 in flight), lossless link.
static unsigned bench_goodput(uint64_t seed) {
  static const uint32_t sizes[] = {64, 256, 1024, 4096, 16384, 65536, 262144, 1u << 20, 4u << 20};
  unsigned failed = 0;
  for (uint8_t mtu_code : {ROCE_MTU_4096, ROCE_MTU_1024}) {
    uint32_t mtu = ROCE_MTU_BYTES(mtu_code);
    for (uint32_t len : sizes) {
      // MTU 1024: a few sizes only
      if (mtu_code == ROCE_MTU_1024 && len != 4096 && len != 65536 && len != (1u << 20)) continue;
      for (int stream = 0; stream < 2; stream++) {
        // a stream: 4 MiB in all (64 WRITEs at most); one WRITE alone for MTU 4096 only
        unsigned n = stream ? (unsigned)std::max<uint32_t>(1, std::min<uint32_t>(64, (4u << 20) / len)) : 1;
        if (!stream && mtu_code != ROCE_MTU_4096) continue;
        if (stream && n == 1) continue;   // 4 MiB: the single WRITE is the stream
        std::string nm = "nic_port/goodput_mtu" + std::to_string(mtu) + "_" + size_name(len) + (stream ? "_x" + std::to_string(n) : "");
        RunStats st;
        if (bench_skip(nm)) continue;
        if (!bench_run(nm, len, n, mtu_code, true, 0, seed, st)) {
          failed++;
          continue;
        }
        uint64_t ideal = write_wire_cycles(len, mtu, true) * n;
        bench_record(nm.c_str(), "cycles", (double)st.cycles, (double)ideal,
                     "\"size\":%u,\"writes\":%u,\"mtu\":%u,\"bytes_per_cycle\":%.2f,\"packets\":%u", len, n, mtu,
                     (double)st.bytes / (double)st.cycles, st.pkts);
      }
    }
  }
  return failed;
}

// Loss recovery: 4 WRITEs of 1 MiB (MTU 4096), selective and go-back-N, the same drop rate on
// both links (data and acknowledgements), the same seeds; goodput against the lossless run.
static unsigned bench_loss(uint64_t seed) {
  static const uint32_t drops[] = {0, 1000, 10000, 50000};
  const uint32_t len = 1u << 20, n = 4, mtu = 4096;
  unsigned failed = 0;
  for (int selective = 1; selective >= 0; selective--) {
    double lossless = 0;
    for (uint32_t ppm : drops) {
      char nm[96];
      snprintf(nm, sizeof nm, "nic_port/loss_%s_%u.%u", selective ? "selective" : "gobackn", ppm / 10000, ppm / 1000 % 10);
      RunStats st;
      if (bench_skip(nm)) continue;
      if (!bench_run(nm, len, n, ROCE_MTU_4096, selective, ppm, seed, st)) {
        failed++;
        continue;
      }
      uint64_t ideal = write_wire_cycles(len, mtu, selective) * n;
      double gp = (double)st.bytes / (double)st.cycles;
      if (!ppm) lossless = gp;
      bench_record(nm, "cycles", (double)st.cycles, (double)ideal,
                   "\"drop_pct\":%.1f,\"seed\":%" PRIu64 ",\"packets\":%u,\"resends\":%u,\"timeouts\":%u,"
                   "\"bytes_per_cycle\":%.2f,\"of_lossless\":%.4f",
                   ppm / 10000.0, seed, st.pkts, st.resends, st.timeouts, gp, lossless > 0 ? gp / lossless : 0.0);
    }
  }
  return failed;
}

// Latency of one 64-byte WRITE from the pins: doorbell (the APB write of WR_DOORBELL on A) ->
// A's first frame beat -> B's first RX beat -> B's AW and last W beat -> B's ACK frame -> A's
// first RX beat of it -> A's irq_o (IRQ_EN.cpl: a completion entered the queue). The memory
// image and the completion are checked as in the tests.
static unsigned bench_latency(uint64_t seed) {
  if (bench_skip("nic_port/latency_64b")) return 0;
  g_bench_runs++;
  rng_state = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  Sys s;
  tsim_link_cfg_t lc;
  tsim_link_cfg_default(&lc);
  lc.latency = kBenchLatency;
  lc.seed = seed;
  tsim_link_t *ab = tsim_link_new(&lc);
  tsim_link_t *ba = tsim_link_new(&lc);
  s.a->out = s.b->in = ab;
  s.b->out = s.a->in = ba;
  s.reset();
  const uint32_t len = 64;
  std::vector<uint8_t> src(len), dst(len + 2 * kGuard), got(dst.size());
  for (auto &x : src) x = (uint8_t)rnd();
  for (auto &x : dst) x = (uint8_t)rnd();
  s.src[0].assign(src.begin(), src.end());
  s.a->mem->mem().write(kSrcBase, src.data(), len);
  s.b->mem->mem().write(kDstBase - kGuard, dst.data(), dst.size());
  QpCfg qc;
  qc.mtu = ROCE_MTU_4096;
  std::string why;
  for (Port *p : {s.a.get(), s.b.get()}) port_setup(s, *p, 0);
  if (!qp_setup(s, *s.a, *s.b, 0, qc) || !qp_setup(s, *s.b, *s.a, 0, qc)) why = "QP setup refused";
  s.wr(*s.a, REG(IRQ_EN), NIC__IRQ_EN__ERR_bm | NIC__IRQ_EN__CPL_ERR_bm | NIC__IRQ_EN__CPL_bm);
  for (int i = 0; i < 100; i++) s.step();
  for (Port *p : {s.a.get(), s.b.get()}) p->ev_tx = p->ev_rx = p->ev_aw = p->ev_wlast = p->ev_b = p->ev_irq = 0;
  Wr w;
  w.qp = 0;
  w.id = 0x77;
  w.off = 0;
  w.len = len;
  w.rkey = kRkey;
  if (!wr_post(s, *s.a, w)) why = "work-request queue full";
  uint64_t t_db = s.now - 1;   // the cycle whose edge took the doorbell write
  while (!s.a->ev_irq && s.now < t_db + 100000) s.step();
  Cpl c;
  if (!s.a->ev_irq) why = "no completion interrupt";
  else if (!cq_pop(s, *s.a, c) || c.qp != 0 || c.id != w.id || c.status != kCplOk) why = "completion";
  s.b->mem->mem().read(kDstBase - kGuard, got.data(), got.size());
  memcpy(dst.data() + kGuard, src.data(), len);
  if (got != dst) why = "B's memory differs from the golden image";
  if (s.a->tx_bad || s.a->tx_payload_bad || s.b->tx_bad || s.a->errs || s.b->errs) why = "frame or APB check";
  Port &a = *s.a, &b = *s.b;
  // every event seen once, in this order
  uint64_t ev[] = {t_db, a.ev_tx, b.ev_rx, b.ev_aw, b.ev_wlast, b.ev_b, b.ev_tx, a.ev_rx, a.ev_irq};
  for (size_t i = 1; i < sizeof ev / sizeof ev[0] && why.empty(); i++)
    if (!ev[i] || (ev[i] < ev[i - 1] && i != 6)) why = "pin events missing or out of order";
  if (b.ev_tx < b.ev_rx || a.ev_rx < b.ev_tx) why = "ACK events out of order";
  tsim_link_free(ab);
  tsim_link_free(ba);
  if (!why.empty()) {
    printf("FAIL latency-64b: %s\n", why.c_str());
    return 1;
  }
  long tx = (long)(a.ev_tx - t_db), link = (long)(b.ev_rx - a.ev_tx), rx_aw = (long)(b.ev_aw - b.ev_rx),
       rx_w = (long)(b.ev_wlast - b.ev_rx), wr_b = (long)(b.ev_b - b.ev_wlast), ack = (long)b.ev_tx - (long)b.ev_wlast,
       link_ack = (long)(a.ev_rx - b.ev_tx), cpl = (long)(a.ev_irq - a.ev_rx), total = (long)(a.ev_irq - t_db);
  printf("ok   latency-64b: doorbell %" PRIu64 ", total %ld cycles: TX pipeline %ld, link %ld, RX to AW %ld, to last W "
         "%ld, W to B %ld, last W to ACK frame %ld, ACK link %ld, ACK to completion %ld\n",
         t_db, total, tx, link, rx_aw, rx_w, wr_b, ack, link_ack, cpl);
  // the wire alone: two link latencies and one data and one ACK frame's serialization
  uint64_t wire = 2 * kBenchLatency + frame_wire_cycles(len, true) + frame_wire_cycles(ROCE_AETH_LEN, false);
  bench_record("nic_port/latency_64b", "cycles", (double)total, 0,
               "\"wire_only\":%" PRIu64 ",\"tx\":%ld,\"link\":%ld,\"rx_to_aw\":%ld,\"rx_to_wlast\":%ld,\"wlast_to_ack\":%ld,\"ack_link\":%ld,"
               "\"ack_to_cpl\":%ld,\"wlast_to_b\":%ld",
               wire, tx, link, rx_aw, rx_w, ack, link_ack, cpl, wr_b);
  return 0;
}

// ---- RDMA READ responder scenarios (docs/nic.md "RDMA READ"). The testbench is the
// requester: it builds READ requests (and WRITEs) with the golden model, hands them to
// port B's receive side, and takes B's frames off its transmit side. Checks per scenario:
// every frame B sends parses (roce_parse) and equals, byte for byte, the frame roce_build
// makes from the expected fields (READ response opcode sequence, PSNs from the request's,
// AETH ACK with the MSN, payload = B's memory at the RETH address; IPv4 ID 0 as the port
// sends it), and its fields equal roce_build_read_resp's; no other frame leaves; B's memory
// is unchanged (no AW at all in read-only scenarios); B's counters CNT_RD_REQ, CNT_RD_RESP,
// CNT_TX_FRAMES, CNT_NAK_ACCESS, CNT_DROP_* equal the scenario's; error scenarios: NAK
// remote access error (0x62) at the request's PSN, B's QP in ERROR, ERR_INFO, interrupt.
static const uint32_t kRkeyRd = 0x5EED1000u;   // B's read-only region (MR 1), kDstBase..

struct ReadRun {
  Sys s;
  tsim_link_t *ab = nullptr, *ba = nullptr;
  roce_qp_t rq{}, rs{};   // requester (A's QP 0) and responder (B's QP 0) as the model sees them
  uint8_t mtu_code;
  uint32_t mtu;
  std::vector<uint8_t> img;   // B's window kDstBase - kGuard .. + g_dst_len + kGuard
  std::vector<std::vector<uint8_t>> tx;   // B's frames, in order
  uint32_t a_frames = 0;
  bool ok = true;
  std::string why;
  void fail(const std::string &m) {
    if (ok) why = m;
    ok = false;
  }

  ReadRun(uint8_t mtu_c, bool selective, unsigned stall, uint32_t psn0) : mtu_code(mtu_c), mtu(ROCE_MTU_BYTES(mtu_c)) {
    tsim_link_cfg_t lc;
    tsim_link_cfg_default(&lc);
    link_ports(s, lc, lc, 1, &ab, &ba);   // lossless; B's frames go to on_tx
    s.b->stall = stall;
    s.on_tx = [this](Port &p, const std::vector<uint8_t> &f) {
      if (&p == s.b.get()) tx.push_back(f);
      else a_frames++;
      return true;
    };
    s.reset();
    port_setup(s, *s.a, 0);
    port_setup(s, *s.b, 0);
    // MR 1 of B: the same window, remote READ only
    s.wr(*s.b, REG(MR_SEL), 1);
    s.wr(*s.b, REG(MR_BASE_LO), (uint32_t)kDstBase);
    s.wr(*s.b, REG(MR_BASE_HI), 0);
    s.wr(*s.b, REG(MR_LEN), g_dst_len);
    s.wr(*s.b, REG(MR_RKEY), kRkeyRd);
    s.wr(*s.b, REG(MR_CFG), NIC__MR_CFG__VALID_bm | NIC__MR_CFG__RD_OK_bm);
    s.wr(*s.b, REG(MR_CMD), 1);
    QpCfg c;
    c.mtu = mtu_c;
    c.selective = selective;
    c.rq_psn = psn0;
    c.sport = roce_udp_sport(lqpn(*s.b, 0));
    if (!qp_setup(s, *s.b, *s.a, 0, c)) fail("QP setup of B refused");
    img.resize(g_dst_len + 2 * kGuard);
    for (auto &x : img) x = (uint8_t)rnd();
    s.b->mem->mem().write(kDstBase - kGuard, img.data(), img.size());
    // the model's QPs: A's QP 0 sends the requests, B's QP 0 answers them
    for (int i = 0; i < 6; i++) {
      rq.mac[i] = rs.rmac[i] = (uint8_t)(port_mac(*s.a) >> (8 * (5 - i)));
      rq.rmac[i] = rs.mac[i] = (uint8_t)(port_mac(*s.b) >> (8 * (5 - i)));
    }
    rq.ip = rs.rip = port_ip(*s.a);
    rq.rip = rs.ip = port_ip(*s.b);
    rq.qpn = rs.dest_qpn = lqpn(*s.a, 0);
    rq.dest_qpn = rs.qpn = lqpn(*s.b, 0);
    rq.pkey = rs.pkey = 0xFFFF;
    rq.mtu = rs.mtu = mtu_c;
    rq.tos = rs.tos = 2;
    rq.ttl = rs.ttl = 64;
    rq.sq_psn = psn0;
  }
  ~ReadRun() {
    tsim_link_free(ab);
    tsim_link_free(ba);
  }

  // a READ request (PSN psn; rq.sq_psn then follows its response PSNs), handed to B
  void read_req(uint32_t psn, uint32_t off, uint32_t len, uint32_t rkey) {
    roce_frame_t f;
    rq.sq_psn = psn;
    roce_build_read_req(&rq, kDstBase + off, rkey, len, &f);
    s.inj[1].emplace_back(f.data, f.data + f.len);
  }
  void write_only(uint32_t psn, uint32_t off, const std::vector<uint8_t> &data) {
    static roce_frame_t f[2];
    rq.sq_psn = psn;
    if (roce_build_write(&rq, kDstBase + off, kRkey, data.data(), (uint32_t)data.size(), f, 1) != 1) {
      fail("test WRITE larger than one packet");
      return;
    }
    s.inj[1].emplace_back(f[0].data, f[0].data + f[0].len);
  }
  // run until B has sent n frames in all (false on timeout), then `quiet` more cycles
  bool wait_tx(size_t n, uint64_t quiet = 300) {
    uint64_t t0 = s.now;
    while (tx.size() < n && s.now - t0 < 200000) s.step();
    for (uint64_t i = 0; i < quiet; i++) s.step();
    if (tx.size() < n) {
      fail("B sent " + std::to_string(tx.size()) + " frames, " + std::to_string(n) + " expected");
      return false;
    }
    return true;
  }
  // frames tx[first..] must be the complete response to a READ of [off, off + len) at PSN
  // psn with MSN msn, byte for byte; skip: response packets the link "lost" (not checked
  // for content here, but counted)
  void check_resp(size_t first, uint32_t psn, uint32_t off, uint32_t len, uint32_t msn) {
    uint32_t n = len == 0 ? 1 : (len + mtu - 1) / mtu;
    if (first + n > tx.size()) {
      fail("READ response too short");
      return;
    }
    // the golden model's response (its IPv4 IDs count up; compared field by field)
    std::vector<roce_frame_t> gold(n);
    roce_qp_t q = rs;
    q.msn = (msn - 1) & 0xFFFFFFu;
    const uint8_t *mem = img.data() + kGuard + off;
    if (roce_build_read_resp(&q, psn, mem, len, gold.data(), (int)n) != (int)n || q.msn != msn) {
      fail("roce_build_read_resp disagrees on the packet count or MSN");
      return;
    }
    for (uint32_t i = 0; i < n; i++) {
      const std::vector<uint8_t> &f = tx[first + i];
      roce_pkt_t k, g;
      int e = roce_parse(f.data(), (uint32_t)f.size(), &k);
      if (e != ROCE_OK) {
        fail(std::string("response frame refused by the golden parser: ") + roce_strerror(e));
        return;
      }
      roce_parse(gold[i].data, gold[i].len, &g);
      if (k.opcode != g.opcode || k.psn != g.psn || k.syndrome != g.syndrome || k.msn != g.msn ||
          k.payload_len != g.payload_len || memcmp(k.payload, g.payload, g.payload_len) != 0) {
        char m[160];
        snprintf(m, sizeof m, "response %u: op %02x psn %06x syn %02x msn %u len %u, model op %02x psn %06x msn %u len %u", i,
                 k.opcode, k.psn, k.syndrome, k.msn, k.payload_len, g.opcode, g.psn, g.msn, g.payload_len);
        fail(m);
        return;
      }
      // the whole frame, with the port's IPv4 ID (0) and header fields
      roce_pkt_t x;
      memset(&x, 0, sizeof x);
      x.opcode = g.opcode;
      x.psn = g.psn;
      x.syndrome = g.syndrome;
      x.msn = g.msn;
      x.payload = mem + (size_t)i * mtu;
      x.payload_len = g.payload_len;
      roce_qp_t q0 = rs;
      q0.ip_id = 0;
      static uint8_t buf[ROCE_FRAME_MAX];
      uint32_t L = roce_build(&q0, &x, buf);
      if (L != f.size() || memcmp(buf, f.data(), L) != 0) {
        fail("response " + std::to_string(i) + " differs from roce_build's frame");
        return;
      }
    }
  }
  // one acknowledgement frame at tx[i]
  void check_ack(size_t i, uint8_t syn, uint32_t psn, uint32_t msn) {
    roce_pkt_t k;
    if (i >= tx.size() || roce_parse(tx[i].data(), (uint32_t)tx[i].size(), &k) != ROCE_OK) {
      fail("acknowledgement missing or refused by the parser");
      return;
    }
    if (k.opcode != ROCE_OP_ACK || k.syndrome != syn || k.psn != psn || k.msn != msn) {
      char m[160];
      snprintf(m, sizeof m, "ACK frame op %02x syn %02x psn %06x msn %u, expected syn %02x psn %06x msn %u", k.opcode,
               k.syndrome, k.psn, k.msn, syn, psn, msn);
      fail(m);
    }
  }
  uint32_t cnt(uint32_t reg) { return s.rd(*s.b, reg); }
  void expect_cnt(const char *name, uint32_t reg, uint32_t v) {
    uint32_t got = cnt(reg);
    if (got != v) fail(std::string(name) + " = " + std::to_string(got) + ", expected " + std::to_string(v));
  }
  // B's memory: img with the given bytes written
  void check_mem(bool writes_allowed) {
    std::vector<uint8_t> m(img.size());
    s.b->mem->mem().read(kDstBase - kGuard, m.data(), m.size());
    if (m != img) fail("B's memory changed");
    if (!writes_allowed && s.b->ev_aw) fail("B issued an AXI write");
    if (a_frames) fail("A sent frames");
  }
};

static uint32_t psn_add(uint32_t p, uint32_t n) { return (p + n) & ROCE_PSN_MASK; }

// B's frames of a READ scenario into DIR/NAME.pcap, decoded by tshark: every frame must be
// InfiniBand (udp:infiniband) without a malformed mark, with the opcode B sent
static std::string g_pcap_dir = ".";
static void read_pcap_check(ReadRun &r, const char *name) {
  std::string path = g_pcap_dir + "/" + name + ".pcap";
  tsim_pcap_t *pc = tsim_pcap_create(path.c_str());
  if (!pc) {
    r.fail("cannot create " + path);
    return;
  }
  for (size_t i = 0; i < r.tx.size(); i++) tsim_pcap_write(pc, 1000 * i, r.tx[i].data(), (uint32_t)r.tx[i].size());
  tsim_pcap_close(pc);
  std::string cmd = "tshark -r '" + path + "' -n -T fields -e frame.protocols -e infiniband.bth.opcode -e _ws.malformed 2>/dev/null";
  FILE *pp = popen(cmd.c_str(), "r");
  if (!pp) {
    r.fail("tshark did not run");
    return;
  }
  char line[512];
  size_t n = 0, good = 0;
  while (fgets(line, sizeof line, pp)) {
    char proto[400] = "", op[32] = "", extra[64] = "";
    int f = sscanf(line, "%399s %31s %63s", proto, op, extra);
    roce_pkt_t k;
    if (n < r.tx.size() && roce_parse(r.tx[n].data(), (uint32_t)r.tx[n].size(), &k) == ROCE_OK && f == 2 &&
        strstr(proto, ":udp:infiniband") && strtoul(op, NULL, 0) == k.opcode)
      good++;
    n++;
  }
  if (pclose(pp) != 0 || n != r.tx.size() || good != n)
    r.fail("tshark: " + std::to_string(good) + " of " + std::to_string(r.tx.size()) + " frames decode as InfiniBand (" + path + ")");
}

static bool read_scenario(const char *name, uint64_t seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 0xBEEF;
  std::string nm(name);
  uint64_t t0 = 0;
  uint32_t nreq = 0, nresp = 0, nbytes = 0;
  auto npk = [](uint32_t len, uint32_t mtu) { return len == 0 ? 1u : (len + mtu - 1) / mtu; };
  std::unique_ptr<ReadRun> r;
  const uint32_t psn0 = 0xFFFFF8;   // the response PSNs wrap
  // plain READs (with their response checked), one at a time or all posted at once
  auto reads = [&](const std::vector<std::pair<uint32_t, uint32_t>> &l, bool burst) {
    uint32_t psn = psn0, msn = 0;
    size_t base = r->tx.size();
    std::vector<size_t> firsts;
    for (auto &x : l) {
      r->read_req(psn, x.first, x.second, kRkeyRd);
      uint32_t n = npk(x.second, r->mtu);
      firsts.push_back(base);
      base += n;
      if (!burst) r->wait_tx(base, 50);
      psn = psn_add(psn, n);
      nreq++;
      nresp += n;
      nbytes += x.second;
    }
    r->wait_tx(base);
    psn = psn0;
    for (size_t i = 0; i < l.size() && r->ok; i++) {
      r->check_resp(firsts[i], psn, l[i].first, l[i].second, ++msn);
      psn = psn_add(psn, npk(l[i].second, r->mtu));
    }
    if (r->tx.size() != base) r->fail("B sent more frames than the responses");
  };
  auto finish_counts = [&](uint32_t nak) {
    r->expect_cnt("CNT_RD_REQ", REG(CNT_RD_REQ), nreq);
    r->expect_cnt("CNT_RD_RESP", REG(CNT_RD_RESP), nresp);
    r->expect_cnt("CNT_TX_FRAMES", REG(CNT_TX_FRAMES), (uint32_t)r->tx.size());
    r->expect_cnt("CNT_NAK_ACCESS", REG(CNT_NAK_ACCESS), nak);
    r->expect_cnt("CNT_DROP_BAD", REG(CNT_DROP_BAD), 0);
    r->expect_cnt("CNT_DROP_OPCODE", REG(CNT_DROP_OPCODE), 0);
  };
  if (nm == "read-1b") {
    r.reset(new ReadRun(ROCE_MTU_1024, true, 0, psn0));
    t0 = r->s.now;
    reads({{5, 1}}, false);
  } else if (nm == "read-4k") {
    r.reset(new ReadRun(ROCE_MTU_1024, true, 50, psn0));
    t0 = r->s.now;
    reads({{0, 4096}}, false);
  } else if (nm == "read-64k") {
    r.reset(new ReadRun(ROCE_MTU_4096, false, 0, psn0));
    t0 = r->s.now;
    reads({{4096, 65536}}, false);
  } else if (nm == "read-unaligned" || nm == "read-unaligned-mtu4096") {
    bool big = nm == "read-unaligned-mtu4096";
    r.reset(new ReadRun(big ? ROCE_MTU_4096 : ROCE_MTU_1024, big, 50, psn0));
    t0 = r->s.now;
    std::vector<std::pair<uint32_t, uint32_t>> l;
    for (int i = 0; i < (big ? 6 : 14); i++) {
      uint32_t len = i == 3 ? 0 : rnd() % 8 == 0 ? 1 + rnd() % 40 : 1 + rnd() % (big ? 20000 : 9000);
      l.push_back({rnd() % (g_dst_len - len), len});
    }
    reads(l, true);
  } else if (nm == "read-bad-rkey" || nm == "read-no-right" || nm == "read-bounds") {
    r.reset(new ReadRun(ROCE_MTU_1024, nm != "read-bounds", 0, psn0));
    t0 = r->s.now;
    reads({{64, 3000}}, false);   // a good one first: MSN 1, PSN psn0 + 3
    uint32_t psn = psn_add(psn0, 3);
    uint32_t off = 100, len = 2000, key = kRkeyRd ^ 0x40;
    if (nm == "read-no-right") key = kRkey;              // MR 0: remote WRITE only
    if (nm == "read-bounds") off = g_dst_len - 1000, key = kRkeyRd;   // 1000 bytes past the end
    r->read_req(psn, off, len, key);
    r->wait_tx(4);
    r->check_ack(3, ROCE_SYN_NAK(ROCE_NAK_REMOTE_ACCESS), psn, 1);
    if (r->tx.size() != 4) r->fail("frames after the NAK");
    if (qp_state(r->s, *r->s.b, 0) != 4) r->fail("B's QP not in ERROR after the NAK");
    uint32_t ei = r->cnt(REG(ERR_INFO));
    if ((ei & 0xFFF) != 0x62) r->fail("ERR_INFO not (0x62, QP 0)");
    if (!r->s.b->irq_seen) r->fail("no interrupt from B");
    // a READ to the QP in ERROR is dropped
    r->read_req(psn, 0, 100, kRkeyRd);
    r->wait_tx(4);
    if (r->tx.size() != 4) r->fail("B answered a READ on a QP in ERROR");
    r->expect_cnt("CNT_DROP_STATE", REG(CNT_DROP_STATE), 1);
    finish_counts(1);
    nm.clear();
  } else if (nm == "read-decerr") {
    // a READ region that runs past the end of B's memory: the packets below the end are
    // answered, the first one past it is a NAK remote operational error (the DECERR read)
    r.reset(new ReadRun(ROCE_MTU_1024, true, 0, psn0));
    t0 = r->s.now;
    const uint32_t base = (uint32_t)kMemBase + 0x1000000u - 0x1000u, key = kRkeyRd + 1;
    r->s.wr(*r->s.b, REG(MR_SEL), 2);
    r->s.wr(*r->s.b, REG(MR_BASE_LO), base);
    r->s.wr(*r->s.b, REG(MR_BASE_HI), 0);
    r->s.wr(*r->s.b, REG(MR_LEN), 0x4000);
    r->s.wr(*r->s.b, REG(MR_RKEY), key);
    r->s.wr(*r->s.b, REG(MR_CFG), NIC__MR_CFG__VALID_bm | NIC__MR_CFG__RD_OK_bm);
    r->s.wr(*r->s.b, REG(MR_CMD), 1);
    std::vector<uint8_t> mem(2048);
    r->s.b->mem->mem().read(base + 0x800, mem.data(), mem.size());
    r->read_req(psn0, base + 0x800 - (uint32_t)kDstBase, 0x1800, key);   // 2 packets, then the end
    r->wait_tx(3);
    for (uint32_t i = 0; i < 2 && r->tx.size() >= 3; i++) {
      roce_pkt_t k;
      if (roce_parse(r->tx[i].data(), (uint32_t)r->tx[i].size(), &k) != ROCE_OK || k.psn != psn_add(psn0, i) ||
          k.opcode != (i ? ROCE_OP_READ_RESP_MIDDLE : ROCE_OP_READ_RESP_FIRST) || k.payload_len != 1024 ||
          memcmp(k.payload, mem.data() + 1024 * i, 1024) != 0)
        r->fail("response " + std::to_string(i) + " below the memory's end wrong");
    }
    r->check_ack(2, ROCE_SYN_NAK(ROCE_NAK_REMOTE_OP), psn_add(psn0, 2), 1);
    if (r->tx.size() != 3) r->fail("frames after the NAK");
    if (qp_state(r->s, *r->s.b, 0) != 4) r->fail("B's QP not in ERROR after the NAK");
    if ((r->cnt(REG(ERR_INFO)) & 0xFFF) != 0x63) r->fail("ERR_INFO not (0x63, QP 0)");
    r->expect_cnt("CNT_NAK_OPER", REG(CNT_NAK_OPER), 1);
    nresp = 2;
    finish_counts(0);
    nm.clear();
  } else if (nm == "read-resp-loss" || nm == "read-resp-loss-gobackn") {
    // a READ of 16 packets whose responses 5 and 9 are lost: the requester asks again for
    // the rest from PSN psn0 + 5 (a duplicate READ, executed again, MSN unchanged); then a
    // READ whose request is lost and sent again after a timeout
    bool sel = nm == "read-resp-loss";
    r.reset(new ReadRun(ROCE_MTU_1024, sel, 50, psn0));
    t0 = r->s.now;
    uint32_t off = 777, len = 16 * 1024 - 300;
    r->read_req(psn0, off, len, kRkeyRd);
    r->wait_tx(16);
    r->check_resp(0, psn0, off, len, 1);
    // reassemble as a requester would: the packets it got, then the rest again
    std::vector<uint8_t> got(len, 0);
    std::vector<bool> have(16, false);
    for (uint32_t i = 0; i < 16; i++) {
      if (i == 5 || i == 9) continue;
      roce_pkt_t k;
      roce_parse(r->tx[i].data(), (uint32_t)r->tx[i].size(), &k);
      memcpy(got.data() + (size_t)(k.psn - psn0 & ROCE_PSN_MASK) * 1024, k.payload, k.payload_len);
      have[i] = true;
    }
    uint32_t re = 5, reoff = off + re * 1024, relen = len - re * 1024;
    r->read_req(psn_add(psn0, re), reoff, relen, kRkeyRd);
    r->wait_tx(16 + 11);
    r->check_resp(16, psn_add(psn0, re), reoff, relen, 1);
    for (uint32_t i = 0; i < 11 && r->ok; i++) {
      roce_pkt_t k;
      roce_parse(r->tx[16 + i].data(), (uint32_t)r->tx[16 + i].size(), &k);
      uint32_t j = (k.psn - psn0) & ROCE_PSN_MASK;
      if (!have[j]) memcpy(got.data() + (size_t)j * 1024, k.payload, k.payload_len), have[j] = true;
    }
    if (memcmp(got.data(), r->img.data() + kGuard + off, len) != 0) r->fail("reassembled READ differs from B's memory");
    // the next READ: its request is lost once, then sent again
    uint32_t psn = psn_add(psn0, 16);
    for (int i = 0; i < 2000; i++) r->s.step();
    if (r->tx.size() != 27) r->fail("frames without a request");
    r->read_req(psn, 50000, 2500, kRkeyRd);
    r->wait_tx(30);
    r->check_resp(27, psn, 50000, 2500, 2);
    if (r->tx.size() != 30) r->fail("extra frames");
    nreq = 3;
    nresp = 30;
    r->expect_cnt("CNT_DROP_DUP", REG(CNT_DROP_DUP), 1);
    finish_counts(0);
    nm.clear();
  } else if (nm == "read-write-order") {
    // PSNs after a READ: a WRITE at the PSN after the READ's responses is in order; a READ
    // past ePSN is dropped (selective: no answer) and answered when sent at ePSN
    r.reset(new ReadRun(ROCE_MTU_1024, true, 0, psn0));
    t0 = r->s.now;
    reads({{0, 3000}}, false);
    uint32_t psn = psn_add(psn0, 3);
    std::vector<uint8_t> w(700);
    for (auto &x : w) x = (uint8_t)rnd();
    r->write_only(psn, 8192 + 3, w);
    r->wait_tx(4);
    r->check_ack(3, ROCE_SYN_ACK, psn, 2);
    memcpy(r->img.data() + kGuard + 8192 + 3, w.data(), w.size());
    psn = psn_add(psn, 1);
    r->read_req(psn_add(psn, 2), 8192, 1024, kRkeyRd);   // past ePSN
    r->wait_tx(4);
    if (r->tx.size() != 4) r->fail("B answered a READ past ePSN");
    r->expect_cnt("CNT_DROP_SEQ", REG(CNT_DROP_SEQ), 1);
    r->read_req(psn, 8192, 1024, kRkeyRd);   // the WRITE's bytes read back
    r->wait_tx(5);
    r->check_resp(4, psn, 8192, 1024, 3);
    nreq = 2;
    nresp = 4;
    r->expect_cnt("CNT_PLACED", REG(CNT_PLACED), 1);
    finish_counts(0);
    r->check_mem(true);
    nm.clear();
  } else {
    printf("FAIL %-20s unknown scenario\n", name);
    return false;
  }
  if (!nm.empty()) {   // the plain READ scenarios
    finish_counts(0);
    r->check_mem(false);
  } else if (std::string(name).find("write") == std::string::npos) {
    r->check_mem(false);
  }
  if (qp_state(r->s, *r->s.b, 0) != 3 && std::string(name).find("bad") == std::string::npos &&
      std::string(name).find("decerr") == std::string::npos &&
      std::string(name).find("right") == std::string::npos && std::string(name).find("bounds") == std::string::npos)
    r->fail("B's QP left RTS");
  if (r->s.b->errs || r->s.a->errs) r->fail("APB error");
  uint64_t cyc = r->s.now - t0;
  read_pcap_check(*r, name);
  if (r->ok)
    printf("ok   %-22s %u READs, %u response packets, %u frames from B, %" PRIu64 " cycles\n", name, nreq, nresp,
           (unsigned)r->tx.size(), cyc);
  else
    printf("FAIL %-22s %s\n", name, r->why.c_str());
  return r->ok;
}

static const char *const kReadScenarios[] = {
    "read-1b",       "read-4k",       "read-64k",          "read-unaligned", "read-unaligned-mtu4096", "read-bad-rkey",
    "read-no-right", "read-bounds",   "read-decerr",       "read-resp-loss",    "read-resp-loss-gobackn", "read-write-order",
};

// ---- RDMA READ from the requester side (docs/nic.md "RDMA READ"): port A's firmware posts
// READ work requests (WR_FLAGS.read) among WRITEs; A sends the requests over the link, B's
// responder answers from its read-only region, A's responder places the responses at the
// work requests' local addresses and A completes them. Checks: every work request completes
// once, in order, with the expected status; A's READ destinations (a 1 MiB window at
// kSrcBase + 2 MiB with 4 KiB on each side, random bytes before) equal B's bytes inside the
// successful READs' targets and are untouched elsewhere; B's WRITE window equals the WRITEs'
// sources inside their targets and is untouched elsewhere; every frame on both links parses
// (roce_parse); lossy runs resend (CNT_REQ_RESENDS > 0) and drop responses.
static const uint64_t kRdDst = kSrcBase + 0x200000u;   // A: where READs land

struct RqOp {
  bool read;
  uint32_t loff, roff, len;   // READ: B kDstBase + roff -> A kRdDst + loff; WRITE: kSrcBase + off -> kDstBase + off
  uint32_t rkey;
  int expect;
};

static bool req_read_scenario(const char *name, uint64_t seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 0xCAFE;
  std::string nm(name);
  bool sel = nm.find("gobackn") == std::string::npos;
  uint32_t drop = nm.find("drop") != std::string::npos ? 30000 : 0;
  uint8_t mtu_c = nm.find("mtu256") != std::string::npos ? ROCE_MTU_256 : ROCE_MTU_1024;
  bool bad = nm.find("bad") != std::string::npos;
  Sys s;
  tsim_link_cfg_t lc;
  tsim_link_cfg_default(&lc);
  lc.latency = 300;
  lc.drop_ppm = drop;
  tsim_link_t *ab, *ba;
  link_ports(s, lc, lc, seed, &ab, &ba);
  s.a->stall = s.b->stall = 30;
  // req-read-lost: the first READ request, B's 6th response packet and the last packet of
  // a later READ response are lost once each (a timeout, a gap, a timeout)
  unsigned lost_req = 0, lost_mid = 0, lost_last = 0, nresp_seen = 0;
  if (nm == "req-read-lost") {
    s.on_tx = [&](Port &p, const std::vector<uint8_t> &f) {
      roce_pkt_t k;
      if (roce_parse(f.data(), (uint32_t)f.size(), &k) != ROCE_OK) return false;
      if (&p == s.a.get() && k.opcode == ROCE_OP_READ_REQ && !lost_req) return (bool)++lost_req;
      if (&p == s.b.get() && k.opcode >= ROCE_OP_READ_RESP_FIRST && k.opcode <= ROCE_OP_READ_RESP_ONLY) {
        nresp_seen++;
        if (nresp_seen == 6 && !lost_mid) return (bool)++lost_mid;
        if (nresp_seen > 30 && k.opcode == ROCE_OP_READ_RESP_LAST && !lost_last) return (bool)++lost_last;
      }
      return false;
    };
  }
  s.reset();
  bool ok = true;
  std::string why;
  auto fail = [&](const std::string &m) {
    if (ok) why = m;
    ok = false;
  };
  port_setup(s, *s.a, 0);
  port_setup(s, *s.b, 0);
  s.wr(*s.b, REG(MR_SEL), 1);
  s.wr(*s.b, REG(MR_BASE_LO), (uint32_t)kDstBase);
  s.wr(*s.b, REG(MR_BASE_HI), 0);
  s.wr(*s.b, REG(MR_LEN), 0x80000);
  s.wr(*s.b, REG(MR_RKEY), kRkeyRd);
  s.wr(*s.b, REG(MR_CFG), NIC__MR_CFG__VALID_bm | NIC__MR_CFG__RD_OK_bm);
  s.wr(*s.b, REG(MR_CMD), 1);
  QpCfg c;
  c.mtu = mtu_c;
  c.selective = sel;
  c.sq_psn = c.rq_psn = 0xFFFFE0;
  if (!qp_setup(s, *s.a, *s.b, 0, c) || !qp_setup(s, *s.b, *s.a, 0, c)) fail("QP setup refused");
  // memories: A's WRITE sources and READ window, B's window (READ sources below 512 KiB,
  // WRITE targets above)
  s.src[0].resize(g_dst_len);
  for (auto &x : s.src[0]) x = (uint8_t)rnd();
  s.a->mem->mem().write(kSrcBase, s.src[0].data(), s.src[0].size());
  std::vector<uint8_t> ra(g_dst_len + 2 * kGuard), rb(g_dst_len + 2 * kGuard);
  for (auto &x : ra) x = (uint8_t)rnd();
  for (auto &x : rb) x = (uint8_t)rnd();
  s.a->mem->mem().write(kRdDst - kGuard, ra.data(), ra.size());
  s.b->mem->mem().write(kDstBase - kGuard, rb.data(), rb.size());
  std::vector<uint8_t> ea = ra, eb = rb;   // expected images
  // work requests
  std::vector<RqOp> ops;
  uint32_t loff = 0, woff = 0x80000;
  std::vector<uint32_t> lens = {1, 4096, 65536, 0, 5000, 37, 1024, 20000};
  if (drop) lens = {3000, 65536, 1, 9000, 12345, 4096, 70000, 2048, 100, 30000};
  for (size_t i = 0; i < lens.size(); i++) {
    RqOp r;
    r.read = true;
    r.len = lens[i];
    r.roff = rnd() % (0x80000 - r.len);
    loff += rnd() % 64;   // any byte address
    r.loff = loff;
    loff += r.len;
    r.rkey = kRkeyRd;
    r.expect = kCplOk;
    if (bad && i == 2) r.rkey = kRkeyRd ^ 0x40, r.expect = 2;
    if (bad && i > 2) r.expect = 4;   // flushed, or refused when posted after the QP left RTS (5)
    ops.push_back(r);
    if (i % 2 == 1) {   // a WRITE between READs
      RqOp w;
      w.read = false;
      w.len = 1 + rnd() % 6000;
      woff = (woff + 31) & ~31u;
      w.roff = w.loff = woff;
      woff += w.len;
      w.rkey = kRkey;
      w.expect = bad && i > 2 ? 4 : kCplOk;
      ops.push_back(w);
    }
  }
  uint64_t t0 = s.now;
  size_t posted = 0, done = 0;
  while (done < ops.size() && s.now - t0 < 3000000 && ok) {
    if (posted < ops.size() && posted - done < 6) {
      const RqOp &o = ops[posted];
      if (!(s.rd(*s.a, REG(WR_STATUS)) & NIC__WR_STATUS__FULL_bm)) {
        s.wr(*s.a, REG(WR_QP), 0);
        s.wr(*s.a, REG(WR_ID), (uint32_t)posted);
        s.wr(*s.a, REG(WR_LADDR), (uint32_t)((o.read ? kRdDst : kSrcBase) + o.loff));
        s.wr(*s.a, REG(WR_VA_LO), (uint32_t)(kDstBase + o.roff));
        s.wr(*s.a, REG(WR_VA_HI), 0);
        s.wr(*s.a, REG(WR_RKEY), o.rkey);
        s.wr(*s.a, REG(WR_LEN), o.len);
        s.wr(*s.a, REG(WR_FLAGS), o.read ? NIC__WR_FLAGS__READ_bm : 0u);
        s.wr(*s.a, REG(WR_DOORBELL), 1);
        posted++;
      }
    }
    Cpl cp;
    while (cq_pop(s, *s.a, cp)) {
      if (cp.id != done) fail("completion " + std::to_string(cp.id) + " out of order (expected " + std::to_string(done) + ")");
      else if ((int)cp.status != ops[done].expect && !(ops[done].expect == 4 && cp.status == 5))
        fail("work request " + std::to_string(done) + " completed with status " + std::to_string(cp.status) +
             ", expected " + std::to_string(ops[done].expect));
      const RqOp &o = ops[done];
      if (cp.status == 0) {
        if (o.read) memcpy(ea.data() + kGuard + o.loff, rb.data() + kGuard + o.roff, o.len);
        else memcpy(eb.data() + kGuard + o.roff, s.src[0].data() + o.loff, o.len);
      }
      done++;
    }
    for (int i = 0; i < 20; i++) s.step();
  }
  uint64_t cyc = s.now - t0;
  if (done < ops.size()) fail("only " + std::to_string(done) + " of " + std::to_string(ops.size()) + " completions");
  for (int i = 0; i < 3000; i++) s.step();   // late duplicates land (or not) before the compare
  std::vector<uint8_t> ga(ea.size()), gb(eb.size());
  s.a->mem->mem().read(kRdDst - kGuard, ga.data(), ga.size());
  s.b->mem->mem().read(kDstBase - kGuard, gb.data(), gb.size());
  if (ga != ea) {
    size_t i = 0;
    while (ga[i] == ea[i]) i++;
    fail("A's READ window differs at +" + std::to_string(i - kGuard));
  }
  if (gb != eb) fail("B's WRITE window differs");
  if (s.a->tx_bad || s.b->tx_bad) fail("a frame the golden parser refuses");
  if (s.a->tx_payload_bad) fail("a WRITE payload differs from its source");
  if (s.a->errs || s.b->errs) fail("APB error");
  s.wr(*s.a, REG(QP_SEL), 0);
  uint32_t res = s.rd(*s.a, REG(CNT_REQ_RESENDS)), tmo = s.rd(*s.a, REG(CNT_REQ_TIMEOUTS));
  uint32_t placed = s.rd(*s.a, REG(CNT_RD_PLACED)), rdrop = s.rd(*s.a, REG(CNT_RD_DROP));
  uint32_t bresp = s.rd(*s.b, REG(CNT_RD_RESP));
  bool lost = nm == "req-read-lost";
  if (drop && res == 0) fail("lossy run without a resend");
  if (!drop && !bad && !lost && (res || tmo || rdrop)) fail("lossless run resent or dropped");
  if (lost && (lost_req != 1 || lost_mid != 1 || lost_last != 1 || tmo < 2 || res < 3))
    fail("req-read-lost: losses " + std::to_string(lost_req) + std::to_string(lost_mid) + std::to_string(lost_last) +
         ", timeouts " + std::to_string(tmo) + ", resends " + std::to_string(res));
  uint32_t need = 0, mtu = ROCE_MTU_BYTES(mtu_c);
  for (auto &o : ops)
    if (o.read && o.expect == 0) need += o.len ? (o.len + mtu - 1) / mtu : 1;
  if (placed != need) fail("CNT_RD_PLACED " + std::to_string(placed) + ", READ packets needed " + std::to_string(need));
  if (bad && qp_state(s, *s.a, 0) != 4) fail("A's QP not in ERROR after the NAK");
  tsim_link_stats_t sa, sb;
  tsim_link_stats(ab, &sa);
  tsim_link_stats(ba, &sb);
  if (ok)
    printf("ok   %-22s %zu WRs (%zu READs), %" PRIu64 " cycles; A: resends %u tmo %u, responses placed %u dropped %u; "
           "B: responses sent %u; links %" PRIu64 "/%" PRIu64 " frames, %" PRIu64 "+%" PRIu64 " dropped\n",
           name, ops.size(), lens.size(), cyc, res, tmo, placed, rdrop, bresp, sa.sent, sb.sent, sa.dropped, sb.dropped);
  else
    printf("FAIL %-22s %s\n", name, why.c_str());
  tsim_link_free(ab);
  tsim_link_free(ba);
  return ok;
}

static const char *const kReqReadScenarios[] = {"req-read",          "req-read-gobackn-mtu256", "req-read-lost",
                                                "req-read-drop",     "req-read-drop-gobackn",   "req-read-bad-rkey"};

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  const char *only = nullptr;
  bool bench = false;
  if (getenv("SEED")) seed = strtoull(getenv("SEED"), NULL, 0);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    if (!strcmp(argv[i], "--bench")) bench = true;
  }
  printf("tb_nic_port: seed %" PRIu64 "%s\n", seed, bench ? ", bench" : "");
  {   // pcap files of the READ scenarios next to the binary
    std::string a0(argv[0]);
    size_t sl = a0.rfind('/');
    if (sl != std::string::npos) g_pcap_dir = a0.substr(0, sl);
  }
  if (bench) {
    g_bench_only = only;
    unsigned f = bench_goodput(seed) + bench_loss(seed) + bench_latency(seed);
    printf("%u passed, %u failed\n", g_bench_runs - f, f);
    return f ? 1 : 0;
  }
  // name, bidir, nqp, nwr, max_len, mtu, selective, drop, dup, reorder, corrupt (ppm), latency, stall,
  // bad_rkey_qp, cut, cq_fill, fw_error
  static const Scenario sc[] = {
      {"write-a-to-b", false, 2, 6, 9000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, -1, false, false},
      {"write-both-ways", true, 2, 6, 9000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 50, -1, false, false},
      {"drop1-selective", true, 2, 20, 16000, ROCE_MTU_1024, true, 10000, 0, 0, 0, 300, 0, -1, false, false},
      {"drop1-gobackn", true, 2, 20, 16000, ROCE_MTU_1024, false, 10000, 0, 0, 0, 300, 0, -1, false, false},
      {"reorder-dup", true, 2, 8, 9000, ROCE_MTU_1024, true, 0, 30000, 30000, 0, 300, 0, -1, false, false},
      {"reorder-dup-gobackn", true, 2, 8, 9000, ROCE_MTU_1024, false, 0, 30000, 30000, 0, 300, 0, -1, false, false},
      {"corrupt", true, 2, 10, 9000, ROCE_MTU_1024, true, 0, 0, 0, 50000, 300, 0, -1, false, false},
      {"bad-rkey", false, 2, 4, 5000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, 1, false, false},
      {"retry-link-cut", false, 1, 3, 3000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, -1, true, false},
      {"cq-full-empty", false, 1, 40, 200, ROCE_MTU_256, true, 0, 0, 0, 0, 100, 0, -1, false, true},
      {"qp-error-by-firmware", false, 2, 8, 9000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, -1, false, false, true},
      {"mtu256", true, 2, 8, 4000, ROCE_MTU_256, true, 20000, 0, 20000, 0, 200, 0, -1, false, false},
      {"mtu4096", true, 2, 12, 20000, ROCE_MTU_4096, true, 50000, 0, 50000, 0, 300, 0, -1, false, false},
      // reduce regions                                                                           fw   op            bf16 len
      {"reduce-sum-fp32", true, 2, 8, 9000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 50, -1, false, false, false, ROCE_RED_SUM, 0, 0},
      {"reduce-sum-bf16-drop1", true, 2, 12, 12000, ROCE_MTU_1024, true, 10000, 10000, 10000, 0, 300, 0, -1, false, false, false, ROCE_RED_SUM, 1, 0},
      {"reduce-max-fp32-gobackn", true, 2, 12, 12000, ROCE_MTU_1024, false, 10000, 0, 10000, 0, 300, 0, -1, false, false, false, ROCE_RED_MAX, 0, 0},
      {"reduce-min-bf16-mtu4096", false, 2, 6, 20000, ROCE_MTU_4096, true, 0, 0, 0, 0, 300, 50, -1, false, false, false, ROCE_RED_MIN, 1, 0},
      // one 64 KiB WRITE, no backpressure: plain against reduce (the read-modify-write's cost)
      {"write-64k-plain", false, 1, 1, 65536, ROCE_MTU_4096, true, 0, 0, 0, 0, 300, 0, -1, false, false, false, 0, 0, 65536},
      {"write-64k-sum-fp32", false, 1, 1, 65536, ROCE_MTU_4096, true, 0, 0, 0, 0, 300, 0, -1, false, false, false, ROCE_RED_SUM, 0, 65536},
      {"write-64k-sum-bf16", false, 1, 1, 65536, ROCE_MTU_4096, true, 0, 0, 0, 0, 300, 0, -1, false, false, false, ROCE_RED_SUM, 1, 65536},
      // WRITE with immediate and completion messages                                                                 imm  cmsg bad_imm
      {"imm-cmsg-both-ways", true, 2, 8, 9000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 50, -1, false, false, false, 0, 0, 0, true, true, 0},
      {"imm-drop-reorder", true, 2, 16, 9000, ROCE_MTU_1024, true, 10000, 10000, 30000, 0, 300, 0, -1, false, false, false, 0, 0, 0, true, true, 0},
      {"imm-gobackn-drop", true, 2, 12, 9000, ROCE_MTU_512, false, 10000, 0, 10000, 0, 300, 0, -1, false, false, false, 0, 0, 0, true, false, 0},
      {"cmsg-only", false, 2, 8, 5000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, -1, false, false, false, 0, 0, 0, false, true, 0},
      {"imm-bad-index", false, 2, 4, 5000, ROCE_MTU_1024, true, 0, 0, 0, 0, 300, 0, -1, false, false, false, 0, 0, 0, true, true, 2},
  };
  unsigned pass = 0, failed = 0;
  for (const Scenario &s : sc) {
    if (only && strcmp(only, s.name)) continue;
    if (run(s, seed)) pass++;
    else failed++;
  }
  for (const char *n : kReadScenarios) {
    if (only && strcmp(only, n)) continue;
    if (read_scenario(n, seed)) pass++;
    else failed++;
  }
  for (const char *n : kReqReadScenarios) {
    if (only && strcmp(only, n)) continue;
    if (req_read_scenario(n, seed)) pass++;
    else failed++;
  }
  printf("%u passed, %u failed\n", pass, failed);
  return failed ? 1 : 0;
}
