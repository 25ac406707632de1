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
JUnit XML: build/<config>/test-results/<name>.xml (bench/soak: <kind>_<name>.xml),
one testcase per case line the suite prints ("[ PASS ] suite/name ...", "PASS name
(...)", "name ... PASS"), else one testcase for the whole suite; a failure's text
is the tail of the suite's log.
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
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor, as_completed

SUMMARY = re.compile(r"^(?:\w+:\s*)?(\d+) passed, (\d+) failed")
# Case lines, as the suites print them: (status, name) from each pattern's groups.
CASE_LINES = (
    # chip_tb / tests/framework: "[ PASS ] suite/name  N cycles  1.23s", "[ FAIL ] suite/name: why";
    # block testbenches: "[  OK  ] name", "[ FAIL ] name (3 errors)"
    re.compile(r"^\[ *(?P<st>PASS|FAIL|SKIP|OK) *\] (?P<name>.+?)(?::|  | \(|$)"),
    # "PASS name (detail)", "FAIL name: why", "FAIL: name (iteration n)"
    re.compile(r"^(?P<st>PASS|FAIL|SKIP):? +(?P<name>[^(:]*[^\s(:])"),
    # "name  ... PASS" (core_isa: tests/core/run_core_tests.py, tb_core)
    re.compile(r"^(?P<name>[\w./-]+) .*\b(?P<st>PASS|FAIL)$"),
)
TAIL_LINES = 40


def cases_of(lines):
    """The suite's named cases in first-seen order: name -> PASS, FAIL or SKIP."""
    cases = {}
    for line in lines:
        for pat in CASE_LINES:
            m = pat.match(line.rstrip())
            if m:
                name, st = m.group("name").strip(), m.group("st").replace("OK", "PASS")
                if cases.get(name) != "FAIL":
                    cases[name] = st
                break
    return cases


def write_junit(path, suite, lines, failed, note, secs):
    """One <testsuite> per suite; a failure carries the tail of the log."""
    tail = "\n".join(lines[-TAIL_LINES:])
    cases = cases_of(lines)
    if not cases or (failed and "FAIL" not in cases.values()):
        # no case lines, or the suite failed outside them (build, exit status, summary)
        cases[suite] = "FAIL" if failed else "PASS"
    ts = ET.Element("testsuite", name=suite, tests=str(len(cases)),
                    failures=str(sum(st == "FAIL" for st in cases.values())),
                    skipped=str(sum(st == "SKIP" for st in cases.values())),
                    errors="0", time=f"{secs:.1f}")
    for name, st in cases.items():
        tc = ET.SubElement(ts, "testcase", classname=suite, name=name)
        if st == "FAIL":
            msg = f"{name} failed" + (note if name == suite else "")
            ET.SubElement(tc, "failure", message=msg).text = tail
        elif st == "SKIP":
            ET.SubElement(tc, "skipped")
    ET.ElementTree(ts).write(path, encoding="utf-8", xml_declaration=True)


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
    xmldir = os.path.join(root, "build", a.config, "test-results")
    os.makedirs(logdir, exist_ok=True)
    os.makedirs(xmldir, exist_ok=True)
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
            lines = open(log, errors="replace").read().splitlines()
            xml = os.path.join(xmldir, f"{name}.xml" if a.kind == "test" else f"{a.kind}_{name}.xml")
            write_junit(xml, name, lines, fl, note, dt)
            print(f"[{a.kind}] {name:<24} {status:<4} {p:5d} passed {fl:4d} failed {dt:7.1f}s{note}", flush=True)
            if fl:
                print(f"    --- last lines of {os.path.relpath(log, root)} ---")
                for line in lines[-15:]:
                    print("    " + line)
            rows.append((name, p, fl, dt))
    print(f"total time {time.time() - t_all:.1f}s, logs in {os.path.relpath(logdir, root)}/, "
          f"JUnit XML in {os.path.relpath(xmldir, root)}/")
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())
