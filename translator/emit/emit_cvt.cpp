// Conversions (cvt) and comparisons (setp, set, selp, slct, testp).
//
// cvt follows PTX ISA "cvt": float->int always saturates (NaN -> 0) with the .rni/.rzi/.rmi/.rpi rounding;
// int->int .sat clamps, otherwise truncates or extends; float->float narrowing rounds once in integer code
// (p2g_narrow), widening is exact; f16x2/bf16x2 packing puts the first source in the upper half.
#include <algorithm>
#include <cstdint>

#include "emitter.h"
#include "exact_marks.h"

namespace p2g {

using ir::Opnd;

static void twoTypes(const ir::Inst& in, Ty& d, Ty& a) {
  std::vector<Ty> ts;
  for (auto m : in.mods) {
    Ty t = parseTy(m);
    if (t.k != Ty::K::None) ts.push_back(t);
  }
  if (ts.size() >= 2) {
    d = ts[ts.size() - 2];
    a = ts[ts.size() - 1];
  } else if (ts.size() == 1) {
    d = a = ts[0];
  }
}

static bool intRoundMod(const ir::Inst& in) {
  return in.hasMod("rni") || in.hasMod("rzi") || in.hasMod("rmi") || in.hasMod("rpi");
}

static int irnd(const ir::Inst& in) {  // 0 rni/rn, 1 rzi/rz, 2 rmi/rm, 3 rpi/rp; -1 none
  if (in.hasMod("rni") || in.hasMod("rn")) return 0;
  if (in.hasMod("rzi") || in.hasMod("rz")) return 1;
  if (in.hasMod("rmi") || in.hasMod("rm")) return 2;
  if (in.hasMod("rpi") || in.hasMod("rp")) return 3;
  return -1;
}

// The GLSL rounding to an integral double for mode m (irnd). Nearest-even is p2g_rne64, not roundEven(): see its
// comment (prelude.cpp); every caller rounds a double.
static std::string roundFn(Emitter& E, int m) {
  if (m == 0) E.use("p2g_rne64");
  return m == 0 ? "p2g_rne64" : m == 1 ? "trunc" : m == 2 ? "floor" : "ceil";
}

// Any source as an exact double (every PTX type up to 32-bit ints and f32 fits; 64-bit ints do not). f32 is widened
// in integer code when exact_f32 marked the instruction (the device's conversion may flush denormals), and .ftz
// flushes a subnormal f32 source first.
static std::string asDouble(Emitter& E, const ir::Inst& in, const Opnd& o, Ty a) {
  if (a.k == Ty::K::F && a.bits == 64) return E.src(o, a);
  if (a.k == Ty::K::F) {
    std::string x = E.src(o, a);
    if (in.hasMod("ftz")) {
      E.use("p2g_ftz");
      x = "p2g_ftz(" + x + ")";
    }
    if (!in.hasMod(kMarkIeee)) return "double(" + x + ")";
    E.use("p2g_f2d");
    return "p2g_f2d(" + x + ")";
  }
  if (a.k == Ty::K::F16) { E.use("p2g_h2d"); return "p2g_h2d(" + E.src(o, Ty{Ty::K::B, 16}) + ")"; }
  if (a.k == Ty::K::BF16) { E.use("p2g_bf2d"); return "p2g_bf2d(" + E.src(o, Ty{Ty::K::B, 16}) + ")"; }
  return "double(" + E.src(o, a) + ")";
}

// A float source that is not f64 as exact f32 bits (an f16 or bf16 value is an f32 value), in integer code; .ftz
// flushes a subnormal f32 source first. No double and no device conversion is involved (issue "Exact and fast").
static std::string f32Bits(Emitter& E, const ir::Inst& in, const Opnd& o, Ty a) {
  if (a.k == Ty::K::F16) {
    E.use("p2g_h2f");
    return "floatBitsToUint(p2g_h2f(" + E.src(o, Ty{Ty::K::B, 16}) + "))";
  }
  if (a.k == Ty::K::BF16) return "((" + E.src(o, Ty{Ty::K::B, 16}) + " & 0xFFFFu) << 16)";
  std::string x = E.src(o, a);
  if (in.hasMod("ftz")) {
    E.use("p2g_ftz");
    x = "p2g_ftz(" + x + ")";
  }
  return bitsOf(x);
}

// f32 bits (exact, or rounded to odd) to f16/bf16 bits in `mode`, NaN -> 0x7FFF.
static std::string toHalfBits(Emitter& E, bool bf, const std::string& w, int mode) {
  if (mode == 0) {
    E.use(bf ? "p2g_f2bf_rn" : "p2g_f2h_rn");
    return std::string(bf ? "p2g_f2bf_rn(" : "p2g_f2h_rn(") + w + ")";
  }
  E.use("p2g_narrow32");
  return "p2g_narrow32(" + w + (bf ? ", 7, 127, 8, " : ", 10, 15, 5, ") + std::to_string(mode) + ", 0x7FFFu)";
}

// fp8 pairs (HAZARDS.md #13): cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2.{f32 a, b | f16x2 a} and back to f16x2.
// The first f32 source (or the upper f16 lane) goes to the upper byte, like f16x2 packing.
static void emitFp8(Emitter& E, const ir::Inst& in, Ty d, Ty a, bool relu) {
  E.use("p2g_fp8");
  std::string rl = relu ? "true" : "false";
  bool toFp8 = d.k == Ty::K::E4M3x2 || d.k == Ty::K::E5M2x2 || ((in.hasMod("e4m3x2") || in.hasMod("e5m2x2")) &&
                                                               (a.k == Ty::K::F || a.k == Ty::K::F16x2));
  if (toFp8) {
    std::string fn = in.hasMod("e4m3x2") ? "p2g_to_e4m3" : "p2g_to_e5m2";
    std::string hi, lo;
    if (a.k == Ty::K::F16x2) {
      E.use("p2g_h2f");
      std::string v = E.tmpOf("uint");
      E.line(v + " = " + E.src(in.ops[1], Ty{Ty::K::B, 32}) + ";");
      hi = "floatBitsToUint(p2g_h2f(" + v + " >> 16))";
      lo = "floatBitsToUint(p2g_h2f(" + v + " & 0xFFFFu))";
    } else {
      if (in.ops.size() != 3) return E.error(in, "cvt to an fp8 pair from f32 takes two sources");
      hi = bitsOf(E.src(in.ops[1], Ty{Ty::K::F, 32}));
      lo = bitsOf(E.src(in.ops[2], Ty{Ty::K::F, 32}));
    }
    E.store(in.ops[0], Ty{Ty::K::B, 16}, "(" + fn + "(" + hi + ", " + rl + ") << 8) | " + fn + "(" + lo + ", " + rl + ")");
    return;
  }
  std::string fn = in.hasMod("e4m3x2") ? "p2g_e4m3_to_h" : "p2g_e5m2_to_h";
  std::string v = E.tmpOf("uint");
  E.line(v + " = " + E.src(in.ops[1], Ty{Ty::K::B, 16}) + ";");
  E.store(in.ops[0], Ty{Ty::K::B, 32}, fn + "(" + v + " & 0xFFu, " + rl + ") | (" + fn + "(" + v + " >> 8, " + rl + ") << 16)");
}

// Without exact_half: the device's own half conversions (packHalf2x16 / unpackHalf2x16) for the plain scalar
// f16 <-> f32 forms; whatever their rounding, glslang folds them for constants (HAZARDS.md #1, #2). Returns false
// for every other form (which keeps the integer lowering).
static bool nativeHalf(Emitter& E, const ir::Inst& in, Ty d, Ty a) {
  if (in.hasMod("sat") || in.hasMod("relu") || in.hasMod("ftz") || in.ops.size() != 2) return false;
  if (d.k == Ty::K::F16 && a.k == Ty::K::F && a.bits == 32) {
    E.store(in.ops[0], Ty{Ty::K::B, 16}, "packHalf2x16(vec2(" + E.src(in.ops[1], a) + ", 0.0)) & 0xFFFFu");
    return true;
  }
  if (d.k == Ty::K::F && d.bits == 32 && a.k == Ty::K::F16) {
    E.store(in.ops[0], d, "unpackHalf2x16(" + E.src(in.ops[1], Ty{Ty::K::B, 16}) + ").x");
    return true;
  }
  return false;
}

// cvt.pack.sat (PTX ISA "cvt.pack"): two .s32 sources saturated to convertType and packed, b in the low bits and
// a above it:
//   cvt.pack.sat.{u16,s16}.s32 d, a, b             d = sat(a) << 16 | sat(b)
//   cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 d, a, b, c   d = c << 2n | sat(a) << n | sat(b)   (n bits per value)
// The saturation clamps in 32-bit arithmetic (narrow clamps through 64-bit compares were miscompiled by lavapipe,
// see the .sat conversion below). H200: a = -257, b = 257, c = 0xF839B0ED gives 0xB0ED00FF (.u8), 0xB0ED807F (.s8).
static void emitCvtPack(Emitter& E, const ir::Inst& in) {
  std::string_view ct;
  bool s32 = false, b32 = false, sat = false;
  for (auto m : in.mods) {
    if (m == "pack" || m.substr(0, 4) == "p2g.") continue;  // p2g.*: marks of the exact passes
    if (m == "sat") sat = true;
    else if (m == "s32" && !ct.empty()) s32 = true;
    else if (m == "b32" && s32) b32 = true;
    else if (ct.empty() && (m == "u2" || m == "s2" || m == "u4" || m == "s4" || m == "u8" || m == "s8" || m == "u16" ||
                            m == "s16"))
      ct = m;
    else return E.error(in, "cvt.pack: unsupported modifier '." + std::string(m) + "'");
  }
  if (ct.empty() || !s32 || !sat) return E.error(in, "cvt.pack: expected cvt.pack.sat.<u2|s2|u4|s4|u8|s8|u16|s16>.s32");
  unsigned n = unsigned(std::stoi(std::string(ct.substr(1))));
  bool wide = n == 16;
  if (wide ? (b32 || in.ops.size() != 3) : (!b32 || in.ops.size() != 4))
    return E.error(in, wide ? "cvt.pack.sat." + std::string(ct) + ".s32 takes d, a, b"
                            : "cvt.pack.sat." + std::string(ct) + ".s32.b32 takes d, a, b, c");
  bool sg = ct[0] == 's';
  int hi = sg ? (1 << (n - 1)) - 1 : int((1u << n) - 1), lo = sg ? -hi - 1 : 0;
  uint32_t mask = (1u << n) - 1;
  Ty i32{Ty::K::S, 32};
  auto sat1 = [&](const Opnd& o) {
    std::string v = E.tmpOf("int");
    E.line(v + " = clamp(" + E.src(o, i32) + ", " + std::to_string(lo) + ", " + std::to_string(hi) + ");");
    return "(uint(" + v + ") & " + std::to_string(mask) + "u)";
  };
  std::string a = sat1(in.ops[1]), b = sat1(in.ops[2]);
  std::string d = "(" + a + " << " + std::to_string(n) + "u) | " + b;
  if (!wide) d = "(" + E.src(in.ops[3], Ty{Ty::K::B, 32}) + " << " + std::to_string(2 * n) + "u) | " + d;
  E.store(in.ops[0], Ty{Ty::K::U, 32}, d);
}

// The f32 result `e` of a cvt, with .ftz (a subnormal result becomes a zero of its sign) and .sat applied.
static void storeF32(Emitter& E, const ir::Inst& in, std::string e, bool ftz, bool sat) {
  if (ftz) {
    E.use("p2g_ftz");
    e = "p2g_ftz(" + e + ")";
  }
  if (sat) {
    E.use("p2g_sat");
    e = "p2g_sat(" + e + ")";
  }
  E.store(in.ops[0], Ty{Ty::K::F, 32}, e);
}

// The f16/bf16 result `e` of a cvt, with .relu (negative -> +0, NaN stays 0x7FFF) and .sat (clamp to [0, 1], NaN ->
// +0) applied on the bits.
static void storeHalf(Emitter& E, const ir::Inst& in, bool bf, std::string e, bool sat, bool relu) {
  if (sat || relu) {
    std::string v = E.tmpOf("uint");
    E.line(v + " = " + e + ";");
    std::string inf = bf ? "0x7F80u" : "0x7C00u";
    if (relu) e = "((" + v + " & 0x7FFFu) > " + inf + " ? 0x7FFFu : ((" + v + " & 0x8000u) != 0u ? 0u : " + v + "))";
    if (sat) {
      std::string one = bf ? "0x3F80u" : "0x3C00u";
      e = "(((" + v + " & 0x7FFFu) > " + inf + " || (" + v + " & 0x8000u) != 0u) ? 0u : (" + v + " >= " + one + " ? " + one + " : " + v + "))";
    }
  }
  E.store(in.ops[0], Ty{Ty::K::B, 16}, e);
}

// cvt.rna{.satfinite}.tf32.f32 d, a (wmma::__float_to_tf32): a rounded to 10 fraction bits, ties away from zero, in
// an f32 bit pattern whose low 13 bits are zero (PTX ISA "cvt"). On the bits: adding half an ulp of tf32 to the
// magnitude and cutting rounds ties away and carries into the exponent (the largest finite values round to
// infinity); subnormals round the same way. NaN gives the canonical NaN 0x7FFFFFFF (NVIDIA's habit, HAZARDS.md
// #14; not measured for this instruction); .satfinite turns infinities into the largest finite tf32 of their sign.
static void emitCvtTf32(Emitter& E, const ir::Inst& in) {
  Ty u{Ty::K::U, 32};
  std::string x = E.tmp(u), r = E.tmp(u);
  E.line(x + " = " + E.src(in.ops[1], u) + ";");
  E.line(r + " = (" + x + " & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : (" + x + " & 0x7F800000u) == 0x7F800000u ? " +
         x + " : ((" + x + " + 0x1000u) & 0xFFFFE000u);");
  if (in.hasMod("satfinite"))
    E.line("if ((" + r + " & 0x7FFFFFFFu) == 0x7F800000u) " + r + " = (" + r + " & 0x80000000u) | 0x7F7FE000u;");
  E.store(in.ops[0], u, r);
}

void emitCvt(Emitter& E, const ir::Inst& in) {
  if (in.hasMod("pack")) return emitCvtPack(E, in);
  if (in.hasMod("tf32") && in.hasMod("rna")) return emitCvtTf32(E, in);
  Ty d, a;
  twoTypes(in, d, a);
  if (d.k == Ty::K::None || in.ops.size() < 2) {
    E.error(in, "cvt: expected destination and source types");
    return;
  }
  bool sat = in.hasMod("sat"), ftz = in.hasMod("ftz"), relu = in.hasMod("relu");
  int m = irnd(in);
  bool a64 = a.k == Ty::K::F && a.bits == 64, d64 = d.k == Ty::K::F && d.bits == 64;
  if (a64 || d64) E.feature("float64");
  if (in.hasMod("e4m3x2") || in.hasMod("e5m2x2")) {
    if (!in.hasMod(kMarkFp8)) {
      E.error(in, "cvt to/from fp8 needs pass exact_fp8: no device has fp8 types (HAZARDS.md #13)");
      return;
    }
    return emitFp8(E, in, d, a, relu);
  }
  if (in.hasMod("tf32")) {
    E.error(in, "cvt to/from tf32 is not supported yet");
    return;
  }
  if (!in.hasMod(kMarkHalf) && nativeHalf(E, in, d, a)) return;
  // Packing: cvt.rn.f16x2.f32 d, a, b -> d = {cvt(a) in the upper half, cvt(b) in the lower}.
  if (d.k == Ty::K::F16x2 || d.k == Ty::K::BF16x2) {
    if (in.ops.size() != 3) {
      E.error(in, "cvt to a packed type takes two sources");
      return;
    }
    bool bf = d.k == Ty::K::BF16x2;
    std::string fn = bf ? "p2g_d2bf" : "p2g_d2h";
    if (a64) E.use(fn);
    auto one = [&](const Opnd& o) {
      std::string r = a64 ? fn + "(" + asDouble(E, in, o, a) + ", " + std::to_string(m < 0 ? 0 : m) + ")"
                          : toHalfBits(E, bf, f32Bits(E, in, o, a), m < 0 ? 0 : m);
      if (relu) {
        std::string v = E.tmpOf("uint");
        E.line(v + " = " + r + ";");
        r = "((" + v + " & 0x7FFFu) > " + (bf ? "0x7F80u" : "0x7C00u") + " ? 0x7FFFu : ((" + v + " & 0x8000u) != 0u ? 0u : " + v + "))";
      }
      return r;
    };
    std::string hi = E.tmpOf("uint"), lo = E.tmpOf("uint");
    E.line(hi + " = " + one(in.ops[1]) + ";");
    E.line(lo + " = " + one(in.ops[2]) + ";");
    E.store(in.ops[0], Ty{Ty::K::B, 32}, "(" + hi + " << 16) | " + lo);
    return;
  }
  bool dFloat = d.k == Ty::K::F || d.k == Ty::K::F16 || d.k == Ty::K::BF16;
  bool aFloat = a.k == Ty::K::F || a.k == Ty::K::F16 || a.k == Ty::K::BF16;
  if (!dFloat && !aFloat && sat && a.bits <= 32 && d.bits <= 32 && !(d.k == a.k && d.bits >= a.bits)) {
    // .sat from a 32-bit or narrower integer: clamped in 32-bit arithmetic. The 64-bit form below gave wrong
    // clamps on lavapipe (LLVM 15 on an AVX-512 host): ops/int_cvt sat_s8_s32 5716/8192 and sat_u16_s32
    // 7028/8192 lanes differed while NVIDIA's Vulkan driver ran the same GLSL right.
    bool aS = a.k == Ty::K::S, dS = d.k == Ty::K::S;
    Ty w{aS ? Ty::K::S : Ty::K::U, 32};
    std::string v = E.tmp(w);
    E.line(v + " = " + glslOf(w) + "(" + E.src(in.ops[1], a.k == Ty::K::B ? Ty{Ty::K::U, a.bits} : a) + ");");
    int64_t hi = dS ? (int64_t(1) << (d.bits - 1)) - 1 : (int64_t(1) << d.bits) - 1, lo = dS ? -hi - 1 : 0;
    std::string r;
    if (aS) {
      r = "clamp(" + v + ", " + std::to_string(lo) + ", " + std::to_string(std::min<int64_t>(hi, INT32_MAX)) + ")";
      r = "uint(" + r + ")";
    } else {
      r = "min(" + v + ", " + std::to_string(std::min<int64_t>(hi, UINT32_MAX)) + "u)";
    }
    if (d.bits < 32) r = "(" + r + " & " + std::to_string((1u << d.bits) - 1) + "u)";
    if (dS) r = d.bits < 32 ? "bitfieldExtract(int(" + r + "), 0, " + std::to_string(d.bits) + ")" : "int(" + r + ")";
    E.store(in.ops[0], dS ? d : Ty{Ty::K::U, d.bits}, r);
    return;
  }
  if (!dFloat && !aFloat) {
    // int -> int: through 64 bits
    Ty w{a.k == Ty::K::S ? Ty::K::S : Ty::K::U, 64};
    std::string v = E.tmp(w);
    E.line(v + " = " + glslOf(w) + "(" + E.src(in.ops[1], a.k == Ty::K::B ? Ty{Ty::K::U, a.bits} : a) + ");");
    if (sat && !(d.k == a.k && d.bits >= a.bits)) {
      int64_t lo, hi;
      uint64_t uhi;
      bool dS = d.k == Ty::K::S;
      if (dS) { hi = d.bits == 64 ? INT64_MAX : (int64_t(1) << (d.bits - 1)) - 1; lo = -hi - 1; uhi = uint64_t(hi); }
      else { lo = 0; uhi = d.bits == 64 ? UINT64_MAX : (uint64_t(1) << d.bits) - 1; hi = 0; }
      if (a.k == Ty::K::S) {
        std::string c = v;
        c = "(" + v + " < " + std::to_string(lo) + "l ? " + std::to_string(lo) + "l : " + v + ")";
        if (dS || d.bits < 64) c = "(" + v + " > " + std::to_string(dS ? hi : int64_t(uhi)) + "l ? " + std::to_string(dS ? hi : int64_t(uhi)) + "l : " + c + ")";
        E.line(v + " = " + c + ";");
      } else {
        if (uhi != UINT64_MAX) E.line(v + " = min(" + v + ", " + std::to_string(uhi) + "ul);");
      }
    }
    std::string r = "uint64_t(" + v + ")";
    if (d.bits == 64) {
      E.store(in.ops[0], d, d.k == Ty::K::S ? "int64_t(" + r + ")" : r);
      return;
    }
    std::string low = "uint(" + r + ")";
    if (d.bits < 32) low = "(" + low + " & " + std::to_string((1u << d.bits) - 1) + "u)";
    if (d.k == Ty::K::S) low = d.bits < 32 ? "bitfieldExtract(int(" + low + "), 0, " + std::to_string(d.bits) + ")" : "int(" + low + ")";
    E.store(in.ops[0], d, low);
    return;
  }
  if (aFloat && !dFloat) {
    // float -> int: round, saturate, NaN -> 0
    if (m < 0) {
      E.error(in, "cvt float->int needs a rounding modifier");
      return;
    }
    if (!a64) {  // in integer code on the exact f32 bits (f32_prelude.cpp)
      E.use("p2g_frnd32");
      std::string w = f32Bits(E, in, in.ops[1], a), ms = std::to_string(m), sg = d.k == Ty::K::S ? "true" : "false";
      if (d.bits == 64) {
        std::string r = "p2g_f2i64(" + w + ", " + ms + ", " + sg + ")";
        E.store(in.ops[0], d, d.k == Ty::K::S ? "int64_t(" + r + ")" : r);
        return;
      }
      std::string r = "p2g_f2i32(" + w + ", " + ms + ", " + sg + ", " + std::to_string(d.bits) + ")";
      bool dS = d.k == Ty::K::S;
      E.store(in.ops[0], dS ? Ty{Ty::K::S, d.bits} : Ty{Ty::K::U, d.bits}, dS ? "int(" + r + ")" : r);
      return;
    }
    std::string x = asDouble(E, in, in.ops[1], a);
    std::string v = E.tmp(Ty{Ty::K::F, 64});
    E.line(v + " = " + roundFn(E, m) + "(" + x + ");");
    std::string r;
    bool dS = d.k == Ty::K::S;
    if (d.bits == 64) {
      // 2^63 and 2^64 are exact doubles; the largest in-range doubles below them are exact too.
      // NaN -> 0x8000000000000000 for both s64 and u64 (measured on the H200; 32-bit targets give 0):
      // ptx_corpus/basic/f32_bits_convert rows 2 and 3.
      if (dS)
        r = "isnan(" + v + ") ? (-9223372036854775807l - 1l) : " + v + " >= 9223372036854775808.0lf ? 9223372036854775807l : " + v +
            " <= -9223372036854775808.0lf ? (-9223372036854775807l - 1l) : int64_t(" + v + ")";
      else
        r = "isnan(" + v + ") ? 0x8000000000000000ul : " + v + " <= 0.0lf ? 0ul : " + v + " >= 18446744073709551616.0lf ? 0xFFFFFFFFFFFFFFFFul : uint64_t(" + v + ")";
      E.store(in.ops[0], d, r);
      return;
    }
    double lo = dS ? -double(int64_t(1) << (d.bits - 1)) : 0.0;
    double hi = dS ? double((int64_t(1) << (d.bits - 1)) - 1) : double((int64_t(1) << d.bits) - 1);
    char b[128];
    snprintf(b, sizeof b, "isnan(%s) ? 0.0lf : clamp(%s, %.1flf, %.1flf)", v.c_str(), v.c_str(), lo, hi);
    std::string c = E.tmp(Ty{Ty::K::F, 64});
    E.line(c + " = " + b + ";");
    r = dS ? "int(" + c + ")" : "uint(" + c + ")";
    if (d.bits < 32) r = dS ? "int(" + c + ")" : "uint(" + c + ")";
    E.store(in.ops[0], dS ? Ty{Ty::K::S, d.bits} : Ty{Ty::K::U, d.bits}, r);
    return;
  }
  // destination is a float type
  if (d.k == Ty::K::F && d.bits == 32 && a.k == Ty::K::BF16 && !ftz && !sat && m < 0) {
    // cvt.f32.bf16 is the bits moved up, NaN payloads (even signalling ones) kept: measured on the H200 over all
    // 65536 inputs (ops/cvt_f16_wide f32_bf16).
    E.store(in.ops[0], d, "uintBitsToFloat((" + E.src(in.ops[1], Ty{Ty::K::B, 16}) + " & 0xFFFFu) << 16)");
    return;
  }
  if (!a64 && !d64) {
    // No f64 on either side: integer code on f32 bits (f32_prelude.cpp), no double anywhere.
    bool intRound = intRoundMod(in);
    int mode = intRound ? 0 : (m < 0 ? 0 : m);
    std::string w;  // the result as f32 bits: exact, rounded in `mode`, or rounded to odd for a half destination
    if (!aFloat) {
      E.use("p2g_i2f");
      std::string im = std::to_string(d.k == Ty::K::F ? mode : 4);
      if (a.k == Ty::K::S && a.bits == 64) w = "p2g_s2f(" + E.src(in.ops[1], a) + ", " + im + ")";
      else if (a.k == Ty::K::S) w = "p2g_s2f32(int(" + E.src(in.ops[1], a) + "), " + im + ")";
      else w = "p2g_i2f(uint64_t(" + E.src(in.ops[1], Ty{Ty::K::U, a.bits}) + "), false, " + im + ")";
    } else if (intRound && a.k == Ty::K::F16 && d.k == Ty::K::F16 && !ftz) {
      // cvt.rXi.f16.f16: one call (the integer is an f16 value, so the narrowing is exact)
      E.use("p2g_hrint");
      storeHalf(E, in, false, "p2g_hrint(" + E.src(in.ops[1], Ty{Ty::K::B, 16}) + ", " + std::to_string(m) + ")", sat, relu);
      return;
    } else {
      w = f32Bits(E, in, in.ops[1], a);
      if (intRound) {
        E.use("p2g_frnd32");
        w = "p2g_frint32(" + w + ", " + std::to_string(m) + ")";
      }
    }
    if (d.k == Ty::K::F) {  // NaN -> 0x7FFFFFFF (as the H200 gives for cvt.f32.f16 and cvt.rXi.f32.f32)
      E.use("p2g_f32_canon");
      return storeF32(E, in, "p2g_f32_canon(" + w + ")", ftz, sat);
    }
    bool bf = d.k == Ty::K::BF16;
    storeHalf(E, in, bf, toHalfBits(E, bf, w, mode), sat, relu);
    return;
  }
  if (!aFloat && a.bits == 64 && d.k == Ty::K::F && d.bits == 64 && !intRoundMod(in)) {
    // cvt.f64.s64/u64: the integer rounded once to 53 bits in the requested mode, in integer code (p2g_i64_to_d;
    // NVIDIA: ops/f64_misc cvt_rm_f64_s64)
    E.use("p2g_dround");
    std::string v = E.src(in.ops[1], Ty{Ty::K::U, 64});
    std::string t = E.tmp(d);
    E.line(t + " = p2g_i64_to_d(" + v + ", " + (a.k == Ty::K::S ? "true" : "false") + ", " + std::to_string(m < 0 ? 0 : m) + ");");
    E.store(in.ops[0], d, sat ? "(" + t + " > 0.0lf ? min(" + t + ", 1.0lf) : 0.0lf)" : t);
    return;
  }
  std::string x = asDouble(E, in, in.ops[1], a);  // an f64 on one side from here on (64-bit integers: above)
  bool intRound = intRoundMod(in);
  // NaN results of cvt to f64, measured on the H200 (ptx_corpus/outside/cvt_f64_nan, 2026-12-01): cvt.f64.f32 and
  // cvt.rXi.f64.f64 give the source NaN quieted, sign and payload kept (an f32 fraction moved up 29 bits, then
  // bit 51 set: 0x7F800001 -> 0x7FF8000020000000); with .ftz, cvt.f64.f32 gives 0x7FFFFFFFE0000000 for every NaN
  // (the f32 0x7FFFFFFF widened); .sat gives 0. NaNs from f16/bf16 sources keep the canonical 0x7FFFFFFFFFFFFFFF
  // (not measured).
  bool f64Dst = d.k == Ty::K::F && d.bits == 64;
  bool quietSrc = f64Dst && a.k == Ty::K::F && (a.bits == 64 || !ftz);
  std::string src;
  if (quietSrc) {
    src = E.tmp(Ty{Ty::K::F, 64});
    E.line(src + " = " + x + ";");
    x = src;
  }
  if (intRound) x = roundFn(E, m) + "(" + x + ")";
  int mode = intRound ? 0 : (m < 0 ? 0 : m);
  std::string ms = std::to_string(mode);
  if (f64Dst) {
    std::string e = x;
    if (sat) e = "(" + x + " > 0.0lf ? min(" + x + ", 1.0lf) : 0.0lf)";
    std::string t = e;
    if (e != src) {  // a rounding or .sat applies (otherwise the source temporary is the result)
      t = E.tmp(d);
      E.line(t + " = " + e + ";");
    }
    std::string nan = quietSrc ? "uint64BitsToDouble(doubleBitsToUint64(" + src + ") | 0x0008000000000000ul)"
                      : a.k == Ty::K::F && ftz ? "uint64BitsToDouble(0x7FFFFFFFE0000000ul)"
                                               : "uint64BitsToDouble(0x7FFFFFFFFFFFFFFFul)";
    E.store(in.ops[0], d, "(isnan(" + t + ") ? " + nan + " : " + t + ")");
    return;
  }
  if (d.k == Ty::K::F) {  // cvt.f32.f64
    E.use("p2g_d2f");
    return storeF32(E, in, "p2g_d2f(" + x + ", " + ms + ")", ftz, sat);
  }
  bool bf = d.k == Ty::K::BF16;
  std::string fn = bf ? "p2g_d2bf" : "p2g_d2h";
  E.use(fn);
  storeHalf(E, in, bf, fn + "(" + x + ", " + ms + ")", sat, relu);
}

// ---- comparisons ----
static std::string cmpExpr(Emitter& E, const std::string& op, Ty t, const std::string& a, const std::string& b) {
  bool fl = t.k == Ty::K::F;
  if (fl) {
    std::string un = "(isnan(" + a + ") || isnan(" + b + "))";
    if (op == "eq") return a + " == " + b;
    if (op == "ne") return "(" + a + " != " + b + " && !" + un + ")";
    if (op == "lt") return a + " < " + b;
    if (op == "le") return a + " <= " + b;
    if (op == "gt") return a + " > " + b;
    if (op == "ge") return a + " >= " + b;
    if (op == "equ") return "(" + a + " == " + b + " || " + un + ")";
    if (op == "neu") return "!(" + a + " == " + b + ")";
    if (op == "ltu") return "!(" + a + " >= " + b + ")";
    if (op == "leu") return "!(" + a + " > " + b + ")";
    if (op == "gtu") return "!(" + a + " <= " + b + ")";
    if (op == "geu") return "!(" + a + " < " + b + ")";
    if (op == "num") return "!" + un;
    if (op == "nan") return un;
    return "";
  }
  if (op == "eq") return a + " == " + b;
  if (op == "ne") return a + " != " + b;
  if (op == "lt" || op == "lo") return a + " < " + b;
  if (op == "le" || op == "ls") return a + " <= " + b;
  if (op == "gt" || op == "hi") return a + " > " + b;
  if (op == "ge" || op == "hs") return a + " >= " + b;
  return "";
}

static const char* kCmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                              "ltu", "leu", "gtu", "geu", "num", "nan"};

static std::string findCmp(const ir::Inst& in) {
  for (auto m : in.mods)
    for (auto c : kCmps)
      if (m == c) return c;
  return "";
}

// Operand type for comparing: unsigned for .lo/.ls/.hi/.hs and .u/.b types, signed for .s, float for .f;
// half types compare widened to f32 (f16 as floats through p2g_fcmpd, bf16 as bits through p2g_fcmp), and f32 under
// exact_f32 as bits through p2g_fcmp.
static std::string cmpOperand(Emitter& E, const Opnd& o, Ty t, bool ftz, bool ieee) {
  if (t.k == Ty::K::F16 || t.k == Ty::K::BF16) {  // widened to f32: p2g_fcmpd (f16) or p2g_fcmp (bf16 bits)
    std::string h = E.src(o, Ty{Ty::K::B, 16});
    if (ftz && t.k == Ty::K::F16) {
      E.use("p2g_h_ftz");
      h = "p2g_h_ftz(" + h + ")";
    }
    if (t.k == Ty::K::BF16) return "((" + h + " & 0xFFFFu) << 16)";
    E.use("p2g_h2f");
    return "p2g_h2f(" + h + ")";  // a float for p2g_fcmpd (emitCompare)
  }
  std::string s = E.src(o, t.k == Ty::K::B ? Ty{Ty::K::U, t.bits} : t);
  if (ftz && t.k == Ty::K::F && t.bits == 32) {
    E.use("p2g_ftz");
    s = "p2g_ftz(" + s + ")";
  }
  if (ieee && t.k == Ty::K::F && t.bits == 32)  // exact_f32: the bits, compared by p2g_fcmp (a flushing device's
    s = bitsOf(s);           // float compare would call two subnormals equal)
  return s;
}

// A float comparison from p2g_fcmp's result `c` (-1, 0, 1, 2 = unordered), PTX's ordered and unordered tests.
static std::string keyCmp(const std::string& op, const std::string& c) {
  if (op == "eq") return c + " == 0";
  if (op == "ne") return "(" + c + " == -1 || " + c + " == 1)";
  if (op == "lt") return c + " == -1";
  if (op == "le") return "(" + c + " == -1 || " + c + " == 0)";
  if (op == "gt") return c + " == 1";
  if (op == "ge") return "(" + c + " == 0 || " + c + " == 1)";
  if (op == "equ") return "(" + c + " == 0 || " + c + " == 2)";
  if (op == "neu") return c + " != 0";
  if (op == "ltu") return "(" + c + " == -1 || " + c + " == 2)";
  if (op == "leu") return c + " != 1";
  if (op == "gtu") return c + " >= 1";
  if (op == "geu") return c + " >= 0";
  if (op == "num") return c + " != 2";
  if (op == "nan") return c + " == 2";
  return "";
}

// set/setp on .f16x2/.bf16x2: each 16-bit lane compared on its own, like scalar halves (f16: p2g_fcmpd of the
// lanes widened; bf16: p2g_fcmp on the f32 bits).
// setp writes the low lane's result to the first predicate and the high lane's to the second (PTX ISA "setp",
// half precision); set writes per lane 1.0 / 0.0 of the half type for a .f16x2/.bf16x2 destination (measured on
// the H200: ops/f16_setp set_ltu_f16x2, 0x3C00 or 0 per lane in all 65536 lanes) and 0xFFFF / 0 per lane for
// .u32/.s32 (PTX ISA: "the result of each operation is packed"; not measured yet).
static void emitPackedCompare(Emitter& E, const ir::Inst& in, const std::string& c, Ty dt, Ty ct) {
  std::string op(in.op);
  bool bf = ct.k == Ty::K::BF16x2, ftz = in.hasMod("ftz") && !bf;
  if (!bf) E.use("p2g_h2f");
  E.use(bf ? "p2g_fcmp" : "p2g_fcmpd");  // as in emitCompare: f16 lanes widened are never subnormal
  if (ftz) E.use("p2g_h_ftz");
  std::string a = E.tmpOf("uint"), b = E.tmpOf("uint");
  E.line(a + " = " + E.src(in.ops[1], Ty{Ty::K::B, 32}) + "; " + b + " = " + E.src(in.ops[2], Ty{Ty::K::B, 32}) + ";");
  std::string bop = in.hasMod("and") ? " && " : in.hasMod("or") ? " || " : in.hasMod("xor") ? " ^^ " : "";
  std::string cval;
  if (!bop.empty()) {
    if (in.ops.size() < 4) {
      E.error(in, "'" + op + "' with a boolean operation needs a predicate operand");
      return;
    }
    cval = E.tmpOf("bool");
    E.line(cval + " = " + E.src(in.ops[3], Ty{Ty::K::Pred, 1}) + ";");
  }
  std::string res[2];
  for (int l = 0; l < 2; ++l) {
    auto half = [&](const std::string& w) {
      std::string h = l ? "(" + w + " >> 16)" : "(" + w + " & 0xFFFFu)";
      if (bf) return "(" + h + " << 16)";
      return "p2g_h2f(" + (ftz ? "p2g_h_ftz(" + h + ")" : h) + ")";
    };
    std::string cv = E.tmpOf("int");
    E.line(cv + " = " + (bf ? "p2g_fcmp(" : "p2g_fcmpd(") + half(a) + ", " + half(b) + ");");
    std::string r = keyCmp(c, cv);
    if (r.empty()) {
      E.error(in, "comparison '" + c + "' is not valid for this type");
      return;
    }
    res[l] = E.tmpOf("bool");
    E.line(res[l] + " = " + (bop.empty() ? r : "(" + r + ")" + bop + cval) + ";");
  }
  const Opnd& dst = in.ops[0];
  if (op == "setp") {
    if (dst.kind != Opnd::Kind::Vec || dst.elems.size() != 2) {
      E.error(in, "setp on a packed half type needs a predicate pair 'p|q'");
      return;
    }
    E.store(dst.elems[0], Ty{Ty::K::Pred, 1}, res[0]);
    E.store(dst.elems[1], Ty{Ty::K::Pred, 1}, res[1]);
    return;
  }
  std::string one = dt.k == Ty::K::F16x2 ? "0x3C00u" : dt.k == Ty::K::BF16x2 ? "0x3F80u" : "0xFFFFu";
  if (dt.k != Ty::K::F16x2 && dt.k != Ty::K::BF16x2 && dt.k != Ty::K::U && dt.k != Ty::K::S && dt.k != Ty::K::B) {
    E.error(in, "set on a packed half type: the destination type must be .f16x2, .bf16x2, .u32 or .s32");
    return;
  }
  E.store(dst, Ty{Ty::K::B, 32}, "((" + res[0] + " ? " + one + " : 0u) | ((" + res[1] + " ? " + one + " : 0u) << 16))");
}

void emitCompare(Emitter& E, const ir::Inst& in) {
  std::string op(in.op);
  Ty t;
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    t = parseTy(*it);
    if (t.k != Ty::K::None) break;
  }
  if (t.k == Ty::K::None) {
    E.error(in, "'" + op + "' needs a type");
    return;
  }
  if (op == "selp") {
    if (in.ops.size() != 4) {
      E.error(in, "selp: expected four operands");
      return;
    }
    Ty st = t.isHalfLike() ? Ty{Ty::K::B, t.bits} : t;
    E.store(in.ops[0], st, E.src(in.ops[3], Ty{Ty::K::Pred, 1}) + " ? " + E.src(in.ops[1], st) + " : " + E.src(in.ops[2], st));
    return;
  }
  if (op == "slct") {
    Ty dt, ct;
    twoTypes(in, dt, ct);
    if (in.ops.size() != 4) {
      E.error(in, "slct: expected four operands");
      return;
    }
    std::string c = E.src(in.ops[3], ct);
    if (ct.k == Ty::K::F && in.hasMod("ftz")) {
      E.use("p2g_ftz");
      c = "p2g_ftz(" + c + ")";
    }
    E.store(in.ops[0], dt, c + " >= " + (ct.k == Ty::K::F ? "0.0" : "0") + " ? " + E.src(in.ops[1], dt) + " : " + E.src(in.ops[2], dt));
    return;
  }
  if (op == "testp") {
    if (in.ops.size() != 2) {
      E.error(in, "testp: expected two operands");
      return;
    }
    std::string x = E.let(t, E.src(in.ops[1], t));
    std::string e;
    bool d = t.bits == 64;
    std::string bits = d ? "doubleBitsToUint64(" + x + ")" : bitsOf(x);
    std::string expMask = d ? "0x7FF0000000000000ul" : "0x7F800000u";
    std::string zero = d ? "0ul" : "0u";
    if (in.hasMod("finite")) e = "!isinf(" + x + ") && !isnan(" + x + ")";
    else if (in.hasMod("infinite")) e = "isinf(" + x + ")";
    else if (in.hasMod("number")) e = "!isnan(" + x + ")";
    else if (in.hasMod("notanumber")) e = "isnan(" + x + ")";
    // NVIDIA's testp.normal is true for +-0 as well (finite and not subnormal; measured on the H200:
    // ops/f32_testp, 281 f32 and 35 f64 lanes with a zero input, all other lanes follow PTX).
    else if (in.hasMod("normal")) e = "(" + bits + " & " + expMask + ") != " + expMask + " && !((" + bits + " & " + expMask + ") == " + zero + " && (" + bits + " << 1) != " + zero + ")";
    else if (in.hasMod("subnormal")) e = "(" + bits + " & " + expMask + ") == " + zero + " && (" + bits + " << 1) != " + zero;
    else {
      E.error(in, "testp: unknown test");
      return;
    }
    E.store(in.ops[0], Ty{Ty::K::Pred, 1}, e);
    return;
  }
  // setp / set
  std::string c = findCmp(in);
  Ty ct = t;
  Ty dt{};
  if (op == "set") {
    Ty a2;
    twoTypes(in, dt, a2);
    ct = a2;
  }
  if (c.empty() || in.ops.size() < 3) {
    E.error(in, "'" + op + "': expected a comparison and operands");
    return;
  }
  if (ct.k == Ty::K::F16x2 || ct.k == Ty::K::BF16x2) return emitPackedCompare(E, in, c, op == "set" ? dt : Ty{}, ct);
  if (ct.k == Ty::K::S && (c == "lo" || c == "ls" || c == "hi" || c == "hs")) ct.k = Ty::K::U;
  bool ieee = in.hasMod(kMarkIeee);
  bool keyed = ct.k == Ty::K::F16 || ct.k == Ty::K::BF16 || (ieee && ct.k == Ty::K::F && ct.bits == 32);
  Ty cmpTy = keyed ? Ty{Ty::K::U, 32} : ct;
  // Without exact_nan: the naive GLSL comparison (ordered, and an unordered test taken as the ordered one).
  if (ct.k == Ty::K::F && !in.hasMod(kMarkNan) && c.size() == 3 && c.back() == 'u') c.pop_back();
  if (cmpTy.k == Ty::K::B) cmpTy.k = Ty::K::U;
  bool ftz = in.hasMod("ftz");
  // operands: setp d[|q], a, b[, c]; the destination may be a pair (the parser keeps "p|q" as a Vec of two)
  size_t ai = 1;
  const Opnd& dst = in.ops[0];
  // Operands read once (integer and ordered float tests) go into the comparison as they are; the NaN tests read
  // them twice, from locals.
  bool once = keyed || cmpTy.k != Ty::K::F || !(c == "ne" || c == "equ" || c == "num" || c == "nan");
  std::string av = cmpOperand(E, in.ops[ai], ct, ftz, ieee), bv = cmpOperand(E, in.ops[ai + 1], ct, ftz, ieee);
  if (!once) {
    av = E.letOf(glslOf(cmpTy), av);
    bv = E.letOf(glslOf(cmpTy), bv);
  } else if (keyed) {  // p2g_fcmp's arguments: any expression
  } else {
    auto paren = [](const std::string& x) {
      if (x.find(' ') == std::string::npos) return x;
      int depth = 0;  // already one parenthesised group?
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] == '(') ++depth;
        else if (x[i] == ')' && --depth == 0 && i + 1 < x.size()) return "(" + x + ")";
        else if (depth == 0) return "(" + x + ")";
      }
      return x;
    };
    av = paren(av);
    bv = paren(bv);
  }
  std::string r;
  if (keyed) {
    // f16 operands widened to f32 are never subnormal (the smallest f16 subnormal, 2^-24, is an f32 normal), so
    // every device's own compares order them as IEEE does: p2g_fcmpd, the device's <, > and isnan() (exact on
    // every device in both modes). bf16 widened can be an f32 subnormal, which a flushing device would call
    // zero, and exact f32 may be subnormal too: p2g_fcmp on the bits.
    bool half = ct.k == Ty::K::F16;
    std::string f = half ? "p2g_fcmpd" : "p2g_fcmp";
    E.use(f);
    std::string cv = E.tmpOf("int");
    E.line(cv + " = " + f + "(" + av + ", " + bv + ");");
    r = keyCmp(c, cv);
  } else {
    r = cmpExpr(E, c, cmpTy, av, bv);
  }
  if (r.empty()) {
    E.error(in, "comparison '" + c + "' is not valid for this type");
    return;
  }
  std::string comb;
  std::string bop = in.hasMod("and") ? " && " : in.hasMod("or") ? " || " : in.hasMod("xor") ? " ^^ " : "";
  std::string cval;
  if (!bop.empty()) {
    if (in.ops.size() < ai + 3) {
      E.error(in, "'" + op + "' with a boolean operation needs a predicate operand");
      return;
    }
    cval = E.letOf("bool", E.src(in.ops[ai + 2], Ty{Ty::K::Pred, 1}));
  }
  // the comparison is read twice for a destination pair and for set's float result; once otherwise
  bool single = op == "setp" && !(dst.kind == Opnd::Kind::Vec && dst.elems.size() == 2);
  std::string rv = single ? r : E.letOf("bool", r);
  auto combine = [&](const std::string& x) { return bop.empty() ? x : "(" + x + ")" + bop + cval; };
  if (op == "setp") {
    if (dst.kind == Opnd::Kind::Vec && dst.elems.size() == 2) {
      E.store(dst.elems[0], Ty{Ty::K::Pred, 1}, combine(rv));
      E.store(dst.elems[1], Ty{Ty::K::Pred, 1}, combine("!" + rv));
    } else {
      E.store(dst, Ty{Ty::K::Pred, 1}, combine(rv));
    }
    return;
  }
  // set: integer all-ones / zero, or 1.0 / 0.0
  std::string cond = combine(rv);
  if (dt.k == Ty::K::F16 || dt.k == Ty::K::BF16)  // set.*.f16.f16: 1.0 of the half type (PTX ISA "set", half)
    E.store(dst, Ty{Ty::K::B, 16}, "(" + cond + ") ? " + (dt.k == Ty::K::F16 ? "0x3C00u" : "0x3F80u") + " : 0u");
  else if (dt.k == Ty::K::F) E.store(dst, dt, "(" + cond + ") ? 1.0 : 0.0");
  else if (dt.k == Ty::K::S) E.store(dst, dt, "(" + cond + ") ? -1 : 0");
  else E.store(dst, Ty{Ty::K::U, 32}, "(" + cond + ") ? 0xFFFFFFFFu : 0u");
}

}  // namespace p2g
