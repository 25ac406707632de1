// Simulation wrapper for the system-bus block testbench: tessera_sysbus with
// three masters, every port a flat vector (master m / slave s in bits
// [m*W +: W] / [s*W +: W], declared as packed [N-1:0][W-1:0] arrays, the same bits),
// connected to the bus structs with the assign macros of rtl/prim/tessera_bus.svh,
// so that a change of the block's port types only touches this file.
// Slaves: 0 ROM, 1 ISRAM, 2 DSRAM, 3 CSR (APB bridge), 4 HBM window.
module tb_sysbus_top #(
  parameter int unsigned NumMst = 3
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [NumMst-1:0]       m_req_i,
  output logic [NumMst-1:0]       m_gnt_o,
  input  logic [NumMst-1:0][31:0] m_addr_i,
  input  logic [NumMst-1:0]       m_we_i,
  input  logic [NumMst-1:0][3:0]  m_be_i,
  input  logic [NumMst-1:0][31:0] m_wdata_i,
  output logic [NumMst-1:0]       m_rvalid_o,
  output logic [NumMst-1:0][31:0] m_rdata_o,
  output logic [NumMst-1:0]       m_err_o,
  output logic [4:0]              s_req_o,
  input  logic [4:0]              s_gnt_i,
  output logic [4:0][31:0]        s_addr_o,
  output logic [4:0]              s_we_o,
  output logic [4:0][3:0]         s_be_o,
  output logic [4:0][31:0]        s_wdata_o,
  input  logic [4:0]              s_rvalid_i,
  input  logic [4:0][31:0]        s_rdata_i,
  input  logic [4:0]              s_err_i
);
  logic [NumMst-1:0][tessera_bus_pkg::ObiReqBits-1:0] m_req;
  logic [NumMst-1:0][tessera_bus_pkg::ObiRspBits-1:0] m_rsp;
  logic [4:0][tessera_bus_pkg::ObiReqBits-1:0]        s_req;
  logic [4:0][tessera_bus_pkg::ObiRspBits-1:0]        s_rsp;
  for (genvar m = 0; m < NumMst; m++) begin : g_m
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    `TESSERA_OBI_REQ_FROM_FLAT(req, m_, _i, [m])
    assign m_req[m] = req;
    assign rsp      = m_rsp[m];
    `TESSERA_OBI_FLAT_FROM_RSP(m_, _o, [m], rsp)
  end
  for (genvar t = 0; t < 5; t++) begin : g_s
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    assign req                   = s_req[t];
    `TESSERA_OBI_FLAT_FROM_REQ(s_, _o, [t], req)
    `TESSERA_OBI_RSP_FROM_FLAT(rsp, s_, _i, [t])
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
