/* Reference model of Tessera's reliable-connection transport for RDMA WRITE:
 * a requester and a responder QP joined by two link models, with selective
 * retransmission (docs/nic.md "Selective acknowledgement") or go-back-N.
 * It checks the protocol design before the RTL exists and gives the expected
 * memory image after a sequence of WRITEs under loss, corruption, duplication
 * and reordering. Frames are built and parsed by roce_model.c.
 */
#ifndef TESSERA_ROCE_TRANSPORT_H
#define TESSERA_ROCE_TRANSPORT_H

#include <stdint.h>

#include "roce_model.h"
#include "tessera_link.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RT_WINDOW 128u   /* PSNs in flight (requester) and placement window (responder) */

typedef struct {
  uint64_t va;
  uint32_t len;
  uint32_t rkey;            /* R_Key the requester sends */
  const uint8_t *data;
  int imm_en;               /* the last packet carries an immediate (WRITE last / only with immediate) */
  uint32_t imm;
} rt_write_t;

typedef struct {
  int selective;            /* 1: selective ACK and repeat; 0: go-back-N */
  uint8_t mtu;              /* ROCE_MTU_* */
  uint32_t rto;             /* retransmission timeout, cycles without progress */
  uint32_t retry_limit;     /* timeouts in a row before the QP fails */
  uint32_t first_psn;
  tsim_link_cfg_t data_link, ack_link;   /* requester -> responder, responder -> requester */
  tsim_pcap_t *pcap_data, *pcap_ack;     /* optional captures of both links */
  uint64_t max_cycles;
  /* responder's memory region */
  uint64_t mr_base;
  uint32_t mr_len, mr_rkey;
  uint8_t *mem;             /* mr_len bytes, written by the responder */
} rt_cfg_t;

typedef struct {
  uint64_t cycles;                 /* until the last WRITE completed */
  uint32_t completed, failed;      /* WRITEs completed at the requester / QP error */
  uint64_t payload_bytes;
  uint64_t data_frames, retransmits, timeouts;
  uint64_t acks, sacks, naks;      /* acknowledgement frames the responder sent */
  uint64_t placed, duplicates, out_of_window, dropped_out_of_order, bad_frames;
  uint64_t msgs;                   /* immediates delivered (remote sync-object updates) */
  uint64_t imm_held;               /* out-of-order immediates dropped: one already waits on the QP */
} rt_stats_t;

/* The reference responder alone: one QP's receive side for RDMA WRITE, as
 * rt_run uses it and as the RTL responder's testbench drives it with frames
 * of its own (tests/nic/tb_nic_responder.cpp). Fill the fields above `epsn`
 * (and `qp`: qpn, msn, the network fields of its ACK frames), set epsn to the
 * first PSN, zero the rest; every acknowledgement goes to ack(ctx, ...). */
typedef struct rt_resp {
  int selective;
  uint64_t mr_base;
  uint32_t mr_len, mr_rkey;
  int mr_no_write;          /* the region grants no remote write */
  unsigned mr_red_op;       /* ROCE_RED_*: 0 plain WRITEs, else reduce WRITEs (roce_reduce) */
  unsigned mr_red_dtype;    /* ROCE_RED_FP32 / ROCE_RED_BF16 */
  uint8_t *mem;             /* mr_len bytes */
  rt_stats_t *st;           /* placed, duplicates, out_of_window, dropped_out_of_order, bad_frames, acks, sacks, naks */
  void (*ack)(void *ctx, uint8_t syndrome, uint32_t psn, uint32_t msn);
  void *ctx;
  /* WRITE with immediate (docs/nic.md "WRITE with immediate"): ImmDt[31:16] names a sync
   * object, which must be below num_sobs (else NAK invalid request, QP to ERROR; 0: no
   * check); once every PSN up to the one carrying it is placed, msg(ctx, imm) delivers it.
   * An immediate placed out of order waits (one per QP); another out-of-order immediate
   * is dropped without acknowledgement while one waits. */
  uint32_t num_sobs;
  void (*msg)(void *ctx, uint32_t imm);
  int imm_wait;
  uint32_t imm_psn, imm_val;
  roce_qp_t qp;
  uint32_t epsn;
  uint32_t tag[RT_WINDOW];  /* PSN | valid | last of a placed PSN after ePSN */
  int nak_sent;
  int error;                /* the QP went to ERROR: every later packet is discarded */
  uint64_t va_next;
  uint32_t rkey_cur;        /* go-back-N: R_Key of the message being placed */
} rt_resp_t;

/* One packet that passed roce_parse. */
void rt_resp_rx(rt_resp_t *r, const roce_pkt_t *k);

/* Run the WRITEs (in order, on one QP) to completion or failure. 0 on success.
 * A WRITE outside the region or with another R_Key is answered with a NAK
 * remote access error (go-back-N checks the whole message at its first packet;
 * selective mode checks each self-describing packet, so the packets of a WRITE
 * that lie inside the region may land before the one that does not); the responder then discards every later packet (its QP
 * is in error), the requester stops (failed = 1, completed = WRITEs before it). */
int rt_run(const rt_cfg_t *cfg, const rt_write_t *wr, uint32_t nwr, rt_stats_t *st);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ROCE_TRANSPORT_H */
