#!/usr/bin/env python3
"""The multi-chip engine-activity timeline (docs/sim.md "Timeline"), from its two entries:

1. a chip test that opens several chips (tests/chip/chip_nic.h net_open): the command-
   buffer all-reduce on 2 chips (4 KiB per chip) with --timeline; the file must hold one
   process per chip ("chip 0", "chip 1"), on each chip non-empty NIC queue, NIC TX (data
   and ACK frames) and NIC RX (receiving, writing memory) tracks, every run inside the
   test's cycles, the two chips' data frames overlapping in time (the ring sends both ways
   at once: one common time axis), and at least the payload (4 KiB) counted as sent and as
   received per chip by the NIC byte counters;
2. the lossy 2-chip all-reduce (2 % of the frames dropped): the `NICp resent frames per
   window` counters of both chips add up to the resends the requesters counted
   themselves (CNT_REQ_RESENDS, printed with -v), and some were resent;
3. `chip_tb --chips 2 --timeline`: eight 128-byte frames (a pcap file written here; not
   RoCE, the port's receive check drops them) injected into chip 1's port 0; one file
   with both chips, chip 1's NIC0 RX receiving for at least the frames' 32 beats, chip
   0 receiving nothing.

  python3 tests/chip/timeline_test.py [./chip_tb]     prints "N passed, M failed"
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

TB = sys.argv[1] if len(sys.argv) > 1 else "./chip_tb"
SEED = int(os.environ.get("SEED") or "7")  # make test exports SEED empty when unset
TEST = "coll/cb_allreduce_2chip_fp32_k1"
LOSSY = "coll/cb_allreduce_2chip_lossy"
BYTES = 4096  # per chip: each chip sends and receives 2 x 2 KiB of payload
FRAMES = 8    # injected in part 2

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what}")
    return cond


def run(args):
    p = subprocess.run([TB] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def load(path):
    """{chip name: {track: [(state, start, end)]}}, {chip name: {counter: [(ts cycle, args)]}}"""
    with open(path) as f:
        doc = json.load(f)
    pname, tname = {}, {}
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            pname[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            tname[(e["pid"], e["tid"])] = e["args"]["name"]
    runs = {n: {} for n in pname.values()}
    cnts = {n: {} for n in pname.values()}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            s = e["args"]["start cycle"]
            runs[pname[e["pid"]]].setdefault(tname[(e["pid"], e["tid"])], []).append((e["name"], s, s + e["args"]["cycles"]))
        elif e["ph"] == "C":
            cnts[pname[e["pid"]]].setdefault(e["name"], []).append((round(float(e["ts"]) * 1000), e["args"]))
    return runs, cnts


def counter_total(series, key, end):
    """sum of a per-cycle counter series (value x window length)"""
    tot = 0.0
    for i, (ts, a) in enumerate(series):
        nxt = series[i + 1][0] if i + 1 < len(series) else end
        tot += a[key] * (nxt - ts)
    return tot


def states(runs, track_re, state=None):
    r = re.compile(track_re)
    return [(st, s, n) for t, v in runs.items() if r.fullmatch(t) for st, s, n in v if state is None or st == state]


def overlap(a, b):
    """cycles during which a run of a and a run of b are both open"""
    ev = sorted([(s, 1, 0) for _, s, _ in a] + [(n, -1, 0) for _, _, n in a] +
                [(s, 1, 1) for _, s, _ in b] + [(n, -1, 1) for _, _, n in b])
    open_, last, tot = [0, 0], None, 0
    for c, d, w in ev:
        if last is not None and open_[0] > 0 and open_[1] > 0:
            tot += c - last
        open_[w] += d
        last = c
    return tot


def main():
    rc, out = run(["--list"])
    if TEST not in out.split():
        print(f"{TEST} not in this configuration (no NIC ports): skipped")
        print("0 passed, 0 failed")
        return 0
    with tempfile.TemporaryDirectory(prefix="tessera_timeline_") as d:
        a = os.path.join(d, "a.json")
        rc, out = run(["--test", TEST, "--seed", str(SEED), "--timeline", a])
        m = re.search(r"PASS\s+(\d+)", out)
        if not check(rc == 0 and m and os.path.exists(a), f"{TEST} --timeline passes and writes the file"):
            print(out)
            return 1
        end = int(m.group(1))
        runs, cnts = load(a)
        check(sorted(runs) == ["chip 0", "chip 1"], f"one process per chip: {sorted(runs)}")
        for chip in sorted(runs):
            r = runs[chip]
            every = [x for v in r.values() for x in v]
            check(every and min(s for _, s, _ in every) >= 0 and max(n for _, _, n in every) <= end,
                  f"{chip}: {len(every)} runs inside the test's cycles 0..{end}")
            q = states(r, r"QMAN NIC\d", "packets")
            check(len(q) > 0, f"{chip}: NIC queue tracks: {len(q)} packet runs")
            dt, ak = states(r, r"NIC\d TX", "data") + states(r, r"NIC\d TX", "data, wire busy"), \
                states(r, r"NIC\d TX", "ACK") + states(r, r"NIC\d TX", "ACK, wire busy")
            check(len(dt) > 0 and len(ak) > 0, f"{chip}: NIC TX: {len(dt)} data, {len(ak)} ACK runs")
            rx, wm = states(r, r"NIC\d RX", "receiving"), states(r, r"NIC\d RX", "writing memory")
            check(len(rx) > 0 and len(wm) > 0, f"{chip}: NIC RX: {len(rx)} receiving, {len(wm)} writing-memory runs")
            c = cnts[chip]
            tx = sum(counter_total(v, "tx", end) for k, v in c.items() if re.fullmatch(r"NIC\d bytes/cycle", k))
            rxb = sum(counter_total(v, "rx", end) for k, v in c.items() if re.fullmatch(r"NIC\d bytes/cycle", k))
            check(tx >= BYTES and rxb >= BYTES, f"{chip}: NIC bytes counted: {tx:.0f} sent, {rxb:.0f} received "
                  f"(>= {BYTES} payload)")
        if sorted(runs) == ["chip 0", "chip 1"]:
            tx0 = states(runs["chip 0"], r"NIC\d TX")
            tx1 = states(runs["chip 1"], r"NIC\d TX")
            ov = overlap(tx0, tx1)
            check(ov > 0, f"chip 0's and chip 1's TX runs overlap for {ov} cycles (one time axis)")

        # 2: resends counted from the frames against the requesters' own counters
        c = os.path.join(d, "c.json")
        rc, out = run(["--test", LOSSY, "--seed", str(SEED), "--timeline", c, "-v"])
        m = re.search(r"requesters: \d+ packets, (\d+) resent", out)
        if check(rc == 0 and m and os.path.exists(c), f"{LOSSY} --timeline -v passes and prints the resends"):
            _, cnts = load(c)
            got = sum(a["resent"] for chip in cnts.values() for k, v in chip.items()
                      if re.fullmatch(r"NIC\d resent frames per window", k) for _, a in v)
            want = int(m.group(1))
            check(got == want and want > 0, f"{LOSSY}: {got} resent frames in the timeline, {want} by the requesters")
        else:
            print(out)

        # 3: chip_tb --chips 2 with frames injected into chip 1 port 0
        pcap = os.path.join(d, "frames.pcap")
        with open(pcap, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))  # Ethernet
            for i in range(FRAMES):
                frame = bytes((i * 7 + k) & 0xFF for k in range(128))
                f.write(struct.pack("<IIII", 0, i, len(frame), len(frame)) + frame)
        b = os.path.join(d, "b.json")
        rc, out = run(["--chips", "2", "--topology", "pair", "--max-cycles", "3000", "--seed", str(SEED),
                       "--inject", f"1:0:{pcap}", "--timeline", b])
        ok = rc == 0 and f"{FRAMES} frame(s) of" in out and os.path.exists(b)
        if check(ok, "chip_tb --chips 2 --inject --timeline runs and writes the file"):
            runs, _ = load(b)
            check(sorted(runs) == ["chip 0", "chip 1"], f"--chips 2: one process per chip: {sorted(runs)}")
            rx = states(runs.get("chip 1", {}), r"NIC0 RX", "receiving")
            cyc = sum(n - s for _, s, n in rx)
            other = states(runs.get("chip 0", {}), r"NIC\d RX")
            check(cyc >= FRAMES * 4 and not other,
                  f"--chips 2: chip 1 NIC0 RX receiving {cyc} cycles for {FRAMES} frames of 4 beats; chip 0 "
                  f"receives nothing ({len(other)} runs)")
        else:
            print(out)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
