// tessera_clint block testbench (through tests/clint/tb_clint_top.sv). The C
// reference in clint_ref.h runs beside the model, one clock edge at a time:
// every cycle the timer and software interrupt outputs are compared with it,
// and every APB read (data and pslverr) completed in that cycle.
// Usage: Vtb_clint_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>

#include "Vtb_clint_top.h"
#include "verilated.h"

#include "apb_drv.h"
#include "blk_tb.h"
#include "clint_ref.h"

namespace {

Vtb_clint_top *dut;
clint_ref_t ref;
tb::Scenario *cur;       // scenario the per-cycle checks report to
bool in_reset;
unsigned irq_rises;      // timer_irq_o rising edges seen since the last reset

void step() {
  dut->clk_i = 0;
  dut->eval();
  bool wr = false;
  uint32_t off = dut->apb_paddr_i & 0xFFFCu;
  if (!in_reset && cur) {
    if (dut->apb_psel_i && dut->apb_penable_i && dut->apb_pready_o) {
      uint32_t want = 0;
      int err = clint_ref_read(&ref, off, &want);
      cur->check(dut->apb_pslverr_o == err, "pslverr %d at offset 0x%04x, expected %d",
                 dut->apb_pslverr_o, off, err);
      if (dut->apb_pwrite_i) wr = !err;
      else if (!err)
        cur->check(dut->apb_prdata_o == want, "read of 0x%04x = 0x%08x, expected 0x%08x", off,
                   dut->apb_prdata_o, want);
    }
    cur->check(dut->timer_irq_o == clint_ref_timer_irq(&ref), "timer_irq_o = %d, expected %d (mtime 0x%llx, mtimecmp 0x%llx)",
               dut->timer_irq_o, clint_ref_timer_irq(&ref), (unsigned long long)ref.mtime,
               (unsigned long long)ref.mtimecmp);
    cur->check(dut->soft_irq_o == clint_ref_soft_irq(&ref), "soft_irq_o = %d, expected %d",
               dut->soft_irq_o, clint_ref_soft_irq(&ref));
  }
  int prev_irq = dut->timer_irq_o;
  dut->clk_i = 1;
  dut->eval();
  if (!in_reset) {
    clint_ref_edge(&ref, wr, off, dut->apb_pwdata_i);
    if (dut->timer_irq_o && !prev_irq) irq_rises++;
  }
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
  clint_ref_reset(&ref);
  in_reset = false;   // mtime counts from the first edge after reset
  irq_rises = 0;
}
void wait(unsigned n) { for (unsigned i = 0; i < n; i++) step(); }
uint32_t rd(uint32_t a) { uint32_t v = 0; apb->read(a, &v); return v; }
uint64_t rd_mtime() {   // high, low, high again (the usual 32-bit sequence)
  for (;;) {
    uint32_t hi = rd(CLINT_REF_TIME_HI), lo = rd(CLINT_REF_TIME_LO);
    if (rd(CLINT_REF_TIME_HI) == hi) return (static_cast<uint64_t>(hi) << 32) | lo;
  }
}
// set mtimecmp without a spurious interrupt: high half to all ones first
void set_cmp(uint64_t v) {
  apb->write(CLINT_REF_CMP_HI, 0xFFFFFFFF);
  apb->write(CLINT_REF_CMP_LO, static_cast<uint32_t>(v));
  apb->write(CLINT_REF_CMP_HI, static_cast<uint32_t>(v >> 32));
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("clint", argc, argv);
  dut = new Vtb_clint_top;
  apb = new tb::ApbDriver<TB_APB_ADDR_T(dut, apb_)>(TB_APB_PINS(dut, apb_), step, settle, 100, "clint");

  run.scenario("reset_values", [&](tb::Scenario &s, tb::Rng &) {
    reset(s);
    for (uint32_t a : {CLINT_REF_MSIP, CLINT_REF_CMP_LO, CLINT_REF_CMP_HI, CLINT_REF_TIME_LO, CLINT_REF_TIME_HI})
      rd(a);   // compared with the reference inside step()
    s.eq(ref.mtimecmp, ~0ull, "reference mtimecmp after reset");
    wait(20);
    // holes in the map answer pslverr (checked against the reference in step())
    uint32_t v;
    for (uint32_t a : {0x0004u, 0x3FFCu, 0x4008u, 0x8000u, 0xBFF4u})
      s.check(apb->read(a, &v) == 1 && apb->write(a, 1) == 1, "offset 0x%04x: no pslverr", a);
  });

  run.scenario("mtime_counts", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    uint64_t t0 = rd_mtime();
    for (int i = 0; i < 20; i++) {
      wait(rng.below(300));
      uint64_t t1 = rd_mtime();
      s.check(t1 > t0, "mtime did not advance: 0x%llx then 0x%llx", (unsigned long long)t0,
              (unsigned long long)t1);
      t0 = t1;
    }
    // carry from the low into the high half
    apb->write(CLINT_REF_TIME_HI, rng.next() & 0xFFFF);
    apb->write(CLINT_REF_TIME_LO, 0xFFFFFFF0u);
    uint32_t hi0 = rd(CLINT_REF_TIME_HI);
    wait(32);
    s.eq(rd(CLINT_REF_TIME_HI), hi0 + 1, "mtime high half after the low half wrapped");
    // 64-bit wrap
    apb->write(CLINT_REF_TIME_HI, 0xFFFFFFFF);
    apb->write(CLINT_REF_TIME_LO, 0xFFFFFFF8u);
    wait(16);
    s.check(rd_mtime() < 64, "mtime did not wrap to 0");
  });

  run.scenario("timer_interrupt", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    for (int i = 0; i < 12; i++) {
      uint64_t now = rd_mtime();
      uint64_t d = rng.range(20, 400);
      set_cmp(now + d);
      unsigned rises = irq_rises;
      s.eq(dut->timer_irq_o, 0, "timer_irq_o with mtimecmp in the future");
      wait(static_cast<unsigned>(d) + 10);
      s.eq(dut->timer_irq_o, 1, "timer_irq_o after mtime passed mtimecmp");
      s.eq(irq_rises - rises, 1, "timer_irq_o rising edges");
      // moving mtimecmp ahead clears it; moving mtime back does too
      if (i & 1) set_cmp(now + d + 100000);
      else { apb->write(CLINT_REF_TIME_LO, 0); apb->write(CLINT_REF_TIME_HI, 0); }
      wait(3);
      s.eq(dut->timer_irq_o, 0, "timer_irq_o after the compare moved ahead");
    }
    // 64-bit compare: high half decides even when the low half is smaller
    apb->write(CLINT_REF_TIME_HI, 5);
    set_cmp((6ull << 32) | 0x10);
    wait(40);
    s.eq(dut->timer_irq_o, 0, "timer_irq_o, mtimecmp high half larger");
    set_cmp((5ull << 32) | 0x10);
    wait(5);
    s.eq(dut->timer_irq_o, 1, "timer_irq_o, mtimecmp high half equal, low half passed");
    // mtimecmp = 0: interrupt at once; reset value (all ones): never
    set_cmp(0);
    wait(3);
    s.eq(dut->timer_irq_o, 1, "timer_irq_o with mtimecmp 0");
  });

  run.scenario("software_interrupt", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    for (int i = 0; i < 40; i++) {
      uint32_t v = rng.next();
      s.eq(apb->write(CLINT_REF_MSIP, v), 0, "MSIP write pslverr");
      s.eq(dut->soft_irq_o, v & 1, "soft_irq_o after an MSIP write");
      s.eq(rd(CLINT_REF_MSIP), v & 1, "MSIP read-back (bit 0 only)");
      wait(rng.below(5));
    }
  });

  run.scenario("random_access", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s);
    const uint32_t offs[] = {CLINT_REF_MSIP, CLINT_REF_CMP_LO, CLINT_REF_CMP_HI, CLINT_REF_TIME_LO,
                             CLINT_REF_TIME_HI, 0x0010u, 0x4010u, 0xBFF0u};
    uint32_t v;
    for (int i = 0; i < 3000; i++) {
      uint32_t off = offs[rng.below(8)];
      uint32_t val = rng.next();
      // keep values near each other so that the compare flips often
      if (off == CLINT_REF_CMP_HI || off == CLINT_REF_TIME_HI) val &= 1;
      if (off == CLINT_REF_CMP_LO) val = static_cast<uint32_t>(ref.mtime) + rng.below(64) - 16;
      if (rng.pct(50)) apb->write(off, val);
      else apb->read(off, &v);
      wait(rng.below(4));
    }
    s.check(irq_rises > 10, "only %u timer interrupts in the random run", irq_rises);
  });

  int rc = run.finish();
  delete apb;
  delete dut;
  return rc;
}
