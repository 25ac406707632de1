#!/usr/bin/env python3
"""Mutation check for the fabric testbenches (make fabric-mutants).

Copies rtl/fabric/ to build/<config>/fabric/mutants/mN/, applies one deliberate
bug per mutant, builds the 4x4 crossbar testbench (4-beat W buffer) against it and runs it with a
fixed seed. A mutant the testbench does not catch ("0 failed") is reported as
SURVIVED. Ends with "N passed, M failed" (a caught mutant is a pass).
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MUTANTS = [
    ("wrong channel bits", "tessera_axi_xbar.sv",
     "route = PortIdxBits'((addr >> IlShift)", "route = PortIdxBits'((addr >> (IlShift + 1))"),
    ("ROB shows a beat before it is written", "tessera_fabric_rd_rob.sv",
     "(CmpBits'(wcnt_q[head_slot]) > CmpBits'(rbeat_q))", "1'b1"),
    ("read tag is the master ID, not the ROB slot", "tessera_axi_xbar.sv",
     "TagBits'(rob_tail[m])", "TagBits'(s_arid[m])"),
    ("write tag is the master ID, not the B slot", "tessera_axi_xbar.sv",
     "TagBits'(bq_tail[m])", "TagBits'(s_awid[m])"),
    ("B queue returns the head before its B arrived", "tessera_fabric_b_queue.sv",
     "assign bvalid_o     = !empty && done_q[head_slot];", "assign bvalid_o     = !empty;"),
    ("AR accepted when the ROB is full", "tessera_axi_xbar.sv",
     "ar_stall[m] = rob_full[m];", "ar_stall[m] = 1'b0;"),
    ("ROB rlast on the first beat", "tessera_fabric_rd_rob.sv",
     "assign rlast_o  = (rbeat_q == len_q[head_slot]);", "assign rlast_o  = (rbeat_q == 8'd0);"),
    ("ROB beat counter not cleared on allocation", "tessera_fabric_rd_rob.sv",
     "wcnt_q[tail_slot]  <= '0;", "wcnt_q[tail_slot]  <= wcnt_q[tail_slot];"),
    ("R beats steered to the ROB bank of the burst's first beat", "tessera_fabric_rd_rob.sv",
     "look_bank_o[l] = bank_of(wr_addr(look_slot_i[l]));", "look_bank_o[l] = bank_of(base_q[look_slot_i[l]]);"),
    ("ROB beat space not checked (only slots)", "tessera_fabric_rd_rob.sv",
     "assign full_o     = slots_full || (space < need);", "assign full_o     = slots_full;"),
    ("ROB frees beat space for error bursts too", "tessera_fabric_rd_rob.sv",
     "if (hs && !err_q[head_slot]) begin", "if (hs) begin"),
    ("error reads always DECERR", "tessera_axi_xbar.sv",
     "in_window(s_araddr[m]) ? RespSlvErr : RespDecErr", "RespDecErr"),
    ("W ignores channel owner order", "tessera_axi_xbar.sv",
     "!owner_empty[p] && (owner_head[p] == MstIdxBits'(m))", "!owner_empty[p]"),
    ("no granule-crossing check", "tessera_axi_xbar.sv",
     "if (!in_win || (off_end > InterleaveBytes)) begin", "if (!in_win) begin"),
    ("error slave B before wlast", "tessera_fabric_err_slv.sv",
     "        if (wvalid && wlast) begin", "        if (wvalid) begin"),
    ("AW register overwritten while waiting", "tessera_axi_xbar.sv",
     "aw_load[p] = (|aw_req[p]) && !owner_full[p] && (!awq_valid_q[p] || port_awready[p]);",
     "aw_load[p] = (|aw_req[p]) && !owner_full[p];"),
    ("W buffer drops a beat the channel did not take", "tessera_axi_xbar.sv",
     ".pop_i   (rsp.w_ready),", ".pop_i   (1'b1),"),
    ("fixed priority instead of round robin", "tessera_rr_arb.sv",
     "j = {1'b0, ptr_q} + (IdxBits+1)'(k);", "j = (IdxBits+1)'(k);"),
]

# source files, relative to rtl/
SRCS = ["prim/tessera_bus.svh", "prim/tessera_bus_pkg.sv", "prim/tessera_fifo.sv", "prim/tessera_rr_arb.sv", "fabric/tessera_fabric_rd_rob.sv",
        "fabric/tessera_fabric_b_queue.sv", "fabric/tessera_fabric_err_slv.sv", "fabric/tessera_axi_xbar.sv",
        "../tests/fabric/tb_xbar_top.sv"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--only", type=int, help="run only mutant N (1-based)")
    a = ap.parse_args()
    caught = survived = 0
    for n, (name, fname, old, new) in enumerate(MUTANTS, 1):
        if a.only and n != a.only:
            continue
        d = os.path.join(a.build, f"m{n}")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "rtl"))
        for f in SRCS:
            shutil.copy(os.path.join(ROOT, "rtl", f), os.path.join(d, "rtl", os.path.basename(f)))
        path = os.path.join(d, "rtl", fname)
        text = open(path).read()
        if old not in text:
            print(f"m{n} {name}: pattern not found in {fname} (update the mutant list)")
            survived += 1
            continue
        open(path, "w").write(text.replace(old, new, 1))
        cmd = ["nice", "verilator", "-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "--cc",
               "--exe", "--build", "-MAKEFLAGS", "-j2",
               "-CFLAGS", f"-O1 -std=c++17 -I{ROOT}/sim/src -I{ROOT}/tests/fabric -DFAB_NMST=4 -DFAB_NSLV=4",
               "--top-module", "tb_xbar_top", "--prefix", "Vtessera_axi_xbar", "-GNumMst=4", "-GNumSlv=4", "-GWBufBeats=4", "--Mdir", os.path.join(d, "obj"),
               "-o", "Vx"] + [os.path.join(d, "rtl", os.path.basename(f)) for f in SRCS] + [
               f"{ROOT}/tests/fabric/fabric_tb.cpp", f"{ROOT}/tests/fabric/fabric_slave.cpp",
               f"{ROOT}/sim/src/axi_mem_model.cpp"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"m{n} {name}: build failed\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
            survived += 1
            continue
        r = subprocess.run([os.path.join(d, "obj", "Vx"), "--seed", str(a.seed), "--txns", "500",
                            "--max-cycles", "200000"], capture_output=True, text=True, timeout=600)
        lines = r.stdout.splitlines()
        last = lines[-1] if lines else ""
        first_err = next((l.strip() for l in lines if "ERROR" in l or "TOO SLOW" in l or "unfair" in l), "")
        if last.endswith(" 0 failed"):
            print(f"m{n} {name}: SURVIVED ({last})")
            survived += 1
        else:
            print(f"m{n} {name}: caught ({last}) {first_err}")
            caught += 1
        sys.stdout.flush()
    print(f"{caught} passed, {survived} failed")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
