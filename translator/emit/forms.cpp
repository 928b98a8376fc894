// The form check (forms.h): the table's patterns compiled once, and each instruction matched against the forms
// of its opcode.
#include "forms.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "lexer.h"

namespace p2g {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// PTX types as modifiers: size and family. A modifier that names a type fills a type slot of a pattern.

enum class TK : uint8_t { None, Bit, Int, Float, Half, Pred, Other };
struct TypeInfo {
  TK kind = TK::None;
  unsigned bits = 0;
};

struct NamedType {
  std::string_view name;
  TypeInfo info;
};
const NamedType kTypes[] = {
    {"b8", {TK::Bit, 8}},       {"b16", {TK::Bit, 16}},     {"b32", {TK::Bit, 32}},    {"b64", {TK::Bit, 64}},
    {"b128", {TK::Bit, 128}},   {"u8", {TK::Int, 8}},       {"u16", {TK::Int, 16}},    {"u32", {TK::Int, 32}},
    {"u64", {TK::Int, 64}},     {"s8", {TK::Int, 8}},       {"s16", {TK::Int, 16}},    {"s32", {TK::Int, 32}},
    {"s64", {TK::Int, 64}},     {"f32", {TK::Float, 32}},   {"f64", {TK::Float, 64}},  {"f16", {TK::Half, 16}},
    {"f16x2", {TK::Half, 32}},  {"bf16", {TK::Half, 16}},   {"bf16x2", {TK::Half, 32}}, {"tf32", {TK::Other, 32}},
    {"pred", {TK::Pred, 1}},    {"e4m3", {TK::Other, 8}},   {"e5m2", {TK::Other, 8}},  {"e4m3x2", {TK::Other, 16}},
    {"e5m2x2", {TK::Other, 16}}, {"s16x2", {TK::Int, 32}},  {"u16x2", {TK::Int, 32}},  {"e2m1x2", {TK::Other, 8}},
    {"e2m3x2", {TK::Other, 16}}, {"e3m2x2", {TK::Other, 16}}, {"ue8m0x2", {TK::Other, 16}},
};

// The check asks this for every register operand and modifier: only the few names that share the first letter
// are compared, rather than hashing the name.
TypeInfo typeInfo(std::string_view m) {
  struct ByFirst {
    std::vector<const NamedType*> of[256];
    ByFirst() {
      for (const NamedType& t : kTypes) of[uint8_t(t.name[0])].push_back(&t);
    }
  };
  static const ByFirst byFirst;
  if (m.empty()) return {};
  for (const NamedType* t : byFirst.of[uint8_t(m[0])])
    if (t->name == m) return t->info;
  return {};
}
bool isTypeName(std::string_view m) { return typeInfo(m).kind != TK::None; }

// Bits of a register's declared type; 1 for .pred.
unsigned regBits(const ir::Function& f, int r) { return typeInfo(f.regs[r].ptxType).bits; }
bool isPredReg(const ir::Function& f, int r) { return f.regs[r].vt == ir::VType::Bool; }

std::vector<std::string_view> splitWords(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == sep || s[i] == ' ')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != sep) ++j;
    std::string_view w = s.substr(i, j - i);
    while (!w.empty() && w.back() == ' ') w.remove_suffix(1);
    if (!w.empty()) out.push_back(w);
    i = j + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Compiled patterns

struct Slot {
  std::vector<std::string_view> alts;
  bool optional = false;
  int group = -1;
  bool type = false;
  std::string_view cls;  // the class name when written $cls
};

enum class W : uint8_t { T, T0, T1, T2, TwoT, Fixed, Any };

struct OpSpec {
  char kind = '*';
  W width = W::T;
  unsigned fixed = 0;
  bool wider = false;
  std::vector<std::string_view> cond;  // present exactly when the instruction has one of these modifiers
};

struct Form {
  const FormLine* line = nullptr;
  std::vector<Slot> slots;
  std::vector<OpSpec> ops;
  bool uncheckedOps = false;  // "*": the lifter checks the operands
};

struct OpcodeForms {
  std::vector<Form> forms;
  std::set<std::string_view> mods;  // every modifier some form of the opcode accepts
};

struct Table {
  std::unordered_map<std::string_view, OpcodeForms> byOp;
  std::map<std::string_view, std::vector<std::string_view>> classes;
  std::vector<std::string> problems;
};

bool compileMods(Table& t, const FormLine& line, Form& f) {
  int groupId = 0, inGroup = -1;
  for (std::string_view tok : splitWords(line.mods, ' ')) {
    if (tok == "[") {
      inGroup = groupId++;
      continue;
    }
    if (tok == "]") {
      inGroup = -1;
      continue;
    }
    bool open = false, close = false;
    if (tok.front() == '[') open = true, tok.remove_prefix(1);
    if (!tok.empty() && tok.back() == ']') close = true, tok.remove_suffix(1);
    if (open) inGroup = groupId++;
    Slot s;
    s.group = inGroup;
    if (!tok.empty() && tok.back() == '?') s.optional = true, tok.remove_suffix(1);
    if (s.group >= 0) s.optional = true;
    if (tok.size() > 1 && tok[0] == '$') {
      s.cls = tok.substr(1);
      auto it = t.classes.find(s.cls);
      if (it == t.classes.end()) {
        t.problems.push_back(std::string(line.op) + ": unknown class '" + std::string(tok) + "'");
        return false;
      }
      s.alts = it->second;
    } else if (tok.size() > 3 && tok.substr(0, 2) == ".{" && tok.back() == '}') {
      s.alts = splitWords(tok.substr(2, tok.size() - 3), ',');
    } else if (tok.size() > 1 && tok[0] == '.') {
      s.alts = {tok.substr(1)};
    } else {
      t.problems.push_back(std::string(line.op) + ": malformed modifier slot '" + std::string(tok) + "'");
      return false;
    }
    size_t types = std::count_if(s.alts.begin(), s.alts.end(), isTypeName);
    if (types != 0 && types != s.alts.size()) {
      t.problems.push_back(std::string(line.op) + ": slot mixes types and other modifiers in '" + std::string(line.mods) + "'");
      return false;
    }
    s.type = types != 0;
    f.slots.push_back(std::move(s));
    if (close) inGroup = -1;
  }
  return true;
}

bool compileOps(Table& t, const FormLine& line, Form& f) {
  if (line.operands == "*") {
    f.uncheckedOps = true;
    return true;
  }
  for (std::string_view tok : splitWords(line.operands, ',')) {
    OpSpec o;
    size_t at = tok.find('@');
    if (at != tok.npos) {
      std::string_view c = tok.substr(at + 1);
      auto it = t.classes.find(c);
      o.cond = it != t.classes.end() ? it->second : std::vector<std::string_view>{c};
      tok = tok.substr(0, at);
    }
    if (!tok.empty() && tok.back() == '+') o.wider = true, tok.remove_suffix(1);
    o.kind = tok.empty() ? '?' : tok[0];
    if (!std::strchr("daiqpQReEmxwDVvUP*", o.kind) || o.kind == '\0') {
      t.problems.push_back(std::string(line.op) + ": unknown operand kind in '" + std::string(line.operands) + "'");
      return false;
    }
    if (tok.size() > 1) {
      if (tok[1] != ':') {
        t.problems.push_back(std::string(line.op) + ": malformed operand '" + std::string(tok) + "'");
        return false;
      }
      std::string_view w = tok.substr(2);
      if (w == "T") o.width = W::T;
      else if (w == "T0") o.width = W::T0;
      else if (w == "T1") o.width = W::T1;
      else if (w == "T2") o.width = W::T2;
      else if (w == "2T") o.width = W::TwoT;
      else if (w == "*") o.width = W::Any;
      else if (w == "8" || w == "16" || w == "32" || w == "64") o.width = W::Fixed, o.fixed = unsigned(std::stoul(std::string(w)));
      else {
        t.problems.push_back(std::string(line.op) + ": unknown operand width '" + std::string(w) + "'");
        return false;
      }
    }
    f.ops.push_back(std::move(o));
  }
  return true;
}

const Table& table() {
  static const Table t = [] {
    Table t;
    for (auto& c : formClasses()) t.classes[c.name] = splitWords(c.members, ' ');
    for (auto& line : formLines()) {
      Form f;
      f.line = &line;
      if (!compileMods(t, line, f) || !compileOps(t, line, f)) continue;
      OpcodeForms& of = t.byOp[line.op];
      for (auto& s : f.slots) of.mods.insert(s.alts.begin(), s.alts.end());
      if (!of.forms.empty() && of.forms[0].line->handler != line.handler)
        t.problems.push_back(std::string(line.op) + ": lines of one opcode name different handlers");
      of.forms.push_back(std::move(f));
    }
    return t;
  }();
  return t;
}

// ---------------------------------------------------------------------------------------------------------------
// Modifier matching: a backtracking assignment of modifiers to slots (patterns have a handful of slots).

struct Matcher {
  const Form& f;
  const std::vector<std::string_view>& mods;
  bool requireAll;  // false: only place every modifier (to say which required slot is missing)
  std::vector<int> assign;
  std::vector<char> used;

  Matcher(const Form& form, const std::vector<std::string_view>& m, bool all)
      : f(form), mods(m), requireAll(all), assign(m.size(), -1), used(form.slots.size(), 0) {}

  bool complete() const {
    if (!requireAll) return true;
    for (size_t s = 0; s < f.slots.size(); ++s)
      if (!used[s] && !f.slots[s].optional) return false;
    for (size_t s = 0; s < f.slots.size(); ++s) {
      int g = f.slots[s].group;
      if (g < 0) continue;
      for (size_t u = 0; u < f.slots.size(); ++u)
        if (f.slots[u].group == g && used[u] != used[s]) return false;
    }
    return true;
  }

  bool run(size_t i, int lastType) {
    if (i == mods.size()) return complete();
    bool isT = isTypeName(mods[i]);
    for (size_t s = 0; s < f.slots.size(); ++s) {
      const Slot& sl = f.slots[s];
      if (used[s] || sl.type != isT || (isT && int(s) <= lastType)) continue;
      if (std::find(sl.alts.begin(), sl.alts.end(), mods[i]) == sl.alts.end()) continue;
      used[s] = 1;
      assign[i] = int(s);
      if (run(i + 1, isT ? int(s) : lastType)) return true;
      used[s] = 0;
      assign[i] = -1;
    }
    return false;
  }
};

std::string opText(const ptx::Instr& in) {
  std::string s(in.opcode);
  for (auto m : in.mods) s += "." + std::string(m);
  return s;
}

std::string slotText(const Slot& s) {
  std::string out;
  for (auto a : s.alts) out += (out.empty() ? "." : " .") + std::string(a);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Operands

struct OpCtx {
  const ir::Function& f;
  const ptx::Instr& src;
  const std::vector<TypeInfo>& types;  // the instruction's type modifiers, in order
  unsigned vecN = 1;
  ptx::Space space = ptx::Space::None;
  // "ld.global.u32", for messages: built only when one is written (most instructions pass)
  std::string name() const { return ptx::clip(opText(src), 120); }
};

struct OpError {
  std::string msg;
  ptx::Span at;
};

// The type an operand of `spec` must have: its size (0 = unchecked), and whether its immediates are float-valued.
TypeInfo widthInfo(const OpSpec& spec, const OpCtx& c) {
  if (c.types.empty()) return {};
  switch (spec.width) {
    case W::T:
    case W::TwoT: return c.types.back();
    case W::T0: return c.types[0];
    case W::T1: return c.types.size() > 1 ? c.types[1] : TypeInfo{};
    case W::T2: return c.types.size() > 2 ? c.types[2] : TypeInfo{};
    default: return {};
  }
}
unsigned widthBits(const OpSpec& spec, const OpCtx& c) {
  if (spec.width == W::Fixed) return spec.fixed;
  if (spec.width == W::Any) return 0;
  unsigned b = widthInfo(spec, c).bits;
  return spec.width == W::TwoT ? 2 * b : b;
}

std::string nth(size_t i) { return "operand " + std::to_string(i + 1); }

// The operand as written (`%rd2`, `[%r2+4]`), or the register's declared name when there is no span.
std::string written(const ir::Opnd& o, const ir::Function& f) {
  if (o.span.begin && o.span.length) return std::string(o.span.begin, std::min<uint32_t>(o.span.length, 60));
  return o.reg >= 0 ? std::string(f.regs[o.reg].ptxName) : std::string("?");
}

const char* spaceName(ptx::Space s) {
  switch (s) {
    case ptx::Space::Global: return ".global";
    case ptx::Space::Shared: return ".shared";
    case ptx::Space::Local: return ".local";
    case ptx::Space::Const: return ".const";
    case ptx::Space::Param: return ".param";
    default: return "generic";
  }
}

bool checkReg(const ir::Opnd& o, unsigned bits, bool wider, size_t i, const OpCtx& c, OpError& e) {
  const ir::Reg& R = c.f.regs[o.reg];
  if (isPredReg(c.f, o.reg)) {
    e = {nth(i) + " of '" + c.name() + "' is the predicate '" + written(o, c.f) + "'; a value register is needed",
         o.span};
    return false;
  }
  unsigned rb = regBits(c.f, o.reg);
  if (bits && rb != bits && !(wider && rb > bits)) {
    e = {nth(i) + " of '" + c.name() + "' is the " + std::to_string(rb) + "-bit register '" + written(o, c.f) +
             "' (." + std::string(R.ptxType) + "); this form needs " + (wider ? "at least " : "") +
             std::to_string(bits) + " bits",
         o.span};
    return false;
  }
  return true;
}

bool immFits(int64_t v, unsigned bits) {
  if (bits == 0 || bits >= 64) return true;
  return v >= -(int64_t(1) << (bits - 1)) && v <= int64_t((uint64_t(1) << bits) - 1);
}

bool checkImm(const ir::Opnd& o, unsigned bits, TK tk, size_t i, const OpCtx& c, OpError& e) {
  if (tk == TK::Float) return true;  // converted by value (`add.f32 %f1, %f2, 1`)
  if (!immFits(o.imm, bits)) {
    e = {"immediate " + std::to_string(o.imm) + " does not fit the " + std::to_string(bits) + "-bit " + nth(i) +
             " of '" + c.name() + "'",
         o.span};
    return false;
  }
  return true;
}

bool checkFImm(const ir::Opnd& o, unsigned bits, TK tk, size_t i, const OpCtx& c, OpError& e) {
  if (tk == TK::Float) return true;
  // A float literal as raw bits: 0f for a 32-bit operand, 0d for a 64-bit one; anything else would be truncated
  // or widened without a rule.
  bool ok = (tk == TK::Bit || tk == TK::Int || tk == TK::None) &&
            ((bits == 32 && !o.isDouble) || (bits == 64 && o.isDouble));
  if (!ok) {
    e = {"float literal for the " + (bits ? std::to_string(bits) + "-bit " : std::string()) + nth(i) + " of '" +
             c.name() + "' (only 0fXXXXXXXX for 32-bit and 0dXXXXXXXXXXXXXXXX for 64-bit bit/integer operands)",
         o.span};
    return false;
  }
  return true;
}

bool checkValue(const ir::Opnd& o, const OpSpec& spec, size_t i, const OpCtx& c, OpError& e, bool dest) {
  unsigned bits = widthBits(spec, c);
  TK tk = widthInfo(spec, c).kind;
  if (spec.width == W::Fixed) tk = TK::Int;
  using K = ir::Opnd::Kind;
  switch (o.kind) {
    case K::Reg: return checkReg(o, bits, spec.wider, i, c, e);
    case K::Sink:
      if (dest) return true;
      break;
    case K::Imm:
      if (!dest) return checkImm(o, bits, tk, i, c, e);
      break;
    case K::FImm:
      if (!dest) return checkFImm(o, bits, tk, i, c, e);
      break;
    case K::Special:
      if (!dest) return true;
      break;
    case K::VarAddr:
      if (!dest && !o.bracket) {
        if (bits == 32 || bits == 64 || bits == 0) return true;
        e = {nth(i) + " of '" + c.name() + "': the address of a variable needs a 32- or 64-bit operand", o.span};
        return false;
      }
      break;
    default: break;
  }
  const char* what = o.kind == K::Label ? "a label" : o.kind == K::Vec ? "a vector" :
                     (o.kind == K::RegAddr || o.kind == K::VarAddr) ? "an address [...]" : o.kind == K::Sink ? "'_'" :
                     o.kind == K::Special ? "a special register" : "a constant";
  e = {nth(i) + " of '" + c.name() + "' must be " + (dest ? "a destination register" : "a register or a constant") +
           ", not " + what,
       o.span};
  return false;
}

bool checkPred(const ir::Opnd& o, size_t i, const OpCtx& c, OpError& e, bool dest) {
  using K = ir::Opnd::Kind;
  if (o.kind == K::Reg && isPredReg(c.f, o.reg)) return true;
  if (dest && o.kind == K::Sink) return true;
  // -1 is true as nvcc writes it (`mov.pred %p, -1`; ptx_corpus/outside/warp_one_thread on the H200)
  if (!dest && o.kind == K::Imm && (o.imm == 0 || o.imm == 1 || o.imm == -1)) return true;
  e = {nth(i) + " of '" + c.name() + "' must be a predicate" + (o.kind == K::Reg ? " register, not '" +
           written(o, c.f) + "' (." + std::string(c.f.regs[o.reg].ptxType) + ")" : ""),
       o.span};
  return false;
}

// An address operand: what the handlers can lower (emit_mem.cpp addressOf), with offsets that fit the window.
bool checkAddress(const ir::Opnd& o, size_t i, const OpCtx& c, OpError& e) {
  using K = ir::Opnd::Kind;
  bool window = c.space == ptx::Space::Shared || c.space == ptx::Space::Local || c.space == ptx::Space::Const;
  constexpr int64_t k4G = int64_t(1) << 32;
  if (o.kind == K::RegAddr) {
    if (o.reg >= 0) {
      if (isPredReg(c.f, o.reg)) {
        e = {nth(i) + " of '" + c.name() + "': a predicate cannot be an address", o.span};
        return false;
      }
      unsigned rb = regBits(c.f, o.reg);
      bool wide = c.space == ptx::Space::Global || c.space == ptx::Space::None;
      if (wide ? rb != 64 : (rb != 32 && rb != 64)) {
        e = {nth(i) + " of '" + c.name() + "': the address register in '" + written(o, c.f) + "' has " +
                 std::to_string(rb) + " bits; a " + spaceName(c.space) + " address needs " +
                 (wide ? "64" : "32 or 64"),
             o.span};
        return false;
      }
      if (window && (o.imm <= -k4G || o.imm >= k4G)) {
        e = {"address offset " + std::to_string(o.imm) + " of '" + c.name() + "' does not fit the 32-bit " +
                 spaceName(c.space) + " window",
             o.span};
        return false;
      }
      if (o.imm == INT64_MIN) {
        e = {"address offset " + std::to_string(o.imm) + " of '" + c.name() + "' is out of range", o.span};
        return false;
      }
      return true;
    }
    if (window && (o.imm < 0 || o.imm >= k4G)) {
      e = {"address " + std::to_string(o.imm) + " of '" + c.name() + "' is outside the 32-bit " + spaceName(c.space) +
               " window",
           o.span};
      return false;
    }
    return true;
  }
  if (o.kind == K::VarAddr && o.bracket) {
    const ir::Var& v = c.f.vars[o.var];
    ptx::Space want = c.space == ptx::Space::None ? ptx::Space::Global : c.space;
    bool ok = v.space == want || (want == ptx::Space::Param && v.space == ptx::Space::Local);
    if (!ok) {
      e = {nth(i) + " of '" + c.name() + "': '" + std::string(v.ptxName) + "' is a " + spaceName(v.space) +
               " variable, not " + (c.space == ptx::Space::None ? "a .global one (a generic access needs a .global "
                                                                  "variable or an address register)"
                                                                : std::string("in ") + spaceName(want)),
           o.span};
      return false;
    }
    int64_t total = int64_t(v.offset) + o.imm;
    bool small = v.space != ptx::Space::Global;
    if ((small && (total < 0 || total >= k4G)) || o.imm == INT64_MIN) {
      e = {"address offset " + std::to_string(o.imm) + " of '" + c.name() + "' puts '" + std::string(v.ptxName) +
               "' + offset outside the 32-bit " + spaceName(v.space) + " window",
           o.span};
      return false;
    }
    return true;
  }
  e = {nth(i) + " of '" + c.name() + "' must be an address [...]", o.span};
  return false;
}

bool checkOperand(const OpSpec& spec, const ir::Opnd& o, size_t i, const OpCtx& c, OpError& e) {
  using K = ir::Opnd::Kind;
  auto vec = [&](size_t n, bool dest, unsigned elemBits) -> bool {
    if (o.kind != K::Vec || (n && o.elems.size() != n)) {
      e = {nth(i) + " of '" + c.name() + "' must be a vector of " + (n ? std::to_string(n) : std::string("values")) +
               " {...}",
           o.span};
      return false;
    }
    OpSpec es = spec;
    if (elemBits) es.width = W::Fixed, es.fixed = elemBits;
    for (size_t k = 0; k < o.elems.size(); ++k)
      if (!checkValue(o.elems[k], es, i, c, e, dest)) return false;
    return true;
  };
  switch (spec.kind) {
    case '*': return true;
    case 'd': return checkValue(o, spec, i, c, e, true);
    case 'a': return checkValue(o, spec, i, c, e, false);
    case 'i':
      if (o.kind != K::Imm) {
        e = {nth(i) + " of '" + c.name() + "' must be an integer constant", o.span};
        return false;
      }
      return checkImm(o, widthBits(spec, c), TK::Int, i, c, e);
    case 'q': return checkPred(o, i, c, e, true);
    case 'p': return checkPred(o, i, c, e, false);
    case 'Q':
    case 'R':
      if (o.kind == K::Vec && o.elems.size() == 2)
        return checkPred(o.elems[0], i, c, e, true) && checkPred(o.elems[1], i, c, e, true);
      if (spec.kind == 'Q') return checkPred(o, i, c, e, true);
      e = {nth(i) + " of '" + c.name() + "' must be a predicate pair p|q (one predicate per half)", o.span};
      return false;
    case 'e':
      if (o.kind == K::Vec && o.elems.size() == 2) {
        OpSpec v = spec;
        return checkValue(o.elems[0], v, i, c, e, true) && checkPred(o.elems[1], i, c, e, true);
      }
      return checkValue(o, spec, i, c, e, true);
    case 'E':
      if (o.kind == K::Vec && o.elems.size() == 2) {
        OpSpec v = spec;
        return checkValue(o.elems[0], v, i, c, e, true) && checkPred(o.elems[1], i, c, e, true);
      }
      e = {nth(i) + " of '" + c.name() + "' must be a pair d|p (a value and a predicate destination)", o.span};
      return false;
    case 'm': return checkAddress(o, i, c, e);
    case 'x':
      if (o.kind == K::RegAddr || (o.kind == K::VarAddr && o.bracket)) return true;
      e = {nth(i) + " of '" + c.name() + "' must be [handle, ...]", o.span};
      return false;
    case 'w': return vec(0, false, 0);
    case 'D': return vec(0, true, 0);
    case 'V':
    case 'v': {
      bool dest = spec.kind == 'V';
      if (c.vecN == 1 && o.kind != K::Vec) return checkValue(o, spec, i, c, e, dest);
      return vec(c.vecN, dest, 0);
    }
    case 'U':
    case 'P': {
      unsigned t = widthBits(spec, c);
      size_t n = o.kind == K::Vec ? o.elems.size() : 0;
      unsigned w = n ? t / unsigned(n) : 0;
      if ((n != 2 && n != 4) || (w != 8 && w != 16 && w != 32)) {
        e = {nth(i) + " of '" + c.name() + "' must be a vector of 2 or 4 parts of 8, 16 or 32 bits", o.span};
        return false;
      }
      return vec(n, spec.kind == 'U', w);
    }
  }
  return true;
}

bool hasAnyMod(const ptx::Instr& in, const std::vector<std::string_view>& ms) {
  for (auto m : ms)
    if (in.hasMod(m)) return true;
  return false;
}

// The operand list a form expects for this instruction (conditional operands resolved).
std::vector<const OpSpec*> expectedOps(const Form& f, const ptx::Instr& in) {
  std::vector<const OpSpec*> v;
  for (auto& o : f.ops)
    if (o.cond.empty() || hasAnyMod(in, o.cond)) v.push_back(&o);
  return v;
}

unsigned vecOfMods(const ptx::Instr& in) {
  for (auto m : in.mods) {
    if (m == "v2") return 2;
    if (m == "v4") return 4;
    if (m == "v8") return 8;
  }
  return 1;
}

}  // namespace

ptx::Span modifierSpan(const ptx::Instr& in, size_t i) {
  std::string_view m = in.mods[i];
  return {m.data() - 1, uint32_t(m.size() + 1)};
}

std::vector<std::string> formTableProblems() { return table().problems; }

bool operandCountInSomeForm(const ptx::Instr& src, size_t n) {
  auto it = table().byOp.find(src.opcode);
  if (it == table().byOp.end()) return false;
  for (auto& f : it->second.forms) {
    if (f.uncheckedOps) return true;
    size_t always = 0;
    for (auto& o : f.ops) always += o.cond.empty();
    if (n >= always) return true;
  }
  return false;
}

namespace {

// The verdict on an instruction whose opcode is unknown or whose modifiers match no form of it (checkForm's
// steps 1 and 2).
FormResult refusedByModifiers(const ptx::Instr& src) {
  FormResult r;
  const Table& t = table();
  auto it = t.byOp.find(src.opcode);
  std::string name = ptx::clip(opText(src), 120);  // a 1 MB opcode must not become a 1 MB message
  if (it == t.byOp.end()) {
    r.ok = r.knownOpcode = false;
    r.message = "unsupported instruction '" + name + "'";
    r.at = src.span;
    return r;
  }
  const OpcodeForms& of = it->second;
  // 1. A modifier no form of the opcode takes, at its own column.
  for (size_t i = 0; i < src.mods.size(); ++i)
    if (!of.mods.count(src.mods[i])) {
      r.ok = false;
      r.message = "unsupported modifier '." + ptx::clip(src.mods[i]) + "' of '" + ptx::clip(src.opcode) + "'";
      r.at = modifierSpan(src, i);
      return r;
    }
  // 2. No form's modifier pattern matches the instruction.
  r.ok = false;
  r.at = src.span;
  // Every modifier has a place in some form but a required one is missing: name it.
  const Form* best = nullptr;
  std::vector<size_t> bestMissing;
  for (auto& form : of.forms) {
    Matcher m(form, src.mods, false);
    if (!m.run(0, -1)) continue;
    std::vector<size_t> missing;
    for (size_t s = 0; s < form.slots.size(); ++s)
      if (!m.used[s] && !form.slots[s].optional) missing.push_back(s);
    if (!missing.empty() && (!best || missing.size() < bestMissing.size())) best = &form, bestMissing = missing;
  }
  if (best)
    r.message = "'" + name + "' lacks a modifier: one of " + slotText(best->slots[bestMissing[0]]) +
                " (see 'ptx2glsl ops " + std::string(src.opcode) + "')";
  else
    r.message = "unsupported modifier combination '" + name + "' (see 'ptx2glsl ops " + std::string(src.opcode) +
                "')";
  return r;
}

}  // namespace

namespace {

// What the check learns from an instruction's opcode and modifiers alone: the forms they match, and for each the
// operands it expects. A kernel repeats a few hundred such combinations thousands of times, so a combination that
// matches is remembered (per thread: `ptx2glsl batch` checks in several), and only its operands are checked again.
// Combinations that match no form are not kept; they take the full path, which words the error.
struct ModVerdict {
  std::vector<const Form*> matched;
  std::vector<std::vector<const OpSpec*>> want;  // per matched form: expectedOps
  std::vector<TypeInfo> types;                   // of the type modifiers, in order
  unsigned vecN = 1;
  ptx::Space space = ptx::Space::None;
};

// The forms the modifiers match, or nullptr when they match none (or name an unknown opcode).
const ModVerdict* modVerdict(const ptx::Instr& src) {
  static const size_t kMaxKept = 4096;  // bounds the memory a file of many distinct combinations can take
  thread_local std::unordered_map<std::string, ModVerdict> kept;
  thread_local std::string key;
  key.assign(src.opcode);
  for (auto m : src.mods) key += '.', key += m;
  auto hit = kept.find(key);
  if (hit != kept.end()) return &hit->second;
  const Table& t = table();
  auto it = t.byOp.find(src.opcode);
  if (it == t.byOp.end()) return nullptr;
  ModVerdict v;
  for (auto& form : it->second.forms) {
    Matcher m(form, src.mods, true);
    if (m.run(0, -1)) v.matched.push_back(&form), v.want.push_back(expectedOps(form, src));
  }
  if (v.matched.empty()) return nullptr;
  for (auto m : src.mods)
    if (isTypeName(m)) v.types.push_back(typeInfo(m));
  v.vecN = vecOfMods(src);
  v.space = spaceOfMods(src.mods);
  if (kept.size() >= kMaxKept) kept.clear();
  return &kept.emplace(key, std::move(v)).first->second;
}

}  // namespace

FormResult checkForm(const ptx::Instr& src, const ir::Inst* x, const ir::Function& f) {
  FormResult r;
  const ModVerdict* v = modVerdict(src);
  if (!v) return refusedByModifiers(src);
  // 3. Operands: some matched form must take them.
  OpCtx c{f, src, v->types, v->vecN, v->space};
  OpError firstKind;
  bool haveKind = false;
  int bestScore = -1;  // among forms with the right count: the one that got furthest, preferring the one whose
                       // kind has the failing operand's shape (a vector where a vector is expected)
  size_t have = x ? x->ops.size() : src.ops.size();
  for (size_t fi = 0; fi < v->matched.size(); ++fi) {
    if (v->matched[fi]->uncheckedOps) return r;
    const std::vector<const OpSpec*>& want = v->want[fi];
    if (have != want.size()) continue;
    if (!x) return r;
    OpError e;
    bool ok = true;
    size_t i = 0;
    for (; i < want.size(); ++i)
      if (!(ok = checkOperand(*want[i], x->ops[i], i, c, e))) break;
    if (ok) return r;
    bool vecKind = std::strchr("VvUPwDQReE", want[i]->kind) != nullptr;
    int score = int(2 * i) + (vecKind == (x->ops[i].kind == ir::Opnd::Kind::Vec));
    if (score > bestScore) firstKind = e, haveKind = true, bestScore = score;
  }
  r.ok = false;
  if (haveKind) {
    r.message = firstKind.msg;
    r.at = firstKind.at.begin ? firstKind.at : src.span;
    return r;
  }
  std::set<size_t> counts;
  for (auto& want : v->want) counts.insert(want.size());
  std::string name = c.name();
  std::string takes;
  for (size_t n : counts) takes += (takes.empty() ? "" : " or ") + std::to_string(n);
  r.message = "unsupported operand form of '" + name + "': " + std::to_string(have) + " operand" +
              (have == 1 ? "" : "s") + ", the implemented form" + (counts.size() > 1 ? "s take " : " takes ") + takes;
  r.at = src.span;
  if (have > 0 && x && have > *counts.rbegin()) r.at = x->ops[*counts.rbegin()].span;
  return r;
}

std::string describeForms(std::string_view opcode) {
  const Table& t = table();
  std::string out;
  for (auto& line : formLines()) {
    if (!opcode.empty() && line.op != opcode) continue;
    std::string mods;
    for (std::string_view tok : splitWords(line.mods, ' ')) {
      std::string_view core = tok;
      std::string pre, post;
      if (!core.empty() && core.front() == '[') pre = "[", core.remove_prefix(1);
      if (!core.empty() && core.back() == ']') post = "]", core.remove_suffix(1);
      if (!core.empty() && core.back() == '?') post = "?" + post, core.remove_suffix(1);
      std::string body(core);
      if (core.size() > 1 && core[0] == '$') {
        auto it = t.classes.find(core.substr(1));
        if (it != t.classes.end()) {
          body = it->second.size() == 1 ? "." : ".{";
          for (size_t i = 0; i < it->second.size(); ++i) body += (i ? "," : "") + std::string(it->second[i]);
          if (it->second.size() != 1) body += "}";
        }
      }
      mods += (mods.empty() ? "" : " ") + pre + body + post;
    }
    std::string l = std::string(line.op);
    l.resize(std::max<size_t>(l.size() + 1, 11), ' ');
    l += mods;
    l.resize(std::max<size_t>(l.size() + 2, 70), ' ');
    l += line.operands.empty() ? "(no operands)" : std::string(line.operands);
    if (!line.handler) l += "    [lowered by the lifter]";
    if (!line.note.empty()) l += "\n           accepted without effect: " + std::string(line.note);
    out += l + "\n";
  }
  return out;
}

ptx::Space spaceOfMods(const std::vector<std::string_view>& mods) {
  for (auto m : mods) {
    if (m == "global") return ptx::Space::Global;
    if (m == "shared" || m == "shared::cta") return ptx::Space::Shared;
    if (m == "local") return ptx::Space::Local;
    if (m == "const") return ptx::Space::Const;
    if (m == "param") return ptx::Space::Param;
  }
  return ptx::Space::None;
}

}  // namespace p2g
