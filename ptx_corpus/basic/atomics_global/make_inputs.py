#!/usr/bin/env python3
"""Writes inputs/acc32.bin and inputs/acc64.bin: the start value of every atomic slot (see kernel.cu's layout).
Each slot starts at a value that keeps the final state order-independent: identities for min/max/and/or,
a value within the limit for inc/dec (so each is addition modulo limit+1), 1 for the CAS product."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "inputs"), exist_ok=True)

a32 = [0] * 48
a32[0:12] = [0x12345678, 0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0, 0x0F0F0F0F, 3, 11, 1]
with open(os.path.join(here, "inputs", "acc32.bin"), "wb") as f:
    f.write(struct.pack("<48I", *a32))

a64 = [0xFFFFFFFF00000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0,
       0xFFFFFFFFFFFFFFFF, 0, 0x0123456789ABCDEF, 1]
with open(os.path.join(here, "inputs", "acc64.bin"), "wb") as f:
    f.write(struct.pack("<9Q", *a64))
