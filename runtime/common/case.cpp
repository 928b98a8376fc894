#include "case.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "images.h"

namespace p2g {

uint32_t ParamValue::size() const {
  switch (kind) {
    case Kind::Buffer: case Kind::Texture: case Kind::Surface: return 8;
    case Kind::Scalar: return (uint32_t)bytes.size();
    case Kind::Struct: return structBytes;
  }
  return 0;
}

const BufferSpec* CaseSpec::findBuffer(const std::string& n) const {
  for (auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}
const ImageSpec* CaseSpec::findTexture(const std::string& n) const {
  for (auto& t : textures)
    if (t.name == n) return &t;
  return nullptr;
}
const ImageSpec* CaseSpec::findSurface(const std::string& n) const {
  for (auto& s : surfaces)
    if (s.name == n) return &s;
  return nullptr;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return false;
  out = ss.str();
  return true;
}

bool writeFile(const std::string& path, const void* data, size_t n, std::string& err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f.write((const char*)data, (std::streamsize)n);
  if (!f) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool makeDirs(const std::string& path, std::string& err) {
  std::string cur;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    cur = path.substr(0, j);
    if (!cur.empty() && ::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) {
      err = "cannot create directory " + cur + ": " + std::strerror(errno);
      return false;
    }
    i = j + 1;
  }
  return true;
}

namespace {

// Parsing context: every error carries "case.json:line:col: <field path>: message".
struct Ctx {
  std::string& err;
  bool fail(const json::Value& v, const std::string& path, const std::string& msg) {
    err = "case.json:" + v.where() + ": " + path + ": " + msg;
    return false;
  }
};

// Every member of the object `v` must be one of `known`: a misspelt key (an "inti" for "init") would otherwise be
// ignored and its default used silently. The message names the key's path: "buffers.x.inti: unknown key".
bool checkKeys(Ctx& cx, const json::Value& v, const std::string& path, std::initializer_list<const char*> known) {
  for (auto& [k, x] : v.obj) {
    bool ok = false;
    for (const char* n : known) ok = ok || k == n;
    if (ok) continue;
    std::string list;
    for (const char* n : known) list += std::string(list.empty() ? "" : ", ") + n;
    return cx.fail(x, path.empty() ? k : path + "." + k, "unknown key (expected " + list + ")");
  }
  return true;
}

bool getU32(Ctx& cx, const json::Value& v, const std::string& path, uint32_t& out) {
  uint64_t x;
  if (!v.toU64(x) || x > 0xFFFFFFFFull) return cx.fail(v, path, "expected an unsigned 32-bit integer");
  out = (uint32_t)x;
  return true;
}

bool getDim3(Ctx& cx, const json::Value& v, const std::string& path, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  if (v.isNumber()) return getU32(cx, v, path, out[0]);
  if (!v.isArray() || v.arr.empty() || v.arr.size() > 3) return cx.fail(v, path, "expected [x, y, z]");
  for (size_t i = 0; i < v.arr.size(); ++i)
    if (!getU32(cx, v.arr[i], path + "[" + std::to_string(i) + "]", out[i])) return false;
  return true;
}

bool getType(Ctx& cx, const json::Value& obj, const std::string& path, ElemType& t) {
  const json::Value* tv = obj.find("type");
  if (!tv || !tv->isString()) return cx.fail(obj, path, "missing \"type\" (u8..u64, s8..s64, f16, bf16, f32, f64, bits)");
  if (!parseElemType(tv->str, t)) return cx.fail(*tv, path + ".type", "unknown type \"" + tv->str + "\"");
  return true;
}

bool parseInit(Ctx& cx, const json::Value& v, const std::string& path, InitSpec& init) {
  if (!v.isObject() || v.obj.size() != 1)
    return cx.fail(v, path, "expected one of {\"zero\": true}, {\"file\": ...}, {\"fill\": ...}, {\"iota\": ...}, "
                            "{\"random\": ...}");
  auto& [key, body] = v.obj[0];
  std::string p = path + "." + key;
  if (key != "zero" && key != "file" && key != "fill" && key != "iota" && key != "random")
    return cx.fail(body, p, "unknown init kind (expected zero, file, fill, iota or random)");
  if (key == "zero") {
    if (!body.isBool() || !body.b) return cx.fail(body, p, "expected true");
    init.kind = InitSpec::Kind::Zero;
    return true;
  }
  if (key == "file") {
    if (!body.isString() || body.str.empty()) return cx.fail(body, p, "expected a file path");
    init.kind = InitSpec::Kind::File;
    init.file = body.str;
    return true;
  }
  if (!body.isObject()) return cx.fail(body, p, "expected an object");
  if (key == "iota" && !checkKeys(cx, body, p, {"type"})) return false;
  if (key == "fill" && !checkKeys(cx, body, p, {"type", "value"})) return false;
  if (key == "random" && !checkKeys(cx, body, p, {"seed", "type", "lo", "hi"})) return false;
  if (!getType(cx, body, p, init.type)) return false;
  if (key == "iota") {
    if (init.type == ElemType::Bits) return cx.fail(body, p, "iota needs a numeric type, not bits");
    init.kind = InitSpec::Kind::Iota;
    return true;
  }
  if (key == "fill") {
    init.kind = InitSpec::Kind::Fill;
    const json::Value* val = body.find("value");
    if (!val) return cx.fail(body, p, "missing \"value\"");
    init.fillBytes.assign(elemSize(init.type), 0);
    ElemType enc = init.type == ElemType::Bits ? ElemType::U8 : init.type;
    std::string e;
    if (!encodeJsonScalar(enc, *val, init.fillBytes.data(), e)) return cx.fail(*val, p + ".value", e);
    return true;
  }
  if (key == "random") {
    init.kind = InitSpec::Kind::Random;
    const json::Value* seed = body.find("seed");
    if (!seed || !seed->toU64(init.seed)) return cx.fail(seed ? *seed : body, p + ".seed", "expected an unsigned 64-bit seed");
    const json::Value* lo = body.find("lo");
    const json::Value* hi = body.find("hi");
    if (!lo != !hi) return cx.fail(body, p, "give both \"lo\" and \"hi\", or neither");
    if (lo) {
      if (init.type == ElemType::Bits) return cx.fail(*lo, p + ".lo", "type bits takes no range");
      if (!lo->isNumber() || !hi->isNumber()) return cx.fail(*lo, p, "lo and hi must be numbers");
      init.hasRange = true;
      init.lo = *lo;
      init.hi = *hi;
      // Integer bounds must be exact integers of the type, and lo <= hi; float bounds just ordered.
      if (isFloat(init.type)) {
        if (!(lo->num <= hi->num)) return cx.fail(*lo, p, "lo must not exceed hi");
      } else {
        uint8_t tmp[8];
        std::string e;
        if (!encodeJsonScalar(init.type, *lo, tmp, e)) return cx.fail(*lo, p + ".lo", e);
        if (!encodeJsonScalar(init.type, *hi, tmp, e)) return cx.fail(*hi, p + ".hi", e);
        bool ordered;
        if (isSigned(init.type)) {
          int64_t a, b;
          lo->toI64(a);
          hi->toI64(b);
          ordered = a <= b;
        } else {
          uint64_t a, b;
          lo->toU64(a);
          hi->toU64(b);
          ordered = a <= b;
        }
        if (!ordered) return cx.fail(*lo, p, "lo must not exceed hi");
      }
    }
    return true;
  }
  return cx.fail(v, path, "unknown init kind \"" + key + "\"");  // not reached: the kinds were checked above
}

// One leaf or struct value; `allowStruct` is false inside a struct (no nesting in version 1).
bool parseParam(Ctx& cx, const json::Value& v, const std::string& path, bool inStruct, ParamValue& pv) {
  pv.where = path;
  if (!v.isObject()) return cx.fail(v, path, "expected an object");
  for (auto& [k, x] : v.obj) {
    ElemType t;
    bool known = k == "at" || k == "buffer" || k == "offset" || k == "texture" || k == "surface" || k == "struct" ||
                 (parseElemType(k, t) && t != ElemType::Bits);
    if (!known)
      return cx.fail(x, path + "." + k, "unknown key (expected buffer, offset, texture, surface, struct, " +
                                            std::string(inStruct ? "at, " : "") + "or a scalar type u8..u64, s8..s64, "
                                            "f16, bf16, f32, f64)");
  }
  if (const json::Value* off = v.find("offset"); off && !v.find("buffer"))
    return cx.fail(*off, path + ".offset", "\"offset\" belongs to a buffer pointer");
  size_t used = 0;
  const json::Value* at = v.find("at");
  if (inStruct) {
    if (!at) return cx.fail(v, path, "a struct field needs \"at\" (its byte offset)");
    if (!getU32(cx, *at, path + ".at", pv.at)) return false;
    ++used;
  } else if (at) {
    return cx.fail(*at, path + ".at", "\"at\" is only for struct fields");
  }
  if (const json::Value* b = v.find("buffer")) {
    if (!b->isString()) return cx.fail(*b, path + ".buffer", "expected a buffer name");
    pv.kind = ParamValue::Kind::Buffer;
    pv.name = b->str;
    ++used;
    if (const json::Value* off = v.find("offset")) {
      if (!off->toU64(pv.offset)) return cx.fail(*off, path + ".offset", "expected an unsigned byte offset");
      ++used;
    }
  } else if (const json::Value* t = v.find("texture")) {
    if (!t->isString()) return cx.fail(*t, path + ".texture", "expected a texture name");
    pv.kind = ParamValue::Kind::Texture;
    pv.name = t->str;
    ++used;
  } else if (const json::Value* s = v.find("surface")) {
    if (!s->isString()) return cx.fail(*s, path + ".surface", "expected a surface name");
    pv.kind = ParamValue::Kind::Surface;
    pv.name = s->str;
    ++used;
  } else if (const json::Value* st = v.find("struct")) {
    if (inStruct) return cx.fail(*st, path + ".struct", "structs do not nest");
    std::string sp = path + ".struct";
    if (!st->isObject()) return cx.fail(*st, sp, "expected {\"bytes\": n, \"fields\": [...]}");
    if (!checkKeys(cx, *st, sp, {"bytes", "fields"})) return false;
    pv.kind = ParamValue::Kind::Struct;
    const json::Value* nb = st->find("bytes");
    if (!nb) return cx.fail(*st, sp, "missing \"bytes\"");
    if (!getU32(cx, *nb, sp + ".bytes", pv.structBytes)) return false;
    if (const json::Value* fs = st->find("fields")) {
      if (!fs->isArray()) return cx.fail(*fs, sp + ".fields", "expected an array");
      for (size_t i = 0; i < fs->arr.size(); ++i) {
        ParamValue f;
        if (!parseParam(cx, fs->arr[i], sp + ".fields[" + std::to_string(i) + "]", true, f)) return false;
        pv.fields.push_back(std::move(f));
      }
    }
    ++used;
  } else {
    // A scalar: exactly one member named by a type.
    const std::pair<std::string, json::Value>* found = nullptr;
    for (auto& kv : v.obj) {
      ElemType t;
      if (kv.first == "at" || !parseElemType(kv.first, t) || t == ElemType::Bits) continue;
      if (found) return cx.fail(v, path, "more than one value in one parameter");
      found = &kv;
      pv.kind = ParamValue::Kind::Scalar;
      pv.type = t;
    }
    if (!found)
      return cx.fail(v, path, "expected buffer, texture, surface, struct or a scalar (u8..u64, s8..s64, f16, bf16, "
                              "f32, f64)");
    pv.bytes.assign(elemSize(pv.type), 0);
    std::string e;
    if (!encodeJsonScalar(pv.type, found->second, pv.bytes.data(), e)) return cx.fail(found->second, path + "." + found->first, e);
    ++used;
  }
  if (used != v.obj.size()) return cx.fail(v, path, "more than one value in one parameter");
  return true;
}

bool knownFormat(const std::string& f) {
  static const char* kFormats[] = {"r8", "rg8", "rgba8", "r16f", "rg16f", "rgba16f", "r32f", "rg32f", "rgba32f",
                                   "r32ui", "r11g11b10f"};
  for (auto* k : kFormats)
    if (f == k) return true;
  return false;
}

bool parseImages(Ctx& cx, const json::Value& v, const std::string& path, bool texture, std::vector<ImageSpec>& out) {
  if (!v.isObject()) return cx.fail(v, path, "expected an object of name: {...}");
  for (auto& [name, im] : v.obj) {
    std::string p = path + "." + name;
    if (!im.isObject()) return cx.fail(im, p, "expected an object");
    if (texture ? !checkKeys(cx, im, p, {"format", "width", "height", "depth", "dims", "layered", "init", "filter",
                                         "address", "normalized"})
                : !checkKeys(cx, im, p, {"format", "width", "height", "depth", "dims", "layered", "init"}))
      return false;
    ImageSpec s;
    s.name = name;
    const json::Value* f = im.find("format");
    if (!f || !f->isString() || !knownFormat(f->str))
      return cx.fail(f ? *f : im, p + ".format", "expected one of r8 rg8 rgba8 r16f rg16f rgba16f r32f rg32f rgba32f "
                                                "r32ui r11g11b10f");
    s.format = f->str;
    const json::Value* w = im.find("width");
    const json::Value* h = im.find("height");
    if (!w || !getU32(cx, *w, p + ".width", s.width) || s.width == 0) return cx.fail(w ? *w : im, p + ".width", "expected a positive width");
    if (!h || !getU32(cx, *h, p + ".height", s.height) || s.height == 0) return cx.fail(h ? *h : im, p + ".height", "expected a positive height");
    if (const json::Value* d = im.find("depth"))
      if (!getU32(cx, *d, p + ".depth", s.depth)) return false;
    if (const json::Value* d = im.find("dims"))
      if (!getU32(cx, *d, p + ".dims", s.dims)) return false;
    if (const json::Value* x = im.find("layered")) {
      if (!x->isBool()) return cx.fail(*x, p + ".layered", "expected true or false");
      s.layered = x->b;
    }
    if (const json::Value* init = im.find("init"))
      if (!parseInit(cx, *init, p + ".init", s.init)) return false;
    if (texture) {
      if (const json::Value* x = im.find("filter")) {
        if (!x->isString()) return cx.fail(*x, p + ".filter", "expected \"point\" or \"linear\"");
        s.filter = x->str;
      }
      if (const json::Value* x = im.find("address")) {
        if (!x->isString()) return cx.fail(*x, p + ".address", "expected \"clamp\", \"wrap\", \"mirror\" or \"border\"");
        s.address = x->str;
      }
      if (const json::Value* x = im.find("normalized")) {
        if (!x->isBool()) return cx.fail(*x, p + ".normalized", "expected true or false");
        s.normalized = x->b;
      }
    }
    std::string e;
    if (!checkImageSpec(s, texture, p, e)) return cx.fail(im, p, e);
    out.push_back(std::move(s));
  }
  return true;
}

bool parseBuffers(Ctx& cx, const json::Value& v, CaseSpec& c) {
  if (!v.isObject()) return cx.fail(v, "buffers", "expected an object of name: {\"bytes\": n, \"init\": ...}");
  for (auto& [name, b] : v.obj) {
    std::string p = "buffers." + name;
    if (!b.isObject()) return cx.fail(b, p, "expected an object");
    if (!checkKeys(cx, b, p, {"bytes", "init"})) return false;
    BufferSpec s;
    s.name = name;
    const json::Value* nb = b.find("bytes");
    if (!nb || !nb->toU64(s.bytes)) return cx.fail(nb ? *nb : b, p + ".bytes", "expected the size in bytes");
    if (s.bytes > (uint64_t(1) << 40)) return cx.fail(*nb, p + ".bytes", "buffer larger than 1 TiB");
    if (const json::Value* init = b.find("init"))
      if (!parseInit(cx, *init, p + ".init", s.init)) return false;
    c.buffers.push_back(std::move(s));
  }
  return true;
}

bool parseOutputs(Ctx& cx, const json::Value& v, CaseSpec& c) {
  if (!v.isArray()) return cx.fail(v, "outputs", "expected an array");
  for (size_t i = 0; i < v.arr.size(); ++i) {
    const json::Value& o = v.arr[i];
    std::string p = "outputs[" + std::to_string(i) + "]";
    if (!o.isObject()) return cx.fail(o, p, "expected {\"buffer\": name, \"type\": t}");
    if (!checkKeys(cx, o, p, {"buffer", "surface", "type"})) return false;
    if (o.find("buffer") && o.find("surface")) return cx.fail(o, p, "name a buffer or a surface, not both");
    OutputSpec s;
    const json::Value* b = o.find("buffer");
    const json::Value* sf = o.find("surface");
    if (b && b->isString()) {
      s.name = b->str;
      if (!c.findBuffer(s.name)) return cx.fail(*b, p + ".buffer", "unknown buffer \"" + s.name + "\"");
    } else if (sf && sf->isString()) {
      s.surface = true;
      s.name = sf->str;
      if (!c.findSurface(s.name)) return cx.fail(*sf, p + ".surface", "unknown surface \"" + s.name + "\"");
    } else {
      return cx.fail(o, p, "expected \"buffer\" or \"surface\" naming what to compare");
    }
    if (o.find("type") && !getType(cx, o, p, s.type)) return false;
    c.outputs.push_back(std::move(s));
  }
  // A case that compares nothing would pass whatever the kernel did.
  if (c.outputs.empty()) return cx.fail(v, "outputs", "names no output; give at least one buffer or surface to compare");
  return true;
}

bool checkNames(Ctx& cx, const json::Value& root, const CaseSpec& c, const ParamValue& pv) {
  const char* what = nullptr;
  bool ok = true;
  switch (pv.kind) {
    case ParamValue::Kind::Buffer: {
      const BufferSpec* b = c.findBuffer(pv.name);
      if (!b) { what = "buffer"; ok = false; break; }
      // A pointer must point into its buffer (offset 0 is the buffer itself, also for an empty one).
      if (pv.offset != 0 && pv.offset >= b->bytes) {
        cx.err = "case.json: " + pv.where + ".offset: " + std::to_string(pv.offset) + " is not inside buffer \"" +
                 pv.name + "\" (" + std::to_string(b->bytes) + " bytes)";
        return false;
      }
      break;
    }
    case ParamValue::Kind::Texture: ok = c.findTexture(pv.name) != nullptr; what = "texture"; break;
    case ParamValue::Kind::Surface: ok = c.findSurface(pv.name) != nullptr; what = "surface"; break;
    case ParamValue::Kind::Struct:
      for (auto& f : pv.fields)
        if (!checkNames(cx, root, c, f)) return false;
      break;
    case ParamValue::Kind::Scalar: break;
  }
  if (!ok) {
    cx.err = "case.json: " + pv.where + ": unknown " + what + " \"" + pv.name + "\"";
    return false;
  }
  return true;
}

std::string baseName(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  size_t s = dir.rfind('/');
  return s == std::string::npos ? dir : dir.substr(s + 1);
}

}  // namespace

bool parseCase(const std::string& text, const std::string& dir, CaseSpec& c, std::string& err) {
  c = CaseSpec();
  c.dir = dir;
  c.name = baseName(dir);
  json::Value root;
  std::string perr;
  if (!json::parse(text, root, perr)) {
    err = "case.json:" + perr;
    return false;
  }
  Ctx cx{err};
  if (!root.isObject()) return cx.fail(root, "case", "expected a JSON object");
  for (const char* later : {"frames", "between"})
    if (const json::Value* x = root.find(later))
      return cx.fail(*x, later, "not part of version 1 of the case format (docs/CASE_FORMAT.md); this runner cannot "
                                "run it");
  // "ops" is informational (ptx_corpus/ops: which PTX instruction each output holds, read by docs/make_ops_table.py).
  if (!checkKeys(cx, root, "", {"kernel", "ptx", "grid", "block", "dynamic_shared_bytes", "buffers", "textures",
                                "surfaces", "params", "outputs", "ops"}))
    return false;
  if (const json::Value* ops = root.find("ops")) {
    if (!ops->isObject()) return cx.fail(*ops, "ops", "expected an object of output name: \"PTX instruction\"");
    for (auto& [k, x] : ops->obj)
      if (!x.isString()) return cx.fail(x, "ops." + k, "expected a string (the PTX instruction)");
  }
  const json::Value* k = root.find("kernel");
  if (!k || !k->isString() || k->str.empty()) return cx.fail(k ? *k : root, "kernel", "missing kernel name");
  c.kernel = k->str;
  std::string ptx = "kernel.ptx";
  if (const json::Value* p = root.find("ptx")) {
    if (!p->isString() || p->str.empty()) return cx.fail(*p, "ptx", "expected a file name");
    ptx = p->str;
  }
  c.ptx = (!ptx.empty() && ptx[0] == '/') ? ptx : dir + "/" + ptx;
  const json::Value* g = root.find("grid");
  const json::Value* b = root.find("block");
  if (!g) return cx.fail(root, "grid", "missing grid [x, y, z]");
  if (!b) return cx.fail(root, "block", "missing block [x, y, z]");
  if (!getDim3(cx, *g, "grid", c.grid) || !getDim3(cx, *b, "block", c.block)) return false;
  if (const json::Value* d = root.find("dynamic_shared_bytes"))
    if (!getU32(cx, *d, "dynamic_shared_bytes", c.dynamicSharedBytes)) return false;
  if (const json::Value* v = root.find("buffers"))
    if (!parseBuffers(cx, *v, c)) return false;
  if (const json::Value* v = root.find("textures"))
    if (!parseImages(cx, *v, "textures", true, c.textures)) return false;
  if (const json::Value* v = root.find("surfaces"))
    if (!parseImages(cx, *v, "surfaces", false, c.surfaces)) return false;
  if (const json::Value* v = root.find("params")) {
    if (!v->isArray()) return cx.fail(*v, "params", "expected an array, one entry per .param");
    for (size_t i = 0; i < v->arr.size(); ++i) {
      ParamValue pv;
      if (!parseParam(cx, v->arr[i], "params[" + std::to_string(i) + "]", false, pv)) return false;
      if (!checkNames(cx, root, c, pv)) return false;
      c.params.push_back(std::move(pv));
    }
  }
  if (const json::Value* v = root.find("outputs")) {
    if (!parseOutputs(cx, *v, c)) return false;
  } else {
    // Default (CASE_FORMAT.md): every buffer and surface, compared as raw bytes.
    for (auto& bs : c.buffers) c.outputs.push_back({false, bs.name, ElemType::Bits});
    for (auto& s : c.surfaces) c.outputs.push_back({true, s.name, ElemType::Bits});
  }
  if (!checkLaunchShape(c, err)) return false;
  if (c.outputs.empty()) return cx.fail(root, "outputs", "the case has no buffer or surface to compare");
  return true;
}

bool checkLaunchShape(const CaseSpec& c, std::string& err) {
  const char* axis[3] = {"x", "y", "z"};
  const uint32_t blockMax[3] = {1024, 1024, 64};
  const uint64_t gridMax[3] = {0x7FFFFFFFull, 65535, 65535};
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (c.grid[i] == 0 || c.block[i] == 0) {
      err = std::string("case.json: ") + (c.grid[i] == 0 ? "grid" : "block") + "." + axis[i] + " is 0";
      return false;
    }
    if (c.block[i] > blockMax[i]) {
      err = std::string("case.json: block.") + axis[i] + " = " + std::to_string(c.block[i]) + " exceeds " +
            std::to_string(blockMax[i]);
      return false;
    }
    if (c.grid[i] > gridMax[i]) {
      err = std::string("case.json: grid.") + axis[i] + " = " + std::to_string(c.grid[i]) + " exceeds " +
            std::to_string(gridMax[i]);
      return false;
    }
    threads *= c.block[i];
  }
  if (threads > 1024) {
    err = "case.json: block has " + std::to_string(threads) + " threads, more than 1024";
    return false;
  }
  return true;
}

static bool fileSize(const std::string& path, uint64_t& size) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  size = (uint64_t)st.st_size;
  return true;
}

static bool checkInitFile(const CaseSpec& c, const InitSpec& init, uint64_t bytes, const std::string& what,
                          std::string& err) {
  if (init.kind != InitSpec::Kind::File) return true;
  std::string path = init.file[0] == '/' ? init.file : c.dir + "/" + init.file;
  uint64_t size;
  if (!fileSize(path, size)) {
    err = c.name + ": " + what + ".init.file: cannot read " + path;
    return false;
  }
  if (size > bytes) {
    err = c.name + ": " + what + ".init.file: " + path + " has " + std::to_string(size) + " bytes, more than the " +
          std::to_string(bytes) + " of " + what;
    return false;
  }
  return true;
}

bool loadCase(const std::string& dir, CaseSpec& c, std::string& err) {
  std::string text;
  std::string path = dir + "/case.json";
  if (!readFile(path, text)) {
    err = "cannot read " + path;
    return false;
  }
  std::string e;
  if (!parseCase(text, dir, c, e)) {
    err = baseName(dir) + ": " + e;
    return false;
  }
  uint64_t sz;
  if (!fileSize(c.ptx, sz)) {
    err = c.name + ": missing PTX file " + c.ptx;
    return false;
  }
  for (auto& b : c.buffers)
    if (!checkInitFile(c, b.init, b.bytes, "buffers." + b.name, err)) return false;
  for (auto& t : c.textures)
    if (!checkInitFile(c, t.init, imageBytes(t), "textures." + t.name, err))
      return false;
  for (auto& s : c.surfaces)
    if (!checkInitFile(c, s.init, imageBytes(s), "surfaces." + s.name, err))
      return false;
  return true;
}

}  // namespace p2g
