// tessera_sim_top: the Verilator top of ./chip_tb (simulation only, never synthesized).
//
// tessera_top with the slave side of its HBM channels and of its host-memory port driven
// by registers instead of top-level inputs. At every rising edge the registers load what
// the C++ memory models (sim/src/axi_mem_model.*, ticked by sim/src/tessera_sim.cpp just
// before the edge) produced for the next cycle, through the DPI functions below; the
// chip's flops sample the old values at the same edge, as they sampled the inputs the
// harness drove before. So every cycle is the same as with inputs, but the logic fed by
// the memory side (the fabric's response paths, the L2 slices' read paths) is evaluated
// once per cycle with the rest of the clocked logic: Verilator evaluates the logic fed by
// top-level inputs in every eval(), two per cycle (docs/sim.md "Speed").
//
// Data fields load only with their valid, as the harness drove them before. The other
// inputs of tessera_top (UART, SPI flash, host register port) stay inputs. tessera_top's memory
// ports are AXI request/response structs (tessera_bus_pkg); this top keeps them as flat
// pins for the C++ harness (the assign macros of rtl/prim/tessera_bus.svh). The other
// ports are connected by name (.*), so a port added to tessera_top must be added here too.
//
// Device memory (config/tessera.toml `device_memory`): "hbm" (proto, tiny): the HBM
// channels as above. "sdram" (ulx3s; mk/sim.mk then defines TESSERA_SIM_SDRAM): the board's
// memory path, as in rtl/fpga/ulx3s/tessera_ulx3s_top.sv: the two device-memory channels
// through tessera_axi_mem_mux to tessera_sdram_ctrl on the chip clock, whose pins are the
// sd_* ports; the harness's SDRAM model (sim/src/tsim_sdram.cpp) takes them every cycle and
// drives sd_dq_i for the next rising edge (docs/sim.md "Cycle loop"). The hbm_* outputs
// still show the channels' requests; no HBM model answers them. Without the define this
// file is the HBM-only top, so the HBM configurations' model does not change.
module tessera_sim_top #(
  parameter              BootromHex = "",
  parameter int unsigned HbmIdBits  = tessera_bus_pkg::MemIdBits,
  parameter int unsigned HostIdBits = tessera_bus_pkg::HostIdBits,
  parameter int unsigned NicPw      = (tessera_cfg_pkg::NicPorts > 0) ? tessera_cfg_pkg::NicPorts : 1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic uart_rx_i,
  output logic uart_tx_o,
  output logic flash_sck_o,
  output logic flash_csn_o,
  output logic flash_mosi_o,
  input  logic flash_miso_i,
  input  logic        host_req_i,
  input  logic [31:0] host_addr_i,
  input  logic        host_we_i,
  input  logic [3:0]  host_be_i,
  input  logic [31:0] host_wdata_i,
  output logic        host_gnt_o,
  output logic        host_rvalid_o,
  output logic [31:0] host_rdata_o,
  output logic        host_err_o,
  output logic [tessera_cfg_pkg::NumHostIrqs-1:0] host_irq_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][HbmIdBits-1:0]      hbm_awid_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][31:0]               hbm_awaddr_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][7:0]                hbm_awlen_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][2:0]                hbm_awsize_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][1:0]                hbm_awburst_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][3:0]                hbm_awcache_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][2:0]                hbm_awprot_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][3:0]                hbm_awqos_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_awvalid_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_cfg_pkg::AxiDataBits-1:0]    hbm_wdata_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_cfg_pkg::AxiDataBits/8-1:0]  hbm_wstrb_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_wlast_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_wvalid_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_bready_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][HbmIdBits-1:0]      hbm_arid_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][31:0]               hbm_araddr_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][7:0]                hbm_arlen_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][2:0]                hbm_arsize_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][1:0]                hbm_arburst_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][3:0]                hbm_arcache_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][2:0]                hbm_arprot_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0][3:0]                hbm_arqos_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_arvalid_o,
  output logic [tessera_cfg_pkg::HbmChannels-1:0]                     hbm_rready_o,
  output logic [HostIdBits-1:0] host_awid_o,
  output logic [31:0]           host_awaddr_o,
  output logic [7:0]            host_awlen_o,
  output logic [2:0]            host_awsize_o,
  output logic [1:0]            host_awburst_o,
  output logic                  host_awvalid_o,
  output logic [tessera_cfg_pkg::AxiDataBits-1:0]   host_wdata_o,
  output logic [tessera_cfg_pkg::AxiDataBits/8-1:0] host_wstrb_o,
  output logic                  host_wlast_o,
  output logic                  host_wvalid_o,
  output logic                  host_bready_o,
  output logic [HostIdBits-1:0] host_arid_o,
  output logic [31:0]           host_araddr_o,
  output logic [7:0]            host_arlen_o,
  output logic [2:0]            host_arsize_o,
  output logic [1:0]            host_arburst_o,
  output logic                  host_arvalid_o,
  output logic                  host_rready_o,
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o,
  output logic [31:0] trace_insn_o,
  // NIC ports' MAC client streams, element p = port p (tessera_top; one tied-off element
  // with nic_ports = 0). The harness drives the inputs (sim/src/tessera_sim.cpp, NIC pins).
  output logic [NicPw-1:0]        nic_tx_tvalid_o,
  input  logic [NicPw-1:0]        nic_tx_tready_i,
  output logic [NicPw-1:0][255:0] nic_tx_tdata_o,
  output logic [NicPw-1:0][31:0]  nic_tx_tkeep_o,
  output logic [NicPw-1:0]        nic_tx_tlast_o,
  input  logic [NicPw-1:0]        nic_rx_tvalid_i,
  output logic [NicPw-1:0]        nic_rx_tready_o,
  input  logic [NicPw-1:0][255:0] nic_rx_tdata_i,
  input  logic [NicPw-1:0][31:0]  nic_rx_tkeep_i,
`ifdef TESSERA_SIM_SDRAM
  input  logic [NicPw-1:0]        nic_rx_tlast_i,
  // SDR SDRAM pins (sd_a_o zero-extended to 16 bits)
  output logic        sd_cke_o,
  output logic        sd_cs_n_o,
  output logic        sd_ras_n_o,
  output logic        sd_cas_n_o,
  output logic        sd_we_n_o,
  output logic [1:0]  sd_ba_o,
  output logic [15:0] sd_a_o,
  output logic [1:0]  sd_dqm_o,
  output logic [15:0] sd_dq_o,
  output logic        sd_dq_oe_o,
  input  logic [15:0] sd_dq_i
`else
  input  logic [NicPw-1:0]        nic_rx_tlast_i
`endif
);
  localparam int unsigned NCh = tessera_cfg_pkg::HbmChannels;
  localparam int unsigned Dw  = tessera_cfg_pkg::AxiDataBits;

  // Slave outputs of memory channel ch for the next cycle (ch < NCh: HBM channel ch;
  // ch == NCh: the host-memory port; IDs are zero-extended to 32 bits). Implemented in
  // sim/src/tessera_sim.cpp; called once per channel at every rising edge.
  import "DPI-C" function void tsim_dpi_mem_slave(
    input  int        ch,
    output bit        awready,
    output bit        wready,
    output bit        arready,
    output bit        bvalid,
    output bit        rvalid,
    output int        bid,
    output bit [1:0]  bresp,
    output int        rid,
    output bit [1:0]  rresp,
    output bit        rlast,
    output bit [Dw-1:0] rdata
  );

  // the slave-side signals of tessera_top, by their port names (connected by .* below)
  logic [NCh-1:0]                hbm_awready_i, hbm_wready_i, hbm_arready_i;
  logic [NCh-1:0]                hbm_bvalid_i, hbm_rvalid_i, hbm_rlast_i;
  logic [NCh-1:0][HbmIdBits-1:0] hbm_bid_i, hbm_rid_i;
  logic [NCh-1:0][1:0]           hbm_bresp_i, hbm_rresp_i;
  logic [NCh-1:0][Dw-1:0]        hbm_rdata_i;
  logic                  host_awready_i, host_wready_i, host_arready_i;
  logic                  host_bvalid_i, host_rvalid_i, host_rlast_i;
  logic [HostIdBits-1:0] host_bid_i, host_rid_i;
  logic [1:0]            host_bresp_i, host_rresp_i;
  logic [Dw-1:0]         host_rdata_i;

  always_ff @(posedge clk_i) begin
    bit aw, w, ar, bv, rv, rl;
    // verilator lint_off UNUSEDSIGNAL
    int bid, rid;   // IDs zero-extended; the ports use the low HbmIdBits / HostIdBits
    // verilator lint_on UNUSEDSIGNAL
    bit [1:0] br, rr;
    bit [Dw-1:0] rd;
`ifndef TESSERA_SIM_SDRAM
    for (int c = 0; c < int'(NCh); c++) begin
      tsim_dpi_mem_slave(c, aw, w, ar, bv, rv, bid, br, rid, rr, rl, rd);
      hbm_awready_i[c] <= aw;
      hbm_wready_i[c]  <= w;
      hbm_arready_i[c] <= ar;
      hbm_bvalid_i[c]  <= bv;
      hbm_rvalid_i[c]  <= rv;
      if (bv) begin
        hbm_bid_i[c]   <= HbmIdBits'(bid);
        hbm_bresp_i[c] <= br;
      end
      if (rv) begin
        hbm_rid_i[c]   <= HbmIdBits'(rid);
        hbm_rresp_i[c] <= rr;
        hbm_rlast_i[c] <= rl;
        hbm_rdata_i[c] <= rd;
      end
    end
`endif
    tsim_dpi_mem_slave(int'(NCh), aw, w, ar, bv, rv, bid, br, rid, rr, rl, rd);
    host_awready_i <= aw;
    host_wready_i  <= w;
    host_arready_i <= ar;
    host_bvalid_i  <= bv;
    host_rvalid_i  <= rv;
    if (bv) begin
      host_bid_i   <= HostIdBits'(bid);
      host_bresp_i <= br;
    end
    if (rv) begin
      host_rid_i   <= HostIdBits'(rid);
      host_rresp_i <= rr;
      host_rlast_i <= rl;
      host_rdata_i <= rd;
    end
  end

  // tessera_top's memory-side structs <-> the flat pins and registers above
  localparam int unsigned MemIdBits = tessera_bus_pkg::MemIdBits;
  logic [NCh-1:0][tessera_bus_pkg::AxiMemReqBits-1:0] hbm_req_o;
  logic [NCh-1:0][tessera_bus_pkg::AxiMemRspBits-1:0] hbm_rsp_i;
  tessera_bus_pkg::axi_mem_req_t hmem_req_o;
  tessera_bus_pkg::axi_mem_rsp_t hmem_rsp_i;
  for (genvar c = 0; c < int'(NCh); c++) begin : g_hbm
    tessera_bus_pkg::axi_mem_req_t req;
`ifndef TESSERA_SIM_SDRAM
    tessera_bus_pkg::axi_mem_rsp_t rsp;
`endif
    assign req = hbm_req_o[c];
    `TESSERA_AXI_FLAT_FROM_REQ(hbm_, _o, [c], req)
`ifndef TESSERA_SIM_SDRAM
    `TESSERA_AXI_RSP_FROM_FLAT(rsp, hbm_, _i, [c])
    assign hbm_rsp_i[c] = rsp;
`endif
  end

`ifdef TESSERA_SIM_SDRAM
  if (1) begin : g_sdram
    // the board's memory path (tessera_ulx3s_top): mux, controller on the chip clock
    localparam int unsigned SdColBits  = 9;
    localparam int unsigned SdBankBits = 2;
    localparam int unsigned SdRowBits  = $clog2(tessera_cfg_pkg::SdramBytes) - 1 - SdColBits - SdBankBits;
    if (NCh != 2 || tessera_cfg_pkg::DevmemSdram != 1) begin : g_chan_check
      $error("tessera_sim_top: TESSERA_SIM_SDRAM needs device_memory = sdram and two channels");
    end
    tessera_bus_pkg::axi_mem_req_t sd_req;
    tessera_bus_pkg::axi_mem_rsp_t sd_rsp;
    logic [SdRowBits-1:0] sd_a;
    logic                 sd_init_done;
    tessera_axi_mem_mux u_sdram_mux (
      .clk_i,
      .rst_ni,
      .slv_req_i(hbm_req_o),
      .slv_rsp_o(hbm_rsp_i),
      .mst_req_o(sd_req),
      .mst_rsp_i(sd_rsp)
    );
    tessera_sdram_ctrl #(
      .ClkPeriodPs(int'(64'd1_000_000_000_000 / 64'(tessera_cfg_pkg::ClkHz))),
      .CasLatency (2),
      .RowBits    (SdRowBits),
      .ColBits    (SdColBits),
      .BankBits   (SdBankBits),
      .WindowBits ($clog2(tessera_cfg_pkg::HbmSize))
    ) u_sdram (
      .clk_i,
      .rst_ni,
      .slv_req_i  (sd_req),
      .slv_rsp_o  (sd_rsp),
      .init_done_o(sd_init_done),
      .sd_cke_o,
      .sd_cs_n_o,
      .sd_ras_n_o,
      .sd_cas_n_o,
      .sd_we_n_o,
      .sd_ba_o,
      .sd_a_o     (sd_a),
      .sd_dqm_o,
      .sd_dq_o,
      .sd_dq_oe_o,
      .sd_dq_i
    );
    assign sd_a_o = 16'(sd_a);
    // verilator lint_off UNUSEDSIGNAL
    logic unused_sd;
    assign unused_sd = ^{sd_init_done, hbm_awready_i, hbm_wready_i, hbm_arready_i, hbm_bvalid_i,
                         hbm_rvalid_i, hbm_rlast_i, hbm_bid_i, hbm_rid_i, hbm_bresp_i,
                         hbm_rresp_i, hbm_rdata_i};
    // verilator lint_on UNUSEDSIGNAL
  end
`endif

  assign host_awid_o    = hmem_req_o.aw.id[HostIdBits-1:0];
  assign host_awaddr_o  = hmem_req_o.aw.addr;
  assign host_awlen_o   = hmem_req_o.aw.len;
  assign host_awsize_o  = hmem_req_o.aw.size;
  assign host_awburst_o = hmem_req_o.aw.burst;
  assign host_awvalid_o = hmem_req_o.aw_valid;
  assign host_wdata_o   = hmem_req_o.w.data;
  assign host_wstrb_o   = hmem_req_o.w.strb;
  assign host_wlast_o   = hmem_req_o.w.last;
  assign host_wvalid_o  = hmem_req_o.w_valid;
  assign host_bready_o  = hmem_req_o.b_ready;
  assign host_arid_o    = hmem_req_o.ar.id[HostIdBits-1:0];
  assign host_araddr_o  = hmem_req_o.ar.addr;
  assign host_arlen_o   = hmem_req_o.ar.len;
  assign host_arsize_o  = hmem_req_o.ar.size;
  assign host_arburst_o = hmem_req_o.ar.burst;
  assign host_arvalid_o = hmem_req_o.ar_valid;
  assign host_rready_o  = hmem_req_o.r_ready;
  always_comb begin
    hmem_rsp_i          = '0;
    hmem_rsp_i.aw_ready = host_awready_i;
    hmem_rsp_i.w_ready  = host_wready_i;
    hmem_rsp_i.b.id     = MemIdBits'(host_bid_i);
    hmem_rsp_i.b.resp   = host_bresp_i;
    hmem_rsp_i.b_valid  = host_bvalid_i;
    hmem_rsp_i.ar_ready = host_arready_i;
    hmem_rsp_i.r.id     = MemIdBits'(host_rid_i);
    hmem_rsp_i.r.data   = host_rdata_i;
    hmem_rsp_i.r.resp   = host_rresp_i;
    hmem_rsp_i.r.last   = host_rlast_i;
    hmem_rsp_i.r_valid  = host_rvalid_i;
  end

  tessera_top #(
    .BootromHex(BootromHex),
    .HbmIdBits (HbmIdBits),
    .HostIdBits(HostIdBits),
    .NicPw     (NicPw)
  ) u_top (.*);

endmodule
