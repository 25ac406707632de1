// Internal error slave of the AXI fabric. Serves every burst the crossbar
// cannot route to a memory channel:
//   * address outside [MemBase, MemBase+MemSize)         -> DECERR
//   * inside the window but crossing an interleave granule -> SLVERR
// Reads return arlen+1 beats of zero data with rlast on the final beat.
// Writes are accepted, all W beats up to wlast are drained, then one B is
// returned. One read and one write are handled at a time (independently).
module tessera_fabric_err_slv #(
  parameter int unsigned DataBits = 256,
  parameter int unsigned IdBits   = 8,
  parameter logic [31:0] MemBase  = 32'h8000_0000,
  parameter logic [31:0] MemSize  = 32'h4000_0000
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // write address / data / response
  input  logic [IdBits-1:0]   s_axi_awid_i,
  input  logic [31:0]         s_axi_awaddr_i,
  input  logic                s_axi_awvalid_i,
  output logic                s_axi_awready_o,
  input  logic                s_axi_wlast_i,
  input  logic                s_axi_wvalid_i,
  output logic                s_axi_wready_o,
  output logic [IdBits-1:0]   s_axi_bid_o,
  output logic [1:0]          s_axi_bresp_o,
  output logic                s_axi_bvalid_o,
  input  logic                s_axi_bready_i,
  // read address / data
  input  logic [IdBits-1:0]   s_axi_arid_i,
  input  logic [31:0]         s_axi_araddr_i,
  input  logic [7:0]          s_axi_arlen_i,
  input  logic                s_axi_arvalid_i,
  output logic                s_axi_arready_o,
  output logic [IdBits-1:0]   s_axi_rid_o,
  output logic [DataBits-1:0] s_axi_rdata_o,
  output logic [1:0]          s_axi_rresp_o,
  output logic                s_axi_rlast_o,
  output logic                s_axi_rvalid_o,
  input  logic                s_axi_rready_i
);

  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam logic [1:0] RespDecErr = 2'b11;

  function automatic logic [1:0] err_code(input logic [31:0] addr);
    logic in_win;
    in_win = (addr >= MemBase) && ({1'b0, addr} < ({1'b0, MemBase} + {1'b0, MemSize}));
    err_code = in_win ? RespSlvErr : RespDecErr;
  endfunction

  // ---------------------------------------------------------------- writes
  typedef enum logic [1:0] {WIdle, WData, WResp} wstate_e;
  wstate_e           wstate_q, wstate_d;
  logic [IdBits-1:0] bid_q, bid_d;
  logic [1:0]        bresp_q, bresp_d;

  assign s_axi_awready_o = (wstate_q == WIdle);
  assign s_axi_wready_o  = (wstate_q == WData);
  assign s_axi_bvalid_o  = (wstate_q == WResp);
  assign s_axi_bid_o     = bid_q;
  assign s_axi_bresp_o   = bresp_q;

  always_comb begin
    wstate_d = wstate_q;
    bid_d    = bid_q;
    bresp_d  = bresp_q;
    unique case (wstate_q)
      WIdle: begin
        if (s_axi_awvalid_i) begin
          wstate_d = WData;
          bid_d    = s_axi_awid_i;
          bresp_d  = err_code(s_axi_awaddr_i);
        end
      end
      WData: begin
        if (s_axi_wvalid_i && s_axi_wlast_i) begin
          wstate_d = WResp;
        end
      end
      WResp: begin
        if (s_axi_bready_i) begin
          wstate_d = WIdle;
        end
      end
      default: wstate_d = WIdle;
    endcase
  end

  // ---------------------------------------------------------------- reads
  logic              rbusy_q, rbusy_d;
  logic [IdBits-1:0] rid_q, rid_d;
  logic [1:0]        rresp_q, rresp_d;
  logic [7:0]        rlen_q, rlen_d;
  logic [7:0]        rcnt_q, rcnt_d;

  assign s_axi_arready_o = !rbusy_q;
  assign s_axi_rvalid_o  = rbusy_q;
  assign s_axi_rid_o     = rid_q;
  assign s_axi_rresp_o   = rresp_q;
  assign s_axi_rdata_o   = '0;
  assign s_axi_rlast_o   = (rcnt_q == rlen_q);

  always_comb begin
    rbusy_d = rbusy_q;
    rid_d   = rid_q;
    rresp_d = rresp_q;
    rlen_d  = rlen_q;
    rcnt_d  = rcnt_q;
    if (!rbusy_q) begin
      if (s_axi_arvalid_i) begin
        rbusy_d = 1'b1;
        rid_d   = s_axi_arid_i;
        rresp_d = err_code(s_axi_araddr_i);
        rlen_d  = s_axi_arlen_i;
        rcnt_d  = 8'd0;
      end
    end else if (s_axi_rready_i) begin
      if (s_axi_rlast_o) begin
        rbusy_d = 1'b0;
      end else begin
        rcnt_d = rcnt_q + 8'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wstate_q <= WIdle;
      bid_q    <= '0;
      bresp_q  <= RespDecErr;
      rbusy_q  <= 1'b0;
      rid_q    <= '0;
      rresp_q  <= RespDecErr;
      rlen_q   <= '0;
      rcnt_q   <= '0;
    end else begin
      wstate_q <= wstate_d;
      bid_q    <= bid_d;
      bresp_q  <= bresp_d;
      rbusy_q  <= rbusy_d;
      rid_q    <= rid_d;
      rresp_q  <= rresp_d;
      rlen_q   <= rlen_d;
      rcnt_q   <= rcnt_d;
    end
  end

endmodule
