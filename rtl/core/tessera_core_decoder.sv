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

  always_comb begin
    dec_o         = '0;
    dec_o.rd      = rd;
    dec_o.rs1     = instr_i[19:15];
    dec_o.rs2     = instr_i[24:20];
    dec_o.funct3  = funct3;
    dec_o.alu_op  = tessera_core_pkg::AluAdd;
    dec_o.res_sel = tessera_core_pkg::ResAlu;
    writes_rd     = 1'b0;

    unique case (opcode)
      7'b0110111: begin  // LUI
        writes_rd    = 1'b1;
        dec_o.imm    = imm_u;
        dec_o.b_imm  = 1'b1;
        dec_o.alu_op = tessera_core_pkg::AluPassB;
      end
      7'b0010111: begin  // AUIPC
        writes_rd   = 1'b1;
        dec_o.imm   = imm_u;
        dec_o.a_pc  = 1'b1;
        dec_o.b_imm = 1'b1;
      end
      7'b1101111: begin  // JAL
        writes_rd     = 1'b1;
        dec_o.imm     = imm_j;
        dec_o.jal     = 1'b1;
        dec_o.res_sel = tessera_core_pkg::ResPc4;
      end
      7'b1100111: begin  // JALR
        writes_rd     = 1'b1;
        dec_o.imm     = imm_i;
        dec_o.jalr    = 1'b1;
        dec_o.res_sel = tessera_core_pkg::ResPc4;
        dec_o.illegal = (funct3 != 3'b000);
      end
      7'b1100011: begin  // BRANCH
        dec_o.imm     = imm_b;
        dec_o.branch  = 1'b1;
        dec_o.illegal = (funct3 == 3'b010) || (funct3 == 3'b011);
      end
      7'b0000011: begin  // LOAD
        writes_rd     = 1'b1;
        dec_o.imm     = imm_i;
        dec_o.load    = 1'b1;
        dec_o.illegal = (funct3 == 3'b011) || (funct3 == 3'b110) || (funct3 == 3'b111);
      end
      7'b0100011: begin  // STORE
        dec_o.imm     = imm_s;
        dec_o.store   = 1'b1;
        dec_o.illegal = (funct3[2] == 1'b1) || (funct3[1:0] == 2'b11);
      end
      7'b0010011: begin  // OP-IMM
        writes_rd   = 1'b1;
        dec_o.imm   = imm_i;
        dec_o.b_imm = 1'b1;
        unique case (funct3)
          3'b000: dec_o.alu_op = tessera_core_pkg::AluAdd;
          3'b010: dec_o.alu_op = tessera_core_pkg::AluSlt;
          3'b011: dec_o.alu_op = tessera_core_pkg::AluSltu;
          3'b100: dec_o.alu_op = tessera_core_pkg::AluXor;
          3'b110: dec_o.alu_op = tessera_core_pkg::AluOr;
          3'b111: dec_o.alu_op = tessera_core_pkg::AluAnd;
          3'b001: begin
            dec_o.alu_op  = tessera_core_pkg::AluSll;
            dec_o.illegal = (funct7 != 7'b0000000);
          end
          3'b101: begin
            dec_o.alu_op  = funct7[5] ? tessera_core_pkg::AluSra : tessera_core_pkg::AluSrl;
            dec_o.illegal = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
          end
          default: dec_o.illegal = 1'b1;
        endcase
      end
      7'b0110011: begin  // OP
        writes_rd = 1'b1;
        if (funct7 == 7'b0000001) begin
          dec_o.mul     = ~funct3[2];
          dec_o.div     = funct3[2];
          dec_o.res_sel = funct3[2] ? tessera_core_pkg::ResDiv : tessera_core_pkg::ResMul;
        end else if (funct7 == 7'b0000000) begin
          unique case (funct3)
            3'b000:  dec_o.alu_op = tessera_core_pkg::AluAdd;
            3'b001:  dec_o.alu_op = tessera_core_pkg::AluSll;
            3'b010:  dec_o.alu_op = tessera_core_pkg::AluSlt;
            3'b011:  dec_o.alu_op = tessera_core_pkg::AluSltu;
            3'b100:  dec_o.alu_op = tessera_core_pkg::AluXor;
            3'b101:  dec_o.alu_op = tessera_core_pkg::AluSrl;
            3'b110:  dec_o.alu_op = tessera_core_pkg::AluOr;
            3'b111:  dec_o.alu_op = tessera_core_pkg::AluAnd;
            default: dec_o.illegal = 1'b1;
          endcase
        end else if (funct7 == 7'b0100000 && funct3 == 3'b000) begin
          dec_o.alu_op = tessera_core_pkg::AluSub;
        end else if (funct7 == 7'b0100000 && funct3 == 3'b101) begin
          dec_o.alu_op = tessera_core_pkg::AluSra;
        end else begin
          dec_o.illegal = 1'b1;
        end
      end
      7'b0001111: begin  // MISC-MEM: FENCE is a no-op, FENCE.I flushes fetch
        if (funct3 == 3'b001) begin
          dec_o.fencei = 1'b1;
        end else if (funct3 != 3'b000) begin
          dec_o.illegal = 1'b1;
        end
      end
      7'b1110011: begin  // SYSTEM
        if (funct3 == 3'b000) begin
          unique case (instr_i)
            32'h0000_0073: dec_o.ecall  = 1'b1;
            32'h0010_0073: dec_o.ebreak = 1'b1;
            32'h3020_0073: dec_o.mret   = 1'b1;
            32'h1050_0073: dec_o.wfi    = 1'b1;
            default:       dec_o.illegal = 1'b1;
          endcase
        end else if (funct3 == 3'b100) begin
          dec_o.illegal = 1'b1;
        end else begin
          writes_rd     = 1'b1;
          dec_o.csr     = 1'b1;
          dec_o.csr_imm = funct3[2];
          dec_o.res_sel = tessera_core_pkg::ResCsr;
          // csrrw always writes; csrrs/csrrc only with a non-zero rs1/zimm field
          dec_o.csr_we  = (funct3[1:0] == 2'b01) || (instr_i[19:15] != 5'd0);
          dec_o.imm     = {27'b0, instr_i[19:15]};
        end
      end
      default: dec_o.illegal = 1'b1;
    endcase

    dec_o.rd_we = writes_rd && (rd != 5'd0) && !dec_o.illegal;
  end

endmodule
