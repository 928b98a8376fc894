#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): the f16 variant's opaque barrier (`^ P2G_OPAQUE0` on every hfma/hfma2
result, f32_prelude.cpp) kept only on fma results that reach another fma's addend, directly or through the
variable they are assigned to; the other fma calls take a copy of the helper without it (p2g_hfma_nb /
p2g_hfma2_nb; plain aliases outside P2G_F16_NATIVE). K's bilinear blend (hmul2 then hfma2 chained through the
addend) is where the barrier was found needed (docs/GPU_BENCH.md 2026-12-06); bench/f16x2_heavy's fma results feed
min/max, products and multiplicands only, so there the variant has no barrier left.
usage: f16_barrier_variants.py IN.comp OUT.comp    (prints how many fma calls kept the barrier)"""
import re
import sys

src = open(sys.argv[1]).read()
main_at = src.index('void main() {')
head, body = src[:main_at], src[main_at:]


def close(s, i):  # index of the ')' matching the '(' at i
    d = 0
    for j in range(i, len(s)):
        if s[j] == '(':
            d += 1
        elif s[j] == ')':
            d -= 1
            if d == 0:
                return j
    raise ValueError('unbalanced')


def enclosing(s, i):  # (function name, argument index) of the call whose argument list holds position i
    d = 0
    commas = 0
    for j in range(i - 1, -1, -1):
        c = s[j]
        if c == ')':
            d += 1
        elif c == '(':
            if d == 0:
                m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*$', s[:j])
                return (m.group(1) if m else ''), commas
            d -= 1
        elif c == ',' and d == 0:
            commas += 1
        elif c in ';{}' and d == 0:
            return None, 0
    return None, 0


FMA = re.compile(r'\bp2g_hfma2?\(')
calls = [m.start() for m in FMA.finditer(body)]
# names used as an fma addend (third argument), by any fma call
addend_names = set()
for st in calls:
    o = body.index('(', st)
    e = close(body, o)
    args, d, cur = [], 0, ''
    for c in body[o + 1:e]:
        if c == ',' and d == 0:
            args.append(cur.strip()); cur = ''
            continue
        d += c == '('
        d -= c == ')'
        cur += c
    args.append(cur.strip())
    if len(args) == 3 and re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', args[2]):
        addend_names.add(args[2])
keep = set()
for st in calls:
    fn, idx = enclosing(body, st)
    if fn in ('p2g_hfma', 'p2g_hfma2') and idx == 2:
        keep.add(st)
        continue
    if fn is None:  # a statement's value: `[type] name = p2g_hfma...(...);`
        m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*=\s*$', body[:st])
        if m and m.group(1) in addend_names:
            keep.add(st)
out = []
last = 0
for st in calls:
    name_end = body.index('(', st)
    out.append(body[last:st])
    out.append(body[st:name_end] if st in keep else body[st:name_end] + '_nb')
    last = name_end
out.append(body[last:])
body = ''.join(out)
NB = '''uint p2g_hfma_nb(uint a, uint b, uint c) {
  precise float16_t r = fma(p2g_h16(a), p2g_h16(b), p2g_h16(c));
  return p2g_h16b(r);
}
uint p2g_hfma2_nb(uint a, uint b, uint c) {
  precise f16vec2 r = fma(unpackFloat2x16(a), unpackFloat2x16(b), unpackFloat2x16(c));
  return packFloat2x16(r);
}
#else
#define p2g_hfma_nb p2g_hfma
#define p2g_hfma2_nb p2g_hfma2
#endif
'''
anchor = '''  return packFloat2x16(r) ^ P2G_OPAQUE0;
}
#else'''
assert anchor in head
head = head.replace(anchor, anchor[:-len('#else')] + NB.replace('#else\n#define p2g_hfma_nb', '#else\n#define p2g_hfma_nb', 1), 1)
# the #else branch of the original now follows our #endif: reopen it
head = head.replace(NB, NB + '#ifndef P2G_F16_NATIVE\n', 1)
open(sys.argv[2], 'w').write(head + body)
print(f'{sys.argv[2]}: {len(calls)} fma calls, {len(keep)} keep the barrier')
