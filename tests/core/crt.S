# Tessera core test runtime: entry point, pass/fail reporting through
# `tohost`, and a trap recorder that test programs can point mtvec at.
#
# Conventions (see tests/core/isa/test_macros.h):
#   gp (x3)  number of the check being executed
#   t6 (x31) scratch of the CHECK macros
#   tohost   1 = pass, (n << 1) | 1 = check n failed
# An unexpected trap fails with check number 0x400 + (mcause & 0xff)
# (0x480 + cause for an interrupt).

  .section .text.init, "ax"
  .globl _start
_start:
  la    sp, __stack_top
  la    t0, trap_unexpected
  csrw  mtvec, t0
  li    gp, 0
  # clear the registers a test may assume are not preset
  li    x1, 0
  li    x4, 0
  li    x5, 0
  li    x6, 0
  li    x7, 0
  li    x8, 0
  li    x9, 0
  li    x10, 0
  li    x11, 0
  li    x12, 0
  li    x13, 0
  li    x14, 0
  li    x15, 0
  li    x16, 0
  li    x17, 0
  li    x18, 0
  li    x19, 0
  li    x20, 0
  li    x21, 0
  li    x22, 0
  li    x23, 0
  li    x24, 0
  li    x25, 0
  li    x26, 0
  li    x27, 0
  li    x28, 0
  li    x29, 0
  li    x30, 0
  li    x31, 0
  # assembly tests jump to pass/fail themselves; a C test_main returns
  # 0 for pass or the number of the failing check
  call  test_main
  mv    gp, a0
  beqz  a0, pass
  j     fail

  .text
  .globl pass
pass:
  li    t6, 1
  la    t5, tohost
  sw    t6, 0(t5)
1:
  j     1b

  .globl fail
fail:
  slli  t6, gp, 1
  ori   t6, t6, 1
  la    t5, tohost
  sw    t6, 0(t5)
1:
  j     1b

  .globl trap_unexpected
  .balign 4
trap_unexpected:
  csrr  gp, mcause
  andi  t6, gp, 0xff
  srli  gp, gp, 31
  slli  gp, gp, 7
  or    gp, gp, t6
  ori   gp, gp, 0x400
  j     fail

# trap_record: a synchronous-exception handler. Stores mcause, mepc, mtval
# and mstatus in trap_cause/trap_epc/trap_tval/trap_mstatus, increments
# trap_count and resumes at trap_resume if that is non-zero, else at
# mepc + trap_skip (4 unless a test changes it: skips the trapping
# instruction). Clobbers no register.
  .globl trap_record
  .balign 64
trap_record:
  csrw  mscratch, t0
  la    t0, trap_save
  sw    t1, 0(t0)
  csrr  t1, mcause
  sw    t1, 4(t0)           # trap_cause
  csrr  t1, mtval
  sw    t1, 12(t0)          # trap_tval
  csrr  t1, mstatus
  sw    t1, 20(t0)          # trap_mstatus
  lw    t1, 16(t0)          # trap_count
  addi  t1, t1, 1
  sw    t1, 16(t0)
  csrr  t1, mepc
  sw    t1, 8(t0)           # trap_epc
  sw    t2, 32(t0)
  lw    t2, 24(t0)          # trap_skip
  add   t1, t1, t2
  lw    t2, 28(t0)          # trap_resume
  beqz  t2, 1f
  mv    t1, t2
1:
  csrw  mepc, t1
  lw    t2, 32(t0)
  lw    t1, 0(t0)
  csrr  t0, mscratch
  mret

  .section .tohost, "aw"
  .balign 16
  .globl tohost
tohost:
  .word 0
  .word 0
  .word 0
  .word 0

  .data
  .balign 4
trap_save:
  .word 0
  .globl trap_cause, trap_epc, trap_tval, trap_count, trap_mstatus, trap_skip, trap_resume
trap_cause:
  .word 0
trap_epc:
  .word 0
trap_tval:
  .word 0
trap_count:
  .word 0
trap_mstatus:
  .word 0
trap_skip:
  .word 4
trap_resume:
  .word 0
  .word 0                   # t2 save
