#include "run.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "case.h"
#include "device.h"
#include "diff.h"
#include "facts.h"
#include "launch.h"
#include "params.h"

namespace p2g {

namespace {

struct Tally {
  int cases = 0, identical = 0, differ = 0, errors = 0;
};

std::string msFmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

// Compares (and writes, with --out) the outputs of one launched case.
void reportOutputs(const CaseSpec& c, const vk::LaunchResult& lr, const RunOptions& opt, std::ostream& os, Tally& t) {
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const OutputSpec& o = c.outputs[i];
    const std::vector<uint8_t>& got = lr.outputs[i];
    std::string err;
    if (!opt.outDir.empty()) {
      std::string dir = opt.outDir + "/" + c.name;
      if (!makeDirs(dir, err) || !writeFile(dir + "/" + o.name + ".bin", got.data(), got.size(), err)) {
        os << c.name << " " << o.name << ": error: " << err << "\n";
        ++t.errors;
        continue;
      }
    }
    std::string want;
    if (!readFile(c.dir + "/expected/" + o.name + ".bin", want)) {
      os << c.name << " " << o.name << ": error: no expected/" << o.name << ".bin\n";
      ++t.errors;
      continue;
    }
    if (want.size() != got.size()) {
      os << c.name << " " << o.name << ": error: output has " << got.size() << " bytes, expected/" << o.name << ".bin has "
         << want.size() << "\n";
      ++t.errors;
      continue;
    }
    DiffStats d = diffBytes(got.data(), (const uint8_t*)want.data(), got.size(), o.type);
    os << c.name << " " << o.name << ": " << formatDiff(d) << "\n";
    ++(d.identical() ? t.identical : t.differ);
  }
}

// Loads, translates, validates and runs one case; false (with `err`) when it could not run at all.
bool runOne(vk::Context& ctx, const std::string& dir, const RunOptions& opt, const TranslateFn& translate,
            std::ostream& os, Tally& t, std::string& err) {
  CaseSpec c;
  if (!loadCase(dir, c, err)) return false;
  TranslatedKernel k;
  vk::DeviceFacts facts;
  std::string ferr;  // a fact the device cannot carry was refused before the first case
  k.wantF16 = vk::contextFacts(ctx, facts, ferr) && facts.f16Native;
  std::string diag;
  if (!translate(c.ptx, c.kernel, k, diag)) {
    err = c.name + ": translation of " + c.kernel + " failed:\n" + diag;
    return false;
  }
  if (!opt.quiet)
    for (auto& w : k.manifest.warnings) os << c.name << ": warning: " << w << "\n";
  // Everything that can be refused is refused here, before any resource exists.
  if (!validateParams(c, k.manifest.params, err) || !validateAgainstKernel(c, k.manifest, err)) return false;
  if (!vk::checkLaunch(ctx, c, k.manifest, err)) {
    err = c.name + ": " + err;
    return false;
  }
  vk::LaunchResult lr;
  if (!vk::launch(ctx, c, k, opt.repeat, opt.timeoutS, lr, err)) {
    err = c.name + ": " + err;
    return false;
  }
  if (opt.repeat > 1 && !lr.gpuMs.empty()) {
    std::vector<double> ms = lr.gpuMs;
    std::sort(ms.begin(), ms.end());
    os << c.name << ": GPU ms min " << msFmt(ms.front()) << ", median " << msFmt(ms[ms.size() / 2]) << " (" << ms.size()
       << " runs); pipeline creation " << msFmt(lr.pipelineMs) << " ms\n";
  }
  for (auto& l : lr.pipelineStats) os << c.name << ": pipeline statistics: " << l << "\n";
  reportOutputs(c, lr, opt, os, t);
  return true;
}

// Prints the validation messages logged since `seen`, under `label`; returns how many.
int printValidation(std::ostream& os, const std::vector<vk::ValidationMessage>& log, size_t& seen,
                    const std::string& label) {
  int n = 0;
  for (; seen < log.size(); ++seen, ++n)
    os << label << ": validation " << log[seen].severity << ": " << log[seen].text << "\n";
  return n;
}

}  // namespace

int runCases(const std::vector<std::string>& caseDirs, const RunOptions& opt, const TranslateFn& translate) {
  std::ostream& os = opt.log ? *opt.log : std::cout;
  // The validation log outlives every context: one given up after a timeout is never destroyed (its dispatch may
  // still run), so its messenger may still point here at exit.
  auto* log = new std::vector<vk::ValidationMessage>;
  std::unique_ptr<std::vector<vk::ValidationMessage>> logOwner(log);
  size_t seen = 0;
  int messages = 0;
  auto openContext = [&](std::unique_ptr<vk::Context>& ctx, std::string& err) {
    ctx = std::make_unique<vk::Context>();
    ctx->messageLog = log;
    ctx->useDeviceFacts = opt.deviceFacts;
    ctx->pipelineStats = opt.pipelineStats;
    ctx->forcedFacts = opt.forcedFacts;
    return ctx->open(opt.device, err, opt.validate);
  };
  std::unique_ptr<vk::Context> ctx;
  std::string err;
  if (!openContext(ctx, err)) {
    os << "error: " << err << "\n";
    printValidation(os, *log, seen, "device");
    return 1;
  }
  vk::DeviceFacts facts;
  if (!vk::contextFacts(*ctx, facts, err)) {
    os << "error: " << err << "\n";
    return 1;
  }
  if (!opt.quiet)
    os << "device: " << ctx->info.props.deviceName << " (" << ctx->info.driver.driverName << "); device facts: "
       << vk::describeFacts(facts) << (opt.forcedFacts.empty() ? "" : " (forced: --fact)") << "\n";
  messages += printValidation(os, *log, seen, "device");
  os.flush();
  Tally t;
  for (auto& dir : caseDirs) {
    ++t.cases;
    if (ctx->busy) {
      // An earlier dispatch timed out and still runs on that device: leave it (and everything it uses) alive, and
      // go on with a new logical device.
      ctx.release();
      logOwner.release();
      if (!openContext(ctx, err)) {
        os << "error: " << dir << ": not run: no new device after the timeout: " << err << "\n";
        ++t.errors;
        os.flush();
        ctx.reset(new vk::Context);
        ctx->busy = true;  // nothing to destroy; the next case tries again
        continue;
      }
    }
    bool ok = false;
    try {
      ok = runOne(*ctx, dir, opt, translate, os, t, err);
    } catch (const std::exception& e) {  // e.g. std::bad_alloc for a case whose inputs do not fit in memory
      err = dir + ": " + e.what();
      ok = false;
    }
    if (!ok) {
      os << "error: " << err << "\n";
      ++t.errors;
    }
    messages += printValidation(os, *log, seen, dir);
    os.flush();
  }
  if (ctx->busy) logOwner.release();  // the context given up keeps its messenger
  else ctx.reset();                   // destroying the device and instance may be reported too
  messages += printValidation(os, *log, seen, "exit");
  os << t.cases << " cases, " << t.identical << " outputs identical, " << t.differ << " differ, " << t.errors
     << " errors";
  if (opt.validate) os << ", " << messages << " validation messages";
  os << "\n";
  os.flush();
  return (t.differ == 0 && t.errors == 0 && messages == 0) ? 0 : 1;
}

int listDevices() {
  vk::Context ctx;
  std::string err;
  std::vector<vk::DeviceInfo> devs;
  if (!ctx.createInstance(err) || !ctx.enumerate(devs, err)) {
    std::cerr << "error: " << err << "\n";
    return 1;
  }
  for (auto& d : devs) {
    uint32_t v = d.props.apiVersion;
    std::cout << d.index << ": " << d.props.deviceName << " | driver " << d.driver.driverName << " "
              << d.driver.driverInfo << " | subgroup " << d.subgroupSize << " | Vulkan " << VK_API_VERSION_MAJOR(v)
              << "." << VK_API_VERSION_MINOR(v) << "." << VK_API_VERSION_PATCH(v);
    const auto& fc = d.floatControls;
    auto yn = [](VkBool32 b) { return b ? "y" : "n"; };
    std::cout << " | denorm preserve f16/f32/f64 " << yn(fc.shaderDenormPreserveFloat16) << "/"
              << yn(fc.shaderDenormPreserveFloat32) << "/" << yn(fc.shaderDenormPreserveFloat64) << ", flush "
              << yn(fc.shaderDenormFlushToZeroFloat16) << "/" << yn(fc.shaderDenormFlushToZeroFloat32) << "/"
              << yn(fc.shaderDenormFlushToZeroFloat64) << " | facts " << vk::describeFacts(vk::deviceFacts(d, true))
              << "\n";
  }
  return 0;
}

}  // namespace p2g
