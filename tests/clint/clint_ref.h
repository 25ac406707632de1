/* Cycle-level reference of tessera_clint, written from rtl/clint/data/clint.rdl
 * and docs/interrupts.md: mtime counts every clock cycle; a software write to
 * one half of mtime replaces that half at the clock edge that ends the APB
 * access while the other half takes its counted value (mtime + 1); the timer
 * interrupt is registered: after an edge it shows (mtime >= mtimecmp) as it was
 * before that edge; MSIP bit 0 drives the software interrupt. */
#ifndef TESSERA_CLINT_REF_H
#define TESSERA_CLINT_REF_H
#include <stddef.h>
#include <stdint.h>

#include "regs/clint_regs.h"

enum {
  CLINT_REF_MSIP = offsetof(clint_t, MSIP),
  CLINT_REF_CMP_LO = offsetof(clint_t, MTIMECMP_LO),
  CLINT_REF_CMP_HI = offsetof(clint_t, MTIMECMP_HI),
  CLINT_REF_TIME_LO = offsetof(clint_t, MTIME_LO),
  CLINT_REF_TIME_HI = offsetof(clint_t, MTIME_HI),
};

typedef struct {
  uint64_t mtime, mtimecmp;
  uint32_t msip;
  int timer_irq;
} clint_ref_t;

static inline void clint_ref_reset(clint_ref_t *r) {
  r->mtime = ((uint64_t)CLINT__MTIME_HI__VAL_reset << 32) | CLINT__MTIME_LO__VAL_reset;
  r->mtimecmp = ((uint64_t)CLINT__MTIMECMP_HI__VAL_reset << 32) | CLINT__MTIMECMP_LO__VAL_reset;
  r->msip = CLINT__MSIP__MSIP_reset;
  r->timer_irq = 0;
}

/* register read: returns 0 and the value, or 1 (pslverr) for an unmapped offset */
static inline int clint_ref_read(const clint_ref_t *r, uint32_t off, uint32_t *v) {
  switch (off) {
    case CLINT_REF_MSIP: *v = r->msip; return 0;
    case CLINT_REF_CMP_LO: *v = (uint32_t)r->mtimecmp; return 0;
    case CLINT_REF_CMP_HI: *v = (uint32_t)(r->mtimecmp >> 32); return 0;
    case CLINT_REF_TIME_LO: *v = (uint32_t)r->mtime; return 0;
    case CLINT_REF_TIME_HI: *v = (uint32_t)(r->mtime >> 32); return 0;
    default: *v = 0; return 1;
  }
}

/* one rising clock edge; wr: a register write completes at this edge */
static inline void clint_ref_edge(clint_ref_t *r, int wr, uint32_t off, uint32_t v) {
  uint64_t next = r->mtime + 1;
  r->timer_irq = r->mtime >= r->mtimecmp;
  if (wr) {
    switch (off) {
      case CLINT_REF_MSIP: r->msip = v & CLINT__MSIP__MSIP_bm; break;
      case CLINT_REF_CMP_LO: r->mtimecmp = (r->mtimecmp & ~0xFFFFFFFFull) | v; break;
      case CLINT_REF_CMP_HI: r->mtimecmp = (r->mtimecmp & 0xFFFFFFFFull) | ((uint64_t)v << 32); break;
      case CLINT_REF_TIME_LO: next = (next & ~0xFFFFFFFFull) | v; break;
      case CLINT_REF_TIME_HI: next = (next & 0xFFFFFFFFull) | ((uint64_t)v << 32); break;
      default: break;
    }
  }
  r->mtime = next;
}

static inline int clint_ref_timer_irq(const clint_ref_t *r) { return r->timer_irq; }
static inline int clint_ref_soft_irq(const clint_ref_t *r) { return (int)(r->msip & 1); }
#endif
