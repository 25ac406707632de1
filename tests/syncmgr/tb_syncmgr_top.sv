// Simulation wrapper for the Sync Manager block testbench: flat APB and message
// pins around tessera_syncmgr (built with --prefix Vtessera_syncmgr, so the C++
// testbench keeps its class name), so that a change of the block's port types
// only touches this file.
module tb_syncmgr_top #(
  parameter int unsigned NumSobs = 256,
  parameter int unsigned NumMons = 64
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
  output logic        msg_valid_o,
  input  logic        msg_ready_i,
  output logic [31:0] msg_addr_o,
  output logic [31:0] msg_data_o,
  input  logic        msg_err_i,
  output logic        irq_o
);
  tessera_bus_pkg::apb_req_t apb_req;
  tessera_bus_pkg::apb_rsp_t apb_rsp;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp)
  tessera_syncmgr #(
    .NumSobs(NumSobs),
    .NumMons(NumMons)
  ) u_syncmgr (
    .clk_i,
    .rst_ni,
    .apb_req_i(apb_req),
    .apb_rsp_o(apb_rsp),
    .msg_valid_o,
    .msg_ready_i,
    .msg_addr_o,
    .msg_data_o,
    .msg_err_i,
    .irq_o
  );
endmodule
