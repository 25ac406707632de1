// Tessera MME: fetch cursor. Walks the AXI read bursts of one operand panel (rows of
// `rows_i` 32-byte-aligned segments, `stride_i` bytes apart, beats 0..lastb_i each) and
// offers one burst at a time. Two orders:
//   row order    (cm_i = 0): each row in bursts of up to 8 beats, split at 256-byte
//                boundaries (so a burst never crosses an L2 block);
//   column order (cm_i = 1): one-beat bursts, beat j of every row, then beat j + 1.
// Used by port A (A panels and init tiles) and port B (B panels) of tessera_mme; the
// caller keeps `cm_i`, `rows_i`, `lastb_i` and `stride_i` stable while a panel is walked.
module tessera_mme_fcur (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        load_i,     // start a panel at row 0, beat 0 (has priority over issue_i)
  input  logic [31:0] addr_i,     // 32-byte-aligned address of row 0's first beat
  input  logic        issue_i,    // the burst offered now was accepted
  input  logic        cm_i,
  input  logic [19:0] rows_i,
  input  logic [7:0]  lastb_i,
  input  logic [31:0] stride_i,
  output logic [31:0] ar_addr_o,  // the burst offered now
  output logic [3:0]  blen_o,     // its beats (1..8)
  output logic        row_end_o,  // (row order) it holds its row's last beat
  output logic        last_o,     // it is the panel's last burst
  output logic        done_o,     // every burst of the panel was issued
  output logic [19:0] row_o,      // its row
  output logic [7:0]  beat_o      // its first beat within the row
);
  logic [19:0] r_q;
  logic [7:0]  beat_q;
  logic [31:0] row_addr_q, col0_q;
  logic [3:0]  to_bound, to_end;

  always_comb begin
    ar_addr_o = row_addr_q + (32'(beat_q) << 5);
    to_bound  = 4'd8 - 4'(ar_addr_o[7:5]);
    to_end    = ((lastb_i - beat_q) >= 8'd7) ? 4'd8 : 4'(lastb_i - beat_q + 8'd1);
    blen_o    = cm_i ? 4'd1 : ((to_end < to_bound) ? to_end : to_bound);
    row_end_o = beat_q + 8'(blen_o) > lastb_i;
    last_o    = cm_i ? ((r_q + 20'd1 >= rows_i) && (beat_q >= lastb_i))
                     : (row_end_o && (r_q + 20'd1 >= rows_i));
    done_o    = cm_i ? (beat_q > lastb_i) : (r_q >= rows_i);
  end
  assign row_o  = r_q;
  assign beat_o = beat_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_q <= '0; beat_q <= '0; row_addr_q <= '0; col0_q <= '0;
    end else if (load_i) begin
      r_q <= '0; beat_q <= '0; row_addr_q <= addr_i; col0_q <= addr_i;
    end else if (issue_i) begin
      if (cm_i) begin
        if (r_q + 20'd1 >= rows_i) begin
          r_q        <= '0;
          beat_q     <= beat_q + 8'd1;
          row_addr_q <= col0_q;
        end else begin
          r_q        <= r_q + 20'd1;
          row_addr_q <= row_addr_q + stride_i;
        end
      end else if (row_end_o) begin
        r_q        <= r_q + 20'd1;
        beat_q     <= '0;
        row_addr_q <= row_addr_q + stride_i;
      end else begin
        beat_q <= beat_q + 8'(blen_o);
      end
    end
  end
endmodule
