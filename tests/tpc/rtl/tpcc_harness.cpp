// Verilator driver of the TPC-cluster block testbench (interface: tpcc_tb.h). Clocks
// tessera_tpc_cluster, connects each of its AXI masters (PortsPerDcore per DCORE) to a tessera::AxiMemModel
// (sim/src) over one shared SparseMem, performs APB accesses and sinks completion
// messages with random backpressure. All test logic lives in C (tpcc_test.c).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <vector>

#include "Vtessera_tpc_cluster.h"
#include "Vtessera_tpc_cluster___024root.h"
#include "axi_mem_model.h"
#include "tessera_cfg.h"
#include "tpcc_tb.h"
#include "verilated.h"

namespace {

// Verilator packs [Dcores-1:0][W-1:0] ports into one integer (<= 64 bits) or a
// VlWide; these helpers read/write field `i` of width `w` bits either way.
template <typename T>
typename std::enable_if<std::is_integral<T>::value, uint64_t>::type get(const T& s, unsigned i, unsigned w) {
  uint64_t v = (uint64_t)s >> (i * w);
  return w >= 64 ? v : v & ((1ull << w) - 1);
}
template <typename T>
typename std::enable_if<!std::is_integral<T>::value, uint64_t>::type get(const T& s, unsigned i, unsigned w) {
  uint64_t v = 0;
  for (unsigned b = 0; b < w; b++) {
    unsigned bit = i * w + b;
    v |= (uint64_t)((s[bit / 32] >> (bit % 32)) & 1u) << b;
  }
  return v;
}
template <typename T>
typename std::enable_if<std::is_integral<T>::value>::type put(T& s, unsigned i, unsigned w, uint64_t v) {
  uint64_t m = (w >= 64 ? ~0ull : ((1ull << w) - 1)) << (i * w);
  s = (T)(((uint64_t)s & ~m) | ((v << (i * w)) & m));
}
template <typename T>
typename std::enable_if<!std::is_integral<T>::value>::type put(T& s, unsigned i, unsigned w, uint64_t v) {
  for (unsigned b = 0; b < w; b++) {
    unsigned bit = i * w + b;
    s[bit / 32] = (s[bit / 32] & ~(1u << (bit % 32))) | ((uint32_t)((v >> b) & 1u) << (bit % 32));
  }
}
// 256-bit data of port i: words 8i..8i+7
template <typename T> uint32_t* words(T& s, unsigned i) { return &s[8 * i]; }

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtessera_tpc_cluster> dut;
  tessera::SparseMem mem;
  std::vector<std::unique_ptr<tessera::AxiMemModel>> axi;
  std::vector<tessera::AxiMemPort> port;
  unsigned dcores = 0, per_dcore = 0, masters = 0;
  uint64_t cycle = 0, rs = 1;
  unsigned msg_pct = 100, msgs = 0, retiring = 0;
  uint64_t last_retire = 0, first_retire = 0;
  uint32_t msg_addr = 0, msg_data = 0;
};
Tb* g = nullptr;

uint32_t rnd() {
  g->rs ^= g->rs << 13; g->rs ^= g->rs >> 7; g->rs ^= g->rs << 17;
  return (uint32_t)(g->rs >> 16);
}

void drive() {
  Vtessera_tpc_cluster* d = g->dut.get();
  for (unsigned i = 0; i < g->masters; i++) {
    tessera::AxiMemPort& p = g->port[i];
    put(d->m_axi_awready_i, i, 1, p.awready);
    put(d->m_axi_wready_i, i, 1, p.wready);
    put(d->m_axi_arready_i, i, 1, p.arready);
    put(d->m_axi_bid_i, i, TESSERA_AXI_ID_BITS, p.bid);
    put(d->m_axi_bresp_i, i, 2, p.bresp);
    put(d->m_axi_bvalid_i, i, 1, p.bvalid);
    put(d->m_axi_rid_i, i, TESSERA_AXI_ID_BITS, p.rid);
    for (int k = 0; k < 8; k++) words(d->m_axi_rdata_i, i)[k] = p.rdata[k];
    put(d->m_axi_rresp_i, i, 2, p.rresp);
    put(d->m_axi_rlast_i, i, 1, p.rlast);
    put(d->m_axi_rvalid_i, i, 1, p.rvalid);
  }
}

void sample() {
  Vtessera_tpc_cluster* d = g->dut.get();
  for (unsigned i = 0; i < g->masters; i++) {
    tessera::AxiMemPort& p = g->port[i];
    p.awid = (uint32_t)get(d->m_axi_awid_o, i, TESSERA_AXI_ID_BITS);
    p.awaddr = get(d->m_axi_awaddr_o, i, 32);
    p.awlen = (uint8_t)get(d->m_axi_awlen_o, i, 8);
    p.awsize = (uint8_t)get(d->m_axi_awsize_o, i, 3);
    p.awburst = (uint8_t)get(d->m_axi_awburst_o, i, 2);
    p.awvalid = get(d->m_axi_awvalid_o, i, 1);
    for (int k = 0; k < 8; k++) p.wdata[k] = words(d->m_axi_wdata_o, i)[k];
    p.wstrb = (uint32_t)get(d->m_axi_wstrb_o, i, 32);
    p.wlast = get(d->m_axi_wlast_o, i, 1);
    p.wvalid = get(d->m_axi_wvalid_o, i, 1);
    p.bready = get(d->m_axi_bready_o, i, 1);
    p.arid = (uint32_t)get(d->m_axi_arid_o, i, TESSERA_AXI_ID_BITS);
    p.araddr = get(d->m_axi_araddr_o, i, 32);
    p.arlen = (uint8_t)get(d->m_axi_arlen_o, i, 8);
    p.arsize = (uint8_t)get(d->m_axi_arsize_o, i, 3);
    p.arburst = (uint8_t)get(d->m_axi_arburst_o, i, 2);
    p.arvalid = get(d->m_axi_arvalid_o, i, 1);
    p.rready = get(d->m_axi_rready_o, i, 1);
  }
}

// first half of a cycle: inputs for this cycle, combinational settle
void low() {
  Vtessera_tpc_cluster* d = g->dut.get();
  d->clk_i = 0;
  drive();
  d->msg_ready_i = (rnd() % 100) < g->msg_pct;
  d->eval();
}

// second half: handshakes of this cycle, rising edge
void high() {
  Vtessera_tpc_cluster* d = g->dut.get();
  sample();
  if (d->msg_valid_o && d->msg_ready_i) {
    g->msgs++;
    g->msg_addr = d->msg_addr_o;
    g->msg_data = d->msg_data_o;
  }
  for (unsigned i = 0; i < g->masters; i++) g->axi[i]->tick(g->port[i]);
  d->clk_i = 1;
  d->eval();
  g->cycle++;
  g->retiring = (unsigned)__builtin_popcountll((unsigned long long)d->rootp->tb_tpc_cluster_top__DOT__u_dut__DOT__c_retire);
  if (g->retiring) {
    g->last_retire = g->cycle;
    if (!g->first_retire) g->first_retire = g->cycle;
  }
}

}  // namespace

extern "C" {

/* TPCs per DCORE of the Verilated cluster (its TpcPerDcore parameter, set by the build:
 * mk/tpc_rtl_cluster.mk) */
#ifndef TPCC_PER_DCORE
#define TPCC_PER_DCORE TESSERA_TPC_PER_DCORE
#endif
/* AXI masters per DCORE (its PortsPerDcore parameter: the configuration's value) */
#ifndef TPCC_PORTS
#define TPCC_PORTS TESSERA_TPC_PORTS_PER_DCORE
#endif

void tb_init(unsigned read_latency, uint64_t seed) {
  g = new Tb;
  g->rs = seed * 2654435761ull + 1;
  g->ctx.reset(new VerilatedContext);
  g->dut.reset(new Vtessera_tpc_cluster(g->ctx.get()));
  g->dcores = TESSERA_DCORES;
  g->per_dcore = TPCC_PER_DCORE;
  g->masters = TESSERA_DCORES * TPCC_PORTS;
  for (unsigned i = 0; i < g->masters; i++) {
    tessera::AxiMemConfig c;
    c.data_bytes = 32;
    c.base = TB_MEM_BASE;
    c.size = TB_MEM_SIZE;
    c.read_latency = read_latency;
    c.write_latency = 2;
    c.bytes_per_cycle = 32;
    g->axi.emplace_back(new tessera::AxiMemModel(c, &g->mem));
    g->port.emplace_back();
  }
  Vtessera_tpc_cluster* d = g->dut.get();
  d->rst_ni = 0;
  d->apb_psel_i = 0;
  d->apb_penable_i = 0;
  for (int k = 0; k < 4; k++) { low(); high(); }
  d->rst_ni = 1;
  for (int k = 0; k < 2; k++) { low(); high(); }
}

void tb_set_latency(unsigned read_latency) {
  for (auto& a : g->axi) a->set_read_latency(read_latency);
}

void tb_tick(void) { low(); high(); }
uint64_t tb_cycles(void) { return g->cycle; }
unsigned tb_dcores(void) { return g->dcores; }
unsigned tb_masters(void) { return g->masters; }
unsigned tb_tpc_per_dcore(void) { return g->per_dcore; }

static int apb(int wr, uint32_t off, uint32_t wdata, uint32_t* rdata) {
  Vtessera_tpc_cluster* d = g->dut.get();
  d->apb_psel_i = 1;
  d->apb_penable_i = 0;
  d->apb_pwrite_i = wr;
  d->apb_pprot_i = 0;
  d->apb_paddr_i = (uint16_t)off;
  d->apb_pwdata_i = wdata;
  d->apb_pstrb_i = 0xF;
  tb_tick();
  d->apb_penable_i = 1;
  int err = 0;
  for (int k = 0; k < 1000; k++) {
    low();
    int rdy = d->apb_pready_o;
    if (rdy) {
      err = d->apb_pslverr_o;
      if (rdata) *rdata = d->apb_prdata_o;
    }
    high();
    if (rdy) break;
    if (k == 999) { fprintf(stderr, "tpcc_tb: APB access to 0x%x never completed\n", off); exit(2); }
  }
  d->apb_psel_i = 0;
  d->apb_penable_i = 0;
  return err;
}

int tb_apb_write(uint32_t off, uint32_t val) { return apb(1, off, val, nullptr); }
int tb_apb_read(uint32_t off, uint32_t* val) { return apb(0, off, 0, val); }

void tb_mem_write(uint32_t addr, const void* src, size_t len) { g->mem.write(addr, src, len); }
void tb_mem_read(uint32_t addr, void* dst, size_t len) { g->mem.read(addr, dst, len); }

int tb_irq(void) { return g->dut->irq_o; }
int tb_busy(void) { return !g->dut->idle_o; }
unsigned tb_retiring(void) { return g->retiring; }
uint64_t tb_last_retire(void) { return g->last_retire; }
void tb_mark_retire(void) { g->first_retire = 0; }
uint64_t tb_first_retire(void) { return g->first_retire; }
void tb_msg_ready_pct(unsigned pct) { g->msg_pct = pct; }
unsigned tb_msg_count(void) { return g->msgs; }
uint32_t tb_msg_addr(void) { return g->msg_addr; }
uint32_t tb_msg_data(void) { return g->msg_data; }
uint64_t tb_axi_bytes(void) {
  uint64_t b = 0;
  for (auto& a : g->axi) b += a->counters().bytes_read + a->counters().bytes_written;
  return b;
}
uint64_t tb_axi_decerr(void) {
  uint64_t b = 0;
  for (auto& a : g->axi) b += a->counters().decerr;
  return b;
}

}  // extern "C"
