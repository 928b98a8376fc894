#!/usr/bin/env python3
"""Readability figures of the translator's output in generated/ (issue "Readable GLSL").

Per kernel (.comp): total lines, body lines (non-blank, non-comment lines of main(), declarations included),
standalone temporary declarations (`uint t12;`), temporaries declared in all (`uint t12;` or `uint t12 = ...;`),
the longest body line, the PTX instructions of the entry and body lines per PTX instruction, raw parameter reads
(`pc.params` in body statements other than the named parameters' `const` declarations, docs/READABLE_GLSL.md
"Names") and raw window offsets (`uint(4608ul)`, `p2g_lds32(4608u...`: an address literal where a .shared
variable's named offset could stand). Then, over all kernels, the median and maximum of body lines per PTX
instruction and the totals of the last two.

  tests/readability/measure.py [--root DIR] [--all] [--check LIMITS.json] [KERNEL.comp ...]

Also counted: conversion helper calls nested in another (`p2g_f2h_rn(p2g_h2f(...))`: issue item 2 wants one call per
PTX instruction, the conversions inside it), and register or parameter names in comments of main() (other than
the `// N: <PTX>` annotations, which quote PTX) that the code no longer names: a comment naming a register that
was folded away. --check compares the figures with the ceilings in LIMITS.json (tests/readability/limits.json)
and exits 1 naming each one exceeded: the readability test (ctest readability).

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
CONV = re.compile(r"\bp2g_(?:h2f|f2h_rn|f2bf_rn|f2d|h2d|d2f|d2h_rn|bf2f)\(")
IDENT = re.compile(r"[A-Za-z_]\w*")
ANNOT = re.compile(r"\s*// ptx:\d+(?: (.*)|$)")
RAW_OFFSET = re.compile(r"uint\(\d+ul\)|p2g_(?:ld|st)s\d+\(\d+u")


def main_body(lines):
    """The lines of main() between its opening line and its closing brace."""
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("void main()"))
    except StopIteration:
        return []
    end = next((i for i in range(start + 1, len(lines)) if lines[i] == "}"), len(lines))
    return lines[start + 1:end]


def nested_conversions(line):
    """Conversion helper calls that stand inside the parentheses of another on this line."""
    n = 0
    for m in CONV.finditer(line):
        depth, i = 1, m.end()
        while i < len(line) and depth:
            depth += {"(": 1, ")": -1}.get(line[i], 0)
            i += 1
        n += len(CONV.findall(line, m.end(), i))
    return n


def stale_comment_names(body_lines):
    """(names checked, names not in the code): identifiers in main()'s comments that are PTX register names of its
    annotations (with a scope suffix _N or not) or parameter names pOFFSET_TYPE."""
    code, comments, regs = [], [], set()
    for l in body_lines:
        m = ANNOT.match(l)
        if m:
            regs.update(re.findall(r"%([A-Za-z_$][\w$]*)", m.group(1) or ""))
            continue
        for part in re.split(r"(/\*.*?\*/|//.*$)", l):
            (comments if part.startswith(("/*", "//")) else code).append(part)
    names = set(IDENT.findall(" ".join(code)))
    checked, stale = 0, []
    for c in comments:
        for n in IDENT.findall(c):
            if n in regs or re.sub(r"_\d+$", "", n) in regs or re.fullmatch(r"p\d+_[usfb]\d+", n):
                checked += 1
                if n not in names:
                    stale.append(n)
    return checked, stale


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
    allbody = main_body(lines)
    body = [l for l in allbody if l.strip() and not l.strip().startswith("//")]
    checked, stale = stale_comment_names(allbody)
    fig = {
        "total": len(lines),
        "body": len(body),
        "tdecl": sum(1 for l in body if TMP_DECL.match(l)),
        "temps": sum(1 for l in body if TMP_ANY.match(l)),
        "longest": max((len(l) for l in body), default=0),
        "ptx": 0,
        "rawparam": sum(l.count("pc.params") for l in body if not PARAM_DECL.match(l)),
        "rawoff": sum(len(RAW_OFFSET.findall(l)) for l in body),
        "nested": sum(nested_conversions(l.split("//")[0]) for l in body),
        "cnames": checked,
        "stale": stale,
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
            f"raw-offset {f['rawoff']:4d}  nested-conv {f['nested']:3d}  stale-names {len(f['stale'])}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--all", action="store_true", help="print every kernel")
    ap.add_argument("--check", metavar="LIMITS", help="fail when a figure exceeds its ceiling in this JSON file")
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
    rawparam = rawoff = tdecl = longest = nested = cnames = 0
    stale = []
    figs = {}
    for c in comps:
        f = measure(os.path.abspath(c), root)
        rawparam += f["rawparam"]
        rawoff += f["rawoff"]
        tdecl += f["tdecl"]
        longest = max(longest, f["longest"])
        nested += f["nested"]
        cnames += f["cnames"]
        stale += [(c, n) for n in f["stale"]]
        name = os.path.relpath(os.path.abspath(c), os.path.join(root, "generated"))
        figs[name] = f
        if a.all or named or name.startswith("rrlite/k_output/"):
            print(row(name, f))
        if f["ptx"]:
            ratios.append((f["body"] / f["ptx"], name))
    if ratios:
        r = [x for x, _ in ratios]
        mx = max(ratios)
        print(f"{len(ratios)} kernels: body lines per PTX instruction median {statistics.median(r):.2f}, "
              f"max {mx[0]:.2f} ({mx[1]})")
    print(f"{len(comps)} kernels: raw parameter reads {rawparam}, raw window offsets {rawoff}, tN declarations "
          f"{tdecl}, longest body line {longest}, nested conversion calls {nested}, register/parameter names in "
          f"comments {cnames} of which not in the code {len(stale)}")
    for c, n in stale[:10]:
        print(f"  comment names '{n}', which the code does not: {c}")
    if not a.check:
        return 0
    lim = json.load(open(a.check))
    r = [x for x, _ in ratios]
    have = {"median_body_per_ptx": statistics.median(r) if r else 0, "max_body_per_ptx": max(r) if r else 0,
            "raw_param": rawparam, "raw_offset": rawoff, "tN_declarations": tdecl, "stale_comment_names": len(stale),
            "nested_conversions": nested}
    bad = []
    for k, v in lim.get("corpus", {}).items():
        if k not in have:
            bad.append(f"limits: unknown corpus figure '{k}'")
        elif have[k] > v:
            bad.append(f"corpus {k} {have[k]:.2f} > {v}")
    keys = {"body": "body", "tN_declarations": "tdecl", "longest": "longest", "nested_conversions": "nested",
            "raw_param": "rawparam", "raw_offset": "rawoff"}
    for kern, kl in lim.get("kernels", {}).items():
        if kern not in figs:
            bad.append(f"limits: no generated kernel '{kern}'")
            continue
        for k, v in kl.items():
            if k not in keys:
                bad.append(f"limits: unknown kernel figure '{k}'")
            elif figs[kern][keys[k]] > v:
                bad.append(f"{kern} {k} {figs[kern][keys[k]]} > {v}")
    for b in bad:
        print("FAIL " + b)
    print(f"readability: {'FAILED, ' + str(len(bad)) + ' ceiling(s) exceeded' if bad else 'every figure within its ceiling'}"
          f" ({a.check})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
