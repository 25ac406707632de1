// Tessera core machine-mode CSRs, trap entry/return and interrupt logic.
// Implemented CSRs are listed in docs/core.md. Any other address, or a write
// to a read-only address (csr[11:10] == 2'b11), is reported as illegal.

module tessera_core_csr
#(
  parameter logic [31:0] HartId = 32'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // CSR instruction in EX
  input  logic [11:0] csr_addr_i,
  input  logic [1:0]  csr_op_i,       // funct3[1:0]: 01 write, 10 set, 11 clear
  input  logic [31:0] csr_wdata_i,    // rs1 value or zero-extended zimm
  input  logic        csr_we_i,       // the instruction writes the CSR
  input  logic        csr_commit_i,   // perform the access now
  output logic [31:0] csr_rdata_o,
  output logic        csr_illegal_o,
  // retirement of an instruction (WB stage)
  input  logic        retire_i,
  // trap entry
  input  logic        trap_i,
  input  logic        trap_irq_i,
  input  logic [4:0]  trap_cause_i,
  input  logic [31:0] trap_pc_i,
  input  logic [31:0] trap_tval_i,
  output logic [31:0] trap_vector_o,
  // trap return
  input  logic        mret_i,
  output logic [31:0] mepc_o,
  // interrupts
  input  logic        irq_software_i,
  input  logic        irq_timer_i,
  input  logic        irq_external_i,
  output logic        irq_wake_o,     // (mip & mie) != 0, wakes WFI
  output logic        irq_take_o,     // wake and mstatus.MIE
  output logic [4:0]  irq_cause_o
);


  // CSR addresses
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hB00;
  localparam logic [11:0] CsrMinstret  = 12'hB02;
  localparam logic [11:0] CsrMcycleh   = 12'hB80;
  localparam logic [11:0] CsrMinstreth = 12'hB82;
  localparam logic [11:0] CsrCycle     = 12'hC00;
  localparam logic [11:0] CsrInstret   = 12'hC02;
  localparam logic [11:0] CsrCycleh    = 12'hC80;
  localparam logic [11:0] CsrInstreth  = 12'hC82;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;
  localparam logic [11:0] CsrMconfigptr = 12'hF15;

  // misa: MXL = 1 (32 bit), extensions I and M
  localparam logic [31:0] MisaValue = 32'h4000_1100;

  logic        mie_bit_q, mpie_q;        // mstatus.MIE, mstatus.MPIE
  logic [2:0]  mie_q;                    // mie.{MEIE, MTIE, MSIE}
  logic [31:0] mtvec_q;                  // base[31:2], mode bit 0 (bit 1 reads 0)
  logic [31:0] mscratch_q, mepc_q, mcause_q, mtval_q;
  logic [63:0] mcycle_q, minstret_q;
  logic        instret_skip_q;           // minstret was written: do not count its writer

  logic [31:0] mstatus_val, mie_val, mip_val;
  logic [2:0]  pending;
  logic [63:0] minstret_cur;

  assign mstatus_val = {19'b0, 2'b11, 3'b0, mpie_q, 3'b0, mie_bit_q, 3'b0};
  assign mie_val     = {20'b0, mie_q[2], 3'b0, mie_q[1], 3'b0, mie_q[0], 3'b0};
  assign mip_val     = {20'b0, irq_external_i, 3'b0, irq_timer_i, 3'b0, irq_software_i, 3'b0};
  assign pending     = {irq_external_i, irq_timer_i, irq_software_i} & mie_q;

  // minstret as seen by a CSR read in EX: includes the older instruction
  // retiring from WB in the same cycle.
  assign minstret_cur = minstret_q + {63'b0, retire_i && !instret_skip_q};

  assign irq_wake_o  = |pending;
  assign irq_take_o  = mie_bit_q && |pending;
  assign irq_cause_o = pending[2] ? tessera_core_pkg::IrqExternal : (pending[0] ? tessera_core_pkg::IrqSoftware : tessera_core_pkg::IrqTimer);

  // ---------------------------------------------------------------- read
  logic known;
  always_comb begin
    known       = 1'b1;
    csr_rdata_o = 32'd0;
    unique case (csr_addr_i)
      CsrMstatus:    csr_rdata_o = mstatus_val;
      CsrMisa:       csr_rdata_o = MisaValue;
      CsrMie:        csr_rdata_o = mie_val;
      CsrMtvec:      csr_rdata_o = mtvec_q;
      CsrMstatush:   csr_rdata_o = 32'd0;
      CsrMscratch:   csr_rdata_o = mscratch_q;
      CsrMepc:       csr_rdata_o = mepc_q;
      CsrMcause:     csr_rdata_o = mcause_q;
      CsrMtval:      csr_rdata_o = mtval_q;
      CsrMip:        csr_rdata_o = mip_val;
      CsrMcycle,
      CsrCycle:      csr_rdata_o = mcycle_q[31:0];
      CsrMcycleh,
      CsrCycleh:     csr_rdata_o = mcycle_q[63:32];
      CsrMinstret,
      CsrInstret:    csr_rdata_o = minstret_cur[31:0];
      CsrMinstreth,
      CsrInstreth:   csr_rdata_o = minstret_cur[63:32];
      CsrMvendorid,
      CsrMarchid,
      CsrMimpid,
      CsrMconfigptr: csr_rdata_o = 32'd0;
      CsrMhartid:    csr_rdata_o = HartId;
      default:       known = 1'b0;
    endcase
  end

  assign csr_illegal_o = !known || (csr_we_i && csr_addr_i[11:10] == 2'b11);

  // ---------------------------------------------------------------- write
  logic [31:0] wval;
  logic        wr;
  always_comb begin
    unique case (csr_op_i)
      2'b10:   wval = csr_rdata_o | csr_wdata_i;
      2'b11:   wval = csr_rdata_o & ~csr_wdata_i;
      default: wval = csr_wdata_i;
    endcase
  end
  assign wr = csr_commit_i && csr_we_i && !csr_illegal_o;

  // ---------------------------------------------------------------- trap vector
  always_comb begin
    if (mtvec_q[0] && trap_irq_i) begin
      trap_vector_o = {mtvec_q[31:2], 2'b00} + {25'b0, trap_cause_i, 2'b00};
    end else begin
      trap_vector_o = {mtvec_q[31:2], 2'b00};
    end
  end
  assign mepc_o = mepc_q;

  logic unused_trap_pc;
  assign unused_trap_pc = ^trap_pc_i[1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mie_bit_q      <= 1'b0;
      mpie_q         <= 1'b0;
      mie_q          <= 3'b0;
      mtvec_q        <= 32'd0;
      mscratch_q     <= 32'd0;
      mepc_q         <= 32'd0;
      mcause_q       <= 32'd0;
      mtval_q        <= 32'd0;
      mcycle_q       <= 64'd0;
      minstret_q     <= 64'd0;
      instret_skip_q <= 1'b0;
    end else begin
      // counters (a CSR write in the same cycle takes precedence)
      mcycle_q       <= mcycle_q + 64'd1;
      minstret_q     <= minstret_cur;
      instret_skip_q <= 1'b0;

      if (trap_i) begin
        mpie_q    <= mie_bit_q;
        mie_bit_q <= 1'b0;
        mepc_q    <= {trap_pc_i[31:2], 2'b00};
        mcause_q  <= {trap_irq_i, 26'b0, trap_cause_i};
        mtval_q   <= trap_tval_i;
      end else if (mret_i) begin
        mie_bit_q <= mpie_q;
        mpie_q    <= 1'b1;
      end else if (wr) begin
        unique case (csr_addr_i)
          CsrMstatus: begin
            mie_bit_q <= wval[3];
            mpie_q    <= wval[7];
          end
          CsrMie:      mie_q      <= {wval[11], wval[7], wval[3]};
          CsrMtvec:    mtvec_q    <= {wval[31:2], 1'b0, wval[0]};
          CsrMscratch: mscratch_q <= wval;
          CsrMepc:     mepc_q     <= {wval[31:2], 2'b00};
          CsrMcause:   mcause_q   <= wval;
          CsrMtval:    mtval_q    <= wval;
          CsrMcycle:   mcycle_q[31:0]  <= wval;
          CsrMcycleh:  mcycle_q[63:32] <= wval;
          CsrMinstret: begin
            minstret_q[31:0] <= wval;
            instret_skip_q   <= 1'b1;
          end
          CsrMinstreth: begin
            minstret_q[63:32] <= wval;
            instret_skip_q    <= 1'b1;
          end
          default: ;  // misa, mip, mstatush: writes ignored (WARL)
        endcase
      end
    end
  end

endmodule
