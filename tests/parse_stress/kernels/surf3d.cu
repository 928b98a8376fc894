// nvcc -ptx -O3 -arch=sm_90 kernels/surf3d.cu -o ptx/surf3d.ptx
// 3D and layered surfaces: suld/sust .3d and .a2d, 1D surfaces, 16- and 64-bit elements.
#include <cuda_runtime.h>

__global__ void surf_volume(cudaSurfaceObject_t vol, cudaSurfaceObject_t layered, cudaSurfaceObject_t line, int w,
                            int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  float2 v;
  surf3Dread(&v, vol, x * 8, y, z);
  short2 t;
  surf2DLayeredread(&t, layered, x * 4, y, z);
  v.x += t.x;
  v.y -= t.y;
  surf3Dwrite(v, vol, x * 8, y, (z + 1) % d, cudaBoundaryModeClamp);
  surf2DLayeredwrite(make_short2((short)v.y, (short)v.x), layered, x * 4, y, z);
  unsigned long long q;
  surf1Dread(&q, line, x * 8);
  surf1Dwrite(q + (unsigned long long)(x + y + z), line, x * 8, cudaBoundaryModeZero);
}
