// Engine message master: turns the completion messages of NumSrc engines
// (valid/ready, 32-bit address + data) into 32-bit writes on the system bus,
// round robin, one write outstanding (OBI contract). A write that fails
// (unmapped address, slave error) raises err_o for one cycle and is counted
// in the interrupt controller as "message error" (docs/interrupts.md).
module tessera_msg_master #(
  parameter int unsigned NumSrc = 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [NumSrc-1:0]        msg_valid_i,
  output logic [NumSrc-1:0]        msg_ready_o,
  input  logic [NumSrc-1:0][31:0]  msg_addr_i,
  input  logic [NumSrc-1:0][31:0]  msg_data_i,
  output tessera_bus_pkg::obi_req_t obi_req_o,
  input  tessera_bus_pkg::obi_rsp_t obi_rsp_i,
  output logic                     err_o
);
  localparam int unsigned SrcW = (NumSrc > 1) ? $clog2(NumSrc) : 1;

  logic            pending_q;  // a write is outstanding
  logic [SrcW-1:0] rr_q, winner;
  logic            found;

  always_comb begin
    found  = 1'b0;
    winner = '0;
    for (int unsigned k = 0; k < NumSrc; k++) begin
      logic [SrcW-1:0] s;
      s = SrcW'((int'(rr_q) + k) % NumSrc);
      if (!found && msg_valid_i[s]) begin
        found  = 1'b1;
        winner = s;
      end
    end
  end

  logic obi_req, obi_gnt, obi_rvalid, obi_err;
  assign obi_gnt    = obi_rsp_i.gnt;
  assign obi_rvalid = obi_rsp_i.rvalid;
  assign obi_err    = obi_rsp_i.err;

  logic can_issue;
  assign can_issue       = !pending_q || obi_rvalid;
  assign obi_req         = found && can_issue;
  assign obi_req_o.req   = obi_req;
  assign obi_req_o.addr  = msg_addr_i[winner];
  assign obi_req_o.wdata = msg_data_i[winner];
  assign obi_req_o.we    = 1'b1;
  assign obi_req_o.be    = 4'hF;

  always_comb begin
    msg_ready_o = '0;
    if (obi_req && obi_gnt) msg_ready_o[winner] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q <= 1'b0;
      rr_q      <= '0;
    end else begin
      if (obi_req && obi_gnt) begin
        pending_q <= 1'b1;
        rr_q      <= (int'(winner) == NumSrc - 1) ? '0 : winner + 1'b1;
      end else if (obi_rvalid) begin
        pending_q <= 1'b0;
      end
    end
  end

  assign err_o = pending_q && obi_rvalid && obi_err;

  logic unused_rdata;
  assign unused_rdata = ^obi_rsp_i.rdata;
endmodule
