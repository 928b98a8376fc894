#!/usr/bin/env bash
# Installs the Debian 12 packages ptx2glsl needs (run as root). With no argument: what the build and the whole test
# suite use (the README's two commands); every package named here is used, and nothing else is needed on a fresh
# minimal Debian 12 (debootstrap --variant=minbase; checked by ../shared/tools/fresh-machine-check).
#   --sanitize   also clang-16, its sanitizer/libFuzzer runtimes and llvm-16 (llvm-symbolizer-16, for readable
#                sanitizer reports): tests/sanitize.sh, docs/FUZZING.md
#   --package    also dpkg-dev (dpkg-shlibdeps, for the .deb's Depends: tests/package/check_deb.sh)
set -eu
# cmake ninja-build g++      the build
# glslang-dev glslang-tools  glslang (its CMake config names /usr/bin/glslangValidator; the runtime test compiles a
#                            probe shader with it)
# spirv-tools                SPIRV-Tools (headers, static libraries, CMake config)
# libvulkan-dev              the Vulkan loader and headers
# mesa-vulkan-drivers        lavapipe, the default device of every run test
# doctest-dev                unit tests
# vulkan-validationlayers    VK_LAYER_KHRONOS_validation for `ptx2glsl run --validate` (ctest runtime.validate*)
# liblzma-dev                tests/sfu reads the H200's SFU data (.xz); without it those tests are not built
# python3                    generated/regenerate.sh, ptx_corpus scripts
# liblz4-dev libzstd-dev     the fatbin reader's decompression (translator/fatbin); gcc-mingw-w64-x86-64 is needed
#                            only to regenerate the test DLL (tests/fatbin/make_data.sh), not to build or test
# chromium                   headless, loads `ptx2glsl view` pages (ctest builds.view_browser) and takes the
#                            screenshot in docs/ (tests/builds/view_screenshot.sh)
pkgs="cmake ninja-build g++ python3 glslang-dev glslang-tools spirv-tools libvulkan-dev mesa-vulkan-drivers doctest-dev
      vulkan-validationlayers liblzma-dev liblz4-dev libzstd-dev chromium"
for a in "$@"; do
  case $a in
    --sanitize) pkgs="$pkgs clang-16 libclang-rt-16-dev llvm-16" ;;
    --package) pkgs="$pkgs dpkg-dev" ;;
    *) echo "install_deps.sh: unknown option '$a' (--sanitize, --package)" >&2; exit 2 ;;
  esac
done
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends $missing
fi
