// Tessera core iterative divider: DIV, DIVU, REM, REMU.
// Restoring division of the magnitudes, one quotient bit per cycle
// (start cycle + 32 iterations + 1 result cycle), then sign correction.
// Division by zero returns quotient all ones and remainder = dividend;
// INT_MIN / -1 returns quotient INT_MIN and remainder 0 (RISC-V spec).

module tessera_core_div (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,   // begin a division (ignored while busy)
  input  logic        kill_i,    // abandon the current division
  input  logic        ack_i,     // result consumed, return to idle
  input  logic [1:0]  op_i,      // funct3[1:0]: 00 div, 01 divu, 10 rem, 11 remu
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        idle_o,
  output logic        done_o,
  output logic [31:0] result_o
);

  localparam logic [1:0] StIdle = 2'd0;
  localparam logic [1:0] StBusy = 2'd1;
  localparam logic [1:0] StDone = 2'd2;

  logic [1:0]  state_q, state_d;
  logic [4:0]  cnt_q, cnt_d;
  logic [31:0] rem_q, rem_d;     // partial remainder
  logic [31:0] quo_q, quo_d;     // dividend shifting out / quotient shifting in
  logic [31:0] div_q, div_d;     // divisor magnitude
  logic [31:0] a_q, a_d;         // original dividend (for rem-by-zero)
  logic        neg_q_q, neg_q_d; // negate quotient
  logic        neg_r_q, neg_r_d; // negate remainder
  logic        zero_q, zero_d;   // divide by zero
  logic        rem_sel_q, rem_sel_d;

  logic        is_signed;
  logic        a_neg, b_neg;
  logic [32:0] trial;
  logic [31:0] shifted_rem;

  assign is_signed = ~op_i[0];
  assign a_neg     = is_signed & a_i[31];
  assign b_neg     = is_signed & b_i[31];

  assign shifted_rem = {rem_q[30:0], quo_q[31]};
  assign trial       = {rem_q, quo_q[31]} - {1'b0, div_q};

  always_comb begin
    state_d   = state_q;
    cnt_d     = cnt_q;
    rem_d     = rem_q;
    quo_d     = quo_q;
    div_d     = div_q;
    a_d       = a_q;
    neg_q_d   = neg_q_q;
    neg_r_d   = neg_r_q;
    zero_d    = zero_q;
    rem_sel_d = rem_sel_q;
    unique case (state_q)
      StIdle: begin
        if (start_i && !kill_i) begin
          state_d   = StBusy;
          cnt_d     = 5'd31;
          rem_d     = 32'd0;
          quo_d     = a_neg ? (32'd0 - a_i) : a_i;
          div_d     = b_neg ? (32'd0 - b_i) : b_i;
          a_d       = a_i;
          zero_d    = (b_i == 32'd0);
          neg_q_d   = a_neg ^ b_neg;
          neg_r_d   = a_neg;
          rem_sel_d = op_i[1];
        end
      end
      StBusy: begin
        if (!trial[32]) begin
          rem_d = trial[31:0];
          quo_d = {quo_q[30:0], 1'b1};
        end else begin
          rem_d = shifted_rem;
          quo_d = {quo_q[30:0], 1'b0};
        end
        cnt_d = cnt_q - 5'd1;
        if (cnt_q == 5'd0) begin
          state_d = StDone;
        end
      end
      StDone: begin
        if (ack_i) begin
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
    if (kill_i) begin
      state_d = StIdle;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      cnt_q     <= 5'd0;
      rem_q     <= 32'd0;
      quo_q     <= 32'd0;
      div_q     <= 32'd0;
      a_q       <= 32'd0;
      neg_q_q   <= 1'b0;
      neg_r_q   <= 1'b0;
      zero_q    <= 1'b0;
      rem_sel_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      cnt_q     <= cnt_d;
      rem_q     <= rem_d;
      quo_q     <= quo_d;
      div_q     <= div_d;
      a_q       <= a_d;
      neg_q_q   <= neg_q_d;
      neg_r_q   <= neg_r_d;
      zero_q    <= zero_d;
      rem_sel_q <= rem_sel_d;
    end
  end

  logic [31:0] quotient, remainder;
  always_comb begin
    if (zero_q) begin
      quotient  = 32'hFFFF_FFFF;
      remainder = a_q;
    end else begin
      quotient  = neg_q_q ? (32'd0 - quo_q) : quo_q;
      remainder = neg_r_q ? (32'd0 - rem_q) : rem_q;
    end
  end

  assign idle_o   = (state_q == StIdle);
  assign done_o   = (state_q == StDone);
  assign result_o = rem_sel_q ? remainder : quotient;

endmodule
