# Illegal instructions (mcause 2, mtval = instruction bits, mepc = its
# address, no register written), ECALL, EBREAK, MRET and the mstatus
# MIE/MPIE stack, legal reads of read-only CSRs.
#include "test_macros.h"

# ILLEGAL n, word: executing `word` must trap as illegal (trap number n)
# and must not write a0 (several of the encodings name a0 as rd)
.macro ILLEGAL n, word
  TEST \n
  li    a0, 0x5555
1:
  .word \word
  CHECK a0, 0x5555
  CHECK_TRAP \n, 2, 1b, \word
.endm

  .text
  .globl test_main
test_main:
  USE_TRAP_RECORD
  ILLEGAL 1, 0x00000000          # all zero
  ILLEGAL 2, 0xffffffff          # all ones
  ILLEGAL 3, 0x04b50533          # OP with funct7 = 0000010 (rd = a0)
  ILLEGAL 4, 0x41f51513          # SLLI with imm[11:5] = 0100000
  ILLEGAL 5, 0x21f55513          # SRLI/SRAI with imm[11:5] = 0010000
  ILLEGAL 6, 0x00a52063          # BRANCH funct3 = 010
  ILLEGAL 7, 0x00053503          # LD (RV64)
  ILLEGAL 8, 0x00a53023          # SD (RV64)
  ILLEGAL 9, 0x00004073          # SYSTEM funct3 = 100
  ILLEGAL 10, 0x00050073         # ECALL with rs1 != 0
  ILLEGAL 11, 0x10200073         # SRET (no S-mode)
  ILLEGAL 12, 0x00051567         # JALR funct3 = 001 (rd = a0)
  ILLEGAL 13, 0x0000200f         # MISC-MEM funct3 = 010
  ILLEGAL 14, 0x00010001         # 16-bit (compressed) encoding
  ILLEGAL 15, 0x0000050b         # custom-0
  ILLEGAL 16, 0x1005252f         # LR.W (no A extension)
  ILLEGAL 17, 0x00052007         # FLW (no F extension)
  ILLEGAL 18, 0x7c002573         # csrr a0, 0x7c0 (unknown CSR)
  ILLEGAL 19, 0xf1451073         # csrw mhartid, a0 (read-only)
  ILLEGAL 20, 0xc0001073         # csrw cycle, x0 (csrrw writes even with x0)
  ILLEGAL 21, 0x32002573         # csrr a0, mcountinhibit (not implemented)
  ILLEGAL 22, 0xc0216573         # csrrsi a0, instret, 2 (write to read-only)
  ILLEGAL 23, 0x00200073         # URET
  ILLEGAL 24, 0x7b200073         # DRET (no debug mode)
  ILLEGAL 25, 0x0000006b         # custom-2 / reserved opcode

  # reads of read-only CSRs with csrrs/csrrc rs1 = x0 are legal
  TEST 30
  csrr  a0, mhartid
  csrrc a0, cycle, x0
  csrrsi a0, instret, 0
  CHECKMEM trap_count, 25

  # ECALL: cause 11, mtval 0
  TEST 31
1:
  ecall
  CHECK_TRAP 26, 11, 1b, 0
  # EBREAK: cause 3, mtval = pc
  TEST 32
2:
  ebreak
  CHECK_TRAP_TA 27, 3, 2b, 2b

  # mstatus on trap entry and MRET: MPIE <- MIE, MIE <- 0; MRET restores
  TEST 33
  csrw  mie, x0              # no interrupt sources enabled
  li    a0, 0x8              # MIE = 1, MPIE = 0
  csrw  mstatus, a0
  ecall
  CHECKMEM trap_mstatus, 0x1880   # in the handler: MPIE = 1, MIE = 0
  csrr  a1, mstatus
  CHECK a1, 0x1888                # after MRET: MIE = 1, MPIE = 1
  TEST 34
  csrw  mstatus, x0
  ecall
  CHECKMEM trap_mstatus, 0x1800
  csrr  a1, mstatus
  CHECK a1, 0x1880                # MIE = MPIE (0), MPIE = 1

  # MRET jumps to mepc
  TEST 35
  la    a0, 3f
  csrw  mepc, a0
  li    a0, 0x80                  # MPIE = 1, MIE = 0
  csrw  mstatus, a0
  mret
  j     fail
3:
  csrr  a1, mstatus
  CHECK a1, 0x1888
  csrw  mstatus, x0
  # a trapping instruction right after a taken branch, and right before one
  TEST 36
  j     4f
  j     fail
4:
  ecall
  beqz  x0, 5f
  j     fail
5:
  CHECKMEM trap_count, 30
  # trap on the instruction after a load (load completes, ecall traps)
  TEST 37
  la    a2, trap_count
  lw    a1, 0(a2)
6:
  ecall
  CHECK a1, 30
  CHECK_TRAP 31, 11, 6b, 0
  j pass
