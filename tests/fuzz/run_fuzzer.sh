#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz for a given time, seeded from the repository (docs/FUZZING.md).
#   usage: tests/fuzz/run_fuzzer.sh FUZZER SECONDS [WORKDIR] [-- LIBFUZZER-OPTION...]
#   FUZZER   a fuzz_ptx, fuzz_spirv or fuzz_case binary (the seeds follow the name)
#   SECONDS  wall-clock seconds, or cpu:N for N seconds of CPU time
#   WORKDIR  keeps corpus/<fuzzer>/ (grown across runs), artifacts/<fuzzer>/ (crash-*, timeout-*, leak-*) and
#            seeds/<fuzzer>/ (rebuilt each run); default build/fuzz
# Exit status 0 only when libFuzzer found no crash, sanitizer report, leak, "internal error", nor an input taking
# over 10 s. Prints the executions, the CPU seconds used and the corpus size.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { sed -n 2,10p "$0"; exit 2; }
fuzzer=$1 secs=$2
shift 2
work=build/fuzz
if [ $# -gt 0 ] && [ "$1" != "--" ]; then work=$1; shift; fi
[ "${1:-}" = "--" ] && shift
name=$(basename "$fuzzer")
# readable reports (llvm-16: tests/install_deps.sh --sanitize); UBSan findings stop the fuzzer like crashes
[ -x /usr/bin/llvm-symbolizer-16 ] && export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/bin/llvm-symbolizer-16}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[ -x "$fuzzer" ] || { echo "run_fuzzer.sh: no fuzzer binary at $fuzzer" >&2; exit 2; }
mkdir -p "$work/corpus/$name" "$work/artifacts/$name"
seeds=$work/seeds/$name
rm -rf "$seeds"; mkdir -p "$seeds"
n=0
add() { n=$((n + 1)); cp "$1" "$seeds/$n.$(basename "$1")"; }
case $name in
  fuzz_ptx)   # every PTX of the corpus and the tests (the largest, 170 KB, sets -max_len)
    while IFS= read -r f; do add "$f"; done < <(find "$root/ptx_corpus" "$root/tests" -name '*.ptx' -size -256k | sort)
    opts=(-max_len=262144) ;;
  fuzz_spirv) # the small ones: the target skips inputs over 4 KiB
    while IFS= read -r f; do add "$f"; done < <(find "$root/ptx_corpus" "$root/tests" -name '*.ptx' -size -5k | sort)
    opts=(-max_len=4096) ;;
  fuzz_case)  # every case.json
    while IFS= read -r f; do add "$f"; done < <(find "$root/ptx_corpus" "$root/tests" -name case.json | sort)
    opts=(-max_len=16384 -dict="$here/case.dict") ;;
  *) echo "run_fuzzer.sh: unknown fuzzer '$name' (fuzz_ptx, fuzz_spirv, fuzz_case)" >&2; exit 2 ;;
esac
[ "$name" != fuzz_case ] && opts+=(-dict="$here/ptx.dict")
echo "$name: $n seeds, $(ls "$work/corpus/$name" | wc -l) inputs in $work/corpus/$name, ${secs} s"
log=$work/$name.log
: >"$log"
start=$(date +%s)
# SECONDS is wall time, or cpu:N for N seconds of CPU time (a shared machine gives a niced fuzzer a fraction of a
# core): then the fuzzer runs in rounds of at most 600 s until its processes have used N CPU seconds in all.
cpu_goal=0
case $secs in cpu:*) cpu_goal=${secs#cpu:} ;; esac
cpu_used=0 round=0 rc=0
TIMEFORMAT='%U %S'
while :; do
  round=$((round + 1))
  if [ "$cpu_goal" -gt 0 ]; then
    left=$(awk -v g="$cpu_goal" -v u="$cpu_used" 'BEGIN { l = g - u; print (l > 600 ? 600 : int(l) + 1) }')
  else
    left=$secs
  fi
  # -timeout: an input over 10 s is a hang; -rss_limit_mb: 2 GiB; leaks are detected (ASan's LeakSanitizer).
  { time "$fuzzer" "$work/corpus/$name" "$seeds" -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/$name/" "${opts[@]}" "$@" >>"$log" 2>&1; } 2>"$log.time"
  rc=$?
  cpu_used=$(awk -v u="$cpu_used" '{ print u + $1 + $2 }' "$log.time")
  rm -f "$log.time"
  [ $rc = 0 ] || break
  [ "$cpu_goal" -gt 0 ] && awk -v g="$cpu_goal" -v u="$cpu_used" 'BEGIN { exit !(u < g) }' || break
done
execs=$(awk '/^stat::number_of_executed_units/ { n += $2 } END { print n + 0 }' "$log")
grep -E 'ERROR|SUMMARY|internal error|Test unit written|deadly signal' "$log" | head -20
echo "$name: exit $rc; $round round(s), $(( $(date +%s) - start )) s wall, $cpu_used CPU s, $execs executions;" \
  "corpus $(ls "$work/corpus/$name" | wc -l) inputs; log $log"
[ $rc = 0 ] || tail -60 "$log"
exit $rc
