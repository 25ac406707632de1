/* Block-testbench driver interface (implemented in C++ around a Verilated
 * model, used by the C tests). Shared by the syncmgr and qman testbenches. */
#ifndef TESSERA_TB_DRV_H
#define TESSERA_TB_DRV_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void     tb_reset(void);
void     tb_step(void);                 /* one clock cycle */
uint64_t tb_cycle(void);
/* APB4 access to the block's register slave (waits for pready; bounded). */
int      tb_apb_write(uint32_t off, uint32_t val);  /* returns pslverr (or -1 on timeout) */
int      tb_apb_read(uint32_t off, uint32_t *val);
uint64_t tb_apb_last_access(void);      /* cycle of the last access phase start */
/* Message port: percentage of cycles msg_ready_i is high (100 = always). */
void     tb_set_msg_ready(unsigned pct, uint32_t seed);
/* Pop a captured message: returns 1 and fills in, or 0 if none. `cycle` is
 * the cycle msg_valid_o first went high for it. */
int      tb_msg_pop(uint32_t *addr, uint32_t *data, uint64_t *cycle);
int      tb_irq(void);
void     tb_msg_err_pulse(void);       /* pulse msg_err_i for one cycle at the next step */
#ifdef __cplusplus
}
#endif
#endif
