#!/usr/bin/env python3
"""Lists where two outputs of tex_coord_range_1d or _2d differ, by texture and coordinate, with the values decoded
(point samples of the iota textures are texel indices, linear ones i0 + w/256; 2D texel = x + 64 y).
  usage: decode.py CASE_DIR A.bin B.bin [--all]   (e.g. expected/out.bin and `ptx2glsl run --out` lavapipe bytes)
--all prints every sample, not only the differing ones."""
import json
import os
import struct
import sys


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    case, a_path, b_path = argv[1:4]
    everything = "--all" in argv
    c = json.load(open(os.path.join(case, "case.json")))
    texnames = [p["texture"] for p in c["params"] if "texture" in p]
    two_d = c["kernel"] == "tex_coord_2d"
    with open(os.path.join(case, "inputs", "uv.bin" if two_d else "u.bin"), "rb") as f:
        coords = f.read()
    a = open(a_path, "rb").read()
    b = open(b_path, "rb").read()
    per = 4 if two_d else 1
    n = len(coords) // (8 if two_d else 4)
    slots = (["tex " + t for t in texnames] + ["tld4 " + t for t in
             ("nClampP", "nWrapP", "nMirrorP", "nBorderP", "uClampP", "uBorderP", "hClampL")]) if two_d else texnames
    diff = 0
    for k, name in enumerate(slots):
        for i in range(n):
            off = (k * n + i) * per * 4
            va = struct.unpack("<%df" % per, a[off:off + per * 4])
            vb = struct.unpack("<%df" % per, b[off:off + per * 4])
            same = a[off:off + per * 4] == b[off:off + per * 4]
            diff += not same
            if same and not everything:
                continue
            if two_d:
                u, v = struct.unpack("<2I", coords[8 * i:8 * i + 8])
                cu, cv = struct.unpack("<2f", coords[8 * i:8 * i + 8])
                where = f"({u:08x} {cu:.9g}, {v:08x} {cv:.9g})"
            else:
                u, = struct.unpack("<I", coords[4 * i:4 * i + 4])
                cu, = struct.unpack("<f", coords[4 * i:4 * i + 4])
                where = f"{u:08x} {cu:.9g}"
            fa = " ".join(f"{x:.6g}" for x in va)
            fb = " ".join(f"{x:.6g}" for x in vb)
            print(f"{name:14s} {where}: {fa} | {fb}{'' if same else '   DIFFERS'}")
    print(f"{diff} samples differ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
