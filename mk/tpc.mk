# TPC programming model and toolchain (docs/tpc.md, docs/tpc_isa.md).
#   make tpc-tools       build/tools/tpcasm, build/tools/tpcdis
#   make tpc-tests       build/tools/tpc_isa_test, build/tools/tpc_kernel_test (C ISA model tests)
#   make tpc-gen         regenerate tools/tpcasm/tpc_isa_gen.h and docs/tpc_isa.md from
#                        rtl/tpc/data/tpc_isa.toml (util/gen_tpc_isa.py), then the RTL decoder
#                        packages from those tables (util/gen_tpc_dec.py, mk/tpc_rtl.mk)
#   make tpc-gen-check   fail if any of those generated files is stale
# `make gen` / `make gen-check` include them.
TPC_TOOLS_DIR := $(ROOT)/build/tools
TPC_HOST_CC   := gcc
TPC_HOST_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -Wno-format-truncation -ffp-contract=off -fno-fast-math
TPC_ASM_SRCS  := tools/tpcasm/tpcasm_lib.c
TPC_ASM_HDRS  := tools/tpcasm/tpcasm_lib.h tools/tpcasm/tpc_isa_gen.h
TPC_MODEL_SRCS := tests/tpc/tpc_model.c tests/tpc/tpc_fp.c tests/tpc/tpc_sfu.c tests/golden/numfmt.c
TPC_MODEL_HDRS := tests/tpc/tpc_model.h tests/tpc/tpc_fp.h tools/tpcasm/tpc_isa_gen.h tests/golden/numfmt.h
TPC_GOLDEN_SRCS := $(wildcard tests/tpc/golden/*.c)
TPC_GOLDEN_HDRS := $(wildcard tests/tpc/golden/*.h)
TPC_KERNELS   := $(wildcard kernels/tpc/*.tasm)

.PHONY: tpc-tools tpc-tests tpc-gen tpc-gen-check
tpc-tools: $(TPC_TOOLS_DIR)/tpcasm $(TPC_TOOLS_DIR)/tpcdis
tpc-tests: tpc-tools $(TPC_TOOLS_DIR)/tpc_isa_test $(TPC_TOOLS_DIR)/tpc_kernel_test

tpc-gen:
	@python3 util/gen_tpc_isa.py
	@python3 util/gen_tpc_dec.py
tpc-gen-check:
	@python3 util/gen_tpc_isa.py --check
	@python3 util/gen_tpc_dec.py --check
gen: tpc-gen
gen-check: tpc-gen-check

$(TPC_TOOLS_DIR)/tpcasm: tools/tpcasm/tpcasm.c $(TPC_ASM_SRCS) $(TPC_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -o $@ tools/tpcasm/tpcasm.c $(TPC_ASM_SRCS)
$(TPC_TOOLS_DIR)/tpcdis: tools/tpcasm/tpcdis.c $(TPC_ASM_SRCS) $(TPC_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -o $@ tools/tpcasm/tpcdis.c $(TPC_ASM_SRCS)
$(TPC_TOOLS_DIR)/tpc_isa_test: tests/tpc/tpc_isa_test.c tests/tpc/tpc_test_util.h $(TPC_MODEL_SRCS) $(TPC_MODEL_HDRS) $(TPC_ASM_SRCS) $(TPC_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -Itools/tpcasm -o $@ tests/tpc/tpc_isa_test.c $(TPC_MODEL_SRCS) $(TPC_ASM_SRCS) -lm
$(TPC_TOOLS_DIR)/tpc_kernel_test: tests/tpc/tpc_kernel_test.c tests/tpc/tpc_test_util.h $(TPC_MODEL_SRCS) $(TPC_MODEL_HDRS) $(TPC_ASM_SRCS) $(TPC_ASM_HDRS) $(TPC_GOLDEN_SRCS) $(TPC_GOLDEN_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -Itools/tpcasm -o $@ tests/tpc/tpc_kernel_test.c $(TPC_MODEL_SRCS) $(TPC_ASM_SRCS) $(TPC_GOLDEN_SRCS) -lm

TEST_BUILD += tpc-tests

# The C ISA model + assembler as a static library for the TPC RTL testbench (C or C++):
#   -I tests/tpc -I tools/tpcasm -I tests/golden, link build/tools/libtpcmodel.a -lm
TPC_LIB_OBJS := $(patsubst %.c,$(TPC_TOOLS_DIR)/obj/%.o,$(TPC_MODEL_SRCS) $(TPC_ASM_SRCS))
$(TPC_TOOLS_DIR)/obj/%.o: %.c $(TPC_MODEL_HDRS) $(TPC_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(TPC_HOST_CC) $(TPC_HOST_CFLAGS) -Itools/tpcasm -c -o $@ $<
$(TPC_TOOLS_DIR)/libtpcmodel.a: $(TPC_LIB_OBJS)
	ar rcs $@ $^
.PHONY: tpc-lib
tpc-lib: $(TPC_TOOLS_DIR)/libtpcmodel.a
tpc-tests: tpc-lib

# Assembled kernel library: build/tools/tpc_kernels/<name>.bin (raw bundles), .hex
# ($readmemh, one 256-bit bundle per line) and .h (C array TPC_K_<NAME>, for firmware and
# testbenches that load kernels into device memory).
TPC_KBIN_DIR := $(TPC_TOOLS_DIR)/tpc_kernels
TPC_KBINS    := $(patsubst kernels/tpc/%.tasm,$(TPC_KBIN_DIR)/%.bin,$(TPC_KERNELS))
$(TPC_KBIN_DIR)/%.bin: kernels/tpc/%.tasm $(TPC_TOOLS_DIR)/tpcasm
	@mkdir -p $(dir $@)
	@$(TPC_TOOLS_DIR)/tpcasm $< -o $@ -x $(@:.bin=.hex) -c TPC_K_$(shell echo $* | tr a-z A-Z) -h $(@:.bin=.h)
.PHONY: tpc-kernels
tpc-kernels: $(TPC_KBINS)
tpc-tests: tpc-kernels
