// Responder PSN window of the NIC's receive side, one per QP (docs/nic.md
// "Responder RTL"). Per QP it holds the expected PSN (ePSN), the responder's
// MSN, a 128-bit bitmap of the PSNs in [ePSN, ePSN + 128) that were placed out
// of order (bit PSN % 128) with a second bitmap of which of them ended a
// message (AckReq), and go-back-N's "sequence NAK sent for this hole" flag.
//
// classify: combinational, for the packet (qp, PSN) the responder holds:
//   ClsInOrder  PSN = ePSN: place it
//   ClsOoo      selective QP, inside the window past ePSN, not yet placed: place it
//   ClsDup      before ePSN: drop, re-acknowledge (ACK ePSN - 1, MSN)
//   ClsDupSack  selective QP, inside the window, already placed: drop, SACK (ePSN, PSN)
//   ClsBeyond   selective QP, PSN >= ePSN + 128: drop silently
//   ClsHoleNak  go-back-N QP, PSN past ePSN, first one of this hole: drop, NAK (ePSN)
//   ClsHole     go-back-N QP, PSN past ePSN, NAK already sent: drop silently
// commit: the packet classified ClsInOrder / ClsOoo has been written. A packet
//   at ePSN whose successor is not placed moves ePSN (and MSN on AckReq) in the
//   commit cycle itself. Otherwise its bit is set and ePSN then advances one PSN
//   per cycle over every set bit (clearing it, MSN + 1 for each AckReq bit),
//   stopping at the last one; busy_o stays high until it is done, and epsn_o /
//   msn_o of that QP are final when busy_o is low.
// commit_read: the READ request at ePSN (classified ClsInOrder) has been answered:
//   ePSN moves past its read_npkts response PSNs, MSN + 1, the bits of those PSNs
//   are cleared, and ePSN then advances over any PSN placed behind them (busy_o).
// nak_sent: the responder sent the sequence NAK of a ClsHoleNak packet.
// init: the QP enters RTR: ePSN and MSN loaded, bitmaps and flag cleared.
// PSNs are 24 bits and wrap: the distance is taken modulo 2^24 as a signed number.
module tessera_nic_rx_window #(
  parameter int unsigned NQp = 16,
  localparam int unsigned QpW = NQp > 1 ? $clog2(NQp) : 1
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // classification of one packet
  input  logic [QpW-1:0] qp_i,
  input  logic [23:0]    psn_i,
  input  logic           selective_i,     // the QP's mode
  output logic [2:0]     class_o,
  output logic [23:0]    epsn_o,          // of qp_i
  output logic [23:0]    msn_o,           // of qp_i
  // the classified packet was placed
  input  logic           commit_i,
  input  logic           commit_ackreq_i,
  input  logic           commit_read_i,   // with commit_i: a READ request of ...
  input  logic [23:0]    read_npkts_i,    // ... this many response PSNs (1..2^23)
  input  logic           nak_sent_i,
  output logic           busy_o,          // ePSN advancing
  // QP enters RTR
  input  logic           init_i,
  input  logic [QpW-1:0] init_qp_i,
  input  logic [23:0]    init_epsn_i
);

  localparam int unsigned Win = 128;

  logic [NQp-1:0][23:0]    epsn_q, epsn_d;
  logic [NQp-1:0][23:0]    msn_q, msn_d;
  logic [NQp-1:0][Win-1:0] got_q, got_d;     // placed, waiting for ePSN
  logic [NQp-1:0][Win-1:0] last_q, last_d;   // ... and it carried AckReq
  logic [NQp-1:0]          nak_q, nak_d;
  logic                    adv_q, adv_d;     // advancing ePSN of adv_qp_q
  logic [QpW-1:0]          adv_qp_q, adv_qp_d;

  // ---- classification
  logic [23:0] diff;
  logic [Win-1:0] got_sel;

  always_comb begin
    diff    = psn_i - epsn_q[qp_i];
    got_sel = got_q[qp_i];
    if (diff == 24'd0) begin
      class_o = tessera_nic_pkg::ClsInOrder;
    end else if (diff[23]) begin
      class_o = tessera_nic_pkg::ClsDup;
    end else if (selective_i) begin
      if (diff >= 24'(Win))          class_o = tessera_nic_pkg::ClsBeyond;
      else if (got_sel[psn_i[6:0]])  class_o = tessera_nic_pkg::ClsDupSack;
      else                           class_o = tessera_nic_pkg::ClsOoo;
    end else begin
      class_o = nak_q[qp_i] ? tessera_nic_pkg::ClsHole : tessera_nic_pkg::ClsHoleNak;
    end
  end

  assign epsn_o = epsn_q[qp_i];
  assign msn_o  = msn_q[qp_i];
  assign busy_o = adv_q;

  // ---- updates
  always_comb begin
    logic [23:0]    e;
    logic [Win-1:0] g, l;
    epsn_d   = epsn_q;
    msn_d    = msn_q;
    got_d    = got_q;
    last_d   = last_q;
    nak_d    = nak_q;
    adv_d    = adv_q;
    adv_qp_d = adv_qp_q;
    e        = epsn_q[adv_qp_q];
    g        = got_q[adv_qp_q];
    l        = last_q[adv_qp_q];
    if (adv_q) begin
      // one PSN per cycle: ePSN moves over a placed PSN
      if (g[e[6:0]]) begin
        g[e[6:0]] = 1'b0;
        l[e[6:0]] = 1'b0;
        if (last_q[adv_qp_q][e[6:0]]) msn_d[adv_qp_q] = msn_q[adv_qp_q] + 24'd1;
        epsn_d[adv_qp_q] = e + 24'd1;
        nak_d[adv_qp_q]  = 1'b0;
        got_d[adv_qp_q]  = g;
        last_d[adv_qp_q] = l;
        // done when the next PSN is not placed either (saves the cycle that would find it)
        if (!g[7'(e[6:0] + 7'd1)]) adv_d = 1'b0;
      end else begin
        adv_d = 1'b0;
      end
    end
    if (commit_i && commit_read_i) begin
      // a READ takes read_npkts PSNs; then advance over what was placed behind it
      for (int unsigned i = 0; i < Win; i++) begin
        if (read_npkts_i >= 24'(Win) || {17'd0, 7'(i) - psn_i[6:0]} < read_npkts_i) begin
          got_d[qp_i][i]  = 1'b0;
          last_d[qp_i][i] = 1'b0;
        end
      end
      msn_d[qp_i]  = msn_q[qp_i] + 24'd1;
      epsn_d[qp_i] = psn_i + read_npkts_i;
      nak_d[qp_i]  = 1'b0;
      adv_d        = 1'b1;
      adv_qp_d     = qp_i;
    end else if (commit_i && psn_i == epsn_q[qp_i] && !got_q[qp_i][7'(psn_i[6:0] + 7'd1)]) begin
      // in order with nothing placed behind it: ePSN moves over it at once (not busy)
      if (commit_ackreq_i) msn_d[qp_i] = msn_q[qp_i] + 24'd1;
      epsn_d[qp_i] = psn_i + 24'd1;
      nak_d[qp_i]  = 1'b0;
    end else if (commit_i) begin
      got_d[qp_i][psn_i[6:0]]  = 1'b1;
      last_d[qp_i][psn_i[6:0]] = commit_ackreq_i;
      adv_d    = 1'b1;
      adv_qp_d = qp_i;
    end
    if (nak_sent_i) begin
      nak_d[qp_i] = 1'b1;
    end
    if (init_i) begin
      epsn_d[init_qp_i] = init_epsn_i;
      msn_d[init_qp_i]  = '0;
      got_d[init_qp_i]  = '0;
      last_d[init_qp_i] = '0;
      nak_d[init_qp_i]  = 1'b0;
      if (adv_qp_q == init_qp_i) adv_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      epsn_q   <= '0;
      msn_q    <= '0;
      got_q    <= '0;
      last_q   <= '0;
      nak_q    <= '0;
      adv_q    <= 1'b0;
      adv_qp_q <= '0;
    end else begin
      epsn_q   <= epsn_d;
      msn_q    <= msn_d;
      got_q    <= got_d;
      last_q   <= last_d;
      nak_q    <= nak_d;
      adv_q    <= adv_d;
      adv_qp_q <= adv_qp_d;
    end
  end

endmodule
