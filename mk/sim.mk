# Simulator: the Verilated chip model and the simulator library (sim/: C API
# sim/include/tessera_sim.h, AXI memory model sim/include/axi_mem_model.h), then the
# chip_tb program built on it from tests/ (front end tests/chip/chip_tb.c, C test
# framework, chip-level tests, golden models, hostlink). See docs/sim.md.
#
#   make verilate          build build/$(CONFIG)/chip_tb and copy it to ./chip_tb; one line
#                          per stage: [1/4] software, [2/4] verilator, [3/4] C++ of the
#                          Verilated model, [4/4] C++ of chip_tb, printed when it links
#                          (full output of stage 1 in build/$(CONFIG)/sim/sw.log, shown
#                          when it fails)
#   make sim-lib           build/$(CONFIG)/sim/libtessera_sim.a (link with $(SIM_LIB_LINK))
#   make sim-axi-test      AXI memory model self-test
#   make timeline-doc      docs/collectives_timeline.svg from a 4-chip all-reduce's
#                          --timeline (util/render_timeline.py)
# Incremental: Verilator only reruns when an RTL file, sim/tessera.vlt or the
# verilator command line changed; the C/C++ objects are normal make targets.
# SIM_RTL may be overridden (e.g. a private stub top) for harness development.

# SIM_COV=1: the coverage variant of the model and chip_tb (Verilator line + toggle
# coverage), built apart in build/$(CONFIG)/cov/ (`make coverage`, docs/testing.md).
SIM_COV      ?=
# Toggle coverage of signals up to this many bits (--coverage-max-width): by default the
# one-bit signals (valid, ready, enables, flags). Wider limits make Verilator and the C++
# build of the whole chip far slower and larger (32 bits: over 7 GB for Verilator alone).
SIM_COV_MAX_WIDTH ?= 1
SIM_BUILD    := $(BUILD)/$(if $(SIM_COV),cov,sim)
SIM_OBJ      := $(SIM_BUILD)/obj_dir
SIM_VLT      := $(ROOT)/sim/tessera.vlt
SIM_CXX      ?= g++
SIM_CC       ?= gcc
VERILATOR    ?= verilator
VERILATOR_ROOT_DIR := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
SIM_CXXFLAGS := -O2 -std=c++17 -Wall -Wextra -I$(ROOT)/sim/include
# The simulator library: sim/ and the shared host modules (mk/hostlib.mk) only.
SIM_LIB_INCS := -I$(ROOT)/sim/include -I$(ROOT)/sim/src -I$(CFG_INC) -I$(ROOT)/bsp/include $(HOSTLIB_INC)
SIM_LIB_CXXFLAGS := -O2 -std=c++17 -Wall -MMD -MP $(SIM_LIB_INCS) -I$(SIM_OBJ) \
                -I$(VERILATOR_ROOT_DIR)/include -I$(VERILATOR_ROOT_DIR)/include/vltstd
SIM_LIB_CFLAGS := -O2 -std=gnu11 -Wall -Wextra -MMD -MP $(SIM_LIB_INCS)
# chip_tb: the library's public headers plus the tests' framework, golden models and
# hostlink (mk/hostlink.mk, read before this file).
SIM_INCS     := -I$(ROOT)/sim/include -I$(ROOT)/tests/framework -I$(CFG_INC) -I$(ROOT)/bsp/include \
                -I$(ROOT)/tests/golden -I$(ROOT)/tests/mme -I$(ROOT)/tests/dma \
                -I$(ROOT)/tests/tpc -I$(ROOT)/tools/tpcasm -I$(ROOT)/tests/nic $(HL_INC)
# -ffp-contract=off -fno-fast-math: the TPC C ISA model's float arithmetic (docs/tpc.md)
SIM_CFLAGS   := -O2 -std=gnu11 -Wall -Wextra -MMD -MP -ffp-contract=off -fno-fast-math $(SIM_INCS) \
                -DTSIM_ROOT='"$(ROOT)"' -DTSIM_CONFIG='"$(CONFIG)"'
SIM_RTL      ?= $(CFG_PKG) $(RTL_PKGS) $(RTL_SRCS)
# The Verilated top is sim/tessera_sim_top.sv: tessera_top with its memory-side inputs
# loaded from the C++ memory models through DPI (docs/sim.md "Speed"); the C++ class keeps
# the name Vtessera_top.
SIM_TOP_SV   := $(ROOT)/sim/tessera_sim_top.sv
SIM_VFLAGS    = --cc -O3 --x-assign fast --x-initial fast --trace-fst -Wno-fatal \
                --top-module tessera_sim_top --prefix Vtessera_top -Mdir $(SIM_OBJ) \
                $(if $(BOOTROM_HEX),-GBootromHex='"$(abspath $(BOOTROM_HEX))"')
SIM_VFLAGS   += $(if $(SIM_COV),--coverage-line --coverage-toggle --coverage-max-width $(SIM_COV_MAX_WIDTH))
# device_memory = "sdram" (config/tessera.toml, in the generated package): the simulation
# top's SDRAM path (sim/tessera_sim_top.sv, docs/sdram.md "In the chip model")
SIM_SDRAM    := $(shell grep -qs 'DevmemSdram = 1;' $(CFG_PKG) && echo 1)
SIM_VFLAGS   += $(if $(SIM_SDRAM),+define+TESSERA_SIM_SDRAM)
SIM_LIB_CXXFLAGS += $(if $(SIM_COV),-DVM_COVERAGE=1)
SIM_VLIBS    := $(SIM_OBJ)/Vtessera_top__ALL.a $(SIM_OBJ)/libverilated.a
SIM_VRT_OBJS := verilated.o verilated_fst_c.o verilated_threads.o $(if $(SIM_COV),verilated_cov.o)
SIM_CHIP_TB  := $(if $(SIM_COV),$(SIM_BUILD)/chip_tb,$(BUILD)/chip_tb)

# ---------------------------------------------------------------- AXI memory model self-test
SIM_AXI_TEST := $(SIM_BUILD)/axi_mem_model_test
$(SIM_AXI_TEST): sim/test/axi_mem_model_test.cpp sim/src/axi_mem_model.cpp sim/include/axi_mem_model.h
	@mkdir -p $(dir $@)
	nice $(SIM_CXX) $(SIM_CXXFLAGS) -o $@ sim/test/axi_mem_model_test.cpp sim/src/axi_mem_model.cpp

.PHONY: sim-axi-test sim-model sim-lib sim-sw FORCE
sim-axi-test: $(SIM_AXI_TEST)
TEST_BUILD += $(SIM_AXI_TEST)

# ---------------------------------------------------------------- Verilated model
# Recipes expand late, so $(SIM_RTL)/$(BOOTROM_HEX)/$(SW_ALL) see every mk/*.mk.
# One recipe (one target) builds both libraries; flock serialises concurrent
# `make verilate` runs of several engineers on the same build directory.
$(SIM_OBJ)/Vtessera_top__ALL.a: FORCE
	@mkdir -p $(SIM_OBJ)
	@echo "$(subst ",,$(subst ',,$(SIM_VFLAGS) $(SIM_VLT) $(SIM_RTL) $(SIM_TOP_SV)))" > $(SIM_BUILD)/vl.args.new
	@exec 9>$(SIM_BUILD)/.lock; flock 9; \
	if [ ! -f $(SIM_OBJ)/.stamp ] || ! cmp -s $(SIM_BUILD)/vl.args.new $(SIM_BUILD)/vl.args \
	    || [ -n "$$(find $(SIM_VLT) $(SIM_RTL) $(SIM_TOP_SV) -newer $(SIM_OBJ)/.stamp 2>/dev/null)" ]; then \
	  echo "[2/4] verilator: tessera_top ($(CONFIG))"; \
	  touch $(SIM_BUILD)/.stamp.new; \
	  nice $(VERILATOR) $(SIM_VFLAGS) $(SIM_VLT) $(SIM_RTL) $(SIM_TOP_SV) || exit 1; \
	  mv $(SIM_BUILD)/vl.args.new $(SIM_BUILD)/vl.args; mv $(SIM_BUILD)/.stamp.new $(SIM_OBJ)/.stamp; \
	else echo "[2/4] verilator: tessera_top ($(CONFIG)) up to date"; fi; \
	echo "[3/4] C++: Verilated model, $$(ls $(SIM_OBJ)/*.cpp | wc -l) files (ccache: unchanged files are quick)"; \
	nice $(MAKE) --no-print-directory -s -j2 -C $(SIM_OBJ) -f Vtessera_top.mk \
	  OPT_FAST="-O1" OPT_SLOW="-O0" OPT_GLOBAL="-O1" CXX="$(SIM_CXX)" Vtessera_top__ALL.a $(SIM_VRT_OBJS) >/dev/null || exit 1; \
	cd $(SIM_OBJ) && { [ -f libverilated.a ] && [ -z "$$(find $(SIM_VRT_OBJS) -newer libverilated.a)" ] \
	  || { rm -f libverilated.a && ar rcs libverilated.a $(SIM_VRT_OBJS); }; }
$(SIM_OBJ)/libverilated.a: $(SIM_OBJ)/Vtessera_top__ALL.a ;

sim-model: $(SIM_VLIBS)

# Firmware / test programs / boot ROM the default suites need (mk/sw.mk), and the core's
# ISA programs (mk/core.mk), two of which are in the default smoke run (suite isa).
sim-sw:
	@mkdir -p $(SIM_BUILD)
	@if [ -n "$(strip $(SW_ALL) $(BOOTROM_HEX) $(CORE_ELFS))" ]; then \
	  echo "[1/4] software: firmware, boot ROM, test and ISA programs (log: $(patsubst $(ROOT)/%,%,$(SIM_BUILD))/sw.log)"; \
	  $(MAKE) --no-print-directory $(SW_ALL) $(BOOTROM_HEX) $(CORE_ELFS) > $(SIM_BUILD)/sw.log 2>&1 \
	    || { tail -30 $(SIM_BUILD)/sw.log; echo "sim-sw: FAILED (build/$(CONFIG)/sim/sw.log)"; exit 1; }; fi

# ---------------------------------------------------------------- simulator library
# sim/src/*.cpp (C API, ELF loader, timeline, AXI statistics, AXI memory model, multi-chip
# group), sim/src/*.c (link model, pcap files) and the
# ELF reader of hostlib/: no tests/ or hostlink headers. A program using the simulator
# links $(SIM_LIB_LINK) (the library, the Verilated model, zlib, pthreads).
SIM_LIB      := $(SIM_BUILD)/libtessera_sim.a
SIM_LIB_CPP  := $(wildcard sim/src/*.cpp)
# sim/src/*.c: the link model and the pcap reader/writer (multi-chip NIC simulation)
SIM_LIB_C    := $(wildcard sim/src/*.c)
SIM_LIB_OBJS := $(patsubst %.cpp,$(SIM_BUILD)/lib/%.o,$(SIM_LIB_CPP)) \
                $(patsubst %.c,$(SIM_BUILD)/lib/%.o,$(SIM_LIB_C) $(HOSTLIB_SRCS))
SIM_LIB_LINK  = $(SIM_LIB) $(SIM_VLIBS) -lz -pthread

# The compilers and flags of the library and chip_tb objects, kept in a file that is
# rewritten only when they change: the objects depend on it, so a changed flag rebuilds
# them (a build directory copied to another clone: -DTSIM_ROOT and the -I paths name the
# old tree; the .d files would not notice).
SIM_FLAGS_NOW  = $(SIM_CXX) $(SIM_LIB_CXXFLAGS) | $(SIM_CC) $(SIM_LIB_CFLAGS) | $(SIM_CC) $(SIM_CFLAGS)
SIM_FLAGS_FILE := $(SIM_BUILD)/cflags.txt
$(SIM_FLAGS_FILE): FORCE
	@$(shell mkdir -p $(dir $@))$(file >$@.new,$(SIM_FLAGS_NOW))cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

$(SIM_BUILD)/lib/%.o: %.cpp $(SIM_VLIBS) $(SIM_FLAGS_FILE)
	@mkdir -p $(dir $@)
	@nice $(SIM_CXX) $(SIM_LIB_CXXFLAGS) -c -o $@ $<
$(SIM_BUILD)/lib/%.o: %.c $(SIM_FLAGS_FILE)
	@mkdir -p $(dir $@)
	@nice $(SIM_CC) $(SIM_LIB_CFLAGS) -c -o $@ $<
$(SIM_LIB): $(SIM_LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $^
sim-lib: $(SIM_LIB)

# ---------------------------------------------------------------- chip_tb
# golden models used by chip-level tests (tests/chip/mme.c, tests/chip/ctrl.c)
SIM_GOLDEN   := tests/golden/numfmt.c tests/mme/mme_golden.c tests/golden/cp_model.c tests/dma/dma_model.c
# tests/chip/tpc.c, tests/chip/hostlink.c: the TPC C ISA model, kernel golden models and
# the TPC assembler (kernels are assembled in-process)
SIM_GOLDEN   += tests/tpc/tpc_model.c tests/tpc/tpc_fp.c tests/tpc/tpc_sfu.c \
                tests/tpc/golden/tpc_golden.c tools/tpcasm/tpcasm_lib.c
# tests/chip/nic.c: the RoCE v2 frame model (frames to inject, captures to decode);
# tests/chip/coll.c: the ring all-reduce model
SIM_GOLDEN   += tests/nic/roce_model.c tests/nic/coll_model.c
# the front end (tests/chip/chip_tb.c), the test framework, the chip-level tests
SIM_C_SRCS   := $(wildcard tests/framework/*.c) $(wildcard tests/chip/*.c) $(SIM_GOLDEN)
SIM_OBJS     := $(patsubst %.c,$(SIM_BUILD)/o/%.o,$(SIM_C_SRCS)) \
                $(patsubst %.c,$(SIM_BUILD)/o/%.o,$(filter-out $(SIM_C_SRCS),$(HL_SRCS)))

$(SIM_BUILD)/o/%.o: %.c $(SIM_FLAGS_FILE)
	@mkdir -p $(dir $@)
	@nice $(SIM_CC) $(SIM_CFLAGS) -c -o $@ $<
-include $(SIM_OBJS:.o=.d) $(SIM_LIB_OBJS:.o=.d)

$(SIM_CHIP_TB): $(SIM_OBJS) $(SIM_LIB) $(SIM_VLIBS)
	@echo "[4/4] C++: chip_tb, $(words $(filter %.o %.a,$?)) of $(words $(SIM_OBJS) $(SIM_LIB)) harness/test/golden/hostlink objects and the simulator library rebuilt, linking"
	@nice $(SIM_CXX) -o $@ $(SIM_OBJS) $(SIM_LIB_LINK)

verilate: deps $(CFG_PKG) $(CFG_INC)/tessera_cfg.h sim-sw $(SIM_CHIP_TB)
	@mkdir -p $(SIM_BUILD)
	@echo "$(abspath $(SW_ALL))" | tr ' ' '\n' | grep -v '^$$' > $(SIM_BUILD)/sw_all.txt.new || true
	@cmp -s $(SIM_BUILD)/sw_all.txt.new $(SIM_BUILD)/sw_all.txt || mv $(SIM_BUILD)/sw_all.txt.new $(SIM_BUILD)/sw_all.txt
	@# copy then rename: a ./chip_tb that is still running keeps its old file
	@cmp -s $(SIM_CHIP_TB) $(ROOT)/chip_tb || { cp $(SIM_CHIP_TB) $(ROOT)/chip_tb.new && mv -f $(ROOT)/chip_tb.new $(ROOT)/chip_tb; }
	@echo "verilate: ./chip_tb ready ($(CONFIG))"

# ---------------------------------------------------------------- timeline plot
# docs/collectives_timeline.svg: the engine-activity timeline (docs/sim.md "Timeline") of
# the 4-chip command-buffer all-reduce (32 KiB per chip, 4 pieces per chunk), the NIC
# queues and ports of every chip, drawn by util/render_timeline.py (proto only).
TIMELINE_DOC_TEST := coll/bench_cb_allreduce_4chip_32k_k4
TIMELINE_DOC_JSON := $(SIM_BUILD)/timeline_cb_allreduce_4chip.json
.PHONY: timeline-doc
timeline-doc: verilate
	@test "$(CONFIG)" = proto || { echo "timeline-doc: CONFIG=proto only"; exit 1; }
	nice ./chip_tb --test "$(TIMELINE_DOC_TEST)" --seed 1 --timeline $(TIMELINE_DOC_JSON)
	python3 util/render_timeline.py $(TIMELINE_DOC_JSON) docs/collectives_timeline.svg --tracks NIC --span NIC \
	  --title "Ring all-reduce from command buffers: 4 chips, 32 KiB per chip, k = 4 (proto, seed 1)"
