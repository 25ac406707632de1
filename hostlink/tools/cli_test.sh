#!/bin/bash
# Smoke test of the hostlink CLI (suite line hostlink_cli): --help, the command-buffer
# assembler (bytes compared with an independent encoding of docs/packets.md), and a
# chained run on the in-process simulator: firmware boot, status, register write/read,
# a job on an absent engine queue that must come back as an error completion.
# Usage: cli_test.sh [BUILD_DIR] [--seed N]  (BUILD_DIR default build/proto, seed default 1)
# The run is deterministic: the inputs are fixed and the simulator only records the seed
# (hostlink --seed, shown in diagnostics); it is printed and passed on all the same.
set -u
B=build/proto
SEED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) [ $# -ge 2 ] || { echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2; }; SEED=$2; shift 2 ;;
    -*) echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2 ;;
    *) B=$1; shift ;;
  esac
done
echo "seed $SEED (reproduce with --seed $SEED)"
HL=$B/hostlink/hostlink
FW=$B/sw/firmware/firmware.elf
T=$(mktemp -d)
trap 'rm -rf $T' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

$HL --help | grep -q "submit" && ok || bad "--help"

printf 'nop\nwreg32 0x10 5 eb\nlin_dma 0x80000000 0x80001000 64 mb\nmsg_short 3 add 1\nstop eb\n' > $T/a.txt
$HL cb $T/a.txt $T/a.cb > /dev/null && ok || bad "cb assemble"
# expected words (little endian), packet by packet
printf '%08x' 0x00000000 0x00000000 0x00100101 0x00000005 0x00000206 0x00000040 0x80000000 0x80001000 \
  0x00030004 0x80000001 0x00000108 0x00000000 | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/g' > $T/want.hex
xxd -p $T/a.cb | tr -d '\n' > $T/got.hex
cmp -s $T/want.hex $T/got.hex && ok || bad "cb bytes: $(cat $T/got.hex) != $(cat $T/want.hex)"
printf 'bogus 1 2\n' > $T/b.txt
$HL cb $T/b.txt $T/b.cb 2> /dev/null && bad "bad cb line accepted" || ok

# lines the assembler cannot hold are errors naming the line, not silently cut
printf 'nop\nwreg32 0x10 %01100d\n' 5 > $T/l.txt
$HL cb $T/l.txt $T/l.cb 2>&1 | grep -q "l.txt:2: line longer than" && ok || bad "long cb line accepted"
{ printf 'wreg_bulk 0x10'; printf ' 1%.0s' $(seq 299); echo; } > $T/m.txt
$HL cb $T/m.txt $T/m.cb 2>&1 | grep -q "m.txt:1: more than 300 tokens" && ok || bad "cb line with 301 tokens accepted"

printf 'nop\nstop\n' > $T/c.txt
$HL cb $T/c.txt $T/c.cb > /dev/null
head -c 12 $T/c.cb > $T/odd.cb
$HL --seed $SEED load $FW , submit q15=$T/odd.cb 2>&1 | grep -q "size 12 bytes is not a multiple of 8" \
  && ok || bad "12-byte command buffer accepted"
out=$($HL --seed $SEED load $FW , status , write 0x20000030 0x1234abcd , read 0x20000030 , submit q15=$T/c.cb , wait 1 200000 2>&1)
echo "$out" | grep -q "firmware running, host interface at 0x1001" && ok || bad "load: $out"
echo "$out" | grep -q "0x20000030: 0x1234abcd" && ok || bad "write/read: $out"
echo "$out" | grep -q "submitted job 1" && ok || bad "submit: $out"
echo "$out" | grep -q "job 1: error, status 1 cause 2 (bad queue)" && ok || bad "wait: $out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
