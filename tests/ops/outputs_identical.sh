#!/usr/bin/env bash
# Outputs of a known-failure case (ptx_corpus/KNOWN_FAILURES) that are byte-identical already: the case as a whole
# is an expected failure, so this keeps its fixed outputs from regressing unseen.
#   usage: outputs_identical.sh PTX2GLSL CASE_DIR OUTPUT...
set -u
p2g=$1 dir=$2
shift 2
log=$("$p2g" run "$dir" 2>&1)
rc=0
for o in "$@"; do
  if ! grep -q " $o: identical\$" <<<"$log"; then
    echo "$(basename "$dir") $o: not identical"
    grep " $o:" <<<"$log"
    rc=1
  fi
done
exit $rc
