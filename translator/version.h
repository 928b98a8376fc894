// `ptx2glsl --version`: the program's version and those of the libraries it runs with.
#pragma once
#include <string>

namespace p2g {

// One line per component: ptx2glsl, glslang, SPIRV-Tools, the Vulkan loader (queried from the libraries at run
// time where they can say; glslang and SPIRV-Tools are linked statically on Debian, so theirs are the versions
// built in).
std::string versionText();

}  // namespace p2g
