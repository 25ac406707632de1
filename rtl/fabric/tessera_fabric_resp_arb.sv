// Response-channel multiplexer (R or B) for one AXI master port of the fabric.
// Picks one of NumIn responders round-robin and stays on it until the beat
// with last_i set has been handed over, so bursts are never interleaved and
// valid/payload stay stable while the master back-pressures. Combinational
// data path (no added latency, one beat per cycle).
module tessera_fabric_resp_arb #(
  parameter int unsigned NumIn   = 2,
  parameter int unsigned Width   = 8,
  parameter int unsigned IdxBits = (NumIn > 1) ? $clog2(NumIn) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumIn-1:0]            req_i,    // valid and addressed to this port
  input  logic [NumIn-1:0]            last_i,
  input  logic [NumIn-1:0][Width-1:0] data_i,
  output logic [NumIn-1:0]            ready_o,
  output logic                        valid_o,
  output logic                        last_o,
  output logic [Width-1:0]            data_o,
  input  logic                        ready_i
);

  logic               busy_q, busy_d;
  logic [IdxBits-1:0] sel_q, sel_d;
  logic [NumIn-1:0]   arb_gnt;
  logic [IdxBits-1:0] arb_idx;
  logic [IdxBits-1:0] sel;
  logic               hs;

  tessera_fabric_rr_arb #(
    .N       (NumIn),
    .IdxBits (IdxBits)
  ) u_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (req_i),
    .ack_i  (!busy_q),
    .gnt_o  (arb_gnt),
    .idx_o  (arb_idx)
  );

  assign sel = busy_q ? sel_q : arb_idx;

  always_comb begin
    valid_o = 1'b0;
    last_o  = 1'b0;
    data_o  = '0;
    for (int unsigned i = 0; i < NumIn; i++) begin
      if (sel == IdxBits'(i)) begin
        valid_o = req_i[i];
        last_o  = last_i[i];
        data_o  = data_i[i];
      end
    end
  end

  assign hs = valid_o && ready_i;

  always_comb begin
    ready_o = '0;
    for (int unsigned i = 0; i < NumIn; i++) begin
      ready_o[i] = ready_i && (sel == IdxBits'(i)) && (busy_q || arb_gnt[i]);
    end
  end

  always_comb begin
    busy_d = busy_q;
    sel_d  = sel_q;
    if (!busy_q) begin
      if (valid_o && !(hs && last_o)) begin
        busy_d = 1'b1;
        sel_d  = arb_idx;
      end
    end else if (hs && last_o) begin
      busy_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      sel_q  <= '0;
    end else begin
      busy_q <= busy_d;
      sel_q  <= sel_d;
    end
  end

endmodule
