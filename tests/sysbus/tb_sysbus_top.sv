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
  tessera_sysbus #(.NumMst(NumMst)) u_sysbus (
    .clk_i,
    .rst_ni,
    .m_req_i,
    .m_gnt_o,
    .m_addr_i,
    .m_we_i,
    .m_be_i,
    .m_wdata_i,
    .m_rvalid_o,
    .m_rdata_o,
    .m_err_o,
    .s_req_o,
    .s_gnt_i,
    .s_addr_o,
    .s_we_o,
    .s_be_o,
    .s_wdata_o,
    .s_rvalid_i,
    .s_rdata_i,
    .s_err_i
  );
endmodule
