#!/usr/bin/env python3
"""How often each guarded region of a kernel finds a tiny or zero result (and would replay), counted on a device.

Makes a copy of a case whose parameter block is a struct (K: rrlite/k_output_720p) with one more field, a `dbg`
buffer at a free byte offset of the block, and a variant of the kernel's exact GLSL in which every region's
`p2g_redo()` also adds 1 to dbg[2n] (the region ran) and, when its verdict is "check" (a nonzero magnitude below
2^-40), to dbg[2n+1]. The variant tests that whatever the device facts say, so on lavapipe (where every region
replays anyway) it counts what NVIDIA's first pass would see. Then run it and summarize:

  python3 tests/experiments/region_replay_counts.py make CASE GLSL OFFSET OUTDIR
  ptx2glsl run OUTDIR/case --glsl OUTDIR/count.comp --out OUTDIR/run      # outputs have no expected/: ignore
  python3 tests/experiments/region_replay_counts.py sum OUTDIR/run/case/dbg.bin

GLSL is the exact translation (generated/rrlite/k_output/k_output.comp for K; 320 is a free offset of K's block).
Each region's check (p2g_check_<n>, the second pass with the zero-aware forms) is counted too, as region 1000 + n:
its "tiny" count is how often the exact replay runs. Measured 2026-12-04 (docs/GPU_BENCH.md, with an earlier form
of the same counter): K 720p, 2.30 % of 36,963,312 region runs found a tiny or zero result; 0.011 % a tiny one.
"""
import json
import os
import re
import struct
import sys


def make(case, glsl, offset, out):
    c = json.load(open(os.path.join(case, "case.json")))
    st = c["params"][0].get("struct")
    if st is None:
        sys.exit("the case's first parameter is not a struct")
    if any(f.get("at") == offset for f in st["fields"]):
        sys.exit("offset %d is taken" % offset)
    st["fields"].append({"at": offset, "buffer": "dbg"})
    c["buffers"]["dbg"] = {"bytes": 1 << 21, "init": {"zero": True}}
    c["outputs"].append({"buffer": "dbg", "type": "u32"})
    # paths in the case are relative to it: make them absolute for the copy
    if "ptx" in c:
        c["ptx"] = os.path.abspath(os.path.join(case, c["ptx"]))
    elif os.path.exists(os.path.join(case, "kernel.ptx")):
        c["ptx"] = os.path.abspath(os.path.join(case, "kernel.ptx"))

    def absolute(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "file" and isinstance(v, str):
                    o[k] = os.path.abspath(os.path.join(case, v))
                else:
                    absolute(v)
        elif isinstance(o, list):
            for v in o:
                absolute(v)

    absolute(c.get("buffers", {}))
    absolute(c.get("textures", {}))
    absolute(c.get("surfaces", {}))
    d = os.path.join(out, "case")
    os.makedirs(d, exist_ok=True)
    json.dump(c, open(os.path.join(d, "case.json"), "w"), indent=1)
    src = open(glsl).read()
    # the first pass's verdict (p2g_redo: the smallest nonzero magnitude p2g_u below 2^-40) and the check's
    # (p2g_redoz: a tiny result, exact zeros let through, p2g_m), each counted whatever the device facts say
    counter = """void p2g_count_n(uint n, bool r) {
  uint64_t a = P2GU64(pc.params + %dul).v + uint64_t(8u * n);
  atomicAdd(P2GU32(a).v, 1u);
  if (r) atomicAdd(P2GU32(a + 4ul).v, 1u);
}
bool p2g_redo_n(uint n) {
  bool r = p2g_u < 0x56FFFFFEu;
  p2g_count_n(n, r);
  p2g_u = 0xFFFFFFFFu;
  return r;
}
bool p2g_redoz_n(uint n) {
  bool r = !(p2g_m > 1.17549435e-38);
  p2g_count_n(n, r);
  p2g_m = 1.0;
  return r;
}
bool p2g_redo() {""" % offset
    if src.count("bool p2g_redo() {") != 1 or src.count("bool p2g_redoz() {") != 1:
        sys.exit("no p2g_redo() and p2g_redoz() in %s" % glsl)
    src = src.replace("bool p2g_redo() {", counter)
    # the first pass's test of region n (`if (p2g_redo()) p2g_check_n(`, or with values to restore
    # `if (p2g_redo()) { ... if (p2g_check_n(`), and the check's own verdict as region 1000 + n (its
    # `  if (p2g_redoz()) p2g_exact_n(` or `  return p2g_redoz();`)
    sites = checks = 0
    lines, inside = src.split("\n"), None
    for i, l in enumerate(lines):
        m = re.match(r"(?:bool|void) p2g_check_(\d+)\(", l)
        if m:
            inside = int(m.group(1))
        elif l.startswith("}"):
            inside = None
        elif inside is not None and (l.startswith("  if (p2g_redoz()) p2g_exact_") or l == "  return p2g_redoz();"):
            lines[i] = l.replace("p2g_redoz()", "p2g_redoz_n(%du)" % (1000 + inside), 1)
            checks += 1
        elif inside is None:
            m = re.search(r"if \(p2g_redo\(\)\)(?: p2g_check_| \{.*? if \(p2g_check_)(\d+)\(", l)
            if m:
                lines[i] = l.replace("p2g_redo()", "p2g_redo_n(%su)" % m.group(1), 1)
                sites += 1
    src = "\n".join(lines)
    if sites == 0 or checks != sites:
        sys.exit("found %d region sites and %d checks: not the GLSL this script knows" % (sites, checks))
    open(os.path.join(out, "count.comp"), "w").write(src)
    print("%d region sites counted; run: ptx2glsl run %s --glsl %s --out %s" %
          (sites, d, os.path.join(out, "count.comp"), os.path.join(out, "run")))


def summarize(path):
    b = open(path, "rb").read()
    v = struct.unpack("<%dI" % (len(b) // 4), b)
    for what, lo, hi in (("first pass", 0, 1000), ("check (replays)", 1000, 2000)):
        rows = [(v[2 * n + 1], v[2 * n], n - lo) for n in range(lo, min(hi, len(v) // 2)) if v[2 * n]]
        runs = sum(r[1] for r in rows)
        tiny = sum(r[0] for r in rows)
        print("%s: %d region runs, %d with a tiny or zero result (%.3f %%)" % (what, runs, tiny,
                                                                             100.0 * tiny / max(runs, 1)))
        for t, e, n in sorted(rows, reverse=True)[:8]:
            print("  region %d: %d runs, %d tiny (%.2f %%)" % (n, e, t, 100.0 * t / e))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif len(sys.argv) == 3 and sys.argv[1] == "sum":
        summarize(sys.argv[2])
    else:
        sys.exit(__doc__)
