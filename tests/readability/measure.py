#!/usr/bin/env python3
"""Readability figures of the translator's output in generated/ (issue "Readable GLSL").

Per kernel (.comp): total lines, body lines (non-blank, non-comment lines of main(), declarations included),
standalone temporary declarations (`uint t12;`), temporaries declared in all (`uint t12;` or `uint t12 = ...;`),
the longest body line, the PTX instructions of the entry and body lines per PTX instruction, raw parameter reads
(`pc.params` in body statements other than the named parameters' `const` declarations, docs/READABLE_GLSL.md
"Names") and raw window offsets (`uint(4608ul)`, `p2g_lds32(4608u...`: an address literal where a .shared
variable's named offset could stand). Then, over all kernels, the median and maximum of body lines per PTX
instruction and the totals of the last two.

  tests/readability/measure.py [--root DIR] [--all] [KERNEL.comp ...]

Without arguments: every kernel under generated/ summarised, with rrlite/k_output in full. --all prints every
kernel. PTX instructions are counted in the entry's own body (inlined .func bodies are not counted), one per
`;`-terminated statement that is not a directive.
"""
import argparse
import json
import os
import re
import statistics
import sys

TMP_DECL = re.compile(r"^\s*(?:precise\s+)?[A-Za-z_][A-Za-z0-9_]*\s+t\d+;\s*$")
TMP_ANY = re.compile(r"^\s*(?:precise\s+)?[A-Za-z_][A-Za-z0-9_]*\s+t\d+\s*[;=]")
PARAM_DECL = re.compile(r"^\s*const\s+\w+\s+\w+\s*=.*pc\.params")  # a named parameter, read once
RAW_OFFSET = re.compile(r"uint\(\d+ul\)|p2g_(?:ld|st)s\d+\(\d+u")


def main_body(lines):
    """The lines of main() between its opening line and its closing brace."""
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("void main()"))
    except StopIteration:
        return []
    end = next((i for i in range(start + 1, len(lines)) if lines[i] == "}"), len(lines))
    return lines[start + 1:end]


def ptx_instructions(ptx_text, entry):
    """Instructions of `.entry entry` (statements ending in ';' that are not directives)."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\(", ptx_text)
    if not m:
        return 0
    # the body opens at the first '{' after the parameter list's ')'
    close = ptx_text.find(")", m.end())
    i = ptx_text.find("{", close)
    depth, j = 0, i
    while j < len(ptx_text):
        c = ptx_text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        j += 1
    body = ptx_text[i + 1:j]
    n = 0
    for line in body.split("\n"):
        line = line.split("//")[0]
        for stmt in line.split(";")[:-1]:
            s = stmt.strip().lstrip("{").strip()
            s = re.sub(r"^[$A-Za-z_][$A-Za-z0-9_]*:\s*", "", s)  # a label before the instruction
            if s and not s.startswith("."):
                n += 1
    return n


def measure(comp_path, root):
    lines = open(comp_path).read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body = [l for l in main_body(lines) if l.strip() and not l.strip().startswith("//")]
    fig = {
        "total": len(lines),
        "body": len(body),
        "tdecl": sum(1 for l in body if TMP_DECL.match(l)),
        "temps": sum(1 for l in body if TMP_ANY.match(l)),
        "longest": max((len(l) for l in body), default=0),
        "ptx": 0,
        "rawparam": sum(l.count("pc.params") for l in body if not PARAM_DECL.match(l)),
        "rawoff": sum(len(RAW_OFFSET.findall(l)) for l in body),
    }
    # generated/<suite>/<case>/<entry>.comp -> ptx_corpus/<suite>/<case>/<case.json "ptx">
    rel = os.path.relpath(os.path.dirname(comp_path), os.path.join(root, "generated"))
    case = os.path.join(root, "ptx_corpus", rel)
    cj = os.path.join(case, "case.json")
    if os.path.exists(cj):
        ptx = json.load(open(cj)).get("ptx", "kernel.ptx")
        pp = os.path.join(case, ptx)
        if os.path.exists(pp):
            entry = os.path.splitext(os.path.basename(comp_path))[0]
            fig["ptx"] = ptx_instructions(open(pp, errors="replace").read(), entry)
    return fig


def row(name, f):
    per = f"{f['body'] / f['ptx']:.2f}" if f["ptx"] else "-"
    return (f"{name:60s} total {f['total']:6d}  body {f['body']:6d}  tN-decl {f['tdecl']:5d}  temps {f['temps']:5d}  "
            f"longest {f['longest']:4d}  ptx {f['ptx']:5d}  body/ptx {per}  raw-param {f['rawparam']:4d}  "
            f"raw-offset {f['rawoff']:4d}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--all", action="store_true", help="print every kernel")
    ap.add_argument("comps", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    named = bool(a.comps)
    comps = list(a.comps)
    if not named:
        for d, _, files in os.walk(os.path.join(root, "generated")):
            comps += [os.path.join(d, f) for f in files if f.endswith(".comp")]
    comps.sort()
    ratios = []
    rawparam = rawoff = 0
    for c in comps:
        f = measure(os.path.abspath(c), root)
        rawparam += f["rawparam"]
        rawoff += f["rawoff"]
        name = os.path.relpath(os.path.abspath(c), os.path.join(root, "generated"))
        if a.all or named or name.startswith("rrlite/k_output/"):
            print(row(name, f))
        if f["ptx"]:
            ratios.append((f["body"] / f["ptx"], name))
    if ratios:
        r = [x for x, _ in ratios]
        mx = max(ratios)
        print(f"{len(ratios)} kernels: body lines per PTX instruction median {statistics.median(r):.2f}, "
              f"max {mx[0]:.2f} ({mx[1]})")
    print(f"{len(comps)} kernels: raw parameter reads {rawparam}, raw window offsets {rawoff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
