#!/bin/bash
# MME regression: numfmt self-test, then the block testbench at 8x8 (tiny) and
# 16x16 (proto). Usage: run_mme_tests.sh BUILD_DIR [--seed N] [--quick]
# Prints the seed; ends with "N passed, M failed" (totals).
B=$1; shift
SEED=${SEED:-1}; EXTRA=""   # fixed unless SEED (make exports it) or --seed
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) SEED=$2; shift 2 ;;
    *) EXTRA="$EXTRA $1"; shift ;;
  esac
done
echo "mme tests: seed $SEED (reproduce with: SEED=$SEED make mme-test)"
tp=0; tf=0
run() {
  local out; out=$("$@" 2>&1); local rc=$?
  echo "$out" | grep -v "^numfmt_test\|passed, .* failed$" | tail -40
  local line; line=$(echo "$out" | grep -E "^[0-9]+ passed, [0-9]+ failed$" | tail -1)
  if [ -z "$line" ]; then echo "  $1: no summary (exit $rc)"; tf=$((tf+1)); return; fi
  echo "  $(basename $(dirname $1))/$(basename $1): $line"
  tp=$((tp + $(echo $line | cut -d' ' -f1))); tf=$((tf + $(echo $line | cut -d' ' -f3)))
  [ $rc -ne 0 ] && [ "$(echo $line | cut -d' ' -f3)" = "0" ] && tf=$((tf+1))
}
run $B/numfmt_test --seed $SEED --iters 100000
run $B/r8/Vtessera_mme --seed $SEED $EXTRA
run $B/r16/Vtessera_mme --seed $SEED --quick $EXTRA
echo "$tp passed, $tf failed"
[ $tf -eq 0 ]
