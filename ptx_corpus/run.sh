#!/usr/bin/env bash
# The main job: installs dependencies, builds ptx2glsl, translates every corpus kernel (into generated/) and runs
# every case on the default device (lavapipe), printing one line per output, then a table per suite. Exit status 0
# only when every output of every case is byte-identical, except the cases in ptx_corpus/KNOWN_FAILURES, which must
# still fail.
set -eu -o pipefail
cd "$(dirname "$0")/.."
bash tests/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
bash generated/regenerate.sh build/translator/ptx2glsl
status=0
table=""
# ptx_corpus/KNOWN_FAILURES: cases not yet identical (probes of undefined behaviour, a ptxas rewrite...). They run
# after their suite and must still fail, as in ctest (WILL_FAIL): one that starts passing fails the job too (then
# remove its line). A dispatch may take up to 30 minutes: the K kernel needs about 6 on 2 idle cores, far more on a
# loaded machine.
known=$(grep -v '^#' ptx_corpus/KNOWN_FAILURES | awk 'NF { print $1 }' || true)
is_known() { printf '%s\n' "$known" | grep -qx "$1"; }
for suite in ptx_corpus/*/; do
  # sfu_sweep: 2^32 evaluations per case, run by ptx_corpus/sfu_sweep/run.sh; bench: sized for an H200
  # (runtime/cuda_ref/gpu_bench.py), its small twins are benchlite/
  case "$(basename "$suite")" in sfu_sweep | bench) continue ;; esac
  cases=() kcases=()
  for c in "$suite"*/; do
    [ -f "$c/case.json" ] || continue
    c=${c%/}
    if is_known "${c#ptx_corpus/}"; then kcases+=("$c"); else cases+=("$c"); fi
  done
  [ ${#cases[@]} -gt 0 ] || continue
  log=$(mktemp)
  build/translator/ptx2glsl run "${cases[@]}" --timeout 1800 2>&1 | tee "$log" || status=1
  table+=$(printf '%-10s %s' "$(basename "$suite")" "$(tail -n 1 "$log")")$'\n'
  for c in ${kcases[@]+"${kcases[@]}"}; do
    if build/translator/ptx2glsl run "$c" --timeout 60 --quiet >"$log" 2>&1; then
      echo "${c#ptx_corpus/}: identical now, but listed in ptx_corpus/KNOWN_FAILURES (remove its line)"
      status=1
    else
      echo "${c#ptx_corpus/}: known failure: $(tail -n 1 "$log")"
    fi
  done
  rm -f "$log"
done
echo
echo "== corpus on lavapipe (known failures not counted) =="
printf '%s' "$table"
echo "known failures (ptx_corpus/KNOWN_FAILURES, each still failing as listed):"
if [ -n "$known" ]; then grep -v '^#' ptx_corpus/KNOWN_FAILURES | sed 's/^/  /'; else echo "  (none)"; fi
exit $status
