#!/usr/bin/env bash
# Runs the tensor-core probe's own kernels (runtime/cuda_ref/probes/mma/mma_probe.cu, PTX in tests/mma/mma_probe.ptx)
# through ptx2glsl on a Vulkan device, on the inputs the probe used (p2g-mma-inputs), and compares every D element
# with what the probe measured on the GPU: the lowered GLSL model against the hardware, bit for bit.
#
# usage: tests/mma/replay.sh PTX2GLSL MMA_INPUTS DATA_DIR SAMPLES [FORM...] [-- RUN_OPTIONS...]
#   PTX2GLSL     the ptx2glsl binary            MMA_INPUTS  the p2g-mma-inputs binary
#   DATA_DIR     holds mma_<form>.bin from p2g-mma-probe (at least SAMPLES samples each)
#   FORM         form indices (mma_gen.h kForms; default: every form, 0 to 10)
#   RUN_OPTIONS  passed to `ptx2glsl run` (e.g. --device nvidia)
# Prints, per form, how many of the SAMPLES*128 elements differ; exit 1 if any differs or a run fails.
# tests/mma/mma_probe.ptx was made by: nvcc -ptx -O3 -arch=sm_90 -std=c++17 mma_probe.cu -o mma_probe.ptx (nvcc 13)
set -u
if [ "$#" -lt 4 ] || [ "$1" = "--help" ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
p2g="$1"; inputs="$2"; data="$3"; samples="$4"; shift 4
forms=(); runopts=()
while [ "$#" -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; runopts=("$@"); break; fi
  forms+=("$1"); shift
done
[ "${#forms[@]}" -eq 0 ] && forms=(0 1 2 3 4 5 6 7 8 9 10)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for f in "${forms[@]}"; do
  case "$f" in 3|10) k=8 ;; 4|5|6|7|8|9) k=32 ;; *) k=16 ;; esac
  c="$work/form$f"
  mkdir -p "$c/inputs"
  cp "$here/mma_probe.ptx" "$c/kernel.ptx"
  "$inputs" "$f" "$samples" "$c/inputs" || { echo "form $f: p2g-mma-inputs failed"; status=1; continue; }
  blocks=$(( (samples * 32 + 255) / 256 ))
  cat > "$c/case.json" <<JSON
{
 "kernel": "_Z5probeILi${f}EEvPKjS1_S1_Pji",
 "ptx": "kernel.ptx",
 "grid": [$blocks, 1, 1],
 "block": [256, 1, 1],
 "dynamic_shared_bytes": 0,
 "buffers": {
  "a": {"bytes": $((samples * 16 * k * 4)), "init": {"file": "inputs/a.bin"}},
  "b": {"bytes": $((samples * k * 8 * 4)), "init": {"file": "inputs/b.bin"}},
  "c": {"bytes": $((samples * 128 * 4)), "init": {"file": "inputs/c.bin"}},
  "d": {"bytes": $((samples * 128 * 4)), "init": {"zero": true}}
 },
 "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"buffer": "d"}, {"s32": $samples}],
 "outputs": [{"buffer": "d", "type": "u32"}]
}
JSON
  "$p2g" run "$c" --out "$work/out" "${runopts[@]}" > "$work/run$f.log" 2>&1
  got="$work/out/form$f/d.bin"
  if [ ! -f "$got" ]; then
    echo "form $f: no output (ptx2glsl run failed):"; tail -5 "$work/run$f.log"; status=1; continue
  fi
  python3 - "$got" "$data/mma_$f.bin" "$samples" "$f" <<'PY' || status=1
import struct, sys
got = open(sys.argv[1], "rb").read()
n = int(sys.argv[3]) * 128
want = open(sys.argv[2], "rb").read()[: n * 4]
if len(want) < n * 4:
    print("form %s: %s holds fewer than %d elements" % (sys.argv[4], sys.argv[2], n)); sys.exit(1)
g = struct.unpack("<%dI" % n, got[: n * 4]); w = struct.unpack("<%dI" % n, want)
bad = [i for i in range(n) if g[i] != w[i]]
print("form %s: %d of %d elements differ from the GPU%s" % (sys.argv[4], len(bad), n,
      "" if not bad else " (first: element %d got %08x want %08x)" % (bad[0], g[bad[0]], w[bad[0]])))
sys.exit(1 if bad else 0)
PY
done
exit $status
