// IEEE 754 binary32 adder (combinational): round to nearest even, subnormal inputs and
// outputs, any NaN -> canonical quiet NaN 0x7FC00000, Inf - Inf -> NaN, exact zero sum
// is +0 unless both operands are -0. Bit-exact with C float addition (docs/tpc_isa.md).
module tessera_tpc_fadd (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] r_o
);
  logic        a_nan, b_nan, a_inf, b_inf, swap, sub;
  logic [31:0] x, y;             // |x| >= |y|
  logic [7:0]  ex, ey, dexp;
  logic [23:0] mx, my;
  logic [26:0] ax, ay;           // mantissa with guard, round, sticky
  logic [27:0] sum;
  logic [4:0]  lz;
  logic [8:0]  e_res;
  logic [26:0] nrm;
  logic [24:0] rnd;
  logic [31:0] enc;
  logic        sticky;

  assign a_nan = (a_i[30:23] == 8'hff) && (a_i[22:0] != 23'd0);
  assign b_nan = (b_i[30:23] == 8'hff) && (b_i[22:0] != 23'd0);
  assign a_inf = (a_i[30:0] == 31'h7f80_0000);
  assign b_inf = (b_i[30:0] == 31'h7f80_0000);
  assign swap  = (b_i[30:0] > a_i[30:0]);
  assign x     = swap ? b_i : a_i;
  assign y     = swap ? a_i : b_i;
  assign sub   = x[31] ^ y[31];
  assign ex    = (x[30:23] == 8'd0) ? 8'd1 : x[30:23];
  assign ey    = (y[30:23] == 8'd0) ? 8'd1 : y[30:23];
  assign mx    = {(x[30:23] != 8'd0), x[22:0]};
  assign my    = {(y[30:23] != 8'd0), y[22:0]};
  assign dexp  = ex - ey;

  always_comb begin
    logic [53:0] wide;
    ax = {mx, 3'b000};
    wide = {my, 3'b000, 27'd0} >> dexp[4:0];
    sticky = (wide[26:0] != 27'd0);
    ay = wide[53:27] | {26'd0, sticky};
    if (dexp >= 8'd27) ay = {26'd0, my != 24'd0};   // everything shifted out: sticky only
    sum = sub ? ({1'b0, ax} - {1'b0, ay}) : ({1'b0, ax} + {1'b0, ay});
    // leading zeros of sum[26:0]
    lz = 5'd27;
    for (int i = 0; i <= 26; i++)
      if (sum[i]) lz = 5'(26 - i);
    if (sum[27]) begin
      nrm = sum[27:1] | {26'd0, sum[0]};
      e_res = {1'b0, ex} + 9'd1;
    end else if ({4'd0, lz} < {1'b0, ex} - 9'd1) begin
      nrm = sum[26:0] << lz;
      e_res = {1'b0, ex} - {4'd0, lz};
    end else begin
      nrm = sum[26:0] << (ex - 8'd1);
      e_res = 9'd1;
    end
    // round to nearest even on guard / (round | sticky) / lsb
    rnd = {1'b0, nrm[26:3]} + {24'd0, nrm[2] & (nrm[1] | nrm[0] | nrm[3])};
    // (e_res - 1) * 2^23 + mantissa: carries into the exponent and encodes subnormals
    enc = ({23'd0, e_res} - 32'd1) * 32'h0080_0000 + {7'd0, rnd};
    if (enc >= 32'h7f80_0000) enc = 32'h7f80_0000;
    r_o = {x[31], enc[30:0]};
    if (sum == 28'd0) r_o = {a_i[31] & b_i[31], 31'd0};
    if (a_inf || b_inf) r_o = (a_inf && b_inf && (a_i[31] != b_i[31])) ? 32'h7fc0_0000 : x;
    if (a_nan || b_nan) r_o = 32'h7fc0_0000;
  end
endmodule
