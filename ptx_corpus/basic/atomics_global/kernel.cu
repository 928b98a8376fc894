// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Global-memory atomics, 32 and 64 bit, where only the final memory state is observed. Every operation used
// here commutes with itself (add, sub, min, max, and, or, xor; inc with one limit and dec with one limit are each
// addition modulo limit+1 once the start value is within range; a CAS loop computing a product of odd numbers),
// so the final state does not depend on the order in which threads arrive. Return values of order-dependent
// atomics are never stored. The return value is used only by the CAS loop's retry test.
__device__ void cas_multiply(unsigned* addr, unsigned factor)
{
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * factor);
    } while (old != assumed);
}

__device__ void cas_multiply64(unsigned long long* addr, unsigned long long factor)
{
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * factor);
    } while (old != assumed);
}

// inputs/acc32.bin and acc64.bin start every slot at its identity (or a value in range for inc/dec).
// acc32 layout: [0] add [1] sub [2] min(s32) [3] max(s32) [4] min(u32) [5] max(u32) [6] and [7] or [8] xor
//               [9] inc limit 17 [10] dec limit 23 [11] cas product; [16 + bucket] histogram adds
// acc64 layout: [0] add [1] min(s64) [2] max(s64) [3] min(u64) [4] max(u64) [5] and [6] or [7] xor [8] cas product
extern "C" __global__ void atomics_global(const unsigned* in, unsigned* acc32, unsigned long long* acc64)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    int sx = (int)x;
    unsigned long long wide = ((unsigned long long)x << 29) ^ (unsigned long long)i * 0x9E3779B97F4A7C15ull;

    atomicAdd(&acc32[0], x);
    atomicSub(&acc32[1], x >> 3);
    atomicMin((int*)&acc32[2], sx);
    atomicMax((int*)&acc32[3], sx);
    atomicMin(&acc32[4], x);
    atomicMax(&acc32[5], x);
    if ((i & 511u) == 0u) atomicAnd(&acc32[6], ~(1u << (x & 31u)));  // 16 threads clear a bit each
    if ((i & 255u) == 0u) atomicOr(&acc32[7], 1u << (x & 31u));       // 32 threads set a bit each
    atomicXor(&acc32[8], x);
    atomicInc(&acc32[9], 17u);
    atomicDec(&acc32[10], 23u);
    if ((i & 15u) == 0u) cas_multiply(&acc32[11], x | 1u);
    atomicAdd(&acc32[16 + (x >> 27)], 1u);

    atomicAdd(&acc64[0], wide);
    atomicMin((long long*)&acc64[1], (long long)wide);
    atomicMax((long long*)&acc64[2], (long long)wide);
    atomicMin(&acc64[3], wide);
    atomicMax(&acc64[4], wide);
    if ((i & 255u) == 0u) atomicAnd(&acc64[5], ~(1ull << (x & 63u)));
    if ((i & 127u) == 0u) atomicOr(&acc64[6], 1ull << (x & 63u));
    atomicXor(&acc64[7], wide);
    if ((i & 31u) == 0u) cas_multiply64(&acc64[8], wide | 1ull);
}
