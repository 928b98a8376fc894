// nvcc -ptx -O3 -arch=sm_90 kernels/switch_jump.cu -o ptx/switch_jump.ptx
// Switch lowering: a bytecode interpreter loop with a dense, a nested and a sparse switch (nvcc 13 emits compare
// trees and lookup tables for these), plus a hand-written brx.idx jump table with .branchtargets.
__device__ __noinline__ int decode(int op, int a, int b) {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b ? a / b : 0;
    case 4: return a & b;
    case 5: return a | b;
    case 6: return a ^ b;
    case 7: return a << (b & 31);
    case 8: return a >> (b & 31);
    case 9: return (unsigned)a >> (b & 31);
    case 10: return a < b;
    case 11: return max(a, b);
    default: return -1;
  }
}

__global__ void interp(const int* __restrict__ prog, const int* __restrict__ data, int* __restrict__ out, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = data[i], reg = 1;
  for (int pc = 0; pc < len; ++pc) {
    int ins = prog[pc];
    switch (ins & 15) {
      case 0: acc += reg; break;
      case 1: acc -= ins >> 4; break;
      case 2: reg = acc; break;
      case 3: acc *= 3; break;
      case 4: reg ^= i; break;
      case 5:
        switch ((ins >> 4) & 7) {
          case 0: acc = -acc; break;
          case 1: acc = ~acc; break;
          case 2: acc >>= 1; break;
          case 3: acc <<= 2; break;
          case 4: acc = abs(acc); break;
          case 5: acc = acc & 0xff; break;
          default: break;
        }
        break;
      case 6: acc = decode(ins >> 4, acc, reg); break;
      case 7: pc += (acc & 1); break;
      case 8: reg += 17; break;
      case 9: acc = min(acc, reg); break;
      default: acc ^= 0x55; break;
    }
  }
  int sparse;
  switch (acc) {
    case 3: sparse = 1; break;
    case 1000: sparse = 2; break;
    case 77777: sparse = 3; break;
    default: sparse = 0;
  }
  out[i] = acc + sparse;
}

// nvcc 13 lowers the switches above to compare trees, so the brx.idx form (legal PTX, emitted by other
// front ends such as LLVM's NVPTX backend for dense switches) is written by hand here.
__global__ void jump_table(const unsigned* __restrict__ sel, int* __restrict__ out) {
  int i = threadIdx.x;
  int r;
  asm volatile(
      "{\n\t"
      ".reg .u32 jt_idx;\n\t"
      "and.b32 jt_idx, %1, 3;\n\t"
      "jt_targets: .branchtargets jt_case0, jt_case1, jt_case2, jt_case3;\n\t"
      "brx.idx jt_idx, jt_targets;\n"
      "jt_case0:\n\t"
      "add.s32 %0, %2, 10;\n\t"
      "bra.uni jt_done;\n"
      "jt_case1:\n\t"
      "mul.lo.s32 %0, %2, 3;\n\t"
      "bra.uni jt_done;\n"
      "jt_case2:\n\t"
      "neg.s32 %0, %2;\n\t"
      "bra.uni jt_done;\n"
      "jt_case3:\n\t"
      "mov.u32 %0, 42;\n"
      "jt_done:\n\t"
      "}"
      : "=r"(r)
      : "r"(sel[i]), "r"(i));
  out[i] = r;
}
