#include "source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ptx {

int SourceManager::add(std::string name, std::string text) {
  auto b = std::make_unique<Buf>();
  b->name = std::move(name);
  b->text = std::move(text);
  bufs_.push_back(std::move(b));
  return int(bufs_.size()) - 1;
}

int SourceManager::addFile(const std::string& path, std::string& err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err = "cannot open '" + path + "'";
    return -1;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) {
    err = "cannot read '" + path + "'";
    return -1;
  }
  return add(path, ss.str());
}

LineCol SourceManager::resolve(const char* p) const {
  for (auto& b : bufs_) {
    const char* s = b->text.data();
    if (p < s || p > s + b->text.size()) continue;
    std::call_once(b->linesOnce, [&] {
      b->lineStarts.push_back(0);
      for (uint32_t i = 0; i < b->text.size(); ++i)
        if (s[i] == '\n') b->lineStarts.push_back(i + 1);
    });
    uint32_t off = uint32_t(p - s);
    auto it = std::upper_bound(b->lineStarts.begin(), b->lineStarts.end(), off);
    uint32_t line = uint32_t(it - b->lineStarts.begin());
    uint32_t ls = b->lineStarts[line - 1];
    uint32_t le = ls;
    while (le < b->text.size() && s[le] != '\n' && s[le] != '\r') ++le;
    return {b->name, line, off - ls + 1, std::string_view(s + ls, le - ls)};
  }
  return {};
}

void DiagEngine::add(Severity sev, Span s, std::string msg) {
  if (sev == Severity::Error) {
    if (atLimit()) return;
    ++errors_;
  }
  diags_.push_back({sev, s, std::move(msg)});
}

std::string DiagEngine::format(const Diagnostic& d) const {
  const char* sevName = d.sev == Severity::Error ? "error" : d.sev == Severity::Warning ? "warning" : "note";
  std::string out;
  LineCol lc = d.span.begin ? sm_.resolve(d.span.begin) : LineCol{};
  if (lc.line) {
    out += std::string(lc.file) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": ";
  }
  out += sevName;
  out += ": " + d.message + "\n";
  if (lc.line) {
    out += std::string(lc.lineText) + "\n";
    std::string caret;
    for (uint32_t i = 1; i < lc.col && i <= lc.lineText.size(); ++i) caret += lc.lineText[i - 1] == '\t' ? '\t' : ' ';
    caret += '^';
    uint32_t avail = lc.lineText.size() >= lc.col ? uint32_t(lc.lineText.size() - lc.col + 1) : 1;
    for (uint32_t i = 1; i < d.span.length && i < avail; ++i) caret += '~';
    out += caret + "\n";
  }
  return out;
}

std::string DiagEngine::formatAll() const {
  std::string s;
  for (auto& d : diags_) s += format(d);
  return s;
}

}  // namespace ptx
