/* Tessera firmware: the control-path scheduler's state (docs/firmware.md).
 *
 * The job table, the host-interface block and the few words the scheduler
 * (cp.c), the packet checker (pktcheck.c) and the doorbell fast path
 * (cp_fast.S, through the generated cp_fast_offsets.h) share. Defined in
 * cp_state.c; this layer calls nothing above it. */
#ifndef TESSERA_FW_CP_STATE_H
#define TESSERA_FW_CP_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "regs/intc_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "tessera/hostif.h"
#include "tessera/intc.h"
#include "tessera/mmio.h"

#define QM(k, r)      MMIO32(TESSERA_QMAN_ADDR(k) + offsetof(qman_t, r))
#define QM_ADDR(k, r) (TESSERA_QMAN_ADDR(k) + (uint32_t)offsetof(qman_t, r))
#define SM(r)         MMIO32(TESSERA_SYNCMGR_BASE + offsetof(syncmgr_t, r))
#define SOB_SET_ADDR(n) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_SET) + 4u * (n))
#define SOB_ADD_ADDR(n) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, SOB_ADD) + 4u * (n))
#define MON_WORD(m, w) MMIO32(TESSERA_SYNCMGR_BASE + offsetof(syncmgr_t, MON) + 64u * (m) + 4u * (w))
#define MON_ARM_WORD  8u
#define SWIRQ_ADDR    (TESSERA_INTC_BASE + (uint32_t)offsetof(intc_t, SWIRQ))

/* Resources owned by the firmware: the last 16 objects (two groups of 8: DONE
 * objects of job slots 0..7, then DEP objects) and the last 32 monitors. */
#define FW_JOBS      8u
#define FW_SOB_BASE  (TESSERA_SYNC_OBJECTS - 16u)
#define FW_MON_BASE  (TESSERA_SYNC_MONITORS - 32u)
#define FW_MONS      32u
#define SOB_DONE(j)  (FW_SOB_BASE + (j))
#define SOB_DEP(j)   (FW_SOB_BASE + FW_JOBS + (j))

enum { J_FREE = 0, J_NEW, J_WAIT, J_ARMED, J_RUN, J_POST };

typedef struct {
    uint8_t state, sq, ncb, ndep;
    uint8_t status, cause, irq, n_inflight;
    uint32_t seq, budget, order, detail;
    uint32_t t_submit, t_start, t_end;
    uint32_t eqmask;
    uint32_t mons;                  /* bit i: firmware monitor FW_MON_BASE + i belongs to this job */
    uint8_t eq[HIF_MAX_CBS];
    uint32_t cb_addr[HIF_MAX_CBS], cb_size[HIF_MAX_CBS];
    uint32_t dep[HIF_MAX_DEPS];
    uint32_t nbuf, bb[HIF_MAX_BUFS], be[HIF_MAX_BUFS];   /* the job's buffers [bb, be) */
    uint32_t hostb;                 /* bit b: buffer b is host memory (DMA engines only) */
    uint32_t mem;                   /* an engine of the job may touch memory through an L2 slice */
} job_t;

/* Which register semantics the packet check applies to the engine behind a queue. */
enum { ENG_OTHER = 0, ENG_MME, ENG_DMA, ENG_TPC };

extern hif_block_t cp_hif;          /* the host-interface block (SYSCTRL.SCRATCH3) */
extern job_t cp_jobs[FW_JOBS];
extern uint32_t cp_eq_busy;         /* engine queues owned by an armed/running job */
extern uint32_t cp_mon_free;        /* firmware monitors not in use */
extern uint32_t cp_slot_free;       /* bit s: cp_jobs[s] is J_FREE */
extern uint32_t cp_n_wait;          /* jobs in J_WAIT */
extern uint32_t cp_fast_eq_ok;      /* engine queues present (the fast path's copy of eq_present) */
extern uint32_t cp_fast_eq_dma;     /* DMA queues whose engine has the DMA registers: LIN_DMA on the fast path */
extern uint8_t cp_eng_kind[HIF_NUM_EQ];

/* Every state change goes through here (keeps cp_slot_free and cp_n_wait). */
static inline void set_state(job_t *j, uint32_t st)
{
    uint32_t bit = 1u << (uint32_t)(j - cp_jobs);
    if (j->state == J_WAIT)
        cp_n_wait--;
    if (st == J_WAIT)
        cp_n_wait++;
    if (st == J_FREE)
        cp_slot_free |= bit;
    else
        cp_slot_free &= ~bit;
    j->state = (uint8_t)st;
}

static inline uint32_t now32(void) { return CLINT_REG(MTIME_LO); }

/* Post one completion entry: e's words, flags (HIF_CQE_FLAGS, + HIF_CQE_INFO with a
 * record in cq_info[] of the same slot) written last, cq_pi + 1, and the host interrupt
 * if irq. 0 (nothing written) if the completion ring is full. Used by the scheduler
 * (jobs) and the NIC requests (nic.c). */
static inline int cp_cq_put(const hif_cqe_t *e, uint32_t irq, const hif_nic_info_t *info)
{
    uint32_t pi = cp_hif.cq_pi;
    if (pi - cp_hif.cq_ci >= HIF_CQ_ENTRIES)
        return 0;
    volatile hif_cqe_t *c = &cp_hif.cq[pi % HIF_CQ_ENTRIES];
    if (info) {
        volatile uint32_t *w = (volatile uint32_t *)&cp_hif.cq_info[pi % HIF_CQ_ENTRIES];
        const uint32_t *s = (const uint32_t *)info;
        for (uint32_t i = 0; i < sizeof(hif_nic_info_t) / 4u; i++)
            w[i] = s[i];
    }
    c->seq = e->seq;
    c->detail = e->detail;
    c->sq = e->sq;
    c->t_submit = e->t_submit;
    c->t_start = e->t_start;
    c->t_end = e->t_end;
    c->rsvd = 0u;
    __asm__ volatile("" ::: "memory");
    c->flags = e->flags | (info ? HIF_CQE_INFO : 0u);
    __asm__ volatile("" ::: "memory");
    cp_hif.cq_pi = pi + 1u;
    if (irq)
        intc_swirq_raise(HIF_SWIRQ_HOST);
    return 1;
}

#endif /* TESSERA_FW_CP_STATE_H */
