#!/usr/bin/env python3
"""Sanity run of corpus cases on an NVIDIA GPU through the CUDA driver API (ctypes + libcuda), meant to run
under compute-sanitizer (memcheck, racecheck, initcheck, synccheck) to prove that cases stay inside their
buffers, have no shared-memory races and read nothing uninitialised, and that two launches give the same bytes.

It is NOT the reference runner: its input generator is only an approximation of the format's generator
(numpy, same seeds), so its outputs are never expected values, and it writes no files at all.

usage: python3 ptx_corpus/gpu_sanity.py [CASE_DIR...]    (default: every ptx_corpus/*/*/case.json)
Exit status 1 when any case fails to load, launch, or gives different bytes in its two launches."""
import ctypes
import json
import os
import struct
import sys
import time

import numpy as np

cu = ctypes.CDLL("libcuda.so.1")
NP = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "s8": np.int8, "s16": np.int16,
      "s32": np.int32, "s64": np.int64, "f16": np.float16, "f32": np.float32, "f64": np.float64}
PACK = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q", "s8": "<b", "s16": "<h", "s32": "<i", "s64": "<q",
        "f16": "<e", "f32": "<f", "f64": "<d"}


def check(rc, what):
    if rc != 0:
        name = ctypes.c_char_p()
        cu.cuGetErrorName(rc, ctypes.byref(name))
        raise RuntimeError(f"{what}: {name.value.decode() if name.value else rc}")


def init_bytes(d, b):
    n, init = b["bytes"], b.get("init", {"zero": True})
    if "file" in init:
        data = open(os.path.join(d, init["file"]), "rb").read()
        return data + bytes(n - len(data))
    if "fill" in init:
        t = init["fill"]["type"]
        count = n // np.dtype(NP[t]).itemsize
        return np.full(count, init["fill"]["value"], dtype=NP[t]).tobytes().ljust(n, b"\0")
    if "iota" in init:
        t = init["iota"]["type"]
        count = n // np.dtype(NP[t]).itemsize
        return np.arange(count).astype(NP[t]).tobytes().ljust(n, b"\0")
    if "random" in init:
        r = init["random"]
        rng = np.random.default_rng(r["seed"])
        if r["type"] == "bits":
            return rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        count = n // np.dtype(NP[r["type"]]).itemsize
        if r["type"][0] == "f":
            v = rng.uniform(r["lo"], r["hi"], count)
        else:
            v = rng.integers(r["lo"], r["hi"], count, endpoint=True)
        return v.astype(NP[r["type"]]).tobytes().ljust(n, b"\0")
    return bytes(n)


def run_once(d, case, func):
    ptrs = {}
    try:
        for name, b in case["buffers"].items():
            p = ctypes.c_uint64()
            check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(b["bytes"])), f"alloc {name}")
            ptrs[name] = p.value
            data = init_bytes(d, b)
            check(cu.cuMemcpyHtoD_v2(ctypes.c_uint64(p.value), data, ctypes.c_size_t(len(data))), "HtoD")
        storage = []
        for p in case["params"]:
            if "buffer" in p:
                blob = struct.pack("<Q", ptrs[p["buffer"]] + p.get("offset", 0))
            elif "struct" in p:
                raw = bytearray(p["struct"]["bytes"])
                for f in p["struct"]["fields"]:
                    if "buffer" in f:
                        raw[f["at"]:f["at"] + 8] = struct.pack("<Q", ptrs[f["buffer"]] + f.get("offset", 0))
                    else:
                        (k,) = [k for k in f if k != "at"]
                        packed = struct.pack(PACK[k], f[k])
                        raw[f["at"]:f["at"] + len(packed)] = packed
                blob = bytes(raw)
            else:
                (k,) = p.keys()
                blob = struct.pack(PACK[k], p[k])
            storage.append(ctypes.create_string_buffer(blob, len(blob)))
        args = (ctypes.c_void_p * len(storage))(*[ctypes.cast(s, ctypes.c_void_p) for s in storage])
        g, bl = case["grid"], case["block"]
        check(cu.cuLaunchKernel(func, g[0], g[1], g[2], bl[0], bl[1], bl[2],
                                case.get("dynamic_shared_bytes", 0), None, args, None), "launch")
        check(cu.cuCtxSynchronize(), "synchronize")
        outs = {}
        for o in case.get("outputs", [{"buffer": n} for n in case["buffers"]]):
            n = case["buffers"][o["buffer"]]["bytes"]
            host = ctypes.create_string_buffer(n)
            check(cu.cuMemcpyDtoH_v2(host, ctypes.c_uint64(ptrs[o["buffer"]]), ctypes.c_size_t(n)), "DtoH")
            outs[o["buffer"]] = host.raw
        return outs
    finally:
        for p in ptrs.values():
            cu.cuMemFree_v2(ctypes.c_uint64(p))


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = argv or sorted(r for r, _, files in os.walk(here) if "case.json" in files)
    check(cu.cuInit(0), "cuInit")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    check(cu.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev), "cuCtxCreate")
    bad = 0
    for d in dirs:
        name = os.path.relpath(d, here)
        try:
            case = json.load(open(os.path.join(d, "case.json")))
            ptx = open(os.path.join(d, case.get("ptx", "kernel.ptx")), "rb").read() + b"\0"
            mod, func = ctypes.c_void_p(), ctypes.c_void_p()
            check(cu.cuModuleLoadData(ctypes.byref(mod), ptx), "module load (ptxas JIT)")
            check(cu.cuModuleGetFunction(ctypes.byref(func), mod, case["kernel"].encode()), "get function")
            t0 = time.time()
            first = run_once(d, case, func)
            second = run_once(d, case, func)  # same module: module globals must not leak between launches
            ms = (time.time() - t0) * 500
            cu.cuModuleUnload(mod)
            diff = [k for k in first if first[k] != second[k]]
            summary = " ".join(f"{k}:{sum(first[k]) & 0xFFFF:04x}" for k in first)
            if diff:
                bad += 1
                print(f"FAIL {name}: launches differ in {diff}")
            else:
                print(f"ok   {name} ({ms:.1f} ms/launch) {summary}")
        except Exception as e:  # report and go on with the next case
            bad += 1
            print(f"FAIL {name}: {e}")
    print(f"gpu_sanity.py: {len(dirs) - bad} ok, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
