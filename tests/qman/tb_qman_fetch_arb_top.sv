// Testbench top of the fetch-arbiter testbench (tests/qman/tb_fetch_arb.cpp):
// tessera_qman_fetch_arb with the flat AR/R pins the C++ drives (the queue-manager side
// as per-signal arrays), connected to its bus structs. Built with
// --prefix Vtessera_qman_fetch_arb, so the C++ keeps its class name.
module tb_qman_fetch_arb_top #(
  parameter int unsigned NumPorts = 2,
  parameter int unsigned IdBits   = 4,
  parameter int unsigned DataBits = 256
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // queue-manager side
  input  logic [NumPorts-1:0][IdBits-1:0]     s_arid_i,
  input  logic [NumPorts-1:0][31:0]           s_araddr_i,
  input  logic [NumPorts-1:0][7:0]            s_arlen_i,
  input  logic [NumPorts-1:0][2:0]            s_arsize_i,
  input  logic [NumPorts-1:0][1:0]            s_arburst_i,
  input  logic [NumPorts-1:0][3:0]            s_arcache_i,
  input  logic [NumPorts-1:0][2:0]            s_arprot_i,
  input  logic [NumPorts-1:0][3:0]            s_arqos_i,
  input  logic [NumPorts-1:0]                 s_arvalid_i,
  output logic [NumPorts-1:0]                 s_arready_o,
  output logic [NumPorts-1:0][IdBits-1:0]     s_rid_o,
  output logic [NumPorts-1:0][DataBits-1:0]   s_rdata_o,
  output logic [NumPorts-1:0][1:0]            s_rresp_o,
  output logic [NumPorts-1:0]                 s_rlast_o,
  output logic [NumPorts-1:0]                 s_rvalid_o,
  input  logic [NumPorts-1:0]                 s_rready_i,
  // fabric side
  output logic [IdBits-1:0]                   m_arid_o,
  output logic [31:0]                         m_araddr_o,
  output logic [7:0]                          m_arlen_o,
  output logic [2:0]                          m_arsize_o,
  output logic [1:0]                          m_arburst_o,
  output logic [3:0]                          m_arcache_o,
  output logic [2:0]                          m_arprot_o,
  output logic [3:0]                          m_arqos_o,
  output logic                                m_arvalid_o,
  input  logic                                m_arready_i,
  input  logic [IdBits-1:0]                   m_rid_i,
  input  logic [DataBits-1:0]                 m_rdata_i,
  input  logic [1:0]                          m_rresp_i,
  input  logic                                m_rlast_i,
  input  logic                                m_rvalid_i,
  output logic                                m_rready_o
);
  logic [NumPorts-1:0][tessera_bus_pkg::AxiReqBits-1:0] slv_req;
  logic [NumPorts-1:0][tessera_bus_pkg::AxiRspBits-1:0] slv_rsp;
  tessera_bus_pkg::axi_req_t mst_req;
  tessera_bus_pkg::axi_rsp_t mst_rsp;
  logic unused;
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    `TESSERA_AXI_REQ_FROM_FLAT_RD(req, s_, _i, [p])
    assign slv_req[p] = req;
    assign rsp        = slv_rsp[p];
    `TESSERA_AXI_FLAT_FROM_RSP_RD(s_, _o, [p], rsp)
  end
  `TESSERA_AXI_FLAT_FROM_REQ_RD(m_, _o, , mst_req)
  `TESSERA_AXI_RSP_FROM_FLAT_RD(mst_rsp, m_, _i, )
  assign unused = ^{DataBits, mst_req.aw, mst_req.w};

  tessera_qman_fetch_arb #(.NumPorts(NumPorts)) u_dut (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(slv_req),
    .slv_rsp_o(slv_rsp),
    .mst_req_o(mst_req),
    .mst_rsp_i(mst_rsp)
  );
endmodule
