// One RoCE v2 NIC port (docs/nic.md "Port RTL"): what a chip instantiates per
// Ethernet port. Both halves of the reliable-connection transport share one
// QP context per QP, one register block (rtl/nic/data/nic.rdl), one AXI4
// master and the MAC client streams:
//   - receive side (tessera_nic_rx): registers, QP and memory-region tables,
//     RX check and RDMA WRITE responder; it writes memory (AW/W/B, ID AxiId),
//     reads the destination of a reduce WRITE (AR/R, ID AxiId) and hands
//     acknowledgement descriptors to the ACK framer;
//   - requesters (tessera_nic_req_arb): one tessera_nic_requester per QP
//     0..NReqQp-1; they read payload (AR/R, IDs AxiId+1+q) and frame packets;
//   - ACK framer: a tessera_nic_tx_frame turning the responder's descriptors
//     into ACKNOWLEDGE frames (AETH, no payload);
//   - TX mux: whole frames from the ACK framer and the requesters, alternating
//     at frame boundaries when both wait, so neither side starves the other;
//   - RX demux: a received frame's first beat waits for its second, which holds
//     the BTH opcode (frame byte 42); ACKNOWLEDGE frames go to the ACK receiver
//     (its own RX check: headers and ICRC; AETH taken from the frame), which
//     hands syndrome, PSN and MSN to the requester of the QP whose local QPN
//     is the BTH destination QP; every other frame goes to the responder;
//   - work-request queue (NWrQ entries, pushed by WR_DOORBELL) in front of the
//     requesters, completion queue (NCq entries, popped by CQ_POP) behind
//     them; a work request for a QP that is not in RTS or has no requester
//     completes at once with status 5;
//   - interrupts: responder error NAK, completion, error completion;
//   - message port (a 32-bit write of data to a system address, into the chip's
//     message master): the responder's sync-object updates of WRITEs with
//     immediate, and the completion messages of work requests that asked for
//     one (sent when the work request completes with status 0; the next
//     completion waits until it has left).
// QP life: a QP entering RTS (re)starts its requester at QP_SQ_PSN, a QP
// leaving RTS (modified to ERROR or RESET, or moved to ERROR by the responder)
// stops it, flushing its open work requests; a requester that fails (error
// NAK, retry limit, AXI read error) moves the QP to ERROR. The requester's RTO, retry limit, resend guard and UDP source
// port are QP attributes written with the others by QP_CMD.
module tessera_nic_port #(
  parameter int unsigned NQp = 16,   // QP contexts, 1..16
  parameter int unsigned NMr = 16,   // memory regions, 1..16
  parameter logic [tessera_bus_pkg::IdBits-1:0] AxiId = '0,
  parameter int unsigned NReqQp = 4,   // QPs 0..NReqQp-1 have a requester (1..NQp)
  parameter int unsigned NWr    = 8,   // work requests held per requester (power of 2)
  parameter int unsigned NWrQ   = 8,   // work-request queue entries (power of 2, <= 8)
  parameter int unsigned NCq    = 16,  // completion queue entries (power of 2, <= 16)
  parameter int unsigned NumSobs = 256, // sync objects a received immediate may name
  localparam int unsigned QpW = NQp > 1 ? $clog2(NQp) : 1,
  localparam int unsigned RqW = NReqQp > 1 ? $clog2(NReqQp) : 1
) (
  input  logic clk_i, input logic rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  output tessera_bus_pkg::axi_req_t axi_req_o,  input  tessera_bus_pkg::axi_rsp_t axi_rsp_i,
  // MAC client, 32 bytes per beat, packed tkeep, no FCS (the MAC adds/checks it)
  output logic tx_tvalid_o, input logic tx_tready_i, output logic [255:0] tx_tdata_o,
  output logic [31:0] tx_tkeep_o, output logic tx_tlast_o,
  input  logic rx_tvalid_i, output logic rx_tready_o, input logic [255:0] rx_tdata_i,
  input  logic [31:0] rx_tkeep_i, input logic rx_tlast_i,
  output logic irq_o,
  // messages: sync-object updates of received WRITEs with immediate, completion messages
  output logic msg_valid_o, input logic msg_ready_i, output logic [31:0] msg_addr_o,
  output logic [31:0] msg_data_o,
  // the work-request queue has room: a doorbell now is taken (a queue manager's EB waits for it)
  output logic wr_room_o,
  // nothing in flight and nothing that the next clock edge would change: the chip may
  // stop the port's clock until a register access, a received beat or an AXI response
  output logic idle_o);

  localparam logic [7:0] OpAck = 8'h11;   // BTH opcode ACKNOWLEDGE
  localparam logic [2:0] CplQpState = 3'd5;
  localparam int unsigned WqW = $clog2(NWrQ);
  localparam int unsigned CqW = $clog2(NCq);

  // ------------------------------------------------------------ RX demux
  logic         hold_v_q, hold_first_q, hold_last_q, route_ack_q, in_first_q;
  logic [255:0] hold_data_q;
  logic [31:0]  hold_keep_q;
  logic         hold_known, hold_ack, hold_drain, in_fire, rsp_tready, ack_beat;

  always_comb begin
    if (hold_first_q) begin
      hold_known = hold_last_q || rx_tvalid_i;
      hold_ack   = !hold_last_q && rx_tdata_i[8*10 +: 8] == OpAck;   // frame byte 42
    end else begin
      hold_known = 1'b1;
      hold_ack   = route_ack_q;
    end
  end
  assign hold_drain  = hold_v_q && hold_known && (hold_ack || rsp_tready);
  assign ack_beat    = hold_drain && hold_ack;
  assign rx_tready_o = !hold_v_q || hold_drain;
  assign in_fire     = rx_tvalid_i && rx_tready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_v_q     <= 1'b0;
      hold_first_q <= 1'b0;
      hold_last_q  <= 1'b0;
      hold_data_q  <= '0;
      hold_keep_q  <= '0;
      route_ack_q  <= 1'b0;
      in_first_q   <= 1'b1;
    end else begin
      if (hold_drain && hold_first_q) begin
        route_ack_q <= hold_ack;
      end
      if (in_fire) begin
        hold_v_q     <= 1'b1;
        hold_first_q <= in_first_q;
        hold_last_q  <= rx_tlast_i;
        hold_data_q  <= rx_tdata_i;
        hold_keep_q  <= rx_tkeep_i;
        in_first_q   <= rx_tlast_i;
      end else if (hold_drain) begin
        hold_v_q <= 1'b0;
      end
    end
  end

  // ------------------------------------------------------------ receive side
  nic_reg_pkg::nic__in_t      hwif_ext;
  nic_reg_pkg::nic__out_t     hwif;
  tessera_bus_pkg::axi_req_t  rx_axi_req;
  tessera_bus_pkg::axi_rsp_t  rx_axi_rsp;
  logic                       ack_d_valid, ack_d_ready, rx_busy, rx_irq_unused;
  logic [QpW-1:0]             ack_d_qp;
  logic [23:0]                ack_d_dqpn, ack_d_psn, ack_d_msn;
  logic [47:0]                ack_d_dmac;
  logic [31:0]                ack_d_dip;
  logic [7:0]                 ack_d_syn, ack_d_op;
  logic [12:0]                ack_d_len;
  logic                       rp_tvalid, rp_tready, rp_tlast;
  logic [255:0]               rp_tdata;
  logic [NQp-1:0]             req_err_pulse;
  logic [23:0]                alk_qpn;
  logic                       alk_hit, cmd_done;
  logic [QpW-1:0]             alk_qp;
  logic [1:0]                 cmd_err;
  logic [NQp-1:0][2:0]        qp_state, qp_mtu;
  logic [NQp-1:0][23:0]       qp_dqpn, qp_sq_psn;
  logic [NQp-1:0][47:0]       qp_rmac;
  logic [NQp-1:0][31:0]       qp_rip;
  logic [NQp-1:0]             qp_sel;

  // READ responses: what each requester expects (QPs without a requester expect none)
  logic [NReqQp-1:0]       rq_rd_act;
  logic [NReqQp-1:0][23:0] rq_rd_psn, rq_rd_end;
  logic [NReqQp-1:0][31:0] rq_rd_addr;
  logic [NReqQp-1:0][12:0] rq_rd_len;
  logic [NQp-1:0]          rr_act;
  logic [NQp-1:0][23:0]    rr_psn, rr_end;
  logic [NQp-1:0][31:0]    rr_addr;
  logic [NQp-1:0][12:0]    rr_len;
  logic                    rr_done, rr_gap, rr_err;
  logic [QpW-1:0]          rr_qp;
  always_comb begin
    rr_act  = '0;
    rr_psn  = '0;
    rr_end  = '0;
    rr_addr = '0;
    rr_len  = '0;
    for (int unsigned q = 0; q < NReqQp; q++) begin
      rr_act[q]  = rq_rd_act[q];
      rr_psn[q]  = rq_rd_psn[q];
      rr_end[q]  = rq_rd_end[q];
      rr_addr[q] = rq_rd_addr[q];
      rr_len[q]  = rq_rd_len[q];
    end
  end

  logic        rm_valid, rm_ready;
  logic [31:0] rm_addr, rm_data;

  tessera_nic_rx #(.NQp(NQp), .NMr(NMr), .AxiId(AxiId), .NumSobs(NumSobs)) u_rx (
    .clk_i,
    .rst_ni,
    .apb_psel_i    (apb_req_i.psel),
    .apb_penable_i (apb_req_i.penable),
    .apb_pwrite_i  (apb_req_i.pwrite),
    .apb_pprot_i   (apb_req_i.pprot),
    .apb_paddr_i   (apb_req_i.paddr),
    .apb_pwdata_i  (apb_req_i.pwdata),
    .apb_pstrb_i   (apb_req_i.pstrb),
    .apb_pready_o  (apb_rsp_o.pready),
    .apb_prdata_o  (apb_rsp_o.prdata),
    .apb_pslverr_o (apb_rsp_o.pslverr),
    .s_tvalid_i    (hold_v_q && hold_known && !hold_ack),
    .s_tready_o    (rsp_tready),
    .s_tdata_i     (hold_data_q),
    .s_tkeep_i     (hold_keep_q),
    .s_tlast_i     (hold_last_q),
    .axi_req_o     (rx_axi_req),
    .axi_rsp_i     (rx_axi_rsp),
    .ack_valid_o   (ack_d_valid),
    .ack_ready_i   (ack_d_ready),
    .ack_qp_o      (ack_d_qp),
    .ack_dqpn_o    (ack_d_dqpn),
    .ack_dmac_o    (ack_d_dmac),
    .ack_dip_o     (ack_d_dip),
    .ack_syndrome_o(ack_d_syn),
    .ack_psn_o     (ack_d_psn),
    .ack_msn_o     (ack_d_msn),
    .ack_opcode_o  (ack_d_op),
    .ack_len_o     (ack_d_len),
    .pay_tvalid_o  (rp_tvalid),
    .pay_tready_i  (rp_tready),
    .pay_tdata_o   (rp_tdata),
    .pay_tlast_o   (rp_tlast),
    .rr_act_i      (rr_act),
    .rr_psn_i      (rr_psn),
    .rr_end_i      (rr_end),
    .rr_addr_i     (rr_addr),
    .rr_len_i      (rr_len),
    .rr_done_o     (rr_done),
    .rr_gap_o      (rr_gap),
    .rr_err_o      (rr_err),
    .rr_qp_o       (rr_qp),
    .msg_valid_o   (rm_valid),
    .msg_ready_i   (rm_ready),
    .msg_addr_o    (rm_addr),
    .msg_data_o    (rm_data),
    .busy_o        (rx_busy),
    .irq_o         (rx_irq_unused),
    .hwif_ext_i    (hwif_ext),
    .hwif_o        (hwif),
    .req_err_i     (req_err_pulse),
    .qp_cmd_done_o (cmd_done),
    .qp_cmd_err_o  (cmd_err),
    .ack_lk_qpn_i  (alk_qpn),
    .ack_lk_hit_o  (alk_hit),
    .ack_lk_qp_o   (alk_qp),
    .qp_state_o    (qp_state),
    .qp_dqpn_o     (qp_dqpn),
    .qp_rmac_o     (qp_rmac),
    .qp_rip_o      (qp_rip),
    .qp_mtu_o      (qp_mtu),
    .qp_selective_o(qp_sel),
    .qp_sq_psn_o   (qp_sq_psn)
  );

  // ------------------------------------------------------------ requester QP attributes
  // written when a QP_CMD modify into INIT, RTR or RTS succeeds
  logic [NReqQp-1:0][31:0] rto_q;
  logic [NReqQp-1:0][7:0]  retry_q;
  logic [NReqQp-1:0][15:0] guard_q;
  logic [NQp-1:0][15:0]    sport_q;
  logic [QpW-1:0]       cmd_qp_q;
  logic                 cmd_attr_q;
  logic [31:0]          cmd_rto_q;
  logic [7:0]           cmd_retry_q;
  logic [15:0]          cmd_guard_q, cmd_sport_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rto_q       <= '0;
      retry_q     <= '0;
      guard_q     <= '0;
      sport_q     <= '0;
      cmd_qp_q    <= '0;
      cmd_attr_q  <= 1'b0;
      cmd_rto_q   <= '0;
      cmd_retry_q <= '0;
      cmd_guard_q <= '0;
      cmd_sport_q <= '0;
    end else begin
      if (hwif.QP_CMD.go.value) begin
        cmd_qp_q    <= QpW'(hwif.QP_SEL.idx.value);
        cmd_attr_q  <= hwif.QP_CMD.state.value == tessera_nic_pkg::QpInit ||
                       hwif.QP_CMD.state.value == tessera_nic_pkg::QpRtr ||
                       hwif.QP_CMD.state.value == tessera_nic_pkg::QpRts;
        cmd_rto_q   <= hwif.QP_RTO.cycles.value;
        cmd_retry_q <= hwif.QP_REQ_CFG.retry.value;
        cmd_guard_q <= hwif.QP_GUARD.cycles.value;
        cmd_sport_q <= hwif.QP_REQ_CFG.sport.value;
      end
      if (cmd_done && cmd_err == 2'd0 && cmd_attr_q) begin
        sport_q[cmd_qp_q] <= cmd_sport_q;
        if (32'(cmd_qp_q) < NReqQp) begin
          rto_q[RqW'(cmd_qp_q)]   <= cmd_rto_q;
          retry_q[RqW'(cmd_qp_q)] <= cmd_retry_q;
          guard_q[RqW'(cmd_qp_q)] <= cmd_guard_q;
        end
      end
    end
  end

  // a QP entering RTS starts its requester; a requester entering ERROR moves its QP there
  logic [NQp-1:0]    rts_q, req_err_q;
  logic [NReqQp-1:0] req_start, req_stop, req_err, req_idle;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rts_q     <= '0;
      req_err_q <= '0;
    end else begin
      for (int unsigned q = 0; q < NQp; q++) begin
        rts_q[q] <= qp_state[q] == tessera_nic_pkg::QpRts;
      end
      req_err_q <= NQp'(req_err);
    end
  end
  always_comb begin
    req_err_pulse = NQp'(req_err) & ~req_err_q;
    for (int unsigned q = 0; q < NReqQp; q++) begin
      req_start[q] = qp_state[q] == tessera_nic_pkg::QpRts && !rts_q[q];
      req_stop[q]  = qp_state[q] != tessera_nic_pkg::QpRts;
    end
  end

  // ------------------------------------------------------------ work-request queue
  typedef struct packed {
    logic [3:0]  qp;
    logic [15:0] id;
    logic [31:0] laddr;
    logic [63:0] va;
    logic [31:0] rkey;
    logic [31:0] len;
    logic        rd;
    logic        imm_en;
    logic [31:0] imm;
    logic        cmsg_en;
    logic [31:0] cmsg_addr;
    logic [31:0] cmsg_data;
  } wr_t;
  wr_t          wq_q [NWrQ];
  wr_t          wq_head;
  logic [WqW:0] wq_rd_q, wq_wr_q, wq_cnt;
  logic         wq_full, wq_empty, wq_push, wq_pop, wq_ok, wr_ready, rej_push;

  assign wq_cnt   = wq_wr_q - wq_rd_q;
  assign wq_full  = wq_cnt == (WqW + 1)'(NWrQ);
  assign wq_empty = wq_cnt == '0;
  assign wq_push  = hwif.WR_DOORBELL.go.value && !wq_full;
  assign wr_room_o = !wq_full;
  assign wq_head  = wq_q[wq_rd_q[WqW-1:0]];
  // the head goes to its requester when the QP can send, else completes with CplQpState
  assign wq_ok    = 32'(wq_head.qp) < NReqQp && 32'(wq_head.qp) < NQp &&
                    qp_state[QpW'(wq_head.qp)] == tessera_nic_pkg::QpRts;
  assign wq_pop   = !wq_empty && (wq_ok ? wr_ready : rej_push);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_rd_q <= '0;
      wq_wr_q <= '0;
    end else begin
      wq_rd_q <= wq_rd_q + (WqW + 1)'(wq_pop);
      wq_wr_q <= wq_wr_q + (WqW + 1)'(wq_push);
    end
  end
  always_ff @(posedge clk_i) begin
    if (wq_push) begin
      wq_q[wq_wr_q[WqW-1:0]] <= {hwif.WR_QP.qp.value, hwif.WR_ID.id.value, hwif.WR_LADDR.addr.value,
                                 hwif.WR_VA_HI.addr.value, hwif.WR_VA_LO.addr.value,
                                 hwif.WR_RKEY.rkey.value, hwif.WR_LEN.len.value, hwif.WR_FLAGS.read.value,
                                 hwif.WR_FLAGS.imm.value && !hwif.WR_FLAGS.read.value, hwif.WR_IMM.imm.value,
                                 hwif.WR_FLAGS.cmsg.value, hwif.WR_CMSG_ADDR.addr.value,
                                 hwif.WR_CMSG_DATA.data.value};
    end
  end

  // ------------------------------------------------------------ completion queue
  typedef struct packed {
    logic [3:0]  qp;
    logic [15:0] id;
    logic [2:0]  status;
  } cpl_t;
  cpl_t         cq_q [NCq];
  cpl_t         cq_in;
  logic [CqW:0] cq_rd_q, cq_wr_q, cq_cnt;
  logic         cq_full, cq_empty, cq_push, cq_pop;
  logic         cpl_valid, cpl_ready;
  logic [RqW-1:0] cpl_qp;
  logic [15:0]  cpl_id;
  logic [2:0]   cpl_status;

  assign cq_cnt    = cq_wr_q - cq_rd_q;
  assign cq_full   = cq_cnt == (CqW + 1)'(NCq);
  assign cq_empty  = cq_cnt == '0;
  assign rej_push  = !wq_empty && !wq_ok && !cq_full;   // rejected work requests go first
  // a completion with a message waits while the previous completion message has not left
  logic        cm_v_q, cpl_cmsg_en;
  logic [31:0] cm_addr_q, cm_data_q, cpl_cmsg_addr, cpl_cmsg_data;
  assign cpl_ready = !cq_full && !rej_push && !cm_v_q;
  assign cq_push   = rej_push || (cpl_valid && cpl_ready);
  assign cq_pop    = hwif.CQ_POP.go.value && !cq_empty;
  always_comb begin
    if (rej_push) begin
      cq_in = {wq_head.qp, wq_head.id, CplQpState};
    end else begin
      cq_in = {4'(cpl_qp), cpl_id, cpl_status};
    end
  end

  logic cq_push_ok;
  assign cq_push_ok = cq_push && !cq_full;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cq_rd_q <= '0;
      cq_wr_q <= '0;
    end else begin
      cq_rd_q <= cq_rd_q + (CqW + 1)'(cq_pop);
      cq_wr_q <= cq_wr_q + (CqW + 1)'(cq_push_ok);
    end
  end
  always_ff @(posedge clk_i) begin
    if (cq_push_ok) begin
      cq_q[cq_wr_q[CqW-1:0]] <= cq_in;
    end
  end

  // ------------------------------------------------------------ message port
  // A completion message is loaded when its work request completes with status 0.
  // The port shows one message at a time and keeps its source until it is taken.
  logic ms_lock_q, ms_cm_q, ms_sel_cm;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cm_v_q    <= 1'b0;
      cm_addr_q <= '0;
      cm_data_q <= '0;
      ms_lock_q <= 1'b0;
      ms_cm_q   <= 1'b0;
    end else begin
      if (cpl_valid && cpl_ready && cpl_status == 3'd0 && cpl_cmsg_en) begin
        cm_v_q    <= 1'b1;
        cm_addr_q <= cpl_cmsg_addr;
        cm_data_q <= cpl_cmsg_data;
      end else if (ms_sel_cm && msg_ready_i) begin
        cm_v_q <= 1'b0;
      end
      ms_lock_q <= msg_valid_o && !msg_ready_i;
      ms_cm_q   <= ms_sel_cm;
    end
  end
  assign ms_sel_cm   = ms_lock_q ? ms_cm_q : cm_v_q;
  assign msg_valid_o = ms_sel_cm ? cm_v_q : rm_valid;
  assign msg_addr_o  = ms_sel_cm ? cm_addr_q : rm_addr;
  assign msg_data_o  = ms_sel_cm ? cm_data_q : rm_data;
  assign rm_ready    = !ms_sel_cm && msg_ready_i;

  // ------------------------------------------------------------ acknowledgement receiver
  logic        ak_done, ak_first_q, ak_beat1_q;
  logic [3:0]  ak_status;
  logic [15:0] ak_len_unused;
  logic [7:0]  ak_op, ak_syn_q;
  logic [23:0] ak_psn, ak_msn_q;
  logic        ak_deliver, ak_bad;

  tessera_nic_rx_check #(.DataBytes(32)) u_ack_chk (
    .clk_i,
    .rst_ni,
    .beat_i  (ack_beat),
    .data_i  (hold_data_q),
    .keep_i  (hold_keep_q),
    .last_i  (hold_last_q),
    .done_o  (ak_done),
    .status_o(ak_status),
    .len_o   (ak_len_unused),
    .opcode_o(ak_op),
    .dqpn_o  (alk_qpn),
    .psn_o   (ak_psn)
  );

  // AETH: frame bytes 54..57 = bytes 22..25 of the second beat
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ak_first_q <= 1'b1;
      ak_beat1_q <= 1'b0;
      ak_syn_q   <= '0;
      ak_msn_q   <= '0;
    end else if (ack_beat) begin
      ak_first_q <= hold_last_q;
      ak_beat1_q <= ak_first_q && !hold_last_q;
      if (ak_beat1_q) begin
        ak_syn_q <= hold_data_q[8*22 +: 8];
        ak_msn_q <= {hold_data_q[8*23 +: 8], hold_data_q[8*24 +: 8], hold_data_q[8*25 +: 8]};
      end
    end
  end

  assign ak_deliver = ak_done && ak_status == 4'd0 && ak_op == OpAck && alk_hit &&
                      32'(alk_qp) < NReqQp;
  assign ak_bad     = ak_done && !ak_deliver;

  // ------------------------------------------------------------ requesters
  logic [NReqQp-1:0][23:0] rq_psn, rq_dqpn;
  logic [NReqQp-1:0]       rq_sel;
  logic [NReqQp-1:0][2:0]  rq_mtu;
  logic [NReqQp-1:0][31:0] rq_rto, rq_dip;
  logic [NReqQp-1:0][7:0]  rq_retry;
  logic [NReqQp-1:0][15:0] rq_guard, rq_sport;
  logic [NReqQp-1:0][47:0] rq_dmac;
  logic [NReqQp-1:0][31:0] cnt_pkts, cnt_res, cnt_tmo;
  logic [4:0]   ar_id;
  logic [31:0]  ar_addr;
  logic [7:0]   ar_len;
  logic [2:0]   ar_size;
  logic [1:0]   ar_burst;
  logic         ar_valid, r_ready, req_ar_ready, req_rf_pop;

  // R beats enter a two-beat register FIFO before the requesters: the requester that
  // takes a beat is chosen by its ID, so a ready straight from the requesters would
  // make r_ready a function of the slice's R payload. Through the FIFO, r_ready is a
  // register (FIFO not full) and no request-side output depends on a response input:
  // the slice answers aw_valid with w_ready in the same cycle, and the structs being
  // single signals that would close a combinational loop through the L2 router.
  // Two entries keep one beat per cycle.
  typedef struct packed {
    logic [tessera_bus_pkg::IdBits-1:0] id;
    logic [255:0]                       data;
    logic [1:0]                         resp;
    logic                               last;
  } rbeat_t;
  rbeat_t rf_in, rf_out;
  logic   rf_full, rf_empty, rf_pop;
  // field order of rbeat_t (Yosys' frontend reads no named assignment patterns)
  assign rf_in   = {axi_rsp_i.r.id, axi_rsp_i.r.data, axi_rsp_i.r.resp, axi_rsp_i.r.last};
  assign r_ready = !rf_full;
  tessera_fifo #(.Width($bits(rf_in)), .Depth(2)) u_r_fifo (
    .clk_i,
    .rst_ni,
    .push_i (axi_rsp_i.r_valid),
    .data_i (rf_in),
    .pop_i  (rf_pop),
    .data_o (rf_out),
    .full_o (rf_full),
    .empty_o(rf_empty)
  );
  logic         d_tvalid, d_tready, d_tlast;
  logic [255:0] d_tdata;
  logic [31:0]  d_tkeep;

  for (genvar q = 0; q < NReqQp; q++) begin : g_cfg
    assign rq_psn[q]   = qp_sq_psn[q];
    assign rq_dqpn[q]  = qp_dqpn[q];
    assign rq_sel[q]   = qp_sel[q];
    assign rq_mtu[q]   = qp_mtu[q];
    assign rq_rto[q]   = rto_q[q];
    assign rq_retry[q] = retry_q[q];
    assign rq_guard[q] = guard_q[q];
    assign rq_sport[q] = sport_q[q];
    assign rq_dmac[q]  = qp_rmac[q];
    assign rq_dip[q]   = qp_rip[q];
  end

  tessera_nic_req_arb #(.NQp(NReqQp), .NWr(NWr), .AxiIdBase(5'(AxiId + 1'b1))) u_req (
    .clk_i,
    .rst_ni,
    .cfg_start_i    (req_start),
    .cfg_stop_i     (req_stop),
    .cfg_psn_i      (rq_psn),
    .cfg_selective_i(rq_sel),
    .cfg_mtu_i      (rq_mtu),
    .cfg_rto_i      (rq_rto),
    .cfg_retry_i    (rq_retry),
    .cfg_guard_i    (rq_guard),
    .cfg_dqpn_i     (rq_dqpn),
    .cfg_dmac_i     (rq_dmac),
    .cfg_dip_i      (rq_dip),
    .cfg_sport_i    (rq_sport),
    .cfg_smac_i     ({hwif.PORT_MAC_HI.mac.value, hwif.PORT_MAC_LO.mac.value}),
    .cfg_sip_i      (hwif.PORT_IP.ip.value),
    .cfg_tos_i      (hwif.PORT_CFG.tos.value),
    .cfg_ttl_i      (hwif.PORT_CFG.ttl.value),
    .cfg_pkey_i     (hwif.PORT_CFG.pkey.value),
    .wr_valid_i     (!wq_empty && wq_ok),
    .wr_ready_o     (wr_ready),
    .wr_qp_i        (RqW'(wq_head.qp)),
    .wr_id_i        (wq_head.id),
    .wr_laddr_i     (wq_head.laddr),
    .wr_va_i        (wq_head.va),
    .wr_rkey_i      (wq_head.rkey),
    .wr_len_i       (wq_head.len),
    .wr_read_i      (wq_head.rd),
    .wr_imm_en_i    (wq_head.imm_en),
    .wr_imm_i       (wq_head.imm),
    .wr_cmsg_en_i   (wq_head.cmsg_en),
    .wr_cmsg_addr_i (wq_head.cmsg_addr),
    .wr_cmsg_data_i (wq_head.cmsg_data),
    .cpl_valid_o    (cpl_valid),
    .cpl_ready_i    (cpl_ready),
    .cpl_qp_o       (cpl_qp),
    .cpl_id_o       (cpl_id),
    .cpl_status_o   (cpl_status),
    .cpl_cmsg_en_o  (cpl_cmsg_en),
    .cpl_cmsg_addr_o(cpl_cmsg_addr),
    .cpl_cmsg_data_o(cpl_cmsg_data),
    .ack_valid_i    (ak_deliver),
    .ack_qp_i       (RqW'(alk_qp)),
    .ack_syndrome_i (ak_syn_q),
    .ack_psn_i      (ak_psn),
    .ack_msn_i      (ak_msn_q),
    .rd_act_o       (rq_rd_act),
    .rd_psn_o       (rq_rd_psn),
    .rd_end_o       (rq_rd_end),
    .rd_addr_o      (rq_rd_addr),
    .rd_len_o       (rq_rd_len),
    .rr_done_i      (rr_done && 32'(rr_qp) < NReqQp),
    .rr_gap_i       (rr_gap && 32'(rr_qp) < NReqQp),
    .rr_err_i       (rr_err && 32'(rr_qp) < NReqQp),
    .rr_qp_i        (RqW'(rr_qp)),
    .m_arid_o       (ar_id),
    .m_araddr_o     (ar_addr),
    .m_arlen_o      (ar_len),
    .m_arsize_o     (ar_size),
    .m_arburst_o    (ar_burst),
    .m_arvalid_o    (ar_valid),
    .m_arready_i    (req_ar_ready),
    .m_rid_i        (rf_out.id),
    .m_rdata_i      (rf_out.data),
    .m_rresp_i      (rf_out.resp),
    .m_rlast_i      (rf_out.last),
    .m_rvalid_i     (!rf_empty && !rf_to_rx),
    .m_rready_o     (req_rf_pop),
    .m_tvalid_o     (d_tvalid),
    .m_tready_i     (d_tready),
    .m_tdata_o      (d_tdata),
    .m_tkeep_o      (d_tkeep),
    .m_tlast_o      (d_tlast),
    .err_o          (req_err),
    .idle_o         (req_idle),
    .cnt_pkts_o     (cnt_pkts),
    .cnt_resends_o  (cnt_res),
    .cnt_timeouts_o (cnt_tmo)
  );

  // One AXI master: the responder's writes (AW/W/B), the requesters' reads and the
  // responder's reads of reduce WRITEs (AR/R). The request side and the response side
  // are separate blocks: the slice answers some handshakes in the same cycle (aw_valid ->
  // w_ready), so one block reading axi_rsp_i and driving axi_req_o would be a false
  // combinational loop through the L2 router.
  // AR: the responder's AR first; an AR presented and not yet accepted keeps the
  // channel (ar_lock_q), so its fields stay stable until the handshake. R beats leave the
  // FIFO to the responder (ID AxiId) or to the requesters (their IDs).
  tessera_bus_pkg::axi_ax_chan_t ar_chan;
  logic ar_lock_q, ar_own_rx_q, ar_rx;
  assign ar_rx = ar_lock_q ? ar_own_rx_q : rx_axi_req.ar_valid;
  always_comb begin
    ar_chan       = '0;
    ar_chan.id    = ar_id;
    ar_chan.addr  = ar_addr;
    ar_chan.len   = ar_len;
    ar_chan.size  = ar_size;
    ar_chan.burst = ar_burst;
    // L2 hints of the payload reads (register CACHE; the responder's reads carry the same)
    ar_chan.cache = {hwif.CACHE.rd_alloc.value, 3'b011};
    ar_chan.qos   = {2'b00, hwif.CACHE.rd_class.value};
  end
  always_comb begin
    axi_req_o          = rx_axi_req;
    axi_req_o.ar       = ar_rx ? rx_axi_req.ar : ar_chan;
    axi_req_o.ar_valid = ar_rx ? rx_axi_req.ar_valid : ar_valid;
    axi_req_o.r_ready  = r_ready;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_lock_q   <= 1'b0;
      ar_own_rx_q <= 1'b0;
    end else begin
      ar_lock_q   <= axi_req_o.ar_valid && !axi_rsp_i.ar_ready;
      ar_own_rx_q <= ar_rx;
    end
  end
  logic rf_to_rx;
  assign rf_to_rx = rf_out.id == AxiId;
  assign rf_pop   = rf_to_rx ? rx_axi_req.r_ready : req_rf_pop;
  always_comb begin
    rx_axi_rsp          = axi_rsp_i;
    rx_axi_rsp.ar_ready = ar_rx && axi_rsp_i.ar_ready;
    rx_axi_rsp.r        = '0;
    rx_axi_rsp.r.id     = rf_out.id;
    rx_axi_rsp.r.data   = rf_out.data;
    rx_axi_rsp.r.resp   = rf_out.resp;
    rx_axi_rsp.r.last   = rf_out.last;
    rx_axi_rsp.r_valid  = !rf_empty && rf_to_rx;
  end
  assign req_ar_ready = !ar_rx && axi_rsp_i.ar_ready;

  // ------------------------------------------------------------ ACK framer
  logic         a_tvalid, a_tready, a_tlast, a_pay_err_unused, a_idle;
  logic [255:0] a_tdata;
  logic [31:0]  a_tkeep;

  tessera_nic_tx_frame #(.DataBytes(32)) u_ack_frame (
    .clk_i,
    .rst_ni,
    .desc_valid_i   (ack_d_valid),
    .desc_ready_o   (ack_d_ready),
    .desc_dmac_i    (ack_d_dmac),
    .desc_smac_i    ({hwif.PORT_MAC_HI.mac.value, hwif.PORT_MAC_LO.mac.value}),
    .desc_sip_i     (hwif.PORT_IP.ip.value),
    .desc_dip_i     (ack_d_dip),
    .desc_tos_i     (hwif.PORT_CFG.tos.value),
    .desc_ttl_i     (hwif.PORT_CFG.ttl.value),
    .desc_ip_id_i   (16'h0000),
    .desc_sport_i   (sport_q[ack_d_qp]),
    .desc_opcode_i  (ack_d_op),
    .desc_se_i      (1'b0),
    .desc_migreq_i  (1'b0),
    .desc_pkey_i    (hwif.PORT_CFG.pkey.value),
    .desc_dqpn_i    (ack_d_dqpn),
    .desc_ackreq_i  (1'b0),
    .desc_psn_i     (ack_d_psn),
    .desc_va_i      (64'h0),
    .desc_rkey_i    (32'h0),
    .desc_dmalen_i  (32'h0),
    .desc_syndrome_i(ack_d_syn),
    .desc_msn_i     (ack_d_msn),
    .desc_imm_i     (32'h0),
    .desc_len_i     (ack_d_len),
    .s_tvalid_i     (rp_tvalid),
    .s_tready_o     (rp_tready),
    .s_tdata_i      (rp_tdata),
    .s_tkeep_i      ('1),
    .s_tlast_i      (rp_tlast),
    .m_tvalid_o     (a_tvalid),
    .m_tready_i     (a_tready),
    .m_tdata_o      (a_tdata),
    .m_tkeep_o      (a_tkeep),
    .m_tlast_o      (a_tlast),
    .pay_err_o      (a_pay_err_unused),
    .idle_o         (a_idle)
  );

  // ------------------------------------------------------------ TX mux (whole frames)
  logic tx_busy_q, tx_cur_ack_q, tx_last_ack_q, tx_sel_ack, tx_end;
  always_comb begin
    if (tx_busy_q) begin
      tx_sel_ack = tx_cur_ack_q;
    end else if (a_tvalid && d_tvalid) begin
      tx_sel_ack = !tx_last_ack_q;   // both wait: alternate
    end else begin
      tx_sel_ack = a_tvalid;
    end
  end
  assign tx_tvalid_o = tx_sel_ack ? a_tvalid : d_tvalid;
  assign tx_tdata_o  = tx_sel_ack ? a_tdata : d_tdata;
  assign tx_tkeep_o  = tx_sel_ack ? a_tkeep : d_tkeep;
  assign tx_tlast_o  = tx_sel_ack ? a_tlast : d_tlast;
  assign a_tready    = tx_sel_ack && tx_tready_i;
  assign d_tready    = !tx_sel_ack && tx_tready_i;
  assign tx_end      = tx_tvalid_o && tx_tready_i && tx_tlast_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_busy_q     <= 1'b0;
      tx_cur_ack_q  <= 1'b0;
      tx_last_ack_q <= 1'b0;
    end else if (tx_tvalid_o && tx_tready_i) begin
      tx_busy_q    <= !tx_tlast_o;
      tx_cur_ack_q <= tx_sel_ack;
      if (tx_tlast_o) begin
        tx_last_ack_q <= tx_sel_ack;
      end
    end
  end

  // ------------------------------------------------------------ port counters
  logic [31:0] n_rx_acks_q, n_rx_ack_drop_q, n_tx_frames_q, n_tx_acks_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_rx_acks_q     <= '0;
      n_rx_ack_drop_q <= '0;
      n_tx_frames_q   <= '0;
      n_tx_acks_q     <= '0;
    end else begin
      n_rx_acks_q     <= n_rx_acks_q + 32'(ak_deliver);
      n_rx_ack_drop_q <= n_rx_ack_drop_q + 32'(ak_bad);
      n_tx_frames_q   <= n_tx_frames_q + 32'(tx_end);
      n_tx_acks_q     <= n_tx_acks_q + 32'(tx_end && tx_sel_ack);
    end
  end

  // ------------------------------------------------------------ register inputs of the port
  logic [QpW-1:0] sel_qp;
  logic           sel_has_req;
  logic [RqW-1:0] sel_rq;
  cpl_t           cq_head;
  assign sel_qp      = QpW'(hwif.QP_SEL.idx.value);
  assign sel_has_req = 32'(sel_qp) < NReqQp;
  assign sel_rq      = RqW'(sel_qp);
  assign cq_head     = cq_q[cq_rd_q[CqW-1:0]];

  always_comb begin
    hwif_ext = '0;
    hwif_ext.QP_RD_REQ.err.next       = sel_has_req && req_err[sel_rq];
    hwif_ext.QP_RD_REQ.idle.next      = sel_has_req && req_idle[sel_rq];
    hwif_ext.QP_RD_REQ.present.next   = sel_has_req;
    hwif_ext.CNT_REQ_PKTS.val.next     = sel_has_req ? cnt_pkts[sel_rq] : '0;
    hwif_ext.CNT_REQ_RESENDS.val.next  = sel_has_req ? cnt_res[sel_rq] : '0;
    hwif_ext.CNT_REQ_TIMEOUTS.val.next = sel_has_req ? cnt_tmo[sel_rq] : '0;
    hwif_ext.CNT_RX_ACKS.val.next      = n_rx_acks_q;
    hwif_ext.CNT_RX_ACK_DROP.val.next  = n_rx_ack_drop_q;
    hwif_ext.CNT_TX_FRAMES.val.next    = n_tx_frames_q;
    hwif_ext.CNT_TX_ACKS.val.next      = n_tx_acks_q;
    hwif_ext.WR_STATUS.full.next       = wq_full;
    hwif_ext.WR_STATUS.empty.next      = wq_empty;
    hwif_ext.WR_STATUS.lost.hwset      = hwif.WR_DOORBELL.go.value && wq_full;
    hwif_ext.WR_STATUS.count.next      = 4'(wq_cnt);
    hwif_ext.CQ_STATUS.full.next       = cq_full;
    hwif_ext.CQ_STATUS.empty.next      = cq_empty;
    hwif_ext.CQ_STATUS.count.next      = 5'(cq_cnt);
    hwif_ext.CQ_HEAD.id.next           = cq_empty ? '0 : cq_head.id;
    hwif_ext.CQ_HEAD.qp.next           = cq_empty ? '0 : cq_head.qp;
    hwif_ext.CQ_HEAD.status.next       = cq_empty ? '0 : cq_head.status;
    hwif_ext.CQ_HEAD.valid.next        = !cq_empty;
    hwif_ext.IRQ_STATUS.cpl.hwset      = cq_push_ok;
    hwif_ext.IRQ_STATUS.cpl_err.hwset  = cq_push_ok && cq_in.status != 3'd0;
  end

  // ------------------------------------------------------------ idle (clock gating)
  // AXI bursts accepted and not yet answered (R last, B)
  logic [7:0] ax_rd_q, ax_wr_q;
  logic       ax_ar_hs, ax_r_end, ax_aw_hs, ax_b_hs;
  assign ax_ar_hs = axi_req_o.ar_valid && axi_rsp_i.ar_ready;
  assign ax_r_end = axi_rsp_i.r_valid && axi_req_o.r_ready && axi_rsp_i.r.last;
  assign ax_aw_hs = axi_req_o.aw_valid && axi_rsp_i.aw_ready;
  assign ax_b_hs  = axi_rsp_i.b_valid && axi_req_o.b_ready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ax_rd_q <= '0;
      ax_wr_q <= '0;
    end else begin
      ax_rd_q <= ax_rd_q + 8'(ax_ar_hs) - 8'(ax_r_end);
      ax_wr_q <= ax_wr_q + 8'(ax_aw_hs) - 8'(ax_b_hs);
    end
  end
  // an ACK frame's last beat was taken: its check result (done) comes next cycle
  logic ak_end_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ak_end_q <= 1'b0;
    else         ak_end_q <= ack_beat && hold_last_q;
  end
  // Every source of work, each a register or a register's function: a received frame
  // (RX hold, ACK check, responder incl. its ePSN advance, ACK descriptors and framer),
  // the work-request queue, the requesters (packets in work, PSNs in flight, so their
  // retransmission timer is never armed while idle, framer, pending completions), the TX
  // mux, AXI, register commands (single-pulse fields, QP modify) and the QP state
  // followers (start, stop, error).
  logic qp_sync;
  always_comb begin
    qp_sync = req_err_q == NQp'(req_err);
    for (int unsigned q = 0; q < NQp; q++) begin
      if (rts_q[q] != (qp_state[q] == tessera_nic_pkg::QpRts)) qp_sync = 1'b0;
    end
    for (int unsigned q = 0; q < NReqQp; q++) begin
      if (req_stop[q] && !req_err[q]) qp_sync = 1'b0;
    end
  end
  assign idle_o = !hold_v_q && in_first_q && ak_first_q && !ak_end_q && !rx_busy &&
                  !ack_d_valid && a_idle && wq_empty && (&req_idle) && !cpl_valid && !cm_v_q &&
                  !d_tvalid && !tx_busy_q && rf_empty &&
                  ax_rd_q == '0 && ax_wr_q == '0 && !axi_req_o.ar_valid &&
                  !axi_req_o.aw_valid && !axi_req_o.w_valid &&
                  !hwif.QP_CMD.go.value && !cmd_done && !hwif.MR_CMD.go.value &&
                  !hwif.WR_DOORBELL.go.value && !hwif.CQ_POP.go.value && qp_sync;

  assign irq_o = |({hwif.IRQ_STATUS.cpl_err.value, hwif.IRQ_STATUS.cpl.value, hwif.IRQ_STATUS.err.value} &
                   {hwif.IRQ_EN.cpl_err.value, hwif.IRQ_EN.cpl.value, hwif.IRQ_EN.err.value});

  logic unused;
  assign unused = ^{rx_irq_unused, ak_len_unused, a_pay_err_unused,
                    qp_sel, qp_mtu, qp_dqpn, qp_sq_psn, qp_rmac, qp_rip, hwif, axi_rsp_i.r.user};

endmodule
