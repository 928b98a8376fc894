// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Blelloch work-efficient exclusive scan (up-sweep, clear the root, down-sweep) of 512 s32 values per block of
// 256 threads, each thread owning two elements. Also writes each block's total (the root before clearing).
#define BLOCK 256
#define N (2 * BLOCK)

extern "C" __global__ void scan_exclusive_blelloch(const int* in, int* out, int* totals)
{
    __shared__ int s[N];
    unsigned tid = threadIdx.x;
    const int* src = in + blockIdx.x * N;
    s[2 * tid] = src[2 * tid];
    s[2 * tid + 1] = src[2 * tid + 1];

    unsigned offset = 1;
    for (unsigned d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            s[bi] += s[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        totals[blockIdx.x] = s[N - 1];
        s[N - 1] = 0;
    }
    for (unsigned d = 1; d < N; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            int t = s[ai];
            s[ai] = s[bi];
            s[bi] += t;
        }
    }
    __syncthreads();
    int* dst = out + blockIdx.x * N;
    dst[2 * tid] = s[2 * tid];
    dst[2 * tid + 1] = s[2 * tid + 1];
}
