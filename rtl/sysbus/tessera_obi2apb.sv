// OBI (one outstanding transaction) to APB4 bridge with a peripheral decoder.
// Peripheral p answers addresses a with (a & ~(PerSize[p]-1)) == PerBase[p] and
// sees the low 16 address bits. PerBase/PerSize are flattened (entry p in
// bits [32*p +: 32]) because Yosys does not accept 2-D packed parameters. An address that matches no peripheral, or a
// peripheral answering PSLVERR, gives an OBI error response.
module tessera_obi2apb #(
  parameter int unsigned                 NumPer  = 4,
  parameter logic [NumPer*32-1:0]        PerBase = '0,
  parameter logic [NumPer*32-1:0]        PerSize = '0
) (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  input  tessera_bus_pkg::obi_req_t                        obi_req_i,
  output tessera_bus_pkg::obi_rsp_t                        obi_rsp_o,
  // one APB4 port per peripheral (psel is the peripheral's own, the rest is shared)
  output logic [NumPer-1:0][tessera_bus_pkg::ApbReqBits-1:0] apb_req_o,
  input  logic [NumPer-1:0][tessera_bus_pkg::ApbRspBits-1:0] apb_rsp_i
);
  typedef enum logic [1:0] {Idle, Setup, Access, Resp} state_e;
  state_e state_q, state_d;

  logic [NumPer-1:0] hit, sel_q, sel_d;
  logic [15:0]       addr_q, addr_d;
  logic              we_q, we_d;
  logic [3:0]        be_q, be_d;
  logic [31:0]       wdata_q, wdata_d, rdata_q, rdata_d;
  logic              err_q, err_d;

  logic                    obi_gnt;
  logic [NumPer-1:0]       apb_pready, apb_pslverr;
  logic [NumPer-1:0][31:0] apb_prdata;
  for (genvar p = 0; p < NumPer; p++) begin : g_per
    tessera_bus_pkg::apb_req_t req;
    tessera_bus_pkg::apb_rsp_t rsp;
    assign req.psel    = (state_q == Setup || state_q == Access) && sel_q[p];
    assign req.penable = (state_q == Access);
    assign req.pwrite  = we_q;
    assign req.pprot   = 3'b000;
    assign req.paddr   = addr_q;
    assign req.pwdata  = wdata_q;
    assign req.pstrb   = be_q;
    assign apb_req_o[p] = req;
    assign rsp            = apb_rsp_i[p];
    assign apb_pready[p]  = rsp.pready;
    assign apb_prdata[p]  = rsp.prdata;
    assign apb_pslverr[p] = rsp.pslverr;
  end

  always_comb begin
    for (int unsigned p = 0; p < NumPer; p++) begin
      hit[p] = (obi_req_i.addr & ~(PerSize[32*p +: 32] - 32'd1)) == PerBase[32*p +: 32];
    end
  end

  logic accept;
  assign obi_gnt = (state_q == Idle) || (state_q == Resp);
  assign accept  = obi_req_i.req && obi_gnt;

  logic sel_ready, sel_err;
  logic [31:0] sel_rdata;
  always_comb begin
    sel_ready = 1'b0;
    sel_err   = 1'b0;
    sel_rdata = '0;
    for (int unsigned p = 0; p < NumPer; p++) begin
      if (sel_q[p]) begin
        sel_ready = apb_pready[p];
        sel_err   = apb_pslverr[p];
        sel_rdata = apb_prdata[p];
      end
    end
  end

  always_comb begin
    state_d = state_q;
    sel_d   = sel_q;
    addr_d  = addr_q;
    we_d    = we_q;
    be_d    = be_q;
    wdata_d = wdata_q;
    rdata_d = rdata_q;
    err_d   = err_q;
    unique case (state_q)
      Idle, Resp: begin
        if (accept) begin
          sel_d   = hit;
          addr_d  = obi_req_i.addr[15:0];
          for (int unsigned p = 0; p < NumPer; p++) begin
            if (hit[p]) addr_d = obi_req_i.addr[15:0] & 16'(PerSize[32*p +: 32] - 32'd1);
          end
          we_d    = obi_req_i.we;
          be_d    = obi_req_i.we ? obi_req_i.be : 4'h0;
          wdata_d = obi_req_i.wdata;
          if (hit == '0) begin
            state_d = Resp;  // nothing there: error response next cycle
            err_d   = 1'b1;
            rdata_d = '0;
          end else begin
            state_d = Setup;
          end
        end else begin
          state_d = Idle;
        end
      end
      Setup: state_d = Access;
      Access: begin
        if (sel_ready) begin
          state_d = Resp;
          err_d   = sel_err;
          rdata_d = we_q ? 32'h0 : sel_rdata;
          sel_d   = '0;
        end
      end
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      sel_q   <= '0;
      addr_q  <= '0;
      we_q    <= 1'b0;
      be_q    <= '0;
      wdata_q <= '0;
      rdata_q <= '0;
      err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      sel_q   <= sel_d;
      addr_q  <= addr_d;
      we_q    <= we_d;
      be_q    <= be_d;
      wdata_q <= wdata_d;
      rdata_q <= rdata_d;
      err_q   <= err_d;
    end
  end

  assign obi_rsp_o.gnt    = obi_gnt;
  assign obi_rsp_o.rvalid = (state_q == Resp);
  assign obi_rsp_o.rdata  = rdata_q;
  assign obi_rsp_o.err    = err_q;
endmodule
