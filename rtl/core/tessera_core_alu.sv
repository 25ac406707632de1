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

  // 33x33 signed multiply covers all four variants:
  // MUL (low word), MULH (s*s), MULHSU (s*u), MULHU (u*u)
  // (operands are extended to the full product width explicitly: Yosys
  // evaluates a multiplication inside a size cast at the operand width)
  logic               a_sign, b_sign;
  logic signed [65:0] mul_a_ext, mul_b_ext;
  logic signed [65:0] product;

  assign a_sign    = (mul_op_i == 2'b01 || mul_op_i == 2'b10) ? mul_a_i[31] : 1'b0;
  assign b_sign    = (mul_op_i == 2'b01) ? mul_b_i[31] : 1'b0;
  assign mul_a_ext = {{34{a_sign}}, mul_a_i};
  assign mul_b_ext = {{34{b_sign}}, mul_b_i};
  assign product   = mul_a_ext * mul_b_ext;

  logic unused_product;
  assign unused_product = ^product[65:64];

  assign mul_result_o = (mul_op_i == 2'b00) ? product[31:0] : product[63:32];

endmodule
