#!/usr/bin/env python3
# compare_outputs.py A_DIR B_DIR: per output file of two `ptx2glsl run --out` folders (DIR/<case>), the values that
# differ: 32-bit units for files named *tokens* (K's rgba32f surface), 16-bit units otherwise (K's f16 surfaces).
import os, sys, array
a, b = sys.argv[1], sys.argv[2]
res = []
for f in sorted(os.listdir(a)):
    x, y = open(os.path.join(a, f), 'rb').read(), open(os.path.join(b, f), 'rb').read()
    w = 4 if 'tokens' in f else 2
    t = 'I' if w == 4 else 'H'
    xa, ya = array.array(t, x), array.array(t, y)
    d = sum(1 for i in range(len(xa)) if xa[i] != ya[i]) if x != y else 0
    res.append(f'{f[:-4]} {d}/{len(xa)}')
print(', '.join(res))
