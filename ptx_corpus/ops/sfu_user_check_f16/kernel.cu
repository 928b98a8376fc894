// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// The "new user" check of issue 4, 16-bit forms: ordinary CUDA calling NVIDIA's SFU approximations on f16/bf16
// through inline PTX, one output per instruction form (the f32 forms are in ops/sfu_user_check). Thread i of 65,536
// takes the value i (all 65,536 bit patterns: NaNs, infinities, denormals); the .x2 forms pair it (low lane) with a
// second value from an integer hash of i (high lane), so the inputs are the same bytes on every device. The *_hi
// outputs run the .x2 forms once more with the lanes swapped (i in the high lane), so that each lane of each .x2
// form sees every 16-bit value.
// PTX forms (PTX ISA): ex2.approx.f16/.f16x2 (no .ftz form, sm_75), ex2.approx.ftz.bf16/.bf16x2 (.ftz required,
// sm_90), tanh.approx.f16/.f16x2 (sm_75), tanh.approx.bf16/.bf16x2 (sm_90).
#include <stdint.h>

__device__ __forceinline__ uint32_t mix32(uint32_t x) {  // lowbias32 (C. Wellons): a bijection on 32 bits
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

#define H16(name, instr) \
  { unsigned short r; asm(instr " %0, %1;" : "=h"(r) : "h"(h)); name[i] = r; }
#define H32(name, instr) \
  { uint32_t r; asm(instr " %0, %1;" : "=r"(r) : "r"(hh)); name[i] = r; }
#define H32HI(name, instr) \
  { uint32_t r; asm(instr " %0, %1;" : "=r"(r) : "r"(hi)); name[i] = r; }

extern "C" __global__ void sfu_user_check_f16(
    unsigned short* __restrict__ ex2_f16, uint32_t* __restrict__ ex2_f16x2, unsigned short* __restrict__ ex2_ftz_bf16,
    uint32_t* __restrict__ ex2_ftz_bf16x2, unsigned short* __restrict__ tanh_f16, uint32_t* __restrict__ tanh_f16x2,
    unsigned short* __restrict__ tanh_bf16, uint32_t* __restrict__ tanh_bf16x2, uint32_t* __restrict__ ex2_f16x2_hi,
    uint32_t* __restrict__ ex2_ftz_bf16x2_hi, uint32_t* __restrict__ tanh_f16x2_hi,
    uint32_t* __restrict__ tanh_bf16x2_hi, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned short h = (unsigned short)i;                                          // every 16-bit value once
  uint32_t hh = (uint32_t)h | (mix32(i ^ 0xa5a5a5a5u) << 16);                    // low lane i, high lane hashed
  uint32_t hi = ((uint32_t)h << 16) | (mix32(i ^ 0x5a5a5a5au) & 0xFFFFu);        // high lane i, low lane hashed
  H16(ex2_f16, "ex2.approx.f16");
  H32(ex2_f16x2, "ex2.approx.f16x2");
  H16(ex2_ftz_bf16, "ex2.approx.ftz.bf16");
  H32(ex2_ftz_bf16x2, "ex2.approx.ftz.bf16x2");
  H16(tanh_f16, "tanh.approx.f16");
  H32(tanh_f16x2, "tanh.approx.f16x2");
  H16(tanh_bf16, "tanh.approx.bf16");
  H32(tanh_bf16x2, "tanh.approx.bf16x2");
  H32HI(ex2_f16x2_hi, "ex2.approx.f16x2");
  H32HI(ex2_ftz_bf16x2_hi, "ex2.approx.ftz.bf16x2");
  H32HI(tanh_f16x2_hi, "tanh.approx.f16x2");
  H32HI(tanh_bf16x2_hi, "tanh.approx.bf16x2");
}
