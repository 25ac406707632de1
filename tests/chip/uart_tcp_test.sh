#!/bin/bash
# The simulator's UART outside the process (suite line uart_tcp): the real hostlink CLI
# talks to `chip_tb --uart-tcp` / `--uart-pty` exactly as to a board's USB serial port
# (docs/sim.md "The UART outside the simulator", docs/hostlink.md "Serial devices").
# Scenarios, each one case:
#   banner      the chip boots the firmware from its flash; `hostlink console --until`
#               shows the boot ROM's and the firmware's banners, printed before the client
#               connected (the bridge keeps them for it)
#   status      register reads over the serial frames: the chip ID, and the boot status
#               "started the flash image" and a running firmware through `status`
#   dma_job     upload 256 random bytes (seeded), one DMA copy job run by the firmware,
#               dump the destination: byte-exact against the source (the golden model of
#               a copy), and the words around it untouched
#   refused     a port where nobody listens, and `console` on a non-serial device, each
#               refused with a message and a non-zero status
#   reflash     write a new image into the flash over the UART (a small program built
#               here that prints a line: the serial frames move about 20 bytes a second on
#               the simulator), stop the chip (the flash file is written back), start it
#               again: the boot ROM boots the new image and its line appears on the console
#   rom_run     no image in the flash: the boot ROM's serial loader answers the frames
#               (`status` says so); the small image uploaded into device memory over the
#               frames, BOOT_ADDR and BOOT_CTRL (GO, VERIFY) written: the ROM verifies and
#               runs it
#   rom_flash   the same loader writes the small image into the empty flash; after a
#               restart the ROM boots it from the flash
#   pty         the firmware ELF booted by `chip_tb --uart-pty --elf`; `status` over the
#               pseudo-terminal
# Usage: uart_tcp_test.sh [BUILD_DIR] [--seed N]
set -u
B=build/proto SEED=1
usage() { echo "usage: $0 [BUILD_DIR] [--seed N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  if [ "$1" = --seed ] && [ $# -ge 2 ]; then SEED=$2; shift 2
  elif [ "${1#-}" = "$1" ]; then B=$1; shift
  else usage; fi
done
echo "seed $SEED (reproduce with --seed $SEED)"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "$B" && pwd) || exit 2
HL=$B/hostlink/hostlink
TB=$B/chip_tb
[ -x "$TB" ] || TB=$ROOT/chip_tb
FWIMG=$B/sw/firmware/firmware.img
FWELF=$B/sw/firmware/firmware.elf
MKIMAGE=$B/sw/tools/mkimage
RVCC=${RV_CC:-riscv64-unknown-elf-gcc}
CFG=$ROOT/bsp/include/cfg/$(basename "$B")/tessera_cfg.h
for f in "$HL" "$TB" "$FWIMG" "$FWELF" "$MKIMAGE" "$CFG"; do [ -e "$f" ] || { echo "FAIL: $f not built"; echo "0 passed, 1 failed"; exit 1; }; done
TMO=300   # seconds any one command may take (a hang fails instead of blocking)
T=$(mktemp -d)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2> /dev/null; rm -rf "$T"; }
trap cleanup EXIT
pass=0; fail=0
T0=$SECONDS
ok() { pass=$((pass+1)); echo "ok: $* [$((SECONDS - T0)) s]"; T0=$SECONDS; }
bad() { echo "FAIL: $* [$((SECONDS - T0)) s]"; fail=$((fail+1)); T0=$SECONDS; }
hl() { timeout $TMO "$HL" --seed "$SEED" "$@"; }

# start_bridge ARGS...: chip_tb with ARGS (--uart-tcp 0 / --uart-pty, --flash F or --elf F);
# sets PID and DEV (the hostlink device spec)
start_bridge() {
  "$TB" "$@" --seed "$SEED" > "$T/tb.log" 2>&1 &
  PID=$!
  DEV=
  for _ in $(seq 600); do
    local l
    l=$(sed -n 's/^chip_tb: UART on \([^ ]*\)\( \([0-9.:]*\)\)\{0,1\} (.*/\1 \3/p' "$T/tb.log")
    case "$l" in
      "tcp "*) DEV=serial-tcp:${l#tcp }; break ;;
      /dev/*) DEV=serial:${l% }; break ;;
    esac
    kill -0 "$PID" 2> /dev/null || break
    sleep 0.1
  done
  [ -n "$DEV" ] || { echo "chip_tb did not start its UART:"; cat "$T/tb.log"; return 1; }
  echo "  chip_tb $*: $DEV"
}
# stop_bridge: SIGTERM; the bridge must end by itself and say so
stop_bridge() {
  kill -TERM "$PID"
  local i
  for i in $(seq 300); do kill -0 "$PID" 2> /dev/null || break; sleep 0.1; done
  wait "$PID"; local rc=$?
  PID=
  grep -q "UART bridge stopped by signal" "$T/tb.log" && [ $rc -eq 0 ] || { echo "  bridge exit $rc:"; tail -5 "$T/tb.log"; return 1; }
}

# the image flashed over the UART: print LINE on the UART, then stay
cfg() { sed -n "s/^#define $1 \(0x[0-9a-fA-F]*\)u.*/\1/p" "$CFG"; }
LINE="flashed over the UART, booted from the flash"
{
  echo '.section .text'; echo '.globl _start'; echo '_start:'
  echo "  li t0, $(cfg TESSERA_UART_BASE)"; echo '  la t1, msg'
  echo '1: lbu t2, 0(t1)'; echo '  beqz t2, 3f'
  echo '2: lw t3, 8(t0)'; echo '  andi t3, t3, 1'; echo '  bnez t3, 2b'   # STATUS.TX_FULL
  echo '  sw t2, 0(t0)'; echo '  addi t1, t1, 1'; echo '  j 1b'          # TXDATA
  echo '3: j 3b'
  echo "msg: .asciz \"$LINE\\n\""
} > "$T/tiny.S"
if ! "$RVCC" -march=rv32im -mabi=ilp32 -nostdlib -Wl,-N -Wl,--no-warn-rwx-segments -Wl,-Ttext=$(cfg TESSERA_ISRAM_BASE) -o "$T/tiny.elf" "$T/tiny.S" \
     > "$T/cc.log" 2>&1 || ! "$MKIMAGE" -o "$T/tiny.img" "$T/tiny.elf" >> "$T/cc.log" 2>&1; then
  cat "$T/cc.log"; echo "FAIL: could not build the small image"; echo "0 passed, 1 failed"; exit 1
fi

# a flash file holding the firmware image at the image offset (erased before it; the flash
# model takes a shorter file as erased after its end)
OFF=$(sed -n 's/^#define TESSERA_FLASH_IMAGE_OFFSET *\([0-9]*\)u.*/\1/p' "$CFG")
[ -n "$OFF" ] || { echo "FAIL: no TESSERA_FLASH_IMAGE_OFFSET in $CFG"; echo "0 passed, 1 failed"; exit 1; }
python3 -c "import sys; sys.stdout.buffer.write(b'\xff' * $OFF + open('$FWIMG', 'rb').read())" > "$T/fw_flash.bin"
cp "$T/fw_flash.bin" "$T/flash.bin"
start_bridge --uart-tcp 0 --flash "$T/flash.bin" || { echo "0 passed, 1 failed"; exit 1; }

# banner
if hl --dev "$DEV" console $TMO --until "Tessera firmware v" > "$T/con.txt" 2>&1 &&
   grep -q "Tessera boot ROM" "$T/con.txt"; then
  ok "banner: $(grep -m1 -o 'Tessera firmware v[^ ]*' "$T/con.txt") after the boot ROM's"
else
  bad "banner: console output:"; cat "$T/con.txt"
fi

# status
id=$(hl --dev "$DEV" read 0x20000000 2>&1)
st=$(hl --dev "$DEV" status 2>&1)
if echo "$id" | grep -qi "54455353" && echo "$st" | grep -q "boot: status 0x06" && echo "$st" | grep -q "host interface at"; then
  ok "status: chip ID 0x54455353, booted from the flash, firmware host interface found"
else
  bad "status: read gave '$id'; status gave:"; echo "$st"
fi

# dma_job: 512 random bytes (seeded) at SRC, guard words around DST
SRC=0x80400000 DST=0x80500000
python3 -c "import random,sys; r=random.Random($SEED); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(256)))" > "$T/src.bin"
if hl --dev "$DEV" upload "$T/src.bin" $SRC , write 0x804ffffc 0x5a5a5a5a , write 0x80500100 0xa5a5a5a5 \
      , copy $SRC $DST 256 , dump $DST 256 "$T/dst.bin" , read 0x804ffffc , read 0x80500100 > "$T/job.txt" 2>&1 &&
   cmp -s "$T/src.bin" "$T/dst.bin" && grep -qi "5a5a5a5a" "$T/job.txt" && grep -qi "a5a5a5a5" "$T/job.txt"; then
  ok "dma_job: 256 bytes uploaded, copied by a DMA job, read back byte-exact; guard words intact"
else
  bad "dma_job: output:"; cat "$T/job.txt"; cmp "$T/src.bin" "$T/dst.bin"
fi

# refused
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
out1=$(hl --dev serial-tcp:$nport read 0x20000000 2>&1); rc1=$?
out2=$(hl --dev tcp:$nport console 1 2>&1); rc2=$?
if [ $rc1 -ne 0 ] && [ -n "$out1" ] && [ $rc2 -eq 2 ] && echo "$out2" | grep -q "needs a serial device"; then
  ok "refused: no listener ($out1); console on tcp: ($out2)"
else
  bad "refused: rc $rc1 '$out1'; rc $rc2 '$out2'"
fi

# reflash: the small image over the UART, then a restart boots it
if hl --dev "$DEV" flash "$T/tiny.img" > "$T/fl.txt" 2>&1 && stop_bridge; then
  start_bridge --uart-tcp 0 --flash "$T/flash.bin" &&
  if hl --dev "$DEV" console $TMO --until "$LINE" > "$T/con2.txt" 2>&1; then
    ok "reflash: a $(stat -c %s "$T/tiny.img")-byte image written over the UART ($(tail -1 "$T/fl.txt")), booted after the restart"
  else
    bad "reflash: no hello text after the restart:"; cat "$T/con2.txt"
  fi
  stop_bridge || bad "reflash: the bridge did not stop on SIGTERM"
else
  bad "reflash: flash over the UART failed:"; cat "$T/fl.txt"; tail -5 "$T/tb.log"
  [ -n "$PID" ] && kill "$PID" 2> /dev/null; PID=
fi

# rom_run / rom_flash: an empty flash, nothing but the boot ROM
SYSC=$(cfg TESSERA_SYSCTRL_BASE)
BOOT_ADDR=$(printf '0x%08x' $((SYSC + 0x14))) BOOT_CTRL=$(printf '0x%08x' $((SYSC + 0x18)))
if start_bridge --uart-tcp 0 --flash "$T/empty_flash.bin"; then
  hl --dev "$DEV" console $TMO --until "waiting for the host" > "$T/con4.txt" 2>&1
  st=$(hl --dev "$DEV" status 2>&1)
  if echo "$st" | grep -q "answered by the boot ROM" &&
     hl --dev "$DEV" flash "$T/tiny.img" > "$T/fl2.txt" 2>&1 &&
     hl --dev "$DEV" upload "$T/tiny.img" 0x80100000 , write $BOOT_ADDR 0x80100000 , write $BOOT_CTRL 3 > "$T/up.txt" 2>&1 &&
     hl --dev "$DEV" console $TMO --until "$LINE" > "$T/con5.txt" 2>&1; then
    ok "rom_run: the boot ROM's loader answered (status: '$(echo "$st" | grep answered)'), ran the image uploaded over the frames"
  else
    bad "rom_run: status '$st'"; cat "$T/con4.txt" "$T/fl2.txt" "$T/up.txt" "$T/con5.txt" 2> /dev/null
  fi
  stop_bridge || bad "rom_run: the bridge did not stop on SIGTERM"
  if [ -s "$T/empty_flash.bin" ] && start_bridge --uart-tcp 0 --flash "$T/empty_flash.bin" &&
     hl --dev "$DEV" console $TMO --until "$LINE" > "$T/con6.txt" 2>&1; then
    ok "rom_flash: the image the loader wrote into the flash booted after a restart"
  else
    bad "rom_flash: after the restart:"; cat "$T/con6.txt" 2> /dev/null; tail -3 "$T/tb.log"
  fi
  [ -n "$PID" ] && { stop_bridge || bad "rom_flash: the bridge did not stop on SIGTERM"; }
else
  bad "rom_run: the bridge did not start"
fi

# pty: the firmware ELF booted by chip_tb (through the host port, no flash)
if start_bridge --uart-pty --elf "$FWELF"; then
  # the frames are answered by the firmware: wait for it to come up first
  hl --dev "$DEV" console $TMO --until "Tessera firmware v" > "$T/con3.txt" 2>&1
  st=$(hl --dev "$DEV" status 2>&1)
  if echo "$st" | grep -q "host interface at"; then ok "pty: status over $DEV"; else bad "pty: status gave:"; echo "$st"; fi
  stop_bridge || bad "pty: the bridge did not stop on SIGTERM"
else
  bad "pty: the bridge did not start"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
