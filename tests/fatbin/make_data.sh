#!/usr/bin/env bash
# Regenerates tests/fatbin/data/: binaries built by nvcc 13.0 (CUDA 13.0.88 here) from corpus CUDA, and a Windows
# DLL built by Debian's mingw-w64 around one of those fatbins. Run from the repository root on a machine with nvcc
# (and x86_64-w64-mingw32-gcc: apt-get install gcc-mingw-w64-x86-64). Every command is echoed and also written to
# tests/fatbin/data/COMMANDS.txt. The ground truth (what cuobjdump lists and extracts) is made separately, on a
# machine with cuobjdump: tests/fatbin/make_ground_truth.sh.
set -eu
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-nvcc}
MINGW=${MINGW:-x86_64-w64-mingw32-gcc}
out=tests/fatbin/data
src=tests/fatbin/src
k=ptx_corpus/basic
rm -rf "$out"
mkdir -p "$out"
log="$out/COMMANDS.txt"
{
  echo "# Commands that made these files (tests/fatbin/make_data.sh), run from the repository root."
  echo "# $("$NVCC" --version | tail -2 | head -1)"
  echo "# $("$MINGW" --version | head -1)"
} >"$log"
run() {
  echo "+ $*"
  echo "$*" >>"$log"
  "$@"
}
# Two PTX targets and two SASS targets per fatbin: sm_80 and sm_90 SASS, compute_80 and compute_90 PTX.
gen=(-gencode arch=compute_80,code=[sm_80,compute_80] -gencode arch=compute_90,code=[sm_90,compute_90])
# One fatbin per --compress-mode nvcc 13 offers (default and balance give zstd, size a stronger zstd that also
# compresses the ELF entries, speed LZ4, none nothing), and LZ4 on every entry (-compress-all).
run "$NVCC" -fatbin -O3 "${gen[@]}" $k/reduce_sum_u32/kernel.cu -o $out/reduce_default.fatbin
for mode in none size speed balance; do
  run "$NVCC" -fatbin -O3 --compress-mode=$mode "${gen[@]}" $k/reduce_sum_u32/kernel.cu -o $out/reduce_$mode.fatbin
done
run "$NVCC" -fatbin -O3 --compress-mode=speed --fatbin-options -compress-all "${gen[@]}" $k/reduce_sum_u32/kernel.cu \
  -o $out/reduce_speed_all.fatbin
# A cubin (an ELF for CUDA, no PTX).
run "$NVCC" -cubin -O3 -arch=sm_90 $k/transpose_2d/kernel.cu -o $out/transpose_sm90.cubin
# A shared library of three translation units (three containers, plus the one nvcc's device link step adds).
run "$NVCC" -shared -Xcompiler -fPIC -O3 -cudart=shared "${gen[@]}" $k/reduce_sum_u32/kernel.cu \
  $k/transpose_2d/kernel.cu $k/scalar_params/kernel.cu -o $out/libk.so
# The same with --compress-mode=size (ELF entries compressed too).
run "$NVCC" -shared -Xcompiler -fPIC -O3 -cudart=shared --compress-mode=size "${gen[@]}" $k/reduce_sum_u32/kernel.cu \
  $k/transpose_2d/kernel.cu -o $out/libk_size.so
# Relocatable device code: the fatbins go to __nv_relfatbin, the linked one to .nv_fatbin.
run "$NVCC" -shared -Xcompiler -fPIC -O3 -cudart=shared -rdc=true -gencode arch=compute_90,code=[sm_90,compute_90] \
  $k/block3d_index/kernel.cu -o $out/librdc.so
# An executable.
run "$NVCC" -O3 -cudart=shared -gencode arch=compute_90,code=[sm_90,compute_90] $src/app.cu -o $out/app
# The PE DLL around reduce_default.fatbin: section names cut to 8 characters as MSVC's linker does (.nv_fatb), no
# symbols, no timestamp (the bytes do not depend on the day).
run "$MINGW" -shared -O2 -s -Wl,--no-insert-timestamp -Wl,--disable-long-section-names -Wa,-I,$out -o $out/reduce.dll $src/dll_main.c $src/dll_fatbin.S
echo "reduce_default.fatbin" >$out/reduce.dll.embeds
# Two builds for diff-build (tests/fatbin/src/builds.cu says what differs).
for b in a b; do
  B=$(echo $b | tr a-z A-Z)
  run "$NVCC" -shared -Xcompiler -fPIC -O3 -cudart=shared -DBUILD_$B -gencode arch=compute_90,code=[sm_90,compute_90] \
    $src/builds.cu -o $out/libbuild_$b.so
done
ls -l "$out"
du -sh "$out"
