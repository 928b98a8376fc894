#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and the CUDA toolkit (no LLVM/glslang needed): builds the CUDA reference runner,
# writes expected/ for the given cases (default: every case under ptx_corpus/), checks that a second run gives the
# same bytes, and, when a ptx2glsl binary and NVIDIA's Vulkan driver are available, runs the translated cases there.
#   usage: ptx_corpus/reference.sh [CASE...]      (env: PTX2GLSL=path/to/ptx2glsl, LOG=folder for logs)
set -u
cd "$(dirname "$0")/.."
LOG=${LOG:-/tmp/p2g-ref}
mkdir -p "$LOG"
if [ $# -gt 0 ]; then cases=("$@"); else mapfile -t cases < <(ls -d ptx_corpus/*/*/ | sed 's:/$::'); fi
cmake -S . -B build-cuda -DPTX2GLSL_TRANSLATOR=OFF -DCMAKE_BUILD_TYPE=Release >"$LOG/cmake.log" 2>&1 &&
  cmake --build build-cuda -j "$(nproc)" --target ptx2glsl-cudaref >>"$LOG/cmake.log" 2>&1 ||
  { tail -40 "$LOG/cmake.log"; exit 1; }
ref=build-cuda/runtime/cuda_ref/ptx2glsl-cudaref
echo "== CUDA reference: writing expected/"
$ref "${cases[@]}" 2>&1 | tee "$LOG/cudaref.log"
echo "== CUDA reference: second run must give the same bytes"
$ref --check "${cases[@]}" 2>&1 | tee "$LOG/cudaref_check.log" | tail -3
if [ -n "${PTX2GLSL:-}" ] && [ -x "$PTX2GLSL" ]; then
  echo "== ptx2glsl on NVIDIA's Vulkan driver"
  # A binary carried without its data folder (<bin>/../share/ptx2glsl) reads the tables of this checkout.
  [ -f "$(dirname "$PTX2GLSL")/../share/ptx2glsl/sfu_tables.bin" ] ||
    export PTX2GLSL_SFU_TABLES=${PTX2GLSL_SFU_TABLES:-$PWD/translator/sfu/tables}
  "$PTX2GLSL" devices 2>&1 | tee "$LOG/devices.log"
  "$PTX2GLSL" run "${cases[@]}" --device nvidia 2>&1 | tee "$LOG/nvidia_run.log"
fi
