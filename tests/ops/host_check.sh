#!/usr/bin/env bash
# Runs the f32 op cases on lavapipe (ptx2glsl run --out, any extra options passed on, e.g. --disable-pass NAME)
# and compares the outputs with the host's IEEE reference (host_ref). Exit status: host_ref's.
#   usage: host_check.sh PTX2GLSL HOST_REF [ptx2glsl run options...]
set -u
p2g=$1 ref=$2
shift 2
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=()
for c in f32_add f32_sub f32_mul f32_fma f32_div f32_sqrt f32_rcp f32_ftz_boundary; do cases+=("$root/ptx_corpus/ops/$c"); done
# run's own status reflects expected/ (absent until NVIDIA's reference is in the tree): the host reference decides
"$p2g" run "${cases[@]}" --out "$tmp" --quiet "$@" >"$tmp/run.log" 2>&1
"$ref" "$tmp" >"$tmp/ref.log"
rc=$?
grep -v " 0/" "$tmp/ref.log" | tail -8
exit $rc
