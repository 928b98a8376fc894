// Guarded regions (translator/emit/region_guard.h) on hand-written main() bodies.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "region_guard.h"

using p2g::guardRegions;

namespace {

std::string typeOf(const std::string& n) {
  if (n == "pc" || n == "smem") return "-";
  if (n[0] == 'f') return "precise float";
  if (n[0] == 'r') return "uint";
  return "";
}

// `what` stands in `s`, after position `from`
bool after(const std::string& s, const std::string& what, size_t from) {
  size_t at = s.find(what);
  return at != std::string::npos && at > from;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a run of pure statements with guarded calls becomes the short forms and one replay") {
  std::string body =
      "  // ptx:10  mul.f32 %f3, %f1, %f2;\n"
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  r1 = r0 + 1u;\n"
      "  f4 = p2g_ffma(f3, 0.5, f1, 0, false);\n"
      "  P2GU32(r1).v = floatBitsToUint(f4);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  // f1 and f2 come from outside: tested at their first use (then multiples of 2^-63); f3, their product, is a
  // multiple of 2^-126 and untested, until it is a factor again (times 0.5: 2^-127, so it is tested there)
  CHECK(body.find("f3 = p2g_fmulc(p2g_in(f1), p2g_in(f2));") != std::string::npos);
  CHECK(body.find("f4 = p2g_ffmac(p2g_in(f3), 0.5, f1);") != std::string::npos);
  CHECK(body.find("if (p2g_redo()) p2g_check_1(") != std::string::npos);
  // the store stays after the replay, once
  CHECK(count(body, "P2GU32(r1).v") == 1);
  CHECK(body.find("p2g_check_1") < body.find("P2GU32(r1).v"));
  // the check, after the replay it calls: the device's pass again with the precise forms (zeros that are exact let
  // through, entering values tested for subnormal), then the replay if a result is still tiny
  size_t replay = fns.find("void p2g_exact_1("), check = fns.find("void p2g_check_1(");
  REQUIRE(replay != std::string::npos);
  REQUIRE(check != std::string::npos);
  CHECK(replay < check);
  CHECK(after(fns, "f3 = p2g_fmulz(p2g_inz(f1), p2g_inz(f2));", check));
  CHECK(after(fns, "f4 = p2g_ffmaz(p2g_inz(f3), 0.5, f1);", check));
  // the device pass only where the device fact holds (elsewhere it folds away and the check goes straight to the
  // replay); a result still tiny falls through to the replay, which the check calls from one place only
  CHECK(after(fns, "  if (P2G_F32_FAST) {\n", check));
  CHECK(after(fns, "    if (!p2g_redoz()) return;\n  }\n  p2g_exact_1(", check));
  CHECK(count(fns.substr(check), "p2g_exact_1(") == 1);
  // the replay: exact long forms, the values read from outside as inputs, results as outputs
  CHECK(fns.find("f3 = p2g_fmul(f1, f2, false);") != std::string::npos);
  CHECK(fns.find("f4 = p2g_ffma(f3, 0.5, f1, 0, false);") != std::string::npos);
  CHECK(fns.find("out precise float f4") != std::string::npos);
  CHECK(fns.find("float f1") != std::string::npos);
  CHECK(fns.find("out float f1") == std::string::npos);
  CHECK(fns.substr(replay, check - replay).find("p2g_in") == std::string::npos);
}

TEST_CASE("a value is tested at its first use after it enters or a statement of the region sets it, not again") {
  // f5 is set in the region by a statement that is no guarded call (so not known plain): tested at its first use
  // only; set anew, tested again. f1 enters, is tested once, then is overwritten the same way.
  std::string body =
      "  f4 = p2g_fmul(f1, f1, false);\n"
      "  f5 = uintBitsToFloat(r1);\n"
      "  f6 = p2g_fmul(f5, f5, false);\n"
      "  f7 = p2g_fmul(f5, f6, false);\n"
      "  f5 = uintBitsToFloat(r2);\n"
      "  f1 = uintBitsToFloat(r3);\n"
      "  f8 = p2g_fmul(f5, f1, false);\n"
      "  f9 = p2g_fmul(f5, f1, false);\n"
      "  f10 = p2g_fmul(f6, f9, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f4 = p2g_fmulc(p2g_in(f1), f1);") != std::string::npos);
  CHECK(body.find("f6 = p2g_fmulc(p2g_in(f5), f5);") != std::string::npos);
  // f6 (a multiple of 2^-126) times f5 (of 2^-63): f6 is tested as a factor
  CHECK(body.find("f7 = p2g_fmulc(f5, p2g_in(f6));") != std::string::npos);
  CHECK(body.find("f8 = p2g_fmulc(p2g_in(f5), p2g_in(f1));") != std::string::npos);
  CHECK(body.find("f9 = p2g_fmulc(f5, f1);") != std::string::npos);
  // f6, tested as a factor above, is a multiple of 2^-63 from then on; f9 (2^-126) is tested instead
  CHECK(body.find("f10 = p2g_fmulc(f6, p2g_in(f9));") != std::string::npos);
  // the check's pass tests the same operands (p2g_inz)
  CHECK(fns.find("f8 = p2g_fmulz(p2g_inz(f5), p2g_inz(f1));") != std::string::npos);
  CHECK(fns.find("f9 = p2g_fmulz(f5, f1);") != std::string::npos);
}

TEST_CASE("f16 widenings, and selects, .sat and canonical NaN of plain values, need no test") {
  // an f16 value widened is 0, infinite, NaN made canonical, or at least 2^-24 in magnitude on the grid of 2^-24
  std::string body =
      "  f3 = p2g_fmul(f1, p2g_f32_canon(floatBitsToUint(p2g_h2f(r1 & 0xFFFFu))), false);\n"
      "  f4 = p2g_fmul(f3, (r2 == 0u ? -23.0 : 0.0), false);\n"
      "  f5 = p2g_fadd(p2g_sat(p2g_f32_canon(floatBitsToUint(r3 != 0u ? f3 : f4))), f1, false);\n"
      "  f6 = p2g_fmul(f3, (r2 == 0u ? f2 : 0.5), false);\n"
      "  f7 = p2g_fmul(p2g_f32_canon(floatBitsToUint(p2g_h2f(r1 >> 16))), p2g_f32_canon(floatBitsToUint(p2g_h2f(r1))), "
      "false);\n"
      "  f8 = p2g_fmul(p2g_sat(f2), f1, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  // a tested value (a multiple of 2^-63) times an f16 value: a multiple of 2^-87
  CHECK(body.find("f3 = p2g_fmulc(p2g_in(f1), p2g_f32_canon(floatBitsToUint(p2g_h2f(r1 & 0xFFFFu))));") !=
        std::string::npos);
  // f3 times an integer: on f3's grid
  CHECK(body.find("f4 = p2g_fmulc(f3, (r2 == 0u ? -23.0 : 0.0));") != std::string::npos);
  CHECK(body.find("f5 = p2g_faddc(p2g_sat(p2g_f32_canon(floatBitsToUint(r3 != 0u ? f3 : f4))), f1);") !=
        std::string::npos);
  // an arm that entered untested: the select is tested (then 2^-63), and f3 (2^-87) with it: 2^-150 > 2^-126
  CHECK(body.find("f6 = p2g_fmulc(p2g_in(f3), p2g_in((r2 == 0u ? f2 : 0.5)));") != std::string::npos);
  // two f16 values: their product is a multiple of 2^-48, the untested form
  CHECK(body.find("f7 = p2g_fmulc(p2g_f32_canon(floatBitsToUint(p2g_h2f(r1 >> 16))), "
                  "p2g_f32_canon(floatBitsToUint(p2g_h2f(r1))));") != std::string::npos);
  // .sat of a value not known plain keeps a subnormal: tested
  CHECK(body.find("f8 = p2g_fmulc(p2g_in(p2g_sat(f2)), f1);") != std::string::npos);
}

TEST_CASE("setp.f32 in a region: the device's compares on tested operands; the replay keeps the bits") {
  std::string body =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  r5 = uint(p2g_fcmp(floatBitsToUint(f3), floatBitsToUint(f4)));\n"
      "  r6 = uint(p2g_fcmp(floatBitsToUint(f4), floatBitsToUint(uintBitsToFloat(r1))));\n"
      "  r7 = uint(p2g_fcmp(floatBitsToUint(p2g_canon(uintBitsToFloat(floatBitsToUint(f1) ^ 0x80000000u))), "
      "floatBitsToUint(0.0)));\n"
      "  f8 = p2g_fadd(f3, 1.0, false);\n"
      "  r8 = uint(p2g_fcmp(floatBitsToUint(f8), 0x00800000u));\n"
      "  r9 = uint(p2g_fcmp(floatBitsToUint(f8), 0x00000001u));\n"
      "  r10 = uint(p2g_fcmpd(p2g_h2f(r2 & 0xFFFFu), p2g_h2f(r2 >> 16u)));\n"
      "  f9 = p2g_fmul(f8, f8, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("r5 = uint(p2g_fcmpd(f3, p2g_in(f4)));") != std::string::npos);
  // a literal's bits: a normal one (2^-126 too: a compare feeds no grid) needs no test, a subnormal one is tested
  CHECK(body.find("r8 = uint(p2g_fcmpd(f8, uintBitsToFloat(0x00800000u)));") != std::string::npos);
  CHECK(body.find("r9 = uint(p2g_fcmpd(f8, p2g_in(uintBitsToFloat(0x00000001u))));") != std::string::npos);
  CHECK(body.find("r6 = uint(p2g_fcmpd(f4, p2g_in(uintBitsToFloat(r1))));") != std::string::npos);
  // setp.f16 as emitCompare writes it (the device's compares of the widened operands, never subnormal): left as
  // it is, no test, and it does not end the region
  CHECK(body.find("r10 = uint(p2g_fcmpd(p2g_h2f(r2 & 0xFFFFu), p2g_h2f(r2 >> 16u)));") != std::string::npos);
  // a negated operand: p2g_fcmp on the bits as before
  CHECK(body.find("r7 = uint(p2g_fcmp(floatBitsToUint(p2g_canon(uintBitsToFloat(floatBitsToUint(f1) ^ "
                  "0x80000000u))), floatBitsToUint(0.0)));") != std::string::npos);
  size_t check = fns.find("void p2g_check_1(");
  REQUIRE(check != std::string::npos);
  CHECK(after(fns, "r5 = uint(p2g_fcmpd(f3, p2g_inz(f4)));", check));
  // the replay compares the bits
  CHECK(fns.find("r5 = uint(p2g_fcmp(floatBitsToUint(f3), floatBitsToUint(f4)));") < check);
}

TEST_CASE("a value the region reads and then overwrites is saved and restored for the replay") {
  std::string body =
      "  f1 = p2g_fadd(f1, f2, false);\n"
      "  f2 = p2g_fmul(f1, f1, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("precise float p2g_was_f1 = f1, p2g_was_f2 = f2;") != std::string::npos);
  CHECK(body.find("if (p2g_redo()) { f1 = p2g_was_f1; f2 = p2g_was_f2; if (p2g_check_1(f1, f2)) { f1 = p2g_was_f1; "
                  "f2 = p2g_was_f2; p2g_exact_1(f1, f2); } }") != std::string::npos);
  CHECK(fns.find("inout precise float f1, inout precise float f2") != std::string::npos);
  // with values to restore the check returns its verdict instead of calling the replay
  CHECK(fns.find("bool p2g_check_1(") > fns.find("void p2g_exact_1("));
  CHECK(fns.find("  return p2g_redoz();") != std::string::npos);
  CHECK(fns.find("  if (!P2G_F32_FAST) return true;") != std::string::npos);
}

TEST_CASE("no region without a guarded call, across side effects, or with .ftz and directed rounding") {
  std::string fns;
  std::string ints = "  r1 = r0 + 1u;\n  r2 = r1 * 3u;\n";
  std::string before = ints;
  CHECK(guardRegions(ints, fns, typeOf) == 0);
  CHECK(ints == before);
  std::string ftz = "  f3 = p2g_fmul(f1, f2, true);\n  f4 = p2g_ffma(f1, f2, f3, 1, false);\n";
  before = ftz;
  CHECK(guardRegions(ftz, fns, typeOf) == 0);
  CHECK(ftz == before);
  // an atomic, a barrier or a store splits runs; the statement itself stays as it was
  std::string split =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  r1 = atomicAdd(smem[0], 1u);\n"
      "  f4 = p2g_fmul(f3, f3, false);\n";
  CHECK(guardRegions(split, fns, typeOf) == 2);
  CHECK(split.find("  r1 = atomicAdd(smem[0], 1u);\n") != std::string::npos);
  CHECK(count(split, "p2g_redo()") == 2);
  CHECK(split.find("p2g_redo") < split.find("atomicAdd"));
}

TEST_CASE("literals that are normal or zero need no test; min/max and negation of tested values stay tested") {
  std::string body =
      "  f3 = p2g_fmul(f1, 0.5, false);\n"
      "  f4 = p2g_fadd(p2g_fmin(f3, 4.0), uintBitsToFloat(0x00000001u), false);\n"
      "  f5 = p2g_fmul(p2g_canon(uintBitsToFloat(floatBitsToUint(f4) ^ 0x80000000u)), f3, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("p2g_fmulc(p2g_in(f1), 0.5)") != std::string::npos);
  // a subnormal literal is tested like a value from outside
  // (min/max take the device's form, p2g_nmin, in the device's pass)
  CHECK(body.find("p2g_faddc(p2g_nmin(f3, 4.0), p2g_in(uintBitsToFloat(0x00000001u)))") != std::string::npos);
  // a negation that is an operand of a guarded call is a plain one in the device's pass; f4 and f3 are multiples
  // of 2^-64 (halved), so both are tested as factors (inside the minus)
  CHECK(body.find("f5 = p2g_fmulc(-(p2g_in(f4)), p2g_in(f3));") != std::string::npos);
  // the replay keeps the exact forms
  CHECK(fns.find("p2g_fmin(f3, 4.0)") != std::string::npos);
  CHECK(fns.find("p2g_fmul(p2g_canon(uintBitsToFloat(floatBitsToUint(f4) ^ 0x80000000u)), f3, false)") !=
        std::string::npos);
}

TEST_CASE("min/max form regions of their own: the device's min/max, entering operands tested") {
  std::string body = "  f3 = p2g_fmax(f1, f2);\n  r1 = floatBitsToUint(f3);\n  f4 = p2g_fmul(f3, 0.5, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f3 = p2g_nmax(p2g_in(f1), p2g_in(f2));") != std::string::npos);
  // the operands of min/max are tested, so its result is not tested again
  CHECK(body.find("f4 = p2g_fmulc(f3, 0.5);") != std::string::npos);
  CHECK(fns.find("f3 = p2g_fmax(f1, f2);") != std::string::npos);
  // beside an infinite literal an operand is tested for NaN too (min(x, +inf) could be folded to x)
  std::string inf = "  f3 = p2g_fmin(f1, uintBitsToFloat(0x7F800000u));\n";
  CHECK(guardRegions(inf, fns, typeOf) == 1);
  CHECK(inf.find("p2g_nmin(p2g_in_nan(f1), uintBitsToFloat(0x7F800000u))") != std::string::npos);
}

TEST_CASE("a negation read only by the region's guarded calls is plain; one read elsewhere stays canonical") {
  std::string body =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f9 = p2g_canon(uintBitsToFloat(floatBitsToUint(f3) ^ 0x80000000u));\n"
      "  f4 = p2g_ffma(f9, 0.5, f1, 0, false);\n"
      "  f5 = p2g_fadd(f4, f9, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f9 = -f3;") != std::string::npos);
  CHECK(fns.find("f9 = p2g_canon(") != std::string::npos);
  // f9 read by a statement after the region: its NaN would leave the region, so it keeps p2g_canon
  std::string out =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f9 = p2g_canon(uintBitsToFloat(floatBitsToUint(f3) ^ 0x80000000u));\n"
      "  f4 = p2g_ffma(f9, 0.5, f1, 0, false);\n"
      "  P2GU32(r1).v = floatBitsToUint(f9);\n";
  CHECK(guardRegions(out, fns, typeOf) == 1);
  CHECK(out.find("f9 = p2g_canon(") != std::string::npos);
  // f9 read inside the region by something other than a guarded call's operand: canonical too
  std::string other =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f9 = p2g_canon(uintBitsToFloat(floatBitsToUint(f3) ^ 0x80000000u));\n"
      "  f4 = p2g_fadd(f9, f1, false);\n"
      "  r2 = floatBitsToUint(f9) + floatBitsToUint(f4);\n";
  CHECK(guardRegions(other, fns, typeOf) == 1);
  CHECK(other.find("f9 = p2g_canon(") != std::string::npos);
}

TEST_CASE("a negated entering value is tested inside the minus (a flushing device may flush in -x)") {
  // NVIDIA's driver flushed a subnormal x in `-x`, so `p2g_in(-x)` saw a zero: basic/neg_operand, 2,796 values
  std::string body =
      "  f5 = p2g_fmul(p2g_canon(uintBitsToFloat(floatBitsToUint(f1) ^ 0x80000000u)), f2, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f5 = p2g_fmulc(-(p2g_in(f1)), p2g_in(f2));") != std::string::npos);
  CHECK(body.find("p2g_in(-") == std::string::npos);
  CHECK(fns.find("p2g_fmulz(-(p2g_inz(f1)), p2g_inz(f2))") != std::string::npos);  // the check's pass too
  // a negation's variable inside the region set from an entering value: the value tested before the minus
  std::string var =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f9 = p2g_canon(uintBitsToFloat(floatBitsToUint(f6) ^ 0x80000000u));\n"
      "  f4 = p2g_ffma(f9, 0.5, f3, 0, false);\n";
  CHECK(guardRegions(var, fns, typeOf) == 1);
  CHECK(var.find("f9 = -(p2g_in(f6));") != std::string::npos);
  // of a guarded result (tested as a result): the plain negation
  std::string res =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f9 = p2g_canon(uintBitsToFloat(floatBitsToUint(f3) ^ 0x80000000u));\n"
      "  f4 = p2g_ffma(f9, 0.5, f1, 0, false);\n";
  CHECK(guardRegions(res, fns, typeOf) == 1);
  CHECK(res.find("f9 = -f3;") != std::string::npos);
}

TEST_CASE("a variable named only inside the region is the replay's own; an unknown type ends the run") {
  std::string body =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f4 = p2g_fadd(f3, f1, false);\n"
      "  r1 = floatBitsToUint(f4);\n"
      "  r2 = r1;\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(fns.find("precise float f3 = p2g_fmul(f1, f2, false);") != std::string::npos);  // a local, declared
  CHECK(fns.find("out precise float f4") != std::string::npos);  // read after the region
  std::string unknown = "  f3 = p2g_fmul(q1, f2, false);\n";
  std::string before = unknown;
  CHECK(guardRegions(unknown, fns, typeOf) == 0);
  CHECK(unknown == before);
  // A statement naming such a variable ends the run: the statements before and after it still form regions (a
  // whole run left to one guard per operation for one such name cost K exact half its time, docs/GPU_BENCH.md
  // 2026-12-07 "Texture reads inside guarded regions").
  std::string split =
      "  f3 = p2g_fmul(f1, f2, false);\n"
      "  f4 = p2g_fadd(f3, f1, false);\n"
      "  f5 = p2g_fmul(q1, f4, false);\n"
      "  f6 = p2g_fmul(f5, f2, false);\n"
      "  f7 = p2g_fadd(f6, f1, false);\n";
  std::string fns2;
  CHECK(guardRegions(split, fns2, typeOf) == 2);
  CHECK(split.find("  f5 = p2g_fmul(q1, f4, false);\n") != std::string::npos);  // as it was
  CHECK(count(split, "if (p2g_redo())") == 2);
  CHECK(fns2.find("q1") == std::string::npos);
}

TEST_CASE("an entering operand is tested for NaN too where a literal could make the operation a copy") {
  // x + 0.0, x * 1.0 and fma(x, 1.0, -0.0) may compile to x, keeping a NaN's payload: p2g_in_nan; x + 1.0 and
  // fma(x, 1.0, 2.0) round through the device's unit, whose NaN is PTX's 0x7FFFFFFF: p2g_in (subnormals only);
  // every result here is a multiple of 2^-63 by its operands: the untested short forms
  std::string body =
      "  f3 = p2g_fadd(f1, 0.0, false);\n"
      "  f4 = p2g_fmul(uintBitsToFloat(0x3F800000u), f2, false);\n"
      "  f5 = p2g_ffma(f6, 1.0, -0.0, 0, false);\n"
      "  f7 = p2g_fadd(f8, 1.0, false);\n"
      "  f9 = p2g_ffma(f10, 1.0, 2.0, 0, false);\n"
      "  f11 = p2g_fmul(f3, 1.0, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f3 = p2g_faddc(p2g_in_nan(f1), 0.0);") != std::string::npos);
  CHECK(body.find("f4 = p2g_fmulc(uintBitsToFloat(0x3F800000u), p2g_in_nan(f2));") != std::string::npos);
  CHECK(body.find("f5 = p2g_ffmac(p2g_in_nan(f6), 1.0, -0.0);") != std::string::npos);
  CHECK(body.find("f7 = p2g_faddc(p2g_in(f8), 1.0);") != std::string::npos);
  CHECK(body.find("f9 = p2g_ffmac(p2g_in(f10), 1.0, 2.0);") != std::string::npos);
  // f3 is the region's own result: a NaN in it came from the device, 0x7FFFFFFF already
  CHECK(body.find("f11 = p2g_fmulc(f3, 1.0);") != std::string::npos);
  // the check repeats the device's pass, its tests included; the replay has none
  CHECK(fns.find("f3 = p2g_faddz(p2g_in_nanz(f1), 0.0);") != std::string::npos);
  CHECK(fns.find("p2g_in") > fns.find("void p2g_check_1("));
}

TEST_CASE("a literal below 2^-40 in magnitude is tested where it is used, 2^-40 and above are not") {
  // the first pass lets zeros through because every nonzero operand is at least 2^-40 (f32_prelude.cpp
  // p2g_region): a smaller literal is tested like a value from outside
  std::string body =
      "  f3 = p2g_fmul(p2g_fmul(f1, uintBitsToFloat(0x2B7FFFFFu), false), uintBitsToFloat(0x2B800000u), false);\n"
      "  f4 = p2g_fadd(f3, uintBitsToFloat(0x7F800000u), false);\n"
      "  f5 = p2g_fadd(f4, uintBitsToFloat(0x00000001u), false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  // the inner product is a multiple of 2^-126; times 2^-40 it is tested as a factor, the literal is not
  CHECK(body.find("p2g_fmulc(p2g_in(p2g_fmulc(p2g_in(f1), p2g_in(uintBitsToFloat(0x2B7FFFFFu)))), "
                  "uintBitsToFloat(0x2B800000u))") != std::string::npos);
  CHECK(body.find("uintBitsToFloat(0x2B800000u))") != std::string::npos);
  CHECK(body.find("p2g_in(uintBitsToFloat(0x2B800000u))") == std::string::npos);
  // (sums of values of the run: multiples of 2^-63, untested)
  CHECK(body.find("f4 = p2g_faddc(f3, uintBitsToFloat(0x7F800000u));") != std::string::npos);
  CHECK(body.find("f5 = p2g_faddc(f4, p2g_in(uintBitsToFloat(0x00000001u)));") != std::string::npos);
  // in the check the same values are tested for subnormal only (p2g_inz)
  CHECK(fns.find("p2g_inz(uintBitsToFloat(0x2B7FFFFFu))") != std::string::npos);
}

TEST_CASE("every result takes the untested short form; a factor finer than 2^-63 is tested where the product needs it") {
  // a tested value is a multiple of 2^-63 (0 or >= 2^-40); a sum is a multiple of its operands' finer step, a
  // product of the product of their steps; every exact result is kept a multiple of 2^-126 (never subnormal) by
  // testing the factors whose grids add up to more
  std::string body =
      "  f3 = p2g_fadd(f1, f2, false);\n"
      "  f4 = p2g_fmul(f3, 0.5, false);\n"
      "  f5 = p2g_fmul(f3, 2.0, false);\n"
      "  f6 = p2g_fmul(f4, f5, false);\n"
      "  f7 = p2g_ffma(0.5, 0.25, f5, 0, false);\n"
      "  f8 = p2g_fsub(f7, p2g_fmul(0.5, 0.25, false), false);\n"
      "  f9 = p2g_fmul(f8, 0.5, false);\n";
  std::string fns;
  CHECK(guardRegions(body, fns, typeOf) == 1);
  CHECK(body.find("f3 = p2g_faddc(p2g_in(f1), p2g_in(f2));") != std::string::npos);
  // 0.5 = 2^-1: f3 * 0.5 is a multiple of 2^-64
  CHECK(body.find("f4 = p2g_fmulc(f3, 0.5);") != std::string::npos);
  CHECK(body.find("f5 = p2g_fmulc(f3, 2.0);") != std::string::npos);
  // 2^-64 times 2^-63 would be 2^-127: f4 is tested
  CHECK(body.find("f6 = p2g_fmulc(p2g_in(f4), f5);") != std::string::npos);
  // 0.5 * 0.25 is a multiple of 2^-3, f5 of 2^-63
  CHECK(body.find("f7 = p2g_ffmac(0.5, 0.25, f5);") != std::string::npos);
  // literals alone: 2^-3; the difference with f7 a multiple of 2^-63; halved, 2^-64
  CHECK(body.find("f8 = p2g_fsubc(f7, p2g_fmulc(0.5, 0.25));") != std::string::npos);
  CHECK(body.find("f9 = p2g_fmulc(f8, 0.5);") != std::string::npos);
  // no tested form is left in a region
  for (const char* t : {"p2g_fadd(", "p2g_fsub(", "p2g_fmul(", "p2g_ffma("}) CHECK(body.find(t) == std::string::npos);
  // the check tests every result (the zero-aware forms), the replay computes them all exactly
  size_t check = fns.find("void p2g_check_1(");
  REQUIRE(check != std::string::npos);
  CHECK(after(fns, "f3 = p2g_faddz(p2g_inz(f1), p2g_inz(f2));", check));
  CHECK(after(fns, "f5 = p2g_fmulz(f3, 2.0);", check));
  CHECK(after(fns, "f8 = p2g_fsubz(f7, p2g_fmulz(0.5, 0.25));", check));
  for (const char* c : {"p2g_faddc(", "p2g_fsubc(", "p2g_fmulc(", "p2g_ffmac("}) CHECK(fns.find(c) == std::string::npos);
  CHECK(fns.find("f3 = p2g_fadd(f1, f2, false);") != std::string::npos);
}
