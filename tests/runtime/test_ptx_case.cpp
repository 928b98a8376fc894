// The path the CUDA reference runner takes before it launches, run here without a GPU: the smoke case's PTX (from
// nvcc, see cuda_smoke/kernel.cu) goes through the PTX front end's layout, and the case's params are validated and
// laid out with it. The layout must also be the one abi_probe.comp assumes, since both describe the same kernel.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstring>

#include "case.h"
#include "layout.h"
#include "params.h"
#include "parser.h"

using namespace p2g;

TEST_CASE("cuda_smoke: PTX layout, validation and parameter block") {
  CaseSpec c;
  std::string err;
  REQUIRE_MESSAGE(loadCase(P2G_SMOKE_CASE, c, err), err);
  ptx::SourceManager sm;
  int buf = sm.addFile(c.ptx, err);
  REQUIRE_MESSAGE(buf >= 0, err);
  ptx::DiagEngine diags(sm);
  ptx::Module mod;
  REQUIRE_MESSAGE(ptx::parseModule(sm, buf, diags, mod), diags.formatAll());
  const ptx::Function* f = nullptr;
  for (auto& fn : mod.functions)
    if (fn.isEntry && fn.name == c.kernel) f = &fn;
  REQUIRE(f);
  std::vector<ManifestParam> layout = ptx::computeParamLayout(*f, &err);
  REQUIRE(layout.size() == 6);
  // Offsets the probe shader's Params struct uses (x, out, n, scale, s, out2).
  const uint32_t offsets[6] = {0, 8, 16, 20, 24, 40};
  for (int i = 0; i < 6; ++i) CHECK(layout[i].offset == offsets[i]);
  CHECK(layout[4].bytes == 16);
  CHECK(ptx::paramBlockBytes(layout) == 48);

  auto addr = [](char, const std::string& n) -> uint64_t { return n == "x" ? 0x10000 : n == "out" ? 0x20000 : 0x30000; };
  std::vector<uint8_t> blk;
  REQUIRE_MESSAGE(buildParamBlock(c, layout, ptx::paramBlockBytes(layout), addr, blk, err), err);
  uint64_t out, out2;
  uint32_t n, add;
  std::memcpy(&out, &blk[8], 8);
  std::memcpy(&n, &blk[16], 4);
  std::memcpy(&add, &blk[28], 4);
  std::memcpy(&out2, &blk[40], 8);
  CHECK(out == 0x20000 + 16);
  CHECK(n == 1000);
  CHECK(add == 77);
  CHECK(out2 == 0x30000);

  // A wrong scalar width is caught against the real layout, naming the PTX parameter.
  c.params[2].type = ElemType::U64;
  c.params[2].bytes.assign(8, 0);
  CHECK_FALSE(validateParams(c, layout, err));
  CHECK(err.find("probe_param_2") != std::string::npos);
}
