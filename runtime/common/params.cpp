#include "params.h"

#include <algorithm>
#include <cstring>

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

}  // namespace

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
