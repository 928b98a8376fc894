// ptx2glsl batch: the command line around the batch engine (batch.cpp) and its reports (batch_report.cpp).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "batch.h"
#include "cli.h"
#include "files.h"

namespace p2g::cli {

namespace {

const char* kHelp =
    "usage: ptx2glsl batch INPUT... -o DIR [-j N] [--native] [--no-spirv] [--quiet]\n"
    "  INPUT        binaries (ELF, PE, .fatbin: every PTX entry), folders (walked recursively: .ptx files and\n"
    "               binaries, other files skipped) and .ptx files, in any mix\n"
    "  -o DIR       the output folder, replaced as a whole at the end (it must be absent, empty or an earlier\n"
    "               batch output): DIR/REPORT.md, DIR/index.json, DIR/kernels/<id>/ (GLSL .comp, SPIR-V .spv,\n"
    "               manifest .json, card.md, card.json; diagnostics.txt for a refused kernel), DIR/ptx/ (the PTX\n"
    "               extracted from binaries)\n"
    "  -j N         translate on N threads (default: every core, here %d)\n"
    "  --native     native mode (see `ptx2glsl translate --help`)\n"
    "  --no-spirv   stop after GLSL\n"
    "  --quiet      no progress bar or per-kernel lines\n"
    "A kernel the translator refuses is a result, not a failure: REPORT.md gives its first error, and ranks the\n"
    "refused instruction forms by how many kernels each blocks. On a terminal a progress bar is shown, otherwise\n"
    "a line per kernel (stderr). REPORT.md and index.json are the same for the same inputs apart from their times\n"
    "(the `## Times` section, the \"times\" fields).\n"
    "Exit status 0 when every input was read; 1 when some input could not be read or a file not written (the\n"
    "report lists them); 2 on bad usage.\n";

}  // namespace

int cmdBatch(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string outDir;
  BatchOptions opt;
  opt.jobs = defaultJobs();
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl batch: %s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      printf(kHelp, defaultJobs());
      return 0;
    }
    if (a == "-o") outDir = next();
    else if (a == "-j" || a.rfind("-j", 0) == 0) {
      std::string v = a == "-j" ? next() : a.substr(2);
      char* end = nullptr;
      long n = strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 1024) {
        fprintf(stderr, "ptx2glsl batch: -j wants a number of threads from 1 to 1024, not '%s'\n", v.c_str());
        return 2;
      }
      opt.jobs = int(n);
    } else if (a == "--native") opt.native = true;
    else if (a == "--no-spirv") opt.spirv = false;
    else if (a == "--quiet") opt.quiet = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl batch: unknown option '%s'\n", a.c_str());
      fprintf(stderr, kHelp, defaultJobs());
      return 2;
    } else inputs.push_back(a);
  }
  if (inputs.empty() || outDir.empty()) {
    fprintf(stderr, kHelp, defaultJobs());
    return 2;
  }
  std::string err;
  if (!checkReplaceable(outDir, "index.json", err)) {
    fprintf(stderr, "ptx2glsl batch: error: %s\n", err.c_str());
    return 1;
  }
  std::string tmp = tempFolderFor(outDir);
  std::error_code ec;
  std::filesystem::remove_all(tmp, ec);
  std::filesystem::create_directories(tmp, ec);
  if (ec) {
    fprintf(stderr, "ptx2glsl batch: error: cannot create '%s': %s\n", tmp.c_str(), ec.message().c_str());
    return 1;
  }
  opt.writeDir = tmp;
  opt.excludeDirs = {outDir, tmp};
  opt.progress = !opt.quiet && isatty(2);
  BatchResult res;
  collectSources(inputs, opt, res);
  runBatch(opt, res);
  std::string report = batchReport(res, opt), index = batchIndex(res, opt, inputs);
  if (!writeFileAt(tmp + "/REPORT.md", report, err) || !writeFileAt(tmp + "/index.json", index, err) ||
      !swapFolder(tmp, outDir, err)) {
    fprintf(stderr, "ptx2glsl batch: error: %s\n", err.c_str());
    std::filesystem::remove_all(tmp, ec);
    return 1;
  }
  size_t ok = 0;
  for (auto& k : res.kernels) ok += k.translated;
  for (auto& p : res.problems) fprintf(stderr, "ptx2glsl batch: error: %s: %s\n", p.path.c_str(), p.error.c_str());
  printf("%zu kernel(s): %zu translated, %zu refused; %zu input problem(s); %.1f s on %d thread(s); report: %s/REPORT.md\n",
         res.kernels.size(), ok, res.kernels.size() - ok, res.problems.size(), res.wallMs / 1000.0, res.jobs,
         outDir.c_str());
  return res.problems.empty() ? 0 : 1;
}

}  // namespace p2g::cli
