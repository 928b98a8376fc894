// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Shared-memory atomics (atom.shared), 32 and 64 bit, with a per-block histogram. As in atomics_global, every
// operation commutes with itself, so only the final state is observed and it is order-independent: each block
// initialises its shared slots, all threads update them, and after a barrier the block copies them out.
#define BLOCK 256
#define BINS 64

__device__ void shared_cas_max_abs(int* addr, int v)
{
    // max of |v| through a CAS loop: the retry test is the only use of the returned value.
    int a = v < 0 ? -(v + 1) : v;  // |v| without overflow on INT_MIN (one's complement for negatives)
    int old = *addr, assumed;
    do {
        assumed = old;
        if (assumed >= a) break;
        old = atomicCAS(addr, assumed, a);
    } while (old != assumed);
}

extern "C" __global__ void atomics_shared(const unsigned* in, unsigned* hist_out, unsigned* acc32_out,
                                          unsigned long long* acc64_out)
{
    __shared__ unsigned hist[BINS];
    __shared__ unsigned acc32[12];
    __shared__ unsigned long long acc64[6];
    unsigned tid = threadIdx.x;
    if (tid < BINS) hist[tid] = 0u;
    if (tid == 0) {
        acc32[0] = 0u; acc32[1] = 1000000u; acc32[2] = 0x7FFFFFFFu; acc32[3] = 0x80000000u;
        acc32[4] = 0xFFFFFFFFu; acc32[5] = 0u; acc32[6] = 0xFFFFFFFFu; acc32[7] = 0u;
        acc32[8] = blockIdx.x; acc32[9] = 0u; acc32[10] = 0u; acc32[11] = 0u;
        acc64[0] = 0ull; acc64[1] = ~0ull; acc64[2] = 0ull; acc64[3] = 0x7FFFFFFFFFFFFFFFull;
        acc64[4] = 0ull; acc64[5] = 0ull;
    }
    __syncthreads();

    unsigned x = in[blockIdx.x * BLOCK + tid];
    int sx = (int)x;
    unsigned long long wide = (unsigned long long)x * (unsigned long long)(x ^ 0x5bd1e995u);
    atomicAdd(&hist[x & (BINS - 1)], 1u);
    atomicAdd(&acc32[0], x >> 4);
    atomicSub(&acc32[1], x & 0xFFu);
    atomicMin((int*)&acc32[2], sx);
    atomicMax((int*)&acc32[3], sx);
    atomicMin(&acc32[4], x);
    atomicMax(&acc32[5], x);
    if ((tid & 63u) == 0u) atomicAnd(&acc32[6], ~(1u << (x & 31u)));
    if ((tid & 31u) == 0u) atomicOr(&acc32[7], 1u << (x & 31u));
    atomicXor(&acc32[8], x);
    atomicInc(&acc32[9], 100u);
    atomicDec(&acc32[10], 9u);
    shared_cas_max_abs((int*)&acc32[11], sx);
    atomicAdd(&acc64[0], wide);
    atomicMin(&acc64[1], wide);
    atomicMax(&acc64[2], wide);
    atomicMin((long long*)&acc64[3], (long long)wide - (long long)(1ull << 62));
    atomicXor(&acc64[4], wide);
    atomicOr(&acc64[5], wide & (0xFull << (4 * (tid & 15u))));
    __syncthreads();

    if (tid < BINS) hist_out[blockIdx.x * BINS + tid] = hist[tid];
    if (tid < 12) acc32_out[blockIdx.x * 12 + tid] = acc32[tid];
    if (tid < 6) acc64_out[blockIdx.x * 6 + tid] = acc64[tid];
}
