#!/usr/bin/env bash
# Regenerates generated/: the annotated GLSL (and manifest, a SHA-256 of the SPIR-V, and the `ptx2glsl view` page)
# of every corpus kernel.
#   generated/regenerate.sh [PTX2GLSL]          rewrite the snapshot
#   generated/regenerate.sh --check [PTX2GLSL]  exit 1 when the snapshot is stale (CI runs this; either order)
set -eu
cd "$(dirname "$0")/.."
check=0
bin=
for a in "$@"; do  # options in any order; anything else but one binary is an error (a misplaced --check once
  case $a in      # rewrote the snapshot instead of checking it)
    --check) check=1 ;;
    -*) echo "regenerate.sh: unknown option '$a' (--check)" >&2; exit 2 ;;
    *) [ -z "$bin" ] || { echo "regenerate.sh: one PTX2GLSL binary, not '$bin' and '$a'" >&2; exit 2; }; bin=$a ;;
  esac
done
bin=${bin:-build/translator/ptx2glsl}
# a missing binary would turn every kernel into a DIAGNOSTICS.txt and replace the snapshot with them
[ -x "$bin" ] || { echo "regenerate.sh: '$bin' is not an executable file (build first)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for dir in ptx_corpus/*/*/; do
  dir=${dir%/}
  [ -f "$dir/case.json" ] || continue
  rel=${dir#ptx_corpus/}
  case "$rel" in sfu_sweep/*) continue ;; esac  # one template, 23 instructions: ptx_corpus/sfu_sweep/README.md
  ptx=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("ptx","kernel.ptx"))' "$dir/case.json")
  case "$ptx" in */*) continue ;; esac  # the PTX of another case (e.g. a second input size): generated once there
  mkdir -p "$tmp/$rel"
  if ! "$bin" translate "$dir/$ptx" -o "$tmp/$rel" >"$tmp/$rel.log" 2>&1; then
    # an untranslatable kernel is part of the snapshot too: its diagnostics
    cp "$tmp/$rel.log" "$tmp/$rel/DIAGNOSTICS.txt"
  else
    # the side-by-side page of each entry (ptx2glsl view): <entry>.html
    "$bin" view "$dir/$ptx" -o "$tmp/$rel" >/dev/null 2>"$tmp/$rel.log" || { cat "$tmp/$rel.log" >&2; exit 1; }
  fi
  rm -f "$tmp/$rel.log"
  for spv in "$tmp/$rel"/*.spv; do
    [ -e "$spv" ] || continue
    sha256sum "$spv" | cut -d' ' -f1 >"$spv.sha256"
    rm -f "$spv"
  done
done
if [ $check = 1 ]; then
  if diff -r --exclude=regenerate.sh generated "$tmp" >"$tmp.diff" 2>&1; then
    echo "generated/ is up to date"
    rm -f "$tmp.diff"
    exit 0
  fi
  echo "generated/ is stale: run generated/regenerate.sh and commit the result" >&2
  head -40 "$tmp.diff" >&2
  rm -f "$tmp.diff"
  exit 1
fi
find generated -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
cp -r "$tmp"/. generated/
echo "generated/: $(find generated -name '*.comp' | wc -l) GLSL files"
