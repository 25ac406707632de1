// Verilator driver for tessera_dma: APB, two AXI4 memory slaves (the memory port and
// the host port, each: reads after a latency, one beat per cycle, random ready/gaps,
// SLVERR beats; writes with strobes, B two cycles after the last beat; a burst on the
// wrong port for its window is logged as a malformed write), the message sink.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <unordered_map>
#include <vector>

#include "Vtessera_dma.h"
#include "verilated.h"

#include "apb_drv.h"
#include "tessera_cfg.h"

extern "C" {
#include "dtb_drv.h"
int dma_tests_main(int argc, char **argv);
}

namespace {
Vtessera_dma *dut;
uint64_t cyc;
std::unordered_map<uint32_t, uint8_t> mem;   // device and host memory (disjoint windows)
std::set<uint32_t> bad;
unsigned latency = 40, host_latency = 40, ar_pct = 100, aw_pct = 100, w_pct = 100, r_gap_pct = 0,
         msg_pct = 100;
uint32_t rng = 1;
struct Beat { uint32_t addr; bool last; uint64_t due; };
struct Aw { uint32_t addr; unsigned len; };
// One AXI slave port's state: the memory port (m_axi_*) or the host port (h_axi_*).
struct Port {
  bool host;
  std::deque<Beat> rq;
  std::deque<Aw> awq;
  unsigned w_idx;            // beat index in the current write burst
  bool w_err;                // current burst touched a bad beat
  std::deque<std::pair<uint64_t, bool>> bq;  // due cycle, error
  bool r_out, b_out;
  void clear() { rq.clear(); awq.clear(); bq.clear(); w_idx = 0; w_err = false; }
};
Port mport{false, {}, {}, 0, false, {}, false, false}, hport{true, {}, {}, 0, false, {}, false, false};
std::vector<uint32_t> wlog;
std::vector<uint32_t> blog;   // addresses of the bytes written (strobe set)
std::deque<std::pair<uint32_t, uint32_t>> msgs;
uint32_t max_beats;
bool crossed;
uint32_t aw_min_beats = ~0u, aw_max_beats;   // write bursts since dtb_writes_clear

uint32_t xr() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
bool chance(unsigned pct) { return pct >= 100 || (xr() % 100) < pct; }
uint8_t rd8(uint32_t a) {
  auto it = mem.find(a);
  if (it != mem.end()) return it->second;
  uint32_t h = a * 2654435761u;
  return (uint8_t)(h >> 24);
}
bool in_host(uint32_t a) { return a - TESSERA_HOST_BASE < TESSERA_HOST_SIZE; }
void note_burst(const Port &p, uint32_t a, unsigned n) {
  if (n > max_beats) max_beats = n;
  if ((a & ~255u) != ((a + 32 * n - 1) & ~255u)) crossed = true;
  // a burst on the wrong port is a malformed write for the checks of dma_test.c
  if (in_host(a) != p.host) wlog.push_back(0xFFFFFFFFu);
}

// Drive a port's inputs before the falling-edge evaluation.
template <typename T>
void drive(Port &p, T &arready, T &awready, T &wready, T &rvalid, VlWide<8> &rdata, T &rresp, T &rlast,
           T &rid, T &bvalid, T &bresp, T &bid) {
  arready = chance(ar_pct);
  awready = chance(aw_pct);
  wready = !p.awq.empty() && chance(w_pct);   // W after its AW (allowed subset)
  p.r_out = !p.rq.empty() && p.rq.front().due <= cyc && !(r_gap_pct && chance(r_gap_pct));
  rvalid = p.r_out;
  if (p.r_out) {
    const Beat &b = p.rq.front();
    for (int w = 0; w < 8; w++) {
      uint32_t v = 0;
      for (int k = 0; k < 4; k++) v |= (uint32_t)rd8(b.addr + 4 * w + k) << (8 * k);
      rdata[w] = v;
    }
    rresp = bad.count(b.addr) ? 2 : 0;
    rlast = b.last;
    rid = 0;
  }
  p.b_out = !p.bq.empty() && p.bq.front().first <= cyc;
  bvalid = p.b_out;
  bresp = p.b_out && p.bq.front().second ? 2 : 0;
  bid = 0;
}

// Sample a port's handshakes after the evaluation.
template <typename T>
void sample(Port &p, unsigned lat, T arvalid, T arready, uint32_t araddr, T arlen, T wvalid, T wready,
            const VlWide<8> &wdata, uint32_t wstrb, T wlast, T awvalid, T awready, uint32_t awaddr, T awlen) {
  if (arvalid && arready) {
    uint32_t a = araddr, n = arlen + 1u;
    note_burst(p, a, n);
    for (uint32_t i = 0; i < n; i++) p.rq.push_back({a + 32 * i, i + 1 == n, cyc + lat + i});
  }
  if (wvalid && wready) {
    const Aw &aw = p.awq.front();
    uint32_t a = aw.addr + 32 * p.w_idx;
    if (bad.count(a)) p.w_err = true;
    else {
      for (int w = 0; w < 8; w++)
        for (int k = 0; k < 4; k++)
          if ((wstrb >> (4 * w + k)) & 1) {
            mem[a + 4 * w + k] = (uint8_t)(wdata[w] >> (8 * k));
            blog.push_back(a + 4 * w + k);
          }
    }
    wlog.push_back(a);
    bool last_expected = (p.w_idx + 1 == aw.len);
    if ((bool)wlast != last_expected) {
      fprintf(stderr, "dtb: wlast %d at beat %u of %u\n", (int)wlast, p.w_idx, aw.len);
      wlog.push_back(0xFFFFFFFFu);   // flagged as a protocol error
    }
    p.w_idx++;
    if (last_expected) {
      p.bq.push_back({cyc + 2, p.w_err});
      p.awq.pop_front();
      p.w_idx = 0;
      p.w_err = false;
    }
  }
  if (awvalid && awready) {
    note_burst(p, awaddr, awlen + 1u);
    if (awlen + 1u < aw_min_beats) aw_min_beats = awlen + 1u;
    if (awlen + 1u > aw_max_beats) aw_max_beats = awlen + 1u;
    p.awq.push_back({awaddr, awlen + 1u});
  }
}
}  // namespace

extern "C" void dtb_step(void) {
  drive(mport, dut->m_axi_arready_i, dut->m_axi_awready_i, dut->m_axi_wready_i, dut->m_axi_rvalid_i,
        dut->m_axi_rdata_i, dut->m_axi_rresp_i, dut->m_axi_rlast_i, dut->m_axi_rid_i, dut->m_axi_bvalid_i,
        dut->m_axi_bresp_i, dut->m_axi_bid_i);
  drive(hport, dut->h_axi_arready_i, dut->h_axi_awready_i, dut->h_axi_wready_i, dut->h_axi_rvalid_i,
        dut->h_axi_rdata_i, dut->h_axi_rresp_i, dut->h_axi_rlast_i, dut->h_axi_rid_i, dut->h_axi_bvalid_i,
        dut->h_axi_bresp_i, dut->h_axi_bid_i);
  dut->msg_ready_i = chance(msg_pct);
  dut->clk_i = 0;
  dut->eval();
  if (dut->msg_valid_o && dut->msg_ready_i) msgs.push_back({dut->msg_addr_o, dut->msg_data_o});
  sample(mport, latency, dut->m_axi_arvalid_o, dut->m_axi_arready_i, dut->m_axi_araddr_o, dut->m_axi_arlen_o,
         dut->m_axi_wvalid_o, dut->m_axi_wready_i, dut->m_axi_wdata_o, dut->m_axi_wstrb_o, dut->m_axi_wlast_o,
         dut->m_axi_awvalid_o, dut->m_axi_awready_i, dut->m_axi_awaddr_o, dut->m_axi_awlen_o);
  sample(hport, host_latency, dut->h_axi_arvalid_o, dut->h_axi_arready_i, dut->h_axi_araddr_o,
         dut->h_axi_arlen_o, dut->h_axi_wvalid_o, dut->h_axi_wready_i, dut->h_axi_wdata_o, dut->h_axi_wstrb_o,
         dut->h_axi_wlast_o, dut->h_axi_awvalid_o, dut->h_axi_awready_i, dut->h_axi_awaddr_o,
         dut->h_axi_awlen_o);
  for (Port *p : {&mport, &hport}) {
    if (p->r_out) p->rq.pop_front();
    if (p->b_out) p->bq.pop_front();
  }
  dut->clk_i = 1;
  dut->eval();
  cyc++;
}

extern "C" void dtb_reset(void) {
  dut->rst_ni = 0;
  dut->apb_psel_i = 0;
  dut->apb_penable_i = 0;
  dut->clk_i = 0;
  dut->eval();
  mport.clear(); hport.clear(); msgs.clear(); wlog.clear(); blog.clear();
  for (int i = 0; i < 3; i++) dtb_step();
  dut->rst_ni = 1;
  dut->eval();
  dtb_step();
}

extern "C" uint64_t dtb_cycle(void) { return cyc; }
extern "C" int dtb_irq(void) { return dut->irq_o; }
extern "C" int dtb_idle(void) { return dut->idle_o; }
extern "C" uint32_t dtb_max_burst_beats(void) { return max_beats; }
extern "C" int dtb_burst_crossed_256(void) { return crossed; }

static int apb(bool wr, uint32_t off, uint32_t wdata, uint32_t *rdata) {
  static tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> drv(
      TB_APB_PINS(dut, apb_), dtb_step, [] { dut->clk_i = 0; dut->eval(); }, 1000, "dtb");
  return drv.xfer(wr, off, wdata, rdata);
}
extern "C" int dtb_apb_write(uint32_t off, uint32_t val) { return apb(true, off, val, nullptr); }
extern "C" int dtb_apb_read(uint32_t off, uint32_t *val) { return apb(false, off, 0, val); }
extern "C" void dtb_mem_clear(void) { mem.clear(); bad.clear(); }
extern "C" void dtb_mem_write8(uint32_t a, uint8_t v) { mem[a] = v; }
extern "C" uint8_t dtb_mem_read8(uint32_t a) { return rd8(a); }
extern "C" void dtb_mem_set_err(uint32_t a) { bad.insert(a & ~31u); }
extern "C" void dtb_set_latency(unsigned c) { latency = c; }
extern "C" void dtb_set_host_latency(unsigned c) { host_latency = c; }
extern "C" void dtb_set_env(unsigned ar, unsigned aw, unsigned w, unsigned rg, unsigned m, uint32_t seed) {
  ar_pct = ar; aw_pct = aw; w_pct = w; r_gap_pct = rg; msg_pct = m; rng = seed | 1u;
}
extern "C" unsigned dtb_writes(uint32_t *addrs, unsigned max) {
  unsigned n = 0;
  for (uint32_t a : wlog) { if (n < max) addrs[n] = a; n++; }
  return n;
}
extern "C" void dtb_writes_clear(void) { wlog.clear(); blog.clear(); aw_min_beats = ~0u; aw_max_beats = 0; }
extern "C" void dtb_aw_beats(uint32_t *min_beats, uint32_t *max_beats_out) {
  *min_beats = aw_min_beats;
  *max_beats_out = aw_max_beats;
}
extern "C" unsigned dtb_wbytes(uint32_t *addrs, unsigned max) {
  unsigned n = 0;
  for (uint32_t a : blog) { if (n < max) addrs[n] = a; n++; }
  return n;
}
extern "C" int dtb_msg_pop(uint32_t *addr, uint32_t *data) {
  if (msgs.empty()) return 0;
  *addr = msgs.front().first; *data = msgs.front().second; msgs.pop_front(); return 1;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  dut = new Vtessera_dma;
  int rc = dma_tests_main(argc, argv);
  dut->final();
  delete dut;
  return rc;
}
