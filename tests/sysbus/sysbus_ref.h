/* Reference of tessera_sysbus, written from docs/memory_map.md and the module
 * header: which slave an access goes to (or the internal error slave), and a
 * word memory with byte enables for the expected read data. Address map from
 * config/tessera.toml through tessera_cfg.h. */
#ifndef TESSERA_SYSBUS_REF_H
#define TESSERA_SYSBUS_REF_H
#include <stdint.h>

#include "tessera_cfg.h"

enum { SB_ROM = 0, SB_ISRAM = 1, SB_DSRAM = 2, SB_CSR = 3, SB_HBM = 4, SB_ERR = 5, SB_SLAVES = 5 };

/* slave of an access: ROM reads within the populated ROM, the populated
 * ISRAM and DSRAM, the CSR space 0x2000_0000..0x3FFF_FFFF, the HBM window;
 * everything else (ROM writes, unpopulated parts, holes) is an error */
static inline int sysbus_ref_decode(uint32_t a, int we) {
  if (a - TESSERA_BOOTROM_BASE < TESSERA_BOOTROM_BYTES && !we) return SB_ROM;
  if (a - TESSERA_ISRAM_BASE < TESSERA_ISRAM_BYTES) return SB_ISRAM;
  if (a - TESSERA_DSRAM_BASE < TESSERA_DSRAM_BYTES) return SB_DSRAM;
  if ((a >> 28) == 0x2 || (a >> 28) == 0x3) return SB_CSR;
  if (a - TESSERA_HBM_BASE < TESSERA_HBM_SIZE) return SB_HBM;
  return SB_ERR;
}

/* the testbench's slaves: ROM words are a hash of the address; the CSR and
 * HBM slaves answer an error for word addresses with bits 7:4 all set */
static inline uint32_t sysbus_ref_rom_word(uint32_t a) {
  uint32_t h = (a & ~3u) * 0x9E3779B1u;
  return h ^ (h >> 15);
}
static inline int sysbus_ref_slave_err(int slave, uint32_t a) {
  return (slave == SB_CSR || slave == SB_HBM) && ((a >> 4) & 0xF) == 0xF;
}
static inline int sysbus_ref_err(uint32_t a, int we) {
  int s = sysbus_ref_decode(a, we);
  return s == SB_ERR || sysbus_ref_slave_err(s, a);
}
static inline uint32_t sysbus_ref_merge(uint32_t old, uint32_t wdata, uint32_t be) {
  uint32_t m = 0;
  for (int i = 0; i < 4; i++)
    if (be & (1u << i)) m |= 0xFFu << (8 * i);
  return (old & ~m) | (wdata & m);
}
#endif
