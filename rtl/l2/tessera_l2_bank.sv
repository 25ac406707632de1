// One bank of an L2 slice: the tags, replacement state and line data of the sets
// {lset, low} with low ^ lset[BankBits-1:0] == bank_idx_i (hashed banking, see tessera_l2). The
// bank index is a (constant) input rather than a parameter so that all banks of a slice are one
// module parameterisation (synthesized once, docs/synthesis.md). One operation per cycle: a side operation
// (refill, victim read, maintenance) if one is presented, else a lookup. Results are
// registered (one cycle later). Tags and state are flops; the data array is one line-wide
// synchronous RAM (one access per cycle). Beside it, a 64-bit-wide RAM with the same index
// and access pattern holds each line's byte-dirty mask (bytes written since the line was
// filled or cleaned); it is meaningful only while the line's dirty flop is set, so cleaning
// a line never writes it. A write to a clean line overwrites the whole mask with the write's
// strobes; a write to a dirty line sets the strobed mask bits (bit write enables), so no
// read-modify-write is needed and hits keep their single RAM cycle.
module tessera_l2_bank #(
  parameter int unsigned Ways        = 8,
  parameter int unsigned SetsPerBank = 32,
  parameter int unsigned BankBits    = 2,
  parameter int unsigned EngW        = 3,
  parameter int unsigned PfEng       = 6,   // requester index of the slice's read-ahead unit
  // derived
  parameter int unsigned WayBits     = $clog2(Ways),
  parameter int unsigned LsetBits    = $clog2(SetsPerBank),
  parameter int unsigned TagBits     = 26 - LsetBits - BankBits
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // configuration
  input  logic [BankBits-1:0] bank_idx_i,    // this bank's index in the slice (tied off)
  input  logic [3:0]          cfg_class_weight_i,
  input  logic                cfg_set_hash_i,  // the set index is hashed with the tag
  input  logic [1:0]          cfg_slices_log2_i,
  input  logic [2:0]          cfg_slice_id_i,
  // lookup request (accepted when req_valid_i && !side_valid_i)
  input  logic                req_valid_i,
  input  logic                req_write_i,
  input  logic [LsetBits-1:0] req_lset_i,
  input  logic [TagBits-1:0]  req_tag_i,
  input  logic                req_beat_i,
  input  logic [255:0]        req_wdata_i,
  input  logic [31:0]         req_wstrb_i,
  input  logic                req_alloc_i,
  input  logic                req_full_i,    // write of beat 0, beat 1 follows, all strobes
  // with req_full_i: beat 1 (req_wdata1_i) comes with this lookup (a write pair): on a hit,
  // or on a miss that allocates over a clean victim, the bank writes the whole line at once
  // and says so (res_pair_o); otherwise it handles beat 0 alone, as without the pair
  input  logic                req_pair_i,
  input  logic [255:0]        req_wdata1_i,
  input  logic [1:0]          req_cls_i,
  input  logic [EngW-1:0]     req_eng_i,
  // tag probe (combinational, beside the lookup; no state change): does any way of set
  // prb_lset_i hold tag prb_tag_i as a valid line or reserved for a refill? The slice
  // completes a non-allocating write that finds nothing as a posted miss without a bank
  // cycle (tessera_l2, "tag probe")
  input  logic [LsetBits-1:0] prb_lset_i,
  input  logic [TagBits-1:0]  prb_tag_i,
  output logic                prb_match_o,
  // lookup result
  output logic                res_valid_o,
  output logic [EngW-1:0]     res_eng_o,
  output tessera_l2_pkg::res_kind_e res_kind_o,
  output logic                res_owned_o,   // hit was the owner's replay after a refill
  output logic                res_nofetch_o, // miss allocated without refill (reported as a hit)
  output logic                res_pair_o,    // a write pair: both beats of the line written
  output logic [255:0]        res_rdata_o,
  output logic [255:0]        res_rdata1_o,  // beat 1 of the line (a read of beat 0 reads both)
  output logic [WayBits-1:0]  res_way_o,
  output logic                res_vvalid_o,  // the reserved way held a valid line (eviction)
  output logic                res_vdirty_o,  // ... which was dirty (write-back needed)
  output logic [31:0]         res_vaddr_o,   // byte address of the victim line
  // side operation
  input  logic                side_valid_i,
  input  tessera_l2_pkg::side_op_e side_op_i,
  input  logic                side_beat_i,   // SideFillBeat: which half, last beat, error
  input  logic                side_pair_i,   // SideFillBeat: both halves at once (beat 0 held)
  input  logic                side_last_i,
  input  logic                side_err_i,
  input  logic [LsetBits-1:0] side_lset_i,
  input  logic [WayBits-1:0]  side_way_i,
  input  logic [511:0]        side_wdata_i,
  input  tessera_l2_pkg::maint_op_e side_mop_i,
  input  logic                side_whole_i,
  input  logic [31:0]         side_lo_i,
  input  logic [31:0]         side_hi_i,
  // side result (one cycle later)
  output logic [511:0]        side_rdata_o,
  output logic [63:0]         side_rmask_o,  // byte-dirty mask of side_rdata_o (victim / maint)
  output logic                side_busy_o,   // maintenance: entry reserved, retry
  output logic                side_wb_o,     // maintenance: write side_rdata_o back to side_addr_o
  output logic                side_hit_o,    // maintenance: entry matched (valid, in range)
  output logic [31:0]         side_addr_o
);
  localparam int unsigned Depth = SetsPerBank * Ways;

  // with cfg_set_hash_i the set index is hashed with the tag (tessera_l2, "address decode"):
  // a line's address is {tag, lset ^ set_hash(tag), low, 6'b0}, low = bank ^ lset[BankBits-1:0]
  function automatic logic [LsetBits-1:0] set_hash(input logic [TagBits-1:0] t, input logic en);  /* verilator lint_off UNUSEDSIGNAL */
    logic [7:0] f;  // (its bits from LsetBits up stay 0)
    f = tessera_l2_pkg::set_fold(26'(t), TagBits, LsetBits, en);  /* verilator lint_on UNUSEDSIGNAL */
    set_hash = f[LsetBits-1:0];
  endfunction

  // ---------------------------------------------------------------- state
  logic [SetsPerBank-1:0][Ways-1:0]              valid_q, valid_d;
  logic [SetsPerBank-1:0][Ways-1:0]              dirty_q, dirty_d;
  logic [SetsPerBank-1:0][Ways-1:0]              pend_q, pend_d;   // reserved for an MSHR
  logic [SetsPerBank-1:0][Ways-1:0]              unrd_q, unrd_d;   // read ahead, no engine hit yet
  logic [SetsPerBank-1:0][Ways-1:0][EngW-1:0]    owner_q, owner_d;
  logic [SetsPerBank-1:0][Ways-1:0][TagBits-1:0] tag_q, tag_d;
  logic [SetsPerBank-1:0][Ways-1:0][1:0]         cls_q, cls_d;
  logic [SetsPerBank-1:0][Ways-1:0][WayBits-1:0] age_q, age_d;     // rank, 0 = most recent

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      dirty_q <= '0;
      pend_q  <= '0;
      unrd_q  <= '0;
      owner_q <= '0;
      tag_q   <= '0;
      cls_q   <= '0;
      for (int s = 0; s < SetsPerBank; s++) begin
        for (int w = 0; w < Ways; w++) begin
          age_q[s][w] <= WayBits'(w);
        end
      end
    end else begin
      valid_q <= valid_d;
      dirty_q <= dirty_d;
      pend_q  <= pend_d;
      unrd_q  <= unrd_d;
      owner_q <= owner_d;
      tag_q   <= tag_d;
      cls_q   <= cls_d;
      age_q   <= age_d;
    end
  end

  // ---------------------------------------------------------------- data RAM
  logic                            mem_we, mem_re;
  logic [LsetBits+WayBits-1:0]     mem_idx;
  logic [511:0]                    mem_wd;
  logic [63:0]                     mem_be;
  logic [511:0]                    mem_rd_q;
  logic [511:0]                    mem_q [Depth];
  // byte-dirty mask RAM (written with the data on upstream writes only)
  logic                            dm_we;
  logic [63:0]                     dm_be, dm_rd_q;
  logic [63:0]                     dm_q [Depth];

  // read-first: a read and a write of the same entry in one cycle (a write pair allocated
  // over a dirty victim) read the victim and write the new line
  always_ff @(posedge clk_i) begin
    if (mem_we) begin
      for (int i = 0; i < 64; i++) begin
        if (mem_be[i]) mem_q[mem_idx][i*8 +: 8] <= mem_wd[i*8 +: 8];
      end
    end
    if (mem_re) begin
      mem_rd_q <= mem_q[mem_idx];
    end
  end

  always_ff @(posedge clk_i) begin
    if (dm_we) begin
      for (int i = 0; i < 64; i++) begin
        if (dm_be[i]) dm_q[mem_idx][i] <= mem_be[i];
      end
    end
    if (mem_re) begin
      dm_rd_q <= dm_q[mem_idx];
    end
  end

  // ---------------------------------------------------------------- beat-0 stash
  // A full-line write miss whose victim is dirty allocates the way at once (no refill, no
  // replay): the RAM reads the victim in the lookup cycle (it leaves with the result for
  // the write-back), so beat 0 cannot be written then. It waits here and is written
  // together with beat 1 by the owner's next lookup (an owner hit on the reserved way,
  // which nobody else can touch meanwhile). One stash per bank: while it is in use, a
  // second such miss takes the MSHR path (refill from the burst's own data, replay).
  logic                        stash_v_q, stash_set, stash_use;
  logic [LsetBits+WayBits-1:0] stash_idx_q;
  logic [255:0]                stash_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stash_v_q    <= 1'b0;
      stash_idx_q  <= '0;
      stash_data_q <= '0;
    end else if (stash_set) begin
      stash_v_q    <= 1'b1;
      stash_idx_q  <= mem_idx;
      stash_data_q <= req_wdata_i;
    end else if (stash_use) begin
      stash_v_q    <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- lookup
  logic [Ways-1:0] m_tag, m_hit, m_own, m_busy, cand, inv, keep, free_w;
  logic            any_hit, any_busy, any_inv, any_cand;
  logic [WayBits-1:0] hit_way, inv_way, lru_way, vic_way;
  logic [6:0]      best_score, score;
  logic            found;
  logic [1:0]      icls;

  logic pf_req;
  assign pf_req = (32'(req_eng_i) == PfEng);
  always_comb begin
    for (int w = 0; w < Ways; w++) begin
      m_tag[w]  = (tag_q[req_lset_i][w] == req_tag_i);
      m_hit[w]  = m_tag[w] && valid_q[req_lset_i][w] && !pend_q[req_lset_i][w];
      m_own[w]  = m_tag[w] && valid_q[req_lset_i][w] && pend_q[req_lset_i][w] &&
                  (owner_q[req_lset_i][w] == req_eng_i);
      m_busy[w] = m_tag[w] && pend_q[req_lset_i][w] && !m_own[w];
      // keep: a line the read-ahead filled and no engine has read yet. The read-ahead never
      // evicts one; an engine only when every other unreserved way is a keep line (with more
      // bursts ahead than a set has ways, strided lines would push each other out)
      keep[w]   = valid_q[req_lset_i][w] && unrd_q[req_lset_i][w];
      free_w[w] = !pend_q[req_lset_i][w];
      inv[w]    = free_w[w] && !valid_q[req_lset_i][w];
    end
    any_hit  = |(m_hit | m_own);
    any_busy = |m_busy;
    any_inv  = |inv;
    cand     = (pf_req || |(free_w & ~keep)) ? (free_w & ~keep) : free_w;
    any_cand = |cand;
    hit_way  = '0;
    inv_way  = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (m_hit[w] || m_own[w]) hit_way = WayBits'(w);
      if (inv[w]) inv_way = WayBits'(w);
    end
    // victim among valid unreserved ways: largest age + W * (3 - class), lowest way on ties
    lru_way    = '0;
    best_score = '0;
    score      = '0;
    found      = 1'b0;
    icls       = '0;
    for (int w = 0; w < Ways; w++) begin
      icls  = 2'd3 - cls_q[req_lset_i][w];
      score = 7'(age_q[req_lset_i][w]) + 7'(cfg_class_weight_i) * 7'(icls);
      if (cand[w] && (!found || score > best_score)) begin
        found      = 1'b1;
        best_score = score;
        lru_way    = WayBits'(w);
      end
    end
    vic_way = any_inv ? inv_way : lru_way;
  end

  // tag probe: a bypass miss changes no state, so it needs only this comparison
  always_comb begin
    prb_match_o = 1'b0;
    for (int w = 0; w < Ways; w++) begin
      if (tag_q[prb_lset_i][w] == prb_tag_i &&
          (valid_q[prb_lset_i][w] || pend_q[prb_lset_i][w])) prb_match_o = 1'b1;
    end
  end

  // age update: the touched way becomes 0, the ways younger than it age by one
  logic [Ways-1:0][WayBits-1:0] age_set, age_hit_n, age_vic_n;
  always_comb begin
    age_set = age_q[req_lset_i];
    for (int v = 0; v < Ways; v++) begin
      if (WayBits'(v) == hit_way)            age_hit_n[v] = '0;
      else if (age_set[v] < age_set[hit_way]) age_hit_n[v] = age_set[v] + 1'b1;
      else                                    age_hit_n[v] = age_set[v];
      if (WayBits'(v) == vic_way)            age_vic_n[v] = '0;
      else if (age_set[v] < age_set[vic_way]) age_vic_n[v] = age_set[v] + 1'b1;
      else                                    age_vic_n[v] = age_set[v];
    end
  end

  // ---------------------------------------------------------------- maintenance entry
  logic [31:0] m_addr;
  logic        m_inrange;
  always_comb begin
    m_addr = tessera_l2_pkg::expand_addr({tag_q[side_lset_i][side_way_i],
                          side_lset_i ^ set_hash(tag_q[side_lset_i][side_way_i], cfg_set_hash_i),
                          bank_idx_i ^ side_lset_i[BankBits-1:0], 6'b0},
                         cfg_slices_log2_i, cfg_slice_id_i);
    m_inrange = side_whole_i || ((m_addr >= side_lo_i) && (m_addr < side_hi_i));
  end

  // ---------------------------------------------------------------- next state
  tessera_l2_pkg::res_kind_e kind_d;
  logic      lookup;
  logic [31:0] vaddr_d;
  logic      sbusy_d, swb_d, shit_d;
  logic      alloc, alloc_vd, pair_d;
  // At most one entry (set upd_lset, way upd_way) and the ages of that set change per cycle:
  // which fields and to what is decided here, the write is decoded per set below. (A write
  // at a variable index into these wide flop vectors is a barrel shifter in Yosys: about
  // 100 k cells per bank.)
  logic [LsetBits-1:0] upd_lset;
  logic [WayBits-1:0]  upd_way;
  logic upd_valid, upd_valid_v, upd_dirty, upd_dirty_v, upd_pend, upd_pend_v, upd_unrd, upd_unrd_v;
  logic upd_cls, upd_alloc, upd_age;
  logic [Ways-1:0][WayBits-1:0] upd_age_v;

  always_comb begin
    upd_lset    = side_valid_i ? side_lset_i : req_lset_i;
    upd_way     = side_way_i;
    upd_valid   = 1'b0;
    upd_valid_v = 1'b0;
    upd_dirty   = 1'b0;
    upd_dirty_v = 1'b0;
    upd_pend    = 1'b0;
    upd_pend_v  = 1'b0;
    upd_unrd    = 1'b0;
    upd_unrd_v  = 1'b0;
    upd_cls     = 1'b0;
    upd_alloc   = 1'b0;
    upd_age     = 1'b0;
    upd_age_v   = age_hit_n;
    mem_we  = 1'b0;
    mem_re  = 1'b0;
    dm_we   = 1'b0;
    dm_be   = '1;
    mem_idx = {req_lset_i, hit_way};
    mem_wd  = {req_wdata_i, req_wdata_i};
    mem_be  = req_beat_i ? {req_wstrb_i, 32'h0} : {32'h0, req_wstrb_i};
    kind_d  = tessera_l2_pkg::ResRetry;
    lookup  = req_valid_i && !side_valid_i;
    vaddr_d = tessera_l2_pkg::expand_addr({tag_q[req_lset_i][vic_way],
                           req_lset_i ^ set_hash(tag_q[req_lset_i][vic_way], cfg_set_hash_i),
                           bank_idx_i ^ req_lset_i[BankBits-1:0], 6'b0},
                          cfg_slices_log2_i, cfg_slice_id_i);
    sbusy_d = 1'b0;
    swb_d   = 1'b0;
    shit_d  = 1'b0;
    stash_set = 1'b0;
    stash_use = 1'b0;
    alloc     = 1'b0;
    alloc_vd  = 1'b0;
    pair_d    = 1'b0;

    if (side_valid_i) begin
      mem_idx = {side_lset_i, side_way_i};
      mem_wd  = side_wdata_i;
      mem_be  = '1;
      unique case (side_op_i)
        tessera_l2_pkg::SideFillBeat: begin
          mem_we = 1'b1;
          mem_be = side_pair_i ? '1 :
                   side_beat_i ? {32'hffff_ffff, 32'h0} : {32'h0, 32'hffff_ffff};
          if (side_last_i) begin
            upd_valid   = 1'b1;
            upd_valid_v = !side_err_i;
            upd_dirty   = 1'b1;
            upd_pend    = 1'b1;
          end
        end
        tessera_l2_pkg::SideFill: begin
          mem_we = 1'b1;
          upd_valid   = 1'b1;
          upd_valid_v = 1'b1;
          upd_dirty   = 1'b1;
        end
        tessera_l2_pkg::SideFillErr: begin
          upd_valid = 1'b1;
          upd_pend  = 1'b1;
        end
        default: begin  // tessera_l2_pkg::SideMaint
          if (pend_q[side_lset_i][side_way_i]) begin
            sbusy_d = 1'b1;
          end else if (valid_q[side_lset_i][side_way_i] && m_inrange) begin
            shit_d = 1'b1;
            if (dirty_q[side_lset_i][side_way_i] && side_mop_i != tessera_l2_pkg::MaintDiscard) begin
              swb_d  = 1'b1;
              mem_re = 1'b1;
            end
            if (side_mop_i != tessera_l2_pkg::MaintNone) upd_dirty = 1'b1;
            if (side_mop_i == tessera_l2_pkg::MaintInval || side_mop_i == tessera_l2_pkg::MaintDiscard) begin
              upd_valid = 1'b1;
            end
          end
        end
      endcase
    end else if (req_valid_i) begin
      if (any_hit) begin
        kind_d = tessera_l2_pkg::ResHit;
        upd_way = hit_way;
        upd_unrd = !pf_req;
        upd_age = 1'b1;
        upd_cls = 1'b1;
        upd_pend = 1'b1;
        if (req_write_i) begin
          mem_we = 1'b1;
          dm_we  = 1'b1;
          // the owner's beat 1 of a line whose beat 0 is stashed: write the whole line
          if (stash_v_q && stash_idx_q == mem_idx) begin
            stash_use = 1'b1;
            mem_wd    = {req_wdata_i, stash_data_q};
            mem_be    = req_beat_i ? {req_wstrb_i, 32'hffff_ffff} : {32'hffff_ffff, req_wstrb_i};
          end else if (req_pair_i && req_full_i && !req_beat_i) begin
            // a write pair: the whole line
            pair_d = 1'b1;
            mem_wd = {req_wdata1_i, req_wdata_i};
            mem_be = '1;
          end
          // dirty line: add the strobed bytes; clean line: the mask becomes the strobes
          if (dirty_q[req_lset_i][hit_way]) dm_be = mem_be;
          upd_dirty   = 1'b1;
          upd_dirty_v = 1'b1;
        end else begin
          mem_re = 1'b1;
        end
      end else if (any_busy) begin
        kind_d = tessera_l2_pkg::ResRetry;
      end else if (!req_alloc_i) begin
        kind_d = tessera_l2_pkg::ResMissBypass;
      end else if (any_cand && req_write_i && req_full_i &&
                   !(valid_q[req_lset_i][vic_way] && dirty_q[req_lset_i][vic_way])) begin
        // full-line write miss with a clean (or no) victim: allocate without a refill, write
        // beat 0 now; the line stays reserved for this engine until its beat 1 (an owner hit)
        kind_d = tessera_l2_pkg::ResHit;
        mem_we  = 1'b1;
        dm_we   = 1'b1;  // new mask = beat 0's strobes (beat 1 adds its own as a hit)
        mem_idx = {req_lset_i, vic_way};
        alloc    = 1'b1;
        alloc_vd = 1'b1;
        if (req_pair_i && !req_beat_i) begin
          // a write pair: both beats now, the line is complete (not reserved for beat 1)
          pair_d = 1'b1;
          mem_wd = {req_wdata1_i, req_wdata_i};
          mem_be = '1;
        end
      end else if (any_cand && req_write_i && req_full_i && req_pair_i && !req_beat_i) begin
        // a write pair over a dirty victim: the RAM reads the victim (its write-back goes
        // through the requester's MSHR, as below) and writes the whole new line in the same
        // cycle (read-first); the line is complete, valid and dirty
        kind_d  = tessera_l2_pkg::ResHit;
        mem_re  = 1'b1;
        mem_we  = 1'b1;
        dm_we   = 1'b1;
        mem_idx = {req_lset_i, vic_way};
        mem_wd  = {req_wdata1_i, req_wdata_i};
        mem_be  = '1;
        alloc    = 1'b1;
        alloc_vd = 1'b1;
        pair_d   = 1'b1;
      end else if (any_cand && req_write_i && req_full_i && !stash_v_q) begin
        // full-line write miss with a dirty victim: read the victim now (it goes to the
        // write queue through the requester's MSHR, which the write engine keeps free for
        // it), allocate the line as dirty and reserved for the engine, stash beat 0 (written
        // with beat 1). Reported as a hit: no refill, no replay.
        kind_d  = tessera_l2_pkg::ResHit;
        mem_re  = 1'b1;
        mem_idx = {req_lset_i, vic_way};
        stash_set = 1'b1;
        alloc    = 1'b1;
        alloc_vd = 1'b1;
      end else if (any_cand) begin
        kind_d = tessera_l2_pkg::ResMissAlloc;
        // read the victim line now (the RAM is idle on a miss): a dirty victim's data is
        // on side_rdata_o with the result, no separate victim read is needed
        mem_re  = 1'b1;
        mem_idx = {req_lset_i, vic_way};
        alloc    = 1'b1;
        alloc_vd = 1'b0;
      end else begin
        kind_d = tessera_l2_pkg::ResRetry;
      end
    end
    // an allocation reserves the victim way for the requester: the way becomes the youngest
    // and takes the new tag; it is valid and dirty at once when the lookup writes the whole
    // line itself (full-line writes), else invalid until its refill
    if (alloc) begin
      upd_way     = vic_way;
      upd_age     = 1'b1;
      upd_age_v   = age_vic_n;
      upd_cls     = 1'b1;
      upd_alloc   = 1'b1;
      upd_valid   = 1'b1;
      upd_valid_v = alloc_vd;
      upd_dirty   = 1'b1;
      upd_dirty_v = alloc_vd;
      upd_pend    = 1'b1;
      upd_pend_v  = 1'b1;
      upd_unrd    = 1'b1;
      upd_unrd_v  = pf_req;
      upd_pend_v  = !pair_d;
    end
  end

  // the decoded write: the one-bit fields as whole-vector operations with the entry's one-hot
  // mask; the wider fields per set and way, each loop only when its field changes (cheap in
  // simulation too; tag and owner change only on an allocation)
  logic [Depth-1:0] upd_hot;
  always_comb begin
    upd_hot = Depth'(1) << {upd_lset, upd_way};
    valid_d = upd_valid ? ((valid_q & ~upd_hot) | (upd_valid_v ? upd_hot : '0)) : valid_q;
    dirty_d = upd_dirty ? ((dirty_q & ~upd_hot) | (upd_dirty_v ? upd_hot : '0)) : dirty_q;
    pend_d  = upd_pend  ? ((pend_q  & ~upd_hot) | (upd_pend_v  ? upd_hot : '0)) : pend_q;
    // set when the read-ahead allocates a line, cleared when an engine hits it
    unrd_d  = upd_unrd  ? ((unrd_q  & ~upd_hot) | (upd_unrd_v  ? upd_hot : '0)) : unrd_q;
    owner_d = owner_q;
    tag_d   = tag_q;
    cls_d   = cls_q;
    age_d   = age_q;
    if (upd_age) begin
      for (int s = 0; s < SetsPerBank; s++) begin
        if (LsetBits'(s) == upd_lset) age_d[s] = upd_age_v;
      end
    end
    if (upd_cls) begin
      for (int s = 0; s < SetsPerBank; s++) begin
        if (LsetBits'(s) == upd_lset) begin
          for (int w = 0; w < Ways; w++) begin
            if (WayBits'(w) == upd_way) cls_d[s][w] = req_cls_i;
          end
        end
      end
    end
    if (upd_alloc) begin
      for (int s = 0; s < SetsPerBank; s++) begin
        if (LsetBits'(s) == upd_lset) begin
          for (int w = 0; w < Ways; w++) begin
            if (WayBits'(w) == upd_way) begin
              tag_d[s][w]   = req_tag_i;
              owner_d[s][w] = req_eng_i;
            end
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- result registers
  logic               res_valid_q, res_beat_q, res_owned_q, res_vvalid_q, res_vdirty_q, res_nof_q, res_pair_q;
  logic [EngW-1:0]    res_eng_q;
  tessera_l2_pkg::res_kind_e          res_kind_q;
  logic [WayBits-1:0] res_way_q;
  logic [31:0]        res_vaddr_q;
  logic               sbusy_q, swb_q, shit_q;
  logic [31:0]        saddr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_valid_q  <= 1'b0;
      res_beat_q   <= 1'b0;
      res_owned_q  <= 1'b0;
      res_nof_q    <= 1'b0;
      res_pair_q   <= 1'b0;
      res_vvalid_q <= 1'b0;
      res_vdirty_q <= 1'b0;
      res_eng_q    <= '0;
      res_kind_q   <= tessera_l2_pkg::ResRetry;
      res_way_q    <= '0;
      res_vaddr_q  <= '0;
      sbusy_q      <= 1'b0;
      swb_q        <= 1'b0;
      shit_q       <= 1'b0;
      saddr_q      <= '0;
    end else begin
      res_valid_q  <= lookup;
      if (lookup) begin
        res_beat_q   <= req_beat_i;
        res_owned_q  <= any_hit && !(|m_hit);
        res_nof_q    <= !any_hit && !any_busy && (kind_d == tessera_l2_pkg::ResHit);
        res_pair_q   <= pair_d;
        res_vvalid_q <= (kind_d == tessera_l2_pkg::ResMissAlloc ||
                         (!any_hit && !any_busy && kind_d == tessera_l2_pkg::ResHit)) &&
                        valid_q[req_lset_i][vic_way];
        res_vdirty_q <= (kind_d == tessera_l2_pkg::ResMissAlloc ||
                         (!any_hit && !any_busy && kind_d == tessera_l2_pkg::ResHit)) &&
                        valid_q[req_lset_i][vic_way] && dirty_q[req_lset_i][vic_way];
        res_eng_q    <= req_eng_i;
        res_kind_q   <= kind_d;
        res_way_q    <= any_hit ? hit_way : vic_way;
        res_vaddr_q  <= vaddr_d;
      end
      sbusy_q <= sbusy_d;
      swb_q   <= swb_d;
      shit_q  <= shit_d;
      if (side_valid_i) saddr_q <= m_addr;
    end
  end

  assign res_valid_o  = res_valid_q;
  assign res_eng_o    = res_eng_q;
  assign res_kind_o   = res_kind_q;
  assign res_owned_o  = res_owned_q;
  assign res_nofetch_o = res_nof_q;
  assign res_pair_o    = res_pair_q;
  assign res_rdata_o  = res_beat_q ? mem_rd_q[511:256] : mem_rd_q[255:0];
  assign res_rdata1_o = mem_rd_q[511:256];
  assign res_way_o    = res_way_q;
  assign res_vvalid_o = res_vvalid_q;
  assign res_vdirty_o = res_vdirty_q;
  assign res_vaddr_o  = res_vaddr_q;
  assign side_rdata_o = mem_rd_q;
  assign side_rmask_o = dm_rd_q;
  assign side_busy_o  = sbusy_q;
  assign side_wb_o    = swb_q;
  assign side_hit_o   = shit_q;
  assign side_addr_o  = saddr_q;

endmodule
