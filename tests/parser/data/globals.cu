// nvcc -ptx -O3 -arch=sm_90 -rdc=true globals.cu -o globals.ptx
// Module-scope variables with initialisers (integers, floats, symbol addresses), shared and dynamic shared
// memory, a non-inlined device function call (call.uni with a return value), an indirect call through a
// function pointer (call with a prototype) and a dense switch.
__constant__ float kTable[4] = {1.0f, -2.5f, 0.1f, 3.0e10f};
__device__ int gCounts[3] = {7, -1, 0x12345};
__device__ short gShort[2] = {-2, 300};
__device__ double gD = 0.25;
__device__ int gX;
__device__ int gArr[4];
__device__ int* gPtrs[2] = {&gX, &gArr[1]};

__device__ __noinline__ int twice(int v) { return 2 * v + gCounts[v & 1]; }
__device__ __noinline__ int thrice(int v) { return 3 * v; }
typedef int (*Fn)(int);
__device__ Fn gFns[2] = {twice, thrice};

extern "C" __global__ void useGlobals(float* out, int sel) {
  __shared__ float tile[64];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  tile[t & 63] = kTable[t & 3];
  dyn[t] = (float)*gPtrs[t & 1];
  __syncthreads();
  int r = twice(t) + gFns[sel & 1](t);
  switch (sel) {
    case 0: r += 11; break;
    case 1: r *= 13; break;
    case 2: r -= 17; break;
    case 3: r ^= 19; break;
    case 4: r |= 23; break;
    case 5: r += gShort[1]; break;
    default: break;
  }
  out[t] = tile[(t + 1) & 63] + dyn[t ^ 1] + r + (float)gD;
}
