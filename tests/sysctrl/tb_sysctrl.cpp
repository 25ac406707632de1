// tessera_sysctrl block testbench (through tests/sysctrl/tb_sysctrl_top.sv,
// Platform = 0). Every APB access is compared with the C reference in
// sysctrl_ref.h (data and pslverr), and rdbuf_en_o with SYSBUS_CTRL.rdbuf in
// every cycle.
// Usage: Vtb_sysctrl_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>

#include "Vtb_sysctrl_top.h"
#include "verilated.h"

#include "apb_drv.h"
#include "blk_tb.h"
#include "sysctrl_ref.h"

namespace {

Vtb_sysctrl_top *dut;
sysctrl_ref_t ref;
tb::Scenario *cur;
bool in_reset;

void step() {
  dut->clk_i = 0;
  dut->eval();
  if (!in_reset && cur)
    cur->check(dut->rdbuf_en_o == sysctrl_ref_rdbuf(&ref), "rdbuf_en_o = %d, expected %d",
               dut->rdbuf_en_o, sysctrl_ref_rdbuf(&ref));
  dut->clk_i = 1;
  dut->eval();
}
void settle() { dut->clk_i = 0; dut->eval(); }

tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> *apb;

void reset(tb::Scenario &s) {
  cur = &s;
  apb->idle();
  in_reset = true;
  dut->rst_ni = 0;
  for (int i = 0; i < 3; i++) step();
  dut->rst_ni = 1;
  sysctrl_ref_reset(&ref, 0);
  in_reset = false;
  step();
}
void check_read(tb::Scenario &s, uint32_t off) {
  uint32_t got = 0, want = 0;
  int err = apb->read(off, &got);
  int werr = sysctrl_ref_read(&ref, off, &want);
  s.check(err == werr, "read of 0x%02x: pslverr %d, expected %d", off, err, werr);
  if (!werr) s.check(got == want, "read of 0x%02x = 0x%08x, expected 0x%08x", off, got, want);
}
void check_write(tb::Scenario &s, uint32_t off, uint32_t v) {
  int err = apb->write(off, v);
  int werr = sysctrl_ref_write(&ref, off, v);
  s.check(err == werr, "write of 0x%02x: pslverr %d, expected %d", off, err, werr);
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("sysctrl", argc, argv);
  dut = new Vtb_sysctrl_top;
  apb = new tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)>(TB_APB_PINS(dut, apb_), step, settle, 100, "sysctrl");

  run.scenario("identification", [&](tb::Scenario &s, tb::Rng &) {
    reset(s);
    // ID, version and the configuration words as config/tessera.toml defines them
    for (uint32_t off = 0; off <= offsetof(sysctrl_t, CLK_HZ); off += 4) check_read(s, off);
    uint32_t id = 0;
    apb->read(offsetof(sysctrl_t, ID), &id);
    s.eq(id, 0x54455353u, "ID ('TESS')");
  });

  run.scenario("reset_values_and_holes", [&](tb::Scenario &s, tb::Rng &) {
    reset(s);
    for (uint32_t off = 0; off < 0x48; off += 4) check_read(s, off);
    for (uint32_t off : {0x28u, 0x2Cu, 0x40u, 0x100u, 0xFFFCu}) check_write(s, off, 0x12345678);
  });

  run.scenario("read_only_registers", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    for (uint32_t off = 0; off <= offsetof(sysctrl_t, CLK_HZ); off += 4) {
      check_write(s, off, rng.next());   // pslverr, value unchanged
      check_read(s, off);
    }
  });

  run.scenario("software_registers", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    // walking ones and zeros, then random values, into every writable register
    for (unsigned i = 0; i < SYSCTRL_REF_NREGS; i++) {
      uint32_t off = ref.reg[i].off;
      if (!ref.reg[i].wmask) continue;
      for (unsigned b = 0; b < 32; b++) {
        check_write(s, off, 1u << b);
        check_read(s, off);
        check_write(s, off, ~(1u << b));
        check_read(s, off);
      }
    }
    for (int i = 0; i < 2000; i++) {
      uint32_t off = ref.reg[rng.below(SYSCTRL_REF_NREGS)].off;
      if (rng.pct(50)) check_write(s, off, rng.next());
      else check_read(s, off);
    }
  });

  run.scenario("rdbuf_enable", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    s.eq(dut->rdbuf_en_o, 0, "rdbuf_en_o after reset");
    for (int i = 0; i < 50; i++) {
      check_write(s, offsetof(sysctrl_t, SYSBUS_CTRL), rng.next());
      for (unsigned k = rng.below(4); k; k--) step();   // rdbuf_en_o checked in every cycle
    }
  });

  int rc = run.finish();
  delete apb;
  delete dut;
  return rc;
}
