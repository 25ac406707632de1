// Block testbench of the NIC requester (rtl/nic/tessera_nic_requester.sv with
// its tessera_nic_tx_frame) against the reference responder of the transport
// model (rt_resp_rx in tests/nic/roce_transport.c).
//
// The requester's frames go over a link model (sim/include/tessera_link.h:
// drop, reorder, duplicate, corrupt as the scenario says) to roce_parse and the
// reference responder; its acknowledgements are built as frames
// (roce_build_ack), go back over a second link model, are parsed and their
// AETH fields (syndrome, PSN, MSN) enter the requester. The payload is read
// through an AXI memory model (sim/include/axi_mem_model.h) with random
// backpressure on AR and R; the frame output sees random ready and starts a
// frame only when the wire is free (a frame is on the wire from its first
// beat). Checks per scenario: the reference responder's memory image (the
// region, byte for byte, pre-filled with a pattern) equals the WRITEs' data,
// the completions come in order with the expected status, AXI bursts do not
// cross 256 bytes (the L2 slice's rule), and without impairments the packet count equals the reference
// transport model's (rt_run with the same WRITEs) with no resends. Goodput
// (payload bytes per link byte-time) and resend counts of the RTL and of the
// reference model are printed. Usage: Vtessera_nic_requester [--seed N]
// (SEED in the environment as well). Ends with "N passed, M failed".
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vtessera_nic_req_arb.h"
#include "axi_mem_model.h"
#include "roce_model.h"
#include "roce_transport.h"
#include "tb_nic_stream.h"

static uint32_t rnd() { return tb_rnd(); }
static bool chance(unsigned per_mille) { return rnd() % 1000 < per_mille; }

static const uint64_t kMemBase = 0x80000000ull;   // local (source) memory
static const uint64_t kMrBase = 0x40010000ull;    // the responder's region (one per QP)
static const uint32_t kMrLen = 0x80000;
static const uint32_t kMrKey = 0x5EED1234u;
static const unsigned kNQp = 2;                   // tessera_nic_req_arb's NQp

struct Scenario {
  const char *name;
  int selective;
  uint8_t mtu;
  unsigned nwr;                           // WRITEs per QP
  uint32_t max_len;
  uint32_t first_psn;
  uint32_t drop, reorder, dup, corrupt;   // data link, ppm
  uint32_t ack_drop, ack_dup;             // ACK link, ppm
  uint32_t rto, retry;
  int expect_fail;                        // QP 0's ACKs are all lost: retry limit, ERROR
  int expect_tmo;                         // ACKs lost for the first 6000 cycles: the timer must fire
  int zero_len;                           // some WRITEs of length 0
  unsigned stall;                         // per mille AXI / frame backpressure
  unsigned nqp;                           // QPs in use (1 or 2)
};

struct Wr {
  uint64_t laddr, va;
  uint32_t len;
  uint16_t id;
  std::vector<uint8_t> data;
};

struct Cpl {
  uint16_t id;
  uint8_t status;
};

struct Ack {
  unsigned qp;
  uint8_t syn;
  uint32_t psn, msn;
};

// one QP: its WRITEs, the reference responder behind it, the expected image
struct Qp {
  Scenario s;
  std::vector<Wr> wrs;
  std::vector<uint32_t> psn_end;   // PSN after each WRITE's last packet
  std::vector<uint8_t> image, expect;
  std::vector<Cpl> cpls;
  roce_qp_t qa, qb;                // requester and responder side
  rt_resp_t r;
  rt_stats_t st, ref_st;           // the reference responder's, rt_run's
  tsim_link_t *ack_link;
  uint64_t now;
  uint64_t done_at;
};
static void ref_ack(void *ctx, uint8_t syn, uint32_t psn, uint32_t msn) {
  Qp *q = (Qp *)ctx;
  roce_frame_t fr;
  roce_build_ack(&q->r.qp, psn, syn, msn, &fr);
  tsim_link_send(q->ack_link, q->now, fr.data, fr.len);
}

static void qps(uint8_t mtu, unsigned n, roce_qp_t *a, roce_qp_t *b) {
  static const uint8_t mac_a[6] = {0x02, 0x54, 0x53, 0x00, 0x00, 0x01};
  static const uint8_t mac_b[6] = {0x02, 0x54, 0x53, 0x00, 0x01, 0x01};
  memset(a, 0, sizeof *a);
  memset(b, 0, sizeof *b);
  memcpy(a->mac, mac_a, 6);
  memcpy(a->rmac, mac_b, 6);
  memcpy(b->mac, mac_b, 6);
  memcpy(b->rmac, mac_a, 6);
  a->ip = b->rip = 0x0A000001u;
  b->ip = a->rip = 0x0A000101u;
  a->qpn = b->dest_qpn = 0x000101u + 0x10 * n;
  b->qpn = a->dest_qpn = 0x000202u + 0x10 * n;
  a->pkey = b->pkey = ROCE_PKEY_DEFAULT;
  a->mtu = b->mtu = mtu;
  a->ttl = b->ttl = ROCE_IP_TTL_DEFAULT;
  a->tos = b->tos = ROCE_IP_ECN_ECT0;
}

static uint64_t mac48(const uint8_t *m) {
  uint64_t v = 0;
  for (int i = 0; i < 6; i++) v = v << 8 | m[i];
  return v;
}

// bits [lo, lo + w) of a Verilator signal (scalar or wide)
template <class T>
static void put(T &sig, unsigned lo, unsigned w, uint64_t v) {
  uint64_t m = (w >= 64 ? ~0ull : (1ull << w) - 1) << lo;
  sig = (T)((sig & ~m) | (v << lo & m));
}
template <std::size_t N>
static void put(VlWide<N> &sig, unsigned lo, unsigned w, uint64_t v) {
  for (unsigned i = 0; i < w; i++) {
    unsigned b = lo + i;
    sig[b / 32] = (sig[b / 32] & ~(1u << (b % 32))) | (uint32_t)(v >> i & 1) << (b % 32);
  }
}

static void make_wrs(Qp &q, unsigned n, uint64_t &laddr, tessera::AxiMemModel &mem) {
  const Scenario &s = q.s;
  q.image.resize(kMrLen);
  for (auto &b : q.image) b = (uint8_t)rnd();
  q.expect = q.image;
  uint64_t va = kMrBase + rnd() % 4096;
  uint32_t pe = s.first_psn;
  for (unsigned i = 0; i < s.nwr; i++) {
    Wr w;
    uint32_t len = 1 + rnd() % s.max_len;
    if (s.zero_len && i % 3 == 1) len = 0;
    if (va + len > kMrBase + kMrLen) va = kMrBase + rnd() % 64;
    w.data.resize(len);
    for (auto &b : w.data) b = (uint8_t)rnd();
    mem.mem().write(laddr, w.data.data(), len);
    memcpy(q.expect.data() + (va - kMrBase), w.data.data(), len);
    w.laddr = laddr;
    w.va = va;
    w.len = len;
    w.id = (uint16_t)(0x1000 * (n + 1) + i);
    q.wrs.push_back(w);
    uint32_t np = len ? (len + ROCE_MTU_BYTES(s.mtu) - 1) / ROCE_MTU_BYTES(s.mtu) : 1;
    pe = (pe + np) & ROCE_PSN_MASK;
    q.psn_end.push_back(pe);
    laddr += (len + 31) / 32 * 32 + 32 * (rnd() % 4);
    va += len + rnd() % 64;
  }
}

static bool run(const Scenario &sc, uint64_t seed) {
  tb_seed(seed);
  Vtessera_nic_req_arb dut;
  tessera::AxiMemConfig mc;
  mc.data_bytes = 32;
  mc.base = kMemBase;
  mc.size = 0x1000000;
  mc.read_latency = 20;
  tessera::AxiMemModel mem(mc);
  tessera::AxiMemPort port;
  uint32_t errs = 0;

  // one data link and one ACK link (the port's wire), shared by the QPs
  tsim_link_cfg_t dl, al;
  tsim_link_cfg_default(&dl);
  tsim_link_cfg_default(&al);
  dl.drop_ppm = sc.drop;
  dl.reorder_ppm = sc.reorder;
  dl.dup_ppm = sc.dup;
  dl.corrupt_ppm = sc.corrupt;
  al.drop_ppm = sc.ack_drop;
  al.dup_ppm = sc.ack_dup;
  dl.seed = seed * 3 + 1;
  al.seed = seed * 5 + 2;
  tsim_link_t *data_link = tsim_link_new(&dl);
  tsim_link_t *ack_link = tsim_link_new(&al);
  uint32_t guard = dl.latency + al.latency + 2 * (ROCE_MTU_BYTES(sc.mtu) + 128) / dl.bytes_per_cycle;

  std::vector<Qp> q(sc.nqp);
  uint64_t laddr = kMemBase + 0x1000 + 32 * (rnd() % 64);
  for (unsigned n = 0; n < sc.nqp; n++) {
    Qp &p = q[n];
    p.s = sc;
    if (n > 0) p.s.expect_fail = 0;   // the other QP must complete
    make_wrs(p, n, laddr, mem);
    // the reference transport model on the same WRITEs (its own links, same impairments)
    std::vector<rt_write_t> rw;
    for (auto &w : p.wrs) rw.push_back({w.va, w.len, kMrKey, w.data.data()});
    std::vector<uint8_t> rmem = p.image;
    rt_cfg_t c;
    memset(&c, 0, sizeof c);
    c.selective = sc.selective;
    c.mtu = sc.mtu;
    c.rto = sc.rto;
    c.retry_limit = sc.retry;
    c.first_psn = sc.first_psn;
    c.data_link = dl;
    c.ack_link = al;
    if (p.s.expect_fail) c.ack_link.drop_ppm = 1000000;
    c.max_cycles = 20000000;
    c.mr_base = kMrBase;
    c.mr_len = kMrLen;
    c.mr_rkey = kMrKey;
    c.mem = rmem.data();
    rt_run(&c, rw.data(), (uint32_t)rw.size(), &p.ref_st);
    // the reference responder behind the RTL requester
    qps(sc.mtu, n, &p.qa, &p.qb);
    memset(&p.r, 0, sizeof p.r);
    memset(&p.st, 0, sizeof p.st);
    p.r.selective = sc.selective;
    p.r.mr_base = kMrBase;
    p.r.mr_len = kMrLen;
    p.r.mr_rkey = kMrKey;
    p.r.mem = p.image.data();
    p.r.st = &p.st;
    p.r.ack = ref_ack;
    p.ack_link = ack_link;
    p.r.qp = p.qb;
    p.r.epsn = sc.first_psn & ROCE_PSN_MASK;
    p.done_at = 0;
  }
  for (auto &p : q) p.r.ctx = &p;   // after the vector stopped moving

  // configuration (QP n's fields; unused QPs keep the same values)
  for (unsigned n = 0; n < kNQp; n++) {
    const Qp &p = q[n < sc.nqp ? n : 0];
    put(dut.cfg_psn_i, 24 * n, 24, sc.first_psn);
    put(dut.cfg_selective_i, n, 1, (uint64_t)sc.selective);
    put(dut.cfg_mtu_i, 3 * n, 3, sc.mtu);
    put(dut.cfg_rto_i, 32 * n, 32, sc.rto);
    put(dut.cfg_retry_i, 8 * n, 8, sc.retry);
    put(dut.cfg_guard_i, 16 * n, 16, guard);
    put(dut.cfg_dqpn_i, 24 * n, 24, p.qa.dest_qpn);
    put(dut.cfg_dmac_i, 48 * n, 48, mac48(p.qa.rmac));
    put(dut.cfg_dip_i, 32 * n, 32, p.qa.rip);
    put(dut.cfg_sport_i, 16 * n, 16, 0xC000 | (p.qa.qpn & 0x3FFF));
  }
  dut.cfg_smac_i = mac48(q[0].qa.mac);
  dut.cfg_sip_i = q[0].qa.ip;
  dut.cfg_tos_i = q[0].qa.tos;
  dut.cfg_ttl_i = q[0].qa.ttl;
  dut.cfg_pkey_i = q[0].qa.pkey;

  // work requests of the QPs interleaved
  std::vector<std::pair<unsigned, size_t>> feed;
  for (size_t i = 0; i < sc.nwr; i++)
    for (unsigned n = 0; n < sc.nqp; n++) feed.push_back({n, i});

  uint64_t now = 0;
  std::deque<Ack> acks;
  std::vector<uint8_t> frame;
  uint64_t frame_start = 0;   // cycle of the current frame's first beat
  size_t wnext = 0;
  static uint8_t buf[ROCE_FRAME_MAX];

  auto tick = [&](bool rst) {
    bool st_ar = chance(sc.stall), st_r = chance(sc.stall), st_t = chance(sc.stall);
    dut.clk_i = 0;
    dut.rst_ni = !rst;
    dut.cfg_start_i = now == 3 ? (1u << kNQp) - 1 : 0;
    dut.wr_valid_i = wnext < feed.size() && now > 4 && !chance(100);
    if (wnext < feed.size()) {
      const Wr &w = q[feed[wnext].first].wrs[feed[wnext].second];
      dut.wr_qp_i = feed[wnext].first;
      dut.wr_id_i = w.id;
      dut.wr_laddr_i = (uint32_t)w.laddr;
      dut.wr_va_i = w.va;
      dut.wr_rkey_i = kMrKey;
      dut.wr_len_i = w.len;
    }
    dut.cpl_ready_i = !chance(200);
    dut.ack_valid_i = !acks.empty();
    if (!acks.empty()) {
      dut.ack_qp_i = acks.front().qp;
      dut.ack_syndrome_i = acks.front().syn;
      dut.ack_psn_i = acks.front().psn;
      dut.ack_msn_i = acks.front().msn;
    }
    dut.m_arready_i = port.arready && !st_ar;
    dut.m_rvalid_i = port.rvalid && !st_r;
    for (int w = 0; w < 8; w++) dut.m_rdata_i[w] = port.rdata[w];
    dut.m_rid_i = port.rid;
    dut.m_rresp_i = port.rresp;
    dut.m_rlast_i = port.rlast;
    dut.m_tready_i = !st_t && (!frame.empty() || tsim_link_free_at(data_link) <= now);
    dut.eval();
    if (!rst) {
      if (dut.wr_valid_i && dut.wr_ready_o) wnext++;
      if (dut.cpl_valid_o && dut.cpl_ready_i) {
        unsigned n = dut.cpl_qp_o;
        if (n >= sc.nqp) {
          errs++;
        } else {
          // a successful completion only after the responder placed the whole message
          Qp &p = q[n];
          size_t i = p.cpls.size();
          if (dut.cpl_status_o == 0 && i < p.wrs.size() && roce_psn_diff(p.r.epsn, p.psn_end[i]) < 0) {
            printf("  QP %u WR %zu completed before the responder placed it (ePSN %06x, message ends before %06x)\n",
                   n, i, p.r.epsn, p.psn_end[i]);
            errs++;
          }
          p.cpls.push_back({dut.cpl_id_o, dut.cpl_status_o});
          if (p.cpls.size() == p.wrs.size()) p.done_at = now;
        }
      }
      if (dut.ack_valid_i) acks.pop_front();
      if (dut.m_tvalid_o && dut.m_tready_i) {
        if (frame.empty()) frame_start = now;
        for (int i = 0; i < 32; i++)
          if (dut.m_tkeep_o >> i & 1) frame.push_back((uint8_t)(dut.m_tdata_o[i / 4] >> (8 * (i % 4))));
        if (dut.m_tlast_o) {
          // on the wire from its first beat on (the MAC streams it out as it comes)
          tsim_link_send(data_link, frame_start, frame.data(), (uint32_t)frame.size());
          frame.clear();
        }
      }
      if (dut.m_arvalid_o && dut.m_arready_i) {
        if ((dut.m_araddr_o & 0xFF) + ((uint64_t)dut.m_arlen_o + 1) * 32 > 256) errs++;
        if (dut.m_araddr_o & 31) errs++;
      }
    }
    port.arid = dut.m_arid_o;
    port.araddr = dut.m_araddr_o;
    port.arlen = dut.m_arlen_o;
    port.arsize = dut.m_arsize_o;
    port.arburst = dut.m_arburst_o;
    port.arvalid = dut.m_arvalid_o && !st_ar;
    port.rready = dut.m_rready_o && !st_r;
    port.awvalid = false;
    port.wvalid = false;
    port.bready = true;
    if (rst) mem.reset(port);
    else mem.tick(port);
    dut.clk_i = 1;
    dut.eval();
    // links: the responder side finds the QP by destination QPN, the requester side as well
    uint32_t len;
    roce_pkt_t k;
    for (auto &p : q) p.now = now;
    while (tsim_link_recv(data_link, now, buf, sizeof buf, &len, NULL)) {
      if (roce_parse(buf, len, &k) != ROCE_OK) continue;   // corrupted: dropped
      bool found = false;
      for (auto &p : q)
        if (k.dqpn == p.qb.qpn) {
          rt_resp_rx(&p.r, &k);
          found = true;
        }
      if (!found) errs++;
    }
    while (tsim_link_recv(ack_link, now, buf, sizeof buf, &len, NULL)) {
      if (sc.expect_tmo && now < 6000) continue;
      if (roce_parse(buf, len, &k) != ROCE_OK || k.opcode != ROCE_OP_ACK) continue;
      for (unsigned n = 0; n < sc.nqp; n++)
        if (k.dqpn == q[n].qa.qpn && !q[n].s.expect_fail) acks.push_back({n, k.syndrome, k.psn, k.msn});
    }
    now++;
  };

  for (int i = 0; i < 3; i++) tick(true);
  uint64_t limit = 20000000, fin_at = 0;
  while (now < limit) {
    tick(false);
    bool fin = true;
    for (auto &p : q) fin = fin && p.cpls.size() == p.wrs.size();
    if (fin && !fin_at) fin_at = now;
    if (fin && now > fin_at + 2000) break;
  }

  // checks
  bool all = errs == 0;
  for (unsigned n = 0; n < sc.nqp; n++) {
    Qp &p = q[n];
    const Scenario &s = p.s;
    bool ok = p.cpls.size() == p.wrs.size();
    for (size_t i = 0; i < p.cpls.size(); i++) {
      uint8_t want = 0;
      if (s.expect_fail) want = i == 0 ? 1 : 4;
      if (p.cpls[i].id != p.wrs[i].id || p.cpls[i].status != want) {
        if (ok) printf("  QP %u completion %zu: id %04x status %u, want %04x status %u\n", n, i, p.cpls[i].id,
                       p.cpls[i].status, p.wrs[i].id, want);
        ok = false;
      }
    }
    bool err = dut.err_o >> n & 1, idle = dut.idle_o >> n & 1;
    if (!s.expect_fail) {
      for (uint32_t i = 0; i < kMrLen; i++)
        if (p.image[i] != p.expect[i]) {
          printf("  QP %u image differs at region offset 0x%x: %02x want %02x\n", n, i, p.image[i], p.expect[i]);
          ok = false;
          break;
        }
      if (!idle || err) ok = false;
    } else if (!err) {
      ok = false;
    }
    uint32_t pkts = (uint32_t)(dut.cnt_pkts_o >> (32 * n)), res = (uint32_t)(dut.cnt_resends_o >> (32 * n)),
             tmo = (uint32_t)(dut.cnt_timeouts_o >> (32 * n));
    bool lossless = !s.drop && !s.reorder && !s.dup && !s.corrupt && !s.ack_drop && !s.ack_dup && !s.expect_tmo &&
                    !s.expect_fail;
    if (lossless && (pkts != p.ref_st.data_frames || res != 0 || p.ref_st.retransmits != 0)) {
      printf("  QP %u packets %u resends %u, reference %" PRIu64 " / %" PRIu64 "\n", n, pkts, res,
             p.ref_st.data_frames, p.ref_st.retransmits);
      ok = false;
    }
    if (s.expect_tmo && tmo == 0) {
      printf("  QP %u: the retransmission timer never fired\n", n);
      ok = false;
    }
    if (s.expect_fail && tmo != s.retry + 1) {
      printf("  QP %u timeouts %u, want %u\n", n, tmo, s.retry + 1);
      ok = false;
    }
    uint64_t bytes = 0;
    for (auto &w : p.wrs) bytes += w.len;
    double good = p.done_at ? 100.0 * (double)bytes / ((double)p.done_at * 32) : 0;
    double rgood = p.ref_st.cycles ? 100.0 * (double)p.ref_st.payload_bytes / ((double)p.ref_st.cycles * 32) : 0;
    char name[64];
    snprintf(name, sizeof name, sc.nqp > 1 ? "%s/qp%u" : "%s", sc.name, n);
    printf("%-24s %s  WRs %u bytes %" PRIu64 " cycles %" PRIu64 " goodput %.1f%% pkts %u resends %u timeouts %u"
           " | reference: cycles %" PRIu64 " goodput %.1f%% pkts %" PRIu64 " resends %" PRIu64 " timeouts %" PRIu64
           "\n",
           name, ok ? "PASS" : "FAIL", s.nwr, bytes, p.done_at, good, pkts, res, tmo, p.ref_st.cycles, rgood,
           p.ref_st.data_frames, p.ref_st.retransmits, p.ref_st.timeouts);
    all = all && ok;
  }
  // QPs not in use stay idle
  for (unsigned n = sc.nqp; n < kNQp; n++)
    if (!(dut.idle_o >> n & 1) || (dut.err_o >> n & 1) || (uint32_t)(dut.cnt_pkts_o >> (32 * n))) all = false;
  if (errs) printf("  %u protocol errors (AXI bursts, completions, frames of no QP)\n", errs);
  tsim_link_free(data_link);
  tsim_link_free(ack_link);
  return all;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  if (getenv("SEED")) seed = strtoull(getenv("SEED"), nullptr, 0);
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], nullptr, 0);
  printf("tb_nic_requester seed %" PRIu64 "\n", seed);
  //   name                  sel mtu            nwr maxlen first_psn  drop   reo    dup   corr  adrop  adup    rto   retry fail tmo zero stall qps
  static const Scenario sc[] = {
      {"lossless_selective", 1, ROCE_MTU_1024, 12, 6000, 0x100, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200, 1},
      {"lossless_gbn", 0, ROCE_MTU_1024, 12, 6000, 0x100, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200, 1},
      {"zero_length", 1, ROCE_MTU_1024, 9, 3000, 0x10, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 1, 200, 1},
      {"mtu256", 1, ROCE_MTU_256, 8, 3000, 0x55, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200, 1},
      {"mtu4096", 1, ROCE_MTU_4096, 8, 20000, 0x55, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200, 1},
      {"psn_wrap", 1, ROCE_MTU_512, 10, 4000, 0xFFFFF0, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200, 1},
      {"drop1_selective", 1, ROCE_MTU_1024, 40, 16000, 0x200, 10000, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 0, 1},
      {"drop1_gbn", 0, ROCE_MTU_1024, 40, 16000, 0x200, 10000, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 0, 1},
      {"reorder_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 20000, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 100, 1},
      {"dup_acks_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 0, 20000, 0, 0, 100000, 20000, 7, 0, 0, 0, 100, 1},
      {"corrupt_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 0, 0, 20000, 0, 0, 20000, 7, 0, 0, 0, 100, 1},
      {"timeout_recovery", 1, ROCE_MTU_1024, 10, 4000, 0x400, 20000, 0, 0, 0, 20000, 0, 1500, 7, 0, 1, 0, 100, 1},
      {"retry_limit_error", 1, ROCE_MTU_1024, 4, 3000, 0x500, 0, 0, 0, 0, 0, 0, 3000, 3, 1, 0, 0, 100, 2},
      {"two_qps_drop1", 1, ROCE_MTU_1024, 16, 8000, 0x600, 10000, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 100, 2},
  };
  unsigned pass = 0, fail = 0;
  for (const Scenario &s : sc) (run(s, seed) ? pass : fail)++;
  printf("%u passed, %u failed\n", pass, fail);
  return fail != 0;
}
