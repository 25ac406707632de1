# RDMA NIC foundation: RoCE v2 golden and transport models (tests/nic), pcap and link
# model (sim/), RTL units (rtl/nic). See docs/nic.md.
# Targets: nic-test     build and run tests/nic/nic_test (model vs zlib, tshark and scapy,
#                       parser, pcap, link model, transport model); nic-tb builds it only
#          nic-crc-test, nic-rx-test, nic-tx-test   block testbenches of the RTL units;
#                       nic-rtl-tb builds them
#          nic-resp-test  responder block testbench (rx_check + QP/MR tables + responder
#                       against the reference responder of roce_transport)
#          nic-req-test   requester block testbench (req_arb with two requesters, reference responder)
#          nic-red-test   reduction datapath (tessera_nic_reduce) against the golden element functions
#          nic-port-test  port block testbench (two tessera_nic_port over link models, APB only)
#          nic-bench    the port bench: goodput, loss recovery, latency (bench suite nic_port)
#          nic-lint     lint the RTL units alone; nic-synth  Yosys cell count of tessera_nic_port
# Needs tshark (Debian package, installed by util/deps.sh), zlib, scapy in .venv.

NIC_SEED := $(or $(SEED),1)   # SEED=N make test overrides it
NIC_BUILD := $(BUILD)/nic
NIC_TEST  := $(NIC_BUILD)/nic_test
NIC_SRCS  := tests/nic/nic_test.c tests/nic/roce_model.c tests/nic/roce_transport.c sim/src/tsim_pcap.c sim/src/tsim_link.c \
             tests/golden/numfmt.c
NIC_HDRS  := tests/nic/roce_model.h tests/nic/roce_transport.h bsp/include/tessera/roce.h sim/include/tessera_pcap.h \
             sim/include/tessera_link.h tests/golden/numfmt.h

$(NIC_TEST): $(NIC_SRCS) $(NIC_HDRS) mk/nic.mk
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include \
	  -I$(ROOT)/sim/include -I$(ROOT)/tests/golden -o $@ $(NIC_SRCS) -lz

.PHONY: nic-tb nic-test
nic-tb: $(NIC_TEST)
nic-test: $(NIC_TEST)
	$(NIC_TEST) --seed $(NIC_SEED) --out $(NIC_BUILD) --python $(VENV)/bin/python3 --scapy-check tests/nic/scapy_check.py


# NIC RTL units (rtl/nic, not in the chip yet): linted with the chip, synthesized by
# `make synth`, block testbenches against the golden model:
#   crc32_w8       tessera_nic_crc32, 8 bytes per beat, zlib crc32 of random packets
#   crc32_w32icrc  tessera_nic_crc32, 32 bytes per beat, InitState 0xDEBB20E3, ICRC of model frames
#   rx_w8, rx_w32  tessera_nic_rx_check, 8 / 32 bytes per beat, verdict = roce_parse's
#   tx_w8, tx_w32  tessera_nic_tx_frame, 8 / 32 bytes per beat, frames = roce_build's
#   resp           tessera_nic_responder with rx_check, QP and MR tables (tests/nic/tb_nic_resp_top.sv),
#                  ACK/SACK/NAK sequence, memory image and counters = the reference responder's
NIC_RTL_TOPS := tessera_nic_crc32 tessera_nic_rx_check tessera_nic_tx_frame tessera_nic_rx_window tessera_nic_rx \
                tessera_nic_mr_table tessera_nic_qp_table tessera_nic_responder tessera_nic_requester \
                tessera_nic_req_arb tessera_nic_port tessera_nic_reduce
NIC_PKG    := rtl/nic/tessera_nic_pkg.sv
NIC_GEN    := rtl/nic/gen/nic_reg_pkg.sv rtl/nic/gen/nic_reg_top.sv
NIC_RTL    := $(addprefix rtl/nic/,$(addsuffix .sv,$(NIC_RTL_TOPS)))
# units of other blocks the NIC instantiates (already in RTL_SRCS through their blocks)
NIC_RTL_EXT := rtl/tpc/tessera_tpc_fadd.sv
NIC_PRIM   := rtl/prim/tessera_fifo.sv   # chip primitives the port uses (in RTL_SRCS already)
RTL_PKGS   += $(NIC_PKG)
RTL_SRCS   += $(NIC_RTL)
LINT_TOPS  += $(NIC_RTL_TOPS)
# the whole port exceeds one WebAssembly Yosys process: `make nic-synth` synthesizes it in parts
SYNTH_TOPS += $(filter-out tessera_nic_port,$(NIC_RTL_TOPS))

NIC_CRC_TB_W8   := $(NIC_BUILD)/crc32_w8/Vtessera_nic_crc32
NIC_CRC_TB_W32  := $(NIC_BUILD)/crc32_w32icrc/Vtessera_nic_crc32
NIC_RX_TB_W8    := $(NIC_BUILD)/rx_w8/Vtessera_nic_rx_check
NIC_RX_TB_W32   := $(NIC_BUILD)/rx_w32/Vtessera_nic_rx_check
NIC_TX_TB_W8    := $(NIC_BUILD)/tx_w8/Vtessera_nic_tx_frame
NIC_TX_TB_W32   := $(NIC_BUILD)/tx_w32/Vtessera_nic_tx_frame
NIC_RTL_TBS     := $(NIC_CRC_TB_W8) $(NIC_CRC_TB_W32) $(NIC_RX_TB_W8) $(NIC_RX_TB_W32) \
                   $(NIC_TX_TB_W8) $(NIC_TX_TB_W32)
NIC_TB_DEPS     := $(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT) tests/nic/tb_nic_stream.h $(NIC_BUILD)/roce_model.o $(NIC_BUILD)/numfmt.o $(NIC_HDRS) mk/nic.mk

$(NIC_BUILD)/roce_model.o: tests/nic/roce_model.c $(NIC_HDRS)
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ROOT)/bsp/include -I$(ROOT)/tests/golden -c -o $@ $<
# the number formats (tests/golden/numfmt.c): the reduce element functions of roce_model.c use them
$(NIC_BUILD)/numfmt.o: tests/golden/numfmt.c tests/golden/numfmt.h
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ROOT)/tests/golden -c -o $@ $<

# $(call nic_rtl_tb,TOP,TB_CPP,VERILATOR_PARAMS,DATABYTES,EXTRA_CFLAGS)
define nic_rtl_tb
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module $(1) -GDataBytes=$(4) $(3) \
	  -CFLAGS "-O2 -std=c++17 -DTB_BYTES=$(4) $(5) -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include" \
	  -LDFLAGS "$(NIC_BUILD)/roce_model.o $(NIC_BUILD)/numfmt.o" --Mdir $(dir $@) -o $(notdir $@) \
	  $(VLT_WAIVERS) $(addprefix $(ROOT)/,$(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT)) $(ROOT)/$(2) >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }
endef

$(NIC_CRC_TB_W8): $(NIC_TB_DEPS) tests/nic/tb_nic_crc32.cpp
	$(call nic_rtl_tb,tessera_nic_crc32,tests/nic/tb_nic_crc32.cpp,-GInitState=32\'hFFFFFFFF,8,)
$(NIC_CRC_TB_W32): $(NIC_TB_DEPS) tests/nic/tb_nic_crc32.cpp
	$(call nic_rtl_tb,tessera_nic_crc32,tests/nic/tb_nic_crc32.cpp,-GInitState=32\'hDEBB20E3,32,-DTB_ICRC)
$(NIC_RX_TB_W8): $(NIC_TB_DEPS) tests/nic/tb_nic_rx_check.cpp
	$(call nic_rtl_tb,tessera_nic_rx_check,tests/nic/tb_nic_rx_check.cpp,,8,)
$(NIC_RX_TB_W32): $(NIC_TB_DEPS) tests/nic/tb_nic_rx_check.cpp
	$(call nic_rtl_tb,tessera_nic_rx_check,tests/nic/tb_nic_rx_check.cpp,,32,)
$(NIC_TX_TB_W8): $(NIC_TB_DEPS) tests/nic/tb_nic_tx_frame.cpp
	$(call nic_rtl_tb,tessera_nic_tx_frame,tests/nic/tb_nic_tx_frame.cpp,,8,)
$(NIC_TX_TB_W32): $(NIC_TB_DEPS) tests/nic/tb_nic_tx_frame.cpp
	$(call nic_rtl_tb,tessera_nic_tx_frame,tests/nic/tb_nic_tx_frame.cpp,,32,)

# responder: the reference responder (roce_transport.c with the link model it needs) as objects
NIC_RESP_TB  := $(NIC_BUILD)/resp/Vtb_nic_resp_top
NIC_REF_OBJS := $(NIC_BUILD)/roce_model.o $(NIC_BUILD)/roce_transport.o $(NIC_BUILD)/tsim_link.o \
                $(NIC_BUILD)/tsim_pcap.o $(NIC_BUILD)/numfmt.o
$(NIC_BUILD)/roce_transport.o: tests/nic/roce_transport.c $(NIC_HDRS)
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ROOT)/bsp/include -I$(ROOT)/sim/include -c -o $@ $<
$(NIC_BUILD)/tsim_%.o: sim/src/tsim_%.c $(NIC_HDRS)
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ROOT)/bsp/include -I$(ROOT)/sim/include -c -o $@ $<
$(NIC_RESP_TB): $(NIC_TB_DEPS) $(NIC_REF_OBJS) tests/nic/tb_nic_resp_top.sv tests/nic/tb_nic_responder.cpp \
                sim/src/axi_mem_model.cpp sim/include/axi_mem_model.h
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module tb_nic_resp_top \
	  -CFLAGS "-O2 -std=c++17 -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include -I$(ROOT)/sim/include" \
	  -LDFLAGS "$(abspath $(NIC_REF_OBJS))" --Mdir $(dir $@) -o $(notdir $@) \
	  $(VLT_WAIVERS) $(addprefix $(ROOT)/,$(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT)) $(ROOT)/tests/nic/tb_nic_resp_top.sv \
	  $(ROOT)/tests/nic/tb_nic_responder.cpp $(ROOT)/sim/src/axi_mem_model.cpp >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }

# run several testbenches; their "N passed, M failed" lines are summed into one
# $(call nic_run_tbs,LOG,COMMANDS)
define nic_run_tbs
	@{ $(2); } | tee $(1) | grep -v " passed, " ; \
	awk '/ passed, / {p += $$1; f += $$3} END {print p " passed, " f " failed"; exit f != 0}' $(1)
endef

# requester: tessera_nic_req_arb (two tessera_nic_requester QPs) -> link model -> reference responder -> ACKs back
NIC_REQ_TB := $(NIC_BUILD)/req/Vtessera_nic_req_arb
$(NIC_REQ_TB): $(NIC_TB_DEPS) $(NIC_REF_OBJS) tests/nic/tb_nic_requester.cpp sim/src/axi_mem_model.cpp \
               sim/include/axi_mem_model.h
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module tessera_nic_req_arb \
	  -CFLAGS "-O2 -std=c++17 -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include -I$(ROOT)/sim/include" \
	  -LDFLAGS "$(abspath $(NIC_REF_OBJS))" --Mdir $(dir $@) -o $(notdir $@) \
	  $(VLT_WAIVERS) $(addprefix $(ROOT)/,$(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT)) \
	  $(ROOT)/tests/nic/tb_nic_requester.cpp $(ROOT)/sim/src/axi_mem_model.cpp >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }

.PHONY: nic-req-test
nic-req-test: $(NIC_REQ_TB)
	$(call nic_run_tbs,$(NIC_BUILD)/req_test.log,$(NIC_REQ_TB) --seed $(NIC_SEED))

# reduce: tessera_nic_reduce against the golden element functions (roce_reduce), every op and type
NIC_RED_TB := $(NIC_BUILD)/reduce/Vtessera_nic_reduce
$(NIC_RED_TB): $(NIC_TB_DEPS) tests/nic/tb_nic_reduce.cpp
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module tessera_nic_reduce \
	  -CFLAGS "-O2 -std=c++17 -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include" \
	  -LDFLAGS "$(abspath $(NIC_BUILD)/roce_model.o $(NIC_BUILD)/numfmt.o)" --Mdir $(dir $@) -o $(notdir $@) \
	  $(VLT_WAIVERS) $(addprefix $(ROOT)/,$(NIC_PRIM) $(NIC_RTL_EXT) rtl/nic/tessera_nic_reduce.sv) \
	  $(ROOT)/tests/nic/tb_nic_reduce.cpp >$(dir $@)build.log 2>&1 || { tail -30 $(dir $@)build.log; exit 1; }
.PHONY: nic-red-test
nic-red-test: $(NIC_RED_TB)
	$(call nic_run_tbs,$(NIC_BUILD)/reduce_test.log,$(NIC_RED_TB) --seed $(NIC_SEED))

.PHONY: nic-rtl-tb nic-crc-test nic-rx-test nic-tx-test nic-resp-test nic-lint
nic-rtl-tb: $(NIC_RTL_TBS) $(NIC_RESP_TB) $(NIC_REQ_TB) $(NIC_PORT_TB) $(NIC_RED_TB)
nic-crc-test: $(NIC_CRC_TB_W8) $(NIC_CRC_TB_W32)
	$(call nic_run_tbs,$(NIC_BUILD)/crc32_test.log,$(NIC_CRC_TB_W8) --seed $(NIC_SEED) && $(NIC_CRC_TB_W32) --seed $(NIC_SEED))
nic-rx-test: $(NIC_RX_TB_W8) $(NIC_RX_TB_W32)
	$(call nic_run_tbs,$(NIC_BUILD)/rx_test.log,$(NIC_RX_TB_W8) --seed $(NIC_SEED) && $(NIC_RX_TB_W32) --seed $(NIC_SEED))
nic-tx-test: $(NIC_TX_TB_W8) $(NIC_TX_TB_W32)
	$(call nic_run_tbs,$(NIC_BUILD)/tx_test.log,$(NIC_TX_TB_W8) --seed $(NIC_SEED) && $(NIC_TX_TB_W32) --seed $(NIC_SEED))
nic-resp-test: $(NIC_RESP_TB)
	$(call nic_run_tbs,$(NIC_BUILD)/resp_test.log,$(NIC_RESP_TB) --seed $(NIC_SEED))
nic-lint:
	for t in $(NIC_RTL_TOPS); do \
	  verilator --lint-only -Wall --top-module $$t $(ROOT)/rtl/lint/waivers.vlt $(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT) \
	    || exit 1; done

# port: two tessera_nic_port instances (tests/nic/tb_nic_port_top.sv) joined by two link models,
# each with its own memory model, programmed through APB only (tests/nic/tb_nic_port.cpp)
NIC_PORT_TB := $(NIC_BUILD)/port/Vtb_nic_port_top
$(NIC_PORT_TB): $(NIC_TB_DEPS) $(NIC_REF_OBJS) tests/nic/tb_nic_port_top.sv tests/nic/tb_nic_port.cpp \
                sim/src/axi_mem_model.cpp sim/include/axi_mem_model.h
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module tb_nic_port_top \
	  -CFLAGS "-O2 -std=c++17 -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include -I$(ROOT)/sim/include" \
	  -LDFLAGS "$(abspath $(NIC_REF_OBJS))" --Mdir $(dir $@) -o $(notdir $@) \
	  $(VLT_WAIVERS) $(addprefix $(ROOT)/,$(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT)) $(ROOT)/tests/nic/tb_nic_port_top.sv \
	  $(ROOT)/tests/nic/tb_nic_port.cpp $(ROOT)/sim/src/axi_mem_model.cpp >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }

.PHONY: nic-port-tb nic-port-test
nic-port-tb: $(NIC_PORT_TB)
nic-port-test: $(NIC_PORT_TB)
	$(call nic_run_tbs,$(NIC_BUILD)/port_test.log,$(NIC_PORT_TB) --seed $(NIC_SEED))
# the port bench (bench suite `nic_port`, docs/nic.md "Figures"): goodput against the WRITE size,
# selective against go-back-N under loss, latency of a 64-byte WRITE; BENCH records, about 80 s
.PHONY: nic-bench
nic-bench: $(NIC_PORT_TB)
	$(call nic_run_tbs,$(NIC_BUILD)/port_bench.log,$(NIC_PORT_TB) --bench --seed $(NIC_SEED))

# Yosys synthesis of the port (generic cells, no latches). The whole port does not fit one
# WebAssembly Yosys process (4 GiB), so it is synthesized in three runs: tessera_nic_requester
# and tessera_nic_rx alone (util/synth.sh), then the port with those two as black boxes (the
# glue: arbiter, ACK framer and receiver, queues, muxes); the total is glue + rx + NReqQp (4)
# requesters. `make synth` synthesizes every other NIC top.
NIC_SYNTH_OUT := $(BUILD)/synth
NIC_BB_RTL    := rtl/nic/tessera_nic_rx.sv rtl/nic/tessera_nic_requester.sv
.PHONY: nic-synth
nic-synth: deps
	@bash util/synth.sh $(CONFIG) "$(YOSYS)" "$(PRIM_PKG) $(NIC_PKG) $(NIC_GEN) $(NIC_PRIM) $(NIC_RTL) $(NIC_RTL_EXT)" \
	  "tessera_nic_requester tessera_nic_rx"
	@mkdir -p $(NIC_SYNTH_OUT)
	@nice $(YOSYS) -q -l $(NIC_SYNTH_OUT)/tessera_nic_port_glue.log -p "read_verilog -sv $(PRIM_PKG) $(NIC_PKG) \
	  $(NIC_GEN) $(NIC_PRIM) $(filter-out $(NIC_BB_RTL),$(NIC_RTL)) $(NIC_RTL_EXT); read_verilog -sv -lib $(NIC_BB_RTL); \
	  synth -flatten -top tessera_nic_port -run begin:fine; opt -fast -full; techmap; opt -fast; abc; \
	  opt -fast; select -assert-none t:\$$dlatch t:\$$_DLATCH_*; tee -o $(NIC_SYNTH_OUT)/tessera_nic_port_glue.stat stat" \
	  >/dev/null 2>&1 || { tail -20 $(NIC_SYNTH_OUT)/tessera_nic_port_glue.log; exit 1; }
	@awk '/^ +[0-9]+ +cells$$/ && !c {c = $$1} END {print "tessera_nic_port glue  " c " cells"}' \
	  $(NIC_SYNTH_OUT)/tessera_nic_port_glue.stat
	@for t in tessera_nic_port_glue tessera_nic_rx tessera_nic_requester; do \
	  awk -v t=$$t '/^ +[0-9]+ +cells$$/ && !c {c = $$1} END {print t, c}' $(NIC_SYNTH_OUT)/$$t.stat; done | \
	  awk '{n[$$1] = $$2} END {printf "tessera_nic_port (NReqQp 4) %d cells = glue %d + rx %d + 4 x requester %d\n", \
	  n["tessera_nic_port_glue"] + n["tessera_nic_rx"] + 4 * n["tessera_nic_requester"], \
	  n["tessera_nic_port_glue"], n["tessera_nic_rx"], n["tessera_nic_requester"]}'
