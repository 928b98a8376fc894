#include "device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace p2g::vk {

std::string vkResultName(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    default: return "VkResult " + std::to_string((int)r);
  }
}

bool vkOk(VkResult r, const char* what, std::string& err) {
  if (r == VK_SUCCESS) return true;
  err = std::string(what) + " failed: " + vkResultName(r);
  return false;
}

namespace {

// The device features a shader may need, queried and enabled as one chain (Vulkan 1.1/1.2/1.3 core structs).
struct FeatureChain {
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  void link(bool with13) {
    f2.pNext = &v11;
    v11.pNext = &v12;
    v12.pNext = with13 ? &v13 : nullptr;
    v13.pNext = nullptr;
  }
};

// Manifest feature name -> the device feature bit(s). Names are the manifest.h contract; a few extra ones
// ("sharedatomic64", "memorymodel", "subgroupsizecontrol") are accepted for translator features to come.
struct FeatureDesc {
  const char* name;
  VkBool32* (*field)(FeatureChain&);
};
const FeatureDesc kFeatures[] = {
    {"int64", [](FeatureChain& c) { return &c.f2.features.shaderInt64; }},
    {"float64", [](FeatureChain& c) { return &c.f2.features.shaderFloat64; }},
    {"int16", [](FeatureChain& c) { return &c.f2.features.shaderInt16; }},
    {"int8", [](FeatureChain& c) { return &c.v12.shaderInt8; }},
    {"storage8", [](FeatureChain& c) { return &c.v12.storageBuffer8BitAccess; }},
    {"storage16", [](FeatureChain& c) { return &c.v11.storageBuffer16BitAccess; }},
    {"atomic64", [](FeatureChain& c) { return &c.v12.shaderBufferInt64Atomics; }},
    {"sharedatomic64", [](FeatureChain& c) { return &c.v12.shaderSharedInt64Atomics; }},
    {"float16", [](FeatureChain& c) { return &c.v12.shaderFloat16; }},
    {"memorymodel", [](FeatureChain& c) { return &c.v12.vulkanMemoryModel; }},
    {"subgroupsizecontrol", [](FeatureChain& c) { return &c.v13.subgroupSizeControl; }},
};

std::string lower(std::string s) {
  for (auto& ch : s) ch = (char)std::tolower((unsigned char)ch);
  return s;
}

std::string describe(const DeviceInfo& d) {
  return std::to_string(d.index) + ": " + d.props.deviceName + " (" + d.driver.driverName + ")";
}

}  // namespace

bool isLavapipe(const DeviceInfo& d) {
  return d.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE || lower(d.props.deviceName).find("llvmpipe") != std::string::npos;
}
bool isNvidia(const DeviceInfo& d) {
  return d.driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY || d.props.vendorID == 0x10DE;
}

void fillGuards(Buffer& b) {
  if (!b.guard || !b.map) return;
  uint8_t* p = (uint8_t*)b.map;
  uint8_t *before = p - b.guard, *after = p + b.size;  // b.map is b.guard bytes into the mapping
  for (uint64_t i = 0; i < b.guard; ++i) {
    before[i] = kCanary[i % 8];
    after[i] = kCanary[i % 8];
  }
}

bool checkGuards(const Buffer& b, int64_t& first, int64_t& last) {
  if (!b.guard || !b.map) return true;
  // Compare 8 bytes at a time against the pattern; only a damaged zone is scanned byte by byte.
  uint64_t word;
  std::memcpy(&word, kCanary, 8);
  const uint8_t* p = (const uint8_t*)b.map;
  bool ok = true;
  auto zone = [&](const uint8_t* z, int64_t at) {
    uint64_t n = b.guard / 8 * 8;
    bool clean = true;
    for (uint64_t i = 0; i < n && clean; i += 8) {
      uint64_t w;
      std::memcpy(&w, z + i, 8);
      clean = w == word;
    }
    for (uint64_t i = n; i < b.guard && clean; ++i) clean = z[i] == kCanary[i % 8];
    if (clean) return;
    for (uint64_t i = 0; i < b.guard; ++i)
      if (z[i] != kCanary[i % 8]) {
        if (ok) first = at + int64_t(i);
        ok = false;
        last = at + int64_t(i);
      }
  };
  zone(p - b.guard, -int64_t(b.guard));
  zone(p + b.size, int64_t(b.size));
  return ok;
}

Context::~Context() {
  if (busy) return;  // a dispatch that timed out still runs on this device's objects: leave them to process exit
  if (dev) {
    vkDeviceWaitIdle(dev);
    if (pool) vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyDevice(dev, nullptr);
  }
  if (messenger_) {
    auto destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
    if (destroy) destroy(instance, messenger_, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
}

namespace {

const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// Every warning and error of the validation layer (and the loader) while --validate is on.
VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  ValidationMessage m;
  m.severity = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
  if (data && data->pMessageIdName) m.text = std::string(data->pMessageIdName) + ": ";
  if (data && data->pMessage) m.text += data->pMessage;
  static_cast<std::vector<ValidationMessage>*>(user)->push_back(std::move(m));
  return VK_FALSE;  // the call goes on as it would without the layer
}

bool layerInstalled() {
  uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  if (n) vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (auto& l : layers)
    if (std::strcmp(l.layerName, kValidationLayer) == 0) return true;
  return false;
}

}  // namespace

bool Context::createInstance(std::string& err, bool validate) {
  // The loader's default search (/usr/share/vulkan/icd.d) finds lavapipe; VK_DRIVER_FILES / VK_ICD_FILENAMES are
  // left to the user, since narrowing them here would hide devices the user asked for.
  uint32_t api = VK_API_VERSION_1_2;
  if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS) api = VK_API_VERSION_1_1;
  if (api < VK_API_VERSION_1_2) {
    err = "the Vulkan loader supports only API " + std::to_string(VK_API_VERSION_MAJOR(api)) + "." +
          std::to_string(VK_API_VERSION_MINOR(api)) + "; 1.2 is needed (buffer device address)";
    return false;
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "ptx2glsl";
  app.apiVersion = api >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mci.pfnUserCallback = onValidationMessage;
  mci.pUserData = messageLog;
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  if (validate) {
    if (!layerInstalled()) {
      err = std::string("--validate: the Vulkan validation layer ") + kValidationLayer +
            " is not installed (Debian: apt-get install vulkan-validationlayers; or set VK_LAYER_PATH)";
      return false;
    }
    ci.enabledLayerCount = 1;
    ci.ppEnabledLayerNames = &kValidationLayer;
    ci.enabledExtensionCount = 1;
    ci.ppEnabledExtensionNames = &ext;
    ci.pNext = &mci;  // also reports on vkCreateInstance and vkDestroyInstance themselves
  }
  VkResult r = vkCreateInstance(&ci, nullptr, &instance);
  if (r != VK_SUCCESS) {
    err = "vkCreateInstance failed: " + vkResultName(r) + " (is a Vulkan driver installed? lavapipe: mesa-vulkan-drivers)";
    instance = VK_NULL_HANDLE;
    return false;
  }
  if (validate) {
    auto create = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create || create(instance, &mci, nullptr, &messenger_) != VK_SUCCESS) {
      err = "--validate: cannot create a VK_EXT_debug_utils messenger";
      messenger_ = VK_NULL_HANDLE;
      return false;
    }
  }
  return true;
}

bool Context::enumerate(std::vector<DeviceInfo>& out, std::string& err) {
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance, &n, nullptr);
  std::vector<VkPhysicalDevice> pds(n);
  if (n) vkEnumeratePhysicalDevices(instance, &n, pds.data());
  out.clear();
  for (uint32_t i = 0; i < n; ++i) {
    DeviceInfo d;
    d.index = i;
    d.pd = pds[i];
    VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    d.floatControls.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
    sg.pNext = &d.floatControls;
    d.driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    d.driver.pNext = &sg;
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &d.driver;
    vkGetPhysicalDeviceProperties2(pds[i], &p2);
    d.props = p2.properties;
    d.driver.pNext = nullptr;
    d.floatControls.pNext = nullptr;
    d.subgroupSize = sg.subgroupSize;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &v12;
    if (d.props.apiVersion >= VK_API_VERSION_1_2) vkGetPhysicalDeviceFeatures2(pds[i], &f2);
    d.shaderFloat16 = v12.shaderFloat16;
    out.push_back(d);
  }
  if (out.empty()) {
    err = "no Vulkan devices found (lavapipe comes with mesa-vulkan-drivers; check VK_DRIVER_FILES / VK_ICD_FILENAMES)";
    return false;
  }
  return true;
}

static bool choose(const std::vector<DeviceInfo>& devs, const std::string& selector, DeviceInfo& out, std::string& err) {
  std::string sel = lower(selector.empty() ? "lavapipe" : selector);
  bool isIndex = !sel.empty() && std::all_of(sel.begin(), sel.end(), [](char c) { return c >= '0' && c <= '9'; });
  for (auto& d : devs) {
    bool match = isIndex ? std::to_string(d.index) == sel
                 : sel == "lavapipe" ? isLavapipe(d)
                 : sel == "nvidia"   ? isNvidia(d)
                                     : lower(d.props.deviceName).find(sel) != std::string::npos;
    if (match) {
      out = d;
      return true;
    }
  }
  err = "no Vulkan device matches \"" + selector + "\"; devices found:";
  for (auto& d : devs) err += "\n  " + describe(d);
  return false;
}

bool Context::open(const std::string& selector, std::string& err, bool validate) {
  if (!instance && !createInstance(err, validate)) return false;
  std::vector<DeviceInfo> devs;
  if (!enumerate(devs, err) || !choose(devs, selector, info, err)) return false;
  if (info.props.apiVersion < VK_API_VERSION_1_2) {
    err = "device " + describe(info) + " supports only Vulkan " + std::to_string(VK_API_VERSION_MAJOR(info.props.apiVersion)) +
          "." + std::to_string(VK_API_VERSION_MINOR(info.props.apiVersion)) + "; 1.2 is needed";
    return false;
  }
  bool with13 = info.props.apiVersion >= VK_API_VERSION_1_3;

  FeatureChain have, want;
  have.link(with13);
  vkGetPhysicalDeviceFeatures2(info.pd, &have.f2);
  want.link(with13);
  if (!have.v12.bufferDeviceAddress) {
    err = "device " + describe(info) + " lacks bufferDeviceAddress, which every kernel needs";
    return false;
  }
  want.v12.bufferDeviceAddress = VK_TRUE;
  enabled.clear();
  for (auto& f : kFeatures) {
    if (!with13 && std::strcmp(f.name, "subgroupsizecontrol") == 0) continue;
    if (*f.field(have)) {
      *f.field(want) = VK_TRUE;
      enabled.push_back(f.name);
    }
  }
  if (with13 && have.v13.computeFullSubgroups) want.v13.computeFullSubgroups = VK_TRUE;
  if (have.v12.vulkanMemoryModelDeviceScope) want.v12.vulkanMemoryModelDeviceScope = VK_TRUE;

  // VK_KHR_pipeline_executable_properties, asked for by --pipeline-stats only (the driver may keep more per
  // pipeline with it on)
  const char* statsExt = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statsFeat{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (pipelineStats) {
    uint32_t ne = 0;
    vkEnumerateDeviceExtensionProperties(info.pd, nullptr, &ne, nullptr);
    std::vector<VkExtensionProperties> exts(ne);
    vkEnumerateDeviceExtensionProperties(info.pd, nullptr, &ne, exts.data());
    bool has = std::any_of(exts.begin(), exts.end(), [&](auto& e) { return std::strcmp(e.extensionName, statsExt) == 0; });
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR hv{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &hv;
    if (has) vkGetPhysicalDeviceFeatures2(info.pd, &f2);
    if (!has || !hv.pipelineExecutableInfo) {
      err = "--pipeline-stats: device " + describe(info) + " does not offer " + statsExt;
      return false;
    }
    statsFeat.pipelineExecutableInfo = VK_TRUE;
    statsFeat.pNext = want.f2.pNext;
    want.f2.pNext = &statsFeat;
  }

  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(info.pd, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qf(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(info.pd, &nq, qf.data());
  bool found = false;
  for (uint32_t i = 0; i < nq && !found; ++i)
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queueFamily = i;
      timestampValidBits = qf[i].timestampValidBits;
      found = true;
    }
  if (!found) {
    err = "device " + describe(info) + " has no compute queue";
    return false;
  }
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queueFamily;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &want.f2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  if (pipelineStats) {
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &statsExt;
  }
  VkResult r = vkCreateDevice(info.pd, &dci, nullptr, &dev);
  if (r != VK_SUCCESS) {
    dev = VK_NULL_HANDLE;
    err = "vkCreateDevice on " + describe(info) + " failed: " + vkResultName(r);
    return false;
  }
  vkGetDeviceQueue(dev, queueFamily, 0, &queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queueFamily;
  r = vkCreateCommandPool(dev, &pci, nullptr, &pool);
  if (r != VK_SUCCESS) {
    pool = VK_NULL_HANDLE;
    err = "vkCreateCommandPool failed: " + vkResultName(r);
    return false;
  }
  return true;
}

bool Context::checkFeatures(const std::vector<std::string>& features, std::string& err) const {
  std::string missing, unknown;
  for (auto& f : features) {
    bool known = std::any_of(std::begin(kFeatures), std::end(kFeatures), [&](auto& k) { return f == k.name; });
    if (!known)
      unknown += (unknown.empty() ? "" : ", ") + f;
    else if (std::find(enabled.begin(), enabled.end(), f) == enabled.end())
      missing += (missing.empty() ? "" : ", ") + f;
  }
  if (!unknown.empty()) {
    err = "the manifest asks for unknown device feature(s): " + unknown;
    return false;
  }
  if (!missing.empty()) {
    err = "device " + describe(info) + " lacks feature(s) the shader needs: " + missing;
    return false;
  }
  return true;
}

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags* flags) const {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(info.pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) {
      if (flags) *flags = mp.memoryTypes[i].propertyFlags;
      return i;
    }
  return UINT32_MAX;
}

namespace {

// One VkBuffer of `bytes` bytes with a device address, in memory of a type that has `want`; `got` is that type's
// property flags.
bool makeBuffer(const Context& ctx, uint64_t bytes, VkMemoryPropertyFlags want, VkBuffer& buf, VkDeviceMemory& mem,
                VkMemoryPropertyFlags& got, std::string& err) {
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkResult r = vkCreateBuffer(ctx.dev, &bci, nullptr, &buf);
  if (r != VK_SUCCESS) {
    err = "vkCreateBuffer(" + std::to_string(bytes) + " bytes) failed: " + vkResultName(r);
    buf = VK_NULL_HANDLE;
    return false;
  }
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx.dev, buf, &req);
  uint32_t type = ctx.findMemoryType(req.memoryTypeBits, want, &got);
  if (type == UINT32_MAX) {
    err = (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ? "no host-visible coherent memory type for a buffer"
                                                         : "no device-local memory type for a buffer";
    return false;
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.pNext = &flags;
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  r = vkAllocateMemory(ctx.dev, &ai, nullptr, &mem);
  if (r != VK_SUCCESS) {
    err = "vkAllocateMemory(" + std::to_string(req.size) + " bytes) failed: " + vkResultName(r);
    mem = VK_NULL_HANDLE;
    return false;
  }
  vkBindBufferMemory(ctx.dev, buf, mem, 0);
  return true;
}

uint64_t deviceAddress(VkDevice dev, VkBuffer buf) {
  VkBufferDeviceAddressInfo bai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  bai.buffer = buf;
  return vkGetBufferDeviceAddress(dev, &bai);
}

// Copies every twinned buffer between its two VkBuffers, between two barriers.
void recordCopies(VkCommandBuffer cmd, const std::vector<const Buffer*>& bufs, bool in) {
  bool any = false;
  for (const Buffer* b : bufs) any = any || (b && b->dev);
  if (!any) return;
  VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  before.srcAccessMask = in ? VK_ACCESS_HOST_WRITE_BIT : VK_ACCESS_SHADER_WRITE_BIT;
  before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, in ? VK_PIPELINE_STAGE_HOST_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
  for (const Buffer* b : bufs) {
    if (!b || !b->dev) continue;
    VkBufferCopy region{0, 0, b->total};
    vkCmdCopyBuffer(cmd, in ? b->buf : b->dev, in ? b->dev : b->buf, 1, &region);
  }
  VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  after.dstAccessMask = in ? VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT : VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       in ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                       nullptr, 0, nullptr);
}

}  // namespace

void recordUploads(VkCommandBuffer cmd, const std::vector<const Buffer*>& bufs) { recordCopies(cmd, bufs, true); }
void recordDownloads(VkCommandBuffer cmd, const std::vector<const Buffer*>& bufs) { recordCopies(cmd, bufs, false); }

bool Context::createBuffer(uint64_t bytes, Buffer& b, std::string& err, uint64_t guard) {
  b = Buffer();
  b.size = bytes;
  // Vulkan forbids empty buffers; a 0-byte case buffer still gets an address (and its guards, when it has any).
  b.total = std::max<uint64_t>(guard + bytes + guard, 16);
  VkMemoryPropertyFlags got = 0;
  if (!makeBuffer(*this, b.total, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, b.buf,
                  b.mem, got, err)) {
    destroyBuffer(b);
    return false;
  }
  VkResult r = vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map);
  if (r != VK_SUCCESS) {
    err = "vkMapMemory failed: " + vkResultName(r);
    b.map = nullptr;
    destroyBuffer(b);
    return false;
  }
  b.addr = deviceAddress(dev, b.buf) + guard;
  b.hostFlags = got;
  // PTX2GLSL_BUFFERS=host: never a twin; =twin: always one (tests the copies on lavapipe); else where needed.
  const char* mode = std::getenv("PTX2GLSL_BUFFERS");
  bool twin = !(got & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (mode && std::strcmp(mode, "host") == 0) twin = false;
  if (mode && std::strcmp(mode, "twin") == 0) twin = true;
  if (twin) {
    VkMemoryPropertyFlags devGot = 0;
    if (!makeBuffer(*this, b.total, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, b.dev, b.devMem, devGot, err)) {
      destroyBuffer(b);
      return false;
    }
    b.addr = deviceAddress(dev, b.dev) + guard;
  }
  b.map = (uint8_t*)b.map + guard;
  b.guard = guard;
  fillGuards(b);
  return true;
}

void Context::destroyBuffer(Buffer& b) {
  if (b.map) vkUnmapMemory(dev, b.mem);
  if (b.buf) vkDestroyBuffer(dev, b.buf, nullptr);
  if (b.mem) vkFreeMemory(dev, b.mem, nullptr);
  if (b.dev) vkDestroyBuffer(dev, b.dev, nullptr);
  if (b.devMem) vkFreeMemory(dev, b.devMem, nullptr);
  b = Buffer();
}

}  // namespace p2g::vk
