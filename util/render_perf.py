#!/usr/bin/env python3
"""Render docs/performance.md and its plots from the benchmark results file.

Input: docs/results/<config>.json (util/bench_collect.py, written by `make bench`) and
the page's text, docs/results/performance.md.in: markdown in which a line holding only
a directive is replaced by what it names; every figure of the page comes from there.

  @meta                 the run: configuration, commit, date, tools
  @suites               every bench suite: status, number of records
  @table SUITE [REGEX]  the records of SUITE (whose name matches REGEX): one table per
                        set of fields (case, measured, ideal, utilization, the bench's
                        own fields)
  @plot mme | tpc | nic an SVG plot written next to the page (docs/mme_utilization.svg,
                        docs/tpc_scaling.svg, docs/nic_goodput.svg) and its image link

Every record must appear in some @table (the script fails otherwise), so a new bench
shows up as an error until the page says what it measures.

Figures quoted in README.md and the block pages (docs/*.md) are rendered from the same
file, between HTML-comment markers (invisible in the rendered markdown):

  <!--bench SUITE:NAME FIELD [FMT]-->97.4 %<!--/bench-->
        one field of one record (cycles, ideal, util or a bench field)
  <!--bench ratio SUITE:NAME FIELD SUITE:NAME FIELD [FMT]-->x1.95<!--/bench-->
        the quotient of two fields (a speed-up: one engine's cycles / two engines')
  <!--bench-table SUITE [REGEX]-->
  ...table lines...
  <!--/bench-table-->
        the records of SUITE (whose name matches REGEX) as in docs/performance.md

FMT: pct (a fraction as "97.4 %"), int ("65 610"), f0 .. f3 (that many decimals),
x2 ("×1.95"). Without FMT a value is written as in docs/performance.md. A marker naming a
record or field that the results do not hold is an error, so a renamed bench cannot leave
a stale figure behind.

  python3 util/render_perf.py                  write docs/performance.md and the SVGs
  python3 util/render_perf.py --check          render into a temp dir; fail if the committed
                                               page, plots or marked figures differ (`make docs`)
"""
import argparse
import difflib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "util"))
import mme_bench_plot  # noqa: E402  (SVG drawing reused)
import nic_bench_plot  # noqa: E402
import tpc_bench_plot  # noqa: E402

BASE = ("name", "unit", "cycles", "ideal", "util", "suite")
HEAD = {"stall_in": "stall in", "stall_out": "stall out", "busy": "engine busy", "c_type": "C type",
        "set_hash": "set hash", "l2": "L2", "perf_busy": "PERF_BUSY", "tpc_busy": "TPC cycles",
        "stall_ld": "stalls: loads", "stall_st": "stores", "stall_arb": "arbiter", "kib": "KiB",
        "tpcs": "TPCs", "wr_alloc": "writes allocate", "row_bytes": "row bytes", "elem": "element bytes",
        "total": "doorbell to completion", "wait_read": "write side waited for reads",
        "writebacks": "write-backs", "consumer_cycles": "consumer alone", "producer": "producer alone",
        "target_ratio": "target (x the longer)", "stall_mem_pct": "memory stalls %",
        "stall_dep_pct": "dependency stalls %", "ld_stall_pct": "load stalls %", "bytes_rd": "bytes read",
        "bytes_wr": "bytes written", "rd_in_flight_avg": "reads in flight (avg)", "rd_idle_pct": "no read in flight %",
        "rd_out_max": "reads in flight (max)", "w_beats": "W beats", "per_channel": "per channel",
        "r_beats_per_cycle": "R beats/cycle", "w_beats_per_cycle": "W beats/cycle", "fetch_stalls": "fetch stalls",
        "hbm_latency": "HBM latency", "host_latency": "host latency", "mem_latency": "memory latency",
        "peak_bytes_per_cycle": "peak B/cycle", "stream_cycles": "stream job cycles",
        "stream_misses": "stream job misses", "target_idle": "target idle", "tpc_run": "TPC run", "wakeup_min":
        "firmware wake-up (min)", "instructions_per_job": "instructions/job", "passes_per_job": "scheduler passes/job",
        "total_cycles": "total cycles", "sim_cycles": "simulated cycles", "burst_beats": "burst beats",
        "consumer": "consumer", "contiguous": "contiguous", "size": "WRITE bytes", "writes": "WRITEs",
        "mtu": "MTU", "bytes_per_cycle": "payload B/cycle", "drop_pct": "drop % per link",
        "of_lossless": "of lossless", "wire_only": "wire alone", "tx": "doorbell to first beat",
        "link": "link", "rx_to_aw": "RX to AW", "rx_to_wlast": "RX to last W", "wlast_to_ack": "last W to ACK",
        "ack_link": "ACK link", "ack_to_cpl": "ACK to completion", "wlast_to_b": "last W to B"}
PLOTS = {"mme": "mme_utilization.svg", "tpc": "tpc_scaling.svg", "nic": "nic_goodput.svg"}


def fmt(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}".replace(",", "\u202f")
    if isinstance(v, float):
        if abs(v) >= 1000:
            return fmt(int(round(v)))
        return f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"
    if v is None:
        return ""
    return str(v).replace("|", "\\|")


def case(r, suite):
    """A record's name without the suite's own prefix."""
    n = r["name"]
    for p in (suite + "/", n.split("/")[0] + "/bench_", n.split("/")[0] + "/"):
        if n.startswith(p):
            return n[len(p):]
    return n


def tables(recs, suite):
    """Markdown tables of `recs`: one per field set, in first-seen order."""
    groups = {}
    for r in recs:
        keys = tuple(k for k in r if k not in BASE)
        groups.setdefault((r["unit"], keys), []).append(r)
    out = []
    for (unit, keys), rs in groups.items():
        has_ideal = any(r["ideal"] for r in rs)
        cols = ["case", unit] + (["ideal", "utilization"] if has_ideal else []) + [HEAD.get(k, k) for k in keys]
        out.append("| " + " | ".join(cols) + " |")
        out.append("|" + "---|" * len(cols))
        for r in rs:
            row = [f"`{case(r, suite)}`", fmt(r["cycles"])]
            if has_ideal:
                row += [fmt(r["ideal"]) if r["ideal"] else "",
                        f"{100.0 * r['util']:.1f} %" if r.get("util") is not None else ""]
            row += [fmt(r.get(k)) for k in keys]
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    return out[:-1]


def meta(res):
    t = res.get("tools", {})
    commit = (res.get("commit") or "?")[:12] + (" (with uncommitted changes)" if res.get("dirty") else "")
    kept = sorted({(s["commit"][:12], s.get("date") or "?") for s in res["suites"].values() if s.get("commit")})
    older = "".join(f" Suites marked † were not rerun: their records are those of the run at commit `{c}` "
                    f"({d}), kept by util/bench_collect.py --keep." for c, d in kept)
    return [f"Configuration `{res['config']}`, commit `{commit}`, run {res.get('date') or '?'}; "
            f"{len(res['records'])} records from {len(res['suites'])} bench suites.{older}",
            "Tools: " + "; ".join(f"{k} `{v}`" for k, v in sorted(t.items())) + "."]


def suites_table(res):
    out = ["| suite | status | checks passed / failed | records | from | note |", "|---|---|---|---|---|---|"]
    for n, s in res["suites"].items():
        src = {"records": "BENCH lines", "legacy": "human-readable lines (bench_legacy.py)"}.get(s["source"], "")
        out.append(f"| `{n}`{' †' if s.get('commit') else ''} | {s['status']} | {s['passed']} / {s['failed']} | "
                   f"{s['records']} | {src} | {fmt(s.get('note'))} |")
    return out


# ---------------------------------------------------------------- plots
def plot_mme(recs):
    """Utilization per GEMM case: the chip bench (cold/warm L2, FP32 C) and the block bench."""
    series = []
    for ty, tname in (("bf16", "BF16"), ("e4m3", "FP8 E4M3")):
        chip = [r for r in recs if r["suite"] == "mme_chip" and r.get("type") == ty and r.get("c_type") == "fp32"]
        for l2 in sorted({(r["l2"], r["set_hash"]) for r in chip}):
            label = f"{tname}, chip, L2 {l2[0]}" + (", hashed sets" if l2[1] else "")
            series.append((label, {mme_bench_plot.case_name(f"{r['m']}x{r['n']}x{r['k']}", r["engines"], r["split"]):
                                   100.0 * r["util"] for r in chip if (r["l2"], r["set_hash"]) == l2}))
        blk = [r for r in recs if r["suite"] == "mme" and r.get("type") == ty]
        if blk:
            series.append((f"{tname}, block testbench",
                           {mme_bench_plot.case_name(f"{r['m']}x{r['n']}x{r['k']}", r["engines"], "cols"):
                            100.0 * r["util"] for r in blk}))
    keys = sorted({c for _, d in series for c in d}, key=lambda c: (
        0 if re.match(r"\d+x \(", c) else 1, int(re.match(r"(\d+)x \(", c).group(1)) if re.match(r"\d+x \(", c) else 0, c))
    if not keys:
        return None
    return mme_bench_plot.svg(series, keys, "MME utilization vs GEMM size (one MME unless noted)")


def plot_tpc(recs):
    """Share of the HBM roofline of the adds, and scaling with the TPC count."""
    adds, rows = {}, {}
    for r in recs:
        if r["suite"] != "tpc_chip" or "tpcs" not in r or "kernel" not in r:
            continue
        if r.get("kib") is not None and r["ideal"]:
            adds.setdefault((r["name"].split("/")[1], r["kernel"], r["type"], r["kib"]), {})[r["tpcs"]] = r
        elif r.get("kib") is None:
            rows.setdefault((r["kernel"], r["type"], f"{r['rows']} x {r['cols']}"), {})[r["tpcs"]] = r
    if not adds:
        return None
    tpcs = sorted({n for pts in adds.values() for n in pts})
    colours = ["#1f5fa8", "#7fb0e6", "#c0561b", "#f2a470", "#3a8a3a", "#9ad09a", "#7a3a9a", "#c8a0dc",
               "#8a6a1a", "#d0b060", "#1a7a7a", "#80c8c8"]
    roof, scal = [], []
    for i, (key, pts) in enumerate(sorted(adds.items())):
        size = f"{key[3] // 1024} MiB" if key[3] >= 1024 else f"{key[3]} KiB"
        label = f"{key[0]}, {size}"
        colour = colours[i % len(colours)]
        roof.append((label, colour, {n: 100.0 * r["util"] for n, r in pts.items()}))
        if 1 in pts and len(pts) > 1:
            scal.append((label, colour, {n: 100.0 * pts[1]["cycles"] / (r["cycles"] * n) for n, r in pts.items()}))
    for j, (key, pts) in enumerate(sorted(rows.items())):
        if 1 in pts and len(pts) > 1:
            scal.append((f"{key[0]} {key[1]} [{key[2]}]", colours[(len(adds) + j) % len(colours)],
                         {n: 100.0 * pts[1]["cycles"] / (r["cycles"] * n) for n, r in pts.items()}))
    W, H = 1100, 520
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>']
    tpc_bench_plot.panel(o, 0, W / 2, H - 96, 50, "share of the HBM roofline", roof, 0.0, 100.0,
                         [(90, "target 90 %")], tpcs)
    tpc_bench_plot.panel(o, W / 2, W / 2, H - 96, 50, "scaling (% of linear)", scal, 0.0, 110.0,
                         [(90, "target 90 %")], tpcs)
    tpc_bench_plot.legend(o, 60, H - 76, roof + [s for s in scal if s[0] not in {x[0] for x in roof}], W - 20)
    o.append("</svg>")
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------- marked figures in other pages
INLINE = re.compile(r"<!--bench ([^>]*?)-->(.*?)<!--/bench-->")
TABLE = re.compile(r"(<!--bench-table ([^>]*?)-->\n)(.*?)(<!--/bench-table-->)", re.S)


def fmt_value(v, f):
    if f is None:
        return fmt(v)
    if v is None:
        raise ValueError("no value")
    if f == "pct":
        return f"{100.0 * v:.1f} %"
    if f == "int":
        return fmt(int(round(v)))
    if f in ("f0", "f1", "f2", "f3"):
        return f"{v:.{f[1]}f}"
    if f == "x2":
        return f"\u00d7{v:.2f}"
    raise ValueError(f"unknown format {f}")


def find_record(res, ref):
    suite, _, name = ref.partition(":")
    for r in res["records"]:
        if r["suite"] == suite and r["name"] == name:
            return r
    raise ValueError(f"no record {ref}")


def field(res, ref, key):
    r = find_record(res, ref)
    if key not in r:
        raise ValueError(f"record {ref} has no field {key}")
    return r[key]


def inline_value(res, spec):
    d = spec.split()
    if d and d[0] == "ratio" and len(d) in (5, 6):
        a, b = field(res, d[1], d[2]), field(res, d[3], d[4])
        return fmt_value(a / b, d[5] if len(d) == 6 else None)
    if len(d) in (2, 3):
        return fmt_value(field(res, d[0], d[1]), d[2] if len(d) == 3 else None)
    raise ValueError("want SUITE:NAME FIELD [FMT] or ratio SUITE:NAME FIELD SUITE:NAME FIELD [FMT]")


def render_marked(res, text, where):
    """`text` with every marked figure and table re-rendered from `res`."""
    def table(m):
        d = m.group(2).split()
        if len(d) not in (1, 2):
            raise SystemExit(f"render_perf: {where}: bad bench-table marker: {m.group(1).strip()}")
        rx = re.compile(d[1]) if len(d) == 2 else None
        sel = [r for r in res["records"] if r["suite"] == d[0] and (rx is None or rx.search(r["name"]))]
        if not sel:
            raise SystemExit(f"render_perf: {where}: no records for {m.group(1).strip()}")
        return m.group(1) + "\n".join(tables(sel, d[0])) + "\n" + m.group(4)

    def inline(m):
        try:
            v = inline_value(res, m.group(1))
        except (ValueError, ZeroDivisionError, TypeError) as e:
            raise SystemExit(f"render_perf: {where}: <!--bench {m.group(1)}-->: {e}")
        return f"<!--bench {m.group(1)}-->{v}<!--/bench-->"

    return INLINE.sub(inline, TABLE.sub(table, text))


def marked_pages():
    """README.md and the docs pages that hold markers (paths relative to ROOT)."""
    out = []
    for rel in ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                                      if f.endswith(".md") and f != "performance.md"):
        text = open(os.path.join(ROOT, rel)).read()
        if "<!--bench" in text:
            out.append(rel)
    return out


# ---------------------------------------------------------------- page
def render(res, template):
    """(page text, {svg file name: text})."""
    recs = res["records"]
    used, svgs, out = set(), {}, []
    for n, line in enumerate(template.splitlines(), 1):
        d = line.split()
        if not d or not d[0].startswith("@") or d[0] in ("@", "@@"):
            out.append(line)
            continue
        if d[0] == "@meta":
            out += meta(res)
        elif d[0] == "@suites":
            out += suites_table(res)
        elif d[0] == "@table" and len(d) in (2, 3):
            rx = re.compile(d[2]) if len(d) == 3 else None
            sel = [r for r in recs if r["suite"] == d[1] and (rx is None or rx.search(r["name"]))]
            if not sel:
                st = res["suites"].get(d[1], {}).get("status", "not in the results")
                out.append(f"(no records: suite `{d[1]}` {st})")
            else:
                out += tables(sel, d[1])
            used |= {id(r) for r in sel}
        elif d[0] == "@plot" and len(d) == 2 and d[1] in PLOTS:
            s = {"mme": plot_mme, "tpc": plot_tpc, "nic": nic_bench_plot.svg}[d[1]](recs)
            if s is None:
                out.append(f"(no records for the {d[1]} plot)")
            else:
                svgs[PLOTS[d[1]]] = s
                out.append(f"![{d[1]} benchmarks]({PLOTS[d[1]]})")
        else:
            raise SystemExit(f"render_perf: template line {n}: unknown directive: {line}")
    missing = [r["name"] for r in recs if id(r) not in used]
    if missing:
        raise SystemExit("render_perf: records in no @table of the template: " + ", ".join(missing[:20]) +
                         (f" and {len(missing) - 20} more" if len(missing) > 20 else ""))
    return "\n".join(out).rstrip("\n") + "\n", svgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results", "proto.json"))
    ap.add_argument("--template", default=os.path.join(ROOT, "docs", "results", "performance.md.in"))
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--check", action="store_true", help="fail if the committed page/plots differ")
    a = ap.parse_args()
    res = json.load(open(a.results))
    page, svgs = render(res, open(a.template).read())
    # path relative to ROOT -> rendered text: the page, its plots, the pages with markers
    files = {os.path.relpath(os.path.join(a.out_dir, n), ROOT): t for n, t in dict(svgs, **{"performance.md": page}).items()}
    for rel in marked_pages():
        files[rel] = render_marked(res, open(os.path.join(ROOT, rel)).read(), rel)
    src = os.path.relpath(a.results, ROOT)
    if a.check:
        bad = []
        for rel, text in files.items():
            committed = os.path.join(ROOT, rel)
            old = open(committed).read() if os.path.exists(committed) else ""
            if old != text:
                bad.append(rel)
                diff = difflib.unified_diff(old.splitlines(), text.splitlines(), rel, "rendered", lineterm="", n=1)
                print("\n".join(list(diff)[:30]))
        if bad:
            raise SystemExit(f"render_perf: {', '.join(bad)} differ from {src} (run python3 util/render_perf.py)")
        print(f"render_perf: docs/performance.md, {len(svgs)} plot(s) and the figures in "
              f"{len(files) - len(svgs) - 1} page(s) match {src}")
        return
    for rel, text in files.items():
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
    print(f"render_perf: wrote docs/performance.md, {len(svgs)} plot(s) and the figures in "
          f"{len(files) - len(svgs) - 1} page(s) from {src}")


if __name__ == "__main__":
    main()
