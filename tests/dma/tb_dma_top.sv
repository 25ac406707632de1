// Testbench top of the DMA block testbench (tests/dma/tb_dma.cpp): tessera_dma with the
// flat APB and AXI pins the C++ drives, connected to its bus structs with the assign
// macros of rtl/prim/tessera_bus.svh. Built with --prefix Vtessera_dma, so the C++ keeps
// its class name.
module tb_dma_top #(
  parameter logic [31:0] MemBase   = tessera_cfg_pkg::HbmBase,
  parameter logic [31:0] MemSize   = tessera_cfg_pkg::HbmSize,
  // host memory window: a side of a linear/strided/memset/transpose job inside it moves
  // through the host port (h_axi_*) instead of the memory port (0 size: no window)
  parameter logic [31:0] HostBase  = tessera_cfg_pkg::HostBase,
  parameter logic [31:0] HostSize  = tessera_cfg_pkg::HostSize,
  parameter int unsigned FifoBeats = tessera_cfg_pkg::DmaBufBeats,  // beat buffer (power of 2, >= 16)
  parameter int unsigned IdBits    = 4,      // AXI ID width of the ports (the chip's axi_id_bits)
  parameter logic [3:0]  AxiId     = 4'h0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // APB4 register slave
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
  // AXI4 master
  output logic [IdBits-1:0]   m_axi_awid_o,
  output logic [31:0]  m_axi_awaddr_o,
  output logic [7:0]   m_axi_awlen_o,
  output logic [2:0]   m_axi_awsize_o,
  output logic [1:0]   m_axi_awburst_o,
  output logic [3:0]   m_axi_awcache_o,
  output logic [2:0]   m_axi_awprot_o,
  output logic [3:0]   m_axi_awqos_o,
  output logic         m_axi_awvalid_o,
  input  logic         m_axi_awready_i,
  output logic [255:0] m_axi_wdata_o,
  output logic [31:0]  m_axi_wstrb_o,
  output logic         m_axi_wlast_o,
  output logic         m_axi_wvalid_o,
  input  logic         m_axi_wready_i,
  input  logic [IdBits-1:0]   m_axi_bid_i,
  input  logic [1:0]   m_axi_bresp_i,
  input  logic         m_axi_bvalid_i,
  output logic         m_axi_bready_o,
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
  // AXI4 master to host memory (same ID, sizes and bursts as the memory port)
  output logic [IdBits-1:0]   h_axi_awid_o,
  output logic [31:0]  h_axi_awaddr_o,
  output logic [7:0]   h_axi_awlen_o,
  output logic [2:0]   h_axi_awsize_o,
  output logic [1:0]   h_axi_awburst_o,
  output logic         h_axi_awvalid_o,
  input  logic         h_axi_awready_i,
  output logic [255:0] h_axi_wdata_o,
  output logic [31:0]  h_axi_wstrb_o,
  output logic         h_axi_wlast_o,
  output logic         h_axi_wvalid_o,
  input  logic         h_axi_wready_i,
  input  logic [IdBits-1:0]   h_axi_bid_i,
  input  logic [1:0]   h_axi_bresp_i,
  input  logic         h_axi_bvalid_i,
  output logic         h_axi_bready_o,
  output logic [IdBits-1:0]   h_axi_arid_o,
  output logic [31:0]  h_axi_araddr_o,
  output logic [7:0]   h_axi_arlen_o,
  output logic [2:0]   h_axi_arsize_o,
  output logic [1:0]   h_axi_arburst_o,
  output logic         h_axi_arvalid_o,
  input  logic         h_axi_arready_i,
  input  logic [IdBits-1:0]   h_axi_rid_i,
  input  logic [255:0] h_axi_rdata_i,
  input  logic [1:0]   h_axi_rresp_i,
  input  logic         h_axi_rlast_i,
  input  logic         h_axi_rvalid_i,
  output logic         h_axi_rready_o,
  // completion message
  output logic         msg_valid_o,
  input  logic         msg_ready_i,
  output logic [31:0]  msg_addr_o,
  output logic [31:0]  msg_data_o,
  output logic         idle_o,
  output logic         irq_o
);
  tessera_bus_pkg::apb_req_t apb_req_i;
  tessera_bus_pkg::apb_rsp_t apb_rsp_o;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req_i, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp_o)
  tessera_bus_pkg::axi_req_t mst_req_o;
  tessera_bus_pkg::axi_rsp_t mst_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, , mst_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(mst_rsp_i, m_axi_, _i, )
  tessera_bus_pkg::axi_req_t host_req_o;
  tessera_bus_pkg::axi_rsp_t host_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ_MIN(h_axi_, _o, , host_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(host_rsp_i, h_axi_, _i, )

  tessera_dma #(
    .MemBase(MemBase),
    .MemSize(MemSize),
    .HostBase(HostBase),
    .HostSize(HostSize),
    .FifoBeats(FifoBeats),
    .IdBits(IdBits),
    .AxiId(AxiId)
  ) u_dut (.*);
endmodule
