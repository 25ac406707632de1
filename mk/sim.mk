# Simulator harness: AXI memory model, Verilated chip model, chip_tb CLI, C test framework.
# Targets: verilate (build ./chip_tb), sim-axi-test (AXI memory model self-test).
# See docs/sim.md and docs/testing.md.

SIM_BUILD    := $(BUILD)/sim
SIM_CXX      ?= g++
SIM_CXXFLAGS := -O2 -std=c++17 -Wall -Wextra -I$(ROOT)/sim/src

# ---------------------------------------------------------------- AXI memory model self-test
SIM_AXI_TEST := $(SIM_BUILD)/axi_mem_model_test
$(SIM_AXI_TEST): sim/test/axi_mem_model_test.cpp sim/src/axi_mem_model.cpp sim/src/axi_mem_model.h
	@mkdir -p $(dir $@)
	nice $(SIM_CXX) $(SIM_CXXFLAGS) -o $@ sim/test/axi_mem_model_test.cpp sim/src/axi_mem_model.cpp

.PHONY: sim-axi-test
sim-axi-test: $(SIM_AXI_TEST)
TEST_BUILD += $(SIM_AXI_TEST)
