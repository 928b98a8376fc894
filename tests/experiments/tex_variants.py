#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast"): where a texture-heavy kernel's time goes in the software filter
(translator/emit/tex_prelude.cpp p2g_tex), by variants of its translated GLSL. Timing only where marked (outputs
differ); `uncond` is exact (a tap of weight 0 adds nothing and every tap is inside the image after the address
mode): the taps read without a test of their weight.
  t0      as translated
  uncond  every tap of the slice read, no `w != 0 ?` per tap (exact)
  noload  p2g_img_texel returns a value made of its coordinates, reads nothing (timing only)
  noslice the f16 slice sum and its rounding replaced by the sum of the taps' raw bits (timing only)
  nopos   p2g_tex_pos by 32-bit float arithmetic, not the exact 64-bit fixed point (timing only)
Run: `ptx2glsl run CASE --device nvidia --repeat 20 [--native] --glsl OUT/V.comp`.
usage: tex_variants.py IN.comp OUTDIR"""
import sys
src = open(sys.argv[1]).read(); out = sys.argv[2]
def w(name, s): open(f'{out}/{name}.comp', 'w').write(s)
def rep(s, old, new):
    assert old in s, old[:60]
    return s.replace(old, new)
w('t0', src)
u = src
for a, tap in (('a0', 'wa.x != 0 && !halfBorder ?'), ('a1', 'wa.y != 0 && !halfBorder ?'), ('a2', 'wa.z != 0 ?'), ('a3', 'wa.w != 0 ?')):
    u = rep(u, f'uvec4 {a} = {tap} p2g_tex_tap', f'uvec4 {a} = {"!halfBorder" if "halfBorder" in tap else "true"} ? p2g_tex_tap')
w('uncond', u)
nl = rep(src, 'uvec4 p2g_img_texel(P2GImage d, P2GImgState st, int x, int y, int z, bool raw) {\n',
         'uvec4 p2g_img_texel(P2GImage d, P2GImgState st, int x, int y, int z, bool raw) {\n'
         '  if (x >= -1000000) return uvec4(uint(x * 7 + y * 13) & 0x3BFFu, uint(x + y) & 0x3BFFu, uint(y) & 0x3BFFu, uint(x) & 0x3BFFu);\n')
w('noload', nl)
ns = rep(src, '    ivec4 S = p2g_tex_slice16(a0, a1, a2, a3, wa, e16);\n',
         '    return a0 + a1 + a2 + a3 + uvec4(wa);\n    ivec4 S = p2g_tex_slice16(a0, a1, a2, a3, wa, e16);\n')
w('noslice', ns)
npos = rep(src, 'int64_t p2g_tex_pos(float x, uint n, uint normalized, uint mode) {\n',
           'int64_t p2g_tex_pos(float x, uint n, uint normalized, uint mode) {\n'
           '  if (n < 1000000u) return int64_t(int(floor((normalized != 0u ? x * float(n) : x) * 1048576.0)));\n')
w('nopos', npos)
