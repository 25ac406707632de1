// Command-buffer fetch arbiter: joins the AXI4 read ports (AR/R only) of NumPorts queue
// managers into one AXI4 read master of the memory fabric, so the queues cost the
// crossbar one port. Port p must drive arid = p (its queue manager's AxiId); the fabric
// returns read data with the request's ID, which routes each R beat back to its port.
// AR: round robin between the ports with arvalid; a granted request stays selected until
// it is accepted (AXI: the address must not change while arvalid waits).
// Ports: the queue managers' read ports slv_req_i/slv_rsp_o (one element per port, AW, W
// and B unused), the fabric master mst_req_o/mst_rsp_i (never writes).
module tessera_qman_fetch_arb #(
  parameter int unsigned NumPorts = 2
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // queue-manager side
  input  logic [NumPorts-1:0][tessera_bus_pkg::AxiReqBits-1:0] slv_req_i,
  output logic [NumPorts-1:0][tessera_bus_pkg::AxiRspBits-1:0] slv_rsp_o,
  // fabric side
  output tessera_bus_pkg::axi_req_t                             mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t                             mst_rsp_i
);
  localparam int unsigned PW     = (NumPorts > 1) ? $clog2(NumPorts) : 1;
  localparam int unsigned AxBits = tessera_bus_pkg::IdBits + tessera_bus_pkg::AddrBits +
                                   tessera_bus_pkg::AxiAxFixBits + tessera_bus_pkg::UserBits;

  logic [NumPorts-1:0][AxBits-1:0] s_ar;
  logic [NumPorts-1:0]             s_arvalid, s_arready, s_rready;
  logic [PW-1:0]                   r_port;
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_req;
    assign req          = slv_req_i[p];
    assign s_ar[p]      = req.ar;
    assign s_arvalid[p] = req.ar_valid;
    assign s_rready[p]  = req.r_ready;
    assign unused_req   = ^{req.aw, req.aw_valid, req.w, req.w_valid, req.b_ready};
    always_comb begin
      rsp          = '0;
      rsp.ar_ready = s_arready[p];
      rsp.r        = mst_rsp_i.r;
      rsp.r_valid  = mst_rsp_i.r_valid && (r_port == PW'(p));
    end
    assign slv_rsp_o[p] = rsp;
  end

  // ---------------------------------------------------------------- AR
  logic          lock_q;   // the selected port's request waits for arready
  logic [PW-1:0] sel_q, last_q, pick, sel;
  logic          found;

  // round robin: first requester after the last winner
  always_comb begin
    found = 1'b0;
    pick  = '0;
    for (int unsigned k = 1; k <= NumPorts; k++) begin
      logic [PW-1:0] p;
      p = PW'((int'(last_q) + k) % NumPorts);
      if (!found && s_arvalid[p]) begin
        found = 1'b1;
        pick  = p;
      end
    end
  end

  assign sel = lock_q ? sel_q : pick;
  always_comb begin
    mst_req_o          = '0;
    mst_req_o.ar       = s_ar[sel];
    mst_req_o.ar_valid = lock_q || found;
    mst_req_o.b_ready  = 1'b1;     // never written: no B arrives
    mst_req_o.r_ready  = s_rready[r_port];
  end

  always_comb begin
    s_arready = '0;
    s_arready[sel] = mst_req_o.ar_valid && mst_rsp_i.ar_ready;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q <= 1'b0;
      sel_q  <= '0;
      last_q <= PW'(NumPorts - 1);
    end else if (mst_req_o.ar_valid) begin
      if (mst_rsp_i.ar_ready) begin
        lock_q <= 1'b0;
        last_q <= sel;
      end else begin
        lock_q <= 1'b1;
        sel_q  <= sel;
      end
    end
  end

  // ---------------------------------------------------------------- R (routed by ID)
  logic unused_rsp;
  assign r_port     = PW'(mst_rsp_i.r.id);
  assign unused_rsp = ^{mst_rsp_i.aw_ready, mst_rsp_i.w_ready, mst_rsp_i.b, mst_rsp_i.b_valid};
endmodule
