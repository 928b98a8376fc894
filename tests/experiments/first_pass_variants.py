#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast", docs/GPU_BENCH.md 2026-12-06): variants of a translated kernel's GLSL.
  b, c, b126: the guarded regions' first pass of an exact translation (f32_prelude.cpp p2g_region) with a float min
     of |r| (b), of |r|'s bits less one as a float (c: a zero becomes NaN, which NVIDIA's FMNMX leaves out), or the
     float min with the bound at 2^-126 (b126: zeros count as tiny, the check pass tells them, as at 5028ced);
  f16: the f16 variant's helpers with each result xor an opaque zero (now in the translator: P2G_OPAQUE0).
Run: `ptx2glsl run CASE --device nvidia --repeat 20 --glsl OUT.comp [--fact f16-native]`.
usage: first_pass_variants.py {b,c,b126,f16} IN.comp OUT.comp"""
import re, sys
def f32_first_pass(src, kind):
    if kind == 'b':   # float min of |r|: zeros count as tiny (the check pass tells exact zeros)
        t = lambda x: f'p2g_mf = min(p2g_mf, abs({x}));'
    else:             # c: |r| with its bits less one: a zero becomes NaN, which min() leaves out on NVIDIA
        t = lambda x: f'p2g_mf = min(p2g_mf, abs(uintBitsToFloat(floatBitsToUint({x}) - 1u)));'
    n0 = src.count('p2g_u = min(p2g_u, p2g_nz(')
    src = re.sub(r'p2g_u = min\(p2g_u, p2g_nz\((\w+)\)\);', lambda m: t(m.group(1)), src)
    src = src.replace('p2g_u = (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u ? 0u : min(p2g_u, p2g_nz(x));',
                      'p2g_mf = (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u ? 0.0 : p2g_mf; ' + t('x'))
    src = src.replace('bool redo = !P2G_F32_FAST || p2g_u < 0x56FFFFFEu;  // p2g_nz(2^-40)\n  p2g_u = 0xFFFFFFFFu;',
                      'bool redo = !P2G_F32_FAST || !(p2g_mf >= uintBitsToFloat(0x2B800000u));\n  p2g_mf = 1.0;')
    src = src.replace('uint p2g_u = 0xFFFFFFFFu;', 'float p2g_mf = 1.0;')
    assert n0 >= 4 and 'p2g_u' not in re.sub(r'//.*', '', src), 'p2g_u left'
    return src
def f16_barrier(src):
    i = src.index('#ifdef P2G_F16_NATIVE\nfloat16_t p2g_h16')
    j = src.index('#else', i)
    blk = src[i:j]
    n = blk.count('return p2g_h16b(r);') + blk.count('return packFloat2x16(r);')
    blk = blk.replace('return p2g_h16b(r);', 'return p2g_h16b(r) ^ P2G_OPQ;').replace('return packFloat2x16(r);', 'return packFloat2x16(r) ^ P2G_OPQ;')
    blk = blk.replace('#ifdef P2G_F16_NATIVE\n', '#ifdef P2G_F16_NATIVE\n#define P2G_OPQ (gl_NumWorkGroups.x >> 31u)  // 0, unknown to the compiler\n', 1)
    assert n == 7, n
    return src[:i] + blk + src[j:]
what, a, b = sys.argv[1:4]
s = open(a).read()
if what in ('b', 'c', 'b126'):
    s = f32_first_pass(s, 'c' if what == 'c' else 'b')
    if what == 'b126':
        s = s.replace('!(p2g_mf >= uintBitsToFloat(0x2B800000u))', '!(p2g_mf >= uintBitsToFloat(0x00800000u))')
else:
    s = f16_barrier(s)
open(b, 'w').write(s)
