// SPI NOR flash controller (docs/spiflash.md). One command at a time on the flash pins,
// SPI mode 0 (SCK idles low, MOSI changes after a falling edge, MISO sampled at the
// rising edge), 3-byte addresses, most significant bit first. A command is up to three
// transactions (CS low ... CS high): an optional WREN, the operation itself, and optional
// READ_STATUS polls until the flash's WIP bit clears. Data moves through a FIFO of
// FifoWords 32-bit words (one 256-byte page); the byte at the lowest flash address is in
// bits 7:0 of a word. Registers: rtl/spiflash/data/spiflash.rdl.
module tessera_spiflash #(
  parameter int unsigned FlashBytes = tessera_cfg_pkg::FlashBytes,
  parameter int unsigned FifoWords  = 64
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // flash pins
  output logic        sck_o,
  output logic        csn_o,
  output logic        mosi_o,
  input  logic        miso_i,
  output logic        irq_o
);
  localparam int unsigned Pw = $clog2(FifoWords);

  // operations (CMD.op) and error codes (STATUS.err)
  localparam logic [3:0] OpReadId = 4'd0, OpRead = 4'd1, OpFastRead = 4'd2, OpWren = 4'd3,
                         OpProgram = 4'd4, OpErase = 4'd5, OpReadSr = 4'd6, OpWrdi = 4'd7;
  localparam logic [3:0] ErrNone = 4'd0, ErrBusy = 4'd1, ErrBadOp = 4'd2, ErrLen = 4'd3,
                         ErrData = 4'd4, ErrRange = 4'd5, ErrPage = 4'd6, ErrAlign = 4'd7,
                         ErrTimeout = 4'd8;

  spiflash_reg_pkg::spiflash__in_t  hw_in;
  spiflash_reg_pkg::spiflash__out_t hw_out;

  spiflash_reg_top u_regs (
    .clk          (clk_i),
    .arst_n       (rst_ni),
    .s_apb_psel   (apb_req_i.psel),
    .s_apb_penable(apb_req_i.penable),
    .s_apb_pwrite (apb_req_i.pwrite),
    .s_apb_pprot  (apb_req_i.pprot),
    .s_apb_paddr  (apb_req_i.paddr),
    .s_apb_pwdata (apb_req_i.pwdata),
    .s_apb_pstrb  (apb_req_i.pstrb),
    .s_apb_pready (apb_rsp_o.pready),
    .s_apb_prdata (apb_rsp_o.prdata),
    .s_apb_pslverr(apb_rsp_o.pslverr),
    .hwif_in      (hw_in),
    .hwif_out     (hw_out)
  );

  // register writes act one cycle later, on the register values (as in tessera_uart)
  logic cmd_wr_q, wdata_wr_q, clear_wr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_wr_q   <= 1'b0;
      wdata_wr_q <= 1'b0;
      clear_wr_q <= 1'b0;
    end else begin
      cmd_wr_q   <= hw_out.CMD.op.swmod;
      wdata_wr_q <= hw_out.WDATA.data.swmod;
      clear_wr_q <= hw_out.FIFO_CTRL.clear.swmod && hw_out.FIFO_CTRL.clear.value;
    end
  end

  // ---------------------------------------------------------------- state
  typedef enum logic [1:0] {TxWren, TxMain, TxPoll} tx_e;
  typedef enum logic [2:0] {PhIdle, PhSetup, PhBit, PhEnd, PhGap} ph_e;

  logic        busy_q;
  ph_e         ph_q;
  tx_e         tx_q;
  logic [3:0]  op_q;
  logic [23:0] addr_q;
  logic [8:0]  len_q;
  logic        poll_q;
  logic [7:0]  div_q, cnt_q;
  logic        sck_q, csn_q;
  logic [7:0]  tx_sh_q, rx_sh_q;
  logic [2:0]  bit_q;
  logic [8:0]  idx_q;
  logic [1:0]  gap_q;
  logic        finish_q;
  logic [31:0] rword_q;
  logic [3:0]  err_q;
  logic [7:0]  sr_q;
  logic [23:0] id_q;
  logic [23:0] polls_q;

  // FIFO
  logic [31:0]   fifo_q [FifoWords];
  logic [Pw-1:0] wp_q, rp_q;
  logic [Pw:0]   lvl_q;
  logic          push, pop, fifo_clear;
  logic [31:0]   push_data;
  logic          eng_push, eng_pop;
  logic [31:0]   eng_push_data;
  logic          fifo_full, fifo_empty;
  assign fifo_full  = lvl_q == (Pw+1)'(FifoWords);
  assign fifo_empty = lvl_q == '0;

  // ---------------------------------------------------------------- command check
  logic [3:0]  c_op;
  logic [23:0] c_addr;
  logic [8:0]  c_len;
  logic [3:0]  c_err;
  logic        c_data_op;
  logic [24:0] c_end;
  logic [9:0]  c_words;
  assign c_op      = hw_out.CMD.op.value;
  assign c_addr    = hw_out.ADDR.addr.value;
  assign c_len     = hw_out.LEN.len.value;
  assign c_data_op = c_op == OpRead || c_op == OpFastRead || c_op == OpProgram;
  assign c_end     = {1'b0, c_addr} + 25'(c_len);
  assign c_words   = (10'(c_len) + 10'd3) >> 2;
  always_comb begin
    c_err = ErrNone;
    if (busy_q) begin
      c_err = ErrBusy;
    end else if (c_op > OpWrdi) begin
      c_err = ErrBadOp;
    end else if (c_data_op && (c_len == '0 || c_len > 9'd256)) begin
      c_err = ErrLen;
    end else if (c_op == OpProgram && 10'(lvl_q) < c_words) begin
      c_err = ErrData;
    end else if ((c_data_op && 32'(c_end) > FlashBytes) ||
                 (c_op == OpErase && 32'(c_addr) >= FlashBytes)) begin
      c_err = ErrRange;
    end else if (c_op == OpProgram && 10'(c_addr[7:0]) + 10'(c_len) > 10'd256) begin
      c_err = ErrPage;
    end else if (c_op == OpErase && c_addr[11:0] != '0) begin
      c_err = ErrAlign;
    end
  end
  logic start, refuse;
  assign start  = cmd_wr_q && c_err == ErrNone;
  assign refuse = cmd_wr_q && c_err != ErrNone;

  // ---------------------------------------------------------------- bytes of a transaction
  logic [8:0] hdr_n, tx_n;   // header bytes (opcode, address, dummy), all bytes
  always_comb begin
    unique case (tx_q)
      TxWren:  begin hdr_n = 9'd1; tx_n = 9'd1; end
      TxPoll:  begin hdr_n = 9'd1; tx_n = 9'd2; end
      default: begin
        unique case (op_q)
          OpReadId:             begin hdr_n = 9'd1; tx_n = 9'd4; end
          OpRead, OpProgram:    begin hdr_n = 9'd4; tx_n = 9'd4 + len_q; end
          OpFastRead:           begin hdr_n = 9'd5; tx_n = 9'd5 + len_q; end
          OpErase:              begin hdr_n = 9'd4; tx_n = 9'd4; end
          OpReadSr:             begin hdr_n = 9'd1; tx_n = 9'd2; end
          default:              begin hdr_n = 9'd1; tx_n = 9'd1; end  // WREN, WRDI
        endcase
      end
    endcase
  end

  logic [7:0] opcode;
  always_comb begin
    unique case (tx_q)
      TxWren: opcode = 8'h06;
      TxPoll: opcode = 8'h05;
      default: begin
        unique case (op_q)
          OpReadId:   opcode = 8'h9F;
          OpRead:     opcode = 8'h03;
          OpFastRead: opcode = 8'h0B;
          OpWren:     opcode = 8'h06;
          OpProgram:  opcode = 8'h02;
          OpErase:    opcode = 8'h20;
          OpReadSr:   opcode = 8'h05;
          default:    opcode = 8'h04;
        endcase
      end
    endcase
  end

  // the byte loaded at index ld_idx (the next byte of the transaction)
  logic       tick, byte_done, last_byte;
  logic [8:0] ld_idx, dat_k;
  logic       ld;
  logic [7:0] ld_byte;
  logic       ld_is_data;
  logic [8:0] ld_k;
  assign tick      = cnt_q == '0;
  assign byte_done = ph_q == PhBit && tick && sck_q && bit_q == 3'd7;
  assign last_byte = idx_q == tx_n - 9'd1;
  assign ld        = (ph_q == PhGap && tick && gap_q == '0 && !finish_q) ||
                     (byte_done && !last_byte);
  assign ld_idx    = (ph_q == PhGap) ? 9'd0 : idx_q + 9'd1;
  assign ld_is_data = tx_q == TxMain && ld_idx >= hdr_n;
  assign ld_k       = ld_idx - hdr_n;
  always_comb begin
    ld_byte = 8'h00;
    if (ld_idx == 9'd0) begin
      ld_byte = opcode;
    end else if (tx_q == TxMain && ld_idx < 9'd4 && hdr_n >= 9'd4) begin
      unique case (ld_idx[1:0])
        2'd1:    ld_byte = addr_q[23:16];
        2'd2:    ld_byte = addr_q[15:8];
        default: ld_byte = addr_q[7:0];
      endcase
    end else if (ld_is_data && op_q == OpProgram) begin
      ld_byte = fifo_q[rp_q][8*ld_k[1:0] +: 8];
    end
  end
  assign eng_pop = ld && ld_is_data && op_q == OpProgram &&
                   (ld_k[1:0] == 2'd3 || ld_idx == tx_n - 9'd1);

  // a received data byte of READ / FAST_READ into the FIFO
  logic        rx_data;
  logic [31:0] rword_d;
  assign dat_k   = idx_q - hdr_n;
  assign rx_data = byte_done && tx_q == TxMain && (op_q == OpRead || op_q == OpFastRead) &&
                   idx_q >= hdr_n;
  assign rword_d = rword_q | (32'(rx_sh_q) << (8 * dat_k[1:0]));
  assign eng_push      = rx_data && (dat_k[1:0] == 2'd3 || last_byte);
  assign eng_push_data = rword_d;

  // end of a transaction: what comes next
  logic poll_more, poll_timeout;
  assign poll_more    = rx_sh_q[0];
  assign poll_timeout = polls_q == '1;

  // ---------------------------------------------------------------- sequencer
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      ph_q     <= PhIdle;
      tx_q     <= TxMain;
      op_q     <= '0;
      addr_q   <= '0;
      len_q    <= '0;
      poll_q   <= 1'b0;
      div_q    <= '0;
      cnt_q    <= '0;
      sck_q    <= 1'b0;
      csn_q    <= 1'b1;
      tx_sh_q  <= '0;
      rx_sh_q  <= '0;
      bit_q    <= '0;
      idx_q    <= '0;
      gap_q    <= '0;
      finish_q <= 1'b0;
      rword_q  <= '0;
      err_q    <= ErrNone;
      sr_q     <= '0;
      id_q     <= '0;
      polls_q  <= '0;
    end else begin
      if (refuse) err_q <= c_err;
      if (busy_q) cnt_q <= tick ? div_q : cnt_q - 8'd1;
      if (start) begin
        busy_q   <= 1'b1;
        err_q    <= ErrNone;
        op_q     <= c_op;
        addr_q   <= c_addr;
        len_q    <= c_len;
        poll_q   <= hw_out.CMD.poll.value;
        tx_q     <= hw_out.CMD.wren.value ? TxWren : TxMain;
        div_q    <= hw_out.CTRL.clkdiv.value;
        cnt_q    <= '0;
        ph_q     <= PhGap;   // first transaction starts after one idle tick
        gap_q    <= '0;
        finish_q <= 1'b0;
        polls_q  <= '0;
        rword_q  <= '0;
        if (c_op == OpReadId) id_q <= '0;
      end else if (busy_q && tick) begin
        unique case (ph_q)
          PhSetup: ph_q <= PhBit;
          PhBit: begin
            if (!sck_q) begin
              sck_q   <= 1'b1;
              rx_sh_q <= {rx_sh_q[6:0], miso_i};
            end else begin
              sck_q <= 1'b0;
              if (bit_q == 3'd7) begin
                bit_q <= '0;
                // the byte just received
                if (tx_q == TxMain && op_q == OpReadId && idx_q != '0) id_q <= {id_q[15:0], rx_sh_q};
                if ((tx_q == TxMain && op_q == OpReadSr && idx_q != '0) || tx_q == TxPoll) sr_q <= rx_sh_q;
                if (rx_data) rword_q <= eng_push ? '0 : rword_d;
                if (last_byte) begin
                  ph_q <= PhEnd;
                end else begin
                  idx_q   <= ld_idx;
                  tx_sh_q <= ld_byte;
                end
              end else begin
                bit_q   <= bit_q + 3'd1;
                tx_sh_q <= {tx_sh_q[6:0], 1'b0};
              end
            end
          end
          PhEnd: begin
            csn_q <= 1'b1;
            ph_q  <= PhGap;
            gap_q <= 2'd2;
            unique case (tx_q)
              TxWren: tx_q <= TxMain;
              TxMain: begin
                if (poll_q) tx_q <= TxPoll;
                else finish_q <= 1'b1;
              end
              default: begin  // TxPoll: rx_sh_q holds the status byte
                polls_q <= polls_q + 24'd1;
                if (!poll_more) begin
                  finish_q <= 1'b1;
                end else if (poll_timeout) begin
                  finish_q <= 1'b1;
                  err_q    <= ErrTimeout;
                end
              end
            endcase
          end
          PhGap: begin
            if (gap_q != '0) begin
              gap_q <= gap_q - 2'd1;
            end else if (finish_q) begin
              busy_q <= 1'b0;
              ph_q   <= PhIdle;
            end else begin
              csn_q   <= 1'b0;
              ph_q    <= PhSetup;
              idx_q   <= '0;
              bit_q   <= '0;
              tx_sh_q <= ld_byte;
            end
          end
          default: ph_q <= PhIdle;
        endcase
      end
    end
  end

  logic finished;
  assign finished = busy_q && tick && ph_q == PhGap && gap_q == '0 && finish_q;

  // ---------------------------------------------------------------- FIFO
  logic apb_push, apb_pop;
  assign apb_push   = wdata_wr_q && !busy_q && !fifo_full;
  assign apb_pop    = hw_out.RDATA.data.swacc && !busy_q && !fifo_empty;
  assign fifo_clear = (clear_wr_q && !busy_q) || (start && (c_op == OpRead || c_op == OpFastRead));
  assign push       = apb_push || eng_push;
  assign pop        = apb_pop || eng_pop;
  assign push_data  = busy_q ? eng_push_data : hw_out.WDATA.data.value;

  always_ff @(posedge clk_i) begin
    if (push) fifo_q[wp_q] <= push_data;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q  <= '0;
      rp_q  <= '0;
      lvl_q <= '0;
    end else if (fifo_clear) begin
      wp_q  <= '0;
      rp_q  <= '0;
      lvl_q <= '0;
    end else begin
      if (push) wp_q <= wp_q + 1'b1;
      if (pop)  rp_q <= rp_q + 1'b1;
      lvl_q <= lvl_q + (Pw+1)'(push) - (Pw+1)'(pop);
    end
  end

  // ---------------------------------------------------------------- registers, pins
  always_comb begin
    hw_in = '0;
    // busy from the CMD write on: a STATUS read right after it never sees the old state
    hw_in.STATUS.busy.next       = busy_q || cmd_wr_q || hw_out.CMD.op.swmod;
    hw_in.STATUS.err.next        = err_q;
    hw_in.STATUS.sr.next         = sr_q;
    hw_in.STATUS.fifo_words.next      = 7'(lvl_q);
    hw_in.ID.id.next             = id_q;
    hw_in.RDATA.data.next        = fifo_empty ? 32'h0 : fifo_q[rp_q];
    hw_in.FLASH_SIZE.size.next   = FlashBytes;
    hw_in.POLLS.count.next       = polls_q;
    hw_in.INTR_STATE.done.hwset  = finished && err_q == ErrNone;
    hw_in.INTR_STATE.err.hwset   = refuse || (finished && err_q != ErrNone);
  end

  assign irq_o  = (hw_out.INTR_STATE.done.value && hw_out.INTR_ENABLE.done.value) ||
                  (hw_out.INTR_STATE.err.value && hw_out.INTR_ENABLE.err.value);
  assign sck_o  = sck_q;
  assign csn_o  = csn_q;
  assign mosi_o = tx_sh_q[7];

  logic unused;
  assign unused = ^{hw_out.FIFO_CTRL.clear.value, dat_k[8:2], ld_k[8:2],
                    c_words[9:7]};
endmodule
