/* tessera_dma block-testbench driver (C++ around the Verilated model): APB
 * register port, AXI4 memory slave (read latency, random ready, error beats,
 * log of written beats), message sink. Used by dma_test.c. */
#ifndef TESSERA_DTB_DRV_H
#define TESSERA_DTB_DRV_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void     dtb_reset(void);
void     dtb_step(void);
uint64_t dtb_cycle(void);
int      dtb_apb_write(uint32_t off, uint32_t val);
int      dtb_apb_read(uint32_t off, uint32_t *val);
void     dtb_mem_clear(void);
void     dtb_mem_write8(uint32_t addr, uint8_t v);
uint8_t  dtb_mem_read8(uint32_t addr);            /* unwritten bytes read a hash of the address */
void     dtb_mem_set_err(uint32_t addr);          /* the 32-byte beat holding addr answers SLVERR */
void     dtb_set_latency(unsigned cycles);
void     dtb_set_host_latency(unsigned cycles);   /* host port read latency */
void     dtb_set_env(unsigned ar_pct, unsigned aw_pct, unsigned w_pct, unsigned r_gap_pct,
                     unsigned msg_pct, uint32_t seed);
/* written beats since the last clear (32-byte aligned addresses, in order) */
unsigned dtb_writes(uint32_t *addrs, unsigned max);
void     dtb_writes_clear(void);
/* shortest and longest write burst (beats) since the last clear (~0 / 0: none) */
void     dtb_aw_beats(uint32_t *min_beats, uint32_t *max_beats);
/* addresses of the bytes written with their strobe set since the last clear, in order */
unsigned dtb_wbytes(uint32_t *addrs, unsigned max);
int      dtb_msg_pop(uint32_t *addr, uint32_t *data);
int      dtb_irq(void);
int      dtb_idle(void);
uint32_t dtb_max_burst_beats(void);
int      dtb_burst_crossed_256(void);
#ifdef __cplusplus
}
#endif
#endif
