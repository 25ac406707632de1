// TPC vector unit (combinational, one bundle per evaluation): lane operations on 8 x 32,
// 16 x 16 or 32 x 8-bit lanes selected by the data type, lane predication (merge with the
// old destination), compares into a vector predicate, reductions, shuffles, broadcast,
// lane insert/extract, lane index. See docs/tpc_rtl.md.
module tessera_tpc_valu (
  input  logic [6:0]   id_i,
  input  logic [3:0]   dt_i,
  input  logic         sat_i,     // fn[6]
  input  logic [2:0]   cc_i,      // fn[2:0]
  input  logic [4:0]   lane_i,    // rb field: lane number of vext/vins
  input  logic [255:0] va_i,
  input  logic [255:0] vb_i,      // second operand (vector, or broadcast scalar)
  input  logic [255:0] vc_i,
  input  logic [255:0] vd_i,      // old destination (kept in disabled lanes)
  input  logic [31:0]  mask_i,    // enabled lanes
  input  logic [31:0]  sel_i,     // vsel predicate
  input  logic [31:0]  vpd_i,     // old destination predicate (vcmp)
  input  logic [31:0]  sa_i,      // scalar operand (vbcast, vins)
  output logic [255:0] vd_o,
  output logic [31:0]  vpd_o,
  output logic [31:0]  sd_o       // vext
);
  logic [1:0]   kind;
  logic [1:0]   wsel;             // 0: 32-bit lanes, 1: 16-bit, 2: 8-bit
  logic         sat;
  logic [2:0]   cc;
  logic [255:0] r32, r16, r8, lane_r;
  logic [7:0]   c32;
  logic [15:0]  c16;
  logic [31:0]  c8, cmp;

  // one rounding of an FP32 value to BF16 (the float unit's narrow(), type 1)
  function automatic logic [15:0] to_bf16(input logic st, input logic [31:0] f);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [37:0] d;   // tessera_mme_pkg::fpdec_t: nan inf zero sign exp[9:0] mant[23:0]
    logic [31:0] r;
    /* verilator lint_on UNUSEDSIGNAL */
    d = tessera_mme_pkg::mme_fpdec(3'd0, f);
    r = tessera_mme_pkg::mme_fpround(3'd1, st, d[37], d[36], d[34],
          tessera_mme_pkg::RndMw'(d[23:0]), 14'($signed(d[33:24])), 1'b0);
    to_bf16 = r[15:0];
  endfunction

  always_comb begin
    unique case (dt_i)
      4'd0, 4'd1, 4'd2, 4'd3, 4'd4: kind = 2'd0;
      4'd5, 4'd6, 4'd7:             kind = 2'd1;
      default:                      kind = 2'd2;
    endcase
    unique case (dt_i)
      4'd0, 4'd5, 4'd8:             wsel = 2'd0;
      4'd1, 4'd2, 4'd6, 4'd9:       wsel = 2'd1;
      default:                      wsel = 2'd2;
    endcase
  end
  assign sat = sat_i;
  assign cc  = cc_i;

  for (genvar k = 0; k < 8; k++) begin : g_l32
    tessera_tpc_vlane #(.W(32)) u_lane (
      .id_i(id_i), .kind_i(kind), .dt_i(dt_i), .sat_i(sat), .cc_i(cc),
      .a_i(va_i[32*k +: 32]), .b_i(vb_i[32*k +: 32]), .c_i(vc_i[32*k +: 32]),
      .sel_i(sel_i[k]), .r_o(r32[32*k +: 32]), .cmp_o(c32[k]));
  end
  for (genvar k = 0; k < 16; k++) begin : g_l16
    tessera_tpc_vlane #(.W(16)) u_lane (
      .id_i(id_i), .kind_i(kind), .dt_i(dt_i), .sat_i(sat), .cc_i(cc),
      .a_i(va_i[16*k +: 16]), .b_i(vb_i[16*k +: 16]), .c_i(vc_i[16*k +: 16]),
      .sel_i(sel_i[k]), .r_o(r16[16*k +: 16]), .cmp_o(c16[k]));
  end
  for (genvar k = 0; k < 32; k++) begin : g_l8
    tessera_tpc_vlane #(.W(8)) u_lane (
      .id_i(id_i), .kind_i(kind), .dt_i(dt_i), .sat_i(sat), .cc_i(cc),
      .a_i(va_i[8*k +: 8]), .b_i(vb_i[8*k +: 8]), .c_i(vc_i[8*k +: 8]),
      .sel_i(sel_i[k]), .r_o(r8[8*k +: 8]), .cmp_o(c8[k]));
  end

  // FP32 add/sub (vadd.f32, vsub.f32) and the FP32 vredsum tree
  // BF16 add/sub (vadd.bf16, vsub.bf16; single-cycle here rather than two float-unit
  // passes): element 2k goes through FP32 adder k, element 2k+1 through adder k of g_badd;
  // the FP32 sum of the widened elements is rounded once more, to BF16 (RNE, canonical
  // NaN). Rounding to FP32 first is innocuous (24 >= 2 x 8 + 2 bits), so the result is the
  // correctly rounded BF16 sum, bit-identical to the float unit and the ISA model.
  logic         bf16, negb;
  logic [255:0] fsum, bsum;
  logic [31:0]  fsum_hi [8];
  logic [31:0]  fr4 [4], fr2 [2], fr1;
  assign bf16 = (dt_i == 4'd1);
  assign negb = (id_i == tessera_tpc_isa_pkg::I_VSUB);
  for (genvar k = 0; k < 8; k++) begin : g_fadd
    tessera_tpc_fadd u_fadd (
      .a_i(bf16 ? {va_i[32*k +: 16], 16'd0} : va_i[32*k +: 32]),
      .b_i(bf16 ? {vb_i[32*k +: 16] ^ {negb, 15'd0}, 16'd0} : vb_i[32*k +: 32] ^ {negb, 31'd0}),
      .r_o(fsum[32*k +: 32]));
  end
  for (genvar k = 0; k < 8; k++) begin : g_badd
    tessera_tpc_fadd u_fadd (
      .a_i({va_i[32*k+16 +: 16], 16'd0}),
      .b_i({vb_i[32*k+16 +: 16] ^ {negb, 15'd0}, 16'd0}),
      .r_o(fsum_hi[k]));
    assign bsum[32*k +: 16]    = to_bf16(sat, fsum[32*k +: 32]);
    assign bsum[32*k+16 +: 16] = to_bf16(sat, fsum_hi[k]);
  end
  logic [255:0] fprod;
  for (genvar k = 0; k < 8; k++) begin : g_fmul
    tessera_tpc_fmul u_fmul (.a_i(va_i[32*k +: 32]), .b_i(vb_i[32*k +: 32]), .r_o(fprod[32*k +: 32]));
  end
  for (genvar k = 0; k < 4; k++) begin : g_fred4
    tessera_tpc_fadd u_fadd (.a_i(va_i[32*k +: 32]), .b_i(va_i[32*(k+4) +: 32]), .r_o(fr4[k]));
  end
  for (genvar k = 0; k < 2; k++) begin : g_fred2
    tessera_tpc_fadd u_fadd (.a_i(fr4[k]), .b_i(fr4[k+2]), .r_o(fr2[k]));
  end
  tessera_tpc_fadd u_fred1 (.a_i(fr2[0]), .b_i(fr2[1]), .r_o(fr1));

  // per-byte write enable from the lane mask
  logic [31:0] bmask;
  always_comb begin
    for (int j = 0; j < 32; j++) begin
      unique case (wsel)
        2'd0:    bmask[j] = mask_i[j / 4];
        2'd1:    bmask[j] = mask_i[j / 2];
        default: bmask[j] = mask_i[j];
      endcase
    end
    unique case (wsel)
      2'd0:    begin
        lane_r = r32;
        if (dt_i == 4'd0 && (id_i == tessera_tpc_isa_pkg::I_VADD || id_i == tessera_tpc_isa_pkg::I_VSUB))
          lane_r = fsum;
        if (dt_i == 4'd0 && id_i == tessera_tpc_isa_pkg::I_VMUL) lane_r = fprod;
        cmp = {24'd0, c32};
      end
      2'd1:    begin
        lane_r = r16;
        if (bf16 && (id_i == tessera_tpc_isa_pkg::I_VADD || id_i == tessera_tpc_isa_pkg::I_VSUB))
          lane_r = bsum;
        cmp = {16'd0, c16};
      end
      default: begin lane_r = r8;  cmp = c8;           end
    endcase
  end

  // reductions (integers wrap; min/max by the lane compare rules, any float NaN -> NaN)
  logic [255:0] red;
  logic [31:0]  red32 [8];
  logic [15:0]  red16 [16];
  logic [7:0]   red8 [32];
  function automatic logic [31:0] rstep(input logic [6:0] op, input logic [1:0] kd,
                                        input logic [3:0] dt, input int unsigned lw,
                                        input logic [31:0] x, input logic [31:0] y);
    logic [31:0] r, sg, kx, ky, mk;
    logic        nx, ny, xlt;
    mk = (lw == 32) ? 32'hffff_ffff : (lw == 16) ? 32'h0000_ffff : 32'h0000_00ff;
    sg = (lw == 32) ? 32'h8000_0000 : (lw == 16) ? 32'h0000_8000 : 32'h0000_0080;
    nx = 1'b0; ny = 1'b0;
    if (kd == 2'd0) begin
      unique case (dt)
        4'd0:    begin nx = (x[30:23] == 8'hff) && (x[22:0] != 0); ny = (y[30:23] == 8'hff) && (y[22:0] != 0); end
        4'd1:    begin nx = (x[14:7] == 8'hff) && (x[6:0] != 0); ny = (y[14:7] == 8'hff) && (y[6:0] != 0); end
        4'd2:    begin nx = (x[14:10] == 5'h1f) && (x[9:0] != 0); ny = (y[14:10] == 5'h1f) && (y[9:0] != 0); end
        4'd3:    begin nx = (x[6:0] == 7'h7f); ny = (y[6:0] == 7'h7f); end
        default: begin nx = (x[6:2] == 5'h1f) && (x[1:0] != 0); ny = (y[6:2] == 5'h1f) && (y[1:0] != 0); end
      endcase
      kx = ((x & sg) != 0) ? (~x & mk) : (x ^ sg);
      ky = ((y & sg) != 0) ? (~y & mk) : (y ^ sg);
      xlt = kx < ky;
    end else begin
      kx = ((kd == 2'd1) && ((x & sg) != 0)) ? (x | ~mk) : x;  // sign-extend signed lanes
      ky = ((kd == 2'd1) && ((y & sg) != 0)) ? (y | ~mk) : y;
      xlt = (kd == 2'd1) ? ($signed(kx) < $signed(ky)) : (kx < ky);
    end
    if (op == tessera_tpc_isa_pkg::I_VREDSUM) r = (x + y) & mk;
    else if (nx || ny) r = x;   // NaN: replaced by the canonical NaN at the end
    else if ((op == tessera_tpc_isa_pkg::I_VREDMAX) == xlt) r = y;
    else r = x;
    if (nx) r = x;
    else if (ny) r = y;
    rstep = r;
  endfunction

  function automatic logic fnan_any(input logic [3:0] dt, input logic [30:0] x);
    unique case (dt)
      4'd0:    fnan_any = (x[30:23] == 8'hff) && (x[22:0] != 0);
      4'd1:    fnan_any = (x[14:7] == 8'hff) && (x[6:0] != 0);
      4'd2:    fnan_any = (x[14:10] == 5'h1f) && (x[9:0] != 0);
      4'd3:    fnan_any = (x[6:0] == 7'h7f);
      default: fnan_any = (x[6:2] == 5'h1f) && (x[1:0] != 0);
    endcase
  endfunction

  logic [31:0] red_r, qnan;
  always_comb begin
    for (int k = 0; k < 8; k++)  red32[k] = va_i[32*k +: 32];
    for (int k = 0; k < 16; k++) red16[k] = va_i[16*k +: 16];
    for (int k = 0; k < 32; k++) red8[k]  = va_i[8*k +: 8];
    for (int s = 4; s >= 1; s = s / 2)
      for (int k = 0; k < s; k++)
        red32[k] = rstep(id_i, kind, dt_i, 32, red32[k], red32[k + s]);
    for (int s = 8; s >= 1; s = s / 2)
      for (int k = 0; k < s; k++)
        red16[k] = 16'(rstep(id_i, kind, dt_i, 16, {16'd0, red16[k]}, {16'd0, red16[k + s]}));
    for (int s = 16; s >= 1; s = s / 2)
      for (int k = 0; k < s; k++)
        red8[k] = 8'(rstep(id_i, kind, dt_i, 8, {24'd0, red8[k]}, {24'd0, red8[k + s]}));
    unique case (dt_i)
      4'd0:    qnan = 32'h7fc0_0000;
      4'd1:    qnan = 32'h0000_7fc0;
      4'd2:    qnan = 32'h0000_7e00;
      4'd3:    qnan = 32'h0000_007f;
      default: qnan = 32'h0000_007e;
    endcase
    unique case (wsel)
      2'd0:    red_r = (dt_i == 4'd0 && id_i == tessera_tpc_isa_pkg::I_VREDSUM) ? fr1 : red32[0];
      2'd1:    red_r = {16'd0, red16[0]};
      default: red_r = {24'd0, red8[0]};
    endcase
    if (kind == 2'd0 && fnan_any(dt_i, red_r[30:0])) red_r = qnan;
    unique case (wsel)
      2'd0:    red = {8{red_r}};
      2'd1:    red = {16{red_r[15:0]}};
      default: red = {32{red_r[7:0]}};
    endcase
  end

  // shuffles and lane moves
  logic [255:0] perm, bcast, vlane, vins;
  logic [31:0]  ext;
  always_comb begin
    perm = '0; vlane = '0;
    for (int k = 0; k < 8; k++) begin
      perm[32*k +: 32] = 32'(va_i >> (32 * vb_i[32*k +: 3]));
    end
    if (wsel == 2'd1)
      for (int k = 0; k < 16; k++) perm[16*k +: 16] = 16'(va_i >> (16 * vb_i[16*k +: 4]));
    if (wsel == 2'd2)
      for (int k = 0; k < 32; k++) perm[8*k +: 8] = 8'(va_i >> (8 * vb_i[8*k +: 5]));
    unique case (wsel)
      2'd0:    bcast = {8{sa_i}};
      2'd1:    bcast = {16{sa_i[15:0]}};
      default: bcast = {32{sa_i[7:0]}};
    endcase
    unique case (wsel)
      2'd0:    for (int k = 0; k < 8; k++)  vlane[32*k +: 32] = 32'(k);
      2'd1:    for (int k = 0; k < 16; k++) vlane[16*k +: 16] = 16'(k);
      default: for (int k = 0; k < 32; k++) vlane[8*k +: 8]   = 8'(k);
    endcase
    vins = vd_i;
    unique case (wsel)
      2'd0: begin
        ext = 32'(va_i >> (32 * lane_i[2:0]));
        vins[32*lane_i[2:0] +: 32] = sa_i;
      end
      2'd1: begin
        ext = {16'd0, 16'(va_i >> (16 * lane_i[3:0]))};
        if (kind == 2'd1) ext[31:16] = {16{ext[15]}};
        vins[16*lane_i[3:0] +: 16] = sa_i[15:0];
      end
      default: begin
        ext = {24'd0, 8'(va_i >> (8 * lane_i))};
        if (kind == 2'd1) ext[31:8] = {24{ext[7]}};
        vins[8*lane_i +: 8] = sa_i[7:0];
      end
    endcase
  end

  // result selection and lane-predicated merge
  logic [255:0] full;
  always_comb begin
    unique case (id_i)
      tessera_tpc_isa_pkg::I_VREDSUM, tessera_tpc_isa_pkg::I_VREDMAX,
      tessera_tpc_isa_pkg::I_VREDMIN: full = red;
      tessera_tpc_isa_pkg::I_VPERM:   full = perm;
      tessera_tpc_isa_pkg::I_VBCAST:  full = bcast;
      tessera_tpc_isa_pkg::I_VLANE:   full = vlane;
      tessera_tpc_isa_pkg::I_VMOV:    full = va_i;
      tessera_tpc_isa_pkg::I_VINS:    full = vins;
      default:                        full = lane_r;
    endcase
    for (int j = 0; j < 32; j++)
      vd_o[8*j +: 8] = bmask[j] ? full[8*j +: 8] : vd_i[8*j +: 8];
    vpd_o = (cmp & mask_i) | (vpd_i & ~mask_i);
    unique case (wsel)
      2'd0:    vpd_o[31:8] = 24'd0;
      2'd1:    vpd_o[31:16] = 16'd0;
      default: ;
    endcase
    sd_o = ext;
  end
endmodule
