// ptx2glsl-cudaref: the CUDA reference runner. It runs each case's PTX through NVIDIA's own stack (the driver JITs
// the PTX with ptxas) and writes the output bytes to <case>/expected/<name>.bin: the reference every other runner
// is compared with. It reads the same case.json, builds the same inputs and the same parameter block bytes with
// the same code (runtime/common) as the Vulkan runner, and takes the parameter layout from the same PTX front end.
//
// Usage: ptx2glsl-cudaref CASE... [--out DIR] [--check] [--device N] [--time N]
//   --out DIR   write DIR/<case>/<name>.bin instead of <case>/expected/<name>.bin
//   --check     compare with the existing expected/ instead of writing (shows the reference is deterministic)
//   --device N  CUDA device ordinal (default 0)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "case.h"
#include "diff.h"
#include "images.h"
#include "inputs.h"
#include "layout.h"
#include "params.h"
#include "parser.h"

using namespace p2g;

namespace {

struct Options {
  std::vector<std::string> cases;
  std::string outDir;
  bool check = false;
  int device = 0;
  int repeat = 0;  // --time N: time N further launches with CUDA events, after 1 s of untimed ones (outputs read first)
};

int g_timeRuns = 0;

bool cuOk(CUresult r, const char* what, std::string& err) {
  if (r == CUDA_SUCCESS) return true;
  const char* name = nullptr;
  const char* desc = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &desc);
  err = std::string(what) + " failed: " + (name ? name : "?") + " (" + (desc ? desc : "no description") + ")";
  return false;
}

// Parses the case's PTX and lays out the entry's .param space, as the translator does for the manifest.
bool paramLayout(const CaseSpec& c, std::vector<ManifestParam>& layout, uint32_t& blockBytes, std::string& ptxText,
                 std::string& err) {
  ptx::SourceManager sm;
  int buf = sm.addFile(c.ptx, err);
  if (buf < 0) return false;
  ptxText = std::string(sm.text(buf));
  ptx::DiagEngine diags(sm);
  ptx::Module mod;
  if (!ptx::parseModule(sm, buf, diags, mod)) {
    err = "cannot parse " + c.ptx + ":\n" + diags.formatAll();
    return false;
  }
  for (auto& f : mod.functions) {
    if (!f.isEntry || f.name != c.kernel) continue;
    std::string lerr;
    layout = ptx::computeParamLayout(f, &lerr);
    if (!lerr.empty()) {
      err = "parameter layout of " + c.kernel + ": " + lerr;
      return false;
    }
    blockBytes = ptx::paramBlockBytes(layout);
    return true;
  }
  err = "no .entry " + c.kernel + " in " + c.ptx;
  return false;
}

// Device allocations of one case, freed on every exit path.
struct DeviceBuffers {
  std::vector<CUdeviceptr> ptrs;
  std::vector<CUarray> arrays;          // textures then surfaces
  std::vector<CUtexObject> texObjs;     // parallel to CaseSpec::textures
  std::vector<CUsurfObject> surfObjs;   // parallel to CaseSpec::surfaces
  CUmodule module = nullptr;
  ~DeviceBuffers() {
    for (auto t : texObjs)
      if (t) cuTexObjectDestroy(t);
    for (auto s : surfObjs)
      if (s) cuSurfObjectDestroy(s);
    for (auto a : arrays)
      if (a) cuArrayDestroy(a);
    for (auto p : ptrs)
      if (p) cuMemFree(p);
    if (module) cuModuleUnload(module);
  }
};

// One host<->array copy of a whole image: tightly packed rows, then slices or layers (docs/TEXTURES.md).
bool copyImage(const ImageSpec& s, CUarray a, void* host, bool toDevice, std::string& err) {
  TexFormat f;
  parseTexFormat(s.format, f);
  CUDA_MEMCPY3D m;
  std::memset(&m, 0, sizeof m);
  size_t rowBytes = (size_t)s.width * texelBytes(f);
  size_t rows = imageDims(s) == 1 ? 1 : s.height;
  if (toDevice) {
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host;
    m.srcPitch = rowBytes;
    m.srcHeight = rows;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = a;
  } else {
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = a;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = host;
    m.dstPitch = rowBytes;
    m.dstHeight = rows;
  }
  m.WidthInBytes = rowBytes;
  m.Height = rows;
  m.Depth = s.depth ? s.depth : 1;
  return cuOk(cuMemcpy3D(&m), toDevice ? "cuMemcpy3D (image upload)" : "cuMemcpy3D (surface read-back)", err);
}

// A CUDA array for a texture or surface of the case: the format's channels, 1D arrays with height 0, 2D with
// depth 0, layered ones with CUDA_ARRAY3D_LAYERED; surfaces need CUDA_ARRAY3D_SURFACE_LDST.
bool createImage(const CaseSpec& c, const ImageSpec& s, bool surface, CUarray& a, std::string& err) {
  TexFormat f;
  parseTexFormat(s.format, f);
  const FormatInfo& info = formatInfo(f);
  CUDA_ARRAY3D_DESCRIPTOR d;
  std::memset(&d, 0, sizeof d);
  d.Width = s.width;
  d.Height = imageDims(s) == 1 ? 0 : s.height;
  d.Depth = s.depth;
  d.Format = info.isFloat ? (info.channelBytes == 2 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT)
                          : (info.channelBytes == 1 ? CU_AD_FORMAT_UNSIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT32);
  d.NumChannels = info.channels;
  d.Flags = (s.layered ? CUDA_ARRAY3D_LAYERED : 0) | (surface ? CUDA_ARRAY3D_SURFACE_LDST : 0);
  std::string what = std::string(surface ? "surfaces." : "textures.") + s.name;
  if (!cuOk(cuArray3DCreate(&a, &d), ("cuArray3DCreate for " + what).c_str(), err)) {
    a = nullptr;
    return false;
  }
  std::vector<uint8_t> texels;
  if (!generateInit(s.init, imageBytes(s), c.dir, what, texels, err)) return false;
  return copyImage(s, a, texels.data(), true, err);
}

// Texture objects with the case's sampler state: CUDA's own address/filter numbering (images.h uses the same),
// 8-bit unorm formats read as normalized floats, 32-bit integer formats read as integers, border colour 0.
bool createTexObject(const ImageSpec& s, CUarray a, CUtexObject& obj, std::string& err) {
  TexFormat f;
  TexFilter fi;
  TexAddress ad;
  parseTexFormat(s.format, f);
  parseTexFilter(s.filter, fi);
  parseTexAddress(s.address, ad);
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof r);
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = a;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof t);
  for (int i = 0; i < 3; ++i) t.addressMode[i] = (CUaddress_mode)ad;
  t.filterMode = (CUfilter_mode)fi;
  const FormatInfo& info = formatInfo(f);
  t.flags = (s.normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (!info.isFloat && !info.isUnorm ? CU_TRSF_READ_AS_INTEGER : 0);
  return cuOk(cuTexObjectCreate(&obj, &r, &t, nullptr), ("cuTexObjectCreate for textures." + s.name).c_str(), err);
}

bool createImages(const CaseSpec& c, DeviceBuffers& D, std::string& err) {
  D.arrays.assign(c.textures.size() + c.surfaces.size(), nullptr);
  D.texObjs.assign(c.textures.size(), 0);
  D.surfObjs.assign(c.surfaces.size(), 0);
  for (size_t i = 0; i < c.textures.size(); ++i)
    if (!createImage(c, c.textures[i], false, D.arrays[i], err) || !createTexObject(c.textures[i], D.arrays[i], D.texObjs[i], err))
      return false;
  for (size_t i = 0; i < c.surfaces.size(); ++i) {
    CUarray& a = D.arrays[c.textures.size() + i];
    if (!createImage(c, c.surfaces[i], true, a, err)) return false;
    CUDA_RESOURCE_DESC r;
    std::memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    if (!cuOk(cuSurfObjectCreate(&D.surfObjs[i], &r), ("cuSurfObjectCreate for surfaces." + c.surfaces[i].name).c_str(), err))
      return false;
  }
  return true;
}

bool loadModule(const std::string& ptxText, const std::string& kernel, DeviceBuffers& D, CUfunction& fn,
                std::string& err) {
  // The JIT logs are the only way to see why ptxas refused the PTX, so they are always collected.
  std::vector<char> errLog(1 << 16, 0), infoLog(1 << 16, 0);
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {errLog.data(), (void*)(uintptr_t)errLog.size(), infoLog.data(), (void*)(uintptr_t)infoLog.size()};
  CUresult r = cuModuleLoadDataEx(&D.module, ptxText.c_str(), 4, opts, vals);
  if (r != CUDA_SUCCESS) {
    D.module = nullptr;
    cuOk(r, "cuModuleLoadDataEx (JIT of the PTX)", err);
    err += "\nJIT error log:\n" + std::string(errLog.data());
    return false;
  }
  return cuOk(cuModuleGetFunction(&fn, D.module, kernel.c_str()), ("cuModuleGetFunction(" + kernel + ")").c_str(), err);
}

// Runs one case and returns its outputs (one per CaseSpec::outputs).
bool runCase(const CaseSpec& c, std::vector<std::vector<uint8_t>>& outputs, std::string& err) {
  std::vector<ManifestParam> layout;
  uint32_t blockBytes = 0;
  std::string ptxText;
  if (!paramLayout(c, layout, blockBytes, ptxText, err)) return false;
  // The same validation as the Vulkan runner, before anything is allocated or launched.
  if (!validateParams(c, layout, err)) return false;

  DeviceBuffers D;
  CUfunction fn;
  if (!loadModule(ptxText, c.kernel, D, fn, err)) return false;
  D.ptrs.assign(c.buffers.size(), 0);
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    const BufferSpec& b = c.buffers[i];
    std::vector<uint8_t> init;
    if (!generateInit(b.init, b.bytes, c.dir, "buffers." + b.name, init, err)) return false;
    if (!cuOk(cuMemAlloc(&D.ptrs[i], b.bytes ? b.bytes : 16), ("cuMemAlloc for buffers." + b.name).c_str(), err))
      return false;
    if (b.bytes && !cuOk(cuMemcpyHtoD(D.ptrs[i], init.data(), b.bytes), "cuMemcpyHtoD", err)) return false;
  }
  if (!createImages(c, D, err)) return false;
  auto addressOf = [&](char kind, const std::string& name) -> uint64_t {
    for (size_t i = 0; i < c.buffers.size(); ++i)
      if (kind == 'b' && c.buffers[i].name == name) return (uint64_t)D.ptrs[i];
    for (size_t i = 0; i < c.textures.size(); ++i)
      if (kind == 't' && c.textures[i].name == name) return (uint64_t)D.texObjs[i];
    for (size_t i = 0; i < c.surfaces.size(); ++i)
      if (kind == 's' && c.surfaces[i].name == name) return (uint64_t)D.surfObjs[i];
    return 0;
  };
  std::vector<uint8_t> block;
  if (!buildParamBlock(c, layout, blockBytes, addressOf, block, err)) return false;

  // Above 48 KiB of dynamic shared memory a kernel must opt in (CUDA programming guide, "Shared Memory").
  if (c.dynamicSharedBytes > 48 * 1024 &&
      !cuOk(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)c.dynamicSharedBytes),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err))
    return false;
  size_t size = block.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, block.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  auto launchKernel = [&] {
    return cuLaunchKernel(fn, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
                          c.dynamicSharedBytes, nullptr, nullptr, size ? extra : nullptr);
  };
  // one launch, waited for (the outputs' launch and the warm-up before timing)
  auto launchAndWait = [&](const char* what) {
    return cuOk(launchKernel(), "cuLaunchKernel", err) && cuOk(cuCtxSynchronize(), what, err);
  };
  if (!launchAndWait("kernel execution (cuCtxSynchronize)")) return false;
  outputs.clear();
  for (auto& o : c.outputs) {
    if (o.surface) {  // read back as tightly packed rows, like the Vulkan runner's surface buffers
      size_t si = 0;
      while (c.surfaces[si].name != o.name) ++si;  // loadCase checked the name
      std::vector<uint8_t> bytes(imageBytes(c.surfaces[si]));
      if (!copyImage(c.surfaces[si], D.arrays[c.textures.size() + si], bytes.data(), false, err)) return false;
      outputs.push_back(std::move(bytes));
      continue;
    }
    size_t i = 0;
    while (c.buffers[i].name != o.name) ++i;  // loadCase checked that the output names a buffer
    std::vector<uint8_t> bytes(c.buffers[i].bytes);
    if (!bytes.empty() && !cuOk(cuMemcpyDtoH(bytes.data(), D.ptrs[i], bytes.size()), "cuMemcpyDtoH", err)) return false;
    outputs.push_back(std::move(bytes));
  }
  if (g_timeRuns > 0) {
    // GPU time of the same launch, for side-by-side comparison with `ptx2glsl run --repeat N` (the inputs are not
    // restored between launches: fine for timing, and the outputs above were read first).
    CUevent e0, e1;
    std::vector<float> ms;
    if (!cuOk(cuEventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate", err) ||
        !cuOk(cuEventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate", err))
      return false;
    // Untimed launches for at least 1 s first, as `ptx2glsl run --repeat` does: the GPU leaves its idle clock
    // (345 MHz on the H200, 1980 MHz under load) only some 0.3-0.6 s into a busy period (docs/GPU_BENCH.md).
    for (auto w0 = std::chrono::steady_clock::now();
         std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < 1.0;)
      if (!launchAndWait("cuCtxSynchronize")) return false;
    for (int k = 0; k < g_timeRuns; ++k) {
      cuEventRecord(e0, nullptr);
      CUresult r = launchKernel();
      cuEventRecord(e1, nullptr);
      if (!cuOk(r, "cuLaunchKernel", err) || !cuOk(cuEventSynchronize(e1), "cuEventSynchronize", err)) return false;
      float t = 0;
      cuEventElapsedTime(&t, e0, e1);
      ms.push_back(t);
    }
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    std::sort(ms.begin(), ms.end());
    std::printf("%s: CUDA GPU ms min %.3f, median %.3f (%d runs)\n", c.name.c_str(), ms.front(), ms[ms.size() / 2],
                g_timeRuns);
  }
  return true;
}

// Writes or checks one case's outputs; returns the number of problems.
int emitOutputs(const CaseSpec& c, const std::vector<std::vector<uint8_t>>& outputs, const Options& opt) {
  int bad = 0;
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const OutputSpec& o = c.outputs[i];
    const std::vector<uint8_t>& got = outputs[i];
    std::string err;
    if (opt.check) {
      std::string want;
      std::string path = c.dir + "/expected/" + o.name + ".bin";
      if (!readFile(path, want)) {
        std::cout << c.name << " " << o.name << ": error: no expected/" << o.name << ".bin\n";
        ++bad;
      } else if (want.size() != got.size()) {
        std::cout << c.name << " " << o.name << ": error: " << got.size() << " bytes, expected has " << want.size() << "\n";
        ++bad;
      } else {
        DiffStats d = diffBytes(got.data(), (const uint8_t*)want.data(), got.size(), o.type);
        std::cout << c.name << " " << o.name << ": " << formatDiff(d) << "\n";
        bad += !d.identical();
      }
      continue;
    }
    std::string dir = opt.outDir.empty() ? c.dir + "/expected" : opt.outDir + "/" + c.name;
    if (!makeDirs(dir, err) || !writeFile(dir + "/" + o.name + ".bin", got.data(), got.size(), err)) {
      std::cout << c.name << " " << o.name << ": error: " << err << "\n";
      ++bad;
    } else {
      std::cout << c.name << " " << o.name << ": wrote " << got.size() << " bytes to " << dir << "/" << o.name << ".bin\n";
    }
  }
  return bad;
}

bool parseArgs(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      o.outDir = argv[++i];
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "--device" && i + 1 < argc) {
      o.device = std::atoi(argv[++i]);
    } else if (a == "--time" && i + 1 < argc) {
      o.repeat = std::atoi(argv[++i]);
      g_timeRuns = o.repeat;
    } else if (a == "-h" || a == "--help" || (!a.empty() && a[0] == '-')) {
      return false;
    } else {
      o.cases.push_back(a);
    }
  }
  return !o.cases.empty() && !(o.check && !o.outDir.empty());
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parseArgs(argc, argv, opt)) {
    std::cerr << "usage: ptx2glsl-cudaref CASE... [--out DIR | --check] [--device N] [--time N]\n";
    return 2;
  }
  std::string err;
  CUdevice dev;
  CUcontext ctx;
  if (!cuOk(cuInit(0), "cuInit", err) || !cuOk(cuDeviceGet(&dev, opt.device), "cuDeviceGet", err) ||
      !cuOk(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", err) ||
      !cuOk(cuCtxSetCurrent(ctx), "cuCtxSetCurrent", err)) {
    std::cerr << "error: " << err << "\n";
    return 1;
  }
  char name[256] = {0};
  cuDeviceGetName(name, sizeof name, dev);
  std::cout << "device: " << name << "\n";
  int errors = 0, bad = 0;
  for (auto& dir : opt.cases) {
    CaseSpec c;
    std::vector<std::vector<uint8_t>> outputs;
    if (!loadCase(dir, c, err) || !runCase(c, outputs, err)) {
      std::cout << "error: " << (c.name.empty() ? dir : c.name) << ": " << err << "\n";
      ++errors;
      // A failed kernel can leave the context unusable; reset it so the next case starts clean.
      cuDevicePrimaryCtxReset(dev);
      cuDevicePrimaryCtxRetain(&ctx, dev);
      cuCtxSetCurrent(ctx);
      continue;
    }
    bad += emitOutputs(c, outputs, opt);
  }
  std::cout << opt.cases.size() << " cases, " << errors << " errors, " << bad << " output problems\n";
  cuDevicePrimaryCtxRelease(dev);
  return errors || bad ? 1 : 0;
}
