#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast", docs/GPU_BENCH.md 2026-12-06, "Where the bench kernels' time goes"):
variants of translated GLSL with one part stubbed or changed, to see what each part costs on NVIDIA. Timing only
where marked (outputs may differ); the others are exact.
  K native (ptx2glsl translate k_output/kernel.ptx --native --no-annotate):
    k0        as translated
    k_notex   p2g_tex / p2g_texi / p2g_tld4 return a value made of their coordinates (timing only)
    k_nocanon p2g_canon, p2g_f32_canon, p2g_ftz return their operand (timing only)
  bench/f16x2_heavy exact (the f16 variant runs on NVIDIA):
    h0        as translated
    h_devmm   p2g_hmin2 / p2g_hmax2 by the device's f16vec2 min()/max() (timing only)
    h_noopq   P2G_OPAQUE0 a plain 0u (timing only)
    h_noprec  the f16 variant's helpers without `precise` (timing only)
  bench/f32_heavy exact:
    x0        as translated (p2g_u integer, p2g_w float)
    x_uf      p2g_u as a float min of |x| one ulp down, a zero made NaN (min() leaves it out; exact)
    x_wonly   p2g_redo on p2g_w alone (timing only: not sound for K's exact zeros)
  bench/tex_heavy native:
    t0        as translated
    t_noload  p2g_img_texel reads nothing (timing only)
    t_nopos   p2g_tex_pos in 32-bit float arithmetic (timing only)
usage: parts_variants.py K.comp F16X2.comp F32.comp TEX.comp OUTDIR"""
import sys
k, h, x, t = (open(p).read() for p in sys.argv[1:5])
out = sys.argv[5]
def w(name, s): open(f'{out}/{name}.comp', 'w').write(s)
def rep(s, old, new):
    assert old in s, old[:70]
    return s.replace(old, new)
def first(s, head, body):
    """insert `body` as the first statement of the function whose header line starts with `head`"""
    i = s.index(head); j = s.index('{\n', i) + 2
    return s[:j] + body + s[j:]
w('k0', k)
nt = first(k, 'uvec4 p2g_tex(uint64_t h', '  if (dims < 1000u) return uvec4(floatBitsToUint(c.x), floatBitsToUint(c.y), uint(h), s);\n')
nt = first(nt, 'uvec4 p2g_texi(uint64_t h', '  if (dims < 1000u) return uvec4(uint(c.x), uint(c.y), uint(h), s);\n')
nt = first(nt, 'uvec4 p2g_tld4(uint64_t h', '  if (comp < 1000u) return uvec4(floatBitsToUint(c.x), floatBitsToUint(c.y), uint(h), s);\n')
w('k_notex', nt)
nc = rep(k, 'float p2g_canon(float x) {\n', 'float p2g_canon(float x) {\n  if (x == x || x != x) return x;\n')
nc = rep(nc, 'float p2g_f32_canon(uint b) { return', 'float p2g_f32_canon(uint b) { return uintBitsToFloat(b); return')
nc = rep(nc, 'float p2g_ftz(float x) {', 'float p2g_ftz(float x) { return x;')
w('k_nocanon', nc)
w('h0', h)
dm = rep(h, 'uint p2g_hmin2(uint x, uint y) { return', 'uint p2g_hmin2(uint x, uint y) {\n#ifdef P2G_F16_NATIVE\n  return packFloat2x16(min(unpackFloat2x16(x), unpackFloat2x16(y)));\n#endif\n  return')
dm = rep(dm, 'uint p2g_hmax2(uint x, uint y) { return', 'uint p2g_hmax2(uint x, uint y) {\n#ifdef P2G_F16_NATIVE\n  return packFloat2x16(max(unpackFloat2x16(x), unpackFloat2x16(y)));\n#endif\n  return')
w('h_devmm', dm)
w('h_noopq', rep(h, '#define P2G_OPAQUE0 (gl_NumWorkGroups.x >> 31u)', '#define P2G_OPAQUE0 0u'))
a = h.index('#ifdef P2G_F16_NATIVE'); b = h.index('#else', a)
w('h_noprec', h[:a] + h[a:b].replace('precise ', '') + h[b:])
w('x0', x)
uf = rep(x, 'uint p2g_u = 0xFFFFFFFFu;', 'float p2g_uf = 1.0;')
uf = uf.replace('p2g_u = min(p2g_u, p2g_nz(r));', 'p2g_uf = min(p2g_uf, abs(uintBitsToFloat(floatBitsToUint(r) - 1u)));')
uf = uf.replace('p2g_u = min(p2g_u, p2g_nz(x));', 'p2g_uf = min(p2g_uf, abs(uintBitsToFloat(floatBitsToUint(x) - 1u)));')
uf = rep(uf, 'p2g_u = n ? 0u : min(p2g_u, p2g_nz(x));', 'p2g_uf = n ? 0.0 : min(p2g_uf, abs(uintBitsToFloat(floatBitsToUint(x) - 1u)));')
uf = rep(uf, '(p2g_u < 0x56FFFFFEu && ', '(!(p2g_uf >= uintBitsToFloat(0x2B7FFFFFu)) && ')  # 2^-40's bits - 1
uf = rep(uf, '  p2g_u = 0xFFFFFFFFu;\n  p2g_w = 1.0;', '  p2g_uf = 1.0;\n  p2g_w = 1.0;')
assert 'p2g_u ' not in uf.split('bool p2g_redo()')[1].split('}')[0]
w('x_uf', uf)
w('x_wonly', rep(x, '(p2g_u < 0x56FFFFFEu && !(p2g_w > 1.17549435e-38))', '!(p2g_w > 1.17549435e-38)'))
w('t0', t)
w('t_noload', first(t, 'uvec4 p2g_img_texel(P2GImage d', '  if (x >= -1000000) return uvec4(uint(x * 7 + y * 13) & 0x3BFFu, uint(x + y) & 0x3BFFu, uint(y) & 0x3BFFu, uint(x) & 0x3BFFu);\n'))
w('t_nopos', first(t, 'int64_t p2g_tex_pos(float x', '  if (n < 1000000u) return int64_t(int(floor((normalized != 0u ? x * float(n) : x) * 1048576.0)));\n'))
