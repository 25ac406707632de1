#!/usr/bin/env python3
"""Collect the benchmark records of a `make bench` run into one results file.

Every bench (kind `bench` in tests/suites.txt) prints one line per measurement,

  BENCH {"name": "...", "unit": "cycles", "cycles": N, "ideal": N, "util": x, ...}

(tests/framework/bench_rec.h). This script reads the suites' logs
(build/<config>/logs/<suite>.log, written by tests/run_suites.py), gathers those lines
and writes docs/results/<config>.json:

  {"config", "commit", "dirty", "date", "tools": {...},
   "suites": {suite: {"status", "passed", "failed", "records", "source"}},
   "records": [{"suite": ..., "name": ..., "unit": ..., "cycles": ..., ...}]}

A log without any BENCH line (a run from before the benches printed records) is read
by util/bench_legacy.py from the benches' human-readable lines instead; "source" says
which. util/render_perf.py renders docs/performance.md from the file.

  python3 util/bench_collect.py --config proto [-o docs/results/proto.json]

Running only some benches: run them (their logs land in build/<config>/logs), then

  python3 util/bench_collect.py --config proto --keep docs/results/proto.json

takes every suite without a log from the committed results file instead (its records,
status and counts unchanged; the suite entry then names the commit and date of that
earlier run; docs/performance.md marks them), so the file still holds every bench suite.
Rerun a suite whenever what it measures may have changed.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "util"))

RECORD = re.compile(r"BENCH (\{.*\})\s*$")
RUN = re.compile(r"^\[ RUN  \] ")
FAIL = re.compile(r"^\[ FAIL \] ")
SUMMARY = re.compile(r"^(?:\w+:\s*)?(\d+) passed, (\d+) failed")


def suite_lines(path, kind):
    """[(name, command)] of the lines of kind `kind` of tests/suites.txt, in order."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, cmd = line.partition(":")
        parts = head.split()
        if len(parts) == 2 and parts[0] == kind:
            out.append((parts[1], cmd.strip()))
    return out


def bench_suites(path):
    """[(name, command)] of the `bench` lines of tests/suites.txt, in order."""
    return suite_lines(path, "bench")


def read_records(lines, suite):
    """The BENCH records of a log (in order); a repeated name keeps the last one. The
    records of a chip test that then failed ("[ FAIL ]" after its "[ RUN  ]") are dropped."""
    recs, current = {}, []
    for n, line in enumerate(lines, 1):
        if RUN.match(line):
            current = []
        elif FAIL.match(line):
            for name in current:
                recs.pop(name, None)
            current = []
        m = RECORD.search(line)
        if not m:
            continue
        try:
            r = json.loads(m.group(1))
        except json.JSONDecodeError as e:
            raise SystemExit(f"bench_collect: {suite} log line {n}: bad record ({e}): {line.strip()}")
        if "name" not in r or "cycles" not in r:
            raise SystemExit(f"bench_collect: {suite} log line {n}: record without name/cycles")
        r.setdefault("unit", "cycles")
        if "util" not in r:  # a bench that cannot compute it (RV32IM firmware without floats)
            ideal, val = r.get("ideal") or 0, r["cycles"]
            rate = not r.get("unit", "cycles").startswith("cycles")
            r["util"] = round((val / ideal if rate else ideal / val), 4) if ideal and val else None
        recs[r["name"]] = dict({"suite": suite}, **r)
        current.append(r["name"])
    return list(recs.values())


def summary(lines):
    """Passed and failed counts: the sum of the log's summary lines (a suite whose command
    runs several programs, or a log of several runs of one program, has one per run)."""
    p = f = None
    for line in lines:
        m = SUMMARY.match(line.strip())
        if m:
            p, f = (p or 0) + int(m.group(1)), (f or 0) + int(m.group(2))
    return p, f


def run(cmd):
    try:
        return subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def tool_versions():
    first = lambda s: s.splitlines()[0] if s else "?"
    return {
        "verilator": first(run("verilator --version")),
        "cc": first(run("cc --version")),
        "riscv_cc": first(run("riscv64-unknown-elf-gcc --version")),
        "python": sys.version.split()[0],
    }


def dumps(res):
    """JSON with one record per line (reviewable diffs between runs)."""
    head = {k: v for k, v in res.items() if k not in ("suites", "records")}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(' "suites": {')
    items = list(res["suites"].items())
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}" + ("," if i + 1 < len(items) else "")
              for i, (k, v) in enumerate(items)]
    lines.append(" },")
    lines.append(' "records": [')
    recs = res["records"]
    lines += ["  " + json.dumps(r) + ("," if i + 1 < len(recs) else "") for i, r in enumerate(recs)]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="proto")
    ap.add_argument("--suites", default=os.path.join(ROOT, "tests", "suites.txt"))
    ap.add_argument("--logs", action="append",
                    help="log directory (default build/<config>/logs); given several times, a suite's "
                         "log is taken from the first directory where it has BENCH records, else from "
                         "the first where it exists")
    ap.add_argument("-o", "--out", help="default docs/results/<config>.json")
    ap.add_argument("--commit", help="commit the logs were made at (default: HEAD)")
    ap.add_argument("--date", help="date of the run (default: the newest log's time)")
    ap.add_argument("--note", action="append", default=[], metavar="SUITE=TEXT",
                    help="a remark on a suite's run (e.g. which of its cases ran), kept in the results file "
                         "and shown in docs/performance.md")
    ap.add_argument("--keep", metavar="RESULTS",
                    help="an earlier results file: suites without a log keep its records (see above)")
    a = ap.parse_args()
    kept = json.load(open(a.keep)) if a.keep else None
    logdirs = a.logs or [os.path.join(ROOT, "build", a.config, "logs")]
    out = a.out or os.path.join(ROOT, "docs", "results", f"{a.config}.json")

    suites, records, newest = {}, [], 0.0
    for name, _ in bench_suites(a.suites):
        paths = [p for p in (os.path.join(d, f"{name}.log") for d in logdirs) if os.path.exists(p)]
        path = next((p for p in paths if any(RECORD.search(l) for l in open(p, errors="replace"))),
                    paths[0] if paths else None)
        if path is None and kept and kept["suites"].get(name, {}).get("status", "not run") != "not run":
            suites[name] = dict(kept["suites"][name])
            suites[name].setdefault("commit", kept["commit"])
            suites[name].setdefault("date", kept["date"])
            records += [r for r in kept["records"] if r["suite"] == name]
            continue
        if path is None:
            suites[name] = {"status": "not run", "passed": 0, "failed": 0, "records": 0, "source": None}
            continue
        newest = max(newest, os.path.getmtime(path))
        lines = open(path, errors="replace").read().splitlines()
        recs, source = read_records(lines, name), "records"
        if not recs:
            import bench_legacy
            recs, source = [dict({"suite": name}, **r) for r in bench_legacy.parse(name, lines)], "legacy"
        p, f = summary(lines)
        status = "ok" if p and not f else ("fail" if p is not None else "no summary")
        suites[name] = {"status": status, "passed": p or 0, "failed": f or 0, "records": len(recs),
                        "source": source if recs else None}
        records += recs

    for n in a.note:
        name, _, text = n.partition("=")
        if name not in suites:
            raise SystemExit(f"bench_collect: --note for an unknown suite {name}")
        suites[name]["note"] = text
    commit = a.commit or run("git rev-parse HEAD")
    dirty = bool(run("git status --porcelain --untracked-files=no")) if not a.commit else False
    date = a.date or (datetime.datetime.fromtimestamp(newest, datetime.timezone.utc)
                      .strftime("%Y-%m-%dT%H:%M:%SZ") if newest else None)
    res = {"config": a.config, "commit": commit, "dirty": dirty, "date": date,
           "tools": tool_versions(), "suites": suites, "records": records}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(dumps(res))
    bad = [n for n, s in suites.items() if s["status"] != "ok" or not s["records"]]
    print(f"bench_collect: {len(records)} records from {len(suites)} suites -> "
          f"{os.path.relpath(out, ROOT)}" + (f"; without records or not passing: {', '.join(bad)}" if bad else ""))


if __name__ == "__main__":
    main()
