#include "facts.h"

#include <algorithm>

namespace p2g::vk {

DeviceFacts deviceFacts(const DeviceInfo& d, bool enabled) {
  DeviceFacts f;
  if (!enabled) return f;
  // NVIDIA: FADD/FMUL/FFMA without .FTZ are IEEE round-to-nearest with a canonical NaN, like the PTX operations
  // ptxas lowers to the same instructions; the Vulkan driver flushes f32 subnormals unless the module asks for
  // DenormPreserve, which needs shaderDenormPreserveFloat32.
  f.f32Ieee = isNvidia(d) && d.floatControls.shaderDenormPreserveFloat32;
  // NVIDIA: GLSL fma() is FFMA (one rounding; FTZ without DenormPreserve). Not lavapipe: its fma() measured not
  // single-rounded (docs/DEVICE_FACTS.md). By driver, not vendor: NVK (Mesa's NVIDIA driver) was never measured.
  f.fmaFused = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  // NVIDIA and lavapipe: packHalf2x16/unpackHalf2x16 convert like cvt.rn.f16.f32 / cvt.f32.f16 on every finite
  // value (the f16 op sweeps with the fact on, docs/DEVICE_FACTS.md). By driver: other drivers never measured.
  // NVIDIA: FADD/FMUL/FFMA are IEEE's for normal operands and results and give the canonical NaN; the driver's
  // flushing only touches subnormals, which a guarded region's test catches. Not lavapipe: fma() not fused.
  f.f32Fast = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  // NVIDIA: FMin/FMax compile to FMNMX, the instruction ptxas gives min.f32/max.f32 (a NaN operand ignored, -0 < +0,
  // two NaN give 0x7FFFFFFF); f32 subnormal operands are flushed, so only non-subnormal operands take it.
  f.f32MinMax = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  f.halfCvt = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY || d.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
  // f16-native: NVIDIA's f16 add/sub/mul/fma are PTX's, operation by operation (the f16 op sweeps, every f16
  // corpus case and K), once each result passes through the opaque zero of the f16 variant (f32_prelude.cpp
  // P2G_OPAQUE0; without it the driver's compiler changed K's chained f16 fma results). H100, driver 580.159.04,
  // 2026-12-06 (docs/DEVICE_FACTS.md). Forced elsewhere with `run --fact f16-native`.
  f.f16Native = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY && d.shaderFloat16;
  // hw-tex: NVIDIA's texture unit behind its Vulkan driver is CUDA's: with the fact forced, every 2D/3D texture case
  // (point, linear, gather, integer fetches; clamp, wrap, mirror, border; r32f, rgba16f, rgba8 ...) identical in
  // both modes, K 720p native 0 of 11,289,600 values differing from the software filter's, bench/tex_heavy exact
  // identical (H100, driver 580.159.04, 2026-12-06: docs/DEVICE_FACTS.md). 1D slots stay software (manifest.h
  // deviceSampled). By driver, not vendor. Vulkan itself asks only 4 sub-texel bits of filtering precision
  // (HAZARDS.md #11): lavapipe's differ from CUDA's (docs/TEXTURES.md), so it holds nowhere else.
  f.hwTex = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  // f32-div-fast: NVIDIA, where f32-fast holds (the proof's only assumption). With it on, the op sweeps of
  // div/rcp/sqrt.rn.f32 (19 outputs of >= 2^20 values) and every corpus case reaching p2g_div32 are identical
  // (H100, driver 580.159.04, 2026-12-07: docs/DEVICE_FACTS.md). Not lavapipe: its fma() rounds twice.
  f.f32DivFast = f.f32Fast;
  // sfu-native: NVIDIA's driver in modules without DenormPreserve 32 (the sweeps ran without it, so not with
  // f32Ieee): the SFU sweeps (every input of the 21 forms it touches) and every corpus case reaching the SFU models
  // are identical with it on (H100, driver 580.159.04, 2026-12-07: docs/DEVICE_FACTS.md). Not lavapipe: its
  // builtins are not NVIDIA's SFU (ops/sfu_user_check, 14 of 15 outputs differ).
  f.sfuNative = d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY && !f.f32Ieee;
  return f;
}

namespace {
struct FactName {
  const char* name;
  bool DeviceFacts::*field;
};
const FactName kFactNames[] = {{"f32-ieee", &DeviceFacts::f32Ieee},     {"fma-fused", &DeviceFacts::fmaFused},
                               {"half-cvt", &DeviceFacts::halfCvt},     {"f32-fast", &DeviceFacts::f32Fast},
                               {"f32-minmax", &DeviceFacts::f32MinMax}, {"f16-native", &DeviceFacts::f16Native},
                               {"hw-tex", &DeviceFacts::hwTex},         {"f32-div-fast", &DeviceFacts::f32DivFast},
                               {"sfu-native", &DeviceFacts::sfuNative}};

const FactName* findFact(const std::string& name) {
  for (auto& c : kFactNames)
    if (name == c.name) return &c;
  return nullptr;
}
}  // namespace

bool forceFacts(DeviceFacts& f, const std::vector<std::string>& forced, const DeviceInfo& d, std::string& err) {
  for (auto& n : forced) {
    const FactName* k = findFact(n);
    if (!k) {
      err = "--fact: unknown fact '" + n + "' (" + factNames() + ")";
      return false;
    }
    // what the module cannot do without: DenormPreserve needs the device's float controls, f16 the feature
    if (k->field == &DeviceFacts::f32Ieee && !d.floatControls.shaderDenormPreserveFloat32) {
      err = "--fact f32-ieee: the device cannot preserve f32 subnormals (shaderDenormPreserveFloat32)";
      return false;
    }
    // (forced without shaderDenormPreserveFloat16 the module runs without DenormPreserve 16: whether the device
    // keeps f16 subnormals anyway is then part of what the run measures)
    if (k->field == &DeviceFacts::f16Native && !d.shaderFloat16) {
      err = "--fact f16-native: the device has no f16 arithmetic (shaderFloat16)";
      return false;
    }
    // the fast division's proof assumes f32-fast: on a device without it, both are forced or neither
    if (k->field == &DeviceFacts::f32DivFast && !f.f32Fast &&
        std::find(forced.begin(), forced.end(), "f32-fast") == forced.end()) {
      err = "--fact f32-div-fast: its proof needs the fact f32-fast, which this device does not hold (force both)";
      return false;
    }
    f.*(k->field) = true;
  }
  return true;
}

bool contextFacts(const Context& ctx, DeviceFacts& f, std::string& err) {
  f = deviceFacts(ctx.info, ctx.useDeviceFacts);
  return forceFacts(f, ctx.forcedFacts, ctx.info, err);
}

bool isFactName(const std::string& name) { return findFact(name) != nullptr; }

std::string factNames() {
  std::string s;
  for (auto& c : kFactNames) s += std::string(s.empty() ? "" : ", ") + c.name;
  return s;
}

std::vector<uint32_t> applyFacts(const std::vector<uint32_t>& in, const DeviceFacts& f, bool f16Variant) {
  std::vector<uint32_t> widths;
  if (f16Variant) widths.push_back(16);
  if (f.f32Ieee) widths.push_back(32);
  if (widths.empty() || in.size() < 5) return in;
  // SPIR-V 2.4 (logical layout): capabilities first, then extensions, imports, the memory model, entry points,
  // execution modes. Opcodes and enumerants from the SPIR-V specification 1.6, sections 3.31 and 3.6/3.33.
  const uint32_t kOpCapability = 17, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpExecutionModeId = 331;
  const uint32_t kCapDenormPreserve = 4464, kModeDenormPreserve = 4459;
  size_t lastCap = 0, lastMode = 0, entryEnd = 0;
  uint32_t entry = 0;
  bool haveCap = false;
  for (size_t i = 5; i < in.size();) {
    uint32_t words = in[i] >> 16, op = in[i] & 0xffff;
    if (words == 0 || i + words > in.size()) return in;  // malformed: leave it to the driver's own checks
    if (op == kOpCapability && words == 2) {
      lastCap = i + words;
      haveCap = haveCap || in[i + 1] == kCapDenormPreserve;
    }
    if (op == kOpEntryPoint && words >= 3 && !entry) entry = in[i + 2], entryEnd = i + words;
    if (op == kOpExecutionMode || op == kOpExecutionModeId) lastMode = i + words;
    i += words;
  }
  if (!lastCap || !entry) return in;
  size_t modeAt = lastMode ? lastMode : entryEnd;
  std::vector<uint32_t> out;
  out.reserve(in.size() + 2 + 4 * widths.size());
  out.insert(out.end(), in.begin(), in.begin() + long(lastCap));
  if (!haveCap) out.insert(out.end(), {2u << 16 | kOpCapability, kCapDenormPreserve});
  out.insert(out.end(), in.begin() + long(lastCap), in.begin() + long(modeAt));
  for (uint32_t w : widths) out.insert(out.end(), {4u << 16 | kOpExecutionMode, entry, kModeDenormPreserve, w});
  out.insert(out.end(), in.begin() + long(modeAt), in.end());
  return out;
}

std::string describeFacts(const DeviceFacts& f) {
  std::string s;
  for (auto& c : kFactNames)
    if (f.*(c.field)) s += std::string(s.empty() ? "" : ",") + c.name;
  return s.empty() ? "none" : s;
}

}  // namespace p2g::vk
