#!/usr/bin/env python3
"""ECP5 resource figures of the chip, block by block (synth_ecp5).

The chip does not fit one WebAssembly Yosys process, so, as util/synth_chip.py does for
generic synthesis, tessera_top is elaborated once in the configuration's parameters and
every parameterisation of a big block (synth_chip.BLOCKS) is mapped to ECP5 cells in its
own process, the other listed blocks black boxes of that run; then the glue (the chip with
every listed block a black box). One Yosys process at a time. After each run the figures
(LUT4, TRELLIS_FF, DP16KD, MULT18X18D, CCU2C, distributed RAM) go into OUT/blocks.json,
so an interrupted run keeps what it measured; FPGA_REUSE=1 skips blocks already there.
Usage (repository root): fpga_blocks.py OUTDIR YOSYS "SOURCES" [BLOCK ...]
       fpga_blocks.py --table OUTDIR/blocks.json   (markdown table for docs/fpga.md)
"""
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth_chip import BLOCKS, EXPECT_S, base, parse_stat, run_yosys, instances  # noqa: E402

KINDS = {"LUT4": "lut4", "TRELLIS_FF": "ff", "DP16KD": "dp16kd", "MULT18X18D": "mult18",
         "CCU2C": "ccu2c", "TRELLIS_DPR16X4": "dpr16x4", "PFUMX": "pfumx", "L6MUX21": "l6mux"}
SYNTH = ("synth_ecp5 -top {top} -noflatten -run begin:check\n"
         "select -assert-none t:$dlatch t:$_DLATCH_*\n"
         "tee -q -o {stat} stat\n")


def own_figures(mods, name, leaves):
    """ECP5 cells of `name` and its non-listed submodules (listed blocks count 0)."""
    memo = {}

    def walk(m):
        if m in memo:
            return memo[m]
        f = dict.fromkeys(KINDS.values(), 0)
        for typ, n in mods[m]["types"].items():
            if typ in leaves:
                continue
            if typ in mods:
                for k, v in walk(typ).items():
                    f[k] += n * v
            elif typ in KINDS:
                f[KINDS[typ]] += n
        memo[m] = f
        return f
    return walk(name)


# LFE5U-85F: LUT4, flip-flops, 18 Kb block RAMs, 18x18 multipliers
# (DPR16X4: 16x4 distributed-RAM cells, one nextpnr TRELLIS_RAMW each; its count on the part)
PART = {"lut4": 83640, "ff": 83640, "dp16kd": 208, "mult18": 156, "dpr16x4": 10455}


def table(path):
    """Markdown table of blocks.json: each block's own cells (nested listed blocks
    excluded), its instances in the chip, and the chip total against the part."""
    res = json.load(open(path))
    elab = os.path.join(os.path.dirname(path), "elab.stat")
    if os.path.exists(elab):   # instances from the elaborated chip (also for a partial run)
        every = parse_stat(elab)
        top = next((m for m in every if base(m) == "tessera_top"), "tessera_top")
        for key, f in res.items():
            if key != "glue":
                f["instances"] = instances(every, top, key) or 1
        json.dump(res, open(path, "w"), indent=1, sort_keys=True)
    cols = ["lut4", "ff", "dp16kd", "mult18", "dpr16x4"]
    print("| block | in chip | LUT4 | FF | DP16KD | MULT18 | DPR16X4 | synth s |")
    print("|---|---|---|---|---|---|---|---|")
    tot = dict.fromkeys(cols, 0)
    names = [f["block"] for f in res.values()]
    for key, f in sorted(res.items(), key=lambda kv: -kv[1]["lut4"] * kv[1].get("instances", 1)):
        n = f.get("instances", 1)
        # a block with several parameterisations: each its own row, told apart by a hash
        tag = "" if names.count(f["block"]) == 1 else \
            " (" + hashlib.sha1(key.encode()).hexdigest()[:8] + ")"
        print(f"| {f['block']}{tag} | {n} | " + " | ".join(str(f[c]) for c in cols)
              + f" | {f['seconds']} |")
        for c in cols:
            tot[c] += n * f[c]
    print("| **measured total** (x instances) | | " + " | ".join(str(tot[c]) for c in cols) + " | |")
    print("| LFE5U-85F | | " + " | ".join(str(PART[c]) for c in cols) + " | |")
    print("| share of the part | | " + " | ".join(f"{100 * tot[c] / PART[c]:.0f} %" for c in cols)
          + " | |")
    return 0


def main():
    if sys.argv[1] == "--table":
        return table(sys.argv[2])
    out, yosys, srcs = sys.argv[1:4]
    # paths relative to the tree: YoWASP tools see /tmp as their own scratch directory
    cwd = os.getcwd() + "/"
    out = out[len(cwd):] if out.startswith(cwd) else out
    srcs = srcs.replace(cwd, "")
    want = sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    res_path = f"{out}/blocks.json"
    res = json.load(open(res_path)) if os.path.exists(res_path) else {}
    reuse = os.environ.get("FPGA_REUSE") == "1"
    elab, mods_txt = f"{out}/elab.il", f"{out}/modules.txt"
    if not (reuse and os.path.exists(elab)):
        sc = f"{out}/elab.ys"
        with open(sc, "w") as f:
            f.write(f"read_verilog -sv {srcs}\nchparam -set EngClkGate 0 tessera_top\n"
                    f"hierarchy -check -top tessera_top\nwrite_rtlil {elab}\n"
                    f"tee -q -o {mods_txt} ls\ntee -q -o {out}/elab.stat stat\n")
        ok, dt = run_yosys(yosys, sc, f"{out}/elab.log")
        if not ok:
            print(f"elaboration FAILED (see {out}/elab.log)")
            return 1
        print(f"elaborated tessera_top in {dt:.0f} s", flush=True)
    names = [l.strip() for l in open(mods_txt) if l.startswith("  ")]
    top = next((n for n in names if n == "tessera_top" or n.endswith("\\tessera_top")),
               "tessera_top")
    split = [n for n in names if base(n) in BLOCKS]
    # quick blocks first: an interrupted run has measured the most blocks
    todo = sorted((n for n in split if not want or base(n) in want),
                  key=lambda n: EXPECT_S.get(base(n), 0)) + \
        ([] if want and "glue" not in want else ["glue"])
    for name in todo:
        key = "glue" if name == "glue" else name
        if reuse and key in res:
            continue
        tag = "glue" if name == "glue" else \
            base(name) + "_" + hashlib.sha1(name.encode()).hexdigest()[:8]
        sc, stat = f"{out}/{tag}.ys", f"{out}/{tag}.stat"
        with open(sc, "w") as f:
            f.write(f"read_rtlil {elab}\n")
            for other in split:
                if other != name:
                    f.write(f"blackbox {other}\n")
            f.write(f"hierarchy -top {top if name == 'glue' else name}\n")
            f.write(SYNTH.format(top=top if name == "glue" else name, stat=stat))
        ok, dt = run_yosys(yosys, sc, f"{out}/{tag}.log")
        if not ok or not os.path.exists(stat):
            print(f"  {base(name):<20} FAILED ({dt:.0f} s, see {out}/{tag}.log)", flush=True)
            continue
        mods = parse_stat(stat)
        root = next(m for m in mods if m == (top if name == "glue" else name)
                    or m.endswith("\\" + base(name)) or (name == "glue" and m == top))
        fig = own_figures(mods, root, set(split))
        fig["seconds"] = round(dt)
        fig["block"] = "glue" if name == "glue" else base(name)
        res[key] = fig
        json.dump(res, open(res_path, "w"), indent=1, sort_keys=True)
        print(f"  {fig['block']:<20} {fig['lut4']:>7} LUT4 {fig['ff']:>7} FF "
              f"{fig['dp16kd']:>4} DP16KD {fig['mult18']:>4} MULT18 ({dt:.0f} s)", flush=True)
    # instance counts in the chip: from the elaborated hierarchy
    if os.path.exists(f"{out}/elab.stat"):
        every = parse_stat(f"{out}/elab.stat")
        for key in res:
            if key != "glue":
                res[key]["instances"] = instances(every, top, key) or 1
        json.dump(res, open(res_path, "w"), indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
