// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Undefined in the PTX ISA ("the executing thread must be in membermask"), measured on the H200: every lane of the
// warp executes votes whose member mask names only some lanes (0x0000FFFF, 0x55555555). A kernel of its own: it
// might trap or hang. 4 slots a thread, pre-filled with 0xEEEEEEEE.
extern "C" __global__ void warp_ub_outside(const int* in, unsigned* out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g];
  unsigned* o = out + g * 4;
  o[0] = __ballot_sync(0x0000FFFFu, v & 1);
  o[1] = __all_sync(0x0000FFFFu, v > -50);
  o[2] = __any_sync(0x55555555u, v > 90);
  o[3] = __ballot_sync(0x55555555u, v > 0);
}
