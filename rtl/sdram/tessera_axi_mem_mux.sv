// Two-to-one AXI4 mux of the memory-side flavour (tessera_bus_pkg::axi_mem_req_t /
// axi_mem_rsp_t): two managers (the ulx3s shape's two device-memory channels) share one
// subordinate (the SDRAM controller). docs/sdram.md "Channel mux".
//
//  * AR and AW are arbitrated separately, round robin (the port that did not win last
//    goes first when both wait). A granted request stays on the output until its
//    handshake, so the output keeps AXI's valid/payload stability.
//  * A write owns the write path from its AW grant until both its AW and its last W beat
//    have been handed over: the W beats come only from the owner's port, and the next AW
//    is not granted before, so AW and W of one burst stay together (W may go out before,
//    with or after its AW).
//  * IDs pass through unchanged. Responses are routed in order: a FIFO per direction
//    holds the port of every accepted, unanswered burst (pushed at the AR / AW
//    handshake, popped at the last R beat / the B). This needs a subordinate that answers
//    reads in AR order and writes in AW order whatever the IDs, as tessera_sdram_ctrl
//    does. MaxTxns bursts per direction may be outstanding; further AR / AW wait.
module tessera_axi_mem_mux #(
  parameter int unsigned MaxTxns = 8   // outstanding bursts per direction (power of two)
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // managers (Yosys reads an array of these structs wrongly: flat elements, see
  // tessera_bus_pkg)
  input  logic [1:0][tessera_bus_pkg::AxiMemReqBits-1:0]        slv_req_i,
  output logic [1:0][tessera_bus_pkg::AxiMemRspBits-1:0]        slv_rsp_o,
  // subordinate
  output tessera_bus_pkg::axi_mem_req_t                         mst_req_o,
  input  tessera_bus_pkg::axi_mem_rsp_t                         mst_rsp_i
);

  tessera_bus_pkg::axi_mem_req_t req0, req1;
  tessera_bus_pkg::axi_mem_rsp_t rsp0, rsp1;
  assign req0         = slv_req_i[0];
  assign req1         = slv_req_i[1];
  assign slv_rsp_o[0] = rsp0;
  assign slv_rsp_o[1] = rsp1;

  // ---------------------------------------------------------------- read address
  logic ar_busy_q, ar_port_q, ar_prio_q;   // a granted AR waits for its handshake
  logic ar_port, ar_req, ar_hs;
  logic r_full, r_empty, r_port, r_pop;

  always_comb begin
    ar_port = ar_port_q;
    ar_req  = ar_busy_q;
    if (!ar_busy_q) begin
      ar_req = (req0.ar_valid || req1.ar_valid) && !r_full;
      if (req0.ar_valid && req1.ar_valid) ar_port = ar_prio_q;
      else                                ar_port = req1.ar_valid;
    end
  end
  assign ar_hs = ar_req && mst_rsp_i.ar_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_busy_q <= 1'b0;
      ar_port_q <= 1'b0;
      ar_prio_q <= 1'b0;
    end else begin
      ar_busy_q <= ar_req && !ar_hs;
      if (ar_req) ar_port_q <= ar_port;
      if (ar_hs)  ar_prio_q <= !ar_port;
    end
  end

  tessera_fifo #(.Width(1), .Depth(MaxTxns)) u_r_fifo (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .push_i (ar_hs),
    .data_i (ar_port),
    .pop_i  (r_pop),
    .data_o (r_port),
    .full_o (r_full),
    .empty_o(r_empty)
  );
  assign r_pop = mst_rsp_i.r_valid && mst_req_o.r_ready && mst_rsp_i.r.last;

  // ---------------------------------------------------------------- write address and data
  logic w_busy_q, w_port_q, w_prio_q, aw_done_q, wl_done_q;
  logic w_port, w_own, aw_req, aw_hs, wl_hs;
  logic b_full, b_empty, b_port, b_pop;

  always_comb begin
    w_port = w_port_q;
    w_own  = w_busy_q;
    if (!w_busy_q) begin
      w_own = (req0.aw_valid || req1.aw_valid) && !b_full;
      if (req0.aw_valid && req1.aw_valid) w_port = w_prio_q;
      else                                w_port = req1.aw_valid;
    end
  end
  assign aw_req = w_own && !aw_done_q;
  assign aw_hs  = aw_req && mst_rsp_i.aw_ready;
  assign wl_hs  = w_own && !wl_done_q && mst_rsp_i.w_ready && mst_req_o.w.last &&
                  mst_req_o.w_valid;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_busy_q  <= 1'b0;
      w_port_q  <= 1'b0;
      w_prio_q  <= 1'b0;
      aw_done_q <= 1'b0;
      wl_done_q <= 1'b0;
    end else if (w_own) begin
      if ((aw_done_q || aw_hs) && (wl_done_q || wl_hs)) begin
        w_busy_q  <= 1'b0;
        aw_done_q <= 1'b0;
        wl_done_q <= 1'b0;
        w_prio_q  <= !w_port;
      end else begin
        w_busy_q  <= 1'b1;
        w_port_q  <= w_port;
        aw_done_q <= aw_done_q || aw_hs;
        wl_done_q <= wl_done_q || wl_hs;
      end
    end
  end

  tessera_fifo #(.Width(1), .Depth(MaxTxns)) u_b_fifo (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .push_i (aw_hs),
    .data_i (w_port),
    .pop_i  (b_pop),
    .data_o (b_port),
    .full_o (b_full),
    .empty_o(b_empty)
  );
  assign b_pop = mst_rsp_i.b_valid && mst_req_o.b_ready;

  // ---------------------------------------------------------------- output request
  always_comb begin
    mst_req_o          = '0;
    mst_req_o.ar       = ar_port ? req1.ar : req0.ar;
    mst_req_o.ar_valid = ar_req;
    mst_req_o.aw       = w_port ? req1.aw : req0.aw;
    mst_req_o.aw_valid = aw_req;
    mst_req_o.w        = w_port ? req1.w : req0.w;
    mst_req_o.w_valid  = w_own && !wl_done_q && (w_port ? req1.w_valid : req0.w_valid);
    mst_req_o.r_ready  = !r_empty && (r_port ? req1.r_ready : req0.r_ready);
    mst_req_o.b_ready  = !b_empty && (b_port ? req1.b_ready : req0.b_ready);
  end

  // ---------------------------------------------------------------- responses to the ports
  always_comb begin
    rsp0          = '0;
    rsp1          = '0;
    rsp0.r        = mst_rsp_i.r;
    rsp1.r        = mst_rsp_i.r;
    rsp0.b        = mst_rsp_i.b;
    rsp1.b        = mst_rsp_i.b;
    rsp0.ar_ready = ar_req && !ar_port && mst_rsp_i.ar_ready;
    rsp1.ar_ready = ar_req &&  ar_port && mst_rsp_i.ar_ready;
    rsp0.aw_ready = aw_req && !w_port && mst_rsp_i.aw_ready;
    rsp1.aw_ready = aw_req &&  w_port && mst_rsp_i.aw_ready;
    rsp0.w_ready  = w_own && !wl_done_q && !w_port && mst_rsp_i.w_ready;
    rsp1.w_ready  = w_own && !wl_done_q &&  w_port && mst_rsp_i.w_ready;
    rsp0.r_valid  = mst_rsp_i.r_valid && !r_empty && !r_port;
    rsp1.r_valid  = mst_rsp_i.r_valid && !r_empty &&  r_port;
    rsp0.b_valid  = mst_rsp_i.b_valid && !b_empty && !b_port;
    rsp1.b_valid  = mst_rsp_i.b_valid && !b_empty &&  b_port;
  end

endmodule
