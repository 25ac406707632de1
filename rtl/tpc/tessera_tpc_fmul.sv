// IEEE 754 binary32 multiplier (combinational): round to nearest even, subnormal inputs
// and outputs, any NaN -> canonical quiet NaN 0x7FC00000, Inf * 0 -> NaN.
// Bit-exact with C float multiplication (docs/tpc_isa.md).
module tessera_tpc_fmul (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] r_o
);
  logic        sgn, a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  logic [23:0] ma, mb;
  logic [47:0] p, q;
  logic [5:0]  lz;
  logic signed [10:0] e, sh;
  logic        sticky;
  logic [24:0] rnd;
  logic [31:0] enc;

  assign sgn    = a_i[31] ^ b_i[31];
  assign a_nan  = (a_i[30:23] == 8'hff) && (a_i[22:0] != 23'd0);
  assign b_nan  = (b_i[30:23] == 8'hff) && (b_i[22:0] != 23'd0);
  assign a_inf  = (a_i[30:0] == 31'h7f80_0000);
  assign b_inf  = (b_i[30:0] == 31'h7f80_0000);
  assign a_zero = (a_i[30:0] == 31'd0);
  assign b_zero = (b_i[30:0] == 31'd0);
  assign ma     = {(a_i[30:23] != 8'd0), a_i[22:0]};
  assign mb     = {(b_i[30:23] != 8'd0), b_i[22:0]};
  assign p      = ma * mb;

  always_comb begin
    logic [95:0] wide;
    logic [10:0] ea, eb;
    ea = (a_i[30:23] == 8'd0) ? 11'd1 : {3'd0, a_i[30:23]};
    eb = (b_i[30:23] == 8'd0) ? 11'd1 : {3'd0, b_i[30:23]};
    wide = '0;
    lz = 6'd48;
    for (int i = 0; i <= 47; i++)
      if (p[i]) lz = 6'(47 - i);
    // biased exponent of the result with its leading one at bit 47
    e = $signed(ea + eb) - 11'sd126 - $signed({5'd0, lz});
    sh = $signed({5'd0, lz}) + e - 11'sd1;   // left shift that puts the result at exponent max(e,1)
    sticky = 1'b0;
    if (e >= 11'sd1) begin
      q = p << lz;
    end else if (sh >= 11'sd0) begin
      q = p << sh[5:0];
      e = 11'sd1;
    end else begin
      wide = {p, 48'd0} >> ((-sh > 11'sd48) ? 7'd48 : 7'(-sh));
      q = wide[95:48];
      sticky = (wide[47:0] != 48'd0) || ((-sh > 11'sd48) && (p != 48'd0));
      e = 11'sd1;
    end
    rnd = {1'b0, q[47:24]} + {24'd0, q[23] & ((q[22:0] != 23'd0) || sticky || q[24])};
    enc = (e >= 11'sd255) ? 32'h7f80_0000 : ((32'(e) - 32'd1) * 32'h0080_0000 + {7'd0, rnd});
    if (enc >= 32'h7f80_0000) enc = 32'h7f80_0000;
    r_o = {sgn, enc[30:0]};
    if (a_zero || b_zero) r_o = {sgn, 31'd0};
    if (a_inf || b_inf) r_o = (a_zero || b_zero) ? 32'h7fc0_0000 : {sgn, 31'h7f80_0000};
    if (a_nan || b_nan) r_o = 32'h7fc0_0000;
  end
endmodule
