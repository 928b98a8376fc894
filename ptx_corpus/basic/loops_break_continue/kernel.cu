// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Data-dependent loops with break and continue, a nested loop with a labelled-style early exit through a flag,
// and a do-while whose trip count is the Collatz step count (bounded by a cap so it always ends).
extern "C" __global__ void loops_break_continue(const unsigned* in, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];

    // Sum of the odd nibbles, skipping nibbles equal to 7 (continue), stopping at the first 0xF nibble (break).
    unsigned acc = 0;
    for (int k = 0; k < 8; ++k) {
        unsigned nib = (x >> (4 * k)) & 0xFu;
        if (nib == 0xFu) break;
        if ((nib & 1u) == 0u || nib == 7u) continue;
        acc += nib * (k + 1);
    }

    // Nested search: first (a, b) with a * b == low byte of x, leaving both loops once found.
    // unroll 1 keeps the loops as loops in the PTX (nvcc would otherwise unroll them into ~3,000 lines).
    unsigned target = x & 0xFFu, found = 0xFFFFFFFFu;
#pragma unroll 1
    for (unsigned a = 2; a < 16; ++a) {
        bool done = false;
#pragma unroll 1
        for (unsigned b = a; b < 64; ++b) {
            unsigned p = a * b;
            if (p > target) break;
            if (p == target) { found = (a << 8) | b; done = true; break; }
        }
        if (done) break;
    }

    // Collatz steps of (x >> 16) + 1, capped at 500 iterations.
    unsigned c = (x >> 16) + 1u, steps = 0;
    do {
        if (c == 1u) break;
        c = (c & 1u) ? 3u * c + 1u : c >> 1;
        ++steps;
    } while (steps < 500u);

    out[3 * i + 0] = acc;
    out[3 * i + 1] = found;
    out[3 * i + 2] = steps;
}
