// CRC-32 of a packet carried on an AXI4-Stream, one beat of DataBytes bytes per
// cycle: the NIC's ICRC generator and checker (docs/nic.md "CRC-32 unit").
//
// The CRC is the one of Ethernet and zlib: reflected polynomial 0xEDB88320,
// bytes taken least-significant bit first, final inversion. Byte i of a beat
// (data_i[8*i +: 8]) follows byte i-1; bytes whose keep_i bit is 0 are skipped
// (AXI4-Stream null bytes), so a last beat may be partial with any keep
// pattern. The register starts every packet at InitState: 0xFFFFFFFF gives
// zlib's crc32 of the packet, 0xDEBB20E3 the RoCE v2 ICRC of a stream that
// starts at the IPv4 header (the state after the 8 bytes 0xFF that stand for
// the absent LRH; the masking of the variant fields is the caller's).
//
// Taps a stream: beat_i is the transfer of one beat (tvalid && tready). The
// packet's CRC appears on crc_o with crc_valid_o one cycle after its last beat,
// sent least-significant byte first on the wire. state_o is the register
// before the next beat (not inverted). The bytes of one beat go through a
// chain of byte updates: 8*DataBytes bit steps of XOR logic in one cycle.
module tessera_nic_crc32 #(
  parameter int unsigned DataBytes = 8,
  parameter logic [31:0] InitState = 32'hFFFF_FFFF
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   beat_i,
  input  logic [8*DataBytes-1:0] data_i,
  input  logic [DataBytes-1:0]   keep_i,
  input  logic                   last_i,
  output logic [31:0]            state_o,
  output logic                   crc_valid_o,
  output logic [31:0]            crc_o
);

  localparam logic [31:0] Poly = 32'hEDB8_8320;

  // one byte into the register, least-significant bit first
  function automatic logic [31:0] crc_byte(logic [31:0] crc, logic [7:0] data);
    logic [31:0] r;
    r = crc;
    for (int unsigned b = 0; b < 8; b++) begin
      r = (r[0] ^ data[b]) ? ((r >> 1) ^ Poly) : (r >> 1);
    end
    crc_byte = r;
  endfunction

  logic [31:0] state_d, state_q, next;
  logic [31:0] crc_d, crc_q;
  logic        valid_d, valid_q;

  always_comb begin
    next = state_q;
    for (int unsigned i = 0; i < DataBytes; i++) begin
      if (keep_i[i]) begin
        next = crc_byte(next, data_i[8*i +: 8]);
      end
    end
  end

  always_comb begin
    state_d = state_q;
    crc_d   = crc_q;
    valid_d = 1'b0;
    if (beat_i) begin
      if (last_i) begin
        state_d = InitState;
        crc_d   = ~next;
        valid_d = 1'b1;
      end else begin
        state_d = next;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= InitState;
      crc_q   <= '0;
      valid_q <= 1'b0;
    end else begin
      state_q <= state_d;
      crc_q   <= crc_d;
      valid_q <= valid_d;
    end
  end

  assign state_o     = state_q;
  assign crc_o       = crc_q;
  assign crc_valid_o = valid_q;

endmodule
