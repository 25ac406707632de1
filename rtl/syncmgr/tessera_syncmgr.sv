// Sync Manager: NumSobs 15-bit sync objects (set / add through two APB
// windows) and NumMons one-shot monitors. A monitor watches a group of 8
// consecutive objects through an 8-bit mask and fires when every masked object
// compares (>= or ==) with its 15-bit target; it then disarms and sends 1..4
// payload messages (address, data) on the message port. See docs/control_path.md.
//
// Timing: an object write is applied in the cycle its APB request is decoded;
// the monitors watching that group are marked for evaluation and evaluated one
// per cycle (lowest index first); the next table access (object, monitor) waits
// until all evaluations are done, so every update is seen by every monitor
// exactly as in the golden model (tests/golden/cp_model.c). Fired monitors
// queue their payloads in a "sending" bit vector; the sender reads the payload
// RAMs and offers one message at a time (lowest fired monitor first).
module tessera_syncmgr #(
  parameter int unsigned NumSobs = 256,  // multiple of 8, <= 256 (table size)
  parameter int unsigned NumMons = 64    // <= 64 (table size)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // APB4 register slave (16-bit offsets)
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // payload messages (become system-bus writes)
  output logic        msg_valid_o,
  input  logic        msg_ready_i,
  output logic [31:0] msg_addr_o,
  output logic [31:0] msg_data_o,
  input  logic        msg_err_i,      // a payload write failed (pulse; tie 0 if unknown)
  output logic        irq_o
);
  localparam int unsigned NumGrps = NumSobs / 8;
  localparam int unsigned SobW    = $clog2(NumSobs);
  localparam int unsigned GrpW    = SobW - 3;
  localparam int unsigned MonW    = (NumMons > 1) ? $clog2(NumMons) : 1;
  localparam int unsigned PayN    = NumMons * 4;
  localparam int unsigned PayW    = MonW + 2;

  localparam logic [7:0] ErrBadGroup = 8'd1;
  localparam logic [7:0] ErrMonBusy  = 8'd2;
  localparam logic [7:0] ErrPayload  = 8'd3;

  syncmgr_reg_pkg::syncmgr__in_t  hwif_in;
  syncmgr_reg_pkg::syncmgr__out_t hwif_out;

  syncmgr_reg_top u_regs (
    .clk           (clk_i),
    .arst_n        (rst_ni),
    .s_apb_psel    (apb_req_i.psel),
    .s_apb_penable (apb_req_i.penable),
    .s_apb_pwrite  (apb_req_i.pwrite),
    .s_apb_pprot   (apb_req_i.pprot),
    .s_apb_paddr   (apb_req_i.paddr),
    .s_apb_pwdata  (apb_req_i.pwdata),
    .s_apb_pstrb   (apb_req_i.pstrb),
    .s_apb_pready  (apb_rsp_o.pready),
    .s_apb_prdata  (apb_rsp_o.prdata),
    .s_apb_pslverr (apb_rsp_o.pslverr),
    .hwif_in       (hwif_in),
    .hwif_out      (hwif_out)
  );

  // ------------------------------------------------------------------ state
  logic [NumSobs-1:0][14:0] sob_q;
  logic [NumMons-1:0][31:0] arm_q;  // ARM words
  logic [NumMons-1:0] armed_q, pend_q, sending_q;
  logic [7:0]         err_q, err_mon_q;
  logic [31:0]        cnt_upd_q, cnt_fire_q, cnt_pay_q, cnt_err_q;

  // one outstanding external (table) access, latched from the register top
  typedef enum logic [1:0] {ExtSet = 2'd0, ExtAdd = 2'd1, ExtMon = 2'd2} ext_kind_e;
  logic        ext_vld_q, ext_wr_q;
  ext_kind_e   ext_kind_q;
  logic [9:0]  ext_idx_q;                  // word index inside the table
  logic [31:0] ext_wdata_q;
  logic        ext_rdwait_q;               // payload-RAM read issued, data next cycle

  // payload RAMs (address words and data words), one write and one read port
  logic [31:0] pay_addr_mem [PayN];
  logic [31:0] pay_data_mem [PayN];
  logic        ram_we, ram_re;
  logic        ram_we_data;                // 1: write the data RAM, 0: the address RAM
  logic [PayW-1:0] ram_waddr, ram_raddr;
  logic [31:0] ram_wdata;
  logic [31:0] ram_a_q, ram_d_q;

  always_ff @(posedge clk_i) begin
    if (ram_we && !ram_we_data) pay_addr_mem[ram_waddr] <= ram_wdata;
    if (ram_we && ram_we_data)  pay_data_mem[ram_waddr] <= ram_wdata;
    if (ram_re) begin
      ram_a_q <= pay_addr_mem[ram_raddr];
      ram_d_q <= pay_data_mem[ram_raddr];
    end
  end

  // ------------------------------------------------------------------ evaluator
  logic              eval_busy;
  logic              ev_found;
  logic [MonW-1:0]   ev_mon;
  logic [GrpW-1:0]   ev_grp;
  logic              ev_cond;

  assign eval_busy = |pend_q;

  always_comb begin
    ev_found = 1'b0;
    ev_mon   = '0;
    for (int unsigned m = 0; m < NumMons; m++) begin
      if (!ev_found && pend_q[m]) begin
        ev_found = 1'b1;
        ev_mon   = MonW'(m);
      end
    end
  end

  always_comb begin
    logic [31:0] w;
    w       = arm_q[ev_mon];
    ev_grp  = w[26 +: GrpW];
    ev_cond = (w[23:16] != 8'h00);
    for (int unsigned j = 0; j < 8; j++) begin
      logic [14:0] v;
      v = sob_q[{ev_grp, 3'(j)}];
      if (w[16 + j]) begin
        if (w[15] ? (v != w[14:0]) : (v < w[14:0])) ev_cond = 1'b0;
      end
    end
  end

  // ------------------------------------------------------------------ sender
  typedef enum logic [1:0] {SndIdle = 2'd0, SndLoad = 2'd1, SndSend = 2'd2} snd_e;
  snd_e            snd_q;
  logic [MonW-1:0] snd_mon_q;
  logic [1:0]      snd_pay_q;
  logic            snd_found;
  logic [MonW-1:0] snd_pick;
  logic [31:0]     msg_addr_q, msg_data_q;

  always_comb begin
    snd_found = 1'b0;
    snd_pick  = '0;
    for (int unsigned m = 0; m < NumMons; m++) begin
      if (!snd_found && sending_q[m]) begin
        snd_found = 1'b1;
        snd_pick  = MonW'(m);
      end
    end
  end

  logic snd_last;
  assign snd_last = (snd_pay_q == arm_q[snd_mon_q][25:24]);

  assign msg_valid_o = (snd_q == SndSend);
  assign msg_addr_o  = msg_addr_q;
  assign msg_data_o  = msg_data_q;

  // ------------------------------------------------------------------ external requests
  logic        ext_req, ext_req_wr;
  ext_kind_e   ext_req_kind;
  logic [9:0]  ext_req_idx;
  logic [31:0] ext_req_wdata;

  always_comb begin
    ext_req       = 1'b0;
    ext_req_wr    = 1'b0;
    ext_req_kind  = ExtSet;
    ext_req_idx   = '0;
    ext_req_wdata = '0;
    if (hwif_out.SOB_SET.req) begin
      ext_req = 1'b1; ext_req_wr = hwif_out.SOB_SET.req_is_wr; ext_req_kind = ExtSet;
      ext_req_idx = {2'b00, hwif_out.SOB_SET.addr[9:2]}; ext_req_wdata = hwif_out.SOB_SET.wr_data;
    end else if (hwif_out.SOB_ADD.req) begin
      ext_req = 1'b1; ext_req_wr = hwif_out.SOB_ADD.req_is_wr; ext_req_kind = ExtAdd;
      ext_req_idx = {2'b00, hwif_out.SOB_ADD.addr[9:2]}; ext_req_wdata = hwif_out.SOB_ADD.wr_data;
    end else if (hwif_out.MON.req) begin
      ext_req = 1'b1; ext_req_wr = hwif_out.MON.req_is_wr; ext_req_kind = ExtMon;
      ext_req_idx = hwif_out.MON.addr[11:2]; ext_req_wdata = hwif_out.MON.wr_data;
    end
  end

  // decode of the latched request
  logic [7:0]      ext_sob;      // object index (table entry)
  logic            ext_sob_ok;
  logic [5:0]      ext_mon;      // monitor slot
  logic [3:0]      ext_word;     // word inside the slot
  logic            ext_mon_ok;   // existing monitor and word <= ARM
  logic [MonW-1:0] ext_m;
  logic [14:0]     sob_cur, sob_new;
  logic [SobW-1:0] ext_s;

  assign ext_sob    = ext_idx_q[7:0];
  assign ext_sob_ok = (32'(ext_sob) < NumSobs);
  assign ext_s      = ext_sob[SobW-1:0];
  assign ext_mon    = ext_idx_q[9:4];
  assign ext_word   = ext_idx_q[3:0];
  assign ext_mon_ok = (32'(ext_mon) < NumMons) && (ext_word <= 4'd8);
  assign ext_m      = ext_mon[MonW-1:0];
  assign sob_cur    = sob_q[ext_s];
  assign sob_new    = (ext_kind_q == ExtAdd) ? (sob_cur + ext_wdata_q[14:0]) : ext_wdata_q[14:0];

  // ------------------------------------------------------------------ main sequential logic
  logic        ack_wr, ack_rd;
  logic [31:0] ack_rdata;

  // combinational control of this cycle
  logic            do_ext;           // the latched request is served this cycle
  logic            sob_wr;           // object update
  logic            mon_arm, mon_disarm, mon_err_busy, mon_err_grp;
  logic            pay_rd_issue;     // APB read of a payload word uses the RAM port
  logic            snd_rd_issue;     // sender uses the RAM port
  logic            arm_grp_ok;

  assign arm_grp_ok = (32'(ext_wdata_q[31:26]) < NumGrps);

  always_comb begin
    do_ext       = ext_vld_q && !ext_rdwait_q && !eval_busy;
    sob_wr       = 1'b0;
    mon_arm      = 1'b0;
    mon_disarm   = 1'b0;
    mon_err_busy = 1'b0;
    mon_err_grp  = 1'b0;
    pay_rd_issue = 1'b0;
    snd_rd_issue = 1'b0;
    ram_re       = 1'b0;
    ram_raddr    = '0;
    ram_we       = 1'b0;
    ram_we_data  = 1'b0;
    ram_waddr    = '0;
    ram_wdata    = ext_wdata_q;
    ack_wr       = 1'b0;
    ack_rd       = 1'b0;
    ack_rdata    = '0;

    // sender read port use (priority over APB reads)
    if (snd_q == SndIdle && snd_found) begin
      snd_rd_issue = 1'b1;
      ram_re       = 1'b1;
      ram_raddr    = {snd_pick, 2'b00};
    end else if (snd_q == SndSend && msg_ready_i && !snd_last) begin
      snd_rd_issue = 1'b1;
      ram_re       = 1'b1;
      ram_raddr    = {snd_mon_q, snd_pay_q + 2'd1};
    end

    if (ext_vld_q && ext_rdwait_q) begin
      // payload word read issued last cycle
      ack_rd    = 1'b1;
      ack_rdata = ext_word[0] ? ram_d_q : ram_a_q;
    end else if (do_ext) begin
      unique case (ext_kind_q)
        ExtSet, ExtAdd: begin
          if (ext_wr_q) begin
            sob_wr = ext_sob_ok;
            ack_wr = 1'b1;
          end else begin
            ack_rd    = 1'b1;
            ack_rdata = ext_sob_ok ? {17'h0, sob_cur} : 32'h0;
          end
        end
        ExtMon: begin
          if (ext_wr_q) begin
            ack_wr = 1'b1;
            if (ext_mon_ok) begin
              if (ext_word == 4'd8 && ext_wdata_q[23:16] == 8'h00) begin
                mon_disarm = 1'b1;
              end else if (armed_q[ext_m] || sending_q[ext_m]) begin
                mon_err_busy = 1'b1;
              end else if (ext_word == 4'd8) begin
                if (arm_grp_ok) mon_arm = 1'b1;
                else            mon_err_grp = 1'b1;
              end else begin
                ram_we      = 1'b1;
                ram_we_data = ext_word[0];
                ram_waddr   = {ext_m, ext_word[2:1]};
              end
            end
          end else if (!ext_mon_ok) begin
            ack_rd = 1'b1;
          end else if (ext_word == 4'd8) begin
            ack_rd    = 1'b1;
            ack_rdata = arm_q[ext_m];
          end else if (!snd_rd_issue) begin
            pay_rd_issue = 1'b1;
            ram_re       = 1'b1;
            ram_raddr    = {ext_m, ext_word[2:1]};
          end
        end
        default: begin
          ack_wr = ext_wr_q;
          ack_rd = !ext_wr_q;
        end
      endcase
    end
  end

  always_comb begin
    hwif_in.SOB_SET.rd_ack  = ack_rd && (ext_kind_q == ExtSet);
    hwif_in.SOB_SET.wr_ack  = ack_wr && (ext_kind_q == ExtSet);
    hwif_in.SOB_SET.rd_data = ack_rdata;
    hwif_in.SOB_ADD.rd_ack  = ack_rd && (ext_kind_q == ExtAdd);
    hwif_in.SOB_ADD.wr_ack  = ack_wr && (ext_kind_q == ExtAdd);
    hwif_in.SOB_ADD.rd_data = ack_rdata;
    hwif_in.MON.rd_ack      = ack_rd && (ext_kind_q == ExtMon);
    hwif_in.MON.wr_ack      = ack_wr && (ext_kind_q == ExtMon);
    hwif_in.MON.rd_data     = ack_rdata;
  end

  // error capture
  logic       err_set;
  logic [7:0] err_code;
  logic [7:0] err_mon;
  always_comb begin
    err_set  = 1'b1;
    err_code = ErrMonBusy;
    err_mon  = 8'(ext_mon);
    if (mon_err_grp) begin
      err_code = ErrBadGroup;
    end else if (mon_err_busy) begin
      err_code = ErrMonBusy;
    end else if (msg_err_i) begin
      err_code = ErrPayload;
      err_mon  = 8'(snd_mon_q);
    end else begin
      err_set = 1'b0;
    end
  end

  // per-group match of armed monitors (for the update that happens this cycle)
  logic [NumMons-1:0] grp_match;
  always_comb begin
    for (int unsigned m = 0; m < NumMons; m++) begin
      grp_match[m] = armed_q[m] && (arm_q[m][26 +: GrpW] == ext_s[SobW-1:3]);
    end
  end

  // CTRL.disarm_all waits, like table accesses, until pending evaluations are done
  logic disarm_q, disarm_now;
  assign disarm_now = (disarm_q || hwif_out.CTRL.disarm_all.value) && !eval_busy;

  // next state of the monitor bit vectors
  logic [NumMons-1:0] armed_d, pend_d, sending_d;
  always_comb begin
    armed_d   = armed_q;
    pend_d    = pend_q;
    sending_d = sending_q;
    if (ev_found) begin
      pend_d[ev_mon] = 1'b0;
      if (ev_cond && armed_q[ev_mon]) begin
        armed_d[ev_mon]   = 1'b0;
        sending_d[ev_mon] = 1'b1;
      end
    end
    if (sob_wr) pend_d = pend_d | grp_match;
    if (mon_arm) begin
      armed_d[ext_m] = 1'b1;
      pend_d[ext_m]  = 1'b1;
    end
    if (mon_disarm) armed_d[ext_m] = 1'b0;
    if (disarm_now) armed_d = '0;
    if (snd_q == SndSend && msg_ready_i && snd_last) sending_d[snd_mon_q] = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sob_q        <= '0;
      arm_q        <= '0;
      armed_q      <= '0;
      pend_q       <= '0;
      sending_q    <= '0;
      err_q        <= '0;
      err_mon_q    <= '0;
      cnt_upd_q    <= '0;
      cnt_fire_q   <= '0;
      cnt_pay_q    <= '0;
      cnt_err_q    <= '0;
      ext_vld_q    <= 1'b0;
      ext_wr_q     <= 1'b0;
      ext_kind_q   <= ExtSet;
      ext_idx_q    <= '0;
      ext_wdata_q  <= '0;
      ext_rdwait_q <= 1'b0;
      disarm_q     <= 1'b0;
      snd_q        <= SndIdle;
      snd_mon_q    <= '0;
      snd_pay_q    <= '0;
      msg_addr_q   <= '0;
      msg_data_q   <= '0;
    end else begin
      // ---- external request bookkeeping
      if (ext_req) begin
        ext_vld_q   <= 1'b1;
        ext_wr_q    <= ext_req_wr;
        ext_kind_q  <= ext_req_kind;
        ext_idx_q   <= ext_req_idx;
        ext_wdata_q <= ext_req_wdata;
      end else if (ack_rd || ack_wr) begin
        ext_vld_q <= 1'b0;
      end
      if (pay_rd_issue)          ext_rdwait_q <= 1'b1;
      else if (ack_rd || ack_wr) ext_rdwait_q <= 1'b0;

      // ---- object update
      if (sob_wr) begin
        sob_q[ext_s] <= sob_new;
        cnt_upd_q    <= cnt_upd_q + 32'd1;
      end

      // ---- evaluation / arming
      disarm_q  <= (disarm_q || hwif_out.CTRL.disarm_all.value) && eval_busy;
      armed_q   <= armed_d;
      pend_q    <= pend_d;
      sending_q <= sending_d;
      if (ev_found && ev_cond && armed_q[ev_mon]) cnt_fire_q <= cnt_fire_q + 32'd1;
      if (mon_arm) arm_q[ext_m] <= ext_wdata_q;

      // ---- sender
      unique case (snd_q)
        SndIdle: begin
          if (snd_found) begin
            snd_q     <= SndLoad;
            snd_mon_q <= snd_pick;
            snd_pay_q <= 2'd0;
          end
        end
        SndLoad: begin
          msg_addr_q <= ram_a_q;
          msg_data_q <= ram_d_q;
          snd_q      <= SndSend;
        end
        SndSend: begin
          if (msg_ready_i) begin
            cnt_pay_q <= cnt_pay_q + 32'd1;
            if (snd_last) begin
              snd_q <= SndIdle;
            end else begin
              snd_pay_q <= snd_pay_q + 2'd1;
              snd_q     <= SndLoad;
            end
          end
        end
        default: snd_q <= SndIdle;
      endcase

      // ---- errors (a clear and a new error in the same cycle: the new one stays)
      if (err_set) cnt_err_q <= cnt_err_q + 32'd1;
      if (hwif_out.CTRL.err_clr.value) begin
        err_q     <= err_set ? err_code : 8'h00;
        err_mon_q <= err_set ? err_mon : 8'h00;
      end else if (err_set && err_q == 8'h00) begin
        err_q     <= err_code;
        err_mon_q <= err_mon;
      end
    end
  end

  // ------------------------------------------------------------------ status registers
  logic [63:0] armed64, sending64;
  assign armed64   = 64'(armed_q);
  assign sending64 = 64'(sending_q);

  always_comb begin
    hwif_in.INFO.sobs.next         = 16'(NumSobs);
    hwif_in.INFO.mons.next         = 16'(NumMons);
    hwif_in.STATUS.err.next        = err_q;
    hwif_in.STATUS.err_mon.next    = err_mon_q;
    hwif_in.STATUS.busy.next       = eval_busy || (|sending_q) || (snd_q != SndIdle);
    hwif_in.CNT_UPDATES.val.next   = cnt_upd_q;
    hwif_in.CNT_FIRES.val.next     = cnt_fire_q;
    hwif_in.CNT_PAYLOADS.val.next  = cnt_pay_q;
    hwif_in.CNT_ERRORS.val.next    = cnt_err_q;
    hwif_in.ARMED_LO.bits.next     = armed64[31:0];
    hwif_in.ARMED_HI.bits.next     = armed64[63:32];
    hwif_in.SENDING_LO.bits.next   = sending64[31:0];
    hwif_in.SENDING_HI.bits.next   = sending64[63:32];
  end

  assign irq_o = hwif_out.IRQ_EN.err.value && (err_q != 8'h00);

  // unused inputs of the generated interface
  logic unused;
  assign unused = ^{hwif_out.SOB_SET.wr_biten, hwif_out.SOB_ADD.wr_biten, hwif_out.MON.wr_biten,
                    ext_wdata_q[25:24], ext_idx_q[9:8]};
endmodule
