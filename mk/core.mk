# RISC-V management core (rtl/core, tests/core, docs/core.md).
#   make core-tb      build the Verilated core-only testbench
#   make core-isa     build the ISA test programs (ELF)
#   make core-test    run all programs (zero and random bus delays) + random programs
#   make core-chip-test  run the pure ISA programs on ./chip_tb --elf
#   make core-gl-test    the same programs on the Yosys gate-level netlist (slow build)
#   make core-lint    verilator -Wall lint of tessera_core alone
#   make core-synth   Yosys synthesis of tessera_core (cell count)

CORE_PKG  := rtl/core/tessera_core_pkg.sv
CORE_MODS := rtl/core/tessera_core_decoder.sv rtl/core/tessera_core_alu.sv \
             rtl/core/tessera_core_div.sv rtl/core/tessera_core_csr.sv \
             rtl/core/tessera_core_regfile.sv rtl/core/tessera_core_fetch.sv \
             rtl/core/tessera_core.sv
CORE_RTL  := $(PRIM_PKG) $(CORE_PKG) $(CORE_MODS)

RTL_PKGS   += $(CORE_PKG)
RTL_SRCS   += $(CORE_MODS)
LINT_TOPS  += tessera_core
SYNTH_TOPS += tessera_core

CORE_BUILD := $(BUILD)/core
CORE_RANDOM ?= 8            # random programs per run of core-test
CORE_TB    := $(CORE_BUILD)/tb/Vtessera_core
CORE_TB_SRCS := tests/core/tb_core.cpp tests/core/rv32_iss.h
CORE_TB_TOP  := tests/core/tb_core_top.sv   # flat OBI pins around tessera_core

$(CORE_TB): $(CORE_RTL) $(CORE_TB_TOP) $(CORE_TB_SRCS) mk/core.mk
	@mkdir -p $(CORE_BUILD)/tb
	nice verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast \
	  --public-flat-rw -Wno-fatal --top-module tb_core_top --prefix Vtessera_core -Mdir $(CORE_BUILD)/tb \
	  -o Vtessera_core -CFLAGS "-O2 -I$(ROOT)/tests/core" \
	  $(CORE_RTL) $(CORE_TB_TOP) $(ROOT)/tests/core/tb_core.cpp > $(CORE_BUILD)/tb/build.log 2>&1 \
	  || { tail -30 $(CORE_BUILD)/tb/build.log; exit 1; }

# test programs: tests/core/isa/*.S (assembly) and tests/core/bench/*.c (C)
CORE_ISA_SRCS  := $(wildcard tests/core/isa/*.S)
CORE_BENCH_SRCS := $(wildcard tests/core/bench/*.c)
CORE_ELFS := $(patsubst tests/core/isa/%.S,$(CORE_BUILD)/isa/%.elf,$(CORE_ISA_SRCS)) \
             $(patsubst tests/core/bench/%.c,$(CORE_BUILD)/isa/%.elf,$(CORE_BENCH_SRCS))
CORE_CRT  := tests/core/crt.S tests/core/link.ld tests/core/isa/test_macros.h

$(CORE_BUILD)/isa/%.elf: tests/core/isa/%.S $(CORE_CRT)
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ARCH) -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments -Itests/core/isa -T tests/core/link.ld \
	  -o $@ tests/core/crt.S $<

$(CORE_BUILD)/isa/%.elf: tests/core/bench/%.c $(CORE_CRT)
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ARCH) -O2 -nostdlib -nostartfiles -ffreestanding -fno-tree-loop-distribute-patterns -Wl,--no-warn-rwx-segments -T tests/core/link.ld \
	  -o $@ tests/core/crt.S $<

.PHONY: core-tb core-isa core-test core-chip-test core-gl-test core-lint core-synth
core-tb: $(CORE_TB)
core-isa: $(CORE_ELFS)
core-test: $(CORE_TB) $(CORE_ELFS)
	@python3 tests/core/run_core_tests.py --tb $(CORE_TB) $(CORE_ELFS) $(if $(SEED),--seed $(SEED)) \
	  --random $(CORE_RANDOM) --cc "$(RV_CC) $(RV_ARCH)" --gen-dir $(CORE_BUILD)/random

# the pure ISA programs (no test device) on the full chip model (./chip_tb --elf)
CORE_CHIP_ELFS := $(filter-out $(CORE_BUILD)/isa/irq%,$(CORE_ELFS))
core-chip-test: $(CORE_ELFS)
	@test -x ./chip_tb || $(MAKE) -s verilate
	@python3 tests/core/run_core_tests.py --chip-tb ./chip_tb $(CORE_CHIP_ELFS) $(if $(SEED),--seed $(SEED))

# gate-level simulation: the Yosys netlist of tessera_core in the same
# testbench (no reference model: pass/fail from tohost only). Slow to build.
CORE_GL := $(CORE_BUILD)/gl/obj/Vtessera_core
$(CORE_BUILD)/gl/tessera_core_netlist.v: $(CORE_RTL) | deps
	@mkdir -p $(dir $@)
	nice $(YOSYS) -q -l $(patsubst $(ROOT)/%,%,$(CORE_BUILD))/gl/synth.log -p "read_verilog -sv $(CORE_RTL); \
	  synth -flatten -top tessera_core; write_verilog -noattr $(patsubst $(ROOT)/%,%,$@)" > /dev/null
$(CORE_GL): $(CORE_BUILD)/gl/tessera_core_netlist.v $(CORE_TB_TOP) $(CORE_TB_SRCS)
	nice verilator --cc --exe --build -j 2 -O1 --x-assign fast --x-initial fast -Wno-fatal \
	  -Wno-lint -Wno-style --top-module tb_core_top --prefix Vtessera_core -Mdir $(CORE_BUILD)/gl/obj \
	  -o Vtessera_core -CFLAGS "-O1 -DTB_NETLIST -I$(ROOT)/tests/core" \
	  $(PRIM_PKG) $< $(CORE_TB_TOP) $(ROOT)/tests/core/tb_core.cpp \
	  > $(CORE_BUILD)/gl/build.log 2>&1 || { tail -20 $(CORE_BUILD)/gl/build.log; exit 1; }
core-gl-test: $(CORE_GL) $(CORE_ELFS)
	@python3 tests/core/run_core_tests.py --tb $(CORE_GL) $(CORE_ELFS) $(if $(SEED),--seed $(SEED)) \
	  --random 4 --cc "$(RV_CC) $(RV_ARCH)" --gen-dir $(CORE_BUILD)/gl/random

core-lint:
	verilator --lint-only -Wall --top-module tessera_core $(VLT_WAIVERS) $(CORE_RTL)

core-synth: deps
	@mkdir -p build/$(CONFIG)/core
	nice $(YOSYS) -q -l build/$(CONFIG)/core/synth.log -p "read_verilog -sv $(CORE_RTL); \
	  synth -flatten -top tessera_core; select -assert-none t:\$$dlatch t:\$$_DLATCH_*; \
	  tee -o build/$(CONFIG)/core/synth.stat stat" > /dev/null
	@grep -E "^ +[0-9]+ +cells$$" build/$(CONFIG)/core/synth.stat | head -1

TEST_BUILD += $(CORE_TB) $(CORE_ELFS)
