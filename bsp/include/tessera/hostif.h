/* Tessera host interface: the submission/completion queues shared by the host
 * (hostlink/, docs/hostlink.md) and the firmware scheduler (firmware/cp.c,
 * docs/firmware.md). Shared by both sides like image.h: plain C, fixed-width
 * little-endian words, no pointers.
 *
 * The firmware places one hif_block_t in its DSRAM and publishes its address in
 * SYSCTRL.SCRATCH3 (HIF_SCRATCH_INDEX) before FW_STATUS.state becomes IDLE.
 * Indices are free-running 32-bit counters; the slot of index i is
 * i % <entries>. A ring is empty when pi == ci and full when pi - ci == entries.
 *
 *   host                                     firmware
 *   write sq[q][pi % N], then sq_pi[q] = pi+1
 *   INTC.SWIRQ = 1 << HIF_SWIRQ_DOORBELL  -> takes jobs, sq_ci[q] advances
 *                                             ... engines run ...
 *                                          <- writes cq[cq_pi % M] (flags last),
 *                                             cq_pi + 1, INTC.SWIRQ bit HIF_SWIRQ_HOST
 *   reads cq entries (READY), clears flags, cq_ci = ...; INTC.SWIRQ_CLR bit HIF_SWIRQ_HOST
 */
#ifndef TESSERA_HOSTIF_H
#define TESSERA_HOSTIF_H

#include <stdint.h>

#define HIF_MAGIC          0x31514C48u  /* bytes 'H','L','Q','1' */
#define HIF_VERSION        3u   /* 2: counters gained tpc_cancels; 3: NIC requests, cq_info */
#define HIF_SCRATCH_INDEX  3u           /* SYSCTRL.SCRATCH3 = address of the block */

/* INTC software interrupts (source 24 + n) */
#define HIF_SWIRQ_DOORBELL 0u  /* host -> firmware: a producer index moved */
#define HIF_SWIRQ_EVENT    1u  /* Sync-Manager monitor payload -> firmware: a job finished */
#define HIF_SWIRQ_HOST     2u  /* firmware -> host (HOST_EN): a completion was posted */

#define HIF_NUM_SQ         4u   /* submission queues; queue 0 has the highest priority */
#define HIF_SQ_ENTRIES     8u   /* jobs per submission ring */
#define HIF_CQ_ENTRIES     32u  /* completion ring entries */
#define HIF_MAX_CBS        4u   /* command buffers per job */
#define HIF_MAX_DEPS       4u   /* dependencies per job */
#define HIF_MAX_BUFS       4u   /* buffers (device- or host-memory ranges) per job */
#define HIF_NUM_EQ         16u  /* engine queue ids = QMAN slots 0..15 */

/* Job descriptor (one submission-ring entry, 128 bytes). */
typedef struct {
  uint32_t seq;        /* sequence number chosen by the host: non-zero, increasing */
  uint32_t ctrl;       /* HIF_JOB_* fields below */
  uint32_t budget;     /* watchdog budget in cycles from the start (0 = HIF_DEFAULT_BUDGET) */
  uint32_t rsvd0;      /* 0 */
  uint32_t dep[HIF_MAX_DEPS];                        /* sequence numbers waited for */
  struct { uint32_t base, size; } buf[HIF_MAX_BUFS]; /* the job's buffers: device memory, or host memory (HOST window: DMA engines only, no command buffers) */
  struct { uint32_t eq, addr, size, rsvd; } cb[HIF_MAX_CBS];  /* command buffers */
} hif_job_t;

#define HIF_JOB_NCB_BP    0u   /* [3:0]   command buffers, 1..HIF_MAX_CBS */
#define HIF_JOB_NDEP_BP   4u   /* [7:4]   dependencies, 0..HIF_MAX_DEPS */
#define HIF_JOB_NBUF_BP   8u   /* [11:8]  buffers, 0..HIF_MAX_BUFS */
#define HIF_JOB_IRQ       (1u << 16)  /* raise the host interrupt on completion */
#define HIF_JOB_RSVD_MASK 0xFFFEF000u   /* (includes the kind field: a command-buffer job has kind 0) */
#define HIF_JOB_KIND_BP   28u  /* [31:28] kind of the ring entry: 0 a job of command buffers, HIF_KIND_NIC */
#define HIF_JOB_KIND(ctrl) (((ctrl) >> HIF_JOB_KIND_BP) & 0xFu)
#define HIF_KIND_NIC      1u   /* a NIC administration request (hif_nic_req_t) */
#define HIF_JOB_CTRL(ncb, ndep, nbuf, irq) \
  (((uint32_t)(ncb) << HIF_JOB_NCB_BP) | ((uint32_t)(ndep) << HIF_JOB_NDEP_BP) | \
   ((uint32_t)(nbuf) << HIF_JOB_NBUF_BP) | ((irq) ? HIF_JOB_IRQ : 0u))
#define HIF_DEFAULT_BUDGET 2000000u   /* cycles */

/* Completion entry (32 bytes). The firmware writes `flags` last. */
typedef struct {
  uint32_t flags;      /* HIF_CQE_READY | status << 8 | cause << 16 */
  uint32_t seq;        /* the job's sequence number (0 for HIF_CAUSE_SQ_OVERFLOW) */
  uint32_t detail;     /* cause-specific (below) */
  uint32_t sq;         /* submission queue the job came from */
  uint32_t t_submit;   /* mtime (low 32 bits) when the firmware took the job */
  uint32_t t_start;    /* mtime when its engine queues were started (0: never) */
  uint32_t t_end;      /* mtime when the firmware saw it finish */
  uint32_t rsvd;
} hif_cqe_t;

#define HIF_CQE_READY       1u
#define HIF_CQE_INFO        2u   /* cq_info[] of the same slot holds the entry's record (NIC QP query) */
#define HIF_CQE_STATUS(f)   (((f) >> 8) & 0xFFu)
#define HIF_CQE_CAUSE(f)    (((f) >> 16) & 0xFFu)
#define HIF_CQE_FLAGS(st, cause) (HIF_CQE_READY | ((uint32_t)(st) << 8) | ((uint32_t)(cause) << 16))

enum hif_status {
  HIF_ST_OK      = 0,  /* every command buffer reached STOP */
  HIF_ST_ERROR   = 1,  /* rejected by validation, or an engine queue stopped with an error */
  HIF_ST_ABORTED = 2   /* watchdog: past its budget; its engine queues were reset */
};

enum hif_cause {          /* detail: */
  HIF_CAUSE_NONE        = 0,
  HIF_CAUSE_BAD_DESC    = 1,  /* ctrl word; counts out of range or reserved bits set */
  HIF_CAUSE_BAD_QUEUE   = 2,  /* cb index << 8 | eq: unknown/absent engine queue, or used twice */
  HIF_CAUSE_CB_RANGE    = 3,  /* cb index: misaligned, empty, or not inside one job buffer */
  HIF_CAUSE_BUF_RANGE   = 4,  /* buffer index: not inside device memory */
  HIF_CAUSE_BAD_DEP     = 5,  /* dependency index: not an earlier sequence number */
  HIF_CAUSE_DEP_FAILED  = 6,  /* sequence number of the failed dependency */
  HIF_CAUSE_QMAN        = 7,  /* cb index << 8 | QMAN STATUS.err (docs/packets.md) */
  HIF_CAUSE_WATCHDOG    = 8,  /* cycles run */
  HIF_CAUSE_SQ_OVERFLOW = 9,  /* producer index moved more than HIF_SQ_ENTRIES past the consumer */
  HIF_CAUSE_ENGINE      = 10, /* cb index << 8 | the engine's STATUS.err after its buffer (MME, DMA, TPC) */
  HIF_CAUSE_PACKET      = 11, /* HIF_PKT_DETAIL(cb, reason, packet offset): refused by the packet check */
  /* NIC requests (hif_nic_req_t); detail HIF_NIC_DETAIL(port, qp, why) unless said otherwise */
  HIF_CAUSE_NIC_REQUEST = 12, /* word index: unknown op, reserved ctrl bits or words not 0, no NIC port in the chip */
  HIF_CAUSE_NIC_PORT    = 13, /* port out of range */
  HIF_CAUSE_NIC_QP      = 14, /* why HIF_NIC_QP_*: QP index out of range, not created, created twice, QPN in use, no requester */
  HIF_CAUSE_NIC_STATE   = 15, /* why = from << 4 | to: not a legal transition of the NIC's QP state machine */
  HIF_CAUSE_NIC_ATTR    = 16, /* why = the HIF_NIC_ATTR_* bit missing for the transition, or out of range */
  HIF_CAUSE_NIC_MR_RANGE= 17, /* qp = region index or 0xFF: region empty, outside device memory or over the firmware's area */
  HIF_CAUSE_NIC_MR      = 18, /* why HIF_NIC_MR_*: no free region, index out of range, not registered, R_Key in use, rights */
  HIF_CAUSE_NIC_BUF     = 19, /* WRITE: local buffer not 32-byte aligned or not inside device memory */
  HIF_CAUSE_NIC_NOT_RTS = 20, /* WRITE: why = the QP's state (not RTS) */
  HIF_CAUSE_NIC_BUSY    = 21, /* WRITE: the port lost the work request at its doorbell (not expected: the queue is checked first) */
  HIF_CAUSE_NIC_RETRY   = 22, /* WRITE completion: retry limit (no ACK progress), QP in ERROR; why = NIC status 1 */
  HIF_CAUSE_NIC_REMOTE  = 23, /* WRITE completion: error NAK from the responder (R_Key, bounds, rights, remote memory), QP in ERROR; why 2 */
  HIF_CAUSE_NIC_LOCAL   = 24, /* WRITE completion: local memory read error, QP in ERROR; why 3 */
  HIF_CAUSE_NIC_FLUSHED = 25, /* WRITE completion: flushed, the QP left RTS (an earlier error, a modify); why 4 */
  HIF_CAUSE_NIC_REFUSED = 26, /* WRITE completion: the port refused it (QP not in RTS when it reached the queue head); why 5 */
  HIF_CAUSE_COUNT
};
/* Packet check (firmware, before a job starts): detail of HIF_CAUSE_PACKET =
 * cb index [31:28], reason [27:20], byte offset of the packet in its buffer [19:0].
 * Reasons 1..14 are the queue manager's error codes (docs/packets.md) found ahead of
 * time; the others: */
#define HIF_PKT_DETAIL(cb, why, off) (((uint32_t)(cb) << 28) | (((uint32_t)(why) & 0xFFu) << 20) | ((off) & 0xFFFFFu))
enum hif_pkt_reason {
  HIF_PKT_MSG_TARGET = 16,  /* MSG_LONG or an engine message: not a job buffer, user object or queue fence */
  HIF_PKT_FW_OBJECT  = 17,  /* MSG_SHORT to an object the firmware owns (or one that does not exist) */
  HIF_PKT_DMA_RANGE  = 18,  /* LIN_DMA or a DMA descriptor started with a footprint outside the job's buffers */
  HIF_PKT_MME_RANGE  = 19,  /* an MME commit with an operand footprint outside the job's buffers */
  HIF_PKT_TOO_LONG   = 20,  /* the buffer is longer than the check walks (1 MiB) */
  HIF_PKT_TPC_RANGE  = 21   /* a TPC commit whose program or tensor footprint is outside the job's buffers */
};
/* Initializer of a name table indexed by cause. */
#define HIF_CAUSE_NAMES {"none", "bad descriptor", "bad queue", "cb range", "buffer range", \
                         "bad dependency", "dependency failed", "queue error", "watchdog", "sq overflow", \
                         "engine error", "bad packet", "nic: bad request", "nic: port out of range", \
                         "nic: bad qp", "nic: illegal qp transition", "nic: qp attribute", \
                         "nic: region range", "nic: memory region", "nic: local buffer", "nic: qp not in rts", \
                         "nic: busy", "nic: retry limit", "nic: remote access error", "nic: local read error", \
                         "nic: flushed", "nic: refused by the port"}

/* ---------------------------------------------------------------- NIC requests
 * A ring entry with kind HIF_KIND_NIC (ctrl = HIF_NIC_CTRL(op, irq)) is a NIC administration
 * request: same size, seq and slot as a job, taken in ring order, answered by one
 * completion entry like a job (docs/hostlink.md "NIC requests"). Every request but
 * HIF_NIC_WRITE completes when the firmware has taken it; a WRITE completes when the
 * port's completion queue reports it. Words an op does not use are ignored; rsvd0 and
 * rsvd[] must be 0. */
#define HIF_NIC_CTRL(op, irq) \
  ((HIF_KIND_NIC << HIF_JOB_KIND_BP) | ((uint32_t)(op) & 0xFFu) | ((irq) ? HIF_JOB_IRQ : 0u))
#define HIF_NIC_CTRL_RSVD_MASK 0x0FFEFF00u   /* ctrl bits other than kind, irq and op */
#define HIF_NIC_QPS   16u   /* QP contexts per port (QP table indices 0..15) */
#define HIF_NIC_MRS   16u   /* memory regions per port */
/* Device memory the firmware keeps for itself: no region may reach into it (the image
 * staging area of the boot ROM and hl_load; hostlink's allocator starts above it). */
#define HIF_NIC_FW_AREA_BYTES 0x00100000u

enum hif_nic_op {
  HIF_NIC_PORT_SET  = 1,  /* port: rmac_lo/hi = the port's own MAC, rip = its IPv4 address */
  HIF_NIC_QP_CREATE = 2,  /* port, qp, qpn (local QPN, 0: HIF_NIC_QPN_DEFAULT): state RESET; detail = the QPN */
  HIF_NIC_QP_MODIFY = 3,  /* port, qp, state, attr_mask and the attributes it names */
  HIF_NIC_QP_DESTROY= 4,  /* port, qp: to RESET, the index is free again (open WRITEs complete FLUSHED) */
  HIF_NIC_QP_QUERY  = 5,  /* port, qp: HIF_CQE_INFO, hif_nic_info_t in cq_info[] */
  HIF_NIC_MR_REG    = 6,  /* port, addr, len, rkey, access: detail = the region index */
  HIF_NIC_MR_DEREG  = 7,  /* port, qp = the region index */
  HIF_NIC_WRITE     = 8,  /* port, qp, addr (local, 32-byte aligned), len, va_lo/hi (remote), rkey */
  HIF_NIC_OP_COUNT
};
enum hif_nic_state { HIF_QPS_RESET = 0, HIF_QPS_INIT = 1, HIF_QPS_RTR = 2, HIF_QPS_RTS = 3, HIF_QPS_ERROR = 4 };
#define HIF_NIC_QPN_DEFAULT(port, qp) (0x100u + ((uint32_t)(port) << 4) + (uint32_t)(qp))

/* attr_mask of a modify (the attributes IBA's modify names, as the NIC holds them) */
#define HIF_NIC_ATTR_DEST   (1u << 0)  /* dqpn, rmac_lo/hi, rip: the remote end */
#define HIF_NIC_ATTR_MTU    (1u << 1)  /* mtu: path MTU code 1..5 (256..4096 bytes) */
#define HIF_NIC_ATTR_MODE   (1u << 2)  /* selective: 1 selective repeat, 0 go-back-N */
#define HIF_NIC_ATTR_RQ_PSN (1u << 3)  /* rq_psn: first PSN expected from the remote end */
#define HIF_NIC_ATTR_SQ_PSN (1u << 4)  /* sq_psn: first PSN sent */
#define HIF_NIC_ATTR_RETRY  (1u << 5)  /* retry: timeouts in a row allowed, 0..255 (default 7) */
#define HIF_NIC_ATTR_TIMER  (1u << 6)  /* rto: retransmission timeout in cycles, >= 1 (default 20 000);
                                          guard: selective resend guard in cycles, 1..65535 (default 1 000) */
#define HIF_NIC_ATTR_ALL    0x7Fu
#define HIF_NIC_ATTR_QPN    (1u << 7)  /* (in an error's detail only) the create's qpn is not 24 bits */
/* Required on the way into a state (IBA's required attributes, as far as the NIC has them). */
#define HIF_NIC_ATTR_NEED_RTR (HIF_NIC_ATTR_DEST | HIF_NIC_ATTR_MTU | HIF_NIC_ATTR_RQ_PSN)
#define HIF_NIC_ATTR_NEED_RTS HIF_NIC_ATTR_SQ_PSN

/* access of a memory region */
#define HIF_NIC_MR_READ   (1u << 0)   /* remote READ allowed */
#define HIF_NIC_MR_WRITE  (1u << 1)   /* remote WRITE allowed */

/* detail of the NIC causes: why [31:16], port [15:8], QP or region index [7:0] */
#define HIF_NIC_DETAIL(port, qp, why) \
  (((uint32_t)(why) << 16) | (((uint32_t)(port) & 0xFFu) << 8) | ((uint32_t)(qp) & 0xFFu))
#define HIF_NIC_DETAIL_WHY(d)  ((d) >> 16)
#define HIF_NIC_DETAIL_PORT(d) (((d) >> 8) & 0xFFu)
#define HIF_NIC_DETAIL_QP(d)   ((d) & 0xFFu)
enum hif_nic_qp_why { HIF_NIC_QP_RANGE = 1, HIF_NIC_QP_NONE = 2, HIF_NIC_QP_EXISTS = 3, HIF_NIC_QP_QPN_USED = 4,
                      HIF_NIC_QP_NO_REQ = 5 };
enum hif_nic_mr_why { HIF_NIC_MR_FULL = 1, HIF_NIC_MR_RANGE = 2, HIF_NIC_MR_NONE = 3, HIF_NIC_MR_KEY_USED = 4,
                      HIF_NIC_MR_ACCESS = 5 };

/* NIC request (one submission-ring entry, 128 bytes, in place of a hif_job_t). */
typedef struct {
  uint32_t seq;        /* as a job's */
  uint32_t ctrl;       /* HIF_NIC_CTRL(op, irq) */
  uint32_t rsvd0;      /* 0 */
  uint32_t port;       /* NIC port */
  uint32_t qp;         /* QP table index 0..HIF_NIC_QPS-1 (MR_DEREG: region index) */
  uint32_t qpn;        /* QP_CREATE: local QPN (24 bits; 0: HIF_NIC_QPN_DEFAULT(port, qp)) */
  uint32_t state;      /* QP_MODIFY: target state (hif_nic_state) */
  uint32_t attr_mask;  /* QP_MODIFY: HIF_NIC_ATTR_* given below */
  uint32_t dqpn;       /* remote QPN (24 bits) */
  uint32_t rmac_lo, rmac_hi;   /* remote MAC bits 31:0, 47:32 (PORT_SET: the port's own) */
  uint32_t rip;        /* remote IPv4 address (PORT_SET: the port's own) */
  uint32_t mtu;        /* path MTU code 1..5 */
  uint32_t selective;  /* 1 selective repeat, 0 go-back-N */
  uint32_t sq_psn, rq_psn;     /* 24 bits */
  uint32_t retry;      /* 0..255 */
  uint32_t rto;        /* cycles, >= 1 */
  uint32_t guard;      /* cycles, 1..65535 */
  uint32_t addr;       /* MR_REG: region base; WRITE: local buffer (32-byte aligned) */
  uint32_t len;        /* MR_REG: region bytes (>= 1); WRITE: bytes */
  uint32_t rkey;       /* MR_REG: the region's R_Key; WRITE: the remote region's */
  uint32_t access;     /* MR_REG: HIF_NIC_MR_READ | HIF_NIC_MR_WRITE (at least one) */
  uint32_t va_lo, va_hi;       /* WRITE: remote address */
  uint32_t rsvd[7];    /* 0 */
} hif_nic_req_t;
#ifndef __cplusplus
_Static_assert(sizeof(hif_nic_req_t) == sizeof(hif_job_t), "a NIC request takes one ring slot");
#endif

/* QP query record (cq_info[] of the completion's slot, HIF_CQE_INFO). */
typedef struct {
  uint32_t state;      /* [2:0] state, [4] has a requester, [5] requester in ERROR, [6] requester idle,
                          [10:8] MTU code, [12] selective */
  uint32_t lqpn, dqpn;
  uint32_t sq_psn, rq_psn;     /* as given at the last modify (the port has no register for the live PSNs) */
  uint32_t pkts, resends, timeouts;   /* requester counters: packets sent, packets resent, timeouts */
} hif_nic_info_t;
#define HIF_NIC_INFO_STATE(w)   ((w) & 7u)
#define HIF_NIC_INFO_REQ        (1u << 4)
#define HIF_NIC_INFO_REQ_ERR    (1u << 5)
#define HIF_NIC_INFO_REQ_IDLE   (1u << 6)
#define HIF_NIC_INFO_MTU(w)     (((w) >> 8) & 7u)
#define HIF_NIC_INFO_SELECTIVE  (1u << 12)

/* Counters kept by the firmware (all wrap). */
typedef struct {
  uint32_t doorbells;     /* doorbell interrupts */
  uint32_t jobs_taken;    /* descriptors read from the submission rings */
  uint32_t jobs_ok, jobs_error, jobs_aborted;
  uint32_t hw_starts;     /* jobs started by a Sync-Manager monitor (dependency met in hardware) */
  uint32_t fw_starts;     /* jobs started directly by the firmware */
  uint32_t cq_stalls;     /* completions held back because the completion ring was full */
  uint32_t qman_errors;   /* engine queues stopped with an error */
  uint32_t t_doorbell;    /* mtime at the last doorbell interrupt entry */
  uint32_t t_first_start; /* mtime right after the last firmware-issued CTRL.start */
  uint32_t polls;         /* scheduler passes */
  uint32_t tpc_cancels;   /* TPC launches cancelled (CTRL.cancel) for a failed or aborted job */
} hif_counters_t;

typedef struct {
  uint32_t magic;         /* HIF_MAGIC, written last at start-up */
  uint32_t version;       /* HIF_VERSION */
  uint32_t nsq, sq_entries, cq_entries, max_cbs;
  uint32_t eq_present;    /* bit k: engine queue k (QMAN slot k) exists */
  uint32_t eq_dma;        /* bit k: engine queue k is a DMA queue (LIN_DMA allowed) */
  uint32_t sq_pi[HIF_NUM_SQ];   /* written by the host */
  uint32_t sq_ci[HIF_NUM_SQ];   /* written by the firmware */
  uint32_t cq_pi;               /* written by the firmware */
  uint32_t cq_ci;               /* written by the host */
  uint32_t fw_sob_base;   /* Sync-Manager objects [fw_sob_base, +fw_sob_count) belong to the firmware */
  uint32_t fw_sob_count;
  uint32_t fw_mon_base;   /* monitors [fw_mon_base, +fw_mon_count) belong to the firmware */
  uint32_t fw_mon_count;
  uint32_t rsvd[4];
  hif_counters_t cnt;
  hif_job_t sq[HIF_NUM_SQ][HIF_SQ_ENTRIES];
  hif_cqe_t cq[HIF_CQ_ENTRIES];
  hif_nic_info_t cq_info[HIF_CQ_ENTRIES];  /* the record of cq[i] when its flags have HIF_CQE_INFO */
} hif_block_t;

#define HIF_OFF(field) ((uint32_t)__builtin_offsetof(hif_block_t, field))
#define HIF_SQ_SLOT_OFF(q, i) \
  (HIF_OFF(sq) + ((uint32_t)(q) * HIF_SQ_ENTRIES + (uint32_t)(i)) * (uint32_t)sizeof(hif_job_t))
#define HIF_CQ_SLOT_OFF(i) (HIF_OFF(cq) + (uint32_t)(i) * (uint32_t)sizeof(hif_cqe_t))
#define HIF_CQ_INFO_OFF(i) (HIF_OFF(cq_info) + (uint32_t)(i) * (uint32_t)sizeof(hif_nic_info_t))

#endif /* TESSERA_HOSTIF_H */
