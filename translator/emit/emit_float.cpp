// Floating-point arithmetic (f32, f64, f16, bf16 and their x2 forms).
//
// f32 add/sub/mul in round-to-nearest use the device's IEEE operations on `precise` values (exact wherever the
// device keeps f32 denormals: lavapipe does, NVIDIA's Vulkan driver does not, HAZARDS.md #5). Everything whose
// rounding no GLSL operation pins down goes through one mechanism: compute the exact result, or its round-to-odd
// double (p2g_odd_sum), and round that once in integer code (p2g_narrow) in the requested mode. That covers fma
// (#3), the contracted mul+add pairs (#4), directed rounding (#6), and all half-precision arithmetic (#1, #2).
#include "emitter.h"

namespace p2g {

using ir::Opnd;

static Ty lastTy(const ir::Inst& in) {
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    Ty t = parseTy(*it);
    if (t.k != Ty::K::None) return t;
  }
  return {};
}

static int roundMode(const ir::Inst& in) {
  if (in.hasMod("rz")) return 1;
  if (in.hasMod("rm")) return 2;
  if (in.hasMod("rp")) return 3;
  return 0;
}

static bool explicitRounding(const ir::Inst& in) {
  return in.hasMod("rn") || in.hasMod("rz") || in.hasMod("rm") || in.hasMod("rp");
}

// ---- f32 ----
static void emitF32(Emitter& E, const ir::Inst& in) {
  Ty f{Ty::K::F, 32};
  std::string op(in.op);
  bool ftz = in.hasMod("ftz"), sat = in.hasMod("sat");
  int mode = roundMode(in);
  auto arg = [&](size_t i) {
    std::string s = E.src(in.ops[i], f);
    if (ftz) {
      E.use("p2g_ftz");
      s = "p2g_ftz(" + s + ")";
    }
    return s;
  };
  auto finish = [&](std::string e, bool canon) {
    if (canon) {
      E.use("p2g_canon");
      e = "p2g_canon(" + e + ")";
    }
    if (ftz) {
      E.use("p2g_ftz");
      e = "p2g_ftz(" + e + ")";
    }
    if (sat) {
      E.use("p2g_sat");
      e = "p2g_sat(" + e + ")";
    }
    E.store(in.ops[0], f, e);
  };
  size_t n = in.ops.size();
  if ((op == "add" || op == "sub" || op == "mul") && n == 3) {
    std::string o = op == "add" ? " + " : op == "sub" ? " - " : " * ";
    if (mode == 0) return finish(arg(1) + o + arg(2), true);
    // directed rounding: the exact sum/product rounded to odd in double, then rounded once
    E.use("p2g_odd_sum");
    E.use("p2g_f64_to_f32");
    E.use("p2g_canon");
    std::string x;
    if (op == "mul") x = "double(" + arg(1) + ") * double(" + arg(2) + ")";  // exact
    else x = "p2g_odd_sum(double(" + arg(1) + "), " + (op == "sub" ? "-" : "") + "double(" + arg(2) + "))";
    return finish("p2g_f64_to_f32(" + x + ", " + std::to_string(mode) + ")", true);
  }
  if ((op == "fma" || op == "mad") && n == 4) {
    E.use("p2g_fma");
    return finish("p2g_fma(" + arg(1) + ", " + arg(2) + ", " + arg(3) + ", " + std::to_string(mode) + ")", true);
  }
  if (op == "div" && n == 3) {
    if (in.hasMod("approx") || in.hasMod("full")) {
      E.warnInexact(in, "div.approx/div.full use NVIDIA's reciprocal approximation (HAZARDS.md #7, #8)");
      return finish(arg(1) + " / " + arg(2), true);
    }
    if (mode != 0) {
      E.warnInexact(in, "div with directed rounding (HAZARDS.md #6)");
    }
    E.use("p2g_div_rn");
    return finish("p2g_div_rn(" + arg(1) + ", " + arg(2) + ")", true);
  }
  if (op == "rcp" && n == 2) {
    if (in.hasMod("approx")) {
      E.warnInexact(in, "rcp.approx is NVIDIA's SFU table (HAZARDS.md #8)");
      return finish("1.0 / " + arg(1), true);
    }
    if (mode != 0) E.warnInexact(in, "rcp with directed rounding (HAZARDS.md #6)");
    E.use("p2g_div_rn");
    return finish("p2g_div_rn(1.0, " + arg(1) + ")", true);
  }
  if (op == "sqrt" && n == 2) {
    if (in.hasMod("approx")) {
      E.warnInexact(in, "sqrt.approx is NVIDIA's SFU (HAZARDS.md #8)");
      return finish("sqrt(" + arg(1) + ")", true);
    }
    if (mode != 0) E.warnInexact(in, "sqrt with directed rounding (HAZARDS.md #6)");
    E.use("p2g_sqrt_rn");
    return finish("p2g_sqrt_rn(" + arg(1) + ")", true);
  }
  if (n == 2 && (op == "rsqrt" || op == "ex2" || op == "lg2" || op == "sin" || op == "cos" || op == "tanh")) {
    E.warnInexact(in, "'" + op + ".approx' is NVIDIA's SFU approximation (HAZARDS.md #8)");
    std::string fn = op == "rsqrt" ? "inversesqrt" : op == "ex2" ? "exp2" : op == "lg2" ? "log2" : op;
    return finish(fn + "(" + arg(1) + ")", true);
  }
  if ((op == "min" || op == "max") && n >= 3) {
    if (in.hasMod("NaN")) {
      E.use("p2g_canon");
      std::string a = E.tmp(f), b = E.tmp(f);
      E.line(a + " = " + arg(1) + "; " + b + " = " + arg(2) + ";");
      E.use(op == "min" ? "p2g_fmin" : "p2g_fmax");
      return finish("(isnan(" + a + ") || isnan(" + b + ")) ? uintBitsToFloat(0x7FFFFFFFu) : p2g_f" + op + "(" + a + ", " + b + ")", false);
    }
    E.use(op == "min" ? "p2g_fmin" : "p2g_fmax");
    std::string e = "p2g_f" + op + "(" + arg(1) + ", " + arg(2) + ")";
    if (n == 4) e = "p2g_f" + op + "(" + e + ", " + arg(3) + ")";
    return finish(e, false);
  }
  if ((op == "abs" || op == "neg") && n == 2) {
    // Sign-bit operations, but a NaN comes out canonical: measured on the H200, neg.f32 of a NaN with a payload
    // gives 0x7FFFFFFF (ptxas lowers it to an FADD), ptx_corpus/basic/f32_bits_convert row 23.
    std::string x = "floatBitsToUint(" + arg(1) + ")";
    return finish(op == "abs" ? "uintBitsToFloat(" + x + " & 0x7FFFFFFFu)" : "uintBitsToFloat(" + x + " ^ 0x80000000u)", true);
  }
  if (op == "copysign" && n == 3) {
    // copysign d, a, b: b's magnitude with a's sign
    return finish("uintBitsToFloat((floatBitsToUint(" + arg(1) + ") & 0x80000000u) | (floatBitsToUint(" + arg(2) +
                      ") & 0x7FFFFFFFu))", false);
  }
  E.error(in, "unsupported f32 form of '" + op + "'");
}

// ---- f64: IEEE double operations; the rounding of `/` and sqrt is the device's (correct on lavapipe) ----
static void emitF64(Emitter& E, const ir::Inst& in) {
  Ty d{Ty::K::F, 64};
  std::string op(in.op);
  auto arg = [&](size_t i) { return E.src(in.ops[i], d); };
  size_t n = in.ops.size();
  E.feature("float64");
  if (roundMode(in) != 0) E.warnInexact(in, "f64 with directed rounding (HAZARDS.md #6)");
  auto canon = [&](const std::string& e) {
    std::string t = E.tmp(d);
    E.line(t + " = " + e + ";");
    return "(isnan(" + t + ") ? uint64BitsToDouble(0x7FFFFFFFFFFFFFFFul) : " + t + ")";
  };
  if ((op == "add" || op == "sub" || op == "mul") && n == 3) {
    std::string o = op == "add" ? " + " : op == "sub" ? " - " : " * ";
    E.store(in.ops[0], d, canon(arg(1) + o + arg(2)));
    return;
  }
  if ((op == "fma" || op == "mad") && n == 4) {
    E.warnInexact(in, "fma.f64 uses the device's fma(), which lavapipe does not fuse (HAZARDS.md #3)");
    E.store(in.ops[0], d, canon("fma(" + arg(1) + ", " + arg(2) + ", " + arg(3) + ")"));
    return;
  }
  if (op == "div" && n == 3) {
    E.store(in.ops[0], d, canon(arg(1) + " / " + arg(2)));
    return;
  }
  if (op == "rcp" && n == 2) {
    E.store(in.ops[0], d, canon("1.0lf / " + arg(1)));
    return;
  }
  if (op == "sqrt" && n == 2) {
    E.store(in.ops[0], d, canon("sqrt(" + arg(1) + ")"));
    return;
  }
  if ((op == "min" || op == "max") && n == 3) {
    E.use(op == "min" ? "p2g_dmin" : "p2g_dmax");
    E.store(in.ops[0], d, "p2g_d" + op + "(" + arg(1) + ", " + arg(2) + ")");
    return;
  }
  if ((op == "abs" || op == "neg") && n == 2) {
    std::string x = "doubleBitsToUint64(" + arg(1) + ")";
    E.store(in.ops[0], d, op == "abs" ? "uint64BitsToDouble(" + x + " & 0x7FFFFFFFFFFFFFFFul)"
                                      : "uint64BitsToDouble(" + x + " ^ 0x8000000000000000ul)");
    return;
  }
  E.error(in, "unsupported f64 form of '" + op + "'");
}

// ---- f16 / bf16 (scalar and x2): exact in double, one rounding in integer code ----
static void emitHalf(Emitter& E, const ir::Inst& in, Ty t) {
  std::string op(in.op);
  bool bf = t.k == Ty::K::BF16 || t.k == Ty::K::BF16x2;
  bool x2 = t.k == Ty::K::F16x2 || t.k == Ty::K::BF16x2;
  bool ftz = in.hasMod("ftz"), sat = in.hasMod("sat"), relu = in.hasMod("relu");
  int mode = roundMode(in);
  if (op == "mul" || op == "add" || op == "sub" || op == "fma") {
    // PTX: f16 mul/add/sub without a rounding modifier may be contracted by ptxas like f32 (HAZARDS.md #4);
    // passes/contract decides, so here rounding is always a single RN.
  }
  size_t n = in.ops.size();
  std::string toD = bf ? "p2g_bf2d" : "p2g_h2d";
  std::string fromD = bf ? "p2g_d2bf" : "p2g_d2h";
  E.use(toD);
  E.use(fromD);
  if (ftz) E.use("p2g_h_ftz");
  std::vector<std::string> srcs;
  for (size_t i = 1; i < n; ++i) {
    std::string v = E.tmpOf("uint");
    E.line(v + " = " + E.src(in.ops[i], Ty{Ty::K::B, x2 ? 32u : 16u}) + ";");
    srcs.push_back(v);
  }
  auto lane = [&](int l) -> std::string {
    std::vector<std::string> a;
    for (auto& s : srcs) {
      std::string h = l ? "(" + s + " >> 16)" : "(" + s + " & 0xFFFFu)";
      if (ftz && !bf) h = "p2g_h_ftz(" + h + ")";
      a.push_back(toD + "(" + h + ")");
    }
    std::string e;
    std::string m = std::to_string(mode);
    if ((op == "add" || op == "sub" || op == "mul") && a.size() == 2) {
      E.use("p2g_odd_sum");
      if (op == "mul") e = a[0] + " * " + a[1];  // exact: 2x(8..11)-bit significands
      else e = "p2g_odd_sum(" + a[0] + ", " + (op == "sub" ? "-" : "") + a[1] + ")";
      e = fromD + "(" + e + ", " + m + ")";
    } else if ((op == "fma") && a.size() == 3) {
      E.use("p2g_odd_sum");
      e = fromD + "(p2g_odd_sum(" + a[0] + " * " + a[1] + ", " + a[2] + "), " + m + ")";
    } else if ((op == "min" || op == "max") && a.size() == 2) {
      E.use(op == "min" ? "p2g_dmin" : "p2g_dmax");
      std::string r = "p2g_d" + op + "(" + a[0] + ", " + a[1] + ")";
      if (in.hasMod("NaN")) r = "((isnan(" + a[0] + ") || isnan(" + a[1] + ")) ? uint64BitsToDouble(0x7FF8000000000000ul) : " + r + ")";
      e = fromD + "(" + r + ", 0)";
    } else if (op == "neg" && a.size() == 1) {
      std::string h = l ? "(" + srcs[0] + " >> 16)" : "(" + srcs[0] + " & 0xFFFFu)";
      return "((" + h + ") ^ 0x8000u)";
    } else if (op == "abs" && a.size() == 1) {
      std::string h = l ? "(" + srcs[0] + " >> 16)" : "(" + srcs[0] + " & 0xFFFFu)";
      return "((" + h + ") & 0x7FFFu)";
    } else {
      return "";
    }
    if (ftz && !bf) e = "p2g_h_ftz(" + e + ")";
    if (sat) {
      // clamp to [0, 1]: NaN -> +0
      std::string v = E.tmpOf("uint");
      E.line(v + " = " + e + ";");
      std::string one = bf ? "0x3F80u" : "0x3C00u";
      std::string dv = toD + "(" + v + ")";
      e = "(" + dv + " > 0.0lf ? (" + dv + " >= 1.0lf ? " + one + " : " + v + ") : 0u)";
    }
    if (relu) {
      std::string v = E.tmpOf("uint");
      E.line(v + " = " + e + ";");
      e = "((" + v + " & 0x7FFFu) > " + (bf ? "0x7F80u" : "0x7C00u") + " ? 0x7FFFu : ((" + v + " & 0x8000u) != 0u ? 0u : " + v + "))";
    }
    return e;
  };
  std::string lo = lane(0);
  if (lo.empty()) {
    E.error(in, "unsupported half-precision form of '" + op + "'");
    return;
  }
  if (!x2) {
    E.store(in.ops[0], Ty{Ty::K::B, 16}, lo);
    return;
  }
  std::string l0 = E.tmpOf("uint");
  E.line(l0 + " = " + lo + ";");
  std::string hi = lane(1);
  E.store(in.ops[0], Ty{Ty::K::B, 32}, "(" + l0 + " | ((" + hi + ") << 16))");
}

void emitFloatArith(Emitter& E, const ir::Inst& in) {
  Ty t;
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    t = parseTy(*it);
    if (t.k != Ty::K::None) break;
  }
  if (in.ops.empty()) {
    E.error(in, "missing operands");
    return;
  }
  if (t.k == Ty::K::F && t.bits == 32) return emitF32(E, in);
  if (t.k == Ty::K::F && t.bits == 64) return emitF64(E, in);
  if (t.isHalfLike()) return emitHalf(E, in, t);
  E.error(in, "unsupported type for '" + std::string(in.op) + "'");
}

}  // namespace p2g
