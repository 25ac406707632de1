# Interrupts through the testbench test device (core testbench only):
# timer/software/external lines, mie and mstatus.MIE masking, the exact
# point of entry after an enabling CSR write, MEI > MSI > MTI priority,
# no nesting while MIE = 0 in the handler, vectored and direct mtvec,
# interrupts during loads and divisions.
#include "test_macros.h"
#define TDEV       0x2000F000
#define TDEV_IRQ   0
#define TDEV_DELAY 4
#define TDEV_CYCLE 8
#define MSI 1
#define MTI 2
#define MEI 4

# raise lines (mask) after `delay` cycles
.macro RAISE mask, delay
  li    t5, TDEV
  li    t6, \delay
  sw    t6, TDEV_DELAY(t5)
  li    t6, \mask
  sw    t6, TDEV_IRQ(t5)
.endm

.macro CLEAR_LOG
  la    t5, isave
  sw    zero, 8(t5)
  sw    zero, 12(t5)
  sw    zero, 16(t5)
  sw    zero, 20(t5)
.endm

  .text
  .globl test_main
test_main:
  la    t0, irq_handler
  csrw  mtvec, t0
  CLEAR_LOG

  # 1: timer interrupt taken while spinning
  TEST 1
  li    t0, 0x80
  csrw  mie, t0                 # MTIE
  csrsi mstatus, 8              # MIE
  RAISE MTI, 5
  li    a0, 1000
1:
  lw    a1, irq_n
  bnez  a1, 2f
  addi  a0, a0, -1
  bnez  a0, 1b
  j     fail
2:
  CHECKMEM irq_n, 1
  CHECKMEM irq_log, 0x80000007
  csrr  a1, mstatus
  CHECK a1, 0x1888              # MRET restored MIE

  # 2: masked by mie, visible in mip; enabling mie takes it before the next instruction
  TEST 2
  CLEAR_LOG
  csrw  mie, zero
  RAISE MSI, 0
  li    a0, 30
1:
  addi  a0, a0, -1
  bnez  a0, 1b
  csrr  a1, mip
  CHECK a1, 0x8
  CHECKMEM irq_n, 0
  li    t0, 0x8
  csrs  mie, t0
3:
  addi  a0, a0, 1
  CHECKMEM irq_n, 1
  CHECKMEMADDR irq_mepc, 3b
  CHECKMEM irq_log, 0x80000003

  # 3: masked by mstatus.MIE; csrsi mstatus enables it at the next instruction
  TEST 3
  CLEAR_LOG
  csrci mstatus, 8
  li    t0, 0x888
  csrw  mie, t0
  RAISE MEI, 0
  li    a0, 30
1:
  addi  a0, a0, -1
  bnez  a0, 1b
  csrr  a1, mip
  CHECK a1, 0x800
  CHECKMEM irq_n, 0
  csrsi mstatus, 8
3:
  nop
  CHECKMEM irq_n, 1
  CHECKMEMADDR irq_mepc, 3b
  CHECKMEM irq_log, 0x8000000b

  # 4: priority MEI > MSI > MTI when all are pending at once
  TEST 4
  CLEAR_LOG
  csrci mstatus, 8
  RAISE (MSI|MTI|MEI), 0
  li    a0, 10
1:
  addi  a0, a0, -1
  bnez  a0, 1b
  csrsi mstatus, 8
  nop
  nop
  CHECKMEM irq_n, 3
  CHECKMEM irq_log, 0x8000000b
  CHECKMEM irq_log+4, 0x80000003
  CHECKMEM irq_log+8, 0x80000007
  CHECKMEM irq_depth_max, 1     # never nested

  # 5: no nesting: the MEI handler raises MSI; it is taken only after MRET
  TEST 5
  CLEAR_LOG
  SETMEM raise_in_handler, MSI
  RAISE MEI, 3
  li    a0, 200
1:
  lw    a1, irq_n
  li    t0, 2
  beq   a1, t0, 2f
  addi  a0, a0, -1
  bnez  a0, 1b
  j     fail
2:
  CHECKMEM irq_log, 0x8000000b
  CHECKMEM irq_log+4, 0x80000003
  CHECKMEM irq_depth_max, 1
  # the second one is taken right after MRET, on the instruction the first interrupted
  lw    t0, irq_mepc_log
  lw    t1, irq_mepc_log+4
  bne   t0, t1, fail

  # 6: vectored mtvec: interrupts go to base + 4 * cause, exceptions to base
  TEST 6
  CLEAR_LOG
  la    t0, vec_table
  ori   t0, t0, 1
  csrw  mtvec, t0
  SETMEM vec_hit, 0
  RAISE MTI, 0
  nop
  nop
  nop
  CHECKMEM vec_hit, 7
  CHECKMEM irq_n, 1
  RAISE MEI, 0
  nop
  nop
  nop
  CHECKMEM vec_hit, 11
  RAISE MSI, 0
  nop
  nop
  nop
  CHECKMEM vec_hit, 3
  SETMEM vec_hit, 0
  ecall                         # exception: base (entry 0)
  CHECKMEM vec_hit, 0x100
  la    t0, irq_handler
  csrw  mtvec, t0

  # 7: interrupts during loads, stores and divisions leave correct results
  TEST 7
  CLEAR_LOG
  la    s0, isum
  sw    zero, 0(s0)
  li    s1, 0                   # reference sum in a register
  li    a0, 60
1:
  andi  t0, a0, 7
  bnez  t0, 2f
  RAISE MTI, 2                  # an interrupt every 8 iterations, 2 cycles later
2:
  lw    a1, 0(s0)
  li    a2, 1000
  divu  a3, a2, a0
  add   a1, a1, a3
  sw    a1, 0(s0)
  add   s1, s1, a3
  addi  a0, a0, -1
  bnez  a0, 1b
  lw    a1, 0(s0)
  CHECKR a1, s1
  lw    a1, irq_n                 # a0 = 56, 48, ..., 8: seven interrupts
  li    t0, 7
  bne   a1, t0, fail
  csrci mstatus, 8
  csrw  mie, zero
  j pass

# ---------------------------------------------------------------- handler
# Logs mcause into irq_log[irq_n++], keeps the mepc of the last interrupt
# in irq_mepc, tracks the nesting depth, lowers the line it serves and, if
# raise_in_handler is set, raises those lines once and spins a while.
  .balign 4
irq_handler:
  csrw  mscratch, t0
  la    t0, isave
  sw    t1, 0(t0)
  sw    t2, 4(t0)
  sw    t3, 24(t0)
  lw    t1, 8(t0)               # depth
  addi  t1, t1, 1
  sw    t1, 8(t0)
  lw    t2, 12(t0)              # max depth
  bge   t2, t1, 1f
  sw    t1, 12(t0)
1:
  csrr  t1, mcause
  bgez  t1, irq_exception
  lw    t2, 16(t0)              # irq_n
  slli  t3, t2, 2
  add   t3, t3, t0
  sw    t1, 32(t3)              # irq_log[n]
  addi  t2, t2, 1
  sw    t2, 16(t0)
  csrr  t2, mepc
  sw    t2, 20(t0)              # irq_mepc
  sw    t2, 64(t3)              # irq_mepc_log[n]
  andi  t1, t1, 0xff            # 3 -> MSI, 7 -> MTI, 11 -> MEI
  srli  t1, t1, 2
  li    t2, 1
  sll   t1, t2, t1
  li    t3, TDEV
  sw    zero, TDEV_DELAY(t3)
  lw    t2, TDEV_IRQ(t3)
  not   t1, t1
  and   t2, t2, t1
  lw    t1, 28(t0)              # raise_in_handler
  beqz  t1, 2f
  or    t2, t2, t1
  sw    zero, 28(t0)
  sw    t2, TDEV_IRQ(t3)
  li    t1, 30                  # spin with the new line pending
3:
  addi  t1, t1, -1
  bnez  t1, 3b
  j     4f
2:
  sw    t2, TDEV_IRQ(t3)
4:
  lw    t1, 8(t0)
  addi  t1, t1, -1
  sw    t1, 8(t0)
  lw    t3, 24(t0)
  lw    t2, 4(t0)
  lw    t1, 0(t0)
  csrr  t0, mscratch
  mret

irq_exception:                  # no exception is expected through this handler
  j     trap_unexpected

# vectored table: entry n at base + 4n. Each stub notes its cause in vec_hit.
  .balign 64
vec_table:
  j     vec_exc                 # 0: exceptions
  j     trap_unexpected
  j     trap_unexpected
  j     vec_msi                 # 3
  j     trap_unexpected
  j     trap_unexpected
  j     trap_unexpected
  j     vec_mti                 # 7
  j     trap_unexpected
  j     trap_unexpected
  j     trap_unexpected
  j     vec_mei                 # 11
vec_exc:                        # ecall: note 0x100, skip it
  csrw  mscratch, t0
  la    t0, vsave
  sw    t1, 0(t0)
  li    t1, 0x100
  sw    t1, 4(t0)
  csrr  t1, mepc
  addi  t1, t1, 4
  csrw  mepc, t1
  lw    t1, 0(t0)
  csrr  t0, mscratch
  mret
vec_msi:
  csrw  mscratch, t0
  la    t0, vsave
  sw    t1, 0(t0)
  li    t1, 3
  j     vec_common
vec_mti:
  csrw  mscratch, t0
  la    t0, vsave
  sw    t1, 0(t0)
  li    t1, 7
  j     vec_common
vec_mei:
  csrw  mscratch, t0
  la    t0, vsave
  sw    t1, 0(t0)
  li    t1, 11
vec_common:
  sw    t1, 4(t0)
  lw    t1, 0(t0)
  csrr  t0, mscratch
  j     irq_handler

  .data
  .balign 16
isave:
  .word 0, 0                    # t1, t2
irq_depth:
  .word 0                       # 8
irq_depth_max:
  .word 0                       # 12
irq_n:
  .word 0                       # 16
irq_mepc:
  .word 0                       # 20
  .word 0                       # 24: t3
raise_in_handler:
  .word 0                       # 28
irq_log:
  .word 0, 0, 0, 0, 0, 0, 0, 0  # 32
irq_mepc_log:
  .word 0, 0, 0, 0, 0, 0, 0, 0  # 64
vsave:
  .word 0
vec_hit:
  .word 0                       # vsave + 4
isum:
  .word 0
