// Tessera TPC cluster: Dcores x TpcPerDcore TPC cores behind one register block
// (rtl/tpc/data/tpc.rdl). A launch (CTRL.commit) copies the configuration, checks it,
// loads the program from device memory into the instruction memories (one loader per
// DCORE, AXI bursts), splits the index space among the TPCs (tpc_slice rule of
// docs/tpc.md), starts them, and when all have stopped records the status (error code,
// failing TPC and PC), sends the completion message and raises irq_o.
// Each DCORE has PortsPerDcore AXI4 masters (master m = d * PortsPerDcore + q), each
// merging the cores of slots s with s % PortsPerDcore == q (tessera_tpc_axi_arb); the
// DCORE's program loader shares master q = 0. TPC id t (tpcid) runs on DCORE t % Dcores in
// slot t / Dcores, so a launch on n < all TPCs spreads its traffic over the DCOREs first,
// then over their ports. See docs/tpc_rtl.md ("Cluster").
module tessera_tpc_cluster #(
  parameter int unsigned Dcores      = tessera_cfg_pkg::Dcores,
  parameter int unsigned TpcPerDcore = tessera_cfg_pkg::TpcPerDcore,
  parameter int unsigned PortsPerDcore = tessera_cfg_pkg::TpcPortsPerDcore,  // divides TpcPerDcore
  parameter int unsigned ImemDepth   = 1024,   // bundles per TPC
  parameter int unsigned SlmBytes    = 1024,
  parameter int unsigned VlmBytes    = 16384,
  parameter int unsigned IdBits      = tessera_cfg_pkg::AxiIdBits,
  parameter logic [31:0] MemBase     = tessera_cfg_pkg::HbmBase,        // device memory:
  parameter logic [32:0] MemSize     = {1'b0, tessera_cfg_pkg::HbmSize}, // program and tensors
  localparam int unsigned NumM       = Dcores * PortsPerDcore   // AXI masters
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // register block (APB4)
  input  tessera_bus_pkg::apb_req_t         apb_req_i,
  output tessera_bus_pkg::apb_rsp_t         apb_rsp_o,
  // PortsPerDcore AXI4 masters per DCORE (master d * PortsPerDcore + q)
  output logic [NumM-1:0][tessera_bus_pkg::AxiReqBits-1:0] mst_req_o,
  input  logic [NumM-1:0][tessera_bus_pkg::AxiRspBits-1:0] mst_rsp_i,
  // completion message (-> system bus) and interrupt
  output logic                              msg_valid_o,
  input  logic                              msg_ready_i,
  output logic [31:0]                       msg_addr_o,
  output logic [31:0]                       msg_data_o,
  output logic                              irq_o,
  output logic                              idle_o    // no launch latched or running
);
  localparam int unsigned NumTpc = Dcores * TpcPerDcore;
  localparam int unsigned TpcPerPort = TpcPerDcore / PortsPerDcore;
  localparam int unsigned NumSrc = TpcPerPort + 1;   // per master: cores + loader (q = 0)
  localparam int unsigned IAW    = $clog2(ImemDepth);
  if (PortsPerDcore == 0 || TpcPerDcore % PortsPerDcore != 0) begin : g_bad_ports
    $error("tessera_tpc_cluster: PortsPerDcore must divide TpcPerDcore");
  end
  localparam logic [3:0]  ErrBus       = 4'd7;
  localparam logic [3:0]  ErrBadLaunch = 4'd10;
  localparam logic [3:0]  TpcCluster   = 4'd15;

  // tpcid of physical core p (DCORE p / TpcPerDcore, slot p % TpcPerDcore)
  function automatic logic [31:0] lid(input int unsigned p);
    lid = 32'((p % TpcPerDcore) * Dcores + p / TpcPerDcore);
  endfunction

  // ---------------------------------------------------------------- register block
  tpc_reg_pkg::tpc__in_t  hw_in;
  tpc_reg_pkg::tpc__out_t hw_out;

  tpc_reg_top u_regs (
    .clk          (clk_i),
    .arst_n       (rst_ni),
    .s_apb_psel   (apb_req_i.psel),
    .s_apb_penable(apb_req_i.penable),
    .s_apb_pwrite (apb_req_i.pwrite),
    .s_apb_pprot  (apb_req_i.pprot),
    .s_apb_paddr  (apb_req_i.paddr),
    .s_apb_pwdata (apb_req_i.pwdata),
    .s_apb_pstrb  (apb_req_i.pstrb),
    .s_apb_pready (apb_rsp_o.pready),
    .s_apb_prdata (apb_rsp_o.prdata),
    .s_apb_pslverr(apb_rsp_o.pslverr),
    .hwif_in      (hw_in),
    .hwif_out     (hw_out)
  );

  // scalar-argument and descriptor windows (external memories): live copies, written
  // by the host at any time; copied into the launch state at commit
  logic [15:0][31:0]  sarg_q;
  logic [127:0][31:0] desc_q;
  logic               ext_ack_q, ext_wr_q, ext_desc_q;
  logic [31:0]        ext_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sarg_q      <= '0;
      desc_q      <= '0;
      ext_ack_q   <= 1'b0;
      ext_wr_q    <= 1'b0;
      ext_desc_q  <= 1'b0;
      ext_rdata_q <= '0;
    end else begin
      ext_ack_q <= 1'b0;
      if (hw_out.SARG.req) begin
        ext_ack_q   <= 1'b1;
        ext_wr_q    <= hw_out.SARG.req_is_wr;
        ext_desc_q  <= 1'b0;
        ext_rdata_q <= sarg_q[hw_out.SARG.addr[5:2]];
        if (hw_out.SARG.req_is_wr)
          sarg_q[hw_out.SARG.addr[5:2]] <= (sarg_q[hw_out.SARG.addr[5:2]] & ~hw_out.SARG.wr_biten) |
                                           (hw_out.SARG.wr_data & hw_out.SARG.wr_biten);
      end else if (hw_out.DESC.req) begin
        ext_ack_q   <= 1'b1;
        ext_wr_q    <= hw_out.DESC.req_is_wr;
        ext_desc_q  <= 1'b1;
        ext_rdata_q <= desc_q[hw_out.DESC.addr[8:2]];
        if (hw_out.DESC.req_is_wr)
          desc_q[hw_out.DESC.addr[8:2]] <= (desc_q[hw_out.DESC.addr[8:2]] & ~hw_out.DESC.wr_biten) |
                                           (hw_out.DESC.wr_data & hw_out.DESC.wr_biten);
      end
    end
  end
  always_comb begin
    hw_in.SARG.rd_ack  = ext_ack_q && !ext_wr_q && !ext_desc_q;
    hw_in.SARG.wr_ack  = ext_ack_q && ext_wr_q && !ext_desc_q;
    hw_in.SARG.rd_data = ext_rdata_q;
    hw_in.DESC.rd_ack  = ext_ack_q && !ext_wr_q && ext_desc_q;
    hw_in.DESC.wr_ack  = ext_ack_q && ext_wr_q && ext_desc_q;
    hw_in.DESC.rd_data = ext_rdata_q;
  end

  // ---------------------------------------------------------------- launch state
  typedef enum logic [2:0] {CIdle, CCheck, CLoad, CStart, CRun, CFin, CMsg} cstate_e;
  cstate_e state_q;

  logic               commit;
  logic [31:0]        prog_addr_q, prog_len_q, ntpc_q, seed_q, msg_addr_q, msg_data_q;
  logic [3:0]         ntens_q;
  logic               msg_en_q, keep_q;
  logic [31:0]        limit_q;   // BUNDLE_LIMIT of the launch
  logic               cancel_q;   // CTRL.cancel written while the launch runs
  logic [4:0][31:0]   idx_q;
  logic [15:0][31:0]  sarg_c;
  logic [7:0][511:0]  desc_c;
  logic [31:0]        chunk_q;
  logic [2:0]         sdim_q;
  // the last successful program load (for CTRL.keep_prog)
  logic               tag_valid_q;
  logic [31:0]        tag_addr_q, tag_len_q;
  logic [Dcores-1:0]  tag_dc_q;

  assign commit = hw_out.CTRL.commit.value;

  // ceil(a / n) for a small n >= 1 (restoring division, one bit per stage)
  function automatic logic [31:0] ceil_div(input logic [31:0] a, input logic [7:0] n);
    logic [8:0]  r;
    logic [31:0] q;
    r = '0;
    q = '0;
    for (int i = 31; i >= 0; i--) begin
      r = {r[7:0], a[i]};
      if (r >= {1'b0, n}) begin
        r    = r - {1'b0, n};
        q[i] = 1'b1;
      end
    end
    ceil_div = q + 32'(r != 9'd0);
  endfunction

  // split dimension: the highest with size > 1 (0 if none)
  logic [2:0] sdim;
  always_comb begin
    sdim = 3'd0;
    for (int d = 0; d < 5; d++) if (idx_q[d] > 32'd1) sdim = 3'(d);
  end

  // launch checks (on the committed copy)
  logic        bad_launch;
  logic [33:0] prog_end;
  assign prog_end = {2'b0, prog_addr_q} + {prog_len_q[28:0], 5'd0};
  always_comb begin
    bad_launch = (prog_len_q == 32'd0) || (prog_len_q > 32'(ImemDepth)) ||
                 (prog_addr_q[4:0] != 5'd0) || (ntens_q > 4'd8) ||
                 (ntpc_q == 32'd0) || (ntpc_q > 32'(NumTpc)) ||
                 (prog_addr_q < MemBase) || (prog_end > {1'b0, MemBase} + {1'b0, MemSize});
    for (int d = 0; d < 5; d++) if (idx_q[d] == 32'd0) bad_launch = 1'b1;
  end

  // TPCs and DCOREs used by the launch
  logic [NumTpc-1:0] used;
  logic [Dcores-1:0] dc_used;
  always_comb begin
    for (int unsigned p = 0; p < NumTpc; p++) used[p] = (lid(p) < ntpc_q);
    for (int unsigned d = 0; d < Dcores; d++) dc_used[d] = (32'(d) < ntpc_q);
  end

  // ---------------------------------------------------------------- cores
  logic [NumTpc-1:0]        c_start, c_busy, c_done, c_retire, c_stall_ld, c_stall_st;
  logic [NumTpc-1:0][3:0]   c_err;
  logic [NumTpc-1:0][31:0]  c_err_pc, c_ldb, c_stb;
  logic [NumTpc-1:0][4:0][31:0] c_off, c_len;
  logic [NumTpc-1:0]        pending_q;

  // per-master arbiter source buses (source TpcPerPort = the loader, on q = 0 only)
  logic [NumM-1:0][NumSrc-1:0][31:0]  s_awaddr, s_araddr;
  logic [NumM-1:0][NumSrc-1:0][7:0]   s_awlen, s_arlen;
  logic [NumM-1:0][NumSrc-1:0][2:0]   s_awsize, s_arsize, s_awprot, s_arprot;
  logic [NumM-1:0][NumSrc-1:0][1:0]   s_awburst, s_arburst, s_bresp;
  logic [NumM-1:0][NumSrc-1:0][3:0]   s_awcache, s_arcache, s_awqos, s_arqos;
  logic [NumM-1:0][NumSrc-1:0]        s_awvalid, s_awready, s_wlast, s_wvalid, s_wready;
  logic [NumM-1:0][NumSrc-1:0]        s_bvalid, s_bready, s_arvalid, s_arready, s_rvalid, s_rready;
  logic [NumM-1:0][NumSrc-1:0][255:0] s_wdata;
  logic [NumM-1:0][NumSrc-1:0][31:0]  s_wstrb;
  logic [NumM-1:0][255:0]             s_rdata;
  logic [NumM-1:0][1:0]               s_rresp;
  logic [NumM-1:0]                    s_rlast;

  // loaders
  logic [Dcores-1:0]            f_start, f_busy, f_done, f_err, f_we;
  logic [Dcores-1:0][31:0]      f_err_idx;
  logic [Dcores-1:0][IAW-1:0]   f_waddr;
  logic [Dcores-1:0][255:0]     f_wdata;
  logic [Dcores-1:0]            f_done_q;
  logic                         cl_err_q;      // the launch failed in the cluster itself
  logic [31:0]                  load_err_idx;  // first failing bundle (lowest DCORE)
  always_comb begin
    load_err_idx = '0;
    for (int d = Dcores - 1; d >= 0; d--) if (f_err[d] && dc_used[d]) load_err_idx = f_err_idx[d];
  end

  for (genvar p = 0; p < NumTpc; p++) begin : g_tpc
    localparam int unsigned D = p / TpcPerDcore;
    localparam int unsigned S = p % TpcPerDcore;
    localparam int unsigned M = D * PortsPerDcore + S % PortsPerDcore;   // its master
    localparam int unsigned J = S / PortsPerDcore;                       // its source there
    logic [34:0] off35;

    // slice (tpc_slice): chunks of ceil(size / n) along the split dim
    assign off35 = 35'(lid(p)) * 35'(chunk_q);
    always_comb begin
      for (int d = 0; d < 5; d++) begin
        c_off[p][d] = 32'd0;
        c_len[p][d] = idx_q[d];
        if (3'(d) == sdim_q) begin
          if (off35 >= 35'(idx_q[d])) begin
            c_off[p][d] = idx_q[d];
            c_len[p][d] = 32'd0;
          end else begin
            c_off[p][d] = off35[31:0];
            c_len[p][d] = (idx_q[d] - off35[31:0] < chunk_q) ? idx_q[d] - off35[31:0] : chunk_q;
          end
        end
      end
    end

    // the core's AXI port, a source of its master's arbiter (the arbiter sets the IDs)
    tessera_bus_pkg::axi_req_t c_req;
    tessera_bus_pkg::axi_rsp_t c_rsp;
    assign s_awaddr[M][J]  = c_req.aw.addr;
    assign s_awlen[M][J]   = c_req.aw.len;
    assign s_awsize[M][J]  = c_req.aw.size;
    assign s_awburst[M][J] = c_req.aw.burst;
    assign s_awcache[M][J] = c_req.aw.cache;
    assign s_awprot[M][J]  = c_req.aw.prot;
    assign s_awqos[M][J]   = c_req.aw.qos;
    assign s_awvalid[M][J] = c_req.aw_valid;
    assign s_wdata[M][J]   = c_req.w.data;
    assign s_wstrb[M][J]   = c_req.w.strb;
    assign s_wlast[M][J]   = c_req.w.last;
    assign s_wvalid[M][J]  = c_req.w_valid;
    assign s_bready[M][J]  = c_req.b_ready;
    assign s_araddr[M][J]  = c_req.ar.addr;
    assign s_arlen[M][J]   = c_req.ar.len;
    assign s_arsize[M][J]  = c_req.ar.size;
    assign s_arburst[M][J] = c_req.ar.burst;
    assign s_arcache[M][J] = c_req.ar.cache;
    assign s_arprot[M][J]  = c_req.ar.prot;
    assign s_arqos[M][J]   = c_req.ar.qos;
    assign s_arvalid[M][J] = c_req.ar_valid;
    assign s_rready[M][J]  = c_req.r_ready;
    always_comb begin
      c_rsp          = '0;
      c_rsp.aw_ready = s_awready[M][J];
      c_rsp.w_ready  = s_wready[M][J];
      c_rsp.b.resp   = s_bresp[M][J];
      c_rsp.b_valid  = s_bvalid[M][J];
      c_rsp.ar_ready = s_arready[M][J];
      c_rsp.r.data   = s_rdata[M];
      c_rsp.r.resp   = s_rresp[M];
      c_rsp.r.last   = s_rlast[M];
      c_rsp.r_valid  = s_rvalid[M][J];
    end
    logic [31:0] pc_unused;

    tessera_tpc_core #(
      .ImemDepth(ImemDepth),
      .SlmBytes (SlmBytes),
      .VlmBytes (VlmBytes),
      .MemBase  (MemBase),
      .MemSize  (MemSize),
      .RegionBytes(tessera_cfg_pkg::MemRegionBytes)
    ) u_core (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .imem_we_i      (f_we[D]),
      .imem_waddr_i   (f_waddr[D]),
      .imem_wdata_i   (f_wdata[D]),
      .start_i        (c_start[p]),
      .bad_launch_i   (1'b0),
      .prog_len_i     (prog_len_q),
      .ntensors_i     (ntens_q),
      .desc_i         (desc_c),
      .sarg_i         (sarg_c),
      .slice_off_i    (c_off[p]),
      .slice_len_i    (c_len[p]),
      .tpc_id_i       (lid(p)),
      .ntpc_i         (ntpc_q),
      .rng_seed_i     (seed_q),
      .max_bundles_i  (limit_q),
      .cancel_i        (cancel_q),
      .busy_o         (c_busy[p]),
      .done_o         (c_done[p]),
      .err_o          (c_err[p]),
      .err_pc_o       (c_err_pc[p]),
      .retire_o       (c_retire[p]),
      .pc_o           (pc_unused),
      .ld_bytes_o     (c_ldb[p]),
      .st_bytes_o     (c_stb[p]),
      .stall_mem_o    (c_stall_ld[p]),
      .stall_st_o     (c_stall_st[p]),
      .mst_req_o      (c_req),
      .mst_rsp_i      (c_rsp)
    );
    logic unused_core;
    assign unused_core = ^{c_req.aw.id, c_req.ar.id, c_req.aw.user, c_req.w.user, c_req.ar.user,
                           pc_unused};
  end

  // ---------------------------------------------------------------- L2 cache hints
  // The launch's allocation hints and replacement classes (CACHE register, latched at
  // commit like the rest of the launch) replace the per-source values on every DCORE
  // master: docs/l2.md "AXI subset and hints".
  logic       rd_alloc_q, wr_alloc_q;
  logic [1:0] rd_class_q, wr_class_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_alloc_q <= 1'b1;
      wr_alloc_q <= 1'b1;
      rd_class_q <= 2'd0;
      wr_class_q <= 2'd0;
    end else if (commit && state_q == CIdle) begin
      rd_alloc_q <= hw_out.CACHE.rd_alloc.value;
      wr_alloc_q <= hw_out.CACHE.wr_alloc.value;
      rd_class_q <= hw_out.CACHE.rd_class.value;
      wr_class_q <= hw_out.CACHE.wr_class.value;
    end
  end

  for (genvar d = 0; d < Dcores; d++) begin : g_dcore
    localparam int unsigned L  = TpcPerPort;           // loader's source index
    localparam int unsigned M0 = d * PortsPerDcore;    // on the DCORE's first master
    // the loader's read port, source L of the DCORE's first master
    tessera_bus_pkg::axi_req_t f_req;
    tessera_bus_pkg::axi_rsp_t f_rsp;
    logic                      unused_f_req;
    tessera_tpc_ifetch #(.ImemDepth(ImemDepth)) u_fetch (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .start_i        (f_start[d]),
      .addr_i         (prog_addr_q),
      .len_i          (prog_len_q),
      .busy_o         (f_busy[d]),
      .done_o         (f_done[d]),
      .err_o          (f_err[d]),
      .err_idx_o      (f_err_idx[d]),
      .imem_we_o      (f_we[d]),
      .imem_waddr_o   (f_waddr[d]),
      .imem_wdata_o   (f_wdata[d]),
      .mst_req_o      (f_req),
      .mst_rsp_i      (f_rsp)
    );
    assign s_araddr[M0][L]  = f_req.ar.addr;
    assign s_arlen[M0][L]   = f_req.ar.len;
    assign s_arsize[M0][L]  = f_req.ar.size;
    assign s_arburst[M0][L] = f_req.ar.burst;
    assign s_arcache[M0][L] = f_req.ar.cache;
    assign s_arprot[M0][L]  = f_req.ar.prot;
    assign s_arqos[M0][L]   = f_req.ar.qos;
    assign s_arvalid[M0][L] = f_req.ar_valid;
    assign s_rready[M0][L]  = f_req.r_ready;
    assign unused_f_req     = ^{f_req.aw, f_req.aw_valid, f_req.w, f_req.w_valid, f_req.b_ready,
                                f_req.ar.id, f_req.ar.user};
    always_comb begin
      f_rsp          = '0;
      f_rsp.ar_ready = s_arready[M0][L];
      f_rsp.r.data   = s_rdata[M0];
      f_rsp.r.resp   = s_rresp[M0];
      f_rsp.r.last   = s_rlast[M0];
      f_rsp.r_valid  = s_rvalid[M0][L];
    end
    assign s_awaddr[M0][L]  = '0;
    assign s_awlen[M0][L]   = '0;
    assign s_awsize[M0][L]  = '0;
    assign s_awburst[M0][L] = '0;
    assign s_awcache[M0][L] = '0;
    assign s_awprot[M0][L]  = '0;
    assign s_awqos[M0][L]   = '0;
    assign s_awvalid[M0][L] = 1'b0;
    assign s_wdata[M0][L]   = '0;
    assign s_wstrb[M0][L]   = '0;
    assign s_wlast[M0][L]   = 1'b0;
    assign s_wvalid[M0][L]  = 1'b0;
    assign s_bready[M0][L]  = 1'b1;
  end

  // one arbiter per master; the loader slot of a DCORE's other masters is tied off
  for (genvar m = 0; m < NumM; m++) begin : g_port
    localparam int unsigned L = TpcPerPort;
    if (m % PortsPerDcore != 0) begin : g_no_loader
      assign s_araddr[m][L]  = '0;
      assign s_arlen[m][L]   = '0;
      assign s_arsize[m][L]  = '0;
      assign s_arburst[m][L] = '0;
      assign s_arcache[m][L] = '0;
      assign s_arprot[m][L]  = '0;
      assign s_arqos[m][L]   = '0;
      assign s_arvalid[m][L] = 1'b0;
      assign s_rready[m][L]  = 1'b1;
      assign s_awaddr[m][L]  = '0;
      assign s_awlen[m][L]   = '0;
      assign s_awsize[m][L]  = '0;
      assign s_awburst[m][L] = '0;
      assign s_awcache[m][L] = '0;
      assign s_awprot[m][L]  = '0;
      assign s_awqos[m][L]   = '0;
      assign s_awvalid[m][L] = 1'b0;
      assign s_wdata[m][L]   = '0;
      assign s_wstrb[m][L]   = '0;
      assign s_wlast[m][L]   = 1'b0;
      assign s_wvalid[m][L]  = 1'b0;
      assign s_bready[m][L]  = 1'b1;
      logic unused_slot;
      assign unused_slot = ^{s_arready[m][L], s_rvalid[m][L], s_awready[m][L],
                             s_wready[m][L], s_bvalid[m][L], s_bresp[m][L]};
    end

    tessera_bus_pkg::axi_req_t a_req, req;
    tessera_bus_pkg::axi_rsp_t a_rsp;
    logic                      unused_hint;
    tessera_tpc_axi_arb #(
      .NumSrc  (NumSrc),
      .IdBits  (IdBits),
      .DataBits(256)
    ) u_arb (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .s_awaddr_i     (s_awaddr[m]),
      .s_awlen_i      (s_awlen[m]),
      .s_awsize_i     (s_awsize[m]),
      .s_awburst_i    (s_awburst[m]),
      .s_awcache_i    (s_awcache[m]),
      .s_awprot_i     (s_awprot[m]),
      .s_awqos_i      (s_awqos[m]),
      .s_awvalid_i    (s_awvalid[m]),
      .s_awready_o    (s_awready[m]),
      .s_wdata_i      (s_wdata[m]),
      .s_wstrb_i      (s_wstrb[m]),
      .s_wlast_i      (s_wlast[m]),
      .s_wvalid_i     (s_wvalid[m]),
      .s_wready_o     (s_wready[m]),
      .s_bresp_o      (s_bresp[m]),
      .s_bvalid_o     (s_bvalid[m]),
      .s_bready_i     (s_bready[m]),
      .s_araddr_i     (s_araddr[m]),
      .s_arlen_i      (s_arlen[m]),
      .s_arsize_i     (s_arsize[m]),
      .s_arburst_i    (s_arburst[m]),
      .s_arcache_i    (s_arcache[m]),
      .s_arprot_i     (s_arprot[m]),
      .s_arqos_i      (s_arqos[m]),
      .s_arvalid_i    (s_arvalid[m]),
      .s_arready_o    (s_arready[m]),
      .s_rdata_o      (s_rdata[m]),
      .s_rresp_o      (s_rresp[m]),
      .s_rlast_o      (s_rlast[m]),
      .s_rvalid_o     (s_rvalid[m]),
      .s_rready_i     (s_rready[m]),
      .mst_req_o      (a_req),
      .mst_rsp_i      (a_rsp)
    );
    // the launch's cache hints replace the sources' (see above)
    always_comb begin
      req          = a_req;
      req.ar.cache = {rd_alloc_q, rd_alloc_q, 2'b11};
      req.aw.cache = {wr_alloc_q, wr_alloc_q, 2'b11};
      // bits 3:2: the TMU's stream hint (a block fill whose next block the row also holds;
      // bit 3: this block's lines were announced by the previous fill's hint)
      req.ar.qos   = {a_req.ar.qos[3:2], rd_class_q};
      req.aw.qos   = {2'b00, wr_class_q};
    end
    assign mst_req_o[m] = req;
    assign a_rsp        = mst_rsp_i[m];
    assign unused_hint  = ^{a_req.aw.cache, a_req.aw.qos, a_req.ar.cache, a_req.ar.qos[1:0]};
  end

  // ---------------------------------------------------------------- the first failing TPC
  logic              any_err;
  logic [31:0]       first_id, first_pc;
  logic [3:0]        first_err;
  logic [15:0]       err_mask;
  always_comb begin
    any_err   = 1'b0;
    first_id  = 32'hFFFF_FFFF;
    first_pc  = '0;
    first_err = '0;
    err_mask  = '0;
    for (int unsigned p = 0; p < NumTpc; p++) begin
      if (used[p] && c_err[p] != 4'd0) begin
        any_err = 1'b1;
        err_mask = err_mask | (16'd1 << lid(p));
        if (lid(p) < first_id) begin
          first_id  = lid(p);
          first_pc  = c_err_pc[p];
          first_err = c_err[p];
        end
      end
    end
  end

  // ---------------------------------------------------------------- launch sequencer
  logic        st_busy_q;
  logic [3:0]  st_err_q, st_err_tpc_q;
  logic [31:0] st_err_pc_q;
  logic [15:0] st_err_mask_q;
  logic        set_done, set_reject;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= CIdle;
      prog_addr_q   <= '0;
      prog_len_q    <= '0;
      ntpc_q        <= 32'd1;
      seed_q        <= '0;
      msg_addr_q    <= '0;
      msg_data_q    <= '0;
      ntens_q       <= '0;
      msg_en_q      <= 1'b0;
      keep_q        <= 1'b0;
      limit_q       <= '0;
      cancel_q       <= 1'b0;
      idx_q         <= {5{32'd1}};
      sarg_c        <= '0;
      desc_c        <= '0;
      chunk_q       <= 32'd1;
      sdim_q        <= '0;
      tag_valid_q   <= 1'b0;
      tag_addr_q    <= '0;
      tag_len_q     <= '0;
      tag_dc_q      <= '0;
      f_done_q      <= '0;
      cl_err_q      <= 1'b0;
      pending_q     <= '0;
      st_busy_q     <= 1'b0;
      st_err_q      <= '0;
      st_err_tpc_q  <= '0;
      st_err_pc_q   <= '0;
      st_err_mask_q <= '0;
    end else begin
      unique case (state_q)
        CIdle: if (commit) begin
          state_q     <= CCheck;
          st_busy_q   <= 1'b1;
          prog_addr_q <= hw_out.PROG_ADDR.addr.value;
          prog_len_q  <= hw_out.PROG_LEN.len.value;
          ntens_q     <= hw_out.NTENSORS.n.value;
          ntpc_q      <= 32'(hw_out.NTPC.n.value);
          seed_q      <= hw_out.RNG_SEED.seed.value;
          msg_addr_q  <= hw_out.MSG_ADDR.addr.value;
          msg_data_q  <= hw_out.MSG_DATA.data.value;
          msg_en_q    <= hw_out.MSG_CTRL.en.value;
          keep_q      <= hw_out.CTRL.keep_prog.value;
          limit_q     <= hw_out.BUNDLE_LIMIT.n.value;
          idx_q[0]    <= hw_out.IDX_SIZE0.size.value;
          idx_q[1]    <= hw_out.IDX_SIZE1.size.value;
          idx_q[2]    <= hw_out.IDX_SIZE2.size.value;
          idx_q[3]    <= hw_out.IDX_SIZE3.size.value;
          idx_q[4]    <= hw_out.IDX_SIZE4.size.value;
          sarg_c      <= sarg_q;
          desc_c      <= desc_q;
        end
        CCheck: begin
          sdim_q   <= sdim;
          chunk_q  <= ceil_div(idx_q[sdim], ntpc_q[7:0] == 8'd0 ? 8'd1 : ntpc_q[7:0]);
          f_done_q <= ~dc_used;
          if (bad_launch) begin
            cl_err_q      <= 1'b1;
            st_err_q      <= ErrBadLaunch;
            st_err_tpc_q  <= TpcCluster;
            st_err_pc_q   <= '0;
            st_err_mask_q <= '0;
            state_q       <= CFin;
          end else if (keep_q && tag_valid_q && tag_addr_q == prog_addr_q &&
                       tag_len_q == prog_len_q && (dc_used & ~tag_dc_q) == '0) begin
            state_q <= CStart;
          end else begin
            tag_valid_q <= 1'b0;
            state_q     <= CLoad;
          end
        end
        CLoad: begin
          f_done_q <= f_done_q | f_done;
          if ((f_done_q | f_done) == '1) begin
            if ((f_err & dc_used) != '0) begin
              cl_err_q      <= 1'b1;
              st_err_q      <= ErrBus;
              st_err_tpc_q  <= TpcCluster;
              st_err_pc_q   <= load_err_idx;
              st_err_mask_q <= '0;
              state_q       <= CFin;
            end else begin
              tag_valid_q <= 1'b1;
              tag_addr_q  <= prog_addr_q;
              tag_len_q   <= prog_len_q;
              tag_dc_q    <= dc_used;
              state_q     <= CStart;
            end
          end
        end
        CStart: begin
          pending_q <= used;
          state_q   <= CRun;
        end
        CRun: begin
          pending_q <= pending_q & ~c_done;
          if ((pending_q & ~c_done) == '0) state_q <= CFin;
        end
        CFin: begin
          if (!cl_err_q) begin
            st_err_q      <= any_err ? first_err : 4'd0;
            st_err_tpc_q  <= any_err ? first_id[3:0] : 4'd0;
            st_err_pc_q   <= any_err ? first_pc : 32'd0;
            st_err_mask_q <= err_mask;
          end
          state_q <= msg_en_q ? CMsg : CIdle;
          if (!msg_en_q) st_busy_q <= 1'b0;
        end
        CMsg: if (msg_ready_i) begin
          state_q   <= CIdle;
          st_busy_q <= 1'b0;
        end
        default: state_q <= CIdle;
      endcase
      // cancel: held until the launch ends (the cores stop when they next reach EXEC)
      if (state_q == CIdle) cancel_q <= 1'b0;
      else if (hw_out.CTRL.cancel.value) cancel_q <= 1'b1;
      // a new launch clears the previous result
      if (state_q == CIdle && commit) begin
        cl_err_q      <= 1'b0;
        st_err_q      <= '0;
        st_err_tpc_q  <= '0;
        st_err_pc_q   <= '0;
        st_err_mask_q <= '0;
      end
    end
  end

  always_comb begin
    f_start = '0;
    if (state_q == CCheck && !bad_launch &&
        !(keep_q && tag_valid_q && tag_addr_q == prog_addr_q && tag_len_q == prog_len_q &&
          (dc_used & ~tag_dc_q) == '0))
      f_start = dc_used;
    c_start = (state_q == CStart) ? used : '0;
  end

  assign set_done   = (state_q == CFin && !msg_en_q) || (state_q == CMsg && msg_ready_i);
  assign set_reject = commit && state_q != CIdle;

  assign msg_valid_o = (state_q == CMsg);
  assign msg_addr_o  = msg_addr_q;
  assign msg_data_o  = msg_data_q;
  assign idle_o      = (state_q == CIdle) && !commit;
  assign irq_o       = hw_out.STATUS.done.value || hw_out.STATUS.busy_reject.value;

  // ---------------------------------------------------------------- performance counters
  logic [31:0] pf_busy_q, pf_load_q, pf_tbusy_q, pf_bund_q, pf_sld_q, pf_sst_q, pf_sarb_q;
  logic [31:0] pf_bld_q, pf_bst_q;
  logic [NumTpc-1:0] arb_wait;
  logic [31:0] sum_tbusy, sum_ret, sum_sld, sum_sst, sum_sarb, sum_bld, sum_bst;

  for (genvar p = 0; p < NumTpc; p++) begin : g_perf
    localparam int unsigned D = p / TpcPerDcore;
    localparam int unsigned S = p % TpcPerDcore;
    localparam int unsigned M = D * PortsPerDcore + S % PortsPerDcore;
    localparam int unsigned J = S / PortsPerDcore;
    assign arb_wait[p] = (s_arvalid[M][J] && !s_arready[M][J]) ||
                         (s_awvalid[M][J] && !s_awready[M][J]);
  end

  always_comb begin
    sum_tbusy = '0; sum_ret = '0; sum_sld = '0; sum_sst = '0; sum_sarb = '0;
    sum_bld = '0; sum_bst = '0;
    for (int unsigned p = 0; p < NumTpc; p++) begin
      sum_tbusy = sum_tbusy + 32'(c_busy[p]);
      sum_ret   = sum_ret + 32'(c_retire[p]);
      sum_sld   = sum_sld + 32'(c_stall_ld[p]);
      sum_sst   = sum_sst + 32'(c_stall_st[p]);
      sum_sarb  = sum_sarb + 32'(arb_wait[p]);
      sum_bld   = sum_bld + (c_retire[p] ? c_ldb[p] : 32'd0);
      sum_bst   = sum_bst + (c_retire[p] ? c_stb[p] : 32'd0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pf_busy_q <= '0; pf_load_q <= '0; pf_tbusy_q <= '0; pf_bund_q <= '0; pf_sld_q <= '0;
      pf_sst_q <= '0; pf_sarb_q <= '0; pf_bld_q <= '0; pf_bst_q <= '0;
    end else if (state_q == CIdle && commit) begin
      pf_busy_q <= 32'd1; pf_load_q <= '0; pf_tbusy_q <= '0; pf_bund_q <= '0; pf_sld_q <= '0;
      pf_sst_q <= '0; pf_sarb_q <= '0; pf_bld_q <= '0; pf_bst_q <= '0;
    end else if (state_q != CIdle) begin
      pf_busy_q  <= pf_busy_q + 32'd1;
      pf_load_q  <= pf_load_q + 32'(state_q == CLoad);
      pf_tbusy_q <= pf_tbusy_q + sum_tbusy;
      pf_bund_q  <= pf_bund_q + sum_ret;
      pf_sld_q   <= pf_sld_q + sum_sld;
      pf_sst_q   <= pf_sst_q + sum_sst;
      pf_sarb_q  <= pf_sarb_q + sum_sarb;
      pf_bld_q   <= pf_bld_q + sum_bld;
      pf_bst_q   <= pf_bst_q + sum_bst;
    end
  end

  // ---------------------------------------------------------------- register inputs
  always_comb begin
    hw_in.STATUS.busy.next         = st_busy_q;
    hw_in.STATUS.done.hwset        = set_done;
    hw_in.STATUS.busy_reject.hwset = set_reject;
    hw_in.STATUS.err.next          = st_err_q;
    hw_in.STATUS.err_tpc.next      = st_err_tpc_q;
    hw_in.ERR_PC.pc.next           = st_err_pc_q;
    hw_in.ERR_MASK.tpcs.next       = st_err_mask_q;
    hw_in.INFO.ntpc.next           = 8'(NumTpc);
    hw_in.INFO.dcores.next         = 4'(Dcores);
    hw_in.INFO.imem.next           = 16'(ImemDepth);
    hw_in.PERF_BUSY.val.next       = pf_busy_q;
    hw_in.PERF_LOAD.val.next       = pf_load_q;
    hw_in.PERF_TPC_BUSY.val.next   = pf_tbusy_q;
    hw_in.PERF_BUNDLES.val.next    = pf_bund_q;
    hw_in.PERF_STALL_LD.val.next   = pf_sld_q;
    hw_in.PERF_STALL_ST.val.next   = pf_sst_q;
    hw_in.PERF_STALL_ARB.val.next  = pf_sarb_q;
    hw_in.PERF_BYTES_LD.val.next   = pf_bld_q;
    hw_in.PERF_BYTES_ST.val.next   = pf_bst_q;
  end

  logic unused;
  assign unused = ^{apb_req_i.pprot, f_busy, hw_out.SARG.wr_biten, hw_out.DESC.wr_biten,
                    hw_out.SARG.addr[1:0], hw_out.DESC.addr[1:0], first_id[31:4]};
endmodule
