// Names in the emitted GLSL (docs/READABLE_GLSL.md, "Names"): kernel parameters read at constant offsets become
// const locals that main() reads once (`p168_f32`, or the name a --names file gives), and each .shared variable's
// byte offset a const named after the variable (`sh_tile`). Kernel parameters are read-only (PTX ISA, "Kernel
// Function Parameters"), so reading one at the top of main() gives the value every later ld.param of it reads;
// where loads of different types overlap, no name is made and those loads stay raw reads of pc.params.
#include <algorithm>
#include <cctype>
#include <deque>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "emitter.h"
#include "handles.h"
#include "json.h"

namespace p2g {

namespace {

// GLSL 4.60 keywords and reserved words, and the built-in functions a shader of ours may call (a local of the
// same name would hide them).
const char* const kTaken[] = {
    "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
    "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample", "break",
    "continue", "do", "for", "while", "switch", "case", "default", "if", "else", "subroutine", "in", "out", "inout",
    "float", "double", "int", "void", "bool", "true", "false", "invariant", "precise", "discard", "return", "mat2",
    "mat3", "mat4", "dmat2", "dmat3", "dmat4", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "bvec2", "bvec3",
    "bvec4", "dvec2", "dvec3", "dvec4", "uint", "uvec2", "uvec3", "uvec4", "lowp", "mediump", "highp", "precision",
    "sampler1D", "sampler2D", "sampler3D", "samplerCube", "image1D", "image2D", "image3D", "struct", "common",
    "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "resource", "goto",
    "inline", "noinline", "public", "static", "extern", "external", "interface", "long", "short", "half", "fixed",
    "unsigned", "superp", "input", "output", "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4", "sampler3DRect",
    "filter", "sizeof", "cast", "namespace", "using", "main", "int8_t", "uint8_t", "int16_t", "uint16_t", "int64_t",
    "uint64_t", "float16_t", "float32_t", "float64_t", "demote", "pc", "smem", "smem64", "lmem", "cmem",
    // built-in functions
    "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "abs", "sign", "floor", "trunc", "round",
    "roundEven", "ceil", "fract", "mod", "modf", "min", "max", "clamp", "mix", "step", "smoothstep", "isnan", "isinf",
    "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat", "fma", "frexp", "ldexp",
    "packUnorm2x16", "packSnorm2x16", "packUnorm4x8", "packSnorm4x8", "unpackUnorm2x16", "unpackSnorm2x16",
    "unpackUnorm4x8", "unpackSnorm4x8", "packHalf2x16", "unpackHalf2x16", "packDouble2x32", "unpackDouble2x32",
    "length", "distance", "dot", "cross", "normalize", "reflect", "refract", "faceforward", "matrixCompMult",
    "outerProduct", "transpose", "determinant", "inverse", "lessThan", "lessThanEqual", "greaterThan",
    "greaterThanEqual", "equal", "notEqual", "any", "all", "not", "uaddCarry", "usubBorrow", "umulExtended",
    "imulExtended", "bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB", "findMSB",
    "textureSize", "texture", "texelFetch", "textureLod", "textureGather", "imageLoad", "imageStore", "imageSize",
    "atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicExchange", "atomicCompSwap",
    "barrier", "memoryBarrier", "memoryBarrierShared", "memoryBarrierBuffer", "memoryBarrierImage",
    "groupMemoryBarrier", "doubleBitsToInt64", "doubleBitsToUint64", "int64BitsToDouble", "uint64BitsToDouble",
    "packUint2x32", "unpackUint2x32", "packInt2x32", "unpackInt2x32", "float16BitsToUint16", "uint16BitsToFloat16",
    "subgroupBarrier", "subgroupBallot", "subgroupShuffle", "subgroupAll", "subgroupAny", "subgroupElect",
    "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupMemoryBarrier", "subgroupMemoryBarrierShared",
};

bool isIdent(const std::string& s) {
  if (s.empty() || !(isalpha(uint8_t(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(isalnum(uint8_t(c)) || c == '_')) return false;
  return true;
}

// The PTX type's name as a suffix (f32, u64, b16, f16x2, ...).
std::string tyName(Ty t) {
  switch (t.k) {
    case Ty::K::B: return "b" + std::to_string(t.bits);
    case Ty::K::U: return "u" + std::to_string(t.bits);
    case Ty::K::S: return "s" + std::to_string(t.bits);
    case Ty::K::F: return "f" + std::to_string(t.bits);
    case Ty::K::Pred: return "pred";
    case Ty::K::F16: return "f16";
    case Ty::K::BF16: return "bf16";
    case Ty::K::F16x2: return "f16x2";
    case Ty::K::BF16x2: return "bf16x2";
    case Ty::K::E4M3x2: return "e4m3x2";
    case Ty::K::E5M2x2: return "e5m2x2";
    default: return "x";
  }
}

// A .shared variable's source name: the variable of a function-local static (`_ZZ8k_outputE4tile` -> tile,
// `_ZZN3cub6detail4scanEvE4temp_0` -> temp), the last component of a namespace member (`_ZN2ns4tileE` -> tile),
// else the PTX name; then made an identifier without runs of underscores.
std::string sourceName(std::string_view n) {
  std::string s(n);
  auto readId = [&](size_t at, size_t& end) -> std::string {
    size_t i = at, len = 0;
    while (i < s.size() && isdigit(uint8_t(s[i]))) len = len * 10 + size_t(s[i++] - '0');
    if (i == at || len == 0 || i + len > s.size()) return "";
    end = i + len;
    return s.substr(i, len);
  };
  std::string base;
  if (s.rfind("_ZZ", 0) == 0) {
    size_t e = s.rfind('E');
    while (e != std::string::npos && base.empty()) {
      size_t end = 0;
      std::string id = readId(e + 1, end);
      // after the name only a discriminator may follow (_0, __12_)
      bool tail = true;
      for (size_t i = end; i < s.size(); ++i) tail = tail && (s[i] == '_' || isdigit(uint8_t(s[i])));
      if (!id.empty() && tail) base = id;
      if (e == 0) break;
      e = s.rfind('E', e - 1);
    }
  } else if (s.rfind("_ZN", 0) == 0 && s.back() == 'E') {
    size_t i = 3, end = 0;
    std::string last;
    while (i < s.size() - 1) {
      std::string id = readId(i, end);
      if (id.empty()) break;
      last = id;
      i = end;
    }
    if (i == s.size() - 1) base = last;
  }
  if (base.empty()) base = s;
  std::string out;
  for (char c : base) {
    char x = isalnum(uint8_t(c)) ? c : '_';
    if (x == '_' && (out.empty() || out.back() == '_')) continue;
    out += x;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

bool isFreeGlslName(const std::string& s) {
  if (!isIdent(s) || s.find("__") != std::string::npos) return false;
  if (s.rfind("gl_", 0) == 0 || s.rfind("p2g_", 0) == 0 || s.rfind("P2G", 0) == 0) return false;
  // one lookup rather than a comparison with each of the ~300 taken words (asked for every name made)
  static const std::unordered_set<std::string_view> taken(std::begin(kTaken), std::end(kTaken));
  return !taken.count(s);
}

bool readNamesFile(const std::string& path, std::map<uint64_t, EmitOptions::ParamName>& out, std::string& err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err = "names file '" + path + "': cannot be read";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  json::Value doc;
  std::string perr;
  if (!json::parse(ss.str(), doc, perr)) {
    err = "names file '" + path + "': not JSON: " + perr;
    return false;
  }
  auto fail = [&](const json::Value& at, const std::string& what) {
    err = "names file '" + path + "':" + at.where() + ": " + what;
    return false;
  };
  if (!doc.isObject()) return fail(doc, "expected an object mapping parameter offsets to {\"name\", \"type\"}");
  std::map<std::string, uint64_t> byName;
  for (auto& [key, v] : doc.obj) {
    uint64_t off = 0;
    bool digits = !key.empty() && key.size() <= 10 && std::all_of(key.begin(), key.end(), [](char c) { return isdigit(uint8_t(c)); });
    if (!digits) return fail(v, "'" + key + "' is not a parameter offset (a decimal byte offset, e.g. \"168\")");
    off = std::stoull(key);
    if (out.count(off)) return fail(v, "offset " + key + " is named twice");
    if (!v.isObject()) return fail(v, "offset " + key + ": expected {\"name\": ..., \"type\": ...}");
    const json::Value* n = v.find("name");
    const json::Value* t = v.find("type");
    if (!n || !n->isString()) return fail(v, "offset " + key + ": \"name\" (a string) is missing");
    if (!t || !t->isString()) return fail(v, "offset " + key + ": \"type\" (a PTX type such as \"f32\") is missing");
    for (auto& [k, x] : v.obj)
      if (k != "name" && k != "type") return fail(x, "offset " + key + ": unknown member \"" + k + "\"");
    if (parseTy(t->str).k == Ty::K::None)
      return fail(*t, "offset " + key + ": \"" + t->str + "\" is not a PTX type (b8..b64, u8..u64, s8..s64, f16, f32, f64, ...)");
    const std::string& name = n->str;
    if (!isIdent(name)) return fail(*n, "offset " + key + ": \"" + name + "\" is not a GLSL identifier");
    bool temp = name.size() > 1 && name[0] == 't' &&
                std::all_of(name.begin() + 1, name.end(), [](char c) { return isdigit(uint8_t(c)); });
    if (!isFreeGlslName(name) || temp)
      return fail(*n, "offset " + key + ": \"" + name + "\" is a GLSL keyword, built-in or reserved name (gl_, p2g_, P2G, __, the temporaries t1, t2, ...)");
    auto it = byName.find(name);
    if (it != byName.end())
      return fail(*n, "offset " + key + ": \"" + name + "\" already names offset " + std::to_string(it->second));
    byName[name] = off;
    out[off] = {name, t->str};
  }
  return true;
}

void Emitter::planNames() {
  params_.clear();
  sharedNames_.clear();
  sharedUsed_.clear();
  // the names in use: views of the registers' and variables' own names (a kernel has tens of thousands of
  // registers; copying their names into a tree cost more than the rest of the naming), and of the names made here.
  // Every name asked about starts like one made here (p<offset>_, sh_) or like a --names name, so the registers and
  // variables whose names start otherwise are left out.
  bool asked[256] = {};
  asked[uint8_t('p')] = asked[uint8_t('s')] = true;
  for (auto& [off, pn] : opt_.paramNames)
    if (!pn.name.empty()) asked[uint8_t(pn.name[0])] = true;
  std::unordered_set<std::string_view> taken;
  std::deque<std::string> made;  // owns the names made here; a deque does not move them as it grows
  for (auto& r : F.regs)
    if (!r.name.empty() && asked[uint8_t(r.name[0])]) taken.insert(r.name);
  for (auto& v : F.vars)
    if (!v.name.empty() && asked[uint8_t(v.name[0])]) taken.insert(v.name);
  auto take = [&](const std::string& n) { taken.insert(made.emplace_back(n)); };
  auto unique = [&](std::string n) {
    if (taken.count(n) || !isFreeGlslName(n)) {
      int k = 2;
      while (taken.count(n + "_" + std::to_string(k))) ++k;
      n += "_" + std::to_string(k);
    }
    take(n);
    return n;
  };
  // every ld.param of a kernel parameter at a constant offset inside the parameter: one slot per element
  struct Load {
    uint64_t off;
    unsigned bytes;
    Ty t;
    int var;
  };
  std::vector<Load> loads;
  paramLoads_.clear();
  for (auto& [inp, at] : constantParamLoads(F)) {
    const ir::Inst& in = *inp;
    auto [var, imm] = at;
    if (in.op != "ld" || spaceOf(in) != ptx::Space::Param) continue;
    Ty t = instrType(in);
    if (t.k == Ty::K::None || t.bits > 64) continue;
    unsigned bytes = (t.bits < 8 ? 8 : t.bits) / 8, n = vecWidth(in);
    const ir::Var& v = F.vars[var];
    if (imm < 0 || uint64_t(imm) + uint64_t(n) * bytes > v.bytes) continue;
    paramLoads_[inp] = v.offset + uint64_t(imm);
    for (unsigned i = 0; i < n; ++i) loads.push_back({v.offset + uint64_t(imm) + i * bytes, bytes, t, var});
  }
  std::map<uint64_t, unsigned> width;
  for (auto& l : loads) {
    auto [it, fresh] = params_.try_emplace(l.off);
    ParamSlot& s = it->second;
    if (fresh) {
      s.t = l.t;
      s.var = l.var;
      width[l.off] = l.bytes;
    } else if (!(s.t == l.t)) {
      s.ok = false;
    }
  }
  // overlapping slots of different offsets: neither is named (a load is at most 8 bytes)
  for (auto it = params_.begin(); it != params_.end(); ++it)
    for (auto jt = std::next(it); jt != params_.end() && jt->first < it->first + 8; ++jt)
      if (jt->first < it->first + width[it->first]) it->second.ok = jt->second.ok = false;
  // the --names file: offsets inside the parameter block, read with the type it says
  uint64_t paramEnd = 0;
  for (auto& v : F.vars)
    if (v.space == ptx::Space::Param) paramEnd = std::max<uint64_t>(paramEnd, v.offset + v.bytes);
  std::set<std::string> userNames;
  for (auto& [off, pn] : opt_.paramNames) {
    std::string file = "names file '" + opt_.namesFile + "': ";
    if (off >= paramEnd) {
      diags_.error({}, file + "offset " + std::to_string(off) + " is not in the parameter block of '" + F.name + "' (" +
                           std::to_string(paramEnd) + " bytes)");
      ok_ = false;
      continue;
    }
    auto it = params_.find(off);
    if (it != params_.end() && !(it->second.t == parseTy(pn.type))) {
      diags_.error({}, file + "offset " + std::to_string(off) + " is read as ." + tyName(it->second.t) + " by '" +
                           F.name + "', not as ." + pn.type);
      ok_ = false;
      continue;
    }
    if (taken.count(pn.name)) {
      diags_.error({}, file + "the name '" + pn.name + "' (offset " + std::to_string(off) +
                           ") is already a register or variable of '" + F.name + "'");
      ok_ = false;
      continue;
    }
    userNames.insert(pn.name);
  }
  for (auto& n : userNames) take(n);
  for (auto& [off, s] : params_) {
    auto u = opt_.paramNames.find(off);
    if (u != opt_.paramNames.end() && userNames.count(u->second.name)) s.name = u->second.name;
    else s.name = unique("p" + std::to_string(off) + "_" + tyName(s.t));
  }
  for (size_t i = 0; i < F.vars.size(); ++i)
    if (F.vars[i].space == ptx::Space::Shared) {
      std::string n = sourceName(F.vars[i].ptxName);
      sharedNames_[int(i)] = unique("sh_" + (n.empty() ? "var" + std::to_string(i) : n));
    }
}

std::string Emitter::paramLabel(uint64_t offset) {
  auto it = params_.find(offset);
  if (it != params_.end() && it->second.ok) return it->second.name;
  for (auto& v : F.vars)
    if (v.space == ptx::Space::Param && offset >= v.offset && offset < v.offset + v.bytes)
      return std::string(v.ptxName) + (offset > v.offset ? "+" + std::to_string(offset - v.offset) : "");
  return "param +" + std::to_string(offset);
}

std::string Emitter::sharedName(int var) {
  if (!sharedNames_.count(var)) planNames();  // a handler run outside emit() (ptx2glsl ops --histogram)
  sharedUsed_.insert(var);
  return sharedNames_.at(var);
}

std::string Emitter::foldedValue(const std::string& v) const {
  if (v.size() < 3 || v.front() != '\x01' || v.back() != '\x02') return v;
  size_t k = size_t(atoi(v.c_str() + 1));
  return k < folds_.size() ? folds_[k].expr : v;
}

std::string Emitter::paramDeclarations() const {
  std::string d;
  for (auto& [off, s] : params_) {
    if (!s.used) continue;
    if (d.empty()) d = "  // kernel parameters read at constant offsets (read-only: read once here)\n";
    const ir::Var& v = F.vars[s.var];
    d += "  const " + glslOf(s.t) + " " + s.name + " = " + s.init + ";  // " + std::string(v.ptxName) +
         (off > v.offset ? "+" + std::to_string(off - v.offset) : "") + "\n";
  }
  return d;
}

std::string Emitter::sharedDeclarations() const {
  std::string d;
  for (int i : sharedUsed_) {
    const ir::Var& v = F.vars[size_t(i)];
    if (d.empty()) d = "// byte offsets of the .shared variables in smem\n";
    d += "const uint " + sharedNames_.at(i) + " = " + std::to_string(v.offset) + "u;  // " + std::string(v.ptxName) +
         (v.dynamic ? " (extern, dynamic)" : ", " + std::to_string(v.bytes) + " bytes") + "\n";
  }
  return d;
}

}  // namespace p2g
