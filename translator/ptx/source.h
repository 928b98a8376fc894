// Source buffers and diagnostics for the PTX front end.
//
// Locations are raw pointers into a buffer owned by SourceManager: the lexer and parser keep a `const char*`
// per token (as LLVM's SMLoc does), and line/column are computed only when a diagnostic is printed, so the hot
// path pays nothing for them.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ptx {

struct Span {
  const char* begin = nullptr;  // first character, inside a SourceManager buffer
  uint32_t length = 0;          // characters underlined by the caret (0 = a single caret)
};

struct LineCol {
  std::string_view file;
  uint32_t line = 0;  // 1-based
  uint32_t col = 0;   // 1-based, in bytes
  std::string_view lineText;
};

// The largest PTX file the front end reads (`ptx2glsl translate --help` says so). nvcc's largest outputs for
// the DLSS kernels are a few MB; 256 MiB keeps a mistaken input (a device, a core dump) from exhausting memory.
constexpr uint64_t kMaxSourceBytes = uint64_t(256) << 20;

class SourceManager {
 public:
  // Takes ownership of `text`; returns the buffer index. The text is kept NUL-terminated.
  int add(std::string name, std::string text);
  // Reads a file; returns -1 and fills `err` (naming the file and what is wrong) when it is not a regular file,
  // is larger than kMaxSourceBytes, or cannot be read.
  int addFile(const std::string& path, std::string& err);
  std::string_view text(int buf) const { return bufs_[buf]->text; }
  const std::string& name(int buf) const { return bufs_[buf]->name; }
  // Resolves a pointer from any buffer; {"", 0, 0} when it belongs to none.
  LineCol resolve(const char* p) const;

 private:
  struct Buf {
    std::string name, text;
    // Built on first resolve, under `linesOnce`: threads translating entries of one file share its buffer.
    mutable std::vector<uint32_t> lineStarts;
    mutable std::once_flag linesOnce;
  };
  std::vector<std::unique_ptr<Buf>> bufs_;
};

// Checks that `path` names a regular file of at most `maxBytes` (directories, devices such as /dev/zero and
// pipes are refused); on failure `err` names the file and says what it is.
bool checkInputFile(const std::string& path, uint64_t maxBytes, std::string& err);

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity sev;
  Span span;
  std::string message;
};

// Collects diagnostics; prints them as `file:line:col: error: message`, then the source line and a caret.
class DiagEngine {
 public:
  explicit DiagEngine(const SourceManager& sm) : sm_(sm) {}
  void error(Span s, std::string msg) { add(Severity::Error, s, std::move(msg)); }
  void warning(Span s, std::string msg) { add(Severity::Warning, s, std::move(msg)); }
  void note(Span s, std::string msg) { add(Severity::Note, s, std::move(msg)); }
  void add(Severity sev, Span s, std::string msg);
  bool hasErrors() const { return errors_ > 0; }
  unsigned errorCount() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  std::string format(const Diagnostic& d) const;
  std::string formatAll() const;
  // Stop recording after this many errors (the parser also stops); 0 = unlimited.
  void setErrorLimit(unsigned n) { limit_ = n; }
  bool atLimit() const { return limit_ && errors_ >= limit_; }

 private:
  const SourceManager& sm_;
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0, limit_ = 50;
};

}  // namespace ptx
