#!/usr/bin/env bash
# Install every tool Tessera needs that is missing on this machine.
#   system packages: apt-get (needs root; otherwise prints what to install)
#   Python tools:    project-local virtual environment .venv (never system-wide)
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }
have verilator                     || need_apt+=(verilator)
have riscv64-unknown-elf-gcc       || need_apt+=(gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf)
[ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] || need_apt+=(picolibc-riscv64-unknown-elf)
have g++                           || need_apt+=(g++)
have ccache                        || need_apt+=(ccache)
have make                          || need_apt+=(make)
have python3                       || need_apt+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
[ -f /usr/include/zlib.h ]         || need_apt+=(zlib1g-dev)
have openFPGALoader                || need_apt+=(openfpgaloader)   # make fpga-flash (docs/fpga.md)
have tshark || { need_apt+=(tshark); [ "$(id -u)" -ne 0 ] || echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections; }   # NIC tests decode frames

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing system packages: ${need_apt[*]}" >&2
    echo "deps: run as root, or: sudo apt-get install -y ${need_apt[*]}" >&2
    exit 1
  fi
  echo "deps: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

req_hash=$(sha1sum util/requirements.txt | cut -c1-12)
if [ ! -f ".venv/.req-$req_hash" ]; then
  echo "deps: creating .venv with $(grep -vc '^#' util/requirements.txt) Python packages"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r util/requirements.txt
  rm -f .venv/.req-*
  touch ".venv/.req-$req_hash"
fi
echo "deps: ok (verilator $(verilator --version | cut -d' ' -f2), $(riscv64-unknown-elf-gcc -dumpversion) riscv gcc, .venv ready)"
