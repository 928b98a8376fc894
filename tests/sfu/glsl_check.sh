#!/usr/bin/env bash
# sfu.glsl_model(2): run tests/sfu/glsl_model (no expected/: its reference is the C++ model) and compare. The case
# follows the table file: a "PSF2" blob (sfu_tables2.bin, lg2/sin/cos/tanh) runs tests/sfu/glsl_model2.
#   usage: glsl_check.sh PTX2GLSL SFU_GLSL_CHECK TABLES [run options, e.g. --device nvidia]
set -u
p2g=$1 check=$2 tables=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
case_=glsl_model
[ "$(head -c 4 "$tables")" = PSF2 ] && case_=glsl_model2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$p2g" run "$here/$case_" --out "$out" --quiet "$@" >"$out/log" 2>&1
if [ ! -f "$out/$case_/out.bin" ]; then
  cat "$out/log"
  echo "sfu.$case_: the kernel did not run"
  exit 1
fi
"$check" "$tables" "$out/$case_/out.bin"
