# RTL source lists. Generated register packages/tops are picked up for every
# block that has rtl/<block>/data/<block>.rdl. Each block's hand-written modules
# are listed by its own mk/<area>.mk (RTL_SRCS += ...); packages go in RTL_PKGS.
REG_BLOCKS := $(notdir $(patsubst %/data/,%,$(dir $(wildcard rtl/*/data/*.rdl))))
RTL_PKGS   += $(foreach b,$(REG_BLOCKS),rtl/$(b)/gen/$(b)_reg_pkg.sv)
RTL_SRCS   += $(foreach b,$(REG_BLOCKS),rtl/$(b)/gen/$(b)_reg_top.sv)
