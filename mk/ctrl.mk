# Control path: Sync Manager, queue manager / command processor, APB mux, DMA engine.
#   make ctrl-syncmgr-tb     build the Sync Manager block testbench
#   make ctrl-syncmgr-test   run it (the `test syncmgr` suite; CTRL_ARGS="--seed N")
#   make ctrl-qman-tb / ctrl-qman-test     same for the queue manager (`test qman`)
#   make ctrl-dma-tb / ctrl-dma-test       DMA engine (`test dma`)
#   make ctrl-apb-mux-test   APB mux testbench (`test apb_mux`)
#   make ctrl-fetch-arb-test QMAN fetch arbiter testbench (`test qman_fetch_arb`)
#   make ctrl-bench          Sync Manager latency, queue-manager and DMA throughput
#   make ctrl-synth          Yosys synthesis of the control-path blocks alone
# See docs/control_path.md and docs/packets.md.
CTRL_SRCS := rtl/syncmgr/tessera_syncmgr.sv rtl/qman/tessera_qman.sv \
             rtl/qman/tessera_qman_fetch_arb.sv \
             rtl/dma/tessera_dma_tensor.sv rtl/dma/tessera_dma.sv
RTL_SRCS  += $(CTRL_SRCS)
LINT_TOPS += tessera_syncmgr tessera_qman tessera_apb_mux tessera_dma tessera_qman_fetch_arb
SYNTH_TOPS += tessera_syncmgr tessera_qman tessera_dma

CTRL_BUILD  := $(BUILD)/ctrl
CTRL_VFLAGS := -O3 --x-assign fast --x-initial fast -Wno-fatal --cc --exe --build -j 2 \
               -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1"
CTRL_CINC   := -I$(ROOT)/tests/golden -I$(ROOT)/tests/syncmgr -I$(ROOT)/tests/qman \
               -I$(ROOT)/tests/framework -I$(ROOT)/bsp/include -I$(CFG_INC)
APB_DRV     := tests/framework/apb_drv.h
CTRL_GOLDEN := tests/golden/cp_model.c tests/golden/cp_model.h bsp/include/tessera/cp_pkt.h bsp/include/regs/syncmgr_regs.h \
               bsp/include/regs/qman_regs.h

# ---- Sync Manager
SM_RTL := $(PRIM_PKG) rtl/syncmgr/gen/syncmgr_reg_pkg.sv rtl/syncmgr/gen/syncmgr_reg_top.sv rtl/syncmgr/tessera_syncmgr.sv \
          tests/syncmgr/tb_syncmgr_top.sv
SM_C   := tests/syncmgr/syncmgr_test.c tests/golden/cp_model.c
$(CTRL_BUILD)/syncmgr/libsmtest.a: $(SM_C) $(CTRL_GOLDEN) tests/syncmgr/tb_drv.h
	@mkdir -p $(CTRL_BUILD)/syncmgr/c
	cd $(CTRL_BUILD)/syncmgr/c && gcc -O2 -std=gnu11 -Wall -Wextra $(CTRL_CINC) -c $(abspath $(SM_C)) \
	  && ar rcs $@ *.o
$(CTRL_BUILD)/syncmgr/Vtessera_syncmgr: $(SM_RTL) tests/syncmgr/tb_syncmgr.cpp $(APB_DRV) $(CTRL_BUILD)/syncmgr/libsmtest.a
	@mkdir -p $(CTRL_BUILD)/syncmgr && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_syncmgr_top --prefix Vtessera_syncmgr -Mdir $(CTRL_BUILD)/syncmgr \
	  -o Vtessera_syncmgr -CFLAGS "-O1 $(CTRL_CINC)" $(VLT_WAIVERS) $(SM_RTL) \
	  $(abspath tests/syncmgr/tb_syncmgr.cpp) $(CTRL_BUILD)/syncmgr/libsmtest.a \
	  >$(CTRL_BUILD)/syncmgr/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/syncmgr/build.log; exit 1; }

.PHONY: ctrl-syncmgr-tb ctrl-syncmgr-test ctrl-syncmgr-bench ctrl-synth
ctrl-syncmgr-tb: $(CTRL_BUILD)/syncmgr/Vtessera_syncmgr
ctrl-syncmgr-test: ctrl-syncmgr-tb
	@$(CTRL_BUILD)/syncmgr/Vtessera_syncmgr $(CTRL_ARGS)
ctrl-syncmgr-bench: ctrl-syncmgr-tb
	@$(CTRL_BUILD)/syncmgr/Vtessera_syncmgr --bench $(CTRL_ARGS)
TEST_BUILD += ctrl-syncmgr-tb
BENCH_DEPS += ctrl-syncmgr-tb

# ---- Queue manager
QM_RTL := $(CFG_PKG) $(PRIM_PKG) rtl/qman/gen/qman_reg_pkg.sv rtl/qman/gen/qman_reg_top.sv rtl/qman/tessera_qman.sv tests/qman/tb_qman_top.sv
QM_C   := tests/qman/qman_test.c tests/golden/cp_model.c
$(CTRL_BUILD)/qman/libqmtest.a: $(QM_C) $(CTRL_GOLDEN) tests/qman/qtb_drv.h
	@mkdir -p $(CTRL_BUILD)/qman/c
	cd $(CTRL_BUILD)/qman/c && gcc -O2 -std=gnu11 -Wall -Wextra $(CTRL_CINC) -c $(abspath $(QM_C)) \
	  && ar rcs $@ *.o
$(CTRL_BUILD)/qman/Vtessera_qman: $(QM_RTL) tests/qman/tb_qman.cpp $(APB_DRV) $(CTRL_BUILD)/qman/libqmtest.a
	@mkdir -p $(CTRL_BUILD)/qman && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_qman_top --prefix Vtessera_qman -Mdir $(CTRL_BUILD)/qman \
	  -o Vtessera_qman -CFLAGS "-O1 $(CTRL_CINC)" $(VLT_WAIVERS) $(QM_RTL) \
	  $(abspath tests/qman/tb_qman.cpp) $(CTRL_BUILD)/qman/libqmtest.a \
	  >$(CTRL_BUILD)/qman/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/qman/build.log; exit 1; }

# ---- DMA engine
DMA_RTL := $(CFG_PKG) $(PRIM_PKG) rtl/dma/gen/dma_reg_pkg.sv rtl/dma/gen/dma_reg_top.sv rtl/dma/tessera_dma_tensor.sv \
           rtl/dma/tessera_dma.sv tests/dma/tb_dma_top.sv
DMA_C   := tests/dma/dma_test.c tests/dma/dma_model.c
$(CTRL_BUILD)/dma/libdmatest.a: $(DMA_C) tests/dma/dma_model.h tests/dma/dtb_drv.h bsp/include/regs/dma_regs.h
	@mkdir -p $(CTRL_BUILD)/dma/c
	cd $(CTRL_BUILD)/dma/c && gcc -O2 -std=gnu11 -Wall -Wextra -I$(ROOT)/tests/dma $(CTRL_CINC) -c $(abspath $(DMA_C)) \
	  && ar rcs $@ *.o
$(CTRL_BUILD)/dma/Vtessera_dma: $(DMA_RTL) tests/dma/tb_dma.cpp $(APB_DRV) $(CTRL_BUILD)/dma/libdmatest.a
	@mkdir -p $(CTRL_BUILD)/dma && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_dma_top --prefix Vtessera_dma -Mdir $(CTRL_BUILD)/dma \
	  -o Vtessera_dma -CFLAGS "-O1 -I$(ROOT)/tests/dma $(CTRL_CINC)" $(VLT_WAIVERS) $(DMA_RTL) \
	  $(abspath tests/dma/tb_dma.cpp) $(CTRL_BUILD)/dma/libdmatest.a \
	  >$(CTRL_BUILD)/dma/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/dma/build.log; exit 1; }
.PHONY: ctrl-dma-tb ctrl-dma-test ctrl-dma-bench
ctrl-dma-tb: $(CTRL_BUILD)/dma/Vtessera_dma
ctrl-dma-test: ctrl-dma-tb
	@$(CTRL_BUILD)/dma/Vtessera_dma $(CTRL_ARGS)
ctrl-dma-bench: ctrl-dma-tb
	@$(CTRL_BUILD)/dma/Vtessera_dma --bench $(CTRL_ARGS)

# ---- integration: queue manager -> APB mux -> DMA (simulation wrapper in tests/ctrl)
CI_RTL := $(CFG_PKG) $(PRIM_PKG) rtl/qman/gen/qman_reg_pkg.sv rtl/dma/gen/dma_reg_pkg.sv rtl/syncmgr/gen/syncmgr_reg_pkg.sv \
          rtl/qman/gen/qman_reg_top.sv rtl/dma/gen/dma_reg_top.sv rtl/syncmgr/gen/syncmgr_reg_top.sv \
          rtl/qman/tessera_qman.sv rtl/prim/tessera_apb_mux.sv rtl/dma/tessera_dma_tensor.sv rtl/dma/tessera_dma.sv \
          rtl/syncmgr/tessera_syncmgr.sv tests/ctrl/tb_ctrl_top.sv
$(CTRL_BUILD)/ctrl/libcitest.a: tests/golden/cp_model.c tests/dma/dma_model.c $(CTRL_GOLDEN) tests/dma/dma_model.h
	@mkdir -p $(CTRL_BUILD)/ctrl/c
	cd $(CTRL_BUILD)/ctrl/c && gcc -O2 -std=gnu11 -Wall -Wextra -I$(ROOT)/tests/dma $(CTRL_CINC) \
	  -c $(ROOT)/tests/golden/cp_model.c $(ROOT)/tests/dma/dma_model.c && ar rcs $@ *.o
$(CTRL_BUILD)/ctrl/Vtb_ctrl_top: $(CI_RTL) tests/ctrl/tb_ctrl.cpp $(APB_DRV) $(CTRL_BUILD)/ctrl/libcitest.a
	@mkdir -p $(CTRL_BUILD)/ctrl && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_ctrl_top -Mdir $(CTRL_BUILD)/ctrl \
	  -o Vtb_ctrl_top -CFLAGS "-O1 -I$(ROOT)/tests/dma $(CTRL_CINC)" $(VLT_WAIVERS) $(CI_RTL) \
	  $(abspath tests/ctrl/tb_ctrl.cpp) $(CTRL_BUILD)/ctrl/libcitest.a \
	  >$(CTRL_BUILD)/ctrl/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/ctrl/build.log; exit 1; }
.PHONY: ctrl-int-tb ctrl-int-test
ctrl-int-tb: $(CTRL_BUILD)/ctrl/Vtb_ctrl_top
ctrl-int-test: ctrl-int-tb
	@$(CTRL_BUILD)/ctrl/Vtb_ctrl_top $(CTRL_ARGS)
TEST_BUILD += ctrl-int-tb

# ---- APB mux
AM_RTL := $(PRIM_PKG) rtl/prim/tessera_apb_mux.sv tests/qman/tb_apb_mux_top.sv
$(CTRL_BUILD)/apb_mux/Vtessera_apb_mux: $(AM_RTL) tests/qman/tb_apb_mux.cpp
	@mkdir -p $(CTRL_BUILD)/apb_mux && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_apb_mux_top --prefix Vtessera_apb_mux -Mdir $(CTRL_BUILD)/apb_mux \
	  -o Vtessera_apb_mux -CFLAGS "-O1" $(VLT_WAIVERS) $(AM_RTL) \
	  $(abspath tests/qman/tb_apb_mux.cpp) \
	  >$(CTRL_BUILD)/apb_mux/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/apb_mux/build.log; exit 1; }

# ---- command-buffer fetch arbiter (5 ports)
FA_RTL := $(PRIM_PKG) rtl/qman/tessera_qman_fetch_arb.sv tests/qman/tb_qman_fetch_arb_top.sv
$(CTRL_BUILD)/fetch_arb/Vtessera_qman_fetch_arb: $(FA_RTL) tests/qman/tb_fetch_arb.cpp
	@mkdir -p $(CTRL_BUILD)/fetch_arb && rm -f $@
	nice verilator $(CTRL_VFLAGS) --top-module tb_qman_fetch_arb_top --prefix Vtessera_qman_fetch_arb \
	  -GNumPorts=5 -Mdir $(CTRL_BUILD)/fetch_arb \
	  -o Vtessera_qman_fetch_arb -CFLAGS "-O1" $(VLT_WAIVERS) $(FA_RTL) \
	  $(abspath tests/qman/tb_fetch_arb.cpp) \
	  >$(CTRL_BUILD)/fetch_arb/build.log 2>&1 || { tail -30 $(CTRL_BUILD)/fetch_arb/build.log; exit 1; }
.PHONY: ctrl-fetch-arb-test
ctrl-fetch-arb-test: $(CTRL_BUILD)/fetch_arb/Vtessera_qman_fetch_arb
	@$(CTRL_BUILD)/fetch_arb/Vtessera_qman_fetch_arb $(CTRL_ARGS)
TEST_BUILD += $(CTRL_BUILD)/fetch_arb/Vtessera_qman_fetch_arb

.PHONY: ctrl-qman-tb ctrl-qman-test ctrl-apb-mux-test ctrl-qman-bench ctrl-bench
ctrl-qman-tb: $(CTRL_BUILD)/qman/Vtessera_qman $(CTRL_BUILD)/apb_mux/Vtessera_apb_mux
ctrl-qman-test: ctrl-qman-tb
	@$(CTRL_BUILD)/qman/Vtessera_qman $(CTRL_ARGS)
ctrl-apb-mux-test: ctrl-qman-tb
	@$(CTRL_BUILD)/apb_mux/Vtessera_apb_mux $(CTRL_ARGS)
ctrl-qman-bench: ctrl-qman-tb
	@$(CTRL_BUILD)/qman/Vtessera_qman --bench $(CTRL_ARGS)
ctrl-bench: ctrl-syncmgr-bench ctrl-qman-bench ctrl-dma-bench
TEST_BUILD += ctrl-qman-tb ctrl-dma-tb
BENCH_DEPS += ctrl-qman-tb ctrl-dma-tb

ctrl-synth: deps
	@bash util/synth.sh $(CONFIG) "$(YOSYS)" "$(CFG_PKG) $(RTL_PKGS) $(RTL_SRCS)" \
	  "tessera_syncmgr tessera_qman tessera_apb_mux tessera_dma tessera_qman_fetch_arb"
