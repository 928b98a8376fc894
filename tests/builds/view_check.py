#!/usr/bin/env python3
"""`ptx2glsl view`: the side-by-side page of K and of a few corpus kernels. Checks that the page holds the PTX and
the GLSL line for line (the GLSL is what `translate --no-spirv` writes), that every link names a PTX line whose text
the GLSL annotation quotes, how many PTX instruction lines are linked (printed; all but branches and instructions
fused into others), that the same input gives the same bytes, that text from the PTX cannot open a tag, and that
bad input ends in an error with nothing written.
usage: view_check.py PTX2GLSL REPO_ROOT"""
import glob
import html
import os
import re
import subprocess
import sys
import tempfile

exe, root = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="p2g_view_")
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True)


SPAN = re.compile(r'<span class="l[^"]*" id="([pg])(\d+)"(?: data-p="([\d ]+)")?><span class="n">\d+</span>(.*?)</span>')
INSTR = re.compile(r"^\s*(@!?%\w+\s+)?[a-z][\w.:]*(\s.*)?;\s*(//.*)?$")

cases = ["rrlite/k_output", "basic/f32_arith", "tex/tex2d_linear", "tensor/wmma_gemm_nvcc", "warp/redux_match"]
cases = [c for c in cases if os.path.exists(os.path.join(root, "ptx_corpus", c, "kernel.ptx"))]
check(len(cases) >= 4, "corpus kernels found")
for c in cases:
    ptx_path = os.path.join(root, "ptx_corpus", c, "kernel.ptx")
    out = os.path.join(tmp, c.replace("/", "_"))
    p = run("view", ptx_path, "-o", out)
    check(p.returncode == 0, f"{c}: view exit 0 ({p.stderr.strip()[:300]})")
    if p.returncode:
        continue
    gdir = os.path.join(tmp, c.replace("/", "_") + "_glsl")
    t = run("translate", ptx_path, "-o", gdir, "--no-spirv")
    check(t.returncode == 0, f"{c}: translate exit 0")
    ptx_lines = open(ptx_path).read().split("\n")
    if ptx_lines and ptx_lines[-1] == "":
        ptx_lines.pop()
    pages = sorted(glob.glob(os.path.join(out, "*.html")))
    check(len(pages) >= 1, f"{c}: a page per entry")
    for page in pages:
        entry = os.path.basename(page)[:-5]
        text = open(page).read()
        rows = SPAN.findall(text)
        P = {int(n): html.unescape(t) for k, n, _, t in rows if k == "p"}
        G = [(int(n), d, html.unescape(t)) for k, n, d, t in rows if k == "g"]
        check([P[i] for i in sorted(P)] == ptx_lines, f"{c}/{entry}: the page's PTX is the file, line for line")
        glsl = open(os.path.join(gdir, entry + ".comp")).read().split("\n")
        if glsl and glsl[-1] == "":
            glsl.pop()
        check([g[2] for g in G] == glsl, f"{c}/{entry}: the page's GLSL is translate's, line for line")
        bad = 0
        linked = set()
        for n, d, t in G:
            for l in d.split():
                l = int(l)
                linked.add(l)
                m = re.match(r"\s*// ptx:(\d+)  (.*)$", t)
                if l not in P:
                    bad += 1
                elif m and int(m.group(1)) == l and m.group(2).strip() != P[l].strip():
                    bad += 1  # an annotation names a line whose text it does not quote
        check(bad == 0, f"{c}/{entry}: every link names the PTX line its annotation quotes ({bad} do not)")
        instr = [i for i, l in P.items() if INSTR.match(l) and not l.strip().startswith(".")]
        unl = [i for i in instr if i not in linked]
        branches = [i for i in unl if re.search(r"\bbra(\.uni)?\b|\bret\b|\bexit\b", P[i])]
        print(f"{c}/{entry}: PTX {len(P)} lines, {len(instr)} instruction lines, {len(instr) - len(unl)} linked; "
              f"not linked: {len(branches)} branches/returns, {len(unl) - len(branches)} others")
        check(len(instr) - len(unl) >= 0.85 * len(instr), f"{c}/{entry}: at least 85% of instruction lines linked")
        check("<script>" not in text.split("</pre>")[0] and text.count("<script>") == 1, f"{c}/{entry}: one script")
    p2 = run("view", ptx_path, "-o", out + "_again")
    same = all(open(a, "rb").read() == open(os.path.join(out + "_again", os.path.basename(a)), "rb").read()
               for a in pages)
    check(p2.returncode == 0 and same, f"{c}: the same bytes twice")

# generated/ holds a page per corpus kernel (generated/regenerate.sh): every PTX instruction line of every corpus
# kernel is linked from the page of some entry of its file (a multi-entry file's page shows the other entries too).
pages = sorted(glob.glob(os.path.join(root, "generated", "*", "*", "*.html")))
comps = glob.glob(os.path.join(root, "generated", "*", "*", "*.comp"))
check(len(pages) == len(comps) and len(pages) >= 100, f"generated/: a page per kernel ({len(pages)} pages, {len(comps)} .comp)")
by_file = {}
for page in pages:
    lines = by_file.setdefault(os.path.dirname(page), {})
    for k, n, _, t in SPAN.findall(open(page).read()):
        t = html.unescape(t)
        if k == "p" and INSTR.match(t) and not t.strip().startswith("."):
            lines.setdefault(int(n), [False, t.strip()])
    for k, n, d, t in SPAN.findall(open(page).read()):
        for l in d.split():
            if int(l) in lines:
                lines[int(l)][0] = True
total = sum(len(v) for v in by_file.values())
unlinked = [(os.path.relpath(f, root), n, v[1]) for f, m in by_file.items() for n, v in sorted(m.items()) if not v[0]]
print(f"generated/: {len(by_file)} kernel folders, {total} PTX instruction lines, {total - len(unlinked)} linked")
for u in unlinked[:10]:
    print("  not linked:", *u)
check(not unlinked, f"generated/: every PTX instruction line linked ({len(unlinked)} are not)")

# A binary's PTX entries: one page per kernel and architecture (kernels of one name in several PTX entries).
libk = os.path.join(root, "tests", "fatbin", "data", "libk.so")
if os.path.exists(libk):
    p = run("view", libk, "-o", os.path.join(tmp, "libk"))
    pages = sorted(os.listdir(os.path.join(tmp, "libk"))) if p.returncode == 0 else []
    card = run("card", libk, "--json")
    import json
    kernels = len(json.loads(card.stdout)["cards"]) if card.returncode == 0 else -1
    print(f"libk.so: {len(pages)} pages, {kernels} kernels carded")
    check(p.returncode == 0 and len(pages) == kernels and len(set(pages)) == len(pages), "libk.so: a page per kernel")

# Text from the PTX cannot open a tag.
hostile = os.path.join(tmp, "hostile.ptx")
src = open(os.path.join(root, "ptx_corpus", "basic", "f32_arith", "kernel.ptx")).read()
open(hostile, "w").write("// </pre><script>alert(1)</script> & \"x\"\n" + src)
p = run("view", hostile, "-o", os.path.join(tmp, "hostile"))
check(p.returncode == 0, "hostile comment: exit 0")
if p.returncode == 0:
    t = open(glob.glob(os.path.join(tmp, "hostile", "*.html"))[0]).read()
    check("<script>alert" not in t and "&lt;script&gt;alert(1)&lt;/script&gt;" in t, "hostile comment escaped")

# Bad input: an error, nothing written.
bad_ptx = os.path.join(tmp, "bad.ptx")
open(bad_ptx, "w").write(src.replace("add.", "add.zzz.", 1))
for args, want, what in [
    (["view", bad_ptx, "-o", os.path.join(tmp, "o1")], 1, "malformed PTX"),
    (["view", os.path.join(tmp, "missing.ptx"), "-o", os.path.join(tmp, "o2")], 1, "missing file"),
    (["view", hostile, "-o", os.path.join(tmp, "o3"), "--entry", "nope"], 1, "unknown entry"),
    (["view", hostile], 2, "no -o"),
    (["view", hostile, "-o", os.path.join(tmp, "o4"), "--bogus"], 2, "unknown option"),
]:
    p = run(*args)
    o = args[args.index("-o") + 1] if "-o" in args else None
    check(p.returncode == want and p.stderr.strip() != "", f"{what}: exit {want} with a message (got {p.returncode})")
    check(o is None or not os.path.exists(o), f"{what}: nothing written")
check(run("view", "--help").returncode == 0, "--help")

print("view_check:", "FAILED: " + "; ".join(fails) if fails else "all checks passed")
sys.exit(1 if fails else 0)
