# Bus errors: load/store access faults (mcause 5/7, mtval = address) are
# precise: mepc is the faulting instruction, its destination register is not
# written and the store right after it does not happen. Instruction access
# fault (mcause 1) when jumping to an address that answers with err.
# FAULT_ADDR is unmapped on the core testbench and on the chip.
#include "test_macros.h"
#define FAULT_ADDR 0x40000000

  .data
  .balign 16
abuf:
  .word 0x0badf00d, 0, 0, 0

  .text
  .globl test_main
test_main:
  USE_TRAP_RECORD
  SETMEM trap_skip, 8            # resume after the instruction following the fault
  la    s0, abuf
  li    s1, FAULT_ADDR
  li    a0, 0x777
  li    a1, 0x1234
  TEST 1                         # faulting load, then a store that must not happen
1:
  lw    a0, 0(s1)
  sw    a1, 4(s0)
  CHECK a0, 0x777
  CHECK_TRAP_R 1, 5, 1b, s1
  lw    a2, 4(s0)
  CHECK a2, 0
  TEST 2                         # byte load: mtval is the exact address
  addi  t0, s1, 3
1:
  lbu   a0, 3(s1)
  sw    a1, 4(s0)
  CHECK a0, 0x777
  CHECK_TRAP_R 2, 5, 1b, t0
  lw    a2, 4(s0)
  CHECK a2, 0
  TEST 3                         # faulting store, then a store that must not happen
  addi  t0, s1, 8
1:
  sw    a1, 8(s1)
  sw    a1, 8(s0)
  CHECK_TRAP_R 3, 7, 1b, t0
  lw    a2, 8(s0)
  CHECK a2, 0
  TEST 4                         # halfword store fault
  addi  t0, s1, 6
1:
  sh    a1, 6(s1)
  sw    a1, 8(s0)
  CHECK_TRAP_R 4, 7, 1b, t0
  lw    a2, 8(s0)
  CHECK a2, 0
  TEST 5                         # fault right after a good load and before a dependent use
  lw    a3, 0(s0)
1:
  lw    a0, 0(s1)
  add   a0, a0, a3               # skipped (resume at 1b + 8)
  CHECK a0, 0x777
  CHECK a3, 0x0badf00d
  CHECK_TRAP_R 5, 5, 1b, s1
  TEST 6                         # a good store just before the fault lands
  li    a4, 0x4321
1:
  sw    a4, 12(s0)
  lw    a0, 0(s1)
  sw    a1, 12(s0)               # skipped
  lw    a2, 12(s0)
  CHECK a2, 0x4321
  TEST 7                         # trap count so far
  CHECKMEM trap_count, 6
  TEST 8                         # faulting load followed by an ecall: the load's fault wins,
  csrw  mie, zero                # and it is the only trap entry (MPIE keeps MIE = 1)
  csrsi mstatus, 8
1:
  lw    a0, 0(s1)
  ecall
  csrci mstatus, 8
  CHECK_TRAP_R 7, 5, 1b, s1
  CHECKMEM trap_mstatus, 0x1880
  TEST 9                         # faulting store followed by an illegal instruction
1:
  sw    a1, 0(s1)
  .word 0
  CHECK_TRAP_R 8, 7, 1b, s1
  TEST 10                        # faulting load followed by a misaligned load
1:
  lw    a0, 0(s1)
  lw    a0, 1(s0)
  CHECK_TRAP_R 9, 5, 1b, s1
  CHECK a0, 0x777
  SETMEM trap_skip, 4

  # instruction access fault: jump to FAULT_ADDR, resume at 2f
  TEST 11
  la    t0, 2f
  la    t5, trap_resume
  sw    t0, 0(t5)
1:
  jalr  ra, 0(s1)
  j     fail
2:
  SETMEM trap_resume, 0
  la    t0, 1b
  addi  t0, t0, 4
  CHECKR ra, t0                  # the jalr itself retired
  CHECK_TRAP_R 10, 1, FAULT_ADDR, s1
  j pass
