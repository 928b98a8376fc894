// Device facts (runtime/vulkan/facts.h): which devices get which fact, and the module patch the f32 fact needs,
// checked by SPIRV-Tools' validator (spirv-val) on the runtime test's ABI probe shader.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "facts.h"

using namespace p2g::vk;

namespace {
DeviceInfo fake(VkDriverId id, uint32_t vendor, bool preserve32) {
  DeviceInfo d;
  d.driver.driverID = id;
  d.props.vendorID = vendor;
  d.floatControls.shaderDenormPreserveFloat32 = preserve32 ? VK_TRUE : VK_FALSE;
  return d;
}
std::vector<uint32_t> probeModule() {
  std::ifstream f(P2G_PROBE_SPV, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> w(bytes.size() / 4);
  memcpy(w.data(), bytes.data(), w.size() * 4);
  return w;
}
size_t countInst(const std::vector<uint32_t>& m, uint32_t op, uint32_t word1, size_t at = 1) {
  size_t n = 0;
  for (size_t i = 5; i < m.size(); i += m[i] >> 16) {
    if ((m[i] >> 16) == 0) break;
    if ((m[i] & 0xffff) == op && (m[i] >> 16) > at && m[i + at] == word1) ++n;
  }
  return n;
}
bool spirvValOk(const std::vector<uint32_t>& m) {
  char path[] = "/tmp/p2g_facts_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return false;
  bool ok = write(fd, m.data(), m.size() * 4) == ssize_t(m.size() * 4);
  close(fd);
  std::string cmd = std::string("spirv-val --target-env vulkan1.2 --scalar-block-layout ") + path + " 2>&1";
  ok = ok && system(cmd.c_str()) == 0;
  unlink(path);
  return ok;
}
}  // namespace

TEST_CASE("the f32 fact holds only on NVIDIA's driver with DenormPreserve for f32, and only when enabled") {
  CHECK(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, true), true).f32Ieee);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, true), false).f32Ieee);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true).f32Ieee);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, true), true).f32Ieee);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_RADV, 0x1002, true), true).f32Ieee);
  CHECK(describeFacts(DeviceFacts{}) == "none");
}

TEST_CASE("the fused-fma fact holds on NVIDIA's proprietary driver only (lavapipe's fma() is not one rounding)") {
  CHECK(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true).fmaFused);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), false).fmaFused);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, false), true).fmaFused);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_RADV, 0x1002, true), true).fmaFused);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA, 0x8086, true), true).fmaFused);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_NVK, 0x10DE, true), true).fmaFused);  // NVK: never measured
  DeviceFacts both;
  both.f32Ieee = both.fmaFused = true;
  CHECK(describeFacts(both) == "f32-ieee,fma-fused");
  DeviceFacts fma;
  fma.fmaFused = true;
  CHECK(describeFacts(fma) == "fma-fused");
  CHECK(applyFacts(probeModule(), fma) == probeModule());  // no module patch: the fact needs no execution mode
}

TEST_CASE("the half-conversion fact holds on NVIDIA's proprietary driver and on lavapipe, the measured ones") {
  CHECK(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true).halfCvt);
  CHECK(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, false), true).halfCvt);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, false), false).halfCvt);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_RADV, 0x1002, true), true).halfCvt);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_NVK, 0x10DE, true), true).halfCvt);  // NVK: never measured
  DeviceFacts h;
  h.halfCvt = true;
  CHECK(describeFacts(h) == "half-cvt");
  h.fmaFused = true;
  CHECK(describeFacts(h) == "fma-fused,half-cvt");
  CHECK(applyFacts(probeModule(), h) == probeModule());  // no module patch
}

TEST_CASE("the fast-region fact holds on NVIDIA's proprietary driver only") {
  CHECK(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true).f32Fast);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), false).f32Fast);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, false), true).f32Fast);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_NVK, 0x10DE, true), true).f32Fast);
  DeviceFacts f;
  f.f32Fast = true;
  CHECK(describeFacts(f) == "f32-fast");
}

TEST_CASE("the min/max fact holds on NVIDIA's proprietary driver only") {
  CHECK(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true).f32MinMax);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), false).f32MinMax);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_LLVMPIPE, 0x10005, false), true).f32MinMax);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_MESA_NVK, 0x10DE, true), true).f32MinMax);
  DeviceFacts f;
  f.f32MinMax = true;
  CHECK(describeFacts(f) == "f32-minmax");
  CHECK(applyFacts(probeModule(), f) == probeModule());  // no module patch
}

TEST_CASE("sfu-native and f32-div-fast hold on NVIDIA's proprietary driver only; --fact forces them elsewhere") {
  DeviceFacts nv = deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), true);
  CHECK(nv.sfuNative);
  CHECK(nv.f32DivFast);
  CHECK_FALSE(deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false), false).sfuNative);
  // with DenormPreserve 32 (f32-ieee) the SFU builtins were never measured
  DeviceFacts ieee = deviceFacts(fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, true), true);
  CHECK(ieee.f32Ieee);
  CHECK_FALSE(ieee.sfuNative);
  CHECK(ieee.f32DivFast);
  for (VkDriverId id : {VK_DRIVER_ID_MESA_LLVMPIPE, VK_DRIVER_ID_MESA_NVK}) {
    DeviceInfo d = fake(id, id == VK_DRIVER_ID_MESA_NVK ? 0x10DE : 0x10005, false);
    DeviceFacts f = deviceFacts(d, true);
    CHECK_FALSE(f.sfuNative);
    CHECK_FALSE(f.f32DivFast);
    std::string err;
    CHECK(forceFacts(f, {"sfu-native"}, d, err));
    CHECK(f.sfuNative);
    CHECK(describeFacts(f).find("sfu-native") != std::string::npos);
    CHECK_FALSE(forceFacts(f, {"f32-div-fast"}, d, err));  // its proof needs f32-fast
    CHECK(err.find("f32-fast") != std::string::npos);
  }
}

TEST_CASE("the f16-native fact is measured nowhere yet; --fact forces it only where the device has f16 arithmetic") {
  DeviceInfo nv = fake(VK_DRIVER_ID_NVIDIA_PROPRIETARY, 0x10DE, false);
  DeviceFacts f = deviceFacts(nv, true);
  CHECK_FALSE(f.f16Native);
  std::string err;
  CHECK_FALSE(forceFacts(f, {"f16-native"}, nv, err));  // fake() has no shaderFloat16
  CHECK(err.find("shaderFloat16") != std::string::npos);
  nv.shaderFloat16 = true;
  CHECK(forceFacts(f, {"f16-native", "f32-minmax"}, nv, err));
  CHECK(f.f16Native);
  CHECK(describeFacts(f).find("f16-native") != std::string::npos);
  CHECK_FALSE(forceFacts(f, {"no-such-fact"}, nv, err));
  CHECK(err.find("unknown fact 'no-such-fact'") != std::string::npos);
  CHECK(err.find("f16-native") != std::string::npos);  // the known names are listed
  CHECK_FALSE(forceFacts(f, {"f32-ieee"}, nv, err));   // fake(..., false): no f32 denormal preservation
}

TEST_CASE("applyFacts adds DenormPreserve 16 for the f16 variant, with 32 when f32Ieee too, and stays valid") {
  std::vector<uint32_t> m = probeModule();
  REQUIRE(m.size() > 5);
  DeviceFacts none;
  std::vector<uint32_t> v16 = applyFacts(m, none, true);
  CHECK(v16.size() == m.size() + 2 + 4);
  CHECK(spirvValOk(v16));
  DeviceFacts both;
  both.f32Ieee = true;
  std::vector<uint32_t> v = applyFacts(m, both, true);
  CHECK(v.size() == m.size() + 2 + 8);
  CHECK(spirvValOk(v));
}

TEST_CASE("applyFacts adds DenormPreserve 32 once, and the module stays valid") {
  std::vector<uint32_t> m = probeModule();
  REQUIRE(m.size() > 5);
  REQUIRE(m[0] == 0x07230203u);
  CHECK(applyFacts(m, DeviceFacts{}) == m);
  DeviceFacts f;
  f.f32Ieee = true;
  std::vector<uint32_t> p = applyFacts(m, f);
  CHECK(p.size() == m.size() + 6);
  CHECK(countInst(p, 17, 4464) == 1);        // OpCapability DenormPreserve
  CHECK(countInst(p, 16, 4459, 2) == 1);     // OpExecutionMode <entry> DenormPreserve
  std::vector<uint32_t> twice = applyFacts(p, f);
  CHECK(countInst(twice, 17, 4464) == 1);    // the capability is not repeated
  CHECK(spirvValOk(m));
  CHECK(spirvValOk(p));
  std::vector<uint32_t> bad(m.begin(), m.begin() + 5);
  bad.push_back(0);  // a zero word count: left alone
  CHECK(applyFacts(bad, f) == bad);
}
