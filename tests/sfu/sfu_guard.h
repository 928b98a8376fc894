// Shared by test_sfu.cpp and test_sfu2.cpp (after doctest.h): the check of one non-ftz form's guard for the
// device's path of the SFU models (translator/emit/sfu_prelude.cpp p2g_sfu_dev).
#pragma once
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "sfu_models.h"

// The device's path of the SFU models (translator/emit/sfu_prelude.cpp p2g_sfu_dev, the fact sfu-native): where the
// fact holds, the device's function gives the .ftz form's bits (the SFU sweeps on NVIDIA, docs/DEVICE_FACTS.md), and
// a non-ftz form takes it unreduced only where a guard holds (the inputs the GLSL does not reduce include these).
// Wherever a guard holds, the non-ftz form must equal the .ftz form: every mantissa of the exponents at the guards'
// edges, every 997th input elsewhere. Each guard must also be needed: some input it leaves out differs between the
// two forms. The GLSL's whole path, reductions included, is checkPath's (below).
namespace {
// The inputs both checks walk: every input of the biased exponents in `edges` (both signs), every 997th elsewhere.
template <class F>
void forEachInput(std::initializer_list<uint32_t> edges, F one) {
  for (uint32_t se = 0; se < 512; se++) {
    uint32_t base = (se >> 8) << 31 | (se & 0xFFu) << 23;
    bool edge = false;
    for (uint32_t e : edges) edge = edge || (se & 0xFFu) == e;
    for (uint32_t m = 0; m < (1u << 23); m += edge ? 1 : 997) one(base | m);
  }
}
template <class Model>
void checkGuard(const char* name, Model model, bool (*guard)(uint32_t), std::initializer_list<uint32_t> edges) {
  uint64_t taken = 0, bad = 0, leftOutDiffer = 0;
  uint32_t first = 0;
  auto one = [&](uint32_t x) {
    bool same = model(x, false) == model(x, true);
    if (guard(x)) {
      taken++;
      if (!same && !bad++) first = x;
    } else {
      leftOutDiffer += !same;
    }
  };
  forEachInput(edges, one);
  char where[16];
  snprintf(where, sizeof where, "%08x", first);
  INFO(std::string(name) << ": " << bad << " of " << taken << " guarded inputs differ, the first " << where);
  CHECK(bad == 0);
  CHECK(taken > 1000000);
  CHECK(leftOutDiffer > 0);
}
}  // namespace

// The device's whole path of a non-ftz form (translator/emit/sfu_prelude.cpp, P2G_SFU_NATIVE on), restated in C++
// with the .ftz model standing for the device's function, against the non-ftz model: every input of the exponents
// at `edges` (both signs; where the path reduces the operand), every 997th input elsewhere.
namespace {
// p2g_sfu_scaled: the device's normal result r times 2^k with `sign`, rounded to nearest even (sfu_round)
inline uint32_t sfuScaled(uint32_t r, int k, uint32_t sign) {
  return sfu_round((r & 0x7FFFFFu) | 0x800000u, (int)((r >> 23) & 0xFFu) - 150 + k, sign);
}
template <class Model, class Path>
void checkPath(const char* name, Model model, Path path, std::initializer_list<uint32_t> edges) {
  uint64_t n = 0, bad = 0;
  uint32_t first = 0;
  forEachInput(edges, [&](uint32_t x) {
    n++;
    if (path(x) != model(x) && !bad++) first = x;
  });
  char where[16];
  snprintf(where, sizeof where, "%08x", first);
  INFO(std::string(name) << ": the device's path differs from the model in " << bad << " of " << n
                         << " inputs, the first " << where);
  CHECK(bad == 0);
  CHECK(n > 2 * (uint64_t(1) << 23) * edges.size());
}
}  // namespace
