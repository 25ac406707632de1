// Reduction datapath of the NIC responder (docs/nic.md "Reduction on receive",
// docs/numerics.md "NIC reduction"): one 32-byte beat per cycle, the destination
// beat read from memory combined element by element with the payload beat,
// r = dst (op) src, on 8 FP32 or 16 BF16 little-endian lanes.
//   op 1 sum  FP32: IEEE binary32 addition, round to nearest even (the TPC's
//             tessera_tpc_fadd); BF16: both widened to FP32, the FP32 sum,
//             rounded to nearest even to BF16
//   op 2 min, op 3 max: NaN if either operand is NaN, -0 < +0
//   op 0      the payload beat unchanged
// Any NaN result is the canonical NaN (0x7FC00000, 0x7FC0); subnormals are kept.
// The strobes and a last flag travel with the beat. Two stages: registered
// operands, then the adders, comparators and BF16 rounding into the result
// register; the results leave through a two-entry FIFO. in_ready_o depends only
// on registers (not on out_ready_i), so the responder's R ready never follows
// the W ready combinationally; one beat a cycle when the output is not held.
module tessera_nic_reduce (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [1:0]   op_i,
  input  logic         bf16_i,
  input  logic [255:0] dst_i,
  input  logic [255:0] src_i,
  input  logic [31:0]  strb_i,
  input  logic         last_i,
  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [255:0] out_data_o,
  output logic [31:0]  out_strb_o,
  output logic         out_last_o
);

  localparam logic [1:0] OpSum = 2'd1;
  localparam logic [1:0] OpMin = 2'd2;
  localparam logic [1:0] OpMax = 2'd3;

  // ---- stage 1: operands
  logic         s1_valid_q;
  logic [1:0]   s1_op_q;
  logic         s1_bf16_q;
  logic [255:0] s1_dst_q, s1_src_q;
  logic [31:0]  s1_strb_q;
  logic         s1_last_q;
  // ---- stage 2: result
  logic         s2_valid_q;
  logic [255:0] s2_data_q;
  logic [31:0]  s2_strb_q;
  logic         s2_last_q;

  // ---- output FIFO
  logic of_full, of_empty;

  logic s2_en, s1_en;
  assign s2_en      = !s2_valid_q || !of_full;
  assign s1_en      = !s1_valid_q || s2_en;
  assign in_ready_o = s1_en;

  // FP32 x < y for non-NaN operands, -0 < +0
  function automatic logic flt(logic [31:0] x, logic [31:0] y);
    logic [31:0] kx, ky;
    kx = x[31] ? ~x : (x | 32'h8000_0000);
    ky = y[31] ? ~y : (y | 32'h8000_0000);
    flt = kx < ky;
  endfunction

  function automatic logic is_nan(logic [30:0] x);   // the magnitude bits of an FP32 value
    is_nan = x[30:23] == 8'hff && x[22:0] != 23'd0;
  endfunction

  // FP32 to BF16, round to nearest even; NaN to the canonical BF16 NaN
  function automatic logic [15:0] to_bf16(logic [31:0] x);
    logic [15:0] r;
    r = 16'((x + 32'h0000_7fff + {31'd0, x[16]}) >> 16);
    to_bf16 = is_nan(x[30:0]) ? 16'h7fc0 : r;
  endfunction

  // ---- 16 lanes of FP32 operands: lane k is FP32 element k (k < 8) or the widened BF16 element k
  logic [15:0][31:0] a, b, sum, res;
  for (genvar k = 0; k < 16; k++) begin : g_lane
    if (k < 8) begin : g_wide
      assign a[k] = s1_bf16_q ? {s1_dst_q[16*k +: 16], 16'd0} : s1_dst_q[32*k +: 32];
      assign b[k] = s1_bf16_q ? {s1_src_q[16*k +: 16], 16'd0} : s1_src_q[32*k +: 32];
    end else begin : g_bf16
      assign a[k] = {s1_dst_q[16*k +: 16], 16'd0};
      assign b[k] = {s1_src_q[16*k +: 16], 16'd0};
    end
    tessera_tpc_fadd u_add (
      .a_i(a[k]),
      .b_i(b[k]),
      .r_o(sum[k])
    );
    // min: the payload when it is below the destination; max: when it is above
    assign res[k] = s1_op_q == OpSum ? sum[k] :
                    is_nan(a[k][30:0]) || is_nan(b[k][30:0]) ? 32'h7fc0_0000 :
                    s1_op_q == OpMin ? (flt(b[k], a[k]) ? b[k] : a[k]) :
                    s1_op_q == OpMax ? (flt(a[k], b[k]) ? b[k] : a[k]) : b[k];
  end

  logic [255:0] data;
  always_comb begin
    data = s1_src_q;
    if (s1_op_q != 2'd0) begin
      for (int unsigned k = 0; k < 16; k++) begin
        if (s1_bf16_q) data[16*k +: 16] = to_bf16(res[k]);
        else if (k < 8) data[32*k +: 32] = res[k];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s1_op_q    <= '0;
      s1_bf16_q  <= 1'b0;
      s1_dst_q   <= '0;
      s1_src_q   <= '0;
      s1_strb_q  <= '0;
      s1_last_q  <= 1'b0;
      s2_valid_q <= 1'b0;
      s2_data_q  <= '0;
      s2_strb_q  <= '0;
      s2_last_q  <= 1'b0;
    end else begin
      if (s1_en) begin
        s1_valid_q <= in_valid_i;
        if (in_valid_i) begin
          s1_op_q   <= op_i;
          s1_bf16_q <= bf16_i;
          s1_dst_q  <= dst_i;
          s1_src_q  <= src_i;
          s1_strb_q <= strb_i;
          s1_last_q <= last_i;
        end
      end
      if (s2_en) begin
        s2_valid_q <= s1_valid_q;
        if (s1_valid_q) begin
          s2_data_q <= data;
          s2_strb_q <= s1_strb_q;
          s2_last_q <= s1_last_q;
        end
      end
    end
  end

  tessera_fifo #(.Width(256 + 32 + 1), .Depth(2)) u_out (
    .clk_i,
    .rst_ni,
    .push_i (s2_valid_q && !of_full),
    .data_i ({s2_last_q, s2_strb_q, s2_data_q}),
    .pop_i  (out_ready_i),
    .data_o ({out_last_o, out_strb_o, out_data_o}),
    .full_o (of_full),
    .empty_o(of_empty)
  );
  assign out_valid_o = !of_empty;

endmodule
