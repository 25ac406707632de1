// Write engine of one L2 upstream port: works on one AXI write burst at a time (the next
// AWs wait in a buffer of 1 + AbDepth entries, B responses in a BqDepth-entry queue); each W beat
// (with its strobes) is looked up and written into the cache (hit), or handed to the MSHR
// (allocating miss: refill, then the beat is replayed; non-allocating miss: the beat is
// written downstream). B is sent when every beat is done, with the worst response seen.
// A hitting burst streams one beat per cycle, and the first beat of the buffered next burst
// is issued in the cycle the last beat of the current one hits (no bubble between bursts;
// a one-beat next burst only with room for its B besides the current one's).
// Non-allocating misses are posted: the MSHR takes the beat at the lookup result and puts it
// in the slice's write queue; the next beat, if it does not allocate either, is looked up in
// the same cycle (the MSHR takes it in the cycle it pushes the previous one, else the beat is
// looked up again), so posted beats can leave one per cycle; the downstream B responses of those beats come back in
// order (byp_ack_i). A burst's B is held until every such beat pushed up to its last beat
// has been acknowledged, and carries the worst of their responses.
// A lookup that may start the MSHR is only issued while the MSHR is free (mshr_free_i): a
// full-line write allocated over a dirty victim leaves the victim's write-back to the MSHR
// while the engine goes on with beat 1 (an owner hit, which never needs the MSHR).
// Write pairs: a lookup of a line's beat 0 whose beat 1 follows in the same burst, both with
// all strobes and both in the W FIFO (the condition of req_full_o), carries beat 1 too
// (req_pair_o, req_wdata1_o). When the bank writes both (res_pair_i: a hit, or an allocation
// over a clean victim) the lookup completes two beats, so a streaming full-line burst takes
// one bank cycle per line instead of two (as the read engine's line pairs do).
module tessera_l2_wr_eng #(
  parameter int unsigned IdBits  = 4,
  // B responses queued (power of two): single-beat bursts of posted writes each hold one
  // until their beat's downstream B is back, so this bounds them in flight
  parameter int unsigned BqDepth = 8,
  // AW entries buffered behind the next burst (power of two)
  parameter int unsigned AbDepth = 4
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              cfg_no_alloc_i,
  input  logic [1:0]        cfg_slices_log2_i,
  input  logic [2:0]        cfg_slice_id_i,
  // AXI write channels
  input  logic [IdBits-1:0] s_axi_awid_i,
  input  logic [31:0]       s_axi_awaddr_i,
  input  logic [7:0]        s_axi_awlen_i,
  input  logic [3:0]        s_axi_awcache_i,
  input  logic [3:0]        s_axi_awqos_i,
  input  logic              s_axi_awvalid_i,
  output logic              s_axi_awready_o,
  input  logic [255:0]      s_axi_wdata_i,
  input  logic [31:0]       s_axi_wstrb_i,
  input  logic              s_axi_wvalid_i,
  output logic              s_axi_wready_o,
  output logic [IdBits-1:0] s_axi_bid_o,
  output logic [1:0]        s_axi_bresp_o,
  output logic              s_axi_bvalid_o,
  input  logic              s_axi_bready_i,
  // lookup request
  output logic              req_valid_o,
  output logic [31:0]       req_addr_o,
  output logic [255:0]      req_wdata_o,
  output logic [31:0]       req_wstrb_o,
  output logic              req_full_o,
  output logic              req_pair_o,
  output logic [255:0]      req_wdata1_o,
  output logic              req_alloc_o,
  output logic [1:0]        req_cls_o,
  input  logic              req_gnt_i,
  // beat handed to the MSHR on a miss (the W FIFO head)
  output logic [255:0]      cur_wdata_o,
  output logic [31:0]       cur_wstrb_o,
  // ... and the line is entirely overwritten by this burst: beat 0 at the head, beat 1
  // (cur_wdata1_o) behind it in the W FIFO, all strobes set (write-allocate without refill)
  output logic              cur_full_o,
  output logic [255:0]      cur_wdata1_o,
  // lookup result
  input  logic              res_valid_i,
  input  tessera_l2_pkg::res_kind_e res_kind_i,
  input  logic              res_pair_i,     // with a hit: both beats of the pair were written
  input  logic              mshr_free_i,
  // the MSHR takes a victim-only start in this cycle (this engine's previous lookup, a write
  // pair, allocated over a dirty victim): a lookup issued now could need it once more
  input  logic              mshr_vstart_i,
  // MSHR completion
  input  logic              done_i,
  input  logic              done_replay_i,
  input  logic [1:0]        done_resp_i,
  // posted non-allocating writes: the downstream B of the oldest one arrived
  input  logic              byp_ack_i,
  input  logic [1:0]        byp_ack_resp_i,
  // address of the beat in flight / waiting (what the MSHR works on)
  output logic [31:0]       cur_addr_o,
  // status
  output logic              stall_o,
  output logic              idle_o      // no burst, buffered AW, W beat, B or posted beat in flight
);
  logic              active_q, inflight_q, wait_q, slice_ok_q, alloc_q;
  logic [IdBits-1:0] id_q;
  logic [31:0]       addr_q;
  logic [8:0]        left_q;
  logic [1:0]        cls_q, resp_q;

  // W FIFO (4 entries: a lookup can see the beat after the one it writes)
  logic [3:0][255:0] w_data_q;
  logic [3:0][31:0]  w_strb_q;
  logic [1:0]        w_rd_q, w_wr_q;
  logic [2:0]        w_cnt_q;
  logic              w_push, w_pop;

  // AW buffer: the head (ab_q, the next burst) and AbDepth entries behind it (abf), all
  // besides the active burst. The chip's L2 router passes a burst's W beats only after its
  // AW was accepted, so accepted AWs must run several bursts ahead of the lookups for the
  // W FIFO to hold the next beat when a one-beat burst chains to the next (with one entry
  // behind the head, the DMA's one-beat transposed writes reached the slice at about one
  // beat per two cycles, docs/l2.md "Engines"); a master that sends W only after its AW
  // was accepted needs the same
  typedef struct packed {
    logic              slice_ok;
    logic              alloc;
    logic [IdBits-1:0] id;
    logic [31:0]       addr;
    logic [8:0]        left;
    logic [1:0]        cls;
  } aw_ent_t;
  localparam int unsigned AbW    = (AbDepth > 1) ? $clog2(AbDepth) : 1;
  localparam int unsigned AbEntW = 2 + IdBits + 32 + 9 + 2;   // $bits(aw_ent_t)
  aw_ent_t                  ab_q, aw_in;
  // a plain two-dimensional array, not a packed array of structs (Yosys' read_verilog
  // mis-reads those, docs/fabric.md "Bus types"); an entry is copied into ab_q whole
  logic [AbDepth-1:0][AbEntW-1:0] abf_q;
  logic [AbW-1:0]           abf_rd_q, abf_wr_q;
  logic [AbW:0]             abf_cnt_q;
  logic                     ab_valid_q, ab_take, abf_empty, ab_to_head, abf_push, abf_pop;
  // (fields in declaration order: slice_ok, alloc, id, addr, left, cls)
  assign aw_in = {tessera_l2_pkg::in_slice(s_axi_awaddr_i[10:8], cfg_slices_log2_i, cfg_slice_id_i),
                  s_axi_awcache_i[2] && !cfg_no_alloc_i, s_axi_awid_i, {s_axi_awaddr_i[31:5], 5'b0},
                  {1'b0, s_axi_awlen_i} + 9'd1, s_axi_awqos_i[1:0]};

  logic hit, byp, byp_take, adv, nb_nalloc, miss, slice_err, complete, more, have_data, chain;
  logic [1:0] beat_resp;
  assign hit       = inflight_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResHit);
  // beats the result completes: two for a write pair the bank wrote whole, else one
  logic       pair_hit;
  logic [1:0] step;
  logic [8:0] step9;
  assign pair_hit  = hit && res_pair_i;
  assign step      = pair_hit ? 2'd2 : 2'd1;
  assign step9     = {7'd0, step};
  // a non-allocating miss: the MSHR takes the beat (start) and posts it; the beat is done.
  // The MSHR takes it when free (idle, or pushing its previous posted beat into the write
  // queue this cycle); otherwise the beat stays and is looked up again.
  assign byp       = inflight_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResMissBypass);
  assign byp_take  = byp && mshr_free_i;
  assign miss      = inflight_q && res_valid_i && (res_kind_i == tessera_l2_pkg::ResMissAlloc);
  // the last beat of a burst is only started when its B response has room
  logic b_room;
  assign slice_err = active_q && !slice_ok_q && !inflight_q && !wait_q && (w_cnt_q != 3'd0) &&
                     (left_q != 9'd1 || b_room);
  assign complete  = hit || byp_take || (done_i && !done_replay_i) || slice_err;
  // the beat after this one does not allocate (it can only hit or be posted): after a posted
  // beat it is looked up at once, like after a hit (the MSHR may take it in the next cycle)
  assign nb_nalloc = (left_q == 9'd1) ? (ab_valid_q && !ab_q.alloc) : !alloc_q;
  // the beat at the FIFO head is done now and the next lookup may go out in this cycle
  assign adv       = hit || (byp_take && nb_nalloc);
  // the last beat of the burst hits and the next burst (in this slice) is buffered: look up
  // its first beat now. A one-beat next burst is its own last beat: its B needs a queue
  // entry besides the one this burst's B takes in this cycle.
  logic b_room2;
  assign chain     = adv && (left_q == step9) && ab_valid_q && ab_q.slice_ok &&
                     ((ab_q.left >= 9'd2) || b_room2);
  assign more      = adv ? (left_q > step9 || chain) : 1'b1;
  // a line's beat 0 with all strobes whose beat 1 follows in the burst waits for beat 1,
  // so that the two go as one write pair (one bank cycle for the line)
  logic need2;
  logic [1:0] w_nx, w_adv, w_i0, w_i1;
  assign have_data = adv ? (w_cnt_q >= 3'(step) + 3'd1 + 3'(need2)) : (w_cnt_q >= 3'd1 + 3'(need2));
  assign beat_resp = (hit || byp_take) ? 2'b00 : slice_err ? 2'b11 : done_resp_i;

  logic last_next;
  logic want;
  // beats left in the burst of the next lookup, from the beat it looks up; the lookup
  // completes the burst when it is the last beat, or a write pair of the last two
  logic [8:0] nl;
  assign nl          = chain ? ab_q.left : adv ? left_q - step9 : left_q;
  assign need2       = !req_addr_o[5] && (nl >= 9'd2) && (&w_strb_q[w_i0]);
  assign last_next   = (nl == 9'd1) || (req_pair_o && nl == 9'd2);
  assign want        = active_q && (chain || slice_ok_q) && !wait_q && (!inflight_q || adv) && more &&
                       have_data && (!last_next || b_room);
  assign req_valid_o = want && mshr_free_i && !mshr_vstart_i;
  assign req_addr_o  = chain ? ab_q.addr : adv ? addr_q + {25'd0, step, 5'd0} : addr_q;
  assign w_nx        = w_rd_q + 2'd1;
  assign w_adv       = w_rd_q + step;         // the FIFO head after this result
  assign w_i0        = adv ? w_adv : w_rd_q;  // the beat looked up now
  assign w_i1        = w_i0 + 2'd1;           // the beat after it
  assign req_wdata_o = w_data_q[w_i0];
  assign req_wstrb_o = w_strb_q[w_i0];
  // the lookup writes beat 0 of a line whose beat 1 follows in the same burst, both with all
  // strobes: a miss may then allocate without a refill (the bank writes beat 0 and keeps
  // the line reserved for this engine until beat 1 is written)
  assign req_full_o  = !req_addr_o[5] && (chain ? (ab_q.left >= 9'd2) : adv ? (left_q >= step9 + 9'd2) : (left_q >= 9'd2)) &&
                       (w_cnt_q >= (adv ? 3'(step) + 3'd2 : 3'd2)) && (&w_strb_q[w_i0]) && (&w_strb_q[w_i1]);
  assign req_pair_o   = req_full_o;
  assign req_wdata1_o = w_data_q[w_i1];
  assign req_alloc_o = chain ? ab_q.alloc : alloc_q;
  assign req_cls_o   = chain ? ab_q.cls : cls_q;
  assign cur_wdata_o = w_data_q[w_rd_q];
  assign cur_wstrb_o = w_strb_q[w_rd_q];
  assign cur_full_o  = !addr_q[5] && (left_q >= 9'd2) && (w_cnt_q >= 3'd2) &&
                       (&w_strb_q[w_rd_q]) && (&w_strb_q[w_nx]);
  assign cur_wdata1_o = w_data_q[w_nx];

  logic              load, b_push, b_pop;
  // B queue (BqDepth entries); an entry is sent once the posted beats up to its burst's last
  // one (need) are acknowledged
  localparam int unsigned BqW = (BqDepth > 1) ? $clog2(BqDepth) : 1;
  logic [BqDepth-1:0][IdBits-1:0] bq_id_q;
  logic [BqDepth-1:0][1:0]        bq_resp_q;
  logic [BqDepth-1:0][7:0]        bq_need_q;
  logic [BqW-1:0]                 bq_rd_q, bq_wr_q;
  logic [BqW:0]                   bq_cnt_q;
  logic [1:0]                     final_resp;
  // posted beats (counted at the lookup result; the MSHR queues them in that order) and
  // acknowledged (free-running; at most the write queue's depth + 1 apart),
  // worst response of acknowledgements not yet given to a queued B
  logic [7:0]             byp_pushed_q, byp_acked_q, ack_k;
  logic [1:0]             acc_resp_q, acc_resp_d;
  logic [BqDepth-1:0]     own;      // the queued B (slot) that acknowledgement ack_k belongs to
  logic                   owned, head_ready;
  assign ack_k = byp_acked_q + 8'd1;   // number of the acknowledgement arriving now
  // acknowledgement k belongs to the first queued B (from the head) with k <= its need
  always_comb begin
    own   = '0;
    owned = 1'b0;
    for (int unsigned i = 0; i < BqDepth; i++) begin
      if (byp_ack_i && !owned && (BqW+1)'(i) < bq_cnt_q &&
          !(8'(bq_need_q[BqW'(bq_rd_q + BqW'(i))] - ack_k) >= 8'd128)) begin
        own[BqW'(bq_rd_q + BqW'(i))] = 1'b1;
        owned                         = 1'b1;
      end
    end
  end
  assign acc_resp_d = (byp_ack_i && !owned && byp_ack_resp_i > acc_resp_q) ? byp_ack_resp_i : acc_resp_q;
  assign head_ready = (bq_cnt_q != '0) && !(8'(byp_acked_q - bq_need_q[bq_rd_q]) >= 8'd128);
  logic [1:0] push_resp;
  assign push_resp = (acc_resp_d > final_resp) ? acc_resp_d : final_resp;

  assign s_axi_awready_o = (abf_cnt_q != (AbW+1)'(AbDepth));
  assign ab_take = s_axi_awvalid_i && s_axi_awready_o;
  assign abf_empty = (abf_cnt_q == '0);
  // a new AW goes straight to the head when the head is (or becomes) empty and nothing
  // waits behind it; the head is refilled from the buffer when the active burst takes it
  assign load   = ab_valid_q && (!active_q || (complete && left_q == step9));
  assign ab_to_head = ab_take && abf_empty && (load || !ab_valid_q);
  assign abf_push   = ab_take && !ab_to_head;
  assign abf_pop    = load && !abf_empty;
  assign b_room = (bq_cnt_q != (BqW+1)'(BqDepth));
  assign b_room2 = ({1'b0, bq_cnt_q} + (BqW+2)'(2)) <= (BqW+2)'(BqDepth);
  assign b_push = complete && (left_q == step9);
  assign b_pop  = s_axi_bvalid_o && s_axi_bready_i;
  assign final_resp = (beat_resp > resp_q) ? beat_resp : resp_q;
  assign s_axi_wready_o  = (w_cnt_q != 3'd4);
  assign w_push = s_axi_wvalid_i && s_axi_wready_o;
  assign w_pop  = complete;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      inflight_q <= 1'b0;
      wait_q     <= 1'b0;
      slice_ok_q <= 1'b0;
      alloc_q    <= 1'b0;
      ab_valid_q    <= 1'b0;
      ab_q          <= '0;
      abf_q         <= '0;
      abf_rd_q      <= '0;
      abf_wr_q      <= '0;
      abf_cnt_q     <= '0;
      bq_id_q       <= '0;
      bq_resp_q     <= '0;
      bq_need_q     <= '0;
      byp_pushed_q  <= '0;
      byp_acked_q   <= '0;
      acc_resp_q    <= 2'b00;
      bq_rd_q       <= '0;
      bq_wr_q       <= '0;
      bq_cnt_q      <= '0;
      id_q       <= '0;
      addr_q     <= '0;
      left_q     <= '0;
      cls_q      <= '0;
      resp_q     <= '0;
      w_data_q   <= '0;
      w_strb_q   <= '0;
      w_rd_q     <= '0;
      w_wr_q     <= '0;
      w_cnt_q    <= '0;
    end else begin
      // AW entries: load takes the head; the head is refilled from the buffer, or by a new
      // AW when the buffer is empty; otherwise a new AW joins the buffer
      if (abf_pop) begin
        ab_q <= abf_q[abf_rd_q];
      end else if (ab_to_head) begin
        ab_valid_q <= 1'b1;
        ab_q       <= aw_in;
      end else if (load) begin
        ab_valid_q <= 1'b0;
      end
      if (abf_push) begin
        abf_q[abf_wr_q] <= aw_in;
        abf_wr_q        <= abf_wr_q + AbW'(1);
      end
      if (abf_pop) abf_rd_q <= abf_rd_q + AbW'(1);
      abf_cnt_q <= abf_cnt_q + (AbW+1)'(abf_push) - (AbW+1)'(abf_pop);
      inflight_q <= req_valid_o && req_gnt_i;
      if (miss)   wait_q <= 1'b1;
      if (done_i) wait_q <= 1'b0;
      if (complete) begin
        addr_q <= addr_q + {25'd0, step, 5'd0};
        left_q <= left_q - step9;
        resp_q <= final_resp;
        if (left_q == step9) active_q <= 1'b0;
      end
      if (load) begin
        active_q   <= 1'b1;
        id_q       <= ab_q.id;
        addr_q     <= ab_q.addr;
        left_q     <= ab_q.left;
        alloc_q    <= ab_q.alloc;
        cls_q      <= ab_q.cls;
        slice_ok_q <= ab_q.slice_ok;
        resp_q     <= 2'b00;
      end
      if (byp_take)   byp_pushed_q <= byp_pushed_q + 8'd1;
      if (byp_ack_i)  byp_acked_q  <= ack_k;
      for (int unsigned i = 0; i < BqDepth; i++)
        if (own[i] && byp_ack_resp_i > bq_resp_q[i]) bq_resp_q[i] <= byp_ack_resp_i;
      acc_resp_q <= acc_resp_d;
      if (b_push) begin
        bq_id_q[bq_wr_q]   <= id_q;
        bq_resp_q[bq_wr_q] <= push_resp;
        bq_need_q[bq_wr_q] <= byp_pushed_q + 8'(byp_take);   // (this beat, if posted now)
        bq_wr_q            <= bq_wr_q + BqW'(1);
        acc_resp_q         <= 2'b00;
      end
      if (b_pop) bq_rd_q <= bq_rd_q + BqW'(1);
      bq_cnt_q <= bq_cnt_q + (BqW+1)'(b_push) - (BqW+1)'(b_pop);
      if (w_push) begin
        w_data_q[w_wr_q] <= s_axi_wdata_i;
        w_strb_q[w_wr_q] <= s_axi_wstrb_i;
        w_wr_q           <= w_wr_q + 2'd1;
      end
      if (w_pop) w_rd_q <= w_adv;
      w_cnt_q <= w_cnt_q + 3'(w_push) - (w_pop ? 3'(step) : 3'd0);
    end
  end

  assign s_axi_bvalid_o = head_ready;
  assign s_axi_bid_o    = bq_id_q[bq_rd_q];
  assign s_axi_bresp_o  = bq_resp_q[bq_rd_q];

  logic unused_hint;
  assign unused_hint = ^{s_axi_awaddr_i[4:0], s_axi_awcache_i[3], s_axi_awcache_i[1:0], s_axi_awqos_i[3:2]};
  assign cur_addr_o = addr_q;
  assign stall_o = (want && !req_gnt_i) || wait_q;
  assign idle_o  = !active_q && !inflight_q && !wait_q && !ab_valid_q && (abf_cnt_q == '0) &&
                   (bq_cnt_q == '0) && (w_cnt_q == 3'd0) && (byp_pushed_q == byp_acked_q);
endmodule
