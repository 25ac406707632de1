/* Tests of the NIC's foundation: the RoCE v2 golden model (tests/nic/roce_model.c),
 * the pcap writer/reader and the link model (sim/src/tsim_pcap.c, tsim_link.c).
 *
 *   - CRC-32 and ICRC of the model against zlib's crc32 on the brief's definition
 *     (computed here independently, from literal offsets);
 *   - every RC opcode's frame built by the model parses back with the fields it
 *     was built from, and is decoded by tshark as InfiniBand (RoCE v2) with the
 *     same opcode, QP, PSN, RETH, AETH, payload, the ICRC where the model put
 *     it, a good IPv4 checksum and no malformed or expert marks;
 *   - the parser rejects truncated frames, bad ICRC, bad checksum, bad layouts,
 *     and accepts changes to the ICRC-masked fields;
 *   - pcap round trip; the link model's statistics for a fixed seed, its timing
 *     and determinism, and a pcap of a lossy link that tshark decodes.
 *   - scapy (scapy.contrib.roce) as a second decoder, with its own ICRC code.
 * Usage: nic_test [--seed N] [--out DIR] [--tshark PATH] [--python PATH] [--scapy-check PATH].
 * Ends with "N passed, M failed" (one count per test case).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "roce_model.h"
#include "roce_transport.h"
#include "tessera_link.h"
#include "tessera_pcap.h"

/* ---- test cases: a case passes when none of its checks failed */
static int n_pass, n_fail, case_fails;
static const char *case_name;

static void case_begin(const char *name) {
  case_name = name;
  case_fails = 0;
}
static void case_end(void) {
  if (case_fails) n_fail++; else n_pass++;
  printf("%s %s\n", case_fails ? "FAIL" : "ok  ", case_name);
}
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (case_fails < 8) {
    printf("  %s: ", case_name);
    vprintf(fmt, ap);
    printf("\n");
  }
  va_end(ap);
  case_fails++;
}
#define EXPECT_EQ(got, exp, what)                                                         \
  do {                                                                                    \
    uint64_t g_ = (uint64_t)(got), e_ = (uint64_t)(exp);                                  \
    if (g_ != e_) fail("%s = 0x%" PRIx64 ", expected 0x%" PRIx64, (what), g_, e_);        \
  } while (0)

/* ---- deterministic random numbers (xorshift64*) */
static uint64_t rng_state;
static uint32_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
static void rnd_fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}

static uint32_t bswap32(uint32_t v) {
  return v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
}
static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* ICRC by the brief's words, with zlib: offsets written out here on purpose
 * (Ethernet 14 bytes, IPv4 20, UDP 8, BTH 12), not taken from roce.h. */
static uint32_t icrc_zlib(const uint8_t *f, uint32_t end) {
  static uint8_t buf[8 + ROCE_FRAME_MAX];
  memset(buf, 0xFF, 8);
  memcpy(buf + 8, f + 14, end - 14);
  uint8_t *ip = buf + 8, *udp = ip + 20, *bth = udp + 8;
  ip[1] = 0xFF;                 /* TOS */
  ip[8] = 0xFF;                 /* TTL */
  ip[10] = ip[11] = 0xFF;       /* header checksum */
  udp[6] = udp[7] = 0xFF;       /* UDP checksum */
  bth[4] = 0xFF;                /* FECN, BECN, reserved */
  return (uint32_t)crc32(0L, buf, 8 + end - 14);
}

/* One's complement sum over the IPv4 header including its checksum: 0xFFFF when good. */
static uint32_t ip_sum_ok(const uint8_t *f) {
  uint32_t s = 0;
  for (int i = 0; i < 20; i += 2) s += rd16(f + 14 + i);
  while (s >> 16) s = (s & 0xFFFFu) + (s >> 16);
  return s == 0xFFFFu;
}

static uint32_t frame_icrc(const uint8_t *f, uint32_t len) {
  const uint8_t *p = f + len - 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- the QP pair used throughout */
static void qp_pair(roce_qp_t *a, roce_qp_t *b, uint8_t mtu) {
  memset(a, 0, sizeof *a);
  memset(b, 0, sizeof *b);
  static const uint8_t mac_a[6] = {0x02, 0x54, 0x53, 0x00, 0x00, 0x01};
  static const uint8_t mac_b[6] = {0x02, 0x54, 0x53, 0x00, 0x01, 0x01};
  memcpy(a->mac, mac_a, 6);
  memcpy(a->rmac, mac_b, 6);
  memcpy(b->mac, mac_b, 6);
  memcpy(b->rmac, mac_a, 6);
  a->ip = b->rip = 0x0A000001u;   /* 10.0.0.1 */
  b->ip = a->rip = 0x0A000101u;   /* 10.0.1.1 */
  a->qpn = b->dest_qpn = 0x000011u + (rnd() & 0xFFF00u);
  b->qpn = a->dest_qpn = 0x000022u + (rnd() & 0xFFF00u);
  a->pkey = b->pkey = ROCE_PKEY_DEFAULT;
  a->mtu = b->mtu = mtu;
  a->tos = b->tos = (26u << 2) | ROCE_IP_ECN_ECT0;
  a->ttl = b->ttl = ROCE_IP_TTL_DEFAULT;
  a->ip_id = (uint16_t)rnd();
  b->ip_id = (uint16_t)rnd();
}

/* ---- the catalogue: one or more frames of every RC opcode Tessera uses */
#define CAT_MAX 64
typedef struct {
  const char *what;
  roce_pkt_t exp;          /* fields it was built from (payload points into pool) */
  roce_frame_t fr;
} cat_t;
static cat_t cat[CAT_MAX];
static int ncat;
static uint8_t pool[4][4096];

/* Append frames fr[0..n) with the expected fields filled from a template. */
static void cat_add(const char *what, const roce_frame_t *fr, int n, const roce_pkt_t *tmpl,
                    uint32_t psn0, const uint8_t *data, uint32_t len, uint32_t mtu,
                    int aeth_on_ends_only) {
  for (int i = 0; i < n && ncat < CAT_MAX; i++) {
    cat_t *c = &cat[ncat++];
    c->what = what;
    c->fr = fr[i];
    c->exp = *tmpl;
    c->exp.psn = (psn0 + (uint32_t)i) & ROCE_PSN_MASK;
    c->exp.payload = data ? data + (size_t)i * mtu : NULL;
    c->exp.payload_len = data ? (i == n - 1 ? len - (uint32_t)i * mtu : mtu) : 0;
    c->exp.padcnt = (uint8_t)((4u - (c->exp.payload_len & 3u)) & 3u);
    if (aeth_on_ends_only && i > 0 && i < n - 1) c->exp.syndrome = 0, c->exp.msn = 0;
  }
}

static roce_qp_t qa, qb;

static void build_catalogue(void) {
  roce_frame_t fr[8];
  roce_pkt_t t;
  int n;
  ncat = 0;
  qp_pair(&qa, &qb, ROCE_MTU_256);
  qa.sq_psn = ROCE_PSN_MASK - 1;   /* the first message wraps the PSN */
  for (int i = 0; i < 4; i++) rnd_fill(pool[i], sizeof pool[i]);
  const uint32_t mtu = 256;

  /* RDMA WRITE first / middle / last (601 B: pad 3 on the last), then only (5 B) and 0 B */
  uint64_t va = (uint64_t)rnd() << 32 | rnd();
  uint32_t rkey = rnd();
  memset(&t, 0, sizeof t);
  t.va = va; t.rkey = rkey; t.dmalen = 601;
  uint32_t psn0 = qa.sq_psn;
  n = roce_build_write(&qa, va, rkey, pool[0], 601, fr, 8);
  roce_pkt_t tw[3];
  for (int i = 0; i < 3; i++) tw[i] = t;
  tw[0].opcode = ROCE_OP_WRITE_FIRST;
  tw[1].opcode = ROCE_OP_WRITE_MIDDLE; tw[1].va = 0; tw[1].rkey = 0; tw[1].dmalen = 0;
  tw[2].opcode = ROCE_OP_WRITE_LAST; tw[2].va = 0; tw[2].rkey = 0; tw[2].dmalen = 0; tw[2].ackreq = 1;
  for (int i = 0; i < n && i < 3; i++)
    cat_add("RDMA WRITE", &fr[i], 1, &tw[i], psn0 + (uint32_t)i, pool[0] + i * mtu,
            i == 2 ? 601 - 2 * mtu : mtu, mtu, 0);
  for (uint32_t len = 5;; len = 0) {
    memset(&t, 0, sizeof t);
    t.opcode = ROCE_OP_WRITE_ONLY; t.va = va + 4096; t.rkey = rkey; t.dmalen = len; t.ackreq = 1;
    psn0 = qa.sq_psn;
    n = roce_build_write(&qa, va + 4096, rkey, pool[1], len, fr, 8);
    cat_add("RDMA WRITE only", fr, n, &t, psn0, len ? pool[1] : NULL, len, mtu, 0);
    if (len == 0) break;
  }

  /* RDMA WRITE with immediate: first / middle / last with immediate (601 B), only with
   * immediate (7 B): the remote sync-object update (docs/nic.md) */
  uint32_t imm = (uint32_t)(va >> 7) ^ 0x2A5A0003u;   /* no rnd(): the later draws stay as they were */
  memset(&t, 0, sizeof t);
  t.va = va + 12288; t.rkey = rkey; t.dmalen = 601;
  psn0 = qa.sq_psn;
  n = roce_build_write_imm(&qa, va + 12288, rkey, pool[0], 601, imm, fr, 8);
  for (int i = 0; i < 3; i++) tw[i] = t;
  tw[0].opcode = ROCE_OP_WRITE_FIRST;
  tw[1].opcode = ROCE_OP_WRITE_MIDDLE; tw[1].va = 0; tw[1].rkey = 0; tw[1].dmalen = 0;
  tw[2].opcode = ROCE_OP_WRITE_LAST_IMM; tw[2].va = 0; tw[2].rkey = 0; tw[2].dmalen = 0; tw[2].ackreq = 1;
  tw[2].imm = imm;
  for (int i = 0; i < n && i < 3; i++)
    cat_add("RDMA WRITE with immediate", &fr[i], 1, &tw[i], psn0 + (uint32_t)i, pool[0] + i * mtu,
            i == 2 ? 601 - 2 * mtu : mtu, mtu, 0);
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_WRITE_ONLY_IMM; t.va = va + 16384; t.rkey = rkey; t.dmalen = 7; t.ackreq = 1;
  t.imm = imm ^ 0x00FF00FFu;
  psn0 = qa.sq_psn;
  n = roce_build_write_imm(&qa, va + 16384, rkey, pool[1] + 64, 7, t.imm, fr, 8);
  cat_add("RDMA WRITE only with immediate", fr, n, &t, psn0, pool[1] + 64, 7, mtu, 0);

  /* SEND first / middle / last (530 B) and only (1 B) */
  psn0 = qa.sq_psn;
  n = roce_build_send(&qa, pool[2], 530, fr, 8);
  static const uint8_t send_ops[3] = {ROCE_OP_SEND_FIRST, ROCE_OP_SEND_MIDDLE, ROCE_OP_SEND_LAST};
  for (int i = 0; i < n && i < 3; i++) {
    memset(&t, 0, sizeof t);
    t.opcode = send_ops[i];
    t.ackreq = i == 2;
    cat_add("SEND", &fr[i], 1, &t, psn0 + (uint32_t)i, pool[2] + i * mtu, i == 2 ? 530 - 2 * mtu : mtu,
            mtu, 0);
  }
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_SEND_ONLY; t.ackreq = 1;
  psn0 = qa.sq_psn;
  n = roce_build_send(&qa, pool[2] + 1000, 1, fr, 8);
  cat_add("SEND only", fr, n, &t, psn0, pool[2] + 1000, 1, mtu, 0);

  /* RDMA READ request (700 B: 3 response packets) and its response from qb */
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_READ_REQ; t.va = va + 8192; t.rkey = rkey ^ 0x5A5A5A5Au; t.dmalen = 700; t.ackreq = 1;
  uint32_t rd_psn = qa.sq_psn;
  roce_build_read_req(&qa, t.va, t.rkey, 700, fr);
  cat_add("RDMA READ request", fr, 1, &t, rd_psn, NULL, 0, mtu, 0);
  uint32_t msn0 = qb.msn = 0xFFFFFFu;   /* wraps to 0 with this response */
  (void)msn0;
  n = roce_build_read_resp(&qb, rd_psn, pool[3], 700, fr, 8);
  static const uint8_t rr_ops[3] = {ROCE_OP_READ_RESP_FIRST, ROCE_OP_READ_RESP_MIDDLE,
                                    ROCE_OP_READ_RESP_LAST};
  for (int i = 0; i < n && i < 3; i++) {
    memset(&t, 0, sizeof t);
    t.opcode = rr_ops[i];
    if (i != 1) t.syndrome = ROCE_SYN_ACK, t.msn = 0;
    cat_add("RDMA READ response", &fr[i], 1, &t, rd_psn + (uint32_t)i, pool[3] + i * mtu,
            i == 2 ? 700 - 2 * mtu : mtu, mtu, 0);
  }
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_READ_RESP_ONLY; t.syndrome = ROCE_SYN_ACK; t.msn = 1;
  uint32_t rd2 = rnd() & ROCE_PSN_MASK;
  n = roce_build_read_resp(&qb, rd2, pool[3] + 2000, 10, fr, 8);
  cat_add("RDMA READ response only", fr, n, &t, rd2, pool[3] + 2000, 10, mtu, 0);

  /* ACK, RNR NAK, the four NAK codes, selective ACK */
  struct { const char *what; uint8_t syn; } acks[] = {
      {"ACK", ROCE_SYN_ACK},
      {"RNR NAK", ROCE_SYN_RNR(14)},
      {"NAK PSN sequence error", ROCE_SYN_NAK(ROCE_NAK_PSN_SEQ_ERR)},
      {"NAK invalid request", ROCE_SYN_NAK(ROCE_NAK_INVALID_REQ)},
      {"NAK remote access error", ROCE_SYN_NAK(ROCE_NAK_REMOTE_ACCESS)},
      {"NAK remote operational error", ROCE_SYN_NAK(ROCE_NAK_REMOTE_OP)},
  };
  for (unsigned i = 0; i < sizeof acks / sizeof acks[0]; i++) {
    memset(&t, 0, sizeof t);
    t.opcode = ROCE_OP_ACK;
    t.syndrome = acks[i].syn;
    t.msn = rnd() & 0xFFFFFFu;
    uint32_t psn = rnd() & ROCE_PSN_MASK;
    roce_build_ack(&qb, psn, t.syndrome, t.msn, fr);
    cat_add(acks[i].what, fr, 1, &t, psn, NULL, 0, mtu, 0);
  }
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_ACK;
  t.syndrome = ROCE_SYN_SACK;
  uint32_t epsn = rnd() & ROCE_PSN_MASK;
  t.msn = (epsn + 17) & ROCE_PSN_MASK;   /* the out-of-order PSN that arrived */
  roce_build_sack(&qb, epsn, t.msn, fr);
  cat_add("selective ACK", fr, 1, &t, epsn, NULL, 0, mtu, 0);
}

/* Which QP built catalogue entry c: requests from qa, responses from qb. */
static const roce_qp_t *cat_qp(const cat_t *c) {
  return c->exp.opcode >= ROCE_OP_READ_RESP_FIRST ? &qb : &qa;
}

/* ---- tests */
static void test_crc(void) {
  case_begin("crc32: model vs zlib, 300 random buffers of 0..3000 bytes");
  static uint8_t buf[3000];
  for (int i = 0; i < 300; i++) {
    uint32_t n = i < 5 ? (uint32_t)i : rnd() % sizeof buf;
    rnd_fill(buf, n);
    EXPECT_EQ(roce_crc32(buf, n), crc32(0L, buf, n), "crc32");
  }
  case_end();

  case_begin("crc32: state after 8 x 0xFF is 0xDEBB20E3");
  static const uint8_t ff[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(roce_crc32_update(0xFFFFFFFFu, ff, 8), ROCE_ICRC_LRH_STATE, "model state");
  EXPECT_EQ(~(uint32_t)crc32(0L, ff, 8), ROCE_ICRC_LRH_STATE, "zlib state");
  case_end();
}

static void test_build_parse(void) {
  for (int i = 0; i < ncat; i++) {
    cat_t *c = &cat[i];
    char name[128];
    snprintf(name, sizeof name, "model: %s (opcode 0x%02x, PSN 0x%06x) parses back, ICRC = zlib",
             c->what, c->exp.opcode, c->exp.psn);
    case_begin(name);
    roce_pkt_t k;
    int rc = roce_parse(c->fr.data, c->fr.len, &k);
    if (rc != ROCE_OK) fail("parse: %s", roce_strerror(rc));
    const roce_pkt_t *e = &c->exp;
    const roce_qp_t *q = cat_qp(c);
    EXPECT_EQ(k.opcode, e->opcode, "opcode");
    EXPECT_EQ(k.psn, e->psn, "psn");
    EXPECT_EQ(k.dqpn, q->dest_qpn, "dest QP");
    EXPECT_EQ(k.pkey, q->pkey, "P_Key");
    EXPECT_EQ(k.ackreq, e->ackreq, "AckReq");
    EXPECT_EQ(k.padcnt, e->padcnt, "pad count");
    EXPECT_EQ(k.va, e->va, "RETH VA");
    EXPECT_EQ(k.rkey, e->rkey, "RETH R_Key");
    EXPECT_EQ(k.dmalen, e->dmalen, "RETH length");
    EXPECT_EQ(k.syndrome, e->syndrome, "AETH syndrome");
    EXPECT_EQ(k.msn, e->msn, "AETH MSN");
    EXPECT_EQ(k.imm, e->imm, "ImmDt");
    EXPECT_EQ(k.payload_len, e->payload_len, "payload length");
    if (rc == ROCE_OK && e->payload_len && memcmp(k.payload, e->payload, e->payload_len))
      fail("payload differs");
    EXPECT_EQ(k.sip, q->ip, "IPv4 source");
    EXPECT_EQ(k.dip, q->rip, "IPv4 destination");
    EXPECT_EQ(k.sport, roce_udp_sport(q->qpn), "UDP source port");
    if (memcmp(k.dmac, q->rmac, 6) || memcmp(k.smac, q->mac, 6)) fail("MAC addresses");
    EXPECT_EQ(frame_icrc(c->fr.data, c->fr.len), icrc_zlib(c->fr.data, c->fr.len - 4), "ICRC vs zlib");
    EXPECT_EQ(ip_sum_ok(c->fr.data), 1, "IPv4 header sums to 0xFFFF");
    uint32_t hdr = 54 + (roce_op_has_reth(e->opcode) ? 16 : 0) + (roce_op_has_aeth(e->opcode) ? 4 : 0) +
                   (roce_op_has_immdt(e->opcode) ? 4 : 0);
    EXPECT_EQ(c->fr.len, hdr + e->payload_len + e->padcnt + 4, "frame length");
    case_end();
  }

  case_begin("model: PSNs of a READ request advance by its response packets, wrap at 2^24");
  roce_qp_t a, b;
  roce_frame_t fr[20];
  qp_pair(&a, &b, ROCE_MTU_1024);
  a.sq_psn = ROCE_PSN_MASK;
  roce_build_read_req(&a, 0x1000, 1, 4097, fr);
  EXPECT_EQ(a.sq_psn, 4, "PSN after a 5-packet READ");
  EXPECT_EQ(roce_npkts(&a, 0), 1, "packets of a 0-byte message");
  EXPECT_EQ(roce_build_write(&a, 0, 1, pool[0], 4096, fr, 3), -1, "too many frames refused");
  a.mtu = ROCE_MTU_4096;
  EXPECT_EQ(roce_build_write(&a, 0, 1, pool[0], 4096, fr, 1), 1, "4096 B in one MTU-4096 frame");
  EXPECT_EQ(fr[0].len, 54 + 16 + 4096 + 4, "largest frame length");
  EXPECT_EQ(roce_psn_diff(2, ROCE_PSN_MASK), 3, "psn_diff across the wrap");
  EXPECT_EQ(roce_psn_diff(ROCE_PSN_MASK, 2), -3, "psn_diff backwards");
  case_end();
}

static void test_parser_rejects(void) {
  /* a WRITE FIRST (payload), a READ REQUEST and an ACK */
  const cat_t *w = &cat[0], *ack = NULL;
  for (int i = 0; i < ncat; i++)
    if (cat[i].exp.opcode == ROCE_OP_ACK && !ack) ack = &cat[i];
  roce_pkt_t k;
  static roce_frame_t f;

  case_begin("parser: every truncation of a WRITE frame is rejected");
  for (uint32_t l = 0; l < w->fr.len; l++)
    if (roce_parse(w->fr.data, l, &k) == ROCE_OK) fail("accepted %u of %u bytes", l, w->fr.len);
  case_end();

  case_begin("parser: every single-bit error after the IPv4 checksum is caught (ICRC)");
  uint32_t missed = 0, icrc_err = 0;
  for (uint32_t byte = 14 + 12; byte < w->fr.len; byte++) {
    for (int bit = 0; bit < 8; bit++) {
      f = w->fr;
      f.data[byte] ^= (uint8_t)(1u << bit);
      int masked = byte == 34 + 6 || byte == 34 + 7 || byte == 42 + 4;   /* UDP csum, BTH byte 4 */
      int rc = roce_parse(f.data, f.len, &k);
      if (masked) {
        if (rc != ROCE_OK) fail("masked byte %u bit %d rejected: %s", byte, bit, roce_strerror(rc));
      } else if (rc == ROCE_OK) {
        missed++;
      } else if (rc == ROCE_E_ICRC) {
        icrc_err++;
      }
    }
  }
  EXPECT_EQ(missed, 0, "bit errors accepted");
  if (icrc_err < 8 * (w->fr.len - 54 - 16)) fail("only %u bit errors caught by the ICRC", icrc_err);
  case_end();

  case_begin("parser: bad IPv4 checksum, wrong UDP port, not IPv4, fragment rejected");
  f = w->fr; f.data[14 + 10] ^= 0x01;
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_IP_CSUM, "checksum");
  f = w->fr; f.data[14 + 8] ^= 0x01;   /* TTL: covered by the IPv4 checksum */
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_IP_CSUM, "TTL without checksum update");
  f = w->fr; f.data[34 + 3] ^= 0x01;
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_UDP, "UDP port");
  f = w->fr; f.data[12] = 0x86; f.data[13] = 0xDD;
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_ETHERTYPE, "EtherType");
  f = w->fr; f.data[14 + 6] |= 0x20;   /* more fragments */
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_IP_HDR, "fragment");
  case_end();

  case_begin("parser: ICRC-masked fields (TOS, TTL with checksum, UDP checksum, FECN/BECN) ignored");
  f = w->fr;
  f.data[14 + 1] = 0xB9;    /* DSCP 46, ECN CE */
  f.data[14 + 8] = 3;       /* TTL after some hops */
  uint16_t cs = roce_ip_csum(f.data + 14);
  f.data[14 + 10] = (uint8_t)(cs >> 8);
  f.data[14 + 11] = (uint8_t)cs;
  f.data[34 + 6] = 0x12; f.data[34 + 7] = 0x34;
  f.data[42 + 4] = ROCE_BTH_FECN | ROCE_BTH_BECN;
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_OK, "parse");
  EXPECT_EQ(k.fecn && k.becn, 1, "FECN and BECN read");
  EXPECT_EQ(k.ttl, 3, "TTL");
  case_end();

  case_begin("parser: layouts that do not fit the opcode are rejected, Ethernet padding accepted");
  roce_qp_t q = qb;
  roce_pkt_t t;
  memset(&t, 0, sizeof t);
  t.opcode = ROCE_OP_ACK; t.syndrome = ROCE_SYN_ACK;
  t.payload = pool[0]; t.payload_len = 4;   /* an ACK with payload */
  f.len = roce_build(&q, &t, f.data);
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_LEN, "ACK with payload");
  t.payload_len = 0;
  t.opcode = 0x13;                          /* compare-and-swap: not spoken */
  f.len = roce_build(&q, &t, f.data);
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_OPCODE, "atomic opcode");
  f = w->fr; f.data[42 + 1] |= 0x01;        /* TVer 1 */
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_OPCODE, "TVer");
  t.opcode = ROCE_OP_SEND_ONLY; t.payload = pool[0]; t.payload_len = 1;
  f.len = roce_build(&q, &t, f.data);
  f.data[42 + 1] &= (uint8_t)~ROCE_BTH_PADCNT_MASK;   /* pad 3 -> 0: 4 payload bytes */
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_ICRC, "pad count changed -> ICRC");
  t.payload_len = 0;   /* SEND of 0 bytes, then claim pad 3 (more pad than body) */
  f.len = roce_build(&q, &t, f.data);
  f.data[42 + 1] |= 0x30;
  uint32_t ic = icrc_zlib(f.data, f.len - 4);
  for (int i = 0; i < 4; i++) f.data[f.len - 4 + i] = (uint8_t)(ic >> (8 * i));
  EXPECT_EQ(roce_parse(f.data, f.len, &k), ROCE_E_LEN, "pad > payload");
  if (ack) {
    f = ack->fr;
    memset(f.data + f.len, 0, 64 - f.len);
    EXPECT_EQ(roce_parse(f.data, 64, &k), ROCE_OK, "ACK with Ethernet padding to 64 B");
    EXPECT_EQ(k.payload_len, 0, "no payload read from the padding");
  }
  case_end();
}

/* ---- tshark */
static const char *tshark = "tshark";

#define TS_FIELDS                                                                          \
  X(num, "frame.number") X(protos, "frame.protocols") X(opcode, "infiniband.bth.opcode")    \
  X(dqp, "infiniband.bth.destqp") X(psn, "infiniband.bth.psn") X(ackreq, "infiniband.bth.a") \
  X(pad, "infiniband.bth.padcnt") X(pkey, "infiniband.bth.p_key")                          \
  X(va, "infiniband.reth.va") X(rkey, "infiniband.reth.r_key")                              \
  X(dmalen, "infiniband.reth.dmalen") X(syn, "infiniband.aeth.syndrome")                    \
  X(msn, "infiniband.aeth.msn") X(icrc, "infiniband.invariant.crc")                         \
  X(immdt, "infiniband.immdt")                                                              \
  X(ipck, "ip.checksum.status") X(dport, "udp.dstport") X(payload, "data.data")    \
  X(malformed, "_ws.malformed") X(expert, "_ws.expert.severity")

enum {
#define X(id, f) TS_##id,
  TS_FIELDS
#undef X
  TS_N
};
static const char *const ts_field[TS_N] = {
#define X(id, f) f,
    TS_FIELDS
#undef X
};

typedef struct {
  char v[TS_N][9000];   /* a 4 KiB payload is 8 K hex digits */
} ts_row_t;

/* Run tshark on a pcap file; rows[i] = frame i+1's fields. Returns the row count or -1. */
static int tshark_rows(const char *pcap, const char *opts, ts_row_t *rows, int max) {
  char cmd[4096];
  int n = snprintf(cmd, sizeof cmd,
                   "%s -r '%s' -n -o ip.check_checksum:TRUE %s -T fields -E separator=/t "
                   "-E occurrence=f",
                   tshark, pcap, opts);
  for (int i = 0; i < TS_N; i++) n += snprintf(cmd + n, sizeof cmd - n, " -e %s", ts_field[i]);
  snprintf(cmd + n, sizeof cmd - n, " 2>/dev/null");
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  static char line[65536];
  int rows_n = 0;
  while (fgets(line, sizeof line, p)) {
    if (rows_n >= max) break;
    line[strcspn(line, "\r\n")] = 0;
    ts_row_t *r = &rows[rows_n];
    memset(r, 0, sizeof *r);
    char *s = line;
    for (int i = 0; i < TS_N; i++) {
      char *tab = strchr(s, '\t');
      if (tab) *tab = 0;
      size_t l = strlen(s) < sizeof r->v[i] - 1 ? strlen(s) : sizeof r->v[i] - 1;
      memcpy(r->v[i], s, l);
      r->v[i][l] = 0;
      if (!tab) break;
      s = tab + 1;
    }
    if (strtoul(r->v[TS_num], 0, 10) != (unsigned long)rows_n + 1) continue;   /* not a frame */
    rows_n++;
  }
  int st = pclose(p);
  return st == 0 ? rows_n : -1;
}

static uint64_t ts_num(const ts_row_t *r, int f) { return strtoull(r->v[f], 0, 0); }

/* tshark prints booleans as "1"/"True" and payload bytes as hex, with or without ':' */
static int ts_bool(const ts_row_t *r, int f) {
  return !strcmp(r->v[f], "1") || !strcasecmp(r->v[f], "true");
}
static int ts_bytes(const ts_row_t *r, int f, uint8_t *out, int max) {
  int n = 0;
  for (const char *s = r->v[f]; s[0] && s[1] && n < max;) {
    if (*s == ':') { s++; continue; }
    unsigned v;
    if (sscanf(s, "%2x", &v) != 1) break;
    out[n++] = (uint8_t)v;
    s += 2;
  }
  return n;
}

static void test_tshark(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/nic_opcodes.pcap", dir);
  tsim_pcap_t *pw = tsim_pcap_create(path);
  for (int i = 0; i < ncat && pw; i++) tsim_pcap_write(pw, (uint64_t)i * 1000u, cat[i].fr.data, cat[i].fr.len);
  int ok = pw && tsim_pcap_close(pw) == 0;
  static ts_row_t rows[CAT_MAX + 4];
  /* Wireshark 4.0's RPC-over-RDMA heuristic (tried on every SEND payload) reads
   * 16 bytes before it checks the length, so a SEND only shorter than that is
   * marked malformed whoever sent it: decode with that heuristic off, then
   * check below that it is the only cause of a malformed mark. */
  int n = ok ? tshark_rows(path, "--disable-heuristic rpcrdma_infiniband", rows, CAT_MAX + 4) : -1;

  case_begin("tshark: runs on the opcode pcap and sees every frame");
  if (!ok) fail("could not write %s", path);
  if (n < 0) fail("%s failed (is the Debian package tshark installed? make deps)", tshark);
  else EXPECT_EQ(n, ncat, "frames decoded");
  case_end();
  if (n != ncat) return;

  for (int i = 0; i < ncat; i++) {
    const cat_t *c = &cat[i];
    const roce_pkt_t *e = &c->exp;
    const ts_row_t *r = &rows[i];
    char name[160];
    snprintf(name, sizeof name, "tshark: %s (opcode 0x%02x) decodes as InfiniBand with the built fields",
             c->what, e->opcode);
    case_begin(name);
    if (!strstr(r->v[TS_protos], ":udp:infiniband")) fail("protocols '%s'", r->v[TS_protos]);
    EXPECT_EQ(ts_num(r, TS_dport), 4791, "UDP port");
    EXPECT_EQ(ts_num(r, TS_ipck), 1, "ip.checksum.status (1 = good)");
    EXPECT_EQ(ts_num(r, TS_opcode), e->opcode, "opcode");
    EXPECT_EQ(ts_num(r, TS_dqp), cat_qp(c)->dest_qpn, "dest QP");
    EXPECT_EQ(ts_num(r, TS_psn), e->psn, "PSN");
    EXPECT_EQ(ts_bool(r, TS_ackreq), e->ackreq, "AckReq");
    EXPECT_EQ(ts_num(r, TS_pad), e->padcnt, "pad count");
    EXPECT_EQ(ts_num(r, TS_pkey), cat_qp(c)->pkey, "P_Key");
    if (roce_op_has_reth(e->opcode)) {
      EXPECT_EQ(ts_num(r, TS_va), e->va, "RETH VA");
      EXPECT_EQ(ts_num(r, TS_rkey), e->rkey, "RETH R_Key");
      EXPECT_EQ(ts_num(r, TS_dmalen), e->dmalen, "RETH DMA length");
    } else if (r->v[TS_va][0]) {
      fail("RETH decoded where none was sent");
    }
    if (roce_op_has_aeth(e->opcode)) {
      EXPECT_EQ(ts_num(r, TS_syn), e->syndrome, "AETH syndrome");
      EXPECT_EQ(ts_num(r, TS_msn), e->msn, "AETH MSN");
    } else if (r->v[TS_syn][0]) {
      fail("AETH decoded where none was sent");
    }
    if (roce_op_has_immdt(e->opcode)) {   /* ImmDt: 4 bytes, network order */
      uint8_t im[8];
      int in = ts_bytes(r, TS_immdt, im, sizeof im);
      EXPECT_EQ(in, 4, "ImmDt bytes shown");
      if (in == 4) EXPECT_EQ((uint32_t)im[0] << 24 | (uint32_t)im[1] << 16 | (uint32_t)im[2] << 8 | im[3], e->imm,
                             "ImmDt");
    } else if (r->v[TS_immdt][0]) {
      fail("ImmDt decoded where none was sent");
    }
    /* tshark shows the ICRC bytes as a big-endian number; they are sent LSB first */
    EXPECT_EQ(ts_num(r, TS_icrc), bswap32(icrc_zlib(c->fr.data, c->fr.len - 4)),
              "ICRC (tshark) vs zlib");
    uint8_t pl[4200];
    int pn = ts_bytes(r, TS_payload, pl, sizeof pl);
    uint32_t want = e->payload_len + e->padcnt;
    if (want) {
      EXPECT_EQ(pn, want, "payload bytes (with pad) shown");
      if ((uint32_t)pn == want && memcmp(pl, e->payload, e->payload_len)) fail("payload differs");
    }
    if (r->v[TS_malformed][0]) fail("malformed: '%s'", r->v[TS_malformed]);
    if (r->v[TS_expert][0]) fail("expert info: '%s'", r->v[TS_expert]);
    case_end();
  }

  case_begin("tshark: with every heuristic on, only SEND only frames under 16 B are malformed (RPCoRDMA)");
  n = tshark_rows(path, "", rows, CAT_MAX + 4);
  EXPECT_EQ(n, ncat, "frames decoded");
  for (int i = 0; i < n && i < ncat; i++) {
    const roce_pkt_t *e = &cat[i].exp;
    int short_send = e->opcode == ROCE_OP_SEND_ONLY && e->payload_len + e->padcnt < 16;
    int marked = rows[i].v[TS_malformed][0] != 0;
    if (marked != short_send || (marked && !strstr(rows[i].v[TS_malformed], "RPCoRDMA")))
      fail("frame %d (%s, %u B): malformed '%s'", i + 1, cat[i].what, e->payload_len,
           rows[i].v[TS_malformed]);
  }
  case_end();
}

/* ---- scapy: a second decoder with its own ICRC code (tests/nic/scapy_check.py) */
static const char *python = "python3";
static const char *scapy_script = "tests/nic/scapy_check.py";

static void test_scapy(const char *dir) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s '%s' '%s/nic_opcodes.pcap' 2>&1", python, scapy_script, dir);
  case_begin("scapy: every catalogue frame reads as RoCE v2 with the built fields, scapy's ICRC agrees");
  FILE *p = popen(cmd, "r");
  char line[512];
  int i = 0;
  while (p && fgets(line, sizeof line, p)) {
    long v[8];
    if (sscanf(line, "%ld %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]) != 8) {
      fail("scapy: %s", line);
      continue;
    }
    if (i >= ncat) { fail("more frames than built"); break; }
    const roce_pkt_t *e = &cat[i].exp;
    int aeth = e->opcode == ROCE_OP_ACK;   /* scapy binds AETH to ACKNOWLEDGE only */
    if (v[0] != e->opcode || v[1] != (long)cat_qp(&cat[i])->dest_qpn || v[2] != (long)e->psn ||
        v[3] != e->ackreq || v[4] != e->padcnt || v[5] != (aeth ? e->syndrome : -1) ||
        v[6] != (aeth ? (long)e->msn : -1) || v[7] != 1)
      fail("frame %d (%s): scapy read '%.*s'", i + 1, cat[i].what, (int)strcspn(line, "\n"), line);
    i++;
  }
  int st = p ? pclose(p) : -1;
  if (st != 0) fail("%s failed (scapy is installed into .venv by make deps)", cmd);
  EXPECT_EQ(i, ncat, "frames read by scapy");
  case_end();
}

static void test_pcap(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/nic_roundtrip.pcap", dir);
  case_begin("pcap: write and read back every catalogue frame and its timestamp");
  tsim_pcap_t *p = tsim_pcap_create(path);
  if (!p) fail("create %s", path);
  uint64_t ts[CAT_MAX];
  for (int i = 0; i < ncat && p; i++) {
    ts[i] = (uint64_t)rnd() * 3000u + (uint64_t)i * 5000000000ull;
    if (tsim_pcap_write(p, ts[i], cat[i].fr.data, cat[i].fr.len)) fail("write %d", i);
  }
  if (p && tsim_pcap_close(p)) fail("close");
  p = tsim_pcap_open(path);
  if (!p) fail("open %s", path);
  static uint8_t buf[ROCE_FRAME_MAX];
  for (int i = 0; i < ncat && p; i++) {
    uint64_t t;
    uint32_t len, orig;
    int rc = tsim_pcap_read(p, &t, buf, sizeof buf, &len, &orig);
    if (rc != 1) { fail("read %d: %d", i, rc); break; }
    EXPECT_EQ(t, ts[i], "timestamp");
    EXPECT_EQ(len, cat[i].fr.len, "length");
    EXPECT_EQ(orig, cat[i].fr.len, "original length");
    if (len == cat[i].fr.len && memcmp(buf, cat[i].fr.data, len)) fail("frame %d differs", i);
  }
  if (p) {
    EXPECT_EQ(tsim_pcap_read(p, NULL, buf, sizeof buf, NULL, NULL), 0, "end of file");
    EXPECT_EQ(tsim_pcap_count(p), ncat, "frames read");
    tsim_pcap_close(p);
  }
  case_end();

  case_begin("pcap: a cut file reads as an error, a non-pcap file does not open");
  FILE *f = fopen(path, "rb");
  static uint8_t file[1 << 20];
  size_t n = f ? fread(file, 1, sizeof file, f) : 0;
  if (f) fclose(f);
  if (n < 24 + 16 + cat[0].fr.len + 16 + 10) fail("round-trip file too short: %zu", n);
  snprintf(path, sizeof path, "%s/nic_cut.pcap", dir);
  f = fopen(path, "wb");
  if (f) { fwrite(file, 1, 24 + 16 + cat[0].fr.len + 16 + 10, f); fclose(f); }
  p = tsim_pcap_open(path);
  if (!p) fail("open cut file");
  else {
    EXPECT_EQ(tsim_pcap_read(p, NULL, buf, sizeof buf, NULL, NULL), 1, "first record");
    EXPECT_EQ(tsim_pcap_read(p, NULL, buf, sizeof buf, NULL, NULL), -1, "cut record");
    tsim_pcap_close(p);
  }
  EXPECT_EQ(tsim_pcap_open("/dev/null") == NULL, 1, "empty file refused");
  snprintf(path, sizeof path, "%s/nic_swapped.pcap", dir);   /* big-endian, microseconds */
  f = fopen(path, "wb");
  if (f) {
    static const uint8_t hdr[24] = {0xA1, 0xB2, 0xC3, 0xD4, 0, 2, 0, 4, 0, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1};
    const uint32_t l = cat[0].fr.len;
    const uint8_t rec[16] = {0, 0, 0, 7, 0, 0, 0x03, 0xE8, 0, 0, (uint8_t)(l >> 8), (uint8_t)l,
                             0, 0, (uint8_t)(l >> 8), (uint8_t)l};
    fwrite(hdr, 1, 24, f);
    fwrite(rec, 1, 16, f);
    fwrite(cat[0].fr.data, 1, l, f);
    fclose(f);
  }
  p = tsim_pcap_open(path);
  if (!p) fail("open big-endian file");
  else {
    uint64_t t = 0;
    uint32_t len = 0;
    EXPECT_EQ(tsim_pcap_read(p, &t, buf, sizeof buf, &len, NULL), 1, "big-endian record");
    EXPECT_EQ(t, 7001000000ull, "microsecond timestamp (7 s + 1000 us)");
    EXPECT_EQ(len, cat[0].fr.len, "big-endian length");
    tsim_pcap_close(p);
  }
  case_end();
}

/* ---- link model */
#define LK_FRAMES 40000
static roce_frame_t *lk_sent;   /* every frame sent, indexed by IPv4 ID */

static uint32_t hamming(const uint8_t *a, const uint8_t *b, uint32_t n) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < n; i++) d += (uint32_t)__builtin_popcount(a[i] ^ b[i]);
  return d;
}

typedef struct {
  tsim_link_stats_t st;
  uint32_t corrupt_seen, bad_parse, inversions, unknown;
  uint64_t last_arrival;
} lk_run_t;

/* Send LK_FRAMES write frames (64..1024 B payloads) back to back through a link
 * and classify what comes out. */
static void lk_run(const tsim_link_cfg_t *cfg, lk_run_t *out, tsim_pcap_t *pcap) {
  tsim_link_t *l = tsim_link_new(cfg);
  if (pcap) tsim_link_set_pcap(l, pcap, 1);
  roce_qp_t a, b;
  uint64_t save = rng_state;
  rng_state = 0x1234567ull;   /* the same traffic for every configuration */
  qp_pair(&a, &b, ROCE_MTU_1024);
  a.ip_id = 0;
  memset(out, 0, sizeof *out);
  static uint8_t buf[ROCE_FRAME_MAX];
  uint64_t now = 0;
  uint32_t max_psn = 0;
  int any = 0;
  for (uint32_t i = 0; i <= LK_FRAMES; i++) {
    if (i < LK_FRAMES) {
      uint32_t len = 64 + rnd() % 961;
      roce_build_write(&a, (uint64_t)i << 12, 0x77, pool[i & 3], len, &lk_sent[i], 1);
      now = tsim_link_free_at(l);
      tsim_link_send(l, now, lk_sent[i].data, lk_sent[i].len);
    } else {
      now = UINT64_MAX;
    }
    uint32_t len;
    uint64_t arr;
    while (tsim_link_recv(l, now, buf, sizeof buf, &len, &arr)) {
      out->last_arrival = arr;
      roce_pkt_t k;
      if (roce_parse(buf, len, &k) != ROCE_OK) out->bad_parse++;
      uint32_t id = rd16(buf + 14 + 4), psn = (uint32_t)buf[51] << 16 | rd16(buf + 52);
      const roce_frame_t *s = id < LK_FRAMES ? &lk_sent[id] : NULL;
      uint32_t d = s && s->len == len ? hamming(s->data, buf, len) : 99;
      if (d > 1 && psn < LK_FRAMES && lk_sent[psn].len == len) d = hamming(lk_sent[psn].data, buf, len), s = &lk_sent[psn];
      if (d > 1) { out->unknown++; continue; }
      if (d == 1) out->corrupt_seen++;
      uint32_t seq = (uint32_t)(s - lk_sent);
      if (any && seq < max_psn) out->inversions++;
      if (!any || seq > max_psn) max_psn = seq;
      any = 1;
    }
  }
  tsim_link_stats(l, &out->st);
  tsim_link_free(l);
  rng_state = save;
}

static void within(const char *what, uint64_t got, uint64_t n, uint32_t ppm) {
  double exp = (double)n * ppm / 1e6, lo = exp * 0.85, hi = exp * 1.15;
  printf("  %s: %" PRIu64 " of %" PRIu64 " (%.3f %%, configured %.3f %%)\n", what, got, n,
         100.0 * (double)got / (double)n, ppm / 1e4);
  if ((double)got < lo || (double)got > hi) fail("%s %" PRIu64 " outside [%.0f, %.0f]", what, got, lo, hi);
}

static void test_link(const char *dir, uint64_t seed) {
  lk_sent = calloc(LK_FRAMES, sizeof *lk_sent);
  tsim_link_cfg_t cfg;
  lk_run_t r, r2;

  case_begin("link: lossless timing (serialization + overhead + latency, back to back)");
  tsim_link_cfg_default(&cfg);
  cfg.latency = 150;
  cfg.bytes_per_cycle = 16;
  tsim_link_t *l = tsim_link_new(&cfg);
  static uint8_t fr[1000], buf[2000];
  memset(fr, 0xA5, sizeof fr);
  uint64_t end = 0;
  for (int i = 0; i < 100; i++) end = tsim_link_send(l, 0, fr, sizeof fr);
  uint64_t per = (1000 + 24 + 15) / 16;
  EXPECT_EQ(end, 100 * per, "last byte sent");
  EXPECT_EQ(tsim_link_next_arrival(l), per + 150, "first arrival");
  uint32_t len, got = 0;
  uint64_t arr = 0, prev = 0;
  while (tsim_link_recv(l, UINT64_MAX, buf, sizeof buf, &len, &arr)) {
    got++;
    if (arr - prev != (got == 1 ? per + 150 : per)) fail("arrival %u at %" PRIu64, got, arr);
    if (len != 1000 || memcmp(buf, fr, 1000)) fail("frame %u differs", got);
    prev = arr;
  }
  EXPECT_EQ(got, 100, "frames delivered");
  tsim_link_stats_t st;
  tsim_link_stats(l, &st);
  EXPECT_EQ(st.busy_cycles, 100 * per, "busy cycles");
  EXPECT_EQ(tsim_link_recv(l, UINT64_MAX, buf, sizeof buf, &len, &arr), 0, "empty");
  tsim_link_free(l);
  case_end();

  case_begin("link: no impairments configured -> every frame intact and in order");
  tsim_link_cfg_default(&cfg);
  cfg.seed = seed;
  lk_run(&cfg, &r, NULL);
  EXPECT_EQ(r.st.delivered, LK_FRAMES, "delivered");
  EXPECT_EQ(r.corrupt_seen + r.bad_parse + r.inversions + r.unknown, 0, "damage");
  case_end();

  char name[200];
  snprintf(name, sizeof name,
           "link: seed %llu, %d frames, 5 %% drop, 1 %% corrupt, 1 %% duplicate, 2 %% reorder: "
           "statistics within 15 %% of the rates, accounting exact",
           (unsigned long long)seed, LK_FRAMES);
  case_begin(name);
  tsim_link_cfg_default(&cfg);
  cfg.seed = seed;
  cfg.drop_ppm = 50000;
  cfg.corrupt_ppm = 10000;
  cfg.dup_ppm = 10000;
  cfg.reorder_ppm = 20000;
  cfg.reorder_max = 2000;
  lk_run(&cfg, &r, NULL);
  within("dropped", r.st.dropped, LK_FRAMES, cfg.drop_ppm);
  within("corrupted", r.st.corrupted, LK_FRAMES, cfg.corrupt_ppm);
  within("duplicated", r.st.duplicated, LK_FRAMES, cfg.dup_ppm);
  within("reordered", r.st.reordered, LK_FRAMES, cfg.reorder_ppm);
  printf("  delivered %" PRIu64 ", one-bit-damaged deliveries %u, rejected by the parser %u, "
         "out-of-order deliveries %u\n", r.st.delivered, r.corrupt_seen, r.bad_parse, r.inversions);
  EXPECT_EQ(r.st.sent, LK_FRAMES, "sent");
  EXPECT_EQ(r.st.delivered, r.st.sent - r.st.dropped + r.st.duplicated, "delivered = sent - dropped + duplicated");
  EXPECT_EQ(r.unknown, 0, "deliveries not traceable to a sent frame");
  /* each corrupted frame arrives once, or twice when also duplicated */
  if (r.corrupt_seen < r.st.corrupted || r.corrupt_seen > 2 * r.st.corrupted)
    fail("damaged deliveries %u vs corrupted %" PRIu64, r.corrupt_seen, r.st.corrupted);
  if (r.bad_parse > r.corrupt_seen) fail("parser rejected %u > damaged %u", r.bad_parse, r.corrupt_seen);
  if (r.inversions < r.st.reordered / 2) fail("only %u out-of-order deliveries", r.inversions);
  case_end();

  case_begin("link: the same seed gives the same run, another seed another");
  lk_run(&cfg, &r2, NULL);
  if (memcmp(&r.st, &r2.st, sizeof r.st) || r.last_arrival != r2.last_arrival) fail("rerun differs");
  cfg.seed = seed + 1;
  lk_run(&cfg, &r2, NULL);
  if (!memcmp(&r.st, &r2.st, sizeof r.st)) fail("seed + 1 gives the same statistics");
  case_end();

  /* a lossy link's pcap (transmitter's view) decodes in tshark frame by frame */
  char path[1024];
  snprintf(path, sizeof path, "%s/nic_link.pcap", dir);
  case_begin("link: pcap of a lossy link (sent frames) decodes in tshark, no malformed frame");
  tsim_pcap_t *p = tsim_pcap_create(path);
  cfg.seed = seed;
  if (!p) fail("create %s", path);
  else {
    lk_run(&cfg, &r, p);
    if (tsim_pcap_close(p)) fail("close");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s -r '%s' -n -T fields -e frame.protocols -e _ws.malformed 2>/dev/null | "
             "awk '$1 ~ /:udp:infiniband/ && NF == 1 {ok++} END {print ok+0, NR}'",
             tshark, path);
    FILE *pp = popen(cmd, "r");
    unsigned ok = 0, rows = 0;
    if (!pp || fscanf(pp, "%u %u", &ok, &rows) != 2) fail("tshark did not run");
    if (pp) pclose(pp);
    printf("  %u of %u frames decoded as InfiniBand without a malformed mark\n", ok, rows);
    EXPECT_EQ(rows, LK_FRAMES, "frames in the pcap");
    EXPECT_EQ(ok, LK_FRAMES, "clean InfiniBand frames");
  }
  case_end();
  free(lk_sent);
}

/* ---- transport reference model: WRITEs over lossy links, selective vs go-back-N */
#define TR_WRS 1000u
#define TR_SPAN 8192u   /* bytes of the region per WRITE */

typedef struct {
  rt_stats_t st;
  int rc;
  uint32_t misplaced;   /* bytes of the region that differ from the expected image */
} tr_run_t;

static uint8_t *tr_src, *tr_mem, *tr_exp;
static rt_write_t tr_wr[TR_WRS];

/* The transport tests' QP pair: MTU 1024, a region of TR_WRS * TR_SPAN bytes, default links. */
static void tr_cfg(rt_cfg_t *c, int selective) {
  memset(c, 0, sizeof *c);
  c->selective = selective;
  c->mtu = ROCE_MTU_1024;
  c->rto = 8000;
  c->retry_limit = 16;
  c->first_psn = ROCE_PSN_MASK - 300;   /* PSNs wrap during a run */
  c->max_cycles = 50000000;
  c->mr_base = 0x40000000ull;
  c->mr_len = TR_WRS * TR_SPAN;
  c->mr_rkey = 0x1234;
  c->mem = tr_mem;
  tsim_link_cfg_default(&c->data_link);
  tsim_link_cfg_default(&c->ack_link);
}

static void tr_run(int selective, uint32_t drop, uint32_t corrupt, uint32_t dup, uint32_t reorder,
                   uint64_t seed, tsim_pcap_t *pd, tsim_pcap_t *pa, tr_run_t *r) {
  rt_cfg_t c;
  tr_cfg(&c, selective);
  c.pcap_data = pd;
  c.pcap_ack = pa;
  tsim_link_cfg_t *l[2] = {&c.data_link, &c.ack_link};
  for (int i = 0; i < 2; i++) {
    l[i]->drop_ppm = drop;
    l[i]->corrupt_ppm = corrupt;
    l[i]->dup_ppm = dup;
    l[i]->reorder_ppm = reorder;
    l[i]->reorder_max = 2000;
    l[i]->seed = seed * 2 + (uint64_t)i;
  }
  memset(tr_mem, 0xEE, c.mr_len);
  r->rc = rt_run(&c, tr_wr, TR_WRS, &r->st);
  r->misplaced = 0;
  for (uint32_t i = 0; i < c.mr_len; i++) r->misplaced += tr_mem[i] != tr_exp[i];
}

static double tr_goodput(const tr_run_t *r) {   /* % of the link's 32 bytes per cycle */
  return r->st.cycles ? 100.0 * (double)r->st.payload_bytes / (double)r->st.cycles / 32.0 : 0;
}

static void tr_print(const char *what, const tr_run_t *r) {
  const rt_stats_t *s = &r->st;
  printf("  %s: %u/%u WRITEs in %" PRIu64 " cycles, goodput %.1f %% of the link, %" PRIu64
         " data frames, %" PRIu64 " resent, %" PRIu64 " timeouts, %" PRIu64 " ACK / %" PRIu64
         " SACK / %" PRIu64 " NAK, %" PRIu64 " duplicates, %" PRIu64 " dropped out of order, %" PRIu64
         " bad frames, %u bytes misplaced\n",
         what, s->completed, TR_WRS, s->cycles, tr_goodput(r), s->data_frames, s->retransmits,
         s->timeouts, s->acks, s->sacks, s->naks, s->duplicates, s->dropped_out_of_order,
         s->bad_frames, r->misplaced);
}

static void tr_check(const tr_run_t *r) {
  EXPECT_EQ(r->rc, 0, "run completed");
  EXPECT_EQ(r->st.completed, TR_WRS, "WRITEs completed");
  EXPECT_EQ(r->st.failed, 0, "QP failed");
  EXPECT_EQ(r->misplaced, 0, "bytes lost or misplaced");
}

static void test_transport(const char *dir, uint64_t seed) {
  tr_src = malloc((size_t)TR_WRS * TR_SPAN);
  tr_mem = malloc((size_t)TR_WRS * TR_SPAN);
  tr_exp = malloc((size_t)TR_WRS * TR_SPAN);
  rnd_fill(tr_src, (size_t)TR_WRS * TR_SPAN);
  memset(tr_exp, 0xEE, (size_t)TR_WRS * TR_SPAN);
  uint64_t total = 0;
  for (uint32_t i = 0; i < TR_WRS; i++) {   /* disjoint destinations, 1 B .. 8 KiB */
    uint32_t len = 1 + rnd() % TR_SPAN, off = rnd() % (TR_SPAN - len + 1);
    tr_wr[i].va = 0x40000000ull + (uint64_t)i * TR_SPAN + off;
    tr_wr[i].len = len;
    tr_wr[i].rkey = 0x1234;
    tr_wr[i].data = tr_src + (size_t)i * TR_SPAN;
    memcpy(tr_exp + (size_t)i * TR_SPAN + off, tr_wr[i].data, len);
    total += len;
  }
  printf("  %u WRITEs, %" PRIu64 " bytes, MTU 1024, links 32 B/cycle, 200 cycles latency\n", TR_WRS, total);
  tr_run_t sel0, gbn0, sel, gbn, sel1, gbn1;

  case_begin("transport: 1000 WRITEs, lossless, selective and go-back-N: memory exact, nothing resent");
  tr_run(1, 0, 0, 0, 0, seed, NULL, NULL, &sel0);
  tr_print("selective", &sel0);
  tr_check(&sel0);
  EXPECT_EQ(sel0.st.retransmits + sel0.st.timeouts, 0, "selective resends");
  tr_run(0, 0, 0, 0, 0, seed, NULL, NULL, &gbn0);
  tr_print("go-back-N", &gbn0);
  tr_check(&gbn0);
  EXPECT_EQ(gbn0.st.retransmits + gbn0.st.timeouts, 0, "go-back-N resends");
  case_end();

  char path[2][1024];
  snprintf(path[0], sizeof path[0], "%s/nic_transport_data.pcap", dir);
  snprintf(path[1], sizeof path[1], "%s/nic_transport_ack.pcap", dir);
  tsim_pcap_t *pd = tsim_pcap_create(path[0]), *pa = tsim_pcap_create(path[1]);
  case_begin("transport: 1000 WRITEs, 5 % drop + 1 % corrupt + 1 % duplicate + 2 % reorder both ways: "
             "0 bytes lost or misplaced, selective resends less than go-back-N");
  tr_run(1, 50000, 10000, 10000, 20000, seed, pd, pa, &sel);
  if (!pd || !pa || tsim_pcap_close(pd) || tsim_pcap_close(pa)) fail("pcap files");
  tr_print("selective", &sel);
  tr_check(&sel);
  tr_run(0, 50000, 10000, 10000, 20000, seed, NULL, NULL, &gbn);
  tr_print("go-back-N", &gbn);
  tr_check(&gbn);
  if (sel.st.retransmits >= gbn.st.retransmits)
    fail("selective resent %" PRIu64 ", go-back-N %" PRIu64, sel.st.retransmits, gbn.st.retransmits);
  if (sel.st.sacks == 0) fail("no selective ACK sent");
  case_end();

  case_begin("transport: 1 % drop: goodput of selective and go-back-N against lossless");
  tr_run(1, 10000, 0, 0, 0, seed, NULL, NULL, &sel1);
  tr_run(0, 10000, 0, 0, 0, seed, NULL, NULL, &gbn1);
  tr_print("selective", &sel1);
  tr_print("go-back-N", &gbn1);
  tr_check(&sel1);
  tr_check(&gbn1);
  double rs = tr_goodput(&sel1) / tr_goodput(&sel0), rg = tr_goodput(&gbn1) / tr_goodput(&gbn0);
  printf("  goodput at 1 %% drop: selective %.1f %%, go-back-N %.1f %% of lossless\n", 100 * rs, 100 * rg);
  if (rs <= rg) fail("selective keeps %.3f, go-back-N %.3f of lossless goodput", rs, rg);
  case_end();

  case_begin("transport: the lossy run's pcaps decode in tshark; every SACK sent is there as a NAK PSN sequence error");
  for (int i = 0; i < 2; i++) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s -r '%s' -n -T fields -e frame.protocols -e infiniband.aeth.syndrome -e _ws.malformed "
             "2>/dev/null | awk -F'\\t' '$1 ~ /:udp:infiniband/ && $3 == \"\" {ok++} $2 == 96 {s++} "
             "END {print ok+0, NR, s+0}'",
             tshark, path[i]);
    FILE *pp = popen(cmd, "r");
    unsigned ok = 0, rows = 0, sacks = 0;
    if (!pp || fscanf(pp, "%u %u %u", &ok, &rows, &sacks) != 3) fail("tshark did not run");
    if (pp) pclose(pp);
    printf("  %s: %u of %u frames clean InfiniBand, %u with syndrome 0x60\n", path[i], ok, rows, sacks);
    uint64_t want = i == 0 ? sel.st.data_frames : sel.st.acks + sel.st.sacks + sel.st.naks;
    EXPECT_EQ(rows, want, "frames in the pcap");
    EXPECT_EQ(ok, rows, "clean frames");
    EXPECT_EQ(sacks, i == 0 ? 0 : sel.st.sacks, "selective ACKs in the pcap");
  }
  case_end();
  /* bad R_Key and out-of-bounds WRITEs: NAK remote access, nothing written from then on */
  static const char *const bad_what[2] = {"another R_Key", "past the region's end"};
  for (int mode = 0; mode < 2; mode++) {
    for (int bad = 0; bad < 2; bad++) {
      char name[200];
      snprintf(name, sizeof name,
               "transport: %s, WRITE 2 of 3 with %s: NAK remote access, requester fails, "
               "nothing written after WRITE 1%s",
               mode ? "selective" : "go-back-N", bad_what[bad],
               mode && bad ? " but WRITE 2's packets inside the region" : "");
      case_begin(name);
      rt_write_t w[3];
      for (int i = 0; i < 3; i++) w[i] = tr_wr[i];
      if (bad == 0) w[1].rkey = 0x4321;
      else w[1].va = 0x40000000ull + (uint64_t)TR_WRS * TR_SPAN - w[1].len / 2;   /* straddles the end */
      rt_cfg_t c;
      tr_cfg(&c, mode);
      memset(tr_mem, 0xEE, c.mr_len);
      rt_stats_t st;
      EXPECT_EQ(rt_run(&c, w, 3, &st), (uint64_t)-1, "run fails");
      EXPECT_EQ(st.failed, 1, "requester failed");
      EXPECT_EQ(st.completed, 1, "WRITEs completed before the bad one");
      EXPECT_EQ(st.naks, 1, "NAKs sent");
      if (memcmp(tr_mem, tr_exp, TR_SPAN)) fail("WRITE 1 not in memory");
      /* selective mode checks packet by packet: WRITE 2's packets inside the region may land */
      uint64_t lo = w[1].va - c.mr_base, hi = mode && bad ? c.mr_len : lo;
      uint32_t inside = 0;
      for (uint32_t i = TR_SPAN; i < c.mr_len; i++) {
        if (tr_mem[i] == 0xEE) continue;
        if (i >= lo && i < hi && tr_mem[i] == w[1].data[i - lo]) { inside++; continue; }
        fail("byte %u written after the bad WRITE", i);
        break;
      }
      if (inside) printf("  %u bytes of WRITE 2 inside the region landed\n", inside);
      case_end();
    }
  }
  free(tr_src);
  free(tr_mem);
  free(tr_exp);
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  const char *dir = "build/nic";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--tshark") && i + 1 < argc) tshark = argv[++i];
    else if (!strcmp(argv[i], "--python") && i + 1 < argc) python = argv[++i];
    else if (!strcmp(argv[i], "--scapy-check") && i + 1 < argc) scapy_script = argv[++i];
    else {
      fprintf(stderr,
              "usage: %s [--seed N] [--out DIR] [--tshark PATH] [--python PATH] [--scapy-check PATH]\n",
              argv[0]);
      return 2;
    }
  }
  printf("nic_test: seed %llu, pcaps in %s\n", (unsigned long long)seed, dir);
  mkdir(dir, 0777);
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;

  test_crc();
  build_catalogue();
  test_build_parse();
  test_parser_rejects();
  test_tshark(dir);
  test_scapy(dir);
  test_pcap(dir);
  test_link(dir, seed);
  test_transport(dir, seed);
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
