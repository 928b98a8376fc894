#include "lexer.h"

#include <charconv>
#include <cstring>
#include <string>

namespace ptx {

namespace {

// Character classes in one table: the lexer's inner loops are one load and one test per byte.
enum : uint8_t { kIdStart = 1, kIdCont = 2, kDigit = 4, kHex = 8, kSpace = 16 };

struct CharTable {
  uint8_t c[256] = {};
  constexpr CharTable() {
    for (int i = 'a'; i <= 'z'; ++i) c[i] = kIdStart | kIdCont;
    for (int i = 'A'; i <= 'Z'; ++i) c[i] = kIdStart | kIdCont;
    for (int i = '0'; i <= '9'; ++i) c[i] = kIdCont | kDigit | kHex;
    for (int i = 'a'; i <= 'f'; ++i) c[i] |= kHex;
    for (int i = 'A'; i <= 'F'; ++i) c[i] |= kHex;
    c['_'] = kIdStart | kIdCont;
    c['$'] = kIdStart | kIdCont;
    c['%'] = kIdStart;
    c[' '] = c['\t'] = c['\n'] = c['\r'] = c['\f'] = c['\v'] = kSpace;
  }
};
constexpr CharTable kChars;

inline bool is(char ch, uint8_t cls) { return kChars.c[uint8_t(ch)] & cls; }

int hexVal(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

const char* tokName(Tok k) {
  switch (k) {
    case Tok::Eof: return "end of file";
    case Tok::Error: return "invalid token";
    case Tok::Ident: return "identifier";
    case Tok::Dir: return "directive";
    case Tok::Int: return "integer";
    case Tok::Float: return "float literal";
    case Tok::String: return "string";
    case Tok::Semi: return "';'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LBrack: return "'['";
    case Tok::RBrack: return "']'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::Lt: return "'<'";
    case Tok::Gt: return "'>'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Bang: return "'!'";
    case Tok::At: return "'@'";
    case Tok::Eq: return "'='";
    case Tok::Pipe: return "'|'";
  }
  return "token";
}

std::string clip(std::string_view s, size_t max) {
  std::string out;
  size_t n = s.size() > max ? max : s.size();
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = s[i];
    if (c < 0x20 || c >= 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += char(c);
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

Token Lexer::error(const char* p, std::string msg) {
  diags_.error({p, uint32_t(cur_ - p)}, std::move(msg));
  return make(Tok::Error, p);
}

bool Lexer::skipSpaceAndComments() {
  for (;;) {
    while (is(*cur_, kSpace)) ++cur_;
    if (cur_[0] != '/') return true;
    if (cur_[1] == '/') {
      const void* nl = std::memchr(cur_, '\n', size_t(end_ - cur_));
      cur_ = nl ? static_cast<const char*>(nl) : end_;
    } else if (cur_[1] == '*') {
      const char* start = cur_;
      const char* p = cur_ + 2;
      for (;;) {
        const void* star = std::memchr(p, '*', size_t(end_ - p));
        if (!star) {
          cur_ = end_;
          diags_.error({start, 2}, "unterminated block comment");
          return false;
        }
        p = static_cast<const char*>(star) + 1;
        if (p < end_ && *p == '/') break;
      }
      cur_ = p + 1;
    } else {
      return true;
    }
  }
}

void Lexer::skipLine() {
  const void* nl = std::memchr(cur_, '\n', size_t(end_ - cur_));
  cur_ = nl ? static_cast<const char*>(nl) : end_;
}

bool Lexer::skipBalanced() {
  uint64_t depth = 1;
  const char* p = cur_;
  while (p < end_) {
    char c = *p++;
    if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) {
        cur_ = p;
        return true;
      }
    } else if (c == '"') {
      while (p < end_ && *p != '"' && *p != '\n') p += (*p == '\\' && p + 1 < end_) ? 2 : 1;
      if (p < end_ && *p == '"') ++p;
    } else if (c == '/' && *p == '/') {
      const void* nl = std::memchr(p, '\n', size_t(end_ - p));
      p = nl ? static_cast<const char*>(nl) : end_;
    } else if (c == '/' && *p == '*') {
      const char* q = p + 1;
      while (q < end_ && !(q[0] == '*' && q[1] == '/')) ++q;
      p = q < end_ ? q + 2 : end_;
    }
  }
  cur_ = end_;
  return false;
}

Token Lexer::next() {
  if (!skipSpaceAndComments()) return make(Tok::Error, end_);
  const char* p = cur_;
  if (p >= end_) return Token{Tok::Eof, false, false, end_, 0, 0};
  char c = *p;
  if (is(c, kIdStart)) {
    ++cur_;
    for (;;) {
      while (is(*cur_, kIdCont)) ++cur_;
      // `.` or `::` joins the next component (modifiers, %tid.x, cta_group::1) when an identifier char follows.
      if (cur_[0] == '.' && is(cur_[1], kIdCont)) {
        cur_ += 2;
      } else if (cur_[0] == ':' && cur_[1] == ':' && is(cur_[2], kIdCont)) {
        cur_ += 3;
      } else {
        break;
      }
    }
    if ((c == '%' || c == '$') && cur_ - p == 1) return error(p, std::string("expected a name after '") + c + "'");
    return make(Tok::Ident, p);
  }
  if (is(c, kDigit)) return lexNumber(p);
  ++cur_;
  switch (c) {
    case '.':
      if (is(*cur_, kIdStart) && *cur_ != '%') {
        while (is(*cur_, kIdCont)) ++cur_;
        return make(Tok::Dir, p);
      }
      if (is(*cur_, kDigit)) return lexDecimalFloat(p);
      return error(p, "expected a directive name after '.'");
    case '"': return lexString(p);
    case ';': return make(Tok::Semi, p);
    case ',': return make(Tok::Comma, p);
    case ':': return make(Tok::Colon, p);
    case '{': return make(Tok::LBrace, p);
    case '}': return make(Tok::RBrace, p);
    case '[': return make(Tok::LBrack, p);
    case ']': return make(Tok::RBrack, p);
    case '(': return make(Tok::LParen, p);
    case ')': return make(Tok::RParen, p);
    case '<': return make(Tok::Lt, p);
    case '>': return make(Tok::Gt, p);
    case '+': return make(Tok::Plus, p);
    case '-': return make(Tok::Minus, p);
    case '!': return make(Tok::Bang, p);
    case '@': return make(Tok::At, p);
    case '=': return make(Tok::Eq, p);
    case '|': return make(Tok::Pipe, p);
    default: return lexGarbage(p);
  }
}

Token Lexer::lexGarbage(const char* p) {
  if (*p == '\0') return error(p, "unexpected NUL byte in source");
  // One diagnostic for a whole run of bytes that cannot start a token (binary junk, UTF-8 text).
  while (cur_ < end_ && *cur_ != '\0' && !is(*cur_, kSpace | kIdCont | kIdStart) && !std::strchr(".\";,:{}[]()<>+-!@=|/", *cur_))
    ++cur_;
  return error(p, "unexpected character '" + clip({p, size_t(cur_ - p)}, 8) + "'");
}

Token Lexer::lexString(const char* p) {
  while (cur_ < end_ && *cur_ != '"' && *cur_ != '\n') cur_ += (*cur_ == '\\' && cur_ + 1 < end_) ? 2 : 1;
  if (cur_ >= end_ || *cur_ != '"') return error(p, "unterminated string literal");
  ++cur_;
  return make(Tok::String, p);
}

Token Lexer::lexHexFloat(const char* p, bool isDouble) {
  while (is(*cur_, kIdCont)) ++cur_;
  size_t want = isDouble ? 16 : 8;
  size_t n = size_t(cur_ - p) - 2;
  bool ok = n == want;
  uint64_t bits = 0;
  for (size_t i = 0; ok && i < n; ++i) {
    char d = p[2 + i];
    if (!is(d, kHex)) ok = false;
    else bits = bits << 4 | uint64_t(hexVal(d));
  }
  if (!ok) return error(p, "invalid float literal '" + clip({p, size_t(cur_ - p)}) + "'");
  Token t = make(Tok::Float, p);
  t.isDouble = isDouble;
  t.val = bits;
  return t;
}

Token Lexer::lexDecimalFloat(const char* p) {
  // Digits, optional fraction, optional exponent; from_chars then checks the whole thing.
  while (is(*cur_, kDigit)) ++cur_;
  if (*cur_ == '.') {
    ++cur_;
    while (is(*cur_, kDigit)) ++cur_;
  }
  if (*cur_ == 'e' || *cur_ == 'E') {
    ++cur_;
    if (*cur_ == '+' || *cur_ == '-') ++cur_;
    while (is(*cur_, kDigit)) ++cur_;
  }
  bool junk = is(*cur_, kIdCont);
  while (is(*cur_, kIdCont)) ++cur_;
  double v = 0;
  auto r = std::from_chars(p, cur_, v);
  if (junk || r.ec != std::errc() || r.ptr != cur_)
    return error(p, "invalid float literal '" + clip({p, size_t(cur_ - p)}) + "'");
  Token t = make(Tok::Float, p);
  t.isDouble = true;
  std::memcpy(&t.val, &v, 8);
  return t;
}

Token Lexer::lexNumber(const char* p) {
  if (p[0] == '0') {
    char k = p[1];
    if (k == 'f' || k == 'F') return cur_ += 2, lexHexFloat(p, false);
    if (k == 'd' || k == 'D') return cur_ += 2, lexHexFloat(p, true);
  }
  // A decimal float is digits followed by '.' and a digit, or by an exponent.
  const char* q = p;
  while (is(*q, kDigit)) ++q;
  if ((q[0] == '.' && is(q[1], kDigit)) || ((q[0] == 'e' || q[0] == 'E') && p[0] != '0')) return lexDecimalFloat(p);

  int base = 10;
  const char* d = p;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, d = p + 2;
  else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) base = 2, d = p + 2;
  else if (p[0] == '0' && is(p[1], kDigit)) base = 8, d = p + 1;
  cur_ = d;
  uint64_t v = 0;
  bool overflow = false, badDigit = false;
  while (is(*cur_, kHex)) {
    int dv = hexVal(*cur_);
    if (dv >= base) {
      badDigit = true;
      break;
    }
    if (v > (UINT64_MAX - uint64_t(dv)) / uint64_t(base)) overflow = true;
    v = v * uint64_t(base) + uint64_t(dv);
    ++cur_;
  }
  bool isU = false;
  bool empty = cur_ == d && base != 8;
  if (!badDigit && (*cur_ == 'U' || *cur_ == 'u') && !is(cur_[1], kIdCont)) isU = true, ++cur_;
  bool junk = badDigit || is(*cur_, kIdCont);
  while (is(*cur_, kIdCont)) ++cur_;
  std::string_view text(p, size_t(cur_ - p));
  if (junk || empty) return error(p, "invalid integer literal '" + clip(text) + "'");
  if (overflow) return error(p, "integer literal '" + clip(text) + "' does not fit in 64 bits");
  Token t = make(Tok::Int, p);
  t.val = v;
  t.isUnsigned = isU;
  return t;
}

}  // namespace ptx
