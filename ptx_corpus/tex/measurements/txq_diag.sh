#!/usr/bin/env bash
# Why did the CUDA reference runner get CUDA_ERROR_NOT_FOUND from cuModuleGetFunction(txq_dims)? ptxas compiles
# kernel.ptx offline and the cubin holds the txq_dims symbol, so the suspicion is CUDA's lazy module loading
# (default since CUDA 12.2): the real JIT/load error of the function surfaces as "not found" at lookup.
# Run on the GPU machine from the repository root: bash ptx_corpus/tex/measurements/txq_diag.sh
# It prints (1) the runner's result with eager loading, which shows the real error, (2) which query kind fails, by
# running one-query variants of the kernel through the same runner. Writes nothing under expected/ (uses copies).
# It runs on the first version of the case (measurements/txq_dims_v1, as of commit cd64d7d), which held all the
# query kinds; the case itself now keeps only the dimension queries. num_mipmap_levels (never in the case) is tried by turning the
# txq.width queries into txq.num_mipmap_levels.
set -u
cd "$(dirname "$0")/../../.."
ref=build-cuda/runtime/cuda_ref/ptx2glsl-cudaref
[ -x "$ref" ] || { cmake -S . -B build-cuda -DPTX2GLSL_TRANSLATOR=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build build-cuda -j "$(nproc)" --target ptx2glsl-cudaref >/dev/null; } || exit 1
tmp=$(mktemp -d)
v1=ptx_corpus/tex/measurements/txq_dims_v1
cp -r "$v1" "$tmp/eager"
echo "== eager loading"; CUDA_MODULE_LOADING=EAGER "$ref" "$tmp/eager" 2>&1 | tail -5
echo "== lazy loading (default)"; "$ref" "$tmp/eager" 2>&1 | tail -3
# One variant per query kind: keep only the asm blocks of that kind (other queries' results stay 0).
for q in width height depth normalized_coords filter_mode addr_mode_0 array_size num_mipmap_levels suq.width suq.height \
    suq.depth; do
  d="$tmp/v_$q"; cp -r "$v1" "$d"
  python3 - "$d/kernel.ptx" "$q" <<'PY'
import re, sys
p, q = sys.argv[1], sys.argv[2]
s = open(p).read()
if q == 'num_mipmap_levels':
    s = s.replace('txq.width.', 'txq.num_mipmap_levels.')
def keep(m):
    line = m.group(0)
    kind = ('suq.' + line.split('suq.')[1].split('.')[0]) if 'suq.' in line else line.split('txq.')[1].split('.')[0]
    return line if kind == q else re.sub(r'\t(txq|suq)\.\S+\s+(%r\d+),.*', r'\tmov.u32 \2, 0;', line)
s = re.sub(r'^\s*(txq|suq)\.[^\n]*$', keep, s, flags=re.M)
open(p, 'w').write(s)
PY
  printf '%-20s ' "$q"; "$ref" "$d" 2>&1 | grep -E "error|wrote" | head -1
done
rm -rf "$tmp"
