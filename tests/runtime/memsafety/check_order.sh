#!/bin/sh
# usage: check_order.sh PTX2GLSL GOOD_CASE BAD_CASE GOOD_CASE2
# One failing case never hides the others, and the output is flushed per case: with stdout and stderr in one pipe
# (where stdout is fully buffered unless the runner flushes it), the lines come in case order: the first good case's
# result, then the bad case's error, then the second good case's result. The refused case leaves nothing under --out.
exe=$1 good=$2 bad=$3 good2=$4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
log=$("$exe" run "$good" "$bad" "$good2" --out "$out/o" 2>&1 | cat)
printf '%s\n' "$log"
rc=$("$exe" run "$good" "$bad" "$good2" --out "$out/o2" >/dev/null 2>&1; echo $?)
[ "$rc" = 1 ] || { echo "check_order.sh: exit status $rc, want 1" >&2; exit 1; }
g=$(basename "$good") b=$(basename "$bad") g2=$(basename "$good2")
l1=$(printf '%s\n' "$log" | grep -n "^$g .*: identical" | head -1 | cut -d: -f1)
l2=$(printf '%s\n' "$log" | grep -n "^error: $b: " | head -1 | cut -d: -f1)
l3=$(printf '%s\n' "$log" | grep -n "^$g2 .*: identical" | head -1 | cut -d: -f1)
[ -n "$l1" ] && [ -n "$l2" ] && [ -n "$l3" ] || { echo "check_order.sh: a case's line is missing" >&2; exit 1; }
[ "$l1" -lt "$l2" ] && [ "$l2" -lt "$l3" ] || { echo "check_order.sh: lines out of case order ($l1 $l2 $l3)" >&2; exit 1; }
[ -d "$out/o2/$g" ] && [ -d "$out/o2/$g2" ] || { echo "check_order.sh: the good cases' --out files are missing" >&2; exit 1; }
[ ! -e "$out/o2/$b" ] || { echo "check_order.sh: the refused case left $out/o2/$b" >&2; exit 1; }
echo "check_order.sh: in order ($l1 < $l2 < $l3), nothing under --out for $b"
