// Simulation wrapper for the APB mux testbench: flat master and slave pins
// around tessera_apb_mux (built with --prefix Vtessera_apb_mux, so the C++
// testbench keeps its class name), so that a change of the block's port types
// only touches this file. m_prdata_o is the slave's read data, which both
// masters' responses carry.
module tb_apb_mux_top (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [1:0]        m_psel_i,
  input  logic [1:0]        m_penable_i,
  input  logic [1:0]        m_pwrite_i,
  input  logic [1:0][2:0]   m_pprot_i,
  input  logic [1:0][15:0]  m_paddr_i,
  input  logic [1:0][31:0]  m_pwdata_i,
  input  logic [1:0][3:0]   m_pstrb_i,
  output logic [1:0]        m_pready_o,
  output logic [31:0]       m_prdata_o,
  output logic [1:0]        m_pslverr_o,
  output logic              s_psel_o,
  output logic              s_penable_o,
  output logic              s_pwrite_o,
  output logic [2:0]        s_pprot_o,
  output logic [15:0]       s_paddr_o,
  output logic [31:0]       s_pwdata_o,
  output logic [3:0]        s_pstrb_o,
  input  logic              s_pready_i,
  input  logic [31:0]       s_prdata_i,
  input  logic              s_pslverr_i
);
  logic [1:0][tessera_bus_pkg::ApbReqBits-1:0] slv_req;
  logic [1:0][tessera_bus_pkg::ApbRspBits-1:0] slv_rsp;
  tessera_bus_pkg::apb_req_t                   mst_req;
  tessera_bus_pkg::apb_rsp_t                   mst_rsp;
  logic [1:0][31:0]                            m_prdata;
  for (genvar k = 0; k < 2; k++) begin : g_m
    tessera_bus_pkg::apb_req_t req;
    tessera_bus_pkg::apb_rsp_t rsp;
    `TESSERA_APB_REQ_FROM_FLAT(req, m_, _i, [k])
    assign slv_req[k] = req;
    assign rsp        = slv_rsp[k];
    assign m_pready_o[k]  = rsp.pready;
    assign m_pslverr_o[k] = rsp.pslverr;
    assign m_prdata[k]    = rsp.prdata;
  end
  assign m_prdata_o = m_prdata[0];
  logic unused_prdata;
  assign unused_prdata = ^m_prdata[1];
  `TESSERA_APB_FLAT_FROM_REQ(s_, _o, , mst_req)
  `TESSERA_APB_RSP_FROM_FLAT(mst_rsp, s_, _i, )
  tessera_apb_mux u_mux (
    .clk_i,
    .rst_ni,
    .slv_req_i(slv_req),
    .slv_rsp_o(slv_rsp),
    .mst_req_o(mst_req),
    .mst_rsp_i(mst_rsp)
  );
endmodule
