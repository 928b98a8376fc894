#!/usr/bin/env python3
"""Experiment (issue "Exact and fast"): which guarded regions of K exact ask for their check, and why.

The first pass of a guarded region (translator/emit/region_guard.h) runs the region's check where p2g_redo() finds
a nonzero magnitude below 2^-40 and not both "no result below 2^-126, zeros included" (p2g_w) and "no nonzero
value below 2^-126" (p2g_u). In a warp one lane asking runs the check for all 32, so what matters is how often.

Writes a variant of K's exact GLSL (rrlite/k_output, generated/rrlite/k_output/k_output.comp) that records, per
thread, a bit per region in place of its four hires_out values (the thread's 2x2 pixels, 16 bits each: word 0 =
row 2y, word 1 = row 2y + 1; regions 1..64) and of its output texel (regions 57..65, which come after the hires_out
stores; words 1 and 2 of the mask, bit 63 set as a marker of the store), for one MODE:
  check  p2g_redo() was true (the check ran)
  zero   ... and p2g_w was 0 (a result of the run was zero, exact or flushed)
  tiny   ... and p2g_u showed a nonzero value below 2^-126 (a tiny result, or a subnormal entering value)
  small  ... and neither: the smallest nonzero magnitude was in [2^-126, 2^-40) and a result was tiny (p2g_w in
         (0, 2^-126])
Run it on lavapipe with the first pass as on NVIDIA (`ptx2glsl run ptx_corpus/rrlite/k_output --glsl V.comp
--fact f32-fast --fact hw-tex --out DIR`: lavapipe keeps subnormals, so the trackers see IEEE's values, which are
NVIDIA's wherever NVIDIA flushed nothing; without hw-tex a region that reads a texture asks every time, since only
its replay holds the software filter), then `region_check_counts.py count DIR/k_output/hires_out.bin` prints, per
region, in how many threads (and warps) the bit was set. Measured with it: docs/GPU_BENCH.md, "Which of K exact's
regions run their check".
`sites` numbers the tracked calls of one region's first pass (text order; a nested call where it stands) and records
the first whose value was a nonzero below 2^-126 (KIND tiny) or a zero result (KIND zero): its number in word 0 of
hires_out, the value's bits in word 1; `sitecount` prints the numbers.
usage: region_check_counts.py make IN.comp OUT.comp MODE
       region_check_counts.py count hires_out.bin [WIDTH]      (WIDTH: hires_out's width, 1280 at 360p)
       region_check_counts.py sites IN.comp OUT.comp REGION KIND
       region_check_counts.py sitecount hires_out.bin [WIDTH]"""
import re
import sys


def read_u16(path):
    from array import array
    a = array('H')
    with open(path, 'rb') as f:
        a.frombytes(f.read())
    return a


def hires_threads(path, w):
    """The two words each thread stored to hires_out (rows 2y and 2y + 1 of its 2x2 pixels), threads row by row."""
    a = read_u16(path)
    for y in range(len(a) // w // 2):
        r0, r1 = 2 * y * w, (2 * y + 1) * w
        for x in range(w // 2):
            yield a[r0 + 2 * x] | a[r0 + 2 * x + 1] << 16, a[r1 + 2 * x] | a[r1 + 2 * x + 1] << 16


def hires_words(text, w0, w1):
    """K's four hires_out stores (two p2g_sust2 calls, rows 2y and 2y + 1) store the words w0 and w1 instead."""
    for v, e in (('rs1520', w0 + ' & 0xFFFFu'), ('rs1530', w0 + ' >> 16u'), ('rs1540', w1 + ' & 0xFFFFu'),
                 ('rs1550', w1 + ' >> 16u')):
        text, k = re.subn(r'(p2g_sust2\(rd26 .*?, )' + v + r'\b', lambda m: m.group(1) + '(' + e + ')', text)
        text, k2 = re.subn(r'(p2g_sust2\(rd26 .*?, rs15[0-9]0, )' + v + r'\b', lambda m: m.group(1) + '(' + e + ')',
                           text)
        assert k + k2 == 1, (v, k, k2)
    return text


def sites(src, dst, region, kind):
    s = open(src).read()
    lines = s.split('\n')
    end = next(i for i, l in enumerate(lines) if re.search(r'if \(p2g_redo\(\)\).{0,400}?p2g_check_%d\(' % region, l))
    m0 = next(i for i, l in enumerate(lines) if l.startswith('void main()'))
    start = max([i for i, l in enumerate(lines[:end]) if 'p2g_check_' in l and 'if (p2g_redo())' in l], default=m0) + 1
    names = ['p2g_fadd', 'p2g_fsub', 'p2g_fmul', 'p2g_ffma', 'p2g_faddc', 'p2g_fsubc', 'p2g_fmulc', 'p2g_ffmac',
             'p2g_in', 'p2g_in_nan']
    n = 0
    def sub(m):
        nonlocal n
        n += 1
        return m.group(1) + '_s(%du, ' % n
    pat = re.compile(r'\b(' + '|'.join(names) + r')\(')
    for i in range(start, end):
        if lines[i].lstrip().startswith('//'):
            continue
        lines[i] = pat.sub(sub, lines[i])
    test = 'r != 0.0 && abs(r) < 1.17549435e-38' if kind == 'tiny' else 'r == 0.0'
    helpers = ['uint p2g_site = 0u, p2g_sitev = 0u;',
               'float p2g_rec(uint k, float r, bool res) { if (p2g_site == 0u && %s%s) { p2g_site = k; '
               'p2g_sitev = floatBitsToUint(r); } return r; }' % ('res && ' if kind == 'zero' else '', test)]
    for f in names:
        nargs = 3 if 'fma' in f else 1 if f.startswith('p2g_in') else 2
        ps = ', '.join('float %s' % 'abc'[j] for j in range(nargs))
        call = '%s(%s)' % (f, ', '.join('abc'[:nargs]))
        helpers.append('float %s_s(uint k, %s) { return p2g_rec(k, %s, %s); }' % (f, ps, call,
                       'false' if f.startswith('p2g_in') else 'true'))
    out = '\n'.join(lines)
    m0 = out.index('\nvoid main() {')
    out = out[:m0] + '\n' + '\n'.join(helpers) + out[m0:]
    out = hires_words(out, 'p2g_site', 'p2g_sitev')
    open(dst, 'w').write(out)
    print(f'{n} sites in region {region} (lines {start + 1}..{end + 1})')


if sys.argv[1] == 'sites':
    sites(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    sys.exit(0)
if sys.argv[1] == 'sitecount':
    from collections import Counter
    w = int(sys.argv[3]) if len(sys.argv) > 3 else 1280
    c = Counter((site, val if site else 0) for site, val in hires_threads(sys.argv[2], w))
    for (site, val), k in c.most_common(25):
        print(f'site {site:4d} value 0x{val:08X}: {k} threads')
    sys.exit(0)

if sys.argv[1] == 'make':
    src, dst, mode = sys.argv[2], sys.argv[3], sys.argv[4]
    s = open(src).read()
    cond = {'check': 'true', 'zero': 'w == 0.0', 'tiny': 'u < 0x00FFFFFEu',
            'small': 'u >= 0x00FFFFFEu && w > 0.0'}[mode]
    helper = ('uint p2g_cm0 = 0u, p2g_cm1 = 0u, p2g_cm2 = 0x80000000u;\n'
              'bool p2g_redo_r(uint k) {\n'
              '  uint u = p2g_u; float w = p2g_w;\n'
              '  bool r = p2g_redo();\n'
              f'  if (r && ({cond})) {{ if (k <= 32u) p2g_cm0 |= 1u << (k - 1u); else if (k <= 64u) p2g_cm1 |= 1u << (k - 33u); else p2g_cm2 |= 1u << (k - 65u); }}\n'
              '  return r;\n}\n')
    m0 = s.index('\nvoid main() {')
    head, body = s[:m0], s[m0:]
    n = 0

    def sub(m):
        global n
        n += 1
        return 'if (p2g_redo_r(' + m.group(2) + 'u))' + m.group(1)
    body = re.sub(r'if \(p2g_redo\(\)\)(.{0,400}?p2g_check_(\d+)\()', sub, body, flags=re.S)
    body = hires_words(body, 'p2g_cm0', 'p2g_cm1')
    # regions after the hires_out stores: words 1 and 2 of the mask in the last store, to output (one a thread)
    body, k = re.subn(r'(p2g_sustv\(rd40 [^;]*?uvec4\()rs1583,\s*rs1584, rs1585, rs1586\)',
                      lambda m: m.group(1) + '(p2g_cm1 & 0xFFFFu), (p2g_cm1 >> 16u), (p2g_cm2 & 0xFFFFu), '
                      '(p2g_cm2 >> 16u))', body)
    assert k == 1, k
    open(dst, 'w').write(head + '\n' + helper + body)
    print(f'{n} region tests recorded ({mode})')
else:
    w = int(sys.argv[3]) if len(sys.argv) > 3 else 1280
    tw = w // 2
    bits = [w0 | w1 << 32 for w0, w1 in hires_threads(sys.argv[2], w)]
    th = len(bits) // tw
    total = len(bits)
    print(f'{total} threads; {sum(1 for b in bits if b)} with at least one bit')
    # warps: blocks of 16x16 threads, a warp = two rows of 16 threads of one block
    warps = {}
    for y in range(th):
        for x in range(tw):
            key = (y // 16, x // 16, (y % 16) // 2)
            warps[key] = warps.get(key, 0) | bits[y * tw + x]
    for k in range(64):
        c = sum(1 for b in bits if b >> k & 1)
        wc = sum(1 for b in warps.values() if b >> k & 1)
        if c:
            print(f'region {k + 1:2d}: {c:7d} threads ({100.0 * c / total:5.2f} %), {wc:6d} of {len(warps)} warps')
    # the regions after the hires_out stores (57..65), from output (rgba16f, one texel a thread: the mask's words 1
    # and 2)
    import os
    o = os.path.join(os.path.dirname(sys.argv[2]), 'output.bin')
    if os.path.exists(o):
        b = read_u16(o)
        texels = [b[i] | b[i + 1] << 16 | b[i + 2] << 32 | b[i + 3] << 48 for i in range(0, len(b), 4)]
        # bit 63 is set in every thread that reached the store (a marker: zeros alone would not tell); texels
        # without it hold the kernel's own output (a variant that did not reach the store, or an older variant)
        late = [x for x in texels if x >> 63 & 1]
        print(f'output: {len(late)} of {len(texels)} texels written by the variant')
        for k in range(24, 63):
            c = sum(1 for x in late if x >> k & 1)
            if c:
                print(f'region {k + 33:2d}: {c:7d} threads ({100.0 * c / len(texels):5.2f} %) (from output)')
