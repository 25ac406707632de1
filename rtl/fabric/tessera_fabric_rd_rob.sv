// Per-master read reorder buffer of the AXI fabric (see docs/fabric.md).
//
// A slot is reserved (alloc_*) when the master's AR is accepted; slots are
// allocated and retired in circular order, so the slot index doubles as the
// channel-side tag of the burst. R beats from any channel are written into
// their slot (wr_*: slot from the channel ID, beat position from a per-slot
// counter). The master port delivers bursts strictly in AR order: the head
// slot's beats are shown as soon as they have been written. Bursts answered
// by the fabric itself (error bursts, alloc_err_i) need no storage: their
// beats (zero data, alloc_resp_i) are generated at the head, any length.
// The beat store is split into Banks RAMs by slot (slot s lives in bank
// s % Banks), each Slots/Banks*Beats words of DataBits+2 bits with one write
// port and one asynchronous read port, so up to Banks channels can deliver
// beats for this master in the same cycle (one per bank; the crossbar
// arbitrates per bank).
module tessera_fabric_rd_rob #(
  parameter int unsigned Slots    = 8,     // power of two
  parameter int unsigned Beats    = 8,     // power of two, beats stored per slot
  parameter int unsigned Banks    = 1,     // power of two, <= Slots/2
  parameter int unsigned DataBits = 256,
  parameter int unsigned IdBits   = 4,
  parameter int unsigned SlotBits = (Slots > 1) ? $clog2(Slots) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // allocation (AR accepted)
  input  logic                alloc_i,
  input  logic [IdBits-1:0]   alloc_id_i,
  input  logic [7:0]          alloc_len_i,    // AXI arlen (beats - 1)
  input  logic                alloc_err_i,    // answered here, no channel involved
  input  logic [1:0]          alloc_resp_i,   // response of an error burst
  output logic                full_o,
  output logic [SlotBits-1:0] alloc_slot_o,
  // R beats from the channels (always accepted), one port per bank; the slot
  // written through port b must satisfy slot % Banks == b
  input  logic [Banks-1:0]                wr_i,
  input  logic [Banks-1:0][SlotBits-1:0]  wr_slot_i,
  input  logic [Banks-1:0][DataBits-1:0]  wr_data_i,
  input  logic [Banks-1:0][1:0]           wr_resp_i,
  // master R port
  output logic [IdBits-1:0]   rid_o,
  output logic [DataBits-1:0] rdata_o,
  output logic [1:0]          rresp_o,
  output logic                rlast_o,
  output logic                rvalid_o,
  input  logic                rready_i
);

  localparam int unsigned BeatBits = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int unsigned PtrBits  = SlotBits + 1;
  localparam int unsigned BankBits = $clog2(Banks);            // 0 for one bank
  localparam int unsigned RowBits  = SlotBits - BankBits;       // slots per bank (>= 1 bit)
  localparam int unsigned AddrBits = RowBits + BeatBits;
  localparam int unsigned Words    = (Slots / Banks) * Beats;   // per bank

  logic [PtrBits-1:0]                 head_q, tail_q;
  logic [Slots-1:0][IdBits-1:0]       id_q;
  logic [Slots-1:0][7:0]              len_q;
  logic [Slots-1:0]                   err_q;
  logic [Slots-1:0][1:0]              eresp_q;
  logic [Slots-1:0][BeatBits:0]       wcnt_q;     // beats written so far
  logic [7:0]                         rbeat_q;    // next beat to deliver from the head

  logic [SlotBits-1:0] head_slot, tail_slot;
  logic                empty, hs, retire;
  logic [AddrBits-1:0]               raddr;
  logic [DataBits+1:0]               rword;
  logic [Banks-1:0][DataBits+1:0]    bank_rdata;
  logic [SlotBits-1:0]               head_bank;

  assign head_slot    = head_q[SlotBits-1:0];
  assign tail_slot    = tail_q[SlotBits-1:0];
  assign empty        = (head_q == tail_q);
  assign full_o       = (head_q[SlotBits-1:0] == tail_q[SlotBits-1:0]) &&
                        (head_q[SlotBits] != tail_q[SlotBits]);
  assign alloc_slot_o = tail_slot;

  assign raddr     = {RowBits'(head_slot >> BankBits), rbeat_q[BeatBits-1:0]};
  assign head_bank = head_slot & SlotBits'(Banks - 1);

  // beat store: per bank one write port, one read port, no reset (RAM inference)
  for (genvar b = 0; b < Banks; b++) begin : g_bank
    logic [DataBits+1:0] mem_q [Words];
    logic [AddrBits-1:0] waddr;

    assign waddr = {RowBits'(wr_slot_i[b] >> BankBits), wcnt_q[wr_slot_i[b]][BeatBits-1:0]};

    always_ff @(posedge clk_i) begin
      if (wr_i[b]) begin
        mem_q[waddr] <= {wr_resp_i[b], wr_data_i[b]};
      end
    end

    assign bank_rdata[b] = mem_q[raddr];
  end

  always_comb begin
    rword = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      if (head_bank == SlotBits'(b)) begin
        rword = bank_rdata[b];
      end
    end
  end

  assign rvalid_o = !empty && (err_q[head_slot] ||
                               (8'(wcnt_q[head_slot]) > rbeat_q));
  assign rid_o    = id_q[head_slot];
  assign rdata_o  = err_q[head_slot] ? '0 : rword[DataBits-1:0];
  assign rresp_o  = err_q[head_slot] ? eresp_q[head_slot] : rword[DataBits +: 2];
  assign rlast_o  = (rbeat_q == len_q[head_slot]);
  assign hs       = rvalid_o && rready_i;
  assign retire   = hs && rlast_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      id_q    <= '0;
      len_q   <= '0;
      err_q   <= '0;
      eresp_q <= '0;
      wcnt_q  <= '0;
      rbeat_q <= '0;
    end else begin
      if (alloc_i && !full_o) begin
        id_q[tail_slot]    <= alloc_id_i;
        len_q[tail_slot]   <= alloc_len_i;
        err_q[tail_slot]   <= alloc_err_i;
        eresp_q[tail_slot] <= alloc_resp_i;
        wcnt_q[tail_slot]  <= '0;
        tail_q             <= tail_q + 1'b1;
      end
      for (int unsigned b = 0; b < Banks; b++) begin
        if (wr_i[b]) begin
          wcnt_q[wr_slot_i[b]] <= wcnt_q[wr_slot_i[b]] + 1'b1;
        end
      end
      if (retire) begin
        head_q  <= head_q + 1'b1;
        rbeat_q <= '0;
      end else if (hs) begin
        rbeat_q <= rbeat_q + 1'b1;
      end
    end
  end

endmodule
