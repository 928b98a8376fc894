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
  VkPhysicalDeviceFloatControlsProperties floatControls{};  // denormal and rounding-mode controls (Vulkan 1.2)
  uint32_t subgroupSize = 0;
  bool shaderFloat16 = false;  // VkPhysicalDeviceVulkan12Features::shaderFloat16 (f16 arithmetic in shaders)
};

// A buffer the shader reaches through its device address. The host writes inputs and reads outputs through `map`,
// a host-visible coherent mapping. Where that memory is not device-local (NVIDIA: system memory, which the kernel
// reached across PCIe; docs/GPU_BENCH.md "Buffers in system memory"), the buffer has a device-local twin `dev`
// of the same bytes: `addr` is the twin's, and every dispatch copies the whole host buffer in before it and back
// after it (recordUploads / recordDownloads), outside the timed span. lavapipe's one memory type is both, so it has
// no twin. PTX2GLSL_BUFFERS=host keeps the kernel on the host memory (A/B timing); PTX2GLSL_BUFFERS=twin gives
// every buffer a twin (the copies tested on lavapipe).
//
// A buffer may carry guard zones (docs/RUNNER_SAFETY.md): `guard` bytes before and after [addr, addr + size) in the
// same allocation, filled with a canary. On lavapipe device memory is the runner's own heap, so an access past the
// end of an unguarded buffer corrupts or reads the process's memory; with guards it lands in the canary, and a
// damaged canary is found after the dispatch (the twin's zones come back with its bytes). `map` and `addr` point at
// the usable bytes, past the first guard.
struct Buffer {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  VkBuffer dev = VK_NULL_HANDLE;  // the device-local twin, or none
  VkDeviceMemory devMem = VK_NULL_HANDLE;
  void* map = nullptr;
  uint64_t size = 0;
  uint64_t addr = 0;
  uint64_t guard = 0;
  uint64_t total = 0;  // bytes of each VkBuffer: guards and usable bytes
  VkMemoryPropertyFlags hostFlags = 0;  // the property flags of the mapped memory's type
};

// Records, for every buffer of `bufs` that has a device-local twin, the copy of its host bytes into the twin and a
// barrier that makes them visible to compute shaders; recordDownloads the copy back after a dispatch and a barrier
// that makes them visible to the host. Nothing where no buffer has a twin.
void recordUploads(VkCommandBuffer cmd, const std::vector<const Buffer*>& bufs);
void recordDownloads(VkCommandBuffer cmd, const std::vector<const Buffer*>& bufs);

// The canary of the guard zones: this 8-byte pattern repeated from the first byte of each zone (the words
// 0xDEADBEEF 0xCAFEF00D, little-endian).
constexpr uint8_t kCanary[8] = {0xEF, 0xBE, 0xAD, 0xDE, 0x0D, 0xF0, 0xFE, 0xCA};
// Guard bytes on each side of every buffer `ptx2glsl run` creates: a kernel that reads up to 256 KiB past a buffer
// reads the canary, not the runner's heap (the robustness probe's lying case read 128 KiB past a 4-byte buffer).
constexpr uint64_t kGuardBytes = 256 * 1024;
// Writes the canary into both guard zones.
void fillGuards(Buffer& b);
// Checks both zones; false when a canary byte changed, with the first and last changed byte as offsets from the
// buffer's start (negative: before it).
bool checkGuards(const Buffer& b, int64_t& first, int64_t& last);

// A Vulkan validation message (VK_EXT_debug_utils) seen while --validate is on.
struct ValidationMessage {
  std::string severity;  // "error", "warning"
  std::string text;      // the message id name and text
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

  // Creates the instance only (enough to list devices). With `validate`, the Khronos validation layer and a
  // debug-utils messenger that appends every warning and error to `messages` (an error when the layer is missing).
  bool createInstance(std::string& err, bool validate = false);
  bool enumerate(std::vector<DeviceInfo>& out, std::string& err);
  // Chooses a device (see RunOptions::device) and creates the logical device with every supported feature of the
  // list in device.cpp enabled.
  bool open(const std::string& selector, std::string& err, bool validate = false);

  // Checks that every manifest feature name is enabled on this device; the message lists the missing ones.
  bool checkFeatures(const std::vector<std::string>& features, std::string& err) const;

  // A host-visible buffer of `bytes` usable bytes with `guard` canary bytes on each side (filled here).
  bool createBuffer(uint64_t bytes, Buffer& b, std::string& err, uint64_t guard = 0);
  void destroyBuffer(Buffer& b);
  // The first memory type of typeBits with every flag of `want` (UINT32_MAX: none); `flags` gets all of its flags.
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags* flags = nullptr) const;

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
  // Where the validation layer's messages go (with --validate), in order; set before createInstance/open to keep
  // them beyond this context's life (the runner prints them after each case).
  std::vector<ValidationMessage>* messageLog = &ownLog_;
  // Whether pipelines may use the measured device facts (facts.h); `ptx2glsl run --no-device-facts` clears it.
  bool useDeviceFacts = true;
  // Set before open(): enable VK_KHR_pipeline_executable_properties (open fails where the device lacks it), so
  // that each pipeline's compiled executables report the driver's statistics (`ptx2glsl run --pipeline-stats`).
  bool pipelineStats = false;
  // Facts forced on whatever the device (`ptx2glsl run --fact NAME`): to measure a fact on a device where it was
  // never measured (names as describeFacts prints them).
  std::vector<std::string> forcedFacts;

 private:
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::vector<ValidationMessage> ownLog_;
};

std::string vkResultName(VkResult r);
// True on VK_SUCCESS; else false with `err` = "<what> failed: <result name>".
bool vkOk(VkResult r, const char* what, std::string& err);

}  // namespace p2g::vk
