/* Tessera BSP: C side of trap handling (see bsp/include/tessera/trap.h). */
#include "tessera/csr.h"
#include "tessera/trap.h"

extern char trap_entry[];
extern char trap_vector_table[];

static trap_handler_t exc_handlers[16];
static trap_handler_t irq_handlers[16];

volatile uint32_t trap_count;
volatile uint32_t trap_nesting;
volatile uint32_t trap_max_nesting;

void trap_init(uint32_t mode)
{
    if (mode == MTVEC_VECTORED)
        csr_write(mtvec, (uint32_t)(uintptr_t)trap_vector_table | MTVEC_VECTORED);
    else
        csr_write(mtvec, (uint32_t)(uintptr_t)trap_entry);
}

void trap_set_exception_handler(uint32_t cause, trap_handler_t fn)
{
    if (cause < 16u)
        exc_handlers[cause] = fn;
}

void trap_set_interrupt_handler(uint32_t irq, trap_handler_t fn)
{
    if (irq < 16u)
        irq_handlers[irq] = fn;
}

uint32_t trap_insn_len(uint32_t addr)
{
    /* Without the C extension (misa bit 2) every instruction is 4 bytes, even
     * an illegal one whose low bits are not 11 (e.g. the all-zero word). */
    if (!(csr_read(misa) & (1u << 2)))
        return 4u;
    uint16_t lo = *(volatile uint16_t *)(uintptr_t)addr;
    return ((lo & 3u) == 3u) ? 4u : 2u;
}

void trap_skip(trap_frame_t *f)
{
    f->mepc += trap_insn_len(f->mepc);
}

void trap_dispatch(trap_frame_t *f);
void trap_dispatch(trap_frame_t *f)
{
    uint32_t depth = trap_nesting + 1u;
    trap_nesting = depth;
    if (depth > trap_max_nesting)
        trap_max_nesting = depth;
    trap_count = trap_count + 1u;

    uint32_t code = MCAUSE_CODE(f->mcause);
    trap_handler_t h = 0;
    if (code < 16u)
        h = (f->mcause & MCAUSE_INTERRUPT) ? irq_handlers[code] : exc_handlers[code];
    if (h)
        h(f);
    else
        trap_unexpected(f);

    trap_nesting = trap_nesting - 1u;
}
