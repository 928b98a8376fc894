// Line diffs: Myers' greedy O(ND) shortest edit script (E. W. Myers, "An O(ND) Difference Algorithm and Its
// Variations", Algorithmica 1(2), 1986, section 2 and the trace-back of section 3), printed as a unified diff.
#pragma once
#include <string>
#include <vector>

namespace p2g::cli {

struct DiffOp {
  enum Kind { Equal, Delete, Insert } kind;
  size_t a, b;  // line index in the old (Equal, Delete) and new (Equal, Insert) text
};

// The shortest edit script turning `a` into `b`. When the two differ in more than `maxD` lines the search stops
// and the script deletes every old line and inserts every new one (`*truncated` says so).
std::vector<DiffOp> diffLines(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t maxD = 20000,
                              bool* truncated = nullptr);

std::vector<std::string> splitLines(const std::string& s);

// Unified diff ("--- a", "+++ b", "@@ -l,n +l,n @@" hunks with `context` lines around changes); "" when equal.
std::string unifiedDiff(const std::string& a, const std::string& b, const std::string& nameA, const std::string& nameB,
                        int context = 3);

}  // namespace p2g::cli
