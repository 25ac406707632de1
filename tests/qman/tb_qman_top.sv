// Testbench top of the queue-manager block testbench (tests/qman/tb_qman.cpp):
// tessera_qman with the flat APB and AXI pins the C++ drives, connected to its bus
// structs with the assign macros of rtl/prim/tessera_bus.svh. Built with
// --prefix Vtessera_qman, so the C++ keeps its class name.
module tb_qman_top #(
  parameter int unsigned NumSobs   = 256,
  parameter logic [31:0] MemBase   = tessera_cfg_pkg::HbmBase,
  parameter logic [31:0] MemSize   = tessera_cfg_pkg::HbmSize,
  parameter int unsigned FifoBeats = 16,     // prefetch buffer, 32-byte beats (power of 2, >= 8)
  parameter int unsigned IdBits    = 4,      // AXI ID width of the ports (the chip's axi_id_bits)
  parameter logic [3:0]  AxiId     = 4'h0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // APB4 register slave (16-bit offsets)
  input  logic         apb_psel_i,
  input  logic         apb_penable_i,
  input  logic         apb_pwrite_i,
  input  logic [2:0]   apb_pprot_i,
  input  logic [15:0]  apb_paddr_i,
  input  logic [31:0]  apb_pwdata_i,
  input  logic [3:0]   apb_pstrb_i,
  output logic         apb_pready_o,
  output logic [31:0]  apb_prdata_o,
  output logic         apb_pslverr_o,
  // AXI4 read master (command-buffer fetch)
  output logic [IdBits-1:0]   m_axi_arid_o,
  output logic [31:0]  m_axi_araddr_o,
  output logic [7:0]   m_axi_arlen_o,
  output logic [2:0]   m_axi_arsize_o,
  output logic [1:0]   m_axi_arburst_o,
  output logic [3:0]   m_axi_arcache_o,
  output logic [2:0]   m_axi_arprot_o,
  output logic [3:0]   m_axi_arqos_o,
  output logic         m_axi_arvalid_o,
  input  logic         m_axi_arready_i,
  input  logic [IdBits-1:0]   m_axi_rid_i,
  input  logic [255:0] m_axi_rdata_i,
  input  logic [1:0]   m_axi_rresp_i,
  input  logic         m_axi_rlast_i,
  input  logic         m_axi_rvalid_i,
  output logic         m_axi_rready_o,
  // APB4 master towards the engine's register block (through tessera_apb_mux)
  output logic         eng_psel_o,
  output logic         eng_penable_o,
  output logic         eng_pwrite_o,
  output logic [2:0]   eng_pprot_o,
  output logic [15:0]  eng_paddr_o,
  output logic [31:0]  eng_pwdata_o,
  output logic [3:0]   eng_pstrb_o,
  input  logic         eng_pready_i,
  input  logic [31:0]  eng_prdata_i,
  input  logic         eng_pslverr_i,
  // messages (MSG_LONG, MSG_SHORT, completion) -> system-bus writes
  output logic         msg_valid_o,
  input  logic         msg_ready_i,
  output logic [31:0]  msg_addr_o,
  output logic [31:0]  msg_data_o,
  // engine status for the engine barrier
  input  logic         engine_idle_i,
  // direct fence increment (same effect as a write to FENCE[fence_inc_idx_i]; the chip
  // top routes Sync-Manager payloads addressed to this queue's FENCE registers here)
  input  logic         fence_inc_i,
  input  logic [1:0]   fence_inc_idx_i,
  input  logic [15:0]  fence_inc_val_i,
  output logic         irq_o,
  // nothing moves without an input: no packet in execution, no fetch request, engine
  // register access or message pending (read beats of an aborted fetch may still arrive;
  // they are inputs). See the queue managers' clock gates in tessera_top.
  output logic         idle_o
);
  tessera_bus_pkg::apb_req_t apb_req_i;
  tessera_bus_pkg::apb_rsp_t apb_rsp_o;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req_i, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp_o)
  tessera_bus_pkg::axi_req_t mst_req_o;
  tessera_bus_pkg::axi_rsp_t mst_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ_RD(m_axi_, _o, , mst_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT_RD(mst_rsp_i, m_axi_, _i, )
  tessera_bus_pkg::apb_req_t eng_req_o;
  tessera_bus_pkg::apb_rsp_t eng_rsp_i;
  `TESSERA_APB_FLAT_FROM_REQ(eng_, _o, , eng_req_o)
  `TESSERA_APB_RSP_FROM_FLAT(eng_rsp_i, eng_, _i, )

  tessera_qman #(
    .NumSobs(NumSobs),
    .MemBase(MemBase),
    .MemSize(MemSize),
    .FifoBeats(FifoBeats),
    .IdBits(IdBits),
    .AxiId(AxiId)
  ) u_dut (.*);
endmodule
