// clang-16 --cuda-gpu-arch=sm_86 --cuda-device-only -S -O3 -nocudainc -nocudalib -Wno-unknown-cuda-version kernel.cu -o kernel.ptx
// Compiled by clang's NVPTX back end (not nvcc), without the CUDA headers: the few declarations CUDA code
// needs are written below on top of clang's NVVM builtins. clang's PTX differs from nvcc's in register naming,
// shared-variable handling (demoted to the kernel, addressed through a generic mov of the symbol) and its
// loop shapes. This case: a block tree reduction in shared memory computing s32 min, s32 max and a u32 sum
// of the same data, with a block-stride loop over 4 elements per thread.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
static __device__ inline unsigned tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ inline unsigned ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
static __device__ inline unsigned ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }

#define BLOCK 128

extern "C" __global__ void clang_reduce_minmax(const int* in, int* mins, int* maxs, unsigned* sums)
{
    __shared__ int smin[BLOCK];
    __shared__ int smax[BLOCK];
    __shared__ unsigned ssum[BLOCK];
    unsigned tid = tid_x();
    const int* base = in + ctaid_x() * 4 * ntid_x();
    int mn = 0x7FFFFFFF, mx = -0x7FFFFFFF - 1;
    unsigned sum = 0;
    for (unsigned k = 0; k < 4; ++k) {
        int v = base[k * ntid_x() + tid];
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        sum += (unsigned)v;
    }
    smin[tid] = mn;
    smax[tid] = mx;
    ssum[tid] = sum;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            int a = smin[tid + stride], b = smax[tid + stride];
            if (a < smin[tid]) smin[tid] = a;
            if (b > smax[tid]) smax[tid] = b;
            ssum[tid] += ssum[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        mins[ctaid_x()] = smin[0];
        maxs[ctaid_x()] = smax[0];
        sums[ctaid_x()] = ssum[0];
    }
}
