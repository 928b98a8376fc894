// Software models of NVIDIA's approximate (SFU) instructions, bit-identical to the H200 where docs/SFU.md says so
// (issue 4, HAZARDS.md row 8). Header-only and dependency-free so that the same code is
//   - the C++ reference (tests/sfu checks it against the ground truth collected on the H200),
//   - compiled by nvcc into ptx_corpus/sfu/sfu_probe.cu (`run.sh verify`), which compares it with the hardware
//     over all 2^32 inputs,
//   - the source of the GLSL the translator emits (sfu_prelude.cpp transcribes the same steps and tables).
//
// How a model is built: the reduced problem (e.g. 1/m for the 2^23 mantissas m in [1,2)) is a piecewise quadratic
// over 2^k segments, evaluated in double exactly as written here (no fused operations), floored, then corrected
// by a sorted exception list; ptx_corpus/sfu/tools/gen.cpp fits the quadratics and derives the exceptions from
// the data (translator/sfu/tables/sfu_tables.bin), so the core is exact by construction. The reduction (sign,
// exponent, special operands, flushing, denormals) is measured: docs/SFU.md lists the facts and the exhaustive
// counts behind them. The hardware's own interpolator (coefficient widths, truncations) is NOT recovered yet: a
// plain quadratic per segment leaves ~1-2% of the mantissas as exceptions, hence the table sizes in docs/SFU.md.
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define SFU_HD __host__ __device__ inline
#else
#define SFU_HD inline
#endif

// Instruction ids: the same numbering as ptx_corpus/sfu/sfu_ops.h (tests/sfu checks it).
enum SfuModelOp32 {
  SFU_RCP_FTZ, SFU_RCP, SFU_RSQRT_FTZ, SFU_RSQRT, SFU_SQRT_FTZ, SFU_SQRT, SFU_EX2_FTZ, SFU_EX2, SFU_LG2_FTZ,
  SFU_LG2, SFU_SIN_FTZ, SFU_SIN, SFU_COS_FTZ, SFU_COS, SFU_TANH, SFU_NUM_OP32
};
enum SfuModelOp16 { SFU_EX2_F16, SFU_EX2_BF16, SFU_TANH_F16, SFU_TANH_BF16, SFU_NUM_OP16 };


// ---- exact double arithmetic, never contracted into an fma (the tables were derived with these operations) ----
SFU_HD double sfu_dmul(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  volatile double r = a * b;
  return r;
#endif
}
SFU_HD double sfu_dadd(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  volatile double r = a + b;
  return r;
#endif
}
SFU_HD double sfu_bits2d(uint64_t b) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)b);
#else
  double d;
  __builtin_memcpy(&d, &b, 8);
  return d;
#endif
}
SFU_HD double sfu_floor(double x) {
#ifdef __CUDA_ARCH__
  return floor(x);
#else
  return __builtin_floor(x);
#endif
}

// Y for mantissa m (23 bits) of one table: floor(c0 + t*(c1 + t*c2)) + exception correction.
SFU_HD int64_t sfu_quad(const uint64_t* coef, const uint32_t* exc, int nexc, int k, uint32_t m) {
  const int segBits = 23 - k;
  uint32_t g = m >> segBits, low = m & ((1u << segBits) - 1u);
  double t = (double)low * (1.0 / (double)(1u << segBits));   // exact: power-of-two scale
  const uint64_t* c = coef + 3 * g;
  double P = sfu_dadd(sfu_bits2d(c[0]), sfu_dmul(t, sfu_dadd(sfu_bits2d(c[1]), sfu_dmul(t, sfu_bits2d(c[2])))));
  int64_t Y = (int64_t)sfu_floor(P);
  int lo = 0, hi = nexc;   // lower_bound of m in the sorted exception list (index << 8 | int8 correction)
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if ((exc[mid] >> 8) < m) lo = mid + 1; else hi = mid;
  }
  if (lo < nexc && (exc[lo] >> 8) == m) Y += (int8_t)(exc[lo] & 0xffu);
  return Y;
}

// ---- tables -----------------------------------------------------------------------------------------------------
// One reduced function: 2^23 inputs (a mantissa or a fixed-point fraction), result value = Y * 2^scale.
struct SfuTable {
  int k = 0, scale = 0, nexc = 0;
  const uint64_t* coef = nullptr;   // 3 << k doubles (bits): c0, c1, c2 per segment
  const uint32_t* exc = nullptr;    // nexc entries: input << 8 | int8 correction, sorted
};
// rcp on [1,2); rsqrt and sqrt on [1,2) and [2,4); ex2 on 1 + f and -(1 + f), f = F * 2^-23.
enum SfuTableId { SFU_T_RCP, SFU_T_RSQRT0, SFU_T_RSQRT1, SFU_T_SQRT0, SFU_T_SQRT1, SFU_T_EX2P, SFU_T_EX2N, SFU_T_NUM };
static const char* const kSfuTableName[SFU_T_NUM] = {"RCP", "RSQRT0", "RSQRT1", "SQRT0", "SQRT1", "EX2P", "EX2N"};
struct SfuTables { SfuTable t[SFU_T_NUM]; };

SFU_HD int64_t sfu_core(const SfuTable& T, uint32_t m) { return sfu_quad(T.coef, T.exc, T.nexc, T.k, m); }

// Reads the blob written by gen.cpp ("PSFU", count, then per table: name[16], k, scale, nexc, pad, coefficients,
// exceptions padded to an even count so that every coefficient array stays 8-byte aligned). The tables point into
// `blob`, which must outlive them. False if a table is missing or truncated.
inline bool sfu_load_tables(const uint8_t* blob, uint64_t size, SfuTables* out) {
  if (size < 8) return false;
  uint32_t hdr[2];
  __builtin_memcpy(hdr, blob, 8);
  if (hdr[0] != 0x55465350u) return false;
  uint64_t off = 8;
  int found = 0;
  for (uint32_t i = 0; i < hdr[1]; i++) {
    if (off + 32 > size) return false;
    char name[17] = {0};
    __builtin_memcpy(name, blob + off, 16);
    int32_t h[4];
    __builtin_memcpy(h, blob + off + 16, 16);
    off += 32;
    uint64_t nc = 3ull << h[0], need = nc * 8 + (uint64_t)((h[2] + 1) & ~1) * 4;
    if (h[0] < 0 || h[0] > 20 || h[2] < 0 || off + need > size) return false;
    for (int t = 0; t < SFU_T_NUM; t++) {
      bool same = true;
      for (int c = 0; c < 17 && same; c++) { same = name[c] == kSfuTableName[t][c]; if (!name[c]) break; }
      if (!same) continue;
      SfuTable& T = out->t[t];
      T.k = h[0]; T.scale = h[1]; T.nexc = h[2];
      T.coef = (const uint64_t*)(blob + off);
      T.exc = (const uint32_t*)(blob + off + nc * 8);
      found |= 1 << t;
    }
    off += need;
  }
  return found == (1 << SFU_T_NUM) - 1;
}

// ---- result assembly ---------------------------------------------------------------------------------------------
// Value Y * 2^e2 (Y > 0 integer < 2^40) as f32 bits with sign. Normal results are exact by construction (Y has at
// most 24 significant bits); below the normal range: flushed to signed zero (ftz) or rounded to nearest even
// into a denormal, as the non-ftz forms do (measured: docs/SFU.md). Above: infinity.
SFU_HD uint32_t sfu_make(uint64_t Y, int e2, uint32_t sign, bool ftz) {
  while (Y >= (1ull << 24)) {   // only exact (trailing-zero) values get here
    Y >>= 1; e2++;
  }
  while (Y < (1ull << 23)) { Y <<= 1; e2--; }
  int be = e2 + 23 + 127;   // biased exponent of Y * 2^e2 with Y in [2^23, 2^24)
  if (be > 254) return sign | 0x7f800000u;
  if (be >= 1) return sign | ((uint32_t)be << 23) | ((uint32_t)Y & 0x7fffffu);
  if (ftz) return sign;
  int sh = 1 - be;   // denormal: Y >> sh, rounded to nearest even
  if (sh > 25) return sign;
  uint64_t q = Y >> sh, rem = Y & ((1ull << sh) - 1), half = 1ull << (sh - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return sign | (uint32_t)q;   // q == 2^23 becomes the smallest normal, as it should
}

// RN-even of Y * 2^e2 for any Y < 2^63 (one rounding, also into the denormal range): an f32 multiply's result.
SFU_HD uint32_t sfu_round(uint64_t Y, int e2, uint32_t sign) {
  if (!Y) return sign;
#ifdef __CUDA_ARCH__
  int top = 63 - __clzll((long long)Y);   // Y in [2^top, 2^(top+1))
#else
  int top = 63 - __builtin_clzll(Y);
#endif
  int be = top + e2 + 127;             // biased exponent if normal
  int sh = top - 23;                   // right shift that leaves 24 bits
  if (be < 1) sh += 1 - be;            // denormal: fewer bits
  uint64_t q = sh > 0 ? (sh > 63 ? 0 : Y >> sh) : Y << -sh;
  if (sh > 0 && sh <= 64) {
    uint64_t rem = sh == 64 ? Y : Y & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
  }
  // q is the significand at the exponent implied by be (denormal: be = 0 encoding); carry into the exponent
  // field is automatic because the encoding is monotonic.
  uint32_t ebits = be < 1 ? 0u : (uint32_t)(be - 1) << 23;
  uint64_t r = (uint64_t)ebits + q;
  if (r >= 0x7f800000ull) return sign | 0x7f800000u;
  return sign | (uint32_t)r;
}

// Normal or denormal operand -> 24-bit significand M in [2^23, 2^24) and unbiased exponent e (x = M * 2^(e-23)).
SFU_HD void sfu_split(uint32_t x, uint32_t* M, int* e) {
  uint32_t E = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (E) { *M = m | 0x800000u; *e = (int)E - 127; return; }
  int s = 0;
  while (!(m & 0x800000u)) { m <<= 1; s++; }
  *M = m; *e = -126 - s;
}

SFU_HD bool sfu_isnan(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
constexpr uint32_t kSfuNaN = 0x7fffffffu;   // every NaN result is NVIDIA's canonical NaN (measured)

// ---- per-instruction models -----------------------------------------------------------------------------------
// rcp.approx{.ftz}.f32: rcp(m * 2^e) = rcp(m) * 2^-e exactly for every normal input (exhaustive, docs/SFU.md).
SFU_HD uint32_t sfu_rcp(const SfuTables& T, uint32_t x, bool ftz) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  if (ax == 0x7f800000u) return sign;
  if (ax < 0x00800000u && (ftz || ax == 0)) return sign | 0x7f800000u;
  uint32_t M; int e;
  sfu_split(ax, &M, &e);
  return sfu_make((uint64_t)sfu_core(T.t[SFU_T_RCP], M & 0x7fffffu), T.t[SFU_T_RCP].scale - e, sign, ftz);
}

// rsqrt.approx{.ftz}.f32: rsqrt(m * 2^p * 4^k) = rsqrt(m * 2^p) * 2^-k, p in {0,1}.
SFU_HD uint32_t sfu_rsqrt(const SfuTables& T, uint32_t x, bool ftz) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  if (ax == 0 || (ftz && ax < 0x00800000u)) return sign | 0x7f800000u;   // -0 and flushed -denormal: -inf
  if (sign) return kSfuNaN;
  if (ax == 0x7f800000u) return 0;
  uint32_t M; int e;
  sfu_split(ax, &M, &e);
  int p = e & 1;
  const SfuTable& t = T.t[p ? SFU_T_RSQRT1 : SFU_T_RSQRT0];
  return sfu_make((uint64_t)sfu_core(t, M & 0x7fffffu), t.scale - (e - p) / 2, 0, ftz);
}

// sqrt.approx{.ftz}.f32: sqrt(m * 2^p * 4^k) = sqrt(m * 2^p) * 2^k.
SFU_HD uint32_t sfu_sqrt(const SfuTables& T, uint32_t x, bool ftz) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  if (ax == 0 || (ftz && ax < 0x00800000u)) return sign;   // +-0 and flushed denormals keep their sign
  if (sign) return kSfuNaN;
  if (ax == 0x7f800000u) return ax;
  uint32_t M; int e;
  sfu_split(ax, &M, &e);
  int p = e & 1;
  const SfuTable& t = T.t[p ? SFU_T_SQRT1 : SFU_T_SQRT0];
  return sfu_make((uint64_t)sfu_core(t, M & 0x7fffffu), t.scale + (e - p) / 2, 0, ftz);
}

// ex2.approx{.ftz}.f32: the operand becomes sign-magnitude fixed point with 23 fraction bits, truncated
// (X = trunc(|x| * 2^23); measured: results are constant on those groups); 2^X = 2^n * 2^f for x >= 0 and
// 2^-n * 2^-f for x < 0, each from its own table (the negative side is not the reciprocal of the positive one).
SFU_HD uint32_t sfu_ex2(const SfuTables& T, uint32_t x, bool ftz) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  if (!ftz && sign && ax > 0x42fc0000u) {
    // Non-ftz, x < -126 (denormal results): ex2(x/2) squared by an f32 multiply (measured: e.g. ex2(-127) gives
    // 0x003fffff, not 2^-127).
    uint32_t h = sfu_ex2(T, x - 0x00800000u, true);
    if (!h) return 0;
    uint64_t Mh = (h & 0x7fffffu) | 0x800000u;
    int eh = (int)(h >> 23) - 127 - 23;
    return sfu_round(Mh * Mh, 2 * eh, 0);
  }
  if (ax >= 0x43000000u) return sign ? 0u : 0x7f800000u;   // |x| >= 128 (and infinities)
  uint32_t E = ax >> 23;
  if (E < 127 - 23) return 0x3f800000u;                     // |x| < 2^-23 (denormals, zeros): X = 0
  uint32_t M = (ax & 0x7fffffu) | 0x800000u;                // |x| = M * 2^(E - 150), 104 <= E <= 133
  uint32_t X = E <= 127 ? M >> (127 - E) : M << (E - 127);  // trunc(|x| * 2^23) < 2^30
  uint32_t n = X >> 23, F = X & 0x7fffffu;
  if (!sign) return sfu_make((uint64_t)sfu_core(T.t[SFU_T_EX2P], F), T.t[SFU_T_EX2P].scale + (int)n - 1, 0, ftz);
  return sfu_make((uint64_t)sfu_core(T.t[SFU_T_EX2N], F), T.t[SFU_T_EX2N].scale - (int)n + 1, 0, ftz);
}

// Which instructions have a model (exact where docs/SFU.md says so).
SFU_HD bool sfu_model32_has(int op) {
  return op == SFU_RCP_FTZ || op == SFU_RCP || op == SFU_RSQRT_FTZ || op == SFU_RSQRT || op == SFU_SQRT_FTZ ||
         op == SFU_SQRT || op == SFU_EX2_FTZ || op == SFU_EX2;
}
SFU_HD uint32_t sfu_model32(const SfuTables& T, int op, uint32_t x) {
  switch (op) {
    case SFU_RCP_FTZ: return sfu_rcp(T, x, true);
    case SFU_RCP: return sfu_rcp(T, x, false);
    case SFU_RSQRT_FTZ: return sfu_rsqrt(T, x, true);
    case SFU_RSQRT: return sfu_rsqrt(T, x, false);
    case SFU_SQRT_FTZ: return sfu_sqrt(T, x, true);
    case SFU_SQRT: return sfu_sqrt(T, x, false);
    case SFU_EX2_FTZ: return sfu_ex2(T, x, true);
    case SFU_EX2: return sfu_ex2(T, x, false);
    default: return kSfuNaN;
  }
}

// ---- 16-bit forms ------------------------------------------------------------------------------------------------
// Measured on all 65,536 inputs each (docs/SFU.md): the 16-bit forms are the f32 instruction on the widened
// operand, truncated (round toward zero) to 16 bits; ex2.approx.f16 overflows to +inf instead of saturating; NaN
// results are 0x7fff. The .x2 forms are the scalar form per lane (all 2^32 pairs). ex2 uses ex2.approx.ftz.f32.
SFU_HD uint16_t sfu_f32_to_f16_rz(uint32_t f, bool infOnOverflow) {
  uint32_t sign = (f >> 16) & 0x8000u, af = f & 0x7fffffffu;
  if (af > 0x7f800000u) return 0x7fff;
  if (af >= 0x47800000u) return (uint16_t)(sign | (infOnOverflow || af == 0x7f800000u ? 0x7c00u : 0x7bffu));
  if (af < 0x33800000u) return (uint16_t)sign;   // below 2^-24: truncates to zero
  int e = (int)(af >> 23) - 127;
  uint32_t M = (af & 0x7fffffu) | 0x800000u;
  if (e >= -14) return (uint16_t)(sign | ((uint32_t)(e + 15) << 10) | ((M >> 13) & 0x3ffu));
  return (uint16_t)(sign | (M >> (13 + (-14 - e))));   // denormal f16, truncated
}
SFU_HD uint32_t sfu_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 31) return sign | 0x7f800000u | (m << 13);
  if (e) return sign | ((e + 112) << 23) | (m << 13);
  if (!m) return sign;
  int s = 0;
  while (!(m & 0x400u)) { m <<= 1; s++; }
  return sign | ((uint32_t)(113 - s) << 23) | ((m & 0x3ffu) << 13);
}
SFU_HD bool sfu_model16_has(int op) { return op == SFU_EX2_F16 || op == SFU_EX2_BF16; }
SFU_HD uint16_t sfu_model16(const SfuTables& T, int op, uint16_t x) {
  if (op == SFU_EX2_F16) return sfu_f32_to_f16_rz(sfu_ex2(T, sfu_f16_to_f32(x), true), true);
  if (op == SFU_EX2_BF16) {
    uint32_t r = sfu_ex2(T, (uint32_t)x << 16, true);
    return sfu_isnan(r) ? (uint16_t)0x7fff : (uint16_t)(r >> 16);
  }
  return 0x7fff;
}
