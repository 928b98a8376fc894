#!/usr/bin/env bash
# One device call (the `run` tool, repository root on an NVIDIA machine), prepared here and carried: `carry`
# [".gl", ".dev"] with .gl = the Vulkan loader .debs (libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0
# libgles2, `apt-get download` for amd64; without the glvnd ones vkCreateInstance fails with
# VK_ERROR_INCOMPATIBLE_DRIVER) and .dev/ptx2glsl.gz = `strip -o /tmp/p2g build/translator/ptx2glsl; gzip -c
# /tmp/p2g > .dev/ptx2glsl.gz`. Stage the tree first (stage.sh). Everything goes to $OUT/log.txt as it comes, so a
# call cut short still returns what it measured; keep each line's filter on the "GPU ms" line (a `tail` once kept
# the wrong lines and lost a whole call's timings).
#   usage: bash tests/experiments/device/call.sh SECTION...
#   sections: fresh     K 720p native in separate processes: fresh pipelines (disk cache off), one after 15 s of
#                       warm-up, and the disk-cached one
#             kcut      K 720p native cut short at KCUT_N points (tests/experiments/cut_variants.py, made there)
#             kexact    K 720p exact: compiled into the disk cache (cold pipeline creation), then timed again in a
#                       new process from the cache (the compiling process runs K 3-4x slower: docs/GPU_BENCH.md
#                       "K exact from the disk cache"; --pipeline-stats; up to 400 s)
#             bench     every bench case but sfu_heavy exact (SFU_EXACT=1: that too), exact and native, disk
#                       cache on (second run cached); BENCH_CASES="ptx_corpus/bench/a ...", BENCH_MODES="exact"
#             suites    every suite staged, exact and native (identity; SUITE_MODES="exact" for one mode)
#             cases     CASES="ptx_corpus/a ..." exact and native (identity; up to 300 s each run)
#             cuda      ptx2glsl-cudaref --time 30 of K 720p and the bench cases (also writes K 720p's expected/)
#             sfusweep  the 23 SFU sweeps (STAGE=suites; SFU_CASES="rcp_approx_f32 ..." some of them)
#             opsweep   the op sweeps (gpu_sweep.sh ref nvidia ci) and the basic+ops cases native (STAGE=sweeps)
#             variants  K 720p with each GLSL of .dev/kv/*.comp (--glsl; KV_DIR=other folder, KV_MODE= for exact
#                       mode), two rounds
#             kab       K 720p exact with each binary of KAB_BINS (".dev/a.gz .dev/b.gz", gzipped like .dev/ptx2glsl.gz):
#                       compiled into the disk cache, from it, then fresh with it off (about 320 s per binary;
#                       KAB_DC="1 1": the first two only, about 165 s)
#             kglsl     K 720p exact twice in the process that compiles it (the second from the disk cache), then in
#                       a new process (KG_HEAD=0: not); then each GLSL of KV_DIR (default .dev/kv) compiled, then
#                       from the cache
#             rounds    kab of .dev/ptx2glsl-rounds.gz (a build with tests/experiments/replay_rounds.patch), KAB_DC="1 1"
#   env: BIN=.dev/x.gz the binary of every section but kab/bench A/B (default .dev/ptx2glsl.gz)
#        FACTS="f32-div-fast ..." device facts forced (`run --fact`) in every run step (and the op sweeps')
set -u
T0=$(date +%s)
FX=; for f in ${FACTS:-}; do FX="$FX --fact $f"; done
L=${OUT:-/tmp}/log.txt
say() { echo "[$(( $(date +%s) - T0 ))s] $*" >> "$L"; }
keep() { grep -E "GPU ms|statistics|outputs identical|differ,|cache data|twins|error" | grep -v ": identical$"; }
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export PTX2GLSL_SFU_TABLES=$PWD/translator/sfu/tables
gunzip -c ${BIN:-.dev/ptx2glsl.gz} > /tmp/p2g && chmod +x /tmp/p2g
P=/tmp/p2g
R=build-cuda/runtime/cuda_ref/ptx2glsl-cudaref
K=ptx_corpus/rrlite/k_output_720p
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$L"
$P devices >> "$L" 2>&1 || { ls -la /usr/local/nvidia/share/vulkan/icd.d/ >> "$L" 2>&1; exit 1; }
cudaref() {
  [ -x $R ] || { cmake -S . -B build-cuda -DPTX2GLSL_TRANSLATOR=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/cc.log 2>&1 &&
    cmake --build build-cuda -j 8 --target ptx2glsl-cudaref >> /tmp/cc.log 2>&1 || tail -5 /tmp/cc.log >> "$L"; }
  [ -f $K/expected/output.bin ] || $R $K > /dev/null 2>&1
}
# K 720p exact with binary $1, disk cache $2 (0: a fresh pipeline), each kept line prefixed with $3; $4: more
# arguments of `run` (`--glsl FILE`, or K once more); KT=1: every timed dispatch's GPU ms too (PTX2GLSL_TIMES)
kexact_run() {
  env ${KT:+PTX2GLSL_TIMES=1} __GL_SHADER_DISK_CACHE=$2 PTX2GLSL_VERBOSE=1 timeout 400 $1 run $K ${4:-} --device nvidia --repeat 20 --pipeline-stats $FX 2>&1 |
    grep -E "pipeline created|GPU ms|statistics|outputs" | sed "s/^/$3: /" >> "$L"
}
# K 720p exact with the gzipped binary $1 (like .dev/ptx2glsl.gz), once for each disk-cache setting in $2
kab_run() {
  local n; n=$(basename $1 .gz); gunzip -c $1 > /tmp/kab-$n && chmod +x /tmp/kab-$n
  for dc in $2; do kexact_run /tmp/kab-$n $dc "$n disk cache $dc"; done
}
for s in "$@"; do
  say "== $s"
  case $s in
    fresh)
      # K 720p native in separate processes: fresh pipelines (disk cache off), one after 15 s of warm-up, then the
      # disk-cached one (some processes run 3-5x slower: docs/GPU_BENCH.md, 2026-12-07 evening)
      cudaref
      for i in 1 2 3 4; do
        __GL_SHADER_DISK_CACHE=0 $P run $K --device nvidia --native --repeat 30 --pipeline-stats 2>&1 | keep |
          sed "s/^/fresh $i: /" >> "$L"
      done
      __GL_SHADER_DISK_CACHE=0 PTX2GLSL_WARMUP_MS=15000 $P run $K --device nvidia --native --repeat 30 2>&1 | keep |
        sed "s/^/fresh, 15 s warm-up: /" >> "$L"
      $P run $K --device nvidia --native --repeat 30 2>&1 | keep | sed "s/^/disk cache on: /" >> "$L"
      $P run $K --device nvidia --native --repeat 30 2>&1 | keep | sed "s/^/disk cache on, again: /" >> "$L" ;;
    sfusweep)
      bash ptx_corpus/sfu_sweep/run.sh --device nvidia --bin $P ${SFU_CASES:-} 2>&1 | grep -v "blocks [0-9]" >> "$L" ;;
    opsweep)
      WORK=/tmp/sw PTX2GLSL=$P FACTS="${FACTS:-}" bash ptx_corpus/ops/gpu_sweep.sh /tmp/opsw ref nvidia ci 2>&1 | tail -12 >> "$L"
      grep -v ": identical$" /tmp/opsw/sweep_nvidia.log | tail -8 >> "$L"
      grep -v ": identical$" /tmp/opsw/ci_nvidia.log | tail -8 >> "$L"
      $P run ptx_corpus/basic/* ptx_corpus/ops/*/ --device nvidia --native $FX 2>&1 | grep -v ": identical$" | tail -8 |
        sed "s/^/native: /" >> "$L" ;;
    variants)
      # GLSL variants of K 720p (--glsl: the translation's parameters, buffers and comparison), two rounds
      # alternated: .dev/kv/<name>.comp, native mode unless KV_MODE is empty; the timing, not the outputs
      cudaref
      for i in 1 2; do for v in ${KV_DIR:-.dev/kv}/*.comp; do
        $P run $K --device nvidia ${KV_MODE---native} --glsl $v --repeat 30 --pipeline-stats 2>&1 | grep -E "GPU ms|statistics" |
          sed "s|^|$(basename $v .comp) round $i: |" >> "$L"
      done; done ;;
    kcut)
      # where K 720p native's time goes: cut_variants.py of its native GLSL, made here (KCUT_N cuts, default 16),
      # and the translation itself (base), KCUT_ROUNDS rounds (default 1) alternated
      cudaref
      rm -rf /tmp/kn /tmp/kcut; $P translate ptx_corpus/rrlite/k_output/kernel.ptx -o /tmp/kn --native --no-annotate > /dev/null 2>&1
      mkdir -p /tmp/kcut; python3 tests/experiments/cut_variants.py /tmp/kn/k_output.comp /tmp/kcut ${KCUT_N:-16} | tr '\n' ' ' >> "$L"; echo >> "$L"
      cp /tmp/kn/k_output.comp /tmp/kcut/base.comp
      for i in $(seq ${KCUT_ROUNDS:-1}); do for v in /tmp/kcut/*.comp; do
        $P run $K --device nvidia --native --glsl $v --repeat 30 --pipeline-stats 2>&1 | grep -E "GPU ms|statistics" |
          sed "s|^|$(basename $v .comp) round $i: |" >> "$L"
      done; done ;;
    kexact)
      cudaref
      kexact_run $P 1 "K exact, compiling process"
      kexact_run $P 1 "K exact, from the cache" ;;
    kab)
      cudaref
      # per binary: compiled into the disk cache, then from it, then fresh with the cache off (KAB_DC)
      for g in ${KAB_BINS:-}; do kab_run $g "${KAB_DC:-1 1 0}"; done ;;
    kglsl)
      cudaref
      if [ "${KG_HEAD:-1}" = 1 ]; then
        KT=1 kexact_run $P 1 "K exact, compiling process, K twice" "$K"
        kexact_run $P 1 "K exact, from the cache"
      fi
      for v in ${KV_DIR:-.dev/kv}/*.comp; do n=$(basename $v .comp)
        kexact_run $P 1 "$n, compiling process" "--glsl $v"
        kexact_run $P 1 "$n, from the cache" "--glsl $v"
      done ;;
    rounds)
      cudaref
      kab_run .dev/ptx2glsl-rounds.gz "1 1" ;;
    bench)
      # BENCH_BINS=".dev/a.gz .dev/b.gz": each binary in turn for every case and mode (default: the one binary)
      bins=; for g in ${BENCH_BINS:-}; do n=$(basename $g .gz); gunzip -c $g > /tmp/bb-$n && chmod +x /tmp/bb-$n; bins="$bins /tmp/bb-$n"; done
      for c in ${BENCH_CASES:-ptx_corpus/bench/*/}; do c=${c%/}
        for md in ${BENCH_MODES:-native exact}; do
          [ "$c" = ptx_corpus/bench/sfu_heavy ] && [ $md = exact ] && [ -z "${SFU_EXACT:-}" ] && continue
          fl=; [ $md = native ] && fl=--native
          for i in 1 2; do for b in ${bins:-$P}; do
            $b run $c --device nvidia $fl --repeat 30 $FX 2>&1 | keep | tr '\n' ' ' | sed "s|^|$(basename $b) $md $i: |" >> "$L"; echo >> "$L"
          done; done
        done
      done ;;
    suites)
      for md in ${SUITE_MODES:-exact native}; do fl=; [ $md = native ] && fl=--native
        # the whole log goes to $OUT as it comes, so a call cut short still returns the cases it ran
        $P run $(ls -d ptx_corpus/*/*/ | grep -v -E "rrlite|sfu_heavy|sfu_sweep") --device nvidia $fl $FX > ${OUT:-/tmp}/suites_$md.log 2>&1
        grep -E "differ|cases," ${OUT:-/tmp}/suites_$md.log | tail -30 | sed "s/^/$md: /" >> "$L"
      done ;;
    cases)
      for md in ${SUITE_MODES:-exact native}; do fl=; [ $md = native ] && fl=--native
        for c in ${CASES:-}; do timeout 300 $P run $c --device nvidia $fl $FX 2>&1 | grep -E "differ|cases,|error" | tail -5 |
          sed "s|^|$md $c: |" >> "$L"; done
      done ;;
    cuda)
      cudaref
      for c in $K ptx_corpus/bench/*/; do $R --time 30 ${c%/} 2>&1 | grep "GPU ms" >> "$L"; done ;;
    *) say "unknown section $s" ;;
  esac
done
say end
