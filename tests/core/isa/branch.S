# Conditional branches both ways, JAL/JALR (incl. link register = rs1,
# bit 0 of the JALR target cleared, backward/forward targets).
#include "test_macros.h"

# BR_TAKEN op, a, b: the branch must be taken (a0, a1 hold the operands)
.macro BR_TAKEN op, va, vb
  li    a0, \va
  li    a1, \vb
  \op   a0, a1, 1f
  j     fail
1:
.endm
.macro BR_NOT op, va, vb
  li    a0, \va
  li    a1, \vb
  \op   a0, a1, fail
.endm

  .text
  .globl test_main
test_main:
  TEST 1
  BR_TAKEN beq, 3, 3
  BR_NOT   beq, 3, 4
  TEST 2
  BR_TAKEN bne, 3, 4
  BR_NOT   bne, -1, -1
  TEST 3
  BR_TAKEN blt, -2, 1
  BR_NOT   blt, 1, -2
  BR_NOT   blt, 7, 7
  TEST 4
  BR_TAKEN bge, 1, -2
  BR_TAKEN bge, 7, 7
  BR_NOT   bge, -2, 1
  TEST 5
  BR_TAKEN bltu, 1, -2
  BR_NOT   bltu, -2, 1
  BR_NOT   bltu, 7, 7
  TEST 6
  BR_TAKEN bgeu, -2, 1
  BR_TAKEN bgeu, 0, 0
  BR_NOT   bgeu, 1, -2
  TEST 7
  BR_TAKEN blt, 0x80000000, 0x7fffffff
  BR_TAKEN bltu, 0x7fffffff, 0x80000000

  # backward branch loop (predicted taken), exits once
  TEST 10
  li    a0, 10
  li    a2, 0
2:
  addi  a2, a2, 3
  addi  a0, a0, -1
  bnez  a0, 2b
  CHECK a2, 30

  # backward branch not taken on the first try (misprediction path)
  TEST 11
  li    a0, 0
3:
  addi  a0, a0, 1
  li    a1, 1
  blt   a1, a0, 4f          # leaves after the second pass
  j     3b
4:
  CHECK a0, 2

  # JAL: link value and target
  TEST 20
  jal   ra, 5f
6:
  j     fail
5:
  la    a5, 6b
  CHECKR ra, a5
  # JAL backward
  TEST 21
  j     8f
7:
  j     9f
8:
  jal   x0, 7b
  j     fail
9:
  # JALR: target = (rs1 + imm) & ~1
  TEST 22
  la    a0, 10f
  addi  a0, a0, -3
  jalr  a1, 3(a0)
11:
  j     fail
10:
  la    a5, 11b
  CHECKR a1, a5
  TEST 23
  la    a0, 12f
  ori   a0, a0, 1           # bit 0 is ignored
  jalr  a1, 0(a0)
  j     fail
12:
  # JALR with rd == rs1: the target uses the old value
  TEST 24
  la    a0, 13f
  jalr  a0, 0(a0)
14:
  j     fail
13:
  la    a5, 14b
  CHECKR a0, a5
  # JALR with rd = x0 (plain jump), negative offset
  TEST 25
  la    a0, 16f
  addi  a0, a0, 16
  jalr  x0, -16(a0)
  j     fail
16:
  # call/ret through a function
  TEST 26
  li    a0, 4
  call  double
  CHECK a0, 8
  call  double
  CHECK a0, 16
  # a taken branch right after a dependent ALU op and a not-taken one
  TEST 27
  li    a0, 1
  addi  a0, a0, -1
  beqz  a0, 17f
  j     fail
17:
  addi  a0, a0, 1
  beqz  a0, fail
  # jal with link into the next instruction's operand
  TEST 28
  jal   a3, 18f
18:
  la    a4, 18b
  CHECKR a3, a4
  j pass

double:
  add   a0, a0, a0
  ret
