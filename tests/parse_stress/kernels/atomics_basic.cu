// nvcc -ptx -O3 -arch=sm_90 kernels/atomics_basic.cu -o ptx/atomics_basic.ptx
// The atomic family: float/double/half2/bf16x2 adds, 32/64-bit CAS loops, exch/min/max/inc/dec/and/or/xor, the
// _block and _system scoped variants (atom.cta / atom.sys), shared-memory atomics, and red (result unused).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ double atomicMulDouble(double* addr, double m) {
  unsigned long long* p = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * m));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__global__ void atomics(float* fsum, double* dsum, __half2* h2, __nv_bfloat162* b2, int* ints, unsigned* uints,
                        unsigned long long* u64, const float* __restrict__ in, int n) {
  __shared__ int sh[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 32) sh[threadIdx.x] = 0;
  __syncthreads();
  if (i < n) {
    float v = in[i];
    atomicAdd(fsum, v);
    atomicAdd(dsum, (double)v);
    atomicAdd(h2, __floats2half2_rn(v, -v));
    atomicAdd(b2, __floats2bfloat162_rn(v, v * 2.f));
    int old = atomicAdd(ints, 1);
    atomicSub(ints + 1, 2);
    atomicExch(ints + 2, old);
    atomicMin(ints + 3, (int)v);
    atomicMax(ints + 4, (int)v);
    atomicInc(uints, 1024u);
    atomicDec(uints + 1, 1024u);
    atomicAnd(uints + 2, (unsigned)i);
    atomicOr(uints + 3, 1u << (i & 31));
    atomicXor(uints + 4, (unsigned)i);
    atomicCAS(ints + 5, i, i + 1);
    atomicMax(u64, (unsigned long long)i * 12345ull);
    atomicAdd_block(ints + 6, 1);
    atomicAdd_system(ints + 7, 1);
    atomicExch_system(u64 + 1, (unsigned long long)i);
    atomicCAS_block(u64 + 2, 0ull, (unsigned long long)i);
    atomicAdd(&sh[i & 31], old);
    atomicMulDouble(dsum + 1, 1.0001);
    float e = atomicExch(fsum + 1, v);
    if (e > 100.f) atomicMin_block(ints + 8, i);
  }
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(ints + 9, sh[threadIdx.x]);
}
