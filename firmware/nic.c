/* Tessera firmware: NIC administration (docs/firmware.md "NIC requests", the request
 * format in bsp/include/tessera/hostif.h, the port's registers in docs/nic.md).
 *
 * The host manages RDMA through requests in its submission rings (kind HIF_KIND_NIC):
 * QP create / modify / destroy / query, memory-region register / deregister, RDMA WRITE.
 * Each is validated here (port and QP in range, the QP's life cycle, a legal transition
 * of the NIC's QP state machine with IBA's required attributes, a region inside device
 * memory and clear of the firmware's area, a local buffer inside device memory), then
 * carried out through the port's registers; a refusal is an error completion naming the
 * port, the QP and the cause, and nothing is written to the port. A WRITE becomes a work
 * request at the port's doorbell; its completion (the port's completion queue, read on
 * the port's interrupt, INTC source 16 + p, and on every tick) becomes the request's
 * completion entry.
 *
 * The port's QP staging registers are shared by its 16 QPs and every modify into INIT,
 * RTR or RTS writes all of a QP's attributes, so the firmware keeps each QP's attributes
 * (qp_t) and writes them all before every such modify. The QP's state is read from the
 * port (the responder or the requester may have moved it to ERROR). */
#include <stddef.h>
#include <stdio.h>

#include "regs/nic_regs.h"
#include "tessera/hostif.h"
#include "tessera/tessera.h"
#include "events.h"
#include "cp_state.h"
#include "nic.h"

#if TESSERA_NIC_PORTS > 0

#define NPORTS   TESSERA_NIC_PORTS
#define NIC(p, r) MMIO32(TESSERA_NIC_ADDR(p) + (uint32_t)offsetof(nic_t, r))
#define NPEND    16u                  /* WRITEs in flight, all ports */
#define NO_IDX   0xFFu
#define PSN_MAX  0xFFFFFFu

typedef struct {
    uint8_t created, mtu, selective, retry;
    uint32_t lqpn, dqpn, rmac_lo, rmac_hi, rip, sq_psn, rq_psn, rto, guard;
} qp_t;

typedef struct {
    uint32_t valid, rkey;
} mr_t;

typedef struct {
    uint32_t seq, t_submit, t_start;
    uint8_t used, port, qp, sq, irq, gen;
} pend_t;

static qp_t qps[NPORTS][HIF_NIC_QPS];
static mr_t mrs[NPORTS][HIF_NIC_MRS];
static pend_t pend[NPEND];
static uint8_t npend[NPORTS];          /* WRITEs in flight per port */
static uint32_t npend_all;             /* and on all ports */
static volatile uint32_t irq_ports;   /* ports whose interrupt came (source disabled until handled) */

/* ------------------------------------------------------------------ completions */
static int post(const hif_nic_req_t *r, uint32_t q, uint32_t cause, uint32_t detail, uint32_t t0,
                const hif_nic_info_t *info)
{
    hif_cqe_t e = {HIF_CQE_FLAGS(cause ? HIF_ST_ERROR : HIF_ST_OK, cause), r->seq, detail, q, t0, t0, now32(), 0u};
    if (!cp_cq_put(&e, (r->ctrl & HIF_JOB_IRQ) ? 1u : 0u, info))
        return 0;
    if (cause) {
        static const char *const names[HIF_CAUSE_COUNT] = HIF_CAUSE_NAMES;
        cp_hif.cnt.jobs_error++;
        printf("fw: nic request %lu error: %s (port %lu qp %lu detail 0x%lx)\n", (unsigned long)r->seq,
               cause < HIF_CAUSE_COUNT ? names[cause] : "?", (unsigned long)HIF_NIC_DETAIL_PORT(detail),
               (unsigned long)HIF_NIC_DETAIL_QP(detail), (unsigned long)detail);
    } else {
        cp_hif.cnt.jobs_ok++;
    }
    return 1;
}

/* ------------------------------------------------------------------ QPs */
static uint32_t qp_state(uint32_t p, uint32_t qp)
{
    NIC(p, QP_SEL) = qp;
    return FIELD_GET(NIC__QP_STATUS__STATE, NIC(p, QP_STATUS));
}

/* The NIC's QP state machine (docs/nic.md "QP states"): RESET -> INIT, INIT -> INIT / RTR,
 * RTR -> RTS, RTS -> RTS, any -> RESET / ERROR. */
static int legal(uint32_t from, uint32_t to)
{
    if (to == HIF_QPS_RESET || to == HIF_QPS_ERROR)
        return 1;
    switch (from) {
    case HIF_QPS_RESET: return to == HIF_QPS_INIT;
    case HIF_QPS_INIT: return to == HIF_QPS_INIT || to == HIF_QPS_RTR;
    case HIF_QPS_RTR: return to == HIF_QPS_RTS;
    case HIF_QPS_RTS: return to == HIF_QPS_RTS;
    default: return 0;
    }
}

/* The first attribute of mask whose value is out of range (0: all good). */
static uint32_t attr_bad(const hif_nic_req_t *r, uint32_t mask)
{
    if ((mask & HIF_NIC_ATTR_DEST) && (r->dqpn > PSN_MAX || r->rmac_hi > 0xFFFFu))
        return HIF_NIC_ATTR_DEST;
    if ((mask & HIF_NIC_ATTR_MTU) && (r->mtu < 1u || r->mtu > 5u))
        return HIF_NIC_ATTR_MTU;
    if ((mask & HIF_NIC_ATTR_MODE) && r->selective > 1u)
        return HIF_NIC_ATTR_MODE;
    if ((mask & HIF_NIC_ATTR_RQ_PSN) && r->rq_psn > PSN_MAX)
        return HIF_NIC_ATTR_RQ_PSN;
    if ((mask & HIF_NIC_ATTR_SQ_PSN) && r->sq_psn > PSN_MAX)
        return HIF_NIC_ATTR_SQ_PSN;
    if ((mask & HIF_NIC_ATTR_RETRY) && r->retry > 0xFFu)
        return HIF_NIC_ATTR_RETRY;
    if ((mask & HIF_NIC_ATTR_TIMER) && (r->rto == 0u || r->guard == 0u || r->guard > 0xFFFFu))
        return HIF_NIC_ATTR_TIMER;
    return 0u;
}

/* Every attribute of QP x into the port's staging registers (the port writes them all
 * at a modify into INIT, RTR or RTS). */
static void qp_stage(uint32_t p, uint32_t qp, const qp_t *x)
{
    NIC(p, QP_SEL) = qp;
    NIC(p, QP_LQPN) = x->lqpn;
    NIC(p, QP_DQPN) = x->dqpn;
    NIC(p, QP_RMAC_LO) = x->rmac_lo;
    NIC(p, QP_RMAC_HI) = x->rmac_hi;
    NIC(p, QP_RIP) = x->rip;
    NIC(p, QP_CFG) = FIELD_PREP(NIC__QP_CFG__MTU, x->mtu) | (x->selective ? NIC__QP_CFG__SELECTIVE_bm : 0u);
    NIC(p, QP_SQ_PSN) = x->sq_psn;
    NIC(p, QP_RQ_PSN) = x->rq_psn;
    NIC(p, QP_RTO) = x->rto;
    NIC(p, QP_REQ_CFG) = FIELD_PREP(NIC__QP_REQ_CFG__RETRY, x->retry) |
                         FIELD_PREP(NIC__QP_REQ_CFG__SPORT, 0xC000u | (x->lqpn & 0x3FFFu));
    NIC(p, QP_GUARD) = x->guard;
}

/* QP_CMD to state `to` for QP_SEL; the port's result code (0 done). */
static uint32_t qp_cmd(uint32_t p, uint32_t to)
{
    NIC(p, QP_CMD) = FIELD_PREP(NIC__QP_CMD__STATE, to) | NIC__QP_CMD__GO_bm;
    return FIELD_GET(NIC__QP_STATUS__ERR, NIC(p, QP_STATUS));
}

static uint32_t qp_create(const hif_nic_req_t *r, uint32_t *det)
{
    uint32_t p = r->port, qp = r->qp, qpn = r->qpn ? r->qpn : HIF_NIC_QPN_DEFAULT(p, qp);
    qp_t *x = &qps[p][qp];
    if (x->created) {
        *det = HIF_NIC_DETAIL(p, qp, HIF_NIC_QP_EXISTS);
        return HIF_CAUSE_NIC_QP;
    }
    if (qpn > PSN_MAX) {
        *det = HIF_NIC_DETAIL(p, qp, HIF_NIC_ATTR_QPN);
        return HIF_CAUSE_NIC_ATTR;
    }
    for (uint32_t k = 0; k < HIF_NIC_QPS; k++)
        if (qps[p][k].created && qps[p][k].lqpn == qpn) {
            *det = HIF_NIC_DETAIL(p, qp, HIF_NIC_QP_QPN_USED);
            return HIF_CAUSE_NIC_QP;
        }
    qp_t n = {1u, 3u, 1u, 7u, qpn, 0u, 0u, 0u, 0u, 0u, 0u, 20000u, 1000u};   /* the port's reset values */
    *x = n;
    NIC(p, QP_SEL) = qp;
    (void)qp_cmd(p, HIF_QPS_RESET);   /* always legal */
    *det = qpn;
    return HIF_CAUSE_NONE;
}

static uint32_t qp_modify(const hif_nic_req_t *r, uint32_t *det)
{
    uint32_t p = r->port, qp = r->qp, to = r->state, mask = r->attr_mask;
    qp_t *x = &qps[p][qp];
    uint32_t from = qp_state(p, qp);
    if (to > HIF_QPS_ERROR || !legal(from, to)) {
        *det = HIF_NIC_DETAIL(p, qp, (from << 4) | (to & 0xFu));
        return HIF_CAUSE_NIC_STATE;
    }
    uint32_t need = 0u;
    if (from == HIF_QPS_INIT && to == HIF_QPS_RTR)
        need = HIF_NIC_ATTR_NEED_RTR;
    else if (from == HIF_QPS_RTR && to == HIF_QPS_RTS)
        need = HIF_NIC_ATTR_NEED_RTS;
    uint32_t bad = (mask & ~HIF_NIC_ATTR_ALL) ? (mask & ~HIF_NIC_ATTR_ALL) : (need & ~mask);
    if (!bad)
        bad = attr_bad(r, mask);
    if (bad) {
        *det = HIF_NIC_DETAIL(p, qp, bad & (0u - bad));   /* the lowest offending bit */
        return HIF_CAUSE_NIC_ATTR;
    }
    if (to == HIF_QPS_RESET || to == HIF_QPS_ERROR) {
        NIC(p, QP_SEL) = qp;
        (void)qp_cmd(p, to);
        *det = HIF_NIC_DETAIL(p, qp, to);
        return HIF_CAUSE_NONE;
    }
    qp_t n = *x;
    if (mask & HIF_NIC_ATTR_DEST) {
        n.dqpn = r->dqpn;
        n.rmac_lo = r->rmac_lo;
        n.rmac_hi = r->rmac_hi;
        n.rip = r->rip;
    }
    if (mask & HIF_NIC_ATTR_MTU)
        n.mtu = (uint8_t)r->mtu;
    if (mask & HIF_NIC_ATTR_MODE)
        n.selective = (uint8_t)r->selective;
    if (mask & HIF_NIC_ATTR_RQ_PSN)
        n.rq_psn = r->rq_psn;
    if (mask & HIF_NIC_ATTR_SQ_PSN)
        n.sq_psn = r->sq_psn;
    if (mask & HIF_NIC_ATTR_RETRY)
        n.retry = (uint8_t)r->retry;
    if (mask & HIF_NIC_ATTR_TIMER) {
        n.rto = r->rto;
        n.guard = r->guard;
    }
    qp_stage(p, qp, &n);
    uint32_t err = qp_cmd(p, to);
    if (err) {   /* the port refused what the checks above passed: state changed meanwhile */
        *det = HIF_NIC_DETAIL(p, qp, (qp_state(p, qp) << 4) | to);
        return HIF_CAUSE_NIC_STATE;
    }
    *x = n;
    *det = HIF_NIC_DETAIL(p, qp, to);
    return HIF_CAUSE_NONE;
}

static void qp_query(uint32_t p, uint32_t qp, hif_nic_info_t *i)
{
    const qp_t *x = &qps[p][qp];
    NIC(p, QP_SEL) = qp;
    uint32_t st = NIC(p, QP_STATUS), rq = NIC(p, QP_RD_REQ), cfg = NIC(p, QP_RD_CFG);
    i->state = FIELD_GET(NIC__QP_STATUS__STATE, st) | ((rq & NIC__QP_RD_REQ__PRESENT_bm) ? HIF_NIC_INFO_REQ : 0u) |
               ((rq & NIC__QP_RD_REQ__ERR_bm) ? HIF_NIC_INFO_REQ_ERR : 0u) |
               ((rq & NIC__QP_RD_REQ__IDLE_bm) ? HIF_NIC_INFO_REQ_IDLE : 0u) |
               (FIELD_GET(NIC__QP_RD_CFG__MTU, cfg) << 8) |
               ((cfg & NIC__QP_RD_CFG__SELECTIVE_bm) ? HIF_NIC_INFO_SELECTIVE : 0u);
    i->lqpn = NIC(p, QP_RD_LQPN);
    i->dqpn = NIC(p, QP_RD_DQPN);
    i->sq_psn = x->sq_psn;
    i->rq_psn = x->rq_psn;
    i->pkts = NIC(p, CNT_REQ_PKTS);
    i->resends = NIC(p, CNT_REQ_RESENDS);
    i->timeouts = NIC(p, CNT_REQ_TIMEOUTS);
}

/* ------------------------------------------------------------------ memory regions */
static uint32_t mr_reg(const hif_nic_req_t *r, uint32_t *det)
{
    uint32_t p = r->port;
    const uint32_t lo = TESSERA_HBM_BASE + HIF_NIC_FW_AREA_BYTES, off = r->addr - lo;
    if (r->access == 0u || (r->access & ~(HIF_NIC_MR_READ | HIF_NIC_MR_WRITE))) {
        *det = HIF_NIC_DETAIL(p, NO_IDX, HIF_NIC_MR_ACCESS);
        return HIF_CAUSE_NIC_MR;
    }
    if (r->len == 0u || off >= TESSERA_HBM_SIZE - HIF_NIC_FW_AREA_BYTES ||
        r->len > TESSERA_HBM_SIZE - HIF_NIC_FW_AREA_BYTES - off) {
        *det = HIF_NIC_DETAIL(p, NO_IDX, 0u);
        return HIF_CAUSE_NIC_MR_RANGE;
    }
    uint32_t idx = NO_IDX;
    for (uint32_t k = 0; k < HIF_NIC_MRS; k++) {
        if (mrs[p][k].valid && mrs[p][k].rkey == r->rkey) {
            *det = HIF_NIC_DETAIL(p, k, HIF_NIC_MR_KEY_USED);
            return HIF_CAUSE_NIC_MR;
        }
        if (!mrs[p][k].valid && idx == NO_IDX)
            idx = k;
    }
    if (idx == NO_IDX) {
        *det = HIF_NIC_DETAIL(p, NO_IDX, HIF_NIC_MR_FULL);
        return HIF_CAUSE_NIC_MR;
    }
    NIC(p, MR_SEL) = idx;
    NIC(p, MR_BASE_LO) = r->addr;
    NIC(p, MR_BASE_HI) = 0u;
    NIC(p, MR_LEN) = r->len;
    NIC(p, MR_RKEY) = r->rkey;
    NIC(p, MR_CFG) = NIC__MR_CFG__VALID_bm | ((r->access & HIF_NIC_MR_READ) ? NIC__MR_CFG__RD_OK_bm : 0u) |
                     ((r->access & HIF_NIC_MR_WRITE) ? NIC__MR_CFG__WR_OK_bm : 0u);
    NIC(p, MR_CMD) = NIC__MR_CMD__GO_bm;
    mrs[p][idx].valid = 1u;
    mrs[p][idx].rkey = r->rkey;
    *det = idx;
    return HIF_CAUSE_NONE;
}

static uint32_t mr_dereg(const hif_nic_req_t *r, uint32_t *det)
{
    uint32_t p = r->port, idx = r->qp;
    if (idx >= HIF_NIC_MRS || !mrs[p][idx].valid) {
        *det = HIF_NIC_DETAIL(p, idx, idx >= HIF_NIC_MRS ? HIF_NIC_MR_RANGE : HIF_NIC_MR_NONE);
        return HIF_CAUSE_NIC_MR;
    }
    NIC(p, MR_SEL) = idx;
    NIC(p, MR_BASE_LO) = 0u;
    NIC(p, MR_BASE_HI) = 0u;
    NIC(p, MR_LEN) = 0u;
    NIC(p, MR_RKEY) = 0u;
    NIC(p, MR_CFG) = 0u;
    NIC(p, MR_CMD) = NIC__MR_CMD__GO_bm;
    mrs[p][idx].valid = 0u;
    *det = idx;
    return HIF_CAUSE_NONE;
}

/* ------------------------------------------------------------------ WRITE */
/* HIF_CAUSE_NONE: posted at the port's doorbell; WAIT: no room in the firmware's table
 * or the port's work-request queue (the request stays in its ring); else the cause. */
#define WAIT 0xFFu
static uint32_t post_write(const hif_nic_req_t *r, uint32_t q, uint32_t t0, uint32_t *det)
{
    uint32_t p = r->port, qp = r->qp;
    NIC(p, QP_SEL) = qp;
    if (!(NIC(p, QP_RD_REQ) & NIC__QP_RD_REQ__PRESENT_bm)) {
        *det = HIF_NIC_DETAIL(p, qp, HIF_NIC_QP_NO_REQ);
        return HIF_CAUSE_NIC_QP;
    }
    uint32_t st = qp_state(p, qp);
    if (st != HIF_QPS_RTS) {
        *det = HIF_NIC_DETAIL(p, qp, st);
        return HIF_CAUSE_NIC_NOT_RTS;
    }
    uint32_t off = r->addr - TESSERA_HBM_BASE;
    if ((r->addr & 31u) || off >= TESSERA_HBM_SIZE || r->len > TESSERA_HBM_SIZE - off) {
        *det = HIF_NIC_DETAIL(p, qp, 0u);
        return HIF_CAUSE_NIC_BUF;
    }
    uint32_t k = 0;
    while (k < NPEND && pend[k].used)
        k++;
    if (k == NPEND || (NIC(p, WR_STATUS) & NIC__WR_STATUS__FULL_bm))
        return WAIT;
    pend_t *w = &pend[k];
    w->gen = (uint8_t)(w->gen + 1u);
    NIC(p, WR_QP) = qp;
    NIC(p, WR_ID) = ((uint32_t)w->gen << 4) | k;
    NIC(p, WR_LADDR) = r->addr;
    NIC(p, WR_VA_LO) = r->va_lo;
    NIC(p, WR_VA_HI) = r->va_hi;
    NIC(p, WR_RKEY) = r->rkey;
    NIC(p, WR_LEN) = r->len;
    NIC(p, WR_DOORBELL) = NIC__WR_DOORBELL__GO_bm;
    if (NIC(p, WR_STATUS) & NIC__WR_STATUS__LOST_bm) {   /* (the queue was checked above: not expected) */
        NIC(p, WR_STATUS) = NIC__WR_STATUS__LOST_bm;
        *det = HIF_NIC_DETAIL(p, qp, 0u);
        return HIF_CAUSE_NIC_BUSY;
    }
    w->used = 1u;
    npend[p]++;
    npend_all++;
    w->seq = r->seq;
    w->t_submit = t0;
    w->t_start = now32();
    w->port = (uint8_t)p;
    w->qp = (uint8_t)qp;
    w->sq = (uint8_t)q;
    w->irq = (r->ctrl & HIF_JOB_IRQ) ? 1u : 0u;
    return HIF_CAUSE_NONE;
}

/* ------------------------------------------------------------------ requests */
int fw_nic_take(const hif_nic_req_t *r, uint32_t q)
{
    if (cp_hif.cq_pi - cp_hif.cq_ci >= HIF_CQ_ENTRIES)
        return 0;   /* its completion could not be posted: later */
    const uint32_t t0 = now32(), op = r->ctrl & 0xFFu, p = r->port, qp = r->qp;
    uint32_t cause = HIF_CAUSE_NONE, det = 0u;
    int bad_word = -1;
    if ((r->ctrl & HIF_NIC_CTRL_RSVD_MASK) || op == 0u || op >= HIF_NIC_OP_COUNT)
        bad_word = 1;
    else if (r->rsvd0)
        bad_word = 2;
    for (uint32_t i = 0; i < sizeof r->rsvd / 4u && bad_word < 0; i++)
        if (r->rsvd[i])
            bad_word = (int)(offsetof(hif_nic_req_t, rsvd) / 4u + i);
    if (bad_word >= 0) {
        cause = HIF_CAUSE_NIC_REQUEST;
        det = (uint32_t)bad_word;
    } else if (p >= NPORTS) {
        cause = HIF_CAUSE_NIC_PORT;
        det = HIF_NIC_DETAIL(p, qp, 0u);
    } else if (op != HIF_NIC_PORT_SET && op != HIF_NIC_MR_REG && op != HIF_NIC_MR_DEREG) {
        if (qp >= HIF_NIC_QPS) {
            cause = HIF_CAUSE_NIC_QP;
            det = HIF_NIC_DETAIL(p, qp, HIF_NIC_QP_RANGE);
        } else if (op != HIF_NIC_QP_CREATE && !qps[p][qp].created) {
            cause = HIF_CAUSE_NIC_QP;
            det = HIF_NIC_DETAIL(p, qp, HIF_NIC_QP_NONE);
        }
    }
    hif_nic_info_t info;
    const hif_nic_info_t *ip = 0;
    if (cause == HIF_CAUSE_NONE) {
        switch (op) {
        case HIF_NIC_PORT_SET:
            if (r->rmac_hi > 0xFFFFu) {
                cause = HIF_CAUSE_NIC_ATTR;
                det = HIF_NIC_DETAIL(p, NO_IDX, HIF_NIC_ATTR_DEST);
                break;
            }
            NIC(p, PORT_MAC_LO) = r->rmac_lo;
            NIC(p, PORT_MAC_HI) = r->rmac_hi;
            NIC(p, PORT_IP) = r->rip;
            det = HIF_NIC_DETAIL(p, NO_IDX, 0u);
            break;
        case HIF_NIC_QP_CREATE: cause = qp_create(r, &det); break;
        case HIF_NIC_QP_MODIFY: cause = qp_modify(r, &det); break;
        case HIF_NIC_QP_DESTROY:
            NIC(p, QP_SEL) = qp;
            (void)qp_cmd(p, HIF_QPS_RESET);   /* the port flushes its open WRITEs (completions follow) */
            qps[p][qp].created = 0u;
            det = HIF_NIC_DETAIL(p, qp, 0u);
            break;
        case HIF_NIC_QP_QUERY:
            qp_query(p, qp, &info);
            ip = &info;
            det = HIF_NIC_DETAIL(p, qp, 0u);
            break;
        case HIF_NIC_MR_REG: cause = mr_reg(r, &det); break;
        case HIF_NIC_MR_DEREG: cause = mr_dereg(r, &det); break;
        default:   /* HIF_NIC_WRITE */
            cause = post_write(r, q, t0, &det);
            if (cause == WAIT)
                return 0;   /* taken once a completion has made room */
            if (cause == HIF_CAUSE_NONE)
                return 1;   /* completed by fw_nic_poll */
            break;
        }
    }
    (void)post(r, q, cause, det, t0, ip);   /* (room checked above) */
    return 1;
}

/* NIC completion status -> cause */
static uint32_t cpl_cause(uint32_t st)
{
    static const uint8_t c[8] = {HIF_CAUSE_NONE,        HIF_CAUSE_NIC_RETRY,   HIF_CAUSE_NIC_REMOTE,
                                 HIF_CAUSE_NIC_LOCAL,   HIF_CAUSE_NIC_FLUSHED, HIF_CAUSE_NIC_REFUSED,
                                 HIF_CAUSE_NIC_REFUSED, HIF_CAUSE_NIC_REFUSED};
    return c[st & 7u];
}

/* Completions of port p into completion entries, oldest first, while the ring has room. */
static void drain(uint32_t p)
{
    for (;;) {
        uint32_t h = NIC(p, CQ_HEAD);
        if (!(h & NIC__CQ_HEAD__VALID_bm))
            return;
        uint32_t id = FIELD_GET(NIC__CQ_HEAD__ID, h), qp = FIELD_GET(NIC__CQ_HEAD__QP, h);
        uint32_t st = FIELD_GET(NIC__CQ_HEAD__STATUS, h);
        pend_t *w = &pend[id & (NPEND - 1u)];
        if (!w->used || w->port != p || w->qp != qp || w->gen != (uint8_t)(id >> 4)) {
            printf("fw: nic port %lu: completion 0x%08lx of no request\n", (unsigned long)p, (unsigned long)h);
            NIC(p, CQ_POP) = NIC__CQ_POP__GO_bm;
            continue;
        }
        uint32_t cause = cpl_cause(st);
        hif_cqe_t e = {HIF_CQE_FLAGS(cause ? HIF_ST_ERROR : HIF_ST_OK, cause), w->seq,
                       HIF_NIC_DETAIL(p, qp, st), w->sq, w->t_submit, w->t_start, now32(), 0u};
        if (!cp_cq_put(&e, w->irq, 0))
            return;   /* ring full: the entry stays at the port's queue head */
        NIC(p, CQ_POP) = NIC__CQ_POP__GO_bm;
        w->used = 0u;
        npend[p]--;
        npend_all--;
        if (cause) {
            cp_hif.cnt.jobs_error++;
            printf("fw: nic request %lu error: port %lu qp %lu status %lu, QP state %lu\n", (unsigned long)e.seq,
                   (unsigned long)p, (unsigned long)qp, (unsigned long)st, (unsigned long)qp_state(p, qp));
        } else {
            cp_hif.cnt.jobs_ok++;
        }
    }
}

static void nic_isr(uint32_t src)
{
    intc_disable(src);   /* level: enabled again once the port's status is cleared */
    irq_ports = irq_ports | (1u << (src - INTC_SRC_NIC(0)));
    fw_events = fw_events | FW_EV_ENGINE;
}

void fw_nic_poll(void)
{
    if (!npend_all && !irq_ports)
        return;   /* the common case of a job's scheduler pass: nothing to read */
    uint32_t seen = irq_ports;
    irq_ports = 0u;
    for (uint32_t p = 0; p < NPORTS; p++) {
        /* a port without WRITEs in flight and without an interrupt is not read (this
         * runs in every scheduler pass after a job event) */
        if (!npend[p] && !((seen >> p) & 1u))
            continue;
        /* status first, then the queue: a completion after the clear raises it again */
        uint32_t s = NIC(p, IRQ_STATUS);
        if (s) {
            NIC(p, IRQ_STATUS) = s;
            if (s & NIC__IRQ_STATUS__ERR_bm) {
                uint32_t e = NIC(p, ERR_INFO);
                printf("fw: nic port %lu: error NAK 0x%02lx sent on qp %lu\n", (unsigned long)p,
                       (unsigned long)FIELD_GET(NIC__ERR_INFO__CODE, e), (unsigned long)FIELD_GET(NIC__ERR_INFO__QP, e));
            }
        }
        drain(p);
        if ((seen >> p) & 1u)
            intc_enable(INTC_SRC_NIC(p));
    }
}

void fw_nic_init(void)
{
    for (uint32_t p = 0; p < NPORTS; p++) {
        NIC(p, IRQ_STATUS) = NIC__IRQ_STATUS__ERR_bm | NIC__IRQ_STATUS__CPL_bm | NIC__IRQ_STATUS__CPL_ERR_bm;
        NIC(p, IRQ_EN) = NIC__IRQ_EN__ERR_bm | NIC__IRQ_EN__CPL_bm | NIC__IRQ_EN__CPL_ERR_bm;
        intc_set_handler(INTC_SRC_NIC(p), nic_isr);
        intc_enable(INTC_SRC_NIC(p));
    }
}

#else /* a chip without NIC ports: every request is refused */

int fw_nic_take(const hif_nic_req_t *r, uint32_t q)
{
    uint32_t t0 = now32();
    hif_cqe_t e = {HIF_CQE_FLAGS(HIF_ST_ERROR, HIF_CAUSE_NIC_REQUEST), r->seq, 1u, q, t0, t0, t0, 0u};
    if (!cp_cq_put(&e, (r->ctrl & HIF_JOB_IRQ) ? 1u : 0u, 0))
        return 0;
    cp_hif.cnt.jobs_error++;
    return 1;
}
void fw_nic_poll(void) {}
void fw_nic_init(void) {}

#endif
