/* Reference model of the RC transport for RDMA WRITE with selective or
 * go-back-N retransmission; see roce_transport.h and docs/nic.md.
 *
 * Selective mode sends every MTU packet of a WRITE as a WRITE only with its
 * own RETH (address and length of that packet), so the responder can place any
 * packet that arrives inside its window without the message's first packet;
 * go-back-N mode sends standard first/middle/last packets. */
#include "roce_transport.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t wr, off, len;
  uint64_t last_sent;
  uint8_t sacked, pending;
} rt_slot_t;

typedef struct {
  const rt_cfg_t *cfg;
  const rt_write_t *wr;
  uint32_t nwr;
  rt_stats_t *st;
  tsim_link_t *data, *ack;
  uint32_t mtu, guard;
  /* requester */
  roce_qp_t rq;
  uint32_t una, nxt;               /* oldest unacknowledged PSN, next new PSN */
  rt_slot_t slot[RT_WINDOW];       /* by PSN % RT_WINDOW, for PSNs in [una, nxt) */
  uint32_t wr_next, wr_off;        /* next packet to create */
  uint32_t *wr_last;               /* last PSN of each WRITE, once created */
  uint32_t done;                   /* WRITEs completed, in order */
  uint64_t progress_at;
  uint32_t timeouts_in_row;
  int failed;
  /* responder */
  rt_resp_t resp;
  uint64_t now;
} rt_t;

#define RT_TAG_VALID 0x80000000u
#define RT_TAG_LAST  0x40000000u

static uint32_t psn_add(uint32_t p, uint32_t n) { return (p + n) & ROCE_PSN_MASK; }

/* ---- requester */
static void req_send(rt_t *t, uint64_t now, uint32_t psn) {
  rt_slot_t *s = &t->slot[psn % RT_WINDOW];
  const rt_write_t *w = &t->wr[s->wr];
  roce_pkt_t k;
  memset(&k, 0, sizeof k);
  k.psn = psn;
  k.payload = w->data + s->off;
  k.payload_len = s->len;
  k.rkey = w->rkey;
  int last = s->off + s->len >= w->len;
  k.ackreq = (uint8_t)last;
  if (t->cfg->selective) {
    k.opcode = last && w->imm_en ? ROCE_OP_WRITE_ONLY_IMM : ROCE_OP_WRITE_ONLY;
    k.va = w->va + s->off;
    k.dmalen = s->len;
  } else {
    int first = s->off == 0;
    k.opcode = first && last ? ROCE_OP_WRITE_ONLY : first ? ROCE_OP_WRITE_FIRST
               : last ? ROCE_OP_WRITE_LAST : ROCE_OP_WRITE_MIDDLE;
    if (last && w->imm_en) k.opcode = first ? ROCE_OP_WRITE_ONLY_IMM : ROCE_OP_WRITE_LAST_IMM;
    k.va = w->va;
    k.dmalen = w->len;
  }
  k.imm = w->imm;
  static roce_frame_t f;
  f.len = roce_build(&t->rq, &k, f.data);
  tsim_link_send(t->data, now, f.data, f.len);
  s->last_sent = now;
  t->st->data_frames++;
}

static void req_tick(rt_t *t, uint64_t now) {
  if (t->una != t->nxt && now - t->progress_at > t->cfg->rto) {   /* retransmission timer */
    t->st->timeouts++;
    if (++t->timeouts_in_row > t->cfg->retry_limit) {
      t->failed = 1;
      return;
    }
    for (uint32_t p = t->una; p != t->nxt; p = psn_add(p, 1)) {
      rt_slot_t *s = &t->slot[p % RT_WINDOW];
      if (!s->sacked) s->pending = 1;
    }
    t->progress_at = now;
  }
  if (tsim_link_free_at(t->data) > now) return;
  for (uint32_t p = t->una; p != t->nxt; p = psn_add(p, 1)) {   /* resends first, oldest first */
    rt_slot_t *s = &t->slot[p % RT_WINDOW];
    if (s->pending) {
      s->pending = 0;
      t->st->retransmits++;
      req_send(t, now, p);
      return;
    }
  }
  if (t->wr_next < t->nwr && (uint32_t)roce_psn_diff(t->nxt, t->una) < RT_WINDOW) {
    const rt_write_t *w = &t->wr[t->wr_next];
    rt_slot_t *s = &t->slot[t->nxt % RT_WINDOW];
    memset(s, 0, sizeof *s);
    s->wr = t->wr_next;
    s->off = t->wr_off;
    s->len = w->len - t->wr_off < t->mtu ? w->len - t->wr_off : t->mtu;
    uint32_t psn = t->nxt;
    t->nxt = psn_add(psn, 1);
    if (t->una == psn) t->progress_at = now;   /* the timer starts with the first packet in flight */
    t->wr_off += s->len;
    if (t->wr_off >= w->len) {
      t->wr_last[t->wr_next++] = psn;
      t->wr_off = 0;
    }
    req_send(t, now, psn);
  }
}

/* Everything before PSN upto is acknowledged. */
static void req_advance(rt_t *t, uint64_t now, uint32_t upto) {
  if (roce_psn_diff(upto, t->una) <= 0 || roce_psn_diff(upto, t->nxt) > 0) return;
  t->una = upto;
  t->progress_at = now;
  t->timeouts_in_row = 0;
  while (t->done < t->wr_next && roce_psn_diff(t->una, t->wr_last[t->done]) > 0) {
    t->st->payload_bytes += t->wr[t->done].len;
    t->done++;
  }
}

static void req_rx(rt_t *t, uint64_t now, const roce_pkt_t *k) {
  if (k->opcode != ROCE_OP_ACK || k->dqpn != t->rq.qpn) return;
  uint8_t kind = k->syndrome & ROCE_AETH_KIND_MASK;
  if (kind == ROCE_AETH_ACK) {
    req_advance(t, now, psn_add(k->psn, 1));
  } else if (k->syndrome == ROCE_SYN_NAK(ROCE_NAK_PSN_SEQ_ERR)) {
    req_advance(t, now, k->psn);
    if (roce_psn_diff(k->psn, t->una) != 0) return;   /* stale */
    if (t->cfg->selective) {
      uint32_t trig = k->msn;   /* selective ACK: the PSN that was placed */
      if (roce_psn_diff(trig, t->una) < 0 || roce_psn_diff(trig, t->nxt) >= 0) return;
      t->slot[trig % RT_WINDOW].sacked = 1;
      for (uint32_t p = t->una; p != trig; p = psn_add(p, 1)) {
        rt_slot_t *s = &t->slot[p % RT_WINDOW];
        if (!s->sacked && !s->pending && now - s->last_sent >= t->guard) s->pending = 1;
      }
    } else {
      for (uint32_t p = t->una; p != t->nxt; p = psn_add(p, 1)) t->slot[p % RT_WINDOW].pending = 1;
    }
  } else if (kind == ROCE_AETH_NAK) {
    t->failed = 1;   /* remote access / invalid request / operational error */
  }
}

/* ---- responder */
static void resp_ack(rt_resp_t *r, uint8_t syn, uint32_t psn, uint32_t msn) {
  if (syn == ROCE_SYN_ACK) r->st->acks++;
  else if (syn == ROCE_SYN_SACK && r->selective) r->st->sacks++;
  else r->st->naks++;
  r->ack(r->ctx, syn, psn, msn);
}

/* An immediate whose message has landed completely (every PSN up to its own placed). */
static void resp_msg(rt_resp_t *r, uint32_t imm) {
  r->st->msgs++;
  if (r->msg) r->msg(r->ctx, imm);
}

/* Place a packet's payload (or combine it, in a reduce region); 0 if placed, else the
 * NAK syndrome: remote access (outside the region, R_Key, right) or invalid request (in a
 * reduce region an address or length not a multiple of the element size; an immediate
 * naming a sync object beyond num_sobs); -1: an out-of-order immediate while another
 * waits (dropped, not acknowledged). */
static int resp_place(rt_resp_t *r, uint64_t va, uint32_t rkey, const roce_pkt_t *k, uint32_t msg_len, int ooo) {
  if (r->mr_no_write || rkey != r->mr_rkey || va < r->mr_base || va - r->mr_base + k->payload_len > r->mr_len)
    return (int)ROCE_SYN_NAK(ROCE_NAK_REMOTE_ACCESS);
  if (r->mr_red_op != ROCE_RED_NONE) {
    uint32_t eb = roce_red_elem_bytes(r->mr_red_dtype);
    if (va % eb || k->payload_len % eb || msg_len % eb) return (int)ROCE_SYN_NAK(ROCE_NAK_INVALID_REQ);
  }
  if (roce_op_has_immdt(k->opcode)) {
    if (r->num_sobs && (k->imm >> 16) >= r->num_sobs) return (int)ROCE_SYN_NAK(ROCE_NAK_INVALID_REQ);
    if (ooo && r->imm_wait) return -1;   /* one immediate waits per QP: drop, resent later */
  }
  roce_reduce(r->mr_red_op, r->mr_red_dtype, r->mem + (va - r->mr_base), k->payload, k->payload_len);
  r->st->placed++;
  return 0;
}

void rt_resp_rx(rt_resp_t *r, const roce_pkt_t *k) {
  if (r->error) {
    r->st->bad_frames++;
    return;
  }
  if (k->dqpn != r->qp.qpn || k->opcode < ROCE_OP_WRITE_FIRST || k->opcode > ROCE_OP_WRITE_ONLY_IMM) {
    r->st->bad_frames++;
    return;
  }
  int32_t d = roce_psn_diff(k->psn, r->epsn);
  uint32_t last_acked = psn_add(r->epsn, ROCE_PSN_MASK);   /* ePSN - 1 */
  if (d < 0) {                                             /* already placed: re-acknowledge */
    r->st->duplicates++;
    resp_ack(r, ROCE_SYN_ACK, last_acked, r->qp.msn);
    return;
  }
  if (r->selective) {
    if ((uint32_t)d >= RT_WINDOW) {
      r->st->out_of_window++;
      return;
    }
    uint32_t *tag = &r->tag[k->psn % RT_WINDOW];
    if (d > 0 && (*tag & RT_TAG_VALID) && (*tag & ROCE_PSN_MASK) == k->psn) {
      r->st->duplicates++;
      resp_ack(r, ROCE_SYN_SACK, r->epsn, k->psn);
      return;
    }
    int pl = resp_place(r, k->va, k->rkey, k, 0, d > 0);
    if (pl < 0) {
      r->st->imm_held++;
      return;
    }
    if (pl) {
      resp_ack(r, (uint8_t)pl, k->psn, r->qp.msn);
      r->error = 1;
      return;
    }
    if (d > 0) {
      *tag = k->psn | RT_TAG_VALID | (k->ackreq ? RT_TAG_LAST : 0);
      if (roce_op_has_immdt(k->opcode)) {
        r->imm_wait = 1;
        r->imm_psn = k->psn;
        r->imm_val = k->imm;
      }
      resp_ack(r, ROCE_SYN_SACK, r->epsn, k->psn);
      return;
    }
    if (k->ackreq) r->qp.msn = psn_add(r->qp.msn, 1);
    r->epsn = psn_add(r->epsn, 1);
    for (;;) {   /* ePSN moves over the PSNs placed before */
      uint32_t *nt = &r->tag[r->epsn % RT_WINDOW];
      if (!(*nt & RT_TAG_VALID) || (*nt & ROCE_PSN_MASK) != r->epsn) break;
      if (*nt & RT_TAG_LAST) r->qp.msn = psn_add(r->qp.msn, 1);
      *nt = 0;
      r->epsn = psn_add(r->epsn, 1);
    }
    /* the packet's own immediate, then a waiting one that ePSN has passed now */
    if (roce_op_has_immdt(k->opcode)) resp_msg(r, k->imm);
    if (r->imm_wait && roce_psn_diff(r->epsn, r->imm_psn) > 0) {
      r->imm_wait = 0;
      resp_msg(r, r->imm_val);
    }
    resp_ack(r, ROCE_SYN_ACK, psn_add(r->epsn, ROCE_PSN_MASK), r->qp.msn);
    return;
  }
  /* go-back-N: only ePSN is accepted; one NAK per hole */
  if (d > 0) {
    r->st->dropped_out_of_order++;
    if (!r->nak_sent) resp_ack(r, ROCE_SYN_NAK(ROCE_NAK_PSN_SEQ_ERR), r->epsn, r->qp.msn);
    r->nak_sent = 1;
    return;
  }
  if (roce_op_has_reth(k->opcode)) r->va_next = k->va;
  if (roce_op_has_reth(k->opcode)) r->rkey_cur = k->rkey;
  /* the first packet checks the whole message (RETH length) */
  int msg_ok = !roce_op_has_reth(k->opcode) ||
               (k->va >= r->mr_base && k->va - r->mr_base + k->dmalen <= r->mr_len);
  /* in a reduce region the first packet also checks the alignment of the message's length */
  int pl = msg_ok ? resp_place(r, r->va_next, r->rkey_cur, k, roce_op_has_reth(k->opcode) ? k->dmalen : 0, 0)
                  : (int)ROCE_SYN_NAK(ROCE_NAK_REMOTE_ACCESS);
  if (pl) {
    resp_ack(r, (uint8_t)pl, k->psn, r->qp.msn);
    r->error = 1;
    return;
  }
  r->va_next += k->payload_len;
  if (k->ackreq) r->qp.msn = psn_add(r->qp.msn, 1);
  r->epsn = psn_add(r->epsn, 1);
  r->nak_sent = 0;
  if (roce_op_has_immdt(k->opcode)) resp_msg(r, k->imm);
  resp_ack(r, ROCE_SYN_ACK, k->psn, r->qp.msn);
}

/* rt_run's responder sends its acknowledgements as frames on the ACK link */
static void run_ack(void *ctx, uint8_t syn, uint32_t psn, uint32_t msn) {
  rt_t *t = ctx;
  static roce_frame_t f;
  roce_build_ack(&t->resp.qp, psn, syn, msn, &f);
  tsim_link_send(t->ack, t->now, f.data, f.len);
}

int rt_run(const rt_cfg_t *cfg, const rt_write_t *wr, uint32_t nwr, rt_stats_t *st) {
  rt_t *t = calloc(1, sizeof *t);
  if (!t) return -1;
  memset(st, 0, sizeof *st);
  t->cfg = cfg;
  t->wr = wr;
  t->nwr = nwr;
  t->st = st;
  t->wr_last = calloc(nwr ? nwr : 1, sizeof *t->wr_last);
  t->data = tsim_link_new(&cfg->data_link);
  t->ack = tsim_link_new(&cfg->ack_link);
  if (cfg->pcap_data) tsim_link_set_pcap(t->data, cfg->pcap_data, 1);
  if (cfg->pcap_ack) tsim_link_set_pcap(t->ack, cfg->pcap_ack, 1);
  t->mtu = ROCE_MTU_BYTES(cfg->mtu);
  /* a hole is resent again only after a round trip */
  t->guard = cfg->data_link.latency + cfg->ack_link.latency +
             2 * (t->mtu + 128) / (cfg->data_link.bytes_per_cycle ? cfg->data_link.bytes_per_cycle : 1);
  static const uint8_t mac_a[6] = {0x02, 0x54, 0x53, 0x00, 0x00, 0x01};
  static const uint8_t mac_b[6] = {0x02, 0x54, 0x53, 0x00, 0x01, 0x01};
  roce_qp_t *a = &t->rq, *b = &t->resp.qp;
  memcpy(a->mac, mac_a, 6);
  memcpy(a->rmac, mac_b, 6);
  memcpy(b->mac, mac_b, 6);
  memcpy(b->rmac, mac_a, 6);
  a->ip = b->rip = 0x0A000001u;
  b->ip = a->rip = 0x0A000101u;
  a->qpn = b->dest_qpn = 0x000101u;
  b->qpn = a->dest_qpn = 0x000202u;
  a->pkey = b->pkey = ROCE_PKEY_DEFAULT;
  a->mtu = b->mtu = cfg->mtu;
  a->ttl = b->ttl = ROCE_IP_TTL_DEFAULT;
  a->tos = b->tos = ROCE_IP_ECN_ECT0;
  t->una = t->nxt = t->resp.epsn = cfg->first_psn & ROCE_PSN_MASK;
  t->resp.selective = cfg->selective;
  t->resp.mr_base = cfg->mr_base;
  t->resp.mr_len = cfg->mr_len;
  t->resp.mr_rkey = cfg->mr_rkey;
  t->resp.mem = cfg->mem;
  t->resp.st = st;
  t->resp.ack = run_ack;
  t->resp.ctx = t;

  static uint8_t buf[ROCE_FRAME_MAX];
  uint64_t now = 0;
  for (; t->done < nwr && !t->failed && now < cfg->max_cycles; now++) {
    uint32_t len;
    roce_pkt_t k;
    t->now = now;
    while (tsim_link_recv(t->data, now, buf, sizeof buf, &len, NULL)) {
      if (roce_parse(buf, len, &k) != ROCE_OK) st->bad_frames++;
      else rt_resp_rx(&t->resp, &k);
    }
    while (tsim_link_recv(t->ack, now, buf, sizeof buf, &len, NULL)) {
      if (roce_parse(buf, len, &k) != ROCE_OK) st->bad_frames++;
      else req_rx(t, now, &k);
    }
    req_tick(t, now);
  }
  st->cycles = now;
  st->completed = t->done;
  st->failed = (uint32_t)t->failed;
  int rc = t->done == nwr ? 0 : -1;
  tsim_link_free(t->data);
  tsim_link_free(t->ack);
  free(t->wr_last);
  free(t);
  return rc;
}
