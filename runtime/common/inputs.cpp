#include "inputs.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace p2g {

namespace {

// Integer range [lo, hi] of a random init, as two's complement 64-bit values.
void intRange(const InitSpec& init, uint64_t& lo, uint64_t& span) {
  uint32_t bits = elemSize(init.type) * 8;
  int64_t slo, shi;
  uint64_t ulo, uhi;
  if (isSigned(init.type)) {
    if (init.hasRange) {
      init.lo.toI64(slo);
      init.hi.toI64(shi);
    } else {
      slo = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
      shi = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
    }
    ulo = (uint64_t)slo;
    uhi = (uint64_t)shi;
  } else {
    if (init.hasRange) {
      init.lo.toU64(ulo);
      init.hi.toU64(uhi);
    } else {
      ulo = 0;
      uhi = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    }
  }
  lo = ulo;
  span = uhi - ulo + 1;  // 0 means the full 2^64 range
}

void randomFill(const InitSpec& init, uint8_t* out, uint64_t bytes) {
  SplitMix64 rng(init.seed);
  if (init.type == ElemType::Bits) {
    for (uint64_t i = 0; i < bytes; i += 8) {
      uint64_t r = rng.next();
      uint8_t le[8];
      for (int k = 0; k < 8; ++k) le[k] = (uint8_t)(r >> (8 * k));
      std::memcpy(out + i, le, bytes - i < 8 ? bytes - i : 8);
    }
    return;
  }
  const uint32_t size = elemSize(init.type);
  const uint64_t count = bytes / size;
  if (isFloat(init.type)) {
    double lo = init.hasRange ? init.lo.num : 0.0;
    double hi = init.hasRange ? init.hi.num : 1.0;
    double width = hi - lo;
    for (uint64_t i = 0; i < count; ++i) {
      double u = (double)(rng.next() >> 11) * 0x1p-53;  // 53 random bits: u uniform in [0, 1)
      // One explicit fused multiply-add: a separate multiply and add could be contracted differently by
      // different compilers and targets (aarch64 fuses by default), which would change input bytes.
      storeFromDouble(init.type, std::fma(width, u, lo), out + i * size);
    }
    return;
  }
  uint64_t lo, span;
  intRange(init, lo, span);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t r = rng.next();
    // Multiply-high maps r to [0, span) (Lemire's method without rejection): unbiased enough for test inputs,
    // branch-free and exactly reproducible.
    uint64_t off = span == 0 ? r : (uint64_t)(((unsigned __int128)r * span) >> 64);
    storeFromInt(init.type, (int64_t)(lo + off), out + i * size);
  }
}

}  // namespace

bool generateInit(const InitSpec& init, uint64_t bytes, const std::string& caseDir, const std::string& what,
                  std::vector<uint8_t>& out, std::string& err) {
  try {
    out.assign(bytes, 0);
  } catch (const std::exception&) {  // bad_alloc / length_error: a case asking for more memory than the host has
    err = what + ": cannot allocate " + std::to_string(bytes) + " bytes for its initial contents";
    return false;
  }
  switch (init.kind) {
    case InitSpec::Kind::Zero:
      return true;
    case InitSpec::Kind::File: {
      std::string path = !init.file.empty() && init.file[0] == '/' ? init.file : caseDir + "/" + init.file;
      std::string data;
      if (!readFile(path, data)) {
        err = what + ": cannot read init file " + path;
        return false;
      }
      if (data.size() > bytes) {
        err = what + ": init file " + path + " has " + std::to_string(data.size()) + " bytes, more than the buffer's " +
              std::to_string(bytes);
        return false;
      }
      std::memcpy(out.data(), data.data(), data.size());
      return true;
    }
    case InitSpec::Kind::Fill: {
      size_t size = init.fillBytes.size();
      for (uint64_t i = 0; size && i + size <= bytes; i += size) std::memcpy(out.data() + i, init.fillBytes.data(), size);
      return true;
    }
    case InitSpec::Kind::Iota: {
      uint32_t size = elemSize(init.type);
      for (uint64_t i = 0; (i + 1) * size <= bytes; ++i) storeFromInt(init.type, (int64_t)i, out.data() + i * size);
      return true;
    }
    case InitSpec::Kind::Random:
      randomFill(init, out.data(), bytes);
      return true;
  }
  return true;
}

}  // namespace p2g
