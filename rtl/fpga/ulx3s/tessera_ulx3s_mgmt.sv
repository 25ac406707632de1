// Management subsystem alone, for the ULX3S flow check (docs/fpga.md "Flow check"):
// the chip's RV32IM core, its instruction-fetch mux, boot ROM, ISRAM, DSRAM, UART and
// SPI flash controller (the chip's own modules), joined by a small data-side decoder. Not the chip: no
// SYSCTRL, interrupt controller, timer, engines or device memory; an access outside
// ROM/ISRAM/DSRAM/UART/SPIFLASH answers with an error. It exists so that `make fpga
// BOARD=ulx3s FPGA_MGMT=1` runs synthesis, place and route and bitstream end to end on
// real RTL while the whole board shape is too big for one Yosys process.
module tessera_ulx3s_mgmt #(
  parameter BootromHex = ""
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        uart_tx_o,
  input  logic        uart_rx_i,
  output logic        flash_sck_o,
  output logic        flash_csn_o,
  output logic        flash_mosi_o,
  input  logic        flash_miso_i,
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o
);
  // core
  tessera_bus_pkg::obi_req_t                   i_obi_req, d_obi_req;
  tessera_bus_pkg::obi_rsp_t                   i_obi_rsp, d_obi_rsp;
  logic        d_req, d_gnt, d_acc, d_we, d_rvalid, d_err;
  logic [3:0]  d_be;
  logic [31:0] d_addr, d_wdata, d_rdata;
  logic        uart_irq;
  logic [31:0] trace_insn;

  tessera_core #(.BootAddr(tessera_cfg_pkg::BootromBase), .HartId(32'h0)) u_core (
    .clk_i, .rst_ni,
    .instr_req_o   (i_obi_req),
    .instr_rsp_i   (i_obi_rsp),
    .data_req_o    (d_obi_req),
    .data_rsp_i    (d_obi_rsp),
    .irq_software_i(1'b0),
    .irq_timer_i   (1'b0),
    .irq_external_i(uart_irq),
    .trace_valid_o,
    .trace_pc_o,
    .trace_insn_o  (trace_insn)
  );

  logic unused_insn;
  assign unused_insn = ^trace_insn;
  // the data port's fields as local signals (the decode below is written on them)
  `TESSERA_OBI_FLAT_FROM_REQ(d_, , , d_obi_req)
  `TESSERA_OBI_RSP_FROM_FLAT(d_obi_rsp, d_, , )

  // fetch side: the chip's fetch mux over ROM, ISRAM, DSRAM (OBI structs)
  logic [2:0][tessera_bus_pkg::ObiReqBits-1:0] f_req;
  logic [2:0][tessera_bus_pkg::ObiRspBits-1:0] f_rsp;
  tessera_imux u_imux (
    .clk_i, .rst_ni,
    .obi_req_i(i_obi_req),
    .obi_rsp_o(i_obi_rsp),
    .t_req_o  (f_req),
    .t_rsp_i  (f_rsp)
  );

  // data side: 0 ROM, 1 ISRAM, 2 DSRAM (one-cycle memories), 3 UART, 4 SPIFLASH (APB),
  // else error
  typedef enum logic [2:0] {TgtRom, TgtIsram, TgtDsram, TgtUart, TgtFlash, TgtErr} tgt_e;
  tgt_e tgt;
  always_comb begin
    unique case (1'b1)
      d_addr[31:16] == tessera_cfg_pkg::BootromBase[31:16]: tgt = d_we ? TgtErr : TgtRom;
      d_addr[31:16] == tessera_cfg_pkg::IsramBase[31:16]:   tgt = TgtIsram;
      d_addr[31:16] == tessera_cfg_pkg::DsramBase[31:16]:   tgt = TgtDsram;
      d_addr[31:12] == tessera_cfg_pkg::UartBase[31:12]:    tgt = TgtUart;
      d_addr[31:12] == tessera_cfg_pkg::SpiflashBase[31:12]: tgt = TgtFlash;
      default:                                              tgt = TgtErr;
    endcase
  end

  // APB access to the UART or the flash controller: setup, then access until pready;
  // the core waits (no grant). The grant does not depend on the request (OBI allows
  // gnt without req): the core's request depends on its data response, which travels
  // in the same struct as the grant, so a grant from the request would be a loop.
  // d_acc is the accepted transfer (req and gnt).
  typedef enum logic [1:0] {ApbIdle, ApbSetup, ApbAccess} apb_e;
  apb_e        apb_d, apb_q;
  logic [15:0] paddr_q;
  logic        pwrite_q;
  logic [31:0] pwdata_q;
  logic [3:0]  pstrb_q;
  logic        pready, pslverr;
  logic [31:0] prdata;
  logic        apb_done;
  logic        flash_irq;

  assign d_gnt    = apb_q == ApbIdle;
  assign d_acc    = d_req && d_gnt;
  assign apb_done = apb_q == ApbAccess && pready;
  always_comb begin
    apb_d = apb_q;
    unique case (apb_q)
      ApbIdle:   if (d_req && (tgt == TgtUart || tgt == TgtFlash)) apb_d = ApbSetup;
      ApbSetup:  apb_d = ApbAccess;
      ApbAccess: if (pready) apb_d = ApbIdle;
      default:   apb_d = ApbIdle;
    endcase
  end

  tgt_e rsp_tgt_q;
  logic rsp_mem_q, rsp_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      apb_q     <= ApbIdle;
      paddr_q   <= '0;
      pwrite_q  <= 1'b0;
      pwdata_q  <= '0;
      pstrb_q   <= '0;
      rsp_tgt_q <= TgtErr;
      rsp_mem_q <= 1'b0;
      rsp_err_q <= 1'b0;
    end else begin
      apb_q     <= apb_d;
      rsp_mem_q <= d_acc && (tgt == TgtRom || tgt == TgtIsram || tgt == TgtDsram);
      rsp_err_q <= d_acc && tgt == TgtErr;
      if (d_acc) rsp_tgt_q <= tgt;
      if (d_acc && (tgt == TgtUart || tgt == TgtFlash)) begin
        paddr_q  <= d_addr[15:0];
        pwrite_q <= d_we;
        pwdata_q <= d_wdata;
        pstrb_q  <= d_we ? d_be : 4'h0;
      end
    end
  end

  // data side of the memories: one OBI request per memory, the core's fields with its
  // own req; the responses' rvalid and rdata (always granted, no error)
  logic [2:0]                                  b_sel, b_rvalid;
  logic [2:0][31:0]                            b_rdata;
  logic [2:0][tessera_bus_pkg::ObiReqBits-1:0] b_req;
  logic [2:0][tessera_bus_pkg::ObiRspBits-1:0] b_rsp;
  assign b_sel[0] = d_acc && tgt == TgtRom;
  assign b_sel[1] = d_acc && tgt == TgtIsram;
  assign b_sel[2] = d_acc && tgt == TgtDsram;
  for (genvar t = 0; t < 3; t++) begin : g_mem
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    logic                      unused_rsp;
    assign req.req     = b_sel[t];
    assign req.addr    = d_addr;
    assign req.we      = d_we;
    assign req.be      = d_be;
    assign req.wdata   = d_wdata;
    assign b_req[t]    = req;
    assign rsp         = b_rsp[t];
    assign b_rvalid[t] = rsp.rvalid;
    assign b_rdata[t]  = rsp.rdata;
    assign unused_rsp  = ^{rsp.gnt, rsp.err};
  end

  tessera_rom #(.Bytes(tessera_cfg_pkg::BootromBytes), .InitFile(BootromHex)) u_bootrom (
    .clk_i, .rst_ni,
    .a_req_i(f_req[0]),
    .a_rsp_o(f_rsp[0]),
    .b_req_i(b_req[0]),
    .b_rsp_o(b_rsp[0])
  );
  tessera_sram_dp #(.Bytes(tessera_cfg_pkg::IsramBytes)) u_isram (
    .clk_i, .rst_ni,
    .a_req_i(f_req[1]),
    .a_rsp_o(f_rsp[1]),
    .b_req_i(b_req[1]),
    .b_rsp_o(b_rsp[1])
  );
  tessera_sram_dp #(.Bytes(tessera_cfg_pkg::DsramBytes)) u_dsram (
    .clk_i, .rst_ni,
    .a_req_i(f_req[2]),
    .a_rsp_o(f_rsp[2]),
    .b_req_i(b_req[2]),
    .b_rsp_o(b_rsp[2])
  );

  // one APB request per target: the registered fields, psel for the addressed target
  tessera_bus_pkg::apb_req_t uart_apb_req, flash_apb_req;
  tessera_bus_pkg::apb_rsp_t uart_apb_rsp, flash_apb_rsp;
  assign uart_apb_req.psel     = apb_q != ApbIdle && rsp_tgt_q == TgtUart;
  assign uart_apb_req.penable  = apb_q == ApbAccess;
  assign uart_apb_req.pwrite   = pwrite_q;
  assign uart_apb_req.pprot    = 3'b000;
  assign uart_apb_req.paddr    = paddr_q;
  assign uart_apb_req.pwdata   = pwdata_q;
  assign uart_apb_req.pstrb    = pstrb_q;
  always_comb begin
    flash_apb_req      = uart_apb_req;
    flash_apb_req.psel = apb_q != ApbIdle && rsp_tgt_q == TgtFlash;
  end
  tessera_uart u_uart (
    .clk_i, .rst_ni,
    .apb_req_i    (uart_apb_req),
    .apb_rsp_o    (uart_apb_rsp),
    .tx_o         (uart_tx_o),
    .rx_i         (uart_rx_i),
    .irq_o        (uart_irq)
  );

  tessera_spiflash u_spiflash (
    .clk_i, .rst_ni,
    .apb_req_i    (flash_apb_req),
    .apb_rsp_o    (flash_apb_rsp),
    .sck_o        (flash_sck_o),
    .csn_o        (flash_csn_o),
    .mosi_o       (flash_mosi_o),
    .miso_i       (flash_miso_i),
    .irq_o        (flash_irq)
  );
  // no interrupt controller here: the flash interrupt is not used (the ROM polls)
  logic unused_flash_irq;
  assign unused_flash_irq = flash_irq;
  assign pready  = (rsp_tgt_q == TgtFlash) ? flash_apb_rsp.pready  : uart_apb_rsp.pready;
  assign prdata  = (rsp_tgt_q == TgtFlash) ? flash_apb_rsp.prdata  : uart_apb_rsp.prdata;
  assign pslverr = (rsp_tgt_q == TgtFlash) ? flash_apb_rsp.pslverr : uart_apb_rsp.pslverr;

  // responses in request order: a memory answers the cycle after its grant, the UART
  // when its access phase ends (no other grant meanwhile), an error the cycle after
  always_comb begin
    d_rvalid = rsp_err_q || apb_done || (rsp_mem_q && |b_rvalid);
    d_err    = rsp_err_q || (apb_done && pslverr);
    unique case (rsp_tgt_q)
      TgtRom:   d_rdata = b_rdata[0];
      TgtIsram: d_rdata = b_rdata[1];
      TgtDsram: d_rdata = b_rdata[2];
      TgtUart,
      TgtFlash: d_rdata = prdata;
      default:  d_rdata = '0;
    endcase
  end
endmodule
