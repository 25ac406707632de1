// Testbench top of the NIC responder (tests/nic/tb_nic_responder.cpp): the RX
// check unit and the responder on one 32-byte frame stream, the QP and MR
// tables they use, flat pins for the AXI4 write master, the tables' command
// ports, the acknowledgement descriptors and the counters.
module tb_nic_resp_top #(
  parameter int unsigned NQp = 16,
  parameter int unsigned NMr = 16
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // frames
  input  logic          s_tvalid_i,
  output logic          s_tready_o,
  input  logic [255:0]  s_tdata_i,
  input  logic [31:0]   s_tkeep_i,
  input  logic          s_tlast_i,
  // QP modify
  input  logic          qp_cmd_valid_i,
  input  logic [3:0]    qp_cmd_qp_i,
  input  logic [2:0]    qp_cmd_state_i,
  input  logic [23:0]   qp_cmd_lqpn_i,
  input  logic [23:0]   qp_cmd_dqpn_i,
  input  logic [47:0]   qp_cmd_rmac_i,
  input  logic [31:0]   qp_cmd_rip_i,
  input  logic [2:0]    qp_cmd_mtu_i,
  input  logic          qp_cmd_selective_i,
  input  logic [23:0]   qp_cmd_rq_psn_i,
  output logic          qp_cmd_done_o,
  output logic [1:0]    qp_cmd_err_o,
  input  logic [3:0]    qp_rd_qp_i,
  output logic [2:0]    qp_rd_state_o,
  // MR write
  input  logic          mr_wr_i,
  input  logic [3:0]    mr_wr_idx_i,
  input  logic          mr_wr_valid_i,
  input  logic [63:0]   mr_wr_base_i,
  input  logic [31:0]   mr_wr_len_i,
  input  logic [31:0]   mr_wr_rkey_i,
  input  logic          mr_wr_wr_i,
  // AXI4 write master (the read channels are tied off)
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
  output logic          m_arvalid_o,
  // acknowledgements
  output logic          ack_valid_o,
  input  logic          ack_ready_i,
  output logic [3:0]    ack_qp_o,
  output logic [23:0]   ack_dqpn_o,
  output logic [7:0]    ack_syndrome_o,
  output logic [23:0]   ack_psn_o,
  output logic [23:0]   ack_msn_o,
  output logic          err_o,
  output logic [7:0]    err_code_o,
  output logic [16*32-1:0] cnt_o
);

  logic        chk_done;
  logic [3:0]  chk_status;
  logic [15:0] chk_len_unused;
  logic [7:0]  chk_op_unused;
  logic [23:0] chk_dqpn_unused, chk_psn_unused;

  tessera_nic_rx_check #(.DataBytes(32)) u_chk (
    .clk_i,
    .rst_ni,
    .beat_i  (s_tvalid_i && s_tready_o),
    .data_i  (s_tdata_i),
    .keep_i  (s_tkeep_i),
    .last_i  (s_tlast_i),
    .done_o  (chk_done),
    .status_o(chk_status),
    .len_o   (chk_len_unused),
    .opcode_o(chk_op_unused),
    .dqpn_o  (chk_dqpn_unused),
    .psn_o   (chk_psn_unused)
  );

  logic [23:0] lk_qpn, lk_dqpn;
  logic        lk_hit, lk_sel, qp_err, win_init;
  logic [3:0]  lk_qp, qp_err_qp, win_init_qp;
  logic [2:0]  lk_state;
  logic [47:0] lk_rmac;
  logic [31:0] lk_rip;
  logic [23:0] win_init_epsn;
  logic [23:0] rd_lqpn_u, rd_dqpn_u, rd_sq_psn_u;
  logic [47:0] rd_rmac_u;
  logic [31:0] rd_rip_u;
  logic [2:0]  rd_mtu_u;
  logic        rd_sel_u;

  tessera_nic_qp_table #(.NQp(NQp)) u_qp (
    .clk_i,
    .rst_ni,
    .cmd_valid_i    (qp_cmd_valid_i),
    .cmd_qp_i       (qp_cmd_qp_i),
    .cmd_state_i    (qp_cmd_state_i),
    .cmd_lqpn_i     (qp_cmd_lqpn_i),
    .cmd_dqpn_i     (qp_cmd_dqpn_i),
    .cmd_rmac_i     (qp_cmd_rmac_i),
    .cmd_rip_i      (qp_cmd_rip_i),
    .cmd_mtu_i      (qp_cmd_mtu_i),
    .cmd_selective_i(qp_cmd_selective_i),
    .cmd_sq_psn_i   (24'd0),
    .cmd_rq_psn_i   (qp_cmd_rq_psn_i),
    .cmd_done_o     (qp_cmd_done_o),
    .cmd_err_o      (qp_cmd_err_o),
    .init_o         (win_init),
    .init_qp_o      (win_init_qp),
    .init_epsn_o    (win_init_epsn),
    .hw_err_i       (qp_err),
    .hw_err_qp_i    (qp_err_qp),
    .lk_qpn_i       (lk_qpn),
    .lk_hit_o       (lk_hit),
    .lk_qp_o        (lk_qp),
    .lk_state_o     (lk_state),
    .lk_selective_o (lk_sel),
    .lk_dqpn_o      (lk_dqpn),
    .lk_rmac_o      (lk_rmac),
    .lk_rip_o       (lk_rip),
    .rd_qp_i        (qp_rd_qp_i),
    .rd_state_o     (qp_rd_state_o),
    .rd_lqpn_o      (rd_lqpn_u),
    .rd_dqpn_o      (rd_dqpn_u),
    .rd_rmac_o      (rd_rmac_u),
    .rd_rip_o       (rd_rip_u),
    .rd_mtu_o       (rd_mtu_u),
    .rd_selective_o (rd_sel_u),
    .rd_sq_psn_o    (rd_sq_psn_u)
  );

  logic [31:0] mr_rkey, mr_len;
  logic [63:0] mr_va;
  logic [1:0]  mr_err;
  logic [3:0]  mr_idx;
  logic        rdm_valid_u, rdm_rd_u, rdm_wr_u;
  logic [63:0] rdm_base_u;
  logic [31:0] rdm_len_u, rdm_rkey_u;

  tessera_nic_mr_table #(.NMr(NMr)) u_mr (
    .clk_i,
    .rst_ni,
    .wr_i      (mr_wr_i),
    .wr_idx_i  (mr_wr_idx_i),
    .wr_valid_i(mr_wr_valid_i),
    .wr_base_i (mr_wr_base_i),
    .wr_len_i  (mr_wr_len_i),
    .wr_rkey_i (mr_wr_rkey_i),
    .wr_rd_i   (1'b1),
    .wr_wr_i   (mr_wr_wr_i),
    .rd_idx_i  ('0),
    .rd_valid_o(rdm_valid_u),
    .rd_base_o (rdm_base_u),
    .rd_len_o  (rdm_len_u),
    .rd_rkey_o (rdm_rkey_u),
    .rd_rd_o   (rdm_rd_u),
    .rd_wr_o   (rdm_wr_u),
    .rkey_i    (mr_rkey),
    .va_i      (mr_va),
    .len_i     (mr_len),
    .write_i   (1'b1),
    .err_o     (mr_err),
    .idx_o     (mr_idx)
  );

  tessera_bus_pkg::axi_req_t axi_req;
  tessera_bus_pkg::axi_rsp_t axi_rsp;
  logic [47:0] ack_dmac_u;
  logic [31:0] ack_dip_u;
  logic [3:0]  err_qp_u;
  logic [15:0][31:0] cnt;

  tessera_nic_responder #(.NQp(NQp), .NMr(NMr)) u_resp (
    .clk_i,
    .rst_ni,
    .s_tvalid_i,
    .s_tready_o,
    .s_tdata_i,
    .s_tkeep_i,
    .s_tlast_i,
    .chk_done_i       (chk_done),
    .chk_status_i     (chk_status),
    .qp_lk_qpn_o      (lk_qpn),
    .qp_lk_hit_i      (lk_hit),
    .qp_lk_qp_i       (lk_qp),
    .qp_lk_state_i    (lk_state),
    .qp_lk_selective_i(lk_sel),
    .qp_lk_dqpn_i     (lk_dqpn),
    .qp_lk_rmac_i     (lk_rmac),
    .qp_lk_rip_i      (lk_rip),
    .qp_err_o         (qp_err),
    .qp_err_qp_o      (qp_err_qp),
    .win_init_i       (win_init),
    .win_init_qp_i    (win_init_qp),
    .win_init_epsn_i  (win_init_epsn),
    .mr_rkey_o        (mr_rkey),
    .mr_va_o          (mr_va),
    .mr_len_o         (mr_len),
    .mr_err_i         (mr_err),
    .mr_idx_i         (mr_idx),
    .axi_req_o        (axi_req),
    .axi_rsp_i        (axi_rsp),
    .ack_valid_o,
    .ack_ready_i,
    .ack_qp_o,
    .ack_dqpn_o,
    .ack_dmac_o       (ack_dmac_u),
    .ack_dip_o        (ack_dip_u),
    .ack_syndrome_o,
    .ack_psn_o,
    .ack_msn_o,
    .err_o,
    .err_code_o,
    .err_qp_o         (err_qp_u),
    .cnt_o            (cnt)
  );

  assign cnt_o = cnt;

  assign m_awid_o    = axi_req.aw.id;
  assign m_awaddr_o  = axi_req.aw.addr;
  assign m_awlen_o   = axi_req.aw.len;
  assign m_awsize_o  = axi_req.aw.size;
  assign m_awburst_o = axi_req.aw.burst;
  assign m_awvalid_o = axi_req.aw_valid;
  assign m_wdata_o   = axi_req.w.data;
  assign m_wstrb_o   = axi_req.w.strb;
  assign m_wlast_o   = axi_req.w.last;
  assign m_wvalid_o  = axi_req.w_valid;
  assign m_bready_o  = axi_req.b_ready;
  assign m_arvalid_o = axi_req.ar_valid;

  always_comb begin
    axi_rsp          = '0;
    axi_rsp.aw_ready = m_awready_i;
    axi_rsp.w_ready  = m_wready_i;
    axi_rsp.b.id     = m_bid_i;
    axi_rsp.b.resp   = m_bresp_i;
    axi_rsp.b_valid  = m_bvalid_i;
  end

  logic unused;
  assign unused = ^{chk_len_unused, chk_op_unused, chk_dqpn_unused, chk_psn_unused, rd_lqpn_u,
                    rd_dqpn_u, rd_sq_psn_u, rd_rmac_u, rd_rip_u, rd_mtu_u, rd_sel_u, rdm_valid_u,
                    rdm_rd_u, rdm_wr_u, rdm_base_u, rdm_len_u, rdm_rkey_u, ack_dmac_u, ack_dip_u,
                    err_qp_u, axi_req.aw.cache, axi_req.aw.prot, axi_req.aw.qos, axi_req.aw.user,
                    axi_req.w.user, axi_req.ar, axi_req.r_ready};

endmodule
