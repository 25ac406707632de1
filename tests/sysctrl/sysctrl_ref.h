/* Reference of tessera_sysctrl, written from rtl/sysctrl/data/sysctrl.rdl and
 * config/tessera.toml (through the generated tessera_cfg.h): the read-only
 * identification and configuration words, the software registers with their
 * field widths, and which offsets answer pslverr. */
#ifndef TESSERA_SYSCTRL_REF_H
#define TESSERA_SYSCTRL_REF_H
#include <stddef.h>
#include <stdint.h>

#include "regs/sysctrl_regs.h"
#include "tessera_cfg.h"

#define SYSCTRL_REF_NREGS 14

typedef struct {
  uint32_t off;
  uint32_t value;   /* reset value, or the fixed value of a read-only register */
  uint32_t wmask;   /* bits software can write; 0: read-only (a write is an error) */
} sysctrl_ref_reg_t;

typedef struct {
  sysctrl_ref_reg_t reg[SYSCTRL_REF_NREGS];
} sysctrl_ref_t;

static inline uint32_t sysctrl_ref_log2(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) l++;
  return l;
}

static inline void sysctrl_ref_reset(sysctrl_ref_t *r, unsigned platform) {
  const uint32_t version = (TESSERA_VERSION_MAJOR << SYSCTRL__VERSION__MAJOR_bp) |
                           (TESSERA_VERSION_MINOR << SYSCTRL__VERSION__MINOR_bp) |
                           (TESSERA_VERSION_PATCH << SYSCTRL__VERSION__PATCH_bp);
  const uint32_t config0 = (TESSERA_DCORES << SYSCTRL__CONFIG0__DCORES_bp) |
                           (TESSERA_NUM_MME << SYSCTRL__CONFIG0__NUM_MME_bp) |
                           (TESSERA_NUM_TPC << SYSCTRL__CONFIG0__NUM_TPC_bp) |
                           (TESSERA_HBM_CHANNELS << SYSCTRL__CONFIG0__HBM_CHANNELS_bp) |
                           (TESSERA_DMA_ENGINES << SYSCTRL__CONFIG0__DMA_ENGINES_bp) |
                           (TESSERA_NIC_PORTS << SYSCTRL__CONFIG0__NIC_PORTS_bp) |
                           ((uint32_t)platform << SYSCTRL__CONFIG0__PLATFORM_bp);
  const uint32_t config1 = (TESSERA_MME_ROWS << SYSCTRL__CONFIG1__MME_ROWS_bp) |
                           (TESSERA_MME_COLS << SYSCTRL__CONFIG1__MME_COLS_bp) |
                           (sysctrl_ref_log2(TESSERA_L2_BYTES_PER_DCORE) << SYSCTRL__CONFIG1__L2_LOG2_BYTES_bp) |
                           (TESSERA_L2_WAYS << SYSCTRL__CONFIG1__L2_WAYS_bp);
  const sysctrl_ref_reg_t regs[SYSCTRL_REF_NREGS] = {
      {offsetof(sysctrl_t, ID), SYSCTRL__ID__ID_reset, 0},
      {offsetof(sysctrl_t, VERSION), version, 0},
      {offsetof(sysctrl_t, CONFIG0), config0, 0},
      {offsetof(sysctrl_t, CONFIG1), config1, 0},
      {offsetof(sysctrl_t, CLK_HZ), TESSERA_CLK_HZ, 0},
      {offsetof(sysctrl_t, BOOT_ADDR), SYSCTRL__BOOT_ADDR__ADDR_reset, 0xFFFFFFFFu},
      {offsetof(sysctrl_t, BOOT_CTRL), 0, SYSCTRL__BOOT_CTRL__GO_bm | SYSCTRL__BOOT_CTRL__VERIFY_bm},
      {offsetof(sysctrl_t, BOOT_STATUS), 0, SYSCTRL__BOOT_STATUS__CODE_bm | SYSCTRL__BOOT_STATUS__DETAIL_bm},
      {offsetof(sysctrl_t, FW_STATUS), 0, SYSCTRL__FW_STATUS__STATE_bm | SYSCTRL__FW_STATUS__HEARTBEAT_bm},
      {offsetof(sysctrl_t, SYSBUS_CTRL), SYSCTRL__SYSBUS_CTRL__RDBUF_reset, SYSCTRL__SYSBUS_CTRL__RDBUF_bm},
      {offsetof(sysctrl_t, SCRATCH0), SYSCTRL__SCRATCH_R__VAL_reset, 0xFFFFFFFFu},
      {offsetof(sysctrl_t, SCRATCH1), SYSCTRL__SCRATCH_R__VAL_reset, 0xFFFFFFFFu},
      {offsetof(sysctrl_t, SCRATCH2), SYSCTRL__SCRATCH_R__VAL_reset, 0xFFFFFFFFu},
      {offsetof(sysctrl_t, SCRATCH3), SYSCTRL__SCRATCH_R__VAL_reset, 0xFFFFFFFFu},
  };
  for (unsigned i = 0; i < SYSCTRL_REF_NREGS; i++) r->reg[i] = regs[i];
}

static inline sysctrl_ref_reg_t *sysctrl_ref_find(sysctrl_ref_t *r, uint32_t off) {
  for (unsigned i = 0; i < SYSCTRL_REF_NREGS; i++)
    if (r->reg[i].off == off) return &r->reg[i];
  return NULL;
}

/* 0 and the value, or 1 (pslverr) */
static inline int sysctrl_ref_read(sysctrl_ref_t *r, uint32_t off, uint32_t *v) {
  sysctrl_ref_reg_t *g = sysctrl_ref_find(r, off);
  *v = g ? g->value : 0;
  return g == NULL;
}
/* 0, or 1 (pslverr: a hole or a read-only register; nothing changes) */
static inline int sysctrl_ref_write(sysctrl_ref_t *r, uint32_t off, uint32_t v) {
  sysctrl_ref_reg_t *g = sysctrl_ref_find(r, off);
  if (!g || !g->wmask) return 1;
  g->value = v & g->wmask;
  return 0;
}
static inline int sysctrl_ref_rdbuf(sysctrl_ref_t *r) {
  return (int)(sysctrl_ref_find(r, offsetof(sysctrl_t, SYSBUS_CTRL))->value & SYSCTRL__SYSBUS_CTRL__RDBUF_bm);
}
#endif
