/* Thin C API over the Verilated tessera_mme block testbench (tests/mme/tb_mme.cpp).
 * Test logic and golden model are C (mme_test.c, mme_golden.c). */
#ifndef TESSERA_TB_MME_H
#define TESSERA_TB_MME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TB_MAX_MME 2

/* Create n_mme engines (1 or 2) sharing one device memory; each of an engine's two AXI
 * masters (A/init/C and B reads) is served by its own AxiMemModel with the given read
 * latency and bandwidth. */
void tb_open(int n_mme, unsigned latency, unsigned bytes_per_cycle);
void tb_close(void);
int tb_rows(void);
int tb_cols(void);

void tb_reg_wr(int mme, uint32_t off, uint32_t v);  /* APB write (advances cycles) */
uint32_t tb_reg_rd(int mme, uint32_t off);          /* APB read */
int tb_reg_err(void);                               /* pslverr of the last access */

void tb_mem_wr(uint64_t addr, const void *src, size_t len);
void tb_mem_rd(uint64_t addr, void *dst, size_t len);

void tb_step(uint64_t cycles);
uint64_t tb_cycle(void);
int tb_irq(int mme);
/* Run until irq_o of engine `mme` is high; returns 0, or -1 after `limit` cycles. */
int tb_wait_irq(int mme, uint64_t limit);
/* Run until all listed engines raised irq_o (mask bit i = engine i). */
int tb_wait_irq_all(unsigned mask, uint64_t limit);

/* Completion messages seen on msg_valid_o/msg_ready_i. */
unsigned tb_msg_count(int mme);
uint32_t tb_msg_addr(int mme);
uint32_t tb_msg_data(int mme);
/* Responses with an error the memory model produced (DECERR/SLVERR bursts). */
uint64_t tb_mem_errors(int mme);
/* error responses (DECERR + SLVERR bursts) of one port: 0 = m_axi (A), 1 = mb_axi (B) */
uint64_t tb_mem_errors_port(int mme, int port);
/* populated memory from HBM_BASE on every port of every engine (beats above: DECERR) */
void tb_set_mem_size(uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
