// Receive side of a NIC port (docs/nic.md "Responder RTL"): the RX check
// unit and the RDMA WRITE responder on the MAC's frame stream, the QP and
// memory-region tables, and the port's register block (rtl/nic/data/nic.rdl:
// table access through staging registers, responder counters, error
// interrupt). The responder writes through the AXI4 master and hands its
// acknowledgements to the transmit side as descriptors.
// A port (tessera_nic_port) drives the register inputs this side does not own
// through hwif_ext_i, reads every register output on hwif_o, and shares the QP
// table: a second lookup for received acknowledgements, every QP's context for
// its requesters, and the requesters' errors (req_err_i). Alone, tie
// hwif_ext_i and req_err_i to zero.
module tessera_nic_rx #(
  parameter int unsigned NQp = 16,   // 1..16 (the registers select with 4 bits)
  parameter int unsigned NMr = 16,   // 1..16
  parameter logic [tessera_bus_pkg::IdBits-1:0] AxiId = '0,
  parameter int unsigned NumSobs = 256,   // sync objects a WRITE with immediate may name
  localparam int unsigned QpW = NQp > 1 ? $clog2(NQp) : 1,
  localparam int unsigned MrW = NMr > 1 ? $clog2(NMr) : 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // registers
  input  logic                      apb_psel_i,
  input  logic                      apb_penable_i,
  input  logic                      apb_pwrite_i,
  input  logic [2:0]                apb_pprot_i,
  input  logic [15:0]               apb_paddr_i,
  input  logic [31:0]               apb_pwdata_i,
  input  logic [3:0]                apb_pstrb_i,
  output logic                      apb_pready_o,
  output logic [31:0]               apb_prdata_o,
  output logic                      apb_pslverr_o,
  // frames from the MAC (32 bytes per beat, packed, no FCS)
  input  logic                      s_tvalid_i,
  output logic                      s_tready_o,
  input  logic [255:0]              s_tdata_i,
  input  logic [31:0]               s_tkeep_i,
  input  logic                      s_tlast_i,
  // memory
  output tessera_bus_pkg::axi_req_t axi_req_o,
  input  tessera_bus_pkg::axi_rsp_t axi_rsp_i,
  // acknowledgements for the transmit side
  output logic                      ack_valid_o,
  input  logic                      ack_ready_i,
  output logic [QpW-1:0]            ack_qp_o,
  output logic [23:0]               ack_dqpn_o,
  output logic [47:0]               ack_dmac_o,
  output logic [31:0]               ack_dip_o,
  output logic [7:0]                ack_syndrome_o,
  output logic [23:0]               ack_psn_o,
  output logic [23:0]               ack_msn_o,
  output logic [7:0]                ack_opcode_o,   // ACKNOWLEDGE or READ response
  output logic [12:0]               ack_len_o,      // payload bytes of a READ response
  output logic                      pay_tvalid_o,   // its payload, after the descriptor
  input  logic                      pay_tready_i,
  output logic [255:0]              pay_tdata_o,
  output logic                      pay_tlast_o,
  // READ responses for the port's requesters (tessera_nic_responder rr_*)
  input  logic [NQp-1:0]            rr_act_i,
  input  logic [NQp-1:0][23:0]      rr_psn_i,
  input  logic [NQp-1:0][23:0]      rr_end_i,
  input  logic [NQp-1:0][31:0]      rr_addr_i,
  input  logic [NQp-1:0][12:0]      rr_len_i,
  output logic                      rr_done_o,
  output logic                      rr_gap_o,
  output logic                      rr_err_o,
  output logic [QpW-1:0]            rr_qp_o,
  // messages of WRITEs with immediate (sync-object updates, SOB_ADD_BASE + 4 x index)
  output logic                      msg_valid_o,
  input  logic                      msg_ready_i,
  output logic [31:0]               msg_addr_o,
  output logic [31:0]               msg_data_o,
  output logic                      busy_o,   // a frame is in the receive side
  output logic                      irq_o,    // IRQ_STATUS.err and IRQ_EN.err
  // port: the other register inputs, every register output
  input  nic_reg_pkg::nic__in_t     hwif_ext_i,
  output nic_reg_pkg::nic__out_t    hwif_o,
  // port: the QP table for the requesters
  input  logic [NQp-1:0]            req_err_i,      // pulse: move the QP to ERROR
  output logic                      qp_cmd_done_o,  // a QP_CMD modify finished ...
  output logic [1:0]                qp_cmd_err_o,   // ... with this result (QP_STATUS.err)
  input  logic [23:0]               ack_lk_qpn_i,
  output logic                      ack_lk_hit_o,
  output logic [QpW-1:0]            ack_lk_qp_o,
  output logic [NQp-1:0][2:0]       qp_state_o,
  output logic [NQp-1:0][23:0]      qp_dqpn_o,
  output logic [NQp-1:0][47:0]      qp_rmac_o,
  output logic [NQp-1:0][31:0]      qp_rip_o,
  output logic [NQp-1:0][2:0]       qp_mtu_o,
  output logic [NQp-1:0]            qp_selective_o,
  output logic [NQp-1:0][23:0]      qp_sq_psn_o
);

  nic_reg_pkg::nic__in_t  hwif_in, hwif_in_cfg, hwif_in_rsp;
  nic_reg_pkg::nic__out_t hwif_out;

  nic_reg_top u_regs (
    .clk           (clk_i),
    .arst_n        (rst_ni),
    .s_apb_psel    (apb_psel_i),
    .s_apb_penable (apb_penable_i),
    .s_apb_pwrite  (apb_pwrite_i),
    .s_apb_pprot   (apb_pprot_i),
    .s_apb_paddr   (apb_paddr_i),
    .s_apb_pwdata  (apb_pwdata_i),
    .s_apb_pstrb   (apb_pstrb_i),
    .s_apb_pready  (apb_pready_o),
    .s_apb_prdata  (apb_prdata_o),
    .s_apb_pslverr (apb_pslverr_o),
    .hwif_in       (hwif_in),
    .hwif_out      (hwif_out)
  );

  // ---- RX check on the stream the responder takes
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

  // ---- QP table
  logic [23:0]    lk_qpn, lk_dqpn, win_init_epsn;
  logic           lk_hit, lk_sel, qp_err, win_init;
  logic [QpW-1:0] lk_qp, qp_err_qp, win_init_qp, qp_sel;
  logic [2:0]     lk_state;
  logic [47:0]    lk_rmac, rd_rmac_unused;
  logic [31:0]    lk_rip, rd_rip_unused;
  logic [23:0]    rd_sq_psn_unused, rd_lqpn, rd_dqpn;
  logic [2:0]     rd_state, rd_mtu;
  logic           rd_sel;
  logic [1:0]     cmd_err;

  assign qp_sel = QpW'(hwif_out.QP_SEL.idx.value);

  tessera_nic_qp_table #(.NQp(NQp)) u_qp (
    .clk_i,
    .rst_ni,
    .cmd_valid_i    (hwif_out.QP_CMD.go.value),
    .cmd_qp_i       (qp_sel),
    .cmd_state_i    (hwif_out.QP_CMD.state.value),
    .cmd_lqpn_i     (hwif_out.QP_LQPN.qpn.value),
    .cmd_dqpn_i     (hwif_out.QP_DQPN.qpn.value),
    .cmd_rmac_i     ({hwif_out.QP_RMAC_HI.mac.value, hwif_out.QP_RMAC_LO.mac.value}),
    .cmd_rip_i      (hwif_out.QP_RIP.ip.value),
    .cmd_mtu_i      (hwif_out.QP_CFG.mtu.value),
    .cmd_selective_i(hwif_out.QP_CFG.selective.value),
    .cmd_sq_psn_i   (hwif_out.QP_SQ_PSN.psn.value),
    .cmd_rq_psn_i   (hwif_out.QP_RQ_PSN.psn.value),
    .cmd_done_o     (qp_cmd_done_o),
    .cmd_err_o      (cmd_err),
    .init_o         (win_init),
    .init_qp_o      (win_init_qp),
    .init_epsn_o    (win_init_epsn),
    .hw_err_i       (qp_err),
    .hw_err_qp_i    (qp_err_qp),
    .hw_err_vec_i   (req_err_i),
    .lk_qpn_i       (lk_qpn),
    .lk_hit_o       (lk_hit),
    .lk_qp_o        (lk_qp),
    .lk_state_o     (lk_state),
    .lk_selective_o (lk_sel),
    .lk_dqpn_o      (lk_dqpn),
    .lk_rmac_o      (lk_rmac),
    .lk_rip_o       (lk_rip),
    .lk2_qpn_i      (ack_lk_qpn_i),
    .lk2_hit_o      (ack_lk_hit_o),
    .lk2_qp_o       (ack_lk_qp_o),
    .qp_state_o,
    .qp_dqpn_o,
    .qp_rmac_o,
    .qp_rip_o,
    .qp_mtu_o,
    .qp_selective_o,
    .qp_sq_psn_o,
    .rd_qp_i        (qp_sel),
    .rd_state_o     (rd_state),
    .rd_lqpn_o      (rd_lqpn),
    .rd_dqpn_o      (rd_dqpn),
    .rd_rmac_o      (rd_rmac_unused),
    .rd_rip_o       (rd_rip_unused),
    .rd_mtu_o       (rd_mtu),
    .rd_selective_o (rd_sel),
    .rd_sq_psn_o    (rd_sq_psn_unused)
  );

  // ---- memory-region table
  logic [31:0]    mr_rkey, mr_len, rdm_rkey, rdm_len;
  logic           mr_write;
  logic [63:0]    mr_va, rdm_base_unused;
  logic [1:0]     mr_err;
  logic [MrW-1:0] mr_idx;
  logic           rdm_valid, rdm_rd, rdm_wr, rdm_red_bf16, mr_red_bf16;
  logic [1:0]     rdm_red_op, mr_red_op;

  tessera_nic_mr_table #(.NMr(NMr)) u_mr (
    .clk_i,
    .rst_ni,
    .wr_i      (hwif_out.MR_CMD.go.value),
    .wr_idx_i  (MrW'(hwif_out.MR_SEL.idx.value)),
    .wr_valid_i(hwif_out.MR_CFG.valid.value),
    .wr_base_i ({hwif_out.MR_BASE_HI.addr.value, hwif_out.MR_BASE_LO.addr.value}),
    .wr_len_i  (hwif_out.MR_LEN.len.value),
    .wr_rkey_i (hwif_out.MR_RKEY.rkey.value),
    .wr_rd_i   (hwif_out.MR_CFG.rd_ok.value),
    .wr_wr_i   (hwif_out.MR_CFG.wr_ok.value),
    .wr_red_op_i  (hwif_out.MR_CFG.red_op.value),
    .wr_red_bf16_i(hwif_out.MR_CFG.red_bf16.value),
    .rd_idx_i  (MrW'(hwif_out.MR_SEL.idx.value)),
    .rd_valid_o(rdm_valid),
    .rd_base_o (rdm_base_unused),
    .rd_len_o  (rdm_len),
    .rd_rkey_o (rdm_rkey),
    .rd_rd_o   (rdm_rd),
    .rd_wr_o   (rdm_wr),
    .rd_red_op_o  (rdm_red_op),
    .rd_red_bf16_o(rdm_red_bf16),
    .rkey_i    (mr_rkey),
    .va_i      (mr_va),
    .len_i     (mr_len),
    .write_i   (mr_write),
    .err_o     (mr_err),
    .idx_o     (mr_idx),
    .red_op_o  (mr_red_op),
    .red_bf16_o(mr_red_bf16)
  );

  assign hwif_o       = hwif_out;
  assign qp_cmd_err_o = cmd_err;

  // register inputs: the tables' and the responder's fields over the port's
  always_comb begin
    hwif_in_cfg = hwif_ext_i;
    hwif_in_cfg.QP_STATUS.err.next     = cmd_err;
    hwif_in_cfg.QP_STATUS.state.next   = rd_state;
    hwif_in_cfg.QP_RD_LQPN.qpn.next    = rd_lqpn;
    hwif_in_cfg.QP_RD_DQPN.qpn.next    = rd_dqpn;
    hwif_in_cfg.QP_RD_CFG.mtu.next     = rd_mtu;
    hwif_in_cfg.QP_RD_CFG.selective.next = rd_sel;
    hwif_in_cfg.MR_RD_RKEY.rkey.next  = rdm_rkey;
    hwif_in_cfg.MR_RD_LEN.len.next    = rdm_len;
    hwif_in_cfg.MR_RD_CFG.valid.next  = rdm_valid;
    hwif_in_cfg.MR_RD_CFG.rd_ok.next  = rdm_rd;
    hwif_in_cfg.MR_RD_CFG.wr_ok.next  = rdm_wr;
    hwif_in_cfg.MR_RD_CFG.red_op.next   = rdm_red_op;
    hwif_in_cfg.MR_RD_CFG.red_bf16.next = rdm_red_bf16;
  end

  // ---- responder
  logic           err;
  logic [7:0]     err_code;
  logic [QpW-1:0] err_qp;
  logic [tessera_nic_pkg::NumCnt-1:0][31:0] cnt;

  tessera_nic_responder #(.NQp(NQp), .NMr(NMr), .AxiId(AxiId), .NumSobs(NumSobs)) u_resp (
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
    .qp_mtu_i         (qp_mtu_o),
    .rr_act_i,
    .rr_psn_i,
    .rr_end_i,
    .rr_addr_i,
    .rr_len_i,
    .rr_done_o,
    .rr_gap_o,
    .rr_err_o,
    .rr_qp_o,
    .qp_err_o         (qp_err),
    .qp_err_qp_o      (qp_err_qp),
    .win_init_i       (win_init),
    .win_init_qp_i    (win_init_qp),
    .win_init_epsn_i  (win_init_epsn),
    .mr_rkey_o        (mr_rkey),
    .mr_va_o          (mr_va),
    .mr_len_o         (mr_len),
    .mr_write_o       (mr_write),
    .mr_err_i         (mr_err),
    .mr_idx_i         (mr_idx),
    .mr_red_op_i      (mr_red_op),
    .mr_red_bf16_i    (mr_red_bf16),
    .rd_alloc_i       (hwif_out.CACHE.rd_alloc.value),
    .rd_class_i       (hwif_out.CACHE.rd_class.value),
    .axi_req_o,
    .axi_rsp_i,
    .ack_valid_o,
    .ack_ready_i,
    .ack_qp_o,
    .ack_dqpn_o,
    .ack_dmac_o,
    .ack_dip_o,
    .ack_syndrome_o,
    .ack_psn_o,
    .ack_msn_o,
    .ack_opcode_o,
    .ack_len_o,
    .pay_tvalid_o,
    .pay_tready_i,
    .pay_tdata_o,
    .pay_tlast_o,
    .sob_add_base_i   (hwif_out.SOB_ADD_BASE.addr.value),
    .msg_valid_o,
    .msg_ready_i,
    .msg_addr_o,
    .msg_data_o,
    .busy_o,
    .err_o            (err),
    .err_code_o       (err_code),
    .err_qp_o         (err_qp),
    .cnt_o            (cnt)
  );

  // ---- counters, last error, interrupt
  logic [7:0] last_code_q;
  logic [3:0] last_qp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_code_q <= '0;
      last_qp_q   <= '0;
    end else if (err) begin
      last_code_q <= err_code;
      last_qp_q   <= 4'(err_qp);
    end
  end

  assign irq_o = hwif_out.IRQ_STATUS.err.value && hwif_out.IRQ_EN.err.value;

  assign hwif_in = hwif_in_rsp;
  always_comb begin
    hwif_in_rsp = hwif_in_cfg;
    hwif_in_rsp.IRQ_STATUS.err.hwset = err;
    hwif_in_rsp.ERR_INFO.code.next   = last_code_q;
    hwif_in_rsp.ERR_INFO.qp.next     = last_qp_q;

    hwif_in_rsp.CNT_FRAMES.val.next      = cnt[tessera_nic_pkg::CntFrames];
    hwif_in_rsp.CNT_BYTES.val.next       = cnt[tessera_nic_pkg::CntBytes];
    hwif_in_rsp.CNT_PLACED.val.next      = cnt[tessera_nic_pkg::CntPlaced];
    hwif_in_rsp.CNT_DROP_BAD.val.next    = cnt[tessera_nic_pkg::CntDropBad];
    hwif_in_rsp.CNT_DROP_LONG.val.next   = cnt[tessera_nic_pkg::CntDropLong];
    hwif_in_rsp.CNT_DROP_QP.val.next     = cnt[tessera_nic_pkg::CntDropQp];
    hwif_in_rsp.CNT_DROP_STATE.val.next  = cnt[tessera_nic_pkg::CntDropState];
    hwif_in_rsp.CNT_DROP_OPCODE.val.next = cnt[tessera_nic_pkg::CntDropOp];
    hwif_in_rsp.CNT_DROP_DUP.val.next    = cnt[tessera_nic_pkg::CntDropDup];
    hwif_in_rsp.CNT_DROP_WINDOW.val.next = cnt[tessera_nic_pkg::CntDropWin];
    hwif_in_rsp.CNT_DROP_SEQ.val.next    = cnt[tessera_nic_pkg::CntDropSeq];
    hwif_in_rsp.CNT_NAK_ACCESS.val.next  = cnt[tessera_nic_pkg::CntNakAccess];
    hwif_in_rsp.CNT_NAK_OPER.val.next    = cnt[tessera_nic_pkg::CntNakOper];
    hwif_in_rsp.CNT_ACKS.val.next        = cnt[tessera_nic_pkg::CntAcks];
    hwif_in_rsp.CNT_SACKS.val.next       = cnt[tessera_nic_pkg::CntSacks];
    hwif_in_rsp.CNT_NAKS.val.next        = cnt[tessera_nic_pkg::CntNaks];
    hwif_in_rsp.CNT_MSGS.val.next        = cnt[tessera_nic_pkg::CntMsgs];
    hwif_in_rsp.CNT_DROP_IMM.val.next    = cnt[tessera_nic_pkg::CntDropImm];
    hwif_in_rsp.CNT_NAK_INVAL.val.next   = cnt[tessera_nic_pkg::CntNakInval];
    hwif_in_rsp.CNT_RD_REQ.val.next      = cnt[tessera_nic_pkg::CntRdReq];
    hwif_in_rsp.CNT_RD_RESP.val.next     = cnt[tessera_nic_pkg::CntRdResp];
    hwif_in_rsp.CNT_RD_PLACED.val.next   = cnt[tessera_nic_pkg::CntRdPlaced];
    hwif_in_rsp.CNT_RD_DROP.val.next     = cnt[tessera_nic_pkg::CntRdDrop];
  end

  logic unused;
  assign unused = ^{chk_len_unused, chk_op_unused, chk_dqpn_unused, chk_psn_unused, rd_rmac_unused,
                    rd_rip_unused, rd_sq_psn_unused, rdm_base_unused};

endmodule
