// IEEE 754 binary32 fused multiply-add r = a * b + c with one rounding (combinational):
// round to nearest even, subnormal inputs and outputs, any NaN -> canonical quiet NaN
// 0x7FC00000, Inf * 0 and Inf - Inf -> NaN, exact zero sum +0 unless both addends are -0.
// Bit-exact with C fmaf (docs/tpc_isa.md, docs/tpc_rtl.md).
//
// The product (48 bits) and c are normalized to a 50-bit window holding the larger addend
// in bits 49:2; the smaller one is shifted right by the exponent difference with a sticky
// bit (subtraction: one more unit is subtracted and sticky kept, so the value lies
// strictly between the window integer and the next one), then rounded once by the shared
// rounder (tessera_mme_pkg::mme_fpround, the twin of numfmt nf_round). Shifts only lose
// bits more than two places below the rounding point, so the result is exact RNE.
module tessera_tpc_ffma (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] r_o
);
  localparam logic [31:0] QNan = 32'h7fc0_0000;

  logic        a_nan, b_nan, c_nan, a_inf, b_inf, c_inf, a_zero, b_zero, c_zero, ps;
  logic [23:0] ma, mb, mc;
  logic signed [11:0] ea, eb, ec;

  always_comb begin
    a_nan  = (a_i[30:23] == 8'hff) && (a_i[22:0] != 23'd0);
    b_nan  = (b_i[30:23] == 8'hff) && (b_i[22:0] != 23'd0);
    c_nan  = (c_i[30:23] == 8'hff) && (c_i[22:0] != 23'd0);
    a_inf  = (a_i[30:0] == 31'h7f80_0000);
    b_inf  = (b_i[30:0] == 31'h7f80_0000);
    c_inf  = (c_i[30:0] == 31'h7f80_0000);
    a_zero = (a_i[30:0] == 31'd0);
    b_zero = (b_i[30:0] == 31'd0);
    c_zero = (c_i[30:0] == 31'd0);
    ps     = a_i[31] ^ b_i[31];
    ma = {(a_i[30:23] != 8'd0), a_i[22:0]};
    mb = {(b_i[30:23] != 8'd0), b_i[22:0]};
    mc = {(c_i[30:23] != 8'd0), c_i[22:0]};
    // value = m * 2^e
    ea = 12'({4'd0, (a_i[30:23] == 8'd0) ? 8'd1 : a_i[30:23]}) - 12'sd150;
    eb = 12'({4'd0, (b_i[30:23] == 8'd0) ? 8'd1 : b_i[30:23]}) - 12'sd150;
    ec = 12'({4'd0, (c_i[30:23] == 8'd0) ? 8'd1 : c_i[30:23]}) - 12'sd150;
  end

  logic [47:0] pm, pn, cn, bg, sml;
  logic [5:0]  lzp, lzc, d6;
  logic signed [11:0] pe, lp, lc, lb, dd;
  logic        bs, ss, st, p_big;
  logic [49:0] bw, sw, trunc;
  logic [50:0] sum;
  logic [31:0] rnd_bits, prod_bits;

  always_comb begin
    pm = ma * mb;
    pe = ea + eb;
    lzp = 6'd47;
    for (int i = 0; i < 48; i++) if (pm[i]) lzp = 6'(47 - i);
    lzc = 6'd23;
    for (int i = 0; i < 24; i++) if (mc[i]) lzc = 6'(23 - i);
    pn = pm << lzp;
    cn = {mc, 24'd0} << lzc;
    lp = pe + 12'sd47 - 12'(lzp);
    lc = ec + 12'sd23 - 12'(lzc);
    p_big = (lp > lc) || ((lp == lc) && (pn >= cn));
    bg   = p_big ? pn : cn;
    sml = p_big ? cn : pn;
    bs    = p_big ? ps : c_i[31];
    ss    = p_big ? c_i[31] : ps;
    lb    = p_big ? lp : lc;
    dd    = p_big ? (lp - lc) : (lc - lp);
    bw = {bg, 2'b00};
    sw = {sml, 2'b00};
    d6 = (dd > 12'sd50) ? 6'd50 : dd[5:0];
    trunc = sw >> d6;
    st = ((sw & ~({50{1'b1}} << d6)) != 50'd0);
    if (bs ^ ss) sum = {1'b0, bw} - {1'b0, trunc} - {50'd0, st};
    else         sum = {1'b0, bw} + {1'b0, trunc};
    rnd_bits  = tessera_mme_pkg::mme_fpround(3'd0, 1'b0, 1'b0, 1'b0, bs,
                  tessera_mme_pkg::RndMw'(sum), 14'(lb) - 14'sd49, st);
    prod_bits = tessera_mme_pkg::mme_fpround(3'd0, 1'b0, 1'b0, 1'b0, ps,
                  tessera_mme_pkg::RndMw'(pm), 14'(pe), 1'b0);
  end

  always_comb begin
    if (a_nan || b_nan || c_nan) r_o = QNan;
    else if (a_inf || b_inf) begin
      if (a_zero || b_zero || (c_inf && c_i[31] != ps)) r_o = QNan;
      else r_o = {ps, 31'h7f80_0000};
    end
    else if (c_inf) r_o = c_i;
    else if (a_zero || b_zero) r_o = c_zero ? {ps & c_i[31], 31'd0} : c_i;
    else if (c_zero) r_o = prod_bits;
    else if (sum == 51'd0 && !st) r_o = 32'd0;
    else r_o = rnd_bits;
  end
endmodule
