// tessera_l2: one L2 cache slice. Set-associative, write-back, write-allocate (per the AXI
// cache hint), non-blocking (one miss handler per requester; hits of other requesters go on
// under misses), NumBanks banks so that several ports hit in the same cycle. See docs/l2.md.
//
// Requesters ("engines"): port p has a read engine (index 2p) and a write engine (2p+1),
// each with its own MSHR. Downstream AXI: reads use ARID = engine index, all writes use
// AWID 0 (in order). The allocation hint is ax_cache[3] (read) / ax_cache[2] (write), the
// replacement class is ax_qos[1:0] (0 lowest .. 3 highest priority to stay in the cache).
module tessera_l2 #(
  parameter int unsigned SizeBytes = 65536,
  parameter int unsigned Ways      = 8,
  parameter int unsigned LineBytes = 64,
  parameter int unsigned NumPorts  = 3,
  parameter int unsigned DataBits  = 256,
  parameter int unsigned IdBits    = 4,
  parameter int unsigned MIdBits   = 4,
  parameter int unsigned NumBanks  = 4,
  parameter int unsigned WqDepth   = 16,
  // read-ahead MSHRs (several line runs in flight): every downstream read ID that the
  // engines' demand MSHRs (IDs 0 .. 2*NumPorts-1) leave free
  parameter int unsigned NumPf     = (1 << MIdBits) - 2 * NumPorts,
  parameter int unsigned ArDepth   = 8,   // read bursts buffered per port (read-ahead horizon)
  // B responses each port's write engine queues (a power of two): one-beat posted writes
  // hold one each until their downstream B is back, so this bounds them in flight per port
  parameter int unsigned BqDepth   = 8,
  // downstream masters that carry reads: 1, or 2 = a second, read-only master (mst1_*)
  // that takes read-ahead refills beside the first (docs/l2.md "Second read master")
  parameter int unsigned RdMasters = 1,
  parameter logic [31:0] MemBase   = 32'h8000_0000,  // maintenance ranges must lie inside
  parameter logic [31:0] MemSize   = 32'h4000_0000
) (
  input  logic clk_i,
  input  logic rst_ni,
  // upstream AXI4 slave ports
  input  logic [NumPorts-1:0][tessera_bus_pkg::AxiReqBits-1:0] slv_req_i,
  output logic [NumPorts-1:0][tessera_bus_pkg::AxiRspBits-1:0] slv_rsp_o,
  // downstream AXI4 master (to the fabric)
  output tessera_bus_pkg::axi_req_t mst_req_o,
  input  tessera_bus_pkg::axi_rsp_t mst_rsp_i,
  // second downstream master, reads only (RdMasters = 2; else ar_valid 0, r_ready 1):
  // read-ahead refill bursts, ARID = 2*NumPorts + read-ahead MSHR index as on mst_*.
  // Per channel (AR payload, R payload, handshakes apart), not a request/response pair:
  // r_ready depends combinationally on the first master's R response, and a request
  // struct would put it into one variable with the AR payload, which the chip's crossbar
  // arbitrates on. Verilator orders whole variables, so that is a (false) combinational
  // loop through the crossbar (docs/fabric.md "Bus types").
  output tessera_bus_pkg::axi_ax_chan_t mst1_ar_o,
  output logic                          mst1_ar_valid_o,
  input  logic                          mst1_ar_ready_i,
  input  tessera_bus_pkg::axi_r_chan_t  mst1_r_i,
  input  logic                          mst1_r_valid_i,
  output logic                          mst1_r_ready_o,
  // APB4 register slave
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  // interrupt and completion message
  output logic        irq_o,
  output logic        msg_valid_o,
  input  logic        msg_ready_i,
  output logic [31:0] msg_addr_o,
  output logic [31:0] msg_data_o,
  // SHARED.slices_log2 (the chip's router interleaves by it, see tessera_l2_cluster)
  output logic [1:0]  cfg_slices_log2_o,
  // nothing in the slice moves without an input: no burst, miss, refill, write-back,
  // read-ahead or maintenance in progress, no response held (the chip gates its clock)
  output logic        idle_o
);
  // the bus ports as signals: s_axi_*[p] (upstream), m_axi_* and m1_axi_* (downstream)
  `TESSERA_AXI_ARRAY_DECL(s_axi_, NumPorts, IdBits)
  `TESSERA_AXI_SLV_ARRAY_CONNECT(slv_req_i, slv_rsp_o, s_axi_, NumPorts, IdBits)
  `TESSERA_AXI_SIGS_DECL(m_axi_, MIdBits)
  `TESSERA_AXI_MST_CONNECT(mst_req_o, mst_rsp_i, m_axi_)
  `TESSERA_AXI_SIGS_DECL_RD(m1_axi_, MIdBits)
  assign mst1_ar_o.id    = tessera_bus_pkg::id_t'(m1_axi_arid);
  assign mst1_ar_o.addr  = m1_axi_araddr;
  assign mst1_ar_o.len   = m1_axi_arlen;
  assign mst1_ar_o.size  = m1_axi_arsize;
  assign mst1_ar_o.burst = m1_axi_arburst;
  assign mst1_ar_o.cache = m1_axi_arcache;
  assign mst1_ar_o.prot  = m1_axi_arprot;
  assign mst1_ar_o.qos   = m1_axi_arqos;
  assign mst1_ar_o.user  = '0;
  assign mst1_ar_valid_o = m1_axi_arvalid;
  assign m1_axi_arready  = mst1_ar_ready_i;
  assign m1_axi_rid      = mst1_r_i.id[MIdBits-1:0];
  assign m1_axi_rdata    = mst1_r_i.data;
  assign m1_axi_rresp    = mst1_r_i.resp;
  assign m1_axi_rlast    = mst1_r_i.last;
  assign m1_axi_rvalid   = mst1_r_valid_i;
  assign mst1_r_ready_o  = m1_axi_rready;
  logic unused_m1_r;
  assign unused_m1_r = ^{mst1_r_i.id, mst1_r_i.user};
  // ---------------------------------------------------------------- geometry
  localparam int unsigned Sets        = SizeBytes / (LineBytes * Ways);
  localparam int unsigned SetBits     = $clog2(Sets);
  localparam int unsigned BankBits    = $clog2(NumBanks);
  localparam int unsigned SetsPerBank = Sets / NumBanks;
  localparam int unsigned LsetBits    = SetBits - BankBits;
  localparam int unsigned TagBits     = 26 - SetBits;
  localparam int unsigned WayBits     = $clog2(Ways);
  localparam int unsigned NumEng      = 2 * NumPorts;
  localparam int unsigned EngW        = $clog2(NumEng);
  localparam int unsigned NumReq      = NumEng + 1;          // bank requesters: engines + read-ahead
  localparam int unsigned ReqW        = $clog2(NumReq);
  localparam int unsigned PfReq       = NumEng;
  localparam int unsigned PfW         = (NumPf > 1) ? $clog2(NumPf) : 1;
  localparam int unsigned NumRd       = NumEng + NumPf;      // downstream read IDs
  localparam int unsigned RdW         = $clog2(NumRd);
  localparam int unsigned SrcW        = $clog2(NumEng + 1);
  localparam int unsigned MaintSrc    = NumEng;

  // The datapath is built for 64-byte lines of two 32-byte beats.
  if (LineBytes != 64 || DataBits != 256) begin : g_bad_geometry
    $error("tessera_l2: LineBytes must be 64 and DataBits 256");
  end
  if (NumBanks < 2 || (1 << BankBits) != NumBanks || LsetBits < BankBits) begin : g_bad_banks
    $error("tessera_l2: NumBanks must be a power of two >= 2 and <= sqrt(sets)");
  end
  if (RdMasters < 1 || RdMasters > 2) begin : g_bad_rdm
    $error("tessera_l2: RdMasters must be 1 or 2");
  end
  if ((1 << MIdBits) < NumRd) begin : g_bad_mid
    $error("tessera_l2: MIdBits too small for 2*NumPorts + NumPf read IDs");
  end

  // A full-line write miss allocates without reading memory only inside the memory window;
  // outside it, the refill read's DECERR reports the bad address to the writer.
  function automatic logic in_window(input logic [31:0] a);
    in_window = ({1'b0, a} >= {1'b0, MemBase}) && ({1'b0, a} < {1'b0, MemBase} + {1'b0, MemSize});
  endfunction

  // ---------------------------------------------------------------- registers
  l2_reg_pkg::l2__in_t  hwif_in;
  l2_reg_pkg::l2__out_t hwif_out;

  l2_reg_top u_regs (
    .clk           (clk_i),
    .arst_n        (rst_ni),
    .s_apb_psel    (apb_req_i.psel),
    .s_apb_penable (apb_req_i.penable),
    .s_apb_pwrite  (apb_req_i.pwrite),
    .s_apb_pprot   (apb_req_i.pprot),
    .s_apb_paddr   (apb_req_i.paddr),
    .s_apb_pwdata  (apb_req_i.pwdata),
    .s_apb_pstrb   (apb_req_i.pstrb),
    .s_apb_pready  (apb_rsp_o.pready),
    .s_apb_prdata  (apb_rsp_o.prdata),
    .s_apb_pslverr (apb_rsp_o.pslverr),
    .hwif_in       (hwif_in),
    .hwif_out      (hwif_out)
  );

  logic [3:0] cfg_class_weight;
  logic       cfg_no_alloc;
  logic       cfg_set_hash;
  logic [1:0] cfg_slices_log2;
  logic [2:0] cfg_slice_id;
  assign cfg_class_weight = hwif_out.CTRL.class_weight.value;
  assign cfg_no_alloc     = hwif_out.CTRL.no_alloc.value;
  assign cfg_set_hash     = hwif_out.CTRL.set_hash.value;
  assign cfg_slices_log2  = hwif_out.SHARED.slices_log2.value;
  assign cfg_slice_id     = hwif_out.SHARED.slice_id.value;
  assign cfg_slices_log2_o = cfg_slices_log2;

  // ---------------------------------------------------------------- engines
  // posted non-allocating writes: the B response of MSHR e's oldest one came back
  logic [NumEng-1:0]              ms_b_done;
  logic [1:0]                     wq_done_resp;
  logic [NumReq-1:0]              eng_req, eng_gnt, eng_alloc, eng_write, eng_full, eng_pair;
  logic [NumEng-1:0]              eng_stall, eng_idle, ms_idle;
  logic                           pf_idle;
  logic [NumReq-1:0][31:0]        eng_addr;
  logic [NumEng-1:0][31:0]        eng_cur;
  logic [NumReq-1:0][255:0]       eng_wdata, eng_wdata1;
  logic [NumEng-1:0][255:0]       eng_cur_wdata;
  logic [NumReq-1:0][31:0]        eng_wstrb;
  logic [NumEng-1:0][31:0]        eng_cur_wstrb;
  logic [NumEng-1:0]              eng_cur_full;
  logic [NumEng-1:0][255:0]       eng_cur_wdata1;
  logic [NumReq-1:0][1:0]         eng_cls;
  logic [NumPorts-1:0]            hint_v;
  logic [NumPorts-1:0][31:0]      hint_addr;
  logic [NumPorts-1:0][7:0]       hint_len;
  logic [NumPorts-1:0][1:0]       hint_cls;
  logic [NumPorts-1:0][1:0]       hint_blk;
  logic [NumEng-1:0]              eres_valid;
  tessera_l2_pkg::res_kind_e                      eres_kind [NumEng];
  logic [NumEng-1:0][255:0]       eres_rdata, eres_rdata1;
  logic [NumPorts-1:0]            rd_hit1;
  logic [NumEng-1:0][WayBits-1:0] eres_way;
  logic [NumEng-1:0]              eres_vdirty, eres_nof, eres_pair, ms_free;
  logic [NumEng-1:0][31:0]        eres_vaddr;
  logic [NumEng-1:0][511:0]       eres_vdata;
  logic [NumEng-1:0][63:0]        eres_vmask;
  logic [NumEng-1:0]              mdone, mdone_replay;
  logic [NumEng-1:0][1:0]         mdone_resp;
  logic [NumEng-1:0][255:0]       mdone_rdata;

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    tessera_l2_rd_eng #(.IdBits(IdBits), .ArDepth(ArDepth)) u_rd (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .cfg_no_alloc_i    (cfg_no_alloc),
      .cfg_slices_log2_i (cfg_slices_log2),
      .cfg_slice_id_i    (cfg_slice_id),
      .s_axi_arid_i      (s_axi_arid[p]),
      .s_axi_araddr_i    (s_axi_araddr[p]),
      .s_axi_arlen_i     (s_axi_arlen[p]),
      .s_axi_arcache_i   (s_axi_arcache[p]),
      .s_axi_arqos_i     (s_axi_arqos[p]),
      .s_axi_arvalid_i   (s_axi_arvalid[p]),
      .s_axi_arready_o   (s_axi_arready[p]),
      .s_axi_rid_o       (s_axi_rid[p]),
      .s_axi_rdata_o     (s_axi_rdata[p]),
      .s_axi_rresp_o     (s_axi_rresp[p]),
      .s_axi_rlast_o     (s_axi_rlast[p]),
      .s_axi_rvalid_o    (s_axi_rvalid[p]),
      .s_axi_rready_i    (s_axi_rready[p]),
      .req_valid_o       (eng_req[2*p]),
      .req_addr_o        (eng_addr[2*p]),
      .req_alloc_o       (eng_alloc[2*p]),
      .req_cls_o         (eng_cls[2*p]),
      .req_gnt_i         (eng_gnt[2*p]),
      .res_valid_i       (eres_valid[2*p]),
      .res_kind_i        (eres_kind[2*p]),
      .res_rdata_i       (eres_rdata[2*p]),
      .res_rdata1_i      (eres_rdata1[2*p]),
      .done_i            (mdone[2*p]),
      .done_replay_i     (mdone_replay[2*p]),
      .done_resp_i       (mdone_resp[2*p]),
      .done_rdata_i      (mdone_rdata[2*p]),
      .wake_i            (fl_valid && fl_last),
      .cur_addr_o        (eng_cur[2*p]),
      .hint_valid_o      (hint_v[p]),
      .hint_addr_o       (hint_addr[p]),
      .hint_len_o        (hint_len[p]),
      .hint_cls_o        (hint_cls[p]),
      .hint_blk_o        (hint_blk[p]),
      .stall_o           (eng_stall[2*p]),
      .hit1_o            (rd_hit1[p]),
      .idle_o            (eng_idle[2*p])
    );
    assign eng_write[2*p]     = 1'b0;
    assign eng_full[2*p]      = 1'b0;
    assign eng_pair[2*p]      = 1'b0;
    logic unused_rd_pair;  // a read engine never sends write pairs
    assign unused_rd_pair     = eres_pair[2*p];
    assign eng_wdata[2*p]     = '0;
    assign eng_wdata1[2*p]    = '0;
    assign eng_wstrb[2*p]     = '0;
    assign eng_cur_wdata[2*p] = '0;
    assign eng_cur_wstrb[2*p] = '0;
    assign eng_cur_full[2*p]  = 1'b0;
    assign eng_cur_wdata1[2*p] = '0;

    tessera_l2_wr_eng #(.IdBits(IdBits), .BqDepth(BqDepth)) u_wr (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .cfg_no_alloc_i    (cfg_no_alloc),
      .cfg_slices_log2_i (cfg_slices_log2),
      .cfg_slice_id_i    (cfg_slice_id),
      .s_axi_awid_i      (s_axi_awid[p]),
      .s_axi_awaddr_i    (s_axi_awaddr[p]),
      .s_axi_awlen_i     (s_axi_awlen[p]),
      .s_axi_awcache_i   (s_axi_awcache[p]),
      .s_axi_awqos_i     (s_axi_awqos[p]),
      .s_axi_awvalid_i   (s_axi_awvalid[p]),
      .s_axi_awready_o   (s_axi_awready[p]),
      .s_axi_wdata_i     (s_axi_wdata[p]),
      .s_axi_wstrb_i     (s_axi_wstrb[p]),
      .s_axi_wvalid_i    (s_axi_wvalid[p]),
      .s_axi_wready_o    (s_axi_wready[p]),
      .s_axi_bid_o       (s_axi_bid[p]),
      .s_axi_bresp_o     (s_axi_bresp[p]),
      .s_axi_bvalid_o    (s_axi_bvalid[p]),
      .s_axi_bready_i    (s_axi_bready[p]),
      .req_valid_o       (eng_req[2*p+1]),
      .req_addr_o        (eng_addr[2*p+1]),
      .req_wdata_o       (eng_wdata[2*p+1]),
      .req_wstrb_o       (eng_wstrb[2*p+1]),
      .req_full_o        (eng_full[2*p+1]),
      .req_pair_o        (eng_pair[2*p+1]),
      .req_wdata1_o      (eng_wdata1[2*p+1]),
      .req_alloc_o       (eng_alloc[2*p+1]),
      .req_cls_o         (eng_cls[2*p+1]),
      .req_gnt_i         (eng_gnt[2*p+1]),
      .cur_wdata_o       (eng_cur_wdata[2*p+1]),
      .cur_wstrb_o       (eng_cur_wstrb[2*p+1]),
      .cur_full_o        (eng_cur_full[2*p+1]),
      .cur_wdata1_o      (eng_cur_wdata1[2*p+1]),
      .res_valid_i       (eres_valid[2*p+1]),
      .res_kind_i        (eres_kind[2*p+1]),
      .res_pair_i        (eres_pair[2*p+1]),
      .mshr_free_i       (ms_free[2*p+1]),
      .mshr_vstart_i     (eres_valid[2*p+1] && eres_kind[2*p+1] == tessera_l2_pkg::ResHit &&
                          eres_nof[2*p+1] && eres_vdirty[2*p+1]),
      .done_i            (mdone[2*p+1]),
      .done_replay_i     (mdone_replay[2*p+1]),
      .done_resp_i       (mdone_resp[2*p+1]),
      .byp_ack_i         (ms_b_done[2*p+1]),
      .byp_ack_resp_i    (wq_done_resp),
      .cur_addr_o        (eng_cur[2*p+1]),
      .stall_o           (eng_stall[2*p+1]),
      .idle_o            (eng_idle[2*p+1])
    );
    assign eng_write[2*p+1] = 1'b1;
    logic unused_rd_byp;   // read engines never post writes
    assign unused_rd_byp = ms_b_done[2*p];
  end

  // ---------------------------------------------------------------- address decode
  // compacted address: {tag, set, beat, byte}; set = {lset, low}. With CTRL.set_hash the
  // stored set index is {lset ^ set_hash(tag), low}: the tag bits are folded into the upper
  // set bits, so that power-of-two strides (tensor rows 4 or 8 KiB apart) spread over all
  // sets instead of thrashing a few. The bank is low ^ (stored lset)[BankBits-1:0] (so that
  // 256-byte bursts from different ports start in different banks, and hashed strided lines
  // spread over the banks). The banks undo the hash when they rebuild a line's address
  // (write-backs, maintenance ranges).
  function automatic logic [LsetBits-1:0] set_hash(input logic [TagBits-1:0] t, input logic en);  /* verilator lint_off UNUSEDSIGNAL */
    logic [7:0] f;  // (its bits from LsetBits up stay 0)
    f = tessera_l2_pkg::set_fold(26'(t), TagBits, LsetBits, en);  /* verilator lint_on UNUSEDSIGNAL */
    set_hash = f[LsetBits-1:0];
  endfunction

  logic [NumReq-1:0][31:0]          eng_caddr;
  logic [NumEng-1:0][31:0]          cur_caddr;
  logic [NumReq-1:0][BankBits-1:0]  eng_bank;
  logic [NumEng-1:0][BankBits-1:0]  cur_bank;
  logic [NumReq-1:0][LsetBits-1:0]  eng_lset;
  logic [NumEng-1:0][LsetBits-1:0]  cur_lset;
  logic [NumReq-1:0][TagBits-1:0]   eng_tag;
  always_comb begin
    for (int e = 0; e < NumReq; e++) begin
      eng_caddr[e] = tessera_l2_pkg::compact_addr(eng_addr[e], cfg_slices_log2);
      eng_tag[e]   = eng_caddr[e][6 + SetBits +: TagBits];
      eng_lset[e]  = eng_caddr[e][6 + BankBits +: LsetBits] ^ set_hash(eng_tag[e], cfg_set_hash);
      eng_bank[e]  = eng_caddr[e][6 +: BankBits] ^ eng_lset[e][BankBits-1:0];
    end
    for (int e = 0; e < NumEng; e++) begin
      cur_caddr[e] = tessera_l2_pkg::compact_addr(eng_cur[e], cfg_slices_log2);
      cur_lset[e]  = cur_caddr[e][6 + BankBits +: LsetBits] ^
                     set_hash(cur_caddr[e][6 + SetBits +: TagBits], cfg_set_hash);
      cur_bank[e]  = cur_caddr[e][6 +: BankBits] ^ cur_lset[e][BankBits-1:0];
    end
  end

  // ---------------------------------------------------------------- side-op arbitration
  localparam int unsigned NumSide = NumEng + 1;  // MSHRs + maintenance
  localparam int unsigned SideW   = $clog2(NumSide);
  logic [NumSide-1:0]               sd_req, sd_gnt;
  logic [SideW-1:0]                 sd_idx;
  logic [NumEng-1:0]                ms_side_req;
  tessera_l2_pkg::side_op_e                         ms_side_op [NumEng];
  logic [NumEng-1:0][BankBits-1:0]  ms_side_bank;
  logic [NumEng-1:0][LsetBits-1:0]  ms_side_lset;
  logic [NumEng-1:0][WayBits-1:0]   ms_side_way;
  logic [NumEng-1:0][511:0]         ms_side_wdata;
  logic                             mt_side_req;
  logic [BankBits-1:0]              mt_side_bank;
  logic [LsetBits-1:0]              mt_side_lset;
  logic [WayBits-1:0]               mt_side_way;
  tessera_l2_pkg::maint_op_e                        mt_mop;
  logic                             mt_whole;
  logic [31:0]                      mt_lo, mt_hi;

  // a read-ahead refill beat of the first master (pf_fill) takes the side port before
  // everyone (its R is never back-pressured); the others are arbitrated round-robin in the
  // remaining cycles; a refill beat of the second master (p1_go) only in a cycle nobody
  // else wants the port (its R waits meanwhile). fl_*: the refill beat written this cycle.
  logic                pf_fill, pf_fill_beat, pf_fill_last, pf_fill_err;
  logic                pf_pair;  // pf_fill writes the whole line (its beat 0 was held)
  logic [BankBits-1:0] pf_fill_bank;
  logic [LsetBits-1:0] pf_fill_lset;
  logic [WayBits-1:0]  pf_fill_way;
  logic                p1_go, p1_pair, p1_fill_beat, p1_fill_err;
  logic [BankBits-1:0] p1_fill_bank;
  logic [LsetBits-1:0] p1_fill_lset;
  logic [WayBits-1:0]  p1_fill_way;
  logic [255:0]        hb1_data_q;
  logic                fl_valid, fl_beat, fl_last, fl_pair, fl_err;
  logic [BankBits-1:0] fl_bank;
  logic [LsetBits-1:0] fl_lset;
  logic [WayBits-1:0]  fl_way;
  logic [511:0]        fl_wdata;
  always_comb begin
    fl_valid = pf_fill || p1_go;
    if (pf_fill) begin
      fl_beat  = pf_fill_beat;
      fl_last  = pf_fill_last;
      fl_pair  = pf_pair;
      fl_err   = pf_fill_err;
      fl_bank  = pf_fill_bank;
      fl_lset  = pf_fill_lset;
      fl_way   = pf_fill_way;
      fl_wdata = {m_axi_rdata, pf_pair ? hb_data_q : m_axi_rdata};
    end else begin
      fl_beat  = p1_fill_beat;
      fl_last  = p1_fill_beat;  // a line's beat 1 is its last
      fl_pair  = p1_pair;
      fl_err   = p1_fill_err;
      fl_bank  = p1_fill_bank;
      fl_lset  = p1_fill_lset;
      fl_way   = p1_fill_way;
      fl_wdata = {m1_axi_rdata, p1_pair ? hb1_data_q : m1_axi_rdata};
    end
  end
  logic [NumSide-1:0]  sd_gnt_arb;
  assign sd_req = {mt_side_req, ms_side_req};
  tessera_rr_arb #(.N(NumSide)) u_side_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (sd_req),
    .ack_i     (!fl_valid),
    .gnt_o     (sd_gnt_arb),
    .idx_o     (sd_idx)
  );
  assign sd_gnt = fl_valid ? '0 : sd_gnt_arb;

  logic                sd_any;
  tessera_l2_pkg::side_op_e            sd_op;
  logic [BankBits-1:0] sd_bank;
  logic [LsetBits-1:0] sd_lset;
  logic [WayBits-1:0]  sd_way;
  logic [511:0]        sd_wdata;
  always_comb begin
    sd_any   = (|sd_req) || fl_valid;
    sd_op    = tessera_l2_pkg::SideMaint;
    sd_bank  = mt_side_bank;
    sd_lset  = mt_side_lset;
    sd_way   = mt_side_way;
    sd_wdata = '0;
    for (int e = 0; e < NumEng; e++) begin
      if (sd_gnt[e]) begin
        sd_op    = ms_side_op[e];
        sd_bank  = ms_side_bank[e];
        sd_lset  = ms_side_lset[e];
        sd_way   = ms_side_way[e];
        sd_wdata = ms_side_wdata[e];
      end
    end
    if (fl_valid) begin
      sd_op    = tessera_l2_pkg::SideFillBeat;
      sd_bank  = fl_bank;
      sd_lset  = fl_lset;
      sd_way   = fl_way;
      sd_wdata = fl_wdata;
    end
  end

  logic                sd_v_q;
  logic [SideW-1:0]    sd_who_q;
  logic [BankBits-1:0] sd_bank_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sd_v_q    <= 1'b0;
      sd_who_q  <= '0;
      sd_bank_q <= '0;
    end else begin
      sd_v_q    <= sd_any && !fl_valid;  // a side result (victim / maintenance read) follows
      sd_who_q  <= sd_idx;
      sd_bank_q <= sd_bank;
    end
  end

  // ---------------------------------------------------------------- banks
  logic [NumBanks-1:0]                bk_side_v;
  logic [NumBanks-1:0][NumReq-1:0]    bk_rq, bk_gnt;
  logic [NumBanks-1:0][ReqW-1:0]      bk_gidx;
  logic [NumBanks-1:0]                bk_req_v, bk_write, bk_beat, bk_alloc, bk_full, bk_pair;
  logic [NumBanks-1:0][255:0]         bk_wdata1;
  logic [NumBanks-1:0][LsetBits-1:0]  bk_lset;
  logic [NumBanks-1:0][TagBits-1:0]   bk_tag;
  logic [NumBanks-1:0][255:0]         bk_wdata;
  logic [NumBanks-1:0][31:0]          bk_wstrb;
  logic [NumBanks-1:0][1:0]           bk_cls;
  logic [NumBanks-1:0]                br_valid, br_owned, br_vvalid, br_vdirty, br_nof, br_pair;
  logic [NumBanks-1:0][ReqW-1:0]      br_eng;
  tessera_l2_pkg::res_kind_e                          br_kind [NumBanks];
  logic [NumBanks-1:0][255:0]         br_rdata, br_rdata1;
  logic [NumBanks-1:0][WayBits-1:0]   br_way;
  logic [NumBanks-1:0][31:0]          br_vaddr, bs_addr;
  logic [NumBanks-1:0][511:0]         bs_rdata;
  logic [NumBanks-1:0][63:0]          bs_rmask;
  logic [NumBanks-1:0]                bs_busy, bs_wb, bs_hit;
  // tag probe: per bank, one non-allocating write the arbiter did not grant this cycle
  logic [NumBanks-1:0]                pb_v, pb_match, pb_ok;
  logic [NumBanks-1:0][ReqW-1:0]      pb_eng;
  logic [NumReq-1:0]                  pb_gnt;
  logic [NumEng-1:0]                  pb_res_q;   // a probe's bypass result, one cycle later

  // the read-ahead's last lookup result was not a hit: it has bank priority (below)
  logic pf_first_q;

  for (genvar b = 0; b < NumBanks; b++) begin : g_bank
    assign bk_side_v[b] = sd_any && (sd_bank == BankBits'(b));
    always_comb begin
      for (int e = 0; e < NumReq; e++) begin
        bk_rq[b][e] = eng_req[e] && (eng_bank[e] == BankBits'(b)) && !bk_side_v[b];
      end
      // the read-ahead lookup comes first while it finds lines missing (its last lookup
      // did not hit): then its lookups are what let the engines' own lookups hit. It asks
      // for one bank per cycle, mostly for consecutive lines, which map to different
      // banks (and a port's repeated hint is dropped, tessera_l2_pf). After a hit it only
      // takes bank cycles no engine wants: on lines already cached its lookups would
      // only take bank cycles from the engines' hits
      if (pf_first_q && bk_rq[b][PfReq]) bk_rq[b][NumEng-1:0] = '0;
      else if (|bk_rq[b][NumEng-1:0])    bk_rq[b][PfReq] = 1'b0;
    end
    tessera_rr_arb #(.N(NumReq)) u_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (bk_rq[b]),
      .ack_i     (1'b1),
      .gnt_o     (bk_gnt[b]),
      .idx_o     (bk_gidx[b])
    );
    assign bk_req_v[b] = |bk_rq[b];
    assign bk_write[b] = eng_write[bk_gidx[b]];
    assign bk_beat[b]  = eng_caddr[bk_gidx[b]][5];
    assign bk_alloc[b] = eng_alloc[bk_gidx[b]];
    assign bk_full[b]  = eng_full[bk_gidx[b]] && in_window(eng_addr[bk_gidx[b]]);
    assign bk_pair[b]  = eng_pair[bk_gidx[b]];
    assign bk_wdata1[b] = eng_wdata1[bk_gidx[b]];
    assign bk_lset[b]  = eng_lset[bk_gidx[b]];
    assign bk_tag[b]   = eng_tag[bk_gidx[b]];
    assign bk_wdata[b] = eng_wdata[bk_gidx[b]];
    assign bk_wstrb[b] = eng_wstrb[bk_gidx[b]];
    assign bk_cls[b]   = eng_cls[bk_gidx[b]];

    // Tag probe. A non-allocating write whose line is neither valid nor reserved in the
    // bank is a posted miss, which changes no bank state: it needs no bank cycle. When the
    // arbiter gives the bank to another requester (or a side operation has it), one such
    // write per bank is checked against the tags beside it and, if nothing matches, gets
    // its ResMissBypass one cycle later as from the bank. Not when the bank's lookup in
    // this cycle is for the same line (it may allocate it): that write waits its turn.
    always_comb begin
      pb_v[b]   = 1'b0;
      pb_eng[b] = '0;
      for (int p = NumPorts - 1; p >= 0; p--) begin
        if (eng_req[2*p+1] && !eng_alloc[2*p+1] && eng_bank[2*p+1] == BankBits'(b) &&
            !bk_gnt[b][2*p+1]) begin
          pb_v[b]   = 1'b1;
          pb_eng[b] = ReqW'(2*p+1);
        end
      end
    end
    assign pb_ok[b] = pb_v[b] && !pb_match[b] &&
                      !(bk_req_v[b] && !bk_side_v[b] && bk_lset[b] == eng_lset[pb_eng[b]] &&
                        bk_tag[b] == eng_tag[pb_eng[b]]);

    tessera_l2_bank #(
      .Ways        (Ways),
      .SetsPerBank (SetsPerBank),
      .BankBits    (BankBits),
      .EngW        (ReqW),
      .PfEng       (PfReq)
    ) u_bank (
      .clk_i              (clk_i),
      .rst_ni             (rst_ni),
      .bank_idx_i         (BankBits'(b)),
      .cfg_class_weight_i (cfg_class_weight),
      .cfg_set_hash_i     (cfg_set_hash),
      .cfg_slices_log2_i  (cfg_slices_log2),
      .cfg_slice_id_i     (cfg_slice_id),
      .req_valid_i        (bk_req_v[b]),
      .req_write_i        (bk_write[b]),
      .req_lset_i         (bk_lset[b]),
      .req_tag_i          (bk_tag[b]),
      .req_beat_i         (bk_beat[b]),
      .req_wdata_i        (bk_wdata[b]),
      .req_wstrb_i        (bk_wstrb[b]),
      .req_alloc_i        (bk_alloc[b]),
      .req_full_i         (bk_full[b]),
      .req_pair_i         (bk_pair[b]),
      .req_wdata1_i       (bk_wdata1[b]),
      .req_cls_i          (bk_cls[b]),
      .req_eng_i          (bk_gidx[b]),
      .prb_lset_i         (eng_lset[pb_eng[b]]),
      .prb_tag_i          (eng_tag[pb_eng[b]]),
      .prb_match_o        (pb_match[b]),
      .res_valid_o        (br_valid[b]),
      .res_eng_o          (br_eng[b]),
      .res_kind_o         (br_kind[b]),
      .res_owned_o        (br_owned[b]),
      .res_nofetch_o      (br_nof[b]),
      .res_pair_o         (br_pair[b]),
      .res_rdata_o        (br_rdata[b]),
      .res_rdata1_o       (br_rdata1[b]),
      .res_way_o          (br_way[b]),
      .res_vvalid_o       (br_vvalid[b]),
      .res_vdirty_o       (br_vdirty[b]),
      .res_vaddr_o        (br_vaddr[b]),
      .side_valid_i       (bk_side_v[b]),
      .side_op_i          (sd_op),
      .side_beat_i        (fl_beat),
      .side_pair_i        (fl_pair),
      .side_last_i        (fl_last),
      .side_err_i         (fl_err),
      .side_lset_i        (sd_lset),
      .side_way_i         (sd_way),
      .side_wdata_i       (sd_wdata),
      .side_mop_i         (mt_mop),
      .side_whole_i       (mt_whole),
      .side_lo_i          (mt_lo),
      .side_hi_i          (mt_hi),
      .side_rdata_o       (bs_rdata[b]),
      .side_rmask_o       (bs_rmask[b]),
      .side_busy_o        (bs_busy[b]),
      .side_wb_o          (bs_wb[b]),
      .side_hit_o         (bs_hit[b]),
      .side_addr_o        (bs_addr[b])
    );
  end

  always_comb begin
    pb_gnt = '0;
    for (int b = 0; b < NumBanks; b++) begin
      if (pb_ok[b]) pb_gnt[pb_eng[b]] = 1'b1;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pb_res_q <= '0;
    else         pb_res_q <= pb_gnt[NumEng-1:0];
  end
  logic unused_pb_pf;
  assign unused_pb_pf = pb_gnt[PfReq];

  // grants and results back to the engines
  logic                       pres_valid, pres_vdirty, pf_enable, pf_r_valid;
  tessera_l2_pkg::res_kind_e  pres_kind;
  logic [WayBits-1:0]         pres_way;
  logic [31:0]                pres_vaddr;
  logic [511:0]               pres_vdata;
  logic [63:0]                pres_vmask;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)         pf_first_q <= 1'b1;
    else if (pres_valid) pf_first_q <= (pres_kind != tessera_l2_pkg::ResHit);
  end
  always_comb begin
    for (int e = 0; e < NumEng; e++) begin
      eres_valid[e]  = 1'b0;
      eres_kind[e]   = tessera_l2_pkg::ResRetry;
      eres_rdata[e]  = '0;
      eres_rdata1[e] = '0;
      eres_way[e]    = '0;
      eres_vdirty[e] = 1'b0;
      eres_nof[e]    = 1'b0;
      eres_pair[e]   = 1'b0;
      eres_vaddr[e]  = '0;
      eres_vdata[e]  = '0;
      eres_vmask[e]  = '0;
      // a probed write's posted miss (never in the same cycle as a bank result: the
      // engine had one grant, from its bank's arbiter or from the probe)
      if (pb_res_q[e]) begin
        eres_valid[e] = 1'b1;
        eres_kind[e]  = tessera_l2_pkg::ResMissBypass;
      end
      for (int b = 0; b < NumBanks; b++) begin
        if (br_valid[b] && br_eng[b] == ReqW'(e)) begin
          eres_valid[e]  = 1'b1;
          eres_kind[e]   = br_kind[b];
          eres_rdata[e]  = br_rdata[b];
          eres_rdata1[e] = br_rdata1[b];
          eres_way[e]    = br_way[b];
          eres_vdirty[e] = br_vdirty[b];
          eres_nof[e]    = br_nof[b];
          eres_pair[e]   = br_pair[b];
          eres_vaddr[e]  = br_vaddr[b];
          eres_vdata[e]  = bs_rdata[b];
          eres_vmask[e]  = bs_rmask[b];
        end
      end
    end
    for (int e = 0; e < NumReq; e++) begin
      eng_gnt[e] = 1'b0;
      for (int b = 0; b < NumBanks; b++) begin
        if (bk_gnt[b][e]) eng_gnt[e] = 1'b1;
      end
      if (pb_gnt[e]) eng_gnt[e] = 1'b1;
    end
    // read-ahead lookup results (a dirty victim is queued for write-back right away)
    pres_valid  = 1'b0;
    pres_kind   = tessera_l2_pkg::ResRetry;
    pres_way    = '0;
    pres_vdirty = 1'b0;
    pres_vaddr  = '0;
    pres_vdata  = '0;
    pres_vmask  = '0;
    for (int b = 0; b < NumBanks; b++) begin
      if (br_valid[b] && br_eng[b] == ReqW'(PfReq)) begin
        pres_valid  = 1'b1;
        pres_kind   = br_kind[b];
        pres_way    = br_way[b];
        pres_vdirty = br_vdirty[b];
        pres_vaddr  = br_vaddr[b];
        pres_vdata  = bs_rdata[b];
        pres_vmask  = bs_rmask[b];
      end
    end
  end

  // ---------------------------------------------------------------- read-ahead
  logic [NumPf-1:0]           pf_ar_req, pf_ar_gnt, pf_hazard, pf_hz_want;
  logic [NumPf-1:0]           ar1_gnt;   // a read-ahead run's burst leaves on the second master
  logic                       ar1_v_q;
  logic                       pf0_ok;    // the first master may take a read-ahead burst now
  logic [NumPf-1:0][31:0]     pf_ar_addr;
  logic [NumPf-1:0][7:0]      pf_ar_len;
  logic [NumPf-1:0][25:0]     pf_rng_line;
  logic [NumPf-1:0][2:0]      pf_rng_n;
  logic [PfW-1:0]             pf_r_idx;
  logic                       pf_wq_push, wq_room2, mt_busy;

  // a read-ahead lookup may need the write queue in its result cycle (dirty victim): issue
  // only with room for two entries (one more push may happen in the issue cycle), and not
  // during maintenance (its write-backs must enter the queue before any later eviction)
  assign pf_enable  = wq_room2 && !mt_busy;
  assign pf_wq_push = pres_valid && (pres_kind == tessera_l2_pkg::ResMissAlloc) && pres_vdirty;
  assign pf_r_valid = m_axi_rvalid && (32'(m_axi_rid) >= NumEng) && (32'(m_axi_rid) < NumRd);
  assign pf_r_idx   = PfW'(32'(m_axi_rid) - NumEng);
  // Refill pairs: beat 0 of a read-ahead line is held in one register and written with
  // its beat 1 by a single side operation (one bank cycle per refilled line instead of
  // two). Beats of one MSHR arrive in order, so the next beat of the held MSHR is that
  // line's beat 1. While the register is taken (R bursts of two MSHRs interleaved), other
  // lines are written beat by beat as before. Nobody can read a held line meanwhile: it
  // stays reserved until its last beat is written.
  logic           hb_v_q, pf_hold;
  logic [PfW-1:0] hb_idx_q;
  logic [255:0]   hb_data_q;
  assign pf_hold = pf_r_valid && !pf_fill_beat && !hb_v_q;
  assign pf_pair = pf_r_valid && pf_fill_beat && hb_v_q && (hb_idx_q == pf_r_idx);
  assign pf_fill = pf_r_valid && !pf_hold;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hb_v_q    <= 1'b0;
      hb_idx_q  <= '0;
      hb_data_q <= '0;
    end else if (pf_hold) begin
      hb_v_q    <= 1'b1;
      hb_idx_q  <= pf_r_idx;
      hb_data_q <= m_axi_rdata;
    end else if (pf_pair) begin
      hb_v_q    <= 1'b0;
    end
  end

  // Second read master: every R beat on it belongs to a read-ahead MSHR. Its beat 0 of a
  // line goes to its own hold register (no bank cycle); its beat 1 (or an unpaired beat)
  // needs the side port, which it gets when the first master's refill beat and every
  // other side request leave it free, or after waiting 3 cycles before the others (but
  // never before the first master's refill beat) (p1_go): else its R waits (rready low).
  // The fabric's read reorder buffer keeps the other masters' beats flowing meanwhile
  // (docs/fabric.md). The age bound matters: a side request may wait for a line this
  // master is refilling.
  logic           p1_r_valid, p1_hold, p1_need, p1_acc;
  logic [1:0]     p1_age_q;
  logic [PfW-1:0] p1_r_idx;
  logic           hb1_v_q;
  logic [PfW-1:0] hb1_idx_q;
  if (RdMasters == 2) begin : g_rd1
    assign p1_r_valid = m1_axi_rvalid;
    assign p1_r_idx   = PfW'(32'(m1_axi_rid) - NumEng);
  end else begin : g_no_rd1
    logic unused_r1;
    assign unused_r1  = ^{m1_axi_rid, m1_axi_rvalid};
    assign p1_r_valid = 1'b0;
    assign p1_r_idx   = '0;
  end
  assign p1_hold = p1_r_valid && !p1_fill_beat && !hb1_v_q;
  assign p1_pair = p1_r_valid && p1_fill_beat && hb1_v_q && (hb1_idx_q == p1_r_idx);
  assign p1_need = p1_r_valid && !p1_hold;
  assign p1_go   = p1_need && !pf_fill && (!(|sd_req) || (p1_age_q == 2'd3));
  assign p1_acc  = p1_hold || p1_go;
  assign m1_axi_rready = !p1_need || p1_go;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) p1_age_q <= '0;
    else         p1_age_q <= (p1_need && !p1_go && p1_age_q != 2'd3) ? p1_age_q + 2'd1 :
                             (p1_need && !p1_go) ? p1_age_q : 2'd0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hb1_v_q    <= 1'b0;
      hb1_idx_q  <= '0;
      hb1_data_q <= '0;
    end else if (p1_hold) begin
      hb1_v_q    <= 1'b1;
      hb1_idx_q  <= p1_r_idx;
      hb1_data_q <= m1_axi_rdata;
    end else if (p1_pair && p1_go) begin
      hb1_v_q    <= 1'b0;
    end
  end
  assign eng_write[PfReq] = 1'b0;
  assign eng_full[PfReq]  = 1'b0;
  assign eng_pair[PfReq]  = 1'b0;
  assign eng_wdata1[PfReq] = '0;
  assign eng_alloc[PfReq] = 1'b1;
  assign eng_wdata[PfReq] = '0;
  assign eng_wstrb[PfReq] = '0;

  tessera_l2_pf #(
    .NumPorts (NumPorts),
    .NumPf    (NumPf),
    .WayBits  (WayBits),
    .LsetBits (LsetBits),
    .BankBits (BankBits),
    .HintDepth (ArDepth + 1)
  ) u_pf (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .hint_valid_i (hint_v),
    .hint_addr_i  (hint_addr),
    .hint_len_i   (hint_len),
    .hint_cls_i   (hint_cls),
    .hint_blk_i   (hint_blk),
    .enable_i     (pf_enable),
    .req_valid_o  (eng_req[PfReq]),
    .req_addr_o   (eng_addr[PfReq]),
    .req_cls_o    (eng_cls[PfReq]),
    .req_gnt_i    (eng_gnt[PfReq]),
    .req_bank_i   (eng_bank[PfReq]),
    .req_lset_i   (eng_lset[PfReq]),
    .res_valid_i  (pres_valid),
    .res_kind_i   (pres_kind),
    .res_way_i    (pres_way),
    .ar_req_o     (pf_ar_req),
    .ar_addr_o    (pf_ar_addr),
    .ar_len_o     (pf_ar_len),
    .ar_gnt_i     (pf_ar_gnt),
    .hazard_i     (pf_hazard),
    .hz_want_o    (pf_hz_want),
    .rng_line_o   (pf_rng_line),
    .rng_n_o      (pf_rng_n),
    .r_valid_i    (pf_r_valid),
    .r_idx_i      (pf_r_idx),
    .r_resp_i     (m_axi_rresp),
    .r1_valid_i   (p1_acc),
    .r1_idx_i     (p1_r_idx),
    .r1_resp_i    (m1_axi_rresp),
    .fill_bank_o  (pf_fill_bank),
    .fill_lset_o  (pf_fill_lset),
    .fill_way_o   (pf_fill_way),
    .fill_beat_o  (pf_fill_beat),
    .fill_last_o  (pf_fill_last),
    .fill_err_o   (pf_fill_err),
    .fill1_bank_o (p1_fill_bank),
    .fill1_lset_o (p1_fill_lset),
    .fill1_way_o  (p1_fill_way),
    .fill1_beat_o (p1_fill_beat),
    .fill1_err_o  (p1_fill_err),
    .idle_o       (pf_idle)
  );

  // ---------------------------------------------------------------- MSHRs
  logic [NumEng-1:0]        ms_wq_req, ms_wq_line, ms_wq_notify, ms_wq_gnt;
  logic [NumEng-1:0][31:0]  ms_wq_addr;
  logic [NumEng-1:0][511:0] ms_wq_data;
  logic [NumEng-1:0][63:0]  ms_wq_strb;
  logic [NumEng-1:0]        ms_vict_pend, ms_bw_pend, ms_hazard, ms_hz_want;
  logic [NumEng-1:0][25:0]  ms_vict_line, ms_bw_line;
  logic [NumEng-1:0]        ms_ar_req, ms_ar_line, ms_ar_gnt, ms_r_valid;
  logic [NumEng-1:0][31:0]  ms_ar_addr;

  for (genvar e = 0; e < NumEng; e++) begin : g_mshr
    tessera_l2_mshr #(
      .WayBits  (WayBits),
      .LsetBits (LsetBits),
      .BankBits (BankBits)
    ) u_mshr (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      // (a full-line write allocated over a dirty victim is a hit: the MSHR only queues
      // the victim's write-back; the write engine keeps the MSHR free for it, see free_o)
      .start_i        (eres_valid[e] &&
                       (eres_kind[e] == tessera_l2_pkg::ResMissAlloc || eres_kind[e] == tessera_l2_pkg::ResMissBypass ||
                        (eres_kind[e] == tessera_l2_pkg::ResHit && eres_nof[e] && eres_vdirty[e]))),
      .start_alloc_i  (eres_kind[e] == tessera_l2_pkg::ResMissAlloc),
      .start_vonly_i  (eres_kind[e] == tessera_l2_pkg::ResHit),
      .free_o         (ms_free[e]),
      .idle_o         (ms_idle[e]),
      .start_write_i  (eng_write[e]),
      .start_addr_i   (eng_cur[e]),
      .start_wdata_i  (eng_cur_wdata[e]),
      .start_wstrb_i  (eng_cur_wstrb[e]),
      .start_full_i   (eng_cur_full[e] && in_window(eng_cur[e])),
      .start_wdata1_i (eng_cur_wdata1[e]),
      .start_bank_i   (cur_bank[e]),
      .start_lset_i   (cur_lset[e]),
      .start_way_i    (eres_way[e]),
      .start_vdirty_i (eres_vdirty[e]),
      .start_vaddr_i  (eres_vaddr[e]),
      .start_vdata_i  (eres_vdata[e]),
      .start_vmask_i  (eres_vmask[e]),
      .done_o         (mdone[e]),
      .done_replay_o  (mdone_replay[e]),
      .done_resp_o    (mdone_resp[e]),
      .done_rdata_o   (mdone_rdata[e]),
      .side_req_o     (ms_side_req[e]),
      .side_op_o      (ms_side_op[e]),
      .side_bank_o    (ms_side_bank[e]),
      .side_lset_o    (ms_side_lset[e]),
      .side_way_o     (ms_side_way[e]),
      .side_wdata_o   (ms_side_wdata[e]),
      .side_gnt_i     (sd_gnt[e]),
      .wq_req_o       (ms_wq_req[e]),
      .wq_addr_o      (ms_wq_addr[e]),
      .wq_line_o      (ms_wq_line[e]),
      .wq_data_o      (ms_wq_data[e]),
      .wq_strb_o      (ms_wq_strb[e]),
      .wq_notify_o    (ms_wq_notify[e]),
      .wq_gnt_i       (ms_wq_gnt[e]),
      .vict_pend_o    (ms_vict_pend[e]),
      .vict_line_o    (ms_vict_line[e]),
      .bw_pend_o      (ms_bw_pend[e]),
      .bw_line_o      (ms_bw_line[e]),
      .ar_req_o       (ms_ar_req[e]),
      .ar_addr_o      (ms_ar_addr[e]),
      .ar_line_o      (ms_ar_line[e]),
      .hazard_i       (ms_hazard[e]),
      .hz_want_o      (ms_hz_want[e]),
      .ar_gnt_i       (ms_ar_gnt[e]),
      .r_valid_i      (ms_r_valid[e]),
      .r_data_i       (m_axi_rdata),
      .r_resp_i       (m_axi_rresp),
      .r_last_i       (m_axi_rlast)
    );
    assign ms_r_valid[e]  = m_axi_rvalid && (m_axi_rid == MIdBits'(e));
  end
  assign m_axi_rready = 1'b1;

  // ---------------------------------------------------------------- write queue
  logic                    mt_wq_req, mt_wq_gnt, mt_b_done, mt_wb_pend;
  logic [31:0]             mt_wq_addr;
  logic [511:0]            mt_wq_data;
  logic [63:0]             mt_wq_strb;
  logic [25:0]             mt_wb_line;
  logic                    wq_full, wq_push, wq_done, wq_done_notify;
  logic [SrcW-1:0]         wq_done_src;
  logic [31:0]             wq_done_addr;
  logic [WqDepth-1:0]      wq_ent_valid;
  logic [WqDepth-1:0][25:0] wq_ent_line;
  logic [NumEng-1:0]       wp_gnt;
  logic [EngW-1:0]         wp_idx;
  logic [31:0]             wp_addr;
  logic                    wp_line, wp_notify;
  logic [511:0]            wp_data;
  logic [63:0]             wp_strb;
  logic [SrcW-1:0]         wp_src;

  // the maintenance engine has priority (its write-back is older than any later victim)
  tessera_rr_arb #(.N(NumEng)) u_wq_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (ms_wq_req),
    .ack_i     (!wq_full && !mt_wq_req && !pf_wq_push),
    .gnt_o     (wp_gnt),
    .idx_o     (wp_idx)
  );
  // (a read-ahead victim push always finds room: see pf_enable)
  assign mt_wq_gnt = mt_wq_req && !wq_full && !pf_wq_push;
  assign ms_wq_gnt = (mt_wq_req || wq_full || pf_wq_push) ? '0 : wp_gnt;
  assign wq_push   = pf_wq_push || mt_wq_req || (|ms_wq_req);
  assign wp_addr   = pf_wq_push ? pres_vaddr : mt_wq_req ? mt_wq_addr : ms_wq_addr[wp_idx];
  assign wp_line   = pf_wq_push || mt_wq_req || ms_wq_line[wp_idx];
  assign wp_notify = !pf_wq_push && (mt_wq_req || ms_wq_notify[wp_idx]);
  assign wp_data   = pf_wq_push ? pres_vdata : mt_wq_req ? mt_wq_data : ms_wq_data[wp_idx];
  // line write-backs carry the line's byte-dirty mask as strobes (only dirty bytes written)
  assign wp_strb   = pf_wq_push ? pres_vmask : mt_wq_req ? mt_wq_strb : ms_wq_strb[wp_idx];
  assign wp_src    = mt_wq_req ? SrcW'(MaintSrc) : SrcW'(wp_idx);

  logic [MIdBits-1:0] unused_bid;
  assign unused_bid = m_axi_bid;

  tessera_l2_wq #(
    .Depth   (WqDepth),
    .SrcW    (SrcW),
    .MIdBits (MIdBits)
  ) u_wq (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .push_i          (wq_push),
    .push_addr_i     (wp_addr),
    .push_line_i     (wp_line),
    .push_data_i     (wp_data),
    .push_strb_i     (wp_strb),
    .push_notify_i   (wp_notify),
    .push_src_i      (wp_src),
    .full_o          (wq_full),
    .room2_o         (wq_room2),
    .done_o          (wq_done),
    .done_src_o      (wq_done_src),
    .done_notify_o   (wq_done_notify),
    .done_resp_o     (wq_done_resp),
    .done_addr_o     (wq_done_addr),
    .ent_valid_o     (wq_ent_valid),
    .ent_line_o      (wq_ent_line),
    .m_axi_awid_o    (m_axi_awid),
    .m_axi_awaddr_o  (m_axi_awaddr),
    .m_axi_awlen_o   (m_axi_awlen),
    .m_axi_awvalid_o (m_axi_awvalid),
    .m_axi_awready_i (m_axi_awready),
    .m_axi_wdata_o   (m_axi_wdata),
    .m_axi_wstrb_o   (m_axi_wstrb),
    .m_axi_wlast_o   (m_axi_wlast),
    .m_axi_wvalid_o  (m_axi_wvalid),
    .m_axi_wready_i  (m_axi_wready),
    .m_axi_bresp_i   (m_axi_bresp),
    .m_axi_bvalid_i  (m_axi_bvalid),
    .m_axi_bready_o  (m_axi_bready)
  );
  assign m_axi_awsize  = 3'd5;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awcache = 4'b0011;
  assign m_axi_awprot  = 3'b000;
  assign m_axi_awqos   = 4'd0;

  always_comb begin
    for (int e = 0; e < NumEng; e++) begin
      ms_b_done[e] = wq_done && wq_done_notify && (wq_done_src == SrcW'(e));
    end
  end
  assign mt_b_done = wq_done && wq_done_notify && (wq_done_src == SrcW'(MaintSrc));

  // ---------------------------------------------------------------- hazards
  // A downstream read of line L waits while a write of L is queued, unacknowledged, or
  // held by a victim / maintenance / non-allocating write not yet queued. A non-allocating
  // write waits only behind write-backs of L not yet queued (victims, maintenance): what is
  // queued leaves before it (one AWID, in order).
  // (each requester's compare loops run only in the states where its MSHR looks at the
  // result, hz_want: the same requests, and the simulator skips the loops otherwise)
  always_comb begin
    for (int e = 0; e < NumEng; e++) begin
      ms_hazard[e] = 1'b0;
      if (ms_hz_want[e]) begin
        ms_hazard[e] = mt_wb_pend && (mt_wb_line == ms_bw_line[e]);
        // (a posted write, ms_bw_pend, does not wait for the write queue's entries of its
        // line: they are older and all writes leave in order on AWID 0; a refill does)
        for (int i = 0; i < WqDepth; i++) begin
          if (wq_ent_valid[i] && wq_ent_line[i] == ms_bw_line[e] && !ms_bw_pend[e]) ms_hazard[e] = 1'b1;
        end
        for (int f = 0; f < NumEng; f++) begin
          if (f != e) begin
            if (ms_vict_pend[f] && ms_vict_line[f] == ms_bw_line[e]) ms_hazard[e] = 1'b1;
            if (!ms_bw_pend[e] && ms_bw_pend[f] && ms_bw_line[f] == ms_bw_line[e]) ms_hazard[e] = 1'b1;
          end
        end
      end
    end
  end

  // a read-ahead run of lines [rng_line, rng_line + rng_n) obeys the same rule as a refill
  always_comb begin
    for (int k = 0; k < NumPf; k++) begin
      pf_hazard[k] = 1'b0;
      if (pf_hz_want[k]) begin
        pf_hazard[k] = mt_wb_pend && ((mt_wb_line - pf_rng_line[k]) < 26'(pf_rng_n[k]));
        for (int i = 0; i < WqDepth; i++) begin
          if (wq_ent_valid[i] && ((wq_ent_line[i] - pf_rng_line[k]) < 26'(pf_rng_n[k]))) pf_hazard[k] = 1'b1;
        end
        for (int f = 0; f < NumEng; f++) begin
          if (ms_vict_pend[f] && ((ms_vict_line[f] - pf_rng_line[k]) < 26'(pf_rng_n[k]))) pf_hazard[k] = 1'b1;
          if (ms_bw_pend[f] && ((ms_bw_line[f] - pf_rng_line[k]) < 26'(pf_rng_n[k]))) pf_hazard[k] = 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- downstream reads
  // requesters: the engines' MSHRs (ARID = engine index) and the read-ahead MSHRs
  // (ARID = NumEng + k); every read in flight has its own ID
  logic [NumRd-1:0]        ar_req_all, ar_gnt_arb, ar_gnt_all;
  logic [NumRd-1:0][31:0]  ar_addr_all;
  logic [NumRd-1:0][7:0]   ar_len_all;
  logic [RdW-1:0]          ar_idx;
  logic                    ar_v_q, ar_take;
  logic [RdW-1:0]          ar_id_q;
  logic [31:0]             ar_addr_q;
  logic [7:0]              ar_len_q;
  always_comb begin
    for (int e = 0; e < NumEng; e++) begin
      ar_req_all[e]  = ms_ar_req[e];
      ar_addr_all[e] = ms_ar_addr[e];
      ar_len_all[e]  = ms_ar_line[e] ? 8'd1 : 8'd0;
    end
    for (int k = 0; k < NumPf; k++) begin
      ar_req_all[NumEng + k]  = pf_ar_req[k] && pf0_ok;
      ar_addr_all[NumEng + k] = pf_ar_addr[k];
      ar_len_all[NumEng + k]  = pf_ar_len[k];
    end
  end
  assign ar_take = !ar_v_q || m_axi_arready;
  tessera_rr_arb #(.N(NumRd)) u_ar_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (ar_req_all),
    .ack_i     (ar_take),
    .gnt_o     (ar_gnt_arb),
    .idx_o     (ar_idx)
  );
  assign ar_gnt_all = ar_take ? ar_gnt_arb : '0;
  assign ms_ar_gnt  = ar_gnt_all[NumEng-1:0];
  assign pf_ar_gnt  = ar_gnt_all[NumRd-1:NumEng] | ar1_gnt;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_v_q    <= 1'b0;
      ar_len_q  <= '0;
      ar_id_q   <= '0;
      ar_addr_q <= '0;
    end else if (ar_take) begin
      ar_v_q    <= |ar_req_all;
      ar_len_q  <= ar_len_all[ar_idx];
      ar_id_q   <= ar_idx;
      ar_addr_q <= ar_addr_all[ar_idx];
    end
  end
  assign m_axi_arid    = MIdBits'(ar_id_q);
  assign m_axi_araddr  = ar_addr_q;
  assign m_axi_arlen   = ar_len_q;
  assign m_axi_arsize  = 3'd5;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = 4'd0;
  assign m_axi_arvalid = ar_v_q;

  // second read master: the read-ahead runs the first one does not take in this cycle. The
  // first takes one only while it has no more R beats outstanding than the second (or the
  // second's AR register is full), so a stream's refills split evenly over both R channels
  // (R bandwidth, not AR issue, is what a master lacks).
  if (RdMasters == 2) begin : g_ar1
    logic [NumPf-1:0] ar1_req, ar1_gnt_arb;
    logic [PfW-1:0]   ar1_idx;
    logic             ar1_take;
    logic [PfW-1:0]   ar1_id_q;
    logic [31:0]      ar1_addr_q;
    logic [7:0]       ar1_len_q;
    logic [9:0]       out0_q, out1_q;  // R beats requested and not yet received, per master
    assign ar1_req  = pf_ar_req & ~ar_gnt_all[NumRd-1:NumEng];
    assign ar1_take = !ar1_v_q || m1_axi_arready;
    assign pf0_ok   = (out0_q <= out1_q) || !ar1_take;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        out0_q <= '0;
        out1_q <= '0;
      end else begin
        out0_q <= out0_q + ((ar_v_q && m_axi_arready) ? 10'(ar_len_q) + 10'd1 : 10'd0)
                         - 10'(m_axi_rvalid);
        out1_q <= out1_q + ((ar1_v_q && m1_axi_arready) ? 10'(ar1_len_q) + 10'd1 : 10'd0)
                         - 10'(m1_axi_rvalid && m1_axi_rready);
      end
    end
    tessera_rr_arb #(.N(NumPf)) u_ar1_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (ar1_req),
      .ack_i     (ar1_take),
      .gnt_o     (ar1_gnt_arb),
      .idx_o     (ar1_idx)
    );
    assign ar1_gnt = ar1_take ? ar1_gnt_arb : '0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ar1_v_q    <= 1'b0;
        ar1_len_q  <= '0;
        ar1_id_q   <= '0;
        ar1_addr_q <= '0;
      end else if (ar1_take) begin
        ar1_v_q    <= |ar1_req;
        ar1_len_q  <= pf_ar_len[ar1_idx];
        ar1_id_q   <= ar1_idx;
        ar1_addr_q <= pf_ar_addr[ar1_idx];
      end
    end
    assign m1_axi_arid    = MIdBits'(32'(ar1_id_q) + NumEng);
    assign m1_axi_araddr  = ar1_addr_q;
    assign m1_axi_arlen   = ar1_len_q;
  end else begin : g_no_ar1
    logic unused_ar1;
    assign unused_ar1       = m1_axi_arready;
    assign ar1_gnt          = '0;
    assign ar1_v_q          = 1'b0;
    assign pf0_ok           = 1'b1;
    assign m1_axi_arid    = '0;
    assign m1_axi_araddr  = '0;
    assign m1_axi_arlen   = '0;
  end
  assign m1_axi_arsize  = 3'd5;
  assign m1_axi_arburst = 2'b01;
  assign m1_axi_arcache = 4'b0011;
  assign m1_axi_arprot  = 3'b000;
  assign m1_axi_arqos   = 4'd0;
  assign m1_axi_arvalid = ar1_v_q;

  // ---------------------------------------------------------------- maintenance
  logic       mt_done, mt_side_res;
  logic [3:0] mt_err;
  assign mt_side_res = sd_v_q && (sd_who_q == SideW'(MaintSrc));

  tessera_l2_maint #(
    .Sets     (Sets),
    .Ways     (Ways),
    .BankBits (BankBits),
    .MemBase  (MemBase),
    .MemSize  (MemSize)
  ) u_maint (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .go_i         (hwif_out.MAINT_CMD.go.value),
    .op_i         (tessera_l2_pkg::maint_op_e'(hwif_out.MAINT_CMD.op.value)),
    .whole_i      (hwif_out.MAINT_CMD.whole.value),
    .start_i      (hwif_out.MAINT_START.addr.value),
    .end_i        (hwif_out.MAINT_END.addr.value),
    .msg_en_i     (hwif_out.MSG_CTRL.en.value),
    .msg_addr_i   (hwif_out.MSG_ADDR.addr.value),
    .msg_data_i   (hwif_out.MSG_DATA.data.value),
    .busy_o       (mt_busy),
    .done_o       (mt_done),
    .err_code_o   (mt_err),
    .side_req_o   (mt_side_req),
    .side_bank_o  (mt_side_bank),
    .side_lset_o  (mt_side_lset),
    .side_way_o   (mt_side_way),
    .side_mop_o   (mt_mop),
    .side_whole_o (mt_whole),
    .side_lo_o    (mt_lo),
    .side_hi_o    (mt_hi),
    .side_gnt_i   (sd_gnt[MaintSrc]),
    .side_res_i   (mt_side_res),
    .side_busy_i  (bs_busy[sd_bank_q]),
    .side_wb_i    (bs_wb[sd_bank_q]),
    .side_addr_i  (bs_addr[sd_bank_q]),
    .side_rdata_i (bs_rdata[sd_bank_q]),
    .side_rmask_i (bs_rmask[sd_bank_q]),
    .wq_req_o     (mt_wq_req),
    .wq_addr_o    (mt_wq_addr),
    .wq_data_o    (mt_wq_data),
    .wq_strb_o    (mt_wq_strb),
    .wq_gnt_i     (mt_wq_gnt),
    .b_done_i     (mt_b_done),
    .wb_pend_o    (mt_wb_pend),
    .wb_line_o    (mt_wb_line),
    .msg_valid_o  (msg_valid_o),
    .msg_ready_i  (msg_ready_i),
    .msg_addr_o   (msg_addr_o),
    .msg_data_o   (msg_data_o)
  );

  // write-back errors (victims and maintenance; non-allocating writes report to the port)
  logic        wb_err;
  logic [31:0] err_addr_q;
  assign wb_err = wq_done && (wq_done_resp != 2'b00) &&
                  (!wq_done_notify || wq_done_src == SrcW'(MaintSrc));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     err_addr_q <= '0;
    else if (wb_err) err_addr_q <= wq_done_addr;
  end

  // ---------------------------------------------------------------- counters
  logic        cnt_clr;
  logic [31:0] c_hits_q, c_miss_q, c_evict_q, c_wb_q, c_stall_q, c_byp_q;
  logic [4:0][31:0] c_bytes_q;
  logic [31:0] n_hits, n_miss, n_evict, n_byp;
  assign cnt_clr = hwif_out.CTRL.cnt_clr.value;
  always_comb begin
    n_hits  = '0;
    n_miss  = '0;
    n_evict = '0;
    n_byp   = '0;
    // beat 1 of a read engine's line pair: served from the cache without its own lookup
    for (int p = 0; p < NumPorts; p++) n_hits = n_hits + 32'(rd_hit1[p]);
    for (int b = 0; b < NumBanks; b++) begin
      // (an owner hit right after an allocation without refill is the line's beat 1, a
      // first lookup: counted; an owner hit after a refill is a replay: not counted)
      if (br_valid[b] && br_kind[b] == tessera_l2_pkg::ResHit && !br_nof[b] &&
          (!br_owned[b] || nof_q[br_eng[b]]) && br_eng[b] != ReqW'(PfReq)) begin
        n_hits = n_hits + 32'd1;
      end
      // a write pair's beat 1 (after a hit, or after its beat 0 allocated the line): a hit,
      // as when it was looked up on its own
      if (br_valid[b] && br_pair[b]) n_hits = n_hits + 32'd1;
      if (br_valid[b] && br_nof[b]) n_miss = n_miss + 32'd1;
      if (br_valid[b] && br_nof[b] && br_vvalid[b]) n_evict = n_evict + 32'd1;
      if (br_valid[b] && (br_kind[b] == tessera_l2_pkg::ResMissAlloc || br_kind[b] == tessera_l2_pkg::ResMissBypass)) begin
        n_miss = n_miss + 32'd1;
      end
      if (br_valid[b] && br_kind[b] == tessera_l2_pkg::ResMissBypass) n_byp = n_byp + 32'd1;
      if (br_valid[b] && br_kind[b] == tessera_l2_pkg::ResMissAlloc && br_vvalid[b]) n_evict = n_evict + 32'd1;
    end
    // posted misses completed by the tag probe
    for (int e = 0; e < NumEng; e++) begin
      n_miss = n_miss + 32'(pb_res_q[e]);
      n_byp  = n_byp + 32'(pb_res_q[e]);
    end
  end
  // per requester: its previous lookup allocated a line without refill
  logic [NumReq-1:0] nof_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nof_q <= '0;
    end else begin
      for (int e = 0; e < NumEng; e++) begin
        if (pb_res_q[e]) nof_q[e] <= 1'b0;
      end
      for (int b = 0; b < NumBanks; b++) begin
        if (br_valid[b]) nof_q[br_eng[b]] <= br_nof[b] && !br_pair[b];
      end
    end
  end
  logic wb_cnt;
  assign wb_cnt = wq_push && !wq_full && wp_line;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_hits_q  <= '0;
      c_miss_q  <= '0;
      c_evict_q <= '0;
      c_wb_q    <= '0;
      c_stall_q <= '0;
      c_byp_q   <= '0;
      c_bytes_q <= '0;
    end else if (cnt_clr) begin
      c_hits_q  <= '0;
      c_miss_q  <= '0;
      c_evict_q <= '0;
      c_wb_q    <= '0;
      c_stall_q <= '0;
      c_byp_q   <= '0;
      c_bytes_q <= '0;
    end else begin
      c_hits_q  <= c_hits_q + n_hits;
      c_miss_q  <= c_miss_q + n_miss;
      c_evict_q <= c_evict_q + n_evict;
      c_byp_q   <= c_byp_q + n_byp;
      c_wb_q    <= c_wb_q + 32'(wb_cnt);
      c_stall_q <= c_stall_q + 32'(|eng_stall);
      for (int p = 0; p < NumPorts && p < 5; p++) begin
        c_bytes_q[p] <= c_bytes_q[p] +
                        32'(s_axi_rvalid[p] && s_axi_rready[p]) * 32'd32 +
                        32'(s_axi_wvalid[p] && s_axi_wready[p]) * 32'd32;
      end
    end
  end

  // ---------------------------------------------------------------- register inputs
  always_comb begin
    hwif_in = '0;
    hwif_in.INFO.ways.next         = 8'(Ways);
    hwif_in.INFO.ports.next        = 4'(NumPorts);
    hwif_in.INFO.banks.next        = 4'(NumBanks);
    hwif_in.INFO.size_kib.next     = 16'(SizeBytes / 1024);
    hwif_in.STATUS.busy.next       = mt_busy;
    hwif_in.STATUS.done.hwset      = mt_done;
    hwif_in.STATUS.wb_err.hwset    = wb_err;
    hwif_in.STATUS.err_code.next   = mt_err;
    hwif_in.ERR_ADDR.addr.next     = err_addr_q;
    hwif_in.HITS.count.next        = c_hits_q;
    hwif_in.MISSES.count.next      = c_miss_q;
    hwif_in.EVICTIONS.count.next   = c_evict_q;
    hwif_in.WRITEBACKS.count.next  = c_wb_q;
    hwif_in.STALLS.count.next      = c_stall_q;
    hwif_in.BYPASS.count.next      = c_byp_q;
    hwif_in.PORT0_BYTES.count.next = c_bytes_q[0];
    hwif_in.PORT1_BYTES.count.next = c_bytes_q[1];
    hwif_in.PORT2_BYTES.count.next = c_bytes_q[2];
    hwif_in.PORT3_BYTES.count.next = c_bytes_q[3];
    hwif_in.PORT4_BYTES.count.next = c_bytes_q[4];
  end

  assign irq_o = (hwif_out.IE.done.value && hwif_out.STATUS.done.value) ||
                 (hwif_out.IE.err.value &&
                  (hwif_out.STATUS.wb_err.value || (mt_err != 4'd0)));

  // unused inputs of the AXI subset (size is always the bus width, bursts are INCR)
  logic unused_axi;
  assign unused_axi = ^{s_axi_awsize, s_axi_awburst, s_axi_awprot, s_axi_wlast,
                        s_axi_arsize, s_axi_arburst, s_axi_arprot, bs_hit,
                        eres_way, ms_free, eng_cur_wdata[0], eng_cur_wdata1[0], ms_side_wdata[0], eres_rdata, eres_rdata1, mdone_rdata,
                        m1_axi_rlast};
  // ---------------------------------------------------------------- idle
  // Every unit that can act on its own is at rest and no one-cycle result is in flight;
  // the flops left (tags, data, counters, registers) then change only with an input
  // (upstream AR/AW/W, downstream R/B, APB), which the chip's clock gate also watches.
  assign idle_o = (&eng_idle) && (&ms_idle) && pf_idle && !(|wq_ent_valid) && !mt_busy &&
                  !sd_v_q && !hb_v_q && !ar_v_q && !hb1_v_q && !ar1_v_q && !(|pb_res_q) && !msg_valid_o;

endmodule
