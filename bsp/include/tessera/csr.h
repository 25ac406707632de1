/* Tessera BSP: machine-mode CSR accessors for the RV32IM+Zicsr management core. */
#ifndef TESSERA_CSR_H
#define TESSERA_CSR_H

#include <stdint.h>

/* CSR numbers are written by name in the asm so the assembler checks them. */
#define csr_read(name) ({ uint32_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define csr_write(name, val) __asm__ volatile("csrw " #name ", %0" :: "rK"((uint32_t)(val)) : "memory")
#define csr_set(name, bits) __asm__ volatile("csrs " #name ", %0" :: "rK"((uint32_t)(bits)) : "memory")
#define csr_clear(name, bits) __asm__ volatile("csrc " #name ", %0" :: "rK"((uint32_t)(bits)) : "memory")
#define csr_swap(name, val) ({ uint32_t v_; __asm__ volatile("csrrw %0, " #name ", %1" : "=r"(v_) : "rK"((uint32_t)(val)) : "memory"); v_; })
#define csr_read_set(name, bits) ({ uint32_t v_; __asm__ volatile("csrrs %0, " #name ", %1" : "=r"(v_) : "rK"((uint32_t)(bits)) : "memory"); v_; })
#define csr_read_clear(name, bits) ({ uint32_t v_; __asm__ volatile("csrrc %0, " #name ", %1" : "=r"(v_) : "rK"((uint32_t)(bits)) : "memory"); v_; })

/* mstatus */
#define MSTATUS_MIE   (1u << 3)
#define MSTATUS_MPIE  (1u << 7)
#define MSTATUS_MPP   (3u << 11)

/* mie / mip bits (machine level) */
#define MIP_MSIP      (1u << 3)
#define MIP_MTIP      (1u << 7)
#define MIP_MEIP      (1u << 11)
#define MIE_MSIE      MIP_MSIP
#define MIE_MTIE      MIP_MTIP
#define MIE_MEIE      MIP_MEIP

/* mcause */
#define MCAUSE_INTERRUPT       (1u << 31)
#define MCAUSE_CODE(c)         ((c) & 0x7FFFFFFFu)
#define CAUSE_MISALIGNED_FETCH 0u
#define CAUSE_FETCH_ACCESS     1u
#define CAUSE_ILLEGAL_INSN     2u
#define CAUSE_BREAKPOINT       3u
#define CAUSE_MISALIGNED_LOAD  4u
#define CAUSE_LOAD_ACCESS      5u
#define CAUSE_MISALIGNED_STORE 6u
#define CAUSE_STORE_ACCESS     7u
#define CAUSE_ECALL_U          8u
#define CAUSE_ECALL_M          11u
#define IRQ_M_SOFT             3u
#define IRQ_M_TIMER            7u
#define IRQ_M_EXT              11u

/* mtvec modes */
#define MTVEC_DIRECT   0u
#define MTVEC_VECTORED 1u

static inline void irq_global_enable(void) { csr_set(mstatus, MSTATUS_MIE); }
static inline void irq_global_disable(void) { csr_clear(mstatus, MSTATUS_MIE); }
/* Disable interrupts and return the previous mstatus.MIE state (for irq_restore). */
static inline uint32_t irq_save(void) { return csr_read_clear(mstatus, MSTATUS_MIE) & MSTATUS_MIE; }
static inline void irq_restore(uint32_t s) { if (s) csr_set(mstatus, MSTATUS_MIE); }

static inline void wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

/* 32-bit cycle / instruction counters (mcycle, minstret). Differences of these
 * are valid for intervals shorter than 2^32 cycles; that is all the BSP uses. */
static inline uint32_t rdcycle32(void) { return csr_read(mcycle); }
static inline uint32_t rdinstret32(void) { return csr_read(minstret); }

#endif /* TESSERA_CSR_H */
