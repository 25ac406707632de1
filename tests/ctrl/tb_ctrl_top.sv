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
  // the APB mux's masters: 0 the testbench's register pins (d_p*), 1 the queue manager
  tessera_bus_pkg::apb_req_t                   dt_apb_req;
  tessera_bus_pkg::apb_rsp_t                   dt_apb_rsp;
  logic [1:0][tessera_bus_pkg::ApbRspBits-1:0] mux_rsp;
  logic        dma_idle;

  // the queue manager's and the DMA engine's bus ports, to and from the testbench's flat pins
  tessera_bus_pkg::apb_req_t q_apb_req, e_apb_req, d_apb_req;
  tessera_bus_pkg::apb_rsp_t q_apb_rsp, e_apb_rsp, d_apb_rsp;
  tessera_bus_pkg::axi_req_t q_axi_req, d_axi_req, h_axi_req;
  tessera_bus_pkg::axi_rsp_t q_axi_rsp, d_axi_rsp;
  assign q_apb_req = '{psel: q_psel_i, penable: q_penable_i, pwrite: q_pwrite_i, pprot: 3'b000,
                       paddr: q_paddr_i, pwdata: q_pwdata_i, pstrb: 4'hF};
  `TESSERA_APB_FLAT_FROM_RSP(q_, _o, , q_apb_rsp)
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

  tessera_qman u_qman (
    .clk_i, .rst_ni,
    .apb_req_i(q_apb_req), .apb_rsp_o(q_apb_rsp),
    .mst_req_o(q_axi_req), .mst_rsp_i(q_axi_rsp),
    .eng_req_o(e_apb_req), .eng_rsp_i(e_apb_rsp),
    .msg_valid_o(qm_valid_o), .msg_ready_i(qm_ready_i), .msg_addr_o(qm_addr_o), .msg_data_o(qm_data_o),
    .engine_idle_i(dma_idle), .fence_inc_i(1'b0), .fence_inc_idx_i(2'd0), .fence_inc_val_i(16'd0),
    .irq_o(q_irq_o), .idle_o()
  );

  assign dt_apb_req = '{psel: d_psel_i, penable: d_penable_i, pwrite: d_pwrite_i, pprot: 3'b000,
                        paddr: d_paddr_i, pwdata: d_pwdata_i, pstrb: 4'hF};
  tessera_apb_mux u_mux (
    .clk_i, .rst_ni,
    .slv_req_i({e_apb_req, dt_apb_req}), .slv_rsp_o(mux_rsp),
    .mst_req_o(d_apb_req), .mst_rsp_i(d_apb_rsp)
  );
  assign dt_apb_rsp  = mux_rsp[0];
  assign e_apb_rsp   = mux_rsp[1];
  `TESSERA_APB_FLAT_FROM_RSP(d_, _o, , dt_apb_rsp)

  // no host window here: the host port stays idle (its inputs tied off)
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
  assign eng_psel_o = e_apb_req.psel;

  tessera_bus_pkg::apb_req_t sm_apb_req;
  tessera_bus_pkg::apb_rsp_t sm_apb_rsp;
  assign sm_apb_req = '{psel: s_psel_i, penable: s_penable_i, pwrite: s_pwrite_i, pprot: 3'b000,
                        paddr: s_paddr_i, pwdata: s_pwdata_i, pstrb: 4'hF};
  `TESSERA_APB_FLAT_FROM_RSP(s_, _o, , sm_apb_rsp)
  tessera_syncmgr u_sm (
    .clk_i, .rst_ni,
    .apb_req_i(sm_apb_req), .apb_rsp_o(sm_apb_rsp),
    .msg_valid_o(sm_valid_o), .msg_ready_i(sm_ready_i), .msg_addr_o(sm_addr_o), .msg_data_o(sm_data_o),
    .msg_err_i(1'b0), .irq_o()
  );
endmodule
