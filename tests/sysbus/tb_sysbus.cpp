// tessera_sysbus block testbench (through tests/sysbus/tb_sysbus_top.sv, three
// masters). Three OBI master models issue reads and writes (one outstanding
// each, random byte enables) to every region of the map; five slave models
// grant at random, answer after a random latency and store data. Checked every
// cycle against the C reference in sysbus_ref.h: each request reaches the slave
// its address decodes to (address, write, byte enables, data unchanged), or the
// internal error slave; each master gets exactly one response, with the error
// bit and the read data the reference expects; a waiting master is passed over
// by at most NumMst-1 grants to others on its slave (round robin).
// Usage: Vtb_sysbus_top [--seed N] [--only SCENARIO]; last line "N passed, M failed".
#include <cstdint>
#include <cstdio>
#include <functional>
#include <unordered_map>

#include "Vtb_sysbus_top.h"
#include "verilated.h"

#include "blk_tb.h"
#include "sysbus_ref.h"

namespace {

const unsigned kMst = 3;

Vtb_sysbus_top *dut;
tb::Scenario *cur;
tb::Rng env(1);

struct Master {
  enum { kIdle, kReq, kWait } st = kIdle;
  uint32_t addr = 0, wdata = 0, be = 0;
  bool we = false;
  unsigned waited = 0;        // grants to others on its slave while it requested
  uint64_t since = 0;
  unsigned done = 0, grants = 0, errs = 0;
};
struct Slave {
  bool busy = false;
  unsigned left = 0;          // cycles until its response
  uint32_t rdata = 0;
  bool err = false;
  unsigned accepted = 0;
  std::unordered_map<uint32_t, uint32_t> mem;
};
Master mst[kMst];
Slave slv[SB_SLAVES];
std::unordered_map<uint32_t, uint32_t> ref_mem;   // reference memory, by word address
uint64_t cyc;

// environment of a scenario
unsigned req_pct = 60, gnt_pct = 70, lat_max = 3;
std::function<void(unsigned m, Master &)> pick;   // chooses the next access of master m

uint32_t get32(const VlWide<3> &w, unsigned i) { return w[i]; }
uint32_t get32(const VlWide<5> &w, unsigned i) { return w[i]; }

void drive_masters() {
  uint32_t req = 0, we = 0, be = 0;
  for (unsigned m = 0; m < kMst; m++) {
    const Master &x = mst[m];
    dut->m_addr_i[m] = x.addr;
    dut->m_wdata_i[m] = x.wdata;
    if (x.st == Master::kReq) req |= 1u << m;
    if (x.we) we |= 1u << m;
    be |= (x.be & 0xFu) << (4 * m);
  }
  dut->m_req_i = req;
  dut->m_we_i = we;
  dut->m_be_i = be;
}

void drive_slaves() {
  uint32_t gnt = 0, rv = 0, er = 0;
  for (unsigned s = 0; s < SB_SLAVES; s++) {
    Slave &y = slv[s];
    bool resp = y.busy && y.left == 0;
    if (resp) { rv |= 1u << s; if (y.err) er |= 1u << s; }
    dut->s_rdata_i[s] = resp ? y.rdata : 0xBAD0BAD0u;
    if ((!y.busy || resp) && env.pct(gnt_pct)) gnt |= 1u << s;
  }
  dut->s_gnt_i = gnt;
  dut->s_rvalid_i = rv;
  dut->s_err_i = er;
}

void step() {
  dut->clk_i = 0;
  drive_masters();
  drive_slaves();
  dut->eval();
  tb::Scenario &s = *cur;
  // ---- responses to the masters
  for (unsigned m = 0; m < kMst; m++) {
    Master &x = mst[m];
    if (!((dut->m_rvalid_o >> m) & 1)) {
      s.check(x.st != Master::kWait || cyc - x.since < 2000, "master %u: no response in 2000 cycles", m);
      continue;
    }
    if (!s.check(x.st == Master::kWait, "master %u: response without a granted request", m)) continue;
    int err = (dut->m_err_o >> m) & 1;
    int want_err = sysbus_ref_err(x.addr, x.we);
    s.check(err == want_err, "master %u %s 0x%08x: err %d, expected %d", m, x.we ? "write" : "read", x.addr,
            err, want_err);
    uint32_t w = x.addr & ~3u;
    if (!x.we && !want_err) {
      uint32_t want = sysbus_ref_decode(x.addr, 0) == SB_ROM ? sysbus_ref_rom_word(w) : ref_mem[w];
      uint32_t got = get32(dut->m_rdata_o, m);
      s.check(got == want, "master %u read 0x%08x = 0x%08x, expected 0x%08x", m, x.addr, got, want);
    }
    if (x.we && !want_err) ref_mem[w] = sysbus_ref_merge(ref_mem[w], x.wdata, x.be);
    x.errs += err;
    x.done++;
    x.st = Master::kIdle;
  }
  // ---- grants and what the slaves see
  bool accepted[SB_SLAVES] = {};
  unsigned granted_on[SB_SLAVES + 1] = {};
  for (unsigned sl = 0; sl < SB_SLAVES; sl++)
    accepted[sl] = ((dut->s_req_o >> sl) & 1) && ((dut->s_gnt_i >> sl) & 1);
  for (unsigned m = 0; m < kMst; m++) {
    if (!((dut->m_gnt_o >> m) & 1)) continue;
    Master &x = mst[m];
    if (!s.check(x.st == Master::kReq, "master %u: gnt without a request", m)) continue;
    int sl = sysbus_ref_decode(x.addr, x.we);
    granted_on[sl]++;
    if (sl != SB_ERR) {
      s.check(accepted[sl], "master %u: gnt for 0x%08x but slave %d did not accept", m, x.addr, sl);
      uint32_t sa = get32(dut->s_addr_o, sl), sw = get32(dut->s_wdata_o, sl);
      unsigned swe = (dut->s_we_o >> sl) & 1, sbe = (dut->s_be_o >> (4 * sl)) & 0xF;
      s.check(sa == x.addr && swe == x.we && sbe == x.be && (!x.we || sw == x.wdata),
              "slave %d got addr 0x%08x we %u be 0x%x wdata 0x%08x, master %u sent 0x%08x %d 0x%x 0x%08x", sl,
              sa, swe, sbe, sw, m, x.addr, x.we, x.be, x.wdata);
      Slave &y = slv[sl];
      uint32_t w = x.addr & ~3u;
      y.err = sysbus_ref_slave_err(sl, x.addr);
      if (sl == SB_ROM) y.rdata = sysbus_ref_rom_word(w);
      else if (x.we && !y.err) y.mem[w] = sysbus_ref_merge(y.mem[w], x.wdata, x.be);
      else y.rdata = y.mem[w];
    }
    x.st = Master::kWait;
    x.since = cyc;
    x.grants++;
    x.waited = 0;
  }
  for (unsigned sl = 0; sl < SB_SLAVES; sl++) {
    s.check(!accepted[sl] || granted_on[sl] == 1, "slave %u accepted a request no master was granted", sl);
    s.check(granted_on[sl] <= 1, "%u masters granted on slave %u in one cycle", granted_on[sl], sl);
  }
  s.check(granted_on[SB_ERR] <= 1, "%u masters granted on the error slave in one cycle", granted_on[SB_ERR]);
  // round robin: a waiting master sees at most kMst-1 grants to others on its slave
  for (unsigned m = 0; m < kMst; m++) {
    Master &x = mst[m];
    if (x.st != Master::kReq) continue;
    int sl = sysbus_ref_decode(x.addr, x.we);
    if (granted_on[sl]) {
      x.waited++;
      s.check(x.waited <= kMst - 1, "master %u passed over %u times on slave %d", m, x.waited, sl);
    }
  }
  // ---- clock edge
  dut->clk_i = 1;
  dut->eval();
  cyc++;
  for (unsigned sl = 0; sl < SB_SLAVES; sl++) {
    Slave &y = slv[sl];
    if (y.busy && y.left == 0) y.busy = false;
    else if (y.busy) y.left--;
    if (accepted[sl]) {
      y.busy = true;
      y.left = env.below(lat_max);   // response 1..lat_max cycles after the grant
      y.accepted++;
    }
  }
  for (unsigned m = 0; m < kMst; m++) {
    Master &x = mst[m];
    if (x.st == Master::kIdle && pick && env.pct(req_pct)) {
      pick(m, x);
      x.st = Master::kReq;
      x.waited = 0;
    }
  }
}

void reset(tb::Scenario &s, tb::Rng &rng) {
  cur = &s;
  env.reseed(rng.next());
  for (auto &x : mst) x = Master();
  for (auto &y : slv) y = Slave();
  ref_mem.clear();
  pick = nullptr;
  dut->rst_ni = 0;
  for (int i = 0; i < 3; i++) step();
  dut->rst_ni = 1;
}
void run_cycles(unsigned n) { for (unsigned i = 0; i < n; i++) step(); }
void drain() {   // no new requests; let the outstanding ones finish
  auto p = pick;
  pick = nullptr;
  for (int i = 0; i < 3000; i++) {
    bool busy = false;
    for (auto &x : mst) busy |= x.st != Master::kIdle;
    if (!busy) break;
    step();
  }
  for (unsigned m = 0; m < kMst; m++) cur->check(mst[m].st == Master::kIdle, "master %u never finished", m);
  pick = p;
}

// ---- address choices: master m uses words whose index is m modulo kMst, so
// that every master's reads have one expected value
uint32_t own_word(uint32_t base, unsigned m, unsigned words) {
  return base + 4 * (kMst * env.below(words / kMst) + m);
}
uint32_t random_access(unsigned m, Master &x) {
  switch (env.below(11)) {
    case 0: x.we = env.pct(20); return own_word(TESSERA_BOOTROM_BASE, m, TESSERA_BOOTROM_BYTES / 4);
    case 1: return TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES + 4 * env.below(1024);   // past the ROM
    case 2: return own_word(TESSERA_ISRAM_BASE, m, 96);
    case 3: return own_word(TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES - 384, m, 96);
    case 4: return own_word(TESSERA_DSRAM_BASE, m, 96);
    case 5: return own_word(0x20000000u + (env.below(2) << 28) + (env.below(16) << 16), m, 96);
    case 6: return own_word(TESSERA_HBM_BASE + (env.below(4) << 24), m, 96);
    case 7: return own_word(TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 384, m, 96);
    case 8: return TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES + 4 * env.below(1u << 20);  // hole
    case 9: return 0x40000000u + (env.next() & 0x3FFFFFFCu);                            // hole
    default: return TESSERA_HBM_BASE + TESSERA_HBM_SIZE + (env.next() & 0x3FFFFFFCu);  // hole
  }
}
void pick_random(unsigned m, Master &x) {
  x.we = env.pct(50);
  x.addr = random_access(m, x);
  x.be = x.we ? env.range(1, 15) : 0xF;
  x.wdata = env.next();
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  tb::Run run("sysbus", argc, argv);
  dut = new Vtb_sysbus_top;

  run.scenario("decode_map", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    gnt_pct = 100;
    lat_max = 1;
    req_pct = 100;
    // one master, one access at a time, at the edges of every region
    struct A { uint32_t addr; bool we; int slave; };
    const A list[] = {
        {TESSERA_BOOTROM_BASE, false, SB_ROM},
        {TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES - 4, false, SB_ROM},
        {TESSERA_BOOTROM_BASE, true, SB_ERR},
        {TESSERA_BOOTROM_BASE + TESSERA_BOOTROM_BYTES, false, SB_ERR},
        {TESSERA_ISRAM_BASE - 4, false, SB_ERR},
        {TESSERA_ISRAM_BASE, true, SB_ISRAM},
        {TESSERA_ISRAM_BASE + TESSERA_ISRAM_BYTES - 4, true, SB_ISRAM},
        {TESSERA_DSRAM_BASE, true, SB_DSRAM},
        {TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES - 4, false, SB_DSRAM},
        {TESSERA_DSRAM_BASE + TESSERA_DSRAM_BYTES, false, SB_ERR},
        {0x1FFFFFFCu, true, SB_ERR},
        {0x20000000u, true, SB_CSR},
        {TESSERA_UART_BASE, false, SB_CSR},
        {0x3FFFFFFCu, false, SB_CSR},
        {0x40000000u, false, SB_ERR},
        {TESSERA_HBM_BASE - 4, true, SB_ERR},
        {TESSERA_HBM_BASE, true, SB_HBM},
        {TESSERA_HBM_BASE + TESSERA_HBM_SIZE - 4, false, SB_HBM},
        {TESSERA_HBM_BASE + TESSERA_HBM_SIZE, false, SB_ERR},
        {0xFFFFFFFCu, true, SB_ERR},
    };
    for (const A &a : list) {
      s.eq(sysbus_ref_decode(a.addr, a.we), a.slave, "reference decode of a listed address");
      unsigned before[SB_SLAVES];
      for (unsigned k = 0; k < SB_SLAVES; k++) before[k] = slv[k].accepted;
      Master &x = mst[0];
      x.addr = a.addr; x.we = a.we; x.be = 0xF; x.wdata = rng.next();
      x.st = Master::kReq;
      unsigned done = x.done;
      for (int i = 0; i < 20 && x.done == done; i++) step();
      s.check(x.done == done + 1, "access to 0x%08x did not complete", a.addr);
      for (unsigned k = 0; k < SB_SLAVES; k++)
        s.check(slv[k].accepted - before[k] == (int(k) == a.slave ? 1u : 0u),
                "%s 0x%08x: slave %u saw %u requests", a.we ? "write" : "read", a.addr, k,
                slv[k].accepted - before[k]);
      // the error slave, or the testbench's CSR/HBM slave refusing this address
      s.eq(x.errs, sysbus_ref_err(a.addr, a.we), "error responses");
      x.errs = 0;
    }
  });

  run.scenario("random_three_masters", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    req_pct = 70; gnt_pct = 60; lat_max = 4;
    pick = pick_random;
    run_cycles(30000);
    drain();
    unsigned total = 0, errs = 0;
    for (auto &x : mst) { total += x.done; errs += x.errs; }
    s.check(total > 6000, "only %u accesses completed", total);
    s.check(errs > total / 10 && errs < total / 2, "%u error responses of %u: the mix is off", errs, total);
    for (unsigned k = 0; k < SB_SLAVES; k++) s.check(slv[k].accepted > 100, "slave %u saw %u requests", k, slv[k].accepted);
  });

  run.scenario("hotspot_round_robin", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    req_pct = 100; gnt_pct = 100; lat_max = 1;
    pick = [](unsigned m, Master &x) {
      x.we = env.pct(50);
      x.addr = own_word(TESSERA_DSRAM_BASE, m, 192);
      x.be = 0xF;
      x.wdata = env.next();
    };
    run_cycles(6000);
    drain();
    unsigned total = mst[0].done + mst[1].done + mst[2].done;
    for (unsigned m = 0; m < kMst; m++)
      s.check(mst[m].done * 10 > total * 3, "master %u got %u of %u accesses to one slave", m, mst[m].done, total);
    // one slave answering every cycle serves about one access per cycle in total
    s.check(total > 6000 * 8 / 10, "%u accesses in 6000 cycles to a single-cycle slave", total);
  });

  run.scenario("slow_slaves_and_errors", [&](tb::Scenario &s, tb::Rng &rng) {
    reset(s, rng);
    req_pct = 100; gnt_pct = 25; lat_max = 12;
    pick = pick_random;
    run_cycles(20000);
    drain();
    unsigned total = mst[0].done + mst[1].done + mst[2].done;
    s.check(total > 1000, "only %u accesses completed", total);
  });

  int rc = run.finish();
  delete dut;
  return rc;
}
