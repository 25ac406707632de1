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
#define HIF_VERSION        2u   /* 2: counters gained tpc_cancels */
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
#define HIF_JOB_RSVD_MASK 0xFFFEF000u
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
                         "engine error", "bad packet"}

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
} hif_block_t;

#define HIF_OFF(field) ((uint32_t)__builtin_offsetof(hif_block_t, field))
#define HIF_SQ_SLOT_OFF(q, i) \
  (HIF_OFF(sq) + ((uint32_t)(q) * HIF_SQ_ENTRIES + (uint32_t)(i)) * (uint32_t)sizeof(hif_job_t))
#define HIF_CQ_SLOT_OFF(i) (HIF_OFF(cq) + (uint32_t)(i) * (uint32_t)sizeof(hif_cqe_t))

#endif /* TESSERA_HOSTIF_H */
