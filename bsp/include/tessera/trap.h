/* Tessera BSP: trap handling. bsp/src/trap_entry.S saves every register into a
 * trap_frame_t on the current stack and calls trap_dispatch(), which calls the
 * handler registered for the cause. Returning from a handler restores all
 * registers (including any change the handler made to the frame, e.g. mepc)
 * and executes mret. Works with mtvec in direct and vectored mode. */
#ifndef TESSERA_TRAP_H
#define TESSERA_TRAP_H

#include <stdint.h>

typedef struct {
    uint32_t x[32];    /* x[0] unused; x[2] = sp at the time of the trap */
    uint32_t mepc;
    uint32_t mcause;
    uint32_t mtval;
    uint32_t mstatus;
    int32_t  vector;   /* vectored mode: vector slot taken (0..31); direct mode: -1 */
    uint32_t pad[3];
} trap_frame_t;

typedef void (*trap_handler_t)(trap_frame_t *f);

/* Install the BSP trap entry. mode = MTVEC_DIRECT or MTVEC_VECTORED. */
void trap_init(uint32_t mode);

void trap_set_exception_handler(uint32_t cause, trap_handler_t fn); /* cause 0..15 */
void trap_set_interrupt_handler(uint32_t irq, trap_handler_t fn);   /* irq 0..15 (3, 7, 11) */

/* Called for a cause without a handler. Weak: the default prints
 * mcause/mepc/mtval on the UART and ends the program with test_fail(0xE0).
 * The firmware overrides it. */
void trap_unexpected(trap_frame_t *f);

/* Length (2 or 4) of the instruction at addr, for handlers that skip it:
 * always 4 when misa reports no C extension (the Tessera core). */
uint32_t trap_insn_len(uint32_t addr);
/* Skip the trapping instruction (mepc += its length). */
void trap_skip(trap_frame_t *f);

/* Count of traps taken per kind, for tests. */
extern volatile uint32_t trap_count;
extern volatile uint32_t trap_nesting;      /* current depth, >1 when nested */
extern volatile uint32_t trap_max_nesting;

#endif /* TESSERA_TRAP_H */
