# WFI (core testbench only, uses the test device): stalls until an
# interrupt is pending and enabled in mie, regardless of mstatus.MIE; with
# MIE = 0 execution continues after the WFI, with MIE = 1 the trap is taken
# with mepc = the instruction after the WFI. A pending line that mie does
# not enable does not wake it.
#include "test_macros.h"
#define TDEV       0x2000F000
#define TDEV_IRQ   0
#define TDEV_DELAY 4
#define TDEV_CYCLE 8
#define MSI 1
#define MTI 2
#define MEI 4

.macro RAISE mask, delay
  li    t5, TDEV
  li    t6, \delay
  sw    t6, TDEV_DELAY(t5)
  li    t6, \mask
  sw    t6, TDEV_IRQ(t5)
.endm

# reg = test device cycle counter
.macro CYCLES reg
  li    t5, TDEV
  lw    \reg, TDEV_CYCLE(t5)
.endm

  .text
  .globl test_main
test_main:
  la    t0, wfi_handler
  csrw  mtvec, t0
  SETMEM wfi_n, 0

  # 1: MIE = 0: WFI waits for the timer line (60 cycles), then continues
  TEST 1
  csrci mstatus, 8
  li    t0, 0x80
  csrw  mie, t0
  CYCLES s0
  RAISE MTI, 60
  wfi
  CYCLES s1
  sub   a0, s1, s0
  sltiu a1, a0, 60
  CHECK a1, 0                   # waited for the line
  sltiu a1, a0, 200
  CHECK a1, 1                   # and woke up soon after
  CHECKMEM wfi_n, 0             # no trap
  csrr  a1, mip
  CHECK a1, 0x80
  RAISE 0, 0

  # 2: MIE = 1: the trap is taken after the WFI
  TEST 2
  RAISE MTI, 60
  csrsi mstatus, 8
  wfi
1:
  nop
  CHECKMEM wfi_n, 1
  CHECKMEMADDR wfi_mepc, 1b
  CHECKMEM wfi_cause, 0x80000007
  csrci mstatus, 8

  # 3: already pending and enabled: WFI does not wait
  TEST 3
  RAISE MTI, 0
  nop
  nop
  CYCLES s0
  wfi
  CYCLES s1
  sub   a0, s1, s0
  sltiu a1, a0, 50              # (it would hang if it waited: nothing else wakes it)
  CHECK a1, 1
  RAISE 0, 0

  # 4: a line that mie does not enable does not wake WFI
  TEST 4
  li    t0, 0x8                 # MSIE only
  csrw  mie, t0
  RAISE MEI, 0                  # not enabled
  nop
  CYCLES s0
  li    t5, TDEV
  li    t6, 80
  sw    t6, TDEV_DELAY(t5)
  li    t6, (MEI | MSI)         # MSI arrives 80 cycles later
  sw    t6, TDEV_IRQ(t5)
  wfi
  CYCLES s1
  sub   a0, s1, s0
  sltiu a1, a0, 80
  CHECK a1, 0
  CHECKMEM wfi_n, 1
  RAISE 0, 0
  csrw  mie, zero
  j pass

  .balign 4
wfi_handler:                    # log, lower all lines, return
  csrw  mscratch, t0
  la    t0, wsave
  sw    t1, 0(t0)
  lw    t1, 4(t0)
  addi  t1, t1, 1
  sw    t1, 4(t0)               # wfi_n
  csrr  t1, mepc
  sw    t1, 8(t0)               # wfi_mepc
  csrr  t1, mcause
  sw    t1, 12(t0)              # wfi_cause
  bgez  t1, trap_unexpected
  li    t1, TDEV
  sw    zero, TDEV_DELAY(t1)
  sw    zero, TDEV_IRQ(t1)
  lw    t1, 0(t0)
  csrr  t0, mscratch
  mret

  .data
  .balign 4
wsave:
  .word 0
wfi_n:
  .word 0
wfi_mepc:
  .word 0
wfi_cause:
  .word 0
