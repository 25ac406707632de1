// Verilator driver for tessera_qman: clocks the model, drives its APB slave,
// models device memory on the AXI read port (latency, random ready/gaps,
// error beats), the engine's APB register slave (wait states, pslverr
// injection, busy time after each write) and the message sink.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <unordered_map>

#include "Vtessera_qman.h"
#include "verilated.h"

#include "apb_drv.h"

extern "C" {
#include "qtb_drv.h"
int qman_tests_main(int argc, char **argv);
}

namespace {
Vtessera_qman *dut;
uint64_t cyc;
std::unordered_map<uint32_t, uint32_t> mem;
std::set<uint32_t> bad_beats;
unsigned latency = 40;
unsigned msg_ready_pct = 100, apb_wait_max = 0, ar_ready_pct = 100, r_gap_pct = 0, busy_max = 0;
uint32_t rng = 1;
struct Beat { uint32_t addr; bool last; uint64_t due; };
std::deque<Beat> rq;
uint64_t ar_count;
uint32_t max_beats;
bool crossed;
// engine APB slave
unsigned eng_wait;      // wait cycles left for the current access
bool eng_in_access;
long eng_writes, eng_err_at = -1;
unsigned busy_cnt;
std::deque<qtb_ev_t> regs, msgs;
qtb_ev_t cur_reg, cur_msg;
bool msg_was_valid;

uint32_t xr() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
bool chance(unsigned pct) { return pct >= 100 || (xr() % 100) < pct; }
uint32_t rd32(uint32_t a) { auto it = mem.find(a); return it == mem.end() ? 0xDEADBEEFu ^ a : it->second; }
}  // namespace

extern "C" void qtb_step(void) {
  // ---- inputs for this cycle (decided before the edge)
  dut->msg_ready_i = chance(msg_ready_pct);
  dut->m_axi_arready_i = chance(ar_ready_pct);
  bool r_out = !rq.empty() && rq.front().due <= cyc && !(r_gap_pct && chance(r_gap_pct));
  dut->m_axi_rvalid_i = r_out;
  if (r_out) {
    const Beat &b = rq.front();
    for (int w = 0; w < 8; w++) dut->m_axi_rdata_i[w] = rd32(b.addr + 4 * w);
    dut->m_axi_rresp_i = bad_beats.count(b.addr) ? 2 : 0;
    dut->m_axi_rlast_i = b.last;
    dut->m_axi_rid_i = 0;
  }
  dut->engine_idle_i = busy_cnt == 0;
  // engine APB slave: pready after a random number of wait cycles
  dut->clk_i = 0;
  dut->eval();
  if (dut->eng_psel_o && !dut->eng_penable_o) {  // setup phase
    cur_reg.a = dut->eng_paddr_o;
    cur_reg.b = dut->eng_pwdata_o;
    cur_reg.start = cyc;
    cur_reg.idle = busy_cnt == 0;
    eng_wait = apb_wait_max ? xr() % (apb_wait_max + 1) : 0;
    eng_in_access = true;
  }
  bool eng_done = false;
  if (dut->eng_psel_o && dut->eng_penable_o) {
    if (eng_wait == 0) {
      dut->eng_pready_i = 1;
      dut->eng_pslverr_i = (eng_writes == eng_err_at);
      eng_done = true;
    } else {
      dut->eng_pready_i = 0;
      dut->eng_pslverr_i = 0;
      eng_wait--;
    }
  } else {
    dut->eng_pready_i = 0;
    dut->eng_pslverr_i = 0;
  }
  dut->eval();
  if (eng_done) {
    cur_reg.end = cyc;
    regs.push_back(cur_reg);
    eng_writes++;
    eng_in_access = false;
    if (busy_max) busy_cnt = xr() % (busy_max + 1);
  } else if (busy_cnt) {
    busy_cnt--;
  }
  // messages
  if (dut->msg_valid_o) {
    if (!msg_was_valid) {
      cur_msg.start = cyc;
      cur_msg.idle = dut->engine_idle_i;
      msg_was_valid = true;
    }
    if (dut->msg_ready_i) {
      cur_msg.a = dut->msg_addr_o;
      cur_msg.b = dut->msg_data_o;
      cur_msg.end = cyc;
      msgs.push_back(cur_msg);
      msg_was_valid = false;
    }
  } else {
    msg_was_valid = false;
  }
  // AXI: accept AR, retire R
  if (dut->m_axi_arvalid_o && dut->m_axi_arready_i) {
    uint32_t a = dut->m_axi_araddr_o, n = dut->m_axi_arlen_o + 1u;
    ar_count++;
    if (n > max_beats) max_beats = n;
    if ((a & ~255u) != ((a + 32 * n - 1) & ~255u)) crossed = true;
    for (uint32_t i = 0; i < n; i++) rq.push_back({a + 32 * i, i + 1 == n, cyc + latency + i});
  }
  if (r_out) rq.pop_front();
  dut->clk_i = 1;
  dut->eval();
  cyc++;
}

extern "C" void qtb_reset(void) {
  dut->rst_ni = 0;
  dut->apb_psel_i = 0;
  dut->apb_penable_i = 0;
  dut->clk_i = 0;
  dut->eval();
  rq.clear();
  for (int i = 0; i < 3; i++) qtb_step();
  dut->rst_ni = 1;
  dut->eval();
  qtb_step();
  regs.clear();
  msgs.clear();
  msg_was_valid = false;
  eng_writes = 0;
  eng_err_at = -1;
  busy_cnt = 0;
}

extern "C" uint64_t qtb_cycle(void) { return cyc; }
extern "C" int qtb_irq(void) { return dut->irq_o; }
extern "C" int qtb_engine_busy(void) { return busy_cnt != 0; }
extern "C" uint64_t qtb_ar_count(void) { return ar_count; }
extern "C" uint32_t qtb_max_burst_beats(void) { return max_beats; }
extern "C" int qtb_burst_crossed_256(void) { return crossed; }

static int apb(bool wr, uint32_t off, uint32_t wdata, uint32_t *rdata) {
  static tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> drv(
      TB_APB_PINS(dut, apb_), qtb_step, [] { dut->clk_i = 0; dut->eval(); }, 1000, "qtb");
  return drv.xfer(wr, off, wdata, rdata);
}
extern "C" int qtb_apb_write(uint32_t off, uint32_t val) { return apb(true, off, val, nullptr); }
// one cycle of the direct fence-increment port (the chip's Sync-Manager fast path)
extern "C" void qtb_fence_inc(unsigned id, uint32_t val) {
  dut->fence_inc_i = 1;
  dut->fence_inc_idx_i = id & 3u;
  dut->fence_inc_val_i = val & 0xFFFFu;
  qtb_step();
  dut->fence_inc_i = 0;
}
extern "C" int qtb_apb_read(uint32_t off, uint32_t *val) { return apb(false, off, 0, val); }

extern "C" void qtb_mem_clear(void) { mem.clear(); bad_beats.clear(); }
extern "C" void qtb_mem_write32(uint32_t addr, uint32_t v) { mem[addr & ~3u] = v; }
extern "C" int qtb_mem_read32(uint32_t addr, uint32_t *v) {
  *v = rd32(addr & ~3u);
  return bad_beats.count(addr & ~31u) ? 1 : 0;
}
extern "C" void qtb_mem_set_err(uint32_t addr) { bad_beats.insert(addr & ~31u); }
extern "C" void qtb_set_latency(unsigned c) { latency = c; }
extern "C" void qtb_set_env(unsigned mr, unsigned aw, unsigned arr, unsigned rg, unsigned bm, uint32_t seed) {
  msg_ready_pct = mr; apb_wait_max = aw; ar_ready_pct = arr; r_gap_pct = rg; busy_max = bm;
  rng = seed | 1u;
}
extern "C" void qtb_set_apb_err_at(long k) { eng_err_at = k; eng_writes = 0; }
extern "C" void qtb_events_clear(void) { regs.clear(); msgs.clear(); }
extern "C" int qtb_reg_pop(qtb_ev_t *e) {
  if (regs.empty()) return 0;
  *e = regs.front(); regs.pop_front(); return 1;
}
extern "C" int qtb_msg_pop(qtb_ev_t *e) {
  if (msgs.empty()) return 0;
  *e = msgs.front(); msgs.pop_front(); return 1;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  dut = new Vtessera_qman;
  int rc = qman_tests_main(argc, argv);
  dut->final();
  delete dut;
  return rc;
}
