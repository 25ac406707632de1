// Simulation wrapper for the SDRAM controller block testbench (tests/sdram/tb_sdram.cpp):
// flat AXI pins of the memory-side flavour and the SDRAM pins around several
// tessera_sdram_ctrl instances that differ only in parameters. sel_i picks the one the
// test drives (the others see no AXI valids and their pins are not observed):
//   0  board clock (25 MHz, CL 2), datasheet timing
//   1  133 MHz (CL 3), datasheet timing
//   2..10  133 MHz with one timing parameter deliberately broken (BrokenNames below),
//      so the SDRAM model's checker must flag that rule.
module tb_sdram_top (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [3:0]                            sel_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0] awid_i,
  input  logic [31:0]                           awaddr_i,
  input  logic [7:0]                            awlen_i,
  input  logic [2:0]                            awsize_i,
  input  logic [1:0]                            awburst_i,
  input  logic                                  awvalid_i,
  output logic                                  awready_o,
  input  logic [tessera_bus_pkg::DataBits-1:0]  wdata_i,
  input  logic [tessera_bus_pkg::StrbBits-1:0]  wstrb_i,
  input  logic                                  wlast_i,
  input  logic                                  wvalid_i,
  output logic                                  wready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0] bid_o,
  output logic [1:0]                            bresp_o,
  output logic                                  bvalid_o,
  input  logic                                  bready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0] arid_i,
  input  logic [31:0]                           araddr_i,
  input  logic [7:0]                            arlen_i,
  input  logic [2:0]                            arsize_i,
  input  logic [1:0]                            arburst_i,
  input  logic                                  arvalid_i,
  output logic                                  arready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0] rid_o,
  output logic [tessera_bus_pkg::DataBits-1:0]  rdata_o,
  output logic [1:0]                            rresp_o,
  output logic                                  rlast_o,
  output logic                                  rvalid_o,
  input  logic                                  rready_i,
  output logic                                  init_done_o,
  output logic                                  sd_cke_o,
  output logic                                  sd_cs_n_o,
  output logic                                  sd_ras_n_o,
  output logic                                  sd_cas_n_o,
  output logic                                  sd_we_n_o,
  output logic [1:0]                            sd_ba_o,
  output logic [12:0]                           sd_a_o,
  output logic [1:0]                            sd_dqm_o,
  output logic [15:0]                           sd_dq_o,
  output logic                                  sd_dq_oe_o,
  input  logic [15:0]                           sd_dq_i
);
  localparam int unsigned N = 11;
  // per instance: clock period (ps), CAS latency, and the timing (ns)
  localparam int unsigned Ps   [N] = '{40000, 7500, 7500, 7500, 7500, 7500, 7500, 7500, 7500, 7500, 7500};
  localparam int unsigned Cl   [N] = '{2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  localparam int unsigned Rcd  [N] = '{21, 21, 1, 21, 21, 21, 21, 21, 21, 21, 21};
  localparam int unsigned Rp   [N] = '{21, 21, 21, 1, 21, 21, 21, 21, 21, 21, 21};
  localparam int unsigned Ras  [N] = '{42, 42, 42, 42, 1, 1, 42, 42, 42, 42, 42};
  localparam int unsigned Rc   [N] = '{63, 63, 63, 63, 63, 1, 63, 63, 63, 63, 63};
  localparam int unsigned Wr   [N] = '{14, 14, 14, 14, 14, 14, 1, 14, 14, 14, 14};
  localparam int unsigned Mrd  [N] = '{14, 14, 14, 14, 14, 14, 14, 1, 14, 14, 14};
  localparam int unsigned Rfc  [N] = '{63, 63, 63, 63, 63, 63, 63, 63, 1, 63, 63};
  localparam int unsigned Refi [N] = '{7800, 7800, 7800, 7800, 7800, 7800, 7800, 7800, 7800, 20000, 7800};
  localparam int unsigned Pwr  [N] = '{200000, 200000, 200000, 200000, 200000, 200000, 200000, 200000,
                                       200000, 200000, 1000};

  tessera_bus_pkg::axi_mem_req_t req;
  tessera_bus_pkg::axi_mem_req_t [N-1:0] reqs;
  tessera_bus_pkg::axi_mem_rsp_t [N-1:0] rsps;
  tessera_bus_pkg::axi_mem_rsp_t rsp;

  always_comb begin
    req          = '0;
    req.aw.id    = awid_i;
    req.aw.addr  = awaddr_i;
    req.aw.len   = awlen_i;
    req.aw.size  = awsize_i;
    req.aw.burst = awburst_i;
    req.aw_valid = awvalid_i;
    req.w.data   = wdata_i;
    req.w.strb   = wstrb_i;
    req.w.last   = wlast_i;
    req.w_valid  = wvalid_i;
    req.b_ready  = bready_i;
    req.ar.id    = arid_i;
    req.ar.addr  = araddr_i;
    req.ar.len   = arlen_i;
    req.ar.size  = arsize_i;
    req.ar.burst = arburst_i;
    req.ar_valid = arvalid_i;
    req.r_ready  = rready_i;
  end

  logic [N-1:0]        done, cke, csn, rasn, casn, wen, oe;
  logic [N-1:0][1:0]   ba, dqm;
  logic [N-1:0][12:0]  a;
  logic [N-1:0][15:0]  dqo;

  for (genvar k = 0; k < N; k++) begin : g_inst
    tessera_bus_pkg::axi_mem_req_t rq;
    always_comb begin
      rq = req;
      if (sel_i != 4'(k)) begin
        rq.aw_valid = 1'b0;
        rq.w_valid  = 1'b0;
        rq.ar_valid = 1'b0;
        rq.b_ready  = 1'b0;
        rq.r_ready  = 1'b0;
      end
    end
    assign reqs[k] = rq;
    tessera_sdram_ctrl #(
      .ClkPeriodPs(Ps[k]),
      .CasLatency (Cl[k]),
      .TRcdNs     (Rcd[k]),
      .TRpNs      (Rp[k]),
      .TRcNs      (Rc[k]),
      .TRasNs     (Ras[k]),
      .TWrNs      (Wr[k]),
      .TMrdNs     (Mrd[k]),
      .TRfcNs     (Rfc[k]),
      .TRefiNs    (Refi[k]),
      .TPowerUpNs (Pwr[k])
    ) u_ctrl (
      .clk_i,
      .rst_ni,
      .slv_req_i  (reqs[k]),
      .slv_rsp_o  (rsps[k]),
      .init_done_o(done[k]),
      .sd_cke_o   (cke[k]),
      .sd_cs_n_o  (csn[k]),
      .sd_ras_n_o (rasn[k]),
      .sd_cas_n_o (casn[k]),
      .sd_we_n_o  (wen[k]),
      .sd_ba_o    (ba[k]),
      .sd_a_o     (a[k]),
      .sd_dqm_o   (dqm[k]),
      .sd_dq_o    (dqo[k]),
      .sd_dq_oe_o (oe[k]),
      .sd_dq_i    ((sel_i == 4'(k)) ? sd_dq_i : 16'h0)
    );
  end

  assign rsp         = rsps[sel_i];
  assign awready_o   = rsp.aw_ready;
  assign wready_o    = rsp.w_ready;
  assign bid_o       = rsp.b.id;
  assign bresp_o     = rsp.b.resp;
  assign bvalid_o    = rsp.b_valid;
  assign arready_o   = rsp.ar_ready;
  assign rid_o       = rsp.r.id;
  assign rdata_o     = rsp.r.data;
  assign rresp_o     = rsp.r.resp;
  assign rlast_o     = rsp.r.last;
  assign rvalid_o    = rsp.r_valid;
  assign init_done_o = done[sel_i];
  assign sd_cke_o    = cke[sel_i];
  assign sd_cs_n_o   = csn[sel_i];
  assign sd_ras_n_o  = rasn[sel_i];
  assign sd_cas_n_o  = casn[sel_i];
  assign sd_we_n_o   = wen[sel_i];
  assign sd_ba_o     = ba[sel_i];
  assign sd_a_o      = a[sel_i];
  assign sd_dqm_o    = dqm[sel_i];
  assign sd_dq_o     = dqo[sel_i];
  assign sd_dq_oe_o  = oe[sel_i];

  logic unused;
  assign unused = ^{rsp.b.user, rsp.r.user};
endmodule
