#!/usr/bin/env python3
"""GPU benchmark of the translated kernels against CUDA, on a machine with an NVIDIA GPU and NVIDIA's Vulkan driver.

For each case it runs, in one go: the CUDA reference runner (`ptx2glsl-cudaref CASE --check --time N`: the
driver's own ptxas JIT of the same PTX, outputs checked against expected/), then the translated kernel on NVIDIA's
Vulkan driver in exact mode and in native mode (`ptx2glsl run CASE --device nvidia --repeat N [--native]`), each
giving GPU-timestamp medians, pipeline creation time and whether every output is byte-identical to expected/.
Prints one table (markdown) with the ratios to CUDA and their geometric means; --md FILE also writes it there.

The driver's on-disk shader cache is turned off (__GL_SHADER_DISK_CACHE=0) so pipeline creation is measured cold,
unless --shader-cache DIR names an empty folder for it (each pipeline's first creation is still cold).

usage: gpu_bench.py --ptx2glsl BIN --cudaref BIN [--repeat N] [--md FILE] [--log DIR] [--run-args "..."] [--shader-cache DIR] CASE...
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time


def run(cmd, env, log):
    t0 = time.time()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log:
        with open(log, "a") as f:
            f.write("$ " + " ".join(cmd) + "\n" + p.stdout + "\n(exit %d, %.1f s)\n\n" % (p.returncode, time.time() - t0))
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx2glsl", required=True)
    ap.add_argument("--cudaref", required=True)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--md")
    ap.add_argument("--log")
    ap.add_argument("--run-args", default="", help="more options for every `ptx2glsl run`, e.g. \"--fact f16-native\"")
    ap.add_argument("--shader-cache", metavar="DIR",
                    help="keep the driver's on-disk shader cache on, in DIR (which should start empty: the first "
                         "creation of each pipeline is then still cold, and later runs of the same SPIR-V, e.g. a "
                         "corpus run after the benchmark, find it there)")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    if a.repeat < 3:
        ap.error("--repeat must be at least 3")
    env = dict(os.environ, __GL_SHADER_DISK_CACHE="0")
    if a.shader_cache:
        os.makedirs(a.shader_cache, exist_ok=True)
        env.update(__GL_SHADER_DISK_CACHE="1", __GL_SHADER_DISK_CACHE_PATH=os.path.abspath(a.shader_cache),
                   __GL_SHADER_DISK_CACHE_SKIP_CLEANUP="1")
    logdir = a.log
    if logdir:
        os.makedirs(logdir, exist_ok=True)
    rows, bad = [], 0
    for case in a.cases:
        name = os.path.basename(os.path.normpath(case))
        log = os.path.join(logdir, name + ".log") if logdir else None
        row = {"case": name}
        rc, out = run([a.cudaref, case, "--check", "--time", str(a.repeat)], env, log)
        m = re.search(r"CUDA GPU ms min ([\d.]+), median ([\d.]+)", out)
        row["cuda"] = float(m.group(2)) if m else None
        row["cuda_min"] = float(m.group(1)) if m else None
        row["cuda_ok"] = rc == 0
        for mode, extra in (("exact", []), ("native", ["--native"])):
            rc, out = run([a.ptx2glsl, "run", case, "--device", "nvidia", "--repeat", str(a.repeat)] + extra +
                          a.run_args.split(), env, log)
            m = re.search(r"GPU ms min ([\d.]+), median ([\d.]+) \(\d+ runs\); pipeline creation ([\d.]+) ms", out)
            row[mode] = float(m.group(2)) if m else None
            row[mode + "_min"] = float(m.group(1)) if m else None
            row[mode + "_pipe"] = float(m.group(3)) / 1000 if m else None
            s = re.search(r"(\d+) outputs identical, (\d+) differ, (\d+) errors", out)
            row[mode + "_ok"] = bool(s) and rc == 0
            row[mode + "_diff"] = (s.group(2) + " differ" if s and s.group(2) != "0" else "") if s else "error"
        rows.append(row)
        if not (row["cuda_ok"] and row["exact_ok"]):
            bad = 1
        print("%s: CUDA %s ms, exact %s ms, native %s ms" % (name, row["cuda"], row["exact"], row["native"]), flush=True)

    def f(x, fmt="%.3f"):
        return fmt % x if x is not None else "-"

    def ratio(r, mode):
        return r[mode] / r["cuda"] if r.get(mode) and r.get("cuda") else None

    # medians, with the minimum in brackets: on the H200 one module has run at two speeds from one run to the next
    # (docs/GPU_BENCH.md, 2026-12-03), which a median far above its minimum shows
    def mm(r, k):
        return f(r[k]) + (" (%s)" % f(r[k + "_min"]) if r.get(k + "_min") is not None else "")

    lines = ["| case | CUDA ms (min) | exact ms (min) | exact/CUDA | native ms (min) | native/CUDA | pipeline exact s "
             "| pipeline native s | exact identical | native identical |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["case"], mm(r, "cuda"), mm(r, "exact"), f(ratio(r, "exact"), "%.2fx"), mm(r, "native"),
            f(ratio(r, "native"), "%.2fx"), f(r["exact_pipe"], "%.2f"), f(r["native_pipe"], "%.2f"),
            "yes" if r["exact_ok"] else "NO " + r["exact_diff"], "yes" if r["native_ok"] else "no " + r["native_diff"]))
    for mode in ("exact", "native"):
        rs = [ratio(r, mode) for r in rows if ratio(r, mode)]
        if rs:
            lines.append("")
            lines.append("geometric mean %s/CUDA: %.2fx over %d cases" % (mode, math.exp(sum(map(math.log, rs)) / len(rs)), len(rs)))
    table = "\n".join(lines)
    print(table)
    if a.md:
        with open(a.md, "w") as fo:
            fo.write(table + "\n")
    return bad


if __name__ == "__main__":
    sys.exit(main())
