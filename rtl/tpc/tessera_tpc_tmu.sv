// TPC tensor memory unit: executes one ld.t or st.t through an AXI4 master (256-bit,
// single-beat INCR bursts, which never cross a 256-byte boundary). Lanes are processed one
// per cycle in order; a lane's 32-byte beat is read once and reused by the following lanes
// of the same beat (so a unit-stride vector costs one or two reads), and store lanes of
// one beat are merged into one write with byte strobes. Out-of-bounds lanes read the
// descriptor's pad / are dropped. An in-bounds element outside [MemBase, MemBase+MemSize)
// or an AXI error response is a BUS error; a store checks every lane's address before it
// writes anything. See docs/tpc_rtl.md.
module tessera_tpc_tmu #(
  parameter logic [31:0] MemBase = 32'h8000_0000,
  parameter logic [32:0] MemSize = 33'h0_4000_0000
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             start_i,     // one cycle; inputs below stable until done_o
  input  logic             store_i,
  input  logic [511:0]     desc_i,      // descriptor image (already checked)
  input  logic [4:0][31:0] coord_i,     // index register
  input  logic [31:0]      mask_i,      // enabled lanes
  input  logic [255:0]     vin_i,       // load: old destination; store: data
  output logic             done_o,      // one cycle
  output logic             bus_err_o,   // with done_o
  output logic [255:0]     vres_o,      // load result (valid from done_o until the next start)
  output logic [31:0]      bytes_o,     // in-bounds bytes moved by the last operation
  output logic             rd_wait_o,   // waiting for read data (stall-by-cause counter)
  // AXI4 master
  output logic [3:0]       m_axi_awid_o,
  output logic [31:0]      m_axi_awaddr_o,
  output logic [7:0]       m_axi_awlen_o,
  output logic [2:0]       m_axi_awsize_o,
  output logic [1:0]       m_axi_awburst_o,
  output logic [3:0]       m_axi_awcache_o,
  output logic [2:0]       m_axi_awprot_o,
  output logic [3:0]       m_axi_awqos_o,
  output logic             m_axi_awvalid_o,
  input  logic             m_axi_awready_i,
  output logic [255:0]     m_axi_wdata_o,
  output logic [31:0]      m_axi_wstrb_o,
  output logic             m_axi_wlast_o,
  output logic             m_axi_wvalid_o,
  input  logic             m_axi_wready_i,
  input  logic [3:0]       m_axi_bid_i,
  input  logic [1:0]       m_axi_bresp_i,
  input  logic             m_axi_bvalid_i,
  output logic             m_axi_bready_o,
  output logic [3:0]       m_axi_arid_o,
  output logic [31:0]      m_axi_araddr_o,
  output logic [7:0]       m_axi_arlen_o,
  output logic [2:0]       m_axi_arsize_o,
  output logic [1:0]       m_axi_arburst_o,
  output logic [3:0]       m_axi_arcache_o,
  output logic [2:0]       m_axi_arprot_o,
  output logic [3:0]       m_axi_arqos_o,
  output logic             m_axi_arvalid_o,
  input  logic             m_axi_arready_i,
  input  logic [3:0]       m_axi_rid_i,
  input  logic [255:0]     m_axi_rdata_i,
  input  logic [1:0]       m_axi_rresp_i,
  input  logic             m_axi_rlast_i,
  input  logic             m_axi_rvalid_i,
  output logic             m_axi_rready_o
);
  typedef enum logic [2:0] {TIdle, TChk, TLane, TAr, TR, TAw, TB, TDone} tstate_e;
  tstate_e st_q;

  logic [5:0]   k_q;
  logic         store_q, err_q, cache_v_q, aw_done_q, w_done_q;
  logic [26:0]  cache_beat_q, wbeat_q;
  logic [255:0] cache_q, wdata_q, res_q;
  logic [31:0]  wstrb_q, bytes_q;

  // ---------------------------------------------------------------- descriptor fields
  logic [31:0] base, pad;
  logic [3:0]  dt;
  logic [2:0]  nd;
  logic [5:0]  lanes;
  logic [2:0]  esz;
  assign base = desc_i[31:0];
  assign dt   = desc_i[35:32];
  assign nd   = desc_i[38:36];
  assign pad  = desc_i[95:64];
  always_comb begin
    unique case (dt)
      4'd0, 4'd5, 4'd8:       begin lanes = 6'd8;  esz = 3'd4; end
      4'd1, 4'd2, 4'd6, 4'd9: begin lanes = 6'd16; esz = 3'd2; end
      default:                begin lanes = 6'd32; esz = 3'd1; end
    endcase
  end

  // ---------------------------------------------------------------- lane k address
  logic               inb, in_mem, lane_en;
  logic signed [63:0] off, addr64;
  logic [31:0]        addr;
  logic [26:0]        beat;
  always_comb begin
    logic signed [63:0] c;
    inb = 1'b1;
    off = '0;
    for (int d = 0; d < 5; d++) begin
      c = 64'(signed'(coord_i[d]));
      if (d == 0) c = c + 64'(k_q);
      if (3'(d) < nd) begin
        if (c < 0 || c >= $signed({32'd0, desc_i[96 + 32*d +: 32]})) inb = 1'b0;
        off = off + c * 64'(signed'(desc_i[256 + 32*d +: 32]));
      end else if (c != 0) begin
        inb = 1'b0;
      end
    end
    addr64 = $signed({32'd0, base}) + off * $signed({61'd0, esz});
    in_mem = (addr64 >= $signed({32'd0, MemBase})) &&
             (addr64 + $signed({61'd0, esz}) <= $signed({31'd0, MemBase + MemSize}));
    addr = addr64[31:0];
    beat = addr[31:5];
    lane_en = mask_i[k_q[4:0]] && (k_q < lanes);
  end

  // element of the cached beat at addr, and lane merge helpers
  logic [31:0] elem, lane_val;
  assign elem = 32'(cache_q >> (8 * addr[4:0]));
  always_comb begin
    lane_val = 32'(vin_i >> (32'(esz) * 8 * 32'(k_q[4:0])));
  end

  function automatic logic [255:0] put_lane(input logic [255:0] v, input logic [2:0] sz,
                                            input logic [4:0] k, input logic [31:0] x);
    logic [255:0] r;
    r = v;
    unique case (sz)
      3'd4:    r[32*k[2:0] +: 32] = x;
      3'd2:    r[16*k[3:0] +: 16] = x[15:0];
      default: r[8*k +: 8] = x[7:0];
    endcase
    put_lane = r;
  endfunction

  logic [31:0] bstrb;
  always_comb begin
    unique case (esz)
      3'd4:    bstrb = 32'hf << addr[4:0];
      3'd2:    bstrb = 32'h3 << addr[4:0];
      default: bstrb = 32'h1 << addr[4:0];
    endcase
  end

  // ---------------------------------------------------------------- FSM
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= TIdle;
      k_q <= '0;
      store_q <= 1'b0;
      err_q <= 1'b0;
      cache_v_q <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q <= 1'b0;
      cache_beat_q <= '0;
      wbeat_q <= '0;
      cache_q <= '0;
      wdata_q <= '0;
      res_q <= '0;
      wstrb_q <= '0;
      bytes_q <= '0;
    end else begin
      unique case (st_q)
        TIdle: begin
          if (start_i) begin
            k_q <= '0;
            store_q <= store_i;
            err_q <= 1'b0;
            cache_v_q <= 1'b0;
            wstrb_q <= '0;
            bytes_q <= '0;
            res_q <= vin_i;
            st_q <= store_i ? TChk : TLane;
          end
        end
        TChk: begin  // store: every enabled in-bounds lane must be in memory
          if (k_q >= lanes) begin
            k_q <= '0;
            st_q <= TLane;
          end else if (lane_en && inb && !in_mem) begin
            err_q <= 1'b1;
            st_q <= TDone;
          end else begin
            k_q <= k_q + 6'd1;
          end
        end
        TLane: begin
          if (k_q >= lanes) begin
            st_q <= (store_q && wstrb_q != 32'd0) ? TAw : TDone;
            aw_done_q <= 1'b0;
            w_done_q <= 1'b0;
          end else if (!lane_en) begin
            k_q <= k_q + 6'd1;
          end else if (!inb) begin
            if (!store_q) begin
              unique case (esz)
                3'd4:    res_q <= put_lane(res_q, esz, k_q[4:0], pad);
                3'd2:    res_q <= put_lane(res_q, esz, k_q[4:0], {16'd0, pad[15:0]});
                default: res_q <= put_lane(res_q, esz, k_q[4:0], {24'd0, pad[7:0]});
              endcase
            end
            k_q <= k_q + 6'd1;
          end else if (!store_q) begin
            if (!in_mem) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else if (cache_v_q && cache_beat_q == beat) begin
              res_q <= put_lane(res_q, esz, k_q[4:0], elem);
              bytes_q <= bytes_q + 32'(esz);
              k_q <= k_q + 6'd1;
            end else begin
              st_q <= TAr;
            end
          end else begin
            if (wstrb_q != 32'd0 && wbeat_q != beat) begin
              st_q <= TAw;            // flush the previous beat, then come back
              aw_done_q <= 1'b0;
              w_done_q <= 1'b0;
            end else begin
              wbeat_q <= beat;
              wstrb_q <= wstrb_q | bstrb;
              for (int j = 0; j < 32; j++)
                if (bstrb[j]) wdata_q[8*j +: 8] <= 8'(lane_val >> (8 * (j - 32'(addr[4:0]))));
              bytes_q <= bytes_q + 32'(esz);
              k_q <= k_q + 6'd1;
            end
          end
        end
        TAr: if (m_axi_arready_i) st_q <= TR;
        TR: begin
          if (m_axi_rvalid_i) begin
            cache_q <= m_axi_rdata_i;
            cache_beat_q <= beat;
            cache_v_q <= 1'b1;
            if (m_axi_rresp_i != 2'b00 || !m_axi_rlast_i || m_axi_rid_i != 4'd0) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else begin
              st_q <= TLane;
            end
          end
        end
        TAw: begin
          if (m_axi_awready_i) aw_done_q <= 1'b1;
          if (m_axi_wready_i) w_done_q <= 1'b1;
          if ((aw_done_q || m_axi_awready_i) && (w_done_q || m_axi_wready_i)) st_q <= TB;
        end
        TB: begin
          if (m_axi_bvalid_i) begin
            wstrb_q <= '0;
            if (m_axi_bresp_i != 2'b00 || m_axi_bid_i != 4'd0) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else begin
              st_q <= (k_q >= lanes) ? TDone : TLane;
            end
          end
        end
        TDone: st_q <= TIdle;
        default: st_q <= TIdle;
      endcase
    end
  end

  assign done_o    = (st_q == TDone);
  assign bus_err_o = err_q;
  assign vres_o    = res_q;
  assign bytes_o   = bytes_q;
  assign rd_wait_o = (st_q == TAr) || (st_q == TR);

  assign m_axi_arid_o    = 4'd0;
  assign m_axi_araddr_o  = {beat, 5'd0};
  assign m_axi_arlen_o   = 8'd0;
  assign m_axi_arsize_o  = 3'd5;
  assign m_axi_arburst_o = 2'b01;
  assign m_axi_arcache_o = 4'b0000;
  assign m_axi_arprot_o  = 3'b000;
  assign m_axi_arqos_o   = 4'd0;
  assign m_axi_arvalid_o = (st_q == TAr);
  assign m_axi_rready_o  = (st_q == TR);
  assign m_axi_awid_o    = 4'd0;
  assign m_axi_awaddr_o  = {wbeat_q, 5'd0};
  assign m_axi_awlen_o   = 8'd0;
  assign m_axi_awsize_o  = 3'd5;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_awcache_o = 4'b0000;
  assign m_axi_awprot_o  = 3'b000;
  assign m_axi_awqos_o   = 4'd0;
  assign m_axi_awvalid_o = (st_q == TAw) && !aw_done_q;
  assign m_axi_wdata_o   = wdata_q;
  assign m_axi_wstrb_o   = wstrb_q;
  assign m_axi_wlast_o   = 1'b1;
  assign m_axi_wvalid_o  = (st_q == TAw) && !w_done_q;
  assign m_axi_bready_o  = (st_q == TB);
endmodule
