// SDR SDRAM controller: an AXI4 subordinate of the memory-side flavour
// (tessera_bus_pkg::axi_mem_req_t / axi_mem_rsp_t, DataBits wide) in front of one
// 16-bit SDR SDRAM (docs/sdram.md).
//
// - Every AXI beat is served as 16-bit column accesses with burst length 1 (the mode
//   register's BL = 1): one READ or WRITE command per word, a new column every cycle, so
//   a beat of DataBits takes DataBits/16 commands. WSTRB becomes DQM per 16-bit word;
//   a word whose two strobes are both low is not written at all (no command).
// - Open-row policy with one open row per bank: a row stays open until an access to
//   another row of its bank or a refresh needs the bank.
// - Periodic AUTO REFRESH has priority over traffic: the request is raised early by
//   the worst-case time to close every bank, so the interval between two refreshes never
//   exceeds tREFI even under continuous load.
// - Initialisation after reset: power-up wait (CKE high, NOP), PRECHARGE ALL,
//   InitRefreshes AUTO REFRESH, LOAD MODE REGISTER (BL 1, sequential, CAS latency).
// - Every timing parameter is given in ns (the datasheet's unit) and converted to clock
//   cycles here: ceil(t / tCK), at least one cycle; tREFI rounds down.
// - Transactions are served one at a time in arrival order (reads and writes alternate
//   when both wait); INCR, WRAP and FIXED bursts of any length and narrow sizes are
//   accepted; responses are always OKAY. The address wraps at the memory size.
//
// Address map (byte address): [0] byte in word, then column (ColBits), bank
// (BankBits), row (RowBits): a sequential stream changes bank at every row boundary.
module tessera_sdram_ctrl #(
  parameter int unsigned ClkPeriodPs   = 40000,   // controller = SDRAM clock period
  parameter int unsigned CasLatency    = 2,       // 2 or 3
  parameter int unsigned RowBits       = 13,
  parameter int unsigned ColBits       = 9,
  parameter int unsigned BankBits      = 2,
  // timing in ns (AS4C16M16SA-7, docs/sdram.md "Timing")
  parameter int unsigned TRcdNs        = 21,
  parameter int unsigned TRpNs         = 21,
  parameter int unsigned TRcNs         = 63,
  parameter int unsigned TRasNs        = 42,
  parameter int unsigned TWrNs         = 14,
  parameter int unsigned TRrdNs        = 14,
  parameter int unsigned TMrdNs        = 14,
  parameter int unsigned TRfcNs        = 63,
  parameter int unsigned TRefiNs       = 7800,    // 64 ms / 8192 rows, rounded down
  parameter int unsigned TPowerUpNs    = 200000,
  parameter int unsigned InitRefreshes = 2
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  tessera_bus_pkg::axi_mem_req_t  slv_req_i,
  output tessera_bus_pkg::axi_mem_rsp_t  slv_rsp_o,
  output logic                           init_done_o,
  // SDRAM pins (registered); dq split for the board top's tristate buffer
  output logic                           sd_cke_o,
  output logic                           sd_cs_n_o,
  output logic                           sd_ras_n_o,
  output logic                           sd_cas_n_o,
  output logic                           sd_we_n_o,
  output logic [BankBits-1:0]            sd_ba_o,
  output logic [RowBits-1:0]             sd_a_o,
  output logic [1:0]                     sd_dqm_o,
  output logic [15:0]                    sd_dq_o,
  output logic                           sd_dq_oe_o,
  input  logic [15:0]                    sd_dq_i
);

  // ---------------------------------------------------------------- parameters
  localparam int unsigned NumBanks  = 1 << BankBits;
  localparam int unsigned AddrW     = tessera_bus_pkg::AddrBits;
  localparam int unsigned IdW       = tessera_bus_pkg::MemIdBits;
  localparam int unsigned BeatBytes = tessera_bus_pkg::DataBits / 8;
  localparam int unsigned BeatWords = tessera_bus_pkg::DataBits / 16;
  localparam int unsigned BeatLsb   = $clog2(BeatBytes);
  localparam int unsigned WidxBits  = $clog2(BeatWords);
  localparam int unsigned WordBits  = ColBits + BankBits + RowBits;   // word address bits

  localparam int unsigned TRcdC0  = (TRcdNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRpC0   = (TRpNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRcC0   = (TRcNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRasC0  = (TRasNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TWrC0   = (TWrNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRrdC0  = (TRrdNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TMrdC0  = (TMrdNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRfcC0  = (TRfcNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  localparam int unsigned TRcd    = (TRcdC0 < 1) ? 1 : TRcdC0;
  localparam int unsigned TRp     = (TRpC0 < 1) ? 1 : TRpC0;
  localparam int unsigned TRc     = (TRcC0 < 1) ? 1 : TRcC0;
  localparam int unsigned TRas    = (TRasC0 < 1) ? 1 : TRasC0;
  localparam int unsigned TWr     = (TWrC0 < 1) ? 1 : TWrC0;
  localparam int unsigned TRrd    = (TRrdC0 < 1) ? 1 : TRrdC0;
  localparam int unsigned TMrd    = (TMrdC0 < 1) ? 1 : TMrdC0;
  localparam int unsigned TRfc    = (TRfcC0 < 1) ? 1 : TRfcC0;
  localparam int unsigned TRefi   = TRefiNs * 1000 / ClkPeriodPs;
  localparam int unsigned TPwrUp  = (TPowerUpNs * 1000 + ClkPeriodPs - 1) / ClkPeriodPs;
  // Worst case from a refresh request to its REFRESH command: the current row's tRAS
  // and tWR, then tRP, plus the command slots (doc: "Refresh").
  localparam int unsigned RefLat  = TRas + TWr + TRp + TRfc + 4;
  localparam int unsigned RefIvl  = (TRefi > 2 * RefLat) ? TRefi - RefLat : TRefi / 2;
  localparam int unsigned RdToWr  = CasLatency + 2;   // READ -> WRITE: one idle bus cycle
  localparam int unsigned TimW    = 8;
  localparam int unsigned LongW   = $clog2(((TPwrUp > TRefi) ? TPwrUp : TRefi) + 2);
  localparam int unsigned Credits = 2 * BeatWords;    // read words buffered: assembly + R
  localparam int unsigned CrW     = $clog2(Credits + 1);

  // mode register: BL 1 (A2:0 = 0), sequential (A3 = 0), CAS latency A6:4, single
  // burst write mode off (A9 = 0: writes use the programmed BL 1 too)
  localparam logic [RowBits-1:0] ModeReg = RowBits'(CasLatency << 4);

  // commands {cs_n, ras_n, cas_n, we_n}
  typedef enum logic [3:0] {
    CmdNop  = 4'b0111,
    CmdAct  = 4'b0011,
    CmdRead = 4'b0101,
    CmdWrit = 4'b0100,
    CmdPre  = 4'b0010,
    CmdRef  = 4'b0001,
    CmdMrs  = 4'b0000,
    CmdInh  = 4'b1111
  } cmd_e;

  // ---------------------------------------------------------------- AXI front end
  typedef enum logic [1:0] { FeIdle, FeRead, FeWrite } fe_e;
  fe_e fe_q, fe_d;

  // current burst (read or write)
  logic [AddrW-1:0] bu_addr_q, bu_addr_d;
  logic [7:0]          bu_left_q, bu_left_d;     // beats after the current one
  logic [7:0]          bu_len_q, bu_len_d;
  logic [2:0]          bu_size_q, bu_size_d;
  logic [1:0]          bu_burst_q, bu_burst_d;
  tessera_bus_pkg::mem_id_t             bu_id_q, bu_id_d;
  logic                prefer_rd_q, prefer_rd_d;

  // read issue position in the beat
  logic [WidxBits-1:0] rd_widx_q, rd_widx_d;
  // write beat buffer
  logic                wb_valid_q, wb_valid_d;
  tessera_bus_pkg::data_t               wb_data_q, wb_data_d;
  tessera_bus_pkg::strb_t               wb_strb_q, wb_strb_d;
  logic [BeatWords-1:0] wb_mask_q, wb_mask_d;    // words still to write
  logic                b_push, b_full, b_empty, fe_free, b_room;
  logic [2:0]          b_out_q;                  // writes accepted, B not yet taken
  logic                take_ar, take_aw;          // address accepted this cycle
  tessera_bus_pkg::axi_mem_ax_chan_t    ax;
  tessera_bus_pkg::mem_id_t             b_id;

  // next beat address of the current burst (AXI4 A3.4.1)
  logic [AddrW-1:0] beat_next;
  always_comb begin
    logic [AddrW-1:0] step, aligned, incr, wmask;
    step    = AddrW'(1) << bu_size_q;
    aligned = bu_addr_q & ~(step - AddrW'(1));
    incr    = aligned + step;
    wmask   = (({{(AddrW - 8){1'b0}}, bu_len_q} + AddrW'(1)) << bu_size_q) - AddrW'(1);
    unique case (bu_burst_q)
      2'b00:   beat_next = bu_addr_q;                                   // FIXED
      2'b10:   beat_next = (aligned & ~wmask) | (incr & wmask);         // WRAP
      default: beat_next = incr;                                        // INCR
    endcase
  end

  // the word the front end offers to the command scheduler
  logic                 wq_valid, wq_we, wq_take;
  logic [WordBits-1:0]  wq_addr;
  logic [15:0]          wq_data;
  logic [1:0]           wq_dqm;
  logic [WidxBits-1:0]  wb_widx;                    // lowest word still to write
  logic [BeatWords-1:0] wb_low;                     // its one-hot
  logic                 rd_credit;                  // a read word may be issued

  always_comb begin
    wb_widx = '0;
    for (int i = BeatWords - 1; i >= 0; i--) begin
      if (wb_mask_q[i]) wb_widx = WidxBits'(i);
    end
  end
  assign wb_low = wb_mask_q & ~(wb_mask_q - BeatWords'(1));

  logic [WordBits-1:0] beat_word;
  assign beat_word = WordBits'(bu_addr_q[AddrW-1:BeatLsb] << WidxBits);

  always_comb begin
    wq_valid = 1'b0;
    wq_we    = 1'b0;
    wq_addr  = beat_word | WordBits'(rd_widx_q);
    wq_data  = wb_data_q[16*wb_widx +: 16];
    wq_dqm   = ~wb_strb_q[2*wb_widx +: 2];
    if (fe_q == FeRead) begin
      wq_valid = rd_credit;
    end else if (fe_q == FeWrite) begin
      wq_valid = wb_valid_q && (wb_mask_q != '0);
      wq_we    = 1'b1;
      wq_addr  = beat_word | WordBits'(wb_widx);
    end
  end

  // read data path: assembly buffer, R output register, beat metadata
  logic [CasLatency:0]  rd_pipe_q;                  // READ issued, by age in cycles
  tessera_bus_pkg::data_t                asm_q;
  logic [WidxBits:0]    asm_cnt_q;
  logic                 r_valid_q;
  tessera_bus_pkg::data_t                r_data_q;
  logic [CrW-1:0]       credit_q;
  logic                 meta_push, meta_empty, meta_full, meta_last;
  tessera_bus_pkg::mem_id_t              meta_id;
  logic                 r_hs, asm_move, cap;
  logic                 meta_last_q;

  assign rd_credit = (credit_q != '0) && !meta_full;
  assign r_hs      = r_valid_q && slv_req_i.r_ready;
  assign cap       = rd_pipe_q[CasLatency];
  assign asm_move  = (asm_cnt_q == (WidxBits + 1)'(BeatWords)) && (!r_valid_q || r_hs);

  // write side readiness
  logic wb_done;    // the buffered beat's last word goes out (or it has none)
  assign wb_done = wb_valid_q && ((wb_mask_q == '0) || (wq_take && wq_we && (wb_mask_q == wb_low)));

  always_comb begin
    fe_d        = fe_q;
    bu_addr_d   = bu_addr_q;
    bu_left_d   = bu_left_q;
    bu_len_d    = bu_len_q;
    bu_size_d   = bu_size_q;
    bu_burst_d  = bu_burst_q;
    bu_id_d     = bu_id_q;
    prefer_rd_d = prefer_rd_q;
    rd_widx_d   = rd_widx_q;
    wb_valid_d  = wb_valid_q;
    wb_data_d   = wb_data_q;
    wb_strb_d   = wb_strb_q;
    wb_mask_d   = wb_mask_q;
    b_push      = 1'b0;
    meta_push   = 1'b0;
    meta_last   = 1'b0;
    fe_free     = 1'b0;
    take_ar     = 1'b0;
    take_aw     = 1'b0;
    ax          = slv_req_i.ar;
    slv_rsp_o   = '0;

    unique case (fe_q)
      FeIdle: fe_free = 1'b1;
      FeRead: begin
        if (wq_take) begin
          rd_widx_d = rd_widx_q + WidxBits'(1);
          if (rd_widx_q == WidxBits'(BeatWords - 1)) begin
            meta_push = 1'b1;
            meta_last = (bu_left_q == '0);
            bu_addr_d = beat_next;
            bu_left_d = bu_left_q - 8'd1;
            if (bu_left_q == '0) begin
              fe_d    = FeIdle;
              fe_free = 1'b1;
            end
          end
        end
      end
      FeWrite: begin
        if (wq_take) wb_mask_d = wb_mask_q & ~wb_low;
        if (wb_done) begin
          wb_valid_d = 1'b0;
          bu_addr_d  = beat_next;
          bu_left_d  = bu_left_q - 8'd1;
          if (bu_left_q == '0) begin
            fe_d    = FeIdle;
            fe_free = 1'b1;
            b_push  = 1'b1;
          end
        end
        // take the next W beat when the buffer is (becoming) free and beats remain
        if ((!wb_valid_q || (wb_done && bu_left_q != '0)) && slv_req_i.w_valid) begin
          slv_rsp_o.w_ready = 1'b1;
          wb_valid_d = 1'b1;
          wb_data_d  = slv_req_i.w.data;
          wb_strb_d  = slv_req_i.w.strb;
          for (int i = 0; i < BeatWords; i++) wb_mask_d[i] = |slv_req_i.w.strb[2*i +: 2];
        end
      end
      default: fe_d = FeIdle;
    endcase

    // the next transaction is accepted in the cycle the current one issues its last
    // command; reads and writes alternate when both wait. A write needs room for its B.
    if (fe_free) begin
      take_ar = slv_req_i.ar_valid && (prefer_rd_q || !slv_req_i.aw_valid || !b_room);
      take_aw = !take_ar && slv_req_i.aw_valid && b_room;
      ax      = take_ar ? slv_req_i.ar : slv_req_i.aw;
      slv_rsp_o.ar_ready = take_ar;
      slv_rsp_o.aw_ready = take_aw;
      if (take_ar || take_aw) begin
        fe_d        = take_ar ? FeRead : FeWrite;
        prefer_rd_d = take_aw;
        bu_addr_d   = ax.addr;
        bu_left_d   = ax.len;
        bu_len_d    = ax.len;
        bu_size_d   = (ax.size > 3'(BeatLsb)) ? 3'(BeatLsb) : ax.size;
        bu_burst_d  = ax.burst;
        bu_id_d     = ax.id;
        rd_widx_d   = '0;
      end
    end

    slv_rsp_o.b_valid = !b_empty;
    slv_rsp_o.b.id    = b_id;
    slv_rsp_o.r_valid = r_valid_q;
    slv_rsp_o.r.data  = r_data_q;
    slv_rsp_o.r.id    = meta_id;
    slv_rsp_o.r.last  = meta_last_q;
  end

  // write responses: pushed when a write's last command is issued (a FIFO: the next
  // write may start before the manager takes the B)
  tessera_fifo #(
    .Width(IdW),
    .Depth(4)
  ) u_b (
    .clk_i,
    .rst_ni,
    .push_i (b_push),
    .data_i (bu_id_q),
    .pop_i  (slv_req_i.b_ready),
    .data_o (b_id),
    .full_o (b_full),
    .empty_o(b_empty)
  );
  assign b_room = (b_out_q < 3'd4);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) b_out_q <= '0;
    else b_out_q <= b_out_q + (take_aw ? 3'd1 : 3'd0)
                            - ((!b_empty && slv_req_i.b_ready) ? 3'd1 : 3'd0);
  end

  tessera_fifo #(
    .Width(IdW + 1),
    .Depth(4)
  ) u_rd_meta (
    .clk_i,
    .rst_ni,
    .push_i (meta_push),
    .data_i ({bu_id_q, meta_last}),
    .pop_i  (r_hs),
    .data_o ({meta_id, meta_last_q}),
    .full_o (meta_full),
    .empty_o(meta_empty)
  );

  // ---------------------------------------------------------------- command scheduler
  typedef enum logic [2:0] {
    InPowerUp, InPrecharge, InRefresh, InMode, InDone
  } init_e;
  init_e init_q, init_d;

  logic [LongW-1:0]  long_q, long_d;          // power-up wait, then the refresh timer
  logic [3:0]        init_refs_q, init_refs_d;
  logic              ref_pend_q, ref_pend_d;

  logic [NumBanks-1:0]              open_q, open_d;
  logic [NumBanks-1:0][RowBits-1:0] row_q, row_d;
  logic [NumBanks-1:0][TimW-1:0]    rcd_q, rcd_d, ras_q, ras_d, rc_q, rc_d, wr_q, wr_d, rp_q, rp_d;
  logic [TimW-1:0]                  rrd_q, rrd_d, rfc_q, rfc_d, mrd_q, mrd_d, rdwr_q, rdwr_d;

  cmd_e                cmd;
  logic [BankBits-1:0] cmd_ba;
  logic [RowBits-1:0]  cmd_a;
  logic [1:0]          cmd_dqm;
  logic                cmd_oe;

  logic [ColBits-1:0]  req_col;
  logic [BankBits-1:0] req_bank;
  logic [RowBits-1:0]  req_row;
  assign req_col  = wq_addr[ColBits-1:0];
  assign req_bank = wq_addr[ColBits +: BankBits];
  assign req_row  = wq_addr[ColBits + BankBits +: RowBits];

  logic all_closable;   // every open bank may be precharged now
  logic all_idle;       // every bank closed and past tRP
  always_comb begin
    all_closable = 1'b1;
    all_idle     = 1'b1;
    for (int b = 0; b < NumBanks; b++) begin
      if (open_q[b] && (ras_q[b] != '0 || wr_q[b] != '0)) all_closable = 1'b0;
      if (open_q[b] || rp_q[b] != '0 || rc_q[b] != '0) all_idle = 1'b0;
    end
  end

  function automatic logic [TimW-1:0] dec(input logic [TimW-1:0] v);
    dec = (v == '0) ? '0 : v - TimW'(1);
  endfunction

  always_comb begin
    init_d      = init_q;
    long_d      = long_q;
    init_refs_d = init_refs_q;
    ref_pend_d  = ref_pend_q;
    open_d      = open_q;
    row_d       = row_q;
    for (int b = 0; b < NumBanks; b++) begin
      rcd_d[b] = dec(rcd_q[b]);
      ras_d[b] = dec(ras_q[b]);
      rc_d[b]  = dec(rc_q[b]);
      wr_d[b]  = dec(wr_q[b]);
      rp_d[b]  = dec(rp_q[b]);
    end
    rrd_d   = dec(rrd_q);
    rfc_d   = dec(rfc_q);
    mrd_d   = dec(mrd_q);
    rdwr_d  = dec(rdwr_q);
    cmd     = CmdNop;
    cmd_ba  = '0;
    cmd_a   = '0;
    // DQM low but for a masked write word: read data comes out two cycles after its
    // DQM, so a high DQM is only ever driven with the WRITE it masks (and before init)
    cmd_dqm = (init_q == InDone) ? 2'b00 : 2'b11;
    cmd_oe  = 1'b0;
    wq_take = 1'b0;

    // refresh timer (after initialisation)
    if (init_q == InDone) begin
      if (long_q == '0) ref_pend_d = 1'b1;
      else long_d = long_q - LongW'(1);
    end

    unique case (init_q)
      InPowerUp: begin
        cmd = CmdInh;
        if (long_q == '0) init_d = InPrecharge;
        else long_d = long_q - LongW'(1);
      end
      InPrecharge: begin
        cmd       = CmdPre;
        cmd_a[10] = 1'b1;
        for (int b = 0; b < NumBanks; b++) rp_d[b] = TimW'(TRp - 1);
        init_d    = InRefresh;
      end
      InRefresh: begin
        if (all_idle && rfc_q == '0) begin
          cmd         = CmdRef;
          rfc_d       = TimW'(TRfc - 1);
          init_refs_d = init_refs_q + 4'd1;
          if (init_refs_q == 4'(InitRefreshes - 1)) init_d = InMode;
        end
      end
      InMode: begin
        if (rfc_q == '0) begin
          cmd    = CmdMrs;
          cmd_a  = ModeReg;
          mrd_d  = TimW'(TMrd - 1);   // ACT and REFRESH wait for it
          init_d = InDone;
          long_d = LongW'(RefIvl);
        end
      end
      InDone: begin
        if (ref_pend_q) begin
          // refresh first: close every bank, then AUTO REFRESH
          if (open_q != '0) begin
            if (all_closable) begin
              cmd       = CmdPre;
              cmd_a[10] = 1'b1;
              for (int b = 0; b < NumBanks; b++) begin
                if (open_q[b]) rp_d[b] = TimW'(TRp - 1);
              end
              open_d = '0;
            end
          end else if (all_idle && rfc_q == '0 && mrd_q == '0) begin
            cmd        = CmdRef;
            rfc_d      = TimW'(TRfc - 1);
            ref_pend_d = 1'b0;
            long_d     = LongW'(RefIvl);
          end
        end else if (wq_valid) begin
          if (open_q[req_bank] && row_q[req_bank] == req_row) begin
            if (rcd_q[req_bank] == '0 && (!wq_we || rdwr_q == '0)) begin
              cmd     = wq_we ? CmdWrit : CmdRead;
              cmd_ba  = req_bank;
              cmd_a   = RowBits'(req_col);
              if (wq_we) cmd_dqm = wq_dqm;
              cmd_oe  = wq_we;
              wq_take = 1'b1;
              if (wq_we) wr_d[req_bank] = TimW'(TWr - 1);
              else rdwr_d = TimW'(RdToWr - 1);
            end
          end else if (open_q[req_bank]) begin
            if (ras_q[req_bank] == '0 && wr_q[req_bank] == '0) begin
              cmd               = CmdPre;
              cmd_ba            = req_bank;
              open_d[req_bank]  = 1'b0;
              rp_d[req_bank]    = TimW'(TRp - 1);
            end
          end else if (rp_q[req_bank] == '0 && rc_q[req_bank] == '0 && rrd_q == '0 &&
                       rfc_q == '0 && mrd_q == '0) begin
            cmd               = CmdAct;
            cmd_ba            = req_bank;
            cmd_a             = req_row;
            open_d[req_bank]  = 1'b1;
            row_d[req_bank]   = req_row;
            rcd_d[req_bank]   = TimW'(TRcd - 1);
            ras_d[req_bank]   = TimW'(TRas - 1);
            rc_d[req_bank]    = TimW'(TRc - 1);
            rrd_d             = TimW'(TRrd - 1);
          end
        end
      end
      default: init_d = InPowerUp;
    endcase
  end

  assign init_done_o = (init_q == InDone);

  // ---------------------------------------------------------------- registers
  logic [3:0] cmd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fe_q        <= FeIdle;
      bu_addr_q   <= '0;
      bu_left_q   <= '0;
      bu_len_q    <= '0;
      bu_size_q   <= '0;
      bu_burst_q  <= '0;
      bu_id_q     <= '0;
      prefer_rd_q <= 1'b1;
      rd_widx_q   <= '0;
      wb_valid_q  <= 1'b0;
      wb_data_q   <= '0;
      wb_strb_q   <= '0;
      wb_mask_q   <= '0;
      init_q      <= InPowerUp;
      long_q      <= LongW'(TPwrUp);
      init_refs_q <= '0;
      ref_pend_q  <= 1'b0;
      open_q      <= '0;
      row_q       <= '0;
      rcd_q       <= '0;
      ras_q       <= '0;
      rc_q        <= '0;
      wr_q        <= '0;
      rp_q        <= '0;
      rrd_q       <= '0;
      rfc_q       <= '0;
      mrd_q       <= '0;
      rdwr_q      <= '0;
      cmd_q       <= CmdInh;
      sd_cke_o    <= 1'b0;
      sd_ba_o     <= '0;
      sd_a_o      <= '0;
      sd_dqm_o    <= 2'b11;
      sd_dq_o     <= '0;
      sd_dq_oe_o  <= 1'b0;
      rd_pipe_q   <= '0;
      asm_q       <= '0;
      asm_cnt_q   <= '0;
      r_valid_q   <= 1'b0;
      r_data_q    <= '0;
      credit_q    <= CrW'(Credits);
    end else begin
      fe_q        <= fe_d;
      bu_addr_q   <= bu_addr_d;
      bu_left_q   <= bu_left_d;
      bu_len_q    <= bu_len_d;
      bu_size_q   <= bu_size_d;
      bu_burst_q  <= bu_burst_d;
      bu_id_q     <= bu_id_d;
      prefer_rd_q <= prefer_rd_d;
      rd_widx_q   <= rd_widx_d;
      wb_valid_q  <= wb_valid_d;
      wb_data_q   <= wb_data_d;
      wb_strb_q   <= wb_strb_d;
      wb_mask_q   <= wb_mask_d;
      init_q      <= init_d;
      long_q      <= long_d;
      init_refs_q <= init_refs_d;
      ref_pend_q  <= ref_pend_d;
      open_q      <= open_d;
      row_q       <= row_d;
      rcd_q       <= rcd_d;
      ras_q       <= ras_d;
      rc_q        <= rc_d;
      wr_q        <= wr_d;
      rp_q        <= rp_d;
      rrd_q       <= rrd_d;
      rfc_q       <= rfc_d;
      mrd_q       <= mrd_d;
      rdwr_q      <= rdwr_d;
      cmd_q       <= cmd;
      sd_cke_o    <= 1'b1;
      sd_ba_o     <= cmd_ba;
      sd_a_o      <= cmd_a;
      sd_dqm_o    <= cmd_dqm;
      sd_dq_o     <= wq_data;
      sd_dq_oe_o  <= cmd_oe;
      // read data: captured CasLatency + 1 cycles after the READ left the register
      rd_pipe_q   <= {rd_pipe_q[CasLatency-1:0], (cmd == CmdRead)};
      if (asm_move) begin
        r_data_q <= asm_q;
        if (cap) asm_q[15:0] <= sd_dq_i;
        asm_cnt_q <= cap ? (WidxBits + 1)'(1) : '0;
      end else if (cap) begin
        asm_q[16*asm_cnt_q[WidxBits-1:0] +: 16] <= sd_dq_i;
        asm_cnt_q <= asm_cnt_q + (WidxBits + 1)'(1);
      end
      if (asm_move) r_valid_q <= 1'b1;
      else if (r_hs) r_valid_q <= 1'b0;
      credit_q <= credit_q - ((cmd == CmdRead) ? CrW'(1) : CrW'(0))
                  + (r_hs ? CrW'(BeatWords) : CrW'(0));
    end
  end

  assign {sd_cs_n_o, sd_ras_n_o, sd_cas_n_o, sd_we_n_o} = cmd_q;

  logic unused;
  assign unused = ^{meta_empty, b_full, ax.cache, ax.prot, ax.qos, ax.user, slv_req_i.w.user, slv_req_i.w.last};

endmodule
