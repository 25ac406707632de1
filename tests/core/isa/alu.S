# RV32I register/immediate ALU instructions, LUI/AUIPC, shifts by large
# amounts and x0 handling.
#include "test_macros.h"
  .text
  .globl test_main
test_main:
  li    a0, 5
  li    a1, 7
  li    a3, -8
  li    a4, 0x80000000
  TEST 1
  add   a2, a0, a1
  CHECK a2, 12
  TEST 2
  sub   a2, a0, a1
  CHECK a2, -2
  TEST 3
  add   a2, a4, a4          # wraps to 0
  CHECK a2, 0
  TEST 4
  xor   a2, a0, a1
  CHECK a2, 2
  TEST 5
  or    a2, a0, a1
  CHECK a2, 7
  TEST 6
  and   a2, a0, a1
  CHECK a2, 5
  TEST 7
  slt   a2, a3, a0          # -8 < 5
  CHECK a2, 1
  TEST 8
  slt   a2, a0, a3
  CHECK a2, 0
  TEST 9
  sltu  a2, a3, a0          # 0xfffffff8 < 5 unsigned: no
  CHECK a2, 0
  TEST 10
  sltu  a2, a0, a3
  CHECK a2, 1
  TEST 11
  slt   a2, a0, a0
  CHECK a2, 0
  # shifts: amount is rs2[4:0], bits above are ignored
  TEST 12
  li    a5, 33
  sll   a2, a0, a5          # 5 << 1
  CHECK a2, 10
  TEST 13
  li    a5, -1              # amount 31
  sll   a2, a0, a5
  CHECK a2, 0x80000000
  TEST 14
  srl   a2, a4, a5
  CHECK a2, 1
  TEST 15
  sra   a2, a4, a5
  CHECK a2, -1
  TEST 16
  li    a5, 0x24            # amount 4
  sra   a2, a3, a5
  CHECK a2, -1
  TEST 17
  srl   a2, a3, a5
  CHECK a2, 0x0fffffff
  TEST 18
  li    a5, 32              # amount 0
  srl   a2, a3, a5
  CHECK a2, -8
  # immediates
  TEST 20
  addi  a2, a0, -6
  CHECK a2, -1
  TEST 21
  addi  a2, a0, 2047
  CHECK a2, 2052
  TEST 22
  addi  a2, a0, -2048
  CHECK a2, -2043
  TEST 23
  slti  a2, a3, -7
  CHECK a2, 1
  TEST 24
  slti  a2, a3, -8
  CHECK a2, 0
  TEST 25
  sltiu a2, a0, -1          # 5 < 0xffffffff
  CHECK a2, 1
  TEST 26
  sltiu a2, a3, 5
  CHECK a2, 0
  TEST 27
  xori  a2, a0, -1          # not
  CHECK a2, -6
  TEST 28
  ori   a2, a0, 0x7f0
  CHECK a2, 0x7f5
  TEST 29
  andi  a2, a3, 0x0ff
  CHECK a2, 0xf8
  TEST 30
  slli  a2, a0, 31
  CHECK a2, 0x80000000
  TEST 31
  srli  a2, a3, 28
  CHECK a2, 0xf
  TEST 32
  srai  a2, a3, 1
  CHECK a2, -4
  TEST 33
  srai  a2, a4, 0
  CHECK a2, 0x80000000
  # LUI / AUIPC
  TEST 40
  lui   a2, 0xfedcb
  CHECK a2, 0xfedcb000
  TEST 41
  lui   a2, 0
  CHECK a2, 0
  TEST 42
1:
  auipc a2, 0
  la    a5, 1b
  CHECKR a2, a5
  TEST 43
2:
  auipc a2, 0x1
  la    a5, 2b
  sub   a2, a2, a5
  CHECK a2, 0x1000
  TEST 44
3:
  auipc a2, 0xfffff         # pc - 4096
  la    a5, 3b
  sub   a2, a5, a2
  CHECK a2, 0x1000
  # x0: writes are discarded, reads are zero
  TEST 50
  addi  x0, x0, 5
  CHECK x0, 0
  TEST 51
  lui   x0, 0x12345
  add   a2, x0, x0
  CHECK a2, 0
  TEST 52
  li    a2, 9
  add   x0, a2, a2
  add   a2, x0, a2          # x0 must not have been forwarded as 18
  CHECK a2, 9
  TEST 53
  sub   a2, x0, a0
  CHECK a2, -5
  TEST 54
  addi  a2, x0, -1
  CHECK a2, -1
  j pass
