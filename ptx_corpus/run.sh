#!/usr/bin/env bash
# The main job: installs dependencies, builds ptx2glsl, translates every corpus kernel (into generated/) and runs
# every case on the default device (lavapipe), printing one line per output and a summary table.
set -eu
cd "$(dirname "$0")/.."
bash tests/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
bash generated/regenerate.sh build/translator/ptx2glsl
status=0
build/translator/ptx2glsl run ptx_corpus/*/*/ || status=$?
echo "known failures (ptx_corpus/KNOWN_FAILURES):"
grep -v '^#' ptx_corpus/KNOWN_FAILURES | sed 's/^/  /'
exit $status
