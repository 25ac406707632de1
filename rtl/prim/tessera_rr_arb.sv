// Round-robin arbiter: one-hot grant among N requesters (combinational). The search
// starts at the requester after the one granted last; the pointer moves past the
// winner only when ack_i confirms that the grant was used.
module tessera_rr_arb #(
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
  logic [IdxBits-1:0] ptr_q;   // first requester to look at
  logic               found;
  logic [IdxBits:0]   j;

  always_comb begin
    gnt_o = '0;
    idx_o = '0;
    found = 1'b0;
    j     = '0;
    for (int unsigned k = 0; k < N; k++) begin
      j = {1'b0, ptr_q} + (IdxBits+1)'(k);
      if (32'(j) >= N) j = j - (IdxBits+1)'(N);
      if (!found && req_i[j[IdxBits-1:0]]) begin
        found                 = 1'b1;
        gnt_o[j[IdxBits-1:0]] = 1'b1;
        idx_o                 = j[IdxBits-1:0];
      end
    end
  end

  // the pointer update is a block of its own: ack_i may depend on gnt_o combinationally
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else if (ack_i && found) begin
      ptr_q <= (32'(idx_o) + 1 == N) ? '0 : IdxBits'(32'(idx_o) + 1);
    end
  end
endmodule
