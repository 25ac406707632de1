/* Tessera firmware: control-path scheduler (docs/firmware.md, docs/hostlink.md).
 *
 * Jobs come from the host's submission rings (bsp/include/tessera/hostif.h) in
 * the host-interface block below, published in SYSCTRL.SCRATCH3. Each job is a
 * list of command buffers, each for one engine queue (QMAN slot), plus
 * dependencies on earlier jobs. The scheduler
 *   - takes jobs on doorbells (highest-priority ring first), validates them
 *     (counts, engine queues, buffers inside device memory, command buffers
 *     inside the job's buffers, dependencies) -> error completion otherwise;
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
#include "../tests/golden/cp_model.h"   /* packet encoding (opcodes, header bits, error codes) */
#include "tessera/tessera.h"
#include "fw.h"

/* the scheduler is on the doorbell-to-engine path: optimise it for speed */
#pragma GCC optimize("O2")

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
#define HIST         64u

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
    uint32_t mem;                   /* an engine of the job may touch memory through an L2 slice */
} job_t;

static hif_block_t hif __attribute__((aligned(64)));
static job_t jobs[FW_JOBS];
static uint32_t eq_busy;            /* engine queues owned by an armed/running job */
static uint32_t mon_used;           /* firmware monitors in use */
static uint32_t mon_free = FW_MONS;
static uint32_t order_ctr;
static struct { uint32_t seq; uint8_t status; } hist[HIST];
static uint32_t hist_n;
static volatile uint32_t probe_fault;
static uint32_t eng_status[HIF_NUM_EQ];   /* address of the engine's STATUS register (0: none known) */
static uint32_t eng_errmask[HIF_NUM_EQ];  /* its error-code field */
enum { ENG_OTHER = 0, ENG_MME, ENG_DMA };
static uint8_t eng_kind[HIF_NUM_EQ];      /* which register semantics the packet check applies */
static uint32_t slot_free = (1u << FW_JOBS) - 1u;  /* bit s: jobs[s] is J_FREE */
static uint32_t n_wait;                           /* jobs in J_WAIT */

/* Every state change goes through here (keeps slot_free and n_wait). */
static void set_state(job_t *j, uint32_t st)
{
    uint32_t bit = 1u << (uint32_t)(j - jobs);
    if (j->state == J_WAIT)
        n_wait--;
    if (st == J_WAIT)
        n_wait++;
    if (st == J_FREE)
        slot_free |= bit;
    else
        slot_free &= ~bit;
    j->state = (uint8_t)st;
}

static inline uint32_t now32(void) { return CLINT_REG(MTIME_LO); }

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
        for (uint32_t i = hif.sq_ci[q]; i != hif.sq_pi[q] && i - hif.sq_ci[q] < HIF_SQ_ENTRIES; i++)
            if (hif.sq[q][i % HIF_SQ_ENTRIES].seq == seq)
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
        mon_free--;
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
        mon_free++;
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
    if (hif.cq_pi - hif.cq_ci >= HIF_CQ_ENTRIES)
        return 0;
    volatile hif_cqe_t *e = &hif.cq[hif.cq_pi % HIF_CQ_ENTRIES];
    e->seq = j->seq;
    e->detail = j->detail;
    e->sq = j->sq;
    e->t_submit = j->t_submit;
    e->t_start = j->t_start;
    e->t_end = j->t_end;
    e->rsvd = 0u;
    __asm__ volatile("" ::: "memory");
    e->flags = HIF_CQE_FLAGS(j->status, j->cause);
    __asm__ volatile("" ::: "memory");
    hif.cq_pi = hif.cq_pi + 1u;
    if (j->irq)
        intc_swirq_raise(HIF_SWIRQ_HOST);
    return 1;
}

static void fail_dependents(uint32_t seq);

/* End job j (any state): status/cause/detail, queue resets for errors. The
 * entry is posted now or, with a full completion ring, later (J_POST). */
static void job_finish(job_t *j, uint32_t status, uint32_t cause, uint32_t detail)
{
    uint32_t slot = (uint32_t)(j - jobs);
    int started = j->state == J_ARMED || j->state == J_RUN;
    j->status = (uint8_t)status;
    j->cause = (uint8_t)cause;
    j->detail = detail;
    j->t_end = now32();
    if (started) {
        if (j->mem)   /* (a job of control packets only leaves no line in a slice) */
            l2_maint_all(2u);  /* INVALIDATE: results visible to the host, slices empty */
        mons_release(j);
        if (status != HIF_ST_OK)
            for (uint32_t c = 0; c < j->ncb; c++)
                QM(j->eq[c], CTRL) = QMAN__CTRL__RESET_bm;
        eq_busy &= ~j->eqmask;
        MMIO32(SOB_SET_ADDR(SOB_DONE(slot))) = 0u;
        MMIO32(SOB_SET_ADDR(SOB_DEP(slot))) = 0u;
    }
    if (status == HIF_ST_OK)
        hif.cnt.jobs_ok++;
    else if (status == HIF_ST_ABORTED)
        hif.cnt.jobs_aborted++;
    else
        hif.cnt.jobs_error++;
    if (status != HIF_ST_OK)
        log_error(j);
    hist_add(j->seq, status);
    set_state(j, J_POST);
    if (cq_post(j))
        set_state(j, J_FREE);
    else
        hif.cnt.cq_stalls++;
    if (status != HIF_ST_OK)
        fail_dependents(j->seq);
}

static void fail_dependents(uint32_t seq)
{
    for (uint32_t s = 0; s < FW_JOBS; s++) {
        job_t *j = &jobs[s];
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
        if ((slot_free >> s) & 1u)
            return &jobs[s];
    return 0;
}

/* ------------------------------------------------------------------ packet check
 * Before a job starts, every packet of every command buffer is read from device
 * memory and checked (docs/hostlink.md, "Packet check"): what the queue manager
 * would refuse (so it is refused before anything of the job ran), plus every
 * address a packet makes something write or read: MSG_LONG targets and engine
 * message addresses (a job buffer, a Sync-Manager object below the firmware's, or
 * a queue's fence counter), MSG_SHORT objects (not the firmware's), LIN_DMA ranges,
 * and the engine register values that start a transfer (DMA descriptor at go, MME
 * operands at commit): the whole footprint inside one of the job's buffers. Engine
 * registers are followed per buffer from zero: an address the buffer did not write
 * itself is 0 and refused. */
#define SHADOW_WORDS 32u
typedef struct {
    uint32_t r[SHADOW_WORDS];       /* engine registers written so far (offset / 4) */
    uint32_t written;               /* bit i: r[i] valid (else the value is 0) */
} shadow_t;
#define SH_IDX(type, reg) (offsetof(type, reg) / 4u)
#define SH(sh, type, reg) (((sh)->written >> SH_IDX(type, reg)) & 1u ? (sh)->r[SH_IDX(type, reg)] : 0u)

/* [lo, hi) non-empty and inside one of the job's buffers */
static int in_bufs(const job_t *j, uint32_t lo, uint32_t hi)
{
    for (uint32_t b = 0; b < j->nbuf; b++)
        if (lo >= j->bb[b] && hi <= j->be[b] && hi > lo)
            return 1;
    return 0;
}

static int msg_target_ok(const job_t *j, uint32_t a)
{
    if (a & 3u)
        return 0;
    if (a <= 0xFFFFFFFBu && in_bufs(j, a, a + 4u))
        return 1;
    if (a - SOB_SET_ADDR(0) < 4u * FW_SOB_BASE || a - SOB_ADD_ADDR(0) < 4u * FW_SOB_BASE)
        return 1;
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (((hif.eq_present >> k) & 1u) && a - QM_ADDR(k, FENCE) < 4u * CP_FENCES)
            return 1;
    return 0;
}

/* Rows x planes of `size` bytes from base (row stride s1, plane stride s2) inside
 * one job buffer; 32-bit arithmetic with overflow checks (mulhu on RV32IM). */
static int range_ok(const job_t *j, uint32_t base, uint32_t size, uint32_t c1, uint32_t s1, uint32_t c2,
                    uint32_t s2)
{
    uint32_t a, b, hi;
    if (size == 0u || c1 == 0u || c2 == 0u)
        return 0;
    if (__builtin_mul_overflow(c1 - 1u, s1, &a) || __builtin_mul_overflow(c2 - 1u, s2, &b) ||
        __builtin_add_overflow(a, b, &a) || __builtin_add_overflow(a, size, &a) ||
        __builtin_add_overflow(base, a, &hi))
        return 0;
    return in_bufs(j, base, hi);
}

static int dma_go_ok(const job_t *j, const shadow_t *sh, uint32_t ctrl)
{
    uint32_t mode = (ctrl & DMA__CTRL__MODE_bm) >> DMA__CTRL__MODE_bp;
    uint32_t src = SH(sh, dma_t, SRC), dst = SH(sh, dma_t, DST), size = SH(sh, dma_t, SIZE);
    uint32_t c1 = SH(sh, dma_t, COUNT1), c2 = SH(sh, dma_t, COUNT2);
    if (mode == 0u)
        return range_ok(j, dst, size, 1u, 0u, 1u, 0u) && range_ok(j, src, size, 1u, 0u, 1u, 0u);
    if (mode == 3u) {  /* transpose: COUNT1 rows of SIZE bytes -> SIZE/e rows of COUNT1 elements */
        uint32_t e = (ctrl & DMA__CTRL__ESIZE_bm) ? 4u : 2u;
        return c1 <= 0xFFFFu && range_ok(j, dst, c1 * e, size / e, SH(sh, dma_t, DST_STRIDE1), 1u, 0u) &&
               range_ok(j, src, size, c1, SH(sh, dma_t, SRC_STRIDE1), 1u, 0u);
    }
    return range_ok(j, dst, size, c1, SH(sh, dma_t, DST_STRIDE1), c2, SH(sh, dma_t, DST_STRIDE2)) &&
           (mode == 2u || range_ok(j, src, size, c1, SH(sh, dma_t, SRC_STRIDE1), c2, SH(sh, dma_t, SRC_STRIDE2)));
}

static uint32_t mme_eb(uint32_t t) { return t == 0u ? 4u : t <= 2u ? 2u : 1u; }

static int mme_commit_ok(const job_t *j, const shadow_t *sh)
{
    uint32_t dt = SH(sh, mme_t, DTYPE), m = SH(sh, mme_t, DIM_M), n = SH(sh, mme_t, DIM_N), k = SH(sh, mme_t, DIM_K);
    uint32_t ea = mme_eb((dt & MME__DTYPE__A_TYPE_bm) >> MME__DTYPE__A_TYPE_bp);
    uint32_t eb = mme_eb((dt & MME__DTYPE__B_TYPE_bm) >> MME__DTYPE__B_TYPE_bp);
    uint32_t ec = mme_eb((dt & MME__DTYPE__C_TYPE_bm) >> MME__DTYPE__C_TYPE_bp);
    uint32_t a = SH(sh, mme_t, A_ADDR), b = SH(sh, mme_t, B_ADDR), c = SH(sh, mme_t, C_ADDR);
    uint32_t lda = SH(sh, mme_t, LDA), ldb = SH(sh, mme_t, LDB), ldc = SH(sh, mme_t, LDC);
    int ta = (dt & MME__DTYPE__A_TRANS_bm) != 0u, tb = (dt & MME__DTYPE__B_TRANS_bm) != 0u;
    if ((m | n | k) > 0xFFFFu)
        return 0;
    return (ta ? range_ok(j, a, m * ea, k, lda, 1u, 0u) : range_ok(j, a, k * ea, m, lda, 1u, 0u)) &&
           (tb ? range_ok(j, b, k * eb, n, ldb, 1u, 0u) : range_ok(j, b, n * eb, k, ldb, 1u, 0u)) &&
           range_ok(j, c, n * ec, m, ldc, 1u, 0u) &&
           (!(dt & MME__DTYPE__BIAS_EN_bm) || range_ok(j, SH(sh, mme_t, BIAS_ADDR), 4u * n, 1u, 0u, 1u, 0u));
}

/* One register write of the buffer to engine `kind`: 0 or a reason. */
static uint32_t reg_write(job_t *j, uint32_t kind, shadow_t *sh, uint32_t off, uint32_t v)
{
    if (kind == ENG_OTHER) {
        j->mem = 1u;   /* (the TPC's registers are not followed: see docs) */
        return 0u;
    }
    if (off / 4u < SHADOW_WORDS) {
        sh->r[off / 4u] = v;
        sh->written |= 1u << (off / 4u);
    }
    /* at a go/commit: the footprint, and the completion message's target if the
     * buffer enabled it */
    if (kind == ENG_DMA) {
        if (off == offsetof(dma_t, CTRL) && (v & DMA__CTRL__GO_bm)) {
            j->mem = 1u;
            if (!dma_go_ok(j, sh, v))
                return HIF_PKT_DMA_RANGE;
            if ((SH(sh, dma_t, MSG_CTRL) & DMA__MSG_CTRL__EN_bm) && !msg_target_ok(j, SH(sh, dma_t, MSG_ADDR)))
                return HIF_PKT_MSG_TARGET;
        }
    } else if (off == offsetof(mme_t, CTRL) && (v & MME__CTRL__COMMIT_bm)) {
        j->mem = 1u;
        if (!mme_commit_ok(j, sh))
            return HIF_PKT_MME_RANGE;
        if ((SH(sh, mme_t, MSG_CTRL) & MME__MSG_CTRL__EN_bm) && !msg_target_ok(j, SH(sh, mme_t, MSG_ADDR)))
            return HIF_PKT_MSG_TARGET;
    }
    return 0u;
}

#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CB_CHECK_MAX ((1u << 20) - 8u)   /* offsets fit the 20-bit detail field */

/* The system-bus bridge's read buffer (docs/fabric.md): on while the command
 * buffers are checked, so each 64-byte block of a buffer is one device-memory
 * read (a snapshot, as if its words were read at once). */
static inline void rdbuf(uint32_t on)
{
#ifndef FW_TMP_NO_RDBUF
    SYSCTRL_REG(SYSBUS_CTRL) = on ? SYSCTRL__SYSBUS_CTRL__RDBUF_bm : 0u;
#else
    (void)on;
#endif
}

/* [base, base + size) non-empty, no wrap, inside one job buffer (range_ok of one row) */
__attribute__((always_inline)) static inline int lin_ok(const job_t *j, uint32_t base, uint32_t size)
{
    uint32_t hi = base + size;
    if (size == 0u || hi < base)
        return 0;
    for (uint32_t b = 0; b < j->nbuf; b++)
        if (base >= j->bb[b] && hi <= j->be[b])
            return 1;
    return 0;
}

/* A LIN_DMA on a DMA engine's queue: the four register writes SRC, DST, SIZE and
 * CTRL = GO (linear mode) of reg_write, inline (the doorbell path). */
static uint32_t lin_dma_check(job_t *j, shadow_t *sh, uint32_t size, uint32_t src, uint32_t dst)
{
    sh->r[SH_IDX(dma_t, SRC)] = src;
    sh->r[SH_IDX(dma_t, DST)] = dst;
    sh->r[SH_IDX(dma_t, SIZE)] = size;
    sh->r[SH_IDX(dma_t, CTRL)] = DMA__CTRL__GO_bm;
    sh->written |= (1u << SH_IDX(dma_t, SRC)) | (1u << SH_IDX(dma_t, DST)) | (1u << SH_IDX(dma_t, SIZE)) |
                   (1u << SH_IDX(dma_t, CTRL));
    j->mem = 1u;
    if (!lin_ok(j, dst, size) || !lin_ok(j, src, size))
        return HIF_PKT_DMA_RANGE;
    if ((SH(sh, dma_t, MSG_CTRL) & DMA__MSG_CTRL__EN_bm) && !msg_target_ok(j, SH(sh, dma_t, MSG_ADDR)))
        return HIF_PKT_MSG_TARGET;
    return 0u;
}

/* Command buffer c of job j: 0 if every packet passes, else HIF_PKT_DETAIL.
 * The checks of a packet, in order: reserved header bits, opcode, length
 * (WREG_BULK count first), then the packet's own fields. */
__attribute__((noinline)) static uint32_t pkt_check(job_t *j, uint32_t c)
{
    const volatile uint32_t *w = (const volatile uint32_t *)(uintptr_t)j->cb_addr[c];
    uint32_t n = j->cb_size[c], eq = j->eq[c], kind = eng_kind[eq];
    shadow_t sh;
    if (n > CB_CHECK_MAX)
        return HIF_PKT_DETAIL(c, HIF_PKT_TOO_LONG, 0u);
    sh.written = 0u;
    uint32_t off = 0u, why;
    for (;; off += 8u) {
        if (off >= n)
            return HIF_PKT_DETAIL(c, CP_ERR_NO_STOP, n);
        const volatile uint32_t *p = &w[off / 4u];
        uint32_t h = p[0], arg = h >> 16;
        if (h & CP_HDR_RSVD_MASK) {
            why = CP_ERR_RESERVED;
            break;
        }
        switch (h & 0xFFu) {
        case CP_OP_STOP:
            return 0u;
        case CP_OP_NOP:
        case CP_OP_WAIT:
            continue;
        case CP_OP_FENCE:
            if (arg < CP_FENCES)
                continue;
            why = CP_ERR_BAD_FENCE;
            break;
        case CP_OP_MSG_SHORT:
            if (arg < FW_SOB_BASE)
                continue;
            why = HIF_PKT_FW_OBJECT;
            break;
        case CP_OP_LIN_DMA:
            if (n - off < 16u)
                why = CP_ERR_TRUNCATED;
            else if (!((hif.eq_dma >> eq) & 1u))
                why = CP_ERR_NOT_DMA;
            else if (kind == ENG_DMA)
                why = lin_dma_check(j, &sh, p[1], p[2], p[3]);
            else if (!(why = reg_write(j, kind, &sh, offsetof(dma_t, SRC), p[2])) &&
                     !(why = reg_write(j, kind, &sh, offsetof(dma_t, DST), p[3])) &&
                     !(why = reg_write(j, kind, &sh, offsetof(dma_t, SIZE), p[1])))
                why = reg_write(j, kind, &sh, offsetof(dma_t, CTRL), DMA__CTRL__GO_bm);
            if (why)
                break;
            off += 8u;
            continue;
        case CP_OP_MSG_LONG: {
            if (n - off < 16u) {
                why = CP_ERR_TRUNCATED;
                break;
            }
            uint32_t a = p[2];
            if (a & 3u)
                why = CP_ERR_MSG_ALIGN;
            else if (!msg_target_ok(j, a))
                why = HIF_PKT_MSG_TARGET;
            else {
                off += 8u;
                continue;
            }
            break;
        }
        case CP_OP_WREG32:
            if ((arg & 3u) || arg + 4u > 0x10000u)
                why = CP_ERR_REG_RANGE;
            else
                why = reg_write(j, kind, &sh, arg, p[1]);
            if (why)
                break;
            continue;
        case CP_OP_WREG_BULK: {
            uint32_t cnt = p[1], len;
            if (cnt == 0u || cnt > CP_BULK_MAX) {
                why = CP_ERR_BULK_COUNT;
                break;
            }
            len = 8u + 8u * ((cnt + 1u) / 2u);
            if (len > n - off)
                why = CP_ERR_TRUNCATED;
            else if ((arg & 3u) || arg + 4u * cnt > 0x10000u)
                why = CP_ERR_REG_RANGE;
            else
                for (uint32_t i = 0; i < cnt && !why; i++)
                    why = reg_write(j, kind, &sh, arg + 4u * i, p[2u + i]);
            if (why)
                break;
            off += len - 8u;
            continue;
        }
        default:
            why = CP_ERR_OPCODE;
            break;
        }
        break;
    }
    return HIF_PKT_DETAIL(c, why, off);
}

/* Every command buffer of job j (HIF_PKT_DETAIL of the first refused packet, or
 * 0), read with the bridge's read buffer on. */
__attribute__((noinline)) static uint32_t check_cbs(job_t *j)
{
    uint32_t d = 0u;
    rdbuf(1u);
    for (uint32_t c = 0; c < j->ncb && !d; c++)
        d = pkt_check(j, c);
    rdbuf(0u);
    return d;
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
    /* buffers: [base, end) inside device memory (the end fits in 32 bits) */
    const uint32_t *bb = j->bb, *be = j->be;
    for (uint32_t b = 0; b < nbuf; b++) {
        uint32_t base = d->buf[b].base, size = d->buf[b].size, off = base - TESSERA_HBM_BASE;
        if (size == 0u || off >= TESSERA_HBM_SIZE || size > TESSERA_HBM_SIZE - off) {
            *det = b;
            return HIF_CAUSE_BUF_RANGE;
        }
        j->bb[b] = base;
        j->be[b] = base + size;
    }
    j->nbuf = nbuf;
    uint32_t mask = 0u, present = hif.eq_present;
    for (uint32_t c = 0; c < ncb; c++) {
        uint32_t eq = d->cb[c].eq, a = d->cb[c].addr, sz = d->cb[c].size;
        if (eq >= HIF_NUM_EQ || !(((present & ~mask) >> eq) & 1u)) {
            *det = (c << 8) | (eq & 0xFFu);
            return HIF_CAUSE_BAD_QUEUE;
        }
        mask |= 1u << eq;
        uint32_t inside = 0u;
        if (!((a | sz) & 7u) && sz != 0u)
            for (uint32_t b = 0; b < nbuf && !inside; b++)
                inside = a >= bb[b] && a < be[b] && sz <= be[b] - a;
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
    uint32_t d2 = check_cbs(j);
    *det = d2;
    return d2 ? HIF_CAUSE_PACKET : HIF_CAUSE_NONE;
}

/* ------------------------------------------------------------------ taking jobs */
static uint32_t free_slots(void)
{
    /* 0, 1 or "more than one" is all take_jobs needs */
    return slot_free == 0u ? 0u : (slot_free & (slot_free - 1u)) == 0u ? 1u : 2u;
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
    j->t_submit = fast ? hif.cnt.t_first_start : now32();
    j->mons = 0u;
    j->order = order_ctr++;
    hif.sq_ci[q] = ci + 1u;
    hif.cnt.jobs_taken++;
    if (cause != HIF_CAUSE_NONE) {
        j->ndep = 0;            /* not started: job_finish leaves the queues alone */
        set_state(j, J_NEW);
        job_finish(j, HIF_ST_ERROR, cause, det);
        return;
    }
    if (fast) {
        j->t_start = j->t_submit;
        j->n_inflight = 0u;
        eq_busy |= j->eqmask;
        set_state(j, J_RUN);
        hif.cnt.fw_starts++;
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
    uint32_t ci = hif.sq_ci[q];
    const hif_job_t *dsc = &hif.sq[q][ci % HIF_SQ_ENTRIES];
    job_t *j = slot_alloc();
    uint32_t det, slot = (uint32_t)(j - jobs);
    uint32_t cause = validate(dsc, j, &det);
    /* nothing else waiting, no dependencies, queues free -> start now */
    int fast = cause == HIF_CAUSE_NONE && j->ndep == 0u && n_wait == 0u && !(j->eqmask & eq_busy) &&
               mon_free != 0u;
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
        if (nfree == 0u || (hif.sq_pi[0] == hif.sq_ci[0] && hif.sq_pi[1] == hif.sq_ci[1] &&
                            hif.sq_pi[2] == hif.sq_ci[2] && hif.sq_pi[3] == hif.sq_ci[3]))
            return;
        int pick = -1;
        for (uint32_t q = 0; q < HIF_NUM_SQ; q++) {
            uint32_t pi = hif.sq_pi[q], ci = hif.sq_ci[q];
            if (pi - ci > HIF_SQ_ENTRIES) {
                /* the host overran the ring: its contents are lost; one error completion */
                hif.sq_ci[q] = pi;
                job_t *j = slot_alloc();
                job_t nj = {0};
                nj.sq = (uint8_t)q;
                nj.irq = 1u;
                nj.t_submit = now32();
                nj.state = J_NEW;
                *j = nj;
                slot_free &= ~(1u << (uint32_t)(j - jobs));
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
            } else if (hif.sq[q][ci % HIF_SQ_ENTRIES].seq - hif.sq[pick][hif.sq_ci[pick] % HIF_SQ_ENTRIES].seq >
                       0x80000000u) {
                pick = (int)q;  /* older (sequence numbers compared modulo 2^32) */
            }
        }
        if (pick == -2)
            continue;   /* re-evaluate the free slots */
        if (pick < 0)
            return;
        take_one((uint32_t)pick);
    }
}

/* The doorbell fast path: the common case of take_jobs, written for the fewest
 * instructions between the doorbell and the first CTRL.start (docs/hostlink.md,
 * "Performance"). It takes the job take_jobs would take next (two or more free
 * slots: the head of the first non-empty ring, in the lowest free slot) only if
 * that job would start at once (no dependencies, nothing waiting, its queues
 * free, a monitor free) and every packet of its buffers is of the few kinds
 * checked here (NOP, WAIT, FENCE, MSG_SHORT, LIN_DMA on a DMA engine's queue,
 * STOP) and passes the same checks as in pkt_check. Anything else, or any error:
 * it returns 0 having changed nothing but the free slot's fields, and take_jobs
 * handles the job in full (validate, pkt_check, the error completion).
 * fast_check is a leaf (no callee-saved registers to spill): the descriptor's
 * counts, buffers and command buffers as in validate, then the packets. */
static uint32_t fast_eq_ok;    /* engine queues present (private copy of hif.eq_present) */
static uint32_t fast_eq_dma;   /* DMA queues whose engine has the DMA registers: LIN_DMA checked here */

/* The descriptor's counts, buffers and command buffers as in validate (fills
 * the job's fields): 1 if the job is for the fast path, else 0. */
__attribute__((always_inline)) static inline uint32_t fast_desc(const hif_job_t *__restrict dsc, job_t *__restrict j)
{
    uint32_t ctrl = dsc->ctrl;
    uint32_t ncb = (ctrl >> HIF_JOB_NCB_BP) & 0xFu, nbuf = (ctrl >> HIF_JOB_NBUF_BP) & 0xFu;
    if (UNLIKELY(dsc->seq == 0u || (ctrl & (HIF_JOB_RSVD_MASK | (0xFu << HIF_JOB_NDEP_BP))) ||
                 ncb - 1u >= HIF_MAX_CBS || nbuf - 1u >= HIF_MAX_BUFS || dsc->rsvd0))
        return 0u;
    for (uint32_t b = 0; b < nbuf; b++) {
        uint32_t base = dsc->buf[b].base, size = dsc->buf[b].size, off = base - TESSERA_HBM_BASE;
        if (UNLIKELY(size == 0u || off >= TESSERA_HBM_SIZE || size > TESSERA_HBM_SIZE - off))
            return 0u;
        j->bb[b] = base;
        j->be[b] = base + size;
    }
    j->nbuf = nbuf;
    uint32_t avail = fast_eq_ok & ~eq_busy;   /* bits below HIF_NUM_EQ only */
    for (uint32_t c = 0; c < ncb; c++) {
        uint32_t eq = dsc->cb[c].eq, a = dsc->cb[c].addr, sz = dsc->cb[c].size, b = 0u;
        if (UNLIKELY(eq >= HIF_NUM_EQ || !((avail >> eq) & 1u) || ((a | sz) & 7u) || sz - 1u >= CB_CHECK_MAX))
            return 0u;
        while (!(a >= j->bb[b] && a < j->be[b] && sz <= j->be[b] - a))
            if (++b == nbuf)
                return 0u;
        avail &= ~(1u << eq);   /* one buffer per queue */
        j->eq[c] = (uint8_t)eq;
        j->cb_addr[c] = a;
        j->cb_size[c] = sz;
    }
    j->ncb = (uint8_t)ncb;
    j->eqmask = (fast_eq_ok & ~eq_busy) ^ avail;
    return 1u;
}

/* The packets of every command buffer of j (the bridge's read buffer on, as in
 * check_cbs): 0 if one is not for the fast path, else 1 + "a LIN_DMA". */
__attribute__((always_inline)) static inline uint32_t fast_pkts(const job_t *__restrict j)
{
    uint32_t ok = 1u, c = 0u;
    rdbuf(1u);
    do {
        const volatile uint32_t *p = (const volatile uint32_t *)(uintptr_t)j->cb_addr[c];
        const volatile uint32_t *end = p + j->cb_size[c] / 4u;
        uint32_t dma = (fast_eq_dma >> j->eq[c]) & 1u;
        for (;; p += 2) {
            if (UNLIKELY(p == end))
                goto refuse;   /* no STOP */
            uint32_t h = p[0], op = h & (0xFFu | CP_HDR_RSVD_MASK), arg = h >> 16;   /* reserved bits: no op */
            if (op == CP_OP_STOP)
                break;
            if (op == CP_OP_LIN_DMA) {
                /* SRC, DST, SIZE, CTRL = GO of the DMA: no MSG_CTRL written (no WREG here) */
                if (!dma || end - p < 4)
                    goto refuse;
                uint32_t size = p[1], src = p[2], dst = p[3];
                if (!lin_ok(j, dst, size) || !lin_ok(j, src, size))
                    goto refuse;
                ok = 2u;
                p += 2;
                continue;
            }
            if (op == CP_OP_NOP || op == CP_OP_WAIT || (op == CP_OP_FENCE && arg < CP_FENCES) ||
                (op == CP_OP_MSG_SHORT && arg < FW_SOB_BASE))
                continue;
            goto refuse;
        }
    } while (++c < j->ncb);
    rdbuf(0u);
    return ok;
refuse:
    rdbuf(0u);
    return 0u;
}

__attribute__((noinline)) static int take_fast(void)
{
    uint32_t sf = slot_free, q, ci;
    if (UNLIKELY((sf & (sf - 1u)) == 0u || n_wait != 0u || mon_free == 0u))
        return 0;
    for (q = 0;; q++) {
        if (q == HIF_NUM_SQ)
            return 0;
        ci = hif.sq_ci[q];
        uint32_t d = hif.sq_pi[q] - ci;
        if (d > HIF_SQ_ENTRIES)
            return 0;   /* an overrun ring: take_jobs */
        if (d)
            break;
    }
    const hif_job_t *dsc = &hif.sq[q][ci % HIF_SQ_ENTRIES];
    uint32_t slot = 0u;   /* the lowest free slot (slot_alloc); no ctz instruction in RV32IM */
    while (!((sf >> slot) & 1u))
        slot++;
    job_t *j = &jobs[slot];
    uint32_t r;
    if (UNLIKELY(!fast_desc(dsc, j) || (r = fast_pkts(j)) == 0u))
        return 0;
    j->ndep = 0u;
    j->mem = r - 1u;
    uint32_t ncb = j->ncb, comp = SOB_ADD_ADDR(SOB_DONE(slot));
    for (uint32_t c = 0; c < ncb; c++) {
        uint32_t k = j->eq[c];
        QM(k, CB_BASE) = j->cb_addr[c];
        QM(k, CB_SIZE) = j->cb_size[c];
        QM(k, COMP_ADDR) = comp;
    }
    for (uint32_t c = 0; c < ncb; c++) {   /* start_queues */
        QM(j->eq[c], CTRL) = QMAN__CTRL__START_bm;
        if (c == 0u)
            hif.cnt.t_first_start = now32();
    }
    take_commit(j, slot, q, ci, dsc, HIF_CAUSE_NONE, 0u, 1);
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
            hif.cnt.t_first_start = now32();
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
            if (jobs[t].state != J_FREE && jobs[t].state != J_POST && jobs[t].seq == seq && &jobs[t] != j) {
                found = (int)t;
                break;
            }
        if (found >= 0) {
            if (jobs[found].state == J_WAIT)
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
    if (mon_free < need)
        return 0;
    /* DONE(s) and DEP(s) are 0 here (start-up, job_finish). Queues first and,
     * with nothing to wait for, started at once; the done monitor is armed
     * after the start: arming evaluates the condition, so a queue that has
     * already finished still fires it. */
    program_queues(j, s);
    eq_busy |= j->eqmask;
    j->n_inflight = (uint8_t)ni;
    j->mons = 0u;
    if (ni == 0u) {
        start_queues(j);
        j->t_start = now32();
        set_state(j, J_RUN);
        hif.cnt.fw_starts++;
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
        mon_program((uint32_t)m, arm_word(SOB_DONE(inflight[k]), jobs[inflight[k]].ncb, 1u), pay, 1u);
    }
    return 1;
}

/* Waiting jobs in (priority, arrival) order. A job whose dependencies are
 * ready but whose queues are busy claims them, so a later job cannot overtake
 * it on those queues; a job still waiting for dependencies claims nothing. */
static void dispatch_all(void)
{
    if (n_wait == 0u)
        return;
    /* nothing to do while every queue a waiting job needs is busy (a job
     * whose dependency finished frees that job's queues too) */
    uint32_t want = 0u;
    for (uint32_t s = 0; s < FW_JOBS; s++)
        if (jobs[s].state == J_WAIT)
            want |= jobs[s].eqmask;
    if (!(want & ~eq_busy))
        return;
    /* the waiting slots sorted by (ring, arrival): insertion sort of <= 8 */
    uint32_t list[FW_JOBS], n = 0u;
    for (uint32_t s = 0; s < FW_JOBS; s++) {
        const job_t *j = &jobs[s];
        if (j->state != J_WAIT)
            continue;
        uint32_t k = n++;
        for (; k > 0u; k--) {
            const job_t *p = &jobs[list[k - 1u]];
            if (p->sq < j->sq || (p->sq == j->sq && j->order - p->order < 0x80000000u))
                break;
            list[k] = list[k - 1u];
        }
        list[k] = s;
    }
    uint32_t claimed = eq_busy;
    for (uint32_t i = 0; i < n; i++) {
        job_t *j = &jobs[list[i]];
        if (j->state != J_WAIT)
            continue;   /* finished meanwhile (a failed dependency) */
        uint32_t inflight[HIF_MAX_DEPS], ni;
        if (deps_check(j, inflight, &ni) <= 0)
            continue;
        if (!(j->eqmask & claimed))
            dispatch(j, list[i], inflight, ni);
        claimed |= j->eqmask;
        if ((claimed & hif.eq_present) == hif.eq_present)
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
        job_t *j = &jobs[s];
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
                hif.cnt.qman_errors++;
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
            hif.cnt.hw_starts++;
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
    hif.cnt.t_doorbell = now32();
    hif.cnt.doorbells++;
}

void fw_cp_doorbell(void)
{
    hif.cnt.t_doorbell = now32();
    take_fast();
    hif.cnt.doorbells++;
}

void fw_cp_init(void)
{
    hif.version = HIF_VERSION;
    hif.nsq = HIF_NUM_SQ;
    hif.sq_entries = HIF_SQ_ENTRIES;
    hif.cq_entries = HIF_CQ_ENTRIES;
    hif.max_cbs = HIF_MAX_CBS;
    hif.fw_sob_base = FW_SOB_BASE;
    hif.fw_sob_count = 16u;
    hif.fw_mon_base = FW_MON_BASE;
    hif.fw_mon_count = FW_MONS;
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
        eng_kind[TESSERA_QMAN_SLOT_MME + i] = ENG_MME;
    }
    for (uint32_t d = 0; d < TESSERA_DMA_ENGINES; d++) {
        eng_status[TESSERA_QMAN_SLOT_DMA + d] = TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, STATUS);
        eng_errmask[TESSERA_QMAN_SLOT_DMA + d] = DMA__STATUS__ERR_bm;
        eng_kind[TESSERA_QMAN_SLOT_DMA + d] = ENG_DMA;
    }
#if __has_include("regs/tpc_regs.h")
    eng_status[TESSERA_QMAN_SLOT_TPC] = TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, STATUS);
    eng_errmask[TESSERA_QMAN_SLOT_TPC] = TPC__STATUS__ERR_bm;
#endif
#endif
    /* an engine whose registers are not in this chip (a queue slot without its
     * engine, e.g. the TPC cluster before it is wired) is not checked */
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, probe_trap);
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (!((present >> k) & 1u) || (eng_status[k] && !probe(eng_status[k])))
            eng_status[k] = 0u;
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, 0);
    hif.eq_present = present;
    hif.eq_dma = dma;
    fast_eq_ok = present;
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (((dma >> k) & 1u) && eng_kind[k] == ENG_DMA)
            fast_eq_dma |= 1u << k;
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
    __asm__ volatile("" ::: "memory");
    hif.magic = HIF_MAGIC;
    SYSCTRL_REG(SCRATCH3) = (uint32_t)(uintptr_t)&hif;
    printf("fw: host interface at 0x%08lx, engine queues 0x%04lx (dma 0x%04lx)\n", (unsigned long)(uintptr_t)&hif,
           (unsigned long)present, (unsigned long)dma);
}

#define DOORBELL_BIT (1u << INTC_SRC_SWIRQ(FW_DOORBELL_SWIRQ))
static void poll_once(uint32_t events);

__attribute__((noinline)) static void poll_pass(uint32_t events);

void fw_cp_poll(uint32_t events)
{
    hif.cnt.polls++;
    if ((events & (FW_EV_DOORBELL | FW_EV_DB_FAST)) == FW_EV_DOORBELL)
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
        hif.cnt.polls++;
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
    /* a finished job may free queues for waiting ones, and slots for new ones */
    take_jobs();
    dispatch_all();
    if (qerr && hif.eq_present) {
        /* an error on a queue no job owns (started by someone else): reset it */
        for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
            if (((hif.eq_present & ~eq_busy) >> k) & 1u && FIELD_GET(QMAN__STATUS__ERR, QM(k, STATUS)))
                QM(k, CTRL) = QMAN__CTRL__RESET_bm;
        intc_enable(INTC_SRC_QMAN);
    }
}

void fw_cp_print(void)
{
    printf("fw: jobs taken %lu ok %lu error %lu aborted %lu, starts fw %lu hw %lu, queue errors %lu, cq stalls %lu\n",
           (unsigned long)hif.cnt.jobs_taken, (unsigned long)hif.cnt.jobs_ok, (unsigned long)hif.cnt.jobs_error,
           (unsigned long)hif.cnt.jobs_aborted, (unsigned long)hif.cnt.fw_starts, (unsigned long)hif.cnt.hw_starts,
           (unsigned long)hif.cnt.qman_errors, (unsigned long)hif.cnt.cq_stalls);
}
