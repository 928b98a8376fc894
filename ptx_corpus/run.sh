#!/usr/bin/env bash
# The main job: installs dependencies, builds ptx2glsl, translates every corpus kernel (into generated/) and runs
# every case on the default device (lavapipe), printing one line per output, then a table per suite. Exit status 0
# only when every output of every case is byte-identical (cases in ptx_corpus/KNOWN_FAILURES are listed below it).
set -eu -o pipefail
cd "$(dirname "$0")/.."
bash tests/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
bash generated/regenerate.sh build/translator/ptx2glsl
status=0
table=""
for suite in ptx_corpus/*/; do
  # sfu_sweep: 2^32 evaluations per case, run by ptx_corpus/sfu_sweep/run.sh; bench: sized for an H200
  # (runtime/cuda_ref/gpu_bench.py), its small twins are benchlite/
  case "$(basename "$suite")" in sfu_sweep | bench) continue ;; esac
  cases=()
  for c in "$suite"*/; do [ -f "$c/case.json" ] && cases+=("${c%/}"); done
  [ ${#cases[@]} -gt 0 ] || continue
  log=$(mktemp)
  build/translator/ptx2glsl run "${cases[@]}" 2>&1 | tee "$log" || status=1
  table+=$(printf '%-10s %s' "$(basename "$suite")" "$(tail -n 1 "$log")")$'\n'
  rm -f "$log"
done
echo
echo "== corpus on lavapipe =="
printf '%s' "$table"
echo "known failures (ptx_corpus/KNOWN_FAILURES):"
known=$(grep -v '^#' ptx_corpus/KNOWN_FAILURES || true)
if [ -n "$known" ]; then printf '%s\n' "$known" | sed 's/^/  /'; else echo "  (none)"; fi
exit $status
