#!/usr/bin/env bash
# The test command: installs dependencies, builds, and runs the whole suite with ctest (unit tests, parser and
# malformed-input tests, structurizer fuzzing, translation of the stress corpus, generated/ snapshot check, and
# every corpus case on lavapipe against the NVIDIA expected/ bytes).
set -eu
cd "$(dirname "$0")/.."
bash tests/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
cd build && ctest --output-on-failure -j "$(nproc)"
