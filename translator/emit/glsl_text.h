// Scanning emitted GLSL text: identifier characters and the searches the text passes (fold resolution, guarded
// regions, declaration placement) make over every line of main()'s body.
//
// These are table lookups and plain loops rather than <cctype> or string_view::find of a short pattern: the body
// of a large kernel is hundreds of kilobytes, scanned several times, and string_view::find(" = ") calls memchr
// and memcmp once for every space of the line (callgrind on rrlite/k_output: a sixth of the translation's
// instructions were in memchr and memcmp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace p2g {

namespace glsl_text_detail {
struct CharClasses {
  uint8_t c[256] = {};
  constexpr CharClasses() {
    for (int i = 'a'; i <= 'z'; ++i) c[i] = 3;
    for (int i = 'A'; i <= 'Z'; ++i) c[i] = 3;
    c[uint8_t('_')] = 3;
    for (int i = '0'; i <= '9'; ++i) c[i] = 2;
  }
};
inline constexpr CharClasses kClasses{};
}  // namespace glsl_text_detail

// ASCII letters and '_' (what a GLSL identifier starts with; the "C" locale, which ptx2glsl never leaves).
inline bool identStart(char c) { return glsl_text_detail::kClasses.c[uint8_t(c)] == 3; }
// ASCII letters, digits and '_'.
inline bool identChar(char c) { return glsl_text_detail::kClasses.c[uint8_t(c)] != 0; }

inline bool isIdent(std::string_view s) {
  if (s.empty() || !identStart(s[0])) return false;
  for (char c : s)
    if (!identChar(c)) return false;
  return true;
}

// `-x` as GLSL text: `-name` for an identifier, `-(expr)` otherwise.
inline std::string negatedText(std::string_view x) {
  std::string s(x);
  return isIdent(x) ? "-" + s : "-(" + s + ")";
}

// Where " = " first stands in `s` (npos when nowhere): s.find(" = ") without a memchr call per space.
inline size_t findAssign(std::string_view s, size_t from = 0) {
  for (size_t i = from + 1; i + 1 < s.size(); ++i)
    if (s[i] == '=' && s[i - 1] == ' ' && s[i + 1] == ' ') return i - 1;
  return std::string_view::npos;
}

// Where "//" first stands in `s` (npos when nowhere): s.find("//").
inline size_t findComment(std::string_view s) {
  for (size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '/' && s[i + 1] == '/') return i;
  return std::string_view::npos;
}

}  // namespace p2g
