// Simulation wrapper for the system-bus block testbench: tessera_sysbus with
// three masters, every port a flat vector (master m / slave s in bits
// [m*W +: W] / [s*W +: W]), so that a change of the block's port types only
// touches this file. Slaves: 0 ROM, 1 ISRAM, 2 DSRAM, 3 CSR (APB bridge),
// 4 HBM window.
module tb_sysbus_top #(
  parameter int unsigned NumMst = 3
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumMst-1:0]   m_req_i,
  output logic [NumMst-1:0]   m_gnt_o,
  input  logic [NumMst*32-1:0] m_addr_i,
  input  logic [NumMst-1:0]   m_we_i,
  input  logic [NumMst*4-1:0] m_be_i,
  input  logic [NumMst*32-1:0] m_wdata_i,
  output logic [NumMst-1:0]   m_rvalid_o,
  output logic [NumMst*32-1:0] m_rdata_o,
  output logic [NumMst-1:0]   m_err_o,
  output logic [4:0]          s_req_o,
  input  logic [4:0]          s_gnt_i,
  output logic [5*32-1:0]     s_addr_o,
  output logic [4:0]          s_we_o,
  output logic [5*4-1:0]      s_be_o,
  output logic [5*32-1:0]     s_wdata_o,
  input  logic [4:0]          s_rvalid_i,
  input  logic [5*32-1:0]     s_rdata_i,
  input  logic [4:0]          s_err_i
);
  logic [NumMst-1:0][tessera_bus_pkg::ObiReqBits-1:0] m_req;
  logic [NumMst-1:0][tessera_bus_pkg::ObiRspBits-1:0] m_rsp;
  logic [4:0][tessera_bus_pkg::ObiReqBits-1:0]        s_req;
  logic [4:0][tessera_bus_pkg::ObiRspBits-1:0]        s_rsp;
  for (genvar m = 0; m < NumMst; m++) begin : g_m
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    assign req.req   = m_req_i[m];
    assign req.addr  = m_addr_i[m*32 +: 32];
    assign req.we    = m_we_i[m];
    assign req.be    = m_be_i[m*4 +: 4];
    assign req.wdata = m_wdata_i[m*32 +: 32];
    assign m_req[m]  = req;
    assign rsp                   = m_rsp[m];
    assign m_gnt_o[m]            = rsp.gnt;
    assign m_rvalid_o[m]         = rsp.rvalid;
    assign m_rdata_o[m*32 +: 32] = rsp.rdata;
    assign m_err_o[m]            = rsp.err;
  end
  for (genvar t = 0; t < 5; t++) begin : g_s
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    assign req                   = s_req[t];
    assign s_req_o[t]            = req.req;
    assign s_addr_o[t*32 +: 32]  = req.addr;
    assign s_we_o[t]             = req.we;
    assign s_be_o[t*4 +: 4]      = req.be;
    assign s_wdata_o[t*32 +: 32] = req.wdata;
    assign rsp.gnt    = s_gnt_i[t];
    assign rsp.rvalid = s_rvalid_i[t];
    assign rsp.rdata  = s_rdata_i[t*32 +: 32];
    assign rsp.err    = s_err_i[t];
    assign s_rsp[t]   = rsp;
  end
  tessera_sysbus #(.NumMst(NumMst)) u_sysbus (
    .clk_i,
    .rst_ni,
    .slv_req_i(m_req),
    .slv_rsp_o(m_rsp),
    .mst_req_o(s_req),
    .mst_rsp_i(s_rsp)
  );
endmodule
