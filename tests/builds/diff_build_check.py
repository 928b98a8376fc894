#!/usr/bin/env python3
"""`ptx2glsl diff-build` on the two test builds (tests/fatbin/data/libbuild_a.so and libbuild_b.so, compiled from
tests/fatbin/src/builds.cu with -DBUILD_A and -DBUILD_B). What differs between them is fixed by that source, and
written down here from it, not from a run of the tool:"""
KNOWN = {
    "added": ["fresh_clamp@sm_90"],
    "removed": ["retired_scale@sm_90"],
    "changed": ["blend@sm_90"],
    "unchanged": ["block3d_index@sm_90", "reduce_sum_u32@sm_90", "transpose_2d@sm_90"],
}
# blend in B: one more f32 parameter (`bias`, at offset 28 after three pointers and a float: block 28 -> 32 bytes),
# one more parameter load and one more subtraction.
BLEND_CARD = ["parameter block: 28 -> 32 bytes", "+ offset 28: 4 bytes f32 scalar"]
BLEND_HISTOGRAM = ["ld.param.f32: 1 -> 2", "sub.f32: 1 -> 2"]
__doc__ += """
The same verdict must come from every kind of input: the libraries, folders of their extracted PTX, batch output
folders, and a mix. A build against itself: exit 0 and nothing changed; a missing input: exit 2.
usage: diff_build_check.py PTX2GLSL REPO_ROOT"""
import json
import os
import subprocess
import sys
import tempfile

exe, root = sys.argv[1], sys.argv[2]
data = os.path.join(root, "tests", "fatbin", "data")
A, B = os.path.join(data, "libbuild_a.so"), os.path.join(data, "libbuild_b.so")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def diff(old, new, *extra):
    p = subprocess.run([exe, "diff-build", old, new, "--json", "-j", "2", *extra], capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None, p.stderr
    except json.JSONDecodeError:
        return p.returncode, None, p.stderr + p.stdout


def verdict(label, old, new):
    rc, j, err = diff(old, new)
    check(rc == 1, f"{label}: exit {rc}, 1 expected (kernels changed): {err}")
    if not j:
        check(False, f"{label}: no JSON")
        return
    got = {k: sorted(j[k]) for k in ("added", "removed", "unchanged")}
    got["changed"] = sorted(c["key"] for c in j["changed"])
    for k in KNOWN:
        check(got[k] == sorted(KNOWN[k]), f"{label}: {k} {got[k]}, known {KNOWN[k]}")
    for c in j["changed"]:
        if c["key"] != "blend@sm_90":
            continue
        for want in BLEND_CARD:
            check(any(l.startswith(want) for l in c["card"]), f"{label}: blend card diff lacks '{want}': {c['card']}")
        check(sorted(c["histogram"]) == sorted(BLEND_HISTOGRAM), f"{label}: blend histogram diff {c['histogram']}")
        plus = [l for l in c["glslDiff"].split("\n") if l.startswith("+") and not l.startswith("+++")]
        check(any("sub.f32" in l for l in plus) and any("28ul" in l for l in plus),
              f"{label}: the GLSL diff shows neither the new sub.f32 nor the load at offset 28")
    print(f"{label}: {got}")


with tempfile.TemporaryDirectory() as tmp:
    verdict("libraries", A, B)
    dirs = {}
    for name, lib in (("a", A), ("b", B)):
        d = os.path.join(tmp, "ptx_" + name)
        p = subprocess.run([exe, "extract", lib, "-o", d], capture_output=True, text=True)
        check(p.returncode == 0, f"extract {lib}: {p.stderr}")
        o = os.path.join(tmp, "batch_" + name)
        p = subprocess.run([exe, "batch", lib, "-o", o, "-j", "2", "--quiet"], capture_output=True, text=True)
        check(p.returncode == 0, f"batch {lib}: {p.stderr}")
        dirs[name] = (d, o)
    verdict("PTX folders", dirs["a"][0], dirs["b"][0])
    verdict("batch outputs", dirs["a"][1], dirs["b"][1])
    verdict("batch output vs library", dirs["a"][1], B)

    rc, j, err = diff(A, A)
    check(rc == 0 and j and not j["added"] and not j["removed"] and not j["changed"] and len(j["unchanged"]) == 5,
          f"a build against itself: exit {rc}, {j and j['summary']}")
    rc, j, err = diff(os.path.join(tmp, "no_such_build"), B)
    check(rc == 2 and "error" in err, f"a missing input: exit {rc} (2 expected), {err}")
    out = os.path.join(tmp, "report")
    p = subprocess.run([exe, "diff-build", A, B, "-o", out], capture_output=True, text=True)
    check(p.returncode == 1 and os.path.exists(os.path.join(out, "REPORT.md")) and
          os.path.exists(os.path.join(out, "diff.json")), f"-o: exit {p.returncode}, files in {out}")
    if os.path.exists(os.path.join(out, "REPORT.md")):
        md = open(os.path.join(out, "REPORT.md")).read()
        check("Added 1, removed 1, changed 1, unchanged 3." in md, "REPORT.md summary line")
        check("```diff" in md, "REPORT.md holds the GLSL diff")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("diff-build: the known differences, from every kind of input")
