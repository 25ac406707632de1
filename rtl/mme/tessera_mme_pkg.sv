// MME shared types and constants. See docs/mme.md and docs/numerics.md.
package tessera_mme_pkg;

  // Data-type codes (DTYPE register fields, tests/golden/numfmt.h nf_fmt).
  localparam logic [2:0] FmtFp32 = 3'd0;
  localparam logic [2:0] FmtBf16 = 3'd1;
  localparam logic [2:0] FmtFp16 = 3'd2;
  localparam logic [2:0] FmtE4m3 = 3'd3;
  localparam logic [2:0] FmtE5m2 = 3'd4;

  // Error codes (STATUS.err).
  localparam logic [7:0] ErrNone     = 8'd0;
  localparam logic [7:0] ErrZeroDim  = 8'd1;
  localparam logic [7:0] ErrDimMax   = 8'd2;
  localparam logic [7:0] ErrType     = 8'd3;
  localparam logic [7:0] ErrAlign    = 8'd4;
  localparam logic [7:0] ErrRange    = 8'd5;
  localparam logic [7:0] ErrOverlap  = 8'd6;
  localparam logic [7:0] ErrAxi      = 8'd7;

  // A decoded operand: (-1)^sign * mant * 2^exp when neither nan, inf nor zero.
  typedef struct packed {
    logic        nan;
    logic        inf;
    logic        zero;
    logic        sign;
    logic [9:0]  exp;   // two's complement
    logic [23:0] mant;  // integer significand (hidden bit explicit, subnormals as-is)
  } fpdec_t;
  // Width of fpdec_t (Yosys has no $bits of a type; tessera_mme checks it in simulation and lint).
  localparam int unsigned FpDecW = 4 + 10 + 24;

  // ---------------------------------------------------------------- arithmetic
  // Shared by the decoders, the output rounding and the PE. Functions (rather
  // than modules) let the PE evaluate its accumulate step only in cycles with a
  // valid product, inside its clocked block: the same hardware, but an idle MME
  // then costs almost nothing to simulate.

  // Decode one element of format fmt (in the low bits of bits) into sign, NaN/Inf/
  // zero flags, an unbiased exponent and an integer significand (hidden bit
  // explicit): value = mant * 2^exp.
  function automatic fpdec_t mme_fpdec(input logic [2:0] fmt, input logic [31:0] bits);
    logic [7:0]  e;
    logic [22:0] f;
    logic        s, e_all1, f_zero, e_zero, has_inf, e4m3_nan;
    logic [9:0]  bias_mb;  // bias + mantissa bits
    fpdec_t d;
    e = 8'd0;
    f = 23'd0;
    s = 1'b0;
    e_all1 = 1'b0;
    bias_mb = 10'd0;
    has_inf = 1'b1;
    unique case (fmt)
      FmtFp32: begin
        s = bits[31]; e = bits[30:23]; f = bits[22:0];
        e_all1 = &bits[30:23]; bias_mb = 10'd150;
      end
      FmtBf16: begin
        s = bits[15]; e = bits[14:7]; f = {16'd0, bits[6:0]};
        e_all1 = &bits[14:7]; bias_mb = 10'd134;
      end
      FmtFp16: begin
        s = bits[15]; e = {3'd0, bits[14:10]}; f = {13'd0, bits[9:0]};
        e_all1 = &bits[14:10]; bias_mb = 10'd25;
      end
      FmtE4m3: begin
        s = bits[7]; e = {4'd0, bits[6:3]}; f = {20'd0, bits[2:0]};
        e_all1 = &bits[6:3]; bias_mb = 10'd10; has_inf = 1'b0;
      end
      FmtE5m2: begin
        s = bits[7]; e = {3'd0, bits[6:2]}; f = {21'd0, bits[1:0]};
        e_all1 = &bits[6:2]; bias_mb = 10'd17;
      end
      default: ;
    endcase
    f_zero   = (f == 23'd0);
    e_zero   = (e == 8'd0);
    e4m3_nan = e_all1 && (f[2:0] == 3'b111);
    d.sign = s;
    d.nan  = has_inf ? (e_all1 && !f_zero) : e4m3_nan;
    d.inf  = has_inf && e_all1 && f_zero;
    d.zero = e_zero && f_zero;
    unique case (fmt)
      FmtFp32: d.mant = {!e_zero, f};
      FmtBf16: d.mant = {16'd0, !e_zero, f[6:0]};
      FmtFp16: d.mant = {13'd0, !e_zero, f[9:0]};
      FmtE4m3: d.mant = {20'd0, !e_zero, f[2:0]};
      FmtE5m2: d.mant = {21'd0, !e_zero, f[1:0]};
      default:                  d.mant = 24'd0;
    endcase
    d.exp = (e_zero ? 10'd1 : {2'd0, e}) - bias_mb;
    mme_fpdec = d;
  endfunction

  // Round value = mant * 2^exp (+ sticky below mant) to format fmt, round to
  // nearest even; overflow gives Inf (NaN for E4M3) or, with sat on FP8, +-max.
  // mant is RndMw bits wide; narrower significands are zero-extended at the top.
  localparam int unsigned RndMw  = 52;
  localparam int unsigned RndLzW = 6;
  function automatic logic [31:0] mme_fpround(input logic [2:0] fmt, input logic sat,
                                              input logic nan, input logic inf, input logic sign,
                                              input logic [RndMw-1:0] mant,
                                              input logic signed [13:0] exp, input logic sticky);
    logic [4:0]  mbits;
    logic [7:0]  bias;
    logic [31:0] maxfin, nanenc, infenc, sbit, ovf_bits;
    logic        has_inf, is_fp8, guard, lower, up, ovf, is_zero;
    logic [RndLzW-1:0] lz, gidx;
    logic signed [15:0] e_lead, emin, qexp, sh;
    logic [RndMw-1:0]   kept_w, lowmask;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [RndMw:0]     kept2;  // top bits only matter past every format's range
    /* verilator lint_on UNUSEDSIGNAL */
    logic signed [47:0] enc;
    mbits = 5'd23; bias = 8'd127; maxfin = 32'h7F7F_FFFF; nanenc = 32'h7FC0_0000;
    infenc = 32'h7F80_0000; sbit = 32'h8000_0000; has_inf = 1'b1; is_fp8 = 1'b0;
    unique case (fmt)
      FmtFp32: ;
      FmtBf16: begin
        mbits = 5'd7; maxfin = 32'h7F7F; nanenc = 32'h7FC0; infenc = 32'h7F80; sbit = 32'h8000;
      end
      FmtFp16: begin
        mbits = 5'd10; bias = 8'd15; maxfin = 32'h7BFF; nanenc = 32'h7E00; infenc = 32'h7C00;
        sbit = 32'h8000;
      end
      FmtE4m3: begin
        mbits = 5'd3; bias = 8'd7; maxfin = 32'h7E; nanenc = 32'h7F; infenc = 32'h7F;
        sbit = 32'h80; has_inf = 1'b0; is_fp8 = 1'b1;
      end
      FmtE5m2: begin
        mbits = 5'd2; bias = 8'd15; maxfin = 32'h7B; nanenc = 32'h7E; infenc = 32'h7C;
        sbit = 32'h80; is_fp8 = 1'b1;
      end
      default: ;
    endcase
    lz = RndLzW'(RndMw);
    for (int unsigned i = 0; i < RndMw; i++) begin
      if (mant[i]) lz = RndLzW'(RndMw - 1 - i);
    end
    is_zero = (mant == '0);
    e_lead  = 16'(exp) + 16'(signed'(RndMw - 1)) - 16'(lz);
    emin    = 16'sd1 - 16'(bias);
    qexp    = ((e_lead < emin) ? emin : e_lead) - 16'(mbits);
    sh      = qexp - 16'(exp);
    guard   = 1'b0;
    lower   = sticky;
    lowmask = '0;
    gidx    = '0;
    if (sh <= 0) begin
      kept_w = mant << (-sh);
    end else if (sh > 16'(RndMw)) begin
      kept_w = '0;
      lower  = 1'b1;
    end else begin
      kept_w  = mant >> sh;
      gidx    = RndLzW'(sh - 16'sd1);
      guard   = mant[gidx];
      lowmask = ~({RndMw{1'b1}} << gidx);
      lower   = sticky || ((mant & lowmask) != '0);
    end
    up    = guard && (lower || kept_w[0]);
    kept2 = {1'b0, kept_w} + {{RndMw{1'b0}}, up};
    if (e_lead < emin) begin
      enc = 48'(kept2);
    end else if (e_lead > 16'sd400) begin
      enc = 48'h7FFF_FFFF_FFFF;  // far beyond every format
    end else begin
      enc = (48'(signed'(e_lead + 16'(bias) - 16'sd1)) << mbits) + 48'(kept2);
    end
    ovf = (enc > 48'(maxfin));
    ovf_bits = (sat && is_fp8) ? ((sign ? sbit : 32'd0) | maxfin)
             : (has_inf ? ((sign ? sbit : 32'd0) | infenc) : nanenc);
    if (nan)          mme_fpround = nanenc;
    else if (inf)     mme_fpround = ovf_bits;
    else if (is_zero) mme_fpround = sign ? sbit : 32'd0;
    else if (ovf)     mme_fpround = ovf_bits;
    else              mme_fpround = (sign ? sbit : 32'd0) | enc[31:0];
  endfunction

endpackage
