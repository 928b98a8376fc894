// Device-sampled textures (docs/TEXTURES.md "Device sampling (runtime side)"): descriptor set 0 of a launch, one
// combined image sampler per texture slot of the manifest that deviceSampled() accepts (manifest.h), bound to a real
// VkImage of the slot's texture where the device may sample it, else to a 1-texel dummy.
//
// Contract of createDeviceImages:
//   needs    the launch's texel buffers holding their texels (tightly packed rows), the texture the parameter
//            block names at each slot (the same matching that made the image states), and those image states;
//   ensures  a set layout with exactly the bindings `set = 0, binding = slot`, COMBINED_IMAGE_SAMPLER, count 1,
//            compute stage, one per deviceSampled slot, and a written descriptor set in which every binding holds
//            a valid view and sampler in SHADER_READ_ONLY_OPTIMAL, uploaded and waited for before it returns;
//            bit kImageStateDeviceSampled set in a slot's state exactly where that slot got a real image: the fact
//            hw-tex holds, the texture matches the slot's dimensions (not layered), its format has a sampleable
//            Vulkan format with the features its filter needs, and Vulkan allows its sampler state; elsewhere a
//            zero R8_UNORM dummy of the slot's dimensionality, state untouched, so the shader never samples it;
//            no set layout at all when no slot is deviceSampled (the pipeline layout stays push constants only);
//   on error a message (every Vulkan failure named); what was created stays in DeviceImages for destroy().
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "case.h"
#include "device.h"
#include "images.h"
#include "manifest.h"

namespace p2g::vk {

// The Vulkan format that holds a texel format's bytes as they are, and the view's component mapping: a channel the
// format lacks reads 0, alpha too, as CUDA reads it. False where none does (r32ui and r11g11b10f are read as
// integers, which a float sampler cannot return).
bool sampledFormat(TexFormat f, VkFormat& format, VkComponentMapping& components);

// The sampler of a texture's state (filter, address mode of every axis, normalized coordinates), for an image of
// `dims` dimensions; false with the reason where Vulkan forbids that state: unnormalized coordinates allow only
// clamp-to-edge and clamp-to-border and a 1D or 2D view (VkSamplerCreateInfo, unnormalizedCoordinates).
bool samplerFor(const ImageSpec& s, uint32_t dims, VkSamplerCreateInfo& out, std::string& why);

// The bindings of set 0 that a SPIR-V module declares, every one a combined image sampler (a UniformConstant
// variable of an OpTypeSampledImage, decorated DescriptorSet 0 and Binding): for pipelines made without a manifest
// (`ptx2glsl pipeline-time`). False where the module declares any other descriptor.
bool spirvSamplerBindings(const std::vector<uint32_t>& spirv, std::vector<uint32_t>& bindings, std::string& err);

// What one launch created for descriptor set 0; destroy() releases it in reverse order of creation.
struct DeviceImages {
  struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  std::vector<Image> images;      // real images and dummies, in order of creation
  std::vector<VkSampler> samplers;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;  // null: the kernel samples no image
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;  // freed with the pool
  std::vector<std::string> report;  // per binding: "slot 0: real image r16f 2D", "slot 1: dummy (why)"
  void destroy(VkDevice d);
};

// The set layout of `bindings` (combined image samplers of set 0, compute stage).
bool createSamplerSetLayout(Context& ctx, const std::vector<uint32_t>& bindings, VkDescriptorSetLayout& out,
                            std::string& err);

// The texture the parameter block names at one manifest slot: its spec and its texel buffer (null: none, or a
// surface).
struct SlotTexture {
  const ImageSpec* spec = nullptr;
  const Buffer* texels = nullptr;
};

// See the contract above. `slots` and `imageStates` are indexed by manifest slot.
bool createDeviceImages(Context& ctx, const Manifest& m, const std::vector<SlotTexture>& slots,
                        std::vector<uint32_t>& imageStates, DeviceImages& out, std::string& err);

}  // namespace p2g::vk
