// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// txq (texture queries) and suq (surface queries) of the dimensions of textures and surfaces of several shapes,
// with the handles in a parameter block: what NVIDIA returns for the height of a 1D texture, the depth of a 2D and
// of a layered one. Only the queries the sm_90 JIT (CUDA 13) accepts on texture objects: txq.width/height/depth and
// suq.width/height/depth. txq.normalized_coords, txq.filter_mode, txq.addr_mode_0 and txq.array_size make the
// module fail to load on the H200 (docs/TEXTURES.md, ptx_corpus/tex/measurements/txq_diag.sh), so they are not here;
// txq.num_mipmap_levels was never tried there and is left out too.
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

// out[k*4 + 0..2] = width, height, depth of texture k (t2d, t3d, tlay, t1d); out[16 + k*4 + 0..2] of surface k
// (s2d, s3d); every fourth word is a marker that shows the layout.
extern "C" __global__ void txq_dims(Block p, unsigned* __restrict__ out) {
  cudaTextureObject_t t[4] = {p.t2d, p.t3d, p.tlay, p.t1d};
  unsigned v;
  for (int k = 0; k < 4; ++k) {
    TXQ("width", t[k], v); out[k * 4 + 0] = v;
    TXQ("height", t[k], v); out[k * 4 + 1] = v;
    TXQ("depth", t[k], v); out[k * 4 + 2] = v;
    out[k * 4 + 3] = 0xA5A5A5A5u;
  }
  cudaSurfaceObject_t s[2] = {p.s2d, p.s3d};
  for (int k = 0; k < 2; ++k) {
    SUQ("width", s[k], v); out[16 + k * 4 + 0] = v;
    SUQ("height", s[k], v); out[16 + k * 4 + 1] = v;
    SUQ("depth", s[k], v); out[16 + k * 4 + 2] = v;
    out[16 + k * 4 + 3] = 0x5A5A5A5Au;
  }
}
