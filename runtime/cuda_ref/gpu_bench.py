#!/usr/bin/env python3
"""GPU benchmark of the translated kernels against CUDA, on a machine with an NVIDIA GPU and NVIDIA's Vulkan driver.

For each case it runs, in one go: the CUDA reference runner (`ptx2glsl-cudaref CASE --check --time N`: the
driver's own ptxas JIT of the same PTX, outputs checked against expected/), then the translated kernel on NVIDIA's
Vulkan driver in exact mode and in native mode (`ptx2glsl run CASE --device nvidia --repeat N [--native]`), each
giving GPU-timestamp medians, pipeline creation time and whether every output is byte-identical to expected/.
Prints one table (markdown) with the ratios to CUDA and their geometric means; --md FILE also writes it there.

Each mode runs twice, in two processes, with the driver's on-disk shader cache in a folder that starts empty
(a temporary one unless --shader-cache DIR names it): the first process compiles the pipeline (its creation time is
the cold one reported), the second loads it from the cache, and the GPU time reported is the second's. The
process that compiles a large pipeline can run it several times slower than any later process running the same
binary (K 720p exact: 3.5 against 0.87 ms on an H100, docs/GPU_BENCH.md "K exact from the disk cache"); that
figure is kept in its own columns. --one-process times the compiling process only, with the cache off, as before
2026-12-07.

usage: gpu_bench.py --ptx2glsl BIN --cudaref BIN [--repeat N] [--md FILE] [--log DIR] [--run-args "..."]
                    [--shader-cache DIR] [--one-process] CASE...
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time


# the line `ptx2glsl run --repeat N` prints for each case's timed dispatches
TIMING = re.compile(r"GPU ms min ([\d.]+), median ([\d.]+) \(\d+ runs\); pipeline creation ([\d.]+) ms")


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
                    help="the driver's on-disk shader cache in DIR (which should start empty: the first creation of "
                         "each pipeline is then still cold, and later runs of the same SPIR-V, e.g. a corpus run "
                         "after the benchmark, find it there); default: a temporary folder")
    ap.add_argument("--one-process", action="store_true",
                    help="time the process that compiles the pipeline, with the disk cache off (no second run)")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    if a.repeat < 3:
        ap.error("--repeat must be at least 3")
    if a.one_process and a.shader_cache:
        ap.error("--one-process runs with the disk cache off: no --shader-cache")
    env = dict(os.environ, __GL_SHADER_DISK_CACHE="0")
    tmp = None
    if not a.one_process:
        cache = a.shader_cache
        if not cache:
            tmp = tempfile.TemporaryDirectory(prefix="gpu_bench_cache_")
            cache = tmp.name
        os.makedirs(cache, exist_ok=True)
        if os.listdir(cache):
            print("gpu_bench.py: note: %s is not empty; a pipeline found there is not created cold" % cache,
                  file=sys.stderr)
        env.update(__GL_SHADER_DISK_CACHE="1", __GL_SHADER_DISK_CACHE_PATH=os.path.abspath(cache),
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
            cmd = [a.ptx2glsl, "run", case, "--device", "nvidia", "--repeat", str(a.repeat)] + extra + a.run_args.split()
            rc, out = run(cmd, env, log)  # compiles the pipeline (into the cache, unless --one-process)
            m = TIMING.search(out)
            row[mode + "_pipe"] = float(m.group(3)) / 1000 if m else None
            row[mode + "_first"] = float(m.group(2)) if m else None
            if not a.one_process:  # the same binary in a new process, loaded from the cache
                rc2, out2 = run(cmd, env, log)
                m = TIMING.search(out2)
                out += out2
                rc = rc or rc2
            row[mode] = float(m.group(2)) if m else None
            row[mode + "_min"] = float(m.group(1)) if m else None
            counts = re.findall(r"(\d+) outputs identical, (\d+) differ, (\d+) errors", out)
            runs = 1 if a.one_process else 2
            differ = [c[1] for c in counts if c[1] != "0"]
            row[mode + "_ok"] = len(counts) == runs and rc == 0 and not differ and all(c[2] == "0" for c in counts)
            row[mode + "_diff"] = (differ[0] + " differ" if differ else "") if len(counts) == runs else "error"
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

    where = "the compiling process" if a.one_process else "a second process, pipeline from the disk cache"
    lines = ["GPU ms: medians of %d dispatches (min), %s" % (a.repeat, where), "",
             "| case | CUDA ms (min) | exact ms (min) | exact/CUDA | native ms (min) | native/CUDA | pipeline exact s "
             "| pipeline native s | exact identical | native identical |" +
             ("" if a.one_process else " exact ms, compiling process | native ms, compiling process |"),
             "|---|---|---|---|---|---|---|---|---|---|" + ("" if a.one_process else "---|---|")]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["case"], mm(r, "cuda"), mm(r, "exact"), f(ratio(r, "exact"), "%.2fx"), mm(r, "native"),
            f(ratio(r, "native"), "%.2fx"), f(r["exact_pipe"], "%.2f"), f(r["native_pipe"], "%.2f"),
            "yes" if r["exact_ok"] else "NO " + r["exact_diff"], "yes" if r["native_ok"] else "no " + r["native_diff"]) +
            ("" if a.one_process else " %s | %s |" % (f(r["exact_first"]), f(r["native_first"]))))
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
    if tmp:
        tmp.cleanup()
    return bad


if __name__ == "__main__":
    sys.exit(main())
