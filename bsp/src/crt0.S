/* Tessera BSP start-up code (RAM programs, firmware and boot ROM).
 * - gp, sp, tp set from linker symbols
 * - a minimal mtvec so that a fault before main() is still reported
 * - .data copied from its load address when it differs from its run address
 *   (boot ROM); .bss cleared
 * - main(0, 0), then _exit(main's return value) */
    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base
    la      t0, trap_entry
    csrw    mtvec, t0
    csrw    mie, zero

    /* copy .data (LMA __data_lma -> VMA __data_start .. __data_end) */
    la      t0, __data_lma
    la      t1, __data_start
    la      t2, __data_end
    beq     t0, t1, 2f
1:  bgeu    t1, t2, 2f
    lw      t3, 0(t0)
    sw      t3, 0(t1)
    addi    t0, t0, 4
    addi    t1, t1, 4
    j       1b
2:
    /* clear .bss (__bss_start .. __bss_end, both 4-byte aligned) */
    la      t0, __bss_start
    la      t1, __bss_end
3:  bgeu    t0, t1, 4f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       3b
4:
    li      a0, 0
    li      a1, 0
    call    main
    call    _exit
5:  wfi
    j       5b
    .size _start, . - _start
