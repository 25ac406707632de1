/* Tessera BSP: register access. Block bases come from the generated
 * tessera_cfg.h, register offsets from the generated <block>_regs.h
 * (offsetof on the PeakRDL struct), so no address is written by hand.
 * Accesses are always full 32-bit loads/stores (the generated structs are
 * packed, so their members must not be dereferenced directly: GCC would
 * emit byte accesses). */
#ifndef TESSERA_MMIO_H
#define TESSERA_MMIO_H

#include <stddef.h>
#include <stdint.h>
#include "tessera_cfg.h"
#include "regs/sysctrl_regs.h"
#include "regs/uart_regs.h"
#include "regs/intc_regs.h"
#include "regs/clint_regs.h"

#define MMIO32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#define SYSCTRL_REG(r) MMIO32(TESSERA_SYSCTRL_BASE + offsetof(sysctrl_t, r))
#define UART_REG(r)    MMIO32(TESSERA_UART_BASE + offsetof(uart_t, r))
#define INTC_REG(r)    MMIO32(TESSERA_INTC_BASE + offsetof(intc_t, r))
#define CLINT_REG(r)   MMIO32(TESSERA_CLINT_BASE + offsetof(clint_t, r))

/* Extract / insert a field using the generated _bm/_bp macros:
 * FIELD_GET(SYSCTRL__CONFIG0__DCORES, v) */
#define FIELD_GET(f, v) (((uint32_t)(v) & f##_bm) >> f##_bp)
#define FIELD_PREP(f, v) (((uint32_t)(v) << f##_bp) & f##_bm)

#endif /* TESSERA_MMIO_H */
