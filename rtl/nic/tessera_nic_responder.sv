// RDMA WRITE responder of a NIC port's receive side (docs/nic.md "Responder
// RTL"). It takes the frames the MAC delivers (32 bytes per beat, packed, the
// same stream tessera_nic_rx_check taps) into a one-frame buffer, and with the
// frame's verdict from rx_check:
//   - drops bad frames, frames longer than the buffer, frames for no QP, for a
//     QP not in RTR or RTS, and opcodes other than RDMA WRITE (each counted);
//   - classifies the PSN in the QP's window (tessera_nic_rx_window): duplicates
//     are re-acknowledged, PSNs beyond the window dropped, go-back-N holes get
//     one sequence NAK;
//   - checks R_Key, bounds and the write right in the memory-region table
//     (per packet in selective mode; the whole message at its first packet and
//     every packet at its own address in go-back-N); a failure sends a NAK
//     remote access error, moves the QP to ERROR and writes nothing;
//   - writes the payload through its AXI4 master (INCR bursts of 32-byte beats,
//     aligned down with strobes, split at every 256-byte boundary: the L2 slice's
//     burst rule; the next burst's AW goes out while the current one's W beats
//     flow, so the beats of a packet follow each other without a gap), and only after
//     the last write response marks the PSN placed and emits the acknowledgement:
//     an ACK (BTH.PSN = ePSN - 1, MSN) when ePSN moved, a selective ACK
//     (syndrome 0x60, BTH.PSN = ePSN, MSN field = the packet's PSN) otherwise;
//     an AXI error response sends a NAK remote operational error instead and
//     moves the QP to ERROR;
//   - WRITE last / only with immediate (docs/nic.md "WRITE with immediate"): an
//     ImmDt whose sync-object index (bits 31:16) is NumSobs or more is answered
//     with NAK invalid request (QP to ERROR, nothing written); otherwise, once
//     ePSN has passed the packet's PSN (every PSN up to it placed, each after its
//     last write response), a message (SOB_ADD_BASE + 4 x index, ImmDt[14:0])
//     leaves on msg_* before the acknowledgement. An immediate placed out of
//     order waits in a per-QP register; a second out-of-order immediate on the
//     same QP is dropped unacknowledged (resent later by the requester);
//   - RDMA READ request (docs/nic.md "RDMA READ"): at ePSN, or before it (a
//     duplicate, executed again as the IBA asks), with R_Key, bounds and the read
//     right checked over the RETH's DMA length (else NAK remote access, QP to
//     ERROR): the bytes are read through the AXI4 master one response packet
//     (up to the QP's MTU) at a time, its ARs split at 256-byte boundaries and
//     all issued at once as a reduce WRITE's (with the same cache hints), into
//     the buffer half that held the request,
//     then sent through the acknowledgement descriptor with its payload stream
//     (READ response first / middle / last / only, PSNs from the request's, AETH
//     ACK with MSN); an AXI error sends NAK remote operational error instead of
//     that packet. At ePSN, ePSN then moves past the response PSNs and MSN + 1.
//     A READ request past ePSN on a selective QP is dropped (the requester's
//     timer resends it); on a go-back-N QP it is a hole as any packet;
//   - RDMA READ responses (0x0D..0x10) for a READ of this port's requester of the
//     QP: the one it expects next (rr_psn_i, length rr_len_i) is written to
//     rr_addr_i like a WRITE's payload (no region check: the requester's own
//     work request names the local address), then rr_done_o; one past it (a
//     response was lost) is dropped with rr_gap_o; any other is dropped;
//     no acknowledgement is sent for a response, and the window is not touched;
//   - for a packet into a reduce region (the region's reduce op, docs/nic.md
//     "Reduction on receive"): NAK invalid request if the address or length is
//     not a multiple of the element size; else the ARs of every burst of the
//     packet go out at once (the slice sees them all and refills ahead), the AWs
//     of the same bursts as above, and each R beat combined with the payload beat
//     in tessera_nic_reduce becomes the W beat (read-modify-write). The reads carry
//     the port's cache hints (rd_alloc_i: arcache[3], rd_class_i: arqos[1:0]).
// The frame buffer has two halves: one frame is received while the one before
// it is checked, written and acknowledged; the stream stalls (s_tready_o low)
// when both halves hold a frame. Frames are handled in arrival order.
// The acknowledgement leaves as a descriptor with the fields tessera_nic_tx_frame
// needs from the QP (destination QPN, MAC, IPv4 address) and the AETH.
module tessera_nic_responder #(
  parameter int unsigned NQp      = 16,
  parameter int unsigned NMr      = 16,
  parameter int unsigned BufBeats = 132,   // per half, 4 224 bytes: the longest WRITE frame (4 174) fits
  parameter logic [tessera_bus_pkg::IdBits-1:0] AxiId = '0,
  parameter int unsigned NumSobs  = 256,   // sync objects an immediate may name
  localparam int unsigned QpW = NQp > 1 ? $clog2(NQp) : 1,
  localparam int unsigned MrW = NMr > 1 ? $clog2(NMr) : 1
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // frames from the MAC
  input  logic                         s_tvalid_i,
  output logic                         s_tready_o,
  input  logic [255:0]                 s_tdata_i,
  input  logic [31:0]                  s_tkeep_i,
  input  logic                         s_tlast_i,
  // verdict of tessera_nic_rx_check on the same stream
  input  logic                         chk_done_i,
  input  logic [3:0]                   chk_status_i,
  // QP table lookup
  output logic [23:0]                  qp_lk_qpn_o,
  input  logic                         qp_lk_hit_i,
  input  logic [QpW-1:0]               qp_lk_qp_i,
  input  logic [2:0]                   qp_lk_state_i,
  input  logic                         qp_lk_selective_i,
  input  logic [23:0]                  qp_lk_dqpn_i,
  input  logic [47:0]                  qp_lk_rmac_i,
  input  logic [31:0]                  qp_lk_rip_i,
  input  logic [NQp-1:0][2:0]          qp_mtu_i,        // every QP's MTU code (READ responses)
  // READ responses for the port's requesters: the response each QP expects next
  input  logic [NQp-1:0]               rr_act_i,
  input  logic [NQp-1:0][23:0]         rr_psn_i,
  input  logic [NQp-1:0][23:0]         rr_end_i,
  input  logic [NQp-1:0][31:0]         rr_addr_i,
  input  logic [NQp-1:0][12:0]         rr_len_i,
  output logic                         rr_done_o,       // pulse: placed
  output logic                         rr_gap_o,        // pulse: a later one came
  output logic                         rr_err_o,        // pulse: its write failed
  output logic [QpW-1:0]               rr_qp_o,
  output logic                         qp_err_o,        // move qp_err_qp_o to ERROR
  output logic [QpW-1:0]               qp_err_qp_o,
  // window load when a QP enters RTR (from the QP table)
  input  logic                         win_init_i,
  input  logic [QpW-1:0]               win_init_qp_i,
  input  logic [23:0]                  win_init_epsn_i,
  // memory-region check
  output logic [31:0]                  mr_rkey_o,
  output logic [63:0]                  mr_va_o,
  output logic [31:0]                  mr_len_o,
  output logic                         mr_write_o,      // 1: check the write right, 0: the read right
  input  logic [1:0]                   mr_err_i,
  input  logic [MrW-1:0]               mr_idx_i,
  input  logic [1:0]                   mr_red_op_i,     // the region's reduce op: 0 plain WRITE
  input  logic                         mr_red_bf16_i,
  // L2 hints of the reads (register CACHE)
  input  logic                         rd_alloc_i,
  input  logic [1:0]                   rd_class_i,
  // memory
  output tessera_bus_pkg::axi_req_t    axi_req_o,
  input  tessera_bus_pkg::axi_rsp_t    axi_rsp_i,
  // acknowledgement descriptors
  output logic                         ack_valid_o,
  input  logic                         ack_ready_i,
  output logic [QpW-1:0]               ack_qp_o,
  output logic [23:0]                  ack_dqpn_o,
  output logic [47:0]                  ack_dmac_o,
  output logic [31:0]                  ack_dip_o,
  output logic [7:0]                   ack_syndrome_o,
  output logic [23:0]                  ack_psn_o,
  output logic [23:0]                  ack_msn_o,
  output logic [7:0]                   ack_opcode_o,    // ACKNOWLEDGE, or a READ response
  output logic [12:0]                  ack_len_o,       // payload bytes (READ response)
  // payload of a READ response descriptor, after its handshake (tessera_nic_tx_frame s_t*)
  output logic                         pay_tvalid_o,
  input  logic                         pay_tready_i,
  output logic [255:0]                 pay_tdata_o,
  output logic                         pay_tlast_o,
  // messages of WRITEs with immediate: a 32-bit write of data to addr (Sync Manager SOB_ADD)
  input  logic [31:0]                  sob_add_base_i,
  output logic                         msg_valid_o,
  input  logic                         msg_ready_i,
  output logic [31:0]                  msg_addr_o,
  output logic [31:0]                  msg_data_o,
  // a frame is being received, waits in the buffer or is handled
  output logic                         busy_o,
  // errors and counters
  output logic                         err_o,           // one cycle: a NAK error was sent
  output logic [7:0]                   err_code_o,      // its syndrome
  output logic [QpW-1:0]               err_qp_o,
  output logic [tessera_nic_pkg::NumCnt-1:0][31:0] cnt_o
);

  localparam int unsigned HdrBytes = 74;   // Ethernet .. BTH + RETH + ImmDt
  localparam int unsigned BufW     = $clog2(BufBeats + 1);

  typedef enum logic [4:0] {
    SIdle, SCheck, SPrep, SW, SRw, SB, SCommit, SAdv, SMsg, SAck,
    SRdNext, SRdAr, SRdR, SRdDesc, SRdPay, SRdEnd, SRdFin
  } state_e;

  state_e state_q, state_d;        // the packet in half pxh_q
  logic   rwait_q, rwait_d;        // waiting for the RX check's verdict of half rxh_q
  logic   rxh_q, rxh_d;            // half receiving
  logic   pxh_q, pxh_d;            // half processed
  logic [1:0] full_q, full_d;      // the half holds a checked frame not yet handled

  // ---- frame buffer and header
  logic [255:0]              fbuf_q [2*BufBeats];
  logic [BufW-1:0]           wbeat_q, wbeat_d;     // beats received
  logic                      long_q, long_d;
  logic [1:0][8*HdrBytes-1:0] hdr_q, hdr_d;
  logic [8*HdrBytes-1:0]     hdr;                  // of the packet processed
  assign hdr = hdr_q[pxh_q];

  function automatic logic [7:0] hb(logic [8*HdrBytes-1:0] h, int unsigned j);
    hb = h[8*j +: 8];
  endfunction

  logic [7:0]  opcode;
  logic [1:0]  padcnt;
  logic        ackreq, has_reth, has_imm;
  logic [23:0] dqpn, psn;
  logic [63:0] reth_va;
  logic [31:0] reth_rkey, reth_len;
  logic [15:0] tot_len;
  logic [12:0] pay_len;
  logic [6:0]  pay_off;
  logic [31:0] imm_dt;
  logic        imm_bad;
  logic        is_read, is_rresp, has_aeth;

  always_comb begin
    opcode    = hb(hdr, 42);
    padcnt    = hdr[8*43+4 +: 2];
    dqpn      = {hb(hdr, 47), hb(hdr, 48), hb(hdr, 49)};
    ackreq    = hdr[8*50+7];
    psn       = {hb(hdr, 51), hb(hdr, 52), hb(hdr, 53)};
    has_reth  = tessera_nic_pkg::op_has_reth(opcode);
    has_imm   = tessera_nic_pkg::op_has_immdt(opcode);
    reth_va   = '0;
    reth_rkey = '0;
    reth_len  = '0;
    if (has_reth) begin
      for (int unsigned i = 0; i < 8; i++) reth_va[8*(7-i) +: 8]   = hb(hdr, 54 + i);
      for (int unsigned i = 0; i < 4; i++) reth_rkey[8*(3-i) +: 8] = hb(hdr, 62 + i);
      for (int unsigned i = 0; i < 4; i++) reth_len[8*(3-i) +: 8]  = hb(hdr, 66 + i);
    end
    // ImmDt follows the RETH (WRITE only with immediate) or the BTH (WRITE last with immediate)
    imm_dt = '0;
    if (has_imm) begin
      for (int unsigned i = 0; i < 4; i++) begin
        imm_dt[8*(3-i) +: 8] = has_reth ? hb(hdr, 70 + i) : hb(hdr, 54 + i);
      end
    end
    imm_bad = has_imm && 32'(imm_dt[31:16]) >= NumSobs;
    is_read  = opcode == 8'h0C;
    is_rresp = opcode >= 8'h0D && opcode <= 8'h10;
    has_aeth = tessera_nic_pkg::op_has_aeth(opcode);
    tot_len = {hb(hdr, 16), hb(hdr, 17)};
    pay_off = 7'd54 + (has_reth ? 7'd16 : 7'd0) + (has_imm ? 7'd4 : 7'd0) + (has_aeth ? 7'd4 : 7'd0);
    // IPv4 + UDP + BTH + ICRC = 44 bytes; extension headers and pad on top
    pay_len = 13'(tot_len - 16'd44 - (16'(pay_off) - 16'd54) - 16'(padcnt));
  end

  // ---- per-QP go-back-N message state: next address and R_Key
  logic [NQp-1:0][63:0] va_next_q;
  logic [NQp-1:0][31:0] rkey_cur_q;

  // ---- packet being handled
  logic [QpW-1:0] qp_q;
  logic [2:0]     cls_q;
  logic [23:0]    a_dqpn_q;
  logic [47:0]    a_rmac_q;
  logic [31:0]    a_rip_q;
  logic [7:0]     a_syn_q, a_syn_d;
  logic [23:0]    a_psn_q, a_psn_d, a_msn_q, a_msn_d;

  // ---- write engine
  logic [31:0]    wr_addr_q, wr_addr_d;     // first byte of the next AW burst
  logic [12:0]    wr_left_q, wr_left_d;     // bytes not yet in an AW burst
  logic [31:0]    ar_addr_q, ar_addr_d;     // reduce: first byte of the next AR burst
  logic [12:0]    ar_left_q, ar_left_d;     // reduce: bytes not yet in an AR burst
  logic [12:0]    len_q;                    // payload bytes
  logic [7:0]     beats_q, beats_d;         // beats of the packet still to take from the buffer
                                            // (SW: W beats, SRw: R beats)
  logic [7:0]     wl_q, wl_d;               // W beats of the packet still to send
  logic [2:0]     wblk_q, wblk_d;           // address bits 7:5 of the next W beat
  logic [2:0]     rblk_q, rblk_d;           // address bits 7:5 of the next R beat (reduce)
  logic [1:0]     ab_q, ab_d;               // AW bursts accepted whose last W beat is not sent
  logic [13:0]    wpos_q, wpos_d;           // beat's first byte - start (two's complement)
  logic [4:0]     sh_q, sh_d;                   // byte shift from the buffer to the beat
  logic [BufW-1:0] rd_q, rd_d;              // buffer beat read next
  logic [255:0]   prev_q, prev_d;
  logic [7:0]     bcnt_q, bcnt_d;           // write responses outstanding
  logic           berr_q, berr_d;
  logic [1:0]     red_op_q;                 // reduce op of the packet's region, 0: plain
  logic           red_bf16_q;

  // ---- READ responder: the request being answered, the response packet in work
  logic           p_rd_q;                    // the packet handled is a READ request
  logic           p_rr_q;                    // ... a READ response for a local requester
  logic           rd_dup_q;                  // ... before ePSN: executed again, no window change
  logic [23:0]    rd_npk_q;                  // response packets of the request
  logic [12:0]    rd_mtu_q;                  // the QP's MTU in bytes
  logic [31:0]    rd_va_q, rd_va_d;          // next response packet's first byte
  logic [31:0]    rd_rem_q, rd_rem_d;        // bytes not yet in a response packet
  logic [12:0]    rd_plen_q, rd_plen_d;      // the response packet's payload bytes
  logic [BufW-1:0] rd_nrb_q, rd_nrb_d;       // R beats of the packet
  logic [BufW-1:0] rd_rcv_q, rd_rcv_d;       // R beats received into the buffer half
  logic [BufW-1:0] rd_nob_q, rd_nob_d;       // payload beats still to send
  logic           rd_first_q, rd_first_d;    // the packet is the response's first
  logic [7:0]     rd_op;
  logic [23:0]    rd_npk;
  logic [12:0]    rd_mtu, rd_plen;
  always_comb begin
    logic [32:0] up;
    rd_mtu = 13'd128 << qp_mtu_i[qp_lk_qp_i];
    up     = 33'(reth_len) + 33'(rd_mtu) - 33'd1;
    rd_npk = reth_len == '0 ? 24'd1 : 24'(up >> (4'd7 + 4'(qp_mtu_i[qp_lk_qp_i])));
    rd_plen = rd_rem_q < 32'(rd_mtu_q) ? rd_rem_q[12:0] : rd_mtu_q;
    if (rd_first_q) rd_op = rd_rem_q == '0 ? 8'h10 : 8'h0D;   // only / first
    else            rd_op = rd_rem_q == '0 ? 8'h0F : 8'h0E;   // last / middle
  end

  // ---- immediates: the packet's, one waiting per QP (placed out of order), the message
  logic                  p_imm_q;
  logic [31:0]           p_dt_q;
  logic [NQp-1:0]        iw_v_q, iw_v_d;
  logic [NQp-1:0][23:0]  iw_psn_q;
  logic [NQp-1:0][31:0]  iw_dt_q;
  logic                  iw_set;
  logic [31:0]           m_dt_q, m_dt_d;
  logic                  m_two_q, m_two_d;       // the waiting immediate follows this message
  logic                  iw_passed;
  logic [23:0]           iw_dist;

  // ---- window
  logic [2:0]  win_cls;
  logic [23:0] win_epsn, win_msn;
  logic        win_commit, win_nak_sent, win_busy;

  tessera_nic_rx_window #(.NQp(NQp)) u_win (
    .clk_i,
    .rst_ni,
    .qp_i           (state_q == SCheck ? qp_lk_qp_i : qp_q),
    .psn_i          (psn),
    .selective_i    (state_q == SCheck ? qp_lk_selective_i : 1'b0),
    .class_o        (win_cls),
    .epsn_o         (win_epsn),
    .msn_o          (win_msn),
    .commit_i       (win_commit),
    .commit_ackreq_i(ackreq),
    .commit_read_i  (p_rd_q),
    .read_npkts_i   (rd_npk_q),
    .nak_sent_i     (win_nak_sent),
    .busy_o         (win_busy),
    .init_i         (win_init_i),
    .init_qp_i      (win_init_qp_i),
    .init_epsn_i    (win_init_epsn_i)
  );

  // ---- memory-region check of the packet in SCheck
  logic        first_gbn;
  logic [63:0] chk_va;
  always_comb begin
    first_gbn = !qp_lk_selective_i && has_reth;
    if (qp_lk_selective_i || has_reth) begin
      chk_va    = reth_va;
      mr_rkey_o = reth_rkey;
    end else begin
      chk_va    = va_next_q[qp_lk_qp_i];
      mr_rkey_o = rkey_cur_q[qp_lk_qp_i];
    end
    mr_va_o = chk_va;
    // go-back-N's first packet checks the whole message (RETH DMA length)
    mr_len_o = first_gbn && reth_len > 32'(pay_len) ? reth_len : 32'(pay_len);
    // a READ checks the whole message, wherever it starts (a duplicate: the rest)
    if (is_read) mr_len_o = reth_len;
    mr_write_o = !is_read;
  end
  logic unused_mr;
  assign unused_mr = ^mr_idx_i;

  // a reduce region takes whole elements only: address, payload and (go-back-N first
  // packet) message length multiples of 4 (FP32) or 2 (BF16) bytes
  logic misaligned;
  always_comb begin
    logic [1:0] m;
    m = mr_red_bf16_i ? 2'b01 : 2'b11;
    misaligned = (chk_va[1:0] & m) != 2'b00 || (pay_len[1:0] & m) != 2'b00 ||
                 (first_gbn && (reth_len[1:0] & m) != 2'b00);
  end

  assign qp_lk_qpn_o = dqpn;

  // ---- bursts of the next AW and AR: up to the next 256-byte boundary (the L2 slice's
  // rule: a burst touches at most the 4 lines of one 256-byte block; 4 KiB boundaries are
  // among them)
  logic [8:0]  aw_to_blk, ar_to_blk;
  logic [12:0] burst_bytes, ar_bytes;
  logic [3:0]  burst_beats, ar_beats;
  always_comb begin
    aw_to_blk   = 9'd256 - 9'(wr_addr_q[7:0]);
    burst_bytes = wr_left_q < 13'(aw_to_blk) ? wr_left_q : 13'(aw_to_blk);
    burst_beats = 4'((9'(wr_addr_q[4:0]) + 9'(burst_bytes) + 9'd31) >> 5);
    ar_to_blk   = 9'd256 - 9'(ar_addr_q[7:0]);
    ar_bytes    = ar_left_q < 13'(ar_to_blk) ? ar_left_q : 13'(ar_to_blk);
    ar_beats    = 4'((9'(ar_addr_q[4:0]) + 9'(ar_bytes) + 9'd31) >> 5);
  end

  // ---- W beat from the buffer: bytes sh_q.. of {fbuf[rd], prev}
  logic [BufW-1:0] rd_idx;
  logic [255:0]    rd_data;
  logic [255:0]    wdata;
  logic [31:0]     wstrb;
  assign rd_idx  = rd_q < BufW'(BufBeats) ? rd_q : BufW'(BufBeats - 1);
  assign rd_data = fbuf_q[(pxh_q ? BufBeats : 0) + int'(rd_idx)];
  assign wdata   = 256'({rd_data, prev_q} >> {sh_q, 3'b000});
  always_comb begin
    for (int unsigned j = 0; j < 32; j++) begin
      logic [13:0] p;
      p = wpos_q + 14'(j);
      wstrb[j] = !p[13] && p < 14'(len_q);
    end
  end

  // ---- reduction: R beat (destination) with the payload beat in, the W beat out
  logic         red_in_valid, red_in_ready, red_out_valid, red_out_last;
  logic [255:0] red_out_data;
  logic [31:0]  red_out_strb;
  assign red_in_valid = state_q == SRw && beats_q != 8'd0 && axi_rsp_i.r_valid;

  tessera_nic_reduce u_red (
    .clk_i,
    .rst_ni,
    .in_valid_i (red_in_valid),
    .in_ready_o (red_in_ready),
    .op_i       (red_op_q),
    .bf16_i     (red_bf16_q),
    .dst_i      (axi_rsp_i.r.data),
    .src_i      (wdata),
    .strb_i     (axi_rsp_i.r.resp == 2'b00 ? wstrb : 32'd0),   // a beat not read is not written
    .last_i     (beats_q == 8'd1 || rblk_q == 3'd7),
    .out_valid_o(red_out_valid),
    .out_ready_i(axi_rsp_i.w_ready && ab_q != '0),
    .out_data_o (red_out_data),
    .out_strb_o (red_out_strb),
    .out_last_o (red_out_last)
  );

  // ---- AXI master. The AWs run ahead of the W beats by up to two bursts (a W beat goes
  // only when its burst's AW was accepted: ab_q); a reduce WRITE's ARs all go out at the
  // start of the packet, its W beats follow the R beats through tessera_nic_reduce.
  always_comb begin
    axi_req_o          = '0;
    axi_req_o.aw.id    = AxiId;
    axi_req_o.aw.addr  = {wr_addr_q[31:5], 5'd0};
    axi_req_o.aw.len   = {4'd0, burst_beats - 4'd1};
    axi_req_o.aw.size  = 3'd5;
    axi_req_o.aw.burst = 2'b01;
    axi_req_o.aw.cache = 4'b0011;
    axi_req_o.aw_valid = (state_q == SW || state_q == SRw) && wr_left_q != '0 && ab_q != 2'd3;
    if (state_q == SRw) begin
      axi_req_o.w.data  = red_out_data;
      axi_req_o.w.strb  = red_out_strb;
      axi_req_o.w.last  = red_out_last;
      axi_req_o.w_valid = red_out_valid && ab_q != '0;
    end else begin
      axi_req_o.w.data  = wdata;
      axi_req_o.w.strb  = wstrb;
      axi_req_o.w.last  = wl_q == 8'd1 || wblk_q == 3'd7;
      axi_req_o.w_valid = state_q == SW && ab_q != '0;
    end
    axi_req_o.b_ready  = 1'b1;
    // the destination bytes of a reduce WRITE: the same bursts as the AWs
    axi_req_o.ar.id    = AxiId;
    axi_req_o.ar.addr  = {ar_addr_q[31:5], 5'd0};
    axi_req_o.ar.len   = {4'd0, ar_beats - 4'd1};
    axi_req_o.ar.size  = 3'd5;
    axi_req_o.ar.burst = 2'b01;
    axi_req_o.ar.cache = {rd_alloc_i, 3'b011};
    axi_req_o.ar.qos   = {2'b00, rd_class_i};
    axi_req_o.ar_valid = (state_q == SRw || state_q == SRdAr) && ar_left_q != '0;
    axi_req_o.r_ready  = (state_q == SRw && beats_q != 8'd0 && red_in_ready) || rd_r_take;
  end

  // a READ response packet's R beats go into the buffer half of the request, always taken
  logic rd_r_take;
  assign rd_r_take = (state_q == SRdAr || state_q == SRdR) && rd_rcv_q != rd_nrb_q;
  logic ar_hs, aw_hs, w_hs, b_hs, r_hs;
  assign ar_hs = axi_req_o.ar_valid && axi_rsp_i.ar_ready;
  assign aw_hs = axi_req_o.aw_valid && axi_rsp_i.aw_ready;
  assign w_hs  = axi_req_o.w_valid && axi_rsp_i.w_ready;
  assign b_hs  = axi_rsp_i.b_valid;
  assign r_hs  = axi_req_o.r_ready && axi_rsp_i.r_valid;
  logic unused_rsp;
  assign unused_rsp = ^{axi_rsp_i.r.id, axi_rsp_i.r.last, axi_rsp_i.r.user, axi_rsp_i.b.id,
                        axi_rsp_i.b.user};

  // ---- counters
  logic [tessera_nic_pkg::NumCnt-1:0][31:0] cnt_q, cnt_d;
  assign cnt_o = cnt_q;

  // the waiting immediate of the packet's QP: ePSN has passed its PSN
  assign iw_dist   = win_epsn - iw_psn_q[qp_q];
  assign iw_passed = iw_v_q[qp_q] && !iw_dist[23] && iw_dist != '0;

  assign msg_valid_o = state_q == SMsg;
  assign msg_addr_o  = sob_add_base_i + {14'd0, m_dt_q[31:16], 2'b00};
  assign msg_data_o  = {17'd0, m_dt_q[14:0]};

  // ---- main state machine
  logic s_hs;
  assign s_tready_o = !rwait_q && !full_q[rxh_q];
  assign s_hs       = s_tvalid_i && s_tready_o;

  logic       err_d;
  logic [7:0] err_code_d;

  always_comb begin
    logic [6:0] sbase;
    logic       rd_go;   // a READ request to answer
    logic       rr_go;   // a READ response to place
    logic [23:0] rr_dist;
    rd_go        = 1'b0;
    rr_go        = 1'b0;
    rr_dist      = '0;
    rr_done_o    = 1'b0;
    rr_gap_o     = 1'b0;
    rr_err_o     = 1'b0;
    state_d      = state_q;
    wbeat_d      = wbeat_q;
    long_d       = long_q;
    hdr_d        = hdr_q;
    rwait_d      = rwait_q;
    rxh_d        = rxh_q;
    pxh_d        = pxh_q;
    full_d       = full_q;
    a_syn_d      = a_syn_q;
    a_psn_d      = a_psn_q;
    a_msn_d      = a_msn_q;
    wr_addr_d    = wr_addr_q;
    wr_left_d    = wr_left_q;
    ar_addr_d    = ar_addr_q;
    ar_left_d    = ar_left_q;
    beats_d      = beats_q;
    wl_d         = wl_q;
    wblk_d       = wblk_q;
    rblk_d       = rblk_q;
    ab_d         = ab_q;
    wpos_d       = wpos_q;
    rd_d         = rd_q;
    sh_d         = sh_q;
    prev_d       = prev_q;
    bcnt_d       = bcnt_q;
    berr_d       = berr_q;
    cnt_d        = cnt_q;
    iw_v_d       = iw_v_q;
    iw_set       = 1'b0;
    m_dt_d       = m_dt_q;
    m_two_d      = m_two_q;
    win_commit   = 1'b0;
    win_nak_sent = 1'b0;
    qp_err_o     = 1'b0;
    qp_err_qp_o  = qp_q;
    err_d        = 1'b0;
    err_code_d   = '0;
    sbase        = 7'd0;
    rd_va_d      = rd_va_q;
    rd_rem_d     = rd_rem_q;
    rd_plen_d    = rd_plen_q;
    rd_nrb_d     = rd_nrb_q;
    rd_rcv_d     = rd_rcv_q;
    rd_nob_d     = rd_nob_q;
    rd_first_d   = rd_first_q;

    if (b_hs) begin
      if (axi_rsp_i.b.resp != 2'b00) berr_d = 1'b1;
    end
    if (r_hs) begin
      if (axi_rsp_i.r.resp != 2'b00) berr_d = 1'b1;
    end
    bcnt_d = bcnt_q + (aw_hs ? 8'd1 : 8'd0) - (b_hs ? 8'd1 : 8'd0);
    if (r_hs && rd_r_take) rd_rcv_d = rd_rcv_q + BufW'(1);
    ab_d   = ab_q + (aw_hs ? 2'd1 : 2'd0) - (w_hs && axi_req_o.w.last ? 2'd1 : 2'd0);
    if (aw_hs) begin
      wr_addr_d = wr_addr_q + 32'(burst_bytes);
      wr_left_d = wr_left_q - burst_bytes;
    end
    if (ar_hs) begin
      ar_addr_d = ar_addr_q + 32'(ar_bytes);
      ar_left_d = ar_left_q - ar_bytes;
    end

    // ---- receive: beats into half rxh_q, then the RX check's verdict
    if (s_hs) begin
      // the header bytes of beats 0..2 (constant positions: no variable part-select)
      for (int unsigned k = 0; k < 3; k++) begin
        for (int unsigned i = 0; i < 32; i++) begin
          if (32 * k + i < HdrBytes && wbeat_q == BufW'(k) && s_tkeep_i[i]) begin
            if (rxh_q) hdr_d[1][8*(32*k+i) +: 8] = s_tdata_i[8*i +: 8];
            else       hdr_d[0][8*(32*k+i) +: 8] = s_tdata_i[8*i +: 8];
          end
        end
      end
      if (wbeat_q == BufW'(BufBeats)) long_d = 1'b1;
      else wbeat_d = wbeat_q + BufW'(1);
      if (s_tlast_i) rwait_d = 1'b1;
    end
    if (rwait_q && chk_done_i) begin
      cnt_d[tessera_nic_pkg::CntFrames] = cnt_q[tessera_nic_pkg::CntFrames] + 32'd1;
      wbeat_d = '0;
      long_d  = 1'b0;
      rwait_d = 1'b0;
      if (chk_status_i != 4'd0) begin
        cnt_d[tessera_nic_pkg::CntDropBad] = cnt_q[tessera_nic_pkg::CntDropBad] + 32'd1;
      end else if (long_q) begin
        cnt_d[tessera_nic_pkg::CntDropLong] = cnt_q[tessera_nic_pkg::CntDropLong] + 32'd1;
      end else begin
        full_d[rxh_q] = 1'b1;
        rxh_d         = !rxh_q;
      end
    end

    // ---- process the packet in half pxh_q
    unique case (state_q)
      SIdle: begin
        if (full_q[pxh_q]) state_d = SCheck;
      end
      SCheck: begin
        state_d = SIdle;
        a_psn_d = psn;
        a_msn_d = win_msn;
        if (!qp_lk_hit_i) begin
          cnt_d[tessera_nic_pkg::CntDropQp] = cnt_q[tessera_nic_pkg::CntDropQp] + 32'd1;
        end else if (qp_lk_state_i != tessera_nic_pkg::QpRtr && qp_lk_state_i != tessera_nic_pkg::QpRts) begin
          cnt_d[tessera_nic_pkg::CntDropState] = cnt_q[tessera_nic_pkg::CntDropState] + 32'd1;
        end else if (is_rresp) begin
          // a READ response: the one the QP's requester expects is placed like a WRITE
          rr_dist = psn - rr_psn_i[qp_lk_qp_i];
          if (rr_act_i[qp_lk_qp_i] && rr_dist == '0 && pay_len == rr_len_i[qp_lk_qp_i]) begin
            rr_go = 1'b1;
          end else begin
            cnt_d[tessera_nic_pkg::CntRdDrop] = cnt_q[tessera_nic_pkg::CntRdDrop] + 32'd1;
            // past it, not past the READ's end: one was lost
            if (rr_act_i[qp_lk_qp_i] && !rr_dist[23] && rr_dist != '0 &&
                rr_dist < rr_end_i[qp_lk_qp_i] - rr_psn_i[qp_lk_qp_i]) begin
              rr_gap_o = 1'b1;
            end
          end
        end else if ((opcode < 8'h06 || opcode > 8'h0B) && !is_read) begin
          cnt_d[tessera_nic_pkg::CntDropOp] = cnt_q[tessera_nic_pkg::CntDropOp] + 32'd1;
        end else if (mr_err_i != 2'd0 && (win_cls == tessera_nic_pkg::ClsInOrder ||
                     win_cls == tessera_nic_pkg::ClsOoo || (is_read && win_cls == tessera_nic_pkg::ClsDup))) begin
          // a packet to place, or a READ to execute (a duplicate too): R_Key, bounds, right
          cnt_d[tessera_nic_pkg::CntNakAccess] = cnt_q[tessera_nic_pkg::CntNakAccess] + 32'd1;
          a_syn_d     = tessera_nic_pkg::SynNakAccess;
          qp_err_o    = 1'b1;
          qp_err_qp_o = qp_lk_qp_i;
          err_d       = 1'b1;
          err_code_d  = tessera_nic_pkg::SynNakAccess;
          state_d     = SAck;
        end else begin
          unique case (win_cls)
            tessera_nic_pkg::ClsDup: begin
              if (is_read) begin
                // a duplicate READ is executed again (its response was lost)
                cnt_d[tessera_nic_pkg::CntDropDup] = cnt_q[tessera_nic_pkg::CntDropDup] + 32'd1;
                rd_go = 1'b1;
              end else begin
                cnt_d[tessera_nic_pkg::CntDropDup] = cnt_q[tessera_nic_pkg::CntDropDup] + 32'd1;
                a_syn_d = tessera_nic_pkg::SynAck;
                a_psn_d = win_epsn - 24'd1;
                state_d = SAck;
              end
            end
            tessera_nic_pkg::ClsDupSack: begin
              cnt_d[tessera_nic_pkg::CntDropDup] = cnt_q[tessera_nic_pkg::CntDropDup] + 32'd1;
              a_syn_d = tessera_nic_pkg::SynNakSeq;
              a_psn_d = win_epsn;
              a_msn_d = psn;
              state_d = SAck;
            end
            tessera_nic_pkg::ClsBeyond: begin
              cnt_d[tessera_nic_pkg::CntDropWin] = cnt_q[tessera_nic_pkg::CntDropWin] + 32'd1;
            end
            tessera_nic_pkg::ClsHoleNak: begin
              cnt_d[tessera_nic_pkg::CntDropSeq] = cnt_q[tessera_nic_pkg::CntDropSeq] + 32'd1;
              win_nak_sent = 1'b1;
              a_syn_d = tessera_nic_pkg::SynNakSeq;
              a_psn_d = win_epsn;
              state_d = SAck;
            end
            tessera_nic_pkg::ClsHole: begin
              cnt_d[tessera_nic_pkg::CntDropSeq] = cnt_q[tessera_nic_pkg::CntDropSeq] + 32'd1;
            end
            tessera_nic_pkg::ClsInOrder, tessera_nic_pkg::ClsOoo: begin
              if (is_read) begin
                if (win_cls == tessera_nic_pkg::ClsOoo) begin
                  // selective QP: a READ past ePSN waits for the requester's resend
                  cnt_d[tessera_nic_pkg::CntDropSeq] = cnt_q[tessera_nic_pkg::CntDropSeq] + 32'd1;
                end else begin
                  a_msn_d = win_msn + 24'd1;   // the READ completes with its response
                  rd_go   = 1'b1;
                end
              end else if ((mr_red_op_i != 2'd0 && misaligned) || imm_bad) begin
                cnt_d[tessera_nic_pkg::CntNakInval] = cnt_q[tessera_nic_pkg::CntNakInval] + 32'd1;
                a_syn_d     = tessera_nic_pkg::SynNakInval;
                qp_err_o    = 1'b1;
                qp_err_qp_o = qp_lk_qp_i;
                err_d       = 1'b1;
                err_code_d  = tessera_nic_pkg::SynNakInval;
                state_d     = SAck;
              end else if (has_imm && win_cls == tessera_nic_pkg::ClsOoo && iw_v_q[qp_lk_qp_i]) begin
                // one immediate waits on the QP already: drop, the requester resends it
                cnt_d[tessera_nic_pkg::CntDropImm] = cnt_q[tessera_nic_pkg::CntDropImm] + 32'd1;
              end else begin
                wr_addr_d = chk_va[31:0];
                wr_left_d = pay_len;
                ar_addr_d = chk_va[31:0];
                ar_left_d = pay_len;
                beats_d   = 8'((14'(chk_va[4:0]) + 14'(pay_len) + 14'd31) >> 5);
                wl_d      = 8'((14'(chk_va[4:0]) + 14'(pay_len) + 14'd31) >> 5);
                wblk_d    = chk_va[7:5];
                rblk_d    = chk_va[7:5];
                berr_d    = 1'b0;
                // buffer byte of the first beat's byte 0: pay_off - (addr % 32) >= 23
                sbase     = pay_off - 7'(chk_va[4:0]);
                wpos_d    = 14'd0 - 14'(chk_va[4:0]);
                rd_d      = BufW'(sbase[6:5]);
                sh_d      = sbase[4:0];
                state_d   = pay_len == '0 ? SCommit : SPrep;
              end
            end
            default: ;
          endcase
          if (rd_go) begin
            a_syn_d    = tessera_nic_pkg::SynAck;
            rd_va_d    = reth_va[31:0];
            rd_rem_d   = reth_len;
            rd_first_d = 1'b1;
            berr_d     = 1'b0;
            state_d    = SRdNext;
          end
        end
        if (rr_go) begin
          wr_addr_d = rr_addr_i[qp_lk_qp_i];
          wr_left_d = pay_len;
          beats_d   = 8'((14'(rr_addr_i[qp_lk_qp_i][4:0]) + 14'(pay_len) + 14'd31) >> 5);
          wl_d      = 8'((14'(rr_addr_i[qp_lk_qp_i][4:0]) + 14'(pay_len) + 14'd31) >> 5);
          wblk_d    = rr_addr_i[qp_lk_qp_i][7:5];
          berr_d    = 1'b0;
          sbase     = pay_off - 7'(rr_addr_i[qp_lk_qp_i][4:0]);
          wpos_d    = 14'd0 - 14'(rr_addr_i[qp_lk_qp_i][4:0]);
          rd_d      = BufW'(sbase[6:5]);
          sh_d      = sbase[4:0];
          state_d   = pay_len == '0 ? SCommit : SPrep;
        end
      end
      SPrep: begin
        prev_d  = rd_data;
        rd_d    = rd_q + BufW'(1);
        state_d = red_op_q != 2'd0 ? SRw : SW;
      end
      // read-modify-write: beats_q counts the R beats still to take, wl_q the W beats
      SRw: begin
        if (r_hs) begin
          prev_d  = rd_data;
          rd_d    = rd_q + BufW'(1);
          wpos_d  = wpos_q + 14'd32;
          beats_d = beats_q - 8'd1;
          rblk_d  = rblk_q + 3'd1;
        end
        if (w_hs) begin
          wl_d = wl_q - 8'd1;
          if (wl_q == 8'd1) state_d = SB;
        end
      end
      SW: begin
        if (w_hs) begin
          prev_d  = rd_data;
          rd_d    = rd_q + BufW'(1);
          wpos_d  = wpos_q + 14'd32;
          beats_d = beats_q - 8'd1;
          wl_d    = wl_q - 8'd1;
          wblk_d  = wblk_q + 3'd1;
          if (wl_q == 8'd1) state_d = SB;
        end
      end
      // the last write response in: commit in the same cycle (SCommit: a packet without
      // payload, or a READ response packet whose read failed)
      SB, SCommit: begin
        if ((state_q == SCommit || bcnt_q == '0) && p_rr_q) begin
          // a READ response: to its requester, no acknowledgement
          rr_done_o = !berr_q;
          rr_err_o  = berr_q;
          if (!berr_q) begin
            cnt_d[tessera_nic_pkg::CntRdPlaced] = cnt_q[tessera_nic_pkg::CntRdPlaced] + 32'd1;
          end
          state_d = SIdle;
        end else if (state_q == SCommit || bcnt_q == '0) begin
          if (berr_q) begin
            cnt_d[tessera_nic_pkg::CntNakOper] = cnt_q[tessera_nic_pkg::CntNakOper] + 32'd1;
            a_syn_d     = tessera_nic_pkg::SynNakOper;
            qp_err_o    = 1'b1;
            err_d       = 1'b1;
            err_code_d  = tessera_nic_pkg::SynNakOper;
            state_d     = SAck;
          end else begin
            win_commit = 1'b1;
            // an immediate placed past ePSN waits until ePSN passes it
            if (p_imm_q && cls_q == tessera_nic_pkg::ClsOoo) begin
              iw_v_d[qp_q] = 1'b1;
              iw_set       = 1'b1;
            end
            cnt_d[tessera_nic_pkg::CntPlaced] = cnt_q[tessera_nic_pkg::CntPlaced] + 32'd1;
            cnt_d[tessera_nic_pkg::CntBytes]  = cnt_q[tessera_nic_pkg::CntBytes] + 32'(len_q);
            state_d = SAdv;
          end
        end
      end
      SAdv: begin
        if (!win_busy) begin
          if (cls_q == tessera_nic_pkg::ClsInOrder) begin
            a_syn_d = tessera_nic_pkg::SynAck;
            a_psn_d = win_epsn - 24'd1;
            a_msn_d = win_msn;
          end else begin
            a_syn_d = tessera_nic_pkg::SynNakSeq;
            a_psn_d = win_epsn;
            a_msn_d = a_psn_q;
          end
          state_d = SAck;
          // messages before the acknowledgement: the packet's own immediate (it was at
          // ePSN), then a waiting one that ePSN has passed now
          if (p_imm_q && cls_q == tessera_nic_pkg::ClsInOrder) begin
            m_dt_d  = p_dt_q;
            m_two_d = iw_passed;
            state_d = SMsg;
          end else if (iw_passed) begin
            m_dt_d       = iw_dt_q[qp_q];
            m_two_d      = 1'b0;
            iw_v_d[qp_q] = 1'b0;
            state_d      = SMsg;
          end
        end
      end
      SMsg: begin
        if (msg_ready_i) begin
          cnt_d[tessera_nic_pkg::CntMsgs] = cnt_q[tessera_nic_pkg::CntMsgs] + 32'd1;
          if (m_two_q) begin
            m_dt_d       = iw_dt_q[qp_q];
            m_two_d      = 1'b0;
            iw_v_d[qp_q] = 1'b0;
          end else begin
            state_d = SAck;
          end
        end
      end
      // ---- READ: one response packet at a time
      SRdNext: begin
        rd_plen_d = rd_plen;
        rd_rem_d  = rd_rem_q - 32'(rd_plen);
        rd_va_d   = rd_va_q + 32'(rd_plen);
        ar_addr_d = rd_va_q;
        ar_left_d = rd_plen;
        sh_d      = rd_va_q[4:0];
        rd_nrb_d  = BufW'((14'(rd_va_q[4:0]) + 14'(rd_plen) + 14'd31) >> 5);
        rd_nob_d  = BufW'((14'(rd_plen) + 14'd31) >> 5);
        rd_rcv_d  = '0;
        rd_d      = '0;
        state_d   = rd_plen == '0 ? SRdDesc : SRdAr;
      end
      // the packet's AR bursts (256-byte blocks, as the reduce reads); R beats taken meanwhile
      SRdAr: begin
        if (ar_hs && ar_left_q == ar_bytes) state_d = SRdR;
      end
      SRdR: begin
        // every R beat in; an error response: NAK remote operational error (SCommit)
        if (rd_rcv_q == rd_nrb_q) state_d = berr_q ? SCommit : SRdDesc;
      end
      SRdDesc: begin
        prev_d = rd_data;   // buffer beat 0
        if (ack_ready_i) begin
          rd_first_d = 1'b0;
          rd_d       = BufW'(1);
          if (rd_plen_q == '0) begin
            cnt_d[tessera_nic_pkg::CntRdResp] = cnt_q[tessera_nic_pkg::CntRdResp] + 32'd1;
            state_d = SRdEnd;
          end else begin
            state_d = SRdPay;
          end
        end
      end
      SRdPay: begin
        if (pay_tready_i) begin
          prev_d   = rd_data;
          rd_d     = rd_q + BufW'(1);
          rd_nob_d = rd_nob_q - BufW'(1);
          if (rd_nob_q == BufW'(1)) begin
            cnt_d[tessera_nic_pkg::CntRdResp] = cnt_q[tessera_nic_pkg::CntRdResp] + 32'd1;
            a_psn_d = a_psn_q + 24'd1;
            state_d = rd_rem_q == '0 ? SRdEnd : SRdNext;
          end
        end
      end
      SRdEnd: begin
        cnt_d[tessera_nic_pkg::CntRdReq] = cnt_q[tessera_nic_pkg::CntRdReq] + 32'd1;
        if (rd_dup_q) begin
          state_d = SIdle;
        end else begin
          win_commit = 1'b1;
          state_d    = SRdFin;
        end
      end
      SRdFin: begin
        if (!win_busy) state_d = SIdle;
      end
      SAck: begin
        if (ack_ready_i) begin
          if (a_syn_q == tessera_nic_pkg::SynAck) cnt_d[tessera_nic_pkg::CntAcks] = cnt_q[tessera_nic_pkg::CntAcks] + 32'd1;
          else if (a_syn_q == tessera_nic_pkg::SynNakSeq && cls_q != tessera_nic_pkg::ClsHoleNak) cnt_d[tessera_nic_pkg::CntSacks] = cnt_q[tessera_nic_pkg::CntSacks] + 32'd1;
          else cnt_d[tessera_nic_pkg::CntNaks] = cnt_q[tessera_nic_pkg::CntNaks] + 32'd1;
          // the other half's frame next, without a cycle in SIdle
          state_d = full_q[!pxh_q] ? SCheck : SIdle;
        end
      end
      default: state_d = SIdle;
    endcase
    // a QP entering RTR forgets a waiting immediate
    if (win_init_i) iw_v_d[win_init_qp_i] = 1'b0;
    // the packet is done (dropped or acknowledged): its half is free
    if ((state_q != SIdle && state_d == SIdle) || (state_q == SAck && ack_ready_i)) begin
      full_d[pxh_q] = 1'b0;
      pxh_d         = !pxh_q;
    end
  end

  assign rr_qp_o        = state_q == SCheck ? qp_lk_qp_i : qp_q;
  assign ack_valid_o    = state_q == SAck || state_q == SRdDesc;
  assign ack_opcode_o   = state_q == SRdDesc ? rd_op : 8'h11;
  assign ack_len_o      = state_q == SRdDesc ? rd_plen_q : 13'd0;
  assign pay_tvalid_o   = state_q == SRdPay;
  assign pay_tdata_o    = wdata;
  assign pay_tlast_o    = rd_nob_q == BufW'(1);
  assign busy_o         = rwait_q || wbeat_q != '0 || full_q != '0 || state_q != SIdle || win_busy;
  assign ack_qp_o       = qp_q;
  assign ack_dqpn_o     = a_dqpn_q;
  assign ack_dmac_o     = a_rmac_q;
  assign ack_dip_o      = a_rip_q;
  assign ack_syndrome_o = a_syn_q;
  assign ack_psn_o      = a_psn_q;
  assign ack_msn_o      = a_msn_q;

  always_ff @(posedge clk_i) begin
    if (s_hs && wbeat_q < BufW'(BufBeats)) fbuf_q[(rxh_q ? BufBeats : 0) + int'(wbeat_q)] <= s_tdata_i;
    // a READ response's bytes into the half of its request (never the half receiving)
    if (r_hs && rd_r_take) fbuf_q[(pxh_q ? BufBeats : 0) + int'(rd_rcv_q)] <= axi_rsp_i.r.data;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= SIdle;
      rwait_q    <= 1'b0;
      rxh_q      <= 1'b0;
      pxh_q      <= 1'b0;
      full_q     <= '0;
      wbeat_q    <= '0;
      long_q     <= 1'b0;
      hdr_q      <= '0;
      qp_q       <= '0;
      cls_q      <= tessera_nic_pkg::ClsInOrder;
      a_dqpn_q   <= '0;
      a_rmac_q   <= '0;
      a_rip_q    <= '0;
      a_syn_q    <= '0;
      a_psn_q    <= '0;
      a_msn_q    <= '0;
      wr_addr_q  <= '0;
      wr_left_q  <= '0;
      ar_addr_q  <= '0;
      ar_left_q  <= '0;
      len_q      <= '0;
      beats_q    <= '0;
      wl_q       <= '0;
      wblk_q     <= '0;
      rblk_q     <= '0;
      ab_q       <= '0;
      wpos_q     <= '0;
      sh_q       <= '0;
      rd_q       <= '0;
      prev_q     <= '0;
      bcnt_q     <= '0;
      berr_q     <= 1'b0;
      red_op_q   <= '0;
      red_bf16_q <= 1'b0;
      p_imm_q    <= 1'b0;
      p_dt_q     <= '0;
      iw_v_q     <= '0;
      iw_psn_q   <= '0;
      iw_dt_q    <= '0;
      m_dt_q     <= '0;
      m_two_q    <= 1'b0;
      cnt_q      <= '0;
      va_next_q  <= '0;
      rkey_cur_q <= '0;
      err_o      <= 1'b0;
      err_code_o <= '0;
      err_qp_o   <= '0;
      p_rd_q     <= 1'b0;
      p_rr_q     <= 1'b0;
      rd_dup_q   <= 1'b0;
      rd_npk_q   <= '0;
      rd_mtu_q   <= '0;
      rd_va_q    <= '0;
      rd_rem_q   <= '0;
      rd_plen_q  <= '0;
      rd_nrb_q   <= '0;
      rd_rcv_q   <= '0;
      rd_nob_q   <= '0;
      rd_first_q <= 1'b0;
    end else begin
      rd_va_q    <= rd_va_d;
      rd_rem_q   <= rd_rem_d;
      rd_plen_q  <= rd_plen_d;
      rd_nrb_q   <= rd_nrb_d;
      rd_rcv_q   <= rd_rcv_d;
      rd_nob_q   <= rd_nob_d;
      rd_first_q <= rd_first_d;
      state_q   <= state_d;
      rwait_q   <= rwait_d;
      rxh_q     <= rxh_d;
      pxh_q     <= pxh_d;
      full_q    <= full_d;
      wbeat_q   <= wbeat_d;
      long_q    <= long_d;
      hdr_q     <= hdr_d;
      a_syn_q   <= a_syn_d;
      a_psn_q   <= a_psn_d;
      a_msn_q   <= a_msn_d;
      wr_addr_q <= wr_addr_d;
      wr_left_q <= wr_left_d;
      ar_addr_q <= ar_addr_d;
      ar_left_q <= ar_left_d;
      beats_q   <= beats_d;
      wl_q      <= wl_d;
      wblk_q    <= wblk_d;
      rblk_q    <= rblk_d;
      ab_q      <= ab_d;
      wpos_q    <= wpos_d;
      rd_q      <= rd_d;
      sh_q      <= sh_d;
      prev_q    <= prev_d;
      bcnt_q    <= bcnt_d;
      berr_q    <= berr_d;
      cnt_q     <= cnt_d;
      iw_v_q    <= iw_v_d;
      m_dt_q    <= m_dt_d;
      m_two_q   <= m_two_d;
      if (iw_set) begin
        iw_psn_q[qp_q] <= a_psn_q;
        iw_dt_q[qp_q]  <= p_dt_q;
      end
      err_o     <= err_d;
      err_code_o <= err_code_d;
      err_qp_o  <= qp_err_qp_o;
      if (state_q == SCheck) begin
        qp_q     <= qp_lk_qp_i;
        cls_q    <= win_cls;
        a_dqpn_q <= qp_lk_dqpn_i;
        a_rmac_q <= qp_lk_rmac_i;
        a_rip_q  <= qp_lk_rip_i;
        len_q    <= pay_len;
        red_op_q   <= is_rresp ? 2'd0 : mr_red_op_i;   // a READ response is a plain write
        red_bf16_q <= mr_red_bf16_i;
        p_imm_q    <= has_imm;
        p_dt_q     <= imm_dt;
        p_rd_q     <= is_read;
        p_rr_q     <= is_rresp;
        rd_dup_q   <= win_cls == tessera_nic_pkg::ClsDup;
        rd_npk_q   <= rd_npk;
        rd_mtu_q   <= rd_mtu;
        // go-back-N: the next packet of the message lands after this one
        if (qp_lk_hit_i && !qp_lk_selective_i && state_d != SIdle && state_d != SAck && !is_read &&
            !is_rresp) begin
          va_next_q[qp_lk_qp_i]  <= chk_va + 64'(pay_len);
          rkey_cur_q[qp_lk_qp_i] <= mr_rkey_o;
        end
      end
    end
  end

endmodule
