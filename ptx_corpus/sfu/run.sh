#!/usr/bin/env bash
# On the NVIDIA GPU machine (CUDA toolkit, Python 3; numpy not needed), from the repository root:
#   bash ptx_corpus/sfu/run.sh collect [OUTDIR]          exhaustive probe; OUTDIR gets summary.txt + sfu_data_*.tar
#   bash ptx_corpus/sfu/run.sh collect2 [OUTDIR]         extra slices only (sfu_probe.cu slice_plan2); OUTDIR gets
#                                                        collect2.txt + sfu_data_2.tar (for ptx_corpus/sfu/data/)
#   bash ptx_corpus/sfu/run.sh verify [OUTDIR]           models (translator/emit/sfu_models2.h, which includes
#                                                        sfu_models.h, with translator/sfu/tables/sfu_tables.bin
#                                                        and sfu_tables2.bin) vs hardware over all inputs;
#                                                        OUTDIR/verify.txt
# OUTDIR defaults to $OUT (the device tool's return folder), else /tmp/sfu_out. At most 7 files, each < 15 MiB.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-collect}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
if [ "$mode" = collect ]; then
  out=${2:-${OUT:-/tmp/sfu_out}}; mkdir -p "$out"
  raw=$(mktemp -d /tmp/sfu_raw.XXXX)
  "$NVCC" -O3 -std=c++17 -arch=$ARCH -o "$raw/sfu_probe" sfu_probe.cu
  nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > "$out/summary.txt" 2>&1 || true
  ( time "$raw/sfu_probe" collect "$raw" ) >> "$out/summary.txt" 2>&1
  rm -f "$raw/sfu_probe"
  ( time python3 pack.py "$raw" "$out" ) >> "$out/summary.txt" 2>&1
  rm -rf "$raw"
  tail -5 "$out/summary.txt"; ls -l "$out"
elif [ "$mode" = collect2 ]; then
  out=${2:-${OUT:-/tmp/sfu_out}}; mkdir -p "$out"
  raw=$(mktemp -d /tmp/sfu_raw.XXXX)
  "$NVCC" -O3 -std=c++17 -arch=$ARCH -o "$raw/sfu_probe" sfu_probe.cu
  ( time "$raw/sfu_probe" collect2 "$raw" ) > "$out/collect2.txt" 2>&1
  rm -f "$raw/sfu_probe"
  ( time python3 pack.py "$raw" "$out" 2 ) >> "$out/collect2.txt" 2>&1
  rm -rf "$raw"
  cat "$out/collect2.txt"; ls -l "$out"
elif [ "$mode" = verify ]; then
  hdr=$(realpath ../../translator/emit/sfu_models2.h); out=${2:-${OUT:-/tmp/sfu_out}}; mkdir -p "$out"
  bin=$(mktemp -d /tmp/sfu_ver.XXXX)
  "$NVCC" -O3 -std=c++17 -arch=$ARCH -DSFU_MODEL_HEADER="\"$hdr\"" -o "$bin/sfu_verify" sfu_probe.cu
  ( time "$bin/sfu_verify" verify ../../translator/sfu/tables/sfu_tables.bin ../../translator/sfu/tables/sfu_tables2.bin ) 2>&1 | tee "$out/verify.txt"
  rm -rf "$bin"
else
  echo "usage: $0 collect [OUTDIR] | collect2 [OUTDIR] | verify [OUTDIR]" >&2; exit 2
fi
