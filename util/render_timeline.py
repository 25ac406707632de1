#!/usr/bin/env python3
"""Draw an engine-activity timeline (chip_tb --timeline, docs/sim.md "Timeline") as an SVG.

Input: the trace-event JSON the simulator writes (one process per chip, one thread per
track, "X" events in microseconds with 1 ns = 1 cycle, each also giving its start cycle
and length in cycles). Output: one plain SVG (like the project's other plots, no plotting
library): a row of horizontal bars per track over cycles, chips stacked top to bottom,
one colour per state, and a legend. Counter series ("C" events) are not drawn.

  python3 util/render_timeline.py TRACE.json OUT.svg [--tracks REGEX] [--span REGEX]
                                  [--from C] [--to C] [--title T]

  --tracks REGEX  only the tracks whose name matches (default: every track with events)
  --span REGEX    the cycle range: from the first to the last event of the tracks that
                  match (for example "NIC" to leave out the setup), 2 % margin each side
  --from/--to C   the cycle range explicitly (override --span)

Runs shorter than one pixel are merged with the next run of the same state when the gap
between them is below a pixel, so a dense track stays readable (and the file small).
"""
import argparse
import json
import math
import re
import sys
from xml.sax.saxutils import escape

# state name -> colour; states not listed get one of EXTRA in order of appearance
COLOURS = {
    "busy": "#4e79a7",
    "running": "#59a14f",
    "packets": "#f28e2b",
    "engine barrier": "#bab0ac",
    "work-request queue full": "#bab0ac",
    "fence wait": "#d4a6c8",
    "WAIT packet": "#9d7660",
    "data": "#e15759",
    "ACK": "#76b7b2",
    "data, wire busy": "#ff9d9a",
    "ACK, wire busy": "#b7dcd9",
    "receiving": "#4e79a7",
    "receive held": "#a0cbe8",
    "writing memory": "#edc948",
}
EXTRA = ["#b07aa1", "#8cd17d", "#86bcb6", "#f1ce63", "#79706e", "#d37295"]

LABEL_W = 150  # track names
PLOT_W = 900
ROW_H = 13
BAR_H = 10
CHIP_GAP = 22
TOP = 40


def load(path):
    with open(path) as f:
        doc = json.load(f)
    procs, threads, events = {}, {}, []
    for e in doc.get("traceEvents", []):
        ph, pid = e.get("ph"), e.get("pid", 0)
        if ph == "M":
            args = e.get("args", {})
            if e.get("name") == "process_name":
                procs.setdefault(pid, {})["name"] = args.get("name", str(pid))
            elif e.get("name") == "process_sort_index":
                procs.setdefault(pid, {})["sort"] = args.get("sort_index", pid)
            elif e.get("name") == "thread_name":
                threads.setdefault((pid, e.get("tid", 0)), {})["name"] = args.get("name", "")
            elif e.get("name") == "thread_sort_index":
                threads.setdefault((pid, e.get("tid", 0)), {})["sort"] = args.get("sort_index", 0)
        elif ph == "X":
            a = e.get("args", {})
            start = a.get("start cycle", round(float(e["ts"]) * 1000))
            length = a.get("cycles", round(float(e["dur"]) * 1000))
            events.append((pid, e.get("tid", 0), e.get("name", ""), int(start), int(start) + int(length)))
    return doc, procs, threads, events


def nice_step(span, target=10):
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def fmt_cycles(c):
    return f"{c:,}".replace(",", "\u2009")


def render(doc, procs, threads, events, args):
    track_re = re.compile(args.tracks) if args.tracks else None
    used = {}
    for pid, tid, name, s, n in events:
        tname = threads.get((pid, tid), {}).get("name", str(tid))
        if track_re and not track_re.search(tname):
            continue
        used.setdefault((pid, tid), []).append((s, n, name))
    if not used:
        sys.exit("render_timeline: no events on the selected tracks")
    lo = min(s for v in used.values() for s, _, _ in v)
    hi = max(n for v in used.values() for _, n, _ in v)
    if args.span:
        span_re = re.compile(args.span)
        sel = [(s, n) for (pid, tid), v in used.items()
               if span_re.search(threads.get((pid, tid), {}).get("name", "")) for s, n, _ in v]
        if not sel:
            sys.exit(f"render_timeline: no events on tracks matching {args.span!r}")
        lo, hi = min(s for s, _ in sel), max(n for _, n in sel)
        margin = max(1, (hi - lo) // 50)
        lo, hi = max(0, lo - margin), hi + margin
    if args.start is not None:
        lo = args.start
    if args.end is not None:
        hi = args.end
    if hi <= lo:
        sys.exit("render_timeline: empty cycle range")
    cpp = (hi - lo) / PLOT_W  # cycles per pixel

    def x(c):
        return LABEL_W + (min(max(c, lo), hi) - lo) / cpp

    pids = sorted({p for p, _ in used}, key=lambda p: (procs.get(p, {}).get("sort", p), p))
    colours, order = dict(COLOURS), []
    out, y = [], TOP
    for pid in pids:
        tids = sorted((t for p, t in used if p == pid), key=lambda t: (threads.get((pid, t), {}).get("sort", t), t))
        pname = procs.get(pid, {}).get("name", f"process {pid}")
        out.append(f'<text x="4" y="{y + 10}" font-weight="bold">{escape(pname)}</text>')
        y += 14
        for tid in tids:
            tname = threads.get((pid, tid), {}).get("name", str(tid))
            out.append(f'<text x="{LABEL_W - 6}" y="{y + BAR_H - 1}" text-anchor="end">{escape(tname)}</text>')
            out.append(f'<line x1="{LABEL_W}" y1="{y + ROW_H - 1.5}" x2="{LABEL_W + PLOT_W}" y2="{y + ROW_H - 1.5}" '
                       'stroke="#eee"/>')
            runs = sorted(r for r in used[(pid, tid)] if r[1] > lo and r[0] < hi)
            merged = []
            for s, n, st in runs:  # merge same-state runs closer than a pixel
                if merged and merged[-1][2] == st and s - merged[-1][1] < cpp:
                    merged[-1][1] = max(merged[-1][1], n)
                else:
                    merged.append([s, n, st])
            for s, n, st in merged:
                if st not in colours:
                    colours[st] = EXTRA[len([c for c in colours if c not in COLOURS]) % len(EXTRA)]
                if st not in order:
                    order.append(st)
                w = max(x(n) - x(s), 0.6)
                out.append(f'<rect x="{x(s):.1f}" y="{y}" width="{w:.1f}" height="{BAR_H}" fill="{colours[st]}">'
                           f'<title>{escape(tname)}: {escape(st)}, cycles {s}..{n} ({n - s})</title></rect>')
            y += ROW_H
        y += CHIP_GAP - 14
    # axis
    axis_y = y + 4
    out.append(f'<line x1="{LABEL_W}" y1="{axis_y}" x2="{LABEL_W + PLOT_W}" y2="{axis_y}" stroke="#333"/>')
    step = nice_step(hi - lo)
    c = math.ceil(lo / step) * step
    while c <= hi:
        out.append(f'<line x1="{x(c):.1f}" y1="{TOP}" x2="{x(c):.1f}" y2="{axis_y + 4}" stroke="#ddd" '
                   'stroke-dasharray="2,3"/>')
        out.append(f'<text x="{x(c):.1f}" y="{axis_y + 16}" text-anchor="middle">{fmt_cycles(c)}</text>')
        c += step
    out.append(f'<text x="{LABEL_W + PLOT_W / 2}" y="{axis_y + 32}" text-anchor="middle">cycle</text>')
    # legend
    ly, lx = axis_y + 48, LABEL_W
    for st in order:
        wtxt = 7 * len(st) + 30
        if lx + wtxt > LABEL_W + PLOT_W:
            lx, ly = LABEL_W, ly + 16
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="10" fill="{colours[st]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{escape(st)}</text>')
        lx += wtxt
    height = ly + 14
    title = args.title or doc.get("otherData", {}).get("title", "timeline")
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{LABEL_W + PLOT_W + 10}" height="{height}" '
            f'font-family="sans-serif" font-size="10">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n'
            f'<text x="{LABEL_W}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>\n'
            f'<text x="{LABEL_W}" y="32" fill="#555">cycles {fmt_cycles(lo)} to {fmt_cycles(hi)}</text>\n')
    return head + "\n".join(out) + "\n</svg>\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--tracks", help="regex: only the tracks whose name matches")
    ap.add_argument("--span", help="regex: cycle range = the events of the matching tracks")
    ap.add_argument("--from", dest="start", type=int, help="first cycle drawn")
    ap.add_argument("--to", dest="end", type=int, help="last cycle drawn")
    ap.add_argument("--title")
    a = ap.parse_args()
    doc, procs, threads, events = load(a.trace)
    svg = render(doc, procs, threads, events, a)
    with open(a.out, "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
