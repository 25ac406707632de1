# Block testbenches of the system peripherals and the system bus (tests/uart,
# tests/clint, tests/intc, tests/sysctrl, tests/sysbus). Each wraps its block in
# a flat-pin top (tests/<blk>/tb_<blk>_top.sv) and checks it against a small C
# reference (tests/<blk>/<blk>_ref.h). The wrapper is linted (-Wall) before the build.
#   make periph-<blk>-tb     build one (blk: uart clint intc sysctrl sysbus)
#   make periph-<blk>-test   run it (suite `test <blk>`; PERIPH_ARGS="--seed N")
#   make periph-test         run all five
PERIPH_BLOCKS := uart clint intc sysctrl sysbus
PERIPH_BUILD  := $(BUILD)/periph
PERIPH_SEED   ?= $(or $(SEED),1)
PERIPH_VFLAGS := -O3 --x-assign fast --x-initial fast -Wno-fatal --cc --exe --build -j 2 \
                 -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1"
PERIPH_CINC   := -I$(ROOT)/tests/framework -I$(ROOT)/bsp/include -I$(CFG_INC)
PERIPH_HDRS   := tests/framework/apb_drv.h tests/framework/blk_tb.h

# RTL of each block under test (register package and top come from its RDL)
PERIPH_RTL_uart    := $(PRIM_PKG) rtl/uart/gen/uart_reg_pkg.sv rtl/uart/gen/uart_reg_top.sv rtl/uart/tessera_uart.sv
PERIPH_RTL_clint   := $(PRIM_PKG) rtl/clint/gen/clint_reg_pkg.sv rtl/clint/gen/clint_reg_top.sv rtl/clint/tessera_clint.sv
PERIPH_RTL_intc    := $(PRIM_PKG) rtl/intc/gen/intc_reg_pkg.sv rtl/intc/gen/intc_reg_top.sv rtl/intc/tessera_intc.sv
PERIPH_RTL_sysctrl := $(CFG_PKG) $(PRIM_PKG) rtl/sysctrl/gen/sysctrl_reg_pkg.sv rtl/sysctrl/gen/sysctrl_reg_top.sv \
                      rtl/sysctrl/tessera_sysctrl.sv
PERIPH_RTL_sysbus  := $(CFG_PKG) $(PRIM_PKG) rtl/sysbus/tessera_sysbus.sv

define PERIPH_TB_RULE
$(PERIPH_BUILD)/$(1)/Vtb_$(1)_top: $$(PERIPH_RTL_$(1)) tests/$(1)/tb_$(1)_top.sv tests/$(1)/tb_$(1).cpp \
    tests/$(1)/$(1)_ref.h $(PERIPH_HDRS) bsp/include/cfg/$(CONFIG)/tessera_cfg.h
	@mkdir -p $(PERIPH_BUILD)/$(1) && rm -f $$@
	verilator --lint-only -Wall --top-module tb_$(1)_top $$(VLT_WAIVERS) $$(PERIPH_RTL_$(1)) \
	  tests/$(1)/tb_$(1)_top.sv >$(PERIPH_BUILD)/$(1)/lint.log 2>&1 || { cat $(PERIPH_BUILD)/$(1)/lint.log; exit 1; }
	nice verilator $(PERIPH_VFLAGS) --top-module tb_$(1)_top -Mdir $(PERIPH_BUILD)/$(1) \
	  -o Vtb_$(1)_top -CFLAGS "-O1 -I$(ROOT)/tests/$(1) $(PERIPH_CINC)" $$(VLT_WAIVERS) \
	  $$(PERIPH_RTL_$(1)) tests/$(1)/tb_$(1)_top.sv $(abspath tests/$(1)/tb_$(1).cpp) \
	  >$(PERIPH_BUILD)/$(1)/build.log 2>&1 || { tail -30 $(PERIPH_BUILD)/$(1)/build.log; exit 1; }
.PHONY: periph-$(1)-tb periph-$(1)-test
periph-$(1)-tb: $(PERIPH_BUILD)/$(1)/Vtb_$(1)_top
periph-$(1)-test: periph-$(1)-tb
	@$(PERIPH_BUILD)/$(1)/Vtb_$(1)_top --seed $(PERIPH_SEED) $(PERIPH_ARGS)
TEST_BUILD += periph-$(1)-tb
endef
$(foreach b,$(PERIPH_BLOCKS),$(eval $(call PERIPH_TB_RULE,$(b))))

.PHONY: periph-test
periph-test: $(foreach b,$(PERIPH_BLOCKS),periph-$(b)-test)
