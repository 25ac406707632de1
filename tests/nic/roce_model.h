/* Golden model of Tessera's RoCE v2 transport (docs/nic.md "Golden model").
 *
 * Builds the frames a queue pair sends for a work request (RDMA WRITE, RDMA
 * READ request and response, SEND, ACK / NAK / RNR NAK / selective ACK) and
 * parses frames back, checking the IPv4 header checksum, the UDP port, the
 * opcode's header layout, the pad count and the ICRC. The CRC-32 is the
 * model's own code (cross-checked against zlib in tests/nic/nic_test.c).
 * Wire format: bsp/include/tessera/roce.h. Frames carry no Ethernet FCS.
 */
#ifndef TESSERA_ROCE_MODEL_H
#define TESSERA_ROCE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/roce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest frame: headers, RETH, immediate, 4096 B payload, ICRC. */
#define ROCE_FRAME_MAX 4224u

typedef struct {
  uint32_t len;
  uint8_t data[ROCE_FRAME_MAX];
} roce_frame_t;

/* One side of a reliable-connection queue pair, as the NIC's context holds it. */
typedef struct {
  uint8_t mac[6], rmac[6];  /* local and remote MAC */
  uint32_t ip, rip;         /* local and remote IPv4 address (host order) */
  uint32_t qpn, dest_qpn;   /* local QPN (source port hash) and the remote QPN (BTH) */
  uint16_t pkey;
  uint8_t mtu;              /* ROCE_MTU_256 .. ROCE_MTU_4096 */
  uint8_t tos;              /* IPv4 TOS byte: DSCP << 2 | ECN */
  uint8_t ttl;
  uint16_t ip_id;           /* IPv4 identification of the next frame (incremented per frame) */
  uint32_t sq_psn;          /* requester: PSN of the next request packet */
  uint32_t msn;             /* responder: message sequence number (messages completed) */
} roce_qp_t;

/* One packet's transport fields (input of roce_build, output of roce_parse). */
typedef struct {
  /* network (filled by roce_parse; roce_build takes them from the QP) */
  uint8_t dmac[6], smac[6];
  uint32_t sip, dip;
  uint16_t sport;
  uint8_t tos, ttl;
  uint16_t ip_id;
  /* BTH */
  uint8_t opcode;
  uint8_t se, migreq, padcnt, tver, ackreq;
  uint8_t becn, fecn;       /* parse only: the ICRC-masked congestion bits */
  uint16_t pkey;
  uint32_t dqpn, psn;
  /* RETH */
  uint64_t va;
  uint32_t rkey, dmalen;
  /* AETH */
  uint8_t syndrome;
  uint32_t msn;
  /* IMMDT */
  uint32_t imm;
  /* payload (without pad) */
  const uint8_t *payload;
  uint32_t payload_len;
  uint32_t icrc;            /* parse only: the ICRC as read (LSB first) */
} roce_pkt_t;

/* Parse results. */
enum {
  ROCE_OK = 0,
  ROCE_E_TRUNC,      /* shorter than its headers or than IPv4 total length */
  ROCE_E_ETHERTYPE,  /* not IPv4 */
  ROCE_E_IP_HDR,     /* version/IHL not 4/5, fragment, not UDP */
  ROCE_E_IP_CSUM,    /* IPv4 header checksum wrong */
  ROCE_E_UDP,        /* not port 4791 or UDP length inconsistent */
  ROCE_E_OPCODE,     /* not an RC opcode Tessera speaks, or TVer != 0 */
  ROCE_E_LEN,        /* headers/pad do not fit the opcode (payload where none allowed, pad > payload) */
  ROCE_E_ICRC,       /* ICRC wrong */
  ROCE_E_COUNT
};
const char *roce_strerror(int err);

/* ---- checksums */
/* CRC-32 (reflected 0xEDB88320) register update without pre/post inversion:
 * crc32(buf) = ~roce_crc32_update(0xFFFFFFFF, buf, len). */
uint32_t roce_crc32_update(uint32_t state, const uint8_t *p, size_t n);
uint32_t roce_crc32(const uint8_t *p, size_t n);          /* as zlib's crc32(0, p, n) */
/* ICRC of a frame whose ICRC starts at byte len (Ethernet header at byte 0). */
uint32_t roce_icrc(const uint8_t *frame, uint32_t len);
/* IPv4 header checksum over the 20-byte header (its checksum field read as 0). */
uint16_t roce_ip_csum(const uint8_t *ip_hdr);
/* UDP source port Tessera uses for a QP (ECMP entropy). */
uint16_t roce_udp_sport(uint32_t qpn);

/* ---- frame building
 * roce_build writes one frame for pkt's transport fields on QP q (network
 * fields and the IPv4 ID from q; q->ip_id advances) and returns its length. */
uint32_t roce_build(roce_qp_t *q, const roce_pkt_t *pkt, uint8_t *out);

/* Work requests: split into MTU-sized packets, PSNs from q->sq_psn (which
 * advances), AckReq on the last packet. Return the frame count, or -1 if more
 * than max frames would be needed. */
int roce_build_write(roce_qp_t *q, uint64_t va, uint32_t rkey, const uint8_t *data, uint32_t len,
                     roce_frame_t *out, int max);
/* RDMA WRITE with immediate: the last packet is WRITE last with immediate (ImmDt after
 * the BTH), a one-packet message WRITE only with immediate (ImmDt after the RETH). */
int roce_build_write_imm(roce_qp_t *q, uint64_t va, uint32_t rkey, const uint8_t *data, uint32_t len,
                         uint32_t imm, roce_frame_t *out, int max);
int roce_build_send(roce_qp_t *q, const uint8_t *data, uint32_t len, roce_frame_t *out, int max);
/* READ request: one frame; the request takes as many PSNs as response packets. */
int roce_build_read_req(roce_qp_t *q, uint64_t va, uint32_t rkey, uint32_t len, roce_frame_t *out);
/* READ response of the responder QP q to a request at PSN req_psn; q->msn advances. */
int roce_build_read_resp(roce_qp_t *q, uint32_t req_psn, const uint8_t *data, uint32_t len,
                         roce_frame_t *out, int max);
/* ACK (syndrome ROCE_SYN_ACK), NAK (ROCE_SYN_NAK(code)), RNR NAK (ROCE_SYN_RNR(t)). */
int roce_build_ack(roce_qp_t *q, uint32_t psn, uint8_t syndrome, uint32_t msn, roce_frame_t *out);
/* Selective ACK: expected PSN and the out-of-order PSN that triggered it. */
int roce_build_sack(roce_qp_t *q, uint32_t epsn, uint32_t trig_psn, roce_frame_t *out);
/* Packets a message of len bytes takes at this MTU (at least 1). */
uint32_t roce_npkts(const roce_qp_t *q, uint32_t len);

/* ---- parsing: check and decode one frame (without FCS; Ethernet padding
 * after the IPv4 datagram is allowed). pkt->payload points into frame. */
int roce_parse(const uint8_t *frame, uint32_t len, roce_pkt_t *pkt);

/* ---- reduction on receive (docs/nic.md "Reduction on receive", docs/numerics.md §6):
 * a memory region's reduce operation and element type (MR_CFG.red_op, MR_CFG.red_bf16);
 * a WRITE into such a region combines dest = dest (op) payload element by element. */
#define ROCE_RED_NONE 0u   /* plain write */
#define ROCE_RED_SUM  1u
#define ROCE_RED_MIN  2u
#define ROCE_RED_MAX  3u
#define ROCE_RED_FP32 0u
#define ROCE_RED_BF16 1u
/* One element: d is the destination, p the payload. Canonical NaN for any NaN operand,
 * -0 < +0 for min/max, RNE, subnormals kept (the TPC's vadd/vmin/vmax). */
uint32_t roce_red_fp32(unsigned op, uint32_t d, uint32_t p);
uint16_t roce_red_bf16(unsigned op, uint16_t d, uint16_t p);
/* Element size in bytes of a type: 4 (FP32) or 2 (BF16). */
unsigned roce_red_elem_bytes(unsigned dtype);
/* Combine n bytes of payload into dst (little-endian elements; n a multiple of the
 * element size). op ROCE_RED_NONE copies. */
void roce_reduce(unsigned op, unsigned dtype, uint8_t *dst, const uint8_t *src, uint32_t n);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ROCE_MODEL_H */
