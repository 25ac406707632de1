// One W-bit lane of the TPC vector unit (combinational): integer arithmetic (wrapping or
// saturating), bitwise, shifts, min/max and compares (integers and, by bit pattern, every
// float type), select, abs/neg. Float arithmetic is not done here.
// kind: 0 float, 1 signed, 2 unsigned. See docs/tpc_rtl.md.
module tessera_tpc_vlane #(
  parameter int unsigned W = 32
) (
  input  logic [6:0]   id_i,      // instruction number (tessera_tpc_isa_pkg::I_*)
  input  logic [1:0]   kind_i,
  input  logic [3:0]   dt_i,
  input  logic         sat_i,
  input  logic [2:0]   cc_i,
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic [W-1:0] c_i,
  input  logic         sel_i,
  output logic [W-1:0] r_o,
  output logic         cmp_o
);
  localparam int unsigned X = W + 1;       // sign/zero-extended operand
  localparam int unsigned E = 2 * W + 3;   // exact result of any op

  logic         is_s, is_f;
  logic [X-1:0] xa, xb, xc;
  logic signed [E-1:0] ea, eb, ec, exact, lo, hi;
  logic [W-1:0] sh;
  logic         a_nan, b_nan, a_zero, b_zero, lt_i, eq_i, lt_f, eq_f, lt, eq;
  logic [W-1:0] ka, kb, qnan, sgn;

  assign is_s = (kind_i == 2'd1);
  assign is_f = (kind_i == 2'd0);
  assign xa = {is_s & a_i[W-1], a_i};
  assign xb = {is_s & b_i[W-1], b_i};
  assign xc = {is_s & c_i[W-1], c_i};
  assign ea = E'(signed'(xa));
  assign eb = E'(signed'(xb));
  assign ec = E'(signed'(xc));
  assign sgn = {1'b1, {(W - 1){1'b0}}};

  always_comb begin
    unique case (id_i)
      tessera_tpc_isa_pkg::I_VSUB: exact = ea - eb;
      tessera_tpc_isa_pkg::I_VMUL: exact = ea * eb;
      tessera_tpc_isa_pkg::I_VFMA: exact = ea * eb + ec;
      default:                     exact = ea + eb;
    endcase
    if (is_s) begin
      lo = -(E'(signed'({1'b0, sgn})));
      hi = E'(signed'({1'b0, sgn})) - E'(1);
    end else begin
      lo = '0;
      hi = E'(signed'({1'b0, {W{1'b1}}}));
    end
  end

  // float NaN by type (dt 0 f32; 1 bf16, 2 f16; 3 e4m3, 4 e5m2)
  if (W == 32) begin : g_n32
    assign a_nan = is_f && (a_i[30:23] == 8'hff) && (a_i[22:0] != 23'd0);
    assign b_nan = is_f && (b_i[30:23] == 8'hff) && (b_i[22:0] != 23'd0);
  end else if (W == 16) begin : g_n16
    assign a_nan = is_f && ((dt_i == 4'd1) ? ((a_i[14:7] == 8'hff) && (a_i[6:0] != 7'd0))
                                           : ((a_i[14:10] == 5'h1f) && (a_i[9:0] != 10'd0)));
    assign b_nan = is_f && ((dt_i == 4'd1) ? ((b_i[14:7] == 8'hff) && (b_i[6:0] != 7'd0))
                                           : ((b_i[14:10] == 5'h1f) && (b_i[9:0] != 10'd0)));
  end else begin : g_n8
    assign a_nan = is_f && ((dt_i == 4'd3) ? (a_i[6:0] == 7'h7f)
                                           : ((a_i[6:2] == 5'h1f) && (a_i[1:0] != 2'd0)));
    assign b_nan = is_f && ((dt_i == 4'd3) ? (b_i[6:0] == 7'h7f)
                                           : ((b_i[6:2] == 5'h1f) && (b_i[1:0] != 2'd0)));
  end

  always_comb begin
    if (W == 32)                         qnan = W'(32'h7fc0_0000);
    else if (W == 16 && dt_i == 4'd1)    qnan = W'(16'h7fc0);
    else if (W == 16)                    qnan = W'(16'h7e00);
    else if (dt_i == 4'd3)               qnan = W'(8'h7f);
    else                                 qnan = W'(8'h7e);
  end

  assign a_zero = (a_i[W-2:0] == '0);
  assign b_zero = (b_i[W-2:0] == '0);
  // total order on float bit patterns (-0 < +0)
  assign ka = a_i[W-1] ? ~a_i : (a_i ^ sgn);
  assign kb = b_i[W-1] ? ~b_i : (b_i ^ sgn);
  assign lt_i = $signed(xa) < $signed(xb);
  assign eq_i = (a_i == b_i);
  assign lt_f = (ka < kb) && !(a_zero && b_zero);
  assign eq_f = (a_i == b_i) || (a_zero && b_zero);
  assign lt = is_f ? lt_f : lt_i;
  assign eq = is_f ? eq_f : eq_i;
  assign sh = b_i & W'(W - 1);

  always_comb begin
    unique case (cc_i)
      3'd0: cmp_o = eq;
      3'd1: cmp_o = !eq;
      3'd2: cmp_o = lt;
      3'd3: cmp_o = lt || eq;
      3'd4: cmp_o = !(lt || eq);
      default: cmp_o = !lt;
    endcase
    if (a_nan || b_nan) cmp_o = (cc_i == 3'd1);
  end

  always_comb begin
    unique case (id_i)
      tessera_tpc_isa_pkg::I_VADD, tessera_tpc_isa_pkg::I_VSUB,
      tessera_tpc_isa_pkg::I_VMUL, tessera_tpc_isa_pkg::I_VFMA: begin
        if (sat_i && exact < lo)      r_o = lo[W-1:0];
        else if (sat_i && exact > hi) r_o = hi[W-1:0];
        else                          r_o = exact[W-1:0];
      end
      tessera_tpc_isa_pkg::I_VMIN, tessera_tpc_isa_pkg::I_VMAX: begin
        if (is_f) begin
          if (a_nan || b_nan) r_o = qnan;
          else if ((id_i == tessera_tpc_isa_pkg::I_VMAX) == (ka < kb)) r_o = b_i;
          else r_o = a_i;
        end else begin
          r_o = ((id_i == tessera_tpc_isa_pkg::I_VMAX) == lt_i) ? b_i : a_i;
        end
      end
      tessera_tpc_isa_pkg::I_VABS: r_o = is_f ? (a_i & ~sgn) : (a_i[W-1] ? (~a_i + W'(1)) : a_i);
      tessera_tpc_isa_pkg::I_VNEG: r_o = is_f ? (a_i ^ sgn) : (~a_i + W'(1));
      tessera_tpc_isa_pkg::I_VSEL: r_o = sel_i ? a_i : b_i;
      tessera_tpc_isa_pkg::I_VAND: r_o = a_i & b_i;
      tessera_tpc_isa_pkg::I_VOR:  r_o = a_i | b_i;
      tessera_tpc_isa_pkg::I_VXOR: r_o = a_i ^ b_i;
      tessera_tpc_isa_pkg::I_VNOT: r_o = ~a_i;
      tessera_tpc_isa_pkg::I_VSHL: r_o = a_i << sh;
      tessera_tpc_isa_pkg::I_VSHR: r_o = is_s ? W'($signed(a_i) >>> sh) : (a_i >> sh);
      default: r_o = a_i;
    endcase
  end
endmodule
