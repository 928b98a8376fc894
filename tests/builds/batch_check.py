#!/usr/bin/env python3
"""`ptx2glsl batch` on a folder of test binaries (tests/fatbin/data) plus the whole corpus's PTX (ptx_corpus) and
the parser stress PTX (tests/parse_stress/ptx, which holds kernels the translator refuses):
- every kernel is listed: the (PTX, entry) pairs of index.json are the `.entry` names this script finds in every
  .ptx file of the folders and in the PTX extract writes for every binary, and REPORT.md has a row for each;
- a refused kernel is a result (exit 0): it has a first reason, a diagnostics file, and its refused instruction
  forms are ranked in the coverage section, most kernels first;
- every translated kernel has its GLSL, SPIR-V (magic 0x07230203) and manifest, and its card;
- the output does not depend on the number of threads: the same inputs with -j 1 and -j 3 give the same files,
  byte for byte, apart from the times (REPORT.md's last section, index.json's "times" fields).
usage: batch_check.py PTX2GLSL REPO_ROOT"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

exe, root = sys.argv[1], sys.argv[2]
data = os.path.join(root, "tests", "fatbin", "data")
inputs = [data, os.path.join(root, "ptx_corpus"), os.path.join(root, "tests", "parse_stress", "ptx")]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


entry_re = re.compile(rb"\.entry\s+([A-Za-z_$%][\w$]*)\s*\(")


def expected_kernels(tmp):
    """(entry, source path, fatbin entry) of every kernel of the inputs, found without the batch code."""
    want = set()
    for top in inputs[1:]:
        for d, _, fs in os.walk(top):
            for f in fs:
                if f.endswith(".ptx"):
                    p = os.path.join(d, f)
                    for e in entry_re.findall(open(p, "rb").read()):
                        want.add((e.decode(), p, ""))
    for b in sorted(os.listdir(data)):
        if b.endswith((".txt", ".embeds")):
            continue
        out = os.path.join(tmp, "x_" + b)
        p = subprocess.run([exe, "extract", os.path.join(data, b), "-o", out], capture_output=True, text=True)
        check(p.returncode == 0, f"extract {b}: {p.stderr}")
        for f in sorted(os.listdir(out)) if os.path.isdir(out) else []:
            for e in entry_re.findall(open(os.path.join(out, f), "rb").read()):
                want.add((e.decode(), os.path.join(data, b), f))
    return want


def tree(d):
    out = {}
    for base, _, fs in os.walk(d):
        for f in fs:
            p = os.path.join(base, f)
            body = open(p, "rb").read()
            rel = os.path.relpath(p, d)
            if rel == "REPORT.md":
                body = body[:body.index(b"\n## Times")]
            elif rel == "index.json":
                def drop(v):
                    if isinstance(v, dict):
                        return {k: drop(x) for k, x in v.items() if k != "times"}
                    if isinstance(v, list):
                        return [drop(x) for x in v]
                    return v
                body = json.dumps(drop(json.loads(body)), sort_keys=True).encode()
            out[rel] = body
    return out


with tempfile.TemporaryDirectory() as tmp:
    want = expected_kernels(tmp)
    out = os.path.join(tmp, "all")
    p = subprocess.run([exe, "batch", *inputs, "-o", out, "-j", "2"], capture_output=True, text=True)
    print(p.stdout.strip())
    check(p.returncode == 0, f"batch: exit {p.returncode}: {p.stderr[-2000:]}")
    index = json.load(open(os.path.join(out, "index.json")))
    report = open(os.path.join(out, "REPORT.md")).read()
    got = {(k["entry"], k["source"], k["fatbinEntry"]) for k in index["kernels"]}
    check(len(index["kernels"]) == len(got), "no kernel listed twice")
    check(got == want, f"kernels listed != kernels in the inputs: missing {sorted(want - got)[:5]}, "
                       f"extra {sorted(got - want)[:5]}")
    kernels_section = report.split("\n## Kernels\n")[1].split("\n## ")[0]
    rows = [l for l in kernels_section.splitlines() if re.match(r"\| \d+ \| `", l)]
    check(len(rows) == len(want), f"REPORT.md kernel rows {len(rows)} != {len(want)} kernels")
    for k in index["kernels"]:
        check(f"`{k['entry']}`" in report, f"REPORT.md lacks {k['entry']}")
    refused = [k for k in index["kernels"] if k["status"] == "refused"]
    translated = [k for k in index["kernels"] if k["status"] == "translated"]
    check(len(refused) > 0, "the parser stress PTX holds kernels the translator refuses: none refused?")
    print(f"{len(index['kernels'])} kernels: {len(translated)} translated, {len(refused)} refused")
    for k in refused:
        check(" error: " in k["reason"], f"{k['id']}: reason {k['reason']!r}")
        check(os.path.exists(os.path.join(out, k["files"].get("diagnostics", "-"))), f"{k['id']}: no diagnostics")
        check(k["refusedForms"] or k["otherReasons"], f"{k['id']}: refused with neither a form nor a reason")
    for k in translated:
        for role in ("glsl", "spirv", "manifest", "card"):
            check(role in k["files"] and os.path.exists(os.path.join(out, k["files"][role])), f"{k['id']}: no {role}")
        spv = open(os.path.join(out, k["files"]["spirv"]), "rb").read(4)
        check(struct.unpack("<I", spv)[0] == 0x07230203, f"{k['id']}: SPIR-V magic")
    cov = index["coverage"]
    check(len(cov) > 0 and "## Coverage" in report, "coverage report")
    counts = [c["kernels"] for c in cov]
    check(counts == sorted(counts, reverse=True), "coverage ranked by kernels blocked")
    for c in cov:
        blocked = sum(1 for k in refused if c["form"] in k["refusedForms"])
        check(blocked == c["kernels"], f"coverage {c['form']}: {c['kernels']} listed, {blocked} kernels refuse it")

    # Determinism across thread counts (a smaller set: the binaries, corpus/basic, the parser stress PTX).
    few = [data, os.path.join(root, "ptx_corpus", "basic"), inputs[2]]
    outs = []
    for j in ("1", "3"):
        o = os.path.join(tmp, "j" + j)
        p = subprocess.run([exe, "batch", *few, "-o", o, "-j", j], capture_output=True, text=True)
        check(p.returncode == 0, f"batch -j {j}: exit {p.returncode}")
        outs.append(tree(o))
    a, b = outs
    check(sorted(a) == sorted(b), "-j 1 and -j 3 write the same files")
    diff = [f for f in a if f in b and a[f] != b[f]]
    check(not diff, f"-j 1 and -j 3 differ in {diff[:5]}")
    print(f"-j 1 and -j 3: {len(a)} files, {len(diff)} differ")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("batch: every kernel listed, refusals reported and ranked, output independent of -j")
