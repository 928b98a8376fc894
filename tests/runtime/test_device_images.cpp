// Device-sampled textures, runtime side (runtime/vulkan/device_images.h): the texel format -> Vulkan format and
// component mapping, the sampler of each sampler state and what Vulkan forbids, the set-0 bindings read from
// SPIR-V, and a pipeline made from a module that declares samplers (timePipeline, as `ptx2glsl pipeline-time`
// does) on lavapipe under the validation layer where it is installed.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device_images.h"
#include "facts.h"
#include "inputs.h"
#include "launch.h"

using namespace p2g;
using namespace p2g::vk;

namespace {

std::vector<uint32_t> spirv(const char* path) {
  std::string bytes;
  REQUIRE_MESSAGE(readFile(path, bytes), "cannot read " << path);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

ImageSpec texture(const char* format, const char* filter, const char* address, bool normalized) {
  ImageSpec s;
  s.format = format;
  s.width = 4;
  s.height = 4;
  s.filter = filter;
  s.address = address;
  s.normalized = normalized;
  return s;
}

bool mapping(const VkComponentMapping& c, VkComponentSwizzle r, VkComponentSwizzle g, VkComponentSwizzle b,
             VkComponentSwizzle a) {
  return c.r == r && c.g == g && c.b == b && c.a == a;
}

}  // namespace

TEST_CASE("every float and unorm texel format has its Vulkan format; a missing channel reads 0, alpha too") {
  const VkComponentSwizzle R = VK_COMPONENT_SWIZZLE_R, G = VK_COMPONENT_SWIZZLE_G, B = VK_COMPONENT_SWIZZLE_B,
                           A = VK_COMPONENT_SWIZZLE_A, Z = VK_COMPONENT_SWIZZLE_ZERO;
  struct Want {
    TexFormat f;
    VkFormat vk;
    uint32_t channels;
  };
  const Want wants[] = {{TexFormat::R8, VK_FORMAT_R8_UNORM, 1},
                        {TexFormat::RG8, VK_FORMAT_R8G8_UNORM, 2},
                        {TexFormat::RGBA8, VK_FORMAT_R8G8B8A8_UNORM, 4},
                        {TexFormat::R16F, VK_FORMAT_R16_SFLOAT, 1},
                        {TexFormat::RG16F, VK_FORMAT_R16G16_SFLOAT, 2},
                        {TexFormat::RGBA16F, VK_FORMAT_R16G16B16A16_SFLOAT, 4},
                        {TexFormat::R32F, VK_FORMAT_R32_SFLOAT, 1},
                        {TexFormat::RG32F, VK_FORMAT_R32G32_SFLOAT, 2},
                        {TexFormat::RGBA32F, VK_FORMAT_R32G32B32A32_SFLOAT, 4}};
  for (const Want& w : wants) {
    CAPTURE(formatInfo(w.f).name);
    VkFormat vf = VK_FORMAT_UNDEFINED;
    VkComponentMapping c{};
    REQUIRE(sampledFormat(w.f, vf, c));
    CHECK(vf == w.vk);
    if (w.channels == 1) CHECK(mapping(c, R, Z, Z, Z));
    if (w.channels == 2) CHECK(mapping(c, R, G, Z, Z));
    if (w.channels == 4) CHECK(mapping(c, R, G, B, A));
  }
  VkFormat vf;
  VkComponentMapping c;
  CHECK_FALSE(sampledFormat(TexFormat::R32UI, vf, c));
  CHECK_FALSE(sampledFormat(TexFormat::R11G11B10F, vf, c));
}

TEST_CASE("the sampler follows the case's filter, address mode and coordinates, at level 0 only") {
  VkSamplerCreateInfo s{};
  std::string why;
  REQUIRE(samplerFor(texture("r16f", "linear", "wrap", true), 2, s, why));
  CHECK(s.minFilter == VK_FILTER_LINEAR);
  CHECK(s.magFilter == VK_FILTER_LINEAR);
  CHECK(s.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST);
  CHECK(s.addressModeU == VK_SAMPLER_ADDRESS_MODE_REPEAT);
  CHECK(s.addressModeV == VK_SAMPLER_ADDRESS_MODE_REPEAT);
  CHECK(s.addressModeW == VK_SAMPLER_ADDRESS_MODE_REPEAT);
  CHECK(s.minLod == 0.0f);
  CHECK(s.maxLod == 0.0f);
  CHECK(s.anisotropyEnable == VK_FALSE);
  CHECK(s.compareEnable == VK_FALSE);
  CHECK(s.unnormalizedCoordinates == VK_FALSE);
  REQUIRE(samplerFor(texture("rgba8", "point", "mirror", true), 3, s, why));
  CHECK(s.minFilter == VK_FILTER_NEAREST);
  CHECK(s.magFilter == VK_FILTER_NEAREST);
  CHECK(s.addressModeU == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  REQUIRE(samplerFor(texture("r32f", "point", "border", false), 2, s, why));
  CHECK(s.addressModeV == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  CHECK(s.borderColor == VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK);
  CHECK(s.unnormalizedCoordinates == VK_TRUE);
  REQUIRE(samplerFor(texture("r32f", "linear", "clamp", false), 1, s, why));
  CHECK(s.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  CHECK(s.unnormalizedCoordinates == VK_TRUE);
}

TEST_CASE("unnormalized coordinates get no sampler where Vulkan forbids them: wrap, mirror, 3D") {
  VkSamplerCreateInfo s{};
  std::string why;
  CHECK_FALSE(samplerFor(texture("r32f", "point", "wrap", false), 2, s, why));
  CHECK(why.find("wrap") != std::string::npos);
  CHECK_FALSE(samplerFor(texture("r32f", "point", "mirror", false), 1, s, why));
  CHECK_FALSE(samplerFor(texture("r32f", "point", "clamp", false), 3, s, why));
  CHECK(why.find("3D") != std::string::npos);
  CHECK(samplerFor(texture("r32f", "point", "clamp", true), 3, s, why));  // normalized 3D is fine
}

TEST_CASE("the set-0 sampler bindings are read from SPIR-V; any other descriptor is refused") {
  std::vector<uint32_t> b;
  std::string err;
  REQUIRE(spirvSamplerBindings(spirv(P2G_SAMPLER_PROBE_SPV), b, err));
  CHECK(b == std::vector<uint32_t>{0, 3});
  REQUIRE(spirvSamplerBindings(spirv(P2G_PROBE_SPV), b, err));  // the ABI probe: push constants only
  CHECK(b.empty());
  CHECK_FALSE(spirvSamplerBindings(spirv(P2G_STORAGE_PROBE_SPV), b, err));
  CHECK(err.find("binding 1") != std::string::npos);
  CHECK_FALSE(spirvSamplerBindings({1, 2, 3}, b, err));
}

TEST_CASE("hw-tex holds on NVIDIA's driver only (measured 2026-12-06), not without facts, and is forced by name") {
  DeviceInfo d;
  d.driver.driverID = VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  d.props.vendorID = 0x10DE;
  CHECK(deviceFacts(d, true).hwTex);
  CHECK_FALSE(deviceFacts(d, false).hwTex);  // --no-device-facts
  d.driver.driverID = VK_DRIVER_ID_MESA_RADV;  // never measured
  CHECK_FALSE(deviceFacts(d, true).hwTex);
  d.driver.driverID = VK_DRIVER_ID_MESA_LLVMPIPE;
  CHECK_FALSE(deviceFacts(d, true).hwTex);
  DeviceFacts f;
  std::string err;
  REQUIRE(forceFacts(f, {"hw-tex"}, d, err));
  CHECK(f.hwTex);
  CHECK(describeFacts(f) == "hw-tex");
  CHECK(isFactName("hw-tex"));
}

TEST_CASE("a pipeline is made from a module that declares samplers (no manifest: pipeline-time)") {
  std::vector<ValidationMessage> log;
  auto ctx = std::make_unique<Context>();
  ctx->messageLog = &log;
  std::string err;
  bool validate = ctx->createInstance(err, true);
  if (!validate) {
    MESSAGE("no validation layer (" << err << "): the pipelines are made without it");
    ctx = std::make_unique<Context>();
  }
  REQUIRE_MESSAGE(ctx->open("lavapipe", err, validate), err);
  const uint32_t block[3] = {1, 1, 1};
  double ms = 0;
  CHECK_MESSAGE(timePipeline(*ctx, spirv(P2G_SAMPLER_PROBE_SPV), block, ms, err), err);
  CHECK_MESSAGE(timePipeline(*ctx, spirv(P2G_PROBE_SPV), block, ms, err), err);
  CHECK_FALSE(timePipeline(*ctx, spirv(P2G_STORAGE_PROBE_SPV), block, ms, err));
  for (auto& m : log) MESSAGE(m.severity << ": " << m.text);
  CHECK(log.empty());
}
