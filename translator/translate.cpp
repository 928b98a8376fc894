#include "translate.h"

#include <chrono>

#include "handles.h"
#include "lift.h"
#include "parser.h"
#include "spirv.h"
#include "structurize.h"

namespace p2g {

namespace {
double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

bool translateBuffer(const ptx::SourceManager& sm, int buf, const TranslateOptions& opt, ptx::DiagEngine& diags,
                     std::vector<EntryResult>& out, Timings* timings) {
  auto t0 = std::chrono::steady_clock::now();
  ptx::Module mod;
  ptx::ParseOptions po;
  po.dropEntryBodies = true;  // few kernels' syntax trees at a time (translateParsed parses dropped bodies again)
  bool parsed = ptx::parseModule(sm, buf, diags, mod, po);
  if (timings) timings->parseMs += msSince(t0);
  if (!parsed) return false;
  return translateParsed(sm, buf, mod, opt, diags, out, timings);
}

bool translateParsed(const ptx::SourceManager& sm, int buf, const ptx::Module& mod, const TranslateOptions& opt,
                     ptx::DiagEngine& diags, std::vector<EntryResult>& out, Timings* timings) {
  bool ok = true;
  bool found = false;
  for (auto& entry : mod.functions) {
    if (!entry.isEntry || !entry.hasBody) continue;
    if (!opt.entry.empty() && entry.name != opt.entry) continue;
    found = true;
    auto t1 = std::chrono::steady_clock::now();
    // A body the parse checked but did not keep is parsed again here, and freed after this kernel.
    ptx::Function reparsed;
    if (entry.bodyDropped) {
      reparsed = entry;
      if (!ptx::parseBody(sm, buf, diags, reparsed)) {
        ok = false;
        continue;
      }
    }
    const ptx::Function& fn = entry.bodyDropped ? reparsed : entry;
    ir::Function f;
    if (!liftEntry(mod, fn, diags, f)) {
      ok = false;
      continue;
    }
    if (timings) timings->liftMs += msSince(t1);
    auto tp = std::chrono::steady_clock::now();
    std::string v = ir::validate(f);
    if (!v.empty()) {
      diags.error(fn.span, "internal error: lifted IR is invalid: " + v);
      ok = false;
      continue;
    }
    EntryResult r;
    r.name = std::string(fn.name);
    // Texture/surface handles -> parameter-block offsets, for the manifest (an untraceable handle is an error).
    if (!resolveImageHandles(f, diags, r.manifest.images)) {
      ok = false;
      continue;
    }
    // What every loaded parameter offset is (texture/surface/buffer/scalar), before the passes change the IR.
    mapParamBlock(f, r.manifest.images, r.manifest.paramMap);
    std::string perr;
    if (!runPipeline(f, opt.pipeline, r.passLog, perr)) {
      diags.error(fn.span, perr);
      ok = false;
      continue;
    }
    if (opt.dumpIr) r.passLog += ir::dump(f);
    if (timings) timings->passesMs += msSince(tp);
    auto ts = std::chrono::steady_clock::now();
    Cfg cfg;
    for (auto& b : f.blocks) cfg.succ.push_back(b.term.targets);
    StructurizeResult tree = structurize(cfg);
    if (tree.tooDeep) {
      // Valid code the output cannot hold: say where, at the PTX.
      ptx::Span at = fn.span;
      if (tree.errorBlock >= 0 && size_t(tree.errorBlock) < f.blocks.size()) {
        const ir::Block& b = f.blocks[size_t(tree.errorBlock)];
        if (!b.insts.empty() && b.insts[0].span.begin) at = b.insts[0].span;
        else if (b.term.span.begin) at = b.term.span;
      }
      diags.error(at, "'" + std::string(fn.name) + "': " + tree.error +
                          " here (ifs and loops inside each other); deeper nesting is not supported");
      ok = false;
      continue;
    }
    if (!tree.error.empty()) {
      diags.error(fn.span, "internal error: structurizer: " + tree.error);
      ok = false;
      continue;
    }
    if (timings) timings->structurizeMs += msSince(ts);
    auto te = std::chrono::steady_clock::now();
    Emitter em(f, sm, diags, opt.emit);
    em.setImages(r.manifest.images);
    std::vector<std::string> features, warnings;
    if (!em.emit(tree, r.glsl, features, warnings)) {
      ok = false;
      continue;
    }
    if (timings) {
      timings->emitMs += msSince(te);
      timings->liftToGlslMs += msSince(t1);
    }
    if (opt.spirv) {
      auto t2 = std::chrono::steady_clock::now();
      std::string log;
      if (!compileGlsl(r.glsl, r.spirv, log)) {
        if (log.find("memory exhausted") != std::string::npos) {
          // glslang's parser stack (structurize.h kMaxStructureNesting): valid code nested too deeply for it
          diags.error(fn.span, "'" + r.name + "': the GLSL nests deeper than glslang's parser accepts (about 1,250 "
                                              "levels of ifs and loops); not supported");
          ok = false;
          continue;
        }
        diags.error(fn.span, "internal error: generated GLSL for '" + r.name + "' does not compile:\n" + log);
        ok = false;
        continue;
      }
      if (timings) timings->glslangMs += msSince(t2);
      auto t3 = std::chrono::steady_clock::now();
      if (!validateSpirv(r.spirv, log)) {
        if (log.find("exceeded the valid limit") != std::string::npos) {
          // SPIR-V's universal limits (e.g. 524,287 function-local variables: registers and temporaries), reached
          // by valid but very large kernels
          while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
          diags.error(fn.span, "'" + r.name + "' is too large for SPIR-V: " + log);
          ok = false;
          continue;
        }
        diags.error(fn.span, "internal error: SPIR-V for '" + r.name + "' fails validation:\n" + log);
        ok = false;
        continue;
      }
      if (timings) timings->validateMs += msSince(t3);
      // The f16 variant: the same GLSL with P2G_F16_NATIVE defined (f32_prelude.cpp, the half helpers)
      if (opt.f16Variant && r.glsl.find("#ifdef P2G_F16_NATIVE") != std::string::npos) {
        auto t4 = std::chrono::steady_clock::now();
        if (!compileGlsl(r.glsl, r.spirvF16, log, "#define P2G_F16_NATIVE\n")) {
          diags.error(fn.span, "internal error: the f16 variant of '" + r.name + "' does not compile:\n" + log);
          ok = false;
          continue;
        }
        if (timings) timings->glslangMs += msSince(t4);
        auto t5 = std::chrono::steady_clock::now();
        if (!validateSpirv(r.spirvF16, log)) {
          diags.error(fn.span, "internal error: the f16 variant of '" + r.name + "' fails validation:\n" + log);
          ok = false;
          continue;
        }
        if (timings) timings->validateMs += msSince(t5);
      }
    }
    Manifest& m = r.manifest;
    m.entry = r.name;
    m.ptx = sm.name(buf);
    m.params = f.params;
    m.paramBytes = f.paramBytes;
    m.staticSharedBytes = f.sharedStaticBytes;
    m.dynamicShared = f.dynamicShared;
    m.localBytes = f.localBytes;
    for (int i = 0; i < 3; ++i) m.reqntid[i] = f.reqntid[i];
    m.features = features;
    m.warnings = warnings;
    m.glsl = r.name + ".comp";
    m.spirv = r.name + ".spv";
    if (!r.spirvF16.empty()) m.spirvF16 = r.name + ".f16.spv";
    for (auto& v2 : f.vars)
      if (v2.space == ptx::Space::Global) {
        m.globalsBytes = std::max<uint32_t>(m.globalsBytes, uint32_t(v2.offset + v2.bytes));
      }
    if (opt.emit.checkBounds) {
      m.checkBounds = true;
      m.globalVarBytes = m.globalsBytes;
    }
    if (!em.sfuTables().empty()) {  // the SFU table directory after the variables (sfu_prelude.cpp)
      m.sfuTables = em.sfuTables();
      m.sfuDir = em.sfuDir();
      m.globalsBytes = std::max<uint32_t>(m.globalsBytes, m.sfuDir + 4 * uint32_t(m.sfuTables.size()));
    }
    m.blockThreads = em.blockThreads();
    if (em.loopGuardAt() >= 0) {  // lavapipe's loop budget counter after those (emitter.cpp loopGuardText)
      m.loopGuard = true;
      m.loopGuardAt = uint32_t(em.loopGuardAt());
      m.globalsBytes = std::max<uint32_t>(m.globalsBytes, m.loopGuardAt + 4);
    }
    m.globalsInit.assign(m.globalsBytes, 0);
    for (auto& v2 : f.vars)
      if (v2.space == ptx::Space::Global)
        for (size_t i = 0; i < v2.init.size(); ++i) m.globalsInit[v2.offset + i] = v2.init[i];
    out.push_back(std::move(r));
  }
  if (!found && ok) {
    if (opt.entry.empty()) diags.error({}, sm.name(buf) + ": no .entry with a body in this file");
    else diags.error({}, sm.name(buf) + ": no .entry named '" + opt.entry + "'");
    return false;
  }
  return ok;
}

}  // namespace p2g
