/* Tessera firmware: the doorbell fast path (docs/firmware.md "Fast paths").
 *
 * cp_fast_start takes the job take_jobs would take next (two or more free
 * slots: the head of the first non-empty ring, in the lowest free slot) only if
 * that job would start at once (no dependencies, nothing waiting, its queues
 * free, a monitor free) and every packet of its buffers is of the few kinds
 * checked here (NOP, WAIT, FENCE, MSG_SHORT, LIN_DMA on a DMA engine's queue,
 * STOP) and passes the same checks as validate (cp.c) and the packet check
 * (pktcheck.c). Anything else, or any error: it returns 0 having changed
 * nothing but the free slot's fields, and take_jobs handles the job in full
 * (validate, the packet check, the error completion).
 *
 * Hand-scheduled: the compiled C of the same checks took ~290 instructions to
 * the start (register spills, induction variables), this ~150 for one buffer
 * and one LIN_DMA + STOP command buffer. Every structure offset, size, address
 * and constant comes from the C headers through the generated
 * cp_fast_offsets.h (firmware/cp_fast_offsets.c); the scheduler's state by its
 * symbols (cp_state.h). Only caller-saved registers: a0 &cp_hif, a6 the job
 * slot, a7 the result (cp_fast.h: FAST_TAKEN, slot [3:1], ring [5:4],
 * FAST_MEM), t2 &j->bb[nbuf], t5 ncb; the rest scratch. */
#include "cp_fast_offsets.h"

        .section .text.cp_fast_start, "ax", @progbits
        .globl  cp_fast_start
        .type   cp_fast_start, @function
        .p2align 2
cp_fast_start:
        /* the fast path's conditions: two free slots (sf a2), nothing waiting, a
         * monitor free; a3 = free queues, a4 = DMA queues, a0 = &cp_hif, a1 = cp_jobs */
        lui   t0, %hi(cp_slot_free)
        lw    a2, %lo(cp_slot_free)(t0)
        addi  t1, a2, -1
        and   t1, t1, a2
        beqz  t1, 90f
        lui   t0, %hi(cp_n_wait)
        lw    t1, %lo(cp_n_wait)(t0)
        bnez  t1, 90f
        lui   t0, %hi(cp_mon_free)
        lw    t1, %lo(cp_mon_free)(t0)
        beqz  t1, 90f
        lui   t0, %hi(cp_fast_eq_ok)
        lw    a3, %lo(cp_fast_eq_ok)(t0)
        lui   t0, %hi(cp_eq_busy)
        lw    t1, %lo(cp_eq_busy)(t0)
        not   t1, t1
        and   a3, a3, t1
        lui   t0, %hi(cp_fast_eq_dma)
        lw    a4, %lo(cp_fast_eq_dma)(t0)
        lui   a0, %hi(cp_hif)
        addi  a0, a0, %lo(cp_hif)
        lui   a1, %hi(cp_jobs)
        addi  a1, a1, %lo(cp_jobs)
        /* ring: the first non-empty one (q t0, ci t2); an overrun one: take_jobs */
        li    t0, 0
        addi  t1, a0, fs_PI
        li    t6, fs_SQE
        li    t5, fs_NSQ
1:
        lw    t2, fs_CIPI(t1)
        lw    t3, 0(t1)
        sub   t3, t3, t2
        bltu  t6, t3, 90f
        bnez  t3, 2f
        addi  t0, t0, 1
        addi  t1, t1, 4
        bne   t0, t5, 1b
        j     90f
2:                                      /* a5 = &cp_hif.sq[q][ci % SQE] */
        andi  t3, t2, fs_SQE - 1
        mul   t4, t0, t6
        add   t3, t3, t4
        li    t4, fs_DSZ
        mul   t3, t3, t4
        add   a5, a0, t3
        addi  a5, a5, fs_SQ
        slli  a7, t0, 4
        /* slot: the lowest set bit of sf (two or more are set); a6 = &cp_jobs[slot] */
        li    t1, 0
3:
        andi  t3, a2, 1
        bnez  t3, 4f
        srli  a2, a2, 1
        addi  t1, t1, 1
        j     3b
4:
        slli  t3, t1, 1
        or    a7, a7, t3
        li    t3, fs_JSZ
        mul   t3, t1, t3
        add   a6, a1, t3
        /* counts (validate): seq, reserved words and bits, no dependency, 1..4 cbs and buffers */
        lw    t3, fs_DSEQ(a5)
        beqz  t3, 90f
        lw    t3, fs_DRSVD(a5)
        bnez  t3, 90f
        lw    t3, fs_DCTRL(a5)
        li    t4, fs_CRSVD
        and   t4, t3, t4
        bnez  t4, 90f
        srli  t5, t3, fs_NCBBP
        andi  t5, t5, 15
        addi  t4, t5, -1
        li    t6, fs_MAXCB
        bgeu  t4, t6, 90f
        srli  t3, t3, fs_NBUFBP
        andi  t3, t3, 15
        addi  t4, t3, -1
        li    t6, fs_MAXBUF
        bgeu  t4, t6, 90f
        /* buffers: non-empty, inside device memory -> j->bb[], j->be[]; t2 = &j->bb[nbuf] */
        sw    t3, fs_JNBUF(a6)
        addi  t0, a5, fs_DBUF
        addi  t1, a6, fs_JBB
        slli  t2, t3, 2
        add   t2, t1, t2
        li    a1, fs_HBMB
        li    a2, fs_HBMS
5:
        lw    t4, 0(t0)
        lw    t6, 4(t0)
        sub   t3, t4, a1
        beqz  t6, 90f
        bgeu  t3, a2, 90f
        sub   t3, a2, t3
        bltu  t3, t6, 90f
        add   t6, t4, t6
        sw    t4, 0(t1)
        sw    t6, fs_BEBB(t1)
        addi  t0, t0, 8
        addi  t1, t1, 4
        bne   t1, t2, 5b
        /* command buffers: a free queue not used twice, aligned, 8..CB_CHECK_MAX
         * bytes, inside one buffer -> j->eq[], cb_addr[], cb_size[]; a1 = eqmask */
        addi  t0, a5, fs_DCB
        li    t1, 0
        li    a1, 0
6:
        lw    t3, 0(t0)
        lw    t4, 4(t0)
        lw    t6, 8(t0)
        li    a2, fs_NEQ
        bgeu  t3, a2, 90f
        srl   a2, a3, t3
        andi  a2, a2, 1
        beqz  a2, 90f
        or    a2, t4, t6
        andi  a2, a2, 7
        bnez  a2, 90f
        addi  a2, t6, -1
        li    a5, fs_CBMAX
        bgeu  a2, a5, 90f
        addi  a2, a6, fs_JBB
7:
        lw    a5, 0(a2)
        bltu  t4, a5, 8f
        lw    a5, fs_BEBB(a2)
        bgeu  t4, a5, 8f
        sub   a5, a5, t4
        bgeu  a5, t6, 9f
8:
        addi  a2, a2, 4
        bne   a2, t2, 7b
        j     90f
9:
        li    a5, 1
        sll   a5, a5, t3
        xor   a3, a3, a5
        or    a1, a1, a5
        add   a2, a6, t1
        sb    t3, fs_JEQ(a2)
        slli  a2, t1, 2
        add   a2, a6, a2
        sw    t4, fs_JCBA(a2)
        sw    t6, fs_JCBS(a2)
        addi  t0, t0, fs_CBSZ
        addi  t1, t1, 1
        bne   t1, t5, 6b
        sb    t5, fs_JNCB(a6)
        sw    a1, fs_JEQM(a6)
        /* packets (pkt_check, pktcheck.c), the bridge's read buffer on (pkt_check_job) */
        lui   a5, %hi(fs_SYSBUS)
        li    a2, fs_RDBUF
        sw    a2, %lo(fs_SYSBUS)(a5)
        li    a0, fs_HMASK
        li    t1, 0
10:                                     /* command buffer t1: t0 = p, t6 = end, a1 = LIN_DMA allowed on its queue */
        slli  a2, t1, 2
        add   a2, a6, a2
        lw    t0, fs_JCBA(a2)
        lw    t6, fs_JCBS(a2)
        add   t6, t0, t6
        add   a2, a6, t1
        lbu   a2, fs_JEQ(a2)
        srl   a1, a4, a2
        andi  a1, a1, 1
11:
        beq   t0, t6, 80f               /* no STOP */
        lw    t3, 0(t0)
        and   a2, t3, a0                /* reserved bits set: no opcode matches */
        li    a5, fs_OSTOP
        beq   a2, a5, 16f
        li    a5, fs_OLIN
        beq   a2, a5, 13f
        srli  t3, t3, 16
        beqz  a2, 12f                   /* NOP */
        li    a5, fs_OWAIT
        beq   a2, a5, 12f
        li    a5, fs_OFENCE
        bne   a2, a5, 17f
        sltiu a5, t3, fs_NFENCE
        beqz  a5, 80f
12:
        addi  t0, t0, 8
        j     11b
17:
        li    a5, fs_OSHORT
        bne   a2, a5, 80f
        sltiu a5, t3, fs_FWSOB
        bnez  a5, 12b
        j     80f
13:                                     /* LIN_DMA: a DMA queue, 16 bytes, destination then source inside one buffer */
        beqz  a1, 80f
        addi  a5, t0, 16
        bltu  t6, a5, 80f               /* truncated */
        lw    t3, 4(t0)                 /* size */
        lw    a2, 12(t0)                /* dst */
        beqz  t3, 80f
        add   a5, a2, t3
        bltu  a5, a2, 80f
        addi  a3, a6, fs_JBB
14:
        lw    t4, 0(a3)
        bltu  a2, t4, 15f
        lw    t4, fs_BEBB(a3)
        bgeu  t4, a5, 18f
15:
        addi  a3, a3, 4
        bne   a3, t2, 14b
        j     80f
18:                                     /* destination clear of the job's command buffers (off_cbs): buffer 0 here */
        lw    t4, fs_JCBA(a6)
        lw    a1, fs_JCBS(a6)
        bgeu  t4, a5, 25f               /* the buffer starts at or after the copy's end */
        add   a1, t4, a1
        bltu  a2, a1, 80f               /* the copy starts before the buffer's end: overlap */
25:
        addi  a3, t5, -1
        bnez  a3, 26f                   /* buffers 1.. out of line (a1 is not 0: LIN_DMA stays allowed) */
27:
        lw    a2, 8(t0)                 /* src */
        add   a5, a2, t3
        bltu  a5, a2, 80f
        addi  a3, a6, fs_JBB
19:
        lw    t4, 0(a3)
        bltu  a2, t4, 20f
        lw    t4, fs_BEBB(a3)
        bgeu  t4, a5, 21f
20:
        addi  a3, a3, 4
        bne   a3, t2, 19b
        j     80f
21:
        ori   a7, a7, fs_FMEM
        addi  t0, t0, 16
        j     11b
26:                                     /* the destination against buffers ncb-1 .. 1 */
        slli  a3, a3, 2
        add   a3, a6, a3
28:
        lw    t4, fs_JCBA(a3)
        lw    a1, fs_JCBS(a3)
        bgeu  t4, a5, 29f
        add   a1, t4, a1
        bltu  a2, a1, 80f
29:
        addi  a3, a3, -4
        bne   a3, a6, 28b
        j     27b
16:                                     /* STOP: next command buffer; then the read buffer off */
        addi  t1, t1, 1
        bne   t1, t5, 10b
        lui   a5, %hi(fs_SYSBUS)
        sw    zero, %lo(fs_SYSBUS)(a5)
        /* each queue (program_queues, start_queues): CB_BASE, CB_SIZE, COMP_ADDR =
         * the slot's DONE object, CTRL.start; mtime right after the first start
         * (cnt.t_first_start) */
        slli  a3, a7, 1
        andi  a3, a3, (fs_NJOBS - 1) * 4
        li    a5, fs_COMP0
        add   a3, a3, a5
        li    t3, fs_QSTRIDE
        li    t4, fs_QBASE
        li    a1, fs_QSTART
        li    t1, 0
22:
        add   a2, a6, t1
        lbu   a2, fs_JEQ(a2)
        mul   a2, a2, t3
        add   a2, a2, t4
        slli  a5, t1, 2
        add   a5, a6, a5
        lw    a0, fs_JCBA(a5)
        sw    a0, fs_QCBB(a2)
        lw    a0, fs_JCBS(a5)
        sw    a0, fs_QCBS(a2)
        sw    a3, fs_QCOMP(a2)
        sw    a1, fs_QCTRL(a2)
        bnez  t1, 23f
        lui   a5, %hi(fs_MTIME)
        lw    a5, %lo(fs_MTIME)(a5)
        lui   a0, %hi(cp_hif + fs_TFSA)
        sw    a5, %lo(cp_hif + fs_TFSA)(a0)
23:
        addi  t1, t1, 1
        bne   t1, t5, 22b
        ori   a7, a7, fs_FTAKEN
        j     99f
80:                                     /* refused by the packet check: read buffer off */
        lui   a5, %hi(fs_SYSBUS)
        sw    zero, %lo(fs_SYSBUS)(a5)
90:
        li    a7, 0
99:
        mv    a0, a7
        ret
        .size cp_fast_start, . - cp_fast_start
