// Tessera chip top. See docs/architecture.md for the block diagram, the buses
// and the port contract; docs/memory_map.md for the address map.
module tessera_top #(
  parameter              BootromHex = "",   // $readmemh image of the boot ROM
  parameter int unsigned Platform   = 0,    // SYSCTRL.CONFIG0.platform: 0 sim, 1 FPGA
  // channel-side ID bits the fabrics use (at most tessera_bus_pkg::MemIdBits)
  parameter int unsigned HbmIdBits  = tessera_bus_pkg::MemIdBits,   // {master, read slot}: 64 slots up to 8 masters
  parameter int unsigned HostIdBits = tessera_bus_pkg::HostIdBits,  // {DMA engine, read slot}: 32 slots up to 2 engines
  // MME array shape: the configuration's; `make synth` overrides it (4x4) to check the
  // chip's structure quickly (SYNTH_FULL=1 synthesizes the real size)
  parameter int unsigned MmeRows    = tessera_cfg_pkg::MmeRows,
  parameter int unsigned MmeCols    = tessera_cfg_pkg::MmeCols,
  // Gate the clock of idle engines (tessera_clk_gate). FPGA board tops set 0.
  parameter bit          EngClkGate = 1'b1,
  // elements of the NIC stream ports: nic_ports, at least 1 (derived: do not override)
  parameter int unsigned NicPw      = (tessera_cfg_pkg::NicPorts > 0) ? tessera_cfg_pkg::NicPorts : 1
) (
  input  logic clk_i,
  input  logic rst_ni,
  // UART
  output logic uart_tx_o,
  input  logic uart_rx_i,
  // SPI NOR flash (SPI mode 0; docs/spiflash.md)
  output logic flash_sck_o,
  output logic flash_csn_o,
  output logic flash_mosi_o,
  input  logic flash_miso_i,
  // host port (OBI slave)
  input  logic        host_req_i,
  output logic        host_gnt_o,
  input  logic [31:0] host_addr_i,
  input  logic        host_we_i,
  input  logic [3:0]  host_be_i,
  input  logic [31:0] host_wdata_i,
  output logic        host_rvalid_o,
  output logic [31:0] host_rdata_o,
  output logic        host_err_o,
  output logic [tessera_cfg_pkg::NumHostIrqs-1:0] host_irq_o,
  // device-memory channels (AXI4 managers; IDs use the low HbmIdBits)
  // (element c: a tessera_bus_pkg::axi_mem_req_t / axi_mem_rsp_t)
  output logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_bus_pkg::AxiMemReqBits-1:0] hbm_req_o,
  input  logic [tessera_cfg_pkg::HbmChannels-1:0][tessera_bus_pkg::AxiMemRspBits-1:0] hbm_rsp_i,
  // host memory (AXI4 manager): the DMA engines' host port, host<->device copies
  // (HOST window of docs/memory_map.md; host-memory model in simulation; IDs use the
  // low HostIdBits)
  output tessera_bus_pkg::axi_mem_req_t hmem_req_o,
  input  tessera_bus_pkg::axi_mem_rsp_t hmem_rsp_i,
  // NIC ports' MAC client streams (AXI4-Stream, 32 bytes per beat, no FCS; element p is
  // port p; with nic_ports = 0 one element, tied off: outputs 0, inputs ignored)
  output logic [NicPw-1:0]        nic_tx_tvalid_o,
  input  logic [NicPw-1:0]        nic_tx_tready_i,
  output logic [NicPw-1:0][255:0] nic_tx_tdata_o,
  output logic [NicPw-1:0][31:0]  nic_tx_tkeep_o,
  output logic [NicPw-1:0]        nic_tx_tlast_o,
  input  logic [NicPw-1:0]        nic_rx_tvalid_i,
  output logic [NicPw-1:0]        nic_rx_tready_o,
  input  logic [NicPw-1:0][255:0] nic_rx_tdata_i,
  input  logic [NicPw-1:0][31:0]  nic_rx_tkeep_i,
  input  logic [NicPw-1:0]        nic_rx_tlast_i,
  // core retirement trace
  output logic        trace_valid_o,
  output logic [31:0] trace_pc_o,
  output logic [31:0] trace_insn_o
);
  localparam int unsigned Dw = tessera_cfg_pkg::AxiDataBits;

  // the bus types (tessera_bus_pkg) have the configuration's AXI widths
  if (tessera_bus_pkg::AddrBits != tessera_cfg_pkg::AxiAddrBits ||
      tessera_bus_pkg::DataBits != tessera_cfg_pkg::AxiDataBits ||
      tessera_bus_pkg::IdBits   != tessera_cfg_pkg::AxiIdBits) begin : gen_bus_width_check
    $error("tessera_bus_pkg: AXI widths differ from tessera_cfg_pkg (AxiAddrBits/AxiDataBits/AxiIdBits)");
  end

  // ================================================================ core
  // the core's fetch port (read only, to the fetch mux) and data port (system bus master 0)
  tessera_bus_pkg::obi_req_t ifetch_obi_req, cd_obi_req;
  tessera_bus_pkg::obi_rsp_t ifetch_obi_rsp, cd_obi_rsp;
  logic        irq_soft, irq_timer, irq_ext;
  logic        rdbuf_en;   // SYSCTRL.SYSBUS_CTRL.rdbuf -> the system-bus bridge's read buffer

  tessera_core #(
    .BootAddr(tessera_cfg_pkg::BootromBase),
    .HartId  (32'h0)
  ) u_core (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .instr_req_o   (ifetch_obi_req),
    .instr_rsp_i   (ifetch_obi_rsp),
    .data_req_o    (cd_obi_req),
    .data_rsp_i    (cd_obi_rsp),
    .irq_software_i(irq_soft),
    .irq_timer_i   (irq_timer),
    .irq_external_i(irq_ext),
    .trace_valid_o (trace_valid_o),
    .trace_pc_o    (trace_pc_o),
    .trace_insn_o  (trace_insn_o)
  );

  // ================================================================ on-chip memories

  // fetch ports of the memories: 0 ROM, 1 ISRAM, 2 DSRAM
  logic [2:0][tessera_bus_pkg::ObiReqBits-1:0] fetch_req;
  logic [2:0][tessera_bus_pkg::ObiRspBits-1:0] fetch_rsp;

  tessera_imux u_imux (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .obi_req_i(ifetch_obi_req),
    .obi_rsp_o(ifetch_obi_rsp),
    .t_req_o  (fetch_req),
    .t_rsp_i  (fetch_rsp)
  );

  // system-bus slave side: 0 ROM, 1 ISRAM, 2 DSRAM, 3 CSR, 4 HBM (OBI)
  logic [4:0][tessera_bus_pkg::ObiReqBits-1:0] s_req;
  logic [4:0][tessera_bus_pkg::ObiRspBits-1:0] s_rsp;

  // the ROM gets no writes: the system bus answers a write to it with an error
  tessera_rom #(
    .Bytes   (tessera_cfg_pkg::BootromBytes),
    .InitFile(BootromHex)
  ) u_bootrom (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .a_req_i(fetch_req[0]),
    .a_rsp_o(fetch_rsp[0]),
    .b_req_i(s_req[0]),
    .b_rsp_o(s_rsp[0])
  );

  tessera_sram_dp #(.Bytes(tessera_cfg_pkg::IsramBytes)) u_isram (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .a_req_i(fetch_req[1]),
    .a_rsp_o(fetch_rsp[1]),
    .b_req_i(s_req[1]),
    .b_rsp_o(s_rsp[1])
  );

  tessera_sram_dp #(.Bytes(tessera_cfg_pkg::DsramBytes)) u_dsram (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .a_req_i(fetch_req[2]),
    .a_rsp_o(fetch_rsp[2]),
    .b_req_i(s_req[2]),
    .b_rsp_o(s_rsp[2])
  );

  // ================================================================ system bus
  localparam int unsigned NumSysMst = 3;  // 0 core data, 1 host, 2 engine messages
  logic [NumSysMst-1:0][tessera_bus_pkg::ObiReqBits-1:0] m_req;
  logic [NumSysMst-1:0][tessera_bus_pkg::ObiRspBits-1:0] m_rsp;

  // master 0: the core's data port, master 1: the host port (the chip's pins)
  tessera_bus_pkg::obi_req_t host_obi_req;
  tessera_bus_pkg::obi_rsp_t host_obi_rsp;
  `TESSERA_OBI_REQ_FROM_FLAT(host_obi_req, host_, _i, )
  `TESSERA_OBI_FLAT_FROM_RSP(host_, _o, , host_obi_rsp)
  assign m_req[0]   = cd_obi_req;
  assign cd_obi_rsp = m_rsp[0];
  assign m_req[1]     = host_obi_req;
  assign host_obi_rsp = m_rsp[1];

  tessera_sysbus #(.NumMst(NumSysMst)) u_sysbus (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(m_req),
    .slv_rsp_o(m_rsp),
    .mst_req_o(s_req),
    .mst_rsp_i(s_rsp)
  );

  // ================================================================ engine messages
  localparam int unsigned NumMme    = tessera_cfg_pkg::NumMme;

  // ---------------------------------------------------------------- control path: queue list
  // One queue manager per engine queue (docs/control_path.md). Queue q:
  //   0 .. NumMme-1        MME q
  //   QTpc                 TPC cluster
  //   QDma .. QDma+NumDma-1 DMA engine q-QDma
  //   QNic .. QNic+NicPorts-1 NIC port q-QNic (work requests: WR_* registers + WR_DOORBELL)
  // QMAN register slot of each queue: tessera_cfg_pkg::QmanSlot* (config/tessera.toml).
  localparam int unsigned NumDma = tessera_cfg_pkg::DmaEngines;
  localparam int unsigned QTpc   = NumMme;
  localparam int unsigned QDma   = NumMme + 1;
  localparam int unsigned QNic   = NumMme + 1 + NumDma;
  localparam int unsigned NumQ   = NumMme + 1 + NumDma + tessera_cfg_pkg::NicPorts;
  function automatic int unsigned qman_slot(input int unsigned q);
    if (q < QTpc)       qman_slot = tessera_cfg_pkg::QmanSlotMme + q;
    else if (q == QTpc) qman_slot = tessera_cfg_pkg::QmanSlotTpc;
    else if (q < QNic)  qman_slot = tessera_cfg_pkg::QmanSlotDma + (q - QDma);
    else                qman_slot = tessera_cfg_pkg::QmanSlotNic + (q - QNic);
  endfunction

  // message sources: MME i, DMA d, Sync Manager, queue manager q, L2 slice d, TPC cluster,
  // NIC port p (sync-object updates of received WRITEs with immediate, completion messages)
  localparam int unsigned NumL2     = tessera_cfg_pkg::NumL2;
  localparam int unsigned MsgDma    = NumMme;
  localparam int unsigned MsgSm     = NumMme + NumDma;
  localparam int unsigned MsgQm     = MsgSm + 1;
  localparam int unsigned MsgL2     = MsgQm + NumQ;
  localparam int unsigned MsgTpc    = MsgL2 + NumL2;
  localparam int unsigned MsgNic    = MsgTpc + 1;
  localparam int unsigned NumMsgSrc = MsgNic + tessera_cfg_pkg::NicPorts;

  // e_*[q]: the register port of queue q's engine. For an engine, a tessera_apb_mux joins
  // the system-bus slot (master 0) and the queue manager (master 1).
  logic [NumQ-1:0][tessera_bus_pkg::ApbReqBits-1:0] e_req;
  logic [NumQ-1:0][tessera_bus_pkg::ApbRspBits-1:0] e_rsp;
  logic [NumQ-1:0]       e_psel, e_idle;
  // Sync-Manager payload port, and the direct fence increments of the fast path
  logic                  sm_msg_valid, sm_msg_ready;
  logic [31:0]           sm_msg_addr, sm_msg_data;
  logic [NumQ-1:0]       q_fence_inc;
  logic [1:0]            q_fence_idx;
  logic [15:0]           q_fence_val;
  // queue manager APB masters towards their engines, and their selects (the simulator's
  // control-path probe reads q_psel, sim/tessera.vlt)
  logic [NumQ-1:0][tessera_bus_pkg::ApbReqBits-1:0] q_req;
  logic [NumQ-1:0][tessera_bus_pkg::ApbRspBits-1:0] q_rsp;
  logic [NumQ-1:0]                                  q_psel;
  logic                                             unused_q_psel;  // read by the probe only
  assign unused_q_psel = ^q_psel;
  logic [NumMsgSrc-1:0]       msg_valid, msg_ready;
  logic [NumMsgSrc-1:0][31:0] msg_addr, msg_data;
  logic                       msg_err;

  tessera_msg_master #(.NumSrc(NumMsgSrc)) u_msg (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .msg_valid_i (msg_valid),
    .msg_ready_o (msg_ready),
    .msg_addr_i  (msg_addr),
    .msg_data_i  (msg_data),
    .obi_req_o   (m_req[2]),
    .obi_rsp_i   (m_rsp[2]),
    .err_o       (msg_err)
  );

  // ================================================================ CSR space (APB)
  // 0 SYSCTRL, 1 UART, 2 INTC, 3 CLINT, PerMme+i MME i, PerSm SYNCMGR, PerDma+d DMA d,
  // PerQm+q queue manager of queue q (QMAN slot qman_slot(q)), PerL2+d L2 slice d,
  // PerTpc TPC cluster, PerFlash SPI flash controller, PerNic+p NIC port p
  localparam int unsigned PerMme = 4;
  localparam int unsigned PerSm  = PerMme + NumMme;
  localparam int unsigned PerDma = PerSm + 1;
  localparam int unsigned PerQm  = PerDma + NumDma;
  localparam int unsigned PerL2  = PerQm + NumQ;
  localparam int unsigned PerTpc = PerL2 + NumL2;
  localparam int unsigned PerFlash = PerTpc + 1;
  localparam int unsigned PerNic = PerFlash + 1;
  localparam int unsigned NumNic = tessera_cfg_pkg::NicPorts;
  localparam int unsigned NumPer = PerNic + NumNic;

  function automatic logic [NumPer*32-1:0] per_table(input logic want_size);
    per_table = '0;
    per_table[0*32 +: 32] = want_size ? tessera_cfg_pkg::SysctrlSize : tessera_cfg_pkg::SysctrlBase;
    per_table[1*32 +: 32] = want_size ? tessera_cfg_pkg::UartSize    : tessera_cfg_pkg::UartBase;
    per_table[2*32 +: 32] = want_size ? tessera_cfg_pkg::IntcSize    : tessera_cfg_pkg::IntcBase;
    per_table[3*32 +: 32] = want_size ? tessera_cfg_pkg::ClintSize   : tessera_cfg_pkg::ClintBase;
    for (int unsigned i = 0; i < NumMme; i++) begin
      per_table[(PerMme+i)*32 +: 32] = want_size ? tessera_cfg_pkg::MmeStride
                                                 : tessera_cfg_pkg::MmeBase + i * tessera_cfg_pkg::MmeStride;
    end
    per_table[PerSm*32 +: 32] = want_size ? tessera_cfg_pkg::SyncmgrStride : tessera_cfg_pkg::SyncmgrBase;
    for (int unsigned d = 0; d < NumDma; d++) begin
      per_table[(PerDma+d)*32 +: 32] = want_size ? tessera_cfg_pkg::DmaStride
                                                 : tessera_cfg_pkg::DmaBase + d * tessera_cfg_pkg::DmaStride;
    end
    for (int unsigned q = 0; q < NumQ; q++) begin
      per_table[(PerQm+q)*32 +: 32] = want_size ? tessera_cfg_pkg::QmanStride
                                                : tessera_cfg_pkg::QmanBase + qman_slot(q) * tessera_cfg_pkg::QmanStride;
    end
    for (int unsigned d = 0; d < NumL2; d++) begin
      per_table[(PerL2+d)*32 +: 32] = want_size ? tessera_cfg_pkg::L2Stride
                                                : tessera_cfg_pkg::L2Base + d * tessera_cfg_pkg::L2Stride;
    end
    per_table[PerTpc*32 +: 32] = want_size ? tessera_cfg_pkg::TpcSize : tessera_cfg_pkg::TpcBase;
    per_table[PerFlash*32 +: 32] = want_size ? tessera_cfg_pkg::SpiflashSize : tessera_cfg_pkg::SpiflashBase;
    // signed loop variables: no constant comparison when nic_ports = 0 (board shapes)
    for (int p = 0; p < int'(NumNic); p++) begin
      per_table[(PerNic+p)*32 +: 32] = want_size ? tessera_cfg_pkg::NicStride
                                                 : tessera_cfg_pkg::NicBase + p * tessera_cfg_pkg::NicStride;
    end
  endfunction
  localparam logic [NumPer*32-1:0] PerBase = per_table(1'b0);
  localparam logic [NumPer*32-1:0] PerSize = per_table(1'b1);

  // per_req[p]/per_rsp[p]: the register port of peripheral p; psel[p] its select (the
  // clock gates below watch it)
  logic [NumPer-1:0][tessera_bus_pkg::ApbReqBits-1:0] per_req;
  logic [NumPer-1:0][tessera_bus_pkg::ApbRspBits-1:0] per_rsp;
  logic [NumPer-1:0]                                  psel;
  for (genvar p = 0; p < NumPer; p++) begin : g_psel
    tessera_bus_pkg::apb_req_t req;
    logic                      unused_req;
    assign req        = per_req[p];
    assign psel[p]    = req.psel;
    assign unused_req = ^req;
  end

  tessera_obi2apb #(
    .NumPer (NumPer),
    .PerBase(PerBase),
    .PerSize(PerSize)
  ) u_apb (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .obi_req_i(s_req[3]),
    .obi_rsp_o(s_rsp[3]),
    .apb_req_o(per_req),
    .apb_rsp_i(per_rsp)
  );

  tessera_sysctrl #(.Platform(Platform)) u_sysctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[0]),
    .apb_rsp_o    (per_rsp[0]),
    .rdbuf_en_o   (rdbuf_en)
  );

  logic uart_irq;
  tessera_uart u_uart (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[1]),
    .apb_rsp_o    (per_rsp[1]),
    .tx_o         (uart_tx_o),
    .rx_i         (uart_rx_i),
    .irq_o        (uart_irq)
  );

  logic flash_irq;
  tessera_spiflash u_spiflash (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[PerFlash]),
    .apb_rsp_o    (per_rsp[PerFlash]),
    .sck_o        (flash_sck_o),
    .csn_o        (flash_csn_o),
    .mosi_o       (flash_mosi_o),
    .miso_i       (flash_miso_i),
    .irq_o        (flash_irq)
  );

  // a failed engine message write is latched (interrupt source 20) until reset
  logic msg_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      msg_err_q <= 1'b0;
    else if (msg_err) msg_err_q <= 1'b1;
  end

  // interrupt sources (docs/interrupts.md)
  logic [23:0] irq_src;
  logic        host_irq;
  logic [NumMme-1:0] mme_irq;
  logic [NumDma-1:0] dma_irq;
  logic [NumQ-1:0]   qm_irq;
  logic              sm_irq;
  logic [NumL2-1:0]  l2_irq;
  logic              tpc_irq;
  logic [NicPw-1:0]  nic_irq;
  always_comb begin
    irq_src     = '0;
    irq_src[0]  = uart_irq;
    for (int unsigned i = 0; i < NumMme; i++) irq_src[1+i] = mme_irq[i];
    irq_src[5]  = tpc_irq;
    for (int unsigned d = 0; d < NumDma; d++) irq_src[6+d] = dma_irq[d];
    irq_src[10] = sm_irq;
    irq_src[11] = |qm_irq;
    for (int unsigned d = 0; d < NumL2; d++) irq_src[12+d] = l2_irq[d];
    for (int p = 0; p < int'(NumNic); p++) irq_src[16+p] = nic_irq[p];
    irq_src[20] = msg_err_q;
    irq_src[21] = flash_irq;
  end

  tessera_intc u_intc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[2]),
    .apb_rsp_o    (per_rsp[2]),
    .src_i        (irq_src),
    .core_irq_o   (irq_ext),
    .host_irq_o   (host_irq)
  );
  assign host_irq_o = {tessera_cfg_pkg::NumHostIrqs{host_irq}};

  tessera_clint u_clint (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[3]),
    .apb_rsp_o    (per_rsp[3]),
    .timer_irq_o  (irq_timer),
    .soft_irq_o   (irq_soft)
  );

  // ================================================================ memory fabric (AXI4)
  // 0 system-bus bridge, AxL2+d L2 slice d (the MMEs and DMA engines are behind their
  // DCORE's slice), AxQf the queue managers' fetch port, AxL2R+d slice d's second,
  // read-only master (read-ahead refills; with l2_rd_masters = 2)
  localparam int unsigned L2RdM     = tessera_cfg_pkg::L2RdMasters;
  localparam int unsigned AxL2      = 1;
  localparam int unsigned AxQf      = AxL2 + NumL2;
  localparam int unsigned AxL2R     = AxQf + 1;
  localparam int unsigned NumAxiMst = AxL2R + ((L2RdM == 2) ? NumL2 : 0);
  localparam int unsigned Iw = tessera_cfg_pkg::AxiIdBits;

  logic [NumAxiMst-1:0][Iw-1:0]   ax_awid, ax_bid, ax_arid, ax_rid;
  logic [NumAxiMst-1:0][31:0]     ax_awaddr, ax_araddr;
  logic [NumAxiMst-1:0][7:0]      ax_awlen, ax_arlen;
  logic [NumAxiMst-1:0][2:0]      ax_awsize, ax_arsize, ax_awprot, ax_arprot;
  logic [NumAxiMst-1:0][1:0]      ax_awburst, ax_arburst, ax_bresp, ax_rresp;
  logic [NumAxiMst-1:0][3:0]      ax_awcache, ax_arcache, ax_awqos, ax_arqos;
  logic [NumAxiMst-1:0]           ax_awvalid, ax_awready, ax_wlast, ax_wvalid, ax_wready;
  logic [NumAxiMst-1:0]           ax_bvalid, ax_bready, ax_arvalid, ax_arready;
  logic [NumAxiMst-1:0]           ax_rlast, ax_rvalid, ax_rready;
  logic [NumAxiMst-1:0][Dw-1:0]   ax_wdata, ax_rdata;
  logic [NumAxiMst-1:0][Dw/8-1:0] ax_wstrb;

  // the bridge is fabric master 0 (packed with the other masters' flat signals below)
  tessera_bus_pkg::axi_req_t obi_axi_req;
  tessera_bus_pkg::axi_rsp_t obi_axi_rsp;
  tessera_obi2axi u_obi2axi (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .obi_req_i   (s_req[4]),
    .obi_rsp_o   (s_rsp[4]),
    .rdbuf_en_i  (rdbuf_en),
    .mst_req_o   (obi_axi_req),
    .mst_rsp_i   (obi_axi_rsp)
  );
  `TESSERA_AXI_FLAT_FROM_REQ(ax_, , [0], obi_axi_req)
  `TESSERA_AXI_RSP_FROM_FLAT(obi_axi_rsp, ax_, , [0])
  logic unused_obi_axi;
  assign unused_obi_axi = ^{obi_axi_req.aw.user, obi_axi_req.w.user, obi_axi_req.ar.user};


  // ================================================================ L2 slices
  // -------- begin L2 section: one tessera_l2 per DCORE (docs/l2.md "Integration").
  // Upstream port u = d * L2Ports + p of the cluster is port p of DCORE d:
  //   p = 0 the DCORE's MME (A panels, init tiles, C writes), p = 1 its TPCs,
  //   p = 2 its DMA engine (engine d), p = 3 the MME's port B (B panels, odd C rows),
  //   p = 3 + q (q >= 1) the TPC cluster's master q of the DCORE (tpc_ports_per_dcore),
  //   p = L2PNic + k NIC port d + k * NumL2 (NIC section; NicL2 ports per slice, none
  //   without a NIC; a slot past the last NIC port is tied off).
  // The TPC cluster's DCORE-d master q drives port 1 (q = 0) or 3 + q (TPC cluster
  // section below). Slice d's memory master is fabric master AxL2 + d.
  localparam int unsigned TpcPorts = tessera_cfg_pkg::TpcPortsPerDcore;
  localparam int unsigned NicL2   = (NumNic + NumL2 - 1) / NumL2;
  localparam int unsigned L2Ports = 3 + TpcPorts + NicL2;
  localparam int unsigned L2PMme  = 0;
  localparam int unsigned L2PTpc  = 1;
  localparam int unsigned L2PDma  = 2;
  localparam int unsigned L2PMmeB = 3;
  localparam int unsigned L2PNic  = 3 + TpcPorts;
  localparam int unsigned NumL2U  = NumL2 * L2Ports;
  if (tessera_cfg_pkg::MmePerDcore != 1 || NumMme != NumL2 || NumDma != NumL2) begin : g_bad_l2_ports
    $error("tessera_top: one MME and one DMA engine per DCORE assumed by the L2 ports");
  end

  logic [NumL2U-1:0][Iw-1:0]   l2u_awid, l2u_bid, l2u_arid, l2u_rid;
  logic [NumL2U-1:0][31:0]     l2u_awaddr, l2u_araddr;
  logic [NumL2U-1:0][7:0]      l2u_awlen, l2u_arlen;
  logic [NumL2U-1:0][2:0]      l2u_awsize, l2u_arsize, l2u_awprot, l2u_arprot;
  logic [NumL2U-1:0][1:0]      l2u_awburst, l2u_arburst, l2u_bresp, l2u_rresp;
  logic [NumL2U-1:0][3:0]      l2u_awcache, l2u_arcache, l2u_awqos, l2u_arqos;
  logic [NumL2U-1:0]           l2u_awvalid, l2u_awready, l2u_wlast, l2u_wvalid, l2u_wready;
  logic [NumL2U-1:0]           l2u_bvalid, l2u_bready, l2u_arvalid, l2u_arready;
  logic [NumL2U-1:0]           l2u_rlast, l2u_rvalid, l2u_rready;
  logic [NumL2U-1:0][Dw-1:0]   l2u_wdata, l2u_rdata;
  logic [NumL2U-1:0][Dw/8-1:0] l2u_wstrb;

  // Clock of the L2 (slices and routers): gated like an engine's (see g_mme). It runs while
  // a slice has work of its own (idle_o low: a burst, miss, refill, write-back, read-ahead
  // or maintenance in progress) and whenever something asks for it: a register access, a
  // maintenance message, a valid on an upstream port (engines) or on a slice's memory
  // master. An idle L2 holds no response and no request, so nothing else can move it.
  // The clock runs two more cycles after the last such cycle (Hold): what a last
  // transfer or register write leaves for the next edges (a status or single-pulse
  // register field, a done pulse into its sticky bit) then lands as in the ungated chip.
  logic l2_clk, l2_clk_en, l2_idle;
  // the slices' second, read-only masters (tied off with l2_rd_masters = 1)
  logic [NumL2-1:0][tessera_bus_pkg::AxiAxBits-1:0] l2r_ar;
  logic [NumL2-1:0][tessera_bus_pkg::AxiRBits-1:0]  l2r_r;
  logic [NumL2-1:0]                                 l2r_ar_valid, l2r_ar_ready;
  logic [NumL2-1:0]                                 l2r_r_valid, l2r_r_ready;
  logic [NumL2-1:0]                                  l2r_busy;   // AR or R valid
  // the upstream ports (flat l2u_*: the simulator's AXI statistics probe them) and the
  // slices' memory masters (flat ax_*[AxL2 + d], likewise) as bus structs
  logic [NumL2U-1:0][tessera_bus_pkg::AxiReqBits-1:0] l2u_req;
  logic [NumL2U-1:0][tessera_bus_pkg::AxiRspBits-1:0] l2u_rsp;
  logic [NumL2-1:0][tessera_bus_pkg::AxiReqBits-1:0]  l2m_req;
  logic [NumL2-1:0][tessera_bus_pkg::AxiRspBits-1:0]  l2m_rsp;
  for (genvar u = 0; u < NumL2U; u++) begin : g_l2u_bus
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_user;
    `TESSERA_AXI_REQ_FROM_FLAT(req, l2u_, , [u])
    assign l2u_req[u]  = req;
    assign rsp         = l2u_rsp[u];
    `TESSERA_AXI_FLAT_FROM_RSP(l2u_, , [u], rsp)
    assign unused_user = ^{rsp.b.user, rsp.r.user};
  end
  for (genvar d = 0; d < NumL2; d++) begin : g_l2m_bus
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_user;
    assign req = l2m_req[d];
    `TESSERA_AXI_FLAT_FROM_REQ(ax_, , [AxL2 + d], req)
    `TESSERA_AXI_RSP_FROM_FLAT(rsp, ax_, , [AxL2 + d])
    assign l2m_rsp[d]  = rsp;
    assign unused_user = ^{req.aw.user, req.w.user, req.ar.user};
  end
  assign l2_clk_en = !rst_ni || !l2_idle || (|psel[PerL2 +: NumL2]) || (|msg_valid[MsgL2 +: NumL2])
                     || (|l2u_awvalid) || (|l2u_wvalid) || (|l2u_arvalid)
                     || (|l2u_bvalid) || (|l2u_rvalid)
                     || (|ax_awvalid[AxL2 +: NumL2]) || (|ax_wvalid[AxL2 +: NumL2])
                     || (|ax_arvalid[AxL2 +: NumL2]) || (|ax_bvalid[AxL2 +: NumL2])
                     || (|ax_rvalid[AxL2 +: NumL2]) || (|l2r_busy);
  tessera_clk_gate #(.Enable(EngClkGate), .Hold(2)) u_l2_cg (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .en_i     (l2_clk_en),
    .test_en_i(1'b0),
    .clk_o    (l2_clk)
  );
  tessera_l2_cluster #(
    .NumSlices(NumL2),
    .NumPorts (L2Ports),
    .SizeBytes(tessera_cfg_pkg::L2BytesPerDcore),
    .Ways     (tessera_cfg_pkg::L2Ways),
    .NumBanks (tessera_cfg_pkg::L2Banks),
    .LineBytes(tessera_cfg_pkg::L2LineBytes),
    .DataBits (Dw),
    .IdBits   (Iw),
    .MIdBits  (Iw),
    .ArDepth  (tessera_cfg_pkg::L2RdBursts),
    .BqDepth  (tessera_cfg_pkg::L2WrBresps),
    .RdMasters(L2RdM),
    .MemBase  (tessera_cfg_pkg::HbmBase),
    .MemSize  (tessera_cfg_pkg::HbmSize)
  ) u_l2 (
    .clk_i          (l2_clk),
    .rst_ni         (rst_ni),
    .slv_req_i      (l2u_req),
    .slv_rsp_o      (l2u_rsp),
    .mst_req_o      (l2m_req),
    .mst_rsp_i      (l2m_rsp),
    .mst1_ar_o      (l2r_ar),
    .mst1_ar_valid_o(l2r_ar_valid),
    .mst1_ar_ready_i(l2r_ar_ready),
    .mst1_r_i       (l2r_r),
    .mst1_r_valid_i (l2r_r_valid),
    .mst1_r_ready_o (l2r_r_ready),
    .apb_req_i      (per_req[PerL2 +: NumL2]),
    .apb_rsp_o      (per_rsp[PerL2 +: NumL2]),
    .irq_o          (l2_irq),
    .msg_valid_o    (msg_valid[MsgL2 +: NumL2]),
    .msg_ready_i    (msg_ready[MsgL2 +: NumL2]),
    .msg_addr_o     (msg_addr[MsgL2 +: NumL2]),
    .msg_data_o     (msg_data[MsgL2 +: NumL2]),
    .idle_o         (l2_idle)
  );
  for (genvar d = 0; d < NumL2; d++) begin : g_l2r
    tessera_bus_pkg::axi_ax_chan_t ar;
    tessera_bus_pkg::axi_r_chan_t  r;
    assign ar          = l2r_ar[d];
    assign l2r_r[d]    = r;
    assign l2r_busy[d] = l2r_ar_valid[d] || l2r_r_valid[d];
    if (L2RdM == 2) begin : g_rd1
      // fabric master AxL2R + d, read only: AR and R; the AW, W and B signals are constants
      localparam int unsigned M = AxL2R + d;
      logic unused_m;
      assign ax_arid[M]      = ar.id;
      assign ax_araddr[M]    = ar.addr;
      assign ax_arlen[M]     = ar.len;
      assign ax_arsize[M]    = ar.size;
      assign ax_arburst[M]   = ar.burst;
      assign ax_arcache[M]   = ar.cache;
      assign ax_arprot[M]    = ar.prot;
      assign ax_arqos[M]     = ar.qos;
      assign ax_arvalid[M]   = l2r_ar_valid[d];
      assign l2r_ar_ready[d] = ax_arready[M];
      assign r.id            = ax_rid[M];
      assign r.data          = ax_rdata[M];
      assign r.resp          = ax_rresp[M];
      assign r.last          = ax_rlast[M];
      assign r.user          = '0;
      assign l2r_r_valid[d]  = ax_rvalid[M];
      assign ax_rready[M]    = l2r_r_ready[d];
      assign ax_awid[M]      = '0;
      assign ax_awaddr[M]    = '0;
      assign ax_awlen[M]     = '0;
      assign ax_awsize[M]    = '0;
      assign ax_awburst[M]   = '0;
      assign ax_awcache[M]   = '0;
      assign ax_awprot[M]    = '0;
      assign ax_awqos[M]     = '0;
      assign ax_awvalid[M]   = 1'b0;
      assign ax_wdata[M]     = '0;
      assign ax_wstrb[M]     = '0;
      assign ax_wlast[M]     = 1'b0;
      assign ax_wvalid[M]    = 1'b0;
      assign ax_bready[M]    = 1'b1;
      assign unused_m        = ^{ar.user, ax_awready[M], ax_wready[M], ax_bid[M], ax_bresp[M],
                                 ax_bvalid[M]};
    end else begin : g_no_rd1
      logic unused_ar;
      assign r               = '0;
      assign l2r_ar_ready[d] = 1'b0;
      assign l2r_r_valid[d]  = 1'b0;
      assign unused_ar       = ^{ar, l2r_r_ready[d]};
    end
  end
  // -------- end L2 section

  // ================================================================ MMEs
  for (genvar i = 0; i < NumMme; i++) begin : g_mme
    // ports A and B: upstream ports UA, UB of the L2 cluster (through the flat l2u_*
    // signals, which the simulator's AXI statistics probe)
    localparam int unsigned UA = i * L2Ports + L2PMme;
    localparam int unsigned UB = i * L2Ports + L2PMmeB;
    tessera_bus_pkg::apb_req_t apb_req;
    tessera_bus_pkg::apb_rsp_t apb_rsp;
    tessera_bus_pkg::axi_req_t a_req, b_req;
    tessera_bus_pkg::axi_rsp_t a_rsp, b_rsp;
    logic                      unused_user;
    assign apb_req  = e_req[i];
    assign e_rsp[i] = apb_rsp;
    `TESSERA_AXI_FLAT_FROM_REQ(l2u_, , [UA], a_req)
    `TESSERA_AXI_RSP_FROM_FLAT(a_rsp, l2u_, , [UA])
    `TESSERA_AXI_FLAT_FROM_REQ(l2u_, , [UB], b_req)
    `TESSERA_AXI_RSP_FROM_FLAT(b_rsp, l2u_, , [UB])
    assign unused_user = ^{a_req.aw.user, a_req.w.user, a_req.ar.user,
                           b_req.aw.user, b_req.w.user, b_req.ar.user};
    // The MME's clock runs while it works and whenever something asks for it:
    // a register access, a message or an AXI transfer in flight on its port.
    // An idle MME holds no transaction open (idle_o), so nothing else can move it.
    logic mme_clk, mme_clk_en;
    assign mme_clk_en = !rst_ni || !e_idle[i] || e_psel[i] || msg_valid[i]
                        || l2u_awvalid[i*L2Ports+L2PMme] || l2u_wvalid[i*L2Ports+L2PMme]
                        || l2u_arvalid[i*L2Ports+L2PMme] || l2u_bvalid[i*L2Ports+L2PMme]
                        || l2u_rvalid[i*L2Ports+L2PMme]
                        || l2u_awvalid[i*L2Ports+L2PMmeB] || l2u_wvalid[i*L2Ports+L2PMmeB]
                        || l2u_arvalid[i*L2Ports+L2PMmeB] || l2u_bvalid[i*L2Ports+L2PMmeB]
                        || l2u_rvalid[i*L2Ports+L2PMmeB];
    tessera_clk_gate #(.Enable(EngClkGate)) u_mme_cg (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .en_i     (mme_clk_en),
      .test_en_i(1'b0),
      .clk_o    (mme_clk)
    );
    tessera_mme #(
      .Rows       (MmeRows),
      .Cols       (MmeCols),
      .AxiIdBits  (Iw),
      .MemBase    (tessera_cfg_pkg::HbmBase),
      .MemSize    (tessera_cfg_pkg::HbmSize)
    ) u_mme (
      .clk_i          (mme_clk),
      .rst_ni         (rst_ni),
      // registers: behind the APB mux shared with queue manager i (control path section)
      .apb_req_i      (apb_req),
      .apb_rsp_o      (apb_rsp),
      .mst_req_o      (a_req),
      .mst_rsp_i      (a_rsp),
      .mstb_req_o     (b_req),
      .mstb_rsp_i     (b_rsp),
      .msg_valid_o    (msg_valid[i]),
      .msg_ready_i    (msg_ready[i]),
      .msg_addr_o     (msg_addr[i]),
      .msg_data_o     (msg_data[i]),
      .idle_o         (e_idle[i]),
      .irq_o          (mme_irq[i])
    );
  end

  // ================================================================ control path
  // Sync Manager, DMA engines, one queue manager per engine queue (queue list above),
  // the APB muxes that let a queue manager write its engine's registers, and the
  // queue managers' merged command-buffer fetch port. docs/control_path.md.

  // ---------------------------------------------------------------- Sync Manager
  tessera_syncmgr #(
    .NumSobs(tessera_cfg_pkg::SyncObjects),
    .NumMons(tessera_cfg_pkg::SyncMonitors)
  ) u_syncmgr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .apb_req_i    (per_req[PerSm]),
    .apb_rsp_o    (per_rsp[PerSm]),
    .msg_valid_o  (sm_msg_valid),
    .msg_ready_i  (sm_msg_ready),
    .msg_addr_o   (sm_msg_addr),
    .msg_data_o   (sm_msg_data),
    .msg_err_i    (1'b0),  // the message master's error is not attributed to a source
    .irq_o        (sm_irq)
  );

  // ---------------------------------------------------------------- fence fast path
  // A Sync-Manager payload addressed to a queue manager's FENCE[n] register is applied
  // to that queue directly (fence_inc_i) in the cycle it is offered, instead of as a
  // system-bus write: the same effect, without the message master, the system bus and
  // the APB bridge on the monitor -> waiting engine path. Payloads stay in order: the
  // fast path waits while an earlier payload of the Sync Manager is on the system bus.
  // FENCE[0..3] are the last four words of the qman register map (qman.rdl).
  localparam logic [31:0] QmFenceOff = 32'(qman_reg_pkg::QMAN_REG_TOP_SIZE) - 32'd16;
  logic [NumQ-1:0] sm_fence_hit;
  logic            sm_to_fence, sm_bus_pend_q;
  always_comb begin
    for (int unsigned q = 0; q < NumQ; q++) begin
      sm_fence_hit[q] = (sm_msg_addr[31:4] == 28'((tessera_cfg_pkg::QmanBase +
                          qman_slot(q) * tessera_cfg_pkg::QmanStride + QmFenceOff) >> 4));
    end
  end
  assign sm_to_fence       = |sm_fence_hit;
  assign msg_valid[MsgSm]  = sm_msg_valid && !sm_to_fence;
  assign msg_addr[MsgSm]   = sm_msg_addr;
  assign msg_data[MsgSm]   = sm_msg_data;
  assign sm_msg_ready      = sm_to_fence ? !sm_bus_pend_q : msg_ready[MsgSm];
  for (genvar q = 0; q < NumQ; q++) begin : g_fence_inc
    assign q_fence_inc[q] = sm_msg_valid && sm_fence_hit[q] && !sm_bus_pend_q;
  end
  assign q_fence_idx = sm_msg_addr[3:2];
  assign q_fence_val = sm_msg_data[15:0];
  // a Sync-Manager write accepted by the message master is on the bus until the master's
  // next response (one write outstanding, responses in order)
  tessera_bus_pkg::obi_rsp_t msg_obi_rsp;
  logic                      unused_msg_obi_rsp;
  assign msg_obi_rsp        = m_rsp[2];
  assign unused_msg_obi_rsp = ^msg_obi_rsp;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sm_bus_pend_q <= 1'b0;
    end else if (msg_valid[MsgSm] && msg_ready[MsgSm]) begin
      sm_bus_pend_q <= 1'b1;
    end else if (msg_obi_rsp.rvalid) begin
      sm_bus_pend_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- engine register ports
  for (genvar q = 0; q < NumQ; q++) begin : g_eng_apb
    begin : g_mux
      localparam int unsigned Per = (q < QTpc) ? PerMme + q : (q == QTpc) ? PerTpc :
                                    (q < QNic) ? PerDma + (q - QDma) : PerNic + (q - QNic);
      // master 0 the system bus (per_*[Per]), master 1 the queue manager (q_*[q])
      tessera_bus_pkg::apb_req_t e_apb;
      logic                      unused_e_apb;
      tessera_apb_mux u_apb_mux (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .slv_req_i({q_req[q], per_req[Per]}),
        .slv_rsp_o({q_rsp[q], per_rsp[Per]}),
        .mst_req_o(e_req[q]),
        .mst_rsp_i(e_rsp[q])
      );
      assign e_apb        = e_req[q];
      assign e_psel[q]    = e_apb.psel;
      assign unused_e_apb = ^e_apb;
    end
  end

  // ---------------------------------------------------------------- DMA engines
  // DMA engine d belongs to DCORE d: its memory port is port 2 of the DCORE's L2 slice
  // (L2 section above); its host port is master d of the host-port fabric (below).
  // the engines' host ports, masters of the host-port fabric (below)
  logic [NumDma-1:0][tessera_bus_pkg::AxiReqBits-1:0] dh_req;
  logic [NumDma-1:0][tessera_bus_pkg::AxiRspBits-1:0] dh_rsp;
  for (genvar d = 0; d < NumDma; d++) begin : g_dma
    localparam int unsigned Q = QDma + d;
    localparam int unsigned U = d * L2Ports + L2PDma;
    // The engine's clock is gated like an MME's (see g_mme): it runs while a transfer is
    // latched or running and whenever something asks for it (register access, message, a
    // valid on its L2 port or its host port). An idle engine holds no transaction open.
    // Two more cycles after the last such cycle, as for the L2 (above).
    // memory port: upstream port U of the L2 cluster (through the flat l2u_* signals,
    // which the simulator's AXI statistics probe); host port: master d of the host fabric
    tessera_bus_pkg::apb_req_t apb_req;
    tessera_bus_pkg::apb_rsp_t apb_rsp;
    tessera_bus_pkg::axi_req_t mem_req, host_req;
    tessera_bus_pkg::axi_rsp_t mem_rsp, host_rsp;
    logic                      unused_user;
    assign apb_req  = e_req[Q];
    assign e_rsp[Q] = apb_rsp;
    `TESSERA_AXI_FLAT_FROM_REQ(l2u_, , [U], mem_req)
    `TESSERA_AXI_RSP_FROM_FLAT(mem_rsp, l2u_, , [U])
    assign unused_user = ^{mem_req.aw.user, mem_req.w.user, mem_req.ar.user};
    assign dh_req[d] = host_req;
    assign host_rsp  = dh_rsp[d];
    logic dma_clk, dma_clk_en;
    assign dma_clk_en = !rst_ni || !e_idle[Q] || e_psel[Q] || msg_valid[MsgDma+d]
                        || l2u_awvalid[U] || l2u_wvalid[U] || l2u_arvalid[U]
                        || l2u_bvalid[U] || l2u_rvalid[U]
                        || host_req.aw_valid || host_req.w_valid || host_req.ar_valid
                        || host_rsp.b_valid || host_rsp.r_valid;
    tessera_clk_gate #(.Enable(EngClkGate), .Hold(2)) u_dma_cg (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .en_i     (dma_clk_en),
      .test_en_i(1'b0),
      .clk_o    (dma_clk)
    );
    tessera_dma #(
      .IdBits (Iw),
      .MemBase(tessera_cfg_pkg::HbmBase),
      .MemSize(tessera_cfg_pkg::HbmSize)
    ) u_dma (
      .clk_i          (dma_clk),
      .rst_ni         (rst_ni),
      .apb_req_i      (apb_req),
      .apb_rsp_o      (apb_rsp),
      .mst_req_o      (mem_req),
      .mst_rsp_i      (mem_rsp),
      .host_req_o     (host_req),
      .host_rsp_i     (host_rsp),
      .msg_valid_o    (msg_valid[MsgDma+d]),
      .msg_ready_i    (msg_ready[MsgDma+d]),
      .msg_addr_o     (msg_addr[MsgDma+d]),
      .msg_data_o     (msg_data[MsgDma+d]),
      .idle_o         (e_idle[Q]),
      .irq_o          (dma_irq[d])
    );
  end

  // ---------------------------------------------------------------- host port
  // The DMA engines' host ports share the chip's host AXI master through a one-channel
  // instance of the memory fabric: round-robin AR/AW, W in AW order, each engine's R and
  // B in its own order, DECERR (never a hang) for a burst outside the host window.
  // 128 read beats per engine may be in flight: a 200-cycle host round trip at the
  // host link's rate needs ~100.
  tessera_axi_xbar #(
    .NumMst         (NumDma),
    .NumSlv         (1),
    .IdBits         (Iw),
    .SlvIdBits      (HostIdBits),
    .InterleaveBytes(256),
    .MemBase        (tessera_cfg_pkg::HostBase),
    .MemSize        (tessera_cfg_pkg::HostSize),
    .ReorderBeats   (128)
  ) u_host_xbar (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(dh_req),
    .slv_rsp_o(dh_rsp),
    .mst_req_o(hmem_req_o),
    .mst_rsp_i(hmem_rsp_i)
  );

  // ---------------------------------------------------------------- queue managers
  // the queue managers' command-buffer fetch ports (read only), joined by u_qman_fetch
  logic [NumQ-1:0][tessera_bus_pkg::AxiReqBits-1:0] qf_req;
  logic [NumQ-1:0][tessera_bus_pkg::AxiRspBits-1:0] qf_rsp;

  logic [NumQ-1:0] qm_idle;
  for (genvar q = 0; q < NumQ; q++) begin : g_qman
    // Each queue manager's clock is gated like a DMA engine's: it runs while a command
    // buffer executes or a fetch, register access or message is pending, and whenever an
    // input asks for it (its registers selected, a Sync-Manager fence increment, a fetch
    // read beat). Two more cycles after the last such cycle, as for the L2 and the DMAs.
    logic qm_clk, qm_clk_en;
    tessera_bus_pkg::apb_req_t apb_req, eng_req;
    tessera_bus_pkg::apb_rsp_t apb_rsp, eng_rsp;
    tessera_bus_pkg::axi_req_t cbf_req;
    tessera_bus_pkg::axi_rsp_t cbf_rsp;
    assign apb_req            = per_req[PerQm+q];
    assign per_rsp[PerQm+q]   = apb_rsp;
    // engine register writes go to the engine's APB mux (g_eng_apb)
    assign q_req[q]  = eng_req;
    assign eng_rsp   = q_rsp[q];
    assign q_psel[q] = eng_req.psel;
    assign qf_req[q]  = cbf_req;
    assign cbf_rsp  = qf_rsp[q];
    assign qm_clk_en = !rst_ni || !qm_idle[q] || psel[PerQm+q] || q_fence_inc[q] || cbf_rsp.r_valid;
    tessera_clk_gate #(.Enable(EngClkGate), .Hold(2)) u_qm_cg (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .en_i     (qm_clk_en),
      .test_en_i(1'b0),
      .clk_o    (qm_clk)
    );
    tessera_qman #(
      .IdBits (Iw),
      .NumSobs(tessera_cfg_pkg::SyncObjects),
      .MemBase(tessera_cfg_pkg::HbmBase),
      .MemSize(tessera_cfg_pkg::HbmSize),
      .AxiId  (4'(q))  // routes its read data back through tessera_qman_fetch_arb
    ) u_qman (
      .clk_i          (qm_clk),
      .rst_ni         (rst_ni),
      .apb_req_i      (apb_req),
      .apb_rsp_o      (apb_rsp),
      .mst_req_o      (cbf_req),
      .mst_rsp_i      (cbf_rsp),
      .eng_req_o      (eng_req),
      .eng_rsp_i      (eng_rsp),
      .msg_valid_o    (msg_valid[MsgQm+q]),
      .msg_ready_i    (msg_ready[MsgQm+q]),
      .msg_addr_o     (msg_addr[MsgQm+q]),
      .msg_data_o     (msg_data[MsgQm+q]),
      .engine_idle_i  (e_idle[q]),
      .fence_inc_i    (q_fence_inc[q]),
      .fence_inc_idx_i(q_fence_idx),
      .fence_inc_val_i(q_fence_val),
      .irq_o          (qm_irq[q]),
      .idle_o         (qm_idle[q])
    );
  end

  // all command-buffer fetches share one fabric master (read only)
  tessera_bus_pkg::axi_req_t qf_mst_req;
  tessera_bus_pkg::axi_rsp_t qf_mst_rsp;
  tessera_qman_fetch_arb #(
    .NumPorts(NumQ)
  ) u_qman_fetch (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(qf_req),
    .slv_rsp_o(qf_rsp),
    .mst_req_o(qf_mst_req),
    .mst_rsp_i(qf_mst_rsp)
  );
  `TESSERA_AXI_FLAT_FROM_REQ(ax_, , [AxQf], qf_mst_req)
  `TESSERA_AXI_RSP_FROM_FLAT(qf_mst_rsp, ax_, , [AxQf])
  logic unused_qf_user;
  assign unused_qf_user = ^{qf_mst_req.aw.user, qf_mst_req.w.user, qf_mst_req.ar.user};
  // ================================================================ end of control path

  // ================================================================ TPC cluster
  // Registers: TPC region, behind its queue manager's APB mux (e_*[QTpc], control path
  // above); DCORE d's AXI master q (of TpcPorts) is port 1 (q = 0) or 3 + q of DCORE d's
  // L2 slice (L2 section; allocation hints and classes from the cluster's CACHE register);
  // INTC source 5; completion
  // message source MsgTpc. docs/tpc_rtl.md ("Cluster", "In the chip").
  localparam int unsigned Dc = tessera_cfg_pkg::Dcores;
  if (Dc != NumL2) begin : g_bad_tpc_ports
    $error("tessera_top: one L2 slice per DCORE assumed by the TPC masters");
  end
  localparam int unsigned TpM = Dc * TpcPorts;   // cluster masters (d * TpcPorts + q)
  logic [TpM-1:0][tessera_bus_pkg::AxiReqBits-1:0] tp_req;
  logic [TpM-1:0][tessera_bus_pkg::AxiRspBits-1:0] tp_rsp;
  logic [TpM-1:0]                                  tp_busy;   // a valid on the master's port
  tessera_bus_pkg::apb_req_t                       tp_apb_req;
  tessera_bus_pkg::apb_rsp_t                       tp_apb_rsp;
  assign tp_apb_req  = e_req[QTpc];
  assign e_rsp[QTpc] = tp_apb_rsp;

  // Clock of the cluster: gated like an MME's (see g_mme): it runs while a launch is
  // latched or running and whenever something asks for it (register access, message,
  // AXI transfer in flight on one of its DCORE ports).
  logic tpc_clk, tpc_clk_en;
  assign tpc_clk_en = !rst_ni || !e_idle[QTpc] || e_psel[QTpc] || msg_valid[MsgTpc]
                      || (|tp_busy);
  tessera_clk_gate #(.Enable(EngClkGate)) u_tpc_cg (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .en_i     (tpc_clk_en),
    .test_en_i(1'b0),
    .clk_o    (tpc_clk)
  );
  tessera_tpc_cluster #(
    .Dcores     (Dc),
    .TpcPerDcore(tessera_cfg_pkg::TpcPerDcore),
    .IdBits     (Iw),
    .MemBase    (tessera_cfg_pkg::HbmBase),
    .MemSize    ({1'b0, tessera_cfg_pkg::HbmSize})
  ) u_tpc (
    .clk_i          (tpc_clk),
    .rst_ni         (rst_ni),
    .apb_req_i      (tp_apb_req),
    .apb_rsp_o      (tp_apb_rsp),
    .mst_req_o      (tp_req),
    .mst_rsp_i      (tp_rsp),
    .msg_valid_o    (msg_valid[MsgTpc]),
    .msg_ready_i    (msg_ready[MsgTpc]),
    .msg_addr_o     (msg_addr[MsgTpc]),
    .msg_data_o     (msg_data[MsgTpc]),
    .irq_o          (tpc_irq),
    .idle_o         (e_idle[QTpc])
  );
  for (genvar m = 0; m < TpM; m++) begin : g_tpc_l2
    localparam int unsigned D = m / TpcPorts;
    localparam int unsigned Q = m % TpcPorts;
    localparam int unsigned U = D * L2Ports + ((Q == 0) ? L2PTpc : 3 + Q);
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_user;
    assign req = tp_req[m];
    `TESSERA_AXI_FLAT_FROM_REQ(l2u_, , [U], req)
    `TESSERA_AXI_RSP_FROM_FLAT(rsp, l2u_, , [U])
    assign tp_rsp[m]   = rsp;
    assign tp_busy[m]  = req.aw_valid || req.w_valid || req.ar_valid || rsp.b_valid || rsp.r_valid;
    assign unused_user = ^{req.aw.user, req.w.user, req.ar.user};
  end
  // ================================================================ end TPC cluster

  // ================================================================ NIC
  // Port p (of nic_ports): registers at NicBase + p * NicStride (APB select PerNic + p),
  // memory master on port L2PNic + p / NumL2 of DCORE (p mod NumL2)'s L2 slice, behind
  // the slice and the fabric like the engines, INTC source 16 + p, MAC client streams
  // on the nic_* pins. Its clock is gated like a DMA engine's: it runs while the port is
  // not idle (a frame, a work request, a packet or a PSN in flight, an AXI burst open, a
  // register command pending) and whenever an input asks for it: its registers selected,
  // a beat on its rx pins (rx_tready is high while idle, so the beat is taken at the edge
  // the gate lets through), an AXI response. Two more cycles after the last such cycle,
  // as for the DMAs. docs/nic.md.
  for (genvar p = 0; p < NumNic; p++) begin : g_nic
    localparam int unsigned U = (p % NumL2) * L2Ports + L2PNic + p / NumL2;
    tessera_bus_pkg::axi_req_t mem_req;
    tessera_bus_pkg::axi_rsp_t mem_rsp;
    logic                      unused_user;
    `TESSERA_AXI_FLAT_FROM_REQ(l2u_, , [U], mem_req)
    `TESSERA_AXI_RSP_FROM_FLAT(mem_rsp, l2u_, , [U])
    assign unused_user = ^{mem_req.aw.user, mem_req.w.user, mem_req.ar.user};
    // registers behind the APB mux of its queue manager (g_eng_apb, queue QNic + p): the
    // clock opens for an access from the system bus or the queue manager (e_psel)
    localparam int unsigned Q = QNic + p;
    tessera_bus_pkg::apb_req_t apb_req;
    tessera_bus_pkg::apb_rsp_t apb_rsp;
    assign apb_req  = e_req[Q];
    assign e_rsp[Q] = apb_rsp;
    logic nic_clk, nic_clk_en, nic_idle;
    assign nic_clk_en = !rst_ni || !nic_idle || e_psel[Q] || nic_rx_tvalid_i[p]
                        || l2u_bvalid[U] || l2u_rvalid[U];
    tessera_clk_gate #(.Enable(EngClkGate), .Hold(2)) u_nic_cg (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .en_i     (nic_clk_en),
      .test_en_i(1'b0),
      .clk_o    (nic_clk)
    );
    tessera_nic_port #(.NumSobs(tessera_cfg_pkg::SyncObjects)) u_port (
      .clk_i      (nic_clk),
      .rst_ni     (rst_ni),
      .apb_req_i  (apb_req),
      .apb_rsp_o  (apb_rsp),
      .axi_req_o  (mem_req),
      .axi_rsp_i  (mem_rsp),
      .tx_tvalid_o(nic_tx_tvalid_o[p]),
      .tx_tready_i(nic_tx_tready_i[p]),
      .tx_tdata_o (nic_tx_tdata_o[p]),
      .tx_tkeep_o (nic_tx_tkeep_o[p]),
      .tx_tlast_o (nic_tx_tlast_o[p]),
      .rx_tvalid_i(nic_rx_tvalid_i[p]),
      .rx_tready_o(nic_rx_tready_o[p]),
      .rx_tdata_i (nic_rx_tdata_i[p]),
      .rx_tkeep_i (nic_rx_tkeep_i[p]),
      .rx_tlast_i (nic_rx_tlast_i[p]),
      .irq_o      (nic_irq[p]),
      .msg_valid_o(msg_valid[MsgNic+p]),
      .msg_ready_i(msg_ready[MsgNic+p]),
      .msg_addr_o (msg_addr[MsgNic+p]),
      .msg_data_o (msg_data[MsgNic+p]),
      .wr_room_o  (e_idle[Q]),
      .idle_o     (nic_idle)
    );
  end
  // L2 port slots past the last NIC port (nic_ports not a multiple of the slices)
  for (genvar u = NumNic; u < NumL2 * NicL2; u++) begin : g_nic_l2_none
    localparam int unsigned U = (u % NumL2) * L2Ports + L2PNic + u / NumL2;
    assign l2u_awid[U]    = '0;
    assign l2u_awaddr[U]  = '0;
    assign l2u_awlen[U]   = '0;
    assign l2u_awsize[U]  = '0;
    assign l2u_awburst[U] = '0;
    assign l2u_awcache[U] = '0;
    assign l2u_awprot[U]  = '0;
    assign l2u_awqos[U]   = '0;
    assign l2u_awvalid[U] = 1'b0;
    assign l2u_wdata[U]   = '0;
    assign l2u_wstrb[U]   = '0;
    assign l2u_wlast[U]   = 1'b0;
    assign l2u_wvalid[U]  = 1'b0;
    assign l2u_bready[U]  = 1'b1;
    assign l2u_arid[U]    = '0;
    assign l2u_araddr[U]  = '0;
    assign l2u_arlen[U]   = '0;
    assign l2u_arsize[U]  = '0;
    assign l2u_arburst[U] = '0;
    assign l2u_arcache[U] = '0;
    assign l2u_arprot[U]  = '0;
    assign l2u_arqos[U]   = '0;
    assign l2u_arvalid[U] = 1'b0;
    assign l2u_rready[U]  = 1'b1;
    logic unused_rsp;
    assign unused_rsp = ^{l2u_awready[U], l2u_wready[U], l2u_bid[U], l2u_bresp[U], l2u_bvalid[U],
                          l2u_arready[U], l2u_rid[U], l2u_rdata[U], l2u_rresp[U], l2u_rlast[U],
                          l2u_rvalid[U]};
  end
  // stream and interrupt elements without a port (only with nic_ports = 0)
  for (genvar p = NumNic; p < NicPw; p++) begin : g_nic_none
    assign nic_tx_tvalid_o[p] = 1'b0;
    assign nic_tx_tdata_o[p]  = '0;
    assign nic_tx_tkeep_o[p]  = '0;
    assign nic_tx_tlast_o[p]  = 1'b0;
    assign nic_rx_tready_o[p] = 1'b0;
    assign nic_irq[p]         = 1'b0;
    logic unused_in;
    assign unused_in = ^{nic_tx_tready_i[p], nic_rx_tvalid_i[p], nic_rx_tdata_i[p], nic_rx_tkeep_i[p],
                         nic_rx_tlast_i[p]};
  end

  logic [NumAxiMst-1:0][tessera_bus_pkg::AxiReqBits-1:0] ax_req;
  logic [NumAxiMst-1:0][tessera_bus_pkg::AxiRspBits-1:0] ax_rsp;
  for (genvar m = 0; m < NumAxiMst; m++) begin : g_ax_bus
    tessera_bus_pkg::axi_req_t req;
    tessera_bus_pkg::axi_rsp_t rsp;
    logic                      unused_rsp;
    `TESSERA_AXI_REQ_FROM_FLAT(req, ax_, , [m])
    assign ax_req[m] = req;
    assign rsp       = ax_rsp[m];
    `TESSERA_AXI_FLAT_FROM_RSP(ax_, , [m], rsp)
    assign unused_rsp = ^{rsp.b.user, rsp.r.user};
  end
  tessera_axi_xbar #(
    .NumMst         (NumAxiMst),
    .NumSlv         (tessera_cfg_pkg::HbmChannels),
    .IdBits         (Iw),
    .SlvIdBits      (HbmIdBits),
    .InterleaveBytes(tessera_cfg_pkg::HbmInterleaveBytes),
    .ChannelHash    (tessera_cfg_pkg::HbmChannelHash != 0),
    .MemBase        (tessera_cfg_pkg::HbmBase),
    .MemSize        (tessera_cfg_pkg::HbmSize),
    .ReorderBeats   (tessera_cfg_pkg::FabricRdBufBeats),
    .WBufBeats      (tessera_cfg_pkg::FabricWBufBeats)
  ) u_axi_xbar (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .slv_req_i(ax_req),
    .slv_rsp_o(ax_rsp),
    .mst_req_o(hbm_req_o),
    .mst_rsp_i(hbm_rsp_i)
  );

endmodule
