#!/usr/bin/env python3
"""Plot MME utilization against GEMM size from benchmark output (plain SVG).

Inputs (any subset):
  --chip FILE   output of ./chip_tb --test "mme/bench*" (MMEBENCH lines)
  --block FILE  output of build/mme/r16/Vtessera_mme --bench (markdown table)
Writes one SVG: a grouped bar chart, one group per case (square sizes 2x..16x
the array, the two-engine 16x case, the LLM-like 16x4096x1024 shape, one and
two engines), one bar per type and level, with the issue's targets as lines.
Utilization of a two-engine case is per engine: ideal / measured with
ideal = MACs / (rows*cols*engines).

  python3 util/mme_bench_plot.py --chip chip.txt --block block.txt -o docs/mme_utilization.svg
"""
import argparse
import re
import sys

ROWS = 16  # proto array (square shapes are named by multiples of it)


def case_name(shape, engines, split=""):
    m, n, k = (int(x) for x in shape.split("x"))
    if m == n == k and m % ROWS == 0:
        name = f"{m // ROWS}x ({m}\u00b3)"
    else:
        name = f"{m}x{n}x{k}"
    return name + (f", {engines} MMEs{(' ' + split) if split else ''}" if engines > 1 else "")


# chip lines: type, MxNxK, engines, split (rows/cols, several engines), L2 state (cold/warm),
# set-index hash on (CTRL.set_hash)
CHIP_RE = re.compile(r"MMEBENCH (\w+) (\d+x\d+x\d+) engines (\d+)(?: (rows|cols))?(?: L2 (warm|cold))?( set-hash)?: "
                     r"(\d+) cycles, ideal (\d+), utilization ([\d.]+)%")
BLOCK_RE = re.compile(r"^\| (\w+) \| (\d+x\d+x\d+) \| (\d+) \| \d+ \| \d+ \| ([\d.]+)%")


def parse_chip(path):
    """[(type, L2 state, case, cycles, ideal, utilization %)] from MMEBENCH lines."""
    out = []
    with open(path) as f:
        for line in f:
            m = CHIP_RE.search(line)
            if m:
                l2 = (m.group(5) or "") + (", hashed sets" if m.group(6) else "")
                out.append((m.group(1), l2, case_name(m.group(2), int(m.group(3)), m.group(4) or ""),
                            int(m.group(7)), int(m.group(8)), float(m.group(9))))
    return out


def parse_block(path):
    """{(type, case): utilization %} from the block benchmark's markdown table."""
    out = {}
    with open(path) as f:
        for line in f:
            m = BLOCK_RE.search(line)
            if m:
                out[(m.group(1), case_name(m.group(2), int(m.group(3)), "cols"))] = float(m.group(4))
    return out


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(series, cases, title):
    W, H = 1300, 470
    left, right, top, bottom = 60, 20, 50, 120
    pw, ph = W - left - right, H - top - bottom
    colors = ["#1f5fa8", "#4f8fd0", "#7fb0e6", "#b9d4f1", "#c0561b", "#e07a3a", "#f2a470", "#f8d3b5"]
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">{esc(title)}</text>']

    def y(v):
        return top + ph * (1 - v / 100.0)

    for v in range(0, 101, 10):
        o.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}%</text>')
    o.append(f'<text x="16" y="{top + ph / 2}" transform="rotate(-90 16 {top + ph / 2})" '
             f'text-anchor="middle">utilization (ideal / measured cycles)</text>')
    gw = pw / max(1, len(cases))
    bw = gw * 0.8 / max(1, len(series))
    for ci, c in enumerate(cases):
        x0 = left + ci * gw + gw * 0.1
        for si, (label, data) in enumerate(series):
            v = data.get(c)
            if v is None:
                continue
            x = x0 + si * bw
            o.append(f'<rect x="{x:.1f}" y="{y(v):.1f}" width="{bw - 2:.1f}" height="{y(0) - y(v):.1f}" '
                     f'fill="{colors[si % len(colors)]}"><title>{esc(label)} {esc(c)}: {v:.1f}%</title></rect>')
            o.append(f'<text x="{x + bw / 2 - 1:.1f}" y="{y(v) - 3:.1f}" text-anchor="middle" '
                     f'font-size="9">{v:.0f}</text>')
        lx = left + ci * gw + gw / 2
        o.append(f'<text x="{lx:.1f}" y="{top + ph + 16}" text-anchor="middle">{esc(c.split(",")[0])}</text>')
        if "," in c:
            o.append(f'<text x="{lx:.1f}" y="{top + ph + 30}" text-anchor="middle">{esc(c.split(",")[1].strip())}</text>')
    for v, label in ((97, "target 97 % (16x)"), (90, "target 90 % (4x)")):
        o.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#c00" '
                 f'stroke-dasharray="5,4"/>')
        o.append(f'<text x="{left + 4}" y="{y(v) - 3:.1f}" fill="#c00" font-size="10">{label}</text>')
    for si, (label, _) in enumerate(series):  # legend: rows of four
        lx, ly = left + (si % 4) * 300, H - 58 + (si // 4) * 22
        o.append(f'<rect x="{lx}" y="{ly}" width="14" height="14" fill="{colors[si % len(colors)]}"/>')
        o.append(f'<text x="{lx + 20}" y="{ly + 12}">{esc(label)}</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chip")
    ap.add_argument("--block")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--md", action="store_true", help="also print the chip lines as a markdown table")
    a = ap.parse_args()
    chip = parse_chip(a.chip) if a.chip else []
    if a.md:
        print("| type | case | L2 | cycles | ideal | utilization |")
        print("|---|---|---|---|---|---|")
        def num(v):
            return f"{v:,}".replace(",", "\u202f")
        for ty, l2, case, cyc, ideal, u in chip:
            print(f"| {ty.upper()} | {case} | {l2} | {num(cyc)} | {num(ideal)} | {u} % |")
    series = []
    block = parse_block(a.block) if a.block else {}
    for ty, tname in (("bf16", "BF16"), ("e4m3", "FP8 E4M3")):
        for l2 in sorted({c[1] for c in chip if c[0] == ty}):
            label = f"{tname}, chip{', L2 ' + l2 if l2 else ''}"
            series.append((label, {c[2]: c[5] for c in chip if c[0] == ty and c[1] == l2}))
        if block:
            series.append((f"{tname}, block testbench", {c: v for (t, c), v in block.items() if t == ty}))
    keys = set()
    for _, d in series:
        keys |= set(d)
    if not keys:
        sys.exit("mme_bench_plot: no benchmark lines found")

    def order(c):
        sq = re.match(r"(\d+)x \(", c)
        return (0 if sq else 1, int(sq.group(1)) if sq else 0, c)

    cases = sorted(keys, key=order)
    with open(a.out, "w") as f:
        f.write(svg(series, cases, "MME utilization vs GEMM size (proto, 16x16 array, one MME unless noted)"))
    print(f"mme_bench_plot: wrote {a.out} ({len(cases)} cases, {len(series)} series)")


if __name__ == "__main__":
    main()
