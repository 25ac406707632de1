// System bus: an OBI crossbar from NumMst masters (management core data port,
// host port, engine messages, ...) to the on-chip slaves, decoded by the address
// map of config/tessera.toml (tessera_cfg_pkg).
//
//   slave 0 BOOTROM data port (reads only)   slave 3 CSR space (APB bridge)
//   slave 1 ISRAM data port                  slave 4 HBM window (OBI->AXI bridge)
//   slave 2 DSRAM data port                  internal error slave: everything else
//
// Every master has at most one transaction outstanding (OBI contract). Every
// slave holds at most one transaction and may accept the next one in the cycle
// its response returns, so single-cycle SRAMs run at one access per cycle.
// Arbitration per slave is round robin. Unmapped addresses, writes to the ROM
// and addresses beyond a memory's populated size get an error response.
module tessera_sysbus #(
  parameter int unsigned NumMst    = 3,
  parameter int unsigned RomBytes  = tessera_cfg_pkg::BootromBytes,
  parameter int unsigned IramBytes = tessera_cfg_pkg::IsramBytes,
  parameter int unsigned DramBytes = tessera_cfg_pkg::DsramBytes
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // masters (tessera_bus_pkg::obi_req_t / obi_rsp_t each)
  input  logic [NumMst-1:0][tessera_bus_pkg::ObiReqBits-1:0] slv_req_i,
  output logic [NumMst-1:0][tessera_bus_pkg::ObiRspBits-1:0] slv_rsp_o,
  // slaves (0 ROM, 1 ISRAM, 2 DSRAM, 3 CSR, 4 HBM)
  output logic [4:0][tessera_bus_pkg::ObiReqBits-1:0]        mst_req_o,
  input  logic [4:0][tessera_bus_pkg::ObiRspBits-1:0]        mst_rsp_i
);
  localparam int unsigned NumSlv = 6;  // 5 external + internal error slave
  localparam int unsigned SlvErr = 5;
  localparam int unsigned MstW   = (NumMst > 1) ? $clog2(NumMst) : 1;
  localparam int unsigned SlvW   = 3;
  localparam logic [31:0] RomBase  = tessera_cfg_pkg::BootromBase;
  localparam logic [31:0] IramBase = tessera_cfg_pkg::IsramBase;
  localparam logic [31:0] DramBase = tessera_cfg_pkg::DsramBase;
  localparam logic [31:0] MemBase  = tessera_cfg_pkg::HbmBase;
  localparam logic [31:0] MemSize  = tessera_cfg_pkg::HbmSize;

  // ---------------------------------------------------------------- ports as per-signal arrays
  logic [NumMst-1:0]       m_req, m_gnt, m_we, m_rvalid, m_err;
  logic [NumMst-1:0][31:0] m_addr, m_wdata, m_rdata;
  logic [NumMst-1:0][3:0]  m_be;
  logic [4:0]              s_req, s_gnt, s_we, s_rvalid, s_err;
  logic [4:0][31:0]        s_addr, s_wdata, s_rdata;
  logic [4:0][3:0]         s_be;
  for (genvar m = 0; m < NumMst; m++) begin : g_mst
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    assign req        = slv_req_i[m];
    assign m_req[m]   = req.req;
    assign m_addr[m]  = req.addr;
    assign m_we[m]    = req.we;
    assign m_be[m]    = req.be;
    assign m_wdata[m] = req.wdata;
    assign rsp.gnt    = m_gnt[m];
    assign rsp.rvalid = m_rvalid[m];
    assign rsp.rdata  = m_rdata[m];
    assign rsp.err    = m_err[m];
    assign slv_rsp_o[m] = rsp;
  end
  for (genvar t = 0; t < 5; t++) begin : g_slv
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    assign req.req      = s_req[t];
    assign req.addr     = s_addr[t];
    assign req.we       = s_we[t];
    assign req.be       = s_be[t];
    assign req.wdata    = s_wdata[t];
    assign mst_req_o[t] = req;
    assign rsp          = mst_rsp_i[t];
    assign s_gnt[t]     = rsp.gnt;
    assign s_rvalid[t]  = rsp.rvalid;
    assign s_rdata[t]   = rsp.rdata;
    assign s_err[t]     = rsp.err;
  end

  // ---------------------------------------------------------------- decode
  function automatic logic [SlvW-1:0] decode(logic [31:0] a, logic we);
    // (a - base) < size: one unsigned compare per region
    decode = SlvW'(SlvErr);
    if ((a - RomBase) < RomBytes && !we)     decode = 3'd0;
    else if ((a - IramBase) < IramBytes)     decode = 3'd1;
    else if ((a - DramBase) < DramBytes)     decode = 3'd2;
    else if (a[31:28] == 4'h2 || a[31:28] == 4'h3) decode = 3'd3;
    else if ((a - MemBase) < MemSize)        decode = 3'd4;
  endfunction

  logic [NumMst-1:0][SlvW-1:0] sel;
  always_comb begin
    for (int unsigned m = 0; m < NumMst; m++) sel[m] = decode(m_addr[m], m_we[m]);
  end

  // ---------------------------------------------------------------- error slave
  logic err_rvalid_q;
  logic err_req;

  logic [NumSlv-1:0] slv_gnt, slv_rvalid, slv_req;
  logic [NumSlv-1:0][31:0] slv_rdata;
  logic [NumSlv-1:0] slv_err;
  always_comb begin
    slv_gnt    = {1'b1, s_gnt};
    slv_rvalid = {err_rvalid_q, s_rvalid};
    slv_rdata  = {32'h0, s_rdata};
    slv_err    = {1'b1, s_err};
  end
  assign err_req = slv_req[SlvErr];

  // ---------------------------------------------------------------- arbitration
  logic [NumSlv-1:0]           busy_q, busy_d;
  logic [NumSlv-1:0][MstW-1:0] owner_q, owner_d, rr_q, rr_d;
  logic [NumSlv-1:0][MstW-1:0] winner;
  logic [NumSlv-1:0]           found;

  always_comb begin
    m_gnt = '0;
    busy_d  = busy_q;
    owner_d = owner_q;
    rr_d    = rr_q;
    slv_req = '0;
    for (int unsigned s = 0; s < NumSlv; s++) begin
      found[s]  = 1'b0;
      winner[s] = '0;
      // round robin: first requester at or after rr_q[s]
      for (int unsigned k = 0; k < NumMst; k++) begin
        int unsigned m;
        m = (int'(rr_q[s]) + k) % NumMst;
        if (!found[s] && m_req[m] && sel[m] == SlvW'(s)) begin
          found[s]  = 1'b1;
          winner[s] = MstW'(m);
        end
      end
      slv_req[s] = found[s] && (!busy_q[s] || slv_rvalid[s]);
      if (slv_rvalid[s]) busy_d[s] = 1'b0;
      if (slv_req[s] && slv_gnt[s]) begin
        m_gnt[winner[s]] = 1'b1;
        busy_d[s]  = 1'b1;
        owner_d[s] = winner[s];
        rr_d[s]    = (int'(winner[s]) == NumMst - 1) ? '0 : winner[s] + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= '0;
      owner_q      <= '0;
      rr_q         <= '0;
      err_rvalid_q <= 1'b0;
    end else begin
      busy_q       <= busy_d;
      owner_q      <= owner_d;
      rr_q         <= rr_d;
      err_rvalid_q <= err_req;
    end
  end

  // ---------------------------------------------------------------- slave request mux
  always_comb begin
    for (int unsigned s = 0; s < 5; s++) begin
      s_req[s]   = slv_req[s];
      s_addr[s]  = m_addr[winner[s]];
      s_we[s]    = m_we[winner[s]];
      s_be[s]    = m_be[winner[s]];
      s_wdata[s] = m_wdata[winner[s]];
    end
  end

  // ---------------------------------------------------------------- responses
  always_comb begin
    m_rvalid = '0;
    m_rdata  = '0;
    m_err    = '0;
    for (int unsigned s = 0; s < NumSlv; s++) begin
      if (busy_q[s] && slv_rvalid[s]) begin
        m_rvalid[owner_q[s]] = 1'b1;
        m_rdata[owner_q[s]]  = slv_rdata[s];
        m_err[owner_q[s]]    = slv_err[s];
      end
    end
  end
endmodule
