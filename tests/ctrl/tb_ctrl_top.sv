// Simulation-only wrapper for the control-path integration test: a DMA queue
// manager drives a DMA engine's registers through tessera_apb_mux (master 1),
// the testbench reaches both register blocks directly (the system-bus side),
// and a Sync Manager whose payloads the testbench routes like the system bus.
module tb_ctrl_top (
  input  logic         clk_i,
  input  logic         rst_ni,
  // testbench APB to the Sync Manager
  input  logic         s_psel_i,
  input  logic         s_penable_i,
  input  logic         s_pwrite_i,
  input  logic [15:0]  s_paddr_i,
  input  logic [31:0]  s_pwdata_i,
  output logic         s_pready_o,
  output logic [31:0]  s_prdata_o,
  output logic         s_pslverr_o,
  output logic         sm_valid_o,
  input  logic         sm_ready_i,
  output logic [31:0]  sm_addr_o,
  output logic [31:0]  sm_data_o,
  output logic         eng_psel_o,     // the queue manager starts an engine register write
  // testbench APB to the queue manager
  input  logic         q_psel_i,
  input  logic         q_penable_i,
  input  logic         q_pwrite_i,
  input  logic [15:0]  q_paddr_i,
  input  logic [31:0]  q_pwdata_i,
  output logic         q_pready_o,
  output logic [31:0]  q_prdata_o,
  output logic         q_pslverr_o,
  // testbench APB to the DMA (mux master 0)
  input  logic         d_psel_i,
  input  logic         d_penable_i,
  input  logic         d_pwrite_i,
  input  logic [15:0]  d_paddr_i,
  input  logic [31:0]  d_pwdata_i,
  output logic         d_pready_o,
  output logic [31:0]  d_prdata_o,
  output logic         d_pslverr_o,
  // queue manager AXI read port
  output logic [31:0]  q_araddr_o,
  output logic [7:0]   q_arlen_o,
  output logic         q_arvalid_o,
  input  logic         q_arready_i,
  input  logic [255:0] q_rdata_i,
  input  logic [1:0]   q_rresp_i,
  input  logic         q_rlast_i,
  input  logic         q_rvalid_i,
  // DMA AXI port
  output logic [31:0]  d_awaddr_o,
  output logic [7:0]   d_awlen_o,
  output logic         d_awvalid_o,
  input  logic         d_awready_i,
  output logic [255:0] d_wdata_o,
  output logic [31:0]  d_wstrb_o,
  output logic         d_wlast_o,
  output logic         d_wvalid_o,
  input  logic         d_wready_i,
  input  logic [1:0]   d_bresp_i,
  input  logic         d_bvalid_i,
  output logic [31:0]  d_araddr_o,
  output logic [7:0]   d_arlen_o,
  output logic         d_arvalid_o,
  input  logic         d_arready_i,
  input  logic [255:0] d_rdata_i,
  input  logic [1:0]   d_rresp_i,
  input  logic         d_rlast_i,
  input  logic         d_rvalid_i,
  // messages
  output logic         qm_valid_o,
  input  logic         qm_ready_i,
  output logic [31:0]  qm_addr_o,
  output logic [31:0]  qm_data_o,
  output logic         dm_valid_o,
  input  logic         dm_ready_i,
  output logic [31:0]  dm_addr_o,
  output logic [31:0]  dm_data_o,
  output logic         dma_idle_o,
  output logic         q_irq_o,
  output logic         d_irq_o
);
  logic        e_psel, e_penable, e_pwrite, e_pready, e_pslverr;
  logic [2:0]  e_pprot;
  logic [15:0] e_paddr;
  logic [31:0] e_pwdata, e_prdata;
  logic [3:0]  e_pstrb;
  logic        s_psel, s_penable, s_pwrite, s_pready, s_pslverr;
  logic [2:0]  s_pprot;
  logic [15:0] s_paddr;
  logic [31:0] s_pwdata, s_prdata;
  logic [3:0]  s_pstrb;
  logic [1:0]  m_pready, m_pslverr;
  logic [31:0] m_prdata;
  logic        dma_idle;

  tessera_qman u_qman (
    .clk_i, .rst_ni,
    .apb_psel_i(q_psel_i), .apb_penable_i(q_penable_i), .apb_pwrite_i(q_pwrite_i),
    .apb_pprot_i(3'b000), .apb_paddr_i(q_paddr_i), .apb_pwdata_i(q_pwdata_i), .apb_pstrb_i(4'hF),
    .apb_pready_o(q_pready_o), .apb_prdata_o(q_prdata_o), .apb_pslverr_o(q_pslverr_o),
    .m_axi_arid_o(), .m_axi_araddr_o(q_araddr_o), .m_axi_arlen_o(q_arlen_o), .m_axi_arsize_o(),
    .m_axi_arburst_o(), .m_axi_arcache_o(), .m_axi_arprot_o(), .m_axi_arqos_o(),
    .m_axi_arvalid_o(q_arvalid_o), .m_axi_arready_i(q_arready_i), .m_axi_rid_i(4'h0),
    .m_axi_rdata_i(q_rdata_i), .m_axi_rresp_i(q_rresp_i), .m_axi_rlast_i(q_rlast_i),
    .m_axi_rvalid_i(q_rvalid_i), .m_axi_rready_o(),
    .eng_psel_o(e_psel), .eng_penable_o(e_penable), .eng_pwrite_o(e_pwrite), .eng_pprot_o(e_pprot),
    .eng_paddr_o(e_paddr), .eng_pwdata_o(e_pwdata), .eng_pstrb_o(e_pstrb), .eng_pready_i(e_pready),
    .eng_prdata_i(e_prdata), .eng_pslverr_i(e_pslverr),
    .msg_valid_o(qm_valid_o), .msg_ready_i(qm_ready_i), .msg_addr_o(qm_addr_o), .msg_data_o(qm_data_o),
    .engine_idle_i(dma_idle), .fence_inc_i(1'b0), .fence_inc_idx_i(2'd0), .fence_inc_val_i(16'd0),
    .irq_o(q_irq_o), .idle_o()
  );

  tessera_apb_mux u_mux (
    .clk_i, .rst_ni,
    .m_psel_i({e_psel, d_psel_i}), .m_penable_i({e_penable, d_penable_i}),
    .m_pwrite_i({e_pwrite, d_pwrite_i}), .m_pprot_i({e_pprot, 3'b000}),
    .m_paddr_i({e_paddr, d_paddr_i}), .m_pwdata_i({e_pwdata, d_pwdata_i}),
    .m_pstrb_i({e_pstrb, 4'hF}), .m_pready_o(m_pready), .m_prdata_o(m_prdata),
    .m_pslverr_o(m_pslverr),
    .s_psel_o(s_psel), .s_penable_o(s_penable), .s_pwrite_o(s_pwrite), .s_pprot_o(s_pprot),
    .s_paddr_o(s_paddr), .s_pwdata_o(s_pwdata), .s_pstrb_o(s_pstrb), .s_pready_i(s_pready),
    .s_prdata_i(s_prdata), .s_pslverr_i(s_pslverr)
  );
  assign d_pready_o  = m_pready[0];
  assign d_pslverr_o = m_pslverr[0];
  assign d_prdata_o  = m_prdata;
  assign e_pready    = m_pready[1];
  assign e_pslverr   = m_pslverr[1];
  assign e_prdata    = m_prdata;

  // no host window here: the host port stays idle (its inputs tied off)
  tessera_dma #(.HostSize(32'h0)) u_dma (
    .clk_i, .rst_ni,
    .apb_psel_i(s_psel), .apb_penable_i(s_penable), .apb_pwrite_i(s_pwrite), .apb_pprot_i(s_pprot),
    .apb_paddr_i(s_paddr), .apb_pwdata_i(s_pwdata), .apb_pstrb_i(s_pstrb), .apb_pready_o(s_pready),
    .apb_prdata_o(s_prdata), .apb_pslverr_o(s_pslverr),
    .m_axi_awid_o(), .m_axi_awaddr_o(d_awaddr_o), .m_axi_awlen_o(d_awlen_o), .m_axi_awsize_o(),
    .m_axi_awburst_o(), .m_axi_awcache_o(), .m_axi_awprot_o(), .m_axi_awqos_o(),
    .m_axi_awvalid_o(d_awvalid_o), .m_axi_awready_i(d_awready_i), .m_axi_wdata_o(d_wdata_o),
    .m_axi_wstrb_o(d_wstrb_o), .m_axi_wlast_o(d_wlast_o), .m_axi_wvalid_o(d_wvalid_o),
    .m_axi_wready_i(d_wready_i), .m_axi_bid_i(4'h0), .m_axi_bresp_i(d_bresp_i),
    .m_axi_bvalid_i(d_bvalid_i), .m_axi_bready_o(),
    .m_axi_arid_o(), .m_axi_araddr_o(d_araddr_o), .m_axi_arlen_o(d_arlen_o), .m_axi_arsize_o(),
    .m_axi_arburst_o(), .m_axi_arcache_o(), .m_axi_arprot_o(), .m_axi_arqos_o(),
    .m_axi_arvalid_o(d_arvalid_o), .m_axi_arready_i(d_arready_i), .m_axi_rid_i(4'h0),
    .m_axi_rdata_i(d_rdata_i), .m_axi_rresp_i(d_rresp_i), .m_axi_rlast_i(d_rlast_i),
    .m_axi_rvalid_i(d_rvalid_i), .m_axi_rready_o(),
    .h_axi_awid_o(), .h_axi_awaddr_o(), .h_axi_awlen_o(), .h_axi_awsize_o(), .h_axi_awburst_o(),
    .h_axi_awvalid_o(), .h_axi_awready_i(1'b0), .h_axi_wdata_o(), .h_axi_wstrb_o(), .h_axi_wlast_o(),
    .h_axi_wvalid_o(), .h_axi_wready_i(1'b0), .h_axi_bid_i(4'h0), .h_axi_bresp_i(2'b00),
    .h_axi_bvalid_i(1'b0), .h_axi_bready_o(), .h_axi_arid_o(), .h_axi_araddr_o(), .h_axi_arlen_o(),
    .h_axi_arsize_o(), .h_axi_arburst_o(), .h_axi_arvalid_o(), .h_axi_arready_i(1'b0),
    .h_axi_rid_i(4'h0), .h_axi_rdata_i('0), .h_axi_rresp_i(2'b00), .h_axi_rlast_i(1'b0),
    .h_axi_rvalid_i(1'b0), .h_axi_rready_o(),
    .msg_valid_o(dm_valid_o), .msg_ready_i(dm_ready_i), .msg_addr_o(dm_addr_o), .msg_data_o(dm_data_o),
    .idle_o(dma_idle), .irq_o(d_irq_o)
  );
  assign dma_idle_o = dma_idle;
  assign eng_psel_o = e_psel;

  tessera_syncmgr u_sm (
    .clk_i, .rst_ni,
    .apb_psel_i(s_psel_i), .apb_penable_i(s_penable_i), .apb_pwrite_i(s_pwrite_i), .apb_pprot_i(3'b000),
    .apb_paddr_i(s_paddr_i), .apb_pwdata_i(s_pwdata_i), .apb_pstrb_i(4'hF), .apb_pready_o(s_pready_o),
    .apb_prdata_o(s_prdata_o), .apb_pslverr_o(s_pslverr_o),
    .msg_valid_o(sm_valid_o), .msg_ready_i(sm_ready_i), .msg_addr_o(sm_addr_o), .msg_data_o(sm_data_o),
    .msg_err_i(1'b0), .irq_o()
  );
endmodule
