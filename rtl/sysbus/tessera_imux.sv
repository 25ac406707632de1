// Instruction-fetch mux: routes the core's OBI fetch port to the fetch ports
// of the boot ROM, ISRAM and DSRAM (all single-cycle, always granted). Any
// other address returns an error response (instruction access fault).
module tessera_imux #(
  parameter int unsigned RomBytes  = tessera_cfg_pkg::BootromBytes,
  parameter int unsigned IramBytes = tessera_cfg_pkg::IsramBytes,
  parameter int unsigned DramBytes = tessera_cfg_pkg::DsramBytes
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  output logic        gnt_o,
  input  logic [31:0] addr_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o,
  output logic        err_o,
  // targets: 0 ROM, 1 ISRAM, 2 DSRAM
  output logic [2:0]        t_req_o,
  output logic [31:0]       t_addr_o,
  input  logic [2:0]        t_rvalid_i,
  input  logic [2:0][31:0]  t_rdata_i
);
  logic [2:0] hit;
  assign hit[0] = (addr_i - tessera_cfg_pkg::BootromBase) < RomBytes;
  assign hit[1] = (addr_i - tessera_cfg_pkg::IsramBase) < IramBytes;
  assign hit[2] = (addr_i - tessera_cfg_pkg::DsramBase) < DramBytes;

  assign gnt_o    = 1'b1;
  assign t_req_o  = req_i ? hit : 3'b000;
  assign t_addr_o = addr_i;

  logic err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_q <= 1'b0;
    else         err_q <= req_i && (hit == 3'b000);
  end

  always_comb begin
    rvalid_o = err_q;
    rdata_o  = '0;
    err_o    = err_q;
    for (int unsigned t = 0; t < 3; t++) begin
      if (t_rvalid_i[t]) begin
        rvalid_o = 1'b1;
        rdata_o  = t_rdata_i[t];
      end
    end
  end
endmodule
