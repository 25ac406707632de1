// Thin Verilator driver for the tessera_mme block testbench: clocks one or two
// engines, connects each engine's two AXI masters (port m_axi: A, init, C's even
// tile rows; port mb_axi: B, C's odd tile rows) to their own tessera::AxiMemModel
// (sim/src) over one shared
// SparseMem, performs APB accesses and records completion messages.
// All test logic lives in C (mme_test.c).
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "Vtessera_mme.h"
#include "axi_mem_model.h"
#include "tb_mme.h"
#include "verilated.h"

namespace {

struct Engine {
  std::unique_ptr<Vtessera_mme> dut;
  std::unique_ptr<tessera::AxiMemModel> mem, mem_b;
  tessera::AxiMemPort port, port_b;  // port_b: B reads, odd C rows
  unsigned msgs = 0;
  uint32_t msg_addr = 0, msg_data = 0;
};

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  tessera::SparseMem mem;
  Engine eng[TB_MAX_MME];
  int n = 0;
  uint64_t cycle = 0;
  int last_err = 0;
};

Tb* g = nullptr;

void drive_inputs(Engine& e) {
  Vtessera_mme* d = e.dut.get();
  tessera::AxiMemPort& p = e.port;
  d->m_axi_awready_i = p.awready;
  d->m_axi_wready_i = p.wready;
  d->m_axi_arready_i = p.arready;
  d->m_axi_bid_i = p.bid;
  d->m_axi_bresp_i = p.bresp;
  d->m_axi_bvalid_i = p.bvalid;
  d->m_axi_rid_i = p.rid;
  for (int i = 0; i < 8; i++) d->m_axi_rdata_i[i] = p.rdata[i];
  d->m_axi_rresp_i = p.rresp;
  d->m_axi_rlast_i = p.rlast;
  d->m_axi_rvalid_i = p.rvalid;
  const tessera::AxiMemPort& q = e.port_b;
  d->mb_axi_awready_i = q.awready;
  d->mb_axi_wready_i = q.wready;
  d->mb_axi_bid_i = q.bid;
  d->mb_axi_bresp_i = q.bresp;
  d->mb_axi_bvalid_i = q.bvalid;
  d->mb_axi_arready_i = q.arready;
  d->mb_axi_rid_i = q.rid;
  for (int i = 0; i < 8; i++) d->mb_axi_rdata_i[i] = q.rdata[i];
  d->mb_axi_rresp_i = q.rresp;
  d->mb_axi_rlast_i = q.rlast;
  d->mb_axi_rvalid_i = q.rvalid;
  d->msg_ready_i = 1;
}

void sample_outputs(Engine& e) {
  Vtessera_mme* d = e.dut.get();
  tessera::AxiMemPort& p = e.port;
  p.awid = d->m_axi_awid_o;
  p.awaddr = d->m_axi_awaddr_o;
  p.awlen = d->m_axi_awlen_o;
  p.awsize = d->m_axi_awsize_o;
  p.awburst = d->m_axi_awburst_o;
  p.awvalid = d->m_axi_awvalid_o;
  for (int i = 0; i < 8; i++) p.wdata[i] = d->m_axi_wdata_o[i];
  p.wstrb = d->m_axi_wstrb_o;
  p.wlast = d->m_axi_wlast_o;
  p.wvalid = d->m_axi_wvalid_o;
  p.arid = d->m_axi_arid_o;
  p.araddr = d->m_axi_araddr_o;
  p.arlen = d->m_axi_arlen_o;
  p.arsize = d->m_axi_arsize_o;
  p.arburst = d->m_axi_arburst_o;
  p.arvalid = d->m_axi_arvalid_o;
  p.bready = d->m_axi_bready_o;
  p.rready = d->m_axi_rready_o;
  tessera::AxiMemPort& q = e.port_b;
  q.awid = d->mb_axi_awid_o;
  q.awaddr = d->mb_axi_awaddr_o;
  q.awlen = d->mb_axi_awlen_o;
  q.awsize = d->mb_axi_awsize_o;
  q.awburst = d->mb_axi_awburst_o;
  q.awvalid = d->mb_axi_awvalid_o;
  for (int i = 0; i < 8; i++) q.wdata[i] = d->mb_axi_wdata_o[i];
  q.wstrb = d->mb_axi_wstrb_o;
  q.wlast = d->mb_axi_wlast_o;
  q.wvalid = d->mb_axi_wvalid_o;
  q.bready = d->mb_axi_bready_o;
  q.arid = d->mb_axi_arid_o;
  q.araddr = d->mb_axi_araddr_o;
  q.arlen = d->mb_axi_arlen_o;
  q.arsize = d->mb_axi_arsize_o;
  q.arburst = d->mb_axi_arburst_o;
  q.arvalid = d->mb_axi_arvalid_o;
  q.rready = d->mb_axi_rready_o;
  if (d->msg_valid_o) {  // msg_ready_i is always 1
    e.msgs++;
    e.msg_addr = d->msg_addr_o;
    e.msg_data = d->msg_data_o;
  }
}

// TB_AXI_TRACE=1 in the environment prints every address handshake and every
// error response of every engine (cycle, engine, channel, address, length, size).
bool axi_trace() {
  static const bool on = std::getenv("TB_AXI_TRACE") != nullptr;
  return on;
}

void trace_axi(int i, const Engine& e) {
  const tessera::AxiMemPort& p = e.port;
  const tessera::AxiMemPort& q = e.port_b;
  unsigned long long c = (unsigned long long)g->cycle;
  if (p.arvalid && p.arready)
    std::printf("[%llu] mme%d AR addr=%#llx len=%u size=%u burst=%u id=%u\n", c, i,
                (unsigned long long)p.araddr, p.arlen, p.arsize, p.arburst, p.arid);
  if (q.arvalid && q.arready)
    std::printf("[%llu] mme%d AR(B) addr=%#llx len=%u size=%u burst=%u id=%u\n", c, i,
                (unsigned long long)q.araddr, q.arlen, q.arsize, q.arburst, q.arid);
  if (q.rvalid && q.rready && q.rresp)
    std::printf("[%llu] mme%d R(B) error resp=%u id=%u last=%u\n", c, i, q.rresp, q.rid, q.rlast);
  if (p.awvalid && p.awready)
    std::printf("[%llu] mme%d AW addr=%#llx len=%u size=%u burst=%u id=%u\n", c, i,
                (unsigned long long)p.awaddr, p.awlen, p.awsize, p.awburst, p.awid);
  if (q.awvalid && q.awready)
    std::printf("[%llu] mme%d AW(B) addr=%#llx len=%u size=%u burst=%u id=%u\n", c, i,
                (unsigned long long)q.awaddr, q.awlen, q.awsize, q.awburst, q.awid);
  if (q.bvalid && q.bready && q.bresp)
    std::printf("[%llu] mme%d B(B) error resp=%u id=%u\n", c, i, q.bresp, q.bid);
  if (p.rvalid && p.rready && p.rresp)
    std::printf("[%llu] mme%d R error resp=%u id=%u last=%u\n", c, i, p.rresp, p.rid, p.rlast);
  if (p.bvalid && p.bready && p.bresp)
    std::printf("[%llu] mme%d B error resp=%u id=%u\n", c, i, p.bresp, p.bid);
}

void cycle_once() {
  for (int i = 0; i < g->n; i++) {
    Engine& e = g->eng[i];
    e.dut->clk_i = 0;
    drive_inputs(e);
    e.dut->eval();
  }
  for (int i = 0; i < g->n; i++) {
    Engine& e = g->eng[i];
    sample_outputs(e);
    if (axi_trace()) trace_axi(i, e);
    e.mem->tick(e.port);
    e.mem_b->tick(e.port_b);
    e.dut->clk_i = 1;
    e.dut->eval();
  }
  g->cycle++;
}

}  // namespace

extern "C" {

void tb_open(int n_mme, unsigned latency, unsigned bytes_per_cycle) {
  tb_close();
  g = new Tb;
  g->ctx.reset(new VerilatedContext);
  g->n = n_mme;
  for (int i = 0; i < n_mme; i++) {
    Engine& e = g->eng[i];
    e.dut.reset(new Vtessera_mme(g->ctx.get()));
    tessera::AxiMemConfig cfg;
    cfg.read_latency = latency;
    cfg.max_reads = 64;  // 4 channels x 16 outstanding bursts (aggregate of the chip's HBM channels)
    cfg.bytes_per_cycle = bytes_per_cycle;
    e.mem.reset(new tessera::AxiMemModel(cfg, &g->mem));
    e.mem->reset(e.port);
    e.mem_b.reset(new tessera::AxiMemModel(cfg, &g->mem));
    e.mem_b->reset(e.port_b);
    Vtessera_mme* d = e.dut.get();
    d->rst_ni = 0;
    d->clk_i = 0;
    d->apb_psel_i = 0;
    d->apb_penable_i = 0;
    d->apb_pwrite_i = 0;
    d->apb_pprot_i = 0;
    d->apb_paddr_i = 0;
    d->apb_pwdata_i = 0;
    d->apb_pstrb_i = 0;
    drive_inputs(e);
    d->eval();
  }
  for (int c = 0; c < 3; c++) cycle_once();
  for (int i = 0; i < n_mme; i++) g->eng[i].dut->rst_ni = 1;
  for (int c = 0; c < 2; c++) cycle_once();
}

void tb_close(void) {
  if (!g) return;
  for (int i = 0; i < g->n; i++) g->eng[i].dut->final();
  delete g;
  g = nullptr;
}

int tb_rows(void) { return MME_ROWS; }
int tb_cols(void) { return MME_COLS; }

static uint32_t apb(int mme, int write, uint32_t off, uint32_t v) {
  Vtessera_mme* d = g->eng[mme].dut.get();
  d->apb_psel_i = 1;
  d->apb_penable_i = 0;
  d->apb_pwrite_i = write;
  d->apb_paddr_i = off;
  d->apb_pwdata_i = v;
  d->apb_pstrb_i = 0xF;
  cycle_once();
  d->apb_penable_i = 1;
  uint32_t r = 0;
  for (int guard = 0; guard < 100; guard++) {
    d->clk_i = 0;
    d->eval();
    bool ready = d->apb_pready_o;
    r = d->apb_prdata_o;
    g->last_err = d->apb_pslverr_o;
    cycle_once();
    if (ready) break;
  }
  d->apb_psel_i = 0;
  d->apb_penable_i = 0;
  d->apb_pwrite_i = 0;
  return r;
}

void tb_reg_wr(int mme, uint32_t off, uint32_t v) { apb(mme, 1, off, v); }
uint32_t tb_reg_rd(int mme, uint32_t off) { return apb(mme, 0, off, 0); }
int tb_reg_err(void) { return g->last_err; }

void tb_mem_wr(uint64_t addr, const void* src, size_t len) { g->mem.write(addr, src, len); }
void tb_mem_rd(uint64_t addr, void* dst, size_t len) { g->mem.read(addr, dst, len); }

void tb_step(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; i++) cycle_once();
}
uint64_t tb_cycle(void) { return g->cycle; }
int tb_irq(int mme) { return g->eng[mme].dut->irq_o; }

int tb_wait_irq(int mme, uint64_t limit) {
  for (uint64_t i = 0; i < limit; i++) {
    if (g->eng[mme].dut->irq_o) return 0;
    cycle_once();
  }
  return g->eng[mme].dut->irq_o ? 0 : -1;
}

int tb_wait_irq_all(unsigned mask, uint64_t limit) {
  for (uint64_t i = 0; i <= limit; i++) {
    bool all = true;
    for (int m = 0; m < g->n; m++)
      if ((mask >> m) & 1u) all = all && g->eng[m].dut->irq_o;
    if (all) return 0;
    cycle_once();
  }
  return -1;
}

unsigned tb_msg_count(int mme) { return g->eng[mme].msgs; }
uint32_t tb_msg_addr(int mme) { return g->eng[mme].msg_addr; }
uint32_t tb_msg_data(int mme) { return g->eng[mme].msg_data; }
uint64_t tb_mem_errors(int mme) {
  const Engine& e = g->eng[mme];
  return e.mem->counters().decerr + e.mem->counters().slverr + e.mem_b->counters().decerr +
         e.mem_b->counters().slverr;
}

uint64_t tb_mem_errors_port(int mme, int port) {
  const Engine& e = g->eng[mme];
  const tessera::AxiMemModel& m = port ? *e.mem_b : *e.mem;
  return m.counters().decerr + m.counters().slverr;
}

void tb_set_mem_size(uint64_t bytes) {
  for (int i = 0; i < g->n; i++) {
    g->eng[i].mem->set_size(bytes);
    g->eng[i].mem_b->set_size(bytes);
  }
}

}  // extern "C"
