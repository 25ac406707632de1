// tessera_l2_cluster: the chip's L2: one tessera_l2 slice per DCORE plus, with several
// slices, one tessera_l2_router per upstream port index (private mode: DCORE d's engines
// use slice d; shared mode: every slice serves 1/2^k of the addresses, slice SHARED
// registers select it at configuration time). See docs/l2.md, "Integration".
//
// Upstream port u = d * NumPorts + p is port p of DCORE d (chip: 0 MME, 1 TPCs, 2 DMA,
// 3 the MME's B-panel read port).
// Downstream port d is slice d's memory master (one fabric master per slice); with
// RdMasters = 2, m1 port d is slice d's second, read-only master (read-ahead refills).
module tessera_l2_cluster #(
  parameter int unsigned NumSlices = 2,
  parameter int unsigned NumPorts  = 3,
  parameter int unsigned SizeBytes = 65536,
  parameter int unsigned Ways      = 8,
  parameter int unsigned NumBanks  = 4,
  parameter int unsigned LineBytes = 64,
  parameter int unsigned DataBits  = 256,
  parameter int unsigned IdBits    = 4,
  parameter int unsigned MIdBits   = 4,
  parameter int unsigned ArDepth   = 8,   // read bursts per slice port, router ring and R buffer (power of 2)
  parameter int unsigned BqDepth   = 8,   // B responses queued per slice write engine (power of 2)
  parameter int unsigned RdMasters = 1,   // 2: each slice has a second, read-only master (m1_axi_*)
  parameter logic [31:0] MemBase   = 32'h8000_0000,
  parameter logic [31:0] MemSize   = 32'h4000_0000,
  localparam int unsigned NU       = NumSlices * NumPorts
) (
  input  logic clk_i,
  input  logic rst_ni,
  // upstream AXI4 slave ports (engines)
  input  logic [NU-1:0][IdBits-1:0]     s_axi_awid_i,
  input  logic [NU-1:0][31:0]           s_axi_awaddr_i,
  input  logic [NU-1:0][7:0]            s_axi_awlen_i,
  input  logic [NU-1:0][2:0]            s_axi_awsize_i,
  input  logic [NU-1:0][1:0]            s_axi_awburst_i,
  input  logic [NU-1:0][3:0]            s_axi_awcache_i,
  input  logic [NU-1:0][2:0]            s_axi_awprot_i,
  input  logic [NU-1:0][3:0]            s_axi_awqos_i,
  input  logic [NU-1:0]                 s_axi_awvalid_i,
  output logic [NU-1:0]                 s_axi_awready_o,
  input  logic [NU-1:0][DataBits-1:0]   s_axi_wdata_i,
  input  logic [NU-1:0][DataBits/8-1:0] s_axi_wstrb_i,
  input  logic [NU-1:0]                 s_axi_wlast_i,
  input  logic [NU-1:0]                 s_axi_wvalid_i,
  output logic [NU-1:0]                 s_axi_wready_o,
  output logic [NU-1:0][IdBits-1:0]     s_axi_bid_o,
  output logic [NU-1:0][1:0]            s_axi_bresp_o,
  output logic [NU-1:0]                 s_axi_bvalid_o,
  input  logic [NU-1:0]                 s_axi_bready_i,
  input  logic [NU-1:0][IdBits-1:0]     s_axi_arid_i,
  input  logic [NU-1:0][31:0]           s_axi_araddr_i,
  input  logic [NU-1:0][7:0]            s_axi_arlen_i,
  input  logic [NU-1:0][2:0]            s_axi_arsize_i,
  input  logic [NU-1:0][1:0]            s_axi_arburst_i,
  input  logic [NU-1:0][3:0]            s_axi_arcache_i,
  input  logic [NU-1:0][2:0]            s_axi_arprot_i,
  input  logic [NU-1:0][3:0]            s_axi_arqos_i,
  input  logic [NU-1:0]                 s_axi_arvalid_i,
  output logic [NU-1:0]                 s_axi_arready_o,
  output logic [NU-1:0][IdBits-1:0]     s_axi_rid_o,
  output logic [NU-1:0][DataBits-1:0]   s_axi_rdata_o,
  output logic [NU-1:0][1:0]            s_axi_rresp_o,
  output logic [NU-1:0]                 s_axi_rlast_o,
  output logic [NU-1:0]                 s_axi_rvalid_o,
  input  logic [NU-1:0]                 s_axi_rready_i,
  // downstream AXI4 masters (fabric), one per slice
  output logic [NumSlices-1:0][MIdBits-1:0]    m_axi_awid_o,
  output logic [NumSlices-1:0][31:0]           m_axi_awaddr_o,
  output logic [NumSlices-1:0][7:0]            m_axi_awlen_o,
  output logic [NumSlices-1:0][2:0]            m_axi_awsize_o,
  output logic [NumSlices-1:0][1:0]            m_axi_awburst_o,
  output logic [NumSlices-1:0][3:0]            m_axi_awcache_o,
  output logic [NumSlices-1:0][2:0]            m_axi_awprot_o,
  output logic [NumSlices-1:0][3:0]            m_axi_awqos_o,
  output logic [NumSlices-1:0]                 m_axi_awvalid_o,
  input  logic [NumSlices-1:0]                 m_axi_awready_i,
  output logic [NumSlices-1:0][DataBits-1:0]   m_axi_wdata_o,
  output logic [NumSlices-1:0][DataBits/8-1:0] m_axi_wstrb_o,
  output logic [NumSlices-1:0]                 m_axi_wlast_o,
  output logic [NumSlices-1:0]                 m_axi_wvalid_o,
  input  logic [NumSlices-1:0]                 m_axi_wready_i,
  input  logic [NumSlices-1:0][MIdBits-1:0]    m_axi_bid_i,
  input  logic [NumSlices-1:0][1:0]            m_axi_bresp_i,
  input  logic [NumSlices-1:0]                 m_axi_bvalid_i,
  output logic [NumSlices-1:0]                 m_axi_bready_o,
  output logic [NumSlices-1:0][MIdBits-1:0]    m_axi_arid_o,
  output logic [NumSlices-1:0][31:0]           m_axi_araddr_o,
  output logic [NumSlices-1:0][7:0]            m_axi_arlen_o,
  output logic [NumSlices-1:0][2:0]            m_axi_arsize_o,
  output logic [NumSlices-1:0][1:0]            m_axi_arburst_o,
  output logic [NumSlices-1:0][3:0]            m_axi_arcache_o,
  output logic [NumSlices-1:0][2:0]            m_axi_arprot_o,
  output logic [NumSlices-1:0][3:0]            m_axi_arqos_o,
  output logic [NumSlices-1:0]                 m_axi_arvalid_o,
  input  logic [NumSlices-1:0]                 m_axi_arready_i,
  input  logic [NumSlices-1:0][MIdBits-1:0]    m_axi_rid_i,
  input  logic [NumSlices-1:0][DataBits-1:0]   m_axi_rdata_i,
  input  logic [NumSlices-1:0][1:0]            m_axi_rresp_i,
  input  logic [NumSlices-1:0]                 m_axi_rlast_i,
  input  logic [NumSlices-1:0]                 m_axi_rvalid_i,
  output logic [NumSlices-1:0]                 m_axi_rready_o,
  // second, read-only masters (RdMasters = 2; else arvalid 0), one per slice
  output logic [NumSlices-1:0][MIdBits-1:0]    m1_axi_arid_o,
  output logic [NumSlices-1:0][31:0]           m1_axi_araddr_o,
  output logic [NumSlices-1:0][7:0]            m1_axi_arlen_o,
  output logic [NumSlices-1:0][2:0]            m1_axi_arsize_o,
  output logic [NumSlices-1:0][1:0]            m1_axi_arburst_o,
  output logic [NumSlices-1:0][3:0]            m1_axi_arcache_o,
  output logic [NumSlices-1:0][2:0]            m1_axi_arprot_o,
  output logic [NumSlices-1:0][3:0]            m1_axi_arqos_o,
  output logic [NumSlices-1:0]                 m1_axi_arvalid_o,
  input  logic [NumSlices-1:0]                 m1_axi_arready_i,
  input  logic [NumSlices-1:0][MIdBits-1:0]    m1_axi_rid_i,
  input  logic [NumSlices-1:0][DataBits-1:0]   m1_axi_rdata_i,
  input  logic [NumSlices-1:0][1:0]            m1_axi_rresp_i,
  input  logic [NumSlices-1:0]                 m1_axi_rlast_i,
  input  logic [NumSlices-1:0]                 m1_axi_rvalid_i,
  output logic [NumSlices-1:0]                 m1_axi_rready_o,
  // APB4 register slaves (one select per slice, the rest shared)
  input  logic [NumSlices-1:0]       apb_psel_i,
  input  logic                       apb_penable_i,
  input  logic                       apb_pwrite_i,
  input  logic [2:0]                 apb_pprot_i,
  input  logic [15:0]                apb_paddr_i,
  input  logic [31:0]                apb_pwdata_i,
  input  logic [3:0]                 apb_pstrb_i,
  output logic [NumSlices-1:0]       apb_pready_o,
  output logic [NumSlices-1:0][31:0] apb_prdata_o,
  output logic [NumSlices-1:0]       apb_pslverr_o,
  // interrupts and maintenance completion messages, one per slice
  output logic [NumSlices-1:0]       irq_o,
  output logic [NumSlices-1:0]       msg_valid_o,
  input  logic [NumSlices-1:0]       msg_ready_i,
  output logic [NumSlices-1:0][31:0] msg_addr_o,
  output logic [NumSlices-1:0][31:0] msg_data_o,
  // every slice idle (tessera_l2 idle_o); the routers hold nothing that does not show as a
  // valid on an upstream port or keep a slice busy (see tessera_top's L2 clock gate)
  output logic                       idle_o
);
  logic [NumSlices-1:0] slice_idle;
  assign idle_o = &slice_idle;

  // slice-side upstream signals (after the routers)
  logic [NU-1:0][IdBits-1:0]     c_awid, c_arid, c_bid, c_rid;
  logic [NU-1:0][31:0]           c_awaddr, c_araddr;
  logic [NU-1:0][7:0]            c_awlen, c_arlen;
  logic [NU-1:0][2:0]            c_awsize, c_arsize, c_awprot, c_arprot;
  logic [NU-1:0][1:0]            c_awburst, c_arburst, c_bresp, c_rresp;
  logic [NU-1:0][3:0]            c_awcache, c_arcache, c_awqos, c_arqos;
  logic [NU-1:0]                 c_awvalid, c_awready, c_wlast, c_wvalid, c_wready;
  logic [NU-1:0]                 c_bvalid, c_bready, c_arvalid, c_arready;
  logic [NU-1:0]                 c_rlast, c_rvalid, c_rready;
  logic [NU-1:0][DataBits-1:0]   c_wdata, c_rdata;
  logic [NU-1:0][DataBits/8-1:0] c_wstrb;
  logic [NumSlices-1:0][1:0]     slices_log2;

  // ---------------------------------------------------------------- slices
  for (genvar d = 0; d < NumSlices; d++) begin : g_slice
    localparam int unsigned U0 = d * NumPorts;
    tessera_l2 #(
      .SizeBytes(SizeBytes),
      .Ways     (Ways),
      .NumBanks (NumBanks),
      .LineBytes(LineBytes),
      .NumPorts (NumPorts),
      .DataBits (DataBits),
      .IdBits   (IdBits),
      .MIdBits  (MIdBits),
      .ArDepth  (ArDepth),
      .BqDepth  (BqDepth),
      .RdMasters(RdMasters),
      .MemBase  (MemBase),
      .MemSize  (MemSize)
    ) u_l2 (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .s_axi_awid_i     (c_awid[U0 +: NumPorts]),
      .s_axi_awaddr_i   (c_awaddr[U0 +: NumPorts]),
      .s_axi_awlen_i    (c_awlen[U0 +: NumPorts]),
      .s_axi_awsize_i   (c_awsize[U0 +: NumPorts]),
      .s_axi_awburst_i  (c_awburst[U0 +: NumPorts]),
      .s_axi_awcache_i  (c_awcache[U0 +: NumPorts]),
      .s_axi_awprot_i   (c_awprot[U0 +: NumPorts]),
      .s_axi_awqos_i    (c_awqos[U0 +: NumPorts]),
      .s_axi_awvalid_i  (c_awvalid[U0 +: NumPorts]),
      .s_axi_awready_o  (c_awready[U0 +: NumPorts]),
      .s_axi_wdata_i    (c_wdata[U0 +: NumPorts]),
      .s_axi_wstrb_i    (c_wstrb[U0 +: NumPorts]),
      .s_axi_wlast_i    (c_wlast[U0 +: NumPorts]),
      .s_axi_wvalid_i   (c_wvalid[U0 +: NumPorts]),
      .s_axi_wready_o   (c_wready[U0 +: NumPorts]),
      .s_axi_bid_o      (c_bid[U0 +: NumPorts]),
      .s_axi_bresp_o    (c_bresp[U0 +: NumPorts]),
      .s_axi_bvalid_o   (c_bvalid[U0 +: NumPorts]),
      .s_axi_bready_i   (c_bready[U0 +: NumPorts]),
      .s_axi_arid_i     (c_arid[U0 +: NumPorts]),
      .s_axi_araddr_i   (c_araddr[U0 +: NumPorts]),
      .s_axi_arlen_i    (c_arlen[U0 +: NumPorts]),
      .s_axi_arsize_i   (c_arsize[U0 +: NumPorts]),
      .s_axi_arburst_i  (c_arburst[U0 +: NumPorts]),
      .s_axi_arcache_i  (c_arcache[U0 +: NumPorts]),
      .s_axi_arprot_i   (c_arprot[U0 +: NumPorts]),
      .s_axi_arqos_i    (c_arqos[U0 +: NumPorts]),
      .s_axi_arvalid_i  (c_arvalid[U0 +: NumPorts]),
      .s_axi_arready_o  (c_arready[U0 +: NumPorts]),
      .s_axi_rid_o      (c_rid[U0 +: NumPorts]),
      .s_axi_rdata_o    (c_rdata[U0 +: NumPorts]),
      .s_axi_rresp_o    (c_rresp[U0 +: NumPorts]),
      .s_axi_rlast_o    (c_rlast[U0 +: NumPorts]),
      .s_axi_rvalid_o   (c_rvalid[U0 +: NumPorts]),
      .s_axi_rready_i   (c_rready[U0 +: NumPorts]),
      .m_axi_awid_o     (m_axi_awid_o[d]),
      .m_axi_awaddr_o   (m_axi_awaddr_o[d]),
      .m_axi_awlen_o    (m_axi_awlen_o[d]),
      .m_axi_awsize_o   (m_axi_awsize_o[d]),
      .m_axi_awburst_o  (m_axi_awburst_o[d]),
      .m_axi_awcache_o  (m_axi_awcache_o[d]),
      .m_axi_awprot_o   (m_axi_awprot_o[d]),
      .m_axi_awqos_o    (m_axi_awqos_o[d]),
      .m_axi_awvalid_o  (m_axi_awvalid_o[d]),
      .m_axi_awready_i  (m_axi_awready_i[d]),
      .m_axi_wdata_o    (m_axi_wdata_o[d]),
      .m_axi_wstrb_o    (m_axi_wstrb_o[d]),
      .m_axi_wlast_o    (m_axi_wlast_o[d]),
      .m_axi_wvalid_o   (m_axi_wvalid_o[d]),
      .m_axi_wready_i   (m_axi_wready_i[d]),
      .m_axi_bid_i      (m_axi_bid_i[d]),
      .m_axi_bresp_i    (m_axi_bresp_i[d]),
      .m_axi_bvalid_i   (m_axi_bvalid_i[d]),
      .m_axi_bready_o   (m_axi_bready_o[d]),
      .m_axi_arid_o     (m_axi_arid_o[d]),
      .m_axi_araddr_o   (m_axi_araddr_o[d]),
      .m_axi_arlen_o    (m_axi_arlen_o[d]),
      .m_axi_arsize_o   (m_axi_arsize_o[d]),
      .m_axi_arburst_o  (m_axi_arburst_o[d]),
      .m_axi_arcache_o  (m_axi_arcache_o[d]),
      .m_axi_arprot_o   (m_axi_arprot_o[d]),
      .m_axi_arqos_o    (m_axi_arqos_o[d]),
      .m_axi_arvalid_o  (m_axi_arvalid_o[d]),
      .m_axi_arready_i  (m_axi_arready_i[d]),
      .m_axi_rid_i      (m_axi_rid_i[d]),
      .m_axi_rdata_i    (m_axi_rdata_i[d]),
      .m_axi_rresp_i    (m_axi_rresp_i[d]),
      .m_axi_rlast_i    (m_axi_rlast_i[d]),
      .m_axi_rvalid_i   (m_axi_rvalid_i[d]),
      .m_axi_rready_o   (m_axi_rready_o[d]),
      .m1_axi_arid_o    (m1_axi_arid_o[d]),
      .m1_axi_araddr_o  (m1_axi_araddr_o[d]),
      .m1_axi_arlen_o   (m1_axi_arlen_o[d]),
      .m1_axi_arsize_o  (m1_axi_arsize_o[d]),
      .m1_axi_arburst_o (m1_axi_arburst_o[d]),
      .m1_axi_arcache_o (m1_axi_arcache_o[d]),
      .m1_axi_arprot_o  (m1_axi_arprot_o[d]),
      .m1_axi_arqos_o   (m1_axi_arqos_o[d]),
      .m1_axi_arvalid_o (m1_axi_arvalid_o[d]),
      .m1_axi_arready_i (m1_axi_arready_i[d]),
      .m1_axi_rid_i     (m1_axi_rid_i[d]),
      .m1_axi_rdata_i   (m1_axi_rdata_i[d]),
      .m1_axi_rresp_i   (m1_axi_rresp_i[d]),
      .m1_axi_rlast_i   (m1_axi_rlast_i[d]),
      .m1_axi_rvalid_i  (m1_axi_rvalid_i[d]),
      .m1_axi_rready_o  (m1_axi_rready_o[d]),
      .apb_psel_i       (apb_psel_i[d]),
      .apb_penable_i    (apb_penable_i),
      .apb_pwrite_i     (apb_pwrite_i),
      .apb_pprot_i      (apb_pprot_i),
      .apb_paddr_i      (apb_paddr_i),
      .apb_pwdata_i     (apb_pwdata_i),
      .apb_pstrb_i      (apb_pstrb_i),
      .apb_pready_o     (apb_pready_o[d]),
      .apb_prdata_o     (apb_prdata_o[d]),
      .apb_pslverr_o    (apb_pslverr_o[d]),
      .irq_o            (irq_o[d]),
      .msg_valid_o      (msg_valid_o[d]),
      .msg_ready_i      (msg_ready_i[d]),
      .msg_addr_o       (msg_addr_o[d]),
      .msg_data_o       (msg_data_o[d]),
      .cfg_slices_log2_o(slices_log2[d]),
      .idle_o           (slice_idle[d])
    );
  end

  // ---------------------------------------------------------------- routing
  if (NumSlices == 1) begin : g_direct
    assign c_awid = s_axi_awid_i;        assign c_awaddr = s_axi_awaddr_i;
    assign c_awlen = s_axi_awlen_i;      assign c_awsize = s_axi_awsize_i;
    assign c_awburst = s_axi_awburst_i;  assign c_awcache = s_axi_awcache_i;
    assign c_awprot = s_axi_awprot_i;    assign c_awqos = s_axi_awqos_i;
    assign c_awvalid = s_axi_awvalid_i;  assign s_axi_awready_o = c_awready;
    assign c_wdata = s_axi_wdata_i;      assign c_wstrb = s_axi_wstrb_i;
    assign c_wlast = s_axi_wlast_i;      assign c_wvalid = s_axi_wvalid_i;
    assign s_axi_wready_o = c_wready;
    assign s_axi_bid_o = c_bid;          assign s_axi_bresp_o = c_bresp;
    assign s_axi_bvalid_o = c_bvalid;    assign c_bready = s_axi_bready_i;
    assign c_arid = s_axi_arid_i;        assign c_araddr = s_axi_araddr_i;
    assign c_arlen = s_axi_arlen_i;      assign c_arsize = s_axi_arsize_i;
    assign c_arburst = s_axi_arburst_i;  assign c_arcache = s_axi_arcache_i;
    assign c_arprot = s_axi_arprot_i;    assign c_arqos = s_axi_arqos_i;
    assign c_arvalid = s_axi_arvalid_i;  assign s_axi_arready_o = c_arready;
    assign s_axi_rid_o = c_rid;          assign s_axi_rdata_o = c_rdata;
    assign s_axi_rresp_o = c_rresp;      assign s_axi_rlast_o = c_rlast;
    assign s_axi_rvalid_o = c_rvalid;    assign c_rready = s_axi_rready_i;
    logic unused_log2;
    assign unused_log2 = ^slices_log2;
  end else begin : g_route
    localparam int unsigned AxW = IdBits + 24;
    localparam int unsigned WW  = DataBits + DataBits / 8;
    localparam int unsigned RW  = IdBits + DataBits + 2;
    localparam int unsigned BW  = IdBits + 2;
    // every slice must be configured alike; the routers follow slice 0
    logic unused_log2;
    assign unused_log2 = ^slices_log2[NumSlices-1:1];

    for (genvar p = 0; p < NumPorts; p++) begin : g_port
      // flat vectors (slice d at [d*W +: W]) rather than 2-D packed arrays: Yosys cannot
      // resolve element accesses of multi-dimensional arrays declared in generate blocks
      logic [NumSlices*32-1:0]  mu_awaddr, mu_araddr, sc_awaddr, sc_araddr;
      logic [NumSlices*AxW-1:0] mu_aw, mu_ar, sc_aw, sc_ar;
      logic [NumSlices*WW-1:0]  mu_w, sc_w;
      logic [NumSlices*RW-1:0]  mu_r, sc_r;
      logic [NumSlices*BW-1:0]  mu_b, sc_b;
      logic [NumSlices-1:0] mu_awvalid, mu_awready, mu_wlast, mu_wvalid, mu_wready;
      logic [NumSlices-1:0] mu_bvalid, mu_bready, mu_arvalid, mu_arready;
      logic [NumSlices-1:0] mu_rlast, mu_rvalid, mu_rready;
      logic [NumSlices-1:0] sc_awvalid, sc_awready, sc_wlast, sc_wvalid, sc_wready;
      logic [NumSlices-1:0] sc_bvalid, sc_bready, sc_arvalid, sc_arready;
      logic [NumSlices-1:0] sc_rlast, sc_rvalid, sc_rready;

      for (genvar d = 0; d < NumSlices; d++) begin : g_pack
        localparam int unsigned U = d * NumPorts + p;
        // engine side
        assign mu_awaddr[d*32 +: 32]  = s_axi_awaddr_i[U];
        assign mu_aw[d*AxW +: AxW]      = {s_axi_awid_i[U], s_axi_awlen_i[U], s_axi_awsize_i[U],
                                s_axi_awburst_i[U], s_axi_awcache_i[U], s_axi_awprot_i[U],
                                s_axi_awqos_i[U]};
        assign mu_awvalid[d] = s_axi_awvalid_i[U];
        assign s_axi_awready_o[U] = mu_awready[d];
        assign mu_w[d*WW +: WW]       = {s_axi_wdata_i[U], s_axi_wstrb_i[U]};
        assign mu_wlast[d]   = s_axi_wlast_i[U];
        assign mu_wvalid[d]  = s_axi_wvalid_i[U];
        assign s_axi_wready_o[U] = mu_wready[d];
        assign {s_axi_bid_o[U], s_axi_bresp_o[U]} = mu_b[d*BW +: BW];
        assign s_axi_bvalid_o[U] = mu_bvalid[d];
        assign mu_bready[d]  = s_axi_bready_i[U];
        assign mu_araddr[d*32 +: 32]  = s_axi_araddr_i[U];
        assign mu_ar[d*AxW +: AxW]      = {s_axi_arid_i[U], s_axi_arlen_i[U], s_axi_arsize_i[U],
                                s_axi_arburst_i[U], s_axi_arcache_i[U], s_axi_arprot_i[U],
                                s_axi_arqos_i[U]};
        assign mu_arvalid[d] = s_axi_arvalid_i[U];
        assign s_axi_arready_o[U] = mu_arready[d];
        assign {s_axi_rid_o[U], s_axi_rdata_o[U], s_axi_rresp_o[U]} = mu_r[d*RW +: RW];
        assign s_axi_rlast_o[U]  = mu_rlast[d];
        assign s_axi_rvalid_o[U] = mu_rvalid[d];
        assign mu_rready[d]  = s_axi_rready_i[U];
        // slice side
        assign c_awaddr[U]   = sc_awaddr[d*32 +: 32];
        assign {c_awid[U], c_awlen[U], c_awsize[U], c_awburst[U], c_awcache[U], c_awprot[U],
                c_awqos[U]} = sc_aw[d*AxW +: AxW];
        assign c_awvalid[U]  = sc_awvalid[d];
        assign sc_awready[d] = c_awready[U];
        assign {c_wdata[U], c_wstrb[U]} = sc_w[d*WW +: WW];
        assign c_wlast[U]    = sc_wlast[d];
        assign c_wvalid[U]   = sc_wvalid[d];
        assign sc_wready[d]  = c_wready[U];
        assign sc_b[d*BW +: BW]       = {c_bid[U], c_bresp[U]};
        assign sc_bvalid[d]  = c_bvalid[U];
        assign c_bready[U]   = sc_bready[d];
        assign c_araddr[U]   = sc_araddr[d*32 +: 32];
        assign {c_arid[U], c_arlen[U], c_arsize[U], c_arburst[U], c_arcache[U], c_arprot[U],
                c_arqos[U]} = sc_ar[d*AxW +: AxW];
        assign c_arvalid[U]  = sc_arvalid[d];
        assign sc_arready[d] = c_arready[U];
        assign sc_r[d*RW +: RW]       = {c_rid[U], c_rdata[U], c_rresp[U]};
        assign sc_rlast[d]   = c_rlast[U];
        assign sc_rvalid[d]  = c_rvalid[U];
        assign c_rready[U]   = sc_rready[d];
      end

      tessera_l2_router #(
        .N  (NumSlices),
        .AxW(AxW),
        .WW (WW),
        .RW (RW),
        .BW (BW),
        .Depth     (ArDepth),
        .RingBursts(ArDepth),
        .RobBursts (ArDepth)
      ) u_router (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .slices_log2_i(slices_log2[0]),
        .m_awaddr_i   (mu_awaddr),
        .m_aw_i       (mu_aw),
        .m_awvalid_i  (mu_awvalid),
        .m_awready_o  (mu_awready),
        .m_w_i        (mu_w),
        .m_wlast_i    (mu_wlast),
        .m_wvalid_i   (mu_wvalid),
        .m_wready_o   (mu_wready),
        .m_b_o        (mu_b),
        .m_bvalid_o   (mu_bvalid),
        .m_bready_i   (mu_bready),
        .m_araddr_i   (mu_araddr),
        .m_ar_i       (mu_ar),
        .m_arvalid_i  (mu_arvalid),
        .m_arready_o  (mu_arready),
        .m_r_o        (mu_r),
        .m_rlast_o    (mu_rlast),
        .m_rvalid_o   (mu_rvalid),
        .m_rready_i   (mu_rready),
        .s_awaddr_o   (sc_awaddr),
        .s_aw_o       (sc_aw),
        .s_awvalid_o  (sc_awvalid),
        .s_awready_i  (sc_awready),
        .s_w_o        (sc_w),
        .s_wlast_o    (sc_wlast),
        .s_wvalid_o   (sc_wvalid),
        .s_wready_i   (sc_wready),
        .s_b_i        (sc_b),
        .s_bvalid_i   (sc_bvalid),
        .s_bready_o   (sc_bready),
        .s_araddr_o   (sc_araddr),
        .s_ar_o       (sc_ar),
        .s_arvalid_o  (sc_arvalid),
        .s_arready_i  (sc_arready),
        .s_r_i        (sc_r),
        .s_rlast_i    (sc_rlast),
        .s_rvalid_i   (sc_rvalid),
        .s_rready_o   (sc_rready)
      );
    end
  end
endmodule
