// Per-master read reorder buffer of the AXI fabric (see docs/fabric.md).
//
// Two resources are reserved when the master's AR is accepted (alloc_*):
//  * a slot (burst descriptor: master ID, arlen, error flag, beat base,
//    beats written). Slots are allocated and retired in circular order, so
//    the slot index doubles as the channel-side tag of the burst;
//  * arlen+1 beats of the beat store, a circular buffer of Beats beats
//    allocated in the same order (beat-granular: a one-beat burst takes one
//    beat, not a whole burst's worth). Error bursts (alloc_err_i) take none:
//    their beats (zero data, alloc_resp_i) are generated at the head.
// full_o (for the burst offered on alloc_*) is high when no slot is free or
// the beat store cannot take arlen+1 more beats.
// R beats from any channel are written at base(slot) + beats written so far.
// The master port delivers bursts strictly in AR order: the head slot's
// beats are shown as soon as they have been written; every delivered beat
// frees its place in the beat store.
// The beat store is interleaved over Banks RAMs by beat address (beat a lives
// in bank a % Banks), each Beats/Banks words of DataBits+2 bits with one write
// port and one asynchronous read port. look_slot_i/look_bank_o tell the
// crossbar which bank the next beat of a slot goes to, so that up to Banks
// channels can deliver beats for this master in the same cycle (one per bank;
// the crossbar arbitrates per bank).
module tessera_fabric_rd_rob #(
  parameter int unsigned Slots    = 64,    // power of two, bursts in flight
  parameter int unsigned Beats    = 64,    // power of two, beat store size
  parameter int unsigned Banks    = 1,     // power of two, <= Beats
  parameter int unsigned Looks    = 1,     // bank look-up ports
  parameter int unsigned DataBits = 256,
  parameter int unsigned IdBits   = 4,
  parameter int unsigned SlotBits = (Slots > 1) ? $clog2(Slots) : 1,
  parameter int unsigned BankBits = (Banks > 1) ? $clog2(Banks) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // allocation (AR accepted)
  input  logic                alloc_i,
  input  logic [IdBits-1:0]   alloc_id_i,
  input  logic [7:0]          alloc_len_i,    // AXI arlen (beats - 1), <= Beats - 1 unless error
  input  logic                alloc_err_i,    // answered here, no channel involved
  input  logic [1:0]          alloc_resp_i,   // response of an error burst
  output logic                full_o,
  output logic [SlotBits-1:0] alloc_slot_o,
  // bank of the next beat of a slot (for the crossbar's per-bank arbitration)
  input  logic [Looks-1:0][SlotBits-1:0]  look_slot_i,
  output logic [Looks-1:0][BankBits-1:0]  look_bank_o,
  // R beats from the channels (always accepted), one port per bank; the next
  // beat of the slot written through port b must lie in bank b (look-up)
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

  localparam int unsigned AddrBits  = (Beats > 1) ? $clog2(Beats) : 1;   // beat address
  localparam int unsigned BnkShift  = (Banks > 1) ? $clog2(Banks) : 0;
  localparam int unsigned RowBits   = (AddrBits > BnkShift) ? AddrBits - BnkShift : 1;
  localparam int unsigned Words     = Beats / Banks;                     // per bank
  localparam int unsigned PtrBits   = SlotBits + 1;
  localparam int unsigned BPtrBits  = AddrBits + 1;
  localparam int unsigned NeedBits  = (BPtrBits > 9) ? BPtrBits : 9;   // arlen + 1 <= 256
  localparam int unsigned CmpBits   = (BPtrBits > 8) ? BPtrBits : 8;

  logic [PtrBits-1:0]                 head_q, tail_q;       // slots
  logic [BPtrBits-1:0]                bhead_q, btail_q;     // beat store
  logic [Slots-1:0][IdBits-1:0]       id_q;
  logic [Slots-1:0][7:0]              len_q;
  logic [Slots-1:0]                   err_q;
  logic [Slots-1:0][1:0]              eresp_q;
  logic [Slots-1:0][AddrBits-1:0]     base_q;     // beat address of the burst's first beat
  logic [Slots-1:0][AddrBits:0]       wcnt_q;     // beats written so far
  logic [7:0]                         rbeat_q;    // next beat to deliver from the head

  logic [SlotBits-1:0] head_slot, tail_slot;
  logic                empty, slots_full, hs, retire;
  logic [BPtrBits-1:0] used;
  logic [NeedBits-1:0] need, space;
  logic [AddrBits-1:0] raddr;
  logic [DataBits+1:0] rword;
  logic [Banks-1:0][DataBits+1:0] bank_rdata;

  assign head_slot  = head_q[SlotBits-1:0];
  assign tail_slot  = tail_q[SlotBits-1:0];
  assign empty      = (head_q == tail_q);
  assign slots_full = (head_q[SlotBits-1:0] == tail_q[SlotBits-1:0]) &&
                      (head_q[SlotBits] != tail_q[SlotBits]);
  assign used       = btail_q - bhead_q;
  assign need       = alloc_err_i ? '0 : (NeedBits'(alloc_len_i) + 1'b1);
  assign space      = NeedBits'(Beats) - NeedBits'(used);
  assign full_o     = slots_full || (space < need);
  assign alloc_slot_o = tail_slot;

  // next beat address of a slot
  function automatic logic [AddrBits-1:0] wr_addr(input logic [SlotBits-1:0] s);
    wr_addr = base_q[s] + AddrBits'(wcnt_q[s]);
  endfunction

  function automatic logic [BankBits-1:0] bank_of(input logic [AddrBits-1:0] a);
    bank_of = (Banks > 1) ? BankBits'(a & AddrBits'(Banks - 1)) : '0;
  endfunction

  function automatic logic [RowBits-1:0] row_of(input logic [AddrBits-1:0] a);
    row_of = RowBits'(a >> BnkShift);
  endfunction

  always_comb begin
    for (int unsigned l = 0; l < Looks; l++) begin
      look_bank_o[l] = bank_of(wr_addr(look_slot_i[l]));
    end
  end

  // the head beat is the oldest beat of the store (error bursts store nothing)
  assign raddr = bhead_q[AddrBits-1:0];

  // beat store: per bank one write port, one read port, no reset (RAM inference)
  for (genvar b = 0; b < Banks; b++) begin : g_bank
    logic [DataBits+1:0] mem_q [Words];
    logic [RowBits-1:0]  waddr;

    assign waddr = row_of(wr_addr(wr_slot_i[b]));

    always_ff @(posedge clk_i) begin
      if (wr_i[b]) begin
        mem_q[waddr] <= {wr_resp_i[b], wr_data_i[b]};
      end
    end

    assign bank_rdata[b] = mem_q[row_of(raddr)];
  end

  always_comb begin
    rword = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      if (bank_of(raddr) == BankBits'(b)) begin
        rword = bank_rdata[b];
      end
    end
  end

  assign rvalid_o = !empty && (err_q[head_slot] ||
                               (CmpBits'(wcnt_q[head_slot]) > CmpBits'(rbeat_q)));
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
      bhead_q <= '0;
      btail_q <= '0;
      id_q    <= '0;
      len_q   <= '0;
      err_q   <= '0;
      eresp_q <= '0;
      base_q  <= '0;
      wcnt_q  <= '0;
      rbeat_q <= '0;
    end else begin
      if (alloc_i && !full_o) begin
        id_q[tail_slot]    <= alloc_id_i;
        len_q[tail_slot]   <= alloc_len_i;
        err_q[tail_slot]   <= alloc_err_i;
        eresp_q[tail_slot] <= alloc_resp_i;
        base_q[tail_slot]  <= btail_q[AddrBits-1:0];
        wcnt_q[tail_slot]  <= '0;
        tail_q             <= tail_q + 1'b1;
        btail_q            <= btail_q + BPtrBits'(need);
      end
      for (int unsigned b = 0; b < Banks; b++) begin
        if (wr_i[b]) begin
          wcnt_q[wr_slot_i[b]] <= wcnt_q[wr_slot_i[b]] + 1'b1;
        end
      end
      if (hs && !err_q[head_slot]) begin
        bhead_q <= bhead_q + 1'b1;
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
