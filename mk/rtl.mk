# RTL source lists. Generated register packages/tops are picked up for every
# block that has rtl/<block>/data/<block>.rdl. Each block's hand-written modules
# are listed by its own mk/<area>.mk (RTL_SRCS += ...); packages go in RTL_PKGS.
REG_BLOCKS := $(notdir $(patsubst %/data/,%,$(dir $(wildcard rtl/*/data/*.rdl))))
RTL_PKGS   += $(foreach b,$(REG_BLOCKS),rtl/$(b)/gen/$(b)_reg_pkg.sv)
RTL_SRCS   += $(foreach b,$(REG_BLOCKS),rtl/$(b)/gen/$(b)_reg_top.sv)
# Shared primitives and the bus types (rtl/prim, docs/fabric.md "Bus types"). Block
# testbench builds list $(PRIM_PKG) and $(PRIM_SRCS) like the chip does.
# tessera_bus.svh (the macros) is compiled as the first file of the package list: no
# include path on the command lines (Verilator and Yosys keep defines across files).
PRIM_PKG   := rtl/prim/tessera_bus.svh rtl/prim/tessera_bus_pkg.sv
PRIM_SRCS  := rtl/prim/tessera_rr_arb.sv rtl/prim/tessera_fifo.sv rtl/prim/tessera_apb_mux.sv
RTL_PKGS   += $(PRIM_PKG)
RTL_SRCS   += $(PRIM_SRCS)

# Yosys' read_verilog -sv mis-reads packed arrays of structs (an element select becomes a
# bit select, without an error) and reads a member of an indexed array element
# (x[i].field) as an implicitly declared wire: several ports of one bus flavour are a
# logic [N-1:0][<Flavour>ReqBits-1:0] array whose elements RTL copies into struct
# variables (docs/fabric.md "Bus types"). `make lint` runs these checks first.
.PHONY: bus-lint
lint: bus-lint
bus-lint:
	@! grep -nE "[A-Za-z0-9_]\[[^]]*\]\.[A-Za-z_]" $(filter %.sv,$(RTL_PKGS) $(RTL_SRCS)) \
	  | grep -vE "^[^:]+:[0-9]+:[[:space:]]*//" \
	  || { echo "lint: member of an indexed array element (x[i].f): Yosys misreads it; copy x[i] into a struct first"; exit 1; }
	@! grep -nE "tessera_bus_pkg::[A-Za-z0-9_]+_t[[:space:]]*\[" $(filter %.sv,$(RTL_PKGS) $(RTL_SRCS)) \
	  | grep -vE "^[^:]+:[0-9]+:[[:space:]]*//" \
	  || { echo "lint: packed array of a bus struct: Yosys misreads it; use logic [N-1:0][<T>Bits-1:0]"; exit 1; }
