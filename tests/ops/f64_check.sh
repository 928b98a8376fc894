#!/usr/bin/env bash
# Runs the f64 op cases without NVIDIA expected/ yet (f64_round, f64_divsqrt, f64_cvt_int) on lavapipe and compares
# their outputs with the host's IEEE doubles (f64_ref --cases). Exit status: f64_ref's.
#   usage: f64_check.sh PTX2GLSL F64_REF [ptx2glsl run options...]
set -u
p2g=$1 ref=$2
shift 2
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=()
for c in f64_round f64_divsqrt f64_cvt_int; do cases+=("$root/ptx_corpus/ops/$c"); done
# run's own status reflects expected/ (absent until NVIDIA's reference is in the tree): the host reference decides
"$p2g" run "${cases[@]}" --out "$tmp" --quiet "$@" >"$tmp/run.log" 2>&1
"$ref" --cases "$tmp" >"$tmp/ref.log"
rc=$?
grep -v " 0/" "$tmp/ref.log" | tail -8
exit $rc
