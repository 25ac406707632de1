// Tessera TPC cluster: AXI4 arbiter merging the masters of one DCORE (its TPC cores and
// the program loader) into one AXI4 master. Source s sends with ID s (its own ID is
// dropped); responses are routed back by ID and handed to the source with ID 0.
// Read and write address channels are arbitrated round-robin and independently; a
// granted write keeps the W channel until its last beat, so W beats stay in AW order.
// Any number of transactions may be outstanding (the fabric returns same-ID responses
// in order); the TPC cores have one at a time, the loader several reads.
module tessera_tpc_axi_arb #(
  parameter int unsigned NumSrc   = 5,
  parameter int unsigned IdBits   = 4,
  parameter int unsigned DataBits = 256
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // sources (AXI slaves of this module); IDs are not used (responses carry ID 0)
  input  logic [NumSrc-1:0][31:0]             s_awaddr_i,
  input  logic [NumSrc-1:0][7:0]              s_awlen_i,
  input  logic [NumSrc-1:0][2:0]              s_awsize_i,
  input  logic [NumSrc-1:0][1:0]              s_awburst_i,
  input  logic [NumSrc-1:0][3:0]              s_awcache_i,
  input  logic [NumSrc-1:0][2:0]              s_awprot_i,
  input  logic [NumSrc-1:0][3:0]              s_awqos_i,
  input  logic [NumSrc-1:0]                   s_awvalid_i,
  output logic [NumSrc-1:0]                   s_awready_o,
  input  logic [NumSrc-1:0][DataBits-1:0]     s_wdata_i,
  input  logic [NumSrc-1:0][DataBits/8-1:0]   s_wstrb_i,
  input  logic [NumSrc-1:0]                   s_wlast_i,
  input  logic [NumSrc-1:0]                   s_wvalid_i,
  output logic [NumSrc-1:0]                   s_wready_o,
  output logic [NumSrc-1:0][1:0]              s_bresp_o,
  output logic [NumSrc-1:0]                   s_bvalid_o,
  input  logic [NumSrc-1:0]                   s_bready_i,
  input  logic [NumSrc-1:0][31:0]             s_araddr_i,
  input  logic [NumSrc-1:0][7:0]              s_arlen_i,
  input  logic [NumSrc-1:0][2:0]              s_arsize_i,
  input  logic [NumSrc-1:0][1:0]              s_arburst_i,
  input  logic [NumSrc-1:0][3:0]              s_arcache_i,
  input  logic [NumSrc-1:0][2:0]              s_arprot_i,
  input  logic [NumSrc-1:0][3:0]              s_arqos_i,
  input  logic [NumSrc-1:0]                   s_arvalid_i,
  output logic [NumSrc-1:0]                   s_arready_o,
  output logic [DataBits-1:0]                 s_rdata_o,   // shared by all sources
  output logic [1:0]                          s_rresp_o,
  output logic                                s_rlast_o,
  output logic [NumSrc-1:0]                   s_rvalid_o,
  input  logic [NumSrc-1:0]                   s_rready_i,
  // the merged master
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i
);
  // the merged master as signals (m_axi_*)
  `TESSERA_AXI_SIGS_DECL(m_axi_, IdBits)
  `TESSERA_AXI_MST_CONNECT(mst_req_o, mst_rsp_i, m_axi_)
  localparam int unsigned SW = (NumSrc > 1) ? $clog2(NumSrc) : 1;

  // first requesting source at or after ptr (round robin); ptr itself if none
  function automatic logic [SW-1:0] rr_pick(input logic [NumSrc-1:0] req, input logic [SW-1:0] ptr);
    logic found;
    rr_pick = ptr;
    found   = 1'b0;
    for (int unsigned k = 0; k < NumSrc; k++) begin
      logic [SW:0] s;
      s = {1'b0, ptr} + SW'(k);
      if (s >= (SW+1)'(NumSrc)) s = s - (SW+1)'(NumSrc);
      if (!found && req[s[SW-1:0]]) begin
        rr_pick = s[SW-1:0];
        found   = 1'b1;
      end
    end
  endfunction

  // ---------------------------------------------------------------- read address
  logic          ar_lock_q;
  logic [SW-1:0] ar_sel_q, ar_ptr_q, ar_sel;
  assign ar_sel = ar_lock_q ? ar_sel_q : rr_pick(s_arvalid_i, ar_ptr_q);

  assign m_axi_arvalid = s_arvalid_i[ar_sel];
  assign m_axi_arid    = IdBits'(ar_sel);
  assign m_axi_araddr  = s_araddr_i[ar_sel];
  assign m_axi_arlen   = s_arlen_i[ar_sel];
  assign m_axi_arsize  = s_arsize_i[ar_sel];
  assign m_axi_arburst = s_arburst_i[ar_sel];
  assign m_axi_arcache = s_arcache_i[ar_sel];
  assign m_axi_arprot  = s_arprot_i[ar_sel];
  assign m_axi_arqos   = s_arqos_i[ar_sel];
  always_comb begin
    s_arready_o         = '0;
    s_arready_o[ar_sel] = m_axi_arready;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_lock_q <= 1'b0;
      ar_sel_q  <= '0;
      ar_ptr_q  <= '0;
    end else if (m_axi_arvalid) begin
      if (m_axi_arready) begin
        ar_lock_q <= 1'b0;
        ar_ptr_q  <= (32'(ar_sel) == NumSrc - 1) ? '0 : ar_sel + 1'b1;
      end else begin
        ar_lock_q <= 1'b1;
        ar_sel_q  <= ar_sel;
      end
    end
  end

  // ---------------------------------------------------------------- read data (by ID)
  logic [SW-1:0] r_dst;
  assign r_dst          = SW'(m_axi_rid);
  assign s_rdata_o      = m_axi_rdata;
  assign s_rresp_o      = m_axi_rresp;
  assign s_rlast_o      = m_axi_rlast;
  assign m_axi_rready = s_rready_i[r_dst];
  always_comb begin
    s_rvalid_o        = '0;
    s_rvalid_o[r_dst] = m_axi_rvalid;
  end

  // ---------------------------------------------------------------- write address + data
  logic          w_busy_q, aw_done_q, w_done_q;
  logic [SW-1:0] w_sel_q, w_ptr_q, w_sel;
  logic          w_active, aw_hs, w_hs;
  assign w_sel    = w_busy_q ? w_sel_q : rr_pick(s_awvalid_i, w_ptr_q);
  assign w_active = w_busy_q || s_awvalid_i[w_sel];

  assign m_axi_awvalid = w_active && !aw_done_q && s_awvalid_i[w_sel];
  assign m_axi_awid    = IdBits'(w_sel);
  assign m_axi_awaddr  = s_awaddr_i[w_sel];
  assign m_axi_awlen   = s_awlen_i[w_sel];
  assign m_axi_awsize  = s_awsize_i[w_sel];
  assign m_axi_awburst = s_awburst_i[w_sel];
  assign m_axi_awcache = s_awcache_i[w_sel];
  assign m_axi_awprot  = s_awprot_i[w_sel];
  assign m_axi_awqos   = s_awqos_i[w_sel];
  assign m_axi_wvalid  = w_active && !w_done_q && s_wvalid_i[w_sel];
  assign m_axi_wdata   = s_wdata_i[w_sel];
  assign m_axi_wstrb   = s_wstrb_i[w_sel];
  assign m_axi_wlast   = s_wlast_i[w_sel];
  assign aw_hs = m_axi_awvalid && m_axi_awready;
  assign w_hs  = m_axi_wvalid && m_axi_wready && m_axi_wlast;
  always_comb begin
    s_awready_o        = '0;
    s_wready_o         = '0;
    s_awready_o[w_sel] = w_active && !aw_done_q && m_axi_awready;
    s_wready_o[w_sel]  = w_active && !w_done_q && m_axi_wready;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_busy_q  <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      w_sel_q   <= '0;
      w_ptr_q   <= '0;
    end else if (w_active) begin
      if ((aw_done_q || aw_hs) && (w_done_q || w_hs)) begin
        w_busy_q  <= 1'b0;
        aw_done_q <= 1'b0;
        w_done_q  <= 1'b0;
        w_ptr_q   <= (32'(w_sel) == NumSrc - 1) ? '0 : w_sel + 1'b1;
      end else begin
        w_busy_q  <= 1'b1;
        w_sel_q   <= w_sel;
        aw_done_q <= aw_done_q || aw_hs;
        w_done_q  <= w_done_q || w_hs;
      end
    end
  end

  // ---------------------------------------------------------------- write response (by ID)
  logic [SW-1:0] b_dst;
  assign b_dst          = SW'(m_axi_bid);
  assign m_axi_bready = s_bready_i[b_dst];
  always_comb begin
    s_bresp_o        = '0;
    s_bvalid_o       = '0;
    s_bresp_o[b_dst]  = m_axi_bresp;
    s_bvalid_o[b_dst] = m_axi_bvalid;
  end

  if (IdBits > SW) begin : g_id_unused
    logic unused_id;
    assign unused_id = ^{m_axi_rid[IdBits-1:SW], m_axi_bid[IdBits-1:SW]};
  end
endmodule
