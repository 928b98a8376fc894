// ptx2glsl: the command-line driver.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "case.h"
#include "cli.h"
#include "diff.h"
#include "exact_marks.h"
#include "form_histogram.h"
#include "forms.h"
#include "parser.h"
#include "pass.h"
#include "facts.h"
#include "run.h"
#include "scalar.h"
#include "spirv.h"
#include "translate.h"
#include "version.h"
#include "launch.h"

namespace fs = std::filesystem;
using namespace p2g;

namespace {

const char* kUsage =
    "usage: ptx2glsl <command> [options]\n"
    "\n"
    "commands:\n"
    "  translate FILE.ptx -o DIR   translate every .entry to DIR/<entry>.comp (GLSL), .spv (SPIR-V), .json (manifest)\n"
    "  run CASE...                 translate and run cases on a Vulkan device, compare with expected/\n"
    "  diff A B --type T           compare two binary files element by element\n"
    "  devices                     list Vulkan devices\n"
    "  passes                      list the IR passes\n"
    "  ops [OPCODE]                list the instruction forms the translator lowers (--histogram FILE...: forms found)\n"
    "  bench FILE.ptx...           translation throughput and peak memory\n"
    "  extract FILE... -o DIR      the PTX of binaries (ELF, PE, .fatbin), named as cuobjdump names it\n"
    "  batch INPUT... -o DIR       translate every kernel of binaries, folders and PTX files in parallel\n"
    "  card FILE.ptx               the parameter-block card of each kernel (markdown, or --json)\n"
    "  diff-build OLD NEW          the kernels two builds added, removed, changed, and how\n"
    "  view FILE.ptx -o DIR        an HTML page per kernel: the PTX beside its GLSL, lines linked both ways\n"
    "  --version                   versions of ptx2glsl, glslang, SPIRV-Tools and the Vulkan loader\n"
    "\n"
    "Run 'ptx2glsl <command> --help' for a command's options.\n";

const char* kTranslateHelp =
    "usage: ptx2glsl translate FILE.ptx -o DIR [options]\n"
    "  FILE.ptx               a regular file of at most 256 MiB\n"
    "  -o DIR                 output folder (created); nothing is written unless every entry translates\n"
    "  --entry NAME           only this entry\n"
    "  --native               use device operations where measured identical (not the exact lowerings)\n"
    "  --no-annotate          leave out the PTX source lines in the GLSL\n"
    "  --no-spirv             stop after GLSL (no glslang, no spirv-val)\n"
    "  --validate-each-pass   validate the IR after every pass; name the pass that broke it\n"
    "  --dump-ir              write the IR after the passes to DIR/<entry>.ir\n"
    "  --disable-pass NAME    leave a pass out of the pipeline (debugging; breaks exactness)\n"
    "  --spirv-asm            also write DIR/<entry>.spvasm (disassembly)\n"
    "  --f16-variant          also write DIR/<entry>.f16.spv for kernels with f16 arithmetic: the module for devices\n"
    "                         whose own f16 arithmetic is PTX's (the fact f16-native, docs/DEVICE_FACTS.md)\n"
    "  --names FILE           names for kernel parameters in the GLSL: a JSON object mapping a parameter-block byte\n"
    "                         offset to {\"name\": GLSL identifier, \"type\": PTX type of the load}, e.g.\n"
    "                         {\"168\": {\"name\": \"exposure_scale\", \"type\": \"f32\"}} (docs/READABLE_GLSL.md);\n"
    "                         a bad file (not JSON, an offset outside the parameters or read as another type, a\n"
    "                         name that is no identifier or is taken) is an error: exit 1, nothing written\n";

const char* kRunHelp =
    "usage: ptx2glsl run CASE... [options]\n"
    "  --device NAME   lavapipe (default), nvidia, a device index or a substring of its name\n"
    "  --out DIR       also write each output to DIR/<case>/<name>.bin\n"
    "  --repeat N      time N dispatches with GPU timestamps, print min/median; they follow the dispatch that\n"
    "                  gives the outputs and at least 1 s of untimed ones (the GPU's clock leaves idle first)\n"
    "  --timeout S     give up a dispatch still running after S seconds (default 600); it keeps its logical\n"
    "                  device, and the cases after it run on a new one\n"
    "  --native        translate in native mode (leaves the exact_* passes named by `ptx2glsl passes` out)\n"
    "  --check-bounds  check every global, shared and local memory access in the shader; report the first one out\n"
    "                  of bounds (thread, block, buffer, offset, PTX line) and refuse the case (docs/RUNNER_SAFETY.md)\n"
    "  --no-device-facts  run the fully emulated paths even where the device's own operation was measured exact\n"
    "                  (the facts in use are printed after the device's name; docs/DEVICE_FACTS.md)\n"
    "  --validate      enable the Vulkan validation layer (vulkan-validationlayers); every message is printed and\n"
    "                  counted, and any message makes the exit status 1\n"
    "  --fact NAME     force a device fact on (f32-ieee, fma-fused, half-cvt, f32-fast, f32-minmax, f16-native,\n"
    "                  hw-tex, f32-div-fast),\n"
    "                  to measure it on a device where it was never measured: run the op cases with it, and the\n"
    "                  fact holds there only if every output stays identical (docs/DEVICE_FACTS.md)\n"
    "  --pipeline-stats  print the driver's statistics of each pipeline (VK_KHR_pipeline_executable_properties:\n"
    "                  registers, spills, instruction counts as the driver names them); an error where it has none\n"
    "  --disable-pass NAME  leave a pass out of the pipeline (tests: shows what the pass is for)\n"
    "  --glsl FILE     A/B experiments on one case: run FILE (GLSL, compiled like the translator's) in place of\n"
    "                  the translated kernel; parameters, buffers and the comparison stay the translation's\n"
    "  --quiet         only the summary line\n"
    "Every buffer has guard zones checked after each dispatch: a kernel that wrote outside a buffer is refused.\n"
    "A failing case prints its error and the run goes on with the next one.\n"
    "Exit status 0 only when every output of every case is byte-identical to expected/; 1 otherwise; 2 on bad usage.\n";

const char* kDiffHelp =
    "usage: ptx2glsl diff ACTUAL EXPECTED --type T\n"
    "  T: u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64 bits\n"
    "Prints differing values / total, max ulp, PSNR. Exit 0 when identical, 1 when values differ, 2 on bad input\n"
    "(an unknown type, a file that is not a regular file or cannot be read, sizes that differ, a size that is not\n"
    "a multiple of the type's size).\n";

const char* kOpsHelp =
    "usage: ptx2glsl ops [OPCODE]\n"
    "       ptx2glsl ops --histogram FILE.ptx...\n"
    "Prints the instruction forms the translator implements (translator/emit/table.cpp): per line an opcode, its\n"
    "modifiers and its operands (the pattern language is described in translator/emit/forms.h); anything else is\n"
    "refused with an error. With --histogram, checks every instruction of the files (each function body once, calls\n"
    "not inlined) and prints each form found with its count: accepted, or refused with the reason, and for a\n"
    "refused form whether its handler alone would have emitted it without a word (silently accepted before the\n"
    "check) or refused it too.\n";

const char* kBenchHelp =
    "usage: ptx2glsl bench FILE.ptx... [--repeat N] [--big-mb N]\n"
    "Prints, per file: parse MB/s, PTX-to-GLSL MB/s (parse+lift+passes+structurize+emit, wall clock, the entries\n"
    "on every core as `translate` does it, and on one thread), glslang MB/s and spirv-val MB/s separately, and the\n"
    "process's peak memory.\n"
    "  --repeat N    best of N runs (default 3)\n"
    "  --big-mb N    also generate a PTX file of at least N MB (default 0 = none) by renaming copies of the\n"
    "                entries of the first file, and measure it\n";

bool wantHelp(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
  return false;
}

// Whole decimal number in [lo, hi] ("12", not "12x", "", "-1" for lo >= 0 or "1e3").
bool parseNumber(const std::string& s, long lo, long hi, long& out) {
  if (s.empty() || s.size() > 18) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  long v = std::stol(s);
  if (v < lo || v > hi) return false;
  out = v;
  return true;
}

// The files of one translation: each written to a temporary next to its final name, and renamed only when every
// one of them was written; on any failure every temporary is removed, so a failed run leaves the output folder
// as it was.
class OutputFiles {
 public:
  void add(const fs::path& p, std::string data) { files_.push_back({p, std::move(data)}); }
  bool commit(std::string& err) {
    std::vector<fs::path> temps;
    auto cleanup = [&] {
      std::error_code ec;
      for (auto& t : temps) fs::remove(t, ec);
    };
    for (auto& f : files_) {
      std::error_code ec;
      if (fs::exists(fs::symlink_status(f.path, ec)) && !fs::is_regular_file(fs::symlink_status(f.path, ec))) {
        err = "'" + f.path.string() + "' exists and is not a regular file; nothing written";
        return cleanup(), false;
      }
      fs::path tmp = f.path;
      tmp += ".tmp" + std::to_string(::getpid());
      temps.push_back(tmp);
      std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
      if (o) o.write(f.data.data(), std::streamsize(f.data.size()));
      if (!o || !o.flush()) {
        err = "cannot write '" + tmp.string() + "'; nothing written";
        return cleanup(), false;
      }
    }
    for (size_t i = 0; i < files_.size(); ++i) {
      std::error_code ec;
      fs::rename(temps[i], files_[i].path, ec);
      if (ec) {
        err = "cannot rename to '" + files_[i].path.string() + "': " + ec.message();
        temps.erase(temps.begin(), temps.begin() + long(i));
        return cleanup(), false;
      }
    }
    return true;
  }

 private:
  struct File {
    fs::path path;
    std::string data;
  };
  std::vector<File> files_;
};

// A pass name given to --disable-pass must be one of the registry's.
bool checkPassName(const char* cmd, const std::string& name) {
  if (findPass(name)) return true;
  std::string all;
  for (auto& p : passRegistry()) all += std::string(all.empty() ? "" : ", ") + p.name;
  fprintf(stderr, "ptx2glsl %s: unknown pass '%s' for --disable-pass (passes: %s)\n", cmd, name.c_str(), all.c_str());
  return false;
}

void applyNative(std::vector<std::string>& disabled);

int cmdTranslate(int argc, char** argv) {
  if (wantHelp(argc, argv)) {
    fputs(kTranslateHelp, stdout);
    return 0;
  }
  std::string in, outDir;
  TranslateOptions opt;
  bool asmOut = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl translate: %s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "-o") outDir = next();
    else if (a == "--entry") {
      opt.entry = next();
      if (opt.entry.empty()) {
        fprintf(stderr, "ptx2glsl translate: --entry needs an entry name\n");
        return 2;
      }
    }
    else if (a == "--native") {
      opt.emit.native = true;
      applyNative(opt.pipeline.disabled);
    } else if (a == "--no-annotate") opt.emit.annotate = false;
    else if (a == "--no-spirv") opt.spirv = false;
    else if (a == "--f16-variant") opt.f16Variant = true;
    else if (a == "--validate-each-pass") opt.pipeline.validateEach = true;
    else if (a == "--dump-ir") opt.dumpIr = true;
    else if (a == "--disable-pass") opt.pipeline.disabled.push_back(next());
    else if (a == "--spirv-asm") asmOut = true;
    else if (a == "--names") opt.emit.namesFile = next();
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl translate: unknown option '%s'\n%s", a.c_str(), kTranslateHelp);
      return 2;
    } else if (in.empty()) in = a;
    else {
      fprintf(stderr, "ptx2glsl translate: one input file expected, got '%s' too\n", a.c_str());
      return 2;
    }
  }
  if (in.empty() || outDir.empty()) {
    fprintf(stderr, "ptx2glsl translate: %s\n%s", in.empty() ? "no input file given" : "no output folder given (-o DIR)",
            kTranslateHelp);
    return 2;
  }
  for (auto& d : opt.pipeline.disabled)
    if (!checkPassName("translate", d)) return 2;
  if (!opt.emit.namesFile.empty()) {
    std::string nerr;
    if (!readNamesFile(opt.emit.namesFile, opt.emit.paramNames, nerr)) {
      fprintf(stderr, "ptx2glsl: error: %s; nothing written\n", nerr.c_str());
      return 1;
    }
  }
  ptx::SourceManager sm;
  std::string err;
  int buf = sm.addFile(in, err);
  if (buf < 0) {
    fprintf(stderr, "ptx2glsl: error: %s\n", err.c_str());
    return 1;
  }
  ptx::DiagEngine diags(sm);
  std::vector<EntryResult> res;
  bool ok = translateBuffer(sm, buf, opt, diags, res);
  std::string text = diags.formatAll();
  fwrite(text.data(), 1, text.size(), stderr);
  if (!ok) {
    fprintf(stderr, "ptx2glsl: %u error(s); nothing written\n", diags.errorCount());
    return 1;
  }
  std::error_code ec;
  if (fs::exists(outDir, ec) && !fs::is_directory(outDir, ec)) {
    fprintf(stderr, "ptx2glsl: error: output folder '%s' exists and is not a folder\n", outDir.c_str());
    return 1;
  }
  bool created = !fs::exists(outDir, ec);
  fs::create_directories(outDir, ec);
  if (ec) {
    fprintf(stderr, "ptx2glsl: error: cannot create '%s': %s\n", outDir.c_str(), ec.message().c_str());
    return 1;
  }
  OutputFiles files;
  fs::path d(outDir);
  for (auto& r : res) {
    files.add(d / (r.name + ".comp"), r.glsl);
    if (opt.spirv) files.add(d / (r.name + ".spv"), std::string(reinterpret_cast<const char*>(r.spirv.data()), r.spirv.size() * 4));
    if (opt.spirv && !r.spirvF16.empty())
      files.add(d / (r.name + ".f16.spv"),
                std::string(reinterpret_cast<const char*>(r.spirvF16.data()), r.spirvF16.size() * 4));
    files.add(d / (r.name + ".json"), manifestToJson(r.manifest));
    if (opt.dumpIr) files.add(d / (r.name + ".ir"), r.passLog);
    if (asmOut && opt.spirv) files.add(d / (r.name + ".spvasm"), disassembleSpirv(r.spirv));
  }
  if (!files.commit(err)) {
    if (created) fs::remove(outDir, ec);  // only if this run made it (and left it empty)
    fprintf(stderr, "ptx2glsl: error: %s\n", err.c_str());
    return 1;
  }
  for (auto& r : res)
    printf("%s: %s -> %s/%s.comp (%zu lines)%s\n", in.c_str(), r.name.c_str(), outDir.c_str(), r.name.c_str(),
           size_t(std::count(r.glsl.begin(), r.glsl.end(), '\n')),
           r.manifest.warnings.empty() ? "" : ", with not-yet-exact lowerings (see warnings)");
  return 0;
}

// --native: the exact-mode passes whose hazard a device may not have are left out; say which hazards stay open.
void applyNative(std::vector<std::string>& disabled) {
  std::string open;
  for (auto& o : nativeOmits()) {
    disabled.push_back(o.pass);
    open += std::string(open.empty() ? "" : "; ") + o.hazard;
  }
  fprintf(stderr, "ptx2glsl: native mode leaves these hazards open (docs/HAZARDS_IMPLEMENTED.md): %s\n", open.c_str());
}

TranslateFn makeTranslateFn(bool native, std::vector<std::string> disabled, bool checkBounds,
                            const std::string& glslFile = "") {
  return [native, disabled, checkBounds, glslFile](const std::string& ptxPath, const std::string& entry,
                                                   TranslatedKernel& out, std::string& diagText) {
    ptx::SourceManager sm;
    std::string err;
    int buf = sm.addFile(ptxPath, err);
    if (buf < 0) {
      diagText = err;
      return false;
    }
    ptx::DiagEngine diags(sm);
    TranslateOptions opt;
    opt.entry = entry;
    opt.emit.native = native;
    opt.emit.checkBounds = checkBounds;
    opt.pipeline.disabled = disabled;
    opt.f16Variant = out.wantF16;  // only where the device takes it
    std::vector<EntryResult> res;
    bool ok = translateBuffer(sm, buf, opt, diags, res);
    diagText = diags.formatAll();
    if (!ok || res.empty()) return false;
    out.manifest = res[0].manifest;
    out.spirv = res[0].spirv;
    out.spirvF16 = res[0].spirvF16;
    if (!glslFile.empty()) {  // --glsl: the variant's module with the translation's ABI
      std::string text, log;
      if (!readFile(glslFile, text)) {
        diagText = "cannot read --glsl file '" + glslFile + "'";
        return false;
      }
      std::vector<uint32_t> spv;
      if (!compileGlsl(text, spv, log)) {
        diagText = glslFile + ": GLSL does not compile:\n" + log;
        return false;
      }
      out.spirv = std::move(spv);
      out.spirvF16.clear();  // the variant of the file's own text, when it has one
      if (out.wantF16 && text.find("#ifdef P2G_F16_NATIVE") != std::string::npos &&
          !compileGlsl(text, out.spirvF16, log, "#define P2G_F16_NATIVE\n")) {
        diagText = glslFile + ": the f16 variant (P2G_F16_NATIVE) does not compile:\n" + log;
        return false;
      }
    }
    return true;
  };
}

int cmdRun(int argc, char** argv) {
  if (wantHelp(argc, argv)) {
    fputs(kRunHelp, stdout);
    return 0;
  }
  RunOptions ro;
  bool native = false, checkBounds = false;
  std::string glslFile;
  std::vector<std::string> cases, disabled;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl run: %s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--device") ro.device = next();
    else if (a == "--out") ro.outDir = next();
    else if (a == "--repeat") {
      std::string v = next();
      long n = 0;
      if (!parseNumber(v, 1, 100000, n)) {
        fprintf(stderr, "ptx2glsl run: --repeat wants a whole number from 1 to 100000, not '%s'\n", v.c_str());
        return 2;
      }
      ro.repeat = int(n);
    }
    else if (a == "--timeout") {
      std::string v = next();
      char* end = nullptr;
      long s = strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || s < 1 || s > 86400) {
        fprintf(stderr, "ptx2glsl run: --timeout wants whole seconds from 1 to 86400, not '%s'\n", v.c_str());
        return 2;
      }
      ro.timeoutS = int(s);
    } else if (a == "--native") native = true;
    else if (a == "--check-bounds") checkBounds = true;
    else if (a == "--validate") ro.validate = true;
    else if (a == "--pipeline-stats") ro.pipelineStats = true;
    else if (a == "--fact") {
      ro.forcedFacts.push_back(next());
      if (!vk::isFactName(ro.forcedFacts.back())) {
        fprintf(stderr, "ptx2glsl run: unknown fact '%s' for --fact (facts: %s)\n", ro.forcedFacts.back().c_str(),
                vk::factNames().c_str());
        return 2;
      }
    }
    else if (a == "--no-device-facts") ro.deviceFacts = false;
    else if (a == "--disable-pass") {
      disabled.push_back(next());
      if (!checkPassName("run", disabled.back())) return 2;
    } else if (a == "--glsl") glslFile = next();
    else if (a == "--quiet") ro.quiet = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl run: unknown option '%s'\n%s", a.c_str(), kRunHelp);
      return 2;
    } else cases.push_back(a);
  }
  if (cases.empty()) {
    fputs(kRunHelp, stderr);
    return 2;
  }
  if (!glslFile.empty() && cases.size() != 1) {
    fprintf(stderr, "ptx2glsl run: --glsl replaces one kernel: give exactly one case\n");
    return 2;
  }
  if (native) applyNative(disabled);
  return runCases(cases, ro, makeTranslateFn(native, disabled, checkBounds, glslFile));
}

int cmdDiff(int argc, char** argv) {
  if (wantHelp(argc, argv)) {
    fputs(kDiffHelp, stdout);
    return 0;
  }
  std::vector<std::string> files;
  std::string type;
  bool haveType = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--type") {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl diff: --type needs a value\n%s", kDiffHelp);
        return 2;
      }
      type = argv[++i];
      haveType = true;
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl diff: unknown option '%s'\n%s", a.c_str(), kDiffHelp);
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2 || !haveType) {
    fprintf(stderr, "ptx2glsl diff: %s\n%s",
            files.size() != 2 ? "two files expected" : "--type is required", kDiffHelp);
    return 2;
  }
  ElemType t;
  if (!parseElemType(type, t)) {
    fprintf(stderr, "ptx2glsl diff: error: unknown --type '%s' (types: u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64 bits)\n",
            type.c_str());
    return 2;
  }
  // Output files are compared whole in memory: 4 GiB each at most.
  constexpr uint64_t kMaxDiffBytes = uint64_t(4) << 30;
  std::string bytes[2];
  for (int k = 0; k < 2; ++k) {
    std::string err;
    if (!ptx::checkInputFile(files[k], kMaxDiffBytes, err) || !readFile(files[k], bytes[k])) {
      fprintf(stderr, "ptx2glsl diff: error: %s\n", err.empty() ? ("cannot read '" + files[k] + "'").c_str() : err.c_str());
      return 2;
    }
  }
  if (bytes[0].size() != bytes[1].size()) {
    fprintf(stderr, "ptx2glsl diff: error: sizes differ: '%s' has %zu bytes, '%s' %zu\n", files[0].c_str(),
            bytes[0].size(), files[1].c_str(), bytes[1].size());
    return 2;
  }
  if (bytes[0].size() % elemSize(t)) {
    fprintf(stderr, "ptx2glsl diff: error: '%s' has %zu bytes, not a whole number of %s elements (%u bytes each)\n",
            files[0].c_str(), bytes[0].size(), type.c_str(), elemSize(t));
    return 2;
  }
  DiffStats d = diffBytes(reinterpret_cast<const uint8_t*>(bytes[0].data()),
                          reinterpret_cast<const uint8_t*>(bytes[1].data()), bytes[0].size(), t);
  printf("%s\n", formatDiff(d).c_str());
  return d.identical() ? 0 : 1;
}

int cmdPasses() {
  for (auto& p : passRegistry()) printf("%-15s %s\n", p.name, p.description);
  return 0;
}

int cmdOps(int argc, char** argv) {
  if (wantHelp(argc, argv)) {
    fputs(kOpsHelp, stdout);
    return 0;
  }
  if (argc >= 1 && !strcmp(argv[0], "--histogram")) return formHistogramCommand(argc - 1, argv + 1);
  if (argc > 1 || (argc == 1 && argv[0][0] == '-')) {
    fprintf(stderr, "ptx2glsl ops: unexpected argument '%s'\n%s", argv[argc - 1], kOpsHelp);
    return 2;
  }
  std::string forms = describeForms(argc == 1 ? argv[0] : "");
  if (forms.empty()) {
    fprintf(stderr, "ptx2glsl ops: '%s' is not an opcode the translator lowers\n", argv[0]);
    return 2;
  }
  fputs(forms.c_str(), stdout);
  return 0;
}

long peakRssKb() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Makes a PTX file of at least `mb` MB from `src`: the module header once, then the entries renamed.
std::string makeBigPtx(const std::string& src, size_t mb) {
  size_t firstEntry = src.find(".visible .entry");
  if (firstEntry == std::string::npos) firstEntry = src.find(".entry");
  if (firstEntry == std::string::npos) return src;
  std::string head = src.substr(0, firstEntry), body = src.substr(firstEntry);
  std::string out = head;
  for (int copy = 0; out.size() < mb * 1000000; ++copy) {
    std::string b = body;
    // rename every entry: "<name>(" -> "<name>_c<copy>("
    size_t pos = 0;
    while ((pos = b.find(".entry ", pos)) != std::string::npos) {
      size_t n = pos + 7, e = b.find('(', n);
      if (e == std::string::npos) break;
      std::string name = b.substr(n, e - n);
      while (!name.empty() && name.back() == ' ') name.pop_back();
      b.insert(n + name.size(), "_c" + std::to_string(copy));
      pos = e;
    }
    out += b;
  }
  return out;
}

// This process's peak resident memory (VmHWM of /proc/self/status: the high-water mark of this program's own
// address space, which, unlike getrusage's ru_maxrss, does not start from the memory of the process that spawned
// it), in KB; -1 when unknown.
long ownPeakKb() {
  std::ifstream st("/proc/self/status");
  std::string l;
  while (std::getline(st, l))
    if (l.compare(0, 6, "VmHWM:") == 0) return atol(l.c_str() + 6);
  return -1;
}

// The peak resident memory of translating `text` to GLSL on its own, in KB (-1 when it could not be measured):
// `ptx2glsl bench --glsl-peak COPY` in a new process, since this one already holds glslang's memory and the other
// inputs.
long glslPeakKb(const std::string& text) {
  char file[] = "/tmp/p2g-bench-XXXXXX";
  int fd = mkstemp(file);
  if (fd < 0) return -1;
  bool wrote = write(fd, text.data(), text.size()) == ssize_t(text.size());
  close(fd);
  std::string report = std::string(file) + ".peak";
  long kb = -1;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (wrote && n > 0) {
    self[n] = 0;
    std::string exe(self);
    std::vector<std::string> args = {exe, "bench", "--glsl-peak", file};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, report.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    if (posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ) == 0) {
      int status = 0;
      if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        std::string out;
        if (readFile(report, out)) kb = atol(out.c_str());
      }
    }
    posix_spawn_file_actions_destroy(&fa);
  }
  unlink(report.c_str());
  unlink(file);
  return kb;
}

// `bench --glsl-peak FILE` (the child of glslPeakKb): translates FILE to GLSL, prints its own peak memory in KB.
int benchGlslPeak(const char* path) {
  std::string text;
  if (!readFile(path, text)) return 1;
  ptx::SourceManager sm;
  int buf = sm.add(path, std::move(text));
  ptx::DiagEngine d(sm);
  std::vector<EntryResult> res;
  TranslateOptions opt;
  opt.spirv = false;
  if (!translateBuffer(sm, buf, opt, d, res)) return 1;
  printf("%ld\n", ownPeakKb());
  return 0;
}

int cmdBench(int argc, char** argv) {
  if (wantHelp(argc, argv)) {
    fputs(kBenchHelp, stdout);
    return 0;
  }
  std::vector<std::string> files;
  int repeat = 3;
  size_t bigMb = 0;
  if (argc == 2 && std::string(argv[0]) == "--glsl-peak") return benchGlslPeak(argv[1]);
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" || a == "--big-mb") {
      long v = 0;
      bool rep = a == "--repeat";
      if (i + 1 >= argc || !parseNumber(argv[i + 1], rep ? 1 : 0, rep ? 1000 : 4096, v)) {
        fprintf(stderr, "ptx2glsl bench: %s wants a whole number from %d to %d, not '%s'\n", a.c_str(), rep ? 1 : 0,
                rep ? 1000 : 4096, i + 1 < argc ? argv[i + 1] : "");
        return 2;
      }
      ++i;
      if (rep) repeat = int(v);
      else bigMb = size_t(v);
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl bench: unknown option '%s'\n%s", a.c_str(), kBenchHelp);
      return 2;
    } else files.push_back(a);
  }
  if (files.empty()) {
    fputs(kBenchHelp, stderr);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> inputs;
  for (auto& f : files) {
    std::string text, err;
    if (!ptx::checkInputFile(f, ptx::kMaxSourceBytes, err) || !readFile(f, text)) {
      fprintf(stderr, "ptx2glsl bench: error: %s\n", err.empty() ? ("cannot read '" + f + "'").c_str() : err.c_str());
      return 2;
    }
    inputs.push_back({f, text});
  }
  if (bigMb) inputs.push_back({"generated(" + files[0] + " x N)", makeBigPtx(inputs[0].second, bigMb)});
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  printf("%-48s %9s %10s %12s %11s %11s %11s %10s %13s\n", "file", "MB", "parse MB/s", "to-GLSL MB/s", "1 thread",
         "glslang MB/s", "spv-val MB/s", "peak MB", "to-GLSL peak");
  for (auto& [name, text] : inputs) {
    double mb = double(text.size()) / 1e6;
    double bestParse = 1e30, bestGlsl = 1e30, bestGlsl1 = 1e30, bestGlslang = 1e30, bestVal = 1e30;
    long rss0 = peakRssKb();
    for (int r = 0; r < repeat; ++r) {
      ptx::SourceManager sm;
      int buf = sm.add(name, text);
      {
        ptx::DiagEngine d(sm);
        ptx::Module m;
        auto t0 = std::chrono::steady_clock::now();
        bool ok = ptx::parseModule(sm, buf, d, m);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (!ok) {
          fprintf(stderr, "%s", d.formatAll().c_str());
          return 1;
        }
        bestParse = std::min(bestParse, ms);
      }
      // PTX to GLSL by the clock, as `translate` does it (entries on every core) and on one thread
      for (int threads : {0, 1}) {
        ptx::DiagEngine dg(sm);
        dg.setErrorLimit(1);
        std::vector<EntryResult> res;
        TranslateOptions opt;
        opt.spirv = false;
        opt.threads = threads;
        auto tg = std::chrono::steady_clock::now();
        translateBuffer(sm, buf, opt, dg, res);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tg).count();
        double& best = threads ? bestGlsl1 : bestGlsl;
        best = std::min(best, ms);
      }
      // the stages on one thread, glslang and spirv-val included
      ptx::DiagEngine d(sm);
      d.setErrorLimit(1);
      std::vector<EntryResult> res;
      Timings tm;
      TranslateOptions opt;
      opt.spirv = true;
      opt.threads = 1;
      translateBuffer(sm, buf, opt, d, res, &tm);
      bestGlslang = std::min(bestGlslang, tm.glslangMs);
      bestVal = std::min(bestVal, tm.validateMs);
      if (r == repeat - 1)
        printf("  %s: lift %.1f ms, passes %.1f ms, structurize %.1f ms, emit %.1f ms (last run)\n",
               name.substr(0, 40).c_str(), tm.liftMs, tm.passesMs, tm.structurizeMs, tm.emitMs);
      if (r == 0 && d.hasErrors())
        printf("  note: %s has entries that do not translate (%u error(s)); timings cover the rest\n", name.c_str(),
               d.errorCount());
    }
    long rss = peakRssKb();
    auto rate = [&](double ms) { return ms > 0 ? mb / (ms / 1000.0) : 0.0; };
    long own = glslPeakKb(text);
    char ownText[64] = "-";
    if (own > 0) snprintf(ownText, sizeof ownText, "%.1f (%.1fx)", double(own) / 1024.0, double(own) / 1024.0 / mb);
    printf("%-48s %9.2f %10.1f %12.1f %11.1f %11.1f %11.1f %10.1f %13s\n", name.substr(0, 48).c_str(), mb,
           rate(bestParse), rate(bestGlsl), rate(bestGlsl1), rate(bestGlslang), rate(bestVal),
           double(std::max(rss, rss0)) / 1024.0, ownText);
  }
  printf("to-GLSL MB/s: PTX to GLSL by the clock, entries on %u thread(s) (one per core; a file of one entry uses\n"
         "one); 1 thread: the same on one thread; glslang, spirv-val: their time summed over the entries;\n"
         "peak MB: this process's maximum resident set so far (glslang's and every input's memory included);\n"
         "to-GLSL peak: PTX to GLSL for the input alone, in a new process, entries on every core (MB, and x the PTX).\n",
         cores);
  return 0;
}

// ptx2glsl pipeline-time FILE.spv... : how long the device's driver takes to compile each shader into a compute
// pipeline (vkCreateComputePipelines wall time). For shaders whose pipeline creation is slow on a driver.
int cmdPipelineTime(int n, char** rest) {
  std::string device = "lavapipe";
  uint32_t block[3] = {256, 1, 1};
  std::vector<std::string> files;
  for (int i = 0; i < n; ++i) {
    std::string a = rest[i];
    if (a == "--help" || a == "-h") {
      puts("usage: ptx2glsl pipeline-time FILE.spv... [--device NAME] [--block X,Y,Z]\n"
           "  prints the wall time of vkCreateComputePipelines for each SPIR-V file (the driver's compiler)");
      return 0;
    }
    if ((a == "--device" || a == "--block") && i + 1 >= n) {
      fprintf(stderr, "ptx2glsl pipeline-time: error: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--device") device = rest[++i];
    else if (a == "--block") {
      std::string v = rest[++i];
      size_t c1 = v.find(','), c2 = c1 == v.npos ? v.npos : v.find(',', c1 + 1);
      long x = 0, y = 0, z = 0;
      if (c2 == v.npos || !parseNumber(v.substr(0, c1), 1, 1024, x) || !parseNumber(v.substr(c1 + 1, c2 - c1 - 1), 1, 1024, y) ||
          !parseNumber(v.substr(c2 + 1), 1, 64, z) || x * y * z > 1024) {
        fprintf(stderr, "ptx2glsl pipeline-time: error: --block expects X,Y,Z (whole numbers, at most 1024 threads), not '%s'\n",
                v.c_str());
        return 2;
      }
      block[0] = uint32_t(x), block[1] = uint32_t(y), block[2] = uint32_t(z);
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl pipeline-time: error: unknown option '%s'\n", a.c_str());
      return 2;
    } else files.push_back(a);
  }
  if (files.empty()) {
    fprintf(stderr, "ptx2glsl pipeline-time: error: no SPIR-V file given\n");
    return 2;
  }
  vk::Context ctx;
  std::string err;
  if (!ctx.open(device, err)) {
    fprintf(stderr, "ptx2glsl pipeline-time: error: %s\n", err.c_str());
    return 1;
  }
  int rc = 0;
  for (auto& f : files) {
    std::string bytes;
    if (!readFile(f, bytes) || bytes.size() % 4 || bytes.empty()) {
      fprintf(stderr, "ptx2glsl pipeline-time: error: %s: not a SPIR-V file\n", f.c_str());
      rc = 1;
      continue;
    }
    std::vector<uint32_t> words(bytes.size() / 4);
    memcpy(words.data(), bytes.data(), bytes.size());
    double ms = 0;
    if (!vk::timePipeline(ctx, words, block, ms, err)) {
      fprintf(stderr, "ptx2glsl pipeline-time: error: %s: %s\n", f.c_str(), err.c_str());
      rc = 1;
      continue;
    }
    printf("%s: %zu bytes, pipeline created in %.1f ms\n", f.c_str(), bytes.size(), ms);
    fflush(stdout);
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fputs(kUsage, stderr);
    return 2;
  }
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    fputs(versionText().c_str(), stdout);
    return 0;
  }
  int n = argc - 2;
  char** rest = argv + 2;
  if (cmd == "translate") return cmdTranslate(n, rest);
  if (cmd == "run") return cmdRun(n, rest);
  if (cmd == "diff") return cmdDiff(n, rest);
  if (cmd == "devices" || cmd == "passes") {
    if (wantHelp(n, rest)) return printf("usage: ptx2glsl %s\n", cmd.c_str()), 0;
    if (n > 0) {
      fprintf(stderr, "ptx2glsl %s: unexpected argument '%s' (the command takes none)\n", cmd.c_str(), rest[0]);
      return 2;
    }
    return cmd == "devices" ? listDevices() : cmdPasses();
  }
  if (cmd == "ops") return cmdOps(n, rest);
  if (cmd == "bench") return cmdBench(n, rest);
  if (cmd == "pipeline-time") return cmdPipelineTime(n, rest);
  if (cmd == "extract") return cli::cmdExtract(n, rest);
  if (cmd == "batch") return cli::cmdBatch(n, rest);
  if (cmd == "card") return cli::cmdCard(n, rest);
  if (cmd == "diff-build") return cli::cmdDiffBuild(n, rest);
  if (cmd == "view") return cli::cmdView(n, rest);
  fprintf(stderr, "ptx2glsl: unknown command '%s'\n%s", cmd.c_str(), kUsage);
  return 2;
}
