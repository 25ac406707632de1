// Read-ahead unit of an L2 slice (see docs/l2.md, "Read-ahead"). The read engines tell it
// the bursts they accepted (allocating, in this slice); it looks the lines of those bursts
// up ahead of the engines (one lookup at a time, as requester index NumEng of the banks)
// and refills the missing ones with several misses in flight: a run of consecutive missing
// lines of one burst (at most 4 lines, the burst never crosses 256 bytes) becomes ONE
// downstream read burst of 2 beats per line, ARID = IdBase + MSHR index. The ways are
// reserved at the lookup (dirty victims go to the write queue in the result cycle, by the
// slice); the R beats are written straight into the reserved ways (side operation with
// priority over all others), and the last beat of each line makes it valid and releases
// the reservation (no owner replay: the engines' own lookups then hit). A refill error
// releases the line invalid (the engine's own miss then reports the error). A burst with
// the stream hint (ARQOS[3:2], private mode) also has the one or two 256-byte blocks after
// its own looked up, or only the block two after it (docs/l2.md "AXI subset and hints").
module tessera_l2_pf #(
  parameter int unsigned NumPorts = 3,
  parameter int unsigned NumPf    = 6,
  parameter int unsigned WayBits  = 3,
  parameter int unsigned LsetBits = 5,
  parameter int unsigned BankBits = 2,
  parameter int unsigned HintDepth = 5,   // >= the read engine's AR FIFO depth + 1
  parameter int unsigned PfW      = (NumPf > 1) ? $clog2(NumPf) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // hints from the read engines (an accepted allocating AR of this slice)
  input  logic [NumPorts-1:0]               hint_valid_i,
  input  logic [NumPorts-1:0][31:0]         hint_addr_i,
  input  logic [NumPorts-1:0][7:0]          hint_len_i,
  input  logic [NumPorts-1:0][1:0]          hint_cls_i,
  // stream hint, when the burst ends at its block's end: 2'b01 the master also reads the
  // 256-byte block after the burst's block, 2'b10 the two blocks after it (looked up and
  // refilled right after the burst's lines); 2'b11 the burst's lines and the next block
  // were hinted before (by the master's previous hinted burst): only the block two after
  // the burst's is looked up
  input  logic [NumPorts-1:0][1:0]          hint_blk_i,
  // may issue a lookup (write-queue room, no maintenance running)
  input  logic                              enable_i,
  // lookup request / result
  output logic                              req_valid_o,
  output logic [31:0]                       req_addr_o,
  output logic [1:0]                        req_cls_o,
  input  logic                              req_gnt_i,
  input  logic [BankBits-1:0]               req_bank_i,   // bank / lset of req_addr_o
  input  logic [LsetBits-1:0]               req_lset_i,
  input  logic                              res_valid_i,
  input  tessera_l2_pkg::res_kind_e         res_kind_i,
  input  logic [WayBits-1:0]                res_way_i,
  // downstream reads
  output logic [NumPf-1:0]                  ar_req_o,
  output logic [NumPf-1:0][31:0]            ar_addr_o,
  output logic [NumPf-1:0][7:0]             ar_len_o,
  input  logic [NumPf-1:0]                  ar_gnt_i,
  input  logic [NumPf-1:0]                  hazard_i,     // an older write to the range is pending
  output logic [NumPf-1:0]                  hz_want_o,    // hazard_i[k] is looked at (state MAr)
  output logic [NumPf-1:0][25:0]            rng_line_o,   // lines [rng_line, rng_line + rng_n)
  output logic [NumPf-1:0][2:0]             rng_n_o,
  // R beats of the read-ahead MSHRs (rid decoded by the slice), from the slice's memory
  // master (r_*) and from its second, read-only master (r1_*; tied off with one master). A
  // run's burst goes out on one master, so the two never carry beats of the same MSHR
  input  logic                              r_valid_i,
  input  logic [PfW-1:0]                    r_idx_i,
  input  logic [1:0]                        r_resp_i,
  input  logic                              r1_valid_i,
  input  logic [PfW-1:0]                    r1_idx_i,
  input  logic [1:0]                        r1_resp_i,
  // fill of one beat into its reserved way (r_valid_i; always accepted)
  output logic [BankBits-1:0]               fill_bank_o,
  output logic [LsetBits-1:0]               fill_lset_o,
  output logic [WayBits-1:0]                fill_way_o,
  output logic                              fill_beat_o,
  output logic                              fill_last_o,  // last beat of the line
  output logic                              fill_err_o,   // the line had an error: release invalid
  // the same for the beat on r1_* (the slice writes one of the two into the banks per
  // cycle and holds the other master's R)
  output logic [BankBits-1:0]               fill1_bank_o,
  output logic [LsetBits-1:0]               fill1_lset_o,
  output logic [WayBits-1:0]                fill1_way_o,
  output logic                              fill1_beat_o,
  output logic                              fill1_err_o,
  output logic                              idle_o        // no hint queued, no lookup, no run open or in flight
);
  // ---------------------------------------------------------------- hint FIFOs (per port)
  localparam int unsigned HW = (HintDepth > 1) ? $clog2(HintDepth) : 1;
  localparam int unsigned PW = (NumPorts > 1) ? $clog2(NumPorts) : 1;  // port index
  logic [NumPorts-1:0][HintDepth-1:0][25:0] h_line_q;
  logic [NumPorts-1:0][HintDepth-1:0][2:0]  h_n_q;
  logic [NumPorts-1:0][HintDepth-1:0][1:0]  h_cls_q;
  logic [NumPorts-1:0][HintDepth-1:0][1:0]  h_nxt_q;   // whole blocks after the lines
  logic [NumPorts-1:0][HW-1:0]              h_rd_q, h_wr_q;
  logic [NumPorts-1:0][HW:0]                h_cnt_q;
  logic [NumPorts-1:0]                      h_ne, h_pop;
  logic [NumPorts-1:0][HW-1:0]              h_rd_n, h_wr_n;

  logic [NumPorts-1:0][31:0] h_last_addr;
  logic [NumPorts-1:0]       h_push;
  logic [NumPorts-1:0][1:0]  h_in_nxt;
  logic [NumPorts-1:0][25:0] h_in_line;
  logic [NumPorts-1:0][2:0]  h_in_n;
  // a port's hint equal to its previous one (the same lines, e.g. a master re-reading one
  // line in one-beat bursts) is dropped: those lines were looked up already, and each
  // lookup would cost a bank cycle (only read-ahead is lost; the engines' own lookups
  // still miss and refill as usual)
  logic [NumPorts-1:0]       h_same, h_prev_v_q;
  logic [NumPorts-1:0][1:0]  h_prev_nxt_q;
  logic [NumPorts-1:0][25:0] h_prev_line_q;
  logic [NumPorts-1:0][2:0]  h_prev_n_q;
  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      h_same[p] = h_prev_v_q[p] && (h_prev_line_q[p] == h_in_line[p]) &&
                  (h_prev_n_q[p] == h_in_n[p]) && (h_prev_nxt_q[p] == h_in_nxt[p]);
      h_push[p] = hint_valid_i[p] && (32'(h_cnt_q[p]) < HintDepth) && !h_same[p];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      h_prev_v_q    <= '0;
      h_prev_nxt_q  <= '0;
      h_prev_line_q <= '0;
      h_prev_n_q    <= '0;
    end else begin
      for (int p = 0; p < NumPorts; p++) begin
        if (hint_valid_i[p]) begin
          h_prev_v_q[p]    <= 1'b1;
          h_prev_nxt_q[p]  <= h_in_nxt[p];
          h_prev_line_q[p] <= h_in_line[p];
          h_prev_n_q[p]    <= h_in_n[p];
        end
      end
    end
  end
  // each port's oldest hint (read with a per-port mux, then picked by port)
  logic [NumPorts-1:0][25:0] h_hd_line;
  logic [NumPorts-1:0][2:0]  h_hd_n;
  logic [NumPorts-1:0][1:0]  h_hd_cls;
  logic [NumPorts-1:0][1:0]  h_hd_nxt;
  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      h_ne[p]        = (h_cnt_q[p] != '0);
      h_last_addr[p] = hint_addr_i[p] + {19'd0, hint_len_i[p], 5'd0};
      h_rd_n[p]      = (32'(h_rd_q[p]) == HintDepth - 1) ? '0 : h_rd_q[p] + 1'b1;
      h_wr_n[p]      = (32'(h_wr_q[p]) == HintDepth - 1) ? '0 : h_wr_q[p] + 1'b1;
      // the entry: the burst's lines and how many whole blocks follow them; with the skip
      // hint only the block two after the burst's
      if (hint_blk_i[p] == 2'b11 && (h_last_addr[p][7:6] == 2'd3)) begin
        h_in_line[p] = {h_last_addr[p][31:8] + 24'd2, 2'd0};
        h_in_n[p]    = 3'd4;
        h_in_nxt[p]  = 2'd0;
      end else begin
        h_in_line[p] = hint_addr_i[p][31:6];
        h_in_n[p]    = 3'(h_last_addr[p][31:6] - hint_addr_i[p][31:6]) + 3'd1;
        h_in_nxt[p]  = (h_last_addr[p][7:6] == 2'd3 && hint_blk_i[p] != 2'b11) ? hint_blk_i[p] : 2'd0;
      end
      h_hd_line[p] = '0;
      h_hd_n[p]    = '0;
      h_hd_cls[p]  = '0;
      h_hd_nxt[p]  = '0;
      for (int e = 0; e < HintDepth; e++) begin
        if (32'(h_rd_q[p]) == e) begin
          h_hd_line[p] = h_line_q[p][e];
          h_hd_n[p]    = h_n_q[p][e];
          h_hd_cls[p]  = h_cls_q[p][e];
          h_hd_nxt[p]  = h_nxt_q[p][e];
        end
      end
    end
  end

  // ---------------------------------------------------------------- MSHRs
  typedef enum logic [1:0] { MFree, MOpen, MAr, MRead } mst_e;
  mst_e [NumPf-1:0]                         m_st_q;
  logic [NumPf-1:0][25:0]                   m_line_q;
  logic [NumPf-1:0][2:0]                    m_n_q;
  logic [NumPf-1:0][3:0][BankBits-1:0]      m_bank_q;
  logic [NumPf-1:0][3:0][LsetBits-1:0]      m_lset_q;
  logic [NumPf-1:0][3:0][WayBits-1:0]       m_way_q;
  logic [NumPf-1:0][2:0]                    m_beat_q;   // next R beat: {line, half}
  logic [NumPf-1:0]                         m_err_q;    // error on the current line

  logic            any_free, two_free;
  logic [PfW-1:0]  free_idx;
  logic [PfW:0]    n_free;
  always_comb begin
    any_free = 1'b0;
    free_idx = '0;
    n_free   = '0;
    for (int k = NumPf - 1; k >= 0; k--) begin
      if (m_st_q[k] == MFree) begin
        any_free = 1'b1;
        free_idx = PfW'(k);
        n_free   = n_free + 1'b1;
      end
    end
    two_free = (n_free >= (PfW+1)'(2));
  end

  // ---------------------------------------------------------------- issuer
  // cur: the hint being worked on (cur_line_q = next line to look up); one lookup per cycle,
  // the next one is issued in the cycle the previous result arrives
  logic            cur_v_q, infl_q, open_v_q;
  logic [25:0]     cur_line_q, infl_line_q;
  logic [3:0]      cur_left_q;   // lines left: the burst's (1-4) + 4 per block after it (0-2)
  logic [1:0]      cur_cls_q;
  logic [BankBits-1:0] infl_bank_q;
  logic [LsetBits-1:0] infl_lset_q;
  logic [PfW-1:0]  open_q;
  logic [PW-1:0] rr_q;

  // pick the next hint round-robin from rr_q, first among the ports whose last looked-up
  // line missed: a port whose hints hit (a master re-reading what another engine just
  // wrote) would only take lookups from ports whose hints refill. Every fourth pick is
  // plain round-robin, so a port whose hints hit still gets its turn (and its next miss
  // lifts it back).
  logic                          take;
  logic [PW-1:0] pick;
  logic                          pick_v;
  logic [PW:0] q;
  logic [NumPorts-1:0] p_hit_q;       // the port's last looked-up line hit
  logic [PW-1:0]       cur_port_q, infl_port_q;
  logic [1:0]          hi_picks_q;    // picks in a row that passed over hitting ports
  logic                pass_hit;
  always_comb begin
    pick_v   = 1'b0;
    pick     = '0;
    q        = '0;
    pass_hit = 1'b0;
    if (hi_picks_q != 2'd3) begin
      for (int k = 0; k < NumPorts; k++) begin
        q = {1'b0, rr_q} + (PW+1)'(k);
        if (32'(q) >= NumPorts) q = q - (PW+1)'(NumPorts);
        if (!pick_v && h_ne[q[PW-1:0]] && !p_hit_q[q[PW-1:0]]) begin
          pick_v = 1'b1;
          pick   = q[PW-1:0];
        end
      end
      pass_hit = pick_v && |(h_ne & p_hit_q);
    end
    for (int k = 0; k < NumPorts; k++) begin
      q = {1'b0, rr_q} + (PW+1)'(k);
      if (32'(q) >= NumPorts) q = q - (PW+1)'(NumPorts);
      if (!pick_v && h_ne[q[PW-1:0]]) begin
        pick_v = 1'b1;
        pick   = q[PW-1:0];
      end
    end
  end
  assign take = (!cur_v_q || (req_fire && cur_left_q == 4'd1)) && pick_v;
  always_comb begin
    h_pop = '0;
    if (take) h_pop[pick] = 1'b1;
  end

  logic res_alloc, res_append, close_open, line_done, req_fire, infl_next;
  assign res_alloc  = infl_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResMissAlloc);
  // the missing line extends the open run (consecutive, same 256-byte block, room)
  assign res_append = res_alloc && open_v_q && (m_line_q[open_q] + 26'(m_n_q[open_q]) == infl_line_q) &&
                      (m_n_q[open_q] != 3'd4) && (infl_line_q[1:0] != 2'd0);
  assign line_done  = infl_q && res_valid_i;
  assign req_fire   = req_valid_o && req_gnt_i;
  assign infl_next  = req_fire || (infl_q && !line_done);
  // the next line to look up would extend the open run
  logic nxt_app;
  assign nxt_app = cur_v_q && open_v_q && (m_line_q[open_q] + 26'(m_n_q[open_q]) == cur_line_q) &&
                   (m_n_q[open_q] != 3'd4) && (cur_line_q[1:0] != 2'd0);
  // close the open run when the line in flight does not extend it, or when no lookup will
  // be in flight next cycle and the next line cannot extend it (a run only waits for its
  // next lookup's grant; its reserved lines must be released soon)
  // (at most 3 cycles without a grant: then the run closes)
  logic [1:0] wait_q;
  assign close_open = open_v_q && ((line_done && !res_append) ||
                                   (!infl_next && (!(line_done ? res_cont : nxt_app) ||
                                                   !enable_i || wait_q == 2'd3)));

  // the result arriving now allocates and the next line would extend its run
  logic       res_cont, cont_after, need_one;
  logic [2:0] run_after;
  assign run_after  = res_append ? m_n_q[open_q] + 3'd1 : 3'd1;
  assign res_cont   = res_alloc && cur_v_q && (cur_line_q == infl_line_q + 26'd1) &&
                      (cur_line_q[1:0] != 2'd0) && (run_after != 3'd4);
  assign cont_after = line_done ? res_cont : nxt_app;
  // MSHRs: the result arriving now may take a free one for a new run; the next lookup needs
  // one more unless its line extends the run that will be open
  assign need_one   = !cont_after;
  assign req_valid_o = cur_v_q && (!infl_q || line_done) && enable_i &&
                       (!need_one || ((res_alloc && !res_append) ? two_free : any_free));
  assign req_addr_o  = {cur_line_q, 6'b0};
  assign req_cls_o   = cur_cls_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      h_line_q    <= '0;
      h_n_q       <= '0;
      h_cls_q     <= '0;
      h_nxt_q     <= '0;
      h_rd_q      <= '0;
      h_wr_q      <= '0;
      h_cnt_q     <= '0;
      cur_v_q     <= 1'b0;
      infl_q      <= 1'b0;
      infl_line_q <= '0;
      wait_q      <= '0;
      open_v_q    <= 1'b0;
      cur_line_q  <= '0;
      cur_left_q  <= '0;
      cur_cls_q   <= '0;
      infl_bank_q <= '0;
      infl_lset_q <= '0;
      open_q      <= '0;
      rr_q        <= '0;
      p_hit_q     <= '0;
      cur_port_q  <= '0;
      infl_port_q <= '0;
      hi_picks_q  <= '0;
      m_st_q      <= {NumPf{MFree}};
      m_line_q    <= '0;
      m_n_q       <= '0;
      m_bank_q    <= '0;
      m_lset_q    <= '0;
      m_way_q     <= '0;
      m_beat_q    <= '0;
      m_err_q     <= '0;
    end else begin
      // hint FIFOs: a full FIFO drops the hint (only read-ahead is lost). Entries are
      // written under a compare with constant indices (no dynamic part-select on the left:
      // that synthesizes to a shifter as wide as the whole FIFO array)
      for (int p = 0; p < NumPorts; p++) begin
        if (h_push[p]) begin
          for (int e = 0; e < HintDepth; e++) begin
            if (32'(h_wr_q[p]) == e) begin
              h_line_q[p][e] <= h_in_line[p];
              h_n_q[p][e]    <= h_in_n[p];
              h_cls_q[p][e]  <= hint_cls_i[p];
              h_nxt_q[p][e]  <= h_in_nxt[p];
            end
          end
          h_wr_q[p] <= h_wr_n[p];
        end
        if (h_pop[p]) h_rd_q[p] <= h_rd_n[p];
        h_cnt_q[p] <= h_cnt_q[p] + (HW+1)'(h_push[p]) - (HW+1)'(h_pop[p]);
      end
      if (line_done) infl_q <= 1'b0;
      wait_q <= (open_v_q && !infl_next && !close_open) ? wait_q + 2'd1 : 2'd0;
      if (req_fire) begin
        infl_q      <= 1'b1;
        infl_bank_q <= req_bank_i;
        infl_lset_q <= req_lset_i;
        infl_line_q <= cur_line_q;
        cur_line_q  <= cur_line_q + 26'd1;
        cur_left_q  <= cur_left_q - 4'd1;
        if (cur_left_q == 4'd1) cur_v_q <= 1'b0;
      end
      if (line_done) p_hit_q[infl_port_q] <= (res_kind_i == tessera_l2_pkg::ResHit);
      if (req_fire) infl_port_q <= cur_port_q;
      if (take) begin
        cur_port_q <= pick;
        hi_picks_q <= pass_hit ? hi_picks_q + 2'd1 : 2'd0;
        cur_v_q    <= 1'b1;
        cur_line_q <= h_hd_line[pick];
        cur_left_q <= {1'b0, h_hd_n[pick]} + {h_hd_nxt[pick], 2'b00};
        cur_cls_q  <= h_hd_cls[pick];
        rr_q       <= (32'(pick) + 1 == NumPorts) ? '0 : pick + 1'b1;
      end
      // runs of missing lines; MSHR fields are written under compares with constant
      // indices (see the hint FIFOs)
      for (int k = 0; k < NumPf; k++) begin
        if (close_open && 32'(open_q) == k) m_st_q[k] <= MAr;
        if (res_append && 32'(open_q) == k) begin
          for (int l = 0; l < 4; l++) begin
            if (32'(m_n_q[k][1:0]) == l) begin
              m_bank_q[k][l] <= infl_bank_q;
              m_lset_q[k][l] <= infl_lset_q;
              m_way_q[k][l]  <= res_way_i;
            end
          end
          m_n_q[k] <= m_n_q[k] + 3'd1;
        end else if (!res_append && res_alloc && 32'(free_idx) == k) begin
          // a new run in a free MSHR (one was free when the lookup was issued)
          m_st_q[k]      <= (infl_next || (res_cont && enable_i)) ? MOpen : MAr;
          m_line_q[k]    <= infl_line_q;
          m_n_q[k]       <= 3'd1;
          m_bank_q[k][0] <= infl_bank_q;
          m_lset_q[k][0] <= infl_lset_q;
          m_way_q[k][0]  <= res_way_i;
          m_beat_q[k]    <= '0;
          m_err_q[k]     <= 1'b0;
        end
        if (m_st_q[k] == MAr && ar_gnt_i[k]) m_st_q[k] <= MRead;
        if (r_valid_i && 32'(r_idx_i) == k) begin
          m_beat_q[k] <= m_beat_q[k] + 3'd1;
          m_err_q[k]  <= m_beat_q[k][0] ? 1'b0 : (r_resp_i != 2'b00);
          if (m_beat_q[k] == {m_n_q[k][1:0] - 2'd1, 1'b1}) m_st_q[k] <= MFree;
        end
        if (r1_valid_i && 32'(r1_idx_i) == k) begin
          m_beat_q[k] <= m_beat_q[k] + 3'd1;
          m_err_q[k]  <= m_beat_q[k][0] ? 1'b0 : (r1_resp_i != 2'b00);
          if (m_beat_q[k] == {m_n_q[k][1:0] - 2'd1, 1'b1}) m_st_q[k] <= MFree;
        end
      end
      if (close_open) open_v_q <= 1'b0;
      if (!res_append && res_alloc) begin
        open_v_q <= infl_next || (res_cont && enable_i);
        open_q   <= free_idx;
      end
    end
  end

  // the open run's MSHR is not free: a new run needs another one (checked at issue: any_free
  // excludes MOpen), so a run is never started without a free MSHR
  for (genvar k = 0; k < NumPf; k++) begin : g_ar
    assign ar_req_o[k]   = (m_st_q[k] == MAr) && !hazard_i[k];
    assign hz_want_o[k]  = (m_st_q[k] == MAr);
    assign ar_addr_o[k]  = {m_line_q[k], 6'b0};
    assign ar_len_o[k]   = {4'd0, m_n_q[k], 1'b0} - 8'd1;
    assign rng_line_o[k] = m_line_q[k];
    assign rng_n_o[k]    = m_n_q[k];
  end

  logic [1:0] r_line;
  assign r_line       = m_beat_q[r_idx_i][2:1];
  assign fill_bank_o  = m_bank_q[r_idx_i][r_line];
  assign fill_lset_o  = m_lset_q[r_idx_i][r_line];
  assign fill_way_o   = m_way_q[r_idx_i][r_line];
  assign fill_beat_o  = m_beat_q[r_idx_i][0];
  assign fill_last_o  = m_beat_q[r_idx_i][0];
  assign fill_err_o   = (r_resp_i != 2'b00) || (m_beat_q[r_idx_i][0] && m_err_q[r_idx_i]);
  logic [1:0] r1_line;
  assign r1_line      = m_beat_q[r1_idx_i][2:1];
  assign fill1_bank_o = m_bank_q[r1_idx_i][r1_line];
  assign fill1_lset_o = m_lset_q[r1_idx_i][r1_line];
  assign fill1_way_o  = m_way_q[r1_idx_i][r1_line];
  assign fill1_beat_o = m_beat_q[r1_idx_i][0];
  assign fill1_err_o  = (r1_resp_i != 2'b00) || (m_beat_q[r1_idx_i][0] && m_err_q[r1_idx_i]);
  always_comb begin
    idle_o = !cur_v_q && !infl_q && !open_v_q && (wait_q == 2'd0) && !(|h_ne);
    for (int unsigned k = 0; k < NumPf; k++)
      if (m_st_q[k] != MFree) idle_o = 1'b0;
  end

endmodule
