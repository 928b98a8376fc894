#include "device_images.h"

#include <algorithm>

#include "facts.h"

namespace p2g::vk {

namespace {

VkImageType imageType(uint32_t dims) {
  return dims == 1 ? VK_IMAGE_TYPE_1D : dims == 2 ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_3D;
}
VkImageViewType viewType(uint32_t dims) {
  return dims == 1 ? VK_IMAGE_VIEW_TYPE_1D : dims == 2 ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_3D;
}

VkSamplerAddressMode addressMode(TexAddress a) {
  switch (a) {
    case TexAddress::Wrap: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case TexAddress::Mirror: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case TexAddress::Border: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case TexAddress::Clamp: break;
  }
  return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

// One texture the launch samples with the device: what it is made from and what it becomes.
struct Upload {
  const Buffer* texels;
  VkImage image;
  VkExtent3D extent;
};

// Records the uploads of the real images and the clears of the dummies into a one-time command buffer, submits it
// and waits: every image is in SHADER_READ_ONLY_OPTIMAL before the first dispatch.
bool uploadImages(Context& ctx, const std::vector<Upload>& uploads, const std::vector<VkImage>& dummies,
                  std::string& err) {
  if (uploads.empty() && dummies.empty()) return true;
  VkDevice d = ctx.dev;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // Frees the command buffer and fence on every exit, except under a transfer given up while it may still run.
  struct Release {
    Context& ctx;
    VkCommandBuffer& cmd;
    VkFence& fence;
    ~Release() {
      if (ctx.busy) return;
      if (fence) vkDestroyFence(ctx.dev, fence, nullptr);
      if (cmd) vkFreeCommandBuffers(ctx.dev, ctx.pool, 1, &cmd);
    }
  } release{ctx, cmd, fence};
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = ctx.pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  if (!vkOk(vkAllocateCommandBuffers(d, &cbai, &cmd), "vkAllocateCommandBuffers (image upload)", err)) return false;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (!vkOk(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer (image upload)", err)) return false;

  auto barrier = [&](VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                     VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
  };
  auto toTransfer = [&](VkImage image) {
    barrier(image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  };
  auto toShader = [&](VkImage image) {
    barrier(image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  };
  for (const Upload& u : uploads) {
    toTransfer(u.image);
    // The texel buffer's usable bytes start `guard` bytes into the VkBuffer; rows are tightly packed
    // (bufferRowLength and bufferImageHeight 0).
    VkBufferImageCopy region{};
    region.bufferOffset = u.texels->guard;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = u.extent;
    vkCmdCopyBufferToImage(cmd, u.texels->buf, u.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    toShader(u.image);
  }
  for (VkImage image : dummies) {
    toTransfer(image);
    VkClearColorValue zero{};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
    toShader(image);
  }
  if (!vkOk(vkEndCommandBuffer(cmd), "vkEndCommandBuffer (image upload)", err)) return false;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (!vkOk(vkCreateFence(d, &fci, nullptr, &fence), "vkCreateFence (image upload)", err)) return false;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  if (!vkOk(vkQueueSubmit(ctx.queue, 1, &si, fence), "vkQueueSubmit (image upload)", err)) return false;
  // A copy of the case's texels: seconds at most. Past a minute the device is treated like a dispatch that timed
  // out (device.h Context::busy): nothing of this launch is destroyed under it.
  VkResult r = vkWaitForFences(d, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
  if (r == VK_TIMEOUT) {
    ctx.busy = true;
    err = "the upload of the device-sampled textures did not finish within 60 s";
    return false;
  }
  return vkOk(r, "vkWaitForFences (image upload)", err);
}

// Creates an image of `format` and `extent` with its memory and view, recorded in `out` as soon as each exists.
bool createImage(Context& ctx, uint32_t dims, VkFormat format, VkExtent3D extent, VkComponentMapping components,
                 DeviceImages& out, std::string& err) {
  VkDevice d = ctx.dev;
  out.images.emplace_back();
  DeviceImages::Image& im = out.images.back();
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = imageType(dims);
  ici.format = format;
  ici.extent = extent;
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (!vkOk(vkCreateImage(d, &ici, nullptr, &im.image), "vkCreateImage", err)) return false;
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(d, im.image, &req);
  uint32_t type = ctx.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) type = ctx.findMemoryType(req.memoryTypeBits, 0);
  if (type == UINT32_MAX) {
    err = "no memory type for a sampled image";
    return false;
  }
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  if (!vkOk(vkAllocateMemory(d, &ai, nullptr, &im.mem), "vkAllocateMemory (sampled image)", err)) return false;
  if (!vkOk(vkBindImageMemory(d, im.image, im.mem, 0), "vkBindImageMemory", err)) return false;
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = im.image;
  vci.viewType = viewType(dims);
  vci.format = format;
  vci.components = components;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return vkOk(vkCreateImageView(d, &vci, nullptr, &im.view), "vkCreateImageView", err);
}

// Why the texture of a slot cannot be a real image on this device, or "" when it can (with its format, mapping,
// extent and sampler filled in).
std::string realImageRefusal(Context& ctx, const ManifestImage& im, const SlotTexture& t, VkFormat& format,
                             VkComponentMapping& components, VkExtent3D& extent, VkSamplerCreateInfo& sci) {
  if (!t.spec || !t.texels) return "no texture of the case at its parameter offset";
  const ImageSpec& s = *t.spec;
  uint32_t dims = imageDims(s);
  if (s.layered) return "the texture is layered";
  if (dims != im.dims)
    return "the texture has " + std::to_string(dims) + " dimensions, the kernel samples " + std::to_string(im.dims);
  TexFormat f;
  if (!parseTexFormat(s.format, f) || !sampledFormat(f, format, components))
    return "format " + s.format + " has no sampleable Vulkan format";
  TexFilter filter = TexFilter::Point;
  parseTexFilter(s.filter, filter);
  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(ctx.info.pd, format, &fp);
  VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if (filter == TexFilter::Linear) need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  if ((fp.optimalTilingFeatures & need) != need)
    return "the device cannot sample " + s.format + (filter == TexFilter::Linear ? " with linear filtering" : "") +
           " (optimal tiling)";
  extent = {s.width, dims >= 2 ? s.height : 1u, dims == 3 ? s.depth : 1u};
  if (!extent.width || !extent.height || !extent.depth) return "the texture is empty";
  VkImageFormatProperties ifp;
  VkResult r = vkGetPhysicalDeviceImageFormatProperties(ctx.info.pd, format, imageType(dims), VK_IMAGE_TILING_OPTIMAL,
                                                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                        0, &ifp);
  if (r != VK_SUCCESS) return "the device has no such image (" + vkResultName(r) + ")";
  if (extent.width > ifp.maxExtent.width || extent.height > ifp.maxExtent.height || extent.depth > ifp.maxExtent.depth)
    return "the texture exceeds the device's largest image";
  std::string why;
  if (!samplerFor(s, dims, sci, why)) return why;
  return "";
}

const char* dimsName(uint32_t dims) { return dims == 1 ? "1D" : dims == 2 ? "2D" : "3D"; }

}  // namespace

bool sampledFormat(TexFormat f, VkFormat& format, VkComponentMapping& components) {
  const VkComponentSwizzle R = VK_COMPONENT_SWIZZLE_R, G = VK_COMPONENT_SWIZZLE_G, B = VK_COMPONENT_SWIZZLE_B,
                           A = VK_COMPONENT_SWIZZLE_A, Z = VK_COMPONENT_SWIZZLE_ZERO;
  switch (f) {
    case TexFormat::R8: format = VK_FORMAT_R8_UNORM; break;
    case TexFormat::RG8: format = VK_FORMAT_R8G8_UNORM; break;
    case TexFormat::RGBA8: format = VK_FORMAT_R8G8B8A8_UNORM; break;
    case TexFormat::R16F: format = VK_FORMAT_R16_SFLOAT; break;
    case TexFormat::RG16F: format = VK_FORMAT_R16G16_SFLOAT; break;
    case TexFormat::RGBA16F: format = VK_FORMAT_R16G16B16A16_SFLOAT; break;
    case TexFormat::R32F: format = VK_FORMAT_R32_SFLOAT; break;
    case TexFormat::RG32F: format = VK_FORMAT_R32G32_SFLOAT; break;
    case TexFormat::RGBA32F: format = VK_FORMAT_R32G32B32A32_SFLOAT; break;
    default: return false;  // r32ui, r11g11b10f: integer channels
  }
  // Vulkan's identity mapping reads a missing alpha as 1; CUDA reads every missing channel as 0 (docs/TEXTURES.md).
  uint32_t channels = formatInfo(f).channels;
  components = {R, channels >= 2 ? G : Z, channels >= 4 ? B : Z, channels >= 4 ? A : Z};
  return true;
}

bool samplerFor(const ImageSpec& s, uint32_t dims, VkSamplerCreateInfo& out, std::string& why) {
  TexFilter filter = TexFilter::Point;
  TexAddress address = TexAddress::Clamp;
  if (!parseTexFilter(s.filter, filter) || !parseTexAddress(s.address, address)) {
    why = "the texture's sampler state does not parse";
    return false;
  }
  if (!s.normalized && address != TexAddress::Clamp && address != TexAddress::Border) {
    why = "unnormalized coordinates with address " + s.address + " (Vulkan: clamp-to-edge or clamp-to-border only)";
    return false;
  }
  if (!s.normalized && dims == 3) {
    why = "unnormalized coordinates on a 3D image (Vulkan: 1D or 2D views only)";
    return false;
  }
  out = VkSamplerCreateInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  out.magFilter = out.minFilter = filter == TexFilter::Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  out.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  // the records carry one address mode for every axis (images.h imageRecord)
  out.addressModeU = out.addressModeV = out.addressModeW = addressMode(address);
  out.mipLodBias = 0;
  out.anisotropyEnable = VK_FALSE;
  out.compareEnable = VK_FALSE;
  out.minLod = out.maxLod = 0;
  out.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;  // CUDA's border is 0 in every channel
  out.unnormalizedCoordinates = s.normalized ? VK_FALSE : VK_TRUE;
  return true;
}

bool spirvSamplerBindings(const std::vector<uint32_t>& m, std::vector<uint32_t>& bindings, std::string& err) {
  // SPIR-V specification 1.6: OpDecorate 71 (Binding 33, DescriptorSet 34), OpVariable 59, OpTypePointer 32,
  // OpTypeSampledImage 27; storage class UniformConstant 0, Uniform 2, StorageBuffer 12.
  const uint32_t kOpDecorate = 71, kOpVariable = 59, kOpTypePointer = 32, kOpTypeSampledImage = 27;
  const uint32_t kBinding = 33, kDescriptorSet = 34;
  bindings.clear();
  if (m.size() < 5 || m[0] != 0x07230203u) {
    err = "not a SPIR-V module";
    return false;
  }
  uint32_t bound = m[3];
  if (bound > (1u << 24)) {
    err = "the SPIR-V module's id bound is implausible";
    return false;
  }
  std::vector<int64_t> binding(bound, -1), set(bound, -1);
  std::vector<uint32_t> pointee(bound, 0), varType(bound, 0), varClass(bound, ~0u);
  std::vector<bool> sampledImage(bound, false);
  for (size_t i = 5; i < m.size();) {
    uint32_t words = m[i] >> 16, op = m[i] & 0xffff;
    if (words == 0 || i + words > m.size()) {
      err = "the SPIR-V module is malformed";
      return false;
    }
    auto id = [&](size_t k) { return m[i + k] < bound ? m[i + k] : 0u; };
    if (op == kOpDecorate && words >= 4 && m[i + 2] == kBinding) binding[id(1)] = m[i + 3];
    if (op == kOpDecorate && words >= 4 && m[i + 2] == kDescriptorSet) set[id(1)] = m[i + 3];
    if (op == kOpTypePointer && words >= 4) pointee[id(1)] = id(3);
    if (op == kOpTypeSampledImage && words >= 3) sampledImage[id(1)] = true;
    if (op == kOpVariable && words >= 4) varType[id(2)] = id(1), varClass[id(2)] = m[i + 3];
    i += words;
  }
  for (uint32_t v = 1; v < bound; ++v) {
    if (binding[v] < 0 && set[v] < 0) continue;
    if (!varType[v]) continue;  // a decoration of something other than a variable (a block member, a type)
    bool sampler = varClass[v] == 0 && sampledImage[pointee[varType[v]]];
    if (!sampler || set[v] > 0 || binding[v] < 0) {
      err = "the SPIR-V module declares a descriptor (id " + std::to_string(v) + ", set " + std::to_string(set[v]) +
            ", binding " + std::to_string(binding[v]) +
            ") other than a combined image sampler of set 0, which no runtime of ptx2glsl binds";
      return false;
    }
    bindings.push_back(uint32_t(binding[v]));
  }
  std::sort(bindings.begin(), bindings.end());
  return true;
}

bool createSamplerSetLayout(Context& ctx, const std::vector<uint32_t>& bindings, VkDescriptorSetLayout& out,
                            std::string& err) {
  const VkPhysicalDeviceLimits& L = ctx.info.props.limits;
  uint32_t n = uint32_t(bindings.size());
  if (n > L.maxPerStageDescriptorSamplers || n > L.maxPerStageDescriptorSampledImages || n > L.maxDescriptorSetSamplers ||
      n > L.maxDescriptorSetSampledImages) {
    err = "the kernel samples " + std::to_string(n) + " textures; the device binds at most " +
          std::to_string(std::min(L.maxPerStageDescriptorSamplers, L.maxPerStageDescriptorSampledImages)) +
          " per shader";
    return false;
  }
  std::vector<VkDescriptorSetLayoutBinding> lb;
  for (uint32_t b : bindings)
    lb.push_back({b, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  ci.bindingCount = n;
  ci.pBindings = lb.data();
  return vkOk(vkCreateDescriptorSetLayout(ctx.dev, &ci, nullptr, &out), "vkCreateDescriptorSetLayout", err);
}

void DeviceImages::destroy(VkDevice d) {
  if (pool) vkDestroyDescriptorPool(d, pool, nullptr);
  if (setLayout) vkDestroyDescriptorSetLayout(d, setLayout, nullptr);
  for (auto it = samplers.rbegin(); it != samplers.rend(); ++it) vkDestroySampler(d, *it, nullptr);
  for (auto it = images.rbegin(); it != images.rend(); ++it) {
    if (it->view) vkDestroyImageView(d, it->view, nullptr);
    if (it->image) vkDestroyImage(d, it->image, nullptr);
    if (it->mem) vkFreeMemory(d, it->mem, nullptr);
  }
  *this = DeviceImages();
}

bool createDeviceImages(Context& ctx, const Manifest& m, const std::vector<SlotTexture>& slots,
                        std::vector<uint32_t>& imageStates, DeviceImages& out, std::string& err) {
  // The slots the shader declares a sampler for (a manifest names each slot once; a repeated one keeps its first
  // entry, so that the set layout never names a binding twice).
  std::vector<const ManifestImage*> sampled;
  for (const ManifestImage& im : m.images)
    if (deviceSampled(im) && std::none_of(sampled.begin(), sampled.end(), [&](auto* s) { return s->slot == im.slot; }))
      sampled.push_back(&im);
  if (sampled.empty()) return true;
  DeviceFacts facts;
  if (!contextFacts(ctx, facts, err)) return false;
  VkDevice d = ctx.dev;

  struct Bound {
    uint32_t slot;
    VkImageView view;
    VkSampler sampler;
  };
  std::vector<Bound> bound;
  std::vector<Upload> uploads;
  std::vector<VkImage> dummyImages;
  VkImageView dummy[4] = {};  // by dimensions, made on first use
  VkSampler dummySampler = VK_NULL_HANDLE;
  for (const ManifestImage* im : sampled) {
    SlotTexture t = im->slot < slots.size() ? slots[im->slot] : SlotTexture();
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkComponentMapping components{};
    VkExtent3D extent{};
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    std::string why = !facts.hwTex ? "the fact hw-tex does not hold"
                      : im->slot >= imageStates.size()
                          ? "no image state for the slot"
                          : realImageRefusal(ctx, *im, t, format, components, extent, sci);
    std::string where = "slot " + std::to_string(im->slot) + ": ";
    if (why.empty()) {
      if (!createImage(ctx, im->dims, format, extent, components, out, err)) return false;
      VkSampler sampler;
      if (!vkOk(vkCreateSampler(d, &sci, nullptr, &sampler), "vkCreateSampler", err)) return false;
      out.samplers.push_back(sampler);
      uploads.push_back({t.texels, out.images.back().image, extent});
      bound.push_back({im->slot, out.images.back().view, sampler});
      imageStates[im->slot] |= kImageStateDeviceSampled;
      out.report.push_back(where + "real image " + t.spec->format + " " + dimsName(im->dims) + " (texture '" +
                           t.spec->name + "')");
      continue;
    }
    // A dummy keeps every binding valid; the state bit stays clear, so the shader never samples it.
    if (!dummy[im->dims]) {
      VkComponentMapping identity{};
      if (!createImage(ctx, im->dims, VK_FORMAT_R8_UNORM, {1, 1, 1}, identity, out, err)) return false;
      dummy[im->dims] = out.images.back().view;
      dummyImages.push_back(out.images.back().image);
    }
    if (!dummySampler) {
      VkSamplerCreateInfo plain{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
      plain.magFilter = plain.minFilter = VK_FILTER_NEAREST;
      plain.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
      plain.addressModeU = plain.addressModeV = plain.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      plain.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
      if (!vkOk(vkCreateSampler(d, &plain, nullptr, &dummySampler), "vkCreateSampler (dummy)", err)) return false;
      out.samplers.push_back(dummySampler);
    }
    bound.push_back({im->slot, dummy[im->dims], dummySampler});
    out.report.push_back(where + "dummy " + dimsName(im->dims) + " (" + why + ")");
  }
  if (!uploadImages(ctx, uploads, dummyImages, err)) return false;

  std::vector<uint32_t> bindings;
  for (const Bound& b : bound) bindings.push_back(b.slot);
  if (!createSamplerSetLayout(ctx, bindings, out.setLayout, err)) return false;
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, uint32_t(bound.size())};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = 1;
  pci.poolSizeCount = 1;
  pci.pPoolSizes = &size;
  if (!vkOk(vkCreateDescriptorPool(d, &pci, nullptr, &out.pool), "vkCreateDescriptorPool", err)) return false;
  VkDescriptorSetAllocateInfo sai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  sai.descriptorPool = out.pool;
  sai.descriptorSetCount = 1;
  sai.pSetLayouts = &out.setLayout;
  if (!vkOk(vkAllocateDescriptorSets(d, &sai, &out.set), "vkAllocateDescriptorSets", err)) return false;
  std::vector<VkDescriptorImageInfo> infos;
  for (const Bound& b : bound) infos.push_back({b.sampler, b.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < bound.size(); ++i) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = out.set;
    w.dstBinding = bound[i].slot;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w.pImageInfo = &infos[i];
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(d, uint32_t(writes.size()), writes.data(), 0, nullptr);
  return true;
}

}  // namespace p2g::vk
