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
#include "tessera/cp_pkt.h"   /* packet encoding (opcodes, header bits, error codes) */
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
    uint32_t hostb;                 /* bit b: buffer b is host memory (DMA engines only) */
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
static uint32_t eng_msgctrl[HIF_NUM_EQ];  /* address of the engine's MSG_CTRL register (0: none) */
enum { ENG_OTHER = 0, ENG_MME, ENG_DMA, ENG_TPC };
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
        hif.cnt.tpc_cancels++;
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
    uint32_t slot = (uint32_t)(j - jobs);
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
#define TPC_DESC_WORDS 13u   /* words of a TPC descriptor the check follows (docs/tpc.md) */
typedef struct {
    uint32_t r[SHADOW_WORDS];       /* engine registers written so far (offset / 4) */
    uint32_t written;               /* bit i: r[i] valid (else the value is 0) */
    uint32_t td[8][TPC_DESC_WORDS]; /* TPC: the descriptor window (DESC + 64 t + 4 i) */
    uint16_t tdw[8];                /* bit i: td[t][i] written by this buffer */
} shadow_t;
#define SH_IDX(type, reg) (offsetof(type, reg) / 4u)
#define SH(sh, type, reg) (((sh)->written >> SH_IDX(type, reg)) & 1u ? (sh)->r[SH_IDX(type, reg)] : 0u)

/* [lo, hi) non-empty and inside one of the job's buffers; host-memory buffers count
 * only when `host` (what a DMA engine's non-tensor transfer reaches through its host
 * port; messages, the MME and tensor copies reach device memory only) */
static int in_bufs_of(const job_t *j, uint32_t lo, uint32_t hi, int host)
{
    for (uint32_t b = 0; b < j->nbuf; b++)
        if (lo >= j->bb[b] && hi <= j->be[b] && hi > lo && (host || !((j->hostb >> b) & 1u)))
            return 1;
    return 0;
}
static int in_bufs(const job_t *j, uint32_t lo, uint32_t hi) { return in_bufs_of(j, lo, hi, 0); }

/* [lo, hi) overlaps none of the job's command buffers: their packets were checked
 * before the job started, so a write into one (a message, a DMA or MME destination,
 * a TPC tensor) could run packets nobody checked */
static int off_cbs(const job_t *j, uint32_t lo, uint32_t hi)
{
    for (uint32_t c = 0; c < j->ncb; c++)
        if (lo < j->cb_addr[c] + j->cb_size[c] && hi > j->cb_addr[c])
            return 0;
    return 1;
}

static int msg_target_ok(const job_t *j, uint32_t a)
{
    if (a & 3u)
        return 0;
    if (a <= 0xFFFFFFFBu && in_bufs(j, a, a + 4u))
        return off_cbs(j, a, a + 4u);
    if (a - SOB_SET_ADDR(0) < 4u * FW_SOB_BASE || a - SOB_ADD_ADDR(0) < 4u * FW_SOB_BASE)
        return 1;
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (((hif.eq_present >> k) & 1u) && a - QM_ADDR(k, FENCE) < 4u * CP_FENCES)
            return 1;
    return 0;
}

/* Rows x planes of `size` bytes from base (row stride s1, plane stride s2) inside
 * one job buffer (RG_HOST: host-memory buffers count), and for RG_WRITE clear of the
 * job's command buffers; 32-bit arithmetic with overflow checks (mulhu on RV32IM). */
#define RG_HOST  1
#define RG_WRITE 2
static int range_ok_of(const job_t *j, uint32_t base, uint32_t size, uint32_t c1, uint32_t s1, uint32_t c2,
                       uint32_t s2, int flags)
{
    uint32_t a, b, hi;
    if (size == 0u || c1 == 0u || c2 == 0u)
        return 0;
    if (__builtin_mul_overflow(c1 - 1u, s1, &a) || __builtin_mul_overflow(c2 - 1u, s2, &b) ||
        __builtin_add_overflow(a, b, &a) || __builtin_add_overflow(a, size, &a) ||
        __builtin_add_overflow(base, a, &hi))
        return 0;
    return in_bufs_of(j, base, hi, flags & RG_HOST) && (!(flags & RG_WRITE) || off_cbs(j, base, hi));
}
static int range_ok(const job_t *j, uint32_t base, uint32_t size, uint32_t c1, uint32_t s1, uint32_t c2,
                    uint32_t s2)
{
    return range_ok_of(j, base, size, c1, s1, c2, s2, 0);
}
static int wr_range_ok(const job_t *j, uint32_t base, uint32_t size, uint32_t c1, uint32_t s1)
{
    return range_ok_of(j, base, size, c1, s1, 1u, 0u, RG_WRITE);
}
/* a DMA engine's linear/strided/memset/transpose side: device or host buffers;
 * wr: the destination */
static int dma_range_ok(const job_t *j, uint32_t base, uint32_t size, uint32_t c1, uint32_t s1, uint32_t c2,
                        uint32_t s2, int wr)
{
    return range_ok_of(j, base, size, c1, s1, c2, s2, RG_HOST | (wr ? RG_WRITE : 0));
}

static int dma_go_ok(const job_t *j, const shadow_t *sh, uint32_t ctrl)
{
    uint32_t mode = (ctrl & DMA__CTRL__MODE_bm) >> DMA__CTRL__MODE_bp;
    uint32_t src = SH(sh, dma_t, SRC), dst = SH(sh, dma_t, DST), size = SH(sh, dma_t, SIZE);
    uint32_t c1 = SH(sh, dma_t, COUNT1), c2 = SH(sh, dma_t, COUNT2);
    /* a tensor copy's footprint is in its descriptors in memory, which this check does
     * not follow: refused (docs/hostlink.md) */
    if (ctrl & DMA__CTRL__TENSOR_bm)
        return 0;
    if (mode == 0u)
        return dma_range_ok(j, dst, size, 1u, 0u, 1u, 0u, 1) && dma_range_ok(j, src, size, 1u, 0u, 1u, 0u, 0);
    if (mode == 3u) {  /* transpose: COUNT1 rows of SIZE bytes -> SIZE/e rows of COUNT1 elements */
        uint32_t e = (ctrl & DMA__CTRL__ESIZE_bm) ? 4u : 2u;
        return c1 <= 0xFFFFu && dma_range_ok(j, dst, c1 * e, size / e, SH(sh, dma_t, DST_STRIDE1), 1u, 0u, 1) &&
               dma_range_ok(j, src, size, c1, SH(sh, dma_t, SRC_STRIDE1), 1u, 0u, 0);
    }
    return dma_range_ok(j, dst, size, c1, SH(sh, dma_t, DST_STRIDE1), c2, SH(sh, dma_t, DST_STRIDE2), 1) &&
           (mode == 2u ||
            dma_range_ok(j, src, size, c1, SH(sh, dma_t, SRC_STRIDE1), c2, SH(sh, dma_t, SRC_STRIDE2), 0));
}

#if __has_include("regs/tpc_regs.h")
/* TPC descriptor t of a launch: 1 if the cluster cannot reach memory outside the job's
 * device-memory buffers through it. A descriptor the core refuses when a kernel uses
 * it (BAD_DESC: dtype > 10, ndims not 1..5, a size 0 or > 2^24, base not aligned;
 * tessera_tpc_core's desc_bad) reaches nothing. Otherwise every word that decides the
 * footprint must have been written by this buffer (the cluster keeps an earlier job's
 * values), and elements base + esize * sum(coord_d * stride_d), 0 <= coord_d < size_d,
 * signed strides, must lie inside one buffer: tensor stores outside the descriptor are
 * dropped, so this bounds every write of the kernel. */
static int tpc_desc_ok(const job_t *j, const shadow_t *sh, uint32_t t)
{
    const uint32_t *w = sh->td[t];
    uint32_t wr = sh->tdw[t];
    if ((wr & 3u) != 3u)          /* base, dtype/ndims */
        return 0;
    uint32_t dt = w[1] & 15u, nd = (w[1] >> 4) & 7u;
    uint32_t es = (dt == 0u || dt == 5u || dt == 8u) ? 4u : (dt == 1u || dt == 2u || dt == 6u || dt == 9u) ? 2u : 1u;
    if (dt > 10u || nd == 0u || nd > 5u || (w[0] & (es - 1u)))
        return 1;
    int64_t lo = 0, hi = 0;
    for (uint32_t d = 0; d < nd; d++) {
        if (((wr >> (3u + d)) & 1u) == 0u || ((wr >> (8u + d)) & 1u) == 0u)
            return 0;
        uint32_t sz = w[3u + d];
        if (sz == 0u || sz > 0x01000000u)
            return 1;
        int64_t e = (int64_t)(sz - 1u) * (int64_t)(int32_t)w[8u + d];
        if (e < 0)
            lo += e;
        else
            hi += e;
    }
    int64_t a = (int64_t)w[0] + lo * (int64_t)es, b = (int64_t)w[0] + (hi + 1) * (int64_t)es;
    if (a < 0 || b > 0xFFFFFFFFll)
        return 0;
    return in_bufs(j, (uint32_t)a, (uint32_t)b) && off_cbs(j, (uint32_t)a, (uint32_t)b);
}

/* A TPC commit: the program, every descriptor the launch declares, and the completion
 * message (docs/hostlink.md "Packet check"). */
static int tpc_commit_ok(const job_t *j, const shadow_t *sh)
{
    const uint32_t need = (1u << SH_IDX(tpc_t, PROG_ADDR)) | (1u << SH_IDX(tpc_t, PROG_LEN)) |
                          (1u << SH_IDX(tpc_t, NTENSORS));
    if ((sh->written & need) != need)
        return 0;
    uint32_t pa = SH(sh, tpc_t, PROG_ADDR), pl = SH(sh, tpc_t, PROG_LEN), nt = SH(sh, tpc_t, NTENSORS) & 15u;
    if (pl == 0u || pl > 0x07FFFFFFu || pa > 0xFFFFFFFFu - 32u * pl || !in_bufs(j, pa, pa + 32u * pl))
        return 0;
    for (uint32_t t = 0; t < nt && t < 8u; t++)
        if (!tpc_desc_ok(j, sh, t))
            return 0;
    return 1;
}
#endif

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
           wr_range_ok(j, c, n * ec, m, ldc) &&
           (!(dt & MME__DTYPE__BIAS_EN_bm) || range_ok(j, SH(sh, mme_t, BIAS_ADDR), 4u * n, 1u, 0u, 1u, 0u));
}

/* One register write of the buffer to engine `kind`: 0 or a reason. */
static uint32_t reg_write(job_t *j, uint32_t kind, shadow_t *sh, uint32_t off, uint32_t v)
{
    if (kind == ENG_OTHER) {
        j->mem = 1u;   /* (an engine whose registers are not followed) */
        return 0u;
    }
#if __has_include("regs/tpc_regs.h")
    if (kind == ENG_TPC) {   /* the descriptor window (beyond the plain shadow) */
        uint32_t rel = off - (uint32_t)offsetof(tpc_t, DESC);
        if (rel < 8u * 64u && (rel & 63u) / 4u < TPC_DESC_WORDS) {
            sh->td[rel / 64u][(rel & 63u) / 4u] = v;
            sh->tdw[rel / 64u] |= (uint16_t)(1u << ((rel & 63u) / 4u));
            return 0u;
        }
    }
#endif
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
    }
#if __has_include("regs/tpc_regs.h")
    else if (kind == ENG_TPC) {
        if (off == offsetof(tpc_t, CTRL) && (v & TPC__CTRL__COMMIT_bm)) {
            j->mem = 1u;
            if (!tpc_commit_ok(j, sh))
                return HIF_PKT_TPC_RANGE;
            if ((SH(sh, tpc_t, MSG_CTRL) & TPC__MSG_CTRL__EN_bm) && !msg_target_ok(j, SH(sh, tpc_t, MSG_ADDR)))
                return HIF_PKT_MSG_TARGET;
        }
    }
#endif
    else if (off == offsetof(mme_t, CTRL) && (v & MME__CTRL__COMMIT_bm)) {
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

/* [base, base + size) non-empty, no wrap, inside one job buffer, device or host memory
 * (dma_range_ok of one row) */
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
    if (!lin_ok(j, dst, size) || !off_cbs(j, dst, dst + size) || !lin_ok(j, src, size))
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
    for (uint32_t t = 0; t < 8u; t++)
        sh.tdw[t] = 0u;
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
            else if (p[3] != 0u)
                why = CP_ERR_RESERVED;   /* w3 reserved (the queue manager's order) */
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
    uint32_t mask = 0u, present = hif.eq_present;
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
        j->t_start = 0u;        /* (the slot's previous job's otherwise) */
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

/* The doorbell fast path: the common case of take_jobs, on the doorbell-to-start
 * path (docs/hostlink.md, "Performance"). It takes the job take_jobs would take
 * next (two or more free slots: the head of the first non-empty ring, in the
 * lowest free slot) only if that job would start at once (no dependencies,
 * nothing waiting, its queues free, a monitor free) and every packet of its
 * buffers is of the few kinds checked here (NOP, WAIT, FENCE, MSG_SHORT, LIN_DMA
 * on a DMA engine's queue, STOP) and passes the same checks as in validate and
 * pkt_check. Anything else, or any error: it returns 0 having changed nothing but
 * the free slot's fields, and take_jobs handles the job in full (validate,
 * pkt_check, the error completion).
 *
 * fast_start is that check and the queue start in hand-scheduled assembly: the
 * compiled C of the same checks took ~290 instructions to the start (register
 * spills, induction variables), this ~150 for one buffer and one LIN_DMA + STOP
 * command buffer. Every offset, address and constant comes from the C headers
 * through "i" operands. Registers: a0 &hif, a6 the job slot, a7 the result,
 * t2 &j->bb[nbuf], t5 ncb; the rest scratch. */
static uint32_t fast_eq_ok;    /* engine queues present (private copy of hif.eq_present) */
static uint32_t fast_eq_dma;   /* DMA queues whose engine has the DMA registers: LIN_DMA checked here */

#define FAST_TAKEN 1u          /* fast_start result: started; slot [3:1], ring [5:4] */
#define FAST_MEM   (1u << 6)   /* a LIN_DMA: the job touches memory */
#define JOB_OFF(f) ((uint32_t)offsetof(job_t, f))
#define DSC_OFF(f) ((uint32_t)offsetof(hif_job_t, f))
#define DSC_CB_SIZE ((uint32_t)sizeof(((hif_job_t *)0)->cb[0]))
_Static_assert(FW_JOBS == 8u && HIF_NUM_SQ == 4u, "fast_start result fields");
_Static_assert((HIF_SQ_ENTRIES & (HIF_SQ_ENTRIES - 1u)) == 0u, "ring index mask");
_Static_assert(CP_OP_NOP == 0 && HIF_NUM_EQ <= 32u, "fast_start opcodes and masks");
_Static_assert(sizeof(((job_t *)0)->nbuf) == 4u && sizeof(((job_t *)0)->eq[0]) == 1u &&
               sizeof(((job_t *)0)->ncb) == 1u && sizeof(((job_t *)0)->bb[0]) == 4u &&
               sizeof(((job_t *)0)->cb_addr[0]) == 4u && sizeof(((job_t *)0)->eqmask) == 4u,
               "fast_start job field widths");
_Static_assert(SOB_ADD_ADDR(SOB_DONE(1)) - SOB_ADD_ADDR(SOB_DONE(0)) == 4u, "DONE objects are consecutive");

__attribute__((noipa)) static uint32_t fast_start(void)
{
    register uint32_t r_res __asm__("a7");
    __asm__ volatile(/* the constants of the assembly below, from the C headers */
                     ".set fs_PI, %[PI]\n\t"
                     ".set fs_CIPI, %[CIPI]\n\t"
                     ".set fs_SQE, %[SQE]\n\t"
                     ".set fs_NSQ, %[NSQ]\n\t"
                     ".set fs_DSZ, %[DSZ]\n\t"
                     ".set fs_SQ, %[SQ]\n\t"
                     ".set fs_JSZ, %[JSZ]\n\t"
                     ".set fs_DSEQ, %[DSEQ]\n\t"
                     ".set fs_DRSVD, %[DRSVD]\n\t"
                     ".set fs_DCTRL, %[DCTRL]\n\t"
                     ".set fs_CRSVD, %[CRSVD]\n\t"
                     ".set fs_NCBBP, %[NCBBP]\n\t"
                     ".set fs_NBUFBP, %[NBUFBP]\n\t"
                     ".set fs_MAXCB, %[MAXCB]\n\t"
                     ".set fs_MAXBUF, %[MAXBUF]\n\t"
                     ".set fs_JNBUF, %[JNBUF]\n\t"
                     ".set fs_DBUF, %[DBUF]\n\t"
                     ".set fs_JBB, %[JBB]\n\t"
                     ".set fs_BEBB, %[BEBB]\n\t"
                     ".set fs_HBMB, %[HBMB]\n\t"
                     ".set fs_HBMS, %[HBMS]\n\t"
                     ".set fs_DCB, %[DCB]\n\t"
                     ".set fs_NEQ, %[NEQ]\n\t"
                     ".set fs_CBMAX, %[CBMAX]\n\t"
                     ".set fs_JEQ, %[JEQ]\n\t"
                     :
                     : [PI] "i"(HIF_OFF(sq_pi)),
                     [CIPI] "i"(HIF_OFF(sq_ci) - HIF_OFF(sq_pi)),
                     [SQE] "i"(HIF_SQ_ENTRIES),
                     [NSQ] "i"(HIF_NUM_SQ),
                     [DSZ] "i"(sizeof(hif_job_t)),
                     [SQ] "i"(HIF_OFF(sq)),
                     [JSZ] "i"(sizeof(job_t)),
                     [DSEQ] "i"(DSC_OFF(seq)),
                     [DRSVD] "i"(DSC_OFF(rsvd0)),
                     [DCTRL] "i"(DSC_OFF(ctrl)),
                     [CRSVD] "i"(HIF_JOB_RSVD_MASK | (0xFu << HIF_JOB_NDEP_BP)),
                     [NCBBP] "i"(HIF_JOB_NCB_BP),
                     [NBUFBP] "i"(HIF_JOB_NBUF_BP),
                     [MAXCB] "i"(HIF_MAX_CBS),
                     [MAXBUF] "i"(HIF_MAX_BUFS),
                     [JNBUF] "i"(JOB_OFF(nbuf)),
                     [DBUF] "i"(DSC_OFF(buf)),
                     [JBB] "i"(JOB_OFF(bb)),
                     [BEBB] "i"(JOB_OFF(be) - JOB_OFF(bb)),
                     [HBMB] "i"(TESSERA_HBM_BASE),
                     [HBMS] "i"(TESSERA_HBM_SIZE),
                     [DCB] "i"(DSC_OFF(cb)),
                     [NEQ] "i"(HIF_NUM_EQ),
                     [CBMAX] "i"(CB_CHECK_MAX),
                     [JEQ] "i"(JOB_OFF(eq)));
    __asm__ volatile(/* the constants of the assembly below, from the C headers */
                     ".set fs_JCBA, %[JCBA]\n\t"
                     ".set fs_JCBS, %[JCBS]\n\t"
                     ".set fs_CBSZ, %[CBSZ]\n\t"
                     ".set fs_JNCB, %[JNCB]\n\t"
                     ".set fs_JEQM, %[JEQM]\n\t"
                     ".set fs_SYSBUS, %[SYSBUS]\n\t"
                     ".set fs_RDBUF, %[RDBUF]\n\t"
                     ".set fs_HMASK, %[HMASK]\n\t"
                     ".set fs_OSTOP, %[OSTOP]\n\t"
                     ".set fs_OLIN, %[OLIN]\n\t"
                     ".set fs_OWAIT, %[OWAIT]\n\t"
                     ".set fs_OFENCE, %[OFENCE]\n\t"
                     ".set fs_OSHORT, %[OSHORT]\n\t"
                     ".set fs_NFENCE, %[NFENCE]\n\t"
                     ".set fs_FWSOB, %[FWSOB]\n\t"
                     ".set fs_FMEM, %[FMEM]\n\t"
                     ".set fs_NJOBS, %[NJOBS]\n\t"
                     ".set fs_COMP0, %[COMP0]\n\t"
                     ".set fs_QSTRIDE, %[QSTRIDE]\n\t"
                     ".set fs_QBASE, %[QBASE]\n\t"
                     ".set fs_QCBB, %[QCBB]\n\t"
                     ".set fs_QCBS, %[QCBS]\n\t"
                     ".set fs_QCOMP, %[QCOMP]\n\t"
                     ".set fs_QCTRL, %[QCTRL]\n\t"
                     ".set fs_QSTART, %[QSTART]\n\t"
                     ".set fs_MTIME, %[MTIME]\n\t"
                     :
                     : [JCBA] "i"(JOB_OFF(cb_addr)),
                     [JCBS] "i"(JOB_OFF(cb_size)),
                     [CBSZ] "i"(DSC_CB_SIZE),
                     [JNCB] "i"(JOB_OFF(ncb)),
                     [JEQM] "i"(JOB_OFF(eqmask)),
                     [SYSBUS] "i"(TESSERA_SYSCTRL_BASE + offsetof(sysctrl_t, SYSBUS_CTRL)),
                     [RDBUF] "i"(SYSCTRL__SYSBUS_CTRL__RDBUF_bm),
                     [HMASK] "i"(0xFFu | CP_HDR_RSVD_MASK),
                     [OSTOP] "i"(CP_OP_STOP),
                     [OLIN] "i"(CP_OP_LIN_DMA),
                     [OWAIT] "i"(CP_OP_WAIT),
                     [OFENCE] "i"(CP_OP_FENCE),
                     [OSHORT] "i"(CP_OP_MSG_SHORT),
                     [NFENCE] "i"(CP_FENCES),
                     [FWSOB] "i"(FW_SOB_BASE),
                     [FMEM] "i"(FAST_MEM),
                     [NJOBS] "i"(FW_JOBS),
                     [COMP0] "i"(SOB_ADD_ADDR(SOB_DONE(0))),
                     [QSTRIDE] "i"(TESSERA_QMAN_STRIDE),
                     [QBASE] "i"(TESSERA_QMAN_BASE),
                     [QCBB] "i"(offsetof(qman_t, CB_BASE)),
                     [QCBS] "i"(offsetof(qman_t, CB_SIZE)),
                     [QCOMP] "i"(offsetof(qman_t, COMP_ADDR)),
                     [QCTRL] "i"(offsetof(qman_t, CTRL)),
                     [QSTART] "i"(QMAN__CTRL__START_bm),
                     [MTIME] "i"(TESSERA_CLINT_BASE + offsetof(clint_t, MTIME_LO)));
    __asm__ volatile(/* the constants of the assembly below, from the C headers */
                     ".set fs_FTAKEN, %[FTAKEN]\n\t"
                     ".set fs_TFSA, %[TFSA]\n\t"
                     ".set fs_SLOTF, %[SLOTF]\n\t"
                     ".set fs_NWAIT, %[NWAIT]\n\t"
                     ".set fs_MONF, %[MONF]\n\t"
                     ".set fs_EQOK, %[EQOK]\n\t"
                     ".set fs_EQBUSY, %[EQBUSY]\n\t"
                     ".set fs_EQDMA, %[EQDMA]\n\t"
                     ".set fs_HIF, %[HIF]\n\t"
                     ".set fs_JOBS, %[JOBS]\n\t"
                     :
                     : [FTAKEN] "i"(FAST_TAKEN), [TFSA] "i"(&hif.cnt.t_first_start), [SLOTF] "i"(&slot_free),
                       [NWAIT] "i"(&n_wait), [MONF] "i"(&mon_free), [EQOK] "i"(&fast_eq_ok),
                       [EQBUSY] "i"(&eq_busy), [EQDMA] "i"(&fast_eq_dma), [HIF] "i"(&hif), [JOBS] "i"(jobs));
    __asm__ volatile(
        /* the fast path's conditions: two free slots (sf a2), nothing waiting, a
         * monitor free; a3 = free queues, a4 = DMA queues, a0 = &hif, a1 = jobs */
        "lui   t0, %%hi(fs_SLOTF)\n\t"
        "lw    a2, %%lo(fs_SLOTF)(t0)\n\t"
        "addi  t1, a2, -1\n\t"
        "and   t1, t1, a2\n\t"
        "beqz  t1, 90f\n\t"
        "lui   t0, %%hi(fs_NWAIT)\n\t"
        "lw    t1, %%lo(fs_NWAIT)(t0)\n\t"
        "bnez  t1, 90f\n\t"
        "lui   t0, %%hi(fs_MONF)\n\t"
        "lw    t1, %%lo(fs_MONF)(t0)\n\t"
        "beqz  t1, 90f\n\t"
        "lui   t0, %%hi(fs_EQOK)\n\t"
        "lw    a3, %%lo(fs_EQOK)(t0)\n\t"
        "lui   t0, %%hi(fs_EQBUSY)\n\t"
        "lw    t1, %%lo(fs_EQBUSY)(t0)\n\t"
        "not   t1, t1\n\t"
        "and   a3, a3, t1\n\t"
        "lui   t0, %%hi(fs_EQDMA)\n\t"
        "lw    a4, %%lo(fs_EQDMA)(t0)\n\t"
        "lui   a0, %%hi(fs_HIF)\n\t"
        "addi  a0, a0, %%lo(fs_HIF)\n\t"
        "lui   a1, %%hi(fs_JOBS)\n\t"
        "addi  a1, a1, %%lo(fs_JOBS)\n\t"
        /* ring: the first non-empty one (q t0, ci t2); an overrun one: take_jobs */
        "li    t0, 0\n\t"
        "addi  t1, a0, fs_PI\n\t"
        "li    t6, fs_SQE\n\t"
        "li    t5, fs_NSQ\n"
        "1:\n\t"
        "lw    t2, fs_CIPI(t1)\n\t"
        "lw    t3, 0(t1)\n\t"
        "sub   t3, t3, t2\n\t"
        "bltu  t6, t3, 90f\n\t"
        "bnez  t3, 2f\n\t"
        "addi  t0, t0, 1\n\t"
        "addi  t1, t1, 4\n\t"
        "bne   t0, t5, 1b\n\t"
        "j     90f\n"
        "2:\n\t"                              /* a5 = &hif.sq[q][ci % SQE] */
        "andi  t3, t2, fs_SQE - 1\n\t"
        "mul   t4, t0, t6\n\t"
        "add   t3, t3, t4\n\t"
        "li    t4, fs_DSZ\n\t"
        "mul   t3, t3, t4\n\t"
        "add   a5, a0, t3\n\t"
        "addi  a5, a5, fs_SQ\n\t"
        "slli  a7, t0, 4\n\t"
        /* slot: the lowest set bit of sf (two or more are set); a6 = &jobs[slot] */
        "li    t1, 0\n"
        "3:\n\t"
        "andi  t3, a2, 1\n\t"
        "bnez  t3, 4f\n\t"
        "srli  a2, a2, 1\n\t"
        "addi  t1, t1, 1\n\t"
        "j     3b\n"
        "4:\n\t"
        "slli  t3, t1, 1\n\t"
        "or    a7, a7, t3\n\t"
        "li    t3, fs_JSZ\n\t"
        "mul   t3, t1, t3\n\t"
        "add   a6, a1, t3\n\t"
        /* counts (validate): seq, reserved words and bits, no dependency, 1..4 cbs and buffers */
        "lw    t3, fs_DSEQ(a5)\n\t"
        "beqz  t3, 90f\n\t"
        "lw    t3, fs_DRSVD(a5)\n\t"
        "bnez  t3, 90f\n\t"
        "lw    t3, fs_DCTRL(a5)\n\t"
        "li    t4, fs_CRSVD\n\t"
        "and   t4, t3, t4\n\t"
        "bnez  t4, 90f\n\t"
        "srli  t5, t3, fs_NCBBP\n\t"
        "andi  t5, t5, 15\n\t"
        "addi  t4, t5, -1\n\t"
        "li    t6, fs_MAXCB\n\t"
        "bgeu  t4, t6, 90f\n\t"
        "srli  t3, t3, fs_NBUFBP\n\t"
        "andi  t3, t3, 15\n\t"
        "addi  t4, t3, -1\n\t"
        "li    t6, fs_MAXBUF\n\t"
        "bgeu  t4, t6, 90f\n\t"
        /* buffers: non-empty, inside device memory -> j->bb[], j->be[]; t2 = &j->bb[nbuf] */
        "sw    t3, fs_JNBUF(a6)\n\t"
        "addi  t0, a5, fs_DBUF\n\t"
        "addi  t1, a6, fs_JBB\n\t"
        "slli  t2, t3, 2\n\t"
        "add   t2, t1, t2\n\t"
        "li    a1, fs_HBMB\n\t"
        "li    a2, fs_HBMS\n"
        "5:\n\t"
        "lw    t4, 0(t0)\n\t"
        "lw    t6, 4(t0)\n\t"
        "sub   t3, t4, a1\n\t"
        "beqz  t6, 90f\n\t"
        "bgeu  t3, a2, 90f\n\t"
        "sub   t3, a2, t3\n\t"
        "bltu  t3, t6, 90f\n\t"
        "add   t6, t4, t6\n\t"
        "sw    t4, 0(t1)\n\t"
        "sw    t6, fs_BEBB(t1)\n\t"
        "addi  t0, t0, 8\n\t"
        "addi  t1, t1, 4\n\t"
        "bne   t1, t2, 5b\n\t"
        /* command buffers: a free queue not used twice, aligned, 8..CB_CHECK_MAX
         * bytes, inside one buffer -> j->eq[], cb_addr[], cb_size[]; a1 = eqmask */
        "addi  t0, a5, fs_DCB\n\t"
        "li    t1, 0\n\t"
        "li    a1, 0\n"
        "6:\n\t"
        "lw    t3, 0(t0)\n\t"
        "lw    t4, 4(t0)\n\t"
        "lw    t6, 8(t0)\n\t"
        "li    a2, fs_NEQ\n\t"
        "bgeu  t3, a2, 90f\n\t"
        "srl   a2, a3, t3\n\t"
        "andi  a2, a2, 1\n\t"
        "beqz  a2, 90f\n\t"
        "or    a2, t4, t6\n\t"
        "andi  a2, a2, 7\n\t"
        "bnez  a2, 90f\n\t"
        "addi  a2, t6, -1\n\t"
        "li    a5, fs_CBMAX\n\t"
        "bgeu  a2, a5, 90f\n\t"
        "addi  a2, a6, fs_JBB\n"
        "7:\n\t"
        "lw    a5, 0(a2)\n\t"
        "bltu  t4, a5, 8f\n\t"
        "lw    a5, fs_BEBB(a2)\n\t"
        "bgeu  t4, a5, 8f\n\t"
        "sub   a5, a5, t4\n\t"
        "bgeu  a5, t6, 9f\n"
        "8:\n\t"
        "addi  a2, a2, 4\n\t"
        "bne   a2, t2, 7b\n\t"
        "j     90f\n"
        "9:\n\t"
        "li    a5, 1\n\t"
        "sll   a5, a5, t3\n\t"
        "xor   a3, a3, a5\n\t"
        "or    a1, a1, a5\n\t"
        "add   a2, a6, t1\n\t"
        "sb    t3, fs_JEQ(a2)\n\t"
        "slli  a2, t1, 2\n\t"
        "add   a2, a6, a2\n\t"
        "sw    t4, fs_JCBA(a2)\n\t"
        "sw    t6, fs_JCBS(a2)\n\t"
        "addi  t0, t0, fs_CBSZ\n\t"
        "addi  t1, t1, 1\n\t"
        "bne   t1, t5, 6b\n\t"
        "sb    t5, fs_JNCB(a6)\n\t"
        "sw    a1, fs_JEQM(a6)\n\t"
        /* packets (pkt_check), the bridge's read buffer on (check_cbs) */
        "lui   a5, %%hi(fs_SYSBUS)\n\t"
        "li    a2, fs_RDBUF\n\t"
        "sw    a2, %%lo(fs_SYSBUS)(a5)\n\t"
        "li    a0, fs_HMASK\n\t"
        "li    t1, 0\n"
        "10:\n\t"                             /* command buffer t1: t0 = p, t6 = end, a1 = LIN_DMA allowed on its queue */
        "slli  a2, t1, 2\n\t"
        "add   a2, a6, a2\n\t"
        "lw    t0, fs_JCBA(a2)\n\t"
        "lw    t6, fs_JCBS(a2)\n\t"
        "add   t6, t0, t6\n\t"
        "add   a2, a6, t1\n\t"
        "lbu   a2, fs_JEQ(a2)\n\t"
        "srl   a1, a4, a2\n\t"
        "andi  a1, a1, 1\n\t"
        "11:\n\t"
        "beq   t0, t6, 80f\n\t"               /* no STOP */
        "lw    t3, 0(t0)\n\t"
        "and   a2, t3, a0\n\t"                /* reserved bits set: no opcode matches */
        "li    a5, fs_OSTOP\n\t"
        "beq   a2, a5, 16f\n\t"
        "li    a5, fs_OLIN\n\t"
        "beq   a2, a5, 13f\n\t"
        "srli  t3, t3, 16\n\t"
        "beqz  a2, 12f\n\t"                   /* NOP */
        "li    a5, fs_OWAIT\n\t"
        "beq   a2, a5, 12f\n\t"
        "li    a5, fs_OFENCE\n\t"
        "bne   a2, a5, 17f\n\t"
        "sltiu a5, t3, fs_NFENCE\n\t"
        "beqz  a5, 80f\n\t"
        "12:\n\t"
        "addi  t0, t0, 8\n\t"
        "j     11b\n\t"
        "17:\n\t"
        "li    a5, fs_OSHORT\n\t"
        "bne   a2, a5, 80f\n\t"
        "sltiu a5, t3, fs_FWSOB\n\t"
        "bnez  a5, 12b\n\t"
        "j     80f\n\t"
        "13:\n\t"                             /* LIN_DMA: a DMA queue, 16 bytes, destination then source inside one buffer */
        "beqz  a1, 80f\n\t"
        "addi  a5, t0, 16\n\t"
        "bltu  t6, a5, 80f\n\t"               /* truncated */
        "lw    t3, 4(t0)\n\t"                 /* size */
        "lw    a2, 12(t0)\n\t"                /* dst */
        "beqz  t3, 80f\n\t"
        "add   a5, a2, t3\n\t"
        "bltu  a5, a2, 80f\n\t"
        "addi  a3, a6, fs_JBB\n\t"
        "14:\n\t"
        "lw    t4, 0(a3)\n\t"
        "bltu  a2, t4, 15f\n\t"
        "lw    t4, fs_BEBB(a3)\n\t"
        "bgeu  t4, a5, 18f\n\t"
        "15:\n\t"
        "addi  a3, a3, 4\n\t"
        "bne   a3, t2, 14b\n\t"
        "j     80f\n\t"
        "18:\n\t"                             /* destination clear of the job's command buffers (off_cbs): buffer 0 here */
        "lw    t4, fs_JCBA(a6)\n\t"
        "lw    a1, fs_JCBS(a6)\n\t"
        "bgeu  t4, a5, 25f\n\t"               /* the buffer starts at or after the copy's end */
        "add   a1, t4, a1\n\t"
        "bltu  a2, a1, 80f\n"                 /* the copy starts before the buffer's end: overlap */
        "25:\n\t"
        "addi  a3, t5, -1\n\t"
        "bnez  a3, 26f\n"                     /* buffers 1.. out of line (a1 is not 0: LIN_DMA stays allowed) */
        "27:\n\t"
        "lw    a2, 8(t0)\n\t"                 /* src */
        "add   a5, a2, t3\n\t"
        "bltu  a5, a2, 80f\n\t"
        "addi  a3, a6, fs_JBB\n\t"
        "19:\n\t"
        "lw    t4, 0(a3)\n\t"
        "bltu  a2, t4, 20f\n\t"
        "lw    t4, fs_BEBB(a3)\n\t"
        "bgeu  t4, a5, 21f\n\t"
        "20:\n\t"
        "addi  a3, a3, 4\n\t"
        "bne   a3, t2, 19b\n\t"
        "j     80f\n\t"
        "21:\n\t"
        "ori   a7, a7, fs_FMEM\n\t"
        "addi  t0, t0, 16\n\t"
        "j     11b\n\t"
        "26:\n\t"                             /* the destination against buffers ncb-1 .. 1 */
        "slli  a3, a3, 2\n\t"
        "add   a3, a6, a3\n"
        "28:\n\t"
        "lw    t4, fs_JCBA(a3)\n\t"
        "lw    a1, fs_JCBS(a3)\n\t"
        "bgeu  t4, a5, 29f\n\t"
        "add   a1, t4, a1\n\t"
        "bltu  a2, a1, 80f\n"
        "29:\n\t"
        "addi  a3, a3, -4\n\t"
        "bne   a3, a6, 28b\n\t"
        "j     27b\n\t"
        "16:\n\t"                             /* STOP: next command buffer; then the read buffer off */
        "addi  t1, t1, 1\n\t"
        "bne   t1, t5, 10b\n\t"
        "lui   a5, %%hi(fs_SYSBUS)\n\t"
        "sw    zero, %%lo(fs_SYSBUS)(a5)\n\t"
        /* each queue (program_queues, start_queues): CB_BASE, CB_SIZE, COMP_ADDR = the slot's DONE object, CTRL.start; mtime right after the first start (t_first_start) */
        "slli  a3, a7, 1\n\t"
        "andi  a3, a3, (fs_NJOBS - 1) * 4\n\t"
        "li    a5, fs_COMP0\n\t"
        "add   a3, a3, a5\n\t"
        "li    t3, fs_QSTRIDE\n\t"
        "li    t4, fs_QBASE\n\t"
        "li    a1, fs_QSTART\n\t"
        "li    t1, 0\n\t"
        "22:\n\t"
        "add   a2, a6, t1\n\t"
        "lbu   a2, fs_JEQ(a2)\n\t"
        "mul   a2, a2, t3\n\t"
        "add   a2, a2, t4\n\t"
        "slli  a5, t1, 2\n\t"
        "add   a5, a6, a5\n\t"
        "lw    a0, fs_JCBA(a5)\n\t"
        "sw    a0, fs_QCBB(a2)\n\t"
        "lw    a0, fs_JCBS(a5)\n\t"
        "sw    a0, fs_QCBS(a2)\n\t"
        "sw    a3, fs_QCOMP(a2)\n\t"
        "sw    a1, fs_QCTRL(a2)\n\t"
        "bnez  t1, 23f\n\t"
        "lui   a5, %%hi(fs_MTIME)\n\t"
        "lw    a5, %%lo(fs_MTIME)(a5)\n\t"
        "lui   a0, %%hi(fs_TFSA)\n\t"
        "sw    a5, %%lo(fs_TFSA)(a0)\n\t"
        "23:\n\t"
        "addi  t1, t1, 1\n\t"
        "bne   t1, t5, 22b\n\t"
        "ori   a7, a7, fs_FTAKEN\n\t"
        "j     99f\n\t"
        "80:\n\t"                             /* refused by the packet check: read buffer off */
        "lui   a5, %%hi(fs_SYSBUS)\n\t"
        "sw    zero, %%lo(fs_SYSBUS)(a5)\n"
        "90:\n\t"
        "li    a7, 0\n"
        "99:\n"
        : "=r"(r_res)
        :
        : "a0", "a1", "a2", "a3", "a4", "a5", "a6", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "memory");
    return r_res;
}

__attribute__((noinline)) static int take_fast(void)
{
    uint32_t r = fast_start();
    if (UNLIKELY(!(r & FAST_TAKEN)))
        return 0;
    uint32_t slot = (r >> 1) & (FW_JOBS - 1u), q = (r >> 4) & (HIF_NUM_SQ - 1u), ci = hif.sq_ci[q];
    job_t *j = &jobs[slot];
    j->ndep = 0u;
    j->hostb = 0u;   /* the fast path takes device-memory buffers only */
    j->mem = (r & FAST_MEM) ? 1u : 0u;
    take_commit(j, slot, q, ci, &hif.sq[q][ci % HIF_SQ_ENTRIES], HIF_CAUSE_NONE, 0u, 1);
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
    take_fast();   /* (hif.cnt.doorbells: fw_cp_poll, FW_EV_DB_FAST) */
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
        eng_msgctrl[TESSERA_QMAN_SLOT_MME + i] = TESSERA_MME_ADDR(i) + (uint32_t)offsetof(mme_t, MSG_CTRL);
        eng_kind[TESSERA_QMAN_SLOT_MME + i] = ENG_MME;
    }
    for (uint32_t d = 0; d < TESSERA_DMA_ENGINES; d++) {
        eng_status[TESSERA_QMAN_SLOT_DMA + d] = TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, STATUS);
        eng_errmask[TESSERA_QMAN_SLOT_DMA + d] = DMA__STATUS__ERR_bm;
        eng_msgctrl[TESSERA_QMAN_SLOT_DMA + d] = TESSERA_DMA_ADDR(d) + (uint32_t)offsetof(dma_t, MSG_CTRL);
        eng_kind[TESSERA_QMAN_SLOT_DMA + d] = ENG_DMA;
    }
#if __has_include("regs/tpc_regs.h")
    eng_status[TESSERA_QMAN_SLOT_TPC] = TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, STATUS);
    eng_errmask[TESSERA_QMAN_SLOT_TPC] = TPC__STATUS__ERR_bm;
    eng_msgctrl[TESSERA_QMAN_SLOT_TPC] = TESSERA_TPC_ADDR(0) + (uint32_t)offsetof(tpc_t, MSG_CTRL);
    eng_kind[TESSERA_QMAN_SLOT_TPC] = ENG_TPC;
#endif
#endif
    /* an engine whose registers are not in this chip (a queue slot without its
     * engine, e.g. the TPC cluster before it is wired) is not checked */
    trap_set_exception_handler(CAUSE_LOAD_ACCESS, probe_trap);
    for (uint32_t k = 0; k < HIF_NUM_EQ; k++)
        if (!((present >> k) & 1u) || (eng_status[k] && !probe(eng_status[k])))
            eng_status[k] = eng_msgctrl[k] = 0u;
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
    if (events & FW_EV_DB_FAST)
        hif.cnt.doorbells++;   /* fw_cp_doorbell took it */
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
