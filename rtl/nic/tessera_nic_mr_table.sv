// Memory-region table of a NIC port (docs/nic.md "Responder RTL"): NMr
// regions, each a virtual-address range [base, base + length) that is also the
// chip bus address range it lands in, an R_Key and the remote read / write
// rights. Written one entry at a time (the register block's staging registers);
// an entry with valid = 0 matches nothing.
//
// Lookup (combinational): the region whose R_Key equals rkey_i (the lowest
// index if several do) and the check of the access [va_i, va_i + len_i)
// against it:
//   MrOk      inside the region, the right is granted
//   MrNoKey   no valid region has this R_Key
//   MrBounds  the access starts before the region or ends after it
//   MrRights  the region does not grant the access (read / write)
// Every error is a NAK remote access error (syndrome 0x62) on the wire. The
// matching entry's reduce operation and element type (docs/nic.md "Reduction on
// receive") come out with the check: red_op_o 0 means a plain WRITE.
module tessera_nic_mr_table #(
  parameter int unsigned NMr = 16,
  localparam int unsigned MrW = NMr > 1 ? $clog2(NMr) : 1
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // write one entry
  input  logic           wr_i,
  input  logic [MrW-1:0] wr_idx_i,
  input  logic           wr_valid_i,
  input  logic [63:0]    wr_base_i,
  input  logic [31:0]    wr_len_i,
  input  logic [31:0]    wr_rkey_i,
  input  logic           wr_rd_i,       // remote read allowed
  input  logic           wr_wr_i,       // remote write allowed
  input  logic [1:0]     wr_red_op_i,   // 0 plain, 1 sum, 2 min, 3 max
  input  logic           wr_red_bf16_i, // reduce element type: 0 FP32, 1 BF16
  // read one entry (registers)
  input  logic [MrW-1:0] rd_idx_i,
  output logic           rd_valid_o,
  output logic [63:0]    rd_base_o,
  output logic [31:0]    rd_len_o,
  output logic [31:0]    rd_rkey_o,
  output logic           rd_rd_o,
  output logic           rd_wr_o,
  output logic [1:0]     rd_red_op_o,
  output logic           rd_red_bf16_o,
  // access check
  input  logic [31:0]    rkey_i,
  input  logic [63:0]    va_i,
  input  logic [31:0]    len_i,
  input  logic           write_i,       // 1: remote write, 0: remote read
  output logic [1:0]     err_o,
  output logic [MrW-1:0] idx_o,
  output logic [1:0]     red_op_o,      // of the entry idx_o
  output logic           red_bf16_o
);

  localparam logic [1:0] MrOk     = 2'd0;
  localparam logic [1:0] MrNoKey  = 2'd1;
  localparam logic [1:0] MrBounds = 2'd2;
  localparam logic [1:0] MrRights = 2'd3;

  logic [NMr-1:0]        valid_q;
  logic [NMr-1:0][63:0]  base_q;
  logic [NMr-1:0][31:0]  len_q;
  logic [NMr-1:0][31:0]  rkey_q;
  logic [NMr-1:0]        rd_q, wr_q;
  logic [NMr-1:0][1:0]   red_op_q;
  logic [NMr-1:0]        red_bf16_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      base_q  <= '0;
      len_q   <= '0;
      rkey_q  <= '0;
      rd_q    <= '0;
      wr_q    <= '0;
      red_op_q   <= '0;
      red_bf16_q <= '0;
    end else if (wr_i) begin
      valid_q[wr_idx_i] <= wr_valid_i;
      base_q[wr_idx_i]  <= wr_base_i;
      len_q[wr_idx_i]   <= wr_len_i;
      rkey_q[wr_idx_i]  <= wr_rkey_i;
      rd_q[wr_idx_i]    <= wr_rd_i;
      wr_q[wr_idx_i]    <= wr_wr_i;
      red_op_q[wr_idx_i]   <= wr_red_op_i;
      red_bf16_q[wr_idx_i] <= wr_red_bf16_i;
    end
  end

  assign rd_valid_o = valid_q[rd_idx_i];
  assign rd_base_o  = base_q[rd_idx_i];
  assign rd_len_o   = len_q[rd_idx_i];
  assign rd_rkey_o  = rkey_q[rd_idx_i];
  assign rd_rd_o    = rd_q[rd_idx_i];
  assign rd_wr_o    = wr_q[rd_idx_i];
  assign rd_red_op_o   = red_op_q[rd_idx_i];
  assign rd_red_bf16_o = red_bf16_q[rd_idx_i];
  assign red_op_o      = red_op_q[idx_o];
  assign red_bf16_o    = red_bf16_q[idx_o];

  always_comb begin
    logic        hit;
    logic [63:0] off;
    hit   = 1'b0;
    idx_o = '0;
    for (int i = NMr - 1; i >= 0; i--) begin
      if (valid_q[i] && rkey_q[i] == rkey_i) begin
        hit   = 1'b1;
        idx_o = MrW'(i);
      end
    end
    off = va_i - base_q[idx_o];
    if (!hit) begin
      err_o = MrNoKey;
    end else if (va_i < base_q[idx_o] || off > 64'(len_q[idx_o]) ||
                 64'(len_i) > 64'(len_q[idx_o]) - off) begin
      err_o = MrBounds;
    end else if (write_i ? !wr_q[idx_o] : !rd_q[idx_o]) begin
      err_o = MrRights;
    end else begin
      err_o = MrOk;
    end
  end

endmodule
