// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// C++ `volatile` pointers, which nvcc lowers to ld.volatile / st.volatile (PTX ISA 8.4.2 "volatile Operation": a
// relaxed access at system scope that is always performed, in order with the thread's other volatile accesses).
// Every value is deterministic on NVIDIA: each thread reads and writes only its own global elements, and shared
// memory is exchanged only across __syncthreads() or, inside a warp, __syncwarp() (defined on sm_70 and later).
//  1. global, each width: u8, u16, u32, u64, f32 and a float4 (.v4, inline PTX): read, write a function of the
//     value, read it back (a volatile read may not reuse the value just stored: it reads memory);
//  2. a block-wide f32 tree reduction through a volatile shared pointer, __syncthreads() between steps;
//  3. a warp-level u32 reduction through a volatile shared pointer, each warp on its own 32 words, read /
//     __syncwarp() / write / __syncwarp() per step (the race-free form for independent thread scheduling);
//  4. sub-word and 64-bit shared exchanges (u8, u16, u64) with a neighbour across __syncthreads();
//  5. a non-inlined function on a generic `volatile unsigned*`, called with a shared and a global address.
#define BLOCK 256

// A volatile float4 has no copy constructor in C++, so nvcc never emits a volatile vector access: inline PTX.
__device__ __forceinline__ float4 ldv4(const float4* p) {
  float4 v;
  asm volatile("ld.volatile.global.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void stv4(float4* p, float4 v) {
  asm volatile("st.volatile.global.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

__device__ __noinline__ unsigned bump(volatile unsigned* p, unsigned k) {
  unsigned v = *p;
  *p = v * 5u + k;
  return *p ^ v;
}

extern "C" __global__ void volatile_ldst(const unsigned* __restrict__ in, unsigned char* g8, unsigned short* g16,
                                         unsigned* g32, unsigned long long* g64, float* gf, float4* gv,
                                         unsigned* out, float* bsum, unsigned* wsum) {
  __shared__ float sf[BLOCK];
  __shared__ unsigned sw[BLOCK];
  __shared__ unsigned char s8[BLOCK];
  __shared__ unsigned short s16[BLOCK];
  __shared__ unsigned long long s64[BLOCK];
  __shared__ unsigned sg[BLOCK];
  unsigned t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  unsigned r = in[i];

  // 1. global volatile loads and stores of each width
  volatile unsigned char* v8 = g8;
  volatile unsigned short* v16 = g16;
  volatile unsigned* v32 = g32;
  volatile unsigned long long* v64 = g64;
  volatile float* vf = gf;
  unsigned char a8 = v8[i];
  v8[i] = (unsigned char)(a8 * 7u + 3u);
  unsigned char b8 = v8[i];
  unsigned short a16 = v16[i];
  v16[i] = (unsigned short)(a16 * 9u + r);
  unsigned short b16 = v16[i];
  unsigned a32 = v32[i];
  v32[i] = a32 * 0x9E3779B1u + r;
  unsigned b32 = v32[i];
  unsigned long long a64 = v64[i];
  v64[i] = a64 * 0xBF58476D1CE4E5B9ull + r;
  unsigned long long b64 = v64[i];
  float af = vf[i];
  vf[i] = af * 1.5f + 0.25f;
  float bf = vf[i];
  float4 av = ldv4(gv + i);
  stv4(gv + i, make_float4(av.y, av.z + 1.0f, av.w * 2.0f, av.x - 0.5f));
  float4 bv = ldv4(gv + i);
  out[i * 8 + 0] = a8 | (unsigned(b8) << 8) | (unsigned(b16) << 16);
  out[i * 8 + 1] = a16 | (unsigned(b16) << 16);
  out[i * 8 + 2] = a32 ^ b32;
  out[i * 8 + 3] = unsigned(b64 >> 32) ^ unsigned(a64);
  out[i * 8 + 4] = __float_as_uint(bf) ^ __float_as_uint(af);
  out[i * 8 + 5] = __float_as_uint(bv.x) ^ __float_as_uint(bv.y) ^ __float_as_uint(bv.z) ^ __float_as_uint(bv.w);

  // 2. block reduction through a volatile shared pointer
  volatile float* vsf = sf;
  vsf[t] = __uint_as_float((r & 0x807FFFFFu) | 0x3F000000u);  // +-[0.5, 1)
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) vsf[t] = vsf[t] + vsf[t + s];
    __syncthreads();
  }
  if (t == 0) bsum[blockIdx.x] = vsf[0];

  // 3. warp reduction through a volatile shared pointer, each warp on its own words
  volatile unsigned* vsw = sw + (t & ~31u);
  unsigned lane = t & 31u;
  vsw[lane] = r * (lane + 1u);
  __syncwarp();
  for (unsigned s = 16; s > 0; s >>= 1) {
    unsigned v = vsw[lane];
    if (lane < s) v += vsw[lane + s];
    __syncwarp();
    vsw[lane] = v;
    __syncwarp();
  }
  if (lane == 0) wsum[i >> 5] = vsw[0];

  // 4. sub-word and 64-bit shared exchanges with the neighbour
  volatile unsigned char* vs8 = s8;
  volatile unsigned short* vs16 = s16;
  volatile unsigned long long* vs64 = s64;
  vs8[t] = (unsigned char)(r >> 3);
  vs16[t] = (unsigned short)(r >> 7);
  vs64[t] = (unsigned long long)r * 0x100000001B3ull;
  __syncthreads();
  unsigned n = (t + 1) % BLOCK;
  out[i * 8 + 6] = vs8[n] | (unsigned(vs16[n]) << 8) ^ unsigned(vs64[n] >> 29);

  // 5. generic volatile accesses in a function (one shared, one global address)
  sg[t] = r ^ 0x5A5A5A5Au;
  __syncthreads();
  unsigned x = bump(&sg[n], t);
  x ^= bump(&g32[i], r);
  out[i * 8 + 7] = x;
}
