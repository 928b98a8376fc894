#include "translate.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <system_error>
#include <thread>

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

// One entry: lift -> passes -> structurize -> emit (-> SPIR-V). Errors go to `diags`; `r` is complete only when
// it returns true.
bool translateEntry(const ptx::SourceManager& sm, int buf, const ptx::Module& mod, const ptx::Function& entry,
                    const TranslateOptions& opt, ptx::DiagEngine& diags, EntryResult& r, Timings* timings) {
  auto t1 = std::chrono::steady_clock::now();
  ir::Function f;
  {
    // A body the parse checked but did not keep is parsed again here, and freed once lifted (the IR's spans point
    // into the source buffer, not into the syntax tree).
    ptx::Function reparsed;
    if (entry.bodyDropped) {
      reparsed = entry;
      if (!ptx::parseBody(sm, buf, diags, reparsed)) return false;
    }
    if (!liftEntry(mod, entry.bodyDropped ? reparsed : entry, diags, f)) return false;
  }
  const ptx::Function& fn = entry;  // its name and span
  if (timings) timings->liftMs += msSince(t1);
  auto tp = std::chrono::steady_clock::now();
  std::string v = ir::validate(f);
  if (!v.empty()) {
    diags.error(fn.span, "internal error: lifted IR is invalid: " + v);
    return false;
  }
  r = EntryResult();
  r.name = std::string(fn.name);
  // Texture/surface handles -> parameter-block offsets, for the manifest (an untraceable handle is an error).
  if (!resolveImageHandles(f, diags, r.manifest.images)) return false;
  // What every loaded parameter offset is (texture/surface/buffer/scalar), before the passes change the IR.
  mapParamBlock(f, r.manifest.images, r.manifest.paramMap);
  std::string perr;
  if (!runPipeline(f, opt.pipeline, r.passLog, perr)) {
    diags.error(fn.span, perr);
    return false;
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
    return false;
  }
  if (!tree.error.empty()) {
    diags.error(fn.span, "internal error: structurizer: " + tree.error);
    return false;
  }
  if (timings) timings->structurizeMs += msSince(ts);
  auto te = std::chrono::steady_clock::now();
  Emitter em(f, sm, diags, opt.emit);
  em.setImages(r.manifest.images);
  std::vector<std::string> features, warnings;
  if (!em.emit(tree, r.glsl, features, warnings)) return false;
  if (timings) timings->emitMs += msSince(te);
  if (opt.spirv) {
    auto t2 = std::chrono::steady_clock::now();
    std::string log;
    if (!compileGlsl(r.glsl, r.spirv, log)) {
      if (log.find("memory exhausted") != std::string::npos) {
        // glslang's parser stack (structurize.h kMaxStructureNesting): valid code nested too deeply for it
        diags.error(fn.span, "'" + r.name + "': the GLSL nests deeper than glslang's parser accepts (about 1,250 "
                                            "levels of ifs and loops); not supported");
        return false;
      }
      diags.error(fn.span, "internal error: generated GLSL for '" + r.name + "' does not compile:\n" + log);
      return false;
    }
    if (timings) timings->glslangMs += msSince(t2);
    auto t3 = std::chrono::steady_clock::now();
    if (!validateSpirv(r.spirv, log)) {
      if (log.find("exceeded the valid limit") != std::string::npos) {
        // SPIR-V's universal limits (e.g. 524,287 function-local variables: registers and temporaries), reached
        // by valid but very large kernels
        while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
        diags.error(fn.span, "'" + r.name + "' is too large for SPIR-V: " + log);
        return false;
      }
      diags.error(fn.span, "internal error: SPIR-V for '" + r.name + "' fails validation:\n" + log);
      return false;
    }
    if (timings) timings->validateMs += msSince(t3);
    // The f16 variant: the same GLSL with P2G_F16_NATIVE defined (f32_prelude.cpp, the half helpers)
    if (opt.f16Variant && r.glsl.find("#ifdef P2G_F16_NATIVE") != std::string::npos) {
      auto t4 = std::chrono::steady_clock::now();
      if (!compileGlsl(r.glsl, r.spirvF16, log, "#define P2G_F16_NATIVE\n")) {
        diags.error(fn.span, "internal error: the f16 variant of '" + r.name + "' does not compile:\n" + log);
        return false;
      }
      if (timings) timings->glslangMs += msSince(t4);
      auto t5 = std::chrono::steady_clock::now();
      if (!validateSpirv(r.spirvF16, log)) {
        diags.error(fn.span, "internal error: the f16 variant of '" + r.name + "' fails validation:\n" + log);
        return false;
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
  return true;
}

void addTimings(Timings& to, const Timings& t) {
  to.parseMs += t.parseMs, to.glslangMs += t.glslangMs;
  to.validateMs += t.validateMs, to.liftMs += t.liftMs, to.passesMs += t.passesMs;
  to.structurizeMs += t.structurizeMs, to.emitMs += t.emitMs;
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
  std::vector<const ptx::Function*> todo;
  for (auto& entry : mod.functions) {
    if (!entry.isEntry || !entry.hasBody) continue;
    if (!opt.entry.empty() && entry.name != opt.entry) continue;
    todo.push_back(&entry);
  }
  if (todo.empty()) {
    if (opt.entry.empty()) diags.error({}, sm.name(buf) + ": no .entry with a body in this file");
    else diags.error({}, sm.name(buf) + ": no .entry named '" + opt.entry + "'");
    return false;
  }
  unsigned threads = opt.threads ? unsigned(opt.threads) : std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::min<size_t>(threads, todo.size()));
  bool ok = true;
  if (threads <= 1) {
    for (const ptx::Function* e : todo) {
      EntryResult r;
      if (translateEntry(sm, buf, mod, *e, opt, diags, r, timings)) out.push_back(std::move(r));
      else ok = false;
    }
    return ok;
  }
  // Entries on several threads (they share only `mod` and `sm`, which they read), each with its own diagnostics
  // and timings; results and diagnostics are then taken in the file's order, so the output is the same as one
  // thread's.
  struct Slot {
    explicit Slot(const ptx::SourceManager& s) : diags(s) {}
    ptx::DiagEngine diags;
    EntryResult r;
    Timings t;
    bool ok = false;
  };
  std::vector<std::unique_ptr<Slot>> slots;
  for (size_t i = 0; i < todo.size(); ++i) slots.push_back(std::make_unique<Slot>(sm));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < todo.size();) {
      Slot& s = *slots[i];
      s.ok = translateEntry(sm, buf, mod, *todo[i], opt, s.diags, s.r, timings ? &s.t : nullptr);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running (this one at least) take every entry
    }
  }
  work();
  for (auto& th : pool) th.join();
  for (auto& s : slots) {
    for (const ptx::Diagnostic& d : s->diags.all()) diags.add(d.sev, d.span, d.message);
    if (timings) addTimings(*timings, s->t);
    if (s->ok) out.push_back(std::move(s->r));
    else ok = false;
  }
  return ok;
}

}  // namespace p2g
