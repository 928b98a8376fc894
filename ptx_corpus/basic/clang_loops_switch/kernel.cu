// clang-16 --cuda-gpu-arch=sm_86 --cuda-device-only -S -O3 -nocudainc -nocudalib -Wno-unknown-cuda-version kernel.cu -o kernel.ptx
// Control flow as clang's NVPTX back end lays it out: a byte-code interpreter loop (a dense 10-way switch
// inside a bounded while loop, with continue, break and an early return), then a nested loop with an early
// exit. Every program terminates: the step count is capped at 64 and jumps only go forward. Declarations
// normally from the CUDA headers are written on top of clang's NVVM builtins.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
static __device__ inline unsigned global_index()
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

extern "C" __global__ void clang_loops_switch(const unsigned* code, unsigned* out, unsigned n)
{
    unsigned i = global_index();
    if (i >= n) return;
    const unsigned* prog = code + 4 * i;  // 16 one-byte opcodes, read from 4 words
    unsigned acc = i, pc = 0, steps = 0, aux = 1;
    while (pc < 16 && steps < 64) {
        unsigned op = (prog[pc >> 2] >> (8 * (pc & 3))) & 0xFFu;
        ++steps;
        ++pc;
        switch (op % 11u) {
        case 0: acc += op; break;
        case 1: acc *= 3u; break;
        case 2: acc ^= acc >> 7; break;
        case 3: aux += acc & 15u; break;
        case 4: pc += 1; continue;          // skip the next opcode
        case 5: acc = (acc << 3) | (acc >> 29); break;
        case 6: if (acc & 1u) pc += 2; break;
        case 7: acc -= aux; break;
        case 8: aux *= 5u; break;
        case 9:
            if (aux > 1000u) {              // halt: store early and leave the thread
                out[2 * i] = acc;
                out[2 * i + 1] = 0xFFFF0000u | steps;
                return;
            }
            break;
        default: goto done;                 // op % 11 == 10 ends the program
        }
        acc += aux;
    }
done:
    // Nested loops with an early exit from the inner one and a continue in the outer one.
    for (unsigned a = 0; a < 6; ++a) {
        if (((acc >> a) & 1u) == 0u) continue;
        for (unsigned b = 0; b < 6; ++b) {
            if (a * b > (aux & 15u)) break;
            acc += a * 16u + b;
        }
    }
    out[2 * i] = acc;
    out[2 * i + 1] = steps | (pc << 8);
}
