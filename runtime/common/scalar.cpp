#include "scalar.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace p2g {

namespace {
struct TypeInfo {
  const char* name;
  ElemType t;
  uint32_t size;
};
constexpr TypeInfo kTypes[] = {
    {"u8", ElemType::U8, 1},   {"u16", ElemType::U16, 2}, {"u32", ElemType::U32, 4},   {"u64", ElemType::U64, 8},
    {"s8", ElemType::S8, 1},   {"s16", ElemType::S16, 2}, {"s32", ElemType::S32, 4},   {"s64", ElemType::S64, 8},
    {"f16", ElemType::F16, 2}, {"bf16", ElemType::BF16, 2}, {"f32", ElemType::F32, 4}, {"f64", ElemType::F64, 8},
    {"bits", ElemType::Bits, 1},
};

template <class T>
void put(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);  // little-endian host assumed (x86-64 and aarch64 runners)
}
template <class T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Round-half-to-even of a non-negative double that is below 2^52, written out so it does not depend on the
// floating-point environment's rounding mode.
double roundHalfEven(double x) {
  double f = std::floor(x);
  double d = x - f;  // exact: x has at most 52 fraction bits left at this magnitude
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return std::fmod(f, 2.0) == 0 ? f : f + 1;
}

// IEEE-style binary format with `expBits` exponent bits and `mantBits` stored fraction bits, RNE from double.
uint16_t encodeSmallFloat(double v, int expBits, int mantBits) {
  const uint32_t expMax = (1u << expBits) - 1;
  const uint16_t sign = std::signbit(v) ? (uint16_t)(1u << (expBits + mantBits)) : 0;
  const uint32_t inf = expMax << mantBits;
  if (std::isnan(v)) return (uint16_t)(sign | inf | (1u << (mantBits - 1)));
  double a = std::fabs(v);
  if (std::isinf(a)) return (uint16_t)(sign | inf);
  if (a == 0) return sign;
  const int bias = (1 << (expBits - 1)) - 1, emin = 1 - bias;
  int e;
  std::frexp(a, &e);
  e -= 1;  // a in [2^e, 2^(e+1))
  if (e > bias) return (uint16_t)(sign | inf);
  // Quantum of the target format at this magnitude (the subnormal quantum below the normal range); a / quantum is
  // below 2^(mantBits+1), so the scaling is exact and only the final rounding loses bits.
  int qexp = (e < emin ? emin : e) - mantBits;
  uint32_t n = (uint32_t)roundHalfEven(std::ldexp(a, -qexp));
  uint32_t bits;
  if (e < emin)
    bits = n;  // subnormal; n == 2^mantBits rounds up into the smallest normal, which this encoding gives
  else
    bits = ((uint32_t)(e + bias) << mantBits) + (n - (1u << mantBits));  // carry into the exponent is correct
  if (bits >= inf) bits = inf;
  return (uint16_t)(sign | bits);
}

double decodeSmallFloat(uint16_t h, int expBits, int mantBits) {
  const uint32_t expMax = (1u << expBits) - 1;
  const int bias = (1 << (expBits - 1)) - 1;
  bool neg = (h >> (expBits + mantBits)) & 1;
  uint32_t ex = (h >> mantBits) & expMax, fr = h & ((1u << mantBits) - 1);
  double r;
  if (ex == expMax)
    r = fr ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ex == 0)
    r = std::ldexp((double)fr, 1 - bias - mantBits);
  else
    r = std::ldexp((double)(fr | (1u << mantBits)), (int)ex - bias - mantBits);
  return neg ? -r : r;
}

template <class T>
T saturatingCast(double v) {
  if (std::isnan(v)) return 0;
  if (v <= (double)std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
  if (v >= (double)std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  return (T)v;
}
}  // namespace

bool parseElemType(const std::string& name, ElemType& out) {
  for (auto& t : kTypes)
    if (name == t.name) { out = t.t; return true; }
  return false;
}

const char* elemTypeName(ElemType t) {
  for (auto& i : kTypes)
    if (i.t == t) return i.name;
  return "?";
}

uint32_t elemSize(ElemType t) {
  for (auto& i : kTypes)
    if (i.t == t) return i.size;
  return 1;
}

bool isFloat(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64;
}
bool isSigned(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

uint16_t doubleToHalf(double v) { return encodeSmallFloat(v, 5, 10); }
uint16_t doubleToBf16(double v) { return encodeSmallFloat(v, 8, 7); }
double halfToDouble(uint16_t h) { return decodeSmallFloat(h, 5, 10); }
double bf16ToDouble(uint16_t h) { return decodeSmallFloat(h, 8, 7); }

double elemToDouble(ElemType t, const uint8_t* p) {
  switch (t) {
    case ElemType::U8: case ElemType::Bits: return p[0];
    case ElemType::U16: return get<uint16_t>(p);
    case ElemType::U32: return get<uint32_t>(p);
    case ElemType::U64: return (double)get<uint64_t>(p);
    case ElemType::S8: return (int8_t)p[0];
    case ElemType::S16: return get<int16_t>(p);
    case ElemType::S32: return get<int32_t>(p);
    case ElemType::S64: return (double)get<int64_t>(p);
    case ElemType::F16: return halfToDouble(get<uint16_t>(p));
    case ElemType::BF16: return bf16ToDouble(get<uint16_t>(p));
    case ElemType::F32: return get<float>(p);
    case ElemType::F64: return get<double>(p);
  }
  return 0;
}

void storeFromDouble(ElemType t, double v, uint8_t* p) {
  switch (t) {
    case ElemType::U8: case ElemType::Bits: put(p, saturatingCast<uint8_t>(v)); break;
    case ElemType::U16: put(p, saturatingCast<uint16_t>(v)); break;
    case ElemType::U32: put(p, saturatingCast<uint32_t>(v)); break;
    case ElemType::U64: put(p, saturatingCast<uint64_t>(v)); break;
    case ElemType::S8: put(p, saturatingCast<int8_t>(v)); break;
    case ElemType::S16: put(p, saturatingCast<int16_t>(v)); break;
    case ElemType::S32: put(p, saturatingCast<int32_t>(v)); break;
    case ElemType::S64: put(p, saturatingCast<int64_t>(v)); break;
    case ElemType::F16: put(p, doubleToHalf(v)); break;
    case ElemType::BF16: put(p, doubleToBf16(v)); break;
    case ElemType::F32: put(p, (float)v); break;  // IEEE double->float conversion rounds to nearest even
    case ElemType::F64: put(p, v); break;
  }
}

void storeFromInt(ElemType t, int64_t v, uint8_t* p) {
  uint64_t u = (uint64_t)v;
  switch (t) {
    case ElemType::U8: case ElemType::S8: case ElemType::Bits: p[0] = (uint8_t)u; break;
    case ElemType::U16: case ElemType::S16: put(p, (uint16_t)u); break;
    case ElemType::U32: case ElemType::S32: put(p, (uint32_t)u); break;
    case ElemType::U64: case ElemType::S64: put(p, u); break;
    case ElemType::F32: put(p, (float)v); break;  // int64 -> float rounds once, to nearest even
    default: storeFromDouble(t, (double)v, p); break;
  }
}

bool encodeJsonScalar(ElemType t, const json::Value& v, uint8_t* p, std::string& err) {
  if (v.isObject()) {
    const json::Value* bits = v.find("bits");
    uint64_t b;
    if (!bits || v.obj.size() != 1 || !bits->toU64(b)) {
      err = "expected a number or {\"bits\": n}";
      return false;
    }
    uint32_t size = elemSize(t);
    if (size < 8 && (b >> (8 * size)) != 0) {
      err = "bits " + bits->str + " do not fit in " + std::string(elemTypeName(t));
      return false;
    }
    std::memcpy(p, &b, size);
    return true;
  }
  if (!v.isNumber()) {
    err = std::string("expected a number for ") + elemTypeName(t);
    return false;
  }
  if (isFloat(t)) {
    if (t == ElemType::F32)
      put(p, std::strtof(v.str.c_str(), nullptr));  // straight from the decimal text: no double rounding
    else
      storeFromDouble(t, v.num, p);
    return true;
  }
  uint32_t bitsN = elemSize(t) * 8;
  if (isSigned(t)) {
    int64_t x;
    int64_t lo = bitsN == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bitsN - 1));
    int64_t hi = bitsN == 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bitsN - 1)) - 1;
    if (!v.toI64(x) || x < lo || x > hi) {
      err = "value " + v.str + " is not an integer in the range of " + elemTypeName(t);
      return false;
    }
    storeFromInt(t, x, p);
    return true;
  }
  uint64_t x;
  if (!v.toU64(x) || (bitsN < 64 && (x >> bitsN) != 0)) {
    err = "value " + v.str + " is not an integer in the range of " + elemTypeName(t);
    return false;
  }
  storeFromInt(t, (int64_t)x, p);
  return true;
}

}  // namespace p2g
