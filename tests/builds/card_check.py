#!/usr/bin/env python3
"""`ptx2glsl card` of ptx_corpus/rrlite/k_output against the header of the K output notes
(k_output_notes_header.txt, quoted from shared/seeds/OUTPUT_K_NOTES.md): the parameter block's size and the
offsets of its textures, buffers and surfaces, which the notes found by reading NVIDIA's kernel, must be what
the translator's handle and address analysis finds in the re-created kernel. Also: each texture is used by
tex/tld4, each surface by sust, each buffer as an address; the markdown card says the same as the JSON.
usage: card_check.py PTX2GLSL REPO_ROOT"""
import json
import os
import re
import subprocess
import sys

exe, root = sys.argv[1], sys.argv[2]
notes = open(os.path.join(os.path.dirname(__file__), "k_output_notes_header.txt")).read()
notes = notes[notes.index("# K output kernel"):]
flat = " ".join(notes.split())


def offsets(after, before):
    seg = flat[flat.index(after) + len(after):flat.index(before) if before else len(flat)]
    # three-digit numbers standing alone: offsets (not "2x", "1x1", "40 ch", "R16", "320x256")
    return [int(x) for x in re.findall(r"(?<![\w.])(\d{3})(?![\w]|\.\d)", seg)]


want = {
    "paramBytes": int(re.search(r"P = parameter block \((\d+) bytes\)", flat).group(1)),
    "textures": offsets("Textures:", "Buffers:"),
    "buffers": offsets("Buffers:", "Surfaces:"),
    "surfaces": offsets("Surfaces:", None),
}
print("from the notes:", want)
ptx = os.path.join(root, "ptx_corpus", "rrlite", "k_output", "kernel.ptx")
p = subprocess.run([exe, "card", ptx, "--json"], capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f"card --json: exit {p.returncode}: {p.stderr}")
cards = json.loads(p.stdout)["cards"]
assert len(cards) == 1, cards
c = cards[0]
got = {"paramBytes": c["paramBytes"], "textures": c["textures"], "buffers": c["buffers"], "surfaces": c["surfaces"]}
print("from the card: ", got)
failures = []
for k in want:
    if want[k] != got[k]:
        failures.append(f"{k}: notes {want[k]}, card {got[k]}")
fields = {f["offset"]: f for f in c["fields"]}
for kind, ops in (("texture", ("tex.", "tld4.")), ("surface", ("sust.",)), ("buffer", ("ld.", "st.", "atom."))):
    for off in c[kind + "s"]:
        f = fields[off]
        if f["bytes"] != 8 or f["type"] not in ("u64", "b64", "s64"):
            failures.append(f"{kind} at {off}: {f['bytes']} bytes of {f['type']}, a 64-bit handle or address expected")
        if not f["uses"] or not all(u.startswith(ops) for u in f["uses"]):
            failures.append(f"{kind} at {off}: uses {f['uses']}, expected {ops}")
        if not f["loadLines"] or not f["useLines"]:
            failures.append(f"{kind} at {off}: no PTX lines")
        lines = open(ptx).read().split("\n")
        for ln in f["loadLines"]:
            if "ld.param" not in lines[ln - 1]:
                failures.append(f"{kind} at {off}: line {ln} is not a parameter load: {lines[ln - 1].strip()}")
md = subprocess.run([exe, "card", ptx], capture_output=True, text=True).stdout
for kind, title in (("textures", "Textures"), ("buffers", "Buffers"), ("surfaces", "Surfaces")):
    line = f"{title}: " + ", ".join(str(o) for o in want[kind]) + "."
    if line not in md:
        failures.append(f"markdown card lacks '{line}'")
if f"P = parameter block ({want['paramBytes']} bytes)" not in md:
    failures.append("markdown card lacks the block size")
if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("card of k_output: block size and every texture, buffer and surface offset as in the notes")
