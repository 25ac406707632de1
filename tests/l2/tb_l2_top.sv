// Testbench top of the L2 slice testbench (tests/l2/l2_tb.cpp): tessera_l2 with the flat
// APB pins and per-port AXI pin arrays the C++ drives, connected to its bus structs with
// the assign macros of rtl/prim/tessera_bus.svh. Built with --prefix Vtessera_l2, so the
// C++ keeps its class name.
module tb_l2_top #(
  parameter int unsigned SizeBytes = 65536,
  parameter int unsigned Ways      = 8,
  parameter int unsigned LineBytes = 64,
  parameter int unsigned NumPorts  = 3,
  parameter int unsigned DataBits  = 256,
  parameter int unsigned IdBits    = 4,
  parameter int unsigned MIdBits   = 4,
  parameter int unsigned NumBanks  = 4,
  parameter int unsigned WqDepth   = 16,
  // read-ahead MSHRs (several line runs in flight): every downstream read ID that the
  // engines' demand MSHRs (IDs 0 .. 2*NumPorts-1) leave free
  parameter int unsigned NumPf     = (1 << MIdBits) - 2 * NumPorts,
  parameter int unsigned ArDepth   = 8,   // read bursts buffered per port (read-ahead horizon)
  // B responses each port's write engine queues (a power of two): one-beat posted writes
  // hold one each until their downstream B is back, so this bounds them in flight per port
  parameter int unsigned BqDepth   = 8,
  // downstream masters that carry reads: 1, or 2 = a second, read-only master (m1_axi_*)
  // that takes read-ahead refills beside the first (docs/l2.md "Second read master")
  parameter int unsigned RdMasters = 1,
  parameter logic [31:0] MemBase   = 32'h8000_0000,  // maintenance ranges must lie inside
  parameter logic [31:0] MemSize   = 32'h4000_0000
) (
  input  logic clk_i,
  input  logic rst_ni,
  // upstream AXI4 slave ports
  input  logic [NumPorts-1:0][IdBits-1:0]   s_axi_awid_i,
  input  logic [NumPorts-1:0][31:0]         s_axi_awaddr_i,
  input  logic [NumPorts-1:0][7:0]          s_axi_awlen_i,
  input  logic [NumPorts-1:0][2:0]          s_axi_awsize_i,
  input  logic [NumPorts-1:0][1:0]          s_axi_awburst_i,
  input  logic [NumPorts-1:0][3:0]          s_axi_awcache_i,
  input  logic [NumPorts-1:0][2:0]          s_axi_awprot_i,
  input  logic [NumPorts-1:0][3:0]          s_axi_awqos_i,
  input  logic [NumPorts-1:0]               s_axi_awvalid_i,
  output logic [NumPorts-1:0]               s_axi_awready_o,
  input  logic [NumPorts-1:0][DataBits-1:0] s_axi_wdata_i,
  input  logic [NumPorts-1:0][DataBits/8-1:0] s_axi_wstrb_i,
  input  logic [NumPorts-1:0]               s_axi_wlast_i,
  input  logic [NumPorts-1:0]               s_axi_wvalid_i,
  output logic [NumPorts-1:0]               s_axi_wready_o,
  output logic [NumPorts-1:0][IdBits-1:0]   s_axi_bid_o,
  output logic [NumPorts-1:0][1:0]          s_axi_bresp_o,
  output logic [NumPorts-1:0]               s_axi_bvalid_o,
  input  logic [NumPorts-1:0]               s_axi_bready_i,
  input  logic [NumPorts-1:0][IdBits-1:0]   s_axi_arid_i,
  input  logic [NumPorts-1:0][31:0]         s_axi_araddr_i,
  input  logic [NumPorts-1:0][7:0]          s_axi_arlen_i,
  input  logic [NumPorts-1:0][2:0]          s_axi_arsize_i,
  input  logic [NumPorts-1:0][1:0]          s_axi_arburst_i,
  input  logic [NumPorts-1:0][3:0]          s_axi_arcache_i,
  input  logic [NumPorts-1:0][2:0]          s_axi_arprot_i,
  input  logic [NumPorts-1:0][3:0]          s_axi_arqos_i,
  input  logic [NumPorts-1:0]               s_axi_arvalid_i,
  output logic [NumPorts-1:0]               s_axi_arready_o,
  output logic [NumPorts-1:0][IdBits-1:0]   s_axi_rid_o,
  output logic [NumPorts-1:0][DataBits-1:0] s_axi_rdata_o,
  output logic [NumPorts-1:0][1:0]          s_axi_rresp_o,
  output logic [NumPorts-1:0]               s_axi_rlast_o,
  output logic [NumPorts-1:0]               s_axi_rvalid_o,
  input  logic [NumPorts-1:0]               s_axi_rready_i,
  // downstream AXI4 master (to the fabric)
  output logic [MIdBits-1:0]  m_axi_awid_o,
  output logic [31:0]         m_axi_awaddr_o,
  output logic [7:0]          m_axi_awlen_o,
  output logic [2:0]          m_axi_awsize_o,
  output logic [1:0]          m_axi_awburst_o,
  output logic [3:0]          m_axi_awcache_o,
  output logic [2:0]          m_axi_awprot_o,
  output logic [3:0]          m_axi_awqos_o,
  output logic                m_axi_awvalid_o,
  input  logic                m_axi_awready_i,
  output logic [DataBits-1:0] m_axi_wdata_o,
  output logic [DataBits/8-1:0] m_axi_wstrb_o,
  output logic                m_axi_wlast_o,
  output logic                m_axi_wvalid_o,
  input  logic                m_axi_wready_i,
  input  logic [MIdBits-1:0]  m_axi_bid_i,
  input  logic [1:0]          m_axi_bresp_i,
  input  logic                m_axi_bvalid_i,
  output logic                m_axi_bready_o,
  output logic [MIdBits-1:0]  m_axi_arid_o,
  output logic [31:0]         m_axi_araddr_o,
  output logic [7:0]          m_axi_arlen_o,
  output logic [2:0]          m_axi_arsize_o,
  output logic [1:0]          m_axi_arburst_o,
  output logic [3:0]          m_axi_arcache_o,
  output logic [2:0]          m_axi_arprot_o,
  output logic [3:0]          m_axi_arqos_o,
  output logic                m_axi_arvalid_o,
  input  logic                m_axi_arready_i,
  input  logic [MIdBits-1:0]  m_axi_rid_i,
  input  logic [DataBits-1:0] m_axi_rdata_i,
  input  logic [1:0]          m_axi_rresp_i,
  input  logic                m_axi_rlast_i,
  input  logic                m_axi_rvalid_i,
  output logic                m_axi_rready_o,
  // second downstream master, reads only (RdMasters = 2; else arvalid 0, rready 1):
  // read-ahead refill bursts, ARID = 2*NumPorts + read-ahead MSHR index as on m_axi_*
  output logic [MIdBits-1:0]  m1_axi_arid_o,
  output logic [31:0]         m1_axi_araddr_o,
  output logic [7:0]          m1_axi_arlen_o,
  output logic [2:0]          m1_axi_arsize_o,
  output logic [1:0]          m1_axi_arburst_o,
  output logic [3:0]          m1_axi_arcache_o,
  output logic [2:0]          m1_axi_arprot_o,
  output logic [3:0]          m1_axi_arqos_o,
  output logic                m1_axi_arvalid_o,
  input  logic                m1_axi_arready_i,
  input  logic [MIdBits-1:0]  m1_axi_rid_i,
  input  logic [DataBits-1:0] m1_axi_rdata_i,
  input  logic [1:0]          m1_axi_rresp_i,
  input  logic                m1_axi_rlast_i,
  input  logic                m1_axi_rvalid_i,
  output logic                m1_axi_rready_o,
  // APB4 register slave
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
  // interrupt and completion message
  output logic        irq_o,
  output logic        msg_valid_o,
  input  logic        msg_ready_i,
  output logic [31:0] msg_addr_o,
  output logic [31:0] msg_data_o,
  // SHARED.slices_log2 (the chip's router interleaves by it, see tessera_l2_cluster)
  output logic [1:0]  cfg_slices_log2_o,
  // nothing in the slice moves without an input: no burst, miss, refill, write-back,
  // read-ahead or maintenance in progress, no response held (the chip gates its clock)
  output logic        idle_o
);
  logic [NumPorts-1:0][tessera_bus_pkg::AxiReqBits-1:0] slv_req_i;
  logic [NumPorts-1:0][tessera_bus_pkg::AxiRspBits-1:0] slv_rsp_o;
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    `TESSERA_AXI_REQ_FROM_FLAT(req, s_axi_, _i, [p])
    assign slv_req_i[p] = req;
    assign rsp = slv_rsp_o[p];
    `TESSERA_AXI_FLAT_FROM_RSP(s_axi_, _o, [p], rsp)
  end
  tessera_bus_pkg::axi_req_t mst_req_o;
  tessera_bus_pkg::axi_rsp_t mst_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, , mst_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(mst_rsp_i, m_axi_, _i, )
  // the read-only second master is per channel (AR, R and their handshakes)
  tessera_bus_pkg::axi_ax_chan_t mst1_ar_o;
  tessera_bus_pkg::axi_r_chan_t  mst1_r_i;
  logic                          mst1_ar_valid_o, mst1_ar_ready_i;
  logic                          mst1_r_valid_i, mst1_r_ready_o;
  `TESSERA_AXI_FLAT_FROM_AR(m1_axi_, _o, , mst1_ar_o, mst1_ar_valid_o, mst1_ar_ready_i, mst1_r_ready_o)
  `TESSERA_AXI_R_FROM_FLAT(mst1_r_i, mst1_r_valid_i, mst1_ar_ready_i, m1_axi_, _i, )
  tessera_bus_pkg::apb_req_t apb_req_i;
  tessera_bus_pkg::apb_rsp_t apb_rsp_o;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req_i, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp_o)

  tessera_l2 #(
    .SizeBytes(SizeBytes),
    .Ways(Ways),
    .LineBytes(LineBytes),
    .NumPorts(NumPorts),
    .DataBits(DataBits),
    .IdBits(IdBits),
    .MIdBits(MIdBits),
    .NumBanks(NumBanks),
    .WqDepth(WqDepth),
    .NumPf(NumPf),
    .ArDepth(ArDepth),
    .BqDepth(BqDepth),
    .RdMasters(RdMasters),
    .MemBase(MemBase),
    .MemSize(MemSize)
  ) u_dut (.*);
endmodule
