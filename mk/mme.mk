# MME (matrix-multiplication engine): RTL, block testbench, tests and benchmarks.
#   make mme-tb          build the block testbenches (8x8 and 16x16) and numfmt_test
#   make mme-test        run them (the `test mme` suite)
#   make mme-bench       block-level benchmark table (the `bench mme` suite)
#   make mme-synth       Yosys synthesis of tessera_mme at a small shape (4x4)
MME_PKG  := rtl/mme/tessera_mme_pkg.sv
MME_SRCS := rtl/mme/tessera_mme_fpdec.sv rtl/mme/tessera_mme_fpround.sv \
            rtl/mme/tessera_mme_pe.sv rtl/mme/tessera_mme_opbuf.sv rtl/mme/tessera_mme_fcur.sv \
            rtl/mme/tessera_mme.sv
RTL_PKGS += $(MME_PKG)
RTL_SRCS += $(MME_SRCS)
LINT_TOPS += tessera_mme

MME_BUILD := $(ROOT)/build/mme
MME_TB_SRCS := tests/mme/tb_mme.cpp sim/src/axi_mem_model.cpp
MME_TB_TOP  := tests/mme/tb_mme_top.sv
MME_C_SRCS  := tests/mme/mme_test.c tests/mme/mme_golden.c tests/golden/numfmt.c
MME_C_HDRS  := tests/mme/tb_mme.h tests/mme/mme_golden.h tests/golden/numfmt.h bsp/include/regs/mme_regs.h
MME_VFLAGS := -O3 --x-assign fast --x-initial fast -Wno-fatal --cc --exe --build \
              -j 2 -CFLAGS "-O1 -I$(ROOT)/tests/golden -I$(ROOT)/tests/mme -I$(ROOT)/sim/include -I$(ROOT)/bsp/include" \
              -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1"
MME_RTL := $(PRIM_PKG) rtl/mme/gen/mme_reg_pkg.sv $(MME_PKG) rtl/mme/gen/mme_reg_top.sv $(MME_SRCS)

# one Verilated model per array shape: $(MME_BUILD)/r<R>/Vtessera_mme
define MME_TB_RULE
$(MME_BUILD)/r$(1)/libmmetest.a: $(MME_C_SRCS) $(MME_C_HDRS)
	@mkdir -p $(MME_BUILD)/r$(1)/c
	cd $(MME_BUILD)/r$(1)/c && gcc -O2 -Wall -Wextra -DMME_ROWS=$(1) -DMME_COLS=$(1) \
	  -I$(ROOT)/tests/golden -I$(ROOT)/tests/mme -I$(ROOT)/bsp/include -c $(abspath $(MME_C_SRCS)) \
	  && ar rcs $$@ *.o
$(MME_BUILD)/r$(1)/Vtessera_mme: $(MME_RTL) $(MME_TB_TOP) $(MME_TB_SRCS) $(MME_BUILD)/r$(1)/libmmetest.a
	@mkdir -p $(MME_BUILD)/r$(1) && rm -f $$@
	nice verilator $(MME_VFLAGS) --top-module tb_mme_top --prefix Vtessera_mme -GRows=$(1) -GCols=$(1) \
	  -Mdir $(MME_BUILD)/r$(1) -o Vtessera_mme $(VLT_WAIVERS) $(MME_RTL) $(MME_TB_TOP) $(abspath $(MME_TB_SRCS)) \
	  $(MME_BUILD)/r$(1)/libmmetest.a -LDFLAGS -lm \
	  -CFLAGS "-DMME_ROWS=$(1) -DMME_COLS=$(1)" >$(MME_BUILD)/r$(1)/build.log 2>&1 \
	  || { tail -30 $(MME_BUILD)/r$(1)/build.log; exit 1; }
endef
$(eval $(call MME_TB_RULE,8))
$(eval $(call MME_TB_RULE,16))
$(eval $(call MME_TB_RULE,4))

# gate-level simulation: the Yosys netlist of a 4x4 MME (KWords 8, as make mme-synth)
# in the block testbench, checked against the same C golden model as the RTL.
# -fno-const-bit-op-tree: Verilator 5.006's bit-op-tree optimisation miscompiles parts of
# the flat netlist (the C-address adder cone of the netlist gives 0x00001400
# where Icarus and the netlist's own logic give 0x80001400); see docs/synthesis.md.
# util/gl_split_var.py marks the netlist's internal vectors split_var: without it Verilator
# evaluates the false combinational loops of the flat netlist (UNOPTFLAT) in an order that
# leaves stale values (the init-tile widening gave -Inf); see docs/synthesis.md.
MME_GL := $(MME_BUILD)/gl/obj/Vtessera_mme
$(MME_BUILD)/gl/tessera_mme_netlist.v: $(MME_RTL) | deps
	@mkdir -p $(dir $@)
	nice $(YOSYS) -q -l $(patsubst $(ROOT)/%,%,$(MME_BUILD))/gl/synth.log -p "read_verilog -sv $(MME_RTL); \
	  chparam -set Rows 4 -set Cols 4 -set KWords 8 tessera_mme; synth -flatten -noshare -top tessera_mme; \
	  select -assert-none t:\$$dlatch t:\$$_DLATCH_*; write_verilog -noattr $(patsubst $(ROOT)/%,%,$@)" > /dev/null
$(MME_BUILD)/gl/tessera_mme_split.v: $(MME_BUILD)/gl/tessera_mme_netlist.v util/gl_split_var.py
	python3 util/gl_split_var.py $< $@
$(MME_GL): $(MME_BUILD)/gl/tessera_mme_split.v $(MME_TB_TOP) $(MME_TB_SRCS) $(MME_BUILD)/r4/libmmetest.a
	nice verilator --cc --exe --build -j 2 -O1 --x-assign fast --x-initial fast -Wno-fatal -fno-const-bit-op-tree \
	  -Wno-lint -Wno-style --top-module tb_mme_top --prefix Vtessera_mme -DTESSERA_TB_NETLIST -GRows=4 -GCols=4 \
	  -Mdir $(MME_BUILD)/gl/obj -o Vtessera_mme \
	  -CFLAGS "-O0 -DMME_ROWS=4 -DMME_COLS=4 -I$(ROOT)/tests/golden -I$(ROOT)/tests/mme -I$(ROOT)/sim/include -I$(ROOT)/bsp/include" \
	  -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0" \
	  -LDFLAGS -lm $(PRIM_PKG) $< $(MME_TB_TOP) $(abspath $(MME_TB_SRCS)) $(MME_BUILD)/r4/libmmetest.a \
	  > $(MME_BUILD)/gl/build.log 2>&1 || { tail -20 $(MME_BUILD)/gl/build.log; exit 1; }
.PHONY: mme-gl-test
mme-gl-test: $(MME_GL) $(MME_BUILD)/r4/Vtessera_mme
	@bash tests/mme/run_mme_gl_tests.sh $(MME_BUILD) $(MME_ARGS)

$(MME_BUILD)/numfmt_test: tests/golden/numfmt_test.c tests/golden/numfmt.c tests/golden/numfmt.h
	@mkdir -p $(MME_BUILD)
	gcc -O2 -Wall -Wextra -o $@ tests/golden/numfmt_test.c tests/golden/numfmt.c -lm

.PHONY: mme-tb mme-test mme-bench mme-synth
mme-tb: $(MME_BUILD)/r8/Vtessera_mme $(MME_BUILD)/r16/Vtessera_mme $(MME_BUILD)/numfmt_test
TEST_BUILD += mme-tb
BENCH_DEPS += mme-tb

mme-test: mme-tb
	@bash tests/mme/run_mme_tests.sh $(MME_BUILD) $(MME_ARGS)

MME_BENCH_SHAPE := $(if $(filter tiny,$(CONFIG)),8,16)
mme-bench: mme-tb
	@$(MME_BUILD)/r$(MME_BENCH_SHAPE)/Vtessera_mme --bench $(MME_ARGS)

mme-synth: deps
	@mkdir -p $(MME_BUILD)
	$(YOSYS) -q -p "read_verilog -sv $(MME_RTL); chparam -set Rows 4 -set Cols 4 -set KWords 8 tessera_mme; synth -top tessera_mme; select -assert-none t:\$$dlatch t:\$$_DLATCH_*; select -assert-count 16 t:tessera_mme_pe; select -assert-count 2 t:*tessera_mme_opbuf; tee -o $(MME_BUILD)/synth.stat stat" > $(MME_BUILD)/synth.log 2>&1 \
	  && grep -E "cells$$|Chip area|\$$mem" $(MME_BUILD)/synth.stat | head -5 && echo "mme-synth: ok (4x4, no latches, 16 PEs and 2 operand buffers kept)" 
