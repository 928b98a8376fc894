// Floating-point arithmetic (f32, f64, f16, bf16 and their x2 forms).
//
// Exact f32 and half-precision arithmetic uses no doubles (issue "Exact and fast", item 7; f32_prelude.cpp says why
// each step is exact on every device): add/sub/mul.rn run the device's own f32 operation behind a guard that sends
// subnormal operands and results to the integer routine p2g_sf32; fma, directed rounding, div and sqrt run integer
// code (p2g_sf32, p2g_div32, p2g_sqrt32) rounding once; f16 products and sums are exact or rounded to odd in f32
// and rounded once to f16 in integer code; bf16 arithmetic runs p2g_sf32 rounding to odd. f64 instructions use the
// device's doubles, or the integer f64 helpers where a pass asks for exactness.
#include "emitter.h"
#include "exact_marks.h"
#include "glsl_text.h"

namespace p2g {

using ir::Opnd;

static int roundMode(const ir::Inst& in) {
  if (in.hasMod("rz")) return 1;
  if (in.hasMod("rm")) return 2;
  if (in.hasMod("rp")) return 3;
  return 0;
}

// ---- f32 ----
// The passes in passes/exact_*.cpp mark what must be exact (exact_marks.h); an unmarked instruction gets the
// device's own operation. Exact lowerings use the device's f32 operation only where its result is IEEE's whatever
// the device's subnormal handling (guarded), and integer code for everything else.
static void emitF32(Emitter& E, const ir::Inst& in) {
  Ty f{Ty::K::F, 32};
  std::string op(in.op);
  bool ftz = in.hasMod("ftz"), sat = in.hasMod("sat");
  bool ieee = in.hasMod(kMarkIeee), nanRules = in.hasMod(kMarkNan);
  int mode = in.hasMod(kMarkRound) ? roundMode(in) : 0;
  if (roundMode(in) != 0 && !in.hasMod(kMarkRound))
    E.warnInexact(in, "rounding modifier ignored: pass exact_rounding is off (HAZARDS.md #6)");
  auto arg = [&](size_t i) {
    std::string s = E.src(in.ops[i], f);
    if (ftz) {
      E.use("p2g_ftz");
      s = "p2g_ftz(" + s + ")";
    }
    return s;
  };
  // `canon`: the result's NaN is made 0x7FFFFFFF; `device`: it is the device's own f32 add/sub/mul/fma (native
  // mode), whose NaN results are 0x7FFFFFFF already where the fact P2G_F32_FAST holds (p2g_canon_dev)
  auto finish = [&](std::string e, bool canon, bool device = false) {
    if (canon && nanRules) {
      const char* fn = device ? "p2g_canon_dev" : "p2g_canon";
      E.use(fn);
      e = std::string(fn) + "(" + e + ")";
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
  std::string ms = std::to_string(mode);
  if ((op == "add" || op == "sub" || op == "mul") && n == 3) {
    if (!ieee && mode == 0) {
      std::string o = op == "add" ? " + " : op == "sub" ? " - " : " * ";
      std::string t = E.tmp(f);
      E.line("precise " + glslOf(f) + " " + t + "_p = " + arg(1) + o + arg(2) + "; " + t + " = " + t + "_p;");
      return finish(t, true, true);
    }
    // exact, without doubles (f32_prelude.cpp): round to nearest takes the device's operation behind a guard that
    // sends subnormal operands and results to the integer routine p2g_sf32; directed rounding runs p2g_sf32.
    std::string fz = ftz ? "true" : "false";
    if (mode == 0) {
      std::string fn = op == "add" ? "p2g_fadd" : op == "sub" ? "p2g_fsub" : "p2g_fmul";
      E.use(op == "sub" ? "p2g_fadd" : fn);
      return finish(fn + "(" + arg(1) + ", " + arg(2) + ", " + fz + ")", false);
    }
    E.use("p2g_ffma");
    std::string b = arg(2);
    if (op == "sub") b = "uintBitsToFloat(floatBitsToUint(" + b + ") ^ 0x80000000u)";
    if (op == "mul")  // plus a zero of the product's sign: every product unchanged, zero products keep their sign
      return finish("p2g_ffma(" + arg(1) + ", " + b + ", uintBitsToFloat((floatBitsToUint(" + arg(1) +
                        ") ^ floatBitsToUint(" + b + ")) & 0x80000000u), " + ms + ", " + fz + ")", false);
    return finish("p2g_ffma(" + arg(1) + ", 1.0, " + b + ", " + ms + ", " + fz + ")", false);
  }
  if ((op == "fma" || op == "mad") && n == 4) {
    if (!in.hasMod(kMarkFused) && mode == 0)
      return finish("fma(" + arg(1) + ", " + arg(2) + ", " + arg(3) + ")", true, true);
    // one rounding in integer code (f32_prelude.cpp): GLSL's fma() is not fused on lavapipe (HAZARDS.md #3)
    E.use("p2g_ffma");
    return finish("p2g_ffma(" + arg(1) + ", " + arg(2) + ", " + arg(3) + ", " + ms + ", " + (ftz ? "true" : "false") + ")",
                  false);
  }
  // NVIDIA's SFU approximations by their exact models (pass exact_sfu, sfu_prelude.cpp, sfu_prelude2.cpp): bits
  // in, bits out; the model applies the instruction's .ftz rule itself (sin/cos: both forms are one; tanh has none).
  if (in.hasMod(kMarkSfu) && n == 2 &&
      (op == "rcp" || op == "rsqrt" || op == "sqrt" || op == "ex2" || op == "lg2" || op == "sin" || op == "cos" ||
       op == "tanh")) {
    std::string fn = "p2g_sfu_" + op;
    bool noFtzArg = op == "sin" || op == "cos" || op == "tanh";
    E.use(fn);
    E.store(in.ops[0], f, "uintBitsToFloat(" + fn + "(" + bitsOf(E.src(in.ops[1], f)) +
                              (noFtzArg ? "" : ftz ? ", true" : ", false") + "))");
    return;
  }
  bool crdiv = in.hasMod(kMarkCrDiv);
  if ((op == "div" || op == "rcp") && n == (op == "div" ? 3u : 2u)) {
    if (op == "div" && in.hasMod(kMarkSfu) && (in.hasMod("approx") || in.hasMod("full"))) {
      // NVIDIA's sequences around rcp.approx.ftz (div_prelude.cpp, sfu_div.h: 0 of 8192 values differ from the
      // H200 per form), on the operands' bits; each helper applies .ftz itself and returns canonical NaNs.
      auto bits = [&](size_t i) {
        const Opnd& o = in.ops[i];
        return o.kind == Opnd::Kind::FImm ? "floatBitsToUint(" + E.src(o, f) + ")" : E.src(o, Ty{Ty::K::U, 32});
      };
      std::string fn = in.hasMod("full") ? "p2g_div_full" : "p2g_div_approx";
      E.use(fn);
      return E.store(in.ops[0], Ty{Ty::K::U, 32},
                     fn + "(" + bits(1) + ", " + bits(2) + ", " + (ftz ? "true" : "false") + ")");
    }
    std::string num = op == "div" ? arg(1) : "1.0", den = arg(op == "div" ? 2 : 1);
    if (in.hasMod("approx") || in.hasMod("full")) {
      E.warnInexact(in, op + ".approx/.full use NVIDIA's reciprocal approximation (HAZARDS.md #7, #8)");
      return finish(num + " / " + den, true);
    }
    if (!crdiv) return finish(num + " / " + den, true);
    E.use("p2g_div32");
    return finish("p2g_div32(" + num + ", " + den + ", " + ms + (ftz ? ", true)" : ", false)"), false);
  }
  if (op == "sqrt" && n == 2) {
    if (in.hasMod("approx")) {
      E.warnInexact(in, "sqrt.approx is NVIDIA's SFU (HAZARDS.md #8)");
      return finish("sqrt(" + arg(1) + ")", true);
    }
    if (!crdiv) return finish("sqrt(" + arg(1) + ")", true);
    E.use("p2g_sqrt32");
    return finish("p2g_sqrt32(" + arg(1) + ", " + ms + (ftz ? ", true)" : ", false)"), false);
  }
  if (n == 2 && (op == "rsqrt" || op == "ex2" || op == "lg2" || op == "sin" || op == "cos" || op == "tanh")) {
    E.warnInexact(in, "'" + op + ".approx' is NVIDIA's SFU approximation (HAZARDS.md #8)");
    std::string fn = op == "rsqrt" ? "inversesqrt" : op == "ex2" ? "exp2" : op == "lg2" ? "log2" : op;
    return finish(fn + "(" + arg(1) + ")", true);
  }
  if ((op == "min" || op == "max") && n >= 3) {
    if (!ieee && !nanRules) {
      std::string e = op + "(" + arg(1) + ", " + arg(2) + ")";
      if (n == 4) e = op + "(" + e + ", " + arg(3) + ")";
      return finish(e, false);
    }
    // on bits: a flushing device still orders denormals, -0 < +0, NaN rules of PTX
    std::string fn = "p2g_f" + op + (in.hasMod("NaN") ? "_nan" : "");
    if (!ieee && !in.hasMod("NaN") && !in.hasMod("xorsign")) {
      // native mode (subnormals are the device's anyway): the device's min/max where the fact P2G_F32_MINMAX
      // holds, which keeps PTX's NaN and -0/+0 rules (p2g_nmin)
      E.use("p2g_nminmax");
      fn = "p2g_n" + op;
    } else if (in.hasMod("xorsign")) {
      E.use("p2g_xorsign");
      fn = "p2g_" + op + "_xorsign";
      if (in.hasMod("NaN")) fn += "_nan";
    } else {
      E.use(fn);
    }
    std::string e = fn + "(" + arg(1) + ", " + arg(2) + ")";
    if (n == 4) e = fn + "(" + e + ", " + arg(3) + ")";
    return finish(e, false);
  }
  if ((op == "abs" || op == "neg") && n == 2) {
    // Sign-bit operations, but a NaN comes out canonical: measured on the H200, neg.f32 of a NaN with a payload
    // gives 0x7FFFFFFF (ptxas lowers it to an FADD), ptx_corpus/basic/f32_bits_convert row 23.
    // Read only as operands of f32 arithmetic (pass exact_nan's kMarkSignOnly), whose NaN results are canonical
    // whatever the operand's sign: the plain sign operation, which the device folds into the consumer. Exact
    // mode keeps the bit form, which the guarded regions recognise (region_guard.cpp, negation).
    if (in.hasMod(kMarkSignOnly)) {
      std::string a = arg(1);
      return finish(op == "abs" ? "abs(" + a + ")" : negatedText(a), false);
    }
    std::string x = bitsOf(arg(1));
    return finish(op == "abs" ? "uintBitsToFloat(" + x + " & 0x7FFFFFFFu)" : "uintBitsToFloat(" + x + " ^ 0x80000000u)", true);
  }
  if (op == "copysign" && n == 3) {
    // copysign d, a, b: b's magnitude with a's sign
    return finish("uintBitsToFloat((floatBitsToUint(" + arg(1) + ") & 0x80000000u) | (floatBitsToUint(" + arg(2) +
                      ") & 0x7FFFFFFFu))", false);
  }
  E.error(in, "unsupported f32 form of '" + op + "'");
}

// ---- f64: the device's double operations, or integer arithmetic where the passes ask for exactness ----
// Marked by exact_rounding (.rz/.rm/.rp), exact_fma (fma/mad: lavapipe's fma() on doubles is not fused) or
// exact_divsqrt (div/rcp/sqrt: Vulkan leaves the precision of double division and sqrt open), an operation is
// computed by the integer helpers p2g_dadd_r/dmul_r/dfma_r/ddiv_r/dsqrt_r (prelude.cpp), which round once in the
// requested mode (tests/ops/f64_ref checks them against the host's IEEE doubles). Unmarked add/sub/mul.rn use
// the device's IEEE double operations.
// With exact_nan's mark, NaN results follow NVIDIA's double units (p2g_dnan2/3, measured on the H200): a NaN
// operand comes back quiet with its payload and sign, the first NaN in the order a, b (fma: a, c, b); a NaN made
// from numbers is 0xFFF8000000000000. Unmarked, the device's own NaN (payloads unspecified in Vulkan).
static void emitF64(Emitter& E, const ir::Inst& in) {
  Ty d{Ty::K::F, 64};
  std::string op(in.op);
  auto arg = [&](size_t i) { return E.src(in.ops[i], d); };
  size_t n = in.ops.size();
  bool nanRules = in.hasMod(kMarkNan);
  E.feature("float64");
  int mode = in.hasMod(kMarkRound) ? roundMode(in) : 0;
  if (roundMode(in) != 0 && !in.hasMod(kMarkRound))
    E.warnInexact(in, "rounding modifier ignored: pass exact_rounding is off (HAZARDS.md #6)");
  std::string ms = std::to_string(mode);
  bool exact = mode != 0 || in.hasMod(kMarkFused) || in.hasMod(kMarkCrDiv);
  // the operands go to temporaries so that the NaN rule sees the same values as the operation
  auto nanned = [&](const std::string& opExpr, const std::vector<std::string>& ops) {
    std::string t = E.tmp(d);
    E.line(t + " = " + opExpr + ";");
    if (!nanRules) return t;
    if (ops.size() == 1) {
      E.use("p2g_dnan1");
      return "p2g_dnan1(" + t + ", " + ops[0] + ")";
    }
    if (ops.size() == 2) {
      E.use("p2g_dnan2");
      return "p2g_dnan2(" + t + ", " + ops[0] + ", " + ops[1] + ")";
    }
    E.use("p2g_dnan2");
    return "p2g_dnan2(" + t + ", " + ops[0] + ", p2g_dnan2(" + ops[2] + ", " + ops[2] + ", " + ops[1] + "))";
  };
  auto helper = [&](const std::string& fn, const std::string& args) {
    E.use(fn);
    return fn + "(" + args + ", " + ms + ")";
  };
  std::vector<std::string> v;
  for (size_t i = 1; i < n; ++i) {
    std::string t = E.tmp(d);
    E.line(t + " = " + arg(i) + ";");
    v.push_back(t);
  }
  if ((op == "add" || op == "sub" || op == "mul") && n == 3) {
    std::string e;
    if (!exact) e = v[0] + (op == "add" ? " + " : op == "sub" ? " - " : " * ") + v[1];
    else if (op == "mul") e = helper("p2g_dmul_r", v[0] + ", " + v[1]);
    else if (op == "add") e = helper("p2g_dadd_r", v[0] + ", " + v[1]);
    else e = helper("p2g_dadd_r", v[0] + ", uint64BitsToDouble(doubleBitsToUint64(" + v[1] + ") ^ 0x8000000000000000ul)");
    E.store(in.ops[0], d, nanned(e, v));
    return;
  }
  if ((op == "fma" || op == "mad") && n == 4) {
    std::string e = "fma(" + v[0] + ", " + v[1] + ", " + v[2] + ")";
    if (exact) e = helper("p2g_dfma_r", v[0] + ", " + v[1] + ", " + v[2]);
    else E.warnInexact(in, "fma.f64 uses the device's fma(), which lavapipe does not fuse (HAZARDS.md #3)");
    E.store(in.ops[0], d, nanned(e, v));
    return;
  }
  bool approx = in.hasMod("approx");
  if (approx && (op == "rcp" || op == "sqrt"))
    E.warnInexact(in, "'" + op + ".approx.f64' is NVIDIA's SFU approximation (HAZARDS.md #8)");
  if (op == "div" && n == 3) {
    std::string e = exact ? helper("p2g_ddiv_r", v[0] + ", " + v[1]) : v[0] + " / " + v[1];
    E.store(in.ops[0], d, nanned(e, v));
    return;
  }
  if (op == "rsqrt" && approx && n == 2) {
    // NVIDIA's sequence around MUFU.RSQ64H, measured on the H200 (sfu_prelude.cpp p2g_rsqrt64, docs/SFU.md)
    E.use("p2g_rsqrt64");
    E.store(in.ops[0], d, "p2g_rsqrt64(" + v[0] + ")");
    return;
  }
  if (op == "rcp" && n == 2) {
    std::string e = exact && !approx ? helper("p2g_ddiv_r", "uint64BitsToDouble(0x3FF0000000000000ul), " + v[0]) : "1.0lf / " + v[0];
    E.store(in.ops[0], d, nanned(e, v));
    return;
  }
  if (op == "sqrt" && n == 2) {
    std::string e = exact && !approx ? helper("p2g_dsqrt_r", v[0]) : "sqrt(" + v[0] + ")";
    E.store(in.ops[0], d, nanned(e, v));
    return;
  }
  if ((op == "min" || op == "max") && n == 3) {
    E.use(op == "min" ? "p2g_dmin" : "p2g_dmax");
    E.store(in.ops[0], d, "p2g_d" + op + "(" + v[0] + ", " + v[1] + ")");
    return;
  }
  if ((op == "abs" || op == "neg") && n == 2) {
    std::string x = "doubleBitsToUint64(" + v[0] + ")";
    std::string e = op == "abs" ? "uint64BitsToDouble(" + x + " & 0x7FFFFFFFFFFFFFFFul)"
                                : "uint64BitsToDouble(" + x + " ^ 0x8000000000000000ul)";
    // neg.f64 of a NaN gives the NaN quiet, sign and payload unchanged (ptxas uses a DADD; measured on the H200:
    // ops/f64_misc neg, 91 NaN lanes). abs.f64 is not measured and stays a sign operation.
    if (op == "neg" && nanRules) {
      E.use("p2g_dnan1");
      e = "p2g_dnan1(" + e + ", " + v[0] + ")";
    }
    E.store(in.ops[0], d, e);
    return;
  }
  E.error(in, "unsupported f64 form of '" + op + "'");
}

// ---- f16 / bf16 (scalar and x2): exact or rounded to odd in f32 (bf16: in integer code), one rounding in integer
// code (f32_prelude.cpp says why each step is exact on every device; no doubles) ----
static void emitHalf(Emitter& E, const ir::Inst& in, Ty t) {
  std::string op(in.op);
  bool bf = t.k == Ty::K::BF16 || t.k == Ty::K::BF16x2;
  bool x2 = t.k == Ty::K::F16x2 || t.k == Ty::K::BF16x2;
  bool ftz = in.hasMod("ftz"), sat = in.hasMod("sat"), relu = in.hasMod("relu");
  int mode = roundMode(in);
  // PTX: f16 mul/add/sub without a rounding modifier may be contracted by ptxas like f32 (HAZARDS.md #4);
  // passes/contract decides, so here rounding is always a single RN (the ISA allows only .rn on these).
  if (mode != 0) {
    E.error(in, "'" + op + "' on half-precision types takes only the .rn rounding modifier");
    return;
  }
  size_t n = in.ops.size();
  // Without .ftz: one helper call named after the instruction, .sat and .relu as a call around it
  // (f32_prelude.cpp, the half "arith" helpers)
  bool arith = (op == "add" || op == "sub" || op == "mul" || op == "fma") && n == (op == "fma" ? 4u : 3u);
  bool sign = (op == "neg" || op == "abs") && n == 2;
  if (!ftz && (arith || sign)) {
    E.use(bf ? "p2g_bfarith" : "p2g_harith");
    std::string p = bf ? "p2g_bf" : "p2g_h", two = x2 ? "2(" : "(";
    // f16 fma: the opaque barrier only where the result reaches another fma's addend (halfFmaAddend)
    bool end = !bf && op == "fma" && in.ops[0].kind == ir::Opnd::Kind::Reg && !E.halfFmaAddend(in.ops[0].reg);
    std::string e = p + op + (x2 ? "2" : "") + (end ? "_end(" : "(");
    for (size_t i = 1; i < n; ++i) e += (i > 1 ? ", " : "") + E.src(in.ops[i], Ty{Ty::K::B, x2 ? 32u : 16u});
    e += ")";
    if (sat) e = p + "sat" + two + e + ")";
    if (relu) e = p + "relu" + two + e + ")";
    E.store(in.ops[0], Ty{Ty::K::B, x2 ? 32u : 16u}, e);
    return;
  }
  if (!bf && (op == "min" || op == "max") && n == 3 && !ftz && !in.hasMod("NaN") && !in.hasMod("xorsign")) {
    // plain f16 min/max: one helper call as the arithmetic above (p2g_hminmax)
    E.use("p2g_hminmax");
    E.store(in.ops[0], Ty{Ty::K::B, x2 ? 32u : 16u},
            "p2g_h" + op + (x2 ? "2(" : "(") + E.src(in.ops[1], Ty{Ty::K::B, x2 ? 32u : 16u}) + ", " +
                E.src(in.ops[2], Ty{Ty::K::B, x2 ? 32u : 16u}) + ")");
    return;
  }
  if (ftz) E.use("p2g_h_ftz");
  std::vector<std::string> srcs;
  for (size_t i = 1; i < n; ++i) {
    srcs.push_back(E.letOf("uint", E.src(in.ops[i], Ty{Ty::K::B, x2 ? 32u : 16u})));
  }
  std::string nanMag = bf ? "0x7F80u" : "0x7C00u";
  auto lane = [&](int l) -> std::string {
    std::vector<std::string> h;  // the lane's half bits, .ftz applied
    for (auto& s : srcs) {
      std::string x = l ? "(" + s + " >> 16)" : "(" + s + " & 0xFFFFu)";
      if (ftz && !bf) x = "p2g_h_ftz(" + x + ")";
      h.push_back(x);
    }
    // operand i widened exactly: f16 as an f32 value, bf16 as f32 bits
    auto fv = [&](size_t i, bool neg) {
      std::string x = neg ? "(" + h[i] + " ^ 0x8000u)" : h[i];
      if (bf) return "(" + x + " << 16)";
      E.use("p2g_h2f");
      return "p2g_h2f(" + x + ")";
    };
    std::string e;
    std::string rb;  // the result as f32 bits: exact, or rounded to odd (add/sub/fma)
    if ((op == "ex2" || op == "tanh") && srcs.size() == 1) {  // the SFU model per lane (sfu_prelude.cpp,
      // sfu_prelude2.cpp; .ftz is implied for ex2.bf16)
      E.use("p2g_sfu_" + op + "_16");
      return "p2g_sfu_" + op + (bf ? "_bf16(" : "_f16(") + (l ? "(" + srcs[0] + " >> 16)" : "(" + srcs[0] + " & 0xFFFFu)") + ")";
    }
    if ((op == "add" || op == "sub" || op == "mul" || op == "fma") && h.size() == (op == "fma" ? 3u : 2u)) {
      bool neg = op == "sub";
      if (bf) {
        E.use("p2g_sf32");
        std::string a = fv(0, false), b = fv(1, neg);
        if (op == "mul") rb = "p2g_sf32(" + a + ", " + b + ", (" + a + " ^ " + b + ") & 0x80000000u, 4, false)";
        else if (op == "fma") rb = "p2g_sf32(" + a + ", " + b + ", " + fv(2, false) + ", 4, false)";
        else rb = "p2g_sf32(" + a + ", 0x3F800000u, " + b + ", 4, false)";
      } else {
        E.use("p2g_odd_sumf");
        if (op == "mul") rb = "floatBitsToUint(p2g_fmul_x(" + fv(0, false) + ", " + fv(1, false) + "))";
        else if (op == "fma") rb = "p2g_odd_sumf(p2g_fmul_x(" + fv(0, false) + ", " + fv(1, false) + "), " + fv(2, false) + ")";
        else rb = "p2g_odd_sumf(" + fv(0, false) + ", " + fv(1, neg) + ")";
      }
    } else if ((op == "min" || op == "max") && h.size() == 2) {
      // min/max of the exact f32 widenings (p2g_fmin/p2g_fmax order the bits: -0 < +0, a NaN operand ignored);
      // the result is one of the operands, so narrowing it back is exact; a NaN gives 0x7FFF.
      // f16: the widenings are never f32 subnormals, so the device's min()/max() may serve (p2g_nmin: the fact
      // P2G_F32_MINMAX); bf16 widenings may be subnormal and keep the bit-exact helpers
      std::string fn = (bf ? "p2g_f" : "p2g_n") + op;
      E.use(bf ? fn : "p2g_nminmax");
      std::vector<std::string> a;
      for (size_t i = 0; i < 2; ++i) {
        std::string x = in.hasMod("xorsign") ? "(" + h[i] + " & 0x7FFFu)" : h[i];
        a.push_back(bf ? "uintBitsToFloat(" + x + " << 16)" : (E.use("p2g_h2f"), "p2g_h2f(" + x + ")"));
      }
      std::string r = "floatBitsToUint(" + fn + "(" + a[0] + ", " + a[1] + "))";
      if (in.hasMod("NaN"))
        r = "(((" + h[0] + " & 0x7FFFu) > " + nanMag + " || (" + h[1] + " & 0x7FFFu) > " + nanMag + ") ? 0x7FFFFFFFu : " + r + ")";
      E.use(bf ? "p2g_f2bf_rn" : "p2g_f2h_rn");
      e = std::string(bf ? "p2g_f2bf_rn(" : "p2g_f2h_rn(") + r + ")";
      if (ftz && !bf) e = "p2g_h_ftz(" + e + ")";
      if (in.hasMod("xorsign")) {
        // .xorsign.abs: min/max of |a| and |b| (NaN rules as above), sign bit = sign(a) ^ sign(b); a NaN result
        // stays 0x7FFF. Measured on the H200: ops/f16_minmax min_xorsign_abs_bf16, all 65536 lanes follow this.
        std::string v = E.tmpOf("uint"), sg = E.tmpOf("uint");
        E.line(sg + " = ((" + srcs[0] + " ^ " + srcs[1] + ") >> " + (l ? "16" : "0") + ") & 0x8000u;");
        E.line(v + " = " + e + ";");
        e = "(" + v + " == 0x7FFFu ? " + v + " : (" + v + " | " + sg + "))";
      }
    } else if ((op == "neg" || op == "abs") && h.size() == 1) {
      // Sign operations, but a NaN gives the canonical 0x7FFF and .ftz flushes a subnormal input to a zero of
      // its sign first (measured on the H200 over all 65536 inputs: ops/f16_sign neg/abs f16, bf16, .ftz).
      std::string hv = E.tmpOf("uint");
      E.line(hv + " = " + (l ? "(" + srcs[0] + " >> 16)" : "(" + srcs[0] + " & 0xFFFFu)") + ";");
      std::string x = ftz && !bf ? "p2g_h_ftz(" + hv + ")" : hv;
      std::string r = op == "neg" ? "(" + x + " ^ 0x8000u)" : "(" + x + " & 0x7FFFu)";
      return "((" + hv + " & 0x7FFFu) > " + nanMag + " ? 0x7FFFu : " + r + ")";
    } else {
      return "";
    }
    if (!rb.empty()) {
      std::string fromF = bf ? "p2g_f2bf_rn" : "p2g_f2h_rn";
      E.use(fromF);
      if (ftz && !bf) {
        // .ftz flushes a result that is tiny after rounding (IEEE's "after rounding" tininess: rounded to f16
        // precision with an unbounded exponent, it is below 2^-14), a zero of its sign; see p2g_h_tiny32.
        E.use("p2g_h_tiny32");
        std::string v = E.tmpOf("uint");
        E.line(v + " = " + rb + ";");
        e = "(p2g_h_tiny32(" + v + ", 0) ? ((" + v + " >> 16) & 0x8000u) : " + fromF + "(" + v + "))";
      } else {
        e = fromF + "(" + rb + ")";
      }
    }
    if (sat) {
      // clamp to [0, 1] on the bits: NaN and every negative value (-0 too) -> +0
      std::string v = E.tmpOf("uint");
      E.line(v + " = " + e + ";");
      std::string one = bf ? "0x3F80u" : "0x3C00u";
      e = "(" + v + " > " + nanMag + " ? 0u : (" + v + " >= " + one + " ? " + one + " : " + v + "))";
    }
    if (relu) {
      std::string v = E.tmpOf("uint");
      E.line(v + " = " + e + ";");
      e = "((" + v + " & 0x7FFFu) > " + nanMag + " ? 0x7FFFu : ((" + v + " & 0x8000u) != 0u ? 0u : " + v + "))";
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
