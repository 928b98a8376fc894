// Inputs of the tensor-core probe (mma_probe.cu), generated the same way on the NVIDIA machine (to run them) and
// here (to fit and check the arithmetic model against what came back): only the outputs travel.
//
// A sample is one mma of one form: A (M x K), B (K x N), C and D (M x N), each element as raw bits in a uint32
// (f16/bf16: 16 bits, e4m3/e5m2/s8: 8 bits, tf32/f32/s32: 32 bits). The sample's class picks the distribution:
//   0  small integers (exact in every type and in the sums): checks the fragment layouts the probe assumes
//   1  random values, exponents in a narrow range around 1, random signs
//   2  exponents over the whole range of the type (overflow and underflow of products included)
//   3  cancellation: products in pairs that cancel up to a small remainder, so the alignment and truncation of
//      the internal sum shows
//   4  special values mixed in: zeros of both signs, infinities, NaNs, subnormals, the largest finite values
//   5  C dominant or C tiny against the products; tf32: random low mantissa bits (how tf32 reads an f32)
//   6  random bit patterns (every encoding)
#pragma once
#include <cstdint>
#include <cstring>

namespace mmaprobe {

enum class El : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, F32, S32 };

struct Form {
  const char* name;  // the PTX type suffix
  int m, n, k;
  El a, b, c, d;
  bool satfinite;
};

// The forms the probe runs (order = form index in the data files).
inline const Form kForms[] = {
    {"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, El::F16, El::F16, El::F32, El::F32, false},
    {"m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, El::F16, El::F16, El::F16, El::F16, false},
    {"m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, El::BF16, El::BF16, El::F32, El::F32, false},
    {"m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, El::TF32, El::TF32, El::F32, El::F32, false},
    {"m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, El::E4M3, El::E4M3, El::F32, El::F32, false},
    {"m16n8k32.row.col.f32.e5m2.e5m2.f32", 16, 8, 32, El::E5M2, El::E5M2, El::F32, El::F32, false},
    {"m16n8k32.row.col.f32.e4m3.e5m2.f32", 16, 8, 32, El::E4M3, El::E5M2, El::F32, El::F32, false},
    {"m16n8k32.row.col.f16.e4m3.e4m3.f16", 16, 8, 32, El::E4M3, El::E4M3, El::F16, El::F16, false},
    {"m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, El::S8, El::S8, El::S32, El::S32, false},
    {"m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, El::S8, El::S8, El::S32, El::S32, true},
    {"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, El::F16, El::F16, El::F32, El::F32, false},
};
inline constexpr int kNumForms = sizeof(kForms) / sizeof(kForms[0]);
inline constexpr int kClasses = 7;

struct Sample {
  uint32_t a[16 * 32], b[32 * 8], c[16 * 8];  // row-major A[m][k], B[k][n], C[m][n]
  int cls;
};

inline uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Field widths of a type: exponent bits, mantissa bits (0 for integers), total bits.
struct Fmt {
  int e, m, bits;
};
inline Fmt fmtOf(El t) {
  switch (t) {
    case El::F16: return {5, 10, 16};
    case El::BF16: return {8, 7, 16};
    case El::TF32: return {8, 23, 32};  // an f32 register; the unit reads its top 19 bits (to be measured)
    case El::E4M3: return {4, 3, 8};
    case El::E5M2: return {5, 2, 8};
    case El::F32: return {8, 23, 32};
    default: return {0, 0, t == El::S8 ? 8 : 32};
  }
}

// A value of type t with the given sign, unbiased exponent and mantissa bits (normal numbers; exponents below
// the normal range give subnormals or zero by shifting; above it give the largest encoding's exponent).
inline uint32_t make(El t, int sign, int exp, uint32_t mant) {
  Fmt f = fmtOf(t);
  int bias = (1 << (f.e - 1)) - 1;
  int be = exp + bias;
  uint32_t mm = mant & ((1u << f.m) - 1);
  uint32_t v;
  if (be <= 0) {  // subnormal: shift the implicit 1 in
    int sh = 1 - be;
    uint64_t full = (1ull << f.m) | mm;
    v = sh > f.m ? 0 : uint32_t(full >> sh);
  } else {
    int maxBe = (t == El::E4M3) ? 15 : (1 << f.e) - 2;  // e4m3 has no infinity: exponent 15 is finite (but S.1111.111 is NaN)
    if (be > maxBe) be = maxBe;
    v = (uint32_t(be) << f.m) | mm;
    if (t == El::E4M3 && be == 15 && mm == 7) v = (15u << 3) | 6u;  // keep it finite
  }
  return v | (uint32_t(sign) << (f.bits - 1));
}

// An integer value n (|n| small) in type t.
inline uint32_t fromInt(El t, int n) {
  if (t == El::S8 || t == El::S32) return t == El::S8 ? uint32_t(n) & 0xFFu : uint32_t(n);
  if (n == 0) return 0;
  int s = n < 0, a = s ? -n : n, e = 31 - __builtin_clz(unsigned(a));
  Fmt f = fmtOf(t);
  uint32_t mant = uint32_t(a - (1 << e)) << f.m >> e;
  return make(t, s, e, mant);
}

inline uint32_t special(El t, uint64_t r) {
  Fmt f = fmtOf(t);
  uint32_t sign = uint32_t(r & 1) << (f.bits - 1);
  uint32_t expAll = ((1u << f.e) - 1) << f.m;
  switch ((r >> 1) % 7) {
    case 0: return sign;                                         // +-0
    case 1: return t == El::E4M3 ? (sign | 0x7Fu) : sign | expAll;  // inf (e4m3: NaN)
    case 2: return sign | expAll | (1u << (f.m ? f.m - 1 : 0)) | uint32_t((r >> 8) & 1);  // NaN (quiet, maybe payload)
    case 3: return sign | uint32_t((r >> 8) % ((1u << f.m) - 1) + 1);  // subnormal
    case 4: return make(t, int(r & 1), 1000, (1u << f.m) - 1);     // largest finite
    case 5: return make(t, int(r & 1), 1 - ((1 << (f.e - 1)) - 1), uint32_t(r >> 8));  // smallest normals
    default: return make(t, int(r & 1), int((r >> 8) % 5) - 2, uint32_t(r >> 16));
  }
}

inline uint32_t elementRaw(El t, int cls, uint64_t& s, bool isC);
// One operand element of class `cls`. tf32 operands are f32 registers: outside class 5 their low 13 bits are zero,
// so the value is exactly a tf32 value.
inline uint32_t element(El t, int cls, uint64_t& s, bool isC) {
  uint32_t v = elementRaw(t, cls, s, isC);
  if (t == El::TF32 && cls != 5) v &= ~0x1FFFu;
  return v;
}
inline uint32_t elementRaw(El t, int cls, uint64_t& s, bool isC) {
  Fmt f = fmtOf(t);
  uint64_t r = splitmix(s);
  if (t == El::S8 || t == El::S32) {
    if (cls == 0) return fromInt(t, int(r % 7) - 3);
    if (cls == 2 || cls == 4) {  // extremes
      static const int e8[] = {-128, 127, -127, 0, 1, -1};
      static const int e32[] = {INT32_MIN, INT32_MAX, INT32_MAX - 5, INT32_MIN + 7, 0, -1};
      return t == El::S8 ? uint32_t(e8[r % 6]) & 0xFFu : uint32_t(e32[r % 6]);
    }
    return t == El::S8 ? uint32_t(r & 0xFF) : uint32_t(r);
  }
  int bias = (1 << (f.e - 1)) - 1;
  int sign = int(r & 1);
  uint32_t mant = uint32_t(r >> 11);
  switch (cls) {
    case 0: return fromInt(t, int(r % 9) - 4);
    case 1: return make(t, sign, int((r >> 40) % 7) - 3, mant);
    case 2: return make(t, sign, int((r >> 40) % uint64_t(2 * bias + 3)) - bias - 1, mant);
    case 4:
      if ((r >> 50) % 5 == 0) return special(t, r >> 20);
      return make(t, sign, int((r >> 40) % 7) - 3, mant);
    case 5:
      if (t == El::TF32 && !isC) return uint32_t(r >> 32);  // raw f32 bits: how tf32 reads the low mantissa
      if (isC) return make(t, sign, ((r >> 40) & 1) ? int((r >> 41) % 20) + 4 : -int((r >> 41) % 20) - 8, mant);
      return make(t, sign, int((r >> 40) % 5) - 2, mant);
    case 6: return f.bits == 32 ? uint32_t(r) : uint32_t(r) & ((1u << f.bits) - 1);
    default: return make(t, sign, int((r >> 40) % 5) - 2, mant);
  }
}

// Sample `index` of form `fi`: deterministic from (fi, index).
inline void generate(int fi, uint64_t index, Sample& out) {
  const Form& F = kForms[fi];
  uint64_t s = 0x6D6D6150726F6265ull ^ (uint64_t(fi) << 48) ^ index;
  splitmix(s);
  int cls = int(index % kClasses);
  out.cls = cls;
  for (int i = 0; i < F.m; ++i)
    for (int k = 0; k < F.k; ++k) out.a[i * F.k + k] = element(F.a, cls, s, false);
  for (int k = 0; k < F.k; ++k)
    for (int j = 0; j < F.n; ++j) out.b[k * F.n + j] = element(F.b, cls, s, false);
  for (int i = 0; i < F.m; ++i)
    for (int j = 0; j < F.n; ++j) out.c[i * F.n + j] = element(F.c, cls == 3 ? 1 : cls, s, true);
  if (cls == 3 && F.a != El::S8) {
    // cancellation: in each row of A and column of B, product k+1 is minus product k up to the last bits:
    // A[i][k+1] = A[i][k] with the other sign; B[k+1][j] = B[k][j] with a perturbed low mantissa bit.
    for (int i = 0; i < F.m; ++i)
      for (int k = 0; k + 1 < F.k; k += 2) {
        Fmt fa = fmtOf(F.a);
        out.a[i * F.k + k + 1] = out.a[i * F.k + k] ^ (1u << (fa.bits - 1));
      }
    for (int k = 0; k + 1 < F.k; k += 2)
      for (int j = 0; j < F.n; ++j) {
        uint64_t r = splitmix(s);
        out.b[(k + 1) * F.n + j] = out.b[k * F.n + j] ^ (uint32_t(r & 3) << (F.b == El::TF32 ? 13 : 0));
      }
  }
}

}  // namespace mmaprobe
