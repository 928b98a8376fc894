// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Three reductions of the same f32 data in one shared-memory tree (sum, min, max of |x|). Float addition is not
// associative, so the output bytes pin down the exact tree order: pairs (tid, tid + stride) with halving strides.
// The block is 128 threads; each loads 4 values with a block-stride loop.
#define BLOCK 128

extern "C" __global__ void reduce_f32_tree(const float* in, float* sums, float* mins, float* maxabs)
{
    __shared__ float ssum[BLOCK];
    __shared__ float smin[BLOCK];
    __shared__ float smax[BLOCK];
    unsigned tid = threadIdx.x;
    const float* base = in + blockIdx.x * (4 * BLOCK);
    float sum = 0.0f, mn = 3.0e38f, mx = 0.0f;
    for (int k = 0; k < 4; ++k) {
        float x = base[k * BLOCK + tid];
        sum += x;
        mn = fminf(mn, x);
        mx = fmaxf(mx, fabsf(x));
    }
    ssum[tid] = sum;
    smin[tid] = mn;
    smax[tid] = mx;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            ssum[tid] = ssum[tid] + ssum[tid + stride];
            smin[tid] = fminf(smin[tid], smin[tid + stride]);
            smax[tid] = fmaxf(smax[tid], smax[tid + stride]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        sums[blockIdx.x] = ssum[0];
        mins[blockIdx.x] = smin[0];
        maxabs[blockIdx.x] = smax[0];
    }
}
