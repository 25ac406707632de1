// Internal error slave of the AXI fabric. Serves every burst the crossbar
// cannot route to a memory channel:
//   * address outside [MemBase, MemBase+MemSize)         -> DECERR
//   * inside the window but crossing an interleave granule -> SLVERR
// Reads return arlen+1 beats of zero data with rlast on the final beat.
// Writes are accepted, all W beats up to wlast are drained, then one B is
// returned. One read and one write are handled at a time (independently).
module tessera_fabric_err_slv #(
  parameter int unsigned IdBits   = 8,   // ID bits used (at most tessera_bus_pkg::MemIdBits)
  parameter logic [31:0] MemBase  = 32'h8000_0000,
  parameter logic [31:0] MemSize  = 32'h4000_0000
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  tessera_bus_pkg::axi_mem_req_t slv_req_i,
  output tessera_bus_pkg::axi_mem_rsp_t slv_rsp_o
);

  localparam int unsigned MemIdBits = tessera_bus_pkg::MemIdBits;

  // the request fields used, and the ones an error slave ignores
  logic [IdBits-1:0] awid, arid;
  logic [31:0]       awaddr, araddr;
  logic [7:0]        arlen;
  logic              awvalid, wlast, wvalid, bready;
  logic              arvalid, rready;
  logic              unused_req;
  assign awid    = slv_req_i.aw.id[IdBits-1:0];
  assign awaddr  = slv_req_i.aw.addr;
  assign awvalid = slv_req_i.aw_valid;
  assign wlast   = slv_req_i.w.last;
  assign wvalid  = slv_req_i.w_valid;
  assign bready  = slv_req_i.b_ready;
  assign arid    = slv_req_i.ar.id[IdBits-1:0];
  assign araddr  = slv_req_i.ar.addr;
  assign arlen   = slv_req_i.ar.len;
  assign arvalid = slv_req_i.ar_valid;
  assign rready  = slv_req_i.r_ready;
  assign unused_req = ^{slv_req_i.aw.len, slv_req_i.aw.size, slv_req_i.aw.burst,
                        slv_req_i.aw.cache, slv_req_i.aw.prot, slv_req_i.aw.qos,
                        slv_req_i.aw.user, slv_req_i.w.data, slv_req_i.w.strb, slv_req_i.w.user,
                        slv_req_i.ar.size, slv_req_i.ar.burst, slv_req_i.ar.cache,
                        slv_req_i.ar.prot, slv_req_i.ar.qos, slv_req_i.ar.user};
  if (IdBits < MemIdBits) begin : gen_unused_id
    logic unused_id;
    assign unused_id = ^{slv_req_i.aw.id[MemIdBits-1:IdBits], slv_req_i.ar.id[MemIdBits-1:IdBits]};
  end

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

  assign slv_rsp_o.aw_ready = (wstate_q == WIdle);
  assign slv_rsp_o.w_ready  = (wstate_q == WData);
  assign slv_rsp_o.b_valid  = (wstate_q == WResp);
  assign slv_rsp_o.b.id     = MemIdBits'(bid_q);
  assign slv_rsp_o.b.user   = '0;
  assign slv_rsp_o.b.resp   = bresp_q;

  always_comb begin
    wstate_d = wstate_q;
    bid_d    = bid_q;
    bresp_d  = bresp_q;
    unique case (wstate_q)
      WIdle: begin
        if (awvalid) begin
          wstate_d = WData;
          bid_d    = awid;
          bresp_d  = err_code(awaddr);
        end
      end
      WData: begin
        if (wvalid && wlast) begin
          wstate_d = WResp;
        end
      end
      WResp: begin
        if (bready) begin
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

  assign slv_rsp_o.ar_ready = !rbusy_q;
  assign slv_rsp_o.r_valid  = rbusy_q;
  assign slv_rsp_o.r.id      = MemIdBits'(rid_q);
  assign slv_rsp_o.r.user    = '0;
  assign slv_rsp_o.r.resp   = rresp_q;
  assign slv_rsp_o.r.data   = '0;
  assign slv_rsp_o.r.last   = (rcnt_q == rlen_q);

  always_comb begin
    rbusy_d = rbusy_q;
    rid_d   = rid_q;
    rresp_d = rresp_q;
    rlen_d  = rlen_q;
    rcnt_d  = rcnt_q;
    if (!rbusy_q) begin
      if (arvalid) begin
        rbusy_d = 1'b1;
        rid_d   = arid;
        rresp_d = err_code(araddr);
        rlen_d  = arlen;
        rcnt_d  = 8'd0;
      end
    end else if (rready) begin
      if (slv_rsp_o.r.last) begin
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
