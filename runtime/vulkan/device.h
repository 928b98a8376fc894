// The Vulkan device the runtime launches on: instance, physical-device choice, enabled features, one compute
// queue, host-visible buffers with device addresses.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace p2g::vk {

struct DeviceInfo {
  uint32_t index = 0;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceDriverProperties driver{};
  uint32_t subgroupSize = 0;
};

// A buffer the shader reaches through its device address; host-visible and coherent so that inputs are written
// and outputs read through the mapping (lavapipe's memory is host memory anyway; on NVIDIA it is ReBAR/sysmem,
// slower for the kernel but timing is not the goal of exact runs).
struct Buffer {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  void* map = nullptr;
  uint64_t size = 0;
  uint64_t addr = 0;
};

// Which driver a device runs on (its driver ID, else its name or vendor).
bool isLavapipe(const DeviceInfo& d);
bool isNvidia(const DeviceInfo& d);

class Context {
 public:
  Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  // Creates the instance only (enough to list devices).
  bool createInstance(std::string& err);
  bool enumerate(std::vector<DeviceInfo>& out, std::string& err);
  // Chooses a device (see RunOptions::device) and creates the logical device with every supported feature of the
  // list in device.cpp enabled.
  bool open(const std::string& selector, std::string& err);

  // Checks that every manifest feature name is enabled on this device; the message lists the missing ones.
  bool checkFeatures(const std::vector<std::string>& features, std::string& err) const;

  bool createBuffer(uint64_t bytes, Buffer& b, std::string& err);
  void destroyBuffer(Buffer& b);

  VkInstance instance = VK_NULL_HANDLE;
  DeviceInfo info;
  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  uint32_t timestampValidBits = 0;
  std::vector<std::string> enabled;  // manifest feature names enabled on the device
  // Set when a dispatch was given up while still running: its objects are left alive (destroying them under a
  // running dispatch crashes the driver), nothing else is submitted, and the device is not waited for or destroyed.
  bool busy = false;

 private:
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want) const;
};

std::string vkResultName(VkResult r);

}  // namespace p2g::vk
