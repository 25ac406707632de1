# AXI4 memory fabric: crossbar (tessera_axi_xbar) and OBI->AXI bridge (tessera_obi2axi).
# Targets: fabric-tb (build the Verilator testbenches), fabric-test (run them),
#          fabric-lint (lint both block tops alone). See docs/fabric.md.

FABRIC_SRCS := rtl/fabric/tessera_fabric_rd_rob.sv rtl/fabric/tessera_fabric_b_queue.sv \
               rtl/fabric/tessera_fabric_err_slv.sv \
               rtl/fabric/tessera_axi_xbar.sv rtl/fabric/tessera_obi2axi.sv
RTL_SRCS    += $(FABRIC_SRCS)
# what the block testbenches and fabric-lint compile: the shared primitives too
FABRIC_RTL  := $(PRIM_PKG) $(PRIM_SRCS) $(FABRIC_SRCS)
LINT_TOPS   += tessera_axi_xbar tessera_obi2axi
SYNTH_TOPS  += tessera_axi_xbar tessera_obi2axi

FABRIC_BUILD   := $(BUILD)/fabric
FABRIC_VFLAGS  := -O3 --x-assign fast --x-initial fast -Wall -Wno-fatal --cc --exe --build \
                  -MAKEFLAGS "-j2" -CFLAGS "-O2 -std=c++17 -I$(ROOT)/sim/include -I$(ROOT)/tests/fabric"
FABRIC_TB_DEPS := $(FABRIC_RTL) tests/fabric/tb_xbar_top.sv tests/fabric/tb_obi_top.sv tests/fabric/fabric_slave.cpp tests/fabric/fabric_slave.h \
                  tests/fabric/fabric_util.h sim/src/axi_mem_model.cpp sim/include/axi_mem_model.h
FABRIC_TB_CPP  := $(ROOT)/tests/fabric/fabric_slave.cpp $(ROOT)/sim/src/axi_mem_model.cpp
FABRIC_XBAR44  := $(FABRIC_BUILD)/xbar44/Vtessera_axi_xbar
FABRIC_XBAR32  := $(FABRIC_BUILD)/xbar32/Vtessera_axi_xbar
FABRIC_XBAR44H := $(FABRIC_BUILD)/xbar44h/Vtessera_axi_xbar
FABRIC_OBI     := $(FABRIC_BUILD)/obi/Vtessera_obi2axi
FABRIC_TBS     := $(FABRIC_XBAR44) $(FABRIC_XBAR32) $(FABRIC_XBAR44H) $(FABRIC_OBI)

# Crossbar testbench with NM masters x NS channels, channel hash H (0/1), W buffer of WB beats
# per channel: $(call fabric_xbar_tb,NM,NS,H,WB). Its top is tests/fabric/tb_xbar_top.sv (the
# crossbar with flat pins), the C++ class keeps the name Vtessera_axi_xbar.
define fabric_xbar_tb
	@mkdir -p $(dir $@)
	nice verilator $(FABRIC_VFLAGS) --top-module tb_xbar_top --prefix Vtessera_axi_xbar -GNumMst=$(1) -GNumSlv=$(2) -GChannelHash=1\'b$(3) -GWBufBeats=$(4) \
	  -CFLAGS "-DFAB_NMST=$(1) -DFAB_NSLV=$(2) -DFAB_HASH=$(3)" --Mdir $(dir $@) -o $(notdir $@) \
	  $(FABRIC_RTL) $(ROOT)/tests/fabric/tb_xbar_top.sv $(ROOT)/tests/fabric/fabric_tb.cpp $(FABRIC_TB_CPP) \
	  >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }
endef

# 4 masters x 4 channels with a 4-beat W buffer per channel (the proto chip's HBM fabric) ...
$(FABRIC_XBAR44): $(FABRIC_TB_DEPS) tests/fabric/fabric_tb.cpp
	$(call fabric_xbar_tb,4,4,0,4)
# ... and 3 masters x 2 channels (odd master count, the tiny channel count), no W buffer
$(FABRIC_XBAR32): $(FABRIC_TB_DEPS) tests/fabric/fabric_tb.cpp
	$(call fabric_xbar_tb,3,2,0,0)
# ... and 4 x 4 with the channel hash (ChannelHash = 1; run_fabric.py runs its stress and hbm
# phases) and a 2-beat W buffer
$(FABRIC_XBAR44H): $(FABRIC_TB_DEPS) tests/fabric/fabric_tb.cpp
	$(call fabric_xbar_tb,4,4,1,2)
# OBI->AXI bridge testbench (top: tests/fabric/tb_obi_top.sv, the bridge with flat AXI pins)
$(FABRIC_OBI): $(FABRIC_TB_DEPS) tests/fabric/obi_tb.cpp
	@mkdir -p $(dir $@)
	nice verilator $(FABRIC_VFLAGS) --top-module tb_obi_top --prefix Vtessera_obi2axi --Mdir $(dir $@) -o $(notdir $@) \
	  $(FABRIC_RTL) $(ROOT)/tests/fabric/tb_obi_top.sv $(ROOT)/tests/fabric/obi_tb.cpp $(FABRIC_TB_CPP) >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }

.PHONY: fabric-tb fabric-test fabric-lint
fabric-tb: $(FABRIC_TBS)
fabric-test: fabric-tb
	@python3 tests/fabric/run_fabric.py --build $(FABRIC_BUILD) $(FABRIC_ARGS)
fabric-lint:
	@set -e; for t in tessera_axi_xbar tessera_obi2axi; do \
	  verilator --lint-only -Wall --top-module $$t $(FABRIC_RTL); echo "lint: $$t clean"; done
TEST_BUILD += $(FABRIC_TBS)
BENCH_DEPS += $(FABRIC_TBS)

# Mutation check of the testbenches (manual, ~10 min): every mutant must fail.
.PHONY: fabric-mutants
fabric-mutants:
	@python3 tests/fabric/mutants.py --build $(FABRIC_BUILD)/mutants
