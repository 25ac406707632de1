# Chip top, system bus, on-chip memories and the foundation peripherals.
RTL_SRCS += rtl/prim/tessera_clk_gate.sv rtl/mem/tessera_rom.sv rtl/mem/tessera_sram_dp.sv \
            rtl/sysbus/tessera_sysbus.sv rtl/sysbus/tessera_imux.sv \
            rtl/sysbus/tessera_obi2apb.sv rtl/sysbus/tessera_msg_master.sv \
            rtl/uart/tessera_uart.sv rtl/sysctrl/tessera_sysctrl.sv \
            rtl/intc/tessera_intc.sv rtl/clint/tessera_clint.sv \
            rtl/top/tessera_top.sv
SYNTH_TOPS += tessera_uart tessera_intc tessera_clint tessera_sysbus
