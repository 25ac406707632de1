# Loads (sign/zero extension, all byte offsets) and byte/half/word stores
# (byte enables: neighbouring bytes must be preserved).
#include "test_macros.h"
  .data
  .balign 16
buf:
  .word 0x80f17f01
  .word 0xfedcba98
  .word 0
  .word 0
  .word 0x11111111
  .word 0x22222222

  .text
  .globl test_main
test_main:
  la    s0, buf
  TEST 1
  lb    a0, 0(s0)
  CHECK a0, 1
  TEST 2
  lb    a0, 1(s0)
  CHECK a0, 0x7f
  TEST 3
  lb    a0, 2(s0)
  CHECK a0, -15             # 0xf1
  TEST 4
  lb    a0, 3(s0)
  CHECK a0, -128            # 0x80
  TEST 5
  lbu   a0, 2(s0)
  CHECK a0, 0xf1
  TEST 6
  lbu   a0, 3(s0)
  CHECK a0, 0x80
  TEST 7
  lh    a0, 0(s0)
  CHECK a0, 0x7f01
  TEST 8
  lh    a0, 2(s0)
  CHECK a0, 0xffff80f1
  TEST 9
  lhu   a0, 2(s0)
  CHECK a0, 0x80f1
  TEST 10
  lw    a0, 4(s0)
  CHECK a0, 0xfedcba98
  TEST 11
  lh    a0, 6(s0)
  CHECK a0, 0xfffffedc
  TEST 12
  lw    a0, 8(s0)           # negative offset from the next word
  addi  s1, s0, 8
  lw    a1, -4(s1)
  CHECK a1, 0xfedcba98
  # stores
  TEST 20
  addi  s1, s0, 8
  li    a0, 0xaabbccdd
  sw    a0, 0(s1)
  li    a1, 0x55
  sb    a1, 1(s1)
  lw    a2, 0(s1)
  CHECK a2, 0xaabb55dd
  TEST 21
  sb    a1, 3(s1)
  lw    a2, 0(s1)
  CHECK a2, 0x55bb55dd
  TEST 22
  li    a1, 0x1234
  sh    a1, 2(s1)
  lw    a2, 0(s1)
  CHECK a2, 0x123455dd
  TEST 23
  li    a1, 0xfffff00f      # upper bits of rs2 must not leak
  sh    a1, 0(s1)
  lw    a2, 0(s1)
  CHECK a2, 0x1234f00f
  TEST 24
  sb    a1, 0(s1)
  lw    a2, 0(s1)
  CHECK a2, 0x1234f00f
  TEST 25
  sb    x0, 2(s1)
  lw    a2, 0(s1)
  CHECK a2, 0x1200f00f
  TEST 26
  lw    a2, 16(s0)          # neighbours untouched
  CHECK a2, 0x11111111
  lw    a2, 4(s0)
  CHECK a2, 0xfedcba98
  TEST 27
  sw    x0, 12(s0)
  lw    a2, 12(s0)
  CHECK a2, 0
  lbu   a2, 13(s0)
  CHECK a2, 0
  # every byte lane
  TEST 28
  li    a0, 0x01
  sb    a0, 12(s0)
  li    a0, 0x02
  sb    a0, 13(s0)
  li    a0, 0x03
  sb    a0, 14(s0)
  li    a0, 0x04
  sb    a0, 15(s0)
  lw    a2, 12(s0)
  CHECK a2, 0x04030201
  lhu   a2, 14(s0)
  CHECK a2, 0x0403
  # load into x0 is discarded
  TEST 29
  lw    x0, 0(s0)
  CHECK x0, 0
  j pass
