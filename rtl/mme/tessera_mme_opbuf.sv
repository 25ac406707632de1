// MME operand buffer: Slots slots (double buffering or more) of Lanes lane memories, each
// Words x 256 bits. Word w of a lane holds elements k = w*E .. w*E+E-1 of that lane
// (E = 32 / element bytes), packed little-endian. One write per lane per cycle
// with byte enables (all writing lanes share the word address); one synchronous
// read of the same word address in every lane per cycle. Maps to one simple
// dual-port RAM with byte enables per lane and slot.
module tessera_mme_opbuf #(
  parameter int unsigned Lanes = 16,
  parameter int unsigned Words = 64,
  parameter int unsigned Slots = 2,
  localparam int unsigned AW   = $clog2(Words),
  localparam int unsigned SW   = $clog2(Slots)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // write port
  input  logic [SW-1:0]               wslot_i,
  input  logic [AW-1:0]               waddr_i,
  input  logic [Lanes-1:0][31:0]      wbe_i,     // byte enables per lane (0: no write)
  input  logic [Lanes-1:0][255:0]     wdata_i,
  // read port (data valid the cycle after)
  input  logic                        re_i,
  input  logic [SW-1:0]               rslot_i,
  input  logic [AW-1:0]               raddr_i,
  output logic [Lanes-1:0][255:0]     rdata_o
);
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [255:0] mem_q [Slots*Words];
    logic [255:0] rd_q;

    always_ff @(posedge clk_i) begin
      for (int unsigned b = 0; b < 32; b++) begin
        if (wbe_i[l][b]) mem_q[{wslot_i, waddr_i}][b*8 +: 8] <= wdata_i[l][b*8 +: 8];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q <= '0;
      end else if (re_i) begin
        rd_q <= mem_q[{rslot_i, raddr_i}];
      end
    end

    assign rdata_o[l] = rd_q;
  end

endmodule
