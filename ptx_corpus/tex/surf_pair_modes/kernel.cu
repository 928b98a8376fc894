// nvcc -arch=sm_90 -O3 -ptx kernel.cu -o kernel.ptx
// Neighbouring 16-bit surface stores that passes/pair_sust pairs, in the clamp modes and places where the pair
// must not become one 32-bit word. The surface is 37 texels (74 bytes) wide and 40 threads write bytes up to 163.
// Per thread t: row 0 the pair (4t, 4t + 2) in cudaBoundaryModeClamp, threads 0-18 (thread 18's second store
// clamps onto its first texel, the second value stays); row 1 the same pair in cudaBoundaryModeZero (thread 18's
// pair straddles the edge: only its first texel is stored); row 2 the pair (4t + 4, 4t + 6); row 3 a pair whose
// x starts from a run-time value (x0, 0 here); row 4 the pair (4t, 4t + 2) with a global load and store between
// the two stores. Not here: odd byte x. A 16-bit store at an odd x stopped the kernel on the H100 (cuCtxSynchronize:
// CUDA_ERROR_MISALIGNED_ADDRESS, 2026-12-06).
#include <cuda_runtime.h>

extern "C" __global__ void surf_pair_modes(cudaSurfaceObject_t s, unsigned short base, int x0, int* scratch) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned short v = (unsigned short)(base + 16 * t);
  if (t <= 18) {  // one thread per clamped texel: beyond, several threads would store to the last one
    surf2Dwrite<unsigned short>(v, s, 4 * t, 0, cudaBoundaryModeClamp);
    surf2Dwrite<unsigned short>((unsigned short)(v + 1), s, 4 * t + 2, 0, cudaBoundaryModeClamp);
  }
  surf2Dwrite<unsigned short>((unsigned short)(v + 2), s, 4 * t, 1, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 3), s, 4 * t + 2, 1, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 4), s, 4 * t + 4, 2, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 5), s, 4 * t + 6, 2, cudaBoundaryModeZero);
  int xr = x0 + 4 * t;
  surf2Dwrite<unsigned short>((unsigned short)(v + 6), s, xr, 3, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 7), s, xr + 2, 3, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 8), s, 4 * t, 4, cudaBoundaryModeZero);
  scratch[t] = scratch[t + 40] + v;
  surf2Dwrite<unsigned short>((unsigned short)(v + 9), s, 4 * t + 2, 4, cudaBoundaryModeZero);
}
