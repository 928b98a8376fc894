#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): an exact translation without its regions' checks, two ways.
Today a guarded region runs the device's operations once with the cheap trackers p2g_u/p2g_w (p2g_redo: the
"first way" and the "second way"), and only when both ways fail runs them a second time with the precise forms
(p2g_check_N: p2g_faddz ..., exact zeros of opposite operands or a zero factor let through, p2g_redoz), and only
then the exact replay p2g_exact_N. On NVIDIA 64 of K's 65 regions never reach their check
(region_check_counts.py), so the checks cost their presence in the module only (docs/GPU_BENCH.md).

OUT_direct.comp: after a region, `if (p2g_redo()) p2g_exact_N(...)`: the first pass as it is, and where both its
ways fail the exact replay at once (no check copy; exact, the replay being exact; slower wherever a check would
have found the device's results exact: K's region 48 in 13 % of its threads on lavapipe, --fact f32-fast).
OUT_zfirst.comp gives the first pass the check's test itself, so the check copies go: every result tracked as the
p2g_*z forms track it (p2g_m: every short form p2g_*c, as the check tests them), the entering
values still through p2g_u (`(bits << 1) - 2`, a subnormal operand sorts below p2g_nz(2^-126), a NaN entering
p2g_in_nan sets 0: what p2g_inz / p2g_in_nanz establish, in two integer operations instead of four), and after
the region `if (p2g_redo()) p2g_exact_N(...)` with p2g_redo true when the fact P2G_F32_FAST does not hold, an
entering value was subnormal (or NaN where tested, or a `_first` texture read needs the software filter, which
sets p2g_u = 0) or a result other than an exact zero is below 2^-126: the check's conditions, so sound where the
check is. The outputs must stay identical (lavapipe: `ptx2glsl run CASE --glsl OUT.comp --fact f32-fast`).
Run each with `ptx2glsl run CASE --device nvidia --glsl OUT_x.comp --repeat 20 --pipeline-stats` in the process
that compiles it and again in a new one (tests/experiments/device/call.sh section `kglsl`, KV_DIR=the folder).
usage: region_check_variants.py IN.comp OUT      (writes OUT_direct.comp, OUT_zfirst.comp)"""
import re
import sys

from glsl_variant import redefine

src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
CHECK = r'if \(p2g_redo\(\)\) p2g_check_(\d+)\('
REPLAY = r'if (p2g_redo()) p2g_exact_\1('
main = s.index('\nvoid main() {')
body, k = re.subn(CHECK, REPLAY, s[main:])
open(out + '_direct.comp', 'w').write(s[:main] + body)

forms = {  # the first pass's short forms (untested since ca8114a: p2g_faddc ...), given the check's tests
    'p2g_faddc': ('float a, float b',
                  'precise float r = a + b; p2g_m = min(p2g_m, a == -b ? 1.0 : abs(r)); return r;'),
    'p2g_fmulc': ('float a, float b',
                  'precise float r = a * b; p2g_m = min(p2g_m, min(abs(a), abs(b)) == 0.0 ? 1.0 : abs(r)); return r;'),
    'p2g_ffmac': ('float a, float b, float c',
                  'precise float r = fma(a, b, c); p2g_m = min(p2g_m, min(abs(a), abs(b)) == 0.0 ? 1.0 : abs(r)); '
                  'return r;'),
}
for name, (params, body) in forms.items():
    t = redefine(s, name, params, body)
    if t is None:
        sys.exit(f'{src}: no definition of {name}({params})')
    s = t
# p2g_m is declared after p2g_u/p2g_w, before the short forms use it: move it up
s, n = re.subn(r'^float p2g_m = 1\.0;\n', '', s, count=1, flags=re.M)
if n != 1:
    sys.exit(f'{src}: no p2g_m')
s = re.sub(r'^uint p2g_u = 0xFFFFFFFFu;\n', 'uint p2g_u = 0xFFFFFFFFu;\nfloat p2g_m = 1.0;\n', s, count=1, flags=re.M)
m = re.search(r'^bool p2g_redo\(\) \{\n', s, re.M)
if not m:
    sys.exit(f'{src}: no p2g_redo')
s = s[:m.end()] + ('  bool redo = !P2G_F32_FAST || p2g_u < 0x00FFFFFEu || !(p2g_m > 1.17549435e-38);\n'
                   '  p2g_u = 0xFFFFFFFFu;\n  p2g_m = 1.0;\n  return redo;\n}\nbool p2g_redo_was() {\n') + s[m.end():]
main = s.index('\nvoid main() {')
body, k = re.subn(CHECK, REPLAY, s[main:])
open(out + '_zfirst.comp', 'w').write(s[:main] + body)
print(f'{k} checks replaced by their replays')
