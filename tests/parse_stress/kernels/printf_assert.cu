// nvcc -ptx -O3 -arch=sm_90 kernels/printf_assert.cu -o ptx/printf_assert.ptx
// Calls into the runtime: printf (a .local depot packed with the arguments, then call.uni vprintf with a
// .global .b8 format string), assert (__assertfail with file/line/function strings), __nanosleep, __trap (trap;),
// __brkpt, and clock64/globaltimer reads.
#include <cstdio>
#include <cassert>

__global__ void report(const float* __restrict__ in, int* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long t0 = clock64();
  if (i >= n) return;
  float v = in[i];
  if (i == 0) printf("block %d thread %d value %f half %.3e name %s\n", blockIdx.x, threadIdx.x, v, v * 0.5, "p2g");
  assert(v == v && "input must not be NaN");
  if (v < 0.f) {
    __nanosleep(100 + (i & 7) * 10);
    printf("negative at %d: %g (long %lld)\n", i, (double)v, (long long)i * 1000000007LL);
  }
  if (v > 1e30f) __trap();
  if (v == 12345.f) __brkpt();
  unsigned long long gt;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  out[i] = (int)(clock64() - t0) + (int)(gt & 1) + (int)clock();
}
