// Maintenance engine of an L2 slice: walks every (set, way) entry once and applies FLUSH,
// INVALIDATE or DISCARD to the valid lines of the whole cache or of an address range.
// Dirty lines (FLUSH/INVALIDATE) are pushed to the write queue; the operation completes
// when all of its write-backs are acknowledged. Completion: STATUS.done, irq, and an
// optional message. Bad commands are refused with an error code and no side effects.
module tessera_l2_maint #(
  parameter int unsigned Sets     = 128,
  parameter int unsigned Ways     = 8,
  parameter int unsigned BankBits = 2,
  parameter logic [31:0] MemBase  = 32'h8000_0000,
  parameter logic [31:0] MemSize  = 32'h4000_0000,
  // derived
  parameter int unsigned SetBits  = $clog2(Sets),
  parameter int unsigned WayBits  = $clog2(Ways),
  parameter int unsigned LsetBits = SetBits - BankBits
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // command (registers)
  input  logic                go_i,
  input  tessera_l2_pkg::maint_op_e op_i,
  input  logic                whole_i,
  input  logic [31:0]         start_i,
  input  logic [31:0]         end_i,
  input  logic                msg_en_i,
  input  logic [31:0]         msg_addr_i,
  input  logic [31:0]         msg_data_i,
  // status
  output logic                busy_o,
  output logic                done_o,       // pulse: completed or refused
  output logic [3:0]          err_code_o,
  // bank side operations (one (set, way) per request)
  output logic                side_req_o,
  output logic [BankBits-1:0] side_bank_o,
  output logic [LsetBits-1:0] side_lset_o,
  output logic [WayBits-1:0]  side_way_o,
  output tessera_l2_pkg::maint_op_e side_mop_o,
  output logic                side_whole_o,
  output logic [31:0]         side_lo_o,
  output logic [31:0]         side_hi_o,
  input  logic                side_gnt_i,
  input  logic                side_res_i,
  input  logic                side_busy_i,
  input  logic                side_wb_i,
  input  logic [31:0]         side_addr_i,
  input  logic [511:0]        side_rdata_i,
  input  logic [63:0]         side_rmask_i,  // byte-dirty mask of the line
  // write queue
  output logic                wq_req_o,
  output logic [31:0]         wq_addr_o,
  output logic [511:0]        wq_data_o,
  output logic [63:0]         wq_strb_o,     // only the dirty bytes are written back
  input  logic                wq_gnt_i,
  input  logic                b_done_i,     // a write-back of this engine was acknowledged
  // write-back held here, not yet in the queue (hazard source)
  output logic                wb_pend_o,
  output logic [25:0]         wb_line_o,
  // completion message
  output logic                msg_valid_o,
  input  logic                msg_ready_i,
  output logic [31:0]         msg_addr_o,
  output logic [31:0]         msg_data_o
);
  localparam int unsigned Entries = Sets * Ways;
  localparam int unsigned IdxW    = SetBits + WayBits;

  typedef enum logic [2:0] { StIdle, StIssue, StWait, StPush, StDrain, StMsg } state_e;

  state_e          st_q, st_d;
  logic [IdxW-1:0] idx_q;
  tessera_l2_pkg::maint_op_e       op_q;
  logic            whole_q;
  logic [31:0]     lo_q, hi_q, wb_addr_q;
  logic [511:0]    wb_data_q;
  logic [63:0]     wb_strb_q;
  logic [7:0]      outst_q;   // write-backs pushed and not yet acknowledged
  logic [3:0]      err_q;
  logic            done_q, msg_en_q;
  logic [31:0]     msg_addr_q, msg_data_q;

  // command check
  logic [32:0] mem_end;
  logic [3:0]  chk;
  always_comb begin
    mem_end = {1'b0, MemBase} + {1'b0, MemSize};
    chk = 4'd0;
    if (st_q != StIdle)           chk = 4'd3;
    else if (op_i == tessera_l2_pkg::MaintNone)   chk = 4'd1;
    else if (!whole_i && ((start_i >= end_i) || (start_i[5:0] != '0) || (end_i[5:0] != '0) ||
                          (start_i < MemBase) || ({1'b0, end_i} > mem_end))) chk = 4'd2;
  end

  logic last;
  assign last = (32'(idx_q) == Entries - 1);
  logic push_fire;
  assign push_fire = (st_q == StPush) && wq_gnt_i;

  always_comb begin
    st_d = st_q;
    unique case (st_q)
      StIdle:  if (go_i && chk == 4'd0) st_d = StIssue;
      StIssue: if (side_gnt_i) st_d = StWait;
      StWait: begin
        if (side_res_i) begin
          if (side_busy_i)    st_d = StIssue;           // reserved entry: try again
          else if (side_wb_i) st_d = StPush;
          else                st_d = last ? StDrain : StIssue;
        end
      end
      StPush:  if (wq_gnt_i) st_d = last ? StDrain : StIssue;
      StDrain: if (outst_q == 8'd0 || (outst_q == 8'd1 && b_done_i)) st_d = msg_en_q ? StMsg : StIdle;
      StMsg:   if (msg_ready_i) st_d = StIdle;
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= StIdle;
      idx_q      <= '0;
      op_q       <= tessera_l2_pkg::MaintNone;
      whole_q    <= 1'b0;
      lo_q       <= '0;
      hi_q       <= '0;
      wb_addr_q  <= '0;
      wb_data_q  <= '0;
      wb_strb_q  <= '0;
      outst_q    <= '0;
      err_q      <= '0;
      done_q     <= 1'b0;
      msg_en_q   <= 1'b0;
      msg_addr_q <= '0;
      msg_data_q <= '0;
    end else begin
      st_q   <= st_d;
      done_q <= 1'b0;
      if (go_i) begin
        err_q <= chk;
        if (chk != 4'd0) done_q <= 1'b1;
      end
      if (go_i && chk == 4'd0) begin
        idx_q      <= '0;
        op_q       <= op_i;
        whole_q    <= whole_i;
        lo_q       <= start_i;
        hi_q       <= end_i;
        msg_en_q   <= msg_en_i;
        msg_addr_q <= msg_addr_i;
        msg_data_q <= msg_data_i;
      end
      if (st_q == StWait && side_res_i && side_wb_i) begin
        wb_addr_q <= side_addr_i;
        wb_data_q <= side_rdata_i;
        wb_strb_q <= side_rmask_i;
      end
      if ((st_q == StWait && side_res_i && !side_busy_i && !side_wb_i) || push_fire) begin
        if (!last) idx_q <= idx_q + 1'b1;
      end
      outst_q <= outst_q + 8'(push_fire) - 8'(b_done_i);
      if (st_q == StDrain && st_d != StDrain) done_q <= 1'b1;
    end
  end

  // entry index = {set, way}; set = {lset, bank}
  logic [SetBits-1:0] set;
  assign set          = idx_q[IdxW-1:WayBits];
  assign side_req_o   = (st_q == StIssue);
  assign side_bank_o  = set[BankBits-1:0];
  assign side_lset_o  = set[SetBits-1:BankBits];
  assign side_way_o   = idx_q[WayBits-1:0];
  assign side_mop_o   = op_q;
  assign side_whole_o = whole_q;
  assign side_lo_o    = lo_q;
  assign side_hi_o    = hi_q;

  assign wq_req_o  = (st_q == StPush);
  assign wq_addr_o = wb_addr_q;
  assign wq_data_o = wb_data_q;
  assign wq_strb_o = wb_strb_q;
  assign wb_pend_o = (st_q == StPush);
  assign wb_line_o = wb_addr_q[31:6];

  assign busy_o     = (st_q != StIdle);
  assign done_o     = done_q;
  assign err_code_o = err_q;

  assign msg_valid_o = (st_q == StMsg);
  assign msg_addr_o  = msg_addr_q;
  assign msg_data_o  = msg_data_q;
endmodule
