// nvcc -ptx -O3 -arch=sm_90 kernels/warp_vote_match.cu -o ptx/warp_vote_match.ptx
// Votes, match and redux: vote.sync.{ballot,any,all,uni}, match.{any,all}.sync.b32/b64, redux.sync.{add,min,max,
// and,or,xor}, activemask, and lanemask special registers.
__global__ void votes(const int* __restrict__ in, const long long* __restrict__ keys, unsigned* __restrict__ out,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -1;
  unsigned act = __activemask();
  unsigned bal = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v == 7);
  int all = __all_sync(0xffffffffu, v >= 0);
  int uni = __uni_sync(0xffffffffu, v);
  unsigned m32 = __match_any_sync(0xffffffffu, v);
  int pred = 0;
  unsigned mall = __match_all_sync(0xffffffffu, v & 3, &pred);
  unsigned m64 = __match_any_sync(0xffffffffu, keys[i & 63]);
  unsigned radd = __reduce_add_sync(0xffffffffu, (unsigned)v);
  int rmin = __reduce_min_sync(0xffffffffu, v);
  int rmax = __reduce_max_sync(0xffffffffu, v);
  unsigned rand_ = __reduce_and_sync(0xffffffffu, (unsigned)v);
  unsigned ror = __reduce_or_sync(0xffffffffu, (unsigned)v);
  unsigned rxor = __reduce_xor_sync(0xffffffffu, (unsigned)v);
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  unsigned rank = __popc(bal & lt);
  if (v > 0) {
    unsigned inner = __activemask();
    out[n + i] = __ballot_sync(inner, v > 10);
  }
  out[i] = act ^ bal ^ any ^ (all << 1) ^ (uni << 2) ^ m32 ^ mall ^ (pred << 3) ^ m64 ^ radd ^ rmin ^ rmax ^
           rand_ ^ ror ^ rxor ^ rank;
}
