#!/usr/bin/env python3
"""Block hashes of the op sweep's CUDA references, so that a machine without the references (lavapipe, no GPU)
can compare its own sweep outputs with them. The references are about 1 GB; their hashes are a few hundred KB.

usage: sweep_hashes.py make WORK OUT.json
         hash WORK/<case>/expected/<output>.bin (written by ptx2glsl-cudaref on the NVIDIA GPU) into OUT.json
       sweep_hashes.py check REF.json OUTDIR
         compare OUTDIR/<case>/<output>.bin (written by `ptx2glsl run --out OUTDIR`) with REF.json; prints one line
         per output in `ptx2glsl run`'s form ("<case> <output>: identical") or, where it differs, the number of
         differing 64 KiB blocks; exit status 0 only when every output is identical

A whole output is identical when its size and SHA-256 match. Block hashes (BLAKE2b, 8 bytes, 64 KiB blocks) only
locate differences: a differing output reports how many blocks differ, not how many values.
"""
import hashlib
import json
import os
import sys

BLOCK = 65536


def digest(path):
    whole = hashlib.sha256()
    blocks = []
    with open(path, "rb") as f:
        while True:
            b = f.read(BLOCK)
            if not b:
                break
            whole.update(b)
            blocks.append(hashlib.blake2b(b, digest_size=8).hexdigest())
    return {"bytes": os.path.getsize(path), "sha256": whole.hexdigest(), "blocks": "".join(blocks)}


def make(work, out):
    ref = {}
    for case in sorted(os.listdir(work)):
        exp = os.path.join(work, case, "expected")
        if not os.path.isdir(exp):
            continue
        ref[case] = {f[:-4]: digest(os.path.join(exp, f)) for f in sorted(os.listdir(exp)) if f.endswith(".bin")}
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(ref, f, separators=(",", ":"))
    os.replace(tmp, out)
    print(f"{out}: {sum(len(v) for v in ref.values())} outputs of {len(ref)} cases")


def check(reffile, outdir):
    ref = json.load(open(reffile))
    bad = 0
    n = 0
    for case in sorted(ref):
        for name, want in sorted(ref[case].items()):
            n += 1
            path = os.path.join(outdir, case, name + ".bin")
            if not os.path.isfile(path):
                print(f"{case} {name}: error: no output {path}")
                bad += 1
                continue
            got = digest(path)
            if got["bytes"] != want["bytes"]:
                print(f"{case} {name}: error: {got['bytes']} bytes, the reference has {want['bytes']}")
                bad += 1
            elif got["sha256"] == want["sha256"]:
                print(f"{case} {name}: identical")
            else:
                w, g = want["blocks"], got["blocks"]
                nb = len(w) // 16
                diff = sum(1 for i in range(nb) if w[16 * i:16 * i + 16] != g[16 * i:16 * i + 16])
                print(f"{case} {name}: {diff} of {nb} blocks differ ({BLOCK} bytes each)")
                bad += 1
    print(f"{n} outputs compared with the reference hashes, {n - bad} identical, {bad} differ or missing")
    return 0 if bad == 0 else 1


def main():
    a = sys.argv[1:]
    if not a or a[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if a else 2
    if a[0] == "make" and len(a) == 3:
        make(a[1], a[2])
        return 0
    if a[0] == "check" and len(a) == 3:
        return check(a[1], a[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
