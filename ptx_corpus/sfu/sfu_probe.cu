// nvcc -O3 -std=c++17 -arch=sm_90 -o sfu_probe sfu_probe.cu   [-DSFU_MODEL_HEADER='"path/model.h"' for verify]
// (model.h: translator/emit/sfu_models.h, or sfu_models2.h, which includes it and adds lg2/sin/cos/tanh)
//
// Exhaustive probe of NVIDIA's approximate (SFU) instructions, for recovering bit-exact software models offline.
// It never writes anything large: every sweep over the 2^32 f32 inputs is summarised on the GPU (class histograms,
// relation checks with ulp-difference histograms, ftz/non-ftz differences), and only chosen 2^23-input slices
// (one exponent, one sign) are kept, delta+zigzag+varint encoded so that pack.py can compress them well.
//
//   sfu_probe collect RAWDIR     text summary on stdout, slices and 16-bit tables under RAWDIR
//   sfu_probe collect2 RAWDIR    only the extra slices of slice_plan2() (binades the first collection lacks)
//   sfu_probe verify TABLES.bin [TABLES2.bin]  (built with SFU_MODEL_HEADER) model vs hardware over all inputs,
//                                mismatch counts; TABLES2.bin (sfu_models2.h's tables) with the sfu_models2.h header
//
// Slice file format (RAWDIR/s32_<op>_<sign>_E<biased exponent>.dz): the outputs for inputs
// (sign<<31 | E<<23 | m), m = 0..2^23-1, as a stream of LEB128 varints of zigzag(out[m] - out[m-1]) (out[-1] = 0,
// differences taken mod 2^32 as int32). 16-bit tables (t16_<op>.bin): 65,536 little-endian u16, index = input bits.
// t16f32_<op32>_from_<f16|bf16>.bin: 65,536 u32, the f32 instruction applied to each 16-bit value converted to f32.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include "sfu_ops.h"

#ifdef SFU_MODEL_HEADER
#include SFU_MODEL_HEADER
#endif

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: CUDA error %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned long long u64;

// ---------------------------------------------------------------------------------------------------------------
// The instructions, each through inline PTX so that nvcc cannot substitute its own sequence.
template <int OP> __device__ __forceinline__ uint32_t hw32(uint32_t xb) {
  float x = __uint_as_float(xb), r;
  if constexpr (OP == RCP_FTZ) asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == RCP) asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == RSQRT_FTZ) asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == RSQRT) asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == SQRT_FTZ) asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == SQRT) asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == EX2_FTZ) asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == EX2) asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == LG2_FTZ) asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == LG2) asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == SIN_FTZ) asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == SIN) asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == COS_FTZ) asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == COS) asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  if constexpr (OP == TANH) asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return __float_as_uint(r);
}

template <int OP> __device__ __forceinline__ uint16_t hw16(uint16_t x) {
  uint16_t r;
  if constexpr (OP == EX2_F16) asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
  if constexpr (OP == EX2_BF16) asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(x));
  if constexpr (OP == TANH_F16) asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
  if constexpr (OP == TANH_BF16) asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x));
  return r;
}

template <int OP> __device__ __forceinline__ uint32_t hw16x2(uint32_t x) {
  uint32_t r;
  if constexpr (OP == EX2_F16) asm("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x));
  if constexpr (OP == EX2_BF16) asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r) : "r"(x));
  if constexpr (OP == TANH_F16) asm("tanh.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x));
  if constexpr (OP == TANH_BF16) asm("tanh.approx.bf16x2 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers.
// Class of an f32: sign*5 + {0 zero, 1 denormal, 2 normal, 3 inf, 4 NaN}.
__host__ __device__ inline int cls32(uint32_t b) {
  uint32_t e = (b >> 23) & 0xff, m = b & 0x7fffff;
  int c = e == 0 ? (m ? 1 : 0) : e == 255 ? (m ? 4 : 3) : 2;
  return (int)(b >> 31) * 5 + c;
}
static const char* kCls[10] = {"+0", "+den", "+norm", "+inf", "+nan", "-0", "-den", "-norm", "-inf", "-nan"};

constexpr uint32_t kSkip = 0xffffffffu;  // "no expectation" (never a result we compare: it is a NaN pattern)
// bits * 2^k when both bits and the result are normal, else kSkip.
__device__ inline uint32_t scale_bits(uint32_t b, int k) {
  int e = (int)((b >> 23) & 0xff);
  if (e == 0 || e == 255) return kSkip;
  int ne = e + k;
  if (ne < 1 || ne > 254) return kSkip;
  return (b & 0x807fffffu) | ((uint32_t)ne << 23);
}

// Example recorder: up to kEx (input, got, expected) triples per launch.
constexpr int kEx = 12;
struct Examples { unsigned n; uint32_t v[kEx][3]; };
__device__ inline void record(Examples* ex, uint32_t a, uint32_t b, uint32_t c) {
  unsigned i = atomicAdd(&ex->n, 1u);
  if (i < kEx) { ex->v[i][0] = a; ex->v[i][1] = b; ex->v[i][2] = c; }
}

static int g_blocks = 132 * 16;
constexpr int kThreads = 256;
constexpr u64 kAll = 1ull << 32;

// ---------------------------------------------------------------------------------------------------------------
// Sweep 1: input class x output class histogram, and what NaN outputs look like.
struct ClassStats {
  u64 hist[10][10];
  u64 nan_out_canonical;   // out == 0x7fffffff
  u64 nan_in_same;         // NaN input, out == in
  u64 nan_in_quieted;      // NaN input, out == in | 0x400000 (and in was signalling)
  u64 nan_out_other;       // any other NaN output
  Examples other;          // examples of the latter
};

template <int OP> __global__ void k_classify(ClassStats* st) {
  __shared__ unsigned long long h[100];
  for (int i = threadIdx.x; i < 100; i += blockDim.x) h[i] = 0;
  __syncthreads();
  u64 canon = 0, same = 0, quiet = 0, other = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, r = hw32<OP>(x);
    int ci = cls32(x), co = cls32(r);
    atomicAdd(&h[ci * 10 + co], 1ull);
    if (co % 5 == 4) {
      if (r == 0x7fffffffu) canon++;
      else if (ci % 5 == 4 && r == x) same++;
      else if (ci % 5 == 4 && r == (x | 0x400000u) && !(x & 0x400000u)) quiet++;
      else { other++; record(&st->other, x, r, 0); }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 100; i += blockDim.x) atomicAdd(&st->hist[i / 10][i % 10], h[i]);
  atomicAdd(&st->nan_out_canonical, canon); atomicAdd(&st->nan_in_same, same);
  atomicAdd(&st->nan_in_quieted, quiet); atomicAdd(&st->nan_out_other, other);
}

// ---------------------------------------------------------------------------------------------------------------
// Sweep 2: a relation the hardware might satisfy, e.g. rcp(m * 2^e) == rcp(m) * 2^-e. Result: histogram of
// (int32)(hw(x) - expected(x)) clamped to [-8, 8] (bins 0..16), bin 17 = skipped (no expectation).
struct RelStats { u64 bins[18]; Examples ex; };

template <int OP> __device__ uint32_t expected_rel(uint32_t x) {
  uint32_t E = (x >> 23) & 0xff;
  if constexpr (OP == RCP || OP == RCP_FTZ) {
    if (E == 0 || E == 255) return kSkip;
    uint32_t xc = (x & 0x807fffffu) | (127u << 23);
    return scale_bits(hw32<OP>(xc), -((int)E - 127));
  } else if constexpr (OP == RSQRT || OP == RSQRT_FTZ || OP == SQRT || OP == SQRT_FTZ) {
    if (E == 0 || E == 255 || (x >> 31)) return kSkip;
    int e = (int)E - 127, par = e & 1, k = (e - par) / 2;   // x = m * 2^par * 4^k, m in [1,2)
    uint32_t xc = (x & 0x7fffffu) | ((uint32_t)(127 + par) << 23);
    return scale_bits(hw32<OP>(xc), (OP == SQRT || OP == SQRT_FTZ) ? k : -k);
  } else if constexpr (OP == EX2 || OP == EX2_FTZ) {
    float f = __uint_as_float(x);
    if (!(fabsf(f) >= 1.0f && fabsf(f) < 128.0f)) return kSkip;
    float n = floorf(f), fr = f - n;                       // exact: fr has at least x's precision
    return scale_bits(hw32<OP>(__float_as_uint(fr)), (int)n);
  } else if constexpr (OP == LG2 || OP == LG2_FTZ) {
    // lg2(m * 2^e) against e + lg2(m) rounded to nearest in f32 (a fixed-point adder would round differently).
    if (E == 0 || E == 255 || E == 127 || (x >> 31)) return kSkip;
    uint32_t xc = (x & 0x7fffffu) | (127u << 23);
    return __float_as_uint((float)((double)((int)E - 127) + (double)__uint_as_float(hw32<OP>(xc))));
  } else if constexpr (OP == SIN || OP == SIN_FTZ || OP == TANH) {
    if (!(x >> 31)) return kSkip;                          // odd: hw(-x) == -hw(x)
    uint32_t r = hw32<OP>(x & 0x7fffffffu);
    return cls32(r) % 5 == 4 ? kSkip : r ^ 0x80000000u;
  } else {                                                 // cos: even
    if (!(x >> 31)) return kSkip;
    return hw32<OP>(x & 0x7fffffffu);
  }
}

template <int OP> __global__ void k_relation(RelStats* st) {
  __shared__ unsigned long long h[18];
  if (threadIdx.x < 18) h[threadIdx.x] = 0;
  __syncthreads();
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, e = expected_rel<OP>(x);
    if (e == kSkip) { atomicAdd(&h[17], 1ull); continue; }
    uint32_t r = hw32<OP>(x);
    int d = (int)(r - e);
    d = d < -8 ? -8 : d > 8 ? 8 : d;
    atomicAdd(&h[d + 8], 1ull);
    if (d != 0) record(&st->ex, x, r, e);
  }
  __syncthreads();
  if (threadIdx.x < 18) atomicAdd(&st->bins[threadIdx.x], h[threadIdx.x]);
}

// ---------------------------------------------------------------------------------------------------------------
// Sweep 3: ftz form against the non-ftz form: counts of differing results by input class.
struct PairStats { u64 differ[10]; u64 same[10]; Examples ex; };

template <int A, int B> __global__ void k_pair(PairStats* st) {
  __shared__ unsigned long long d[10], s[10];
  if (threadIdx.x < 10) d[threadIdx.x] = s[threadIdx.x] = 0;
  __syncthreads();
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, a = hw32<A>(x), b = hw32<B>(x);
    if (a != b) { atomicAdd(&d[cls32(x)], 1ull); record(&st->ex, x, a, b); }
    else atomicAdd(&s[cls32(x)], 1ull);
  }
  __syncthreads();
  if (threadIdx.x < 10) { atomicAdd(&st->differ[threadIdx.x], d[threadIdx.x]); atomicAdd(&st->same[threadIdx.x], s[threadIdx.x]); }
}

// ---------------------------------------------------------------------------------------------------------------
// Slices and lists: results for given inputs.
template <int OP> __global__ void k_slice(uint32_t start, uint32_t n, uint32_t* out) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = hw32<OP>(start + i);
}
template <int OP> __global__ void k_list(const uint32_t* in, uint32_t n, uint32_t* out) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = hw32<OP>(in[i]);
}
template <int OP> __global__ void k_table16(uint16_t* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 65536) out[i] = hw16<OP>((uint16_t)i);
}
// Every (lo, hi) pair through the x2 form against the scalar table.
template <int OP> __global__ void k_x2(const uint16_t* tbl, u64* mism, Examples* ex) {
  u64 m = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, r = hw16x2<OP>(x);
    uint32_t e = (uint32_t)__ldg(&tbl[x & 0xffff]) | ((uint32_t)__ldg(&tbl[x >> 16]) << 16);
    if (r != e) { m++; record(ex, x, r, e); }
  }
  atomicAdd(mism, m);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.
template <class T> struct Dev {
  T* p = nullptr;
  explicit Dev(size_t n = 1) { CK(cudaMalloc(&p, n * sizeof(T))); CK(cudaMemset(p, 0, n * sizeof(T))); }
  ~Dev() { cudaFree(p); }
  T get() { T v; CK(cudaDeviceSynchronize()); CK(cudaMemcpy(&v, p, sizeof(T), cudaMemcpyDeviceToHost)); return v; }
};

static void print_examples(const Examples& e, const char* what) {
  unsigned n = e.n < kEx ? e.n : kEx;
  for (unsigned i = 0; i < n; i++)
    printf("    ex %s: in %08x (%.9g) got %08x (%.9g) vs %08x (%.9g)\n", what, e.v[i][0],
           (double)*(const float*)&e.v[i][0], e.v[i][1], (double)*(const float*)&e.v[i][1], e.v[i][2],
           (double)*(const float*)&e.v[i][2]);
}

// Instantiates F<OP> for a runtime op id.
#define DISPATCH32(op, CALL)                                                                            \
  switch (op) {                                                                                         \
    case RCP_FTZ: CALL(RCP_FTZ); break; case RCP: CALL(RCP); break; case RSQRT_FTZ: CALL(RSQRT_FTZ); break; \
    case RSQRT: CALL(RSQRT); break; case SQRT_FTZ: CALL(SQRT_FTZ); break; case SQRT: CALL(SQRT); break;      \
    case EX2_FTZ: CALL(EX2_FTZ); break; case EX2: CALL(EX2); break; case LG2_FTZ: CALL(LG2_FTZ); break;      \
    case LG2: CALL(LG2); break; case SIN_FTZ: CALL(SIN_FTZ); break; case SIN: CALL(SIN); break;              \
    case COS_FTZ: CALL(COS_FTZ); break; case COS: CALL(COS); break; case TANH: CALL(TANH); break;            \
    default: break;                                                                                     \
  }
#define DISPATCH16(op, CALL)                                                                            \
  switch (op) {                                                                                         \
    case EX2_F16: CALL(EX2_F16); break; case EX2_BF16: CALL(EX2_BF16); break;                          \
    case TANH_F16: CALL(TANH_F16); break; case TANH_BF16: CALL(TANH_BF16); break; default: break;      \
  }

static void classify(int op) {
  Dev<ClassStats> st;
#define L(O) k_classify<O><<<g_blocks, kThreads>>>(st.p)
  DISPATCH32(op, L)
#undef L
  ClassStats s = st.get();
  printf("  class histogram (input class -> output class: count)\n");
  for (int i = 0; i < 10; i++) {
    printf("    %-6s:", kCls[i]);
    for (int o = 0; o < 10; o++) if (s.hist[i][o]) printf(" %s=%llu", kCls[o], s.hist[i][o]);
    printf("\n");
  }
  printf("  NaN outputs: canonical 7fffffff=%llu, input NaN kept=%llu, input sNaN quieted=%llu, other=%llu\n",
         s.nan_out_canonical, s.nan_in_same, s.nan_in_quieted, s.nan_out_other);
  print_examples(s.other, "nan-other");
}

static const char* relation_text(int op) {
  switch (op) {
    case RCP: case RCP_FTZ: return "hw(m*2^e) == hw(m)*2^-e, m in [1,2)";
    case RSQRT: case RSQRT_FTZ: return "hw(m*2^p*4^k) == hw(m*2^p)*2^-k, p in {0,1}, x > 0";
    case SQRT: case SQRT_FTZ: return "hw(m*2^p*4^k) == hw(m*2^p)*2^k, p in {0,1}, x > 0";
    case EX2: case EX2_FTZ: return "hw(n+f) == hw(f)*2^n, n = floor(x), 1 <= |x| < 128";
    case LG2: case LG2_FTZ: return "hw(m*2^e) == RN_f32(e + hw(m)), e != 0, x > 0 normal";
    case COS: case COS_FTZ: return "hw(-x) == hw(x)";
    default: return "hw(-x) == -hw(x)";
  }
}

static void relation(int op) {
  Dev<RelStats> st;
#define L(O) k_relation<O><<<g_blocks, kThreads>>>(st.p)
  DISPATCH32(op, L)
#undef L
  RelStats s = st.get();
  printf("  relation %s: skipped=%llu, diff(hw - expected, ulp):", relation_text(op), s.bins[17]);
  for (int i = 0; i < 17; i++) if (s.bins[i]) printf(" %s%d=%llu", i == 0 ? "<=" : i == 16 ? ">=" : "", i - 8, s.bins[i]);
  printf("\n");
  print_examples(s.ex, "relation");
}

static void pair(int a, int b) {
  Dev<PairStats> st;
  switch (a) {
    case RCP_FTZ: k_pair<RCP_FTZ, RCP><<<g_blocks, kThreads>>>(st.p); break;
    case RSQRT_FTZ: k_pair<RSQRT_FTZ, RSQRT><<<g_blocks, kThreads>>>(st.p); break;
    case SQRT_FTZ: k_pair<SQRT_FTZ, SQRT><<<g_blocks, kThreads>>>(st.p); break;
    case EX2_FTZ: k_pair<EX2_FTZ, EX2><<<g_blocks, kThreads>>>(st.p); break;
    case LG2_FTZ: k_pair<LG2_FTZ, LG2><<<g_blocks, kThreads>>>(st.p); break;
    case SIN_FTZ: k_pair<SIN_FTZ, SIN><<<g_blocks, kThreads>>>(st.p); break;
    case COS_FTZ: k_pair<COS_FTZ, COS><<<g_blocks, kThreads>>>(st.p); break;
  }
  PairStats s = st.get();
  printf("%s vs %s: differing results by input class:", kOp32Name[a], kOp32Name[b]);
  for (int i = 0; i < 10; i++) if (s.differ[i]) printf(" %s=%llu", kCls[i], s.differ[i]);
  printf("\n");
  print_examples(s.ex, "ftz(got) vs non-ftz(expected)");
}

static const uint32_t kSpecial[] = {
  0x00000000, 0x80000000, 0x00000001, 0x00000002, 0x00400000, 0x007fffff, 0x80000001, 0x807fffff, 0x00800000,
  0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x40000000, 0x3f000000, 0x40400000,
  0x40800000, 0xc0000000, 0x42fe0000, 0x42ffffff, 0x43000000, 0xc2fc0000, 0xc2fe0000, 0xc3000000, 0xc3150000,
  0xc3160000, 0xc3170000, 0x7f7fffff, 0xff7fffff, 0x7e800000, 0x7f000000, 0x7f800000, 0xff800000, 0x7fc00000,
  0xffc00000, 0x7f800001, 0x7fa00000, 0x7fffffff, 0xffffffff, 0x40490fdb, 0x40c90fdb, 0x3fc90fdb, 0x43c90fdb,
  0x47c35000, 0x4b800000, 0x4e6e6b28, 0x501502f9, 0x5a0e1bca, 0x3a800000, 0x33800000, 0x2f800000, 0x41100000,
  0x41200000, 0x40a00000};

static void specials(int op) {
  const uint32_t n = sizeof(kSpecial) / sizeof(kSpecial[0]);
  Dev<uint32_t> in(n), out(n);
  CK(cudaMemcpy(in.p, kSpecial, sizeof(kSpecial), cudaMemcpyHostToDevice));
#define L(O) k_list<O><<<1, 64>>>(in.p, n, out.p)
  DISPATCH32(op, L)
#undef L
  std::vector<uint32_t> r(n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(r.data(), out.p, n * 4, cudaMemcpyDeviceToHost));
  printf("  specials (in -> out):");
  for (uint32_t i = 0; i < n; i++) {
    if (i % 4 == 0) printf("\n   ");
    float a, b; memcpy(&a, &kSpecial[i], 4); memcpy(&b, &r[i], 4);
    printf("  %08x(%.6g)->%08x(%.9g)", kSpecial[i], (double)a, r[i], (double)b);
  }
  printf("\n");
}

static void write_file(const std::string& path, const void* p, size_t n) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(p, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
  fclose(f);
}

// One 2^23-input slice (sign, biased exponent E), delta-zigzag-varint encoded.
static void slice(const std::string& dir, int op, int sign, int E, uint32_t* dbuf, std::vector<uint32_t>& h) {
  const uint32_t n = 1u << 23, start = ((uint32_t)sign << 31) | ((uint32_t)E << 23);
#define L(O) k_slice<O><<<g_blocks, kThreads>>>(start, n, dbuf)
  DISPATCH32(op, L)
#undef L
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), dbuf, n * 4, cudaMemcpyDeviceToHost));
  std::vector<uint8_t> enc;
  enc.reserve(n * 2);
  uint32_t prev = 0;
  for (uint32_t i = 0; i < n; i++) {
    int32_t d = (int32_t)(h[i] - prev);
    prev = h[i];
    uint32_t z = ((uint32_t)d << 1) ^ (uint32_t)(d >> 31);
    do { uint8_t b = z & 0x7f; z >>= 7; enc.push_back(b | (z ? 0x80 : 0)); } while (z);
  }
  char name[160];
  snprintf(name, sizeof name, "%s/s32_%s_%c_E%03d.dz", dir.c_str(), kOp32Name[op], sign ? 'n' : 'p', E);
  write_file(name, enc.data(), enc.size());
}

// Which slices to keep, most important first (pack.py drops from the end if the size budget is exceeded).
struct SliceSpec { int op, sign, E; };
static std::vector<SliceSpec> slice_plan() {
  std::vector<SliceSpec> v;
  auto add = [&](int op, int sign, int e) { v.push_back({op, sign, e + 127}); };
  add(RCP_FTZ, 0, 0); add(RSQRT_FTZ, 0, 0); add(RSQRT_FTZ, 0, 1); add(SQRT_FTZ, 0, 0); add(SQRT_FTZ, 0, 1);
  for (int e = -1; e <= 1; e++) { add(EX2_FTZ, 0, e); add(EX2_FTZ, 1, e); }
  add(LG2_FTZ, 0, -1); add(LG2_FTZ, 0, 0); add(LG2_FTZ, 0, 1);
  for (int e = -1; e <= 1; e++) { add(SIN_FTZ, 0, e); add(COS_FTZ, 0, e); }
  for (int e = -2; e <= 2; e++) add(TANH, 0, e);
  // Denormal inputs of the non-ftz forms (E = 0 after the +127 below: pass e = -127).
  for (int op : {RCP, RSQRT, SQRT, LG2, SIN, COS}) add(op, 0, -127);
  for (int e : {2, 3, 4, 5, 6}) { add(EX2_FTZ, 0, e); add(EX2_FTZ, 1, e); }
  for (int e : {2, 3}) { add(SIN_FTZ, 0, e); add(COS_FTZ, 0, e); }
  add(TANH, 0, 3); add(TANH, 0, -3); add(TANH, 0, -4); add(TANH, 0, -6); add(TANH, 0, -10); add(TANH, 0, -20);
  for (int e : {-2, -3, -4, -6, -8, -12, -16, -20, -24}) { add(EX2_FTZ, 0, e); add(EX2_FTZ, 1, e); }
  for (int e : {-2, -3, -4, -6, -8, -12, -16, -20, -24}) { add(SIN_FTZ, 0, e); add(COS_FTZ, 0, e); }
  for (int e : {-126, -100, -64, -20, -10, -5, -3, -2, 2, 3, 5, 10, 20, 64, 100, 127}) add(LG2_FTZ, 0, e);
  for (int e : {4, 8, 16, 24, 40, 64, 100, 126}) { add(SIN_FTZ, 0, e); add(COS_FTZ, 0, e); }
  add(RCP, 0, 126); add(RCP, 0, 127); add(EX2, 1, 6); add(EX2, 1, 7);
  add(RCP_FTZ, 0, 126); add(RCP_FTZ, 0, 127);
  return v;
}

// Extra slices (run.sh collect2 -> sfu_data_2.tar): the tanh binades [2^-9, 2^-7) and [2^-5, 2^-4) that the
// first collection did not keep (sfu_models2.h models them from the f16/bf16 points only until these exist).
static std::vector<SliceSpec> slice_plan2() {
  std::vector<SliceSpec> v;
  for (int e : {-7, -8, -5, -9}) v.push_back({TANH, 0, e + 127});
  return v;
}

static void collect2(const std::string& dir) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  g_blocks = p.multiProcessorCount * 16;
  printf("device: %s (sm_%d%d), extra slices\n", p.name, p.major, p.minor);
  Dev<uint32_t> dbuf(1u << 23);
  std::vector<uint32_t> h(1u << 23);
  std::vector<SliceSpec> plan = slice_plan2();
  FILE* order = fopen((dir + "/slice_order.txt").c_str(), "w");
  for (const SliceSpec& s : plan) {
    slice(dir, s.op, s.sign, s.E, dbuf.p, h);
    fprintf(order, "s32_%s_%c_E%03d.dz\n", kOp32Name[s.op], s.sign ? 'n' : 'p', s.E);
  }
  fclose(order);
  printf("%zu slices written\n", plan.size());
}

static void collect(const std::string& dir) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  g_blocks = p.multiProcessorCount * 16;
  printf("device: %s (sm_%d%d), driver/runtime: ", p.name, p.major, p.minor);
  int dv = 0, rv = 0; cudaDriverGetVersion(&dv); cudaRuntimeGetVersion(&rv);
  printf("%d/%d\n", dv, rv);
  for (int op = 0; op < NUM_OP32; op++) {
    printf("== %s\n", kOp32Name[op]);
    specials(op);
    classify(op);
    relation(op);
    fflush(stdout);
  }
  printf("== ftz vs non-ftz\n");
  for (int a : {RCP_FTZ, RSQRT_FTZ, SQRT_FTZ, EX2_FTZ, LG2_FTZ, SIN_FTZ, COS_FTZ}) pair(a, a + 1);  // each non-ftz form follows its ftz form
  fflush(stdout);

  // 16-bit tables, x2 lane checks, and the f32 forms on the same values.
  printf("== 16-bit forms\n");
  Dev<uint16_t> t16(65536);
  std::vector<uint16_t> h16(65536);
  for (int op = 0; op < NUM_OP16; op++) {
#define L(O) k_table16<O><<<256, 256>>>(t16.p)
    DISPATCH16(op, L)
#undef L
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h16.data(), t16.p, 65536 * 2, cudaMemcpyDeviceToHost));
    write_file(dir + "/t16_" + kOp16Name[op] + ".bin", h16.data(), 65536 * 2);
    Dev<u64> mism; Dev<Examples> ex;
#define L(O) k_x2<O><<<g_blocks, kThreads>>>(t16.p, mism.p, ex.p)
    DISPATCH16(op, L)
#undef L
    u64 m = mism.get();
    printf("%s: x2 form over all 2^32 lane pairs vs scalar table: %llu differing\n", kOp16Name[op], m);
    print_examples(ex.get(), "x2");
  }
  {
    std::vector<uint32_t> in(65536), out(65536);
    Dev<uint32_t> din(65536), dout(65536);
    for (int kind = 0; kind < 2; kind++) {
      for (uint32_t i = 0; i < 65536; i++) {
        if (kind == 0) { float f = __half2float(__ushort_as_half((unsigned short)i)); memcpy(&in[i], &f, 4); }
        else in[i] = i << 16;
      }
      CK(cudaMemcpy(din.p, in.data(), 65536 * 4, cudaMemcpyHostToDevice));
      for (int op : {EX2_FTZ, EX2, TANH}) {
#define L(O) k_list<O><<<256, 256>>>(din.p, 65536, dout.p)
        DISPATCH32(op, L)
#undef L
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(out.data(), dout.p, 65536 * 4, cudaMemcpyDeviceToHost));
        write_file(dir + "/t16f32_" + kOp32Name[op] + (kind ? "_from_bf16.bin" : "_from_f16.bin"), out.data(), 65536 * 4);
      }
    }
  }

  printf("== slices\n");
  fflush(stdout);
  Dev<uint32_t> dbuf(1u << 23);
  std::vector<uint32_t> h(1u << 23);
  std::vector<SliceSpec> plan = slice_plan();
  FILE* order = fopen((dir + "/slice_order.txt").c_str(), "w");
  for (const SliceSpec& s : plan) {
    slice(dir, s.op, s.sign, s.E, dbuf.p, h);
    fprintf(order, "s32_%s_%c_E%03d.dz\n", kOp32Name[s.op], s.sign ? 'n' : 'p', s.E);
  }
  fclose(order);
  printf("%zu slices written\n", plan.size());
}

// ---------------------------------------------------------------------------------------------------------------
// Verification of the models (translator/emit/sfu_models.h with the tables translator/sfu/tables/sfu_tables.bin):
// every input of every modelled instruction through the hardware and the model; prints mismatch counts and
// examples. Built with -DSFU_MODEL_HEADER (run.sh verify does it).
#ifdef SFU_MODEL_HEADER
#ifdef SFU_MODELS2
// sfu_models2.h: both table sets, every modelled instruction (rcp/rsqrt/sqrt/ex2 and lg2/sin/cos/tanh).
typedef SfuAllTables ModelTables;
#define MODEL32_HAS sfu_model32_has_all
#define MODEL32 sfu_model32_all
#define MODEL16_HAS sfu_model16_has_all
#define MODEL16 sfu_model16_all
#else
typedef SfuTables ModelTables;
#define MODEL32_HAS sfu_model32_has
#define MODEL32 sfu_model32
#define MODEL16_HAS sfu_model16_has
#define MODEL16 sfu_model16
#endif
struct VerStats { u64 mism; u64 bins[17]; Examples ex; };
template <int OP> __global__ void k_verify32(VerStats* st, ModelTables T) {
  u64 m = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, r = hw32<OP>(x), e = MODEL32(T, OP, x);
    if (r != e) {
      m++;
      int d = (int)(r - e);
      d = d < -8 ? -8 : d > 8 ? 8 : d;
      atomicAdd(&st->bins[d + 8], 1ull);
      record(&st->ex, x, r, e);
    }
  }
  atomicAdd(&st->mism, m);
}
template <int OP> __global__ void k_verify16(VerStats* st, ModelTables T) {
  uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= 65536) return;
  uint16_t r = hw16<OP>((uint16_t)x), e = MODEL16(T, OP, (uint16_t)x);
  if (r != e) { atomicAdd(&st->mism, 1ull); record(&st->ex, x, r, e); }
}
// The same x2 check as collect, against the model: every (lo, hi) pair.
template <int OP> __global__ void k_verify16x2(VerStats* st, ModelTables T) {
  u64 m = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < kAll; i += (u64)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i, r = hw16x2<OP>(x);
    uint32_t e = (uint32_t)MODEL16(T, OP, (uint16_t)(x & 0xffff)) | ((uint32_t)MODEL16(T, OP, (uint16_t)(x >> 16)) << 16);
    if (r != e) { m++; record(&st->ex, x, r, e); }
  }
  atomicAdd(&st->mism, m);
}

static std::vector<uint8_t> read_blob(const char* path) {
  std::vector<uint8_t> blob;
  FILE* f = fopen(path, "rb");
  if (!f) return blob;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) blob.insert(blob.end(), buf, buf + n);
  fclose(f);
  return blob;
}
// Device copy of a host blob; p points into `host`, the result to the same offset in the device copy.
template <class T> static const T* rebase(const T* p, const std::vector<uint8_t>& host, uint8_t* dev) {
  return p ? (const T*)(dev + ((const uint8_t*)p - host.data())) : nullptr;
}

static int verify(const char* tablesPath, const char* tables2Path) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  g_blocks = p.multiProcessorCount * 16;
  // The all-model kernels (sfu_models2.h) inline every model; non-ftz ex2 recurses once: the default 1 KiB stack
  // overflowed there (illegal address in ex2.approx.f32, H200, 2026-11-30).
  CK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
  std::vector<uint8_t> blob = read_blob(tablesPath);
  SfuTables H, D;
  if (!sfu_load_tables(blob.data(), blob.size(), &H)) { fprintf(stderr, "bad tables %s\n", tablesPath); return 2; }
  uint8_t* dblob;
  CK(cudaMalloc(&dblob, blob.size()));
  CK(cudaMemcpy(dblob, blob.data(), blob.size(), cudaMemcpyHostToDevice));
  D = H;   // same layout, pointers rebased into the device copy
  for (int t = 0; t < SFU_T_NUM; t++) {
    D.t[t].coef = rebase(H.t[t].coef, blob, dblob);
    D.t[t].exc = rebase(H.t[t].exc, blob, dblob);
  }
#ifdef SFU_MODELS2
  std::vector<uint8_t> blob2 = tables2Path ? read_blob(tables2Path) : std::vector<uint8_t>();
  SfuTables2 H2, D2;
  if (!sfu_load_tables2(blob2.data(), blob2.size(), &H2)) {
    fprintf(stderr, "bad tables %s\n", tables2Path ? tables2Path : "(TABLES2.bin missing)");
    return 2;
  }
  uint8_t* dblob2;
  CK(cudaMalloc(&dblob2, blob2.size()));
  CK(cudaMemcpy(dblob2, blob2.data(), blob2.size(), cudaMemcpyHostToDevice));
  D2 = H2;
  for (int t = 0; t < SFU_T2_NUM; t++) {
    D2.t[t].coef = rebase(H2.t[t].coef, blob2, dblob2);
    D2.t[t].resid = rebase(H2.t[t].resid, blob2, dblob2);
    D2.t[t].exc = rebase(H2.t[t].exc, blob2, dblob2);
    D2.t[t].full = rebase(H2.t[t].full, blob2, dblob2);
  }
  ModelTables DM;
  DM.t1 = D;
  DM.t2 = D2;
  printf("verify %s with %s and %s on %s\n", SFU_MODEL_HEADER, tablesPath, tables2Path, p.name);
#else
  (void)tables2Path;
  ModelTables DM = D;
  printf("verify %s with %s on %s\n", SFU_MODEL_HEADER, tablesPath, p.name);
#endif
  int bad = 0;
  for (int op = 0; op < NUM_OP32; op++) {
    if (!MODEL32_HAS(op)) { printf("%-22s not modelled\n", kOp32Name[op]); continue; }
    Dev<VerStats> st;
#define L(O) k_verify32<O><<<g_blocks, kThreads>>>(st.p, DM)
    DISPATCH32(op, L)
#undef L
    VerStats s = st.get();
    printf("%-22s %llu of 4294967296 differ;", kOp32Name[op], s.mism);
    for (int i = 0; i < 17; i++) if (s.bins[i]) printf(" %d:%llu", i - 8, s.bins[i]);
    printf("\n");
    print_examples(s.ex, "hw(got) vs model(expected)");
    bad |= s.mism != 0;
    fflush(stdout);
  }
  for (int op = 0; op < NUM_OP16; op++) {
    if (!MODEL16_HAS(op)) { printf("%-22s not modelled\n", kOp16Name[op]); continue; }
    Dev<VerStats> st, st2;
#define L(O) k_verify16<O><<<256, 256>>>(st.p, DM); k_verify16x2<O><<<g_blocks, kThreads>>>(st2.p, DM)
    DISPATCH16(op, L)
#undef L
    VerStats s = st.get(), s2 = st2.get();
    printf("%-22s %llu of 65536 differ; x2 form: %llu of 4294967296 pairs differ\n", kOp16Name[op], s.mism, s2.mism);
    print_examples(s.ex, "hw(got) vs model(expected)");
    bad |= s.mism != 0 || s2.mism != 0;
  }
  cudaFree(dblob);
#ifdef SFU_MODELS2
  cudaFree(dblob2);
#endif
  printf("%s\n", bad ? "MISMATCHES" : "all modelled instructions identical over all inputs");
  return bad;
}
#endif

int main(int argc, char** argv) {
  if (argc >= 3 && !strcmp(argv[1], "collect")) { collect(argv[2]); return 0; }
  if (argc >= 3 && !strcmp(argv[1], "collect2")) { collect2(argv[2]); return 0; }
#ifdef SFU_MODEL_HEADER
  if (argc >= 3 && !strcmp(argv[1], "verify")) return verify(argv[2], argc >= 4 ? argv[3] : nullptr);
#endif
  fprintf(stderr, "usage: sfu_probe collect RAWDIR | sfu_probe collect2 RAWDIR | sfu_probe verify TABLES.bin "
                  "[TABLES2.bin] (build with -DSFU_MODEL_HEADER)\n");
  return 2;
}
