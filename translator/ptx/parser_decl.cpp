// Declarations (.reg/.param/.shared/.global/... variables and parameters), initializers, and the conversion of
// initializer literals to the bits of the element type.
#include <cmath>
#include <cstring>

#include "parser_impl.h"

namespace ptx {

uint32_t typeBytes(std::string_view t) {
  if (t.empty()) return 0;
  static constexpr struct {
    std::string_view name;
    uint32_t bytes;
  } kTypes[] = {
      {"b8", 1},     {"b16", 2},      {"b32", 4},      {"b64", 8},       {"b128", 16},   {"u8", 1},
      {"u16", 2},    {"u32", 4},      {"u64", 8},      {"s8", 1},        {"s16", 2},     {"s32", 4},
      {"s64", 8},    {"f16", 2},      {"f16x2", 4},    {"bf16", 2},      {"bf16x2", 4},  {"f32", 4},
      {"f64", 8},    {"pred", 1},     {"tf32", 4},     {"e4m3", 1},      {"e5m2", 1},    {"e4m3x2", 2},
      {"e5m2x2", 2}, {"texref", 8},   {"samplerref", 8}, {"surfref", 8},
  };
  for (auto& e : kTypes)
    if (e.name == t) return e.bytes;
  return 0;
}

namespace {

uint32_t f32Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t f64Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float bitsF32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double bitsF64(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// IEEE binary32 -> binary16, round to nearest even (what ptxas does for .f16 initializers).
uint16_t toHalf(float f) {
  uint32_t x = f32Bits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  int exp = int((x >> 23) & 0xff);
  uint32_t mant = x & 0x7fffff;
  if (exp == 255) return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  int e = exp - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = uint32_t(sign) | uint32_t(e) << 10 | mant >> 13;
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;  // a carry into the exponent rounds up to inf correctly
  return uint16_t(h);
}

uint16_t toBf16(float f) {
  uint32_t x = f32Bits(f);
  if ((x & 0x7fffffff) > 0x7f800000) return uint16_t((x >> 16) | 0x40);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

}  // namespace

// The value of a literal as a double, for float element types: 0f/0d literals are bit patterns of a float or
// double value, decimal floats and integers are values.
static double literalValue(const Token& t, bool negative) {
  double v;
  if (t.kind == Tok::Int) v = double(t.val);
  else if (t.isDouble) v = bitsF64(t.val);
  else v = double(bitsF32(uint32_t(t.val)));
  return negative ? -v : v;
}

bool Parser::numberToBits(const VarDecl& d, const Token& t, bool negative, uint64_t& bits, Span at) {
  std::string_view ty = d.type;
  if (!at.begin) at = t.span();
  bool hexFloat = t.kind == Tok::Float && t.len >= 2 && t.p[0] == '0' && (t.p[1] | 0x20) != 'x' &&
                  ((t.p[1] | 0x20) == 'f' || (t.p[1] | 0x20) == 'd');
  if (ty == "f32") {
    if (hexFloat && !t.isDouble) bits = t.val ^ (negative ? 0x80000000u : 0);  // raw bits, as written
    else bits = f32Bits(float(literalValue(t, negative)));
    return true;
  }
  if (ty == "f64") {
    if (hexFloat && t.isDouble) bits = t.val ^ (negative ? 1ull << 63 : 0);
    else bits = f64Bits(literalValue(t, negative));
    return true;
  }
  if (ty == "f16" || ty == "bf16") {
    float f = float(literalValue(t, negative));
    bits = ty == "f16" ? toHalf(f) : toBf16(f);
    return true;
  }
  uint32_t bytes = typeBytes(ty);
  if (bytes == 0 || !(ty[0] == 'b' || ty[0] == 'u' || ty[0] == 's' || ty == "pred")) {
    diags_.error(at, "cannot initialize a variable of type '." + std::string(ty) + "'");
    return false;
  }
  if (t.kind == Tok::Float) {
    // Bit-typed variables may take a 0f/0d bit pattern; a decimal float has no defined integer bits.
    if (!(ty[0] == 'b' && hexFloat)) {
      diags_.error(at, "floating-point initializer '" + clip(t.text()) + "' for integer type '." +
                                 std::string(ty) + "'");
      return false;
    }
    if (!((bytes == 4 && !t.isDouble) || (bytes == 8 && t.isDouble))) {
      diags_.error(at, "bit pattern '" + clip(t.text()) + "' has " + (t.isDouble ? "64" : "32") +
                                 " bits; the type '." + std::string(ty) + "' has " + std::to_string(bytes * 8));
      return false;
    }
  }
  uint64_t v = negative ? uint64_t(0) - t.val : t.val;
  // The value must fit the element, read as signed or unsigned (-1 and 255 both fit .u8): a wider one would be
  // cut without a word.
  if (t.kind == Tok::Int && bytes < 8) {
    uint64_t lim = uint64_t(1) << (bytes * 8);
    bool fits = negative ? t.val <= lim / 2 : t.val < lim;
    if (!fits) {
      diags_.error(at, "initializer " + std::string(negative ? "-" : "") + clip(t.text()) +
                                 " does not fit the type '." + std::string(ty) + "'");
      return false;
    }
  }
  if (t.kind == Tok::Int && bytes == 8 && negative && t.val > (uint64_t(1) << 63)) {
    diags_.error(at, "initializer -" + clip(t.text()) + " does not fit the type '." + std::string(ty) + "'");
    return false;
  }
  bits = bytes >= 8 ? v : v & ((1ull << (bytes * 8)) - 1);
  return true;
}

// ---------------------------------------------------------------------------------------------------------------

bool Parser::parseDeclAttrs(VarDecl& d) {
  while (at(Tok::Dir)) {
    std::string_view n = tok_.text().substr(1);
    if (n == "align") {
      advance();
      if (!at(Tok::Int) || tok_.val == 0 || (tok_.val & (tok_.val - 1)) || tok_.val > (1u << 20)) {
        expected("a power-of-two alignment after .align");
        return false;
      }
      (d.isPtr ? d.ptrAlign : d.align) = uint32_t(tok_.val);
    } else if (n == "v2" || n == "v4" || n == "v8") {
      d.vecWidth = uint32_t(n[1] - '0');
    } else if (n == "ptr") {
      d.isPtr = true;
    } else if (d.isPtr && d.ptrSpace == Space::None && spaceFromName(n) != Space::None) {
      d.ptrSpace = spaceFromName(n);
    } else if (n == "attribute") {
      // `.attribute(.managed)`: accepted and ignored (the runtime does not distinguish managed memory).
      advance();
      if (!expect(Tok::LParen, "'(' after .attribute")) return false;
      while (at(Tok::Dir)) advance();
      if (!at(Tok::RParen)) {
        expected("')' after .attribute list");
        return false;
      }
    } else if (typeBytes(n)) {
      if (!d.type.empty()) {
        errorHere("duplicate type '" + clip(tok_.text()) + "' in declaration");
        return false;
      }
      d.type = n;
    } else {
      errorHere("unknown type or attribute '" + clip(tok_.text()) + "' in declaration");
      return false;
    }
    advance();
  }
  if (d.type.empty()) {
    expected("a type in declaration");
    return false;
  }
  return true;
}

bool Parser::parseDeclName(VarDecl& d, bool allowRange) {
  if (!at(Tok::Ident)) {
    expected("a name in declaration");
    return false;
  }
  d.name = tok_.text();
  d.span = tok_.span();
  advance();
  if (at(Tok::Lt)) {
    const char* b = d.name.data();
    const char* e = tok_.p + 1;
    advance();
    bool ok = at(Tok::Int);
    uint64_t n = tok_.val;
    if (ok) {
      e = tok_.p + tok_.len;
      advance();
      ok = at(Tok::Gt);
    }
    if (ok) e = tok_.p + 1;
    std::string text = clip({b, size_t(e - b)}, 60);
    if (!ok || n == 0) {
      if (!at(Tok::Error)) diags_.error({b, uint32_t(e - b)}, "invalid register range '" + text + "'");
      return false;
    }
    if (!allowRange) {
      diags_.error({b, uint32_t(e - b)}, "register range '" + text + "' outside a .reg declaration");
      return false;
    }
    if (n > kMaxRegRange) {
      diags_.error({b, uint32_t(e - b)},
                   "register range '" + text + "' is too large (limit " + std::to_string(kMaxRegRange) + ")");
      return false;
    }
    d.rangeCount = uint32_t(n);
    d.span.length = uint32_t(e - b);
    advance();
  }
  // Dimensions, with an overflow-safe running size so `x[1<<40][1<<40]` is an error, not a wrap.
  uint64_t elemBytes = uint64_t(typeBytes(d.type)) * (d.vecWidth ? d.vecWidth : 1);
  uint64_t total = elemBytes;
  while (at(Tok::LBrack)) {
    const char* b = tok_.p;
    advance();
    uint64_t n = 0;
    if (at(Tok::Int)) {
      n = tok_.val;
      advance();
    }
    if (!at(Tok::RBrack)) {
      expected("an array size and ']'");
      return false;
    }
    if (n && total > kMaxArrayBytes / n) {
      diags_.error({b, uint32_t(tok_.p + 1 - b)}, "array '" + clip(d.name) + "' is too large");
      return false;
    }
    if (n) total *= n;
    d.dims.push_back(n);
    advance();
  }
  return true;
}

bool Parser::parseDecl(Space space, std::vector<VarDecl>& out, bool list, bool init, bool semi,
                       const VarDecl& proto) {
  VarDecl base = proto;
  base.space = space;
  if (!parseDeclAttrs(base)) return false;
  for (;;) {
    VarDecl& d = out.emplace_back(base);
    if (!parseDeclName(d, space == Space::Reg)) return false;
    if (at(Tok::Eq)) {
      if (!init) {
        errorHere("initializers are not allowed here");
        return false;
      }
      if (!parseInitializer(d)) return false;
    }
    if (!list || !at(Tok::Comma)) break;
    advance();
  }
  if (semi && !at(Tok::Semi)) {
    if (!at(Tok::Error)) diags_.error({prevEnd_, 0}, "expected ';' after declaration");
    return false;
  }
  if (semi) advance();
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Initializers: `= 5`, `= {1, 2, 3}`, `= {{1, 2}, {3, 4}}`, `= {sym, generic(sym)+4}`; flattened row-major.

bool Parser::parseInitializer(VarDecl& d) {
  advance();  // '='
  d.hasInit = true;
  bool ok = at(Tok::LBrace) ? parseInitList(d, 1) : parseInitElem(d);
  if (!ok) return false;
  // Capacity: elements of the array (vector lanes count); an unsized first dimension takes its size from the
  // initializer, as in C.
  uint64_t inner = d.vecWidth ? d.vecWidth : 1;
  for (size_t i = 1; i < d.dims.size(); ++i) inner *= d.dims[i] ? d.dims[i] : 1;
  if (!d.dims.empty() && d.dims[0] == 0) d.dims[0] = (d.init.size() + inner - 1) / inner;
  uint64_t cap = inner * (d.dims.empty() ? 1 : d.dims[0]);
  if (d.init.size() > cap) {
    diags_.error(d.span, "too many initializers for '" + clip(d.name) + "' (" + std::to_string(d.init.size()) +
                             " for " + std::to_string(cap) + " elements)");
    return false;
  }
  return true;
}

bool Parser::parseInitList(VarDecl& d, unsigned depth) {
  if (depth > kMaxNesting) {
    errorHere("initializer braces nested too deeply (limit " + std::to_string(kMaxNesting) + ")");
    if (lx_.skipBalanced()) advance();
    else advance();
    return false;
  }
  advance();  // '{'
  for (;;) {
    bool ok = at(Tok::LBrace) ? parseInitList(d, depth + 1) : parseInitElem(d);
    if (!ok) return false;
    if (at(Tok::Comma)) {
      advance();
      continue;
    }
    if (at(Tok::RBrace)) {
      advance();
      return true;
    }
    expected("',' or '}' in initializer");
    return false;
  }
}

bool Parser::parseInitElem(VarDecl& d) {
  InitElem e;
  e.span = tok_.span();
  if (at(Tok::Ident)) {
    e.isSymbol = true;
    if (tok_.text() == "generic") {
      advance();
      if (!expect(Tok::LParen, "'(' after generic")) return false;
      if (!at(Tok::Ident)) {
        expected("a symbol in generic()");
        return false;
      }
      e.generic = true;
    }
    e.symbol = tok_.text();
    advance();
    if (e.generic && !expect(Tok::RParen, "')' after generic(symbol")) return false;
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      if (!at(Tok::Int)) {
        expected("an integer offset after the symbol");
        return false;
      }
      e.offset = neg ? -int64_t(tok_.val) : int64_t(tok_.val);
      advance();
    }
    e.span.length = uint32_t(tok_.p - e.span.begin);
    d.init.push_back(e);
    return true;
  }
  bool neg = false;
  if (at(Tok::Minus)) neg = true, advance();
  if (!at(Tok::Int) && !at(Tok::Float)) {
    expected("an initializer value");
    return false;
  }
  e.span.length = uint32_t(tok_.p + tok_.len - e.span.begin);
  numberToBits(d, tok_, neg, e.bits, e.span);  // a value that does not fit is reported there; the syntax goes on
  d.init.push_back(e);
  advance();
  return true;
}

}  // namespace ptx
