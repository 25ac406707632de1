// RoCE v2 requester (send side) of one reliable-connection QP for RDMA WRITE
// (docs/nic.md "Requester unit"). Work requests (local address, remote VA,
// R_Key, length, WR id) enter a ring of NWr entries; the unit splits each into
// MTU packets, reads their payload through an AXI4 read master (DataBytes = 32
// per beat, bursts never cross 256 bytes: the L2 slice's rule, which keeps them
// inside 4 KiB too) and hands header descriptor and payload
// stream to a tessera_nic_tx_frame. Selective QPs send every packet as a WRITE
// only with its own RETH; go-back-N QPs send first/middle/last. The last packet
// of a message asks for an acknowledgement.
//
// Send window: 128 PSNs. A slot per PSN (PSN modulo 128) records the work
// request and the byte offset of its packet, so any PSN in flight is rebuilt
// for a resend, plus its send time, a "selectively acknowledged" and a
// "resend pending" bit. Resends go before new packets, oldest first.
//
// Acknowledgements (parsed AETH fields of the frames the responder side
// received for this QP): ACK retires every PSN up to BTH.PSN; syndrome 0x60
// (PSN sequence error) retires up to BTH.PSN = ePSN, and then in selective
// mode is a selective ACK of PSN AETH.MSN: the PSN is marked, and every
// unmarked PSN before it that was sent at least cfg_guard_i cycles ago (a
// round trip) is marked for resend; in go-back-N mode every PSN in flight is
// resent. Any other NAK puts the QP into ERROR.
// Retransmission timer: cfg_rto_i cycles without progress while PSNs are in
// flight resend every PSN not selectively acknowledged; more than
// cfg_retry_i timeouts in a row put the QP into ERROR.
// Completions leave in order (WR id and status) once the message's last PSN is
// acknowledged; in ERROR the oldest open work request completes with the
// error's status, every later one with CplFlushed. cfg_stop_i (the QP left
// RTS: moved to ERROR or RESET) puts the unit into ERROR with every open work
// request flushed. cfg_start_i (with the QP idle or in ERROR) sets the first
// PSN and clears the state.
//
// Packets in work: a queue of two. The head's descriptor and payload go to
// the framer; the payload reads of the packet behind it are issued as soon as
// the head's are, so its R beats follow the head's without the read latency in
// between (prefetch). pick_en_i lets the unit start a packet (want_o: it has
// one and room for it; busy_o: a packet is being read or framed), so that QPs
// sharing a read port and a wire take turns (tessera_nic_req_arb).
//
// With immediate (wr_imm_en_i): the message's last packet is RDMA WRITE last with
// immediate (0x09) or, a one-packet message or any selective packet, WRITE only
// with immediate (0x0B), carrying wr_imm_i as ImmDt. A completion message
// (wr_cmsg_en_i, address and data) travels with the work request and leaves with
// its completion (cpl_cmsg_*), for the port to send when the status is OK.
//
// RDMA READ (wr_read_i; docs/nic.md "RDMA READ"): a READ work request starts when
// every PSN before it is acknowledged and holds the QP's new packets until it
// completes. It sends one READ request (PSN nxt, the whole length) and takes
// ceil(len / MTU) PSNs (at least one). The port's responder places the response
// packets: rd_* tell it the response PSN expected next, its local address and
// length; rr_done_i (that packet is in memory) moves the expected PSN; after the
// last one the READ completes and the next PSN follows its response PSNs. A
// response past the expected one (rr_gap_i: one was lost) or cfg_rto_i cycles
// without a placed response send the READ request again for the rest: PSN = the
// expected PSN, VA and length advanced by the bytes placed (go-back-N); the
// timeouts count against cfg_retry_i as for WRITEs. A NAK ends it with status 2,
// a local write error (rr_err_i) with status 3.
//
// Limits: local addresses of WRITEs are multiples of DataBytes (READs: any);
// two packets in work; one READ at a time, alone in flight.
module tessera_nic_requester #(
  parameter int unsigned NWr       = 8,     // work requests held (power of 2)
  parameter logic [4:0]  AxiId     = 5'd4,
  localparam int unsigned DataBytes = 32,
  localparam int unsigned WrW       = $clog2(NWr)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // QP configuration (stable while the QP runs)
  input  logic                   cfg_start_i,     // pulse: first PSN, clear state and error
  input  logic                   cfg_stop_i,      // the QP left RTS: ERROR, flush
  input  logic [23:0]            cfg_psn_i,
  input  logic                   cfg_selective_i,
  input  logic [2:0]             cfg_mtu_i,       // 1..5: 256..4096 bytes
  input  logic [31:0]            cfg_rto_i,       // cycles without progress
  input  logic [7:0]             cfg_retry_i,     // timeouts in a row allowed
  input  logic [15:0]            cfg_guard_i,     // cycles before a hole is resent again
  input  logic [23:0]            cfg_dqpn_i,
  input  logic [47:0]            cfg_dmac_i,
  input  logic [47:0]            cfg_smac_i,
  input  logic [31:0]            cfg_sip_i,
  input  logic [31:0]            cfg_dip_i,
  input  logic [7:0]             cfg_tos_i,
  input  logic [7:0]             cfg_ttl_i,
  input  logic [15:0]            cfg_sport_i,
  input  logic [15:0]            cfg_pkey_i,
  // packet start permission (a port's arbiter lets one QP at a time read and frame)
  input  logic                   pick_en_i,
  output logic                   want_o,          // a packet to send, allowed when pick_en_i
  output logic                   busy_o,          // a packet being read and framed
  // work requests
  input  logic                   wr_valid_i,
  output logic                   wr_ready_o,
  input  logic [15:0]            wr_id_i,
  input  logic [31:0]            wr_laddr_i,
  input  logic [63:0]            wr_va_i,
  input  logic [31:0]            wr_rkey_i,
  input  logic [31:0]            wr_len_i,
  input  logic                   wr_read_i,       // RDMA READ: remote va -> local laddr
  input  logic                   wr_imm_en_i,     // the last packet carries wr_imm_i
  input  logic [31:0]            wr_imm_i,
  input  logic                   wr_cmsg_en_i,    // completion message
  input  logic [31:0]            wr_cmsg_addr_i,
  input  logic [31:0]            wr_cmsg_data_i,
  // completions
  output logic                   cpl_valid_o,
  input  logic                   cpl_ready_i,
  output logic [15:0]            cpl_id_o,
  output logic [2:0]             cpl_status_o,
  output logic                   cpl_cmsg_en_o,
  output logic [31:0]            cpl_cmsg_addr_o,
  output logic [31:0]            cpl_cmsg_data_o,
  // acknowledgements of this QP
  input  logic                   ack_valid_i,
  input  logic [7:0]             ack_syndrome_i,
  input  logic [23:0]            ack_psn_i,
  input  logic [23:0]            ack_msn_i,
  // READ responses: the one expected next (for the port's responder, which places it)
  output logic                   rd_act_o,        // a READ waits for response rd_psn_o
  output logic [23:0]            rd_psn_o,
  output logic [23:0]            rd_end_o,        // the PSN after its last response
  output logic [31:0]            rd_addr_o,       // local address of that response's payload
  output logic [12:0]            rd_len_o,        // its payload bytes
  input  logic                   rr_done_i,       // pulse: response rd_psn_o placed
  input  logic                   rr_gap_i,        // pulse: a response past rd_psn_o came
  input  logic                   rr_err_i,        // pulse: writing a response failed (AXI)
  // AXI4 read master (payload)
  output logic [4:0]             m_arid_o,
  output logic [31:0]            m_araddr_o,
  output logic [7:0]             m_arlen_o,
  output logic [2:0]             m_arsize_o,
  output logic [1:0]             m_arburst_o,
  output logic                   m_arvalid_o,
  input  logic                   m_arready_i,
  input  logic [8*DataBytes-1:0] m_rdata_i,
  input  logic [1:0]             m_rresp_i,
  input  logic                   m_rlast_i,
  input  logic                   m_rvalid_i,
  output logic                   m_rready_o,
  // frames to the MAC
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic [8*DataBytes-1:0] m_tdata_o,
  output logic [DataBytes-1:0]   m_tkeep_o,
  output logic                   m_tlast_o,
  // state and counters
  output logic                   err_o,           // QP in ERROR
  output logic                   idle_o,          // nothing in flight, nothing to send
  output logic [31:0]            cnt_pkts_o,      // data packets sent (with resends)
  output logic [31:0]            cnt_resends_o,
  output logic [31:0]            cnt_timeouts_o
);

  localparam int unsigned Win = 128;
  // completion status
  localparam logic [2:0] CplOk      = 3'd0;
  localparam logic [2:0] CplRetry   = 3'd1;   // retry limit exceeded
  localparam logic [2:0] CplRemote  = 3'd2;   // NAK from the responder
  localparam logic [2:0] CplLocal   = 3'd3;   // AXI read error
  localparam logic [2:0] CplFlushed = 3'd4;   // a work request after the failed one

  function automatic logic psn_after(logic [23:0] a, logic [23:0] b);   // a later than b
    logic [23:0] d;
    d = a - b;
    psn_after = !d[23] && d != '0;
  endfunction

  // ---- work request ring
  logic [15:0] wr_id_q   [NWr];
  logic [31:0] wr_laddr_q[NWr];
  logic [63:0] wr_va_q   [NWr];
  logic [31:0] wr_rkey_q [NWr];
  logic [31:0] wr_len_q  [NWr];
  logic [23:0] wr_last_q [NWr];
  logic        wr_read_q [NWr];
  logic        wr_imm_en_q [NWr];
  logic [31:0] wr_imm_q  [NWr];
  logic        wr_cmsg_en_q [NWr];
  logic [31:0] wr_cmsg_addr_q [NWr];
  logic [31:0] wr_cmsg_data_q [NWr];
  logic [WrW:0] head_q, head_d;   // oldest not completed
  logic [WrW:0] sendp_q, sendp_d; // next to packetize
  logic [WrW:0] tail_q, tail_d;   // next free
  logic [31:0]  woff_q, woff_d;   // byte offset of the next new packet of sendp
  logic         wr_fire, last_set;
  logic [WrW-1:0] last_idx;
  logic [23:0]  last_psn;

  assign wr_ready_o = (tail_q - head_q) != (WrW + 1)'(NWr);
  assign wr_fire    = wr_valid_i && wr_ready_o;

  // ---- send window
  logic [Win-1:0]              sacked_q, sacked_d, pend_q, pend_d;
  logic [Win-1:0][15:0]        sent_q;
  logic [Win-1:0][WrW-1:0]     slot_wr_q;
  logic [Win-1:0][31:0]        slot_off_q;
  logic [23:0]                 una_q, una_d, nxt_q, nxt_d;
  logic [31:0]                 timer_q, timer_d;
  logic [7:0]                  tmo_q, tmo_d;
  logic [15:0]                 now_q;
  logic                        err_q, err_d;
  logic [2:0]                  est_q, est_d;      // status of the failed work request
  logic [31:0]                 npkt_q, npkt_d, nres_q, nres_d, ntmo_q, ntmo_d;

  // ---- packet engine: a queue of two packets in work. The head is framed (its
  // descriptor and payload go to the framer); the reads of the packet behind it are
  // issued as soon as the head's are, so its payload follows the head's without the
  // read latency in between (prefetch).
  localparam int unsigned NPq = 2;
  logic         pq_rd_q, pq_rd_d, pq_wr_q, pq_wr_d;   // head, tail
  logic [1:0]   pq_cnt_q, pq_cnt_d;
  logic [NPq-1:0][23:0] e_psn_q, e_psn_d;
  logic [NPq-1:0][7:0]  e_op_q, e_op_d;
  logic [NPq-1:0]       e_ackreq_q, e_ackreq_d;
  logic [NPq-1:0][63:0] e_va_q, e_va_d;
  logic [NPq-1:0][31:0] e_rkey_q, e_rkey_d, e_dmalen_q, e_dmalen_d;
  logic [NPq-1:0][12:0] e_len_q, e_len_d;
  logic [NPq-1:0][31:0] e_imm_q, e_imm_d;
  logic [NPq-1:0]       e_desc_q, e_desc_d;      // descriptor not yet taken
  logic [NPq-1:0][31:0] e_ar_addr_q, e_ar_addr_d;
  logic [NPq-1:0][7:0]  e_ar_left_q, e_ar_left_d; // beats still to request
  logic [NPq-1:0][7:0]  e_r_left_q, e_r_left_d;   // beats still to forward
  logic         hd, ar_e, head_v, ar_v;
  logic         pick, pick_resend, slot_we;
  logic [23:0]  pick_psn;
  logic [6:0]   pick_slot;
  logic [WrW-1:0] pick_wr;
  logic [31:0]  pick_off;

  // ---- READ in flight
  logic         rd_act_q, rd_act_d;      // a READ waits for its responses
  logic         rd_req_q, rd_req_d;      // its request (first or again) is to be sent
  logic         rd_gap_q, rd_gap_d;      // re-requested after a gap, no progress since
  logic [WrW-1:0] rd_wr_q, rd_wr_d;      // its work request
  logic [23:0]  rd_exp_q, rd_exp_d, rd_end_q, rd_end_d;
  logic [31:0]  rd_off_q, rd_off_d;      // bytes placed
  logic [31:0]  rd_tmr_q, rd_tmr_d;
  logic [31:0]  rd_rest;
  logic [23:0]  rd_npk;
  logic         rd_start;

  logic [12:0]  mtu_bytes;
  logic [7:0]   inflight;                    // nxt - una, 0..128
  assign mtu_bytes = 13'(13'd128 << cfg_mtu_i);
  assign inflight  = 8'(nxt_q - una_q);

  // oldest pending PSN in flight
  logic        res_found;
  logic [6:0]  res_rel;
  always_comb begin
    res_found = 1'b0;
    res_rel   = '0;
    for (int unsigned k = 0; k < Win; k++) begin
      logic [6:0] s;
      s = 7'(una_q[6:0] + 7'(k));
      if (!res_found && 8'(k) < inflight && pend_q[s]) begin
        res_found = 1'b1;
        res_rel   = 7'(k);
      end
    end
  end

  // a new packet of work request sendp; a READ starts only with nothing in flight
  logic new_ok;
  assign new_ok   = sendp_q != tail_q && inflight < 8'(Win) && !err_q && !rd_act_q &&
                    (!wr_read_q[sendp_q[WrW-1:0]] || una_q == nxt_q);
  assign rd_start = wr_read_q[sendp_q[WrW-1:0]];
  assign rd_rest  = wr_len_q[rd_wr_q] - rd_off_q;
  always_comb begin
    logic [32:0] up;
    up     = 33'(wr_len_q[sendp_q[WrW-1:0]]) + 33'(mtu_bytes) - 33'd1;
    rd_npk = wr_len_q[sendp_q[WrW-1:0]] == '0 ? 24'd1 : 24'(up >> (4'd7 + 4'(cfg_mtu_i)));
  end
  assign rd_act_o  = rd_act_q && !err_q;
  assign rd_psn_o  = rd_exp_q;
  assign rd_end_o  = rd_end_q;
  assign rd_addr_o = wr_laddr_q[rd_wr_q] + rd_off_q;
  assign rd_len_o  = rd_rest < 32'(mtu_bytes) ? 13'(rd_rest) : mtu_bytes;

  // reads: the head's, then the next packet's
  assign hd     = pq_rd_q;
  assign head_v = pq_cnt_q != 2'd0;
  assign ar_e   = head_v && e_ar_left_q[hd] == '0 ? !hd : hd;
  assign ar_v   = head_v && e_ar_left_q[ar_e] != '0 && (ar_e == hd || pq_cnt_q == 2'd2);

  // AXI burst: up to the next 256-byte boundary (local addresses are whole beats); the
  // slice then refills a burst's lines with one memory burst ahead of its lookups
  logic [7:0] ar_beats, to_blk;
  assign to_blk   = 8'd8 - {5'd0, e_ar_addr_q[ar_e][7:5]};
  assign ar_beats = e_ar_left_q[ar_e] < to_blk ? e_ar_left_q[ar_e] : to_blk;

  assign m_arid_o    = AxiId;
  assign m_araddr_o  = e_ar_addr_q[ar_e];
  assign m_arlen_o   = ar_beats - 8'd1;
  assign m_arsize_o  = 3'd5;
  assign m_arburst_o = 2'b01;
  assign m_arvalid_o = ar_v;

  logic        tx_desc_ready, tx_s_tready, r_fire, r_err;
  assign m_rready_o = head_v && e_r_left_q[hd] != '0 && tx_s_tready;
  assign r_fire     = m_rvalid_i && m_rready_o;
  assign r_err      = r_fire && m_rresp_i[1];

  always_comb begin
    logic [23:0] upto;
    logic        adv;
    logic [23:0] ref_una;
    logic [6:0]  trig_rel;
    logic [31:0] rest;
    logic [12:0] n_len;
    logic        n_ackreq, pop, tmo_fire;
    tmo_fire   = 1'b0;

    head_d     = head_q;
    sendp_d    = sendp_q;
    tail_d     = tail_q;
    woff_d     = woff_q;
    sacked_d   = sacked_q;
    pend_d     = pend_q;
    una_d      = una_q;
    nxt_d      = nxt_q;
    timer_d    = timer_q;
    tmo_d      = tmo_q;
    err_d      = err_q;
    est_d      = est_q;
    npkt_d     = npkt_q;
    nres_d     = nres_q;
    ntmo_d     = ntmo_q;
    pq_rd_d    = pq_rd_q;
    pq_wr_d    = pq_wr_q;
    pq_cnt_d   = pq_cnt_q;
    e_psn_d    = e_psn_q;
    e_op_d     = e_op_q;
    e_ackreq_d = e_ackreq_q;
    e_va_d     = e_va_q;
    e_rkey_d   = e_rkey_q;
    e_dmalen_d = e_dmalen_q;
    e_len_d    = e_len_q;
    e_imm_d    = e_imm_q;
    e_desc_d   = e_desc_q;
    e_ar_addr_d = e_ar_addr_q;
    e_ar_left_d = e_ar_left_q;
    e_r_left_d = e_r_left_q;
    rd_act_d   = rd_act_q;
    rd_req_d   = rd_req_q;
    rd_gap_d   = rd_gap_q;
    rd_wr_d    = rd_wr_q;
    rd_exp_d   = rd_exp_q;
    rd_end_d   = rd_end_q;
    rd_off_d   = rd_off_q;
    rd_tmr_d   = rd_tmr_q;
    n_len      = '0;
    n_ackreq   = 1'b0;
    pop        = 1'b0;
    pick       = 1'b0;
    pick_resend = 1'b0;
    pick_psn   = nxt_q;
    pick_slot  = nxt_q[6:0];
    pick_wr    = sendp_q[WrW-1:0];
    pick_off   = woff_q;
    slot_we    = 1'b0;
    last_set   = 1'b0;
    last_idx   = sendp_q[WrW-1:0];
    last_psn   = nxt_q;
    upto       = '0;
    adv        = 1'b0;
    trig_rel   = '0;
    rest       = '0;
    ref_una    = una_q;

    if (wr_fire) begin
      tail_d = tail_q + 1'b1;
    end
    if (cpl_valid_o && cpl_ready_i) begin
      head_d = head_q + 1'b1;
      if (err_q && cpl_status_o != CplOk) begin
        est_d = CplFlushed;
      end
      if (head_q == sendp_q) begin   // in ERROR: a work request not (fully) sent leaves
        sendp_d = sendp_q + 1'b1;
        woff_d  = '0;
      end
    end

    // acknowledgements
    if (ack_valid_i && !err_q) begin
      if (ack_syndrome_i[7:5] == 3'b000) begin
        upto = ack_psn_i + 24'd1;
        adv  = 1'b1;
      end else if (ack_syndrome_i == tessera_nic_pkg::SynNakSeq) begin
        upto = ack_psn_i;
        adv  = 1'b1;
      end else if (ack_syndrome_i[7:5] == 3'b011) begin
        err_d = 1'b1;
        est_d = CplRemote;
      end
      if (adv && psn_after(upto, una_q) && !psn_after(upto, nxt_q)) begin
        una_d   = upto;
        timer_d = '0;
        tmo_d   = '0;
      end
      ref_una = una_d;
      if (ack_syndrome_i == tessera_nic_pkg::SynNakSeq && ack_psn_i == ref_una) begin
        if (cfg_selective_i) begin
          trig_rel = 7'(ack_msn_i - ref_una);
          if (!psn_after(ref_una, ack_msn_i) && psn_after(nxt_q, ack_msn_i)) begin
            sacked_d[ack_msn_i[6:0]] = 1'b1;
            for (int unsigned i = 0; i < Win; i++) begin
              if (7'(7'(i) - ref_una[6:0]) < trig_rel && !sacked_q[i] && !pend_q[i] &&
                  now_q - sent_q[i] >= cfg_guard_i) begin
                pend_d[i] = 1'b1;
              end
            end
          end
        end else begin
          for (int unsigned i = 0; i < Win; i++) begin
            if (8'(7'(7'(i) - ref_una[6:0])) < 8'(nxt_q - ref_una)) begin
              pend_d[i] = 1'b1;
            end
          end
        end
      end
    end

    // READ: a response placed, a gap, a write error, the timer
    if (rd_act_q && !err_q) begin
      rd_tmr_d = rd_tmr_q + 32'd1;
      if (rr_done_i) begin
        rd_exp_d = rd_exp_q + 24'd1;
        rd_off_d = rd_off_q + 32'(rd_len_o);
        rd_tmr_d = '0;
        tmo_d    = '0;
        rd_gap_d = 1'b0;
        if (rd_exp_q + 24'd1 == rd_end_q) begin
          // complete: the next PSN follows the response PSNs
          rd_act_d = 1'b0;
          rd_req_d = 1'b0;
          una_d    = rd_end_q;
          nxt_d    = rd_end_q;
        end
      end else if (rr_gap_i && !rd_gap_q) begin
        rd_req_d = 1'b1;
        rd_gap_d = 1'b1;
        rd_tmr_d = '0;
      end else if (rd_tmr_q >= cfg_rto_i) begin
        rd_tmr_d = '0;
        tmo_fire = 1'b1;
      end
      if (rr_err_i) begin
        err_d = 1'b1;
        est_d = CplLocal;
      end
    end

    // retransmission timer
    if (una_d == nxt_q || err_q) begin
      timer_d = '0;
    end else if (una_d == una_q) begin
      timer_d = timer_q + 32'd1;
      if (timer_q >= cfg_rto_i) begin
        timer_d  = '0;
        tmo_fire = 1'b1;
      end
    end
    // a timeout (of the PSNs in flight, or of a READ waiting: never both): resend every
    // PSN in flight not selectively acknowledged, or the READ request for the rest
    if (tmo_fire) begin
      ntmo_d = ntmo_q + 32'd1;
      if (tmo_q >= cfg_retry_i) begin
        err_d = 1'b1;
        est_d = CplRetry;
      end else begin
        tmo_d = tmo_q + 8'd1;
        if (rd_act_q) rd_req_d = 1'b1;
        for (int unsigned i = 0; i < Win; i++) begin
          if (8'(7'(7'(i) - una_q[6:0])) < inflight && !sacked_q[i]) begin
            pend_d[i] = 1'b1;
          end
        end
      end
    end

    // packet engine: the head's descriptor, reads and payload beats
    if (head_v && e_desc_q[hd] && tx_desc_ready) begin
      e_desc_d[hd] = 1'b0;
    end
    if (m_arvalid_o && m_arready_i) begin
      e_ar_addr_d[ar_e] = e_ar_addr_q[ar_e] + {19'd0, ar_beats, 5'd0};
      e_ar_left_d[ar_e] = e_ar_left_q[ar_e] - ar_beats;
    end
    if (r_fire) begin
      e_r_left_d[hd] = e_r_left_q[hd] - 8'd1;
    end
    if (r_err) begin
      err_d = 1'b1;
      est_d = CplLocal;
    end
    pop = head_v && !e_desc_d[hd] && e_ar_left_d[hd] == '0 && e_r_left_d[hd] == '0;

    // a new packet into the queue's tail
    if (pq_cnt_q == 2'd2 || !pick_en_i) begin
      // full, or another QP's turn
    end else if (!err_q && res_found) begin
      pick        = 1'b1;
      pick_resend = 1'b1;
      pick_psn    = una_q + 24'(res_rel);
      pick_slot   = pick_psn[6:0];
      pick_wr     = slot_wr_q[pick_slot];
      pick_off    = slot_off_q[pick_slot];
      pend_d[pick_slot] = 1'b0;
      nres_d      = nres_q + 32'd1;
    end else if (!err_q && rd_act_q && rd_req_q) begin
      // the READ request again, for the rest
      pick        = 1'b1;
      pick_resend = 1'b1;
      pick_psn    = rd_exp_q;
      pick_wr     = rd_wr_q;
      pick_off    = rd_off_q;
      rd_req_d    = 1'b0;
      rd_tmr_d    = '0;
      nres_d      = nres_q + 32'd1;
    end else if (new_ok && rd_start) begin
      // a READ: one request, its response PSNs nxt .. nxt + npk - 1
      pick      = 1'b1;
      rd_act_d  = 1'b1;
      rd_req_d  = 1'b0;
      rd_gap_d  = 1'b0;
      rd_wr_d   = sendp_q[WrW-1:0];
      rd_exp_d  = nxt_q;
      rd_end_d  = nxt_q + rd_npk;
      rd_off_d  = '0;
      rd_tmr_d  = '0;
    end else if (new_ok) begin
      pick      = 1'b1;
      slot_we   = 1'b1;
      sacked_d[pick_slot] = 1'b0;
      pend_d[pick_slot]   = 1'b0;
      nxt_d     = nxt_q + 24'd1;
    end
    if (pick && wr_read_q[pick_wr]) begin
      // READ request: RETH with the rest's VA and length, no payload
      rest     = wr_len_q[pick_wr] - pick_off;
      e_len_d[pq_wr_q]     = '0;
      e_ackreq_d[pq_wr_q]  = 1'b1;
      e_psn_d[pq_wr_q]     = pick_psn;
      e_rkey_d[pq_wr_q]    = wr_rkey_q[pick_wr];
      e_imm_d[pq_wr_q]     = '0;
      e_op_d[pq_wr_q]      = 8'h0C;
      e_va_d[pq_wr_q]      = wr_va_q[pick_wr] + 64'(pick_off);
      e_dmalen_d[pq_wr_q]  = rest;
      e_ar_left_d[pq_wr_q] = '0;
      e_r_left_d[pq_wr_q]  = '0;
      e_desc_d[pq_wr_q]    = 1'b1;
      pq_wr_d = !pq_wr_q;
      npkt_d  = npkt_q + 32'd1;
      if (!pick_resend) begin
        last_set = 1'b1;
        last_psn = nxt_q + rd_npk - 24'd1;
        sendp_d  = sendp_q + 1'b1;
        woff_d   = '0;
      end
    end else if (pick) begin
      rest     = wr_len_q[pick_wr] - pick_off;
      n_len    = rest < 32'(mtu_bytes) ? 13'(rest) : mtu_bytes;
      n_ackreq = rest <= 32'(mtu_bytes);
      e_len_d[pq_wr_q]    = n_len;
      e_ackreq_d[pq_wr_q] = n_ackreq;
      e_psn_d[pq_wr_q]    = pick_psn;
      e_rkey_d[pq_wr_q]   = wr_rkey_q[pick_wr];
      e_imm_d[pq_wr_q]    = wr_imm_q[pick_wr];
      if (cfg_selective_i) begin
        e_op_d[pq_wr_q]     = n_ackreq && wr_imm_en_q[pick_wr] ? 8'h0B : 8'h0A;
        e_va_d[pq_wr_q]     = wr_va_q[pick_wr] + 64'(pick_off);
        e_dmalen_d[pq_wr_q] = 32'(n_len);
      end else begin
        e_op_d[pq_wr_q]     = pick_off == '0 ? (n_ackreq ? 8'h0A : 8'h06) : (n_ackreq ? 8'h08 : 8'h07);
        if (n_ackreq && wr_imm_en_q[pick_wr]) e_op_d[pq_wr_q] = pick_off == '0 ? 8'h0B : 8'h09;
        e_va_d[pq_wr_q]     = wr_va_q[pick_wr];
        e_dmalen_d[pq_wr_q] = wr_len_q[pick_wr];
      end
      e_ar_addr_d[pq_wr_q] = wr_laddr_q[pick_wr] + pick_off;
      e_ar_left_d[pq_wr_q] = 8'((14'(n_len) + 14'(DataBytes - 1)) >> 5);
      e_r_left_d[pq_wr_q]  = e_ar_left_d[pq_wr_q];
      e_desc_d[pq_wr_q]    = 1'b1;
      pq_wr_d     = !pq_wr_q;
      npkt_d      = npkt_q + 32'd1;
      if (!pick_resend) begin
        if (n_ackreq) begin
          last_set = 1'b1;
          sendp_d  = sendp_q + 1'b1;
          woff_d   = '0;
        end else begin
          woff_d = woff_q + 32'(mtu_bytes);
        end
      end
    end
    if (pop) begin
      pq_rd_d = !pq_rd_q;
    end
    pq_cnt_d = pq_cnt_q + 2'(pick) - 2'(pop);

    if (cfg_stop_i && !err_q) begin
      err_d = 1'b1;
      est_d = CplFlushed;
    end

    if (cfg_start_i) begin
      head_d   = tail_q;
      sendp_d  = tail_q;
      woff_d   = '0;
      una_d    = cfg_psn_i;
      nxt_d    = cfg_psn_i;
      sacked_d = '0;
      pend_d   = '0;
      timer_d  = '0;
      tmo_d    = '0;
      err_d    = 1'b0;
      est_d    = CplOk;
      rd_act_d = 1'b0;
      rd_req_d = 1'b0;
      rd_gap_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q      <= '0;
      sendp_q     <= '0;
      tail_q      <= '0;
      woff_q      <= '0;
      sacked_q    <= '0;
      pend_q      <= '0;
      una_q       <= '0;
      nxt_q       <= '0;
      timer_q     <= '0;
      tmo_q       <= '0;
      now_q       <= '0;
      err_q       <= 1'b0;
      est_q       <= CplOk;
      npkt_q      <= '0;
      nres_q      <= '0;
      ntmo_q      <= '0;
      pq_rd_q     <= 1'b0;
      pq_wr_q     <= 1'b0;
      pq_cnt_q    <= '0;
      e_psn_q     <= '0;
      e_op_q      <= '0;
      e_ackreq_q  <= '0;
      e_va_q      <= '0;
      e_rkey_q    <= '0;
      e_dmalen_q  <= '0;
      e_len_q     <= '0;
      e_imm_q     <= '0;
      e_desc_q    <= '0;
      e_ar_addr_q <= '0;
      e_ar_left_q <= '0;
      e_r_left_q  <= '0;
      sent_q      <= '0;
      slot_wr_q   <= '0;
      slot_off_q  <= '0;
      rd_act_q    <= 1'b0;
      rd_req_q    <= 1'b0;
      rd_gap_q    <= 1'b0;
      rd_wr_q     <= '0;
      rd_exp_q    <= '0;
      rd_end_q    <= '0;
      rd_off_q    <= '0;
      rd_tmr_q    <= '0;
    end else begin
      rd_act_q    <= rd_act_d;
      rd_req_q    <= rd_req_d;
      rd_gap_q    <= rd_gap_d;
      rd_wr_q     <= rd_wr_d;
      rd_exp_q    <= rd_exp_d;
      rd_end_q    <= rd_end_d;
      rd_off_q    <= rd_off_d;
      rd_tmr_q    <= rd_tmr_d;
      head_q      <= head_d;
      sendp_q     <= sendp_d;
      tail_q      <= tail_d;
      woff_q      <= woff_d;
      sacked_q    <= sacked_d;
      pend_q      <= pend_d;
      una_q       <= una_d;
      nxt_q       <= nxt_d;
      timer_q     <= timer_d;
      tmo_q       <= tmo_d;
      now_q       <= now_q + 16'd1;
      err_q       <= err_d;
      est_q       <= est_d;
      npkt_q      <= npkt_d;
      nres_q      <= nres_d;
      ntmo_q      <= ntmo_d;
      pq_rd_q     <= pq_rd_d;
      pq_wr_q     <= pq_wr_d;
      pq_cnt_q    <= pq_cnt_d;
      e_psn_q     <= e_psn_d;
      e_op_q      <= e_op_d;
      e_ackreq_q  <= e_ackreq_d;
      e_va_q      <= e_va_d;
      e_rkey_q    <= e_rkey_d;
      e_dmalen_q  <= e_dmalen_d;
      e_len_q     <= e_len_d;
      e_imm_q     <= e_imm_d;
      e_desc_q    <= e_desc_d;
      e_ar_addr_q <= e_ar_addr_d;
      e_ar_left_q <= e_ar_left_d;
      e_r_left_q  <= e_r_left_d;
      if (pick) begin
        sent_q[pick_slot] <= now_q;
      end
      if (slot_we) begin
        slot_wr_q[pick_slot]  <= pick_wr;
        slot_off_q[pick_slot] <= pick_off;
      end
    end
  end

  // work request ring storage (no reset: written before it is read)
  always_ff @(posedge clk_i) begin
    if (wr_fire) begin
      wr_id_q[tail_q[WrW-1:0]]    <= wr_id_i;
      wr_laddr_q[tail_q[WrW-1:0]] <= wr_laddr_i;
      wr_va_q[tail_q[WrW-1:0]]    <= wr_va_i;
      wr_rkey_q[tail_q[WrW-1:0]]  <= wr_rkey_i;
      wr_len_q[tail_q[WrW-1:0]]   <= wr_len_i;
      wr_read_q[tail_q[WrW-1:0]]  <= wr_read_i;
      wr_imm_en_q[tail_q[WrW-1:0]]    <= wr_imm_en_i;
      wr_imm_q[tail_q[WrW-1:0]]       <= wr_imm_i;
      wr_cmsg_en_q[tail_q[WrW-1:0]]   <= wr_cmsg_en_i;
      wr_cmsg_addr_q[tail_q[WrW-1:0]] <= wr_cmsg_addr_i;
      wr_cmsg_data_q[tail_q[WrW-1:0]] <= wr_cmsg_data_i;
    end
    if (last_set) begin
      wr_last_q[last_idx] <= last_psn;
    end
  end

  // ---- completions
  logic [WrW-1:0] hidx;
  assign hidx = head_q[WrW-1:0];
  always_comb begin
    cpl_valid_o  = 1'b0;
    cpl_status_o = CplOk;
    if (err_q) begin
      cpl_valid_o  = head_q != tail_q;
      cpl_status_o = head_q == sendp_q || !psn_after(una_q, wr_last_q[hidx]) ? est_q : CplOk;
    end else begin
      cpl_valid_o = head_q != sendp_q && psn_after(una_q, wr_last_q[hidx]);
    end
  end
  assign cpl_id_o        = wr_id_q[hidx];
  assign cpl_cmsg_en_o   = wr_cmsg_en_q[hidx];
  assign cpl_cmsg_addr_o = wr_cmsg_addr_q[hidx];
  assign cpl_cmsg_data_o = wr_cmsg_data_q[hidx];

  // ---- framer
  logic pay_err_unused, fr_idle;
  tessera_nic_tx_frame #(.DataBytes(DataBytes)) u_frame (
    .clk_i,
    .rst_ni,
    .desc_valid_i   (head_v && e_desc_q[hd]),
    .desc_ready_o   (tx_desc_ready),
    .desc_dmac_i    (cfg_dmac_i),
    .desc_smac_i    (cfg_smac_i),
    .desc_sip_i     (cfg_sip_i),
    .desc_dip_i     (cfg_dip_i),
    .desc_tos_i     (cfg_tos_i),
    .desc_ttl_i     (cfg_ttl_i),
    .desc_ip_id_i   (16'h0000),
    .desc_sport_i   (cfg_sport_i),
    .desc_opcode_i  (e_op_q[hd]),
    .desc_se_i      (1'b0),
    .desc_migreq_i  (1'b0),
    .desc_pkey_i    (cfg_pkey_i),
    .desc_dqpn_i    (cfg_dqpn_i),
    .desc_ackreq_i  (e_ackreq_q[hd]),
    .desc_psn_i     (e_psn_q[hd]),
    .desc_va_i      (e_va_q[hd]),
    .desc_rkey_i    (e_rkey_q[hd]),
    .desc_dmalen_i  (e_dmalen_q[hd]),
    .desc_syndrome_i(8'h00),
    .desc_msn_i     (24'h0),
    .desc_imm_i     (e_imm_q[hd]),
    .desc_len_i     (e_len_q[hd]),
    .s_tvalid_i     (head_v && e_r_left_q[hd] != '0 && m_rvalid_i),
    .s_tready_o     (tx_s_tready),
    .s_tdata_i      (m_rdata_i),
    .s_tkeep_i      ('1),
    .s_tlast_i      (e_r_left_q[hd] == 8'd1),
    .m_tvalid_o,
    .m_tready_i,
    .m_tdata_o,
    .m_tkeep_o,
    .m_tlast_o,
    .pay_err_o      (pay_err_unused),
    .idle_o         (fr_idle)
  );

  logic unused;
  assign unused = ^{m_rlast_i, m_rresp_i[0], pay_err_unused};

  assign want_o         = pq_cnt_q != 2'd2 && !err_q && (res_found || new_ok || (rd_act_q && rd_req_q));
  assign busy_o         = pq_cnt_q != 2'd0;
  assign err_o          = err_q;
  assign idle_o         = pq_cnt_q == 2'd0 && una_q == nxt_q && sendp_q == tail_q && fr_idle &&
                          !(rd_act_q && !err_q);
  assign cnt_pkts_o     = npkt_q;
  assign cnt_resends_o  = nres_q;
  assign cnt_timeouts_o = ntmo_q;

endmodule
