// Instruction-fetch mux: routes the core's OBI fetch port to the fetch ports
// of the boot ROM, ISRAM and DSRAM (all single-cycle, always granted). Any
// other address returns an error response (instruction access fault).
// Ports: the core's fetch port obi_req_i/obi_rsp_o and the targets' fetch ports
// t_req_o/t_rsp_i (0 ROM, 1 ISRAM, 2 DSRAM), all tessera_bus_pkg::obi_req_t /
// obi_rsp_t (the targets' grant and error are not used: always granted, no error).
module tessera_imux #(
  parameter int unsigned RomBytes  = tessera_cfg_pkg::BootromBytes,
  parameter int unsigned IramBytes = tessera_cfg_pkg::IsramBytes,
  parameter int unsigned DramBytes = tessera_cfg_pkg::DsramBytes
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  tessera_bus_pkg::obi_req_t                    obi_req_i,
  output tessera_bus_pkg::obi_rsp_t                    obi_rsp_o,
  // targets: 0 ROM, 1 ISRAM, 2 DSRAM
  output logic [2:0][tessera_bus_pkg::ObiReqBits-1:0]  t_req_o,
  input  logic [2:0][tessera_bus_pkg::ObiRspBits-1:0]  t_rsp_i
);
  logic        req_i;
  logic [31:0] addr_i;
  assign req_i  = obi_req_i.req;
  assign addr_i = obi_req_i.addr;

  logic [2:0] hit;
  assign hit[0] = (addr_i - tessera_cfg_pkg::BootromBase) < RomBytes;
  assign hit[1] = (addr_i - tessera_cfg_pkg::IsramBase) < IramBytes;
  assign hit[2] = (addr_i - tessera_cfg_pkg::DsramBase) < DramBytes;

  logic [2:0]       t_rvalid;
  logic [2:0][31:0] t_rdata;
  for (genvar t = 0; t < 3; t++) begin : g_tgt
    tessera_bus_pkg::obi_req_t req;
    tessera_bus_pkg::obi_rsp_t rsp;
    logic                      unused_rsp;
    assign req.req    = req_i && hit[t];
    assign req.addr   = addr_i;
    assign req.we     = 1'b0;
    assign req.be     = 4'h0;
    assign req.wdata  = '0;
    assign t_req_o[t] = req;
    assign rsp        = t_rsp_i[t];
    assign t_rvalid[t] = rsp.rvalid;
    assign t_rdata[t]  = rsp.rdata;
    assign unused_rsp  = ^{rsp.gnt, rsp.err};
  end

  logic err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_q <= 1'b0;
    else         err_q <= req_i && (hit == 3'b000);
  end

  logic        rvalid;
  logic [31:0] rdata;
  always_comb begin
    rvalid = err_q;
    rdata  = '0;
    for (int unsigned t = 0; t < 3; t++) begin
      if (t_rvalid[t]) begin
        rvalid = 1'b1;
        rdata  = t_rdata[t];
      end
    end
  end
  assign obi_rsp_o.gnt    = 1'b1;
  assign obi_rsp_o.rvalid = rvalid;
  assign obi_rsp_o.rdata  = rdata;
  assign obi_rsp_o.err    = err_q;

  logic unused_req;
  assign unused_req = ^{obi_req_i.we, obi_req_i.be, obi_req_i.wdata};
endmodule
