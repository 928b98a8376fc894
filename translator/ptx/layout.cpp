#include "layout.h"

#include "parser_impl.h"

namespace ptx {

std::vector<p2g::ManifestParam> computeParamLayout(const Function& f, std::string* err) {
  std::vector<p2g::ManifestParam> out;
  out.reserve(f.params.size());
  uint64_t cur = 0;
  for (const VarDecl& v : f.params) {
    auto fail = [&](const std::string& msg) {
      if (err) *err = "parameter '" + std::string(v.name) + "' of '" + std::string(f.name) + "': " + msg;
      return out;
    };
    uint64_t elem = typeBytes(v.type);
    if (elem == 0) return fail("unknown type '." + std::string(v.type) + "'");
    uint64_t lanes = v.vecWidth ? v.vecWidth : 1;
    uint64_t count = 1;
    for (uint64_t d : v.dims) {
      if (d == 0) return fail("unsized array");
      count *= d;
      if (count > (1ull << 32)) return fail("too large");
    }
    uint64_t natural = elem * lanes;  // a vector is aligned to its full size, as in CUDA's float4
    uint64_t align = natural > v.align ? natural : v.align;
    uint64_t offset = (cur + align - 1) / align * align;
    uint64_t bytes = natural * count;
    if (offset + bytes > UINT32_MAX) return fail("parameter block over 4 GiB");
    p2g::ManifestParam p;
    p.name = std::string(v.name);
    p.type = std::string(v.type);
    p.offset = uint32_t(offset);
    p.bytes = uint32_t(bytes);
    p.align = uint32_t(align);
    p.isArray = !v.dims.empty();
    p.isPtr = v.isPtr;
    out.push_back(std::move(p));
    cur = offset + bytes;
  }
  return out;
}

uint32_t paramBlockBytes(const std::vector<p2g::ManifestParam>& params) {
  uint32_t end = 0;
  for (auto& p : params) end = p.offset + p.bytes > end ? p.offset + p.bytes : end;
  return end;
}

uint32_t paramBlockBytes(const Function& f) { return paramBlockBytes(computeParamLayout(f)); }

}  // namespace ptx
