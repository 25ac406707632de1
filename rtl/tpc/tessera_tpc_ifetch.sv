// Tessera TPC cluster: program loader of one DCORE. Reads `len` 32-byte bundles from
// `addr` with INCR bursts (at most 8 beats, never crossing a 256-byte boundary, up to
// MaxOut bursts outstanding, one ID so data returns in order) and writes bundle k into
// the instruction memories (imem_*) of the DCORE's TPCs. A non-OKAY response marks the
// load failed (err_o, the first failing bundle in err_idx_o); the remaining beats are
// still drained. done_o pulses once every requested beat has arrived.
module tessera_tpc_ifetch #(
  parameter int unsigned ImemDepth = 1024,
  parameter int unsigned MaxOut    = 8
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         start_i,    // one-cycle pulse (idle)
  input  logic [31:0]                  addr_i,     // 32-byte aligned (checked by the cluster)
  input  logic [31:0]                  len_i,      // bundles, 1..ImemDepth
  output logic                         busy_o,
  output logic                         done_o,
  output logic                         err_o,      // with done_o and after it
  output logic [31:0]                  err_idx_o,
  // instruction-memory write port (to every TPC of the DCORE)
  output logic                         imem_we_o,
  output logic [$clog2(ImemDepth)-1:0] imem_waddr_o,
  output logic [255:0]                 imem_wdata_o,
  // AXI4 read master (AR and R; ID 0, 32-byte INCR bursts, instruction accesses)
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i
);
  // the AXI port as signals (m_axi_ar*, m_axi_r*)
  `TESSERA_AXI_SIGS_DECL_RD(m_axi_, 1)
  `TESSERA_AXI_MST_CONNECT_RD(mst_req_o, mst_rsp_i, m_axi_)
  assign m_axi_arid    = 1'b0;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = 4'd0;
  assign m_axi_arprot  = 3'b100;   // instruction access
  assign m_axi_arqos   = 4'd0;
  localparam int unsigned IAW = $clog2(ImemDepth);
  localparam int unsigned OW  = $clog2(MaxOut + 1);

  logic            busy_q, err_q;
  logic [31:0]     next_addr_q, left_q;   // next burst address, bundles not yet requested
  logic [31:0]     rcv_q, len_q;          // bundles received, total
  logic [31:0]     err_idx_q;
  logic [OW-1:0]   out_q;                 // bursts in flight
  logic [3:0]      burst_len;             // beats of the next burst (1..8)
  logic            ar_hs, r_hs, last_beat;

  logic [2:0] addr_first_q;   // bits 7:5 of the program address
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                   addr_first_q <= '0;
    else if (start_i && !busy_q)   addr_first_q <= addr_i[7:5];
  end

  // does the beat arriving now end a burst? (bursts end at 256-byte boundaries and at
  // the end of the program)
  logic [2:0] beat_slot;   // bits 7:5 of the beat's address
  logic       beat_ends;
  assign beat_slot = addr_first_q + rcv_q[2:0];
  assign beat_ends = (beat_slot == 3'd7) || (rcv_q + 32'd1 == len_q);

  always_comb begin
    burst_len = 4'd8 - {1'b0, next_addr_q[7:5]};
    if (left_q < 32'(burst_len)) burst_len = left_q[3:0];
  end

  assign m_axi_arvalid = busy_q && (left_q != 32'd0) && (32'(out_q) < MaxOut);
  assign m_axi_araddr  = next_addr_q;
  assign m_axi_arlen   = {4'd0, burst_len - 4'd1};
  assign m_axi_rready  = 1'b1;
  assign ar_hs     = m_axi_arvalid && m_axi_arready;
  assign r_hs      = m_axi_rvalid && busy_q;
  assign last_beat = r_hs && (rcv_q + 32'd1 == len_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      err_q       <= 1'b0;
      next_addr_q <= '0;
      left_q      <= '0;
      rcv_q       <= '0;
      len_q       <= '0;
      err_idx_q   <= '0;
      out_q       <= '0;
      done_o      <= 1'b0;
    end else begin
      done_o <= 1'b0;
      if (start_i && !busy_q) begin
        busy_q      <= 1'b1;
        err_q       <= 1'b0;
        next_addr_q <= addr_i;
        left_q      <= len_i;
        len_q       <= len_i;
        rcv_q       <= '0;
        out_q       <= '0;
        err_idx_q   <= '0;
      end else if (busy_q) begin
        if (ar_hs) begin
          next_addr_q <= next_addr_q + {23'd0, burst_len, 5'd0};
          left_q      <= left_q - 32'(burst_len);
        end
        // bursts in flight: +1 per AR, -1 per last beat of a burst (counted by beats:
        // the loader knows where its bursts end from the addresses)
        if (r_hs) begin
          rcv_q <= rcv_q + 32'd1;
          if (m_axi_rresp != 2'b00 && !err_q) begin
            err_q     <= 1'b1;
            err_idx_q <= rcv_q;
          end
        end
        out_q <= out_q + OW'(ar_hs) - OW'(r_hs && beat_ends);
        if (last_beat) begin
          busy_q <= 1'b0;
          done_o <= 1'b1;
        end
      end
    end
  end

  assign busy_o       = busy_q;
  assign err_o        = err_q;
  assign err_idx_o    = err_idx_q;
  assign imem_we_o    = r_hs;
  assign imem_waddr_o = rcv_q[IAW-1:0];
  assign imem_wdata_o = m_axi_rdata;
  logic unused_r;
  assign unused_r = ^{m_axi_rid, m_axi_rlast};
endmodule
