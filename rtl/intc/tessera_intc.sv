// Interrupt controller: level-sensitive device sources 0..23 plus software
// interrupts 24..31 (SWIRQ) routed to the management core's external
// interrupt and to the host interrupt by two enable masks. Registers:
// rtl/intc/data/intc.rdl; source numbers: docs/interrupts.md.
module tessera_intc (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  input  logic [23:0] src_i,
  output logic        core_irq_o,
  output logic        host_irq_o
);
  intc_reg_pkg::intc__in_t  hw_in;
  intc_reg_pkg::intc__out_t hw_out;

  intc_reg_top u_regs (
    .clk          (clk_i),
    .arst_n       (rst_ni),
    .s_apb_psel   (apb_req_i.psel),
    .s_apb_penable(apb_req_i.penable),
    .s_apb_pwrite (apb_req_i.pwrite),
    .s_apb_pprot  (apb_req_i.pprot),
    .s_apb_paddr  (apb_req_i.paddr),
    .s_apb_pwdata (apb_req_i.pwdata),
    .s_apb_pstrb  (apb_req_i.pstrb),
    .s_apb_pready (apb_rsp_o.pready),
    .s_apb_prdata (apb_rsp_o.prdata),
    .s_apb_pslverr(apb_rsp_o.pslverr),
    .hwif_in      (hw_in),
    .hwif_out     (hw_out)
  );

  logic [31:0] pending, core_act;
  logic clr_wr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) clr_wr_q <= 1'b0;
    else         clr_wr_q <= hw_out.SWIRQ_CLR.bits.swmod;
  end
  assign pending  = {hw_out.SWIRQ.bits.value, src_i};
  assign core_act = pending & hw_out.CORE_EN.en.value;

  logic [4:0] claim;
  always_comb begin
    claim = '0;
    for (int i = 31; i >= 0; i--) begin
      if (core_act[i]) claim = 5'(i);
    end
  end

  always_comb begin
    hw_in = '0;
    hw_in.PENDING.src.next    = pending;
    hw_in.SWIRQ.bits.next      = hw_out.SWIRQ.bits.value & ~hw_out.SWIRQ_CLR.bits.value;
    hw_in.SWIRQ.bits.we        = clr_wr_q;
    hw_in.CORE_CLAIM.id.next  = claim;
    hw_in.CORE_CLAIM.none.next = (core_act == '0);
  end

  assign core_irq_o = |core_act;
  assign host_irq_o = |(pending & hw_out.HOST_EN.en.value);
endmodule
