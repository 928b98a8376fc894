// Integer dot products and scalar video instructions: dp4a, dp2a, vadd vsub vabsdiff vmin vmax vshl vshr vset.
//
// All are plain integer arithmetic, written out in GLSL from the PTX ISA's semantics (9.7.1.23 dp4a, 9.7.1.24 dp2a,
// 9.7.18.1 "Scalar Video Instructions"); no device operation is trusted for them. The SIMD video instructions
// (vadd2, vadd4, ...) and vmad are not in the instruction table, so they are refused as unsupported instructions.
//
// Scalar video instructions, as the ISA's pseudocode gives them:
//   ta, tb = the selected byte (.b0-.b3), half (.h0/.h1) or word of a and b, sign- or zero-extended by atype/btype
//            to 33 bits (vshl/vshr: b is always unsigned);
//   tmp    = the primary operation on ta, tb, a signed 34-bit result (int64 here; vshl's result is taken modulo
//            2^34, its width in the ISA);
//   .sat   clamps tmp to the range of dtype, or of the byte/half a merge destination names (optSaturate);
//   .add/.min/.max (secondary op) combine tmp with c (extended by dtype) in 64 bits; a merge destination d.bN / d.hN
//            puts tmp's low byte/half into c at that position (optMerge); the low 32 bits are written.
// vset compares instead (tmp = 0 or 1, unsigned, no .sat). Operand selectors arrive as Opnd::part (lift.cpp reads
// `%r1.h1` as register %r1 with selector .h1 for these opcodes only).
#include "emitter.h"

namespace p2g {

using ir::Opnd;

namespace {

bool isSigned(std::string_view m) { return m == "s32"; }

// The type modifiers in order (dtype, atype, btype for video; atype, btype for dp4a/dp2a).
std::vector<std::string_view> typeMods(const ir::Inst& in) {
  std::vector<std::string_view> v;
  for (auto m : in.mods)
    if (m == "u32" || m == "s32") v.push_back(m);
  return v;
}

// Byte i of x (a uint expression), sign- or zero-extended to int.
std::string byteOf(const std::string& x, int i, bool sgn) {
  return sgn ? "bitfieldExtract(int(" + x + "), " + std::to_string(8 * i) + ", 8)"
             : "int(bitfieldExtract(" + x + ", " + std::to_string(8 * i) + ", 8))";
}
std::string halfOf(const std::string& x, int i, bool sgn) {
  return sgn ? "bitfieldExtract(int(" + x + "), " + std::to_string(16 * i) + ", 16)"
             : "int(bitfieldExtract(" + x + ", " + std::to_string(16 * i) + ", 16))";
}

// dp4a.atype.btype d, a, b, c: d = c + sum of the four byte products (32-bit wrapping: the products fit in 17 bits
// and their sum in 19, so int arithmetic wraps exactly as NVIDIA's 32-bit accumulation does).
// dp2a.{lo,hi}.atype.btype d, a, b, c: d = c + a.h0 * b.b(k) + a.h1 * b.b(k+1), k = 0 (.lo) or 2 (.hi).
void emitDot(Emitter& E, const ir::Inst& in) {
  auto ty = typeMods(in);
  if (ty.size() != 2 || in.ops.size() != 4) return E.error(in, std::string(in.op) + ": expected .atype.btype d, a, b, c");
  bool sa = isSigned(ty[0]), sb = isSigned(ty[1]);
  Ty u{Ty::K::U, 32};
  std::string a = E.tmp(u), b = E.tmp(u);
  E.line(a + " = " + E.src(in.ops[1], u) + "; " + b + " = " + E.src(in.ops[2], u) + ";");
  std::string sum = "int(" + E.src(in.ops[3], u) + ")";
  if (in.op == "dp4a") {
    for (int i = 0; i < 4; ++i) sum += " + " + byteOf(a, i, sa) + " * " + byteOf(b, i, sb);
  } else {
    int k = in.hasMod("hi") ? 2 : 0;
    for (int i = 0; i < 2; ++i) sum += " + " + halfOf(a, i, sa) + " * " + byteOf(b, k + i, sb);
  }
  E.store(in.ops[0], u, "uint(" + sum + ")");
}

// Selector of an operand: 0 none, 1..4 .b0-.b3, 5..6 .h0-.h1 (Opnd::part).
std::string selected(const std::string& x, uint8_t part, bool sgn) {
  if (part >= 1 && part <= 4) return "int64_t(" + byteOf(x, part - 1, sgn) + ")";
  if (part >= 5) return "int64_t(" + halfOf(x, part - 5, sgn) + ")";
  return sgn ? "int64_t(int(" + x + "))" : "int64_t(" + x + ")";
}

void emitScalarVideo(Emitter& E, const ir::Inst& in) {
  std::string op(in.op);
  bool vset = op == "vset", shift = op == "vshl" || op == "vshr";
  auto ty = typeMods(in);
  // vset has no dtype (its result is unsigned); the others name dtype, atype, btype
  size_t want = vset ? 2 : 3;
  if (ty.size() != want) return E.error(in, op + ": expected " + (vset ? ".atype.btype" : ".dtype.atype.btype"));
  bool sd = vset ? false : isSigned(ty[0]);
  bool sa = isSigned(ty[want - 2]), sb = shift ? false : isSigned(ty[want - 1]);
  std::string secop = in.hasMod("add") ? "add" : in.hasMod("min") ? "min" : in.hasMod("max") ? "max" : "";
  const Opnd& d = in.ops[0];
  uint8_t dsel = d.part;
  if (!secop.empty() && dsel) return E.error(in, op + ": a secondary operation and a merge destination exclude each other");
  bool hasC = in.ops.size() == 4;
  if (hasC != (!secop.empty() || dsel != 0))
    return E.error(in, op + (hasC ? ": operand c needs a secondary operation (.add/.min/.max) or a destination "
                                    "selector (d.b0-d.b3, d.h0, d.h1)"
                                  : ": the secondary operation or destination selector needs operand c"));
  Ty u{Ty::K::U, 32};
  std::string a = E.tmp(u), b = E.tmp(u);
  E.line(a + " = " + E.src(in.ops[1], u) + "; " + b + " = " + E.src(in.ops[2], u) + ";");
  std::string ta = E.tmpOf("int64_t"), tb = E.tmpOf("int64_t"), t = E.tmpOf("int64_t");
  E.line(ta + " = " + selected(a, in.ops[1].part, sa) + "; " + tb + " = " + selected(b, in.ops[2].part, sb) + ";");
  if (op == "vadd") E.line(t + " = " + ta + " + " + tb + ";");
  else if (op == "vsub") E.line(t + " = " + ta + " - " + tb + ";");
  else if (op == "vabsdiff") E.line(t + " = abs(" + ta + " - " + tb + ");");
  else if (op == "vmin") E.line(t + " = min(" + ta + ", " + tb + ");");
  else if (op == "vmax") E.line(t + " = max(" + ta + ", " + tb + ");");
  else if (shift) {
    // .clamp: shift counts above 32 become 32; .wrap: the count modulo 32
    E.line(tb + " = " + (in.hasMod("wrap") ? tb + " & 31l" : "min(" + tb + ", 32l)") + ";");
    if (op == "vshl") E.line(t + " = ((" + ta + " << " + tb + ") << 30) >> 30;");  // modulo 2^34, signed
    else E.line(t + " = " + ta + " >> " + tb + ";");
  } else if (vset) {
    const char* cmps[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}};
    std::string c;
    for (auto& x : cmps)
      if (in.hasMod(x[0])) c = x[1];
    if (c.empty()) return E.error(in, "vset: expected a comparison .eq .ne .lt .le .gt .ge");
    E.line(t + " = " + ta + " " + c + " " + tb + " ? 1l : 0l;");
  } else {
    return E.error(in, "unsupported video instruction '" + op + "'");
  }
  if (in.hasMod("sat")) {
    int64_t lo, hi;
    bool byte = dsel >= 1 && dsel <= 4, half = dsel >= 5;
    int bits = byte ? 8 : half ? 16 : 32;
    lo = sd ? -(int64_t(1) << (bits - 1)) : 0;
    hi = sd ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    // An unsigned 32-bit destination from two signed operands: a result above INT32_MAX saturates to 0xFFFFFFFF, as a
    // signed overflow would (measured on the H200: ptx_corpus/warp/video_dp slot 9, vsub.u32.s32.s32.sat.min, 128/128
    // lanes with this rule, 121/128 with a plain clamp to [0, 2^32 - 1]; slot 15, vmax.u32.u32.s32.sat.add, keeps the
    // plain clamp: 128/128; other type combinations are unmeasured).
    if (!sd && bits == 32 && sa && sb) E.line("if (" + t + " > 2147483647l) " + t + " = 4294967295l;");
    E.line(t + " = clamp(" + t + ", " + std::to_string(lo) + "l, " + std::to_string(hi) + "l);");
  }
  std::string r = "uint(" + t + ")";
  if (hasC) {
    std::string c = E.tmp(u);
    E.line(c + " = " + E.src(in.ops[3], u) + ";");
    std::string cx = sd ? "int64_t(int(" + c + "))" : "int64_t(" + c + ")";
    if (secop == "add") r = "uint(" + t + " + " + cx + ")";
    else if (secop == "min") r = "uint(min(" + t + ", " + cx + "))";
    else if (secop == "max") r = "uint(max(" + t + ", " + cx + "))";
    else if (dsel >= 1 && dsel <= 4) r = "bitfieldInsert(" + c + ", uint(" + t + "), " + std::to_string(8 * (dsel - 1)) + ", 8)";
    else r = "bitfieldInsert(" + c + ", uint(" + t + "), " + std::to_string(16 * (dsel - 5)) + ", 16)";
  }
  Opnd dr = d;
  dr.part = 0;
  E.store(dr, u, r);
}

}  // namespace

void emitVideo(Emitter& E, const ir::Inst& in) {
  if (in.op == "dp4a" || in.op == "dp2a") return emitDot(E, in);
  emitScalarVideo(E, in);
}

}  // namespace p2g
