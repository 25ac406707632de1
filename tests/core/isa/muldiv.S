# M extension: MUL/MULH/MULHSU/MULHU signs, DIV/DIVU/REM/REMU including
# division by zero and INT_MIN / -1, back-to-back use of results.
#include "test_macros.h"

.macro RR op, va, vb, exp
  li    a0, \va
  li    a1, \vb
  \op   a2, a0, a1
  CHECK a2, \exp
.endm

  .text
  .globl test_main
test_main:
  TEST 1
  RR mul, 7, 6, 42
  TEST 2
  RR mul, -7, 6, -42
  TEST 3
  RR mul, 0x12345678, 0x9abcdef0, 0x242d2080
  TEST 4
  RR mulh, 0x12345678, 0x9abcdef0, 0xf8cc93d6      # s x s
  TEST 5
  RR mulhu, 0x12345678, 0x9abcdef0, 0x0b00ea4e     # u x u
  TEST 6
  RR mulhsu, 0x12345678, 0x9abcdef0, 0x0b00ea4e    # s(+) x u
  TEST 7
  RR mulhsu, 0x9abcdef0, 0x12345678, 0xf8cc93d6    # s(-) x u
  TEST 8
  RR mulh, -1, -1, 0
  TEST 9
  RR mulhu, -1, -1, 0xfffffffe
  TEST 10
  RR mulhsu, -1, -1, 0xffffffff
  TEST 11
  RR mulh, 0x80000000, 0x80000000, 0x40000000
  TEST 12
  RR mulhsu, 0x80000000, 0xffffffff, 0x80000000
  TEST 13
  RR mul, 0x80000000, -1, 0x80000000
  # division
  TEST 20
  RR div, 20, 6, 3
  TEST 21
  RR div, -20, 6, -3
  TEST 22
  RR div, 20, -6, -3
  TEST 23
  RR div, -20, -6, 3
  TEST 24
  RR rem, 20, 6, 2
  TEST 25
  RR rem, -20, 6, -2
  TEST 26
  RR rem, 20, -6, 2
  TEST 27
  RR rem, -20, -6, -2
  TEST 28
  RR divu, -20, 6, 0x2aaaaaa7
  TEST 29
  RR remu, -20, 6, 2
  TEST 30                                    # division by zero
  RR div, 123, 0, -1
  TEST 31
  RR div, -123, 0, -1
  TEST 32
  RR divu, 123, 0, 0xffffffff
  TEST 33
  RR rem, -123, 0, -123
  TEST 34
  RR remu, 123, 0, 123
  TEST 35                                    # overflow
  RR div, 0x80000000, -1, 0x80000000
  TEST 36
  RR rem, 0x80000000, -1, 0
  TEST 37
  RR divu, 0x80000000, -1, 0
  TEST 38
  RR remu, 0x80000000, -1, 0x80000000
  TEST 39
  RR div, 0x80000000, 1, 0x80000000
  TEST 40
  RR divu, 0xffffffff, 1, 0xffffffff
  TEST 41
  RR remu, 0xffffffff, 0xfffffffe, 1
  TEST 42
  RR div, 7, 7, 1
  TEST 43
  RR div, 0, -5, 0
  # dependent chains through the multiplier and divider
  TEST 50
  li    a0, 3
  mul   a1, a0, a0
  mul   a1, a1, a0
  div   a2, a1, a0
  div   a2, a2, a0
  mul   a3, a2, a2
  add   a3, a3, a2
  CHECK a3, 12
  TEST 51
  li    a0, 1000
  li    a1, 7
  div   a2, a0, a1
  rem   a3, a0, a1
  mul   a4, a2, a1
  add   a4, a4, a3
  CHECKR a4, a0
  # divide result written to x0 is discarded
  TEST 52
  div   x0, a0, a1
  CHECK x0, 0
  j pass
