/* hostlink NIC administration (hl_nic.c, docs/hostlink.md "NIC requests"): queue pairs,
 * memory regions and RDMA WRITEs of the chip's NIC ports, carried out by the firmware
 * (firmware/nic.c) from requests in submission ring 0 (hif_nic_req_t,
 * bsp/include/tessera/hostif.h).
 *
 * Every call but hl_rdma_write submits one request and waits for its completion (up to
 * HL_NIC_TIMEOUT device cycles): HL_OK, HL_EREFUSED when the firmware refused it (the
 * cause, port, QP and reason in hl_error and in *c), or a transport error. *c (may be
 * NULL) gets the completion record. hl_rdma_write only submits: wait for its completion
 * with hl_wait (HL_COMPLETED, or HL_FAILED with a NIC cause and the QP in the detail). */
#ifndef TESSERA_HL_NIC_H
#define TESSERA_HL_NIC_H

#include <stdint.h>

#include "tessera/hostif.h"
#include "hl_core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HL_NIC_TIMEOUT 2000000u   /* device cycles a synchronous request may take */

/* Attributes of a QP modify; attr_mask (HIF_NIC_ATTR_*) says which are given. */
typedef struct {
  uint32_t attr_mask;
  uint32_t dqpn;          /* HIF_NIC_ATTR_DEST: remote QPN, MAC (48 bits) and IPv4 address */
  uint64_t rmac;
  uint32_t rip;
  uint32_t mtu;           /* HIF_NIC_ATTR_MTU: code 1..5 (256..4096 bytes) */
  uint32_t selective;     /* HIF_NIC_ATTR_MODE: 1 selective repeat, 0 go-back-N */
  uint32_t rq_psn;        /* HIF_NIC_ATTR_RQ_PSN */
  uint32_t sq_psn;        /* HIF_NIC_ATTR_SQ_PSN */
  uint32_t retry;         /* HIF_NIC_ATTR_RETRY: 0..255 */
  uint32_t rto, guard;    /* HIF_NIC_ATTR_TIMER: cycles */
} hl_qp_attr_t;

/* The port's own MAC and IPv4 address (the source of its frames). */
int hl_nic_port_set(hl_dev_t *dev, unsigned port, uint64_t mac, uint32_t ip, hl_completion_t *c);
/* QP table index qp of port: state RESET, local QPN qpn (0: HIF_NIC_QPN_DEFAULT); *qpn_out
 * (may be NULL) gets the QPN. */
int hl_qp_create(hl_dev_t *dev, unsigned port, unsigned qp, uint32_t qpn, uint32_t *qpn_out, hl_completion_t *c);
/* Move the QP to `state` (hif_nic_state) with the attributes a names (a may be NULL: none). */
int hl_qp_modify(hl_dev_t *dev, unsigned port, unsigned qp, unsigned state, const hl_qp_attr_t *a,
                 hl_completion_t *c);
int hl_qp_destroy(hl_dev_t *dev, unsigned port, unsigned qp, hl_completion_t *c);
/* State, attributes and requester counters (hif_nic_info_t) into *info. */
int hl_qp_query(hl_dev_t *dev, unsigned port, unsigned qp, hif_nic_info_t *info, hl_completion_t *c);
/* A memory region [base, base + len) with R_Key rkey, access HIF_NIC_MR_READ / _WRITE;
 * *idx (may be NULL) gets its index (for hl_mr_dereg). */
int hl_mr_reg(hl_dev_t *dev, unsigned port, uint32_t base, uint32_t len, uint32_t rkey, unsigned access,
              unsigned *idx, hl_completion_t *c);
int hl_mr_dereg(hl_dev_t *dev, unsigned port, unsigned idx, hl_completion_t *c);
/* RDMA WRITE of len bytes from device memory laddr (32-byte aligned) to the remote VA with
 * R_Key rkey on QP qp of port; *seq gets the request's sequence number for hl_wait. */
int hl_rdma_write(hl_dev_t *dev, unsigned port, unsigned qp, uint32_t laddr, uint64_t va, uint32_t rkey,
                  uint32_t len, uint32_t *seq);
/* Text of a NIC completion: "ok" or the cause with port, QP and reason. */
const char *hl_nic_describe(const hl_completion_t *c, char *buf, size_t len);
/* "RESET", "INIT", "RTR", "RTS", "ERROR" (or "?"); hl_qp_state_id: the number, -1 if none. */
const char *hl_qp_state_name(unsigned state);
int hl_qp_state_id(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HL_NIC_H */
