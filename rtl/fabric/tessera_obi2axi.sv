// OBI (32-bit system bus, one transaction outstanding) to AXI4 bridge.
// Every OBI access becomes one single-beat AXI burst (len 0, full-width size,
// INCR, ID 0) on its AXI manager port (tessera_bus_pkg::axi_req_t). The AXI
// address is the OBI address aligned down to the AXI data width; the 32-bit word sits on its natural byte lanes and wstrb is
// obi_be shifted to those lanes. rdata is taken from the same lanes.
// Response: obi_rvalid one cycle after B/R arrives, obi_err = (resp != OKAY).
// The next request is granted in the same cycle the response is returned.
//
// Read buffer (rdbuf_en_i = 1, SYSCTRL.SYSBUS_CTRL.rdbuf): a read fetches the
// whole aligned block of BufBeats beats (one INCR burst, len BufBeats - 1) and
// keeps it; a later read inside the same block is answered from the copy one
// cycle after the grant, without an AXI access. The copy is dropped by any
// write, by rdbuf_en_i = 0, and when a beat of its burst answered an error (the
// read still returns the error of its own beat). With rdbuf_en_i = 0 the bridge
// behaves exactly as above.
module tessera_obi2axi #(
  parameter int unsigned BufBeats = 2      // read-buffer block in beats (power of two)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // OBI slave
  input  tessera_bus_pkg::obi_req_t obi_req_i,
  output tessera_bus_pkg::obi_rsp_t obi_rsp_o,
  input  logic                  rdbuf_en_i,  // read buffer on (see above)
  // AXI4 manager port
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i
);

  localparam int unsigned DataBits  = tessera_bus_pkg::DataBits;
  localparam int unsigned DataBytes = DataBits / 8;
  localparam int unsigned OffBits   = $clog2(DataBytes);   // byte offset inside a beat
  localparam int unsigned NumWords  = DataBits / 32;
  localparam int unsigned WordBits  = (NumWords > 1) ? $clog2(NumWords) : 1;
  localparam logic [2:0]  AxSize    = 3'(OffBits);
  localparam int unsigned BlkBits   = OffBits + $clog2(BufBeats);   // byte offset inside a block
  localparam int unsigned BeatBits  = (BufBeats > 1) ? $clog2(BufBeats) : 1;

  typedef enum logic [2:0] {Idle, WrAddrData, WrResp, RdAddr, RdData, Resp} state_e;

  state_e             state_q, state_d;
  logic [31:0]        addr_q, addr_d;
  logic [3:0]         be_q, be_d;
  logic [31:0]        wdata_q, wdata_d;
  logic               aw_done_q, aw_done_d;   // AW accepted (write in flight)
  logic               w_done_q, w_done_d;     // W accepted
  logic [31:0]        rdata_q, rdata_d;
  logic               err_q, err_d;
  logic [WordBits-1:0] word_q;
  // read buffer
  logic [BufBeats-1:0][DataBits-1:0] buf_q;
  logic [31:BlkBits]  buf_tag_q, buf_tag_d;
  logic               buf_valid_q, buf_valid_d;
  logic               burst_q, burst_d;        // the read in flight fills the buffer
  logic               burst_err_q, burst_err_d;
  logic [BeatBits-1:0] beat_q, beat_d;         // beat of the burst expected next
  logic [BeatBits-1:0] addr_beat;              // beat of the block holding addr_q
  logic               buf_hit;

  assign word_q    = WordBits'((addr_q >> 2) & (NumWords - 32'd1));
  assign addr_beat = BeatBits'((addr_q >> OffBits) & (BufBeats - 32'd1));
  // the OBI request's fields
  logic        obi_req, obi_we;
  logic [31:0] obi_addr, obi_wdata;
  logic [3:0]  obi_be;
  assign obi_req   = obi_req_i.req;
  assign obi_addr  = obi_req_i.addr;
  assign obi_we    = obi_req_i.we;
  assign obi_be    = obi_req_i.be;
  assign obi_wdata = obi_req_i.wdata;
  assign buf_hit   = rdbuf_en_i && buf_valid_q && !obi_we && (obi_addr[31:BlkBits] == buf_tag_q);

  // Request accepted in Idle, or in Resp (back-to-back with the response).
  assign obi_rsp_o.gnt    = (state_q == Idle) || (state_q == Resp);
  assign obi_rsp_o.rvalid = (state_q == Resp);
  assign obi_rsp_o.rdata  = rdata_q;
  assign obi_rsp_o.err    = err_q;

  // AXI requests: constant burst attributes, ID 0
  always_comb begin
    mst_req_o          = '0;
    mst_req_o.aw.addr  = {addr_q[31:OffBits], OffBits'(0)};
    mst_req_o.aw.len   = 8'd0;
    mst_req_o.aw.size  = AxSize;
    mst_req_o.aw.burst = 2'b01;      // INCR
    mst_req_o.aw.cache = 4'b0000;    // device non-bufferable, no allocation
    mst_req_o.aw_valid = (state_q == WrAddrData) && !aw_done_q;
    mst_req_o.w.last   = 1'b1;
    mst_req_o.w_valid  = (state_q == WrAddrData) && !w_done_q;
    mst_req_o.b_ready  = (state_q == WrResp);
    mst_req_o.ar.addr  = burst_q ? {addr_q[31:BlkBits], BlkBits'(0)} : {addr_q[31:OffBits], OffBits'(0)};
    mst_req_o.ar.len   = burst_q ? 8'(BufBeats - 1) : 8'd0;
    mst_req_o.ar.size  = AxSize;
    mst_req_o.ar.burst = 2'b01;
    mst_req_o.ar_valid = (state_q == RdAddr);
    mst_req_o.r_ready  = (state_q == RdData);
    // the word on every lane, strobes on the addressed one
    for (int unsigned i = 0; i < NumWords; i++) begin
      mst_req_o.w.data[32*i +: 32] = wdata_q;
      if (word_q == WordBits'(i)) begin
        mst_req_o.w.strb[4*i +: 4] = be_q;
      end
    end
  end

  logic [31:0] rword, bword;
  always_comb begin
    rword = '0;
    for (int unsigned i = 0; i < NumWords; i++) begin
      if (word_q == WordBits'(i)) begin
        rword = mst_rsp_i.r.data[32*i +: 32];
      end
    end
  end

  // the word a buffer hit returns (indexed by the request's address)
  always_comb begin
    bword = '0;
    for (int unsigned b = 0; b < BufBeats; b++) begin
      for (int unsigned i = 0; i < NumWords; i++) begin
        if (obi_addr[BlkBits-1:2] == (BlkBits - 2)'(b * NumWords + i)) begin
          bword = buf_q[b][32*i +: 32];
        end
      end
    end
  end

  always_comb begin
    state_d   = state_q;
    addr_d    = addr_q;
    be_d      = be_q;
    wdata_d   = wdata_q;
    aw_done_d = aw_done_q;
    w_done_d  = w_done_q;
    rdata_d   = rdata_q;
    err_d     = err_q;
    buf_tag_d   = buf_tag_q;
    buf_valid_d = buf_valid_q;
    burst_d     = burst_q;
    burst_err_d = burst_err_q;
    beat_d      = beat_q;
    unique case (state_q)
      Idle, Resp: begin
        if (obi_req) begin
          addr_d    = obi_addr;
          be_d      = obi_be;
          wdata_d   = obi_wdata;
          aw_done_d = 1'b0;
          w_done_d  = 1'b0;
          if (buf_hit) begin
            rdata_d = bword;
            err_d   = 1'b0;
            state_d = Resp;
          end else begin
            // a write or a read of another block drops the copy
            buf_valid_d = 1'b0;
            burst_d     = rdbuf_en_i && !obi_we;
            burst_err_d = 1'b0;
            beat_d      = '0;
            buf_tag_d   = obi_addr[31:BlkBits];
            state_d     = obi_we ? WrAddrData : RdAddr;
          end
        end else begin
          state_d = Idle;
        end
      end
      WrAddrData: begin
        if (mst_req_o.aw_valid && mst_rsp_i.aw_ready) begin
          aw_done_d = 1'b1;
        end
        if (mst_req_o.w_valid && mst_rsp_i.w_ready) begin
          w_done_d = 1'b1;
        end
        if (aw_done_d && w_done_d) begin
          state_d = WrResp;
        end
      end
      WrResp: begin
        if (mst_rsp_i.b_valid) begin
          rdata_d = '0;
          err_d   = (mst_rsp_i.b.resp != 2'b00);
          state_d = Resp;
        end
      end
      RdAddr: begin
        if (mst_rsp_i.ar_ready) begin
          state_d = RdData;
        end
      end
      RdData: begin
        if (mst_rsp_i.r_valid) begin
          if (!burst_q || beat_q == addr_beat) begin
            rdata_d = rword;
            err_d   = (mst_rsp_i.r.resp != 2'b00);
          end
          burst_err_d = burst_err_q || (mst_rsp_i.r.resp != 2'b00);
          beat_d      = beat_q + BeatBits'(1);
          if (!burst_q || mst_rsp_i.r.last) begin
            buf_valid_d = burst_q && !burst_err_d;
            state_d     = Resp;
          end
        end
      end
      default: state_d = Idle;
    endcase
    if (!rdbuf_en_i) begin
      buf_valid_d = 1'b0;
    end
  end

  // buffer data: written beat by beat while a buffered burst returns (no reset:
  // only read while buf_valid_q is set)
  always_ff @(posedge clk_i) begin
    if (state_q == RdData && mst_rsp_i.r_valid && burst_q) begin
      buf_q[beat_q] <= mst_rsp_i.r.data;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= Idle;
      addr_q    <= '0;
      be_q      <= '0;
      wdata_q   <= '0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      rdata_q   <= '0;
      err_q     <= 1'b0;
      buf_tag_q   <= '0;
      buf_valid_q <= 1'b0;
      burst_q     <= 1'b0;
      burst_err_q <= 1'b0;
      beat_q      <= '0;
    end else begin
      state_q   <= state_d;
      addr_q    <= addr_d;
      be_q      <= be_d;
      wdata_q   <= wdata_d;
      aw_done_q <= aw_done_d;
      w_done_q  <= w_done_d;
      rdata_q   <= rdata_d;
      err_q     <= err_d;
      buf_tag_q   <= buf_tag_d;
      buf_valid_q <= buf_valid_d;
      burst_q     <= burst_d;
      burst_err_q <= burst_err_d;
      beat_q      <= beat_d;
    end
  end

  // One fixed ID, one burst at a time: bid/rid carry no information.
  logic unused_sig;
  assign unused_sig = ^{mst_rsp_i.b.id, mst_rsp_i.b.user, mst_rsp_i.r.id, mst_rsp_i.r.user, addr_q[1:0]};

endmodule
