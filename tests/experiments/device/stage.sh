#!/usr/bin/env bash
# Makes the working tree small enough to travel to the device machine (64 MiB: tracked files, untracked files git
# does not ignore, and the ignored paths a `run` names in `carry`, e.g. .gl for the Vulkan loader .debs and .dev for
# a stripped, gzipped ptx2glsl built here). Deletes tracked data the device calls do not need; unstage.sh (git
# checkout) brings it back. Refuses on a tree with uncommitted changes to tracked files, which the checkout would
# lose. Never run it while ctest runs in build/ (the tests read the deleted files), never `git add -A` while staged.
#   usage: [STAGE=sweeps|suites|all] tests/experiments/device/stage.sh [EXTRA_PATH...]   (extra paths to delete as well)
set -eu
cd "$(dirname "$0")/../../.."
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "stage.sh: the tree has uncommitted changes" >&2; exit 1; }
# K 720p's expected/ (22 MB) is rewritten on the device by ptx2glsl-cudaref before it is compared.
# STAGE=sweeps keeps ptx_corpus/ops (29 MB, the op sweeps: ptx_corpus/ops/gpu_sweep.sh) and drops rrlite instead.
# STAGE=suites keeps ptx_corpus/sfu_sweep and ptx_corpus/mma (the SFU sweeps, the mma suite) and drops the ops and
# the 360p K's expected/ (the 720p case reads its PTX and lut.bin). STAGE=all keeps the ops and the sweeps too.
case "${STAGE:-}" in
  sweeps) big="ptx_corpus/rrlite ptx_corpus/sfu_sweep ptx_corpus/mma" ;;
  all) big="ptx_corpus/rrlite/k_output/expected ptx_corpus/rrlite/k_output_720p/expected" ;;
  suites) big="ptx_corpus/ops ptx_corpus/rrlite/k_output/expected ptx_corpus/rrlite/k_output_720p/expected" ;;
  *) big="ptx_corpus/ops ptx_corpus/rrlite/k_output_720p/expected ptx_corpus/sfu_sweep ptx_corpus/mma" ;;
esac
rm -rf generated ptx_corpus/sfu tests/fatbin tests/parse_stress $big "$@"
du -sh --exclude=.git --exclude='build*' .
