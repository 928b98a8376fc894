#include "spirv.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <cstring>
#include <mutex>
#include <spirv-tools/libspirv.hpp>

namespace p2g {

namespace {
struct GlslangInit {
  GlslangInit() { glslang::InitializeProcess(); }
  ~GlslangInit() { glslang::FinalizeProcess(); }
};
}  // namespace

bool compileGlsl(const std::string& glsl, std::vector<uint32_t>& spirv, std::string& log, const std::string& preamble) {
  static GlslangInit init;
  glslang::TShader sh(EShLangCompute);
  const char* s = glsl.c_str();
  sh.setStrings(&s, 1);
  if (!preamble.empty()) sh.setPreamble(preamble.c_str());
  sh.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
  sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
  EShMessages msgs = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
  if (!sh.parse(GetDefaultResources(), 460, false, msgs)) {
    log = sh.getInfoLog();
    return false;
  }
  glslang::TProgram prog;
  prog.addShader(&sh);
  if (!prog.link(msgs)) {
    log = prog.getInfoLog();
    return false;
  }
  spirv.clear();
  glslang::SpvOptions opt;
  opt.generateDebugInfo = false;
  opt.disableOptimizer = true;  // no optimizer between PTX semantics and the driver
  opt.validate = false;
  spv::SpvBuildLogger logger;
  glslang::GlslangToSpv(*prog.getIntermediate(EShLangCompute), spirv, &logger, &opt);
  log = logger.getAllMessages();
  return !spirv.empty();
}

namespace {

// The module spirv-val sees: every OpName made unique by appending its id ("param" -> "param_1234").
// SPIRV-Tools' validator always builds a FriendlyNameMapper, whose SaveName gives a repeated name the first free
// suffix by trying _0, _1, ... from 0 each time: quadratic in the repeats. glslang names every call temporary
// "param"; the K output kernel has 7,450 of them, and spirv-val took 16.6 s of CPU on it, 0.3 s with the names
// unique (2026-12-01, spirv-val of Debian 12's SPIRV-Tools 2023.1 on this project's machine). Names are debug
// information: validity does not depend on them, and the module written out keeps glslang's names.
std::vector<uint32_t> withUniqueNames(const std::vector<uint32_t>& in) {
  const uint32_t kOpName = 5;
  std::vector<uint32_t> out;
  out.reserve(in.size() + in.size() / 8);
  size_t i = 0;
  for (; i < 5 && i < in.size(); ++i) out.push_back(in[i]);  // header
  while (i < in.size()) {
    uint32_t words = in[i] >> 16, op = in[i] & 0xffff;
    if (words == 0 || i + words > in.size()) {  // malformed: let the validator report it unchanged
      out.insert(out.end(), in.begin() + long(i), in.end());
      break;
    }
    if (op != kOpName || words < 3) {
      out.insert(out.end(), in.begin() + long(i), in.begin() + long(i + words));
      i += words;
      continue;
    }
    uint32_t target = in[i + 1];
    const char* str = reinterpret_cast<const char*>(&in[i + 2]);
    std::string name(str, strnlen(str, (words - 2) * 4));
    name += "_" + std::to_string(target);
    size_t nw = name.size() / 4 + 1;  // the NUL included
    out.push_back(uint32_t((2 + nw) << 16) | kOpName);
    out.push_back(target);
    size_t at = out.size();
    out.resize(at + nw, 0);
    memcpy(&out[at], name.data(), name.size());
    i += words;
  }
  return out;
}

}  // namespace

bool validateSpirv(const std::vector<uint32_t>& spirv, std::string& log) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string msgs;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* m) {
    msgs += "spirv-val: " + std::string(m) + " (word " + std::to_string(pos.index) + ")\n";
  });
  spvtools::ValidatorOptions vo;
  vo.SetScalarBlockLayout(true);
  std::vector<uint32_t> named = withUniqueNames(spirv);
  bool ok = tools.Validate(named.data(), named.size(), vo);
  log = msgs;
  return ok;
}

std::string disassembleSpirv(const std::vector<uint32_t>& spirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string out;
  tools.Disassemble(spirv, &out, SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  return out;
}

}  // namespace p2g
