#!/usr/bin/env python3
"""A/B experiment (issue "Exact and fast", docs/GPU_BENCH.md 2026-12-06): variants of K's native GLSL (made with
`ptx2glsl translate k_output/kernel.ptx --native --no-annotate` before passes/pair_sust): k0 as translated; k_lut4
the LUT's ld.global.v4.u32 as one 16-byte load; k_pair the four scalar sust.b16 to hires_out as two pair stores (one
32-bit word where aligned and inside, else the two stores: what passes/pair_sust now does); k_nohires those stores
never happen (values live). Run: `ptx2glsl run ptx_corpus/rrlite/k_output_720p --device nvidia --native --fact
f16-native --repeat 50 --glsl OUT/V.comp`.
usage: k_native_variants.py IN.comp OUTDIR"""
import sys
src = open(sys.argv[1]).read(); out = sys.argv[2]
def w(name, s): open(f'{out}/{name}.comp', 'w').write(s)
w('k0', src)
# 1. one uvec4 load
a = src.replace('layout(buffer_reference, std430, buffer_reference_align = 4) buffer P2GU32 { uint v; };',
    'layout(buffer_reference, std430, buffer_reference_align = 4) buffer P2GU32 { uint v; };\n'
    'layout(buffer_reference, std430, buffer_reference_align = 16) buffer P2GV4 { uvec4 v; };', 1)
old = ('      uint t256 = P2GU32(rd23).v;\n      uint t257 = P2GU32((rd23 + 4ul)).v;\n'
       '      uint t258 = P2GU32((rd23 + 8ul)).v;\n      uint t259 = P2GU32((rd23 + 12ul)).v;\n')
assert old in a
a = a.replace(old, '      uvec4 t25x = P2GV4(rd23).v;\n      uint t256 = t25x.x, t257 = t25x.y, t258 = t25x.z, t259 = t25x.w;\n')
w('k_lut4', a)
# 2. pairs
PAIR = '''
void p2g_sust2(uint64_t h, uint s, ivec3 c, int xb, uint mode, uint va, uint vb) {
  uint off;
  if (xb == c.x + 2 && p2g_surf_off(h, s, c, 0, 2u, 2u, 2u, mode, off) && (off & 3u) == 0u) {
    P2GU32(P2GImage(h).texels + uint64_t(off)).v = (va & 0xFFFFu) | (vb << 16);
    return;
  }
  p2g_sust(h, s, c, 0, 2u, 2u, mode, va);
  p2g_sust(h, s, ivec3(xb, c.y, c.z), 0, 2u, 2u, mode, vb);
}
'''
m0 = src.index('\nvoid main()')
b = src[:m0] + PAIR + src[m0:]
s1 = '      p2g_sust(rd26 /* p296_u64 */, P2G_IMG8, ivec3(int(r1766), int(r1830), 0), 0, 2u, 2u, 2u, rs1520);\n'
s2 = '      p2g_sust(rd26 /* p296_u64 */, P2G_IMG8, ivec3(int(r1772), int(r1830), 0), 0, 2u, 2u, 2u, rs1530);\n'
s3 = '      p2g_sust(rd26 /* p296_u64 */, P2G_IMG8, ivec3(int(r1766), int(r1829), 0), 0, 2u, 2u, 2u, rs1540);\n'
s4 = '      p2g_sust(rd26 /* p296_u64 */, P2G_IMG8, ivec3(int(r1772), int(r1829), 0), 0, 2u, 2u, 2u, rs1550);\n'
for s in (s1, s2, s3, s4): assert b.count(s) == 1
c = b.replace(s1, '').replace(s3, '')
c = c.replace(s2, '      p2g_sust2(rd26, P2G_IMG8, ivec3(int(r1766), int(r1830), 0), int(r1772), 2u, rs1520, rs1530);\n')
c = c.replace(s4, '      p2g_sust2(rd26, P2G_IMG8, ivec3(int(r1766), int(r1829), 0), int(r1772), 2u, rs1540, rs1550);\n')
w('k_pair', c)
# 3. never
d = src
for s in (s1, s2, s3, s4): d = d.replace(s, '      if (' + s.split(', ')[-1].rstrip(');\n') + ' == 0x12345u) ' + s.strip() + '\n')
w('k_nohires', d)
