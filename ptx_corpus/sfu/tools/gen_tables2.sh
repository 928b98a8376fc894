#!/usr/bin/env bash
# Builds translator/sfu/tables/sfu_tables2.bin (the lg2/sin/cos/tanh tables of translator/emit/sfu_models2.h) from
# the collected data in ptx_corpus/sfu/data (or $SFU_DATA) (docs/SFU.md). Run from the repository root; needs g++
# and liblzma. sin/cos and lg2 are the recovered hardware interpolator (I: specs, exact by construction: gen fails
# otherwise); tanh is fitted tables (F: specs).
# The tanh binades [2^-8,2^-6) and [2^-5,2^-4) come from their slices once `run.sh collect2` has added them
# (sfu_data_2.tar), else from the f16/bf16 points only ("auto" sources; gen prints which).
set -euo pipefail
gen=${TMPDIR:-/tmp}/sfu_gen.$$
g++ -O2 -std=c++17 -I tests/sfu -I translator/emit -I ptx_corpus/sfu/tools ptx_corpus/sfu/tools/gen.cpp -llzma -o "$gen"
T=tanh.approx.f32
"$gen" "${SFU_DATA:-ptx_corpus/sfu/data}" "${1:-translator/sfu/tables/sfu_tables2.bin}" \
  I:SINP:sincos:17:19:37:37 \
  I:LG2P:slice/lg2.approx.ftz.f32/0/127:17:19:38:36 \
  F:TANH_M8:auto/$T/119:7:2:RN F:TANH_M7:auto/$T/120:7:2:RN F:TANH_M6:tslice/$T/121:7:2:RN \
  F:TANH_M5:auto/$T/122:7:2:RN F:TANH_M4:tslice/$T/123:7:2:RN F:TANH_M3:tslice/$T/124:7:2:RN \
  F:TANH_M2:tslice/$T/125:7:4:RN F:TANH_M1:tslice/$T/126:10:4:RN F:TANH_P0:tslice/$T/127:7:4:RN \
  F:TANH_P1:tslice/$T/128:7:2:RN F:TANH_P2:tslice/$T/129:7:2:RN
rm -f "$gen"
