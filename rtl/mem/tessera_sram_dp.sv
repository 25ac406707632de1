// Dual-ported on-chip SRAM for the management core.
// Port A: instruction fetch (read only). Port B: system bus (read/write, byte enables).
// Both ports speak OBI (tessera_bus_pkg::obi_req_t/obi_rsp_t): always granted, response
// one cycle after the request, never an error; port A ignores we, be and wdata.
// Maps to a true dual-port block RAM on FPGAs (one write port).
module tessera_sram_dp #(
  parameter int unsigned Bytes = 65536
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // port A: fetch
  input  tessera_bus_pkg::obi_req_t a_req_i,
  output tessera_bus_pkg::obi_rsp_t a_rsp_o,
  // port B: data
  input  tessera_bus_pkg::obi_req_t b_req_i,
  output tessera_bus_pkg::obi_rsp_t b_rsp_o
);
  localparam int unsigned Words = Bytes / 4;
  localparam int unsigned Aw    = $clog2(Words);

  logic [31:0] mem_q [Words];

  logic [Aw-1:0] a_idx, b_idx;
  logic        a_req, b_req, b_we;
  logic [3:0]  b_be;
  logic [31:0] b_wdata;
  logic [31:0] a_rdata_q, b_rdata_q;
  logic        a_rvalid_q, b_rvalid_q;
  assign a_req   = a_req_i.req;
  assign b_req   = b_req_i.req;
  assign b_we    = b_req_i.we;
  assign b_be    = b_req_i.be;
  assign b_wdata = b_req_i.wdata;
  assign a_idx   = a_req_i.addr[Aw+1:2];
  assign b_idx   = b_req_i.addr[Aw+1:2];

  always_ff @(posedge clk_i) begin
    if (a_req) begin
      a_rdata_q <= mem_q[a_idx];
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_req) begin
      if (b_we) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (b_be[i]) begin
            mem_q[b_idx][8*i +: 8] <= b_wdata[8*i +: 8];
          end
        end
      end else begin
        b_rdata_q <= mem_q[b_idx];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_rvalid_q <= 1'b0;
      b_rvalid_q <= 1'b0;
    end else begin
      a_rvalid_q <= a_req;
      b_rvalid_q <= b_req;
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

  // Only the index bits select a word; the rest of the address is decoded upstream.
  logic unused_req;
  assign unused_req = ^{a_req_i.addr[31:Aw+2], a_req_i.addr[1:0], a_req_i.we, a_req_i.be,
                        a_req_i.wdata, b_req_i.addr[31:Aw+2], b_req_i.addr[1:0]};
endmodule
