#!/bin/bash
# chip_tb's command line and its --elf harness (suite line chip_tb_cli): option values
# that are negative or not numbers are refused with a message naming the option; an ELF
# whose `tohost` is not a word of writable RAM is refused at load, naming the symbol and
# its address; a program that traps into the boot ROM (mtvec 0, or never set)
# ends at once with the diagnostic instead of running to the cycle budget, and the
# summary's cycle equals the diagnostic's; a passing program still passes.
# The test programs are assembled here from a few instructions (riscv64-unknown-elf-gcc,
# installed by make deps). Usage: elf_cli_test.sh [BUILD_DIR] [--seed N]
set -u
B=build/proto SEED=1
usage() { echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  if [ "$1" = --seed ] && [ $# -ge 2 ]; then SEED=$2; shift 2
  elif [ "${1#-}" = "$1" ]; then B=$1; shift
  else usage; fi
done
echo "seed $SEED (reproduce with --seed $SEED; the programs and checks are fixed)"
TB=$B/chip_tb
CFG=bsp/include/cfg/$(basename "$B")/tessera_cfg.h
RVCC=${RV_CC:-riscv64-unknown-elf-gcc}
T=$(mktemp -d)
trap 'rm -rf $T' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
cfg() { sed -n "s/^#define $1 \(0x[0-9a-fA-F]*\)u.*/\1/p" "$CFG"; }
ISRAM=$(cfg TESSERA_ISRAM_BASE)
DSRAM=$(cfg TESSERA_DSRAM_BASE)
[ -n "$ISRAM" ] && [ -n "$DSRAM" ] || { echo "FAIL: no ISRAM/DSRAM base in $CFG"; exit 1; }

# prog NAME TOHOST_DEF BODY: _start at ISRAM, BODY, then tohost = 1 and a loop; TOHOST_DEF
# either places `tohost` in a .tohost section in DSRAM ("") or defines it as an absolute
# address (the symbol exists, but not in RAM)
prog() {
  local name=$1 th=$2 body=$3
  {
    echo '.section .text'; echo '.globl _start'; echo '_start:'
    printf '%b\n' "$body"
    echo '  la t0, tohost'; echo '  li t1, 1'; echo '  sw t1, 0(t0)'; echo '1: j 1b'
    if [ -z "$th" ]; then
      echo '.section .tohost,"aw"'; echo '.globl tohost'; echo 'tohost: .word 0'
    else
      echo '.globl tohost'; echo ".set tohost, $th"
    fi
  } > $T/$name.S
  $RVCC -march=rv32i_zicsr -mabi=ilp32 -nostdlib -nostartfiles -Wl,-N -Wl,--build-id=none -Wl,-Ttext=$ISRAM \
    -Wl,--section-start=.tohost=$DSRAM -o $T/$name.elf $T/$name.S 2> $T/$name.cc.log ||
    { echo "FAIL: cannot assemble $name: $(cat $T/$name.cc.log)"; exit 1; }
}

# --- scenario: a passing program passes, with the summary line
prog good "" '  nop'
out=$($TB --seed $SEED --elf $T/good.elf 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^PASS:" && echo "$out" | grep -q "1 passed, 0 failed" \
  && ok "passing program" || bad "passing program (rc $rc): $out"

# --- scenario: tohost in the boot ROM / unmapped / misaligned is refused at load
for th in 0x100 0x70000000 $(printf '0x%x' $((DSRAM + 2))); do
  prog th_$th "$th" '  nop'
  out=$(timeout 60 $TB --seed $SEED --elf $T/th_$th.elf 2>&1); rc=$?
  want=$(printf '0x%08x' $th)
  [ $rc -eq 2 ] && echo "$out" | grep -q "symbol \`tohost\` at $want is not an aligned word of writable RAM" \
    && ok "tohost at $th refused at load" || bad "tohost at $th (rc $rc): $out"
done

# --- scenario: negative and non-numeric option values
for args in "--max-cycles -5" "--seed -1" "--seed abc" "--max-cycles 12x" "--seed 99999999999999999999"; do
  out=$($TB $args --elf $T/good.elf 2>&1); rc=$?
  set -- $args
  [ $rc -eq 2 ] && echo "$out" | grep -q "bad value for $1: '$2'" && ! echo "$out" | grep -q "unknown option" \
    && ok "$args refused" || bad "$args (rc $rc): $out"
done

# --- scenario: a trap that takes the core back into the boot ROM ends the run at once,
# with the diagnostic: mtvec 0 (the ROM starts over) and mtvec never set (the ROM's
# exception handler prints the trap and parks the core)
prog trap0 "" '  csrw mtvec, zero\n  .word 0'
prog traprom "" '  .word 0'
for p in "trap0:started over:Tessera boot ROM" "traprom:exception handler:boot: exception mcause=0x00000002"; do
  IFS=: read -r name what uart <<< "$p"
  out=$(timeout 120 $TB --seed $SEED --max-cycles 20000000 --elf $T/$name.elf 2>&1); rc=$?
  diag=$(echo "$out" | sed -n 's/^cycle : \([0-9]*\) .*/\1/p')
  summ=$(echo "$out" | sed -n 's/^cycle \([0-9]*\) (.*/\1/p')
  [ $rc -eq 1 ] && echo "$out" | grep -q "FAIL: .*$what" && echo "$out" | grep -q "=== tessera sim diagnostic ===" \
    && echo "$out" | grep -q "$uart" && ok "$name: trap reported ($what)" || bad "$name (rc $rc): $out"
  [ -n "$diag" ] && [ "$diag" -lt 1000000 ] && ok "$name: ended at cycle $diag, not at the 20M budget" \
    || bad "$name: diagnostic cycle '$diag'"
  [ -n "$summ" ] && [ "$summ" = "$diag" ] && ok "$name: summary cycle $summ = diagnostic cycle" \
    || bad "$name: summary cycle '$summ' != diagnostic cycle '$diag'"
done

# --- scenario: a run to the budget: the summary's cycle equals the diagnostic's
prog spin "" '2: j 2b'
out=$(timeout 120 $TB --seed $SEED --max-cycles 20000 --elf $T/spin.elf 2>&1); rc=$?
diag=$(echo "$out" | sed -n 's/^cycle : \([0-9]*\) .*/\1/p')
summ=$(echo "$out" | sed -n 's/^cycle \([0-9]*\) (.*/\1/p')
[ $rc -eq 1 ] && [ -n "$diag" ] && [ "$summ" = "$diag" ] && ok "budget: summary cycle $summ = diagnostic cycle" \
  || bad "budget (rc $rc): summary '$summ', diagnostic '$diag': $out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
