#include "launch.h"

#include "device_images.h"
#include "facts.h"
#include "sfu_tables.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "images.h"
#include "inputs.h"
#include "memcheck.h"
#include "params.h"

namespace p2g::vk {

namespace {

// Everything one launch creates, destroyed in reverse on every exit path.
struct Resources {
  Context& ctx;
  std::vector<Buffer> bufs;  // parallel to CaseSpec::buffers
  std::vector<Buffer> images;  // textures then surfaces: their texels, tightly packed rows (docs/TEXTURES.md)
  Buffer records;              // one 64-byte descriptor record per image; a handle is its record's address
  // per image slot of the manifest: its image state (images.h imageState; 0 = unknown), specialization constant
  // kImageSpecId + slot
  std::vector<uint32_t> imageStates;
  // per image slot of the manifest: the index in `images` of the image whose record the parameter block holds at
  // the slot's offset, -1 for none
  std::vector<int> slotImages;
  Buffer params;
  Buffer globals;  // the module's .global variables (manifest globalsBytes), absent when there are none
  Buffer bounds;   // --check-bounds: the buffer table and the first out-of-bounds access (manifest.h)
  std::vector<Region> regions;  // every buffer above, named, for the guard check and the --check-bounds table
  DeviceImages hw;  // descriptor set 0: the samplers of device-sampled textures (device_images.h)
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  explicit Resources(Context& c) : ctx(c) {}
  ~Resources() {
    if (ctx.busy) return;  // a dispatch that timed out may still use every object here: leave them alive
    VkDevice d = ctx.dev;
    if (fence) vkDestroyFence(d, fence, nullptr);
    if (cmd) vkFreeCommandBuffers(d, ctx.pool, 1, &cmd);
    if (queries) vkDestroyQueryPool(d, queries, nullptr);
    if (pipeline) vkDestroyPipeline(d, pipeline, nullptr);
    if (layout) vkDestroyPipelineLayout(d, layout, nullptr);
    if (module) vkDestroyShaderModule(d, module, nullptr);
    hw.destroy(d);
    ctx.destroyBuffer(params);
    ctx.destroyBuffer(globals);
    ctx.destroyBuffer(bounds);
    ctx.destroyBuffer(records);
    for (auto& b : images) ctx.destroyBuffer(b);
    for (auto& b : bufs) ctx.destroyBuffer(b);
  }
};

// `boundsTable`: with --check-bounds, the buffers' (base, size) pairs for the specialization constants from
// kBoundsSpecId (manifest.h); empty otherwise.
bool createPipeline(Resources& R, const CaseSpec& c, const TranslatedKernel& k, const std::vector<uint64_t>& boundsTable,
                    std::string& err) {
  VkDevice d = R.ctx.dev;
  if (k.spirv.empty() || k.spirv[0] != 0x07230203u) {
    err = "the translator returned no valid SPIR-V (magic number missing)";
    return false;
  }
  DeviceFacts facts;
  if (!contextFacts(R.ctx, facts, err)) return false;
  // the f16 variant where the device's f16 arithmetic is PTX's (facts.h f16Native)
  bool f16 = facts.f16Native && !k.spirvF16.empty();
  if (f16 && k.spirvF16[0] != 0x07230203u) {
    err = "the translator's f16 module variant is not valid SPIR-V (magic number missing)";
    return false;
  }
  std::vector<uint32_t> code =
      applyFacts(f16 ? k.spirvF16 : k.spirv, facts, f16 && R.ctx.info.floatControls.shaderDenormPreserveFloat16);
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = code.size() * 4;
  smci.pCode = code.data();
  if (!vkOk(vkCreateShaderModule(d, &smci, nullptr, &R.module), "vkCreateShaderModule", err)) return false;

  // The ABI of manifest.h: 16 bytes of push constants, the parameter block's address then the globals' address,
  // and with --check-bounds the bounds buffer's address.
  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, k.manifest.checkBounds ? 24u : 16u};
  // Set 0 only where the shader samples images with the device (device_images.h).
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = R.hw.setLayout ? 1 : 0;
  plci.pSetLayouts = &R.hw.setLayout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &pcr;
  if (!vkOk(vkCreatePipelineLayout(d, &plci, nullptr, &R.layout), "vkCreatePipelineLayout", err)) return false;

  // Specialization constants 0..2 = block size, 3 = dynamic shared bytes, 4 = the loop budget guard (a VkBool32,
  // on for lavapipe only: manifest.h loopGuard), 5 = P2G_WARP_NATIVE (a VkBool32: the device's subgroups hold whole
  // warps of 32, so warp instructions are subgroup operations; translator/emit/warp_flow.cpp, docs/WARP.md);
  // 6 = P2G_F32_IEEE, 7 = P2G_FMA_FUSED, 8 = P2G_HALF_CVT, 9 = P2G_F32_FAST, 10 = P2G_F32_MINMAX (facts.h),
  // 11 = P2G_PARAMS_DISJOINT (manifest.h kSpecParamsDisjoint: no two pointer parameters name the same buffer),
  // 12 = P2G_F32_DIV_FAST, 13 = P2G_SFU_NATIVE (facts.h); with --check-bounds the 64-bit bounds table from
  // kBoundsSpecId on (manifest.h).
  std::vector<std::string> named;
  bool disjoint = true;
  auto addParam = [&](const ParamValue& pv) {
    if (pv.kind != ParamValue::Kind::Buffer) return;
    if (std::find(named.begin(), named.end(), pv.name) != named.end()) disjoint = false;
    named.push_back(pv.name);
  };
  for (const ParamValue& pv : c.params) {
    addParam(pv);
    for (const ParamValue& fv : pv.fields) addParam(fv);
  }
  uint32_t sg = R.ctx.info.subgroupSize;
  uint32_t spec[14] = {c.block[0], c.block[1], c.block[2], c.dynamicSharedBytes,
                      k.manifest.loopGuard && isLavapipe(R.ctx.info) ? 1u : 0u, sg >= 32 && sg % 32 == 0 ? 1u : 0u,
                      facts.f32Ieee ? 1u : 0u, facts.fmaFused ? 1u : 0u, facts.halfCvt ? 1u : 0u, facts.f32Fast ? 1u : 0u,
                      facts.f32MinMax ? 1u : 0u, disjoint ? 1u : 0u, facts.f32DivFast ? 1u : 0u,
                      facts.sfuNative ? 1u : 0u};
  static_assert(kSpecF32Ieee == 6 && kSpecFmaFused == 7 && kSpecHalfCvt == 8 && kSpecF32Fast == 9 &&
                    kSpecF32MinMax == 10 && kSpecParamsDisjoint == 11 && kSpecF32DivFast == 12 &&
                    kSpecSfuNative == 13 && kBoundsSpecId >= 14,
                "the spec array's order");
  std::vector<uint8_t> data(sizeof spec + 8 * boundsTable.size());
  std::memcpy(data.data(), spec, sizeof spec);
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < std::size(spec); ++i) entries.push_back({i, i * 4, 4});
  for (uint32_t i = 0; i < boundsTable.size(); ++i) {
    std::memcpy(data.data() + sizeof spec + 8 * i, &boundsTable[i], 8);
    entries.push_back({kBoundsSpecId + i, uint32_t(sizeof spec + 8 * i), 8});
  }
  // the image states (docs/TEXTURES.md "Image state"); PTX2GLSL_NO_IMAGE_STATE=1 leaves them unknown, for A/B runs
  if (!std::getenv("PTX2GLSL_NO_IMAGE_STATE"))
    for (uint32_t slot = 0; slot < R.imageStates.size() && slot < kImageSpecSlots; ++slot) {
      if (!R.imageStates[slot]) continue;
      size_t at = data.size();
      data.resize(at + 4);
      std::memcpy(data.data() + at, &R.imageStates[slot], 4);
      entries.push_back({kImageSpecId + slot, uint32_t(at), 4});
    }
  VkSpecializationInfo si{uint32_t(entries.size()), entries.data(), data.size(), data.data()};
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = R.module;
  cpci.stage.pName = "main";
  cpci.stage.pSpecializationInfo = &si;
  cpci.layout = R.layout;
  if (R.ctx.pipelineStats) cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  // (PTX2GLSL_PIPELINE_RECREATE, a second creation from a VkPipelineCache, was tried here and taken out: no faster
  // on NVIDIA, docs/GPU_BENCH.md 2026-12-07 evening)
  return vkOk(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, nullptr, &R.pipeline), "vkCreateComputePipelines",
              err);
}

// The driver's statistics of each executable of the pipeline (VK_KHR_pipeline_executable_properties; Vulkan 1.3
// specification, "Pipeline Executable Properties"), one line each: registers, spills, instruction counts, as the
// driver names them.
bool pipelineStatistics(Resources& R, std::vector<std::string>& lines, std::string& err) {
  VkDevice d = R.ctx.dev;
  auto props = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(d, "vkGetPipelineExecutablePropertiesKHR"));
  auto stats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(d, "vkGetPipelineExecutableStatisticsKHR"));
  if (!props || !stats) {
    err = "--pipeline-stats: the driver gives no vkGetPipelineExecutable*KHR entry points";
    return false;
  }
  VkPipelineInfoKHR pi{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  pi.pipeline = R.pipeline;
  uint32_t n = 0;
  if (!vkOk(props(d, &pi, &n, nullptr), "vkGetPipelineExecutablePropertiesKHR", err)) return false;
  std::vector<VkPipelineExecutablePropertiesKHR> ex(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  if (!vkOk(props(d, &pi, &n, ex.data()), "vkGetPipelineExecutablePropertiesKHR", err)) return false;
  for (uint32_t i = 0; i < n; ++i) {
    VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    ei.pipeline = R.pipeline;
    ei.executableIndex = i;
    uint32_t ns = 0;
    if (!vkOk(stats(d, &ei, &ns, nullptr), "vkGetPipelineExecutableStatisticsKHR", err)) return false;
    std::vector<VkPipelineExecutableStatisticKHR> st(ns, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (!vkOk(stats(d, &ei, &ns, st.data()), "vkGetPipelineExecutableStatisticsKHR", err)) return false;
    std::string line = std::string(ex[i].name) + ":";
    for (uint32_t k = 0; k < ns; ++k) {
      char v[64];
      switch (st[k].format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: snprintf(v, sizeof v, "%s", st[k].value.b32 ? "true" : "false"); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: snprintf(v, sizeof v, "%lld", (long long)st[k].value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: snprintf(v, sizeof v, "%llu", (unsigned long long)st[k].value.u64); break;
        default: snprintf(v, sizeof v, "%g", st[k].value.f64); break;
      }
      line += std::string(k ? ", " : " ") + st[k].name + " " + v;
    }
    lines.push_back(line);
  }
  return true;
}

bool recordCommands(Resources& R, const CaseSpec& c, bool checkBounds, std::string& err) {
  VkDevice d = R.ctx.dev;
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = R.ctx.pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  if (!vkOk(vkAllocateCommandBuffers(d, &cbai, &R.cmd), "vkAllocateCommandBuffers", err)) return false;
  if (R.ctx.timestampValidBits) {
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    if (!vkOk(vkCreateQueryPool(d, &qpci, nullptr, &R.queries), "vkCreateQueryPool", err)) return false;
  }
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(R.cmd, &bi);
  // Every buffer of the launch: where it has a device-local twin (device.h Buffer), its host bytes are copied in
  // before the first timestamp, which then waits for the copies (the transfer stage), and back after the second.
  std::vector<const Buffer*> all;
  bool twins = false;
  for (const Region& g : R.regions) {
    all.push_back(g.buf);
    twins = twins || g.buf->dev;
  }
  if (R.queries) vkCmdResetQueryPool(R.cmd, R.queries, 0, 2);
  recordUploads(R.cmd, all);
  if (R.queries)
    vkCmdWriteTimestamp(R.cmd, twins ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, R.queries, 0);
  vkCmdBindPipeline(R.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, R.pipeline);
  if (R.hw.set)
    vkCmdBindDescriptorSets(R.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, R.layout, 0, 1, &R.hw.set, 0, nullptr);
  uint64_t addrs[3] = {R.params.addr, R.globals.addr, R.bounds.addr};
  vkCmdPushConstants(R.cmd, R.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, checkBounds ? 24 : 16, addrs);
  vkCmdDispatch(R.cmd, c.grid[0], c.grid[1], c.grid[2]);
  if (R.queries) vkCmdWriteTimestamp(R.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, R.queries, 1);
  recordDownloads(R.cmd, all);
  // Make the shader's writes visible to the host mapping.
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(R.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                       0, nullptr);
  if (!vkOk(vkEndCommandBuffer(R.cmd), "vkEndCommandBuffer", err)) return false;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  return vkOk(vkCreateFence(d, &fci, nullptr, &R.fence), "vkCreateFence", err);
}

bool submitAndWait(Resources& R, int timeoutS, double& ms, std::string& err) {
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &R.cmd;
  if (!vkOk(vkQueueSubmit(R.ctx.queue, 1, &si, R.fence), "vkQueueSubmit", err)) return false;
  // A kernel that never ends must not hang the runner: give up after timeoutS seconds (`run --timeout`).
  VkResult r = vkWaitForFences(R.ctx.dev, 1, &R.fence, VK_TRUE, uint64_t(timeoutS) * 1000 * 1000 * 1000);
  if (r == VK_TIMEOUT) {
    R.ctx.busy = true;
    err = "the dispatch did not finish within " + std::to_string(timeoutS) +
          " s (--timeout); it still runs, so its logical device is left to it and the next case gets a new one";
    return false;
  }
  if (!vkOk(r, "vkWaitForFences", err)) return false;
  vkResetFences(R.ctx.dev, 1, &R.fence);
  ms = -1;
  if (R.queries) {
    uint64_t ts[2];
    if (vkGetQueryPoolResults(R.ctx.dev, R.queries, 0, 2, sizeof ts, ts, 8, VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      uint64_t mask = R.ctx.timestampValidBits >= 64 ? ~0ull : (1ull << R.ctx.timestampValidBits) - 1;
      ms = (double)((ts[1] - ts[0]) & mask) * R.ctx.info.props.limits.timestampPeriod * 1e-6;
    }
  }
  return true;
}

}  // namespace

bool checkLaunch(const Context& ctx, const CaseSpec& c, const Manifest& m, std::string& err) {
  if (!ctx.checkFeatures(m.features, err)) return false;
  const VkPhysicalDeviceLimits& L = ctx.info.props.limits;
  const char* axis[3] = {"x", "y", "z"};
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (c.block[i] > L.maxComputeWorkGroupSize[i]) {
      err = std::string("block.") + axis[i] + " = " + std::to_string(c.block[i]) + " exceeds the device's " +
            "maxComputeWorkGroupSize " + std::to_string(L.maxComputeWorkGroupSize[i]);
      return false;
    }
    if (c.grid[i] > L.maxComputeWorkGroupCount[i]) {
      err = std::string("grid.") + axis[i] + " = " + std::to_string(c.grid[i]) + " exceeds the device's " +
            "maxComputeWorkGroupCount " + std::to_string(L.maxComputeWorkGroupCount[i]);
      return false;
    }
    if (m.reqntid[i] && m.reqntid[i] != c.block[i]) {
      err = std::string("block.") + axis[i] + " = " + std::to_string(c.block[i]) + " but the kernel's .reqntid says " +
            std::to_string(m.reqntid[i]);
      return false;
    }
    threads *= c.block[i];
  }
  if (m.blockThreads && m.blockThreads != threads) {
    err = "block has " + std::to_string(threads) + " threads but the kernel's barriers name " +
          std::to_string(m.blockThreads) + " (only barriers of the whole block are supported)";
    return false;
  }
  if (threads > L.maxComputeWorkGroupInvocations) {
    err = "block has " + std::to_string(threads) + " threads; the device allows " +
          std::to_string(L.maxComputeWorkGroupInvocations) + " (maxComputeWorkGroupInvocations)";
    return false;
  }
  uint64_t shared = (uint64_t)m.staticSharedBytes + c.dynamicSharedBytes;
  if (shared > L.maxComputeSharedMemorySize) {
    err = "shared memory " + std::to_string(m.staticSharedBytes) + " static + " + std::to_string(c.dynamicSharedBytes) +
          " dynamic bytes exceeds the device's maxComputeSharedMemorySize " + std::to_string(L.maxComputeSharedMemorySize);
    return false;
  }
  return true;
}

namespace {

// The data a launch writes before every dispatch: buffer inputs, texels, and the globals image (.global
// initialisers and the SFU tables with their directory).
struct Inputs {
  std::vector<std::vector<uint8_t>> buffers, texels;
  std::vector<const ImageSpec*> imgs;  // textures, then surfaces
  std::vector<uint8_t> globals;        // globalsAlloc bytes, or empty
};

// Creates every buffer of the launch, each with guard zones (docs/RUNNER_SAFETY.md), and the parameter block.
bool createResources(Resources& R, const CaseSpec& c, const Manifest& m, Inputs& in, std::string& err) {
  Context& ctx = R.ctx;
  in.buffers.resize(c.buffers.size());
  R.bufs.resize(c.buffers.size());
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    const BufferSpec& b = c.buffers[i];
    if (!generateInit(b.init, b.bytes, c.dir, "buffers." + b.name, in.buffers[i], err)) return false;
    if (!ctx.createBuffer(b.bytes, R.bufs[i], err, kGuardBytes)) return false;
  }
  // Textures and surfaces: texel buffers plus one descriptor record each (images.h); the record's address is the
  // handle written into the parameter block.
  for (auto& t : c.textures) in.imgs.push_back(&t);
  for (auto& s : c.surfaces) in.imgs.push_back(&s);
  in.texels.resize(in.imgs.size());
  R.images.resize(in.imgs.size());
  if (!in.imgs.empty() && !ctx.createBuffer(in.imgs.size() * kImageRecordBytes, R.records, err, kGuardBytes))
    return false;
  std::vector<uint32_t> states(in.imgs.size());  // per record
  for (size_t i = 0; i < in.imgs.size(); ++i) {
    bool surface = i >= c.textures.size();
    std::string what = (surface ? "surfaces." : "textures.") + in.imgs[i]->name;
    uint64_t bytes = imageBytes(*in.imgs[i]);
    if (!generateInit(in.imgs[i]->init, bytes, c.dir, what, in.texels[i], err)) return false;
    // Padding: the shader reads whole aligned words, also around the last texel of a 1- or 2-byte format.
    if (!ctx.createBuffer((bytes + 15) / 16 * 16 + 16, R.images[i], err, kGuardBytes)) return false;
    // written here once too (every dispatch rewrites them): device-sampled textures are uploaded from these bytes
    if (!in.texels[i].empty()) std::memcpy(R.images[i].map, in.texels[i].data(), in.texels[i].size());
    std::vector<uint8_t> rec = imageRecord(*in.imgs[i], surface, R.images[i].addr);
    std::memcpy((uint8_t*)R.records.map + i * kImageRecordBytes, rec.data(), rec.size());
    states[i] = imageState(rec);
  }
  auto addressOf = [&](char kind, const std::string& name) -> uint64_t {
    for (size_t i = 0; i < c.buffers.size(); ++i)
      if (kind == 'b' && c.buffers[i].name == name) return R.bufs[i].addr;
    for (size_t i = 0; i < in.imgs.size(); ++i)
      if (((kind == 't' && i < c.textures.size()) || (kind == 's' && i >= c.textures.size())) &&
          in.imgs[i]->name == name)
        return R.records.addr + i * kImageRecordBytes;
    return 0;  // names were checked when the case was loaded
  };
  std::vector<uint8_t> block;
  if (!buildParamBlock(c, m.params, m.paramBytes, addressOf, block, err)) return false;
  // Each manifest image's state is that of the record whose address the parameter block holds at the image's
  // offset (what the shader will read there); anything else (no record there, a texref) stays unknown.
  R.imageStates.assign(m.images.size(), 0u);
  R.slotImages.assign(m.images.size(), -1);
  for (const ManifestImage& im : m.images) {
    if (!im.texref.empty() || im.slot >= R.imageStates.size() || uint64_t(im.offset) + 8 > block.size()) continue;
    uint64_t h;
    std::memcpy(&h, block.data() + im.offset, 8);
    for (size_t i = 0; i < in.imgs.size(); ++i)
      if (h == R.records.addr + i * kImageRecordBytes) {
        R.imageStates[im.slot] = states[i];
        R.slotImages[im.slot] = int(i);
      }
  }
  if (!ctx.createBuffer(block.size(), R.params, err, kGuardBytes)) return false;
  std::memcpy(R.params.map, block.data(), block.size());
  if (m.globalsInit.size() > m.globalsBytes) {
    err = "the manifest's globalsInit (" + std::to_string(m.globalsInit.size()) + " bytes) exceeds globalsBytes (" +
          std::to_string(m.globalsBytes) + ")";
    return false;
  }
  // SFU model tables go after the module's globals; the shader finds them through its directory (sfu_tables.h).
  std::vector<uint8_t> sfuImage;
  std::vector<uint32_t> sfuOffsets;
  uint64_t sfuBase = (uint64_t(m.globalsBytes) + 15) & ~uint64_t(15);
  if (!m.sfuTables.empty() && !layoutSfuTables(m.sfuTables, sfuImage, sfuOffsets, err)) return false;
  uint64_t globalsAlloc = sfuImage.empty() ? m.globalsBytes : sfuBase + sfuImage.size();
  if (globalsAlloc > 0xFFFFFFFFull) {
    err = "the SFU tables do not fit in a 32-bit globals offset";
    return false;
  }
  if (globalsAlloc) {
    if (!ctx.createBuffer(globalsAlloc, R.globals, err, kGuardBytes)) return false;
    // .global variables start from their initializers on every run, as a fresh module would
    in.globals.assign(globalsAlloc, 0);
    std::memcpy(in.globals.data(), m.globalsInit.data(), m.globalsInit.size());
    if (!sfuImage.empty()) {
      std::memcpy(in.globals.data() + sfuBase, sfuImage.data(), sfuImage.size());
      for (size_t i = 0; i < sfuOffsets.size(); ++i) {
        uint32_t at = uint32_t(sfuBase + sfuOffsets[i]);
        std::memcpy(in.globals.data() + m.sfuDir + 4 * i, &at, 4);
      }
    }
  }
  if (m.checkBounds && !ctx.createBuffer(kBoundsBytes, R.bounds, err, kGuardBytes)) return false;
  // Every buffer, named for messages; the ones the kernel may address with ld/st/atom go in the --check-bounds table.
  for (size_t i = 0; i < c.buffers.size(); ++i)
    R.regions.push_back({"buffer '" + c.buffers[i].name + "'", &R.bufs[i], true, R.bufs[i].size});
  for (size_t i = 0; i < in.imgs.size(); ++i)
    R.regions.push_back({std::string(i < c.textures.size() ? "texture '" : "surface '") + in.imgs[i]->name +
                             "' (its texels)", &R.images[i], false, 0});
  if (R.records.buf) R.regions.push_back({"the image descriptor records", &R.records, false, 0});
  R.regions.push_back({"the parameter block", &R.params, true, R.params.size});
  if (R.globals.buf) R.regions.push_back({"the module's .global variables", &R.globals, m.globalVarBytes > 0, m.globalVarBytes});
  if (R.bounds.buf) R.regions.push_back({"the --check-bounds record", &R.bounds, false, 0});
  return true;
}

// After a dispatch: what refuses its results, in order of precision: an out-of-bounds access --check-bounds
// recorded, a damaged guard zone, lavapipe's loop budget.
bool checkDispatch(Resources& R, const CaseSpec& c, const Manifest& m, std::string& err) {
  if (m.checkBounds) {
    err = boundsReport(R.bounds, R.regions, m.staticSharedBytes, c.dynamicSharedBytes);
    if (!err.empty()) return false;
  }
  err = guardDamage(R.regions);
  if (!err.empty()) {
    err += "; results refused (ptx2glsl run --check-bounds names the instruction)";
    return false;
  }
  if (m.loopGuard && isLavapipe(R.ctx.info)) {
    uint32_t spent;
    std::memcpy(&spent, (const uint8_t*)R.globals.map + m.loopGuardAt, 4);
    if (spent) {
      err = "lavapipe's loop budget ran out in " + std::to_string(spent) +
            " subgroup(s): llvmpipe ends all loops of a subgroup after 65,535 iterations in total, so the outputs "
            "are not what the kernel computes (docs/HAZARDS_IMPLEMENTED.md); run it on another device";
      return false;
    }
  }
  return true;
}

}  // namespace

bool launch(Context& ctx, const CaseSpec& c, const TranslatedKernel& k, int repeat, int timeoutS, LaunchResult& out,
            std::string& err) {
  Resources R(ctx);
  const Manifest& m = k.manifest;
  Inputs in;
  if (!createResources(R, c, m, in, err)) return false;
  // The textures each device-sampled slot names (textures come first in R.images; a surface is none).
  std::vector<SlotTexture> slots(R.slotImages.size());
  for (size_t slot = 0; slot < slots.size(); ++slot) {
    int i = R.slotImages[slot];
    if (i >= 0 && size_t(i) < c.textures.size()) slots[slot] = {in.imgs[i], &R.images[i]};
  }
  if (!createDeviceImages(ctx, m, slots, R.imageStates, R.hw, err)) return false;
  if (std::getenv("PTX2GLSL_VERBOSE")) {
    for (auto& line : R.hw.report) fprintf(stderr, "%s: device sampling, %s\n", c.name.c_str(), line.c_str());
    size_t twins = 0;
    for (const Region& g : R.regions) twins += g.buf->dev ? 1 : 0;
    fprintf(stderr, "%s: %zu of %zu buffers in device-local twins (device.h Buffer; mapped memory flags 0x%x)\n",
            c.name.c_str(), twins, R.regions.size(), R.regions.empty() ? 0u : unsigned(R.regions[0].buf->hostFlags));
  }
  std::vector<uint64_t> table;
  if (m.checkBounds && !boundsTable(R.regions, table, err)) return false;
  auto tp = std::chrono::steady_clock::now();
  if (!createPipeline(R, c, k, table, err)) return false;
  double pipelineMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tp).count();
  if (std::getenv("PTX2GLSL_VERBOSE")) fprintf(stderr, "%s: pipeline created in %.1f ms\n", c.name.c_str(), pipelineMs);
  if (!recordCommands(R, c, m.checkBounds, err)) return false;

  out = LaunchResult();
  out.pipelineMs = pipelineMs;
  if (ctx.pipelineStats && !pipelineStatistics(R, out.pipelineStats, err)) return false;
  // With repeat > 1: dispatch 0 gives the outputs and is not timed; then dispatches run untimed for at least
  // kWarmupMs of wall time, so that the GPU has left its idle clock (the H200 idles at 345 MHz and reaches 1980 MHz
  // only some 0.3-0.6 s into a busy period, which made the first dispatches after pipeline creation up to 5.7x
  // slower: docs/GPU_BENCH.md "GPU clocks"); then `repeat` timed dispatches.
  // PTX2GLSL_WARMUP_MS overrides the 1 s (a measurement knob: docs/GPU_BENCH.md).
  double kWarmupMs = 1000.0;
  if (const char* w = std::getenv("PTX2GLSL_WARMUP_MS")) kWarmupMs = std::max(0.0, std::atof(w));
  const int timed = repeat > 1 ? repeat : 0;
  std::chrono::steady_clock::time_point warmStart;
  bool warming = false;
  for (int rep = 0; rep < 1 + timed; ++rep) {
    for (size_t i = 0; i < c.buffers.size(); ++i)
      if (!in.buffers[i].empty()) std::memcpy(R.bufs[i].map, in.buffers[i].data(), in.buffers[i].size());
    for (size_t i = 0; i < in.imgs.size(); ++i)
      if (!in.texels[i].empty()) std::memcpy(R.images[i].map, in.texels[i].data(), in.texels[i].size());
    if (R.globals.map) std::memcpy(R.globals.map, in.globals.data(), in.globals.size());
    if (m.checkBounds) clearBoundsRecord(R.bounds);
    double ms;
    if (!submitAndWait(R, timeoutS, ms, err)) return false;
    if (rep > 0 && !warming && ms >= 0) out.gpuMs.push_back(ms);
    if (rep > 0 && !warming && std::getenv("PTX2GLSL_TIMES"))
      fprintf(stderr, "%s: dispatch %d: %.3f GPU ms\n", c.name.c_str(), rep, ms);
    if (rep == 0 && std::getenv("PTX2GLSL_VERBOSE")) fprintf(stderr, "%s: first dispatch done (%.3f GPU ms)\n", c.name.c_str(), ms);
    if (!checkDispatch(R, c, m, err)) return false;
    if (warming) {  // a warm-up dispatch is not one of the timed ones
      warming = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - warmStart).count() <
                kWarmupMs;
      --rep;
      continue;
    }
    if (rep > 0) continue;
    if (timed > 0) {
      warming = true;
      warmStart = std::chrono::steady_clock::now();
    }
    for (auto& o : c.outputs) {
      if (o.surface) {  // surfaces come back as their tightly packed rows
        size_t si = 0;
        while (si < c.surfaces.size() && c.surfaces[si].name != o.name) ++si;
        const uint8_t* p = (const uint8_t*)R.images[c.textures.size() + si].map;
        out.outputs.emplace_back(p, p + imageBytes(c.surfaces[si]));
        continue;
      }
      size_t idx = 0;
      while (idx < c.buffers.size() && c.buffers[idx].name != o.name) ++idx;
      const uint8_t* p = (const uint8_t*)R.bufs[idx].map;  // outputs were checked to name a buffer
      out.outputs.emplace_back(p, p + c.buffers[idx].bytes);
    }
  }
  return true;
}

bool timePipeline(Context& ctx, const std::vector<uint32_t>& spirv, const uint32_t block[3], double& ms,
                  std::string& err) {
  Resources R(ctx);
  CaseSpec c;
  for (int i = 0; i < 3; ++i) c.block[i] = block[i];
  TranslatedKernel k;
  k.spirv = spirv;
  // No manifest here: the module's own sampler bindings give the set layout (device_images.h).
  std::vector<uint32_t> bindings;
  if (!spirvSamplerBindings(spirv, bindings, err)) return false;
  if (!bindings.empty() && !createSamplerSetLayout(ctx, bindings, R.hw.setLayout, err)) return false;
  auto t0 = std::chrono::steady_clock::now();
  if (!createPipeline(R, c, k, {}, err)) return false;
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

}  // namespace p2g::vk
