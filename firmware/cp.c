/* Tessera firmware: control-path scheduler, the engine driver (docs/firmware.md,
 * docs/hostlink.md).
 *
 * Jobs come from the host's submission rings (bsp/include/tessera/hostif.h) in
 * the host-interface block (cp_state.c), published in SYSCTRL.SCRATCH3. Each job
 * is a list of command buffers, each for one engine queue (QMAN slot), plus
 * dependencies on earlier jobs. The scheduler
 *   - takes jobs on doorbells (highest-priority ring first), validates them
 *     (counts, engine queues, buffers inside device memory, command buffers
 *     inside the job's buffers, dependencies, and every packet: pktcheck.c)
 *     -> error completion otherwise; the common case on the doorbell path is
 *     taken by the fast path first (cp_fast.S);
 *   - gives every job slot two Sync-Manager objects: DONE (each queue's STOP
 *     completion message adds 1) and DEP (each finished dependency adds 1);
 *   - starts a job's queues itself when nothing it depends on is in flight,
 *     otherwise arms monitors so the hardware starts them: one "edge" monitor
 *     per in-flight dependency (its DONE reaches its queue count -> DEP += 1)
 *     and one "start" monitor (DEP reaches the count -> CTRL.start of every
 *     queue of the job), so no firmware is in that loop;
 *   - a "done" monitor per job raises SWIRQ HIF_SWIRQ_EVENT to wake the firmware;
 *   - posts completion entries (READY, status, cause, timestamps) and raises the
 *     host interrupt; engine-queue errors (INTC source 11) and the per-job
 *     watchdog (checked on every event and tick) end a job with an error: its
 *     queues are reset, its monitors disarmed, jobs depending on it fail with
 *     DEP_FAILED, other jobs proceed. */
#include <stddef.h>
#include <stdio.h>

#include "regs/dma_regs.h"
#include "regs/intc_regs.h"
#include "regs/l2_regs.h"
#include "regs/mme_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#if __has_include("regs/tpc_regs.h")
#include "regs/tpc_regs.h"
#endif
#include "tessera/hostif.h"
#include "tessera/cp_pkt.h"   /* packet encoding (opcodes, header bits, error codes) */
#include "tessera/tessera.h"
#include "fw.h"
#include "events.h"
#include "cp.h"
#include "cp_fast.h"
#include "cp_state.h"
#include "nic.h"
#include "pktcheck.h"

/* the scheduler is on the doorbell-to-engine path: optimise it for speed */
#pragma GCC optimize("O2")

#define HIST         64u

static uint32_t mon_used;           /* firmware monitors in use */
static uint32_t order_ctr;
static struct { uint32_t seq; uint8_t status; } hist[HIST];
static uint32_t hist_n;
static volatile uint32_t probe_fault;
static uint32_t eng_status[HIF_NUM_EQ];   /* address of the engine's STATUS register (0: none known) */
static uint32_t eng_errmask[HIF_NUM_EQ];  /* its error-code field */
static uint32_t eng_msgctrl[HIF_NUM_EQ];  /* address of the engine's MSG_CTRL register (0: none) */

#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ------------------------------------------------------------------ probing */
static void probe_trap(trap_frame_t *f)
{
    probe_fault = 1u;
    trap_skip(f);
}

static int probe(uint32_t addr)
{
    probe_fault = 0u;
    (void)MMIO32(addr);
    return !probe_fault;
}

/* 32-bit accesses for the host's serial frames: a bus error is reported, not fatal. */
int fw_safe_access(uint32_t addr, uint32_t *val, int write)
{
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, probe_trap);
    trap_set_exception_handler(CAUSE_STORE_ACCESS, probe_trap);
    probe_fault = 0u;
    if (write)
        MMIO32(addr) = *val;
    else
        *val = MMIO32(addr);
    __asm__ volatile("" ::: "memory");
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, 0);
    trap_set_exception_handler(CAUSE_STORE_ACCESS, 0);
    return probe_fault ? -1 : 0;
}

/* ------------------------------------------------------------------ history */
static void hist_add(uint32_t seq, uint32_t status)
{
    hist[hist_n % HIST].seq = seq;
    hist[hist_n % HIST].status = (uint8_t)status;
    hist_n++;
}

/* 0: not found, 1: completed ok, 2: completed with an error */
static int hist_find(uint32_t seq)
{
    uint32_t n = hist_n < HIST ? hist_n : HIST;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (hist_n - 1u - i) % HIST;
        if (hist[k].seq == seq)
            return hist[k].status == HIF_ST_OK ? 1 : 2;
    }
    return 0;
}

/* Is a job with this sequence number still waiting in a submission ring? */
static int in_rings(uint32_t seq)
{
    for (uint32_t q = 0; q < HIF_NUM_SQ; q++)
        for (uint32_t i = cp_hif.sq_ci[q]; i != cp_hif.sq_pi[q] && i - cp_hif.sq_ci[q] < HIF_SQ_ENTRIES; i++)
            if (cp_hif.sq[q][i % HIF_SQ_ENTRIES].seq == seq)
                return 1;
    return 0;
}

/* ------------------------------------------------------------------ monitors */
static int mon_alloc(void)
{
    for (uint32_t i = 0; i < FW_MONS; i++) {
        if (mon_used & (1u << i))
            continue;
        uint32_t m = FW_MON_BASE + i;
        /* a fired monitor may still be sending its payloads */
        volatile uint32_t guard = 0;
        while ((m < 32u ? SM(SENDING_LO) >> m : SM(SENDING_HI) >> (m - 32u)) & 1u)
            if (++guard > 1000u)
                break;
        mon_used |= 1u << i;
        cp_mon_free--;
        return (int)i;
    }
    return -1;
}

static void mon_program(uint32_t i, uint32_t arm, const uint32_t *pay, uint32_t npay)
{
    uint32_t m = FW_MON_BASE + i;
    for (uint32_t p = 0; p < 2u * npay; p++)
        MON_WORD(m, p) = pay[p];
    MON_WORD(m, MON_ARM_WORD) = arm;
}

static uint32_t arm_word(uint32_t sob, uint32_t target, uint32_t npay)
{
    return (target & 0x7FFFu) | ((1u << (sob & 7u)) << 16) | (((npay - 1u) & 3u) << 24) | ((sob >> 3) << 26);
}

static void mons_release(job_t *j)
{
    for (uint32_t m = j->mons; m; m &= m - 1u) {
        uint32_t i = (uint32_t)__builtin_ctz(m);
        MON_WORD(FW_MON_BASE + i, MON_ARM_WORD) = 0u;   /* mask 0: disarm */
        mon_used &= ~(1u << i);
        cp_mon_free++;
    }
    j->mons = 0u;
}

/* ------------------------------------------------------------------ L2 coherence
 * The engines work through their DCORE's L2 slice, the host reads and writes device
 * memory behind it (docs/l2.md, "Coherence contract"). The firmware keeps one
 * invariant: after every job that ran, every slice is INVALIDATED (dirty lines
 * written back, then dropped) before its completion is posted. So the host sees the
 * job's results, and no slice holds a line of memory the host writes between jobs:
 * a new job's inputs are read from memory without any maintenance on the doorbell
 * path (the host must not write memory that a running job touches). Runs the
 * whole-cache operation on every slice at once and waits (about 2 * sets * ways
 * cycles). */
#define L2R(d, r) MMIO32(TESSERA_L2_ADDR(d) + offsetof(l2_t, r))
static void l2_maint_all(uint32_t op)
{
    for (uint32_t d = 0; d < TESSERA_NUM_L2; d++) {
        L2R(d, STATUS) = L2__STATUS__DONE_bm;
        L2R(d, MAINT_CMD) = (op << L2__MAINT_CMD__OP_bp) | L2__MAINT_CMD__WHOLE_bm | L2__MAINT_CMD__GO_bm;
    }
    for (uint32_t d = 0; d < TESSERA_NUM_L2; d++) {
        /* bounded: the walk always ends (docs/l2.md); a write-back error is sticky in
         * STATUS.wb_err and raises the slice's interrupt if enabled */
        for (uint32_t n = 0; n < 1000000u && !(L2R(d, STATUS) & L2__STATUS__DONE_bm); n++)
            ;
        L2R(d, STATUS) = L2__STATUS__DONE_bm;
    }
}

/* ------------------------------------------------------------------ completion */
static void log_error(const job_t *j)
{
    static const char *const names[HIF_CAUSE_COUNT] = HIF_CAUSE_NAMES;
    printf("fw: job %lu %s: %s (detail 0x%lx)\n", (unsigned long)j->seq,
           j->status == HIF_ST_ABORTED ? "aborted" : "error", j->cause < HIF_CAUSE_COUNT ? names[j->cause] : "?",
           (unsigned long)j->detail);
}

/* Write one completion entry; 0 if the completion ring is full. */
static int cq_post(const job_t *j)
{
    hif_cqe_t e = {HIF_CQE_FLAGS(j->status, j->cause), j->seq, j->detail, j->sq, j->t_submit, j->t_start, j->t_end, 0u};
    return cp_cq_put(&e, j->irq, 0);
}

static void fail_dependents(uint32_t seq);

/* Polls of TPC STATUS.busy after CTRL.cancel (each a few tens of cycles): a cancelled
 * launch ends within one bundle per TPC plus its program load (docs/firmware.md). */
#define TPC_CANCEL_POLLS 2000u

/* A failed or aborted job that owns the TPC queue: stop the queue first (no further
 * launch from its buffer), then cancel the running launch (every TPC stops before its
 * next bundle with TIMEOUT) and wait until the cluster is idle. A kernel that never
 * ends is stopped, and the launch's completion message has landed before the job's
 * objects are cleared. */
static void tpc_cancel(const job_t *j)
{
#if defined(TESSERA_QMAN_SLOT_TPC) && __has_include("regs/tpc_regs.h")
    if (!eng_status[TESSERA_QMAN_SLOT_TPC])
        return;
    for (uint32_t c = 0; c < j->ncb; c++) {
        if (j->eq[c] != TESSERA_QMAN_SLOT_TPC)
            continue;
        QM(TESSERA_QMAN_SLOT_TPC, CTRL) = QMAN__CTRL__RESET_bm;
        /* the queue finishes a register write in progress (a commit, maybe) first */
        for (uint32_t n = 0; n < TPC_CANCEL_POLLS && (QM(TESSERA_QMAN_SLOT_TPC, STATUS) & QMAN__STATUS__BUSY_bm); n++)
            ;
        const uint32_t tpc = TESSERA_TPC_ADDR(0);
        if (!(MMIO32(tpc + (uint32_t)offsetof(tpc_t, STATUS)) & TPC__STATUS__BUSY_bm))
            return;
        MMIO32(tpc + (uint32_t)offsetof(tpc_t, CTRL)) = TPC__CTRL__CANCEL_bm;
        cp_hif.cnt.tpc_cancels++;
        for (uint32_t n = 0; n < TPC_CANCEL_POLLS; n++)
            if (!(MMIO32(tpc + (uint32_t)offsetof(tpc_t, STATUS)) & TPC__STATUS__BUSY_bm))
                return;
        printf("fw: TPC still busy after cancel (job %lu)\n", (unsigned long)j->seq);
        return;
    }
#else
    (void)j;
#endif
}

/* End job j (any state): status/cause/detail, queue resets for errors. The
 * entry is posted now or, with a full completion ring, later (J_POST). */
static void job_finish(job_t *j, uint32_t status, uint32_t cause, uint32_t detail)
{
    uint32_t slot = (uint32_t)(j - cp_jobs);
    int started = j->state == J_ARMED || j->state == J_RUN;
    j->status = (uint8_t)status;
    j->cause = (uint8_t)cause;
    j->detail = detail;
    j->t_end = now32();
    if (started) {
        if (status != HIF_ST_OK)
            tpc_cancel(j);   /* before the slices are invalidated: no TPC store after it */
        if (j->mem)   /* (a job of control packets only leaves no line in a slice) */
            l2_maint_all(2u);  /* INVALIDATE: results visible to the host, slices empty */
        mons_release(j);
        if (status != HIF_ST_OK)
            for (uint32_t c = 0; c < j->ncb; c++)
                QM(j->eq[c], CTRL) = QMAN__CTRL__RESET_bm;
        /* the engines' completion messages off: a later job that does not write
         * MSG_CTRL must not send one to this job's targets (docs/hostlink.md); the
         * TPC's bundle limit back to none */
        for (uint32_t c = 0; c < j->ncb; c++) {
            if (eng_msgctrl[j->eq[c]])
                MMIO32(eng_msgctrl[j->eq[c]]) = 0u;
#if defined(TESSERA_QMAN_SLOT_TPC) && __has_include("regs/tpc_regs.h")
            /* nor a bundle limit (a later job would stop with TIMEOUT) */
            if (j->eq[c] == TESSERA_QMAN_SLOT_TPC && eng_msgctrl[j->eq[c]])
                MMIO32(TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, BUNDLE_LIMIT)) = 0u;
#endif
        }
        cp_eq_busy &= ~j->eqmask;
        MMIO32(SOB_SET_ADDR(SOB_DONE(slot))) = 0u;
        MMIO32(SOB_SET_ADDR(SOB_DEP(slot))) = 0u;
    }
    if (status == HIF_ST_OK)
        cp_hif.cnt.jobs_ok++;
    else if (status == HIF_ST_ABORTED)
        cp_hif.cnt.jobs_aborted++;
    else
        cp_hif.cnt.jobs_error++;
    if (status != HIF_ST_OK)
        log_error(j);
    hist_add(j->seq, status);
    set_state(j, J_POST);
    if (cq_post(j))
        set_state(j, J_FREE);
    else
        cp_hif.cnt.cq_stalls++;
    if (status != HIF_ST_OK)
        fail_dependents(j->seq);
}

static void fail_dependents(uint32_t seq)
{
    for (uint32_t s = 0; s < FW_JOBS; s++) {
        job_t *j = &cp_jobs[s];
        if (j->state != J_WAIT && j->state != J_ARMED)
            continue;
        for (uint32_t d = 0; d < j->ndep; d++)
            if (j->dep[d] == seq) {
                job_finish(j, HIF_ST_ERROR, HIF_CAUSE_DEP_FAILED, seq);
                break;
            }
    }
}

/* The first free job slot (callers make sure there is one). */
static job_t *slot_alloc(void)
{
    for (uint32_t s = 0; s < FW_JOBS; s++)
        if ((cp_slot_free >> s) & 1u)
            return &cp_jobs[s];
    return 0;
}

/* ------------------------------------------------------------------ validation */
/* Returns the cause (HIF_CAUSE_NONE if the job is acceptable), detail in
 * *det; fills the job's queue and command-buffer fields. On the doorbell path:
 * every descriptor word is read once. */
__attribute__((noinline)) static uint32_t validate(const hif_job_t *__restrict d, job_t *__restrict j, uint32_t *det)
{
    uint32_t ctrl = d->ctrl;
    uint32_t ncb = (ctrl >> HIF_JOB_NCB_BP) & 0xFu, ndep = (ctrl >> HIF_JOB_NDEP_BP) & 0xFu;
    uint32_t nbuf = (ctrl >> HIF_JOB_NBUF_BP) & 0xFu;
    /* (on a failure the job never starts: its queue fields do not matter) */
    if (d->seq == 0u || (ctrl & HIF_JOB_RSVD_MASK) || ncb - 1u >= HIF_MAX_CBS || ndep > HIF_MAX_DEPS ||
        nbuf > HIF_MAX_BUFS || d->rsvd0) {
        *det = ctrl;
        return HIF_CAUSE_BAD_DESC;
    }
    /* buffers: [base, end) inside device memory or inside the host-memory window (the
     * end fits in 32 bits) */
    const uint32_t *bb = j->bb, *be = j->be;
    uint32_t hostb = 0u;
    for (uint32_t b = 0; b < nbuf; b++) {
        uint32_t base = d->buf[b].base, size = d->buf[b].size, off = base - TESSERA_HBM_BASE;
        uint32_t hoff = base - TESSERA_HOST_BASE;
        if (hoff < TESSERA_HOST_SIZE) {
            if (size == 0u || size > TESSERA_HOST_SIZE - hoff) {
                *det = b;
                return HIF_CAUSE_BUF_RANGE;
            }
            hostb |= 1u << b;
        } else if (size == 0u || off >= TESSERA_HBM_SIZE || size > TESSERA_HBM_SIZE - off) {
            *det = b;
            return HIF_CAUSE_BUF_RANGE;
        }
        j->bb[b] = base;
        j->be[b] = base + size;
    }
    j->nbuf = nbuf;
    j->hostb = hostb;
    uint32_t mask = 0u, present = cp_hif.eq_present;
    for (uint32_t c = 0; c < ncb; c++) {
        uint32_t eq = d->cb[c].eq, a = d->cb[c].addr, sz = d->cb[c].size;
        if (eq >= HIF_NUM_EQ || !(((present & ~mask) >> eq) & 1u)) {
            *det = (c << 8) | (eq & 0xFFu);
            return HIF_CAUSE_BAD_QUEUE;
        }
        mask |= 1u << eq;
        uint32_t inside = 0u;
        if (!((a | sz) & 7u) && sz != 0u)   /* (the queue managers fetch from device memory) */
            for (uint32_t b = 0; b < nbuf && !inside; b++)
                inside = !((hostb >> b) & 1u) && a >= bb[b] && a < be[b] && sz <= be[b] - a;
        if (!inside) {
            *det = c;
            return HIF_CAUSE_CB_RANGE;
        }
        j->eq[c] = (uint8_t)eq;
        j->cb_addr[c] = a;
        j->cb_size[c] = sz;
    }
    for (uint32_t k = 0; k < ndep; k++) {
        uint32_t dep = d->dep[k];
        if (dep == 0u || dep >= d->seq) {
            *det = k;
            return HIF_CAUSE_BAD_DEP;
        }
        j->dep[k] = dep;
    }
    j->ncb = (uint8_t)ncb;
    j->ndep = (uint8_t)ndep;
    j->eqmask = mask;
    j->mem = 0u;
    uint32_t d2 = pkt_check_job(j);
    *det = d2;
    return d2 ? HIF_CAUSE_PACKET : HIF_CAUSE_NONE;
}

/* ------------------------------------------------------------------ taking jobs */
static uint32_t free_slots(void)
{
    /* 0, 1 or "more than one" is all take_jobs needs */
    return cp_slot_free == 0u ? 0u : (cp_slot_free & (cp_slot_free - 1u)) == 0u ? 1u : 2u;
}

/* Take descriptors from the rings: the highest-priority non-empty ring first,
 * except that the last free slot goes to the oldest head of all rings (its
 * dependencies are all older, so they are taken or done: no deadlock). */
static void program_queues(job_t *j, uint32_t slot);
static void start_queues(job_t *j);
static void arm_done(job_t *j, uint32_t s);

/* The bookkeeping of a job just taken from ring q (slot ci) into slot s: started
 * already (fast), failed validation (cause), or waiting. */
static void take_commit(job_t *j, uint32_t s, uint32_t q, uint32_t ci, const hif_job_t *dsc, uint32_t cause,
                        uint32_t det, int fast)
{
    j->seq = dsc->seq;
    j->sq = (uint8_t)q;
    j->irq = (dsc->ctrl & HIF_JOB_IRQ) ? 1u : 0u;
    j->budget = dsc->budget ? dsc->budget : HIF_DEFAULT_BUDGET;
    j->t_submit = fast ? cp_hif.cnt.t_first_start : now32();
    j->mons = 0u;
    j->order = order_ctr++;
    cp_hif.sq_ci[q] = ci + 1u;
    cp_hif.cnt.jobs_taken++;
    if (cause != HIF_CAUSE_NONE) {
        j->ndep = 0;            /* not started: job_finish leaves the queues alone */
        j->t_start = 0u;        /* (the slot's previous job's otherwise) */
        set_state(j, J_NEW);
        job_finish(j, HIF_ST_ERROR, cause, det);
        return;
    }
    if (fast) {
        j->t_start = j->t_submit;
        j->n_inflight = 0u;
        cp_eq_busy |= j->eqmask;
        set_state(j, J_RUN);
        cp_hif.cnt.fw_starts++;
        arm_done(j, s);
    } else {
        j->t_start = 0u;
        set_state(j, J_WAIT);
    }
}

/* Take the descriptor at the head of ring q into a free slot (the caller makes
 * sure there is one): validate it, and start it at once when it can (before
 * any bookkeeping), else let it wait or end it with an error. */
static void take_one(uint32_t q)
{
    /* the descriptor is read in place: the host reuses the slot only
     * after sq_ci has moved past it (picolibc's memcpy is byte-wise) */
    uint32_t ci = cp_hif.sq_ci[q];
    const hif_job_t *dsc = &cp_hif.sq[q][ci % HIF_SQ_ENTRIES];
    job_t *j = slot_alloc();
    uint32_t det, slot = (uint32_t)(j - cp_jobs);
    uint32_t cause = validate(dsc, j, &det);
    /* nothing else waiting, no dependencies, queues free -> start now */
    int fast = cause == HIF_CAUSE_NONE && j->ndep == 0u && cp_n_wait == 0u && !(j->eqmask & cp_eq_busy) &&
               cp_mon_free != 0u;
    if (fast) {
        program_queues(j, slot);
        start_queues(j);
    }
    take_commit(j, slot, q, ci, dsc, cause, det, fast);
}

static void take_jobs(void)
{
    for (;;) {
        uint32_t nfree = free_slots();
        if (nfree == 0u || (cp_hif.sq_pi[0] == cp_hif.sq_ci[0] && cp_hif.sq_pi[1] == cp_hif.sq_ci[1] &&
                            cp_hif.sq_pi[2] == cp_hif.sq_ci[2] && cp_hif.sq_pi[3] == cp_hif.sq_ci[3]))
            return;
        int pick = -1;
        for (uint32_t q = 0; q < HIF_NUM_SQ; q++) {
            uint32_t pi = cp_hif.sq_pi[q], ci = cp_hif.sq_ci[q];
            if (pi - ci > HIF_SQ_ENTRIES) {
                /* the host overran the ring: its contents are lost; one error completion */
                cp_hif.sq_ci[q] = pi;
                job_t *j = slot_alloc();
                job_t nj = {0};
                nj.sq = (uint8_t)q;
                nj.irq = 1u;
                nj.t_submit = now32();
                nj.state = J_NEW;
                *j = nj;
                cp_slot_free &= ~(1u << (uint32_t)(j - cp_jobs));
                job_finish(j, HIF_ST_ERROR, HIF_CAUSE_SQ_OVERFLOW, q);
                pick = -2;
                break;
            }
            if (pi == ci)
                continue;
            if (pick < 0) {
                pick = (int)q;
                if (nfree > 1u)
                    break;
            } else if (cp_hif.sq[q][ci % HIF_SQ_ENTRIES].seq - cp_hif.sq[pick][cp_hif.sq_ci[pick] % HIF_SQ_ENTRIES].seq >
                       0x80000000u) {
                pick = (int)q;  /* older (sequence numbers compared modulo 2^32) */
            }
        }
        if (pick == -2)
            continue;   /* re-evaluate the free slots */
        if (pick < 0)
            return;
        uint32_t ci = cp_hif.sq_ci[pick];
        const hif_job_t *dsc = &cp_hif.sq[pick][ci % HIF_SQ_ENTRIES];
        if (HIF_JOB_KIND(dsc->ctrl) == HIF_KIND_NIC) {
            /* a NIC request (nic.c) takes no job slot; one that cannot complete
             * now (full completion ring) stops the taking until a later pass */
            if (!fw_nic_take((const hif_nic_req_t *)dsc, (uint32_t)pick))
                return;
            cp_hif.sq_ci[pick] = ci + 1u;
            cp_hif.cnt.jobs_taken++;
            continue;
        }
        take_one((uint32_t)pick);
    }
}

/* The doorbell fast path (cp_fast.S): the common case of take_jobs, on the
 * doorbell-to-start path (docs/hostlink.md, "Performance"); this wrapper does
 * the bookkeeping of a job it started. */
__attribute__((noinline)) static int take_fast(void)
{
    uint32_t r = cp_fast_start();
    if (UNLIKELY(!(r & FAST_TAKEN)))
        return 0;
    uint32_t slot = (r >> 1) & (FW_JOBS - 1u), q = (r >> 4) & (HIF_NUM_SQ - 1u), ci = cp_hif.sq_ci[q];
    job_t *j = &cp_jobs[slot];
    j->ndep = 0u;
    j->hostb = 0u;   /* the fast path takes device-memory buffers only */
    j->mem = (r & FAST_MEM) ? 1u : 0u;
    take_commit(j, slot, q, ci, &cp_hif.sq[q][ci % HIF_SQ_ENTRIES], HIF_CAUSE_NONE, 0u, 1);
    return 1;
}


/* ------------------------------------------------------------------ dispatch */
static void program_queues(job_t *j, uint32_t slot)
{
    for (uint32_t c = 0; c < j->ncb; c++) {
        uint32_t k = j->eq[c];
        QM(k, CB_BASE) = j->cb_addr[c];
        QM(k, CB_SIZE) = j->cb_size[c];
        QM(k, COMP_ADDR) = SOB_ADD_ADDR(SOB_DONE(slot));   /* COMP_DATA, CFG: set at start-up */
    }
}

/* CTRL.start of every queue of the job (the caller does the bookkeeping). */
static void start_queues(job_t *j)
{
    for (uint32_t c = 0; c < j->ncb; c++) {
        QM(j->eq[c], CTRL) = QMAN__CTRL__START_bm;
        if (c == 0u)
            cp_hif.cnt.t_first_start = now32();
    }
}

/* The done monitor: DONE(s) >= ncb raises SWIRQ HIF_SWIRQ_EVENT. Arming
 * evaluates the condition, so it may be armed after the queues started. */
static void arm_done(job_t *j, uint32_t s)
{
    int m = mon_alloc();
    j->mons |= 1u << m;
    uint32_t pay[2] = {SWIRQ_ADDR, 1u << HIF_SWIRQ_EVENT};
    mon_program((uint32_t)m, arm_word(SOB_DONE(s), j->ncb, 1u), pay, 1u);
}

/* Dependencies of job j: 1 all met or in flight (in flight ones listed in
 * inflight[]), 0 wait (one is not started or not taken yet), -1 one failed
 * (j has been finished with DEP_FAILED). */
static int deps_check(job_t *j, uint32_t *inflight, uint32_t *ni)
{
    *ni = 0u;
    for (uint32_t d = 0; d < j->ndep; d++) {
        uint32_t seq = j->dep[d];
        int found = -1;
        for (uint32_t t = 0; t < FW_JOBS; t++)
            if (cp_jobs[t].state != J_FREE && cp_jobs[t].state != J_POST && cp_jobs[t].seq == seq && &cp_jobs[t] != j) {
                found = (int)t;
                break;
            }
        if (found >= 0) {
            if (cp_jobs[found].state == J_WAIT)
                return 0;
            inflight[(*ni)++] = (uint32_t)found;
            continue;
        }
        int h = hist_find(seq);
        if (h == 2) {
            job_finish(j, HIF_ST_ERROR, HIF_CAUSE_DEP_FAILED, seq);
            return -1;
        }
        if (h == 0 && in_rings(seq))
            return 0;
        /* h == 1, or older than the history: completed */
    }
    return 1;
}

/* Arm or start job j (slot s) whose queues are free. 0 if monitors are short. */
static int dispatch(job_t *j, uint32_t s, const uint32_t *inflight, uint32_t ni)
{
    uint32_t need = 1u + (ni ? 1u + ni : 0u);
    if (cp_mon_free < need)
        return 0;
    /* DONE(s) and DEP(s) are 0 here (start-up, job_finish). Queues first and,
     * with nothing to wait for, started at once; the done monitor is armed
     * after the start: arming evaluates the condition, so a queue that has
     * already finished still fires it. */
    program_queues(j, s);
    cp_eq_busy |= j->eqmask;
    j->n_inflight = (uint8_t)ni;
    j->mons = 0u;
    if (ni == 0u) {
        start_queues(j);
        j->t_start = now32();
        set_state(j, J_RUN);
        cp_hif.cnt.fw_starts++;
        arm_done(j, s);
        return 1;
    }
    arm_done(j, s);
    uint32_t pay[8];
    int m;
    /* start monitor: DEP >= ni -> CTRL.start of every queue */
    for (uint32_t c = 0; c < j->ncb; c++) {
        pay[2u * c] = QM_ADDR(j->eq[c], CTRL);
        pay[2u * c + 1u] = QMAN__CTRL__START_bm;
    }
    m = mon_alloc();
    j->mons |= 1u << m;
    set_state(j, J_ARMED);
    mon_program((uint32_t)m, arm_word(SOB_DEP(s), ni, j->ncb), pay, j->ncb);
    /* edge monitors: a dependency's DONE reaches its queue count -> DEP += 1
     * (armed last: one fires at once if the dependency has already finished) */
    for (uint32_t k = 0; k < ni; k++) {
        pay[0] = SOB_ADD_ADDR(SOB_DEP(s));
        pay[1] = 1u;
        m = mon_alloc();
        j->mons |= 1u << m;
        mon_program((uint32_t)m, arm_word(SOB_DONE(inflight[k]), cp_jobs[inflight[k]].ncb, 1u), pay, 1u);
    }
    return 1;
}

/* Waiting jobs in (priority, arrival) order. A job whose dependencies are
 * ready but whose queues are busy claims them, so a later job cannot overtake
 * it on those queues; a job still waiting for dependencies claims nothing. */
static void dispatch_all(void)
{
    if (cp_n_wait == 0u)
        return;
    /* nothing to do while every queue a waiting job needs is busy (a job
     * whose dependency finished frees that job's queues too) */
    uint32_t want = 0u;
    for (uint32_t s = 0; s < FW_JOBS; s++)
        if (cp_jobs[s].state == J_WAIT)
            want |= cp_jobs[s].eqmask;
    if (!(want & ~cp_eq_busy))
        return;
    /* the waiting slots sorted by (ring, arrival): insertion sort of <= 8 */
    uint32_t list[FW_JOBS], n = 0u;
    for (uint32_t s = 0; s < FW_JOBS; s++) {
        const job_t *j = &cp_jobs[s];
        if (j->state != J_WAIT)
            continue;
        uint32_t k = n++;
        for (; k > 0u; k--) {
            const job_t *p = &cp_jobs[list[k - 1u]];
            if (p->sq < j->sq || (p->sq == j->sq && j->order - p->order < 0x80000000u))
                break;
            list[k] = list[k - 1u];
        }
        list[k] = s;
    }
    uint32_t claimed = cp_eq_busy;
    for (uint32_t i = 0; i < n; i++) {
        job_t *j = &cp_jobs[list[i]];
        if (j->state != J_WAIT)
            continue;   /* finished meanwhile (a failed dependency) */
        uint32_t inflight[HIF_MAX_DEPS], ni;
        if (deps_check(j, inflight, &ni) <= 0)
            continue;
        if (!(j->eqmask & claimed))
            dispatch(j, list[i], inflight, ni);
        claimed |= j->eqmask;
        if ((claimed & cp_hif.eq_present) == cp_hif.eq_present)
            return;   /* every queue taken */
    }
}

/* ------------------------------------------------------------------ progress */
/* qerr: look at the queues' error status (a queue-manager interrupt came, or
 * the tick); otherwise only the DONE/DEP objects are read. */
static void check_jobs(int qerr)
{
    uint32_t now = now32();
    for (uint32_t s = 0; s < FW_JOBS; s++) {
        job_t *j = &cp_jobs[s];
        if (j->state == J_POST) {
            if (cq_post(j))
                set_state(j, J_FREE);
            continue;
        }
        if (j->state != J_ARMED && j->state != J_RUN)
            continue;
        /* engine-queue errors */
        int failed = 0;
        for (uint32_t c = 0; c < j->ncb && !failed && qerr; c++) {
            uint32_t st = QM(j->eq[c], STATUS);
            uint32_t err = FIELD_GET(QMAN__STATUS__ERR, st);
            if (err) {
                cp_hif.cnt.qman_errors++;
                printf("fw: queue %lu error %lu at pc 0x%08lx\n", (unsigned long)j->eq[c], (unsigned long)err,
                       (unsigned long)QM(j->eq[c], PC));
                if (j->state == J_ARMED)
                    j->t_start = now;
                job_finish(j, HIF_ST_ERROR, HIF_CAUSE_QMAN, (c << 8) | err);
                failed = 1;
            }
        }
        if (failed)
            continue;
        if (j->state == J_ARMED) {
            if (MMIO32(SOB_SET_ADDR(SOB_DEP(s))) < j->n_inflight)
                continue;
            set_state(j, J_RUN);
            j->t_start = now;
            cp_hif.cnt.hw_starts++;
        }
        if (MMIO32(SOB_SET_ADDR(SOB_DONE(s))) >= j->ncb) {
            /* every buffer reached STOP; did an engine report an error? (the
             * DMA's STATUS.err belongs to its last transfer: buffers end with
             * an engine barrier, so it is final) */
            uint32_t det = 0u, cause = HIF_CAUSE_NONE;
            for (uint32_t c = 0; c < j->ncb && cause == HIF_CAUSE_NONE; c++) {
                uint32_t a = eng_status[j->eq[c]], msk = eng_errmask[j->eq[c]];
                uint32_t err = a ? (MMIO32(a) & msk) >> __builtin_ctz(msk) : 0u;
                if (err) {
                    cause = HIF_CAUSE_ENGINE;
                    det = (c << 8) | err;
                }
            }
            job_finish(j, cause ? HIF_ST_ERROR : HIF_ST_OK, cause, det);
            continue;
        }
        if (now - j->t_start > j->budget)
            job_finish(j, HIF_ST_ABORTED, HIF_CAUSE_WATCHDOG, now - j->t_start);
    }
}

/* ------------------------------------------------------------------ interrupts */
static void event_isr(uint32_t src)
{
    intc_swirq_clear(src - INTC_SRC_SWIRQ(0));
    fw_events = fw_events | FW_EV_ENGINE;
}

static volatile uint32_t qman_irq;

static void qman_isr(uint32_t src)
{
    intc_disable(src);   /* level: re-enabled once the queue has been reset */
    qman_irq = 1u;
    fw_events = fw_events | FW_EV_ENGINE;
}

/* Called by the scheduler loop right after wfi (interrupts still masked): a
 * job event that woke the core is taken here, without the trap. */
uint32_t fw_cp_wake(uint32_t pending)
{
    if (!(pending & (1u << INTC_SRC_SWIRQ(HIF_SWIRQ_EVENT))))
        return 0u;
    intc_swirq_clear(HIF_SWIRQ_EVENT);
    return FW_EV_ENGINE;
}

void fw_cp_note_doorbell(void)
{
    cp_hif.cnt.t_doorbell = now32();
    cp_hif.cnt.doorbells++;
}

void fw_cp_doorbell(void)
{
    cp_hif.cnt.t_doorbell = now32();
    take_fast();   /* (cp_hif.cnt.doorbells: fw_cp_poll, FW_EV_DB_FAST) */
}

void fw_cp_init(void)
{
    cp_hif.version = HIF_VERSION;
    cp_hif.nsq = HIF_NUM_SQ;
    cp_hif.sq_entries = HIF_SQ_ENTRIES;
    cp_hif.cq_entries = HIF_CQ_ENTRIES;
    cp_hif.max_cbs = HIF_MAX_CBS;
    cp_hif.fw_sob_base = FW_SOB_BASE;
    cp_hif.fw_sob_count = 16u;
    cp_hif.fw_mon_base = FW_MON_BASE;
    cp_hif.fw_mon_count = FW_MONS;
    /* which engine queues exist: a read of an absent slot faults */
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, probe_trap);
    uint32_t present = 0u, dma = 0u;
    if (probe(TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, INFO))) {
        for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
            if (probe(QM_ADDR(k, STATUS)))
                present |= 1u << k;
    }
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, 0);
#ifdef TESSERA_QMAN_SLOT_DMA
    for (uint32_t d = 0; d < TESSERA_DMA_ENGINES; d++)
        dma |= 1u << (TESSERA_QMAN_SLOT_DMA + d);
#endif
    dma &= present;
#ifdef TESSERA_QMAN_SLOT_MME
    /* engines behind the queues whose STATUS.err ([15:8]) is checked after a job */
    for (uint32_t i = 0; i < TESSERA_NUM_MME; i++) {
        eng_status[TESSERA_QMAN_SLOT_MME + i] = TESSERA_MME_ADDR(i) + (uint32_t)offsetof(mme_t, STATUS);
        eng_errmask[TESSERA_QMAN_SLOT_MME + i] = MME__STATUS__ERR_bm;
        eng_msgctrl[TESSERA_QMAN_SLOT_MME + i] = TESSERA_MME_ADDR(i) + (uint32_t)offsetof(mme_t, MSG_CTRL);
        cp_eng_kind[TESSERA_QMAN_SLOT_MME + i] = ENG_MME;
    }
    for (uint32_t d = 0; d < TESSERA_DMA_ENGINES; d++) {
        eng_status[TESSERA_QMAN_SLOT_DMA + d] = TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, STATUS);
        eng_errmask[TESSERA_QMAN_SLOT_DMA + d] = DMA__STATUS__ERR_bm;
        eng_msgctrl[TESSERA_QMAN_SLOT_DMA + d] = TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, MSG_CTRL);
        cp_eng_kind[TESSERA_QMAN_SLOT_DMA + d] = ENG_DMA;
    }
#if __has_include("regs/tpc_regs.h")
    eng_status[TESSERA_QMAN_SLOT_TPC] = TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, STATUS);
    eng_errmask[TESSERA_QMAN_SLOT_TPC] = TPC__STATUS__ERR_bm;
    eng_msgctrl[TESSERA_QMAN_SLOT_TPC] = TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, MSG_CTRL);
    cp_eng_kind[TESSERA_QMAN_SLOT_TPC] = ENG_TPC;
#endif
#endif
    /* an engine whose registers are not in this chip (a queue slot without its
     * engine, e.g. the TPC cluster before it is wired) is not checked */
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, probe_trap);
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (!((present >> k) & 1u) || (eng_status[k] && !probe(eng_status[k])))
            eng_status[k] = eng_msgctrl[k] = 0u;
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, 0);
    cp_hif.eq_present = present;
    cp_hif.eq_dma = dma;
    cp_fast_eq_ok = present;
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (((dma >> k) & 1u) && cp_eng_kind[k] == ENG_DMA)
            cp_fast_eq_dma |= 1u << k;
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++) {
        if (!((present >> k) & 1u))
            continue;
        QM(k, CTRL) = QMAN__CTRL__RESET_bm;
        QM(k, SOB_SET_BASE) = SOB_SET_ADDR(0);
        QM(k, SOB_ADD_BASE) = SOB_ADD_ADDR(0);
        QM(k, LDMA_OFF) = 0u;
        QM(k, COMP_DATA) = 1u;
        QM(k, CFG) = QMAN__CFG__COMP_EN_bm | (((dma >> k) & 1u) ? QMAN__CFG__DMA_bm : 0u);
    }
    if (present) {
        for (uint32_t i = 0; i < FW_MONS; i++)
            MON_WORD(FW_MON_BASE + i, MON_ARM_WORD) = 0u;
        for (uint32_t i = 0; i < 16u; i++)
            MMIO32(SOB_SET_ADDR(FW_SOB_BASE + i)) = 0u;
        intc_set_handler(INTC_SRC_QMAN, qman_isr);
        intc_enable(INTC_SRC_QMAN);
    }
    intc_set_handler(INTC_SRC_SWIRQ(HIF_SWIRQ_EVENT), event_isr);
    intc_enable(INTC_SRC_SWIRQ(HIF_SWIRQ_EVENT));
    intc_host_enable(INTC_SRC_SWIRQ(HIF_SWIRQ_HOST));
    fw_nic_init();
    __asm__ volatile("" ::: "memory");
    cp_hif.magic = HIF_MAGIC;
    SYSCTRL_REG(SCRATCH3) = (uint32_t)(uintptr_t)&cp_hif;
    printf("fw: host interface at 0x%08lx, engine queues 0x%04lx (dma 0x%04lx)\n", (unsigned long)(uintptr_t)&cp_hif,
           (unsigned long)present, (unsigned long)dma);
}

#define DOORBELL_BIT (1u << INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ))
static void poll_once(uint32_t events);

__attribute__((noinline)) static void poll_pass(uint32_t events);

void fw_cp_poll(uint32_t events)
{
    cp_hif.cnt.polls++;
    if (events & FW_EV_DB_FAST)
        cp_hif.cnt.doorbells++;   /* fw_cp_doorbell took it */
    else if (events & FW_EV_DOORBELL)
        take_fast();  /* first: a job that can start at once is started here */
    poll_pass(events);
}

static void poll_pass(uint32_t events)
{
    /* doorbells that ring during the pass are picked up at its end instead of
     * interrupting it (each interrupt costs ~150 instructions of trap code) */
    take_jobs();
    dispatch_all();
    intc_disable(INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ));
    for (;;) {
        poll_once(events);
        if (!(INTC_REG(PENDING) & DOORBELL_BIT))
            break;
        intc_swirq_clear(FW_DOORBELL_SWIRQ);
        fw_doorbells = fw_doorbells + 1u;
        fw_cp_note_doorbell();
        events = FW_EV_DOORBELL;
        cp_hif.cnt.polls++;
        take_jobs();
        dispatch_all();
    }
    intc_enable(INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ));
}

/* The rest of a scheduler pass (after take_jobs + dispatch_all). */
static void poll_once(uint32_t events)
{
    if (!(events & (FW_EV_ENGINE | FW_EV_TICK)))
        return;   /* a doorbell only: nothing can have finished */
    int qerr = qman_irq || (events & FW_EV_TICK);
    qman_irq = 0u;
    check_jobs(qerr);
    fw_nic_poll();   /* WRITE completions of the NIC ports */
    /* a finished job may free queues for waiting ones, and slots for new ones */
    take_jobs();
    dispatch_all();
    if (qerr && cp_hif.eq_present) {
        /* an error on a queue no job owns (started by someone else): reset it */
        for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
            if (((cp_hif.eq_present & ~cp_eq_busy) >> k) & 1u && FIELD_GET(QMAN__STATUS__ERR, QM(k, STATUS)))
                QM(k, CTRL) = QMAN__CTRL__RESET_bm;
        intc_enable(INTC_SRC_QMAN);
    }
}

void fw_cp_print(void)
{
    printf("fw: jobs taken %lu ok %lu error %lu aborted %lu, starts fw %lu hw %lu, queue errors %lu, cq stalls %lu\n",
           (unsigned long)cp_hif.cnt.jobs_taken, (unsigned long)cp_hif.cnt.jobs_ok, (unsigned long)cp_hif.cnt.jobs_error,
           (unsigned long)cp_hif.cnt.jobs_aborted, (unsigned long)cp_hif.cnt.fw_starts, (unsigned long)cp_hif.cnt.hw_starts,
           (unsigned long)cp_hif.cnt.qman_errors, (unsigned long)cp_hif.cnt.cq_stalls);
}
