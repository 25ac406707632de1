// Decode one element of any MME data type into sign / exponent / integer mantissa.
// Combinational. Formats: FP32, BF16, FP16, FP8 E4M3 (no Inf, NaN = S.1111.111),
// FP8 E5M2 (IEEE-like). See docs/numerics.md.
module tessera_mme_fpdec
(
  input  logic [2:0]  fmt_i,
  input  logic [31:0] bits_i,   // element in the low bits
  output tessera_mme_pkg::fpdec_t      dec_o
);
  assign dec_o = tessera_mme_pkg::mme_fpdec(fmt_i, bits_i);
endmodule
