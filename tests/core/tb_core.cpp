// Tessera core-only testbench (Verilator).
//
// Runs one RV32 ELF program on tessera_core with:
//   * an OBI memory model per port: RAM at 0x1000_0000 (RAM_BYTES, like
//     ISRAM+DSRAM), a 3-instruction boot stub at 0x0000_0000 that jumps to the
//     ELF entry, every other address answers with err (access-fault tests);
//     --seed N != 0 randomizes gnt and rvalid delays reproducibly.
//   * a test device at 0x2000_F000 (see docs/core.md) that drives the interrupt
//     inputs after a programmable delay, reads the cycle count and prints chars.
//   * the tohost convention: the program stores to symbol `tohost`;
//     1 = pass, otherwise (value >> 1) = number of the failing check.
//   * OBI protocol checks (stable request until gnt, one outstanding, one
//     response per request) and a cycle limit with a diagnostic.
//   * a lockstep reference model (tests/core/rv32_iss.h): every retired
//     instruction's pc and instruction word, the whole register file after it
//     and every store are compared; when the core takes an interrupt the
//     model checks it was enabled and precise, then takes it too.
//   * --irq-rate N: raise a random interrupt line with probability N/1000 per
//     cycle while all lines are low (for random programs whose handler
//     lowers the lines through the test device).
//
// Usage: tb_core ELF [--seed N] [--max-cycles N] [--irq-rate N] [--name NAME] [--no-iss] [-v]
// Prints one line: "<name> cycles=<c> instret=<i> cpi=<x> PASS|FAIL ..."
// and exits 0 on pass.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vtessera_core.h"
#include "verilated.h"
#include "rv32_iss.h"
#ifndef TB_NETLIST
#include "Vtessera_core___024root.h"

// register file contents (Verilator --public-flat-rw view of u_regfile.regs_q)
static const uint32_t* core_regs(Vtessera_core* top) {
  return top->rootp->tb_core_top__DOT__u_core__DOT__u_regfile__DOT__regs_q.data();
}
// interrupt entry in this cycle (internal trap signals)
static bool core_irq_entry(Vtessera_core* top, uint32_t* cause, uint32_t* pc) {
  *cause = top->rootp->tb_core_top__DOT__u_core__DOT__trap_cause;
  *pc = top->rootp->tb_core_top__DOT__u_core__DOT__trap_pc;
  return top->rootp->tb_core_top__DOT__u_core__DOT__trap && top->rootp->tb_core_top__DOT__u_core__DOT__trap_irq;
}
#else
// gate-level netlist build (-DTB_NETLIST): no internal visibility, no model
static const uint32_t* core_regs(Vtessera_core*) { static uint32_t z[32]; return z; }
static bool core_irq_entry(Vtessera_core*, uint32_t*, uint32_t*) { return false; }
#endif

static const uint32_t kRamBase = 0x10000000u;
static const uint32_t kRamBytes = 128 * 1024;
static const uint32_t kTdevBase = 0x2000F000u;
// error responses (unmapped addresses) come this many cycles later than
// normal ones, like a bus error from the system bus: younger instructions
// then sit in the pipeline while the fault is pending
static const int kErrExtraLatency = 3;
// test device registers (offsets)
static const uint32_t kTdevIrq = 0x00;     // W: bit0 software, bit1 timer, bit2 external (after DELAY)
static const uint32_t kTdevDelay = 0x04;   // RW: cycles between an IRQ write and the lines changing
static const uint32_t kTdevCycle = 0x08;   // R: testbench cycle counter
static const uint32_t kTdevPutc = 0x0C;    // W: print a character

// ------------------------------------------------------------------ ELF32 reader
struct Elf {
  std::vector<uint8_t> data;
  uint32_t entry = 0;
  bool ok = false;
  std::string err;

  uint16_t u16(size_t o) const { return data[o] | (data[o + 1] << 8); }
  uint32_t u32(size_t o) const {
    return data[o] | (data[o + 1] << 8) | (data[o + 2] << 16) | ((uint32_t)data[o + 3] << 24);
  }

  bool load(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) { err = "cannot open"; return false; }
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
    fclose(f);
    if (data.size() < 52 || memcmp(data.data(), "\x7f" "ELF", 4) != 0) { err = "not an ELF"; return false; }
    if (data[4] != 1 || data[5] != 1) { err = "not ELF32 little-endian"; return false; }
    if (u16(18) != 243) { err = "not RISC-V"; return false; }
    entry = u32(24);
    ok = true;
    return true;
  }

  // calls fn(paddr, bytes, filesz, memsz) for each PT_LOAD segment
  template <typename F> void segments(F fn) const {
    uint32_t phoff = u32(28);
    uint16_t phentsize = u16(42), phnum = u16(44);
    for (unsigned i = 0; i < phnum; i++) {
      size_t p = phoff + (size_t)i * phentsize;
      if (u32(p) != 1) continue;  // PT_LOAD
      uint32_t off = u32(p + 4), paddr = u32(p + 12), filesz = u32(p + 16), memsz = u32(p + 20);
      fn(paddr, &data[off], filesz, memsz);
    }
  }

  // value of a symbol from .symtab, or false
  bool symbol(const char* name, uint32_t* value) const {
    uint32_t shoff = u32(32);
    uint16_t shentsize = u16(46), shnum = u16(48);
    for (unsigned i = 0; i < shnum; i++) {
      size_t s = shoff + (size_t)i * shentsize;
      if (u32(s + 4) != 2) continue;  // SHT_SYMTAB
      uint32_t off = u32(s + 16), size = u32(s + 20), link = u32(s + 24), entsize = u32(s + 36);
      size_t strtab = shoff + (size_t)link * shentsize;
      uint32_t stroff = u32(strtab + 16);
      for (uint32_t e = 0; e + entsize <= size; e += entsize) {
        uint32_t nm = u32(off + e);
        if (strcmp((const char*)&data[stroff + nm], name) == 0) {
          *value = u32(off + e + 4);
          return true;
        }
      }
    }
    return false;
  }
};

// ------------------------------------------------------------------ memory
struct Memory {
  std::vector<uint8_t> ram = std::vector<uint8_t>(kRamBytes, 0);
  uint32_t boot[3] = {0, 0, 0};

  bool in_ram(uint32_t a) const { return a >= kRamBase && a - kRamBase < kRamBytes; }
  bool in_boot(uint32_t a) const { return a < sizeof boot; }

  bool read(uint32_t a, uint32_t* v) const {
    a &= ~3u;
    if (in_ram(a)) {
      const uint8_t* p = &ram[a - kRamBase];
      *v = p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
      return true;
    }
    if (in_boot(a)) { *v = boot[a / 4]; return true; }
    return false;
  }
  bool write(uint32_t a, uint32_t v, unsigned be) {
    a &= ~3u;
    if (!in_ram(a)) return false;
    for (int i = 0; i < 4; i++)
      if (be & (1u << i)) ram[a - kRamBase + i] = (v >> (8 * i)) & 0xff;
    return true;
  }
};

// ------------------------------------------------------------------ OBI slave port model
struct Resp {
  uint64_t due;
  uint32_t rdata;
  bool err;
};

struct ObiPort {
  const char* name;
  std::mt19937* rng;
  bool random;
  // outstanding responses
  std::deque<Resp> q;
  // gnt delay for the current request
  int gnt_wait = -1;
  // previous-cycle request (protocol check)
  bool prev_req_pending = false;
  uint32_t prev_addr = 0, prev_wdata = 0;
  unsigned prev_be = 0;
  bool prev_we = false;
  uint64_t accepted = 0, responded = 0;

  int rand_gnt_delay() {
    if (!random) return 0;
    unsigned r = (*rng)() % 8;
    return r < 4 ? 0 : (int)(r - 3);  // 0 (50%) .. 4
  }
  int rand_latency() {
    if (!random) return 1;
    unsigned r = (*rng)() % 8;
    return r < 4 ? 1 : (int)(r - 2);  // 1 (50%) .. 5
  }
};

// ------------------------------------------------------------------ testbench
struct Tb {
  Vtessera_core* top;
  Memory mem;
  std::mt19937 rng;
  ObiPort iport, dport;
  uint64_t cycle = 0;
  uint64_t instret = 0;
  uint32_t tohost = 0;
  bool have_tohost = false;
  bool done = false;
  uint32_t tohost_value = 0;
  std::string fail_reason;
  bool verbose = false;
  // test device
  uint32_t irq_lines = 0, irq_next = 0, irq_delay = 0;
  int64_t irq_apply_at = -1;
  bool tdev_used = false;
  unsigned irq_rate = 0;
  uint64_t irqs_taken = 0;
  // trace ring
  struct Ret { uint64_t cyc; uint32_t pc, insn; };
  std::deque<Ret> last;
  // lockstep reference model
  bool use_iss = true;
  Iss iss;
  std::string console;

  explicit Tb(uint32_t seed) : rng(seed) {
    top = new Vtessera_core;
    iport.name = "instr";
    dport.name = "data";
    iport.rng = dport.rng = &rng;
    iport.random = dport.random = (seed != 0);
  }

  void fail(const std::string& why) {
    if (fail_reason.empty()) fail_reason = why;
    done = true;
  }

  void eval_inputs_resp(ObiPort& p, uint8_t& rvalid, uint32_t& rdata, uint8_t& err) {
    if (!p.q.empty() && p.q.front().due <= cycle) {
      rvalid = 1;
      rdata = p.q.front().rdata;
      err = p.q.front().err;
    } else {
      rvalid = 0;
      rdata = 0xdeadbeef;  // garbage when not valid
      err = 0;
    }
  }

  // decide gnt for this cycle (after req is known)
  bool decide_gnt(ObiPort& p, bool req) {
    if (!req) { p.gnt_wait = -1; return p.random ? (rng() & 1) : 0; }  // gnt without req is legal noise
    if (p.gnt_wait < 0) p.gnt_wait = p.rand_gnt_delay();
    if (p.gnt_wait == 0) { p.gnt_wait = -1; return true; }
    p.gnt_wait--;
    return false;
  }

  void check_stable(ObiPort& p, bool req, uint32_t addr, bool we, unsigned be, uint32_t wdata, bool gnt) {
    if (p.prev_req_pending) {
      if (!req) fail(std::string(p.name) + ": req withdrawn before gnt");
      else if (addr != p.prev_addr || we != p.prev_we || (we && (be != p.prev_be || wdata != p.prev_wdata)))
        fail(std::string(p.name) + ": request changed before gnt");
    }
    p.prev_req_pending = req && !gnt;
    p.prev_addr = addr; p.prev_we = we; p.prev_be = be; p.prev_wdata = wdata;
  }

  uint32_t tdev_read(uint32_t off) {
    switch (off) {
      case kTdevIrq: return irq_lines;
      case kTdevDelay: return irq_delay;
      case kTdevCycle: return (uint32_t)cycle;
      default: return 0;
    }
  }
  void tdev_write(uint32_t off, uint32_t v) {
    switch (off) {
      case kTdevIrq: irq_next = v & 7; irq_apply_at = cycle + irq_delay; break;
      case kTdevDelay: irq_delay = v; break;
      case kTdevPutc: console.push_back((char)v); if (verbose) putchar((int)v); break;
      default: break;
    }
  }

  // data access at accept time; returns response
  Resp data_access(uint32_t addr, bool we, unsigned be, uint32_t wdata) {
    Resp r{0, 0, false};
    if (addr >= kTdevBase && addr < kTdevBase + 0x100) {
      tdev_used = true;
      if (we) tdev_write(addr - kTdevBase, wdata);
      else r.rdata = tdev_read(addr - kTdevBase);
      return r;
    }
    if (we) {
      if (!mem.write(addr, wdata, be)) r.err = true;
      if (!r.err && have_tohost && (addr & ~3u) == tohost) {
        tohost_value = wdata;
        done = true;
      }
    } else {
      if (!mem.read(addr, &r.rdata)) r.err = true;
    }
    return r;
  }

  void step() {
    // apply delayed interrupt line changes
    if (irq_apply_at >= 0 && (uint64_t)irq_apply_at <= cycle) { irq_lines = irq_next; irq_apply_at = -1; }
    if (irq_rate && irq_lines == 0 && irq_apply_at < 0 && rng() % 1000 < irq_rate) irq_lines = 1u << (rng() % 3);
    top->irq_software_i = irq_lines & 1;
    top->irq_timer_i = (irq_lines >> 1) & 1;
    top->irq_external_i = (irq_lines >> 2) & 1;

    top->clk_i = 0;
    eval_inputs_resp(iport, top->instr_rvalid_i, top->instr_rdata_i, top->instr_err_i);
    eval_inputs_resp(dport, top->data_rvalid_i, top->data_rdata_i, top->data_err_i);
    top->instr_gnt_i = 0;
    top->data_gnt_i = 0;
    top->eval();
    bool ireq = top->instr_req_o, dreq = top->data_req_o;
    bool igr = decide_gnt(iport, ireq), dgr = decide_gnt(dport, dreq);
    top->instr_gnt_i = igr;
    top->data_gnt_i = dgr;
    top->eval();
    if ((bool)top->instr_req_o != ireq || (bool)top->data_req_o != dreq) fail("req depends on gnt");

    check_stable(iport, ireq, top->instr_addr_o, false, 0, 0, igr);
    check_stable(dport, dreq, top->data_addr_o, top->data_we_o, top->data_be_o, top->data_wdata_o, dgr);

    // retirement
    if (top->trace_valid_o) {
      instret++;
      last.push_back({cycle, top->trace_pc_o, top->trace_insn_o});
      if (last.size() > 16) last.pop_front();
      if (verbose) printf("%8llu  %08x  %08x\n", (unsigned long long)cycle, top->trace_pc_o, top->trace_insn_o);
      if (use_iss) iss_check_retire(top->trace_pc_o, top->trace_insn_o);
    }
    // interrupt entry (after the older instruction retiring in this cycle)
    uint32_t irq_cause, irq_pc;
    if (core_irq_entry(top, &irq_cause, &irq_pc)) {
      irqs_taken++;
      if (use_iss && !done) iss_interrupt(irq_cause, irq_pc);
    }

    // responses delivered this cycle
    bool irv = top->instr_rvalid_i, drv = top->data_rvalid_i;
    // one outstanding per port: a new accept is legal only if none remains after this cycle
    if (ireq && igr) {
      if (iport.q.size() > (irv ? 1u : 0u)) fail("instr: second outstanding request");
      uint32_t a = top->instr_addr_o;
      Resp r{0, 0, false};
      if (a & 3) fail("instr: misaligned fetch address");
      if (!mem.read(a, &r.rdata)) r.err = true;
      r.due = cycle + iport.rand_latency() + (r.err ? kErrExtraLatency : 0);
      iport.q.push_back(r);
      iport.accepted++;
    }
    // precise bus errors: no data request while an error response arrives
    if (drv && top->data_err_i && dreq) fail("data: request issued in the cycle of an error response");
    if (dreq && dgr) {
      if (dport.q.size() > (drv ? 1u : 0u)) fail("data: second outstanding request");
      uint32_t a = top->data_addr_o;
      if (a & 3) fail("data: address not word aligned");
      unsigned be = top->data_be_o;
      if (be == 0) fail("data: empty byte enable");
      Resp r = data_access(a, top->data_we_o, be, top->data_wdata_o);
      r.due = cycle + dport.rand_latency() + (r.err ? kErrExtraLatency : 0);
      dport.q.push_back(r);
      dport.accepted++;
      if (use_iss && top->data_we_o && !r.err) core_stores.push_back({a, be, top->data_wdata_o});
    }

    top->clk_i = 1;
    top->eval();
    if (irv) { iport.q.pop_front(); iport.responded++; }
    if (drv) { dport.q.pop_front(); dport.responded++; }
    if (pending_check) iss_compare_regs();
    cycle++;
  }

  // ---- lockstep reference model
  // The ISS executes one instruction per core retirement; synchronous traps
  // (which the core does not retire) are taken by the ISS on the way.
  bool pending_check = false;
  IssStep pending_step;
  struct St { uint32_t a; unsigned be; uint32_t d; };
  std::deque<St> core_stores;
  uint64_t iss_checked = 0;

  void iss_check_retire(uint32_t pc, uint32_t insn) {
    IssStep s;
    int guard = 0;
    do {
      s = iss.step();
      if (++guard > 4) { fail("iss: repeated traps without retirement"); return; }
    } while (s.trapped);
    char buf[200];
    if (s.pc != pc || s.insn != insn) {
      snprintf(buf, sizeof buf, "iss mismatch: core retired pc=%08x insn=%08x, model pc=%08x insn=%08x",
               pc, insn, s.pc, s.insn);
      fail(buf);
      return;
    }
    if (s.store) {
      if (core_stores.empty()) {
        snprintf(buf, sizeof buf, "iss mismatch: store at pc=%08x retired but none seen on the bus", pc);
        fail(buf);
        return;
      }
      St c = core_stores.front();
      core_stores.pop_front();
      uint32_t m = 0;
      for (int i = 0; i < 4; i++) if (c.be & (1u << i)) m |= 0xffu << (8 * i);
      if (c.a != s.st_addr || c.be != s.st_be || (c.d & m) != (s.st_data & m)) {
        snprintf(buf, sizeof buf, "iss mismatch: store pc=%08x core %08x/%x/%08x model %08x/%x/%08x", pc, c.a,
                 c.be, c.d, s.st_addr, s.st_be, s.st_data);
        fail(buf);
        return;
      }
    } else if (!core_stores.empty()) {
      snprintf(buf, sizeof buf, "iss mismatch: bus store %08x without a retired store (pc=%08x)",
               core_stores.front().a, pc);
      fail(buf);
      return;
    }
    pending_step = s;
    pending_check = true;
  }

  void iss_interrupt(uint32_t cause, uint32_t pc) {
    char buf[200];
    unsigned line = cause == 3 ? 1 : cause == 7 ? 2 : cause == 11 ? 4 : 0;
    if (!(irq_lines & line)) {
      snprintf(buf, sizeof buf, "interrupt %u taken but its line is low", cause);
      fail(buf);
    } else if (!iss.irq_enabled(cause)) {
      snprintf(buf, sizeof buf, "interrupt %u taken at pc=%08x but the model has it disabled", cause, pc);
      fail(buf);
    } else if (iss.pc != pc) {
      snprintf(buf, sizeof buf, "imprecise interrupt: core mepc=%08x, model next pc=%08x", pc, iss.pc);
      fail(buf);
    } else {
      iss.interrupt(cause);
    }
  }

  // after the clock edge of the retirement: whole register file must match
  void iss_compare_regs() {
    pending_check = false;
    const uint32_t* regs = core_regs(top);
    if (pending_step.rd_unknown && pending_step.rd) iss.x[pending_step.rd] = regs[pending_step.rd];
    for (int r = 1; r < 32; r++) {
      if (regs[r] != iss.x[r]) {
        char buf[200];
        snprintf(buf, sizeof buf, "iss mismatch after pc=%08x insn=%08x: x%d core=%08x model=%08x",
                 pending_step.pc, pending_step.insn, r, regs[r], iss.x[r]);
        fail(buf);
        return;
      }
    }
    iss_checked++;
  }
};

static void usage() {
  fprintf(stderr, "usage: tb_core ELF [--seed N] [--max-cycles N] [--name NAME] [--no-iss] [-v]\n");
  exit(2);
}

int main(int argc, char** argv) {
  const char* elf_path = nullptr;
  uint32_t seed = 0;
  uint64_t max_cycles = 2000000;
  std::string name;
  bool verbose = false, no_iss = false;
  unsigned irq_rate = 0;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = strtoul(argv[++i], nullptr, 0);
    else if (a == "--max-cycles" && i + 1 < argc) max_cycles = strtoull(argv[++i], nullptr, 0);
    else if (a == "--name" && i + 1 < argc) name = argv[++i];
    else if (a == "--no-iss") no_iss = true;
    else if (a == "--irq-rate" && i + 1 < argc) irq_rate = strtoul(argv[++i], nullptr, 0);
    else if (a == "-v") verbose = true;
    else if (a[0] == '-') usage();
    else elf_path = argv[i];
  }
  if (!elf_path) usage();
  if (name.empty()) {
    name = elf_path;
    size_t s = name.rfind('/');
    if (s != std::string::npos) name = name.substr(s + 1);
  }

  Verilated::commandArgs(1, argv);
  Elf elf;
  if (!elf.load(elf_path)) {
    printf("%s FAIL (elf: %s)\n", name.c_str(), elf.err.c_str());
    return 1;
  }
  Tb tb(seed);
  tb.verbose = verbose;
  tb.use_iss = !no_iss;
#ifdef TB_NETLIST
  tb.use_iss = false;
#endif
  tb.irq_rate = irq_rate;
  tb.iss.is_io = [](uint32_t a) { return a >= kTdevBase && a < kTdevBase + 0x100; };
  bool seg_ok = true;
  elf.segments([&](uint32_t pa, const uint8_t* d, uint32_t fsz, uint32_t msz) {
    for (uint32_t i = 0; i < msz; i++) {
      uint32_t a = pa + i;
      if (!tb.mem.in_ram(a)) { seg_ok = false; return; }
      tb.mem.ram[a - kRamBase] = i < fsz ? d[i] : 0;
    }
  });
  if (!seg_ok) {
    printf("%s FAIL (elf segment outside RAM 0x%08x..0x%08x)\n", name.c_str(), kRamBase, kRamBase + kRamBytes);
    return 1;
  }
  tb.have_tohost = elf.symbol("tohost", &tb.tohost);
  if (!tb.have_tohost) {
    printf("%s FAIL (no tohost symbol)\n", name.c_str());
    return 1;
  }
  // boot stub at 0: lui t0, %hi(entry); addi t0, t0, %lo(entry); jalr x0, 0(t0)
  uint32_t e = elf.entry, hi = (e + 0x800) & 0xfffff000u, lo = e - hi;
  tb.mem.boot[0] = hi | (5 << 7) | 0x37;
  tb.mem.boot[1] = ((lo & 0xfff) << 20) | (5 << 15) | (5 << 7) | 0x13;
  tb.mem.boot[2] = (5 << 15) | 0x67;
  tb.iss.reset(0, [&](uint32_t a, uint32_t* v) { return tb.mem.read(a, v); });

  Vtessera_core* top = tb.top;
  top->rst_ni = 0;
  top->clk_i = 0;
  top->instr_gnt_i = top->data_gnt_i = 0;
  top->instr_rvalid_i = top->data_rvalid_i = 0;
  top->eval();
  top->clk_i = 1;
  top->eval();
  top->rst_ni = 1;
  top->eval();

  while (!tb.done && tb.cycle < max_cycles) tb.step();

  double cpi = tb.instret ? (double)tb.cycle / (double)tb.instret : 0.0;
  bool pass = tb.fail_reason.empty() && tb.done && tb.tohost_value == 1;
  // protocol: every accepted request must have been answered (except in-flight at the end)
  printf("%-28s cycles=%-8llu instret=%-8llu cpi=%.3f iss_checked=%-8llu irqs=%-4llu seed=%u %s", name.c_str(),
         (unsigned long long)tb.cycle, (unsigned long long)tb.instret, cpi,
         (unsigned long long)tb.iss_checked, (unsigned long long)tb.irqs_taken, seed, pass ? "PASS" : "FAIL");
  if (!pass) {
    if (!tb.fail_reason.empty()) printf(" (%s)", tb.fail_reason.c_str());
    else if (!tb.done) printf(" (cycle limit %llu reached)", (unsigned long long)max_cycles);
    else printf(" (tohost=0x%x: check %u failed)", tb.tohost_value, tb.tohost_value >> 1);
    printf("\n  last retired instructions (cycle pc insn):\n");
    for (auto& r : tb.last) printf("    %8llu %08x %08x\n", (unsigned long long)r.cyc, r.pc, r.insn);
    printf("  fetch addr=%08x req=%d  data addr=%08x req=%d\n", top->instr_addr_o, top->instr_req_o,
           top->data_addr_o, top->data_req_o);
  }
  printf("\n");
  if (!tb.console.empty() && !verbose) printf("  console: %s\n", tb.console.c_str());
  top->final();
  delete top;
  return pass ? 0 : 1;
}
