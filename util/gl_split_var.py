#!/usr/bin/env python3
"""Mark every multi-bit internal wire of a flat Yosys netlist for Verilator's split_var.

Yosys writes a flat netlist with many vectors whose bits depend on other bits of the same
vector (assign w[8] = w[9] & x). Verilator orders whole variables, so each such vector is a
false combinational loop (UNOPTFLAT), and Verilator 5.006 evaluates some of these loops in
an order that leaves stale values (docs/synthesis.md: the MME's init-tile widening gave
-Inf for finite inputs). split_var makes Verilator treat the bits separately, which removes
the false loops. Ports are left alone (split_var does not apply to them).

  python3 util/gl_split_var.py IN.v OUT.v
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gl_split_var.py IN.v OUT.v")
    src = open(sys.argv[1]).read()
    ports = set(re.findall(r"^\s*(?:input|output)\s+(?:\[[^\]]*\]\s*)?(\S+)\s*;", src, re.M))
    count = 0

    def mark(m):
        nonlocal count
        name = m.group(2).strip()
        if name in ports:
            return m.group(0)
        count += 1
        return f"{m.group(1)}{name} /*verilator split_var*/ ;"

    out = re.sub(r"^(  wire \[\d+:\d+\] )(\\\S+ |[A-Za-z_][A-Za-z0-9_$]*) ?;$", mark, src, flags=re.M)
    with open(sys.argv[2], "w") as f:
        f.write(out)
    print(f"gl_split_var: {count} wires marked")


if __name__ == "__main__":
    main()
