// Testbench top of the NIC receive side (tests/nic/tb_nic_responder.cpp):
// tessera_nic_rx (registers, RX check, QP and MR tables, responder) with flat
// pins for its AXI4 master (writes; reads for the reduce WRITEs' read-modify-write).
module tb_nic_resp_top (
  input  logic          clk_i,
  input  logic          rst_ni,
  // registers
  input  logic          apb_psel_i,
  input  logic          apb_penable_i,
  input  logic          apb_pwrite_i,
  input  logic [15:0]   apb_paddr_i,
  input  logic [31:0]   apb_pwdata_i,
  output logic          apb_pready_o,
  output logic [31:0]   apb_prdata_o,
  output logic          apb_pslverr_o,
  // frames
  input  logic          s_tvalid_i,
  output logic          s_tready_o,
  input  logic [255:0]  s_tdata_i,
  input  logic [31:0]   s_tkeep_i,
  input  logic          s_tlast_i,
  // AXI4 master
  output logic [4:0]    m_awid_o,
  output logic [31:0]   m_awaddr_o,
  output logic [7:0]    m_awlen_o,
  output logic [2:0]    m_awsize_o,
  output logic [1:0]    m_awburst_o,
  output logic          m_awvalid_o,
  input  logic          m_awready_i,
  output logic [255:0]  m_wdata_o,
  output logic [31:0]   m_wstrb_o,
  output logic          m_wlast_o,
  output logic          m_wvalid_o,
  input  logic          m_wready_i,
  input  logic [4:0]    m_bid_i,
  input  logic [1:0]    m_bresp_i,
  input  logic          m_bvalid_i,
  output logic          m_bready_o,
  output logic [4:0]    m_arid_o,
  output logic [31:0]   m_araddr_o,
  output logic [7:0]    m_arlen_o,
  output logic [2:0]    m_arsize_o,
  output logic [1:0]    m_arburst_o,
  output logic          m_arvalid_o,
  input  logic          m_arready_i,
  input  logic [4:0]    m_rid_i,
  input  logic [255:0]  m_rdata_i,
  input  logic [1:0]    m_rresp_i,
  input  logic          m_rlast_i,
  input  logic          m_rvalid_i,
  output logic          m_rready_o,
  // acknowledgements
  output logic          ack_valid_o,
  input  logic          ack_ready_i,
  output logic [3:0]    ack_qp_o,
  output logic [23:0]   ack_dqpn_o,
  output logic [47:0]   ack_dmac_o,
  output logic [31:0]   ack_dip_o,
  output logic [7:0]    ack_syndrome_o,
  output logic [23:0]   ack_psn_o,
  output logic [23:0]   ack_msn_o,
  // messages of WRITEs with immediate
  output logic          msg_valid_o,
  input  logic          msg_ready_i,
  output logic [31:0]   msg_addr_o,
  output logic [31:0]   msg_data_o,
  output logic          busy_o,
  output logic          irq_o
);

  tessera_bus_pkg::axi_req_t axi_req;
  tessera_bus_pkg::axi_rsp_t axi_rsp;

  nic_reg_pkg::nic__out_t hwif_unused;
  logic                   lk_hit_unused, cmd_done_unused;
  logic [1:0]             cmd_err_unused;
  logic [3:0]             lk_qp_unused;
  logic [15:0][2:0]       st_unused, mtu_unused;
  logic [15:0][23:0]      dqpn_unused, psn_unused;
  logic [15:0][47:0]      rmac_unused;
  logic [15:0][31:0]      rip_unused;
  logic [15:0]            sel_unused;
  logic [7:0]             ack_op_unused;
  logic [12:0]            ack_len_unused;
  logic                   pay_tvalid_unused, pay_tlast_unused;
  logic [255:0]           pay_tdata_unused;
  logic                   rr_done_unused, rr_gap_unused, rr_err_unused;
  logic [3:0]             rr_qp_unused;

  tessera_nic_rx #(.NQp(16), .NMr(16), .AxiId(5'd3)) u_rx (
    .clk_i,
    .rst_ni,
    .apb_psel_i,
    .apb_penable_i,
    .apb_pwrite_i,
    .apb_pprot_i  (3'b000),
    .apb_paddr_i,
    .apb_pwdata_i,
    .apb_pstrb_i  (4'hF),
    .apb_pready_o,
    .apb_prdata_o,
    .apb_pslverr_o,
    .s_tvalid_i,
    .s_tready_o,
    .s_tdata_i,
    .s_tkeep_i,
    .s_tlast_i,
    .axi_req_o    (axi_req),
    .axi_rsp_i    (axi_rsp),
    .ack_valid_o,
    .ack_ready_i,
    .ack_qp_o,
    .ack_dqpn_o,
    .ack_dmac_o,
    .ack_dip_o,
    .ack_syndrome_o,
    .ack_psn_o,
    .ack_msn_o,
    .ack_opcode_o  (ack_op_unused),
    .ack_len_o     (ack_len_unused),
    .pay_tvalid_o  (pay_tvalid_unused),
    .pay_tready_i  (1'b1),
    .pay_tdata_o   (pay_tdata_unused),
    .pay_tlast_o   (pay_tlast_unused),
    .rr_act_i      ('0),
    .rr_psn_i      ('0),
    .rr_end_i      ('0),
    .rr_addr_i     ('0),
    .rr_len_i      ('0),
    .rr_done_o     (rr_done_unused),
    .rr_gap_o      (rr_gap_unused),
    .rr_err_o      (rr_err_unused),
    .rr_qp_o       (rr_qp_unused),
    .msg_valid_o,
    .msg_ready_i,
    .msg_addr_o,
    .msg_data_o,
    .busy_o,
    .irq_o,
    .hwif_ext_i    ('0),
    .hwif_o        (hwif_unused),
    .req_err_i     ('0),
    .qp_cmd_done_o (cmd_done_unused),
    .qp_cmd_err_o  (cmd_err_unused),
    .ack_lk_qpn_i  ('0),
    .ack_lk_hit_o  (lk_hit_unused),
    .ack_lk_qp_o   (lk_qp_unused),
    .qp_state_o    (st_unused),
    .qp_dqpn_o     (dqpn_unused),
    .qp_rmac_o     (rmac_unused),
    .qp_rip_o      (rip_unused),
    .qp_mtu_o      (mtu_unused),
    .qp_selective_o(sel_unused),
    .qp_sq_psn_o   (psn_unused)
  );

  `TESSERA_AXI_FLAT_FROM_REQ_MIN(m_, _o, , axi_req)

  `TESSERA_AXI_RSP_FROM_FLAT(axi_rsp, m_, _i, )

  logic unused;
  assign unused = ^{axi_req.aw.cache, axi_req.aw.prot, axi_req.aw.qos, axi_req.aw.user,
                    axi_req.w.user, axi_req.ar.cache, axi_req.ar.prot, axi_req.ar.qos, axi_req.ar.user,
                    hwif_unused, lk_hit_unused, lk_qp_unused,
                    st_unused, mtu_unused, dqpn_unused, psn_unused, rmac_unused, rip_unused, sel_unused,
                    cmd_done_unused, cmd_err_unused};

endmodule
