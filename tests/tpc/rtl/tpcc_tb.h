/* Harness of the TPC-cluster block testbench (tests/tpc/rtl/tpcc_harness.cpp): the
 * Verilated tessera_tpc_cluster, one AXI memory model per DCORE port (one shared device
 * memory), an APB master and a completion-message sink with random backpressure.
 * The test logic (tests/tpc/rtl/tpcc_test.c) only uses this C interface. */
#ifndef TPCC_TB_H
#define TPCC_TB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory: the AXI models serve TB_MEM_SIZE bytes at TB_MEM_BASE (and answer
 * DECERR above); the cluster's window (MemBase/MemSize, set by mk/tpc_rtl_cluster.mk)
 * is twice as large, so accesses in [TB_MEM_SIZE, 2 TB_MEM_SIZE) reach the bus and fail
 * there (program-load and tensor bus-error tests). */
#define TB_MEM_BASE 0x80000000u
#define TB_MEM_SIZE (8u << 20)

void tb_init(unsigned read_latency, uint64_t seed);
void tb_set_latency(unsigned read_latency);
void tb_tick(void);
uint64_t tb_cycles(void);
unsigned tb_dcores(void);
unsigned tb_masters(void);   /* the cluster's AXI masters (ports per DCORE x DCOREs) */
unsigned tb_tpc_per_dcore(void);

/* APB access to the register block (offset in the 64 KiB window); returns pslverr */
int tb_apb_write(uint32_t off, uint32_t val);
int tb_apb_read(uint32_t off, uint32_t *val);

void tb_mem_write(uint32_t addr, const void *src, size_t len);
void tb_mem_read(uint32_t addr, void *dst, size_t len);

int tb_irq(void);
int tb_busy(void);
unsigned tb_retiring(void);           /* TPCs retiring a bundle in the last cycle */
uint64_t tb_last_retire(void);        /* last cycle in which a TPC retired a bundle */
void tb_mark_retire(void);            /* forget the first retirement ... */
uint64_t tb_first_retire(void);       /* ... first cycle with a retirement since the mark (0: none) */
void tb_msg_ready_pct(unsigned pct);  /* probability of msg_ready_i per cycle */
unsigned tb_msg_count(void);
uint32_t tb_msg_addr(void);
uint32_t tb_msg_data(void);
uint64_t tb_axi_bytes(void);          /* bytes moved on all AXI ports (R beats + strobed W) */
uint64_t tb_axi_decerr(void);

#ifdef __cplusplus
}
#endif
#endif
