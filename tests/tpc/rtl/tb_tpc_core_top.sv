// Testbench top of the TPC core testbench (tests/tpc/rtl/tb_tpc_core.cpp): tessera_tpc_core
// with the flat AXI pins the C++ drives, connected to its bus structs with the assign
// macros of rtl/prim/tessera_bus.svh. Built with --prefix Vtessera_tpc_core, so the C++
// keeps its class name (its probes name the core as tb_tpc_core_top.u_dut).
module tb_tpc_core_top #(
  parameter int unsigned ImemDepth = 1024,  // bundles
  parameter int unsigned SlmBytes  = 1024,
  parameter int unsigned VlmBytes  = 16384,
  parameter logic [31:0] MemBase   = 32'h8000_0000,  // device memory (BUS error outside)
  parameter logic [32:0] MemSize   = 33'h0_4000_0000,
  parameter int unsigned RegionBytes = 4096   // DECERR granule of device memory (TMU)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // instruction memory write port
  input  logic                         imem_we_i,
  input  logic [$clog2(ImemDepth)-1:0] imem_waddr_i,
  input  logic [255:0]                 imem_wdata_i,
  // launch (held stable while busy_o)
  input  logic                         start_i,
  input  logic                         bad_launch_i,  // cluster-level launch check failed
  input  logic [31:0]                  prog_len_i,    // bundles
  input  logic [3:0]                   ntensors_i,
  input  logic [7:0][511:0]            desc_i,        // 64-byte descriptor images
  input  logic [15:0][31:0]            sarg_i,
  input  logic [4:0][31:0]             slice_off_i,
  input  logic [4:0][31:0]             slice_len_i,
  input  logic [31:0]                  tpc_id_i,
  input  logic [31:0]                  ntpc_i,
  input  logic [31:0]                  rng_seed_i,
  input  logic [31:0]                  max_bundles_i, // 0: no limit; else TIMEOUT after this many
  input  logic                         cancel_i,       // stop before the next bundle (TIMEOUT)
  // status
  output logic                         busy_o,
  output logic                         done_o,        // one-cycle pulse: launch finished
  output logic [3:0]                   err_o,         // 0 = DONE, else TPC error code
  output logic [31:0]                  err_pc_o,
  output logic                         retire_o,      // one bundle retired this cycle
  output logic [31:0]                  pc_o,
  output logic [31:0]                  ld_bytes_o,    // tensor bytes of the retiring bundle
  output logic [31:0]                  st_bytes_o,
  output logic                         stall_mem_o,   // waiting for tensor read data
  output logic                         stall_st_o,    // waiting for a tensor store to be accepted
  // AXI4 master (tensor loads and stores)
  output logic [3:0]                   m_axi_awid_o,
  output logic [31:0]                  m_axi_awaddr_o,
  output logic [7:0]                   m_axi_awlen_o,
  output logic [2:0]                   m_axi_awsize_o,
  output logic [1:0]                   m_axi_awburst_o,
  output logic [3:0]                   m_axi_awcache_o,
  output logic [2:0]                   m_axi_awprot_o,
  output logic [3:0]                   m_axi_awqos_o,
  output logic                         m_axi_awvalid_o,
  input  logic                         m_axi_awready_i,
  output logic [255:0]                 m_axi_wdata_o,
  output logic [31:0]                  m_axi_wstrb_o,
  output logic                         m_axi_wlast_o,
  output logic                         m_axi_wvalid_o,
  input  logic                         m_axi_wready_i,
  input  logic [3:0]                   m_axi_bid_i,
  input  logic [1:0]                   m_axi_bresp_i,
  input  logic                         m_axi_bvalid_i,
  output logic                         m_axi_bready_o,
  output logic [3:0]                   m_axi_arid_o,
  output logic [31:0]                  m_axi_araddr_o,
  output logic [7:0]                   m_axi_arlen_o,
  output logic [2:0]                   m_axi_arsize_o,
  output logic [1:0]                   m_axi_arburst_o,
  output logic [3:0]                   m_axi_arcache_o,
  output logic [2:0]                   m_axi_arprot_o,
  output logic [3:0]                   m_axi_arqos_o,
  output logic                         m_axi_arvalid_o,
  input  logic                         m_axi_arready_i,
  input  logic [3:0]                   m_axi_rid_i,
  input  logic [255:0]                 m_axi_rdata_i,
  input  logic [1:0]                   m_axi_rresp_i,
  input  logic                         m_axi_rlast_i,
  input  logic                         m_axi_rvalid_i,
  output logic                         m_axi_rready_o
);
  tessera_bus_pkg::axi_req_t mst_req_o;
  tessera_bus_pkg::axi_rsp_t mst_rsp_i;
  `TESSERA_AXI_FLAT_FROM_REQ(m_axi_, _o, , mst_req_o)
  `TESSERA_AXI_RSP_FROM_FLAT(mst_rsp_i, m_axi_, _i, )

  tessera_tpc_core #(
    .ImemDepth(ImemDepth),
    .SlmBytes(SlmBytes),
    .VlmBytes(VlmBytes),
    .MemBase(MemBase),
    .MemSize(MemSize),
    .RegionBytes(RegionBytes)
  ) u_dut (.*);
endmodule
