#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): where a translated kernel's GPU time goes, by cutting main() short.

Every value main() declares or assigns is XOR-folded into one running hash at its statement; variant k returns at
the k-th of NCUTS evenly spaced statements (only statements whose enclosing blocks are all `if`s), after a store
guarded by the hash (it never happens, but the code before the cut stays live). cutNN with NN = NCUTS is the whole
kernel with the hash. Time each with `ptx2glsl run CASE --device nvidia --native --repeat 20 --glsl cutNN.comp`
(docs/GPU_BENCH.md, 2026-12-04: K's cut profile). A cut inside a conditional block lets the threads that skip the
block run on to the end.
usage: cut_variants.py IN.comp OUTDIR NCUTS    (IN.comp: `ptx2glsl translate K.ptx -o D --native --no-annotate`)"""
import re, sys
src = open(sys.argv[1]).read().split('\n')
out, ncut = sys.argv[2], int(sys.argv[3])
m0 = next(i for i, l in enumerate(src) if l.startswith('void main()'))
TYPES = r'(?:precise )?(float|uint|int|bool|uint64_t|uvec2|uvec3|uvec4|ivec2|ivec3|ivec4|vec2|vec3|vec4|f16vec2|float16_t)'
decl = re.compile(r'^\s*' + TYPES + r' ([A-Za-z_][A-Za-z0-9_]*)(.*)$')
asg = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*) = ')
def fold(t, n):
    if t in ('float', 'float16_t'): return f'floatBitsToUint(float({n}))'
    if t == 'bool': return f'({n} ? 1u : 0u)'
    if t in ('uint', 'int', 'uint64_t'): return f'uint({n})'
    if t in ('uvec2', 'uvec3', 'uvec4', 'ivec2', 'ivec3', 'ivec4'): return f'uint({n}.x ^ {n}.y)'
    return f'floatBitsToUint({n}.x)'
types = {}
res = src[:m0 + 1] + ['  uint p2g_h = 0u;']
depth_kind = []
cands = []
i = m0 + 1
done = False
while i < len(src) and not done:
    l = src[i]
    s = l.strip()
    prev = src[i - 1].rstrip()
    stmt_start = prev.endswith((';', '{', '}')) or prev.strip().startswith('//') or i == m0 + 1
    if stmt_start and s and not s.startswith(('}', '//', 'else')) and all(k == 'if' for k in depth_kind):
        cands.append(len(res))
    # the whole statement
    j = i
    if stmt_start and s and not s.startswith('//'):
        while not src[j].split('//')[0].rstrip().endswith((';', '{', '}')) and j + 1 < len(src): j += 1
    stmt = src[i:j + 1]
    res.extend(stmt)
    folds = []
    m = decl.match(l)
    if m and stmt_start and stmt[-1].rstrip().endswith(';') and ' = ' in l:
        t, n, rest = m.group(1), m.group(2), m.group(3)
        names = [n] + re.findall(r', ([A-Za-z_][A-Za-z0-9_]*) = ', rest)
        for x in names: types[x] = t; folds.append(fold(t, x))
    elif m and stmt_start:
        types[m.group(2)] = m.group(1)
    else:
        a = asg.match(l)
        if a and stmt_start and a.group(1) in types and stmt[-1].rstrip().endswith(';'):
            folds.append(fold(types[a.group(1)], a.group(1)))
    if folds:
        ind = re.match(r'\s*', l).group(0)
        res.append(ind + ' '.join(f'p2g_h ^= {f};' for f in folds))
    for ln in stmt:
        code = ln.split('//')[0]
        for ch in code:
            if ch == '{': depth_kind.append('for' if re.match(r'\s*(for|while|do)\b', code) else 'if')
            elif ch == '}':
                if not depth_kind: done = True; end = len(res) - 1; break
                depth_kind.pop()
    i = j + 1
tail = src[i:]
if res[end - 1].strip() == 'return;': end -= 1
cands.append(end)
step = (len(cands) - 1) / (ncut - 1)
for k in range(ncut):
    at = cands[round(k * step)] if k < ncut - 1 else end
    ind = re.match(r'\s*', res[at]).group(0) if k < ncut - 1 else '  '
    cut = f'{ind}{{ if (p2g_h == 0x9E3779B9u) P2GU32(uint64_t(p2g_h) << 8).v = p2g_h; return; }}'
    lines = res[:at] + [cut] + res[at:] + tail
    open(f'{out}/cut{k + 1:02d}.comp', 'w').write('\n'.join(lines))
    print(f'cut{k + 1:02d}: at {(at - m0) * 100 // (end - m0)}% of main')
