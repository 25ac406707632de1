// Simulation and lint model of the ECP5 PLL primitive EHXPLLL (the ports and parameters
// the board tops use). Cycle level: CLKOP follows CLKI (the board tops configure the PLL
// for an output at the input frequency), CLKOS too when enabled (its phase is not
// modelled); LOCK rises after 16 input clocks. Synthesis
// uses the vendor cell instead (Yosys' ECP5 library), never this file.
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module EHXPLLL #(
  parameter     CLKI_DIV         = 1,
  parameter     CLKFB_DIV        = 1,
  parameter     CLKOP_DIV        = 8,
  parameter     CLKOS_DIV        = 8,
  parameter     CLKOS2_DIV       = 8,
  parameter     CLKOS3_DIV       = 8,
  parameter     CLKOP_ENABLE     = "ENABLED",
  parameter     CLKOS_ENABLE     = "DISABLED",
  parameter     CLKOS2_ENABLE    = "DISABLED",
  parameter     CLKOS3_ENABLE    = "DISABLED",
  parameter     CLKOP_CPHASE     = 0,
  parameter     CLKOS_CPHASE     = 0,
  parameter     CLKOS2_CPHASE    = 0,
  parameter     CLKOS3_CPHASE    = 0,
  parameter     CLKOP_FPHASE     = 0,
  parameter     CLKOS_FPHASE     = 0,
  parameter     CLKOS2_FPHASE    = 0,
  parameter     CLKOS3_FPHASE    = 0,
  parameter     FEEDBK_PATH      = "CLKOP",
  parameter     OUTDIVIDER_MUXA  = "DIVA",
  parameter     OUTDIVIDER_MUXB  = "DIVB",
  parameter     OUTDIVIDER_MUXC  = "DIVC",
  parameter     OUTDIVIDER_MUXD  = "DIVD",
  parameter     PLLRST_ENA       = "DISABLED",
  parameter     INTFB_WAKE       = "DISABLED",
  parameter     STDBY_ENABLE     = "DISABLED",
  parameter     DPHASE_SOURCE    = "DISABLED"
) (
  input  logic CLKI,
  input  logic CLKFB,
  input  logic PHASESEL1,
  input  logic PHASESEL0,
  input  logic PHASEDIR,
  input  logic PHASESTEP,
  input  logic PHASELOADREG,
  input  logic STDBY,
  input  logic PLLWAKESYNC,
  input  logic RST,
  input  logic ENCLKOP,
  input  logic ENCLKOS,
  input  logic ENCLKOS2,
  input  logic ENCLKOS3,
  output logic CLKOP,
  output logic CLKOS,
  output logic CLKOS2,
  output logic CLKOS3,
  output logic LOCK,
  output logic INTLOCK,
  output logic REFCLK,
  output logic CLKINTFB
);
  if (CLKFB_DIV != CLKI_DIV) begin : gen_ratio_check
    $error("EHXPLLL model: only output frequency == input frequency is modelled");
  end
  logic [4:0] cnt_q = '0;
  always_ff @(posedge CLKI) begin
    if (RST) cnt_q <= '0;
    else if (!cnt_q[4]) cnt_q <= cnt_q + 5'd1;
  end
  assign CLKOP    = CLKI;
  assign CLKOS    = (CLKOS_ENABLE == "ENABLED") ? CLKI : 1'b0;
  assign CLKOS2   = 1'b0;
  assign CLKOS3   = 1'b0;
  assign LOCK     = cnt_q[4];
  assign INTLOCK  = cnt_q[4];
  assign REFCLK   = CLKI;
  assign CLKINTFB = 1'b0;
endmodule
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on UNUSEDPARAM */
