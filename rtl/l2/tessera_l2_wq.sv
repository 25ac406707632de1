// Downstream write queue of an L2 slice: dirty-victim and maintenance write-backs (one
// 64-byte line, 2 beats) and non-allocating write beats (1 beat with strobes). All writes
// use AWID 0, so they complete in order; an entry stays until its B response so that
// reads to the same line can wait for it (hazard outputs).
module tessera_l2_wq #(
  parameter int unsigned Depth  = 4,
  parameter int unsigned SrcW   = 3,
  parameter int unsigned MIdBits = 4,
  parameter int unsigned PtrW   = $clog2(Depth)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // push
  input  logic                   push_i,
  input  logic [31:0]            push_addr_i,
  input  logic                   push_line_i,
  input  logic [511:0]           push_data_i,
  input  logic [63:0]            push_strb_i,
  input  logic                   push_notify_i,
  input  logic [SrcW-1:0]        push_src_i,
  output logic                   full_o,
  output logic                   room2_o,   // at least two entries free
  // completion (B)
  output logic                   done_o,
  output logic [SrcW-1:0]        done_src_o,
  output logic                   done_notify_o,
  output logic [1:0]             done_resp_o,
  output logic [31:0]            done_addr_o,
  // hazard view
  output logic [Depth-1:0]       ent_valid_o,
  output logic [Depth-1:0][25:0] ent_line_o,
  // AXI write channels
  output logic [MIdBits-1:0]     m_axi_awid_o,
  output logic [31:0]            m_axi_awaddr_o,
  output logic [7:0]             m_axi_awlen_o,
  output logic                   m_axi_awvalid_o,
  input  logic                   m_axi_awready_i,
  output logic [255:0]           m_axi_wdata_o,
  output logic [31:0]            m_axi_wstrb_o,
  output logic                   m_axi_wlast_o,
  output logic                   m_axi_wvalid_o,
  input  logic                   m_axi_wready_i,
  input  logic [1:0]             m_axi_bresp_i,
  input  logic                   m_axi_bvalid_i,
  output logic                   m_axi_bready_o
);
  logic [Depth-1:0]            val_q;
  logic [Depth-1:0][31:0]      addr_q;
  logic [Depth-1:0]            line_q, notify_q;
  logic [Depth-1:0][511:0]     data_q;
  logic [Depth-1:0][63:0]      strb_q;
  logic [Depth-1:0][SrcW-1:0]  src_q;
  logic [PtrW-1:0]             wr_q, aw_q, w_q, b_q;
  logic [PtrW:0]               cnt_q, naw_q, nw_q;  // entries; entries with AW / W pending
  logic                        wbeat_q;

  logic push, aw_fire, w_fire, w_done, b_fire;
  assign full_o  = (cnt_q == (PtrW+1)'(Depth));
  assign room2_o = (32'(cnt_q) + 2 <= Depth);
  assign push    = push_i && !full_o;
  assign aw_fire = m_axi_awvalid_o && m_axi_awready_i;
  assign w_fire  = m_axi_wvalid_o && m_axi_wready_i;
  assign w_done  = w_fire && m_axi_wlast_o;
  assign b_fire  = m_axi_bvalid_i && m_axi_bready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      val_q    <= '0;
      addr_q   <= '0;
      line_q   <= '0;
      notify_q <= '0;
      data_q   <= '0;
      strb_q   <= '0;
      src_q    <= '0;
      wr_q     <= '0;
      aw_q     <= '0;
      w_q      <= '0;
      b_q      <= '0;
      cnt_q    <= '0;
      naw_q    <= '0;
      nw_q     <= '0;
      wbeat_q  <= 1'b0;
    end else begin
      if (push) begin
        val_q[wr_q]    <= 1'b1;
        addr_q[wr_q]   <= push_addr_i;
        line_q[wr_q]   <= push_line_i;
        notify_q[wr_q] <= push_notify_i;
        data_q[wr_q]   <= push_data_i;
        strb_q[wr_q]   <= push_strb_i;
        src_q[wr_q]    <= push_src_i;
        wr_q           <= (32'(wr_q) == Depth - 1) ? '0 : wr_q + 1'b1;
      end
      if (aw_fire) aw_q <= (32'(aw_q) == Depth - 1) ? '0 : aw_q + 1'b1;
      if (w_fire)  wbeat_q <= w_done ? 1'b0 : 1'b1;
      if (w_done)  w_q <= (32'(w_q) == Depth - 1) ? '0 : w_q + 1'b1;
      if (b_fire) begin
        val_q[b_q] <= 1'b0;
        b_q        <= (32'(b_q) == Depth - 1) ? '0 : b_q + 1'b1;
      end
      cnt_q <= cnt_q + (PtrW+1)'(push) - (PtrW+1)'(b_fire);
      naw_q <= naw_q + (PtrW+1)'(push) - (PtrW+1)'(aw_fire);
      nw_q  <= nw_q + (PtrW+1)'(push) - (PtrW+1)'(w_done);
    end
  end

  assign m_axi_awid_o    = '0;
  assign m_axi_awaddr_o  = line_q[aw_q] ? {addr_q[aw_q][31:6], 6'b0} : {addr_q[aw_q][31:5], 5'b0};
  assign m_axi_awlen_o   = line_q[aw_q] ? 8'd1 : 8'd0;
  assign m_axi_awvalid_o = (naw_q != '0);
  assign m_axi_wdata_o   = wbeat_q ? data_q[w_q][511:256] : data_q[w_q][255:0];
  assign m_axi_wstrb_o   = wbeat_q ? strb_q[w_q][63:32] : strb_q[w_q][31:0];
  assign m_axi_wlast_o   = !line_q[w_q] || wbeat_q;
  assign m_axi_wvalid_o  = (nw_q != '0);
  assign m_axi_bready_o  = 1'b1;

  assign done_o        = b_fire;
  assign done_src_o    = src_q[b_q];
  assign done_notify_o = notify_q[b_q];
  assign done_resp_o   = m_axi_bresp_i;
  assign done_addr_o   = addr_q[b_q];

  assign ent_valid_o = val_q;
  always_comb begin
    for (int i = 0; i < Depth; i++) ent_line_o[i] = addr_q[i][31:6];
  end
endmodule
