// Miss handler of one L2 requester (a port's read or write engine). Handles one miss at a
// time (the engine waits for it): optional dirty-victim write-back (the victim's data was
// read by the bank in the lookup and comes with the result), refill of the
// line (allocating miss) or a single-beat downstream read/write (non-allocating miss). A
// non-allocating write is posted: the write engine counts the beat done at the lookup
// result, the MSHR puts it in the write queue and is free again (no completion); its B
// response goes to the write engine (which holds the burst's B until then).
// Downstream reads use ARID = MSHR index; a read waits while any write to the same line is
// not yet acknowledged (hazard_i), so it never overtakes a write-back.
// A full-line write that allocated its line at once over a dirty victim (the bank reports a
// hit) only uses the MSHR as a victim buffer: start_vonly_i queues the victim's write-back
// and returns to idle without a completion; the engine goes on meanwhile. free_o tells the
// write engine when it may issue a lookup that can start the MSHR again, and that a start in
// this cycle is taken: a start is also taken in the cycle a posted write or a victim-only
// write-back goes into the write queue, so posted non-allocating writes can follow each
// other every cycle.
module tessera_l2_mshr #(
  parameter int unsigned WayBits  = 3,
  parameter int unsigned LsetBits = 5,
  parameter int unsigned BankBits = 2
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // start (lookup result of this engine's request)
  input  logic                start_i,
  input  logic                start_alloc_i,   // 1 tessera_l2_pkg::ResMissAlloc, 0 tessera_l2_pkg::ResMissBypass
  input  logic                start_vonly_i,   // only write the dirty victim back (no completion)
  input  logic                start_write_i,
  input  logic [31:0]         start_addr_i,    // beat address
  input  logic [255:0]        start_wdata_i,
  input  logic [31:0]         start_wstrb_i,
  input  logic                start_full_i,    // write miss covering the whole line (beat 0 here,
  input  logic [255:0]        start_wdata1_i,  // beat 1 = start_wdata1_i): no refill read
  input  logic [BankBits-1:0] start_bank_i,
  input  logic [LsetBits-1:0] start_lset_i,
  input  logic [WayBits-1:0]  start_way_i,
  input  logic                start_vdirty_i,
  input  logic [31:0]         start_vaddr_i,
  input  logic [511:0]        start_vdata_i,
  input  logic [63:0]         start_vmask_i,  // the dirty victim's byte-dirty mask
  // idle, or queuing a victim-only write-back that the write queue takes this cycle
  output logic                free_o,
  output logic                idle_o,          // no miss, victim or posted beat in hand
  // completion to the engine
  output logic                done_o,
  output logic                done_replay_o,   // refill done: replay the lookup
  output logic [1:0]          done_resp_o,
  output logic [255:0]        done_rdata_o,
  // bank side operations
  output logic                side_req_o,
  output tessera_l2_pkg::side_op_e side_op_o,
  output logic [BankBits-1:0] side_bank_o,
  output logic [LsetBits-1:0] side_lset_o,
  output logic [WayBits-1:0]  side_way_o,
  output logic [511:0]        side_wdata_o,
  input  logic                side_gnt_i,
  // write queue
  output logic                wq_req_o,
  output logic [31:0]         wq_addr_o,
  output logic                wq_line_o,       // 1: 2-beat line, 0: one beat
  output logic [511:0]        wq_data_o,
  output logic [63:0]         wq_strb_o,
  output logic                wq_notify_o,     // report the B response back (to the engine)
  input  logic                wq_gnt_i,
  // writes not yet in the write queue (hazard sources): dirty victim / non-allocating write
  output logic                vict_pend_o,
  output logic [25:0]         vict_line_o,
  output logic                bw_pend_o,
  output logic [25:0]         bw_line_o,
  // downstream read
  output logic                ar_req_o,
  output logic [31:0]         ar_addr_o,
  output logic                ar_line_o,
  input  logic                hazard_i,        // an older write to the line is pending
  output logic                hz_want_o,       // hazard_i is looked at in this state
  input  logic                ar_gnt_i,
  input  logic                r_valid_i,
  input  logic [255:0]        r_data_i,
  input  logic [1:0]          r_resp_i,
  input  logic                r_last_i
);
  typedef enum logic [3:0] {
    StIdle, StVPush, StAr, StRWait, StFill, StBPush, StDone
  } state_e;

  state_e              st_q, st_d;
  logic                alloc_q, rbeat_q, full_q, vonly_q;
  logic [255:0]        wdata1_q;
  logic [31:0]         addr_q, vaddr_q;
  logic [255:0]        wdata_q;
  logic [31:0]         wstrb_q;
  logic [BankBits-1:0] bank_q;
  logic [LsetBits-1:0] lset_q;
  logic [WayBits-1:0]  way_q;
  logic [511:0]        buf_q;
  logic [63:0]         vmask_q;
  logic [1:0]          resp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q    <= StIdle;
      alloc_q <= 1'b0;
      rbeat_q <= 1'b0;
      full_q  <= 1'b0;
      vonly_q <= 1'b0;
      wdata1_q <= '0;
      addr_q  <= '0;
      vaddr_q <= '0;
      wdata_q <= '0;
      wstrb_q <= '0;
      bank_q  <= '0;
      lset_q  <= '0;
      way_q   <= '0;
      buf_q   <= '0;
      vmask_q <= '0;
      resp_q  <= 2'b00;
    end else begin
      st_q <= st_d;
      if (start_i && free_o) begin
        alloc_q <= start_alloc_i;
        full_q  <= start_alloc_i && start_write_i && start_full_i;
        vonly_q <= start_vonly_i;
        wdata1_q <= start_wdata1_i;
        addr_q  <= start_addr_i;
        vaddr_q <= start_vaddr_i;
        wdata_q <= start_wdata_i;
        wstrb_q <= start_wstrb_i;
        bank_q  <= start_bank_i;
        lset_q  <= start_lset_i;
        way_q   <= start_way_i;
        resp_q  <= 2'b00;
        rbeat_q <= 1'b0;
      end
      if (start_i && free_o) begin
        buf_q   <= start_vdata_i;
        vmask_q <= start_vmask_i;
      end
      if (st_q == StRWait && r_valid_i) begin
        if (rbeat_q) buf_q[511:256] <= r_data_i;
        else         buf_q[255:0]   <= r_data_i;
        rbeat_q <= ~rbeat_q;
        if (r_resp_i > resp_q) resp_q <= r_resp_i;
      end
    end
  end

  // state a start leads to (from idle, or chained onto a write-queue push that completes)
  state_e st_start;
  always_comb begin
    if (start_vonly_i)       st_start = StVPush;
    else if (!start_alloc_i) st_start = start_write_i ? StBPush : StAr;
    else if (start_vdirty_i) st_start = StVPush;
    else if (start_write_i && start_full_i) st_start = StFill;
    else                     st_start = StAr;
  end

  always_comb begin
    st_d = st_q;
    unique case (st_q)
      StIdle:  if (start_i) st_d = st_start;
      StVPush: if (wq_gnt_i) st_d = !vonly_q ? (full_q ? StFill : StAr) :
                                   start_i ? st_start : StIdle;
      StAr:    if (ar_gnt_i)   st_d = StRWait;
      StRWait: if (r_valid_i && r_last_i) st_d = alloc_q ? StFill : StDone;
      StFill:  if (side_gnt_i) st_d = StDone;
      StBPush: if (wq_gnt_i) st_d = start_i ? st_start : StIdle;
      StDone:  st_d = StIdle;
      default: st_d = StIdle;
    endcase
  end

  assign free_o = (st_q == StIdle) || ((st_q == StVPush) && vonly_q && wq_gnt_i) ||
                  ((st_q == StBPush) && wq_gnt_i);

  // refill error: the way is released, the engine gets the error instead of a replay
  assign done_o        = (st_q == StDone);
  assign done_replay_o = alloc_q && (resp_q == 2'b00);
  assign done_resp_o   = resp_q;
  assign done_rdata_o  = (resp_q == 2'b00) ? buf_q[255:0] : '0;

  assign side_req_o   = (st_q == StFill);
  assign side_op_o    = (resp_q == 2'b00) ? tessera_l2_pkg::SideFill : tessera_l2_pkg::SideFillErr;
  assign side_bank_o  = bank_q;
  assign side_lset_o  = lset_q;
  assign side_way_o   = way_q;
  // a full-line write miss fills the line with the burst's own data (the engine then
  // replays its beats, which hit and mark the line dirty)
  assign side_wdata_o = full_q ? {wdata1_q, wdata_q} : buf_q;

  // a non-allocating write waits (hazard_i) behind an older write-back of the same line
  assign wq_req_o    = (st_q == StVPush) || ((st_q == StBPush) && !hazard_i);
  assign wq_addr_o   = (st_q == StVPush) ? vaddr_q : addr_q;
  assign wq_line_o   = (st_q == StVPush);
  assign wq_data_o   = (st_q == StVPush) ? buf_q : {256'h0, wdata_q};
  // a victim write-back writes only the bytes dirty in the line (strobes = byte-dirty mask)
  assign wq_strb_o   = (st_q == StVPush) ? vmask_q : {32'h0, wstrb_q};
  assign wq_notify_o = (st_q == StBPush);

  assign vict_pend_o = (st_q == StVPush);
  assign vict_line_o = vaddr_q[31:6];
  assign bw_pend_o   = (st_q == StBPush);
  assign bw_line_o   = addr_q[31:6];

  assign ar_req_o  = (st_q == StAr) && !hazard_i;
  assign hz_want_o = (st_q == StAr) || (st_q == StBPush);
  assign ar_addr_o = alloc_q ? {addr_q[31:6], 6'b0} : {addr_q[31:5], 5'b0};
  assign ar_line_o = alloc_q;
  assign idle_o    = (st_q == StIdle);

endmodule
