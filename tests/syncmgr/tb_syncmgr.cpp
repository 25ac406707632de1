// Verilator driver for tessera_syncmgr: clocks the model, drives APB and the
// message port; the tests (syncmgr_test.c) and the golden model are C.
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "Vtessera_syncmgr.h"
#include "verilated.h"

#include "apb_drv.h"

extern "C" {
#include "tb_drv.h"
int syncmgr_tests_main(int argc, char **argv);
}

namespace {
struct Msg { uint32_t addr, data; uint64_t cycle; };
Vtessera_syncmgr *dut;
uint64_t cyc;
std::deque<Msg> msgs;
unsigned ready_pct = 100;
uint32_t rng = 1;
bool was_valid;
uint64_t valid_since;
uint64_t last_access;
bool err_pulse;

uint32_t xr() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
}  // namespace

extern "C" void tb_step(void) {
  dut->msg_ready_i = (ready_pct >= 100) || (xr() % 100 < ready_pct);
  dut->msg_err_i = err_pulse;
  err_pulse = false;
  dut->clk_i = 0;
  dut->eval();
  if (dut->msg_valid_o) {
    if (!was_valid) valid_since = cyc;
    if (dut->msg_ready_i) {
      msgs.push_back({dut->msg_addr_o, dut->msg_data_o, valid_since});
      was_valid = false;
    } else {
      was_valid = true;
    }
  } else {
    was_valid = false;
  }
  dut->clk_i = 1;
  dut->eval();
  cyc++;
}

extern "C" void tb_reset(void) {
  dut->rst_ni = 0;
  dut->apb_psel_i = 0;
  dut->apb_penable_i = 0;
  dut->msg_ready_i = 0;
  dut->msg_err_i = 0;
  dut->clk_i = 0;
  dut->eval();
  for (int i = 0; i < 3; i++) tb_step();
  dut->rst_ni = 1;
  dut->eval();
  tb_step();
  msgs.clear();
  was_valid = false;
}

extern "C" uint64_t tb_cycle(void) { return cyc; }
extern "C" uint64_t tb_apb_last_access(void) { return last_access; }
extern "C" void tb_set_msg_ready(unsigned pct, uint32_t seed) { ready_pct = pct; rng = seed | 1u; }
extern "C" int tb_irq(void) { return dut->irq_o; }
extern "C" void tb_msg_err_pulse(void) { err_pulse = true; }

static int apb(bool wr, uint32_t off, uint32_t wdata, uint32_t *rdata) {
  static tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> drv(
      TB_APB_PINS(dut, apb_), tb_step, [] { dut->clk_i = 0; dut->eval(); }, 10000, "tb");
  drv.on_access = [] { last_access = cyc; };
  return drv.xfer(wr, off, wdata, rdata);
}

extern "C" int tb_apb_write(uint32_t off, uint32_t val) { return apb(true, off, val, nullptr); }
extern "C" int tb_apb_read(uint32_t off, uint32_t *val) { return apb(false, off, 0, val); }

extern "C" int tb_msg_pop(uint32_t *addr, uint32_t *data, uint64_t *cycle) {
  if (msgs.empty()) return 0;
  *addr = msgs.front().addr;
  *data = msgs.front().data;
  if (cycle) *cycle = msgs.front().cycle;
  msgs.pop_front();
  return 1;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  dut = new Vtessera_syncmgr;
  int rc = syncmgr_tests_main(argc, argv);
  dut->final();
  delete dut;
  return rc;
}
