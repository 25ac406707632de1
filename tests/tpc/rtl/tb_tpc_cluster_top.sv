// Testbench top of the TPC cluster testbench (tests/tpc/rtl/tpcc_harness.cpp):
// tessera_tpc_cluster with the flat APB pins and per-master AXI pin arrays the C++ drives,
// connected to its bus structs with the assign macros of rtl/prim/tessera_bus.svh. Built
// with --prefix Vtessera_tpc_cluster, so the C++ keeps its class name.
module tb_tpc_cluster_top #(
  parameter int unsigned Dcores      = tessera_cfg_pkg::Dcores,
  parameter int unsigned TpcPerDcore = tessera_cfg_pkg::TpcPerDcore,
  parameter int unsigned PortsPerDcore = tessera_cfg_pkg::TpcPortsPerDcore,  // divides TpcPerDcore
  parameter int unsigned ImemDepth   = 1024,   // bundles per TPC
  parameter int unsigned SlmBytes    = 1024,
  parameter int unsigned VlmBytes    = 16384,
  parameter int unsigned IdBits      = tessera_cfg_pkg::AxiIdBits,
  parameter logic [31:0] MemBase     = tessera_cfg_pkg::HbmBase,        // device memory:
  parameter logic [32:0] MemSize     = {1'b0, tessera_cfg_pkg::HbmSize}, // program and tensors
  localparam int unsigned NumM       = Dcores * PortsPerDcore   // AXI masters
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // register block (APB4)
  input  logic                              apb_psel_i,
  input  logic                              apb_penable_i,
  input  logic                              apb_pwrite_i,
  input  logic [2:0]                        apb_pprot_i,
  input  logic [15:0]                       apb_paddr_i,
  input  logic [31:0]                       apb_pwdata_i,
  input  logic [3:0]                        apb_pstrb_i,
  output logic                              apb_pready_o,
  output logic [31:0]                       apb_prdata_o,
  output logic                              apb_pslverr_o,
  // PortsPerDcore AXI4 masters per DCORE (master d * PortsPerDcore + q)
  output logic [NumM-1:0]  [IdBits-1:0]     m_axi_awid_o,
  output logic [NumM-1:0]  [31:0]           m_axi_awaddr_o,
  output logic [NumM-1:0]  [7:0]            m_axi_awlen_o,
  output logic [NumM-1:0]  [2:0]            m_axi_awsize_o,
  output logic [NumM-1:0]  [1:0]            m_axi_awburst_o,
  output logic [NumM-1:0]  [3:0]            m_axi_awcache_o,
  output logic [NumM-1:0]  [2:0]            m_axi_awprot_o,
  output logic [NumM-1:0]  [3:0]            m_axi_awqos_o,
  output logic [NumM-1:0]                   m_axi_awvalid_o,
  input  logic [NumM-1:0]                   m_axi_awready_i,
  output logic [NumM-1:0]  [255:0]          m_axi_wdata_o,
  output logic [NumM-1:0]  [31:0]           m_axi_wstrb_o,
  output logic [NumM-1:0]                   m_axi_wlast_o,
  output logic [NumM-1:0]                   m_axi_wvalid_o,
  input  logic [NumM-1:0]                   m_axi_wready_i,
  input  logic [NumM-1:0]  [IdBits-1:0]     m_axi_bid_i,
  input  logic [NumM-1:0]  [1:0]            m_axi_bresp_i,
  input  logic [NumM-1:0]                   m_axi_bvalid_i,
  output logic [NumM-1:0]                   m_axi_bready_o,
  output logic [NumM-1:0]  [IdBits-1:0]     m_axi_arid_o,
  output logic [NumM-1:0]  [31:0]           m_axi_araddr_o,
  output logic [NumM-1:0]  [7:0]            m_axi_arlen_o,
  output logic [NumM-1:0]  [2:0]            m_axi_arsize_o,
  output logic [NumM-1:0]  [1:0]            m_axi_arburst_o,
  output logic [NumM-1:0]  [3:0]            m_axi_arcache_o,
  output logic [NumM-1:0]  [2:0]            m_axi_arprot_o,
  output logic [NumM-1:0]  [3:0]            m_axi_arqos_o,
  output logic [NumM-1:0]                   m_axi_arvalid_o,
  input  logic [NumM-1:0]                   m_axi_arready_i,
  input  logic [NumM-1:0]  [IdBits-1:0]     m_axi_rid_i,
  input  logic [NumM-1:0]  [255:0]          m_axi_rdata_i,
  input  logic [NumM-1:0]  [1:0]            m_axi_rresp_i,
  input  logic [NumM-1:0]                   m_axi_rlast_i,
  input  logic [NumM-1:0]                   m_axi_rvalid_i,
  output logic [NumM-1:0]                   m_axi_rready_o,
  // completion message (-> system bus) and interrupt
  output logic                              msg_valid_o,
  input  logic                              msg_ready_i,
  output logic [31:0]                       msg_addr_o,
  output logic [31:0]                       msg_data_o,
  output logic                              irq_o,
  output logic                              idle_o    // no launch latched or running
);
  tessera_bus_pkg::apb_req_t apb_req_i;
  tessera_bus_pkg::apb_rsp_t apb_rsp_o;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req_i, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp_o)
  logic [NumM-1:0][tessera_bus_pkg::AxiReqBits-1:0] mst_req_o;
  logic [NumM-1:0][tessera_bus_pkg::AxiRspBits-1:0] mst_rsp_i;
  for (genvar m = 0; m < NumM; m++) begin : g_mst
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    assign req = mst_req_o[m];
    `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, [m], req)
    `TESSERA_AXI_RSP_FROM_FLAT(rsp, m_axi_, _i, [m])
    assign mst_rsp_i[m] = rsp;
  end

  tessera_tpc_cluster #(
    .Dcores(Dcores),
    .TpcPerDcore(TpcPerDcore),
    .PortsPerDcore(PortsPerDcore),
    .ImemDepth(ImemDepth),
    .SlmBytes(SlmBytes),
    .VlmBytes(VlmBytes),
    .IdBits(IdBits),
    .MemBase(MemBase),
    .MemSize(MemSize)
  ) u_dut (.*);
endmodule
