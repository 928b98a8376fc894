#!/usr/bin/env python3
"""Reads mad_hi_sat_cse's out.bin (expected/ from the H200, or `ptx2glsl run --out` bytes) and says, without the
inputs, whether mad.hi.sat.s32 after a mad.hi.s32 of the same registers gives the mad.hi.s32 value (columns 1 and 2
equal in every row) while the lone mad.hi.sat.s32 (column 0) clamps where the sum overflows (column 0 differs from
column 1 exactly in those rows, and is then 0x7FFFFFFF or 0x80000000).
  usage: columns.py OUT.bin"""
import struct
import sys

if len(sys.argv) != 2:
    print(__doc__)
    sys.exit(2)
data = open(sys.argv[1], "rb").read()
n = len(data) // 12
rows = [struct.unpack_from("<3I", data, 12 * i) for i in range(n)]
same12 = sum(r[1] == r[2] for r in rows)
diff01 = [r for r in rows if r[0] != r[1]]
clamped = sum(r[0] in (0x7FFFFFFF, 0x80000000) for r in diff01)
print(f"{n} rows: column 2 (sat after mad.hi) == column 1 (mad.hi) in {same12}; "
      f"column 0 (sat alone) != column 1 in {len(diff01)}, of which {clamped} are 0x7FFFFFFF/0x80000000")
