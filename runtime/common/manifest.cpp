#include "manifest.h"

#include "json.h"

namespace p2g {

namespace {

std::string strList(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json::quote(v[i]);
  return s + "]";
}

struct Reader {
  std::string& err;
  bool fail(const json::Value& v, const std::string& what) {
    err = "manifest:" + v.where() + ": " + what;
    return false;
  }
  bool u32(const json::Value& obj, const char* key, uint32_t& out, bool required = false) {
    const json::Value* v = obj.find(key);
    if (!v) return required ? fail(obj, std::string("missing \"") + key + "\"") : true;
    uint64_t x;
    if (!v->toU64(x) || x > 0xFFFFFFFFull) return fail(*v, std::string("\"") + key + "\": expected an unsigned integer");
    out = (uint32_t)x;
    return true;
  }
  bool str(const json::Value& obj, const char* key, std::string& out, bool required = false) {
    const json::Value* v = obj.find(key);
    if (!v) return required ? fail(obj, std::string("missing \"") + key + "\"") : true;
    if (!v->isString()) return fail(*v, std::string("\"") + key + "\": expected a string");
    out = v->str;
    return true;
  }
  bool boolean(const json::Value& obj, const char* key, bool& out) {
    const json::Value* v = obj.find(key);
    if (!v) return true;
    if (!v->isBool()) return fail(*v, std::string("\"") + key + "\": expected true or false");
    out = v->b;
    return true;
  }
  bool strs(const json::Value& obj, const char* key, std::vector<std::string>& out) {
    const json::Value* v = obj.find(key);
    if (!v) return true;
    if (!v->isArray()) return fail(*v, std::string("\"") + key + "\": expected an array of strings");
    for (auto& e : v->arr) {
      if (!e.isString()) return fail(e, std::string("\"") + key + "\": expected a string");
      out.push_back(e.str);
    }
    return true;
  }
};

}  // namespace

std::string manifestToJson(const Manifest& m) {
  std::string s = "{\n";
  s += "  \"version\": " + std::to_string(m.version) + ",\n";
  s += "  \"entry\": " + json::quote(m.entry) + ",\n";
  s += "  \"ptx\": " + json::quote(m.ptx) + ",\n";
  s += "  \"params\": [";
  for (size_t i = 0; i < m.params.size(); ++i) {
    const ManifestParam& p = m.params[i];
    s += std::string(i ? ",\n" : "\n") + "    {\"name\": " + json::quote(p.name) + ", \"type\": " + json::quote(p.type) +
         ", \"offset\": " + std::to_string(p.offset) + ", \"bytes\": " + std::to_string(p.bytes) +
         ", \"align\": " + std::to_string(p.align) + ", \"isArray\": " + (p.isArray ? "true" : "false") +
         ", \"isPtr\": " + (p.isPtr ? "true" : "false") + "}";
  }
  s += m.params.empty() ? "],\n" : "\n  ],\n";
  s += "  \"paramBytes\": " + std::to_string(m.paramBytes) + ",\n";
  s += "  \"staticSharedBytes\": " + std::to_string(m.staticSharedBytes) + ",\n";
  s += std::string("  \"dynamicShared\": ") + (m.dynamicShared ? "true" : "false") + ",\n";
  s += "  \"localBytes\": " + std::to_string(m.localBytes) + ",\n";
  s += "  \"reqntid\": [" + std::to_string(m.reqntid[0]) + ", " + std::to_string(m.reqntid[1]) + ", " +
       std::to_string(m.reqntid[2]) + "],\n";
  s += "  \"features\": " + strList(m.features) + ",\n";
  s += "  \"glsl\": " + json::quote(m.glsl) + ",\n";
  s += "  \"spirv\": " + json::quote(m.spirv) + ",\n";
  if (!m.spirvF16.empty()) s += "  \"spirvF16\": " + json::quote(m.spirvF16) + ",\n";
  s += "  \"warnings\": " + strList(m.warnings) + ",\n";
  s += "  \"globalsBytes\": " + std::to_string(m.globalsBytes) + ",\n";
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : m.globalsInit) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  s += "  \"globalsInit\": \"" + hex + "\"";
  if (!m.images.empty()) {
    s += ",\n  \"images\": [";
    for (size_t i = 0; i < m.images.size(); ++i) {
      const ManifestImage& im = m.images[i];
      s += std::string(i ? ",\n" : "\n") + "    {\"kind\": " + json::quote(im.kind) + ", \"slot\": " +
           std::to_string(im.slot) + ", \"param\": " + json::quote(im.param) + ", \"offset\": " +
           std::to_string(im.offset) + ", \"texref\": " + json::quote(im.texref) + ", \"dims\": " +
           std::to_string(im.dims) + ", \"layered\": " + (im.layered ? "true" : "false") + ", \"uses\": " +
           strList(im.uses) + "}";
    }
    s += "\n  ]";
  }
  if (!m.paramMap.empty()) {
    s += ",\n  \"paramMap\": [";
    for (size_t i = 0; i < m.paramMap.size(); ++i) {
      const ManifestParamField& f = m.paramMap[i];
      s += std::string(i ? ",\n" : "\n") + "    {\"offset\": " + std::to_string(f.offset) + ", \"bytes\": " +
           std::to_string(f.bytes) + ", \"type\": " + json::quote(f.type) + ", \"kind\": " + json::quote(f.kind) +
           ", \"uses\": " + strList(f.uses) + "}";
    }
    s += "\n  ]";
  }
  if (!m.sfuTables.empty()) {
    s += ",\n  \"sfuDir\": " + std::to_string(m.sfuDir);
    s += ",\n  \"sfuTables\": " + strList(m.sfuTables);
  }
  if (m.loopGuard) s += ",\n  \"loopGuard\": " + std::to_string(m.loopGuardAt);
  if (m.blockThreads) s += ",\n  \"blockThreads\": " + std::to_string(m.blockThreads);
  if (m.checkBounds) s += ",\n  \"checkBounds\": {\"globalVarBytes\": " + std::to_string(m.globalVarBytes) + "}";
  return s + "\n}\n";
}

bool manifestFromJson(const std::string& text, Manifest& m, std::string& err) {
  m = Manifest();
  json::Value root;
  std::string perr;
  if (!json::parse(text, root, perr)) {
    err = "manifest:" + perr;
    return false;
  }
  Reader r{err};
  if (!root.isObject()) return r.fail(root, "expected a JSON object");
  uint32_t version = 1;
  if (!r.u32(root, "version", version)) return false;
  if (version != 1) return r.fail(root, "unsupported manifest version " + std::to_string(version));
  m.version = (int)version;
  if (!r.str(root, "entry", m.entry, true) || !r.str(root, "ptx", m.ptx)) return false;
  if (const json::Value* ps = root.find("params")) {
    if (!ps->isArray()) return r.fail(*ps, "\"params\": expected an array");
    for (auto& p : ps->arr) {
      if (!p.isObject()) return r.fail(p, "\"params\": expected objects");
      ManifestParam mp;
      if (!r.str(p, "name", mp.name, true) || !r.str(p, "type", mp.type) || !r.u32(p, "offset", mp.offset, true) ||
          !r.u32(p, "bytes", mp.bytes, true) || !r.u32(p, "align", mp.align) || !r.boolean(p, "isArray", mp.isArray) ||
          !r.boolean(p, "isPtr", mp.isPtr))
        return false;
      m.params.push_back(std::move(mp));
    }
  }
  if (!r.u32(root, "paramBytes", m.paramBytes) || !r.u32(root, "staticSharedBytes", m.staticSharedBytes) ||
      !r.boolean(root, "dynamicShared", m.dynamicShared) || !r.u32(root, "localBytes", m.localBytes))
    return false;
  if (const json::Value* rq = root.find("reqntid")) {
    if (!rq->isArray() || rq->arr.size() != 3) return r.fail(*rq, "\"reqntid\": expected [x, y, z]");
    for (int i = 0; i < 3; ++i) {
      uint64_t x;
      if (!rq->arr[i].toU64(x) || x > 0xFFFFFFFFull) return r.fail(rq->arr[i], "\"reqntid\": expected unsigned integers");
      m.reqntid[i] = (uint32_t)x;
    }
  }
  if (!r.strs(root, "features", m.features) || !r.str(root, "glsl", m.glsl) || !r.str(root, "spirv", m.spirv) ||
      !r.str(root, "spirvF16", m.spirvF16) ||
      !r.strs(root, "warnings", m.warnings) || !r.u32(root, "globalsBytes", m.globalsBytes))
    return false;
  // globalsInit: the initial bytes of the module's .global variables, as lowercase or uppercase hex.
  if (const json::Value* g = root.find("globalsInit")) {
    if (!g->isString() || g->str.size() % 2) return r.fail(*g, "\"globalsInit\": expected an even-length hex string");
    auto nib = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
    for (size_t i = 0; i < g->str.size(); i += 2) {
      int hi = nib(g->str[i]), lo = nib(g->str[i + 1]);
      if (hi < 0 || lo < 0) return r.fail(*g, "\"globalsInit\": not a hex digit at " + std::to_string(i));
      m.globalsInit.push_back((uint8_t)(hi * 16 + lo));
    }
    if (m.globalsInit.size() > m.globalsBytes) return r.fail(*g, "\"globalsInit\" is longer than globalsBytes");
  }
  if (const json::Value* is = root.find("images")) {
    if (!is->isArray()) return r.fail(*is, "\"images\": expected an array");
    for (auto& e : is->arr) {
      if (!e.isObject()) return r.fail(e, "\"images\": expected objects");
      ManifestImage im;
      if (!r.str(e, "kind", im.kind, true) || !r.u32(e, "slot", im.slot) || !r.str(e, "param", im.param) ||
          !r.u32(e, "offset", im.offset) || !r.str(e, "texref", im.texref) || !r.u32(e, "dims", im.dims) ||
          !r.boolean(e, "layered", im.layered) || !r.strs(e, "uses", im.uses))
        return false;
      if (im.kind != "texture" && im.kind != "surface") return r.fail(e, "\"kind\": expected texture or surface");
      m.images.push_back(std::move(im));
    }
  }
  if (const json::Value* pm = root.find("paramMap")) {
    if (!pm->isArray()) return r.fail(*pm, "\"paramMap\": expected an array");
    for (auto& e : pm->arr) {
      if (!e.isObject()) return r.fail(e, "\"paramMap\": expected objects");
      ManifestParamField f;
      if (!r.u32(e, "offset", f.offset, true) || !r.u32(e, "bytes", f.bytes) || !r.str(e, "type", f.type) ||
          !r.str(e, "kind", f.kind, true) || !r.strs(e, "uses", f.uses))
        return false;
      m.paramMap.push_back(std::move(f));
    }
  }
  if (!r.strs(root, "sfuTables", m.sfuTables) || !r.u32(root, "sfuDir", m.sfuDir)) return false;
  if (!m.sfuTables.empty() && (m.sfuDir % 4 || uint64_t(m.sfuDir) + 4 * m.sfuTables.size() > m.globalsBytes))
    return r.fail(root, "\"sfuDir\": the SFU table directory does not fit in globalsBytes");
  m.loopGuard = root.find("loopGuard") != nullptr;
  if (m.loopGuard && (!r.u32(root, "loopGuard", m.loopGuardAt, true) || m.loopGuardAt % 4 ||
                      uint64_t(m.loopGuardAt) + 4 > m.globalsBytes))
    return r.fail(root, "\"loopGuard\": expected a 4-byte-aligned offset inside globalsBytes");
  if (!r.u32(root, "blockThreads", m.blockThreads)) return false;
  if (const json::Value* cb = root.find("checkBounds")) {
    if (!cb->isObject()) return r.fail(*cb, "\"checkBounds\": expected {\"globalVarBytes\": n}");
    m.checkBounds = true;
    if (!r.u32(*cb, "globalVarBytes", m.globalVarBytes, true)) return false;
    if (m.globalVarBytes > m.globalsBytes) return r.fail(*cb, "\"globalVarBytes\" exceeds globalsBytes");
  }
  return true;
}

}  // namespace p2g
