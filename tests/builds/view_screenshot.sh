#!/usr/bin/env bash
# Writes docs/view_k_output.png: K's `ptx2glsl view` page in headless Chromium, opened at a PTX line (an
# fma.rn.f16x2 of the network's half-precision part) so that it and its GLSL line are marked and in view.
#   tests/builds/view_screenshot.sh [PTX2GLSL] [LINE]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$(realpath "${1:-$root/build/translator/ptx2glsl}")
line=${2:-$(grep -n -m1 'fma.rn.f16x2' "$root/ptx_corpus/rrlite/k_output/kernel.ptx" | cut -d: -f1)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && "$exe" view ptx_corpus/rrlite/k_output/kernel.ptx -o "$tmp" >/dev/null)  # the title names the path given
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1600,900 \
  --screenshot="$tmp/shot.png" "file://$tmp/k_output.html#p$line" 2>/dev/null
mv "$tmp/shot.png" "$root/docs/view_k_output.png"
echo "docs/view_k_output.png: K's page at PTX line $line"
