// Testbench top of the OBI->AXI bridge testbench (tests/fabric/obi_tb.cpp): tessera_obi2axi
// with the flat AXI pins (m_axi_*) the C++ drives, connected to its bus structs with the
// assign macros of rtl/prim/tessera_bus.svh. Built with --prefix Vtessera_obi2axi, so the
// C++ keeps its class name. IDs are IdBits wide here (the bridge drives ID 0).
module tb_obi_top #(
  parameter int unsigned IdBits   = 4,
  parameter int unsigned BufBeats = 2,
  localparam int unsigned DataBits = tessera_bus_pkg::DataBits
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  obi_req_i,
  output logic                  obi_gnt_o,
  input  logic [31:0]           obi_addr_i,
  input  logic                  obi_we_i,
  input  logic [3:0]            obi_be_i,
  input  logic [31:0]           obi_wdata_i,
  output logic                  obi_rvalid_o,
  output logic [31:0]           obi_rdata_o,
  output logic                  obi_err_o,
  input  logic                  rdbuf_en_i,
  output logic [IdBits-1:0]     m_axi_awid_o,
  output logic [31:0]           m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic [2:0]            m_axi_awsize_o,
  output logic [1:0]            m_axi_awburst_o,
  output logic [3:0]            m_axi_awcache_o,
  output logic [2:0]            m_axi_awprot_o,
  output logic [3:0]            m_axi_awqos_o,
  output logic                  m_axi_awvalid_o,
  input  logic                  m_axi_awready_i,
  output logic [DataBits-1:0]   m_axi_wdata_o,
  output logic [DataBits/8-1:0] m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  output logic                  m_axi_wvalid_o,
  input  logic                  m_axi_wready_i,
  input  logic [IdBits-1:0]     m_axi_bid_i,
  input  logic [1:0]            m_axi_bresp_i,
  input  logic                  m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  output logic [IdBits-1:0]     m_axi_arid_o,
  output logic [31:0]           m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  output logic [3:0]            m_axi_arcache_o,
  output logic [2:0]            m_axi_arprot_o,
  output logic [3:0]            m_axi_arqos_o,
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  input  logic [IdBits-1:0]     m_axi_rid_i,
  input  logic [DataBits-1:0]   m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i,
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o
);
  tessera_bus_pkg::axi_req_t req;
  tessera_bus_pkg::axi_rsp_t rsp;
  `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, , req)
  `TESSERA_AXI_RSP_FROM_FLAT(rsp, m_axi_, _i, )

  tessera_bus_pkg::obi_req_t obi_req;
  tessera_bus_pkg::obi_rsp_t obi_rsp;
  `TESSERA_OBI_REQ_FROM_FLAT(obi_req, obi_, _i, )
  `TESSERA_OBI_FLAT_FROM_RSP(obi_, _o, , obi_rsp)
  tessera_obi2axi #(.BufBeats(BufBeats)) u_obi2axi (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .obi_req_i   (obi_req),
    .obi_rsp_o   (obi_rsp),
    .rdbuf_en_i  (rdbuf_en_i),
    .mst_req_o   (req),
    .mst_rsp_i   (rsp)
  );
endmodule
