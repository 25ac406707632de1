// Testbench top of one NIC port (tests/nic/tb_nic_port.cpp): tessera_nic_port
// with its default parameters and flat pins for APB and the AXI4 master.
module tb_nic_port_top (
  input  logic          clk_i,
  input  logic          rst_ni,
  // registers
  input  logic          apb_psel_i,
  input  logic          apb_penable_i,
  input  logic          apb_pwrite_i,
  input  logic [2:0]    apb_pprot_i,
  input  logic [15:0]   apb_paddr_i,
  input  logic [31:0]   apb_pwdata_i,
  input  logic [3:0]    apb_pstrb_i,
  output logic          apb_pready_o,
  output logic [31:0]   apb_prdata_o,
  output logic          apb_pslverr_o,
  // AXI4 master
  output logic [4:0]    m_awid_o,
  output logic [31:0]   m_awaddr_o,
  output logic [7:0]    m_awlen_o,
  output logic [2:0]    m_awsize_o,
  output logic [1:0]    m_awburst_o,
  output logic          m_awvalid_o,
  input  logic          m_awready_i,
  output logic [255:0]  m_wdata_o,
  output logic [31:0]   m_wstrb_o,
  output logic          m_wlast_o,
  output logic          m_wvalid_o,
  input  logic          m_wready_i,
  input  logic [4:0]    m_bid_i,
  input  logic [1:0]    m_bresp_i,
  input  logic          m_bvalid_i,
  output logic          m_bready_o,
  output logic [4:0]    m_arid_o,
  output logic [31:0]   m_araddr_o,
  output logic [7:0]    m_arlen_o,
  output logic [2:0]    m_arsize_o,
  output logic [1:0]    m_arburst_o,
  output logic          m_arvalid_o,
  input  logic          m_arready_i,
  input  logic [4:0]    m_rid_i,
  input  logic [255:0]  m_rdata_i,
  input  logic [1:0]    m_rresp_i,
  input  logic          m_rlast_i,
  input  logic          m_rvalid_i,
  output logic          m_rready_o,
  // MAC client
  output logic          tx_tvalid_o,
  input  logic          tx_tready_i,
  output logic [255:0]  tx_tdata_o,
  output logic [31:0]   tx_tkeep_o,
  output logic          tx_tlast_o,
  input  logic          rx_tvalid_i,
  output logic          rx_tready_o,
  input  logic [255:0]  rx_tdata_i,
  input  logic [31:0]   rx_tkeep_i,
  input  logic          rx_tlast_i,
  output logic          irq_o,
  // messages (sync-object updates, completion messages)
  output logic          msg_valid_o,
  input  logic          msg_ready_i,
  output logic [31:0]   msg_addr_o,
  output logic [31:0]   msg_data_o,
  output logic          wr_room_o,
  output logic          idle_o
);

  tessera_bus_pkg::apb_req_t apb_req;
  tessera_bus_pkg::apb_rsp_t apb_rsp;
  tessera_bus_pkg::axi_req_t axi_req;
  tessera_bus_pkg::axi_rsp_t axi_rsp;

  `TESSERA_APB_REQ_FROM_FLAT(apb_req, apb_, _i, )
  `TESSERA_APB_FLAT_FROM_RSP(apb_, _o, , apb_rsp)

  tessera_nic_port #(.AxiId(5'd8)) u_port (
    .clk_i,
    .rst_ni,
    .apb_req_i (apb_req),
    .apb_rsp_o (apb_rsp),
    .axi_req_o (axi_req),
    .axi_rsp_i (axi_rsp),
    .tx_tvalid_o,
    .tx_tready_i,
    .tx_tdata_o,
    .tx_tkeep_o,
    .tx_tlast_o,
    .rx_tvalid_i,
    .rx_tready_o,
    .rx_tdata_i,
    .rx_tkeep_i,
    .rx_tlast_i,
    .irq_o,
    .msg_valid_o,
    .msg_ready_i,
    .msg_addr_o,
    .msg_data_o,
    .wr_room_o,
    .idle_o
  );

  `TESSERA_AXI_FLAT_FROM_REQ_MIN(m_, _o, , axi_req)
  `TESSERA_AXI_RSP_FROM_FLAT(axi_rsp, m_, _i, )

  logic unused;
  assign unused = ^{axi_req.aw.cache, axi_req.aw.prot, axi_req.aw.qos, axi_req.aw.user, axi_req.w.user,
                    axi_req.ar.cache, axi_req.ar.prot, axi_req.ar.qos, axi_req.ar.user};

endmodule
