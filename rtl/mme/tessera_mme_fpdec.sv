// Decode one element of any MME data type into sign / exponent / integer mantissa.
// Combinational. Formats: FP32, BF16, FP16, FP8 E4M3 (no Inf, NaN = S.1111.111),
// FP8 E5M2 (IEEE-like). See docs/numerics.md.
module tessera_mme_fpdec
(
  input  logic [2:0]  fmt_i,
  input  logic [31:0] bits_i,   // element in the low bits
  output tessera_mme_pkg::fpdec_t      dec_o
);
  logic [7:0]  e;        // exponent field
  logic [22:0] f;        // fraction field, MSB-aligned to bit mbits-1
  logic        s;
  logic        e_all1, f_zero, e_zero;
  logic [9:0]  bias_mb;  // bias + mbits
  logic        has_inf;
  logic        e4m3_nan;

  always_comb begin
    e = 8'd0;
    f = 23'd0;
    s = 1'b0;
    e_all1 = 1'b0;
    bias_mb = 10'd0;
    has_inf = 1'b1;
    unique case (fmt_i)
      tessera_mme_pkg::FmtFp32: begin
        s = bits_i[31]; e = bits_i[30:23]; f = bits_i[22:0];
        e_all1 = &bits_i[30:23]; bias_mb = 10'd150;
      end
      tessera_mme_pkg::FmtBf16: begin
        s = bits_i[15]; e = bits_i[14:7]; f = {16'd0, bits_i[6:0]};
        e_all1 = &bits_i[14:7]; bias_mb = 10'd134;
      end
      tessera_mme_pkg::FmtFp16: begin
        s = bits_i[15]; e = {3'd0, bits_i[14:10]}; f = {13'd0, bits_i[9:0]};
        e_all1 = &bits_i[14:10]; bias_mb = 10'd25;
      end
      tessera_mme_pkg::FmtE4m3: begin
        s = bits_i[7]; e = {4'd0, bits_i[6:3]}; f = {20'd0, bits_i[2:0]};
        e_all1 = &bits_i[6:3]; bias_mb = 10'd10; has_inf = 1'b0;
      end
      tessera_mme_pkg::FmtE5m2: begin
        s = bits_i[7]; e = {3'd0, bits_i[6:2]}; f = {21'd0, bits_i[1:0]};
        e_all1 = &bits_i[6:2]; bias_mb = 10'd17;
      end
      default: ;
    endcase
    f_zero = (f == 23'd0);
    e_zero = (e == 8'd0);
    e4m3_nan = e_all1 && (f[2:0] == 3'b111);

    dec_o.sign = s;
    dec_o.nan  = has_inf ? (e_all1 && !f_zero) : e4m3_nan;
    dec_o.inf  = has_inf && e_all1 && f_zero;
    dec_o.zero = e_zero && f_zero;
    // hidden bit: bit mbits of the mantissa
    unique case (fmt_i)
      tessera_mme_pkg::FmtFp32: dec_o.mant = {!e_zero, f};
      tessera_mme_pkg::FmtBf16: dec_o.mant = {16'd0, !e_zero, f[6:0]};
      tessera_mme_pkg::FmtFp16: dec_o.mant = {13'd0, !e_zero, f[9:0]};
      tessera_mme_pkg::FmtE4m3: dec_o.mant = {20'd0, !e_zero, f[2:0]};
      tessera_mme_pkg::FmtE5m2: dec_o.mant = {21'd0, !e_zero, f[1:0]};
      default: dec_o.mant = 24'd0;
    endcase
    // value = mant * 2^(e - bias - mbits); subnormals use e = 1
    dec_o.exp = (e_zero ? 10'd1 : {2'd0, e}) - bias_mb;
  end

endmodule
