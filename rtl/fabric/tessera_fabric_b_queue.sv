// Per-master write-response queue of the AXI fabric (see docs/fabric.md).
// A slot is reserved when the master's AW is accepted (slots in circular
// order; the slot index is the channel-side tag of the burst). A B from any
// port marks its slot done; the master's B port returns the responses strictly
// in AW order.
module tessera_fabric_b_queue #(
  parameter int unsigned Slots    = 8,     // power of two
  parameter int unsigned IdBits   = 4,
  parameter int unsigned SlotBits = (Slots > 1) ? $clog2(Slots) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                alloc_i,
  input  logic [IdBits-1:0]   alloc_id_i,
  output logic                full_o,
  output logic [SlotBits-1:0] alloc_slot_o,
  input  logic                wr_i,
  input  logic [SlotBits-1:0] wr_slot_i,
  input  logic [1:0]          wr_resp_i,
  output logic [IdBits-1:0]   bid_o,
  output logic [1:0]          bresp_o,
  output logic                bvalid_o,
  input  logic                bready_i
);

  localparam int unsigned PtrBits = SlotBits + 1;

  logic [PtrBits-1:0]           head_q, tail_q;
  logic [Slots-1:0][IdBits-1:0] id_q;
  logic [Slots-1:0][1:0]        resp_q;
  logic [Slots-1:0]             done_q;
  logic [SlotBits-1:0]          head_slot, tail_slot;
  logic                         empty;

  assign head_slot    = head_q[SlotBits-1:0];
  assign tail_slot    = tail_q[SlotBits-1:0];
  assign empty        = (head_q == tail_q);
  assign full_o       = (head_slot == tail_slot) && (head_q[SlotBits] != tail_q[SlotBits]);
  assign alloc_slot_o = tail_slot;
  assign bvalid_o     = !empty && done_q[head_slot];
  assign bid_o        = id_q[head_slot];
  assign bresp_o      = resp_q[head_slot];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0;
      tail_q <= '0;
      id_q   <= '0;
      resp_q <= '0;
      done_q <= '0;
    end else begin
      if (alloc_i && !full_o) begin
        id_q[tail_slot]   <= alloc_id_i;
        done_q[tail_slot] <= 1'b0;
        tail_q            <= tail_q + 1'b1;
      end
      if (wr_i) begin
        done_q[wr_slot_i] <= 1'b1;
        resp_q[wr_slot_i] <= wr_resp_i;
      end
      if (bvalid_o && bready_i) begin
        head_q <= head_q + 1'b1;
      end
    end
  end

endmodule
