#!/usr/bin/env bash
# Translates every parser-stress PTX file (nvcc 13 output for coverage kernels). Each file must either translate
# (GLSL + validated SPIR-V) or fail cleanly: exit status 1, every error in `file:line:col: error: ...` form with the
# source line and a caret, and nothing written. A crash, a signal, an "internal error" (the translator failing
# its own invariants, e.g. GLSL that glslang rejects) or an unformatted error fails the test.
# Prints the untranslatable instructions with their lines.
set -u
bin=$1; dir=$2; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
ok=0; refused=0; bad=0
for f in "$dir"/*.ptx; do
  n=$(basename "$f" .ptx)
  "$bin" translate "$f" -o "$out/$n" >"$out/$n.log" 2>&1; rc=$?
  if [ $rc -eq 0 ]; then ok=$((ok+1)); continue; fi
  if [ $rc -ne 1 ]; then echo "FAIL $n: exit status $rc"; bad=$((bad+1)); continue; fi
  # an "internal error" is the translator failing valid nvcc output, not a refusal
  if grep -q 'internal error' "$out/$n.log"; then echo "FAIL $n: internal error"; sed -n 1,6p "$out/$n.log"; bad=$((bad+1)); continue; fi
  if [ -e "$out/$n" ] && [ -n "$(ls -A "$out/$n" 2>/dev/null)" ]; then echo "FAIL $n: partial output written"; bad=$((bad+1)); continue; fi
  errs=$(grep -c ': error: ' "$out/$n.log"); located=$(grep -cE '^[^ ]+\.ptx:[0-9]+:[0-9]+: error: ' "$out/$n.log")
  carets=$(grep -cE '^[[:space:]]*\^' "$out/$n.log")
  if [ "$errs" -eq 0 ] || [ "$located" -lt 1 ] || [ "$carets" -lt 1 ]; then
    echo "FAIL $n: errors without file:line:col and caret"; sed -n 1,6p "$out/$n.log"; bad=$((bad+1)); continue
  fi
  refused=$((refused+1))
  grep -E '^[^ ]+\.ptx:[0-9]+:[0-9]+: error: ' "$out/$n.log" | sed "s|^$dir/||" | head -3
done
echo "translate_stress: $ok translated, $refused refused with located diagnostics, $bad bad"
[ $bad -eq 0 ]
