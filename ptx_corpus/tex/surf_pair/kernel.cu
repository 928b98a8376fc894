// nvcc -arch=sm_90 -O3 -ptx kernel.cu -o kernel.ptx
// Neighbouring 16-bit surface stores, which passes/pair_sust turns into one 32-bit word store where the word is
// whole and inside the image. Per thread t: row 0 an aligned pair (bytes 4t, 4t + 2), row 1 an unaligned pair
// (4t + 2, 4t + 4), row 2 the same texel twice (the second value stays), row 3 two texels 6 bytes apart. The
// surface is 37 texels (74 bytes) wide and 24 threads write up to byte 98: from thread 18 on the stores reach past
// the right edge (cudaBoundaryModeZero: a store outside is dropped; at t = 18 the aligned word straddles the edge
// and keeps only its first half).
#include <cuda_runtime.h>

extern "C" __global__ void surf_pair(cudaSurfaceObject_t s, unsigned short base) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned short v = (unsigned short)(base + 8 * t);
  surf2Dwrite<unsigned short>(v, s, 4 * t, 0, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 1), s, 4 * t + 2, 0, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 2), s, 4 * t + 2, 1, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 3), s, 4 * t + 4, 1, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 4), s, 4 * t, 2, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 5), s, 4 * t, 2, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 6), s, 4 * t, 3, cudaBoundaryModeZero);
  surf2Dwrite<unsigned short>((unsigned short)(v + 7), s, 4 * t + 6, 3, cudaBoundaryModeZero);
}
