#!/usr/bin/env bash
# How much faster `ptx2glsl batch` translates the corpus's PTX (every ptx_corpus/**/kernel.ptx and
# tests/parse_stress/ptx/*.ptx) with -j 2 than with -j 1: RUNS runs of each, interleaved, wall time of the whole
# command; prints min and median per -j and their ratios. Not a ctest (it measures the machine). From the
# repository root:   tests/builds/batch_speed.sh [PTX2GLSL] [RUNS]
# On a shared machine, run it at a high priority (nice -n -20, as root) so the other processes' load does not
# decide the result; say so with the figures.
set -eu
cd "$(dirname "$0")/../.."
bin=${1:-build/translator/ptx2glsl}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t inputs < <(find ptx_corpus -name kernel.ptx | sort; ls tests/parse_stress/ptx/*.ptx)
echo "${#inputs[@]} PTX files, $(cat "${inputs[@]}" | wc -c) bytes; $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A times
for r in $(seq "$runs"); do
  for j in 1 2; do
    rm -rf "$tmp/out"  # not timed: removing the previous output is not translation
    s=$(date +%s.%N)
    "$bin" batch "${inputs[@]}" -o "$tmp/out" -j $j --quiet >"$tmp/log" 2>&1 || true
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    times[$j]="${times[$j]:-} $t"
    printf 'run %d -j %d: %.2f s (%s)\n' "$r" "$j" "$t" "$(head -1 "$tmp/log" | cut -d';' -f1)"
  done
done
stat() {  # min median
  echo "$1" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.2f %.2f", a[1], m}'
}
read -r min1 med1 <<<"$(stat "${times[1]}")"
read -r min2 med2 <<<"$(stat "${times[2]}")"
printf -- '-j 1: min %.2f s, median %.2f s\n-j 2: min %.2f s, median %.2f s\n' "$min1" "$med1" "$min2" "$med2"
printf 'speed-up -j 2 over -j 1: %.2fx (min), %.2fx (median)\n' "$(echo "$min1 / $min2" | bc -l)" "$(echo "$med1 / $med2" | bc -l)"
