// nvcc -ptx -O3 -arch=sm_90 kernels/memory_ops.cu -o ptx/memory_ops.ptx
// Load/store flavours: ld.global.nc.v4 (__ldg), cache hints (__ldcg/__ldca/__ldcs/__ldlu/__ldcv, __stwb/__stcg/
// __stcs/__stwt), L2 eviction-priority via createpolicy, prefetch.global.L2, dynamic shared memory (.extern
// .shared), __constant__ tables with initializers, generic<->state space conversions (cvta), and misaligned bytes.
#include <cstdint>

__constant__ float coeffs[8] = {0.5f, -1.25f, 3.0f, 1e-7f, -0.0f, 2.5e10f, 1.0f, 0.125f};
__constant__ int lut[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
__device__ unsigned long long counter = 0x123456789abcdefull;
__device__ char message[] = "p2g";

__global__ void mem(const float4* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    float4* __restrict__ d, const uint8_t* __restrict__ bytes, int n) {
  extern __shared__ __align__(16) float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 x = __ldg(&a[i]);
  float y = __ldcg(&b[i]) + __ldca(&b[i + 1]) + __ldcs(&b[i + 2]) + __ldlu(&b[i + 3]) + __ldcv(&b[i + 4]);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(b + i + 128));
  uint64_t pol;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  float z;
  asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(z) : "l"(b + i), "l"(pol));
  dyn[threadIdx.x] = x.x + y + coeffs[i & 7] + (float)lut[i & 3][(i >> 2) & 3];
  __syncthreads();
  float s = dyn[(threadIdx.x + 1) % blockDim.x];
  __stcs(&c[i], s + z);
  __stwt(&c[i + n], s * 2.f);
  __stcg(&d[i], make_float4(x.w, x.z, x.y, s));
  __stwb(&c[i + 2 * n], (float)(bytes[i * 3 + 1] | bytes[i * 3 + 2] << 8) + (float)message[i & 3]);
  if (i == 0) counter += 1;
  float* gen = dyn + threadIdx.x;
  size_t sh = __cvta_generic_to_shared(gen);
  c[i + 3 * n] = (float)__isShared(gen) + (float)(sh & 15) + (float)__isGlobal(c);
}
