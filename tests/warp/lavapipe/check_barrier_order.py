#!/usr/bin/env python3
"""Checks the facts about lavapipe's barrier() that the shared-memory warp emulation relies on (docs/WARP.md), from
the event log barrier_order.comp writes (glsl_probe ... 32 512 OUT.bin): events are (subgroup << 8 | label) in the
order the SIMD vectors logged them.
  1. A barrier under an all-false mask still suspends the vector: subgroup 1 logs label 5 (its else-branch) only
     after subgroup 0 logged label 3 (after the first barrier of the then-branch subgroup 1 does not take).
  2. Vectors that ran different numbers of barriers do not wait for each other's: subgroup 0 leaves its one-trip
     loop (label 18) while subgroup 3 is still in its fourth trip (label 35 comes later).
  3. A vector that has ended does not hold the others: after subgroup 3 returns, subgroups 0..2 log labels 19 and 20.
  usage: check_barrier_order.py OUT.bin   exit status 1 when a fact does not hold."""
import struct
import sys


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    w = struct.unpack("<%dI" % (len(data) // 4), data)
    log = [(x >> 8, x & 0xFF) for x in w[1:1 + w[0]] if not x & 0x10000]
    pos = {e: i for i, e in reversed(list(enumerate(log)))}  # first occurrence
    facts = [
        ("a barrier under a false mask suspends the vector", pos.get((1, 5), -1) > pos.get((0, 3), 1 << 30)),
        ("vectors do not wait for barriers they do not run", pos.get((0, 18), 1 << 30) < pos.get((3, 35), -1)),
        ("an ended vector does not hold the others",
         all((s, 20) in pos for s in range(3)) and (3, 19) not in pos),
    ]
    bad = 0
    for what, ok in facts:
        print(("ok   " if ok else "FAIL ") + what)
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
