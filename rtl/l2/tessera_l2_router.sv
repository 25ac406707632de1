// tessera_l2_router: routes N upstream AXI4 masters (the engines of one port index, one per
// DCORE) to the same port index of N L2 slices. Private mode (slices_log2_i = 0): master m
// goes to slice m. Shared mode (slices_log2_i = k > 0): a burst goes to slice
// addr[8 +: k] (low log2(N) bits; a burst never crosses 256 bytes, so it never spans two
// slices). See docs/l2.md, "Shared mode".
//
// Ordering without ID remapping: a master may have bursts in flight towards one slice per
// direction only (a request for another slice waits until they have completed), and each
// slice port answers its bursts in acceptance order (docs/l2.md), so every slave port keeps
// a FIFO of the masters it accepted bursts from and returns R/B to the FIFO head; W beats
// are taken from the master at the head of the W FIFO (W follows AW order).
// Payloads are opaque vectors: AW/AR without the address, W without wlast, R without rlast.
module tessera_l2_router #(
  parameter int unsigned N     = 2,   // masters = slaves, power of two >= 2
  parameter int unsigned AxW   = 28,  // AW/AR payload bits (id, len, size, burst, cache, prot, qos)
  parameter int unsigned WW    = 288, // W payload bits (data, strb)
  parameter int unsigned RW    = 262, // R payload bits (id, data, resp)
  parameter int unsigned BW    = 6,   // B payload bits (id, resp)
  parameter int unsigned Depth = 4    // bursts in flight per slave port and direction
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic [1:0] slices_log2_i,
  // upstream (engines)
  input  logic [N-1:0][31:0]    m_awaddr_i,
  input  logic [N-1:0][AxW-1:0] m_aw_i,
  input  logic [N-1:0]          m_awvalid_i,
  output logic [N-1:0]          m_awready_o,
  input  logic [N-1:0][WW-1:0]  m_w_i,
  input  logic [N-1:0]          m_wlast_i,
  input  logic [N-1:0]          m_wvalid_i,
  output logic [N-1:0]          m_wready_o,
  output logic [N-1:0][BW-1:0]  m_b_o,
  output logic [N-1:0]          m_bvalid_o,
  input  logic [N-1:0]          m_bready_i,
  input  logic [N-1:0][31:0]    m_araddr_i,
  input  logic [N-1:0][AxW-1:0] m_ar_i,
  input  logic [N-1:0]          m_arvalid_i,
  output logic [N-1:0]          m_arready_o,
  output logic [N-1:0][RW-1:0]  m_r_o,
  output logic [N-1:0]          m_rlast_o,
  output logic [N-1:0]          m_rvalid_o,
  input  logic [N-1:0]          m_rready_i,
  // downstream (slices)
  output logic [N-1:0][31:0]    s_awaddr_o,
  output logic [N-1:0][AxW-1:0] s_aw_o,
  output logic [N-1:0]          s_awvalid_o,
  input  logic [N-1:0]          s_awready_i,
  output logic [N-1:0][WW-1:0]  s_w_o,
  output logic [N-1:0]          s_wlast_o,
  output logic [N-1:0]          s_wvalid_o,
  input  logic [N-1:0]          s_wready_i,
  input  logic [N-1:0][BW-1:0]  s_b_i,
  input  logic [N-1:0]          s_bvalid_i,
  output logic [N-1:0]          s_bready_o,
  output logic [N-1:0][31:0]    s_araddr_o,
  output logic [N-1:0][AxW-1:0] s_ar_o,
  output logic [N-1:0]          s_arvalid_o,
  input  logic [N-1:0]          s_arready_i,
  input  logic [N-1:0][RW-1:0]  s_r_i,
  input  logic [N-1:0]          s_rlast_i,
  input  logic [N-1:0]          s_rvalid_i,
  output logic [N-1:0]          s_rready_o
);
  localparam int unsigned TW = $clog2(N);
  localparam int unsigned DW = $clog2(Depth);
  localparam int unsigned CW = 4;  // per-master in-flight counter (saturates: new bursts wait)

  if (N < 2 || (1 << TW) != N || Depth < 2 || (1 << DW) != Depth) begin : g_bad_params
    $error("tessera_l2_router: N and Depth must be powers of two >= 2");
  end

  // target slice of an address: bits [8 +: k] (k <= log2 N used; more bits select a
  // slice that answers DECERR, see tessera_l2)
  function automatic logic [TW-1:0] route(input logic [TW-1:0] gran, input logic [1:0] k,
                                          input logic [TW-1:0] own);
    logic [TW-1:0] mask;
    for (int unsigned i = 0; i < TW; i++) mask[i] = (i < 32'(k));
    route = (k == 2'd0) ? own : (gran & mask);
  endfunction

  // ---------------------------------------------------------------- per-master state
  logic [N-1:0][CW-1:0] rd_cnt_q, wr_cnt_q;
  logic [N-1:0][TW-1:0] rd_tgt_q, wr_tgt_q, ar_tgt, aw_tgt;
  logic [N-1:0]         ar_take, aw_take, r_done, b_done;

  for (genvar m = 0; m < N; m++) begin : g_mst
    assign ar_tgt[m] = route(m_araddr_i[m][8 +: TW], slices_log2_i, TW'(m));
    assign aw_tgt[m] = route(m_awaddr_i[m][8 +: TW], slices_log2_i, TW'(m));

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_cnt_q[m] <= '0;
        wr_cnt_q[m] <= '0;
        rd_tgt_q[m] <= '0;
        wr_tgt_q[m] <= '0;
      end else begin
        rd_cnt_q[m] <= rd_cnt_q[m] + CW'(ar_take[m]) - CW'(r_done[m]);
        wr_cnt_q[m] <= wr_cnt_q[m] + CW'(aw_take[m]) - CW'(b_done[m]);
        if (ar_take[m]) rd_tgt_q[m] <= ar_tgt[m];
        if (aw_take[m]) wr_tgt_q[m] <= aw_tgt[m];
      end
    end
  end

  // ---------------------------------------------------------------- per-slave paths
  // request s from master m: valid, addressed to s, nothing in flight elsewhere, room
  logic [N-1:0][N-1:0] ar_req, aw_req, ar_gnt, aw_gnt;
  logic [N-1:0][TW-1:0] ar_idx, aw_idx;
  logic [N-1:0][TW-1:0] r_head, w_head, b_head;
  logic [N-1:0]         r_nempty, w_nempty, b_nempty, r_full, w_full, b_full;
  logic [N-1:0]         ar_hs, aw_hs, r_pop, w_pop, b_pop;

  always_comb begin
    for (int unsigned s = 0; s < N; s++) begin
      for (int unsigned m = 0; m < N; m++) begin
        ar_req[s][m] = m_arvalid_i[m] && ar_tgt[m] == TW'(s) && rd_cnt_q[m] != '1 &&
                       (rd_cnt_q[m] == '0 || rd_tgt_q[m] == TW'(s));
        aw_req[s][m] = m_awvalid_i[m] && aw_tgt[m] == TW'(s) && wr_cnt_q[m] != '1 &&
                       (wr_cnt_q[m] == '0 || wr_tgt_q[m] == TW'(s));
      end
    end
  end

  for (genvar s = 0; s < N; s++) begin : g_slv
    // a granted request stays granted until accepted (AXI: valid payload is stable)
    logic ar_lock_q, aw_lock_q;
    logic [TW-1:0] ar_lidx_q, aw_lidx_q;
    logic [N-1:0] ar_rr_gnt, aw_rr_gnt;
    logic [TW-1:0] ar_rr_idx, aw_rr_idx;

    tessera_l2_rr_arb #(.N(N)) u_ar_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (ar_req[s]),
      .advance_i(ar_hs[s]),
      .gnt_o    (ar_rr_gnt),
      .idx_o    (ar_rr_idx)
    );
    tessera_l2_rr_arb #(.N(N)) u_aw_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (aw_req[s]),
      .advance_i(aw_hs[s]),
      .gnt_o    (aw_rr_gnt),
      .idx_o    (aw_rr_idx)
    );
    assign ar_idx[s] = ar_lock_q ? ar_lidx_q : ar_rr_idx;
    assign aw_idx[s] = aw_lock_q ? aw_lidx_q : aw_rr_idx;
    assign ar_gnt[s] = ar_lock_q ? (N'(1) << ar_lidx_q) : ar_rr_gnt;
    assign aw_gnt[s] = aw_lock_q ? (N'(1) << aw_lidx_q) : aw_rr_gnt;

    assign s_arvalid_o[s] = |ar_req[s] && !r_full[s];
    assign s_araddr_o[s]  = m_araddr_i[ar_idx[s]];
    assign s_ar_o[s]      = m_ar_i[ar_idx[s]];
    assign ar_hs[s]       = s_arvalid_o[s] && s_arready_i[s];
    assign s_awvalid_o[s] = |aw_req[s] && !w_full[s] && !b_full[s];
    assign s_awaddr_o[s]  = m_awaddr_i[aw_idx[s]];
    assign s_aw_o[s]      = m_aw_i[aw_idx[s]];
    assign aw_hs[s]       = s_awvalid_o[s] && s_awready_i[s];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ar_lock_q <= 1'b0;
        aw_lock_q <= 1'b0;
        ar_lidx_q <= '0;
        aw_lidx_q <= '0;
      end else begin
        ar_lock_q <= s_arvalid_o[s] && !s_arready_i[s];
        aw_lock_q <= s_awvalid_o[s] && !s_awready_i[s];
        ar_lidx_q <= ar_idx[s];
        aw_lidx_q <= aw_idx[s];
      end
    end

    // FIFOs of master indices: R order, W order, B order
    logic [TW-1:0] rq_q [Depth];
    logic [TW-1:0] wq_q [Depth];
    logic [TW-1:0] bq_q [Depth];
    logic [DW:0] rq_n_q, wq_n_q, bq_n_q;
    logic [DW-1:0] rq_rp_q, wq_rp_q, bq_rp_q;
    logic [DW-1:0] rq_wp, wq_wp, bq_wp;
    assign rq_wp = rq_rp_q + rq_n_q[DW-1:0];
    assign wq_wp = wq_rp_q + wq_n_q[DW-1:0];
    assign bq_wp = bq_rp_q + bq_n_q[DW-1:0];
    assign r_nempty[s] = rq_n_q != '0;
    assign w_nempty[s] = wq_n_q != '0;
    assign b_nempty[s] = bq_n_q != '0;
    assign r_full[s]   = rq_n_q == (DW+1)'(Depth);
    assign w_full[s]   = wq_n_q == (DW+1)'(Depth);
    assign b_full[s]   = bq_n_q == (DW+1)'(Depth);
    assign r_head[s]   = rq_q[rq_rp_q];
    assign w_head[s]   = wq_q[wq_rp_q];
    assign b_head[s]   = bq_q[bq_rp_q];

    // FIFO storage (no reset: an entry is only read while the FIFO holds it)
    always_ff @(posedge clk_i) begin
      if (ar_hs[s]) rq_q[rq_wp] <= ar_idx[s];
      if (aw_hs[s]) begin
        wq_q[wq_wp] <= aw_idx[s];
        bq_q[bq_wp] <= aw_idx[s];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rq_n_q <= '0; wq_n_q <= '0; bq_n_q <= '0;
        rq_rp_q <= '0; wq_rp_q <= '0; bq_rp_q <= '0;
      end else begin
        rq_n_q  <= rq_n_q + (DW+1)'(ar_hs[s]) - (DW+1)'(r_pop[s]);
        wq_n_q  <= wq_n_q + (DW+1)'(aw_hs[s]) - (DW+1)'(w_pop[s]);
        bq_n_q  <= bq_n_q + (DW+1)'(aw_hs[s]) - (DW+1)'(b_pop[s]);
        rq_rp_q <= rq_rp_q + DW'(r_pop[s]);
        wq_rp_q <= wq_rp_q + DW'(w_pop[s]);
        bq_rp_q <= bq_rp_q + DW'(b_pop[s]);
      end
    end

    // responses and write data follow the FIFO heads
    assign s_rready_o[s] = r_nempty[s] && m_rready_i[r_head[s]];
    assign r_pop[s]      = s_rvalid_i[s] && s_rready_o[s] && s_rlast_i[s];
    assign s_bready_o[s] = b_nempty[s] && m_bready_i[b_head[s]];
    assign b_pop[s]      = s_bvalid_i[s] && s_bready_o[s];
    assign s_wvalid_o[s] = w_nempty[s] && m_wvalid_i[w_head[s]];
    assign s_w_o[s]      = m_w_i[w_head[s]];
    assign s_wlast_o[s]  = m_wlast_i[w_head[s]];
    assign w_pop[s]      = s_wvalid_o[s] && s_wready_i[s] && s_wlast_o[s];
  end

  // ---------------------------------------------------------------- upstream responses
  // All bursts of a master in flight target one slave, so at most one slave has it at a
  // FIFO head.
  always_comb begin
    m_arready_o = '0;
    m_awready_o = '0;
    m_wready_o  = '0;
    m_rvalid_o  = '0;
    m_bvalid_o  = '0;
    m_r_o       = '0;
    m_rlast_o   = '0;
    m_b_o       = '0;
    ar_take     = '0;
    aw_take     = '0;
    r_done      = '0;
    b_done      = '0;
    for (int unsigned s = 0; s < N; s++) begin
      for (int unsigned m = 0; m < N; m++) begin
        if (ar_gnt[s][m] && ar_hs[s]) begin
          m_arready_o[m] = 1'b1;
          ar_take[m]     = 1'b1;
        end
        if (aw_gnt[s][m] && aw_hs[s]) begin
          m_awready_o[m] = 1'b1;
          aw_take[m]     = 1'b1;
        end
        if (w_nempty[s] && w_head[s] == TW'(m)) m_wready_o[m] = s_wready_i[s];
        if (r_nempty[s] && r_head[s] == TW'(m)) begin
          m_rvalid_o[m] = s_rvalid_i[s];
          m_r_o[m]      = s_r_i[s];
          m_rlast_o[m]  = s_rlast_i[s];
          r_done[m]     = r_pop[s];
        end
        if (b_nempty[s] && b_head[s] == TW'(m)) begin
          m_bvalid_o[m] = s_bvalid_i[s];
          m_b_o[m]      = s_b_i[s];
          b_done[m]     = b_pop[s];
        end
      end
    end
  end
endmodule
