#!/bin/bash
# MME gate-level regression: the block tests (quick set) on the 4x4 RTL model and on the
# Yosys netlist of the same shape, both checked bit-exact against the C golden model.
# Usage: run_mme_gl_tests.sh BUILD_DIR [--seed N]. Ends with "N passed, M failed".
B=$1; shift
SEED=$(( (RANDOM << 15) | RANDOM ))
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) SEED=$2; shift 2 ;;
    *) shift ;;
  esac
done
echo "mme gate-level tests: seed $SEED (reproduce with: make mme-gl-test MME_ARGS='--seed $SEED')"
tp=0; tf=0
for m in "$B/r4/Vtessera_mme" "$B/gl/obj/Vtessera_mme"; do
  out=$("$m" --seed "$SEED" --quick 2>&1); rc=$?
  echo "$out" | grep -v "passed, .* failed$" | grep -i "fail\|error\|mismatch" | head -20
  line=$(echo "$out" | grep -E "^[0-9]+ passed, [0-9]+ failed$" | tail -1)
  if [ -z "$line" ]; then echo "  $m: no summary (exit $rc)"; echo "$out" | tail -5; tf=$((tf+1)); continue; fi
  echo "  $m: $line"
  tp=$((tp + $(echo $line | cut -d' ' -f1))); tf=$((tf + $(echo $line | cut -d' ' -f3)))
  [ $rc -ne 0 ] && [ "$(echo $line | cut -d' ' -f3)" = "0" ] && tf=$((tf+1))
done
echo "$tp passed, $tf failed"
[ $tf -eq 0 ]
