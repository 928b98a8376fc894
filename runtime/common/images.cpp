#include "images.h"

#include <cstring>

namespace p2g {

namespace {

const FormatInfo kFormats[] = {
    {"r8", 1, 1, false, true},     {"rg8", 2, 1, false, true},    {"rgba8", 4, 1, false, true},
    {"r16f", 1, 2, true, false},   {"rg16f", 2, 2, true, false},  {"rgba16f", 4, 2, true, false},
    {"r32f", 1, 4, true, false},   {"rg32f", 2, 4, true, false},  {"rgba32f", 4, 4, true, false},
    {"r32ui", 1, 4, false, false},
    // CUDA has no R11G11B10F array format: DLSS packs it in its own code and stores the word with sust.b.b32, so
    // a case's r11g11b10f image is one 32-bit unsigned channel in every runner (docs/TEXTURES.md).
    {"r11g11b10f", 1, 4, false, false},
};
static_assert(sizeof kFormats / sizeof kFormats[0] == (size_t)TexFormat::Count);

void put32(std::vector<uint8_t>& v, size_t at, uint32_t x) { std::memcpy(v.data() + at, &x, 4); }

}  // namespace

bool parseTexFormat(const std::string& s, TexFormat& out) {
  for (uint32_t i = 0; i < (uint32_t)TexFormat::Count; ++i)
    if (s == kFormats[i].name) {
      out = (TexFormat)i;
      return true;
    }
  return false;
}

const FormatInfo& formatInfo(TexFormat f) { return kFormats[(uint32_t)f]; }

bool parseTexAddress(const std::string& s, TexAddress& out) {
  if (s == "wrap") out = TexAddress::Wrap;
  else if (s == "clamp" || s.empty()) out = TexAddress::Clamp;
  else if (s == "mirror") out = TexAddress::Mirror;
  else if (s == "border") out = TexAddress::Border;
  else return false;
  return true;
}

bool parseTexFilter(const std::string& s, TexFilter& out) {
  if (s == "point" || s.empty()) out = TexFilter::Point;
  else if (s == "linear") out = TexFilter::Linear;
  else return false;
  return true;
}

uint32_t imageDims(const ImageSpec& s) {
  if (s.dims) return s.dims;
  return (s.depth > 0 && !s.layered) ? 3 : 2;
}

uint64_t imageTexels(const ImageSpec& s) {
  uint64_t h = imageDims(s) == 1 ? 1 : s.height;
  uint64_t d = s.depth ? s.depth : 1;
  return (uint64_t)s.width * h * d;
}

uint64_t imageBytes(const ImageSpec& s) {
  TexFormat f;
  if (!parseTexFormat(s.format, f)) return 0;
  return imageTexels(s) * texelBytes(f);
}

bool checkImageSpec(const ImageSpec& s, bool texture, const std::string& path, std::string& err) {
  TexFormat f;
  if (!parseTexFormat(s.format, f)) {
    err = "unknown format \"" + s.format + "\"";
    return false;
  }
  if (s.dims > 3) {
    err = "dims must be 1, 2 or 3";
    return false;
  }
  uint32_t dims = imageDims(s);
  if (dims == 1 && s.height != 1) {
    err = "a 1D image (dims 1) has height 1, not " + std::to_string(s.height);
    return false;
  }
  if (dims == 3 && (s.layered || s.depth == 0)) {
    err = "a 3D image needs a depth and cannot be layered";
    return false;
  }
  if (s.layered && s.depth == 0) {
    err = "a layered image needs \"depth\" (the number of layers)";
    return false;
  }
  // Texel offsets are 32-bit in the records and in the generated code.
  if (imageBytes(s) >= (uint64_t(1) << 32)) {
    err = "image larger than 4 GiB";
    return false;
  }
  if (!texture) return true;
  TexFilter fi;
  TexAddress ad;
  if (!parseTexFilter(s.filter, fi)) {
    err = "filter \"" + s.filter + "\": expected point or linear";
    return false;
  }
  if (!parseTexAddress(s.address, ad)) {
    err = "address \"" + s.address + "\": expected clamp, wrap, mirror or border";
    return false;
  }
  // CUDA only filters float results: integer formats read as integers (r32ui, r11g11b10f) cannot be linear.
  const FormatInfo& info = formatInfo(f);
  if (fi == TexFilter::Linear && !info.isFloat && !info.isUnorm) {
    err = "linear filtering needs a float or unorm format, not " + s.format;
    return false;
  }
  // CUDA programming guide, "Texture Memory": wrap and mirror exist for normalized coordinates only.
  if (!s.normalized && (ad == TexAddress::Wrap || ad == TexAddress::Mirror)) {
    err = "address " + s.address + " needs \"normalized\": true (CUDA supports it for normalized coordinates only)";
    return false;
  }
  (void)path;
  return true;
}

std::vector<uint8_t> imageRecord(const ImageSpec& s, bool surface, uint64_t texelAddress) {
  std::vector<uint8_t> r(kImageRecordBytes, 0);
  TexFormat f = TexFormat::R8;
  parseTexFormat(s.format, f);
  TexFilter fi = TexFilter::Point;
  TexAddress ad = TexAddress::Clamp;
  if (!surface) {
    parseTexFilter(s.filter, fi);
    parseTexAddress(s.address, ad);
  }
  uint32_t dims = imageDims(s);
  uint32_t tb = texelBytes(f);
  uint32_t height = dims == 1 ? 1 : s.height;
  uint32_t depth = s.depth ? s.depth : 1;
  std::memcpy(r.data(), &texelAddress, 8);
  put32(r, 8, s.width);
  put32(r, 12, height);
  put32(r, 16, depth);
  put32(r, 20, (uint32_t)f);
  put32(r, 24, tb);
  put32(r, 28, s.width * tb);
  put32(r, 32, s.width * tb * height);
  put32(r, 36, (uint32_t)fi);
  for (int a = 0; a < 3; ++a) put32(r, 40 + 4 * a, (uint32_t)ad);
  put32(r, 52, s.normalized ? 1u : 0u);
  put32(r, 56, (s.layered ? 1u : 0u) | (surface ? 2u : 0u) | (dims << 8));
  put32(r, 60, formatInfo(f).channels);
  return r;
}

uint32_t imageState(const std::vector<uint8_t>& r) {
  if (r.size() < kImageRecordBytes) return 0;
  auto word = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, r.data() + at, 4);
    return v;
  };
  uint32_t format = word(20), texel = word(24), filter = word(36), normalized = word(52), flags = word(56),
           channels = word(60);
  if (channels == 0 || texel % channels != 0) return 0;
  uint32_t cb = texel / channels;
  // each field and where it goes: (value, bit width, first bit)
  const uint32_t fields[][3] = {{format, 4, 0},      {channels, 3, 4},   {cb, 3, 8},           {filter, 1, 12},
                                {word(40), 2, 13},   {word(44), 2, 15},  {word(48), 2, 17},    {normalized, 1, 19},
                                {flags, 10, 20}};
  uint32_t s = 0x80000000u;
  for (auto& f : fields) {
    if (f[0] >> f[1]) return 0;  // does not fit: leave the shader to read the record
    s |= f[0] << f[2];
  }
  return s;
}

}  // namespace p2g
