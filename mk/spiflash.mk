# SPI NOR flash controller (rtl/spiflash, docs/spiflash.md) and its block testbench
# against the simulator's flash model (sim/src/tsim_flash.cpp).
#   make spiflash-tb       build build/<config>/spiflash/Vtb_spiflash_top
#   make spiflash-test     run it (suite `spiflash`; SPIFLASH_ARGS="--seed N")
RTL_SRCS   += rtl/spiflash/tessera_spiflash.sv
SYNTH_TOPS += tessera_spiflash

SPIFLASH_BUILD := $(BUILD)/spiflash
SPIFLASH_SEED  ?= $(or $(SEED),1)
SPIFLASH_RTL   := $(CFG_PKG) $(PRIM_PKG) rtl/spiflash/gen/spiflash_reg_pkg.sv rtl/spiflash/gen/spiflash_reg_top.sv \
                  rtl/spiflash/tessera_spiflash.sv
SPIFLASH_TB    := $(SPIFLASH_BUILD)/Vtb_spiflash_top

$(SPIFLASH_TB): $(SPIFLASH_RTL) tests/spiflash/tb_spiflash_top.sv tests/spiflash/tb_spiflash.cpp \
    sim/src/tsim_flash.cpp sim/include/tessera_flash.h bsp/include/tessera/spiflash.h \
    bsp/include/regs/spiflash_regs.h $(PERIPH_HDRS)
	@mkdir -p $(SPIFLASH_BUILD) && rm -f $@
	verilator --lint-only -Wall --top-module tb_spiflash_top $(VLT_WAIVERS) $(SPIFLASH_RTL) \
	  tests/spiflash/tb_spiflash_top.sv >$(SPIFLASH_BUILD)/lint.log 2>&1 || { cat $(SPIFLASH_BUILD)/lint.log; exit 1; }
	nice verilator $(PERIPH_VFLAGS) --top-module tb_spiflash_top -Mdir $(SPIFLASH_BUILD) \
	  -o Vtb_spiflash_top -CFLAGS "-O1 -I$(ROOT)/sim/include $(PERIPH_CINC)" $(VLT_WAIVERS) \
	  $(SPIFLASH_RTL) tests/spiflash/tb_spiflash_top.sv $(abspath tests/spiflash/tb_spiflash.cpp) \
	  $(abspath sim/src/tsim_flash.cpp) \
	  >$(SPIFLASH_BUILD)/build.log 2>&1 || { tail -30 $(SPIFLASH_BUILD)/build.log; exit 1; }

.PHONY: spiflash-tb spiflash-test
spiflash-tb: $(SPIFLASH_TB)
spiflash-test: spiflash-tb
	@$(SPIFLASH_TB) --seed $(SPIFLASH_SEED) $(SPIFLASH_ARGS)
TEST_BUILD += spiflash-tb
