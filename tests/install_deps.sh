#!/usr/bin/env bash
# Installs the Debian 12 packages ptx2glsl needs to build, test and run on lavapipe (run as root).
set -eu
pkgs="cmake ninja-build g++ python3 glslang-dev glslang-tools spirv-tools libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers doctest-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends $missing
fi
