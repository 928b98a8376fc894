// Emission framework: operand access with PTX's size/type rules, declarations, structured control flow.
#include "emitter.h"
#include "region_guard.h"
#include "forms.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "check_bounds.h"
#include "fold.h"
#include "glsl_text.h"
#include "handles.h"

namespace p2g {

using ir::Opnd;


// `call(x)` -> x when the text is exactly one call of `call` (its first parenthesis closes at the end).
static bool unwrapCall(const std::string& e, const char* call, std::string& inner) {
  size_t n = strlen(call);
  if (e.size() < n + 2 || e.compare(0, n, call) != 0 || e[n] != '(' || e.back() != ')') return false;
  int depth = 0;
  for (size_t i = n; i < e.size(); ++i) {
    if (e[i] == '(') ++depth;
    else if (e[i] == ')' && --depth == 0 && i + 1 != e.size()) return false;
  }
  inner = e.substr(n + 1, e.size() - n - 2);
  return true;
}
std::string bitsOf(const std::string& f) {
  std::string in;
  return unwrapCall(f, "uintBitsToFloat", in) ? in : "floatBitsToUint(" + f + ")";
}
std::string floatOf(const std::string& u) {
  std::string in;
  return unwrapCall(u, "floatBitsToUint", in) ? in : "uintBitsToFloat(" + u + ")";
}
using ir::VType;

Ty parseTy(std::string_view m) {
  // Called for every modifier of every instruction: dispatch on the first letter before comparing.
  if (m.size() < 2 || m.size() > 6) return {};
  unsigned bits = 0;
  auto num = [&](std::string_view d) {
    if (d == "8") return 8u;
    if (d == "16") return 16u;
    if (d == "32") return 32u;
    if (d == "64") return 64u;
    return 0u;
  };
  switch (m[0]) {
    case 'b':
      if (m == "bf16") return {Ty::K::BF16, 16};
      if (m == "bf16x2") return {Ty::K::BF16x2, 32};
      bits = num(m.substr(1));
      return bits ? Ty{Ty::K::B, bits} : Ty{};
    case 'u': bits = num(m.substr(1)); return bits ? Ty{Ty::K::U, bits} : Ty{};
    case 's': bits = num(m.substr(1)); return bits ? Ty{Ty::K::S, bits} : Ty{};
    case 'f':
      if (m == "f32") return {Ty::K::F, 32};
      if (m == "f64") return {Ty::K::F, 64};
      if (m == "f16") return {Ty::K::F16, 16};
      if (m == "f16x2") return {Ty::K::F16x2, 32};
      return {};
    case 'p': return m == "pred" ? Ty{Ty::K::Pred, 1} : Ty{};
    case 'e':
      if (m == "e4m3x2") return {Ty::K::E4M3x2, 16};
      if (m == "e5m2x2") return {Ty::K::E5M2x2, 16};
      return {};
    case 't': return m == "tf32" ? Ty{Ty::K::B, 32} : Ty{};
    default: return {};
  }
}

Ty instrType(const ir::Inst& in) {
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    Ty t = parseTy(*it);
    if (t.k != Ty::K::None) return t;
  }
  return {};
}

// glslOf without making a string (regAs and store only compare it)
static std::string_view glslName(Ty t) {
  switch (t.k) {
    case Ty::K::Pred: return "bool";
    case Ty::K::S: return t.bits == 64 ? "int64_t" : "int";
    case Ty::K::F: return t.bits == 64 ? "double" : "float";
    case Ty::K::B:
    case Ty::K::U: return t.bits == 64 ? "uint64_t" : "uint";
    default: return "uint";
  }
}
std::string glslOf(Ty t) { return std::string(glslName(t)); }

static std::string hex32(uint32_t v) {
  char b[16];
  snprintf(b, sizeof b, "0x%08Xu", v);
  return b;
}
static std::string hex64(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%016" PRIX64 "ul", v);
  return b;
}

std::string Emitter::lit(Ty t, int64_t v) {
  if (t.k == Ty::K::Pred) return v ? "true" : "false";
  if (t.k == Ty::K::F) {
    if (t.bits == 64) {
      double d = double(v);
      uint64_t b;
      memcpy(&b, &d, 8);
      return doubleLit(b);
    }
    float f = float(v);
    uint32_t b;
    memcpy(&b, &f, 4);
    return floatLit(b);
  }
  unsigned bits = t.bits ? t.bits : 32;
  if (t.k == Ty::K::S) {
    if (bits == 64) {
      if (v == INT64_MIN) return "(-9223372036854775807l - 1l)";
      return std::to_string(v) + "l";
    }
    int64_t x = v;
    if (bits < 64) {  // sign-extend the low `bits`
      uint64_t m = (bits == 32) ? 0xFFFFFFFFull : ((1ull << bits) - 1);
      uint64_t u = uint64_t(v) & m;
      x = (u >> (bits - 1)) & 1 ? int64_t(u | ~m) : int64_t(u);
    }
    if (x == INT32_MIN) return "(-2147483647 - 1)";
    return std::to_string(x);
  }
  if (bits == 64) {
    uint64_t u = uint64_t(v);
    return u < 65536 ? std::to_string(u) + "ul" : hex64(u);
  }
  uint64_t m = (bits == 32) ? 0xFFFFFFFFull : ((1ull << bits) - 1);
  uint32_t u = uint32_t(uint64_t(v) & m);
  return u < 65536 ? std::to_string(u) + "u" : hex32(u);
}

// A float literal that glslang cannot misround: a short decimal only when it is exactly the float's value
// (glslang parses literals as double and casts, so an exact decimal survives; others use the bit pattern).
std::string Emitter::floatLit(uint32_t bits) {
  // a kernel uses a few hundred distinct constants many times each: each is printed (and read back) once
  auto kept = floatLits_.find(bits);
  if (kept != floatLits_.end()) return kept->second;
  float f;
  memcpy(&f, &bits, 4);
  std::string s;
  if (std::isfinite(f) && f != 0.0f) {
    char b[64];
    snprintf(b, sizeof b, "%.9g", double(f));
    if (strtod(b, nullptr) == double(f) && strlen(b) <= 12) {
      s = b;
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
    }
  }
  if (s.empty()) s = bits == 0 ? "0.0" : "uintBitsToFloat(" + hex32(bits) + ")";
  return floatLits_.emplace(bits, std::move(s)).first->second;
}

std::string Emitter::doubleLit(uint64_t bits) {
  double d;
  memcpy(&d, &bits, 8);
  if (std::isfinite(d) && d != 0.0) {
    char b[64];
    snprintf(b, sizeof b, "%.17g", d);
    if (strtod(b, nullptr) == d && strlen(b) <= 12) {
      std::string s = b;
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      return s + "lf";
    }
  }
  if (bits == 0) return "0.0lf";
  return "uint64BitsToDouble(" + hex64(bits) + ")";
}

// The width a register's PTX type declares: b8/u8/s8 8, b16/u16/s16/f16/bf16 16, pred 1, b64/u64/s64/f64 64,
// every other type 32. Asked several times for every register store, so decided by length and characters rather
// than by a chain of string comparisons.
static unsigned declBits(std::string_view t) {
  if (t.size() == 2) return t[1] == '8' && (t[0] == 'b' || t[0] == 'u' || t[0] == 's') ? 8 : 32;
  if (t.size() == 3 && (t[0] == 'b' || t[0] == 'u' || t[0] == 's' || t[0] == 'f')) {
    if (t[1] == '1' && t[2] == '6') return 16;
    if (t[1] == '6' && t[2] == '4') return 64;
    return 32;
  }
  if (t.size() == 4 && t[2] == '1' && t[3] == '6' && t[0] == 'b' && t[1] == 'f') return 16;
  if (t.size() == 4 && t[0] == 'p' && t[1] == 'r' && t[2] == 'e' && t[3] == 'd') return 1;
  return 32;
}
unsigned regDeclBits(std::string_view ptxType) { return declBits(ptxType); }

std::string Emitter::regAs(int r, Ty t) {
  const ir::Reg& R = F.regs[r];
  // a folded register reads as a marker for its value (resolveFolds)
  std::string marker;
  if (!liveFold_.empty() && liveFold_[size_t(r)] >= 0) {
    char m[16];
    m[0] = '\x01';
    char* end = std::to_chars(m + 1, m + sizeof m - 1, liveFold_[size_t(r)]).ptr;
    *end++ = '\x02';
    marker.assign(m, size_t(end - m));
  }
  const std::string& n = marker.empty() ? R.name : marker;
  if (t.k == Ty::K::Pred || R.vt == VType::Bool) {
    if (t.k == Ty::K::Pred && R.vt == VType::Bool) return n;
    if (R.vt == VType::Bool) return "(" + n + " ? 1u : 0u)";  // not PTX, but harmless
    return "(" + regAs(r, Ty{Ty::K::U, 32}) + " != 0u)";
  }
  unsigned tb = t.bits;
  std::string_view G = glslName(t);
  if (ir::vtypeBits(R.vt) == 32) {
    // a register read as the type it holds is its name: the views below are made only where they are read
    if (tb == 32 && G == "int") return R.vt == VType::S32 ? n : R.vt == VType::F32 ? "floatBitsToInt(" + n + ")" : "int(" + n + ")";
    if (tb == 32 && G == "float" && R.vt == VType::F32) return n;
    std::string raw = R.vt == VType::U32 ? n : R.vt == VType::S32 ? "uint(" + n + ")" : "floatBitsToUint(" + n + ")";
    if (tb == 32) {
      if (G == "uint") return raw;
      if (G == "float") return "uintBitsToFloat(" + raw + ")";
    }
    if (tb < 32) {
      if (t.k == Ty::K::S) return "bitfieldExtract(int(" + raw + "), 0, " + std::to_string(tb) + ")";
      if (declBits(R.ptxType) <= tb) return raw;
      return "(" + raw + " & " + hex32(uint32_t((1ull << tb) - 1)) + ")";
    }
    // 64-bit view of a 32-bit register: extend (cvt and friends)
    if (G == "int64_t") return R.vt == VType::S32 ? "int64_t(" + n + ")" : "int64_t(" + raw + ")";
    if (G == "double") return "uint64BitsToDouble(uint64_t(" + raw + "))";
    return "uint64_t(" + raw + ")";
  }
  if (tb == 64 && G == "int64_t") return R.vt == VType::S64 ? n : R.vt == VType::F64 ? "doubleBitsToInt64(" + n + ")" : "int64_t(" + n + ")";
  if (tb == 64 && G != "uint64_t" && R.vt == VType::F64) return n;
  std::string raw = R.vt == VType::U64 ? n : R.vt == VType::S64 ? "uint64_t(" + n + ")" : "doubleBitsToUint64(" + n + ")";
  if (tb == 64) {
    if (G == "uint64_t") return raw;
    return "uint64BitsToDouble(" + raw + ")";
  }
  std::string low = "uint(" + raw + ")";
  if (tb == 32) {
    if (G == "uint") return low;
    if (G == "int") return "int(" + low + ")";
    return "uintBitsToFloat(" + low + ")";
  }
  if (t.k == Ty::K::S) return "bitfieldExtract(int(" + low + "), 0, " + std::to_string(tb) + ")";
  return "(" + low + " & " + hex32(uint32_t((1ull << tb) - 1)) + ")";
}

std::string Emitter::src(const Opnd& o, Ty t) {
  switch (o.kind) {
    case Opnd::Kind::Reg: {
      std::string v = regAs(o.reg, t);
      if (o.neg && F.regs[o.reg].vt != ir::VType::Bool) {
        // PTX's `!` negates predicates only (a fuzz_spirv input had `cvta.to.global.u64 %rd28, !%rd1`)
        diags_.error(o.span, "'!' applies to predicate operands only, not to a ." +
                                 std::string(F.regs[o.reg].ptxType) + " register");
        ok_ = false;
        return v;
      }
      if (o.neg) return "!" + v;
      return v;
    }
    case Opnd::Kind::Imm: return lit(t, o.imm);
    case Opnd::Kind::FImm: {
      if (t.k == Ty::K::F && t.bits == 32) {
        if (!o.isDouble) return floatLit(uint32_t(o.fbits));
        double d;
        memcpy(&d, &o.fbits, 8);
        float f = float(d);
        uint32_t b;
        memcpy(&b, &f, 4);
        return floatLit(b);
      }
      if (t.k == Ty::K::F && t.bits == 64) {
        if (o.isDouble) return doubleLit(o.fbits);
        float f;
        uint32_t b32 = uint32_t(o.fbits);
        memcpy(&f, &b32, 4);
        double d = f;
        uint64_t b;
        memcpy(&b, &d, 8);
        return doubleLit(b);
      }
      // a float literal used as raw bits (mov.b32 %r, 0f3F800000)
      return lit(Ty{Ty::K::U, t.bits ? t.bits : 32}, int64_t(o.fbits));
    }
    case Opnd::Kind::VarAddr:
    case Opnd::Kind::Label: {
      // a .shared variable's address as a 32-bit value: its named offset as is (addressOf's window form)
      if (o.kind == Opnd::Kind::VarAddr && F.vars[o.var].space == ptx::Space::Shared && t.bits != 64) {
        std::string a = addressOf(o, ptx::Space::Shared);
        return t.k == Ty::K::S ? "int(" + a + ")" : a;
      }
      std::string a = addressOf(o, ptx::Space::None);
      if (t.bits == 64) return t.k == Ty::K::S ? "int64_t(" + a + ")" : "uint64_t(" + a + ")";
      return t.k == Ty::K::S ? "int(" + a + ")" : "uint(" + a + ")";
    }
    case Opnd::Kind::Special: {
      std::string s(o.special);
      // %tid, %ntid, %ctaid, %nctaid: the components x, y and z (a fuzz_spirv input had `%ntid.x.extern`, which
      // went into the GLSL as is).
      auto comp = [&](const char* base) -> std::string {
        std::string c = s.size() > strlen(base) + 1 ? s.substr(strlen(base) + 1) : "x";
        if (c != "x" && c != "y" && c != "z") {
          diags_.error(o.span, "special register '" + s + "': expected the component .x, .y or .z of " + base);
          ok_ = false;
          return "x";
        }
        return c;
      };
      std::string v;
      auto starts = [&](const char* p) { return s.compare(0, strlen(p), p) == 0 && (s.size() == strlen(p) || s[strlen(p)] == '.'); };
      if (starts("%tid")) v = "gl_LocalInvocationID." + comp("%tid");
      else if (starts("%ntid")) v = "gl_WorkGroupSize." + comp("%ntid");
      else if (starts("%ctaid")) v = "gl_WorkGroupID." + comp("%ctaid");
      else if (starts("%nctaid")) v = "gl_NumWorkGroups." + comp("%nctaid");
      else if (s == "%laneid") v = "(gl_LocalInvocationIndex & 31u)";
      else if (s == "%warpid") v = "(gl_LocalInvocationIndex >> 5u)";
      else if (s == "%nwarpid") v = "((gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z + 31u) >> 5u)";
      else if (s == "%warpsize") v = "32u";
      else if (s == "%smid" || s == "%gridid") v = "0u";
      else if (s == "%nsmid") v = "1u";
      else if (s == "%lanemask_eq") v = "(1u << (gl_LocalInvocationIndex & 31u))";
      else if (s == "%lanemask_lt") v = "((1u << (gl_LocalInvocationIndex & 31u)) - 1u)";
      else if (s == "%lanemask_le") v = "((2u << (gl_LocalInvocationIndex & 31u)) - 1u)";
      else if (s == "%lanemask_gt") v = "(~((2u << (gl_LocalInvocationIndex & 31u)) - 1u))";
      else if (s == "%lanemask_ge") v = "(~((1u << (gl_LocalInvocationIndex & 31u)) - 1u))";
      else if (s == "%dynamic_smem_size") v = "P2G_DYN_SMEM_BYTES";
      else if (s == "%total_smem_size") v = "(" + std::to_string(F.sharedStaticBytes) + "u + P2G_DYN_SMEM_BYTES)";
      else {
        diags_.error(o.span, "special register '" + s + "' is not supported yet");
        ok_ = false;
        v = "0u";
      }
      if (t.bits == 64) return "uint64_t(" + v + ")";
      if (t.k == Ty::K::S) return "int(" + v + ")";
      return v;
    }
    case Opnd::Kind::Sink: return lit(t, 0);
    default:
      diags_.error(o.span, "operand cannot be used as a value here");
      ok_ = false;
      return "0u";
  }
}

bool Emitter::halfFmaAddend(int reg) {
  if (halfAddend_.empty()) {
    halfAddend_.assign(F.regs.size() + 1, false);
    for (const ir::Block& b : F.blocks)
      for (const ir::Inst& in : b.insts)  // (PTX has no f16 mad: fma is the only f16 form with an addend)
        if (in.op == "fma" && (in.hasMod("f16") || in.hasMod("f16x2")) && in.ops.size() == 4 &&
            in.ops[3].kind == Opnd::Kind::Reg && in.ops[3].reg >= 0)
          halfAddend_[in.ops[3].reg] = true;
    // backwards through the instructions that move bits without arithmetic (mov, with vector packs and unpacks
    // such as `mov.b32 %r, {%h0, %h1}`, and selp), until nothing changes: where any register the move writes is
    // marked, every register it reads is
    auto regs = [](const Opnd& o, auto&& f) {
      if (o.kind == Opnd::Kind::Reg && o.reg >= 0) f(o.reg);
      if (o.kind == Opnd::Kind::Vec)
        for (const Opnd& e : o.elems)
          if (e.kind == Opnd::Kind::Reg && e.reg >= 0) f(e.reg);
    };
    for (bool grew = true; grew;) {
      grew = false;
      for (const ir::Block& b : F.blocks)
        for (const ir::Inst& in : b.insts) {
          if ((in.op != "mov" && in.op != "selp") || in.ops.size() < 2) continue;
          bool marked = false;
          regs(in.ops[0], [&](int r) { marked = marked || halfAddend_[r]; });
          if (!marked) continue;
          for (size_t i = 1; i < in.ops.size(); ++i)
            regs(in.ops[i], [&](int r) {
              if (!halfAddend_[r]) halfAddend_[r] = grew = true;
            });
        }
    }
  }
  return reg < 0 || size_t(reg) >= halfAddend_.size() || halfAddend_[reg];
}

bool Emitter::barrierCount(const ir::Inst& in, const Opnd& count) {
  if (count.kind != Opnd::Kind::Imm) {
    diags_.error(count.span, "a barrier's thread count must be an immediate (only barrier 0 with the whole block is "
                             "supported)");
    ok_ = false;
    return false;
  }
  uint64_t n = uint64_t(count.imm);
  uint64_t req = uint64_t(F.reqntid[0]) * std::max(F.reqntid[1], 1u) * std::max(F.reqntid[2], 1u);
  std::string why;
  if (count.imm <= 0 || n % 32 != 0) why = "a barrier's thread count must be a positive multiple of 32";
  else if (F.reqntid[0] && n != req)
    why = "barrier thread count " + std::to_string(n) + " is not the block's " + std::to_string(req) +
          " threads (.reqntid): only barriers of the whole block are supported";
  else if (blockThreads_ && n != blockThreads_)
    why = "barrier thread count " + std::to_string(n) + " differs from the kernel's other barrier count " +
          std::to_string(blockThreads_) + ": only barriers of the whole block are supported";
  if (!why.empty()) {
    diags_.error(count.span, why);
    ok_ = false;
    return false;
  }
  blockThreads_ = uint32_t(n);
  return true;
}

void Emitter::store(const Opnd& dst, Ty t, const std::string& expr) {
  if (dst.kind == Opnd::Kind::Sink) return;
  if (dst.kind != Opnd::Kind::Reg) {
    diags_.error(dst.span, "destination must be a register");
    ok_ = false;
    return;
  }
  const ir::Reg& R = F.regs[dst.reg];
  std::string_view G = glslName(t);
  if (R.vt == VType::Bool) {
    assignReg(dst.reg, G == "bool" ? expr : "(" + expr + ") != 0u");
    return;
  }
  if (G == "bool") {
    assignReg(dst.reg, glslOf(Ty{Ty::K::U, ir::vtypeBits(R.vt)}) + "((" + expr + ") ? 1 : 0)");
    return;
  }
  unsigned tb = t.bits;
  // Raw bits of the value, widened/narrowed to the register's width per PTX's rules (sign-extend signed types).
  std::string raw;
  if (ir::vtypeBits(R.vt) == 32) {
    // the value as is where the register holds it so (an f32 register given a float, an s32 one a 32-bit int):
    // the raw bits are made only for the registers that read them
    if (R.vt == VType::F32 && G == "float") return assignReg(dst.reg, expr);
    if (R.vt == VType::S32 && G == "int" && tb == 32) return assignReg(dst.reg, expr);
    if (R.vt == VType::S32 && G == "float") return assignReg(dst.reg, "floatBitsToInt(" + expr + ")");
    if (tb == 64) raw = G == "double" ? "uint(doubleBitsToUint64(" + expr + "))" : "uint(" + expr + ")";
    else if (G == "float") raw = bitsOf(expr);
    else raw = G == "uint" ? expr : "uint(" + expr + ")";
    if (declBits(R.ptxType) < 32 && tb != declBits(R.ptxType))
      raw = "(" + raw + " & " + hex32(uint32_t((1ull << declBits(R.ptxType)) - 1)) + ")";
    else if (declBits(R.ptxType) < 32 && t.k == Ty::K::S)
      raw = "(" + raw + " & " + hex32(uint32_t((1ull << declBits(R.ptxType)) - 1)) + ")";
    if (R.vt == VType::U32) assignReg(dst.reg, raw);
    else if (R.vt == VType::S32) assignReg(dst.reg, "int(" + raw + ")");
    else assignReg(dst.reg, floatOf(raw));
    return;
  }
  if (tb == 64) {
    std::string v;
    if (R.vt == VType::U64) v = G == "uint64_t" ? expr : G == "int64_t" ? "uint64_t(" + expr + ")" : "doubleBitsToUint64(" + expr + ")";
    else if (R.vt == VType::S64) v = G == "int64_t" ? expr : G == "uint64_t" ? "int64_t(" + expr + ")" : "doubleBitsToInt64(" + expr + ")";
    else v = G == "double" ? expr : "uint64BitsToDouble(uint64_t(" + expr + "))";
    assignReg(dst.reg, v);
    return;
  }
  std::string wide;
  if (G == "int") wide = "uint64_t(int64_t(" + expr + "))";
  else if (G == "float") wide = "uint64_t(" + bitsOf(expr) + ")";
  else wide = "uint64_t(" + expr + ")";
  std::string v = R.vt == VType::U64 ? wide : R.vt == VType::S64 ? "int64_t(" + wide + ")" : "uint64BitsToDouble(" + wide + ")";
  assignReg(dst.reg, v);
}

// True when a float value's text has no float arithmetic of its own: calls (the exact helpers), bit casts, selects,
// comparisons and literals only. Such a value may be written into any use; `a * b` may not, since out of its
// `precise` register the operation would lose NoContraction (HAZARDS.md #2). Integer arithmetic in the text is
// refused too (the text does not say which type an operator works on); folds nested in it were checked on their own.
static bool noFloatArithmetic(const std::string& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (c == '*' || c == '/' || c == '+') return false;
    if (c == '-') {  // only the sign of a literal (`-3.0`, `p ? -23.0 : 0.0`)
      size_t j = i;
      while (j > 0 && v[j - 1] == ' ') --j;
      char before = j ? v[j - 1] : '(';
      bool sign = before == '(' || before == ',' || before == '?' || before == ':';
      if (!sign || i + 1 >= v.size() || !isdigit((unsigned char)v[i + 1])) return false;
    }
  }
  return true;
}

// Assigns a register, or, for a register this instruction may fold (fold.h), keeps the value for its use and
// leaves a marker line where the assignment would be; a register that nothing reads (kDead) is not assigned.
void Emitter::assignReg(int r, const std::string& value) {
  auto held = std::find(holdRegs_.begin(), holdRegs_.end(), r);
  bool isFloat = F.regs[r].vt == VType::F32 || F.regs[r].vt == VType::F64 || (cur_ && floatTyped(*cur_));
  if (held == holdRegs_.end() || (isFloat && !noFloatArithmetic(value))) {
    const std::string& name = F.regs[r].name;
    std::string statement;
    statement.reserve(name.size() + value.size() + 4);
    statement.append(name).append(" = ").append(value) += ';';
    line(statement);
    return;
  }
  holdRegs_.erase(held);
  if (foldable_[size_t(r)] == kDead) return;
  // a value that is one name or one call needs no parentheses where it is used
  bool atomic = true;
  int depth = 0;
  for (size_t i = 0; i < value.size() && atomic; ++i) {
    char c = value[i];
    if (c == '(') ++depth;
    else if (c == ')') {
      if (--depth == 0 && i + 1 != value.size()) atomic = false;
    } else if (depth == 0 && !identChar(c) && c != '.') atomic = false;
  }
  folds_.push_back({size_t(indent_) * 2, atomic ? value : "(" + value + ")", r, !atomic});
  int k = int(folds_.size()) - 1;
  heldFolds_.push_back(k);
  liveFold_[size_t(r)] = k;
  char marker[16];
  marker[0] = '\x03';
  char* end = std::to_chars(marker + 1, marker + sizeof marker - 1, k).ptr;
  *end++ = '\n';
  body_.append(marker, size_t(end - marker));
}

std::string Emitter::assignText(size_t k) const {
  const Fold& f = folds_[k];
  const std::string& name = F.regs[size_t(f.reg)].name;
  std::string_view value = f.expr;
  if (f.parenthesised) value = value.substr(1, value.size() - 2);
  std::string t;
  t.reserve(f.indent + name.size() + value.size() + 4);
  t.append(f.indent, ' ');
  t += name;
  t += " = ";
  t += value;
  t += ';';
  return t;
}

std::string Emitter::readName(int r) {
  if (!liveFold_.empty() && liveFold_[size_t(r)] >= 0) {
    folds_[size_t(liveFold_[size_t(r)])].forced = true;
    liveFold_[size_t(r)] = -1;
  }
  return F.regs[r].name;
}

void Emitter::line(const std::string& statement) {
  // one statement a line: `a = x; b = y;` is written as two lines (so each temporary is declared where it is
  // assigned); a `for (;;)` header or a braced block is kept whole
  // (only text with a "; " can hold a second statement)
  if (statement.find('{') == std::string::npos && statement.find("; ") != std::string::npos) {
    int depth = 0;
    for (size_t i = 0; i + 2 < statement.size(); ++i) {
      char c = statement[i];
      if (c == '(' || c == '[') ++depth;
      else if (c == ')' || c == ']') --depth;
      else if (c == '/' && statement[i + 1] == '/') break;
      else if (c == ';' && depth == 0 && statement[i + 1] == ' ' && statement[i + 2] != '/') {
        line(statement.substr(0, i + 1));
        line(statement.substr(i + 2));
        return;
      }
    }
  }
  // a statement after the store() that kept a fold: the value may depend on what follows, so it is assigned
  for (int k : heldFolds_) {
    folds_[size_t(k)].forced = true;
    liveFold_[size_t(folds_[size_t(k)].reg)] = -1;
  }
  heldFolds_.clear();
  if (pendingTmps_.empty()) {
    appendLine(statement);
    return;
  }
  std::string s = statement;
  {
    settleTmps(s);
    // the first statement naming a temporary assigns it at its scope: declare it there
    for (size_t i = 0; i < pendingTmps_.size(); ++i) {
      const PendingTmp& p = pendingTmps_[i];
      if (p.indent == indent_ && s.compare(0, p.name.size() + 3, p.name + " = ") == 0) {
        s = p.decl.substr(0, p.decl.size() - p.name.size() - 1) + s;
        pendingTmps_.erase(pendingTmps_.begin() + long(i));
        break;
      }
    }
  }
  appendLine(s);
}

void Emitter::appendLine(const std::string& s) {
  if (body_.capacity() - body_.size() < s.size() + 64) body_.reserve(body_.capacity() * 2 + s.size() + 4096);
  body_.append(size_t(indent_) * 2, ' ');
  body_ += s;
  body_ += '\n';
}

static bool mentions(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    bool before = at > 0 && identChar(text[at - 1]);
    bool after = at + name.size() < text.size() && identChar(text[at + name.size()]);
    if (!before && !after) return true;
  }
  return false;
}

// Pending temporaries the statement names in any way other than the assignment that line() turns into their
// declaration get their own declaration line, where tmpOf() was called (the output of old).
void Emitter::settleTmps(const std::string& statement) {
  for (size_t i = 0; i < pendingTmps_.size();) {
    const PendingTmp& p = pendingTmps_[i];
    bool assigns = p.indent == indent_ && statement.compare(0, p.name.size() + 3, p.name + " = ") == 0;
    if (!mentions(statement, p.name)) {
      ++i;
      continue;
    }
    if (assigns && statement.find(p.name, p.name.size()) == std::string::npos) {
      ++i;
      continue;
    }
    declarePending(i);
  }
}

// Writes pending temporary i's declaration line where it was asked for, and moves the body positions after it.
void Emitter::declarePending(size_t i) {
  const PendingTmp& p = pendingTmps_[i];
  std::string d = std::string(size_t(p.indent) * 2, ' ') + p.decl + "\n";
  size_t at = p.at;
  body_.insert(at, d);
  pendingTmps_.erase(pendingTmps_.begin() + long(i));
  for (auto& q : pendingTmps_)
    if (q.at >= at) q.at += d.size();
  if (afterBlockAt_ >= at) afterBlockAt_ += d.size();
}

// Temporaries still pending when their scope closes or their instruction ends were never named: declared where
// they were asked for, as before.
void Emitter::dropPendingTmps(int fromIndent) {
  for (size_t i = pendingTmps_.size(); i-- > 0;) {
    if (pendingTmps_[i].indent >= fromIndent) declarePending(i);
  }
}
void Emitter::open(const std::string& s) {
  line(s + " {");
  ++indent_;
}
void Emitter::close() {
  dropPendingTmps(indent_);
  --indent_;
  line("}");
}
void Emitter::orElse() {
  --indent_;
  line("} else {");
  ++indent_;
}

std::string Emitter::tmpOf(const std::string& g) {
  std::string n = "t" + std::to_string(++tmpCount_);
  pendingTmps_.push_back({n, (g == "float" || g == "double" ? "precise " : "") + g + " " + n + ";", indent_,
                          body_.size()});
  return n;
}
std::string Emitter::tmp(Ty t) { return tmpOf(glslOf(t)); }
std::string Emitter::tmpArray(Ty t, unsigned n) {
  std::string name = tmpOf(glslOf(t));
  std::string& decl = pendingTmps_.back().decl;  // "uint tN;" -> "uint tN[n];"
  decl.insert(decl.size() - 1, "[" + std::to_string(n) + "]");
  return name;
}

bool Emitter::writesInCurrent(const std::string& name) const {
  if (!cur_ || cur_->ops.empty()) return false;
  const Opnd& d = cur_->ops[0];
  if (d.kind == Opnd::Kind::Reg) return F.regs[d.reg].name == name;
  for (auto& e : d.elems)
    if (e.kind == Opnd::Kind::Reg && F.regs[e.reg].name == name) return true;
  return false;
}

// A literal (`9u`, `-23.0`, `0x7F800000u`, `true`).
static bool isLiteral(const std::string& e) {
  if (e == "true" || e == "false") return true;
  size_t i = e[0] == '-' ? 1 : 0;
  if (i >= e.size() || !isdigit((unsigned char)e[i])) return false;
  for (; i < e.size(); ++i)
    if (!isalnum((unsigned char)e[i]) && e[i] != '.' && e[i] != '+' && e[i] != '-') return false;
  return true;
}

// A name, or one call of a name (`r5`, `int(r5)`, `floatBitsToUint(f2)`, `gl_LocalInvocationID.x`): the name.
static std::string viewedName(const std::string& e) {
  size_t open = e.find('(');
  std::string inner = e;
  if (open != std::string::npos) {
    if (e.back() != ')' || e.find('(', open + 1) != std::string::npos) return "";
    for (size_t i = 0; i < open; ++i)
      if (!identChar(e[i])) return "";
    inner = e.substr(open + 1, e.size() - open - 2);
  }
  if (inner.empty() || isdigit((unsigned char)inner[0])) return "";
  for (char c : inner)
    if (!identChar(c) && c != '.') return "";
  return inner;
}

std::string Emitter::letOf(const std::string& g, const std::string& e) {
  if (e.empty()) return e;
  if (isLiteral(e)) return e;
  std::string n = viewedName(e);
  // temporaries may be assigned again by the handler (carry chains); registers the instruction writes change
  bool isTmp = n.size() > 1 && n[0] == 't' && isdigit((unsigned char)n[1]) &&
               n.find_first_not_of("0123456789", 1) == std::string::npos;
  if (!n.empty() && !isTmp && !writesInCurrent(n)) return e;
  std::string t = tmpOf(g);
  line(t + " = " + e + ";");
  return t;
}
std::string Emitter::let(Ty t, const std::string& e) { return letOf(glslOf(t), e); }

void Emitter::use(const std::string& h) { helpers_.insert(h); }

void Emitter::error(const ir::Inst& in, const std::string& msg) {
  diags_.error(in.span, msg);
  ok_ = false;
}

// The instruction as the user wrote it (opcode and modifiers), without the marks passes add to `mods`.
static std::string sourceOpName(const ir::Inst& in) {
  if (in.span.begin && in.span.length) return std::string(in.span.begin, in.span.length);
  std::string op(in.op);
  for (auto m : in.mods) op += "." + std::string(m);
  return op;
}

void Emitter::warnInexact(const ir::Inst& in, const std::string& why) {
  std::string op = sourceOpName(in);
  line("// NOT BIT-EXACT YET: " + why);
  if (warnedOps_.insert(op).second) {
    diags_.warning(in.span, "'" + op + "' is emitted but not bit-exact yet: " + why);
    warnings_.push_back(op + ": " + why);
  }
}

ptx::Space Emitter::spaceOf(const ir::Inst& in) const {
  return spaceOfMods(in.mods);  // None: generic
}

std::string Emitter::condExpr(const SCond& c) {
  std::string e;
  if (c.kind == SCond::Kind::VarEq) {
    e = "p2g_sv" + std::to_string(c.varIndex) + " == " + std::to_string(c.value);
  } else {
    const ir::Term& t = F.blocks[c.block].term;
    // The branch right after its block (nothing emitted in between) reads the condition's folded value
    // (`if (r5 < r9)`); anywhere else the register, assigned.
    bool adjacent = afterBlock_ == c.block && body_.size() == afterBlockAt_;
    if (t.condReg >= 0 && !adjacent) readName(t.condReg);
    if (t.kind == ir::Term::Kind::CondBr) {
      bool want = (c.succIndex == 0) != t.condNeg;
      std::string v = regAs(t.condReg, Ty{Ty::K::Pred, 1});
      e = want ? v : "!" + v;
      if (c.negate) return want ? "!" + v : v;
      return e;
    }
    if (t.kind == ir::Term::Kind::Multi) {
      e = regAs(t.condReg, Ty{Ty::K::U, 32}) + " == " + std::to_string(c.succIndex) + "u";
    } else {
      e = "true";
    }
  }
  return c.negate ? "!(" + e + ")" : e;
}

// A PTX source line as the text of a GLSL `//` comment: glslang ends the file at a NUL byte and takes a final
// backslash as a line continuation (the next line of code would become comment), and GLSL's character set is
// ASCII; so control bytes, DEL, bytes from 0x80 up and a final backslash become \xNN (a fuzz_spirv finding).
static void appendCommentText(std::string& out, std::string_view t) {
  static const char* hex = "0123456789abcdef";
  struct Plain {
    bool is[256] = {};
    Plain() {
      for (int c = 0x20; c < 0x7F; ++c) is[c] = true;
      is[uint8_t('\t')] = true;
    }
  };
  static const Plain kPlain;
  size_t run = 0;  // start of the plain characters not yet copied
  for (size_t i = 0; i < t.size(); ++i) {
    // eight bytes at a time while none is below 0x20 or from 0x7F up (most lines): the test may flag a plain
    // byte (a tab, a borrow), never miss another, and a flagged word goes through the byte test below
    while (i + 8 < t.size()) {
      uint64_t w;
      memcpy(&w, t.data() + i, 8);
      constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
      if (((w - 0x20 * kOnes) | (w + kOnes) | w) & kHigh) break;
      i += 8;
    }
    uint8_t c = uint8_t(t[i]);
    if (kPlain.is[c] && !(c == '\\' && i + 1 == t.size())) continue;
    out.append(t.data() + run, i - run);
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
    run = i + 1;
  }
  out.append(t.data() + run, t.size() - run);
}

// `// ptx:N  <PTX line N>`: the annotation that links the statements after it to PTX line N (ptx2glsl view).
void Emitter::annotate(const ptx::Span& span) {
  if (!opt_.annotate || !span.begin) return;
  auto lc = sm_.resolve(span.begin);
  if (lc.line && lc.line != lastLine_) {
    std::string_view t = lc.lineText;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    // line(note) without its search for a second statement (a comment holds none): one in four body lines is
    // an annotation, written straight into the body when no temporary waits for its declaration
    for (int k : heldFolds_) {
      folds_[size_t(k)].forced = true;
      liveFold_[size_t(folds_[size_t(k)].reg)] = -1;
    }
    heldFolds_.clear();
    bool direct = pendingTmps_.empty();
    if (direct && body_.capacity() - body_.size() < t.size() + 64)  // appendLine's room, with the note's size
      body_.reserve(body_.capacity() * 2 + t.size() + 4096);
    std::string& note = direct ? body_ : note_;
    if (direct) note.append(size_t(indent_) * 2, ' ');
    else note.clear();
    note += "// ptx:";
    char num[16];
    note.append(num, size_t(std::to_chars(num, num + sizeof num, lc.line).ptr - num));
    note += "  ";
    appendCommentText(note, t);
    if (direct) body_ += '\n';
    else line(note_);
    lastLine_ = lc.line;
  }
}

void Emitter::emitInst(const ir::Inst& in, bool warpOp) {
  annotate(in.fusedSpan);
  annotate(in.span);
  Handler h = findHandler(in.op);
  if (!h) {
    error(in, "unsupported instruction '" + sourceOpName(in) + "'");
    return;
  }
  cur_ = &in;
  heldFolds_.clear();
  holdRegs_.clear();
  if (foldHere_ && !warpOp && !in.ops.empty()) {
    const Opnd& d = in.ops[0];
    if (d.kind == Opnd::Kind::Reg && foldable_[size_t(d.reg)]) holdRegs_.push_back(d.reg);
    if (d.kind == Opnd::Kind::Vec)  // an unpacking mov's elements (fold.h)
      for (auto& e : d.elems)
        if (e.kind == Opnd::Kind::Reg && foldable_[size_t(e.reg)]) holdRegs_.push_back(e.reg);
  }
  // a warp instruction's guard is part of its active flag (warpActive()): it is reached by every lane
  bool guard = in.guardReg >= 0 && !warpOp;
  if (guard) open(std::string("if (") + (in.guardNeg ? "!" : "") + regAs(in.guardReg, Ty{Ty::K::Pred, 1}) + ")");
  // --check-bounds: the access runs only when its address is inside its space (check_bounds.h).
  std::string check;
  if (opt_.checkBounds)
    check = boundsCondition(*this, in, in.span.begin ? sm_.resolve(in.span.begin).line : 0);
  if (!check.empty()) open("if (" + check + ")");
  h(*this, in);
  if (!check.empty()) close();
  if (guard) close();
  dropPendingTmps(0);
  cur_ = nullptr;
  holdRegs_.clear();
  heldFolds_.clear();
}

void Emitter::emitBlock(int b) {
  foldHere_ = true;
  for (auto& in : F.blocks[b].insts) emitInst(in);
  // the block's branch, return or exit: what the structured code after it implements (the `if` a conditional
  // branch became, the `return`), or nothing when the branch goes where the code continues anyway
  annotate(F.blocks[b].term.span);
  foldHere_ = false;
  afterBlock_ = b;
  afterBlockAt_ = body_.size();
}

void Emitter::emitNode(const SNode& n, const StructurizeResult& tree) {
  if (warpKernel_) {
    auto it = warpInfo_.find(&n);
    if (it != warpInfo_.end() && (it->second & 2)) return emitWarpNode(n, tree);  // warp_flow.cpp
  }
  switch (n.kind) {
    case SNode::Kind::Seq:
      for (auto& c : n.children) emitNode(c, tree);
      break;
    case SNode::Kind::Block: emitBlock(n.block); break;
    case SNode::Kind::If: {
      size_t at = body_.size();
      open("if (" + condExpr(n.cond) + ")");
      if (!n.children.empty()) emitNode(n.children[0], tree);
      bool hasElse = n.children.size() > 1 &&
                     !(n.children[1].kind == SNode::Kind::Seq && n.children[1].children.empty());
      if (hasElse) {
        --indent_;
        line("} else {");
        ++indent_;
        emitNode(n.children[1], tree);
      }
      close();
      if (hasElse) selectDiamond(at);
      break;
    }
    case SNode::Kind::Loop:
      open("for (;;)");
      hasLoops_ = true;
      line("p2g_loop_tick();");
      for (auto& c : n.children) emitNode(c, tree);
      close();
      break;
    case SNode::Kind::Break: line("break;"); break;
    case SNode::Kind::Continue: line("continue;"); break;
    case SNode::Kind::Return: line(opt_.checkBounds ? std::string(kBoundsFlush) + " return;" : "return;"); break;
    case SNode::Kind::SetVar:
      line("p2g_sv" + std::to_string(n.varIndex) + " = " + std::to_string(n.value) + ";");
      break;
  }
}

// The index of the fold whose marker (\x01 index \x02, emitter.h) starts at `at` in `t`.
static size_t markerIndex(std::string_view t, size_t at) {
  size_t k = 0;
  for (size_t i = at + 1; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) k = k * 10 + size_t(t[i] - '0');
  return k;
}


// `if (c) { x = a; } else { x = b; }` as `x = c ? a : b;` (issue "Readable GLSL", item 1), from the text the If
// node wrote at `at`: each branch one assignment to the same variable, with values that are safe and cheap to
// compute on both paths (casts and bit operations on registers: noFloatArithmetic, no other call, no memory, no
// division). The annotations of both branches stay, in order, above the statement.
static bool castsAndBits(const std::string& v) {
  static const char* const calls[] = {"uint", "int", "bool", "uint64_t", "int64_t", "uintBitsToFloat",
                                      "floatBitsToUint", "floatBitsToInt", "intBitsToFloat", "bitfieldExtract"};
  if (!noFloatArithmetic(v) || v.find_first_of("%[\x01\x03") != std::string::npos) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '(' || i == 0 || !identChar(v[i - 1])) continue;
    size_t b = i;
    while (b > 0 && identChar(v[b - 1])) --b;
    std::string_view name(v.data() + b, i - b);
    if (std::find(std::begin(calls), std::end(calls), name) == std::end(calls)) return false;
  }
  return true;
}

// castsAndBits for a text with fold markers: each folded value must pass too (it may be written in its place).
bool Emitter::safeOnBothPaths(const std::string& v, int depth) const {
  std::string flat;
  flat.reserve(v.size());
  size_t run = 0;  // the text since the last marker, copied in one piece
  for (size_t i = v.find('\x01'); i != std::string::npos; i = v.find('\x01', i + 1)) {
    flat.append(v, run, i - run);
    size_t k = size_t(atoi(v.c_str() + i + 1)), e = v.find('\x02', i);
    if (e == std::string::npos || k >= folds_.size() || depth > 8 || !safeOnBothPaths(folds_[k].expr, depth + 1))
      return false;
    flat += "x";
    i = e;
    run = e + 1;
  }
  flat.append(v, run, std::string::npos);
  return castsAndBits(flat);
}

void Emitter::selectDiamond(size_t at) {
  for (auto& p : pendingTmps_)
    if (p.at >= at) return;
  // The If's text, its lines looked at only as far as they fit the pattern: an If around a large body fails at
  // its first nested statement, without its whole text being split (Ifs nest: each looks at its own).
  std::string_view text = std::string_view(body_).substr(at);
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  size_t lastBreak = text.rfind('\n');
  if (lastBreak == std::string_view::npos) return;
  std::string_view first = text.substr(0, text.find('\n')), last = text.substr(lastBreak + 1);
  std::vector<std::string> notes;
  std::string pad(size_t(indent_) * 2, ' '), inner = pad + "  ";
  if (first.compare(0, pad.size() + 4, pad + "if (") != 0 || last != pad + "}") return;
  std::string cond(first.substr(pad.size() + 4, first.size() - pad.size() - 7));
  std::vector<std::string> stmts;
  int elses = 0;
  std::vector<size_t> held;  // folds kept in the branches: their assignments move above the select
  for (size_t i = first.size() + 1; i <= lastBreak;) {  // the lines between the first and the last
    size_t e = text.find('\n', i);
    std::string_view l = text.substr(i, e - i);
    i = e + 1;
    if (l == pad + "} else {") {
      if (++elses > 1 || stmts.size() != 1) return;
    } else if (l.compare(0, inner.size() + 2, inner + "//") == 0) {
      notes.push_back(pad + std::string(l.substr(inner.size())));
    } else if (!l.empty() && l[0] == '\x03') {
      size_t k = markerIndex(l, 0);
      if (k >= folds_.size() || !safeOnBothPaths(folds_[k].expr, 0)) return;
      held.push_back(k);
      notes.push_back(std::string(l));
    } else if (l.size() > inner.size() && l.compare(0, inner.size(), inner) == 0 && l[inner.size()] != ' ') {
      // one statement a branch: a second one in a branch fails the pattern now, not after the whole body
      if (stmts.size() == (elses ? 2u : 1u)) return;
      stmts.push_back(std::string(l.substr(inner.size())));
    } else {
      return;
    }
  }
  if (elses != 1 || stmts.size() != 2) return;
  auto split = [](const std::string& st, std::string& name, std::string& value) {
    size_t eq = st.find(" = ");
    if (eq == std::string::npos || st.back() != ';') return false;
    name = st.substr(0, eq);
    value = st.substr(eq + 3, st.size() - eq - 4);
    for (char c : name)
      if (!identChar(c)) return false;
    return !name.empty() && value.find("//") == std::string::npos;
  };
  std::string n1, v1, n2, v2;
  if (!split(stmts[0], n1, v1) || !split(stmts[1], n2, v2) || n1 != n2 || !safeOnBothPaths(v1, 0) ||
      !safeOnBothPaths(v2, 0))
    return;
  for (size_t k : held)  // assigned (when not folded after all) at the select's indent
    if (folds_[k].indent >= inner.size()) folds_[k].indent -= 2;
  std::string c = cond.find_first_of(" ?") == std::string::npos ? cond : "(" + cond + ")";
  std::string st = pad + n1 + " = " + c + " ? " + v1 + " : " + v2 + ";";
  if (st.size() > 120 && st.find('\x01') == std::string::npos) return;  // longer lines are resolveFolds' to split
  std::string out;
  for (auto& note : notes) out += note + "\n";
  out += st + "\n";
  body_.resize(at);
  body_ += out;
  afterBlock_ = -1;  // body_ no longer ends where the last block did
}

std::string Emitter::wideSharedElem(const ir::Inst& in, const std::string& addr) {
  auto it = s64_.accessVar.find(&in);
  if (it == s64_.accessVar.end() || !s64_.isWide(it->second)) return "";
  const ir::Var& v = F.vars[it->second];
  feature("sharedatomic64");
  feature("atomic64");
  return "smem64[" + std::to_string(s64_.slotBase[it->second]) + "u + ((" + addr + ") - " + std::to_string(v.offset) +
         "u) / 8u]";
}

void Emitter::scan() {
  s64_ = planShared64(F);
  planNames();
  for (auto& b : F.blocks)
    for (auto& in : b.insts) {
      if (in.op == "cvta" && !in.hasMod("to") &&
          (in.hasMod("shared") || in.hasMod("local") || in.hasMod("const") || in.hasMod("param")))
        usesWindowCvta_ = true;
    }
  for (auto& v : F.vars) {
    if (v.space == ptx::Space::Shared) usesShared_ = true;
    if (v.space == ptx::Space::Local) usesLocal_ = true;
    if (v.space == ptx::Space::Const) usesConst_ = true;
    if (v.space == ptx::Space::Global) usesGlobals_ = true;
  }
  for (auto& b : F.blocks)
    for (auto& in : b.insts) {
      auto s = spaceOf(in);
      if (s == ptx::Space::Shared) usesShared_ = true;
      if (s == ptx::Space::Local) usesLocal_ = true;
    }
  if (usesWindowCvta_) usesShared_ = usesLocal_ = true;
}

HandleTracer& Emitter::handles() {
  if (!handles_) handles_ = std::make_shared<HandleTracer>(F);
  return *handles_;
}

// A statement longer than 120 characters is continued on the next line, indented 4 more, after the last ", "
// inside parentheses that keeps the line within 120 (a line that has none stays long). Comments are not broken.
static void wrapLine(std::string_view l, std::string& out) {
  static const size_t kWidth = 120;
  if (l.size() <= kWidth) {  // most lines: no search for the indentation
    out += l;
    return;
  }
  size_t b = l.find_first_not_of(' ');
  if (b == std::string::npos || l.compare(b, 2, "//") == 0) {
    out += l;
    return;
  }
  std::string cont(b + 4, ' ');
  std::string rest(l);
  int open = 0;  // parentheses the lines before left open
  while (rest.size() > kWidth) {
    size_t code = rest.find("//");
    size_t cut = std::string::npos;
    int depth = open, depthAtCut = 0;
    for (size_t i = 0; i + 1 < std::min(rest.size(), code); ++i) {
      char c = rest[i];
      if (c == '(' || c == '[') ++depth;
      else if (c == ')' || c == ']') --depth;
      else if (c == ',' && rest[i + 1] == ' ' && depth > 0 && i + 1 <= kWidth) cut = i, depthAtCut = depth;
    }
    if (cut == std::string::npos || cut + 2 >= rest.size()) break;
    out += rest.substr(0, cut + 1);
    out += '\n';
    rest = cont + rest.substr(cut + 2);
    open = depthAtCut;
  }
  out += rest;
}

// Declarations where a reader looks for them (issue "Readable GLSL", item 4). After folding, a register that main()
// never names is not declared at all, and one whose first mention is an assignment `r = value;` standing directly
// in the innermost scope that holds all its mentions is declared by that assignment (`uint r = value;`). That
// scope is entered only at its top (the emitter's scopes are if/else/loop bodies; a switch body, entered at its
// case labels, is never taken), and the statement comes before every other mention in it, so each mention reads
// the value of that assignment or a later one, as it did from the zero-initialised declaration at the top; so the
// SPIR-V computes the same values. Registers not placed keep their declaration at the top of main. Comments are
// not mentions. A placed line must stay within 120 characters.
static size_t hashName(std::string_view n) {
  uint64_t h = 1469598103934665603ull;
  for (char c : n) h = (h ^ uint8_t(c)) * 1099511628211ull;
  return size_t(h);
}

void Emitter::buildRegNames() {
  size_t slots = 16;
  while (slots < 2 * F.regs.size()) slots <<= 1;
  regSlot_.assign(slots, -1);
  for (size_t r = 0; r < F.regs.size(); ++r) {
    size_t i = hashName(F.regs[r].name) & (slots - 1);
    while (regSlot_[i] >= 0 && F.regs[size_t(regSlot_[i])].name != F.regs[r].name) i = (i + 1) & (slots - 1);
    if (regSlot_[i] < 0) regSlot_[i] = int(r);  // the first register of a name, as a map's emplace keeps it
  }
}

int Emitter::regNamed(std::string_view n) const {
  size_t mask = regSlot_.size() - 1;
  for (size_t i = hashName(n) & mask;; i = (i + 1) & mask)
    if (regSlot_[i] < 0 || F.regs[size_t(regSlot_[i])].name == n) return regSlot_[i];
}

void Emitter::placeDeclarations() {
  regPlace_.assign(F.regs.size(), 0);
  // Most identifiers in the body are no register (types, helper calls, parameters): one longer than every register
  // name, or starting with a character none starts with, is not looked up.
  size_t longest = 0;
  bool startsName[256] = {};
  for (auto& R : F.regs) {
    longest = std::max(longest, R.name.size());
    if (!R.name.empty()) startsName[uint8_t(R.name[0])] = true;
  }
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  std::vector<std::pair<size_t, size_t>> lines;  // [begin, end) of each body line
  for (size_t i = 0; i < body_.size();) {
    size_t e = body_.find('\n', i);
    if (e == std::string::npos) e = body_.size();
    lines.push_back({i, e});
    i = e + 1;
  }
  // the scope tree: node 0 is main's body; each line ending in '{' opens a child, each starting with '}' closes one
  // Scopes are numbered as they open, so the scopes inside scope a are a + 1 .. scopeEnd[a] - 1 (the next number
  // given out when a closed; open scopes have no end yet): whether a holds b is two comparisons, and the innermost
  // scope holding both a and b is found walking up from a alone, rather than up from both by depth (registers are
  // mentioned thousands of times, deep in the warp-emulation nesting).
  std::vector<int> parent{-1}, scopeEnd{INT_MAX};
  std::vector<uint8_t> isSwitch{0};
  std::vector<int> lineScope(lines.size());
  std::vector<int> first(F.regs.size(), -1), common(F.regs.size(), -1);
  auto holds = [&](int a, int b) { return a <= b && b < scopeEnd[size_t(a)]; };
  auto lca = [&](int a, int b) {
    while (!holds(a, b)) a = parent[size_t(a)];
    return a;
  };
  int cur = 0;
  for (size_t li = 0; li < lines.size(); ++li) {
    std::string_view l(body_.data() + lines[li].first, lines[li].second - lines[li].first);
    size_t cut = l.find("//");
    std::string_view code = l.substr(0, cut);
    size_t b = code.find_first_not_of(' ');
    size_t e = code.find_last_not_of(' ');
    code = b == std::string_view::npos ? std::string_view() : code.substr(b, e - b + 1);
    if (!code.empty() && code.front() == '}' && parent[size_t(cur)] >= 0) {
      scopeEnd[size_t(cur)] = int(parent.size());
      cur = parent[size_t(cur)];
    }
    lineScope[li] = cur;
    for (size_t i = 0; i < code.size();) {
      if (!(letter(code[i]) || code[i] == '_')) {
        // a number's suffix or exponent is not an identifier
        if (code[i] >= '0' && code[i] <= '9')
          while (i < code.size() && identChar(code[i])) ++i;
        else
          ++i;
        continue;
      }
      size_t j = i;
      while (j < code.size() && identChar(code[j])) ++j;
      int named = j - i <= longest && startsName[uint8_t(code[i])] ? regNamed(code.substr(i, j - i)) : -1;
      if (named >= 0) {
        size_t r = size_t(named);
        if (first[r] < 0) first[r] = int(li), common[r] = cur;
        else common[r] = lca(common[r], cur);
      }
      i = j;
    }
    if (!code.empty() && code.back() == '{') {
      parent.push_back(cur);
      scopeEnd.push_back(INT_MAX);
      isSwitch.push_back(code.compare(0, 7, "switch ") == 0 || code.compare(0, 7, "switch(") == 0);
      cur = int(parent.size()) - 1;
    }
  }
  // the type each placed line gains, by line
  std::vector<int> placeAt(lines.size(), -1);
  for (size_t r = 0; r < F.regs.size(); ++r) {
    if (first[r] < 0) {
      regPlace_[r] = 2;
      continue;
    }
    size_t li = size_t(first[r]);
    if (lineScope[li] != common[r] || isSwitch[size_t(common[r])] || placeAt[li] >= 0) continue;
    std::string_view l(body_.data() + lines[li].first, lines[li].second - lines[li].first);
    size_t b = l.find_first_not_of(' ');
    const std::string& name = F.regs[r].name;
    if (b == std::string_view::npos || l.compare(b, name.size(), name) != 0 || l.compare(b + name.size(), 3, " = ") != 0)
      continue;
    std::string_view rest = l.substr(b + name.size() + 3);
    std::string_view code = rest.substr(0, rest.find("//"));
    if (code.find('{') != std::string_view::npos || code.find('}') != std::string_view::npos) continue;
    if (mentions(code, name)) continue;
    // the statement starts on this line: the code line before it ends one (or opens or closes a scope)
    bool starts = true;
    for (size_t k = li; k-- > 0;) {
      std::string_view p(body_.data() + lines[k].first, lines[k].second - lines[k].first);
      p = p.substr(0, p.find("//"));
      size_t pe = p.find_last_not_of(' ');
      if (pe == std::string_view::npos) continue;
      starts = p[pe] == ';' || p[pe] == '{' || p[pe] == '}';
      break;
    }
    bool fl = F.regs[r].vt == ir::VType::F32 || F.regs[r].vt == ir::VType::F64;
    size_t add = (fl ? 8 : 0) + strlen(ir::glslTypeName(F.regs[r].vt)) + 1;
    if (!starts || l.size() + add > 120) continue;
    regPlace_[r] = 1;
    placeAt[li] = int(r);
  }
  std::string out;
  out.reserve(body_.size() + 16 * F.regs.size());
  for (size_t li = 0; li < lines.size(); ++li) {
    std::string_view l(body_.data() + lines[li].first, lines[li].second - lines[li].first);
    if (placeAt[li] >= 0) {
      const ir::Reg& R = F.regs[size_t(placeAt[li])];
      size_t b = l.find_first_not_of(' ');
      std::string t(l.substr(0, b));
      if (R.vt == ir::VType::F32 || R.vt == ir::VType::F64) t += "precise ";
      t += ir::glslTypeName(R.vt);
      t += ' ';
      t.append(l.substr(b));
      wrapLine(t, out);
    } else {
      wrapLine(l, out);
    }
    out += '\n';
  }
  if (!body_.empty() && body_.back() != '\n') out.pop_back();
  body_ = std::move(out);
}

std::string Emitter::declarations() {
  std::string d;
  // Registers, grouped by GLSL type for reading. Float registers are `precise`: PTX arithmetic is never
  // contracted or reassociated behind our back (HAZARDS.md #4: only the contraction pass decides fusion).
  // Those placed at their first assignment or never named (placeDeclarations) are left out.
  std::map<std::string, std::vector<std::string>> groups;
  for (size_t r = 0; r < F.regs.size(); ++r)
    if (regPlace_.empty() || regPlace_[r] == 0) groups[ir::glslTypeName(F.regs[r].vt)].push_back(F.regs[r].name);
  static const char* order[] = {"bool", "int", "uint", "int64_t", "uint64_t", "float", "double"};
  for (auto* ty : order) {
    auto it = groups.find(ty);
    if (it == groups.end()) continue;
    std::string init = std::string(ty) == "bool" ? "false" : std::string(ty) == "float" ? "0.0" :
                       std::string(ty) == "double" ? "0.0lf" : std::string(ty) == "int" ? "0" :
                       std::string(ty) == "uint" ? "0u" : std::string(ty) == "int64_t" ? "0l" : "0ul";
    std::string prefix = (std::string(ty) == "float" || std::string(ty) == "double") ? "precise " : "";
    std::string cur = "  " + prefix + ty + " ";
    size_t startLen = cur.size();
    for (size_t i = 0; i < it->second.size(); ++i) {
      std::string item = it->second[i] + " = " + init;
      if (cur.size() + item.size() > 110 && cur.size() > startLen) {
        cur.resize(cur.size() - 2);
        d += cur + ";\n";
        cur = "  " + prefix + ty + " ";
      }
      cur += item + ", ";
    }
    cur.resize(cur.size() - 2);
    d += cur + ";\n";
  }
  return d;
}

std::string Emitter::header() {
  std::string h;
  h += "#version 460\n";
  return h;
}

// lavapipe's loop budget (docs/HAZARDS_IMPLEMENTED.md, "lavapipe's loop budget"): llvmpipe ends the loops of one
// SIMD vector of invocations (one subgroup) after 65,535 loop iterations in total, counted over every loop the vector
// runs (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS, decremented at each loop end), and does not say so. Every emitted loop
// calls p2g_loop_tick() first; with P2G_LOOP_GUARD set (the runtime sets it on lavapipe only; elsewhere the guard
// folds away) one lane of the subgroup counts the iteration, so the count is the vector's, and when it reaches the
// budget the uint at P2G_LOOP_FLAG in the globals buffer is bumped: the runtime then refuses the results.
std::string Emitter::loopGuardText(uint32_t flagAt) {
  return "\n// lavapipe's loop budget (65,535 loop iterations per subgroup, then every loop ends silently): counted\n"
         "// when the runtime sets P2G_LOOP_GUARD (lavapipe only), reported through the uint at P2G_LOOP_FLAG.\n"
         "layout(constant_id = 4) const bool P2G_LOOP_GUARD = false;\n"
         "const uint P2G_LOOP_FLAG = " + std::to_string(flagAt) + "u;\n"
         "shared uint p2g_loop_iters[P2G_LOOP_GUARD ? 256 : 1];\n"
         "void p2g_loop_tick() {\n"
         "  if (!P2G_LOOP_GUARD || !subgroupElect()) return;\n"
         "  uint i = min(gl_SubgroupID, 255u), n = p2g_loop_iters[i] + 1u;\n"
         "  p2g_loop_iters[i] = n;\n"
         "  if (n == 65535u) atomicAdd(P2GU32(pc.globals + P2G_LOOP_FLAG).v, 1u);\n"
         "}\n";
}

// A conversion helper call (f16/bf16/f32/f64 bits) inside the parentheses of another: a fold that makes one stays
// assigned (nested conversions are what made the unfolded lowering hard to read; READABLE_GLSL.md).
static const char* const kConversions[] = {"p2g_h2f(", "p2g_f2h_rn(", "p2g_f2bf_rn(", "p2g_f2d(", "p2g_h2d(",
                                           "p2g_d2f(", "p2g_d2h_rn(", "p2g_bf2f("};

// The length of the conversion helper call (name and '(') that starts at `at` in `t`, 0 when none does: every
// kConversions name starts with "p2g_", so the searches below look for that once rather than for each name.
static size_t conversionAt(std::string_view t, size_t at) {
  if (at > 0 && identChar(t[at - 1])) return 0;
  for (const char* c : kConversions) {
    size_t n = strlen(c);
    if (t.compare(at, n, c) == 0) return n;
  }
  return 0;
}

static bool hasConversion(std::string_view t) {
  for (size_t at = t.find("p2g_"); at != std::string_view::npos; at = t.find("p2g_", at + 1))
    if (conversionAt(t, at)) return true;
  return false;
}

static bool nestedConversion(const std::string& line) {
  // a nested call needs two helper names (each kConversions entry starts with p2g_): most statements have none
  size_t first = line.find("p2g_");
  if (first == std::string::npos || line.find("p2g_", first + 1) == std::string::npos) return false;
  for (size_t at = first; at != std::string::npos; at = line.find("p2g_", at + 1)) {
    size_t n = conversionAt(line, at);
    if (!n) continue;
    size_t i = at + n, end = i;
    int depth = 1;
    while (end < line.size() && depth) depth += line[end] == '(' ? 1 : line[end] == ')' ? -1 : 0, ++end;
    if (hasConversion(std::string_view(line.data() + i, end - i))) return true;
  }
  return false;
}

// Folds read exactly once (and not refused by their handler's output) become their value at the use; the others
// are assigned at their definition, as without folding. A folded value longer than kFoldWidth characters, its own
// folds included, stays assigned, and so does the longest value folded into a statement that would be longer than
// kLineWidth: a statement should still read as one line.

void Emitter::resolveFolds() {
  static const size_t kFoldWidth = 72, kLineWidth = 120;
  size_t n = folds_.size();
  if (n == 0) return;
  std::vector<int> reads(n, 0);
  // the fold whose value holds fold k's marker (npos: a statement holds it); a fold read once has one such place
  std::vector<size_t> holder(n, std::string::npos);
  auto count = [&](std::string_view t, size_t in) {
    for (size_t at = t.find('\x01'); at != std::string::npos; at = t.find('\x01', at + 1)) {
      size_t k = markerIndex(t, at);
      reads[k]++;
      holder[k] = in;
    }
  };
  count(body_, std::string::npos);
  for (size_t k = 0; k < n; ++k) count(folds_[k].expr, k);
  std::vector<std::string> value(n);
  std::vector<uint8_t> folded(n, 0);
  // `int((a + b))` reads `int(a + b)`: a parenthesised value that is a call's only argument loses its parentheses
  auto appendBare = [](std::string& out, const std::string& v) {
    if (v.size() < 2 || v.front() != '(') return void(out += v);
    int depth = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '(') ++depth;
      else if (v[i] == ')' && --depth == 0 && i + 1 != v.size()) return void(out += v);
    }
    out.append(v, 1, v.size() - 2);
  };
  // the text with each marker replaced by its fold's value (folded) or register (assigned); copied in runs
  // between markers, since statements are mostly text
  // (expandTo appends to `out`, which may hold earlier lines: what it looks back at lies after their '\n')
  auto expandTo = [&](std::string& out, std::string_view t) {
    size_t i = 0;
    for (size_t at = t.find('\x01'); at != std::string::npos; at = t.find('\x01', i)) {
      out.append(t.data() + i, at - i);
      size_t k = markerIndex(t, at);
      size_t e = t.find('\x02', at);
      i = e + 1;
      bool alone = !out.empty() && out.back() == '(' && e + 1 < t.size() && t[e + 1] == ')';
      if (alone && folded[k]) {  // the bits of a folded `uintBitsToFloat(u)` are `u` (and the other way round)
        std::string inner;
        static const char* const pairs[2][2] = {{"floatBitsToUint(", "uintBitsToFloat"},
                                                {"uintBitsToFloat(", "floatBitsToUint"}};
        bool done = false;
        for (auto& p : pairs) {
          size_t m = strlen(p[0]);
          if (out.size() >= m && out.compare(out.size() - m, m, p[0]) == 0 &&
              (out.size() == m || !identChar(out[out.size() - m - 1])) && unwrapCall(value[k], p[1], inner)) {
            out.resize(out.size() - m);
            out += inner;
            i = e + 2;  // past the call's closing parenthesis
            done = true;
            break;
          }
        }
        if (done) continue;
      }
      if (!folded[k]) out += F.regs[folds_[k].reg].name;
      else if (alone) appendBare(out, value[k]);
      else out += value[k];
    }
    out.append(t.data() + i, t.size() - i);
  };
  auto expand = [&](std::string_view t) {
    std::string out;
    out.reserve(t.size() + 32);
    expandTo(out, t);
    return out;
  };
  // markers stand for folds made earlier, so one pass in order settles nested folds before their users
  for (size_t k = 0; k < n; ++k) {
    value[k] = expand(folds_[k].expr);
    folded[k] = !folds_[k].forced && reads[k] == 1 && value[k].size() <= kFoldWidth;
  }
  // the statements: body lines and the assignments of folds that stay assigned
  std::vector<std::string_view> lines;
  for (size_t i = 0; i < body_.size();) {
    size_t e = body_.find('\n', i);
    if (e == std::string::npos) e = body_.size();
    lines.push_back(std::string_view(body_).substr(i, e - i));
    i = e + 1;
  }
  // A statement that passes the check keeps passing: a fold is read in one place, so unfolding one changes only
  // the statement whose check chose it (and adds the fold's own assignment). So each round rechecks only the
  // statements that failed the last one and the assignments it added, in the same order (the same choices as
  // checking everything every round).
  std::vector<uint8_t> lineDue(lines.size(), 0), assignDue(n, 0);
  for (size_t i = 0; i < lines.size(); ++i)
    lineDue[i] = !lines[i].empty() && lines[i][0] != '\x03' && lines[i].find('\x01') != std::string::npos;
  for (size_t k = 0; k < n; ++k) assignDue[k] = !folded[k];
  // Likewise only the values holding a fold unfolded in the last round change when the round's values are settled
  // (the folds that hold it, up the chain): those are recomputed, in order, rather than every value.
  // the assignments of the folds that stay assigned, made when first needed
  std::vector<std::string> assigns(n);
  auto assignOf = [&](size_t k) -> const std::string& {
    if (assigns[k].empty()) assigns[k] = assignText(k);
    return assigns[k];
  };
  std::vector<uint8_t> stale(n, 0);
  std::vector<size_t> staleList;
  auto unfold = [&](size_t k) {
    folded[k] = 0;
    assignDue[k] = 1;
    for (size_t h = holder[k]; h != std::string::npos && !stale[h]; h = holder[h]) stale[h] = 1, staleList.push_back(h);
  };
  for (bool changed = true; changed;) {
    changed = false;
    std::sort(staleList.begin(), staleList.end());
    for (size_t k : staleList) {
      if (folded[k]) value[k] = expand(folds_[k].expr);
      stale[k] = 0;
    }
    staleList.clear();
    auto check = [&](std::string_view t) {  // true when the statement passes
      if (t.find('\x01') == std::string::npos) return true;
      std::string x = expand(t);
      bool nested = nestedConversion(x);
      if (x.size() <= kLineWidth && !nested) return true;
      int widest = -1;
      for (size_t at = t.find('\x01'); at != std::string::npos; at = t.find('\x01', at + 1)) {
        int k = int(markerIndex(t, at));
        if (folded[size_t(k)] && (!nested || hasConversion(value[size_t(k)])) &&
            (widest < 0 || value[size_t(k)].size() > value[size_t(widest)].size()))
          widest = k;
      }
      if (widest >= 0) unfold(size_t(widest)), changed = true;
      return false;
    };
    for (size_t i = 0; i < lines.size(); ++i)
      if (lineDue[i]) lineDue[i] = !check(lines[i]);
    for (size_t k = 0; k < n; ++k)
      if (assignDue[k]) assignDue[k] = !check(assignOf(k));
  }
  std::string out;
  out.reserve(body_.size());
  for (auto l : lines) {
    if (!l.empty() && l[0] == '\x03') {
      size_t k = markerIndex(l, 0);
      if (!folded[k]) expandTo(out, assignOf(k)), out += '\n';
    } else {
      expandTo(out, l), out += '\n';
    }
  }
  body_ = std::move(out);
}

bool Emitter::emit(const StructurizeResult& tree, std::string& glsl, std::vector<std::string>& features,
                   std::vector<std::string>& warnings) {
  scan();
  body_.clear();
  // room for the usual body (about 80 bytes a PTX instruction, annotations included): growing a body of hundreds
  // of kilobytes by doubling copied it several times
  size_t insts = 0;
  for (auto& b : F.blocks) insts += b.insts.size();
  body_.reserve(insts * 80 + 4096);
  hasLoops_ = false;
  indent_ = 1;
  warpKernel_ = false;
  for (auto& b : F.blocks)
    for (auto& in : b.insts) warpKernel_ = warpKernel_ || isWarpInstruction(in);
  warpInfo_.clear();
  actStack_ = {"true"};
  if (warpKernel_) planWarp(tree.root, false);
  foldable_ = planFolds(F);
  liveFold_.assign(F.regs.size(), -1);
  folds_.clear();
  replays_.clear();
  emitNode(tree.root, tree);
  if (!ok_) return false;
  resolveFolds();
  buildRegNames();
  if (!opt_.native && (helpers_.count("p2g_fadd") || helpers_.count("p2g_fmul") || helpers_.count("p2g_ffma"))) {
    std::unordered_map<std::string, std::string> locals;  // main()'s other locals: parameters, structurizer state
    for (auto& [off, p] : params_) locals.emplace(p.name, "const " + glslOf(p.t));
    for (int i = 0; i < tree.numVars; ++i) locals.emplace("p2g_sv" + std::to_string(i), "int");
    locals.emplace("p2g_cc", "uint");
    std::set<std::string> globals{"smem", "smem64", "lmem", "cmem", "pc"};
    for (auto& [i, n] : sharedNames_) globals.insert(n);
    // the device-sampled textures' samplers (emit_tex.cpp): a region that reads a texture names them
    if (images_)
      for (const ManifestImage& im : *images_)
        if (deviceSampled(im)) globals.insert(hwSamplerName(im.slot));
    auto typeOf = [&](const std::string& n) -> std::string {
      int r = regNamed(n);
      if (r >= 0) {
        ir::VType vt = F.regs[size_t(r)].vt;
        bool fl = vt == ir::VType::F32 || vt == ir::VType::F64;
        return std::string(fl ? "precise " : "") + ir::glslTypeName(vt);
      }
      auto lt = locals.find(n);
      if (lt != locals.end()) return lt->second;
      if (globals.count(n) || n.compare(0, 3, "P2G") == 0) return "-";
      return "";
    };
    if (guardRegions(body_, replays_, typeOf) > 0) {
      use("p2g_region");
      if (body_.find("p2g_nmin(") != std::string::npos || body_.find("p2g_nmax(") != std::string::npos)
        use("p2g_nminmax");
      if (body_.find("p2g_fcmpd(") != std::string::npos) use("p2g_fcmpd");
    }
  }
  placeDeclarations();
  // The generic-load helpers read every window, .const included (prelude.cpp genericHelper), and the .const
  // window's own loads (p2g_ldc*) read `cmem`, so it must exist even in a kernel that names no .const variable
  // (found by tests/fuzz/fuzz_spirv: glslang rejected it; the second: ld.const through a register, tests/frontend).
  for (auto& h : helpers_)
    if (h.rfind("p2g_gen_ld", 0) == 0 || h.rfind("p2g_gen_vld", 0) == 0 || h.rfind("p2g_ldc", 0) == 0)
      usesConst_ = true;

  std::string out;
  out += "#version 460\n";
  out += "// Generated by ptx2glsl from PTX entry '" + F.name + "'. Do not edit.\n";
  out += "#extension GL_EXT_buffer_reference : require\n";
  out += "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
  features_.insert("int64");
  std::set<std::string> prelFeatures;
  std::string prelude = preludeText(helpers_, prelFeatures);
  std::string imageHelpers = texturePreludeFor(F, images_, replays_.find("_chk(") != std::string::npos);
  // the body, the replays (and their wrapped lines), the helpers, the rest: written once, never moved
  out.reserve(body_.size() + replays_.size() + (replays_.size() >> 4) + prelude.size() + imageHelpers.size() + 65536);
  for (auto& f : prelFeatures) features_.insert(f);
  if (features_.count("int8") || features_.count("storage8"))
    out += "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
           "#extension GL_EXT_shader_8bit_storage : require\n";
  if (features_.count("int16") || features_.count("storage16"))
    out += "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
           "#extension GL_EXT_shader_16bit_storage : require\n";
  if (features_.count("atomic64")) out += "#extension GL_EXT_shader_atomic_int64 : require\n";
  // the f16 module variant (f32_prelude.cpp, the half "arith" helpers; translate.cpp compiles it)
  if (prelude.find("#ifdef P2G_F16_NATIVE") != std::string::npos)
    out += "#ifdef P2G_F16_NATIVE  // defined for the module variant with the device's f16 arithmetic\n"
           "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
           "#endif\n";
  // scoped barriers, fences and atomics (prelude.cpp p2g_bar_sync, p2g_fence_cta, volatileHelpers; emit_mem.cpp's
  // volatile smem64 accesses): a GLSL extension, no device feature
  if (prelude.find("gl_Scope") != std::string::npos || body_.find("gl_Scope") != std::string::npos ||
      replays_.find("gl_Scope") != std::string::npos)
    out += "#extension GL_KHR_memory_scope_semantics : require\n";
  if (hasLoops_ || warpKernel_) out += "#extension GL_KHR_shader_subgroup_basic : require\n";
  if (warpKernel_)
    out += "#extension GL_KHR_shader_subgroup_ballot : require\n"
           "#extension GL_KHR_shader_subgroup_shuffle : require\n";
  if (features_.count("float64")) {
    // doubles are core GLSL 4.x; listed so the runtime enables shaderFloat64
  }
  out += "\n// Block size and dynamic shared memory come from specialization constants (runtime ABI).\n";
  out += "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n";
  out += "layout(constant_id = 3) const uint P2G_DYN_SMEM_BYTES = 0u;\n";
  out += "// The parameter block (the entry's .param space, laid out as PTX declares it) and module globals.\n";
  if (opt_.checkBounds)
    out += "layout(push_constant) uniform P2GPush { uint64_t params; uint64_t globals; uint64_t bounds; } pc;\n\n";
  else
    out += "layout(push_constant) uniform P2GPush { uint64_t params; uint64_t globals; } pc;\n\n";
  out += "layout(buffer_reference, std430, buffer_reference_align = 4) buffer P2GU32 { uint v; };\n";
  out += "layout(buffer_reference, std430, buffer_reference_align = 4) buffer P2GI32 { int v; };\n";
  out += "layout(buffer_reference, std430, buffer_reference_align = 8) buffer P2GU64 { uint64_t v; };\n";
  out += "layout(buffer_reference, std430, buffer_reference_align = 8) buffer P2GI64 { int64_t v; };\n";
  if (features_.count("storage16"))
    out += "layout(buffer_reference, std430, buffer_reference_align = 2) buffer P2GU16 { uint16_t v; };\n";
  if (features_.count("storage8"))
    out += "layout(buffer_reference, std430, buffer_reference_align = 1) buffer P2GU8 { uint8_t v; };\n";
  out += "\n";
  if (opt_.checkBounds) out += boundsCheckText(F) + "\n";
  if (usesShared_) {
    uint32_t words = (F.sharedStaticBytes + 3) / 4;
    out += "// .shared: static variables at fixed offsets, then the extern (dynamic) array.\n";
    out += "shared uint smem[" + std::to_string(words) + "u + (P2G_DYN_SMEM_BYTES + 3u) / 4u + 1u];\n";
    if (s64_.words)
      out += "// .shared variables used only as 64-bit values (64-bit atomics need 64-bit storage; shared64.h)\n"
             "shared uint64_t smem64[" + std::to_string(s64_.words) + "];\n";
  }
  out += sharedDeclarations();
  bool tcx = features_.count("tcxchg") > 0;
  if (features_.count("mmaxchg") && !tcx)
    out += "// mma fragments (emit_mma.cpp): six words per thread of the block (A registers, then B registers)\n"
           "shared uint p2g_mma_x[gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z * 6u];\n";
  if (tcx)
    out += "// ldmatrix/stmatrix/movmatrix/wmma exchange (emit_tensor.cpp): eight words per thread, for whole warps\n"
           "shared uint p2g_tc_x[((gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z + 31u) & ~31u) * 8u];\n";
  if (tcx && features_.count("mmaxchg"))  // both exchanges open with a barrier, so they never overlap in time
    out += "#define p2g_mma_x p2g_tc_x  // mma.sync's six words a thread, in the same array (less shared memory)\n";
  if (usesLocal_) {
    uint32_t words = (F.localBytes + 3) / 4;
    out += "uint lmem[" + std::to_string(words ? words : 1) + "];  // .local and call scratch, per thread\n";
  }
  if (usesConst_) {
    uint64_t top = 0;
    for (auto& v : F.vars)
      if (v.space == ptx::Space::Const) top = std::max<uint64_t>(top, v.offset + v.bytes);
    std::vector<uint32_t> words((top + 3) / 4 + 1, 0);
    for (auto& v : F.vars) {
      if (v.space != ptx::Space::Const) continue;
      for (size_t i = 0; i < v.init.size(); ++i) words[(v.offset + i) / 4] |= uint32_t(v.init[i]) << (8 * ((v.offset + i) % 4));
    }
    bool relocs = false;
    for (auto& v : F.vars) relocs = relocs || (v.space == ptx::Space::Const && !v.relocs.empty());
    out += "// .const variables with their initialisers";
    // address initialisers (ir::Var::relocs) are known at launch: main() writes them into a private copy
    out += relocs ? " (addresses of .global variables written by main())\nuint" : "\nconst uint";
    out += " cmem[" + std::to_string(words.size()) + "] = uint[](";
    for (size_t i = 0; i < words.size(); ++i) {
      if (i % 8 == 0) out += "\n  ";
      char b[16];
      snprintf(b, sizeof b, "0x%08Xu", words[i]);
      out += b;
      if (i + 1 < words.size()) out += ", ";
    }
    out += ");\n";
  }
  // SFU model tables (sfu_prelude.cpp): the helpers name them P2G_SFU_T_<NAME>; each gets a directory slot in
  // the globals buffer, which the runtime fills with the table's byte offset (manifest "sfuTables").
  // The globals buffer holds the module's .global variables, then the SFU table directory, then the loop guard's
  // counter word (docs/ABI.md).
  uint64_t globalsEnd = 0;
  for (auto& v : F.vars)
    if (v.space == ptx::Space::Global) globalsEnd = std::max<uint64_t>(globalsEnd, v.offset + v.bytes);
  sfuTables_.clear();
  for (size_t at = prelude.find("P2G_SFU_T_"); at != std::string::npos; at = prelude.find("P2G_SFU_T_", at + 1)) {
    size_t e = at + 10;
    while (e < prelude.size() && (isupper((unsigned char)prelude[e]) || isdigit((unsigned char)prelude[e]) || prelude[e] == '_')) ++e;
    std::string name = prelude.substr(at + 10, e - at - 10);
    if (std::find(sfuTables_.begin(), sfuTables_.end(), name) == sfuTables_.end()) sfuTables_.push_back(name);
  }
  std::sort(sfuTables_.begin(), sfuTables_.end());
  if (!sfuTables_.empty()) {
    sfuDir_ = uint32_t((globalsEnd + 15) & ~uint64_t(15));
    globalsEnd = sfuDir_ + 4 * sfuTables_.size();
    out += "// SFU model tables: a directory of byte offsets at P2G_SFU_DIR in the globals buffer, one slot a table\n";
    out += "const uint P2G_SFU_DIR = " + std::to_string(sfuDir_) + "u;\n";
    for (size_t i = 0; i < sfuTables_.size(); ++i)
      out += "const uint P2G_SFU_T_" + sfuTables_[i] + " = " + std::to_string(i) + "u;\n";
  }
  loopGuardAt_ = hasLoops_ ? int64_t((globalsEnd + 3) & ~uint64_t(3)) : -1;
  if (warpKernel_) out += warpDeclarations();
  if (!prelude.empty()) out += "\n" + prelude;
  if (hasLoops_) out += loopGuardText(uint32_t(loopGuardAt_));
  // The image helpers read descriptor records through the buffer references declared above, and the guarded
  // regions' replays call them: they go here, after the prelude, before the replays and main(). Placed while the
  // text is written, since inserting them into the finished text moved and copied the whole shader.
  if (!imageHelpers.empty()) out.append("\n").append(imageHelpers);
  if (!replays_.empty())
    out += std::string(kReplaysHeading) + " (translator/emit/region_guard.h): each runs its region's\n"
           "// statements again with the exact helpers, from the values the region started with, when p2g_redo() finds\n"
           "// a result that was not normal.\n";
  for (size_t i = 0; i < replays_.size();) {  // long parameter lists continue on the next line
    size_t e = replays_.find('\n', i);
    if (e == std::string::npos) e = replays_.size();
    wrapLine(std::string_view(replays_).substr(i, e - i), out);
    out += '\n';
    i = e + 1;
  }
  out += "\nvoid main() {\n";
  if (hasLoops_) out += "  if (P2G_LOOP_GUARD) p2g_loop_iters[min(gl_SubgroupID, 255u)] = 0u;\n";
  if (warpKernel_)
    out += "  if (P2G_WARP_EMU && (gl_LocalInvocationIndex & 31u) == 0u) {  // the first exchange's masks\n"
           "    uint w = (gl_LocalInvocationIndex >> 5u) * 6u;\n"
           "    p2g_wm[w] = 0u; p2g_wm[w + 1u] = 0u; p2g_wm[w + 2u] = 0u;\n"
           "    if (gl_LocalInvocationIndex == 0u) p2g_wm[P2G_WARPS * 6u] = 0u;\n"
           "  }\n";
  out += declarations();
  out += paramDeclarations();
  for (auto& v : F.vars) {
    if (v.space != ptx::Space::Const) continue;
    for (auto& r : v.relocs) {
      uint64_t w = (v.offset + r.at) / 4;
      std::string a = addressOf(Opnd{Opnd::Kind::VarAddr, false, false, -1, r.var, r.offset}, ptx::Space::None);
      out += "  cmem[" + std::to_string(w) + "] = uint(" + a + "); cmem[" + std::to_string(w + 1) + "] = uint(" + a +
             " >> 32);  // &" + std::string(F.vars[r.var].ptxName) + (r.offset ? " + " + std::to_string(r.offset) : "") +
             " (" + std::string(v.ptxName) + ")\n";
    }
  }
  for (int i = 0; i < tree.numVars; ++i) out += "  int p2g_sv" + std::to_string(i) + " = 0;\n";
  if (features_.count("carry")) out += "  uint p2g_cc = 0u;  // the carry flag of add.cc/addc/sub.cc/subc\n";

  out += body_;
  if (opt_.checkBounds) out += std::string("  ") + kBoundsFlush + "\n";
  out += "}\n";
  glsl = std::move(out);
  features.clear();
  for (auto& f : features_)
    if (f != "carry" && f != "mmaxchg" && f != "tcxchg") features.push_back(f);  // internal flags, not device features
  warnings = warnings_;
  return ok_;
}

}  // namespace p2g
