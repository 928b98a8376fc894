// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Hillis-Steele inclusive scan of 256 f32 values per block, double-buffered in shared memory (two arrays, the
// roles swap every step, so one __syncthreads per step is enough). f32 addition makes the exact combination
// order visible in the output bytes. A second, integer scan counts the positive inputs up to each element.
#define BLOCK 256

extern "C" __global__ void scan_inclusive_hs(const float* in, float* out, unsigned* out_count)
{
    __shared__ float buf[2][BLOCK];
    __shared__ unsigned cnt[2][BLOCK];
    unsigned tid = threadIdx.x;
    unsigned g = blockIdx.x * BLOCK + tid;
    float x = in[g];
    buf[0][tid] = x;
    cnt[0][tid] = x > 0.0f ? 1u : 0u;
    __syncthreads();
    int src = 0;
    for (unsigned offset = 1; offset < BLOCK; offset <<= 1) {
        int dst = 1 - src;
        float v = buf[src][tid];
        unsigned c = cnt[src][tid];
        if (tid >= offset) {
            v = buf[src][tid - offset] + v;
            c += cnt[src][tid - offset];
        }
        buf[dst][tid] = v;
        cnt[dst][tid] = c;
        __syncthreads();
        src = dst;
    }
    out[g] = buf[src][tid];
    out_count[g] = cnt[src][tid];
}
