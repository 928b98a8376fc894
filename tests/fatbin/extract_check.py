#!/usr/bin/env python3
"""ptx2glsl extract on the binaries of tests/fatbin/data, checked without cuobjdump:
- reduce_none.fatbin stores its PTX and ELF entries uncompressed: each extracted file must occur in the fatbin's
  bytes verbatim (PTX followed by its NUL), so the walk over the container found the right bytes;
- every other compression mode of the same nvcc command (default/balance/size: zstd, speed: LZ4, speed with
  -compress-all: LZ4 ELF too) must give the same files, byte for byte: decompression is right;
- the DLL embeds reduce_default.fatbin (reduce.dll.embeds): the same files under its own names;
- the shared libraries' PTX names the kernels of their translation units; the cubin comes back unchanged;
- names follow <stem>.<n>.sm_<arch>.ptx|cubin with n counting each kind from 1 in file order, except a bare
  cubin or PTX file, named <stem>.sm_<arch>.cubin|ptx (as cuobjdump names transpose_sm90.cubin's entry);
- an -rdc shared object lists its linked code alone (cuobjdump leaves __nv_relfatbin out);
- a .ptx input comes back as itself.
usage: extract_check.py PTX2GLSL DATA_DIR"""
import os
import re
import subprocess
import sys
import tempfile

exe, data = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([exe, *args], capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def extract(path, out, elf=True):
    rc, so, se = run("extract", path, "-o", out, *(["--elf"] if elf else []))
    check(rc == 0, f"extract {path}: exit {rc}: {se}")
    return {f: open(os.path.join(out, f), "rb").read() for f in os.listdir(out)} if rc == 0 else {}


line_re = re.compile(r"^(PTX|ELF) file +(\d+): (\S+)")
binaries = sorted(f for f in os.listdir(data) if not f.endswith((".txt", ".embeds")))
check(len(binaries) >= 10, f"expected the test binaries in {data}, found {binaries}")
with tempfile.TemporaryDirectory() as tmp:
    got = {}
    for b in binaries:
        out = os.path.join(tmp, b)
        os.mkdir(out)
        files = extract(os.path.join(data, b), out)
        got[b] = files
        rc, listing, se = run("extract", "--list", os.path.join(data, b))
        check(rc == 0, f"--list {b}: exit {rc}: {se}")
        listed = [line_re.match(l).groups() for l in listing.splitlines() if line_re.match(l)]
        stem = os.path.splitext(b)[0]
        counts = {"PTX": 0, "ELF": 0}
        for kind, n, name in listed:
            counts[kind] += 1
            ext = "ptx" if kind == "PTX" else "cubin"
            check(int(n) == counts[kind], f"{b}: {kind} entries numbered in order ({n} after {counts[kind] - 1})")
            number = "" if b.endswith(".cubin") else r"%s\." % n
            check(re.fullmatch(re.escape(stem) + r"\.%ssm_\d+\.%s" % (number, ext), name) is not None,
                  f"{b}: entry name {name} is not {stem}.{number}sm_NN.{ext}")
            check(name in files, f"{b}: listed {name} was not written by extract")
        check(sorted(files) == sorted(n for _, _, n in listed), f"{b}: files written {sorted(files)} != listed")

    none = got["reduce_none.fatbin"]
    raw = open(os.path.join(data, "reduce_none.fatbin"), "rb").read()
    check(len(none) == 4, f"reduce_none.fatbin: 2 PTX + 2 ELF entries, got {sorted(none)}")
    for name, body in none.items():
        needle = body + b"\0" if name.endswith(".ptx") else body
        check(needle in raw, f"reduce_none.fatbin: {name} ({len(body)} bytes) is not stored verbatim in the file")
        if name.endswith(".ptx"):
            check(body.lstrip().startswith(b".version") and b"\0" not in body, f"{name}: PTX text up to its NUL")
    for mode in ["default", "balance", "size", "speed", "speed_all"]:
        files = got[f"reduce_{mode}.fatbin"]
        renamed = {k.replace(f"reduce_{mode}.", "reduce_none."): v for k, v in files.items()}
        check(renamed == none, f"reduce_{mode}.fatbin: its entries differ from the uncompressed ones")
    embeds = open(os.path.join(data, "reduce.dll.embeds")).read().strip()
    stem = os.path.splitext(embeds)[0]
    dll = {k.replace("reduce.", stem + ".", 1): v for k, v in got["reduce.dll"].items()}
    check(dll == got[embeds], f"reduce.dll: its entries differ from those of {embeds}")

    def kernels(files):
        return sorted(set(m for n, v in files.items() if n.endswith(".ptx")
                          for m in re.findall(rb"\.entry\s+(\w+)", v)))
    check(kernels(got["libk.so"]) == [b"reduce_sum_u32", b"scalar_params", b"transpose_2d"],
          f"libk.so kernels: {kernels(got['libk.so'])}")
    check(kernels(got["libk_size.so"]) == [b"reduce_sum_u32", b"transpose_2d"], "libk_size.so kernels")
    check(kernels(got["librdc.so"]) == [] and list(got["librdc.so"]) == ["librdc.1.sm_90.cubin"],
          f"librdc.so: the linked cubin alone, got {sorted(got['librdc.so'])}")
    check(kernels(got["app"]) == [b"scalar_params"], "app kernels")
    check(kernels(got["libbuild_a.so"]) == sorted([b"blend", b"block3d_index", b"reduce_sum_u32",
                                                   b"retired_scale", b"transpose_2d"]), "libbuild_a.so kernels")
    # libk.so's reduce_sum_u32 comes from the same source and options as the fatbins: the same PTX.
    libk_reduce = sorted(v for n, v in got["libk.so"].items() if n.endswith(".ptx") and b"reduce_sum_u32" in v)
    check(libk_reduce == sorted(v for n, v in none.items() if n.endswith(".ptx")), "libk.so reduce_sum_u32 PTX")
    cubin = open(os.path.join(data, "transpose_sm90.cubin"), "rb").read()
    check(got["transpose_sm90.cubin"] == {"transpose_sm90.sm_90.cubin": cubin}, "the cubin comes back unchanged")

    # A PTX file is one PTX entry: itself.
    ptx = os.path.join(tmp, "one.ptx")
    with open(ptx, "wb") as f:
        f.write(none["reduce_none.2.sm_90.ptx"])
    out = os.path.join(tmp, "ptxout")
    files = extract(ptx, out, elf=False)
    check(files == {"one.sm_90.ptx": none["reduce_none.2.sm_90.ptx"]}, f"a .ptx input: {sorted(files)}")

    # Two inputs with the same stem would write the same names: refused, nothing written.
    twice = os.path.join(data, "reduce_default.fatbin")
    rc, so, se = run("extract", twice, twice, "-o", os.path.join(tmp, "dup"))
    check(rc == 1 and "would overwrite" in se and not os.path.exists(os.path.join(tmp, "dup")),
          f"duplicate names: exit {rc}, {se}")
    rc, so, se = run("extract", "--help")
    check(rc == 0 and "usage: ptx2glsl extract" in so, "extract --help")
    rc, so, se = run("extract", os.path.join(data, "reduce_default.fatbin"))
    check(rc == 2, f"extract without -o or --list: exit {rc} (2 expected)")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"extract: {len(binaries)} binaries, every check passed")
