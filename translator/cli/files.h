// Output files of the build commands (extract, batch, diff-build): everything is staged and only put in place
// when the whole command succeeded, so a failure leaves no partial output.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace p2g::cli {

// Files to write, relative to a destination folder; committed all together or not at all.
class Staged {
 public:
  void add(std::string relPath, std::string data) { files_.emplace_back(std::move(relPath), std::move(data)); }
  const std::vector<std::pair<std::string, std::string>>& files() const { return files_; }
  // Writes every file next to its final path as a temporary, then renames them all. On any failure the
  // temporaries are removed, nothing is renamed, and `err` says why.
  bool commit(const std::string& dir, std::string& err) const;

 private:
  std::vector<std::pair<std::string, std::string>> files_;
};

// A whole output folder is built as `dir` + ".tmp-<pid>" and swapped in at the end. `dir` may be absent, empty,
// or an earlier output of the same command (it holds `marker`); anything else is refused.
bool checkReplaceable(const std::string& dir, const std::string& marker, std::string& err);
std::string tempFolderFor(const std::string& dir);
// Replaces `dir` by `tmp` (the earlier `dir` is removed only once `tmp` is in place).
bool swapFolder(const std::string& tmp, const std::string& dir, std::string& err);
// Writes one file (creating its folders); safe from several threads for different files.
bool writeFileAt(const std::string& path, const std::string& data, std::string& err);

// The PTX texts in `file` (a PTX file, or the PTX entries of a CUDA binary), each with the name its diagnostics
// use: the file's path, or `path#entry` for an entry of a binary. False with `err` when the file cannot be read.
bool ptxTexts(const std::string& file, std::vector<std::pair<std::string, std::string>>& out, std::string& err);

// FNV-1a 64, as 16 hex digits (identity of a text, for reports and diffs).
std::string fnv1a64(const std::string& s);

// Markdown table cell: '|' and newlines escaped.
std::string mdCell(const std::string& s);

}  // namespace p2g::cli
