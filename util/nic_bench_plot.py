#!/usr/bin/env python3
"""Plot the NIC port bench (bench suite `nic_port`, docs/nic.md "Figures") as plain SVG.

Two panels from the suite's records in the results file:
  left:  goodput against the WRITE size, as a share of the link rate after the frames'
         header overhead (utilization = wire cycles of the frames / measured cycles):
         one WRITE alone (doorbell to completion) and a stream of WRITEs queued back to
         back, MTU 4096 and 1024, with the 95 % target;
  right: selective against go-back-N at 0 / 0.1 / 1 / 5 % loss on both links: goodput as
         a share of the same mode's lossless goodput, with the 90 % target.
util/render_perf.py draws it (`@plot nic`, docs/nic_goodput.svg); by hand:

  python3 util/nic_bench_plot.py [docs/results/proto.json] -o docs/nic_goodput.svg
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tpc_bench_plot  # noqa: E402  (line panels and legend reused)

GOODPUT = re.compile(r"^nic_port/goodput_mtu(\d+)_\w+?(_x\d+)?$")
LOSS = re.compile(r"^nic_port/loss_(selective|gobackn)_")


def size_label(b):
    return f"{b >> 20} MiB" if b >= 1 << 20 else (f"{b >> 10} KiB" if b >= 1024 else f"{b} B")


def svg(recs):
    """The SVG text of the two panels, or None without nic_port records."""
    recs = [r for r in recs if r.get("suite") == "nic_port"]
    series = {}
    for r in recs:
        m = GOODPUT.match(r["name"])
        if not m or r.get("util") is None:
            continue
        # a stream of one WRITE (4 MiB) is the WRITE alone: it belongs to both lines
        kinds = ["stream"] if m.group(2) else ["one WRITE", "stream"] if r["size"] >= 4 << 20 else ["one WRITE"]
        for k in kinds:
            series.setdefault((k, int(m.group(1))), {})[r["size"]] = 100.0 * r["util"]
    loss = {}
    for r in recs:
        m = LOSS.match(r["name"])
        if m and r.get("of_lossless") is not None:
            loss.setdefault(m.group(1), {})[round(r["drop_pct"] * 10)] = 100.0 * r["of_lossless"]
    if not series and not loss:
        return None
    colours = {("one WRITE", 4096): "#7fb0e6", ("stream", 4096): "#1f5fa8", ("one WRITE", 1024): "#f2a470",
               ("stream", 1024): "#c0561b"}
    left = [(f"{k}, MTU {mtu}", colours.get((k, mtu), "#3a8a3a"), pts)
            for (k, mtu), pts in sorted(series.items(), key=lambda i: (-i[0][1], i[0][0]))]
    right = [(name, colour, loss[key]) for key, name, colour in
             (("selective", "selective ACK", "#3a8a3a"), ("gobackn", "go-back-N", "#7a3a9a")) if key in loss]
    sizes = sorted({s for _, _, pts in left for s in pts})
    drops = sorted({d for _, _, pts in right for d in pts})
    W, H = 1100, 470
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>']
    tpc_bench_plot.panel(o, 0, W / 2, H - 46, 50, "RDMA WRITE goodput (% of the link after headers)", left,
                         0.0, 100.0, [(95, "target 95 % at 64 KiB and more")], sizes, "WRITE size", size_label)
    tpc_bench_plot.panel(o, W / 2, W / 2, H - 46, 50, "4 x 1 MiB under loss (% of lossless goodput)", right,
                         40.0, 100.0, [(90, "target 90 % (selective, 1 % loss)")], drops, "frames dropped per link",
                         lambda d: f"{d / 10:g} %")
    tpc_bench_plot.legend(o, 60, H - 26, left + right, W - 20)
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "docs", "results", "proto.json"))
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    text = svg(json.load(open(a.results))["records"])
    if text is None:
        raise SystemExit("no nic_port records in " + a.results)
    with open(a.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
