// Block testbench of the NIC responder (rtl/nic/tessera_nic_responder.sv in
// the port's receive side rtl/nic/tessera_nic_rx.sv with the RX check unit, the
// QP and MR tables and the register block; top tests/nic/tb_nic_resp_top.sv)
// against the reference responder of the transport model (rt_resp_rx in
// tests/nic/roce_transport.c). Tables, counters and the error interrupt are
// reached through the APB registers (offsets from bsp/include/regs/nic_regs.h).
//
// The testbench is the requester: it builds RDMA WRITE packets with the golden
// model (selective mode: one self-describing WRITE only per MTU packet;
// go-back-N: first/middle/last), and sends them in rounds, each round the PSNs
// the reference responder still misses (selective) or everything from its ePSN
// (go-back-N), damaged on the way as the scenario says: dropped, duplicated,
// swapped with the next frame, one bit flipped, or a later PSN sent early. Every
// frame goes to the reference (after roce_parse, as rt_run does) and, in the
// same order, into the RTL's frame stream with random idle beats. The RTL
// writes through an AXI memory model (sim/include/axi_mem_model.h) with random
// backpressure on AW, W and B; its acknowledgement descriptors are taken with
// random ready. At the end of a scenario the descriptor sequence (syndrome, PSN,
// MSN), the memory image (the region and 256 bytes around it, byte for byte,
// pre-filled with a pattern) and the ACK/SACK/NAK/placed counters must equal the
// reference's. Reduce scenarios (docs/nic.md "Reduction on receive") give the
// region a reduce op and type: the RTL reads the destination through the same AXI
// master (AR/R held off like the write channels) and the reference combines with
// roce_reduce, so the image must match bit for bit, also when WRITEs overlap, a
// plain region over the same memory overwrites in between, or duplicates arrive.
// Usage: Vtb_nic_resp_top [--seed N] (SEED in the environment as well). Ends
// with "N passed, M failed", one count per scenario.
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cstddef>

#include "Vtb_nic_resp_top.h"
#include "axi_mem_model.h"
#include "regs/nic_regs.h"
#include "roce_model.h"
#include "roce_transport.h"

static uint64_t rng_state;
static uint32_t rnd() {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
static bool chance(unsigned per_mille) { return rnd() % 1000 < per_mille; }

static const uint64_t kMemBase = 0x80000000ull;
static const uint64_t kMrBase = 0x80010000ull;
static const uint32_t kMrLen = 0x20000;
static const uint32_t kMrKey = 0x5EED1234u;
static const uint32_t kPlainKey = 0x9A1B0000u;   // reduce scenarios: a plain region over the same memory
static const uint32_t kLqpn = 0x000202u, kRqpn = 0x000101u;
static const unsigned kQp = 5;   // table index of the QP under test
static const unsigned kGuard = 256;
// scenarios with fault 5: the memory model serves addresses below this only (DECERR above)
static const uint64_t kMemLimit = kMrBase + kMrLen - 0x1000;

struct Ack {
  uint8_t syn;
  uint32_t psn, msn;
};

struct Scenario {
  const char *name;
  int selective;
  uint8_t mtu;
  unsigned nwr;           // WRITEs
  uint32_t max_len;
  uint32_t first_psn;
  unsigned drop, dup, reorder, corrupt, early;   // per mille per frame
  int bad_wr;             // WRITE index with a fault, -1: none
  int fault;              // 1 R_Key, 2 past the region's end, 3 region without write right, 4 before the region,
                          // 5 memory missing under the region (AXI error response),
                          // 6 reduce WRITE at a misaligned address, 7 reduce WRITE of a misaligned length
  int wrong_state;        // frames first arrive while the QP is in INIT
  int wrong_qpn;          // some frames carry another destination QP
  unsigned stall;         // per mille of cycles with AXI / ACK backpressure
  int too_long;           // first a WRITE frame longer than the responder's buffer (a good frame: dropped, counted)
  unsigned red_op;        // the region's reduce op (ROCE_RED_*), 0: plain WRITEs
  unsigned red_bf16;      // reduce element type BF16 (else FP32)
  int overlap;            // WRITEs start again at the region's start every `overlap` WRITEs
  int plain_every;        // every n-th WRITE uses the plain region's R_Key (overwrites)
  uint32_t exact_len;     // every WRITE this long (else random up to max_len)
  unsigned imm_every;     // WRITE with immediate: every n-th WRITE and the last (0: none);
                          // fault 8: WRITE bad_wr's immediate names a sync object past kNumSobs
};

// WRITEs with immediate: the sync-object update each one must produce once it has landed
static const uint32_t kSobAddBase = 0x30011400u;   // SOB_ADD_BASE
static const uint32_t kNumSobs = 256;              // the RTL top's NumSobs
struct ImmWrite {
  uint32_t imm;
  uint64_t va;
  const std::vector<uint8_t> *data;
};
static std::vector<ImmWrite> g_imm;   // the scenario's WRITEs with immediate
struct Msg {
  uint32_t addr, data;
};
static Msg imm_msg(uint32_t imm) { return {kSobAddBase + 4u * (imm >> 16), imm & 0x7FFFu}; }

struct Pkt {
  uint32_t psn;
  std::vector<uint8_t> frame;
};

struct Env {
  Vtb_nic_resp_top dut;
  tessera::AxiMemModel *mem;
  tessera::AxiMemPort port;
  unsigned stall = 250;
  uint64_t cycles = 0;
  std::vector<Ack> acks;
  std::vector<Msg> msgs;
  uint32_t msg_early = 0;     // a message whose WRITE was not yet in memory
  bool check_landed = false;  // plain, disjoint WRITEs: a message's WRITE must be in memory
  std::vector<std::vector<uint8_t>> queue;   // frames to stream
  size_t qhead = 0, qpos = 0;
  uint32_t errs = 0;
  int64_t bursts_open = 0;   // AW accepted, B not yet
  uint64_t w_beats = 0, w_wait = 0, s_idle = 0;   // W beats, W cycles held by wready, stream cycles not taken
  bool reads_allowed = false;   // a reduce region: the responder reads the destination
  uint64_t ar_bursts = 0, r_beats = 0;

  Env() {
    tessera::AxiMemConfig c;
    c.data_bytes = 32;
    c.base = kMemBase;
    c.size = 0x100000;
    c.write_latency = 3;
    c.read_latency = 30;
    mem = new tessera::AxiMemModel(c);
  }
  ~Env() { delete mem; }

  void set_beat() {
    if (qhead >= queue.size() || (stall && chance(200))) {
      dut.s_tvalid_i = 0;
      return;
    }
    const std::vector<uint8_t> &f = queue[qhead];
    uint32_t keep = 0;
    for (int w = 0; w < 8; w++) {
      uint32_t v = 0;
      for (int b = 3; b >= 0; b--) {
        size_t p = qpos + 4 * w + b;
        v = v << 8 | (p < f.size() ? f[p] : (uint8_t)rnd());
        if (p < f.size()) keep |= 1u << (4 * w + b);
      }
      dut.s_tdata_i[w] = v;
    }
    dut.s_tkeep_i = keep;
    dut.s_tlast_i = qpos + 32 >= f.size();
    dut.s_tvalid_i = 1;
  }

  void tick() {
    bool st_aw = chance(stall), st_w = chance(stall), st_b = chance(stall);
    // read channels drawn only with a reduce region: a plain scenario's random sequence
    // (and so its cycles) is the one it had before the responder could read
    bool st_ar = reads_allowed && chance(stall), st_r = reads_allowed && chance(stall);
    dut.clk_i = 0;
    set_beat();
    dut.ack_ready_i = !chance(stall);
    dut.msg_ready_i = !chance(stall);
    dut.m_awready_i = port.awready && !st_aw;
    dut.m_wready_i = port.wready && !st_w;
    dut.m_bvalid_i = port.bvalid && !st_b;
    dut.m_bid_i = port.bid;
    dut.m_bresp_i = port.bresp;
    dut.m_arready_i = port.arready && !st_ar;
    dut.m_rvalid_i = port.rvalid && !st_r;
    dut.m_rid_i = port.rid;
    for (int w = 0; w < 8; w++) dut.m_rdata_i[w] = port.rdata[w];
    dut.m_rresp_i = port.rresp;
    dut.m_rlast_i = port.rlast;
    dut.eval();
    // handshakes of this cycle
    if (dut.s_tvalid_i && dut.s_tready_o) {
      qpos += 32;
      if (dut.s_tlast_i) {
        qhead++;
        qpos = 0;
      }
    }
    if (dut.ack_valid_o && dut.ack_ready_i) {
      acks.push_back({dut.ack_syndrome_o, dut.ack_psn_o, dut.ack_msn_o});
      if (dut.ack_dqpn_o != kRqpn || dut.ack_qp_o != kQp) errs++;
      if (bursts_open) errs++;   // acknowledged before every write response came back
    }
    if (dut.msg_valid_o && dut.msg_ready_i) {
      msgs.push_back({dut.msg_addr_o, dut.msg_data_o});
      if (bursts_open) errs++;
      if (check_landed) {   // every byte of the WRITE that carried the immediate has landed
        bool found = false;
        for (const ImmWrite &w : g_imm) {
          Msg m = imm_msg(w.imm);
          if (m.addr != dut.msg_addr_o || m.data != dut.msg_data_o) continue;
          found = true;
          std::vector<uint8_t> got(w.data->size());
          if (!got.empty()) mem->mem().read(w.va, got.data(), got.size());
          if (got != *w.data) msg_early++;
        }
        if (!found) msg_early++;
      }
    }
    if (dut.m_awvalid_o && dut.m_awready_i) bursts_open++;
    if (dut.m_wvalid_o) (dut.m_wready_i ? w_beats : w_wait)++;
    if (dut.s_tvalid_i && !dut.s_tready_o) s_idle++;
    if (dut.m_bvalid_i && dut.m_bready_o) bursts_open--;
    if (dut.m_arvalid_o && !reads_allowed) errs++;
    if (dut.m_arvalid_o && dut.m_arready_i) ar_bursts++;
    if (dut.m_rvalid_i && dut.m_rready_o) r_beats++;
    port.awid = dut.m_awid_o;
    port.awaddr = dut.m_awaddr_o;
    port.awlen = dut.m_awlen_o;
    port.awsize = dut.m_awsize_o;
    port.awburst = dut.m_awburst_o;
    port.awvalid = dut.m_awvalid_o && !st_aw;
    for (int w = 0; w < 8; w++) port.wdata[w] = dut.m_wdata_o[w];
    port.wstrb = dut.m_wstrb_o;
    port.wlast = dut.m_wlast_o;
    port.wvalid = dut.m_wvalid_o && !st_w;
    port.bready = dut.m_bready_o && !st_b;
    port.arid = dut.m_arid_o;
    port.araddr = dut.m_araddr_o;
    port.arlen = dut.m_arlen_o;
    port.arsize = dut.m_arsize_o;
    port.arburst = dut.m_arburst_o;
    port.arvalid = dut.m_arvalid_o && !st_ar;
    port.rready = dut.m_rready_o && !st_r;
    // an AXI burst must not cross 256 bytes (the L2 slice's rule; 4 KiB follows)
    if (port.arvalid && port.arready &&
        ((port.araddr & 0xFF) + ((uint64_t)port.arlen + 1) * 32 > 256))
      errs++;
    if (port.awvalid && port.awready &&
        ((port.awaddr & 0xFF) + ((uint64_t)port.awlen + 1) * 32 > 256))
      errs++;
    mem->tick(port);
    dut.clk_i = 1;
    dut.eval();
    cycles++;
  }

  void reset() {
    dut.rst_ni = 0;
    dut.s_tvalid_i = 0;
    dut.apb_psel_i = 0;
    dut.apb_penable_i = 0;
    dut.msg_ready_i = 1;
    mem->reset(port);
    tick();
    tick();
    dut.rst_ni = 1;
    tick();
  }

  // run until every queued frame is in and the responder is idle
  bool drain() {
    uint64_t quiet = 0, limit = cycles + 2000000;
    while (cycles < limit) {
      size_t before = acks.size();
      tick();
      bool idle = qhead >= queue.size() && !dut.busy_o && mem->idle();
      quiet = idle && acks.size() == before ? quiet + 1 : 0;
      if (quiet > 20) return true;
    }
    return false;
  }

  // one APB access (setup, then access until pready); returns prdata of a read
  uint32_t apb(bool write, uint32_t addr, uint32_t data) {
    dut.apb_psel_i = 1;
    dut.apb_penable_i = 0;
    dut.apb_pwrite_i = write;
    dut.apb_paddr_i = addr;
    dut.apb_pwdata_i = data;
    tick();
    dut.apb_penable_i = 1;
    uint32_t rd = 0;
    for (int i = 0; i < 16; i++) {
      dut.clk_i = 0;
      dut.eval();
      bool done = dut.apb_pready_o;
      rd = dut.apb_prdata_o;
      if (done && dut.apb_pslverr_o) errs++;
      tick();
      if (done) break;
    }
    dut.apb_psel_i = 0;
    dut.apb_penable_i = 0;
    return rd;
  }
  void wr(uint32_t addr, uint32_t v) { apb(true, addr, v); }
  uint32_t rd(uint32_t addr) { return apb(false, addr, 0); }

  unsigned qp_modify(unsigned qp, unsigned state, uint32_t rq_psn, int selective, uint8_t mtu) {
    uint32_t lqpn = qp == kQp ? kLqpn : kLqpn + 0x10 * (qp + 1);
    wr(offsetof(nic_t, QP_SEL), qp);
    wr(offsetof(nic_t, QP_LQPN), lqpn);
    wr(offsetof(nic_t, QP_DQPN), kRqpn);
    wr(offsetof(nic_t, QP_RMAC_LO), 0x53000101u);
    wr(offsetof(nic_t, QP_RMAC_HI), 0x0254u);
    wr(offsetof(nic_t, QP_RIP), 0x0A000001u);
    wr(offsetof(nic_t, QP_CFG), (uint32_t)mtu << NIC__QP_CFG__MTU_bp | (uint32_t)(selective != 0) << NIC__QP_CFG__SELECTIVE_bp);
    wr(offsetof(nic_t, QP_RQ_PSN), rq_psn);
    wr(offsetof(nic_t, QP_CMD), 1u << NIC__QP_CMD__GO_bp | state << NIC__QP_CMD__STATE_bp);
    uint32_t st = rd(offsetof(nic_t, QP_STATUS));
    unsigned err = (st & NIC__QP_STATUS__ERR_bm) >> NIC__QP_STATUS__ERR_bp;
    if (err == 0) {   // the attributes read back
      uint32_t cfg = rd(offsetof(nic_t, QP_RD_CFG));
      if (rd(offsetof(nic_t, QP_RD_LQPN)) != lqpn || rd(offsetof(nic_t, QP_RD_DQPN)) != kRqpn ||
          ((cfg & NIC__QP_RD_CFG__MTU_bm) >> NIC__QP_RD_CFG__MTU_bp) != mtu ||
          ((cfg & NIC__QP_RD_CFG__SELECTIVE_bm) != 0) != (selective != 0))
        if (state >= 1 && state <= 3) errs++;
    }
    return err;
  }

  unsigned qp_state(unsigned qp) {
    wr(offsetof(nic_t, QP_SEL), qp);
    return (rd(offsetof(nic_t, QP_STATUS)) & NIC__QP_STATUS__STATE_bm) >> NIC__QP_STATUS__STATE_bp;
  }

  void mr_write(unsigned idx, int valid, uint64_t base, uint32_t len, uint32_t key, int wrok, unsigned red_op = 0,
                unsigned red_bf16 = 0) {
    wr(offsetof(nic_t, MR_SEL), idx);
    wr(offsetof(nic_t, MR_BASE_LO), (uint32_t)base);
    wr(offsetof(nic_t, MR_BASE_HI), (uint32_t)(base >> 32));
    wr(offsetof(nic_t, MR_LEN), len);
    wr(offsetof(nic_t, MR_RKEY), key);
    uint32_t cfg = (uint32_t)valid << NIC__MR_CFG__VALID_bp | 1u << NIC__MR_CFG__RD_OK_bp |
                   (uint32_t)wrok << NIC__MR_CFG__WR_OK_bp | red_op << NIC__MR_CFG__RED_OP_bp |
                   red_bf16 << NIC__MR_CFG__RED_BF16_bp;
    wr(offsetof(nic_t, MR_CFG), cfg);
    wr(offsetof(nic_t, MR_CMD), 1);
    if (rd(offsetof(nic_t, MR_RD_RKEY)) != key || rd(offsetof(nic_t, MR_RD_LEN)) != len ||
        rd(offsetof(nic_t, MR_RD_CFG)) != cfg)
      errs++;
  }

  // responder counter i (register order, CNT_FRAMES first)
  uint32_t cnt(int i) { return rd((uint32_t)offsetof(nic_t, CNT_FRAMES) + 4u * (uint32_t)i); }
};

// ---- reference side
struct Ref {
  rt_resp_t r;
  rt_stats_t st;
  std::vector<Ack> acks;
  std::vector<uint8_t> mem;   // the region and kGuard bytes on each side
  std::vector<Msg> msgs;
};
static void ref_ack(void *ctx, uint8_t syn, uint32_t psn, uint32_t msn) {
  ((Ref *)ctx)->acks.push_back({syn, psn, msn});
}
static void ref_msg(void *ctx, uint32_t imm) { ((Ref *)ctx)->msgs.push_back(imm_msg(imm)); }

static roce_qp_t requester_qp(uint8_t mtu) {
  roce_qp_t q;
  memset(&q, 0, sizeof q);
  static const uint8_t mac_a[6] = {0x02, 0x54, 0x53, 0x00, 0x00, 0x01};
  static const uint8_t mac_b[6] = {0x02, 0x54, 0x53, 0x00, 0x01, 0x01};
  memcpy(q.mac, mac_a, 6);
  memcpy(q.rmac, mac_b, 6);
  q.ip = 0x0A000001u;
  q.rip = 0x0A000101u;
  q.qpn = kRqpn;
  q.dest_qpn = kLqpn;
  q.pkey = ROCE_PKEY_DEFAULT;
  q.mtu = mtu;
  q.ttl = ROCE_IP_TTL_DEFAULT;
  q.tos = ROCE_IP_ECN_ECT0;
  return q;
}

// reduce scenarios: FP32 or BF16 elements, mostly of nearby magnitudes (sums cancel and
// round), some random bit patterns and special values (zeros, infinities, NaNs, subnormals)
static uint32_t fp_elem32() {
  static const uint32_t special[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFF812345,
                                     0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF};
  unsigned r = rnd() % 100;
  if (r < 3) return special[rnd() % 10];
  if (r < 10) return rnd();
  return (rnd() & 0x80000000u) | (uint32_t)(120 + rnd() % 16) << 23 | (rnd() & 0x7FFFFFu);
}
static void fill_elems(uint8_t *p, size_t n, const Scenario &s) {
  for (size_t i = 0; i < n;) {
    uint32_t v = fp_elem32();
    if (s.red_bf16) v >>= 16;
    for (unsigned b = 0; b < (s.red_bf16 ? 2u : 4u) && i < n; b++, i++) p[i] = (uint8_t)(v >> (8 * b));
  }
}

// the packets of the WRITEs, PSNs from first_psn
static std::vector<Pkt> build_packets(const Scenario &s, std::vector<std::vector<uint8_t>> &data) {
  std::vector<Pkt> pk;
  roce_qp_t q = requester_qp(s.mtu);
  uint32_t mtu = ROCE_MTU_BYTES(s.mtu), psn = s.first_psn & ROCE_PSN_MASK;
  uint32_t amask = s.red_op ? (s.red_bf16 ? ~1u : ~3u) : ~0u;   // reduce WRITEs: whole elements
  uint64_t off = rnd() % 64 & amask;
  static uint8_t buf[ROCE_FRAME_MAX];
  g_imm.clear();
  data.reserve(s.nwr);   // g_imm points at the data vectors
  for (unsigned w = 0; w < s.nwr; w++) {
    uint32_t len = rnd() % 8 == 0 ? rnd() % 40 : rnd() % (s.max_len + 1);
    if (s.exact_len) len = s.exact_len;
    len &= amask;
    if (s.overlap && w > 0 && w % (unsigned)s.overlap == 0) off = rnd() % 64 & amask;
    if (off + len + 64 > kMrLen) break;
    uint64_t va = kMrBase + off;
    uint32_t rkey = s.plain_every && w % (unsigned)s.plain_every == (unsigned)s.plain_every - 1 ? kPlainKey : kMrKey;
    uint32_t dmalen = len;
    if ((int)w == s.bad_wr && s.fault == 6) va += s.red_bf16 ? 1 : 2;   // not on an element
    if ((int)w == s.bad_wr && s.fault == 7) {                         // a message length not whole elements
      len = (len < 1500 ? 1500 : len) | 1;
      dmalen = len;
    }
    if ((int)w == s.bad_wr && s.fault == 1) rkey ^= 0x100;
    if ((int)w == s.bad_wr && s.fault == 2) {   // ends past the region
      len = len < 1500 ? 1500 : len;
      va = kMrBase + kMrLen - len / 2;
      dmalen = len;
    }
    if ((int)w == s.bad_wr && s.fault == 5) {   // inside the region, ends in memory that does not exist
      len = (len < 1500 ? 1500 : len) & amask;
      va = (kMemLimit - len / 2) & amask;
      dmalen = len;
    }
    if ((int)w == s.bad_wr && s.fault == 4) {   // starts before the region
      len = len < 1500 ? 1500 : len;
      va = kMrBase - len / 2;
      dmalen = len;
    }
    data.emplace_back(len);
    if (s.red_op) fill_elems(data.back().data(), len, s);
    else for (auto &b : data.back()) b = (uint8_t)rnd();
    const uint8_t *d = data.back().data();
    off += len + (rnd() % 48 & amask);
    // an immediate: sync object (w * 7) % 256 (past the Sync Manager's objects for the bad
    // WRITE), the value w + 1 with bit 15 set (ignored)
    bool with_imm = s.imm_every && (w % s.imm_every == s.imm_every - 1 || w == s.nwr - 1 || (int)w == s.bad_wr);
    uint32_t imm = ((w * 7u) % kNumSobs) << 16 | 0x8000u | (w + 1u);
    if ((int)w == s.bad_wr && s.fault == 8) imm = (kNumSobs + w) << 16 | (w + 1u);
    if (with_imm) g_imm.push_back({imm, va, &data.back()});
    for (uint32_t o = 0;;) {
      uint32_t n = len - o < mtu ? len - o : mtu;
      bool first = o == 0, last = o + n >= len;
      roce_pkt_t k;
      memset(&k, 0, sizeof k);
      k.psn = psn;
      k.payload = d + o;
      k.payload_len = n;
      k.rkey = rkey;
      k.ackreq = last;
      if (s.selective) {
        k.opcode = last && with_imm ? ROCE_OP_WRITE_ONLY_IMM : ROCE_OP_WRITE_ONLY;
        k.va = va + o;
        k.dmalen = n;
      } else {
        k.opcode = first && last ? ROCE_OP_WRITE_ONLY : first ? ROCE_OP_WRITE_FIRST
                   : last ? ROCE_OP_WRITE_LAST : ROCE_OP_WRITE_MIDDLE;
        if (last && with_imm) k.opcode = first ? ROCE_OP_WRITE_ONLY_IMM : ROCE_OP_WRITE_LAST_IMM;
        k.va = va;
        k.dmalen = dmalen;
      }
      k.imm = imm;
      uint32_t fl = roce_build(&q, &k, buf);
      pk.push_back({psn, std::vector<uint8_t>(buf, buf + fl)});
      psn = (psn + 1) & ROCE_PSN_MASK;
      o += n;
      if (o >= len) break;
    }
  }
  return pk;
}

static bool run_scenario(const Scenario &s, uint64_t seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  for (const char *p = s.name; *p; p++) rng_state = rng_state * 31 + (uint8_t)*p;
  Env env;
  env.stall = s.stall;
  env.reset();

  // pattern in memory, the same in the reference image
  Ref ref;
  memset(&ref.r, 0, sizeof ref.r);
  memset(&ref.st, 0, sizeof ref.st);
  ref.mem.resize(kMrLen + 2 * kGuard);
  for (auto &b : ref.mem) b = (uint8_t)rnd();
  if (s.red_op) fill_elems(ref.mem.data(), ref.mem.size(), s);
  env.mem->mem().write(kMrBase - kGuard, ref.mem.data(), ref.mem.size());
  env.reads_allowed = s.red_op != 0;
  std::vector<uint8_t> dbl = ref.mem;   // selective reduce: every copy of every packet applied

  // tables: the QP under test and a few others, the region and decoys
  int no_write = s.fault == 3;
  if (s.fault == 5) env.mem->set_size(kMemLimit - kMemBase);
  unsigned want_code = s.fault == 5 ? 0x63 : s.fault >= 6 ? 0x61 : 0x62;
  env.wr(offsetof(nic_t, SOB_ADD_BASE), kSobAddBase);
  env.mr_write(0, 1, kMrBase + kMrLen, 4096, kMrKey ^ 0x100, 1);   // neighbour, other key
  env.mr_write(3, 1, kMrBase, kMrLen, kMrKey, !no_write, s.red_op, s.red_bf16);
  if (s.plain_every) env.mr_write(4, 1, kMrBase, kMrLen, kPlainKey, 1);   // the same memory, plain WRITEs
  env.mr_write(7, 0, kMrBase - 8192, 8192, kMrKey ^ 0x100, 1);     // invalid entry with the bad key
  bool ok = true;
  if (env.qp_modify(kQp, 1, 0, s.selective, s.mtu) != 0) ok = false;
  for (unsigned other = 0; other < 3; other++) {
    if (env.qp_modify(other, 1, 0, 1, s.mtu) || env.qp_modify(other, 2, 77, 1, s.mtu)) ok = false;
  }
  bool qp_live = false;
  if (!s.wrong_state) {
    if (env.qp_modify(kQp, 2, s.first_psn, s.selective, s.mtu) != 0) ok = false;
    qp_live = true;
  }
  if (!ok) printf("  QP setup refused\n");

  ref.r.selective = s.selective;
  ref.r.mr_base = kMrBase;
  ref.r.mr_len = kMrLen;
  ref.r.mr_rkey = kMrKey;
  ref.r.mr_no_write = no_write;
  ref.r.mr_red_op = s.red_op;
  ref.r.mr_red_dtype = s.red_bf16 ? ROCE_RED_BF16 : ROCE_RED_FP32;
  ref.r.mem = ref.mem.data() + kGuard;
  ref.r.st = &ref.st;
  ref.r.ack = ref_ack;
  ref.r.msg = ref_msg;
  ref.r.num_sobs = kNumSobs;
  ref.r.ctx = &ref;
  ref.r.qp = requester_qp(s.mtu);
  ref.r.qp.qpn = kLqpn;
  ref.r.qp.msn = 0;
  ref.r.epsn = s.first_psn & ROCE_PSN_MASK;

  std::vector<std::vector<uint8_t>> data;
  std::vector<Pkt> pk = build_packets(s, data);
  env.check_landed = s.imm_every && !s.red_op && !s.overlap && s.fault != 5;
  uint32_t first = s.first_psn & ROCE_PSN_MASK;
  uint32_t end_psn = (first + (uint32_t)pk.size()) & ROCE_PSN_MASK;

  unsigned frames = 0, corrupted = 0, wrongq = 0, dropped_state = 0;
  auto deliver = [&](const std::vector<uint8_t> &f0, bool may_damage) {
    std::vector<uint8_t> f = f0;
    if (may_damage && chance(s.corrupt)) {
      size_t bit = rnd() % (f.size() * 8);
      f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    if (may_damage && s.wrong_qpn && chance(s.wrong_qpn)) {   // another destination QP, valid frame
      roce_pkt_t k;
      if (roce_parse(f.data(), (uint32_t)f.size(), &k) == ROCE_OK) {
        roce_qp_t q = requester_qp(s.mtu);
        q.dest_qpn = kLqpn ^ 0x40;
        static uint8_t b[ROCE_FRAME_MAX];
        uint32_t n = roce_build(&q, &k, b);
        f.assign(b, b + n);
        wrongq++;
      }
    }
    frames++;
    roce_pkt_t k;
    if (roce_parse(f.data(), (uint32_t)f.size(), &k) != ROCE_OK) {
      corrupted++;
    } else if (!qp_live) {
      if (k.dqpn == kLqpn) dropped_state++;
    } else {
      // an AXI error response is outside the reference model: a packet it would place
      // (in order here) that reaches the missing memory gets a NAK remote operational
      // error instead, its bytes below the limit land, and the QP goes to ERROR
      uint64_t va = s.selective || roce_op_has_reth(k.opcode) ? k.va : ref.r.va_next;
      if (s.fault == 5 && !ref.r.error && k.dqpn == kLqpn && k.psn == ref.r.epsn &&
          k.opcode >= ROCE_OP_WRITE_FIRST && k.opcode <= ROCE_OP_WRITE_ONLY_IMM && va + k.payload_len > kMemLimit) {
        if (va < kMemLimit)   // the limit is 4 KiB aligned: whole elements of a reduce WRITE
          roce_reduce(s.red_op, s.red_bf16 ? ROCE_RED_BF16 : ROCE_RED_FP32, &ref.mem[va - (kMrBase - kGuard)],
                      k.payload, (uint32_t)(kMemLimit - va < k.payload_len ? kMemLimit - va : k.payload_len));
        ref.acks.push_back({ROCE_SYN_NAK(ROCE_NAK_REMOTE_OP), k.psn, ref.r.qp.msn});
        ref.st.naks++;
        ref.r.error = 1;
      } else {
        // the reference holds one region: give it the one the packet's R_Key selects
        uint32_t key = s.selective || roce_op_has_reth(k.opcode) ? k.rkey : ref.r.rkey_cur;
        bool plain = s.plain_every && key == kPlainKey;
        ref.r.mr_rkey = plain ? kPlainKey : kMrKey;
        ref.r.mr_red_op = plain ? ROCE_RED_NONE : s.red_op;
        if (s.red_op && s.selective && k.dqpn == kLqpn && k.va >= kMrBase && k.va + k.payload_len <= kMrBase + kMrLen)
          roce_reduce(plain ? ROCE_RED_NONE : s.red_op, ref.r.mr_red_dtype, dbl.data() + (k.va - (kMrBase - kGuard)),
                      k.payload, k.payload_len);
        rt_resp_rx(&ref.r, &k);
      }
    }
    env.queue.push_back(f);
  };

  if (s.wrong_state) {   // a few frames while the QP is in INIT: dropped, nothing answered
    for (size_t i = 0; i < pk.size() && i < 6; i++) deliver(pk[i].frame, false);
    if (!env.drain()) ok = false;
    if (!env.acks.empty()) {
      printf("  acknowledgement from a QP in INIT\n");
      ok = false;
    }
    if (env.qp_modify(kQp, 2, s.first_psn, s.selective, s.mtu) != 0) ok = false;
    qp_live = true;
  }

  unsigned long_frames = 0;
  if (s.too_long) {   // 4 200 payload bytes at ePSN: 4 274 bytes, past the 4 224-byte half; the model would take it
    static uint8_t big[8192], pay[4200];
    for (auto &b : pay) b = (uint8_t)rnd();
    roce_qp_t q = requester_qp(s.mtu);
    roce_pkt_t k;
    memset(&k, 0, sizeof k);
    k.opcode = ROCE_OP_WRITE_ONLY;
    k.psn = first;
    k.ackreq = 1;
    k.va = kMrBase;
    k.rkey = kMrKey;
    k.dmalen = sizeof pay;
    k.payload = pay;
    k.payload_len = sizeof pay;
    uint32_t n = roce_build(&q, &k, big);
    roce_pkt_t chk;
    if (n <= ROCE_FRAME_MAX || roce_parse(big, n, &chk) != ROCE_OK) ok = false;
    env.queue.emplace_back(big, big + n);
    frames++;
    long_frames++;
  }
  unsigned round = 0;
  uint64_t t0 = env.cycles;
  while (!ref.r.error && roce_psn_diff(end_psn, ref.r.epsn) > 0 && round < 400) {
    bool damage = round < 40;
    std::vector<const Pkt *> batch;
    uint32_t e = ref.r.epsn;
    for (uint32_t i = 0; i < 100; i++) {
      uint32_t p = (e + i) & ROCE_PSN_MASK;
      if (roce_psn_diff(end_psn, p) <= 0) break;
      const Pkt *k = &pk[(p - first) & ROCE_PSN_MASK];
      if (s.selective) {
        uint32_t t = ref.r.tag[p % RT_WINDOW];
        if (i > 0 && (t & 0x80000000u) && (t & ROCE_PSN_MASK) == p) continue;   // placed
      }
      if (damage && chance(s.drop)) continue;
      batch.push_back(k);
      if (damage && chance(s.dup)) batch.push_back(k);
      if (damage && chance(s.early)) {   // a later PSN: at the window's edge or past it
        uint32_t ahead = rnd() % 2 ? 126 + rnd() % 4 : i + 100 + rnd() % 120;
        uint32_t idx = ((e - first) & ROCE_PSN_MASK) + ahead;
        if (idx < pk.size()) batch.push_back(&pk[idx]);
      }
    }
    if (damage) {
      for (size_t i = 0; i + 1 < batch.size(); i++)
        if (chance(s.reorder)) std::swap(batch[i], batch[i + 1]);
    }
    if (damage && s.dup && round > 0 && chance(300)) batch.push_back(&pk[rnd() % pk.size()]);   // an old one
    for (const Pkt *k : batch) deliver(k->frame, damage);
    if (!env.drain()) {
      printf("  the responder did not finish round %u\n", round);
      ok = false;
      break;
    }
    round++;
  }
  uint64_t run_cycles = env.cycles - t0;
  if (s.red_op && s.dup && !ref.r.error) {   // copies of packets already placed: dropped, never combined again
    for (int i = 0; i < 3; i++) deliver(pk[rnd() % pk.size()].frame, false);
    if (!env.drain()) ok = false;
  }
  if (ref.r.error) {   // frames after the QP went to ERROR: dropped by both
    for (size_t i = 0; i < 5 && i < pk.size(); i++) deliver(pk[pk.size() - 1 - i].frame, false);
  }
  if (!env.drain()) ok = false;

  // ---- compare
  bool complete = ref.r.error || ref.r.epsn == end_psn;
  if (!complete) {
    printf("  the reference did not complete\n");
    ok = false;
  }
  if (env.acks.size() != ref.acks.size()) {
    printf("  %zu acknowledgements from the RTL, %zu from the reference\n", env.acks.size(), ref.acks.size());
    ok = false;
  }
  for (size_t i = 0; i < env.acks.size() && i < ref.acks.size(); i++) {
    const Ack &a = env.acks[i], &b = ref.acks[i];
    if (a.syn != b.syn || a.psn != b.psn || a.msn != b.msn) {
      printf("  acknowledgement %zu: RTL syndrome 0x%02X PSN 0x%06X MSN 0x%06X, reference 0x%02X 0x%06X 0x%06X\n", i,
             a.syn, a.psn, a.msn, b.syn, b.psn, b.msn);
      ok = false;
      break;
    }
  }
  // sync-object updates: the same messages in the same order, each after its WRITE landed
  if (env.msgs.size() != ref.msgs.size()) {
    printf("  %zu messages from the RTL, %zu from the reference\n", env.msgs.size(), ref.msgs.size());
    ok = false;
  }
  for (size_t i = 0; i < env.msgs.size() && i < ref.msgs.size(); i++) {
    if (env.msgs[i].addr != ref.msgs[i].addr || env.msgs[i].data != ref.msgs[i].data) {
      printf("  message %zu: RTL 0x%08X <- 0x%X, reference 0x%08X <- 0x%X\n", i, env.msgs[i].addr, env.msgs[i].data,
             ref.msgs[i].addr, ref.msgs[i].data);
      ok = false;
      break;
    }
  }
  if (env.msg_early) {
    printf("  %u messages before their WRITE had landed\n", env.msg_early);
    ok = false;
  }
  size_t want_msgs = 0;   // every good WRITE with immediate of a run without error
  for (const ImmWrite &w : g_imm) want_msgs += (w.imm >> 16) < kNumSobs;
  if (s.imm_every && s.bad_wr < 0 && ref.msgs.size() != want_msgs) {
    printf("  %zu messages, %zu WRITEs with immediate\n", ref.msgs.size(), want_msgs);
    ok = false;
  }
  std::vector<uint8_t> img(ref.mem.size());
  env.mem->mem().read(kMrBase - kGuard, img.data(), img.size());
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < img.size(); i++)
    if (img[i] != ref.mem[i] && bad++ == 0) first_bad = i;
  if (bad) {
    printf("  memory: %zu bytes differ, first at region offset %ld\n", bad, (long)first_bad - (long)kGuard);
    ok = false;
  }
  struct {
    const char *name;
    uint64_t rtl, ref;
  } cmp[] = {
      {"frames", env.cnt(0), frames},
      {"placed", env.cnt(2), ref.st.placed},
      {"bad frames", env.cnt(3), corrupted},
      {"too long", env.cnt(4), long_frames},
      {"wrong QP", env.cnt(5), wrongq},
      {"acks", env.cnt(13), ref.st.acks},
      {"sacks", env.cnt(14), ref.st.sacks},
      {"naks", env.cnt(15), ref.st.naks},
      {"duplicates", env.cnt(8), ref.st.duplicates},
      {"beyond window", env.cnt(9), ref.st.out_of_window},
      {"go-back-N out of sequence", env.cnt(10), ref.st.dropped_out_of_order},
      {"messages", env.rd(offsetof(nic_t, CNT_MSGS)), ref.st.msgs},
      {"immediates held", env.rd(offsetof(nic_t, CNT_DROP_IMM)), ref.st.imm_held},
  };
  for (auto &c : cmp) {
    if (c.rtl != c.ref) {
      printf("  counter %s: RTL %" PRIu64 ", reference %" PRIu64 "\n", c.name, c.rtl, c.ref);
      ok = false;
    }
  }
  uint64_t bytes = 0;
  for (auto &d : data) bytes += d.size();
  if (!ref.r.error && env.cnt(1) < bytes) {   // every byte written at least once
    printf("  bytes counter %u below the payload %" PRIu64 "\n", env.cnt(1), bytes);
    ok = false;
  }
  if (s.wrong_state && env.cnt(6) != dropped_state) {
    printf("  wrong-state drops: RTL %u, expected %u\n", env.cnt(6), dropped_state);
    ok = false;
  }
  unsigned want_state = ref.r.error ? 4 : 2;
  if (env.qp_state(kQp) != want_state) {
    printf("  QP state %u, expected %u\n", env.qp_state(kQp), want_state);
    ok = false;
  }
  bool one_nak = s.fault >= 6 ? env.cnt(11) == 0 && env.cnt(12) == 0   // invalid request: no access / operational NAK
                              : env.cnt(s.fault == 5 ? 12 : 11) == 1;
  if (s.bad_wr >= 0 && (!ref.r.error || !one_nak)) {
    printf("  expected one error NAK 0x%02X (reference error %d, RTL counts %u, %u)\n", want_code, ref.r.error,
           env.cnt(11), env.cnt(12));
    ok = false;
  }
  // error interrupt: raised by the error NAK only, with its syndrome and QP; write 1 clears it
  env.tick();
  if (env.dut.irq_o != (ref.r.error != 0)) {
    printf("  irq_o %d after the run, expected %d\n", env.dut.irq_o, ref.r.error);
    ok = false;
  }
  if (ref.r.error) {
    uint32_t info = env.rd(offsetof(nic_t, ERR_INFO));
    if ((info & NIC__ERR_INFO__CODE_bm) >> NIC__ERR_INFO__CODE_bp != want_code ||
        (info & NIC__ERR_INFO__QP_bm) >> NIC__ERR_INFO__QP_bp != kQp) {
      printf("  ERR_INFO 0x%08X, expected syndrome 0x%02X on QP %u\n", info, want_code, kQp);
      ok = false;
    }
    env.wr(offsetof(nic_t, IRQ_STATUS), 1);
    env.tick();
    if (env.dut.irq_o) {
      printf("  irq_o still high after IRQ_STATUS was cleared\n");
      ok = false;
    }
  }
  if (env.errs) {
    printf("  %u protocol errors (read issued, 256 bytes crossed, descriptor QP fields, ACK before B, register read-back)\n", env.errs);
    ok = false;
  }
  size_t dbl_diff = 0;
  if (s.red_op) {
    for (size_t i = 0; i < dbl.size(); i++) dbl_diff += dbl[i] != ref.mem[i];
    // a reduce region: every byte written was read first (plain-region packets write without reading)
    if (!s.plain_every && !ref.r.error && env.r_beats < env.w_beats) {
      printf("  %" PRIu64 " W beats but only %" PRIu64 " R beats\n", env.w_beats, env.r_beats);
      ok = false;
    }
    // duplicates of placed packets reached the responder, and applying them would have changed the sum
    if (s.dup && s.selective && s.red_op == ROCE_RED_SUM && !s.plain_every && (ref.st.duplicates == 0 || dbl_diff == 0)) {
      printf("  no duplicate that would change the result (%" PRIu64 " duplicates)\n", ref.st.duplicates);
      ok = false;
    }
  } else if (env.ar_bursts) {
    printf("  reads in a plain scenario\n");
    ok = false;
  }
  if (s.fault >= 6 && env.rd(offsetof(nic_t, CNT_NAK_INVAL)) != (ref.r.error ? 1u : 0u)) {
    printf("  CNT_NAK_INVAL %u\n", env.rd(offsetof(nic_t, CNT_NAK_INVAL)));
    ok = false;
  }
  if (s.imm_every)
    printf("     immediates: %zu WRITEs with immediate, %zu messages, %" PRIu64 " held out of order\n", g_imm.size(),
           env.msgs.size(), ref.st.imm_held);
  printf("%s %s: %zu packets, %u frames (%u damaged, %u to another QP), %u rounds, %zu acknowledgements "
         "(%" PRIu64 " ACK, %" PRIu64 " SACK, %" PRIu64 " NAK), %" PRIu64 " placed, %" PRIu64 " cycles\n",
         ok ? "ok  " : "FAIL", s.name, pk.size(), frames, corrupted, wrongq, round, env.acks.size(), ref.st.acks,
         ref.st.sacks, ref.st.naks, ref.st.placed, run_cycles);
  if (s.red_op) {
    printf("     reduce %s %s: %" PRIu64 " read bursts, %" PRIu64 " R beats, %" PRIu64 " W beats; %" PRIu64
           " duplicates dropped", s.red_op == ROCE_RED_SUM ? "sum" : s.red_op == ROCE_RED_MIN ? "min" : "max",
           s.red_bf16 ? "bf16" : "fp32", env.ar_bursts, env.r_beats, env.w_beats, ref.st.duplicates);
    if (s.selective && s.bad_wr < 0) printf(" (applying every copy would change %zu bytes)", dbl_diff);
    printf("\n");
  }
  if (s.stall == 0) {   // no backpressure: the responder's own rate
    uint64_t fb = 0;
    for (auto &f : env.queue) fb += f.size();
    printf("     rate: %" PRIu64 " frame bytes in %" PRIu64 " cycles, %.2f bytes per cycle (the stream carries 32); "
           "%" PRIu64 " W beats, %" PRIu64 " W cycles waiting for wready, %" PRIu64 " stream cycles stalled\n", fb,
           run_cycles, run_cycles ? (double)fb / (double)run_cycles : 0.0, env.w_beats, env.w_wait, env.s_idle);
  }
  return ok;
}

// QP state machine: legal transitions taken, illegal ones refused with code 1, MTU code 0 with 2
static bool run_qp_transitions() {
  Env env;
  env.reset();
  struct {
    unsigned to, err, state;
  } seq[] = {
      {2, 1, 0}, {3, 1, 0}, {1, 0, 1}, {3, 1, 1}, {1, 0, 1}, {2, 0, 2}, {1, 1, 2}, {2, 1, 2},
      {3, 0, 3}, {3, 0, 3}, {2, 1, 3}, {4, 0, 4}, {1, 1, 4}, {3, 1, 4}, {0, 0, 0}, {5, 1, 0},
      {1, 0, 1}, {4, 0, 4}, {0, 0, 0},
  };
  bool ok = true;
  for (auto &t : seq) {
    unsigned err = env.qp_modify(9, t.to, 0, 1, ROCE_MTU_1024);
    if (err != t.err || env.qp_state(9) != t.state) {
      printf("  modify to %u: error %u, state %u; expected %u, %u\n", t.to, err, env.qp_state(9), t.err, t.state);
      ok = false;
    }
  }
  if (env.qp_modify(9, 1, 0, 1, 0) != 2 || env.qp_state(9) != 0) ok = false;   // MTU code 0
  if (env.qp_modify(9, 1, 0, 1, 6) != 2 || env.qp_state(9) != 0) ok = false;   // MTU code 6
  if (env.qp_state(8) != 0 || env.qp_state(10) != 0) ok = false;              // others untouched
  printf("%s qp-transitions: %zu modifies, illegal ones refused with code 1, bad MTU with 2\n",
         ok ? "ok  " : "FAIL", sizeof seq / sizeof seq[0] + 2);
  return ok;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  if (const char *e = getenv("SEED")) seed = strtoull(e, nullptr, 0);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
  printf("tb_nic_responder: seed %" PRIu64 "\n", seed);

  //  name                sel mtu            nwr max   first_psn  drop dup reo cor early bad fault st qpn stall
  static const Scenario sc[] = {
      {"in-order-selective", 1, ROCE_MTU_1024, 24, 5000, 0x000100, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250},
      {"in-order-gbn", 0, ROCE_MTU_1024, 24, 5000, 0x000100, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250},
      {"in-order-mtu4096", 1, ROCE_MTU_4096, 12, 9000, 0x000010, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0},
      {"in-order-mtu256", 0, ROCE_MTU_256, 20, 2000, 0x000010, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0},
      {"reordered", 1, ROCE_MTU_1024, 30, 5000, 0x001000, 0, 0, 300, 0, 0, -1, 0, 0, 0, 250},
      {"dropped-resent", 1, ROCE_MTU_1024, 30, 5000, 0x002000, 150, 0, 0, 0, 0, -1, 0, 0, 0, 250},
      {"duplicate", 1, ROCE_MTU_1024, 30, 5000, 0x003000, 0, 200, 0, 0, 0, -1, 0, 0, 0, 250},
      {"corrupt", 1, ROCE_MTU_1024, 30, 5000, 0x004000, 0, 0, 0, 100, 0, -1, 0, 0, 0, 250},
      {"beyond-window", 1, ROCE_MTU_256, 40, 4000, 0x005000, 50, 0, 0, 0, 100, -1, 0, 0, 0, 250},
      {"mixed-selective", 1, ROCE_MTU_1024, 40, 6000, 0x006000, 50, 20, 50, 20, 20, -1, 0, 0, 40, 250},
      {"mixed-gbn", 0, ROCE_MTU_1024, 40, 6000, 0x006000, 50, 20, 50, 20, 20, -1, 0, 0, 40, 250},
      {"gbn-hole", 0, ROCE_MTU_1024, 30, 5000, 0x007000, 120, 0, 100, 0, 0, -1, 0, 0, 0, 250},
      {"psn-wrap-selective", 1, ROCE_MTU_512, 30, 3000, 0xFFFFC0, 100, 50, 100, 0, 0, -1, 0, 0, 0, 250},
      {"psn-wrap-gbn", 0, ROCE_MTU_512, 30, 3000, 0xFFFFE0, 100, 50, 100, 0, 0, -1, 0, 0, 0, 250},
      {"bad-rkey-selective", 1, ROCE_MTU_1024, 8, 4000, 0x000200, 0, 0, 0, 0, 0, 3, 1, 0, 0, 250},
      {"bad-rkey-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x000200, 0, 0, 0, 0, 0, 3, 1, 0, 0, 250},
      {"out-of-bounds-selective", 1, ROCE_MTU_1024, 8, 4000, 0x000300, 0, 0, 0, 0, 0, 3, 2, 0, 0, 250},
      {"out-of-bounds-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x000300, 0, 0, 0, 0, 0, 3, 2, 0, 0, 250},
      {"before-region-selective", 1, ROCE_MTU_1024, 8, 4000, 0x000380, 0, 0, 0, 0, 0, 2, 4, 0, 0, 250},
      {"before-region-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x000380, 0, 0, 0, 0, 0, 2, 4, 0, 0, 250},
      {"axi-error-selective", 1, ROCE_MTU_1024, 8, 4000, 0x000390, 0, 0, 0, 0, 0, 2, 5, 0, 0, 250},
      {"axi-error-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x000390, 0, 0, 0, 0, 0, 2, 5, 0, 0, 250},
      {"no-write-right", 1, ROCE_MTU_1024, 4, 4000, 0x000400, 0, 0, 0, 0, 0, 0, 3, 0, 0, 250},
      {"qp-wrong-state", 1, ROCE_MTU_1024, 10, 4000, 0x000500, 0, 0, 0, 0, 0, -1, 0, 1, 0, 250},
      {"wrong-qpn", 1, ROCE_MTU_1024, 20, 4000, 0x000600, 0, 0, 0, 0, 0, -1, 0, 0, 100, 250},
      {"too-long-frame", 1, ROCE_MTU_4096, 10, 9000, 0x000700, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 1},
      // reduce regions: op, type, overlap (WRITEs restart at the region's start), plain region every n-th WRITE
      //  name                     sel mtu            nwr max   first_psn  drop dup reo cor early bad fault st qpn stall long op bf16 ovl plain len
      {"reduce-sum-fp32", 1, ROCE_MTU_1024, 24, 5000, 0x000800, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 0, 6, 0, 0},
      {"reduce-sum-bf16", 1, ROCE_MTU_1024, 24, 5000, 0x000900, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 1, 6, 0, 0},
      {"reduce-min-fp32-gbn", 0, ROCE_MTU_512, 20, 4000, 0x000A00, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_MIN, 0, 5, 0, 0},
      {"reduce-max-bf16-gbn", 0, ROCE_MTU_512, 20, 4000, 0x000B00, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_MAX, 1, 5, 0, 0},
      {"reduce-min-bf16", 1, ROCE_MTU_4096, 12, 9000, 0x000C00, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_MIN, 1, 4, 0, 0},
      {"reduce-max-fp32", 1, ROCE_MTU_256, 20, 3000, 0x000D00, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_MAX, 0, 5, 0, 0},
      {"reduce-sum-fp32-lossy", 1, ROCE_MTU_1024, 40, 6000, 0xFFFF80, 10, 30, 50, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 0, 8, 0, 0},
      {"reduce-sum-bf16-lossy", 1, ROCE_MTU_1024, 40, 6000, 0x001100, 10, 30, 50, 10, 10, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 1, 8, 0, 0},
      {"reduce-sum-fp32-lossy-gbn", 0, ROCE_MTU_1024, 40, 6000, 0x001200, 10, 30, 50, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 0, 8, 0, 0},
      {"reduce-and-plain", 1, ROCE_MTU_1024, 30, 5000, 0x001300, 0, 80, 20, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 0, 6, 3, 0},
      {"reduce-and-plain-gbn", 0, ROCE_MTU_1024, 30, 5000, 0x001400, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_MAX, 1, 6, 3, 0},
      {"reduce-misaligned-addr", 1, ROCE_MTU_1024, 8, 4000, 0x001500, 0, 0, 0, 0, 0, 3, 6, 0, 0, 250, 0, ROCE_RED_SUM, 0, 0, 0, 0},
      {"reduce-misaligned-addr-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x001600, 0, 0, 0, 0, 0, 3, 6, 0, 0, 250, 0, ROCE_RED_SUM, 1, 0, 0, 0},
      {"reduce-misaligned-len", 1, ROCE_MTU_1024, 8, 4000, 0x001700, 0, 0, 0, 0, 0, 3, 7, 0, 0, 250, 0, ROCE_RED_MIN, 0, 0, 0, 0},
      {"reduce-misaligned-len-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x001800, 0, 0, 0, 0, 0, 3, 7, 0, 0, 250, 0, ROCE_RED_SUM, 0, 0, 0, 0},
      {"reduce-axi-error", 1, ROCE_MTU_1024, 8, 4000, 0x001900, 0, 0, 0, 0, 0, 2, 5, 0, 0, 250, 0, ROCE_RED_SUM, 0, 0, 0, 0},
      // 64 KiB in one WRITE at MTU 4096, no backpressure: plain against reduce (the read-modify-write's cost)
      {"rate-64k-plain", 1, ROCE_MTU_4096, 1, 65536, 0x002000, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65536},
      {"rate-64k-sum-fp32", 1, ROCE_MTU_4096, 1, 65536, 0x002100, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, ROCE_RED_SUM, 0, 0, 0, 65536},
      {"rate-64k-sum-bf16", 1, ROCE_MTU_4096, 1, 65536, 0x002200, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, ROCE_RED_SUM, 1, 0, 0, 65536},
      // WRITE with immediate: a message (SOB_ADD_BASE + 4 x index, value) once the WRITE has landed
      //  name                     sel mtu            nwr max   first_psn  drop dup reo cor early bad fault st qpn stall long op bf16 ovl plain len imm
      {"imm-selective", 1, ROCE_MTU_1024, 24, 5000, 0x002300, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, 0, 0, 0, 0, 0, 1},
      {"imm-gbn", 0, ROCE_MTU_1024, 24, 5000, 0x002400, 0, 0, 0, 0, 0, -1, 0, 0, 0, 250, 0, 0, 0, 0, 0, 0, 2},
      {"imm-lossy-selective", 1, ROCE_MTU_512, 40, 4000, 0xFFFFD0, 80, 40, 200, 20, 0, -1, 0, 0, 0, 250, 0, 0, 0, 0, 0, 0, 1},
      {"imm-lossy-selective-sparse", 1, ROCE_MTU_1024, 40, 6000, 0x002500, 50, 30, 150, 0, 20, -1, 0, 0, 0, 250, 0, 0, 0, 0, 0, 0, 3},
      {"imm-lossy-gbn", 0, ROCE_MTU_512, 40, 4000, 0x002600, 80, 40, 200, 20, 0, -1, 0, 0, 0, 250, 0, 0, 0, 0, 0, 0, 1},
      {"imm-reduce-sum-fp32", 1, ROCE_MTU_1024, 24, 5000, 0x002700, 30, 30, 100, 0, 0, -1, 0, 0, 0, 250, 0, ROCE_RED_SUM, 0, 6, 0, 0, 2},
      {"imm-bad-index-selective", 1, ROCE_MTU_1024, 8, 4000, 0x002800, 0, 0, 0, 0, 0, 3, 8, 0, 0, 250, 0, 0, 0, 0, 0, 0, 2},
      {"imm-bad-index-gbn", 0, ROCE_MTU_1024, 8, 4000, 0x002900, 0, 0, 0, 0, 0, 3, 8, 0, 0, 250, 0, 0, 0, 0, 0, 0, 2},
  };
  unsigned pass = 0, fail = 0;
  for (const Scenario &s : sc) (run_scenario(s, seed) ? pass : fail)++;
  (run_qp_transitions() ? pass : fail)++;
  printf("%u passed, %u failed\n", pass, fail);
  return fail != 0;
}
