/* Tessera firmware: the control-path scheduler's shared state (cp_state.h). */
#include "cp_state.h"

hif_block_t cp_hif __attribute__((aligned(64)));
job_t cp_jobs[FW_JOBS];
uint32_t cp_eq_busy;
uint32_t cp_mon_free = FW_MONS;
uint8_t cp_eng_kind[HIF_NUM_EQ];
uint32_t cp_slot_free = (1u << FW_JOBS) - 1u;
uint32_t cp_n_wait;
uint32_t cp_fast_eq_ok;
uint32_t cp_fast_eq_dma;
