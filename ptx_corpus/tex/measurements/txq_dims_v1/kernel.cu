// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// (ptx_corpus/tex/txq_dims as of commit cd64d7d, kept for measurements/txq_diag.sh: the sm_90 JIT fails to load it.)
// txq (texture queries) and suq (surface queries) on textures and surfaces of several shapes, with the handles
// in a parameter block. What NVIDIA returns for the depth of a 2D texture, the array size of a non-layered one,
// and the sampler attributes (normalized_coords, filter_mode, addr_mode_0) is what this case records.
#include <cuda_runtime.h>

struct Block {
  cudaTextureObject_t t2d;    // rgba16f 13x7, linear, wrap, normalized
  cudaTextureObject_t t3d;    // r32f 5x4x3, point, clamp
  cudaTextureObject_t tlay;   // r32f 6x5, 4 layers, point, border
  cudaTextureObject_t t1d;    // r32f 17, point, mirror, normalized
  cudaSurfaceObject_t s2d;    // r32f 9x3
  cudaSurfaceObject_t s3d;    // rgba16f 4x3x2
};

#define TXQ(what, h, dst) asm volatile("txq." what ".b32 %0, [%1];" : "=r"(dst) : "l"(h))
#define SUQ(what, h, dst) asm volatile("suq." what ".b32 %0, [%1];" : "=r"(dst) : "l"(h))

extern "C" __global__ void txq_dims(Block p, unsigned* __restrict__ out) {
  cudaTextureObject_t t[4] = {p.t2d, p.t3d, p.tlay, p.t1d};
  unsigned v;
  for (int k = 0; k < 4; ++k) {
    TXQ("width", t[k], v); out[k * 8 + 0] = v;
    TXQ("height", t[k], v); out[k * 8 + 1] = v;
    TXQ("depth", t[k], v); out[k * 8 + 2] = v;
    TXQ("normalized_coords", t[k], v); out[k * 8 + 3] = v;
    TXQ("filter_mode", t[k], v); out[k * 8 + 4] = v;
    TXQ("addr_mode_0", t[k], v); out[k * 8 + 5] = v;
    TXQ("array_size", t[k], v); out[k * 8 + 6] = v;
    out[k * 8 + 7] = 0xA5A5A5A5u;
  }
  cudaSurfaceObject_t s[2] = {p.s2d, p.s3d};
  for (int k = 0; k < 2; ++k) {
    SUQ("width", s[k], v); out[32 + k * 4 + 0] = v;
    SUQ("height", s[k], v); out[32 + k * 4 + 1] = v;
    SUQ("depth", s[k], v); out[32 + k * 4 + 2] = v;
    out[32 + k * 4 + 3] = 0x5A5A5A5Au;
  }
}
