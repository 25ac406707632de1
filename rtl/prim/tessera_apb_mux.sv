// 2:1 APB4 multiplexer: two APB masters (e.g. the system-bus APB bridge and an
// engine's queue manager) share one APB4 slave (the engine's register block).
// A master's transfer is granted as a whole (round robin when both wait); the
// mux drives its own setup and access phases towards the slave, so a master
// that is kept waiting simply sees pready low. Slave-side outputs are
// registered; one transfer takes at least 3 cycles.
// Ports: the masters' requests/responses as a two-element array of
// tessera_bus_pkg::apb_req_t / apb_rsp_t (docs/fabric.md "Bus types"); both
// responses carry the slave's prdata (valid with that master's pready).
module tessera_apb_mux (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  // masters
  input  logic [1:0][tessera_bus_pkg::ApbReqBits-1:0]   slv_req_i,
  output logic [1:0][tessera_bus_pkg::ApbRspBits-1:0]   slv_rsp_o,
  // slave
  output tessera_bus_pkg::apb_req_t                     mst_req_o,
  input  tessera_bus_pkg::apb_rsp_t                     mst_rsp_i
);
  typedef enum logic [1:0] {MIdle, MSetup, MAccess} mstate_e;
  mstate_e state_q;
  logic    gnt_q;      // granted master
  logic    last_q;     // last granted master (round robin)
  logic    pick;

  tessera_bus_pkg::apb_req_t req0, req1, req_g;
  tessera_bus_pkg::apb_rsp_t rsp0, rsp1;
  assign req0  = slv_req_i[0];
  assign req1  = slv_req_i[1];
  assign req_g = gnt_q ? req1 : req0;

  always_comb begin
    // prefer the master that was not served last
    if (last_q ? req0.psel : req1.psel) pick = ~last_q;
    else                                pick = last_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= MIdle;
      gnt_q   <= 1'b0;
      last_q  <= 1'b1;
    end else begin
      unique case (state_q)
        MIdle: begin
          if (req0.psel || req1.psel) begin
            gnt_q   <= pick;
            last_q  <= pick;
            state_q <= MSetup;
          end
        end
        MSetup:  state_q <= MAccess;
        MAccess: if (mst_rsp_i.pready) state_q <= MIdle;
        default: state_q <= MIdle;
      endcase
    end
  end

  assign mst_req_o.psel    = (state_q != MIdle);
  assign mst_req_o.penable = (state_q == MAccess);
  assign mst_req_o.pwrite  = req_g.pwrite;
  assign mst_req_o.pprot   = req_g.pprot;
  assign mst_req_o.paddr   = req_g.paddr;
  assign mst_req_o.pwdata  = req_g.pwdata;
  assign mst_req_o.pstrb   = req_g.pstrb;

  logic done;
  assign done         = (state_q == MAccess) && mst_rsp_i.pready;
  assign rsp0.pready  = done && !gnt_q;
  assign rsp0.pslverr = done && !gnt_q && mst_rsp_i.pslverr;
  assign rsp0.prdata  = mst_rsp_i.prdata;
  assign rsp1.pready  = done && gnt_q;
  assign rsp1.pslverr = done && gnt_q && mst_rsp_i.pslverr;
  assign rsp1.prdata  = mst_rsp_i.prdata;
  assign slv_rsp_o[0] = rsp0;
  assign slv_rsp_o[1] = rsp1;

  logic unused;
  assign unused = ^{req0.penable, req1.penable, req_g.psel, req_g.penable};
endmodule
