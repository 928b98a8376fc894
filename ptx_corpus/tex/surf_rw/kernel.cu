// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Surface loads and stores (suld.b / sust.b, byte-addressed x) with handles inside a parameter block, as DLSS's
// kernels pass them. One thread per texel of a 24x10 grid:
//   - rgba16f: 8-byte loads (.v4.b16) shifted by (-2, -1) texels with cudaBoundaryModeZero (out of range reads 0),
//     stored unshifted (.trap, always in range);
//   - r32f: 4-byte loads shifted by (-3, +2) with cudaBoundaryModeClamp, stored scaled;
//   - clamp stores: edge threads write outside the surface on purpose and land on the edge texel, which no other
//     thread writes; zero-mode stores outside the surface must be dropped;
//   - r16f 2-byte stores (.b16, the DLSS R16 store) and r8 1-byte stores (.b8) into neighbouring bytes of one word,
//     written by different threads at once;
//   - rg32f 8-byte scalar loads/stores (.b64).
#include <cuda_runtime.h>

struct Block {
  cudaSurfaceObject_t hsrc;   // 0   rgba16f 24x10
  cudaSurfaceObject_t hdst;   // 8   rgba16f 24x10
  cudaSurfaceObject_t fsrc;   // 16  r32f 24x10
  cudaSurfaceObject_t fdst;   // 24  r32f 24x10
  cudaSurfaceObject_t edge;   // 32  r32f 24x10 (clamp and zero stores)
  cudaSurfaceObject_t h16;    // 40  r16f 24x10
  cudaSurfaceObject_t b8;     // 48  r8 24x10
  cudaSurfaceObject_t d64;    // 56  rg32f 24x10
  int w, h;                   // 64, 68
  float scale;                // 72
};

extern "C" __global__ void surf_rw(Block p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.w || y >= p.h) return;
  ushort4 v = surf2Dread<ushort4>(p.hsrc, (x - 2) * 8, y - 1, cudaBoundaryModeZero);
  surf2Dwrite(v, p.hdst, x * 8, y);
  float f = surf2Dread<float>(p.fsrc, (x - 3) * 4, y + 2, cudaBoundaryModeClamp);
  surf2Dwrite(f * p.scale, p.fdst, x * 4, y);
  // Edge column 0 and p.w-1 are written only by the clamp stores of threads 0 and p.w-1.
  if (x == 0) surf2Dwrite(f, p.edge, -5 * 4, y, cudaBoundaryModeClamp);
  else if (x == p.w - 1) surf2Dwrite(f, p.edge, (p.w + 3) * 4, y, cudaBoundaryModeClamp);
  else surf2Dwrite(float(x * 100 + y), p.edge, x * 4, y);
  surf2Dwrite(-1.0f, p.edge, (x + p.w) * 4, y, cudaBoundaryModeZero);  // always outside: dropped
  surf2Dwrite((unsigned short)(v.x ^ (unsigned short)x), p.h16, x * 2, y);
  surf2Dwrite((unsigned char)(x * 7 + y * 13), p.b8, x, y);
  unsigned long long d = surf2Dread<unsigned long long>(p.d64, x * 8, y);
  surf2Dwrite(d ^ ((unsigned long long)(x + 1) << 40), p.d64, x * 8, y);
}
