// The Vulkan runtime on lavapipe, driven through runCases with a hand-written ABI shader (abi_probe.comp) in place
// of the translator. Cases live in temporary directories under /tmp made by each test; the reference bytes there
// come from a CPU model of the probe shader, not from any project expected/ folder.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <sstream>

#include "case.h"
#include "device.h"
#include "inputs.h"
#include "run.h"

using namespace p2g;

namespace {

constexpr uint32_t kN = 1000;         // elements the probe computes
constexpr uint32_t kOutOffset = 16;   // byte offset of the `out` pointer param into its buffer
constexpr uint32_t kAdd = 77;
constexpr uint32_t kDynShared = 5;

std::vector<uint32_t> probeSpirv() {
  std::string bytes;
  REQUIRE_MESSAGE(readFile(P2G_PROBE_SPV, bytes), "cannot read " P2G_PROBE_SPV);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

ManifestParam param(const char* name, const char* type, uint32_t off, uint32_t bytes, bool arr = false) {
  ManifestParam p;
  p.name = name;
  p.type = type;
  p.offset = off;
  p.bytes = bytes;
  p.align = arr ? 8 : bytes;
  p.isArray = arr;
  return p;
}

// What the PTX front end would report for the probe's .entry.
Manifest probeManifest() {
  Manifest m;
  m.entry = "probe";
  m.params = {param("x", "u64", 0, 8),  param("out", "u64", 8, 8),       param("n", "u32", 16, 4),
              param("scale", "f32", 20, 4), param("s", "b8", 24, 16, true), param("out2", "u64", 40, 8)};
  m.paramBytes = 48;
  m.features = {"int64"};
  return m;
}

struct Fixture {
  std::string root;      // the temporary directory, removed with the fixture
  std::string dir;       // the case directory
  Manifest manifest = probeManifest();
  bool translateFails = false;
  uint32_t globalAdd = 0;  // what the probe reads from the module's .global data (manifest globalsInit)
  std::vector<uint32_t> spirv = probeSpirv();

  Fixture() {
    char tmpl[] = "/tmp/p2g-vk-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    root = tmpl;
    dir = root + "/probe_case";
    std::string err;
    REQUIRE(makeDirs(dir + "/expected", err));
    writeCase("{\"u32\": " + std::to_string(kN) + "}");
    put("kernel.ptx", "// stands in for the probe's PTX; the test's TranslateFn ignores it\n");
    writeExpected();
  }
  ~Fixture() { std::filesystem::remove_all(root); }

  void put(const std::string& rel, const std::string& text) {
    std::string err;
    REQUIRE_MESSAGE(writeFile(dir + "/" + rel, text.data(), text.size(), err), err);
  }

  void writeCase(const std::string& nParam, const std::string& extra = "") {
    put("case.json", R"({"kernel": "probe", "grid": [8, 1, 1], "block": [128, 1, 1], "dynamic_shared_bytes": )" +
                         std::to_string(kDynShared) + R"(,
      "buffers": {
        "x":    {"bytes": 4000, "init": {"random": {"seed": 11, "type": "f32", "lo": -8, "hi": 8}}},
        "out":  {"bytes": 4016},
        "out2": {"bytes": 4000, "init": {"fill": {"type": "u32", "value": 4294967295}}}
      },
      "params": [{"buffer": "x"}, {"buffer": "out", "offset": )" + std::to_string(kOutOffset) + "}, " + nParam +
                         R"(, {"f32": 0.75},
                 {"struct": {"bytes": 16, "fields": [{"at": 4, "u32": )" + std::to_string(kAdd) + R"(}]}},
                 {"buffer": "out2"}],
      "outputs": [{"buffer": "out", "type": "f32"}, {"buffer": "out2", "type": "u32"}])" + extra + "}");
  }

  // CPU model of abi_probe.comp on the same generated inputs.
  void writeExpected() {
    CaseSpec c;
    std::string err;
    REQUIRE_MESSAGE(loadCase(dir, c, err), err);
    std::vector<uint8_t> x, out, out2;
    REQUIRE(generateInit(c.buffers[0].init, 4000, dir, "x", x, err));
    REQUIRE(generateInit(c.buffers[1].init, 4016, dir, "out", out, err));
    REQUIRE(generateInit(c.buffers[2].init, 4000, dir, "out2", out2, err));
    for (uint32_t i = 0; i < kN; ++i) {
      float xv, r;
      std::memcpy(&xv, &x[4 * i], 4);
      r = xv * 0.75f;
      std::memcpy(&out[kOutOffset + 4 * i], &r, 4);
      uint32_t v = i + kAdd + kDynShared + globalAdd;
      std::memcpy(&out2[4 * i], &v, 4);
    }
    REQUIRE(writeFile(dir + "/expected/out.bin", out.data(), out.size(), err));
    REQUIRE(writeFile(dir + "/expected/out2.bin", out2.data(), out2.size(), err));
  }

  int run(std::string& log, RunOptions opt = {}) {
    std::ostringstream os;
    opt.log = &os;
    TranslateFn tr = [&](const std::string& ptx, const std::string& entry, TranslatedKernel& k, std::string& diag) {
      if (translateFails) {
        diag = ptx + ":1:1: error: unsupported instruction";
        return false;
      }
      CHECK(entry == "probe");
      k.manifest = manifest;
      k.spirv = spirv;
      return true;
    };
    int rc = runCases({dir}, opt, tr);
    log = os.str();
    return rc;
  }
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("vulkan: the probe case runs and matches the CPU model") {
  Fixture f;
  std::string log;
  int rc = f.run(log);
  INFO(log);
  CHECK(rc == 0);
  CHECK(contains(log, "probe_case out: identical"));
  CHECK(contains(log, "probe_case out2: identical"));
  CHECK(contains(log, "1 cases, 2 outputs identical, 0 differ, 0 errors"));
}

TEST_CASE("vulkan: module .global data reaches the shader through the second push constant") {
  Fixture f;
  f.manifest.globalsBytes = 64;
  f.manifest.globalsInit = {3, 0, 0, 0};
  f.globalAdd = 3;
  f.writeExpected();
  std::string log;
  int rc = f.run(log);
  INFO(log);
  CHECK(rc == 0);
  CHECK(contains(log, "probe_case out2: identical"));
  f.manifest.globalsInit.assign(65, 0);
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "exceeds globalsBytes"));
}

TEST_CASE("vulkan: --out writes the outputs, repeat prints timing") {
  Fixture f;
  std::string outDir = f.root + "/out", log;
  RunOptions opt;
  opt.outDir = outDir;
  opt.repeat = 3;
  int rc = f.run(log, opt);
  INFO(log);
  CHECK(rc == 0);
  std::string got, want;
  REQUIRE(readFile(outDir + "/probe_case/out2.bin", got));
  REQUIRE(readFile(f.dir + "/expected/out2.bin", want));
  CHECK(got == want);
  CHECK(contains(log, "GPU ms min"));
  CHECK(contains(log, "(3 runs)"));
}

TEST_CASE("vulkan: differences and missing references are reported") {
  Fixture f;
  std::string want;
  REQUIRE(readFile(f.dir + "/expected/out.bin", want));
  float v;
  std::memcpy(&v, &want[kOutOffset + 40], 4);
  v = std::nextafter(v, 1e30f);
  std::memcpy(&want[kOutOffset + 40], &v, 4);
  f.put("expected/out.bin", want);
  std::remove((f.dir + "/expected/out2.bin").c_str());
  std::string log;
  int rc = f.run(log);
  INFO(log);
  CHECK(rc == 1);
  CHECK(contains(log, "probe_case out: 1/1004 differ, max ulp 1, PSNR"));
  CHECK(contains(log, "probe_case out2: error: no expected/out2.bin"));
  CHECK(contains(log, "1 cases, 0 outputs identical, 1 differ, 1 errors"));
}

TEST_CASE("vulkan: bad cases are refused before launch") {
  Fixture f;
  std::string log;
  f.writeCase("{\"u64\": 5}");  // n is a .u32 param
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "params[2] (n): u64 given for a 4-byte .u32 param"));
  CHECK(contains(log, "1 cases, 0 outputs identical, 0 differ, 1 errors"));

  f.writeCase("{\"u32\": 5}");
  f.manifest.features.push_back("bogus");
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "unknown device feature(s): bogus"));

  f.manifest = probeManifest();
  f.manifest.reqntid[0] = 64;
  CHECK(f.run(log) == 1);
  CHECK(contains(log, ".reqntid"));

  f.manifest = probeManifest();
  f.translateFails = true;
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "translation of probe failed"));
  CHECK(contains(log, "unsupported instruction"));

  f.translateFails = false;
  f.spirv.assign(4, 0);
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "no valid SPIR-V"));
}

TEST_CASE("vulkan: a texture format the case format does not define is refused before launch") {
  Fixture f;
  f.writeCase("{\"u32\": 5}", R"(, "textures": {"t": {"format": "rgb9e5", "width": 4, "height": 4}})");
  std::string log;
  CHECK(f.run(log) == 1);
  CHECK(contains(log, "textures.t.format: expected one of"));
}

TEST_CASE("vulkan: device choice") {
  Fixture f;
  std::string log;
  RunOptions opt;
  opt.device = "no-such-gpu";
  CHECK(f.run(log, opt) == 1);
  CHECK(contains(log, "no Vulkan device matches \"no-such-gpu\""));
  CHECK(contains(log, "llvmpipe"));  // the list of devices found
  opt.device = "llvmpipe";           // a name substring
  CHECK(f.run(log, opt) == 0);
  opt.device = "0";                  // an index
  f.run(log, opt);
  CHECK(contains(log, "device: "));
  CHECK(listDevices() == 0);
}

TEST_CASE("vulkan: a write past a buffer damages its guard zone and the case is refused") {
  Fixture f;
  std::string log;
  // n = 1001 while the buffers hold 1000 values: the probe writes 4 bytes past `out` (4016 bytes, written from
  // byte 16) and past `out2` (4000 bytes), and reads 4 bytes past `x`. What it writes past `out` is x's canary
  // times 0.75, whose top byte is the canary's own (0xDE), so only 3 changed bytes can be seen there.
  f.writeCase("{\"u32\": 1001}");
  int rc = f.run(log);
  INFO(log);
  CHECK(rc == 1);
  CHECK(contains(log, "the kernel wrote outside buffer 'out' (4016 bytes): bytes at offsets 4016..4018 of it, in the "
                      "guard zone after it, were changed"));
  CHECK(contains(log, "the kernel wrote outside buffer 'out2' (4000 bytes): bytes at offsets 4000..4003"));
  CHECK(contains(log, "results refused"));
  CHECK_FALSE(contains(log, ": identical"));
  CHECK(contains(log, "1 cases, 0 outputs identical, 0 differ, 1 errors"));
}

TEST_CASE("vulkan: one failing case never hides the next one") {
  Fixture f;
  std::ostringstream os;
  RunOptions opt;
  opt.log = &os;
  TranslateFn tr = [&](const std::string&, const std::string&, TranslatedKernel& k, std::string&) {
    k.manifest = f.manifest;
    k.spirv = f.spirv;
    return true;
  };
  int rc = runCases({f.root + "/no_such_case", f.dir, f.dir}, opt, tr);
  std::string log = os.str();
  INFO(log);
  CHECK(rc == 1);
  CHECK(contains(log, "error: cannot read " + f.root + "/no_such_case/case.json"));
  CHECK(contains(log, "3 cases, 4 outputs identical, 0 differ, 1 errors"));
}

TEST_CASE("vulkan: --validate reports nothing for a correct launch and catches a wrong Vulkan call") {
  Fixture f;
  std::string log;
  RunOptions opt;
  opt.validate = true;
  int rc = f.run(log, opt);
  INFO(log);
  CHECK(rc == 0);
  CHECK(contains(log, "1 cases, 2 outputs identical, 0 differ, 0 errors, 0 validation messages"));

  // The messenger sees what the layer reports: a zero-sized buffer breaks VUID-VkBufferCreateInfo-size-00912.
  std::vector<vk::ValidationMessage> msgs;
  {
    vk::Context ctx;
    ctx.messageLog = &msgs;
    std::string err;
    REQUIRE_MESSAGE(ctx.open("lavapipe", err, true), err);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 0;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer b = VK_NULL_HANDLE;
    if (vkCreateBuffer(ctx.dev, &bci, nullptr, &b) == VK_SUCCESS && b) vkDestroyBuffer(ctx.dev, b, nullptr);
  }
  bool found = false;
  for (auto& m : msgs) found = found || contains(m.text, "VUID-VkBufferCreateInfo-size-00912");
  CHECK_MESSAGE(found, msgs.size(), " messages");
}
