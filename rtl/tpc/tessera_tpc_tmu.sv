// TPC tensor memory unit: executes one ld.t or st.t through an AXI4 master (256-bit beats,
// INCR bursts that never cross a 256-byte boundary). Two paths (docs/tpc_rtl.md):
// * fast path: dim-0 stride 1, every lane of the vector in bounds and inside device memory
//   (the 32 bytes are contiguous); for a load also its block(s) inside the row's dim-0
//   extent (the unit reads no beat outside the rows loaded). A load is served from a buffer of NumBlk aligned 256-byte
//   blocks (filled by 8-beat bursts; a hit on block X also prefetches X+1 in the background
//   while the core runs on), the 32 bytes realigned by a byte shifter; a store writes the
//   vector as one burst of one or two beats with byte strobes (two single-beat bursts when
//   it crosses a 256-byte boundary).
// * slow path (any other vector): lanes one per cycle in order; a lane's 32-byte beat is
//   read once and reused by the following lanes of the same beat, store lanes of one beat
//   are merged into one write with byte strobes; out-of-bounds lanes read the pad / are
//   dropped.
// Disabled lanes keep the destination / write nothing. An in-bounds element outside
// [MemBase, MemBase+MemSize) or an AXI error response for an enabled lane is a BUS error (a
// failed block fill sends the load to the slow path, which finds out); a store checks every
// lane's address before it writes anything. Every write invalidates the buffered block it
// hits (and a fill in flight for it); flush_i (launch) drops the whole buffer.
// Block fills run in the background, up to NumFill in flight on ID 0 (data in AR order).
// A fast store is posted (done_o when its one burst is handed over); its write response
// arrives later. Until then only a second posted store into the same RegionBytes region
// may start (no other write, no fill of their blocks, no slow-path read); an error response
// sets wr_err_o, which stays set until flush_i, and a store waiting behind it ends with
// bus_err_o without writing anything. The core reports such an error at the posted
// store's PC (docs/tpc_rtl.md, "Precise store errors").
module tessera_tpc_tmu #(
  parameter logic [31:0] MemBase = 32'h8000_0000,  // 256-byte aligned
  parameter logic [32:0] MemSize = 33'h0_4000_0000,  // multiple of 256 bytes
  parameter int unsigned NumBlk  = 4,              // 256-byte blocks in the load buffer
  parameter int unsigned NumFill = 2,              // block fills in flight (power of 2)
  // device memory answers DECERR in whole aligned regions of this size (power of 2, >= 256)
  parameter int unsigned RegionBytes = 4096,
  parameter int unsigned NumPosted = 4,            // posted stores in flight (one region, >= 2)
  parameter int unsigned PstW    = $clog2(NumPosted + 1),
  parameter int unsigned AgW     = $clog2(NumPosted)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,     // launch start: drop the block buffer
  input  logic             start_i,     // one cycle; inputs below stable until done_o
  input  logic             store_i,
  // with start_i (a load): pf.t, a prefetch hint. One cycle (state TPf): when the access
  // would take the fast path, lies in its row and its first block is neither buffered nor
  // being filled, that block's fill starts (a free fill slot and a victim permitting);
  // nothing else happens, no error is ever reported, vres_o is meaningless
  input  logic             pf_i,
  input  logic [511:0]     desc_i,      // descriptor image (already checked)
  input  logic [4:0][31:0] coord_i,     // index register
  input  logic [31:0]      mask_i,      // enabled lanes
  input  logic [255:0]     vin_i,       // load: old destination; store: data
  output logic             done_o,      // one cycle
  // a fast load whose block(s) are buffered is done in its start cycle: hit_o with start_i
  // (not done_o), vres_o / bytes_o valid in that cycle
  output logic             hit_o,
  output logic             bus_err_o,   // with done_o
  output logic [255:0]     vres_o,      // load result (valid from done_o until the next start)
  output logic [31:0]      bytes_o,     // in-bounds bytes moved by the last operation
  output logic             rd_wait_o,   // waiting for read data (stall-by-cause counter)
  output logic             idle_o,      // no posted store response outstanding
  output logic             wr_err_o,    // a posted store got an error response
  // ... the number of younger posted stores in flight (or just sent) at that response
  output logic [AgW-1:0]   wr_err_age_o,
  // AXI4 master
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i
);
  // the AXI port as signals (m_axi_*)
  `TESSERA_AXI_SIGS_DECL(m_axi_, 4)
  `TESSERA_AXI_MST_CONNECT(mst_req_o, mst_rsp_i, m_axi_)
  localparam int unsigned EW = (NumBlk > 1) ? $clog2(NumBlk) : 1;

  typedef enum logic [3:0] {
    TIdle, TChk, TLane, TAr, TR, TAw, TB, TDone,  // slow path
    TFld, TFaw, TFb,                              // fast path
    TPf                                           // pf.t (one cycle)
  } tstate_e;
  tstate_e  st_q;

  logic [5:0]   k_q;
  logic         store_q, err_q, cache_v_q, aw_done_q, w_done_q;
  logic         wany_q;  // a W beat of the current burst went out (its AW must follow)
  logic [26:0]  cache_beat_q, wbeat_q;
  logic [255:0] cache_q, wdata_q, res_q;
  logic [31:0]  wstrb_q, bytes_q;

  // fast store: the vector shifted into two beats, strobes, beat indices
  logic [1:0][255:0] fdata_q;
  logic [1:0][31:0]  fstrb_q;
  logic [26:0]       fbeat_q;
  logic              tcur_q, wcur_q, flast_q, fsplit_q;

  // block buffer and its fill engine
  logic [NumBlk-1:0]              bv_q;
  logic [NumBlk-1:0][23:0]        btag_q;
  logic [NumBlk-1:0][7:0][255:0]  bdata_q;
  logic [NumBlk-1:0][EW-1:0]      age_q;      // LRU rank, 0 = most recently used
  // fill queue: NumFill block fills in flight, in order (one AXI ID: the R beats return
  // in AR order). Slot fields: valid, AR sent, block tag, buffer entry, poisoned (a write
  // or flush hit the block while in flight), demand fill (not a prefetch), error seen.
  localparam int unsigned FW = (NumFill > 1) ? $clog2(NumFill) : 1;
  logic [NumFill-1:0]             fq_v_q, fq_ar_q, fq_poison_q, fq_dem_q, fq_rerr_q;
  // stream hint of the fill (ARQOS[3:2], docs/l2.md "AXI subset and hints"): which blocks
  // after the filled one lie inside the row and device memory too, so the L2 slice may read
  // them ahead: 2'b01 the next block, 2'b10 the next two, 2'b11 only the block two after
  // (any fill of the block after one whose fill announced two: the slice has this block
  // and the next one looked up already)
  logic [NumFill-1:0][1:0]        fq_hint_q;
  logic [NumBlk-1:0]              bfar_q;     // the entry's fill announced the block two after it
  logic [NumFill-1:0][23:0]       fq_tag_q;
  logic [NumFill-1:0][EW-1:0]     fq_ent_q;
  logic [FW-1:0]                  fq_wp_q, fq_ap_q, fq_rp_q;   // next slot: allocate, AR, R
  logic [2:0]                     fe_cnt_q;   // beat of the R head slot
  logic                           fe_bad_q;
  logic                           fe_busy, fe_free, fe_arv, fe_rv;
  logic [23:0]                    fe_artag;
  assign fe_busy  = |fq_v_q;
  assign fe_free  = !fq_v_q[fq_wp_q];
  assign fe_arv   = fq_v_q[fq_ap_q] && !fq_ar_q[fq_ap_q];
  assign fe_rv    = fq_v_q[fq_rp_q] && fq_ar_q[fq_rp_q];
  assign fe_artag = fq_tag_q[fq_ap_q];
  logic                           fdone;      // a fast access done without a TDone cycle
  // posted store: its write response is still due (no write until it arrives, no fill of
  // the block it wrote: bp_tag_q); wrerr_q: it was an error (sticky until flush_i; the
  // core stops at the next bundle)
  // Up to NumPosted posted stores may be in flight (bcnt_q), all in the RegionBytes region
  // of the oldest: memory is populated in whole regions, so when the oldest one fails the
  // younger ones fail too and nothing is written past a faulting store. Their responses
  // return in order (one AXI ID). bp_tag_q[i]: block of the i-th youngest posted store
  // (valid for i < bcnt_q).
  localparam int unsigned RgB = $clog2(RegionBytes) - 8;   // block-number bits inside a region
  logic [PstW-1:0]                bcnt_q;
  logic [AgW-1:0]                 wrerr_age_q;
  logic                           bpend, wrerr_q;
  logic [NumPosted-1:0][23:0]     bp_tag_q;
  assign bpend = (bcnt_q != '0);
  // a posted store's response is due for block b: no fill of b may start
  function automatic logic bp_hit(input logic [23:0] b, input logic [PstW-1:0] n,
                                  input logic [NumPosted-1:0][23:0] t);
    bp_hit = 1'b0;
    for (int i = 0; i < NumPosted; i++)
      if (32'(n) > i && t[i] == b) bp_hit = 1'b1;
  endfunction

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
  // (k_q is 0 while idle, so at start_i these are lane 0's values, used by the fast check)
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

  // ---------------------------------------------------------------- fast-path check
  // contiguous: dim-0 stride 1, lanes 0..lanes-1 in bounds (lane 0 in bounds and the last
  // lane below size[0]), the 256-byte blocks holding the 32 bytes inside device memory,
  // some lane enabled
  // A load takes the fast path only when its block(s) hold nothing but beats of the row
  // it reads (dim-0 extent of the tensor, rounded out to 32-byte beats), and a prefetch
  // only fills such a block: the unit never reads (nor makes the L2 allocate) a line the
  // kernel does not address. A consumer that reads rows of a buffer while a producer on
  // another DCORE is still writing the next rows (hostlink/pipeline_gemm_tpc) would
  // otherwise find those lines, read before they were written, in its own L2 slice.
  logic        fast, fcross, frow;
  logic [31:0] fmask, ben;
  logic [23:0] blk0, blk1;
  logic [31:0] fbytes;
  logic signed [63:0] rlo, rhi;  // the row's beats: [rlo, rhi)
  always_comb begin
    logic signed [63:0] clast, wlo, whi, rbase;
    clast = 64'(signed'(coord_i[0])) + 64'(lanes);
    wlo = addr64 & ~64'sd255;
    whi = ((addr64 + 64'sd31) & ~64'sd255) + 64'sd256;
    rbase = addr64 - 64'(signed'(coord_i[0])) * $signed({61'd0, esz});
    rlo = rbase & ~64'sd31;
    rhi = (rbase + $signed({32'd0, desc_i[96 +: 32]}) * $signed({61'd0, esz}) + 64'sd31) &
          ~64'sd31;
    frow = (wlo >= rlo) && (whi <= rhi);
    unique case (lanes)
      6'd8:    fmask = mask_i & 32'h0000_00ff;
      6'd16:   fmask = mask_i & 32'h0000_ffff;
      default: fmask = mask_i;
    endcase
    fast = (k_q == 6'd0) && (nd != 3'd0) && (desc_i[256 +: 32] == 32'd1) && inb &&
           (clast <= $signed({32'd0, desc_i[96 +: 32]})) &&
           (wlo >= $signed({32'd0, MemBase})) &&
           (whi <= $signed({31'd0, MemBase + MemSize})) && (fmask != 32'd0);
    for (int j = 0; j < 32; j++) begin
      unique case (esz)
        3'd4:    ben[j] = fmask[j / 4];
        3'd2:    ben[j] = fmask[j / 2];
        default: ben[j] = fmask[j];
      endcase
    end
    fbytes = '0;
    for (int j = 0; j < 32; j++) fbytes = fbytes + 32'(fmask[j]);
    fbytes = fbytes << (esz >> 1);
    blk0 = addr[31:8];
    blk1 = blk0 + 24'd1;
    fcross = (addr[7:5] == 3'd7) && (addr[4:0] != 5'd0);
  end

  // ---------------------------------------------------------------- block buffer lookup
  logic [NumBlk-1:0] hit0v, hit1v, deadv, busyv;
  logic              vict_ok, infl0, infl1, inflp;
  logic [EW-1:0]     e0, e1, vict;
  logic              h0, h1, hpf;
  logic [23:0]       pblk, mblk;
  logic              pf_ok;
  // the whole block b lies in device memory and in the row [lo, hi) the access reads
  // (the footprint rule above: a fill never reads outside the rows loaded)
  function automatic logic blk_in_row(input logic [23:0] b, input logic signed [63:0] lo,
                                      input logic signed [63:0] hi);
    blk_in_row = ({2'b0, b, 8'd0} >= {2'b0, MemBase}) &&
                 ({2'b0, b, 8'd0} + 34'd256 <= {1'b0, MemBase + MemSize}) &&
                 ($signed({40'd0, b}) * 64'sd256 >= lo) &&
                 ($signed({40'd0, b}) * 64'sd256 + 64'sd256 <= hi);
  endfunction
  always_comb begin
    logic          found, lru_found;
    logic [EW-1:0] maxa;
    pblk = fcross ? blk1 + 24'd1 : blk1;
    mblk = blk0 - 24'd1;   // the block before the one in use: dead for a stream
    e0 = '0;
    e1 = '0;
    hpf = 1'b0;
    busyv = '0;
    infl0 = 1'b0;
    infl1 = 1'b0;
    inflp = 1'b0;
    for (int f = 0; f < NumFill; f++)
      if (fq_v_q[f]) begin
        busyv[fq_ent_q[f]] = 1'b1;
        if (fq_tag_q[f] == blk0) infl0 = 1'b1;
        if (fq_tag_q[f] == blk1) infl1 = 1'b1;
        if (fq_tag_q[f] == pblk) inflp = 1'b1;
      end
    for (int e = 0; e < NumBlk; e++) begin
      hit0v[e] = bv_q[e] && (btag_q[e] == blk0);
      hit1v[e] = bv_q[e] && (btag_q[e] == blk1);
      deadv[e] = bv_q[e] && (btag_q[e] == mblk);
      if (hit0v[e]) e0 = EW'(e);
      if (hit1v[e]) e1 = EW'(e);
      if (bv_q[e] && btag_q[e] == pblk) hpf = 1'b1;
    end
    h0 = |hit0v;
    h1 = !fcross || (|hit1v);
    // victim: an invalid entry, else the dead block, else the least recently used; never an
    // entry the current vector needs or one a fill in flight writes (vict_ok: one is left)
    vict = '0;
    found = 1'b0;
    for (int e = 0; e < NumBlk; e++)
      if (!found && !hit0v[e] && !hit1v[e] && !busyv[e] && !bv_q[e]) begin vict = EW'(e); found = 1'b1; end
    for (int e = 0; e < NumBlk; e++)
      if (!found && !hit0v[e] && !hit1v[e] && !busyv[e] && deadv[e] && st_q != TPf) begin
        vict = EW'(e);  // (for a pf.t the block before its target is the row's live end)
        found = 1'b1;
      end
    lru_found = 1'b0;
    maxa = '0;
    for (int e = 0; e < NumBlk; e++)
      if (!found && !hit0v[e] && !hit1v[e] && !busyv[e] && (!lru_found || age_q[e] > maxa)) begin
        vict = EW'(e);
        maxa = age_q[e];
        lru_found = 1'b1;
      end
    vict_ok = found || lru_found;
    pf_ok = blk_in_row(pblk, rlo, rhi);
  end


  // a fast load in its start cycle is looked up at once (fld): a hit is done then (hit_o),
  // a miss starts its fill and goes on in TFld
  logic fld0, fld;
  assign fld0  = (st_q == TIdle) && start_i && !store_i && !pf_i && !wrerr_q && fast && frow;
  assign fld   = (st_q == TFld) || fld0;
  assign hit_o = fld0 && !fe_bad_q && h0 && h1;

  // the 32 bytes at addr from the buffer, realigned; disabled lanes keep the destination
  logic [255:0] fres;
  always_comb begin
    logic [255:0] lo, hi;
    logic [511:0] sh;
    logic [2:0]   bn;
    bn = addr[7:5] + 3'd1;
    lo = bdata_q[e0][addr[7:5]];
    hi = (addr[7:5] == 3'd7) ? bdata_q[e1][0] : bdata_q[e0][bn];
    sh = {hi, lo} >> {addr[4:0], 3'b000};
    for (int j = 0; j < 32; j++) fres[8*j +: 8] = ben[j] ? sh[8*j +: 8] : vin_i[8*j +: 8];
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

  // fast store: the vector and its strobes shifted to the byte offset; the first beat
  // (1: nothing to write in the low one) and the last beat
  logic [511:0] sdat;
  logic [63:0]  sstrb;
  logic         sfirst, slast;
  assign sdat   = {256'd0, vin_i} << {addr[4:0], 3'b000};
  assign sstrb  = {32'd0, ben} << addr[4:0];
  assign sfirst = (sstrb[31:0] == 32'd0);
  assign slast  = (sstrb[63:32] != 32'd0);

  // write handshakes (either path); the block a write hits is no longer valid
  logic        aw_hs, w_hs, faw_fin;
  logic [23:0] aw_tag;
  assign aw_hs  = m_axi_awvalid && m_axi_awready;
  assign w_hs   = m_axi_wvalid && m_axi_wready;
  assign faw_fin = (st_q == TFaw) && (aw_done_q || aw_hs) && (w_done_q || (w_hs && m_axi_wlast));
  assign aw_tag = m_axi_awaddr[31:8];

  // write issue: with no posted store in flight, or (a one-burst fast store) with fewer
  // than NumPosted in flight, into their region; wblk: an older store failed before this
  // write went out
  logic w_ok, wblk, b_inc, b_dec;
  assign w_ok  = (bcnt_q == '0) ||
                 (st_q == TFaw && !fsplit_q && 32'(bcnt_q) < NumPosted &&
                  aw_tag[23:RgB] == bp_tag_q[0][23:RgB]);
  assign wblk  = wrerr_q && !aw_done_q && !w_done_q && !wany_q;
  assign b_inc = faw_fin && !fsplit_q;
  assign b_dec = bpend && m_axi_bvalid;

  // fill engine start (demand miss or prefetch), from state TFld
  // A fill may start while a posted store's response is due, unless it reads the block
  // that store wrote (AXI orders nothing between the read and write channels, so only a
  // read of that block could overtake the write); a fill of another block reads nothing
  // the store changed.
  logic        fe_start, fe_start_dem;
  logic [23:0] fe_start_tag;
  always_comb begin
    fe_start = 1'b0;
    fe_start_dem = 1'b0;
    fe_start_tag = blk0;
    // (a block already being filled is not filled again: the access waits for it)
    if (fld && fe_free && vict_ok && !fe_bad_q) begin
      if (!h0 && !infl0) begin
        fe_start_tag = blk0;
        fe_start = !bp_hit(blk0, bcnt_q, bp_tag_q);
        fe_start_dem = 1'b1;
      end else if (!h1 && !infl1) begin
        fe_start_tag = blk1;
        fe_start = !bp_hit(blk1, bcnt_q, bp_tag_q);
        fe_start_dem = 1'b1;
      end else if (h0 && h1 && !hpf && !inflp && pf_ok) begin
        fe_start_tag = pblk;
        fe_start = !bp_hit(pblk, bcnt_q, bp_tag_q);
      end
    end
    // pf.t: its first block, when the whole block lies in the row and in device memory
    if (st_q == TPf && fast && frow && fe_free && vict_ok && !fe_bad_q && !h0 && !infl0 &&
        blk_in_row(blk0, rlo, rhi)) begin
      fe_start_tag = blk0;
      fe_start = !bp_hit(blk0, bcnt_q, bp_tag_q);
    end
  end

  // the blocks after the one a fill starts on that are inside the row extent and device
  // memory: the stream hint of the fill
  // fe_start_sk: the fill of the block before (a demand fill, the TMU's prefetch or a pf.t,
  // still in the block buffer) announced this block and the next one already
  logic        fe_start_nx, fe_start_far, fe_start_sk;
  logic [1:0]  fe_start_hint;
  always_comb begin
    fe_start_nx   = blk_in_row(fe_start_tag + 24'd1, rlo, rhi);
    fe_start_far  = blk_in_row(fe_start_tag + 24'd2, rlo, rhi);
    fe_start_sk   = 1'b0;
    for (int e = 0; e < NumBlk; e++)
      if (bfar_q[e] && btag_q[e] + 24'd1 == fe_start_tag) fe_start_sk = 1'b1;
    fe_start_hint = fe_start_sk ? {2{fe_start_far}} :
                    fe_start_far ? 2'b10 : {1'b0, fe_start_nx};
  end

  // ---------------------------------------------------------------- fill engine
  logic fe_last, fe_rbad;
  assign fe_last = fe_rv && m_axi_rvalid && (m_axi_rlast || fe_cnt_q == 3'd7);
  assign fe_rbad = m_axi_rresp != 2'b00 || m_axi_rid != 4'd0 ||
                   m_axi_rlast != (fe_cnt_q == 3'd7);

  // LRU ranks: the entry used (a hit, then a fill start) becomes rank 0, the entries that
  // were more recent than it age by one
  logic [NumBlk-1:0][EW-1:0] age_d;
  always_comb begin
    logic [EW-1:0] r;
    r = '0;
    age_d = age_q;
    if (fld && h0 && h1) begin
      r = age_d[e0];
      for (int i = 0; i < NumBlk; i++) if (age_d[i] < r) age_d[i] = age_d[i] + 1'b1;
      age_d[e0] = '0;
    end
    if (fe_start) begin
      r = age_d[vict];
      for (int i = 0; i < NumBlk; i++) if (age_d[i] < r) age_d[i] = age_d[i] + 1'b1;
      age_d[vict] = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fq_v_q <= '0;
      fq_ar_q <= '0;
      fq_poison_q <= '0;
      fq_dem_q <= '0;
      fq_rerr_q <= '0;
      fq_hint_q <= '0;
      bfar_q <= '0;
      fq_tag_q <= '0;
      fq_ent_q <= '0;
      fq_wp_q <= '0;
      fq_ap_q <= '0;
      fq_rp_q <= '0;
      fe_cnt_q <= '0;
      fe_bad_q <= 1'b0;
      bv_q <= '0;
      btag_q <= '0;
      for (int e = 0; e < NumBlk; e++) age_q[e] <= EW'(e);
    end else begin
      // a write or a flush poisons the fills in flight for the block it hits
      for (int f = 0; f < NumFill; f++)
        if (fq_v_q[f] && ((aw_hs && aw_tag == fq_tag_q[f]) || flush_i)) fq_poison_q[f] <= 1'b1;
      if (fe_start) begin
        fq_v_q[fq_wp_q] <= 1'b1;
        fq_ar_q[fq_wp_q] <= 1'b0;
        fq_tag_q[fq_wp_q] <= fe_start_tag;
        fq_ent_q[fq_wp_q] <= vict;
        fq_poison_q[fq_wp_q] <= 1'b0;
        fq_dem_q[fq_wp_q] <= fe_start_dem;
        fq_rerr_q[fq_wp_q] <= 1'b0;
        fq_hint_q[fq_wp_q] <= fe_start_hint;
        bfar_q[vict] <= fe_start_far;
        fq_wp_q <= fq_wp_q + FW'(1);
        bv_q[vict] <= 1'b0;
        btag_q[vict] <= fe_start_tag;
      end
      age_q <= age_d;
      if (done_o) fe_bad_q <= 1'b0;
      if (fe_arv && m_axi_arready) begin
        fq_ar_q[fq_ap_q] <= 1'b1;
        fq_ap_q <= fq_ap_q + FW'(1);
      end
      if (fe_rv && m_axi_rvalid) begin
        fe_cnt_q <= fe_cnt_q + 3'd1;
        if (fe_rbad) fq_rerr_q[fq_rp_q] <= 1'b1;
        if (fe_last) begin
          fq_v_q[fq_rp_q] <= 1'b0;
          fq_rp_q <= fq_rp_q + FW'(1);
          fe_cnt_q <= '0;
          bv_q[fq_ent_q[fq_rp_q]] <= !(fq_poison_q[fq_rp_q] || fq_rerr_q[fq_rp_q] || fe_rbad ||
                                       flush_i || (aw_hs && aw_tag == fq_tag_q[fq_rp_q]));
          if (fq_dem_q[fq_rp_q] && (fq_rerr_q[fq_rp_q] || fe_rbad)) fe_bad_q <= 1'b1;
        end
      end
      // a write invalidates the block it hits
      for (int e = 0; e < NumBlk; e++)
        if (aw_hs && btag_q[e] == aw_tag) bv_q[e] <= 1'b0;
      if (flush_i) begin
        bv_q   <= '0;
        bfar_q <= '0;
      end
    end
  end

  // block data: no reset (an entry is read only while bv_q says it is valid); written
  // under compares with constant indices (docs/architecture.md "Conventions")
  always_ff @(posedge clk_i) begin
    if (fe_rv && m_axi_rvalid)
      for (int e = 0; e < NumBlk; e++)
        for (int b = 0; b < 8; b++)
          if (fq_ent_q[fq_rp_q] == EW'(e) && fe_cnt_q == 3'(b)) bdata_q[e][b] <= m_axi_rdata;
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
      wany_q <= 1'b0;
      cache_beat_q <= '0;
      wbeat_q <= '0;
      cache_q <= '0;
      wdata_q <= '0;
      res_q <= '0;
      wstrb_q <= '0;
      bytes_q <= '0;
      fdata_q <= '0;
      fstrb_q <= '0;
      fbeat_q <= '0;
      tcur_q <= 1'b0;
      wcur_q <= 1'b0;
      flast_q <= 1'b0;
      fsplit_q <= 1'b0;
    end else begin
      unique case (st_q)
        TIdle: begin
          if (start_i && wrerr_q) begin  // (not used: the core stops on wr_err_o)
            err_q <= 1'b1;
            bytes_q <= '0;
            res_q <= vin_i;
            st_q <= TDone;
          end else if (start_i && pf_i) begin
            k_q <= '0;
            err_q <= 1'b0;
            bytes_q <= '0;
            res_q <= vin_i;
            st_q <= TPf;
          end else if (start_i) begin
            k_q <= '0;
            store_q <= store_i;
            err_q <= 1'b0;
            cache_v_q <= 1'b0;
            wstrb_q <= '0;
            bytes_q <= '0;
            res_q <= vin_i;
            aw_done_q <= 1'b0;
            w_done_q <= 1'b0;
            wany_q <= 1'b0;
            if (fast && store_i) begin
              fdata_q <= sdat;
              fstrb_q <= sstrb;
              fbeat_q <= beat;
              tcur_q <= sfirst;
              wcur_q <= sfirst;
              flast_q <= slast;
              fsplit_q <= !sfirst && slast && (addr[7:5] == 3'd7);
              bytes_q <= fbytes;
              st_q <= TFaw;
            end else if (hit_o) begin  // done in this cycle
              res_q <= fres;
              bytes_q <= fbytes;
            end else if (fast && frow) begin
              st_q <= TFld;
            end else begin
              st_q <= store_i ? TChk : TLane;
            end
          end
        end
        TFld: begin
          if (fe_bad_q) begin
            // a block fill failed: the memory does not serve all of the block. Redo the
            // access on the slow path, which reads only the enabled lanes' beats (BUS only
            // when one of those fails, as the ISA model)
            st_q <= TLane;
          end else if (h0 && h1) begin  // done in this cycle (fdone)
            res_q <= fres;
            bytes_q <= fbytes;
            st_q <= TIdle;
          end
        end
        TPf: st_q <= TIdle;  // done in this cycle (fdone)
        TFaw: begin
          if (wblk) begin  // a posted store before this one failed: write nothing
            err_q <= 1'b1;
            st_q <= TDone;
          end
          if (aw_hs) aw_done_q <= 1'b1;
          if (w_hs) begin
            wany_q <= 1'b1;
            if (m_axi_wlast) w_done_q <= 1'b1;
            else wcur_q <= 1'b1;
          end
          if (faw_fin) st_q <= fsplit_q ? TFb : TIdle;  // one burst: posted (fdone)
          // (wblk and faw_fin exclude each other: the write channels wait for !wblk; a store
          // whose AW or W went out before an older store's error completes, into the same
          // block, where it fails too)
        end
        TFb: begin
          if (m_axi_bvalid) begin
            if (m_axi_bresp != 2'b00 || m_axi_bid != 4'd0) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else if (wcur_q != flast_q) begin  // split store: the second beat
              tcur_q <= 1'b1;
              wcur_q <= 1'b1;
              aw_done_q <= 1'b0;
              w_done_q <= 1'b0;
              wany_q <= 1'b0;
              st_q <= TFaw;
            end else begin  // done in this cycle (fdone)
              st_q <= TIdle;
            end
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
            wany_q <= 1'b0;
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
            end else if (!fe_busy && !bpend) begin  // after the fills / posted stores
              st_q <= TAr;
            end
          end else begin
            if (wstrb_q != 32'd0 && wbeat_q != beat) begin
              st_q <= TAw;            // flush the previous beat, then come back
              aw_done_q <= 1'b0;
              w_done_q <= 1'b0;
              wany_q <= 1'b0;
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
        TAr: if (m_axi_arready) st_q <= TR;
        TR: begin
          if (m_axi_rvalid) begin
            cache_q <= m_axi_rdata;
            cache_beat_q <= beat;
            cache_v_q <= 1'b1;
            if (m_axi_rresp != 2'b00 || !m_axi_rlast || m_axi_rid != 4'd0) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else begin
              st_q <= TLane;
            end
          end
        end
        TAw: begin
          if (aw_hs) aw_done_q <= 1'b1;
          if (w_hs) w_done_q <= 1'b1;
          if ((aw_done_q || aw_hs) && (w_done_q || w_hs)) st_q <= TB;
          if (wrerr_q) begin  // (only before this store's first write: see TFaw)
            err_q <= 1'b1;
            st_q <= TDone;
          end
        end
        TB: begin
          if (m_axi_bvalid) begin
            wstrb_q <= '0;
            if (m_axi_bresp != 2'b00 || m_axi_bid != 4'd0) begin
              err_q <= 1'b1;
              st_q <= TDone;
            end else begin
              st_q <= (k_q >= lanes) ? TDone : TLane;
            end
          end
        end
        TDone: begin  // (after a posted store's response: the core may end the launch now)
          if (!bpend) begin
            k_q <= '0;
            st_q <= TIdle;
          end
        end
        default: st_q <= TIdle;
      endcase
    end
  end

  // a fast load that hits the buffer is done in its first cycle
  // (and a fast store with its last write response OKAY)
  assign fdone     = ((st_q == TFld) && !fe_bad_q && h0 && h1) || (faw_fin && !fsplit_q) || (st_q == TPf) ||
                     ((st_q == TFb) && m_axi_bvalid && m_axi_bresp == 2'b00 &&
                      m_axi_bid == 4'd0 && wcur_q == flast_q);
  assign done_o    = (st_q == TDone && !bpend) || fdone;
  assign bus_err_o = err_q;
  // (in TIdle for hit_o: the select does not depend on start_i)
  assign vres_o    = (st_q == TFld || st_q == TIdle) ? fres : res_q;
  assign bytes_o   = (st_q == TFld || st_q == TIdle) ? fbytes : bytes_q;
  assign rd_wait_o = (st_q == TAr) || (st_q == TR) || (st_q == TFld && !(h0 && h1));

  // read channel: the fill engine (8-beat block bursts) or the slow path (single beats);
  // never both at once (the slow path reads only while the engine is idle)
  assign m_axi_arid    = 4'd0;
  assign m_axi_araddr  = fe_arv ? {fe_artag, 8'd0} : {beat, 5'd0};
  assign m_axi_arlen   = fe_arv ? 8'd7 : 8'd0;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = 4'b0000;
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = {fe_arv ? fq_hint_q[fq_ap_q] : 2'b00, 2'b00};
  assign m_axi_arvalid = fe_arv || (st_q == TAr);
  assign m_axi_rready  = fe_rv || (st_q == TR);
  // write channel: fast store (one or two beats) or the slow path's merged beat
  logic ffast;
  assign ffast = (st_q == TFaw) || (st_q == TFb);
  assign m_axi_awid    = 4'd0;
  assign m_axi_awaddr  = ffast ? {fbeat_q + 27'(tcur_q), 5'd0} : {wbeat_q, 5'd0};
  assign m_axi_awlen   = (ffast && !fsplit_q && !tcur_q && flast_q) ? 8'd1 : 8'd0;
  assign m_axi_awsize  = 3'd5;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awcache = 4'b0000;
  assign m_axi_awprot  = 3'b000;
  assign m_axi_awqos   = 4'd0;
  assign m_axi_awvalid = (st_q == TAw || st_q == TFaw) && !aw_done_q && w_ok && !wblk;
  assign m_axi_wdata   = ffast ? fdata_q[wcur_q] : wdata_q;
  assign m_axi_wstrb   = ffast ? fstrb_q[wcur_q] : wstrb_q;
  assign m_axi_wlast   = ffast ? (fsplit_q || wcur_q == flast_q) : 1'b1;
  assign m_axi_wvalid  = (st_q == TAw || st_q == TFaw) && !w_done_q && w_ok && !wblk;
  assign m_axi_bready  = (st_q == TB) || (st_q == TFb) || bpend;
  assign idle_o          = !bpend;
  assign wr_err_o        = wrerr_q;
  assign wr_err_age_o    = wrerr_age_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bcnt_q <= '0;
      wrerr_q <= 1'b0;
      wrerr_age_q <= '0;
      bp_tag_q <= '0;
    end else begin
      bcnt_q <= bcnt_q + PstW'(b_inc) - PstW'(b_dec);
      if (b_inc) begin  // a one-burst store stays inside one block
        for (int i = NumPosted - 1; i > 0; i--) bp_tag_q[i] <= bp_tag_q[i-1];
        bp_tag_q[0] <= m_axi_awaddr[31:8];
      end
      if (b_dec && (m_axi_bresp != 2'b00 || m_axi_bid != 4'd0)) begin
        wrerr_q <= 1'b1;
        // the response is the oldest store's; the younger ones are in flight or just went
        if (!wrerr_q) wrerr_age_q <= AgW'(bcnt_q - PstW'(1) + PstW'(b_inc));
      end
      if (flush_i) begin
        wrerr_q <= 1'b0;
        wrerr_age_q <= '0;
      end
    end
  end
endmodule
