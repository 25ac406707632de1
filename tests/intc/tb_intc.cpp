// tessera_intc block testbench (through tests/intc/tb_intc_top.sv). The C
// reference in intc_ref.h runs beside the model one clock edge at a time:
// every cycle core_irq_o and host_irq_o are compared with it, and every APB
// access completed in that cycle (read data, pslverr).
// Usage: Vtb_intc_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>

#include "Vtb_intc_top.h"
#include "verilated.h"

#include "apb_drv.h"
#include "blk_tb.h"
#include "intc_ref.h"

namespace {

Vtb_intc_top *dut;
intc_ref_t ref;
tb::Scenario *cur;
tb::Rng env(1);
bool in_reset;
unsigned src_flip_pct;     // chance per cycle that one random source changes level
unsigned core_cycles, host_cycles;   // cycles with each output high

void step() {
  if (src_flip_pct && env.pct(src_flip_pct)) dut->src_i ^= 1u << env.below(24);
  dut->clk_i = 0;
  dut->eval();
  bool wr = false;
  uint32_t off = dut->apb_paddr_i & 0xFFFCu;
  uint32_t src = dut->src_i;
  if (!in_reset && cur) {
    if (dut->apb_psel_i && dut->apb_penable_i && dut->apb_pready_o) {
      if (dut->apb_pwrite_i) {
        int err = intc_ref_write_err(off);
        cur->check(dut->apb_pslverr_o == err, "write of 0x%02x: pslverr %d, expected %d", off,
                   dut->apb_pslverr_o, err);
        wr = !err;
      } else {
        uint32_t want;
        int err = intc_ref_read(&ref, src, off, &want);
        cur->check(dut->apb_pslverr_o == err, "read of 0x%02x: pslverr %d, expected %d", off,
                   dut->apb_pslverr_o, err);
        if (!err)
          cur->check(dut->apb_prdata_o == want, "read of 0x%02x = 0x%08x, expected 0x%08x (src 0x%06x)",
                     off, dut->apb_prdata_o, want, src);
      }
    }
    cur->check(dut->core_irq_o == intc_ref_core_irq(&ref, src), "core_irq_o = %d, expected %d",
               dut->core_irq_o, intc_ref_core_irq(&ref, src));
    cur->check(dut->host_irq_o == intc_ref_host_irq(&ref, src), "host_irq_o = %d, expected %d",
               dut->host_irq_o, intc_ref_host_irq(&ref, src));
    core_cycles += dut->core_irq_o;
    host_cycles += dut->host_irq_o;
  }
  dut->clk_i = 1;
  dut->eval();
  if (!in_reset) intc_ref_edge(&ref, wr, off, dut->apb_pwdata_i);
}
void settle() { dut->clk_i = 0; dut->eval(); }

tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)> *apb;

void reset(tb::Scenario &s, tb::Rng &rng) {
  cur = &s;
  env.reseed(rng.next());
  src_flip_pct = 0;
  apb->idle();
  dut->src_i = 0;
  in_reset = true;
  dut->rst_ni = 0;
  for (int i = 0; i < 3; i++) step();
  dut->rst_ni = 1;
  intc_ref_reset(&ref);
  in_reset = false;
  core_cycles = host_cycles = 0;
}
void wait(unsigned n) { for (unsigned i = 0; i < n; i++) step(); }
uint32_t rd(uint32_t a) { uint32_t v = 0; apb->read(a, &v); return v; }

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("intc", argc, argv);
  dut = new Vtb_intc_top;
  apb = new tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)>(TB_APB_PINS(dut, apb_), step, settle, 100, "intc");
  uint32_t v;

  run.scenario("reset_and_access", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    for (uint32_t a = 0; a < 0x20; a += 4) apb->read(a, &v);      // all checked in step()
    for (uint32_t a : {(uint32_t)INTC_REF_PENDING, (uint32_t)INTC_REF_CORE_CLAIM, 0x18u, 0x40u, 0xFFFCu})
      s.check(apb->write(a, 0xFFFFFFFF) == 1, "write of 0x%x: no pslverr", a);
    s.eq(dut->core_irq_o | dut->host_irq_o, 0, "outputs with nothing enabled");
    // field widths
    for (int i = 0; i < 8; i++) {
      uint32_t w = rng.next();
      apb->write(INTC_REF_CORE_EN, w);
      apb->write(INTC_REF_HOST_EN, ~w);
      s.eq(rd(INTC_REF_CORE_EN), w, "CORE_EN read-back");
      s.eq(rd(INTC_REF_HOST_EN), ~w, "HOST_EN read-back");
    }
  });

  run.scenario("claim_priority", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    apb->write(INTC_REF_CORE_EN, 0xFFFFFFFF);
    // every hardware source alone, then with random higher-numbered ones beside it
    for (uint32_t i = 0; i < 24; i++) {
      dut->src_i = 1u << i;
      s.eq(rd(INTC_REF_CORE_CLAIM), i, "CORE_CLAIM with one source");
      dut->src_i = (1u << i) | ((rng.next() << (i + 1)) & 0xFFFFFFu);
      s.eq(rd(INTC_REF_CORE_CLAIM), i, "CORE_CLAIM with higher sources pending too");
    }
    // a disabled lower source does not win
    dut->src_i = 0x3;
    apb->write(INTC_REF_CORE_EN, ~1u);
    s.eq(rd(INTC_REF_CORE_CLAIM), 1, "CORE_CLAIM with source 0 disabled");
    dut->src_i = 0;
    s.eq(rd(INTC_REF_CORE_CLAIM), INTC__CORE_CLAIM__NONE_bm, "CORE_CLAIM with nothing pending");
    // software interrupts are sources 24..31
    apb->write(INTC_REF_CORE_EN, 0xFFFFFFFF);
    for (uint32_t b = 0; b < 8; b++) {
      apb->write(INTC_REF_SWIRQ, 1u << b);
      s.eq(rd(INTC_REF_CORE_CLAIM), 24 + b, "CORE_CLAIM with one SWIRQ bit");
      apb->write(INTC_REF_SWIRQ_CLR, 1u << b);
      wait(1);
    }
    s.eq(rd(INTC_REF_SWIRQ), 0, "SWIRQ after clearing each bit");
  });

  run.scenario("swirq_set_clear", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    apb->write(INTC_REF_HOST_EN, 0xFF000000u);
    for (int i = 0; i < 200; i++) {
      uint32_t bits = rng.next() & 0xFF;
      if (rng.pct(50)) apb->write(INTC_REF_SWIRQ, bits);
      else apb->write(INTC_REF_SWIRQ_CLR, bits);
      wait(rng.below(3));
      rd(INTC_REF_SWIRQ);
      rd(INTC_REF_PENDING);
    }
    s.check(host_cycles > 0, "host interrupt never raised by a software interrupt");
  });

  run.scenario("random", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    src_flip_pct = 20;
    const uint32_t offs[] = {INTC_REF_PENDING, INTC_REF_CORE_EN, INTC_REF_HOST_EN, INTC_REF_SWIRQ,
                             INTC_REF_SWIRQ_CLR, INTC_REF_CORE_CLAIM, 0x18u};
    for (int i = 0; i < 4000; i++) {
      uint32_t off = offs[rng.below(7)];
      uint32_t val = rng.next() & rng.next();    // sparse masks: the outputs change often
      if (rng.pct(40)) apb->write(off, val);
      else apb->read(off, &v);
      wait(rng.below(3));
    }
    s.check(core_cycles > 1000 && host_cycles > 1000, "outputs rarely high (core %u, host %u cycles)",
            core_cycles, host_cycles);
  });

  int rc = run.finish();
  delete apb;
  delete dut;
  return rc;
}
