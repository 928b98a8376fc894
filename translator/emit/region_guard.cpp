// Guarded regions (region_guard.h): which runs of statements are wrapped, and how.
//
// A run qualifies when every line in it is a comment or a statement `[type] name = expression;` whose expression
// calls only functions without side effects (no store, atomic, barrier, subgroup or warp exchange: those are
// statements of their own or named below), at one indentation, with at least one guarded call: p2g_fadd, p2g_fsub,
// p2g_fmul or p2g_ffma in round to nearest without .ftz. Replaying such a run from the same starting values gives
// the same values (loads read memory that nothing in the run writes), which is what the second pass relies on. A
// load that races with another thread's store may read the newer value in the replay: a value the unsynchronised
// load could have read anyway (the device's run's values are all discarded).
#include "region_guard.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "glsl_text.h"

namespace p2g {
namespace {

using std::string_view;
constexpr size_t npos = string_view::npos;

// Functions a replayed statement may call: GLSL built-ins without side effects or out parameters, constructors,
// and the buffer-reference loads (P2GU32(address).v).
bool pureBuiltin(string_view f) {
  static const std::unordered_set<string_view> k = {
      "float", "uint", "int", "bool", "double", "uint64_t", "int64_t", "uint16_t", "int16_t", "uint8_t", "int8_t",
      "vec2", "vec3", "vec4", "uvec2", "uvec3", "uvec4", "ivec2", "ivec3", "ivec4", "u64vec2", "i64vec2", "dvec2",
      "uintBitsToFloat", "floatBitsToUint", "intBitsToFloat", "floatBitsToInt", "packUint2x32", "unpackUint2x32",
      "packHalf2x16", "unpackHalf2x16", "packDouble2x32", "unpackDouble2x32", "abs", "min", "max", "clamp", "mix",
      "findMSB", "findLSB", "bitCount", "bitfieldReverse", "bitfieldExtract", "bitfieldInsert", "isnan", "isinf",
      "sqrt", "inversesqrt", "exp2", "log2", "sin", "cos", "floor", "ceil", "trunc", "round", "roundEven", "fract",
      "fma", "sign", "uint64BitsToDouble", "doubleBitsToUint64", "int64BitsToDouble", "doubleBitsToInt64"};
  if (k.count(f)) return true;
  return f.size() > 3 && f.compare(0, 3, "P2G") == 0;  // P2GU32(...) and its kin: typed views of an address
}

// p2g_ helpers with side effects (stores, exchanges, barriers, the loop counter) or that read shared state a
// statement of the run may not replay; every other p2g_ helper is a pure function of its arguments and memory.
// The ld.volatile helpers (p2g_vldg/p2g_vlds/p2g_gen_vld, emit_mem.cpp) are not: a volatile read is performed once
// (PTX ISA 8.4.2), and a replay would read again what another thread may have written since.
bool pureHelper(string_view f) {
  static const char* const bad[] = {"bar", "loop", "shfl", "warp", "mma", "atom", "vote", "ballot", "elect",
                                    "match", "fence", "sync", "redo", "exact_", "p2g_in", "vld", "vst"};
  if (f.compare(0, 4, "p2g_") != 0) return false;
  if (f.compare(0, 6, "p2g_st") == 0 || f.compare(0, 8, "p2g_sust") == 0 || f.compare(0, 11, "p2g_surf_st") == 0)
    return false;
  for (auto* b : bad)
    if (f.find(b) != npos) return false;
  return true;
}

struct Stmt {
  string_view indent, type, lhs, rhs, comment;  // `<indent>[type ]lhs = rhs;[ comment]`
};

// A line of the form of a replayable statement; false for anything else (comments are handled by the caller).
bool parseStmt(string_view l, Stmt& s) {
  size_t b = l.find_first_not_of(' ');
  if (b == npos) return false;
  s.indent = l.substr(0, b);
  string_view code = l.substr(b);
  s.comment = {};
  size_t c = findComment(code);
  if (c != npos) {
    s.comment = code.substr(c);
    code = code.substr(0, c);
  }
  while (!code.empty() && code.back() == ' ') code.remove_suffix(1);
  if (code.empty() || code.back() != ';') return false;
  code.remove_suffix(1);
  size_t eq = findAssign(code);
  if (eq == npos) return false;
  string_view left = code.substr(0, eq);
  s.rhs = code.substr(eq + 3);
  if (findAssign(s.rhs) != npos) return false;
  for (char ch : s.rhs)
    if (ch == ';' || ch == '{' || ch == '}') return false;
  // left: `name`, `type name` or `precise type name`
  string_view words[4];
  size_t nw = 0;
  for (size_t i = 0; i < left.size();) {
    size_t j = left.find(' ', i);
    if (j == npos) j = left.size();
    if (nw == 4) return false;
    words[nw++] = left.substr(i, j - i);
    i = j + 1;
  }
  if (nw == 0 || nw > 3) return false;
  for (size_t i = 0; i < nw; ++i)
    if (!isIdent(words[i])) return false;
  if (nw == 3 && words[0] != "precise") return false;
  s.lhs = words[nw - 1];
  // the type: the words before the name, as they stand in the line
  s.type = nw == 1 ? string_view() : left.substr(0, size_t(words[nw - 2].data() + words[nw - 2].size() - left.data()));
  return true;
}

// The variables an expression reads: identifiers not followed by '(' and not after '.' (a member), in order.
template <class F>
void forEachRead(string_view e, F f) {
  for (size_t i = 0; i < e.size();) {
    if (e[i] >= '0' && e[i] <= '9') {  // a number with its suffix or exponent
      while (i < e.size() && (identChar(e[i]) || e[i] == '.')) ++i;
      continue;
    }
    if (!identStart(e[i]) || (i > 0 && e[i - 1] == '.')) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < e.size() && identChar(e[j])) ++j;
    if (j >= e.size() || e[j] != '(') {
      string_view n = e.substr(i, j - i);
      if (n != "true" && n != "false" && n.compare(0, 3, "gl_") != 0) f(n);
    }
    i = j;
  }
}

// The arguments of a call, as views into its text; only the first few are kept (the calls this pass takes apart
// have at most five), `n` counts them all.
struct Args {
  string_view v[8];
  size_t n = 0;
  string_view operator[](size_t i) const { return v[i]; }
};

// The arguments of the call whose '(' is at `open`; `close` gets the position of its ')'. False on a mismatch.
bool callArgs(string_view e, size_t open, size_t& close, Args& args) {
  args.n = 0;
  auto push = [&](string_view a) {
    if (args.n < 8) args.v[args.n] = a;
    ++args.n;
  };
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < e.size(); ++i) {
    char c = e[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') {
      if (--depth == 0) {
        push(e.substr(start, i - start));
        close = i;
        return true;
      }
    } else if (c == ',' && depth == 1) {
      push(e.substr(start, i - start));
      start = i + 2 <= e.size() && e[i + 1] == ' ' ? i + 2 : i + 1;
    }
  }
  args.n = 0;
  return false;
}

constexpr string_view kGuarded[] = {"p2g_fadd", "p2g_fsub", "p2g_fmul", "p2g_ffma"};
// The guarded calls' untested short forms (f32_prelude.cpp p2g_region): the same device operation, no test of
// the result, for a result whose exact value is a multiple of 2^-63 whatever the operands are (Region::coarse).
constexpr string_view kCoarse[] = {"p2g_faddc", "p2g_fsubc", "p2g_fmulc", "p2g_ffmac"};
// min/max.f32 (two operands): in the device's pass the device's min()/max() where the fact P2G_F32_MINMAX holds
// (p2g_nmin/p2g_nmax), their operands tested like the guarded calls' (a subnormal one fails the region).
constexpr string_view kMinMax[] = {"p2g_fmin", "p2g_fmax"};
constexpr string_view kMinMaxFast[] = {"p2g_nmin", "p2g_nmax"};
// every call that can make a region
constexpr string_view kRegionCalls[] = {"p2g_fadd", "p2g_fsub", "p2g_fmul", "p2g_ffma", "p2g_fmin", "p2g_fmax"};

// A call of `f` starts at `i` in `e`: its name, not the tail of a longer identifier, then '('.
bool callAt(string_view e, size_t i, string_view f) {
  return e.compare(i, f.size(), f) == 0 && !(i > 0 && identChar(e[i - 1])) && i + f.size() < e.size() &&
         e[i + f.size()] == '(';
}

// neg.f32 as the emitter writes it: the sign flipped, a NaN made canonical (p2g_canon).
constexpr string_view kNegA = "p2g_canon(uintBitsToFloat(floatBitsToUint(", kNegB = ") ^ 0x80000000u))";
bool negation(string_view e, string_view& x) {
  if (e.size() <= kNegA.size() + kNegB.size() || e.compare(0, kNegA.size(), kNegA) != 0 ||
      e.compare(e.size() - kNegB.size(), kNegB.size(), kNegB) != 0)
    return false;
  x = e.substr(kNegA.size(), e.size() - kNegA.size() - kNegB.size());
  return true;
}

// `e` is exactly one call of `f` (the whole expression); its arguments in `args`.
bool wholeCall(string_view e, string_view f, Args& args) {
  if (e.size() < f.size() + 2 || e.compare(0, f.size(), f) != 0 || e[f.size()] != '(') return false;
  size_t close = 0;
  return callArgs(e, f.size(), close, args) && close == e.size() - 1;
}

// `e` is one select, `c ? a : b` or `(c ? a : b)` (a whole expression or argument: `?:` binds loosest); its arms
// in `a` and `b`. A nested select in the first arm is skipped over; one in the second stays in `b`.
bool selectArms(string_view e, string_view& a, string_view& b) {
  if (e.size() < 7) return false;
  int depth = 0, nest = 0, top = 0;
  if (e.front() == '(') {  // one parenthesised expression, or `(x) ...`
    size_t close = 0;
    Args one;
    if (callArgs(e, 0, close, one) && close + 1 == e.size()) top = 1;
  }
  size_t q = npos;
  for (size_t i = 0; i < e.size(); ++i) {
    char c = e[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (depth == top && c == '?') {
      if (q == npos) q = i;
      else ++nest;
    } else if (depth == top && c == ':' && q != npos) {
      if (nest) {
        --nest;
        continue;
      }
      size_t end = e.size() - size_t(top);
      if (q < 2 || e[q - 1] != ' ' || e[q + 1] != ' ' || e[i - 1] != ' ' || i + 2 >= end || e[i + 1] != ' ')
        return false;
      a = e.substr(q + 2, i - 1 - (q + 2));
      b = e.substr(i + 2, end - (i + 2));
      return !a.empty() && !b.empty();
    }
  }
  return false;
}

// The value of `e` is that of `x`, or 0x7FFFFFFF where `x` is NaN: p2g_f32_canon(floatBitsToUint(x)); or 0, 1 or
// `x` (.sat of a value, NaN giving 0: p2g_sat(x)). Either is plain where `x` is, on the same grid.
bool sameValue(string_view e, string_view& x) {
  Args a;
  if (wholeCall(e, "p2g_sat", a) && a.n == 1) {
    x = a[0];
    return true;
  }
  if (wholeCall(e, "p2g_f32_canon", a) && a.n == 1 && wholeCall(a[0], "floatBitsToUint", a) && a.n == 1) {
    x = a[0];
    return true;
  }
  return false;
}

// An f16 value widened to f32 with its NaN made canonical or gone, as the emitter writes cvt.f32.f16:
// p2g_f32_canon(floatBitsToUint(p2g_h2f(h))) (or .sat of p2g_h2f). Exact: 0, infinite, 0x7FFFFFFF, or a multiple
// of 2^-24 of magnitude 2^-24 or more (an f16 subnormal is an f32 normal), so never subnormal and on the grid of
// 2^-24.
bool f16Widening(string_view e) {
  string_view x;
  Args a;
  return sameValue(e, x) && wholeCall(x, "p2g_h2f", a) && a.n == 1;
}

// A texture read of `e` on a device-sampled slot (p2g_tex2(p2g_hw<slot>, ...) ...) renamed to its form `suffix`
// (emit_tex.cpp texturePreludeFor): the device's sampler, or where the device does not sample the slot zeros and a
// failed test (_first: p2g_u = 0, the first pass's; _chk: p2g_m = 0, the check's), so the exact replay reads it.
// Only the replay holds the software filter, which lavapipe's compiler inlines at every call before it folds away
// what its facts leave dead (docs/GPU_BENCH.md, 2026-12-07).
std::string deviceTextureReads(string_view e, string_view suffix) {
  std::string out;
  size_t done = 0;
  for (size_t i = e.find("p2g_t"); i != npos; i = e.find("p2g_t", i + 1))
    for (string_view f : {string_view("p2g_tex2"), string_view("p2g_tex3"), string_view("p2g_texi2"),
                          string_view("p2g_texi3"), string_view("p2g_tld4s")})
      if (callAt(e, i, f)) {
        out.append(e.substr(done, i + f.size() - done)).append(suffix);
        done = i + f.size();
        break;
      }
  out.append(e.substr(done));
  return out;
}

// The device's pass with the precise forms (p2g_faddz ..., p2g_inz, p2g_in_nanz: f32_prelude.cpp), for a
// region's check function: every short-form call (2 operands, fma 3) and entry test of `e` renamed; the exact
// forms (with ftz and mode) stay; texture reads take their check forms (deviceTextureReads).
std::string zeroAware(string_view e) {
  std::string out;
  out.reserve(e.size() + 16);
  size_t done = 0;
  for (size_t i = 0; i + 6 < e.size(); ++i) {
    if (e[i] != 'p' || e.compare(i, 4, "p2g_") != 0) continue;
    for (string_view f : {string_view("p2g_in"), string_view("p2g_in_nan")}) {
      if (!callAt(e, i, f)) continue;
      out.append(e.substr(done, i + f.size() - done)) += 'z';
      done = i + f.size();
    }
    if (i + 8 >= e.size() || e.compare(i, 5, "p2g_f") != 0) continue;
    for (size_t k = 0; k < 4; ++k) {
      // a short form, tested or untested (p2g_fmul, p2g_fmulc): the check tests every result
      string_view f = kGuarded[k];
      bool c = callAt(e, i, kCoarse[k]);
      if (!c && !callAt(e, i, f)) continue;
      size_t close = 0;
      Args a;
      size_t n = f.size() + (c ? 1 : 0);
      if (callArgs(e, i + n, close, a) && a.n == (f == "p2g_ffma" ? 3u : 2u)) {
        out.append(e.substr(done, i + f.size() - done)) += 'z';
        done = i + n;
      }
      break;
    }
  }
  out.append(e.substr(done));
  return deviceTextureReads(out, "_chk");
}

bool guardedForm(string_view f, const Args& a) {
  if (f == "p2g_ffma") return a.n == 5 && a[3] == "0" && a[4] == "false";
  return a.n == 3 && a[2] == "false";
}

// `-x` for the device's pass: a negation read only as an operand of the device's add/sub/mul/fma needs no
// canonical NaN of its own, since their NaN result is 0x7FFFFFFF whatever the operand's sign and payload (the fact
// P2G_F32_FAST); the device folds the sign into the operation.
std::string plainNeg(std::string_view x) { return negatedText(x); }

// How often `n` stands as a whole operand (bare, or in p2g_in/p2g_in_nan) of a short-form guarded call in the
// rewritten expression `e`, at any depth.
size_t deviceOperandUses(string_view e, string_view n) {
  size_t count = 0;
  for (size_t i = e.find("p2g_f"); i != npos; i = e.find("p2g_f", i + 1)) {
    for (size_t j = 0; j < 4; ++j) {
      string_view g = kGuarded[j];
      size_t L = callAt(e, i, kCoarse[j]) ? g.size() + 1 : g.size();  // p2g_fmulc too
      if (L == g.size() && !callAt(e, i, g)) continue;
      size_t close = 0;
      Args a;
      size_t ops = g == "p2g_ffma" ? 3 : 2;
      if (!callArgs(e, i + L, close, a) || a.n != ops) break;
      for (size_t k = 0; k < ops; ++k) {
        string_view x = a[k];
        for (string_view w : {string_view("p2g_in("), string_view("p2g_in_nan(")})
          if (x.size() > w.size() && x.compare(0, w.size(), w) == 0 && x.back() == ')')
            x = x.substr(w.size(), x.size() - w.size() - 1);
        if (x == n) ++count;
      }
      break;
    }
  }
  return count;
}

// f32 bits that a region may take in untested: zero, infinity, or a number of magnitude 2^-40 or more (the first
// pass's bound, f32_prelude.cpp p2g_region: every nonzero operand of a region's operation is at least that).
bool plainBits(uint32_t u) {
  uint32_t a = u & 0x7FFFFFFFu;
  return a == 0 || (a >= 0x2B800000u && a <= 0x7F800000u);
}

// The f32 bits of a literal as the emitter writes them (uintBitsToFloat(0x...u) or a decimal that is an exact
// float); false for anything else.
bool literalBits(string_view e, uint32_t& u) {
  Args a;
  if (wholeCall(e, "uintBitsToFloat", a) && a.n == 1 && a[0].size() > 3 && a[0].compare(0, 2, "0x") == 0 &&
      a[0].back() == 'u') {
    u = uint32_t(strtoul(std::string(a[0]).c_str() + 2, nullptr, 16));
    return true;
  }
  if (e.empty() || !((e[0] >= '0' && e[0] <= '9') || e[0] == '-' || e[0] == '.')) return false;
  std::string t(e);
  char* end = nullptr;
  double v = strtod(t.c_str(), &end);
  if (!end || *end) return false;
  float f = float(v);
  if (double(f) != v) return false;
  memcpy(&u, &f, 4);
  return true;
}

bool safeLiteral(string_view e) {
  uint32_t u;
  return literalBits(e, u) && plainBits(u);
}

// The finest grid a value of a region's device pass may have: a nonzero multiple of 2^-126 is normal, so an
// operation whose exact result is one is never tiny, and its rounded result is a multiple of 2^-126 too.
constexpr int kGridMax = 126;

// The grid of a plain f32 (plainBits): g such that the value is a multiple of 2^-g, at least 0 (0 for zero and
// infinity). A number of magnitude 2^-40 or more is a multiple of its ulp, 2^-63 or coarser: g <= 63.
int bitsGrid(uint32_t u) {
  uint32_t a = u & 0x7FFFFFFFu;
  if (a == 0 || a >= 0x7F800000u) return 0;
  uint32_t sig = (a & 0x7FFFFFu) | 0x800000u;
  int low = int(a >> 23) - 150 + __builtin_ctz(sig);  // the exponent of the lowest set bit of the value
  return low >= 0 ? 0 : -low;
}

// Literal operands that may let a compiler turn an operation into a copy or a negation (x * 1.0 -> x,
// x + -0.0 -> x, fma(x, 1.0, -0.0) -> x): an entering NaN would then keep its payload where PTX's operation gives
// 0x7FFFFFFF. litClass: 1 for +-1, 0 for +-0, -1 for anything else.
int litClass(string_view e) {
  uint32_t u;
  if (!literalBits(e, u)) return -1;
  u &= 0x7FFFFFFFu;
  return u == 0 ? 0 : u == 0x3F800000u ? 1 : -1;
}

bool mayBeCopy(string_view f, const Args& a) {
  if (f == "p2g_fmul") return litClass(a[0]) == 1 || litClass(a[1]) == 1;
  if (f == "p2g_ffma") return (litClass(a[0]) == 1 || litClass(a[1]) == 1) && litClass(a[2]) == 0;
  return litClass(a[0]) == 0 || litClass(a[1]) == 0;  // p2g_fadd, p2g_fsub
}

// True when `e` holds a call that makes a region, at any depth: a guarded call in its guarded form (rn, no
// .ftz), or min/max of two operands.
bool hasGuardedCall(string_view e) {
  for (auto g : kRegionCalls) {
    for (size_t at = e.find(g); at != npos; at = e.find(g, at + 1)) {
      if (!callAt(e, at, g)) continue;
      size_t close = 0;
      Args args;
      if (!callArgs(e, at + g.size(), close, args)) continue;
      if (g == kMinMax[0] || g == kMinMax[1] ? args.n == 2 : guardedForm(g, args)) return true;
    }
  }
  return false;
}

// The identifiers of the body, numbered (FNV-1a hashes, open addressing; the names are views into the body,
// which stays as it is until the pass ends), each with what the region being built knows of it: a field equal
// to the region's number holds for this region (numbers are never reused, so nothing is cleared between
// regions), and the first and last line that names it.
class Names {
 public:
  struct Info {
    uint32_t safe = 0, written = 0, tested = 0, named = 0, readBefore = 0, local = 0;
    uint32_t gridR = 0;  // `grid` holds for region gridR
    uint8_t grid = 63;   // a safe variable's value is a multiple of 2^-grid (Region::gridOf)
    bool mentioned = false;
    uint8_t pureCall = 0;  // as a function called: 0 not yet asked, 1 pure, 2 not (pureStmt)
    int type = -1;         // as a variable: its type, an index into guardRegions' types (-1: not yet asked)
    size_t first = 0, last = 0;
  };
  Names() : slot_(1024, -1) {}
  int id(string_view n) {
    size_t mask = slot_.size() - 1;
    for (size_t i = hash(n) & mask;; i = (i + 1) & mask) {
      int s = slot_[i];
      if (s < 0) {
        slot_[i] = int(names_.size());
        names_.push_back(n);
        info_.emplace_back();
        if (2 * names_.size() > slot_.size()) grow();
        return int(names_.size()) - 1;
      }
      if (names_[size_t(s)] == n) return s;
    }
  }
  Info& operator[](int id) { return info_[size_t(id)]; }
  string_view name(int id) const { return names_[size_t(id)]; }

 private:
  std::vector<int> slot_;
  std::vector<string_view> names_;
  std::vector<Info> info_;
  static size_t hash(string_view n) {
    uint64_t h = 1469598103934665603ull;
    for (char c : n) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return size_t(h);
  }
  void grow() {
    slot_.assign(2 * slot_.size(), -1);
    size_t mask = slot_.size() - 1;
    for (size_t k = 0; k < names_.size(); ++k) {
      size_t i = hash(names_[k]) & mask;
      while (slot_[i] >= 0) i = (i + 1) & mask;
      slot_[i] = int(k);
    }
  }
};

// Every call in the statement's expression is pure (checked only for statements a run may take in). The verdict
// on each function name is kept in `names` (a kernel calls a few dozen functions thousands of times).
bool pureStmt(const Stmt& s, Names& names) {
  for (size_t i = 0; i < s.rhs.size();) {
    if (!identStart(s.rhs[i]) || (i > 0 && (identChar(s.rhs[i - 1]) || s.rhs[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.rhs.size() && identChar(s.rhs[j])) ++j;
    if (j < s.rhs.size() && s.rhs[j] == '(') {
      string_view f = s.rhs.substr(i, j - i);
      Names::Info& I = names[names.id(f)];
      if (I.pureCall == 0) I.pureCall = pureBuiltin(f) || pureHelper(f) ? 1 : 2;
      if (I.pureCall == 2) return false;
    }
    i = j;
  }
  return true;
}

class Region {
 public:
  // Names' fields for this region (number `r`): safe, a variable set in the region to a value known plain;
  // written, set so far; tested, a variable already tested at a use since it entered the region or a statement
  // of the region last set it (the first such use of each is wrapped in p2g_in)
  Names& names;
  uint32_t r;
  int guarded = 0;
  Region(Names& n, uint32_t number) : names(n), r(number) {}

  // `e` is a guarded call's result: the device made it, so a NaN in it is 0x7FFFFFFF already (as is one in a
  // variable safe in this region, set from such results, literals, p2g_fmin/p2g_fmax or p2g_canon).
  static bool guardedResult(string_view e) {
    Args a;
    for (auto g : kGuarded)
      if (wholeCall(e, g, a)) return guardedForm(g, a);
    return false;
  }

  // The grid of a safe expression (original text; safe(e) holds or it is tested at its use): g such that its
  // value is a multiple of 2^-g, at most kGridMax. A value tested (on entering, or as a product's operand) is 0,
  // infinite, NaN or at least 2^-40 in magnitude where the first way passes: a multiple of its ulp, 2^-63 or
  // coarser. A literal is plain; a result (always the untested short form) has the grid its operands give
  // (gridPolicy). So 63 is the answer for anything not known better: it is tested at its use.
  int gridOf(string_view e) {
    Args a;
    for (auto g : kGuarded)
      if (wholeCall(e, g, a)) return guardedForm(g, a) ? resultGrid(g, a) : 63;
    uint32_t u;
    if (literalBits(e, u) && plainBits(u)) return bitsGrid(u);
    if ((wholeCall(e, "p2g_fmin", a) || wholeCall(e, "p2g_fmax", a)) && a.n == 2)
      return std::max(gridOf(a[0]), gridOf(a[1]));
    if (isIdent(e)) {
      const Names::Info& I = names[names.id(e)];
      if (I.safe != r || I.gridR != r) return 63;
      return I.tested == r ? std::min<int>(I.grid, 63) : I.grid;  // tested at a use: its value is then coarse
    }
    string_view x, y;
    if (negation(e, x)) return gridOf(x);
    if (f16Widening(e)) return 24;
    if (sameValue(e, x)) return gridOf(x);
    if (selectArms(e, x, y)) return std::max(gridOf(x), gridOf(y));
    return 63;
  }
  // The grids of a guarded call's operands as its rewrite leaves them (gr[k]), and which of them it tests
  // (test[k]) for the grid alone: a product whose operands' grids add up to more than kGridMax has each factor
  // of a grid finer than 2^-63 tested (then the product is a multiple of 2^-126 again).
  void gridPolicy(string_view g, const Args& a, int gr[3], bool test[3]) {
    size_t n = g == "p2g_ffma" ? 3 : 2;
    for (size_t k = 0; k < 3; ++k) gr[k] = k < n ? gridOf(a[k]) : 0, test[k] = false;
    if (g == "p2g_fadd" || g == "p2g_fsub" || gr[0] + gr[1] <= kGridMax) return;
    for (size_t k = 0; k < 2; ++k)
      if (gr[k] > 63) gr[k] = 63, test[k] = true;
  }
  // The grid of a guarded call's exact result (2^-g, the step of each operand's multiples): a sum is a multiple
  // of the finer step, a product of the product of the steps (fma: both); at most kGridMax by gridPolicy.
  int resultGrid(string_view g, const Args& a) {
    int gr[3];
    bool test[3];
    gridPolicy(g, a, gr, test);
    if (g == "p2g_fadd" || g == "p2g_fsub") return std::max(gr[0], gr[1]);
    int p = gr[0] + gr[1];
    return g == "p2g_ffma" ? std::max(p, gr[2]) : p;
  }

  // Wraps the rewritten operand that `out` holds from `at` on in `test` ("p2g_in(", "p2g_in_nan(") when not null;
  // a variable `name` so tested counts as tested until a statement of the region writes it (guardRegions clears
  // `tested` there): its value on entry, or the value a statement of the region gave it.
  void operand(std::string& out, size_t at, const char* test, string_view name) {
    if (!test) return;
    out.insert(at, test);
    out += ')';
    if (!name.empty()) names[names.id(name)].tested = r;
  }

  // `e` with every operand of a guarded call that might be subnormal wrapped in p2g_in() (p2g_in_nan() where the
  // call may compile to a copy, mayBeCopy).
  std::string rewrite(string_view e) {
    std::string out;
    out.reserve(e.size() + 16);
    rewriteInto(out, e);
    return out;
  }

  // rewrite(e), appended to `out` (an operand is rewritten in place: no string of its own)
  void rewriteInto(std::string& out, string_view e) {
    for (size_t i = 0; i < e.size();) {
      size_t at = e.find("p2g_f", i);  // every guarded name starts so: copy what comes before in one piece
      if (at == npos) {
        out.append(e.substr(i));
        break;
      }
      out.append(e.substr(i, at - i));
      i = at;
      bool hit = false;
      if (callAt(e, i, "p2g_fcmp")) {
        // setp.f32 on two floats' bits: the device's compares (p2g_fcmpd) on operands tested like the guarded calls'
        // (where the region's test passes no value of its device pass is subnormal, and NaN is NaN to the device;
        // the replay keeps p2g_fcmp). An operand is floatBitsToUint(x) or a literal's bits (0x...u); a negation
        // stays on the bits (a flushing device may flush in `-x`).
        size_t close = 0;
        Args args;
        string_view v[2];  // views into `e` (Names keeps views of the identifiers it is asked), or of lit[k]
        std::string lit[2];
        bool ok = callArgs(e, i + 8, close, args) && args.n == 2;
        for (size_t k = 0; k < 2 && ok; ++k) {
          Args x;
          string_view nx;
          if (wholeCall(args[k], "floatBitsToUint", x) && x.n == 1 && !negation(x[0], nx)) {
            v[k] = x[0];
          } else if (args[k].size() > 3 && args[k].compare(0, 2, "0x") == 0 && args[k].back() == 'u') {
            lit[k] = "uintBitsToFloat(" + std::string(args[k]) + ")";  // a literal: never an identifier
            v[k] = lit[k];
          } else {
            ok = false;
          }
        }
        if (ok) {
          out += "p2g_fcmpd(";
          for (size_t k = 0; k < 2; ++k) {
            if (k) out += ", ";
            size_t from = out.size();
            rewriteInto(out, v[k]);
            // a literal needs a test only if it is subnormal: a compare's operand feeds no grid (plainBits' 2^-40
            // bound is the arithmetic's), so 2^-126 is fine here
            uint32_t bits = 0;
            bool literal = literalBits(v[k], bits);
            bool plain = literal ? (bits & 0x7F800000u) != 0 || (bits << 1) == 0 : safe(v[k]);
            operand(out, from, plain ? nullptr : "p2g_in(",
                    isIdent(v[k]) ? v[k] : string_view());
          }
          out += ')';
          i = close + 1;
          continue;
        }
      }
      for (size_t m = 0; m < 2 && !hit; ++m) {  // min/max: the device's where the fact holds, operands tested
        string_view g = kMinMax[m];
        size_t n = g.size();
        if (!callAt(e, i, g)) continue;
        size_t close = 0;
        Args args;
        if (!callArgs(e, i + n, close, args) || args.n != 2) break;
        ++guarded;
        out += kMinMaxFast[m];
        out += '(';
        for (size_t k = 0; k < 2; ++k) {
          // an operand beside an infinite literal is tested for NaN too: a compiler may fold min(x, +inf) to x,
          // which would keep a NaN where PTX gives the other operand
          uint32_t u = 0;
          bool inf = literalBits(args[1 - k], u) && (u & 0x7FFFFFFFu) == 0x7F800000u;
          if (k) out += ", ";
          size_t from = out.size();
          rewriteInto(out, args[k]);  // first: it marks the variables it tests
          bool ident = isIdent(args[k]);
          const char* test = inf && !safeLiteral(args[k]) ? "p2g_in_nan(" : !safe(args[k]) ? "p2g_in(" : nullptr;
          operand(out, from, test, ident ? args[k] : string_view());
        }
        out += ')';
        i = close + 1;
        hit = true;
      }
      if (hit) continue;
      for (auto g : kGuarded) {
        size_t n = g.size();
        if (!callAt(e, i, g)) continue;
        size_t close = 0;
        Args args;
        if (!callArgs(e, i + n, close, args) || !guardedForm(g, args)) break;
        ++guarded;
        // every guarded call takes the untested short form: its exact result is a multiple of 2^-126 (gridPolicy
        // tests the factors that would make it finer), so it is never subnormal where the first way passes
        int gr[3];
        bool gridTest[3];
        gridPolicy(g, args, gr, gridTest);
        out += g;
        out += "c(";
        size_t operands = g == "p2g_ffma" ? 3 : 2;
        bool identity = mayBeCopy(g, args);  // then an entering operand is tested for NaN too
        for (size_t k = 0; k < operands; ++k) {  // the short form: rn, no .ftz, the region's device pass
          if (k) out += ", ";
          size_t from = out.size();
          string_view negated;
          bool neg = negation(args[k], negated);
          rewriteInto(out, neg ? negated : args[k]);
          const char* test = nullptr;
          bool ident = isIdent(args[k]);
          if (identity && !safeLiteral(args[k]) && !guardedResult(args[k]) &&
              !(ident && names[names.id(args[k])].safe == r))
            test = "p2g_in_nan(";
          else if (!safe(args[k]) || gridTest[k])
            test = "p2g_in(";
          // A negation (plainNeg of the rewritten operand) is tested inside the minus, on the negated value's
          // bits: a device that flushes f32 subnormals may flush in `-x` too (NVIDIA's driver does, folding the
          // sign into an operation: ptx_corpus/basic/neg_operand, 2,796 wrong values with `p2g_in(-x)`), so a
          // test of `-x` can see the flushed zero instead of the subnormal x.
          operand(out, from, test, ident ? args[k] : string_view());
          if (neg) {
            std::string minus = plainNeg(string_view(out).substr(from));
            out.replace(from, npos, minus);
          }
        }
        out += ')';
        i = close + 1;
        hit = true;
        break;
      }
      if (!hit) out += e[i++];
    }
  }

  // True when `e` is known to be neither subnormal nor NaN on entry to its use, or is tested already: a result
  // of a guarded call (the region's test covers it), a literal, an f16 value widened (f16Widening: its NaN
  // canonical), min/max, negation, select, .sat or canonical NaN of such (sameValue), a variable that a
  // statement of the region set to such, or a variable tested at an earlier use since its value was set.
  // With `entering` false (a whole right-hand side: may the variable it sets count as safe?) a variable from
  // outside the region is not safe, since nothing tests it unless it is also an operand.
  bool safe(string_view e, bool entering = true) {
    Args a;
    for (auto g : kGuarded)
      if (wholeCall(e, g, a)) return guardedForm(g, a);
    if (safeLiteral(e)) return true;
    // min/max: rewriteInto tests every operand that is not safe, entering ones included
    if ((wholeCall(e, "p2g_fmin", a) || wholeCall(e, "p2g_fmax", a)) && a.n == 2) return safe(a[0]) && safe(a[1]);
    if (isIdent(e)) {
      const Names::Info& I = names[names.id(e)];
      return I.safe == r || (entering && I.tested == r);
    }
    string_view x, y;
    if (negation(e, x)) return safe(x, entering);
    if (f16Widening(e)) return true;
    if (sameValue(e, x)) return safe(x, entering);
    if (selectArms(e, x, y)) return safe(x, entering) && safe(y, entering);
    return false;
  }
};

bool guardedText(string_view t) {
  for (auto g : kRegionCalls) {
    for (size_t at = t.find(g); at != npos; at = t.find(g, at + 1))
      if (callAt(t, at, g)) return true;
  }
  return false;
}

}  // namespace

int guardRegions(std::string& body, std::string& functions,
                 const std::function<std::string(const std::string&)>& typeOf) {
  if (!guardedText(body)) return 0;
  std::vector<string_view> lines;  // views into `body`, which stays as it is until the end
  for (size_t i = 0; i < body.size();) {
    size_t e = body.find('\n', i);
    if (e == std::string::npos) e = body.size();
    lines.emplace_back(body.data() + i, e - i);
    i = e + 1;
  }
  std::vector<Stmt> st(lines.size());
  std::vector<uint8_t> kind(lines.size(), 0);  // 0 other, 1 comment, 2 statement
  for (size_t li = 0; li < lines.size(); ++li) {
    size_t b = lines[li].find_first_not_of(' ');
    if (b != npos && lines[li].compare(b, 2, "//") == 0) kind[li] = 1;
    else if (parseStmt(lines[li], st[li])) kind[li] = 2;
  }
  // the types of locals declared in statements, gathered on the first name typeOf does not know
  std::unordered_map<string_view, string_view> declared;
  bool declaredDone = false;
  Names names;
  // the first and last line that names each identifier (a variable named only inside a region is the replay's
  // own), gathered when the first region needs it
  bool mentionsDone = false;
  auto mentionRange = [&](int id) -> std::pair<size_t, size_t> {
    if (!mentionsDone) {
      mentionsDone = true;
      for (size_t li = 0; li < lines.size(); ++li) {
        if (kind[li] == 1) continue;
        string_view code = lines[li].substr(0, findComment(lines[li]));
        forEachRead(code, [&](string_view v) {
          Names::Info& I = names[names.id(v)];
          if (!I.mentioned) I.mentioned = true, I.first = li;
          I.last = li;
        });
      }
    }
    const Names::Info& I = names[id];
    return I.mentioned ? std::make_pair(I.first, I.last) : std::make_pair(size_t(0), size_t(0));
  };
  // each name's type, asked once (regions name the same variables again and again)
  std::vector<std::string> types;
  auto type = [&](int id) -> const std::string& {
    Names::Info& I = names[id];
    if (I.type >= 0) return types[size_t(I.type)];
    string_view n = names.name(id);
    std::string t = typeOf(std::string(n));
    if (t.empty()) {
      if (!declaredDone) {
        declaredDone = true;
        for (size_t li = 0; li < lines.size(); ++li)
          if (kind[li] == 2 && !st[li].type.empty()) declared.emplace(st[li].lhs, st[li].type);
      }
      auto it = declared.find(n);
      if (it != declared.end()) t = std::string(it->second);
    }
    names[id].type = int(types.size());
    types.push_back(std::move(t));
    return types.back();
  };
  // per line: a statement with a guarded call; a statement with pure calls only (-1: not yet known)
  std::vector<int8_t> guardedLine(lines.size(), -1), pureLine(lines.size(), -1);
  std::string out;
  out.reserve(body.size() + body.size() / 4);
  int wrapped = 0;
  uint32_t regionNo = 0;
  for (size_t li = 0; li < lines.size();) {
    if (kind[li] != 2) {
      out.append(lines[li]) += '\n';
      ++li;
      continue;
    }
    // the run of pure statements and comments at this statement's indentation; a statement that names a variable
    // whose type is unknown here (nothing the replay could take as a parameter) ends the run, so it costs its own
    // operations their region, not the whole run's
    auto pure = [&](size_t k) {
      if (pureLine[k] < 0) {
        bool known = !type(names.id(st[k].lhs)).empty();
        if (known) forEachRead(st[k].rhs, [&](string_view v) { known = known && !type(names.id(v)).empty(); });
        pureLine[k] = known && pureStmt(st[k], names);
      }
      return pureLine[k] > 0;
    };
    if (!pure(li)) {
      out.append(lines[li]) += '\n';
      ++li;
      continue;
    }
    size_t end = li, lastStmt = li;
    while (end < lines.size() && kind[end] != 0 &&
           (kind[end] == 1 || (st[end].indent == st[li].indent && pure(end)))) {
      if (kind[end] == 2) lastStmt = end;
      ++end;
    }
    end = lastStmt + 1;  // trailing comments belong to what follows
    // the region runs from the first statement with a guarded call to the last: statements before or after it
    // run once, outside (a shorter run is as valid as a longer one)
    auto hasGuarded = [&](size_t k) {
      if (guardedLine[k] < 0) {
        guardedLine[k] = 0;
        if (kind[k] == 2 && guardedText(st[k].rhs)) guardedLine[k] = hasGuardedCall(st[k].rhs);
      }
      return guardedLine[k] > 0;
    };
    size_t first = li;
    while (first < end && !hasGuarded(first)) ++first;
    if (first == end) {
      for (size_t k = li; k < end; ++k) out.append(lines[k]) += '\n';
      li = end;
      continue;
    }
    while (!hasGuarded(end - 1)) --end;
    while (first > li && kind[first - 1] == 1) --first;  // the annotations of the first statement stay with it
    for (size_t k = li; k < first; ++k) out.append(lines[k]) += '\n';
    li = first;
    while (kind[li] != 2) out.append(lines[li++]) += '\n';
    const uint32_t r = ++regionNo;
    Region R(names, r);
    std::vector<std::string> rhs(end - li);
    std::vector<int> order;  // every variable the run names, first mention first
    for (size_t k = li; k < end; ++k) {
      if (kind[k] != 2) continue;
      Stmt& s = st[k];
      forEachRead(s.rhs, [&](string_view v) {
        int id = names.id(v);
        Names::Info& I = names[id];
        if (I.written != r) I.readBefore = r;
        if (I.named != r) I.named = r, order.push_back(id);
      });
      int lhs = names.id(s.lhs);
      if (names[lhs].named != r) names[lhs].named = r, order.push_back(lhs);
      rhs[k - li] = R.rewrite(s.rhs);
      bool plain = R.safe(s.rhs, false);
      names[lhs].grid = uint8_t(plain ? R.gridOf(s.rhs) : 63);
      names[lhs].gridR = r;
      names[lhs].safe = plain ? r : 0;
      names[lhs].written = r;
      names[lhs].tested = 0;  // a new value: tested again at its first use unless safe
    }
    // a negation set once in the run and read only there, as whole operands of the device's add/sub/mul/fma:
    // plain `-x` in the device's pass (plainNeg)
    for (size_t k = li; k < end; ++k) {
      string_view x;
      if (kind[k] != 2 || !negation(st[k].rhs, x)) continue;
      int id = names.id(st[k].lhs);
      auto m = mentionRange(id);
      if (m.first < k || m.second >= end) continue;
      bool only = true;
      size_t uses = 0;
      for (size_t j = li; j < end && only; ++j) {
        if (kind[j] != 2) continue;
        if (j != k && st[j].lhs == st[k].lhs) only = false;
        if (j <= k) continue;
        size_t reads = 0;
        forEachRead(rhs[j - li], [&](string_view v) { reads += v == st[k].lhs; });
        size_t direct = reads ? deviceOperandUses(rhs[j - li], st[k].lhs) : 0;
        only = only && reads == direct;
        uses += reads;
      }
      if (!only || uses == 0) continue;
      // the negated value tested on its bits first unless it was safe where the negation stands (a literal, a
      // guarded result: then the negation's variable is safe, names[id].safe, set once): `-x` of a subnormal x may
      // be flushed by the device, and a test of the negation's variable would see that zero (as above)
      string_view rx;
      if (negation(rhs[k - li], rx))
        rhs[k - li] = plainNeg(names[id].safe == r ? std::string(rx) : "p2g_in(" + std::string(rx) + ")");
    }
    // the exact replay's parameters: values from outside (in), results (out), both (inout: restored first)
    std::vector<std::string> params;
    std::vector<string_view> args, restores;
    std::map<std::string, std::vector<string_view>> saves;  // type -> names whose starting value is saved
    // (every name has a type: a statement naming one without ended the run, in `pure`)
    bool ok = R.guarded > 0;
    for (int id : order) {
      if (!ok) break;
      string_view n = names.name(id);
      bool in = names[id].readBefore == r, outp = names[id].written == r;
      std::string t = type(id);
      if (t == "-") continue;  // a global: the replay reads it as main() does
      auto m = mentionRange(id);
      if (outp && !in && m.first >= li && m.second < end) {
        names[id].local = r;  // set and read only inside the region: a local of the replay
        continue;
      }
      if (in && outp) saves[t].push_back(n), restores.push_back(n);
      std::string q = in && outp ? "inout " : outp ? "out " : "";
      if (!outp && t.compare(0, 8, "precise ") == 0) t = t.substr(8);  // precise qualifies results only
      q += t;
      q += ' ';
      q.append(n);
      params.push_back(std::move(q));
      args.push_back(n);
    }
    if (!ok) {
      for (size_t k = li; k < end; ++k) out.append(lines[k]) += '\n';
      li = end;
      continue;
    }
    ++wrapped;
    std::string fn = "p2g_exact_" + std::to_string(wrapped), check = "p2g_check_" + std::to_string(wrapped);
    const string_view ind = st[li].indent;
    for (auto& [t, ns] : saves) {
      out.append(ind).append(t) += ' ';
      for (size_t i = 0; i < ns.size(); ++i) {
        if (i) out += ", ";
        out.append("p2g_was_").append(ns[i]).append(" = ").append(ns[i]);
      }
      out += ";\n";
    }
    for (size_t k = li; k < end; ++k) {
      if (kind[k] == 1) {
        out.append(lines[k]) += '\n';
        continue;
      }
      const Stmt& s = st[k];
      out += ind;
      if (!s.type.empty()) out.append(s.type) += ' ';
      out.append(s.lhs) += " = ";
      out += deviceTextureReads(rhs[k - li], "_first");
      out += ';';
      if (!s.comment.empty()) out.append("  ").append(s.comment);
      out += '\n';
    }
    // p2g_redo() true: the check (the device's pass again, zeros that are exact let through) decides whether the
    // replay runs; both start from the values the run started with
    std::string argList, restore;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) argList += ", ";
      argList.append(args[i]);
    }
    for (auto n : restores) restore.append(" ").append(n).append(" = p2g_was_").append(n).append(";");
    // Without values to restore the check calls the replay itself (its inputs are still the run's), so main()
    // reads as before: one call after the run.
    if (restores.empty())
      out.append(ind).append("if (p2g_redo()) ").append(check).append("(").append(argList).append(");");
    else
      out.append(ind).append("if (p2g_redo()) {").append(restore).append(" if (").append(check).append("(")
          .append(argList).append(")) {").append(restore).append(" ").append(fn).append("(").append(argList)
          .append("); } }");
    out += '\n';
    // the replay and the check: the run's statements, the replay's as they were, every call exact, the check's in
    // the device's pass with the zero-aware short forms (it calls the replay, or with values to restore returns
    // whether a result was still tiny)
    std::vector<char> declared(end - li, 0);
    for (size_t k = li; k < end; ++k) {
      if (kind[k] != 2) continue;
      Names::Info& L = names[names.id(st[k].lhs)];
      if (L.local == r) declared[k - li] = 1, L.local = 0;  // declared at its first assignment
    }
    for (int pass : {1, 0}) {  // the replay first: the check may call it
      functions += pass == 0 ? (restores.empty() ? "void " : "bool ") + check + "(" : "void " + fn + "(";
      for (size_t i = 0; i < params.size(); ++i) functions += (i ? ", " : "") + params[i];
      functions += ") {\n";
      // where the fact does not hold the check's verdict is known (replay): its device pass folds away. The check
      // that calls the replay itself calls it from one place (the replay is inlined once there, not twice before
      // the constant folds one copy away: lavapipe's NIR inlines every call before it folds the constant)
      const bool calls = pass == 0 && restores.empty();
      if (calls) functions += "  if (P2G_F32_FAST) {\n";
      else if (pass == 0) functions += "  if (!P2G_F32_FAST) return true;\n";
      for (size_t k = li; k < end; ++k) {
        if (kind[k] != 2) continue;
        const Stmt& s = st[k];
        functions += calls ? "    " : "  ";
        if (declared[k - li]) {
          functions += type(names.id(s.lhs));
          functions += ' ';
        }
        functions.append(s.lhs).append(" = ");
        if (pass == 0) functions += zeroAware(rhs[k - li]);
        else functions.append(s.rhs);
        functions += ";\n";
      }
      if (calls) functions += "    if (!p2g_redoz()) return;\n  }\n  " + fn + "(" + argList + ");\n";
      else if (pass == 0) functions += "  return p2g_redoz();\n";
      functions += "}\n";
    }
    li = end;
  }
  if (!body.empty() && body.back() != '\n' && !out.empty()) out.pop_back();
  lines.clear();
  body = std::move(out);
  return wrapped;
}

}  // namespace p2g
