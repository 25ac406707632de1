#!/usr/bin/env python3
"""Run the regression suites listed in tests/suites.txt and total their results.

Each line of suites.txt is   <kind> <name> : <shell command>
  kind: test (make test), bench (make bench) or soak (make soak)
The command runs from the repository root with $CONFIG set. Every suite ends its
output with a line "N passed, M failed"; a suite that exits non-zero without
such a line counts as one failure, and so does one that prints none at all or
one whose summary is "0 passed, 0 failed" (it ran no checks).
Output goes to build/<config>/logs/<name>.log and, on failure, its tail to the
terminal. The last line printed here is the total: "N passed, M failed".
--jobs N runs up to N suites side by side (in list order, longest first is the
list's job); each suite's line is printed when it ends.
Seeds: every program reads the SEED environment variable (set by `SEED=N make ...`)
and uses its own fixed default without it, so two runs of one tree give the same
counts. --random-seed (make soak) draws a seed when SEED is not set and prints it.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

SUMMARY = re.compile(r"^(?:\w+:\s*)?(\d+) passed, (\d+) failed")


def parse(path, kind):
    suites = []
    for lineno, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, cmd = line.partition(":")
        parts = head.split()
        if not sep or len(parts) != 2 or parts[0] not in ("test", "bench", "soak"):
            sys.exit(f"{path}:{lineno}: expected '<kind> <name> : <command>'")
        if parts[0] == kind:
            suites.append((parts[1], cmd.strip()))
    return suites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="proto")
    ap.add_argument("--kind", default="test")
    ap.add_argument("--only", help="run only suites whose name contains this")
    ap.add_argument("--jobs", type=int, default=1, help="suites run side by side")
    ap.add_argument("--random-seed", action="store_true",
                    help="draw a random SEED when the environment has none (make soak)")
    ap.add_argument("list")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    logdir = os.path.join(root, "build", a.config, "logs")
    os.makedirs(logdir, exist_ok=True)
    env = dict(os.environ, CONFIG=a.config)
    seed = env.get("SEED", "")
    if not seed and a.random_seed:
        seed = env["SEED"] = str(random.SystemRandom().randrange(1, 1 << 31))
    if seed:
        print(f"[{a.kind}] seed {seed} for every suite (reproduce: SEED={seed} make {a.kind})", flush=True)
    else:
        print(f"[{a.kind}] seeds: each suite's fixed default (SEED=N make {a.kind} sets them all)", flush=True)
    total_p = total_f = 0
    rows = []
    t_all = time.time()
    todo = [(n, c) for n, c in parse(a.list, a.kind) if not a.only or a.only in n]

    def run(name, cmd):
        log = os.path.join(logdir, f"{name}.log")
        t0 = time.time()
        with open(log, "w") as f:
            r = subprocess.run(cmd, shell=True, cwd=root, env=env, stdout=f,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return log, r.returncode, time.time() - t0

    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futs = {pool.submit(run, n, c): n for n, c in todo}
        if a.jobs > 1:
            print(f"[{a.kind}] {len(todo)} suites, {a.jobs} at a time", flush=True)
        for fut in as_completed(futs):
            name = futs[fut]
            log, rc, dt = fut.result()
            p = fl = None
            for line in open(log, errors="replace"):
                m = SUMMARY.match(line.strip())
                if m:
                    p, fl = int(m.group(1)), int(m.group(2))
            note = ""
            if p is None:
                p, fl = 0, 1
                note = f" (exit {rc}, no summary line)"
            elif p == 0 and fl == 0:
                fl = 1
                note = f" (exit {rc}, ran no checks: summary '0 passed, 0 failed')"
            elif rc != 0 and fl == 0:
                fl = 1
                note = f" (exit {rc})"
            total_p += p
            total_f += fl
            status = "ok" if fl == 0 else "FAIL"
            print(f"[{a.kind}] {name:<24} {status:<4} {p:5d} passed {fl:4d} failed {dt:7.1f}s{note}", flush=True)
            if fl:
                print(f"    --- last lines of {os.path.relpath(log, root)} ---")
                lines = open(log, errors="replace").read().splitlines()
                for line in lines[-15:]:
                    print("    " + line)
            rows.append((name, p, fl, dt))
    print(f"total time {time.time() - t_all:.1f}s, logs in {os.path.relpath(logdir, root)}/")
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())
