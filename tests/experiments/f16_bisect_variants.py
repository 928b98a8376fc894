#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): which f16 helpers of a kernel differ with the device's f16 arithmetic.

Writes variants of a translated kernel's native-mode GLSL in which chosen helpers (by kind: mul, add, fma, scalar,
f16x2) or every helper within a chosen part of main() (quarters, eighths) use the device's f16 arithmetic (the
helpers of the P2G_F16_NATIVE module, as *_n copies; *_s: f16x2 lane by lane through the scalar ones). Run each
with `ptx2glsl run CASE --device nvidia --native --glsl V.comp --out DIR` and compare the outputs with the native
translation's own (compare_outputs.py). docs/GPU_BENCH.md, 2026-12-04: K's six hfma2.
usage: f16_bisect_variants.py IN.comp OUTDIR"""
import re, sys
src = open(sys.argv[1]).read()
out = sys.argv[2]
src = src.replace('#ifdef P2G_F16_NATIVE  // defined for the module variant with the device\'s f16 arithmetic\n'
                  '#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n#endif\n',
                  '#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n')
assert 'float16 : require\n#extension GL_KHR' in src or 'float16 : require' in src
NAT = '''
float16_t p2g_h16_n(uint x) { return unpackFloat2x16(x).x; }
uint p2g_h16b_n(float16_t v) { return packFloat2x16(f16vec2(v)) & 0xFFFFu; }
uint p2g_hadd_n(uint a, uint b) { precise float16_t r = p2g_h16_n(a) + p2g_h16_n(b); return p2g_h16b_n(r); }
uint p2g_hsub_n(uint a, uint b) { return p2g_hadd_n(a, b ^ 0x8000u); }
uint p2g_hmul_n(uint a, uint b) { precise float16_t r = p2g_h16_n(a) * p2g_h16_n(b); return p2g_h16b_n(r); }
uint p2g_hfma_n(uint a, uint b, uint c) { precise float16_t r = fma(p2g_h16_n(a), p2g_h16_n(b), p2g_h16_n(c)); return p2g_h16b_n(r); }
uint p2g_hadd2_n(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) + unpackFloat2x16(b); return packFloat2x16(r); }
uint p2g_hsub2_n(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) - unpackFloat2x16(b); return packFloat2x16(r); }
uint p2g_hmul2_n(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) * unpackFloat2x16(b); return packFloat2x16(r); }
uint p2g_hfma2_n(uint a, uint b, uint c) { precise f16vec2 r = fma(unpackFloat2x16(a), unpackFloat2x16(b), unpackFloat2x16(c)); return packFloat2x16(r); }
// lane by lane through the scalar native helpers (no f16vec2)
uint p2g_hadd2_s(uint a, uint b) { return p2g_hadd_n(a, b) | (p2g_hadd_n(a >> 16, b >> 16) << 16); }
uint p2g_hsub2_s(uint a, uint b) { return p2g_hsub_n(a, b) | (p2g_hsub_n(a >> 16, b >> 16) << 16); }
uint p2g_hmul2_s(uint a, uint b) { return p2g_hmul_n(a, b) | (p2g_hmul_n(a >> 16, b >> 16) << 16); }
uint p2g_hfma2_s(uint a, uint b, uint c) { return p2g_hfma_n(a, b, c) | (p2g_hfma_n(a >> 16, b >> 16, c >> 16) << 16); }
'''
m0 = src.index('\nvoid main()')
head, body = src[:m0], src[m0:]
head += NAT
lines = body.split('\n')
n = len(lines)
def var(name, kinds, lo=0.0, hi=1.0, suffix='_n'):
    a, b = int(lo * n), int(hi * n)
    pat = re.compile(r'\bp2g_(' + '|'.join(kinds) + r')\(')
    cnt = 0
    new = []
    for i, l in enumerate(lines):
        if a <= i < b:
            l, k = pat.subn(lambda m: f'p2g_{m.group(1)}{suffix}(', l); cnt += k
        new.append(l)
    open(f'{out}/{name}.comp', 'w').write(head + '\n'.join(new))
    print(f'{name}: {cnt} calls')
ALL = ['hadd', 'hsub', 'hmul', 'hfma', 'hadd2', 'hsub2', 'hmul2', 'hfma2']
var('f_all', ALL)
var('f_mul', ['hmul', 'hmul2'])
var('f_add', ['hadd', 'hsub', 'hadd2', 'hsub2'])
var('f_fma', ['hfma', 'hfma2'])
var('f_muladd', ['hmul', 'hmul2', 'hadd', 'hsub', 'hadd2', 'hsub2'])
var('f_scalar', ['hadd', 'hsub', 'hmul', 'hfma'])
var('f_vec', ['hadd2', 'hsub2', 'hmul2', 'hfma2'])
var('f_vecs', ['hadd2', 'hsub2', 'hmul2', 'hfma2'], suffix='_s')
for q in range(4): var(f'f_q{q + 1}', ALL, q / 4, (q + 1) / 4)
for q in range(8): var(f'f_e{q + 1}', ALL, q / 8, (q + 1) / 8)
