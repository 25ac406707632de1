// Verilator testbench for tessera_obi2axi (see docs/fabric.md, "Verification").
//
//   Vtessera_obi2axi [--seed N] [--ops N]
//
// A random OBI master (byte / half-word / word writes and reads, random gaps,
// back-to-back requests in the cycle of the previous response) drives the bridge;
// the AXI side is served by sim/src/axi_mem_model (region 0x8000_0000 + 64 KiB,
// accesses outside answered with DECERR) or by the fabric StressSlave (random
// back-pressure and latency). Checks: AXI burst shape (len 0, full-width size,
// INCR, ID 0, aligned address, wstrb = be on the addressed lanes, wlast), read data
// against a reference image, err exactly for out-of-region accesses, one response
// per request, never before the cycle after the grant.
// Read-buffer runs (obi_rdbuf*): rdbuf_en_i switched on and off at random while the
// bridge is idle; a read with it on fetches the aligned 64-byte block (AR len 1,
// block-aligned address) and a later read of the same block, with no write or read
// of another block in between and the bit still on, is answered from the copy
// (no AR, response in the cycle after the grant); read data always equals the
// reference image.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vtessera_obi2axi.h"
#include "axi_mem_model.h"
#include "fabric_slave.h"
#include "fabric_util.h"
#include "verilated.h"
#include "../framework/tf_seed.h"

using namespace fab;

static constexpr unsigned DB = 32, WORDS = 8;
static constexpr uint64_t BASE = 0x80000000ull, SIZE = 0x10000ull;

struct Result {
  bool ok;
  uint64_t cycles, ops, errs;
};

static constexpr unsigned BLK = 2 * DB;   // read-buffer block (BufBeats = 2)

static Result run(uint64_t seed, unsigned ops, bool stress, const char* name, bool fast = false,
                  bool rdbuf = false) {
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vtessera_obi2axi>(ctx.get());
  Rng rng(seed * 77 + (stress ? 5 : 0) + (rdbuf ? 11 : 0));
  ErrLog err;
  tessera::SparseMem mem;
  tessera::AxiMemPort port;
  std::unique_ptr<tessera::AxiMemModel> hm;
  std::unique_ptr<StressSlave> ss;
  if (stress) {
    SlaveCfg sc;
    sc.num_masters = 1;
    sc.id_master_shift = 4;
    sc.interleave = 1u << 20;   // no granule restriction for single beats
    ss.reset(new StressSlave(sc, &mem, seed, &err));
  } else {
    tessera::AxiMemConfig mc;
    mc.base = BASE;
    mc.size = SIZE;
    mc.read_latency = fast ? 1 : 1 + rng.below(8);
    mc.write_latency = fast ? 1 : 1 + rng.below(4);
    hm.reset(new tessera::AxiMemModel(mc, &mem));
    hm->reset(port);
  }
  std::vector<uint8_t> ref(SIZE, 0);

  top->clk_i = 0;
  top->rst_ni = 0;
  top->eval();
  top->clk_i = 1;
  top->eval();
  top->clk_i = 0;
  top->rst_ni = 1;
  top->eval();

  // OBI master state
  bool req = false, pending = false;
  uint32_t addr = 0, be = 0, wdata = 0;
  bool we = false, exp_err = false;
  uint32_t exp_rdata = 0;
  // the granted (in-flight) access; addr/we/be/wdata/exp_err above describe the request on the bus
  uint32_t p_addr = 0, p_be = 0, p_wdata = 0;
  bool p_we = false, p_err = false;
  uint64_t gnt_cycle = 0;
  unsigned issued = 0, responded = 0, lat_sum = 0;
  // read buffer: the enable, the model of the bridge's copy, the in-flight access's kind
  bool rb_on = false, rb_valid = false, p_burst = false, p_hit = false;
  uint32_t rb_tag = 0;
  unsigned hits = 0, ars = 0;
  uint64_t cyc = 0;
  const uint64_t limit = uint64_t(ops) * 200 + 1000;
  static const uint32_t kBe[] = {0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0xF, 0xF, 0x6, 0x9};

  auto new_req = [&]() {
    we = rng.chance(0.5);
    be = kBe[rng.below(10)];
    bool outside = rng.chance(0.1);
    if (outside) {
      addr = rng.chance(0.5) ? uint32_t(BASE + SIZE + 4 * rng.below(1 << 16)) : uint32_t(4 * rng.below(1 << 20));
    } else {
      addr = uint32_t(BASE + 4 * rng.below(stress ? 256 : unsigned(SIZE / 4)));
    }
    if (stress) outside = false, addr = uint32_t(BASE + 4 * rng.below(256));
    if (!we) be = 0xF;
    wdata = uint32_t(rng.next());
    exp_err = outside;
    req = true;
  };

  while (responded < ops && cyc < limit) {
    if (rdbuf && !req && !pending && rng.chance(0.05)) {
      rb_on = !rb_on || rng.chance(0.3);   // mostly on
      if (!rb_on) rb_valid = false;
    }
    if (!req && issued < ops && (fast || (!pending && rng.chance(0.6)))) {
      new_req();
      // mostly reads of a few neighbouring blocks, so that copies are hit
      if (rdbuf && we && rng.chance(0.7)) we = false, be = 0xF;
      if (rdbuf && !exp_err && rng.chance(0.7)) addr = uint32_t(BASE + 4 * rng.below(BLK));
    }
    top->rdbuf_en_i = rb_on;
    top->obi_req_i = req;
    top->obi_addr_i = addr;
    top->obi_we_i = we;
    top->obi_be_i = be;
    top->obi_wdata_i = req ? wdata : uint32_t(rng.next());
    top->m_axi_awready_i = port.awready;
    top->m_axi_wready_i = port.wready;
    top->m_axi_arready_i = port.arready;
    top->m_axi_bid_i = port.bid;
    top->m_axi_bresp_i = port.bresp;
    top->m_axi_bvalid_i = port.bvalid;
    top->m_axi_rid_i = port.rid;
    for (unsigned k = 0; k < WORDS; ++k) top->m_axi_rdata_i[k] = port.rdata[k];
    top->m_axi_rresp_i = port.rresp;
    top->m_axi_rlast_i = port.rlast;
    top->m_axi_rvalid_i = port.rvalid;
    top->eval();

    // response first (belongs to the previous request)
    if (top->obi_rvalid_o) {
      if (!pending) {
        err("cycle %" PRIu64 ": rvalid without an outstanding request", cyc);
      } else {
        if (cyc <= gnt_cycle) err("cycle %" PRIu64 ": response in the grant cycle", cyc);
        if (bool(top->obi_err_o) != p_err)
          err("cycle %" PRIu64 ": %s 0x%08x err=%d expected %d", cyc, p_we ? "write" : "read", p_addr,
              int(top->obi_err_o), int(p_err));
        uint32_t got = top->obi_rdata_o;
        if (!p_we && !p_err && got != exp_rdata)
          err("cycle %" PRIu64 ": read 0x%08x = 0x%08x expected 0x%08x", cyc, p_addr, got, exp_rdata);
        if (p_hit && cyc != gnt_cycle + 1)
          err("cycle %" PRIu64 ": read 0x%08x from the read buffer answered %" PRIu64 " cycles after the grant", cyc,
              p_addr, cyc - gnt_cycle);
        if (p_burst) {
          rb_valid = !p_err;
          rb_tag = p_addr / BLK;
        }
        lat_sum += unsigned(cyc - gnt_cycle);
        ++responded;
        pending = false;
      }
    }
    if (req && top->obi_gnt_o) {
      if (pending) err("cycle %" PRIu64 ": grant while a request is outstanding", cyc);
      pending = true;
      gnt_cycle = cyc;
      p_addr = addr;
      p_be = be;
      p_wdata = wdata;
      p_we = we;
      p_err = exp_err;
      p_hit = !we && rb_on && rb_valid && addr / BLK == rb_tag;
      p_burst = !we && rb_on && !p_hit;
      if (!p_hit) rb_valid = false;   // a write, or a read of another block (refilled at its response)
      hits += p_hit;
      ++issued;
      req = false;
      // reference image
      if (!exp_err) {
        uint32_t off = addr - uint32_t(BASE);
        if (we) {
          for (unsigned b = 0; b < 4; ++b)
            if ((be >> b) & 1) ref[off + b] = uint8_t(wdata >> (8 * b));
        } else {
          exp_rdata = uint32_t(ref[off]) | uint32_t(ref[off + 1]) << 8 | uint32_t(ref[off + 2]) << 16 |
                      uint32_t(ref[off + 3]) << 24;
        }
      }
    }
    // AXI side: checks on every handshake, then the slave model
    port.awid = top->m_axi_awid_o;
    port.awaddr = top->m_axi_awaddr_o;
    port.awlen = top->m_axi_awlen_o;
    port.awsize = top->m_axi_awsize_o;
    port.awburst = top->m_axi_awburst_o;
    port.awvalid = top->m_axi_awvalid_o;
    for (unsigned k = 0; k < WORDS; ++k) port.wdata[k] = top->m_axi_wdata_o[k];
    port.wstrb = top->m_axi_wstrb_o;
    port.wlast = top->m_axi_wlast_o;
    port.wvalid = top->m_axi_wvalid_o;
    port.arid = top->m_axi_arid_o;
    port.araddr = top->m_axi_araddr_o;
    port.arlen = top->m_axi_arlen_o;
    port.arsize = top->m_axi_arsize_o;
    port.arburst = top->m_axi_arburst_o;
    port.arvalid = top->m_axi_arvalid_o;
    port.bready = top->m_axi_bready_o;
    port.rready = top->m_axi_rready_o;
    if (port.awvalid && port.awready) {
      if (port.awaddr != (p_addr & ~uint32_t(DB - 1)) || port.awlen != 0 || port.awsize != 5 || port.awburst != 1 ||
          port.awid != 0)
        err("cycle %" PRIu64 ": AW addr 0x%08" PRIx64 " len %u size %u burst %u id %u for OBI write 0x%08x", cyc,
            port.awaddr, port.awlen, port.awsize, port.awburst, port.awid, p_addr);
    }
    if (port.wvalid && port.wready) {
      unsigned lane = (p_addr & (DB - 1)) / 4;
      if (port.wstrb != (p_be << (4 * lane)) || !port.wlast || port.wdata[lane] != p_wdata)
        err("cycle %" PRIu64 ": W strb 0x%08x data 0x%08x last %d for OBI write 0x%08x be 0x%x data 0x%08x", cyc,
            port.wstrb, port.wdata[lane], int(port.wlast), p_addr, p_be, p_wdata);
    }
    if (port.arvalid && port.arready) {
      ++ars;
      if (p_hit) err("cycle %" PRIu64 ": AR for the read 0x%08x the read buffer holds", cyc, p_addr);
      uint32_t blk = p_burst ? BLK : DB;
      if (port.araddr != (p_addr & ~uint32_t(blk - 1)) || port.arlen != (p_burst ? 1u : 0u) || port.arsize != 5 ||
          port.arburst != 1 || port.arid != 0)
        err("cycle %" PRIu64 ": AR addr 0x%08" PRIx64 " len %u size %u for OBI read 0x%08x", cyc, port.araddr,
            port.arlen, port.arsize, p_addr);
    }
    if (hm) hm->tick(port);
    else ss->tick(port);
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    ++cyc;
  }
  if (responded < ops) {
    err("DIAGNOSTIC: stuck at cycle %" PRIu64 ": %u of %u requests answered, req %d pending %d (addr 0x%08x we %d)",
        cyc, responded, ops, int(req), int(pending), addr, int(we));
  }
  if (rdbuf && hits == 0) err("no read was answered from the read buffer");
  std::printf("  %-8s %s: %u accesses in %" PRIu64 " cycles (%.2f cycles/access), mean grant-to-response %.2f cycles, "
              "%u ARs, %u read-buffer hits, %u errors\n",
              name, err.count ? "FAILED" : "ok", responded, cyc, responded ? double(cyc) / responded : 0.0,
              responded ? double(lat_sum) / responded : 0.0, ars, hits, err.count);
  return Result{err.count == 0, cyc, responded, err.count};
}

int main(int argc, char** argv) {
  uint64_t seed = tf_env_seed(1);
  unsigned ops = 3000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--ops" && i + 1 < argc) ops = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else {
      std::fprintf(stderr, "usage: %s [--seed N] [--ops N]\n", argv[0]);
      return 2;
    }
  }
  std::printf("fabric obi2axi tb: seed %" PRIu64 " (reproduce with --seed %" PRIu64 ")\n", seed, seed);
  unsigned pass = 0, fail = 0;
  run(seed, ops, false, "obi_hbm").ok ? ++pass : ++fail;
  run(seed, ops, true, "obi_bp").ok ? ++pass : ++fail;
  // back-to-back requests against a 1-cycle memory: the bridge's own access time
  run(seed, ops, false, "obi_fast", true).ok ? ++pass : ++fail;
  run(seed, ops, false, "obi_rdbuf", false, true).ok ? ++pass : ++fail;
  run(seed, ops, true, "obi_rdbufbp", false, true).ok ? ++pass : ++fail;
  std::printf("%u passed, %u failed\n", pass, fail);
  return fail ? 1 : 0;
}
