#include "version.h"

#include <vulkan/vulkan.h>

#include <cstdio>

#include <glslang/Public/ShaderLang.h>
#include <spirv-tools/libspirv.h>

#include "version_info.h"

namespace p2g {

std::string versionText() {
  std::string s = "ptx2glsl " P2G_VERSION "\n";
  glslang::Version g = glslang::GetVersion();
  char line[160];
  snprintf(line, sizeof line, "glslang %d.%d.%d%s%s\n", g.major, g.minor, g.patch, *g.flavor ? "-" : "", g.flavor);
  s += line;
  s += std::string("SPIRV-Tools ") + spvSoftwareVersionString() + "\n";
  // vkEnumerateInstanceVersion is a Vulkan 1.1 loader entry point; a 1.0 loader does not export it.
  auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  uint32_t v = 0;
  if (enumerate && enumerate(&v) == VK_SUCCESS)
    snprintf(line, sizeof line, "Vulkan loader %u.%u.%u (headers 1.%u.%u)\n", VK_API_VERSION_MAJOR(v),
             VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v), VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE),
             VK_HEADER_VERSION);
  else
    snprintf(line, sizeof line, "Vulkan loader 1.0 (no vkEnumerateInstanceVersion; headers 1.%u.%u)\n",
             VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE), VK_HEADER_VERSION);
  s += line;
  return s;
}

}  // namespace p2g
