#!/usr/bin/env python3
"""Makes a large, realistic PTX module for parse_bench by replicating the nvcc kernels in data/.

    gen_big_ptx.py OUT.ptx [MEGABYTES=5]

Each copy renames every module-level symbol (functions, their parameters, variables) with a _cN suffix, so the
result is one valid module of real nvcc -O3 output, not one kernel repeated under the same name.
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
SOURCES = ["vecadd.ptx", "structparam.ptx", "fp16mma.ptx", "globals.ptx"]
HEADER = re.compile(r"^\s*\.(version|target|address_size)\b.*$", re.M)
DEFINED = re.compile(
    r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)"
    r"|^\s*(?:\.\w+\s+)*\.(?:global|const|shared)\s+(?:\.\w+\s+|\d+\s+)*([A-Za-z_$][\w$]*)", re.M)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen_big_ptx.py OUT.ptx [MEGABYTES]")
    target = float(sys.argv[2]) * 1e6 if len(sys.argv) > 2 else 5e6
    bodies = []
    for name in SOURCES:
        text = HEADER.sub("", (HERE / "data" / name).read_text())
        names = sorted({a or b for a, b in DEFINED.findall(text)}, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w$%.])(" + "|".join(map(re.escape, names)) + r")(?=(?:_param_\d+)?(?![\w$]))")
        bodies.append((text, pattern))
    out = [".version 9.0\n.target sm_90\n.address_size 64\n"]
    size, copy = len(out[0]), 0
    while size < target:
        for text, pattern in bodies:
            chunk = pattern.sub(lambda m: m.group(1) + "_c%d" % copy, text)
            out.append(chunk)
            size += len(chunk)
        copy += 1
    pathlib.Path(sys.argv[1]).write_text("".join(out))
    print("%s: %.2f MB, %d copies of %d files" % (sys.argv[1], size / 1e6, copy, len(SOURCES)))


if __name__ == "__main__":
    main()
