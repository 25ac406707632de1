// Tensor mode of the DMA engine (docs/dma.md "Tensor copy"): fetches a source and a
// destination shared tensor descriptor (docs/architecture.md), checks them, then walks
// every destination coordinate (dim 0 innermost) and writes source element
// (c + offset), or the source pad value when that is out of bounds.
//
// The walker cuts the destination into segments {dst, src, bytes, pad}: one element
// each, or, when both dim-0 strides are 1, the contiguous dim-0 run of a row (pad
// prefix, copied middle, pad suffix). Three consumers walk the segment queue in order:
// the reader (read bursts of the source bytes into the beat buffer), the AW issuer
// (write bursts of <= 8 beats, never crossing 256 bytes, issued only when the buffer
// holds all their data) and the W generator (realigns two buffered source beats with a
// byte shifter, write strobes on the first and last beat of a segment).
module tessera_dma_tensor #(
  parameter logic [31:0] MemBase   = 32'h8000_0000,
  parameter logic [31:0] MemSize   = 32'h1000_0000,
  parameter int unsigned FifoBeats = 64,   // beat buffer (power of 2, >= 16)
  parameter int unsigned SegDepth  = 64    // segment queue (power of 2, >= 8)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // job
  input  logic            start_i,         // pulse, latches the inputs below
  input  logic [31:0]     sdesc_i,
  input  logic [31:0]     ddesc_i,
  input  logic [4:0][31:0] off_i,          // signed source offsets (elements)
  output logic            busy_o,
  output logic            done_o,          // pulse: the job ended
  output logic [7:0]      err_o,           // with done_o: 0 ok, else the error code
  output logic            ran_o,           // with done_o: the job was accepted (message follows)
  // AXI4 master (ids, size, burst, cache, qos driven by the parent)
  output logic            ar_valid_o,
  input  logic            ar_ready_i,
  output logic [31:0]     ar_addr_o,
  output logic [7:0]      ar_len_o,
  input  logic            r_valid_i,
  input  logic [255:0]    r_data_i,
  input  logic [1:0]      r_resp_i,
  output logic            aw_valid_o,
  input  logic            aw_ready_i,
  output logic [31:0]     aw_addr_o,
  output logic [7:0]      aw_len_o,
  output logic            w_valid_o,
  input  logic            w_ready_i,
  output logic [255:0]    w_data_o,
  output logic [31:0]     w_strb_o,
  output logic            w_last_o,
  input  logic            b_valid_i,
  input  logic [1:0]      b_resp_i
);
  localparam int unsigned FifoW = $clog2(FifoBeats);
  localparam int unsigned CntW  = FifoW + 1;
  localparam int unsigned SegW  = $clog2(SegDepth);

  localparam logic [7:0] ErrRange = 8'd4, ErrAxi = 8'd5, ErrDescAddr = 8'd6, ErrDesc = 8'd7,
                         ErrBase = 8'd8, ErrEsize = 8'd9;

  typedef enum logic [2:0] {TIdle, TFetch, TCheck, TSetup, TRange, TRun, TDrain} tstate_e;
  tstate_e state_q;

  // ------------------------------------------------------------------ descriptors
  logic [1:0][511:0]      desc_q;      // [0] source, [1] destination (16 words each)
  logic [1:0][15:0][31:0] desc_w;
  assign desc_w = desc_q;
  logic [2:0]  f_rn_q;                 // descriptor beats received
  logic [1:0]  f_arn_q;                // descriptor bursts requested
  logic        f_err_q;
  logic [31:0] sdesc_q, ddesc_q;
  logic [4:0][31:0] off_q;

  // w: the 16 words of a descriptor, word k at bits 32k+31:32k
  function automatic logic desc_bad(input logic [511:0] w);
    logic [31:0] w1, sz;
    w1 = w[63:32];
    desc_bad = (w1[3:0] > 4'd10) || (w1[6:4] == 3'd0) || (w1[6:4] > 3'd5) || (w1[31:7] != '0);
    for (int unsigned d = 0; d < 5; d++) begin
      sz = w[32*(3+d) +: 32];
      if (3'(d) < w1[6:4] && (sz == 32'd0 || sz > 32'h0100_0000)) desc_bad = 1'b1;
    end
  endfunction
  // log2 of the element size of a dtype code
  function automatic logic [1:0] dtype_lg(input logic [3:0] t);
    unique case (t)
      4'd0, 4'd5, 4'd8:        dtype_lg = 2'd2;
      4'd1, 4'd2, 4'd6, 4'd9:  dtype_lg = 2'd1;
      default:                 dtype_lg = 2'd0;
    endcase
  endfunction

  logic [1:0] s_lg, d_lg;
  logic       chk_bad, chk_esz, chk_base;
  logic [7:0] chk_err;
  always_comb begin
    s_lg     = dtype_lg(desc_w[0][1][3:0]);
    d_lg     = dtype_lg(desc_w[1][1][3:0]);
    chk_bad  = desc_bad(desc_q[0]) || desc_bad(desc_q[1]);
    chk_esz  = (s_lg != d_lg);
    chk_base = ((desc_w[0][0] & ((32'd1 << s_lg) - 32'd1)) != '0) ||
               ((desc_w[1][0] & ((32'd1 << d_lg) - 32'd1)) != '0);
    chk_err  = chk_bad ? ErrDesc : chk_esz ? ErrEsize : chk_base ? ErrBase : 8'd0;
  end

  logic da_bad;
  logic [32:0] mem_end;
  assign mem_end = 33'(MemBase) + 33'(MemSize);
  assign da_bad = (sdesc_i[5:0] != '0) || (ddesc_i[5:0] != '0) ||
                  (sdesc_i < MemBase) || (33'(sdesc_i) + 33'd64 > mem_end) ||
                  (ddesc_i < MemBase) || (33'(ddesc_i) + 33'd64 > mem_end);

  // ------------------------------------------------------------------ latched job
  logic [1:0]       lg_q;              // log2 element size
  logic [31:0]      sbase_q, dbase_q, pad_q;
  logic [4:0][24:0] ssz_q, dsz_q;      // sizes (dims >= ndims: 1)
  logic [4:0][31:0] sstr_q, dstr_q;    // strides in elements (dims >= ndims: 0)
  logic [4:0][31:0] sstb_q, dstb_q;    // strides in bytes
  logic             fast_q;

  // ------------------------------------------------------------------ setup (one multiplier)
  logic [3:0]         step_q;
  logic signed [63:0] dmin_q, dmax_q, smin_q, smax_q;
  logic [31:0]        soff_q;          // sum(off_d * sstride_d), elements (mod 2^32)
  logic signed [32:0] mul_a;
  logic signed [31:0] mul_b;
  logic signed [64:0] mul_p;
  logic [2:0]         step_d;
  always_comb begin
    step_d = 3'(step_q % 4'd5);
    if (step_q < 4'd5) begin
      mul_a = $signed({8'd0, dsz_q[step_d]}) - 33'sd1;
      mul_b = $signed(dstr_q[step_d]);
    end else if (step_q < 4'd10) begin
      mul_a = $signed({8'd0, ssz_q[step_d]}) - 33'sd1;
      mul_b = $signed(sstr_q[step_d]);
    end else begin
      mul_a = $signed({off_q[step_d][31], off_q[step_d]});
      mul_b = $signed(sstr_q[step_d]);
    end
    mul_p = 65'(mul_a) * 65'(mul_b);
  end

  logic signed [65:0] dlo, dhi, slo, shi, m_lo, m_hi;
  logic signed [65:0] dmin_x, dmax_x, smin_x, smax_x;
  always_comb begin
    dmin_x = {{2{dmin_q[63]}}, dmin_q};
    dmax_x = {{2{dmax_q[63]}}, dmax_q} + 66'sd1;
    smin_x = {{2{smin_q[63]}}, smin_q};
    smax_x = {{2{smax_q[63]}}, smax_q} + 66'sd1;
    dlo  = $signed({34'd0, dbase_q}) + (dmin_x <<< lg_q);
    dhi  = $signed({34'd0, dbase_q}) + (dmax_x <<< lg_q);
    slo  = $signed({34'd0, sbase_q}) + (smin_x <<< lg_q);
    shi  = $signed({34'd0, sbase_q}) + (smax_x <<< lg_q);
    m_lo = $signed({34'd0, MemBase});
    m_hi = $signed({33'd0, mem_end});
  end
  logic range_bad;
  assign range_bad = (dlo < m_lo) || (dhi > m_hi) || (slo < m_lo) || (shi > m_hi);

  // ------------------------------------------------------------------ walker
  logic [4:0][23:0]        c_q;         // destination coordinate
  logic signed [4:0][33:0] sc_q;        // source coordinate c + off
  logic [4:0][31:0]        wda_q, wsa_q; // addresses of (c_d.., 0 below d) dst / src
  logic [1:0]              ph_q;         // fast rows: 0 pad prefix, 1 copy, 2 pad suffix
  logic                    wk_done_q;

  logic [4:0] inb;
  always_comb begin
    for (int unsigned d = 0; d < 5; d++)
      inb[d] = (sc_q[d] >= 34'sd0) && (sc_q[d] < $signed({9'd0, ssz_q[d]}));
  end

  // fast row: element counts of the three phases
  logic signed [33:0] n0s, negoff, qraw, p_e, q_e;
  logic [2:0][24:0]   ph_len;
  always_comb begin
    n0s    = $signed({9'd0, dsz_q[0]});
    negoff = -sc_q[0];
    p_e    = (negoff <= 34'sd0) ? 34'sd0 : (negoff >= n0s) ? n0s : negoff;
    qraw   = $signed({9'd0, ssz_q[0]}) - sc_q[0];
    q_e    = (qraw <= p_e) ? p_e : (qraw >= n0s) ? n0s : qraw;
    if (&inb[4:1]) begin
      ph_len[0] = 25'(p_e);
      ph_len[1] = 25'(q_e - p_e);
      ph_len[2] = 25'(n0s - q_e);
    end else begin
      ph_len[0] = dsz_q[0];
      ph_len[1] = '0;
      ph_len[2] = '0;
    end
  end

  logic [1:0] ph_cur;
  logic       ph_more;
  always_comb begin
    ph_cur = 2'd2;
    if (ph_q <= 2'd1 && ph_len[1] != '0) ph_cur = 2'd1;
    if (ph_q == 2'd0 && ph_len[0] != '0) ph_cur = 2'd0;
    ph_more = (ph_cur == 2'd0 && (ph_len[1] != '0 || ph_len[2] != '0)) ||
              (ph_cur == 2'd1 && ph_len[2] != '0);
  end

  typedef struct packed {
    logic [31:0] dst;
    logic [31:0] src;
    logic [26:0] len;    // bytes, 1 .. 2^26
    logic        pad;
  } seg_t;

  seg_t seg_new;
  logic [26:0] p_b, q_b;
  always_comb begin
    p_b = 27'(p_e) << lg_q;
    q_b = 27'(q_e) << lg_q;
    seg_new = '0;
    if (!fast_q) begin
      seg_new.dst = wda_q[0];
      seg_new.src = wsa_q[0];
      seg_new.len = 27'd1 << lg_q;
      seg_new.pad = !(&inb);
    end else begin
      unique case (ph_cur)
        2'd0: begin
          seg_new.dst = wda_q[0];
          seg_new.len = 27'(ph_len[0]) << lg_q;
          seg_new.pad = 1'b1;
        end
        2'd1: begin
          seg_new.dst = wda_q[0] + 32'(p_b);
          seg_new.src = wsa_q[0] + 32'(p_b);
          seg_new.len = 27'(ph_len[1]) << lg_q;
          seg_new.pad = 1'b0;
        end
        default: begin
          seg_new.dst = wda_q[0] + 32'(q_b);
          seg_new.len = 27'(ph_len[2]) << lg_q;
          seg_new.pad = 1'b1;
        end
      endcase
    end
  end

  // next coordinate (dims from 1 in fast mode)
  logic [4:0][23:0]        c_n;
  logic signed [4:0][33:0] sc_n;
  logic [4:0][31:0]        wda_n, wsa_n;
  logic                    walk_last;
  logic        carry;
  logic [2:0]  k;
  logic [31:0] nda, nsa;
  always_comb begin
    c_n   = c_q;
    sc_n  = sc_q;
    carry = 1'b1;
    k     = 3'd0;
    for (int unsigned d = 0; d < 5; d++) begin
      if (carry && !(fast_q && d == 0)) begin
        if (25'(c_q[d]) + 25'd1 == dsz_q[d]) begin
          c_n[d]  = '0;
          sc_n[d] = $signed({{2{off_q[d][31]}}, off_q[d]});
        end else begin
          c_n[d]  = c_q[d] + 24'd1;
          sc_n[d] = sc_q[d] + 34'sd1;
          k       = 3'(d);
          carry   = 1'b0;
        end
      end
    end
    walk_last = carry;
    nda = wda_q[k] + dstb_q[k];
    nsa = wsa_q[k] + sstb_q[k];
    wda_n = wda_q;
    wsa_n = wsa_q;
    for (int unsigned d = 0; d < 5; d++) begin
      if (3'(d) <= k) begin
        wda_n[d] = nda;
        wsa_n[d] = nsa;
      end
    end
  end

  // ------------------------------------------------------------------ segment queue
  // Plain vectors: Yosys loses fields of a memory of packed structs (docs/synthesis.md).
  logic [$bits(seg_new)-1:0] seg_mem [SegDepth];
  logic [SegW:0]   sp_w_q, sp_r_q, sp_a_q, sp_d_q;   // walker, reader, AW, W pointers
  logic            seg_full, seg_push;
  logic            stop_q;
  assign seg_full = ((sp_w_q - sp_d_q) == (SegW+1)'(SegDepth)) ||
                    ((sp_w_q - sp_r_q) == (SegW+1)'(SegDepth));
  assign seg_push = (state_q == TRun) && !wk_done_q && !seg_full && !stop_q;
  always_ff @(posedge clk_i) begin
    if (seg_push) seg_mem[sp_w_q[SegW-1:0]] <= seg_new;
  end

  // ------------------------------------------------------------------ beat buffer
  logic [255:0]     fifo_mem [FifoBeats];
  logic [FifoW-1:0] wr_ptr_q, rd_ptr_q;
  logic [CntW-1:0]  count_q, resv_q;
  logic [CntW:0]    r_outst_q;
  logic [CntW:0]    b_outst_q;
  logic             push, pop;
  assign push = r_valid_i && (state_q == TRun || state_q == TDrain);
  always_ff @(posedge clk_i) begin
    if (push) fifo_mem[wr_ptr_q] <= r_data_i;
  end

  // ------------------------------------------------------------------ reader
  logic        arvalid_q;
  logic [31:0] araddr_q;
  logic [7:0]  arlen_q;
  logic        r_act_q;
  logic [31:0] r_addr_q;      // next beat address of the active segment
  logic [21:0] r_left_q;      // beats left
  seg_t        r_seg;
  logic [31:0] r_addr;
  logic [21:0] r_left, r_n;
  logic        r_have, r_skip, r_issue;
  logic [CntW:0] r_credit;

  function automatic logic [21:0] seg_beats(input logic [4:0] lo, input logic [26:0] len);
    logic [26:0] n;
    n = 27'(lo) + len + 27'd31;
    seg_beats = 22'(n >> 5);
  endfunction
  function automatic logic [21:0] burst_n(input logic [2:0] beat_in_256, input logic [21:0] left);
    logic [21:0] to_b;
    to_b = 22'd8 - 22'(beat_in_256);
    burst_n = (left < to_b) ? left : to_b;
  endfunction

  always_comb begin
    r_seg  = seg_mem[sp_r_q[SegW-1:0]];
    r_have = r_act_q || (sp_r_q != sp_w_q);
    r_skip = !r_act_q && (sp_r_q != sp_w_q) && r_seg.pad;
    r_addr = r_act_q ? r_addr_q : {r_seg.src[31:5], 5'd0};
    r_left = r_act_q ? r_left_q : seg_beats(r_seg.src[4:0], r_seg.len);
    r_n    = burst_n(r_addr[7:5], r_left);
  end
  assign r_credit = (CntW+1)'(FifoBeats) - (CntW+1)'(count_q) - r_outst_q -
                    (arvalid_q ? (CntW+1)'(arlen_q) + (CntW+1)'(1) : '0);
  assign r_issue  = (state_q == TRun) && r_have && !r_skip && !stop_q &&
                    (!arvalid_q || ar_ready_i) && (r_credit >= (CntW+1)'(r_n));

  // ------------------------------------------------------------------ AW issuer
  logic        awvalid_q;
  logic [31:0] awaddr_q;
  logic [7:0]  awlen_q;
  logic        a_act_q;
  logic [31:0] a_addr_q;
  logic [21:0] a_k_q, a_cum_q;   // next dst beat index; source beats reserved so far
  seg_t        a_seg;
  logic        a_lag;
  logic [21:0] a_nd, a_ns, a_k0, a_left, a_n, a_k1, a_cum0, a_cum1, a_need;
  logic [31:0] a_addr;
  logic        a_have, a_issue;
  logic [3:0][3:0] wq_q;        // lengths of issued write bursts (W not finished)
  logic [2:0]      wq_n_q;

  always_comb begin
    a_seg  = seg_mem[sp_a_q[SegW-1:0]];
    a_lag  = a_seg.src[4:0] < a_seg.dst[4:0];
    a_nd   = seg_beats(a_seg.dst[4:0], a_seg.len);
    a_ns   = seg_beats(a_seg.src[4:0], a_seg.len);
    a_have = a_act_q || (sp_a_q != sp_w_q);
    a_k0   = a_act_q ? a_k_q : '0;
    a_addr = a_act_q ? a_addr_q : {a_seg.dst[31:5], 5'd0};
    a_left = a_nd - a_k0;
    a_n    = burst_n(a_addr[7:5], a_left);
    a_k1   = a_k0 + a_n - 22'd1;
    a_cum0 = a_act_q ? a_cum_q : '0;
    // source beats popped up to and including destination beat k: min(k + 2 - lag, n_s)
    a_cum1 = (a_k1 + 22'd2 - 22'(a_lag) < a_ns) ? a_k1 + 22'd2 - 22'(a_lag) : a_ns;
    a_need = a_seg.pad ? '0 : a_cum1 - a_cum0;
  end
  assign a_issue = (state_q == TRun) && a_have && !stop_q && (!awvalid_q || aw_ready_i) &&
                   (wq_n_q != 3'd4) && (22'(CntW'(count_q - resv_q)) >= a_need);

  // ------------------------------------------------------------------ W generator
  seg_t         d_seg;
  logic [21:0]  w_k_q;
  logic         pre_q;          // first source beat preloaded into hold_q
  logic [255:0] hold_q;
  logic         d_lag, d_need_pre, d_single, d_hi, w_fire, w_seg_end;
  logic [4:0]   d_sh, d_end;
  logic [21:0]  d_nd, d_ns;
  logic [3:0]   w_beat_q;
  logic [255:0] fifo_head, pad_beat, shifted;
  logic [511:0] pair;
  logic [31:0]  strb;
  always_comb begin
    d_seg      = seg_mem[sp_d_q[SegW-1:0]];
    d_lag      = d_seg.src[4:0] < d_seg.dst[4:0];
    d_sh       = d_seg.src[4:0] - d_seg.dst[4:0];
    d_end      = d_seg.dst[4:0] + d_seg.len[4:0];
    d_nd       = seg_beats(d_seg.dst[4:0], d_seg.len);
    d_ns       = seg_beats(d_seg.src[4:0], d_seg.len);
    d_need_pre = !d_seg.pad && (w_k_q == '0) && !d_lag && (d_ns > 22'd1) && !pre_q;
    d_single   = (w_k_q == '0) && !d_lag && (d_ns == 22'd1);
    d_hi       = (w_k_q + 22'd1 - 22'(d_lag)) < d_ns;
    fifo_head  = fifo_mem[rd_ptr_q];
    pair       = {fifo_head, d_single ? fifo_head : hold_q};
    shifted    = 256'(pair >> {d_sh, 3'b000});
    unique case (lg_q)
      2'd0:    pad_beat = {32{pad_q[7:0]}};
      2'd1:    pad_beat = {16{pad_q[15:0]}};
      default: pad_beat = {8{pad_q}};
    endcase
    strb = 32'hFFFF_FFFF;
    if (w_k_q == '0) strb = strb & (32'hFFFF_FFFF << d_seg.dst[4:0]);
    if (w_k_q == d_nd - 22'd1 && d_end != 5'd0) strb = strb & ~(32'hFFFF_FFFF << d_end);
  end
  assign w_valid_o = (wq_n_q != 3'd0) && !d_need_pre;
  assign w_data_o  = d_seg.pad ? pad_beat : shifted;
  assign w_strb_o  = strb;
  assign w_last_o  = (w_beat_q == wq_q[0] - 4'd1);
  assign w_fire    = w_valid_o && w_ready_i;
  assign w_seg_end = (w_k_q == d_nd - 22'd1);
  logic pre_fire;
  assign pre_fire = (wq_n_q != 3'd0) && d_need_pre;
  assign pop      = pre_fire || (w_fire && !d_seg.pad && (d_hi || d_single));

  logic [3:0][3:0] wq_d;
  logic [2:0]      wq_n_d;
  always_comb begin
    wq_d   = wq_q;
    wq_n_d = wq_n_q;
    if (w_fire && w_last_o) begin
      wq_d   = {4'h0, wq_q[3:1]};
      wq_n_d = wq_n_d - 3'd1;
    end
    if (a_issue) begin
      wq_d[wq_n_d[1:0]] = 4'(a_n);
      wq_n_d            = wq_n_d + 3'd1;
    end
  end

  // ------------------------------------------------------------------ AXI outputs
  assign ar_valid_o = arvalid_q;
  assign ar_addr_o  = araddr_q;
  assign ar_len_o   = arlen_q;
  assign aw_valid_o = awvalid_q;
  assign aw_addr_o  = awaddr_q;
  assign aw_len_o   = awlen_q;

  logic axi_err, quiet, all_done;
  assign axi_err  = (r_valid_i && r_resp_i != 2'b00) || (b_valid_i && b_resp_i != 2'b00);
  assign quiet    = !arvalid_q && !awvalid_q && (r_outst_q == '0) && (wq_n_q == 3'd0) &&
                    (b_outst_q == '0);
  assign all_done = wk_done_q && !r_act_q && !a_act_q && (sp_r_q == sp_w_q) &&
                    (sp_a_q == sp_w_q) && (sp_d_q == sp_w_q);

  logic [7:0] err_q;
  logic       done_q, ran_q;
  assign busy_o = (state_q != TIdle);
  assign done_o = done_q;
  assign err_o  = err_q;
  assign ran_o  = ran_q;

  // ------------------------------------------------------------------ sequential
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= TIdle;
      desc_q <= '0; f_rn_q <= '0; f_arn_q <= '0; f_err_q <= 1'b0;
      sdesc_q <= '0; ddesc_q <= '0; off_q <= '0;
      lg_q <= '0; sbase_q <= '0; dbase_q <= '0; pad_q <= '0;
      ssz_q <= '0; dsz_q <= '0; sstr_q <= '0; dstr_q <= '0; sstb_q <= '0; dstb_q <= '0;
      fast_q <= 1'b0;
      step_q <= '0; dmin_q <= '0; dmax_q <= '0; smin_q <= '0; smax_q <= '0; soff_q <= '0;
      c_q <= '0; sc_q <= '0; wda_q <= '0; wsa_q <= '0; ph_q <= '0; wk_done_q <= 1'b0;
      sp_w_q <= '0; sp_r_q <= '0; sp_a_q <= '0; sp_d_q <= '0; stop_q <= 1'b0;
      wr_ptr_q <= '0; rd_ptr_q <= '0; count_q <= '0; resv_q <= '0; r_outst_q <= '0;
      b_outst_q <= '0;
      arvalid_q <= 1'b0; araddr_q <= '0; arlen_q <= '0;
      r_act_q <= 1'b0; r_addr_q <= '0; r_left_q <= '0;
      awvalid_q <= 1'b0; awaddr_q <= '0; awlen_q <= '0;
      a_act_q <= 1'b0; a_addr_q <= '0; a_k_q <= '0; a_cum_q <= '0;
      wq_q <= '0; wq_n_q <= '0; w_beat_q <= '0; w_k_q <= '0; pre_q <= 1'b0; hold_q <= '0;
      err_q <= '0; done_q <= 1'b0; ran_q <= 1'b0;
    end else begin
      done_q <= 1'b0;
      unique case (state_q)
        TIdle: begin
          if (start_i) begin
            sdesc_q <= sdesc_i;
            ddesc_q <= ddesc_i;
            off_q   <= off_i;
            f_rn_q  <= '0;
            f_arn_q <= '0;
            f_err_q <= 1'b0;
            if (da_bad) begin
              err_q  <= ErrDescAddr;
              ran_q  <= 1'b0;
              done_q <= 1'b1;
            end else begin
              state_q <= TFetch;
            end
          end
        end
        TFetch: begin
          // two 2-beat bursts: the source, then the destination descriptor
          if ((!arvalid_q || ar_ready_i) && f_arn_q != 2'd2) begin
            arvalid_q <= 1'b1;
            araddr_q  <= (f_arn_q == 2'd0) ? sdesc_q : ddesc_q;
            arlen_q   <= 8'd1;
            f_arn_q   <= f_arn_q + 2'd1;
          end else if (arvalid_q && ar_ready_i) begin
            arvalid_q <= 1'b0;
          end
          if (r_valid_i) begin
            desc_q[f_rn_q[1]][{f_rn_q[0], 8'd0} +: 256] <= r_data_i;
            f_rn_q <= f_rn_q + 3'd1;
            if (r_resp_i != 2'b00) f_err_q <= 1'b1;
            if (f_rn_q == 3'd3) begin
              if (f_err_q || r_resp_i != 2'b00) begin
                err_q   <= ErrAxi;
                ran_q   <= 1'b1;
                done_q  <= 1'b1;
                state_q <= TIdle;
              end else begin
                state_q <= TCheck;
              end
            end
          end
        end
        TCheck: begin
          if (chk_err != 8'd0) begin
            err_q   <= chk_err;
            ran_q   <= 1'b0;
            done_q  <= 1'b1;
            state_q <= TIdle;
          end else begin
            lg_q    <= s_lg;
            sbase_q <= desc_w[0][0];
            dbase_q <= desc_w[1][0];
            pad_q   <= desc_w[0][2];
            for (int unsigned d = 0; d < 5; d++) begin
              if (3'(d) < desc_w[0][1][6:4]) begin
                ssz_q[d]  <= 25'(desc_w[0][3+d]);
                sstr_q[d] <= desc_w[0][8+d];
                sstb_q[d] <= desc_w[0][8+d] << s_lg;
              end else begin
                ssz_q[d] <= 25'd1; sstr_q[d] <= '0; sstb_q[d] <= '0;
              end
              if (3'(d) < desc_w[1][1][6:4]) begin
                dsz_q[d]  <= 25'(desc_w[1][3+d]);
                dstr_q[d] <= desc_w[1][8+d];
                dstb_q[d] <= desc_w[1][8+d] << d_lg;
              end else begin
                dsz_q[d] <= 25'd1; dstr_q[d] <= '0; dstb_q[d] <= '0;
              end
            end
            fast_q  <= (desc_w[0][8] == 32'd1) && (desc_w[1][8] == 32'd1);
            step_q  <= '0;
            dmin_q <= '0; dmax_q <= '0; smin_q <= '0; smax_q <= '0; soff_q <= '0;
            state_q <= TSetup;
          end
        end
        TSetup: begin
          if (step_q < 4'd5) begin
            if (mul_p[64]) dmin_q <= dmin_q + mul_p[63:0];
            else           dmax_q <= dmax_q + mul_p[63:0];
          end else if (step_q < 4'd10) begin
            if (mul_p[64]) smin_q <= smin_q + mul_p[63:0];
            else           smax_q <= smax_q + mul_p[63:0];
          end else begin
            soff_q <= soff_q + mul_p[31:0];
          end
          step_q <= step_q + 4'd1;
          if (step_q == 4'd14) state_q <= TRange;
        end
        TRange: begin
          if (range_bad) begin
            err_q   <= ErrRange;
            ran_q   <= 1'b0;
            done_q  <= 1'b1;
            state_q <= TIdle;
          end else begin
            c_q <= '0;
            for (int unsigned d = 0; d < 5; d++) begin
              sc_q[d]  <= $signed({{2{off_q[d][31]}}, off_q[d]});
              wda_q[d] <= dbase_q;
              wsa_q[d] <= sbase_q + (soff_q << lg_q);
            end
            ph_q <= '0; wk_done_q <= 1'b0;
            sp_w_q <= '0; sp_r_q <= '0; sp_a_q <= '0; sp_d_q <= '0; stop_q <= 1'b0;
            wr_ptr_q <= '0; rd_ptr_q <= '0; count_q <= '0; resv_q <= '0;
            r_act_q <= 1'b0; a_act_q <= 1'b0; w_k_q <= '0; pre_q <= 1'b0;
            err_q   <= '0;
            state_q <= TRun;
          end
        end
        TRun: begin
          if ((all_done && quiet) || stop_q) state_q <= TDrain;
        end
        TDrain: begin
          if (quiet) begin
            ran_q   <= 1'b1;
            done_q  <= 1'b1;
            state_q <= TIdle;
          end
        end
        default: state_q <= TIdle;
      endcase

      if (axi_err && (state_q == TRun || state_q == TDrain)) begin
        stop_q <= 1'b1;
        err_q  <= ErrAxi;
      end

      // ---- walker
      if (seg_push) begin
        sp_w_q <= sp_w_q + (SegW+1)'(1);
        if (fast_q && ph_more) begin
          ph_q <= ph_cur + 2'd1;
        end else begin
          ph_q  <= '0;
          c_q   <= c_n;
          sc_q  <= sc_n;
          wda_q <= wda_n;
          wsa_q <= wsa_n;
          if (walk_last) wk_done_q <= 1'b1;
        end
      end

      // ---- reader
      if (state_q == TRun || state_q == TDrain) begin
        if (r_skip) sp_r_q <= sp_r_q + (SegW+1)'(1);
        if (r_issue) begin
          arvalid_q <= 1'b1;
          araddr_q  <= r_addr;
          arlen_q   <= 8'(r_n - 22'd1);
          if (r_n == r_left) sp_r_q <= sp_r_q + (SegW+1)'(1);
          r_act_q  <= (r_n != r_left);
          r_addr_q <= r_addr + {22'd0, 5'(r_n), 5'd0};
          r_left_q <= r_left - r_n;
        end else if (arvalid_q && ar_ready_i) begin
          arvalid_q <= 1'b0;
        end
      end
      r_outst_q <= r_outst_q + ((arvalid_q && ar_ready_i && state_q != TFetch) ?
                                (CntW+1)'(arlen_q) + (CntW+1)'(1) : '0) - (CntW+1)'(push);
      if (push) wr_ptr_q <= wr_ptr_q + FifoW'(1);
      if (pop) begin
        rd_ptr_q <= rd_ptr_q + FifoW'(1);
        hold_q   <= fifo_head;
      end
      if (state_q == TRun || state_q == TDrain) begin
        count_q <= count_q + CntW'(push) - CntW'(pop);
        resv_q  <= resv_q + (a_issue ? CntW'(a_need) : '0) - CntW'(pop);
      end

      // ---- AW issuer
      if (a_issue) begin
        awvalid_q <= 1'b1;
        awaddr_q  <= a_addr;
        awlen_q   <= 8'(a_n - 22'd1);
        if (a_n == a_left) sp_a_q <= sp_a_q + (SegW+1)'(1);
        a_act_q  <= (a_n != a_left);
        a_addr_q <= a_addr + {22'd0, 5'(a_n), 5'd0};
        a_k_q    <= a_k0 + a_n;
        a_cum_q  <= a_cum1;
      end else if (awvalid_q && aw_ready_i) begin
        awvalid_q <= 1'b0;
      end
      b_outst_q <= b_outst_q + (CntW+1)'(awvalid_q && aw_ready_i) - (CntW+1)'(b_valid_i);

      // ---- W
      wq_q   <= wq_d;
      wq_n_q <= wq_n_d;
      if (pre_fire) pre_q <= 1'b1;
      if (w_fire) begin
        w_beat_q <= w_last_o ? 4'd0 : w_beat_q + 4'd1;
        if (w_seg_end) begin
          sp_d_q <= sp_d_q + (SegW+1)'(1);
          w_k_q  <= '0;
          pre_q  <= 1'b0;
        end else begin
          w_k_q <= w_k_q + 22'd1;
        end
      end
    end
  end

  logic unused;
  assign unused = ^{desc_w[0][15:13], desc_w[1][15:13], desc_w[1][2], r_seg.dst, r_seg.len[26:0],
                    a_seg.src[31:5], d_seg.src[31:5], d_seg.dst[31:5], dlo[65:64], mul_p[63:32] & 32'd0};
endmodule
