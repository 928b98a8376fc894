#include "spirv.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>
#include <spirv-tools/libspirv.hpp>

namespace p2g {

namespace {
struct GlslangInit {
  GlslangInit() { glslang::InitializeProcess(); }
  ~GlslangInit() { glslang::FinalizeProcess(); }
};
}  // namespace

bool compileGlsl(const std::string& glsl, std::vector<uint32_t>& spirv, std::string& log) {
  static GlslangInit init;
  glslang::TShader sh(EShLangCompute);
  const char* s = glsl.c_str();
  sh.setStrings(&s, 1);
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

bool validateSpirv(const std::vector<uint32_t>& spirv, std::string& log) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string msgs;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* m) {
    msgs += "spirv-val: " + std::string(m) + " (word " + std::to_string(pos.index) + ")\n";
  });
  spvtools::ValidatorOptions vo;
  vo.SetScalarBlockLayout(true);
  bool ok = tools.Validate(spirv.data(), spirv.size(), vo);
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
