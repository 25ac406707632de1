/* Tessera control-path golden model. See cp_model.h, docs/packets.md and
 * docs/control_path.md. */
#include "cp_model.h"

#include <stddef.h>
#include <string.h>

#include "regs/syncmgr_regs.h"

/* ------------------------------------------------------------ queue model */
void cp_q_reset(cp_queue_t *q) { memset(q, 0, sizeof(*q)); }

void cp_q_start(cp_queue_t *q, const cp_qcfg_t *c) {
  uint64_t end = (uint64_t)c->cb_base + c->cb_size;
  uint64_t mend = (uint64_t)c->mem_base + c->mem_size;
  q->pc = c->cb_base;
  q->err = CP_ERR_NONE;
  q->opcode = 0;
  q->nreg = 0;
  q->pkts = 0;
  q->waits = 0;
  if ((c->cb_base & 7u) || (c->cb_size & 7u) || c->cb_size == 0 || c->cb_base < c->mem_base ||
      end > mend) {
    q->state = CP_Q_ERROR;
    q->err = CP_ERR_CB_RANGE;
    return;
  }
  q->state = CP_Q_RUN;
}

void cp_q_fence_add(cp_queue_t *q, uint32_t id, uint32_t val) {
  if (id < CP_FENCES) q->fence[id] = (q->fence[id] + val) & 0xFFFFu;
}

void cp_q_fence_timeout(cp_queue_t *q) {
  if (q->state == CP_Q_BLOCKED) {
    q->state = CP_Q_ERROR;
    q->err = CP_ERR_FENCE_TIMEOUT;
  }
}

static int reg_ok(const cp_qcfg_t *c, uint32_t off, uint32_t n) {
  return (off & 3u) == 0 && (uint64_t)off + 4ull * n <= c->win_limit;
}

static int stop(cp_queue_t *q, uint32_t err) {
  q->state = CP_Q_ERROR;
  q->err = err;
  return q->state;
}

int cp_q_run(cp_queue_t *q, const cp_qcfg_t *c, cp_read32_fn rd, void *rd_ctx, cp_event_fn ev,
             void *ev_ctx, long apb_err_at) {
  uint32_t end = c->cb_base + c->cb_size;
  if (q->state == CP_Q_BLOCKED) q->state = CP_Q_RUN;
  while (q->state == CP_Q_RUN) {
    uint32_t pc = q->pc, w0, w1, w2 = 0, w3 = 0;
    if (pc == end) return stop(q, CP_ERR_NO_STOP);
    if (rd(rd_ctx, pc, &w0) || rd(rd_ctx, pc + 4, &w1)) return stop(q, CP_ERR_AXI);
    uint32_t op = w0 & 0xFFu, arg = w0 >> 16;
    q->opcode = op;
    if (w0 & CP_HDR_RSVD_MASK) return stop(q, CP_ERR_RESERVED);
    uint32_t len = cp_pkt_bytes(w0, w1);
    if (len == 0) return stop(q, CP_ERR_OPCODE);
    if (op == CP_OP_WREG_BULK && ((w1 & 0xFFFFu) == 0 || (w1 & 0xFFFFu) > CP_BULK_MAX || (w1 >> 16)))
      return stop(q, CP_ERR_BULK_COUNT);
    if ((uint64_t)pc + len > end) return stop(q, CP_ERR_TRUNCATED);
    switch (op) {
      case CP_OP_WREG32:
        if (!reg_ok(c, arg, 1)) return stop(q, CP_ERR_REG_RANGE);
        break;
      case CP_OP_WREG_BULK:
        if (!reg_ok(c, arg, w1)) return stop(q, CP_ERR_REG_RANGE);
        break;
      case CP_OP_FENCE:
        if (arg >= CP_FENCES) return stop(q, CP_ERR_BAD_FENCE);
        break;
      case CP_OP_MSG_SHORT:
        if (arg >= c->num_sobs) return stop(q, CP_ERR_BAD_SOB);
        break;
      case CP_OP_LIN_DMA:
        if (!c->dma) return stop(q, CP_ERR_NOT_DMA);
        if (!reg_ok(c, c->ldma_off, 4)) return stop(q, CP_ERR_REG_RANGE);
        break;
      default:
        break;
    }
    if (len == 16) {
      if (rd(rd_ctx, pc + 8, &w2) || rd(rd_ctx, pc + 12, &w3)) return stop(q, CP_ERR_AXI);
      if (op == CP_OP_MSG_LONG && (w2 & 3u)) return stop(q, CP_ERR_MSG_ALIGN);
      if (op == CP_OP_MSG_LONG && w3 != 0u) return stop(q, CP_ERR_RESERVED);   /* w3 reserved */
    }
    cp_event_t e;
    e.pc = pc;
    e.flags = w0 & (CP_HDR_EB | CP_HDR_MB);
    switch (op) {
      case CP_OP_NOP:
        break;
      case CP_OP_WREG32:
        e.kind = CP_EV_REG; e.a = arg; e.b = w1;
        ev(ev_ctx, &e);
        if (q->nreg++ == apb_err_at) return stop(q, CP_ERR_APB);
        break;
      case CP_OP_WREG_BULK:
        for (uint32_t i = 0; i < w1; i++) {
          uint32_t v;
          if (rd(rd_ctx, pc + 8 + 4 * i, &v)) return stop(q, CP_ERR_AXI);
          e.kind = CP_EV_REG; e.a = arg + 4 * i; e.b = v;
          ev(ev_ctx, &e);
          if (q->nreg++ == apb_err_at) return stop(q, CP_ERR_APB);
        }
        break;
      case CP_OP_MSG_LONG:
        e.kind = CP_EV_MSG; e.a = w2; e.b = w1;
        ev(ev_ctx, &e);
        break;
      case CP_OP_MSG_SHORT:
        e.kind = CP_EV_MSG;
        e.a = ((w1 & CP_MSG_SHORT_ADD) ? c->sob_add_base : c->sob_set_base) + 4u * arg;
        e.b = w1 & CP_SOB_MASK;
        ev(ev_ctx, &e);
        break;
      case CP_OP_FENCE: {
        uint32_t t = w1 & 0xFFFFu;
        if (q->fence[arg] < t) {
          q->state = CP_Q_BLOCKED;
          return q->state;
        }
        q->fence[arg] -= t;
        break;
      }
      case CP_OP_LIN_DMA: {
        uint32_t v[4] = {w2, w3, w1, 1u};
        for (uint32_t i = 0; i < 4; i++) {
          e.kind = CP_EV_REG; e.a = c->ldma_off + 4 * i; e.b = v[i];
          ev(ev_ctx, &e);
          if (q->nreg++ == apb_err_at) return stop(q, CP_ERR_APB);
        }
        break;
      }
      case CP_OP_WAIT:
        q->waits += w1;
        break;
      case CP_OP_STOP:
        if (c->comp_en) {
          e.kind = CP_EV_MSG; e.a = c->comp_addr; e.b = c->comp_data;
          ev(ev_ctx, &e);
        }
        q->pkts++;
        q->state = CP_Q_DONE;
        return q->state;
      default:
        break;
    }
    q->pkts++;
    q->pc = pc + len;
  }
  return q->state;
}

/* ------------------------------------------------------------ Sync Manager */
void cp_sm_init(cp_sm_t *s, uint32_t nsobs, uint32_t nmons) {
  memset(s, 0, sizeof(*s));
  s->nsobs = nsobs > CP_SM_MAX_SOBS ? CP_SM_MAX_SOBS : nsobs;
  s->nmons = nmons > CP_SM_MAX_MONS ? CP_SM_MAX_MONS : nmons;
  s->irq_en = 1;
}

int cp_sm_cond(const cp_sm_t *s, uint32_t m) {
  uint32_t w = s->mon[m].arm, g = CP_ARM_GROUP(w), mask = CP_ARM_MASK(w), t = CP_ARM_TARGET(w);
  if (mask == 0) return 0;
  for (uint32_t j = 0; j < 8; j++) {
    if (!(mask >> j & 1u)) continue;
    uint32_t v = s->sob[g * 8 + j];
    if (CP_ARM_EQ(w) ? (v != t) : (v < t)) return 0;
  }
  return 1;
}

static void sm_error(cp_sm_t *s, uint32_t code, uint32_t mon) {
  s->cnt_errors++;
  if (s->err == 0) {
    s->err = code;
    s->err_mon = mon & 0xFFu;
  }
}

static void sm_fire(cp_sm_t *s, uint32_t m, cp_msg_fn msg, void *ctx) {
  cp_mon_t *mo = &s->mon[m];
  mo->armed = 0;
  s->cnt_fires++;
  for (uint32_t p = 0; p < CP_ARM_NPAY(mo->arm); p++) {
    s->cnt_payloads++;
    if (msg) msg(ctx, mo->pay[2 * p], mo->pay[2 * p + 1], m);
  }
}

/* evaluate every armed monitor watching group g, lowest index first */
static void sm_eval_group(cp_sm_t *s, uint32_t g, cp_msg_fn msg, void *ctx) {
  for (uint32_t m = 0; m < s->nmons; m++)
    if (s->mon[m].armed && CP_ARM_GROUP(s->mon[m].arm) == g && cp_sm_cond(s, m))
      sm_fire(s, m, msg, ctx);
}

#define SM_OFF(f) ((uint32_t)offsetof(syncmgr_t, f))

int cp_sm_write(cp_sm_t *s, uint32_t off, uint32_t val, cp_msg_fn msg, void *ctx) {
  if (off >= SM_OFF(SOB_SET) && off < SM_OFF(SOB_SET) + sizeof(syncmgr__SOB_SET_t)) {
    uint32_t i = (off - SM_OFF(SOB_SET)) / 4;
    if (i < s->nsobs) {
      s->sob[i] = (uint16_t)(val & CP_SOB_MASK);
      s->cnt_updates++;
      sm_eval_group(s, i / 8, msg, ctx);
    }
    return 0;
  }
  if (off >= SM_OFF(SOB_ADD) && off < SM_OFF(SOB_ADD) + sizeof(syncmgr__SOB_ADD_t)) {
    uint32_t i = (off - SM_OFF(SOB_ADD)) / 4;
    if (i < s->nsobs) {
      s->sob[i] = (uint16_t)((s->sob[i] + val) & CP_SOB_MASK);
      s->cnt_updates++;
      sm_eval_group(s, i / 8, msg, ctx);
    }
    return 0;
  }
  if (off >= SM_OFF(MON) && off < SM_OFF(MON) + sizeof(syncmgr__MON_t)) {
    uint32_t e = (off - SM_OFF(MON)) / 4, m = e / CP_MON_SLOT_WORDS, w = e % CP_MON_SLOT_WORDS;
    if (m >= s->nmons || w > CP_MON_ARM_WORD) return 0;
    cp_mon_t *mo = &s->mon[m];
    if (w == CP_MON_ARM_WORD && CP_ARM_MASK(val) == 0) { /* disarm, always allowed */
      mo->armed = 0; /* the stored ARM word is kept */
      return 0;
    }
    if (mo->armed) {
      sm_error(s, CP_SM_ERR_MON_BUSY, m);
      return 0;
    }
    if (w < CP_MON_ARM_WORD) {
      mo->pay[w] = val;
      return 0;
    }
    if (CP_ARM_GROUP(val) >= s->nsobs / 8) {
      sm_error(s, CP_SM_ERR_BAD_GROUP, m);
      return 0;
    }
    mo->arm = val;
    mo->armed = 1;
    if (cp_sm_cond(s, m)) sm_fire(s, m, msg, ctx);
    return 0;
  }
  if (off == SM_OFF(CTRL)) {
    if (val & SYNCMGR__CTRL__ERR_CLR_bm) { s->err = 0; s->err_mon = 0; }
    if (val & SYNCMGR__CTRL__DISARM_ALL_bm)
      for (uint32_t m = 0; m < s->nmons; m++) s->mon[m].armed = 0;
    return 0;
  }
  if (off == SM_OFF(IRQ_EN)) {
    s->irq_en = val & 1u;
    return 0;
  }
  /* read-only registers: writes ignored (generated block answers pslverr) */
  return -1;
}

int cp_sm_read(const cp_sm_t *s, uint32_t off, uint32_t *val) {
  *val = 0;
  if (off >= SM_OFF(SOB_SET) && off < SM_OFF(SOB_SET) + sizeof(syncmgr__SOB_SET_t)) {
    uint32_t i = (off - SM_OFF(SOB_SET)) / 4;
    *val = i < s->nsobs ? s->sob[i] : 0;
    return 0;
  }
  if (off >= SM_OFF(SOB_ADD) && off < SM_OFF(SOB_ADD) + sizeof(syncmgr__SOB_ADD_t)) {
    uint32_t i = (off - SM_OFF(SOB_ADD)) / 4;
    *val = i < s->nsobs ? s->sob[i] : 0;
    return 0;
  }
  if (off >= SM_OFF(MON) && off < SM_OFF(MON) + sizeof(syncmgr__MON_t)) {
    uint32_t e = (off - SM_OFF(MON)) / 4, m = e / CP_MON_SLOT_WORDS, w = e % CP_MON_SLOT_WORDS;
    if (m >= s->nmons || w > CP_MON_ARM_WORD) return 0;
    *val = w == CP_MON_ARM_WORD ? s->mon[m].arm : s->mon[m].pay[w];
    return 0;
  }
  uint32_t lo = 0, hi = 0;
  for (uint32_t m = 0; m < s->nmons && m < 64; m++)
    if (s->mon[m].armed) { if (m < 32) lo |= 1u << m; else hi |= 1u << (m - 32); }
  if (off == SM_OFF(INFO)) *val = s->nsobs | (s->nmons << 16);
  else if (off == SM_OFF(STATUS)) *val = s->err | (s->err_mon << 8);
  else if (off == SM_OFF(IRQ_EN)) *val = s->irq_en;
  else if (off == SM_OFF(CNT_UPDATES)) *val = s->cnt_updates;
  else if (off == SM_OFF(CNT_FIRES)) *val = s->cnt_fires;
  else if (off == SM_OFF(CNT_PAYLOADS)) *val = s->cnt_payloads;
  else if (off == SM_OFF(CNT_ERRORS)) *val = s->cnt_errors;
  else if (off == SM_OFF(ARMED_LO)) *val = lo;
  else if (off == SM_OFF(ARMED_HI)) *val = hi;
  else if (off == SM_OFF(SENDING_LO) || off == SM_OFF(SENDING_HI)) *val = 0;
  else return -1;
  return 0;
}
