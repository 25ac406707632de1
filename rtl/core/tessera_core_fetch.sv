// Tessera core fetch unit (IF stage).
// Issues word fetches on the OBI instruction port (at most one outstanding)
// and queues the responses in a 3-entry buffer. The head of the buffer is
// the ID stage's instruction; when the buffer is empty, a response arriving
// this cycle is the head directly (bypass), so a redirect costs one cycle
// less. A redirect flushes the buffer; a response still outstanding (or a
// request waiting for gnt, which OBI forbids to withdraw) is dropped when it
// arrives. A new request may go out in the cycle the previous response
// arrives, so a 1-cycle memory delivers one instruction per cycle.
// predict_i (static prediction in ID) keeps the head and drops the rest.

module tessera_core_fetch #(
  parameter logic [31:0] BootAddr = 32'h0000_0000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // control
  input  logic        redirect_i,     // flush everything, fetch from redirect_pc_i
  input  logic        predict_i,      // keep the head, flush the rest, fetch from redirect_pc_i
  input  logic [31:0] redirect_pc_i,
  input  logic        pop_i,          // ID consumed the head entry
  // head of the fetch buffer
  output logic        valid_o,
  output logic        predicted_o,    // the head has already redirected fetch (predict_i)
  output logic [31:0] pc_o,
  output logic [31:0] instr_o,
  output logic        err_o,
  // OBI instruction port (read only: we, be and wdata are zero)
  output tessera_bus_pkg::obi_req_t instr_req_o,
  input  tessera_bus_pkg::obi_rsp_t instr_rsp_i
);

  localparam int unsigned Depth = 3;

  // the OBI port's fields as local signals
  logic        instr_req, instr_gnt, instr_rvalid, instr_err;
  logic [31:0] instr_addr, instr_rdata;
  assign instr_req_o.req   = instr_req;
  assign instr_req_o.addr  = instr_addr;
  assign instr_req_o.we    = 1'b0;
  assign instr_req_o.be    = 4'h0;
  assign instr_req_o.wdata = '0;
  assign instr_gnt         = instr_rsp_i.gnt;
  assign instr_rvalid      = instr_rsp_i.rvalid;
  assign instr_rdata       = instr_rsp_i.rdata;
  assign instr_err         = instr_rsp_i.err;

  logic [31:0] fpc_q, fpc_d;        // next address to request
  logic        out_q, out_d;        // a granted request awaits its response
  logic        odisc_q, odisc_d;    // ... and that response is to be dropped
  logic [31:0] opc_q, opc_d;        // address of the outstanding request
  logic        hold_q, hold_d;      // request raised last cycle, not yet granted
  logic        hdisc_q, hdisc_d;    // ... and its response is to be dropped
  logic [31:0] haddr_q, haddr_d;    // ... and its address

  logic [Depth-1:0][31:0] buf_pc_q;
  logic [Depth-1:0][31:0] buf_instr_q;
  logic [Depth-1:0]       buf_err_q;
  logic [1:0]  head_q, head_d, tail_q, tail_d;
  logic [1:0]  cnt_q, cnt_d;
  logic        pred_q, pred_d;      // head entry already caused a predict redirect
  logic        flush;               // any redirect: drop responses in flight

  logic issue_new, push, resp_live, bypass, buf_empty;
  logic [1:0] head_inc, tail_inc;
  logic [2:0] occupied;

  // a response arriving now for a live (not dropped) request
  assign resp_live = out_q && instr_rvalid && !odisc_q;
  assign buf_empty = (cnt_q == 2'd0);
  assign bypass    = buf_empty && resp_live;   // the arriving response is the head
  assign occupied  = {1'b0, cnt_q} + {2'b0, out_q && !odisc_q};

  assign flush = redirect_i || predict_i;

  // after a predict redirect at most the head remains, so no space check
  assign issue_new = !hold_q && (!out_q || instr_rvalid) &&
                     (flush || occupied < 3'(Depth));

  assign instr_req  = hold_q || issue_new;
  assign instr_addr = hold_q ? haddr_q : (flush ? redirect_pc_i : fpc_q);

  assign head_inc = (head_q == 2'(Depth - 1)) ? 2'd0 : head_q + 2'd1;
  assign tail_inc = (tail_q == 2'(Depth - 1)) ? 2'd0 : tail_q + 2'd1;

  // store the arriving response unless it is dropped or consumed at once
  always_comb begin
    if (redirect_i || !resp_live) begin
      push = 1'b0;
    end else if (bypass) begin
      push = !pop_i;                  // head: keep it unless ID takes it now
    end else begin
      push = !predict_i;              // behind a predicted head: wrong path
    end
  end

  always_comb begin
    fpc_d   = (flush ? redirect_pc_i : fpc_q) + (issue_new ? 32'd4 : 32'd0);
    out_d   = out_q;
    odisc_d = odisc_q;
    opc_d   = opc_q;
    hold_d  = instr_req && !instr_gnt;
    haddr_d = instr_addr;
    hdisc_d = hold_q ? (hdisc_q || flush) : 1'b0;

    if (out_q && instr_rvalid) begin
      out_d = 1'b0;
    end else if (flush) begin
      odisc_d = 1'b1;
    end
    if (instr_req && instr_gnt) begin
      out_d   = 1'b1;
      odisc_d = hold_q ? (hdisc_q || flush) : 1'b0;
      opc_d   = instr_addr;
    end

    head_d = head_q;
    tail_d = tail_q;
    cnt_d  = cnt_q;
    pred_d = pred_q;
    if (redirect_i) begin
      head_d = 2'd0;
      tail_d = 2'd0;
      cnt_d  = 2'd0;
      pred_d = 1'b0;
    end else if (buf_empty) begin
      // only a bypassed response can be the head; store it if not taken
      if (push) begin
        tail_d = tail_inc;
        cnt_d  = 2'd1;
      end
      pred_d = predict_i && push;
    end else if (predict_i) begin
      // keep only the buffered head (unless ID takes it in this very cycle)
      tail_d = head_inc;
      if (pop_i) begin
        head_d = head_inc;
        cnt_d  = 2'd0;
        pred_d = 1'b0;
      end else begin
        cnt_d  = 2'd1;
        pred_d = 1'b1;
      end
    end else begin
      if (push) begin
        tail_d = tail_inc;
      end
      if (pop_i) begin
        head_d = head_inc;
        pred_d = 1'b0;
      end
      cnt_d = cnt_q + {1'b0, push} - {1'b0, pop_i};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fpc_q   <= BootAddr;
      out_q   <= 1'b0;
      odisc_q <= 1'b0;
      opc_q   <= 32'd0;
      hold_q  <= 1'b0;
      pred_q  <= 1'b0;
      hdisc_q <= 1'b0;
      haddr_q <= 32'd0;
      head_q  <= 2'd0;
      tail_q  <= 2'd0;
      cnt_q   <= 2'd0;
    end else begin
      fpc_q   <= fpc_d;
      out_q   <= out_d;
      odisc_q <= odisc_d;
      opc_q   <= opc_d;
      hold_q  <= hold_d;
      pred_q  <= pred_d;
      hdisc_q <= hdisc_d;
      haddr_q <= haddr_d;
      head_q  <= head_d;
      tail_q  <= tail_d;
      cnt_q   <= cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_pc_q    <= '0;
      buf_instr_q <= '0;
      buf_err_q   <= '0;
    end else if (push) begin
      buf_pc_q[tail_q]    <= opc_q;
      buf_instr_q[tail_q] <= instr_rdata;
      buf_err_q[tail_q]   <= instr_err;
    end
  end

  assign valid_o     = !buf_empty || bypass;
  assign predicted_o = pred_q && !buf_empty;
  assign pc_o        = buf_empty ? opc_q : buf_pc_q[head_q];
  assign instr_o     = buf_empty ? instr_rdata : buf_instr_q[head_q];
  assign err_o       = buf_empty ? instr_err : buf_err_q[head_q];

endmodule
