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
  // MW <= RndMw: the significand is zero-extended at the top (same value)
  assign bits_o = tessera_mme_pkg::mme_fpround(fmt_i, sat_i, nan_i, inf_i, sign_i, tessera_mme_pkg::RndMw'(mant_i), exp_i, sticky_i);
endmodule
