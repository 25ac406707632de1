#!/usr/bin/env python3
"""Turn a raw binary into a $readmemh file: one 32-bit little-endian word per
line, lowercase hex, zero padded to exactly --words lines.
Usage: bin2memh.py --words N in.bin out.hex"""
import sys


def main(argv):
    if len(argv) != 4 or argv[0] != "--words":
        sys.exit(__doc__)
    words = int(argv[1], 0)
    data = open(argv[2], "rb").read()
    if len(data) > words * 4:
        sys.exit(f"bin2memh: {argv[2]} is {len(data)} bytes, more than {words * 4}")
    data = data + bytes(words * 4 - len(data))
    with open(argv[3], "w") as f:
        for i in range(words):
            f.write("%08x\n" % int.from_bytes(data[4 * i:4 * i + 4], "little"))


if __name__ == "__main__":
    main(sys.argv[1:])
