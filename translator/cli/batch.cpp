#include "batch.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include "binary.h"
#include "card.h"
#include "exact_marks.h"
#include "case.h"  // readFile
#include "files.h"
#include "layout.h"
#include "parser.h"
#include "pass.h"
#include "ptx_stats.h"
#include "translate.h"

namespace fs = std::filesystem;

namespace p2g::cli {

namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// The label an INPUT contributes to ids: its last path component ("ptx_corpus", "libk.so").
std::string rootLabel(const std::string& in) {
  fs::path p = fs::path(in).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  std::string l = p.filename().string();
  if (l.empty() || l == "." || l == "..") l = fs::absolute(p).lexically_normal().filename().string();
  return l.empty() ? "root" : l;
}

std::string withoutExt(const std::string& s, const char* ext) {
  size_t n = strlen(ext);
  return s.size() > n && s.compare(s.size() - n, n, ext) == 0 ? s.substr(0, s.size() - n) : s;
}

// A folder name for an entry: PTX names can be long mangled C++ names.
std::string entryFolder(const std::string& entry) {
  if (entry.size() <= 120) return entry;
  return entry.substr(0, 100) + "~" + fnv1a64(entry);
}

// Signatures strong enough that a data file of a walked folder is not taken for a binary by chance.
bool strongBinarySignature(const std::string& head, uint64_t fileSize) {
  if (head.size() >= 6 && head.compare(0, 4, "\x7f" "ELF") == 0) return (head[4] == 1 || head[4] == 2) && head[5] == 1;
  if (head.size() >= 16 && fatbin::looksLikeContainer(head, 0)) return true;
  if (head.size() >= 0x40 && head.compare(0, 2, "MZ") == 0) {
    uint64_t pe = uint8_t(head[0x3c]) | uint8_t(head[0x3d]) << 8 | uint64_t(uint8_t(head[0x3e])) << 16 |
                  uint64_t(uint8_t(head[0x3f])) << 24;
    return pe + 4 <= head.size() && head.compare(pe, 4, std::string("PE\0\0", 4)) == 0;
  }
  (void)fileSize;
  return false;
}

class Collector {
 public:
  Collector(const BatchOptions& o, BatchResult& r) : res_(r) {
    for (auto& d : o.excludeDirs) {
      std::error_code ec;
      fs::path p = fs::weakly_canonical(d, ec);
      if (!ec) exclude_.insert(p.string());
    }
  }

  void input(const std::string& in) {
    std::error_code ec;
    std::string label = rootLabel(in);
    if (fs::is_directory(in, ec)) {
      std::vector<fs::path> files;
      fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) {
        res_.problems.push_back({in, "cannot read the folder: " + ec.message()});
        return;
      }
      for (; it != end; it.increment(ec)) {
        if (ec) break;
        if (it->is_directory(ec)) {
          if (exclude_.count(fs::weakly_canonical(it->path(), ec).string())) it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file(ec)) files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      for (auto& f : files) {
        std::string rel = fs::relative(f, in, ec).generic_string();
        file(f.string(), label + "/" + rel, false);
      }
      return;
    }
    if (!fs::exists(in, ec)) {
      res_.problems.push_back({in, "no such file or folder"});
      return;
    }
    file(in, label, true);
  }

 private:
  BatchResult& res_;
  std::set<std::string> exclude_, ids_;

  std::string uniqueId(const std::string& want) {
    std::string id = want;
    for (int n = 2; !ids_.insert(id).second; ++n) id = want + "~" + std::to_string(n);
    return id;
  }

  void addPtx(const std::string& path, const std::string& idWant, std::string text) {
    Source s;
    s.id = uniqueId(withoutExt(idWant, ".ptx"));
    s.path = path;
    s.bufferName = path;
    s.text = std::move(text);
    res_.sources.push_back(std::move(s));
    ++res_.ptxFiles;
  }

  void file(const std::string& path, const std::string& idWant, bool explicitArg) {
    std::string ext = fs::path(path).extension().string();
    bool isPtxName = ext == ".ptx";
    // Files of a folder named as GPU code are read whatever their bytes (a damaged one is reported); others only
    // when their first bytes are a binary's.
    bool gpuName = isPtxName || ext == ".fatbin" || ext == ".cubin";
    if (!explicitArg && !gpuName) {
      // Only the first bytes decide whether a file of a folder is read further.
      std::ifstream f(path, std::ios::binary);
      std::string head(4096, '\0');
      f.read(head.data(), std::streamsize(head.size()));
      head.resize(size_t(f.gcount()));
      if (!strongBinarySignature(head, 0)) {
        ++res_.skippedFiles;
        return;
      }
    }
    std::string bytes;
    if (!readFile(path, bytes)) {
      res_.problems.push_back({path, "cannot read the file"});
      return;
    }
    if (isPtxName) {
      addPtx(path, idWant, std::move(bytes));
      return;
    }
    fatbin::FileKind kind = fatbin::sniff(bytes);
    if (kind == fatbin::FileKind::Ptx) {
      addPtx(path, idWant, std::move(bytes));
      return;
    }
    fatbin::BinaryListing b;
    std::string err;
    if (!fatbin::readBinaryBytes(path, std::move(bytes), b, err)) {
      res_.problems.push_back({path, err});
      return;
    }
    ++res_.binaries;
    bool any = false;
    for (size_t i = 0; i < b.entries.size(); ++i) {
      const auto& ne = b.entries[i];
      if (ne.entry.kind == fatbin::Kind::Elf) ++res_.elfEntries;
      if (ne.entry.kind != fatbin::Kind::Ptx) continue;
      any = true;
      std::string text;
      if (!fatbin::entryPayload(b, i, text, err)) {
        res_.problems.push_back({path, err});
        continue;
      }
      Source s;
      s.id = uniqueId(idWant + "/" + withoutExt(ne.name, ".ptx"));
      s.path = path;
      s.fatbinEntry = ne.name;
      s.bufferName = "ptx/" + s.id + ".ptx";
      s.text = std::move(text);
      s.extracted = true;
      res_.sources.push_back(std::move(s));
    }
    if (!any) ++res_.binariesWithoutCode;
  }
};

// Runs fn(i) for i in [0, n) on `jobs` threads; `tick` runs on the calling thread about every 100 ms meanwhile.
void parallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn, const std::function<void()>& tick) {
  std::atomic<size_t> next{0};
  std::atomic<int> running{0};
  std::mutex mu;
  std::condition_variable cv;
  auto work = [&] {
    for (size_t i; (i = next++) < n;) fn(i);
    std::lock_guard<std::mutex> l(mu);
    --running;
    cv.notify_all();
  };
  int t = int(std::min<size_t>(size_t(std::max(1, jobs)), std::max<size_t>(n, 1)));
  running = t;
  std::vector<std::thread> threads;
  for (int k = 0; k < t; ++k) threads.emplace_back(work);
  {
    std::unique_lock<std::mutex> l(mu);
    while (running > 0) {
      cv.wait_for(l, std::chrono::milliseconds(100));
      if (tick) {
        l.unlock();
        tick();
        l.lock();
      }
    }
  }
  for (auto& th : threads) th.join();
}

struct Parsed {
  std::unique_ptr<ptx::SourceManager> sm;
  int buf = -1;
  ptx::Module mod;
  bool ok = false;
  std::string firstError, diagText;
  std::unique_ptr<InstrIndex> index;
  std::vector<const ptx::Function*> entries;
  std::vector<std::string> unparsedEntries;  // names found by a text scan when parsing failed
  std::string target;
  double ms = 0;
};

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

// Entry names of a file that does not parse, so the report still lists its kernels.
std::vector<std::string> scanEntryNames(std::string_view text) {
  std::vector<std::string> names;
  static const std::regex re(R"(\.entry\s+([A-Za-z_$%][A-Za-z0-9_$]*))");
  std::string t(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), re); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].str());
  return names;
}

void parseSource(const BatchOptions& opt, Source& src, Parsed& p, std::vector<InputProblem>& writeErrors,
                 std::mutex& mu) {
  auto t0 = std::chrono::steady_clock::now();
  if (src.extracted && !opt.writeDir.empty()) {
    std::string err;
    if (!writeFileAt(opt.writeDir + "/" + src.bufferName, src.text, err)) {
      std::lock_guard<std::mutex> l(mu);
      writeErrors.push_back({src.path, err});
    }
  }
  p.sm = std::make_unique<ptx::SourceManager>();
  if (opt.keepText) p.buf = p.sm->add(src.bufferName, src.text);
  else p.buf = p.sm->add(src.bufferName, std::move(src.text));
  ptx::DiagEngine diags(*p.sm);
  p.ok = ptx::parseModule(*p.sm, p.buf, diags, p.mod);
  if (!p.ok) {
    p.diagText = diags.formatAll();
    for (auto& d : diags.all())
      if (d.sev == ptx::Severity::Error) {
        p.firstError = firstLine(diags.format(d));
        break;
      }
    p.unparsedEntries = scanEntryNames(p.sm->text(p.buf));
  } else {
    p.index = std::make_unique<InstrIndex>(p.mod);
    for (auto& fn : p.mod.functions)
      if (fn.isEntry && fn.hasBody) p.entries.push_back(&fn);
    for (auto t : p.mod.target)
      if (t.rfind("sm_", 0) == 0 || t.rfind("compute_", 0) == 0) {
        p.target = std::string(t);
        break;
      }
  }
  p.ms = msSince(t0);
}

struct KernelJob {
  size_t source;
  const ptx::Function* fn;  // nullptr: the file did not parse
  std::string unparsedName;
  size_t result;
};

void writeKernelFile(const BatchOptions& opt, KernelResult& r, const std::string& role, const std::string& name,
                     const std::string& data, std::string& writeErr) {
  std::string rel = "kernels/" + r.id + "/" + name;
  r.files[role] = rel;
  if (opt.writeDir.empty() || !writeErr.empty()) return;
  writeFileAt(opt.writeDir + "/" + rel, data, writeErr);
}

void translateKernel(const BatchOptions& opt, const TranslateOptions& base, const Source& src, const Parsed& p,
                     const ptx::Function& fn, KernelResult& r, std::string& writeErr) {
  r.ptxInstructions = instrCount(fn);
  r.histogram = instrHistogram(fn);
  r.ptxHash = fnv1a64(functionText(p.mod, fn, p.sm->text(p.buf)));
  r.paramBytes = ptx::paramBlockBytes(fn);
  TranslateOptions o = base;
  o.entry = r.entry;
  ptx::DiagEngine d(*p.sm);
  std::vector<EntryResult> res;
  auto t0 = std::chrono::steady_clock::now();
  bool ok = translateParsed(*p.sm, p.buf, p.mod, o, d, res) && res.size() == 1;
  r.translateMs = msSince(t0);
  r.diagnostics = d.formatAll();
  std::string stem = entryFolder(r.entry);
  if (ok) {
    EntryResult& e = res[0];
    r.translated = true;
    r.glslLines = unsigned(std::count(e.glsl.begin(), e.glsl.end(), '\n'));
    r.glslHash = fnv1a64(glslWithoutLineNumbers(e.glsl));
    r.warnings = unsigned(e.manifest.warnings.size());
    r.paramBytes = e.manifest.paramBytes;
    writeKernelFile(opt, r, "glsl", stem + ".comp", e.glsl, writeErr);
    if (o.spirv)
      writeKernelFile(opt, r, "spirv", stem + ".spv",
                      std::string(reinterpret_cast<const char*>(e.spirv.data()), e.spirv.size() * 4), writeErr);
    if (o.spirv && !e.spirvF16.empty())
      writeKernelFile(opt, r, "spirv_f16", stem + ".f16.spv",
                      std::string(reinterpret_cast<const char*>(e.spirvF16.data()), e.spirvF16.size() * 4), writeErr);
    writeKernelFile(opt, r, "manifest", stem + ".json", manifestToJson(e.manifest), writeErr);
    if (opt.keepText) r.glsl = std::move(e.glsl);
  } else {
    std::set<std::string> forms, other;
    bool first = true;
    for (auto& dg : d.all()) {
      if (dg.sev != ptx::Severity::Error) continue;
      const ptx::Instr* in = p.index ? p.index->find(dg.span.begin) : nullptr;
      if (first) {
        r.reason = firstLine(d.format(dg));
        first = false;
      }
      if (in) {
        // An error at an operand (a special register, an unknown name) names that operand too: "mov.u32" alone
        // would rank every kernel that reads an unsupported special register under one harmless form.
        std::string f = instrForm(*in);
        const char* opEnd = in->span.begin + in->span.length;
        if (dg.span.begin && (dg.span.begin < in->span.begin || dg.span.begin >= opEnd) && dg.span.length)
          f += " " + std::string(dg.span.begin, std::min<size_t>(dg.span.length, 60));
        else if (in->opcode == "call")  // which function: vprintf, an external one, a recursive one
          for (auto& op : in->ops)
            if (op.kind == ptx::Operand::Kind::Symbol) {
              f += " " + std::string(op.name);
              break;
            }
        if (forms.insert(f).second && r.firstRefusedAt.empty()) {
          ptx::LineCol lc = p.sm->resolve(in->span.begin);
          r.firstRefusedAt = std::string(lc.file) + ":" + std::to_string(lc.line);
        }
      } else {
        other.insert(firstLine(dg.message));
      }
    }
    if (r.reason.empty()) r.reason = "error: the entry was not translated (no diagnostic)";
    r.refusedForms.assign(forms.begin(), forms.end());
    r.otherReasons.assign(other.begin(), other.end());
    writeKernelFile(opt, r, "diagnostics", "diagnostics.txt", r.diagnostics, writeErr);
  }
  auto t1 = std::chrono::steady_clock::now();
  Card c;
  ptx::DiagEngine cd(*p.sm);
  if (buildCard(*p.sm, p.mod, fn, src.bufferName, cd, c)) {
    r.cardJson = cardJson(c);
    writeKernelFile(opt, r, "card", "card.json", r.cardJson, writeErr);
    writeKernelFile(opt, r, "cardMarkdown", "card.md", cardMarkdown(c), writeErr);
    if (!opt.keepText && opt.writeDir.empty()) r.cardJson.clear();
  }
  r.cardMs = msSince(t1);
  if (!opt.keepText) r.diagnostics.clear();
}

int terminalWidth() {
  struct winsize w;
  if (ioctl(2, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 80;
}

}  // namespace

std::string glslWithoutLineNumbers(const std::string& glsl) {
  // The translator annotates each statement with its PTX line ("  // ptx:24  ld.param.u64 ..."); a kernel that
  // moved in its file keeps its GLSL otherwise.
  std::string out;
  out.reserve(glsl.size());
  size_t i = 0;
  while (i < glsl.size()) {
    size_t e = glsl.find('\n', i);
    if (e == std::string::npos) e = glsl.size();
    size_t k = i;
    while (k < e && glsl[k] == ' ') ++k;
    size_t d = k + 7;
    if (glsl.compare(k, 7, "// ptx:") == 0 && d < e && isdigit(uint8_t(glsl[d]))) {
      size_t q = d;
      while (q < e && isdigit(uint8_t(glsl[q]))) ++q;
      if (q == e || glsl[q] == ' ') {
        out.append(glsl, i, d - i);
        out += "N";
        i = q;
      }
    }
    out.append(glsl, i, e - i);
    if (e < glsl.size()) out += '\n';
    i = e + 1;
  }
  return out;
}

int defaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? int(n) : 1;
}

void collectSources(const std::vector<std::string>& inputs, const BatchOptions& opt, BatchResult& res) {
  auto t0 = std::chrono::steady_clock::now();
  Collector c(opt, res);
  for (auto& in : inputs) c.input(in);
  std::sort(res.sources.begin(), res.sources.end(), [](const Source& a, const Source& b) { return a.id < b.id; });
  res.collectMs = msSince(t0);
}

void runBatch(const BatchOptions& opt, BatchResult& res) {
  auto tStart = std::chrono::steady_clock::now();
  res.jobs = opt.jobs;
  std::vector<Parsed> parsed(res.sources.size());
  std::mutex mu;
  std::vector<InputProblem> writeErrors;
  parallelFor(
      res.sources.size(), opt.jobs,
      [&](size_t i) { parseSource(opt, res.sources[i], parsed[i], writeErrors, mu); }, nullptr);
  res.parsePhaseMs = msSince(tStart);
  // One job per kernel, the biggest first (the longest jobs decide how well N threads finish together).
  std::vector<KernelJob> jobs;
  for (size_t s = 0; s < parsed.size(); ++s) {
    if (parsed[s].ok)
      for (auto* fn : parsed[s].entries) jobs.push_back({s, fn, "", 0});
    else if (parsed[s].unparsedEntries.empty())
      res.problems.push_back({res.sources[s].path + (res.sources[s].fatbinEntry.empty() ? "" : "#" + res.sources[s].fatbinEntry),
                              "does not parse and names no .entry: " + parsed[s].firstError});
    else
      for (auto& n : parsed[s].unparsedEntries) jobs.push_back({s, nullptr, n, 0});
  }
  res.kernels.assign(jobs.size(), KernelResult());
  for (size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].result = j;
    KernelResult& r = res.kernels[j];
    const Source& src = res.sources[jobs[j].source];
    const Parsed& p = parsed[jobs[j].source];
    r.entry = jobs[j].fn ? std::string(jobs[j].fn->name) : jobs[j].unparsedName;
    r.sourceId = src.id;
    r.id = src.id + "/" + entryFolder(r.entry);
    r.source = src.path;
    r.fatbinEntry = src.fatbinEntry;
    r.bufferName = src.bufferName;
    r.target = p.target;
    r.parseMs = p.ms;
  }
  std::vector<size_t> order(jobs.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    auto size = [&](size_t j) { return jobs[j].fn ? instrCount(*jobs[j].fn) : 0u; };
    return size(a) > size(b);
  });
  TranslateOptions base;
  base.spirv = opt.spirv;
  base.emit.native = opt.native;
  if (opt.native)
    for (auto& o : nativeOmits()) base.pipeline.disabled.push_back(o.pass);
  std::atomic<size_t> done{0}, refused{0};
  std::mutex logMu;
  std::string lastName;
  std::vector<std::string> writeErrs(jobs.size());
  const size_t total = jobs.size();
  auto progressLine = [&] {
    std::lock_guard<std::mutex> l(logMu);
    int width = terminalWidth();
    size_t d = done, bar = 30, fill = total ? d * bar / total : bar;
    char head[160];
    snprintf(head, sizeof head, "\r[%s%s] %zu/%zu kernels, %zu refused, %.1f s  ", std::string(fill, '#').c_str(),
             std::string(bar - fill, '.').c_str(), d, total, size_t(refused), msSince(tStart) / 1000.0);
    std::string line = head + lastName;
    if (int(line.size()) > width) line.resize(size_t(width));
    else line += std::string(size_t(width) - line.size(), ' ');
    fputs(line.c_str(), stderr);
    fflush(stderr);
  };
  parallelFor(
      order.size(), opt.jobs,
      [&](size_t k) {
        const KernelJob& job = jobs[order[k]];
        KernelResult& r = res.kernels[job.result];
        const Parsed& p = parsed[job.source];
        if (job.fn) {
          // An exception out of the translator or glslang (out of memory, say) refuses this kernel, not the batch.
          try {
            translateKernel(opt, base, res.sources[job.source], p, *job.fn, r, writeErrs[job.result]);
          } catch (const std::exception& e) {
            r.translated = false;
            r.reason = r.bufferName + ": error: internal error: translating '" + r.entry + "' threw: " + e.what();
            r.otherReasons = {std::string("internal error: ") + e.what()};
          }
        } else {
          r.reason = p.firstError;
          r.otherReasons.push_back("the file does not parse");
          r.diagnostics = p.diagText;
          writeKernelFile(opt, r, "diagnostics", "diagnostics.txt", p.diagText, writeErrs[job.result]);
        }
        size_t d = ++done;
        if (!r.translated) ++refused;
        std::lock_guard<std::mutex> l(logMu);
        lastName = r.entry;
        if (!opt.progress && !opt.quiet)
          fprintf(stderr, "[%zu/%zu] %s %s (%s, %.0f ms)%s%s\n", d, total, r.translated ? "translated" : "refused",
                  r.entry.c_str(), r.sourceId.c_str(), r.translateMs + r.cardMs, r.translated ? "" : ": ",
                  r.translated ? "" : r.reason.c_str());
      },
      opt.progress ? std::function<void()>(progressLine) : nullptr);
  res.kernelPhaseMs = msSince(tStart) - res.parsePhaseMs;
  if (opt.progress) {
    progressLine();
    fputs("\n", stderr);
  }
  for (size_t j = 0; j < writeErrs.size(); ++j)
    if (!writeErrs[j].empty()) res.problems.push_back({res.kernels[j].id, writeErrs[j]});
  for (auto& w : writeErrors) res.problems.push_back(w);
  std::sort(res.kernels.begin(), res.kernels.end(), [](const KernelResult& a, const KernelResult& b) {
    return a.id != b.id ? a.id < b.id : a.entry < b.entry;
  });
  // Identity across builds: the entry name and its target; repeats numbered in id order.
  std::map<std::string, int> seen;
  for (auto& k : res.kernels) {
    std::string key = k.entry + "@" + (k.target.empty() ? "?" : k.target);
    int n = ++seen[key];
    k.key = n == 1 ? key : key + "#" + std::to_string(n);
  }
  if (!opt.keepText)
    for (auto& s : res.sources) s.text.clear();
  res.wallMs = msSince(tStart);
}

}  // namespace p2g::cli
