// Integer arithmetic and bit manipulation, with PTX's rules where GLSL leaves things undefined (shift counts of
// the register width or more, division by zero, bfe/bfi out of range) written out explicitly.
#include "emitter.h"

#include <algorithm>

namespace p2g {

using ir::Opnd;

// Values of sub-32-bit types are held normalized: unsigned/bit types zero-extended in a uint, signed types
// sign-extended in an int. Results of wrapping arithmetic are normalized again here.
static std::string norm(Ty t, const std::string& e) {
  if (t.bits >= 32) return e;
  if (t.k == Ty::K::S) return "bitfieldExtract(int(" + e + "), 0, " + std::to_string(t.bits) + ")";
  return "((" + e + ") & " + std::to_string((1u << t.bits) - 1) + "u)";
}

static bool need(Emitter& E, const ir::Inst& in, size_t n) {
  if (in.ops.size() < n) {
    E.error(in, std::string(in.op) + ": expected " + std::to_string(n) + " operands");
    return false;
  }
  return true;
}

void emitIntArith(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  std::string op(in.op);
  if (!t.isInt()) {
    E.error(in, "'" + op + "' on this type is not supported");
    return;
  }
  if (t.k == Ty::K::B) t.k = Ty::K::U;
  bool is64 = t.bits == 64;
  auto a = [&] { return E.src(in.ops[1], t); };
  auto b = [&] { return E.src(in.ops[2], t); };
  if (op == "abs" || op == "neg") {
    if (!need(E, in, 2)) return;
    std::string x = E.let(t, a());
    // abs.s64: the sign tested on the high word in 32 bits; lavapipe (LLVM 15) miscompiled `x < 0 ? -x : x` of
    // sign-extended 64-bit values (ptx_corpus/outside/int64_sext_ops, 1987/4096 wrong)
    std::string neg = t.bits == 64 ? "int(unpackUint2x32(uint64_t(" + x + ")).y) < 0" : x + " < 0";
    E.store(in.ops[0], t, norm(t, op == "neg" ? "-" + x : "(" + neg + " ? -" + x + " : " + x + ")"));
    return;
  }
  if (!need(E, in, 3)) return;
  if (op == "add" || op == "sub") {
    std::string o = op == "add" ? " + " : " - ";
    if (in.hasMod("sat")) {  // .sat (s32 only): clamp the exact result
      E.store(in.ops[0], t, "int(clamp(int64_t(" + a() + ")" + o + "int64_t(" + b() + "), -2147483648l, 2147483647l))");
      return;
    }
    E.store(in.ops[0], t, norm(t, a() + o + b()));
    return;
  }
  if (op == "min" || op == "max") {
    std::string e = op + "(" + a() + ", " + b() + ")";
    if (in.hasMod("relu")) e = "max(" + e + ", 0)";
    E.store(in.ops[0], t, e);
    return;
  }
  if (op == "mul" || op == "mad") {
    bool hi = in.hasMod("hi"), wide = in.hasMod("wide");
    bool mad = op == "mad";
    if (mad && !need(E, in, 4)) return;
    if (wide) {
      Ty w{t.k, t.bits * 2};
      std::string W = glslOf(w);
      std::string p = W + "(" + a() + ") * " + W + "(" + b() + ")";
      if (mad) p += " + " + E.src(in.ops[3], w);
      E.store(in.ops[0], w, norm(w, p));
      return;
    }
    if (hi) {
      std::string p;
      if (t.bits == 64) {
        E.use("p2g_mulhi64");
        p = (t.k == Ty::K::S ? "p2g_imulhi64(" : "p2g_umulhi64(") + a() + ", " + b() + ")";
      } else if (t.bits == 32) {
        std::string h = E.tmp(t), l = E.tmp(t);
        E.line((t.k == Ty::K::S ? "imulExtended(" : "umulExtended(") + a() + ", " + b() + ", " + h + ", " + l + ");");
        p = h;
      } else {
        p = "((" + a() + " * " + b() + ") >> " + std::to_string(t.bits) + ")";
      }
      if (mad) {
        if (in.hasMod("sat")) {
          E.store(in.ops[0], t, "int(clamp(int64_t(" + p + ") + int64_t(" + E.src(in.ops[3], t) + "), -2147483648l, 2147483647l))");
          return;
        }
        p += " + " + E.src(in.ops[3], t);
      }
      E.store(in.ops[0], t, norm(t, p));
      return;
    }
    std::string p = a() + " * " + b();
    if (mad) p += " + " + E.src(in.ops[3], t);
    E.store(in.ops[0], t, norm(t, p));
    return;
  }
  if (op == "mul24" || op == "mad24") {
    // 24x24-bit product (operands' low 24 bits, sign- or zero-extended); .lo keeps bits 0..31, .hi bits 16..47.
    bool sgn = t.k == Ty::K::S;
    std::string x = sgn ? "int64_t(bitfieldExtract(" + a() + ", 0, 24))" : "int64_t(" + a() + " & 0xFFFFFFu)";
    std::string y = sgn ? "int64_t(bitfieldExtract(" + b() + ", 0, 24))" : "int64_t(" + b() + " & 0xFFFFFFu)";
    std::string p = "(" + x + " * " + y + ")";
    std::string r = in.hasMod("hi") ? "uint(uint64_t(" + p + ") >> 16)" : "uint(uint64_t(" + p + "))";
    if (op == "mad24") {
      if (!need(E, in, 4)) return;
      r = r + " + " + E.src(in.ops[3], Ty{Ty::K::U, 32});
    }
    E.store(in.ops[0], Ty{Ty::K::U, 32}, r);
    return;
  }
  if (op == "sad") {
    if (!need(E, in, 4)) return;
    std::string x = E.let(t, a());
    std::string y = E.let(t, b());
    Ty u{Ty::K::U, t.bits};
    std::string U = glslOf(u);
    E.store(in.ops[0], u, norm(u, "(" + x + " > " + y + " ? " + U + "(" + x + " - " + y + ") : " + U + "(" + y + " - " + x + ")) + " +
                                     E.src(in.ops[3], u)));
    return;
  }
  if (op == "div" || op == "rem") {
    E.use("p2g_div_u32");
    std::string fn = "p2g_" + op + "_" + (t.k == Ty::K::S ? "s" : "u") + (is64 ? "64" : "32");
    if (t.bits < 32) {  // 16-bit: exact in 32 bits
      Ty w{t.k, 32};
      fn = "p2g_" + op + "_" + (t.k == Ty::K::S ? "s32" : "u32");
      E.store(in.ops[0], t, norm(t, fn + "(" + E.src(in.ops[1], w) + ", " + E.src(in.ops[2], w) + ")"));
      return;
    }
    E.store(in.ops[0], t, fn + "(" + a() + ", " + b() + ")");
    return;
  }
  E.error(in, "unsupported integer instruction '" + op + "'");
}

// lop3's immediate is the truth table of f(a, b, c) evaluated on a = 0xF0, b = 0xCC, c = 0xAA (PTX ISA "lop3"):
// bit i of the table is the result for a = bit 2 of i, b = bit 1, c = bit 0. Emitted as a sum of minterms.
static std::string lop3Expr(const std::string& a, const std::string& b, const std::string& c, unsigned lut) {
  lut &= 0xFF;
  if (lut == 0) return "0u";
  if (lut == 0xFF) return "0xFFFFFFFFu";
  if (lut == 0xF0) return a;
  if (lut == 0xCC) return b;
  if (lut == 0xAA) return c;
  if (lut == 0x96) return "(" + a + " ^ " + b + " ^ " + c + ")";
  if (lut == 0x80) return "(" + a + " & " + b + " & " + c + ")";
  if (lut == 0xFE) return "(" + a + " | " + b + " | " + c + ")";
  std::string e;
  for (unsigned i = 0; i < 8; ++i) {
    if (!((lut >> i) & 1)) continue;
    std::string term = std::string((i & 4) ? "" : "~") + a + " & " + ((i & 2) ? "" : "~") + b + " & " + ((i & 1) ? "" : "~") + c;
    e += (e.empty() ? "(" : " | (") + term + ")";
  }
  return "(" + e + ")";
}

void emitBits(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  std::string op(in.op);
  if (t.k == Ty::K::None) {
    E.error(in, "'" + op + "' needs a type");
    return;
  }
  if (t.k == Ty::K::Pred) {
    if (op == "not") {
      if (!need(E, in, 2)) return;
      E.store(in.ops[0], t, "!" + E.src(in.ops[1], t));
      return;
    }
    if (!need(E, in, 3)) return;
    std::string o = op == "and" ? " && " : op == "or" ? " || " : op == "xor" ? " ^^ " : "";
    if (o.empty()) {
      E.error(in, "'" + op + "' on predicates is not supported");
      return;
    }
    E.store(in.ops[0], t, E.src(in.ops[1], t) + o + E.src(in.ops[2], t));
    return;
  }
  Ty u{Ty::K::U, t.bits};
  bool is64 = t.bits == 64;
  auto a = [&](Ty ty) { return E.src(in.ops[1], ty); };
  if (op == "bmsk") {
    // bmsk.{clamp,wrap}.b32 d, a, b: the mask of b bits from bit a, PTX ISA 9.7.1.22's pseudocode with its shifts
    // of 32 or more made explicit: mask0 = ~0 << (a & 31); mask1 = ~0 << ((a & 31) + (b & 31)), 0 when that sum
    // is 32 or more (or, with .clamp, a >= 32 or b >= 32), ~0 when b & 31 is 0; d = mask0 & ~mask1, mask0 being 0
    // with .clamp and a >= 32.
    if (!need(E, in, 3)) return;
    bool clamp = in.hasMod("clamp");
    std::string x = E.tmp(u), y = E.tmp(u), s = E.tmp(u), m0 = E.tmp(u), m1 = E.tmp(u);
    E.line(x + " = " + a(u) + "; " + y + " = " + E.src(in.ops[2], u) + "; " + s + " = (" + x + " & 31u) + (" + y +
           " & 31u);");
    E.line(m0 + " = " + (clamp ? x + " >= 32u ? 0u : " : "") + "0xFFFFFFFFu << (" + x + " & 31u);");
    E.line(m1 + " = " + s + " >= 32u" + (clamp ? " || " + x + " >= 32u || " + y + " >= 32u" : "") + " ? 0u : (" +
           y + " & 31u) == 0u ? 0xFFFFFFFFu : 0xFFFFFFFFu << " + s + ";");
    E.store(in.ops[0], u, m0 + " & ~" + m1);
    return;
  }
  if (op == "and" || op == "or" || op == "xor") {
    if (!need(E, in, 3)) return;
    std::string o = op == "and" ? " & " : op == "or" ? " | " : " ^ ";
    if (is64) {
      // As two 32-bit halves: lavapipe (LLVM 15, AVX-512 host) miscompiles `(x & K) | (y & ~K)` on 64-bit values
      // under a branch (ops/f64_arith: the input generator's exponent replacement came out wrong in 690 of 8192
      // lanes while each half alone was right). The halves are what NVIDIA's LOP3 computes anyway.
      E.store(in.ops[0], u, "packUint2x32(unpackUint2x32(" + a(u) + ")" + o + "unpackUint2x32(" + E.src(in.ops[2], u) + "))");
      return;
    }
    E.store(in.ops[0], u, a(u) + o + E.src(in.ops[2], u));
    return;
  }
  if (op == "not") {
    if (!need(E, in, 2)) return;
    E.store(in.ops[0], u, norm(u, "~" + a(u)));
    return;
  }
  if (op == "cnot") {
    if (!need(E, in, 2)) return;
    E.store(in.ops[0], u, "(" + a(u) + " == " + E.lit(u, 0) + " ? " + E.lit(u, 1) + " : " + E.lit(u, 0) + ")");
    return;
  }
  if (op == "shl" || op == "shr") {
    if (!need(E, in, 3)) return;
    Ty vt = (op == "shr" && t.k == Ty::K::S) ? t : u;
    std::string x = a(vt);
    std::string W = std::to_string(t.bits);
    std::string e;
    if (in.ops[2].kind == Opnd::Kind::Imm) {  // a constant amount: PTX's clamp decided here
      uint32_t k = uint32_t(uint64_t(in.ops[2].imm));
      if (op == "shl") e = k >= t.bits ? E.lit(u, 0) : norm(u, x + " << " + std::to_string(k) + "u");
      else if (vt.k == Ty::K::S) e = x + " >> " + std::to_string(std::min(k, t.bits - 1)) + "u";
      else e = k >= t.bits ? E.lit(u, 0) : x + " >> " + std::to_string(k) + "u";
      E.store(in.ops[0], vt, e);
      return;
    }
    std::string n = E.let(Ty{Ty::K::U, 32}, E.src(in.ops[2], Ty{Ty::K::U, 32}));
    // PTX clamps shift amounts at the register width (GLSL leaves them undefined): shl/shr.u give 0, shr.s the
    // sign fill.
    if (op == "shl") e = "(" + n + " >= " + W + "u ? " + E.lit(u, 0) + " : " + norm(u, x + " << " + n) + ")";
    else if (vt.k == Ty::K::S) e = x + " >> min(" + n + ", " + std::to_string(t.bits - 1) + "u)";
    else e = "(" + n + " >= " + W + "u ? " + E.lit(u, 0) + " : " + x + " >> " + n + ")";
    E.store(in.ops[0], vt, e);
    return;
  }
  if (op == "popc" || op == "clz") {
    if (!need(E, in, 2)) return;
    Ty r{Ty::K::U, 32};
    if (is64) {
      E.use("p2g_bit64");
      E.store(in.ops[0], r, (op == "popc" ? "p2g_popc64(" : "p2g_clz64(") + a(u) + ")");
    } else {
      E.store(in.ops[0], r, op == "popc" ? "uint(bitCount(" + a(u) + "))" : "uint(31 - findMSB(" + a(u) + "))");
    }
    return;
  }
  if (op == "brev") {
    if (!need(E, in, 2)) return;
    if (is64) {
      E.use("p2g_bit64");
      E.store(in.ops[0], u, "p2g_brev64(" + a(u) + ")");
    } else {
      E.store(in.ops[0], u, "bitfieldReverse(" + a(u) + ")");
    }
    return;
  }
  if (op == "bfind") {
    if (!need(E, in, 2)) return;
    Ty r{Ty::K::U, 32};
    std::string m;
    if (is64) {
      E.use("p2g_bit64");
      m = t.k == Ty::K::S ? "p2g_bfind_s64(" + a(t) + ")" : "p2g_bfind_u64(" + a(u) + ")";
    } else {
      m = t.k == Ty::K::S ? "uint(findMSB(" + a(t) + "))" : "uint(findMSB(" + a(u) + "))";
    }
    if (in.hasMod("shiftamt")) {
      std::string x = E.tmp(r);
      E.line(x + " = " + m + ";");
      m = "(" + x + " == 0xFFFFFFFFu ? 0xFFFFFFFFu : " + std::to_string(t.bits - 1) + "u - " + x + ")";
    }
    E.store(in.ops[0], r, m);
    return;
  }
  if (op == "bfe") {
    if (!need(E, in, 4)) return;
    E.use("p2g_bfe");
    std::string fn = std::string("p2g_bfe_") + (t.k == Ty::K::S ? "s" : "u") + (is64 ? "64" : "32");
    Ty vt = t.k == Ty::K::S ? t : u;
    E.store(in.ops[0], vt, fn + "(" + a(vt) + ", " + E.src(in.ops[2], Ty{Ty::K::U, 32}) + ", " +
                              E.src(in.ops[3], Ty{Ty::K::U, 32}) + ")");
    return;
  }
  if (op == "bfi") {
    if (!need(E, in, 5)) return;
    E.use("p2g_bfi");
    E.store(in.ops[0], u, std::string(is64 ? "p2g_bfi_64(" : "p2g_bfi_32(") + a(u) + ", " + E.src(in.ops[2], u) + ", " +
                             E.src(in.ops[3], Ty{Ty::K::U, 32}) + ", " + E.src(in.ops[4], Ty{Ty::K::U, 32}) + ")");
    return;
  }
  if (op == "prmt") {
    if (!need(E, in, 4)) return;
    E.use("p2g_prmt");
    int mode = 0;
    static const char* modes[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int i = 1; i < 7; ++i)
      if (in.hasMod(modes[i])) mode = i;
    Ty w{Ty::K::U, 32};
    E.store(in.ops[0], w, "p2g_prmt(" + a(w) + ", " + E.src(in.ops[2], w) + ", " + E.src(in.ops[3], w) + ", " +
                             std::to_string(mode) + ")");
    return;
  }
  if (op == "shf") {
    if (!need(E, in, 4)) return;
    E.use("p2g_shf");
    Ty w{Ty::K::U, 32};
    std::string n = E.src(in.ops[3], w);
    n = in.hasMod("clamp") ? "min(" + n + ", 32u)" : "(" + n + " & 31u)";
    E.store(in.ops[0], w, std::string(in.hasMod("l") ? "p2g_shf_l(" : "p2g_shf_r(") + a(w) + ", " + E.src(in.ops[2], w) +
                             ", " + n + ")");
    return;
  }
  if (op == "lop3") {
    if (!need(E, in, 5)) return;
    if (in.ops[4].kind != Opnd::Kind::Imm) {
      E.error(in, "lop3: the truth table must be an immediate");
      return;
    }
    Ty w{Ty::K::U, 32};
    std::string x = E.let(w, a(w));
    std::string y = E.let(w, E.src(in.ops[2], w));
    std::string z = E.let(w, E.src(in.ops[3], w));
    E.store(in.ops[0], w, lop3Expr(x, y, z, unsigned(in.ops[4].imm)));
    return;
  }
  E.error(in, "unsupported bit instruction '" + op + "'");
}

// Extended-precision arithmetic: add.cc/addc/sub.cc/subc/mad.cc/madc share one carry flag (p2g_cc), kept the way
// NVIDIA's hardware keeps it: the carry out of a binary addition. Subtraction is a + ~b + 1 (sub.cc) or a + ~b + CF
// (subc), so after a subtraction the flag is NOT the borrow of the PTX ISA's prose ("d = a - (b + CC.CF)") but its
// complement; a subc reading it gives a - b - (1 - CF). sub.cc/subc chains give the same bytes either way; a sub.cc
// followed by addc tells them apart (measured on the H200: the addc adds the not-borrow; ptx_corpus/outside/
// carry_chains covers the four orders of add/sub and mad.cc/madc).
void emitCarry(Emitter& E, const ir::Inst& in) {
  Ty t = instrType(in);
  std::string op(in.op);
  if (!t.isInt() || (t.bits != 32 && t.bits != 64) || in.ops.size() < 3) {
    E.error(in, "'" + op + "': expected a 32- or 64-bit integer type and operands");
    return;
  }
  E.feature("carry");
  Ty u{Ty::K::U, t.bits};
  bool is64 = t.bits == 64, sgn = t.k == Ty::K::S;
  std::string W = is64 ? "uint64_t" : "uint";
  bool in_ = op == "addc" || op == "subc" || op == "madc";
  bool out = in.hasMod("cc");
  std::string a = E.src(in.ops[1], u), b = E.src(in.ops[2], u);
  if (op == "mad" || op == "madc") {
    if (in.ops.size() < 4) {
      E.error(in, "'" + op + "': expected four operands");
      return;
    }
    if (!in.hasMod("hi") && !in.hasMod("lo")) {
      E.error(in, "'" + op + "': expected .hi or .lo");
      return;
    }
    std::string p = E.tmpOf(W);
    if (in.hasMod("hi")) {
      if (is64) {
        E.use("p2g_mulhi64");
        if (sgn) E.line(p + " = uint64_t(p2g_imulhi64(int64_t(" + a + "), int64_t(" + b + ")));");
        else E.line(p + " = p2g_umulhi64(" + a + ", " + b + ");");
      } else if (sgn) {
        std::string h = E.tmpOf("int"), l = E.tmpOf("int");
        E.line("imulExtended(int(" + a + "), int(" + b + "), " + h + ", " + l + "); " + p + " = uint(" + h + ");");
      } else {
        std::string l = E.tmpOf("uint");
        E.line("umulExtended(" + a + ", " + b + ", " + p + ", " + l + ");");
      }
    } else {
      E.line(p + " = " + a + " * " + b + ";");  // the low half is the same for signed and unsigned operands
    }
    a = p;
    b = E.src(in.ops[3], u);
  }
  bool sub = op == "sub" || op == "subc";
  if (sub) b = "~" + b;
  // carry in: the flag for addc/subc/madc, 1 for sub.cc (a + ~b + 1), else 0
  std::string cin = in_ ? (is64 ? "uint64_t(p2g_cc)" : "p2g_cc") : sub ? (is64 ? "1ul" : "1u") : (is64 ? "0ul" : "0u");
  std::string r = E.tmpOf(W);
  if (!is64) {
    std::string c1 = E.tmpOf("uint"), c2 = E.tmpOf("uint");
    E.line(r + " = uaddCarry(" + a + ", " + b + ", " + c1 + ");");
    E.line(r + " = uaddCarry(" + r + ", " + cin + ", " + c2 + ");");
    if (out) E.line("p2g_cc = " + c1 + " | " + c2 + ";");
  } else {
    std::string x = E.tmpOf(W), y = E.tmpOf(W), c = E.tmpOf(W);
    E.line(x + " = " + a + "; " + y + " = " + b + "; " + c + " = " + cin + ";");
    E.line(r + " = " + x + " + " + y + " + " + c + ";");
    if (out) E.line("p2g_cc = (" + r + " < " + x + " || (" + c + " != 0ul && " + r + " == " + x + ")) ? 1u : 0u;");
  }
  E.store(in.ops[0], u, r);
}

}  // namespace p2g
