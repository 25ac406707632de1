// Tessera AXI4 memory fabric: NumMst masters (engines) to NumSlv interleaved
// device-memory channels. See docs/fabric.md for the full description.
//
//  * Routing: a burst goes to channel g % NumSlv of its granule g = addr >>
//    log2(InterleaveBytes), or with ChannelHash to the XOR of all log2(NumSlv)-bit
//    groups of g (strides of a power of two granules then spread over the
//    channels), address unchanged. Bursts outside [MemBase, MemBase+MemSize) go to an
//    internal error slave (DECERR); bursts inside the window that cross an
//    InterleaveBytes boundary also go there (SLVERR). Never a hang.
//  * AW and AR: per channel round-robin arbitration, one output register per
//    channel (one request per cycle per channel).
//  * W: follows AW order. Each master keeps a FIFO of the channels its AWs went
//    to; each channel keeps a FIFO of the masters whose AWs it accepted. A W
//    beat flows when both heads agree. W may arrive before or with its AW.
//  * IDs: slave ID = {master index, tag}, zero-extended to SlvIdBits; the tag
//    is the burst's slot in the master's read reorder buffer / B queue.
//  * Ordering: every accepted AR reserves a slot in the master's read reorder
//    buffer (tessera_fabric_rd_rob), every AW a slot in its B queue
//    (tessera_fabric_b_queue). R beats and B responses from any channel are
//    stored in their slot; each master gets its R bursts and B responses
//    strictly in its AR / AW order (stronger than AXI's per-ID order). An AR
//    (AW) waits only while no slot is free; no same-ID stall.
//  * R: the channels' beats are written into the reorder buffers (per master
//    one beat per cycle, round-robin over the channels); B likewise.
module tessera_axi_xbar #(
  parameter int unsigned NumMst          = 2,
  parameter int unsigned NumSlv          = 4,
  parameter int unsigned IdBits          = 4,            // master ID bits used (<= tessera_bus_pkg::IdBits)
  parameter int unsigned SlvIdBits       = IdBits + 4,   // channel ID bits used (<= tessera_bus_pkg::MemIdBits)
  parameter int unsigned InterleaveBytes = 256,
  parameter bit          ChannelHash     = 1'b0,  // channel = XOR-fold of the granule index
  parameter logic [31:0] MemBase         = 32'h8000_0000,
  parameter logic [31:0] MemSize         = 32'h4000_0000,
  // read bursts in flight per master (power of two): default as many as the
  // channel-side ID leaves room for, at most 64
  parameter int unsigned ReorderSlots    =
      (SlvIdBits >= 6 + ((NumMst > 1) ? $clog2(NumMst) : 1)) ? 64 :
      (1 << (SlvIdBits - ((NumMst > 1) ? $clog2(NumMst) : 1))),
  parameter int unsigned ReorderBeats    = 64,  // read beats buffered per master (power of two)
  parameter int unsigned WriteSlots      = 8,   // write bursts awaiting B per master (power of two)
  // W beats buffered per channel (0: none; else a power of two >= 2): a beat bound for a
  // busy channel no longer holds the master's later W beats to other channels
  parameter int unsigned WBufBeats       = 0
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // masters' ports (ID: the low IdBits of the engine-side ID)
  // (element m: a tessera_bus_pkg::axi_req_t / axi_rsp_t)
  input  logic [NumMst-1:0][tessera_bus_pkg::AxiReqBits-1:0]    slv_req_i,
  output logic [NumMst-1:0][tessera_bus_pkg::AxiRspBits-1:0]    slv_rsp_o,
  // channels (ID: the low SlvIdBits of the memory-side ID, the others zero;
  // element c: a tessera_bus_pkg::axi_mem_req_t / axi_mem_rsp_t)
  output logic [NumSlv-1:0][tessera_bus_pkg::AxiMemReqBits-1:0] mst_req_o,
  input  logic [NumSlv-1:0][tessera_bus_pkg::AxiMemRspBits-1:0] mst_rsp_i
);

  // ---------------------------------------------------------------- constants
  localparam int unsigned DataBits    = tessera_bus_pkg::DataBits;
  localparam int unsigned StrbBits    = DataBits / 8;
  localparam int unsigned BusIdBits   = tessera_bus_pkg::IdBits;
  localparam int unsigned MemIdBits   = tessera_bus_pkg::MemIdBits;
  localparam int unsigned MstIdxBits  = (NumMst > 1) ? $clog2(NumMst) : 1;
  localparam int unsigned NumPorts    = NumSlv + 1;          // channels + error slave
  localparam int unsigned PortIdxBits = $clog2(NumPorts);
  localparam int unsigned ErrPort     = NumSlv;
  localparam int unsigned SlvIdxBitsR = (NumSlv > 1) ? $clog2(NumSlv) : 1;
  localparam int unsigned IlShift     = $clog2(InterleaveBytes);
  localparam int unsigned RdSlotBits  = (ReorderSlots > 1) ? $clog2(ReorderSlots) : 1;
  localparam int unsigned WrSlotBits  = (WriteSlots > 1) ? $clog2(WriteSlots) : 1;
  localparam int unsigned TagBits0    = (RdSlotBits > WrSlotBits) ? RdSlotBits : WrSlotBits;
  localparam int unsigned TagBits     = (TagBits0 > IdBits) ? TagBits0 : IdBits;
  // reorder-buffer banks (beat-interleaved): one per channel, at most one per beat
  localparam int unsigned RdBanks     = (NumSlv < ReorderBeats) ? NumSlv : ReorderBeats;
  localparam int unsigned RdBankBits  = (RdBanks > 1) ? $clog2(RdBanks) : 1;
  localparam logic [1:0]  RespSlvErr  = 2'b10;
  localparam logic [1:0]  RespDecErr  = 2'b11;
  localparam int unsigned WFifoDepth  = 2;                   // AWs awaiting W, per master/channel (see docs)
  localparam int unsigned SlvIdUsed   = TagBits + MstIdxBits;

  // Address/control of one AW or AR request (slave-side ID), packed as
  // {id, addr, len, size, burst, cache, prot, qos} (flat vector: Yosys does not
  // handle arrays of packed structs reliably).
  localparam int unsigned AxQos   = 0;
  localparam int unsigned AxProt  = 4;
  localparam int unsigned AxCache = 7;
  localparam int unsigned AxBurst = 11;
  localparam int unsigned AxSize  = 13;
  localparam int unsigned AxLen   = 16;
  localparam int unsigned AxAddr  = 24;
  localparam int unsigned AxId    = 56;
  localparam int unsigned AxBits  = AxId + SlvIdBits;

  // Channel of an address: granule index mod NumSlv, or its XOR-fold (ChannelHash)
  localparam int unsigned ChBits = (NumSlv > 1) ? $clog2(NumSlv) : 1;
  function automatic logic [31:0] chan_of(input logic [31:0] addr);
    logic [31:0] g, c;
    g = addr >> IlShift;
    c = g;
    if (ChannelHash) begin
      c = '0;
      for (int unsigned k = 0; k < 32; k = k + ChBits) c = c ^ (g >> k);
    end
    chan_of = c & (NumSlv - 32'd1);
  endfunction

  // Target port of a burst: a channel, or ErrPort.
  function automatic logic [PortIdxBits-1:0] route(input logic [31:0] addr,
                                                   input logic [7:0]  len,
                                                   input logic [2:0]  size);
    logic        in_win;
    logic [31:0] off_end;
    in_win  = (addr >= MemBase) && ({1'b0, addr} < ({1'b0, MemBase} + {1'b0, MemSize}));
    off_end = (addr & (InterleaveBytes - 32'd1)) + (({24'd0, len} + 32'd1) << size);
    if (!in_win || (off_end > InterleaveBytes)) begin
      route = PortIdxBits'(ErrPort);
    end else begin
      route = PortIdxBits'(chan_of(addr));
    end
  endfunction

  function automatic logic in_window(input logic [31:0] addr);
    in_window = (addr >= MemBase) && ({1'b0, addr} < ({1'b0, MemBase} + {1'b0, MemSize}));
  endfunction

  function automatic logic [SlvIdBits-1:0] widen_id(input logic [MstIdxBits-1:0] m,
                                                    input logic [TagBits-1:0] id);
    logic [SlvIdUsed-1:0] w;
    w = {m, id};
    widen_id = SlvIdBits'(w);
  endfunction

  // ---------------------------------------------------------------- masters' ports
  // The masters' request and response structs as per-signal arrays (the logic below
  // indexes them by master).
  logic [NumMst-1:0][IdBits-1:0]   s_awid, s_arid, s_bid, s_rid;
  logic [NumMst-1:0][31:0]         s_awaddr, s_araddr;
  logic [NumMst-1:0][7:0]          s_awlen, s_arlen;
  logic [NumMst-1:0][2:0]          s_awsize, s_arsize, s_awprot, s_arprot;
  logic [NumMst-1:0][1:0]          s_awburst, s_arburst, s_bresp, s_rresp;
  logic [NumMst-1:0][3:0]          s_awcache, s_arcache, s_awqos, s_arqos;
  logic [NumMst-1:0]               s_awvalid, s_awready, s_arvalid, s_arready;
  logic [NumMst-1:0][DataBits-1:0] s_wdata, s_rdata;
  logic [NumMst-1:0][StrbBits-1:0] s_wstrb;
  logic [NumMst-1:0]               s_wlast, s_wvalid, s_wready, s_bvalid, s_bready;
  logic [NumMst-1:0]               s_rlast, s_rvalid, s_rready;

  for (genvar m = 0; m < NumMst; m++) begin : g_slv_port
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_req;
    assign req          = slv_req_i[m];
    assign s_awid[m]    = req.aw.id[IdBits-1:0];
    assign s_awaddr[m]  = req.aw.addr;
    assign s_awlen[m]   = req.aw.len;
    assign s_awsize[m]  = req.aw.size;
    assign s_awburst[m] = req.aw.burst;
    assign s_awcache[m] = req.aw.cache;
    assign s_awprot[m]  = req.aw.prot;
    assign s_awqos[m]   = req.aw.qos;
    assign s_awvalid[m] = req.aw_valid;
    assign s_wdata[m]   = req.w.data;
    assign s_wstrb[m]   = req.w.strb;
    assign s_wlast[m]   = req.w.last;
    assign s_wvalid[m]  = req.w_valid;
    assign s_bready[m]  = req.b_ready;
    assign s_arid[m]    = req.ar.id[IdBits-1:0];
    assign s_araddr[m]  = req.ar.addr;
    assign s_arlen[m]   = req.ar.len;
    assign s_arsize[m]  = req.ar.size;
    assign s_arburst[m] = req.ar.burst;
    assign s_arcache[m] = req.ar.cache;
    assign s_arprot[m]  = req.ar.prot;
    assign s_arqos[m]   = req.ar.qos;
    assign s_arvalid[m] = req.ar_valid;
    assign s_rready[m]  = req.r_ready;
    assign unused_req   = ^{req.aw.user, req.w.user, req.ar.user};
    if (IdBits < BusIdBits) begin : g_unused_id
      logic unused_id;
      assign unused_id = ^{req.aw.id[BusIdBits-1:IdBits], req.ar.id[BusIdBits-1:IdBits]};
    end

    assign rsp.aw_ready = s_awready[m];
    assign rsp.w_ready  = s_wready[m];
    assign rsp.b.id     = BusIdBits'(s_bid[m]);
    assign rsp.b.resp   = s_bresp[m];
    assign rsp.b.user   = '0;
    assign rsp.b_valid  = s_bvalid[m];
    assign rsp.ar_ready = s_arready[m];
    assign rsp.r.id     = BusIdBits'(s_rid[m]);
    assign rsp.r.data   = s_rdata[m];
    assign rsp.r.resp   = s_rresp[m];
    assign rsp.r.last   = s_rlast[m];
    assign rsp.r.user   = '0;
    assign rsp.r_valid  = s_rvalid[m];
    assign slv_rsp_o[m] = rsp;
  end

  // ---------------------------------------------------------------- port-side signals
  // Ports 0..NumSlv-1 are the channels, port NumSlv the internal error slave.
  logic [NumPorts-1:0][AxBits-1:0]   port_aw, port_ar;
  logic [NumPorts-1:0]                port_awvalid, port_awready;
  logic [NumPorts-1:0]                port_arvalid, port_arready;
  logic [NumPorts-1:0][DataBits-1:0]  port_wdata;
  logic [NumPorts-1:0][StrbBits-1:0]  port_wstrb;
  logic [NumPorts-1:0]                port_wlast, port_wvalid, port_wready;
  logic [NumPorts-1:0][SlvIdBits-1:0] port_bid, port_rid;
  logic [NumPorts-1:0][1:0]           port_bresp, port_rresp;
  logic [NumPorts-1:0]                port_bvalid, port_bready;
  logic [NumPorts-1:0][DataBits-1:0]  port_rdata;
  logic [NumPorts-1:0]                port_rlast, port_rvalid, port_rready;

  // ---------------------------------------------------------------- request decode
  logic [NumMst-1:0][PortIdxBits-1:0] aw_tgt, ar_tgt;
  logic [NumMst-1:0]                  aw_stall, ar_stall, ar_local;
  logic [NumMst-1:0][1:0]             ar_eresp;
  logic [NumMst-1:0][AxBits-1:0]     aw_in, ar_in;

  // Per-master reorder state: slot reserved for the next AR / AW (its tag).
  logic [NumMst-1:0]                  rob_full, bq_full;
  logic [NumMst-1:0][RdSlotBits-1:0]  rob_tail;
  logic [NumMst-1:0][WrSlotBits-1:0]  bq_tail;

  // W routing FIFOs
  logic [NumMst-1:0]                  route_full, route_empty, route_push, route_pop;
  logic [NumMst-1:0][PortIdxBits-1:0] route_head;
  logic [NumPorts-1:0]                owner_full, owner_empty, owner_push, owner_pop;
  logic [NumPorts-1:0][MstIdxBits-1:0] owner_head, owner_in;

  always_comb begin
    for (int unsigned m = 0; m < NumMst; m++) begin
      aw_tgt[m] = route(s_awaddr[m], s_awlen[m], s_awsize[m]);
      ar_tgt[m] = route(s_araddr[m], s_arlen[m], s_arsize[m]);
      // a read longer than the reorder beat store cannot be buffered: SLVERR
      if ({24'd0, s_arlen[m]} >= ReorderBeats) begin
        ar_tgt[m] = PortIdxBits'(ErrPort);
      end
      // reads for the error port are answered by the reorder buffer itself
      ar_local[m] = (ar_tgt[m] == PortIdxBits'(ErrPort));
      ar_eresp[m] = in_window(s_araddr[m]) ? RespSlvErr : RespDecErr;
      aw_in[m] = {widen_id(MstIdxBits'(m), TagBits'(bq_tail[m])), s_awaddr[m],
                   s_awlen[m], s_awsize[m], s_awburst[m],
                   s_awcache[m], s_awprot[m], s_awqos[m]};
      ar_in[m] = {widen_id(MstIdxBits'(m), TagBits'(rob_tail[m])), s_araddr[m],
                   s_arlen[m], s_arsize[m], s_arburst[m],
                   s_arcache[m], s_arprot[m], s_arqos[m]};
      aw_stall[m] = bq_full[m] || route_full[m];
      ar_stall[m] = rob_full[m];
    end
  end

  // ---------------------------------------------------------------- AW / AR arbitration
  logic [NumPorts-1:0][NumMst-1:0]     aw_req, aw_gnt, ar_req, ar_gnt;
  logic [NumPorts-1:0][MstIdxBits-1:0] aw_idx, ar_idx;
  logic [NumPorts-1:0]                 aw_load, ar_load;
  logic [NumPorts-1:0][AxBits-1:0]    aw_sel, ar_sel;
  logic [NumPorts-1:0][AxBits-1:0]    awq_q, arq_q;
  logic [NumPorts-1:0]                 awq_valid_q, arq_valid_q;

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      for (int unsigned m = 0; m < NumMst; m++) begin
        aw_req[p][m] = s_awvalid[m] && !aw_stall[m] && (aw_tgt[m] == PortIdxBits'(p));
        ar_req[p][m] = s_arvalid[m] && !ar_stall[m] && !ar_local[m] &&
                       (ar_tgt[m] == PortIdxBits'(p));
      end
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : g_port_arb
    tessera_rr_arb #(
      .N       (NumMst),
      .IdxBits (MstIdxBits)
    ) u_aw_arb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .req_i  (aw_req[p]),
      .ack_i  (aw_load[p]),
      .gnt_o  (aw_gnt[p]),
      .idx_o  (aw_idx[p])
    );

    tessera_rr_arb #(
      .N       (NumMst),
      .IdxBits (MstIdxBits)
    ) u_ar_arb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .req_i  (ar_req[p]),
      .ack_i  (ar_load[p]),
      .gnt_o  (ar_gnt[p]),
      .idx_o  (ar_idx[p])
    );
  end

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      // the output register can take a new request when empty or draining
      aw_load[p] = (|aw_req[p]) && !owner_full[p] && (!awq_valid_q[p] || port_awready[p]);
      ar_load[p] = (|ar_req[p]) && (!arq_valid_q[p] || port_arready[p]);
      aw_sel[p]  = '0;
      ar_sel[p]  = '0;
      for (int unsigned m = 0; m < NumMst; m++) begin
        if (aw_gnt[p][m]) begin
          aw_sel[p] = aw_in[m];
        end
        if (ar_gnt[p][m]) begin
          ar_sel[p] = ar_in[m];
        end
      end
      owner_push[p] = aw_load[p];
      owner_in[p]   = aw_idx[p];
    end
    for (int unsigned m = 0; m < NumMst; m++) begin
      s_awready[m] = 1'b0;
      s_arready[m] = ar_local[m] && !ar_stall[m];
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (aw_load[p] && aw_gnt[p][m]) begin
          s_awready[m] = 1'b1;
        end
        if (ar_load[p] && ar_gnt[p][m]) begin
          s_arready[m] = 1'b1;
        end
      end
      route_push[m] = s_awvalid[m] && s_awready[m];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      awq_q       <= '0;
      arq_q       <= '0;
      awq_valid_q <= '0;
      arq_valid_q <= '0;
    end else begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (aw_load[p]) begin
          awq_valid_q[p] <= 1'b1;
          awq_q[p]       <= aw_sel[p];
        end else if (port_awready[p]) begin
          awq_valid_q[p] <= 1'b0;
        end
        if (ar_load[p]) begin
          arq_valid_q[p] <= 1'b1;
          arq_q[p]       <= ar_sel[p];
        end else if (port_arready[p]) begin
          arq_valid_q[p] <= 1'b0;
        end
      end
    end
  end

  assign port_aw      = awq_q;
  assign port_awvalid = awq_valid_q;
  assign port_ar      = arq_q;
  assign port_arvalid = arq_valid_q;

  // ---------------------------------------------------------------- W routing
  for (genvar m = 0; m < NumMst; m++) begin : g_route_fifo
    tessera_fifo #(
      .Width (PortIdxBits),
      .Depth (WFifoDepth)
    ) u_route (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .push_i  (route_push[m]),
      .data_i  (aw_tgt[m]),
      .pop_i   (route_pop[m]),
      .data_o  (route_head[m]),
      .full_o  (route_full[m]),
      .empty_o (route_empty[m])
    );
  end

  for (genvar p = 0; p < NumPorts; p++) begin : g_owner_fifo
    tessera_fifo #(
      .Width (MstIdxBits),
      .Depth (WFifoDepth)
    ) u_owner (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .push_i  (owner_push[p]),
      .data_i  (owner_in[p]),
      .pop_i   (owner_pop[p]),
      .data_o  (owner_head[p]),
      .full_o  (owner_full[p]),
      .empty_o (owner_empty[p])
    );
  end

  // w_conn[m][p]: master m's current W burst belongs to port p, and port p is
  // waiting for master m's W burst.
  logic [NumMst-1:0][NumPorts-1:0] w_conn;

  always_comb begin
    for (int unsigned m = 0; m < NumMst; m++) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        w_conn[m][p] = !route_empty[m] && (route_head[m] == PortIdxBits'(p)) &&
                       !owner_empty[p] && (owner_head[p] == MstIdxBits'(m));
      end
    end
    for (int unsigned p = 0; p < NumPorts; p++) begin
      port_wvalid[p] = 1'b0;
      port_wdata[p]  = '0;
      port_wstrb[p]  = '0;
      port_wlast[p]  = 1'b0;
      for (int unsigned m = 0; m < NumMst; m++) begin
        if (w_conn[m][p]) begin
          port_wvalid[p] = s_wvalid[m];
          port_wdata[p]  = s_wdata[m];
          port_wstrb[p]  = s_wstrb[m];
          port_wlast[p]  = s_wlast[m];
        end
      end
      owner_pop[p] = port_wvalid[p] && port_wready[p] && port_wlast[p];
    end
    for (int unsigned m = 0; m < NumMst; m++) begin
      s_wready[m] = 1'b0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (w_conn[m][p]) begin
          s_wready[m] = port_wready[p];
        end
      end
      route_pop[m] = s_wvalid[m] && s_wready[m] && s_wlast[m];
    end
  end

  // ---------------------------------------------------------------- R / B return
  // Channel R beats and port B responses are routed by the master-index field
  // of their ID and written into that master's reorder buffer / B queue at the
  // slot named by the tag field. Per master one R beat and one B per cycle,
  // round-robin over the sources.
  logic [NumSlv-1:0][MstIdxBits-1:0]   chan_rmst;
  logic [NumPorts-1:0][MstIdxBits-1:0] port_bmst;
  logic [NumMst-1:0][RdBanks-1:0][NumSlv-1:0]     r_req, r_gnt;
  logic [NumMst-1:0][NumPorts-1:0]                b_req, b_gnt;
  logic [NumMst-1:0][RdBanks-1:0]                 r_wr;
  logic [NumMst-1:0]                              b_wr;
  logic [NumMst-1:0][RdBanks-1:0][RdSlotBits-1:0] r_wslot;
  logic [NumMst-1:0][WrSlotBits-1:0]              b_wslot;
  logic [NumMst-1:0][RdBanks-1:0][DataBits-1:0]   r_wdata;
  logic [NumMst-1:0][RdBanks-1:0][1:0]            r_wresp;
  logic [NumMst-1:0][1:0]                         b_wresp;
  logic [NumMst-1:0][RdBanks-1:0][SlvIdxBitsR-1:0] r_widx_unused;
  logic [NumMst-1:0][PortIdxBits-1:0]             b_widx_unused;
  logic [NumMst-1:0][NumSlv-1:0][RdBankBits-1:0] chan_rbank;   // bank of each channel's beat
  logic [NumSlv-1:0][RdSlotBits-1:0]              chan_rslot;

  always_comb begin
    for (int unsigned c = 0; c < NumSlv; c++) begin
      chan_rmst[c]  = port_rid[c][TagBits +: MstIdxBits];
      chan_rslot[c] = port_rid[c][RdSlotBits-1:0];
    end
    for (int unsigned p = 0; p < NumPorts; p++) begin
      port_bmst[p] = port_bid[p][TagBits +: MstIdxBits];
    end
    for (int unsigned m = 0; m < NumMst; m++) begin
      for (int unsigned b = 0; b < RdBanks; b++) begin
        for (int unsigned c = 0; c < NumSlv; c++) begin
          r_req[m][b][c] = port_rvalid[c] && (chan_rmst[c] == MstIdxBits'(m)) &&
                           (chan_rbank[m][c] == RdBankBits'(b));
        end
      end
      for (int unsigned p = 0; p < NumPorts; p++) begin
        b_req[m][p] = port_bvalid[p] && (port_bmst[p] == MstIdxBits'(m));
      end
    end
  end

  for (genvar m = 0; m < NumMst; m++) begin : g_resp
    for (genvar b = 0; b < RdBanks; b++) begin : g_bank
      tessera_rr_arb #(
        .N       (NumSlv),
        .IdxBits (SlvIdxBitsR)
      ) u_r_arb (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .req_i  (r_req[m][b]),
        .ack_i  (1'b1),
        .gnt_o  (r_gnt[m][b]),
        .idx_o  (r_widx_unused[m][b])
      );

      always_comb begin
        r_wr[m][b]    = |r_gnt[m][b];
        r_wslot[m][b] = '0;
        r_wdata[m][b] = '0;
        r_wresp[m][b] = '0;
        for (int unsigned c = 0; c < NumSlv; c++) begin
          if (r_gnt[m][b][c]) begin
            r_wslot[m][b] = port_rid[c][RdSlotBits-1:0];
            r_wdata[m][b] = port_rdata[c];
            r_wresp[m][b] = port_rresp[c];
          end
        end
      end
    end

    tessera_rr_arb #(
      .N       (NumPorts),
      .IdxBits (PortIdxBits)
    ) u_b_arb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .req_i  (b_req[m]),
      .ack_i  (1'b1),
      .gnt_o  (b_gnt[m]),
      .idx_o  (b_widx_unused[m])
    );

    always_comb begin
      b_wr[m]    = |b_gnt[m];
      b_wslot[m] = '0;
      b_wresp[m] = '0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (b_gnt[m][p]) begin
          b_wslot[m] = port_bid[p][WrSlotBits-1:0];
          b_wresp[m] = port_bresp[p];
        end
      end
    end

    tessera_fabric_rd_rob #(
      .Slots    (ReorderSlots),
      .Beats    (ReorderBeats),
      .Banks    (RdBanks),
      .Looks    (NumSlv),
      .DataBits (DataBits),
      .IdBits   (IdBits),
      .SlotBits (RdSlotBits),
      .BankBits (RdBankBits)
    ) u_rob (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .alloc_i      (s_arvalid[m] && s_arready[m]),
      .alloc_id_i   (s_arid[m]),
      .alloc_len_i  (s_arlen[m]),
      .alloc_err_i  (ar_local[m]),
      .alloc_resp_i (ar_eresp[m]),
      .full_o       (rob_full[m]),
      .alloc_slot_o (rob_tail[m]),
      .look_slot_i  (chan_rslot),
      .look_bank_o  (chan_rbank[m]),
      .wr_i         (r_wr[m]),
      .wr_slot_i    (r_wslot[m]),
      .wr_data_i    (r_wdata[m]),
      .wr_resp_i    (r_wresp[m]),
      .rid_o        (s_rid[m]),
      .rdata_o      (s_rdata[m]),
      .rresp_o      (s_rresp[m]),
      .rlast_o      (s_rlast[m]),
      .rvalid_o     (s_rvalid[m]),
      .rready_i     (s_rready[m])
    );

    tessera_fabric_b_queue #(
      .Slots    (WriteSlots),
      .IdBits   (IdBits),
      .SlotBits (WrSlotBits)
    ) u_bq (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .alloc_i      (s_awvalid[m] && s_awready[m]),
      .alloc_id_i   (s_awid[m]),
      .full_o       (bq_full[m]),
      .alloc_slot_o (bq_tail[m]),
      .wr_i         (b_wr[m]),
      .wr_slot_i    (b_wslot[m]),
      .wr_resp_i    (b_wresp[m]),
      .bid_o        (s_bid[m]),
      .bresp_o      (s_bresp[m]),
      .bvalid_o     (s_bvalid[m]),
      .bready_i     (s_bready[m])
    );
  end

  always_comb begin
    for (int unsigned c = 0; c < NumSlv; c++) begin
      port_rready[c] = 1'b0;
      for (int unsigned m = 0; m < NumMst; m++) begin
        for (int unsigned b = 0; b < RdBanks; b++) begin
          if (r_gnt[m][b][c]) begin
            port_rready[c] = 1'b1;
          end
        end
      end
    end
    // reads for the error port never reach the error slave (answered by the ROB)
    port_rready[ErrPort] = 1'b0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      port_bready[p] = 1'b0;
      for (int unsigned m = 0; m < NumMst; m++) begin
        if (b_gnt[m][p]) begin
          port_bready[p] = 1'b1;
        end
      end
    end
  end

  if (WBufBeats == 1 || (WBufBeats & (WBufBeats - 1)) != 0) begin : g_bad_wbuf
    $error("tessera_axi_xbar: WBufBeats must be 0 or a power of two >= 2");
  end

  // ---------------------------------------------------------------- channels
  for (genvar c = 0; c < NumSlv; c++) begin : g_chan
    tessera_bus_pkg::axi_mem_req_t req;
    tessera_bus_pkg::axi_mem_rsp_t rsp;
    logic                          unused_rsp;
    assign rsp          = mst_rsp_i[c];
    assign req.aw.id    = MemIdBits'(port_aw[c][AxId +: SlvIdBits]);
    assign req.aw.addr  = port_aw[c][AxAddr +: 32];
    assign req.aw.len   = port_aw[c][AxLen +: 8];
    assign req.aw.size  = port_aw[c][AxSize +: 3];
    assign req.aw.burst = port_aw[c][AxBurst +: 2];
    assign req.aw.cache = port_aw[c][AxCache +: 4];
    assign req.aw.prot  = port_aw[c][AxProt +: 3];
    assign req.aw.qos   = port_aw[c][AxQos +: 4];
    assign req.aw.user  = '0;
    assign req.aw_valid = port_awvalid[c];
    assign port_awready[c] = rsp.aw_ready;
    assign req.w.user   = '0;
    if (WBufBeats == 0) begin : g_w_direct
      assign req.w.data   = port_wdata[c];
      assign req.w.strb   = port_wstrb[c];
      assign req.w.last   = port_wlast[c];
      assign req.w_valid  = port_wvalid[c];
      assign port_wready[c] = rsp.w_ready;
    end else begin : g_w_buf
      // W buffer: a master's W beat for this channel is parked here when the channel is
      // busy (its R beats share the bandwidth), so the master's next W burst, bound for
      // another channel, is not held behind it (a master's W beats leave in its AW order).
      // Beats keep the port's order, so the channel sees its AW order.
      logic wb_full, wb_empty;
      tessera_fifo #(
        .Width (DataBits + StrbBits + 1),
        .Depth (WBufBeats)
      ) u_wbuf (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .push_i  (port_wvalid[c]),
        .data_i  ({port_wlast[c], port_wstrb[c], port_wdata[c]}),
        .pop_i   (rsp.w_ready),
        .data_o  ({req.w.last, req.w.strb, req.w.data}),
        .full_o  (wb_full),
        .empty_o (wb_empty)
      );
      assign req.w_valid    = !wb_empty;
      assign port_wready[c] = !wb_full;
    end
    assign port_bid[c]    = rsp.b.id[SlvIdBits-1:0];
    assign port_bresp[c]  = rsp.b.resp;
    assign port_bvalid[c] = rsp.b_valid;
    assign req.b_ready    = port_bready[c];
    assign req.ar.id      = MemIdBits'(port_ar[c][AxId +: SlvIdBits]);
    assign req.ar.addr    = port_ar[c][AxAddr +: 32];
    assign req.ar.len     = port_ar[c][AxLen +: 8];
    assign req.ar.size    = port_ar[c][AxSize +: 3];
    assign req.ar.burst   = port_ar[c][AxBurst +: 2];
    assign req.ar.cache   = port_ar[c][AxCache +: 4];
    assign req.ar.prot    = port_ar[c][AxProt +: 3];
    assign req.ar.qos     = port_ar[c][AxQos +: 4];
    assign req.ar.user    = '0;
    assign req.ar_valid   = port_arvalid[c];
    assign port_arready[c] = rsp.ar_ready;
    assign port_rid[c]    = rsp.r.id[SlvIdBits-1:0];
    assign port_rdata[c]  = rsp.r.data;
    assign port_rresp[c]  = rsp.r.resp;
    assign port_rlast[c]  = rsp.r.last;
    assign port_rvalid[c] = rsp.r_valid;
    assign req.r_ready    = port_rready[c];
    assign mst_req_o[c]   = req;
    assign unused_rsp     = ^{rsp.b.user, rsp.r.user};
    if (SlvIdBits < MemIdBits) begin : g_unused_id
      logic unused_id;
      assign unused_id = ^{rsp.b.id[MemIdBits-1:SlvIdBits], rsp.r.id[MemIdBits-1:SlvIdBits]};
    end
  end

  // ---------------------------------------------------------------- error slave
  tessera_bus_pkg::axi_mem_req_t err_req;
  tessera_bus_pkg::axi_mem_rsp_t err_rsp;
  always_comb begin
    err_req          = '0;
    err_req.aw.id    = MemIdBits'(port_aw[ErrPort][AxId +: SlvIdBits]);
    err_req.aw.addr  = port_aw[ErrPort][AxAddr +: 32];
    err_req.aw_valid = port_awvalid[ErrPort];
    err_req.w.last   = port_wlast[ErrPort];
    err_req.w_valid  = port_wvalid[ErrPort];
    err_req.b_ready  = port_bready[ErrPort];
    err_req.ar.id    = MemIdBits'(port_ar[ErrPort][AxId +: SlvIdBits]);
    err_req.ar.addr  = port_ar[ErrPort][AxAddr +: 32];
    err_req.ar.len   = port_ar[ErrPort][AxLen +: 8];
    err_req.ar_valid = port_arvalid[ErrPort];
    err_req.r_ready  = port_rready[ErrPort];
  end
  assign port_awready[ErrPort] = err_rsp.aw_ready;
  assign port_wready[ErrPort]  = err_rsp.w_ready;
  assign port_bid[ErrPort]     = err_rsp.b.id[SlvIdBits-1:0];
  assign port_bresp[ErrPort]   = err_rsp.b.resp;
  assign port_bvalid[ErrPort]  = err_rsp.b_valid;
  assign port_arready[ErrPort] = err_rsp.ar_ready;
  assign port_rid[ErrPort]     = err_rsp.r.id[SlvIdBits-1:0];
  assign port_rdata[ErrPort]   = err_rsp.r.data;
  assign port_rresp[ErrPort]   = err_rsp.r.resp;
  assign port_rlast[ErrPort]   = err_rsp.r.last;
  assign port_rvalid[ErrPort]  = err_rsp.r_valid;

  tessera_fabric_err_slv #(
    .IdBits   (SlvIdBits),
    .MemBase  (MemBase),
    .MemSize  (MemSize)
  ) u_err (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .slv_req_i (err_req),
    .slv_rsp_o (err_rsp)
  );

  // ---------------------------------------------------------------- unused
  // Upper slave-ID bits are zero by construction; the error slave ignores
  // the burst attributes it does not need; its read side is never used (error
  // reads are answered by the reorder buffers); rlast is implied by arlen.
  logic unused_sig;
  assign unused_sig = ^{r_widx_unused, b_widx_unused, ar_idx, port_rlast, port_rvalid[ErrPort],
                        port_rdata[ErrPort], port_rresp[ErrPort], port_wdata[ErrPort], port_wstrb[ErrPort],
                        port_aw[ErrPort][AxLen +: 8], port_aw[ErrPort][AxSize +: 3], port_aw[ErrPort][AxBurst +: 2],
                        port_aw[ErrPort][AxCache +: 4], port_aw[ErrPort][AxProt +: 3], port_aw[ErrPort][AxQos +: 4],
                        port_ar[ErrPort][AxSize +: 3], port_ar[ErrPort][AxBurst +: 2],
                        port_ar[ErrPort][AxCache +: 4], port_ar[ErrPort][AxProt +: 3], port_ar[ErrPort][AxQos +: 4],
                        port_rid, port_bid, err_rsp.b.user, err_rsp.r.user};

endmodule
