#!/usr/bin/env python3
"""Writes kernel.ptx, inputs/in.bin and case.json of ldst_wide_regs (with --probe: of ../ldst_wide_regs_probe, all
268 forms; without: the 258 forms ptx2glsl translates, see refused() below): hand-written PTX (nvcc never emits most of
these forms), a probe of what ld/st/cvt do when the register is wider than the instruction type.

PTX ISA 9.4.1 ("Operand Size Exceeding Instruction-Type Size", tables 27 and 28) predicts: a load into a wider
register zero-extends (sign-extends for .s types); a store from a wider register keeps the low bits ("chop"). The
H200 disagreed once: ld.global.f32 into a .b64 register, then st.global.f32 from it, stored 0x4E7C0000 for the
loaded 0x3F000000, the float of the integer 0x3F000000.

Every (instruction type T, register type R) pair below is one that ptxas 13 (sm_90) accepts for both ld and st
(checked with `python3 make_case.py --check`, which runs ptxas on each form alone). Each of the 8 threads reads the
16-byte record in[t] and writes, per form, one 8-byte slot of `out` (pre-filled with 0xA5 bytes, so the bytes a
store leaves alone show):
  ld  form i: ld.global.T %x, [in+16t] ; st.global.R [slot], %x      (R's own type: the register's bits as kept)
  st  form i: ld.global.R %x, [in+16t] ; st.global.T [slot], %x      (the bytes a narrow store writes)
  rt  form i: ld.global.T %x, [in+16t] ; st.global.T [slot], %x      (the issue's round trip)
  cvt form i: ld.global.S %s, [in+16t] ; cvt.D.S %x, %s ; st.global.R [slot], %x
out[(form * 8 + t) * 8 .. +8]; forms in the order ld, st, rt, cvt of the lists below (forms.json names them).

`python3 make_case.py [--probe] --explain OUT.bin` (e.g. ../ldst_wide_regs_probe/expected/out.bin with --probe) compares each ld/st/rt form's bytes with the ISA's
prediction and lists the forms that differ, with their bytes; cvt forms are listed as they are.
"""
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# ptxas 13 accepts these pairs for both ld and st (make_case.py --check lists them again)
PAIRS = [("u8", r) for r in ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64")] + \
        [("s8", r) for r in ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64")] + \
        [("b8", r) for r in ("b16", "u16", "s16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64")] + \
        [("u16", r) for r in ("b16", "s16", "b32", "u32", "s32", "b64", "u64", "s64")] + \
        [("s16", r) for r in ("b16", "u16", "b32", "u32", "s32", "b64", "u64", "s64")] + \
        [("b16", r) for r in ("u16", "s16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64")] + \
        [("u32", r) for r in ("b32", "s32", "b64", "u64", "s64")] + \
        [("s32", r) for r in ("b32", "u32", "b64", "u64", "s64")] + \
        [("b32", r) for r in ("u32", "s32", "f32", "b64", "u64", "s64", "f64")] + \
        [("f32", "b32"), ("f32", "b64"), ("u64", "b64"), ("u64", "s64"), ("s64", "b64"), ("s64", "u64"),
         ("b64", "u64"), ("b64", "s64"), ("b64", "f64"), ("f64", "b64")]
# cvt with a destination register wider than the destination type, or a source register wider than the source
# type: (cvt modifiers, source register type, destination register type)
CVTS = [("u16.u32", "b32", "b32"), ("u16.u32", "b32", "b64"), ("s16.s32", "b32", "b32"), ("s16.s32", "b32", "s64"),
        ("s8.s32", "b32", "b64"), ("u8.u32", "b32", "u64"), ("u32.u16", "b32", "b32"), ("s32.s16", "b32", "b32"),
        ("s32.s8", "b32", "b32"), ("s64.s16", "b32", "b64"), ("u64.u8", "b32", "b64"),
        ("rn.f32.s32", "b32", "b64"), ("rn.f32.f64", "b64", "b64"), ("rn.f16.f32", "b32", "b32"),
        ("rn.f16.f32", "b32", "b64"), ("f32.f16", "b32", "b32"), ("f32.f16", "b64", "b32"),
        ("rzi.s32.f32", "b32", "b64"), ("rzi.s16.f32", "b32", "b32"), ("rzi.u8.f32", "b32", "b64"),
        ("rn.f32.u64", "b64", "b32"), ("f64.f32", "b64", "b64")]
RECORDS = [  # 8 threads x 16 bytes: sign bits, all-ones, the 0x3F000000, NaN payloads
    (0x3F000000, 0x44332211, 0x88776655, 0xCCBBAA99), (0xBF800000, 0x80000000, 0x00000001, 0x7FFFFFFF),
    (0x000000FF, 0xFFFFFFFF, 0x0000FF00, 0x00FF0000), (0x00000080, 0x7FFFFFFF, 0x00008000, 0x80008000),
    (0x00008000, 0x00000001, 0xFFFF7FFF, 0x12345678), (0x0000FFFF, 0x80000000, 0x3C003C00, 0xFBFF7BFF),
    (0x89ABCDEF, 0x01234567, 0xFEDCBA98, 0x76543210), (0x7FC00001, 0xFFF80000, 0x477FE000, 0xC7800000)]


def bits(t):
    return int(t[1:]) if t[0] in "bsuf" else 16


def reg_decl(r):
    return ".reg ." + r


# st.{b8,b16,b32} from a .f32/.f64 register: on the H200 the stored bytes depend on the instruction that wrote the
# register (converted after ld.f32/.f64, unchanged after ld.b8/.b16/.b32; translator/emit/emit_mem.cpp), so ptx2glsl
# refuses these stores. This case leaves them out; the probe ../ldst_wide_regs_probe (written by `--probe`) keeps
# them with the H200's bytes.
def refused(kind, t, r):
    return kind in ("st", "rt") and t in ("b8", "b16", "b32") and r in ("f32", "f64") and bits(r) > bits(t)


def forms(probe=False):
    out = []
    for t, r in PAIRS:
        out.append(("ld", t, r, [f"ld.global.{t} %x, [%a];", f"st.global.{r} [%o], %x;"], r))
    for t, r in PAIRS:
        out.append(("st", t, r, [f"ld.global.{r} %x, [%a];", f"st.global.{t} [%o], %x;"], r))
    for t, r in PAIRS:
        out.append(("rt", t, r, [f"ld.global.{t} %x, [%a];", f"st.global.{t} [%o], %x;"], r))
    for mods, sr, dr in CVTS:
        out.append(("cvt", mods, sr + ">" + dr,
                    [f"ld.global.{sr} %s, [%a];", f"cvt.{mods} %x, %s;", f"st.global.{dr} [%o], %x;"], (sr, dr)))
    return out if probe else [f for f in out if not refused(f[0], f[1], f[2])]


def kernel_text(fs, name="ldst_wide_regs"):
    lines = ["// Hand-written PTX (nvcc never emits most of these forms): written by make_case.py, which says what",
             "// each of the forms below probes. ptx_corpus/outside/README.md.",
             ".version 8.0", ".target sm_90", ".address_size 64", "",
             f".visible .entry {name}(.param .u64 in_p, .param .u64 out_p)", "{",
             "\t.reg .b32 %t;", "\t.reg .b64 %a, %o, %base, %obase, %off;",
             "\tld.param.u64 %base, [in_p];", "\tld.param.u64 %obase, [out_p];",
             "\tcvta.to.global.u64 %base, %base;", "\tcvta.to.global.u64 %obase, %obase;",
             "\tmov.u32 %t, %tid.x;", "\tmul.wide.u32 %off, %t, 16;", "\tadd.s64 %a, %base, %off;",
             "\tmul.wide.u32 %off, %t, 8;", "\tadd.s64 %obase, %obase, %off;"]
    for i, (kind, t, r, body, regs) in enumerate(fs):
        lines.append(f"\t{{ // form {i}: {kind} {t} {r}")
        if kind == "cvt":
            lines.append(f"\t.reg .{regs[0]} %s;")
            lines.append(f"\t.reg .{regs[1]} %x;")
        else:
            lines.append(f"\t.reg .{regs} %x;")
        lines.append(f"\tadd.s64 %o, %obase, {i * 64};")
        for b in body:
            lines.append("\t" + b)
        lines.append("\t}")
    lines += ["\tret;", "}", ""]
    return "\n".join(lines)


def check(fs):
    """Runs ptxas on each form alone (one kernel per form); prints the forms it refuses."""
    bad = 0
    for i, f in enumerate(fs):
        text = kernel_text([f])
        path = "/tmp/ldst_wide_regs_check.ptx"
        with open(path, "w") as fh:
            fh.write(text)
        r = subprocess.run(["ptxas", "-arch=sm_90", path, "-o", "/tmp/ldst_wide_regs_check.cubin"],
                           capture_output=True, text=True)
        if r.returncode:
            bad += 1
            print("refused:", f[0], f[1], f[2], r.stderr.strip().splitlines()[-1])
    print(f"{len(fs) - bad} of {len(fs)} forms accepted by ptxas")
    return bad == 0


def predict(kind, t, r, rec):
    """The 8 bytes of a slot the PTX ISA predicts (None for cvt): 0xA5 where nothing is stored."""
    if kind == "cvt":
        return None
    mem = struct.pack("<4I", *rec)
    tb, rb = bits(t) // 8, bits(r) // 8
    if kind == "ld":  # zero- or sign-extend T's bytes to the register's width, stored at that width
        v = int.from_bytes(mem[:tb], "little", signed=t[0] == "s") & ((1 << (8 * rb)) - 1)
        data = v.to_bytes(rb, "little")
    elif kind == "st":  # the register holds the record's first R bytes; the store keeps the low T bytes
        data = mem[:tb]
    elif kind == "rt":  # extended, then truncated back: the loaded bytes
        data = mem[:tb]
    else:
        return None
    return data + b"\xa5" * (8 - len(data))


def explain(fs, path):
    with open(path, "rb") as f:
        out = f.read()
    bad = 0
    for i, (kind, t, r, _, _) in enumerate(fs):
        got = [out[(i * 8 + k) * 8:(i * 8 + k + 1) * 8] for k in range(8)]
        want = [predict(kind, t, r, RECORDS[k]) for k in range(8)]
        if want[0] is None:
            print(f"form {i:3d} {kind} {t} {r}: " + " ".join(g[::-1].hex() for g in got))
        elif got != want:
            bad += 1
            print(f"form {i:3d} {kind} {t} {r}: differs from the ISA's rule")
            for k in range(8):
                if got[k] != want[k]:
                    print(f"    thread {k}: got {got[k][::-1].hex()} ISA {want[k][::-1].hex()}")
    print(f"{bad} ld/st/rt forms differ from the PTX ISA's zero-extend/sign-extend/truncate rule")
    return 0


def main():
    probe = "--probe" in sys.argv
    if probe:
        sys.argv.remove("--probe")
    fs = forms(probe)
    here = os.path.join(HERE, "..", "ldst_wide_regs_probe") if probe else HERE
    name = "ldst_wide_regs"  # the probe keeps the entry name its expected/ were written with
    if "--check" in sys.argv:
        return 0 if check(fs) else 1
    if len(sys.argv) == 3 and sys.argv[1] == "--explain":
        return explain(fs, sys.argv[2])
    with open(os.path.join(here, "kernel.ptx"), "w") as f:
        f.write(kernel_text(fs, name))
    os.makedirs(os.path.join(here, "inputs"), exist_ok=True)
    with open(os.path.join(here, "inputs", "in.bin"), "wb") as f:
        for rec in RECORDS:
            f.write(struct.pack("<4I", *rec))
    case = {
        "kernel": name, "ptx": "kernel.ptx", "grid": [1, 1, 1], "block": [8, 1, 1],
        "dynamic_shared_bytes": 0,
        "buffers": {"in": {"bytes": 128, "init": {"file": "inputs/in.bin"}},
                    "out": {"bytes": len(fs) * 64, "init": {"fill": {"type": "bits", "value": 165}}}},
        "params": [{"buffer": "in"}, {"buffer": "out"}],
        "outputs": [{"buffer": "out", "type": "u64"}]}
    with open(os.path.join(here, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
        f.write("\n")
    # the form names live beside case.json: the case format refuses keys it does not know (docs/CASE_FORMAT.md)
    with open(os.path.join(here, "forms.json"), "w") as f:
        json.dump([f"{k} {t} {r}" for k, t, r, _, _ in fs], f, indent=1)
        f.write("\n")
    print(f"{len(fs)} forms, out {len(fs) * 64} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
