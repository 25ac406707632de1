#!/usr/bin/env python3
"""Plot the TPC elementwise-add benchmarks against the TPC count (plain SVG).

Input: output of ./chip_tb --test tpc/bench_add_nalloc and tpc/bench_add_bf16_nalloc
(TPCBENCH lines), and optionally of the row-kernel benches tpc/bench_softmax,
tpc/bench_layernorm (and _vlm), one or more files. Two panels, one line per kernel and
tensor size:
  left:  share of the HBM roofline (3 tensors at the HBM bandwidth) of the adds, with the
         issue's 90 % target and the 75 % cap the slices' memory masters put on `add`
         (docs/performance.md);
  right: scaling, cycles on 1 TPC / (cycles on n TPCs * n), with the 0.9 target: the adds
         (memory-bound on 8 TPCs) and the row kernels (compute-bound: the cluster's own).

  python3 util/tpc_bench_plot.py build/tpc_bench.txt -o docs/tpc_scaling.svg
"""
import argparse
import re

LINE_RE = re.compile(r"TPCBENCH (\w+) (\w+) \[(\d+) x (\d+)\] (\d+) KiB/tensor, TPCs (\d+): (\d+) cycles .*?"
                     r"([\d.]+)% of roofline")
ROW_RE = re.compile(r"TPCBENCH (\w+) (\w+) \[(\d+) x (\d+)\] TPCs (\d+): (\d+) cycles, [\d.]+ elements/cycle")


def scan(paths, regex, point):
    """{key: {tpcs: value}} from the lines matching regex; point(m) -> (key, tpcs, value)
    (the last run of a point wins)."""
    out = {}
    for p in paths:
        with open(p) as f:
            for line in f:
                m = regex.search(line)
                if m:
                    key, n, v = point(m)
                    out.setdefault(key, {})[n] = v
    return out


def parse(paths):
    """{(kernel, type, KiB): {tpcs: (cycles, roofline %)}} of the add benches."""
    return scan(paths, LINE_RE, lambda m: ((m.group(1), m.group(2), int(m.group(5))), int(m.group(6)),
                                           (int(m.group(7)), float(m.group(8)))))


def parse_rows(paths):
    """{(kernel, type, 'H x W'): {tpcs: cycles}} of the row-kernel benches."""
    return scan(paths, ROW_RE, lambda m: ((m.group(1), m.group(2), f"{m.group(3)} x {m.group(4)}"),
                                          int(m.group(5)), int(m.group(6))))


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(o, x0, w, h, top, title, series, ymin, ymax, targets, tpcs, xlabel="TPCs", xfmt=str):
    """One line chart at x0: series = [(label, colour, {tpcs: value})]; y in percent. A
    series measured only at some TPC counts (1 MiB: 1 and all) is drawn dashed. The x
    points are evenly spaced in the order of `tpcs`, labelled xfmt(x), the axis `xlabel`
    (util/nic_bench_plot.py draws message sizes and loss rates with it)."""
    left, bottom = 50, 40
    pw, ph = w - left - 10, h - top - bottom
    xs = {n: x0 + left + pw * i / max(1, len(tpcs) - 1) for i, n in enumerate(tpcs)}

    def y(v):
        return top + ph * (1 - (v - ymin) / (ymax - ymin))

    o.append(f'<text x="{x0 + w / 2}" y="{top - 12}" text-anchor="middle" font-size="14">{esc(title)}</text>')
    for v in range(int(ymin), int(ymax) + 1, 10):
        o.append(f'<line x1="{x0 + left}" x2="{x0 + left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{x0 + left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}%</text>')
    for n, x in xs.items():
        o.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{esc(xfmt(n))}</text>')
    o.append(f'<text x="{x0 + left + pw / 2}" y="{top + ph + 34}" text-anchor="middle">{esc(xlabel)}</text>')
    for v, label in targets:
        o.append(f'<line x1="{x0 + left}" x2="{x0 + left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                 f'stroke="#c03030" stroke-dasharray="6,4"/>')
        o.append(f'<text x="{x0 + left + 4}" y="{y(v) - 4:.1f}" fill="#c03030">{esc(label)}</text>')
    for k, (label, colour, pts) in enumerate(series):
        xy = [(xs[n], y(v)) for n, v in sorted(pts.items()) if n in xs]
        dash = "" if len(xy) == len(xs) else ' stroke-dasharray="3,3"'
        if len(xy) > 1:
            o.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' %
                     (colour, dash, " ".join(f"{a:.1f},{b:.1f}" for a, b in xy)))
        for a, b in xy:
            o.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="4" fill="{colour}"/>')


def legend(o, x, y, series, width):
    """Colour keys in rows of at most `width` pixels."""
    x0 = x
    for label, colour, _ in series:
        step = 30 + 7 * len(label)
        if x > x0 and x + step > width:
            x, y = x0, y + 16
        o.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{colour}"/>')
        o.append(f'<text x="{x + 15}" y="{y}">{esc(label)}</text>')
        x += step


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    data = parse(a.inputs)
    rows = parse_rows(a.inputs)
    if not data:
        raise SystemExit("no TPCBENCH lines found")
    tpcs = sorted({n for pts in data.values() for n in pts})
    colours = ["#1f5fa8", "#7fb0e6", "#c0561b", "#f2a470", "#3a8a3a", "#9ad09a", "#7a3a9a", "#c8a0dc"]
    roof, scal = [], []
    for i, (key, pts) in enumerate(sorted(data.items())):
        label = f"{key[0]} {key[1]}, {key[2] // 1024} MiB" if key[2] >= 1024 else f"{key[0]} {key[1]}, {key[2]} KiB"
        colour = colours[i % len(colours)]
        roof.append((label, colour, {n: r for n, (c, r) in pts.items()}))
        if 1 in pts:
            scal.append((label, colour, {n: 100.0 * pts[1][0] / (c * n) for n, (c, r) in pts.items()}))
    for j, (key, pts) in enumerate(sorted(rows.items())):
        if 1 in pts:
            scal.append((f"{key[0]} {key[1]} [{key[2]}]", colours[(len(data) + j) % len(colours)],
                         {n: 100.0 * pts[1] / (c * n) for n, c in pts.items()}))
    W, H = 1100, 470
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>']
    panel(o, 0, W / 2, H - 46, 50, "share of the HBM roofline", roof, 0.0, 100.0,
          [(90, "target 90 %"), (75, "L2-port cap for add, 75 %")], tpcs)
    panel(o, W / 2, W / 2, H - 46, 50, "scaling (% of linear)", scal, 50.0, 110.0, [(90, "target 90 %")], tpcs)
    legend(o, 60, H - 26, scal, W - 20)
    o.append("</svg>")
    with open(a.output, "w") as f:
        f.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
