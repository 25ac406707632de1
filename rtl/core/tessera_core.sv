// Tessera management core: RV32IM + Zicsr, machine mode only.
//
// Pipeline (see docs/core.md):
//   IF  fetch unit: OBI instruction port, 3-entry fetch buffer
//   ID  decode, register read, static prediction (JAL, backward branches)
//   EX  ALU/multiplier/divider, branch resolution, CSRs, traps, interrupts,
//       load/store address + OBI data request
//   WB  data response, load alignment, register write, retirement trace
// All architectural side effects except the data request happen at the
// EX->WB boundary or in WB, and the data request is issued only when the
// older instruction in WB can no longer trap, so exceptions are precise.

module tessera_core
#(
  parameter logic [31:0] BootAddr = 32'h0000_0000,
  parameter logic [31:0] HartId   = 32'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // instruction fetch port (OBI, read only) and data port (OBI)
  output tessera_bus_pkg::obi_req_t instr_req_o,
  input  tessera_bus_pkg::obi_rsp_t instr_rsp_i,
  output tessera_bus_pkg::obi_req_t data_req_o,
  input  tessera_bus_pkg::obi_rsp_t data_rsp_i,
  // interrupts (level)
  input  logic        irq_software_i,
  input  logic        irq_timer_i,
  input  logic        irq_external_i,
  // retirement trace
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o,
  output logic [31:0] trace_insn_o
);

  // ================================================================ signals
  // the OBI data port's fields as local signals
  logic        data_req, data_gnt, data_we, data_rvalid, data_err;
  logic [3:0]  data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;
  assign data_req_o.req   = data_req;
  assign data_req_o.addr  = data_addr;
  assign data_req_o.we    = data_we;
  assign data_req_o.be    = data_be;
  assign data_req_o.wdata = data_wdata;
  assign data_gnt         = data_rsp_i.gnt;
  assign data_rvalid      = data_rsp_i.rvalid;
  assign data_rdata       = data_rsp_i.rdata;
  assign data_err         = data_rsp_i.err;

  // fetch buffer head (ID stage)
  logic        f_valid, f_err, f_predicted;
  logic [31:0] f_pc, f_instr;
  tessera_core_pkg::decoded_t    d_dec;
  logic [31:0] d_rs1, d_rs2, d_target;
  logic        d_pred, d_pop, d_redirect;

  // EX stage registers
  logic        x_valid_q;
  logic [31:0] x_pc_q, x_instr_q, x_rs1_q, x_rs2_q;
  tessera_core_pkg::decoded_t    x_dec_q;
  logic        x_err_q, x_pred_q, x_hold_q;

  // WB stage registers
  logic        wb_valid_q, wb_rd_we_q, wb_load_q, wb_store_q;
  logic [4:0]  wb_rd_q;
  logic [31:0] wb_pc_q, wb_instr_q, wb_result_q, wb_addr_q;
  logic [2:0]  wb_funct3_q;

  // ================================================================ IF
  logic        redirect;
  logic [31:0] redirect_pc;

  tessera_core_fetch #(
    .BootAddr (BootAddr)
  ) u_fetch (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .redirect_i     (redirect),
    .predict_i      (d_redirect),
    .redirect_pc_i  (redirect_pc),
    .pop_i          (d_pop),
    .valid_o        (f_valid),
    .predicted_o    (f_predicted),
    .pc_o           (f_pc),
    .instr_o        (f_instr),
    .err_o          (f_err),
    .instr_req_o    (instr_req_o),
    .instr_rsp_i    (instr_rsp_i)
  );

  // ================================================================ ID
  tessera_core_decoder u_decoder (
    .instr_i (f_instr),
    .dec_o   (d_dec)
  );

  logic        rf_we;
  logic [31:0] wb_value;

  tessera_core_regfile u_regfile (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .raddr_a_i (d_dec.rs1),
    .rdata_a_o (d_rs1),
    .raddr_b_i (d_dec.rs2),
    .rdata_b_o (d_rs2),
    .we_i      (rf_we),
    .waddr_i   (wb_rd_q),
    .wdata_i   (wb_value)
  );

  // Static prediction: JAL always, conditional branches backward-taken.
  assign d_target = f_pc + d_dec.imm;
  assign d_pred   = !f_err && !d_dec.illegal && !d_target[1] &&
                    (d_dec.jal || (d_dec.branch && d_dec.imm[31]));

  // ================================================================ WB (early: needed by EX)
  logic        wb_mem, wb_done, wb_free, wb_trap;
  logic [31:0] load_shifted, load_data;

  assign wb_mem  = wb_load_q || wb_store_q;
  assign wb_done = wb_valid_q && (!wb_mem || (data_rvalid && !data_err));
  assign wb_free = !wb_valid_q || wb_done;
  assign wb_trap = wb_valid_q && wb_mem && data_rvalid && data_err;

  assign load_shifted = data_rdata >> {wb_addr_q[1:0], 3'b000};
  always_comb begin
    unique case (wb_funct3_q)
      3'b000:  load_data = {{24{load_shifted[7]}}, load_shifted[7:0]};
      3'b001:  load_data = {{16{load_shifted[15]}}, load_shifted[15:0]};
      3'b100:  load_data = {24'b0, load_shifted[7:0]};
      3'b101:  load_data = {16'b0, load_shifted[15:0]};
      default: load_data = load_shifted;
    endcase
  end

  assign wb_value = wb_load_q ? load_data : wb_result_q;
  assign rf_we    = wb_done && wb_rd_we_q;

  assign trace_valid_o = wb_done;
  assign trace_pc_o    = wb_pc_q;
  assign trace_insn_o  = wb_instr_q;

  // ================================================================ EX
  logic        x_fire;     // EX instruction completes and moves to WB
  // operand forwarding from WB
  logic [31:0] rs1v, rs2v;
  always_comb begin
    rs1v = x_rs1_q;
    rs2v = x_rs2_q;
    if (wb_valid_q && wb_rd_we_q && wb_rd_q == x_dec_q.rs1) begin
      rs1v = wb_value;
    end
    if (wb_valid_q && wb_rd_we_q && wb_rd_q == x_dec_q.rs2) begin
      rs2v = wb_value;
    end
  end

  // ALU and multiplier
  logic [31:0] alu_a, alu_b, alu_res, mul_res;
  assign alu_a = x_dec_q.a_pc ? x_pc_q : rs1v;
  assign alu_b = x_dec_q.b_imm ? x_dec_q.imm : rs2v;

  tessera_core_alu u_alu (
    .op_i         (x_dec_q.alu_op),
    .a_i          (alu_a),
    .b_i          (alu_b),
    .result_o     (alu_res),
    .mul_op_i     (x_dec_q.funct3[1:0]),
    .mul_a_i      (rs1v),
    .mul_b_i      (rs2v),
    .mul_result_o (mul_res)
  );

  // divider
  logic        div_start, div_kill, div_idle, div_done;
  logic [31:0] div_res;

  tessera_core_div u_div (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (div_start),
    .kill_i   (div_kill),
    .ack_i    (x_fire),
    .op_i     (x_dec_q.funct3[1:0]),
    .a_i      (rs1v),
    .b_i      (rs2v),
    .idle_o   (div_idle),
    .done_o   (div_done),
    .result_o (div_res)
  );

  // branches and jumps
  logic        cmp_eq, cmp_lt, cmp_ltu, cond, taken;
  logic [31:0] pc4, jalr_sum, target, next_pc;
  assign cmp_eq  = (rs1v == rs2v);
  assign cmp_lt  = ($signed(rs1v) < $signed(rs2v));
  assign cmp_ltu = (rs1v < rs2v);
  always_comb begin
    unique case (x_dec_q.funct3)
      3'b000:  cond = cmp_eq;
      3'b001:  cond = !cmp_eq;
      3'b100:  cond = cmp_lt;
      3'b101:  cond = !cmp_lt;
      3'b110:  cond = cmp_ltu;
      3'b111:  cond = !cmp_ltu;
      default: cond = 1'b0;
    endcase
  end
  assign pc4      = x_pc_q + 32'd4;
  assign jalr_sum = rs1v + x_dec_q.imm;
  assign target   = x_dec_q.jalr ? {jalr_sum[31:1], 1'b0} : (x_pc_q + x_dec_q.imm);
  assign taken    = x_dec_q.jal || x_dec_q.jalr || (x_dec_q.branch && cond);
  assign next_pc  = taken ? target : pc4;

  logic unused_ex;
  assign unused_ex = ^{jalr_sum[0], x_dec_q.mul};

  // loads and stores
  logic [31:0] mem_addr;
  logic        x_mem, mem_misaligned;
  assign mem_addr = rs1v + x_dec_q.imm;
  assign x_mem    = x_dec_q.load || x_dec_q.store;
  always_comb begin
    unique case (x_dec_q.funct3[1:0])
      2'b00:   mem_misaligned = 1'b0;
      2'b01:   mem_misaligned = mem_addr[0];
      default: mem_misaligned = (mem_addr[1:0] != 2'b00);
    endcase
  end

  always_comb begin
    unique case (x_dec_q.funct3[1:0])
      2'b00:   data_be = 4'b0001 << mem_addr[1:0];
      2'b01:   data_be = 4'b0011 << mem_addr[1:0];
      default: data_be = 4'b1111;
    endcase
  end
  assign data_addr  = {mem_addr[31:2], 2'b00};
  assign data_we    = x_dec_q.store;
  assign data_wdata = rs2v << {mem_addr[1:0], 3'b000};

  // CSRs
  logic [31:0] csr_rdata, trap_vector, mepc;
  logic        csr_illegal, irq_wake, irq_pending_en;
  logic [4:0]  irq_cause;
  logic        trap, trap_irq;
  logic [4:0]  trap_cause;
  logic [31:0] trap_pc, trap_tval;
  logic        x_mret;

  assign x_mret = x_fire && x_dec_q.mret;

  tessera_core_csr #(
    .HartId (HartId)
  ) u_csr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .csr_addr_i     (x_instr_q[31:20]),
    .csr_op_i       (x_dec_q.funct3[1:0]),
    .csr_wdata_i    (x_dec_q.csr_imm ? x_dec_q.imm : rs1v),
    .csr_we_i       (x_dec_q.csr_we),
    .csr_commit_i   (x_fire && x_dec_q.csr),
    .csr_rdata_o    (csr_rdata),
    .csr_illegal_o  (csr_illegal),
    .retire_i       (wb_done),
    .trap_i         (trap),
    .trap_irq_i     (trap_irq),
    .trap_cause_i   (trap_cause),
    .trap_pc_i      (trap_pc),
    .trap_tval_i    (trap_tval),
    .trap_vector_o  (trap_vector),
    .mret_i         (x_mret),
    .mepc_o         (mepc),
    .irq_software_i (irq_software_i),
    .irq_timer_i    (irq_timer_i),
    .irq_external_i (irq_external_i),
    .irq_wake_o     (irq_wake),
    .irq_take_o     (irq_pending_en),
    .irq_cause_o    (irq_cause)
  );

  // synchronous exceptions of the EX instruction, in priority order
  logic        x_exc;
  logic [4:0]  x_exc_cause;
  logic [31:0] x_exc_tval;
  always_comb begin
    x_exc       = 1'b1;
    x_exc_cause = tessera_core_pkg::ExcIllegal;
    x_exc_tval  = 32'd0;
    if (x_err_q) begin
      x_exc_cause = tessera_core_pkg::ExcInstrAccess;
      x_exc_tval  = x_pc_q;
    end else if (x_dec_q.illegal || (x_dec_q.csr && csr_illegal)) begin
      x_exc_cause = tessera_core_pkg::ExcIllegal;
      x_exc_tval  = x_instr_q;
    end else if (x_dec_q.ecall) begin
      x_exc_cause = tessera_core_pkg::ExcEcallM;
    end else if (x_dec_q.ebreak) begin
      x_exc_cause = tessera_core_pkg::ExcBreakpoint;
      x_exc_tval  = x_pc_q;
    end else if (taken && target[1]) begin
      x_exc_cause = tessera_core_pkg::ExcInstrMisaligned;
      x_exc_tval  = target;
    end else if (x_mem && mem_misaligned) begin
      x_exc_cause = x_dec_q.store ? tessera_core_pkg::ExcStoreMisaligned : tessera_core_pkg::ExcLoadMisaligned;
      x_exc_tval  = mem_addr;
    end else begin
      x_exc = 1'b0;
    end
  end

  // Interrupts are taken on the EX instruction (it is discarded and becomes
  // mepc) once WB can no longer trap, unless its data request is already on
  // the bus, or it is a WFI (which completes; the trap hits its successor).
  logic irq_take, x_trap;
  assign irq_take = irq_pending_en && x_valid_q && wb_free && !x_hold_q && !x_dec_q.wfi;
  assign x_trap   = x_valid_q && wb_free && (irq_take || x_exc);

  assign trap      = x_trap || wb_trap;
  assign trap_irq  = !wb_trap && irq_take;
  always_comb begin
    if (wb_trap) begin
      trap_cause = wb_store_q ? tessera_core_pkg::ExcStoreAccess : tessera_core_pkg::ExcLoadAccess;
      trap_pc    = wb_pc_q;
      trap_tval  = wb_addr_q;
    end else if (irq_take) begin
      trap_cause = irq_cause;
      trap_pc    = x_pc_q;
      trap_tval  = 32'd0;
    end else begin
      trap_cause = x_exc_cause;
      trap_pc    = x_pc_q;
      trap_tval  = x_exc_tval;
    end
  end

  // data request and EX completion
  assign data_req = x_valid_q && x_mem && !x_exc && wb_free && !irq_take;

  assign x_fire = x_valid_q && wb_free && !irq_take && !x_exc &&
                  (!x_mem || data_gnt) &&
                  (!x_dec_q.div || div_done) &&
                  (!x_dec_q.wfi || irq_wake);

  assign div_start = x_valid_q && x_dec_q.div && div_idle && wb_free && !irq_take;
  assign div_kill  = trap;

  // (written without x_fire so that the fetch request never depends on
  // data_gnt: these instructions are neither loads/stores nor div/wfi)
  logic        x_redirect;
  logic [31:0] x_redirect_pc;
  assign x_redirect = x_valid_q && wb_free && !irq_take && !x_exc &&
                      (x_dec_q.jalr || x_dec_q.mret || x_dec_q.fencei ||
                       ((x_dec_q.branch || x_dec_q.jal) && (taken != x_pred_q)));
  assign x_redirect_pc = x_dec_q.mret ? mepc : (x_dec_q.fencei ? pc4 : next_pc);

  // EX result
  logic [31:0] x_result;
  always_comb begin
    unique case (x_dec_q.res_sel)
      tessera_core_pkg::ResMul:  x_result = mul_res;
      tessera_core_pkg::ResDiv:  x_result = div_res;
      tessera_core_pkg::ResCsr:  x_result = csr_rdata;
      tessera_core_pkg::ResPc4:  x_result = pc4;
      default: x_result = alu_res;
    endcase
  end

  // ================================================================ redirect / ID pop
  // A predicted-taken head redirects fetch once, as soon as it is at the
  // head of the fetch buffer (it stays there until EX takes it).
  assign d_pop      = f_valid && (!x_valid_q || x_fire) && !trap && !x_redirect;
  assign d_redirect = f_valid && d_pred && !f_predicted && !trap && !x_redirect;

  assign redirect = trap || x_redirect;
  always_comb begin
    if (trap) begin
      redirect_pc = trap_vector;
    end else if (x_redirect) begin
      redirect_pc = x_redirect_pc;
    end else begin
      redirect_pc = d_target;
    end
  end

  // ================================================================ pipeline registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_valid_q <= 1'b0;
      x_pc_q    <= 32'd0;
      x_instr_q <= 32'd0;
      x_rs1_q   <= 32'd0;
      x_rs2_q   <= 32'd0;
      x_dec_q   <= '0;
      x_err_q   <= 1'b0;
      x_pred_q  <= 1'b0;
      x_hold_q  <= 1'b0;
    end else begin
      x_hold_q <= data_req && !data_gnt;
      if (trap || x_redirect) begin
        x_valid_q <= 1'b0;
      end else if (!x_valid_q || x_fire) begin
        x_valid_q <= f_valid;
        x_pc_q    <= f_pc;
        x_instr_q <= f_instr;
        x_dec_q   <= d_dec;
        x_rs1_q   <= d_rs1;
        x_rs2_q   <= d_rs2;
        x_err_q   <= f_err;
        x_pred_q  <= d_pred;
      end else begin
        // stalled: keep the forwarded operands (the producer may leave WB)
        x_rs1_q <= rs1v;
        x_rs2_q <= rs2v;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_valid_q  <= 1'b0;
      wb_rd_we_q  <= 1'b0;
      wb_load_q   <= 1'b0;
      wb_store_q  <= 1'b0;
      wb_rd_q     <= 5'd0;
      wb_pc_q     <= 32'd0;
      wb_instr_q  <= 32'd0;
      wb_result_q <= 32'd0;
      wb_addr_q   <= 32'd0;
      wb_funct3_q <= 3'd0;
    end else if (wb_free || wb_trap) begin
      wb_valid_q  <= x_fire;
      wb_rd_we_q  <= x_dec_q.rd_we;
      wb_load_q   <= x_dec_q.load;
      wb_store_q  <= x_dec_q.store;
      wb_rd_q     <= x_dec_q.rd;
      wb_pc_q     <= x_pc_q;
      wb_instr_q  <= x_instr_q;
      wb_result_q <= x_result;
      wb_addr_q   <= mem_addr;
      wb_funct3_q <= x_dec_q.funct3;
    end
  end

endmodule
