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
// backpressure on AR and R; the frame output sees random ready and waits for
// the wire. Checks per scenario: the reference responder's memory image (the
// region, byte for byte, pre-filled with a pattern) equals the WRITEs' data,
// the completions come in order with the expected status, AXI bursts do not
// cross 4 KiB, and without impairments the packet count equals the reference
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

#include "Vtessera_nic_requester.h"
#include "axi_mem_model.h"
#include "roce_model.h"
#include "roce_transport.h"
#include "tb_nic_stream.h"

static uint32_t rnd() { return tb_rnd(); }
static bool chance(unsigned per_mille) { return rnd() % 1000 < per_mille; }

static const uint64_t kMemBase = 0x80000000ull;   // local (source) memory
static const uint64_t kMrBase = 0x40010000ull;    // the responder's region
static const uint32_t kMrLen = 0x80000;
static const uint32_t kMrKey = 0x5EED1234u;

struct Scenario {
  const char *name;
  int selective;
  uint8_t mtu;
  unsigned nwr;
  uint32_t max_len;
  uint32_t first_psn;
  uint32_t drop, reorder, dup, corrupt;   // data link, ppm
  uint32_t ack_drop, ack_dup;             // ACK link, ppm
  uint32_t rto, retry;
  int expect_fail;                        // the ACK link loses everything: retry limit
  int expect_tmo;                         // ACKs lost for the first 6000 cycles: the timer must fire
  int zero_len;                           // some WRITEs of length 0
  unsigned stall;                         // per mille AXI / frame backpressure
};

struct Wr {
  uint64_t laddr, va;
  uint32_t len;
  uint16_t id;
};

struct Cpl {
  uint16_t id;
  uint8_t status;
};

struct Ref {
  rt_resp_t r;
  rt_stats_t st;
  tsim_link_t *ack_link;
  uint64_t now;
};
static void ref_ack(void *ctx, uint8_t syn, uint32_t psn, uint32_t msn) {
  Ref *f = (Ref *)ctx;
  roce_frame_t fr;
  roce_build_ack(&f->r.qp, psn, syn, msn, &fr);
  tsim_link_send(f->ack_link, f->now, fr.data, fr.len);
}

static void qps(uint8_t mtu, roce_qp_t *a, roce_qp_t *b) {
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
  a->qpn = b->dest_qpn = 0x000101u;
  b->qpn = a->dest_qpn = 0x000202u;
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

static bool run(const Scenario &s, uint64_t seed) {
  tb_seed(seed);
  Vtessera_nic_requester dut;
  tessera::AxiMemConfig mc;
  mc.data_bytes = 32;
  mc.base = kMemBase;
  mc.size = 0x1000000;
  mc.read_latency = 20;
  tessera::AxiMemModel mem(mc);
  tessera::AxiMemPort port;
  uint32_t errs = 0;

  // work requests: source data in the memory model, destinations in the region
  std::vector<Wr> wrs;
  std::vector<uint8_t> image(kMrLen);
  for (auto &b : image) b = (uint8_t)rnd();
  std::vector<uint8_t> expect = image;
  std::vector<std::vector<uint8_t>> datas;
  uint64_t laddr = kMemBase + 0x1000 + 32 * (rnd() % 64);
  uint64_t va = kMrBase + rnd() % 4096;
  for (unsigned i = 0; i < s.nwr; i++) {
    uint32_t len = 1 + rnd() % s.max_len;
    if (s.zero_len && i % 3 == 1) len = 0;
    if (va + len > kMrBase + kMrLen) va = kMrBase + rnd() % 64;
    std::vector<uint8_t> d(len);
    for (auto &b : d) b = (uint8_t)rnd();
    mem.mem().write(laddr, d.data(), len);
    memcpy(expect.data() + (va - kMrBase), d.data(), len);
    wrs.push_back({laddr, va, len, (uint16_t)(0x100 + i)});
    datas.push_back(d);
    laddr += (len + 31) / 32 * 32 + 32 * (rnd() % 4);
    va += len + rnd() % 64;
  }

  // reference transport model on the same WRITEs (counts, cycles)
  tsim_link_cfg_t dl, al;
  tsim_link_cfg_default(&dl);
  tsim_link_cfg_default(&al);
  dl.drop_ppm = s.drop;
  dl.reorder_ppm = s.reorder;
  dl.dup_ppm = s.dup;
  dl.corrupt_ppm = s.corrupt;
  al.drop_ppm = s.ack_drop;
  al.dup_ppm = s.ack_dup;
  dl.seed = seed * 3 + 1;
  al.seed = seed * 5 + 2;
  uint32_t guard = dl.latency + al.latency + 2 * (ROCE_MTU_BYTES(s.mtu) + 128) / dl.bytes_per_cycle;
  rt_stats_t rst;
  {
    std::vector<rt_write_t> rw;
    for (unsigned i = 0; i < s.nwr; i++) rw.push_back({wrs[i].va, wrs[i].len, kMrKey, datas[i].data()});
    std::vector<uint8_t> rmem = image;
    rt_cfg_t c;
    memset(&c, 0, sizeof c);
    c.selective = s.selective;
    c.mtu = s.mtu;
    c.rto = s.rto;
    c.retry_limit = s.retry;
    c.first_psn = s.first_psn;
    c.data_link = dl;
    c.ack_link = al;
    c.max_cycles = 20000000;
    c.mr_base = kMrBase;
    c.mr_len = kMrLen;
    c.mr_rkey = kMrKey;
    c.mem = rmem.data();
    rt_run(&c, rw.data(), (uint32_t)rw.size(), &rst);
  }

  // the reference responder behind the RTL requester
  tsim_link_t *data_link = tsim_link_new(&dl);
  Ref ref;
  memset(&ref, 0, sizeof ref);
  ref.ack_link = tsim_link_new(&al);
  roce_qp_t qa, qb;
  qps(s.mtu, &qa, &qb);
  std::vector<uint8_t> rimage = image;
  ref.r.selective = s.selective;
  ref.r.mr_base = kMrBase;
  ref.r.mr_len = kMrLen;
  ref.r.mr_rkey = kMrKey;
  ref.r.mem = rimage.data();
  ref.r.st = &ref.st;
  ref.r.ack = ref_ack;
  ref.r.ctx = &ref;
  ref.r.qp = qb;
  ref.r.epsn = s.first_psn & ROCE_PSN_MASK;

  // configuration
  dut.cfg_psn_i = s.first_psn;
  dut.cfg_selective_i = s.selective;
  dut.cfg_mtu_i = s.mtu;
  dut.cfg_rto_i = s.rto;
  dut.cfg_retry_i = s.retry;
  dut.cfg_guard_i = guard;
  dut.cfg_dqpn_i = qa.dest_qpn;
  dut.cfg_dmac_i = mac48(qa.rmac);
  dut.cfg_smac_i = mac48(qa.mac);
  dut.cfg_sip_i = qa.ip;
  dut.cfg_dip_i = qa.rip;
  dut.cfg_tos_i = qa.tos;
  dut.cfg_ttl_i = qa.ttl;
  dut.cfg_sport_i = 0xC000 | (qa.qpn & 0x3FFF);
  dut.cfg_pkey_i = qa.pkey;

  std::vector<uint32_t> psn_end;   // PSN after each WRITE's last packet
  uint32_t pe = s.first_psn;
  for (auto &w : wrs) {
    uint32_t n = w.len ? (w.len + ROCE_MTU_BYTES(s.mtu) - 1) / ROCE_MTU_BYTES(s.mtu) : 1;
    pe = (pe + n) & ROCE_PSN_MASK;
    psn_end.push_back(pe);
  }
  uint64_t now = 0;
  std::vector<Cpl> cpls;
  struct A {
    uint8_t syn;
    uint32_t psn, msn;
  };
  std::deque<A> acks;
  std::vector<uint8_t> frame;
  size_t wnext = 0;
  uint64_t payload_sent = 0;
  static uint8_t buf[ROCE_FRAME_MAX];

  auto tick = [&](bool rst) {
    bool st_ar = chance(s.stall), st_r = chance(s.stall), st_t = chance(s.stall);
    dut.clk_i = 0;
    dut.rst_ni = !rst;
    dut.cfg_start_i = now == 3;
    // work requests
    dut.wr_valid_i = wnext < wrs.size() && now > 4 && !chance(100);
    if (wnext < wrs.size()) {
      const Wr &w = wrs[wnext];
      dut.wr_id_i = w.id;
      dut.wr_laddr_i = (uint32_t)w.laddr;
      dut.wr_va_i = w.va;
      dut.wr_rkey_i = kMrKey;
      dut.wr_len_i = w.len;
    }
    dut.cpl_ready_i = !chance(200);
    dut.ack_valid_i = !acks.empty();
    if (!acks.empty()) {
      dut.ack_syndrome_i = acks.front().syn;
      dut.ack_psn_i = acks.front().psn;
      dut.ack_msn_i = acks.front().msn;
    }
    dut.m_arready_i = port.arready && !st_ar;
    dut.m_rvalid_i = port.rvalid && !st_r;
    for (int w = 0; w < 8; w++) dut.m_rdata_i[w] = port.rdata[w];
    dut.m_rresp_i = port.rresp;
    dut.m_rlast_i = port.rlast;
    dut.m_tready_i = !st_t && tsim_link_free_at(data_link) <= now;
    dut.eval();
    if (!rst) {
      if (dut.wr_valid_i && dut.wr_ready_o) wnext++;
      if (dut.cpl_valid_o && dut.cpl_ready_i) {
        // a successful completion only after the responder placed the whole message
        size_t i = cpls.size();
        if (dut.cpl_status_o == 0 && i < wrs.size() && roce_psn_diff(ref.r.epsn, psn_end[i]) < 0) {
          printf("  WR %zu completed before the responder placed it (ePSN %06x, message ends before %06x)\n", i,
                 ref.r.epsn, psn_end[i]);
          errs++;
        }
        cpls.push_back({dut.cpl_id_o, dut.cpl_status_o});
      }
      if (dut.ack_valid_i) acks.pop_front();
      if (dut.m_tvalid_o && dut.m_tready_i) {
        for (int i = 0; i < 32; i++)
          if (dut.m_tkeep_o >> i & 1) frame.push_back((uint8_t)(dut.m_tdata_o[i / 4] >> (8 * (i % 4))));
        if (dut.m_tlast_o) {
          tsim_link_send(data_link, now, frame.data(), (uint32_t)frame.size());
          frame.clear();
        }
      }
      if (dut.m_arvalid_o && dut.m_arready_i) {
        if ((dut.m_araddr_o & 0xFFF) + ((uint64_t)dut.m_arlen_o + 1) * 32 > 4096) errs++;
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
    // links
    uint32_t len;
    roce_pkt_t k;
    ref.now = now;
    while (tsim_link_recv(data_link, now, buf, sizeof buf, &len, NULL)) {
      if (roce_parse(buf, len, &k) != ROCE_OK) {
        ref.st.bad_frames++;
      } else {
        payload_sent += k.payload_len;
        rt_resp_rx(&ref.r, &k);
      }
    }
    while (tsim_link_recv(ref.ack_link, now, buf, sizeof buf, &len, NULL)) {
      if (s.expect_tmo && now < 6000) continue;
      if (roce_parse(buf, len, &k) == ROCE_OK && k.opcode == ROCE_OP_ACK && k.dqpn == qa.qpn)
        acks.push_back({k.syndrome, k.psn, k.msn});
    }
    now++;
  };

  for (int i = 0; i < 3; i++) tick(true);
  uint64_t limit = 20000000, done_at = 0;
  while (now < limit) {
    tick(false);
    bool fin = cpls.size() == wrs.size();
    if (fin && !done_at) done_at = now;
    if (fin && now > done_at + 2000) break;
  }

  // checks
  bool ok = errs == 0 && cpls.size() == wrs.size();
  for (size_t i = 0; i < cpls.size(); i++) {
    uint8_t want = 0;
    if (s.expect_fail) want = i == 0 ? 1 : 4;
    if (cpls[i].id != wrs[i].id || cpls[i].status != want) {
      if (ok) printf("  completion %zu: id %04x status %u, want %04x status %u\n", i, cpls[i].id,
                     cpls[i].status, wrs[i].id, want);
      ok = false;
    }
  }
  if (!s.expect_fail) {
    for (uint32_t i = 0; i < kMrLen; i++)
      if (rimage[i] != expect[i]) {
        printf("  image differs at region offset 0x%x: %02x want %02x\n", i, rimage[i], expect[i]);
        ok = false;
        break;
      }
    if (!dut.idle_o || dut.err_o) ok = false;
  } else if (!dut.err_o) {
    ok = false;
  }
  bool lossless = !s.drop && !s.reorder && !s.dup && !s.corrupt && !s.ack_drop && !s.ack_dup;
  if (lossless && (dut.cnt_pkts_o != rst.data_frames || dut.cnt_resends_o != 0 || rst.retransmits != 0)) {
    printf("  packets %u resends %u, reference %" PRIu64 " / %" PRIu64 "\n", dut.cnt_pkts_o,
           dut.cnt_resends_o, rst.data_frames, rst.retransmits);
    ok = false;
  }
  if (s.expect_tmo && dut.cnt_timeouts_o == 0) {
    printf("  the retransmission timer never fired\n");
    ok = false;
  }
  if (s.expect_fail && dut.cnt_timeouts_o != s.retry + 1) {
    printf("  timeouts %u, want %u\n", dut.cnt_timeouts_o, s.retry + 1);
    ok = false;
  }
  uint64_t bytes = 0;
  for (auto &w : wrs) bytes += w.len;
  double good = done_at ? 100.0 * (double)bytes / ((double)done_at * 32) : 0;
  double rgood = rst.cycles ? 100.0 * (double)rst.payload_bytes / ((double)rst.cycles * 32) : 0;
  printf("%-22s %s  WRs %u bytes %" PRIu64 " cycles %" PRIu64 " goodput %.1f%% pkts %u resends %u timeouts %u"
         " | reference: cycles %" PRIu64 " goodput %.1f%% pkts %" PRIu64 " resends %" PRIu64 " timeouts %" PRIu64
         "  (errs %u, cpls %zu)\n",
         s.name, ok ? "PASS" : "FAIL", s.nwr, bytes, done_at, good, dut.cnt_pkts_o, dut.cnt_resends_o,
         dut.cnt_timeouts_o, rst.cycles, rgood, rst.data_frames, rst.retransmits, rst.timeouts, errs,
         cpls.size());
  tsim_link_free(data_link);
  tsim_link_free(ref.ack_link);
  (void)payload_sent;
  return ok;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  if (getenv("SEED")) seed = strtoull(getenv("SEED"), nullptr, 0);
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], nullptr, 0);
  printf("tb_nic_requester seed %" PRIu64 "\n", seed);
  //   name                  sel mtu            nwr maxlen first_psn  drop   reo    dup   corr  adrop  adup    rto   retry fail tmo zero stall
  static const Scenario sc[] = {
      {"lossless_selective", 1, ROCE_MTU_1024, 12, 6000, 0x100, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200},
      {"lossless_gbn", 0, ROCE_MTU_1024, 12, 6000, 0x100, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200},
      {"zero_length", 1, ROCE_MTU_1024, 9, 3000, 0x10, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 1, 200},
      {"mtu256", 1, ROCE_MTU_256, 8, 3000, 0x55, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200},
      {"mtu4096", 1, ROCE_MTU_4096, 8, 20000, 0x55, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200},
      {"psn_wrap", 1, ROCE_MTU_512, 10, 4000, 0xFFFFF0, 0, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 200},
      {"drop1_selective", 1, ROCE_MTU_1024, 40, 16000, 0x200, 10000, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 0},
      {"drop1_gbn", 0, ROCE_MTU_1024, 40, 16000, 0x200, 10000, 0, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 0},
      {"reorder_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 20000, 0, 0, 0, 0, 20000, 7, 0, 0, 0, 100},
      {"dup_acks_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 0, 20000, 0, 0, 100000, 20000, 7, 0, 0, 0, 100},
      {"corrupt_selective", 1, ROCE_MTU_1024, 20, 8000, 0x300, 0, 0, 0, 20000, 0, 0, 20000, 7, 0, 0, 0, 100},
      {"timeout_recovery", 1, ROCE_MTU_1024, 10, 4000, 0x400, 20000, 0, 0, 0, 20000, 0, 1500, 7, 0, 1, 0, 100},
      {"retry_limit_error", 1, ROCE_MTU_1024, 4, 3000, 0x500, 0, 0, 0, 0, 1000000, 0, 3000, 3, 1, 0, 0, 100},
  };
  unsigned pass = 0, fail = 0;
  for (const Scenario &s : sc) (run(s, seed) ? pass : fail)++;
  printf("%u passed, %u failed\n", pass, fail);
  return fail != 0;
}
