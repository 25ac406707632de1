// Queue-pair context table of a NIC port (docs/nic.md "Responder RTL"): NQp
// reliable-connection QPs, each with its state (RESET, INIT, RTR, RTS, ERROR),
// local and destination QPN, the remote MAC and IPv4 address, the path MTU code
// (1..5: 256..4096 bytes), the selective / go-back-N flag and the requester's
// next PSN. The responder's ePSN and MSN live in tessera_nic_rx_window, which
// this table loads (init_o) when a QP enters RTR.
//
// Modify (the registers' command): one QP moves to cmd_state_i with the
// attributes given, as ibv_modify_qp does; the legal transitions are
//   RESET -> RESET | INIT | ERROR      INIT -> INIT | RTR | RESET | ERROR
//   RTR   -> RTS | RESET | ERROR       RTS  -> RTS | RESET | ERROR
//   ERROR -> RESET | ERROR
// A legal one writes the attributes (none into RESET or ERROR) and, into RTR,
// loads the window with cmd_rq_psn_i; an illegal one or an MTU code outside
// 1..5 changes nothing and answers with an error code (cmd_err_o, one cycle
// after cmd_valid_i with cmd_done_o). The responder moves a QP to ERROR by
// itself (hw_err_i) after a remote access or operational error, the port's
// requesters (hw_err_vec_i, one bit per QP) after a NAK, the retry limit or a
// read error.
//
// Lookup (combinational, two ports: the responder's and the acknowledgement
// receiver's): the QP whose local QPN is the key, not in RESET. The qp_*_o
// arrays show every QP's state and attributes (the requesters' configuration).
module tessera_nic_qp_table #(
  parameter int unsigned NQp = 16,
  localparam int unsigned QpW = NQp > 1 ? $clog2(NQp) : 1
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // modify
  input  logic           cmd_valid_i,
  input  logic [QpW-1:0] cmd_qp_i,
  input  logic [2:0]     cmd_state_i,
  input  logic [23:0]    cmd_lqpn_i,
  input  logic [23:0]    cmd_dqpn_i,
  input  logic [47:0]    cmd_rmac_i,
  input  logic [31:0]    cmd_rip_i,
  input  logic [2:0]     cmd_mtu_i,
  input  logic           cmd_selective_i,
  input  logic [23:0]    cmd_sq_psn_i,
  input  logic [23:0]    cmd_rq_psn_i,
  output logic           cmd_done_o,
  output logic [1:0]     cmd_err_o,      // 0 ok, 1 illegal transition, 2 bad MTU
  // window load
  output logic           init_o,
  output logic [QpW-1:0] init_qp_o,
  output logic [23:0]    init_epsn_o,
  // hardware error
  input  logic           hw_err_i,
  input  logic [QpW-1:0] hw_err_qp_i,
  input  logic [NQp-1:0] hw_err_vec_i,
  // lookup by local QPN
  input  logic [23:0]    lk_qpn_i,
  output logic           lk_hit_o,
  output logic [QpW-1:0] lk_qp_o,
  output logic [2:0]     lk_state_o,
  output logic           lk_selective_o,
  output logic [23:0]    lk_dqpn_o,
  output logic [47:0]    lk_rmac_o,
  output logic [31:0]    lk_rip_o,
  // second lookup by local QPN (acknowledgements)
  input  logic [23:0]    lk2_qpn_i,
  output logic           lk2_hit_o,
  output logic [QpW-1:0] lk2_qp_o,
  // every QP
  output logic [NQp-1:0][2:0]  qp_state_o,
  output logic [NQp-1:0][23:0] qp_dqpn_o,
  output logic [NQp-1:0][47:0] qp_rmac_o,
  output logic [NQp-1:0][31:0] qp_rip_o,
  output logic [NQp-1:0][2:0]  qp_mtu_o,
  output logic [NQp-1:0]       qp_selective_o,
  output logic [NQp-1:0][23:0] qp_sq_psn_o,
  // read one QP (registers)
  input  logic [QpW-1:0] rd_qp_i,
  output logic [2:0]     rd_state_o,
  output logic [23:0]    rd_lqpn_o,
  output logic [23:0]    rd_dqpn_o,
  output logic [47:0]    rd_rmac_o,
  output logic [31:0]    rd_rip_o,
  output logic [2:0]     rd_mtu_o,
  output logic           rd_selective_o,
  output logic [23:0]    rd_sq_psn_o
);

  localparam logic [2:0] StReset = 3'd0;
  localparam logic [2:0] StInit  = 3'd1;
  localparam logic [2:0] StRtr   = 3'd2;
  localparam logic [2:0] StRts   = 3'd3;
  localparam logic [2:0] StError = 3'd4;

  localparam logic [1:0] ErrNone  = 2'd0;
  localparam logic [1:0] ErrTrans = 2'd1;
  localparam logic [1:0] ErrMtu   = 2'd2;

  logic [NQp-1:0][2:0]  state_q;
  logic [NQp-1:0][23:0] lqpn_q, dqpn_q, sq_psn_q;
  logic [NQp-1:0][47:0] rmac_q;
  logic [NQp-1:0][31:0] rip_q;
  logic [NQp-1:0][2:0]  mtu_q;
  logic [NQp-1:0]       sel_q;
  logic                 done_q;
  logic [1:0]           err_q;

  // ---- legality of a modify
  logic [2:0] cur;
  logic       legal, attrs;
  logic [1:0] cmd_err;

  always_comb begin
    cur = state_q[cmd_qp_i];
    unique case (cur)
      StReset: legal = cmd_state_i == StReset || cmd_state_i == StInit || cmd_state_i == StError;
      StInit:  legal = cmd_state_i == StInit || cmd_state_i == StRtr ||
                       cmd_state_i == StReset || cmd_state_i == StError;
      StRtr:   legal = cmd_state_i == StRts || cmd_state_i == StReset || cmd_state_i == StError;
      StRts:   legal = cmd_state_i == StRts || cmd_state_i == StReset || cmd_state_i == StError;
      StError: legal = cmd_state_i == StReset || cmd_state_i == StError;
      default: legal = 1'b0;
    endcase
    attrs = cmd_state_i == StInit || cmd_state_i == StRtr || cmd_state_i == StRts;
    if (!legal) begin
      cmd_err = ErrTrans;
    end else if (attrs && (cmd_mtu_i == 3'd0 || cmd_mtu_i > 3'd5)) begin
      cmd_err = ErrMtu;
    end else begin
      cmd_err = ErrNone;
    end
  end

  assign init_o      = cmd_valid_i && cmd_err == ErrNone && cmd_state_i == StRtr && cur == StInit;
  assign init_qp_o   = cmd_qp_i;
  assign init_epsn_o = cmd_rq_psn_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= '0;
      lqpn_q   <= '0;
      dqpn_q   <= '0;
      sq_psn_q <= '0;
      rmac_q   <= '0;
      rip_q    <= '0;
      mtu_q    <= '0;
      sel_q    <= '0;
      done_q   <= 1'b0;
      err_q    <= ErrNone;
    end else begin
      done_q <= cmd_valid_i;
      if (cmd_valid_i) err_q <= cmd_err;
      if (hw_err_i && state_q[hw_err_qp_i] != StReset) begin
        state_q[hw_err_qp_i] <= StError;
      end
      for (int i = 0; i < NQp; i++) begin
        if (hw_err_vec_i[i] && state_q[i] != StReset) begin
          state_q[i] <= StError;
        end
      end
      if (cmd_valid_i && cmd_err == ErrNone) begin
        state_q[cmd_qp_i] <= cmd_state_i;
        if (attrs) begin
          lqpn_q[cmd_qp_i]   <= cmd_lqpn_i;
          dqpn_q[cmd_qp_i]   <= cmd_dqpn_i;
          rmac_q[cmd_qp_i]   <= cmd_rmac_i;
          rip_q[cmd_qp_i]    <= cmd_rip_i;
          mtu_q[cmd_qp_i]    <= cmd_mtu_i;
          sel_q[cmd_qp_i]    <= cmd_selective_i;
          sq_psn_q[cmd_qp_i] <= cmd_sq_psn_i;
        end
      end
    end
  end

  assign cmd_done_o = done_q;
  assign cmd_err_o  = err_q;

  // ---- lookup: {hit, lowest index} of the QP not in RESET with local QPN key
  function automatic logic [QpW:0] lookup(logic [NQp-1:0][2:0] st, logic [NQp-1:0][23:0] lqpn,
                                          logic [23:0] key);
    lookup = '0;
    for (int i = NQp - 1; i >= 0; i--) begin
      if (st[i] != StReset && lqpn[i] == key) begin
        lookup = {1'b1, QpW'(i)};
      end
    end
  endfunction

  assign {lk_hit_o, lk_qp_o}   = lookup(state_q, lqpn_q, lk_qpn_i);
  assign {lk2_hit_o, lk2_qp_o} = lookup(state_q, lqpn_q, lk2_qpn_i);

  assign qp_state_o     = state_q;
  assign qp_dqpn_o      = dqpn_q;
  assign qp_rmac_o      = rmac_q;
  assign qp_rip_o       = rip_q;
  assign qp_mtu_o       = mtu_q;
  assign qp_selective_o = sel_q;
  assign qp_sq_psn_o    = sq_psn_q;

  assign lk_state_o     = state_q[lk_qp_o];
  assign lk_selective_o = sel_q[lk_qp_o];
  assign lk_dqpn_o      = dqpn_q[lk_qp_o];
  assign lk_rmac_o      = rmac_q[lk_qp_o];
  assign lk_rip_o       = rip_q[lk_qp_o];

  assign rd_state_o     = state_q[rd_qp_i];
  assign rd_lqpn_o      = lqpn_q[rd_qp_i];
  assign rd_dqpn_o      = dqpn_q[rd_qp_i];
  assign rd_rmac_o      = rmac_q[rd_qp_i];
  assign rd_rip_o       = rip_q[rd_qp_i];
  assign rd_mtu_o       = mtu_q[rd_qp_i];
  assign rd_selective_o = sel_q[rd_qp_i];
  assign rd_sq_psn_o    = sq_psn_q[rd_qp_i];

endmodule
