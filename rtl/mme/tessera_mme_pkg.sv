// MME shared types and constants. See docs/mme.md and docs/numerics.md.
package tessera_mme_pkg;

  // Data-type codes (DTYPE register fields, tests/golden/numfmt.h nf_fmt).
  localparam logic [2:0] FmtFp32 = 3'd0;
  localparam logic [2:0] FmtBf16 = 3'd1;
  localparam logic [2:0] FmtFp16 = 3'd2;
  localparam logic [2:0] FmtE4m3 = 3'd3;
  localparam logic [2:0] FmtE5m2 = 3'd4;

  // Error codes (STATUS.err).
  localparam logic [7:0] ErrNone     = 8'd0;
  localparam logic [7:0] ErrZeroDim  = 8'd1;
  localparam logic [7:0] ErrDimMax   = 8'd2;
  localparam logic [7:0] ErrType     = 8'd3;
  localparam logic [7:0] ErrAlign    = 8'd4;
  localparam logic [7:0] ErrRange    = 8'd5;
  localparam logic [7:0] ErrOverlap  = 8'd6;
  localparam logic [7:0] ErrAxi      = 8'd7;

  // A decoded operand: (-1)^sign * mant * 2^exp when neither nan, inf nor zero.
  typedef struct packed {
    logic        nan;
    logic        inf;
    logic        zero;
    logic        sign;
    logic [9:0]  exp;   // two's complement
    logic [23:0] mant;  // integer significand (hidden bit explicit, subnormals as-is)
  } fpdec_t;

endpackage
