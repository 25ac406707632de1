// ULX3S (ECP5 LFE5U-85F-6BG381C) board top: clock and reset, UART to the FT231X, LEDs,
// and the chip. Pin names are those of rtl/fpga/ulx3s/ulx3s.lpf; docs/fpga.md.
// Clock: EHXPLLL from the 25 MHz oscillator, 25 MHz out (VCO 600 MHz): the chip's
// single-cycle datapaths (MME PE, TPC float unit) are not pipelined for LUT logic, and
// 25 MHz gives the UART 115200 baud from an integer divisor (217, 0.04 % off).
// SPI flash: the chip's flash controller (tessera_spiflash) drives the configuration
// flash; its SCK leaves through USRMCLK (the CCLK pin has no user I/O otherwise), WP# and
// HOLD# are held high.
// SDRAM (chip variant): the chip's two device-memory channels go through a two-to-one AXI
// mux (tessera_axi_mem_mux) to the SDR SDRAM controller (tessera_sdram_ctrl, 25 MHz, CL 2).
// Its DQ bus is an inferred tristate (Yosys/nextpnr put the enable into the I/O cell).
// The SDRAM clock is the PLL's CLKOS, 25 MHz 45 degrees (5 ns) ahead of the controller
// clock, forwarded to the pin through an ODDRX1F (D0 1, D1 0): the SDRAM samples a
// command about 35 ns after the controller launched it (plus the pad delays), so setup
// and hold both keep several ns, and the read data the SDRAM drives after that edge
// is still valid at the controller's capture edge (CasLatency + 1 cycles after the
// READ, docs/sdram.md). The management variant holds the SDRAM pins inactive.
module tessera_ulx3s_top #(
  parameter     BootromHex = "",
  // 1: the management subsystem alone (tessera_ulx3s_mgmt) instead of the chip
  parameter int unsigned MgmtOnly = 0
) (
  input  logic        clk_25mhz_i,
  input  logic [6:0]  btn_i,          // btn_i[0]: PWR button, low when pressed: reset
  output logic [7:0]  led_o,
  output logic        uart_tx_o,      // to the FT231X (its RXD)
  input  logic        uart_rx_i,      // from the FT231X (its TXD)
  output logic        wifi_gpio0_o,   // held high: the ESP32 stays out of its boot mode
  // SPI configuration flash (its clock is the dedicated CCLK pin, through USRMCLK)
  output logic        flash_csn_o,
  output logic        flash_mosi_o,
  input  logic        flash_miso_i,
  output logic        flash_wpn_o,
  output logic        flash_holdn_o,
  // 32 MB SDR SDRAM (16 bit)
  output logic        sdram_clk_o,
  output logic        sdram_cke_o,
  output logic        sdram_csn_o,
  output logic        sdram_wen_o,
  output logic        sdram_rasn_o,
  output logic        sdram_casn_o,
  output logic [12:0] sdram_a_o,
  output logic [1:0]  sdram_ba_o,
  output logic [1:0]  sdram_dqm_o,
  inout  wire  [15:0] sdram_d_io
);
  // ---------------------------------------------------------------- clock
  logic clk, clk_sdram, pll_lock;
  logic [4:0] unused_pll;
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (1),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (24),
    .CLKOP_CPHASE    (11),
    .CLKOP_FPHASE    (0),
    // SDRAM clock: same divider, CPHASE 3 VCO cycles (3 x 15 degrees) below CLKOP's
    .CLKOS_ENABLE    (MgmtOnly != 0 ? "DISABLED" : "ENABLED"),
    .CLKOS_DIV       (24),
    .CLKOS_CPHASE    (8),
    .CLKOS_FPHASE    (0),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKFB_DIV       (1)
  ) u_pll (
    .CLKI        (clk_25mhz_i),
    .CLKFB       (clk),
    .PHASESEL1   (1'b0),
    .PHASESEL0   (1'b0),
    .PHASEDIR    (1'b0),
    .PHASESTEP   (1'b0),
    .PHASELOADREG(1'b0),
    .STDBY       (1'b0),
    .PLLWAKESYNC (1'b0),
    .RST         (1'b0),
    .ENCLKOP     (1'b0),
    .ENCLKOS     (1'b0),
    .ENCLKOS2    (1'b0),
    .ENCLKOS3    (1'b0),
    .CLKOP       (clk),
    .CLKOS       (clk_sdram),
    .CLKOS2      (unused_pll[0]),
    .CLKOS3      (unused_pll[1]),
    .LOCK        (pll_lock),
    .INTLOCK     (unused_pll[2]),
    .REFCLK      (unused_pll[3]),
    .CLKINTFB    (unused_pll[4])
  );

  // ---------------------------------------------------------------- reset
  // asserted asynchronously (PLL not locked, or the button), released synchronously
  // after two flops, then held 16 more cycles
  logic       rst_req_n, rst_n;
  logic [1:0] rst_sync_q;
  logic [4:0] rst_cnt_q;
  assign rst_req_n = pll_lock & btn_i[0];
  always_ff @(posedge clk or negedge rst_req_n) begin
    if (!rst_req_n) begin
      rst_sync_q <= 2'b00;
      rst_cnt_q  <= '0;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
      if (rst_sync_q[1] && !rst_cnt_q[4]) rst_cnt_q <= rst_cnt_q + 5'd1;
    end
  end
  assign rst_n = rst_cnt_q[4];

  // ---------------------------------------------------------------- SPI flash clock
  logic flash_sck;
  USRMCLK u_usrmclk (
    .USRMCLKI (flash_sck),
    .USRMCLKTS(1'b0)
  );

  // ---------------------------------------------------------------- chip
  logic        trace_valid;
  logic [31:0] trace_pc;
  logic        chip_irq;
  // chip outputs not used on the board yet (gen_chip)
  tessera_bus_pkg::axi_mem_req_t hmem_req;
  logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_bus_pkg::AxiMemReqBits-1:0] hbm_req;
  logic        host_gnt, host_rvalid, host_err;
  logic [31:0] host_rdata, trace_insn;
  logic [tessera_cfg_pkg::NumHostIrqs-1:0] host_irq;

  if (MgmtOnly != 0) begin : gen_mgmt
    tessera_ulx3s_mgmt #(.BootromHex(BootromHex)) u_mgmt (
      .clk_i        (clk),
      .rst_ni       (rst_n),
      .uart_tx_o    (uart_tx_o),
      .uart_rx_i    (uart_rx_i),
      .flash_sck_o  (flash_sck),
      .flash_csn_o  (flash_csn_o),
      .flash_mosi_o (flash_mosi_o),
      .flash_miso_i (flash_miso_i),
      .trace_valid_o(trace_valid),
      .trace_pc_o   (trace_pc)
    );
    assign chip_irq    = 1'b0;
    assign hmem_req    = '0;
    assign hbm_req     = '0;
    // SDRAM pins inactive: CKE low, no command, DQ released
    assign sdram_clk_o  = 1'b0;
    assign sdram_cke_o  = 1'b0;
    assign sdram_csn_o  = 1'b1;
    assign sdram_wen_o  = 1'b1;
    assign sdram_rasn_o = 1'b1;
    assign sdram_casn_o = 1'b1;
    assign sdram_a_o    = '0;
    assign sdram_ba_o   = '0;
    assign sdram_dqm_o  = 2'b11;
    assign sdram_d_io   = 'z;
    logic unused_sdram;
    assign unused_sdram = ^{clk_sdram, sdram_d_io};
    assign host_gnt    = 1'b0;
    assign host_rvalid = 1'b0;
    assign host_err    = 1'b0;
    assign host_rdata  = '0;
    assign trace_insn  = '0;
    assign host_irq    = '0;
  end else begin : gen_chip
    logic         nic_tx_tvalid, nic_tx_tlast, nic_rx_tready;
    logic [255:0] nic_tx_tdata;
    logic [31:0]  nic_tx_tkeep;
    // no host port on the board yet (hostlink talks over the UART); host memory is tied
    // off (an access there waits); device memory is the SDRAM (below)
    logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_bus_pkg::AxiMemRspBits-1:0] hbm_rsp;
    tessera_top #(
      .BootromHex(BootromHex),
      .Platform  (1),
      .EngClkGate(1'b0)
    ) u_chip (
      .clk_i        (clk),
      .rst_ni       (rst_n),
      .uart_tx_o    (uart_tx_o),
      .uart_rx_i    (uart_rx_i),
      .flash_sck_o  (flash_sck),
      .flash_csn_o  (flash_csn_o),
      .flash_mosi_o (flash_mosi_o),
      .flash_miso_i (flash_miso_i),
      .host_req_i   (1'b0),
      .host_gnt_o   (host_gnt),
      .host_addr_i  (32'h0),
      .host_we_i    (1'b0),
      .host_be_i    (4'h0),
      .host_wdata_i (32'h0),
      .host_rvalid_o(host_rvalid),
      .host_rdata_o (host_rdata),
      .host_err_o   (host_err),
      .host_irq_o   (host_irq),
      .hbm_req_o    (hbm_req),
      .hbm_rsp_i    (hbm_rsp),
      .hmem_req_o   (hmem_req),
      .hmem_rsp_i   ('0),
      .trace_valid_o(trace_valid),
      .trace_pc_o   (trace_pc),
      .trace_insn_o (trace_insn),
      // no NIC on the board (nic_ports = 0: one tied-off element)
      .nic_tx_tvalid_o(nic_tx_tvalid),
      .nic_tx_tready_i(1'b0),
      .nic_tx_tdata_o (nic_tx_tdata),
      .nic_tx_tkeep_o (nic_tx_tkeep),
      .nic_tx_tlast_o (nic_tx_tlast),
      .nic_rx_tvalid_i(1'b0),
      .nic_rx_tready_o(nic_rx_tready),
      .nic_rx_tdata_i (256'h0),
      .nic_rx_tkeep_i (32'h0),
      .nic_rx_tlast_i (1'b0)
    );
    logic unused_nic;
    assign unused_nic = ^{nic_tx_tvalid, nic_tx_tdata, nic_tx_tkeep, nic_tx_tlast, nic_rx_tready};
    assign chip_irq = |host_irq;

    // ------------------------------------------------------------ SDRAM
    if (tessera_cfg_pkg::HbmChannels != 2) begin : gen_chan_check
      $error("tessera_ulx3s_top: the SDRAM mux takes exactly two device-memory channels");
    end
    tessera_bus_pkg::axi_mem_req_t sd_req;
    tessera_bus_pkg::axi_mem_rsp_t sd_rsp;
    logic        sd_init_done, sd_dq_oe;
    logic [15:0] sd_dq_out;
    tessera_axi_mem_mux u_sdram_mux (
      .clk_i    (clk),
      .rst_ni   (rst_n),
      .slv_req_i(hbm_req),
      .slv_rsp_o(hbm_rsp),
      .mst_req_o(sd_req),
      .mst_rsp_i(sd_rsp)
    );
    tessera_sdram_ctrl #(
      .ClkPeriodPs(40000),
      .CasLatency (2)
    ) u_sdram (
      .clk_i      (clk),
      .rst_ni     (rst_n),
      .slv_req_i  (sd_req),
      .slv_rsp_o  (sd_rsp),
      .init_done_o(sd_init_done),
      .sd_cke_o   (sdram_cke_o),
      .sd_cs_n_o  (sdram_csn_o),
      .sd_ras_n_o (sdram_rasn_o),
      .sd_cas_n_o (sdram_casn_o),
      .sd_we_n_o  (sdram_wen_o),
      .sd_ba_o    (sdram_ba_o),
      .sd_a_o     (sdram_a_o),
      .sd_dqm_o   (sdram_dqm_o),
      .sd_dq_o    (sd_dq_out),
      .sd_dq_oe_o (sd_dq_oe),
      .sd_dq_i    (sdram_d_io)
    );
    assign sdram_d_io = sd_dq_oe ? sd_dq_out : 16'hzzzz;
    ODDRX1F u_sdram_clk (
      .D0  (1'b1),
      .D1  (1'b0),
      .SCLK(clk_sdram),
      .RST (1'b0),
      .Q   (sdram_clk_o)
    );
    logic unused_sdram;
    assign unused_sdram = sd_init_done;
  end
  logic unused_chip;
  assign unused_chip = ^{hmem_req, hbm_req, host_gnt, host_rvalid, host_rdata, host_err,
                         trace_insn, host_irq};

  // ---------------------------------------------------------------- LEDs
  // 0 heartbeat (about 1.5 Hz), 1 PLL locked, 2 out of reset, 3 UART line idle,
  // 4 host interrupt, 7:5 instruction address bits 4:2 of the last retired instruction
  logic [23:0] beat_q;
  logic [2:0]  pc_q;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      beat_q <= '0;
      pc_q   <= '0;
    end else begin
      beat_q <= beat_q + 24'd1;
      if (trace_valid) pc_q <= trace_pc[4:2];
    end
  end
  assign led_o = {pc_q, chip_irq, uart_tx_o, rst_n, pll_lock, beat_q[23]};

  // ---------------------------------------------------------------- other pins
  assign wifi_gpio0_o  = 1'b1;
  assign flash_wpn_o   = 1'b1;
  assign flash_holdn_o = 1'b1;
  logic unused_pins;
  assign unused_pins = ^{btn_i[6:1], trace_pc[31:5], trace_pc[1:0]};
endmodule
