// Dual-ported on-chip SRAM for the management core.
// Port A: instruction fetch (read only). Port B: system bus (read/write, byte enables).
// Both ports speak OBI: always granted, response one cycle after the request.
// Maps to a true dual-port block RAM on FPGAs (one write port).
module tessera_sram_dp #(
  parameter int unsigned Bytes = 65536
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // port A: fetch
  input  logic        a_req_i,
  input  logic [31:0] a_addr_i,
  output logic        a_rvalid_o,
  output logic [31:0] a_rdata_o,
  // port B: data
  input  logic        b_req_i,
  input  logic [31:0] b_addr_i,
  input  logic        b_we_i,
  input  logic [3:0]  b_be_i,
  input  logic [31:0] b_wdata_i,
  output logic        b_rvalid_o,
  output logic [31:0] b_rdata_o
);
  localparam int unsigned Words = Bytes / 4;
  localparam int unsigned Aw    = $clog2(Words);

  logic [31:0] mem_q [Words];

  logic [Aw-1:0] a_idx, b_idx;
  assign a_idx = a_addr_i[Aw+1:2];
  assign b_idx = b_addr_i[Aw+1:2];

  always_ff @(posedge clk_i) begin
    if (a_req_i) begin
      a_rdata_o <= mem_q[a_idx];
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_req_i) begin
      if (b_we_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (b_be_i[i]) begin
            mem_q[b_idx][8*i +: 8] <= b_wdata_i[8*i +: 8];
          end
        end
      end else begin
        b_rdata_o <= mem_q[b_idx];
      end
    end
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

  // Only the index bits select a word; the rest of the address is decoded upstream.
  logic unused_addr;
  assign unused_addr = ^{a_addr_i[31:Aw+2], a_addr_i[1:0], b_addr_i[31:Aw+2], b_addr_i[1:0]};
endmodule
