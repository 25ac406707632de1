// Command-buffer fetch arbiter: joins the AXI4 read ports (AR/R only) of NumPorts queue
// managers into one AXI4 read master of the memory fabric, so the queues cost the
// crossbar one port. Port p must drive arid = p (its queue manager's AxiId); the fabric
// returns read data with the request's ID, which routes each R beat back to its port.
// AR: round robin between the ports with arvalid; a granted request stays selected until
// it is accepted (AXI: the address must not change while arvalid waits).
module tessera_qman_fetch_arb #(
  parameter int unsigned NumPorts = 2,
  parameter int unsigned IdBits   = 4,
  parameter int unsigned DataBits = 256
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // queue-manager side
  input  logic [NumPorts-1:0][IdBits-1:0]     s_arid_i,
  input  logic [NumPorts-1:0][31:0]           s_araddr_i,
  input  logic [NumPorts-1:0][7:0]            s_arlen_i,
  input  logic [NumPorts-1:0][2:0]            s_arsize_i,
  input  logic [NumPorts-1:0][1:0]            s_arburst_i,
  input  logic [NumPorts-1:0][3:0]            s_arcache_i,
  input  logic [NumPorts-1:0][2:0]            s_arprot_i,
  input  logic [NumPorts-1:0][3:0]            s_arqos_i,
  input  logic [NumPorts-1:0]                 s_arvalid_i,
  output logic [NumPorts-1:0]                 s_arready_o,
  output logic [NumPorts-1:0][IdBits-1:0]     s_rid_o,
  output logic [NumPorts-1:0][DataBits-1:0]   s_rdata_o,
  output logic [NumPorts-1:0][1:0]            s_rresp_o,
  output logic [NumPorts-1:0]                 s_rlast_o,
  output logic [NumPorts-1:0]                 s_rvalid_o,
  input  logic [NumPorts-1:0]                 s_rready_i,
  // fabric side
  output logic [IdBits-1:0]                   m_arid_o,
  output logic [31:0]                         m_araddr_o,
  output logic [7:0]                          m_arlen_o,
  output logic [2:0]                          m_arsize_o,
  output logic [1:0]                          m_arburst_o,
  output logic [3:0]                          m_arcache_o,
  output logic [2:0]                          m_arprot_o,
  output logic [3:0]                          m_arqos_o,
  output logic                                m_arvalid_o,
  input  logic                                m_arready_i,
  input  logic [IdBits-1:0]                   m_rid_i,
  input  logic [DataBits-1:0]                 m_rdata_i,
  input  logic [1:0]                          m_rresp_i,
  input  logic                                m_rlast_i,
  input  logic                                m_rvalid_i,
  output logic                                m_rready_o
);
  localparam int unsigned PW = (NumPorts > 1) ? $clog2(NumPorts) : 1;

  // ---------------------------------------------------------------- AR
  logic          lock_q;   // the selected port's request waits for arready
  logic [PW-1:0] sel_q, last_q, pick, sel;
  logic          found;

  // round robin: first requester after the last winner
  always_comb begin
    found = 1'b0;
    pick  = '0;
    for (int unsigned k = 1; k <= NumPorts; k++) begin
      logic [PW-1:0] p;
      p = PW'((int'(last_q) + k) % NumPorts);
      if (!found && s_arvalid_i[p]) begin
        found = 1'b1;
        pick  = p;
      end
    end
  end

  assign sel         = lock_q ? sel_q : pick;
  assign m_arvalid_o = lock_q || found;
  assign m_arid_o    = s_arid_i[sel];
  assign m_araddr_o  = s_araddr_i[sel];
  assign m_arlen_o   = s_arlen_i[sel];
  assign m_arsize_o  = s_arsize_i[sel];
  assign m_arburst_o = s_arburst_i[sel];
  assign m_arcache_o = s_arcache_i[sel];
  assign m_arprot_o  = s_arprot_i[sel];
  assign m_arqos_o   = s_arqos_i[sel];

  always_comb begin
    s_arready_o = '0;
    s_arready_o[sel] = m_arvalid_o && m_arready_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q <= 1'b0;
      sel_q  <= '0;
      last_q <= PW'(NumPorts - 1);
    end else if (m_arvalid_o) begin
      if (m_arready_i) begin
        lock_q <= 1'b0;
        last_q <= sel;
      end else begin
        lock_q <= 1'b1;
        sel_q  <= sel;
      end
    end
  end

  // ---------------------------------------------------------------- R (routed by ID)
  logic [PW-1:0] r_port;
  assign r_port = PW'(m_rid_i);

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      s_rid_o[p]    = m_rid_i;
      s_rdata_o[p]  = m_rdata_i;
      s_rresp_o[p]  = m_rresp_i;
      s_rlast_o[p]  = m_rlast_i;
      s_rvalid_o[p] = m_rvalid_i && (r_port == PW'(p));
    end
  end
  assign m_rready_o = s_rready_i[r_port];
endmodule
