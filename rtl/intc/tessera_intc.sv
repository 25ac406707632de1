// Interrupt controller: level-sensitive device sources 0..23 plus software
// interrupts 24..31 (SWIRQ) routed to the management core's external
// interrupt and to the host interrupt by two enable masks. Registers:
// rtl/intc/data/intc.rdl; source numbers: docs/interrupts.md.
module tessera_intc (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        apb_psel_i,
  input  logic        apb_penable_i,
  input  logic        apb_pwrite_i,
  input  logic [2:0]  apb_pprot_i,
  input  logic [15:0] apb_paddr_i,
  input  logic [31:0] apb_pwdata_i,
  input  logic [3:0]  apb_pstrb_i,
  output logic        apb_pready_o,
  output logic [31:0] apb_prdata_o,
  output logic        apb_pslverr_o,
  input  logic [23:0] src_i,
  output logic        core_irq_o,
  output logic        host_irq_o
);
  intc_reg_pkg::intc__in_t  hw_in;
  intc_reg_pkg::intc__out_t hw_out;

  intc_reg_top u_regs (
    .clk          (clk_i),
    .arst_n       (rst_ni),
    .s_apb_psel   (apb_psel_i),
    .s_apb_penable(apb_penable_i),
    .s_apb_pwrite (apb_pwrite_i),
    .s_apb_pprot  (apb_pprot_i),
    .s_apb_paddr  (apb_paddr_i),
    .s_apb_pwdata (apb_pwdata_i),
    .s_apb_pstrb  (apb_pstrb_i),
    .s_apb_pready (apb_pready_o),
    .s_apb_prdata (apb_prdata_o),
    .s_apb_pslverr(apb_pslverr_o),
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
