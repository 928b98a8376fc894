#!/usr/bin/env bash
# Runs the sfu_sweep cases one by one with `ptx2glsl run` and compares their block hashes with expected/ (written by
# the CUDA reference runner on an NVIDIA GPU). Prints per case: identical, or the number of differing blocks (and the
# first few block numbers), and the time taken. These cases evaluate an instruction 2^32 times, so they are not part
# of tests/corpus or ptx_corpus/run.sh; see README.md.
#
# usage: ptx_corpus/sfu_sweep/run.sh [options] [CASE...]   (default: every case of the suite; a CASE is a case
#        name of the suite or a folder; paths are relative to the repository root)
#   --device NAME     Vulkan device for ptx2glsl run (lavapipe by default; nvidia on the GPU machine)
#   --blocks F:C      sweep only blocks F .. F+C-1 of each case (compared with the same slice of expected/)
#   --chunk N         at most N blocks per dispatch, one `ptx2glsl run` each (it gives up on a dispatch after 600 s
#                     unless --timeout says otherwise: on lavapipe 16384 blocks take 150-700 s, more on a busy machine)
#   --timeout S       passed to `ptx2glsl run --timeout` (seconds a dispatch may take; default 600)
#   --bin PATH        the ptx2glsl binary (default: $PTX2GLSL, else build/translator/ptx2glsl)
#   --keep DIR        keep the hashes computed (DIR/<case>/hash.bin, the whole selected range in block order)
# Exit status 0 only when every case swept is identical to expected/.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
exec python3 - "$here" "$@" <<'PY'
import os, shutil, struct, subprocess, sys, tempfile, time, json

here = sys.argv[1]
args = sys.argv[2:]
device, blocks, chunk, keep, timeout = None, None, None, None, None
binary = os.environ.get("PTX2GLSL", "build/translator/ptx2glsl")
cases = []
i = 0
while i < len(args):
    a = args[i]
    def val():
        global i
        if i + 1 >= len(args):
            sys.exit(f"run.sh: {a} needs a value")
        i += 1
        return args[i]
    if a == "--device": device = val()
    elif a == "--blocks":
        f, c = val().split(":")
        blocks = (int(f), int(c))
    elif a == "--chunk": chunk = int(val())
    elif a == "--timeout": timeout = val()
    elif a == "--bin": binary = val()
    elif a == "--keep": keep = val()
    elif a in ("-h", "--help"):
        print(open(os.path.join(here, "run.sh")).read().split("set -u")[0]); sys.exit(0)
    elif a.startswith("--"): sys.exit(f"run.sh: unknown option {a}")
    else: cases.append(a)
    i += 1
if not os.access(binary, os.X_OK):
    sys.exit(f"run.sh: no ptx2glsl binary at {binary} (--bin or PTX2GLSL)")
# A binary carried without its data folder (<bin>/../share/ptx2glsl) reads the tables of this checkout.
if not os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(binary)), "..", "share", "ptx2glsl", "sfu_tables.bin")):
    os.environ.setdefault("PTX2GLSL_SFU_TABLES", os.path.abspath("translator/sfu/tables"))
if not cases:
    cases = sorted(d for d in os.listdir(here) if os.path.isfile(os.path.join(here, d, "case.json")))
dirs = [c if os.path.isdir(c) else os.path.join(here, c) for c in cases]

tmp = tempfile.mkdtemp(prefix="sfu_sweep_")
status = 0
grand = time.time()
print(f"sfu_sweep: {len(dirs)} cases, ptx2glsl {binary}, device {device or 'default (lavapipe)'}", flush=True)
for d in dirs:
    name = os.path.basename(os.path.normpath(d))
    spec = json.load(open(os.path.join(d, "case.json")))
    total = spec["params"][2]["u32"]
    first, count = blocks if blocks else (0, total)
    count = max(0, min(count, total - first))
    if count == 0:
        print(f"{name:24s} skipped: the case has {total} blocks, none from {first}", flush=True)
        continue
    step = chunk or count
    want = None
    exp = os.path.join(d, "expected", "hash.bin")
    if os.path.isfile(exp):
        want = open(exp, "rb").read()
    got = bytearray()
    err = None
    t0 = time.time()
    for k, f in enumerate(range(first, first + count, step)):
        c = min(step, first + count - f)
        cd = os.path.join(tmp, f"{name}.{k}", name)
        os.makedirs(cd)
        shutil.copy(os.path.join(d, spec.get("ptx", "kernel.ptx")), os.path.join(cd, "kernel.ptx"))
        s = dict(spec, ptx="kernel.ptx")
        threads = s["block"][0]
        s["grid"] = [(c + threads - 1) // threads, 1, 1]
        s["buffers"] = {"hash": {"bytes": 8 * c, "init": {"zero": True}}}
        s["params"] = [{"buffer": "hash"}, {"u32": f}, {"u32": c}]
        json.dump(s, open(os.path.join(cd, "case.json"), "w"))
        out = os.path.join(tmp, f"{name}.{k}.out")
        cmd = [binary, "run", cd, "--out", out, "--quiet"] + (["--device", device] if device else []) + \
              (["--timeout", timeout] if timeout else [])
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        hb = os.path.join(out, name, "hash.bin")
        if not os.path.isfile(hb):
            text = r.stdout.replace(os.path.join(cd, "kernel.ptx"), os.path.join(d, spec.get("ptx", "kernel.ptx")))
            lines = [l.strip() for l in text.splitlines() if "error" in l and "errors" not in l]
            diag = [l for l in lines if ".ptx:" in l]  # the translator's own diagnostics, when it refused the PTX
            lines = diag or lines
            more = f" (+{len(lines) - 1} more)" if len(lines) > 1 else ""
            err = f"blocks {f}..{f + c - 1}: " + (lines[0] if lines else r.stdout.strip()[-300:]) + more
            break
        got += open(hb, "rb").read()
        if step < count:  # progress of a chunked sweep, on stderr
            print(f"  {name} blocks {f}..{f + c - 1}: {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
    secs = time.time() - t0
    if err:
        print(f"{name:24s} error: {err}  ({secs:.1f} s)", flush=True)
        status = 1
        continue
    if keep:
        os.makedirs(os.path.join(keep, name), exist_ok=True)
        open(os.path.join(keep, name, "hash.bin"), "wb").write(got)
    if want is None:
        print(f"{name:24s} no expected/ ({count} blocks swept from {first})  {secs:.1f} s", flush=True)
        status = 1
        continue
    ref = want[8 * first: 8 * (first + count)]
    if len(ref) != len(got):
        print(f"{name:24s} error: expected/hash.bin has {len(want) // 8} blocks, swept {first}+{count}", flush=True)
        status = 1
        continue
    bad = [first + j for j in range(count) if got[8 * j: 8 * j + 8] != ref[8 * j: 8 * j + 8]]
    if not bad:
        print(f"{name:24s} identical ({count} blocks)  {secs:.1f} s", flush=True)
    else:
        status = 1
        shown = " ".join(str(b) for b in bad[:8]) + (" ..." if len(bad) > 8 else "")
        print(f"{name:24s} {len(bad)} differing blocks of {count} (blocks {shown})  {secs:.1f} s", flush=True)
shutil.rmtree(tmp, ignore_errors=True)
print(f"sfu_sweep: done in {time.time() - grand:.1f} s", flush=True)
sys.exit(status)
PY
