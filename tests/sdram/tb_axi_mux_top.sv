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

  // the flat pins <-> the request/response structs (rtl/prim/tessera_bus.svh)
  `TESSERA_AXI_REQ_FROM_FLAT_MIN(req0, m0_, _i, )
  `TESSERA_AXI_REQ_FROM_FLAT_MIN(req1, m1_, _i, )
  `TESSERA_AXI_FLAT_FROM_RSP(m0_, _o, , rsp0)
  `TESSERA_AXI_FLAT_FROM_RSP(m1_, _o, , rsp1)
  `TESSERA_AXI_FLAT_FROM_REQ_MIN(s_, _o, , sreq)
  `TESSERA_AXI_RSP_FROM_FLAT(srsp, s_, _i, )

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
