# Software: BSP library, boot ROM, firmware, chip test programs, host tools.
# Owner: sw area (bsp/, firmware/, tests/sw/, docs/{bsp,boot,firmware}.md).
#
#   make sw-all            everything below, for $(CONFIG)
#   make sw-bootrom        $(BOOTROM_HEX)  ($readmemh image of the boot ROM)
#   make sw-firmware       $(BUILD)/sw/firmware/firmware.elf (+ .img via mkimage)
#   make sw-tests          $(BUILD)/sw/tests/<name>.elf for every tests/sw/<name>.c
#   make sw-tools          $(BUILD)/sw/tools/{mkimage,image_test} (host programs)
#
# The RISC-V objects are compiled with $(RV_ARCH) (rv32im_zicsr). GCC 12 does
# not map rv32im_zicsr onto picolibc's rv32im multilib, so the link step names
# -march=rv32im to pick the right libc/libgcc (SW_LDARCH).

SW_BUILD   := $(BUILD)/sw
SW_LDARCH  := -march=rv32im -mabi=ilp32
SW_INC     := -I$(CFG_INC) -I$(ROOT)/bsp/include
SW_WARN    := -Wall -Wextra -Wno-unused-parameter
SW_CFLAGS  := $(RV_ARCH) -g -ffunction-sections -fdata-sections -fno-common \
              --specs=picolibc.specs $(SW_WARN) $(SW_INC) -MMD -MP
SW_LDFLAGS := $(SW_LDARCH) -nostartfiles -Wl,--gc-sections -L$(ROOT)/bsp/ld/$(CONFIG)
HOST_CC    ?= gcc
TESSERA_BOOTROM_WORDS := $(shell echo $$(( $$(sed -n 's/^\#define TESSERA_BOOTROM_BYTES *\([0-9]*\)u.*/\1/p' $(CFG_INC)/tessera_cfg.h) / 4 )))

# ------------------------------------------------------------ BSP library
SW_BSP_SRCS := $(wildcard bsp/src/*.c) $(wildcard bsp/src/*.S)
SW_BSP_OBJS := $(patsubst bsp/src/%,$(SW_BUILD)/bsp/%.o,$(SW_BSP_SRCS))
SW_CRT0     := $(SW_BUILD)/bsp/crt0.S.o
SW_LIB      := $(SW_BUILD)/bsp/libtessera.a
SW_LIB_OBJS := $(filter-out $(SW_CRT0),$(SW_BSP_OBJS))

$(SW_BUILD)/bsp/%.c.o: bsp/src/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -O2 -c $< -o $@
$(SW_BUILD)/bsp/%.S.o: bsp/src/%.S
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -c $< -o $@
$(SW_LIB): $(SW_LIB_OBJS)
	@rm -f $@
	$(RV_PREFIX)ar rcs $@ $^

# ------------------------------------------------------------ boot ROM
BOOTROM_ELF := $(SW_BUILD)/bootrom/bootrom.elf
BOOTROM_BIN := $(SW_BUILD)/bootrom/bootrom.bin
BOOTROM_HEX := $(SW_BUILD)/bootrom/bootrom.hex
SW_BOOTROM_CFLAGS := -Os -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns

$(SW_BUILD)/bootrom/%.o: bsp/bootrom/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) $(SW_BOOTROM_CFLAGS) -c $< -o $@
$(SW_BUILD)/bootrom/image.o: bsp/src/image.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) $(SW_BOOTROM_CFLAGS) -c $< -o $@
$(BOOTROM_ELF): $(SW_CRT0) $(SW_BUILD)/bootrom/bootrom.o $(SW_BUILD)/bootrom/image.o $(SW_LIB) bsp/ld/bootrom.ld
	$(RV_CC) $(SW_LDFLAGS) -nostdlib -T bsp/ld/bootrom.ld -Wl,-Map,$@.map -o $@ \
	  $(SW_CRT0) $(SW_BUILD)/bootrom/bootrom.o $(SW_BUILD)/bootrom/image.o $(SW_LIB) -lgcc
$(BOOTROM_BIN): $(BOOTROM_ELF)
	$(RV_OBJCOPY) -O binary $< $@
$(BOOTROM_HEX): $(BOOTROM_BIN) bsp/tools/bin2memh.py
	python3 bsp/tools/bin2memh.py --words $(TESSERA_BOOTROM_WORDS) $< $@

# ------------------------------------------------------------ RAM programs
# $(call sw_ram_link,<out.elf>,<objects>)
define sw_ram_link
	$(RV_CC) $(SW_LDFLAGS) --specs=picolibc.specs -DPICOLIBC_INTEGER_PRINTF_SCANF -T bsp/ld/ram.ld -Wl,-Map,$(1).map -o $(1) \
	  $(SW_CRT0) $(2) -Wl,--start-group $(SW_LIB) -lc -lgcc -Wl,--end-group
	$(RV_OBJDUMP) -d $(1) > $(1:.elf=.dis)
endef

# firmware/*_offsets.c are not linked: each is compiled to assembly and its
# "->name value" markers become the generated header $(FW_GEN)/<name>.h that an
# assembly file includes (structure offsets and constants from the C headers).
FW_GEN  := $(SW_BUILD)/firmware/gen
FW_OFFS := $(wildcard firmware/*_offsets.c)
FW_SRCS := $(filter-out $(FW_OFFS),$(wildcard firmware/*.c)) $(wildcard firmware/*.S)
FW_OBJS := $(patsubst firmware/%,$(SW_BUILD)/firmware/%.o,$(FW_SRCS))
FW_ELF  := $(SW_BUILD)/firmware/firmware.elf
FW_IMG  := $(SW_BUILD)/firmware/firmware.img
$(SW_BUILD)/firmware/%.c.o: firmware/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -Os -c $< -o $@
$(SW_BUILD)/firmware/%.S.o: firmware/%.S $(patsubst firmware/%.c,$(FW_GEN)/%.h,$(FW_OFFS))
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -I$(FW_GEN) -c $< -o $@
.PRECIOUS: $(FW_GEN)/%.h
$(FW_GEN)/%.h: firmware/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -MT $@ -Os -S $< -o $(FW_GEN)/$*.s
	@{ echo "/* generated from firmware/$*.c by mk/sw.mk: do not edit */"; \
	  sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"->\([A-Za-z_][A-Za-z0-9_]*\) \(-\{0,1\}[0-9][0-9]*\)"$$/#define \1 \2/p' $(FW_GEN)/$*.s; } > $@.tmp
	@test "$$(grep -c '^#define' $@.tmp)" = "$$(grep -c '\.ascii[[:space:]]*"->' $(FW_GEN)/$*.s)" \
	  || { echo "$@: a marker of firmware/$*.c was not understood"; exit 1; }
	@mv $@.tmp $@
$(FW_ELF): $(FW_OBJS) $(SW_CRT0) $(SW_LIB) bsp/ld/ram.ld
	$(call sw_ram_link,$@,$(FW_OBJS))
$(FW_IMG): $(FW_ELF) $(SW_BUILD)/tools/mkimage
	$(SW_BUILD)/tools/mkimage -o $@ $<
# a small image for the boot ROM's reject tests (each reject reads the image from HBM)
SW_SMALL_IMG := $(SW_BUILD)/tests/hello.img
$(SW_SMALL_IMG): $(SW_BUILD)/tests/hello.elf $(SW_BUILD)/tools/mkimage
	$(SW_BUILD)/tools/mkimage -o $@ $<

SW_TEST_NAMES := $(basename $(notdir $(wildcard tests/sw/*.c)))
SW_TEST_ELFS  := $(foreach t,$(SW_TEST_NAMES),$(SW_BUILD)/tests/$(t).elf)
SW_PORT_OBJ   := $(SW_BUILD)/tests/port/tessera_port.o
$(SW_BUILD)/tests/%.o: tests/sw/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(SW_CFLAGS) -O2 -c $< -o $@
$(SW_BUILD)/tests/bench_int.elf: $(SW_PORT_OBJ)
$(SW_BUILD)/tests/%.elf: $(SW_BUILD)/tests/%.o $(SW_CRT0) $(SW_LIB) bsp/ld/ram.ld
	$(call sw_ram_link,$@,$< $(if $(filter bench_int,$*),$(SW_PORT_OBJ)))

# ------------------------------------------------------------ host tools
SW_HOST_CFLAGS := -O2 -g -Wall -Wextra -std=c11 $(SW_INC)
$(SW_BUILD)/tools/mkimage: bsp/tools/mkimage.c bsp/src/image.c bsp/include/tessera/image.h $(HOSTLIB_SRCS) $(HOSTLIB_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(SW_HOST_CFLAGS) $(HOSTLIB_INC) -o $@ bsp/tools/mkimage.c bsp/src/image.c $(HOSTLIB_SRCS)
$(SW_BUILD)/tools/image_test: bsp/tools/image_test.c bsp/src/image.c bsp/include/tessera/image.h hostlib/elf32_bad.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(SW_HOST_CFLAGS) $(HOSTLIB_INC) -o $@ bsp/tools/image_test.c bsp/src/image.c

SW_TOOLS := $(SW_BUILD)/tools/mkimage $(SW_BUILD)/tools/image_test

SW_ALL := $(BOOTROM_HEX) $(BOOTROM_ELF) $(FW_ELF) $(FW_IMG) $(SW_SMALL_IMG) $(SW_TEST_ELFS) $(SW_TOOLS)
TEST_BUILD += $(SW_ALL)
BENCH_DEPS += $(SW_BUILD)/tests/bench_int.elf

.PHONY: sw-all sw-bootrom sw-firmware sw-tests sw-tools
sw-all: $(SW_ALL)
sw-bootrom: $(BOOTROM_HEX)
sw-firmware: $(FW_ELF) $(FW_IMG)
sw-tests: $(SW_TEST_ELFS)
sw-tools: $(SW_TOOLS)

-include $(shell find $(SW_BUILD) -name '*.d' 2>/dev/null)

# ------------------------------------------------------------ module layers
# util/check_layers.py: the include graph of bsp/, firmware/ and hostlink/ follows
# the layers listed there (docs/bsp.md, docs/firmware.md, docs/hostlink.md "Layers");
# part of `make lint`.
.PHONY: sw-layers
sw-layers:
	@mkdir -p $(BUILD) && python3 util/check_layers.py --self-test > $(BUILD)/layers-selftest.log || { cat $(BUILD)/layers-selftest.log; exit 1; }
	@python3 util/check_layers.py
lint: sw-layers
