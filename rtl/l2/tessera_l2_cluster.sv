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
  parameter int unsigned RdMasters = 1,   // 2: each slice has a second, read-only master (mst1_*)
  parameter logic [31:0] MemBase   = 32'h8000_0000,
  parameter logic [31:0] MemSize   = 32'h4000_0000,
  localparam int unsigned NU       = NumSlices * NumPorts
) (
  input  logic clk_i,
  input  logic rst_ni,
  // upstream AXI4 slave ports (engines)
  input  logic [NU-1:0][tessera_bus_pkg::AxiReqBits-1:0] slv_req_i,
  output logic [NU-1:0][tessera_bus_pkg::AxiRspBits-1:0] slv_rsp_o,
  // downstream AXI4 masters (fabric), one per slice
  output logic [NumSlices-1:0][tessera_bus_pkg::AxiReqBits-1:0] mst_req_o,
  input  logic [NumSlices-1:0][tessera_bus_pkg::AxiRspBits-1:0] mst_rsp_i,
  // second, read-only masters (RdMasters = 2; else AR idle), one per slice
  // (per channel, as tessera_l2's mst1_* ports)
  output logic [NumSlices-1:0][tessera_bus_pkg::AxiAxBits-1:0]  mst1_ar_o,
  output logic [NumSlices-1:0]                                  mst1_ar_valid_o,
  input  logic [NumSlices-1:0]                                  mst1_ar_ready_i,
  input  logic [NumSlices-1:0][tessera_bus_pkg::AxiRBits-1:0]   mst1_r_i,
  input  logic [NumSlices-1:0]                                  mst1_r_valid_i,
  output logic [NumSlices-1:0]                                  mst1_r_ready_o,
  // APB4 register slaves, one per slice
  input  logic [NumSlices-1:0][tessera_bus_pkg::ApbReqBits-1:0] apb_req_i,
  output logic [NumSlices-1:0][tessera_bus_pkg::ApbRspBits-1:0] apb_rsp_o,
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
  // the upstream ports as per-signal arrays s_axi_*[u] (the routers' inputs)
  `TESSERA_AXI_ARRAY_DECL(s_axi_, NU, IdBits)
  `TESSERA_AXI_SLV_ARRAY_CONNECT(slv_req_i, slv_rsp_o, s_axi_, NU, IdBits)
  logic [NumSlices-1:0] slice_idle;
  assign idle_o = &slice_idle;

  // slice-side upstream signals (after the routers)
  `TESSERA_AXI_ARRAY_DECL(c_, NU, IdBits)
  logic [NumSlices-1:0][1:0]     slices_log2;

  // the slice-side signals as the slices' upstream bus ports
  logic [NU-1:0][tessera_bus_pkg::AxiReqBits-1:0] c_req;
  logic [NU-1:0][tessera_bus_pkg::AxiRspBits-1:0] c_rsp;
  `TESSERA_AXI_MST_ARRAY_CONNECT(c_req, c_rsp, c_, NU, IdBits)

  // ---------------------------------------------------------------- slices
  for (genvar d = 0; d < NumSlices; d++) begin : g_slice
    localparam int unsigned U0 = d * NumPorts;
    tessera_bus_pkg::axi_req_t     m_req;
    tessera_bus_pkg::axi_rsp_t     m_rsp;
    tessera_bus_pkg::axi_ax_chan_t m1_ar;
    tessera_bus_pkg::axi_r_chan_t  m1_r;
    tessera_bus_pkg::apb_req_t apb_req;
    tessera_bus_pkg::apb_rsp_t apb_rsp;
    assign mst_req_o[d]     = m_req;
    assign m_rsp            = mst_rsp_i[d];
    assign mst1_ar_o[d]     = m1_ar;
    assign m1_r             = mst1_r_i[d];
    assign apb_req          = apb_req_i[d];
    assign apb_rsp_o[d]     = apb_rsp;
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
      .slv_req_i        (c_req[U0 +: NumPorts]),
      .slv_rsp_o        (c_rsp[U0 +: NumPorts]),
      .mst_req_o        (m_req),
      .mst_rsp_i        (m_rsp),
      .mst1_ar_o        (m1_ar),
      .mst1_ar_valid_o  (mst1_ar_valid_o[d]),
      .mst1_ar_ready_i  (mst1_ar_ready_i[d]),
      .mst1_r_i         (m1_r),
      .mst1_r_valid_i   (mst1_r_valid_i[d]),
      .mst1_r_ready_o   (mst1_r_ready_o[d]),
      .apb_req_i        (apb_req),
      .apb_rsp_o        (apb_rsp),
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
    assign c_awid = s_axi_awid;        assign c_awaddr = s_axi_awaddr;
    assign c_awlen = s_axi_awlen;      assign c_awsize = s_axi_awsize;
    assign c_awburst = s_axi_awburst;  assign c_awcache = s_axi_awcache;
    assign c_awprot = s_axi_awprot;    assign c_awqos = s_axi_awqos;
    assign c_awvalid = s_axi_awvalid;  assign s_axi_awready = c_awready;
    assign c_wdata = s_axi_wdata;      assign c_wstrb = s_axi_wstrb;
    assign c_wlast = s_axi_wlast;      assign c_wvalid = s_axi_wvalid;
    assign s_axi_wready = c_wready;
    assign s_axi_bid = c_bid;          assign s_axi_bresp = c_bresp;
    assign s_axi_bvalid = c_bvalid;    assign c_bready = s_axi_bready;
    assign c_arid = s_axi_arid;        assign c_araddr = s_axi_araddr;
    assign c_arlen = s_axi_arlen;      assign c_arsize = s_axi_arsize;
    assign c_arburst = s_axi_arburst;  assign c_arcache = s_axi_arcache;
    assign c_arprot = s_axi_arprot;    assign c_arqos = s_axi_arqos;
    assign c_arvalid = s_axi_arvalid;  assign s_axi_arready = c_arready;
    assign s_axi_rid = c_rid;          assign s_axi_rdata = c_rdata;
    assign s_axi_rresp = c_rresp;      assign s_axi_rlast = c_rlast;
    assign s_axi_rvalid = c_rvalid;    assign c_rready = s_axi_rready;
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
        assign mu_awaddr[d*32 +: 32]  = s_axi_awaddr[U];
        assign mu_aw[d*AxW +: AxW]      = {s_axi_awid[U], s_axi_awlen[U], s_axi_awsize[U],
                                s_axi_awburst[U], s_axi_awcache[U], s_axi_awprot[U],
                                s_axi_awqos[U]};
        assign mu_awvalid[d] = s_axi_awvalid[U];
        assign s_axi_awready[U] = mu_awready[d];
        assign mu_w[d*WW +: WW]       = {s_axi_wdata[U], s_axi_wstrb[U]};
        assign mu_wlast[d]   = s_axi_wlast[U];
        assign mu_wvalid[d]  = s_axi_wvalid[U];
        assign s_axi_wready[U] = mu_wready[d];
        assign {s_axi_bid[U], s_axi_bresp[U]} = mu_b[d*BW +: BW];
        assign s_axi_bvalid[U] = mu_bvalid[d];
        assign mu_bready[d]  = s_axi_bready[U];
        assign mu_araddr[d*32 +: 32]  = s_axi_araddr[U];
        assign mu_ar[d*AxW +: AxW]      = {s_axi_arid[U], s_axi_arlen[U], s_axi_arsize[U],
                                s_axi_arburst[U], s_axi_arcache[U], s_axi_arprot[U],
                                s_axi_arqos[U]};
        assign mu_arvalid[d] = s_axi_arvalid[U];
        assign s_axi_arready[U] = mu_arready[d];
        assign {s_axi_rid[U], s_axi_rdata[U], s_axi_rresp[U]} = mu_r[d*RW +: RW];
        assign s_axi_rlast[U]  = mu_rlast[d];
        assign s_axi_rvalid[U] = mu_rvalid[d];
        assign mu_rready[d]  = s_axi_rready[U];
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
