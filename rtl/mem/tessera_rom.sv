// Boot ROM with two read ports (fetch and data), initialised from a hex file
// ($readmemh, one 32-bit word per line) at elaboration time. Both ports are OBI
// (tessera_bus_pkg::obi_req_t/obi_rsp_t): always granted, response one cycle after
// the request, never an error; writes are not routed here (the system bus answers
// them with an error), so we, be and wdata are unused.
module tessera_rom #(
  parameter int unsigned Bytes    = 16384,
  parameter              InitFile = ""
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::obi_req_t a_req_i,   // fetch
  output tessera_bus_pkg::obi_rsp_t a_rsp_o,
  input  tessera_bus_pkg::obi_req_t b_req_i,   // data
  output tessera_bus_pkg::obi_rsp_t b_rsp_o
);
  localparam int unsigned Words = Bytes / 4;
  localparam int unsigned Aw    = $clog2(Words);

  logic [31:0] mem_q [Words];
  logic [31:0] a_rdata_q, b_rdata_q;
  logic        a_rvalid_q, b_rvalid_q;

  initial begin
    if (InitFile != "") begin
      $readmemh(InitFile, mem_q);
    end
  end

  always_ff @(posedge clk_i) begin
    if (a_req_i.req) a_rdata_q <= mem_q[a_req_i.addr[Aw+1:2]];
  end
  always_ff @(posedge clk_i) begin
    if (b_req_i.req) b_rdata_q <= mem_q[b_req_i.addr[Aw+1:2]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_rvalid_q <= 1'b0;
      b_rvalid_q <= 1'b0;
    end else begin
      a_rvalid_q <= a_req_i.req;
      b_rvalid_q <= b_req_i.req;
    end
  end

  assign a_rsp_o.gnt    = 1'b1;
  assign a_rsp_o.rvalid = a_rvalid_q;
  assign a_rsp_o.rdata  = a_rdata_q;
  assign a_rsp_o.err    = 1'b0;
  assign b_rsp_o.gnt    = 1'b1;
  assign b_rsp_o.rvalid = b_rvalid_q;
  assign b_rsp_o.rdata  = b_rdata_q;
  assign b_rsp_o.err    = 1'b0;

  // only the index bits select a word (the rest is decoded upstream); no writes
  logic unused_req;
  assign unused_req = ^{a_req_i.addr[31:Aw+2], a_req_i.addr[1:0], a_req_i.we, a_req_i.be,
                        a_req_i.wdata, b_req_i.addr[31:Aw+2], b_req_i.addr[1:0], b_req_i.we,
                        b_req_i.be, b_req_i.wdata};
endmodule
