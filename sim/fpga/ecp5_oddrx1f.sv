// Lint and simulation model of the ECP5 output DDR register ODDRX1F: D0 goes out on the
// rising edge of SCLK, D1 on the falling edge; RST clears the output. The board top
// forwards the SDRAM clock through it (D0 1, D1 0: Q follows SCLK). Synthesis uses the
// vendor cell (Yosys' ECP5 library), never this file.
/* verilator lint_off DECLFILENAME */
module ODDRX1F (
  input  logic D0,
  input  logic D1,
  input  logic SCLK,
  input  logic RST,
  output logic Q
);
  logic rise_q, fall_q;
  always_ff @(posedge SCLK or posedge RST) begin
    if (RST) rise_q <= 1'b0;
    else     rise_q <= D0;
  end
  always_ff @(negedge SCLK or posedge RST) begin
    if (RST) fall_q <= 1'b0;
    else     fall_q <= D1;
  end
  assign Q = SCLK ? rise_q : fall_q;
endmodule
