// Guarded regions (region_guard.h): which runs of statements are wrapped, and how.
//
// A run qualifies when every line in it is a comment or a statement `[type] name = expression;` whose expression
// calls only functions without side effects (no store, atomic, barrier, subgroup or warp exchange: those are
// statements of their own or named below), at one indentation, with at least one guarded call: p2g_fadd, p2g_fsub,
// p2g_fmul or p2g_ffma in round to nearest without .ftz. Replaying such a run from the same starting values gives
// the same values (loads read memory that nothing in the run writes), which is what the second pass relies on.
#include "region_guard.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace p2g {
namespace {

bool identStart(char c) { return isalpha((unsigned char)c) || c == '_'; }
bool identChar(char c) { return isalnum((unsigned char)c) || c == '_'; }

bool isIdent(const std::string& s) {
  if (s.empty() || !identStart(s[0])) return false;
  for (char c : s)
    if (!identChar(c)) return false;
  return true;
}

// Functions a replayed statement may call: GLSL built-ins without side effects or out parameters, constructors,
// and the buffer-reference loads (P2GU32(address).v).
bool pureBuiltin(const std::string& f) {
  static const std::set<std::string> k = {
      "float", "uint", "int", "bool", "double", "uint64_t", "int64_t", "uint16_t", "int16_t", "uint8_t", "int8_t",
      "vec2", "vec3", "vec4", "uvec2", "uvec3", "uvec4", "ivec2", "ivec3", "ivec4", "u64vec2", "i64vec2", "dvec2",
      "uintBitsToFloat", "floatBitsToUint", "intBitsToFloat", "floatBitsToInt", "packUint2x32", "unpackUint2x32",
      "packHalf2x16", "unpackHalf2x16", "packDouble2x32", "unpackDouble2x32", "abs", "min", "max", "clamp", "mix",
      "findMSB", "findLSB", "bitCount", "bitfieldReverse", "bitfieldExtract", "bitfieldInsert", "isnan", "isinf",
      "sqrt", "inversesqrt", "exp2", "log2", "sin", "cos", "floor", "ceil", "trunc", "round", "roundEven", "fract",
      "fma", "sign"};
  if (k.count(f)) return true;
  return f.size() > 3 && f.compare(0, 3, "P2G") == 0;  // P2GU32(...) and its kin: typed views of an address
}

// p2g_ helpers with side effects (stores, exchanges, barriers, the loop counter) or that read shared state a
// statement of the run may not replay; every other p2g_ helper is a pure function of its arguments and memory.
bool pureHelper(const std::string& f) {
  static const char* const bad[] = {"bar", "loop", "shfl", "warp", "mma", "atom", "vote", "ballot", "elect",
                                    "match", "fence", "sync", "redo", "exact_", "p2g_in"};
  if (f.compare(0, 4, "p2g_") != 0) return false;
  if (f.compare(0, 6, "p2g_st") == 0 || f.compare(0, 8, "p2g_sust") == 0 || f.compare(0, 11, "p2g_surf_st") == 0)
    return false;
  for (auto* b : bad)
    if (f.find(b) != std::string::npos) return false;
  return true;
}

struct Stmt {
  std::string indent, type, lhs, rhs, comment;  // `<indent>[type ]lhs = rhs;[ comment]`
};

// A line as a replayable statement; false for anything else (comments are handled by the caller).
bool parseStmt(const std::string& l, Stmt& s) {
  size_t b = l.find_first_not_of(' ');
  if (b == std::string::npos) return false;
  s.indent = l.substr(0, b);
  std::string code = l.substr(b);
  s.comment.clear();
  size_t c = code.find("//");
  if (c != std::string::npos) {
    s.comment = code.substr(c);
    code = code.substr(0, c);
  }
  while (!code.empty() && code.back() == ' ') code.pop_back();
  if (code.empty() || code.back() != ';') return false;
  code.pop_back();
  size_t eq = code.find(" = ");
  if (eq == std::string::npos) return false;
  std::string left = code.substr(0, eq);
  s.rhs = code.substr(eq + 3);
  if (s.rhs.find(" = ") != std::string::npos || s.rhs.find_first_of(";{}") != std::string::npos) return false;
  // left: `name`, `type name` or `precise type name`
  std::vector<std::string> words;
  for (size_t i = 0; i < left.size();) {
    size_t j = left.find(' ', i);
    if (j == std::string::npos) j = left.size();
    words.push_back(left.substr(i, j - i));
    i = j + 1;
  }
  if (words.empty() || words.size() > 3) return false;
  for (auto& w : words)
    if (!isIdent(w)) return false;
  if (words.size() == 3 && words[0] != "precise") return false;
  s.lhs = words.back();
  s.type.clear();
  for (size_t i = 0; i + 1 < words.size(); ++i) s.type += (i ? " " : "") + words[i];
  // every call must be pure
  for (size_t i = 0; i < s.rhs.size();) {
    if (!identStart(s.rhs[i]) || (i > 0 && (identChar(s.rhs[i - 1]) || s.rhs[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.rhs.size() && identChar(s.rhs[j])) ++j;
    if (j < s.rhs.size() && s.rhs[j] == '(') {
      std::string f = s.rhs.substr(i, j - i);
      if (!pureBuiltin(f) && !pureHelper(f)) return false;
    }
    i = j;
  }
  return true;
}

// The variables an expression reads: identifiers not followed by '(' and not after '.' (a member), in order.
std::vector<std::string> readsOf(const std::string& e) {
  std::vector<std::string> r;
  for (size_t i = 0; i < e.size();) {
    if (isdigit((unsigned char)e[i])) {  // a number with its suffix or exponent
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
      std::string n = e.substr(i, j - i);
      if (n != "true" && n != "false" && n.compare(0, 3, "gl_") != 0) r.push_back(n);
    }
    i = j;
  }
  return r;
}

// The arguments of the call whose '(' is at `open`; `close` gets the position of its ')'. Empty on a mismatch.
std::vector<std::string> callArgs(const std::string& e, size_t open, size_t& close) {
  std::vector<std::string> args;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < e.size(); ++i) {
    char c = e[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') {
      if (--depth == 0) {
        args.push_back(e.substr(start, i - start));
        close = i;
        return args;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(e.substr(start, i - start));
      start = i + 2 <= e.size() && e[i + 1] == ' ' ? i + 2 : i + 1;
    }
  }
  return {};
}

const char* const kGuarded[] = {"p2g_fadd", "p2g_fsub", "p2g_fmul", "p2g_ffma"};

// `e` is exactly one call of `f` (the whole expression); its arguments in `args`.
bool wholeCall(const std::string& e, const std::string& f, std::vector<std::string>& args) {
  if (e.size() < f.size() + 2 || e.compare(0, f.size(), f) != 0 || e[f.size()] != '(') return false;
  size_t close = 0;
  args = callArgs(e, f.size(), close);
  return !args.empty() && close == e.size() - 1;
}

bool guardedForm(const std::string& f, const std::vector<std::string>& a) {
  if (f == "p2g_ffma") return a.size() == 5 && a[3] == "0" && a[4] == "false";
  return a.size() == 3 && a[2] == "false";
}

// f32 bits that are neither subnormal nor NaN: what a region may take in untested.
bool plainBits(uint32_t u) {
  uint32_t e = u & 0x7F800000u;
  return (u << 1) == 0 || (e != 0 && (e != 0x7F800000u || (u & 0x7FFFFFu) == 0));
}

bool safeLiteral(const std::string& e) {
  std::vector<std::string> a;
  if (wholeCall(e, "uintBitsToFloat", a) && a.size() == 1 && a[0].size() > 3 && a[0].compare(0, 2, "0x") == 0 &&
      a[0].back() == 'u')
    return plainBits(uint32_t(strtoul(a[0].c_str() + 2, nullptr, 16)));
  if (e.empty() || !(isdigit((unsigned char)e[0]) || e[0] == '-' || e[0] == '.')) return false;
  char* end = nullptr;
  double v = strtod(e.c_str(), &end);
  if (!end || *end) return false;
  float f = float(v);
  if (double(f) != v) return false;
  uint32_t u;
  memcpy(&u, &f, 4);
  return plainBits(u);
}

class Region {
 public:
  // variables set in the region to a value known plain; variables written so far; variables from outside the
  // region already tested at a use (the first use of each is wrapped in p2g_in)
  std::set<std::string> safeVars, writtenSoFar, tested;
  int guarded = 0;

  // `e` with every operand of a guarded call that might be subnormal or NaN wrapped in p2g_in().
  std::string rewrite(const std::string& e) {
    std::string out;
    for (size_t i = 0; i < e.size();) {
      bool hit = false;
      for (auto* g : kGuarded) {
        size_t n = strlen(g);
        if (e.compare(i, n, g) != 0 || (i > 0 && identChar(e[i - 1])) || i + n >= e.size() || e[i + n] != '(')
          continue;
        size_t close = 0;
        std::vector<std::string> args = callArgs(e, i + n, close);
        if (args.empty() || !guardedForm(g, args)) break;
        ++guarded;
        out += g;
        out += '(';
        size_t operands = std::string(g) == "p2g_ffma" ? 3 : 2;
        for (size_t k = 0; k < operands; ++k) {  // the short form: rn, no .ftz, the region's device pass
          std::string a = k < operands ? rewrite(args[k]) : args[k];
          if (k < operands && !safe(args[k])) {
            a = "p2g_in(" + a + ")";
            if (isIdent(args[k]) && !writtenSoFar.count(args[k])) tested.insert(args[k]);  // its value on entry
          }
          out += (k ? ", " : "") + a;
        }
        out += ')';
        i = close + 1;
        hit = true;
        break;
      }
      if (!hit) out += e[i++];
    }
    return out;
  }

  // True when `e` is known to be neither subnormal nor NaN on entry to its use, or is tested already: a result
  // of a guarded call (the region's test covers it), a literal, min/max or negation of such, a variable that a
  // statement of the region set to such, or a variable from outside the region tested at an earlier use.
  // With `entering` false (a whole right-hand side: may the variable it sets count as safe?) a variable from
  // outside the region is not safe, since nothing tests it unless it is also an operand.
  bool safe(const std::string& e, bool entering = true) {
    std::vector<std::string> a;
    for (auto* g : kGuarded)
      if (wholeCall(e, g, a)) return guardedForm(g, a);
    if (safeLiteral(e)) return true;
    if ((wholeCall(e, "p2g_fmin", a) || wholeCall(e, "p2g_fmax", a)) && a.size() == 2) return safe(a[0], entering) && safe(a[1], entering);
    static const std::string negA = "p2g_canon(uintBitsToFloat(floatBitsToUint(", negB = ") ^ 0x80000000u))";
    if (e.size() > negA.size() + negB.size() && e.compare(0, negA.size(), negA) == 0 &&
        e.compare(e.size() - negB.size(), negB.size(), negB) == 0)
      return safe(e.substr(negA.size(), e.size() - negA.size() - negB.size()), entering);
    if (isIdent(e)) {
      if (safeVars.count(e)) return true;
      if (entering && !writtenSoFar.count(e)) return tested.count(e) > 0;
    }
    return false;
  }
};

}  // namespace

int guardRegions(std::string& body, std::string& functions,
                 const std::function<std::string(const std::string&)>& typeOf) {
  if (body.find("p2g_f") == std::string::npos) return 0;
  std::vector<std::string> lines;
  for (size_t i = 0; i < body.size();) {
    size_t e = body.find('\n', i);
    if (e == std::string::npos) e = body.size();
    lines.push_back(body.substr(i, e - i));
    i = e + 1;
  }
  std::vector<Stmt> st(lines.size());
  std::vector<uint8_t> kind(lines.size(), 0);  // 0 other, 1 comment, 2 statement
  std::unordered_map<std::string, std::string> declared;  // types of the locals main() declares in statements
  for (size_t li = 0; li < lines.size(); ++li) {
    size_t b = lines[li].find_first_not_of(' ');
    if (b != std::string::npos && lines[li].compare(b, 2, "//") == 0) kind[li] = 1;
    else if (parseStmt(lines[li], st[li])) kind[li] = 2;
    if (kind[li] == 2 && !st[li].type.empty()) declared.emplace(st[li].lhs, st[li].type);
  }
  // the first and last line that names each identifier: a variable named only inside a region is the replay's own
  std::unordered_map<std::string, std::pair<size_t, size_t>> mentions;
  for (size_t li = 0; li < lines.size(); ++li) {
    size_t c = lines[li].find("//");
    for (auto& n : readsOf(c == std::string::npos ? lines[li] : lines[li].substr(0, c))) {
      auto it = mentions.find(n);
      if (it == mentions.end()) mentions.emplace(n, std::make_pair(li, li));
      else it->second.second = li;
    }
  }
  auto type = [&](const std::string& n) {
    std::string t = typeOf(n);
    if (t.empty()) {
      auto it = declared.find(n);
      if (it != declared.end()) t = it->second;
    }
    return t;
  };
  std::string out;
  out.reserve(body.size() + body.size() / 4);
  int wrapped = 0;
  for (size_t li = 0; li < lines.size();) {
    if (kind[li] != 2) {
      out += lines[li] + "\n";
      ++li;
      continue;
    }
    // the run of statements and comments at this statement's indentation
    size_t end = li, lastStmt = li;
    while (end < lines.size() && kind[end] != 0 && (kind[end] == 1 || st[end].indent == st[li].indent)) {
      if (kind[end] == 2) lastStmt = end;
      ++end;
    }
    end = lastStmt + 1;  // trailing comments belong to what follows
    // the region runs from the first statement with a guarded call to the last: statements before or after it
    // run once, outside (a shorter run is as valid as a longer one)
    auto hasGuarded = [&](size_t k) {
      if (kind[k] != 2) return false;
      Region probe;
      probe.rewrite(st[k].rhs);
      return probe.guarded > 0;
    };
    size_t first = li;
    while (first < end && !hasGuarded(first)) ++first;
    if (first == end) {
      for (size_t k = li; k < end; ++k) out += lines[k] + "\n";
      li = end;
      continue;
    }
    while (!hasGuarded(end - 1)) --end;
    while (first > li && kind[first - 1] == 1) --first;  // the annotations of the first statement stay with it
    for (size_t k = li; k < first; ++k) out += lines[k] + "\n";
    li = first;
    while (kind[li] != 2) out += lines[li++] + "\n";
    Region R;
    std::vector<std::string> rhs(end - li);
    std::vector<std::string> order;  // every variable the run names, first mention first
    std::set<std::string> named, readBefore;
    for (size_t k = li; k < end; ++k) {
      if (kind[k] != 2) continue;
      Stmt& s = st[k];
      for (auto& n : readsOf(s.rhs)) {
        if (!R.writtenSoFar.count(n)) readBefore.insert(n);
        if (named.insert(n).second) order.push_back(n);
      }
      if (named.insert(s.lhs).second) order.push_back(s.lhs);
      rhs[k - li] = R.rewrite(s.rhs);
      if (R.safe(s.rhs, false)) R.safeVars.insert(s.lhs);
      else R.safeVars.erase(s.lhs);
      R.writtenSoFar.insert(s.lhs);
    }
    // the exact replay's parameters: values from outside (in), results (out), both (inout: restored first)
    std::vector<std::string> params, args, restores, own;
    std::map<std::string, std::vector<std::string>> saves;  // type -> names whose starting value is saved
    bool ok = R.guarded > 0;
    for (auto& n : order) {
      if (!ok) break;
      bool in = readBefore.count(n) > 0, outp = R.writtenSoFar.count(n) > 0;
      std::string t = type(n);
      if (t == "-") continue;  // a global: the replay reads it as main() does
      if (t.empty()) {
        ok = false;  // a name the run reads whose type is unknown here (not a local of main: nothing to pass)
        break;
      }
      auto m = mentions.find(n);
      if (outp && !in && m != mentions.end() && m->second.first >= li && m->second.second < end) {
        own.push_back(n);  // set and read only inside the region: a local of the replay
        continue;
      }
      if (in && outp) saves[t].push_back(n), restores.push_back(n);
      std::string q = in && outp ? "inout " : outp ? "out " : "";
      if (!outp && t.compare(0, 8, "precise ") == 0) t = t.substr(8);  // precise qualifies results only
      params.push_back(q + t + " " + n);
      args.push_back(n);
    }
    if (!ok) {
      for (size_t k = li; k < end; ++k) out += lines[k] + "\n";
      li = end;
      continue;
    }
    ++wrapped;
    std::string fn = "p2g_exact_" + std::to_string(wrapped);
    const std::string& ind = st[li].indent;
    for (auto& [t, names] : saves) {
      std::string d = ind + t + " ";
      for (size_t i = 0; i < names.size(); ++i) d += (i ? ", " : "") + std::string("p2g_was_") + names[i] + " = " + names[i];
      out += d + ";\n";
    }
    for (size_t k = li; k < end; ++k) {
      if (kind[k] == 1) {
        out += lines[k] + "\n";
        continue;
      }
      const Stmt& s = st[k];
      out += ind + (s.type.empty() ? "" : s.type + " ") + s.lhs + " = " + rhs[k - li] + ";" +
             (s.comment.empty() ? "" : "  " + s.comment) + "\n";
    }
    std::string call = ind + "if (p2g_redo()) ";
    if (!restores.empty()) {
      call += "{";
      for (auto& n : restores) call += " " + n + " = p2g_was_" + n + ";";
      call += " ";
    }
    call += fn + "(";
    for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
    call += restores.empty() ? ");" : "); }";
    out += call + "\n";
    // the replay: the run's statements as they were, every call exact
    functions += "void " + fn + "(";
    for (size_t i = 0; i < params.size(); ++i) functions += (i ? ", " : "") + params[i];
    functions += ") {\n";
    std::set<std::string> local(own.begin(), own.end());
    for (size_t k = li; k < end; ++k) {
      if (kind[k] != 2) continue;
      const Stmt& s = st[k];
      std::string decl = local.erase(s.lhs) ? type(s.lhs) + " " : "";  // declared at its first assignment
      functions += "  " + decl + s.lhs + " = " + s.rhs + ";\n";
    }
    functions += "}\n";
    li = end;
  }
  if (!body.empty() && body.back() != '\n' && !out.empty()) out.pop_back();
  body = std::move(out);
  return wrapped;
}

}  // namespace p2g
