#!/usr/bin/env bash
# sfu.glsl_model: run tests/sfu/glsl_model (no expected/: its reference is the C++ model) and compare.
#   usage: glsl_check.sh PTX2GLSL SFU_GLSL_CHECK TABLES [run options, e.g. --device nvidia]
set -u
p2g=$1 check=$2 tables=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$p2g" run "$here/glsl_model" --out "$out" --quiet "$@" >"$out/log" 2>&1
if [ ! -f "$out/glsl_model/out.bin" ]; then
  cat "$out/log"
  echo "sfu.glsl_model: the kernel did not run"
  exit 1
fi
"$check" "$tables" "$out/glsl_model/out.bin"
