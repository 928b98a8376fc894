#!/usr/bin/env bash
# The op conformance sweep on an NVIDIA GPU machine: the same PTX as ptx_corpus/ops/, over at least 2^20 values
# per instruction with a new salt, CUDA (the reference runner, i.e. the driver's ptxas JIT) against ptx2glsl on
# NVIDIA's Vulkan driver and on lavapipe; plus the committed CI cases on NVIDIA Vulkan and the GPU time of exact
# against native mode on the whole corpus. Writes logs only (never a case's expected/: the sweep's references go
# to copies of the cases under $WORK).
#
# usage: PTX2GLSL=path/to/ptx2glsl ptx_corpus/ops/gpu_sweep.sh OUTDIR [STEP...]
#   steps (default: ref nvidia ci time passes): ref = CUDA reference for the sweep copies; nvidia / lavapipe = run the
#   sweep copies there; passes = exact_f32 shown needed on NVIDIA; ci = the committed cases (basic + ops) on NVIDIA Vulkan; time = GPU time exact vs --native;
#   hashes = after ref, write OUTDIR/sweep_ref_hashes.json (sweep_hashes.py: block hashes of the references, small
#   enough to bring back); lavapipe-local = on a machine without the GPU, run the sweep copies on lavapipe and
#   compare them with OUTDIR/sweep_ref_hashes.json (writes OUTDIR/sweep_lavapipe.log).
#   env: WORK (default /tmp/p2g-sweep), MIN_VALUES (default 1048576), SALT (default 0x5EED2024), CASES (default:
#   every ops case with an "ops" table), FACTS (device facts the nvidia/lavapipe steps force, e.g. "f32-fast
#   f32-div-fast")
# Then, on any machine: python3 docs/make_ops_table.py --results OUTDIR   (rewrites docs/OPS_TABLE.md)
set -u
cd "$(dirname "$0")/../.."
out=${1:?usage: gpu_sweep.sh OUTDIR [STEP...]}
shift
steps=${*:-ref nvidia ci time passes}
mkdir -p "$out"
out=$(cd "$out" && pwd)
WORK=${WORK:-/tmp/p2g-sweep}
MIN_VALUES=${MIN_VALUES:-1048576}
SALT=${SALT:-0x5EED2024}
P2G=${PTX2GLSL:-build/translator/ptx2glsl}
mapfile -t cases < <(ls -d ptx_corpus/ops/*/ | sed 's:/$::' | while read -r c; do grep -q '"ops"' "$c/case.json" && echo "$c"; done)
# CASES="ptx_corpus/ops/a ptx_corpus/ops/b": sweep only these (a change that touches a few instructions)
[ -n "${CASES:-}" ] && read -ra cases <<< "$CASES"

# Sweep copies: grid and output buffers scaled so every instruction sees >= MIN_VALUES inputs, another salt.
mkdir -p "$WORK"
python3 - "$WORK" "$MIN_VALUES" "$SALT" "${cases[@]}" <<'EOF'
import json, os, shutil, sys
work, minv, salt = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0)
for c in sys.argv[4:]:
    j = json.load(open(os.path.join(c, "case.json")))
    n = j["grid"][0] * j["block"][0]
    scale = max(1, -(-minv // n))
    j["grid"][0] *= scale
    for b in j["buffers"].values():
        b["bytes"] *= scale
    j["params"][-1] = {"u32": salt}
    d = os.path.join(work, os.path.basename(c))
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(c, "kernel.ptx"), d)
    json.dump(j, open(os.path.join(d, "case.json"), "w"), indent=1)
EOF
# FACTS="f32-fast f32-div-fast": the nvidia/lavapipe steps force these device facts (`run --fact`), to measure a
# fact on a device before facts.cpp sets it there
factArgs=()
for f in ${FACTS:-}; do factArgs+=(--fact "$f"); done
sweep=()
for c in "${cases[@]}"; do sweep+=("$WORK/$(basename "$c")"); done

for step in $steps; do
  case $step in
    ref)
      cmake -S . -B build-cuda -DPTX2GLSL_TRANSLATOR=OFF -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log" 2>&1 &&
        cmake --build build-cuda -j "$(nproc)" --target ptx2glsl-cudaref >>"$out/cmake.log" 2>&1 ||
        { tail -40 "$out/cmake.log"; exit 1; }
      echo "== CUDA reference for ${#sweep[@]} sweep cases (>= $MIN_VALUES values each)"
      build-cuda/runtime/cuda_ref/ptx2glsl-cudaref "${sweep[@]}" >"$out/sweep_ref.log" 2>&1
      tail -3 "$out/sweep_ref.log" ;;
    nvidia | lavapipe)
      echo "== sweep on $step"
      "$P2G" run "${sweep[@]}" --device "$step" ${factArgs[@]+"${factArgs[@]}"} >"$out/sweep_$step.log" 2>&1
      tail -1 "$out/sweep_$step.log" ;;
    hashes)
      python3 ptx_corpus/ops/sweep_hashes.py make "$WORK" "$out/sweep_ref_hashes.json" ;;
    lavapipe-local)
      echo "== sweep on lavapipe, compared with the reference hashes"
      [ -f "$out/sweep_ref_hashes.json" ] || { echo "no $out/sweep_ref_hashes.json (step hashes on the GPU machine)" >&2; exit 1; }
      rm -rf "$WORK/out-lavapipe"
      "$P2G" run "${sweep[@]}" --device lavapipe --out "$WORK/out-lavapipe" >"$WORK/sweep_lavapipe_run.log" 2>&1  # no expected/ there: only --out matters
      python3 ptx_corpus/ops/sweep_hashes.py check "$out/sweep_ref_hashes.json" "$WORK/out-lavapipe" \
        >"$out/sweep_lavapipe.log" 2>&1
      tail -1 "$out/sweep_lavapipe.log" ;;
    ci)
      echo "== committed cases on NVIDIA Vulkan"
      "$P2G" run ptx_corpus/basic/* ptx_corpus/ops/*/ --device nvidia >"$out/ci_nvidia.log" 2>&1
      tail -1 "$out/ci_nvidia.log" ;;
    time)
      echo "== GPU time, exact and native, on NVIDIA Vulkan"
      "$P2G" run ptx_corpus/basic/* ptx_corpus/ops/*/ --device nvidia --repeat 20 >"$out/time_exact.log" 2>&1
      "$P2G" run ptx_corpus/basic/* ptx_corpus/ops/*/ --device nvidia --repeat 20 --native >"$out/time_native.log" 2>&1
      grep -c "GPU ms" "$out/time_exact.log" "$out/time_native.log" ;;
    passes)
      # exact_f32 (HAZARDS row 5) can only be shown on a device that flushes f32 denormals
      echo "== exact_f32 on NVIDIA Vulkan: with the pass, then without (must differ)"
      { "$P2G" run ptx_corpus/basic/f32_bits_convert ptx_corpus/ops/f32_add ptx_corpus/ops/f32_setp --device nvidia
        "$P2G" run ptx_corpus/basic/f32_bits_convert ptx_corpus/ops/f32_add ptx_corpus/ops/f32_setp --device nvidia \
          --disable-pass exact_f32; } >"$out/passes_nvidia.log" 2>&1
      grep -E "differ|identical" "$out/passes_nvidia.log" | tail -12 ;;
    *) echo "unknown step '$step'" >&2; exit 2 ;;
  esac
done
echo "logs in $out"
