/* Cycle-level SDR SDRAM model with a timing checker (docs/sdram.md "SDRAM model").
 *
 * One x16 SDR SDRAM (default: 4 banks, 8192 rows, 512 columns = 32 MB, the ULX3S's
 * part) driven by the controller's pin levels once per clock cycle. It stores the data,
 * returns read data CAS latency cycles after the READ, honours DQM (write mask in the
 * WRITE cycle, read output enable two cycles ahead) and checks every command against
 * the rules below; each violation is recorded with its cycle and rule and counted.
 * Supported mode: burst length 1, sequential, CAS latency 2 or 3, no auto precharge
 * (any other mode or command is recorded as rule "unsupported").
 *
 * Word index of the storage (tsdram_mem): {row, bank, column}, the controller's
 * address map, so a byte address of the controller is word (addr >> 1). */
#ifndef TESSERA_SDRAM_H
#define TESSERA_SDRAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsdram tsdram_t;

typedef enum {
  TSD_INIT = 0,     /* command before power-up time, or out of the init order
                       (PRECHARGE ALL, >= init_refs AUTO REFRESH and LOAD MODE before any ACT) */
  TSD_RCD,          /* ACT -> READ/WRITE same bank < tRCD */
  TSD_RP,           /* PRECHARGE -> ACT/REFRESH same bank < tRP */
  TSD_RAS,          /* ACT -> PRECHARGE same bank < tRAS */
  TSD_RAS_MAX,      /* row open longer than tRAS max */
  TSD_RC,           /* ACT -> ACT (or REFRESH) same bank < tRC */
  TSD_WR,           /* last write data -> PRECHARGE same bank < tWR */
  TSD_RRD,          /* ACT -> ACT different banks < tRRD */
  TSD_MRD,          /* LOAD MODE -> any command < tMRD */
  TSD_RFC,          /* REFRESH -> any command but NOP < tRFC */
  TSD_REFI,         /* more than tREFI between two AUTO REFRESH commands */
  TSD_NO_ROW,       /* READ/WRITE to a bank without an open row */
  TSD_ROW_OPEN,     /* ACT to a bank with an open row, REFRESH/LOAD MODE with a bank open */
  TSD_BUS,          /* data bus: controller drives while the SDRAM does (or the cycle right
                       after: no turnaround), or a WRITE without driven data */
  TSD_UNSUPPORTED,  /* mode or command outside the supported set, CKE low */
  TSD_NRULES
} tsdram_rule_t;

typedef struct {
  uint32_t tck_ps;          /* clock period */
  uint32_t row_bits, col_bits, bank_bits;   /* 0: 13, 9, 2 */
  /* timing in ns (0 takes the AS4C16M16SA-7 value) */
  uint32_t trcd, trp, trc, tras, twr, trrd, tmrd, trfc;
  uint32_t tras_max;        /* ns (0: 120 000) */
  uint32_t trefi;           /* ns, maximum interval between two AUTO REFRESH (0: 7 812) */
  uint32_t tpowerup;        /* ns of NOP/INHIBIT before the first command (0: 200 000) */
  uint32_t init_refs;       /* AUTO REFRESH commands the init sequence needs (0: 2) */
  uint32_t seed;            /* initial contents pattern */
} tsdram_cfg_t;

typedef struct {
  int cke, cs_n, ras_n, cas_n, we_n;
  uint32_t ba, a, dqm;
  uint16_t dq;              /* controller's data output */
  int dq_oe;                /* controller drives dq */
} tsdram_pins_t;

typedef struct {
  uint64_t cycles, acts, reads, writes, precharges, refreshes, mode_sets;
  uint64_t violations;                /* all rules */
  uint64_t by_rule[TSD_NRULES];
  uint64_t max_ref_gap;               /* longest interval between two refreshes after init */
  int init_done;
} tsdram_stats_t;

tsdram_t *tsdram_create(const tsdram_cfg_t *cfg);
void tsdram_destroy(tsdram_t *m);
/* One clock cycle with the pins of this cycle (the SDRAM registers them at the next
 * edge). Returns 1 and sets *dq_out when the SDRAM drives DQ for the controller's
 * next capture edge (read data CAS latency cycles after its READ), else 0. */
int tsdram_tick(tsdram_t *m, const tsdram_pins_t *p, uint16_t *dq_out);
/* Back door: the array (words), its size. */
uint16_t *tsdram_mem(tsdram_t *m);
size_t tsdram_words(const tsdram_t *m);
void tsdram_stats(const tsdram_t *m, tsdram_stats_t *st);
const char *tsdram_rule_name(int rule);
/* The first recorded violations ("cycle N rule: detail"), at most max lines to f. */
void tsdram_print_violations(const tsdram_t *m, void *file, unsigned max);
/* Minimum cycles of a timing in ns at the model's clock: ceil(ns / tCK). */
uint32_t tsdram_cycles(const tsdram_t *m, uint32_t ns);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_SDRAM_H */
