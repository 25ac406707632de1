// TPC multi-cycle float unit of the vector slot: eight FP32 fused multiply-add lanes
// (tessera_tpc_ffma) shared by
//   * narrow-float (BF16/FP16/E4M3/E5M2) vadd/vsub/vmul/vfma and FP32 vfma: operands
//     widened exactly to FP32, one FP32 FMA (add = a*1+b, sub = a*1-b, mul = a*b-0),
//     result rounded once to the lane type (RNE, .sat for FP8): 8 elements per cycle;
//   * narrow-float vredsum: widened lanes, the halving tree of FP32 adds, one rounding;
//   * vcvt (every type pair, parts, .sat, .sr): 8 elements per cycle;
//   * the special functions (vexp vlog vrcp vrsqrt vsqrt vtanh vsigm): a fixed microcode
//     sequence per function, one FP32 operation per cycle in every lane, that is the
//     C model's algorithm (tests/tpc/tpc_sfu.c) step for step.
// Operands are read combinationally from the core, which holds the bundle until done_o.
// The result vector (disabled lanes keep vd) and the RNG update of vcvt .sr stay in
// registers until the next start. See docs/tpc_rtl.md.
module tessera_tpc_fpu (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  input  logic [6:0]   id_i,
  input  logic [3:0]   dt_i,
  input  logic [7:0]   fn_i,
  input  logic [255:0] va_i,
  input  logic [255:0] vb_i,      // second operand (vector, or broadcast scalar)
  input  logic [255:0] vc_i,
  input  logic [255:0] vd_i,      // old destination
  input  logic [31:0]  mask_i,    // enabled lanes
  input  logic [255:0] rng_i,     // RNG states (8 x 32)
  output logic         done_o,    // one-cycle pulse: vd_o / rng_o valid
  output logic [255:0] vd_o,
  output logic [255:0] rng_o,
  output logic [7:0]   rng_we_o
);

  // ---------------------------------------------------------------- element helpers
  function automatic int unsigned lanes_of(input logic [3:0] t);
    unique case (t)
      4'd0, 4'd5, 4'd8:       lanes_of = 8;
      4'd1, 4'd2, 4'd6, 4'd9: lanes_of = 16;
      default:                lanes_of = 32;
    endcase
  endfunction

  function automatic logic [31:0] lane_get(input logic [255:0] v, input logic [3:0] t,
                                           input logic [4:0] k);
    unique case (lanes_of(t))
      8:       lane_get = v[32*k[2:0] +: 32];
      16:      lane_get = {16'd0, v[16*k[3:0] +: 16]};
      default: lane_get = {24'd0, v[8*k +: 8]};
    endcase
  endfunction

  function automatic logic [31:0] qnan_of(input logic [3:0] t);
    unique case (t)
      4'd0:    qnan_of = 32'h7fc0_0000;
      4'd1:    qnan_of = 32'h0000_7fc0;
      4'd2:    qnan_of = 32'h0000_7e00;
      4'd3:    qnan_of = 32'h0000_007f;
      default: qnan_of = 32'h0000_007e;
    endcase
  endfunction

  // exact widening of a float element to FP32
  function automatic logic [31:0] widen(input logic [3:0] t, input logic [31:0] x);
    logic [37:0] d;   // tessera_mme_pkg::fpdec_t: nan inf zero sign exp[9:0] mant[23:0]
    logic [4:0]  lz;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [23:0] nm;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [7:0]  e;
    d  = tessera_mme_pkg::mme_fpdec(t[2:0], x);
    lz = 5'd23;
    for (int i = 0; i < 24; i++) if (d[23:0][i]) lz = 5'(23 - i);
    nm = d[23:0] << lz;
    e  = 8'(d[33:24] + 10'sd150 - 10'(lz));   // FP16/FP8 values are FP32 normals
    if (t == 4'd0)      widen = x;
    else if (t == 4'd1) widen = {x[15:0], 16'd0};
    else if (d[37])     widen = 32'h7fc0_0000;
    else if (d[36])     widen = {d[34], 31'h7f80_0000};
    else if (d[35])    widen = {d[34], 31'd0};
    else                widen = {d[34], e, nm[22:0]};
  endfunction

  // one rounding of an FP32 value to float type t
  function automatic logic [31:0] narrow(input logic [3:0] t, input logic sat, input logic [31:0] f);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [37:0] d;   // tessera_mme_pkg::fpdec_t: nan inf zero sign exp[9:0] mant[23:0]
    /* verilator lint_on UNUSEDSIGNAL */
    d = tessera_mme_pkg::mme_fpdec(3'd0, f);
    if (t == 4'd0) narrow = f;
    else narrow = tessera_mme_pkg::mme_fpround(t[2:0], sat, d[37], d[36], d[34],
                    tessera_mme_pkg::RndMw'(d[23:0]), 14'($signed(d[33:24])), 1'b0);
  endfunction

  // integer value of an integer element (sign- or zero-extended)
  function automatic logic signed [33:0] ival(input logic [3:0] t, input logic [31:0] x);
    unique case (t)
      4'd5:    ival = 34'($signed(x));
      4'd6:    ival = 34'($signed(x[15:0]));
      4'd7:    ival = 34'($signed(x[7:0]));
      4'd8:    ival = {2'b00, x};
      4'd9:    ival = {18'd0, x[15:0]};
      default: ival = {26'd0, x[7:0]};
    endcase
  endfunction

  function automatic logic [31:0] imask(input logic [3:0] t);
    unique case (lanes_of(t))
      8:       imask = 32'hffff_ffff;
      16:      imask = 32'h0000_ffff;
      default: imask = 32'h0000_00ff;
    endcase
  endfunction

  // integer range of type t, as 34-bit signed
  function automatic logic signed [33:0] ilo(input logic [3:0] t);
    unique case (t)
      4'd5:    ilo = -34'sd2147483648;
      4'd6:    ilo = -34'sd32768;
      4'd7:    ilo = -34'sd128;
      default: ilo = 34'sd0;
    endcase
  endfunction
  function automatic logic signed [33:0] ihi(input logic [3:0] t);
    unique case (t)
      4'd5:    ihi = 34'sd2147483647;
      4'd6:    ihi = 34'sd32767;
      4'd7:    ihi = 34'sd127;
      4'd8:    ihi = 34'sd4294967295;
      4'd9:    ihi = 34'sd65535;
      default: ihi = 34'sd255;
    endcase
  endfunction

  function automatic logic [31:0] iclamp(input logic [3:0] t, input logic signed [33:0] v);
    /* verilator lint_off UNUSEDSIGNAL */
    logic signed [33:0] r;
    /* verilator lint_on UNUSEDSIGNAL */
    r = v;
    if (v < ilo(t)) r = ilo(t);
    if (v > ihi(t)) r = ihi(t);
    iclamp = r[31:0] & imask(t);
  endfunction

  // element conversion sdt -> ddt (the model's cvt1)
  function automatic logic [31:0] cvt1(input logic [3:0] sdt, input logic [3:0] ddt,
                                       input logic [31:0] x, input logic sat, input logic sr,
                                       /* verilator lint_off UNUSEDSIGNAL */
                                       input logic [31:0] rnd);
                                       /* verilator lint_on UNUSEDSIGNAL */
    logic [37:0] d;   // tessera_mme_pkg::fpdec_t: nan inf zero sign exp[9:0] mant[23:0]
    logic signed [33:0] iv;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [32:0]        mag, srs;
    logic [63:0]        wide;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [23:0]        kept;
    logic               guard, sticky;
    logic [5:0]         sh;
    logic [31:0]        r;
    d = tessera_mme_pkg::mme_fpdec(sdt[2:0], x);
    iv = ival(sdt, x);
    srs = {1'b0, x} + {17'd0, rnd[15:0]};
    mag = '0; kept = '0; guard = 1'b0; sticky = 1'b0; sh = '0; wide = '0;
    if (sdt <= 4'd4) begin
      if (d[37]) r = (ddt <= 4'd4) ? qnan_of(ddt) : 32'd0;
      else if (ddt <= 4'd4) begin
        if (sr) r = {16'd0, srs[31:16]};
        else r = tessera_mme_pkg::mme_fpround(ddt[2:0], sat, 1'b0, d[36], d[34],
                   tessera_mme_pkg::RndMw'(d[23:0]), 14'($signed(d[33:24])), 1'b0);
      end else begin
        // float -> integer: round to nearest even, saturate
        wide = 64'(d[23:0]) << d[33:24][5:0];
        if (d[36] || (!d[35] && $signed(d[33:24]) > 10'sd40)) begin
          mag = 33'h1_0000_0000;                     // beyond every integer type
        end else if ($signed(d[33:24]) >= 10'sd0) begin
          mag = (wide[63:33] != 31'd0) ? 33'h1_0000_0000 : wide[32:0];
        end else if ($signed(d[33:24]) >= -10'sd24) begin
          sh = 6'(-d[33:24]);
          kept = d[23:0] >> sh;
          guard = d[23:0][5'(sh - 6'd1)];
          sticky = (d[23:0] & ~({24{1'b1}} << (sh - 6'd1))) != 24'd0;
          mag = 33'(kept) + 33'(guard && (sticky || kept[0]));
        end
        iv = {1'b0, mag};
        if (d[34]) iv = -iv;
        r = iclamp(ddt, iv);
      end
    end else begin
      if (ddt <= 4'd4) begin
        mag = iv[33] ? 33'(-iv) : iv[32:0];
        r = tessera_mme_pkg::mme_fpround(ddt[2:0], sat, 1'b0, 1'b0, iv[33],
              tessera_mme_pkg::RndMw'(mag), 14'd0, 1'b0);
      end else if (sat) r = iclamp(ddt, iv);
      else r = iv[31:0] & imask(ddt);
    end
    cvt1 = r;
  endfunction

  // ---------------------------------------------------------------- SFU microcode
  // kinds
  localparam logic [2:0] KFma   = 3'd0;   // dst = a * b + c (one rounding)
  localparam logic [2:0] KRint  = 3'd1;   // dst = rint(a) (RNE), ni = (int) dst
  localparam logic [2:0] KFrRcp = 3'd2;   // |a| = m * 2^ei, m in [1,2): dst = m, ix = top 6 fraction bits
  localparam logic [2:0] KFrLog = 3'd3;   // a = m * 2^ei, m in [0.75,1.5)
  localparam logic [2:0] KSplit = 3'd4;   // a = m * 2^ei, m in [1,4), ei even; ix = (m-1)*16
  localparam logic [2:0] KLdexp = 3'd5;   // dst = ldexp(a, shift), one rounding
  localparam logic [2:0] KI2f   = 3'd6;   // dst = (float) ei
  // operand sources
  localparam logic [4:0] SX     = 5'd8,  SAbsX  = 5'd9,  SOne   = 5'd10, SNZero = 5'd11,
                         STwo   = 5'd12, SHalf  = 5'd13, SLog2e = 5'd14, SLn2Hi = 5'd15,
                         SLn2Lo = 5'd16, SE7    = 5'd17, SE6    = 5'd18, SE5    = 5'd19,
                         SE4    = 5'd20, SE3    = 5'd21, SL5    = 5'd22, SL4    = 5'd23,
                         SL3    = 5'd24, SL2    = 5'd25, SL1    = 5'd26, SC32   = 5'd27,
                         STRcp  = 5'd28, STRsq  = 5'd29, STT1   = 5'd30, STT2   = 5'd31;
  // ldexp shift: +ni, -ei, -ei/2, +ei/2
  localparam logic [1:0] ShN = 2'd0, ShNegE = 2'd1, ShNegE2 = 2'd2, ShE2 = 2'd3;

  typedef struct packed {
    logic [2:0] kind;
    logic [2:0] dst;
    logic [4:0] a;
    logic       na;
    logic [4:0] b;
    logic [4:0] c;
    logic       nc;
    logic [1:0] sh;
    logic       usel;   // tanh: ni == 0 -> dst = a_alt (q) instead of the fma
    logic       efix;   // exp range: R0 > 89 -> +Inf, R0 < -104 -> +0
    logic       last;
  } uop_t;

  function automatic uop_t u(input logic [2:0] kind, input logic [2:0] dst, input logic [4:0] a,
                             input logic na, input logic [4:0] b, input logic [4:0] c,
                             input logic nc);
    uop_t x;
    x.kind = kind; x.dst = dst; x.a = a; x.na = na; x.b = b; x.c = c; x.nc = nc;
    x.sh = ShN; x.usel = 1'b0; x.efix = 1'b0; x.last = 1'b0;
    u = x;
  endfunction
  function automatic uop_t fma(input logic [2:0] dst, input logic [4:0] a, input logic na,
                               input logic [4:0] b, input logic [4:0] c, input logic nc);
    fma = u(KFma, dst, a, na, b, c, nc);
  endfunction
  function automatic uop_t ldx(input logic [2:0] dst, input logic [4:0] a, input logic [1:0] sh);
    uop_t x;
    x = u(KLdexp, dst, a, 1'b0, SOne, SNZero, 1'b0);
    x.sh = sh;
    ldx = x;
  endfunction

  // n = rint(R0 * log2e), r = R0 - n*ln2 (R2), q = expm1 polynomial(r) (R3): 11 steps
  function automatic uop_t redpoly(input int k);
    unique case (k)
      0:       redpoly = fma(3'd1, 5'd0, 1'b0, SLog2e, SNZero, 1'b0);
      1:       redpoly = u(KRint, 3'd1, 5'd1, 1'b0, SOne, SNZero, 1'b0);
      2:       redpoly = fma(3'd2, 5'd1, 1'b1, SLn2Hi, 5'd0, 1'b0);
      3:       redpoly = fma(3'd2, 5'd1, 1'b1, SLn2Lo, 5'd2, 1'b0);
      4:       redpoly = fma(3'd3, SE7, 1'b0, 5'd2, SE6, 1'b0);
      5:       redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, SE5, 1'b0);
      6:       redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, SE4, 1'b0);
      7:       redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, SE3, 1'b0);
      8:       redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, SHalf, 1'b0);
      9:       redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, SNZero, 1'b0);
      default: redpoly = fma(3'd3, 5'd3, 1'b0, 5'd2, 5'd2, 1'b0);
    endcase
  endfunction

  // exp(R0) -> R1: 13 steps
  function automatic uop_t expcore(input int k);
    uop_t x;
    if (k <= 10) x = redpoly(k);
    else if (k == 11) x = fma(3'd3, 5'd3, 1'b0, SOne, SOne, 1'b0);
    else begin
      x = ldx(3'd1, 5'd3, ShN);
      x.efix = 1'b1;
    end
    expcore = x;
  endfunction

  // dst = 1/|src| (positive): 6 steps (uses R2, R3, R7)
  function automatic uop_t rcpcore(input int k, input logic [4:0] src, input logic [2:0] dst);
    unique case (k)
      0:       rcpcore = u(KFrRcp, 3'd7, src, 1'b0, SOne, SNZero, 1'b0);
      1:       rcpcore = fma(3'd3, 5'd7, 1'b1, STRcp, SOne, 1'b0);
      2:       rcpcore = fma(3'd2, STRcp, 1'b0, 5'd3, STRcp, 1'b0);
      3:       rcpcore = fma(3'd3, 5'd7, 1'b1, 5'd2, SOne, 1'b0);
      4:       rcpcore = fma(3'd2, 5'd2, 1'b0, 5'd3, 5'd2, 1'b0);
      default: rcpcore = ldx(dst, 5'd2, ShNegE);
    endcase
  endfunction

  // y = 1/sqrt(m), m in R7 (after KSplit): 13 steps, y in R2 (uses R3, R4)
  function automatic uop_t rsqcore(input int k);
    if (k == 0) rsqcore = fma(3'd2, STRsq, 1'b0, SOne, SNZero, 1'b0);
    else unique case ((k - 1) % 4)
      0:       rsqcore = fma(3'd3, 5'd2, 1'b0, 5'd2, SNZero, 1'b0);
      1:       rsqcore = fma(3'd3, 5'd7, 1'b1, 5'd3, SOne, 1'b0);
      2:       rsqcore = fma(3'd4, SHalf, 1'b0, 5'd2, SNZero, 1'b0);
      default: rsqcore = fma(3'd2, 5'd4, 1'b0, 5'd3, 5'd2, 1'b0);
    endcase
  endfunction

  // function codes: 0 exp, 1 log, 2 rcp, 3 rsqrt, 4 sqrt, 5 tanh, 6 sigm
  function automatic uop_t sfu_uop(input logic [2:0] f, input logic [5:0] st);
    int k;
    uop_t x;
    k = int'(st);
    x = fma(3'd0, SX, 1'b0, SOne, SNZero, 1'b0);
    unique case (f)
      3'd0: begin   // exp: R0 = x; 13 steps -> R1
        if (k == 0) x = fma(3'd0, SX, 1'b0, SOne, SNZero, 1'b0);
        else x = expcore(k - 1);
        x.last = (k == 13);
      end
      3'd1: begin   // log
        unique case (k)
          0:  x = u(KFrLog, 3'd7, SX, 1'b0, SOne, SNZero, 1'b0);
          1:  x = fma(3'd1, 5'd7, 1'b0, SOne, SOne, 1'b1);
          2:  x = fma(3'd1, 5'd1, 1'b0, SC32, SNZero, 1'b0);
          3:  x = u(KRint, 3'd1, 5'd1, 1'b0, SOne, SNZero, 1'b0);
          4:  x = fma(3'd2, 5'd7, 1'b0, STT1, SOne, 1'b1);
          5:  x = fma(3'd3, SL5, 1'b0, 5'd2, SL4, 1'b0);
          6:  x = fma(3'd3, 5'd3, 1'b0, 5'd2, SL3, 1'b0);
          7:  x = fma(3'd3, 5'd3, 1'b0, 5'd2, SL2, 1'b0);
          8:  x = fma(3'd3, 5'd3, 1'b0, 5'd2, SL1, 1'b0);
          9:  x = fma(3'd3, 5'd3, 1'b0, 5'd2, SNZero, 1'b0);
          10: x = fma(3'd3, 5'd3, 1'b0, 5'd2, 5'd2, 1'b0);
          11: x = u(KI2f, 3'd4, SOne, 1'b0, SOne, SNZero, 1'b0);
          12: x = fma(3'd5, 5'd4, 1'b0, SLn2Hi, STT2, 1'b0);
          13: x = fma(3'd6, 5'd4, 1'b0, SLn2Lo, 5'd3, 1'b0);
          default: x = fma(3'd1, 5'd5, 1'b0, SOne, 5'd6, 1'b0);
        endcase
        x.last = (k == 14);
      end
      3'd2: begin   // rcp: 6 steps -> R1 (sign restored at the end)
        x = rcpcore(k, SX, 3'd1);
        x.last = (k == 5);
      end
      3'd3: begin   // rsqrt
        if (k == 0) x = u(KSplit, 3'd7, SX, 1'b0, SOne, SNZero, 1'b0);
        else if (k <= 13) x = rsqcore(k - 1);
        else x = ldx(3'd1, 5'd2, ShNegE2);
        x.last = (k == 14);
      end
      3'd4: begin   // sqrt
        if (k == 0) x = u(KSplit, 3'd7, SX, 1'b0, SOne, SNZero, 1'b0);
        else if (k <= 13) x = rsqcore(k - 1);
        else unique case (k)
          14: x = fma(3'd5, 5'd7, 1'b0, 5'd2, SNZero, 1'b0);
          15: x = fma(3'd3, 5'd5, 1'b1, 5'd5, 5'd7, 1'b0);
          16: x = fma(3'd4, SHalf, 1'b0, 5'd2, SNZero, 1'b0);
          17: x = fma(3'd5, 5'd3, 1'b0, 5'd4, 5'd5, 1'b0);
          default: x = ldx(3'd1, 5'd5, ShE2);
        endcase
        x.last = (k == 18);
      end
      3'd5: begin   // tanh
        if (k == 0) x = fma(3'd0, SAbsX, 1'b0, STwo, SNZero, 1'b0);
        else if (k <= 11) x = redpoly(k - 1);
        else if (k <= 15) begin
          unique case (k)
            12: x = ldx(3'd4, SOne, ShN);
            13: x = fma(3'd5, 5'd4, 1'b0, SOne, SOne, 1'b1);
            14: begin
              x = fma(3'd6, 5'd4, 1'b0, 5'd3, 5'd5, 1'b0);
              x.usel = 1'b1;
            end
            default: x = fma(3'd4, 5'd6, 1'b0, SOne, STwo, 1'b0);
          endcase
        end
        else if (k <= 21) x = rcpcore(k - 16, 5'd4, 3'd5);
        else x = fma(3'd1, 5'd6, 1'b0, 5'd5, SNZero, 1'b0);
        x.last = (k == 22);
      end
      default: begin   // sigm: e = exp(-|x|); rcp(1 + e); x < 0: e * rcp
        if (k == 0) x = fma(3'd0, SAbsX, 1'b1, SOne, SNZero, 1'b0);
        else if (k <= 13) x = expcore(k - 1);
        else if (k == 14) x = fma(3'd4, 5'd1, 1'b0, SOne, SOne, 1'b0);
        else if (k <= 20) x = rcpcore(k - 15, 5'd4, 3'd5);
        else x = fma(3'd6, 5'd1, 1'b0, 5'd5, SNZero, 1'b0);
        x.last = (k == 21);
      end
    endcase
    sfu_uop = x;
  endfunction

  // FP32 a < b for non-NaN operands
  function automatic logic flt(input logic [31:0] a, input logic [31:0] b);
    logic [31:0] ka, kb;
    ka = a[31] ? ~a : (a | 32'h8000_0000);
    kb = b[31] ? ~b : (b | 32'h8000_0000);
    flt = ka < kb;
  endfunction

  // ---------------------------------------------------------------- control
  typedef enum logic [2:0] {MIdle, MArith, MRed, MCvt, MSfu} mode_e;
  mode_e       mode_q;
  logic [1:0]  pass_q;
  logic [4:0]  lvl_q;        // reduction level s
  logic [5:0]  step_q;
  logic [2:0]  sfn;
  logic [3:0]  sdt;
  logic [1:0]  part;
  logic        sat, sr, is_arith, is_sfu;
  int unsigned ncnt, npass, ls, ld;

  assign sat  = fn_i[6];
  assign sr   = fn_i[7];
  assign sdt  = fn_i[3:0];
  assign part = fn_i[5:4];
  always_comb begin
    unique case (id_i)
      tessera_tpc_isa_pkg::I_VEXP:   sfn = 3'd0;
      tessera_tpc_isa_pkg::I_VLOG:   sfn = 3'd1;
      tessera_tpc_isa_pkg::I_VRCP:   sfn = 3'd2;
      tessera_tpc_isa_pkg::I_VRSQRT: sfn = 3'd3;
      tessera_tpc_isa_pkg::I_VSQRT:  sfn = 3'd4;
      tessera_tpc_isa_pkg::I_VTANH:  sfn = 3'd5;
      default:  sfn = 3'd6;
    endcase
    is_sfu   = (id_i == tessera_tpc_isa_pkg::I_VEXP) || (id_i == tessera_tpc_isa_pkg::I_VLOG) || (id_i == tessera_tpc_isa_pkg::I_VRCP) || (id_i == tessera_tpc_isa_pkg::I_VRSQRT) ||
               (id_i == tessera_tpc_isa_pkg::I_VSQRT) || (id_i == tessera_tpc_isa_pkg::I_VTANH) || (id_i == tessera_tpc_isa_pkg::I_VSIGM);
    is_arith = (id_i == tessera_tpc_isa_pkg::I_VADD) || (id_i == tessera_tpc_isa_pkg::I_VSUB) || (id_i == tessera_tpc_isa_pkg::I_VMUL) || (id_i == tessera_tpc_isa_pkg::I_VFMA);
    ls = lanes_of(sdt);
    ld = lanes_of(dt_i);
    ncnt = (id_i == tessera_tpc_isa_pkg::I_VCVT) ? ((ls < ld) ? ls : ld) : ld;
    npass = ncnt / 8;
  end

  uop_t uo;
  assign uo = sfu_uop(sfn, step_q);

  logic [1023:0] wb_init;
  always_comb
    for (int k = 0; k < 32; k++) wb_init[32*k +: 32] = widen(dt_i, lane_get(va_i, dt_i, 5'(k)));

  // ---------------------------------------------------------------- lanes
  logic [1023:0] wb_q;                  // reduction buffer (32 widened lanes)
  logic [255:0] sr_q [8];              // SFU registers R0..R7 per lane (R7 in 255:224)
  logic signed [9:0] ni_q [8], ei_q [8];
  logic [5:0]  ix_q [8];
  logic [31:0] fa [8], fb [8], fc [8], fr [8];
  logic [31:0] sfu_res [8];             // result of the current SFU step (dst)
  logic signed [9:0] ni_d [8], ei_d [8];
  logic [5:0]  ix_d [8];
  logic [31:0] xl [8];                  // SFU argument of lane i

  for (genvar i = 0; i < 8; i++) begin : g_fma
    tessera_tpc_ffma u_fma (.a_i(fa[i]), .b_i(fb[i]), .c_i(fc[i]), .r_o(fr[i]));
  end

  function automatic logic [31:0] src_val(input logic [4:0] s, input logic [31:0] x,
                                          input logic [255:0] r, input logic [5:0] ix,
                                          input logic signed [9:0] ni);
    logic [4:0] j;
    j = 5'(ni + 10'sd8);
    unique case (s)
      SX:     src_val = x;
      SAbsX:  src_val = {1'b0, x[30:0]};
      SOne:   src_val = 32'h3F80_0000;
      SNZero: src_val = 32'h8000_0000;
      STwo:   src_val = 32'h4000_0000;
      SHalf:  src_val = 32'h3F00_0000;
      SLog2e: src_val = 32'h3FB8_AA3B;
      SLn2Hi: src_val = 32'h3F31_7200;
      SLn2Lo: src_val = 32'h35BF_BE8E;
      SE7:    src_val = 32'h3950_0D01;
      SE6:    src_val = 32'h3AB6_0B61;
      SE5:    src_val = 32'h3C08_8889;
      SE4:    src_val = 32'h3D2A_AAAB;
      SE3:    src_val = 32'h3E2A_AAAB;
      SL5:    src_val = 32'hBE2A_AAAB;
      SL4:    src_val = 32'h3E4C_CCCD;
      SL3:    src_val = 32'hBE80_0000;
      SL2:    src_val = 32'h3EAA_AAAB;
      SL1:    src_val = 32'hBF00_0000;
      SC32:   src_val = 32'h4200_0000;
      STRcp:  src_val = tessera_tpc_sfu_pkg::rom_rcp(ix);
      STRsq:  src_val = tessera_tpc_sfu_pkg::rom_rsq(ix);
      STT1:   src_val = tessera_tpc_sfu_pkg::rom_log_inv(j);
      STT2:   src_val = tessera_tpc_sfu_pkg::rom_log_t(j);
      default: src_val = r[32*s[2:0] +: 32];
    endcase
  endfunction

  // final special values of each function (the model's early returns)
  function automatic logic [31:0] sfu_fin(input logic [2:0] f, input logic [31:0] x,
                                          input logic [31:0] r1, input logic [31:0] r5,
                                          input logic [31:0] r6);
    logic nan, inf, zero, s;
    logic [31:0] res;
    nan  = (x[30:23] == 8'hff) && (x[22:0] != 23'd0);
    inf  = (x[30:0] == 31'h7f80_0000);
    zero = (x[30:0] == 31'd0);
    s    = x[31];
    res  = r1;
    unique case (f)
      3'd0: ;
      3'd1: begin
        if (s && !zero) res = 32'h7fc0_0000;
        else if (zero) res = 32'hff80_0000;
        else if (inf) res = 32'h7f80_0000;
      end
      3'd2: begin
        if (zero) res = {s, 31'h7f80_0000};
        else if (inf) res = {s, 31'd0};
        else res = {s, r1[30:0]};
      end
      3'd3: begin
        if (s && !zero) res = 32'h7fc0_0000;
        else if (zero) res = {s, 31'h7f80_0000};
        else if (inf) res = 32'd0;
      end
      3'd4: begin
        if (s && !zero) res = 32'h7fc0_0000;
        else if (zero || inf) res = x;
      end
      3'd5: begin
        if (x[30:0] >= 31'h4120_0000) res = {s, 31'h3f80_0000};
        else if (x[30:0] < 31'h3980_0000) res = x;
        else res = {s, r1[30:0]};
      end
      default: res = (!s || zero) ? r5 : r6;
    endcase
    if (nan) res = 32'h7fc0_0000;
    sfu_fin = res;
  endfunction

  // FMA operands of lane i: element k = 8 * pass + i (arith), reduction pair, or the
  // SFU micro-op's sources
  for (genvar i = 0; i < 8; i++) begin : g_ops
    always_comb begin
      logic [4:0]  k;
      logic [31:0] a, b, c;
      k = 5'(8 * int'(pass_q) + i);
      xl[i] = va_i[32*i +: 32];
      fa[i] = 32'd0; fb[i] = 32'd0; fc[i] = 32'd0; a = '0; b = '0; c = '0;
      unique case (mode_q)
        MArith: begin
          a = widen(dt_i, lane_get(va_i, dt_i, k));
          b = widen(dt_i, lane_get(vb_i, dt_i, k));
          c = widen(dt_i, lane_get(vc_i, dt_i, k));
          fa[i] = a;
          unique case (id_i)
            tessera_tpc_isa_pkg::I_VADD:  begin fb[i] = 32'h3F80_0000; fc[i] = b; end
            tessera_tpc_isa_pkg::I_VSUB:  begin fb[i] = 32'h3F80_0000; fc[i] = b ^ 32'h8000_0000; end
            tessera_tpc_isa_pkg::I_VMUL:  begin fb[i] = b; fc[i] = 32'h8000_0000; end
            default: begin fb[i] = b; fc[i] = c; end
          endcase
        end
        MRed: begin
          fa[i] = wb_q[32*k +: 32];
          fb[i] = 32'h3F80_0000;
          fc[i] = wb_q[32*5'(k + lvl_q) +: 32];
        end
        MSfu: begin
          fa[i] = src_val(uo.a, xl[i], sr_q[i], ix_q[i], ni_q[i]) ^ {uo.na, 31'd0};
          fb[i] = src_val(uo.b, xl[i], sr_q[i], ix_q[i], ni_q[i]);
          fc[i] = src_val(uo.c, xl[i], sr_q[i], ix_q[i], ni_q[i]) ^ {uo.nc, 31'd0};
          if (uo.usel && ni_q[i] == 10'sd0) begin
            fa[i] = sr_q[i][96 +: 32]; fb[i] = 32'h3F80_0000; fc[i] = 32'h8000_0000;
          end
        end
        default: ;
      endcase

    end
  end

  // SFU steps other than the FMA (on the un-negated a operand)
  for (genvar i = 0; i < 8; i++) begin : g_sfu
    always_comb begin
      logic [31:0] a;
      /* verilator lint_off UNUSEDSIGNAL */
      logic [37:0] d;   // tessera_mme_pkg::fpdec_t: nan inf zero sign exp[9:0] mant[23:0]
      logic [23:0] nm;
      /* verilator lint_on UNUSEDSIGNAL */
      logic [4:0]  lz;
      logic signed [9:0] e, shv;
      logic [9:0]  eabs;
      logic [31:0] rint_v;
      logic [23:0] kept, iv;
      logic        guard, sticky;
      logic [4:0]  sh;
      ni_d[i] = ni_q[i]; ei_d[i] = ei_q[i]; ix_d[i] = ix_q[i];
      sfu_res[i] = fr[i];
      // SFU special steps on the (un-negated) a operand
      a = src_val(uo.a, xl[i], sr_q[i], ix_q[i], ni_q[i]);
      d = tessera_mme_pkg::mme_fpdec(3'd0, a);
      lz = 5'd23;
      for (int j = 0; j < 24; j++) if (d[23:0][j]) lz = 5'(23 - j);
      nm = d[23:0] << lz;
      e  = d[33:24] + 10'sd23 - 10'(lz);         // a = 1.nm * 2^e
      // rint: |a| < 2^23 rounded at the units place
      kept = '0; guard = 1'b0; sticky = 1'b0; sh = '0; iv = '0;
      if (a[30:23] >= 8'd150) begin
        rint_v = a;
        iv = 24'd511;
      end else if (a[30:23] < 8'd126) begin
        rint_v = {a[31], 31'd0};
      end else begin
        sh = 5'(8'd150 - a[30:23]);
        kept = d[23:0] >> sh;
        guard = d[23:0][sh - 5'd1];
        sticky = (d[23:0] & ~({24{1'b1}} << (sh - 5'd1))) != 24'd0;
        iv = kept + 24'(guard && (sticky || kept[0]));
        rint_v = tessera_mme_pkg::mme_fpround(3'd0, 1'b0, 1'b0, 1'b0, a[31],
                   tessera_mme_pkg::RndMw'(iv), 14'd0, 1'b0);
      end
      shv = 10'sd0;
      eabs = ei_q[i][9] ? 10'(-ei_q[i]) : 10'(ei_q[i]);
      unique case (uo.sh)
        ShN:     shv = ni_q[i];
        ShNegE:  shv = -ei_q[i];
        ShNegE2: shv = -(ei_q[i] >>> 1);
        default: shv = ei_q[i] >>> 1;
      endcase
      unique case (uo.kind)
        KRint: begin
          sfu_res[i] = rint_v;
          ni_d[i] = (iv > 24'd511) ? 10'sd511 : 10'(iv);   // |n| clamped (larger: special values)
          if (a[31]) ni_d[i] = -ni_d[i];
        end
        KFrRcp: begin
          sfu_res[i] = {9'h07f, nm[22:0]};
          ei_d[i] = e;
          ix_d[i] = nm[22:17];
        end
        KFrLog: begin
          sfu_res[i] = nm[22] ? {9'h07e, nm[22:0]} : {9'h07f, nm[22:0]};
          ei_d[i] = e + 10'(nm[22]);
        end
        KSplit: begin
          sfu_res[i] = e[0] ? {9'h080, nm[22:0]} : {9'h07f, nm[22:0]};
          ei_d[i] = e - 10'(e[0]);
          ix_d[i] = e[0] ? (6'd16 + 6'(nm[22:18])) : {2'b00, nm[22:19]};
        end
        KLdexp: begin
          sfu_res[i] = tessera_mme_pkg::mme_fpround(3'd0, 1'b0, d[37], d[36], d[34],
                         tessera_mme_pkg::RndMw'(d[23:0]), 14'($signed(d[33:24])) + 14'(shv), 1'b0);
          if (uo.efix) begin
            if (flt(32'h42b2_0000, sr_q[i][31:0])) sfu_res[i] = 32'h7f80_0000;
            else if (flt(sr_q[i][31:0], 32'hc2d0_0000)) sfu_res[i] = 32'd0;
          end
        end
        KI2f: begin
          sfu_res[i] = tessera_mme_pkg::mme_fpround(3'd0, 1'b0, 1'b0, 1'b0, ei_q[i][9],
                         tessera_mme_pkg::RndMw'(eabs), 14'd0, 1'b0);
        end
        default: ;
      endcase
    end
  end

  // element results of an arith or vcvt pass: lane i writes element li[i] (enable le[i])
  logic [4:0]  li [8];
  logic [31:0] lv [8], lrn [8];
  logic [7:0]  le;
  for (genvar i = 0; i < 8; i++) begin : g_res
    always_comb begin
      /* verilator lint_off UNUSEDSIGNAL */
      int j, si, di;
      /* verilator lint_on UNUSEDSIGNAL */
      j  = 8 * int'(pass_q) + i;
      si = (ls > ld) ? int'(part) * int'(ncnt) + j : j;
      di = (ld > ls) ? int'(part) * int'(ncnt) + j : j;
      lrn[i] = tessera_tpc_sfu_pkg::xorshift32(rng_i[32*i +: 32]);
      if (mode_q == MCvt) begin
        li[i] = 5'(di);
        lv[i] = cvt1(sdt, dt_i, lane_get(va_i, sdt, 5'(si)), sat, sr, lrn[i]);
      end else begin
        li[i] = 5'(j);
        lv[i] = narrow(dt_i, sat, fr[i]);
      end
      le[i] = mask_i[li[i]];
    end
  end

  // ---------------------------------------------------------------- sequencing
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q   <= MIdle;
      pass_q   <= '0;
      lvl_q    <= '0;
      step_q   <= '0;
      done_o   <= 1'b0;
      vd_o     <= '0;
      rng_o    <= '0;
      rng_we_o <= '0;
      wb_q     <= '0;
      for (int i = 0; i < 8; i++) begin
        sr_q[i] <= '0;
        ni_q[i] <= '0; ei_q[i] <= '0; ix_q[i] <= '0;
      end
    end else begin
      done_o <= 1'b0;
      unique case (mode_q)
        MIdle: begin
          if (start_i) begin
            vd_o     <= vd_i;
            rng_we_o <= '0;
            pass_q   <= '0;
            step_q   <= '0;
            lvl_q    <= 5'(ld / 2);
            wb_q     <= wb_init;
            if (is_sfu) mode_q <= MSfu;
            else if (is_arith) mode_q <= MArith;
            else if (id_i == tessera_tpc_isa_pkg::I_VCVT) mode_q <= MCvt;
            else mode_q <= MRed;
          end
        end
        MArith, MCvt: begin
          for (int i = 0; i < 8; i++) begin
            if (le[i]) begin
              unique case (ld)
                8:       vd_o[32*li[i] +: 32] <= lv[i];
                16:      vd_o[16*li[i] +: 16] <= lv[i][15:0];
                default: vd_o[8*li[i] +: 8]   <= lv[i][7:0];
              endcase
              if (mode_q == MCvt && sr && pass_q == 2'd0) begin
                rng_o[32*i +: 32] <= lrn[i];
                rng_we_o[i] <= 1'b1;
              end
            end
          end
          pass_q <= pass_q + 2'd1;
          if (int'(pass_q) == npass - 1) begin
            mode_q <= MIdle;
            done_o <= 1'b1;
          end
        end
        MRed: begin
          for (int i = 0; i < 8; i++) begin
            int k;
            k = 8 * int'(pass_q) + i;
            if (k < int'(lvl_q)) wb_q[32*k +: 32] <= fr[i];
          end
          if (8 * (int'(pass_q) + 1) < int'(lvl_q)) begin
            pass_q <= pass_q + 2'd1;
          end else begin
            pass_q <= '0;
            lvl_q  <= lvl_q >> 1;
            if (lvl_q == 5'd1) begin
              /* verilator lint_off UNUSEDSIGNAL */
              logic [31:0] r;
              /* verilator lint_on UNUSEDSIGNAL */
              r = narrow(dt_i, 1'b0, fr[0]);
              unique case (ld)
                16:      vd_o <= {16{r[15:0]}};
                default: vd_o <= {32{r[7:0]}};
              endcase
              mode_q <= MIdle;
              done_o <= 1'b1;
            end
          end
        end
        MSfu: begin
          for (int i = 0; i < 8; i++) begin
            sr_q[i][32*uo.dst +: 32] <= sfu_res[i];
            ni_q[i] <= ni_d[i];
            ei_q[i] <= ei_d[i];
            ix_q[i] <= ix_d[i];
          end
          step_q <= step_q + 6'd1;
          if (uo.last) begin
            for (int i = 0; i < 8; i++) begin
              logic [31:0] r1, r5, r6;
              r1 = (uo.dst == 3'd1) ? sfu_res[i] : sr_q[i][32 +: 32];
              r5 = sr_q[i][160 +: 32];
              r6 = (uo.dst == 3'd6) ? sfu_res[i] : sr_q[i][192 +: 32];
              if (mask_i[i]) vd_o[32*i +: 32] <= sfu_fin(sfn, xl[i], r1, r5, r6);
            end
            mode_q <= MIdle;
            done_o <= 1'b1;
          end
        end
        default: mode_q <= MIdle;
      endcase
    end
  end
endmodule
