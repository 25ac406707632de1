#!/usr/bin/env python3
"""Second decoder for the NIC tests: read a pcap with scapy's RoCE v2 layers
(scapy.contrib.roce) and print, one line per frame,

    <opcode> <dest QP> <PSN> <AckReq> <pad count> <syndrome> <MSN> <icrc_ok>

(numbers in decimal; syndrome and MSN are -1 when scapy finds no AETH, which it
binds to ACKNOWLEDGE only). icrc_ok is 1 when the ICRC that scapy computes with
its own code equals the frame's last 4 bytes. tests/nic/nic_test.c compares the
lines with the frames it built. A frame scapy cannot read as RoCE prints
"error <reason>". Usage: scapy_check.py FILE.pcap
"""
import sys

from scapy.all import Ether, rdpcap, UDP  # noqa: F401  (UDP: layer binding)
from scapy.contrib.roce import AETH, BTH


def main():
    for raw in rdpcap(sys.argv[1]):
        data = bytes(raw)
        pkt = Ether(data)
        if BTH not in pkt:
            print("error no-BTH")
            continue
        bth = pkt[BTH]
        syn, msn = (pkt[AETH].syndrome, pkt[AETH].msn) if AETH in pkt else (-1, -1)
        icrc_ok = int(bth.compute_icrc(None) == data[-4:])
        print(bth.opcode, bth.dqpn, bth.psn, bth.ackreq, bth.padcount, syn, msn, icrc_ok)


if __name__ == "__main__":
    main()
