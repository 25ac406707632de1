// Tessera management core (RV32IM + Zicsr): shared types and constants.
// See docs/core.md for the pipeline description.

package tessera_core_pkg;

  // ALU operations (executed in the EX stage)
  localparam logic [3:0] AluAdd  = 4'd0;
  localparam logic [3:0] AluSub  = 4'd1;
  localparam logic [3:0] AluSll  = 4'd2;
  localparam logic [3:0] AluSlt  = 4'd3;
  localparam logic [3:0] AluSltu = 4'd4;
  localparam logic [3:0] AluXor  = 4'd5;
  localparam logic [3:0] AluSrl  = 4'd6;
  localparam logic [3:0] AluSra  = 4'd7;
  localparam logic [3:0] AluOr   = 4'd8;
  localparam logic [3:0] AluAnd  = 4'd9;
  localparam logic [3:0] AluPassB = 4'd10;

  // EX result selection
  localparam logic [2:0] ResAlu = 3'd0;
  localparam logic [2:0] ResMul = 3'd1;
  localparam logic [2:0] ResDiv = 3'd2;
  localparam logic [2:0] ResCsr = 3'd3;
  localparam logic [2:0] ResPc4 = 3'd4;

  // Exception causes (mcause, interrupt bit clear)
  localparam logic [4:0] ExcInstrMisaligned = 5'd0;
  localparam logic [4:0] ExcInstrAccess     = 5'd1;
  localparam logic [4:0] ExcIllegal         = 5'd2;
  localparam logic [4:0] ExcBreakpoint      = 5'd3;
  localparam logic [4:0] ExcLoadMisaligned  = 5'd4;
  localparam logic [4:0] ExcLoadAccess      = 5'd5;
  localparam logic [4:0] ExcStoreMisaligned = 5'd6;
  localparam logic [4:0] ExcStoreAccess     = 5'd7;
  localparam logic [4:0] ExcEcallM          = 5'd11;

  // Interrupt causes (mcause, interrupt bit set)
  localparam logic [4:0] IrqSoftware = 5'd3;
  localparam logic [4:0] IrqTimer    = 5'd7;
  localparam logic [4:0] IrqExternal = 5'd11;

  // Decoded instruction (produced in ID, carried into EX)
  typedef struct packed {
    logic        illegal;   // not a legal RV32IM/Zicsr/M-mode encoding
    logic        rd_we;     // writes rd (rd != x0)
    logic [4:0]  rd;
    logic [4:0]  rs1;
    logic [4:0]  rs2;
    logic [31:0] imm;
    logic [3:0]  alu_op;
    logic        a_pc;      // ALU operand A = pc (AUIPC)
    logic        b_imm;     // ALU operand B = imm
    logic [2:0]  res_sel;
    logic [2:0]  funct3;
    logic        branch;
    logic        jal;
    logic        jalr;
    logic        load;
    logic        store;
    logic        mul;
    logic        div;
    logic        csr;
    logic        csr_imm;   // zimm form (rs1 field is the operand)
    logic        csr_we;    // the CSR instruction writes its CSR
    logic        ecall;
    logic        ebreak;
    logic        mret;
    logic        wfi;
    logic        fencei;
  } decoded_t;

endpackage
