#!/usr/bin/env bash
# The ground truth of the extract tests: what NVIDIA's cuobjdump lists and extracts for every binary of
# tests/fatbin/data. Needs cuobjdump (CUDA toolkit), so it runs on the CUDA machine, from the repository root:
#
#   bash tests/fatbin/make_ground_truth.sh /tmp/fatbin_ground_truth.tar.gz
#
# It writes, per binary B, tests/fatbin/ground_truth/B/:
#   listing.txt, listing.stderr, listing.status   `cuobjdump -lptx -lelf B` (stdout, stderr, exit status)
#   xptx/                                          the files `cuobjdump -xptx all B` writes (its cwd is xptx/)
#   xptx.stderr, xptx.status
#   xelf/, xelf.stderr, xelf.status                the same for `cuobjdump -xelf all B`
# plus tests/fatbin/ground_truth/VERSION.txt (cuobjdump --version), and packs tests/fatbin/ground_truth into the
# tarball given as the argument. A cuobjdump failure (a format it does not read) is recorded, not fatal.
# Unpack it in the repository root (tar xzf FILE); the ctest fatbin.ground_truth then compares.
set -u
cd "$(dirname "$0")/../.."
tarball=${1:?usage: make_ground_truth.sh OUTPUT.tar.gz}
case "$tarball" in /*) ;; *) tarball="$PWD/$tarball" ;; esac
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
command -v "$CUOBJDUMP" >/dev/null || CUOBJDUMP=/usr/local/cuda/bin/cuobjdump
command -v "$CUOBJDUMP" >/dev/null || { echo "make_ground_truth.sh: cuobjdump not found (set CUOBJDUMP)" >&2; exit 1; }
data=$PWD/tests/fatbin/data
gt=$PWD/tests/fatbin/ground_truth
rm -rf "$gt"
mkdir -p "$gt"
"$CUOBJDUMP" --version >"$gt/VERSION.txt" 2>&1
for f in "$data"/*; do
  b=$(basename "$f")
  case "$b" in COMMANDS.txt | *.embeds) continue ;; esac
  d=$gt/$b
  mkdir -p "$d/xptx" "$d/xelf"
  "$CUOBJDUMP" -lptx -lelf "$f" >"$d/listing.txt" 2>"$d/listing.stderr"
  echo $? >"$d/listing.status"
  (cd "$d/xptx" && "$CUOBJDUMP" -xptx all "$f" >/dev/null 2>"$d/xptx.stderr"; echo $? >"$d/xptx.status")
  (cd "$d/xelf" && "$CUOBJDUMP" -xelf all "$f" >/dev/null 2>"$d/xelf.stderr"; echo $? >"$d/xelf.status")
  echo "$b: listing status $(cat "$d/listing.status"), $(ls "$d/xptx" | wc -l) PTX file(s), $(ls "$d/xelf" | wc -l) ELF file(s)"
done
tar czf "$tarball" -C "$PWD" tests/fatbin/ground_truth
ls -l "$tarball"
