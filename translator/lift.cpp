// Lifting PTX AST -> IR. See ir.h for what the IR means; this file decides how PTX maps onto it:
//  - register declarations (with %r<N> ranges and nested-scope shadowing) become typed registers with unique,
//    GLSL-safe names;
//  - labels, bra, @p bra, ret/exit, brx.idx become blocks and terminators (fallthrough becomes an explicit Br);
//  - calls to .func bodies are inlined: PTX passes arguments through .param variables that the caller declares,
//    so the callee's parameter names are bound to the caller's variables, and its `ret` jumps to a continuation
//    block. This keeps the emitted GLSL one function per kernel and needs no call ABI on the Vulkan side.
#include "lift.h"

#include "layout.h"
#include "lexer.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace p2g {
namespace {

using ir::Opnd;
using ir::VType;

uint32_t typeBytes(std::string_view t) {
  if (t == "b8" || t == "u8" || t == "s8" || t == "pred" || t == "e4m3" || t == "e5m2") return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16" || t == "e4m3x2" || t == "e5m2x2") return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2" || t == "tf32") return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64" || t == "texref" || t == "surfref" || t == "samplerref")
    return 8;
  if (t == "b128") return 16;
  return 0;
}

VType regVType(std::string_view t) {
  if (t == "pred") return VType::Bool;
  if (t == "s32") return VType::S32;
  if (t == "f32") return VType::F32;
  if (t == "f64") return VType::F64;
  if (t == "s64") return VType::S64;
  if (t == "b64" || t == "u64") return VType::U64;
  return VType::U32;
}

const std::unordered_set<std::string>& glslReserved() {
  static const std::unordered_set<std::string> k = {
      "main", "float", "int", "uint", "bool", "double", "void", "if", "else", "for", "while", "do", "break",
      "continue", "return", "switch", "case", "default", "in", "out", "inout", "const", "uniform", "buffer",
      "shared", "struct", "true", "false", "discard", "precise", "layout", "input", "output", "vec2", "vec3",
      "vec4", "uvec2", "uvec4", "ivec2", "mat2", "mat3", "mat4", "sampler", "texture", "image", "filter",
      "common", "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "goto",
      "inline", "noinline", "volatile", "public", "static", "extern", "external", "interface", "long", "short",
      "half", "fixed", "unsigned", "superp", "lowp", "mediump", "highp", "precision", "invariant", "coherent",
      "restrict", "readonly", "writeonly", "resource", "sizeof", "cast", "namespace", "using", "row_major",
      "packed", "smooth", "flat", "noperspective", "patch", "sample", "subroutine", "attribute", "varying",
      "centroid", "atomic_uint", "pc", "smem", "lmem", "params", "p"};
  return k;
}

// Whether some reserved word starts and ends with n's first and last characters: a register name (`r12`, `fd3`)
// seldom does, and then is not looked up.
bool mayBeReserved(const std::string& n) {
  struct Ends {
    std::vector<bool> pair = std::vector<bool>(256 * 256, false);
    Ends() {
      for (auto& w : glslReserved()) pair[uint8_t(w.front()) * 256u + uint8_t(w.back())] = true;
    }
  };
  static const Ends kEnds;
  return !n.empty() && kEnds.pair[uint8_t(n.front()) * 256u + uint8_t(n.back())];
}

// String-keyed maps that can be probed with a string_view (no allocation per operand lookup).
struct SvHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
struct SvEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

// Registers visible in one `{ }` scope. `%r<100>` is kept as one range entry (base "%r", first id, count) rather
// than 100 names: kernels declare thousands of registers this way.
// The GLSL names given so far and, for each, the next numeric suffix to try: open addressing in one array (a hash
// map's node per register name cost more than the rest of declaring the register).
class NameCounts {
 public:
  // Name n's counter, and whether n is new (then added, its counter 1). The pointer lasts until the next add.
  std::pair<int*, bool> add(const std::string& n) {
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    uint64_t h = hash(n);
    size_t i = find(n, h);
    if (slots_[i].name >= 0) return {&slots_[i].count, false};
    slots_[i] = {h, int32_t(names_.size()), 1};
    names_.push_back(n);
    return {&slots_[i].count, true};
  }
  bool contains(const std::string& n) const { return !slots_.empty() && slots_[find(n, hash(n))].name >= 0; }
  // Room for n more names without growing on the way (a register range adds thousands at once).
  void reserve(size_t n) {
    size_t want = std::max<size_t>(64, slots_.size());
    while (2 * (names_.size() + n + 1) > want) want *= 2;
    if (want > slots_.size()) rehash(want);
  }

 private:
  // A slot holds a name's index in names_ (-1: free) with its hash, so growing moves no string and hashes none.
  struct Slot {
    uint64_t hash = 0;
    int32_t name = -1;
    int count = 0;
  };
  std::vector<Slot> slots_;
  std::vector<std::string> names_;

  static uint64_t hash(std::string_view n) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : n) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
  }
  // n's slot, or the free slot where it would go
  size_t find(std::string_view n, uint64_t h) const {
    size_t mask = slots_.size() - 1;
    size_t i = size_t(h) & mask;
    while (slots_[i].name >= 0 && !(slots_[i].hash == h && names_[size_t(slots_[i].name)] == n)) i = (i + 1) & mask;
    return i;
  }
  void grow() { rehash(std::max<size_t>(64, 2 * slots_.size())); }
  void rehash(size_t size) {
    std::vector<Slot> old(size);
    old.swap(slots_);
    size_t mask = size - 1;
    for (const Slot& e : old) {
      if (e.name < 0) continue;
      size_t i = size_t(e.hash) & mask;
      while (slots_[i].name >= 0) i = (i + 1) & mask;  // names are distinct: the first free slot
      slots_[i] = e;
    }
  }
};

struct RegScope {
  std::unordered_map<std::string, int, SvHash, SvEq> names;
  std::unordered_map<std::string, std::pair<int, uint32_t>, SvHash, SvEq> ranges;
  // vector registers (`.reg .v4 .f32 %v;`): the element registers in order; each element is also in `names`
  // under its member names (%v.x / %v.r, ...)
  std::unordered_map<std::string, std::vector<int>, SvHash, SvEq> vectors;
};

struct Frame {
  std::unordered_map<std::string_view, int> labels;
  std::unordered_map<std::string_view, std::vector<std::string_view>> tables;  // .branchtargets
  int retBlock = -1;  // inlined callee: where `ret` goes
};

class Lifter {
 public:
  Lifter(const ptx::Module& m, ptx::DiagEngine& d, ir::Function& f, const LiftOptions& o)
      : mod_(m), diags_(d), F_(f), opt_(o) {}

  bool run(const ptx::Function& fn);

 private:
  const ptx::Module& mod_;
  ptx::DiagEngine& diags_;
  ir::Function& F_;
  const LiftOptions& opt_;
  std::unordered_map<const ptx::Instr*, bool> checked_;  // form verdict per instruction of an inlined body
                                                          // (lifted once per call; its errors reported once)
  size_t lifted_ = 0;
  bool tooBig_ = false, tooManyRegs_ = false;
  std::vector<RegScope> regScopes_;
  std::vector<std::unordered_map<std::string_view, int>> varScopes_;
  NameCounts usedNames_;
  std::vector<bool> open_;
  std::vector<std::string_view> callStack_;
  // Name lookup stops at these scope indices: an inlined callee sees its own scopes and the module, never the
  // registers or variables of the function that calls it (PTX names are scoped by function, not by text).
  size_t regBase_ = 0, varBase_ = 0;
  int cur_ = -1;
  int synth_ = 0;
  uint64_t sharedTop_ = 0, localTop_ = 0, constTop_ = 0, globalTop_ = 0;
  int dynVar_ = -1;
  bool ok_ = true;

  void error(ptx::Span s, std::string msg) {
    diags_.error(s, std::move(msg));
    ok_ = false;
  }
  std::string uniqueName(std::string_view ptxName);
  std::string claimName(std::string sanitized);  // uniqueName's rules after the characters (appendSanitized)
  int newBlock(std::string label);
  void closeWith(ir::Term t);
  void declareReg(const ptx::VarDecl& d);
  int declareVar(const ptx::VarDecl& d, ptx::Space asSpace);
  void addressInits(const ptx::VarDecl& d, ir::Var& v);
  int findReg(std::string_view name);
  const std::vector<int>* findVector(std::string_view name);
  bool videoSel_ = false;  // the instruction being lifted takes operand selectors (.b0-.b3, .h0, .h1)
  bool hasVectors_ = false;  // the function declares vector registers
  int findVar(std::string_view name);
  int moduleVar(std::string_view name);
  bool resolve(const ptx::Operand& o, Opnd& out, Frame& fr);
  void prescan(const ptx::Block& b, Frame& fr);
  void liftBlock(const ptx::Block& b, Frame& fr);
  void liftInstr(const ptx::Instr& in, Frame& fr);
  void liftBranch(const ptx::Instr& in, Frame& fr);
  void liftCall(const ptx::Instr& in, Frame& fr);
  int guardReg(const ptx::Instr& in);
  uint32_t lineOf(ptx::Span s);
  bool formOk(const ptx::Instr& in, const ir::Inst* x);
  bool budget(const ptx::Instr& in);
};

uint32_t Lifter::lineOf(ptx::Span s) { return 0; }

// Appends the GLSL characters of a PTX name to `n`: letters, digits and '_', any other character as '_', with no
// "__" (GLSL reserves it) and no leading '_'. Appending the characters of a name in pieces gives what appending
// them at once does, so a register range sanitizes its base name once (declareReg).
static void appendSanitized(std::string& n, std::string_view ptxName) {
  for (char c : ptxName) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    char ch = ok ? c : '_';
    if (ch == '_' && (n.empty() || n.back() == '_')) continue;
    n += ch;
  }
}

std::string Lifter::uniqueName(std::string_view ptxName) {
  std::string n;
  appendSanitized(n, ptxName);
  return claimName(std::move(n));
}

std::string Lifter::claimName(std::string n) {
  while (!n.empty() && n.back() == '_') n.pop_back();
  if (n.empty() || (n[0] >= '0' && n[0] <= '9')) n = "v" + n;
  if (n.size() > 3 && (n.compare(0, 3, "gl_") == 0 || n.compare(0, 3, "p2g") == 0)) n = "v_" + n;
  if (mayBeReserved(n) && glslReserved().count(n)) n = "v_" + n;
  auto [count, fresh] = usedNames_.add(n);
  if (fresh) return n;
  for (;;) {
    std::string c = n + "_" + std::to_string((*count)++);
    if (!usedNames_.contains(c)) {
      usedNames_.add(c);
      return c;
    }
  }
}

int Lifter::newBlock(std::string label) {
  ir::Block b;
  b.label = std::move(label);
  F_.blocks.push_back(std::move(b));
  open_.push_back(true);
  return int(F_.blocks.size()) - 1;
}

void Lifter::closeWith(ir::Term t) {
  if (cur_ < 0 || !open_[cur_]) return;
  F_.blocks[cur_].term = std::move(t);
  open_[cur_] = false;
}

void Lifter::declareReg(const ptx::VarDecl& d) {
  // A vector register is its elements, each a scalar register of the element type: `%v.y` names element 1, `%v`
  // alone the braced list of all of them (PTX ISA 5.4.2 "Vectors": .v2 and .v4 of a non-predicate type, at most
  // 128 bits; members .x .y .z .w, or .r .g .b .a).
  if (d.vecWidth) {
    uint32_t eb = 8 * typeBytes(d.type);
    if ((d.vecWidth != 2 && d.vecWidth != 4) || d.type == "pred" || eb * d.vecWidth > 128) {
      error(d.span, "vector registers are .v2 or .v4 of a non-predicate type of at most 128 bits in all, not .v" +
                        std::to_string(d.vecWidth) + " ." + std::string(d.type));
      return;
    }
  }
  // The register types the IR has storage for (ir.h VType); .b128, .texref, fp8 types... are not.
  static const std::unordered_set<std::string_view> kRegTypes = {
      "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
      "f16", "f16x2", "bf16", "bf16x2", "f32", "f64"};
  if (!kRegTypes.count(d.type))
    error(d.span, "registers of type ." + std::string(d.type) + " are not supported");
  const ir::VType vt = regVType(d.type);  // once for a range of thousands
  // a range's names are its sanitized base name and the index (uniqueName of "%r" + "12"), the base done once
  std::string rangeBase;
  if (d.rangeCount) appendSanitized(rangeBase, d.name);
  auto add = [&](std::string_view base, uint32_t idx, bool ranged) {
    ir::Reg r;
    if (ranged) {
      std::string n;
      n.reserve(rangeBase.size() + 10);
      n = rangeBase;
      char digits[16];
      n.append(digits, size_t(std::to_chars(digits, digits + sizeof digits, idx).ptr - digits));
      r.name = claimName(std::move(n));
    } else {
      r.name = uniqueName(base);
    }
    r.ptxName = d.name;
    r.ptxType = d.type;
    r.vt = vt;
    F_.regs.push_back(std::move(r));
  };
  // Every register becomes a local variable of main(), and SPIR-V validation allows 524,287 of them (the
  // universal limit spirv-val enforces): more can never translate, so say so before building them.
  constexpr size_t kMaxRegisters = 524287;
  if (F_.regs.size() + (d.rangeCount ? d.rangeCount : 1) > kMaxRegisters) {
    if (!tooManyRegs_)
      error(d.span, "'" + F_.name + "' declares more than " + std::to_string(kMaxRegisters) +
                        " registers (with its inlined calls); SPIR-V allows at most that many local variables");
    tooManyRegs_ = true;
    return;
  }
  if (d.vecWidth) {
    static const char* kMembers[2][4] = {{"x", "y", "z", "w"}, {"r", "g", "b", "a"}};
    auto vec = [&](const std::string& name) {
      std::vector<int> elems;
      for (uint32_t e = 0; e < d.vecWidth; ++e) {
        ir::Reg r;
        r.name = uniqueName(name + "_" + kMembers[0][e]);
        r.ptxName = d.name;
        r.ptxType = d.type;
        r.vt = regVType(d.type);
        F_.regs.push_back(std::move(r));
        int id = int(F_.regs.size()) - 1;
        elems.push_back(id);
        for (auto& m : kMembers) regScopes_.back().names[name + "." + m[e]] = id;
      }
      regScopes_.back().vectors[name] = std::move(elems);
      hasVectors_ = true;
    };
    if (d.rangeCount)
      for (uint32_t i = 0; i < d.rangeCount; ++i) vec(std::string(d.name) + std::to_string(i));
    else
      vec(std::string(d.name));
    return;
  }
  if (d.rangeCount) {
    int first = int(F_.regs.size());
    usedNames_.reserve(d.rangeCount);
    if (F_.regs.capacity() < F_.regs.size() + d.rangeCount)
      F_.regs.reserve(std::max(F_.regs.size() + d.rangeCount, 2 * F_.regs.capacity()));
    for (uint32_t i = 0; i < d.rangeCount; ++i) add(d.name, i, true);
    regScopes_.back().ranges[std::string(d.name)] = {first, d.rangeCount};
  } else {
    add(d.name, 0, false);
    regScopes_.back().names[std::string(d.name)] = int(F_.regs.size()) - 1;
  }
}

// Byte image of a variable's initialiser: each element converted by the parser to the element type's bits.
static bool initBytes(const ptx::VarDecl& d, uint32_t elemBytes, uint32_t totalBytes, std::vector<uint8_t>& out,
                      std::string& err) {
  out.assign(totalBytes, 0);
  size_t pos = 0;
  for (auto& e : d.init) {
    if (pos + elemBytes > totalBytes) {
      err = "too many initialiser elements";
      return false;
    }
    if (e.isSymbol) {  // an address: 0 here, a relocation of the variable (Lifter::addressInits)
      pos += elemBytes;
      continue;
    }
    for (uint32_t i = 0; i < elemBytes; ++i) out[pos + i] = uint8_t(e.bits >> (8 * i));
    pos += elemBytes;
  }
  return true;
}

int Lifter::declareVar(const ptx::VarDecl& d, ptx::Space asSpace) {
  ir::Var v;
  v.name = uniqueName(d.name);
  v.ptxName = d.name;
  v.space = asSpace;
  uint32_t eb = typeBytes(d.type) * (d.vecWidth ? d.vecWidth : 1);
  if (!eb) {
    error(d.span, "unsupported variable type '." + std::string(d.type) + "'");
    eb = 4;
  }
  uint64_t n = 1;
  for (auto x : d.dims) n *= x;
  bool unsized = !d.dims.empty() && n == 0;
  uint64_t bytes = uint64_t(eb) * n;
  if (bytes > (1u << 30)) {
    error(d.span, "variable too large");
    bytes = 0;
  }
  v.bytes = uint32_t(bytes);
  v.align = d.align ? d.align : eb;
  if (d.hasInit && !d.init.empty()) {
    std::string err;
    if (!initBytes(d, typeBytes(d.type), v.bytes, v.init, err)) error(d.span, err);
    else addressInits(d, v);
  }
  auto place = [&](uint64_t& top) {
    top = (top + v.align - 1) / v.align * v.align;
    v.offset = top;
    top += v.bytes;
  };
  switch (asSpace) {
    case ptx::Space::Shared:
      if (unsized || d.isExtern) {
        v.dynamic = true;
        F_.dynamicShared = true;
      } else {
        place(sharedTop_);
      }
      break;
    case ptx::Space::Local: place(localTop_); break;
    case ptx::Space::Const: place(constTop_); break;
    case ptx::Space::Global: place(globalTop_); break;
    default: break;
  }
  F_.vars.push_back(std::move(v));
  int id = int(F_.vars.size()) - 1;
  if (F_.vars[id].dynamic) {
    if (dynVar_ < 0) dynVar_ = id;
    // every extern .shared array aliases the start of dynamic shared memory
  }
  return id;
}

// The address elements of an initialiser become relocations: 64-bit elements naming a .global variable of the
// module (PTX ISA 5.4.4 "Initializers": a variable's address, or its generic address with generic(); for a .global
// variable both are its device address here). Only .const variables may hold them: the runtime fills .global
// variables from bytes known at translation.
void Lifter::addressInits(const ptx::VarDecl& d, ir::Var& v) {
  uint32_t eb = typeBytes(d.type);
  uint32_t pos = 0;
  for (auto& e : d.init) {
    uint32_t at = pos;
    pos += eb;
    if (!e.isSymbol) continue;
    if (eb != 8) return error(e.span, "an address initialiser needs 64-bit elements (.u64, .s64 or .b64), not ." +
                                          std::string(d.type));
    if (v.space != ptx::Space::Const)
      return error(e.span, "address initialisers are supported in .const variables only");
    const ptx::VarDecl* target = nullptr;
    for (auto& g : mod_.globals)
      if (g.name == e.symbol) target = &g;
    if (!target || target->space != ptx::Space::Global)
      return error(e.span, "'" + ptx::clip(e.symbol) + "': an address initialiser must name a .global variable of "
                                                       "the module");
    int id = findVar(e.symbol);
    if (id < 0) return error(e.span, "unknown variable '" + ptx::clip(e.symbol) + "'");
    v.relocs.push_back({at, id, e.offset});
  }
}

int Lifter::findReg(std::string_view name) {
  // "%r12" is register 12 of the range "%r" (no leading zeros: "%r012" is a different name).
  size_t cut = name.size();
  while (cut > 0 && name[cut - 1] >= '0' && name[cut - 1] <= '9') --cut;
  bool indexed = cut < name.size() && (name[cut] != '0' || cut + 1 == name.size());
  uint64_t idx = 0;
  if (indexed)
    for (size_t i = cut; i < name.size() && idx < (1ull << 32); ++i) idx = idx * 10 + uint64_t(name[i] - '0');
  for (auto it = regScopes_.rbegin(); it != regScopes_.rend() - regBase_; ++it) {
    if (!it->names.empty()) {  // (nvcc declares every register in a range: no name is hashed for nothing)
      auto f = it->names.find(name);
      if (f != it->names.end()) return f->second;
    }
    if (indexed) {
      auto r = it->ranges.find(name.substr(0, cut));
      if (r != it->ranges.end() && idx < r->second.second) return r->second.first + int(idx);
    }
  }
  return -1;
}

// The vector register `name` of the innermost scope that declares the name at all (nullptr when that is a
// scalar, a member name or a range element, or when no scope does).
const std::vector<int>* Lifter::findVector(std::string_view name) {
  size_t cut = name.size();
  while (cut > 0 && name[cut - 1] >= '0' && name[cut - 1] <= '9') --cut;
  for (auto it = regScopes_.rbegin(); it != regScopes_.rend() - regBase_; ++it) {
    auto f = it->vectors.find(name);
    if (f != it->vectors.end()) return &f->second;
    if (it->names.count(name)) return nullptr;
    if (cut < name.size() && it->ranges.count(name.substr(0, cut))) return nullptr;
  }
  return nullptr;
}

int Lifter::moduleVar(std::string_view name) {
  for (auto& g : mod_.globals) {
    if (g.name != name) continue;
    if (g.space != ptx::Space::Shared && g.space != ptx::Space::Const && g.space != ptx::Space::Global) return -1;
    int id = declareVar(g, g.space);
    varScopes_.front()[g.name] = id;
    return id;
  }
  return -1;
}

int Lifter::findVar(std::string_view name) {
  // the function's own scopes, innermost first, then the module scope (varScopes_[0], filled lazily)
  for (size_t i = varScopes_.size(); i-- > std::max<size_t>(varBase_, 1);) {
    auto f = varScopes_[i].find(name);
    if (f != varScopes_[i].end()) return f->second;
  }
  auto f = varScopes_.front().find(name);
  if (f != varScopes_.front().end()) return f->second;
  return moduleVar(name);
}

static bool isSpecialReg(std::string_view n) {
  static const char* k[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid",
                            "%nsmid", "%gridid", "%clock", "%clock64", "%lanemask_eq", "%lanemask_le",
                            "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%globaltimer", "%globaltimer_lo",
                            "%globaltimer_hi", "%dynamic_smem_size", "%total_smem_size", "%warpsize",
                            "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
                            "%cluster_nctarank", "%is_explicit_cluster", "%aggr_smem_size", "%envreg"};
  for (auto s : k) {
    size_t l = strlen(s);
    if (n.size() >= l && n.compare(0, l, s) == 0 && (n.size() == l || n[l] == '.' || (n[l] >= '0' && n[l] <= '9')))
      return true;
  }
  return false;
}

bool Lifter::resolve(const ptx::Operand& o, Opnd& out, Frame& fr) {
  out.span = o.span;
  out.neg = o.neg;
  switch (o.kind) {
    case ptx::Operand::Kind::Reg:
    case ptx::Operand::Kind::Symbol: {
      if (o.name == "_") {
        out.kind = Opnd::Kind::Sink;
        return true;
      }
      // a whole vector register: the list of its elements (looked up first, so that a vector of an inner scope
      // shadows a scalar of the same name outside; only in functions that declare vector registers)
      const std::vector<int>* vecRegs = hasVectors_ ? findVector(o.name) : nullptr;
      int r = vecRegs ? -1 : findReg(o.name);
      if (r >= 0) {
        out.kind = Opnd::Kind::Reg;
        out.reg = r;
        return true;
      }
      if (vecRegs) {
        out.kind = Opnd::Kind::Vec;
        for (int e : *vecRegs) {
          Opnd x;
          x.kind = Opnd::Kind::Reg;
          x.reg = e;
          x.span = o.span;
          out.elems.push_back(std::move(x));
        }
        return true;
      }
      // video instructions' operand selectors: `%r1.b2` is byte 2 of %r1 (PTX ISA 9.7.18.1)
      if (videoSel_ && o.name.size() > 3 && o.name[o.name.size() - 3] == '.') {
        std::string_view sel = o.name.substr(o.name.size() - 2);
        static const char* kSel[] = {"b0", "b1", "b2", "b3", "h0", "h1"};
        for (int i = 0; i < 6; ++i)
          if (sel == kSel[i] && (r = findReg(o.name.substr(0, o.name.size() - 3))) >= 0) {
            out.kind = Opnd::Kind::Reg;
            out.reg = r;
            out.part = uint8_t(i + 1);
            return true;
          }
      }
      if (isSpecialReg(o.name)) {
        out.kind = Opnd::Kind::Special;
        out.special = o.name;
        return true;
      }
      auto l = fr.labels.find(o.name);
      if (l != fr.labels.end()) {
        out.kind = Opnd::Kind::Label;
        out.label = l->second;
        return true;
      }
      int v = findVar(o.name);
      if (v >= 0) {
        out.kind = Opnd::Kind::VarAddr;
        out.var = v;
        return true;
      }
      // WARP_SZ: the warp size, 32 on every NVIDIA GPU (PTX ISA %warpsize: "a run-time immediate constant")
      if (o.name == "WARP_SZ") {
        out.kind = Opnd::Kind::Imm;
        out.imm = 32;
        return true;
      }
      if (size_t dot = o.name.rfind('.'); dot != std::string_view::npos && dot > 0)
        if (const std::vector<int>* vec = findVector(o.name.substr(0, dot))) {
          error(o.span, "vector register '" + ptx::clip(o.name.substr(0, dot)) + "' (.v" + std::to_string(vec->size()) +
                            ") has no member '" + ptx::clip(o.name.substr(dot)) + "': its members are " +
                            (vec->size() == 2 ? ".x .y (.r .g)" : ".x .y .z .w (.r .g .b .a)"));
          return false;
        }
      error(o.span, "unknown name '" + ptx::clip(o.name) + "'");
      return false;
    }
    case ptx::Operand::Kind::Imm:
      out.kind = Opnd::Kind::Imm;
      out.imm = o.imm;
      return true;
    case ptx::Operand::Kind::FImm:
      out.kind = Opnd::Kind::FImm;
      out.fbits = o.fbits;
      out.isDouble = o.isDouble;
      return true;
    case ptx::Operand::Kind::Address: {
      out.bracket = true;
      if (o.name.empty()) {
        out.kind = Opnd::Kind::RegAddr;
        out.reg = -1;
        out.imm = o.imm;
        return true;
      }
      // texture form `[handle, {coords}]`: the extra parts come along as elems
      for (auto& e : o.elems) {
        Opnd x;
        if (!resolve(e, x, fr)) return false;
        out.elems.push_back(std::move(x));
      }
      int r = findReg(o.name);
      if (r >= 0) {
        out.kind = Opnd::Kind::RegAddr;
        out.reg = r;
        out.imm = o.imm;
        return true;
      }
      int v = findVar(o.name);
      if (v >= 0) {
        out.kind = Opnd::Kind::VarAddr;
        out.var = v;
        out.imm = o.imm;
        return true;
      }
      error(o.span, "unknown name '" + ptx::clip(o.name) + "' in address");
      return false;
    }
    case ptx::Operand::Kind::Vector: {
      out.kind = Opnd::Kind::Vec;
      for (auto& e : o.elems) {
        Opnd x;
        if (!resolve(e, x, fr)) return false;
        out.elems.push_back(std::move(x));
      }
      return true;
    }
    case ptx::Operand::Kind::List:
      error(o.span, "unexpected operand list");
      return false;
  }
  return false;
}

void Lifter::prescan(const ptx::Block& b, Frame& fr) {
  const ptx::Label* pending = nullptr;
  for (auto& s : b.stmts) {
    if (auto* l = std::get_if<ptx::Label>(&s)) {
      if (fr.labels.count(l->name)) {
        error(l->span, "duplicate label '" + ptx::clip(l->name) + "'");
        continue;
      }
      fr.labels[l->name] = newBlock(std::string(l->name));
      pending = l;
      continue;
    }
    if (auto* d = std::get_if<ptx::Directive>(&s)) {
      if (d->name == "branchtargets" && pending) {
        std::vector<std::string_view> names;
        std::string_view t = d->text;
        size_t i = 0;
        while (i < t.size()) {
          while (i < t.size() && (t[i] == ' ' || t[i] == ',' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
          size_t j = i;
          while (j < t.size() && t[j] != ',' && t[j] != ' ' && t[j] != ';' && t[j] != '\n' && t[j] != '\t') ++j;
          if (j > i) names.push_back(t.substr(i, j - i));
          i = j + 1;
        }
        fr.tables[pending->name] = names;
      }
    }
    pending = nullptr;
    if (auto* nb = std::get_if<ptx::Block>(&s)) prescan(*nb, fr);
  }
}

int Lifter::guardReg(const ptx::Instr& in) {
  if (!in.hasGuard) return -1;
  int r = findReg(in.guard.reg);
  if (r < 0 || F_.regs[r].vt != VType::Bool) {
    error(in.guard.span, "guard '" + ptx::clip(in.guard.reg) + "' is not a predicate register");
    return -1;
  }
  return r;
}

void Lifter::liftBranch(const ptx::Instr& in, Frame& fr) {
  int g = guardReg(in);
  ir::Term t;
  t.span = in.span;
  auto withGuard = [&](ir::Term taken) {
    if (g < 0) {
      closeWith(std::move(taken));
      cur_ = newBlock("after_" + std::to_string(++synth_));
      return;
    }
    int next = newBlock("fall_" + std::to_string(++synth_));
    int target;
    if (taken.kind == ir::Term::Kind::Br) {
      target = taken.targets[0];
    } else {
      target = newBlock("exit_" + std::to_string(++synth_));
      F_.blocks[target].term = taken;
      open_[target] = false;
    }
    ir::Term c;
    c.kind = ir::Term::Kind::CondBr;
    c.condReg = g;
    c.condNeg = in.guard.neg;
    c.targets = {target, next};
    c.span = in.span;
    closeWith(std::move(c));
    cur_ = next;
  };
  if (in.opcode == "bra") {
    if (in.ops.size() != 1) {
      error(in.span, "bra takes one label");
      return;
    }
    auto l = fr.labels.find(in.ops[0].name);
    if (l == fr.labels.end()) {
      error(in.ops[0].span, "unknown label '" + ptx::clip(in.ops[0].name) + "'");
      return;
    }
    t.kind = ir::Term::Kind::Br;
    t.targets = {l->second};
    withGuard(std::move(t));
  } else if (in.opcode == "ret") {
    if (fr.retBlock >= 0) {
      t.kind = ir::Term::Kind::Br;
      t.targets = {fr.retBlock};
    } else {
      t.kind = ir::Term::Kind::Ret;
    }
    withGuard(std::move(t));
  } else if (in.opcode == "exit") {
    t.kind = ir::Term::Kind::Ret;
    withGuard(std::move(t));
  } else {  // brx.idx
    if (g >= 0) {
      error(in.span, "guarded brx.idx is not supported yet");
      return;
    }
    if (in.ops.size() != 2) {
      error(in.span, "brx.idx takes an index and a target table");
      return;
    }
    int idx = findReg(in.ops[0].name);
    auto tb = fr.tables.find(in.ops[1].name);
    if (idx < 0 || tb == fr.tables.end()) {
      error(in.span, "brx.idx: unknown index register or .branchtargets table");
      return;
    }
    t.kind = ir::Term::Kind::Multi;
    t.condReg = idx;
    for (auto n : tb->second) {
      auto l = fr.labels.find(n);
      if (l == fr.labels.end()) {
        error(in.span, "brx.idx: unknown label '" + ptx::clip(n) + "' in table");
        return;
      }
      t.targets.push_back(l->second);
    }
    closeWith(std::move(t));
    cur_ = newBlock("after_" + std::to_string(++synth_));
  }
}

const ptx::Function* findFunc(const ptx::Module& m, std::string_view name) {
  const ptx::Function* best = nullptr;
  for (auto& f : m.functions)
    if (f.name == name && (!best || f.hasBody)) best = &f;
  return best;
}

void Lifter::liftCall(const ptx::Instr& in, Frame& fr) {
  size_t i = 0;
  const ptx::Operand* rets = nullptr;
  const ptx::Operand* args = nullptr;
  if (i < in.ops.size() && in.ops[i].kind == ptx::Operand::Kind::List) rets = &in.ops[i++];
  if (i >= in.ops.size() || in.ops[i].kind != ptx::Operand::Kind::Symbol) {
    if (i < in.ops.size() && findReg(in.ops[i].name) >= 0)
      error(in.span, "indirect calls (through a function pointer) are not supported yet");
    else
      error(in.span, "call: expected a function name");
    return;
  }
  std::string_view name = in.ops[i++].name;
  if (i < in.ops.size() && in.ops[i].kind == ptx::Operand::Kind::List) args = &in.ops[i++];
  const ptx::Function* callee = findFunc(mod_, name);
  if (!callee) {
    error(in.ops[i - 1].span, "call to unknown function '" + ptx::clip(name) + "'");
    return;
  }
  if (callee->isEntry) {  // PTX ISA 10.1: only .func may be called (a kernel is launched)
    error(in.span, "call to '" + ptx::clip(name) + "', which is a kernel (.entry); only .func can be called");
    return;
  }
  if (!callee->hasBody) {
    error(in.span, "call to '" + ptx::clip(name) + "', which has no body in this module (" +
                       (name == "vprintf" ? "printf is not supported" : "an external function") + ")");
    return;
  }
  for (auto s : callStack_)
    if (s == name) {
      error(in.span, "recursive call to '" + ptx::clip(name) + "' is not supported (calls are inlined)");
      return;
    }
  if (callStack_.size() > 32) {
    error(in.span, "calls nested too deeply");
    return;
  }
  if (in.hasGuard) {
    error(in.span, "guarded calls are not supported yet");
    return;
  }
  // Bind callee parameter names to the caller's argument variables (PTX passes through .param variables). Every
  // actual operand is resolved in the caller's scope first; only then does the callee's scope open, so a formal
  // named like a caller register (`call (temp2), f, (temp1, temp2)` with a formal `temp2`) cannot capture it.
  auto resolveActuals = [&](const std::vector<ptx::VarDecl>& formals, const ptx::Operand* actual, bool isRet,
                            std::vector<int>& out) {
    size_t n = actual ? actual->elems.size() : 0;
    if (n != formals.size()) {
      error(in.span, "call to '" + ptx::clip(name) + "': " + std::to_string(n) + (isRet ? " return" : " argument") +
                         " operands for " + std::to_string(formals.size()) + " parameters");
      return false;
    }
    for (size_t k = 0; k < n; ++k) {
      auto& a = actual->elems[k];
      bool reg = formals[k].space == ptx::Space::Reg;
      int id = reg ? findReg(a.name) : findVar(a.name);
      if (id < 0) {
        error(a.span, "call argument '" + ptx::clip(a.name) + "' is not a " + (reg ? "register" : ".param variable"));
        return false;
      }
      out.push_back(id);
    }
    return true;
  };
  std::vector<int> argIds, retIds;
  if (!resolveActuals(callee->params, args, false, argIds) || !resolveActuals(callee->rets, rets, true, retIds)) return;
  std::unordered_map<std::string_view, int> bind;
  std::vector<std::pair<int, int>> regIn, regOut;  // (callee reg, caller reg) for .reg parameters
  size_t savedRegBase = regBase_, savedVarBase = varBase_;
  regScopes_.emplace_back();
  regBase_ = regScopes_.size() - 1;
  auto bindList = [&](const std::vector<ptx::VarDecl>& formals, const std::vector<int>& ids, bool isRet) {
    for (size_t k = 0; k < formals.size(); ++k) {
      if (formals[k].space == ptx::Space::Reg) {
        declareReg(formals[k]);
        (isRet ? regOut : regIn).push_back({findReg(formals[k].name), ids[k]});
      } else {
        bind[formals[k].name] = ids[k];
      }
    }
  };
  bindList(callee->params, argIds, false);
  bindList(callee->rets, retIds, true);
  auto mov = [&](int dst, int src) {
    ir::Inst m;
    m.op = "mov";
    static const std::string_view b32 = "b32", b64 = "b64", pred = "pred";
    VType vt = F_.regs[dst].vt;
    m.mods = {vt == VType::Bool ? pred : ir::vtypeBits(vt) == 64 ? b64 : b32};
    Opnd d, s;
    d.kind = s.kind = Opnd::Kind::Reg;
    d.reg = dst;
    s.reg = src;
    m.ops = {d, s};
    m.span = in.span;
    F_.blocks[cur_].insts.push_back(std::move(m));
  };
  for (auto [ce, cr] : regIn) mov(ce, cr);
  varScopes_.push_back(std::move(bind));
  varBase_ = varScopes_.size() - 1;
  Frame inner;
  inner.retBlock = newBlock(std::string(name) + "_return_" + std::to_string(++synth_));
  int retBlock = inner.retBlock;
  callStack_.push_back(name);
  prescan(callee->body, inner);
  int entryBlock = cur_;
  size_t entryAt = cur_ >= 0 ? F_.blocks[cur_].insts.size() : 0;
  liftBlock(callee->body, inner);
  // the call's own line is annotated with the first instruction of the inlined body (ptx2glsl view's links)
  if (entryBlock >= 0 && entryAt < F_.blocks[entryBlock].insts.size()) {
    ir::Inst& first = F_.blocks[entryBlock].insts[entryAt];
    if (!first.fusedSpan.begin) first.fusedSpan = in.span;
  }
  callStack_.pop_back();
  if (cur_ >= 0 && open_[cur_]) {
    ir::Term t;
    t.kind = ir::Term::Kind::Br;
    t.targets = {retBlock};
    closeWith(t);
  }
  varScopes_.pop_back();
  varBase_ = savedVarBase;
  cur_ = retBlock;
  for (auto [ce, cr] : regOut) mov(cr, ce);
  regScopes_.pop_back();
  regBase_ = savedRegBase;
}

// The instruction table's verdict (forms.h), once per source instruction.
bool Lifter::formOk(const ptx::Instr& in, const ir::Inst* x) {
  // The entry's own instructions are lifted once; only an inlined body's come again, once per call, so only
  // theirs are remembered.
  bool inlined = !callStack_.empty();
  if (inlined) {
    auto it = checked_.find(&in);
    if (it != checked_.end()) return it->second;
  }
  FormResult r = checkForm(in, x, F_);
  if (opt_.onForm) opt_.onForm(in, x, F_, r);
  if (!r.ok) error(r.at, r.message);
  if (inlined) checked_[&in] = r.ok;
  return r.ok;
}

bool Lifter::budget(const ptx::Instr& in) {
  if (tooManyRegs_) return false;  // said once; lifting on would only add errors for the registers not declared
  if (++lifted_ <= kMaxLiftedInstructions) return true;
  if (!tooBig_)
    error(in.span, "'" + F_.name + "' has more than " + std::to_string(kMaxLiftedInstructions) +
                       " instructions once its calls are inlined; not supported");
  tooBig_ = true;
  return false;
}

void Lifter::liftInstr(const ptx::Instr& in, Frame& fr) {
  if (!budget(in)) return;
  if (in.opcode == "bra" || in.opcode == "ret" || in.opcode == "exit" || in.opcode == "brx") {
    if (formOk(in, nullptr)) liftBranch(in, fr);
    return;
  }
  if (in.opcode == "call") {
    if (formOk(in, nullptr) && opt_.inlineCalls) liftCall(in, fr);
    return;
  }
  ir::Inst x;
  x.op = in.opcode;
  x.mods = in.mods;
  x.span = in.span;
  x.guardReg = guardReg(in);
  x.guardNeg = in.hasGuard && in.guard.neg;
  // (every video opcode starts with v: the other instructions skip the comparisons)
  videoSel_ = !in.opcode.empty() && in.opcode[0] == 'v' &&
              (in.opcode == "vadd" || in.opcode == "vsub" || in.opcode == "vabsdiff" || in.opcode == "vmin" ||
               in.opcode == "vmax" || in.opcode == "vshl" || in.opcode == "vshr" || in.opcode == "vset");
  x.ops.reserve(in.ops.size());  // (growing one operand at a time moved them twice on average)
  for (size_t i = 0; i < in.ops.size(); ++i) {
    const ptx::Operand& o = in.ops[i];
    if (o.minus) {
      error(o.span, "a unary '-' on a register is not PTX");
      return;
    }
    Opnd r;
    if (!resolve(o, r, fr)) return;
    if (o.pipe && i + 1 < in.ops.size()) {  // setp's `%p|%q`: one destination pair, kept as a two-element vector
      Opnd q;
      if (!resolve(in.ops[++i], q, fr)) return;
      Opnd pair;
      pair.kind = Opnd::Kind::Vec;
      pair.span = o.span;
      pair.elems = {std::move(r), std::move(q)};
      x.ops.push_back(std::move(pair));
      continue;
    }
    x.ops.push_back(std::move(r));
  }
  if (!formOk(in, &x)) return;
  F_.blocks[cur_].insts.push_back(std::move(x));
}

void Lifter::liftBlock(const ptx::Block& b, Frame& fr) {
  for (auto& s : b.stmts) {
    if (diags_.atLimit() || tooBig_) return;
    if (auto* in = std::get_if<ptx::Instr>(&s)) {
      liftInstr(*in, fr);
    } else if (auto* l = std::get_if<ptx::Label>(&s)) {
      auto it = fr.labels.find(l->name);
      if (it == fr.labels.end() || it->second == cur_) continue;
      ir::Term t;
      t.kind = ir::Term::Kind::Br;
      t.targets = {it->second};
      closeWith(t);
      cur_ = it->second;
    } else if (auto* d = std::get_if<ptx::VarDecl>(&s)) {
      switch (d->space) {
        case ptx::Space::Reg: declareReg(*d); break;
        case ptx::Space::Shared:
        case ptx::Space::Local:
          varScopes_.back()[d->name] = declareVar(*d, d->space);
          break;
        case ptx::Space::Param:  // call scratch: private to the thread, like .local
          varScopes_.back()[d->name] = declareVar(*d, ptx::Space::Local);
          break;
        case ptx::Space::Global:
        case ptx::Space::Const:
          varScopes_.back()[d->name] = declareVar(*d, d->space);
          break;
        default:
          error(d->span, "declaration in this state space is not supported in a function body");
      }
    } else if (auto* nb = std::get_if<ptx::Block>(&s)) {
      regScopes_.emplace_back();
      varScopes_.emplace_back();
      liftBlock(*nb, fr);
      varScopes_.pop_back();
      regScopes_.pop_back();
    }
  }
}

bool Lifter::run(const ptx::Function& fn) {
  F_.name = std::string(fn.name);
  F_.module = &mod_;
  for (int i = 0; i < 3; ++i) F_.reqntid[i] = fn.reqntid[i];
  regScopes_.emplace_back();
  varScopes_.emplace_back();  // module scope (lazily filled)
  varScopes_.emplace_back();  // entry parameters
  if (mod_.addressSize != 64)
    error(mod_.addressSizeAt, ".address_size " + std::to_string(mod_.addressSize) +
                                  " is not supported: the runtimes pass 64-bit device addresses");
  if (!fn.isEntry) {
    // A .func on its own (LiftOptions::inlineCalls off): its .reg parameters are registers and its .param ones
    // private variables, as they are once inlined.
    for (auto* list : {&fn.rets, &fn.params})
      for (auto& p : *list) {
        if (p.space == ptx::Space::Reg) declareReg(p);
        else varScopes_.back()[p.name] = declareVar(p, ptx::Space::Local);
      }
    Frame fr;
    cur_ = newBlock("entry");
    prescan(fn.body, fr);
    liftBlock(fn.body, fr);
    return ok_;
  }
  // One layout for every runner: the PTX front end's (translator/ptx/layout.h), also used by the CUDA runner.
  std::string layoutErr;
  F_.params = ptx::computeParamLayout(fn, &layoutErr);
  if (!layoutErr.empty() || F_.params.size() != fn.params.size()) {
    error(fn.span, "cannot lay out the parameters of '" + std::string(fn.name) + "': " + layoutErr);
    return false;
  }
  F_.paramBytes = ptx::paramBlockBytes(F_.params);
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ptx::VarDecl& p = fn.params[i];
    if (p.space != ptx::Space::Param) {
      error(p.span, "kernel parameters must be in the .param space");
      continue;
    }
    ir::Var v;
    v.name = uniqueName(p.name);
    v.ptxName = p.name;
    v.space = ptx::Space::Param;
    v.bytes = F_.params[i].bytes;
    v.align = F_.params[i].align;
    v.offset = F_.params[i].offset;
    F_.vars.push_back(std::move(v));
    varScopes_.back()[p.name] = int(F_.vars.size()) - 1;
  }
  Frame fr;
  cur_ = newBlock("entry");
  prescan(fn.body, fr);
  liftBlock(fn.body, fr);
  if (cur_ >= 0 && open_[cur_]) closeWith(ir::Term{});
  for (size_t b = 0; b < F_.blocks.size(); ++b)
    if (open_[b]) {  // a label block never reached by lifting (e.g. an inlined callee's empty tail)
      F_.blocks[b].term = ir::Term{};
      open_[b] = false;
    }
  sharedTop_ = (sharedTop_ + 15) / 16 * 16;
  F_.sharedStaticBytes = uint32_t(sharedTop_);
  F_.dynSharedOffset = uint32_t(sharedTop_);
  for (auto& v : F_.vars)
    if (v.dynamic) v.offset = F_.dynSharedOffset;
  F_.localBytes = uint32_t((localTop_ + 7) / 8 * 8);
  return ok_;
}

}  // namespace

bool liftEntry(const ptx::Module& mod, const ptx::Function& fn, ptx::DiagEngine& diags, ir::Function& out,
               const LiftOptions& opt) {
  Lifter l(mod, diags, out, opt);
  return l.run(fn);
}

}  // namespace p2g
