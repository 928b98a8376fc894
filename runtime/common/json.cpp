#include "json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace p2g::json {

Value::Value() = default;
Value::Value(const Value&) = default;
Value::Value(Value&&) noexcept = default;
Value& Value::operator=(const Value&) = default;
Value& Value::operator=(Value&&) noexcept = default;
Value::~Value() = default;

const Value* Value::find(const std::string& key) const {
  if (kind != Kind::Object) return nullptr;
  for (auto& [k, v] : obj)
    if (k == key) return &v;
  return nullptr;
}

std::string Value::where() const { return std::to_string(line) + ":" + std::to_string(col); }

// Integers are read from the literal text, because a double holds only 53 bits. A literal like 1e3 or 2.0 is
// accepted when it denotes an integer exactly (through the double, which is exact below 2^53).
static bool integralText(const std::string& s) {
  for (char c : s)
    if (c == '.' || c == 'e' || c == 'E') return false;
  return true;
}

bool Value::toU64(uint64_t& out) const {
  if (kind != Kind::Number) return false;
  if (integralText(str)) {
    if (!str.empty() && str[0] == '-') {
      if (str == "-0") { out = 0; return true; }
      return false;
    }
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(str.c_str(), &end, 10);
    if (errno == ERANGE || *end) return false;
    out = v;
    return true;
  }
  if (num < 0 || num != std::floor(num) || num >= 9007199254740992.0) return false;
  out = (uint64_t)num;
  return true;
}

bool Value::toI64(int64_t& out) const {
  if (kind != Kind::Number) return false;
  if (integralText(str)) {
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(str.c_str(), &end, 10);
    if (errno == ERANGE || *end) return false;
    out = v;
    return true;
  }
  if (num != std::floor(num) || std::fabs(num) >= 9007199254740992.0) return false;
  out = (int64_t)num;
  return true;
}

namespace {

class Parser {
 public:
  Parser(const std::string& t, std::string& err) : t_(t), err_(err) {}

  bool document(Value& out) {
    if (!value(out, 0)) return false;
    skipWs();
    if (p_ < t_.size()) return fail("unexpected text after the JSON value");
    return true;
  }

 private:
  static constexpr int kMaxDepth = 256;  // deep nesting is an error, not a stack overflow
  const std::string& t_;
  std::string& err_;
  size_t p_ = 0;
  uint32_t line_ = 1, col_ = 1;

  bool fail(const std::string& msg) {
    err_ = std::to_string(line_) + ":" + std::to_string(col_) + ": " + msg;
    return false;
  }
  void adv() {
    if (t_[p_] == '\n') { ++line_; col_ = 1; } else { ++col_; }
    ++p_;
  }
  void skipWs() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) adv();
  }
  bool literal(const char* word) {
    size_t n = std::strlen(word);
    if (t_.compare(p_, n, word) != 0) return fail("invalid literal");
    for (size_t i = 0; i < n; ++i) adv();
    return true;
  }

  bool value(Value& v, int depth) {
    skipWs();
    if (depth > kMaxDepth) return fail("nesting too deep");
    if (p_ >= t_.size()) return fail("unexpected end of input, expected a value");
    v.line = line_;
    v.col = col_;
    char c = t_[p_];
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') { v.kind = Value::Kind::String; return string(v.str); }
    if (c == 't') { v.kind = Value::Kind::Bool; v.b = true; return literal("true"); }
    if (c == 'f') { v.kind = Value::Kind::Bool; v.b = false; return literal("false"); }
    if (c == 'n') { v.kind = Value::Kind::Null; return literal("null"); }
    if (c == '-' || (c >= '0' && c <= '9')) return number(v);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool object(Value& v, int depth) {
    v.kind = Value::Kind::Object;
    adv();  // {
    skipWs();
    if (p_ < t_.size() && t_[p_] == '}') { adv(); return true; }
    for (;;) {
      skipWs();
      if (p_ >= t_.size() || t_[p_] != '"') return fail("expected a member name in quotes");
      std::string key;
      if (!string(key)) return false;
      for (auto& [k, _] : v.obj)
        if (k == key) return fail("duplicate member \"" + key + "\"");
      skipWs();
      if (p_ >= t_.size() || t_[p_] != ':') return fail("expected ':' after member name");
      adv();
      Value m;
      if (!value(m, depth + 1)) return false;
      v.obj.emplace_back(std::move(key), std::move(m));
      skipWs();
      if (p_ >= t_.size()) return fail("unexpected end of input in object");
      if (t_[p_] == ',') { adv(); continue; }
      if (t_[p_] == '}') { adv(); return true; }
      return fail("expected ',' or '}' in object");
    }
  }

  bool array(Value& v, int depth) {
    v.kind = Value::Kind::Array;
    adv();  // [
    skipWs();
    if (p_ < t_.size() && t_[p_] == ']') { adv(); return true; }
    for (;;) {
      Value e;
      if (!value(e, depth + 1)) return false;
      v.arr.push_back(std::move(e));
      skipWs();
      if (p_ >= t_.size()) return fail("unexpected end of input in array");
      if (t_[p_] == ',') { adv(); continue; }
      if (t_[p_] == ']') { adv(); return true; }
      return fail("expected ',' or ']' in array");
    }
  }

  static void putUtf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
      s += (char)cp;
    } else if (cp < 0x800) {
      s += (char)(0xC0 | (cp >> 6));
      s += (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += (char)(0xE0 | (cp >> 12));
      s += (char)(0x80 | ((cp >> 6) & 0x3F));
      s += (char)(0x80 | (cp & 0x3F));
    } else {
      s += (char)(0xF0 | (cp >> 18));
      s += (char)(0x80 | ((cp >> 12) & 0x3F));
      s += (char)(0x80 | ((cp >> 6) & 0x3F));
      s += (char)(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t& cp) {
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      if (p_ >= t_.size()) return fail("unexpected end of input in \\u escape");
      char h = t_[p_];
      int d = (h >= '0' && h <= '9') ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10
            : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
      if (d < 0) return fail("invalid hex digit in \\u escape");
      cp = cp * 16 + (uint32_t)d;
      adv();
    }
    return true;
  }

  bool string(std::string& s) {
    adv();  // "
    for (;;) {
      if (p_ >= t_.size()) return fail("unterminated string");
      char c = t_[p_];
      if (c == '"') { adv(); return true; }
      if ((unsigned char)c < 0x20) return fail("control character in string");
      if (c != '\\') { s += c; adv(); continue; }
      adv();
      if (p_ >= t_.size()) return fail("unterminated string");
      char e = t_[p_];
      adv();
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          uint32_t cp;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && t_.compare(p_, 2, "\\u") == 0) {
            adv(); adv();
            uint32_t lo;
            if (!hex4(lo)) return false;
            if (lo < 0xDC00 || lo >= 0xE000) return fail("invalid surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          putUtf8(s, cp);
          break;
        }
        default: return fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool number(Value& v) {
    v.kind = Value::Kind::Number;
    size_t start = p_;
    auto digits = [&] {
      size_t n = 0;
      while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') { adv(); ++n; }
      return n;
    };
    if (t_[p_] == '-') adv();
    if (p_ < t_.size() && t_[p_] == '0') {
      adv();
    } else if (digits() == 0) {
      return fail("invalid number");
    }
    if (p_ < t_.size() && t_[p_] == '.') {
      adv();
      if (digits() == 0) return fail("invalid number: digits expected after '.'");
    }
    if (p_ < t_.size() && (t_[p_] == 'e' || t_[p_] == 'E')) {
      adv();
      if (p_ < t_.size() && (t_[p_] == '+' || t_[p_] == '-')) adv();
      if (digits() == 0) return fail("invalid number: digits expected in exponent");
    }
    v.str = t_.substr(start, p_ - start);
    v.num = std::strtod(v.str.c_str(), nullptr);
    return true;
  }
};

}  // namespace

bool parse(const std::string& text, Value& out, std::string& err) {
  out = Value();
  Parser p(text, err);
  return p.document(out);
}

std::string quote(const std::string& s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\r': r += "\\r"; break;
      case '\t': r += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          r += buf;
        } else {
          r += (char)c;
        }
    }
  }
  return r + "\"";
}

}  // namespace p2g::json
