// Glitch-free clock gate for an idle engine.
//
// The enable is sampled on the falling edge and ANDed with the clock, so the
// gated clock can only change while clk_i is high from a full high phase: no
// glitches, no latch (the negative-edge flop plays the role of an ICG cell's
// latch; an ASIC flow maps this pair onto its integrated clock-gating cell).
// An engine is clocked in cycle N+1 if en_i was high during cycle N, so en_i
// must be high whenever the engine's state could change on the next edge:
// the engine is busy, or one of its inputs asks for attention (see the
// instantiation in tessera_top).
//
// Hold > 0 keeps the clock running for Hold more cycles after the last cycle
// with en_i high (a shift register on the ungated clock): what the last busy
// cycle or transfer leaves for the following edges (a registered status that
// follows the engine's state, a single-pulse register field, a done pulse into
// its sticky bit) then lands as in the ungated chip.
//
// Enable = 0 removes the gate (clk_o = clk_i): FPGA builds, where clock gating
// in fabric logic is not wanted, and anyone who wants the ungated chip.
//
// In simulation the gate is what lets Verilator skip an idle engine's logic:
// nothing in a gated domain is evaluated while its clock does not toggle.
module tessera_clk_gate #(
  parameter bit          Enable = 1'b1,
  parameter int unsigned Hold   = 0
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,       // clock the next cycle
  input  logic test_en_i,  // force the clock on (scan / debug)
  output logic clk_o
);

  if (Enable) begin : g_gate
    logic en, en_q;
    if (Hold > 0) begin : g_hold
      logic [Hold-1:0] act_q;   // en_i of the last Hold cycles
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) act_q <= '1;
        else         act_q <= (act_q << 1) | Hold'(en_i);
      end
      assign en = en_i || (|act_q);
    end else begin : g_no_hold
      logic unused_rst;
      assign unused_rst = rst_ni;
      assign en         = en_i;
    end
    always_ff @(negedge clk_i) begin
      en_q <= en | test_en_i;
    end
    assign clk_o = clk_i & en_q;
  end else begin : g_bypass
    logic unused_en;
    assign unused_en = en_i ^ test_en_i ^ rst_ni;
    assign clk_o = clk_i;
  end

endmodule
