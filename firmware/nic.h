/* Tessera firmware: NIC administration (nic.c, docs/firmware.md "NIC requests"): the
 * requests of kind HIF_KIND_NIC from the host's submission rings (QPs, memory regions,
 * RDMA WRITE work requests) and the completions of the ports' work requests. */
#ifndef TESSERA_FW_NIC_H
#define TESSERA_FW_NIC_H

#include <stdint.h>

#include "tessera/hostif.h"

/* Ports: interrupts, the QP and region tables' shadows (called by fw_cp_init). */
void fw_nic_init(void);
/* A NIC request at the head of submission ring q: validated and carried out, its
 * completion posted (a WRITE's when the port completes it). 0: not taken now (the
 * completion ring is full, or a WRITE finds the firmware's table or the port's
 * work-request queue full), the caller leaves it in the ring and tries again later. */
int fw_nic_take(const hif_nic_req_t *r, uint32_t q);
/* The ports' completion queues -> completion entries; the ports' interrupts
 * acknowledged (called on job events, NIC interrupts and ticks). */
void fw_nic_poll(void);

#endif /* TESSERA_FW_NIC_H */
