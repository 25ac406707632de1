# hostlib: small C modules shared by the host-side programs - the simulator library
# (mk/sim.mk), hostlink (mk/hostlink.mk) and the bsp host tools (mk/sw.mk).
#   hostlib/elf32.{h,c}   the one ELF32 RISC-V reader (checks and segments, symbols)
#   hostlib/elf32_bad.h   broken copies of a valid ELF for the tests of its users
# This file is read before those three, which use these variables.
HOSTLIB_SRCS := hostlib/elf32.c
HOSTLIB_HDRS := hostlib/elf32.h
HOSTLIB_INC  := -I$(ROOT)/hostlib
