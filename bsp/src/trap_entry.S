/* Tessera BSP trap entry.
 *
 * Direct mode:   mtvec = trap_entry                    (frame.vector = -1)
 * Vectored mode: mtvec = trap_vector_table | 1; slot n (n = 0..15) is taken
 *                for interrupt cause n, slot 0 for every exception
 *                (frame.vector = n).
 * All paths build a trap_frame_t (bsp/include/tessera/trap.h) on the current
 * stack, call trap_dispatch(frame) and restore everything from the frame, so a
 * handler may change frame->mepc (to skip an instruction) or any register.
 * Handlers may re-enable mstatus.MIE to allow nesting: mepc/mstatus are saved
 * in the frame and written back (with MIE clear) before mret. */

#define FRAME   160
#define REG(n)  ((n) * 4)
#define O_MEPC    128
#define O_MCAUSE  132
#define O_MTVAL   136
#define O_MSTATUS 140
#define O_VECTOR  144

    .section .text.trap, "ax", @progbits
    .balign 256
    .globl trap_vector_table
trap_vector_table:
    j       trap_vec_0
    j       trap_vec_1
    j       trap_vec_2
    j       trap_vec_3
    j       trap_vec_4
    j       trap_vec_5
    j       trap_vec_6
    j       trap_vec_7
    j       trap_vec_8
    j       trap_vec_9
    j       trap_vec_10
    j       trap_vec_11
    j       trap_vec_12
    j       trap_vec_13
    j       trap_vec_14
    j       trap_vec_15

    .macro VEC n
trap_vec_\n:
    addi    sp, sp, -FRAME
    sw      t0, REG(5)(sp)
    li      t0, \n
    j       trap_common
    .endm
    VEC 0
    VEC 1
    VEC 2
    VEC 3
    VEC 4
    VEC 5
    VEC 6
    VEC 7
    VEC 8
    VEC 9
    VEC 10
    VEC 11
    VEC 12
    VEC 13
    VEC 14
    VEC 15

    .balign 4
    .globl trap_entry
    .type trap_entry, @function
trap_entry:
    addi    sp, sp, -FRAME
    sw      t0, REG(5)(sp)
    li      t0, -1

trap_common:
    sw      t0, O_VECTOR(sp)
    sw      x1, REG(1)(sp)
    sw      x3, REG(3)(sp)
    sw      x4, REG(4)(sp)
    sw      x6, REG(6)(sp)
    sw      x7, REG(7)(sp)
    sw      x8, REG(8)(sp)
    sw      x9, REG(9)(sp)
    sw      x10, REG(10)(sp)
    sw      x11, REG(11)(sp)
    sw      x12, REG(12)(sp)
    sw      x13, REG(13)(sp)
    sw      x14, REG(14)(sp)
    sw      x15, REG(15)(sp)
    sw      x16, REG(16)(sp)
    sw      x17, REG(17)(sp)
    sw      x18, REG(18)(sp)
    sw      x19, REG(19)(sp)
    sw      x20, REG(20)(sp)
    sw      x21, REG(21)(sp)
    sw      x22, REG(22)(sp)
    sw      x23, REG(23)(sp)
    sw      x24, REG(24)(sp)
    sw      x25, REG(25)(sp)
    sw      x26, REG(26)(sp)
    sw      x27, REG(27)(sp)
    sw      x28, REG(28)(sp)
    sw      x29, REG(29)(sp)
    sw      x30, REG(30)(sp)
    sw      x31, REG(31)(sp)
    addi    t0, sp, FRAME
    sw      t0, REG(2)(sp)
    sw      zero, REG(0)(sp)
    csrr    t0, mepc
    sw      t0, O_MEPC(sp)
    csrr    t0, mcause
    sw      t0, O_MCAUSE(sp)
    csrr    t0, mtval
    sw      t0, O_MTVAL(sp)
    csrr    t0, mstatus
    sw      t0, O_MSTATUS(sp)

    mv      a0, sp
    call    trap_dispatch

    /* mstatus first: the saved value has MIE clear, so no interrupt can
     * overwrite mepc between the two writes. */
    lw      t0, O_MSTATUS(sp)
    csrw    mstatus, t0
    lw      t0, O_MEPC(sp)
    csrw    mepc, t0
    lw      x1, REG(1)(sp)
    lw      x3, REG(3)(sp)
    lw      x4, REG(4)(sp)
    lw      x5, REG(5)(sp)
    lw      x6, REG(6)(sp)
    lw      x7, REG(7)(sp)
    lw      x8, REG(8)(sp)
    lw      x9, REG(9)(sp)
    lw      x10, REG(10)(sp)
    lw      x11, REG(11)(sp)
    lw      x12, REG(12)(sp)
    lw      x13, REG(13)(sp)
    lw      x14, REG(14)(sp)
    lw      x15, REG(15)(sp)
    lw      x16, REG(16)(sp)
    lw      x17, REG(17)(sp)
    lw      x18, REG(18)(sp)
    lw      x19, REG(19)(sp)
    lw      x20, REG(20)(sp)
    lw      x21, REG(21)(sp)
    lw      x22, REG(22)(sp)
    lw      x23, REG(23)(sp)
    lw      x24, REG(24)(sp)
    lw      x25, REG(25)(sp)
    lw      x26, REG(26)(sp)
    lw      x27, REG(27)(sp)
    lw      x28, REG(28)(sp)
    lw      x29, REG(29)(sp)
    lw      x30, REG(30)(sp)
    lw      x31, REG(31)(sp)
    lw      x2, REG(2)(sp)
    mret
    .size trap_entry, . - trap_entry
