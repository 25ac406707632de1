// DMA engine: linear copy, 2-D/3-D strided copy and memset over AXI4
// (256-bit beats, 32-byte granularity). The reader walks the source rows and
// issues read bursts (<= 8 beats, never crossing 256 bytes) whenever the beat
// buffer has room for the whole burst; the writer walks the destination rows
// and issues a write burst once the buffer holds all of its data, so W beats
// stream without bubbles. Completion: STATUS.done, optional completion message,
// irq_o. Tensor mode (CTRL.tensor) is tessera_dma_tensor, which drives the AXI port
// while it runs. A side of a (non-tensor) job whose base lies in the host window moves
// through the host port h_axi_* (host<->device copies). See docs/dma.md.
module tessera_dma #(
  parameter logic [31:0] MemBase   = tessera_cfg_pkg::HbmBase,
  parameter logic [31:0] MemSize   = tessera_cfg_pkg::HbmSize,
  // host memory window: a side of a linear/strided/memset/transpose job inside it moves
  // through the host port (h_axi_*) instead of the memory port (0 size: no window)
  parameter logic [31:0] HostBase  = tessera_cfg_pkg::HostBase,
  parameter logic [31:0] HostSize  = tessera_cfg_pkg::HostSize,
  parameter int unsigned FifoBeats = tessera_cfg_pkg::DmaBufBeats,  // beat buffer (power of 2, >= 16)
  parameter int unsigned IdBits    = 4,      // AXI ID width of the ports (the chip's axi_id_bits)
  parameter logic [3:0]  AxiId     = 4'h0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // APB4 register slave
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // AXI4 master
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i,
  // AXI4 master to host memory (same ID, sizes and bursts as the memory port)
  output tessera_bus_pkg::axi_req_t host_req_o,
  input  tessera_bus_pkg::axi_rsp_t host_rsp_i,
  // completion message
  output logic         msg_valid_o,
  input  logic         msg_ready_i,
  output logic [31:0]  msg_addr_o,
  output logic [31:0]  msg_data_o,
  output logic         idle_o,
  output logic         irq_o
);
  // the AXI ports as signals: m_axi_* (memory), h_axi_* (host memory)
  `TESSERA_AXI_SIGS_DECL(m_axi_, IdBits)
  `TESSERA_AXI_MST_CONNECT(mst_req_o, mst_rsp_i, m_axi_)
  `TESSERA_AXI_SIGS_DECL_MIN(h_axi_, IdBits)
  `TESSERA_AXI_MST_CONNECT_MIN(host_req_o, host_rsp_i, h_axi_)
  localparam int unsigned FifoW = $clog2(FifoBeats);
  localparam int unsigned CntW  = FifoW + 1;
  // transpose: tile columns read together per row (one burst of up to TrK beats); a group of
  // TrK tiles is R x TrK beats (R = rows per tile: E = 16 two-byte / 8 four-byte elements
  // per beat, 2E for paired tiles), at most a quarter of the buffer so that reads run
  // ahead of the group being loaded; at most 8 (one 256-byte burst per row); powers of two
  // (four-byte one-beat tiles: an eighth of the buffer, 4 beats = two lines per row already;
  // two-byte one-beat tiles: a quarter, so that each row's burst is two lines too: with one
  // line per row the slice's read-ahead MSHRs and the port's read bursts bound them,
  // docs/dma.md "Design decisions")
  localparam int unsigned TrKq2  = FifoBeats / 64;    // B / (4R), R = 16
  localparam int unsigned TrKq4  = FifoBeats / 64;    // R = 8
  localparam int unsigned TrKq2P = FifoBeats / 128;   // B / (4R), R = 32
  localparam int unsigned TrKq4P = FifoBeats / 64;    // B / (4R), R = 16
  localparam int unsigned TrK2  = (TrKq2 > 8) ? 8 : (TrKq2 < 1) ? 1 : TrKq2;     // two-byte, E-row tiles
  localparam int unsigned TrK4  = (TrKq4 > 8) ? 8 : (TrKq4 < 1) ? 1 : TrKq4;     // four-byte, E-row tiles
  localparam int unsigned TrK2P = (TrKq2P > 8) ? 8 : (TrKq2P < 1) ? 1 : TrKq2P;  // two-byte, paired (2E rows)
  localparam int unsigned TrK4P = (TrKq4P > 8) ? 8 : (TrKq4P < 1) ? 1 : TrKq4P;  // four-byte, paired (16 rows)

  localparam logic [7:0] ErrAlign = 8'd1, ErrZero = 8'd2, ErrMode = 8'd3, ErrRange = 8'd4,
                         ErrAxi = 8'd5;
  localparam logic [1:0] ModeLin = 2'd0, ModeFill = 2'd2, ModeTr = 2'd3;  // 1: strided copy

  dma_reg_pkg::dma__in_t  hwif_in;
  dma_reg_pkg::dma__out_t hwif_out;

  dma_reg_top u_regs (
    .clk           (clk_i),
    .arst_n        (rst_ni),
    .s_apb_psel    (apb_req_i.psel),
    .s_apb_penable (apb_req_i.penable),
    .s_apb_pwrite  (apb_req_i.pwrite),
    .s_apb_pprot   (apb_req_i.pprot),
    .s_apb_paddr   (apb_req_i.paddr),
    .s_apb_pwdata  (apb_req_i.pwdata),
    .s_apb_pstrb   (apb_req_i.pstrb),
    .s_apb_pready  (apb_rsp_o.pready),
    .s_apb_prdata  (apb_rsp_o.prdata),
    .s_apb_pslverr (apb_rsp_o.pslverr),
    .hwif_in       (hwif_in),
    .hwif_out      (hwif_out)
  );

  typedef enum logic [2:0] {SIdle, SCheck, SRun, SDrain, SMsg, STen} state_e;
  state_e state_q;

  // tensor mode (tessera_dma_tensor)
  logic         ten_q;           // the current/last job is a tensor copy (AXI port muxed)
  logic         t_start, t_busy, t_done, t_ran;
  logic [7:0]   t_err;
  logic         t_arvalid, t_awvalid, t_wvalid, t_wlast;
  logic [31:0]  t_araddr, t_awaddr, t_wstrb;
  logic [7:0]   t_arlen, t_awlen;
  logic [255:0] t_wdata;
  logic [5:0]   t_wbytes;

  // latched job
  logic [31:0] src_q, dst_q, size_q, ss1_q, ss2_q, ds1_q, ds2_q, fill_q;
  logic [15:0] c1_q, c2_q;
  logic [1:0]  mode_q;
  logic        esize_q;          // transpose: 0 two-byte, 1 four-byte elements
  logic        pair_q;           // transpose: tiles of 2E rows, one full 64-byte line per destination row
  logic        fillm, trm;
  logic [4:0]  tr_e;             // transpose: elements per beat minus 1 (15 or 7)
  logic [4:0]  tr_r;             // transpose: rows per tile minus 1 (= W beats per tile minus 1)
  logic [2:0]  tr_lg;            // transpose: log2 of the rows per tile
  assign fillm = (mode_q == ModeFill);
  assign trm   = (mode_q == ModeTr);
  assign tr_e  = esize_q ? 5'd7 : 5'd15;
  assign tr_r  = pair_q ? {tr_e[3:0], 1'b1} : tr_e;
  assign tr_lg = (esize_q ? 3'd3 : 3'd4) + 3'(pair_q);

  // ------------------------------------------------------------------ port selection
  // Each side of a job uses one port for the whole job: the host port when its base lies
  // in the host window (the range check then keeps its whole footprint there).
  logic src_h, dst_h;
  assign src_h = !ten_q && !fillm && (src_q - HostBase < HostSize);
  assign dst_h = !ten_q && (dst_q - HostBase < HostSize);
  logic         ar_rdy, r_vld, aw_rdy, w_rdy, b_vld;
  logic [255:0] r_dat;
  logic [1:0]   r_rsp, b_rsp;
  assign ar_rdy = src_h ? h_axi_arready : m_axi_arready;
  assign r_vld  = src_h ? h_axi_rvalid : m_axi_rvalid;
  assign r_dat  = src_h ? h_axi_rdata : m_axi_rdata;
  assign r_rsp  = src_h ? h_axi_rresp : m_axi_rresp;
  assign aw_rdy = dst_h ? h_axi_awready : m_axi_awready;
  assign w_rdy  = dst_h ? h_axi_wready : m_axi_wready;
  assign b_vld  = dst_h ? h_axi_bvalid : m_axi_bvalid;
  assign b_rsp  = dst_h ? h_axi_bresp : m_axi_bresp;

  logic [7:0]  err_q;
  logic        done_q, reject_q;
  logic [31:0] perf_busy_q, perf_rd_q, perf_wr_q, perf_stall_q;

  // transpose parameters fixed at SCheck: paired tiles when every destination row piece of
  // a pair is one aligned line that the L2 allocates whole (non-allocating writes pass
  // through the slice beat by beat, where two beats of one line serialize: one-beat tiles
  // are faster); the group order's Q (see "transpose group order")
  // the group order assumes the chip's 256-byte channel interleave (the rotation and the
  // band distance 256/W); Q is at most the number of channels (4 or 2)
  localparam int unsigned TrQMax = (tessera_cfg_pkg::HbmChannels >= 4) ? 4 :
                                   (tessera_cfg_pkg::HbmChannels >= 2) ? 2 : 1;
  if (tessera_cfg_pkg::HbmInterleaveBytes != 256) begin : g_bad_interleave
    $error("tessera_dma: the transpose group order assumes hbm_interleave_bytes = 256");
  end
  logic        pair_d;
  logic [1:0]  tq_m1_d;
  logic [31:0] tsizeg_d, tg_d;
  logic [15:0] tnb_d, tbs_d;
  always_comb begin
    pair_d   = wr_alloc_q && dst_q[5:0] == 6'd0 && ds1_q[5:0] == 6'd0 &&
               (c1_q & {10'h0, tr_e, 1'b1}) == 16'd0;
    tg_d     = 32'(pair_d ? (esize_q ? TrK4P : TrK2P) : (esize_q ? TrK4 : TrK2)) << 5;
    tsizeg_d = (size_q + tg_d - 32'd1) & ~(tg_d - 32'd1);
    tnb_d    = c1_q >> ((esize_q ? 3 : 4) + (pair_d ? 1 : 0));
    tbs_d    = pair_d ? 16'd4 : 16'd8;
    if (TrQMax >= 4 && (tnb_d & ((tbs_d << 2) - 16'd1)) == 16'd0 && tsizeg_d >= 32'd1024)
      tq_m1_d = 2'd3;
    else if (TrQMax >= 2 && (tnb_d & ((tbs_d << 1) - 16'd1)) == 16'd0 && tsizeg_d >= 32'd512)
      tq_m1_d = 2'd1;
    else
      tq_m1_d = 2'd0;
  end

  // ------------------------------------------------------------------ checks (SCheck)
  // Widths chosen so that no sum wraps (a wrapped end address would pass the check):
  // (COUNT-1) * STRIDE < 2^48, so an extent is < 2^49; the transpose's (columns-1) *
  // DST_STRIDE1 < 2^63; the ends are computed in 64 bits. The products keep their narrow
  // operands (16 x 32, 31 x 32 bits), so synthesis builds no wider multipliers.
  logic [48:0] ext_s, ext_d;       // extent - size of the last row start from the base
  logic [63:0] s_end, d_end, m_end, h_end;
  logic        s_ok, d_ok;
  logic [7:0]  chk_err;
  logic [30:0] tr_cols_m1;         // transpose: source columns (= destination rows) - 1
  always_comb begin
    ext_s = 49'(48'(16'(c2_q - 16'd1)) * 48'(ss2_q)) + 49'(48'(16'(c1_q - 16'd1)) * 48'(ss1_q));
    ext_d = 49'(48'(16'(c2_q - 16'd1)) * 48'(ds2_q)) + 49'(48'(16'(c1_q - 16'd1)) * 48'(ds1_q));
    s_end = 64'(src_q) + 64'(ext_s) + 64'(size_q);
    d_end = 64'(dst_q) + 64'(ext_d) + 64'(size_q);
    tr_cols_m1 = (esize_q ? 31'(size_q[31:2]) : size_q[31:1]) - 31'd1;
    if (trm) begin
      // destination: SIZE/e rows of COUNT1*e bytes, DST_STRIDE1 apart
      d_end = 64'(dst_q) + 64'(63'(tr_cols_m1) * 63'(ds1_q)) +
              (esize_q ? 64'({c1_q, 2'b00}) : 64'({c1_q, 1'b0}));
    end
    m_end = 64'(MemBase) + 64'(MemSize);
    h_end = 64'(HostBase) + 64'(HostSize);
    s_ok  = src_h ? (s_end <= h_end) : (src_q >= MemBase && s_end <= m_end);
    d_ok  = dst_h ? (d_end <= h_end) : (dst_q >= MemBase && d_end <= m_end);
    chk_err = 8'd0;
    if (1'b0) chk_err = ErrMode;   // every mode exists (code kept for compatibility)
    else if (size_q == 32'd0 || c1_q == 16'd0 || c2_q == 16'd0) chk_err = ErrZero;
    else if (size_q[4:0] != 5'd0 || dst_q[4:0] != 5'd0 || ds1_q[4:0] != 5'd0 || ds2_q[4:0] != 5'd0 ||
             (!fillm && (src_q[4:0] != 5'd0 || ss1_q[4:0] != 5'd0 || ss2_q[4:0] != 5'd0)) ||
             (trm && ((c1_q & 16'(tr_e)) != 16'd0)))
      chk_err = ErrAlign;
    else if (!d_ok || (!fillm && !s_ok))
      chk_err = ErrRange;
  end

  // ------------------------------------------------------------------ beat buffer
  logic [255:0]    fifo_mem [FifoBeats];
  logic [FifoW-1:0] wr_ptr_q, rd_ptr_q;
  logic [CntW-1:0]  count_q, resv_q;     // beats held; beats promised to issued write bursts
  logic [CntW:0]    r_outst_q;           // read beats requested, not yet received
  logic             push, pop;

  assign push = r_vld && !ten_q && (state_q == SRun || state_q == SDrain);
  always_ff @(posedge clk_i) begin
    if (push) fifo_mem[wr_ptr_q] <= r_dat;
  end

  // ------------------------------------------------------------------ transpose tiles
  // Tile (tr, tc) = source rows tr*R .. tr*R+R-1, bytes tc*32 .. tc*32+31 (E = 32/e
  // elements per beat; R = E rows, or 2E for paired tiles). Two tile registers: one is
  // filled from the beat buffer while the other is written out transposed (beat j =
  // element j of every tile row; paired: beats 2j and 2j+1 = element j of rows 0..E-1 and
  // E..2E-1, one 64-byte destination line).
  logic [1:0][31:0][255:0] tile_q;
  logic [1:0]      tfull_q;
  logic            tfill_q, tout_q;      // tile being filled / written out
  logic [4:0]      ld_i_q, w_j_q;        // row being loaded / output beat
  logic [3:0]      ld_t_q;               // tile of the loader's group being loaded
  logic [3:0]      ld_k;                 // tiles in the loader's group
  logic [CntW-1:0] ld_at;                // buffer position of the row being loaded
  logic            ld_grp_end;           // the group's last row is loaded: free its beats
  logic [7:0]      tb_avail_q;           // transposed beats of loading/loaded tiles not yet given an AW
  logic            ld_pop;
  logic [255:0]    tr_beat;
  logic [31:0][255:0] tile_out;
  logic [15:0][255:0] tile_half;         // the E rows of the output beat
  logic               tr_h;              // paired: second half of the destination line
  logic [3:0]         tr_j;              // element (destination row in the tile)
  assign tile_out = tile_q[tout_q];
  assign tr_h     = pair_q && w_j_q[0];
  assign tr_j     = pair_q ? w_j_q[4:1] : w_j_q[3:0];
  always_comb begin
    for (int unsigned i = 0; i < 16; i++)
      tile_half[i] = tr_h ? (esize_q ? tile_out[i + 8] : tile_out[i + 16]) : tile_out[i];
  end
  // constant part-selects, one compare per output beat index (synthesizes to muxes)
  always_comb begin
    tr_beat = '0;
    for (int unsigned j = 0; j < 16; j++) begin
      if (tr_j == 4'(j)) begin
        for (int unsigned i = 0; i < 16; i++) begin
          if (esize_q) begin
            if (i < 8 && j < 8) tr_beat[32*i +: 32] = tile_half[i][32*j +: 32];
          end else begin
            tr_beat[16*i +: 16] = tile_half[i][16*j +: 16];
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------ row walkers
  // reader
  logic [31:0] r_row_q, r_plane_q, r_off_q;
  logic [15:0] r_i1_q, r_i2_q;
  logic        r_done_q, arvalid_q;
  logic [31:0] araddr_q;
  logic [7:0]  arlen_q;
  // writer
  logic [31:0] w_row_q, w_plane_q, w_off_q;
  logic [15:0] w_i1_q, w_i2_q;
  logic        w_done_q, awvalid_q;
  logic [31:0] awaddr_q;

  // ------------------------------------------------------------------ transpose group order
  // A transpose reads a group of K tile columns of one band (the R source rows of a tile
  // row) and writes it as K tiles; the bands' transposed pieces land in destination
  // columns band*W bytes (W = 32, or 64 for paired tiles). With the plain order (band by
  // band) every write of 256/W consecutive bands falls into one 256-byte column of the
  // destination, i.e. on one HBM channel (interleave TESSERA_HBM_INTERLEAVE_BYTES), and a
  // group's reads into one 256-byte column of the source. The engine therefore walks Q
  // bands 256/W apart together (Q = 4, 2 or 1: the largest whose band blocks divide the
  // matrix and whose rotations fit in a row), one group of each in turn, band k of the
  // set starting its row at byte k*256 (wrapping around the row): Q consecutive groups
  // then read Q different 256-byte source columns and write Q different destination
  // columns. The reader, the tile loader and the writer each step through the same order.
  typedef struct packed {
    logic [15:0] base;   // first band of the set
    logic [1:0]  k;      // band of the set: base + k*256/W
    logic [31:0] soff;   // byte offset in the row of band 0's group (the step)
    logic [31:0] off;    // byte offset in the row of this group
    logic        done;   // past the last group
  } tseq_t;
  logic [1:0]  tq_m1_q;         // Q - 1 (0, 1 or 3)
  logic [2:0]  t_lbs;           // log2 of the band distance 256/W
  logic [31:0] tsizeg_q;        // row bytes rounded up to whole groups
  logic [15:0] tnb_q;           // bands
  logic [31:0] t_gfull;         // bytes of a whole group
  tseq_t       rs_q, ls_q, ws_q, rs_n, ls_n, ws_n;
  logic [3:0]  w_t_q;           // writer: tile of the group
  logic [3:0]  w_k;             // writer: tiles in the group

  function automatic tseq_t tseq_next(input tseq_t c, input logic [1:0] qm1,
                                      input logic [31:0] sizeg, input logic [31:0] gfull,
                                      input logic [2:0] lbs, input logic [15:0] nb);
    tseq_t n;
    logic [15:0] bmask;
    n      = c;
    n.done = 1'b0;
    bmask  = (16'd1 << lbs) - 16'd1;
    if (c.k != qm1) begin
      n.k   = c.k + 2'd1;
      n.off = (c.off + 32'd256 >= sizeg) ? c.off + 32'd256 - sizeg : c.off + 32'd256;
    end else begin
      n.k = '0;
      if (c.soff + gfull >= sizeg) begin
        n.soff = '0;
        n.base = ((qm1 != 2'd0) && ((c.base & bmask) == bmask)) ?
                 c.base + (16'(qm1) << lbs) + 16'd1 : c.base + 16'd1;
        n.done = (n.base >= nb);
      end else begin
        n.soff = c.soff + gfull;
      end
      n.off = n.soff;
    end
    tseq_next = n;
  endfunction
  function automatic logic [15:0] tseq_band(input logic [15:0] base, input logic [1:0] k,
                                            input logic [2:0] lbs);
    tseq_band = base + (16'(k) << lbs);
  endfunction
  logic [7:0]  awlen_q;
  // write-burst queue (lengths of bursts whose AW was issued and W not finished)
  logic [3:0][3:0] wq_q;
  logic [2:0]      wq_n_q;
  logic [3:0]      w_beat_q;
  logic [CntW:0]   b_outst_q;
  logic            stop_q;           // AXI error seen: issue nothing new

  function automatic logic [3:0] burst_beats(input logic [2:0] beat_in_256, input logic [31:0] left);
    logic [31:0] to_b, n;
    to_b = 32'd8 - 32'(beat_in_256);
    n    = (left >> 5);
    if (n > to_b) n = to_b;
    burst_beats = n[3:0];
  endfunction

  logic [3:0] r_n, w_n;
  logic [31:0] r_cur, w_cur;
  // transpose reads: a group of r_k tile columns from byte r_off_q of the row; r_sub_q bytes
  // of the current row's group already requested (a row's group splits at 256 bytes)
  logic [3:0]  r_k;
  logic [31:0] r_sub_q, r_gbytes;
  logic [3:0]  tr_k;
  assign tr_k     = pair_q ? (esize_q ? 4'(TrK4P) : 4'(TrK2P)) : (esize_q ? 4'(TrK4) : 4'(TrK2));
  assign r_k      = (((size_q - r_off_q) >> 5) > 32'(tr_k)) ? tr_k : 4'((size_q - r_off_q) >> 5);
  assign r_gbytes = {23'h0, r_k, 5'h0};
  assign ld_k     = (((size_q - ls_q.off) >> 5) > 32'(tr_k)) ? tr_k : 4'((size_q - ls_q.off) >> 5);
  assign w_k      = (((size_q - ws_q.off) >> 5) > 32'(tr_k)) ? tr_k : 4'((size_q - ws_q.off) >> 5);
  assign t_gfull  = {23'h0, tr_k, 5'h0};
  assign t_lbs    = pair_q ? 3'd2 : 3'd3;
  assign rs_n     = tseq_next(rs_q, tq_m1_q, tsizeg_q, t_gfull, t_lbs, tnb_q);
  assign ls_n     = tseq_next(ls_q, tq_m1_q, tsizeg_q, t_gfull, t_lbs, tnb_q);
  assign ws_n     = tseq_next(ws_q, tq_m1_q, tsizeg_q, t_gfull, t_lbs, tnb_q);
  assign r_cur = r_row_q + r_off_q + (trm ? r_sub_q : 32'd0);
  assign w_cur = w_row_q + w_off_q;
  // transpose: one-beat writes, or a 64-byte line per destination row (paired tiles)
  assign r_n   = burst_beats(r_cur[7:5], trm ? r_gbytes - r_sub_q : size_q - r_off_q);
  assign w_n   = trm ? (pair_q ? 4'd2 : 4'd1) : burst_beats(w_cur[7:5], size_q - w_off_q);

  logic [CntW:0] r_credit;
  logic          r_issue, w_issue;
  // a request still waiting for arready counts against the credit too, so that a new
  // one can be issued in the cycle the previous one is accepted
  assign r_credit = (CntW+1)'(FifoBeats) - (CntW+1)'(count_q) - r_outst_q -
                    (arvalid_q ? (CntW+1)'(arlen_q) + (CntW+1)'(1) : '0);
  assign r_issue  = (state_q == SRun) && !fillm && !r_done_q && (!arvalid_q || ar_rdy) && !stop_q &&
                    (r_credit >= (CntW+1)'(r_n));
  assign w_issue  = (state_q == SRun) && !w_done_q && (!awvalid_q || aw_rdy) && !stop_q &&
                    (wq_n_q != 3'd4) &&
                    (trm ? (tb_avail_q != 8'd0) : (fillm || ((count_q - resv_q) >= CntW'(w_n))));

  // W channel
  logic w_fire, w_last, e_wvalid;
  // transpose: the AWs of a tile go out while it loads; its W beats wait until it is full.
  // After an AXI error the tile may never fill: the remaining beats of issued AWs then go
  // out with no byte strobe, so the job drains without writing anything more.
  logic tr_wnull;
  assign tr_wnull       = trm && !tfull_q[tout_q];
  assign e_wvalid       = (wq_n_q != 3'd0) && (!tr_wnull || stop_q);
  assign w_last         = (w_beat_q == wq_q[0] - 4'd1);
  assign m_axi_wvalid = ten_q ? t_wvalid : (e_wvalid && !dst_h);
  assign m_axi_wlast  = ten_q ? t_wlast : w_last;
  // W beat of a non-tensor job (on the memory or the host port)
  logic [255:0] e_wdata;
  logic [31:0]  e_wstrb;
  assign e_wdata        = fillm ? {8{fill_q}} : (trm ? tr_beat : fifo_mem[rd_ptr_q]);
  assign e_wstrb        = tr_wnull ? 32'h0 : 32'hFFFF_FFFF;
  assign m_axi_wdata  = ten_q ? t_wdata : e_wdata;
  assign m_axi_wstrb  = ten_q ? t_wstrb : e_wstrb;
  assign w_fire         = e_wvalid && w_rdy && !ten_q;
  // a tile register may be refilled from the cycle its last transposed beat is written
  // (the load lands at the clock edge after that beat has been read), so the W channel
  // sees no bubble between tiles
  logic tout_free;
  assign tout_free      = trm && w_fire && (w_j_q == tr_r);
  // a group's beats sit in the buffer row by row ([row][tile]); its tiles load one after
  // the other, each row as soon as its beat has arrived; the group's beats are freed together
  assign ld_at          = CntW'(ld_i_q) * CntW'(ld_k) + CntW'(ld_t_q);
  assign ld_pop         = trm && (state_q == SRun || state_q == SDrain) && (count_q > ld_at) &&
                          (!tfull_q[tfill_q] || (tout_free && tout_q == tfill_q));
  assign ld_grp_end     = ld_pop && (ld_i_q == tr_r) && (ld_t_q == ld_k - 4'd1);
  // tile data (no reset: a tile row is only read after it was loaded)
  always_ff @(posedge clk_i) begin
    if (ld_pop) tile_q[tfill_q][ld_i_q] <= fifo_mem[rd_ptr_q + FifoW'(ld_at)];
  end
  assign pop            = !trm && w_fire && !fillm;
  logic [CntW-1:0] pop_n;   // beats freed this cycle
  assign pop_n          = trm ? (ld_grp_end ? CntW'(ld_k) * (CntW'(tr_r) + CntW'(1)) : '0) : CntW'(pop);

  logic go;
  assign go = hwif_out.CTRL.go.value;

  // ------------------------------------------------------------------ tensor mode
  assign t_start = go && (state_q == SIdle) && hwif_out.CTRL.tensor.value;
  tessera_dma_tensor #(
    .MemBase   (MemBase),
    .MemSize   (MemSize),
    .FifoBeats (FifoBeats)
  ) u_tensor (
    .clk_i,
    .rst_ni,
    .start_i    (t_start),
    .sdesc_i    (hwif_out.TSRC.addr.value),
    .ddesc_i    (hwif_out.TDST.addr.value),
    .off_i      ({hwif_out.TOFF4.val.value, hwif_out.TOFF3.val.value, hwif_out.TOFF2.val.value,
                  hwif_out.TOFF1.val.value, hwif_out.TOFF0.val.value}),
    .busy_o     (t_busy),
    .done_o     (t_done),
    .err_o      (t_err),
    .ran_o      (t_ran),
    .ar_valid_o (t_arvalid),
    .ar_ready_i (m_axi_arready && ten_q),
    .ar_addr_o  (t_araddr),
    .ar_len_o   (t_arlen),
    .r_valid_i  (m_axi_rvalid && ten_q),
    .r_data_i   (m_axi_rdata),
    .r_resp_i   (m_axi_rresp),
    .aw_valid_o (t_awvalid),
    .aw_ready_i (m_axi_awready && ten_q),
    .aw_addr_o  (t_awaddr),
    .aw_len_o   (t_awlen),
    .w_valid_o  (t_wvalid),
    .w_ready_i  (m_axi_wready && ten_q),
    .w_data_o   (t_wdata),
    .w_strb_o   (t_wstrb),
    .w_last_o   (t_wlast),
    .b_valid_i  (m_axi_bvalid && ten_q),
    .b_resp_i   (m_axi_bresp)
  );
  always_comb begin
    t_wbytes = '0;
    for (int unsigned i = 0; i < 32; i++) t_wbytes = t_wbytes + 6'(t_wstrb[i]);
  end

  // L2 cache hints of the transfer (docs/l2.md "AXI subset and hints"), latched at go
  logic       rd_alloc_q, wr_alloc_q;
  logic [1:0] rd_class_q, wr_class_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_alloc_q <= 1'b1; wr_alloc_q <= 1'b1; rd_class_q <= '0; wr_class_q <= '0;
    end else if (go && state_q == SIdle) begin
      rd_alloc_q <= hwif_out.CACHE.rd_alloc.value;
      wr_alloc_q <= hwif_out.CACHE.wr_alloc.value;
      rd_class_q <= hwif_out.CACHE.rd_class.value;
      wr_class_q <= hwif_out.CACHE.wr_class.value;
    end
  end

  assign m_axi_awid    = IdBits'(AxiId);
  assign m_axi_awaddr  = ten_q ? t_awaddr : awaddr_q;
  assign m_axi_awlen   = ten_q ? t_awlen : awlen_q;
  assign m_axi_awsize  = 3'd5;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awcache = {wr_alloc_q, wr_alloc_q, 2'b11};
  assign m_axi_awprot  = 3'b000;
  assign m_axi_awqos   = {2'b00, wr_class_q};
  assign m_axi_awvalid = ten_q ? t_awvalid : (awvalid_q && !dst_h);
  assign m_axi_bready  = 1'b1;
  assign m_axi_arid    = IdBits'(AxiId);
  assign m_axi_araddr  = ten_q ? t_araddr : araddr_q;
  assign m_axi_arlen   = ten_q ? t_arlen : arlen_q;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = {rd_alloc_q, rd_alloc_q, 2'b11};
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = {2'b00, rd_class_q};
  assign m_axi_arvalid = ten_q ? t_arvalid : (arvalid_q && !src_h);
  assign m_axi_rready  = 1'b1;

  assign h_axi_awid    = IdBits'(AxiId);
  assign h_axi_awaddr  = awaddr_q;
  assign h_axi_awlen   = awlen_q;
  assign h_axi_awsize  = 3'd5;
  assign h_axi_awburst = 2'b01;
  assign h_axi_awvalid = awvalid_q && dst_h;
  assign h_axi_wdata   = e_wdata;
  assign h_axi_wstrb   = e_wstrb;
  assign h_axi_wlast   = w_last;
  assign h_axi_wvalid  = e_wvalid && dst_h;
  assign h_axi_bready  = 1'b1;
  assign h_axi_arid    = IdBits'(AxiId);
  assign h_axi_araddr  = araddr_q;
  assign h_axi_arlen   = arlen_q;
  assign h_axi_arsize  = 3'd5;
  assign h_axi_arburst = 2'b01;
  assign h_axi_arvalid = arvalid_q && src_h;
  assign h_axi_rready  = 1'b1;

  logic axi_err;
  assign axi_err = (r_vld && r_rsp != 2'b00) || (b_vld && b_rsp != 2'b00);

  logic all_quiet;
  assign all_quiet = !arvalid_q && !awvalid_q && (r_outst_q == '0) && (wq_n_q == 3'd0) &&
                     (b_outst_q == '0);

  // message
  logic        msg_valid_q;
  assign msg_valid_o = msg_valid_q;
  assign msg_addr_o  = hwif_out.MSG_ADDR.addr.value;
  assign msg_data_o  = hwif_out.MSG_DATA.data.value;


  logic [3:0][3:0] wq_d;
  logic [2:0]      wq_n_d;
  always_comb begin
    wq_d   = wq_q;
    wq_n_d = wq_n_q;
    if (w_fire && w_last) begin
      wq_d   = {4'h0, wq_q[3:1]};
      wq_n_d = wq_n_d - 3'd1;
    end
    if (w_issue) begin
      wq_d[wq_n_d[1:0]] = w_n;
      wq_n_d            = wq_n_d + 3'd1;
    end
  end

  // ------------------------------------------------------------------ sequential
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      ten_q     <= 1'b0;
      src_q <= '0; dst_q <= '0; size_q <= '0; ss1_q <= '0; ss2_q <= '0; ds1_q <= '0; ds2_q <= '0;
      fill_q <= '0; c1_q <= '0; c2_q <= '0; mode_q <= '0; esize_q <= 1'b0; pair_q <= 1'b0;
      tfull_q <= '0; tfill_q <= 1'b0; tout_q <= 1'b0; ld_i_q <= '0; w_j_q <= '0;
      ld_t_q <= '0; r_sub_q <= '0;
      tb_avail_q <= '0;
      tq_m1_q <= '0; tsizeg_q <= '0; tnb_q <= '0; rs_q <= '0; ls_q <= '0; ws_q <= '0; w_t_q <= '0;
      err_q     <= '0;
      done_q    <= 1'b0;
      reject_q  <= 1'b0;
      perf_busy_q <= '0; perf_rd_q <= '0; perf_wr_q <= '0; perf_stall_q <= '0;
      wr_ptr_q  <= '0; rd_ptr_q <= '0; count_q <= '0; resv_q <= '0; r_outst_q <= '0;
      r_row_q <= '0; r_plane_q <= '0; r_off_q <= '0; r_i1_q <= '0; r_i2_q <= '0; r_done_q <= 1'b0;
      arvalid_q <= 1'b0; araddr_q <= '0; arlen_q <= '0;
      w_row_q <= '0; w_plane_q <= '0; w_off_q <= '0; w_i1_q <= '0; w_i2_q <= '0; w_done_q <= 1'b0;
      awvalid_q <= 1'b0; awaddr_q <= '0; awlen_q <= '0;
      wq_q <= '0; wq_n_q <= '0; w_beat_q <= '0; b_outst_q <= '0; stop_q <= 1'b0;
      msg_valid_q <= 1'b0;
    end else begin
      if (go && state_q != SIdle) reject_q <= 1'b1;
      unique case (state_q)
        SIdle: begin
          if (go) begin
            ten_q  <= hwif_out.CTRL.tensor.value;
            src_q  <= hwif_out.SRC.addr.value;
            dst_q  <= hwif_out.DST.addr.value;
            size_q <= hwif_out.SIZE.bytes.value;
            mode_q <= hwif_out.CTRL.mode.value;
            esize_q <= hwif_out.CTRL.esize.value;
            if (hwif_out.CTRL.mode.value == ModeLin) begin
              c1_q <= 16'd1; c2_q <= 16'd1;
              ss1_q <= '0; ss2_q <= '0; ds1_q <= '0; ds2_q <= '0;
            end else begin
              c1_q  <= hwif_out.COUNT1.val.value;
              c2_q  <= (hwif_out.CTRL.mode.value == ModeTr) ? 16'd1 : hwif_out.COUNT2.val.value;
              ss1_q <= hwif_out.SRC_STRIDE1.val.value;
              ss2_q <= (hwif_out.CTRL.mode.value == ModeTr) ? 32'd0 : hwif_out.SRC_STRIDE2.val.value;
              ds1_q <= hwif_out.DST_STRIDE1.val.value;
              ds2_q <= (hwif_out.CTRL.mode.value == ModeTr) ? 32'd0 : hwif_out.DST_STRIDE2.val.value;
            end
            fill_q   <= hwif_out.FILL.val.value;
            err_q    <= '0;
            done_q   <= 1'b0;
            reject_q <= 1'b0;
            perf_busy_q <= '0; perf_rd_q <= '0; perf_wr_q <= '0; perf_stall_q <= '0;
            state_q  <= hwif_out.CTRL.tensor.value ? STen : SCheck;
          end
        end
        STen: begin
          perf_busy_q <= perf_busy_q + 32'd1;
          if (m_axi_rvalid) perf_rd_q <= perf_rd_q + 32'd32;
          if (t_wvalid && m_axi_wready) perf_wr_q <= perf_wr_q + 32'(t_wbytes);
          if (t_done) begin
            err_q <= t_err;
            if (t_ran && hwif_out.MSG_CTRL.en.value) begin
              msg_valid_q <= 1'b1;
              state_q     <= SMsg;
            end else begin
              done_q  <= 1'b1;
              state_q <= SIdle;
            end
          end
        end
        SCheck: begin
          perf_busy_q <= perf_busy_q + 32'd1;
          if (chk_err != 8'd0) begin
            err_q   <= chk_err;
            done_q  <= 1'b1;
            state_q <= SIdle;     // refused: no traffic, no message
          end else begin
            r_row_q <= src_q; r_plane_q <= src_q; r_off_q <= '0; r_i1_q <= '0; r_i2_q <= '0;
            r_done_q <= fillm;
            pair_q   <= pair_d;
            tq_m1_q  <= tq_m1_d;
            tsizeg_q <= tsizeg_d;
            tnb_q    <= tnb_d;
            rs_q <= '0; ls_q <= '0; ws_q <= '0; w_t_q <= '0;
            w_row_q <= dst_q; w_plane_q <= dst_q; w_off_q <= '0; w_i1_q <= '0; w_i2_q <= '0;
            w_done_q <= 1'b0;
            wr_ptr_q <= '0; rd_ptr_q <= '0; count_q <= '0; resv_q <= '0;
            tfull_q <= '0; tfill_q <= 1'b0; tout_q <= 1'b0; ld_i_q <= '0; w_j_q <= '0;
            ld_t_q <= '0; r_sub_q <= '0;
            tb_avail_q <= '0;
            stop_q  <= 1'b0;
            state_q <= SRun;
          end
        end
        SRun: begin
          perf_busy_q <= perf_busy_q + 32'd1;
          if ((r_done_q && w_done_q) || stop_q) state_q <= SDrain;
        end
        SDrain: begin
          perf_busy_q <= perf_busy_q + 32'd1;
          if (all_quiet) begin
            if (hwif_out.MSG_CTRL.en.value) begin
              msg_valid_q <= 1'b1;
              state_q     <= SMsg;
            end else begin
              done_q  <= 1'b1;
              state_q <= SIdle;
            end
          end
        end
        SMsg: begin
          perf_busy_q <= perf_busy_q + 32'd1;
          if (msg_ready_i) begin
            msg_valid_q <= 1'b0;
            done_q      <= 1'b1;
            state_q     <= SIdle;
          end
        end
        default: state_q <= SIdle;
      endcase

      if (axi_err && (state_q == SRun || state_q == SDrain)) begin
        stop_q <= 1'b1;
        if (err_q == 8'd0) err_q <= ErrAxi;
      end

      // ---- reader
      if (r_issue) begin
        arvalid_q <= 1'b1;
        araddr_q  <= r_cur;
        arlen_q   <= {4'h0, r_n - 4'd1};
        if (trm) begin
          // group order: r_i1 = row in tile, r_off = group's first tile column (bytes),
          // r_sub = bytes of this row's group requested, r_i2 = tile row;
          // r_row = start of the current source row, r_plane = first row of the tile row
          if (r_sub_q + {23'h0, r_n, 5'h0} != r_gbytes) begin
            r_sub_q <= r_sub_q + {23'h0, r_n, 5'h0};     // the row's group continues past 256 B
          end else if (r_i1_q == 16'(tr_r)) begin
            // next group (the group order above): first row of its band, at its offset
            r_sub_q <= '0;
            r_i1_q  <= '0;
            rs_q    <= rs_n;
            r_off_q <= rs_n.off;
            r_row_q <= src_q + 32'(tseq_band(rs_n.base, rs_n.k, t_lbs)) * (ss1_q << tr_lg);
            if (rs_n.done) r_done_q <= 1'b1;
          end else begin
            r_sub_q <= '0;
            r_i1_q  <= r_i1_q + 16'd1;
            r_row_q <= r_row_q + ss1_q;
          end
        end else if (r_off_q + {23'h0, r_n, 5'h0} == size_q) begin
          r_off_q <= '0;
          if (r_i1_q + 16'd1 == c1_q) begin
            r_i1_q    <= '0;
            r_i2_q    <= r_i2_q + 16'd1;
            r_plane_q <= r_plane_q + ss2_q;
            r_row_q   <= r_plane_q + ss2_q;
            if (r_i2_q + 16'd1 == c2_q) r_done_q <= 1'b1;
          end else begin
            r_i1_q  <= r_i1_q + 16'd1;
            r_row_q <= r_row_q + ss1_q;
          end
        end else begin
          r_off_q <= r_off_q + {23'h0, r_n, 5'h0};
        end
      end else if (arvalid_q && ar_rdy) begin
        arvalid_q <= 1'b0;
      end
      r_outst_q <= r_outst_q + ((arvalid_q && ar_rdy) ? (CntW+1)'(arlen_q) + (CntW+1)'(1) : '0)
                             - (CntW+1)'(r_vld && !ten_q);
      if (push) begin
        wr_ptr_q  <= wr_ptr_q + FifoW'(1);
        perf_rd_q <= perf_rd_q + 32'd32;
      end
      if (pop_n != '0) rd_ptr_q <= rd_ptr_q + FifoW'(pop_n);
      if (state_q == SRun || state_q == SDrain)
        count_q <= count_q + CntW'(push) - pop_n;

      // ---- writer: AW
      if (w_issue) begin
        awvalid_q <= 1'b1;
        awaddr_q  <= w_cur;
        awlen_q   <= {4'h0, w_n - 4'd1};
        if (trm) begin
          // tile order: w_i1 = beat j in the tile (destination row tc*E + j),
          // w_off = tile row * 32 (bytes; paired 64), w_i2 = tile column;
          // w_row = start of the current destination row, w_plane = first row of the tile column
          if (w_i1_q == 16'(tr_e)) begin
            w_i1_q <= '0;
            if (w_t_q == w_k - 4'd1) begin
              // next group: its band's destination column, the first row of its first tile
              w_t_q   <= '0;
              ws_q    <= ws_n;
              w_off_q <= 32'(tseq_band(ws_n.base, ws_n.k, t_lbs)) << (pair_q ? 6 : 5);
              w_row_q <= dst_q + ((ws_n.off >> 5) << (esize_q ? 3 : 4)) * ds1_q;
              if (ws_n.done) w_done_q <= 1'b1;
            end else begin
              w_t_q   <= w_t_q + 4'd1;
              w_row_q <= w_row_q + ds1_q;
            end
          end else begin
            w_i1_q  <= w_i1_q + 16'd1;
            w_row_q <= w_row_q + ds1_q;
          end
        end else if (w_off_q + {23'h0, w_n, 5'h0} == size_q) begin
          w_off_q <= '0;
          if (w_i1_q + 16'd1 == c1_q) begin
            w_i1_q    <= '0;
            w_i2_q    <= w_i2_q + 16'd1;
            w_plane_q <= w_plane_q + ds2_q;
            w_row_q   <= w_plane_q + ds2_q;
            if (w_i2_q + 16'd1 == c2_q) w_done_q <= 1'b1;
          end else begin
            w_i1_q  <= w_i1_q + 16'd1;
            w_row_q <= w_row_q + ds1_q;
          end
        end else begin
          w_off_q <= w_off_q + {23'h0, w_n, 5'h0};
        end
      end else if (awvalid_q && aw_rdy) begin
        awvalid_q <= 1'b0;
      end
      if (state_q == SRun && !w_done_q && !awvalid_q && !w_issue && !fillm && !stop_q) perf_stall_q <= perf_stall_q + 32'd1;

      // ---- writer: burst queue and W beats
      wq_q   <= wq_d;
      wq_n_q <= wq_n_d;
      // ---- transpose tiles
      if (ld_pop) begin
        if (ld_i_q == tr_r) begin
          ld_i_q           <= '0;
          if (ld_grp_end) begin
            ld_t_q <= '0;
            ls_q   <= ls_n;
          end else begin
            ld_t_q <= ld_t_q + 4'd1;
          end
          tfull_q[tfill_q] <= 1'b1;
          tfill_q          <= ~tfill_q;
        end else begin
          ld_i_q <= ld_i_q + 5'd1;
        end
      end
      if (trm && w_fire) begin
        if (w_j_q == tr_r) begin
          w_j_q           <= '0;
          tfull_q[tout_q] <= 1'b0;
          tout_q          <= ~tout_q;
        end else begin
          w_j_q <= w_j_q + 5'd1;
        end
      end
      tb_avail_q <= tb_avail_q + ((ld_pop && ld_i_q == 5'd0) ? 8'(tr_e) + 8'd1 : 8'd0)
                               - 8'(w_issue && trm);
      if (w_fire) begin
        w_beat_q  <= w_last ? 4'd0 : w_beat_q + 4'd1;
        if (!tr_wnull) perf_wr_q <= perf_wr_q + 32'd32;
      end
      if (state_q == SRun || state_q == SDrain)
        resv_q <= resv_q + ((w_issue && !fillm && !trm) ? CntW'(w_n) : '0) - CntW'(pop);
      b_outst_q <= b_outst_q + (CntW+1)'(awvalid_q && aw_rdy) - (CntW+1)'(b_vld && !ten_q);
    end
  end

  // ------------------------------------------------------------------ registers in
  always_comb begin
    hwif_in.STATUS.busy.next        = (state_q != SIdle);
    hwif_in.STATUS.done.next        = done_q;
    hwif_in.STATUS.busy_reject.next = reject_q;
    hwif_in.STATUS.err.next         = err_q;
    hwif_in.PERF_BUSY.val.next      = perf_busy_q;
    hwif_in.PERF_BYTES_RD.val.next  = perf_rd_q;
    hwif_in.PERF_BYTES_WR.val.next  = perf_wr_q;
    hwif_in.PERF_STALL.val.next     = perf_stall_q;
  end

  assign idle_o = (state_q == SIdle) && !go;   // low from the cycle after the CTRL write
  assign irq_o  = (hwif_out.IRQ_EN.done.value && done_q) || (hwif_out.IRQ_EN.err.value && err_q != 8'd0);

  logic unused;
  assign unused = ^{m_axi_bid, m_axi_rid, m_axi_rlast, t_busy, h_axi_bid, h_axi_rid, h_axi_rlast};
endmodule
