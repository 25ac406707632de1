/* Cycle-level reference of tessera_intc, written from rtl/intc/data/intc.rdl
 * and docs/interrupts.md: sources are levels (hardware 0..23, SWIRQ bits as
 * 24..31); PENDING shows them as they are; an output is the OR of the pending
 * sources its enable mask selects; CORE_CLAIM names the lowest-numbered pending
 * and core-enabled source (bit 31 set when there is none). SWIRQ is
 * write-1-to-set; a write to SWIRQ_CLR clears its 1 bits one clock later. */
#ifndef TESSERA_INTC_REF_H
#define TESSERA_INTC_REF_H
#include <stddef.h>
#include <stdint.h>

#include "regs/intc_regs.h"

enum {
  INTC_REF_PENDING = offsetof(intc_t, PENDING),
  INTC_REF_CORE_EN = offsetof(intc_t, CORE_EN),
  INTC_REF_HOST_EN = offsetof(intc_t, HOST_EN),
  INTC_REF_SWIRQ = offsetof(intc_t, SWIRQ),
  INTC_REF_SWIRQ_CLR = offsetof(intc_t, SWIRQ_CLR),
  INTC_REF_CORE_CLAIM = offsetof(intc_t, CORE_CLAIM),
};

typedef struct {
  uint32_t core_en, host_en, swirq, swirq_clr;
  int clr_pending;    /* a SWIRQ_CLR write takes effect at the next edge */
} intc_ref_t;

static inline void intc_ref_reset(intc_ref_t *r) {
  r->core_en = INTC__CORE_EN__EN_reset;
  r->host_en = INTC__HOST_EN__EN_reset;
  r->swirq = INTC__SWIRQ__BITS_reset;
  r->swirq_clr = 0;
  r->clr_pending = 0;
}

static inline uint32_t intc_ref_pending(const intc_ref_t *r, uint32_t src) {
  return (r->swirq << 24) | (src & 0xFFFFFFu);
}

static inline uint32_t intc_ref_claim(const intc_ref_t *r, uint32_t src) {
  uint32_t act = intc_ref_pending(r, src) & r->core_en;
  for (uint32_t i = 0; i < 32; i++)
    if (act & (1u << i)) return i;
  return INTC__CORE_CLAIM__NONE_bm;
}

static inline int intc_ref_core_irq(const intc_ref_t *r, uint32_t src) {
  return (intc_ref_pending(r, src) & r->core_en) != 0;
}
static inline int intc_ref_host_irq(const intc_ref_t *r, uint32_t src) {
  return (intc_ref_pending(r, src) & r->host_en) != 0;
}

/* register read with the sources at their current level: 0 and the value, or 1 (pslverr) */
static inline int intc_ref_read(const intc_ref_t *r, uint32_t src, uint32_t off, uint32_t *v) {
  *v = 0;
  switch (off) {
    case INTC_REF_PENDING: *v = intc_ref_pending(r, src); return 0;
    case INTC_REF_CORE_EN: *v = r->core_en; return 0;
    case INTC_REF_HOST_EN: *v = r->host_en; return 0;
    case INTC_REF_SWIRQ: *v = r->swirq; return 0;
    case INTC_REF_CORE_CLAIM: *v = intc_ref_claim(r, src); return 0;
    default: return 1;   /* SWIRQ_CLR is write-only; holes */
  }
}
static inline int intc_ref_write_err(uint32_t off) {
  return !(off == INTC_REF_CORE_EN || off == INTC_REF_HOST_EN || off == INTC_REF_SWIRQ ||
           off == INTC_REF_SWIRQ_CLR);
}

/* one rising clock edge; wr: a register write completes at this edge */
static inline void intc_ref_edge(intc_ref_t *r, int wr, uint32_t off, uint32_t v) {
  int clr = r->clr_pending;
  r->clr_pending = 0;
  if (wr && off == INTC_REF_SWIRQ) r->swirq |= v & INTC__SWIRQ__BITS_bm;
  else if (clr) r->swirq &= ~r->swirq_clr;
  if (!wr) return;
  switch (off) {
    case INTC_REF_CORE_EN: r->core_en = v; break;
    case INTC_REF_HOST_EN: r->host_en = v; break;
    case INTC_REF_SWIRQ_CLR: r->swirq_clr = v & INTC__SWIRQ_CLR__BITS_bm; r->clr_pending = 1; break;
    default: break;
  }
}
#endif
