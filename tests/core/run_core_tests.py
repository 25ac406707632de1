#!/usr/bin/env python3
"""Run the Tessera core test programs on the core-only testbench.

Every program runs twice: with zero bus delays (seed 0 in tb_core: gnt in the
request cycle, response one cycle later, like the chip's SRAMs) and with
random gnt/rvalid delays derived from --seed. One line per run:
  <name> <delays> cycles instret cpi ... PASS|FAIL
then "N passed, M failed". Reproduce one random run with
  build/<config>/core/tb/Vtessera_core <elf> --seed <tb seed shown>
With --random N it also generates N random programs (tests/core/gen_random.py,
program seeds derived from --seed), builds them with --cc and runs them the
same way with random interrupts (tb_core --irq-rate 5); they are checked
instruction by instruction against the model.
"""
import argparse
import os
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tb", help="core testbench binary (tb_core)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--max-cycles", type=int, default=2000000)
    ap.add_argument("--random", type=int, default=0, help="number of random programs")
    ap.add_argument("--cc", default="riscv64-unknown-elf-gcc -march=rv32im_zicsr -mabi=ilp32")
    ap.add_argument("--gen-dir", default="build/core-random")
    ap.add_argument("--chip-tb", help="run on the full chip (chip_tb --elf) instead; "
                    "pure ISA programs only, one run each")
    ap.add_argument("elfs", nargs="+")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(os.environ.get("SEED") or 1)  # fixed unless SEED / --seed
    print(f"core_isa: seed {seed} (reproduce with: SEED={seed} make core-test)")
    rng = random.Random(seed)
    passed = failed = 0
    here = os.path.dirname(os.path.abspath(__file__))
    elfs = sorted(a.elfs)
    if a.random:
        os.makedirs(a.gen_dir, exist_ok=True)
    for i in range(a.random):
        pseed = rng.randrange(1, 1 << 31)
        src = os.path.join(a.gen_dir, f"random_{pseed}.S")
        elf = os.path.join(a.gen_dir, f"random_{pseed}.elf")
        subprocess.run([sys.executable, os.path.join(here, "gen_random.py"), "--seed", str(pseed),
                        "--irq", "-o", src], check=True)
        cmd = a.cc.split() + ["-nostdlib", "-nostartfiles", "-Wl,--no-warn-rwx-segments",
                              "-I" + os.path.join(here, "isa"), "-T", os.path.join(here, "link.ld"),
                              "-o", elf, os.path.join(here, "crt.S"), src]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(f"random_{pseed} FAIL (build)\n{r.stdout}")
            failed += 1
            continue
        elfs.append(elf)
    if a.chip_tb:
        for elf in elfs:
            name = os.path.basename(elf).rsplit(".", 1)[0]
            tb_seed = rng.randrange(1, 1 << 31)
            r = subprocess.run([a.chip_tb, "--elf", elf, "--seed", str(tb_seed), "--max-cycles",
                                str(a.max_cycles)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            lines = r.stdout.strip().splitlines()
            ok = r.returncode == 0 and any(l.startswith("1 passed, 0 failed") for l in lines)
            info = next((l for l in lines if l.startswith("cycles ")), "")
            print(f"{name + '/chip':<28} {info} seed={tb_seed} {'PASS' if ok else 'FAIL'}")
            if not ok:
                print("\n".join("    " + l for l in lines[-12:]))
            passed += ok
            failed += not ok
        print(f"seed {seed}")
        print(f"{passed} passed, {failed} failed")
        return 0 if failed == 0 else 1
    for elf in elfs:
        name = os.path.basename(elf).rsplit(".", 1)[0]
        for label, tb_seed in (("zero-delay", 0), ("random-delay", rng.randrange(1, 1 << 31))):
            cmd = [a.tb, elf, "--seed", str(tb_seed), "--name", f"{name}/{label}",
                   "--max-cycles", str(a.max_cycles)]
            if name.startswith("random_"):
                cmd += ["--irq-rate", "5"]      # random interrupts, handled by the program
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            out = r.stdout.rstrip()
            ok = r.returncode == 0 and " PASS" in out.splitlines()[0] if out else False
            print(out if out else f"{name}/{label} FAIL (no output, exit {r.returncode})")
            if ok:
                passed += 1
            else:
                failed += 1
    print(f"seed {seed}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
