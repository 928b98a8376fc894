// glsl_probe: runs a hand-written compute shader on a Vulkan device through the project's runtime, for measuring
// how a driver executes GLSL the translator might emit (docs/WARP.md: lavapipe's barriers in divergent code).
//   glsl_probe SHADER.comp BLOCK OUT_WORDS OUT.bin [--device NAME]
//   glsl_probe --case CASE_DIR SHADER.comp OUT_DIR [--device NAME] [--repeat N]
// The second form runs a corpus case with SHADER.comp (say, the translator's GLSL edited by hand) in place of the
// translation of its PTX, whose manifest it keeps; the outputs go to OUT_DIR/<case>/<name>.bin (as `run --out`).
// The shader follows the translator's ABI (docs/ABI.md) with one parameter: `uint64_t out` at offset 0 of the
// parameter block, a zero-filled buffer of OUT_WORDS uints; one workgroup of BLOCK = X[,Y[,Z]] threads. Writes the buffer's
// final bytes to OUT.bin. Exit status 0 on success, 1 on any failure, 2 on bad usage.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "case.h"
#include "run.h"
#include "spirv.h"
#include "translate.h"

using namespace p2g;

// --case CASE_DIR SHADER.comp OUT_DIR [--device NAME]
static int runCaseWithShader(int argc, char** argv) {
  RunOptions opt;
  for (int i = 5; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--device") opt.device = argv[i + 1];
    else if (std::string(argv[i]) == "--repeat") opt.repeat = std::max(1, atoi(argv[i + 1]));
    else argc = 0;
  }
  if (argc < 5 || argc % 2 == 0) {
    fputs("usage: glsl_probe --case CASE_DIR SHADER.comp OUT_DIR [--device NAME] [--repeat N]\n", stderr);
    return 2;
  }
  std::string glsl, err;
  std::vector<uint32_t> spirv;
  if (!readFile(argv[3], glsl) || !compileGlsl(glsl, spirv, err)) {
    fprintf(stderr, "glsl_probe: error: %s does not read or compile:\n%s\n", argv[3], err.c_str());
    return 1;
  }
  opt.outDir = argv[4];
  auto fn = [&](const std::string& ptxPath, const std::string& entry, TranslatedKernel& k, std::string& diagText) {
    ptx::SourceManager sm;
    int buf = sm.addFile(ptxPath, diagText);
    if (buf < 0) return false;
    ptx::DiagEngine diags(sm);
    TranslateOptions to;
    to.entry = entry;
    to.spirv = false;
    std::vector<EntryResult> res;
    bool ok = translateBuffer(sm, buf, to, diags, res);
    diagText = diags.formatAll();
    if (!ok || res.empty()) return false;
    k.manifest = res[0].manifest;
    k.spirv = spirv;
    return true;
  };
  runCases({argv[2]}, opt, fn);  // the comparison with expected/ is printed; the outputs are written in any case
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--case") return runCaseWithShader(argc, argv);
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    puts("usage: glsl_probe SHADER.comp BLOCK OUT_WORDS OUT.bin [--device NAME]\n"
         "       glsl_probe --case CASE_DIR SHADER.comp OUT_DIR [--device NAME] [--repeat N]");
    return 0;
  }
  if (argc != 5 && !(argc == 7 && std::string(argv[5]) == "--device")) {
    fputs("usage: glsl_probe SHADER.comp BLOCK OUT_WORDS OUT.bin [--device NAME]\n", stderr);
    return 2;
  }
  std::string glsl, err;
  if (!readFile(argv[1], glsl)) {
    fprintf(stderr, "glsl_probe: error: cannot read %s\n", argv[1]);
    return 1;
  }
  unsigned bx = 0, by = 1, bz = 1, words = unsigned(atoi(argv[3]));
  int got = sscanf(argv[2], "%u,%u,%u", &bx, &by, &bz);
  if (got < 1 || bx == 0 || by == 0 || bz == 0 || bx * by * bz > 1024 || words == 0 || words > (1u << 24)) {
    fputs("glsl_probe: error: BLOCK must be X[,Y[,Z]] with 1..1024 threads and OUT_WORDS 1..2^24\n", stderr);
    return 2;
  }
  std::vector<uint32_t> spirv;
  if (!compileGlsl(glsl, spirv, err)) {
    fprintf(stderr, "glsl_probe: error: %s does not compile:\n%s\n", argv[1], err.c_str());
    return 1;
  }
  char tmpl[] = "/tmp/p2g-glsl-probe-XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  std::string root = tmpl, dir = root + "/probe", outDir = root + "/out";
  std::ostringstream cj;
  cj << "{\"kernel\": \"probe\", \"grid\": [1, 1, 1], \"block\": [" << bx << ", " << by << ", " << bz << "],\n"
     << " \"buffers\": {\"out\": {\"bytes\": " << words * 4 << ", \"init\": {\"zero\": true}}},\n"
     << " \"params\": [{\"buffer\": \"out\"}], \"outputs\": [{\"buffer\": \"out\", \"type\": \"u32\"}]}\n";
  std::string c = cj.str(), ptx = "// the shader comes from glsl_probe's command line\n";
  if (!makeDirs(dir, err) || !writeFile(dir + "/case.json", c.data(), c.size(), err) ||
      !writeFile(dir + "/kernel.ptx", ptx.data(), ptx.size(), err)) {
    fprintf(stderr, "glsl_probe: error: %s\n", err.c_str());
    return 1;
  }
  RunOptions opt;
  opt.outDir = outDir;
  opt.quiet = true;
  std::ostringstream log;
  opt.log = &log;
  if (argc == 7) opt.device = argv[6];
  auto fn = [&](const std::string&, const std::string&, TranslatedKernel& k, std::string&) {
    Manifest& m = k.manifest;
    m.entry = "probe";
    ManifestParam p;
    p.name = "out";
    p.type = "u64";
    p.bytes = p.align = 8;
    p.isPtr = true;
    m.params = {p};
    m.paramBytes = 8;
    m.features = {"int64"};
    k.spirv = spirv;
    return true;
  };
  runCases({dir}, opt, fn);  // no expected/: the comparison fails, the bytes are written to --out
  std::string bytes, dst = argv[4];
  int rc = 0;
  if (!readFile(outDir + "/probe/out.bin", bytes)) {
    fprintf(stderr, "glsl_probe: error: the run wrote no output:\n%s", log.str().c_str());
    rc = 1;
  } else if (!writeFile(dst, bytes.data(), bytes.size(), err)) {
    fprintf(stderr, "glsl_probe: error: %s\n", err.c_str());
    rc = 1;
  }
  std::filesystem::remove_all(root);
  return rc;
}
