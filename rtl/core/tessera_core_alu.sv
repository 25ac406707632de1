// Tessera core ALU (combinational, EX stage): RV32I arithmetic/logic and
// the single-cycle M-extension multiplier.

module tessera_core_alu
(
  input  logic [3:0]  op_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o,
  // multiplier: funct3 of MUL/MULH/MULHSU/MULHU, operands rs1/rs2
  input  logic [1:0]  mul_op_i,
  input  logic [31:0] mul_a_i,
  input  logic [31:0] mul_b_i,
  output logic [31:0] mul_result_o
);


  logic [4:0]  shamt;
  logic [32:0] sub33;
  logic        lt_signed, lt_unsigned;

  assign shamt       = b_i[4:0];
  assign sub33       = {1'b0, a_i} - {1'b0, b_i};
  assign lt_unsigned = sub33[32];
  assign lt_signed   = (a_i[31] != b_i[31]) ? a_i[31] : sub33[32];

  always_comb begin
    unique case (op_i)
      tessera_core_pkg::AluAdd:   result_o = a_i + b_i;
      tessera_core_pkg::AluSub:   result_o = sub33[31:0];
      tessera_core_pkg::AluSll:   result_o = a_i << shamt;
      tessera_core_pkg::AluSlt:   result_o = {31'b0, lt_signed};
      tessera_core_pkg::AluSltu:  result_o = {31'b0, lt_unsigned};
      tessera_core_pkg::AluXor:   result_o = a_i ^ b_i;
      tessera_core_pkg::AluSrl:   result_o = a_i >> shamt;
      tessera_core_pkg::AluSra:   result_o = 32'($signed(a_i) >>> shamt);
      tessera_core_pkg::AluOr:    result_o = a_i | b_i;
      tessera_core_pkg::AluAnd:   result_o = a_i & b_i;
      tessera_core_pkg::AluPassB: result_o = b_i;
      default:  result_o = a_i + b_i;
    endcase
  end

  // One unsigned 32x32 multiply; the signed high words are corrected:
  //   MULH   = hi(ua*ub) - (a<0 ? b : 0) - (b<0 ? a : 0)
  //   MULHSU = hi(ua*ub) - (a<0 ? b : 0)
  // (unsigned arithmetic only: Yosys mis-synthesized the signed version)
  logic [63:0] product;
  logic [31:0] corr_a, corr_b;

  assign product = {32'b0, mul_a_i} * {32'b0, mul_b_i};
  assign corr_a  = ((mul_op_i == 2'b01 || mul_op_i == 2'b10) && mul_a_i[31]) ? mul_b_i : 32'd0;
  assign corr_b  = ((mul_op_i == 2'b01) && mul_b_i[31]) ? mul_a_i : 32'd0;

  always_comb begin
    if (mul_op_i == 2'b00) begin
      mul_result_o = product[31:0];
    end else begin
      mul_result_o = product[63:32] - corr_a - corr_b;
    end
  end

endmodule
