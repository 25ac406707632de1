# AXI4 memory fabric: crossbar (tessera_axi_xbar) and OBI->AXI bridge (tessera_obi2axi).
# Targets: fabric-tb (Verilator testbench), fabric-test (run it). See docs/fabric.md.

FABRIC_SRCS := rtl/fabric/tessera_fabric_fifo.sv rtl/fabric/tessera_fabric_rr_arb.sv \
               rtl/fabric/tessera_fabric_resp_arb.sv rtl/fabric/tessera_fabric_err_slv.sv \
               rtl/fabric/tessera_axi_xbar.sv rtl/fabric/tessera_obi2axi.sv
RTL_SRCS    += $(FABRIC_SRCS)
LINT_TOPS   += tessera_axi_xbar tessera_obi2axi
SYNTH_TOPS  += tessera_axi_xbar tessera_obi2axi

FABRIC_BUILD := $(BUILD)/fabric
FABRIC_VFLAGS := -O3 --x-assign fast --x-initial fast -Wall -Wno-fatal --cc --exe --build \
                 -MAKEFLAGS "-j2" -CFLAGS "-O2 -std=c++17 -I$(ROOT)/sim/src -I$(ROOT)/tests/fabric"
FABRIC_TB_SRCS := tests/fabric/fabric_tb.cpp tests/fabric/fabric_slave.cpp sim/src/axi_mem_model.cpp
FABRIC_TB_HDRS := tests/fabric/fabric_slave.h tests/fabric/fabric_util.h sim/src/axi_mem_model.h

# Crossbar testbench: 4 masters x 4 channels (the proto shape) ...
$(FABRIC_BUILD)/xbar/Vtessera_axi_xbar: $(FABRIC_SRCS) $(FABRIC_TB_SRCS) $(FABRIC_TB_HDRS)
	@mkdir -p $(dir $@)
	nice verilator $(FABRIC_VFLAGS) --top-module tessera_axi_xbar -GNumMst=4 -GNumSlv=4 \
	  -CFLAGS "-DFAB_NMST=4 -DFAB_NSLV=4" --Mdir $(dir $@) -o Vtessera_axi_xbar \
	  $(FABRIC_SRCS) $(addprefix $(ROOT)/,$(FABRIC_TB_SRCS)) >/dev/null
# ... and 3 masters x 2 channels (odd master count, the tiny channel count)
$(FABRIC_BUILD)/xbar32/Vtessera_axi_xbar: $(FABRIC_SRCS) $(FABRIC_TB_SRCS) $(FABRIC_TB_HDRS)
	@mkdir -p $(dir $@)
	nice verilator $(FABRIC_VFLAGS) --top-module tessera_axi_xbar -GNumMst=3 -GNumSlv=2 \
	  -CFLAGS "-DFAB_NMST=3 -DFAB_NSLV=2" --Mdir $(dir $@) -o Vtessera_axi_xbar \
	  $(FABRIC_SRCS) $(addprefix $(ROOT)/,$(FABRIC_TB_SRCS)) >/dev/null

FABRIC_TBS := $(FABRIC_BUILD)/xbar/Vtessera_axi_xbar $(FABRIC_BUILD)/xbar32/Vtessera_axi_xbar

.PHONY: fabric-tb fabric-test fabric-lint
fabric-tb: $(FABRIC_TBS)
fabric-test: fabric-tb
	@python3 tests/fabric/run_fabric.py --build $(FABRIC_BUILD) $(FABRIC_ARGS)
fabric-lint:
	@set -e; for t in tessera_axi_xbar tessera_obi2axi; do \
	  verilator --lint-only -Wall --top-module $$t $(FABRIC_SRCS); echo "lint: $$t clean"; done
TEST_BUILD += $(FABRIC_TBS)
