#!/usr/bin/env python3
"""Records from bench logs written before the benches printed BENCH lines.

util/bench_collect.py calls parse(suite, lines) for a log that holds no BENCH record:
it reads the benches' human-readable lines and returns the records the current bench
code prints for the same measurement (same names and fields; values the old lines
printed rounded stay rounded). Only the chip-level suites have a reader here: the block
testbenches are quick to run again.
"""
import re

RUN = re.compile(r"^\[ RUN  \] (\S+)")


def rec(name, cycles, ideal=0, unit="cycles", **extra):
    cycles, ideal = float(cycles), float(ideal or 0)
    util = round(ideal / cycles, 4) if ideal and cycles else None
    r = {"name": name, "unit": unit, "cycles": num(cycles), "ideal": num(ideal or 0), "util": util}
    r.update(extra)
    return r


def num(v):
    v = float(v)
    return int(v) if v == int(v) else v


# ---------------------------------------------------------------- chip tests (chip_tb)
MME = re.compile(r"MMEBENCH (\w+) (\d+)x(\d+)x(\d+) engines (\d+)(?: (rows|cols))? L2 (cold|warm)( set-hash)?"
                 r"(?: C (\w+))?: (\d+) cycles, ideal (\d+), utilization [\d.]+% \(MME0 stall in (\d+), "
                 r"stall out (\d+)\); engine busy (\d+)")
TPC_ADD = re.compile(r"TPCBENCH (\w+) (\w+) \[(\d+) x (\d+)\] (\d+) KiB/tensor, TPCs (\d+): (\d+) cycles "
                     r"\(PERF_BUSY (\d+)\), roofline (\d+)")
TPC_ROWS = re.compile(r"TPCBENCH (\w+) (\w+) \[(\d+) x (\d+)\] TPCs (\d+): (\d+) cycles")
TPC_STALL = re.compile(r"TPCBENCH   TPC cycles (\d+), bundles (\d+); stalled on loads (\d+), on stores (\d+), "
                       r"on the arbiter (\d+)")
TPC_GAP = re.compile(r"TPCBENCH launch gap .*?(\d+) TPCs\): period ([\d.]+) cycles per launch, launch busy "
                     r"\(PERF_BUSY\) (\d+), each TPC runs ([\d.]+), TPC idle between launches ([-\d.]+) cycles")
L2_MIX = re.compile(r"L2BENCH hint mix, stream .*?: stream (\d+) cycles (\d+) misses; reuse re-run (\d+) cycles "
                    r"(\d+) misses")
L2_MODE = re.compile(r"L2BENCH (\w+) +mode, GEMM BF16 (\d+)x(\d+)x(\d+) cold on (\d+) MME\(s\): (\d+) cycles")
PIPE = re.compile(r"CTRLBENCH pipeline GEMM (\d+)x(\d+)x(\d+) -> (TPC relu|DMA transpose), (\d+) slices, L2 (\w+) "
                  r"mode: producer-only (\d+), consumer-only (\d+), pipelined (\d+) cycles")
COPY = re.compile(r"CTRLBENCH dma copy (\d+) KiB, (\d+) engine\(s\)(, writes not allocating)?: DMA (\d+): engine "
                  r"busy (\d+) cycles .*?doorbell to completion message (\d+) cycles")
COPY2 = re.compile(r"CTRLBENCH   DMA (\d+): write side waited for read data (\d+) cycles .*?hits (\d+), misses (\d+), "
                   r"evictions (\d+), write-backs (\d+), cycles with an engine stalled (\d+)")
COPY_AGG = re.compile(r"CTRLBENCH dma copy aggregate: [\d.]+ HBM beats/cycle \(reads \+ writes\) of a peak of (\d+)")
TRANSP = re.compile(r"CTRLBENCH dma transpose (\d+) x (\d+) B \((\d+)-byte elements, (\d+) KiB, writes (not )?"
                    r"allocating(, L2 set hash)?\): engine busy (\d+) cycles .*?doorbell to completion (\d+) cycles")
COLBLK = re.compile(r"CTRLBENCH dma strided copy of 256 x 1 KiB in (\d+)-byte column blocks .*?engine busy (\d+) cycles")
TENSOR = re.compile(r"CTRLBENCH dma tensor copy FP32 \[(\d+)\]\[(\d+)\](, contiguous)?.*?\((\d+) KiB\): engine busy "
                    r"(\d+) cycles .*?doorbell to completion (\d+) cycles")
HOST = re.compile(r"CTRLBENCH dma host (.*?) (\d+) KiB: DMA (\d+) busy (\d+) cycles = [\d.]+ B/cycle \([\d.]+% of "
                  r"the (\d+) B/cycle")
HOST_T = re.compile(r"CTRLBENCH dma host (.*?) (\d+) KiB: doorbell to last completion (\d+) cycles, .*?of (\d+) "
                    r"B/cycle; host read latency (\d+)\)")
FENCE = re.compile(r"CTRLBENCH object update -> waiting engine start: min (\d+), mean ([\d.]+), max (\d+) cycles "
                   r"over (\d+) runs")
HL_DB = re.compile(r"bench hostlink doorbell_to_start: median (\d+) cycles, min (\d+), mean ([\d.]+), max (\d+) .*?"
                   r"wake-up >= (\d+) cycles; (\d+) jobs")
HL_ENG = re.compile(r"bench hostlink doorbell_to_engine_write: median (\d+) cycles, min (\d+), max (\d+)")
HL_RATE = re.compile(r"bench hostlink small_job_rate: (\d+) jobs in (\d+) cycles .*?firmware: ([\d.]+) instructions "
                     r"and ([\d.]+) scheduler passes per job")
SIMSPEED = re.compile(r"SIMSPEED (\S+) +(\d+) cycles +([\d.]+) s +(\d+) cycles/s +\((\d+) instructions retired\)")
CORE = re.compile(r"^\s*(\w+): cycles (\d+) instructions (\d+) CPI")


def parse(suite, lines):
    """[record] of one suite's log (see bench_collect.py); [] if nothing is known."""
    out, test, pend = [], None, None
    copy = {}  # ctrl copy bench: engine -> record waiting for its second line
    for line in lines:
        m = RUN.match(line)
        if m:
            test, pend, copy = m.group(1), None, {}
            continue
        if m := MME.search(line):
            ty, mm, n, k, e, split, l2, hsh, ct = m.group(1, 2, 3, 4, 5, 6, 7, 8, 9)
            out.append(rec(test, m.group(10), m.group(11), type=ty, m=int(mm), n=int(n), k=int(k),
                           engines=int(e), split=split or "", l2=l2, set_hash=bool(hsh), c_type=ct or "fp32",
                           stall_in=int(m.group(12)), stall_out=int(m.group(13)), busy=int(m.group(14))))
        elif m := TPC_ADD.search(line):
            kern, ty, h, w, kib, n, cyc, busy, roof = m.groups()
            pend = rec(f"{test}/{kib}KiB_{n}tpc", cyc, roof, kernel=kern, type=ty, rows=int(h), cols=int(w),
                       kib=int(kib), tpcs=int(n), perf_busy=int(busy))
            out.append(pend)
        elif m := TPC_ROWS.search(line):
            kern, ty, h, w, n, cyc = m.groups()
            pend = rec(f"{test}/{n}tpc", cyc, 0, kernel=kern, type=ty, rows=int(h), cols=int(w), tpcs=int(n))
            out.append(pend)
        elif (m := TPC_STALL.search(line)) and pend is not None:
            pend.update(zip(("tpc_busy", "bundles", "stall_ld", "stall_st", "stall_arb"), map(int, m.groups())))
            pend = None
        elif m := TPC_GAP.search(line):
            n, period, busy, run, idle = m.groups()
            out.append(rec(test, period, 0, unit="cycles/launch", tpcs=int(n), perf_busy=int(busy),
                           tpc_run=num(run), idle=num(idle), target_idle=16))
        elif m := L2_MIX.search(line):
            sc, sm, xc, xm = map(int, m.groups())
            out.append(rec(test, xc, 64 ** 3 // 256, misses=xm, stream_cycles=sc, stream_misses=sm))
        elif m := L2_MODE.search(line):
            mode, mm, n, k, e, cyc = m.groups()
            ideal = int(mm) * int(n) * int(k) / (256 * int(e))
            out.append(rec(f"{test}/{e}mme", cyc, ideal, mode=mode, m=int(mm), n=int(n), k=int(k), engines=int(e)))
        elif m := PIPE.search(line):
            mm, n, k, cons, sl, mode, cp, cc, cpl = m.groups()
            out.append(rec(test, cpl, max(int(cp), int(cc)), m=int(mm), n=int(n), k=int(k),
                           consumer="tpc" if cons.startswith("TPC") else "dma", slices=int(sl), mode=mode,
                           producer=int(cp), consumer_cycles=int(cc), target_ratio=1.15))
        elif m := COPY.search(line):
            kib, nd, nalloc, d, busy, total = m.groups()
            r = rec(f"{test}/dma{d}", busy, int(kib) * 1024 // 32, kib=int(kib), engines=int(nd),
                    wr_alloc=not nalloc, total=int(total))
            copy[int(d)] = r
            out.append(r)
        elif (m := COPY2.search(line)) and int(m.group(1)) in copy:
            copy[int(m.group(1))].update(zip(("wait_read", "hits", "misses", "evictions", "writebacks",
                                              "stalled"), map(int, m.groups()[1:])))
        elif (m := COPY_AGG.search(line)) and copy:
            r0 = copy[min(copy)]
            nd, kib, total = r0["engines"], r0["kib"], r0["total"]
            out.append(rec(f"{test}/aggregate", total, 2 * nd * kib * 1024 / 32 / int(m.group(1)), engines=nd,
                           kib=kib, wr_alloc=r0["wr_alloc"], channels=int(m.group(1))))
        elif m := TRANSP.search(line):
            rows, rb, e, kib, nalloc, hsh, busy, total = m.groups()
            out.append(rec(test, busy, int(kib) * 1024 // 32, rows=int(rows), row_bytes=int(rb), elem=int(e),
                           kib=int(kib), wr_alloc=not nalloc, set_hash=bool(hsh), total=int(total)))
        elif m := COLBLK.search(line):
            out.append(rec(test, m.group(2), 256 * 1024 // 32, block=int(m.group(1))))
        elif m := TENSOR.search(line):
            n, _, contig, kib, busy, total = m.groups()
            out.append(rec(test, busy, int(kib) * 1024 // 32, n=int(n), contiguous=bool(contig), kib=int(kib),
                           total=int(total)))
        elif m := HOST.search(line):
            what, kib, d, busy, bpc = m.groups()
            out.append(rec(f"{test}/dma{d}", busy, int(kib) * 1024 / int(bpc), direction=what, kib=int(kib)))
        elif m := HOST_T.search(line):
            what, kib, total, bpc, lat = m.groups()
            nd = 2 if what.startswith("both") else 1
            out.append(rec(f"{test}/total", total, nd * int(kib) * 1024 / int(bpc), direction=what,
                           kib=int(kib), engines=nd, host_latency=int(lat)))
        elif m := FENCE.search(line):
            mn, mean, mx, runs = m.groups()
            out.append(rec(test, mx, 0, min=int(mn), mean=num(mean), runs=int(runs), target=10))
        elif m := HL_DB.search(line):
            med, mn, mean, mx, wake, jobs = m.groups()
            out.append(rec(f"{test}/doorbell_to_start", med, 0, min=int(mn), mean=num(mean), max=int(mx),
                           wakeup_min=int(wake), jobs=int(jobs), target=300))
        elif m := HL_ENG.search(line):
            med, mn, mx = m.groups()
            out.append(rec(f"{test}/doorbell_to_engine_write", med, 0, min=int(mn), max=int(mx)))
        elif m := HL_RATE.search(line):
            jobs, cyc, ins, passes = m.groups()
            out.append(rec(test, int(cyc) / int(jobs), 0, unit="cycles/job", jobs=int(jobs),
                           total_cycles=int(cyc), instructions_per_job=num(ins), passes_per_job=num(passes)))
        elif m := SIMSPEED.search(line):
            what, cyc, secs, rate, ret = m.groups()
            out.append(rec(test, rate, 0, unit="cycles/s", sim_cycles=int(cyc), seconds=num(secs),
                           retired=int(ret)))
        elif suite == "core_int" and (m := CORE.search(line)):
            k, cyc, ins = m.groups()
            out.append(rec(f"core_int/{k}", cyc, ins))
    for r in out:
        if r["name"] is None:
            raise SystemExit(f"bench_legacy: {suite}: a bench line before any '[ RUN  ]' line")
    return out
