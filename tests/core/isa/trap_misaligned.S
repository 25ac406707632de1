# Misaligned loads/stores (mcause 4/6, mtval = address, never on the bus,
# destination not written, memory unchanged) and misaligned jump/branch
# targets (mcause 0, mtval = target, link register not written).
#include "test_macros.h"

# MIS n, cause, off, insn...: the access at s0+off must trap (trap number n)
.macro MIS n, cause, off, insn:vararg
  TEST \n
  addi  t0, s0, \off
1:
  \insn
  CHECK a0, 0x777
  CHECK_TRAP_R \n, \cause, 1b, t0
.endm

  .data
  .balign 16
mbuf:
  .word 0x11223344, 0x55667788

  .text
  .globl test_main
test_main:
  USE_TRAP_RECORD
  la    s0, mbuf
  li    a0, 0x777
  li    a1, -1
  MIS 1, 4, 1, lw a0, 1(s0)
  MIS 2, 4, 2, lw a0, 2(s0)
  MIS 3, 4, 3, lw a0, 3(s0)
  MIS 4, 4, 1, lh a0, 1(s0)
  MIS 5, 4, 7, lhu a0, 7(s0)
  MIS 6, 6, 2, sw a1, 2(s0)
  MIS 7, 6, 5, sh a1, 5(s0)
  MIS 8, 6, 7, sw a1, 7(s0)
  MIS 9, 6, 3, sh a1, 3(s0)
  TEST 10                        # aligned halfwords and any byte: no trap
  lh    a2, 2(s0)
  lb    a2, 3(s0)
  lbu   a2, 1(s0)
  lhu   a2, 6(s0)
  CHECKMEM trap_count, 9
  TEST 11                        # memory unchanged
  lw    a2, 0(s0)
  CHECK a2, 0x11223344
  lw    a2, 4(s0)
  CHECK a2, 0x55667788

  # JAL to pc + 6: cause 0, mtval = target, ra unchanged
  TEST 20
  li    ra, 0x999
1:
  .word 0x006000ef               # jal ra, .+6
  CHECK ra, 0x999
  la    t0, 1b
  addi  t0, t0, 6
  CHECK_TRAP_R 10, 0, 1b, t0
  # JALR to an address with bit 1 set
  TEST 21
  la    t0, 2f
  addi  t0, t0, 2
1:
  jalr  ra, 0(t0)
  CHECK ra, 0x999
  CHECK_TRAP_R 11, 0, 1b, t0
2:
  nop
  # JALR: bit 0 is cleared first, bit 1 still traps
  TEST 22
  la    t0, 2f
  addi  t1, t0, 3
  addi  t0, t0, 2
1:
  jalr  ra, 0(t1)
  CHECK ra, 0x999
  CHECK_TRAP_R 12, 0, 1b, t0
2:
  nop
  # taken branch to pc + 6
  TEST 23
1:
  .word 0x00000363               # beq x0, x0, .+6
  la    t0, 1b
  addi  t0, t0, 6
  CHECK_TRAP_R 13, 0, 1b, t0
  # not-taken branch with a misaligned target: no trap
  TEST 24
  .word 0x00001363               # bne x0, x0, .+6
  CHECKMEM trap_count, 13
  # backward taken branch to pc - 2 (the static predictor must not fetch it)
  TEST 25
1:
  .word 0xfe000fe3               # beq x0, x0, .-2
  la    t0, 1b
  addi  t0, t0, -2
  CHECK_TRAP_R 14, 0, 1b, t0
  # JAL backward to pc - 6
  TEST 26
1:
  .word 0xffbff0ef               # jal ra, .-6
  CHECK ra, 0x999
  la    t0, 1b
  addi  t0, t0, -6
  CHECK_TRAP_R 15, 0, 1b, t0
  j pass
