// RoCE v2 transmit framer: the last stage of a NIC port's TX pipeline
// (docs/nic.md "TX framer unit"). From the header descriptor of one packet and
// its payload on an AXI4-Stream it sends the whole frame to the MAC client
// interface: Ethernet II, IPv4 (header checksum computed here, DF, no
// options), UDP (destination 4791, checksum 0), BTH, then RETH, AETH and
// ImmDt as the opcode has them (the golden model's roce_op_has_* table),
// the payload, zero pad to a multiple of 4 bytes and the ICRC, least
// significant byte first. Frames carry no FCS (the MAC adds it).
//
// Streams are packed, byte 0 of a beat in bits 7:0 is the earlier byte. The
// payload stream carries exactly desc_len_i bytes for a descriptor with a
// non-zero length, ceil(len / DataBytes) beats; the frame's length comes from
// the descriptor, so the bytes of a partial last beat beyond the length are
// dropped and tkeep is not read. pay_err_o pulses (one cycle after) on a
// payload beat whose tlast disagrees with the descriptor's length.
//
// Structure: a beat former walks the frame DataBytes bytes at a time: header
// bytes from a register loaded with the descriptor (shifted one beat at a
// time), payload bytes realigned by the header's length modulo DataBytes (the
// previous payload beat is kept for the bytes that spill over), then pad.
// Its beats go into the output register and, masked as the ICRC wants them,
// into a tessera_nic_crc32 (InitState 0xDEBB20E3); the ICRC is ready when the
// frame's last data beat sits in the output register and is merged into that
// beat, or sent as one more beat when fewer than 4 bytes are free in it.
//
// Timing: a descriptor is taken when the former is idle or in the cycle its
// previous frame's last data beat moves on, so frames follow each other back
// to back; the frame's first beat is on m_tdata_o two cycles after the
// descriptor's handshake. Inside a frame one beat per cycle;
// only an empty payload stream or m_tready low stalls it. s_tready_o and
// desc_ready_o depend combinationally on m_tready_i (one register stage).
module tessera_nic_tx_frame #(
  parameter int unsigned DataBytes = 8   // 4, 8, 16 or 32
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // header descriptor of one packet
  input  logic                   desc_valid_i,
  output logic                   desc_ready_o,
  input  logic [47:0]            desc_dmac_i,     // network order: bits 47:40 go first
  input  logic [47:0]            desc_smac_i,
  input  logic [31:0]            desc_sip_i,
  input  logic [31:0]            desc_dip_i,
  input  logic [7:0]             desc_tos_i,
  input  logic [7:0]             desc_ttl_i,
  input  logic [15:0]            desc_ip_id_i,
  input  logic [15:0]            desc_sport_i,
  input  logic [7:0]             desc_opcode_i,
  input  logic                   desc_se_i,
  input  logic                   desc_migreq_i,
  input  logic [15:0]            desc_pkey_i,
  input  logic [23:0]            desc_dqpn_i,
  input  logic                   desc_ackreq_i,
  input  logic [23:0]            desc_psn_i,
  input  logic [63:0]            desc_va_i,       // RETH
  input  logic [31:0]            desc_rkey_i,
  input  logic [31:0]            desc_dmalen_i,
  input  logic [7:0]             desc_syndrome_i, // AETH
  input  logic [23:0]            desc_msn_i,
  input  logic [31:0]            desc_imm_i,      // ImmDt
  input  logic [12:0]            desc_len_i,      // payload bytes, 0..4096
  // payload
  input  logic                   s_tvalid_i,
  output logic                   s_tready_o,
  input  logic [8*DataBytes-1:0] s_tdata_i,
  input  logic [DataBytes-1:0]   s_tkeep_i,
  input  logic                   s_tlast_i,
  // frame to the MAC
  output logic                   m_tvalid_o,
  input  logic                   m_tready_i,
  output logic [8*DataBytes-1:0] m_tdata_o,
  output logic [DataBytes-1:0]   m_tkeep_o,
  output logic                   m_tlast_o,
  output logic                   pay_err_o,
  output logic                   idle_o     // no frame taken and not yet sent
);

  localparam int unsigned BaseBytes = 54;             // Ethernet + IPv4 + UDP + BTH
  localparam int unsigned ExtBytes  = 24;             // RETH + AETH + ImmDt at most
  localparam int unsigned HdrBytes  = BaseBytes + ExtBytes;
  localparam int unsigned IpOff     = 14;
  localparam int unsigned OffW      = $clog2(DataBytes);
  localparam int unsigned CntW      = $clog2(DataBytes + 1);

  logic unused_keep;
  assign unused_keep = ^s_tkeep_i;

  if (DataBytes < 4 || DataBytes > 32 || (DataBytes & (DataBytes - 1)) != 0) begin : g_bad_width
    $error("tessera_nic_tx_frame: DataBytes must be 4, 8, 16 or 32");
  end

  // ---- header of the descriptor (byte j of the frame in bits 8*j +: 8)
  logic [8*HdrBytes-1:0] hdr_new;
  logic [6:0]            hlen_new;    // header bytes: 54 + extension headers
  logic [15:0]           dlen_new;    // frame bytes before the ICRC
  always_comb begin
    logic [1:0]            pad;
    logic [4:0]            ext_len, aeth_off, imm_off;
    logic [15:0]           tot_len, csum;
    logic [19:0]           sum;
    logic [8*BaseBytes-1:0] base;      // network order, first byte in the top bits
    logic [8*ExtBytes-1:0]  ext;
    pad      = 2'(3'd4 - {1'b0, desc_len_i[1:0]});
    aeth_off = tessera_nic_pkg::op_has_reth(desc_opcode_i) ? 5'd16 : 5'd0;
    imm_off  = aeth_off + (tessera_nic_pkg::op_has_aeth(desc_opcode_i) ? 5'd4 : 5'd0);
    ext_len  = imm_off + (tessera_nic_pkg::op_has_immdt(desc_opcode_i) ? 5'd4 : 5'd0);
    tot_len  = 16'd44 + 16'(ext_len) + 16'(desc_len_i) + 16'(pad);
    sum = 20'({8'h45, desc_tos_i}) + 20'(tot_len) + 20'(desc_ip_id_i) + 20'h04000 +
          20'({desc_ttl_i, 8'd17}) + 20'(desc_sip_i[31:16]) + 20'(desc_sip_i[15:0]) +
          20'(desc_dip_i[31:16]) + 20'(desc_dip_i[15:0]);
    sum  = 20'(sum[15:0]) + 20'(sum[19:16]);
    sum  = 20'(sum[15:0]) + 20'(sum[19:16]);
    csum = ~sum[15:0];
    base = {desc_dmac_i, desc_smac_i, 16'h0800,
            8'h45, desc_tos_i, tot_len, desc_ip_id_i, 16'h4000, desc_ttl_i, 8'd17, csum,
            desc_sip_i, desc_dip_i,
            desc_sport_i, 16'd4791, tot_len - 16'd20, 16'h0000,
            desc_opcode_i, desc_se_i, desc_migreq_i, pad, 4'h0, desc_pkey_i, 8'h00,
            desc_dqpn_i, desc_ackreq_i, 7'h00, desc_psn_i};
    ext = '0;
    if (tessera_nic_pkg::op_has_reth(desc_opcode_i)) begin
      ext[8*ExtBytes-1 -: 128] = {desc_va_i, desc_rkey_i, desc_dmalen_i};
    end
    if (tessera_nic_pkg::op_has_aeth(desc_opcode_i)) begin
      ext[8*ExtBytes-1 - 8*aeth_off -: 32] = {desc_syndrome_i, desc_msn_i};
    end
    if (tessera_nic_pkg::op_has_immdt(desc_opcode_i)) begin
      ext[8*ExtBytes-1 - 8*imm_off -: 32] = desc_imm_i;
    end
    for (int unsigned j = 0; j < BaseBytes; j++) begin
      hdr_new[8*j +: 8] = base[8*(BaseBytes-1-j) +: 8];
    end
    for (int unsigned j = 0; j < ExtBytes; j++) begin
      hdr_new[8*(BaseBytes+j) +: 8] = ext[8*(ExtBytes-1-j) +: 8];
    end
    hlen_new = 7'(BaseBytes) + 7'(ext_len);
    dlen_new = 16'(hlen_new) + 16'(desc_len_i) + 16'(pad);
  end

  // ---- beat former
  logic                   active_q, active_d;
  logic [15:0]            pos_q, pos_d;        // frame byte of the next beat's byte 0
  logic [6:0]             hlen_q, hlen_d;
  logic [15:0]            pend_q, pend_d;      // first byte after the payload
  logic [15:0]            dlen_q, dlen_d;
  logic [12:0]            pay_left_q, pay_left_d; // payload beats still to take
  logic [8*HdrBytes-1:0]  hdr_q, hdr_d;
  logic [8*DataBytes-1:0] carry_q, carry_d;    // the last payload beat taken
  logic                   perr_q, perr_d;

  logic                   need_pay, a_valid, a_fire, a_final, b_free, desc_fire;
  logic [8*DataBytes-1:0] a_data, crc_data, pay_vec;
  logic [DataBytes-1:0]   a_keep, crc_keep;
  logic [OffW-1:0]        off;

  assign off      = hlen_q[OffW-1:0];
  assign need_pay = pay_left_q != '0 && pos_q + 16'(DataBytes) > 16'(hlen_q);
  assign a_valid  = active_q && (!need_pay || s_tvalid_i);
  assign a_fire   = a_valid && b_free;
  assign a_final  = pos_q + 16'(DataBytes) >= dlen_q;
  assign s_tready_o   = active_q && need_pay && b_free;
  assign desc_ready_o = !active_q || (a_fire && a_final);
  assign desc_fire    = desc_valid_i && desc_ready_o;

  // payload bytes realigned: the spilled bytes of the previous beat, then this one's
  assign pay_vec = (8*DataBytes)'({s_tdata_i, carry_q} >> (8 * (DataBytes - 32'(off))));

  always_comb begin
    for (int unsigned i = 0; i < DataBytes; i++) begin
      logic [15:0] p;
      p = pos_q + 16'(i);
      if (p < 16'(hlen_q)) begin
        a_data[8*i +: 8] = hdr_q[8*i +: 8];
      end else if (p < pend_q) begin
        a_data[8*i +: 8] = pay_vec[8*i +: 8];
      end else begin
        a_data[8*i +: 8] = 8'h00;
      end
      a_keep[i]   = p < dlen_q;
      // the ICRC's view: from the IPv4 header on, variant fields as ones
      crc_keep[i] = a_keep[i] && p >= 16'(IpOff);
      unique case (p)
        16'(IpOff + 1), 16'(IpOff + 8), 16'(IpOff + 10), 16'(IpOff + 11),  // TOS, TTL, checksum
        16'(IpOff + 26), 16'(IpOff + 27),                                  // UDP checksum
        16'(IpOff + 32): crc_data[8*i +: 8] = 8'hFF;                       // BTH byte 4
        default:         crc_data[8*i +: 8] = a_data[8*i +: 8];
      endcase
    end
  end

  always_comb begin
    active_d   = active_q;
    pos_d      = pos_q;
    hlen_d     = hlen_q;
    pend_d     = pend_q;
    dlen_d     = dlen_q;
    pay_left_d = pay_left_q;
    hdr_d      = hdr_q;
    carry_d    = carry_q;
    perr_d     = 1'b0;
    if (a_fire) begin
      pos_d = pos_q + 16'(DataBytes);
      hdr_d = hdr_q >> (8 * DataBytes);
      if (need_pay) begin
        carry_d    = s_tdata_i;
        pay_left_d = pay_left_q - 13'd1;
        perr_d     = s_tlast_i != (pay_left_q == 13'd1);
      end
      if (a_final) begin
        active_d = 1'b0;
      end
    end
    if (desc_fire) begin
      active_d   = 1'b1;
      pos_d      = '0;
      hlen_d     = hlen_new;
      pend_d     = 16'(hlen_new) + 16'(desc_len_i);
      dlen_d     = dlen_new;
      pay_left_d = 13'((14'(desc_len_i) + 14'(DataBytes - 1)) >> OffW);
      hdr_d      = hdr_new;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      pos_q      <= '0;
      hlen_q     <= '0;
      pend_q     <= '0;
      dlen_q     <= '0;
      pay_left_q <= '0;
      hdr_q      <= '0;
      carry_q    <= '0;
      perr_q     <= 1'b0;
    end else begin
      active_q   <= active_d;
      pos_q      <= pos_d;
      hlen_q     <= hlen_d;
      pend_q     <= pend_d;
      dlen_q     <= dlen_d;
      pay_left_q <= pay_left_d;
      hdr_q      <= hdr_d;
      carry_q    <= carry_d;
      perr_q     <= perr_d;
    end
  end

  assign pay_err_o = perr_q;

  // ---- ICRC over the former's beats
  logic [31:0] icrc, crc_state_unused;
  logic        crc_valid_unused;

  tessera_nic_crc32 #(
    .DataBytes(DataBytes),
    .InitState(32'hDEBB_20E3)
  ) u_crc (
    .clk_i,
    .rst_ni,
    .beat_i     (a_fire),
    .data_i     (crc_data),
    .keep_i     (crc_keep),
    .last_i     (a_final),
    .state_o    (crc_state_unused),
    .crc_valid_o(crc_valid_unused),
    .crc_o      (icrc)
  );

  // ---- output register; the ICRC joins the frame's last data beat
  logic                   b_valid_q, b_valid_d;
  logic                   b_tail_q, b_tail_d;    // the ICRC bytes that did not fit
  logic                   b_fin_q, b_fin_d;      // the frame's last data beat
  logic [CntW-1:0]        b_cnt_q, b_cnt_d;      // data bytes in the beat
  logic [8*DataBytes-1:0] b_data_q, b_data_d;
  logic                   out_fire, next_tail;

  assign out_fire  = b_valid_q && m_tready_i;
  assign next_tail = !b_tail_q && b_fin_q && 32'(b_cnt_q) + 32'd4 > DataBytes;
  assign b_free    = !b_valid_q || (out_fire && !next_tail);

  always_comb begin
    b_valid_d = b_valid_q;
    b_tail_d  = b_tail_q;
    b_fin_d   = b_fin_q;
    b_cnt_d   = b_cnt_q;
    b_data_d  = b_data_q;
    if (out_fire) begin
      b_valid_d = next_tail;
      b_tail_d  = next_tail;
    end
    if (a_fire) begin
      b_valid_d = 1'b1;
      b_tail_d  = 1'b0;
      b_fin_d   = a_final;
      b_cnt_d   = a_final ? CntW'(dlen_q - pos_q) : CntW'(DataBytes);
      b_data_d  = a_data;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_valid_q <= 1'b0;
      b_tail_q  <= 1'b0;
      b_fin_q   <= 1'b0;
      b_cnt_q   <= '0;
      b_data_q  <= '0;
    end else begin
      b_valid_q <= b_valid_d;
      b_tail_q  <= b_tail_d;
      b_fin_q   <= b_fin_d;
      b_cnt_q   <= b_cnt_d;
      b_data_q  <= b_data_d;
    end
  end

  always_comb begin
    m_tlast_o = b_tail_q || (b_fin_q && 32'(b_cnt_q) + 32'd4 <= DataBytes);
    for (int unsigned i = 0; i < DataBytes; i++) begin
      int k;   // ICRC byte at this position
      k = b_tail_q ? int'(i) + int'(DataBytes) - int'(b_cnt_q) : int'(i) - int'(b_cnt_q);
      if (!b_tail_q && i < 32'(b_cnt_q)) begin
        m_tdata_o[8*i +: 8] = b_data_q[8*i +: 8];
        m_tkeep_o[i]        = 1'b1;
      end else if ((b_tail_q || b_fin_q) && k >= 0 && k < 4) begin
        m_tdata_o[8*i +: 8] = icrc[8*k[1:0] +: 8];
        m_tkeep_o[i]        = 1'b1;
      end else begin
        m_tdata_o[8*i +: 8] = 8'h00;
        m_tkeep_o[i]        = 1'b0;
      end
    end
  end

  assign m_tvalid_o = b_valid_q;

  assign idle_o = !active_q && !b_valid_q;

endmodule
