#include "params.h"

#include <algorithm>
#include <cstring>

#include "images.h"

namespace p2g {

namespace {

std::string describe(const ManifestParam& p) {
  std::string t = p.isArray ? ".b8[" + std::to_string(p.bytes) + "]" : "." + p.type;
  return std::to_string(p.bytes) + "-byte " + t + " param";
}

const char* kindName(const ParamValue& v) {
  switch (v.kind) {
    case ParamValue::Kind::Buffer: return "buffer pointer";
    case ParamValue::Kind::Texture: return "texture handle";
    case ParamValue::Kind::Surface: return "surface handle";
    case ParamValue::Kind::Struct: return "struct";
    case ParamValue::Kind::Scalar: return elemTypeName(v.type);
  }
  return "?";
}

bool checkStructFields(const ParamValue& s, const std::string& label, std::string& err) {
  std::vector<const ParamValue*> order;
  for (auto& f : s.fields) {
    if ((uint64_t)f.at + f.size() > s.structBytes) {
      err = f.where + ": " + kindName(f) + " at byte " + std::to_string(f.at) + " (" + std::to_string(f.size()) +
            " bytes) lies outside the " + std::to_string(s.structBytes) + "-byte struct " + label;
      return false;
    }
    order.push_back(&f);
  }
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->at < b->at; });
  for (size_t i = 1; i < order.size(); ++i) {
    const ParamValue *a = order[i - 1], *b = order[i];
    if ((uint64_t)a->at + a->size() > b->at) {
      err = b->where + ": field at byte " + std::to_string(b->at) + " overlaps " + a->where + " (bytes " +
            std::to_string(a->at) + ".." + std::to_string(a->at + a->size() - 1) + ") in " + label;
      return false;
    }
  }
  return true;
}

// Writes one leaf value (scalar, pointer or handle) at `p`.
void writeLeaf(const ParamValue& v, const AddressFn& addressOf, uint8_t* p) {
  uint64_t x = 0;
  switch (v.kind) {
    case ParamValue::Kind::Scalar: std::memcpy(p, v.bytes.data(), v.bytes.size()); return;
    case ParamValue::Kind::Buffer: x = addressOf('b', v.name) + v.offset; break;
    case ParamValue::Kind::Texture: x = addressOf('t', v.name); break;
    case ParamValue::Kind::Surface: x = addressOf('s', v.name); break;
    case ParamValue::Kind::Struct: return;
  }
  std::memcpy(p, &x, 8);
}

// Whether a scalar given as `given` may fill a PTX value of type `ptx` ("u32", "f16", "b64"...; sizes already
// match). "" when it may, else what is expected.
std::string scalarKindMismatch(ElemType given, const std::string& ptx) {
  if (ptx.size() < 2) return "";
  char k = ptx[0];
  bool fl = isFloat(given);
  if (ptx == "f16") return given == ElemType::F16 ? "" : "f16";
  if (ptx == "bf16") return given == ElemType::BF16 ? "" : "bf16";
  if (k == 'f') return fl && std::string(elemTypeName(given)) == ptx ? "" : ptx;
  if (k == 'u' || k == 's') {
    if (!fl) return "";
    std::string n = ptx.substr(1);
    return "an integer (u" + n + " or s" + n + ")";
  }
  return "";  // .bN: untyped bits, any kind of that size
}

const char* valueKind(const ParamValue& v) {
  switch (v.kind) {
    case ParamValue::Kind::Buffer: return "a buffer";
    case ParamValue::Kind::Texture: return "a texture";
    case ParamValue::Kind::Surface: return "a surface";
    case ParamValue::Kind::Struct: return "a struct";
    case ParamValue::Kind::Scalar: break;
  }
  return "a scalar";
}

std::string usesText(const ManifestParamField& f) {
  std::string u;
  for (auto& x : f.uses) u += (u.empty() ? "" : ", ") + x;
  return u.empty() ? "" : " (" + u + ")";
}

// One leaf value against the paramMap entry at its offset (nullptr: the kernel never loads it at a constant offset).
bool checkLeaf(const CaseSpec& c, const Manifest& m, const ParamValue& v, const std::string& label,
               const ManifestParamField* f, bool declaredPtr, std::string& err) {
  std::string want = f ? f->kind : "";
  if (declaredPtr) want = "buffer";
  if (want == "buffer" && v.kind != ParamValue::Kind::Buffer) {
    err = label + ": " + valueKind(v) + " given for a value the kernel uses as a memory address" +
          (f && f->kind == "buffer" ? usesText(*f) : std::string(" (declared .ptr)")) + "; give {\"buffer\": name}";
    return false;
  }
  if (want == "texture" || want == "surface") {
    bool tex = want == "texture";
    if (v.kind != (tex ? ParamValue::Kind::Texture : ParamValue::Kind::Surface)) {
      err = label + ": " + valueKind(v) + " given for a " + want + " handle" + usesText(*f) + "; give {\"" + want +
            "\": name}";
      return false;
    }
    const ImageSpec* im = tex ? c.findTexture(v.name) : c.findSurface(v.name);
    for (auto& mi : m.images) {
      if (!mi.texref.empty() || mi.offset != f->offset || !im) continue;
      if (mi.dims && mi.dims != imageDims(*im)) {
        err = label + ": " + want + " \"" + v.name + "\" has " + std::to_string(imageDims(*im)) +
              " dimension(s), but the kernel uses it as " + std::to_string(mi.dims) + "D" + usesText(*f);
        return false;
      }
      if (mi.dims && mi.layered != im->layered) {
        err = label + ": " + want + " \"" + v.name + "\" is " + (im->layered ? "" : "not ") +
              "layered, but the kernel's instructions" + usesText(*f) + " are " + (mi.layered ? "" : "not ") +
              "layered";
        return false;
      }
    }
  }
  return true;
}

}  // namespace

bool validateAgainstKernel(const CaseSpec& c, const Manifest& m, std::string& e) {
  std::string err;
  auto fail = [&](const std::string& msg) {
    e = c.name + ": case.json: " + msg;
    return false;
  };
  auto fieldAt = [&](uint32_t at) -> const ManifestParamField* {
    for (auto& f : m.paramMap)
      if (f.offset == at) return &f;
    return nullptr;
  };
  for (size_t i = 0; i < m.params.size() && i < c.params.size(); ++i) {
    const ManifestParam& lp = m.params[i];
    const ParamValue& pv = c.params[i];
    std::string label = pv.where + " (" + lp.name + ")";
    if (pv.kind != ParamValue::Kind::Struct) {
      if (pv.kind == ParamValue::Kind::Scalar && !lp.isArray) {
        std::string w = scalarKindMismatch(pv.type, lp.type);
        if (!w.empty())
          return fail(label + ": " + elemTypeName(pv.type) + " given for a ." + lp.type + " param; give " + w);
      }
      if (!checkLeaf(c, m, pv, label, fieldAt(lp.offset), lp.isPtr, err)) return fail(err);
      continue;
    }
    // A struct: every field against the map, and every address or handle the kernel loads from it must be given.
    for (auto& f : pv.fields)
      if (!checkLeaf(c, m, f, f.where, fieldAt(lp.offset + f.at), false, err)) return fail(err);
    for (auto& mf : m.paramMap) {
      if (mf.kind == "scalar" || mf.offset < lp.offset || mf.offset >= lp.offset + lp.bytes) continue;
      uint32_t at = mf.offset - lp.offset;
      bool given = false;
      for (auto& f : pv.fields) given = given || f.at == at;
      if (!given)
        return fail(label + ".struct: no field at byte " + std::to_string(at) + ", which the kernel uses as a " +
                    (mf.kind == "buffer" ? "memory address" : mf.kind + " handle") + usesText(mf) + "; give {\"at\": " +
                    std::to_string(at) + ", \"" + mf.kind + "\": name}");
    }
  }
  return true;
}

bool validateParams(const CaseSpec& c, const std::vector<ManifestParam>& layout, std::string& e) {
  std::string err;
  auto fail = [&](const std::string& m) {
    e = c.name + ": case.json: " + m;
    return false;
  };
  if (c.params.size() != layout.size())
    return fail("params has " + std::to_string(c.params.size()) + " entries, but kernel " + c.kernel + " declares " +
                std::to_string(layout.size()) + " .param");
  for (size_t i = 0; i < layout.size(); ++i) {
    const ManifestParam& lp = layout[i];
    const ParamValue& pv = c.params[i];
    std::string label = pv.where + " (" + lp.name + ")";
    switch (pv.kind) {
      case ParamValue::Kind::Buffer:
      case ParamValue::Kind::Texture:
      case ParamValue::Kind::Surface:
        if (lp.bytes != 8) return fail(label + ": " + kindName(pv) + " (8 bytes) given for a " + describe(lp));
        break;
      case ParamValue::Kind::Scalar:
        if (pv.size() != lp.bytes) return fail(label + ": " + kindName(pv) + " given for a " + describe(lp));
        break;
      case ParamValue::Kind::Struct:
        if (pv.structBytes != lp.bytes)
          return fail(label + ": struct of " + std::to_string(pv.structBytes) + " bytes given for a " + describe(lp));
        if (!checkStructFields(pv, label, err)) return fail(err);
        break;
    }
  }
  return true;
}

bool buildParamBlock(const CaseSpec& c, const std::vector<ManifestParam>& layout, uint32_t blockBytes,
                     const AddressFn& addressOf, std::vector<uint8_t>& out, std::string& err) {
  if (!validateParams(c, layout, err)) return false;
  uint64_t end = 0;
  for (auto& p : layout) end = std::max<uint64_t>(end, (uint64_t)p.offset + p.bytes);
  if (blockBytes != 0 && end > blockBytes) {
    err = c.name + ": parameter layout ends at byte " + std::to_string(end) + ", past the block's " +
          std::to_string(blockBytes) + " bytes";
    return false;
  }
  out.assign(blockBytes ? blockBytes : end, 0);
  for (size_t i = 0; i < layout.size(); ++i) {
    const ParamValue& pv = c.params[i];
    uint8_t* base = out.data() + layout[i].offset;
    if (pv.kind == ParamValue::Kind::Struct) {
      for (auto& f : pv.fields) writeLeaf(f, addressOf, base + f.at);
    } else {
      writeLeaf(pv, addressOf, base);
    }
  }
  return true;
}

}  // namespace p2g
