// CLINT-compatible timer for hart 0: mtime counts clock cycles; machine timer
// interrupt while mtime >= mtimecmp; MSIP drives the software interrupt.
// Registers: rtl/clint/data/clint.rdl (SiFive CLINT offsets).
module tessera_clint (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  output logic        timer_irq_o,
  output logic        soft_irq_o
);
  clint_reg_pkg::clint__in_t  hw_in;
  clint_reg_pkg::clint__out_t hw_out;

  clint_reg_top u_regs (
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

  logic [63:0] mtime, mtimecmp, mtime_next;
  assign mtime      = {hw_out.MTIME_HI.val.value, hw_out.MTIME_LO.val.value};
  assign mtimecmp   = {hw_out.MTIMECMP_HI.val.value, hw_out.MTIMECMP_LO.val.value};
  assign mtime_next = mtime + 64'd1;

  // mtime advances every cycle; a software write in the same cycle wins.
  always_comb begin
    hw_in = '0;
    hw_in.MTIME_LO.val.next = mtime_next[31:0];
    hw_in.MTIME_LO.val.we   = 1'b1;
    hw_in.MTIME_HI.val.next = mtime_next[63:32];
    hw_in.MTIME_HI.val.we   = 1'b1;
  end

  logic timer_irq_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) timer_irq_q <= 1'b0;
    else         timer_irq_q <= mtime >= mtimecmp;
  end
  assign timer_irq_o = timer_irq_q;
  assign soft_irq_o  = hw_out.MSIP.msip.value;
endmodule
