// nvcc -ptx -O3 -arch=sm_90 structparam.cu -o structparam.ptx
// A struct passed by value becomes `.param .align N .b8 name[size]`; the layout test checks its offset after
// the scalar parameters that precede it.
struct alignas(16) Params {
  double scale;
  int count;
  char tag;
  float4 bias;
  float table[5];
};

extern "C" __global__ void apply(char flag, Params p, float* out, short k) {
  int i = threadIdx.x;
  if (i < p.count) out[i] = (float)(p.scale * i) + p.bias.x + p.table[i % 5] + p.tag + flag + k;
}
