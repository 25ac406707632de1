// Testbench top of the core's block testbench (tests/core/tb_core.cpp): tessera_core with
// its OBI ports as the flat pins the C++ drives (instr_*, data_*), connected to the bus
// structs with the assign macros of rtl/prim/tessera_bus.svh. Built with
// --prefix Vtessera_core, so the C++ keeps its class name. The fetch port's we/be/wdata
// pins are driven by the core to zero (read-only port); the C++ does not look at them.
// The gate-level build (make core-gl-test) puts the Yosys netlist of tessera_core under
// this same wrapper (its struct ports become vectors of the same widths).
module tb_core_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        instr_req_o,
  input  logic        instr_gnt_i,
  output logic [31:0] instr_addr_o,
  output logic        instr_we_o,
  output logic [3:0]  instr_be_o,
  output logic [31:0] instr_wdata_o,
  input  logic        instr_rvalid_i,
  input  logic [31:0] instr_rdata_i,
  input  logic        instr_err_i,
  output logic        data_req_o,
  input  logic        data_gnt_i,
  output logic [31:0] data_addr_o,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_wdata_o,
  input  logic        data_rvalid_i,
  input  logic [31:0] data_rdata_i,
  input  logic        data_err_i,
  input  logic        irq_software_i,
  input  logic        irq_timer_i,
  input  logic        irq_external_i,
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o,
  output logic [31:0] trace_insn_o
);
  tessera_bus_pkg::obi_req_t ireq, dreq;
  tessera_bus_pkg::obi_rsp_t irsp, drsp;
  `TESSERA_OBI_FLAT_FROM_REQ(instr_, _o, , ireq)
  `TESSERA_OBI_RSP_FROM_FLAT(irsp, instr_, _i, )
  `TESSERA_OBI_FLAT_FROM_REQ(data_, _o, , dreq)
  `TESSERA_OBI_RSP_FROM_FLAT(drsp, data_, _i, )

  tessera_core u_core (
    .clk_i,
    .rst_ni,
    .instr_req_o   (ireq),
    .instr_rsp_i   (irsp),
    .data_req_o    (dreq),
    .data_rsp_i    (drsp),
    .irq_software_i,
    .irq_timer_i,
    .irq_external_i,
    .trace_valid_o,
    .trace_pc_o,
    .trace_insn_o
  );
endmodule
