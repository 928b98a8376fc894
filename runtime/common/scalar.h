// Element types of the case format and exact conversions between them and doubles.
//
// The conversions are written out in integer/power-of-two arithmetic instead of relying on a compiler's half type,
// because the same bytes must come out of every runner on every machine (docs/CASE_INPUTS.md states them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "json.h"

namespace p2g {

enum class ElemType { U8, U16, U32, U64, S8, S16, S32, S64, F16, BF16, F32, F64, Bits };

// "u8".."f64", "bf16", "bits". Returns false for an unknown name.
bool parseElemType(const std::string& name, ElemType& out);
const char* elemTypeName(ElemType t);
// Size in bytes of one element ("bits" counts as one byte).
uint32_t elemSize(ElemType t);
bool isFloat(ElemType t);
bool isSigned(ElemType t);

// Round-to-nearest-even conversions from double to the 16-bit float formats (NaN -> quiet NaN with the sign kept,
// overflow -> infinity). Going straight from double avoids the double rounding of double->float->half.
uint16_t doubleToHalf(double v);
uint16_t doubleToBf16(double v);
double halfToDouble(uint16_t h);
double bf16ToDouble(uint16_t h);

// The raw bits of one element (little-endian, `elemSize` bytes) as a double, for PSNR and reports.
double elemToDouble(ElemType t, const uint8_t* p);

// Writes `v` converted to type `t` at `p` (little-endian). Integers wrap modulo 2^bits (C++ conversion of the
// truncated value); floats round to nearest even.
void storeFromDouble(ElemType t, double v, uint8_t* p);
// Stores the exact integer `v` (two's complement, wrapped to the type's width); floats convert with RNE.
void storeFromInt(ElemType t, int64_t v, uint8_t* p);

// Encodes a JSON scalar of a case file (a parameter value, a fill value) as type `t`:
//   integers: an integral number in the type's range (negative values only for signed types);
//   floats: any number (f16/bf16 also accept {"bits": n}, the raw pattern);
// On error returns false and sets `err` (without location; the caller adds it).
bool encodeJsonScalar(ElemType t, const json::Value& v, uint8_t* p, std::string& err);

}  // namespace p2g
