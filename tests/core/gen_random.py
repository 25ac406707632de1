#!/usr/bin/env python3
"""Generate a random RV32IM test program for the Tessera core testbench.

The program has no expected values of its own: tb_core runs it in lockstep
with its reference model (tests/core/rv32_iss.h), which compares the pc,
instruction, every register and every store after each retired instruction.
The instruction mix favours recently written registers as sources so that
forwarding, load-use and branch-on-load paths are exercised, and includes
loads/stores (some misaligned: trapped and skipped by trap_record), mul/div,
short forward branches, counted backward loops, jal/jalr, CSR accesses to
mscratch/minstret, ecall/ebreak and illegal words.

With --irq the program enables all three interrupts and installs a handler
that lowers the test-device lines (run it with tb_core --irq-rate N, which
raises random lines); WFI is then part of the mix.

Usage: gen_random.py --seed N [--length N] [--irq] -o out.S
"""
import argparse
import random

# registers the program may write: not sp(x2), gp(x3), s0(x8, data base),
# s1(x9, unmapped base: access faults), t3(x28, loop counter),
# t4(x29, jump target), t5/t6(x30/x31)
WREGS = [1, 4, 5, 6, 7] + list(range(10, 28))
ALL_SRC = WREGS + [0, 8]


# exceptions: skip the instruction; interrupts: lower all test-device lines
HANDLER = """
  .balign 4
rnd_handler:
  csrw  mscratch, t0
  la    t0, hsave
  sw    t1, 0(t0)
  csrr  t1, mcause
  bltz  t1, 1f
  csrr  t1, mepc
  addi  t1, t1, 4
  csrw  mepc, t1
  j     2f
1:
  li    t1, 0x2000F000
  sw    zero, 4(t1)
  sw    zero, 0(t1)
2:
  lw    t1, 0(t0)
  csrr  t0, mscratch
  mret
  .data
hsave:
  .word 0
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--length", type=int, default=600)
    ap.add_argument("--irq", action="store_true")
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    recent = []
    out = []
    label = [0]

    def newlabel():
        label[0] += 1
        return f"L{label[0]}"

    def src():
        if recent and rng.random() < 0.6:
            return rng.choice(recent[-3:])
        return rng.choice(ALL_SRC)

    def dst():
        r = rng.choice(WREGS)
        recent.append(r)
        del recent[:-4]
        return r

    def x(r):
        return f"x{r}"

    def simm12():
        return rng.choice([0, 1, -1, 2047, -2048, rng.randrange(-2048, 2048)])

    def one(depth):
        k = rng.random()
        if k < 0.25:
            op = rng.choice(["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"])
            out.append(f"  {op} {x(dst())}, {x(src())}, {x(src())}")
        elif k < 0.42:
            op = rng.choice(["addi", "slti", "sltiu", "xori", "ori", "andi"])
            out.append(f"  {op} {x(dst())}, {x(src())}, {simm12()}")
        elif k < 0.47:
            op = rng.choice(["slli", "srli", "srai"])
            out.append(f"  {op} {x(dst())}, {x(src())}, {rng.randrange(32)}")
        elif k < 0.50:
            op = rng.choice(["lui", "auipc"])
            out.append(f"  {op} {x(dst())}, {rng.randrange(1 << 20)}")
        elif k < 0.58:
            op = rng.choice(["mul", "mulh", "mulhsu", "mulhu", "mul", "div", "divu", "rem", "remu"])
            out.append(f"  {op} {x(dst())}, {x(src())}, {x(src())}")
        elif k < 0.72:
            op, size = rng.choice([("lw", 4), ("lh", 2), ("lhu", 2), ("lb", 1), ("lbu", 1)])
            off = rng.randrange(0, 256 // size) * size
            base = "s0"
            if rng.random() < 0.03:
                off += 1 if size > 1 else 0       # misaligned: traps
            elif rng.random() < 0.03:
                base = "s1"                       # access fault
            out.append(f"  {op} {x(dst())}, {off}({base})")
        elif k < 0.82:
            op, size = rng.choice([("sw", 4), ("sh", 2), ("sb", 1)])
            off = rng.randrange(0, 256 // size) * size
            base = "s0"
            if rng.random() < 0.03:
                off += 1 if size > 1 else 0
            elif rng.random() < 0.03:
                base = "s1"
            out.append(f"  {op} {x(src())}, {off}({base})")
        elif k < 0.89 and depth < 2:
            # short forward branch over 1..3 instructions
            l = newlabel()
            op = rng.choice(["beq", "bne", "blt", "bge", "bltu", "bgeu"])
            out.append(f"  {op} {x(src())}, {x(src())}, {l}")
            for _ in range(rng.randrange(1, 4)):
                one(depth + 1)
            out.append(f"{l}:")
        elif k < 0.92 and depth == 0:
            # counted backward loop (predicted taken)
            l = newlabel()
            out.append(f"  li t3, {rng.randrange(1, 5)}")
            out.append(f"{l}:")
            for _ in range(rng.randrange(1, 6)):
                one(depth + 1)
            out.append("  addi t3, t3, -1")
            out.append(f"  bnez t3, {l}")
        elif k < 0.94 and depth < 2:
            l = newlabel()
            if rng.random() < 0.5:
                out.append(f"  jal {x(dst())}, {l}")
            else:
                out.append(f"  la t4, {l}")
                out.append(f"  jalr {x(dst())}, {rng.choice([0, 1])}(t4)")
            one(depth + 1)
            out.append(f"{l}:")
        elif k < 0.97:
            c = rng.random()
            if c < 0.4:
                op = rng.choice(["csrrw", "csrrs", "csrrc"])
                out.append(f"  {op} {x(dst())}, mscratch, {x(src())}")
            elif c < 0.7:
                op = rng.choice(["csrrwi", "csrrsi", "csrrci"])
                out.append(f"  {op} {x(dst())}, mscratch, {rng.randrange(32)}")
            elif c < 0.85:
                out.append(f"  csrr {x(dst())}, minstret")
            else:
                out.append(f"  csrr {x(dst())}, {rng.choice(['mstatus', 'mepc', 'mcause', 'mtval', 'mie'])}")
        else:
            extra = ["wfi"] if a.irq else []
            out.append("  " + rng.choice(["ecall", "ebreak", ".word 0", "fence", "nop"] + extra))

    for _ in range(a.length):
        one(0)

    with open(a.o, "w") as f:
        f.write(f"# random RV32IM program, seed {a.seed} (generated by tests/core/gen_random.py)\n")
        f.write('#include "test_macros.h"\n  .data\n  .balign 16\nrbuf:\n')
        f.write("".join(f"  .word 0x{rng.randrange(1 << 32):08x}\n" for _ in range(64)))
        f.write("  .text\n  .globl test_main\ntest_main:\n  USE_TRAP_RECORD\n  la s0, rbuf\n  li s1, 0x40000000\n")
        for r in WREGS:
            f.write(f"  li x{r}, 0x{rng.randrange(1 << 32):08x}\n")
        if a.irq:
            f.write("  la t5, rnd_handler\n  csrw mtvec, t5\n  li t5, 0x888\n  csrw mie, t5\n"
                    "  csrsi mstatus, 8\n")
        f.write("\n".join(out))
        f.write("\n  csrci mstatus, 8\n  j pass\n")
        if a.irq:
            f.write(HANDLER)


if __name__ == "__main__":
    main()
