// Read engine of one L2 upstream port: works on one AXI read burst at a time (the next ARs
// wait in an ArDepth-entry FIFO; each accepted allocating AR is also announced to the
// read-ahead unit, hint_*) and looks its beats up one by one (one per cycle while they
// hit; when the last beat of a burst hits, the first beat of the buffered burst is looked
// up in the same cycle, so hitting bursts follow each other without a bubble). A miss waits for this engine's MSHR:
// after a refill the beat is looked up again (it then hits), a non-allocating miss or an
// error completes the beat with the MSHR's data / response. Read data goes through a
// 4-entry FIFO to the R channel, so lookups never wait for a stalled R channel mid-flight.
module tessera_l2_rd_eng #(
  parameter int unsigned IdBits  = 4,
  parameter int unsigned ArDepth = 4
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              cfg_no_alloc_i,
  input  logic [1:0]        cfg_slices_log2_i,
  input  logic [2:0]        cfg_slice_id_i,
  // AXI read channels
  input  logic [IdBits-1:0] s_axi_arid_i,
  input  logic [31:0]       s_axi_araddr_i,
  input  logic [7:0]        s_axi_arlen_i,
  input  logic [3:0]        s_axi_arcache_i,
  input  logic [3:0]        s_axi_arqos_i,
  input  logic              s_axi_arvalid_i,
  output logic              s_axi_arready_o,
  output logic [IdBits-1:0] s_axi_rid_o,
  output logic [255:0]      s_axi_rdata_o,
  output logic [1:0]        s_axi_rresp_o,
  output logic              s_axi_rlast_o,
  output logic              s_axi_rvalid_o,
  input  logic              s_axi_rready_i,
  // lookup request
  output logic              req_valid_o,
  output logic [31:0]       req_addr_o,
  output logic              req_alloc_o,
  output logic [1:0]        req_cls_o,
  input  logic              req_gnt_i,
  // lookup result (the cycle after the grant)
  input  logic              res_valid_i,
  input  tessera_l2_pkg::res_kind_e res_kind_i,
  input  logic [255:0]      res_rdata_i,
  input  logic [255:0]      res_rdata1_i,   // beat 1 of the line when beat 0 was looked up
  // MSHR completion
  input  logic              done_i,
  input  logic              done_replay_i,
  input  logic [1:0]        done_resp_i,
  input  logic [255:0]      done_rdata_i,
  // a read-ahead line was filled (ends the back-off after a retry)
  input  logic              wake_i,
  // address of the beat in flight / waiting (what the MSHR works on)
  output logic [31:0]       cur_addr_o,
  // read-ahead hint: an allocating burst of this slice was accepted
  output logic              hint_valid_o,
  output logic [31:0]       hint_addr_o,
  output logic [7:0]        hint_len_o,
  output logic [1:0]        hint_cls_o,
  output logic [1:0]        hint_blk_o,   // stream hint ARQOS[3:2] (private mode only)
  // status
  output logic              stall_o,
  output logic              hit1_o,     // beat 1 of a line pair delivered (counts as a hit)
  output logic              idle_o      // no burst, buffered AR, R beat or back-off: nothing moves without input
);
  logic              active_q, inflight_q, wait_q, slice_ok_q, alloc_q;
  logic [IdBits-1:0] id_q;
  logic [31:0]       addr_q;
  logic [8:0]        left_q;
  logic [1:0]        cls_q;

  // ---------------------------------------------------------------- R FIFO
  logic [3:0][IdBits-1:0] f_id_q;
  logic [3:0][255:0]      f_data_q;
  logic [3:0][1:0]        f_resp_q;
  logic [3:0]             f_last_q;
  logic [1:0]             f_rd_q, f_wr_q;
  logic [2:0]             f_cnt_q;
  logic                   f_push, f_pop;
  logic [255:0]           f_data;
  logic [1:0]             f_resp;

  // ---------------------------------------------------------------- beat completion
  logic hit, miss, slice_err, complete, fifo_ok, more, chain, pair, adv;
  // line pairs: a hit on beat 0 whose beat 1 is also wanted returns both beats (the bank
  // read the whole line); beat 1 waits in p1 and is delivered in the next cycle, which
  // then issues the next lookup, so a streaming burst takes one bank cycle per line
  logic              p1_v_q;
  logic [255:0]      p1_q;
  // AR FIFO: the next bursts; the head is loaded when the current one completes its last beat
  localparam int unsigned AW = (ArDepth > 1) ? $clog2(ArDepth) : 1;
  logic [ArDepth-1:0]              abf_slice_ok_q, abf_alloc_q;
  logic [ArDepth-1:0][IdBits-1:0]  abf_id_q;
  logic [ArDepth-1:0][31:0]        abf_addr_q;
  logic [ArDepth-1:0][8:0]         abf_left_q;
  logic [ArDepth-1:0][1:0]         abf_cls_q;
  logic [AW-1:0]                   ab_rd_q, ab_wr_q;
  logic [AW:0]                     ab_cnt_q;
  logic              ab_valid_q, ab_slice_ok_q, ab_alloc_q;
  logic [IdBits-1:0] ab_id_q;
  logic [31:0]       ab_addr_q;
  logic [8:0]        ab_left_q;
  logic [1:0]        ab_cls_q;
  assign ab_valid_q    = (ab_cnt_q != '0);
  assign ab_slice_ok_q = abf_slice_ok_q[ab_rd_q];
  assign ab_alloc_q    = abf_alloc_q[ab_rd_q];
  assign ab_id_q       = abf_id_q[ab_rd_q];
  assign ab_addr_q     = abf_addr_q[ab_rd_q];
  assign ab_left_q     = abf_left_q[ab_rd_q];
  assign ab_cls_q      = abf_cls_q[ab_rd_q];
  assign hit       = inflight_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResHit);
  assign miss      = inflight_q && res_valid_i &&
                     (res_kind_i == tessera_l2_pkg::ResMissAlloc || res_kind_i == tessera_l2_pkg::ResMissBypass);
  assign slice_err = active_q && !slice_ok_q && !inflight_q && !wait_q && (f_cnt_q < 3'd4);
  assign pair      = hit && !addr_q[5] && (left_q >= 9'd2) && (f_cnt_q <= 3'd2);
  assign adv       = (hit && !pair) || p1_v_q;   // a beat completes from the cache: issue the next
  assign complete  = hit || p1_v_q || (done_i && !done_replay_i) || slice_err;
  assign fifo_ok   = (32'(f_cnt_q) + 32'(inflight_q) + 32'(p1_v_q)) <= 2;
  // the last beat hits and the buffered burst is in this slice: look up its first beat now
  assign chain     = adv && (left_q == 9'd1) && ab_valid_q && ab_slice_ok_q;
  assign more      = adv ? (left_q > 9'd1 || chain) : 1'b1;

  // after a retry (line reserved, e.g. being refilled by the read-ahead unit) the engine
  // waits until a read-ahead line is filled or 8 cycles have passed, instead of taking the
  // bank every cycle (the read-ahead lookups only get bank cycles no engine wants)
  logic       retry;
  logic [3:0] backoff_q;
  assign retry = inflight_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResRetry);
  assign req_valid_o = active_q && slice_ok_q && !wait_q && (!inflight_q || adv) && more &&
                       fifo_ok && (backoff_q == 4'd0);
  assign req_addr_o  = chain ? ab_addr_q : (adv ? addr_q + 32'd32 : addr_q);
  assign req_alloc_o = chain ? ab_alloc_q : alloc_q;
  assign req_cls_o   = chain ? ab_cls_q : cls_q;

  always_comb begin
    if (p1_v_q) begin
      f_data = p1_q;
      f_resp = 2'b00;
    end else if (hit) begin
      f_data = res_rdata_i;
      f_resp = 2'b00;
    end else if (slice_err) begin
      f_data = '0;
      f_resp = 2'b11;
    end else begin
      f_data = done_rdata_i;
      f_resp = done_resp_i;
    end
  end
  assign f_push = complete;
  assign f_pop  = s_axi_rvalid_o && s_axi_rready_i;

  logic ar_fire, load;
  logic ar_alloc, ar_in_slice;
  assign s_axi_arready_o = (32'(ab_cnt_q) < ArDepth);
  assign ar_fire = s_axi_arvalid_i && s_axi_arready_o;
  assign ar_alloc    = s_axi_arcache_i[3] && !cfg_no_alloc_i;
  assign ar_in_slice = tessera_l2_pkg::in_slice(s_axi_araddr_i[10:8], cfg_slices_log2_i, cfg_slice_id_i);
  assign hint_valid_o = ar_fire && ar_alloc && ar_in_slice;
  assign hint_addr_o  = s_axi_araddr_i;
  assign hint_len_o   = s_axi_arlen_i;
  assign hint_cls_o   = s_axi_arqos_i[1:0];
  // stream hint (ARQOS[3:2]): the master will read the one (01) or two (10) 256-byte blocks
  // after this burst's block too, or (11) the burst's block and the next were announced by
  // its previous hinted burst and only the block two after is new. Private mode only: in
  // shared mode those blocks belong to other slices.
  assign hint_blk_o   = (cfg_slices_log2_i == 2'd0) ? s_axi_arqos_i[3:2] : 2'b00;
  assign load    = ab_valid_q && (!active_q || (complete && left_q == 9'd1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      abf_slice_ok_q <= '0;
      abf_alloc_q    <= '0;
      abf_id_q       <= '0;
      abf_addr_q     <= '0;
      abf_left_q     <= '0;
      abf_cls_q      <= '0;
      ab_rd_q        <= '0;
      ab_wr_q        <= '0;
      ab_cnt_q       <= '0;
      inflight_q <= 1'b0;
      p1_v_q     <= 1'b0;
      p1_q       <= '0;
      backoff_q  <= '0;
      wait_q     <= 1'b0;
      slice_ok_q <= 1'b0;
      alloc_q    <= 1'b0;
      id_q       <= '0;
      addr_q     <= '0;
      left_q     <= '0;
      cls_q      <= '0;
      f_id_q     <= '0;
      f_data_q   <= '0;
      f_resp_q   <= '0;
      f_last_q   <= '0;
      f_rd_q     <= '0;
      f_wr_q     <= '0;
      f_cnt_q    <= '0;
    end else begin
      if (ar_fire) begin
        abf_id_q[ab_wr_q]       <= s_axi_arid_i;
        abf_addr_q[ab_wr_q]     <= {s_axi_araddr_i[31:5], 5'b0};
        abf_left_q[ab_wr_q]     <= {1'b0, s_axi_arlen_i} + 9'd1;
        abf_alloc_q[ab_wr_q]    <= ar_alloc;
        abf_cls_q[ab_wr_q]      <= s_axi_arqos_i[1:0];
        abf_slice_ok_q[ab_wr_q] <= ar_in_slice;
        ab_wr_q <= (32'(ab_wr_q) == ArDepth - 1) ? '0 : ab_wr_q + 1'b1;
      end
      if (load) ab_rd_q <= (32'(ab_rd_q) == ArDepth - 1) ? '0 : ab_rd_q + 1'b1;
      ab_cnt_q <= ab_cnt_q + (AW+1)'(ar_fire) - (AW+1)'(load);
      inflight_q <= req_valid_o && req_gnt_i;
      p1_v_q     <= pair;
      if (pair) p1_q <= res_rdata1_i;
      if (retry)                      backoff_q <= 4'd8;
      else if (wake_i)                backoff_q <= 4'd0;
      else if (backoff_q != 4'd0)     backoff_q <= backoff_q - 4'd1;
      if (miss)   wait_q <= 1'b1;
      if (done_i) wait_q <= 1'b0;
      if (complete) begin
        addr_q <= addr_q + 32'd32;
        left_q <= left_q - 9'd1;
        if (left_q == 9'd1) active_q <= 1'b0;
      end
      if (load) begin
        active_q   <= 1'b1;
        id_q       <= ab_id_q;
        addr_q     <= ab_addr_q;
        left_q     <= ab_left_q;
        alloc_q    <= ab_alloc_q;
        cls_q      <= ab_cls_q;
        slice_ok_q <= ab_slice_ok_q;
      end
      if (f_push) begin
        f_id_q[f_wr_q]   <= id_q;
        f_data_q[f_wr_q] <= f_data;
        f_resp_q[f_wr_q] <= f_resp;
        f_last_q[f_wr_q] <= (left_q == 9'd1);
        f_wr_q           <= f_wr_q + 2'd1;
      end
      if (f_pop) f_rd_q <= f_rd_q + 2'd1;
      f_cnt_q <= f_cnt_q + 3'(f_push) - 3'(f_pop);
    end
  end

  assign s_axi_rvalid_o = (f_cnt_q != 3'd0);
  assign s_axi_rid_o    = f_id_q[f_rd_q];
  assign s_axi_rdata_o  = f_data_q[f_rd_q];
  assign s_axi_rresp_o  = f_resp_q[f_rd_q];
  assign s_axi_rlast_o  = f_last_q[f_rd_q];

  logic unused_hint;
  assign unused_hint = ^{s_axi_araddr_i[4:0], s_axi_arcache_i[2:0]};
  assign cur_addr_o = addr_q;
  assign stall_o = (req_valid_o && !req_gnt_i) || wait_q;
  assign hit1_o  = p1_v_q;
  assign idle_o  = !active_q && !inflight_q && !wait_q && !p1_v_q && (ab_cnt_q == '0) &&
                   (f_cnt_q == 3'd0) && (backoff_q == 4'd0);
endmodule
