// RoCE v2 receive check: the first stage of a NIC port's RX pipeline
// (docs/nic.md "RX check unit"). It taps the frames a MAC delivers on an
// AXI4-Stream (packed: keep bits contiguous from byte 0, frames without FCS,
// byte 0 of a beat in bits 7:0 is the earlier byte) and, one cycle after a
// frame's last beat, reports whether the frame is a well-formed RoCE v2
// packet Tessera speaks, with the same verdict and the same order of checks
// as the golden model's roce_parse (tests/nic/roce_model.c):
//   length, EtherType, IPv4 version/IHL/protocol/fragment, IPv4 total length,
//   IPv4 header checksum, UDP port and length, TVer and opcode, the opcode's
//   headers and pad against the length, ICRC.
// The ICRC is checked with tessera_nic_crc32 started at the state after the
// 8 x 0xFF LRH prefix, fed from the IPv4 header to the end of the IPv4
// datagram with the variant fields forced to ones, ICRC included: a good frame
// leaves the CRC-32 residue 0x2144DF1C, so no byte has to be held back.
// The fields a later stage needs (opcode, destination QP, PSN) come with it.
module tessera_nic_rx_check #(
  parameter int unsigned DataBytes = 8   // 1..32: the IPv4 length is known before the datagram can end
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   beat_i,    // tvalid && tready
  input  logic [8*DataBytes-1:0] data_i,
  input  logic [DataBytes-1:0]   keep_i,
  input  logic                   last_i,
  output logic                   done_o,    // one cycle after a frame's last beat
  output logic [3:0]             status_o,  // tessera_nic_rx_check status, valid with done_o
  output logic [15:0]            len_o,     // frame length in bytes
  output logic [7:0]             opcode_o,
  output logic [23:0]            dqpn_o,
  output logic [23:0]            psn_o
);

  // verdicts, numbered as the golden model's ROCE_OK / ROCE_E_* codes
  localparam logic [3:0] StOk       = 4'd0;
  localparam logic [3:0] StTrunc    = 4'd1;
  localparam logic [3:0] StEthType  = 4'd2;
  localparam logic [3:0] StIpHdr    = 4'd3;
  localparam logic [3:0] StIpCsum   = 4'd4;
  localparam logic [3:0] StUdp      = 4'd5;
  localparam logic [3:0] StOpcode   = 4'd6;
  localparam logic [3:0] StLen      = 4'd7;
  localparam logic [3:0] StIcrc     = 4'd8;

  localparam int unsigned HdrBytes  = 54;            // Ethernet + IPv4 + UDP + BTH
  localparam int unsigned IpOff     = 14;
  localparam logic [31:0] Residue   = 32'h2144_DF1C; // crc32(m, ICRC of m) for every m

  // ---- byte positions and the header bytes
  logic [15:0]            pos_q, pos_d;    // bytes of the frame before this beat
  logic [8*HdrBytes-1:0]  hdr_q, hdr_d;    // frame bytes 0..53, byte j in bits 8*j +: 8
  logic [15:0]            len_q, len_d;
  logic [8*DataBytes-1:0] crc_data;
  logic [DataBytes-1:0]   crc_keep;
  logic [15:0]            ip_end;          // first byte after the IPv4 datagram

  function automatic logic [7:0] hbyte(logic [8*HdrBytes-1:0] h, int unsigned j);
    hbyte = h[8*j +: 8];
  endfunction

  function automatic logic [15:0] h16(logic [8*HdrBytes-1:0] h, int unsigned j);
    h16 = {h[8*j +: 8], h[8*(j+1) +: 8]};
  endfunction

  assign ip_end = 16'(IpOff) + h16(hdr_q, IpOff + 2);

  always_comb begin
    hdr_d    = hdr_q;
    pos_d    = pos_q;
    len_d    = len_q;
    crc_data = data_i;
    crc_keep = '0;
    for (int unsigned i = 0; i < DataBytes; i++) begin
      logic [15:0] p;
      p = pos_q + 16'(i);
      if (beat_i && keep_i[i] && p < 16'(HdrBytes)) begin
        hdr_d[8*p[5:0] +: 8] = data_i[8*i +: 8];
      end
      // ICRC stream: from the IPv4 header to the datagram's end (its length is
      // captured by byte 18, before any datagram can end), variant fields as ones
      crc_keep[i] = keep_i[i] && p >= 16'(IpOff) && (pos_q < 16'(IpOff + 4) || p < ip_end);
      unique case (p)
        16'(IpOff + 1), 16'(IpOff + 8), 16'(IpOff + 10), 16'(IpOff + 11),  // TOS, TTL, checksum
        16'(IpOff + 26), 16'(IpOff + 27),                                  // UDP checksum
        16'(IpOff + 32): crc_data[8*i +: 8] = 8'hFF;                       // BTH byte 4
        default: ;
      endcase
      if (beat_i && keep_i[i]) begin
        pos_d = p + 16'd1;
      end
    end
    if (beat_i && last_i) begin
      len_d = pos_d;
      pos_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q <= '0;
      hdr_q <= '0;
      len_q <= '0;
    end else begin
      pos_q <= pos_d;
      hdr_q <= hdr_d;
      len_q <= len_d;
    end
  end

  logic        crc_valid;
  logic [31:0] crc, crc_state_unused;

  tessera_nic_crc32 #(
    .DataBytes(DataBytes),
    .InitState(32'hDEBB_20E3)
  ) u_crc (
    .clk_i,
    .rst_ni,
    .beat_i,
    .data_i     (crc_data),
    .keep_i     (crc_keep),
    .last_i,
    .state_o    (crc_state_unused),
    .crc_valid_o(crc_valid),
    .crc_o      (crc)
  );

  // ---- verdict of the frame whose last beat was the previous cycle's
  logic [7:0]  opcode;
  logic [1:0]  se_m_unused;        // solicited event, MigReq: not checked here
  logic [3:0]  tver;
  logic [15:0] tot_len, csum_calc;
  logic [16:0] body_end, ext_end;   // 17 bits: no wrap on short datagrams
  logic [16:0] body;
  logic [1:0]  padcnt;
  logic [3:0]  status;

  always_comb begin
    logic [19:0] sum;
    opcode  = hbyte(hdr_q, 42);
    {se_m_unused, padcnt, tver} = hbyte(hdr_q, 43);
    tot_len = h16(hdr_q, IpOff + 2);
    sum = '0;
    for (int unsigned w = 0; w < 10; w++) begin
      if (w != 5) sum = sum + 20'(h16(hdr_q, IpOff + 2 * w));   // word 5 is the checksum
    end
    sum       = 20'(sum[15:0]) + 20'(sum[19:16]);
    sum       = 20'(sum[15:0]) + 20'(sum[19:16]);
    csum_calc = ~sum[15:0];
    ext_end   = 17'(HdrBytes) +
                (tessera_nic_pkg::op_has_reth(opcode)  ? 17'd16 : 17'd0) +
                (tessera_nic_pkg::op_has_aeth(opcode)  ? 17'd4  : 17'd0) +
                (tessera_nic_pkg::op_has_immdt(opcode) ? 17'd4  : 17'd0);
    body_end  = 17'(IpOff) + 17'(tot_len) - 17'd4;                // first ICRC byte
    body      = body_end - ext_end;

    if (len_q < 16'(HdrBytes + 4)) begin
      status = StTrunc;
    end else if (h16(hdr_q, 12) != 16'h0800) begin
      status = StEthType;
    end else if (hbyte(hdr_q, IpOff) != 8'h45 || hbyte(hdr_q, IpOff + 9) != 8'd17 ||
                 (h16(hdr_q, IpOff + 6) & 16'hBFFF) != 16'h0) begin
      status = StIpHdr;
    end else if (17'(IpOff) + 17'(tot_len) > 17'(len_q)) begin
      status = StTrunc;
    end else if (tot_len < 16'd44) begin
      status = StLen;
    end else if (h16(hdr_q, IpOff + 10) != csum_calc) begin
      status = StIpCsum;
    end else if (h16(hdr_q, 36) != 16'd4791 || h16(hdr_q, 38) != tot_len - 16'd20) begin
      status = StUdp;
    end else if (tver != 4'h0 || opcode > 8'h11) begin
      status = StOpcode;
    end else if (ext_end > body_end) begin
      status = StLen;
    end else if (!tessera_nic_pkg::op_has_payload(opcode) ? (body != '0 || padcnt != 2'd0)
                                                          : (body[1:0] != 2'd0 || 17'(padcnt) > body)) begin
      status = StLen;
    end else if (crc != Residue) begin
      status = StIcrc;
    end else begin
      status = StOk;
    end
  end

  assign done_o   = crc_valid;
  assign status_o = status;
  assign len_o    = len_q;
  assign opcode_o = opcode;
  assign dqpn_o   = {hbyte(hdr_q, 47), hbyte(hdr_q, 48), hbyte(hdr_q, 49)};
  assign psn_o    = {hbyte(hdr_q, 51), hbyte(hdr_q, 52), hbyte(hdr_q, 53)};

endmodule
