// The PTX lexer: a hand-written scanner over a NUL-terminated buffer.
//
// Tokens are (kind, pointer, length) into the SourceManager buffer; nothing is copied. Numbers are converted
// while scanning (integers to 64 bits, 0f/0d literals to their raw bits, decimal floats to f64 bits) so the
// parser never re-reads digits.
//
// Identifiers are scanned greedily across `.` and `::` when another identifier character follows, so that
// `ld.global.nc.v4.f32`, `tcgen05.mma.cta_group::1.kind::f16` and `%tid.x` are one token each: the parser splits
// opcodes into modifiers, and register names keep their component. A single `:` ends the identifier (labels).
//
// Errors (bad characters, unterminated comments and strings, malformed numbers) are reported here, once, and
// yield an `Error` token: the parser treats it as already diagnosed and only recovers.
#pragma once
#include <cstdint>
#include <string_view>

#include "source.h"

namespace ptx {

enum class Tok : uint8_t {
  Eof,
  Error,
  Ident,   // foo, %r1, $L__BB0_1, _, ld.global.f32, %tid.x
  Dir,     // .reg, .b32, .v4 (text includes the dot)
  Int,     // 12, 0x1F, 017, 0b101, 12U
  Float,   // 0f3F800000, 0d3FF0000000000000, 1.5, 1e-3
  String,  // "text" (text includes the quotes)
  Semi, Comma, Colon, LBrace, RBrace, LBrack, RBrack, LParen, RParen, Lt, Gt, Plus, Minus, Bang, At, Eq, Pipe,
};

const char* tokName(Tok k);

struct Token {
  Tok kind = Tok::Eof;
  bool isUnsigned = false;  // Int with a U suffix
  bool isDouble = false;    // Float: 0d or decimal (bits are f64); false for 0f (bits are f32 in the low half)
  const char* p = nullptr;
  uint32_t len = 0;
  uint64_t val = 0;         // Int value (two's complement) or Float bits
  std::string_view text() const { return {p, len}; }
  Span span() const { return {p, len}; }
};

class Lexer {
 public:
  // [begin, end) must be followed by a NUL byte at `end` (SourceManager guarantees it).
  Lexer(const char* begin, const char* end, DiagEngine& diags) : cur_(begin), end_(end), diags_(diags) {}

  Token next();
  const char* pos() const { return cur_; }
  const char* end() const { return end_; }
  // Moves to the next newline (not consumed): for line-terminated directives (.loc, .file, .version...).
  void skipLine();
  // After a `{` has been consumed: skips to just past the matching `}`, aware of strings and comments. Returns
  // false (and leaves the lexer at EOF) when the braces never balance. Used for .section bodies and for
  // recovering from over-deep nesting, so it must not recurse.
  bool skipBalanced();

 private:
  Token make(Tok k, const char* p) { return Token{k, false, false, p, uint32_t(cur_ - p), 0}; }
  Token error(const char* p, std::string msg);
  bool skipSpaceAndComments();  // false when an unterminated comment was reported
  Token lexNumber(const char* p);
  Token lexHexFloat(const char* p, bool isDouble);
  Token lexDecimalFloat(const char* p);
  Token lexString(const char* p);
  Token lexGarbage(const char* p);

  const char* cur_;
  const char* end_;
  DiagEngine& diags_;
};

// Shortens `s` for a diagnostic message (a 1 MB identifier must not become a 1 MB message).
std::string clip(std::string_view s, size_t max = 40);

}  // namespace ptx
