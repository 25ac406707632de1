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
  // masters
  input  logic [NumMst-1:0]        m_req_i,
  output logic [NumMst-1:0]        m_gnt_o,
  input  logic [NumMst-1:0][31:0]  m_addr_i,
  input  logic [NumMst-1:0]        m_we_i,
  input  logic [NumMst-1:0][3:0]   m_be_i,
  input  logic [NumMst-1:0][31:0]  m_wdata_i,
  output logic [NumMst-1:0]        m_rvalid_o,
  output logic [NumMst-1:0][31:0]  m_rdata_o,
  output logic [NumMst-1:0]        m_err_o,
  // slaves (0 ROM, 1 ISRAM, 2 DSRAM, 3 CSR, 4 HBM)
  output logic [4:0]               s_req_o,
  input  logic [4:0]               s_gnt_i,
  output logic [4:0][31:0]         s_addr_o,
  output logic [4:0]               s_we_o,
  output logic [4:0][3:0]          s_be_o,
  output logic [4:0][31:0]         s_wdata_o,
  input  logic [4:0]               s_rvalid_i,
  input  logic [4:0][31:0]         s_rdata_i,
  input  logic [4:0]               s_err_i
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
    for (int unsigned m = 0; m < NumMst; m++) sel[m] = decode(m_addr_i[m], m_we_i[m]);
  end

  // ---------------------------------------------------------------- error slave
  logic err_rvalid_q;
  logic err_req;

  logic [NumSlv-1:0] slv_gnt, slv_rvalid, slv_req;
  logic [NumSlv-1:0][31:0] slv_rdata;
  logic [NumSlv-1:0] slv_err;
  always_comb begin
    slv_gnt    = {1'b1, s_gnt_i};
    slv_rvalid = {err_rvalid_q, s_rvalid_i};
    slv_rdata  = {32'h0, s_rdata_i};
    slv_err    = {1'b1, s_err_i};
  end
  assign err_req = slv_req[SlvErr];

  // ---------------------------------------------------------------- arbitration
  logic [NumSlv-1:0]           busy_q, busy_d;
  logic [NumSlv-1:0][MstW-1:0] owner_q, owner_d, rr_q, rr_d;
  logic [NumSlv-1:0][MstW-1:0] winner;
  logic [NumSlv-1:0]           found;

  always_comb begin
    m_gnt_o = '0;
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
        if (!found[s] && m_req_i[m] && sel[m] == SlvW'(s)) begin
          found[s]  = 1'b1;
          winner[s] = MstW'(m);
        end
      end
      slv_req[s] = found[s] && (!busy_q[s] || slv_rvalid[s]);
      if (slv_rvalid[s]) busy_d[s] = 1'b0;
      if (slv_req[s] && slv_gnt[s]) begin
        m_gnt_o[winner[s]] = 1'b1;
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
      s_req_o[s]   = slv_req[s];
      s_addr_o[s]  = m_addr_i[winner[s]];
      s_we_o[s]    = m_we_i[winner[s]];
      s_be_o[s]    = m_be_i[winner[s]];
      s_wdata_o[s] = m_wdata_i[winner[s]];
    end
  end

  // ---------------------------------------------------------------- responses
  always_comb begin
    m_rvalid_o = '0;
    m_rdata_o  = '0;
    m_err_o    = '0;
    for (int unsigned s = 0; s < NumSlv; s++) begin
      if (busy_q[s] && slv_rvalid[s]) begin
        m_rvalid_o[owner_q[s]] = 1'b1;
        m_rdata_o[owner_q[s]]  = slv_rdata[s];
        m_err_o[owner_q[s]]    = slv_err[s];
      end
    end
  end
endmodule
