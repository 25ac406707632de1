/* hostlink collectives from command buffers (hl_coll.h, docs/collectives.md
 * "Command-buffer collectives").
 *
 * Every WRITE of a collective is a WRITE with immediate: it adds 1 to the successor's
 * sync object sob_recv once its bytes have landed, and its completion message adds 1 to
 * the sender's sob_sent. A chip's queue posts its WRITEs in order; one that sends data
 * received from the predecessor first re-arms monitor mon_recv (sob_recv >= the number
 * of WRITEs it needs, a MSG_LONG to the monitor's ARM word) and waits at FENCE 0, which
 * that monitor's payload releases. From the 17th WRITE on, the queue pops one completion
 * before each doorbell, after mon_sent has seen that completion arrive (FENCE 1), so the
 * 16-entry completion queue never fills. At the end the queue waits for every WRITE it
 * receives and every completion of its own, then adds 1 to sob_done, whose monitor
 * (armed by the host) sends done_data to done_addr. */
#include <stddef.h>
#include <stdlib.h>

#include "hl_coll.h"
#include "hl_core.h"
#include "regs/nic_regs.h"
#include "regs/qman_regs.h"
#include "regs/syncmgr_regs.h"
#include "tessera_cfg.h"

#define SM_ADDR(r) (TESSERA_SYNCMGR_BASE + (uint32_t)offsetof(syncmgr_t, r))
#define NIC_REG(p, r) (TESSERA_NIC_ADDR(p) + (uint32_t)offsetof(nic_t, r))
#define NIC_OFF(r) ((uint32_t)offsetof(nic_t, r))
#define QM_REG(p, r) (TESSERA_QMAN_ADDR(TESSERA_QMAN_SLOT_NIC + (p)) + (uint32_t)offsetof(qman_t, r))

static uint32_t sob_set(unsigned i) { return SM_ADDR(SOB_SET) + 4u * i; }
static uint32_t sob_add(unsigned i) { return SM_ADDR(SOB_ADD) + 4u * i; }
/* Monitor m: payload 0 address / data, ARM word (docs/control_path.md "Monitors"). */
static uint32_t mon_pay(unsigned m, unsigned w) { return SM_ADDR(MON) + 64u * m + 4u * w; }
static uint32_t mon_arm(unsigned m) { return SM_ADDR(MON) + 64u * m + 0x20u; }
/* ARM word: object `sob` >= target, one payload. */
static uint32_t arm_ge(unsigned sob, uint32_t target) {
  return (target & 0x7FFFu) | ((1u << (sob % 8u)) << 16) | ((sob / 8u) << 26);
}

int hl_coll_check(const hl_coll_t *c) {
  if (!c || c->n < 2 || c->n > HL_COLL_MAX_CHIPS || c->k < 1 || c->k > HL_COLL_MAX_K) return HL_EARG;
  if (c->kind > HL_COLL_BROADCAST || (c->esz != 2 && c->esz != 4)) return HL_EARG;
  if (!c->bytes || c->bytes % c->esz || c->buf % HL_COLL_ALIGN || c->root >= c->n) return HL_EARG;
  const unsigned ports = TESSERA_NIC_PORTS;  /* 0 in a shape without NIC: nothing fits */
  if (c->tx_port >= ports || c->rx_port >= ports) return HL_EARG;
  const unsigned s[3] = {c->sob_recv, c->sob_sent, c->sob_done}, m[3] = {c->mon_recv, c->mon_sent, c->mon_done};
  for (int i = 0; i < 3; ++i) {
    if (s[i] >= TESSERA_SYNC_OBJECTS || m[i] >= TESSERA_SYNC_MONITORS) return HL_EARG;
    for (int j = 0; j < i; ++j)
      if (s[i] == s[j] || m[i] == m[j]) return HL_EARG;
  }
  return HL_OK;
}

/* Bytes [*off, *off + *len) of the piece j (of k) of the span [lo, lo + len): pieces of
 * len / k rounded up to 32 bytes, the last takes the rest; 0 when piece j is empty. */
static uint32_t piece_of(uint32_t lo, uint32_t len, unsigned k, unsigned j, uint32_t *off) {
  const uint32_t p = (len / k + (len % k != 0) + HL_COLL_ALIGN - 1) / HL_COLL_ALIGN * HL_COLL_ALIGN;
  const uint64_t a = (uint64_t)p * j;
  *off = lo + (uint32_t)(a < len ? a : len);
  return a >= len ? 0 : (len - (uint32_t)a < p ? len - (uint32_t)a : p);
}

/* Ring chunk c: [c q, min((c + 1) q, bytes)). */
static uint32_t chunk_of(const hl_coll_t *c, unsigned ch, uint32_t *off) {
  const uint32_t q = ((c->bytes + c->n - 1) / c->n + HL_COLL_ALIGN - 1) / HL_COLL_ALIGN * HL_COLL_ALIGN;
  const uint64_t lo = (uint64_t)q * ch;
  *off = lo < c->bytes ? (uint32_t)lo : c->bytes;
  return lo >= c->bytes ? 0 : (c->bytes - (uint32_t)lo < q ? c->bytes - (uint32_t)lo : q);
}

/* Ring steps of the collective and, for step g, the chunk chip r sends and whether it is
 * reduced into the successor's copy. Reduce-scatter step s: chunk (r - s) mod n; all-gather
 * step s: chunk (r + 1 - s) mod n; the all-reduce is the one, then the other. */
static unsigned ring_steps(const hl_coll_t *c) { return (c->kind == HL_COLL_ALLREDUCE ? 2u : 1u) * (c->n - 1); }
static unsigned ring_chunk(const hl_coll_t *c, unsigned r, unsigned g, int *reduce) {
  const unsigned n = c->n;
  *reduce = c->kind == HL_COLL_REDUCE_SCATTER || (c->kind == HL_COLL_ALLREDUCE && g < n - 1);
  if (c->kind == HL_COLL_ALLREDUCE && g >= n - 1) g -= n - 1;
  return *reduce ? (r + n - g) % n : (r + 1 + n - g) % n;
}

/* Chip r's WRITEs without their waits (wait = 0), in posting order: (step, piece). */
static int plan(const hl_coll_t *c, unsigned r, hl_coll_send_t *s, unsigned max) {
  unsigned cnt = 0;
#define PUT(o, l, key, g, j)                                                              \
  do {                                                                                    \
    if (s) {                                                                              \
      if (cnt >= max) return -1;                                                          \
      s[cnt] = (hl_coll_send_t){(o), (l), (key), 0, (g), (j)};                            \
    }                                                                                     \
    ++cnt;                                                                                \
  } while (0)
  const unsigned succ = (r + 1) % c->n;
  if (c->kind == HL_COLL_BROADCAST) {
    /* the root sends every piece, the chips after it forward them, the last one keeps them */
    const unsigned d = (r + c->n - c->root) % c->n;
    if (d == c->n - 1) return 0;
    for (unsigned j = 0; j < c->k; ++j) {
      uint32_t o;
      const uint32_t l = piece_of(0, c->bytes, c->k, j, &o);
      if (l) PUT(o, l, c->rkey_plain[succ], d, j);
    }
    return (int)cnt;
  }
  for (unsigned g = 0; g < ring_steps(c); ++g) {
    int red;
    uint32_t lo;
    const uint32_t len = chunk_of(c, ring_chunk(c, r, g, &red), &lo);
    for (unsigned j = 0; j < c->k; ++j) {
      uint32_t o;
      const uint32_t l = piece_of(lo, len, c->k, j, &o);
      if (l) PUT(o, l, red ? c->rkey_red[succ] : c->rkey_plain[succ], g, j);
    }
  }
#undef PUT
  return (int)cnt;
}

int hl_coll_sends(const hl_coll_t *c, unsigned r, hl_coll_send_t *s, unsigned max) {
  if (hl_coll_check(c) != HL_OK || r >= c->n) return -1;
  const int cnt = plan(c, r, s, max);
  if (cnt <= 0 || !s) return cnt;
  /* What a WRITE waits for: the predecessor's WRITE of the same bytes one step earlier
   * (ring: the same chunk and piece at step - 1; broadcast: the same piece, unless this
   * chip is the root). The predecessor's immediates arrive in its posting order, so
   * "received m WRITEs" means its first m have landed. */
  const unsigned pred = (r + c->n - 1) % c->n;
  if (c->kind == HL_COLL_BROADCAST && r == c->root) return cnt;
  const int pn = plan(c, pred, NULL, 0);
  hl_coll_send_t *ps = pn > 0 ? malloc((size_t)pn * sizeof *ps) : NULL;
  if (pn > 0 && (!ps || plan(c, pred, ps, (unsigned)pn) != pn)) {
    free(ps);
    return -1;
  }
  for (int i = 0; i < cnt; ++i) {
    const int first = c->kind == HL_COLL_BROADCAST ? 0 : s[i].step == 0;
    if (first) continue;  /* ring step 0: the chip's own data */
    int m = -1;
    for (int q = 0; q < pn && m < 0; ++q)
      if (ps[q].off == s[i].off && ps[q].len == s[i].len && ps[q].step + 1 == s[i].step)
        m = q;
    if (m < 0) {  /* cannot happen: the same chunk and piece, one step earlier */
      free(ps);
      return -1;
    }
    s[i].wait = (uint32_t)m + 1u;
  }
  free(ps);
  return cnt;
}

int hl_coll_recvs(const hl_coll_t *c, unsigned r) {
  if (hl_coll_check(c) != HL_OK || r >= c->n) return -1;
  return plan(c, (r + c->n - 1) % c->n, NULL, 0);
}

int hl_coll_build(const hl_coll_t *c, unsigned r, hl_cb_t *cb) {
  const int cnt = hl_coll_sends(c, r, NULL, 0), recvs = hl_coll_recvs(c, r);
  if (cnt < 0 || recvs < 0) return HL_EARG;
  hl_coll_send_t *s = cnt ? malloc((size_t)cnt * sizeof *s) : NULL;
  if (cnt && !s) return HL_ENOMEM;
  if (cnt && hl_coll_sends(c, r, s, (unsigned)cnt) != cnt) {
    free(s);
    return HL_EARG;
  }
  /* Every WRITE: with immediate (successor's sob_recv += 1) and a completion message
   * (own sob_sent += 1); the four registers keep their values from one doorbell to the
   * next. */
  const uint32_t fl[4] = {NIC__WR_FLAGS__IMM_bm | NIC__WR_FLAGS__CMSG_bm, (uint32_t)c->sob_recv << 16 | 1u,
                          sob_add(c->sob_sent), 1u};
  int rc = cnt ? hl_cb_wreg_bulk(cb, 0, NIC_OFF(WR_FLAGS), 4, fl) : HL_OK;
  uint32_t armed = 0;  /* sob_recv count the queue has already waited for */
  for (int i = 0; i < cnt && rc == HL_OK; ++i) {
    if (s[i].wait > armed) {
      rc |= hl_cb_msg_long(cb, 0, mon_arm(c->mon_recv), arm_ge(c->sob_recv, s[i].wait));
      rc |= hl_cb_fence(cb, 0, 0, 1);
      armed = s[i].wait;
    }
    if ((unsigned)i >= HL_COLL_CQ_DEPTH) {  /* completion of WRITE i - 16 arrived: pop one */
      rc |= hl_cb_msg_long(cb, 0, mon_arm(c->mon_sent), arm_ge(c->sob_sent, (uint32_t)i - HL_COLL_CQ_DEPTH + 1u));
      rc |= hl_cb_fence(cb, 0, 1, 1);
      rc |= hl_cb_wreg32(cb, 0, NIC_OFF(CQ_POP), NIC__CQ_POP__GO_bm);
    }
    const uint32_t wr[7] = {c->qp, (uint16_t)(c->wr_id + i), c->buf + s[i].off, c->buf + s[i].off, 0,
                            s[i].rkey, s[i].len};
    rc |= hl_cb_wreg_bulk(cb, 0, NIC_OFF(WR_QP), 7, wr);
    rc |= hl_cb_wreg32(cb, HL_EB, NIC_OFF(WR_DOORBELL), NIC__WR_DOORBELL__GO_bm);
  }
  free(s);
  /* The end: every WRITE received, every own WRITE completed, then done. */
  if (rc == HL_OK && (uint32_t)recvs > armed) {
    rc |= hl_cb_msg_long(cb, 0, mon_arm(c->mon_recv), arm_ge(c->sob_recv, (uint32_t)recvs));
    rc |= hl_cb_fence(cb, 0, 0, 1);
  }
  if (rc == HL_OK && cnt) {
    rc |= hl_cb_msg_long(cb, 0, mon_arm(c->mon_sent), arm_ge(c->sob_sent, (uint32_t)cnt));
    rc |= hl_cb_fence(cb, 0, 1, 1);
  }
  if (rc == HL_OK) rc |= hl_cb_msg_short(cb, 0, c->sob_done, 1, 1);
  if (rc == HL_OK) rc |= hl_cb_stop(cb, 0);
  return rc == HL_OK ? HL_OK : cb->err ? cb->err : HL_ENOMEM;
}

int hl_coll_setup(const hl_coll_t *c, unsigned r, uint32_t cb_addr, uint32_t cb_bytes, hl_coll_wr32_t *w,
                  unsigned max, unsigned *count) {
  *count = 0;
  if (hl_coll_check(c) != HL_OK || r >= c->n) return HL_EARG;
  const hl_coll_wr32_t list[] = {
      {NIC_REG(c->rx_port, SOB_ADD_BASE), SM_ADDR(SOB_ADD)},  /* received immediates */
      {mon_arm(c->mon_recv), 0},  /* disarm (mask 0) before the payloads are written */
      {mon_arm(c->mon_sent), 0},
      {mon_arm(c->mon_done), 0},
      {sob_set(c->sob_recv), 0},
      {sob_set(c->sob_sent), 0},
      {sob_set(c->sob_done), 0},
      {mon_pay(c->mon_recv, 0), QM_REG(c->tx_port, FENCE) + 0u},
      {mon_pay(c->mon_recv, 1), 1},
      {mon_pay(c->mon_sent, 0), QM_REG(c->tx_port, FENCE) + 4u},
      {mon_pay(c->mon_sent, 1), 1},
      {mon_pay(c->mon_done, 0), c->done_addr},
      {mon_pay(c->mon_done, 1), c->done_data},
      {mon_arm(c->mon_done), arm_ge(c->sob_done, 1)},
      {QM_REG(c->tx_port, SOB_SET_BASE), SM_ADDR(SOB_SET)},
      {QM_REG(c->tx_port, SOB_ADD_BASE), SM_ADDR(SOB_ADD)},
      {QM_REG(c->tx_port, LDMA_OFF), 0},
      {QM_REG(c->tx_port, CFG), 0},
      {QM_REG(c->tx_port, CB_BASE), cb_addr},
      {QM_REG(c->tx_port, CB_SIZE), cb_bytes},
  };
  const unsigned nl = sizeof list / sizeof list[0];
  if (max < nl) return HL_EARG;
  for (unsigned i = 0; i < nl; ++i) w[i] = list[i];
  *count = nl;
  return HL_OK;
}

void hl_coll_doorbell(const hl_coll_t *c, uint32_t *addr, uint32_t *val) {
  *addr = QM_REG(c->tx_port, CTRL);
  *val = QMAN__CTRL__START_bm;
}
