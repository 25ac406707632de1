# hostlink: host library and CLI (hostlink/, docs/hostlink.md).
#
#   make hostlink          build/$(CONFIG)/hostlink/hostlink (CLI, in-process simulator,
#                          tcp and serial transports)
# The library sources are compiled into chip_tb too (mk/sim.mk: HL_SRCS, HL_INC), which
# gives `chip_tb --serve PORT` and the `hostlink` test suite (tests/chip/hostlink.c).
# This file is read before mk/sim.mk, so it only sets variables the simulator build
# uses; the CLI links the simulator library ($(SIM_LIB_LINK), mk/sim.mk) for its
# in-process transport. hostlink's ELF reader is hostlib/elf32.c (mk/hostlib.mk).

HL_SRCS := $(wildcard hostlink/src/*.c) bsp/src/image.c bsp/src/serframe.c $(HOSTLIB_SRCS)
HL_INC  := -I$(ROOT)/hostlink/include -I$(ROOT)/hostlink/src $(HOSTLIB_INC)
HL_CLI  := $(BUILD)/hostlink/hostlink
HL_SIMO := $(BUILD)/sim/o
HL_CLI_OBJS = $(HL_SIMO)/hostlink/tools/hostlink_cli.o $(patsubst %.c,$(HL_SIMO)/%.o,$(HL_SRCS))

.PHONY: hostlink
hostlink: verilate $(HL_CLI)
$(HL_CLI): $(BUILD)/chip_tb $(HL_SIMO)/hostlink/tools/hostlink_cli.o
	@mkdir -p $(dir $@)
	nice g++ -o $@ $(HL_CLI_OBJS) $(SIM_LIB_LINK)
TEST_BUILD += $(HL_CLI)
