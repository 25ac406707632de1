# Pipeline hazards: back-to-back dependent ALU ops, load-use, load followed
# by a store of the loaded value, branch on a just-loaded value, CSR read
# after write, dependences on both operands at once.
#include "test_macros.h"
  .data
  .balign 16
hbuf:
  .word 11, 22, 33, 44
hout:
  .word 0, 0, 0, 0

  .text
  .globl test_main
test_main:
  la    s0, hbuf
  la    s1, hout
  TEST 1
  li    a0, 1
  addi  a0, a0, 1
  addi  a0, a0, 1
  add   a0, a0, a0
  add   a1, a0, a0
  sub   a2, a1, a0
  CHECK a2, 6
  TEST 2                    # load-use on rs1 and rs2
  lw    a0, 0(s0)
  add   a1, a0, a0
  CHECK a1, 22
  lw    a0, 4(s0)
  sub   a1, x0, a0
  CHECK a1, -22
  TEST 3                    # load-use with one independent instruction between
  lw    a0, 8(s0)
  nop
  addi  a1, a0, 1
  CHECK a1, 34
  TEST 4                    # load -> store of the loaded value
  lw    a0, 12(s0)
  sw    a0, 0(s1)
  lw    a1, 0(s1)
  CHECK a1, 44
  TEST 5                    # load -> store address
  la    a0, hptr
  lw    a0, 0(a0)
  li    a1, 77
  sw    a1, 4(a0)
  lw    a2, 4(s1)
  CHECK a2, 77
  TEST 6                    # store then load of the same address
  li    a0, 0x5a5a
  sw    a0, 8(s1)
  lw    a1, 8(s1)
  CHECK a1, 0x5a5a
  sb    x0, 8(s1)
  lbu   a1, 8(s1)
  CHECK a1, 0
  TEST 7                    # branch on a just-loaded value
  lw    a0, 0(s0)
  li    a1, 11
  lw    a2, 0(s0)
  bne   a2, a1, fail
  lw    a2, 4(s0)
  beq   a2, a1, fail
  TEST 8                    # jalr through a just-loaded pointer
  la    a0, hjmp
  lw    a0, 0(a0)
  jalr  ra, 0(a0)
  CHECK a5, 0x99
  TEST 9                    # CSR read after write, and write from a load
  li    a0, 0x1234
  csrw  mscratch, a0
  csrr  a1, mscratch
  CHECKR a1, a0
  lw    a0, 0(s0)
  csrw  mscratch, a0
  csrr  a1, mscratch
  CHECK a1, 11
  csrrw a2, mscratch, a1
  csrrs a3, mscratch, a2
  CHECK a3, 11
  TEST 10                   # both operands from the two previous results
  li    a0, 3
  li    a1, 4
  add   a2, a0, a1
  add   a3, a1, a2
  add   a4, a2, a3
  CHECK a4, 18
  TEST 11                   # load-use chain
  lw    a0, 0(s0)
  lw    a1, 4(s0)
  add   a2, a0, a1
  lw    a3, 8(s0)
  add   a2, a2, a3
  sw    a2, 12(s1)
  lw    a4, 12(s1)
  CHECK a4, 66
  TEST 12                   # pointer chasing
  la    a0, chain0
  lw    a0, 0(a0)
  lw    a0, 0(a0)
  lw    a0, 0(a0)
  CHECK a0, 0xc0ffee
  TEST 13                   # mul/div result forwarded to a load address
  li    a0, 4
  li    a1, 2
  mul   a2, a0, a1
  add   a2, a2, s0
  lw    a3, 0(a2)
  CHECK a3, 33
  div   a2, a0, a1
  slli  a2, a2, 2
  add   a2, a2, s0
  lw    a3, 0(a2)
  CHECK a3, 33
  j pass

hfunc:
  li    a5, 0x99
  ret

  .data
  .balign 4
hptr:
  .word hout
hjmp:
  .word hfunc
chain0:
  .word chain1
chain1:
  .word chain2
chain2:
  .word 0xc0ffee
