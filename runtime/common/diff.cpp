#include "diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace p2g {

namespace {

uint64_t loadBits(const uint8_t* p, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);  // little-endian
  return v;
}

// Maps a float's bit pattern to an integer that is monotonic in the float's value, so that the difference of two
// keys counts the representable values between them (the ulp distance): +0 and -0 both map to 0.
__int128 orderedKey(uint64_t bits, uint32_t size) {
  uint64_t signBit = uint64_t(1) << (size * 8 - 1);
  __int128 mag = (__int128)(bits & (signBit - 1));
  return (bits & signBit) ? -mag : mag;
}

__int128 intValue(uint64_t bits, ElemType t, uint32_t size) {
  if (!isSigned(t)) return (__int128)bits;
  if (size == 8) return (__int128)(int64_t)bits;
  uint64_t signBit = uint64_t(1) << (size * 8 - 1);
  return (bits & signBit) ? (__int128)bits - ((__int128)1 << (size * 8)) : (__int128)bits;
}

uint64_t clampU64(__int128 v) {
  if (v < 0) v = -v;
  return v > (__int128)std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max() : (uint64_t)v;
}

}  // namespace

DiffStats diffBytes(const uint8_t* a, const uint8_t* b, size_t n, ElemType type) {
  DiffStats d;
  const uint32_t size = elemSize(type);
  const size_t whole = n / size;
  const bool fl = isFloat(type);
  double sumSq = 0, peak = 0;
  uint64_t finite = 0;
  for (size_t i = 0; i < whole; ++i) {
    const uint8_t* pa = a + i * size;
    const uint8_t* pb = b + i * size;
    double va = elemToDouble(type, pa), vb = elemToDouble(type, pb);
    if (std::isfinite(va) && std::isfinite(vb)) {
      double e = va - vb;
      sumSq += e * e;
      peak = std::max(peak, std::fabs(vb));
      ++finite;
    }
    if (std::memcmp(pa, pb, size) == 0) continue;
    ++d.differing;
    uint64_t ba = loadBits(pa, size), bb = loadBits(pb, size);
    __int128 dist = fl ? orderedKey(ba, size) - orderedKey(bb, size) : intValue(ba, type, size) - intValue(bb, type, size);
    d.maxUlp = std::max(d.maxUlp, clampU64(dist));
  }
  d.total = whole;
  if (n % size) {  // a trailing partial element: compared as bytes
    ++d.total;
    size_t off = whole * size;
    if (std::memcmp(a + off, b + off, n - off) != 0) ++d.differing;
  }
  if (d.differing == 0 || finite == 0 || sumSq == 0) {
    d.psnr = std::numeric_limits<double>::infinity();
  } else {
    if (peak == 0) peak = 1;
    double mse = sumSq / (double)finite;
    d.psnr = 10.0 * std::log10(peak * peak / mse);
  }
  return d;
}

std::string formatDiff(const DiffStats& d) {
  if (d.identical()) return "identical";
  char psnr[32];
  if (std::isinf(d.psnr))
    std::snprintf(psnr, sizeof psnr, "inf");
  else
    std::snprintf(psnr, sizeof psnr, "%.2f dB", d.psnr);
  return std::to_string(d.differing) + "/" + std::to_string(d.total) + " differ, max ulp " + std::to_string(d.maxUlp) +
         ", PSNR " + psnr;
}

}  // namespace p2g
