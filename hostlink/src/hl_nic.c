/* hostlink NIC administration (hl_nic.h, docs/hostlink.md "NIC requests"): each call
 * is one hif_nic_req_t in submission ring 0; the firmware (firmware/nic.c) validates it,
 * programs the port and answers with a completion entry. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hl_nic.h"

static const char *const state_names[] = {"RESET", "INIT", "RTR", "RTS", "ERROR"};

const char *hl_qp_state_name(unsigned state) { return state < 5 ? state_names[state] : "?"; }

int hl_qp_state_id(const char *name) {
  for (int i = 0; i < 5; i++)
    if (name && !strcasecmp(name, state_names[i])) return i;
  return -1;
}

static const char *attr_name(uint32_t bit) {
  switch (bit) {
    case HIF_NIC_ATTR_DEST: return "destination (QPN, MAC, IPv4)";
    case HIF_NIC_ATTR_MTU: return "MTU code (1..5)";
    case HIF_NIC_ATTR_MODE: return "selective / go-back-N";
    case HIF_NIC_ATTR_RQ_PSN: return "receive PSN";
    case HIF_NIC_ATTR_SQ_PSN: return "send PSN";
    case HIF_NIC_ATTR_RETRY: return "retry limit (0..255)";
    case HIF_NIC_ATTR_TIMER: return "timer (rto >= 1, guard 1..65535)";
    case HIF_NIC_ATTR_QPN: return "local QPN (24 bits)";
    default: return "unknown attribute bit";
  }
}

const char *hl_nic_describe(const hl_completion_t *c, char *buf, size_t len) {
  const uint32_t d = c->detail, why = HIF_NIC_DETAIL_WHY(d), port = HIF_NIC_DETAIL_PORT(d), qp = HIF_NIC_DETAIL_QP(d);
  static const char *const qp_why[] = {"", "QP index out of range 0..15", "QP not created", "QP already created",
                                       "local QPN in use on the port", "QP has no requester (cannot send)"};
  static const char *const mr_why[] = {"", "no free region (16 per port)", "region index out of range 0..15",
                                       "region not registered", "R_Key already in use on the port",
                                       "access must be read and/or write"};
  if (c->status == HIF_ST_OK) {
    snprintf(buf, len, "ok");
    return buf;
  }
  const char *name = hl_cause_name(c->cause);
  switch (c->cause) {
    case HIF_CAUSE_NIC_REQUEST: snprintf(buf, len, "%s (word %u)", name, d); break;
    case HIF_CAUSE_NIC_PORT: snprintf(buf, len, "%s: port %u", name, port); break;
    case HIF_CAUSE_NIC_QP:
      snprintf(buf, len, "%s: port %u qp %u: %s", name, port, qp, why < 6 ? qp_why[why] : "?");
      break;
    case HIF_CAUSE_NIC_STATE:
      snprintf(buf, len, "%s: port %u qp %u: %s -> %s", name, port, qp, hl_qp_state_name(why >> 4),
               hl_qp_state_name(why & 0xFu));
      break;
    case HIF_CAUSE_NIC_ATTR:
      snprintf(buf, len, "%s: port %u qp %u: %s missing or out of range", name, port, qp, attr_name(why));
      break;
    case HIF_CAUSE_NIC_MR_RANGE:
      snprintf(buf, len, "%s: port %u: a region must lie in device memory above the firmware's first %u KiB", name,
               port, HIF_NIC_FW_AREA_BYTES / 1024u);
      break;
    case HIF_CAUSE_NIC_MR:
      snprintf(buf, len, "%s: port %u region %u: %s", name, port, qp, why < 6 ? mr_why[why] : "?");
      break;
    case HIF_CAUSE_NIC_BUF:
      snprintf(buf, len, "%s: port %u qp %u: local buffer not 32-byte aligned or not in device memory", name, port,
               qp);
      break;
    case HIF_CAUSE_NIC_NOT_RTS:
      snprintf(buf, len, "%s: port %u qp %u is in %s", name, port, qp, hl_qp_state_name(why));
      break;
    case HIF_CAUSE_NIC_BUSY: case HIF_CAUSE_NIC_RETRY: case HIF_CAUSE_NIC_REMOTE: case HIF_CAUSE_NIC_LOCAL:
    case HIF_CAUSE_NIC_FLUSHED: case HIF_CAUSE_NIC_REFUSED:
      snprintf(buf, len, "%s: port %u qp %u (status %u)", name, port, qp, why);
      break;
    default: snprintf(buf, len, "%s (detail 0x%x)", name, d); break;
  }
  return buf;
}

/* Submit r (its seq and ctrl filled in here) to ring 0. */
static int submit(hl_dev_t *d, hif_nic_req_t *r, unsigned op, uint32_t *seq) {
  if (!hl_hif_addr(d)) return hl_set_error(d, HL_ENOFW, "nic: no firmware attached");
  r->seq = hl_next_seq(d);
  r->ctrl = HIF_NIC_CTRL(op, 1);
  int rc = hl_submit_raw(d, 0, (const hif_job_t *)r, 1);
  if (rc) return rc;
  *seq = r->seq;
  return HL_OK;
}

/* Submit and wait: HL_OK, HL_EREFUSED with the reason in hl_error, or an error. */
static int request(hl_dev_t *d, hif_nic_req_t *r, unsigned op, const char *what, hl_completion_t *out) {
  uint32_t seq;
  int rc = submit(d, r, op, &seq);
  if (rc) return rc;
  hl_completion_t c;
  int w = hl_wait(d, seq, HL_NIC_TIMEOUT, &c);
  if (w < 0) return w;
  if (w == HL_TIMEDOUT || w == HL_BUSY)
    return hl_set_error(d, HL_ETIMEOUT, "%s: no completion within %u cycles", what, HL_NIC_TIMEOUT);
  if (out) *out = c;
  if (w != HL_COMPLETED) {
    char buf[200];
    return hl_set_error(d, HL_EREFUSED, "%s: %s", what, hl_nic_describe(&c, buf, sizeof buf));
  }
  return HL_OK;
}

static void init(hif_nic_req_t *r, unsigned port, unsigned qp) {
  memset(r, 0, sizeof *r);
  r->port = port;
  r->qp = qp;
}

int hl_nic_port_set(hl_dev_t *d, unsigned port, uint64_t mac, uint32_t ip, hl_completion_t *c) {
  hif_nic_req_t r;
  init(&r, port, 0);
  r.rmac_lo = (uint32_t)mac;
  r.rmac_hi = (uint32_t)(mac >> 32);
  r.rip = ip;
  return request(d, &r, HIF_NIC_PORT_SET, "nic port", c);
}

int hl_qp_create(hl_dev_t *d, unsigned port, unsigned qp, uint32_t qpn, uint32_t *qpn_out, hl_completion_t *c) {
  hif_nic_req_t r;
  hl_completion_t tmp;
  init(&r, port, qp);
  r.qpn = qpn;
  int rc = request(d, &r, HIF_NIC_QP_CREATE, "qp create", &tmp);
  if (c) *c = tmp;
  if (rc == HL_OK && qpn_out) *qpn_out = tmp.detail;
  return rc;
}

int hl_qp_modify(hl_dev_t *d, unsigned port, unsigned qp, unsigned state, const hl_qp_attr_t *a,
                 hl_completion_t *c) {
  hif_nic_req_t r;
  init(&r, port, qp);
  r.state = state;
  if (a) {
    r.attr_mask = a->attr_mask;
    r.dqpn = a->dqpn;
    r.rmac_lo = (uint32_t)a->rmac;
    r.rmac_hi = (uint32_t)(a->rmac >> 32);
    r.rip = a->rip;
    r.mtu = a->mtu;
    r.selective = a->selective;
    r.rq_psn = a->rq_psn;
    r.sq_psn = a->sq_psn;
    r.retry = a->retry;
    r.rto = a->rto;
    r.guard = a->guard;
  }
  return request(d, &r, HIF_NIC_QP_MODIFY, "qp modify", c);
}

int hl_qp_destroy(hl_dev_t *d, unsigned port, unsigned qp, hl_completion_t *c) {
  hif_nic_req_t r;
  init(&r, port, qp);
  return request(d, &r, HIF_NIC_QP_DESTROY, "qp destroy", c);
}

int hl_qp_query(hl_dev_t *d, unsigned port, unsigned qp, hif_nic_info_t *info, hl_completion_t *c) {
  hif_nic_req_t r;
  hl_completion_t tmp;
  init(&r, port, qp);
  int rc = request(d, &r, HIF_NIC_QP_QUERY, "qp query", &tmp);
  if (c) *c = tmp;
  if (rc == HL_OK && !tmp.has_info) return hl_set_error(d, HL_EIO, "qp query: the completion carries no record");
  if (rc == HL_OK && info) *info = tmp.info;
  return rc;
}

int hl_mr_reg(hl_dev_t *d, unsigned port, uint32_t base, uint32_t len, uint32_t rkey, unsigned access, unsigned *idx,
              hl_completion_t *c) {
  hif_nic_req_t r;
  hl_completion_t tmp;
  init(&r, port, 0);
  r.addr = base;
  r.len = len;
  r.rkey = rkey;
  r.access = access;
  int rc = request(d, &r, HIF_NIC_MR_REG, "mr reg", &tmp);
  if (c) *c = tmp;
  if (rc == HL_OK && idx) *idx = tmp.detail;
  return rc;
}

int hl_mr_dereg(hl_dev_t *d, unsigned port, unsigned idx, hl_completion_t *c) {
  hif_nic_req_t r;
  init(&r, port, idx);
  return request(d, &r, HIF_NIC_MR_DEREG, "mr dereg", c);
}

int hl_rdma_write(hl_dev_t *d, unsigned port, unsigned qp, uint32_t laddr, uint64_t va, uint32_t rkey, uint32_t len,
                  uint32_t *seq) {
  hif_nic_req_t r;
  uint32_t s;
  init(&r, port, qp);
  r.addr = laddr;
  r.len = len;
  r.va_lo = (uint32_t)va;
  r.va_hi = (uint32_t)(va >> 32);
  r.rkey = rkey;
  int rc = submit(d, &r, HIF_NIC_WRITE, &s);
  if (rc == HL_OK && seq) *seq = s;
  return rc;
}
