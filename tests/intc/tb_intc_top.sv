// Simulation wrapper for the INTC block testbench: flat APB, source and
// interrupt pins around tessera_intc, so that a change of the block's port
// types only touches this file.
module tb_intc_top (
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
  input  logic [23:0] src_i,
  output logic        core_irq_o,
  output logic        host_irq_o
);
  tessera_bus_pkg::apb_req_t apb_req;
  tessera_bus_pkg::apb_rsp_t apb_rsp;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp)
  tessera_intc u_intc (
    .clk_i,
    .rst_ni,
    .apb_req_i(apb_req),
    .apb_rsp_o(apb_rsp),
    .src_i,
    .core_irq_o,
    .host_irq_o
  );
endmodule
