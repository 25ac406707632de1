#!/usr/bin/env python3
"""Run the AXI fabric testbenches (see docs/fabric.md) and total their results.

  run_fabric.py --build build/<config>/fabric [--seed N] [--txns N] [--ops N]

Runs the crossbar testbench in two shapes (4x4 and 3x2) and the OBI->AXI bridge
testbench, all with the same seed, prints their output and ends with the total
"N passed, M failed". Without --seed a seed is drawn from the clock and printed;
pass it back with --seed to reproduce a run.
"""
import argparse
import os
import re
import subprocess
import sys

SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--txns", type=int, default=1500, help="random bursts per master per phase")
    ap.add_argument("--ops", type=int, default=4000, help="OBI accesses per bridge phase")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(os.environ.get("SEED") or 1)  # fixed unless SEED / --seed
    print(f"fabric: seed {seed} (reproduce with: SEED={seed} make fabric-test)", flush=True)
    runs = [
        ("xbar 4x4", [os.path.join(a.build, "xbar44", "Vtessera_axi_xbar"), "--seed", str(seed), "--txns", str(a.txns)]),
        ("xbar 3x2", [os.path.join(a.build, "xbar32", "Vtessera_axi_xbar"), "--seed", str(seed), "--txns", str(a.txns)]),
        ("xbar 4x4, channel hash", [os.path.join(a.build, "xbar44h", "Vtessera_axi_xbar"), "--seed", str(seed),
                                    "--txns", str(a.txns), "--phase", "stress"]),
        ("xbar 4x4, channel hash, HBM model", [os.path.join(a.build, "xbar44h", "Vtessera_axi_xbar"), "--seed",
                                                  str(seed), "--txns", str(a.txns), "--phase", "hbm"]),
        ("obi2axi", [os.path.join(a.build, "obi", "Vtessera_obi2axi"), "--seed", str(seed), "--ops", str(a.ops)]),
    ]
    tp = tf = 0
    for name, cmd in runs:
        print(f"== {name}: {' '.join(cmd)}", flush=True)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            out = r.stdout + r.stderr
            rc = r.returncode
        except (OSError, subprocess.TimeoutExpired) as e:
            out, rc = f"  cannot run: {e}\n", 1
        sys.stdout.write(out)
        p = f = None
        for line in out.splitlines():
            m = SUMMARY.match(line.strip())
            if m:
                p, f = int(m.group(1)), int(m.group(2))
        if p is None:
            p, f = 0, 1
            print(f"  {name}: no summary line (exit {rc}) -> counted as one failure")
        elif rc != 0 and f == 0:
            f = 1
        tp += p
        tf += f
    print(f"{tp} passed, {tf} failed")
    return 1 if tf else 0


if __name__ == "__main__":
    sys.exit(main())
