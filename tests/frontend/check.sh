#!/usr/bin/env bash
# Hostile and unsupported input for the translator: every one must end in a clear error (the exit status the
# command documents, a message that names the file and what is wrong, `file:line:col` with the source line and a
# caret where there is a position), never a signal, an "internal error" or a file left in the output folder; and
# deep but valid code must translate.
#   check.sh PTX2GLSL
# cases/NN_name.ptx start with `// CHECK: LINE:COL: error: MESSAGE`, the first diagnostic `translate` must print
# (exit status 1). The inputs too big or too odd to commit are made here.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passed=0

fail() { echo "FAIL $1: $2"; sed -n 1,12p "$tmp/err" | cut -c1-200 | sed 's/^/    /'; fails=$((fails + 1)); }

# run NAME WANT_RC CMD...: runs CMD with stdout/stderr in $tmp/out, $tmp/err; checks the exit status, that no
# signal or internal error happened, and that the output folder $tmp/o is empty or absent afterwards when the
# command failed.
run() {
  local name=$1 want=$2
  shift 2
  rm -rf "$tmp/o"
  # The limits stand for a small machine running the release binary (8 MiB stack, 4 GB of address space). Under
  # AddressSanitizer (ASAN_OPTIONS set by tests/sanitize.sh) they cannot apply: the shadow memory alone reserves
  # terabytes of address space, and instrumented frames are several times larger (sanitize.sh gives 32 MiB).
  if [ -n "${ASAN_OPTIONS:-}" ]; then
    "$@" >"$tmp/out" 2>"$tmp/err"
  else
    (ulimit -s 8192; ulimit -v 4000000; "$@") >"$tmp/out" 2>"$tmp/err"
  fi
  local rc=$?
  if [ $rc -ge 128 ]; then fail "$name" "killed by signal $((rc - 128))"; return 1; fi
  if [ $rc -ne "$want" ]; then fail "$name" "exit status $rc, expected $want"; return 1; fi
  if grep -q "internal error" "$tmp/err"; then fail "$name" "internal error"; return 1; fi
  if [ "$want" -ne 0 ] && [ -e "$tmp/o" ] && [ -n "$(ls -A "$tmp/o")" ]; then
    fail "$name" "files left in the output folder: $(ls -A "$tmp/o" | tr '\n' ' ')"; return 1
  fi
  return 0
}
# has NAME TEXT: stderr contains TEXT (fixed string)
has() {
  if ! grep -qF -- "$2" "$tmp/err"; then fail "$1" "stderr lacks: $2"; return 1; fi
  return 0
}
ok() { passed=$((passed + 1)); }

# ---- the committed cases: first diagnostic, caret under its column
for f in "$here"/cases/*.ptx; do
  n=$(basename "$f" .ptx)
  want=$(sed -n '1s|^// CHECK: ||p' "$f")
  run "$n" 1 "$bin" translate "$f" -o "$tmp/o" || continue
  first=$(grep -m1 ': error: ' "$tmp/err")
  if [ "$first" != "$f:$want" ]; then fail "$n" "first error is '${first#$here/cases/}', expected '$n.ptx:$want'"; continue; fi
  # the source line follows, then a caret at the column (tabs kept as tabs)
  col=$(echo "$want" | cut -d: -f2)
  caret=$(grep -m1 -A2 ': error: ' "$tmp/err" | sed -n 3p)
  pre=${caret%%^*}
  if [ "${#pre}" -ne $((col - 1)) ]; then fail "$n" "caret at column $((${#pre} + 1)), expected $col"; continue; fi
  has "$n" "nothing written" && ok
done

# ---- generated inputs
hdr=$'.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{\n\t.reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n\tld.param.u64 %rd1, [k_p];\n'
tail_=$'\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n'

# 100,000 nested '(' in an operand, after `call`, and '[' in an address: a bounded parser, not a stack overflow
python3 - "$tmp" "$hdr" <<'EOF'
import sys
d, h = sys.argv[1], sys.argv[2]
open(d + '/paren.ptx', 'w').write(h + '\tadd.s32 %r1, ' + '(' * 100000 + '%r2;\n\tret;\n}\n')
open(d + '/call.ptx', 'w').write(h + '\tcall ' + '(' * 100000 + '\n\tret;\n}\n')
open(d + '/brack.ptx', 'w').write(h + '\tld.global.u32 %r1, ' + '[%rd1, ' * 100000 + '\n\tret;\n}\n')
EOF
for n in paren call brack; do
  run "nested_$n" 1 "$bin" translate "$tmp/$n.ptx" -o "$tmp/o" && has "nested_$n" "operand nested too deeply (limit 8" && ok
done

# ld.const through an address register in a kernel that names no .const variable: valid; the .const window's
# array must still be declared (tests/fuzz/fuzz_spirv, 2026-12-02: "'cmem' : undeclared identifier", internal error)
printf '%s\tcvt.u32.u64 %%r2, %%rd1;\n\tand.b32 %%r2, %%r2, 8;\n\tcvt.u64.u32 %%rd2, %%r2;\n\tld.const.u64 %%rd3, [%%rd2];\n\tcvt.u32.u64 %%r1, %%rd3;\n%s' "$hdr" "$tail_" >"$tmp/ldc_reg.ptx"
run ldc_reg 0 "$bin" translate "$tmp/ldc_reg.ptx" -o "$tmp/o" && ok

# 6,000 consecutive `bra` to the next label: valid, translates (GLSL and SPIR-V)
python3 - "$tmp" "$hdr" "$tail_" <<'EOF'
import sys
d, h, t = sys.argv[1:4]
s = h + ''.join('\tbra L%d;\nL%d:\n\tadd.s32 %%r1, %%r1, %d;\n' % (i, i, i) for i in range(6000))
open(d + '/bra_chain.ptx', 'w').write(s + t)
EOF
run bra_chain 0 "$bin" translate "$tmp/bra_chain.ptx" -o "$tmp/o" && ok

# ifs nested N deep: 990 translate (glslang takes about 1,250), 1,200 are refused at the PTX with a clear error
python3 - "$tmp" "$hdr" "$tail_" <<'EOF'
import sys
d, h, t = sys.argv[1:4]
for n in (990, 1200):
    s = h + '\tsetp.ne.s32 %p1, %r1, 0;\n'
    s += ''.join('@%%p1 bra E%d;\n\tadd.s32 %%r1, %%r1, 1;\n' % i for i in range(n))
    s += ''.join('E%d:\n\tadd.s32 %%r2, %%r2, 1;\n' % i for i in reversed(range(n)))
    open(d + '/ifs%d.ptx' % n, 'w').write(s + t)
# loops nested 400 deep (each level a counted loop around the next)
n = 400
s = h
s += ''.join('\tmov.u32 %%r3, 0;\nH%d:\n' % i for i in range(n))
s += '\tadd.s32 %r1, %r1, 1;\n'
s += ''.join('\tadd.s32 %%r3, %%r3, 1;\n\tsetp.lt.u32 %%p2, %%r3, 2;\n@%%p2 bra H%d;\n' % i for i in reversed(range(n)))
open(d + '/loops%d.ptx' % n, 'w').write(s + t)
EOF
# (GLSL only, then glslang alone: spirv-val takes over a minute on 990 nested ifs, 2 cores, 2026-12-01)
for n in ifs990 loops400; do
  run $n 0 "$bin" translate "$tmp/$n.ptx" -o "$tmp/o" --no-spirv &&
    if glslangValidator --target-env vulkan1.2 -V "$tmp/o/k.comp" -o "$tmp/k.spv" >"$tmp/err" 2>&1; then ok
    else fail $n "glslang does not compile the GLSL"; fi
done
run ifs1200 1 "$bin" translate "$tmp/ifs1200.ptx" -o "$tmp/o" &&
  has ifs1200 "error: 'k': control flow nests deeper than 1000 levels here" && has ifs1200 "ifs1200.ptx:" && ok

# a call tree that doubles at each of 24 levels: refused quickly, not after 2^24 copies (each inlined copy declares
# its registers, so the register limit comes before the instruction budget)
python3 - "$tmp" <<'EOF'
import sys
d = sys.argv[1]
s = '.version 8.7\n.target sm_90\n.address_size 64\n'
for i in range(24, 0, -1):
    body = '\tadd.s32 %r1, %r1, 1;\n' if i == 24 else '\tcall.uni f%d, ();\n\tcall.uni f%d, ();\n' % (i + 1, i + 1)
    s += '.func f%d()\n{\n\t.reg .b32 %%r<2>;\n%s\tret;\n}\n' % (i, body)
s += '.visible .entry k()\n{\n\tcall.uni f1, ();\n\tret;\n}\n'
open(d + '/calls.ptx', 'w').write(s)
EOF
run call_tree 1 timeout 120 "$bin" translate "$tmp/calls.ptx" -o "$tmp/o" &&
  has call_tree "registers (with its inlined calls); SPIR-V allows at most that many local variables" && ok

# a texture handle through 100,000 movs (the handle tracer walks the chain), and calls inlined 33 deep with 250
# nested blocks around each: deep but valid, translated without exhausting the 8 MiB stack
python3 - "$tmp" <<'EOF'
import sys
d = sys.argv[1]
s = ('.version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u64 t)\n{\n'
     '\t.reg .b64 %rd<100010>; .reg .f32 %f<8>;\n\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd2, [t];\n')
s += ''.join('\tmov.b64 %%rd%d, %%rd%d;\n' % (i + 1, i) for i in range(2, 100002))
s += '\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd100002, {%f5, %f6}];\n\tst.global.f32 [%rd1], %f1;\n\tret;\n}\n'
open(d + '/movchain.ptx', 'w').write(s)
s = '.version 8.7\n.target sm_90\n.address_size 64\n'
for i in range(33, 0, -1):
    inner = '\tadd.s32 %r1, %r1, 1;\n' if i == 33 else '\tcall.uni f%d, ();\n' % (i + 1)
    s += '.func f%d()\n{\n\t.reg .b32 %%r<2>;\n' % i + '{\n' * 250 + inner + '}\n' * 250 + '\tret;\n}\n'
s += '.visible .entry k()\n{\n' + '{\n' * 250 + '\tcall.uni f1, ();\n' + '}\n' * 250 + '\tret;\n}\n'
open(d + '/deepcalls.ptx', 'w').write(s)
EOF
run movchain 0 "$bin" translate "$tmp/movchain.ptx" -o "$tmp/o" --no-spirv && ok
run deepcalls 0 "$bin" translate "$tmp/deepcalls.ptx" -o "$tmp/o" && ok

# more registers than SPIR-V allows local variables: refused while lifting, at the declaration
printf '%s\t.reg .b32 %%q<600000>;\n%s' "$hdr" "$tail_" >"$tmp/regs.ptx"
run registers 1 "$bin" translate "$tmp/regs.ptx" -o "$tmp/o" && has registers "regs.ptx:8:12: error: 'k' declares more than 524287 registers" && ok

# a NUL byte: shown escaped, the caret under the next token, later errors still reported
printf '%s\tadd.s32 %%r1, %%r1, 1; \000 bogus;\n\t.reg .b33 %%x;\n%s' "$hdr" "$tail_" >"$tmp/nul.ptx"
run nul 1 "$bin" translate "$tmp/nul.ptx" -o "$tmp/o" && has nul 'nul.ptx:8:23: error: unexpected NUL byte in source' &&
  has nul $'\tadd.s32 %r1, %r1, 1; \\x00 bogus;' && has nul 'nul.ptx:9:' && ok

# bytes in a comment that GLSL cannot hold: a NUL (glslang stopped at it: "unexpected end of file"), a byte
# from 0x80 up, and a final backslash (a line continuation, which would turn the next line of GLSL into comment);
# the PTX line is echoed into the GLSL as a comment, so they must come out escaped and the SPIR-V step pass
printf '%s\tadd.s32 %%r1, %%r1, 1; // a \000\005 b \351\n\tadd.s32 %%r1, %%r1, 2; // ends in \\\n\tadd.s32 %%r1, %%r1, 3;\n%s' "$hdr" "$tail_" >"$tmp/cbytes.ptx"
run comment_bytes 0 "$bin" translate "$tmp/cbytes.ptx" -o "$tmp/o" &&
  if grep -qF '// a \x00\x05 b \xe9' "$tmp/o/k.comp" && grep -qF 'ends in \x5c' "$tmp/o/k.comp" &&
     grep -qF 'int(r1) + 3)' "$tmp/o/k.comp"; then ok; else fail comment_bytes "comment bytes not escaped in k.comp"; fi

# a store to a constant address (legal PTX): glslang refused the store through a reference built from a constant
printf '%s\tst.global.u32 [2], %%r1;\n%s' "$hdr" "$tail_" >"$tmp/constaddr.ptx"
run const_address 0 "$bin" translate "$tmp/constaddr.ptx" -o "$tmp/o" && ok

# ld.volatile/st.volatile become relaxed atomics (emit_mem.cpp, the comment above Emitter::load): a shared word,
# a shared byte (a compare-and-swap of its word), a global 64-bit vector and a generic 16-bit store
printf '%s\t.shared .align 8 .b8 sv[64];\n\tmov.u32 %%r2, sv;\n\tld.volatile.shared.u32 %%r1, [%%r2+4];\n\tst.volatile.shared.u8 [%%r2+1], %%r1;\n\tld.volatile.global.v2.u64 {%%rd2, %%rd3}, [%%rd1];\n\tst.volatile.u16 [%%rd1+8], %%r1;\n%s' "$hdr" "$tail_" >"$tmp/volatile.ptx"
run volatile 0 "$bin" translate "$tmp/volatile.ptx" -o "$tmp/o" &&
  if grep -qF 'atomicLoad(smem[a >> 2], gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed)' "$tmp/o/k.comp" &&
     grep -qF 'atomicCompSwap(smem[a >> 2], w, bitfieldInsert(w, v, int((a & 3u) * 8u), 8))' "$tmp/o/k.comp" &&
     grep -qF 'atomicLoad(P2GU64(a).v, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed)' "$tmp/o/k.comp" &&
     grep -qF 'p2g_vstg16(' "$tmp/o/k.comp" && [ "$(grep -c 'p2g_vldg64(' "$tmp/o/k.comp")" -eq 3 ]; then ok
  else fail volatile "k.comp lacks the relaxed atomics of ld/st.volatile"; fi

# a volatile load between exact f32 operations stays out of the guarded regions' replays (region_guard.cpp
# pureHelper): replayed, it would read memory a second time
printf '%s\t.reg .f32 %%f<10>;\n\tld.volatile.global.f32 %%f1, [%%rd1];\n\tmul.rn.f32 %%f2, %%f1, %%f1;\n\tadd.rn.f32 %%f9, %%f2, %%f2;\n\tld.volatile.global.f32 %%f3, [%%rd1+4];\n\tmul.rn.f32 %%f4, %%f9, %%f3;\n\tadd.rn.f32 %%f5, %%f4, %%f4;\n\tmul.rn.f32 %%f6, %%f5, %%f2;\n\tst.global.f32 [%%rd1+8], %%f6;\n\tst.global.f32 [%%rd1+12], %%f4;\n%s' "$hdr" "$tail_" >"$tmp/volatile_region.ptx"
run volatile_region 0 "$bin" translate "$tmp/volatile_region.ptx" -o "$tmp/o" &&
  if grep -q '^void p2g_exact_' "$tmp/o/k.comp" && ! sed -n '/^void p2g_exact_/,/^}/p' "$tmp/o/k.comp" | grep -q 'p2g_vld'; then ok
  else fail volatile_region "a guarded region's replay reads a volatile location again"; fi

# inputs that are not PTX files
mkdir -p "$tmp/adir"
run input_dir 1 "$bin" translate "$tmp/adir" -o "$tmp/o" && has input_dir "is not a regular file (a directory)" && ok
run input_zero 1 "$bin" translate /dev/zero -o "$tmp/o" && has input_zero "'/dev/zero' is not a regular file (a character device)" && ok
run input_missing 1 "$bin" translate "$tmp/nope.ptx" -o "$tmp/o" && has input_missing "cannot open '$tmp/nope.ptx'" && ok
truncate -s 257M "$tmp/big.ptx"
run input_big 1 "$bin" translate "$tmp/big.ptx" -o "$tmp/o" && has input_big "larger than the 256 MiB limit" && ok
rm -f "$tmp/big.ptx"

# every form tests/frontend/left_out.ptx holds is refused (the two ld.param that load its parameters aside)
"$bin" ops --histogram "$here/left_out.ptx" >"$tmp/out" 2>"$tmp/err"
if grep -q "^# 1 files (0 did not parse), [0-9]* instructions: 2 accepted," "$tmp/out" &&
   [ "$(sed -n '/^## accepted/,$p' "$tmp/out" | grep -c '^ ')" -eq 1 ] && grep -q "^ *2  ld.param.u64" "$tmp/out"; then ok
else cp "$tmp/out" "$tmp/err"; fail left_out "a left-out form is accepted"; fi

echo "frontend/check.sh: $passed passed, $fails failed"
[ $fails -eq 0 ]
