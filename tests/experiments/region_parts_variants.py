#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): what a translated kernel's guarded regions cost on NVIDIA, in parts.
Reads an exact translation (generated/<suite>/<case>/<kernel>.comp) and writes, for timing only (outputs may
differ where a region needed its check or replay):
  OUT_nocheck.comp   every `if (p2g_redo()) ...` after a region made dead (`p2g_redo() && false`): the first pass
                     and its trackers stay, the checks and replays fold away (smaller module, fewer registers)
  OUT_notrack.comp   also the first pass's short forms (p2g_fadd, p2g_fmul, p2g_ffma and the untested p2g_*c) as
                     the bare device operation and p2g_in / p2g_in_nan as the identity: the exact translation less
                     the whole region machinery (what the rest of exact mode costs against native)
Run each with `ptx2glsl run CASE --device nvidia --glsl OUT_x.comp --repeat 30 --pipeline-stats`, alternated with
the translation itself (tests/experiments/device/call.sh section `variants`, KV_DIR=the folder, KV_MODE= ).
Measured with it on an H100 (2026-12-07): see docs/GPU_BENCH.md.
usage: region_parts_variants.py IN.comp OUT        (prints how many region tests were made dead)"""
import re
import sys

from glsl_variant import redefine

src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
nocheck, n = re.subn(r'if \(p2g_redo\(\)\) (p2g_check_|\{)', r'if (p2g_redo() && false) \1', s)
open(out + '_nocheck.comp', 'w').write(nocheck)
bare = {
    'p2g_fadd': ('float a, float b', 'precise float r = a + b; return r;'),
    'p2g_fmul': ('float a, float b', 'precise float r = a * b; return r;'),
    'p2g_ffma': ('float a, float b, float c', 'precise float r = fma(a, b, c); return r;'),
    'p2g_faddc': ('float a, float b', 'precise float r = a + b; return r;'),
    'p2g_fmulc': ('float a, float b', 'precise float r = a * b; return r;'),
    'p2g_ffmac': ('float a, float b, float c', 'precise float r = fma(a, b, c); return r;'),
    'p2g_in': ('float x', 'return x;'),
    'p2g_in_nan': ('float x', 'return x;'),
}
t = nocheck
for name, (params, body) in bare.items():
    t = redefine(t, name, params, body) or t  # a kernel without that form keeps its text
open(out + '_notrack.comp', 'w').write(t)
print(f'{n} region tests made dead')
