#!/usr/bin/env python3
"""usage: check_read_128k.py PTX2GLSL CASE

The lying case read_128k gives a 4-byte buffer `in` to a kernel that copies 32,768 words of it to `out`. On lavapipe
device memory is the runner's own heap, so these reads used to return heap bytes. With guard zones they land in the
canary after `in` (runtime/vulkan/device.h kCanary: the words 0xDEADBEEF, 0xCAFEF00D from the zone's first byte),
and nothing crashes. Passes when the run ends with exit status 1 (there is no expected/, the case lies) and
--out holds in[0] = 7 followed by exactly the canary words."""
import os
import struct
import subprocess
import sys
import tempfile

binary, case = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as out:
    r = subprocess.run([binary, "run", case, "--out", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout)
    if r.returncode != 1 or "no expected/out.bin" not in r.stdout:
        sys.exit(f"check_read_128k: exit status {r.returncode}, want 1 with 'no expected/out.bin'")
    data = open(os.path.join(out, os.path.basename(os.path.normpath(case)), "out.bin"), "rb").read()
words = struct.unpack(f"<{len(data) // 4}I", data)
want = [7] + [0xDEADBEEF if i % 2 == 0 else 0xCAFEF00D for i in range(len(words) - 1)]
bad = [i for i, (a, b) in enumerate(zip(words, want)) if a != b]
if len(words) != 32768 or bad:
    sys.exit(f"check_read_128k: {len(words)} words, {len(bad)} differ from in[0] + the canary (first at word "
             f"{bad[0] if bad else '-'})")
print("check_read_128k: out = in[0] then 32,767 canary words: the reads past `in` stayed in its guard zone")
