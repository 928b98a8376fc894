// GLSL helper functions the emitter may call, each with the hazard or PTX rule it implements.
// A helper is emitted only when used; dependencies come first; the order is fixed (deterministic output).
#include <map>
#include <string>
#include <vector>

#include "emitter.h"

namespace p2g {

std::vector<PreludeHelper> divHelpers();   // div_prelude.cpp: div.approx/div.full (sfu_div.h)
std::vector<PreludeHelper> mmaHelpers();   // mma_prelude.cpp: the tensor-core model (docs/MMA.md)
std::vector<PreludeHelper> f32Helpers();   // f32_prelude.cpp: exact f32 add/sub/mul/fma in integer code
std::vector<PreludeHelper> tensorHelpers();  // emit_tensor.cpp: wmma fragments (docs/TENSOR.md)
std::vector<PreludeHelper> warpHelpers();    // emit_warp.cpp: shfl.sync

namespace {

struct Helper {
  std::vector<std::string> deps;
  std::vector<std::string> features;
  std::string text;
};

// Memory window helpers are generated from one template per window (s = shared, l = local, c = const).
std::string windowHelpers(char w, unsigned bits) {
  std::string arr = w == 's' ? "smem" : w == 'l' ? "lmem" : "cmem";
  std::string W(1, w);
  std::string b = std::to_string(bits);
  std::string s;
  if (bits == 32) {
    s += "uint p2g_ld" + W + "32(uint a) { return " + arr + "[a >> 2]; }\n";
    if (w != 'c') s += "void p2g_st" + W + "32(uint a, uint v) { " + arr + "[a >> 2] = v; }\n";
  } else if (bits == 64) {
    s += "uint64_t p2g_ld" + W + "64(uint a) { return packUint2x32(uvec2(" + arr + "[a >> 2], " + arr + "[(a >> 2) + 1u])); }\n";
    if (w != 'c')
      s += "void p2g_st" + W + "64(uint a, uint64_t v) { uvec2 p = unpackUint2x32(v); " + arr + "[a >> 2] = p.x; " + arr +
           "[(a >> 2) + 1u] = p.y; }\n";
  } else {
    std::string mask = bits == 8 ? "0xFFu" : "0xFFFFu";
    s += "uint p2g_ld" + W + b + "(uint a) { return bitfieldExtract(" + arr + "[a >> 2], int((a & 3u) * 8u), " + b + "); }\n";
    if (w == 's')
      // Sub-word stores to shared memory: other threads may write the other bytes of the same word at the same
      // time, so the read-modify-write must be atomic per byte lane (clear, then set).
      s += "void p2g_sts" + b + "(uint a, uint v) {\n  uint sh = (a & 3u) * 8u;\n  atomicAnd(smem[a >> 2], ~(" + mask +
           " << sh));\n  atomicOr(smem[a >> 2], (v & " + mask + ") << sh);\n}\n";
    else if (w == 'l')
      s += "void p2g_stl" + b + "(uint a, uint v) { lmem[a >> 2] = bitfieldInsert(lmem[a >> 2], v, int((a & 3u) * 8u), " + b +
           "); }\n";
  }
  return s;
}

// ld.volatile / st.volatile (emit_mem.cpp, Emitter::load): relaxed atomics at the widest scope of the space, on the
// aligned 32-bit word that holds the access (64-bit global: one 64-bit atomic). w = 's': .shared (`smem`, workgroup
// scope), 'g': global (buffer references, device scope).
std::string volatileHelpers(char w, unsigned bits) {
  bool g = w == 'g';
  std::string W(1, w), b = std::to_string(bits);
  std::string A = g ? "uint64_t" : "uint";
  std::string rel = std::string(g ? ", gl_ScopeDevice" : ", gl_ScopeWorkgroup") +
                    ", gl_StorageSemanticsNone, gl_SemanticsRelaxed)";
  std::string s;
  if (bits == 32 || (g && bits == 64))
    s += std::string("// ld/st.volatile on ") + (g ? "global memory: device" : ".shared: workgroup") +
         "-scope relaxed atomics (PTX ISA 8.4.2, emit_mem.cpp)\n";
  if (bits == 32 || (g && bits == 64)) {
    std::string T = bits == 64 ? "uint64_t" : "uint";
    std::string word = g ? "P2G" + std::string(bits == 64 ? "U64" : "U32") + "(a).v" : "smem[a >> 2]";
    s += T + " p2g_vld" + W + b + "(" + A + " a) {\n  return atomicLoad(" + word + rel + ";\n}\n";
    s += "void p2g_vst" + W + b + "(" + A + " a, " + T + " v) {\n  atomicStore(" + word + ", v" + rel + ";\n}\n";
  } else if (bits == 64) {
    // smem is a word array: two relaxed words, low then high (a 64-bit shared atomic needs smem64, shared64.h)
    s += "uint64_t p2g_vlds64(uint a) { return packUint2x32(uvec2(p2g_vlds32(a), p2g_vlds32(a + 4u))); }\n";
    s += "void p2g_vsts64(uint a, uint64_t v) {\n  uvec2 p = unpackUint2x32(v);\n  p2g_vsts32(a, p.x);\n"
         "  p2g_vsts32(a + 4u, p.y);\n}\n";
  } else {
    std::string wa = g ? "a & ~3ul" : "a", sh = g ? "int((uint(a) & 3u) * 8u)" : "int((a & 3u) * 8u)";
    s += "uint p2g_vld" + W + b + "(" + A + " a) { return bitfieldExtract(p2g_vld" + W + "32(" + wa + "), " + sh + ", " +
         b + "); }\n";
    s += "// a sub-word store: one compare-and-swap of the word with the lane replaced, so that the other lanes, which\n"
         "// other threads may be writing, are kept and no reader sees a value that was never stored\n";
    s += "void p2g_vst" + W + b + "(" + A + " a, uint v) {\n";
    if (g) s += "  uint64_t wa = a & ~3ul;\n";
    std::string at = g ? "wa" : "a", lval = g ? "P2GU32(wa).v" : "smem[a >> 2]";
    s += "  uint w = p2g_vld" + W + "32(" + at + ");\n";
    s += "  for (;;) {\n";
    s += "    uint seen = atomicCompSwap(" + lval + ", w, bitfieldInsert(w, v, " + sh + ", " + b + "));\n";
    s += "    if (seen == w) break;\n";
    s += "    w = seen;\n";
    s += "  }\n}\n";
  }
  return s;
}

// Generic addresses: global unless the top byte is 0xFF, then the next byte names the window (emit_mem.cpp).
// `vol`: ld.volatile/st.volatile, whose address points into global or shared memory (PTX ISA "ld"); an address
// in another window gets the plain access.
std::string genericHelper(bool store, unsigned bits, bool vol = false) {
  std::string b = std::to_string(bits);
  std::string T = bits == 64 ? "uint64_t" : "uint";
  std::string g;
  std::string glob = bits == 8 ? "P2GU8(a).v" : bits == 16 ? "P2GU16(a).v" : bits == 32 ? "P2GU32(a).v" : "P2GU64(a).v";
  std::string V = vol ? "v" : "";
  if (!store) {
    g += T + " p2g_gen_" + V + "ld" + b + "(uint64_t a) {\n";
    g += "  uint w = uint(a >> 48);\n";
    g += "  if (w == 0xFF01u) return p2g_" + V + "lds" + b + "(uint(a));\n";
    g += "  if (w == 0xFF02u) return p2g_ldl" + b + "(uint(a));\n";
    g += "  if (w == 0xFF03u) return p2g_ldc" + b + "(uint(a));\n";
    g += "  if (w == 0xFF04u) a = pc.params + (a & 0xFFFFFFFFul);\n";
    g += vol ? "  return p2g_vldg" + b + "(a);\n}\n" : "  return " + T + "(" + glob + ");\n}\n";
  } else {
    g += "void p2g_gen_" + V + "st" + b + "(uint64_t a, " + T + " v) {\n";
    g += "  uint w = uint(a >> 48);\n";
    g += "  if (w == 0xFF01u) { p2g_" + V + "sts" + b + "(uint(a), v); return; }\n";
    g += "  if (w == 0xFF02u) { p2g_stl" + b + "(uint(a), v); return; }\n";
    std::string cast = bits == 8 ? "uint8_t(v)" : bits == 16 ? "uint16_t(v)" : "v";
    g += vol ? "  p2g_vstg" + b + "(a, v);\n}\n" : "  " + glob + " = " + cast + ";\n}\n";
  }
  return g;
}

const std::map<std::string, Helper>& table() {
  static const std::map<std::string, Helper> t = [] {
    std::map<std::string, Helper> m;
    for (char w : {'s', 'l', 'c'})
      for (unsigned bits : {8u, 16u, 32u, 64u}) {
        std::string W(1, w), b = std::to_string(bits);
        m["p2g_ld" + W + b] = {{}, {}, windowHelpers(w, bits)};
        if (w != 'c') m["p2g_st" + W + b] = {{"p2g_ld" + W + b}, {}, ""};
      }
    for (unsigned bits : {8u, 16u, 32u, 64u}) {
      std::string b = std::to_string(bits);
      m["p2g_gen_ld" + b] = {{"p2g_lds" + b, "p2g_ldl" + b, "p2g_ldc" + b}, {}, genericHelper(false, bits)};
      m["p2g_gen_st" + b] = {{"p2g_sts" + b, "p2g_stl" + b}, {}, genericHelper(true, bits)};
      for (char w : {'s', 'g'}) {
        std::string W(1, w);
        std::vector<std::string> deps;
        if (bits != 32 && !(w == 'g' && bits == 64)) deps = {"p2g_vld" + W + "32"};
        std::vector<std::string> feats;
        if (w == 'g' && bits == 64) feats = {"atomic64"};
        m["p2g_vld" + W + b] = {deps, feats, volatileHelpers(w, bits)};
        m["p2g_vst" + W + b] = {{"p2g_vld" + W + b}, {}, ""};
      }
      m["p2g_gen_vld" + b] = {{"p2g_vlds" + b, "p2g_vldg" + b, "p2g_ldl" + b, "p2g_ldc" + b}, {}, genericHelper(false, bits, true)};
      m["p2g_gen_vst" + b] = {{"p2g_vsts" + b, "p2g_vstg" + b, "p2g_stl" + b}, {}, genericHelper(true, bits, true)};
    }

    // ---- floating point (HAZARDS.md #3-#7, #14) ----
    m["p2g_canon"] = {{}, {}, R"(// NVIDIA's float units return the canonical NaN 0x7FFFFFFF whatever the input payloads (HAZARDS.md #14).
float p2g_canon(float x) {
  uint u = floatBitsToUint(x), q = 0x7FFFFFFFu;
  bool n = isnan(x);
  u = n ? q : u;  // both sides plain variables: glslang makes OpSelect, not a branch (docs/GPU_BENCH.md)
  return uintBitsToFloat(u);
}
)"};
    m["p2g_ftz"] = {{}, {}, R"(// .ftz: a subnormal input or result becomes a zero of the same sign (HAZARDS.md #5).
float p2g_ftz(float x) { uint b = floatBitsToUint(x); return (b & 0x7F800000u) == 0u ? uintBitsToFloat(b & 0x80000000u) : x; }
)"};
    m["p2g_sat"] = {{}, {}, R"(// .sat: clamp to [0, 1]; NaN and -0.0 give +0.0 (PTX ISA, "Floating-point saturation"). On the bits, so that a
// device that flushes f32 denormals still keeps a positive denormal.
float p2g_sat(float x) {
  uint b = floatBitsToUint(x);
  if (b >= 0x7F800001u) return 0.0;  // NaN of either sign, and every negative value
  return b >= 0x3F800000u ? 1.0 : x;
}
)"};
    m["p2g_f2d"] = {{}, {"float64"}, R"(// f32 bits -> double, exactly, in integer code: the device's f32->f64 conversion may flush denormals
// (NVIDIA's Vulkan driver, HAZARDS.md #5). NaN payloads move to the top of the double's fraction.
double p2g_f2d(float x) {
  uint b = floatBitsToUint(x);
  uint64_t s = uint64_t(b >> 31) << 63;
  uint e = (b >> 23) & 0xFFu, m = b & 0x7FFFFFu;
  if (e == 0xFFu) return uint64BitsToDouble(s | 0x7FF0000000000000ul | (uint64_t(m) << 29));
  if (e == 0u) {
    if (m == 0u) return uint64BitsToDouble(s);
    int k = findMSB(m);  // value = m * 2^-149 = 1.f * 2^(k - 149)
    return uint64BitsToDouble(s | (uint64_t(k - 149 + 1023) << 52) | ((uint64_t(m) << (52 - k)) & 0xFFFFFFFFFFFFFul));
  }
  return uint64BitsToDouble(s | (uint64_t(e + 896u) << 52) | (uint64_t(m) << 29));
}
)"};
    m["p2g_narrow"] = {{}, {"float64"}, R"(// Rounds a double to a narrower binary format: `m` fraction bits, exponent bias `bias`, `eb` exponent bits;
// mode 0 = rn (ties to even), 1 = rz, 2 = rm, 3 = rp. Done in integer arithmetic so that no device's float
// conversion (whose rounding Vulkan leaves open) is involved. Subnormal results are produced exactly; NaN gives
// `nanBits`. Returns the narrow format's bits.
uint p2g_narrow(double v, int m, int bias, int eb, int mode, uint nanBits) {
  uint64_t w = doubleBitsToUint64(v);
  uint sign = uint(w >> 63);
  int e = int((w >> 52) & 0x7FFul);
  uint64_t f = w & 0xFFFFFFFFFFFFFul;
  uint signOut = sign << (m + eb);
  uint infBits = ((1u << eb) - 1u) << m;
  if (e == 0x7FF) return f != 0ul ? nanBits : (signOut | infBits);
  if (e == 0 && f == 0ul) return signOut;
  uint64_t mant = e == 0 ? f : (f | (1ul << 52));
  int E = (e == 0 ? 1 : e) - 1023 + bias;  // biased exponent in the narrow format
  int shift = 52 - m + (E >= 1 ? 0 : 1 - E);
  uint64_t q, rem, hlf;
  if (shift >= 64) { q = 0ul; rem = mant; hlf = (shift == 64) ? (1ul << 63) : 0ul; if (shift > 64) hlf = 0ul; }
  else { q = mant >> shift; rem = mant & ((1ul << shift) - 1ul); hlf = 1ul << (shift - 1); }
  bool inexact = rem != 0ul;
  bool up;
  if (mode == 0) up = shift > 64 ? false : (rem > hlf || (rem == hlf && (q & 1ul) != 0ul));
  else if (mode == 1) up = false;
  else if (mode == 2) up = inexact && sign == 1u;
  else up = inexact && sign == 0u;
  if (mode == 0 && shift > 64) up = false;
  q += up ? 1ul : 0ul;
  uint64_t r = (E >= 1 ? (uint64_t(E - 1) << m) : 0ul) + q;
  if (r >= uint64_t(infBits)) {  // overflow: infinity, or the largest finite value when rounding toward zero
    bool toInf = mode == 0 || (mode == 2 && sign == 1u) || (mode == 3 && sign == 0u);
    return signOut | (toInf ? infBits : infBits - 1u);
  }
  return signOut | uint(r);
}
)"};
    m["p2g_d2f_rn"] = {{}, {"float64"}, R"(// double -> f32 rounded to nearest even (NaN -> NVIDIA's 0x7FFFFFFF), the compact form of p2g_narrow for
// mode 0: results at or above 2^-126 come from the device's double -> float conversion (OpFConvert is correctly
// rounded in Vulkan, and such results are normal, so a flushing device leaves them alone); |v| >= 2^128 - 2^103
// rounds to infinity; below 2^-126 the denormal is v * 2^149 rounded to an integer, ties to even (exact: power of
// two scaling, roundEven is exact), and 2^23 becomes the smallest normal by itself.
float p2g_d2f_rn(double v) {
  uint64_t w = doubleBitsToUint64(v);
  uint sg = uint(w >> 63) << 31;
  uint64_t aw = w & 0x7FFFFFFFFFFFFFFFul;
  if (aw > 0x7FF0000000000000ul) return uintBitsToFloat(0x7FFFFFFFu);
  if (aw >= 0x47EFFFFFF0000000ul) return uintBitsToFloat(sg | 0x7F800000u);
  if (aw >= 0x3810000000000000ul) return float(v);
  return uintBitsToFloat(sg | uint(roundEven(uint64BitsToDouble(aw) * uint64BitsToDouble(0x4940000000000000ul))));
}
)"};
    m["p2g_f64_to_f32"] = {{"p2g_narrow", "p2g_d2f_rn"}, {}, R"(float p2g_f64_to_f32(double v, int mode) { return mode == 0 ? p2g_d2f_rn(v) : uintBitsToFloat(p2g_narrow(v, 23, 127, 8, mode, 0x7FFFFFFFu)); }
)"};
    m["p2g_d2f"] = {{"p2g_f64_to_f32"}, {}, R"(// cvt.f32.f64: a NaN keeps its sign and the top 23 bits of its payload and comes out quiet (measured on the
// H200: ptx_corpus/ops/f64_misc cvt_rn_f32 and cvt_rz_ftz_f32, 91 NaN lanes, e.g. 0xFFFFFFFF35E10000 -> 0xFFFFFFF9).
float p2g_d2f(double v, int mode) {
  uint64_t w = doubleBitsToUint64(v);
  if ((w & 0x7FFFFFFFFFFFFFFFul) > 0x7FF0000000000000ul)
    return uintBitsToFloat((uint(w >> 32) & 0x80000000u) | 0x7FC00000u | uint((w >> 29) & 0x7FFFFFul));
  return p2g_f64_to_f32(v, mode);
}
)"};
    m["p2g_fkey"] = {{}, {}, R"(// f32 ordering on the bits (a flushing device would call two denormals equal): an integer key whose order is the
// order of the values, -0 and +0 equal; NaN tested on the bits too.
int p2g_fkey(uint b) { int s = int(b) >> 31; return (int(b & 0x7FFFFFFFu) ^ s) - s; }  // s: 0 or -1
bool p2g_fnan(uint b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
)"};
    m["p2g_fmin"] = {{"p2g_fkey"}, {}, R"(// min.f32: a NaN operand is ignored; both NaN give the canonical NaN; -0.0 is below +0.0 (HAZARDS.md #14).
// Without branches: every `?:` here selects between plain variables, which glslang makes OpSelect (no divergence
// inside a warp; guarded regions call it among the device's operations, docs/GPU_BENCH.md).
float p2g_fmin(float x, float y) {
  uint a = floatBitsToUint(x), b = floatBitsToUint(y), q = 0x7FFFFFFFu;
  int ka = p2g_fkey(a), kb = p2g_fkey(b);
  bool na = p2g_fnan(a), nb = p2g_fnan(b), first = ka < kb, eq = ka == kb;
  uint z = a | b;  // -0 and +0 (equal keys of different bits)
  uint r = first ? a : b;
  r = eq ? z : r;
  r = nb ? a : r;
  uint n = nb ? q : b;
  r = na ? n : r;
  return uintBitsToFloat(r);
}
)"};
    m["p2g_fmax"] = {{"p2g_fkey"}, {}, R"(// max.f32: a NaN operand is ignored; both NaN give the canonical NaN; +0.0 is above -0.0.
float p2g_fmax(float x, float y) {
  uint a = floatBitsToUint(x), b = floatBitsToUint(y), q = 0x7FFFFFFFu;
  int ka = p2g_fkey(a), kb = p2g_fkey(b);
  bool na = p2g_fnan(a), nb = p2g_fnan(b), first = ka > kb, eq = ka == kb;
  uint z = a & b;  // -0 and +0 (equal keys of different bits)
  uint r = first ? a : b;
  r = eq ? z : r;
  r = nb ? a : r;
  uint n = nb ? q : b;
  r = na ? n : r;
  return uintBitsToFloat(r);
}
)"};
    m["p2g_fmin_nan"] = {{"p2g_fmin"}, {}, R"(// min.NaN / max.NaN: a NaN operand gives the canonical NaN.
float p2g_fmin_nan(float x, float y) {
  return p2g_fnan(floatBitsToUint(x)) || p2g_fnan(floatBitsToUint(y)) ? uintBitsToFloat(0x7FFFFFFFu) : p2g_fmin(x, y);
}
)"};
    m["p2g_fmax_nan"] = {{"p2g_fmax"}, {}, R"(float p2g_fmax_nan(float x, float y) {
  return p2g_fnan(floatBitsToUint(x)) || p2g_fnan(floatBitsToUint(y)) ? uintBitsToFloat(0x7FFFFFFFu) : p2g_fmax(x, y);
}
)"};
    m["p2g_xorsign"] = {{"p2g_fmin_nan", "p2g_fmax_nan"}, {}, R"(// min/max.xorsign.abs: of |a| and |b| (NaN rules as min/max), with the sign bit a.sign ^ b.sign (PTX ISA 7.2).
float p2g_xs(float r, float x, float y) {
  uint b = floatBitsToUint(r);
  if (p2g_fnan(b)) return r;
  return uintBitsToFloat((b & 0x7FFFFFFFu) | ((floatBitsToUint(x) ^ floatBitsToUint(y)) & 0x80000000u));
}
float p2g_abs_b(float x) { return uintBitsToFloat(floatBitsToUint(x) & 0x7FFFFFFFu); }
float p2g_min_xorsign(float x, float y) { return p2g_xs(p2g_fmin(p2g_abs_b(x), p2g_abs_b(y)), x, y); }
float p2g_max_xorsign(float x, float y) { return p2g_xs(p2g_fmax(p2g_abs_b(x), p2g_abs_b(y)), x, y); }
float p2g_min_xorsign_nan(float x, float y) { return p2g_xs(p2g_fmin_nan(p2g_abs_b(x), p2g_abs_b(y)), x, y); }
float p2g_max_xorsign_nan(float x, float y) { return p2g_xs(p2g_fmax_nan(p2g_abs_b(x), p2g_abs_b(y)), x, y); }
)"};
    m["p2g_dnan1"] = {{}, {"float64"}, R"(// NaN results of NVIDIA's double units (HAZARDS_IMPLEMENTED.md row 15; measured on the H200, ptx_corpus/ops/
// f64_arith and f64_misc): a NaN operand comes back quiet (bit 51 set) with its sign and payload, the first NaN
// operand wins (add/mul/div/min/max: a then b; fma: a, c, b); a NaN made from numbers (sqrt of a negative, 3396
// lanes of f64_arith sqrt_rn) is 0xFFF8000000000000. Tested on the bits: a flushing or fast device keeps them.
bool p2g_isnan_d(double x) { return (doubleBitsToUint64(x) & 0x7FFFFFFFFFFFFFFFul) > 0x7FF0000000000000ul; }
double p2g_dnan1(double r, double a) {
  if (p2g_isnan_d(a)) return uint64BitsToDouble(doubleBitsToUint64(a) | 0x0008000000000000ul);
  return p2g_isnan_d(r) ? uint64BitsToDouble(0xFFF8000000000000ul) : r;
}
)"};
    m["p2g_dnan2"] = {{"p2g_dnan1"}, {}, R"(double p2g_dnan2(double r, double a, double b) {
  return p2g_isnan_d(a) ? p2g_dnan1(r, a) : p2g_dnan1(r, b);
}
)"};
    m["p2g_rne64"] = {{}, {"float64"}, R"(// A double rounded to an integral value, ties to even (cvt.rni with an f64 source or result), by adding and
// taking away 2^52, not by roundEven(double): lavapipe (Mesa llvmpipe, LLVM 15.0.6) on an AMD EPYC host (family 25,
// AVX2, no AVX-512) gave roundEven(1.5) = 1 and roundEven(-0.3) = +0, trunc's results (ops/f64_misc cvt_rni_s64
// 25/8192 and outside/cvt_f64_nan 530/32768 values differ there, 2026-12-02), while CI's hosts and
// NVIDIA's driver give ties to even. |x| >= 2^52, infinity and NaN are returned as they are; the sign is x's.
double p2g_rne64(double x) {
  precise double a = abs(x);
  precise double t = (a + 4503599627370496.0lf) - 4503599627370496.0lf;  // the sum rounds to an integer, to even
  double r = uint64BitsToDouble(doubleBitsToUint64(t) | (doubleBitsToUint64(x) & 0x8000000000000000ul));
  bool small = a < 4503599627370496.0lf;
  r = small ? r : x;
  return r;
}
)"};
    m["p2g_dmin"] = {{"p2g_dnan1"}, {"float64"}, R"(// min/max.f64: a NaN operand is ignored; both NaN give the first, quiet (measured: ops/f64_misc min/max, 21
// lanes); -0 is below +0.
double p2g_dmin(double a, double b) {
  if (p2g_isnan_d(a)) return p2g_isnan_d(b) ? p2g_dnan1(a, a) : b;
  if (p2g_isnan_d(b)) return a;
  if (a == b) return uint64BitsToDouble(doubleBitsToUint64(a) | doubleBitsToUint64(b));
  return a < b ? a : b;
}
)"};
    m["p2g_dmax"] = {{"p2g_dnan1"}, {"float64"}, R"(double p2g_dmax(double a, double b) {
  if (p2g_isnan_d(a)) return p2g_isnan_d(b) ? p2g_dnan1(a, a) : b;
  if (p2g_isnan_d(b)) return a;
  if (a == b) return uint64BitsToDouble(doubleBitsToUint64(a) & doubleBitsToUint64(b));
  return a > b ? a : b;
}
)"};
    // ---- f64 in integer arithmetic (HAZARDS.md #3, #6, #7 for double) ----
    // Written in the subset of GLSL that is also C++ (tests/ops/f64_ref compiles this text on the host and checks
    // it against the host's IEEE arithmetic in every rounding mode): no float literals, no out parameters.
    m["p2g_dround"] = {{}, {"float64"}, R"(// Decoding: a finite non-zero double magnitude w is m * 2^e with m normalised to [2^52, 2^53).
int p2g_msb64(uint64_t x) { uint h = uint(x >> 32); return h != 0u ? 32 + findMSB(h) : findMSB(uint(x)); }
uint64_t p2g_dsig(uint64_t w) {
  uint64_t f = w & 0xFFFFFFFFFFFFFul;
  if ((w >> 52) != 0ul) return f | 0x10000000000000ul;
  return f << uint(52 - p2g_msb64(f));
}
int p2g_dexp(uint64_t w) {
  int x = int(w >> 52);
  return x != 0 ? x - 1075 : -1074 - (52 - p2g_msb64(w));
}
double p2g_dzero(bool neg) { return uint64BitsToDouble(neg ? 0x8000000000000000ul : 0ul); }
double p2g_dqnan() { return uint64BitsToDouble(0x7FF8000000000000ul); }
// (-1)^s * (m + t) * 2^e rounded once to a double in `mode` (0 rn, 1 rz, 2 rm, 3 rp), where 0 <= t < 1 is
// non-zero exactly when `sticky`, and m != 0. Subnormal results round at 2^-1074 (no flushing: NVIDIA's double
// units keep denormals); overflow gives infinity or the largest finite value, by the mode.
double p2g_dround(uint s, uint64_t m, int e, bool sticky, int mode) {
  int k = p2g_msb64(m);
  int lsb = max(e + k - 52, -1074);  // the exponent of the result's last bit
  uint64_t sb = uint64_t(s) << 63;
  bool toInf = mode == 0 || (mode == 2 && s == 1u) || (mode == 3 && s == 0u);
  uint64_t ovf = sb | (toInf ? 0x7FF0000000000000ul : 0x7FEFFFFFFFFFFFFFul);
  if (lsb > 971) return uint64BitsToDouble(ovf);
  int sh = lsb - e;
  uint64_t q = 0ul, rem = 0ul, hlf = 0ul;
  if (sh <= 0) q = m << uint(-sh);
  else if (sh < 64) { q = m >> uint(sh); rem = m & ((1ul << uint(sh)) - 1ul); hlf = 1ul << uint(sh - 1); }
  else { rem = m; hlf = sh == 64 ? 0x8000000000000000ul : 0ul; }
  bool inexact = rem != 0ul || sticky;
  bool up = false;
  if (mode == 0 && sh > 0 && sh <= 64) up = rem > hlf || (rem == hlf && (sticky || (q & 1ul) != 0ul));
  if (mode >= 2) up = inexact && ((mode == 2) == (s == 1u));
  if (up) q += 1ul;
  uint64_t bits = (uint64_t(lsb + 1074) << 52) + q;  // a carry out of the significand moves into the exponent
  if (bits >= 0x7FF0000000000000ul) return uint64BitsToDouble(ovf);
  return uint64BitsToDouble(sb | bits);
}
// cvt.f64.s64/u64 in every mode: the 64-bit integer rounded once to 53 bits.
double p2g_i64_to_d(uint64_t v, bool sgn, int mode) {
  uint s = sgn && (v >> 63) != 0ul ? 1u : 0u;
  uint64_t m = s != 0u ? 0ul - v : v;
  return m == 0ul ? p2g_dzero(false) : p2g_dround(s, m, 0, false, mode);
}
)"};
    m["p2g_dadd_r"] = {{"p2g_dround"}, {}, R"(// add.f64 in `mode`: the smaller operand aligned to the larger with its shifted-out bits jammed into the last
// bit (rounding to odd, 10 bits below the result's last bit), summed exactly in 64 bits, rounded once.
double p2g_dadd_r(double x, double y, int mode) {
  uint64_t a = doubleBitsToUint64(x), b = doubleBitsToUint64(y);
  uint64_t aa = a & 0x7FFFFFFFFFFFFFFFul, bb = b & 0x7FFFFFFFFFFFFFFFul;
  bool opp = ((a ^ b) >> 63) != 0ul;
  if (aa > 0x7FF0000000000000ul || bb > 0x7FF0000000000000ul) return p2g_dqnan();
  if (aa == 0x7FF0000000000000ul || bb == 0x7FF0000000000000ul) {
    if (aa == bb && opp) return p2g_dqnan();
    return aa == 0x7FF0000000000000ul ? x : y;
  }
  if (aa == 0ul && bb == 0ul) return p2g_dzero(opp ? mode == 2 : (a >> 63) != 0ul);  // IEEE 754 6.3
  if (aa == 0ul) return y;
  if (bb == 0ul) return x;
  if (bb > aa) { uint64_t t = a; a = b; b = t; t = aa; aa = bb; bb = t; }
  int ea = p2g_dexp(aa), d = ea - p2g_dexp(bb);
  uint64_t ma = p2g_dsig(aa) << 10, mb = p2g_dsig(bb) << 10;
  bool st = false;
  if (d >= 64) { st = true; mb = 0ul; }
  else if (d > 0) { st = (mb & ((1ul << uint(d)) - 1ul)) != 0ul; mb = mb >> uint(d); }
  if (st) mb = mb | 1ul;
  uint64_t m = opp ? ma - mb : ma + mb;
  if (m == 0ul) return p2g_dzero(mode == 2);
  return p2g_dround(uint(a >> 63), m, ea - 10, false, mode);
}
)"};
    // Barriers and fences at CTA scope (emit_mem.cpp emitSync, emit_warp.cpp). PTX's bar.sync, barrier.sync and
    // membar.cta/fence.cta order memory for the threads of the CTA only (PTX ISA 9.7.13.1 "bar, barrier", 9.7.13.4
    // "membar/fence"), so the fence is the workgroup's for every storage class: shared, global (buffer references
    // are UniformMemory, SPIR-V 3.25 "Memory Semantics") and surfaces. memoryBarrierBuffer() would fence at device
    // scope, which on NVIDIA waits for the whole GPU's view of memory (docs/GPU_BENCH.md, "Barriers at CTA scope").
    m["p2g_bar_sync"] = {{}, {}, R"(// bar.sync 0 / barrier.sync 0 with the whole block: the block's threads meet; their earlier memory accesses
// (shared, global, surfaces) are visible to each other after it (one OpControlBarrier at workgroup scope).
void p2g_bar_sync() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup,
                 gl_StorageSemanticsShared | gl_StorageSemanticsBuffer | gl_StorageSemanticsImage,
                 gl_SemanticsAcquireRelease);
}
)"};
    // passes/barrier_mem: barriers across which no two accesses to buffer or image memory can meet (one of them a
    // write) order shared memory alone (_s); those where only accesses through different pointer parameters can
    // meet do so where the runtime found the parameters pointing into distinct buffers (_p). NVIDIA's driver makes
    // the buffer and image semantics most of a barrier's cost (docs/GPU_BENCH.md "Barrier memory semantics").
    m["p2g_bar_sync_s"] = {{}, {}, R"(// bar.sync 0 with the whole block, ordering shared memory only (passes/barrier_mem proved no buffer or image
// access before it can meet one after it).
void p2g_bar_sync_s() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
}
)"};
    m["p2g_params_disjoint"] = {{}, {}, R"(// Case fact (specialization constant 11, runtime/common/manifest.h kSpecParamsDisjoint): every pointer parameter
// of the launch points into its own buffer (no two name the same one), so accesses through different parameters
// never meet.
layout(constant_id = 11) const bool P2G_PARAMS_DISJOINT = false;
)"};
    m["p2g_bar_sync_p"] = {{"p2g_params_disjoint", "p2g_bar_sync", "p2g_bar_sync_s"}, {}, R"(// bar.sync 0 with the whole block where only accesses through different pointer parameters can meet across it
// (passes/barrier_mem): shared memory only when those parameters point into distinct buffers.
void p2g_bar_sync_p() {
  if (P2G_PARAMS_DISJOINT) p2g_bar_sync_s();
  else p2g_bar_sync();
}
)"};
    m["p2g_fence_cta"] = {{}, {}, R"(// membar.cta / fence.cta, and the memory order of bar.warp.sync: the thread's earlier accesses (shared, global,
// surfaces) are ordered before its later ones for the other threads of its block.
void p2g_fence_cta() {
  memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer | gl_StorageSemanticsImage,
                gl_SemanticsAcquireRelease);
}
)"};
    m["p2g_bar_red"] = {{"p2g_bar_sync"}, {}, R"(// bar.red on barrier 0 with the whole block (emit_mem.cpp emitSync): kind 0 popc, 1 and, 2 or of c over the
// threads that have not exited. Three barriers: the counters are reset, each thread adds its vote, each thread
// reads; the next call resets only after its first barrier, when every thread has read.
shared uint p2g_bar_votes[2];
uint p2g_bar_red(uint kind, bool c) {
  p2g_bar_sync();
  p2g_bar_votes[0] = 0u; p2g_bar_votes[1] = 0u;  // every thread writes the same zeros
  memoryBarrierShared(); barrier();
  if (c) atomicAdd(p2g_bar_votes[0], 1u);
  atomicAdd(p2g_bar_votes[1], 1u);
  memoryBarrierShared(); barrier();
  uint n = p2g_bar_votes[0], all = p2g_bar_votes[1];
  return kind == 0u ? n : kind == 1u ? uint(n == all) : uint(n != 0u);
}
)"};
    m["p2g_dmul_r"] = {{"p2g_dround", "p2g_mulhi64"}, {}, R"(// mul.f64 in `mode`: the 106-bit product of the significands, its top 64 bits and a sticky bit, rounded once.
double p2g_dmul_r(double x, double y, int mode) {
  uint64_t a = doubleBitsToUint64(x), b = doubleBitsToUint64(y);
  uint64_t aa = a & 0x7FFFFFFFFFFFFFFFul, bb = b & 0x7FFFFFFFFFFFFFFFul;
  uint s = uint((a ^ b) >> 63);
  if (aa > 0x7FF0000000000000ul || bb > 0x7FF0000000000000ul) return p2g_dqnan();
  if (aa == 0x7FF0000000000000ul || bb == 0x7FF0000000000000ul)
    return aa == 0ul || bb == 0ul ? p2g_dqnan() : uint64BitsToDouble((uint64_t(s) << 63) | 0x7FF0000000000000ul);
  if (aa == 0ul || bb == 0ul) return p2g_dzero(s != 0u);
  uint64_t ma = p2g_dsig(aa), mb = p2g_dsig(bb);
  uint64_t hi = p2g_umulhi64(ma, mb), lo = ma * mb;  // hi < 2^42
  return p2g_dround(s, (hi << 22) | (lo >> 42), p2g_dexp(aa) + p2g_dexp(bb) + 42, (lo & 0x3FFFFFFFFFFul) != 0ul, mode);
}
)"};
    m["p2g_dfma_r"] = {{"p2g_dround", "p2g_mulhi64"}, {}, R"(// fma.f64 in `mode` with one rounding on every device (lavapipe's fma() on doubles is not fused): the exact
// 106-bit product and c placed in a 128-bit frame (two uint64), the smaller one shifted with jamming, summed
// exactly, then the top 64 bits and a sticky bit rounded once.
struct P2gU128 { uint64_t hi; uint64_t lo; };
P2gU128 p2g_shr128j(P2gU128 x, int n) {  // x / 2^n rounded to odd (the bits shifted out ORed into bit 0)
  if (n <= 0) return x;
  if (n >= 128) return P2gU128(0ul, (x.hi | x.lo) != 0ul ? 1ul : 0ul);
  uint64_t hi = 0ul, lo;
  bool st;
  if (n >= 64) {
    int k = n - 64;
    lo = k == 0 ? x.hi : x.hi >> uint(k);
    st = x.lo != 0ul || (k != 0 && (x.hi & ((1ul << uint(k)) - 1ul)) != 0ul);
  } else {
    lo = (x.lo >> uint(n)) | (x.hi << uint(64 - n));
    hi = x.hi >> uint(n);
    st = (x.lo & ((1ul << uint(n)) - 1ul)) != 0ul;
  }
  return P2gU128(hi, st ? lo | 1ul : lo);
}
P2gU128 p2g_sub128(P2gU128 x, P2gU128 y) {
  return P2gU128(x.hi - y.hi - (x.lo < y.lo ? 1ul : 0ul), x.lo - y.lo);
}
double p2g_dfma_r(double x, double y, double z, int mode) {
  uint64_t a = doubleBitsToUint64(x), b = doubleBitsToUint64(y), c = doubleBitsToUint64(z);
  uint64_t aa = a & 0x7FFFFFFFFFFFFFFFul, bb = b & 0x7FFFFFFFFFFFFFFFul, cc = c & 0x7FFFFFFFFFFFFFFFul;
  uint sp = uint((a ^ b) >> 63), sc = uint(c >> 63);
  if (aa > 0x7FF0000000000000ul || bb > 0x7FF0000000000000ul || cc > 0x7FF0000000000000ul) return p2g_dqnan();
  if (aa == 0x7FF0000000000000ul || bb == 0x7FF0000000000000ul) {
    if (aa == 0ul || bb == 0ul || (cc == 0x7FF0000000000000ul && sc != sp)) return p2g_dqnan();
    return uint64BitsToDouble((uint64_t(sp) << 63) | 0x7FF0000000000000ul);
  }
  if (cc == 0x7FF0000000000000ul) return z;
  if (aa == 0ul || bb == 0ul) return cc != 0ul ? z : p2g_dzero(sp == sc ? sp == 1u : mode == 2);
  uint64_t ma = p2g_dsig(aa), mb = p2g_dsig(bb);
  int ep = p2g_dexp(aa) + p2g_dexp(bb);
  uint64_t phi = p2g_umulhi64(ma, mb), plo = ma * mb;  // the product: [2^104, 2^106)
  if (cc == 0ul) return p2g_dround(sp, (phi << 22) | (plo >> 42), ep + 42, (plo & 0x3FFFFFFFFFFul) != 0ul, mode);
  P2gU128 P = P2gU128((phi << 20) | (plo >> 44), plo << 20);  // top bit at 124 or 125
  P2gU128 C = P2gU128(p2g_dsig(cc) << 9, 0ul);                  // top bit at 125
  ep -= 20;
  int ec = p2g_dexp(cc) - 73, e = max(ep, ec);
  if (ep > ec) C = p2g_shr128j(C, ep - ec);
  else P = p2g_shr128j(P, ec - ep);
  P2gU128 R;
  uint s = sp;
  if (sp == sc) {
    uint64_t lo = P.lo + C.lo;
    R = P2gU128(P.hi + C.hi + (lo < P.lo ? 1ul : 0ul), lo);
  } else if (P.hi > C.hi || (P.hi == C.hi && P.lo >= C.lo)) {
    R = p2g_sub128(P, C);
  } else {
    R = p2g_sub128(C, P);
    s = sc;
  }
  if (R.hi == 0ul) return R.lo == 0ul ? p2g_dzero(mode == 2) : p2g_dround(s, R.lo, e, false, mode);
  int k = p2g_msb64(R.hi) + 1;  // R / 2^k < 2^64
  if (k == 64) return p2g_dround(s, R.hi, e + 64, R.lo != 0ul, mode);
  uint64_t m = (R.hi << uint(64 - k)) | (R.lo >> uint(k));
  return p2g_dround(s, m, e + k, (R.lo & ((1ul << uint(k)) - 1ul)) != 0ul, mode);
}
)"};
    m["p2g_ddiv_r"] = {{"p2g_dround"}, {}, R"(// div.f64 in `mode`: 55 quotient bits of the significands by restoring long division, the remainder as a
// sticky bit, rounded once (no device division involved).
double p2g_ddiv_r(double x, double y, int mode) {
  uint64_t a = doubleBitsToUint64(x), b = doubleBitsToUint64(y);
  uint64_t aa = a & 0x7FFFFFFFFFFFFFFFul, bb = b & 0x7FFFFFFFFFFFFFFFul;
  uint s = uint((a ^ b) >> 63);
  if (aa > 0x7FF0000000000000ul || bb > 0x7FF0000000000000ul) return p2g_dqnan();
  if (aa == bb && (aa == 0ul || aa == 0x7FF0000000000000ul)) return p2g_dqnan();
  if (aa == 0x7FF0000000000000ul || bb == 0ul) return uint64BitsToDouble((uint64_t(s) << 63) | 0x7FF0000000000000ul);
  if (aa == 0ul || bb == 0x7FF0000000000000ul) return p2g_dzero(s != 0u);
  uint64_t ma = p2g_dsig(aa), mb = p2g_dsig(bb);
  int e = p2g_dexp(aa) - p2g_dexp(bb) - 54;
  if (ma < mb) { ma = ma << 1; e -= 1; }
  uint64_t q = 0ul;
  for (int i = 0; i < 55; ++i) {
    q = q << 1;
    if (ma >= mb) { ma -= mb; q = q | 1ul; }
    ma = ma << 1;
  }
  return p2g_dround(s, q, e, ma != 0ul, mode);
}
)"};
    m["p2g_dsqrt_r"] = {{"p2g_dround"}, {}, R"(// sqrt.f64 in `mode`: 55 root bits of the significand (exponent made even) by the digit-by-digit method, the
// remainder as a sticky bit, rounded once. sqrt of a negative number gives a NaN (p2g_dnan1 makes it NVIDIA's).
double p2g_dsqrt_r(double x, int mode) {
  uint64_t a = doubleBitsToUint64(x);
  if ((a & 0x7FFFFFFFFFFFFFFFul) == 0ul || a == 0x7FF0000000000000ul) return x;
  if (a > 0x7FF0000000000000ul) return p2g_dqnan();  // NaN, or negative
  uint64_t m = p2g_dsig(a);
  int e = p2g_dexp(a);
  if ((e & 1) != 0) { m = m << 1; e -= 1; }
  uint64_t q = 0ul, r = 0ul;  // the root of m * 2^56: 27 pairs of bits from m, then 28 zero pairs
  for (int i = 54; i >= 0; --i) {
    r = (r << 2) | (i >= 28 ? (m >> uint(2 * (i - 28))) & 3ul : 0ul);
    uint64_t t = (q << 2) | 1ul;
    if (r >= t) { r -= t; q = (q << 1) | 1ul; }
    else q = q << 1;
  }
  return p2g_dround(0u, q, (e - 56) / 2, r != 0ul, mode);
}
)"};
    // ---- half precision: computed exactly in double (or rounded to odd), rounded once (HAZARDS.md #1, #2) ----
    m["p2g_h2d"] = {{}, {"float64"}, R"(// f16 bits -> double, exactly, in integer arithmetic (no device half conversion involved).
double p2g_h2d(uint h) {
  uint s = (h >> 15) & 1u, e = (h >> 10) & 31u, f = h & 1023u;
  double v;
  if (e == 31u) v = f != 0u ? uint64BitsToDouble(0x7FF8000000000000ul) : uint64BitsToDouble(0x7FF0000000000000ul);
  else if (e == 0u) v = double(f) * 5.9604644775390625e-8lf;  // f * 2^-24
  else v = double(f + 1024u) * uint64BitsToDouble(uint64_t(1023 + int(e) - 25) << 52);
  return s != 0u ? -v : v;
}
)"};
    m["p2g_bf2d"] = {{"p2g_f2d"}, {}, R"(// bf16 bits -> double exactly (integer widening: a bf16 denormal is an f32 denormal).
double p2g_bf2d(uint h) { return p2g_f2d(uintBitsToFloat((h & 0xFFFFu) << 16)); }
)"};
    m["p2g_fp8"] = {{"p2g_narrow32"}, {}, R"(// fp8 (HAZARDS.md #13). To e4m3 (bias 7, 3 fraction bits, no infinity, S.1111.111 = NaN, largest 448) and
// e5m2 (bias 15, 2 fraction bits, IEEE-like, largest 57344) with .satfinite: round to nearest even with
// subnormals, NaN -> 0x7F, magnitudes above the largest finite value (infinities too) -> +-largest; .relu:
// negative -> +0. Rounded by p2g_narrow with one exponent bit more than e4m3 has, so that 464..480 can be seen.
uint p2g_to_e4m3(uint v, bool relu) {
  if ((v & 0x7FFFFFFFu) > 0x7F800000u) return 0x7Fu;
  uint r = p2g_narrow32(v, 3, 7, 5, 0, 0x7Fu);   // sign at bit 8
  uint s = (r >> 8) & 1u, mag = r & 0xFFu;
  if (mag > 0x7Eu) mag = 0x7Eu;
  if (relu && s != 0u) return 0u;
  return (s << 7) | mag;
}
uint p2g_to_e5m2(uint v, bool relu) {
  if ((v & 0x7FFFFFFFu) > 0x7F800000u) return 0x7Fu;
  uint r = p2g_narrow32(v, 2, 15, 5, 0, 0x7Fu);
  uint s = (r >> 7) & 1u, mag = r & 0x7Fu;
  if (mag > 0x7Bu) mag = 0x7Bu;
  if (relu && s != 0u) return 0u;
  return (s << 7) | mag;
}
// fp8 -> f16 bits (exact: both formats fit in f16); NaN -> 0x7FFF; .relu: negative -> +0.
uint p2g_e4m3_to_h(uint b, bool relu) {
  uint s = (b >> 7) & 1u, e = (b >> 3) & 15u, f = b & 7u;
  if ((b & 0x7Fu) == 0x7Fu) return 0x7FFFu;
  uint h;
  if (e == 0u) h = f == 0u ? 0u : (f >= 4u ? (0x2000u | ((f & 3u) << 8)) : f >= 2u ? (0x1C00u | ((f & 1u) << 9)) : 0x1800u);
  else h = ((e + 8u) << 10) | (f << 7);
  if (relu && s != 0u) return 0u;
  return (s << 15) | h;
}
uint p2g_e5m2_to_h(uint b, bool relu) {
  if ((b & 0x7Fu) > 0x7Cu) return 0x7FFFu;
  if (relu && (b & 0x80u) != 0u) return 0u;
  return b << 8;
}
)"};
    m["p2g_d2h"] = {{"p2g_narrow", "p2g_d2h_rn"}, {}, R"(// double -> f16 bits with one rounding; NaN -> 0x7FFF (NVIDIA's canonical half NaN).
// Mode 0 (nearly every call, with a literal) takes the compact p2g_d2h_rn; the compiler drops the other branch.
uint p2g_d2h(double v, int mode) { return mode == 0 ? p2g_d2h_rn(v) : p2g_narrow(v, 10, 15, 5, mode, 0x7FFFu); }
)"};
    m["p2g_d2h_rn"] = {{"p2g_f2h_rn"}, {"float64"}, R"(// double -> f16 rounded to nearest even in 32-bit integer code: the double is first cut to f32 by truncation with
// a sticky bit (round to odd, exact for the f16 range), then rounded once: RN11(RO24(x)) = RN11(x) because 24 >= 11 + 2
// (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd", 2008).
uint p2g_d2f_ro(double v) {
  uint64_t w = doubleBitsToUint64(v), aw = w & 0x7FFFFFFFFFFFFFFFul;
  uint sg = uint(w >> 32) & 0x80000000u;
  if (aw > 0x7FF0000000000000ul) return 0x7FFFFFFFu;
  if (aw < 0x3810000000000000ul) return sg;                 // below 2^-126: rounds to a zero in f16 anyway
  if (aw >= 0x47EFFFFFF0000000ul) return sg | 0x7F800000u;  // beyond f32 (and f16) range
  uint64_t m = aw & 0xFFFFFFFFFFFFFul;
  uint f = uint(m >> 29) | ((m & 0x1FFFFFFFul) != 0ul ? 1u : 0u);
  return sg | ((uint(aw >> 52) - 896u) << 23) | f;
}
uint p2g_d2h_rn(double v) { return p2g_f2h_rn(p2g_d2f_ro(v)); }
)"};
    m["p2g_f2h_rn"] = {{"p2g_half_cvt"}, {}, R"(// f32 bits -> f16 bits rounded to nearest even, NaN -> 0x7FFF: the device's packHalf2x16 where the fact
// P2G_HALF_CVT holds, 32-bit integer code otherwise (no device half type).
uint p2g_f2h_rn(uint b) {
  uint sg = (b >> 16) & 0x8000u, ab = b & 0x7FFFFFFFu;
  if (P2G_HALF_CVT) {  // selects between plain variables: no branch among the device's operations
    uint h = packHalf2x16(vec2(uintBitsToFloat(b), 0.0)), q = 0x7FFFu;
    bool n = ab > 0x7F800000u;
    h = n ? q : h;
    return h;
  }
  if (ab > 0x7F800000u) return 0x7FFFu;
  if (ab >= 0x477FF000u) return sg | 0x7C00u;  // >= 65520, the midpoint above 65504: infinity
  int e = int(ab >> 23) - 127;
  if (e < -25) return sg;                     // below 2^-25 (f32 denormals too): zero
  uint m = (ab & 0x7FFFFFu) | 0x800000u;
  uint sh = e >= -14 ? 13u : uint(13 + (-14 - e));
  uint q = m >> sh, rem = m & ((1u << sh) - 1u), hw = 1u << (sh - 1u);
  if (rem > hw || (rem == hw && (q & 1u) != 0u)) q++;
  return sg | ((e >= -14 ? uint(e + 14) << 10 : 0u) + q);
}
)"};
    m["p2g_d2bf"] = {{"p2g_narrow"}, {}, R"(uint p2g_d2bf(double v, int mode) { return p2g_narrow(v, 7, 127, 8, mode, 0x7FFFu); }
)"};
    m["p2g_h_ftz"] = {{}, {}, R"(uint p2g_h_ftz(uint h) { return (h & 0x7C00u) == 0u ? (h & 0x8000u) : h; }
)"};

    // ---- integers ----
    m["p2g_div_u32"] = {{}, {}, R"(// Division by zero is undefined in PTX; these give what NVIDIA's code does (measured: docs/HAZARDS.md).
uint p2g_div_u32(uint a, uint b) { return b == 0u ? 0xFFFFFFFFu : a / b; }
uint p2g_rem_u32(uint a, uint b) { return b == 0u ? a : a % b; }
int p2g_div_s32(int a, int b) {
  if (b == 0) return -1;  // measured on the H200: -1 whatever the sign of a
  if (b == -1) return -a;  // wraps for INT_MIN like the hardware
  return a / b;
}
// rem.s32/s64: the remainder takes the dividend's sign (PTX). GLSL's % of a negative operand is undefined
// (glslang emits OpSMod, whose sign follows the divisor: NVIDIA's Vulkan driver gave 4452/8192 lanes of
// ops/int_arith rem_s64 wrong), so the remainder is taken of the magnitudes.
int p2g_rem_s32(int a, int b) {
  if (b == 0) return a;
  uint r = uint(abs(a)) % uint(abs(b));  // abs(INT_MIN) wraps to INT_MIN, whose uint is 2^31: right
  return a < 0 ? -int(r) : int(r);
}
uint64_t p2g_div_u64(uint64_t a, uint64_t b) { return b == 0ul ? 0xFFFFFFFFFFFFFFFFul : a / b; }
uint64_t p2g_rem_u64(uint64_t a, uint64_t b) { return b == 0ul ? a : a % b; }
int64_t p2g_div_s64(int64_t a, int64_t b) {
  if (b == 0l) return -1l;
  if (b == -1l) return -a;
  return a / b;
}
// The signs are tested on the high words in 32 bits: lavapipe (LLVM 15) miscompiled `a < 0l ? -a : a` on
// sign-extended operands (ptx_corpus/outside/int64_sext_ops: rem.s64 2548/4096, abs.s64 1987/4096 wrong).
int64_t p2g_rem_s64(int64_t a, int64_t b) {
  if (b == 0l) return -1l;  // measured on the H200: -1 whatever a (ops/int_arith rem_s64, 34 lanes)
  bool na = int(unpackUint2x32(uint64_t(a)).y) < 0, nb = int(unpackUint2x32(uint64_t(b)).y) < 0;
  uint64_t r = (na ? 0ul - uint64_t(a) : uint64_t(a)) % (nb ? 0ul - uint64_t(b) : uint64_t(b));
  return na ? int64_t(0ul - r) : int64_t(r);
}
)"};
    m["p2g_mulhi64"] = {{}, {}, R"(// High 64 bits of 64x64-bit products, in 32-bit arithmetic only (umulExtended, carries, borrows):
// lavapipe (LLVM 15) miscompiled the 64-bit form of the signed correction, `if (a < 0l) h -= uint64_t(b)`, when the
// operands were sign-extended 32-bit values (ptx_corpus/outside/mulhi_extremes, operands from cvt.s64.s32: 3043 of
// 4096 mul.hi.s64 values wrong, the same GLSL right on NVIDIA); with the halves compared and subtracted in 32 bits
// every value is right.
uint64_t p2g_umulhi64(uint64_t a, uint64_t b) {
  uvec2 x = unpackUint2x32(a), y = unpackUint2x32(b);
  uint llh, lll, lhh, lhl, hlh, hll, hhh, hhl, c1, c2, c3, c4, c5;
  umulExtended(x.x, y.x, llh, lll);
  umulExtended(x.x, y.y, lhh, lhl);
  umulExtended(x.y, y.x, hlh, hll);
  umulExtended(x.y, y.y, hhh, hhl);
  uint mid = uaddCarry(llh, lhl, c1);
  mid = uaddCarry(mid, hll, c2);
  uint w2 = uaddCarry(hhl, lhh, c3);
  w2 = uaddCarry(w2, hlh, c4);
  w2 = uaddCarry(w2, c1 + c2, c5);
  return packUint2x32(uvec2(w2, hhh + c3 + c4 + c5));
}
// signed: the unsigned high word, minus b when a < 0 and minus a when b < 0 (two's complement)
int64_t p2g_imulhi64(int64_t a, int64_t b) {
  uvec2 h = unpackUint2x32(p2g_umulhi64(uint64_t(a), uint64_t(b)));
  uvec2 x = unpackUint2x32(uint64_t(a)), y = unpackUint2x32(uint64_t(b));
  uint br;
  if (int(x.y) < 0) { h.x = usubBorrow(h.x, y.x, br); h.y = h.y - y.y - br; }
  if (int(y.y) < 0) { h.x = usubBorrow(h.x, x.x, br); h.y = h.y - x.y - br; }
  return int64_t(packUint2x32(h));
}
)"};
    m["p2g_bfe"] = {{}, {}, R"(// bfe (PTX ISA "bfe"): position and length are the low 8 bits of b and c; bits past the top are the sign
// bit (signed) or zero (unsigned); length 0 gives 0.
uint p2g_bfe_u32(uint a, uint b, uint c) {
  uint pos = b & 0xFFu, len = c & 0xFFu;
  if (len == 0u || pos >= 32u) return 0u;
  uint x = a >> pos;
  return len >= 32u ? x : (x & ((1u << len) - 1u));
}
int p2g_bfe_s32(int a, uint b, uint c) {
  uint pos = b & 0xFFu, len = c & 0xFFu;
  if (len == 0u) return 0;
  uint top = min(pos + len - 1u, 31u);
  uint sbit = (uint(a) >> top) & 1u;
  uint v = pos >= 32u ? 0u : min(len, 32u - pos);
  uint x = pos >= 32u ? 0u : (uint(a) >> pos);
  uint keep = v >= 32u ? 0xFFFFFFFFu : ((1u << v) - 1u);
  x &= keep;
  if (sbit != 0u) x |= ~keep;
  return int(x);
}
// bfe.u64 on NVIDIA takes the whole 32-bit position and length, not their low 8 bits (measured on the H200: ops/int_shift_bits bfe_u64, 1429/8192 lanes with b or c above 255 follow this
// rule, all 8192 match it). bfe.s64 is not measured and keeps PTX's 8-bit rule.
uint64_t p2g_bfe_u64(uint64_t a, uint b, uint c) {
  uint pos = b, len = c;
  if (len == 0u || pos >= 64u) return 0ul;
  uint64_t x = a >> pos;
  return len >= 64u ? x : (x & ((1ul << len) - 1ul));
}
int64_t p2g_bfe_s64(int64_t a, uint b, uint c) {
  uint pos = b & 0xFFu, len = c & 0xFFu;
  if (len == 0u) return 0l;
  uint top = min(pos + len - 1u, 63u);
  uint64_t sbit = (uint64_t(a) >> top) & 1ul;
  uint v = pos >= 64u ? 0u : min(len, 64u - pos);
  uint64_t x = pos >= 64u ? 0ul : (uint64_t(a) >> pos);
  uint64_t keep = v >= 64u ? 0xFFFFFFFFFFFFFFFFul : ((1ul << v) - 1ul);
  x &= keep;
  if (sbit != 0ul) x |= ~keep;
  return int64_t(x);
}
)"};
    m["p2g_bfi"] = {{}, {}, R"(// bfi: insert the low `len` bits of f into b at `pos` (low 8 bits of each); out-of-range leaves b.
uint p2g_bfi_32(uint f, uint b, uint c, uint d) {
  uint pos = c & 0xFFu, len = d & 0xFFu;
  if (len == 0u || pos >= 32u) return b;
  uint mask = (len >= 32u ? 0xFFFFFFFFu : ((1u << len) - 1u)) << pos;
  return (b & ~mask) | ((f << pos) & mask);
}
uint64_t p2g_bfi_64(uint64_t f, uint64_t b, uint c, uint d) {
  uint pos = c & 0xFFu, len = d & 0xFFu;
  if (len == 0u || pos >= 64u) return b;
  uint64_t mask = (len >= 64u ? 0xFFFFFFFFFFFFFFFFul : ((1ul << len) - 1ul)) << pos;
  return (b & ~mask) | ((f << pos) & mask);
}
)"};
    m["p2g_prmt"] = {{}, {}, R"(// prmt.b32: bytes of {b, a} (a = bytes 0-3, b = 4-7) chosen by the selector c; modes per PTX ISA "prmt".
uint p2g_prmt_byte(uint a, uint b, uint sel) {
  uint w = (sel & 4u) != 0u ? b : a;
  uint byte = (w >> ((sel & 3u) * 8u)) & 0xFFu;
  if ((sel & 8u) != 0u) byte = (byte & 0x80u) != 0u ? 0xFFu : 0u;
  return byte;
}
uint p2g_prmt(uint a, uint b, uint c, int mode) {
  uint r = 0u;
  uint s[4];
  if (mode == 0) {
    for (int i = 0; i < 4; ++i) r |= p2g_prmt_byte(a, b, (c >> (4 * i)) & 0xFu) << (8 * i);
    return r;
  }
  uint n = c & 3u;
  if (mode == 1) { s[0] = n; s[1] = (n + 1u) & 7u; s[2] = (n + 2u) & 7u; s[3] = (n + 3u) & 7u; }          // f4e
  else if (mode == 2) { s[0] = n; s[1] = (n - 1u) & 7u; s[2] = (n - 2u) & 7u; s[3] = (n - 3u) & 7u; }     // b4e
  else if (mode == 3) { s[0] = n; s[1] = n; s[2] = n; s[3] = n; }                                          // rc8
  else if (mode == 4) { s[0] = n; s[1] = max(n, 1u); s[2] = max(n, 2u); s[3] = 3u; }                        // ecl
  else if (mode == 5) { s[0] = 0u; s[1] = min(n, 1u); s[2] = min(n, 2u); s[3] = n; }                        // ecr
  else { uint h = (c & 1u) * 2u; s[0] = h; s[1] = h + 1u; s[2] = h; s[3] = h + 1u; }                       // rc16
  for (int i = 0; i < 4; ++i) r |= p2g_prmt_byte(a, b, s[i] & 7u) << (8 * i);
  return r;
}
)"};
    m["p2g_shf"] = {{}, {}, R"(// shf (funnel shift) on the 64-bit value {hi=b, lo=a}; .wrap takes the amount mod 32, .clamp caps it at 32
// (emit_int.cpp hands n in [0, 32]): the high word of the 64-bit value shifted left, the low word shifted right,
// which a device with a funnel shifter does in one instruction.
uint p2g_shf_l(uint a, uint b, uint n) { return unpackUint2x32(packUint2x32(uvec2(a, b)) << n).y; }
uint p2g_shf_r(uint a, uint b, uint n) { return unpackUint2x32(packUint2x32(uvec2(a, b)) >> n).x; }
)"};
    m["p2g_bit64"] = {{}, {}, R"(uint p2g_popc64(uint64_t a) { return uint(bitCount(uint(a)) + bitCount(uint(a >> 32))); }
uint p2g_clz64(uint64_t a) { uint h = uint(a >> 32); return h != 0u ? uint(31 - findMSB(h)) : 32u + uint(31 - findMSB(uint(a))); }
uint64_t p2g_brev64(uint64_t a) { return (uint64_t(bitfieldReverse(uint(a))) << 32) | uint64_t(bitfieldReverse(uint(a >> 32))); }
uint p2g_bfind_u64(uint64_t a) { uint h = uint(a >> 32); return h != 0u ? uint(findMSB(h)) + 32u : uint(findMSB(uint(a))); }
uint p2g_bfind_s64(int64_t a) {  // the sign tested in 32 bits: see p2g_rem_s64
  return p2g_bfind_u64(int(unpackUint2x32(uint64_t(a)).y) < 0 ? ~uint64_t(a) : uint64_t(a));
}
)"};
    for (auto& h : sfuHelpers()) m[h.name] = {h.deps, h.features, h.text};
    for (auto& h : divHelpers()) m[h.name] = {h.deps, h.features, h.text};
    for (auto& h : mmaHelpers()) m[h.name] = {h.deps, h.features, h.text};
    for (auto& h : f32Helpers()) m[h.name] = {h.deps, h.features, h.text};
    for (auto& h : tensorHelpers()) m[h.name] = {h.deps, h.features, h.text};
    for (auto& h : warpHelpers()) m[h.name] = {h.deps, h.features, h.text};
    return m;
  }();
  return t;
}

void visit(const std::string& n, const std::map<std::string, Helper>& t, std::set<std::string>& done,
           std::vector<std::string>& order) {
  if (done.count(n)) return;
  done.insert(n);
  auto it = t.find(n);
  if (it == t.end()) return;
  for (auto& d : it->second.deps) visit(d, t, done, order);
  order.push_back(n);
}

}  // namespace

std::string preludeText(const std::set<std::string>& names, std::set<std::string>& features) {
  auto& t = table();
  std::set<std::string> done;
  std::vector<std::string> order;
  for (auto& n : names) visit(n, t, done, order);
  std::string s;
  for (auto& n : order) {
    auto& h = t.at(n);
    for (auto& f : h.features) features.insert(f);
    s += h.text;
  }
  return s;
}

}  // namespace p2g
