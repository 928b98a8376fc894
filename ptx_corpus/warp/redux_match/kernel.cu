// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// redux.sync (every operation and type sm_90 has) and match.sync (any/all, b32/b64, with all's predicate) over the
// lanes that execute them: 48 threads a block, so warp 1 has lanes 0..15 only; a divergent branch (the odd values)
// and a member mask naming lanes 0..15 of a full warp. 16 slots a thread; slots a thread does not reach keep the
// fill value.
extern "C" __global__ void redux_match(const int* in, unsigned* out) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t, lane = t & 31;
  int v = in[g];
  unsigned u = (unsigned)v;
  unsigned* o = out + g * 16;
  unsigned full = __activemask();
  o[0] = __reduce_add_sync(full, u);
  o[1] = (unsigned)__reduce_min_sync(full, v);
  o[2] = (unsigned)__reduce_max_sync(full, v);
  o[3] = __reduce_min_sync(full, u);
  o[4] = __reduce_max_sync(full, u);
  o[5] = __reduce_and_sync(full, u | 0x10000000u);
  o[6] = __reduce_or_sync(full, u & 0xF0F0u);
  o[7] = __reduce_xor_sync(full, u);
  o[8] = __match_any_sync(full, u & 7u);
  int pred;
  o[9] = __match_all_sync(full, (unsigned)(v > 900), &pred);
  o[10] = (unsigned)pred;
  if (v & 1) {
    unsigned m = __activemask();
    o[11] = __reduce_add_sync(m, u);
    o[12] = __match_any_sync(m, ((unsigned long long)(u & 3u) << 40) | (lane >> 3));
  }
  if (lane < 16) {
    o[13] = (unsigned)__reduce_max_sync(0xFFFFu, v);
    o[14] = __match_all_sync(0xFFFFu, (unsigned long long)(v < 990) << 33, &pred);
    o[15] = (unsigned)pred;
  }
}
