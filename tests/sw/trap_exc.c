/* Synchronous exceptions: each one is provoked at a known instruction, the
 * handler records mcause/mepc/mtval and skips the instruction, and the test
 * checks the recorded values, that execution resumed, that a faulting load did
 * not write its destination and that a faulting store did not write memory.
 * Covered: illegal instruction, misaligned load/store (half and word), load
 * and store access faults on an unmapped address (0x7000_0000), on a hole in
 * the peripheral space and on an unused offset inside a register block, ecall,
 * ebreak, and an illegal CSR access. */
#include <stdint.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

static volatile uint32_t n_traps, t_cause, t_epc, t_tval, t_insn_len;

static void record(trap_frame_t *f)
{
    n_traps = n_traps + 1u;
    t_cause = f->mcause;
    t_epc = f->mepc;
    t_tval = f->mtval;
    trap_skip(f);
}

static void expect(uint32_t traps_before, uint32_t cause, uint32_t epc, uint32_t tval)
{
    CHECK_EQ(n_traps, traps_before + 1u);
    CHECK_EQ(t_cause, cause);
    CHECK_EQ(t_epc, epc);
    CHECK_EQ(t_tval, tval);
}

/* a load of width `op` at addr; returns the destination register, which is
 * preset to 0x5a5a5a5a so that a load that faults leaves it unchanged */
#define FAULT_LOAD(op, addr, pc_out, val_out)                              \
    __asm__ volatile("li %1, 0x5a5a5a5a\n"                                  \
                     "la %0, 1f\n"                                          \
                     "1: " op " %1, 0(%2)\n"                                \
                     : "=&r"(pc_out), "=&r"(val_out) : "r"(addr) : "memory")
#define FAULT_STORE(op, addr, val, pc_out)                                 \
    __asm__ volatile("la %0, 1f\n"                                          \
                     "1: " op " %1, 0(%2)\n"                                \
                     : "=&r"(pc_out) : "r"(val), "r"(addr) : "memory")

static volatile uint32_t ram_word[2] __attribute__((aligned(8)));

int main(void)
{
    trap_init(MTVEC_DIRECT);
    for (uint32_t c = 0; c < 16; c++)
        trap_set_exception_handler(c, record);

    uint32_t pc, v, before;

    /* illegal instruction: all-zero word; mtval = the instruction bits */
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: .word 0x00000000\n" : "=&r"(pc) :: "memory");
    expect(before, CAUSE_ILLEGAL_INSN, pc, 0u);
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: .word 0xffffffff\n" : "=&r"(pc) :: "memory");
    expect(before, CAUSE_ILLEGAL_INSN, pc, 0xffffffffu);

    /* unknown CSR (0x7c0 is not implemented) */
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: csrr %1, 0x7c0\n" : "=&r"(pc), "=&r"(v) :: "memory");
    CHECK_EQ(n_traps, before + 1u);
    CHECK_EQ(t_cause, CAUSE_ILLEGAL_INSN);
    CHECK_EQ(t_epc, pc);

    /* write to a read-only CSR (mvendorid) */
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: csrw mvendorid, zero\n" : "=&r"(pc) :: "memory");
    CHECK_EQ(n_traps, before + 1u);
    CHECK_EQ(t_cause, CAUSE_ILLEGAL_INSN);

    /* misaligned loads: mtval = the effective address, rd not written */
    uint32_t base = (uint32_t)(uintptr_t)ram_word;
    ram_word[0] = 0x11223344u;
    ram_word[1] = 0x55667788u;
    static const uint32_t offs[3] = { 1u, 2u, 3u };
    for (int i = 0; i < 3; i++) {
        uint32_t a = base + offs[i];
        before = n_traps;
        FAULT_LOAD("lw", a, pc, v);
        expect(before, CAUSE_MISALIGNED_LOAD, pc, a);
        CHECK_EQ(v, 0x5a5a5a5au);
    }
    before = n_traps;
    FAULT_LOAD("lh", base + 1u, pc, v);
    expect(before, CAUSE_MISALIGNED_LOAD, pc, base + 1u);
    before = n_traps;
    FAULT_LOAD("lhu", base + 3u, pc, v);
    expect(before, CAUSE_MISALIGNED_LOAD, pc, base + 3u);
    /* aligned half and byte loads do not trap */
    before = n_traps;
    FAULT_LOAD("lhu", base + 2u, pc, v);
    CHECK_EQ(n_traps, before);
    CHECK_EQ(v, 0x1122u);
    FAULT_LOAD("lb", base + 3u, pc, v);
    CHECK_EQ(v, 0x11u);

    /* misaligned stores: memory unchanged */
    before = n_traps;
    FAULT_STORE("sw", base + 2u, 0xdeadbeefu, pc);
    expect(before, CAUSE_MISALIGNED_STORE, pc, base + 2u);
    before = n_traps;
    FAULT_STORE("sh", base + 5u, 0xbeefu, pc);
    expect(before, CAUSE_MISALIGNED_STORE, pc, base + 5u);
    CHECK_EQ(ram_word[0], 0x11223344u);
    CHECK_EQ(ram_word[1], 0x55667788u);

    /* access faults: unmapped space, a hole between peripherals, an unused
     * offset inside a register block (APB pslverr) */
    const uint32_t bad[3] = {
        0x70000000u,
        TESSERA_INTC_BASE + TESSERA_INTC_SIZE + 0x100u,
        TESSERA_UART_BASE + 0x800u,
    };
    for (int i = 0; i < 3; i++) {
        before = n_traps;
        FAULT_LOAD("lw", bad[i], pc, v);
        expect(before, CAUSE_LOAD_ACCESS, pc, bad[i]);
        CHECK_EQ(v, 0x5a5a5a5au);
        before = n_traps;
        FAULT_LOAD("lbu", bad[i] + 1u, pc, v);
        expect(before, CAUSE_LOAD_ACCESS, pc, bad[i] + 1u);
        before = n_traps;
        FAULT_STORE("sw", bad[i], 0x12345678u, pc);
        expect(before, CAUSE_STORE_ACCESS, pc, bad[i]);
    }

    /* ecall: mtval 0; ebreak: mtval = pc */
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: ecall\n" : "=&r"(pc) :: "memory");
    expect(before, CAUSE_ECALL_M, pc, 0u);
    before = n_traps;
    __asm__ volatile("la %0, 1f\n1: ebreak\n" : "=&r"(pc) :: "memory");
    expect(before, CAUSE_BREAKPOINT, pc, pc);

    /* every register survives a trap: temporaries and arguments are set,
     * ecall is taken (the handler is C code that uses them), then read back */
    uint32_t regs[15];
    __asm__ volatile(
        "li t0, 0x1000\n li t1, 0x1001\n li t2, 0x1002\n li t3, 0x1003\n"
        "li t4, 0x1004\n li t5, 0x1005\n li t6, 0x1006\n"
        "li a0, 0x2000\n li a1, 0x2001\n li a2, 0x2002\n li a3, 0x2003\n"
        "li a4, 0x2004\n li a5, 0x2005\n li a6, 0x2006\n li a7, 0x2007\n"
        "ecall\n"
        "sw t0, 0(%0)\n sw t1, 4(%0)\n sw t2, 8(%0)\n sw t3, 12(%0)\n"
        "sw t4, 16(%0)\n sw t5, 20(%0)\n sw t6, 24(%0)\n"
        "sw a0, 28(%0)\n sw a1, 32(%0)\n sw a2, 36(%0)\n sw a3, 40(%0)\n"
        "sw a4, 44(%0)\n sw a5, 48(%0)\n sw a6, 52(%0)\n sw a7, 56(%0)\n"
        :: "r"(regs)
        : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "memory");
    for (uint32_t i = 0; i < 7; i++)
        CHECK_EQ(regs[i], 0x1000u + i);
    for (uint32_t i = 0; i < 8; i++)
        CHECK_EQ(regs[7 + i], 0x2000u + i);

    /* state after all of that */
    CHECK(trap_nesting == 0u);
    CHECK_EQ(csr_read(mstatus) & MSTATUS_MIE, 0u);
    return 0;
}
