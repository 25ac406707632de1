#!/bin/bash
# Smoke test of the hostlink CLI (suite line hostlink_cli): --help, the command-buffer
# assembler (bytes compared with an independent encoding of docs/packets.md), its field
# range checks and file errors, option and argument errors (no empty "()"), commands
# without firmware answered at once, a second server on a port in use ("address in use"),
# and a chained run on the in-process simulator: firmware boot, status, register
# write/read, a job on an absent engine queue that must come back as an error completion.
# New cases are named scenarios: each prints "ok: NAME" or "FAIL: ...".
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
ok() { pass=$((pass+1)); [ $# -eq 0 ] || echo "ok: $*"; }
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

# every field range-checked against the packet format, the error names file:line and field
cbbad() {   # NAME LINE WANT: assembling LINE must fail with WANT in the message, no output file
  printf 'nop\n%s\n' "$2" > $T/$1.txt
  out=$($HL cb $T/$1.txt $T/$1.cb 2>&1); rc=$?
  [ $rc -ne 0 ] && [ ! -e $T/$1.cb ] && echo "$out" | grep -q "$1.txt:2: $3" && ok "cb field range: '${2:0:40}' refused" \
    || bad "cb field range $1: '$2' (rc $rc): $out"
}
cbbad off "wreg32 0x10004 0" "wreg32: register offset 65540 (0x10004) out of range 0..65535"
cbbad boff "wreg_bulk 0x10000 1" "wreg_bulk: register offset 65536 (0x10000) out of range 0..65535"
cbbad tgt "fence 3 0x10000" "fence: target 65536 (0x10000) out of range 0..65535"
cbbad fid "fence 99 1" "fence: fence counter id 99 (0x63) out of range 0..3"
cbbad val "msg_short 1 set 40000" "msg_short: value 40000 (0x9c40) out of range 0..32767"
cbbad sob "msg_short 99999 add 1" "msg_short: sync object 99999 (0x1869f) out of range 0..65535"
cbbad num "wait 0x100000000" "wait: '0x100000000' is not a 32-bit number"
cbbad neg "wait -1" "wait: '-1' is not a 32-bit number"
cbbad kil "lin_dma 0 0 5000000k" "lin_dma: '5000000k' is not a 32-bit number"
cbbad cnt "wreg_bulk 0x10$(printf ' 1%.0s' $(seq 260))" "wreg_bulk: value count 260 (0x104) out of range 1..256"
# the largest values of every field are encoded exactly (independent encoding of docs/packets.md)
{ echo 'wreg32 0xFFFF 7'; echo 'fence 3 0xFFFF'; echo 'msg_short 0xFFFF set 0x7FFF'; echo 'msg_short 5 add 0'
  echo "wreg_bulk 0x100$(printf ' 9%.0s' $(seq 256))"; echo 'stop'; } > $T/lim.txt
$HL cb $T/lim.txt $T/lim.cb > /dev/null && ok "cb field limits accepted" || bad "cb limits refused"
{ printf '%08x' 0xFFFF0001 7 0x00030005 0x0000FFFF 0xFFFF0004 0x00007FFF 0x00050004 0x80000000 0x01000002 256
  for i in $(seq 256); do printf '%08x' 9; done; printf '%08x' 0x00000008 0; } |
  sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/g' > $T/lim.hex
[ "$(xxd -p $T/lim.cb | tr -d '\n')" = "$(cat $T/lim.hex)" ] && ok "cb field limits encoded exactly" || bad "cb limits: wrong bytes"

# cb output and input files
printf 'nop\nstop\n' > $T/c.txt
out=$($HL cb $T/c.txt /nonexistent/dir/x.cb 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "cannot create /nonexistent/dir/x.cb: No such file or directory" && ok "cb output in a missing directory" \
  || bad "cb to a missing directory (rc $rc): $out"
out=$($HL cb /tmp $T/dir.cb 2>&1); rc=$?
[ $rc -ne 0 ] && [ ! -e $T/dir.cb ] && echo "$out" | grep -q "/tmp is not a regular file" && ok "cb input a directory" \
  || bad "cb from a directory (rc $rc): $out"
: > $T/empty.txt
out=$($HL cb $T/empty.txt $T/empty.cb 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "empty.txt: no packets" && ok "cb input without packets" || bad "cb of no packets (rc $rc): $out"

# option and argument errors: a message naming the problem, never an empty "()"
out=$($HL --seed abc read 0 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q -- "--seed needs a number 0..4294967295, not 'abc'" && ok "--seed abc" || bad "--seed abc: $out"
$HL --seed -1 read 0 > /dev/null 2>&1 && bad "--seed -1 accepted" || ok "--seed -1"
out=$($HL load $FW 0x0 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "load: bad staging address '0x0'" && ok "load at stage 0x0" || bad "load at 0x0 (rc $rc): $out"
: > $T/errs.txt
for cmd in "read 0x40000000" "read 0 xyz" "load /nonexistent.img" "--dev tcp:1 read 0" "--dev bogus read 0" \
           "write 0x20000030 zz" "run -5" "wait 1"; do
  $HL $cmd >> $T/errs.txt 2>&1 && bad "'$cmd' succeeded"
done
grep -q "()" $T/errs.txt && bad "error messages with an empty (): $(grep '()' $T/errs.txt)" || ok "no empty () in errors"

# no firmware: attach and submit say so at once (no wait for a firmware that cannot come)
for cmd in attach "submit q15=$T/c.cb" "wait 1"; do
  $HL cb $T/c.txt $T/c.cb > /dev/null
  s0=$(date +%s)
  out=$(timeout 30 $HL --seed $SEED $cmd 2>&1); rc=$?
  s1=$(date +%s)
  [ $rc -eq 1 ] && echo "$out" | grep -q "boot ROM has not started a program" && [ $((s1 - s0)) -lt 10 ] \
    && ok "${cmd%% *} without firmware: at once" \
    || bad "$cmd without firmware (rc $rc, $((s1 - s0)) s): $out"
done

# a second server on a port in use: "address in use"
TB=$B/chip_tb
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$TB --serve $PORT > $T/srv1.log 2>&1 &
SRV=$!
for i in $(seq 100); do grep -q serving $T/srv1.log && break; sleep 0.1; done
out=$($TB --serve $PORT 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "cannot serve on 127.0.0.1:$PORT: address in use" && ok "second chip_tb --serve: address in use" \
  || bad "second --serve on port $PORT (rc $rc): $out"
out=$($HL serve $PORT 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "serve: address in use" && ok "hostlink serve: address in use" || bad "hostlink serve on a port in use (rc $rc): $out"
$HL --dev tcp:$PORT shutdown > /dev/null 2>&1 && ok "first server shut down" || bad "shutdown of the first server"
wait $SRV

# a chip run into its cycle budget: every access fails until a RESET, which starts a new
# budget (raw frames of docs/hostlink.md "Socket protocol")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$TB --serve $PORT --max-cycles 300000 > $T/srv2.log 2>&1 &
SRV=$!
for i in $(seq 100); do grep -q serving $T/srv2.log && break; sleep 0.1; done
cat > $T/budget.py << 'EOF2'
import socket, struct, sys, time
slow = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
slow.sendall(b"\x06" + bytes(9))      # 10 of the 20 header bytes of a WAIT, then nothing
t0 = time.time()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
def call(op, addr=0, arg=0):
    s.sendall(struct.pack("<IIQI", op, addr, arg, 0))
    r = b""
    while len(r) < 16:
        c = s.recv(16 - len(r))
        if not c: raise SystemExit("connection closed")
        r += c
    st, val, ln = struct.unpack("<iQI", r)
    assert ln == 0
    return st, val
READ32, WRITE32, RESET, WAIT, NOW, SHUTDOWN = 1, 2, 5, 6, 7, 9
SCRATCH = int(sys.argv[2], 0)
for _ in range(5):                    # 500 000 cycles against a budget of 300 000
    st, _ = call(WAIT, arg=100000)
    if st: break
print("wait", st, "now", call(NOW)[1])
print("read", call(READ32, SCRATCH)[0])
print("reset", call(RESET)[0])
print("write", call(WRITE32, SCRATCH, 0x5A5A1234)[0])
st, v = call(READ32, SCRATCH)
print("read", st, hex(v))
print("wait", call(WAIT, arg=1000)[0])
slow.settimeout(10)
print("slow client closed by the server", slow.recv(1) == b"", "after %.0f s" % (time.time() - t0))
call(SHUTDOWN)
EOF2
out=$(timeout 120 python3 $T/budget.py $PORT 0x20000030 2>&1)
wait $SRV
echo "$out" | grep -q "^wait -6 " && echo "$out" | grep -q "^read -6$" && ok "budget reached: run and accesses fail" \
  || bad "budget: $out"
echo "$out" | grep -q "^reset 0$" && echo "$out" | grep -q "^read 0 0x5a5a1234$" && echo "$out" | grep -q "^wait 0$" \
  && ok "budget reached: RESET recovers the chip" || bad "budget: after RESET: $out"
secs=$(echo "$out" | sed -n 's/^slow client closed by the server True after \([0-9]*\) s/\1/p')
[ -n "$secs" ] && [ "$secs" -ge 5 ] \
  && grep -q "hostlink serve: client 1 dropped: frame incomplete (10 of 20 bytes) for more than 5000 ms" $T/srv2.log \
  && ok "partial frame: client dropped after 5 s with the reason logged" || bad "partial frame: $out; $(cat $T/srv2.log)"

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
