// Testbench top of the crossbar block testbench (tests/fabric/fabric_tb.cpp): tessera_axi_xbar
// with the flat AXI pins the C++ drives (s_axi_* from the masters, m_axi_* to the channels),
// packed into and out of the bus structs with the assign macros of rtl/prim/tessera_bus.svh.
// Built with --prefix Vtessera_axi_xbar, so the C++ keeps its class name.
module tb_xbar_top #(
  parameter int unsigned NumMst          = 2,
  parameter int unsigned NumSlv          = 4,
  parameter int unsigned IdBits          = 4,
  parameter int unsigned SlvIdBits       = IdBits + 4,
  parameter int unsigned InterleaveBytes = 256,
  parameter bit          ChannelHash     = 1'b0,
  parameter logic [31:0] MemBase         = 32'h8000_0000,
  parameter logic [31:0] MemSize         = 32'h4000_0000,
  parameter int unsigned ReorderBeats    = 64,
  parameter int unsigned WriteSlots      = 8,
  parameter int unsigned WBufBeats       = 0,
  localparam int unsigned DataBits       = tessera_bus_pkg::DataBits
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic [NumMst-1:0][IdBits-1:0]       s_axi_awid_i,
  input  logic [NumMst-1:0][31:0]             s_axi_awaddr_i,
  input  logic [NumMst-1:0][7:0]              s_axi_awlen_i,
  input  logic [NumMst-1:0][2:0]              s_axi_awsize_i,
  input  logic [NumMst-1:0][1:0]              s_axi_awburst_i,
  input  logic [NumMst-1:0][3:0]              s_axi_awcache_i,
  input  logic [NumMst-1:0][2:0]              s_axi_awprot_i,
  input  logic [NumMst-1:0][3:0]              s_axi_awqos_i,
  input  logic [NumMst-1:0]                   s_axi_awvalid_i,
  output logic [NumMst-1:0]                   s_axi_awready_o,
  input  logic [NumMst-1:0][DataBits-1:0]     s_axi_wdata_i,
  input  logic [NumMst-1:0][DataBits/8-1:0]   s_axi_wstrb_i,
  input  logic [NumMst-1:0]                   s_axi_wlast_i,
  input  logic [NumMst-1:0]                   s_axi_wvalid_i,
  output logic [NumMst-1:0]                   s_axi_wready_o,
  output logic [NumMst-1:0][IdBits-1:0]       s_axi_bid_o,
  output logic [NumMst-1:0][1:0]              s_axi_bresp_o,
  output logic [NumMst-1:0]                   s_axi_bvalid_o,
  input  logic [NumMst-1:0]                   s_axi_bready_i,
  input  logic [NumMst-1:0][IdBits-1:0]       s_axi_arid_i,
  input  logic [NumMst-1:0][31:0]             s_axi_araddr_i,
  input  logic [NumMst-1:0][7:0]              s_axi_arlen_i,
  input  logic [NumMst-1:0][2:0]              s_axi_arsize_i,
  input  logic [NumMst-1:0][1:0]              s_axi_arburst_i,
  input  logic [NumMst-1:0][3:0]              s_axi_arcache_i,
  input  logic [NumMst-1:0][2:0]              s_axi_arprot_i,
  input  logic [NumMst-1:0][3:0]              s_axi_arqos_i,
  input  logic [NumMst-1:0]                   s_axi_arvalid_i,
  output logic [NumMst-1:0]                   s_axi_arready_o,
  output logic [NumMst-1:0][IdBits-1:0]       s_axi_rid_o,
  output logic [NumMst-1:0][DataBits-1:0]     s_axi_rdata_o,
  output logic [NumMst-1:0][1:0]              s_axi_rresp_o,
  output logic [NumMst-1:0]                   s_axi_rlast_o,
  output logic [NumMst-1:0]                   s_axi_rvalid_o,
  input  logic [NumMst-1:0]                   s_axi_rready_i,
  output logic [NumSlv-1:0][SlvIdBits-1:0]    m_axi_awid_o,
  output logic [NumSlv-1:0][31:0]             m_axi_awaddr_o,
  output logic [NumSlv-1:0][7:0]              m_axi_awlen_o,
  output logic [NumSlv-1:0][2:0]              m_axi_awsize_o,
  output logic [NumSlv-1:0][1:0]              m_axi_awburst_o,
  output logic [NumSlv-1:0][3:0]              m_axi_awcache_o,
  output logic [NumSlv-1:0][2:0]              m_axi_awprot_o,
  output logic [NumSlv-1:0][3:0]              m_axi_awqos_o,
  output logic [NumSlv-1:0]                   m_axi_awvalid_o,
  input  logic [NumSlv-1:0]                   m_axi_awready_i,
  output logic [NumSlv-1:0][DataBits-1:0]     m_axi_wdata_o,
  output logic [NumSlv-1:0][DataBits/8-1:0]   m_axi_wstrb_o,
  output logic [NumSlv-1:0]                   m_axi_wlast_o,
  output logic [NumSlv-1:0]                   m_axi_wvalid_o,
  input  logic [NumSlv-1:0]                   m_axi_wready_i,
  input  logic [NumSlv-1:0][SlvIdBits-1:0]    m_axi_bid_i,
  input  logic [NumSlv-1:0][1:0]              m_axi_bresp_i,
  input  logic [NumSlv-1:0]                   m_axi_bvalid_i,
  output logic [NumSlv-1:0]                   m_axi_bready_o,
  output logic [NumSlv-1:0][SlvIdBits-1:0]    m_axi_arid_o,
  output logic [NumSlv-1:0][31:0]             m_axi_araddr_o,
  output logic [NumSlv-1:0][7:0]              m_axi_arlen_o,
  output logic [NumSlv-1:0][2:0]              m_axi_arsize_o,
  output logic [NumSlv-1:0][1:0]              m_axi_arburst_o,
  output logic [NumSlv-1:0][3:0]              m_axi_arcache_o,
  output logic [NumSlv-1:0][2:0]              m_axi_arprot_o,
  output logic [NumSlv-1:0][3:0]              m_axi_arqos_o,
  output logic [NumSlv-1:0]                   m_axi_arvalid_o,
  input  logic [NumSlv-1:0]                   m_axi_arready_i,
  input  logic [NumSlv-1:0][SlvIdBits-1:0]    m_axi_rid_i,
  input  logic [NumSlv-1:0][DataBits-1:0]     m_axi_rdata_i,
  input  logic [NumSlv-1:0][1:0]              m_axi_rresp_i,
  input  logic [NumSlv-1:0]                   m_axi_rlast_i,
  input  logic [NumSlv-1:0]                   m_axi_rvalid_i,
  output logic [NumSlv-1:0]                   m_axi_rready_o
);
  logic [NumMst-1:0][tessera_bus_pkg::AxiReqBits-1:0]    slv_req;
  logic [NumMst-1:0][tessera_bus_pkg::AxiRspBits-1:0]    slv_rsp;
  logic [NumSlv-1:0][tessera_bus_pkg::AxiMemReqBits-1:0] mst_req;
  logic [NumSlv-1:0][tessera_bus_pkg::AxiMemRspBits-1:0] mst_rsp;

  // flat IDs are zero-extended into the structs and truncated out of them
  for (genvar m = 0; m < NumMst; m++) begin : g_mst
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    `TESSERA_AXI_REQ_FROM_FLAT(req, s_axi_, _i, [m])
    assign slv_req[m] = req;
    assign rsp = slv_rsp[m];
    `TESSERA_AXI_FLAT_FROM_RSP(s_axi_, _o, [m], rsp)
  end
  for (genvar c = 0; c < NumSlv; c++) begin : g_chan
    tessera_bus_pkg::axi_mem_req_t req;
    tessera_bus_pkg::axi_mem_rsp_t rsp;
    assign req = mst_req[c];
    `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, [c], req)
    `TESSERA_AXI_RSP_FROM_FLAT(rsp, m_axi_, _i, [c])
    assign mst_rsp[c] = rsp;
  end

  tessera_axi_xbar #(
    .NumMst         (NumMst),
    .NumSlv         (NumSlv),
    .IdBits         (IdBits),
    .SlvIdBits      (SlvIdBits),
    .InterleaveBytes(InterleaveBytes),
    .ChannelHash    (ChannelHash),
    .MemBase        (MemBase),
    .MemSize        (MemSize),
    .ReorderBeats   (ReorderBeats),
    .WriteSlots     (WriteSlots),
    .WBufBeats      (WBufBeats)
  ) u_xbar (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(slv_req),
    .slv_rsp_o(slv_rsp),
    .mst_req_o(mst_req),
    .mst_rsp_i(mst_rsp)
  );
endmodule
