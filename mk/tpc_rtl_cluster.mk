# TPC cluster (rtl/tpc/tessera_tpc_cluster.sv and its parts; docs/tpc_rtl.md "Cluster").
#   make tpc-cluster-tb      build the Verilated cluster testbench (CONFIG's DCOREs x TPCs)
#   make tpc-cluster-test    lint + testbench (suite tpc_cluster)
#   make tpc-cluster-bench   benchmarks: 1 MiB elementwise add, 1..all TPCs, back-to-back gap
TPCC_MODS := rtl/tpc/tessera_tpc_axi_arb.sv rtl/tpc/tessera_tpc_ifetch.sv rtl/tpc/tessera_tpc_cluster.sv
RTL_SRCS  += $(TPCC_MODS)
LINT_TOPS += tessera_tpc_cluster

# TPCs per DCORE of the testbench's cluster. `make test` builds 2 (2 DCOREs x 2 TPCs in
# proto: every path of the cluster, half the C++ of the full 2 x 4 shape, which was the
# longest build of `make test`); the bench line builds the CONFIG's shape
# (TPCC_PER_DCORE=4 in proto). The chip suite (tests/chip/tpc.c) runs the full cluster.
TPCC_PER_DCORE ?= 2
TPCC_BUILD := $(BUILD)/tpc_cluster_$(TPCC_PER_DCORE)
TPCC_TB    := $(TPCC_BUILD)/Vtessera_tpc_cluster
TPCC_RTL   := $(CFG_PKG) rtl/tpc/gen/tpc_reg_pkg.sv rtl/tpc/gen/tpc_reg_top.sv \
              $(filter-out rtl/cfg/%,$(TPC_RTL)) $(TPCC_MODS)
TPCC_TOP   := tests/tpc/rtl/tb_tpc_cluster_top.sv
TPCC_SRCS  := tests/tpc/rtl/tpcc_harness.cpp sim/src/axi_mem_model.cpp
TPCC_HDRS  := tests/tpc/rtl/tpcc_tb.h sim/include/axi_mem_model.h bsp/include/regs/tpc_regs.h
TPCC_SHAPES ?= 2

$(TPCC_BUILD)/tpcc_test.o: tests/tpc/rtl/tpcc_test.c $(TPCC_HDRS) $(TPC_MODEL_HDRS) $(TPC_GOLDEN_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -Itests/tpc -Itools/tpcasm -Ibsp/include -c -o $@ $<

$(TPCC_BUILD)/tpcc.vlt:
	@mkdir -p $(dir $@)
	@printf '`verilator_config\npublic_flat_rw -module "tessera_tpc_cluster" -var "c_retire"\n' > $@

$(TPCC_TB): $(TPCC_RTL) $(TPCC_TOP) $(TPCC_SRCS) $(TPCC_HDRS) $(TPC_TOOLS_DIR)/libtpcmodel.a $(TPC_RTL_BUILD)/tpc_golden.o \
            $(TPCC_BUILD)/tpcc.vlt $(TPCC_BUILD)/tpcc_test.o mk/tpc_rtl_cluster.mk
	@mkdir -p $(TPCC_BUILD) && rm -f $@
	nice verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal \
	  --top-module tb_tpc_cluster_top --prefix Vtessera_tpc_cluster "-GMemSize=33'h1000000" -GTpcPerDcore=$(TPCC_PER_DCORE) -Mdir $(TPCC_BUILD) -o Vtessera_tpc_cluster \
	  -CFLAGS "-O1 -DTPCC_PER_DCORE=$(TPCC_PER_DCORE) -I$(ROOT)/tests/tpc -I$(ROOT)/tests/tpc/rtl -I$(ROOT)/tools/tpcasm -I$(ROOT)/sim/include -I$(ROOT)/bsp/include -I$(CFG_INC)" \
	  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1" \
	  -LDFLAGS "$(TPCC_BUILD)/tpcc_test.o $(TPC_RTL_BUILD)/tpc_golden.o $(TPC_TOOLS_DIR)/libtpcmodel.a -lm" \
	  $(VLT_WAIVERS) $(TPCC_BUILD)/tpcc.vlt $(CFG_PKG) $(addprefix $(ROOT)/,$(filter-out $(CFG_PKG),$(TPCC_RTL))) \
	  $(ROOT)/$(TPCC_TOP) $(addprefix $(ROOT)/,$(TPCC_SRCS)) > $(TPCC_BUILD)/build.log 2>&1 \
	  || { tail -30 $(TPCC_BUILD)/build.log; exit 1; }

.PHONY: tpc-cluster-tb tpc-cluster-lint tpc-cluster-test tpc-cluster-bench
tpc-cluster-tb: $(TPCC_TB)
tpc-cluster-lint:
	@verilator --lint-only -Wall --top-module tessera_tpc_cluster $(VLT_WAIVERS) $(TPCC_RTL) && echo "tpc-cluster-lint: clean"
tpc-cluster-test: tpc-cluster-lint $(TPCC_TB)
	@$(TPCC_TB) $(if $(SEED),--seed $(SEED)) --shapes $(TPCC_SHAPES)
tpc-cluster-bench: $(TPCC_TB)
	@$(TPCC_TB) --bench

TEST_BUILD += $(TPCC_TB)
BENCH_DEPS += $(TPCC_TB)
