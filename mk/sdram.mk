# SDR SDRAM controller (rtl/sdram, docs/sdram.md) and its block testbench against the
# SDRAM model with timing checker (sim/src/tsim_sdram.cpp).
#   make sdram-tb       build build/<config>/sdram/Vtb_sdram_top
#   make sdram-test     run it (suite `sdram`; SDRAM_ARGS="--seed N")
#   make sdram-bench    sequential bandwidth (bench `sdram`)
#   make axi-mux-test   the two-to-one AXI mux in front of it (suite `axi_mux`)
# Both blocks are used by the ULX3S board top only (not by tessera_top): linted
# (LINT_TOPS) and synthesized (SYNTH_TOPS) on their own.
RTL_SRCS   += rtl/sdram/tessera_sdram_ctrl.sv rtl/sdram/tessera_axi_mem_mux.sv
LINT_TOPS  += tessera_sdram_ctrl tessera_axi_mem_mux
SYNTH_TOPS += tessera_sdram_ctrl tessera_axi_mem_mux

SDRAM_BUILD := $(BUILD)/sdram
SDRAM_SEED  ?= $(or $(SEED),1)
SDRAM_RTL   := $(PRIM_PKG) rtl/prim/tessera_fifo.sv rtl/sdram/tessera_sdram_ctrl.sv
SDRAM_TB    := $(SDRAM_BUILD)/Vtb_sdram_top

$(SDRAM_TB): $(SDRAM_RTL) tests/sdram/tb_sdram_top.sv tests/sdram/tb_sdram.cpp \
    sim/src/tsim_sdram.cpp sim/include/tessera_sdram.h tests/framework/blk_tb.h tests/framework/bench_rec.h
	@mkdir -p $(SDRAM_BUILD) && rm -f $@
	verilator --lint-only -Wall --top-module tb_sdram_top $(VLT_WAIVERS) $(SDRAM_RTL) \
	  tests/sdram/tb_sdram_top.sv >$(SDRAM_BUILD)/lint.log 2>&1 || { cat $(SDRAM_BUILD)/lint.log; exit 1; }
	nice verilator $(PERIPH_VFLAGS) --top-module tb_sdram_top -Mdir $(SDRAM_BUILD) \
	  -o Vtb_sdram_top -CFLAGS "-O1 -I$(ROOT)/sim/include $(PERIPH_CINC)" $(VLT_WAIVERS) \
	  $(SDRAM_RTL) tests/sdram/tb_sdram_top.sv $(abspath tests/sdram/tb_sdram.cpp) \
	  $(abspath sim/src/tsim_sdram.cpp) \
	  >$(SDRAM_BUILD)/build.log 2>&1 || { tail -30 $(SDRAM_BUILD)/build.log; exit 1; }

.PHONY: sdram-tb sdram-test sdram-bench
sdram-tb: $(SDRAM_TB)
sdram-test: sdram-tb
	@$(SDRAM_TB) --seed $(SDRAM_SEED) $(SDRAM_ARGS)
sdram-bench: sdram-tb
	@$(SDRAM_TB) --seed $(SDRAM_SEED) --bench
TEST_BUILD += sdram-tb

# two-to-one AXI mux (rtl/sdram/tessera_axi_mem_mux.sv) against an in-order memory model
AXI_MUX_RTL := $(PRIM_PKG) rtl/prim/tessera_fifo.sv rtl/sdram/tessera_axi_mem_mux.sv
AXI_MUX_TB  := $(SDRAM_BUILD)/mux/Vtb_axi_mux_top

$(AXI_MUX_TB): $(AXI_MUX_RTL) tests/sdram/tb_axi_mux_top.sv tests/sdram/tb_axi_mux.cpp tests/framework/blk_tb.h
	@mkdir -p $(SDRAM_BUILD)/mux && rm -f $@
	verilator --lint-only -Wall --top-module tb_axi_mux_top $(VLT_WAIVERS) $(AXI_MUX_RTL) \
	  tests/sdram/tb_axi_mux_top.sv >$(SDRAM_BUILD)/mux/lint.log 2>&1 || { cat $(SDRAM_BUILD)/mux/lint.log; exit 1; }
	nice verilator $(PERIPH_VFLAGS) --top-module tb_axi_mux_top -Mdir $(SDRAM_BUILD)/mux \
	  -o Vtb_axi_mux_top -CFLAGS "-O1 $(PERIPH_CINC)" $(VLT_WAIVERS) \
	  $(AXI_MUX_RTL) tests/sdram/tb_axi_mux_top.sv $(abspath tests/sdram/tb_axi_mux.cpp) \
	  >$(SDRAM_BUILD)/mux/build.log 2>&1 || { tail -30 $(SDRAM_BUILD)/mux/build.log; exit 1; }

.PHONY: axi-mux-tb axi-mux-test
axi-mux-tb: $(AXI_MUX_TB)
axi-mux-test: axi-mux-tb
	@$(AXI_MUX_TB) --seed $(SDRAM_SEED) $(AXI_MUX_ARGS)
TEST_BUILD += axi-mux-tb
