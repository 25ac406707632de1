/* Tessera core ISA test macros (assembler). See tests/core/crt.S for the
   pass/fail convention. A program defines `test_main`, numbers its checks
   with TEST n and ends with `j pass`. */

/* start check number n (reported as the failing check if a CHECK fails) */
.macro TEST n
  li    gp, \n
.endm

/* register must equal an immediate value */
.macro CHECK reg, val
  li    t6, \val
  bne   \reg, t6, fail
.endm

/* register must equal another register */
.macro CHECKR reg, ref
  bne   \reg, \ref, fail
.endm

/* word in memory at symbol must equal a value (clobbers t5, t6) */
.macro CHECKMEM sym, val
  la    t5, \sym
  lw    t5, 0(t5)
  li    t6, \val
  bne   t5, t6, fail
.endm

/* word in memory at symbol must equal the address of a label (clobbers t5, t6) */
.macro CHECKMEMADDR sym, label
  la    t5, \sym
  lw    t5, 0(t5)
  la    t6, \label
  bne   t5, t6, fail
.endm

/* store a value into a word at symbol (clobbers t5, t6) */
.macro SETMEM sym, val
  la    t5, \sym
  li    t6, \val
  sw    t6, 0(t5)
.endm

/* install the trap recorder and clear its count */
.macro USE_TRAP_RECORD
  la    t5, trap_record
  csrw  mtvec, t5
  SETMEM trap_count, 0
.endm

/* the last trap must have been cause c at the address of label l with
   mtval v, and it must have been trap number n (clobbers t5, t6) */
.macro CHECK_TRAP n, c, l, v
  CHECKMEM trap_count, \n
  CHECKMEM trap_cause, \c
  CHECKMEMADDR trap_epc, \l
  CHECKMEM trap_tval, \v
.endm

/* same, with mtval = address of label t */
.macro CHECK_TRAP_TA n, c, l, t
  CHECKMEM trap_count, \n
  CHECKMEM trap_cause, \c
  CHECKMEMADDR trap_epc, \l
  CHECKMEMADDR trap_tval, \t
.endm

/* same, with mtval = value of register r (r must not be t5/t6) */
.macro CHECK_TRAP_R n, c, l, r
  CHECKMEM trap_count, \n
  CHECKMEM trap_cause, \c
  CHECKMEMADDR trap_epc, \l
  la    t5, trap_tval
  lw    t5, 0(t5)
  bne   t5, \r, fail
.endm

/* fence.i (the toolchain's rv32im_zicsr does not include Zifencei) */
.macro FENCE_I
  .word 0x0000100f
.endm
