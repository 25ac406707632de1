// Tessera TPC core: executes 256-bit VLIW bundles (load, scalar, vector, store slots)
// from an instruction memory filled through imem_* (by the cluster or a testbench).
// One bundle at a time: one EXEC cycle when it has no tensor, float-unit or local-memory
// load (the next bundle is read from the instruction memory at its commit, and runs EXEC
// in the next cycle), DECODE first for an lds/ldv (the local memories read synchronously):
// every slot reads the register state before the bundle, errors are detected before
// anything is written (a faulting bundle changes no register or memory), then all enabled
// slots commit. A posted st.t's late error response is reported at the store's PC.
// Architecture: docs/tpc_isa.md; this implementation: docs/tpc_rtl.md.
module tessera_tpc_core #(
  parameter int unsigned ImemDepth = 1024,  // bundles
  parameter int unsigned SlmBytes  = 1024,
  parameter int unsigned VlmBytes  = 16384,
  parameter logic [31:0] MemBase   = 32'h8000_0000,  // device memory (BUS error outside)
  parameter logic [32:0] MemSize   = 33'h0_4000_0000,
  parameter int unsigned RegionBytes = 4096   // DECERR granule of device memory (TMU)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // instruction memory write port
  input  logic                         imem_we_i,
  input  logic [$clog2(ImemDepth)-1:0] imem_waddr_i,
  input  logic [255:0]                 imem_wdata_i,
  // launch (held stable while busy_o)
  input  logic                         start_i,
  input  logic                         bad_launch_i,  // cluster-level launch check failed
  input  logic [31:0]                  prog_len_i,    // bundles
  input  logic [3:0]                   ntensors_i,
  input  logic [7:0][511:0]            desc_i,        // 64-byte descriptor images
  input  logic [15:0][31:0]            sarg_i,
  input  logic [4:0][31:0]             slice_off_i,
  input  logic [4:0][31:0]             slice_len_i,
  input  logic [31:0]                  tpc_id_i,
  input  logic [31:0]                  ntpc_i,
  input  logic [31:0]                  rng_seed_i,
  input  logic [31:0]                  max_bundles_i, // 0: no limit; else TIMEOUT after this many
  input  logic                         cancel_i,       // stop before the next bundle (TIMEOUT)
  // status
  output logic                         busy_o,
  output logic                         done_o,        // one-cycle pulse: launch finished
  output logic [3:0]                   err_o,         // 0 = DONE, else TPC error code
  output logic [31:0]                  err_pc_o,
  output logic                         retire_o,      // one bundle retired this cycle
  output logic [31:0]                  pc_o,
  output logic [31:0]                  ld_bytes_o,    // tensor bytes of the retiring bundle
  output logic [31:0]                  st_bytes_o,
  output logic                         stall_mem_o,   // waiting for tensor read data
  output logic                         stall_st_o,    // waiting for a tensor store to be accepted
  // AXI4 master (tensor loads and stores)
  output tessera_bus_pkg::axi_req_t    mst_req_o,     // IDs 0, the upper ID bits zero
  input  tessera_bus_pkg::axi_rsp_t    mst_rsp_i
);
  localparam int unsigned IAW = $clog2(ImemDepth);
  localparam int unsigned SLW = SlmBytes / 4;
  localparam int unsigned SAW = $clog2(SLW);
  localparam int unsigned VLW = VlmBytes / 32;
  localparam int unsigned VAW = $clog2(VLW);

  localparam logic [3:0] ErrIllegal  = 4'd1;
  localparam logic [3:0] ErrPcRange  = 4'd2;
  localparam logic [3:0] ErrSlmRange = 4'd3;
  localparam logic [3:0] ErrVlmRange = 4'd4;
  localparam logic [3:0] ErrMisalign = 4'd5;
  localparam logic [3:0] ErrBadDesc  = 4'd6;
  localparam logic [3:0] ErrBus      = 4'd7;
  localparam logic [3:0] ErrWconf    = 4'd8;
  localparam logic [3:0] ErrTimeout  = 4'd9;
  localparam logic [3:0] ErrBadLaunch = 4'd10;

  // write-target kinds
  localparam logic [2:0] WkNone = 3'd0;
  localparam logic [2:0] WkS    = 3'd1;
  localparam logic [2:0] WkP    = 3'd2;
  localparam logic [2:0] WkVp   = 3'd3;
  localparam logic [2:0] WkV    = 3'd4;
  localparam logic [2:0] WkI    = 3'd5;

  typedef enum logic [3:0] {StIdle, StInit, StFetch, StDecode, StExec, StRseed, StTld, StTst, StFpu} state_e;
  state_e state_q, state_d;
  logic [31:0] pc_nx;  // next PC of a committing bundle (its fetch overlaps EXEC)
  logic        hold;   // EXEC waits for a posted store's write response (see control)
  logic        commit; // the bundle commits this cycle
  logic        ld_now, ld_tld, ld_hit, st_now, fp_now, wcont;  // see control
  logic        tmu_hit;
  logic [31:0] ret_n_q;  // bundles retired in this launch (for max_bundles_i)
  logic        tmo;      // bundle limit reached or cancel_i
  logic        tmo_now;  // stop before this bundle (EXEC)

  // ---------------------------------------------------------------- architectural state
  logic [31:0]       sreg_q  [32];
  logic [7:0]        preg_q;
  logic [31:0]       vpreg_q [8];
  logic [255:0]      vreg_q  [32];
  logic [4:0][31:0]  ireg_q  [8];
  logic [31:0]       rng_q   [8];
  logic [31:0]       pc_q;
  logic [3:0]        err_q;
  logic [31:0]       err_pc_q;
  logic [4:0]        cnt_q;          // init / reseed step
  logic              halt_q;         // halt in the bundle that started the reseed
  logic [255:0]      seed_src_q;     // vrseed source vector

  // ---------------------------------------------------------------- memories
  logic [255:0] imem [ImemDepth];
  logic [31:0]  slm  [SLW];
  logic [255:0] vlm  [VLW];
  logic [255:0] ibuf_q;
  logic [31:0]  slm_rd_q;
  logic [255:0] vlm_rd_q;

  always_ff @(posedge clk_i) begin
    if (imem_we_i) imem[imem_waddr_i] <= imem_wdata_i;
    if (state_q == StFetch) ibuf_q <= imem[pc_q[IAW-1:0]];
    else if (commit && state_d == StExec) ibuf_q <= imem[pc_nx[IAW-1:0]];
  end

  // ---------------------------------------------------------------- slot fields
  logic [63:0] w [4];
  logic [6:0]  id [4];
  logic [3:0]  legal;
  // lane-predicate flag of every slot; only the vector slot's is used until ld.t exists
  /* verilator lint_off UNUSEDSIGNAL */
  logic [3:0]  lpred;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3:0]  en;
  for (genvar s = 0; s < 4; s++) begin : g_dec
    assign w[s] = ibuf_q[64*s +: 64];
    tessera_tpc_dec u_dec (
      .slot_i(2'(s)), .insn_i(w[s]), .id_o(id[s]), .lanepred_o(lpred[s]), .legal_o(legal[s]));
  end

  logic [4:0] rd [4], ra [4], rb [4], rc [4];
  for (genvar s = 0; s < 4; s++) begin : g_fld
    assign rd[s] = w[s][20:16];
    assign ra[s] = w[s][25:21];
    assign rb[s] = w[s][30:26];
    assign rc[s] = w[s][35:31];
  end
  function automatic logic [31:0] f_imm(input logic [15:0] x);
    f_imm = {{16{x[15]}}, x};
  endfunction

  // Vector-slot instructions executed by the multi-cycle float unit (tessera_tpc_fpu):
  // FP32 vfma, narrow-float arithmetic and vredsum (except BF16 vadd/vsub), vcvt, the
  // special functions. The rest of the vector slot is the single-cycle tessera_tpc_valu.
  function automatic logic on_fpu(input logic [6:0] i, input logic [3:0] dt);
    unique case (i)
      tessera_tpc_isa_pkg::I_VCVT,
      tessera_tpc_isa_pkg::I_VEXP, tessera_tpc_isa_pkg::I_VLOG, tessera_tpc_isa_pkg::I_VRCP,
      tessera_tpc_isa_pkg::I_VRSQRT, tessera_tpc_isa_pkg::I_VSQRT, tessera_tpc_isa_pkg::I_VTANH,
      tessera_tpc_isa_pkg::I_VSIGM: on_fpu = 1'b1;
      tessera_tpc_isa_pkg::I_VADD, tessera_tpc_isa_pkg::I_VSUB:   // BF16: tessera_tpc_valu
        on_fpu = (dt >= 4'd2) && (dt <= 4'd4);
      tessera_tpc_isa_pkg::I_VMUL,
      tessera_tpc_isa_pkg::I_VREDSUM: on_fpu = (dt >= 4'd1) && (dt <= 4'd4);
      tessera_tpc_isa_pkg::I_VFMA: on_fpu = (dt <= 4'd4);
      default: on_fpu = 1'b0;
    endcase
  endfunction

  logic [3:0] ok;
  always_comb begin
    for (int s = 0; s < 4; s++) begin
      ok[s] = legal[s];
      en[s] = (w[s][7:0] != 8'd0) && (preg_q[w[s][10:8]] ^ w[s][11]);
    end
  end

  // ---------------------------------------------------------------- descriptors (tdim)
  function automatic logic [3:0] esize(input logic [3:0] dt);
    unique case (dt)
      4'd0, 4'd5, 4'd8:       esize = 4'd4;
      4'd1, 4'd2, 4'd6, 4'd9: esize = 4'd2;
      default:                esize = 4'd1;
    endcase
  endfunction

  function automatic logic desc_bad(input logic [511:0] img, input logic [4:0] t,
                                     input logic [3:0] ntens);
    logic bad;
    bad = ({1'b0, t} >= {2'b0, ntens}) || (img[35:32] > 4'd10) || (img[38:36] == 3'd0) ||
          (img[38:36] > 3'd5) || ((img[31:0] & (32'(esize(img[35:32])) - 32'd1)) != 32'd0);
    for (int d = 0; d < 5; d++)
      if (3'(d) < img[38:36] && (img[96 + 32*d +: 32] == 32'd0 || img[96 + 32*d +: 32] > 32'h0100_0000))
        bad = 1'b1;
    desc_bad = bad;
  endfunction

  logic [511:0] tdesc, ldesc, sdesc;
  logic         tdesc_bad, ldesc_bad, sdesc_bad;
  logic [31:0]  tdim_val;
  always_comb begin
    tdesc = desc_i[rc[1][2:0]];
    ldesc = desc_i[rc[0][2:0]];
    sdesc = desc_i[rc[3][2:0]];
    tdesc_bad = desc_bad(tdesc, rc[1], ntensors_i);
    ldesc_bad = desc_bad(ldesc, rc[0], ntensors_i);
    sdesc_bad = desc_bad(sdesc, rc[3], ntensors_i);
    tdim_val = 32'd1;
    for (int d = 0; d < 5; d++)
      if (rb[1] == 5'(d) && 3'(d) < tdesc[38:36]) tdim_val = tdesc[96 + 32*d +: 32];
  end

  // ---------------------------------------------------------------- index-register op
  // (flat 160-bit vectors: Yosys rejects multi-dimensional packed function arguments)
  function automatic logic [159:0] ix_op(input logic [6:0] i, input logic [2:0] dim,
                                         input logic [31:0] imm, input logic [159:0] old_d,
                                         input logic [159:0] src_a, input logic [31:0] sa);
    logic [159:0] r;
    r = old_d;
    unique case (i)
      tessera_tpc_isa_pkg::I_IXSET:  r[32*dim +: 32] = sa;
      tessera_tpc_isa_pkg::I_IXADDI: r[32*dim +: 32] = old_d[32*dim +: 32] + imm;
      tessera_tpc_isa_pkg::I_IXADD:  r[32*dim +: 32] = old_d[32*dim +: 32] + sa;
      default:                       r = src_a;
    endcase
    ix_op = r;
  endfunction

  function automatic logic is_ix(input logic [6:0] i);
    is_ix = (i == tessera_tpc_isa_pkg::I_IXSET) || (i == tessera_tpc_isa_pkg::I_IXADDI) ||
            (i == tessera_tpc_isa_pkg::I_IXADD) || (i == tessera_tpc_isa_pkg::I_IXMOV);
  endfunction

  // ---------------------------------------------------------------- local-memory addresses
  logic [31:0] la, sa3;       // load-slot and store-slot byte addresses
  assign la  = sreg_q[ra[0]] + f_imm(w[0][63:48]);
  assign sa3 = sreg_q[ra[3]] + f_imm(w[3][63:48]);

  always_ff @(posedge clk_i) begin
    if (state_q == StDecode) begin
      slm_rd_q <= slm[la[SAW+1:2]];
      vlm_rd_q <= vlm[la[VAW+4:5]];
    end
  end

  // ---------------------------------------------------------------- tensor memory unit
  logic         tld_done_q, tst_done_q, tbus_q;
  logic [31:0]  ld_bytes_q, st_bytes_q;
  logic [31:0]  ret_ldb_q, ret_stb_q;  // byte counts of the bundle retire_o reports
  logic         lm_done_q, need_lm;    // the load slot's local-memory read (DECODE) is done
  logic [255:0] ld_vec_q;
  logic         need_ld, need_st, tmu_start, tmu_store, tmu_done, tmu_err;
  localparam int unsigned NumPosted = tessera_cfg_pkg::TpcPostedStores;  // posted stores in flight (TMU)
  logic         tmu_idle, tmu_wr_err, end_hold, lm_hold;
  logic [$clog2(NumPosted)-1:0] tmu_wr_err_age;
  // PCs of the last st.t's done without error, youngest first (the posted stores' PCs)
  logic [NumPosted-1:0][31:0] pst_pc_q;
  logic [255:0] tmu_vres;
  logic [31:0]  tmu_bytes, tmu_mask;

  // ---------------------------------------------------------------- per-slot results
  logic [2:0]   wk  [4];      // write kind
  logic [4:0]   wi  [4];      // register number
  logic [255:0] wv  [4];      // value (S/VP: [31:0], P: [0], I: [159:0], V: all)
  logic [3:0]   serr [4];     // slot's own error
  logic         br_taken, br_bnzd, halt;
  logic [31:0]  br_tgt;
  logic         slm_we, vlm_we;
  logic         rand_we, rseed;
  logic [31:0]  rand_mask;

  // load slot
  always_comb begin
    wk[0] = WkNone; wi[0] = rd[0]; wv[0] = '0; serr[0] = 4'd0;
    unique case (id[0])
      tessera_tpc_isa_pkg::I_LD_T: begin
        // (a hit in EXEC, ld_hit, is written from tmu_vres at the commit below: this block's
        // errors must not depend on the TMU's start)
        wk[0] = WkV; wv[0] = ld_tld ? tmu_vres : ld_vec_q;
        if (ldesc_bad) serr[0] = ErrBadDesc;
        else if (tbus_q || (ld_tld && tmu_err)) serr[0] = ErrBus;
      end
      tessera_tpc_isa_pkg::I_LDV: begin
        wk[0] = WkV; wv[0] = vlm_rd_q;
        if (la[4:0] != 5'd0) serr[0] = ErrMisalign;
        else if (la > 32'(VlmBytes - 32)) serr[0] = ErrVlmRange;
      end
      tessera_tpc_isa_pkg::I_LDS: begin
        wk[0] = WkS; wv[0] = {224'd0, slm_rd_q};
        if (la[1:0] != 2'd0) serr[0] = ErrMisalign;
        else if (la > 32'(SlmBytes - 4)) serr[0] = ErrSlmRange;
      end
      default: begin
        if (is_ix(id[0])) begin
          wk[0] = WkI;
          wv[0] = {96'd0, ix_op(id[0], rb[0][2:0], f_imm(w[0][63:48]),
                                ireg_q[rd[0][2:0]], ireg_q[ra[0][2:0]],
                                sreg_q[ra[0]])};
        end
      end
    endcase
  end

  // scalar slot
  always_comb begin
    logic [31:0] a, b, imm, r, i32;
    logic [2:0]  cc;
    logic        c, lt, ltu, eq;
    logic [2:0]  dim;
    a = sreg_q[ra[1]];
    b = sreg_q[rb[1]];
    imm = f_imm(w[1][63:48]);
    i32 = w[1][63:32];
    cc = w[1][42:40];
    dim = rb[1][2:0];
    wk[1] = WkS; wi[1] = rd[1]; wv[1] = '0; serr[1] = 4'd0; r = 32'd0;
    br_taken = 1'b0; br_bnzd = 1'b0; br_tgt = i32; halt = 1'b0;
    // compares (b = sb or imm)
    if (id[1] == tessera_tpc_isa_pkg::I_CMPI) b = imm;
    eq = (a == b);
    lt = $signed(a) < $signed(b);
    ltu = a < b;
    unique case (cc)
      3'd0: c = eq;
      3'd1: c = !eq;
      3'd2: c = lt;
      3'd3: c = lt || eq;
      3'd4: c = !(lt || eq);
      3'd5: c = !lt;
      3'd6: c = ltu;
      default: c = !ltu;
    endcase
    b = sreg_q[rb[1]];
    unique case (id[1])
      tessera_tpc_isa_pkg::I_ADD:  r = a + b;
      tessera_tpc_isa_pkg::I_SUB:  r = a - b;
      tessera_tpc_isa_pkg::I_MUL:  r = a * b;
      tessera_tpc_isa_pkg::I_AND:  r = a & b;
      tessera_tpc_isa_pkg::I_OR:   r = a | b;
      tessera_tpc_isa_pkg::I_XOR:  r = a ^ b;
      tessera_tpc_isa_pkg::I_SLL:  r = a << b[4:0];
      tessera_tpc_isa_pkg::I_SRL:  r = a >> b[4:0];
      tessera_tpc_isa_pkg::I_SRA:  r = $signed(a) >>> b[4:0];
      tessera_tpc_isa_pkg::I_MIN:  r = ($signed(a) < $signed(b)) ? a : b;
      tessera_tpc_isa_pkg::I_MAX:  r = ($signed(a) > $signed(b)) ? a : b;
      tessera_tpc_isa_pkg::I_MINU: r = (a < b) ? a : b;
      tessera_tpc_isa_pkg::I_MAXU: r = (a > b) ? a : b;
      tessera_tpc_isa_pkg::I_ADDI: r = a + imm;
      tessera_tpc_isa_pkg::I_ANDI: r = a & imm;
      tessera_tpc_isa_pkg::I_ORI:  r = a | imm;
      tessera_tpc_isa_pkg::I_XORI: r = a ^ imm;
      tessera_tpc_isa_pkg::I_SLLI: r = a << imm[4:0];
      tessera_tpc_isa_pkg::I_SRLI: r = a >> imm[4:0];
      tessera_tpc_isa_pkg::I_SRAI: r = $signed(a) >>> imm[4:0];
      tessera_tpc_isa_pkg::I_MULI: r = a * imm;
      tessera_tpc_isa_pkg::I_LI:   r = i32;
      tessera_tpc_isa_pkg::I_CMP, tessera_tpc_isa_pkg::I_CMPI: begin
        wk[1] = WkP; r = {31'd0, c};
      end
      tessera_tpc_isa_pkg::I_PAND: begin wk[1] = WkP; r = {31'd0, preg_q[ra[1][2:0]] & preg_q[rb[1][2:0]]}; end
      tessera_tpc_isa_pkg::I_POR:  begin wk[1] = WkP; r = {31'd0, preg_q[ra[1][2:0]] | preg_q[rb[1][2:0]]}; end
      tessera_tpc_isa_pkg::I_PXOR: begin wk[1] = WkP; r = {31'd0, preg_q[ra[1][2:0]] ^ preg_q[rb[1][2:0]]}; end
      tessera_tpc_isa_pkg::I_PNOT: begin wk[1] = WkP; r = {31'd0, !preg_q[ra[1][2:0]]}; end
      tessera_tpc_isa_pkg::I_BR: begin
        wk[1] = WkNone; br_taken = 1'b1;
      end
      tessera_tpc_isa_pkg::I_BNZD: begin
        r = sreg_q[rd[1]] - 32'd1;
        br_bnzd = 1'b1;
        br_taken = (r != 32'd0);
      end
      tessera_tpc_isa_pkg::I_HALT: begin wk[1] = WkNone; halt = 1'b1; end
      tessera_tpc_isa_pkg::I_QOFF:  r = slice_off_i[dim];
      tessera_tpc_isa_pkg::I_QSIZE: r = slice_len_i[dim];
      tessera_tpc_isa_pkg::I_TPCID: r = tpc_id_i;
      tessera_tpc_isa_pkg::I_NTPC:  r = ntpc_i;
      tessera_tpc_isa_pkg::I_TDIM: begin
        r = tdim_val;
        if (tdesc_bad) serr[1] = ErrBadDesc;
      end
      tessera_tpc_isa_pkg::I_IXGET: r = ireg_q[ra[1][2:0]][dim];
      default: begin
        if (is_ix(id[1])) begin
          wk[1] = WkI;
          wv[1] = {96'd0, ix_op(id[1], rb[1][2:0], f_imm(w[1][63:48]),
                                ireg_q[rd[1][2:0]], ireg_q[ra[1][2:0]],
                                sreg_q[ra[1]])};
        end else begin
          wk[1] = WkNone;
        end
      end
    endcase
    if (wk[1] != WkI) wv[1] = {224'd0, r};
    if (br_taken && i32 >= prog_len_i) serr[1] = ErrPcRange;
  end

  // vector slot
  logic [255:0] vsb, vres;
  logic [31:0]  vmask, vpres, vsres;
  logic         bsc;
  always_comb begin
    bsc = w[2][47] && (id[2] != tessera_tpc_isa_pkg::I_VCVT);
    unique case (w[2][15:12])
      4'd0, 4'd5, 4'd8:       vsb = {8{sreg_q[rb[2]]}};
      4'd1, 4'd2, 4'd6, 4'd9: vsb = {16{sreg_q[rb[2]][15:0]}};
      default:                vsb = {32{sreg_q[rb[2]][7:0]}};
    endcase
    if (!bsc) vsb = vreg_q[rb[2]];
    vmask = lpred[2] ? (vpreg_q[w[2][38:36]] ^ {32{w[2][39]}}) : 32'hffff_ffff;
  end

  tessera_tpc_valu u_valu (
    .id_i(id[2]), .dt_i(w[2][15:12]), .sat_i(w[2][46]), .cc_i(w[2][42:40]), .lane_i(rb[2]),
    .va_i(vreg_q[ra[2]]), .vb_i(vsb), .vc_i(vreg_q[rc[2]]),
    .vd_i(vreg_q[rd[2]]), .mask_i(vmask), .sel_i(vpreg_q[rc[2][2:0]]),
    .vpd_i(vpreg_q[rd[2][2:0]]), .sa_i(sreg_q[ra[2]]),
    .vd_o(vres), .vpd_o(vpres), .sd_o(vsres));

  // multi-cycle float unit (runs in StFpu before the bundle commits)
  logic         fpu_done, fp_done_q, need_fp, fpu_vec;
  logic [255:0] fpu_vd, fpu_rng, rng_flat;
  logic [7:0]   fpu_rng_we;
  assign fpu_vec = on_fpu(id[2], w[2][15:12]);
  always_comb for (int k = 0; k < 8; k++) rng_flat[32*k +: 32] = rng_q[k];
  tessera_tpc_fpu u_fpu (
    .clk_i, .rst_ni, .start_i((state_q == StExec) && !tmu_wr_err && !tmo_now && !need_lm && !need_ld && need_fp),
    .id_i(id[2]), .dt_i(w[2][15:12]), .fn_i(w[2][47:40]),
    .va_i(vreg_q[ra[2]]), .vb_i(vsb), .vc_i(vreg_q[rc[2]]), .vd_i(vreg_q[rd[2]]),
    .mask_i(vmask), .rng_i(rng_flat),
    .done_o(fpu_done), .vd_o(fpu_vd), .rng_o(fpu_rng), .rng_we_o(fpu_rng_we));

  always_comb begin
    logic [255:0] rv;
    wk[2] = WkV; wi[2] = rd[2]; wv[2] = vres; serr[2] = 4'd0;
    rand_we = 1'b0; rseed = 1'b0; rand_mask = vmask;
    rv = vreg_q[rd[2]];
    for (int k = 0; k < 8; k++)
      if (vmask[k]) rv[32*k +: 32] = tessera_tpc_sfu_pkg::xorshift32(rng_q[k]);
    unique case (id[2])
      tessera_tpc_isa_pkg::I_VCMP: begin wk[2] = WkVp; wv[2] = {224'd0, vpres}; end
      tessera_tpc_isa_pkg::I_VEXT: begin wk[2] = WkS; wv[2] = {224'd0, vsres}; end
      tessera_tpc_isa_pkg::I_VPAND: begin wk[2] = WkVp; wv[2] = {224'd0, vpreg_q[ra[2][2:0]] & vpreg_q[rb[2][2:0]]}; end
      tessera_tpc_isa_pkg::I_VPOR:  begin wk[2] = WkVp; wv[2] = {224'd0, vpreg_q[ra[2][2:0]] | vpreg_q[rb[2][2:0]]}; end
      tessera_tpc_isa_pkg::I_VPNOT: begin wk[2] = WkVp; wv[2] = {224'd0, ~vpreg_q[ra[2][2:0]]}; end
      tessera_tpc_isa_pkg::I_VPFROMS: begin wk[2] = WkVp; wv[2] = {224'd0, sreg_q[ra[2]]}; end
      tessera_tpc_isa_pkg::I_VPTOS: begin wk[2] = WkS; wv[2] = {224'd0, vpreg_q[ra[2][2:0]]}; end
      tessera_tpc_isa_pkg::I_VRAND: begin wv[2] = rv; rand_we = 1'b1; end
      tessera_tpc_isa_pkg::I_VRSEED: begin wk[2] = WkNone; rseed = 1'b1; end
      default: if (fpu_vec) wv[2] = fpu_vd;
    endcase
  end

  // store slot
  always_comb begin
    wk[3] = WkNone; wi[3] = rd[3]; wv[3] = '0; serr[3] = 4'd0;
    slm_we = 1'b0; vlm_we = 1'b0;
    unique case (id[3])
      tessera_tpc_isa_pkg::I_ST_T: begin
        if (sdesc_bad) serr[3] = ErrBadDesc;
      end
      tessera_tpc_isa_pkg::I_STV: begin
        vlm_we = 1'b1;
        if (sa3[4:0] != 5'd0) serr[3] = ErrMisalign;
        else if (sa3 > 32'(VlmBytes - 32)) serr[3] = ErrVlmRange;
      end
      tessera_tpc_isa_pkg::I_STS: begin
        slm_we = 1'b1;
        if (sa3[1:0] != 2'd0) serr[3] = ErrMisalign;
        else if (sa3 > 32'(SlmBytes - 4)) serr[3] = ErrSlmRange;
      end
      default: begin
        if (is_ix(id[3])) begin
          wk[3] = WkI;
          wv[3] = {96'd0, ix_op(id[3], rb[3][2:0], f_imm(w[3][63:48]),
                                ireg_q[rd[3][2:0]], ireg_q[ra[3][2:0]],
                                sreg_q[ra[3]])};
        end
      end
    endcase
  end

  // ---------------------------------------------------------------- bundle error
  logic [3:0] berr;
  logic [3:0] wact;           // slot writes a real register (not s0/p0/vp0)
  always_comb begin
    logic conflict;
    conflict = 1'b0;
    for (int s = 0; s < 4; s++)
      wact[s] = en[s] && (wk[s] != WkNone) &&
                !((wk[s] == WkS || wk[s] == WkP || wk[s] == WkVp) && wi[s] == 5'd0);
    berr = 4'd0;
    if (ok != 4'hf) begin
      berr = ErrIllegal;
    end else begin
      for (int s = 3; s >= 0; s--) begin
        conflict = 1'b0;
        for (int j = 0; j < s; j++)
          if (wact[j] && wact[s] && wk[j] == wk[s] && wi[j] == wi[s]) conflict = 1'b1;
        if (en[s]) begin
          if (s == 1 && br_bnzd && conflict) berr = ErrWconf;
          else if (serr[s] != 4'd0) berr = serr[s];
          else if (conflict) berr = ErrWconf;
        end
      end
    end
  end

  // ---------------------------------------------------------------- mix32 (launch, vrseed)
  function automatic logic [31:0] mix32(input logic [31:0] x0);
    logic [31:0] x;
    x = x0 + 32'h9e37_79b9;
    x = (x ^ (x >> 16)) * 32'h85eb_ca6b;
    x = (x ^ (x >> 13)) * 32'hc2b2_ae35;
    x = x ^ (x >> 16);
    mix32 = (x == 32'd0) ? 32'h6d2b_79f5 : x;
  endfunction
  logic [31:0] mix_in, mix_out;
  assign mix_in  = (state_q == StInit) ? (rng_seed_i + (tpc_id_i << 3) + 32'(cnt_q[2:0]))
                                       : seed_src_q[32*cnt_q[2:0] +: 32];
  assign mix_out = mix32(mix_in);

  // ---------------------------------------------------------------- control
  assign pc_nx = (en[1] && br_taken) ? br_tgt : pc_q + 32'd1;
  // Precise store errors (docs/tpc_rtl.md): a posted st.t's write response may arrive while
  // later bundles run. Nothing those bundles do may outlive the error: the launch ends
  // (done_o) only when the TMU has no response outstanding (end_hold), a bundle that writes
  // a local memory waits for it too (lm_hold), no tensor access starts behind a failed one
  // (the TMU's write channels wait for the response), and once tmu_wr_err is set the next
  // bundle does not execute: the TPC stops with BUS at the posted store's PC (pst_pc_q).
  assign end_hold = (state_q != StIdle) && (state_q != StInit) && (state_d == StIdle) && !tmu_idle;
  assign lm_hold  = (state_q == StExec) && !need_lm && (berr == 4'd0) && !need_ld && !need_fp && !need_st &&
                    en[3] && (slm_we || vlm_we) && !tmu_idle;
  assign hold     = end_hold || lm_hold;
  // Bundle limit and cancel (CTRL.cancel): checked in EXEC before the bundle starts a unit,
  // and in FETCH (before PC_RANGE, as the C model stops at its limit before the next step).
  // A bundle whose st.t has been issued always commits. A bundle already in a tensor load,
  // a float op or a local-memory read when cancel_i rises finishes that step and then either
  // commits (it continues straight to the next bundle) or comes back to EXEC and is dropped;
  // either way the TPC stops before the following bundle. With the limit the count is that
  // of the bundle's first EXEC cycle (ret_n_q moves with retire_o), so it stops before any
  // unit starts, as the C model does.
  assign tmo      = cancel_i || (max_bundles_i != 32'd0 && ret_n_q >= max_bundles_i);
  assign tmo_now  = (state_q == StExec) && !tst_done_q && tmo;
  // A bundle also commits in the cycle its last tensor access or float op ends (ld_now,
  // st_now, fp_now: that unit's result is used directly) when it just continues with the
  // next bundle (no halt, vrseed or PC_RANGE fetch) and does not write a local memory
  // behind a posted store (lm_hold); any other case returns to EXEC first.
  // A fast ld.t whose block(s) are buffered is done in EXEC itself (ld_hit: the TMU's
  // hit_o in its start cycle), so such a bundle takes one cycle; with a st.t it goes through
  // EXEC once more to start the store
  assign ld_tld  = (state_q == StTld) && tmu_done;
  assign ld_hit  = (state_q == StExec) && tmu_hit;
  assign ld_now  = ld_tld || ld_hit;
  assign st_now  = (state_q == StTst) && tmu_done && !tmu_err;
  assign fp_now  = (state_q == StFpu) && fpu_done;
  assign wcont   = !(halt && en[1]) && !(rseed && en[2]) && (pc_nx < prog_len_i) &&
                   !(en[3] && (slm_we || vlm_we) && !tmu_idle);
  assign commit = (((state_q == StExec) && !hold && !tmo_now) || ((ld_now || st_now || fp_now) && wcont)) &&
                  !need_lm && (berr == 4'd0) && !need_ld && !need_fp && !need_st && !tmu_wr_err;
  assign need_fp = (ok == 4'hf) && en[2] && fpu_vec && !fp_done_q && !fp_now;
  // lds / ldv: the local memories are read in DECODE (from the committed scalar registers),
  // so a bundle reached straight from the previous one's EXEC goes through DECODE first
  assign need_lm = en[0] && !lm_done_q && ((id[0] == tessera_tpc_isa_pkg::I_LDV) ||
                                           (id[0] == tessera_tpc_isa_pkg::I_LDS));

  // ld.t runs before the bundle's error check (its BUS error has the highest priority and a
  // load has no side effect); st.t runs after it (every other slot is error free)
  // need_ld0: the load is not done yet (it selects the TMU's operands, held in StTld)
  logic need_ld0;
  // (pf.t goes through the TMU like a load, one TMU cycle, and writes nothing; with a bad
  // descriptor it does nothing)
  logic is_pf;
  assign is_pf    = (id[0] == tessera_tpc_isa_pkg::I_PF_T);
  assign need_ld0 = (ok == 4'hf) && en[0] && ((id[0] == tessera_tpc_isa_pkg::I_LD_T) || is_pf) &&
                    !ldesc_bad && !tld_done_q;
  assign need_ld  = need_ld0 && !ld_now;
  assign need_st = en[3] && (id[3] == tessera_tpc_isa_pkg::I_ST_T) && !sdesc_bad && !tst_done_q &&
                   !st_now;
  // (need_ld0, not need_ld: in EXEC they differ only by ld_hit, which this start causes)
  assign tmu_start = (state_q == StExec) && !tmu_wr_err && !tmo_now && !need_lm &&
                     (need_ld0 || (!need_fp && berr == 4'd0 && need_st));
  assign tmu_store = !need_ld0;
  assign tmu_mask  = need_ld0 ? (vpreg_q[w[0][38:36]] ^ {32{w[0][39]}})
                             : (vpreg_q[w[3][38:36]] ^ {32{w[3][39]}});

  tessera_tpc_tmu #(.MemBase(MemBase), .MemSize(MemSize), .RegionBytes(RegionBytes),
                    .NumPosted(NumPosted)) u_tmu (
    .clk_i, .rst_ni,
    .flush_i(start_i && state_q == StIdle), .start_i(tmu_start), .store_i(tmu_store),
    .pf_i(need_ld0 && is_pf),
    .desc_i(tmu_store ? sdesc : ldesc),
    .coord_i(tmu_store ? ireg_q[ra[3][2:0]] : ireg_q[ra[0][2:0]]),
    .mask_i(tmu_mask),
    .vin_i(tmu_store ? vreg_q[rb[3]] : vreg_q[rd[0]]),
    .done_o(tmu_done), .hit_o(tmu_hit), .bus_err_o(tmu_err), .vres_o(tmu_vres), .bytes_o(tmu_bytes),
    .rd_wait_o(stall_mem_o), .idle_o(tmu_idle), .wr_err_o(tmu_wr_err),
    .wr_err_age_o(tmu_wr_err_age),
    .mst_req_o, .mst_rsp_i);

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:   if (start_i) state_d = (bad_launch_i || prog_len_i == 32'd0 ||
                                        prog_len_i > 32'(ImemDepth) || ntensors_i > 4'd8)
                                       ? StIdle : StInit;
      StInit:   if (cnt_q == 5'd15) state_d = StFetch;
      StFetch:  state_d = (tmo || pc_q >= prog_len_i) ? StIdle : StDecode;
      StDecode: state_d = StExec;
      StExec:   begin
        if (tmu_wr_err) state_d = StIdle;  // a posted store failed: stop at its PC
        else if (tmo_now) state_d = StIdle;  // bundle limit or cancel: stop at this PC
        else if (need_lm) state_d = StDecode;
        else if (need_ld) state_d = StTld;
        else if (need_fp) state_d = StFpu;
        else if (berr != 4'd0) state_d = StIdle;
        else if (need_st && ld_hit) state_d = StExec;  // the store starts in the next EXEC
        else if (need_st) state_d = StTst;
        else if (rseed && en[2]) state_d = StRseed;
        else if (halt && en[1]) state_d = StIdle;
        else state_d = (pc_nx < prog_len_i) ? StExec : StFetch;  // fetched here, or PC_RANGE
      end
      StTld:    if (tmu_done) state_d = StExec;
      StFpu:    if (fpu_done) state_d = StExec;
      StTst:    if (tmu_done) state_d = tmu_err ? StIdle : StExec;
      StRseed:  if (cnt_q == 5'd7) state_d = halt_q ? StIdle : StFetch;
      default:  state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      pc_q     <= '0;
      err_q    <= '0;
      err_pc_q <= '0;
      pst_pc_q <= '0;
      cnt_q    <= '0;
      ret_n_q  <= '0;
      halt_q   <= 1'b0;
      done_o   <= 1'b0;
      tld_done_q <= 1'b0;
      tst_done_q <= 1'b0;
      fp_done_q <= 1'b0;
      tbus_q   <= 1'b0;
      ld_bytes_q <= '0;
      st_bytes_q <= '0;
      ret_ldb_q <= '0;
      ret_stb_q <= '0;
      lm_done_q <= 1'b0;
      retire_o <= 1'b0;
      seed_src_q <= '0;
      ld_vec_q <= '0;
      preg_q   <= 8'h01;
      for (int i = 0; i < 32; i++) begin
        sreg_q[i] <= '0;
        vreg_q[i] <= '0;
      end
      for (int i = 0; i < 8; i++) begin
        vpreg_q[i] <= (i == 0) ? 32'hffff_ffff : 32'd0;
        ireg_q[i]  <= '0;
        rng_q[i]   <= '0;
      end
    end else if (hold) begin  // wait for the TMU's write response
      done_o   <= 1'b0;
      retire_o <= 1'b0;
    end else begin
      state_q  <= state_d;
      done_o   <= 1'b0;
      retire_o <= 1'b0;
      unique case (state_q)
        StIdle: begin
          if (start_i) begin
            pc_q <= '0;
            cnt_q <= '0;
            ret_n_q <= '0;
            err_pc_q <= '0;
            err_q <= 4'd0;
            preg_q <= 8'h01;
            for (int i = 0; i < 32; i++) begin
              sreg_q[i] <= '0;
              vreg_q[i] <= '0;
            end
            for (int i = 0; i < 8; i++) begin
              vpreg_q[i] <= (i == 0) ? 32'hffff_ffff : 32'd0;
              ireg_q[i]  <= '0;
            end
            if (state_d == StIdle) begin
              err_q  <= ErrBadLaunch;
              done_o <= 1'b1;
            end
          end
        end
        StInit: begin
          cnt_q <= cnt_q + 5'd1;
          if (cnt_q < 5'd8) rng_q[cnt_q[2:0]] <= mix_out;
          if (state_d == StFetch) cnt_q <= '0;
        end
        StTld: begin
          if (tmu_done) begin
            tld_done_q <= 1'b1;
            tbus_q <= tmu_err;
            ld_bytes_q <= tmu_bytes;
            ld_vec_q <= tmu_vres;
          end
        end
        StTst: begin
          if (tmu_done) begin
            tst_done_q <= 1'b1;
            st_bytes_q <= tmu_bytes;
            if (!tmu_err && !tmu_wr_err) begin
              for (int i = NumPosted - 1; i > 0; i--) pst_pc_q[i] <= pst_pc_q[i-1];
              pst_pc_q[0] <= pc_q;
            end
            if (tmu_err) begin
              err_q    <= ErrBus;
              err_pc_q <= pc_q;
              done_o   <= 1'b1;
            end
          end
        end
        StFpu: if (fpu_done) fp_done_q <= 1'b1;
        StDecode: lm_done_q <= 1'b1;  // (slm_rd_q / vlm_rd_q are read in this cycle)
        StFetch: begin
          if (tmo) begin  // before PC_RANGE: the model stops at the limit before its next step
            err_q    <= ErrTimeout;
            err_pc_q <= pc_q;
            done_o   <= 1'b1;
          end else if (pc_q >= prog_len_i) begin
            err_q    <= ErrPcRange;
            err_pc_q <= pc_q;
            done_o   <= 1'b1;
          end
        end
        StExec: begin
          if (ld_hit) begin  // the load's result, for a bundle that does not commit now
            tld_done_q <= 1'b1;
            tbus_q <= 1'b0;
            ld_bytes_q <= tmu_bytes;
            ld_vec_q <= tmu_vres;
          end
          if (tmu_wr_err) begin
            // stop without executing this bundle (error and PC set below)
          end else if (tmo_now) begin
            err_q    <= ErrTimeout;
            err_pc_q <= pc_q;
            done_o   <= 1'b1;
          end else if (need_lm || need_ld || need_fp || (berr == 4'd0 && need_st)) begin
            // local-memory read (StDecode), tensor access (StTld / StTst) or float unit
            // (StFpu) first, then this state again
          end else if (berr != 4'd0) begin
            err_q    <= berr;
            err_pc_q <= pc_q;
            done_o   <= 1'b1;
          end
          // else: the bundle commits (below)
        end
        StRseed: begin
          rng_q[cnt_q[2:0]] <= mix_out;
          cnt_q <= (cnt_q == 5'd7) ? 5'd0 : cnt_q + 5'd1;
          if (cnt_q == 5'd7) begin
            retire_o <= 1'b1;
            ret_n_q  <= ret_n_q + 32'd1;
            done_o   <= halt_q;
          end
        end
        default: ;
      endcase
      // a bundle's progress flags start clear: at its fetch, and for the next bundle at
      // this one's commit (overriding the flags a unit state set above in that cycle)
      if (state_q == StFetch || commit) begin
        tld_done_q <= 1'b0;
        tst_done_q <= 1'b0;
        fp_done_q <= 1'b0;
        tbus_q <= 1'b0;
        ld_bytes_q <= '0;
        st_bytes_q <= '0;
        lm_done_q <= 1'b0;
      end
      // the bundle commits: in EXEC, or in the cycle its tensor access / float op ends
      if (commit) begin
        retire_o <= !(en[2] && rseed);
        if (!(en[2] && rseed)) ret_n_q <= ret_n_q + 32'd1;
        ret_ldb_q <= ld_now ? tmu_bytes : ld_bytes_q;
        ret_stb_q <= st_now ? tmu_bytes : st_bytes_q;
        for (int s = 0; s < 4; s++) begin
          if (wact[s]) begin
            unique case (wk[s])
              WkS:  sreg_q[wi[s]] <= wv[s][31:0];
              WkP:  preg_q[wi[s][2:0]] <= wv[s][0];
              WkVp: vpreg_q[wi[s][2:0]] <= wv[s][31:0];
              WkV:  vreg_q[wi[s]] <= (s == 0 && ld_hit) ? tmu_vres : wv[s];
              WkI:  ireg_q[wi[s][2:0]] <= wv[s][159:0];
              default: ;
            endcase
          end
        end
        if (en[2] && rand_we)
          for (int k = 0; k < 8; k++)
            if (rand_mask[k]) rng_q[k] <= wv[2][32*k +: 32];
        if (en[2] && fpu_vec)
          for (int k = 0; k < 8; k++)
            if (fpu_rng_we[k]) rng_q[k] <= fpu_rng[32*k +: 32];
        if (en[2] && rseed) begin
          seed_src_q <= vreg_q[ra[2]];
          cnt_q <= '0;
        end
        pc_q <= pc_nx;
        halt_q <= halt && en[1];
        if (halt && en[1] && !(en[2] && rseed)) done_o <= 1'b1;
      end
      // every way to stop (error, halt, PC_RANGE) reports a posted store's failure first:
      // it is the earliest fault in program order
      if (state_q != StIdle && state_q != StInit && state_d == StIdle && tmu_wr_err) begin
        err_q    <= ErrBus;
        err_pc_q <= pst_pc_q[tmu_wr_err_age];
        done_o   <= 1'b1;
      end
    end
  end

  // local memories: launch arguments into SLM[0..63] during StInit; stores in StExec
  always_ff @(posedge clk_i) begin
    if (state_q == StInit)
      slm[SAW'(cnt_q[3:0])] <= sarg_i[cnt_q[3:0]];
    else if (commit && en[3] && slm_we)
      slm[sa3[SAW+1:2]] <= sreg_q[rb[3]];
    if (commit && en[3] && vlm_we)
      vlm[sa3[VAW+4:5]] <= vreg_q[rb[3]];
  end

  assign busy_o   = (state_q != StIdle);
  assign stall_st_o = (state_q == StTst) && !tmu_done;
  assign err_o    = err_q;
  assign err_pc_o = err_pc_q;
  assign pc_o     = pc_q;
  assign ld_bytes_o = ret_ldb_q;
  assign st_bytes_o = ret_stb_q;
endmodule
