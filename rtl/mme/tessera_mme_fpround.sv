// Round (-1)^sign * (mant + sticky*eps) * 2^exp to one of the MME data types,
// round to nearest even, with subnormals, overflow (Inf, or NaN for E4M3, or +-max
// when sat_i and the format is FP8) and canonical NaN. Combinational.
// Mirrors nf_round() / nf_encode() in tests/golden/numfmt.c (docs/numerics.md).
module tessera_mme_fpround
#(
  parameter int unsigned MW = 52   // mantissa input width
) (
  input  logic             [2:0]    fmt_i,
  input  logic                      sat_i,
  input  logic                      nan_i,
  input  logic                      inf_i,
  input  logic                      sign_i,
  input  logic             [MW-1:0] mant_i,
  input  logic signed      [13:0]   exp_i,
  input  logic                      sticky_i,
  output logic             [31:0]   bits_o
);
  localparam int unsigned LzW = $clog2(MW + 1);

  function automatic logic [LzW-1:0] lzc(input logic [MW-1:0] x);
    lzc = LzW'(MW);
    for (int unsigned i = 0; i < MW; i++) begin
      if (x[i]) lzc = LzW'(MW - 1 - i);
    end
  endfunction

  logic [4:0]  mbits;
  logic [7:0]  bias;
  logic [31:0] maxfin, nanenc, infenc, sbit;
  logic        has_inf, is_fp8;

  always_comb begin
    mbits = 5'd23; bias = 8'd127; maxfin = 32'h7F7F_FFFF; nanenc = 32'h7FC0_0000;
    infenc = 32'h7F80_0000; sbit = 32'h8000_0000; has_inf = 1'b1; is_fp8 = 1'b0;
    unique case (fmt_i)
      tessera_mme_pkg::FmtFp32: ;
      tessera_mme_pkg::FmtBf16: begin
        mbits = 5'd7; maxfin = 32'h7F7F; nanenc = 32'h7FC0; infenc = 32'h7F80; sbit = 32'h8000;
      end
      tessera_mme_pkg::FmtFp16: begin
        mbits = 5'd10; bias = 8'd15; maxfin = 32'h7BFF; nanenc = 32'h7E00; infenc = 32'h7C00;
        sbit = 32'h8000;
      end
      tessera_mme_pkg::FmtE4m3: begin
        mbits = 5'd3; bias = 8'd7; maxfin = 32'h7E; nanenc = 32'h7F; infenc = 32'h7F;
        sbit = 32'h80; has_inf = 1'b0; is_fp8 = 1'b1;
      end
      tessera_mme_pkg::FmtE5m2: begin
        mbits = 5'd2; bias = 8'd15; maxfin = 32'h7B; nanenc = 32'h7E; infenc = 32'h7C;
        sbit = 32'h80; is_fp8 = 1'b1;
      end
      default: ;
    endcase
  end

  logic [LzW-1:0]     lz;
  logic signed [15:0] e_lead, emin, qexp, sh;
  logic [MW-1:0]      kept_w, lowmask;
  // kept2 < 2^(mbits+2) <= 2^25 by construction; the upper bits are always zero
  /* verilator lint_off UNUSEDSIGNAL */
  logic [MW:0]        kept2;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [LzW-1:0]     gidx;
  logic               guard, lower, up;
  logic signed [47:0] enc;
  logic               ovf, is_zero;
  logic [31:0]        ovf_bits;

  always_comb begin
    lz      = lzc(mant_i);
    is_zero = (mant_i == '0);
    // exponent of the leading one
    e_lead  = 16'(exp_i) + 16'(signed'(MW - 1)) - 16'(lz);
    emin    = 16'sd1 - 16'(bias);
    qexp    = ((e_lead < emin) ? emin : e_lead) - 16'(mbits);
    sh      = qexp - 16'(exp_i);
    guard   = 1'b0;
    lower   = sticky_i;
    lowmask = '0;
    gidx    = '0;
    if (sh <= 0) begin
      kept_w = mant_i << (-sh);
    end else if (sh > 16'(MW)) begin
      kept_w = '0;
      lower  = 1'b1;  // mant_i != 0 here (or only sticky)
    end else begin
      kept_w  = mant_i >> sh;
      gidx    = LzW'(sh - 16'sd1);
      guard   = mant_i[gidx];
      lowmask = ~({MW{1'b1}} << gidx);
      lower   = sticky_i || ((mant_i & lowmask) != '0);
    end
    up    = guard && (lower || kept_w[0]);
    kept2 = {1'b0, kept_w} + {{MW{1'b0}}, up};
    if (e_lead < emin) begin
      enc = 48'(kept2);
    end else if (e_lead > 16'sd400) begin
      enc = 48'h7FFF_FFFF_FFFF;  // far beyond every format
    end else begin
      enc = (48'(signed'(e_lead + 16'(bias) - 16'sd1)) << mbits) + 48'(kept2);
    end
    ovf = (enc > 48'(maxfin));

    ovf_bits = (sat_i && is_fp8) ? ((sign_i ? sbit : 32'd0) | maxfin)
             : (has_inf ? ((sign_i ? sbit : 32'd0) | infenc) : nanenc);
    if (nan_i) begin
      bits_o = nanenc;
    end else if (inf_i) begin
      bits_o = ovf_bits;
    end else if (is_zero) begin
      bits_o = sign_i ? sbit : 32'd0;
    end else if (ovf) begin
      bits_o = ovf_bits;
    end else begin
      bits_o = (sign_i ? sbit : 32'd0) | enc[31:0];
    end
  end

endmodule
