# CSRs: misa, mhartid/mvendorid/marchid/mimpid, mscratch with every CSR
# instruction form, mstatus/mie/mtvec/mepc/mcause/mtval WARL behaviour,
# mcycle/minstret counting and writes, user read-only aliases.
#include "test_macros.h"
  .text
  .globl test_main
test_main:
  TEST 1
  csrr  a0, misa
  CHECK a0, 0x40001100
  TEST 2
  csrr  a0, mhartid
  CHECK a0, 0
  csrr  a0, mvendorid
  CHECK a0, 0
  csrr  a0, marchid
  CHECK a0, 0
  csrr  a0, mimpid
  CHECK a0, 0
  TEST 3                    # mscratch, all six forms
  li    a0, 0xf0f0
  csrrw a1, mscratch, a0
  csrr  a1, mscratch
  CHECK a1, 0xf0f0
  li    a0, 0x0f
  csrrs a1, mscratch, a0
  CHECK a1, 0xf0f0
  csrr  a1, mscratch
  CHECK a1, 0xf0ff
  li    a0, 0xf000
  csrrc a1, mscratch, a0
  CHECK a1, 0xf0ff
  csrr  a1, mscratch
  CHECK a1, 0x00ff
  csrrwi a1, mscratch, 0x15
  CHECK a1, 0x00ff
  csrrsi a1, mscratch, 0x0a
  CHECK a1, 0x15
  csrrci a1, mscratch, 0x01
  CHECK a1, 0x1f
  csrr  a1, mscratch
  CHECK a1, 0x1e
  csrrs a1, mscratch, x0    # read only, no write
  CHECK a1, 0x1e
  csrrw x0, mscratch, x0    # write only
  csrr  a1, mscratch
  CHECK a1, 0
  TEST 4                    # mstatus: MIE/MPIE writable, MPP reads 11
  csrr  a0, mstatus
  CHECK a0, 0x1800
  li    a0, 0xffffffff
  csrw  mstatus, a0
  csrr  a1, mstatus
  CHECK a1, 0x1888
  csrw  mstatus, x0
  csrr  a1, mstatus
  CHECK a1, 0x1800
  TEST 5                    # mie: MSIE/MTIE/MEIE only
  li    a0, 0xffffffff
  csrw  mie, a0
  csrr  a1, mie
  CHECK a1, 0x888
  csrw  mie, x0
  csrr  a1, mie
  CHECK a1, 0
  TEST 6                    # mip reads the (idle) lines, writes ignored
  csrr  a1, mip
  CHECK a1, 0
  csrw  mip, a0
  csrr  a1, mip
  CHECK a1, 0
  TEST 7                    # mtvec: mode bit 1 reads 0
  csrr  s0, mtvec
  li    a0, 0x10001003
  csrw  mtvec, a0
  csrr  a1, mtvec
  CHECK a1, 0x10001001
  csrw  mtvec, s0
  TEST 8                    # mepc: bits 1:0 read 0; mcause, mtval full
  li    a0, 0x12345677
  csrw  mepc, a0
  csrr  a1, mepc
  CHECK a1, 0x12345674
  csrw  mcause, a0
  csrr  a1, mcause
  CHECK a1, 0x12345677
  csrw  mtval, a0
  csrr  a1, mtval
  CHECK a1, 0x12345677
  TEST 9                    # misa writes are ignored
  csrw  misa, x0
  csrr  a1, misa
  CHECK a1, 0x40001100
  TEST 10                   # minstret counts retired instructions exactly
  csrr  a0, minstret
  nop
  nop
  nop
  csrr  a1, minstret
  sub   a2, a1, a0
  CHECK a2, 4
  TEST 11                   # instret alias equals minstret
  csrr  a0, instret
  csrr  a1, minstret
  sub   a2, a1, a0
  CHECK a2, 1
  TEST 12                   # minstret write: next instruction sees the value
  li    a0, 1000
  csrw  minstret, a0
  csrr  a1, minstret
  csrr  a2, minstret
  CHECK a1, 1000
  CHECK a2, 1001
  TEST 13                   # minstreth write and carry
  li    a0, -1
  csrw  minstret, a0
  csrw  minstreth, x0       # writers are not counted: no carry yet
  csrr  a1, minstreth
  csrr  a2, instreth        # the csrr above retired: carry into the high word
  CHECK a1, 0
  CHECK a2, 1
  TEST 14                   # mcycle advances at least once per instruction
  csrr  a0, mcycle
  nop
  nop
  csrr  a1, mcycle
  sub   a2, a1, a0
  sltiu a3, a2, 3
  CHECK a3, 0
  sltiu a3, a2, 100
  CHECK a3, 1
  TEST 15                   # mcycle write
  csrw  mcycle, x0
  csrr  a1, mcycle
  sltiu a3, a1, 10
  CHECK a3, 1
  li    a0, 0x77
  csrw  mcycleh, a0
  csrr  a1, mcycleh
  CHECK a1, 0x77
  csrr  a1, cycleh
  CHECK a1, 0x77
  TEST 16                   # cycle alias follows mcycle
  csrr  a0, cycle
  csrr  a1, mcycle
  sub   a2, a1, a0
  sltiu a3, a2, 10
  CHECK a3, 1
  beqz  a2, fail
  TEST 17                   # mstatush reads 0
  csrr  a0, mstatush
  CHECK a0, 0
  j pass
