// Lint and simulation model of the ECP5 primitive USRMCLK: user logic drives the
// dedicated configuration clock pin (CCLK, the SPI flash's SCK) after configuration.
// USRMCLKI is the clock, USRMCLKTS its tristate (1: pin released). No pin here: the
// board top's flash clock has no other path, so the model only consumes the inputs.
// Synthesis uses the vendor cell (Yosys' ECP5 library), never this file.
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDSIGNAL */
module USRMCLK (
  input wire USRMCLKI,
  input wire USRMCLKTS
);
endmodule
