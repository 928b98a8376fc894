// Exact f32 add/sub/mul/fma without doubles (HAZARDS.md #3, #5, #6; issue "Exact and fast", item 7).
//
// One integer routine, p2g_sf32, computes a * b + c rounded once in any PTX rounding mode, with or without .ftz,
// subnormals kept, NaN results NVIDIA's canonical 0x7FFFFFFF. add is a * 1 + c, mul is a * b + (a zero of the product's sign). It uses
// 32- and 64-bit integer arithmetic only, so it is exact on every device whatever its float controls.
//
// add/sub/mul in round to nearest take a guarded fast path: the device's own f32 operation (NoContraction) is the
// correctly rounded IEEE result whenever no operand is subnormal and the result is normal (Vulkan requires add, sub
// and mul to be correctly rounded, round to nearest even; a device that flushes subnormals flushes only subnormal
// operands and results). Only the rare rest (a subnormal operand, a result at or below 2^-126 that is not an exact
// zero) runs p2g_sf32. GLSL's fma() is not fused on lavapipe (HAZARDS.md #3): fma.rn runs an exact emulation from f32
// operations behind a guard (p2g_ffma), p2g_sf32 for the rest.
//
// Rounding after an exact or sticky sum: the larger addend is left-justified at bit 61 of a 64-bit integer, the
// smaller one shifted to its scale with the bits shifted out ORed into bit 0 (sticky). With 38 bits below the
// 24-bit rounding position, a sticky bit never decides a tie wrongly, in addition and subtraction alike (the sticky
// is only used when the shift exceeds the width of the smaller significand, and then no cancellation can move the
// top bit down by more than one place). Evidence: ptx_corpus/ops/f32_{add,sub,mul,fma,ftz_boundary} (every
// rounding mode, .ftz, .sat, subnormals, NaN, infinities; expected/ from the H200) and tests/ops/host_ref.
#include "emitter.h"

namespace p2g {

std::vector<PreludeHelper> f32Helpers() {
  std::vector<PreludeHelper> h;
  h.push_back({"p2g_rnd32", {}, {}, R"(int p2g_len64(uint64_t x) { uint hi = uint(x >> 32); return hi != 0u ? 33 + findMSB(hi) : findMSB(uint(x)) + 1; }
// (-1)^s * r * 2^x (0 < r < 2^63; r may carry a sticky bit well below the 24th significant bit) rounded to f32
// bits in `mode` (0 rn, 1 rz, 2 rm, 3 rp, 4 round to odd, 5 nearest with ties away from zero), with `ftz` flushing
// results that are tiny after rounding; overflow per mode.
uint p2g_rnd32(uint s, uint64_t r, int x1, int mode, bool ftz) {
  int top = x1 + p2g_len64(r) - 1;  // exponent of the leading bit
  int lsb = top - 23;
  if (!ftz) lsb = max(lsb, -149);
  int sh = lsb - x1;
  uint64_t q;
  if (sh <= 0) q = r << uint(-sh);
  else {
    uint64_t rem, hlf;
    if (sh >= 64) { q = 0ul; rem = r; hlf = 0x8000000000000000ul; }
    else { q = r >> uint(sh); rem = r - (q << uint(sh)); hlf = 1ul << uint(sh - 1); }
    bool up = mode == 0 ? (rem > hlf || (rem == hlf && (q & 1ul) != 0ul))
            : mode == 5 ? rem >= hlf
                        : (rem != 0ul && ((mode == 2 && s == 1u) || (mode == 3 && s == 0u)));
    if (up) q += 1ul;
    if (mode == 4 && rem != 0ul) q |= 1ul;
  }
  if (lsb < -149) {  // only with ftz: tiny unless rounding reached 2^-126
    return (s << 31) | ((lsb == -150 && q == 0x1000000ul) ? 0x00800000u : 0u);
  }
  uint64_t bits = (uint64_t(lsb + 149) << 23) + q;
  if (bits >= 0x7F800000ul) {  // overflow: infinity, or the largest finite value when rounding toward zero
    bool toInf = mode == 0 || mode == 5 || (mode == 2 && s == 1u) || (mode == 3 && s == 0u);
    return (s << 31) | (toInf ? 0x7F800000u : 0x7F7FFFFFu);
  }
  return (s << 31) | uint(bits);
}
)"});
  h.push_back({"p2g_sf32", {"p2g_rnd32"}, {}, R"(// a * b + c on f32 bits in integer arithmetic, rounded once in `mode` (0 rn, 1 rz, 2 rm, 3 rp, 4 round to
// odd: the exact result, or its neighbour with an odd last bit on the side of the exact value). With `ftz` the
// caller has flushed subnormal operands, and a result that is tiny after rounding to 24 bits with an unbounded
// exponent becomes a zero of its sign (the f32 .ftz rule measured on the H200, HAZARDS_IMPLEMENTED.md row 5).
uint p2g_sf32(uint a, uint b, uint c, int mode, bool ftz) {
  uint sp = (a ^ b) >> 31, sc = c >> 31;
  uint aa = a & 0x7FFFFFFFu, bb = b & 0x7FFFFFFFu, cc = c & 0x7FFFFFFFu;
  if (aa > 0x7F800000u || bb > 0x7F800000u || cc > 0x7F800000u) return 0x7FFFFFFFu;
  if (aa == 0x7F800000u || bb == 0x7F800000u) {  // infinite product: inf * 0 and inf - inf are NaN
    if (aa == 0u || bb == 0u || (cc == 0x7F800000u && sc != sp)) return 0x7FFFFFFFu;
    return (sp << 31) | 0x7F800000u;
  }
  if (cc == 0x7F800000u) return c;
  // value = m * 2^x; the product exact in 48 bits
  uint ea = aa >> 23, eb = bb >> 23, ec = cc >> 23;
  uint64_t m1 = uint64_t(ea == 0u ? aa : ((aa & 0x7FFFFFu) | 0x800000u)) *
                uint64_t(eb == 0u ? bb : ((bb & 0x7FFFFFu) | 0x800000u));
  int x1 = int(max(ea, 1u)) + int(max(eb, 1u)) - 300;
  uint s1 = sp;
  if (m1 == 0ul) {  // zero product: c exactly, or a zero whose sign follows IEEE 754 6.3
    if (cc != 0u) return c;
    return (sp == sc ? sp : (mode == 2 ? 1u : 0u)) << 31;
  }
  uint64_t m2 = uint64_t(ec == 0u ? cc : ((cc & 0x7FFFFFu) | 0x800000u));
  int x2 = int(max(ec, 1u)) - 150;
  uint s2 = sc;
  int l1 = p2g_len64(m1), l2 = m2 == 0ul ? 0 : findMSB(uint(m2)) + 1;
  if (m2 != 0ul && x2 + l2 > x1 + l1) {  // the larger magnitude first
    uint64_t tm = m1; m1 = m2; m2 = tm;
    int tx = x1; x1 = x2; x2 = tx;
    uint ts = s1; s1 = s2; s2 = ts;
    int tl = l1; l1 = l2; l2 = tl;
  }
  m1 <<= uint(62 - l1);
  x1 -= 62 - l1;
  if (m2 != 0ul) {
    int d = x2 - x1;
    if (d >= 0) m2 <<= uint(d);
    else if (d > -64) { uint64_t t = m2 >> uint(-d); m2 = t | ((t << uint(-d)) != m2 ? 1ul : 0ul); }
    else m2 = 1ul;
  }
  uint64_t r;
  uint s = s1;
  if (s1 == s2) r = m1 + m2;
  else if (m1 >= m2) r = m1 - m2;
  else { r = m2 - m1; s = s2; }
  if (r == 0ul) return (mode == 2 ? 1u : 0u) << 31;  // exact cancellation
  return p2g_rnd32(s, r, x1, mode, ftz);
}
)"});
  h.push_back({"p2g_div32", {"p2g_rnd32", "p2g_f32_ieee"}, {}, R"(// div.rn/rz/rm/rp.f32 correctly rounded on every device (HAZARDS.md #7): the significands divided with 64-bit
// integer division; the 40-41-bit quotient with the remainder as a sticky bit is rounded once (p2g_rnd32).
// a / b on the bits of the operands (.ftz: the caller flushed them); NaN -> 0x7FFFFFFF.
// Where the facts P2G_F32_DIV_FAST and P2G_F32_FAST hold, div.rn of operands in [2^-40, 2^40) in magnitude first
// tries the device: its reciprocal (any accuracy), q = x * r, one fma correction, then a proof: the remainder
// x - q * y, exact by an fma when q is within an ulp of x / y, is below half an ulp of q times |y| (no quotient of
// two f32 lies halfway between two f32, so the test is strict; a q that is a power of two is left to the integer
// path, the gap below it being half the gap above). Every value there is normal: the fact makes each operation
// IEEE's, and a q that fails the test takes the integer path (tests/ops/div_fast_model.cpp: the same steps on the
// host against correctly rounded division, with reciprocals up to many ulps off).
void p2g_dec32(uint b, out uint m, out int e) {  // finite non-zero magnitude b = m * 2^e, m in [2^23, 2^24)
  uint x = b >> 23;
  m = b & 0x7FFFFFu;
  if (x == 0u) { int k = 23 - findMSB(m); m <<= uint(k); e = -149 - k; }
  else { m |= 0x800000u; e = int(x) - 150; }
}
float p2g_div32(float x, float y, int mode, bool ftz) {
  uint a = floatBitsToUint(x), b = floatBitsToUint(y);
  bool inRange = ((a >> 23) & 0xFFu) - 87u < 80u && ((b >> 23) & 0xFFu) - 87u < 80u;  // 2^-40 <= |x|, |y| < 2^40
  if (P2G_F32_DIV_FAST && P2G_F32_FAST && mode == 0 && inRange) {
    precise float r = 1.0 / y;
    precise float q = x * r;
    precise float e = fma(-q, y, x);
    q = fma(e, r, q);
    precise float rem = fma(-q, y, x);
    uint qb = floatBitsToUint(q);
    precise float h = abs(y) * uintBitsToFloat((((qb >> 23) & 0xFFu) - 24u) << 23);  // |y| * ulp(q) / 2
    if ((qb & 0x7FFFFFu) != 0u && abs(rem) < h) return q;
  }
  uint s = (a ^ b) >> 31, aa = a & 0x7FFFFFFFu, bb = b & 0x7FFFFFFFu;
  if (aa > 0x7F800000u || bb > 0x7F800000u || (aa == bb && (aa == 0u || aa == 0x7F800000u)))
    return uintBitsToFloat(0x7FFFFFFFu);
  if (aa == 0x7F800000u || bb == 0u) return uintBitsToFloat((s << 31) | 0x7F800000u);
  if (aa == 0u || bb == 0x7F800000u) return uintBitsToFloat(s << 31);
  uint ma, mb;
  int ea, eb;
  p2g_dec32(aa, ma, ea);
  p2g_dec32(bb, mb, eb);
  uint64_t num = uint64_t(ma) << 40;
  uint64_t q = num / uint64_t(mb);
  if (num - q * uint64_t(mb) != 0ul) q |= 1ul;
  return uintBitsToFloat(p2g_rnd32(s, q, ea - eb - 40, mode, ftz));
}
)"});
  h.push_back({"p2g_sqrt32", {"p2g_div32"}, {}, R"(// sqrt.rn/rz/rm/rp.f32 correctly rounded (HAZARDS.md #7): the integer square root of the significand scaled to
// 61-62 bits (a first guess from the device's f32 sqrt, one Newton step in integers, then exact integer squares
// decide), the remainder as a sticky bit, one rounding (p2g_rnd32). NaN and negative -> 0x7FFFFFFF; sqrt(-0) = -0.
float p2g_sqrt32(float x, int mode, bool ftz) {
  uint a = floatBitsToUint(x);
  if ((a & 0x7FFFFFFFu) > 0x7F800000u || a > 0x80000000u) return uintBitsToFloat(0x7FFFFFFFu);
  if (a == 0u || a == 0x80000000u || a == 0x7F800000u) return x;
  uint m;
  int e;
  p2g_dec32(a, m, e);
  int sh = ((e - 38) & 1) != 0 ? 37 : 38;  // make the exponent even
  uint64_t M = uint64_t(m) << uint(sh);
  e -= sh;
  uint64_t r = uint64_t(sqrt(float(M)));  // about 24 correct bits (M >= 2^60: never subnormal)
  r = (r + M / r) >> 1;                   // Newton: within one of floor(sqrt(M)), from above
  for (int i = 0; i < 4 && r * r > M; ++i) r -= 1ul;
  for (int i = 0; i < 4 && (r + 1ul) * (r + 1ul) <= M; ++i) r += 1ul;
  if (r * r != M) r |= 1ul;
  return uintBitsToFloat(p2g_rnd32(0u, r, e / 2, mode, ftz));
}
)"});
  h.push_back({"p2g_dn32", {}, {}, R"(bool p2g_dn32(uint u) { return (u & 0x7F800000u) == 0u && (u << 9) != 0u; }  // f32 subnormal
)"});
  h.push_back({"p2g_f32_ieee", {}, {}, R"(// Device fact (specialization constant 6, runtime/vulkan/facts.h, docs/DEVICE_FACTS.md): set by the runtime where
// the device's f32 add/sub/mul/fma in round to nearest were measured to give PTX's bytes (subnormals kept, NaN
// 0x7FFFFFFF, fma fused). The guarded paths below then reduce to the device's operation; elsewhere it stays false.
layout(constant_id = 6) const bool P2G_F32_IEEE = false;
// Device fact (specialization constant 7): the device's fma() rounds once, to nearest even, wherever no operand and
// not the result is subnormal (subnormals may be flushed); p2g_ffma then takes it for those inputs.
layout(constant_id = 7) const bool P2G_FMA_FUSED = false;
// Device fact (specialization constant 9): the device's f32 add, sub, mul and fma() give IEEE's round-to-nearest
// result, rounded once, whenever no operand is subnormal and the result is normal or infinite, and every NaN result
// (a NaN operand, inf - inf, 0 * inf) is 0x7FFFFFFF, as PTX's are (HAZARDS.md #14). Guarded regions
// (translator/emit/region_guard.h) then run on the device's operations.
layout(constant_id = 9) const bool P2G_F32_FAST = false;
// Device fact (specialization constant 10): the device's min() and max() on f32 give PTX's min.f32/max.f32 for
// operands that are not subnormal: a NaN operand ignored, two NaN give 0x7FFFFFFF, -0.0 below +0.0 (HAZARDS.md #14).
layout(constant_id = 10) const bool P2G_F32_MINMAX = false;
// Device fact (specialization constant 12): div.rn.f32 may take p2g_div32's fast path (its proof needs only
// P2G_F32_FAST; the runtime sets it nowhere until measured, `ptx2glsl run --fact f32-div-fast`).
layout(constant_id = 12) const bool P2G_F32_DIV_FAST = false;
)"});
  h.push_back({"p2g_canon_dev", {"p2g_canon", "p2g_f32_ieee"}, {},
               R"(// The result of one of the device's own f32 add/sub/mul/fma (native mode) with PTX's canonical NaN: the
// device gives 0x7FFFFFFF already where the fact P2G_F32_FAST holds (docs/DEVICE_FACTS.md), p2g_canon elsewhere.
float p2g_canon_dev(float x) { float c = p2g_canon(x); return P2G_F32_FAST ? x : c; }
)"});
  h.push_back({"p2g_nminmax", {"p2g_fmin", "p2g_fmax", "p2g_f32_ieee"}, {},
               R"(// min/max.f32 of operands that are not subnormal (f16 widenings, and a guarded region's values, which p2g_in
// tests): the device's min()/max() where the fact P2G_F32_MINMAX holds, the bit-exact p2g_fmin/p2g_fmax elsewhere.
// Both are computed and one is selected by the constant: the driver drops the other.
float p2g_nmin(float a, float b) { float d = min(a, b), e = p2g_fmin(a, b); return P2G_F32_MINMAX ? d : e; }
float p2g_nmax(float a, float b) { float d = max(a, b), e = p2g_fmax(a, b); return P2G_F32_MINMAX ? d : e; }
)"});
  h.push_back({"p2g_fcmpd", {}, {},
               R"(// setp.f32's order of two values of a guarded region's device pass (region_guard.cpp: operands tested like the
// guarded calls', so never subnormal where the region's test passes): -1, 0, 1, or 2 when unordered, as p2g_fcmp
// gives from the bits (-0 equals +0). The device's compares, no branch (selects of plain variables).
int p2g_fcmpd(float a, float b) {
  int lt = -1, gt = 1, eq = 0, un = 2;
  int r = a > b ? gt : eq;
  r = a < b ? lt : r;
  bool u = any(isnan(vec2(a, b)));
  r = u ? un : r;
  return r;
}
)"});
  h.push_back({"p2g_region", {"p2g_fadd", "p2g_fmul", "p2g_ffma"}, {}, R"(// Guarded regions (translator/emit/region_guard.h: the proof and the measurements). First pass: the short forms
// p2g_faddc ... are add/sub/mul/fma.rn.f32 by the device, each exact result a multiple of 2^-126 by its operands'
// grids (region_guard.cpp gridPolicy: a factor finer than 2^-63 is tested where the product needs it), so never
// subnormal where every tested value is 0 or at least 2^-40. p2g_u keeps the smallest magnitude of every value
// p2g_in tests (entering values, and those factors) as p2g_nz(x) = (|x|'s bits << 1) - 2 (a zero wraps to the
// top, NaN sorts above every number; a NaN entering p2g_in_nan makes it 0). p2g_w keeps the smallest |value| of
// every result, zeros included (the device's min() leaves a NaN result out, and a min() that returned it would
// only fail the test). p2g_redo(): true when the device fact P2G_F32_FAST does not hold, or when both ways fail:
// a tested magnitude is below 2^-40 (at or above it no operation can have flushed a result: zeros are then
// exact), and not both p2g_w above 2^-126 and p2g_u at least p2g_nz(2^-126) (then no result is zero, tiny or
// subnormal and no operand entered subnormal: nothing was flushed, every operation was IEEE's). Then the region's
// check p2g_check_<n> runs the device's pass again with the precise forms (p2g_faddz ..., p2g_inz; p2g_m, the
// smallest |result|, exact zeros of opposite operands or a zero factor let through), and only if p2g_redoz()
// finds a result below 2^-126 does the exact replay compute every value again. NaN needs no replay where the fact
// holds: the device's NaN results are PTX's 0x7FFFFFFF (p2g_in_nan tests the operands a compiler may fold to a
// copy, x * 1.0). No exact path, no branch.
uint p2g_u = 0xFFFFFFFFu;
float p2g_w = 1.0;
float p2g_m = 1.0;
uint p2g_nz(float x) { return (floatBitsToUint(x) << 1u) - 2u; }
// The short forms. Their grid holds only where every tested value is 0 or at least 2^-40; p2g_w, the other way
// through p2g_redo, counts every result.
float p2g_faddc(float a, float b) { precise float r = a + b; p2g_w = min(p2g_w, abs(r)); return r; }
float p2g_fsubc(float a, float b) { return p2g_faddc(a, uintBitsToFloat(floatBitsToUint(b) ^ 0x80000000u)); }
float p2g_fmulc(float a, float b) { precise float r = a * b; p2g_w = min(p2g_w, abs(r)); return r; }
float p2g_ffmac(float a, float b, float c) { precise float r = fma(a, b, c); p2g_w = min(p2g_w, abs(r)); return r; }
float p2g_in(float x) {
  p2g_u = min(p2g_u, p2g_nz(x));
  return x;
}
float p2g_in_nan(float x) {
  // also NaN: an operand of a region operation with a literal 1, -1 or 0, which a compiler may turn into a copy
  // (x * 1.0 -> x) that would keep a NaN's payload where PTX gives 0x7FFFFFFF
  p2g_u = (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u ? 0u : min(p2g_u, p2g_nz(x));
  return x;
}
bool p2g_redo() {
  // p2g_nz(2^-40); 2^-126 and p2g_nz(2^-126)
  bool redo = !P2G_F32_FAST || (p2g_u < 0x56FFFFFEu && !(p2g_w > 1.17549435e-38 && p2g_u >= 0x00FFFFFEu));
  p2g_u = 0xFFFFFFFFu;
  p2g_w = 1.0;
  return redo;
}
// The check's forms: an exact zero (opposite operands; a zero factor) counts as no tiny result, any other result
// below 2^-126 as tiny, and so does a subnormal value entering the region (p2g_inz).
float p2g_faddz(float a, float b) {
  precise float r = a + b;
  p2g_m = min(p2g_m, a == -b ? 1.0 : abs(r));
  return r;
}
float p2g_fsubz(float a, float b) { return p2g_faddz(a, uintBitsToFloat(floatBitsToUint(b) ^ 0x80000000u)); }
float p2g_fmulz(float a, float b) {
  precise float r = a * b;
  p2g_m = min(p2g_m, min(abs(a), abs(b)) == 0.0 ? 1.0 : abs(r));
  return r;
}
float p2g_ffmaz(float a, float b, float c) {
  precise float r = fma(a, b, c);
  p2g_m = min(p2g_m, min(abs(a), abs(b)) == 0.0 ? 1.0 : abs(r));
  return r;
}
float p2g_inz(float x) {
  // |x| - 1 (wrapping): subnormals fall in [0, 0x007FFFFE], every other value above. A float select: no branch
  // among the device's operations.
  uint t = (floatBitsToUint(x) & 0x7FFFFFFFu) - 1u;
  p2g_m = t < 0x007FFFFFu ? 0.0 : p2g_m;
  return x;
}
float p2g_in_nanz(float x) {
  uint t = (floatBitsToUint(x) & 0x7FFFFFFFu) - 1u;  // subnormals [0, 0x007FFFFE], NaN [0x7F800000, 0x7FFFFFFE]
  uint bad = uint(t < 0x007FFFFFu) | uint(t >= 0x7F800000u);
  p2g_m = bad != 0u ? 0.0 : p2g_m;
  return x;
}
bool p2g_redoz() {
  bool redo = !P2G_F32_FAST || !(p2g_m > 1.17549435e-38);
  p2g_m = 1.0;
  return redo;
}
)"});
  h.push_back({"p2g_fadd", {"p2g_sf32", "p2g_dn32", "p2g_f32_ieee"}, {}, R"(// add.rn.f32 / sub.rn.f32: the device's sum where it is IEEE's whatever the device's subnormal handling (no subnormal
// operand, a normal or infinite result, or the exact zero of x + -x), p2g_sf32 for the rest.
float p2g_fadd(float a, float b, bool ftz) {
  precise float r = a + b;
  if (P2G_F32_IEEE && !ftz) return r;
  uint ua = floatBitsToUint(a), ub = floatBitsToUint(b), ur = floatBitsToUint(r) & 0x7FFFFFFFu;
  if (!p2g_dn32(ua) && !p2g_dn32(ub)) {
    if (ur > 0x00800000u && ur <= 0x7F800000u) return r;
    if (ur == 0u && ((ua ^ ub) == 0x80000000u || ((ua | ub) << 1) == 0u)) return r;
    if (ur > 0x7F800000u) return uintBitsToFloat(0x7FFFFFFFu);
  }
  return uintBitsToFloat(p2g_sf32(ua, 0x3F800000u, ub, 0, ftz));
}
float p2g_fsub(float a, float b, bool ftz) {
  return p2g_fadd(a, uintBitsToFloat(floatBitsToUint(b) ^ 0x80000000u), ftz);
}
)"});
  h.push_back({"p2g_fmul", {"p2g_sf32", "p2g_dn32", "p2g_f32_ieee"}, {}, R"(// mul.rn.f32: the device's product where it is IEEE's (no subnormal operand and a normal or infinite result, or a
// zero operand), p2g_sf32 for the rest (adding a zero of the product's sign, which leaves every product alone).
float p2g_fmul(float a, float b, bool ftz) {
  precise float r = a * b;
  if (P2G_F32_IEEE && !ftz) return r;
  uint ua = floatBitsToUint(a), ub = floatBitsToUint(b), ur = floatBitsToUint(r) & 0x7FFFFFFFu;
  if (!p2g_dn32(ua) && !p2g_dn32(ub)) {
    if (ur > 0x00800000u && ur <= 0x7F800000u) return r;
    if (ur == 0u && ((ua << 1) == 0u || (ub << 1) == 0u)) return r;
    if (ur > 0x7F800000u) return uintBitsToFloat(0x7FFFFFFFu);
  }
  // (a NaN from the device is not trusted here: a flushing device gives NaN for subnormal * infinity)
  return uintBitsToFloat(p2g_sf32(ua, ub, (ua ^ ub) & 0x80000000u, 0, ftz));
}
)"});
  h.push_back({"p2g_ffma", {"p2g_sf32", "p2g_odd_sumf", "p2g_f32_ieee", "p2g_dn32"}, {}, R"(// fma.f32 rounded once. Round to nearest without a fused device operation: Dekker's exact product (Veltkamp split
// by 4097) and Knuth's TwoSum give a*b + c = th + tl + ul exactly, and z = RN(th + RO(tl + ul)) is the correctly
// rounded result (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding
// to odd", IEEE TC 2008). The bounds keep every intermediate finite and a multiple of 2^-123 (so normal when not
// zero), which makes a device that flushes subnormals compute the same: |a|, |b| in [2^-60, 2^60], c zero or in
// [2^-100, 2^120], |RN(a*b)| >= 2^-74, and a normal result. Everything else, and directed rounding, runs p2g_sf32.
// Checked on the host against fmaf: 0 of 158,033,923 fast-path samples differ (random bits, near-cancellations).
float p2g_ffma(float a, float b, float c, int mode, bool ftz) {
  if (P2G_F32_IEEE && mode == 0 && !ftz) {
    precise float f = fma(a, b, c);
    return f;
  }
  if (P2G_FMA_FUSED && mode == 0) {
    // no subnormal operand and a normal or infinite result: what a fused fma gives, flushing or not (.ftz too)
    precise float f = fma(a, b, c);
    uint uf = floatBitsToUint(f) & 0x7FFFFFFFu;
    if (uf > 0x00800000u && uf <= 0x7F800000u && !p2g_dn32(floatBitsToUint(a)) && !p2g_dn32(floatBitsToUint(b)) &&
        !p2g_dn32(floatBitsToUint(c)))
      return f;
  }
  uint ua = floatBitsToUint(a) & 0x7FFFFFFFu, ub = floatBitsToUint(b) & 0x7FFFFFFFu;
  uint uc = floatBitsToUint(c) & 0x7FFFFFFFu;
  // (with the fused-fma fact every input of this path was taken above: left out, the driver drops its code)
  if (!P2G_FMA_FUSED && mode == 0 && ua >= 0x21800000u && ua <= 0x5D800000u && ub >= 0x21800000u && ub <= 0x5D800000u &&
      (uc == 0u || (uc >= 0x0D800000u && uc <= 0x7B800000u))) {
    precise float uh = a * b;
    if ((floatBitsToUint(uh) & 0x7FFFFFFFu) >= 0x1A800000u) {
      precise float ta = 4097.0 * a;
      precise float ah = ta - (ta - a);
      precise float al = a - ah;
      precise float tb = 4097.0 * b;
      precise float bh = tb - (tb - b);
      precise float bl = b - bh;
      precise float ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl;
      precise float th = c + uh;
      precise float bb = th - c;
      precise float tl = (c - (th - bb)) + (uh - bb);
      precise float z = th + uintBitsToFloat(p2g_odd_sumf(tl, ul));
      uint uz = floatBitsToUint(z) & 0x7FFFFFFFu;
      if (uz > 0x00800000u && uz < 0x7F800000u) return z;
    }
  }
  return uintBitsToFloat(p2g_sf32(floatBitsToUint(a), floatBitsToUint(b), floatBitsToUint(c), mode, ftz));
}
)"});
  // ---- f16 / bf16 arithmetic (HAZARDS.md #1, #2) ----
  // Every f16 value is m * 2^e with m < 2^11 and e >= -24: products (>= 2^-48 or 0) are exact in f32 and sums
  // and fma are exact or rounded to odd by an f32 TwoSum, all within f32's normal range, so a device that flushes
  // f32 subnormals or rounds them any way gives the same bits; the f32 result is rounded once to f16 in integer
  // code: RN11(RO24(x)) = RN11(x) since 24 >= 11 + 2 (Boldo & Melquiond, IEEE TC 2008). bf16 values reach f32's
  // subnormal range and beyond it, so bf16 arithmetic runs p2g_sf32 in round-to-odd mode (8 + 2 <= 24).
  h.push_back({"p2g_f32_canon", {}, {}, R"(// f32 bits as a float, a NaN as the canonical NaN 0x7FFFFFFF (cvt to f32 on the H200).
float p2g_f32_canon(uint b) { return uintBitsToFloat((b & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : b); }
)"});
  h.push_back({"p2g_half_cvt", {}, {}, R"(// Device fact (specialization constant 8, runtime/vulkan/facts.h, docs/DEVICE_FACTS.md): the device's
// unpackHalf2x16 gives every finite f16 exactly and packHalf2x16 rounds a finite f32 to the nearest f16, ties to
// even, f16 subnormals kept, overflow to infinity; p2g_h2f and p2g_f2h_rn then convert with them.
layout(constant_id = 8) const bool P2G_HALF_CVT = false;
)"});
  h.push_back({"p2g_h2f", {"p2g_half_cvt"}, {}, R"(// f16 bits (the low 16 of h, the rest zero) -> f32, exactly: the device's conversion where the fact holds,
// integer code otherwise (an f16 subnormal is an f32 normal). Infinity and NaN by the bits (the payload kept).
float p2g_h2f(uint h) {
  uint s = (h & 0x8000u) << 16, e = (h >> 10) & 31u, f = h & 1023u;
  if (P2G_HALF_CVT) {  // selects between plain variables: no branch among the device's operations
    uint x = floatBitsToUint(unpackHalf2x16(h).x), special = s | 0x7F800000u | (f << 13);
    bool infnan = e == 31u;
    x = infnan ? special : x;
    return uintBitsToFloat(x);
  }
  if (e == 31u) return uintBitsToFloat(s | 0x7F800000u | (f << 13));
  if (e == 0u) {
    if (f == 0u) return uintBitsToFloat(s);
    int k = findMSB(f);  // f * 2^-24 = 1.x * 2^(k - 24)
    return uintBitsToFloat(s | (uint(k + 103) << 23) | ((f << uint(23 - k)) & 0x7FFFFFu));
  }
  return uintBitsToFloat(s | ((e + 112u) << 23) | (f << 13));
}
)"});
  h.push_back({"p2g_odd_sumf", {}, {}, R"(// a + b rounded to odd in f32 (Knuth's TwoSum gives the error exactly when no value is subnormal), as bits.
float p2g_fmul_x(float a, float b) { precise float p = a * b; return p; }  // exact for f16 operands
// a + b in f32 for f16 operands: rounding it to f16 afterwards gives the f16 sum rounded once, since rounding twice
// is innocuous for addition when the wider format has q >= 2p + 1 bits (S. A. Figueroa, SIGNUM Newsletter 30(3),
// 1995; q = 24, p = 11). f16 sums are multiples of 2^-24 below 2^17: never f32 subnormal or overflowing, so a
// device that flushes f32 subnormals computes it too.
float p2g_fadd_x(float a, float b) { precise float s = a + b; return s; }
uint p2g_odd_sumf(float a, float b) {
  precise float s = a + b;
  precise float bb = s - a;
  precise float e = (a - (s - bb)) + (b - bb);
  // s itself when exact, infinite or NaN, or already odd; else the odd neighbour on the side of the error.
  // Without branches (`||` and `?:` over expressions would make glslang branch among the device's operations).
  uint w = floatBitsToUint(s), up = w | 1u, down = w - 1u;
  bool above = ((floatBitsToUint(e) ^ w) >> 31) == 0u;
  uint odd = above ? up : down;
  uint keep = uint(e == 0.0) | uint((w & 0x7F800000u) == 0x7F800000u) | (w & 1u);
  w = keep != 0u ? w : odd;
  return w;
}
)"});
  h.push_back({"p2g_hminmax", {"p2g_harith", "p2g_h2f", "p2g_nminmax", "p2g_f2h_rn"}, {}, R"(// min.f16 / max.f16 (f16x2: lane by lane) without .ftz, .NaN or .xorsign. In the f16 variant (the fact
// f16-native: docs/DEVICE_FACTS.md) the device's f16 min()/max() (no opaque barrier: only fma results need
// one). Otherwise the min/max of the exact f32 widenings, which is one of them (or the canonical NaN), so narrowing
// it back is exact: where the fact P2G_HALF_CVT holds that is the device's conversion (faster on NVIDIA than
// picking the operand: docs/GPU_BENCH.md, 2026-12-06, night); elsewhere the f16 bits are picked from
// the operands by comparing the widenings (p2g_h_pick), not rounded by p2g_f2h_rn's integer code. The operands'
// low 16 bits are the half.
#ifdef P2G_F16_NATIVE
uint p2g_hmin(uint x, uint y) { precise float16_t r = min(p2g_h16(x), p2g_h16(y)); return p2g_h16b(r); }
uint p2g_hmax(uint x, uint y) { precise float16_t r = max(p2g_h16(x), p2g_h16(y)); return p2g_h16b(r); }
uint p2g_hmin2(uint x, uint y) {
  precise f16vec2 r = min(unpackFloat2x16(x), unpackFloat2x16(y));
  return packFloat2x16(r);
}
uint p2g_hmax2(uint x, uint y) {
  precise f16vec2 r = max(unpackFloat2x16(x), unpackFloat2x16(y));
  return packFloat2x16(r);
}
#else
// r: the f32 min/max of the widenings a, b of the halves x, y, back to f16 bits. r is a's or b's bits (-0 below +0
// included), or 0x7FFFFFFF for two NaN operands: 0x7FFF, as p2g_f2h_rn gives.
uint p2g_h_pick(float r, float a, float b, uint x, uint y) {
  uint u = floatBitsToUint(r), d = p2g_f2h_rn(u), v = u == floatBitsToUint(b) ? y : x;
  v = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFu : v;
  return P2G_HALF_CVT ? d : v;
}
uint p2g_hmin(uint x, uint y) {
  float a = p2g_h2f(x & 0xFFFFu), b = p2g_h2f(y & 0xFFFFu);
  return p2g_h_pick(p2g_nmin(a, b), a, b, x & 0xFFFFu, y & 0xFFFFu);
}
uint p2g_hmax(uint x, uint y) {
  float a = p2g_h2f(x & 0xFFFFu), b = p2g_h2f(y & 0xFFFFu);
  return p2g_h_pick(p2g_nmax(a, b), a, b, x & 0xFFFFu, y & 0xFFFFu);
}
uint p2g_hmin2(uint x, uint y) { return p2g_hmin(x, y) | (p2g_hmin(x >> 16, y >> 16) << 16); }
uint p2g_hmax2(uint x, uint y) { return p2g_hmax(x, y) | (p2g_hmax(x >> 16, y >> 16) << 16); }
#endif
)"});
  h.push_back({"p2g_f2bf_rn", {}, {}, R"(// f32 bits -> bf16 bits rounded to nearest even (subnormals and overflow to infinity follow from the carry),
// NaN -> 0x7FFF (NVIDIA's canonical half NaN).
uint p2g_f2bf_rn(uint b) {
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFFu;
  return (b + 0x7FFFu + ((b >> 16) & 1u)) >> 16;
}
)"});
  // One call per plain f16/bf16 add, sub, mul or fma.rn (scalar, and x2 for both halves), for reading: the widening,
  // the exact or round-to-odd f32 step and the final rounding above, in a helper of the instruction's name; the
  // operands' low 16 bits are the half (issue "Readable GLSL", item 2). The .ftz forms stay inline (emit_float.cpp).
  for (int bf = 0; bf < 2; ++bf) {
    std::string p = bf ? "p2g_bf" : "p2g_h", round = bf ? "p2g_f2bf_rn" : "p2g_f2h_rn";
    std::string w = bf ? "((x & 0xFFFFu) << 16)" : "p2g_h2f(x & 0xFFFFu)";
    auto wid = [&](const char* x) {
      std::string r = w;
      r.replace(r.find('x'), 1, x);
      return r;
    };
    std::string text = std::string(bf ? "// bf16" : "// f16") +
                       " a + b, a - b, a * b, a * b + c rounded once to nearest (" +
                       (bf ? "p2g_sf32 rounds to odd in f32 first)\n"
                           : "f32 step first: a rounded sum, an exact product, an fma's sum rounded to odd)\n");
    if (bf) {
      text += "uint " + p + "add(uint a, uint b) { return " + round + "(p2g_sf32(" + wid("a") + ", 0x3F800000u, " +
              wid("b") + ", 4, false)); }\n";
      text += "uint " + p + "mul(uint a, uint b) {\n  uint x = " + wid("a") + ", y = " + wid("b") + ";\n  return " +
              round + "(p2g_sf32(x, y, (x ^ y) & 0x80000000u, 4, false));\n}\n";
      text += "uint " + p + "fma(uint a, uint b, uint c) { return " + round + "(p2g_sf32(" + wid("a") + ", " +
              wid("b") + ", " + wid("c") + ", 4, false)); }\n";
    } else {
      // The module variant for devices whose f16 arithmetic was measured to be PTX's (translate.cpp compiles the
      // GLSL a second time with P2G_F16_NATIVE defined; the runtime takes that module where the fact f16-native
      // holds: docs/DEVICE_FACTS.md): the device's own f16 operations, `precise` so none is fused with another.
      // Each fma result leaves as bits xor P2G_OPAQUE0, a zero the compiler cannot see: without it NVIDIA's
      // compiler changed K's chained f16 fma results (477,572 of history_out's values differ, max 50 ulp) though
      // every operation alone gives PTX's bytes; with it, K gives the bytes of the emulated helpers (H100, driver
      // 580.159.04, 2026-12-06: docs/GPU_BENCH.md "The f16 variant with an opaque barrier"). Only the fma forms
      // need it: with the device's products and sums alone K was identical (the bisection of "f16 arithmetic on
      // K"), and with the barrier on fma results only K 720p (native: 0 of 11,289,600 values differ; exact: 4/4
      // identical) and bench/f16x2_heavy stay identical while f16x2_heavy runs 2.80 -> 1.80 ms (docs/GPU_BENCH.md,
      // "Sign operations, the f16 barrier"). The zero: a CUDA grid has gridDim.x < 2^31
      // (runtime/common/case.cpp refuses more) and the runner dispatches the grid as it is.
      text += "#ifdef P2G_F16_NATIVE\n"
              "#define P2G_OPAQUE0 (gl_NumWorkGroups.x >> 31u)\n"
              "float16_t p2g_h16(uint x) { return unpackFloat2x16(x).x; }  // the low half\n"
              "uint p2g_h16b(float16_t v) { return packFloat2x16(f16vec2(v)) & 0xFFFFu; }\n"
              "uint p2g_hadd(uint a, uint b) { precise float16_t r = p2g_h16(a) + p2g_h16(b); return p2g_h16b(r); }\n"
              "uint p2g_hmul(uint a, uint b) { precise float16_t r = p2g_h16(a) * p2g_h16(b); return p2g_h16b(r); }\n"
              "uint p2g_hfma(uint a, uint b, uint c) {\n"
              "  precise float16_t r = fma(p2g_h16(a), p2g_h16(b), p2g_h16(c));\n"
              "  return p2g_h16b(r) ^ P2G_OPAQUE0;\n}\n"
              "uint p2g_hadd2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) + unpackFloat2x16(b); "
              "return packFloat2x16(r); }\n"
              "uint p2g_hsub2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) - unpackFloat2x16(b); "
              "return packFloat2x16(r); }\n"
              "uint p2g_hmul2(uint a, uint b) { precise f16vec2 r = unpackFloat2x16(a) * unpackFloat2x16(b); "
              "return packFloat2x16(r); }\n"
              "uint p2g_hfma2(uint a, uint b, uint c) {\n"
              "  precise f16vec2 r = fma(unpackFloat2x16(a), unpackFloat2x16(b), unpackFloat2x16(c));\n"
              "  return packFloat2x16(r) ^ P2G_OPAQUE0;\n}\n"
              "// an fma that ends a chain: its result reaches no other fma's addend (Emitter::halfFmaAddend)\n"
              "uint p2g_hfma_end(uint a, uint b, uint c) {\n"
              "  precise float16_t r = fma(p2g_h16(a), p2g_h16(b), p2g_h16(c));\n"
              "  return p2g_h16b(r);\n}\n"
              "uint p2g_hfma2_end(uint a, uint b, uint c) {\n"
              "  precise f16vec2 r = fma(unpackFloat2x16(a), unpackFloat2x16(b), unpackFloat2x16(c));\n"
              "  return packFloat2x16(r);\n}\n"
              "#else\n";
      text += "uint " + p + "add(uint a, uint b) {\n  return " + round + "(floatBitsToUint(p2g_fadd_x(" + wid("a") +
              ", " + wid("b") + ")));\n}\n";
      text += "uint " + p + "mul(uint a, uint b) {\n  return " + round + "(floatBitsToUint(p2g_fmul_x(" + wid("a") + ", " +
              wid("b") + ")));\n}\n";
      text += "uint " + p + "fma(uint a, uint b, uint c) {\n  return " + round + "(p2g_odd_sumf(p2g_fmul_x(" +
              wid("a") + ", " + wid("b") + "), " + wid("c") + "));\n}\n";
      text += "#endif\n";
    }
    text += "uint " + p + "sub(uint a, uint b) { return " + p + "add(a, b ^ 0x8000u); }\n";
    // .sat clamps to [0, 1] on the bits (NaN and every negative value, -0 too, give +0); .relu gives +0 for a
    // negative value and the canonical NaN for a NaN; neg/abs are sign operations but a NaN gives the canonical
    // 0x7FFF (measured on the H200 over all 65536 inputs: ops/f16_sign, ops/f16_mul_fma)
    std::string nan = bf ? "0x7F80u" : "0x7C00u", one = bf ? "0x3F80u" : "0x3C00u";
    text += "uint " + p + "sat(uint v) { v &= 0xFFFFu; return v > " + nan + " ? 0u : (v >= " + one + " ? " + one +
            " : v); }\n";
    text += "uint " + p + "relu(uint v) {\n  v &= 0xFFFFu;\n  return (v & 0x7FFFu) > " + nan +
            " ? 0x7FFFu : ((v & 0x8000u) != 0u ? 0u : v);\n}\n";
    text += "uint " + p + "neg(uint v) { v &= 0xFFFFu; return (v & 0x7FFFu) > " + nan +
            " ? 0x7FFFu : (v ^ 0x8000u); }\n";
    text += "uint " + p + "abs(uint v) { v &= 0x7FFFu; return v > " + nan + " ? 0x7FFFu : v; }\n";
    for (const char* u : {"sat", "relu", "neg", "abs"})
      text += "uint " + p + u + "2(uint v) { return " + p + u + "(v) | (" + p + u + "(v >> 16) << 16); }\n";
    if (!bf) text += "#ifndef P2G_F16_NATIVE\n";
    for (const char* u : {"add", "sub", "mul"})
      text += "uint " + p + u + "2(uint a, uint b) { return " + p + u + "(a, b) | (" + p + u +
              "(a >> 16, b >> 16) << 16); }\n";
    text += "uint " + p + "fma2(uint a, uint b, uint c) { return " + p + "fma(a, b, c) | (" + p +
            "fma(a >> 16, b >> 16, c >> 16) << 16); }\n";
    if (!bf)
      text += "uint p2g_hfma_end(uint a, uint b, uint c) { return p2g_hfma(a, b, c); }\n"
              "uint p2g_hfma2_end(uint a, uint b, uint c) { return p2g_hfma2(a, b, c); }\n"
              "#endif\n";
    std::vector<std::string> deps = bf ? std::vector<std::string>{"p2g_sf32", round}
                                       : std::vector<std::string>{"p2g_h2f", "p2g_odd_sumf", round};
    h.push_back({p + "arith", deps, {}, text});
  }
  h.push_back({"p2g_hrint", {"p2g_h2f", "p2g_frnd32", "p2g_f2h_rn"}, {},
               R"(// cvt.rni/rzi/rmi/rpi.f16.f16 (mode 0-3): the value rounded to an integer, which f16 holds exactly
uint p2g_hrint(uint a, int mode) { return p2g_f2h_rn(p2g_frint32(floatBitsToUint(p2g_h2f(a & 0xFFFFu)), mode)); }
)"});
  h.push_back({"p2g_h_tiny32", {}, {}, R"(// f16 arithmetic with .ftz flushes results that are tiny after rounding: rounded to 11 significant bits with
// an unbounded exponent, below 2^-14. In rn that is |v| < 2^-14 - 2^-26 (measured on the H200: ops/f16_mul_fma
// mul_ftz/fma_rn_ftz and f16x2_arith fma_rn_ftz_sat: exact results up to 0.999755 * 2^-14 are flushed, from
// 0.999808 * 2^-14 on they give 0x0400). `w` (f32 bits) is exact or rounded to odd, which cannot cross these bounds.
bool p2g_h_tiny32(uint w, int mode) {
  uint a = w & 0x7FFFFFFFu;
  bool neg = (w >> 31) != 0u;
  if (mode == 0) return a < 0x387FF000u;                          // 2^-14 - 2^-26
  if (mode == 1 || (mode == 2) == !neg) return a < 0x38800000u;   // toward zero: 2^-14
  return a <= 0x387FE000u;                                        // away: 2^-14 - 2^-25
}
)"});
  // ---- conversions and comparisons on f32 bits (emit_cvt.cpp): no doubles, no device float conversion ----
  h.push_back({"p2g_fcmp", {"p2g_fkey"}, {}, R"(// The order of two f32 values given as bits: -1, 0, 1, or 2 when unordered (a NaN); -0 equals +0.
int p2g_fcmp(uint a, uint b) {
  if (p2g_fnan(a) || p2g_fnan(b)) return 2;
  int ka = p2g_fkey(a), kb = p2g_fkey(b);
  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}
)"});
  h.push_back({"p2g_narrow32", {}, {}, R"(// f32 bits rounded to a narrower binary format: `m` fraction bits, exponent bias `bias`, `eb` exponent bits;
// mode 0 = rn (ties to even), 1 = rz, 2 = rm, 3 = rp; subnormal results exact; NaN gives `nanBits`. Returns the
// narrow format's bits (sign at bit m + eb).
uint p2g_narrow32(uint w, int m, int bias, int eb, int mode, uint nanBits) {
  uint sign = w >> 31;
  int e = int((w >> 23) & 0xFFu);
  uint f = w & 0x7FFFFFu;
  uint signOut = sign << uint(m + eb);
  uint infBits = ((1u << uint(eb)) - 1u) << uint(m);
  if (e == 0xFF) return f != 0u ? nanBits : (signOut | infBits);
  if (e == 0 && f == 0u) return signOut;
  uint mant = e == 0 ? f : (f | 0x800000u);
  int E = (e == 0 ? 1 : e) - 127 + bias;  // biased exponent in the narrow format
  int shift = 23 - m + (E >= 1 ? 0 : 1 - E);
  uint q, rem, hlf;
  if (shift >= 32) { q = 0u; rem = mant; hlf = 0xFFFFFFFFu; }  // below half of the smallest step (mant < 2^24)
  else { q = mant >> uint(shift); rem = mant & ((1u << uint(shift)) - 1u); hlf = 1u << uint(shift - 1); }
  bool up = mode == 0 ? (rem > hlf || (rem == hlf && (q & 1u) != 0u))
                      : (rem != 0u && ((mode == 2 && sign == 1u) || (mode == 3 && sign == 0u)));
  q += up ? 1u : 0u;
  uint r = (E >= 1 ? (uint(E - 1) << uint(m)) : 0u) + q;
  if (r >= infBits) {  // overflow: infinity, or the largest finite value when rounding toward zero
    bool toInf = mode == 0 || (mode == 2 && sign == 1u) || (mode == 3 && sign == 0u);
    return signOut | (toInf ? infBits : infBits - 1u);
  }
  return signOut | r;
}
)"});
  h.push_back({"p2g_frnd32", {}, {}, R"(// A normal magnitude f below 2^23 rounded by the device: roundEven/trunc/floor/ceil give exact integers for normal
// operands on every device (a flushing one included: only subnormal operands differ there).
float p2g_frndf(float f, bool neg, int mode) {
  return mode == 0 ? roundEven(f) : mode == 1 ? trunc(f) : (mode == 2) == neg ? ceil(f) : floor(f);
}
// An f32 magnitude (bits, below 2^23 or any finite value whose rounding is wanted below 2^32) rounded to an
// integer in `mode` (0 rn, 1 rz, 2 rm, 3 rp) for a value of sign `neg`: the device's rounding for a normal one.
uint p2g_frnd32(uint a, bool neg, int mode) {
  if (a >= 0x4B000000u) return ((a & 0x7FFFFFu) | 0x800000u) << uint(int(a >> 23) - 150);  // integral, < 2^32
  if (a >= 0x00800000u) return uint(p2g_frndf(uintBitsToFloat(a), neg, mode));
  if (a == 0u) return 0u;
  // a subnormal: below one half, not zero (a flushing device would round 0 instead): 1 only away from zero
  return uint((mode == 2 && neg) || (mode == 3 && !neg));
}
// cvt.rXi.f32.f32: rounded to an integral value, sign kept (a zero result too); NaN -> 0x7FFFFFFF.
uint p2g_frint32(uint w, int mode) {
  uint a = w & 0x7FFFFFFFu, s = w & 0x80000000u;
  if (a > 0x7F800000u) return 0x7FFFFFFFu;
  if (a >= 0x4B000000u) return w;  // integral already, infinities too
  if (a >= 0x00800000u) return s | floatBitsToUint(p2g_frndf(uintBitsToFloat(a), s != 0u, mode));  // sign kept
  return s | (p2g_frnd32(a, s != 0u, mode) != 0u ? 0x3F800000u : 0u);  // 0 or a subnormal: +-0 or +-1
}
// cvt.rXi.{s,u}{8,16,32}.f32: rounded, saturated to the destination's range, NaN -> 0. The result's low `bits` bits.
uint p2g_f2i32(uint w, int mode, bool sgn, int bits) {
  uint a = w & 0x7FFFFFFFu;
  bool neg = (w >> 31) != 0u;
  if (a > 0x7F800000u) return 0u;
  uint mx = sgn ? (1u << uint(bits - 1)) - 1u : (bits == 32 ? 0xFFFFFFFFu : (1u << uint(bits)) - 1u);
  bool over = a >= 0x4F800000u;  // |x| >= 2^32
  uint m = over ? 0u : p2g_frnd32(a, neg, mode);
  if (!sgn) return neg ? 0u : ((over || m > mx) ? mx : m);
  if (neg) return (over || m > mx + 1u) ? (0u - (mx + 1u)) : (0u - m);
  return (over || m > mx) ? mx : m;
}
// cvt.rXi.{s,u}64.f32: saturated; NaN -> 0x8000000000000000 for both (measured on the H200: basic/f32_bits_convert).
uint64_t p2g_f2i64(uint w, int mode, bool sgn) {
  uint a = w & 0x7FFFFFFFu;
  bool neg = (w >> 31) != 0u;
  if (a > 0x7F800000u) return 0x8000000000000000ul;
  if (sgn && a >= 0x5F000000u) return neg ? 0x8000000000000000ul : 0x7FFFFFFFFFFFFFFFul;  // |x| >= 2^63
  if (!sgn && neg) return 0ul;
  if (!sgn && a >= 0x5F800000u) return 0xFFFFFFFFFFFFFFFFul;  // x >= 2^64
  uint64_t m = a >= 0x4B000000u ? uint64_t((a & 0x7FFFFFu) | 0x800000u) << uint(int(a >> 23) - 150)
                                : uint64_t(p2g_frnd32(a, neg, mode));
  return neg ? (0ul - m) : m;
}
)"});
  h.push_back({"p2g_i2f", {"p2g_rnd32"}, {}, R"(// An integer (magnitude and sign) to f32 bits rounded once in `mode` (0 rn, 1 rz, 2 rm, 3 rp, 4 round to odd).
uint p2g_i2f(uint64_t mag, bool neg, int mode) {
  if (mag == 0ul) return 0u;
  uint s = neg ? 0x80000000u : 0u;
  // below 2^24 every integer is an f32: the device's conversion is exact, in every mode (pixel coordinates, loop
  // counters: nearly every conversion a kernel makes)
  if (mag < 0x1000000ul) return s | floatBitsToUint(float(uint(mag)));
  int n = p2g_len64(mag);  // 25 or more
  uint sh = uint(n - 24), q = uint(mag >> sh);
  uint64_t rem = mag & ((1ul << sh) - 1ul), hlf = 1ul << (sh - 1u);
  bool up = mode == 0 ? (rem > hlf || (rem == hlf && (q & 1u) != 0u))
                      : (rem != 0ul && ((mode == 2 && neg) || (mode == 3 && !neg)));
  q += up ? 1u : 0u;
  if (mode == 4 && rem != 0ul) q |= 1u;
  return s | ((uint(n + 125) << 23) + q);
}
uint p2g_s2f(int64_t v, int mode) { return p2g_i2f(v < 0l ? uint64_t(-v) : uint64_t(v), v < 0l, mode); }
uint p2g_s2f32(int v, int mode) { return p2g_i2f(uint64_t(v < 0 ? 0u - uint(v) : uint(v)), v < 0, mode); }
)"});
  return h;
}

}  // namespace p2g
