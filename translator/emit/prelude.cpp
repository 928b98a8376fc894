// GLSL helper functions the emitter may call, each with the hazard or PTX rule it implements.
// A helper is emitted only when used; dependencies come first; the order is fixed (deterministic output).
#include <map>
#include <string>
#include <vector>

#include "emitter.h"

namespace p2g {
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
      s += "void p2g_sts" + b + "(uint a, uint v) { uint sh = (a & 3u) * 8u; atomicAnd(smem[a >> 2], ~(" + mask +
           " << sh)); atomicOr(smem[a >> 2], (v & " + mask + ") << sh); }\n";
    else if (w == 'l')
      s += "void p2g_stl" + b + "(uint a, uint v) { lmem[a >> 2] = bitfieldInsert(lmem[a >> 2], v, int((a & 3u) * 8u), " + b +
           "); }\n";
  }
  return s;
}

// Generic addresses: global unless the top byte is 0xFF, then the next byte names the window (emit_mem.cpp).
std::string genericHelper(bool store, unsigned bits) {
  std::string b = std::to_string(bits);
  std::string T = bits == 64 ? "uint64_t" : "uint";
  std::string g;
  std::string glob = bits == 8 ? "P2GU8(a).v" : bits == 16 ? "P2GU16(a).v" : bits == 32 ? "P2GU32(a).v" : "P2GU64(a).v";
  if (!store) {
    g += T + " p2g_gen_ld" + b + "(uint64_t a) {\n";
    g += "  uint w = uint(a >> 48);\n";
    g += "  if (w == 0xFF01u) return p2g_lds" + b + "(uint(a));\n";
    g += "  if (w == 0xFF02u) return p2g_ldl" + b + "(uint(a));\n";
    g += "  if (w == 0xFF03u) return p2g_ldc" + b + "(uint(a));\n";
    g += "  if (w == 0xFF04u) a = pc.params + (a & 0xFFFFFFFFul);\n";
    g += "  return " + T + "(" + glob + ");\n}\n";
  } else {
    g += "void p2g_gen_st" + b + "(uint64_t a, " + T + " v) {\n";
    g += "  uint w = uint(a >> 48);\n";
    g += "  if (w == 0xFF01u) { p2g_sts" + b + "(uint(a), v); return; }\n";
    g += "  if (w == 0xFF02u) { p2g_stl" + b + "(uint(a), v); return; }\n";
    std::string cast = bits == 8 ? "uint8_t(v)" : bits == 16 ? "uint16_t(v)" : "v";
    g += "  " + glob + " = " + cast + ";\n}\n";
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
    }

    // ---- floating point (HAZARDS.md #3-#7, #14) ----
    m["p2g_canon"] = {{}, {}, R"(// NVIDIA's float units return the canonical NaN 0x7FFFFFFF whatever the input payloads (HAZARDS.md #14).
float p2g_canon(float x) { return isnan(x) ? uintBitsToFloat(0x7FFFFFFFu) : x; }
)"};
    m["p2g_ftz"] = {{}, {}, R"(// .ftz: a subnormal input or result becomes a zero of the same sign (HAZARDS.md #5).
float p2g_ftz(float x) { uint b = floatBitsToUint(x); return (b & 0x7F800000u) == 0u ? uintBitsToFloat(b & 0x80000000u) : x; }
)"};
    m["p2g_sat"] = {{}, {}, R"(// .sat: clamp to [0, 1]; NaN and -0.0 give +0.0 (PTX ISA, "Floating-point saturation").
float p2g_sat(float x) { return x > 0.0 ? min(x, 1.0) : 0.0; }
)"};
    m["p2g_odd_sum"] = {{}, {"float64"}, R"(// a + b of two doubles, rounded to odd: the correctly rounded double when exact, otherwise the neighbour whose last
// bit is 1 on the side of the exact sum. Rounding an odd-rounded value of p + 2 or more bits to p bits gives the
// correctly rounded result in every mode (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", IEEE TC 2008). The error term is Knuth's TwoSum, exact in double.
double p2g_odd_sum(double a, double b) {
  precise double s = a + b;
  precise double bb = s - a;
  precise double e = (a - (s - bb)) + (b - bb);
  if (e == 0.0 || isinf(s) || isnan(s)) return s;
  uint64_t w = doubleBitsToUint64(s);
  if ((w & 1ul) == 0ul) w = ((e > 0.0) == (s > 0.0)) ? (w | 1ul) : (w - 1ul);
  return uint64BitsToDouble(w);
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
    m["p2g_f64_to_f32"] = {{"p2g_narrow"}, {}, R"(float p2g_f64_to_f32(double v, int mode) { return uintBitsToFloat(p2g_narrow(v, 23, 127, 8, mode, 0x7FFFFFFFu)); }
)"};
    m["p2g_fma"] = {{"p2g_odd_sum", "p2g_f64_to_f32"}, {}, R"(// fma.rn.f32 with a single rounding on every device: the product of two floats is exact in double, the sum is
// rounded to odd, then to f32 (HAZARDS.md #3: lavapipe's GLSL fma() is not fused).
float p2g_fma(float a, float b, float c, int mode) {
  precise double p = double(a) * double(b);
  return p2g_f64_to_f32(p2g_odd_sum(p, double(c)), mode);
}
)"};
    m["p2g_div_rn"] = {{}, {"float64"}, R"(// div.rn.f32: correctly rounded. The double quotient is correctly rounded and 53 >= 2*24+2, so rounding it again
// to f32 cannot double-round (Figueroa, "When is double rounding innocuous?", SIGNUM 1995).
float p2g_div_rn(float a, float b) { return float(double(a) / double(b)); }
)"};
    m["p2g_sqrt_rn"] = {{}, {"float64"}, R"(// sqrt.rn.f32 through the correctly rounded double square root (double rounding innocuous, as for division).
float p2g_sqrt_rn(float a) { return float(sqrt(double(a))); }
)"};
    m["p2g_fmin"] = {{"p2g_canon"}, {}, R"(// min.f32: a NaN operand is ignored; both NaN give the canonical NaN; -0.0 is below +0.0.
float p2g_fmin(float a, float b) {
  if (isnan(a)) return p2g_canon(b);
  if (isnan(b)) return a;
  if (a == b) return uintBitsToFloat(floatBitsToUint(a) | floatBitsToUint(b));
  return a < b ? a : b;
}
)"};
    m["p2g_fmax"] = {{"p2g_canon"}, {}, R"(// max.f32: a NaN operand is ignored; both NaN give the canonical NaN; +0.0 is above -0.0.
float p2g_fmax(float a, float b) {
  if (isnan(a)) return p2g_canon(b);
  if (isnan(b)) return a;
  if (a == b) return uintBitsToFloat(floatBitsToUint(a) & floatBitsToUint(b));
  return a > b ? a : b;
}
)"};
    m["p2g_dmin"] = {{}, {"float64"}, R"(double p2g_dmin(double a, double b) {
  if (isnan(a)) return isnan(b) ? uint64BitsToDouble(0x7FFFFFFFFFFFFFFFul) : b;
  if (isnan(b)) return a;
  if (a == b) return uint64BitsToDouble(doubleBitsToUint64(a) | doubleBitsToUint64(b));
  return a < b ? a : b;
}
)"};
    m["p2g_dmax"] = {{}, {"float64"}, R"(double p2g_dmax(double a, double b) {
  if (isnan(a)) return isnan(b) ? uint64BitsToDouble(0x7FFFFFFFFFFFFFFFul) : b;
  if (isnan(b)) return a;
  if (a == b) return uint64BitsToDouble(doubleBitsToUint64(a) & doubleBitsToUint64(b));
  return a > b ? a : b;
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
    m["p2g_bf2d"] = {{}, {"float64"}, R"(double p2g_bf2d(uint h) { return double(uintBitsToFloat((h & 0xFFFFu) << 16)); }
)"};
    m["p2g_d2h"] = {{"p2g_narrow"}, {}, R"(// double -> f16 bits with one rounding; NaN -> 0x7FFF (NVIDIA's canonical half NaN).
uint p2g_d2h(double v, int mode) { return p2g_narrow(v, 10, 15, 5, mode, 0x7FFFu); }
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
int p2g_rem_s32(int a, int b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  return a % b;
}
uint64_t p2g_div_u64(uint64_t a, uint64_t b) { return b == 0ul ? 0xFFFFFFFFFFFFFFFFul : a / b; }
uint64_t p2g_rem_u64(uint64_t a, uint64_t b) { return b == 0ul ? a : a % b; }
int64_t p2g_div_s64(int64_t a, int64_t b) {
  if (b == 0l) return -1l;
  if (b == -1l) return -a;
  return a / b;
}
int64_t p2g_rem_s64(int64_t a, int64_t b) {
  if (b == 0l) return a;
  if (b == -1l) return 0l;
  return a % b;
}
)"};
    m["p2g_mulhi64"] = {{}, {}, R"(// High 64 bits of 64x64-bit products, from 32-bit halves.
uint64_t p2g_umulhi64(uint64_t a, uint64_t b) {
  uint64_t al = a & 0xFFFFFFFFul, ah = a >> 32, bl = b & 0xFFFFFFFFul, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFul) + (hl & 0xFFFFFFFFul);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
int64_t p2g_imulhi64(int64_t a, int64_t b) {
  uint64_t h = p2g_umulhi64(uint64_t(a), uint64_t(b));
  if (a < 0l) h -= uint64_t(b);
  if (b < 0l) h -= uint64_t(a);
  return int64_t(h);
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
uint64_t p2g_bfe_u64(uint64_t a, uint b, uint c) {
  uint pos = b & 0xFFu, len = c & 0xFFu;
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
    m["p2g_shf"] = {{}, {}, R"(// shf (funnel shift) on the 64-bit value {hi=b, lo=a}; .wrap takes the amount mod 32, .clamp caps it at 32.
uint p2g_shf_l(uint a, uint b, uint n) { return n == 0u ? b : n >= 32u ? a : (b << n) | (a >> (32u - n)); }
uint p2g_shf_r(uint a, uint b, uint n) { return n == 0u ? a : n >= 32u ? b : (a >> n) | (b << (32u - n)); }
)"};
    m["p2g_bit64"] = {{}, {}, R"(uint p2g_popc64(uint64_t a) { return uint(bitCount(uint(a)) + bitCount(uint(a >> 32))); }
uint p2g_clz64(uint64_t a) { uint h = uint(a >> 32); return h != 0u ? uint(31 - findMSB(h)) : 32u + uint(31 - findMSB(uint(a))); }
uint64_t p2g_brev64(uint64_t a) { return (uint64_t(bitfieldReverse(uint(a))) << 32) | uint64_t(bitfieldReverse(uint(a >> 32))); }
uint p2g_bfind_u64(uint64_t a) { uint h = uint(a >> 32); return h != 0u ? uint(findMSB(h)) + 32u : uint(findMSB(uint(a))); }
uint p2g_bfind_s64(int64_t a) { return p2g_bfind_u64(uint64_t(a < 0l ? ~a : a)); }
)"};
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
