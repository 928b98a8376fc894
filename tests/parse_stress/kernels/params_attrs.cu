// nvcc -ptx -O3 -arch=sm_90 kernels/params_attrs.cu -o ptx/params_attrs.ptx
// Kernel signatures and attributes: struct parameters passed by value (.param .align 16 .b8 p[N]),
// __grid_constant__ (address taken of a param), many scalar params of mixed widths, __launch_bounds__ with
// minBlocks and maxBlocksPerCluster (.maxntid/.minnctapersm/.maxclusterrank), __maxnreg__ (.maxnreg), and
// __noinline__ .func with struct returns (.param .align 8 .b8 func_retval0[16]).
#include <cstdint>

struct Config {
  float scale;
  int offsets[5];
  double bias;
  char tag;
  float4 tint;
};

struct Pair {
  double a;
  long long b;
};

__device__ __noinline__ Pair make_pair(double x, long long y, Config c) { return Pair{x * c.bias, y + c.offsets[1]}; }

__global__ void __launch_bounds__(256, 2, 4) by_value(const Config cfg, float* __restrict__ out, char c, short s,
                                                     unsigned char uc, long long ll, double d, bool flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pair p = make_pair(d, ll, cfg);
  float v = cfg.scale * i + cfg.offsets[i % 5] + (float)cfg.bias + cfg.tag + cfg.tint.y;
  out[i] = v + c + s + uc + (flag ? (float)p.a : (float)p.b);
}

__global__ void __maxnreg__(64) grid_const(const __grid_constant__ Config cfg, float* __restrict__ out, int n) {
  const Config* pc = &cfg;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = pc->offsets[i % 5] * pc->scale + pc->tint.w;
}

extern "C" __global__ void __launch_bounds__(64) c_linkage_kernel(int* __restrict__ out) { out[threadIdx.x] = 1; }
