#!/usr/bin/env bash
# Command-line validation: every option value is checked (exit status 2 with a message naming it), `diff` exits 2
# on bad input and names it, and a failed `translate` leaves the output folder as it was.
#   cli.sh PTX2GLSL
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
ptx=$here/../../ptx_corpus/basic/bit_ops/kernel.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passed=0

fail() { echo "FAIL $1: $2"; sed -n 1,8p "$tmp/err" | cut -c1-200 | sed 's/^/    /'; fails=$((fails + 1)); }
# expect NAME WANT_RC TEXT CMD...: exit status WANT_RC, stderr (or stdout for status 0/1 of diff) contains TEXT
expect() {
  local name=$1 want=$2 text=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne "$want" ]; then fail "$name" "exit status $rc, expected $want"; return; fi
  if [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err" "$tmp/out"; then fail "$name" "output lacks: $text"; return; fi
  passed=$((passed + 1))
}

# ---- option values
expect disable_pass_translate 2 "unknown pass 'nope' for --disable-pass (passes: contract," \
  "$bin" translate "$ptx" -o "$tmp/o" --disable-pass nope
expect disable_pass_run 2 "unknown pass 'nope' for --disable-pass" "$bin" run "$here" --disable-pass nope
expect entry_empty 2 "--entry needs an entry name" "$bin" translate "$ptx" -o "$tmp/o" --entry ""
expect entry_unknown 1 "no .entry named 'nope'" "$bin" translate "$ptx" -o "$tmp/o" --entry nope
expect option_unknown 2 "unknown option '--frobnicate'" "$bin" translate "$ptx" -o "$tmp/o" --frobnicate
expect option_no_value 2 "-o needs a value" "$bin" translate "$ptx" -o
expect no_output 2 "no output folder given" "$bin" translate "$ptx"
expect run_repeat 2 "--repeat wants a whole number from 1 to 100000, not '3x'" "$bin" run "$here" --repeat 3x
expect run_repeat0 2 "not '0'" "$bin" run "$here" --repeat 0
expect run_timeout 2 "--timeout wants whole seconds" "$bin" run "$here" --timeout 1.5
expect run_fact 2 "unknown fact 'nope' for --fact (facts: f32-ieee," "$bin" run "$here" --fact nope
expect run_fact_no_value 2 "--fact needs a value" "$bin" run "$here" --fact
expect bench_repeat 2 "--repeat wants a whole number from 1 to 1000, not 'x'" "$bin" bench "$ptx" --repeat x
expect bench_bigmb 2 "--big-mb wants a whole number" "$bin" bench "$ptx" --big-mb -3
expect bench_input_dir 2 "is not a regular file (a directory)" "$bin" bench "$here"
expect block 2 "--block expects X,Y,Z" "$bin" pipeline-time x.spv --block 1,2
expect block_big 2 "--block expects X,Y,Z" "$bin" pipeline-time x.spv --block 1024,2,1
expect passes_extra 2 "unexpected argument 'x'" "$bin" passes x
expect devices_extra 2 "unexpected argument 'x'" "$bin" devices x
expect ops_unknown 2 "'frob' is not an opcode the translator lowers" "$bin" ops frob
expect ops_one 0 "" "$bin" ops cvt
grep -q "^cvt " "$tmp/out" && ! grep -qv "^cvt \|^   " "$tmp/out" || { fail ops_one "'ops cvt' prints other opcodes"; }
expect ops_histogram_none 2 "no PTX file given" "$bin" ops --histogram
expect command_unknown 2 "unknown command 'frob'" "$bin" frob

# ---- diff: 0 identical, 1 values differ, 2 bad input naming what is wrong
printf '\001\000\000\000\002\000\000\000' >"$tmp/a.bin"
printf '\001\000\000\000\003\000\000\000' >"$tmp/b.bin"
printf '\001\000\000\000' >"$tmp/short.bin"
printf '\001\000\000' >"$tmp/odd.bin"
cp "$tmp/odd.bin" "$tmp/odd2.bin"
mkdir -p "$tmp/d1" "$tmp/d2"
expect diff_identical 0 "" "$bin" diff "$tmp/a.bin" "$tmp/a.bin" --type u32
expect diff_differ 1 "" "$bin" diff "$tmp/a.bin" "$tmp/b.bin" --type u32
expect diff_dirs 2 "'$tmp/d1' is not a regular file (a directory)" "$bin" diff "$tmp/d1" "$tmp/d2" --type u32
expect diff_sizes 2 "sizes differ: '$tmp/a.bin' has 8 bytes, '$tmp/short.bin' 4" "$bin" diff "$tmp/a.bin" "$tmp/short.bin" --type u32
expect diff_multiple 2 "has 3 bytes, not a whole number of u32 elements (4 bytes each)" "$bin" diff "$tmp/odd.bin" "$tmp/odd2.bin" --type u32
expect diff_type 2 "unknown --type 'u33' (types: u8 u16 u32" "$bin" diff "$tmp/a.bin" "$tmp/a.bin" --type u33
expect diff_type_value 2 "--type needs a value" "$bin" diff "$tmp/a.bin" "$tmp/a.bin" --type
expect diff_missing 2 "cannot open '$tmp/nope.bin'" "$bin" diff "$tmp/a.bin" "$tmp/nope.bin" --type u32

# ---- output folders stay clean on failure
# a folder in the way of <entry>.comp: nothing written, no temporary left, what was there stays
mkdir -p "$tmp/out1/bit_ops.comp"
echo keep >"$tmp/out1/other.txt"
expect output_dir_in_way 1 "exists and is not a regular file; nothing written" "$bin" translate "$ptx" -o "$tmp/out1"
left=$(cd "$tmp/out1" && ls -A | tr '\n' ' ')
[ "$left" = "bit_ops.comp other.txt " ] || fail output_dir_in_way "folder holds: $left"
# the output folder is a file
echo x >"$tmp/out2"
expect output_is_file 1 "output folder '$tmp/out2' exists and is not a folder" "$bin" translate "$ptx" -o "$tmp/out2"
# an input that does not translate: the folder is not even created
expect output_not_created 1 "nothing written" "$bin" translate "$here/cases/02_unknown_modifier.ptx" -o "$tmp/out3"
[ ! -e "$tmp/out3" ] || fail output_not_created "'$tmp/out3' was created"
# and a good run writes every file, with no temporary left
expect output_ok 0 "" "$bin" translate "$ptx" -o "$tmp/out4" --spirv-asm
[ "$(cd "$tmp/out4" && ls -A | sort | tr '\n' ' ')" = "bit_ops.comp bit_ops.json bit_ops.spv bit_ops.spvasm " ] ||
  fail output_ok "folder holds: $(ls -A "$tmp/out4" | tr '\n' ' ')"

# ---- translate --names FILE (docs/READABLE_GLSL.md): a good file names the loads; a bad one is an error naming
# the file, exit 1, and the output folder is not created
sp=$here/../../ptx_corpus/basic/scalar_params/kernel.ptx  # f32 at 0, u64 at 8..39, u32 at 40, u8 44, u16 46, f64 48
names() { printf '%s' "$1" >"$tmp/names.json"; }
names '{"0": {"name": "scale", "type": "f32"}, "40": {"name": "count", "type": "u32"}}'
expect names_ok 0 "" "$bin" translate "$sp" -o "$tmp/n0" --names "$tmp/names.json"
grep -q "^  const float scale = uintBitsToFloat(P2GU32((pc.params)).v);" "$tmp/n0/scalar_params.comp" ||
  fail names_ok "no 'const float scale' read from offset 0"
grep -q "= scale;" "$tmp/n0/scalar_params.comp" || fail names_ok "the load of offset 0 does not read 'scale'"
grep -q "const uint count = P2GU32((pc.params + 40ul)).v;" "$tmp/n0/scalar_params.comp" || fail names_ok "no 'count'"
grep -q "const double p48_f64 = " "$tmp/n0/scalar_params.comp" || fail names_ok "offset 48 lost its default name"
! grep -q "pc.params" <(grep -v "^  const " "$tmp/n0/scalar_params.comp") || fail names_ok "a raw parameter read is left"
# expect_names NAME TEXT FILE-CONTENT: exit 1, the message names the file and says TEXT, nothing written
expect_names() {
  names "$3"
  expect "$1" 1 "$2" "$bin" translate "$sp" -o "$tmp/nbad" --names "$tmp/names.json"
  grep -qF "names file '$tmp/names.json'" "$tmp/err" || fail "$1" "the message does not name the file"
  [ ! -e "$tmp/nbad" ] || { fail "$1" "'$tmp/nbad' was created"; rm -rf "$tmp/nbad"; }
}
expect_names names_not_json "not JSON" '{"0": '
expect_names names_not_object "expected an object" '[1, 2]'
expect_names names_bad_offset "'x8' is not a parameter offset" '{"x8": {"name": "a", "type": "u64"}}'
expect_names names_unknown_offset "offset 64 is not in the parameter block of 'scalar_params' (64 bytes)" \
  '{"64": {"name": "a", "type": "u32"}}'
expect_names names_type "offset 0 is read as .f32 by 'scalar_params', not as .u32" '{"0": {"name": "a", "type": "u32"}}'
expect_names names_not_type "\"f33\" is not a PTX type" '{"0": {"name": "a", "type": "f33"}}'
expect_names names_no_name "\"name\" (a string) is missing" '{"0": {"type": "f32"}}'
expect_names names_extra "unknown member \"nmae\"" '{"0": {"name": "a", "type": "f32", "nmae": "b"}}'
expect_names names_not_ident "\"2x\" is not a GLSL identifier" '{"0": {"name": "2x", "type": "f32"}}'
expect_names names_keyword "\"uniform\" is a GLSL keyword" '{"0": {"name": "uniform", "type": "f32"}}'
expect_names names_builtin "\"sqrt\" is a GLSL keyword, built-in" '{"0": {"name": "sqrt", "type": "f32"}}'
expect_names names_reserved "\"gl_scale\" is a GLSL keyword, built-in or reserved" '{"0": {"name": "gl_scale", "type": "f32"}}'
expect_names names_temp "\"t3\" is a GLSL keyword, built-in or reserved" '{"0": {"name": "t3", "type": "f32"}}'
expect_names names_twice "\"a\" already names offset 0" \
  '{"0": {"name": "a", "type": "f32"}, "40": {"name": "a", "type": "u32"}}'
expect_names names_register "the name 'f4' (offset 0) is already a register or variable of 'scalar_params'" \
  '{"0": {"name": "f4", "type": "f32"}}'
# loads of different types over the same bytes keep the raw read; one through an address register is named
cat >"$tmp/overlap.ptx" <<'PTX'
.version 8.7
.target sm_90
.address_size 64
.visible .entry overlap(.param .align 8 .b8 s[16], .param .u64 out)
{
	.reg .b32 %r<4>; .reg .b64 %rd<6>;
	ld.param.u32 %r1, [s];
	ld.param.u64 %rd1, [s];
	mov.b64 %rd4, s;
	add.s64 %rd5, %rd4, 8;
	ld.param.u32 %r2, [%rd5+4];
	ld.param.u64 %rd2, [out];
	cvta.to.global.u64 %rd3, %rd2;
	st.global.u32 [%rd3], %r1;
	st.global.u64 [%rd3+8], %rd1;
	st.global.u32 [%rd3+16], %r2;
	ret;
}
PTX
expect names_overlap 0 "" "$bin" translate "$tmp/overlap.ptx" -o "$tmp/ov"
c=$tmp/ov/overlap.comp
grep -q "P2GU32((pc.params)).v" "$c" && grep -q "P2GU64((pc.params)).v" "$c" && ! grep -q "p0_u32\|p0_u64" "$c" ||
  fail names_overlap "overlapping loads of offset 0 were named"
grep -q "const uint p12_u32 = P2GU32((pc.params + 12ul)).v;" "$c" && grep -q "const uint64_t p16_u64 = " "$c" ||
  fail names_overlap "offsets 12 (through %rd5) and 16 are not named"
expect names_missing 1 "names file '$tmp/nope.json': cannot be read" "$bin" translate "$sp" -o "$tmp/nbad" --names "$tmp/nope.json"
expect names_no_value 2 "--names needs a value" "$bin" translate "$sp" -o "$tmp/nbad" --names
grep -q -- "--names FILE" <("$bin" translate --help) || fail names_help "translate --help does not describe --names"

echo "frontend/cli.sh: $passed passed, $fails failed"
[ $fails -eq 0 ]
