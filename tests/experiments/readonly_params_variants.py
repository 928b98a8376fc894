#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast", docs/GPU_BENCH.md 2026-12-06 "Device sampling, int_bits and the f16
barrier"): variants of translated GLSL, each exact (outputs identical to the translation's), run with
`ptx2glsl run CASE --device nvidia --repeat 20 [--native] --glsl OUT/<name>.comp`.
  K native (ptx2glsl translate k_output/kernel.ptx --native --no-spirv):
    kn_ro       p2g_img_texel reads the texels through a `restrict readonly` reference (P2GR32)
    kn_parm     the kernel parameters main() reads once at its top, read again at each use (readonly reference)
  bench/int_bits (exact and native translations):
    ib{x,n}_w64 p2g_prmt_byte takes the byte by one shift of the 64-bit {b, a}
    (the 8-bit-vector form ib_u8 is tests/experiments/barrier_shf_variants.py's)
  bench/f16x2_heavy native (the f16 variant):
    hn_nobar    without the opaque barrier on fma results (timing; identical on this kernel, not on K)
Measured on an H100: no variant here was faster but hn_nobar (docs/GPU_BENCH.md).
usage: readonly_params_variants.py OUT K_NATIVE.comp INT_BITS_EXACT.comp INT_BITS_NATIVE.comp F16X2_NATIVE.comp"""
import re
import sys

out = sys.argv[1]
k, ibx, ibn, hn = (open(p).read() for p in sys.argv[2:6])


def w(name, s):
    open(f'{out}/{name}.comp', 'w').write(s)


def rep(s, old, new):
    assert old in s, old[:80]
    return s.replace(old, new)


U32 = 'layout(buffer_reference, std430, buffer_reference_align = 4) buffer P2GU32 { uint v; };\n'
RO = U32 + 'layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer P2GR32 { uint v; };\n'


def ro_texel(s):
    s = rep(s, U32, RO)
    i = s.index('uvec4 p2g_img_texel(')
    j = s.index('\n}\n', i)
    return s[:i] + s[i:j].replace('P2GU32(', 'P2GR32(') + s[j:]


def params_at_use(s):
    if 'P2GR32' not in s:
        s = rep(s, U32, RO)
    lines = []
    for ln in s.split('\n'):
        m = re.match(r'  const (float|uint|uint64_t|int) (p\d+_[a-z0-9]+) = (.*);  // (.*)$', ln)
        if m and 'pc.params' in m.group(3) and 'P2GU32(' in m.group(3):
            ln = f'#define {m.group(2)} ({m.group(3).replace("P2GU32(", "P2GR32(")})  // {m.group(4)}'
        lines.append(ln)
    return '\n'.join(lines)


W64_OLD = ('uint p2g_prmt_byte(uint a, uint b, uint sel) {\n  uint w = (sel & 4u) != 0u ? b : a;\n'
           '  uint byte = (w >> ((sel & 3u) * 8u)) & 0xFFu;')
W64_NEW = ('uint p2g_prmt_byte(uint a, uint b, uint sel) {\n'
           '  uint byte = uint(packUint2x32(uvec2(a, b)) >> ((sel & 7u) * 8u)) & 0xFFu;')
w('kn_ro', ro_texel(k))
w('kn_parm', params_at_use(k))
w('ibx_w64', rep(ibx, W64_OLD, W64_NEW))
w('ibn_w64', rep(ibn, W64_OLD, W64_NEW))
w('hn_nobar', rep(hn, ' ^ P2G_OPAQUE0', ''))
