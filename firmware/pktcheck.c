/* Tessera firmware: the packet check (docs/hostlink.md "Packet check").
 *
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
#include <stddef.h>
#include <stdint.h>

#include "regs/dma_regs.h"
#include "regs/mme_regs.h"
#if __has_include("regs/tpc_regs.h")
#include "regs/tpc_regs.h"
#endif
#include "tessera/hostif.h"
#include "tessera/cp_pkt.h"   /* packet encoding (opcodes, header bits, error codes) */
#include "tessera/mmio.h"
#include "cp_state.h"
#include "pktcheck.h"

/* on the doorbell-to-engine path (jobs the fast path leaves): optimised for speed */
#pragma GCC optimize("O2")

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
        if (((cp_hif.eq_present >> k) & 1u) && a - QM_ADDR(k, FENCE) < 4u * CP_FENCES)
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
    uint32_t n = j->cb_size[c], eq = j->eq[c], kind = cp_eng_kind[eq];
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
            else if (!((cp_hif.eq_dma >> eq) & 1u))
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

/* Every command buffer of job j (pktcheck.h). */
__attribute__((noinline)) uint32_t pkt_check_job(job_t *j)
{
    uint32_t d = 0u;
    rdbuf(1u);
    for (uint32_t c = 0; c < j->ncb && !d; c++)
        d = pkt_check(j, c);
    rdbuf(0u);
    return d;
}
