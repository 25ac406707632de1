#!/usr/bin/env python3
"""Line and toggle coverage of the chip regression, summarised per RTL block.

`make coverage` builds the coverage variant of the chip model (build/<config>/cov/chip_tb:
Verilator --coverage-line --coverage-toggle, mk/sim.mk SIM_COV=1), then runs this script:

  run     the chip suite's shards (the `chip_shard*` lines of tests/suites.txt, with
          ./chip_tb replaced by the coverage build) one after the other; each process
          writes its counters to build/<config>/cov/data/<shard>.dat at exit
          (sim/src/tessera_sim.cpp, TSIM_COVERAGE_FILE); logs in build/<config>/cov/logs/
  report  merge the data files with verilator_coverage (build/<config>/cov/coverage.dat),
          write the annotated sources (build/<config>/cov/annotated/, a line starting
          with %000000 was never reached), and summarise per block: the folder under rtl/
          of each coverage point's source file -> points hit / points, for line coverage
          (Verilator's line and branch points) and toggle coverage (one point per signal
          bit and direction). Written to docs/results/coverage_<config>.json (with the
          largest uncovered parts: the source ranges with most never-hit line points) and
          rendered into docs/testing.md between <!--coverage-table CONFIG--> markers.
  check   fail if the table in docs/testing.md differs from the results file (`make docs`)

  python3 util/coverage.py [--config proto] [--chip-args ARGS] [run] [report]   (default: run report)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "testing.md")
sys.path.insert(0, os.path.join(ROOT, "util"))
import bench_collect  # noqa: E402  (tests/suites.txt reader)

MARK = re.compile(r"(<!--coverage-table (\w+)-->\n)(.*?)(<!--/coverage-table-->)", re.S)


def shards(suites_path):
    """[(name, command)] of the chip suite's shard lines."""
    return [(n, c) for n, c in bench_collect.suite_lines(suites_path, "test") if n.startswith("chip_shard")]


def cmd_run(a, cov):
    tb = os.path.join(cov, "chip_tb")
    if not os.path.exists(tb):
        raise SystemExit(f"coverage: {os.path.relpath(tb, ROOT)} missing (make coverage builds it)")
    os.makedirs(os.path.join(cov, "data"), exist_ok=True)
    os.makedirs(os.path.join(cov, "logs"), exist_ok=True)
    for f in os.listdir(os.path.join(cov, "data")):
        os.remove(os.path.join(cov, "data", f))
    rc = 0
    runs = {}
    todo = [("chip_subset", "./chip_tb " + a.chip_args)] if a.chip_args else shards(a.suites)
    for name, cmd in todo:
        if not cmd.startswith("./chip_tb "):
            raise SystemExit(f"coverage: {name}: expected a ./chip_tb command: {cmd}")
        cmd = "nice -n 10 " + tb + cmd[len("./chip_tb"):]  # the simulations share the machine
        log = os.path.join(cov, "logs", f"{name}.log")
        env = dict(os.environ, CONFIG=a.config, TSIM_COVERAGE_FILE=os.path.join(cov, "data", f"{name}.dat"))
        t0 = time.time()
        with open(log, "w") as f:
            p = subprocess.run(cmd, shell=True, cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT)
        secs = time.time() - t0
        last = [l for l in open(log, errors="replace").read().splitlines() if l.strip()][-1:] or ["(no output)"]
        print(f"coverage: {name}: {last[0]} ({secs:.0f} s, log {os.path.relpath(log, ROOT)})")
        runs[name] = {"command": cmd.replace(ROOT + "/", ""), "seconds": round(secs), "summary": last[0],
                      "exit": p.returncode}
        rc |= p.returncode != 0
    with open(os.path.join(cov, "runs.json"), "w") as f:
        json.dump(runs, f, indent=1)
    return rc


def parse_key(key):
    """{'f': file, 'l': line, 'page': ..., ...} of a coverage point's key."""
    out = {}
    for item in key.split("\x01"):
        if "\x02" in item:
            k, v = item.split("\x02", 1)
            out[k] = v
    return out


def block_of(path):
    p = path.replace("\\", "/")
    m = re.search(r"(?:^|/)rtl/([^/]+)/", p)
    if m:
        return m.group(1)
    if "/sim/" in p or p.startswith("sim/"):
        return "(sim top)"
    return "(other: " + os.path.basename(p) + ")"


def summarise(dat):
    blocks, holes = {}, {}
    for line in open(dat, errors="replace"):
        if not line.startswith("C '"):
            continue
        q = line.rfind("'")
        k, n = parse_key(line[3:q]), int(line[q + 1:].strip() or 0)
        page = k.get("page", "")
        kind = "toggle" if page.startswith("v_toggle") else "line" if page.startswith(("v_line", "v_branch")) else None
        if kind is None:
            continue
        f = k.get("f", "?")
        b = blocks.setdefault(block_of(f), {"line": [0, 0], "toggle": [0, 0]})
        b[kind][1] += 1
        if n:
            b[kind][0] += 1
        elif kind == "line":
            rel = re.sub(r"^.*?(?=(?:rtl|sim)/)", "", f)
            holes.setdefault((rel, page.split("/", 1)[-1]), []).append(int(k.get("l", 0)))
    out = {}
    for name in sorted(blocks):
        b = blocks[name]
        out[name] = {kind: {"hit": b[kind][0], "points": b[kind][1],
                            "pct": round(100.0 * b[kind][0] / b[kind][1], 1) if b[kind][1] else None}
                     for kind in ("line", "toggle")}
    # never-reached line points grouped into source ranges (a gap of more than GAP lines
    # starts a new range), the ranges with the most points first
    GAP = 8
    parts = []
    for (f, mod), ls in holes.items():
        ls.sort()
        start = prev = ls[0]
        n = 0
        for l in ls + [None]:
            if l is None or l - prev > GAP:
                parts.append({"file": f, "module": mod, "line_points": n, "lines": f"{start}-{prev}"})
                if l is None:
                    break
                start, n = l, 0
            n += 1
            prev = l
    uncovered = sorted(parts, key=lambda u: (-u["line_points"], u["file"], u["lines"]))[:25]
    return out, uncovered


def table(res):
    out = ["| block (`rtl/<block>/`) | line coverage | line points hit / all | toggle coverage | toggle points hit / all |",
           "|---|---|---|---|---|"]
    tot = {"line": [0, 0], "toggle": [0, 0]}
    pct = lambda h, n: f"{100.0 * h / n:.1f} %" if n else ""
    for name, b in res["blocks"].items():
        for kind in tot:
            tot[kind][0] += b[kind]["hit"]
            tot[kind][1] += b[kind]["points"]
        out.append(f"| `{name}` | {pct(b['line']['hit'], b['line']['points'])} | {b['line']['hit']} / "
                   f"{b['line']['points']} | {pct(b['toggle']['hit'], b['toggle']['points'])} | "
                   f"{b['toggle']['hit']} / {b['toggle']['points']} |")
    out.append(f"| all | {pct(*tot['line'])} | {tot['line'][0]} / {tot['line'][1]} | {pct(*tot['toggle'])} | "
               f"{tot['toggle'][0]} / {tot['toggle'][1]} |")
    runs = res.get("runs", {})
    out.append("")
    out.append(f"Configuration `{res['config']}`, commit `{res['commit'][:12]}`, run {res['date']}; "
               + "; ".join(f"`{r['command']}`: {r['summary']}, {r['seconds']} s" for r in runs.values()) + ".")
    out.append("")
    out.append("Largest never-reached parts (line points with a zero count, per module and file; the "
               "annotated sources show which lines):")
    out.append("")
    out.append("| file | module | line points not reached | lines |")
    out.append("|---|---|---|---|")
    for u in res["uncovered"][:12]:
        out.append(f"| `{u['file']}` | `{u['module']}` | {u['line_points']} | {u['lines']} |")
    return "\n".join(out) + "\n"


def render_page(text, results_of):
    """`text` with every <!--coverage-table CONFIG--> block rendered from results_of(CONFIG)."""
    if not MARK.search(text):
        raise SystemExit("coverage: docs/testing.md has no <!--coverage-table CONFIG--> ... <!--/coverage-table--> markers")
    return MARK.sub(lambda m: m.group(1) + table(results_of(m.group(2))) + m.group(4), text)


def results(config):
    path = os.path.join(ROOT, "docs", "results", f"coverage_{config}.json")
    if not os.path.exists(path):
        raise SystemExit(f"coverage: docs/testing.md shows coverage of {config}, but {os.path.relpath(path, ROOT)} is missing")
    return json.load(open(path))


def git(*args):
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def cmd_report(a, cov):
    datdir = os.path.join(cov, "data")
    parts = sorted(os.path.join(datdir, f) for f in os.listdir(datdir) if f.endswith(".dat")) \
        if os.path.isdir(datdir) else []
    if not parts:
        raise SystemExit("coverage: no data files in " + os.path.relpath(datdir, ROOT) + " (run first)")
    merged = os.path.join(cov, "coverage.dat")
    subprocess.run(["verilator_coverage", "--write", merged] + parts, check=True, stdout=subprocess.DEVNULL)
    ann = os.path.join(cov, "annotated")
    subprocess.run(["verilator_coverage", "--annotate", ann, "--annotate-min", "1", merged], check=True,
                   stdout=subprocess.DEVNULL)
    blocks, uncovered = summarise(merged)
    runs_path = os.path.join(cov, "runs.json")
    runs = json.load(open(runs_path)) if os.path.exists(runs_path) else {}
    res = {"config": a.config, "commit": git("rev-parse", "HEAD"),
           "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(merged))),
           "tool": subprocess.run(["verilator", "--version"], capture_output=True, text=True).stdout.strip()
           + " (--coverage-line --coverage-toggle)",
           "runs": runs, "blocks": blocks, "uncovered": uncovered}
    out = os.path.join(ROOT, "docs", "results", f"coverage_{a.config}.json")
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    print(table(res))
    text = open(PAGE).read()
    if f"<!--coverage-table {a.config}-->" in text:
        new = render_page(text, results)
        if new != text:
            with open(PAGE, "w") as f:
                f.write(new)
    print(f"coverage: {os.path.relpath(out, ROOT)}; merged data {os.path.relpath(merged, ROOT)}, "
          f"annotated sources {os.path.relpath(ann, ROOT)}/")
    return 0


def cmd_check(a):
    text = open(PAGE).read()
    if not MARK.search(text):
        return 0
    if render_page(text, results) != text:
        raise SystemExit("coverage: the coverage table in docs/testing.md differs from docs/results/coverage_<config>.json"
                         " (python3 util/coverage.py render)")
    print("coverage: docs/testing.md matches its docs/results/coverage_<config>.json")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=os.environ.get("CONFIG", "proto"))
    ap.add_argument("--suites", default=os.path.join(ROOT, "tests", "suites.txt"))
    ap.add_argument("--chip-args", help="run one chip_tb with these arguments instead of the shards "
                                        "(a documented subset, e.g. \"--suite all --shard 0/4\")")
    ap.add_argument("steps", nargs="*", default=["run", "report"], choices=["run", "report", "check", "render"])
    a = ap.parse_args()
    cov = os.path.join(ROOT, "build", a.config, "cov")
    rc = 0
    for step in a.steps:
        if step == "run":
            rc |= cmd_run(a, cov)
        elif step == "report":
            rc |= cmd_report(a, cov)
        elif step == "check":
            rc |= cmd_check(a)
        elif step == "render":
            text = open(PAGE).read()
            with open(PAGE, "w") as f:
                f.write(render_page(text, results))
    return rc


if __name__ == "__main__":
    sys.exit(main())
