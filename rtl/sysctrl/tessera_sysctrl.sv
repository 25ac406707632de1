// System control: chip ID, configuration read-back (from tessera_cfg_pkg),
// boot control and scratch registers. Registers: rtl/sysctrl/data/sysctrl.rdl.
module tessera_sysctrl #(
  parameter int unsigned Platform = 0  // 0 = simulation, 1 = FPGA board
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  tessera_bus_pkg::apb_req_t apb_req_i,
  output tessera_bus_pkg::apb_rsp_t apb_rsp_o,
  output logic        rdbuf_en_o      // SYSBUS_CTRL.rdbuf: the bridge's read buffer
);
  sysctrl_reg_pkg::sysctrl__in_t  hw_in;
  sysctrl_reg_pkg::sysctrl__out_t hw_out;

  sysctrl_reg_top u_regs (
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

  always_comb begin
    hw_in = '0;
    hw_in.VERSION.major.next        = 8'(tessera_cfg_pkg::VersionMajor);
    hw_in.VERSION.minor.next        = 8'(tessera_cfg_pkg::VersionMinor);
    hw_in.VERSION.patch.next        = 8'(tessera_cfg_pkg::VersionPatch);
    hw_in.CONFIG0.dcores.next       = 4'(tessera_cfg_pkg::Dcores);
    hw_in.CONFIG0.num_mme.next      = 4'(tessera_cfg_pkg::NumMme);
    hw_in.CONFIG0.num_tpc.next      = 8'(tessera_cfg_pkg::NumTpc);
    hw_in.CONFIG0.hbm_channels.next = 4'(tessera_cfg_pkg::HbmChannels);
    hw_in.CONFIG0.dma_engines.next  = 4'(tessera_cfg_pkg::DmaEngines);
    hw_in.CONFIG0.nic_ports.next    = 4'(tessera_cfg_pkg::NicPorts);
    hw_in.CONFIG0.platform.next     = 4'(Platform);
    hw_in.CONFIG1.mme_rows.next     = 8'(tessera_cfg_pkg::MmeRows);
    hw_in.CONFIG1.mme_cols.next     = 8'(tessera_cfg_pkg::MmeCols);
    hw_in.CONFIG1.l2_log2_bytes.next = 8'($clog2(tessera_cfg_pkg::L2BytesPerDcore));
    hw_in.CONFIG1.l2_ways.next      = 8'(tessera_cfg_pkg::L2Ways);
    hw_in.CLK_HZ.hz.next            = 32'(tessera_cfg_pkg::ClkHz);
  end

  assign rdbuf_en_o = hw_out.SYSBUS_CTRL.rdbuf.value;

  // Boot and firmware status registers are for software only.
  logic unused_out;
  assign unused_out = ^{hw_out.BOOT_ADDR, hw_out.BOOT_CTRL, hw_out.BOOT_STATUS, hw_out.FW_STATUS};
endmodule
