#!/usr/bin/env bash
# No f64 where the PTX has none (issue "Exact and fast", item 7): every corpus kernel whose PTX has no .f64
# instruction is translated (exact mode, and --native), and neither its GLSL (a double type or literal) nor its SPIR-V
# (OpCapability Float64) may use f64. Kernels listed in PENDING ("case mode reason": still using f64 in one named
# place) must still use it, so that the list shrinks as the work lands; each one is printed.
# usage: no_double.sh PTX2GLSL CORPUS_DIR PENDING
set -u
bin=$1 corpus=$2 pending=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0
for ptx in $(find "$corpus" -name kernel.ptx | sort); do
  case=${ptx#"$corpus"/}
  case=${case%/kernel.ptx}
  case $case in sfu_sweep/*) continue ;; esac
  grep -qE '\.f64\b' "$ptx" && continue
  for mode in exact native; do
    listed=0
    grep -qxF "$case $mode" <(grep -v '^#' "$pending" | awk '{print $1, $2}') && listed=1
    out=$tmp/$(echo "$case" | tr / _)_$mode
    flags=""
    [ $mode = native ] && flags=--native
    if ! "$bin" translate "$ptx" -o "$out" $flags >"$tmp/log" 2>&1; then
      # kernels the translator refuses on purpose (listed known failures) are not this test's business
      grep -qxF "$case" <(grep -v '^#' "$corpus/KNOWN_FAILURES" | awk '{print $1}') && continue
      echo "FAIL $case ($mode): does not translate"; cat "$tmp/log"; fail=1; continue
    fi
    checked=$((checked + 1))
    uses=""
    grep -qE '\bdouble\b|\bdvec[234]\b|[0-9.]lf\b' "$out"/*.comp && uses="GLSL"
    for spv in "$out"/*.spv; do
      spirv-dis "$spv" | grep -q "OpCapability Float64" && uses="$uses SPIR-V"
    done
    if [ -n "$uses" ] && [ $listed = 0 ]; then
      echo "FAIL $case ($mode): f64 in the$( [ -n "$uses" ] && echo " $uses")"
      grep -nE '\bdouble\b|\bdvec[234]\b|[0-9.]lf\b' "$out"/*.comp | head -5
      fail=1
    elif [ -z "$uses" ] && [ $listed = 1 ]; then
      echo "FAIL $case ($mode): listed in PENDING but uses no f64 any more: remove its line"
      fail=1
    elif [ $listed = 1 ]; then
      echo "pending $case ($mode): $(grep "^$case $mode " "$pending" | cut -d' ' -f3-)"
    fi
  done
done
echo "no_double: $checked translations checked"
[ $checked -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
exit $fail
