# L2 cache slice (rtl/l2, tests/l2). See docs/l2.md.
L2_PKG  := rtl/l2/tessera_l2_pkg.sv
L2_SRCS := rtl/l2/tessera_l2_bank.sv rtl/l2/tessera_l2_mshr.sv rtl/l2/tessera_l2_pf.sv \
           rtl/l2/tessera_l2_wq.sv rtl/l2/tessera_l2_maint.sv rtl/l2/tessera_l2_rd_eng.sv \
           rtl/l2/tessera_l2_wr_eng.sv rtl/l2/tessera_l2.sv \
           rtl/l2/tessera_l2_router.sv rtl/l2/tessera_l2_cluster.sv
RTL_PKGS  += $(L2_PKG)
RTL_SRCS  += $(L2_SRCS)
LINT_TOPS += tessera_l2 tessera_l2_cluster

L2_GEN    := rtl/l2/gen/l2_reg_pkg.sv rtl/l2/gen/l2_reg_top.sv
L2_ALL    := $(PRIM_PKG) $(L2_PKG) $(L2_GEN) $(PRIM_SRCS) $(L2_SRCS)
L2_TB_TOP := tests/l2/tb_l2_top.sv
L2_TB_DIR := $(BUILD)/l2_tb
L2_TB     := $(L2_TB_DIR)/Vtessera_l2
L2_TB_SRC := $(wildcard tests/l2/*.cpp tests/l2/*.h) sim/src/axi_mem_model.cpp sim/include/axi_mem_model.h
# test geometry: the slice of this configuration (size from tessera_cfg_pkg, passed here)
L2_SIZE   := $(shell sed -n 's/.*L2BytesPerDcore = \([0-9]*\).*/\1/p' $(CFG_PKG))
# read bursts buffered per port (the read-ahead horizon), as the chip's slices have them
L2_RD_BURSTS := $(shell sed -n 's/.*L2RdBursts = \([0-9]*\).*/\1/p' $(CFG_PKG))
# downstream ID bits (the chip's AXI ID width: it sets the number of read-ahead MSHRs)
L2_MID_BITS := $(shell sed -n 's/.*AxiIdBits = \([0-9]*\).*/\1/p' $(CFG_PKG))
# banks of the chip's slices (l2_banks); the one-master build keeps the slice's default 4,
# so both bank counts are tested
L2_BANKS := $(shell sed -n 's/.*L2Banks = \([0-9]*\).*/\1/p' $(CFG_PKG))

.PHONY: l2-lint l2-tb l2-test l2-bench l2-synth
l2-lint:
	verilator --lint-only -Wall --top-module tessera_l2 $(VLT_WAIVERS) $(L2_ALL)

# Two builds: one read master (RdMasters = 1, 4 banks) and two (l2_tb_rd2/: the second,
# read-only master of the chip's slices, l2_rd_masters in config/tessera.toml, and the chip's
# l2_banks; the read-ahead refills split over two channel models on one store). Not a subdirectory of the first: Verilator's
# makefile searches `..` for objects and would link the first build's l2_tb.o.
L2_TB2_DIR := $(BUILD)/l2_tb_rd2
L2_TB2     := $(L2_TB2_DIR)/Vtessera_l2
L2_TB_FLAGS = --cc --exe --build -O3 --x-assign fast --x-initial fast -Wno-fatal \
	  -j 2 --top-module tb_l2_top --prefix Vtessera_l2 -GSizeBytes=$(L2_SIZE) -GArDepth=$(L2_RD_BURSTS) -GMIdBits=$(L2_MID_BITS)
l2-tb: $(L2_TB) $(L2_TB2)
$(L2_TB): $(L2_ALL) $(L2_TB_TOP) $(L2_TB_SRC) mk/l2.mk
	@mkdir -p $(L2_TB_DIR)
	nice verilator $(L2_TB_FLAGS) -GRdMasters=1 \
	  -Mdir $(L2_TB_DIR) -CFLAGS "-O2 -std=c++17 -I$(ROOT)/sim/include -DL2_SIZE=$(L2_SIZE) -DL2_MID_BITS=$(L2_MID_BITS) -DL2_RD_MASTERS=1 -DL2_BANKS=4" \
	  $(L2_ALL) $(L2_TB_TOP) $(abspath tests/l2/l2_tb.cpp) $(abspath sim/src/axi_mem_model.cpp) -o Vtessera_l2 >$(L2_TB_DIR)/build.log 2>&1 \
	  || { tail -30 $(L2_TB_DIR)/build.log; exit 1; }
$(L2_TB2): $(L2_ALL) $(L2_TB_TOP) $(L2_TB_SRC) mk/l2.mk
	@mkdir -p $(L2_TB2_DIR)
	nice verilator $(L2_TB_FLAGS) -GRdMasters=2 -GNumBanks=$(L2_BANKS) \
	  -Mdir $(L2_TB2_DIR) -CFLAGS "-O2 -std=c++17 -I$(ROOT)/sim/include -DL2_SIZE=$(L2_SIZE) -DL2_MID_BITS=$(L2_MID_BITS) -DL2_RD_MASTERS=2 -DL2_BANKS=$(L2_BANKS)" \
	  $(L2_ALL) $(L2_TB_TOP) $(abspath tests/l2/l2_tb.cpp) $(abspath sim/src/axi_mem_model.cpp) -o Vtessera_l2 >$(L2_TB2_DIR)/build.log 2>&1 \
	  || { tail -30 $(L2_TB2_DIR)/build.log; exit 1; }

TEST_BUILD += l2-tb
BENCH_DEPS += l2-tb

l2-test: $(L2_TB) $(L2_TB2)
	$(L2_TB)
	$(L2_TB2)

l2-bench: $(L2_TB)
	$(L2_TB) --bench

# Synthesis check of the slice (same flow as util/synth.sh: memories stay inferred RAMs,
# fails on latches). L2_SYNTH_PARAMS selects the geometry (default: a small 4 KiB, 4-way,
# 2-port slice so that the check is quick; the full proto slice is `make l2-synth
# L2_SYNTH_PARAMS=`).
L2_SYNTH_PARAMS ?= chparam -set SizeBytes 4096 -set Ways 4 -set NumPorts 2 tessera_l2;
l2-synth:
	@mkdir -p $(BUILD)/synth
	nice $(YOSYS) -q -l $(BUILD)/synth/tessera_l2.log -p "read_verilog -sv $(L2_ALL); $(L2_SYNTH_PARAMS) \
	  synth -flatten -top tessera_l2 -run begin:fine; opt -fast -full; techmap; opt -fast; abc; opt -fast; \
	  select -assert-none t:\$$dlatch t:\$$_DLATCH_*; tee -o $(BUILD)/synth/tessera_l2.stat stat" >/dev/null
	@grep -E "cells$$|mem_v2|DFF" $(BUILD)/synth/tessera_l2.stat | head -20

# Router testbench (tests/l2/router): 4 random masters and 4 in-order slave ports,
# private and shared modes, random back-pressure, scoreboard (docs/l2.md).
L2R_TB_DIR := $(BUILD)/l2_router_tb
L2R_TB     := $(L2R_TB_DIR)/Vtessera_l2_router
L2R_SRCS   := $(PRIM_PKG) $(PRIM_SRCS) rtl/l2/tessera_l2_router.sv

# Two builds: RobBursts = 4 (fewer R buffers than ring slots: slot modulo RobBursts) and
# RobBursts = 16 = RingBursts (the chip's routers: shared mode as deep as private mode).
L2R_TB16_DIR := $(BUILD)/l2_router_tb/rob16
L2R_TB16     := $(L2R_TB16_DIR)/Vtessera_l2_router
L2R_VFLAGS   := --cc --exe --build -O3 --x-assign fast --x-initial fast -Wno-fatal \
	  -j 2 --top-module tessera_l2_router -GN=4 -GAxW=28 -GWW=32 -GRW=40 -GBW=8 -CFLAGS "-O2 -std=c++17"

.PHONY: l2-router-tb l2-router-test
l2-router-tb: $(L2R_TB) $(L2R_TB16)
$(L2R_TB): $(L2R_SRCS) tests/l2/router/router_tb.cpp mk/l2.mk
	@mkdir -p $(L2R_TB_DIR)
	nice verilator $(L2R_VFLAGS) -GRobBursts=4 -Mdir $(L2R_TB_DIR) \
	  $(L2R_SRCS) $(abspath tests/l2/router/router_tb.cpp) -o Vtessera_l2_router >$(L2R_TB_DIR)/build.log 2>&1 \
	  || { tail -30 $(L2R_TB_DIR)/build.log; exit 1; }
$(L2R_TB16): $(L2R_SRCS) tests/l2/router/router_tb.cpp mk/l2.mk
	@mkdir -p $(L2R_TB16_DIR)
	nice verilator $(L2R_VFLAGS) -GRobBursts=16 -Mdir $(L2R_TB16_DIR) \
	  $(L2R_SRCS) $(abspath tests/l2/router/router_tb.cpp) -o Vtessera_l2_router >$(L2R_TB16_DIR)/build.log 2>&1 \
	  || { tail -30 $(L2R_TB16_DIR)/build.log; exit 1; }

TEST_BUILD += l2-router-tb

l2-router-test: $(L2R_TB) $(L2R_TB16)
	$(L2R_TB) --seeds 3
	$(L2R_TB16) --seeds 3
