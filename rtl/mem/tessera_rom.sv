// Boot ROM with two read ports (fetch and data), initialised from a hex file
// ($readmemh, one 32-bit word per line) at elaboration time.
module tessera_rom #(
  parameter int unsigned Bytes    = 16384,
  parameter              InitFile = ""
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        a_req_i,
  input  logic [31:0] a_addr_i,
  output logic        a_rvalid_o,
  output logic [31:0] a_rdata_o,
  input  logic        b_req_i,
  input  logic [31:0] b_addr_i,
  output logic        b_rvalid_o,
  output logic [31:0] b_rdata_o
);
  localparam int unsigned Words = Bytes / 4;
  localparam int unsigned Aw    = $clog2(Words);

  logic [31:0] mem_q [Words];

  initial begin
    if (InitFile != "") begin
      $readmemh(InitFile, mem_q);
    end
  end

  always_ff @(posedge clk_i) begin
    if (a_req_i) a_rdata_o <= mem_q[a_addr_i[Aw+1:2]];
  end
  always_ff @(posedge clk_i) begin
    if (b_req_i) b_rdata_o <= mem_q[b_addr_i[Aw+1:2]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_rvalid_o <= 1'b0;
      b_rvalid_o <= 1'b0;
    end else begin
      a_rvalid_o <= a_req_i;
      b_rvalid_o <= b_req_i;
    end
  end

  logic unused_addr;
  assign unused_addr = ^{a_addr_i[31:Aw+2], a_addr_i[1:0], b_addr_i[31:Aw+2], b_addr_i[1:0]};
endmodule
