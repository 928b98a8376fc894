#!/usr/bin/env bash
# Regenerates ptx/<name>.ptx from kernels/<name>.cu. The compile command of each kernel is the first line of its
# .cu file (after "// "), so the exact flags live next to the code; this script only runs those lines.
# Usage: tests/parse_stress/gen_ptx.sh [name...]   (no names: every kernel)
# Env:   NVCC (default /usr/local/cuda/bin/nvcc), PTXAS (default next to NVCC), JOBS (default 2),
#        CHECK=0 to skip validating each .ptx with ptxas.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
JOBS=${JOBS:-2}
CHECK=${CHECK:-1}

if [ $# -gt 0 ]; then names=("$@"); else names=($(ls kernels/*.cu | xargs -n1 basename | sed 's/\.cu$//')); fi

gen_one() {
  local name=$1 line cmd arch
  line=$(head -n1 "kernels/$name.cu")
  case "$line" in
    "// nvcc "*) ;;
    *) echo "FAIL $name: first line is not '// nvcc ...'" >&2; return 1 ;;
  esac
  cmd="$NVCC ${line#// nvcc }"
  if ! eval "$cmd" 2> "ptx/$name.log"; then
    echo "FAIL $name: nvcc"; cat "ptx/$name.log"; rm -f "ptx/$name.log"; return 1
  fi
  rm -f "ptx/$name.log"
  if [ "$CHECK" = 1 ]; then
    arch=$(grep -m1 -o '^\.target sm_[0-9a-z]*' "ptx/$name.ptx" | cut -d' ' -f2)
    # Kernels built with -rdc hold unresolved externs, so ptxas must compile them as relocatable too.
    local rdc=""
    case "$line" in *-rdc=true*|*-dc*) rdc="-c" ;; esac
    if ! "$PTXAS" -arch="$arch" $rdc "ptx/$name.ptx" -o /dev/null; then echo "FAIL $name: ptxas"; return 1; fi
  fi
  echo "ok   $name ($(wc -c < "ptx/$name.ptx") bytes)"
}
export -f gen_one
export NVCC PTXAS CHECK
printf '%s\n' "${names[@]}" | xargs -P "$JOBS" -I{} bash -c 'gen_one {}'
