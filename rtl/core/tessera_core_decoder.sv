// Tessera core instruction decoder (combinational, ID stage).
// Decodes RV32I + M + Zicsr + the machine-mode system instructions;
// everything else sets `illegal`.

module tessera_core_decoder
(
  input  logic [31:0] instr_i,
  output tessera_core_pkg::decoded_t dec_o
);


  logic [6:0] opcode;
  logic [2:0] funct3;
  logic [6:0] funct7;
  logic [4:0] rd;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode = instr_i[6:0];
  assign funct3 = instr_i[14:12];
  assign funct7 = instr_i[31:25];
  assign rd     = instr_i[11:7];

  assign imm_i = {{20{instr_i[31]}}, instr_i[31:20]};
  assign imm_s = {{20{instr_i[31]}}, instr_i[31:25], instr_i[11:7]};
  assign imm_b = {{19{instr_i[31]}}, instr_i[31], instr_i[7], instr_i[30:25], instr_i[11:8], 1'b0};
  assign imm_u = {instr_i[31:12], 12'b0};
  assign imm_j = {{11{instr_i[31]}}, instr_i[31], instr_i[19:12], instr_i[20], instr_i[30:21], 1'b0};

  logic writes_rd;

  // Fields are computed in plain variables and packed at the end (Yosys
  // mis-synthesizes partial member assignments to a struct in always_comb).
  logic        d_illegal, d_rd_we, d_a_pc, d_b_imm, d_branch, d_jal, d_jalr;
  logic        d_load, d_store, d_mul, d_div, d_csr, d_csr_imm, d_csr_we;
  logic        d_ecall, d_ebreak, d_mret, d_wfi, d_fencei;
  logic [31:0] d_imm;
  logic [3:0]  d_alu_op;
  logic [2:0]  d_res_sel;

  always_comb begin
    d_illegal = 1'b0;
    d_imm     = 32'd0;
    d_alu_op  = tessera_core_pkg::AluAdd;
    d_a_pc    = 1'b0;
    d_b_imm   = 1'b0;
    d_res_sel = tessera_core_pkg::ResAlu;
    d_branch  = 1'b0;
    d_jal     = 1'b0;
    d_jalr    = 1'b0;
    d_load    = 1'b0;
    d_store   = 1'b0;
    d_mul     = 1'b0;
    d_div     = 1'b0;
    d_csr     = 1'b0;
    d_csr_imm = 1'b0;
    d_csr_we  = 1'b0;
    d_ecall   = 1'b0;
    d_ebreak  = 1'b0;
    d_mret    = 1'b0;
    d_wfi     = 1'b0;
    d_fencei  = 1'b0;
    writes_rd = 1'b0;

    unique case (opcode)
      7'b0110111: begin  // LUI
        writes_rd    = 1'b1;
        d_imm    = imm_u;
        d_b_imm  = 1'b1;
        d_alu_op = tessera_core_pkg::AluPassB;
      end
      7'b0010111: begin  // AUIPC
        writes_rd   = 1'b1;
        d_imm   = imm_u;
        d_a_pc  = 1'b1;
        d_b_imm = 1'b1;
      end
      7'b1101111: begin  // JAL
        writes_rd     = 1'b1;
        d_imm     = imm_j;
        d_jal     = 1'b1;
        d_res_sel = tessera_core_pkg::ResPc4;
      end
      7'b1100111: begin  // JALR
        writes_rd     = 1'b1;
        d_imm     = imm_i;
        d_jalr    = 1'b1;
        d_res_sel = tessera_core_pkg::ResPc4;
        d_illegal = (funct3 != 3'b000);
      end
      7'b1100011: begin  // BRANCH
        d_imm     = imm_b;
        d_branch  = 1'b1;
        d_illegal = (funct3 == 3'b010) || (funct3 == 3'b011);
      end
      7'b0000011: begin  // LOAD
        writes_rd     = 1'b1;
        d_imm     = imm_i;
        d_load    = 1'b1;
        d_illegal = (funct3 == 3'b011) || (funct3 == 3'b110) || (funct3 == 3'b111);
      end
      7'b0100011: begin  // STORE
        d_imm     = imm_s;
        d_store   = 1'b1;
        d_illegal = (funct3[2] == 1'b1) || (funct3[1:0] == 2'b11);
      end
      7'b0010011: begin  // OP-IMM
        writes_rd   = 1'b1;
        d_imm   = imm_i;
        d_b_imm = 1'b1;
        unique case (funct3)
          3'b000: d_alu_op = tessera_core_pkg::AluAdd;
          3'b010: d_alu_op = tessera_core_pkg::AluSlt;
          3'b011: d_alu_op = tessera_core_pkg::AluSltu;
          3'b100: d_alu_op = tessera_core_pkg::AluXor;
          3'b110: d_alu_op = tessera_core_pkg::AluOr;
          3'b111: d_alu_op = tessera_core_pkg::AluAnd;
          3'b001: begin
            d_alu_op  = tessera_core_pkg::AluSll;
            d_illegal = (funct7 != 7'b0000000);
          end
          3'b101: begin
            d_alu_op  = funct7[5] ? tessera_core_pkg::AluSra : tessera_core_pkg::AluSrl;
            d_illegal = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
          end
          default: d_illegal = 1'b1;
        endcase
      end
      7'b0110011: begin  // OP
        writes_rd = 1'b1;
        if (funct7 == 7'b0000001) begin
          d_mul     = ~funct3[2];
          d_div     = funct3[2];
          d_res_sel = funct3[2] ? tessera_core_pkg::ResDiv : tessera_core_pkg::ResMul;
        end else if (funct7 == 7'b0000000) begin
          unique case (funct3)
            3'b000:  d_alu_op = tessera_core_pkg::AluAdd;
            3'b001:  d_alu_op = tessera_core_pkg::AluSll;
            3'b010:  d_alu_op = tessera_core_pkg::AluSlt;
            3'b011:  d_alu_op = tessera_core_pkg::AluSltu;
            3'b100:  d_alu_op = tessera_core_pkg::AluXor;
            3'b101:  d_alu_op = tessera_core_pkg::AluSrl;
            3'b110:  d_alu_op = tessera_core_pkg::AluOr;
            3'b111:  d_alu_op = tessera_core_pkg::AluAnd;
            default: d_illegal = 1'b1;
          endcase
        end else if (funct7 == 7'b0100000 && funct3 == 3'b000) begin
          d_alu_op = tessera_core_pkg::AluSub;
        end else if (funct7 == 7'b0100000 && funct3 == 3'b101) begin
          d_alu_op = tessera_core_pkg::AluSra;
        end else begin
          d_illegal = 1'b1;
        end
      end
      7'b0001111: begin  // MISC-MEM: FENCE is a no-op, FENCE.I flushes fetch
        if (funct3 == 3'b001) begin
          d_fencei = 1'b1;
        end else if (funct3 != 3'b000) begin
          d_illegal = 1'b1;
        end
      end
      7'b1110011: begin  // SYSTEM
        if (funct3 == 3'b000) begin
          unique case (instr_i)
            32'h0000_0073: d_ecall  = 1'b1;
            32'h0010_0073: d_ebreak = 1'b1;
            32'h3020_0073: d_mret   = 1'b1;
            32'h1050_0073: d_wfi    = 1'b1;
            default:       d_illegal = 1'b1;
          endcase
        end else if (funct3 == 3'b100) begin
          d_illegal = 1'b1;
        end else begin
          writes_rd     = 1'b1;
          d_csr     = 1'b1;
          d_csr_imm = funct3[2];
          d_res_sel = tessera_core_pkg::ResCsr;
          // csrrw always writes; csrrs/csrrc only with a non-zero rs1/zimm field
          d_csr_we  = (funct3[1:0] == 2'b01) || (instr_i[19:15] != 5'd0);
          d_imm     = {27'b0, instr_i[19:15]};
        end
      end
      default: d_illegal = 1'b1;
    endcase

  end

  assign d_rd_we = writes_rd && (rd != 5'd0) && !d_illegal;

  // field order of tessera_core_pkg::decoded_t
  assign dec_o = {d_illegal, d_rd_we, rd, instr_i[19:15], instr_i[24:20], d_imm, d_alu_op,
                  d_a_pc, d_b_imm, d_res_sel, funct3, d_branch, d_jal, d_jalr, d_load, d_store,
                  d_mul, d_div, d_csr, d_csr_imm, d_csr_we, d_ecall, d_ebreak, d_mret, d_wfi,
                  d_fencei};

endmodule
