// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Tree reduction in shared memory: each block sums 2*blockDim.x u32 values into one partial sum.
// Wrapping u32 addition is associative, so the result does not depend on the tree shape; the shared-memory
// tree with __syncthreads (bar.sync) between levels is what this case exercises.
#define BLOCK 256

extern "C" __global__ void reduce_sum_u32(const unsigned* in, unsigned* partial, unsigned n)
{
    __shared__ unsigned s[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (2 * BLOCK) + tid;
    unsigned v = 0;
    if (i < n) v = in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}
