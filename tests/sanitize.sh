#!/usr/bin/env bash
# The AddressSanitizer + UndefinedBehaviorSanitizer build of the whole tree (clang-16, asserts on, -O1), with the
# libFuzzer targets of tests/fuzz, in build-asan/; then the test suite in it (docs/FUZZING.md).
#   usage: tests/sanitize.sh [--fast] [CTEST-ARGUMENT...]
#   --fast   leave out the tests labelled "long" (the big corpus and SFU cases: lavapipe time, no more of our
#            code); .ci/run uses it. The fuzzers (label "fuzz") run 60 s each either way.
# Every UBSan finding stops the test that hit it (-fno-sanitize-recover); ASan's leak check is on, with no
# suppressions: the Vulkan loader frees what it allocates once the runtime destroys its device and instance, and
# lavapipe is kept loaded (tests/sanitize_pin_lavapipe.c) so the one block it keeps stays reachable (docs/FUZZING.md).
set -eu
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then fast=1; shift; fi
bash tests/install_deps.sh --sanitize
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang-16 CXX=clang++-16 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_C_FLAGS="-O1 -g $san" -DCMAKE_CXX_FLAGS="-O1 -g $san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
  -DPTX2GLSL_FUZZ=ON -DPTX2GLSL_CUDA_REF=OFF
cmake --build build-asan -j "$(nproc)"
# lavapipe stays loaded in every test process (tests/sanitize_pin_lavapipe.c says why: a block of the driver that
# LeakSanitizer would report from "<unknown module>" once the loader unloads it)
clang-16 -shared -fPIC -O1 -o build-asan/pin_lavapipe.so tests/sanitize_pin_lavapipe.c
export LD_PRELOAD=$PWD/build-asan/pin_lavapipe.so
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_SYMBOLIZER_PATH=/usr/bin/llvm-symbolizer-16
# ASan's redzones around locals make each frame larger: structurize_test's 5000-level nesting (the structurizer's
# depth limit) overflows the default 8 MiB stack under ASan (passes with 16 MiB; the release build fits in 8 MiB),
# and tests/frontend's deepcalls (34 functions of 250 nested blocks, calls lifted inline: about 8,500 liftBlock
# frames of 4.7 KB each under ASan) needs about 40 MiB.
ulimit -s 98304
cd build-asan
if [ $fast = 1 ]; then
  ctest --output-on-failure -j "$(nproc)" -LE long "$@"
else
  ctest --output-on-failure -j "$(nproc)" "$@"
fi
