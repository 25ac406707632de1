#!/bin/bash
# The command examples of docs/hostlink.md run as tests (suite line hostlink_doc), so a
# documented command cannot break without a failing test. Every line of a fenced block in
# the "CLI" section of the page that starts with `hostlink `, `printf ` or
# `./chip_tb --serve PORT &  hostlink ...` is run, in order, in one scratch directory,
# with these substitutions:
#   hostlink -> BUILD_DIR/hostlink/hostlink   build/proto/ -> BUILD_DIR/
#   fw.elf   -> the firmware ELF              fw.img      -> the firmware image
#   ./chip_tb -> BUILD_DIR/chip_tb            the example port -> a free loopback port
# A line must exit 0, unless it ends with `# error: TEXT`: then it must fail and print
# TEXT. A line ending with `# prints: TEXT` must exit 0 and print TEXT (stdout or stderr). A `./chip_tb --serve` line starts the server in the background, waits
# until it listens, runs the client part and then waits for the server to stop.
# Every command is cut after TMO seconds (a hanging example fails instead of blocking).
# Usage: doc_test.sh [BUILD_DIR] [--seed N]  (BUILD_DIR default build/proto, seed default 1)
set -u
B=build/proto
SEED=1
TMO=600   # a hang guard: the served flash example took up to 284 s on a busy 2-core machine
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) [ $# -ge 2 ] || { echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2; }; SEED=$2; shift 2 ;;
    -*) echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2 ;;
    *) B=$1; shift ;;
  esac
done
echo "seed $SEED (reproduce with --seed $SEED)"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$ROOT/docs/hostlink.md
B=$(cd "$B" && pwd) || exit 2
HL=$B/hostlink/hostlink
FW=$B/sw/firmware/firmware.elf
IMG=$B/sw/firmware/firmware.img
TB=$B/chip_tb
[ -x "$TB" ] || TB=$ROOT/chip_tb
for f in "$HL" "$FW" "$IMG" "$TB"; do [ -e "$f" ] || { echo "FAIL: $f not built"; echo "0 passed, 1 failed"; exit 1; }; done
T=$(mktemp -d)
SRV=
cleanup() { [ -n "$SRV" ] && kill "$SRV" 2> /dev/null; rm -rf "$T"; }
trap cleanup EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# the example lines: fenced blocks of the "## CLI" section
mapfile -t LINES < <(awk '/^## /{cli = ($0 == "## CLI")} cli && /^```/{inb = !inb; next}
  cli && inb && /^(hostlink |printf |\.\/chip_tb --serve )/' "$DOC")
[ ${#LINES[@]} -ge 3 ] || bad "only ${#LINES[@]} command examples found in $DOC"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# substitute the build paths; word boundaries keep file names like my.txt intact
subst() {
  sed -e "s#build/proto/#$B/#g" -e "s#\(^\|[ &]\)hostlink #\1$HL --seed $SEED #g" \
      -e "s#\bfw\.elf\b#$FW#g" -e "s#\bfw\.img\b#$IMG#g" -e "s#^\./chip_tb #$TB #"
}

cd "$T" || exit 2
for line in "${LINES[@]}"; do
  want_err=; want_out=
  case "$line" in
    *"# error: "*) want_err=${line##*# error: } ;;
    *"# prints: "*) want_out=${line##*# prints: } ;;
  esac
  cmd=$(printf '%s\n' "$line" | subst)
  if [[ "$line" == ./chip_tb\ --serve* ]]; then
    # server part & client part, on a free port instead of the example's
    port=$(free_port)
    ex_port=$(printf '%s\n' "$line" | sed -n 's#^\./chip_tb --serve \([0-9]*\).*#\1#p')
    cmd=${cmd//$ex_port/$port}
    server=${cmd%%&*}
    client=${cmd#*&}
    timeout "$TMO" bash -c "$server" > srv.log 2>&1 &
    SRV=$!
    up=0
    for _ in $(seq 600); do
      if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then up=1; break; fi
      kill -0 "$SRV" 2> /dev/null || break
      sleep 0.1
    done
    if [ $up = 0 ]; then bad "server did not start: $line ($(cat srv.log))"; kill "$SRV" 2> /dev/null; SRV=; continue; fi
    out=$(timeout "$TMO" bash -c "$client" 2>&1); rc=$?
    for _ in $(seq 100); do kill -0 "$SRV" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$SRV" 2> /dev/null; then bad "server still running after: $line"; kill "$SRV"; fi
    wait "$SRV" 2> /dev/null
    SRV=
  else
    out=$(timeout "$TMO" bash -c "$cmd" 2>&1); rc=$?
  fi
  if [ -n "$want_err" ]; then
    if [ $rc -ne 0 ] && printf '%s' "$out" | grep -qF -- "$want_err"; then ok; else bad "$line: exit $rc, output: $out"; fi
  elif [ -n "$want_out" ]; then
    if [ $rc -eq 0 ] && printf '%s' "$out" | grep -qF -- "$want_out"; then ok; else bad "$line: exit $rc, output: $out"; fi
  elif [ $rc -eq 0 ]; then ok
  else bad "$line: exit $rc, output: $out"
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
