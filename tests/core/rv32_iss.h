// Tessera core reference model: a small RV32IM + Zicsr machine-mode
// instruction-set simulator, used by tb_core in lockstep with the RTL.
// It models synchronous exceptions exactly (cause, mepc, mtval). Interrupts
// are injected by the testbench when the core takes one (interrupt()), after
// checking that the model agrees they are enabled and that the core stopped
// at the model's next instruction. Values the model cannot know take the
// core's value (IssStep::rd_unknown): reads of mcycle/cycle[h] and mip, and
// loads from I/O addresses (is_io, e.g. the test device).
#pragma once
#include <cstdint>
#include <functional>

struct IssStep {
  uint32_t pc = 0, insn = 0;
  bool trapped = false;       // the instruction trapped (not retired)
  bool store = false;         // retired a store: address/be/data below
  uint32_t st_addr = 0, st_data = 0;
  unsigned st_be = 0;
  unsigned rd = 0;            // register written (0 = none)
  bool rd_unknown = false;    // value not modelled (cycle counter)
};

class Iss {
 public:
  using ReadFn = std::function<bool(uint32_t, uint32_t*)>;
  std::function<bool(uint32_t)> is_io = [](uint32_t) { return false; };
  uint32_t x[32] = {0};
  uint32_t pc = 0;
  // CSR state
  bool mie_bit = false, mpie = false;
  uint32_t mie = 0, mtvec = 0, mscratch = 0, mepc = 0, mcause = 0, mtval = 0;
  uint64_t minstret = 0;
  bool instret_skip = false;

  void reset(uint32_t boot, ReadFn rd) {
    pc = boot;
    read_ = rd;
    for (auto& r : x) r = 0;
  }

  IssStep step() {
    IssStep s;
    s.pc = pc;
    uint32_t in;
    if (!read_(pc, &in)) { trap(s, 1, pc); return s; }
    s.insn = in;
    uint32_t op = in & 0x7f, rd = (in >> 7) & 31, f3 = (in >> 12) & 7, rs1 = (in >> 15) & 31,
             rs2 = (in >> 20) & 31, f7 = in >> 25;
    uint32_t a = x[rs1], b = x[rs2];
    int32_t immi = (int32_t)in >> 20;
    int32_t imms = ((int32_t)in >> 25 << 5) | ((in >> 7) & 31);
    int32_t immb = ((int32_t)in >> 31 << 12) | (((in >> 7) & 1) << 11) | (((in >> 25) & 63) << 5) |
                   (((in >> 8) & 15) << 1);
    int32_t immj = ((int32_t)in >> 31 << 20) | (in & 0xff000) | (((in >> 20) & 1) << 11) |
                   (((in >> 21) & 0x3ff) << 1);
    uint32_t immu = in & 0xfffff000u;
    uint32_t next = pc + 4;
    bool wr = false;
    uint32_t val = 0;

    switch (op) {
      case 0x37: wr = true; val = immu; break;
      case 0x17: wr = true; val = pc + immu; break;
      case 0x6f: {
        uint32_t t = pc + immj;
        if (t & 3) { trap(s, 0, t); return s; }
        wr = true; val = pc + 4; next = t;
        break;
      }
      case 0x67: {
        if (f3 != 0) { trap(s, 2, in); return s; }
        uint32_t t = (a + immi) & ~1u;
        if (t & 3) { trap(s, 0, t); return s; }
        wr = true; val = pc + 4; next = t;
        break;
      }
      case 0x63: {
        bool c;
        switch (f3) {
          case 0: c = a == b; break;
          case 1: c = a != b; break;
          case 4: c = (int32_t)a < (int32_t)b; break;
          case 5: c = (int32_t)a >= (int32_t)b; break;
          case 6: c = a < b; break;
          case 7: c = a >= b; break;
          default: trap(s, 2, in); return s;
        }
        if (c) {
          uint32_t t = pc + immb;
          if (t & 3) { trap(s, 0, t); return s; }
          next = t;
        }
        break;
      }
      case 0x03: {
        if (f3 == 3 || f3 >= 6) { trap(s, 2, in); return s; }
        uint32_t ad = a + immi;
        unsigned sz = f3 & 3;
        if ((sz == 1 && (ad & 1)) || (sz == 2 && (ad & 3))) { trap(s, 4, ad); return s; }
        uint32_t w;
        if (is_io(ad)) { w = 0; s.rd_unknown = true; }
        else if (!read_(ad & ~3u, &w)) { trap(s, 5, ad); return s; }
        w >>= 8 * (ad & 3);
        switch (f3) {
          case 0: val = (uint32_t)(int32_t)(int8_t)w; break;
          case 1: val = (uint32_t)(int32_t)(int16_t)w; break;
          case 2: val = w; break;
          case 4: val = w & 0xff; break;
          default: val = w & 0xffff; break;
        }
        wr = true;
        break;
      }
      case 0x23: {
        if (f3 > 2) { trap(s, 2, in); return s; }
        uint32_t ad = a + imms;
        if ((f3 == 1 && (ad & 1)) || (f3 == 2 && (ad & 3))) { trap(s, 6, ad); return s; }
        uint32_t w;
        // a store is valid where a load is (the RAM); the boot stub is read-only
        if (!is_io(ad) && (!read_(ad & ~3u, &w) || (ad & ~3u) < 0x10000000u)) { trap(s, 7, ad); return s; }
        s.store = true;
        s.st_addr = ad & ~3u;
        s.st_be = (f3 == 0 ? 1u : f3 == 1 ? 3u : 15u) << (ad & 3);
        s.st_data = b << (8 * (ad & 3));
        break;
      }
      case 0x13: {
        wr = true;
        uint32_t sh = immi & 31;
        switch (f3) {
          case 0: val = a + immi; break;
          case 2: val = (int32_t)a < immi; break;
          case 3: val = a < (uint32_t)immi; break;
          case 4: val = a ^ immi; break;
          case 6: val = a | immi; break;
          case 7: val = a & immi; break;
          case 1:
            if (f7 != 0) { trap(s, 2, in); return s; }
            val = a << sh; break;
          default:
            if (f7 == 0) val = a >> sh;
            else if (f7 == 0x20) val = (uint32_t)((int32_t)a >> sh);
            else { trap(s, 2, in); return s; }
            break;
        }
        break;
      }
      case 0x33: {
        wr = true;
        if (f7 == 1) {
          int64_t sa = (int32_t)a, sb = (int32_t)b;
          uint64_t ua = a, ub = b;
          switch (f3) {
            case 0: val = a * b; break;
            case 1: val = (uint32_t)((sa * sb) >> 32); break;
            case 2: val = (uint32_t)((uint64_t)(sa * (int64_t)ub) >> 32); break;
            case 3: val = (uint32_t)((ua * ub) >> 32); break;
            case 4:
              val = b == 0 ? 0xffffffffu : (a == 0x80000000u && b == 0xffffffffu) ? a
                    : (uint32_t)((int32_t)a / (int32_t)b);
              break;
            case 5: val = b == 0 ? 0xffffffffu : a / b; break;
            case 6:
              val = b == 0 ? a : (a == 0x80000000u && b == 0xffffffffu) ? 0
                    : (uint32_t)((int32_t)a % (int32_t)b);
              break;
            default: val = b == 0 ? a : a % b; break;
          }
        } else if (f7 == 0) {
          switch (f3) {
            case 0: val = a + b; break;
            case 1: val = a << (b & 31); break;
            case 2: val = (int32_t)a < (int32_t)b; break;
            case 3: val = a < b; break;
            case 4: val = a ^ b; break;
            case 5: val = a >> (b & 31); break;
            case 6: val = a | b; break;
            default: val = a & b; break;
          }
        } else if (f7 == 0x20 && f3 == 0) {
          val = a - b;
        } else if (f7 == 0x20 && f3 == 5) {
          val = (uint32_t)((int32_t)a >> (b & 31));
        } else {
          trap(s, 2, in); return s;
        }
        break;
      }
      case 0x0f:
        if (f3 > 1) { trap(s, 2, in); return s; }
        break;
      case 0x73: {
        if (f3 == 0) {
          if (in == 0x00000073) { trap(s, 11, 0); return s; }
          if (in == 0x00100073) { trap(s, 3, pc); return s; }
          if (in == 0x30200073) { mie_bit = mpie; mpie = true; next = mepc; break; }
          if (in == 0x10500073) break;  // wfi: interrupts are not modelled
          trap(s, 2, in); return s;
        }
        if (f3 == 4) { trap(s, 2, in); return s; }
        uint32_t csr = in >> 20;
        uint32_t src = (f3 & 4) ? rs1 : a;
        bool we = (f3 & 3) == 1 || rs1 != 0;
        uint32_t old;
        bool unknown = false;
        if (!csr_read(csr, &old, &unknown) || (we && (csr >> 10) == 3)) { trap(s, 2, in); return s; }
        if (we) {
          uint32_t nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? (old | src) : (old & ~src);
          csr_write(csr, nv);
        }
        wr = true; val = old;
        s.rd_unknown = unknown;
        break;
      }
      default: trap(s, 2, in); return s;
    }
    if (wr && rd != 0) { x[rd] = val; s.rd = rd; }
    pc = next;
    if (instret_skip) instret_skip = false; else minstret++;
    return s;
  }

  // interrupts enabled for this cause (mstatus.MIE and mie)
  bool irq_enabled(uint32_t cause) const { return mie_bit && (mie & (1u << cause)); }

  // take interrupt `cause` before the next instruction
  void interrupt(uint32_t cause) {
    mepc = pc;
    mcause = 0x80000000u | cause;
    mtval = 0;
    mpie = mie_bit;
    mie_bit = false;
    pc = (mtvec & ~3u) + ((mtvec & 1) ? 4 * cause : 0);
  }

 private:
  ReadFn read_;

  void trap(IssStep& s, uint32_t cause, uint32_t tval) {
    s.trapped = true;
    mepc = pc & ~3u;
    mcause = cause;
    mtval = tval;
    mpie = mie_bit;
    mie_bit = false;
    pc = mtvec & ~3u;
  }

  bool csr_read(uint32_t c, uint32_t* v, bool* unknown) {
    switch (c) {
      case 0x300: *v = (mpie ? 0x80 : 0) | (mie_bit ? 8 : 0) | 0x1800; return true;
      case 0x301: *v = 0x40001100; return true;
      case 0x304: *v = mie; return true;
      case 0x305: *v = mtvec; return true;
      case 0x310: *v = 0; return true;
      case 0x340: *v = mscratch; return true;
      case 0x341: *v = mepc; return true;
      case 0x342: *v = mcause; return true;
      case 0x343: *v = mtval; return true;
      case 0x344: *v = 0; *unknown = true; return true;  // lines sampled by the core
      case 0xB00: case 0xB80: case 0xC00: case 0xC80: *v = 0; *unknown = true; return true;
      case 0xB02: case 0xC02: *v = (uint32_t)minstret; return true;
      case 0xB82: case 0xC82: *v = (uint32_t)(minstret >> 32); return true;
      case 0xF11: case 0xF12: case 0xF13: case 0xF14: case 0xF15: *v = 0; return true;
      default: return false;
    }
  }
  void csr_write(uint32_t c, uint32_t v) {
    switch (c) {
      case 0x300: mie_bit = v & 8; mpie = v & 0x80; break;
      case 0x304: mie = v & 0x888; break;
      case 0x305: mtvec = v & ~2u; break;
      case 0x340: mscratch = v; break;
      case 0x341: mepc = v & ~3u; break;
      case 0x342: mcause = v; break;
      case 0x343: mtval = v; break;
      case 0xB02: minstret = (minstret & 0xffffffff00000000ull) | v; instret_skip = true; break;
      case 0xB82: minstret = (minstret & 0xffffffffull) | ((uint64_t)v << 32); instret_skip = true; break;
      default: break;  // misa, mip, mstatush, mcycle[h] (not modelled)
    }
  }
};
