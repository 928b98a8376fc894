// One kernel launch on a Vulkan device: inputs, parameter block, pipeline, dispatch, timing, read-back.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "case.h"
#include "device.h"
#include "run.h"

namespace p2g::vk {

struct LaunchResult {
  std::vector<std::vector<uint8_t>> outputs;  // one per CaseSpec::outputs, from the first dispatch
  std::vector<double> gpuMs;                  // one per dispatch when the queue has timestamps
  double pipelineMs = 0;                      // wall time of vkCreateComputePipelines (the driver's compiler)
  // With Context::pipelineStats: one line per executable of the pipeline, "name: statistic value, ..." as the
  // driver names them (VK_KHR_pipeline_executable_properties)
  std::vector<std::string> pipelineStats;
};

// Checks what can be refused before anything is created: device features, images, the block against
// maxComputeWorkGroupSize/Invocations and .reqntid, the grid against maxComputeWorkGroupCount, shared memory.
bool checkLaunch(const Context& ctx, const CaseSpec& c, const Manifest& m, std::string& err);

// Runs the case `repeat` times (inputs rewritten before each run, so every run sees the same data); outputs come
// from the first run.
// A dispatch that has not finished after timeoutS seconds is given up: the error says so and ctx.busy is set.
bool launch(Context& ctx, const CaseSpec& c, const TranslatedKernel& k, int repeat, int timeoutS, LaunchResult& out,
            std::string& err);

// Creates (and destroys) a compute pipeline from `spirv` with the given block size and reports the wall time of
// vkCreateComputePipelines: how long the driver's shader compiler takes (`ptx2glsl pipeline-time`).
bool timePipeline(Context& ctx, const std::vector<uint32_t>& spirv, const uint32_t block[3], double& ms,
                  std::string& err);

}  // namespace p2g::vk
