#!/bin/sh
# usage: expect_refusal.sh PATTERN... -- COMMAND...
# Runs COMMAND and passes only when it exits with status 1 and its output (stdout and stderr) contains every
# PATTERN (grep -F): a refusal with the right message. A success, a crash or another message fails.
n=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do n=$((n + 1)); eval "p$n=\$1"; shift; done
[ "$1" = "--" ] || { echo "expect_refusal.sh: no -- before the command" >&2; exit 2; }
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc = 1 ] || { echo "expect_refusal.sh: exit status $rc, want 1" >&2; exit 1; }
i=1
while [ $i -le $n ]; do
  eval "p=\$p$i"
  printf '%s\n' "$out" | grep -qF -- "$p" || { echo "expect_refusal.sh: no '$p' in the output" >&2; exit 1; }
  i=$((i + 1))
done
