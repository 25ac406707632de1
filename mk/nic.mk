# RDMA NIC foundation: RoCE v2 golden model (tests/nic), pcap and link model (sim/).
# Targets: nic-test (build and run tests/nic/nic_test: model vs zlib and tshark,
#          parser, pcap, link model), nic-tb (build only). See docs/nic.md.
# Needs tshark (Debian package, installed by util/deps.sh) and zlib.

NIC_BUILD := $(BUILD)/nic
NIC_TEST  := $(NIC_BUILD)/nic_test
NIC_SRCS  := tests/nic/nic_test.c tests/nic/roce_model.c tests/nic/roce_transport.c sim/src/tsim_pcap.c sim/src/tsim_link.c
NIC_HDRS  := tests/nic/roce_model.h tests/nic/roce_transport.h bsp/include/tessera/roce.h sim/include/tessera_pcap.h \
             sim/include/tessera_link.h

$(NIC_TEST): $(NIC_SRCS) $(NIC_HDRS) mk/nic.mk
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include \
	  -I$(ROOT)/sim/include -o $@ $(NIC_SRCS) -lz

.PHONY: nic-tb nic-test
nic-tb: $(NIC_TEST)
nic-test: $(NIC_TEST)
	$(NIC_TEST) --seed 1 --out $(NIC_BUILD) --python $(VENV)/bin/python3 --scapy-check tests/nic/scapy_check.py

# CRC-32 stream unit (rtl/nic): lint with the chip, synthesized by `make synth`,
# block testbench against the golden model in two builds:
#   w8:      8 bytes per beat, zlib crc32 of random packets
#   w32icrc: 32 bytes per beat, InitState 0xDEBB20E3, ICRC of model-built frames
NIC_RTL    := rtl/nic/tessera_nic_crc32.sv
RTL_SRCS   += $(NIC_RTL)
LINT_TOPS  += tessera_nic_crc32
SYNTH_TOPS += tessera_nic_crc32

NIC_CRC_TB_W8   := $(NIC_BUILD)/crc32_w8/Vtessera_nic_crc32
NIC_CRC_TB_W32  := $(NIC_BUILD)/crc32_w32icrc/Vtessera_nic_crc32
NIC_CRC_TB_DEPS := $(NIC_RTL) tests/nic/tb_nic_crc32.cpp $(NIC_BUILD)/roce_model.o $(NIC_HDRS) mk/nic.mk

$(NIC_BUILD)/roce_model.o: tests/nic/roce_model.c $(NIC_HDRS)
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ROOT)/bsp/include -c -o $@ $<

# $(call nic_crc_tb,DATABYTES,INITSTATE,EXTRA_CFLAGS)
define nic_crc_tb
	@mkdir -p $(dir $@)
	nice verilator -O3 --x-assign fast --x-initial fast -Wall --cc --exe --build -MAKEFLAGS "-j1" \
	  --top-module tessera_nic_crc32 -GDataBytes=$(1) -GInitState=32\'h$(2) \
	  -CFLAGS "-O2 -std=c++17 -DTB_BYTES=$(1) $(3) -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include" \
	  -LDFLAGS "$(NIC_BUILD)/roce_model.o" --Mdir $(dir $@) -o $(notdir $@) \
	  $(ROOT)/$(NIC_RTL) $(ROOT)/tests/nic/tb_nic_crc32.cpp >$(dir $@)build.log 2>&1 \
	  || { tail -30 $(dir $@)build.log; exit 1; }
endef

$(NIC_CRC_TB_W8): $(NIC_CRC_TB_DEPS)
	$(call nic_crc_tb,8,FFFFFFFF,)
$(NIC_CRC_TB_W32): $(NIC_CRC_TB_DEPS)
	$(call nic_crc_tb,32,DEBB20E3,-DTB_ICRC)

.PHONY: nic-crc-tb nic-crc-test nic-lint
nic-crc-tb: $(NIC_CRC_TB_W8) $(NIC_CRC_TB_W32)
# both builds; their "N passed, M failed" lines are summed into one
nic-crc-test: nic-crc-tb
	@{ $(NIC_CRC_TB_W8) --seed 1 && $(NIC_CRC_TB_W32) --seed 1; } | tee $(NIC_BUILD)/crc32_test.log \
	  | grep -v " passed, " ; \
	awk '/ passed, / {p += $$1; f += $$3} END {print p " passed, " f " failed"; exit f != 0}' \
	  $(NIC_BUILD)/crc32_test.log
nic-lint:
	verilator --lint-only -Wall --top-module tessera_nic_crc32 $(NIC_RTL)
