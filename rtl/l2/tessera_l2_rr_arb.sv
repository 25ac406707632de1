// Round-robin arbiter: one-hot grant among N requesters. The priority pointer moves past
// the winner when advance_i is high (the grant was used).
module tessera_l2_rr_arb #(
  parameter int unsigned N  = 4,
  parameter int unsigned IW = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [N-1:0]  req_i,
  input  logic          advance_i,
  output logic [N-1:0]  gnt_o,
  output logic [IW-1:0] idx_o
);
  logic [IW-1:0] ptr_q, ptr_d;
  logic          found;
  logic [IW:0]   j;

  always_comb begin
    gnt_o = '0;
    idx_o = '0;
    found = 1'b0;
    j     = '0;
    for (int unsigned k = 0; k < N; k++) begin
      j = {1'b0, ptr_q} + (IW+1)'(k);
      if (32'(j) >= N) j = j - (IW+1)'(N);
      if (!found && req_i[j[IW-1:0]]) begin
        found               = 1'b1;
        gnt_o[j[IW-1:0]]    = 1'b1;
        idx_o               = j[IW-1:0];
      end
    end
    ptr_d = ptr_q;
    if (advance_i && found) ptr_d = (32'(idx_o) + 1 == N) ? '0 : IW'(32'(idx_o) + 1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end
endmodule
