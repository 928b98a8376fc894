#!/usr/bin/env bash
# Runs cases of ptx_corpus/outside on lavapipe (ptx2glsl run --out) and checks their outputs with a host model.
#   usage: run_models.sh PTX2GLSL MODEL.py CASE...   exit status: the model's (1 when a value differs)
# CASE is a case of ptx_corpus/outside or SUITE/CASE (warp/redux_match).
set -u
p2g=$1 model=$2
shift 2
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=() names=()
for c in "$@"; do  # a case of ptx_corpus/outside, or SUITE/CASE of another suite
  case "$c" in */*) cases+=("$root/ptx_corpus/$c") ;; *) cases+=("$root/ptx_corpus/outside/$c") ;; esac
  names+=("${c##*/}")
done
# run's own status reflects expected/ (absent until the H200's reference is in the tree): the model decides
"$p2g" run "${cases[@]}" --out "$tmp" --quiet >"$tmp/run.log" 2>&1
for c in "${names[@]}"; do
  [ -d "$tmp/$c" ] || { echo "run_models.sh: $c wrote no output:"; tail -20 "$tmp/run.log"; exit 1; }
done
python3 "$model" "$tmp" "${names[@]}"
