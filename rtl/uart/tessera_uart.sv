// UART: 8 data bits, no parity, one stop bit. TX and RX FIFOs of FifoDepth
// bytes. CTRL.div clock cycles per bit. Registers: rtl/uart/data/uart.rdl.
module tessera_uart #(
  parameter int unsigned FifoDepth = 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  output logic        tx_o,
  input  logic        rx_i,
  output logic        irq_o
);
  localparam int unsigned Pw = $clog2(FifoDepth);

  uart_reg_pkg::uart__in_t  hw_in;
  uart_reg_pkg::uart__out_t hw_out;

  uart_reg_top u_regs (
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

  logic [15:0] div;
  assign div = (hw_out.CTRL.div.value < 16'd4) ? 16'd4 : hw_out.CTRL.div.value;

  // ---------------------------------------------------------------- TX
  logic [7:0]  tx_fifo_q [FifoDepth];
  logic [Pw-1:0] tx_wp_q, tx_rp_q;
  logic [Pw:0]   tx_cnt_q;
  logic tx_push, tx_pop, tx_full, tx_empty;
  assign tx_full  = tx_cnt_q == (Pw+1)'(FifoDepth);
  assign tx_empty = tx_cnt_q == '0;
  logic tx_wr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tx_wr_q <= 1'b0;
    else         tx_wr_q <= hw_out.TXDATA.data.swmod;
  end
  assign tx_push  = tx_wr_q && !tx_full;

  logic        tx_busy_q;
  logic [9:0]  tx_shift_q;   // {stop, data[7:0], start} shifted out LSB first
  logic [3:0]  tx_bits_q;
  logic [15:0] tx_tick_q;
  assign tx_pop = !tx_busy_q && !tx_empty;

  always_ff @(posedge clk_i) begin
    if (tx_push) tx_fifo_q[tx_wp_q] <= hw_out.TXDATA.data.value;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_wp_q    <= '0;
      tx_rp_q    <= '0;
      tx_cnt_q   <= '0;
      tx_busy_q  <= 1'b0;
      tx_shift_q <= '1;
      tx_bits_q  <= '0;
      tx_tick_q  <= '0;
    end else begin
      if (tx_push) tx_wp_q <= tx_wp_q + 1'b1;
      if (tx_pop)  tx_rp_q <= tx_rp_q + 1'b1;
      tx_cnt_q <= tx_cnt_q + (Pw+1)'(tx_push) - (Pw+1)'(tx_pop);
      if (tx_pop) begin
        tx_busy_q  <= 1'b1;
        tx_shift_q <= {1'b1, tx_fifo_q[tx_rp_q], 1'b0};
        tx_bits_q  <= 4'd10;
        tx_tick_q  <= div - 16'd1;
      end else if (tx_busy_q) begin
        if (tx_tick_q == '0) begin
          tx_shift_q <= {1'b1, tx_shift_q[9:1]};
          tx_tick_q  <= div - 16'd1;
          tx_bits_q  <= tx_bits_q - 4'd1;
          if (tx_bits_q == 4'd1) tx_busy_q <= 1'b0;
        end else begin
          tx_tick_q <= tx_tick_q - 16'd1;
        end
      end
    end
  end
  assign tx_o = tx_busy_q ? tx_shift_q[0] : 1'b1;

  // ---------------------------------------------------------------- RX
  logic [1:0]  rx_sync_q;
  logic        rx_busy_q;
  logic [15:0] rx_tick_q;
  logic [3:0]  rx_bits_q;
  logic [7:0]  rx_shift_q;
  logic [7:0]  rx_fifo_q [FifoDepth];
  logic [Pw-1:0] rx_wp_q, rx_rp_q;
  logic [Pw:0]   rx_cnt_q;
  logic rx_push, rx_pop, rx_full, rx_empty, rx_done, rx_stop_ok, rx_overrun, rx_frame_err;
  logic rx;
  assign rx       = rx_sync_q[1];
  assign rx_full  = rx_cnt_q == (Pw+1)'(FifoDepth);
  assign rx_empty = rx_cnt_q == '0;
  assign rx_pop   = hw_out.RXDATA.data.swacc && !rx_empty;
  // rx_bits_q counts: 9 = start bit check, 8..1 data bits, 0 = stop bit
  assign rx_done    = rx_busy_q && rx_tick_q == '0 && rx_bits_q == 4'd0;
  assign rx_stop_ok = rx;
  assign rx_push      = rx_done && rx_stop_ok && !rx_full;
  assign rx_overrun   = rx_done && rx_stop_ok && rx_full;
  assign rx_frame_err = rx_done && !rx_stop_ok;

  always_ff @(posedge clk_i) begin
    if (rx_push) rx_fifo_q[rx_wp_q] <= rx_shift_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_sync_q  <= 2'b11;
      rx_busy_q  <= 1'b0;
      rx_tick_q  <= '0;
      rx_bits_q  <= '0;
      rx_shift_q <= '0;
      rx_wp_q    <= '0;
      rx_rp_q    <= '0;
      rx_cnt_q   <= '0;
    end else begin
      rx_sync_q <= {rx_sync_q[0], rx_i};
      if (rx_push) rx_wp_q <= rx_wp_q + 1'b1;
      if (rx_pop)  rx_rp_q <= rx_rp_q + 1'b1;
      rx_cnt_q <= rx_cnt_q + (Pw+1)'(rx_push) - (Pw+1)'(rx_pop);
      if (!rx_busy_q) begin
        if (!rx) begin  // start bit edge: sample in the middle of each bit
          rx_busy_q <= 1'b1;
          rx_bits_q <= 4'd9;
          rx_tick_q <= (div >> 1) - 16'd1;
        end
      end else if (rx_tick_q != '0) begin
        rx_tick_q <= rx_tick_q - 16'd1;
      end else begin
        rx_tick_q <= div - 16'd1;
        if (rx_bits_q == 4'd9) begin
          if (rx) rx_busy_q <= 1'b0;  // glitch, not a start bit
          rx_bits_q <= 4'd8;
        end else if (rx_bits_q == 4'd0) begin
          rx_busy_q <= 1'b0;
        end else begin
          rx_shift_q <= {rx, rx_shift_q[7:1]};
          rx_bits_q  <= rx_bits_q - 4'd1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- status
  logic tx_idle;
  assign tx_idle = tx_empty && !tx_busy_q;
  always_comb begin
    hw_in = '0;
    hw_in.RXDATA.data.next          = rx_fifo_q[rx_rp_q];
    hw_in.RXDATA.empty.next         = rx_empty;
    hw_in.STATUS.tx_full.next       = tx_full;
    hw_in.STATUS.tx_idle.next       = tx_idle;
    hw_in.STATUS.rx_valid.next      = !rx_empty;
    hw_in.STATUS.tx_overflow.hwset  = tx_wr_q && tx_full;
    hw_in.STATUS.rx_overrun.hwset   = rx_overrun;
    hw_in.STATUS.rx_frame_err.hwset = rx_frame_err;
    hw_in.STATUS.tx_level.next      = 5'(tx_cnt_q);
    hw_in.STATUS.rx_level.next      = 5'(rx_cnt_q);
  end

  assign irq_o = (hw_out.IE.rx_valid.value && !rx_empty) || (hw_out.IE.tx_idle.value && tx_idle);

  // The sticky STATUS flags are set by hardware and cleared by software only.
  logic unused_status;
  assign unused_status = ^hw_out.STATUS;
endmodule
