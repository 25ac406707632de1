#!/usr/bin/env bash
# Synthesize each listed top with Yosys to generic gates, report cell counts,
# (tessera_top with 4x4 MME arrays unless SYNTH_FULL=1; tessera_mme itself is
# synthesized at 4x4 by `make mme-synth`, one PE is ~6.7k cells),
# and fail on latches. Memories stay inferred memories ($mem_v2 cells, the
# block RAMs of an FPGA flow) instead of being exploded into flip-flops. Usage: synth.sh CONFIG YOSYS "SOURCES" "TOPS"
set -euo pipefail
cfg=$1; yosys=$2; tops=$4
# Paths relative to the work tree: YoWASP's Yosys sees the real file system except /tmp,
# which it maps to a private directory of its own, so an absolute path into a clone under
# /tmp is "not found".
srcs=$(echo $3 | sed "s|$(pwd)/||g")
out=build/$cfg/synth; mkdir -p "$out"
hex=build/$cfg/sw/bootrom/bootrom.hex
printf '%-22s %10s %8s %8s  %s\n' top cells ffs memories status
fail=0
for t in $tops; do
  param=""
  share=""
  if [ "$t" = tessera_top ]; then
    [ -f "$hex" ] && param="chparam -set BootromHex \"$hex\" tessera_top;"
    # the chip's structure with 4x4 MME arrays unless SYNTH_FULL=1 (real size)
    [ "${SYNTH_FULL:-0}" = 1 ] || param="$param chparam -set MmeRows 4 -set MmeCols 4 tessera_top;"
    # Yosys' resource-sharing pass takes over 15 minutes on the PE arrays; it only
    # merges operators, so the chip top is checked without it (about 6 minutes)
    share="-noshare"
  fi
  log=$out/$t.log
  if [ "$t" = tessera_top ]; then
    # the chip is too big for one WebAssembly Yosys process (4 GiB address space):
    # synthesized block by block (util/synth_chip.py, docs/synthesis.md)
    rc=0; python3 util/synth_chip.py "$out" "$yosys" "$param" "$srcs" > "$out/chip.txt" || rc=$?
    if [ $rc -eq 2 ]; then
      cat "$out/chip.txt"
      printf '%-22s %10s %8s %8s  %s\n' "$t" - - - "partial (SYNTH_ONLY)"
    elif [ $rc -eq 0 ]; then
      cat "$out/chip.txt"
      read -r cells ffs mem < "$out/tessera_top.total"
      printf '%-22s %10s %8s %8s  %s\n' "$t" "$cells" "$ffs" "$mem" "ok (hierarchical)"
    else
      cat "$out/chip.txt"
      printf '%-22s %10s %8s %8s  %s\n' "$t" - - - "FAILED (see $out/chip_*.log)"
      fail=1
    fi
    continue
  fi
  if $yosys -q -l "$log" -p "read_verilog -sv $srcs; $param synth -flatten $share -top $t -run begin:fine; \
       opt -fast -full; techmap; opt -fast; abc; opt -fast; \
       select -assert-none t:\$dlatch t:\$_DLATCH_*; tee -o $out/$t.stat stat" >/dev/null 2>&1; then
    read -r cells ffs mem < <(awk '
      /^ +[0-9]+ +cells$/ && !c {c=$1}
      /\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|DFFSR|DFFSRE)/ {f+=$1}
      /\$mem_v2/ {m+=$1}
      END {printf "%d %d %d\n", c, f, m}' "$out/$t.stat")
    printf '%-22s %10s %8s %8s  %s\n' "$t" "${cells:-?}" "${ffs:-?}" "${mem:-0}" ok
  else
    printf '%-22s %10s %8s %8s  %s\n' "$t" - - - "FAILED (see $log)"
    fail=1
  fi
done
exit $fail
