# hostlink: host library and CLI (hostlink/, docs/hostlink.md).
#
#   make hostlink          build/$(CONFIG)/hostlink/hostlink (CLI, in-process simulator,
#                          tcp and serial transports)
# The library sources are compiled into chip_tb too (mk/sim.mk: HL_SRCS, HL_INC), which
# gives `chip_tb --serve PORT` and the `hostlink` test suite (tests/chip/hostlink.c).
# This file is read before mk/sim.mk, so it only sets variables the simulator build
# uses; the CLI rule refers to the simulator's objects by path.

HL_SRCS := $(wildcard hostlink/src/*.c) bsp/src/image.c
HL_INC  := -I$(ROOT)/hostlink/include -I$(ROOT)/hostlink/src
HL_CLI  := $(BUILD)/hostlink/hostlink
HL_SIMO := $(BUILD)/sim/o
HL_CLI_OBJS = $(HL_SIMO)/hostlink/tools/hostlink_cli.o $(patsubst %.c,$(HL_SIMO)/%.o,$(HL_SRCS)) \
              $(HL_SIMO)/sim/src/tessera_sim.o $(HL_SIMO)/sim/src/tsim_elf.o $(HL_SIMO)/sim/src/tsim_timeline.o $(HL_SIMO)/sim/src/tsim_axistats.o \
              $(HL_SIMO)/sim/src/axi_mem_model.o

.PHONY: hostlink
hostlink: verilate $(HL_CLI)
$(HL_CLI): $(BUILD)/chip_tb $(HL_SIMO)/hostlink/tools/hostlink_cli.o
	@mkdir -p $(dir $@)
	nice g++ -o $@ $(HL_CLI_OBJS) $(BUILD)/sim/obj_dir/Vtessera_top__ALL.a $(BUILD)/sim/obj_dir/libverilated.a -lz -pthread
TEST_BUILD += $(HL_CLI)
