// Verilator driver for tessera_dma: APB, an AXI4 memory slave (reads after a
// latency, one beat per cycle, random ready/gaps, SLVERR beats; writes with
// strobes, B two cycles after the last beat), the message sink.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <unordered_map>
#include <vector>

#include "Vtessera_dma.h"
#include "verilated.h"

extern "C" {
#include "dtb_drv.h"
int dma_tests_main(int argc, char **argv);
}

namespace {
Vtessera_dma *dut;
uint64_t cyc;
std::unordered_map<uint32_t, uint8_t> mem;
std::set<uint32_t> bad;
unsigned latency = 40, ar_pct = 100, aw_pct = 100, w_pct = 100, r_gap_pct = 0, msg_pct = 100;
uint32_t rng = 1;
struct Beat { uint32_t addr; bool last; uint64_t due; };
std::deque<Beat> rq;
struct Aw { uint32_t addr; unsigned len; };
std::deque<Aw> awq;
unsigned w_idx;            // beat index in the current write burst
bool w_err;                // current burst touched a bad beat
std::deque<std::pair<uint64_t, bool>> bq;  // due cycle, error
std::vector<uint32_t> wlog;
std::vector<uint32_t> blog;   // addresses of the bytes written (strobe set)
std::deque<std::pair<uint32_t, uint32_t>> msgs;
uint32_t max_beats;
bool crossed;

uint32_t xr() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
bool chance(unsigned pct) { return pct >= 100 || (xr() % 100) < pct; }
uint8_t rd8(uint32_t a) {
  auto it = mem.find(a);
  if (it != mem.end()) return it->second;
  uint32_t h = a * 2654435761u;
  return (uint8_t)(h >> 24);
}
void note_burst(uint32_t a, unsigned n) {
  if (n > max_beats) max_beats = n;
  if ((a & ~255u) != ((a + 32 * n - 1) & ~255u)) crossed = true;
}
}  // namespace

extern "C" void dtb_step(void) {
  dut->m_axi_arready_i = chance(ar_pct);
  dut->m_axi_awready_i = chance(aw_pct);
  dut->m_axi_wready_i = !awq.empty() && chance(w_pct);   // W after its AW (allowed subset)
  dut->msg_ready_i = chance(msg_pct);
  bool r_out = !rq.empty() && rq.front().due <= cyc && !(r_gap_pct && chance(r_gap_pct));
  dut->m_axi_rvalid_i = r_out;
  if (r_out) {
    const Beat &b = rq.front();
    for (int w = 0; w < 8; w++) {
      uint32_t v = 0;
      for (int k = 0; k < 4; k++) v |= (uint32_t)rd8(b.addr + 4 * w + k) << (8 * k);
      dut->m_axi_rdata_i[w] = v;
    }
    dut->m_axi_rresp_i = bad.count(b.addr) ? 2 : 0;
    dut->m_axi_rlast_i = b.last;
    dut->m_axi_rid_i = 0;
  }
  bool b_out = !bq.empty() && bq.front().first <= cyc;
  dut->m_axi_bvalid_i = b_out;
  dut->m_axi_bresp_i = b_out && bq.front().second ? 2 : 0;
  dut->m_axi_bid_i = 0;
  dut->clk_i = 0;
  dut->eval();
  if (dut->msg_valid_o && dut->msg_ready_i) msgs.push_back({dut->msg_addr_o, dut->msg_data_o});
  if (dut->m_axi_arvalid_o && dut->m_axi_arready_i) {
    uint32_t a = dut->m_axi_araddr_o, n = dut->m_axi_arlen_o + 1u;
    note_burst(a, n);
    for (uint32_t i = 0; i < n; i++) rq.push_back({a + 32 * i, i + 1 == n, cyc + latency + i});
  }
  if (dut->m_axi_wvalid_o && dut->m_axi_wready_i) {
    const Aw &aw = awq.front();
    uint32_t a = aw.addr + 32 * w_idx;
    if (bad.count(a)) w_err = true;
    else {
      for (int w = 0; w < 8; w++)
        for (int k = 0; k < 4; k++)
          if ((dut->m_axi_wstrb_o >> (4 * w + k)) & 1) {
            mem[a + 4 * w + k] = (uint8_t)(dut->m_axi_wdata_o[w] >> (8 * k));
            blog.push_back(a + 4 * w + k);
          }
    }
    wlog.push_back(a);
    bool last_expected = (w_idx + 1 == aw.len);
    if ((bool)dut->m_axi_wlast_o != last_expected) {
      fprintf(stderr, "dtb: wlast %d at beat %u of %u\n", dut->m_axi_wlast_o, w_idx, aw.len);
      wlog.push_back(0xFFFFFFFFu);   // flagged as a protocol error
    }
    w_idx++;
    if (last_expected) {
      bq.push_back({cyc + 2, w_err});
      awq.pop_front();
      w_idx = 0;
      w_err = false;
    }
  }
  if (dut->m_axi_awvalid_o && dut->m_axi_awready_i) {
    note_burst(dut->m_axi_awaddr_o, dut->m_axi_awlen_o + 1u);
    awq.push_back({dut->m_axi_awaddr_o, dut->m_axi_awlen_o + 1u});
  }
  if (r_out) rq.pop_front();
  if (b_out) bq.pop_front();
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
  rq.clear(); awq.clear(); bq.clear(); msgs.clear(); wlog.clear(); blog.clear();
  w_idx = 0; w_err = false;
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
  dut->apb_psel_i = 1;
  dut->apb_penable_i = 0;
  dut->apb_pwrite_i = wr;
  dut->apb_pprot_i = 0;
  dut->apb_paddr_i = off & 0xFFFF;
  dut->apb_pwdata_i = wdata;
  dut->apb_pstrb_i = 0xF;
  dtb_step();
  dut->apb_penable_i = 1;
  for (int i = 0; i < 1000; i++) {
    dut->clk_i = 0;
    dut->eval();
    if (dut->apb_pready_o) {
      int err = dut->apb_pslverr_o;
      if (rdata) *rdata = dut->apb_prdata_o;
      dtb_step();
      dut->apb_psel_i = 0;
      dut->apb_penable_i = 0;
      return err;
    }
    dtb_step();
  }
  dut->apb_psel_i = 0;
  dut->apb_penable_i = 0;
  return -1;
}
extern "C" int dtb_apb_write(uint32_t off, uint32_t val) { return apb(true, off, val, nullptr); }
extern "C" int dtb_apb_read(uint32_t off, uint32_t *val) { return apb(false, off, 0, val); }
extern "C" void dtb_mem_clear(void) { mem.clear(); bad.clear(); }
extern "C" void dtb_mem_write8(uint32_t a, uint8_t v) { mem[a] = v; }
extern "C" uint8_t dtb_mem_read8(uint32_t a) { return rd8(a); }
extern "C" void dtb_mem_set_err(uint32_t a) { bad.insert(a & ~31u); }
extern "C" void dtb_set_latency(unsigned c) { latency = c; }
extern "C" void dtb_set_env(unsigned ar, unsigned aw, unsigned w, unsigned rg, unsigned m, uint32_t seed) {
  ar_pct = ar; aw_pct = aw; w_pct = w; r_gap_pct = rg; msg_pct = m; rng = seed | 1u;
}
extern "C" unsigned dtb_writes(uint32_t *addrs, unsigned max) {
  unsigned n = 0;
  for (uint32_t a : wlog) { if (n < max) addrs[n] = a; n++; }
  return n;
}
extern "C" void dtb_writes_clear(void) { wlog.clear(); blog.clear(); }
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
