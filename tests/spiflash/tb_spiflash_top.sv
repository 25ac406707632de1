// Simulation wrapper for the SPI flash controller block testbench: flat APB and flash
// pins around tessera_spiflash, whose APB port is a struct (the flash model is C++,
// tests/spiflash/tb_spiflash.cpp).
module tb_spiflash_top #(
  parameter int unsigned FlashBytes = 1 << 20
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        apb_psel_i,
  input  logic        apb_penable_i,
  input  logic        apb_pwrite_i,
  input  logic [2:0]  apb_pprot_i,
  input  logic [15:0] apb_paddr_i,
  input  logic [31:0] apb_pwdata_i,
  input  logic [3:0]  apb_pstrb_i,
  output logic        apb_pready_o,
  output logic [31:0] apb_prdata_o,
  output logic        apb_pslverr_o,
  output logic        sck_o,
  output logic        csn_o,
  output logic        mosi_o,
  input  logic        miso_i,
  output logic        irq_o
);
  tessera_bus_pkg::apb_req_t apb_req;
  tessera_bus_pkg::apb_rsp_t apb_rsp;
  `TESSERA_APB_REQ_FROM_FLAT(apb_req, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp)
  tessera_spiflash #(.FlashBytes(FlashBytes)) u_spiflash (
    .clk_i,
    .rst_ni,
    .apb_req_i(apb_req),
    .apb_rsp_o(apb_rsp),
    .sck_o,
    .csn_o,
    .mosi_o,
    .miso_i,
    .irq_o
  );
endmodule
