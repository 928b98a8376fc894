#include "source.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
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
  std::string why;
  if (!checkInputFile(path, kMaxSourceBytes, why)) {
    err = why;
    return -1;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err = "cannot open '" + path + "'";
    return -1;
  }
  // Read at most one byte past the limit: a file that grows after the check is still refused, never read whole.
  std::string text;
  char chunk[1 << 16];
  while (f && text.size() <= kMaxSourceBytes) {
    f.read(chunk, sizeof chunk);
    text.append(chunk, size_t(f.gcount()));
  }
  if (f.bad()) {
    err = "cannot read '" + path + "'";
    return -1;
  }
  if (text.size() > kMaxSourceBytes) {
    err = "'" + path + "' is larger than the " + std::to_string(kMaxSourceBytes >> 20) + " MiB limit for a PTX file";
    return -1;
  }
  return add(path, std::move(text));
}

bool checkInputFile(const std::string& path, uint64_t maxBytes, std::string& err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    err = "cannot open '" + path + "': " + (ec ? ec.message() : "no such file");
    return false;
  }
  if (!fs::is_regular_file(st)) {
    const char* what = fs::is_directory(st) ? "a directory" : fs::is_character_file(st) ? "a character device" :
                       fs::is_block_file(st) ? "a block device" : fs::is_fifo(st) ? "a pipe" :
                       fs::is_socket(st) ? "a socket" : "not a plain file";
    err = "'" + path + "' is not a regular file (" + what + ")";
    return false;
  }
  uint64_t size = fs::file_size(path, ec);
  if (!ec && size > maxBytes) {
    err = "'" + path + "' is " + std::to_string(size >> 20) + " MiB, larger than the " + std::to_string(maxBytes >> 20) +
          " MiB limit";
    return false;
  }
  return true;
}

LineCol SourceManager::resolve(const char* p) const {
  for (auto& b : bufs_) {
    const char* s = b->text.data();
    if (p < s || p > s + b->text.size()) continue;
    std::call_once(b->linesOnce, [&] {
      b->lineStarts.push_back(0);
      const char* end = s + b->text.size();
      for (const char* nl = s; (nl = static_cast<const char*>(memchr(nl, '\n', size_t(end - nl)))); ++nl)
        b->lineStarts.push_back(uint32_t(nl - s) + 1);
    });
    uint32_t off = uint32_t(p - s);
    const std::vector<uint32_t>& starts = b->lineStarts;
    // Callers mostly go down the file (the emitter annotates instruction after instruction): the line after the
    // last one this thread found, or that line again, is tried before a binary search.
    thread_local const Buf* lastBuf = nullptr;
    thread_local uint32_t lastLine = 0;  // 1-based
    uint32_t line = 0;
    if (lastBuf == b.get())
      for (uint32_t l = lastLine; l <= lastLine + 1 && l <= starts.size(); ++l)
        if (starts[l - 1] <= off && (l == starts.size() || off < starts[l])) {
          line = l;
          break;
        }
    if (!line) line = uint32_t(std::upper_bound(starts.begin(), starts.end(), off) - starts.begin());
    lastBuf = b.get();
    lastLine = line;
    uint32_t ls = starts[line - 1];
    // the line ends at the first '\n' or '\r'
    const char* end = s + b->text.size();
    const char* nl = static_cast<const char*>(memchr(s + ls, '\n', size_t(end - (s + ls))));
    if (!nl) nl = end;
    const char* cr = static_cast<const char*>(memchr(s + ls, '\r', size_t(nl - (s + ls))));
    uint32_t le = uint32_t((cr ? cr : nl) - s);
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

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (2 to 4), or 0 when the bytes there are not one (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF).
size_t utf8Length(std::string_view s, size_t i) {
  auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return i + k < s.size() && uint8_t(s[i + k]) >= lo && uint8_t(s[i + k]) <= hi;
  };
  uint8_t c = uint8_t(s[i]);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// The source line as printed under a diagnostic: control bytes (NUL included), DEL and bytes that are not UTF-8
// become \xNN, so the line never ends early on a terminal or in a C string; `width[i]` is how many columns byte i
// of the line takes on screen, for the caret (an escaped byte 4, a UTF-8 character 1 for its first byte and 0 for
// the others, a tab 1, kept as a tab).
std::string printableLine(std::string_view line, std::vector<uint8_t>& width) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  width.assign(line.size(), 1);
  for (size_t i = 0; i < line.size();) {
    uint8_t c = uint8_t(line[i]);
    if (c >= 0x80) {
      if (size_t n = utf8Length(line, i)) {
        out.append(line.substr(i, n));
        for (size_t k = 1; k < n; ++k) width[i + k] = 0;
        i += n;
        continue;
      }
    } else if ((c >= 0x20 && c != 0x7F) || c == '\t') {
      out += char(c);
      ++i;
      continue;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
    width[i++] = 4;
  }
  return out;
}

}  // namespace

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
    std::vector<uint8_t> width;
    out += printableLine(lc.lineText, width) + "\n";
    std::string caret;
    for (uint32_t i = 1; i < lc.col && i <= lc.lineText.size(); ++i)
      caret.append(width[i - 1], lc.lineText[i - 1] == '\t' ? '\t' : ' ');
    // The caret takes the first column of the byte it points at; the underline covers the rest of the span.
    size_t at = lc.col - 1, first = at < width.size() ? std::max<size_t>(width[at], 1) : 1;
    caret += '^';
    caret.append(first - 1, '~');
    for (uint32_t i = 1; i < d.span.length && at + i < lc.lineText.size(); ++i) caret.append(width[at + i], '~');
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
