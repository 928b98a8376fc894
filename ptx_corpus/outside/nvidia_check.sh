#!/usr/bin/env bash
# On the H200 machine, in the repository root: the NVIDIA side of issue 11.
#   PTX2GLSL=path/to/ptx2glsl bash ptx_corpus/outside/nvidia_check.sh
# 1. expected/ for the probe ptx_corpus/outside/mad_hi_sat_cse (CUDA reference runner, via reference.sh), and what
#    they say (columns.py); 2. every outside case except the two undefined-behaviour probes warp_ub_* (warp_ub_skip
#    hangs the warp on the H200) plus benchlite/tex_heavy, the tex/ cases and rrlite/k_output on NVIDIA's Vulkan
#    driver, outputs kept in $OUT.
set -u
cd "$(dirname "$0")/../.."
bin=${PTX2GLSL:?set PTX2GLSL to the ptx2glsl binary}
out=${OUT:-/tmp/p2g-outside-nv}
PTX2GLSL= bash ptx_corpus/reference.sh ptx_corpus/outside/mad_hi_sat_cse
python3 ptx_corpus/outside/mad_hi_sat_cse/columns.py ptx_corpus/outside/mad_hi_sat_cse/expected/out.bin
mapfile -t cases < <(ls -d ptx_corpus/outside/*/ | grep -v warp_ub_)
[ -f "$(dirname "$bin")/../share/ptx2glsl/sfu_tables.bin" ] ||
  export PTX2GLSL_SFU_TABLES=${PTX2GLSL_SFU_TABLES:-$PWD/translator/sfu/tables}
# the texture cases too: the coordinate rules changed for every texture (ptx_corpus/tex, rrlite/k_output)
mapfile -t tex < <(ls -d ptx_corpus/tex/*/ | while read -r d; do [ -f "$d/case.json" ] && echo "$d"; done)
"$bin" run "${cases[@]}" ptx_corpus/benchlite/tex_heavy "${tex[@]}" ptx_corpus/rrlite/k_output --device nvidia \
  --timeout 30 --out "$out"
