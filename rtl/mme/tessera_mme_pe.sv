// MME processing element: one fused multiply-accumulate per cycle.
//   stage P: exact product of the decoded operands (24x24 mantissa multiply,
//            exponent sum plus the job's input scale exponent)
//   stage A: acc = round_fp32_rne(addend + product), one rounding, where the addend
//            is acc (or init_i on the first k-step of a tile).
// The accumulator is kept as FP32 bits. See docs/numerics.md for the rules.
module tessera_mme_pe
(
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              valid_i,   // a k-step for this PE (operands below)
  input  logic              first_i,   // first k-step of a tile (use init_i as addend)
  input  tessera_mme_pkg::fpdec_t            a_i,
  input  tessera_mme_pkg::fpdec_t            b_i,
  input  logic signed [9:0] scale_i,   // scale_a + scale_b
  input  logic [31:0]       init_i,    // FP32 addend for the first k-step (stage A timing)
  output logic [31:0]       acc_o
);
  // keep one shared model of the PE in Verilator (faster builds); no effect elsewhere
  /* verilator no_inline_module */
  // ---------------------------------------------------------------- stage P
  logic        p_valid_q, p_first_q, p_nan_q, p_inf_q, p_zero_q, p_sign_q;
  logic signed [11:0] p_exp_q;
  logic [47:0] p_mant_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_valid_q <= 1'b0;
      p_first_q <= 1'b0;
      p_nan_q   <= 1'b0;
      p_inf_q   <= 1'b0;
      p_zero_q  <= 1'b0;
      p_sign_q  <= 1'b0;
      p_exp_q   <= '0;
      p_mant_q  <= '0;
    end else begin
      p_valid_q <= valid_i;
      if (valid_i) begin
        p_first_q <= first_i;
        p_nan_q   <= a_i.nan || b_i.nan || (a_i.inf && b_i.zero) || (a_i.zero && b_i.inf);
        p_inf_q   <= a_i.inf || b_i.inf;
        p_zero_q  <= a_i.zero || b_i.zero;
        p_sign_q  <= a_i.sign ^ b_i.sign;
        p_exp_q   <= 12'(signed'(a_i.exp)) + 12'(signed'(b_i.exp)) + 12'(scale_i);
        p_mant_q  <= 48'(a_i.mant) * 48'(b_i.mant);
      end
    end
  end

  // ---------------------------------------------------------------- stage A
  // acc = round_fp32_rne(addend + product), computed inside the clocked block
  // only in cycles with a valid product (an idle PE costs nothing to simulate).

  function automatic logic [5:0] lzc48(input logic [47:0] x);
    lzc48 = 6'd48;
    for (int unsigned i = 0; i < 48; i++) begin
      if (x[i]) lzc48 = 6'(47 - i);
    end
  endfunction

  function automatic logic [4:0] lzc24(input logic [23:0] x);
    lzc24 = 5'd24;
    for (int unsigned i = 0; i < 24; i++) begin
      if (x[i]) lzc24 = 5'(23 - i);
    end
  endfunction

  function automatic logic [31:0] accumulate(input logic pnan, input logic pinf,
                                             input logic pzero, input logic psign,
                                             input logic signed [11:0] pexp,
                                             input logic [47:0] pmant,
                                             input logic [31:0] addend);
    tessera_mme_pkg::fpdec_t c;
    logic [5:0]         lzp;
    logic [4:0]         lzcc;
    logic [47:0]        pn, cn, xm, ym;
    logic signed [13:0] pe, ce, xe, ye, dd;
    logic               xs, ys, y_zero, swap, sticky, sgn;
    logic [49:0]        mx, my, ysh, lostmask;
    logic [50:0]        s;
    logic [5:0]         dsh;
    logic               r_nan, r_inf, r_isign;
    c    = tessera_mme_pkg::mme_fpdec(tessera_mme_pkg::FmtFp32, addend);
    lzp  = lzc48(pmant);
    lzcc = lzc24(c.mant);
    pn   = pmant << lzp;
    cn   = {c.mant << lzcc, 24'd0};
    pe   = 14'(pexp) - 14'(lzp);
    ce   = 14'(signed'(c.exp)) - 14'(lzcc) - 14'sd24;
    // X = operand with the larger exponent (the nonzero one if either is zero)
    if (pzero)       swap = 1'b1;
    else if (c.zero) swap = 1'b0;
    else             swap = (ce > pe);
    y_zero = pzero || c.zero;
    xm = swap ? cn : pn;
    xe = swap ? ce : pe;
    xs = swap ? c.sign : psign;
    ym = swap ? pn : cn;
    ye = swap ? pe : ce;
    ys = swap ? psign : c.sign;
    dd = xe - ye;
    mx = {xm, 2'b00};
    my = y_zero ? 50'd0 : {ym, 2'b00};
    if (dd >= 14'sd50) begin
      ysh    = '0;
      sticky = (my != '0);
    end else begin
      dsh      = 6'(dd);
      ysh      = my >> dsh;
      lostmask = ~({50{1'b1}} << dsh);
      sticky   = (my & lostmask) != '0;
    end
    if (xs == ys) begin
      s   = {1'b0, mx} + {1'b0, ysh};
      sgn = xs;
    end else if (mx >= ysh) begin
      s   = {1'b0, mx} - {1'b0, ysh} - {50'd0, sticky};
      sgn = xs;
    end else begin
      s   = {1'b0, ysh} - {1'b0, mx};
      sgn = ys;
    end
    // exact cancellation gives +0 (round to nearest even)
    if (s == '0 && !sticky) sgn = 1'b0;
    // special cases
    r_nan   = pnan || c.nan || (pinf && c.inf && (psign != c.sign));
    r_inf   = pinf || c.inf;
    r_isign = pinf ? psign : c.sign;
    if (r_nan)               accumulate = 32'h7FC0_0000;
    else if (r_inf)          accumulate = {r_isign, 31'h7F80_0000};
    else if (pzero && c.zero) accumulate = {psign && c.sign, 31'd0};  // 0 + 0
    else accumulate = tessera_mme_pkg::mme_fpround(tessera_mme_pkg::FmtFp32, 1'b0, 1'b0, 1'b0, sgn,
                                  {1'b0, s}, xe - 14'sd2, sticky);
  endfunction

  logic [31:0] acc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= '0;
    end else if (p_valid_q) begin
      acc_q <= accumulate(p_nan_q, p_inf_q, p_zero_q, p_sign_q, p_exp_q, p_mant_q,
                          p_first_q ? init_i : acc_q);
    end
  end

  assign acc_o = acc_q;

endmodule
