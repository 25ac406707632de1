/* Tessera firmware: the packet check of a job's command buffers
 * (docs/hostlink.md "Packet check", docs/firmware.md). */
#ifndef TESSERA_FW_PKTCHECK_H
#define TESSERA_FW_PKTCHECK_H

#include <stdint.h>

#include "cp_state.h"

/* Command buffers longer than this are refused (offsets fit the 20-bit detail field). */
#define CB_CHECK_MAX ((1u << 20) - 8u)

/* Every command buffer of job j, read from device memory with the system-bus
 * bridge's read buffer on: 0 if every packet passes, else HIF_PKT_DETAIL of the
 * first refused packet. Sets j->mem when an engine of the job may touch memory. */
uint32_t pkt_check_job(job_t *j);

#endif /* TESSERA_FW_PKTCHECK_H */
