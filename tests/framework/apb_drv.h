// APB4 requester for C++ block testbenches around a Verilated model.
//
// One transfer is a setup phase (psel=1, penable=0) for one clock, then the
// access phase (penable=1) until the completer answers pready; pslverr and
// prdata are sampled in that cycle, before its rising edge. The driver knows
// nothing about the model's clocking: the testbench passes
//   step()   - one full clock cycle of the whole testbench (its own models
//              of the environment run in it), ending after the rising edge;
//   settle() - evaluate the model with the clock low, so that combinational
//              outputs (pready, prdata) reflect the inputs just driven.
//
// The pins are references into the model, built with TB_APB_PINS(model, prefix)
// for a port whose signals are <prefix>psel_i, <prefix>penable_i, ...,
// <prefix>pready_o (pprot_i / pstrb_i optional: TB_APB_PINS_NOPROT).
//
//   tb::ApbDriver<SData> apb(TB_APB_PINS(dut, apb_), step, settle);
//   int err = apb.write(0x10, 1);      // pslverr, or -1 when pready never came
//   err = apb.read(0x14, &v);
#ifndef TESSERA_APB_DRV_H
#define TESSERA_APB_DRV_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <type_traits>

#include "verilated.h"

namespace tb {

template <typename AddrT>
struct ApbPins {
  CData &psel, &penable, &pwrite;
  AddrT &paddr;
  IData &pwdata;
  CData *pprot, *pstrb;   // nullptr when the port has no such input
  CData &pready, &pslverr;
  IData &prdata;
};

template <typename AddrT>
class ApbDriver {
 public:
  ApbDriver(const ApbPins<AddrT> &pins, std::function<void()> step, std::function<void()> settle,
            unsigned max_wait = 10000, const char *name = "apb")
      : p_(pins), step_(std::move(step)), settle_(std::move(settle)), max_wait_(max_wait), name_(name) {}

  // Drive the idle bus (psel = penable = 0); call before and during reset.
  void idle() {
    p_.psel = 0;
    p_.penable = 0;
  }
  int write(uint32_t addr, uint32_t val) { return xfer(true, addr, val, nullptr); }
  int read(uint32_t addr, uint32_t *val) { return xfer(false, addr, 0, val); }

  // Called once per transfer when its access phase starts (penable rises),
  // for testbenches that time the completer's answer.
  std::function<void()> on_access;
  // Number of cycles the last transfer waited in its access phase with pready low.
  unsigned last_wait() const { return wait_; }

  int xfer(bool wr, uint32_t addr, uint32_t wdata, uint32_t *rdata) {
    p_.psel = 1;
    p_.penable = 0;
    p_.pwrite = wr;
    p_.paddr = static_cast<AddrT>(addr);
    p_.pwdata = wdata;
    if (p_.pprot) *p_.pprot = 0;
    if (p_.pstrb) *p_.pstrb = 0xF;
    step_();
    p_.penable = 1;
    if (on_access) on_access();
    for (wait_ = 0; wait_ < max_wait_; wait_++) {
      settle_();
      if (p_.pready) {
        int err = p_.pslverr ? 1 : 0;
        if (rdata) *rdata = p_.prdata;
        step_();
        idle();
        return err;
      }
      step_();
    }
    fprintf(stderr, "%s: APB %s of 0x%x got no pready in %u cycles\n", name_, wr ? "write" : "read",
            addr, max_wait_);
    idle();
    return -1;
  }

 private:
  ApbPins<AddrT> p_;
  std::function<void()> step_, settle_;
  unsigned max_wait_;
  const char *name_;
  unsigned wait_ = 0;
};

}  // namespace tb

#define TB_APB_ADDR_T(m, pfx) std::remove_reference_t<decltype((m)->pfx##paddr_i)>
#define TB_APB_PINS(m, pfx)                                                                 \
  tb::ApbPins<TB_APB_ADDR_T(m, pfx)> {                                                      \
    (m)->pfx##psel_i, (m)->pfx##penable_i, (m)->pfx##pwrite_i, (m)->pfx##paddr_i,           \
        (m)->pfx##pwdata_i, &(m)->pfx##pprot_i, &(m)->pfx##pstrb_i, (m)->pfx##pready_o,     \
        (m)->pfx##pslverr_o, (m)->pfx##prdata_o                                             \
  }
#define TB_APB_PINS_NOPROT(m, pfx)                                                          \
  tb::ApbPins<TB_APB_ADDR_T(m, pfx)> {                                                      \
    (m)->pfx##psel_i, (m)->pfx##penable_i, (m)->pfx##pwrite_i, (m)->pfx##paddr_i,           \
        (m)->pfx##pwdata_i, nullptr, nullptr, (m)->pfx##pready_o, (m)->pfx##pslverr_o,      \
        (m)->pfx##prdata_o                                                                  \
  }

#endif
