// Comparing an output with the reference bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "scalar.h"

namespace p2g {

struct DiffStats {
  uint64_t differing = 0;  // elements whose bytes differ
  uint64_t total = 0;      // elements compared (a trailing partial element counts as one)
  uint64_t maxUlp = 0;     // floats: distance in the ordered-integer space; integers: |a - b|; bits: bytes' |a-b|
  double psnr = 0;         // dB over the finite values; +inf when identical
  bool identical() const { return differing == 0; }
};

// `a` = actual, `b` = expected (PSNR's peak is max |expected|; 1 when every expected value is 0).
DiffStats diffBytes(const uint8_t* a, const uint8_t* b, size_t n, ElemType type);

// "identical" or "<differing>/<total> differ, max ulp <n>, PSNR <dB>".
std::string formatDiff(const DiffStats& d);

}  // namespace p2g
