#include "ptx_stats.h"

#include <algorithm>

namespace p2g::cli {

std::string instrForm(const ptx::Instr& in) {
  std::string s(in.opcode);
  for (auto m : in.mods) {
    s += '.';
    s += m;
  }
  return s;
}

namespace {

template <class F>
void forEachInstr(const ptx::Block& b, F&& f) {
  for (auto& st : b.stmts) {
    if (auto* in = std::get_if<ptx::Instr>(&st)) f(*in);
    else if (auto* blk = std::get_if<ptx::Block>(&st)) forEachInstr(*blk, f);
  }
}

}  // namespace

std::map<std::string, unsigned> instrHistogram(const ptx::Function& fn) {
  std::map<std::string, unsigned> h;
  forEachInstr(fn.body, [&](const ptx::Instr& in) { ++h[instrForm(in)]; });
  return h;
}

unsigned instrCount(const ptx::Function& fn) {
  unsigned n = 0;
  forEachInstr(fn.body, [&](const ptx::Instr&) { ++n; });
  return n;
}

std::string functionText(const ptx::Module& mod, const ptx::Function& fn, std::string_view buf) {
  const char* base = buf.data();
  if (!fn.span.begin || fn.span.begin < base || fn.span.begin > base + buf.size()) return std::string(fn.name);
  size_t start = size_t(fn.span.begin - base);
  if (!fn.hasBody || !fn.body.span.begin) return std::string(buf.substr(start, fn.span.length));
  // From the name to the brace closing the body; comments and strings may hold braces.
  size_t i = size_t(fn.body.span.begin - base);
  int depth = 0;
  while (i < buf.size()) {
    char c = buf[i];
    if (c == '/' && i + 1 < buf.size() && buf[i + 1] == '/') {
      while (i < buf.size() && buf[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < buf.size() && buf[i + 1] == '*') {
      size_t e = buf.find("*/", i + 2);
      i = e == std::string_view::npos ? buf.size() : e + 2;
      continue;
    }
    if (c == '"') {
      ++i;
      while (i < buf.size() && buf[i] != '"' && buf[i] != '\n') ++i;
    } else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return std::string(buf.substr(start, i + 1 - start));
    ++i;
  }
  return std::string(buf.substr(start));
}

InstrIndex::InstrIndex(const ptx::Module& mod) {
  for (auto& f : mod.functions) forEachInstr(f.body, [&](const ptx::Instr& in) { instrs_.push_back(&in); });
  std::sort(instrs_.begin(), instrs_.end(),
            [](const ptx::Instr* a, const ptx::Instr* b) { return a->stmtSpan.begin < b->stmtSpan.begin; });
}

const ptx::Instr* InstrIndex::find(const char* p) const {
  if (!p) return nullptr;
  auto it = std::upper_bound(instrs_.begin(), instrs_.end(), p,
                             [](const char* q, const ptx::Instr* in) { return q < in->stmtSpan.begin; });
  if (it == instrs_.begin()) return nullptr;
  const ptx::Instr* in = *(it - 1);
  const char* b = in->stmtSpan.begin;
  return p >= b && p < b + std::max<uint32_t>(in->stmtSpan.length, 1) ? in : nullptr;
}

}  // namespace p2g::cli
