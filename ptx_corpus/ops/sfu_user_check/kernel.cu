// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// The "new user" check of issue 4, f32 forms: ordinary CUDA calling NVIDIA's SFU approximations through inline PTX,
// one output per instruction form (the 16-bit forms are in ops/sfu_user_check_f16). Inputs are made in the kernel
// from the thread index with an integer hash (the only float operations are an int -> f32 conversion of |k| < 2^25
// and an exact scaling by a power of two), so they are the same bytes on every device:
//   thread i of 65,536: i < 64 a table of special operands; otherwise by i % 4: random bit patterns
//   (NaNs with payloads, infinities, denormals), k * 2^-20 in [-20, 20], positive values with exponents in
//   [2^-10, 2^11) (about [1e-3, 1e3]), k * 2^-16 in [-160, 160] (ex2's underflow range, tanh saturation).
// PTX forms (PTX ISA): ex2.approx{.ftz}.f32, lg2/rsqrt/rcp/sqrt/sin/cos .approx{.ftz}.f32 and tanh.approx.f32
// (no .ftz form, sm_75).
#include <stdint.h>

__device__ __forceinline__ uint32_t mix32(uint32_t x) {  // lowbias32 (C. Wellons): a bijection on 32 bits
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Special operands: signed zeros, infinities, NaNs (quiet, signalling, with payloads), the smallest and largest
// denormals and normals, 1, 2, 0.5, 4 and their neighbours, +-128, 127, -126, -127, -149, -150, -151 (ex2's overflow
// and denormal-result edges), +-2^-23 and their neighbours (ex2's fixed point), pi, -pi, pi/2, 2pi, 2^23, 2^24, 1e5,
// 1e6, +-9, 10, 1e-2, 1e-3, 1e3, 1/16, 16, denormals 2^-127, 2^-128, 2^-141, -2^-127, 2^-125, 2^126, 2^127, 1/4.
__constant__ uint32_t kSpecial[64] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffbfffffu,
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu,
    0x3f800000u, 0xbf800000u, 0x40000000u, 0xc0000000u, 0x3f000000u, 0xbf000000u, 0x40800000u, 0x3f7fffffu,
    0x3f800001u, 0x3fffffffu, 0x407fffffu, 0x43000000u, 0xc3000000u, 0x42fe0000u, 0xc2fc0000u, 0xc2fe0000u,
    0xc3160000u, 0xc3150000u, 0xc3170000u, 0x42ffffffu, 0x34000000u, 0xb4000000u, 0x33ffffffu, 0xb3ffffffu,
    0x40490fdbu, 0xc0490fdbu, 0x3fc90fdbu, 0x40c90fdbu, 0x4b000000u, 0x4b800000u, 0x47c35000u, 0x49742400u,
    0x41100000u, 0xc1100000u, 0x41200000u, 0x3c23d70au, 0x3a83126fu, 0x447a0000u, 0x3d800000u, 0x41800000u,
    0x00400000u, 0x00200000u, 0x00000100u, 0x80400000u, 0x01000000u, 0x7e800000u, 0x7f000000u, 0x3e800000u};

__device__ __forceinline__ uint32_t f32_input(uint32_t i) {
  if (i < 64) return kSpecial[i];
  uint32_t h = mix32(i * 0x9e3779b9u + 0x5f1u);
  switch (i & 3) {
    case 0: return h;                                                              // any bit pattern
    case 1: {                                                                      // [-20, 20], step 2^-20
      int32_t k = (int32_t)(h % 41943041u) - 20971520;
      return __float_as_uint(__int2float_rn(k) * 0x1p-20f);
    }
    case 2: return (((h >> 27) % 21u + 117u) << 23) | (h & 0x7fffffu);             // [2^-10, 2^11)
    default: {                                                                     // [-160, 160], step 2^-16
      int32_t k = (int32_t)(h % 20971521u) - 10485760;
      return __float_as_uint(__int2float_rn(k) * 0x1p-16f);
    }
  }
}

#define F32(name, instr) \
  { float r; asm(instr " %0, %1;" : "=f"(r) : "f"(x)); name[i] = __float_as_uint(r); }

extern "C" __global__ void sfu_user_check(
    uint32_t* __restrict__ ex2_f32, uint32_t* __restrict__ ex2_ftz_f32, uint32_t* __restrict__ lg2_f32,
    uint32_t* __restrict__ lg2_ftz_f32, uint32_t* __restrict__ rsqrt_f32, uint32_t* __restrict__ rsqrt_ftz_f32,
    uint32_t* __restrict__ rcp_f32, uint32_t* __restrict__ rcp_ftz_f32, uint32_t* __restrict__ sqrt_f32,
    uint32_t* __restrict__ sqrt_ftz_f32, uint32_t* __restrict__ sin_ftz_f32, uint32_t* __restrict__ cos_ftz_f32,
    uint32_t* __restrict__ sin_f32, uint32_t* __restrict__ cos_f32, uint32_t* __restrict__ tanh_f32, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = __uint_as_float(f32_input(i));
  F32(ex2_f32, "ex2.approx.f32");
  F32(ex2_ftz_f32, "ex2.approx.ftz.f32");
  F32(lg2_f32, "lg2.approx.f32");
  F32(lg2_ftz_f32, "lg2.approx.ftz.f32");
  F32(rsqrt_f32, "rsqrt.approx.f32");
  F32(rsqrt_ftz_f32, "rsqrt.approx.ftz.f32");
  F32(rcp_f32, "rcp.approx.f32");
  F32(rcp_ftz_f32, "rcp.approx.ftz.f32");
  F32(sqrt_f32, "sqrt.approx.f32");
  F32(sqrt_ftz_f32, "sqrt.approx.ftz.f32");
  F32(sin_ftz_f32, "sin.approx.ftz.f32");
  F32(cos_ftz_f32, "cos.approx.ftz.f32");
  F32(sin_f32, "sin.approx.f32");
  F32(cos_f32, "cos.approx.f32");
  F32(tanh_f32, "tanh.approx.f32");
}
