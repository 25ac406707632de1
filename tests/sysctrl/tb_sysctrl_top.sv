// Simulation wrapper for the SYSCTRL block testbench: flat APB pins and the
// read-buffer enable around tessera_sysctrl, so that a change of the block's
// port types only touches this file.
module tb_sysctrl_top #(
  parameter int unsigned Platform = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        apb_psel_i,
  input  logic        apb_penable_i,
  input  logic        apb_pwrite_i,
  input  logic [2:0]  apb_pprot_i,
  input  logic [15:0] apb_paddr_i,
  input  logic [31:0] apb_pwdata_i,
  input  logic [3:0]  apb_pstrb_i,
  output logic        apb_pready_o,
  output logic [31:0] apb_prdata_o,
  output logic        apb_pslverr_o,
  output logic        rdbuf_en_o
);
  tessera_bus_pkg::apb_req_t apb_req;
  tessera_bus_pkg::apb_rsp_t apb_rsp;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp)
  tessera_sysctrl #(.Platform(Platform)) u_sysctrl (
    .clk_i,
    .rst_ni,
    .apb_req_i(apb_req),
    .apb_rsp_o(apb_rsp),
    .rdbuf_en_o
  );
endmodule
