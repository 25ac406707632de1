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
  logic [31:0] acc_q, addend;
  tessera_mme_pkg::fpdec_t      c;

  assign addend = p_first_q ? init_i : acc_q;

  tessera_mme_fpdec u_dec_c (
    .fmt_i (tessera_mme_pkg::FmtFp32),
    .bits_i(addend),
    .dec_o (c)
  );

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

  logic [5:0]         lzp;
  logic [4:0]         lzcc;
  logic [47:0]        pn, cn, xm, ym;
  logic signed [13:0] pe, ce, xe, ye, dd;
  logic               xs, ys, y_zero, swap, sticky, sgn;
  logic [49:0]        mx, my, ysh, lostmask;
  logic [50:0]        s;
  logic [5:0]         dsh;
  logic               r_nan, r_inf, r_isign;
  logic [31:0]        r_bits, special_bits;
  logic               special;

  always_comb begin
    lzp  = lzc48(p_mant_q);
    lzcc = lzc24(c.mant);
    pn   = p_mant_q << lzp;
    cn   = {c.mant << lzcc, 24'd0};
    pe   = 14'(p_exp_q) - 14'(lzp);
    ce   = 14'(signed'(c.exp)) - 14'(lzcc) - 14'sd24;
    // X = operand with the larger exponent (the nonzero one if either is zero)
    if (p_zero_q) begin
      swap = 1'b1;
    end else if (c.zero) begin
      swap = 1'b0;
    end else begin
      swap = (ce > pe);
    end
    y_zero = p_zero_q || c.zero;
    xm = swap ? cn : pn;
    xe = swap ? ce : pe;
    xs = swap ? c.sign : p_sign_q;
    ym = swap ? pn : cn;
    ye = swap ? pe : ce;
    ys = swap ? p_sign_q : c.sign;
    dd = xe - ye;
    mx = {xm, 2'b00};
    dsh = '0;
    lostmask = '0;
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
    r_nan   = p_nan_q || c.nan || (p_inf_q && c.inf && (p_sign_q != c.sign));
    r_inf   = p_inf_q || c.inf;
    r_isign = p_inf_q ? p_sign_q : c.sign;
    special = r_nan || r_inf || (p_zero_q && c.zero);
    if (r_nan) begin
      special_bits = 32'h7FC0_0000;
    end else if (r_inf) begin
      special_bits = {r_isign, 31'h7F80_0000};
    end else begin
      special_bits = {p_sign_q && c.sign, 31'd0};  // 0 + 0
    end
  end

  tessera_mme_fpround #(.MW(52)) u_round (
    .fmt_i   (tessera_mme_pkg::FmtFp32),
    .sat_i   (1'b0),
    .nan_i   (1'b0),
    .inf_i   (1'b0),
    .sign_i  (sgn),
    .mant_i  ({1'b0, s}),
    .exp_i   (xe - 14'sd2),
    .sticky_i(sticky),
    .bits_o  (r_bits)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= '0;
    end else if (p_valid_q) begin
      acc_q <= special ? special_bits : r_bits;
    end
  end

  assign acc_o = acc_q;

endmodule
