#!/usr/bin/env python3
"""Static checks of corpus cases against CASE_FORMAT.md and their own PTX, runnable without a GPU.

usage: ptx_corpus/check_cases.py [CASE_DIR...]   (default: every ptx_corpus/*/*/case.json)

Checks per case: case.json parses and has the required fields; the entry exists in the PTX; params match the
entry's .param list one to one (pointer .u64 -> buffer, scalar -> the exact PTX type, .b8 array -> struct of
the same size with fields inside it and not overlapping); buffers named by params, fields and outputs exist,
offsets stay inside them, init files exist and are not longer than the buffer; every output is under 1 MiB and
the launch has at most 64K threads; kernel.cu's first line is the compile command; no expected/ folder was
written by hand (expected/ comes only from the CUDA reference runner, so it is reported, not created).
Exits 1 when any case has an error."""
import json
import os
import re
import sys

SCALARS = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "s8": 1, "s16": 2, "s32": 4, "s64": 8,
           "f16": 2, "f32": 4, "f64": 8}
MAX_OUTPUT = 1 << 20
MAX_THREADS = 1 << 16
PARAM_RE = re.compile(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+(\w+)(?:\[(\d+)\])?")


def entry_params(ptx, name):
    """The .param declarations of `.entry name(...)`, as (type, array_len or None) in order."""
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)", ptx, re.S)
    if not m:
        return None
    return [(t, int(n) if n else None) for _, t, _, n in PARAM_RE.findall(m.group(1))]


def check_scalar_value(kind, value, where, errors):
    if kind not in SCALARS:
        errors.append(f"{where}: unknown scalar type {kind}")
        return
    if kind[0] in "us" and not isinstance(value, int):
        errors.append(f"{where}: {kind} value must be an integer")
    elif kind[0] == "u" and not 0 <= value < (1 << (8 * SCALARS[kind])):
        errors.append(f"{where}: {kind} value {value} out of range")
    elif kind[0] == "s" and not -(1 << (8 * SCALARS[kind] - 1)) <= value < (1 << (8 * SCALARS[kind] - 1)):
        errors.append(f"{where}: {kind} value {value} out of range")
    elif isinstance(value, int) and abs(value) > (1 << 53):
        errors.append(f"{where}: {value} is not exact in a double-based JSON reader")


def check_buffer_ref(ref, buffers, where, errors, size=8):
    if ref["buffer"] not in buffers:
        errors.append(f"{where}: unknown buffer {ref['buffer']}")
    elif ref.get("offset", 0) >= buffers[ref["buffer"]]["bytes"]:
        errors.append(f"{where}: offset outside buffer {ref['buffer']}")


def check_struct(st, nbytes, buffers, where, errors):
    if st.get("bytes") != nbytes:
        errors.append(f"{where}: struct bytes {st.get('bytes')} but the PTX block is {nbytes}")
    used = []
    for f in st.get("fields", []):
        at = f.get("at", -1)
        keys = [k for k in f if k != "at" and k != "offset"]
        if len(keys) != 1:
            errors.append(f"{where}: field at {at} must have exactly one value")
            continue
        kind = keys[0]
        size = 8 if kind in ("buffer", "texture", "surface") else SCALARS.get(kind, 0)
        if kind == "buffer":
            check_buffer_ref(f, buffers, f"{where} field at {at}", errors)
        elif kind in SCALARS:
            check_scalar_value(kind, f[kind], f"{where} field at {at}", errors)
        if at < 0 or at + size > nbytes or (size and at % size):
            errors.append(f"{where}: field {kind} at {at} is outside the block or misaligned")
        for a, b in used:
            if at < b and a < at + size:
                errors.append(f"{where}: field at {at} overlaps another field")
        used.append((at, at + size))


def check_case(d):
    errors = []
    with open(os.path.join(d, "case.json")) as f:
        case = json.load(f)
    for key in ("kernel", "grid", "block", "buffers", "params"):
        if key not in case:
            errors.append(f"missing field {key}")
    if errors:
        return errors
    ptx_path = os.path.join(d, case.get("ptx", "kernel.ptx"))
    if not os.path.isfile(ptx_path):
        return [f"no PTX file {ptx_path}"]
    with open(ptx_path) as f:
        decl = entry_params(f.read(), case["kernel"])
    if decl is None:
        return [f"entry {case['kernel']} not found in {ptx_path}"]

    buffers = case["buffers"]
    for name, b in buffers.items():
        init = b.get("init", {})
        if "file" in init:
            path = os.path.join(d, init["file"])
            if not os.path.isfile(path):
                errors.append(f"buffer {name}: init file {init['file']} missing")
            elif os.path.getsize(path) > b["bytes"]:
                errors.append(f"buffer {name}: init file longer than the buffer")
    threads = 1
    for g, t in zip(case["grid"], case["block"]):
        threads *= g * t
    if threads > MAX_THREADS:
        errors.append(f"{threads} threads (> {MAX_THREADS})")

    params = case["params"]
    if len(params) != len(decl):
        errors.append(f"{len(params)} params in case.json, {len(decl)} .param in the PTX")
    for k, (p, (ptype, arr)) in enumerate(zip(params, decl)):
        where = f"param {k}"
        if arr is not None:
            if "struct" not in p:
                errors.append(f"{where}: PTX declares .b8[{arr}], case.json gives {list(p)}")
            else:
                check_struct(p["struct"], arr, buffers, where, errors)
        elif "buffer" in p:
            if ptype not in ("u64", "b64"):
                errors.append(f"{where}: buffer for a .{ptype} parameter")
            check_buffer_ref(p, buffers, where, errors)
        elif "texture" in p or "surface" in p:
            kind = "texture" if "texture" in p else "surface"
            if ptype not in ("u64", "b64"):
                errors.append(f"{where}: {kind} handle for a .{ptype} parameter")
            if p[kind] not in case.get(kind + "s", {}):
                errors.append(f"{where}: unknown {kind} {p[kind]}")
        else:
            kind = next(iter(p))
            if kind != ptype:
                errors.append(f"{where}: case.json type {kind}, PTX type .{ptype}")
            check_scalar_value(kind, p[kind], where, errors)

    for o in case.get("outputs", [{"buffer": n} for n in buffers]):
        if "surface" in o:
            if o["surface"] not in case.get("surfaces", {}):
                errors.append(f"output {o['surface']}: unknown surface")
            continue
        name = o.get("buffer")
        if name not in buffers:
            errors.append(f"output {name}: unknown buffer")
        elif buffers[name]["bytes"] > MAX_OUTPUT:
            errors.append(f"output {name}: {buffers[name]['bytes']} bytes (> 1 MiB)")

    cu = os.path.join(d, "kernel.cu")
    if os.path.isfile(cu):
        with open(cu) as f:
            first = f.readline()
        if not re.match(r"// (nvcc|clang(-\d+)?) .*-o kernel\.ptx\s*$", first):
            errors.append("kernel.cu's first line is not the compile command")
    return errors


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = argv or sorted(os.path.dirname(os.path.join(r, "case.json"))
                          for r, _, files in os.walk(here) if "case.json" in files)
    bad = 0
    for d in dirs:
        try:
            errors = check_case(d)
        except (OSError, ValueError, KeyError, TypeError) as e:
            errors = [f"{type(e).__name__}: {e}"]
        name = os.path.relpath(d, here)
        if errors:
            bad += 1
            for e in errors:
                print(f"FAIL {name}: {e}")
        else:
            print(f"ok   {name}")
    print(f"check_cases.py: {len(dirs) - bad} ok, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
