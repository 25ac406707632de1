/* Tessera RDMA NIC: the RoCE v2 wire format (docs/nic.md).
 *
 * One frame, as the NIC's MAC client interface carries it (the MAC adds and
 * checks the Ethernet FCS, which is not part of the frame here):
 *
 *   offset  size  header
 *        0    14  Ethernet II   dst MAC, src MAC, EtherType 0x0800
 *       14    20  IPv4          no options, DF set, protocol 17 (UDP), header checksum
 *       34     8  UDP           destination port 4791, checksum 0 (not used)
 *       42    12  BTH           base transport header
 *       54     -  RETH (16)     RDMA WRITE first/only, RDMA READ request
 *                 AETH  (4)     ACK / NAK, RDMA READ response first/last/only
 *                 IMMDT (4)     the "with immediate" opcodes
 *        -     -  payload       padded with BTH.padcnt zero bytes to a multiple of 4
 *        -     4  ICRC          CRC-32 of the invariant fields, least-significant byte first
 *
 * All header fields are big-endian (network order); only the ICRC is sent
 * least-significant byte first. Plain C, shared by the firmware, the host
 * library, the simulator and the golden model.
 */
#ifndef TESSERA_ROCE_H
#define TESSERA_ROCE_H

#include <stdint.h>

/* ---- Ethernet II */
#define ROCE_ETH_LEN          14u
#define ROCE_ETH_DST          0u     /* 6 bytes */
#define ROCE_ETH_SRC          6u     /* 6 bytes */
#define ROCE_ETH_TYPE         12u    /* 2 bytes */
#define ROCE_ETHERTYPE_IPV4   0x0800u
#define ROCE_ETH_FCS_LEN      4u     /* added by the MAC, never in a frame here */
#define ROCE_ETH_MIN_FRAME    60u    /* shortest frame without FCS; the MAC pads shorter ones */

/* ---- IPv4 (offsets inside the IPv4 header) */
#define ROCE_IP_OFF           ROCE_ETH_LEN
#define ROCE_IP_LEN           20u    /* IHL 5: Tessera sends and accepts no options */
#define ROCE_IP_VER_IHL       0u     /* 0x45 */
#define ROCE_IP_TOS           1u     /* DSCP (6) | ECN (2): ICRC-masked */
#define ROCE_IP_TOTLEN        2u
#define ROCE_IP_ID            4u
#define ROCE_IP_FLAGS_FRAG    6u     /* 0x4000: don't fragment */
#define ROCE_IP_TTL           8u     /* ICRC-masked */
#define ROCE_IP_PROTO         9u
#define ROCE_IP_CSUM          10u    /* ICRC-masked */
#define ROCE_IP_SRC           12u
#define ROCE_IP_DST           16u
#define ROCE_IP_VER_IHL_VAL   0x45u
#define ROCE_IP_DF            0x4000u
#define ROCE_IP_PROTO_UDP     17u
#define ROCE_IP_TTL_DEFAULT   64u
#define ROCE_IP_ECN_ECT0      0x02u  /* ECN-capable transport, as RoCE NICs mark data */

/* ---- UDP (offsets inside the UDP header) */
#define ROCE_UDP_OFF          (ROCE_IP_OFF + ROCE_IP_LEN)   /* 34 */
#define ROCE_UDP_LEN          8u
#define ROCE_UDP_SPORT        0u
#define ROCE_UDP_DPORT        2u
#define ROCE_UDP_LENGTH       4u
#define ROCE_UDP_CSUM         6u     /* sent as 0; ICRC-masked (0xFFFF) */
#define ROCE_UDP_PORT         4791u  /* RoCE v2 */
#define ROCE_UDP_SPORT_BASE   0xC000u /* source port = base | (QPN hash & 0x3FFF), for ECMP */

/* ---- BTH: base transport header (offsets inside the BTH) */
#define ROCE_BTH_OFF          (ROCE_UDP_OFF + ROCE_UDP_LEN) /* 42 */
#define ROCE_BTH_LEN          12u
#define ROCE_BTH_OPCODE       0u
#define ROCE_BTH_FLAGS        1u     /* SE (7) | M (6) | padcnt (5:4) | TVer (3:0) */
#define ROCE_BTH_PKEY         2u
#define ROCE_BTH_RSVD8        4u     /* FECN (7) | BECN (6) | reserved: ICRC-masked (0xFF) */
#define ROCE_BTH_DQPN         5u     /* 24 bits */
#define ROCE_BTH_APSN         8u     /* AckReq (7) | reserved (6:0) */
#define ROCE_BTH_PSN          9u     /* 24 bits */
#define ROCE_BTH_SE           0x80u
#define ROCE_BTH_MIGREQ       0x40u
#define ROCE_BTH_PADCNT_SHIFT 4u
#define ROCE_BTH_PADCNT_MASK  0x30u
#define ROCE_BTH_TVER_MASK    0x0Fu  /* transport header version 0 */
#define ROCE_BTH_ACKREQ       0x80u
#define ROCE_BTH_FECN         0x80u
#define ROCE_BTH_BECN         0x40u
#define ROCE_PKEY_DEFAULT     0xFFFFu
#define ROCE_PSN_MASK         0xFFFFFFu
#define ROCE_QPN_MASK         0xFFFFFFu

/* ---- extended transport headers */
#define ROCE_EXT_OFF          (ROCE_BTH_OFF + ROCE_BTH_LEN) /* 54 */
#define ROCE_RETH_LEN         16u
#define ROCE_RETH_VA          0u     /* 64 bits */
#define ROCE_RETH_RKEY        8u
#define ROCE_RETH_DMALEN      12u
#define ROCE_AETH_LEN         4u
#define ROCE_AETH_SYNDROME    0u
#define ROCE_AETH_MSN         1u     /* 24 bits */
#define ROCE_IMMDT_LEN        4u
#define ROCE_ICRC_LEN         4u

/* Headers of a frame without any extended header: Ethernet .. BTH */
#define ROCE_HDR_LEN          ROCE_EXT_OFF                  /* 54 */

/* ---- RC opcodes (BTH.opcode; transport class 000 = reliable connection) */
enum {
  ROCE_OP_SEND_FIRST          = 0x00,
  ROCE_OP_SEND_MIDDLE         = 0x01,
  ROCE_OP_SEND_LAST           = 0x02,
  ROCE_OP_SEND_LAST_IMM       = 0x03,
  ROCE_OP_SEND_ONLY           = 0x04,
  ROCE_OP_SEND_ONLY_IMM       = 0x05,
  ROCE_OP_WRITE_FIRST         = 0x06,
  ROCE_OP_WRITE_MIDDLE        = 0x07,
  ROCE_OP_WRITE_LAST          = 0x08,
  ROCE_OP_WRITE_LAST_IMM      = 0x09,
  ROCE_OP_WRITE_ONLY          = 0x0A,
  ROCE_OP_WRITE_ONLY_IMM      = 0x0B,
  ROCE_OP_READ_REQ            = 0x0C,
  ROCE_OP_READ_RESP_FIRST     = 0x0D,
  ROCE_OP_READ_RESP_MIDDLE    = 0x0E,
  ROCE_OP_READ_RESP_LAST      = 0x0F,
  ROCE_OP_READ_RESP_ONLY      = 0x10,
  ROCE_OP_ACK                 = 0x11,
  ROCE_OP_ATOMIC_ACK          = 0x12,  /* not used by Tessera */
  ROCE_OP_CMP_SWAP            = 0x13,  /* not used by Tessera */
  ROCE_OP_FETCH_ADD           = 0x14,  /* not used by Tessera */
};

/* ---- AETH syndrome: bit 7 reserved, bits 6:5 kind, bits 4:0 value */
#define ROCE_AETH_KIND_MASK   0x60u
#define ROCE_AETH_VALUE_MASK  0x1Fu
#define ROCE_AETH_ACK         0x00u  /* value: credit count */
#define ROCE_AETH_RNR_NAK     0x20u  /* value: RNR timer (encoded wait) */
#define ROCE_AETH_NAK         0x60u  /* value: NAK code below */
#define ROCE_NAK_PSN_SEQ_ERR  0x00u
#define ROCE_NAK_INVALID_REQ  0x01u
#define ROCE_NAK_REMOTE_ACCESS 0x02u
#define ROCE_NAK_REMOTE_OP    0x03u
#define ROCE_NAK_INVALID_RD   0x04u
#define ROCE_AETH_CREDITS_NONE 0x1Fu /* credit count "invalid": end-to-end credits not used */
/* Full syndromes */
#define ROCE_SYN_ACK          (ROCE_AETH_ACK | ROCE_AETH_CREDITS_NONE)       /* 0x1F */
#define ROCE_SYN_RNR(timer)   (ROCE_AETH_RNR_NAK | ((timer) & 0x1Fu))       /* 0x20.. */
#define ROCE_SYN_NAK(code)    (ROCE_AETH_NAK | ((code) & 0x1Fu))            /* 0x60.. */

/* ---- Tessera selective acknowledgement (docs/nic.md "Selective acknowledgement")
 *
 * A SACK is an ordinary RC ACKNOWLEDGE frame (opcode 0x11, BTH + AETH, no
 * payload) with syndrome NAK / PSN sequence error (0x60):
 *   BTH.PSN   = the responder's expected PSN (ePSN): every PSN before it has
 *               arrived and been placed, exactly as in an InfiniBand NAK;
 *   AETH.MSN  = the PSN of the out-of-order packet that triggered the NAK
 *               (the one selectively acknowledged: it was placed, not dropped).
 * It is sent only on a QP whose both ends run in selective mode (the QP
 * context's ack mode, set when the QP is connected); on a go-back-N QP the
 * same syndrome carries the MSN as in InfiniBand and the requester resends
 * from BTH.PSN. A requester that does not know the selective mode reads the
 * frame as a plain sequence-error NAK and goes back to ePSN: correct, only
 * slower. The frame has the length and layout of every other ACK, so every
 * decoder (Wireshark's infiniband dissector among them) reads it without
 * complaint. In selective mode a WRITE goes out as one RDMA WRITE only per MTU
 * packet, each with its own RETH, so that any packet can be placed out of order.
 */
#define ROCE_SYN_SACK         ROCE_SYN_NAK(ROCE_NAK_PSN_SEQ_ERR)            /* 0x60 */

/* ---- ICRC (InfiniBand invariant CRC over RoCE v2)
 * CRC-32 (reflected polynomial 0xEDB88320, init 0xFFFFFFFF, final XOR, as
 * zlib's crc32) over: 8 bytes 0xFF (the absent LRH), the IPv4 header with TOS,
 * TTL and checksum set to all ones, the UDP header with its checksum set to
 * 0xFFFF, the BTH with byte 4 set to 0xFF, then everything after the BTH up to
 * the ICRC. Appended least-significant byte first. */
#define ROCE_ICRC_LRH_BYTES   8u
#define ROCE_ICRC_LRH_STATE   0xDEBB20E3u  /* CRC state after the 8 x 0xFF prefix */
#define ROCE_CRC32_POLY_REFL  0xEDB88320u

/* ---- path MTU (payload bytes per packet), InfiniBand encoding */
enum { ROCE_MTU_256 = 1, ROCE_MTU_512 = 2, ROCE_MTU_1024 = 3, ROCE_MTU_2048 = 4, ROCE_MTU_4096 = 5 };
#define ROCE_MTU_BYTES(code)  (128u << (code))

/* PSN arithmetic modulo 2^24: a - b as a signed distance */
static inline int32_t roce_psn_diff(uint32_t a, uint32_t b) {
  return (int32_t)((a - b) << 8) >> 8;
}

/* Which extended headers an opcode carries (RC opcodes only). */
static inline int roce_op_has_reth(uint8_t op) {
  return op == ROCE_OP_WRITE_FIRST || op == ROCE_OP_WRITE_ONLY || op == ROCE_OP_WRITE_ONLY_IMM ||
         op == ROCE_OP_READ_REQ;
}
static inline int roce_op_has_aeth(uint8_t op) {
  return op == ROCE_OP_READ_RESP_FIRST || op == ROCE_OP_READ_RESP_LAST ||
         op == ROCE_OP_READ_RESP_ONLY || op == ROCE_OP_ACK || op == ROCE_OP_ATOMIC_ACK;
}
static inline int roce_op_has_immdt(uint8_t op) {
  return op == ROCE_OP_SEND_LAST_IMM || op == ROCE_OP_SEND_ONLY_IMM ||
         op == ROCE_OP_WRITE_LAST_IMM || op == ROCE_OP_WRITE_ONLY_IMM;
}
/* Opcodes that may carry payload. */
static inline int roce_op_has_payload(uint8_t op) {
  return op <= ROCE_OP_WRITE_ONLY_IMM || (op >= ROCE_OP_READ_RESP_FIRST && op <= ROCE_OP_READ_RESP_ONLY);
}

#endif /* TESSERA_ROCE_H */
