# TPC RTL (rtl/tpc/*.sv, tests/tpc/rtl/, docs/tpc_rtl.md).
#   make tpc-rtl-gen     regenerate rtl/tpc/tessera_tpc_isa_pkg.sv + tessera_tpc_dec.sv from the ISA table
#   make tpc-rtl-lint    verilator -Wall lint of tessera_tpc_core alone
#   make tpc-rtl-tb      build the Verilated core testbench (lockstep with the C ISA model)
#   make tpc-rtl-test    generated decoder up to date + lint + float-unit unit test + random lockstep programs
#   make tpc-rtl-synth   Yosys synthesis of tessera_tpc_core (small local memories)
TPC_RTL_PKG  := rtl/tpc/tessera_tpc_isa_pkg.sv rtl/tpc/tessera_tpc_sfu_pkg.sv
TPC_RTL_MODS := rtl/tpc/tessera_tpc_dec.sv rtl/tpc/tessera_tpc_vlane.sv rtl/tpc/tessera_tpc_valu.sv rtl/tpc/tessera_tpc_tmu.sv rtl/tpc/tessera_tpc_fadd.sv rtl/tpc/tessera_tpc_fmul.sv \
                rtl/tpc/tessera_tpc_ffma.sv rtl/tpc/tessera_tpc_fpu.sv \
                rtl/tpc/tessera_tpc_core.sv
TPC_RTL      := rtl/cfg/$(CONFIG)/tessera_cfg_pkg.sv $(PRIM_PKG) rtl/mme/tessera_mme_pkg.sv $(TPC_RTL_PKG) $(TPC_RTL_MODS)

RTL_PKGS  += $(TPC_RTL_PKG)
RTL_SRCS  += $(TPC_RTL_MODS)
LINT_TOPS += tessera_tpc_core

TPC_RTL_BUILD := $(BUILD)/tpc_rtl
TPC_RTL_TB    := $(TPC_RTL_BUILD)/tb/Vtessera_tpc_core
TPC_RTL_PROGS ?= 300
TPC_FPU_TB    := $(TPC_RTL_BUILD)/fputb/Vtessera_tpc_fpu
TPC_FPU_RTL   := rtl/mme/tessera_mme_pkg.sv $(TPC_RTL_PKG) rtl/tpc/tessera_tpc_ffma.sv rtl/tpc/tessera_tpc_fpu.sv

$(TPC_RTL_BUILD)/tpc_golden.o: tests/tpc/golden/tpc_golden.c $(TPC_GOLDEN_HDRS) $(TPC_MODEL_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -Itests/tpc -Itools/tpcasm -c -o $@ $<

$(TPC_RTL_TB): $(TPC_RTL) tests/tpc/rtl/tb_tpc_core_top.sv tests/tpc/rtl/tb_tpc_core.cpp $(TPC_TOOLS_DIR)/libtpcmodel.a $(TPC_RTL_BUILD)/tpc_golden.o mk/tpc_rtl.mk
	@mkdir -p $(TPC_RTL_BUILD)/tb && rm -f $@
	nice verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast \
	  --public-flat-rw -Wno-fatal --top-module tb_tpc_core_top --prefix Vtessera_tpc_core "-GMemSize=33'h40000" -Mdir $(TPC_RTL_BUILD)/tb \
	  -o Vtessera_tpc_core -CFLAGS "-O1 -I$(ROOT)/tests/tpc -I$(ROOT)/tools/tpcasm -I$(CFG_INC)" \
	  -LDFLAGS "$(TPC_RTL_BUILD)/tpc_golden.o $(TPC_TOOLS_DIR)/libtpcmodel.a -lm" \
	  $(addprefix $(ROOT)/,$(TPC_RTL)) $(ROOT)/tests/tpc/rtl/tb_tpc_core_top.sv $(ROOT)/tests/tpc/rtl/tb_tpc_core.cpp \
	  > $(TPC_RTL_BUILD)/tb/build.log 2>&1 \
	  || { tail -30 $(TPC_RTL_BUILD)/tb/build.log; exit 1; }

.PHONY: tpc-rtl-gen tpc-rtl-gen-check tpc-rtl-lint tpc-rtl-tb tpc-rtl-test tpc-rtl-synth
tpc-rtl-gen:
	@python3 util/gen_tpc_dec.py
tpc-rtl-gen-check:
	@python3 util/gen_tpc_dec.py --check
tpc-rtl-lint:
	verilator --lint-only -Wall --top-module tessera_tpc_core $(ROOT)/rtl/lint/waivers.vlt $(TPC_RTL)
tpc-rtl-tb: $(TPC_RTL_TB)
tpc-rtl-test: tpc-rtl-gen-check tpc-rtl-lint $(TPC_RTL_TB) $(TPC_FPU_TB)
	@s=$(if $(SEED),$(SEED),1); \
	  echo "tpc-rtl-test: seed $$s (reproduce with: SEED=$$s make tpc-rtl-test)"; \
	  $(TPC_FPU_TB) --seed $$s && $(TPC_RTL_TB) --seed $$s --progs $(TPC_RTL_PROGS)

tpc-rtl-synth: deps
	@mkdir -p $(TPC_RTL_BUILD)
	nice $(YOSYS) -q -l $(TPC_RTL_BUILD)/synth.log -p "read_verilog -sv $(TPC_RTL); \
	  chparam -set ImemDepth 16 -set SlmBytes 64 -set VlmBytes 64 tessera_tpc_core; \
	  synth -flatten -top tessera_tpc_core; select -assert-none t:\$$dlatch t:\$$_DLATCH_*; \
	  tee -o $(TPC_RTL_BUILD)/synth.stat stat" > /dev/null
	@grep -E "^ +[0-9]+ +cells$$" $(TPC_RTL_BUILD)/synth.stat | head -1

TEST_BUILD += $(TPC_RTL_TB)

# unit testbench of the float unit (special functions, FP32 FMA) against the C model
$(TPC_FPU_TB): $(TPC_FPU_RTL) tests/tpc/rtl/tb_tpc_fpu.cpp $(TPC_TOOLS_DIR)/libtpcmodel.a mk/tpc_rtl.mk
	@mkdir -p $(TPC_RTL_BUILD)/fputb && rm -f $@
	nice verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal \
	  --top-module tessera_tpc_fpu -Mdir $(TPC_RTL_BUILD)/fputb -o Vtessera_tpc_fpu \
	  -CFLAGS "-O1 -I$(ROOT)/tests/tpc -I$(ROOT)/tools/tpcasm -I$(CFG_INC)" -LDFLAGS "$(TPC_TOOLS_DIR)/libtpcmodel.a -lm" \
	  $(addprefix $(ROOT)/,$(TPC_FPU_RTL)) $(ROOT)/tests/tpc/rtl/tb_tpc_fpu.cpp > $(TPC_RTL_BUILD)/fputb/build.log 2>&1 \
	  || { tail -30 $(TPC_RTL_BUILD)/fputb/build.log; exit 1; }
.PHONY: tpc-fpu-tb tpc-fpu-test
tpc-fpu-tb: $(TPC_FPU_TB)
tpc-fpu-test: $(TPC_FPU_TB)
	@$(TPC_FPU_TB) $(if $(SEED),--seed $(SEED))
TEST_BUILD += $(TPC_FPU_TB)
