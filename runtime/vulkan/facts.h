// Device facts: what has been measured about a device's own operations, handed to the shader as specialization
// constants, so that one SPIR-V module serves every device and each driver folds away the paths it does not take
// (docs/DEVICE_FACTS.md). A device whose facts were never measured runs the fully emulated paths.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "device.h"

namespace p2g::vk {

// Specialization constant ids of the facts (the translator declares them: translator/emit/f32_prelude.cpp).
constexpr uint32_t kSpecF32Ieee = 6;
constexpr uint32_t kSpecFmaFused = 7;
constexpr uint32_t kSpecHalfCvt = 8;
constexpr uint32_t kSpecF32Fast = 9;
constexpr uint32_t kSpecF32MinMax = 10;
constexpr uint32_t kSpecF32DivFast = 12;
constexpr uint32_t kSpecSfuNative = 13;

struct DeviceFacts {
  // The device's f32 add, sub, mul and fma (round to nearest even) give PTX's add/sub/mul/fma.rn.f32 bit for bit:
  // subnormal operands and results kept (the module runs with DenormPreserve 32), a NaN result is 0x7FFFFFFF, fma
  // rounds once. Measured on NVIDIA's proprietary driver (H200, driver 580): docs/DEVICE_FACTS.md.
  bool f32Ieee = false;
  // The device's fma() on f32 rounds once to nearest even wherever no operand and not the result is subnormal
  // (flushed subnormals allowed): fma.rn.f32 (.ftz too) takes it there. NVIDIA's proprietary driver (the op sweeps
  // on the H200); not lavapipe, whose fma() differs from one rounding (docs/DEVICE_FACTS.md).
  bool fmaFused = false;
  // The device's unpackHalf2x16 gives every finite f16 exactly (subnormals too) and packHalf2x16 rounds a finite f32
  // to the nearest f16, ties to even (f16 subnormals kept, overflow to infinity; an f32 subnormal, flushed or not,
  // to a zero of its sign): the f16 arithmetic and conversions widen and round with them instead of integer code.
  // NVIDIA's proprietary driver and lavapipe (measured: docs/DEVICE_FACTS.md).
  bool halfCvt = false;
  // The device's f32 add, sub, mul and fma() round to nearest even once and give IEEE's result whenever no operand
  // is subnormal or NaN and the result is normal or infinite (subnormals may be flushed), and their NaN results
  // are 0x7FFFFFFF: guarded regions take the device's operations in their first pass (translator/emit/
  // region_guard.h). NVIDIA's proprietary driver (the op sweeps on the H200: docs/DEVICE_FACTS.md).
  bool f32Fast = false;
  // The device's min()/max() on f32 give PTX's min.f32/max.f32 whenever no operand is subnormal: a NaN operand is
  // ignored, two NaN give 0x7FFFFFFF, -0.0 is below +0.0. f16 min/max and guarded regions then use them
  // (translator/emit/f32_prelude.cpp p2g_nmin). NVIDIA's proprietary driver (the op sweeps: docs/DEVICE_FACTS.md).
  bool f32MinMax = false;
  // div.rn.f32 of operands in [2^-40, 2^40) may take the device's reciprocal, an fma correction and a remainder
  // test that proves the quotient (translator/emit/f32_prelude.cpp p2g_div32; the proof assumes only f32Fast, and
  // tests/ops/div_fast_model.cpp checks it on the host). NVIDIA's proprietary driver, where f32Fast holds (the op
  // sweeps of div/rcp/sqrt.rn.f32 and every corpus case reaching it: docs/DEVICE_FACTS.md); `ptx2glsl run --fact
  // f32-div-fast` forces it elsewhere.
  bool f32DivFast = false;
  // The device's 1.0 / x, inversesqrt, sqrt, exp2, log2, sin and cos on f32 give rcp/rsqrt/sqrt/ex2/lg2/sin/
  // cos.approx.ftz.f32's bits for every input, in a module without DenormPreserve 32: the SFU forms take them
  // instead of the models, a non-ftz form for a reduced operand where it differs from the .ftz form
  // (translator/emit/sfu_prelude.cpp p2g_sfu_dev). NVIDIA's proprietary driver without f32Ieee (the SFU sweeps,
  // every input, and every corpus case reaching them: docs/DEVICE_FACTS.md); `ptx2glsl run --fact sfu-native`
  // forces it elsewhere.
  bool sfuNative = false;
  // The device's f16 add, sub, mul and fma() (f16vec2 too, NoContraction) give PTX's add/sub/mul/fma.rn.f16(x2)
  // bit for bit (subnormals kept: the module runs with DenormPreserve 16; NaN results 0x7FFF): the runtime takes
  // the kernel's f16 module variant (Manifest::spirvF16, the GLSL with P2G_F16_NATIVE). Needs shaderFloat16 and
  // shaderDenormPreserveFloat16. Not a specialization constant: a module without the Float16 capability must
  // stay creatable on devices without f16 arithmetic.
  bool f16Native = false;
  // The device's texture unit, sampling a real image with the case's sampler state (runtime/vulkan/
  // device_images.h), gives CUDA's tex/tld4 bytes: the runtime then binds real images and sets
  // kImageStateDeviceSampled in the image state of each slot it bound (manifest.h deviceSampled), and the shader
  // samples them instead of filtering in software. NVIDIA's proprietary driver (H100, driver 580.159.04,
  // 2026-12-06: every 2D/3D texture case and K identical, docs/DEVICE_FACTS.md); not lavapipe (its filtering and
  // unorm decoding differ, docs/TEXTURES.md); `ptx2glsl run --fact hw-tex` forces it for measurements. Not a
  // specialization constant: the shader learns it per slot through the state bit.
  bool hwTex = false;
};

// The facts that hold on `d` (none when `enabled` is false: `ptx2glsl run --no-device-facts`), and those of
// `forced` (names as describeFacts prints them) whatever the device; false from forceFacts on an unknown name.
DeviceFacts deviceFacts(const DeviceInfo& d, bool enabled);
bool forceFacts(DeviceFacts& f, const std::vector<std::string>& forced, const DeviceInfo& d, std::string& err);
// The facts a context runs with: deviceFacts(ctx.info, ctx.useDeviceFacts) and ctx.forcedFacts.
bool contextFacts(const Context& ctx, DeviceFacts& f, std::string& err);
// The fact names, comma-separated (`ptx2glsl run --help`), and whether `name` is one.
std::string factNames();
bool isFactName(const std::string& name);
// `spirv` with what the facts need from the module: OpCapability DenormPreserve and OpExecutionMode
// DenormPreserve 32 on the entry point when f32Ieee, DenormPreserve 16 when `f16Variant` (the module is the f16
// variant: f16Native). Unchanged when neither applies.
std::vector<uint32_t> applyFacts(const std::vector<uint32_t>& spirv, const DeviceFacts& f, bool f16Variant = false);
// The facts that hold, comma-separated ("f32-ieee,fma-fused,half-cvt,f32-fast,f32-minmax"), or "none": what `ptx2glsl run` prints.
std::string describeFacts(const DeviceFacts& f);

}  // namespace p2g::vk
