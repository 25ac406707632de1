// Testbench top of the MME block testbench (tests/mme/tb_mme.cpp): tessera_mme with the
// flat APB and AXI pins the C++ drives, connected to its bus structs with the assign
// macros of rtl/prim/tessera_bus.svh. Built with --prefix Vtessera_mme, so the C++ keeps
// its class name. With TESSERA_TB_NETLIST defined it wraps the synthesized netlist of
// tessera_mme (make mme-gl-test), whose shape is fixed at synthesis (no parameters).
module tb_mme_top
#(
  parameter int unsigned Rows        = 16,           // array rows (power of two)
  parameter int unsigned Cols        = 16,           // array columns (power of two)
  parameter int unsigned KWords      = 64,           // operand buffer words per lane (power of two)
  parameter int unsigned AxiIdBits   = 4,
  parameter int unsigned AxiAddrBits = 32,           // must be 32
  parameter int unsigned AxiDataBits = 256,          // must be 256
  parameter logic [31:0] MemBase     = 32'h8000_0000, // addresses A/B/C/bias must lie in
  parameter logic [31:0] MemSize     = 32'h4000_0000
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // APB4 register slave
  input  logic                   apb_psel_i,
  input  logic                   apb_penable_i,
  input  logic                   apb_pwrite_i,
  input  logic [2:0]             apb_pprot_i,
  input  logic [15:0]            apb_paddr_i,
  input  logic [31:0]            apb_pwdata_i,
  input  logic [3:0]             apb_pstrb_i,
  output logic                   apb_pready_o,
  output logic [31:0]            apb_prdata_o,
  output logic                   apb_pslverr_o,
  // AXI4 master
  output logic [AxiIdBits-1:0]   m_axi_awid_o,
  output logic [AxiAddrBits-1:0] m_axi_awaddr_o,
  output logic [7:0]             m_axi_awlen_o,
  output logic [2:0]             m_axi_awsize_o,
  output logic [1:0]             m_axi_awburst_o,
  output logic [3:0]             m_axi_awcache_o,
  output logic [2:0]             m_axi_awprot_o,
  output logic [3:0]             m_axi_awqos_o,
  output logic                   m_axi_awvalid_o,
  input  logic                   m_axi_awready_i,
  output logic [AxiDataBits-1:0] m_axi_wdata_o,
  output logic [AxiDataBits/8-1:0] m_axi_wstrb_o,
  output logic                   m_axi_wlast_o,
  output logic                   m_axi_wvalid_o,
  input  logic                   m_axi_wready_i,
  input  logic [AxiIdBits-1:0]   m_axi_bid_i,
  input  logic [1:0]             m_axi_bresp_i,
  input  logic                   m_axi_bvalid_i,
  output logic                   m_axi_bready_o,
  output logic [AxiIdBits-1:0]   m_axi_arid_o,
  output logic [AxiAddrBits-1:0] m_axi_araddr_o,
  output logic [7:0]             m_axi_arlen_o,
  output logic [2:0]             m_axi_arsize_o,
  output logic [1:0]             m_axi_arburst_o,
  output logic [3:0]             m_axi_arcache_o,
  output logic [2:0]             m_axi_arprot_o,
  output logic [3:0]             m_axi_arqos_o,
  output logic                   m_axi_arvalid_o,
  input  logic                   m_axi_arready_i,
  input  logic [AxiIdBits-1:0]   m_axi_rid_i,
  input  logic [AxiDataBits-1:0] m_axi_rdata_i,
  input  logic [1:0]             m_axi_rresp_i,
  input  logic                   m_axi_rlast_i,
  input  logic                   m_axi_rvalid_i,
  output logic                   m_axi_rready_o,
  // Port B: a second AXI master. It reads the B panels (A panels and the init tile are
  // read on port m_axi_*), so A and B cross in parallel, and writes the odd rows of
  // each C tile (port A the even rows), so a tile drains in half the time.
  output logic [AxiIdBits-1:0]   mb_axi_awid_o,
  output logic [AxiAddrBits-1:0] mb_axi_awaddr_o,
  output logic [7:0]             mb_axi_awlen_o,
  output logic [2:0]             mb_axi_awsize_o,
  output logic [1:0]             mb_axi_awburst_o,
  output logic [3:0]             mb_axi_awcache_o,
  output logic [2:0]             mb_axi_awprot_o,
  output logic [3:0]             mb_axi_awqos_o,
  output logic                   mb_axi_awvalid_o,
  input  logic                   mb_axi_awready_i,
  output logic [AxiDataBits-1:0] mb_axi_wdata_o,
  output logic [AxiDataBits/8-1:0] mb_axi_wstrb_o,
  output logic                   mb_axi_wlast_o,
  output logic                   mb_axi_wvalid_o,
  input  logic                   mb_axi_wready_i,
  input  logic [AxiIdBits-1:0]   mb_axi_bid_i,
  input  logic [1:0]             mb_axi_bresp_i,
  input  logic                   mb_axi_bvalid_i,
  output logic                   mb_axi_bready_o,
  output logic [AxiIdBits-1:0]   mb_axi_arid_o,
  output logic [AxiAddrBits-1:0] mb_axi_araddr_o,
  output logic [7:0]             mb_axi_arlen_o,
  output logic [2:0]             mb_axi_arsize_o,
  output logic [1:0]             mb_axi_arburst_o,
  output logic [3:0]             mb_axi_arcache_o,
  output logic [2:0]             mb_axi_arprot_o,
  output logic [3:0]             mb_axi_arqos_o,
  output logic                   mb_axi_arvalid_o,
  input  logic                   mb_axi_arready_i,
  input  logic [AxiIdBits-1:0]   mb_axi_rid_i,
  input  logic [AxiDataBits-1:0] mb_axi_rdata_i,
  input  logic [1:0]             mb_axi_rresp_i,
  input  logic                   mb_axi_rlast_i,
  input  logic                   mb_axi_rvalid_i,
  output logic                   mb_axi_rready_o,
  // completion message to the Sync Manager
  output logic                   msg_valid_o,
  input  logic                   msg_ready_i,
  output logic [31:0]            msg_addr_o,
  output logic [31:0]            msg_data_o,
  // no job accepted or running (a queue manager's engine barrier)
  output logic                   idle_o,
  // interrupt (level): STATUS.done | STATUS.busy_reject
  output logic                   irq_o
);
  tessera_bus_pkg::apb_req_t apb_req_i;
  tessera_bus_pkg::apb_rsp_t apb_rsp_o;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req_i, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp_o)
  tessera_bus_pkg::axi_req_t mst_req_o;
  tessera_bus_pkg::axi_rsp_t mst_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, , mst_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(mst_rsp_i, m_axi_, _i, )
  tessera_bus_pkg::axi_req_t mstb_req_o;
  tessera_bus_pkg::axi_rsp_t mstb_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ(mb_axi_, _o, , mstb_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(mstb_rsp_i, mb_axi_, _i, )

  logic unused_params;
  assign unused_params = ^{AxiAddrBits, AxiDataBits};
`ifdef TESSERA_TB_NETLIST
  tessera_mme u_dut (.*);
`else
  tessera_mme #(
    .Rows(Rows),
    .Cols(Cols),
    .KWords(KWords),
    .AxiIdBits(AxiIdBits),
    .MemBase(MemBase),
    .MemSize(MemSize)
  ) u_dut (.*);
`endif
endmodule
