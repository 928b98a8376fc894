// GLSL -> SPIR-V with glslang in-process, then spirv-val (SPIRV-Tools) on every module.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace p2g {

// Compiles a compute shader for Vulkan 1.2 / SPIR-V 1.5. On failure returns false with glslang's log in `log`.
// `preamble`: text glslang reads before the source's first line (after #version), e.g. "#define P2G_F16_NATIVE\n"
bool compileGlsl(const std::string& glsl, std::vector<uint32_t>& spirv, std::string& log,
                 const std::string& preamble = "");
// Validates with spirv-val's rules (scalar block layout allowed). Returns false with the message.
bool validateSpirv(const std::vector<uint32_t>& spirv, std::string& log);
// Human-readable disassembly (for generated/ and --dump).
std::string disassembleSpirv(const std::vector<uint32_t>& spirv);

}  // namespace p2g
