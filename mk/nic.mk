# RDMA NIC foundation: RoCE v2 golden model (tests/nic), pcap and link model (sim/).
# Targets: nic-test (build and run tests/nic/nic_test: model vs zlib and tshark,
#          parser, pcap, link model), nic-tb (build only). See docs/nic.md.
# Needs tshark (Debian package, installed by util/deps.sh) and zlib.

NIC_BUILD := $(BUILD)/nic
NIC_TEST  := $(NIC_BUILD)/nic_test
NIC_SRCS  := tests/nic/nic_test.c tests/nic/roce_model.c sim/src/tsim_pcap.c sim/src/tsim_link.c
NIC_HDRS  := tests/nic/roce_model.h bsp/include/tessera/roce.h sim/include/tessera_pcap.h \
             sim/include/tessera_link.h

$(NIC_TEST): $(NIC_SRCS) $(NIC_HDRS) mk/nic.mk
	@mkdir -p $(dir $@)
	nice gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(ROOT)/tests/nic -I$(ROOT)/bsp/include \
	  -I$(ROOT)/sim/include -o $@ $(NIC_SRCS) -lz

.PHONY: nic-tb nic-test
nic-tb: $(NIC_TEST)
nic-test: $(NIC_TEST)
	$(NIC_TEST) --seed 1 --out $(NIC_BUILD) --python $(VENV)/bin/python3 --scapy-check tests/nic/scapy_check.py

