#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast", docs/GPU_BENCH.md 2026-12-06, "Sign operations, the f16 barrier and
int_bits"): variants of translated GLSL, run with `ptx2glsl run CASE --device nvidia --glsl V.comp`.
  The f16 variant's opaque barrier (P2G_OPAQUE0 on every f16 result, f32_prelude.cpp) on fewer results:
    <x>_fma     only hfma/hfma2 results through the barrier (add, sub, mul, min, max plain)
    <x>_mulfma  hmul/hmul2 and hfma/hfma2 results through it
  Exact forms, to be compared output by output with the translation's own (compare_outputs.py): the barrier was
  found needed for K's hfma2 chains (docs/GPU_BENCH.md, "f16 arithmetic on K"), not for products or sums.
  bench/int_bits native:
    ib_shf32   p2g_shf_l in 32-bit shifts (n == 0 -> b, n == 32 -> a, else b << n | a >> 32 - n; exact)
    ib_noshf   p2g_shf_l returns b (timing only)
    ib_noprmt  p2g_prmt returns a ^ c (timing only)
    ib_u8      p2g_prmt's default mode on 8-bit vectors (unpack8, a byte picked by index, pack32; exact), to see
               whether NVIDIA's compiler makes its PRMT of that (not yet run on NVIDIA)
usage: barrier_shf_variants.py OUTDIR NAME=FILE.comp ...  (names starting with ib take the int_bits variants,
       the others the barrier variants)"""
import sys
out = sys.argv[1]
U8_PRMT = '''uint p2g_prmt(uint a, uint b, uint c, int mode) {
  if (mode == 0) {
    u8vec4 lo = unpack8(a), hi = unpack8(b), r;
    for (int i = 0; i < 4; ++i) {
      uint s = (c >> (4 * i)) & 0xFu;
      uint8_t v = (s & 4u) != 0u ? hi[s & 3u] : lo[s & 3u];
      r[i] = (s & 8u) != 0u ? ((v & uint8_t(0x80)) != uint8_t(0) ? uint8_t(0xFF) : uint8_t(0)) : v;
    }
    return pack32(r);
  }
'''
def w(name, s): open(f'{out}/{name}.comp', 'w').write(s)
def rep(s, old, new):
    assert old in s, old[:70]
    return s.replace(old, new)
def plain(src, fn):
    """the helper `fn` of `src` without the barrier (its result as the device computed it)"""
    i = src.index(f'uint {fn}(')
    j = src.index('\n}\n', i) + 3 if src[src.index('{', i):].startswith('{\n') else src.index('}\n', i) + 2
    body = src[i:j].replace(' ^ P2G_OPAQUE0', '').replace('return p2g_h16b(r)', 'return p2g_h16p(r)')
    return src[:i] + body + src[j:]
def barrier(s, keep):
    """the f16 variant's helpers with the barrier only on the kinds in `keep` (add, mul, fma; min/max never)"""
    a = s.index('#ifdef P2G_F16_NATIVE\n#define P2G_OPAQUE0'); b = s.index('#else', a)
    blk = rep(s[a:b], 'uint p2g_h16b(float16_t v) { return (packFloat2x16(f16vec2(v)) & 0xFFFFu) ^ P2G_OPAQUE0; }',
              'uint p2g_h16b(float16_t v) { return (packFloat2x16(f16vec2(v)) & 0xFFFFu) ^ P2G_OPAQUE0; }\n'
              'uint p2g_h16p(float16_t v) { return packFloat2x16(f16vec2(v)) & 0xFFFFu; }')
    for fn, kind in [('p2g_hadd', 'add'), ('p2g_hmul', 'mul'), ('p2g_hfma', 'fma'), ('p2g_hadd2', 'add'),
                     ('p2g_hsub2', 'add'), ('p2g_hmul2', 'mul'), ('p2g_hfma2', 'fma')]:
        if kind not in keep and f'uint {fn}(' in blk: blk = plain(blk, fn)
    s = s[:a] + blk + s[b:]
    if '#ifdef P2G_F16_NATIVE\nuint p2g_hmin(' in s:  # p2g_hminmax's f16 variant
        a = s.index('#ifdef P2G_F16_NATIVE\nuint p2g_hmin('); b = s.index('#else', a)
        s = s[:a] + s[a:b].replace(' ^ P2G_OPAQUE0', '').replace('return p2g_h16b(r)', 'return p2g_h16p(r)') + s[b:]
    return s
for arg in sys.argv[2:]:
    name, path = arg.split('=', 1)
    s = open(path).read()
    if name.startswith('ib'):
        w(name, s)
        if 'uint p2g_shf_l(' in s: w(name + '_shf32', rep(s, 'uint p2g_shf_l(uint a, uint b, uint n) { return unpackUint2x32(packUint2x32(uvec2(a, b)) << n).y; }',
                          'uint p2g_shf_l(uint a, uint b, uint n) { return n == 0u ? b : (n >= 32u ? a : (b << n) | (a >> (32u - n))); }'))
        if 'uint p2g_shf_l(' in s: w(name + '_noshf', rep(s, 'uint p2g_shf_l(uint a, uint b, uint n) {', 'uint p2g_shf_l(uint a, uint b, uint n) { return b;'))
        w(name + '_noprmt', rep(s, 'uint p2g_prmt(uint a, uint b, uint c, int mode) {', 'uint p2g_prmt(uint a, uint b, uint c, int mode) {\n  return a ^ c;'))
        u8 = rep(s, '#version 460\n', '#version 460\n#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n')
        w(name + '_u8', rep(u8, 'uint p2g_prmt(uint a, uint b, uint c, int mode) {', U8_PRMT))
    else:
        w(name, s)
        w(name + '_fma', barrier(s, {'fma'}))
        w(name + '_mulfma', barrier(s, {'fma', 'mul'}))
