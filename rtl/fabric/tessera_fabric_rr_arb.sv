// Round-robin arbiter: grants the first requester after the one granted last
// (combinational grant), and moves its pointer when ack_i confirms the grant.
module tessera_fabric_rr_arb #(
  parameter int unsigned N       = 2,
  parameter int unsigned IdxBits = (N > 1) ? $clog2(N) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [N-1:0]       req_i,
  input  logic               ack_i,
  output logic [N-1:0]       gnt_o,
  output logic [IdxBits-1:0] idx_o
);

  logic [IdxBits-1:0] last_q;
  logic               found;

  always_comb begin
    gnt_o = '0;
    idx_o = '0;
    found = 1'b0;
    // first choice: requesters with a higher index than the last winner
    for (int unsigned i = 0; i < N; i++) begin
      if (!found && req_i[i] && (IdxBits'(i) > last_q)) begin
        found    = 1'b1;
        gnt_o[i] = 1'b1;
        idx_o    = IdxBits'(i);
      end
    end
    // otherwise wrap around to the lowest index
    for (int unsigned i = 0; i < N; i++) begin
      if (!found && req_i[i]) begin
        found    = 1'b1;
        gnt_o[i] = 1'b1;
        idx_o    = IdxBits'(i);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxBits'(N - 1);
    end else if (ack_i && found) begin
      last_q <= idx_o;
    end
  end

endmodule
