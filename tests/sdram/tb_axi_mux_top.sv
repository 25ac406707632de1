// Simulation wrapper for the two-to-one AXI mux block testbench (tests/sdram/tb_axi_mux.cpp):
// flat AXI pins of the memory-side flavour for the two managers (m0_*, m1_*) and for the
// subordinate (s_*), which the testbench plays as an in-order memory model.
module tb_axi_mux_top (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   m0_awid_i,
  input  logic [31:0]                             m0_awaddr_i,
  input  logic [7:0]                              m0_awlen_i,
  input  logic [2:0]                              m0_awsize_i,
  input  logic [1:0]                              m0_awburst_i,
  input  logic                                    m0_awvalid_i,
  output logic                                    m0_awready_o,
  input  logic [tessera_bus_pkg::DataBits-1:0]    m0_wdata_i,
  input  logic [tessera_bus_pkg::StrbBits-1:0]    m0_wstrb_i,
  input  logic                                    m0_wlast_i,
  input  logic                                    m0_wvalid_i,
  output logic                                    m0_wready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   m0_bid_o,
  output logic [1:0]                              m0_bresp_o,
  output logic                                    m0_bvalid_o,
  input  logic                                    m0_bready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   m0_arid_i,
  input  logic [31:0]                             m0_araddr_i,
  input  logic [7:0]                              m0_arlen_i,
  input  logic [2:0]                              m0_arsize_i,
  input  logic [1:0]                              m0_arburst_i,
  input  logic                                    m0_arvalid_i,
  output logic                                    m0_arready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   m0_rid_o,
  output logic [tessera_bus_pkg::DataBits-1:0]    m0_rdata_o,
  output logic [1:0]                              m0_rresp_o,
  output logic                                    m0_rlast_o,
  output logic                                    m0_rvalid_o,
  input  logic                                    m0_rready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   m1_awid_i,
  input  logic [31:0]                             m1_awaddr_i,
  input  logic [7:0]                              m1_awlen_i,
  input  logic [2:0]                              m1_awsize_i,
  input  logic [1:0]                              m1_awburst_i,
  input  logic                                    m1_awvalid_i,
  output logic                                    m1_awready_o,
  input  logic [tessera_bus_pkg::DataBits-1:0]    m1_wdata_i,
  input  logic [tessera_bus_pkg::StrbBits-1:0]    m1_wstrb_i,
  input  logic                                    m1_wlast_i,
  input  logic                                    m1_wvalid_i,
  output logic                                    m1_wready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   m1_bid_o,
  output logic [1:0]                              m1_bresp_o,
  output logic                                    m1_bvalid_o,
  input  logic                                    m1_bready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   m1_arid_i,
  input  logic [31:0]                             m1_araddr_i,
  input  logic [7:0]                              m1_arlen_i,
  input  logic [2:0]                              m1_arsize_i,
  input  logic [1:0]                              m1_arburst_i,
  input  logic                                    m1_arvalid_i,
  output logic                                    m1_arready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   m1_rid_o,
  output logic [tessera_bus_pkg::DataBits-1:0]    m1_rdata_o,
  output logic [1:0]                              m1_rresp_o,
  output logic                                    m1_rlast_o,
  output logic                                    m1_rvalid_o,
  input  logic                                    m1_rready_i,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   s_awid_o,
  output logic [31:0]                             s_awaddr_o,
  output logic [7:0]                              s_awlen_o,
  output logic [2:0]                              s_awsize_o,
  output logic [1:0]                              s_awburst_o,
  output logic                                    s_awvalid_o,
  input  logic                                    s_awready_i,
  output logic [tessera_bus_pkg::DataBits-1:0]    s_wdata_o,
  output logic [tessera_bus_pkg::StrbBits-1:0]    s_wstrb_o,
  output logic                                    s_wlast_o,
  output logic                                    s_wvalid_o,
  input  logic                                    s_wready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   s_bid_i,
  input  logic [1:0]                              s_bresp_i,
  input  logic                                    s_bvalid_i,
  output logic                                    s_bready_o,
  output logic [tessera_bus_pkg::MemIdBits-1:0]   s_arid_o,
  output logic [31:0]                             s_araddr_o,
  output logic [7:0]                              s_arlen_o,
  output logic [2:0]                              s_arsize_o,
  output logic [1:0]                              s_arburst_o,
  output logic                                    s_arvalid_o,
  input  logic                                    s_arready_i,
  input  logic [tessera_bus_pkg::MemIdBits-1:0]   s_rid_i,
  input  logic [tessera_bus_pkg::DataBits-1:0]    s_rdata_i,
  input  logic [1:0]                              s_rresp_i,
  input  logic                                    s_rlast_i,
  input  logic                                    s_rvalid_i,
  output logic                                    s_rready_o
);

  tessera_bus_pkg::axi_mem_req_t req0, req1, sreq;
  tessera_bus_pkg::axi_mem_rsp_t rsp0, rsp1, srsp;
  logic [1:0][tessera_bus_pkg::AxiMemReqBits-1:0] reqs;
  logic [1:0][tessera_bus_pkg::AxiMemRspBits-1:0] rsps;

  always_comb begin
    req0 = '0;
    req0.aw.id = m0_awid_i;
    req0.aw.addr = m0_awaddr_i;
    req0.aw.len = m0_awlen_i;
    req0.aw.size = m0_awsize_i;
    req0.aw.burst = m0_awburst_i;
    req0.aw_valid = m0_awvalid_i;
    req0.w.data = m0_wdata_i;
    req0.w.strb = m0_wstrb_i;
    req0.w.last = m0_wlast_i;
    req0.w_valid = m0_wvalid_i;
    req0.b_ready = m0_bready_i;
    req0.ar.id = m0_arid_i;
    req0.ar.addr = m0_araddr_i;
    req0.ar.len = m0_arlen_i;
    req0.ar.size = m0_arsize_i;
    req0.ar.burst = m0_arburst_i;
    req0.ar_valid = m0_arvalid_i;
    req0.r_ready = m0_rready_i;
  end
  always_comb begin
    req1 = '0;
    req1.aw.id = m1_awid_i;
    req1.aw.addr = m1_awaddr_i;
    req1.aw.len = m1_awlen_i;
    req1.aw.size = m1_awsize_i;
    req1.aw.burst = m1_awburst_i;
    req1.aw_valid = m1_awvalid_i;
    req1.w.data = m1_wdata_i;
    req1.w.strb = m1_wstrb_i;
    req1.w.last = m1_wlast_i;
    req1.w_valid = m1_wvalid_i;
    req1.b_ready = m1_bready_i;
    req1.ar.id = m1_arid_i;
    req1.ar.addr = m1_araddr_i;
    req1.ar.len = m1_arlen_i;
    req1.ar.size = m1_arsize_i;
    req1.ar.burst = m1_arburst_i;
    req1.ar_valid = m1_arvalid_i;
    req1.r_ready = m1_rready_i;
  end
  always_comb begin
    srsp = '0;
    srsp.aw_ready = s_awready_i;
    srsp.w_ready = s_wready_i;
    srsp.b.id = s_bid_i;
    srsp.b.resp = s_bresp_i;
    srsp.b_valid = s_bvalid_i;
    srsp.ar_ready = s_arready_i;
    srsp.r.id = s_rid_i;
    srsp.r.data = s_rdata_i;
    srsp.r.resp = s_rresp_i;
    srsp.r.last = s_rlast_i;
    srsp.r_valid = s_rvalid_i;
  end
  assign m0_awready_o = rsp0.aw_ready;
  assign m0_wready_o = rsp0.w_ready;
  assign m0_bid_o = rsp0.b.id;
  assign m0_bresp_o = rsp0.b.resp;
  assign m0_bvalid_o = rsp0.b_valid;
  assign m0_arready_o = rsp0.ar_ready;
  assign m0_rid_o = rsp0.r.id;
  assign m0_rdata_o = rsp0.r.data;
  assign m0_rresp_o = rsp0.r.resp;
  assign m0_rlast_o = rsp0.r.last;
  assign m0_rvalid_o = rsp0.r_valid;
  assign m1_awready_o = rsp1.aw_ready;
  assign m1_wready_o = rsp1.w_ready;
  assign m1_bid_o = rsp1.b.id;
  assign m1_bresp_o = rsp1.b.resp;
  assign m1_bvalid_o = rsp1.b_valid;
  assign m1_arready_o = rsp1.ar_ready;
  assign m1_rid_o = rsp1.r.id;
  assign m1_rdata_o = rsp1.r.data;
  assign m1_rresp_o = rsp1.r.resp;
  assign m1_rlast_o = rsp1.r.last;
  assign m1_rvalid_o = rsp1.r_valid;
  assign s_awid_o = sreq.aw.id;
  assign s_awaddr_o = sreq.aw.addr;
  assign s_awlen_o = sreq.aw.len;
  assign s_awsize_o = sreq.aw.size;
  assign s_awburst_o = sreq.aw.burst;
  assign s_awvalid_o = sreq.aw_valid;
  assign s_wdata_o = sreq.w.data;
  assign s_wstrb_o = sreq.w.strb;
  assign s_wlast_o = sreq.w.last;
  assign s_wvalid_o = sreq.w_valid;
  assign s_bready_o = sreq.b_ready;
  assign s_arid_o = sreq.ar.id;
  assign s_araddr_o = sreq.ar.addr;
  assign s_arlen_o = sreq.ar.len;
  assign s_arsize_o = sreq.ar.size;
  assign s_arburst_o = sreq.ar.burst;
  assign s_arvalid_o = sreq.ar_valid;
  assign s_rready_o = sreq.r_ready;

  assign reqs[0] = req0;
  assign reqs[1] = req1;
  assign rsp0    = rsps[0];
  assign rsp1    = rsps[1];

  tessera_axi_mem_mux #(.MaxTxns(4)) u_mux (
    .clk_i,
    .rst_ni,
    .slv_req_i(reqs),
    .slv_rsp_o(rsps),
    .mst_req_o(sreq),
    .mst_rsp_i(srsp)
  );

  logic unused;
  assign unused = ^{rsp0.b.user, rsp0.r.user, rsp1.b.user, rsp1.r.user, sreq.aw.cache, sreq.aw.prot,
                    sreq.aw.qos, sreq.aw.user, sreq.ar.cache, sreq.ar.prot, sreq.ar.qos, sreq.ar.user,
                    sreq.w.user};
endmodule
