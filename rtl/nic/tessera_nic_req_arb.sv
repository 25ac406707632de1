// NQp RDMA WRITE requesters (tessera_nic_requester, one per QP) behind one
// frame output, one AXI4 read port, one work request input, one completion
// output and one acknowledgement input (docs/nic.md "Requester RTL"). Each QP
// keeps its own send window, timer, retry count and error state, so a QP in
// ERROR does not hold up the others.
//
// Packets: one QP at a time reads and frames packets; a turn (round robin
// among the QPs that have a packet) lets the QP start up to TurnPkts packets,
// the next while the one before is framed (the requester prefetches one
// packet's payload), and ends when the QP's payload reads are done, so R beats
// of one QP never wait behind a frame of another. Frames:
// the output stays with a QP from its first beat to its tlast beat. AXI reads:
// QP q uses ARID AxiIdBase + q, its R beats are routed back by RID; an AR
// shown stays until taken.
// Work requests and acknowledgements go to the QP of wr_qp_i / ack_qp_i;
// completions leave round robin with their QP in cpl_qp_o.
module tessera_nic_req_arb #(
  parameter int unsigned NQp        = 2,
  parameter int unsigned NWr        = 8,
  parameter logic [4:0]  AxiIdBase  = 5'd4,
  parameter int unsigned TurnPkts   = 8,   // packets a QP may start in one turn
  localparam int unsigned DataBytes = 32,
  localparam int unsigned QpW       = NQp > 1 ? $clog2(NQp) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // per-QP configuration
  input  logic [NQp-1:0]                cfg_start_i,
  input  logic [NQp-1:0]                cfg_stop_i,
  input  logic [NQp-1:0][23:0]          cfg_psn_i,
  input  logic [NQp-1:0]                cfg_selective_i,
  input  logic [NQp-1:0][2:0]           cfg_mtu_i,
  input  logic [NQp-1:0][31:0]          cfg_rto_i,
  input  logic [NQp-1:0][7:0]           cfg_retry_i,
  input  logic [NQp-1:0][15:0]          cfg_guard_i,
  input  logic [NQp-1:0][23:0]          cfg_dqpn_i,
  input  logic [NQp-1:0][47:0]          cfg_dmac_i,
  input  logic [NQp-1:0][31:0]          cfg_dip_i,
  input  logic [NQp-1:0][15:0]          cfg_sport_i,
  // port configuration
  input  logic [47:0]                   cfg_smac_i,
  input  logic [31:0]                   cfg_sip_i,
  input  logic [7:0]                    cfg_tos_i,
  input  logic [7:0]                    cfg_ttl_i,
  input  logic [15:0]                   cfg_pkey_i,
  // work requests
  input  logic                          wr_valid_i,
  output logic                          wr_ready_o,
  input  logic [QpW-1:0]                wr_qp_i,
  input  logic [15:0]                   wr_id_i,
  input  logic [31:0]                   wr_laddr_i,
  input  logic [63:0]                   wr_va_i,
  input  logic [31:0]                   wr_rkey_i,
  input  logic [31:0]                   wr_len_i,
  input  logic                          wr_read_i,
  input  logic                          wr_imm_en_i,
  input  logic [31:0]                   wr_imm_i,
  input  logic                          wr_cmsg_en_i,
  input  logic [31:0]                   wr_cmsg_addr_i,
  input  logic [31:0]                   wr_cmsg_data_i,
  // completions
  output logic                          cpl_valid_o,
  input  logic                          cpl_ready_i,
  output logic [QpW-1:0]                cpl_qp_o,
  output logic [15:0]                   cpl_id_o,
  output logic [2:0]                    cpl_status_o,
  output logic                          cpl_cmsg_en_o,
  output logic [31:0]                   cpl_cmsg_addr_o,
  output logic [31:0]                   cpl_cmsg_data_o,
  // acknowledgements
  input  logic                          ack_valid_i,
  input  logic [QpW-1:0]                ack_qp_i,
  input  logic [7:0]                    ack_syndrome_i,
  input  logic [23:0]                   ack_psn_i,
  input  logic [23:0]                   ack_msn_i,
  // READ responses expected per QP, and their placement (tessera_nic_requester rd_*, rr_*)
  output logic [NQp-1:0]                rd_act_o,
  output logic [NQp-1:0][23:0]          rd_psn_o,
  output logic [NQp-1:0][23:0]          rd_end_o,
  output logic [NQp-1:0][31:0]          rd_addr_o,
  output logic [NQp-1:0][12:0]          rd_len_o,
  input  logic                          rr_done_i,
  input  logic                          rr_gap_i,
  input  logic                          rr_err_i,
  input  logic [QpW-1:0]                rr_qp_i,
  // AXI4 read master
  output logic [4:0]                    m_arid_o,
  output logic [31:0]                   m_araddr_o,
  output logic [7:0]                    m_arlen_o,
  output logic [2:0]                    m_arsize_o,
  output logic [1:0]                    m_arburst_o,
  output logic                          m_arvalid_o,
  input  logic                          m_arready_i,
  input  logic [4:0]                    m_rid_i,
  input  logic [8*DataBytes-1:0]        m_rdata_i,
  input  logic [1:0]                    m_rresp_i,
  input  logic                          m_rlast_i,
  input  logic                          m_rvalid_i,
  output logic                          m_rready_o,
  // frames
  output logic                          m_tvalid_o,
  input  logic                          m_tready_i,
  output logic [8*DataBytes-1:0]        m_tdata_o,
  output logic [DataBytes-1:0]          m_tkeep_o,
  output logic                          m_tlast_o,
  // per-QP state and counters
  output logic [NQp-1:0]                err_o,
  output logic [NQp-1:0]                idle_o,
  output logic [NQp-1:0][31:0]          cnt_pkts_o,
  output logic [NQp-1:0][31:0]          cnt_resends_o,
  output logic [NQp-1:0][31:0]          cnt_timeouts_o
);

  logic [NQp-1:0]                 q_pick_en, q_want, q_busy;
  logic [NQp-1:0]                 q_wr_ready, q_cpl_valid, q_cpl_ready, q_arvalid, q_arready;
  logic [NQp-1:0]                 q_rvalid, q_rready, q_tvalid, q_tready, q_tlast;
  logic [NQp-1:0][15:0]           q_cpl_id;
  logic [NQp-1:0][2:0]            q_cpl_status;
  logic [NQp-1:0]                 q_cmsg_en;
  logic [NQp-1:0][31:0]           q_cmsg_addr, q_cmsg_data;
  logic [NQp-1:0][31:0]           q_araddr;
  logic [NQp-1:0][7:0]            q_arlen;
  logic [NQp-1:0][8*DataBytes-1:0] q_tdata;
  logic [NQp-1:0][DataBytes-1:0]  q_tkeep;
  logic [QpW-1:0]                 r_qp;

  assign r_qp = QpW'(m_rid_i - AxiIdBase);

  for (genvar q = 0; q < NQp; q++) begin : g_qp
    logic [4:0] arid_unused;
    logic [2:0] arsize_unused;
    logic [1:0] arburst_unused;
    tessera_nic_requester #(.NWr(NWr), .AxiId(5'(AxiIdBase + 5'(q)))) u_req (
      .clk_i,
      .rst_ni,
      .cfg_start_i    (cfg_start_i[q]),
      .cfg_stop_i     (cfg_stop_i[q]),
      .cfg_psn_i      (cfg_psn_i[q]),
      .cfg_selective_i(cfg_selective_i[q]),
      .cfg_mtu_i      (cfg_mtu_i[q]),
      .cfg_rto_i      (cfg_rto_i[q]),
      .cfg_retry_i    (cfg_retry_i[q]),
      .cfg_guard_i    (cfg_guard_i[q]),
      .cfg_dqpn_i     (cfg_dqpn_i[q]),
      .cfg_dmac_i     (cfg_dmac_i[q]),
      .cfg_smac_i,
      .cfg_sip_i,
      .cfg_dip_i      (cfg_dip_i[q]),
      .cfg_tos_i,
      .cfg_ttl_i,
      .cfg_sport_i    (cfg_sport_i[q]),
      .cfg_pkey_i,
      .pick_en_i      (q_pick_en[q]),
      .want_o         (q_want[q]),
      .busy_o         (q_busy[q]),
      .wr_valid_i     (wr_valid_i && wr_qp_i == QpW'(q)),
      .wr_ready_o     (q_wr_ready[q]),
      .wr_id_i,
      .wr_laddr_i,
      .wr_va_i,
      .wr_rkey_i,
      .wr_len_i,
      .wr_read_i,
      .wr_imm_en_i,
      .wr_imm_i,
      .wr_cmsg_en_i,
      .wr_cmsg_addr_i,
      .wr_cmsg_data_i,
      .cpl_valid_o    (q_cpl_valid[q]),
      .cpl_ready_i    (q_cpl_ready[q]),
      .cpl_id_o       (q_cpl_id[q]),
      .cpl_status_o   (q_cpl_status[q]),
      .cpl_cmsg_en_o  (q_cmsg_en[q]),
      .cpl_cmsg_addr_o(q_cmsg_addr[q]),
      .cpl_cmsg_data_o(q_cmsg_data[q]),
      .ack_valid_i    (ack_valid_i && ack_qp_i == QpW'(q)),
      .ack_syndrome_i,
      .ack_psn_i,
      .ack_msn_i,
      .rd_act_o       (rd_act_o[q]),
      .rd_psn_o       (rd_psn_o[q]),
      .rd_end_o       (rd_end_o[q]),
      .rd_addr_o      (rd_addr_o[q]),
      .rd_len_o       (rd_len_o[q]),
      .rr_done_i      (rr_done_i && rr_qp_i == QpW'(q)),
      .rr_gap_i       (rr_gap_i && rr_qp_i == QpW'(q)),
      .rr_err_i       (rr_err_i && rr_qp_i == QpW'(q)),
      .m_arid_o       (arid_unused),
      .m_araddr_o     (q_araddr[q]),
      .m_arlen_o      (q_arlen[q]),
      .m_arsize_o     (arsize_unused),
      .m_arburst_o    (arburst_unused),
      .m_arvalid_o    (q_arvalid[q]),
      .m_arready_i    (q_arready[q]),
      .m_rdata_i,
      .m_rresp_i,
      .m_rlast_i,
      .m_rvalid_i     (q_rvalid[q]),
      .m_rready_o     (q_rready[q]),
      .m_tvalid_o     (q_tvalid[q]),
      .m_tready_i     (q_tready[q]),
      .m_tdata_o      (q_tdata[q]),
      .m_tkeep_o      (q_tkeep[q]),
      .m_tlast_o      (q_tlast[q]),
      .err_o          (err_o[q]),
      .idle_o         (idle_o[q]),
      .cnt_pkts_o     (cnt_pkts_o[q]),
      .cnt_resends_o  (cnt_resends_o[q]),
      .cnt_timeouts_o (cnt_timeouts_o[q])
    );
    logic unused;
    assign unused = ^{arid_unused, arsize_unused, arburst_unused};
    assign q_rvalid[q] = m_rvalid_i && r_qp == QpW'(q);
  end

  assign wr_ready_o = q_wr_ready[wr_qp_i];
  assign m_rready_o = q_rready[r_qp];

  // first requester at or after start (round robin)
  function automatic logic [QpW-1:0] rr_pick(logic [NQp-1:0] req, logic [QpW-1:0] start);
    rr_pick = start;
    for (int unsigned k = NQp; k > 0; k--) begin
      logic [QpW-1:0] i;
      i = QpW'((32'(start) + k - 1) % NQp);
      if (req[i]) begin
        rr_pick = i;
      end
    end
  endfunction

  // ---- packet turns: one QP from its first pick to the end of its reads
  logic [QpW-1:0] p_rr_q, p_rr_d, p_sel;
  logic           p_act_q, p_act_d;
  logic [QpW-1:0] p_cur_q, p_cur_d;
  logic [7:0]     p_n_q, p_n_d;         // packets started in this turn
  assign p_sel = rr_pick(q_want, p_rr_q);
  always_comb begin
    q_pick_en = '0;
    p_rr_d    = p_rr_q;
    p_act_d   = p_act_q;
    p_cur_d   = p_cur_q;
    p_n_d     = p_n_q;
    if (p_act_q) begin
      if (q_want[p_cur_q] && 32'(p_n_q) < TurnPkts) begin
        q_pick_en[p_cur_q] = 1'b1;
        p_n_d = p_n_q + 8'd1;
      end else if (!q_busy[p_cur_q]) begin
        p_act_d = 1'b0;
      end
    end else if (|q_want) begin
      q_pick_en[p_sel] = 1'b1;
      p_act_d = 1'b1;
      p_cur_d = p_sel;
      p_n_d   = 8'd1;
      p_rr_d  = QpW'((32'(p_sel) + 1) % NQp);
    end
  end

  // ---- AR: a QP's request stays chosen until taken
  logic [QpW-1:0] ar_rr_q, ar_rr_d, ar_sel, ar_cur_q;
  logic           ar_hold_q;                  // shown and not taken: stays
  assign ar_sel      = ar_hold_q ? ar_cur_q : rr_pick(q_arvalid, ar_rr_q);
  assign m_arvalid_o = |q_arvalid;
  assign m_araddr_o  = q_araddr[ar_sel];
  assign m_arlen_o   = q_arlen[ar_sel];
  assign m_arid_o    = 5'(AxiIdBase + 5'(ar_sel));
  assign m_arsize_o  = 3'd5;
  assign m_arburst_o = 2'b01;
  always_comb begin
    q_arready = '0;
    q_arready[ar_sel] = m_arready_i;
    ar_rr_d = ar_rr_q;
    if (m_arvalid_o && m_arready_i) begin
      ar_rr_d = QpW'((32'(ar_sel) + 1) % NQp);
    end
  end

  // ---- frames: a whole frame from one QP
  logic [QpW-1:0] t_rr_q, t_rr_d, t_cur_q, t_cur_d, t_sel;
  logic           t_busy_q, t_busy_d;
  assign t_sel      = t_busy_q ? t_cur_q : rr_pick(q_tvalid, t_rr_q);
  assign m_tvalid_o = q_tvalid[t_sel];
  assign m_tdata_o  = q_tdata[t_sel];
  assign m_tkeep_o  = q_tkeep[t_sel];
  assign m_tlast_o  = q_tlast[t_sel];
  always_comb begin
    q_tready = '0;
    q_tready[t_sel] = m_tready_i;
    t_rr_d   = t_rr_q;
    t_cur_d  = t_cur_q;
    t_busy_d = t_busy_q;
    if (m_tvalid_o) begin
      t_busy_d = !(m_tready_i && m_tlast_o);
      t_cur_d  = t_sel;
      if (m_tready_i && m_tlast_o) begin
        t_rr_d = QpW'((32'(t_sel) + 1) % NQp);
      end
    end
  end

  // ---- completions
  logic [QpW-1:0] c_rr_q, c_rr_d, c_sel, c_cur_q;
  logic           c_hold_q;
  assign c_sel        = c_hold_q ? c_cur_q : rr_pick(q_cpl_valid, c_rr_q);
  assign cpl_valid_o  = |q_cpl_valid;
  assign cpl_qp_o     = c_sel;
  assign cpl_id_o     = q_cpl_id[c_sel];
  assign cpl_status_o = q_cpl_status[c_sel];
  assign cpl_cmsg_en_o   = q_cmsg_en[c_sel];
  assign cpl_cmsg_addr_o = q_cmsg_addr[c_sel];
  assign cpl_cmsg_data_o = q_cmsg_data[c_sel];
  always_comb begin
    q_cpl_ready = '0;
    q_cpl_ready[c_sel] = cpl_ready_i;
    c_rr_d = c_rr_q;
    if (cpl_valid_o && cpl_ready_i) begin
      c_rr_d = QpW'((32'(c_sel) + 1) % NQp);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_rr_q   <= '0;
      p_act_q  <= 1'b0;
      p_cur_q  <= '0;
      p_n_q    <= '0;
      ar_rr_q  <= '0;
      ar_cur_q <= '0;
      ar_hold_q <= 1'b0;
      c_cur_q  <= '0;
      c_hold_q <= 1'b0;
      t_rr_q   <= '0;
      t_cur_q  <= '0;
      t_busy_q <= 1'b0;
      c_rr_q   <= '0;
    end else begin
      p_rr_q   <= p_rr_d;
      p_act_q  <= p_act_d;
      p_cur_q  <= p_cur_d;
      p_n_q    <= p_n_d;
      ar_rr_q  <= ar_rr_d;
      ar_cur_q <= ar_sel;
      ar_hold_q <= m_arvalid_o && !m_arready_i;
      c_cur_q  <= c_sel;
      c_hold_q <= cpl_valid_o && !cpl_ready_i;
      t_rr_q   <= t_rr_d;
      t_cur_q  <= t_cur_d;
      t_busy_q <= t_busy_d;
      c_rr_q   <= c_rr_d;
    end
  end

endmodule
