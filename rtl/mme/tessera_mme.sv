// Tessera MME: matrix-multiplication engine (GEMM C = A x B [+ bias | + C]).
//
// Rows x Cols array of fused multiply-accumulate PEs, output stationary: each PE
// owns one element of a Rows x Cols output tile and accumulates it over k = 0..K-1
// in ascending order. Per k-step a column of the A panel is broadcast along the rows
// and a row of the B panel along the columns. A and B panels are fetched over two AXI4
// ports (A panels and init tiles on m_axi, B panels on mb_axi; C's even tile rows are
// written on m_axi, its odd rows on mb_axi) into double-buffered operand buffers
// (the fetch of the next tile overlaps the compute of the current one; an A panel is
// reused across all tiles of its row block); the finished tile is captured into a drain bank and written to C while
// the next tile computes. See docs/mme.md (architecture, programming) and
// docs/numerics.md (arithmetic).
module tessera_mme
#(
  parameter int unsigned Rows        = 16,           // array rows (power of two)
  parameter int unsigned Cols        = 16,           // array columns (power of two)
  parameter int unsigned KWords      = 64,           // operand buffer words per lane (power of two)
  parameter int unsigned AxiIdBits   = 4,
  parameter logic [31:0] MemBase     = 32'h8000_0000, // addresses A/B/C/bias must lie in
  parameter logic [31:0] MemSize     = 32'h4000_0000
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // APB4 register slave
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // AXI4 master (port A)
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i,
  // Port B: a second AXI master. It reads the B panels (A panels and the init tile are
  // read on port A), so A and B cross in parallel, and writes the odd rows of
  // each C tile (port A the even rows), so a tile drains in half the time.
  output tessera_bus_pkg::axi_req_t mstb_req_o,
  input  tessera_bus_pkg::axi_rsp_t mstb_rsp_i,
  // completion message to the Sync Manager
  output logic                   msg_valid_o,
  input  logic                   msg_ready_i,
  output logic [31:0]            msg_addr_o,
  output logic [31:0]            msg_data_o,
  // no job accepted or running (a queue manager's engine barrier)
  output logic                   idle_o,
  // interrupt (level): STATUS.done | STATUS.busy_reject
  output logic                   irq_o
);
  // the AXI ports as signals: m_axi_* (port A), mb_axi_* (port B)
  `TESSERA_AXI_SIGS_DECL(m_axi_, AxiIdBits)
  `TESSERA_AXI_MST_CONNECT(mst_req_o, mst_rsp_i, m_axi_)
  `TESSERA_AXI_SIGS_DECL(mb_axi_, AxiIdBits)
  `TESSERA_AXI_MST_CONNECT(mstb_req_o, mstb_rsp_i, mb_axi_)
  localparam int unsigned LR   = $clog2(Rows);
  localparam int unsigned LC   = $clog2(Cols);
  localparam int unsigned KAW  = $clog2(KWords);
  localparam int unsigned TW   = 28;   // tile counters
  localparam int unsigned FD   = 64;   // fetch metadata FIFO depth (outstanding bursts + markers)
  localparam int unsigned FAW  = $clog2(FD);
  localparam int unsigned TID  = 4;    // tile-info FIFO depth
  localparam int unsigned DNB  = LR + 2; // drain burst counter (<= 2 bursts per row)

  // ================================================================ registers
  mme_reg_pkg::mme__in_t  hw_in;
  mme_reg_pkg::mme__out_t hw_out;

  mme_reg_top u_regs (
    .clk          (clk_i),
    .arst_n       (rst_ni),
    .s_apb_psel   (apb_req_i.psel),
    .s_apb_penable(apb_req_i.penable),
    .s_apb_pwrite (apb_req_i.pwrite),
    .s_apb_pprot  (apb_req_i.pprot),
    .s_apb_paddr  (apb_req_i.paddr),
    .s_apb_pwdata (apb_req_i.pwdata),
    .s_apb_pstrb  (apb_req_i.pstrb),
    .s_apb_pready (apb_rsp_o.pready),
    .s_apb_prdata (apb_rsp_o.prdata),
    .s_apb_pslverr(apb_rsp_o.pslverr),
    .hwif_in      (hw_in),
    .hwif_out     (hw_out)
  );

  // ================================================================ job latch
  typedef enum logic [2:0] {SIdle, SCheck, SRun, SFlush, SMsg} state_e;
  state_e state_q, state_d;

  logic [31:0] a_addr_q, b_addr_q, c_addr_q, bias_addr_q, lda_q, ldb_q, ldc_q;
  logic [31:0] msg_addr_q, msg_data_q;
  logic [19:0] m_q, n_q, k_q;
  logic [2:0]  ta_q, tb_q, tc_q;
  logic        atr_q, btr_q, sat_q, accc_q, bias_q, msgen_q;
  logic [1:0]  rnd_q;
  logic [7:0]  sa_q, sb_q, so_q;

  logic commit;
  assign commit = hw_out.CTRL.commit.value;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_addr_q <= '0; b_addr_q <= '0; c_addr_q <= '0; bias_addr_q <= '0;
      lda_q <= '0; ldb_q <= '0; ldc_q <= '0; msg_addr_q <= '0; msg_data_q <= '0;
      m_q <= '0; n_q <= '0; k_q <= '0; ta_q <= '0; tb_q <= '0; tc_q <= '0;
      atr_q <= 1'b0; btr_q <= 1'b0; sat_q <= 1'b0; accc_q <= 1'b0; bias_q <= 1'b0;
      msgen_q <= 1'b0; rnd_q <= '0; sa_q <= '0; sb_q <= '0; so_q <= '0;
    end else if (commit && state_q == SIdle) begin
      a_addr_q    <= hw_out.A_ADDR.addr.value;
      b_addr_q    <= hw_out.B_ADDR.addr.value;
      c_addr_q    <= hw_out.C_ADDR.addr.value;
      bias_addr_q <= hw_out.BIAS_ADDR.addr.value;
      lda_q       <= hw_out.LDA.val.value;
      ldb_q       <= hw_out.LDB.val.value;
      ldc_q       <= hw_out.LDC.val.value;
      m_q         <= hw_out.DIM_M.val.value;
      n_q         <= hw_out.DIM_N.val.value;
      k_q         <= hw_out.DIM_K.val.value;
      ta_q        <= hw_out.DTYPE.a_type.value;
      tb_q        <= hw_out.DTYPE.b_type.value;
      tc_q        <= hw_out.DTYPE.c_type.value;
      atr_q       <= hw_out.DTYPE.a_trans.value;
      btr_q       <= hw_out.DTYPE.b_trans.value;
      sat_q       <= hw_out.DTYPE.sat.value;
      rnd_q       <= hw_out.DTYPE.rnd.value;
      accc_q      <= hw_out.DTYPE.acc_c.value;
      bias_q      <= hw_out.DTYPE.bias_en.value;
      sa_q        <= hw_out.SCALE.a_scale.value;
      sb_q        <= hw_out.SCALE.b_scale.value;
      so_q        <= hw_out.SCALE.out_scale.value;
      msg_addr_q  <= hw_out.MSG_ADDR.addr.value;
      msg_data_q  <= hw_out.MSG_DATA.data.value;
      msgen_q     <= hw_out.MSG_CTRL.en.value;
    end
  end

  // L2 cache hints of the job (docs/l2.md "AXI subset and hints"), latched at commit
  logic       rd_alloc_q, wr_alloc_q;
  logic [1:0] rd_class_q, wr_class_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_alloc_q <= 1'b1; wr_alloc_q <= 1'b1; rd_class_q <= '0; wr_class_q <= '0;
    end else if (commit && state_q == SIdle) begin
      rd_alloc_q <= hw_out.CACHE.rd_alloc.value;
      wr_alloc_q <= hw_out.CACHE.wr_alloc.value;
      rd_class_q <= hw_out.CACHE.rd_class.value;
      wr_class_q <= hw_out.CACHE.wr_class.value;
    end
  end

  // ================================================================ job checks
  function automatic logic [1:0] lbytes(input logic [2:0] t);
    unique case (t)
      tessera_mme_pkg::FmtFp32:          lbytes = 2'd2;
      tessera_mme_pkg::FmtBf16, tessera_mme_pkg::FmtFp16: lbytes = 2'd1;
      default:          lbytes = 2'd0;
    endcase
  endfunction

  logic [1:0]  lab, lbb, lcb, lib;   // log2 element bytes: A, B, C, init source
  logic        fp8a, fp8b;
  logic [63:0] a_end, b_end, c_end, bias_end, mem_end;
  logic [19:0] a_rows, b_rows;
  logic [23:0] a_rowb, b_rowb, c_rowb;
  logic [20:0] kmax_a, kmax_b;
  logic [7:0]  chk_err;

  always_comb begin
    lab  = lbytes(ta_q);
    lbb  = lbytes(tb_q);
    lcb  = lbytes(tc_q);
    lib  = bias_q ? 2'd2 : lcb;
    fp8a = (ta_q == tessera_mme_pkg::FmtE4m3) || (ta_q == tessera_mme_pkg::FmtE5m2);
    fp8b = (tb_q == tessera_mme_pkg::FmtE4m3) || (tb_q == tessera_mme_pkg::FmtE5m2);
    kmax_a = 21'(KWords * 32) >> lab;
    kmax_b = 21'(KWords * 32) >> lbb;
    a_rows = atr_q ? k_q : m_q;
    a_rowb = (atr_q ? 24'(m_q) : 24'(k_q)) << lab;
    b_rows = btr_q ? n_q : k_q;
    b_rowb = (btr_q ? 24'(k_q) : 24'(n_q)) << lbb;
    c_rowb = 24'(n_q) << lcb;
    a_end  = 64'(a_addr_q) + (64'(a_rows) - 64'd1) * 64'(lda_q) + 64'(a_rowb);
    b_end  = 64'(b_addr_q) + (64'(b_rows) - 64'd1) * 64'(ldb_q) + 64'(b_rowb);
    c_end  = 64'(c_addr_q) + (64'(m_q) - 64'd1) * 64'(ldc_q) + 64'(c_rowb);
    bias_end = 64'(bias_addr_q) + (64'(n_q) << 2);
    mem_end  = 64'(MemBase) + 64'(MemSize);
    chk_err = tessera_mme_pkg::ErrNone;
    if (m_q == '0 || n_q == '0 || k_q == '0) begin
      chk_err = tessera_mme_pkg::ErrZeroDim;
    end else if (ta_q > tessera_mme_pkg::FmtE5m2 || tb_q > tessera_mme_pkg::FmtE5m2 || tc_q > tessera_mme_pkg::FmtE5m2 ||
                 (ta_q != tb_q && !(fp8a && fp8b)) || rnd_q != 2'd0 || (accc_q && bias_q)) begin
      chk_err = tessera_mme_pkg::ErrType;
    end else if (m_q > 20'd65536 || n_q > 20'd65536 || 21'(k_q) > kmax_a ||
                 21'(k_q) > kmax_b) begin
      chk_err = tessera_mme_pkg::ErrDimMax;
    end else if (a_addr_q[4:0] != '0 || b_addr_q[4:0] != '0 || c_addr_q[4:0] != '0 ||
                 (bias_q && bias_addr_q[4:0] != '0) || lda_q[4:0] != '0 ||
                 ldb_q[4:0] != '0 || ldc_q[4:0] != '0 || ldc_q < 32'(c_rowb)) begin
      chk_err = tessera_mme_pkg::ErrAlign;
    end else if (a_addr_q < MemBase || a_end > mem_end || b_addr_q < MemBase ||
                 b_end > mem_end || c_addr_q < MemBase || c_end > mem_end ||
                 (bias_q && (bias_addr_q < MemBase || bias_end > mem_end))) begin
      chk_err = tessera_mme_pkg::ErrRange;
    end else if ((64'(c_addr_q) < a_end && 64'(a_addr_q) < c_end) ||
                 (64'(c_addr_q) < b_end && 64'(b_addr_q) < c_end) ||
                 (bias_q && 64'(c_addr_q) < bias_end && 64'(bias_addr_q) < c_end)) begin
      chk_err = tessera_mme_pkg::ErrOverlap;
    end
  end

  // tile grid
  logic [TW-1:0] mtn, ntn, tiles;   // m-tiles, n-tiles, total
  always_comb begin
    mtn   = (TW'(m_q) + TW'(Rows - 1)) >> LR;
    ntn   = (TW'(n_q) + TW'(Cols - 1)) >> LC;
    tiles = TW'(mtn * ntn);
  end

  // Tile order: m-tiles are taken in groups of four (one per A slot); for each
  // group, n-tiles in order, and for each n-tile all m-tiles of the group, so a
  // B panel serves four tiles:
  // (0,0) (1,0) (2,0) (3,0) (0,1) ... (3,NT-1) (4,0) (5,0) ...
  function automatic logic [2*TW-1:0] next_tile(input logic [TW-1:0] mt, input logic [TW-1:0] nt,
                                                input logic [TW-1:0] mtiles,
                                                input logic [TW-1:0] ntiles);
    // groups of four m-tiles; even groups walk n upwards, odd groups downwards, so a
    // group starts with the B panel its predecessor ended with (still in its slot)
    if (mt[1:0] != 2'b11 && (mt + 1'b1) < mtiles) begin
      next_tile = {mt + 1'b1, nt};
    end else if (!mt[2] && (nt + 1'b1) < ntiles) begin
      next_tile = {mt & ~(TW'(3)), nt + 1'b1};
    end else if (mt[2] && nt != '0) begin
      next_tile = {mt & ~(TW'(3)), nt - 1'b1};
    end else begin
      next_tile = {(mt & ~(TW'(3))) + TW'(4), nt};
    end
  endfunction

  logic run_start;   // SCheck -> SRun
  assign run_start = (state_q == SCheck) && (chk_err == tessera_mme_pkg::ErrNone);

  // ================================================================ fetch (AR issue)
  // Per tile: choose the slots (A panel if not resident, B panel if not resident,
  // init slot), fetch the init tile (C tile or bias, if enabled), queue a marker
  // that hands the tile to the array, then fetch the A and B panels. The array
  // does not wait for the panels: each A/B slot has a k watermark (k-steps whose
  // operands have landed), raised as bursts land, and the array issues k-step k
  // only when k is below both watermarks. Panels with k-contiguous rows (A normal,
  // B transposed) of the first four tiles are fetched column by column (one beat of
  // every row, then the next beat), so their watermark rises every Rows (Cols) beats
  // and the job's first tiles start early; later such panels are fetched ahead of
  // their tiles, row by row in bursts of up to 8 beats (whole 64-byte lines, so the
  // L2 refills a 256-byte run with one read-ahead MSHR instead of one line each), and
  // their watermark rises once, with the panel's last burst. Panels with one row per
  // k (A transposed, B normal) raise it at every row.
  typedef enum logic [2:0] {FIdle, FTile, FA, FI, FMark} fphase_e;
  fphase_e f_ph_q;

  typedef struct packed {
    logic        marker;
    logic [1:0]  dest;    // 0 A, 1 B, 2 init
    logic [1:0]  slot;
    logic        lay_l;   // 1: row = k (lane-contiguous), 0: row = lane (k-contiguous)
    logic [19:0] row;
    logic [7:0]  beat0;
    logic [4:0]  off;     // byte offset of lane 0 in the row's first beat
    logic [1:0]  a_slot;  // marker payload
    logic        b_slot;
    logic        i_slot;
    logic        kend;    // when this burst has landed, k-steps < kval of the slot are present
    logic [19:0] kval;
  } fmeta_t;

  fmeta_t          fq_in, fq_head;
  // The FIFO stores plain vectors: Yosys loses fields of a memory of packed structs (the
  // marker read back as constant 0, which removed everything behind the fetch queue).
  logic [$bits(fq_in)-1:0] fq_mem [FD];
  logic [FAW:0]    fq_wp_q, fq_rp_q;
  logic            fq_full, fq_empty, fq_push, fq_pop;
  assign fq_full  = (fq_wp_q - fq_rp_q) == (FAW+1)'(FD);
  assign fq_empty = (fq_wp_q == fq_rp_q);
  assign fq_head  = fq_mem[fq_rp_q[FAW-1:0]];

  // Port B's job FIFO: the sequencer claims a B slot for a tile and queues the panel
  // here; port B fetches the panels in order (see "port B" below). One job per B slot
  // at most is pending (a slot is claimed again only after its tiles finished, which
  // needed the whole panel), so two entries suffice.
  typedef struct packed {
    logic        slot;
    logic [31:0] base;   // unaligned address of the panel's first element
    logic [19:0] nv;     // valid columns of the tile
    logic        first;  // one of the job's first four tiles (column-order fetch)
  } bjob_t;
  localparam int unsigned BJD = 2;
  bjob_t         bj_in, bj_head;
  logic [$bits(bj_in)-1:0] bj_mem [BJD];
  logic [1:0]    bj_wp_q, bj_rp_q;
  logic          bj_full, bj_empty, bj_push, bj_pop;
  assign bj_full  = (bj_wp_q - bj_rp_q) == 2'(BJD);
  assign bj_empty = (bj_wp_q == bj_rp_q);
  assign bj_head  = bj_mem[bj_rp_q[0]];

  // Tile-info FIFO: the slots of each tile, pushed by the sequencer with the tile's
  // marker and popped by the array when it starts the tile. The marker itself also goes
  // into port A's metadata FIFO behind the tile's init bursts; when it reaches the head
  // it is dropped at once and counts the tile as "init landed" (mk_q). The R channel
  // therefore never waits for the array: port A's data behind a marker (A panels and
  // init tiles of later tiles, into slots that are already free) keeps flowing while the
  // array waits for port B.
  logic [3:0]     ti_mem [TID];
  logic [2:0]     ti_wp_q, ti_rp_q;
  logic           ti_full, ti_empty, ti_push, ti_pop;
  logic [3:0]     ti_head, ti_in;
  assign ti_full  = (ti_wp_q - ti_rp_q) == 3'(TID);
  assign ti_empty = (ti_wp_q == ti_rp_q);
  assign ti_head  = ti_mem[ti_rp_q[1:0]];

  logic [TW-1:0] f_t_q, f_mt_q, f_nt_q;
  logic          fb_valid_q, fb_slot_q, fi_slot_q;
  logic [3:0]    fa_valid_q;  // A slot s holds panel fa_id_q[s] (slot = m-tile index mod 4)
  logic [TW-1:0] fa_id_q [4];
  logic [TW-1:0] fb_id_q;
  logic [TW-1:0] lu_a_q [4], lu_b_q [2], lu_i_q [2];
  logic [3:0]    luv_a_q;
  logic [1:0]    luv_b_q, luv_i_q;
  logic [1:0]    tgt_q;       // slot being filled
  logic [19:0]   f_row, fr_n; // row of the burst offered now, rows in this phase
  logic [7:0]    f_beat;      // first beat of the burst offered now
  logic [7:0]    flast;       // last beat of the row
  logic [31:0]   fstride;     // bytes between rows
  logic          f_cm;        // this phase fetches column by column (k-contiguous rows)
  logic          f_done;      // all bursts of this phase issued
  logic          f_last;      // the burst offered now is the last one of this phase
  logic          pend_a_q;    // A panel to fetch after the marker
  logic [1:0]    pa_slot_q;
  logic [19:0]   a_kr_q [4];  // k watermark of each A slot
  logic [19:0]   b_kr_q [2];  // k watermark of each B slot
  logic [4:0]    foff;
  logic          flay_l;
  logic [1:0]    fdest;
  logic [TW-1:0] c_done_q;    // tiles the array finished
  logic [TW-1:0] f_mt_nx, f_nt_nx;
  assign {f_mt_nx, f_nt_nx} = next_tile(f_mt_q, f_nt_q, mtn, ntn);

  // Start address (unaligned: first element of row 0) of the A panel, the B panel and
  // the init tile of the tile being fetched. Registered when the sequencer moves to
  // a tile, so a fetch phase can issue its first burst in the cycle after it is entered.
  logic [31:0] fa_base_q, fb_base_q, fi_base_q;
  logic [31:0] nb_a, nb_b, nb_i;
  logic [TW-1:0] nb_mt, nb_nt;
  logic [19:0] nb_m0, nb_n0;
  always_comb begin
    nb_mt = run_start ? '0 : f_mt_nx;
    nb_nt = run_start ? '0 : f_nt_nx;
    nb_m0 = 20'(nb_mt << LR);
    nb_n0 = 20'(nb_nt << LC);
    nb_a  = atr_q ? a_addr_q + (32'(nb_m0) << lab) : a_addr_q + 32'(nb_m0) * lda_q;
    nb_b  = btr_q ? b_addr_q + 32'(nb_n0) * ldb_q : b_addr_q + (32'(nb_n0) << lbb);
    nb_i  = bias_q ? bias_addr_q + (32'(nb_n0) << 2)
                   : c_addr_q + 32'(nb_m0) * ldc_q + (32'(nb_n0) << lcb);
  end

  // phase parameters
  logic [19:0] f_m0, f_n0, f_mv, f_nv;  // tile origin and valid extents
  logic [23:0] f_seg_len;               // bytes of the segment in each row
  logic [4:0]  f_base;                  // byte offset of row 0's segment in its first beat
  always_comb begin
    f_m0 = 20'(f_mt_q << LR);
    f_n0 = 20'(f_nt_q << LC);
    f_mv = ((m_q - f_m0) > 20'(Rows)) ? 20'(Rows) : (m_q - f_m0);
    f_nv = ((n_q - f_n0) > 20'(Cols)) ? 20'(Cols) : (n_q - f_n0);
    fdest = 2'd0; flay_l = 1'b0; fr_n = '0; fstride = '0; f_seg_len = '0;
    f_base = '0;
    unique case (f_ph_q)
      FA: begin
        fdest = 2'd0; fstride = lda_q; f_base = fa_base_q[4:0];
        if (atr_q) begin  // stored K x M: row k holds lanes m0..
          flay_l = 1'b1; fr_n = k_q; f_seg_len = 24'(f_mv) << lab;
        end else begin
          flay_l = 1'b0; fr_n = f_mv; f_seg_len = 24'(k_q) << lab;
        end
      end
      FI: begin
        fdest = 2'd2; flay_l = 1'b1; f_base = fi_base_q[4:0];
        if (bias_q) begin
          fr_n = 20'd1; fstride = '0; f_seg_len = 24'(f_nv) << 2;
        end else begin
          fr_n = f_mv; fstride = ldc_q; f_seg_len = 24'(f_nv) << lcb;
        end
      end
      default: ;
    endcase
    foff  = f_base;
    flast = 8'((24'(foff) + f_seg_len - 24'd1) >> 5);
    f_cm  = (f_ph_q == FA) && !flay_l && (f_t_q < TW'(4));
  end

  // the burst offered now (fetch cursor u_fcur_a below)
  logic [31:0] f_ar_addr;
  logic [3:0]  f_blen;
  logic        f_issue, f_row_end;

  // slot availability: a slot may be refilled when the array finished the last
  // tile that used it
  logic need_a, need_b, need_i, tgt_b, tgt_i, free_a, free_b, free_i, f_go, b_early;
  logic [1:0] tgt_a;
  always_comb begin
    tgt_a  = f_mt_q[1:0];
    need_a = !fa_valid_q[tgt_a] || (fa_id_q[tgt_a] != f_mt_q);
    need_b = !fb_valid_q || (fb_id_q != f_nt_q);
    need_i = accc_q || bias_q;
    tgt_b  = !fb_slot_q;
    tgt_i  = !fi_slot_q;
    free_a = !luv_a_q[tgt_a] || (c_done_q > lu_a_q[tgt_a]);
    free_b = !luv_b_q[tgt_b] || (c_done_q > lu_b_q[tgt_b]);
    free_i = !luv_i_q[tgt_i] || (c_done_q > lu_i_q[tgt_i]);
    // FTile: all slots of the tile are available (and the marker fits when it is
    // queued in this cycle): claim them at once
    f_go   = (f_ph_q == FTile) && !run_start && (!need_a || free_a) &&
             (!need_b || (free_b && !bj_full)) && (need_i ? free_i : (!fq_full && !ti_full));
    // The B slot may be claimed alone, before the tile's other slots are free: its panel
    // then crosses port B while the tile still waits for an A slot (at an m-group
    // change the new A panel's slot frees only when the last tile of the old row of
    // tiles ends, 3 tiles before this one starts).
    b_early = (f_ph_q == FTile) && !run_start && !f_go && need_b && free_b && !bj_full;
  end

  assign m_axi_arvalid = (f_ph_q == FA || f_ph_q == FI) && !fq_full && !f_done;
  assign m_axi_araddr  = f_ar_addr;
  assign m_axi_arlen   = 8'(f_blen) - 8'd1;
  assign m_axi_arid    = '0;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = {rd_alloc_q, rd_alloc_q, 2'b11};
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = {2'b00, rd_class_q};
  assign f_issue = m_axi_arvalid && m_axi_arready;

  // the marker hands the tile to the array: queued in FTile when the tile has no init
  // fetch, else in FMark after the init bursts
  logic f_mark;
  assign f_mark = (f_go && !need_i) || (run_start && !need_i) ||
                  (f_ph_q == FMark && !fq_full && !ti_full);

  always_comb begin
    fq_in        = '0;
    fq_push      = 1'b0;
    if (f_issue) begin
      fq_push      = 1'b1;
      fq_in.dest   = fdest;
      fq_in.slot   = tgt_q;
      fq_in.lay_l  = flay_l;
      fq_in.row    = f_row;
      fq_in.beat0  = f_beat;
      fq_in.off    = foff;
      if (f_cm) begin
        // last row of a column: k-steps of beats 0..f_beat are complete
        fq_in.kend = (f_row == fr_n - 20'd1);
        fq_in.kval = (20'(f_beat) + 20'd1) << (3'd5 - {1'b0, (fdest == 2'd0) ? lab : lbb});
      end else if (!flay_l && fdest != 2'd2) begin
        // k-contiguous rows in row order: every k-step is present with the last burst
        fq_in.kend = f_last;
        fq_in.kval = (20'(flast) + 20'd1) << (3'd5 - {1'b0, (fdest == 2'd0) ? lab : lbb});
      end else begin
        // one row per k: row f_row complete with the burst holding its last beat
        fq_in.kend = (fdest != 2'd2) && f_row_end;
        fq_in.kval = f_row + 20'd1;
      end
    end else if (f_mark) begin
      fq_push       = 1'b1;
      fq_in.marker  = 1'b1;
      // tile 0 at the start of a job: slot 0 of everything; in FTile the B slot is the
      // one claimed in this cycle
      fq_in.a_slot  = run_start ? 2'd0 : f_mt_q[1:0];
      fq_in.b_slot  = run_start ? 1'b0 : ((f_ph_q == FTile && need_b) ? tgt_b : fb_slot_q);
      fq_in.i_slot  = run_start ? 1'b0 : fi_slot_q;
    end
  end
  assign ti_push = f_mark;
  assign ti_in   = {fq_in.a_slot, fq_in.b_slot, fq_in.i_slot};
  always_ff @(posedge clk_i) begin
    if (ti_push) ti_mem[ti_wp_q[1:0]] <= ti_in;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ti_wp_q <= '0;
      ti_rp_q <= '0;
    end else begin
      if (ti_push) ti_wp_q <= ti_wp_q + 1'b1;
      if (ti_pop)  ti_rp_q <= ti_rp_q + 1'b1;
    end
  end

  // Enter a panel phase: its first row address comes from the registered tile base,
  // so the first AR goes out in the next cycle.
  logic          f_enter_a, f_enter_i;
  logic [1:0]    f_enter_slot;
  logic [31:0]   f_enter_addr;
  logic          f_tile_end;  // all fetch steps of this tile are queued
  always_comb begin
    f_enter_a = 1'b0; f_enter_i = 1'b0;
    f_tile_end = 1'b0;
    unique case (f_ph_q)
      FTile: begin
        if (f_go) begin
          if (need_i)      f_enter_i = 1'b1;
          else if (need_a) f_enter_a = 1'b1;
          else             f_tile_end = 1'b1;
        end
      end
      FMark: begin
        if (!fq_full && !ti_full) begin
          if (pend_a_q) f_enter_a = 1'b1;
          else          f_tile_end = 1'b1;
        end
      end
      FA:      if (f_issue && f_last) f_tile_end = 1'b1;
      default: ;
    endcase
    f_enter_slot = f_enter_i ? {1'b0, tgt_i} : ((f_ph_q == FTile) ? tgt_a : pa_slot_q);
    f_enter_addr = (f_enter_i ? fi_base_q : fa_base_q) & ~32'd31;
  end

  logic [TW-1:0] f_t_nx;
  assign f_t_nx = f_t_q + 1'b1;

  // port A's fetch cursor: loaded at the job start (tile 0's init tile or A panel) and
  // when a phase is entered
  tessera_mme_fcur u_fcur_a (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .load_i   (run_start || f_enter_a || f_enter_i),
    .addr_i   (run_start ? ((need_i ? nb_i : nb_a) & ~32'd31) : f_enter_addr),
    .issue_i  (f_issue),
    .cm_i     (f_cm),
    .rows_i   (fr_n),
    .lastb_i  (flast),
    .stride_i (fstride),
    .ar_addr_o(f_ar_addr),
    .blen_o   (f_blen),
    .row_end_o(f_row_end),
    .last_o   (f_last),
    .done_o   (f_done),
    .row_o    (f_row),
    .beat_o   (f_beat)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_ph_q <= FIdle;
      f_t_q <= '0; f_mt_q <= '0; f_nt_q <= '0;
      fa_valid_q <= '0; fb_valid_q <= 1'b0;
      fb_slot_q <= 1'b1; fi_slot_q <= 1'b1;
      for (int unsigned i = 0; i < 4; i++) begin
        fa_id_q[i] <= '0;
        lu_a_q[i]  <= '0;
      end
      fb_id_q <= '0;
      lu_b_q[0] <= '0; lu_b_q[1] <= '0;
      lu_i_q[0] <= '0; lu_i_q[1] <= '0;
      luv_a_q <= '0; luv_b_q <= '0; luv_i_q <= '0;
      tgt_q <= '0;
      pend_a_q <= 1'b0; pa_slot_q <= '0;
      fa_base_q <= '0; fb_base_q <= '0; fi_base_q <= '0;
    end else if (run_start) begin
      // tile 0 claims slot 0 of A, B and init at once (all free at the start of a job)
      // and enters its first phase; without an init fetch its marker is queued now
      f_t_q <= '0; f_mt_q <= '0; f_nt_q <= '0;
      fa_valid_q <= 4'b0001; fa_id_q[0] <= '0; luv_a_q <= 4'b0001; lu_a_q[0] <= '0;
      fb_valid_q <= 1'b1; fb_id_q <= '0; fb_slot_q <= 1'b0; luv_b_q <= 2'b01; lu_b_q[0] <= '0;
      fi_slot_q <= !need_i; luv_i_q <= {1'b0, need_i}; lu_i_q[0] <= '0;
      f_ph_q   <= need_i ? FI : FA;
      pend_a_q <= need_i; pa_slot_q <= '0;
      tgt_q <= '0;
      fa_base_q <= nb_a; fb_base_q <= nb_b; fi_base_q <= nb_i;
    end else begin
      unique case (f_ph_q)
        FIdle: ;
        FTile: begin
          if (b_early) begin
            lu_b_q[tgt_b] <= f_t_q; luv_b_q[tgt_b] <= 1'b1;
            fb_valid_q <= 1'b1; fb_id_q <= f_nt_q; fb_slot_q <= tgt_b;
          end
          // claim the slots of this tile (A panel, B panel, init), once all are available
          if (f_go) begin
            lu_a_q[tgt_a] <= f_t_q;
            if (need_a) begin
              luv_a_q[tgt_a] <= 1'b1;
              fa_valid_q[tgt_a] <= 1'b1; fa_id_q[tgt_a] <= f_mt_q;
            end
            if (need_b) begin
              lu_b_q[tgt_b] <= f_t_q; luv_b_q[tgt_b] <= 1'b1;
              fb_valid_q <= 1'b1; fb_id_q <= f_nt_q; fb_slot_q <= tgt_b;
            end else begin
              lu_b_q[fb_slot_q] <= f_t_q;
            end
            if (need_i) begin
              lu_i_q[tgt_i] <= f_t_q; luv_i_q[tgt_i] <= 1'b1; fi_slot_q <= tgt_i;
              f_ph_q <= FI;
            end else if (need_a) begin
              f_ph_q <= FA;
            end
            // the A panel is still to fetch after the init tile (B: port B's job FIFO)
            pend_a_q <= need_a && need_i;
            pa_slot_q <= tgt_a;
          end
        end
        FA, FI: if (f_issue && f_last && f_ph_q == FI) f_ph_q <= FMark;
        FMark: ;
        default: f_ph_q <= FIdle;
      endcase
      // entering a panel phase (the cursor starts at its row 0)
      if (f_enter_a || f_enter_i) begin
        f_ph_q      <= f_enter_i ? FI : FA;
        tgt_q       <= f_enter_slot;
        if (f_ph_q != FTile && f_enter_a) pend_a_q <= 1'b0;
      end
      // the tile's marker and panels are queued: go on with the next tile
      if (f_tile_end) begin
        if (f_t_nx == tiles) begin
          f_ph_q <= FIdle;
        end else begin
          f_ph_q <= FTile;
          f_t_q  <= f_t_nx;
          f_mt_q <= f_mt_nx;
          f_nt_q <= f_nt_nx;
          fa_base_q <= nb_a; fb_base_q <= nb_b; fi_base_q <= nb_i;
        end
      end
    end
  end

  // ================================================================ metadata FIFO
  always_ff @(posedge clk_i) begin
    if (fq_push) fq_mem[fq_wp_q[FAW-1:0]] <= fq_in;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fq_wp_q <= '0;
      fq_rp_q <= '0;
    end else begin
      if (fq_push) fq_wp_q <= fq_wp_q + 1'b1;
      if (fq_pop)  fq_rp_q <= fq_rp_q + 1'b1;
    end
  end

  // ================================================================ port B: B panel fetch
  // A job (queued by the sequencer when a tile claims a B slot) is fetched with the
  // rules of the A side: k-contiguous rows (B transposed) of the first four tiles in
  // column order, later ones row by row in bursts of up to 8 beats; one-row-per-k
  // panels (B normal) row by row. Port B has its own metadata FIFO and R scatter.
  logic [19:0] nv0;   // valid columns of tile 0
  assign nv0 = (n_q > 20'(Cols)) ? 20'(Cols) : n_q;
  assign bj_push = run_start || (f_go && need_b) || b_early;
  always_comb begin
    bj_in       = '0;
    bj_in.slot  = run_start ? 1'b0 : tgt_b;
    bj_in.base  = run_start ? nb_b : fb_base_q;
    bj_in.nv    = run_start ? nv0 : f_nv;
    bj_in.first = run_start || (f_t_q < TW'(4));
  end
  always_ff @(posedge clk_i) begin
    if (bj_push) bj_mem[bj_wp_q[0]] <= bj_in;
  end

  logic          pb_act_q, pb_slot_q, pb_first_q;
  logic [4:0]    pb_off_q;
  logic [19:0]   pb_nv_q, pb_row, pb_rn;
  logic [7:0]    pb_beat, pb_lastb;
  logic [31:0]   pb_ar_addr;
  logic [23:0]   pb_seg;
  logic [3:0]    pb_blen;
  logic          pb_cm, pb_row_end, pb_last, pb_done, pb_issue;
  fmeta_t        fqb_in, fqb_head;
  logic [$bits(fqb_in)-1:0] fqb_mem [FD];
  logic [FAW:0]  fqb_wp_q, fqb_rp_q;
  logic          fqb_full, fqb_empty, fqb_pop;
  assign fqb_full  = (fqb_wp_q - fqb_rp_q) == (FAW+1)'(FD);
  assign fqb_empty = (fqb_wp_q == fqb_rp_q);
  assign fqb_head  = fqb_mem[fqb_rp_q[FAW-1:0]];

  always_comb begin
    // B transposed (stored N x K): a row per column n, k-contiguous; else a row per k
    pb_rn       = btr_q ? pb_nv_q : k_q;
    pb_seg      = btr_q ? (24'(k_q) << lbb) : (24'(pb_nv_q) << lbb);
    pb_lastb    = 8'((24'(pb_off_q) + pb_seg - 24'd1) >> 5);
    pb_cm       = btr_q && pb_first_q;
  end

  tessera_mme_fcur u_fcur_b (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .load_i   (bj_pop),
    .addr_i   (bj_head.base & ~32'd31),
    .issue_i  (pb_issue),
    .cm_i     (pb_cm),
    .rows_i   (pb_rn),
    .lastb_i  (pb_lastb),
    .stride_i (ldb_q),
    .ar_addr_o(pb_ar_addr),
    .blen_o   (pb_blen),
    .row_end_o(pb_row_end),
    .last_o   (pb_last),
    .done_o   (pb_done),
    .row_o    (pb_row),
    .beat_o   (pb_beat)
  );

  assign mb_axi_arvalid = pb_act_q && !pb_done && !fqb_full;
  assign mb_axi_araddr  = pb_ar_addr;
  assign mb_axi_arlen   = 8'(pb_blen) - 8'd1;
  assign mb_axi_arid    = '0;
  assign mb_axi_arsize  = 3'd5;
  assign mb_axi_arburst = 2'b01;
  assign mb_axi_arcache = {rd_alloc_q, rd_alloc_q, 2'b11};
  assign mb_axi_arprot  = 3'b000;
  assign mb_axi_arqos   = {2'b00, rd_class_q};
  assign pb_issue = mb_axi_arvalid && mb_axi_arready;
  // the next job starts when the port is idle or with the current job's last burst
  assign bj_pop   = !bj_empty && (!pb_act_q || (pb_issue && pb_last));

  always_comb begin
    fqb_in        = '0;
    fqb_in.dest   = 2'd1;
    fqb_in.slot   = {1'b0, pb_slot_q};
    fqb_in.lay_l  = !btr_q;
    fqb_in.row    = pb_row;
    fqb_in.beat0  = pb_beat;
    fqb_in.off    = pb_off_q;
    if (pb_cm) begin
      // last row of a column: k-steps of beats 0..pb_beat are complete
      fqb_in.kend = (pb_row == pb_rn - 20'd1);
      fqb_in.kval = (20'(pb_beat) + 20'd1) << (3'd5 - {1'b0, lbb});
    end else if (btr_q) begin
      // k-contiguous rows in row order: every k-step is present with the last burst
      fqb_in.kend = pb_last;
      fqb_in.kval = (20'(pb_lastb) + 20'd1) << (3'd5 - {1'b0, lbb});
    end else begin
      // one row per k: row pb_row complete with the burst holding its last beat
      fqb_in.kend = pb_row_end;
      fqb_in.kval = pb_row + 20'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (pb_issue) fqb_mem[fqb_wp_q[FAW-1:0]] <= fqb_in;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bj_wp_q <= '0; bj_rp_q <= '0;
      fqb_wp_q <= '0; fqb_rp_q <= '0;
      pb_act_q <= 1'b0; pb_slot_q <= 1'b0; pb_first_q <= 1'b0; pb_off_q <= '0;
      pb_nv_q <= '0;
    end else begin
      if (bj_push) bj_wp_q <= bj_wp_q + 1'b1;
      if (bj_pop)  bj_rp_q <= bj_rp_q + 1'b1;
      if (pb_issue) fqb_wp_q <= fqb_wp_q + 1'b1;
      if (fqb_pop)  fqb_rp_q <= fqb_rp_q + 1'b1;
      if (pb_issue && pb_last) pb_act_q <= 1'b0;
      if (bj_pop) begin
        pb_act_q      <= 1'b1;
        pb_slot_q     <= bj_head.slot;
        pb_first_q    <= bj_head.first;
        pb_off_q      <= bj_head.base[4:0];
        pb_nv_q       <= bj_head.nv;
      end
    end
  end

  // port B R channel
  logic [7:0]     rb_cnt_q, rb_j;
  logic           rb_beat, rb_kend;
  logic [KAW-1:0] rb_waddr;
  logic [4:0]     rb_bpos;
  logic [31:0]    rb_bmask;
  assign mb_axi_rready = !fqb_empty;
  assign rb_beat = mb_axi_rvalid && mb_axi_rready;
  assign fqb_pop = rb_beat && mb_axi_rlast;
  assign rb_kend = fqb_pop && fqb_head.kend;
  assign rb_j    = fqb_head.beat0 + rb_cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rb_cnt_q <= '0;
    end else if (rb_beat) begin
      rb_cnt_q <= mb_axi_rlast ? 8'd0 : rb_cnt_q + 8'd1;
    end
  end
  always_comb begin
    if (fqb_head.lay_l) begin
      rb_waddr = KAW'(fqb_head.row >> (3'd5 - 3'(lbb)));
      rb_bpos  = 5'(fqb_head.row << lbb);
    end else begin
      rb_waddr = KAW'(rb_j);
      rb_bpos  = '0;
    end
    unique case (lbb)
      2'd0:    rb_bmask = 32'h1 << rb_bpos;
      2'd1:    rb_bmask = 32'h3 << rb_bpos;
      default: rb_bmask = 32'hF << rb_bpos;
    endcase
  end

  // k watermarks: reset when a slot is chosen for a new panel (no burst of the
  // slot's previous panel is outstanding then: the tiles using it have finished,
  // which needed all of their k-steps), raised when a burst marked kend lands.
  logic r_kend;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < 4; i++) a_kr_q[i] <= '0;
      b_kr_q[0] <= '0; b_kr_q[1] <= '0;
    end else begin
      if (r_kend && fq_head.dest == 2'd0) a_kr_q[fq_head.slot] <= fq_head.kval;
      if (rb_kend) b_kr_q[fqb_head.slot[0]] <= fqb_head.kval;
      if (f_go && need_a) a_kr_q[tgt_a] <= '0;
      if ((f_go && need_b) || b_early) b_kr_q[tgt_b] <= '0;
      if (run_start) begin
        a_kr_q[0] <= '0;
        b_kr_q[0] <= '0;
      end
    end
  end

  // ================================================================ R channel: scatter
  logic [7:0] r_cnt_q;
  logic       r_beat, axi_err_q;
  logic [7:0] r_j;
  logic [1:0] r_lb;
  logic       mk_pop;
  logic [TW-1:0] mk_q;   // tiles whose marker reached the head (init data landed)
  assign m_axi_rready = !fq_empty && !fq_head.marker;
  assign r_beat  = m_axi_rvalid && m_axi_rready;
  assign mk_pop  = !fq_empty && fq_head.marker;
  assign fq_pop  = mk_pop || (r_beat && m_axi_rlast);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mk_q <= '0;
    end else if (run_start) begin
      mk_q <= '0;
    end else if (mk_pop) begin
      mk_q <= mk_q + 1'b1;
    end
  end
  assign r_kend  = r_beat && m_axi_rlast && fq_head.kend;
  assign r_j     = fq_head.beat0 + r_cnt_q;
  always_comb begin
    unique case (fq_head.dest)
      2'd0:    r_lb = lab;
      2'd1:    r_lb = lbb;
      default: r_lb = lib;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_cnt_q <= '0;
    end else if (r_beat) begin
      r_cnt_q <= m_axi_rlast ? 8'd0 : r_cnt_q + 8'd1;
    end
  end

  // lane-contiguous scatter: lane l's element is at row byte off + l*eb
  function automatic logic [255:0] rep(input logic [31:0] e, input logic [1:0] lb);
    unique case (lb)
      2'd0:    rep = {32{e[7:0]}};
      2'd1:    rep = {16{e[15:0]}};
      default: rep = {8{e}};
    endcase
  endfunction

  logic [KAW-1:0] r_waddr;   // word address for row k (lane-contiguous) or beat (k-contiguous)
  logic [4:0]     r_bpos;    // byte position of element k within its word
  logic [31:0]    r_bmask;
  always_comb begin
    if (fq_head.lay_l) begin
      r_waddr = KAW'(fq_head.row >> (3'd5 - 3'(r_lb)));
      r_bpos  = 5'(fq_head.row << r_lb);
    end else begin
      r_waddr = KAW'(r_j);
      r_bpos  = '0;
    end
    unique case (r_lb)
      2'd0:    r_bmask = 32'h1 << r_bpos;
      2'd1:    r_bmask = 32'h3 << r_bpos;
      default: r_bmask = 32'hF << r_bpos;
    endcase
  end

  logic [Rows-1:0][31:0]  wa_be;
  logic [Rows-1:0][255:0] wa_data;
  logic [Cols-1:0][31:0]  wb_be;
  logic [Cols-1:0][255:0] wb_data;
  logic [Cols-1:0][31:0]  wi_elem;
  logic [Cols-1:0]        wi_en;

  for (genvar l = 0; l < Rows; l++) begin : g_sc_a
    logic [7:0]  q;
    logic [31:0] e;
    always_comb begin
      q  = 8'(fq_head.off) + (8'(l) << r_lb);
      e  = 32'(m_axi_rdata >> {q[4:0], 3'b000});
      wa_be[l]   = '0;
      wa_data[l] = m_axi_rdata;
      if (r_beat && fq_head.dest == 2'd0) begin
        if (fq_head.lay_l) begin
          if (8'(q[7:5]) == r_j) begin
            wa_be[l]   = r_bmask;
            wa_data[l] = rep(e, r_lb);
          end
        end else if (fq_head.row == 20'(l)) begin
          wa_be[l] = '1;
        end
      end
    end
  end

  for (genvar l = 0; l < Cols; l++) begin : g_sc_i
    logic [7:0]  q;
    always_comb begin
      q  = 8'(fq_head.off) + (8'(l) << r_lb);
      wi_elem[l] = 32'(m_axi_rdata >> {q[4:0], 3'b000});
      wi_en[l]   = r_beat && fq_head.dest == 2'd2 && (8'(q[7:5]) == r_j);
    end
  end

  for (genvar l = 0; l < Cols; l++) begin : g_sc_b
    logic [7:0]  q;
    logic [31:0] e;
    always_comb begin
      q  = 8'(fqb_head.off) + (8'(l) << lbb);
      e  = 32'(mb_axi_rdata >> {q[4:0], 3'b000});
      wb_be[l]   = '0;
      wb_data[l] = mb_axi_rdata;
      if (rb_beat) begin
        if (fqb_head.lay_l) begin
          if (8'(q[7:5]) == rb_j) begin
            wb_be[l]   = rb_bmask;
            wb_data[l] = rep(e, lbb);
          end
        end else if (fqb_head.row == 20'(l)) begin
          wb_be[l] = '1;
        end
      end
    end
  end

  // ================================================================ operand buffers
  logic                   rd_en, rd_bslot;
  logic [1:0]             rd_aslot;
  logic [KAW-1:0]         rd_aaddr, rd_baddr;
  logic [Rows-1:0][255:0] rd_a;
  logic [Cols-1:0][255:0] rd_b;

  tessera_mme_opbuf #(.Lanes(Rows), .Words(KWords), .Slots(4)) u_abuf (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .wslot_i(fq_head.slot),
    .waddr_i(r_waddr),
    .wbe_i  (wa_be),
    .wdata_i(wa_data),
    .re_i   (rd_en),
    .rslot_i(rd_aslot),
    .raddr_i(rd_aaddr),
    .rdata_o(rd_a)
  );

  tessera_mme_opbuf #(.Lanes(Cols), .Words(KWords), .Slots(2)) u_bbuf (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .wslot_i(fqb_head.slot[0]),
    .waddr_i(rb_waddr),
    .wbe_i  (wb_be),
    .wdata_i(wb_data),
    .re_i   (rd_en),
    .rslot_i(rd_bslot),
    .raddr_i(rd_baddr),
    .rdata_o(rd_b)
  );

  // ================================================================ init buffer
  // Initial accumulator values per tile (FP32): the C tile (accumulate-into-C) or
  // the bias row (row 0, used for every row). Two slots.
  logic [31:0] init_q [2][Rows][Cols];
  logic [Cols-1:0][31:0] wi_fp32;

  for (genvar l = 0; l < Cols; l++) begin : g_widen
    tessera_mme_pkg::fpdec_t d;
    tessera_mme_fpdec u_dec (
      .fmt_i (bias_q ? tessera_mme_pkg::FmtFp32 : tc_q),
      .bits_i(wi_elem[l]),
      .dec_o (d)
    );
    tessera_mme_fpround #(.MW(24)) u_rnd (
      .fmt_i   (tessera_mme_pkg::FmtFp32),
      .sat_i   (1'b0),
      .nan_i   (d.nan),
      .inf_i   (d.inf),
      .sign_i  (d.sign),
      .mant_i  (d.zero ? 24'd0 : d.mant),
      .exp_i   (14'(signed'(d.exp))),
      .sticky_i(1'b0),
      .bits_o  (wi_fp32[l])
    );
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned l = 0; l < Cols; l++) begin
      if (wi_en[l]) init_q[fq_head.slot[0]][LR'(fq_head.row)][l] <= wi_fp32[l];
    end
  end

  // ================================================================ compute sequencer
  logic          c_active_q, c_bslot_q, c_islot_q;
  logic [1:0]    c_aslot_q;
  logic [19:0]   c_k_q;
  logic [TW-1:0] c_t_q, c_mt_q, c_nt_q;   // tile being issued
  logic          c_last, c_can, c_kok, c_issue, drain_ok, more_tiles;
  logic          drain_busy;      // a drain lane is writing the previous tile

  // pipeline: s1 (buffer read) -> s2 (decoded operands) -> PE P -> PE A -> capture
  logic          s1_v_q, s1_first_q, s1_last_q, s1_islot_q;
  logic [4:0]    s1_kpa_q, s1_kpb_q;
  logic [TW-1:0] s1_mt_q, s1_nt_q;
  logic          s2_v_q, s2_first_q, s2_last_q, s2_islot_q;
  logic [TW-1:0] s2_mt_q, s2_nt_q;
  logic          s3_v_q, s3_last_q, s3_islot_q;
  logic [TW-1:0] s3_mt_q, s3_nt_q;
  logic          s4_last_q;
  logic [TW-1:0] s4_mt_q, s4_nt_q;
  // Flat vectors, one $bits(fpdec_t) field per lane: Yosys reads an element of an array
  // of packed structs (packed or unpacked) as one bit where it drives a port, and then
  // removed the whole PE array (docs/synthesis.md).
  localparam int unsigned DecW = tessera_mme_pkg::FpDecW;
`ifndef SYNTHESIS
  // Yosys cannot take $bits of a type; the simulators check the hand-written width.
  if (DecW != $bits(tessera_mme_pkg::fpdec_t)) begin : g_decw_check
    $error("tessera_mme_pkg::FpDecW differs from $bits(fpdec_t)");
  end
`endif
  logic [Rows*DecW-1:0] s2_a_q;
  logic [Cols*DecW-1:0] s2_b_q;

  logic [TW-1:0] c_mt_nx, c_nt_nx;
  assign {c_mt_nx, c_nt_nx} = next_tile(c_mt_q, c_nt_q, mtn, ntn);
  assign c_last     = (c_k_q == k_q - 20'd1);
  assign drain_ok   = !drain_busy && !s1_last_q && !s2_last_q && !s3_last_q && !s4_last_q;
  assign c_kok      = (c_k_q < a_kr_q[c_aslot_q]) && (c_k_q < b_kr_q[c_bslot_q]);
  assign c_can      = c_active_q && c_kok && (!c_last || drain_ok);
  assign c_issue    = c_can && (state_q == SRun);
  assign more_tiles = (c_t_q + 1'b1) < tiles;
  // start a tile: when idle, or back to back with the last k-step of the previous one
  // (the tile's init data must have landed: its marker passed port A's FIFO head)
  assign ti_pop     = !ti_empty && (state_q == SRun) &&
                      ((!c_active_q && c_t_q < tiles && c_t_q < mk_q) ||
                       (c_issue && c_last && more_tiles && (c_t_q + 1'b1) < mk_q));

  assign rd_en    = c_issue;
  assign rd_aslot = c_aslot_q;
  assign rd_bslot = c_bslot_q;
  assign rd_aaddr = KAW'(c_k_q >> (3'd5 - 3'(lab)));
  assign rd_baddr = KAW'(c_k_q >> (3'd5 - 3'(lbb)));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_active_q <= 1'b0; c_aslot_q <= '0; c_bslot_q <= 1'b0; c_islot_q <= 1'b0;
      c_k_q <= '0; c_t_q <= '0; c_mt_q <= '0; c_nt_q <= '0;
    end else if (run_start) begin
      c_active_q <= 1'b0; c_k_q <= '0; c_t_q <= '0; c_mt_q <= '0; c_nt_q <= '0;
     
    end else begin
      if (c_issue) begin
        c_k_q <= c_last ? 20'd0 : c_k_q + 20'd1;
        if (c_last) begin
          c_active_q <= 1'b0;
          c_t_q  <= c_t_q + 1'b1;
          c_mt_q <= c_mt_nx;
          c_nt_q <= c_nt_nx;
        end
      end
      if (ti_pop) begin
        c_active_q <= 1'b1;
        c_k_q      <= '0;
        {c_aslot_q, c_bslot_q, c_islot_q} <= ti_head;
      end
    end
  end

  // ---------------------------------------------------------------- pipeline regs
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_v_q <= 1'b0; s1_first_q <= 1'b0; s1_last_q <= 1'b0; s1_islot_q <= 1'b0;
      s1_kpa_q <= '0; s1_kpb_q <= '0; s1_mt_q <= '0; s1_nt_q <= '0;
      s2_v_q <= 1'b0; s2_first_q <= 1'b0; s2_last_q <= 1'b0; s2_islot_q <= 1'b0;
      s2_mt_q <= '0; s2_nt_q <= '0;
      s3_v_q <= 1'b0; s3_last_q <= 1'b0; s3_islot_q <= 1'b0; s3_mt_q <= '0; s3_nt_q <= '0;
      s4_last_q <= 1'b0; s4_mt_q <= '0; s4_nt_q <= '0;
    end else begin
      s1_v_q     <= c_issue;
      s1_first_q <= c_issue && (c_k_q == '0);
      s1_last_q  <= c_issue && c_last;
      s1_islot_q <= c_islot_q;
      s1_kpa_q   <= 5'(c_k_q) & (5'd31 >> lab);
      s1_kpb_q   <= 5'(c_k_q) & (5'd31 >> lbb);
      s1_mt_q    <= c_mt_q;
      s1_nt_q    <= c_nt_q;
      s2_v_q     <= s1_v_q;
      s2_first_q <= s1_first_q;
      s2_last_q  <= s1_last_q;
      s2_islot_q <= s1_islot_q;
      s2_mt_q    <= s1_mt_q;
      s2_nt_q    <= s1_nt_q;
      s3_v_q     <= s2_v_q;
      s3_last_q  <= s2_last_q;
      s3_islot_q <= s2_islot_q;
      s3_mt_q    <= s2_mt_q;
      s3_nt_q    <= s2_nt_q;
      s4_last_q  <= s3_v_q && s3_last_q;
      s4_mt_q    <= s3_mt_q;
      s4_nt_q    <= s3_nt_q;
    end
  end

  // tiles finished by the array (operand and init slots no longer needed)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_done_q <= '0;
    end else if (run_start) begin
      c_done_q <= '0;
    end else if (s3_v_q && s3_last_q) begin
      c_done_q <= c_done_q + 1'b1;
    end
  end

  // ---------------------------------------------------------------- extract + decode
  for (genvar l = 0; l < Rows; l++) begin : g_dec_a
    tessera_mme_pkg::fpdec_t d;
    tessera_mme_fpdec u_dec (
      .fmt_i (ta_q),
      .bits_i(32'(rd_a[l] >> {s1_kpa_q << lab, 3'b000})),
      .dec_o (d)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s2_a_q[l*DecW +: DecW] <= '0;
      end else if (s1_v_q) begin
        s2_a_q[l*DecW +: DecW] <= d;
      end
    end
  end

  for (genvar l = 0; l < Cols; l++) begin : g_dec_b
    tessera_mme_pkg::fpdec_t d;
    tessera_mme_fpdec u_dec (
      .fmt_i (tb_q),
      .bits_i(32'(rd_b[l] >> {s1_kpb_q << lbb, 3'b000})),
      .dec_o (d)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s2_b_q[l*DecW +: DecW] <= '0;
      end else if (s1_v_q) begin
        s2_b_q[l*DecW +: DecW] <= d;
      end
    end
  end

  // ---------------------------------------------------------------- PE array
  logic signed [9:0] scale_ab;
  assign scale_ab = 10'(signed'(sa_q)) + 10'(signed'(sb_q));

  logic [Rows-1:0][Cols-1:0][31:0] acc;
  for (genvar i = 0; i < Rows; i++) begin : g_row
    for (genvar j = 0; j < Cols; j++) begin : g_col
      logic [31:0] init;
      assign init = accc_q ? init_q[s3_islot_q][i][j]
                  : (bias_q ? init_q[s3_islot_q][0][j] : 32'd0);
      tessera_mme_pe u_pe (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .valid_i(s2_v_q),
        .first_i(s2_first_q),
        .a_i    (s2_a_q[i*DecW +: DecW]),
        .b_i    (s2_b_q[j*DecW +: DecW]),
        .scale_i(scale_ab),
        .init_i (init),
        .acc_o  (acc[i][j])
      );
    end
  end

  // ================================================================ drain
  // A finished tile is captured into the drain bank and written to C by two lanes at
  // once while the next tile computes: lane 0 writes the tile's even rows on port A
  // (m_axi), lane 1 its odd rows on port B's write channel (mb_axi). Each lane has its
  // own rounding datapath, AW cursor (it runs ahead of the W data: the AW of row r+2
  // goes out while row r's beats do) and W cursor, so a tile leaves in half the row
  // times of one port (FP32 C: 16 beats per port instead of 32 on one).
  localparam int unsigned NL = 2;      // drain lanes, one per AXI port
  logic [Rows-1:0][Cols-1:0][31:0] dbank_q;
  logic [TW-1:0] d_mt_q, d_nt_q;       // tile in the drain bank (W cursors)
  logic [TW-1:0] da_mt_q, da_nt_q;     // tile whose AWs go out (AW cursors)
  logic [31:0]   da_tile_q;            // C address of that tile's row 0
  logic [19:0]   d_rows, d_nv, d_m0, d_n0, da_rows, da_nv, da_m0, da_n0;
  logic [31:0]   d_ldc2;               // two C rows
  logic [63:0]   d_emask;              // byte strobes of one output element (1, 2 or 4 bytes)
  logic          capture;

  always_comb begin
    d_m0    = 20'(d_mt_q << LR);
    d_n0    = 20'(d_nt_q << LC);
    d_rows  = ((m_q - d_m0) > 20'(Rows)) ? 20'(Rows) : (m_q - d_m0);
    d_nv    = ((n_q - d_n0) > 20'(Cols)) ? 20'(Cols) : (n_q - d_n0);
    da_m0   = 20'(da_mt_q << LR);
    da_n0   = 20'(da_nt_q << LC);
    da_rows = ((m_q - da_m0) > 20'(Rows)) ? 20'(Rows) : (m_q - da_m0);
    da_nv   = ((n_q - da_n0) > 20'(Cols)) ? 20'(Cols) : (n_q - da_n0);
    d_ldc2  = ldc_q << 1;
    d_emask = (lcb == 2'd0) ? 64'h1 : ((lcb == 2'd1) ? 64'h3 : 64'hF);
  end

  assign capture = s4_last_q;

  always_ff @(posedge clk_i) begin
    if (capture) begin
      for (int unsigned i = 0; i < Rows; i++) begin
        for (int unsigned j = 0; j < Cols; j++) begin
          dbank_q[i][j] <= acc[i][j];
        end
      end
    end
  end

  // C address of a finishing tile, taken when its last k-step is in stage s1 (the AW
  // cursors start then: the AWs of its rows go out while the k-step is in the pipeline)
  logic [31:0] d_tile_addr;
  assign d_tile_addr = c_addr_q + 32'(20'(s1_mt_q << LR)) * ldc_q +
                       (32'(20'(s1_nt_q << LC)) << lcb);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_mt_q <= '0; d_nt_q <= '0; da_mt_q <= '0; da_nt_q <= '0; da_tile_q <= '0;
    end else begin
      if (s1_last_q) begin
        da_mt_q   <= s1_mt_q;
        da_nt_q   <= s1_nt_q;
        da_tile_q <= d_tile_addr;
      end
      if (capture) begin
        d_mt_q <= s4_mt_q;
        d_nt_q <= s4_nt_q;
      end
    end
  end

  // lane signals, [0] = port A, [1] = port B
  logic [NL-1:0]         l_awvalid, l_awready, l_wvalid, l_wready, l_wlast, l_bvalid;
  logic [NL-1:0]         l_busy, l_row_done;
  logic [NL-1:0][31:0]   l_awaddr, l_wstrb;
  logic [NL-1:0][7:0]    l_awlen, l_wr_out;
  logic [NL-1:0][255:0]  l_wdata;
  // rounded output row of each lane, flat (Yosys could not size a packed 2-D array
  // declared inside the generate block where an instance port drives it)
  logic [NL*Cols*32-1:0] l_val;

  for (genvar p = 0; p < NL; p++) begin : g_lane
    // W cursor (busy until its last row's data has gone out)
    logic           busy_q, part_q;    // part_q: second burst of a row split at 256 B
    logic [19:0]    row_q;             // tile row p, p+2, ...
    logic [31:0]    addr_q;            // its byte address
    logic [1:0]     w_q;               // beat in the burst
    // AW cursor: same rows and bursts, one AW per cycle
    logic           abusy_q, apart_q;
    logic [19:0]    arow_q;
    logic [31:0]    aaddr_q;
    logic [DNB-1:0] an_q, wn_q;        // bursts of this tile: AWs issued, W bursts done
    logic [7:0]     out_q;             // write bursts awaiting B
    logic [1:0]     beats, bb, abeats, abb;
    logic           split, asplit, wsel, aw, w, burst_done, row_done;
    logic [4:0]     off;
    logic [511:0]   win;
    logic [63:0]    strb;

    always_comb begin
      off    = addr_q[4:0];
      beats  = 2'((({15'd0, off} + (d_nv << lcb) + 20'd31) >> 5));
      // a two-beat row starting in the last beat of a 256 B granule would cross it
      // (AXI contract, docs/architecture.md): write it as two one-beat bursts
      split  = (beats == 2'd2) && (addr_q[7:5] == 3'b111);
      bb     = split ? 2'd1 : beats;
      wsel   = part_q | w_q[0];
      abeats = 2'((({15'd0, aaddr_q[4:0]} + (da_nv << lcb) + 20'd31) >> 5));
      asplit = (abeats == 2'd2) && (aaddr_q[7:5] == 3'b111);
      abb    = asplit ? 2'd1 : abeats;
    end

    for (genvar j = 0; j < Cols; j++) begin : g_out
      tessera_mme_pkg::fpdec_t d;
      tessera_mme_fpdec u_dec (
        .fmt_i (tessera_mme_pkg::FmtFp32),
        .bits_i(dbank_q[LR'(row_q)][j]),
        .dec_o (d)
      );
      tessera_mme_fpround #(.MW(24)) u_rnd (
        .fmt_i   (tc_q),
        .sat_i   (sat_q),
        .nan_i   (d.nan),
        .inf_i   (d.inf),
        .sign_i  (d.sign),
        .mant_i  (d.zero ? 24'd0 : d.mant),
        .exp_i   (14'(signed'(d.exp)) + 14'(signed'(so_q))),
        .sticky_i(1'b0),
        .bits_o  (l_val[(p*Cols+j)*32 +: 32])
      );
    end

    // (no case statement inside the loop: Yosys left the window undriven with one, and
    // then removed the whole datapath as unused; docs/synthesis.md)
    always_comb begin
      win  = '0;
      strb = '0;
      for (int unsigned j = 0; j < Cols; j++) begin
        if (20'(j) < d_nv) begin
          win  = win | (512'(l_val[(p*Cols+j)*32 +: 32]) << {(7'(off) + (7'(j) << lcb)), 3'b000});
          strb = strb | (d_emask << (7'(off) + (7'(j) << lcb)));
        end
      end
    end

    assign l_awvalid[p]  = abusy_q && (arow_q < da_rows);
    assign l_awaddr[p]   = {aaddr_q[31:5], 5'd0} + {26'd0, apart_q, 5'd0};
    assign l_awlen[p]    = 8'(abb) - 8'd1;
    assign l_wvalid[p]   = busy_q && (row_q < d_rows) && (wn_q < an_q) && (w_q < bb);
    assign l_wdata[p]    = wsel ? win[511:256] : win[255:0];
    assign l_wstrb[p]    = wsel ? strb[63:32] : strb[31:0];
    assign l_wlast[p]    = (w_q == bb - 2'd1);
    assign l_busy[p]     = busy_q;
    assign l_row_done[p] = row_done;
    assign l_wr_out[p]   = out_q;
    assign aw         = l_awvalid[p] && l_awready[p];
    assign w          = l_wvalid[p] && l_wready[p];
    assign burst_done = w && (w_q == bb - 2'd1);
    assign row_done   = burst_done && (!split || part_q);

    // Both cursors start on every tile; lane 1 of a one-row tile ends at once. The W
    // cursor starts at the capture, the AW cursor three cycles earlier (the last k-step
    // in s1; both are idle then: the last k-step was only issued with the drain free).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q <= 1'b0; part_q <= 1'b0; row_q <= '0; addr_q <= '0; w_q <= '0; wn_q <= '0;
      end else if (capture) begin
        busy_q <= 1'b1;
        part_q <= 1'b0;
        row_q  <= 20'(p);
        addr_q <= (p == 0) ? da_tile_q : da_tile_q + ldc_q;
        w_q    <= '0;
        wn_q   <= '0;
      end else if (busy_q) begin
        if (row_q >= d_rows) busy_q <= 1'b0;
        if (burst_done) wn_q <= wn_q + 1'b1;
        if (burst_done && !row_done) begin   // first half of a split row
          w_q    <= '0;
          part_q <= 1'b1;
        end else if (row_done) begin
          w_q    <= '0;
          part_q <= 1'b0;
          row_q  <= row_q + 20'd2;
          addr_q <= addr_q + d_ldc2;
          if (row_q + 20'd2 >= d_rows) busy_q <= 1'b0;
        end else if (w) begin
          w_q <= w_q + 2'd1;
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        abusy_q <= 1'b0; apart_q <= 1'b0; arow_q <= '0; aaddr_q <= '0; an_q <= '0;
      end else if (s1_last_q) begin
        abusy_q <= 1'b1;
        apart_q <= 1'b0;
        arow_q  <= 20'(p);
        aaddr_q <= (p == 0) ? d_tile_addr : d_tile_addr + ldc_q;
        an_q    <= '0;
      end else if (abusy_q) begin
        if (arow_q >= da_rows) begin
          abusy_q <= 1'b0;
        end else if (aw) begin
          an_q <= an_q + 1'b1;
          if (asplit && !apart_q) begin
            apart_q <= 1'b1;
          end else begin
            apart_q <= 1'b0;
            arow_q  <= arow_q + 20'd2;
            aaddr_q <= aaddr_q + d_ldc2;
            if (arow_q + 20'd2 >= da_rows) abusy_q <= 1'b0;
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        out_q <= '0;
      end else begin
        out_q <= out_q + 8'(aw) - 8'(l_bvalid[p]);   // bready is always 1
      end
    end
  end

  assign drain_busy = |l_busy;

  // port A carries lane 0, port B's write channel lane 1
  assign l_awready = {mb_axi_awready, m_axi_awready};
  assign l_wready  = {mb_axi_wready, m_axi_wready};
  assign l_bvalid  = {mb_axi_bvalid, m_axi_bvalid};

  assign m_axi_awvalid  = l_awvalid[0];
  assign m_axi_awaddr   = l_awaddr[0];
  assign m_axi_awlen    = l_awlen[0];
  assign m_axi_wvalid   = l_wvalid[0];
  assign m_axi_wdata    = l_wdata[0];
  assign m_axi_wstrb    = l_wstrb[0];
  assign m_axi_wlast    = l_wlast[0];
  assign mb_axi_awvalid = l_awvalid[1];
  assign mb_axi_awaddr  = l_awaddr[1];
  assign mb_axi_awlen   = l_awlen[1];
  assign mb_axi_wvalid  = l_wvalid[1];
  assign mb_axi_wdata   = l_wdata[1];
  assign mb_axi_wstrb   = l_wstrb[1];
  assign mb_axi_wlast   = l_wlast[1];
  assign m_axi_awid     = '0;
  assign m_axi_awsize   = 3'd5;
  assign m_axi_awburst  = 2'b01;
  assign m_axi_awcache  = {wr_alloc_q, wr_alloc_q, 2'b11};
  assign m_axi_awprot   = 3'b000;
  assign m_axi_awqos    = {2'b00, wr_class_q};
  assign m_axi_bready   = 1'b1;
  assign mb_axi_awid    = '0;
  assign mb_axi_awsize  = 3'd5;
  assign mb_axi_awburst = 2'b01;
  assign mb_axi_awcache = {wr_alloc_q, wr_alloc_q, 2'b11};
  assign mb_axi_awprot  = 3'b000;
  assign mb_axi_awqos   = {2'b00, wr_class_q};
  assign mb_axi_bready  = 1'b1;

  // ================================================================ job state
  logic [7:0]  err_q;
  logic        done_set, reject_set;
  logic [31:0] pc_busy_q, pc_sin_q, pc_sout_q, pc_rd_q, pc_wr_q, pc_mac_q;

  always_comb begin
    state_d    = state_q;
    done_set   = 1'b0;
    reject_set = commit && (state_q != SIdle);
    unique case (state_q)
      SIdle:  if (commit) state_d = SCheck;
      SCheck: begin
        if (chk_err != tessera_mme_pkg::ErrNone) begin
          state_d  = SIdle;
          done_set = 1'b1;
        end else begin
          state_d = SRun;
        end
      end
      SRun: begin
        if (c_done_q == tiles && !drain_busy && !s4_last_q) state_d = SFlush;
      end
      SFlush: begin
        if (l_wr_out == '0 && fq_empty && fqb_empty) begin
          if (msgen_q) begin
            state_d = SMsg;
          end else begin
            state_d  = SIdle;
            done_set = 1'b1;
          end
        end
      end
      SMsg: begin
        if (msg_ready_i) begin
          state_d  = SIdle;
          done_set = 1'b1;
        end
      end
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      err_q     <= tessera_mme_pkg::ErrNone;
      axi_err_q <= 1'b0;
      pc_busy_q <= '0; pc_sin_q <= '0; pc_sout_q <= '0; pc_rd_q <= '0; pc_wr_q <= '0;
      pc_mac_q  <= '0;
    end else begin
      state_q <= state_d;
      if (state_q == SIdle && commit) begin
        err_q     <= tessera_mme_pkg::ErrNone;
        axi_err_q <= 1'b0;
        pc_busy_q <= '0; pc_sin_q <= '0; pc_sout_q <= '0; pc_rd_q <= '0; pc_wr_q <= '0;
        pc_mac_q  <= '0;
      end else begin
        if (state_q == SCheck) err_q <= chk_err;
        if ((r_beat && m_axi_rresp != 2'b00) || (rb_beat && mb_axi_rresp != 2'b00) ||
            (m_axi_bvalid && m_axi_bresp != 2'b00) ||
            (mb_axi_bvalid && mb_axi_bresp != 2'b00)) begin
          axi_err_q <= 1'b1;
        end
        if (state_q == SFlush && state_d != SFlush && axi_err_q) err_q <= tessera_mme_pkg::ErrAxi;
        if (state_q != SIdle) pc_busy_q <= pc_busy_q + 32'd1;
        if (state_q == SRun && c_t_q < tiles && (!c_active_q || !c_kok)) pc_sin_q <= pc_sin_q + 32'd1;
        if (state_q == SRun && c_active_q && c_kok && !c_can) pc_sout_q <= pc_sout_q + 32'd1;
        if (r_beat || rb_beat) pc_rd_q <= pc_rd_q + (r_beat && rb_beat ? 32'd64 : 32'd32);
        if (|l_row_done) pc_wr_q <= pc_wr_q + ((l_row_done[0] && l_row_done[1]) ?
                                                (32'(d_nv) << (lcb + 2'd1)) : (32'(d_nv) << lcb));
        if (c_issue) pc_mac_q <= pc_mac_q + 32'd1;
      end
    end
  end

  assign msg_valid_o = (state_q == SMsg);
  assign msg_addr_o  = msg_addr_q;
  assign msg_data_o  = msg_data_q;

  // ================================================================ register inputs
  always_comb begin
    hw_in = '0;
    hw_in.STATUS.busy.next         = (state_q != SIdle);
    hw_in.STATUS.done.hwset        = done_set;
    hw_in.STATUS.busy_reject.hwset = reject_set;
    hw_in.STATUS.err.next          = err_q;
    hw_in.INFO.rows.next           = 8'(Rows);
    hw_in.INFO.cols.next           = 8'(Cols);
    hw_in.INFO.kwords.next         = 16'(KWords);
    hw_in.PERF_BUSY.val.next       = pc_busy_q;
    hw_in.PERF_STALL_IN.val.next   = pc_sin_q;
    hw_in.PERF_STALL_OUT.val.next  = pc_sout_q;
    hw_in.PERF_BYTES_RD.val.next   = pc_rd_q;
    hw_in.PERF_BYTES_WR.val.next   = pc_wr_q;
    hw_in.PERF_MAC.val.next        = pc_mac_q;
  end

  // single AXI ID per direction: responses are in order, IDs are not needed
  logic unused_ids;
  assign unused_ids = ^{m_axi_bid, m_axi_rid, mb_axi_bid, mb_axi_rid};
  // port B's metadata uses fmeta_t without the marker fields; the marker's slot fields
  // go to the tile-info FIFO when it is queued, not through the metadata FIFO
  logic unused_fqb;
  assign unused_fqb = ^{fqb_head.marker, fqb_head.dest, fqb_head.a_slot, fqb_head.b_slot,
                        fqb_head.i_slot, fq_head.a_slot, fq_head.b_slot, fq_head.i_slot};

  assign irq_o = hw_out.STATUS.done.value || hw_out.STATUS.busy_reject.value;
  // low from the cycle a commit is latched until the job (and its message) has ended
  assign idle_o = (state_q == SIdle) && !commit;

endmodule
