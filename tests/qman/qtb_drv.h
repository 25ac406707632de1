/* tessera_qman block-testbench driver (C++ around the Verilated model):
 * APB register port, AXI read memory model, engine APB slave model, message
 * sink. Used by qman_test.c. */
#ifndef TESSERA_QTB_DRV_H
#define TESSERA_QTB_DRV_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef struct {
  uint32_t a, b;        /* engine write: offset, value; message: address, data */
  uint64_t start, end;  /* cycle the access began (setup / valid) and completed */
  int idle;             /* engine_idle_i when it began */
} qtb_ev_t;

void     qtb_reset(void);
void     qtb_step(void);
uint64_t qtb_cycle(void);
int      qtb_apb_write(uint32_t off, uint32_t val);   /* pslverr, -1 on timeout */
int      qtb_apb_read(uint32_t off, uint32_t *val);
void     qtb_fence_inc(unsigned id, uint32_t val);        /* direct fence-increment port, one cycle */
/* device memory (sparse, 32-bit words); beats listed as bad answer SLVERR */
void     qtb_mem_clear(void);
void     qtb_mem_write32(uint32_t addr, uint32_t v);
int      qtb_mem_read32(uint32_t addr, uint32_t *v);  /* non-zero for a bad beat */
void     qtb_mem_set_err(uint32_t addr);             /* the 32-byte beat holding addr */
void     qtb_set_latency(unsigned cycles);
/* randomness of the environment: message ready %, engine APB wait states (max),
 * AR ready %, R gap %; engine busy cycles after each register write (max) */
void     qtb_set_env(unsigned msg_ready_pct, unsigned apb_wait_max, unsigned ar_ready_pct,
                     unsigned r_gap_pct, unsigned busy_max, uint32_t seed);
void     qtb_set_apb_err_at(long k);                 /* k-th engine write since clear answers pslverr */
void     qtb_events_clear(void);
int      qtb_reg_pop(qtb_ev_t *e);
int      qtb_msg_pop(qtb_ev_t *e);
int      qtb_irq(void);
int      qtb_engine_busy(void);
uint64_t qtb_ar_count(void);
uint32_t qtb_max_burst_beats(void);
int      qtb_burst_crossed_256(void);
#ifdef __cplusplus
}
#endif
#endif
