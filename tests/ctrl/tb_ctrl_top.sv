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

  // the queue manager's and the DMA engine's bus ports, to and from the testbench's flat pins
  tessera_bus_pkg::apb_req_t q_apb_req, e_apb_req, d_apb_req;
  tessera_bus_pkg::apb_rsp_t q_apb_rsp, e_apb_rsp, d_apb_rsp;
  tessera_bus_pkg::axi_req_t q_axi_req, d_axi_req, h_axi_req;
  tessera_bus_pkg::axi_rsp_t q_axi_rsp, d_axi_rsp;
  assign q_apb_req = '{psel: q_psel_i, penable: q_penable_i, pwrite: q_pwrite_i, pprot: 3'b000,
                       paddr: q_paddr_i, pwdata: q_pwdata_i, pstrb: 4'hF};
  assign q_pready_o  = q_apb_rsp.pready;
  assign q_prdata_o  = q_apb_rsp.prdata;
  assign q_pslverr_o = q_apb_rsp.pslverr;
  assign q_araddr_o  = q_axi_req.ar.addr;
  assign q_arlen_o   = q_axi_req.ar.len;
  assign q_arvalid_o = q_axi_req.ar_valid;
  always_comb begin
    q_axi_rsp          = '0;
    q_axi_rsp.ar_ready = q_arready_i;
    q_axi_rsp.r.data   = q_rdata_i;
    q_axi_rsp.r.resp   = q_rresp_i;
    q_axi_rsp.r.last   = q_rlast_i;
    q_axi_rsp.r_valid  = q_rvalid_i;
  end
  assign e_psel    = e_apb_req.psel;
  assign e_penable = e_apb_req.penable;
  assign e_pwrite  = e_apb_req.pwrite;
  assign e_pprot   = e_apb_req.pprot;
  assign e_paddr   = e_apb_req.paddr;
  assign e_pwdata  = e_apb_req.pwdata;
  assign e_pstrb   = e_apb_req.pstrb;
  assign e_apb_rsp = '{pready: e_pready, prdata: e_prdata, pslverr: e_pslverr};

  tessera_qman u_qman (
    .clk_i, .rst_ni,
    .apb_req_i(q_apb_req), .apb_rsp_o(q_apb_rsp),
    .mst_req_o(q_axi_req), .mst_rsp_i(q_axi_rsp),
    .eng_req_o(e_apb_req), .eng_rsp_i(e_apb_rsp),
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
  assign d_apb_req = '{psel: s_psel, penable: s_penable, pwrite: s_pwrite, pprot: s_pprot,
                       paddr: s_paddr, pwdata: s_pwdata, pstrb: s_pstrb};
  assign s_pready  = d_apb_rsp.pready;
  assign s_prdata  = d_apb_rsp.prdata;
  assign s_pslverr = d_apb_rsp.pslverr;
  assign d_awaddr_o  = d_axi_req.aw.addr;
  assign d_awlen_o   = d_axi_req.aw.len;
  assign d_awvalid_o = d_axi_req.aw_valid;
  assign d_wdata_o   = d_axi_req.w.data;
  assign d_wstrb_o   = d_axi_req.w.strb;
  assign d_wlast_o   = d_axi_req.w.last;
  assign d_wvalid_o  = d_axi_req.w_valid;
  assign d_araddr_o  = d_axi_req.ar.addr;
  assign d_arlen_o   = d_axi_req.ar.len;
  assign d_arvalid_o = d_axi_req.ar_valid;
  always_comb begin
    d_axi_rsp          = '0;
    d_axi_rsp.aw_ready = d_awready_i;
    d_axi_rsp.w_ready  = d_wready_i;
    d_axi_rsp.b.resp   = d_bresp_i;
    d_axi_rsp.b_valid  = d_bvalid_i;
    d_axi_rsp.ar_ready = d_arready_i;
    d_axi_rsp.r.data   = d_rdata_i;
    d_axi_rsp.r.resp   = d_rresp_i;
    d_axi_rsp.r.last   = d_rlast_i;
    d_axi_rsp.r_valid  = d_rvalid_i;
  end

  // no host window here: the host port stays idle (its response tied off)
  tessera_dma #(.HostSize(32'h0)) u_dma (
    .clk_i, .rst_ni,
    .apb_req_i(d_apb_req), .apb_rsp_o(d_apb_rsp),
    .mst_req_o(d_axi_req), .mst_rsp_i(d_axi_rsp),
    .host_req_o(h_axi_req), .host_rsp_i('0),
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
