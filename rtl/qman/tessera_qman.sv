// Queue manager / command processor for one engine queue.
//
// Fetches a command buffer (CB_BASE, CB_SIZE) from device memory through an
// AXI4 read master (256-bit beats, INCR bursts that never cross 256 bytes,
// several bursts in flight into a FifoBeats-deep prefetch buffer) and executes
// its 8-byte aligned packets (docs/packets.md): engine register writes through
// an APB4 master, messages (long, short = sync object set/add, completion)
// through the message port, fences on four local counters (written by other
// agents' messages: a write ADDS to the counter), waits and STOP. Bad input
// stops the queue with an error code in STATUS.err and the offending packet's
// address in PC; nothing is written for the offending packet (WREG_BULK: the
// words before a failing data word were written). See docs/control_path.md.
module tessera_qman #(
  parameter int unsigned NumSobs   = 256,
  parameter logic [31:0] MemBase   = tessera_cfg_pkg::HbmBase,
  parameter logic [31:0] MemSize   = tessera_cfg_pkg::HbmSize,
  parameter int unsigned FifoBeats = 16,     // prefetch buffer, 32-byte beats (power of 2, >= 8)
  parameter int unsigned IdBits    = 4,      // AXI ID width of the ports (the chip's axi_id_bits)
  parameter logic [3:0]  AxiId     = 4'h0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // APB4 register slave (16-bit offsets)
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // AXI4 read master (command-buffer fetch)
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i,
  // APB4 master towards the engine's register block (through tessera_apb_mux)
  output tessera_bus_pkg::apb_req_t eng_req_o,
  input  tessera_bus_pkg::apb_rsp_t eng_rsp_i,
  // messages (MSG_LONG, MSG_SHORT, completion) -> system-bus writes
  output logic         msg_valid_o,
  input  logic         msg_ready_i,
  output logic [31:0]  msg_addr_o,
  output logic [31:0]  msg_data_o,
  // engine status for the engine barrier
  input  logic         engine_idle_i,
  // direct fence increment (same effect as a write to FENCE[fence_inc_idx_i]; the chip
  // top routes Sync-Manager payloads addressed to this queue's FENCE registers here)
  input  logic         fence_inc_i,
  input  logic [1:0]   fence_inc_idx_i,
  input  logic [15:0]  fence_inc_val_i,
  output logic         irq_o,
  // nothing moves without an input: no packet in execution, no fetch request, engine
  // register access or message pending (read beats of an aborted fetch may still arrive;
  // they are inputs). See the queue managers' clock gates in tessera_top.
  output logic         idle_o
);
  // the command-buffer fetch port as signals (m_axi_ar*, m_axi_r*)
  `TESSERA_AXI_SIGS_DECL_RD(m_axi_, IdBits)
  `TESSERA_AXI_MST_CONNECT_RD(mst_req_o, mst_rsp_i, m_axi_)
  localparam int unsigned FifoW = $clog2(FifoBeats);

  // opcodes and error codes (docs/packets.md, tests/golden/cp_model.h)
  localparam logic [7:0] OpNop = 8'h00, OpWreg = 8'h01, OpBulk = 8'h02, OpMsgLong = 8'h03,
                         OpMsgShort = 8'h04, OpFence = 8'h05, OpLinDma = 8'h06, OpWait = 8'h07,
                         OpStop = 8'h08;
  localparam logic [7:0] ErrNone = 8'd0, ErrOpcode = 8'd1, ErrTrunc = 8'd2, ErrRegRange = 8'd3,
                         ErrCbRange = 8'd4, ErrAxi = 8'd5, ErrApb = 8'd6, ErrFenceTo = 8'd7,
                         ErrBadFence = 8'd8, ErrBadSob = 8'd9, ErrNotDma = 8'd10,
                         ErrBulkCount = 8'd11, ErrNoStop = 8'd12, ErrReserved = 8'd13,
                         ErrMsgAlign = 8'd14;

  qman_reg_pkg::qman__in_t  hwif_in;
  qman_reg_pkg::qman__out_t hwif_out;

  qman_reg_top u_regs (
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

  logic [31:0] cb_base, cb_size, win_limit, comp_addr, comp_data, sob_set_base, sob_add_base;
  logic [31:0] fence_to;
  logic [15:0] ldma_off;
  logic        cfg_dma, cfg_comp_en, cfg_irq_done;
  assign cb_base      = hwif_out.CB_BASE.addr.value;
  assign cb_size      = hwif_out.CB_SIZE.bytes.value;
  assign win_limit    = 32'(hwif_out.WIN_LIMIT.bytes.value);
  assign comp_addr    = hwif_out.COMP_ADDR.addr.value;
  assign comp_data    = hwif_out.COMP_DATA.data.value;
  assign sob_set_base = hwif_out.SOB_SET_BASE.addr.value;
  assign sob_add_base = hwif_out.SOB_ADD_BASE.addr.value;
  assign fence_to     = hwif_out.FENCE_TIMEOUT.cycles.value;
  assign ldma_off     = hwif_out.LDMA_OFF.off.value;
  assign cfg_dma      = hwif_out.CFG.dma.value;
  assign cfg_comp_en  = hwif_out.CFG.comp_en.value;
  assign cfg_irq_done = hwif_out.CFG.irq_done.value;

  // ------------------------------------------------------------------ state machine
  typedef enum logic [3:0] {
    SIdle, SStart, SHdr, SQ2, SBar, SApb, SBulk, SFence, SWait, SStop, SNext, SAbort
  } state_e;
  state_e state_q, state_d;

  logic [31:0] pc_q, end_q;           // current packet, end of buffer
  logic [63:0] hq_q, q2_q;            // header qword, second qword (16-byte packets)
  logic [31:0] len_q;                 // packet length in bytes
  logic [7:0]  err_q, opcode_q;
  logic        done_q, reject_q;
  logic [31:0] wait_q;                // WAIT / fence-timeout counter
  logic [15:0] bulk_left_q;           // WREG_BULK words still to write
  logic [15:0] reg_off_q;             // next register offset
  logic [1:0]  ldma_idx_q;            // LIN_DMA register index
  logic        bulk_hi_q;             // next bulk word is the high half of the head qword
  logic        abort_q;               // CTRL.reset seen, waiting to finish a handshake
  logic [31:0] cnt_pkts_q, cnt_busy_q, cnt_fstall_q, cnt_festall_q, cnt_bytes_q;
  logic [3:0][15:0] fence_q;

  // ------------------------------------------------------------------ prefetch
  logic [256:0] fifo_mem [FifoBeats];  // {err, data}
  logic [FifoW-1:0] wr_ptr_q, rd_ptr_q;
  logic [FifoW:0]   count_q;
  logic [FifoW+4:0] outst_q;           // beats requested, not yet received
  logic [1:0]       qidx_q;            // qword index inside the head beat
  logic [31:0]      faddr_q, fend_q;   // next fetch address (32-byte aligned), fetch end
  logic             fetch_en_q;
  logic             arvalid_q;
  logic [31:0]      araddr_q;
  logic [7:0]       arlen_q;

  logic             q_avail, q_err, q_pop;
  logic [63:0]      q_data;
  logic [256:0]     head;

  assign head    = fifo_mem[rd_ptr_q];
  assign q_avail = (count_q != '0);
  assign q_err   = head[256];
  assign q_data  = head[64*qidx_q +: 64];

  // burst sizing: up to the next 256-byte boundary, the fetch end, and free space
  logic [31:0] b_to_bound, b_to_end, b_want;
  logic [FifoW+4:0] credits;
  logic        can_issue;
  always_comb begin
    b_to_bound = 32'd8 - 32'(faddr_q[7:5]);
    b_to_end   = (fend_q - faddr_q) >> 5;
    b_want     = (b_to_end < b_to_bound) ? b_to_end : b_to_bound;
    credits    = (FifoW+5)'(FifoBeats) - (FifoW+5)'(count_q) - outst_q;
    can_issue  = fetch_en_q && !arvalid_q && (faddr_q != fend_q) &&
                 (32'(credits) >= b_want);
  end

  assign m_axi_arid    = IdBits'(AxiId);
  assign m_axi_araddr  = araddr_q;
  assign m_axi_arlen   = arlen_q;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = 4'b0000;
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = 4'h0;
  assign m_axi_arvalid = arvalid_q;
  assign m_axi_rready  = 1'b1;       // space was reserved when the burst was issued

  logic r_push;
  assign r_push = m_axi_rvalid && fetch_en_q;

  always_ff @(posedge clk_i) begin
    if (r_push) fifo_mem[wr_ptr_q] <= {m_axi_rresp != 2'b00, m_axi_rdata};
  end

  // ------------------------------------------------------------------ decode of the header qword
  logic [31:0] hw0, hw1;
  logic [7:0]  hop;
  logic [15:0] harg;
  logic [31:0] hlen;
  logic        hlen_ok;
  logic [7:0]  hdr_err;
  logic [32:0] pc_plus_len;
  assign hw0  = q_data[31:0];
  assign hw1  = q_data[63:32];
  assign hop  = hw0[7:0];
  assign harg = hw0[31:16];

  function automatic logic reg_ok(input logic [31:0] off, input logic [31:0] n, input logic [31:0] lim);
    logic [33:0] sum;
    sum    = {2'b00, off} + {n, 2'b00};
    reg_ok = (off[1:0] == 2'b00) && (sum <= {2'b00, lim});
  endfunction

  always_comb begin
    hlen_ok = 1'b1;
    hlen    = 32'd8;
    unique case (hop)
      OpNop, OpWreg, OpMsgShort, OpFence, OpWait, OpStop: hlen = 32'd8;
      OpMsgLong, OpLinDma: hlen = 32'd16;
      OpBulk: hlen = 32'd8 + ((32'(hw1[15:0]) + 32'd1) >> 1 << 3);
      default: hlen_ok = 1'b0;
    endcase
    pc_plus_len = 33'(pc_q) + 33'(hlen);
    hdr_err = ErrNone;
    if (hw0[15:10] != 6'h00)                                        hdr_err = ErrReserved;
    else if (!hlen_ok)                                               hdr_err = ErrOpcode;
    else if (hop == OpBulk && (hw1[15:0] == 16'h0 || hw1[15:0] > 16'd256 || hw1[31:16] != 16'h0))
                                                                     hdr_err = ErrBulkCount;
    else if (pc_plus_len > 33'(end_q))                               hdr_err = ErrTrunc;
    else if (hop == OpWreg && !reg_ok(32'(harg), 32'd1, win_limit))  hdr_err = ErrRegRange;
    else if (hop == OpBulk && !reg_ok(32'(harg), hw1, win_limit))    hdr_err = ErrRegRange;
    else if (hop == OpFence && harg > 16'd3)                         hdr_err = ErrBadFence;
    else if (hop == OpMsgShort && 32'(harg) >= NumSobs)              hdr_err = ErrBadSob;
    else if (hop == OpLinDma && !cfg_dma)                            hdr_err = ErrNotDma;
    else if (hop == OpLinDma && !reg_ok(32'(ldma_off), 32'd4, win_limit)) hdr_err = ErrRegRange;
  end

  logic [7:0]  op;         // opcode of the packet in execution
  logic [15:0] arg;
  logic [31:0] w1, w2, w3;
  assign op  = hq_q[7:0];
  assign arg = hq_q[31:16];
  assign w1  = hq_q[63:32];
  assign w2  = q2_q[31:0];
  assign w3  = q2_q[63:32];

  // ------------------------------------------------------------------ engine APB master
  logic        eapb_start;         // begin a write this cycle (from SBar / SBulk / SApb)
  logic [15:0] eapb_addr_d;
  logic [31:0] eapb_data_d;
  logic        eapb_sel_q, eapb_en_q;
  logic [15:0] eapb_addr_q;
  logic [31:0] eapb_data_q;
  logic        eapb_done, eapb_err;
  assign eng_req_o.psel    = eapb_sel_q;
  assign eng_req_o.penable = eapb_en_q;
  assign eng_req_o.pwrite  = 1'b1;
  assign eng_req_o.pprot   = 3'b000;
  assign eng_req_o.paddr   = eapb_addr_q;
  assign eng_req_o.pwdata  = eapb_data_q;
  assign eng_req_o.pstrb   = 4'hF;
  assign eapb_done     = eapb_sel_q && eapb_en_q && eng_rsp_i.pready;
  assign eapb_err      = eng_rsp_i.pslverr;

  // ------------------------------------------------------------------ message port
  logic        msg_valid_q;
  logic [31:0] msg_addr_q, msg_data_q;
  logic        msg_load;
  logic [31:0] msg_addr_d, msg_data_d;
  assign msg_valid_o = msg_valid_q;
  assign msg_addr_o  = msg_addr_q;
  assign msg_data_o  = msg_data_q;
  logic msg_free;
  assign msg_free = !msg_valid_q || msg_ready_i;   // a new message can be loaded this cycle

  // ------------------------------------------------------------------ fences (external table)
  logic        fence_ext_wr;
  logic [1:0]  fence_ext_idx;
  logic [15:0] fence_ext_val;
  logic        fence_sub;
  logic [15:0] fence_sub_val;
  logic [1:0]  fence_sub_idx;
  assign fence_ext_wr  = hwif_out.FENCE.req && hwif_out.FENCE.req_is_wr;
  assign fence_ext_idx = hwif_out.FENCE.addr[3:2];
  assign fence_ext_val = hwif_out.FENCE.wr_data[15:0];
  always_comb begin
    hwif_in.FENCE.wr_ack  = hwif_out.FENCE.req && hwif_out.FENCE.req_is_wr;
    hwif_in.FENCE.rd_ack  = hwif_out.FENCE.req && !hwif_out.FENCE.req_is_wr;
    hwif_in.FENCE.rd_data = {16'h0, fence_q[hwif_out.FENCE.addr[3:2]]};
  end

  // the counter a FENCE packet waits on, including increments arriving this cycle
  logic [15:0] fence_cur;
  assign fence_cur = fence_q[arg[1:0]]
                     + ((fence_ext_wr && fence_ext_idx == arg[1:0]) ? fence_ext_val : 16'h0)
                     + ((fence_inc_i && fence_inc_idx_i == arg[1:0]) ? fence_inc_val_i : 16'h0);

  // ------------------------------------------------------------------ control
  logic start_req, reset_req;
  assign start_req = hwif_out.CTRL.start.value;
  assign reset_req = hwif_out.CTRL.reset.value;

  logic        running;
  assign running = (state_q != SIdle);

  logic        cb_ok;
  logic [32:0] cb_end33;
  assign cb_end33 = 33'(cb_base) + 33'(cb_size);
  assign cb_ok = (cb_base[2:0] == 3'b000) && (cb_size[2:0] == 3'b000) && (cb_size != 32'h0) &&
                 (cb_base >= MemBase) && (cb_end33 <= (33'(MemBase) + 33'(MemSize)));

  // error to raise this cycle (0: none) and next-state logic
  logic [7:0]  raise;
  logic        pkt_done;          // packet finished: go to SNext
  logic        go_q2, go_bar;
  logic        stall_fetch, stall_fence;

  always_comb begin
    state_d     = state_q;
    raise       = ErrNone;
    q_pop       = 1'b0;
    eapb_start  = 1'b0;
    eapb_addr_d = '0;
    eapb_data_d = '0;
    msg_load    = 1'b0;
    msg_addr_d  = '0;
    msg_data_d  = '0;
    fence_sub   = 1'b0;
    fence_sub_val = '0;
    fence_sub_idx = arg[1:0];
    pkt_done    = 1'b0;
    go_q2       = 1'b0;
    go_bar      = 1'b0;
    stall_fetch = 1'b0;
    stall_fence = 1'b0;

    unique case (state_q)
      SIdle: ;
      SStart: begin
        // wait until no fetch of a previous run is in flight
        if (!arvalid_q && outst_q == '0) begin
          if (!cb_ok) raise = ErrCbRange;
          else        state_d = SHdr;
        end
      end
      SHdr: begin
        if (pc_q == end_q) begin
          raise = ErrNoStop;
        end else if (!q_avail) begin
          stall_fetch = 1'b1;
        end else if (q_err) begin
          raise = ErrAxi;
        end else if (hdr_err != ErrNone) begin
          raise = hdr_err;
        end else begin
          q_pop = 1'b1;
          if (hop == OpMsgLong || hop == OpLinDma) go_q2 = 1'b1;
          else                go_bar = 1'b1;
        end
      end
      SQ2: begin
        if (!q_avail) begin
          stall_fetch = 1'b1;
        end else if (q_err) begin
          raise = ErrAxi;
        end else if (op == OpMsgLong && q_data[1:0] != 2'b00) begin
          raise = ErrMsgAlign;
        end else if (op == OpMsgLong && q_data[63:32] != 32'd0) begin
          raise = ErrReserved;   // w3 is reserved: must be 0
        end else begin
          q_pop  = 1'b1;
          go_bar = 1'b1;
        end
      end
      SBar: begin
        if ((!hq_q[8] || engine_idle_i) && (!hq_q[9] || !msg_valid_q)) begin
          unique case (op)
            OpWreg: begin
              eapb_start  = 1'b1;
              eapb_addr_d = arg;
              eapb_data_d = w1;
              state_d     = SApb;
            end
            OpBulk:   state_d = SBulk;
            OpLinDma: begin
              eapb_start  = 1'b1;
              eapb_addr_d = ldma_off;
              eapb_data_d = w2;
              state_d     = SApb;
            end
            OpMsgLong: begin
              if (msg_free) begin
                msg_load   = 1'b1;
                msg_addr_d = w2;
                msg_data_d = w1;
                pkt_done   = 1'b1;
              end
            end
            OpMsgShort: begin
              if (msg_free) begin
                msg_load   = 1'b1;
                msg_addr_d = (w1[31] ? sob_add_base : sob_set_base) + {14'h0, arg, 2'b00};
                msg_data_d = {17'h0, w1[14:0]};
                pkt_done   = 1'b1;
              end
            end
            OpFence:  state_d = SFence;
            OpWait:   state_d = SWait;
            OpStop:   state_d = SStop;
            default:  pkt_done = 1'b1;      // NOP
          endcase
        end
      end
      SApb: begin
        // a single register write (WREG32) or one of LIN_DMA's four
        if (eapb_done) begin
          if (eapb_err) begin
            raise = ErrApb;
          end else if (op == OpLinDma && ldma_idx_q != 2'd3) begin
            eapb_start  = 1'b1;
            eapb_addr_d = ldma_off + {12'h0, ldma_idx_q + 2'd1, 2'b00};
            unique case (ldma_idx_q)
              2'd0:    eapb_data_d = w3;      // dst
              2'd1:    eapb_data_d = w1;      // size
              default: eapb_data_d = 32'd1;   // go
            endcase
          end else begin
            pkt_done = 1'b1;
          end
        end
      end
      SBulk: begin
        if (eapb_sel_q) begin
          if (eapb_done) begin
            if (eapb_err) raise = ErrApb;
            else if (bulk_left_q == 16'd0) pkt_done = 1'b1;
          end
        end else if (!q_avail) begin
          stall_fetch = 1'b1;
        end else if (q_err) begin
          raise = ErrAxi;
        end else begin
          eapb_start  = 1'b1;
          eapb_addr_d = reg_off_q;
          eapb_data_d = bulk_hi_q ? q_data[63:32] : q_data[31:0];
          // the qword is consumed after its high word, or after the last word
          if (bulk_hi_q || bulk_left_q == 16'd1) q_pop = 1'b1;
        end
      end
      SFence: begin
        if (fence_cur >= w1[15:0]) begin
          fence_sub     = 1'b1;
          fence_sub_val = w1[15:0];
          pkt_done      = 1'b1;
        end else begin
          stall_fence = 1'b1;
          if (fence_to != 32'h0 && wait_q >= fence_to) raise = ErrFenceTo;
        end
      end
      SWait: begin
        if (wait_q >= w1) pkt_done = 1'b1;
      end
      SStop: begin
        if (!cfg_comp_en) begin
          if (!msg_valid_q) state_d = SIdle;
        end else if (msg_free && !done_q) begin
          msg_load   = 1'b1;
          msg_addr_d = comp_addr;
          msg_data_d = comp_data;
        end else if (done_q && !msg_valid_q) begin
          state_d = SIdle;
        end
      end
      SNext: state_d = SHdr;
      SAbort: begin
        if (!eapb_sel_q && !msg_valid_q) state_d = SIdle;
      end
      default: state_d = SIdle;
    endcase

    if (go_q2)    state_d = SQ2;
    if (go_bar)   state_d = SBar;
    if (pkt_done) state_d = SNext;
    // an error stops the queue; a message already loaded is still delivered
    // (STATUS.busy stays 1 until it is)
    if (raise != ErrNone) state_d = SAbort;
    if (abort_q || reset_req) begin
      // abort: finish an APB access in progress and deliver a loaded message
      state_d = (eapb_sel_q || msg_valid_q) ? SAbort : SIdle;
      if (state_q == SIdle) state_d = SIdle;
      eapb_start = 1'b0;
      msg_load   = 1'b0;
      q_pop      = 1'b0;
      fence_sub  = 1'b0;
      pkt_done   = 1'b0;
      raise      = ErrNone;
    end
    if (state_q == SIdle && start_req && !reset_req) state_d = SStart;
  end

  // ------------------------------------------------------------------ sequential
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= SIdle;
      pc_q         <= '0;
      end_q        <= '0;
      hq_q         <= '0;
      q2_q         <= '0;
      len_q        <= '0;
      err_q        <= ErrNone;
      opcode_q     <= '0;
      done_q       <= 1'b0;
      reject_q     <= 1'b0;
      wait_q       <= '0;
      bulk_left_q  <= '0;
      reg_off_q    <= '0;
      ldma_idx_q   <= '0;
      bulk_hi_q    <= 1'b0;
      abort_q      <= 1'b0;
      cnt_pkts_q   <= '0;
      cnt_busy_q   <= '0;
      cnt_fstall_q <= '0;
      cnt_festall_q <= '0;
      cnt_bytes_q  <= '0;
      fence_q      <= '0;
      wr_ptr_q     <= '0;
      rd_ptr_q     <= '0;
      count_q      <= '0;
      outst_q      <= '0;
      qidx_q       <= '0;
      faddr_q      <= '0;
      fend_q       <= '0;
      fetch_en_q   <= 1'b0;
      arvalid_q    <= 1'b0;
      araddr_q     <= '0;
      arlen_q      <= '0;
      eapb_sel_q   <= 1'b0;
      eapb_en_q    <= 1'b0;
      eapb_addr_q  <= '0;
      eapb_data_q  <= '0;
      msg_valid_q  <= 1'b0;
      msg_addr_q   <= '0;
      msg_data_q   <= '0;
    end else begin
      state_q <= state_d;

      // ---- doorbell / reset / status
      if (state_q == SIdle && start_req && !reset_req) begin
        pc_q     <= cb_base;
        end_q    <= cb_end33[31:0];
        err_q    <= ErrNone;
        opcode_q <= '0;
        done_q   <= 1'b0;
      end else if (start_req && state_q != SIdle) begin
        reject_q <= 1'b1;
      end
      if (reset_req) begin
        err_q    <= ErrNone;
        done_q   <= 1'b0;
        reject_q <= 1'b0;
        abort_q  <= (state_q != SIdle) && (state_d != SIdle);
      end else if (state_d == SIdle) begin
        abort_q <= 1'b0;
      end
      if (raise != ErrNone) err_q <= raise;

      // ---- fetch control
      if (state_q == SStart && state_d == SHdr) begin
        fetch_en_q <= 1'b1;
        faddr_q    <= {cb_base[31:5], 5'b0};
        fend_q     <= {cb_end33[31:5] + {26'h0, cb_end33[4:0] != 5'h0}, 5'b0};
        qidx_q     <= cb_base[4:3];
        wr_ptr_q   <= '0;
        rd_ptr_q   <= '0;
        count_q    <= '0;
      end else if (state_d == SIdle || state_d == SAbort) begin
        fetch_en_q <= 1'b0;
      end else begin
        // pop/push bookkeeping
        if (r_push) wr_ptr_q <= wr_ptr_q + FifoW'(1);
        if (q_pop) begin
          qidx_q <= qidx_q + 2'd1;
          if (qidx_q == 2'd3) rd_ptr_q <= rd_ptr_q + FifoW'(1);
        end
        count_q <= count_q + (FifoW+1)'(r_push) - (FifoW+1)'(q_pop && qidx_q == 2'd3);
      end
      if (can_issue) begin
        arvalid_q <= 1'b1;
        araddr_q  <= faddr_q;
        arlen_q   <= 8'(b_want - 32'd1);
        faddr_q   <= faddr_q + (b_want << 5);
      end else if (arvalid_q && m_axi_arready) begin
        arvalid_q <= 1'b0;
      end
      outst_q <= outst_q + ((arvalid_q && m_axi_arready) ? ((FifoW+5)'(arlen_q) + (FifoW+5)'(1)) : '0)
                         - (FifoW+5)'(m_axi_rvalid);
      if (r_push) cnt_bytes_q <= cnt_bytes_q + 32'd32;

      // ---- packet bookkeeping
      if (go_q2 || go_bar) begin
        if (state_q == SHdr) begin
          hq_q     <= q_data;
          len_q    <= hlen;
          opcode_q <= hop;
          bulk_left_q <= hw1[15:0];
          reg_off_q   <= harg;
          bulk_hi_q   <= 1'b0;
          ldma_idx_q  <= '0;
          wait_q      <= '0;
        end else begin
          q2_q <= q_data;
        end
      end
      if (state_q == SHdr && q_avail && !q_err && pc_q != end_q) opcode_q <= hop;
      if (state_d == SNext) cnt_pkts_q <= cnt_pkts_q + 32'd1;
      if (state_q == SNext) pc_q <= pc_q + len_q;
      if (state_q == SStop && state_d == SIdle && !abort_q && !reset_req) begin
        done_q     <= 1'b1;
        cnt_pkts_q <= cnt_pkts_q + 32'd1;
      end
      if (state_q == SStop && msg_load) done_q <= 1'b1;
      if (state_q == SFence || state_q == SWait) wait_q <= wait_q + 32'd1;
      if (state_q == SApb && eapb_start) ldma_idx_q <= ldma_idx_q + 2'd1;
      if (state_q == SBulk && eapb_start) begin
        bulk_left_q <= bulk_left_q - 16'd1;
        reg_off_q   <= reg_off_q + 16'd4;
        bulk_hi_q   <= !bulk_hi_q;
      end

      // ---- engine APB master
      if (eapb_start) begin
        eapb_sel_q  <= 1'b1;
        eapb_en_q   <= 1'b0;
        eapb_addr_q <= eapb_addr_d;
        eapb_data_q <= eapb_data_d;
      end else if (eapb_sel_q && !eapb_en_q) begin
        eapb_en_q <= 1'b1;
      end else if (eapb_done) begin
        eapb_sel_q <= 1'b0;
        eapb_en_q  <= 1'b0;
      end

      // ---- message port
      if (msg_load) begin
        msg_valid_q <= 1'b1;
        msg_addr_q  <= msg_addr_d;
        msg_data_q  <= msg_data_d;
      end else if (msg_ready_i) begin
        msg_valid_q <= 1'b0;
      end

      // ---- fences: external writes add, FENCE subtracts
      for (int unsigned i = 0; i < 4; i++) begin
        fence_q[i] <= fence_q[i]
                      + ((fence_ext_wr && fence_ext_idx == 2'(i)) ? fence_ext_val : 16'h0)
                      + ((fence_inc_i && fence_inc_idx_i == 2'(i)) ? fence_inc_val_i : 16'h0)
                      - ((fence_sub && fence_sub_idx == 2'(i)) ? fence_sub_val : 16'h0);
      end

      // ---- counters
      if (running)     cnt_busy_q    <= cnt_busy_q + 32'd1;
      if (stall_fetch) cnt_fstall_q  <= cnt_fstall_q + 32'd1;
      if (stall_fence) cnt_festall_q <= cnt_festall_q + 32'd1;
    end
  end

  // ------------------------------------------------------------------ registers in
  always_comb begin
    hwif_in.STATUS.busy.next        = running;
    hwif_in.STATUS.done.next        = done_q && !running;
    hwif_in.STATUS.busy_reject.next = reject_q;
    hwif_in.STATUS.err.next         = err_q;
    hwif_in.STATUS.opcode.next      = opcode_q;
    hwif_in.PC.addr.next            = pc_q;
    hwif_in.CNT_PKTS.val.next       = cnt_pkts_q;
    hwif_in.CNT_BUSY.val.next       = cnt_busy_q;
    hwif_in.CNT_FETCH_STALL.val.next = cnt_fstall_q;
    hwif_in.CNT_FENCE_STALL.val.next = cnt_festall_q;
    hwif_in.CNT_BYTES.val.next      = cnt_bytes_q;
  end

  assign irq_o = (err_q != ErrNone) || (cfg_irq_done && done_q && !running);
  assign idle_o = !running && !arvalid_q && !msg_valid_q && !eapb_sel_q;

  logic unused;
  assign unused = ^{m_axi_rid, m_axi_rlast, eng_rsp_i.prdata, hwif_out.FENCE.wr_biten,
                    hwif_out.FENCE.addr[1:0], hq_q[15:10], hw0[9:8]};
endmodule
