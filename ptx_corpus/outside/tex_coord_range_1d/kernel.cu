// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Out-of-range, infinite and NaN coordinates through 1D textures of 4,096 r32f texels holding their own index (iota),
// so a point sample is the texel index the unit chose and a linear sample i0 + w/256 also gives the filter weight:
// every address mode, point and linear, normalized and not (wrap and mirror exist for normalized coordinates only).
// The coordinates (inputs/u.bin, make_inputs.py) are powers of two up to 2^127 and their neighbours, both signs,
// fractions, random significands at 2^16..2^40, infinities, NaNs and denormals. out[t * n + i]: texture t (in the
// parameter order below), coordinate i.
#include <cuda_runtime.h>

#define T cudaTextureObject_t
extern "C" __global__ void tex_coord_1d(T nClampP, T nClampL, T nWrapP, T nWrapL, T nMirrorP, T nMirrorL, T nBorderP,
                                        T nBorderL, T uClampP, T uClampL, T uBorderP, T uBorderL,
                                        const float* __restrict__ u, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = u[i];
  T t[12] = {nClampP, nClampL, nWrapP, nWrapL, nMirrorP, nMirrorL, nBorderP, nBorderL, uClampP, uClampL, uBorderP,
             uBorderL};
#pragma unroll
  for (int k = 0; k < 12; ++k) out[k * n + i] = tex1D<float>(t[k], x);
}
