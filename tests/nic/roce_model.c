/* Golden model of Tessera's RoCE v2 transport: frame build and parse.
 * See roce_model.h and docs/nic.md. */
#include "roce_model.h"

#include "numfmt.h"

#include <string.h>

/* ---- byte order helpers (network order) */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put24(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 16); p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t get24(const uint8_t *p) { return (uint32_t)p[0] << 16 | get16(p + 1); }
static uint32_t get32(const uint8_t *p) { return get16(p) << 16 | get16(p + 2); }

const char *roce_strerror(int err) {
  static const char *const names[ROCE_E_COUNT] = {
      "ok", "truncated", "not IPv4", "bad IPv4 header", "bad IPv4 checksum",
      "not RoCE v2 UDP", "bad opcode", "length mismatch", "bad ICRC"};
  return err >= 0 && err < ROCE_E_COUNT ? names[err] : "?";
}

/* ---- CRC-32, reflected, one table lookup per byte; the table is derived from
 * the polynomial on first use (bit-serial division of each byte value). */
static uint32_t crc_table[256];
static int crc_table_ready;

static void crc_table_init(void) {
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t r = b;
    for (int i = 0; i < 8; i++) r = (r & 1u) ? (r >> 1) ^ ROCE_CRC32_POLY_REFL : r >> 1;
    crc_table[b] = r;
  }
  crc_table_ready = 1;
}

uint32_t roce_crc32_update(uint32_t state, const uint8_t *p, size_t n) {
  if (!crc_table_ready) crc_table_init();
  for (size_t i = 0; i < n; i++) state = (state >> 8) ^ crc_table[(state ^ p[i]) & 0xFFu];
  return state;
}

uint32_t roce_crc32(const uint8_t *p, size_t n) { return ~roce_crc32_update(0xFFFFFFFFu, p, n); }

uint32_t roce_icrc(const uint8_t *frame, uint32_t len) {
  static const uint8_t lrh[ROCE_ICRC_LRH_BYTES] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  uint8_t hdr[ROCE_IP_LEN + ROCE_UDP_LEN + ROCE_BTH_LEN];
  memcpy(hdr, frame + ROCE_IP_OFF, sizeof hdr);
  hdr[ROCE_IP_TOS] = 0xFF;
  hdr[ROCE_IP_TTL] = 0xFF;
  hdr[ROCE_IP_CSUM] = hdr[ROCE_IP_CSUM + 1] = 0xFF;
  uint8_t *udp = hdr + ROCE_IP_LEN, *bth = udp + ROCE_UDP_LEN;
  udp[ROCE_UDP_CSUM] = udp[ROCE_UDP_CSUM + 1] = 0xFF;
  bth[ROCE_BTH_RSVD8] = 0xFF;
  uint32_t s = roce_crc32_update(0xFFFFFFFFu, lrh, sizeof lrh);
  s = roce_crc32_update(s, hdr, sizeof hdr);
  s = roce_crc32_update(s, frame + ROCE_EXT_OFF, len - ROCE_EXT_OFF);
  return ~s;
}

uint16_t roce_ip_csum(const uint8_t *ip) {
  uint32_t sum = 0;
  for (unsigned i = 0; i < ROCE_IP_LEN; i += 2)
    if (i != ROCE_IP_CSUM) sum += get16(ip + i);
  while (sum >> 16) sum = (sum & 0xFFFFu) + (sum >> 16);
  return (uint16_t)~sum;
}

uint16_t roce_udp_sport(uint32_t qpn) {
  uint32_t h = (qpn ^ (qpn >> 14)) * 0x9E37u;   /* mix the QPN's bits into 14 */
  return (uint16_t)(ROCE_UDP_SPORT_BASE | ((h ^ (h >> 14)) & 0x3FFFu));
}

uint32_t roce_npkts(const roce_qp_t *q, uint32_t len) {
  uint32_t mtu = ROCE_MTU_BYTES(q->mtu);
  return len == 0 ? 1 : (len + mtu - 1) / mtu;
}

/* ---- building */
uint32_t roce_build(roce_qp_t *q, const roce_pkt_t *k, uint8_t *out) {
  uint32_t ext = (roce_op_has_reth(k->opcode) ? ROCE_RETH_LEN : 0) +
                 (roce_op_has_aeth(k->opcode) ? ROCE_AETH_LEN : 0) +
                 (roce_op_has_immdt(k->opcode) ? ROCE_IMMDT_LEN : 0);
  uint32_t pad = (4u - (k->payload_len & 3u)) & 3u;
  uint32_t udp_len = ROCE_UDP_LEN + ROCE_BTH_LEN + ext + k->payload_len + pad + ROCE_ICRC_LEN;
  uint32_t len = ROCE_UDP_OFF + udp_len;
  uint8_t *ip = out + ROCE_IP_OFF, *udp = out + ROCE_UDP_OFF, *bth = out + ROCE_BTH_OFF;
  uint8_t *x = out + ROCE_EXT_OFF;

  memcpy(out + ROCE_ETH_DST, q->rmac, 6);
  memcpy(out + ROCE_ETH_SRC, q->mac, 6);
  put16(out + ROCE_ETH_TYPE, ROCE_ETHERTYPE_IPV4);

  ip[ROCE_IP_VER_IHL] = ROCE_IP_VER_IHL_VAL;
  ip[ROCE_IP_TOS] = q->tos;
  put16(ip + ROCE_IP_TOTLEN, ROCE_IP_LEN + udp_len);
  put16(ip + ROCE_IP_ID, q->ip_id++);
  put16(ip + ROCE_IP_FLAGS_FRAG, ROCE_IP_DF);
  ip[ROCE_IP_TTL] = q->ttl;
  ip[ROCE_IP_PROTO] = ROCE_IP_PROTO_UDP;
  put32(ip + ROCE_IP_SRC, q->ip);
  put32(ip + ROCE_IP_DST, q->rip);
  put16(ip + ROCE_IP_CSUM, roce_ip_csum(ip));

  put16(udp + ROCE_UDP_SPORT, roce_udp_sport(q->qpn));
  put16(udp + ROCE_UDP_DPORT, ROCE_UDP_PORT);
  put16(udp + ROCE_UDP_LENGTH, udp_len);
  put16(udp + ROCE_UDP_CSUM, 0);

  bth[ROCE_BTH_OPCODE] = k->opcode;
  bth[ROCE_BTH_FLAGS] = (uint8_t)((k->se ? ROCE_BTH_SE : 0) | (k->migreq ? ROCE_BTH_MIGREQ : 0) |
                                  pad << ROCE_BTH_PADCNT_SHIFT);
  put16(bth + ROCE_BTH_PKEY, q->pkey);
  bth[ROCE_BTH_RSVD8] = 0;
  put24(bth + ROCE_BTH_DQPN, q->dest_qpn);
  bth[ROCE_BTH_APSN] = k->ackreq ? ROCE_BTH_ACKREQ : 0;
  put24(bth + ROCE_BTH_PSN, k->psn & ROCE_PSN_MASK);

  if (roce_op_has_reth(k->opcode)) {
    put32(x + ROCE_RETH_VA, (uint32_t)(k->va >> 32));
    put32(x + ROCE_RETH_VA + 4, (uint32_t)k->va);
    put32(x + ROCE_RETH_RKEY, k->rkey);
    put32(x + ROCE_RETH_DMALEN, k->dmalen);
    x += ROCE_RETH_LEN;
  }
  if (roce_op_has_aeth(k->opcode)) {
    x[ROCE_AETH_SYNDROME] = k->syndrome;
    put24(x + ROCE_AETH_MSN, k->msn & 0xFFFFFFu);
    x += ROCE_AETH_LEN;
  }
  if (roce_op_has_immdt(k->opcode)) {
    put32(x, k->imm);
    x += ROCE_IMMDT_LEN;
  }
  if (k->payload_len) memcpy(x, k->payload, k->payload_len);
  x += k->payload_len;
  memset(x, 0, pad);
  x += pad;
  uint32_t icrc = roce_icrc(out, (uint32_t)(x - out));
  for (int i = 0; i < 4; i++) x[i] = (uint8_t)(icrc >> (8 * i));
  return len;
}

/* Segment a message into first/middle/last or only packets. */
static int build_message(roce_qp_t *q, uint8_t op_first, uint8_t op_mid, uint8_t op_last,
                         uint8_t op_only, uint64_t va, uint32_t rkey, const uint8_t *data,
                         uint32_t len, uint32_t imm, roce_frame_t *out, int max) {
  uint32_t mtu = ROCE_MTU_BYTES(q->mtu), n = roce_npkts(q, len);
  if ((int)n > max) return -1;
  for (uint32_t i = 0; i < n; i++) {
    roce_pkt_t k;
    memset(&k, 0, sizeof k);
    k.opcode = n == 1 ? op_only : i == 0 ? op_first : i == n - 1 ? op_last : op_mid;
    k.psn = q->sq_psn;
    q->sq_psn = (q->sq_psn + 1) & ROCE_PSN_MASK;
    k.ackreq = i == n - 1;
    k.va = va;
    k.rkey = rkey;
    k.dmalen = len;
    k.payload = data + (size_t)i * mtu;
    k.payload_len = i == n - 1 ? len - i * mtu : mtu;
    if (roce_op_has_immdt(k.opcode)) k.imm = imm;
    out[i].len = roce_build(q, &k, out[i].data);
  }
  return (int)n;
}

int roce_build_write(roce_qp_t *q, uint64_t va, uint32_t rkey, const uint8_t *data, uint32_t len,
                     roce_frame_t *out, int max) {
  return build_message(q, ROCE_OP_WRITE_FIRST, ROCE_OP_WRITE_MIDDLE, ROCE_OP_WRITE_LAST,
                       ROCE_OP_WRITE_ONLY, va, rkey, data, len, 0, out, max);
}

int roce_build_write_imm(roce_qp_t *q, uint64_t va, uint32_t rkey, const uint8_t *data, uint32_t len,
                         uint32_t imm, roce_frame_t *out, int max) {
  return build_message(q, ROCE_OP_WRITE_FIRST, ROCE_OP_WRITE_MIDDLE, ROCE_OP_WRITE_LAST_IMM,
                       ROCE_OP_WRITE_ONLY_IMM, va, rkey, data, len, imm, out, max);
}

int roce_build_send(roce_qp_t *q, const uint8_t *data, uint32_t len, roce_frame_t *out, int max) {
  return build_message(q, ROCE_OP_SEND_FIRST, ROCE_OP_SEND_MIDDLE, ROCE_OP_SEND_LAST,
                       ROCE_OP_SEND_ONLY, 0, 0, data, len, 0, out, max);
}

int roce_build_read_req(roce_qp_t *q, uint64_t va, uint32_t rkey, uint32_t len, roce_frame_t *out) {
  roce_pkt_t k;
  memset(&k, 0, sizeof k);
  k.opcode = ROCE_OP_READ_REQ;
  k.psn = q->sq_psn;
  k.ackreq = 1;
  k.va = va;
  k.rkey = rkey;
  k.dmalen = len;
  q->sq_psn = (q->sq_psn + roce_npkts(q, len)) & ROCE_PSN_MASK;
  out->len = roce_build(q, &k, out->data);
  return 1;
}

int roce_build_read_resp(roce_qp_t *q, uint32_t req_psn, const uint8_t *data, uint32_t len,
                         roce_frame_t *out, int max) {
  uint32_t mtu = ROCE_MTU_BYTES(q->mtu), n = roce_npkts(q, len);
  if ((int)n > max) return -1;
  q->msn = (q->msn + 1) & 0xFFFFFFu;   /* the READ completes with its response */
  for (uint32_t i = 0; i < n; i++) {
    roce_pkt_t k;
    memset(&k, 0, sizeof k);
    k.opcode = n == 1 ? ROCE_OP_READ_RESP_ONLY
               : i == 0 ? ROCE_OP_READ_RESP_FIRST
               : i == n - 1 ? ROCE_OP_READ_RESP_LAST : ROCE_OP_READ_RESP_MIDDLE;
    k.psn = (req_psn + i) & ROCE_PSN_MASK;
    k.syndrome = ROCE_SYN_ACK;
    k.msn = q->msn;
    k.payload = data + (size_t)i * mtu;
    k.payload_len = i == n - 1 ? len - i * mtu : mtu;
    out[i].len = roce_build(q, &k, out[i].data);
  }
  return (int)n;
}

int roce_build_ack(roce_qp_t *q, uint32_t psn, uint8_t syndrome, uint32_t msn, roce_frame_t *out) {
  roce_pkt_t k;
  memset(&k, 0, sizeof k);
  k.opcode = ROCE_OP_ACK;
  k.psn = psn;
  k.syndrome = syndrome;
  k.msn = msn;
  out->len = roce_build(q, &k, out->data);
  return 1;
}

int roce_build_sack(roce_qp_t *q, uint32_t epsn, uint32_t trig_psn, roce_frame_t *out) {
  return roce_build_ack(q, epsn, ROCE_SYN_SACK, trig_psn, out);
}

/* ---- parsing */
int roce_parse(const uint8_t *f, uint32_t len, roce_pkt_t *k) {
  memset(k, 0, sizeof *k);
  if (len < ROCE_HDR_LEN + ROCE_ICRC_LEN) return ROCE_E_TRUNC;
  if (get16(f + ROCE_ETH_TYPE) != ROCE_ETHERTYPE_IPV4) return ROCE_E_ETHERTYPE;
  const uint8_t *ip = f + ROCE_IP_OFF, *udp = f + ROCE_UDP_OFF, *bth = f + ROCE_BTH_OFF;
  if (ip[ROCE_IP_VER_IHL] != ROCE_IP_VER_IHL_VAL || ip[ROCE_IP_PROTO] != ROCE_IP_PROTO_UDP ||
      (get16(ip + ROCE_IP_FLAGS_FRAG) & 0xBFFFu) != 0)   /* MF or an offset: a fragment */
    return ROCE_E_IP_HDR;
  uint32_t totlen = get16(ip + ROCE_IP_TOTLEN);
  if (ROCE_IP_OFF + totlen > len) return ROCE_E_TRUNC;
  if (totlen < ROCE_IP_LEN + ROCE_UDP_LEN + ROCE_BTH_LEN + ROCE_ICRC_LEN) return ROCE_E_LEN;
  if (get16(ip + ROCE_IP_CSUM) != roce_ip_csum(ip)) return ROCE_E_IP_CSUM;
  if (get16(udp + ROCE_UDP_DPORT) != ROCE_UDP_PORT ||
      get16(udp + ROCE_UDP_LENGTH) != totlen - ROCE_IP_LEN)
    return ROCE_E_UDP;

  memcpy(k->dmac, f + ROCE_ETH_DST, 6);
  memcpy(k->smac, f + ROCE_ETH_SRC, 6);
  k->sip = get32(ip + ROCE_IP_SRC);
  k->dip = get32(ip + ROCE_IP_DST);
  k->tos = ip[ROCE_IP_TOS];
  k->ttl = ip[ROCE_IP_TTL];
  k->ip_id = (uint16_t)get16(ip + ROCE_IP_ID);
  k->sport = (uint16_t)get16(udp + ROCE_UDP_SPORT);

  k->opcode = bth[ROCE_BTH_OPCODE];
  uint8_t fl = bth[ROCE_BTH_FLAGS];
  k->se = (fl & ROCE_BTH_SE) != 0;
  k->migreq = (fl & ROCE_BTH_MIGREQ) != 0;
  k->padcnt = (fl & ROCE_BTH_PADCNT_MASK) >> ROCE_BTH_PADCNT_SHIFT;
  k->tver = fl & ROCE_BTH_TVER_MASK;
  k->pkey = (uint16_t)get16(bth + ROCE_BTH_PKEY);
  k->fecn = (bth[ROCE_BTH_RSVD8] & ROCE_BTH_FECN) != 0;
  k->becn = (bth[ROCE_BTH_RSVD8] & ROCE_BTH_BECN) != 0;
  k->dqpn = get24(bth + ROCE_BTH_DQPN);
  k->ackreq = (bth[ROCE_BTH_APSN] & ROCE_BTH_ACKREQ) != 0;
  k->psn = get24(bth + ROCE_BTH_PSN);
  if (k->tver != 0 || k->opcode > ROCE_OP_ACK) return ROCE_E_OPCODE;

  uint32_t end = ROCE_IP_OFF + totlen - ROCE_ICRC_LEN;   /* first ICRC byte */
  uint32_t off = ROCE_EXT_OFF;
  uint32_t ext = (roce_op_has_reth(k->opcode) ? ROCE_RETH_LEN : 0) +
                 (roce_op_has_aeth(k->opcode) ? ROCE_AETH_LEN : 0) +
                 (roce_op_has_immdt(k->opcode) ? ROCE_IMMDT_LEN : 0);
  if (off + ext > end) return ROCE_E_LEN;
  if (roce_op_has_reth(k->opcode)) {
    k->va = (uint64_t)get32(f + off + ROCE_RETH_VA) << 32 | get32(f + off + ROCE_RETH_VA + 4);
    k->rkey = get32(f + off + ROCE_RETH_RKEY);
    k->dmalen = get32(f + off + ROCE_RETH_DMALEN);
    off += ROCE_RETH_LEN;
  }
  if (roce_op_has_aeth(k->opcode)) {
    k->syndrome = f[off + ROCE_AETH_SYNDROME];
    k->msn = get24(f + off + ROCE_AETH_MSN);
    off += ROCE_AETH_LEN;
  }
  if (roce_op_has_immdt(k->opcode)) {
    k->imm = get32(f + off);
    off += ROCE_IMMDT_LEN;
  }
  uint32_t body = end - off;   /* payload + pad */
  if (!roce_op_has_payload(k->opcode) ? (body != 0 || k->padcnt != 0)
                                      : ((body & 3u) != 0 || k->padcnt > body))
    return ROCE_E_LEN;
  k->payload = f + off;
  k->payload_len = body - k->padcnt;
  k->icrc = (uint32_t)f[end] | (uint32_t)f[end + 1] << 8 | (uint32_t)f[end + 2] << 16 |
            (uint32_t)f[end + 3] << 24;
  if (k->icrc != roce_icrc(f, end)) return ROCE_E_ICRC;
  return ROCE_OK;
}

/* ---- reduction on receive */
static int fp32_is_nan(uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu) != 0; }

/* x < y for non-NaN FP32 values, -0 < +0 (sign-magnitude to an ordered key) */
static int fp32_less(uint32_t x, uint32_t y) {
  uint32_t kx = x >> 31 ? ~x : x | 0x80000000u;
  uint32_t ky = y >> 31 ? ~y : y | 0x80000000u;
  return kx < ky;
}

uint32_t roce_red_fp32(unsigned op, uint32_t d, uint32_t p) {
  switch (op) {
    case ROCE_RED_SUM:
      return nf_fma32(d, NF_FP32, p, NF_FP32, 0x3F800000u, 0);   /* d + p x 1.0, one rounding */
    case ROCE_RED_MIN:
      if (fp32_is_nan(d) || fp32_is_nan(p)) return 0x7FC00000u;
      return fp32_less(p, d) ? p : d;
    case ROCE_RED_MAX:
      if (fp32_is_nan(d) || fp32_is_nan(p)) return 0x7FC00000u;
      return fp32_less(d, p) ? p : d;
    default:
      return p;
  }
}

uint16_t roce_red_bf16(unsigned op, uint16_t d, uint16_t p) {
  uint32_t r = roce_red_fp32(op, nf_to_fp32(NF_BF16, d), nf_to_fp32(NF_BF16, p));
  return (uint16_t)nf_convert(NF_FP32, NF_BF16, r, 0, 0);
}

unsigned roce_red_elem_bytes(unsigned dtype) { return dtype == ROCE_RED_BF16 ? 2u : 4u; }

void roce_reduce(unsigned op, unsigned dtype, uint8_t *dst, const uint8_t *src, uint32_t n) {
  if (op == ROCE_RED_NONE) {
    memcpy(dst, src, n);
    return;
  }
  if (dtype == ROCE_RED_BF16) {
    for (uint32_t i = 0; i + 2 <= n; i += 2) {
      uint16_t r = roce_red_bf16(op, (uint16_t)(dst[i] | dst[i + 1] << 8), (uint16_t)(src[i] | src[i + 1] << 8));
      dst[i] = (uint8_t)r;
      dst[i + 1] = (uint8_t)(r >> 8);
    }
    return;
  }
  for (uint32_t i = 0; i + 4 <= n; i += 4) {
    uint32_t d = (uint32_t)dst[i] | (uint32_t)dst[i + 1] << 8 | (uint32_t)dst[i + 2] << 16 | (uint32_t)dst[i + 3] << 24;
    uint32_t s = (uint32_t)src[i] | (uint32_t)src[i + 1] << 8 | (uint32_t)src[i + 2] << 16 | (uint32_t)src[i + 3] << 24;
    uint32_t r = roce_red_fp32(op, d, s);
    for (int b = 0; b < 4; b++) dst[i + b] = (uint8_t)(r >> (8 * b));
  }
}

