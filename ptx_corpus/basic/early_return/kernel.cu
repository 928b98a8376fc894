// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Several early returns: the usual bounds check (n is not a multiple of the block size, so the last block is
// partial), a data-dependent return before any store, and a return from inside a loop. Threads that return early
// leave their output slot at its initial fill value, which is part of the expected output.
extern "C" __global__ void early_return(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    if (x < -900) return;          // about 5% of threads store nothing
    if ((x & 3) == 0) {
        out[i] = x / 4;
        return;
    }
    int acc = 0;
    for (int k = 0; k < 32; ++k) {
        acc += (x >> k) & 1;
        if (acc > 6) {             // return from inside the loop
            out[i] = 1000 + k;
            return;
        }
    }
    out[i] = -acc;
}
