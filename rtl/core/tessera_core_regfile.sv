// Tessera core register file: 31 x 32-bit flip-flops (x0 reads as zero),
// two asynchronous read ports, one write port, write-through to the reads
// (a value written this cycle is visible to a read in the same cycle).

module tessera_core_regfile (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [4:0]  raddr_a_i,
  output logic [31:0] rdata_a_o,
  input  logic [4:0]  raddr_b_i,
  output logic [31:0] rdata_b_o,
  input  logic        we_i,
  input  logic [4:0]  waddr_i,
  input  logic [31:0] wdata_i
);

  logic [31:0][31:0] regs_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      regs_q <= '0;
    end else if (we_i && waddr_i != 5'd0) begin
      regs_q[waddr_i] <= wdata_i;
    end
  end

  always_comb begin
    if (raddr_a_i == 5'd0) begin
      rdata_a_o = 32'd0;
    end else if (we_i && waddr_i == raddr_a_i) begin
      rdata_a_o = wdata_i;
    end else begin
      rdata_a_o = regs_q[raddr_a_i];
    end
    if (raddr_b_i == 5'd0) begin
      rdata_b_o = 32'd0;
    end else if (we_i && waddr_i == raddr_b_i) begin
      rdata_b_o = wdata_i;
    end else begin
      rdata_b_o = regs_q[raddr_b_i];
    end
  end

endmodule
