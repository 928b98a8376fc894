#!/usr/bin/env python3
"""ptx2glsl extract against NVIDIA's cuobjdump (tests/fatbin/ground_truth/, made by make_ground_truth.sh on a CUDA
machine), for every binary of tests/fatbin/data:
- `extract --list`: its "PTX file n: NAME" / "ELF file n: NAME" lines are cuobjdump -lptx -lelf's, in order;
- `extract -o DIR`: the files cuobjdump -xptx all writes, the same names, byte for byte;
- `extract --elf -o DIR`: with the ELF files cuobjdump -xelf all writes, byte for byte.
When cuobjdump could not read a binary (its exit status is recorded; e.g. a Windows DLL on Linux) and the binary
embeds a fatbin of the data folder (<binary>.embeds), it is compared with that fatbin's ground truth, the names'
file part replaced, and the report says so.
usage: ground_truth_check.py PTX2GLSL TESTS_FATBIN_DIR"""
import os
import re
import subprocess
import sys
import tempfile

exe, here = sys.argv[1], sys.argv[2]
data, gt = os.path.join(here, "data"), os.path.join(here, "ground_truth")
if not os.path.isdir(gt) or not os.listdir(gt):
    print("ground truth missing: run tests/fatbin/make_ground_truth.sh on a CUDA machine "
          "(bash tests/fatbin/make_ground_truth.sh OUT.tar.gz) and unpack OUT.tar.gz in the repository root")
    sys.exit(1)
line_re = re.compile(r"^(PTX|ELF) file +\d+: \S+")


def listing_lines(text):
    return [m.group(0) for m in map(line_re.match, text.splitlines()) if m]


def files_of(d):
    return {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))} if os.path.isdir(d) else {}


def status(d, what):
    p = os.path.join(d, what + ".status")
    return int(open(p).read().strip()) if os.path.exists(p) else None


failures, compared = [], 0
binaries = sorted(f for f in os.listdir(data) if not f.endswith((".txt", ".embeds")))
with tempfile.TemporaryDirectory() as tmp:
    for b in binaries:
        path = os.path.join(data, b)
        ref = os.path.join(gt, b)
        if not os.path.isdir(ref):
            failures.append(f"{b}: no ground truth (tests/fatbin/ground_truth/{b}): run make_ground_truth.sh again")
            continue
        rename = lambda s: s
        note = ""
        if status(ref, "listing") != 0:
            emb = os.path.join(data, b + ".embeds")
            if not os.path.exists(emb):
                err = open(os.path.join(ref, "listing.stderr")).read().strip()
                failures.append(f"{b}: cuobjdump failed on it ({err}) and it embeds no fatbin of the data folder")
                continue
            inner = open(emb).read().strip()
            note = f" (cuobjdump could not read it: compared with {inner}'s ground truth)"
            old, new = os.path.splitext(inner)[0] + ".", os.path.splitext(b)[0] + "."
            rename = lambda s, old=old, new=new: s.replace(old, new)
            ref = os.path.join(gt, inner)
        want_list = [rename(l) for l in listing_lines(open(os.path.join(ref, "listing.txt")).read())]
        p = subprocess.run([exe, "extract", "--list", path], capture_output=True, text=True)
        got_list = listing_lines(p.stdout)
        ok = True
        if p.returncode != 0 or got_list != want_list:
            failures.append(f"{b}: --list\n  cuobjdump: {want_list}\n  extract:   {got_list}\n  {p.stderr.strip()}")
            ok = False
        for kind, flag in (("xptx", []), ("xelf", ["--elf"])):
            want = {rename(k): v for k, v in files_of(os.path.join(ref, kind)).items()}
            if kind == "xelf":
                want.update({rename(k): v for k, v in files_of(os.path.join(ref, "xptx")).items()})
            out = os.path.join(tmp, b + "." + kind)
            p = subprocess.run([exe, "extract", path, "-o", out, *flag], capture_output=True, text=True)
            got = files_of(out)
            if p.returncode != 0 or sorted(got) != sorted(want):
                failures.append(f"{b}: {kind} names\n  cuobjdump: {sorted(want)}\n  extract:   {sorted(got)}\n"
                                f"  {p.stderr.strip()}")
                ok = False
                continue
            for name in want:
                if got[name] != want[name]:
                    a, c = got[name], want[name]
                    first = next((i for i in range(min(len(a), len(c))) if a[i] != c[i]), min(len(a), len(c)))
                    failures.append(f"{b}: {name}: {len(a)} bytes vs cuobjdump's {len(c)}, first difference at {first}")
                    ok = False
        compared += 1
        print(f"{b}: {'identical' if ok else 'DIFFERS'}{note}")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print(f"ground truth: {compared} binaries, listings and files identical to cuobjdump's")
