// tessera_l2_router: routes N upstream AXI4 masters (the engines of one port index, one per
// DCORE) to the same port index of N L2 slices. Private mode (slices_log2_i = 0): master m
// goes to slice m. Shared mode (slices_log2_i = k > 0): a burst goes to slice
// addr[8 +: k] (low log2(N) bits; a burst never crosses 256 bytes, so it never spans two
// slices). See docs/l2.md, "Shared mode" and "Shared-mode routing".
//
// Ordering without ID remapping. Every master has a ring of RingBursts slots per direction;
// a burst takes the tail slot when its AW/AR is accepted, and responses return to the
// master from the head slot, so R and B reach the master in request order although the
// bursts may be in flight at several slices. Private mode lets all RingBursts slots be in
// flight (the engines' read-ahead horizon through a cold slice); shared mode at most
// RobBursts, so the RobBursts consecutive slots in flight use distinct R buffers (slot
// modulo RobBursts). Each slice port answers its bursts in acceptance order, so every
// slave side keeps FIFOs of {master, slot} in acceptance order and delivers R/B of its
// FIFO head.
// - Reads, shared mode: R beats are written into the slot's buffer (RobBeats beats per
//   slot, room reserved at AR issue, so a slice's R channel is never stalled by ordering:
//   no cross-slice deadlock) and returned to the master from the head slot. A longer burst
//   (len >= RobBeats) is issued only when its master has nothing in flight and passes
//   through ("direct"), like every burst in private mode.
// - Writes: W beats go to the slot's slice in AW order (the master's W pointer walks its
//   slots; a slice takes W from the master at the head of its W FIFO). Shared mode: B is
//   stored in the slot and returned from the head slot; private mode: direct.
// - Private mode: every path is direct and combinational (no added cycle). A burst's first
//   W beat may go in the cycle its AW is accepted (W bypass, both modes, when the slave
//   has no W queued and the master no earlier W left).
// Payloads are opaque vectors: AW/AR without the address (len at LenLsb), W without
// wlast, R without rlast.
module tessera_l2_router #(
  parameter int unsigned N         = 2,   // masters = slaves, power of two >= 2
  parameter int unsigned AxW       = 28,  // AW/AR payload bits (id, len, size, burst, cache, prot, qos)
  parameter int unsigned LenLsb    = 16,  // position of the 8-bit len in the AW/AR payload
  parameter int unsigned WW        = 288, // W payload bits (data, strb)
  parameter int unsigned RW        = 262, // R payload bits (id, data, resp)
  parameter int unsigned BW        = 6,   // B payload bits (id, resp)
  parameter int unsigned Depth     = 16,  // bursts in flight per slave port and direction
  parameter int unsigned RingBursts = 16, // bursts in flight per master and direction (private)
  parameter int unsigned RobBursts = 4,   // bursts in flight per master and direction (shared)
  parameter int unsigned RobBeats  = 8    // R beats buffered per slot (shared mode)
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
  localparam int unsigned TW  = $clog2(N);
  localparam int unsigned DW  = $clog2(Depth);
  localparam int unsigned SW  = $clog2(RingBursts);
  localparam int unsigned BSW = $clog2(RobBursts);   // R buffer slot: slot modulo RobBursts
  localparam int unsigned BtW = $clog2(RobBeats);
  localparam int unsigned QW  = TW + SW;  // slave FIFO entry: {master, slot}

  if (N < 2 || (1 << TW) != N || Depth < 2 || (1 << DW) != Depth || RobBursts < 2 ||
      (1 << BSW) != RobBursts || (1 << SW) != RingBursts || RingBursts < RobBursts ||
      Depth < RingBursts || RobBeats < 2 || (1 << BtW) != RobBeats || RobBeats > 128) begin : g_bad_params
    $error("tessera_l2_router: N, Depth, RingBursts, RobBursts and RobBeats must be powers of two >= 2, RobBursts <= RingBursts <= Depth");
  end

  // target slice of an address: bits [8 +: k] (k <= log2 N used; more bits select a
  // slice that answers DECERR, see tessera_l2)
  logic [TW-1:0] kmask;
  always_comb begin
    for (int unsigned i = 0; i < TW; i++) kmask[i] = (i < 32'(slices_log2_i));
  end

  logic priv;
  assign priv = (slices_log2_i == 2'd0);

  // ---------------------------------------------------------------- per-master slot rings
  // reads
  logic [N-1:0][RingBursts-1:0][TW-1:0] rd_tgt_q;    // slice of the slot's burst
  logic [N-1:0][RingBursts-1:0]         rd_dir_q;    // direct (pass-through) burst
  logic [N-1:0][RingBursts-1:0][BtW:0]  rd_wbeat_q;  // beats written into the slot
  logic [N-1:0][SW-1:0]                rd_tp_q, rd_hp_q;
  logic [N-1:0][SW:0]                  rd_cnt_q;
  logic [N-1:0][BtW-1:0]               rd_rbeat_q;  // next beat of the head slot to return
  // R buffer: {rlast, payload} per beat, entry {master, slot, beat} (no reset: a beat is
  // read only once written)
  localparam int unsigned RobEntries = N * RobBursts * RobBeats;
  logic [RW:0] rob_q [RobEntries];
  // writes
  logic [N-1:0][RingBursts-1:0][TW-1:0] wr_tgt_q;
  logic [N-1:0][RingBursts-1:0]         wr_dir_q;
  logic [N-1:0][RingBursts-1:0]         wr_bv_q;     // B stored in the slot
  logic [N-1:0][RingBursts-1:0][BW-1:0] wr_b_q;
  logic [N-1:0][SW-1:0]                wr_tp_q, wr_wp_q, wr_hp_q;
  logic [N-1:0][SW:0]                  wr_cnt_q, wr_wcnt_q;  // slots used / W still to send

  logic [N-1:0][TW-1:0] ar_tgt, aw_tgt;
  logic [N-1:0]         ar_ok, ar_long, aw_ok, ar_take, aw_take;

  for (genvar m = 0; m < N; m++) begin : g_mst_req
    assign ar_tgt[m]  = priv ? TW'(m) : (m_araddr_i[m][8 +: TW] & kmask);
    assign aw_tgt[m]  = priv ? TW'(m) : (m_awaddr_i[m][8 +: TW] & kmask);
    assign ar_long[m] = m_ar_i[m][LenLsb +: 8] >= 8'(RobBeats);
    // a long burst in shared mode passes through: only with nothing else in flight
    assign ar_ok[m]   = rd_cnt_q[m] != (priv ? (SW+1)'(RingBursts) : (SW+1)'(RobBursts)) &&
                        (priv || !ar_long[m] || rd_cnt_q[m] == '0);
    assign aw_ok[m]   = wr_cnt_q[m] != (priv ? (SW+1)'(RingBursts) : (SW+1)'(RobBursts));
  end

  // ---------------------------------------------------------------- per-slave paths
  logic [N-1:0][N-1:0]  ar_req, aw_req, ar_gnt, aw_gnt;
  logic [N-1:0][TW-1:0] ar_idx, aw_idx;
  logic [N-1:0][TW-1:0] r_hm, w_hm, b_hm;   // FIFO head: master
  logic [N-1:0][SW-1:0] r_hs, b_hs;         // FIFO head: slot
  logic [N-1:0]         r_hdir, b_hdir;     // FIFO head slot is direct
  logic [N-1:0]         r_nempty, w_nempty, b_nempty, r_full, w_full, b_full;
  logic [N-1:0]         w_byp;   // slave s passes W of the AW it accepts now
  logic [N-1:0]         ar_hs, aw_hs, r_pop, w_pop, b_pop, r_store, b_store;
  // per-slave FIFOs (storage, fill level, read pointer)
  logic [N-1:0][Depth-1:0][QW-1:0] rq_q, bq_q;
  logic [N-1:0][Depth-1:0][TW-1:0] wq_q;
  logic [N-1:0][DW:0]              rq_n_q, wq_n_q, bq_n_q;
  logic [N-1:0][DW-1:0]            rq_rp_q, wq_rp_q, bq_rp_q;

  always_comb begin
    for (int unsigned s = 0; s < N; s++) begin
      for (int unsigned m = 0; m < N; m++) begin
        ar_req[s][m] = m_arvalid_i[m] && ar_tgt[m] == TW'(s) && ar_ok[m];
        aw_req[s][m] = m_awvalid_i[m] && aw_tgt[m] == TW'(s) && aw_ok[m];
      end
    end
  end

  for (genvar s = 0; s < N; s++) begin : g_slv
    // a granted request stays granted until accepted (AXI: valid payload is stable)
    logic ar_lock_q, aw_lock_q;
    logic [TW-1:0] ar_lidx_q, aw_lidx_q;
    logic [N-1:0] ar_rr_gnt, aw_rr_gnt;
    logic [TW-1:0] ar_rr_idx, aw_rr_idx;

    tessera_rr_arb #(.N(N)) u_ar_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (ar_req[s]),
      .ack_i    (ar_hs[s]),
      .gnt_o    (ar_rr_gnt),
      .idx_o    (ar_rr_idx)
    );
    tessera_rr_arb #(.N(N)) u_aw_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (aw_req[s]),
      .ack_i    (aw_hs[s]),
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

    // FIFOs in acceptance order: R {master, slot}, W master, B {master, slot}
    logic [DW-1:0] rq_wp, wq_wp, bq_wp;
    logic [QW-1:0] rq_head, bq_head;
    assign rq_wp = rq_rp_q[s] + rq_n_q[s][DW-1:0];
    assign wq_wp = wq_rp_q[s] + wq_n_q[s][DW-1:0];
    assign bq_wp = bq_rp_q[s] + bq_n_q[s][DW-1:0];
    assign r_nempty[s] = rq_n_q[s] != '0;
    assign w_nempty[s] = wq_n_q[s] != '0;
    assign b_nempty[s] = bq_n_q[s] != '0;
    assign r_full[s]   = rq_n_q[s] == (DW+1)'(Depth);
    assign w_full[s]   = wq_n_q[s] == (DW+1)'(Depth);
    assign b_full[s]   = bq_n_q[s] == (DW+1)'(Depth);
    assign rq_head     = rq_q[s][rq_rp_q[s]];
    assign bq_head     = bq_q[s][bq_rp_q[s]];
    assign r_hm[s]     = rq_head[SW +: TW];
    assign r_hs[s]     = rq_head[SW-1:0];
    assign b_hm[s]     = bq_head[SW +: TW];
    assign b_hs[s]     = bq_head[SW-1:0];
    assign w_hm[s]     = wq_q[s][wq_rp_q[s]];
    assign r_hdir[s]   = rd_dir_q[r_hm[s]][r_hs[s]];
    assign b_hdir[s]   = wr_dir_q[b_hm[s]][b_hs[s]];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rq_q[s] <= '0; wq_q[s] <= '0; bq_q[s] <= '0;
        rq_n_q[s] <= '0; wq_n_q[s] <= '0; bq_n_q[s] <= '0;
        rq_rp_q[s] <= '0; wq_rp_q[s] <= '0; bq_rp_q[s] <= '0;
      end else begin
        if (ar_hs[s]) begin
          for (int unsigned e = 0; e < Depth; e++) begin
            if (rq_wp == DW'(e)) rq_q[s][e] <= {ar_idx[s], rd_tp_q[ar_idx[s]]};
          end
        end
        if (aw_hs[s]) begin
          for (int unsigned e = 0; e < Depth; e++) begin
            if (wq_wp == DW'(e)) wq_q[s][e] <= aw_idx[s];
            if (bq_wp == DW'(e)) bq_q[s][e] <= {aw_idx[s], wr_tp_q[aw_idx[s]]};
          end
        end
        rq_n_q[s]  <= rq_n_q[s] + (DW+1)'(ar_hs[s]) - (DW+1)'(r_pop[s]);
        wq_n_q[s]  <= wq_n_q[s] + (DW+1)'(aw_hs[s]) - (DW+1)'(w_pop[s]);
        bq_n_q[s]  <= bq_n_q[s] + (DW+1)'(aw_hs[s]) - (DW+1)'(b_pop[s]);
        rq_rp_q[s] <= rq_rp_q[s] + DW'(r_pop[s]);
        wq_rp_q[s] <= wq_rp_q[s] + DW'(w_pop[s]);
        bq_rp_q[s] <= bq_rp_q[s] + DW'(b_pop[s]);
      end
    end

    // R/B of the FIFO head: a buffered slot always has room (never stalls the slice); a
    // direct slot waits for its master (it is then the master's head slot)
    assign s_rready_o[s] = r_nempty[s] && (!r_hdir[s] ||
                           (m_rready_i[r_hm[s]] && rd_hp_q[r_hm[s]] == r_hs[s]));
    assign r_pop[s]      = s_rvalid_i[s] && s_rready_o[s] && s_rlast_i[s];
    assign r_store[s]    = s_rvalid_i[s] && r_nempty[s] && !r_hdir[s];
    assign s_bready_o[s] = b_nempty[s] && (!b_hdir[s] ||
                           (m_bready_i[b_hm[s]] && wr_hp_q[b_hm[s]] == b_hs[s]));
    assign b_pop[s]      = s_bvalid_i[s] && s_bready_o[s];
    assign b_store[s]    = s_bvalid_i[s] && b_nempty[s] && !b_hdir[s];
    // W from the master at the head of the W FIFO, once that master's W pointer is on a
    // burst for this slice (then it is this burst: both follow AW order). W bypass: with
    // the FIFO empty, the first beat of a burst passes in the cycle its AW is accepted,
    // when its master has no earlier burst's W left (w_byp; a one-beat store then takes
    // one cycle, not two)
    assign w_byp[s]      = !w_nempty[s] && aw_hs[s] && wr_wcnt_q[aw_idx[s]] == '0;
    assign s_wvalid_o[s] = w_nempty[s] ? (m_wvalid_i[w_hm[s]] && wr_wcnt_q[w_hm[s]] != '0 &&
                                          wr_tgt_q[w_hm[s]][wr_wp_q[w_hm[s]]] == TW'(s))
                                       : (w_byp[s] && m_wvalid_i[aw_idx[s]]);
    logic [TW-1:0] w_src;   // master whose W this slave takes
    assign w_src         = w_nempty[s] ? w_hm[s] : aw_idx[s];
    assign s_w_o[s]      = m_w_i[w_src];
    assign s_wlast_o[s]  = m_wlast_i[w_src];
    assign w_pop[s]      = s_wvalid_o[s] && s_wready_i[s] && s_wlast_o[s];
  end

  // ---------------------------------------------------------------- address handshakes
  always_comb begin
    m_arready_o = '0;
    m_awready_o = '0;
    ar_take     = '0;
    aw_take     = '0;
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
      end
    end
  end

  // ---------------------------------------------------------------- upstream R, W, B
  logic [N-1:0] r_hs_m, r_last_m, w_hs_m, b_hs_m;

  for (genvar m = 0; m < N; m++) begin : g_mst
    logic [SW-1:0] rh, bh;
    logic [TW-1:0] rt, wt, bt;
    logic          rbusy, rdir, rpass, wpend, bbusy, bdir, bpass;
    logic [RW:0]   rob_out;

    assign rh      = rd_hp_q[m];
    assign rt      = rd_tgt_q[m][rh];
    assign rbusy   = rd_cnt_q[m] != '0;
    assign rdir    = rd_dir_q[m][rh];
    assign rpass   = rbusy && rdir && r_nempty[rt] && r_hm[rt] == TW'(m) && r_hs[rt] == rh;
    assign rob_out = rob_q[{TW'(m), rh[BSW-1:0], rd_rbeat_q[m]}];
    assign m_rvalid_o[m] = rdir ? (rpass && s_rvalid_i[rt])
                                : (rbusy && rd_wbeat_q[m][rh] > {1'b0, rd_rbeat_q[m]});
    assign m_r_o[m]      = rdir ? s_r_i[rt] : rob_out[RW-1:0];
    assign m_rlast_o[m]  = rdir ? s_rlast_i[rt] : rob_out[RW];
    assign r_hs_m[m]     = m_rvalid_o[m] && m_rready_i[m];
    assign r_last_m[m]   = r_hs_m[m] && m_rlast_o[m];

    assign wpend = wr_wcnt_q[m] != '0;
    assign wt    = wr_tgt_q[m][wr_wp_q[m]];
    assign m_wready_o[m] = wpend ? (w_nempty[wt] && w_hm[wt] == TW'(m) && s_wready_i[wt])
                                 : (aw_take[m] && w_byp[aw_tgt[m]] && s_wready_i[aw_tgt[m]]);
    assign w_hs_m[m]     = m_wvalid_i[m] && m_wready_o[m] && m_wlast_i[m];

    assign bh    = wr_hp_q[m];
    assign bt    = wr_tgt_q[m][bh];
    assign bbusy = wr_cnt_q[m] != '0;
    assign bdir  = wr_dir_q[m][bh];
    assign bpass = bbusy && bdir && b_nempty[bt] && b_hm[bt] == TW'(m) && b_hs[bt] == bh;
    assign m_bvalid_o[m] = bdir ? (bpass && s_bvalid_i[bt]) : (bbusy && wr_bv_q[m][bh]);
    assign m_b_o[m]      = bdir ? s_b_i[bt] : wr_b_q[m][bh];
    assign b_hs_m[m]     = m_bvalid_o[m] && m_bready_i[m];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_tgt_q[m]   <= '0;
        rd_dir_q[m]   <= '0;
        rd_wbeat_q[m] <= '0;
        rd_tp_q[m]    <= '0;
        rd_hp_q[m]    <= '0;
        rd_cnt_q[m]   <= '0;
        rd_rbeat_q[m] <= '0;
        wr_tgt_q[m]   <= '0;
        wr_dir_q[m]   <= '0;
        wr_bv_q[m]    <= '0;
        wr_b_q[m]     <= '0;
        wr_tp_q[m]    <= '0;
        wr_wp_q[m]    <= '0;
        wr_hp_q[m]    <= '0;
        wr_cnt_q[m]   <= '0;
        wr_wcnt_q[m]  <= '0;
      end else begin
        // reads: allocate at AR, fill from the slices, retire at the master's rlast
        // (per-slot updates with constant indices: plain flops in synthesis; each slot
        // loop sits under its event, so the simulator skips it in the cycles without one;
        // for any one slot the updates keep their order: fill, then retire)
        if (ar_take[m]) begin
          for (int unsigned i = 0; i < RingBursts; i++) begin
            if (rd_tp_q[m] == SW'(i)) begin
              rd_tgt_q[m][i] <= ar_tgt[m];
              rd_dir_q[m][i] <= priv || ar_long[m];
            end
          end
        end
        for (int unsigned s = 0; s < N; s++) begin
          if (r_store[s] && r_hm[s] == TW'(m)) begin
            for (int unsigned i = 0; i < RingBursts; i++) begin
              if (r_hs[s] == SW'(i)) rd_wbeat_q[m][i] <= rd_wbeat_q[m][i] + (BtW+1)'(1);
            end
          end
        end
        if (r_last_m[m]) begin
          for (int unsigned i = 0; i < RingBursts; i++) begin
            if (rh == SW'(i)) rd_wbeat_q[m][i] <= '0;
          end
        end
        if (ar_take[m]) rd_tp_q[m] <= rd_tp_q[m] + SW'(1);
        if (r_hs_m[m] && !rdir) rd_rbeat_q[m] <= rd_rbeat_q[m] + BtW'(1);
        if (r_last_m[m]) begin
          rd_rbeat_q[m] <= '0;
          rd_hp_q[m]    <= rh + SW'(1);
        end
        rd_cnt_q[m] <= rd_cnt_q[m] + (SW+1)'(ar_take[m]) - (SW+1)'(r_last_m[m]);
        // writes: allocate at AW, W pointer at wlast, retire at the master's B (same
        // structure as the reads)
        if (aw_take[m]) begin
          for (int unsigned i = 0; i < RingBursts; i++) begin
            if (wr_tp_q[m] == SW'(i)) begin
              wr_tgt_q[m][i] <= aw_tgt[m];
              wr_dir_q[m][i] <= priv;
            end
          end
        end
        for (int unsigned s = 0; s < N; s++) begin
          if (b_store[s] && b_hm[s] == TW'(m)) begin
            for (int unsigned i = 0; i < RingBursts; i++) begin
              if (b_hs[s] == SW'(i)) begin
                wr_bv_q[m][i] <= 1'b1;
                wr_b_q[m][i]  <= s_b_i[s];
              end
            end
          end
        end
        if (b_hs_m[m]) begin
          for (int unsigned i = 0; i < RingBursts; i++) begin
            if (bh == SW'(i)) wr_bv_q[m][i] <= 1'b0;
          end
        end
        if (aw_take[m]) wr_tp_q[m] <= wr_tp_q[m] + SW'(1);
        if (w_hs_m[m]) wr_wp_q[m] <= wr_wp_q[m] + SW'(1);
        if (b_hs_m[m]) wr_hp_q[m] <= bh + SW'(1);
        wr_cnt_q[m]  <= wr_cnt_q[m] + (SW+1)'(aw_take[m]) - (SW+1)'(b_hs_m[m]);
        wr_wcnt_q[m] <= wr_wcnt_q[m] + (SW+1)'(aw_take[m]) - (SW+1)'(w_hs_m[m]);
      end
    end
  end

  // R buffer writes: the slot at the head of slice s's R FIFO takes s's beat
  always_ff @(posedge clk_i) begin
    for (int unsigned s = 0; s < N; s++) begin
      if (r_store[s])
        rob_q[{r_hm[s], r_hs[s][BSW-1:0], rd_wbeat_q[r_hm[s]][r_hs[s]][BtW-1:0]}] <= {s_rlast_i[s], s_r_i[s]};
    end
  end
endmodule
