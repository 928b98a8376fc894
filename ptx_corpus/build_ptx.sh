#!/usr/bin/env bash
# Regenerates kernel.ptx for corpus cases from their kernel.cu. The first line of every kernel.cu is a comment
# holding the exact compile command ("// nvcc -ptx ... kernel.cu -o kernel.ptx"); this script runs that command
# in the case folder, so the command in the source is the only record of how the PTX was made.
#
# usage: ptx_corpus/build_ptx.sh [CASE_DIR...]     (default: every ptx_corpus/*/*/ folder holding a kernel.cu)
# env:   NVCC_DIR   where nvcc lives when it is not on PATH (default /usr/local/cuda/bin)
# Exits non-zero when any command fails, a first line is not a compile command, or a kernel.ptx lacks the entry
# named in case.json.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvcc_dir="${NVCC_DIR:-/usr/local/cuda/bin}"
if ! command -v nvcc >/dev/null 2>&1 && [ -x "$nvcc_dir/nvcc" ]; then
    PATH="$nvcc_dir:$PATH"
fi

if [ "$#" -gt 0 ]; then
    cases=("$@")
else
    cases=()
    for cu in "$here"/*/*/kernel.cu; do
        [ -e "$cu" ] && cases+=("$(dirname "$cu")")
    done
fi
if [ "${#cases[@]}" -eq 0 ]; then
    echo "build_ptx.sh: no cases found" >&2
    exit 1
fi

failed=0
built=0
for dir in "${cases[@]}"; do
    name="$(basename "$dir")"
    if [ ! -f "$dir/kernel.cu" ]; then
        echo "FAIL $name: no kernel.cu in $dir" >&2
        failed=$((failed + 1))
        continue
    fi
    first="$(head -n 1 "$dir/kernel.cu")"
    cmd="${first#// }"
    # Only compiler invocations are run, and without a shell, so the first line cannot run arbitrary code.
    read -r -a argv <<<"$cmd"
    case "${argv[0]:-}" in
        nvcc | clang-1[0-9] | clang-[2-9][0-9] | clang) ;;
        *)
            echo "FAIL $name: first line of kernel.cu is not a compile command: $first" >&2
            failed=$((failed + 1))
            continue
            ;;
    esac
    if [ "$first" = "$cmd" ] || [[ "$cmd" == *[\;\|\&\$\`\<\>]* ]]; then
        echo "FAIL $name: first line must be '// <compiler> <plain arguments>': $first" >&2
        failed=$((failed + 1))
        continue
    fi
    if ! (cd "$dir" && "${argv[@]}"); then
        echo "FAIL $name: $cmd" >&2
        failed=$((failed + 1))
        continue
    fi
    entry="$(sed -n 's/^ *"kernel": *"\([A-Za-z0-9_$]*\)".*/\1/p' "$dir/case.json" 2>/dev/null | head -n 1)"
    if [ -z "$entry" ] || ! grep -q "^\.visible \.entry $entry(" "$dir/kernel.ptx"; then
        echo "FAIL $name: kernel.ptx has no '.visible .entry ${entry:-?}(' (case.json kernel)" >&2
        failed=$((failed + 1))
        continue
    fi
    built=$((built + 1))
    echo "ok   $name: $cmd"
done

echo "build_ptx.sh: $built built, $failed failed"
[ "$failed" -eq 0 ]
